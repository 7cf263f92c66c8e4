//! One spelling of DWORD offsets in every verb's messages: `+01b7` (hex, the version
//! token at `+0000`), as `validate` and `dis --offsets` print them.

mod common;

use common::{invalid_pso, run, text, tmpdir};

fn assert_hex_offset(msg: &str, offset: &str) {
    assert!(msg.contains(offset), "expected {offset} in: {msg}");
    assert!(!msg.contains("DWORD"), "decimal DWORD offset in: {msg}");
    assert!(!msg.contains("offset 1"), "decimal offset in: {msg}");
}

#[test]
fn validator_findings_read_the_same_in_validate_run_and_translate() {
    let dir = tmpdir("offsets-invalid");
    let pso = invalid_pso(&dir);
    let v = run(&["validate", &pso], None);
    assert_hex_offset(&text(&v.stdout), "+0001");
    let r = run(&["run", &pso], None);
    assert!(!r.status.success());
    assert_hex_offset(&text(&r.stderr), "+0001");
    let t = run(&["translate", "-t", "wgsl", &pso], None);
    assert!(!t.status.success());
    assert_hex_offset(&text(&t.stderr), "+0001");
}

#[test]
fn the_instruction_budget_error_names_the_instruction_in_hex() {
    let dir = tmpdir("offsets-budget");
    let src = dir.join("budget.asm");
    // 255³ iterations: past the default budget of 2^22 instructions.
    std::fs::write(
        &src,
        "ps_3_0\ndefi i0, 255, 0, 0, 0\ndef c0, 1, 1, 1, 1\nmov r0, c0\nrep i0\nrep i0\n\
         rep i0\nadd r0, r0, c0\nendrep\nendrep\nendrep\nmov oC0, r0\n",
    )
    .unwrap();
    let r = run(&["run", src.to_str().unwrap()], None);
    assert!(!r.status.success());
    let err = text(&r.stderr);
    assert!(err.contains("instruction budget"), "{err}");
    // `add` is the 6th instruction: +0016 (after defi, def, mov, three reps).
    assert_hex_offset(&err, "+0016");
}

#[test]
fn translation_errors_name_the_instruction_in_hex() {
    let dir = tmpdir("offsets-translate");
    let src = dir.join("stray.asm");
    // `else` without `if`: version token, mov (+0001…+0003), else at +0004.
    std::fs::write(&src, "vs_2_0\nmov oPos, c0\nelse\n").unwrap();
    let vso = dir.join("stray.vso");
    let a = run(
        &[
            "asm",
            "--raw",
            src.to_str().unwrap(),
            "-o",
            vso.to_str().unwrap(),
        ],
        None,
    );
    assert!(a.status.success(), "{}", text(&a.stderr));
    let t = run(
        &[
            "translate",
            "-t",
            "wgsl",
            "--no-validate",
            vso.to_str().unwrap(),
        ],
        None,
    );
    assert!(!t.status.success());
    let err = text(&t.stderr);
    assert!(err.contains("+0004: else without if"), "{err}");
    assert_hex_offset(&err, "+0004");
}
