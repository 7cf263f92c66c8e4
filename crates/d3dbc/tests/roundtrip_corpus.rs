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
use d3dbc::opcode::SlotModel;
use d3dbc::Severity;
use d3dbc::{print, validate, Shader};

fn opts(name: &str) -> Options {
    Options {
        file_name: name.to_string(),
        ..Default::default()
    }
}

/// Assembles a corpus listing, recording a failure (with the diagnostics) if it does not.
fn assemble_listing(text: &str, label: &str, failures: &mut Vec<String>) -> Option<Shader> {
    assemble(text, &opts(label))
        .map_err(|d| failures.push(format!("{label}: does not assemble:\n{d}")))
        .ok()
}

fn check_valid(label: &str, shader: &Shader, failures: &mut Vec<String>) {
    if let Some(f) = validate::validate(shader)
        .iter()
        .find(|f| f.severity == Severity::Error)
    {
        failures.push(format!(
            "{label}: validator rejects: {} {}",
            f.code, f.message
        ));
    }
}

#[test]
fn bytes_text_bytes() {
    let Some(streams) = common::all_streams() else {
        return;
    };
    let (mut ok, mut total, mut invalid, mut invalid_reassembled) = (0, 0, 0, 0);
    let mut invalid_raw = 0;
    let mut failures = Vec::new();
    for (file, label, tokens) in &streams {
        let Ok(shader) = Shader::decode(tokens) else {
            continue;
        };
        total += 1;
        let label = format!("{file} {label}");
        let text = print::to_string(&shader);
        let want = shader.without_comments().encode();
        let invalid_here = validate::validate(&shader)
            .iter()
            .any(|f| f.severity == Severity::Error);
        if invalid_here {
            // A shader the runtime rejects: `asm` rejects its listing too, and with
            // validation off it either reassembles exactly or is refused by the parser
            // (register indices Microsoft's assembler calls syntax errors).
            invalid += 1;
            if assemble(&text, &opts(&label)).is_ok() {
                failures.push(format!(
                    "{label}: asm accepted a listing the validator rejects"
                ));
            }
            let lax = Options {
                no_validate: true,
                ..opts(&label)
            };
            match assemble(&text, &lax) {
                Ok(back) if back.encode() == want => invalid_reassembled += 1,
                Ok(_) => failures.push(format!(
                    "{label}: asm --no-validate changes the bytes\n{text}"
                )),
                Err(_) => {}
            }
            // `asm --raw` takes back everything `dis` prints.
            let raw = Options { raw: true, ..lax };
            match assemble(&text, &raw) {
                Ok(back) if back.encode() == want => invalid_raw += 1,
                Ok(_) => failures.push(format!("{label}: asm --raw changes the bytes\n{text}")),
                Err(d) => failures.push(format!(
                    "{label}: asm --raw refuses the listing:\n{d}\n{text}"
                )),
            }
            continue;
        }
        match assemble(&text, &opts(&label)) {
            Ok(back) if back.encode() == want => ok += 1,
            Ok(_) => failures.push(format!("{label}: asm(dis(x)) differs\n{text}")),
            Err(d) => failures.push(format!("{label}: listing does not assemble:\n{d}\n{text}")),
        }
    }
    eprintln!(
        "bytes → text → bytes: {ok} of {} valid streams identical; {invalid} runtime-invalid streams rejected by asm ({invalid_reassembled} reassemble exactly without validation, {invalid_raw} with `asm --raw`)",
        total - invalid
    );
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert_eq!(ok, total - invalid);
    assert_eq!(invalid_raw, invalid);
}

