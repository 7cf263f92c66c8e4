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
    for (file, label, tokens) in &streams {
        let Ok(shader) = Shader::decode(tokens) else {
            continue;
        };
        if !matches!(shader.ctab(), Some(Ok(_))) {
            continue;
        }
        with_ctab += 1;
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
        "CTAB rebuilt from the listing: {}/{with_ctab} identical",
        with_ctab - failures.len()
    );
    assert!(with_ctab > 50, "only {with_ctab} shaders with a CTAB");
    assert!(
        failures.is_empty(),
        "{}",
        failures[..failures.len().min(3)].join("\n")
    );
}
