//! `run --trace`: every executed instruction indented by its depth in the listing (as
//! `dis` indents it, every loop iteration alike); when the instruction budget runs out,
//! the trace up to the budget (bounded, with a note), then the error.

mod common;

use common::{run, text, tmpdir};

const NESTED: &str = "ps_3_0\ndefi i0, 255, 0, 0, 0\ndef c0, 1, 1, 1, 1\nmov r0, c0\n\
                      rep i0\nrep i0\nrep i0\nadd r0, r0, c0\nendrep\nendrep\nendrep\n\
                      mov oC0, r0\n";

#[test]
fn an_exhausted_budget_prints_the_trace_up_to_it_then_the_error() {
    let dir = tmpdir("trace-budget");
    let src = dir.join("nested.asm");
    std::fs::write(&src, NESTED).unwrap();
    let out = run(&["run", "--trace", src.to_str().unwrap()], None);
    assert_eq!(out.status.code(), Some(1));
    let stdout = text(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert!(lines[0].starts_with("mov r0, c0"), "{}", lines[0]);
    assert_eq!(
        lines[4].split(';').next().unwrap().trim_end(),
        "      add r0, r0, c0"
    );
    // Bounded: 255³ adds would be millions of lines.
    assert!(lines.len() < 100_000, "{} lines", lines.len());
    assert!(
        stdout.contains("; trace stopped after its first"),
        "{}",
        &stdout[stdout.len() - 200..]
    );
    assert!(stdout.contains("; stopped: instruction budget"));
    assert!(text(&out.stderr).contains("instruction budget"));
    // JSON: the same trace and the error in one document.
    let out = run(
        &["run", "--trace", "--format", "json", src.to_str().unwrap()],
        None,
    );
    assert_eq!(out.status.code(), Some(1));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["trace_truncated"], true);
    assert!(doc["error"].as_str().unwrap().contains("+0016"));
    assert!(!doc["trace"].as_array().unwrap().is_empty());
}

#[test]
fn loop_iterations_keep_the_listing_indentation() {
    let dir = tmpdir("trace-indent");
    let src = dir.join("loop.asm");
    std::fs::write(
        &src,
        "ps_3_0\ndefi i0, 3, 0, 0, 0\ndef c0, 1, 1, 1, 1\nmov r0, c0\nrep i0\n\
         add r0, r0, c0\nendrep\nmov oC0, r0\n",
    )
    .unwrap();
    let out = run(&["run", "--trace", src.to_str().unwrap()], None);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let adds: Vec<&str> = stdout.lines().filter(|l| l.contains("add r0")).collect();
    assert_eq!(adds.len(), 3, "{stdout}");
    assert!(
        adds.iter().all(|l| l.starts_with("  add r0, r0, c0")),
        "{stdout}"
    );
    assert!(adds[2].ends_with("; (4, 4, 4, 4)"), "{stdout}");
    assert!(!stdout.contains("trace stopped"));
}
