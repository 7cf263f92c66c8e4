//! End-to-end tests of the `d3dbc` binary: input detection, batch rules, exit status,
//! per-file error reporting.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_d3dbc"))
}

fn example(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples")
        .join(name)
}

fn run(args: &[&str], stdin: Option<&[u8]>) -> Output {
    let mut c = bin();
    c.args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = c.spawn().unwrap();
    if let Some(data) = stdin {
        child.stdin.take().unwrap().write_all(data).unwrap();
    } else {
        drop(child.stdin.take());
    }
    child.wait_with_output().unwrap()
}

fn tmpdir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("d3dbc-cli-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

const VS: [u32; 15] = [
    0xfffe0200, 0x0200001f, 0x80000000, 0x900f0000, 0x0200001f, 0x80000005, 0x900f0001, 0x03000014,
    0xc00f0000, 0x90e40000, 0xa0e40000, 0x02000001, 0xe0030000, 0x90e40001, 0x0000ffff,
];

#[test]
fn the_bundled_example_matches_its_tokens() {
    let bytes = std::fs::read(example("transform.vso")).unwrap();
    let tokens: Vec<u32> = bytes
        .chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    assert_eq!(tokens, VS);
    let out = run(&["dis", example("transform.vso").to_str().unwrap()], None);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn every_container_gives_the_same_listing() {
    let raw = run(&["dis", example("transform.vso").to_str().unwrap()], None);
    let hex: String = VS.iter().map(|t| format!("0x{t:08x},\n")).collect();
    let from_hex = run(&["dis", "-"], Some(hex.as_bytes()));
    let bytes: Vec<String> = VS
        .iter()
        .flat_map(|t| t.to_le_bytes())
        .map(|b| b.to_string())
        .collect();
    let header = format!(
        "#if 0\n    vs_2_0\n#endif\n\nconst BYTE g_vs[] =\n{{\n    {}\n}};\n",
        bytes.join(", ")
    );
    let from_header = run(&["dis", "-"], Some(header.as_bytes()));
    assert!(raw.status.success() && from_hex.status.success() && from_header.status.success());
    assert_eq!(raw.stdout, from_hex.stdout);
    assert_eq!(raw.stdout, from_header.stdout);
}

#[test]
fn batch_reports_each_failure_and_keeps_going() {
    let dir = tmpdir("batch");
    let bad = dir.join("bad.vso");
    std::fs::write(&bad, [0x01u8, 0x01, 0xfe, 0xff, 0x31, 0, 0, 0]).unwrap();
    let missing = dir.join("missing.vso");
    let out_dir = dir.join("out");
    let ex = example("transform.vso");
    let out = run(
        &[
            "dis",
            "--out-dir",
            out_dir.to_str().unwrap(),
            bad.to_str().unwrap(),
            ex.to_str().unwrap(),
            missing.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(&format!(
            "{}: DWORD 1 (0x00000031): unknown opcode",
            bad.display()
        )),
        "{err}"
    );
    assert!(err.contains(&format!("{}: ", missing.display())), "{err}");
    assert!(out_dir.join("transform.asm").exists());
    assert!(!out_dir.join("bad.asm").exists());
}

#[test]
fn json_lists_offsets_and_tokens() {
    let out = run(
        &[
            "dis",
            "--format",
            "json",
            example("transform.vso").to_str().unwrap(),
        ],
        None,
    );
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["version"], "vs_2_0");
    let items = v["items"].as_array().unwrap();
    assert_eq!(items.len(), 4);
    assert_eq!(items[2]["offset"], 7);
    assert_eq!(items[2]["tokens"][0], "0x03000014");
    assert_eq!(items[2]["instruction"]["opcode"], "M4x4");
    assert_eq!(v["end_offset"], 14);
}

#[test]
fn unknown_input_is_an_error() {
    let out = run(&["dis", "-"], Some(b"this is not a shader"));
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).starts_with("<stdin>: no shader found"));
    let out = run(&["dis", "-o", "x", "a", "b"], None);
    assert_eq!(
        out.status.code(),
        Some(2),
        "clap rejects -o with --out-dir only; -o with several inputs is ours"
    );
}
