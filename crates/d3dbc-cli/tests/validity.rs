//! One validity rule for every verb that executes or translates (`run`, `render`,
//! `translate`): a shader the runtime validator rejects is refused (exit 1) with the
//! validator's report; `--no-validate` (the flag `asm` has too) goes ahead and says so
//! in a warning on standard error.

mod common;

use common::{invalid_pso, run, text, tmpdir};

/// The three verbs, each writing into `dir`.
fn verbs(dir: &std::path::Path) -> Vec<Vec<String>> {
    let png = dir.join("out.png").to_str().unwrap().to_string();
    let wgsl = dir.join("out.wgsl").to_str().unwrap().to_string();
    vec![
        vec!["run".into()],
        vec!["render".into(), "-o".into(), png],
        vec![
            "translate".into(),
            "-t".into(),
            "wgsl".into(),
            "-o".into(),
            wgsl,
        ],
    ]
}

#[test]
fn every_executing_or_translating_verb_refuses_an_invalid_shader() {
    let dir = tmpdir("validity-refuse");
    let pso = invalid_pso(&dir);
    for mut v in verbs(&dir) {
        v.push(pso.clone());
        let args: Vec<&str> = v.iter().map(String::as_str).collect();
        let out = run(&args, None);
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        // The validator's report, as `validate` prints it.
        assert!(err.contains("error[E0204]"), "{args:?}: {err}");
        assert!(err.contains("--no-validate"), "{args:?}: {err}");
    }
    assert!(!dir.join("out.png").exists() && !dir.join("out.wgsl").exists());
}

#[test]
fn no_validate_goes_ahead_with_a_warning_on_every_verb() {
    let dir = tmpdir("validity-force");
    let pso = invalid_pso(&dir);
    for mut v in verbs(&dir) {
        v.push(pso.clone());
        v.push("--no-validate".into());
        let args: Vec<&str> = v.iter().map(String::as_str).collect();
        let out = run(&args, None);
        let err = text(&out.stderr);
        assert!(out.status.success(), "{args:?}: {err}");
        assert!(err.contains("warning:"), "{args:?}: {err}");
        assert!(err.contains("--no-validate"), "{args:?}: {err}");
    }
    assert!(dir.join("out.png").exists() && dir.join("out.wgsl").exists());
}

#[test]
fn assembly_text_is_reported_at_line_and_column() {
    let dir = tmpdir("validity-text");
    let src = dir.join("bad.asm");
    std::fs::write(&src, "ps_2_0\nmov oC0, r5\n").unwrap();
    let out = run(&["run", src.to_str().unwrap()], None);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains(":2:10: error[E0204]"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn a_valid_shader_runs_without_a_warning() {
    let dir = tmpdir("validity-valid");
    let src = dir.join("ok.asm");
    std::fs::write(&src, "ps_2_0\ndef c0, 1, 0, 0, 1\nmov oC0, c0\n").unwrap();
    let out = run(&["run", src.to_str().unwrap()], None);
    assert!(out.status.success());
    assert!(text(&out.stderr).is_empty(), "{}", text(&out.stderr));
}