/// The instruction lines of a listing, from the version line through the slot-count
/// footer. Comments a person added (whole-line, or after an instruction) are not
/// instruction lines and are left out, with the blank lines around them.
fn body(text: &str) -> Vec<&str> {
    let lines: Vec<&str> = text.lines().collect();
    let start = lines
        .iter()
        .position(|l| !l.trim().is_empty() && !l.trim_start().starts_with("//"))
        .unwrap_or(0);
    let end = lines
        .iter()
        .rposition(|l| l.starts_with("// approximately"))
        .map_or(lines.len(), |e| e + 1);
    lines[start..end]
        .iter()
        .filter(|l| l.starts_with("// approximately") || !l.trim_start().starts_with("//"))
        .map(|l| match l.find("//") {
            Some(i) if !l.starts_with("//") => l[..i].trim_end(),
            _ => l,
        })
        .fold(Vec::new(), |mut acc: Vec<&str>, l| {
            if !(l.is_empty() && acc.last().is_some_and(|p| p.is_empty())) {
                acc.push(l);
            }
            acc
        })
}

#[test]
fn microsoft_listings_reassemble_and_print_identically() {
    let Some(records) = common::records("oblivion_disasm.jsonl") else {
        return;
    };
    let (mut ok, mut assembled) = (0, 0);
    let mut failures = Vec::new();
    for r in &records {
        let label = common::label(r);
        let text = r["text"].as_str().unwrap();
        let Some(shader) = assemble_listing(text, &label, &mut failures) else {
            continue;
        };
        assembled += 1;
        check_valid(&label, &shader, &mut failures);
        // The footer follows the counting of the tool named on the `Generated by` line.
        let creator = text
            .lines()
            .find_map(|l| l.strip_prefix("// Generated by "))
            .unwrap_or("");
        let opts = print::PrintOptions {
            slot_model: Some(SlotModel::from_creator(creator)),
            ..Default::default()
        };
        let mut printed = String::new();
        print::print(&shader, &opts, &mut printed);
        let (want, got) = (body(text), body(&printed));
        if want == got {
            ok += 1;
        } else {
            let i = want
                .iter()
                .zip(&got)
                .position(|(a, b)| a != b)
                .unwrap_or(want.len().min(got.len()));
            failures.push(format!(
                "{label}: line {i} differs:\n  want {:?}\n  got  {:?}",
                want.get(i),
                got.get(i)
            ));
        }
    }
    eprintln!(
        "oblivion: {assembled} of {} assemble, {ok} print back identically",
        records.len()
    );
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn game_listings_assemble_stably() {
    let Some(records) = common::records("helix_asm.jsonl") else {
        return;
    };
    let mut ok = 0;
    let mut failures = Vec::new();
    for r in &records {
        let label = common::label(r);
        let text = r["text"].as_str().unwrap();
        let Some(shader) = assemble_listing(text, &label, &mut failures) else {
            continue;
        };
        check_valid(&label, &shader, &mut failures);
        let printed = print::to_string(&shader);
        match assemble(&printed, &opts(&label)) {
            Ok(again) if again.encode() == shader.encode() => ok += 1,
            Ok(_) => failures.push(format!(
                "{label}: assemble → dis → assemble changed the bytes"
            )),
            Err(d) => failures.push(format!("{label}: our own listing does not assemble:\n{d}")),
        }
    }
    eprintln!("helix: {ok} of {} assemble and round-trip", records.len());
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Constants `dis` prints with the MSVC runtime's special spellings (`1.#INF`,
/// `-1.#INF`, `1.#QNAN`, `-1.#IND`), `-0` and denormals reassemble to the same bits.
#[test]
fn special_float_constants_round_trip() {
    let values = [
        0x7f80_0000u32,
        0xff80_0000,
        0x7fc0_0000,
        0xffc0_0000,
        0x8000_0000,
        0x0000_0001,
        0x807f_ffff,
        0x7f7f_ffff,
    ];
    for pair in values.chunks(4) {
        let mut tokens = vec![0xffff_0200, 0x0500_0051, 0xa00f_0000];
        tokens.extend_from_slice(pair);
        tokens.extend_from_slice(&[0x0200_0001, 0x800f_0800, 0xa0e4_0000, 0x0000_ffff]);
        let shader = Shader::decode(&tokens).unwrap();
        let text = print::to_string(&shader);
        let back = assemble(&text, &opts("special.asm")).unwrap_or_else(|d| panic!("{d}\n{text}"));
        assert_eq!(back.encode(), tokens, "{text}");
    }
}
