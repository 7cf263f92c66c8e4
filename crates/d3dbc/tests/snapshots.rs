//! The in-repo snapshot suite: every `tests/snapshots/*.asm` (hand-made shaders, written
//! for this project: every opcode of every version, every `dcl` form, every modifier,
//! flow control, ps_1_x, error cases) is assembled without the validator, and its
//! outputs must equal the files beside it:
//! - `.hex`: the token stream (8 DWORDs per line), absent when assembly fails;
//! - `.dis`: the listing `dis` prints, absent when assembly fails; assembling it again
//!   must give the same tokens;
//! - `.findings`: the assembler's errors, or the validator's findings located at the
//!   source line and operand (`(none)` for a clean shader).
//!
//! Needs no corpus. After an intended change, rewrite the expected files with
//! `D3DBC_BLESS=1 cargo test -p d3dbc --test snapshots` and review the diff.

use d3dbc::asm::{self, Options};
use d3dbc::print;
use d3dbc::validate::validate;
use std::fmt::Write;
use std::path::{Path, PathBuf};

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/snapshots");

/// What one case produces.
struct Outputs {
    hex: Option<String>,
    dis: Option<String>,
    findings: String,
    /// The listing does not reassemble to the same tokens (a failure in itself).
    unstable: Option<String>,
}

fn hex(tokens: &[u32]) -> String {
    let mut s = String::new();
    for line in tokens.chunks(8) {
        let words: Vec<String> = line.iter().map(|t| format!("{t:08x}")).collect();
        s.push_str(&words.join(" "));
        s.push('\n');
    }
    s
}

fn no_validate(file_name: &str) -> Options {
    Options {
        file_name: file_name.to_string(),
        no_validate: true,
        ..Options::default()
    }
}

fn run(name: &str, text: &str) -> Outputs {
    let assembled = match asm::assemble_with_sources(text, &no_validate(name)) {
        Ok(a) => a,
        Err(diags) => {
            return Outputs {
                hex: None,
                dis: None,
                findings: format!("{diags}\n"),
                unstable: None,
            }
        }
    };
    let tokens = assembled.shader.encode();
    let dis = print::to_string(&assembled.shader);
    let mut findings = String::new();
    for f in validate(&assembled.shader) {
        let mut d = assembled.error_at(f.item, f.operand, f.message);
        d.severity = f.severity;
        d.code = Some(f.code);
        let _ = writeln!(findings, "{d}");
    }
    if findings.is_empty() {
        findings.push_str("(none)\n");
    }
    let mut streamed = String::new();
    let unstable = match asm::assemble(&dis, &no_validate("listing")) {
        _ if print::print_tokens(&tokens, &Default::default(), &mut streamed).is_err()
            || streamed != dis =>
        {
            Some("the streaming printer differs from the IR printer".to_string())
        }
        Ok(again) if again.encode() == tokens => None,
        Ok(again) => Some(format!(
            "the listing reassembles to other tokens:\n{}",
            hex(&again.encode())
        )),
        Err(e) => Some(format!("the listing does not reassemble:\n{e}")),
    };
    Outputs {
        hex: Some(hex(&tokens)),
        dis: Some(dis),
        findings,
        unstable,
    }
}

fn first_difference(old: &str, new: &str) -> String {
    let (mut o, mut n) = (old.lines(), new.lines());
    for line in 1.. {
        match (o.next(), n.next()) {
            (None, None) => break,
            (a, b) if a == b => continue,
            (a, b) => {
                return format!(
                    "line {line}:\n    old: {}\n    new: {}",
                    a.unwrap_or("<end>"),
                    b.unwrap_or("<end>")
                )
            }
        }
    }
    "whitespace at the end".to_string()
}

/// Compares (or, blessing, writes) one expected file; `None` means the file must not
/// exist.
fn check(path: &Path, got: Option<&str>, bless: bool, failures: &mut Vec<String>) {
    let want = std::fs::read_to_string(path).ok();
    if want.as_deref() == got {
        return;
    }
    if bless {
        match got {
            Some(text) => std::fs::write(path, text).expect("write snapshot"),
            None => std::fs::remove_file(path).expect("remove snapshot"),
        }
        return;
    }
    let name = path.file_name().unwrap().to_string_lossy();
    failures.push(match (want, got) {
        (None, Some(_)) => format!("{name}: missing (D3DBC_BLESS=1 writes it)"),
        (Some(_), None) => format!("{name}: expected no such output"),
        (Some(w), Some(g)) => format!("{name}: {}", first_difference(&w, g)),
        (None, None) => unreachable!(),
    });
}

fn cases() -> Vec<PathBuf> {
    let mut cases: Vec<PathBuf> = std::fs::read_dir(DIR)
        .expect("tests/snapshots")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "asm"))
        .collect();
    cases.sort();
    cases
}

#[test]
fn snapshots_match() {
    let bless = std::env::var("D3DBC_BLESS").is_ok_and(|v| v == "1");
    let cases = cases();
    let mut failures = Vec::new();
    let mut clean = 0;
    for case in &cases {
        let name = case.file_name().unwrap().to_string_lossy().to_string();
        let text = std::fs::read_to_string(case).expect("read case");
        let out = run(&name, &text);
        if let Some(why) = &out.unstable {
            failures.push(format!("{name}: {why}"));
        }
        if out.findings == "(none)\n" {
            clean += 1;
        }
        check(
            &case.with_extension("hex"),
            out.hex.as_deref(),
            bless,
            &mut failures,
        );
        check(
            &case.with_extension("dis"),
            out.dis.as_deref(),
            bless,
            &mut failures,
        );
        check(
            &case.with_extension("findings"),
            Some(&out.findings),
            bless,
            &mut failures,
        );
    }
    eprintln!(
        "snapshots: {} cases ({clean} validate clean), {} failures",
        cases.len(),
        failures.len()
    );
    assert!(
        cases.len() >= 300,
        "expected hundreds of cases, found {}",
        cases.len()
    );
    assert!(
        failures.is_empty(),
        "{} snapshot differences:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
