//! Several inputs on standard output (`-o -`), the same on every verb: text outputs one
//! after another, each under the `// NAME` header `dis` prints; binary outputs (SPIR-V,
//! bytecode) refused with a message, since one stream would not say where each ends.

mod common;

use common::{example, run, text};

fn two(a: &str, b: &str) -> (String, String) {
    (
        example(a).to_str().unwrap().to_string(),
        example(b).to_str().unwrap().to_string(),
    )
}

fn headers(out: &[u8]) -> Vec<String> {
    text(out)
        .lines()
        .filter(|l| l.starts_with("// ") && l.contains("examples/"))
        .map(str::to_string)
        .collect()
}

#[test]
fn text_outputs_get_the_per_input_header_dis_uses() {
    let (ps, vs) = two("textured.pso", "transform.vso");
    let dis = run(&["dis", &ps, &vs], None);
    let wgsl = run(&["translate", "-t", "wgsl", "-o", "-", &ps, &vs], None);
    assert!(wgsl.status.success(), "{}", text(&wgsl.stderr));
    assert_eq!(headers(&wgsl.stdout).len(), 2, "{}", text(&wgsl.stdout));
    assert_eq!(headers(&wgsl.stdout), headers(&dis.stdout));
    assert!(text(&wgsl.stdout).starts_with(&format!("// {ps}\n")));
    let (a, b) = two("textured.asm", "textured.asm");
    let hex = run(&["asm", "--format", "hex", "-o", "-", &a, &b], None);
    assert!(hex.status.success(), "{}", text(&hex.stderr));
    assert_eq!(headers(&hex.stdout).len(), 2);
    // One input: no header, the output alone.
    let one = run(&["translate", "-t", "wgsl", &ps], None);
    assert!(headers(&one.stdout).is_empty());
}

#[test]
fn binary_outputs_to_one_stream_are_refused() {
    let (ps, vs) = two("textured.pso", "transform.vso");
    let spv = run(&["translate", "-t", "spirv", "-o", "-", &ps, &vs], None);
    assert_eq!(spv.status.code(), Some(2));
    assert!(spv.stdout.is_empty());
    assert!(text(&spv.stderr).contains("binary outputs cannot share standard output"));
    let (a, b) = two("textured.asm", "textured.asm");
    let bin = run(&["asm", "-o", "-", &a, &b], None);
    assert_eq!(bin.status.code(), Some(2));
    assert!(bin.stdout.is_empty());
    assert!(text(&bin.stderr).contains("--out-dir"));
}
