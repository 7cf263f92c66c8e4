//! `dis` → `asm` keeps the constant table: for every corpus shader with a `CTAB`, the
//! table rebuilt from the listing's header comment prints back the same listing,
//! header included (`dis(asm(dis(x))) == dis(x)`).

mod common;

use d3dbc::asm::{self, ctab_header};
use d3dbc::{print, Shader};

#[test]
fn rebuilt_ctab_prints_the_same_listing() {
    let mut streams = match common::all_streams() {
        Some(s) => s,
        None => return,
    };
    for file in ["vkd3d_exec.jsonl", "wine_exec.jsonl"] {
        for r in common::records(file).unwrap_or_default() {
            for key in ["ps_dwords", "vs_dwords"] {
                if r.get(key).is_some_and(|v| v.is_array()) {
                    streams.push((file.into(), common::label(&r), common::dwords(&r[key])));
                }
            }
        }
    }
    let (mut with_ctab, mut failures) = (0, Vec::new());
    let mut per_file: std::collections::BTreeMap<&str, usize> = Default::default();
    for (file, label, tokens) in &streams {
        let Ok(shader) = Shader::decode(tokens) else {
            continue;
        };
        if !matches!(shader.ctab(), Some(Ok(_))) {
            continue;
        }
        with_ctab += 1;
        *per_file.entry(file.as_str()).or_default() += 1;
        let listing = print::to_string(&shader);
        let opts = asm::Options {
            no_validate: true,
            ..Default::default()
        };
        let result = asm::assemble(&listing, &opts)
            .map_err(|e| e.to_string())
            .and_then(|mut s| {
                let ctab = ctab_header::ctab_from_listing(&listing, "x")
                    .map_err(|e| e.to_string())?
                    .ok_or("no header found")?;
                ctab_header::embed(&mut s, &ctab);
                Ok(print::to_string(&s))
            });
        match result {
            Ok(again) if again == listing => {}
            Ok(again) => failures.push(format!(
                "{file} {label}: listing differs\n--- want\n{listing}\n--- got\n{again}"
            )),
            Err(e) => failures.push(format!("{file} {label}: {e}")),
        }
    }
    eprintln!(
        "CTAB rebuilt from the listing: {}/{with_ctab} identical ({per_file:?} shaders with a CTAB)",
        with_ctab - failures.len()
    );
    assert!(with_ctab > 50, "only {with_ctab} shaders with a CTAB");
    assert!(
        failures.is_empty(),
        "{}",
        failures[..failures.len().min(3)].join("\n")
    );
}

/// Real listings (fxc, vsa, hand-edited game overrides) never make the header reader
/// fail: `asm` must keep assembling everything it assembled before the rebuild existed.
/// Where the listing is fxc's own (`binaries.jsonl`), the table it gives prints the
/// same header as the binary's table.
#[test]
fn real_listings_give_a_table_or_none() {
    let mut texts: Vec<(String, String)> = Vec::new();
    for (file, key) in [
        ("oblivion_disasm.jsonl", "text"),
        ("helix_asm.jsonl", "text"),
        ("binaries.jsonl", "disasm_text"),
    ] {
        let Some(recs) = common::records(file) else {
            return;
        };
        for r in recs {
            if let Some(t) = r[key].as_str() {
                texts.push((format!("{file} {}", common::label(&r)), t.to_string()));
            }
        }
    }
    let (mut tables, mut errors) = (0, Vec::new());
    for (label, text) in &texts {
        match ctab_header::ctab_from_listing(text, "x") {
            Ok(Some(_)) => tables += 1,
            Ok(None) => {}
            Err(e) => errors.push(format!(
                "{label}: {}",
                e.to_string().lines().next().unwrap_or("")
            )),
        }
    }
    eprintln!(
        "header tables read from {tables} of {} real listings",
        texts.len()
    );
    for e in &errors {
        eprintln!("  {e}");
    }
    assert!(tables > 50, "only {tables} listings with a header table");
    // fxc's own listings always read; hand-annotated ones (a few Oblivion listings
    // with notes in `// Parameters:`) give a located error, which `asm` reports as a
    // warning before assembling without a table.
    assert!(
        errors
            .iter()
            .all(|e| !e.starts_with("binaries.jsonl") && e.contains(": error: ")),
        "{}",
        errors.join("\n")
    );
    assert!(
        errors.len() <= 3,
        "{} unreadable headers (was 3)",
        errors.len()
    );
}
