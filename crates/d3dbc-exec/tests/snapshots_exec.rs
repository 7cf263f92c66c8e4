//! The format crate's snapshot cases (`crates/d3dbc/tests/snapshots/*.hex`, hand-made
//! shaders covering every opcode, declaration, modifier and flow form) on the executor,
//! with no corpus: every valid case runs (vertex shaders over generated inputs, pixel
//! shaders over a rendered 8×8 quad), deterministically, without panicking, and ends.

mod support;

use support::{execute, valid};

const SNAPSHOTS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../d3dbc/tests/snapshots");

#[test]
fn every_valid_snapshot_case_executes() {
    let mut cases = Vec::new();
    for entry in std::fs::read_dir(SNAPSHOTS).expect("the snapshot cases") {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "hex") {
            let text = std::fs::read_to_string(&path).unwrap();
            let tokens: Vec<u32> = text
                .split_whitespace()
                .map(|w| u32::from_str_radix(w, 16).expect("a hex DWORD"))
                .collect();
            cases.push((
                path.file_stem().unwrap().to_string_lossy().into_owned(),
                tokens,
            ));
        }
    }
    cases.sort();
    let (mut ran, mut clean_errors, mut invalid) = (0, 0, 0);
    let mut failures = Vec::new();
    for (name, tokens) in &cases {
        if !valid(tokens) {
            invalid += 1;
            continue;
        }
        match execute(tokens) {
            Ok(true) => ran += 1,
            Ok(false) => clean_errors += 1,
            Err(e) => failures.push(format!("{name}: {e}")),
        }
    }
    eprintln!(
        "snapshot execution: {ran} ran, {clean_errors} stopped by the budget, {invalid} invalid skipped, {} failed",
        failures.len()
    );
    // 556 of the 664 cases are valid today; a drop means the loader broke.
    assert!(ran > 500, "only {ran} snapshot cases ran");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
