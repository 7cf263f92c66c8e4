//! Every valid corpus shader executes: vertex shaders over generated inputs, pixel
//! shaders over a rendered 8×8 quad with default textures. Runs are deterministic (two
//! runs agree bit for bit), never panic, and end (the instruction budget turns a runaway
//! loop into a clean error).
#[path = "../../d3dbc/tests/common/mod.rs"]
mod common;
mod support;

use d3dbc::asm;
use support::{execute, valid};

#[test]
fn every_valid_corpus_shader_executes() {
    let Some(streams) = common::all_streams() else {
        return;
    };
    let mut shaders: Vec<(String, Vec<u32>)> = streams
        .into_iter()
        .map(|(f, l, t)| (format!("{f} {l}"), t))
        .collect();
    for file in ["oblivion_disasm.jsonl", "helix_asm.jsonl"] {
        for r in common::records(file).unwrap() {
            let text = r["text"].as_str().unwrap_or("");
            if let Ok(s) = asm::assemble(text, &asm::Options::default()) {
                shaders.push((format!("{file} {}", common::label(&r)), s.encode()));
            }
        }
    }
    let (mut ran, mut clean_errors, mut invalid) = (0, 0, 0);
    let mut failures = Vec::new();
    for (label, tokens) in &shaders {
        if !valid(tokens) {
            invalid += 1;
            continue;
        }
        match execute(tokens) {
            Ok(true) => ran += 1,
            Ok(false) => clean_errors += 1,
            Err(e) => failures.push(format!("{label}: {e}")),
        }
    }
    eprintln!(
        "corpus execution: {ran} ran, {clean_errors} stopped by the budget, {invalid} invalid skipped, {} failed",
        failures.len()
    );
    assert!(ran > 3000, "only {ran} shaders ran");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
