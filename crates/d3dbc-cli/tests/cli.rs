//! End-to-end tests of the `d3dbc` binary: input detection, batch rules, exit status,
//! per-file error reporting.

mod common;

use common::{example, run, tmpdir};

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
            "{}: DWORD +0001 (0x00000031): unknown opcode",
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
    let v = &v[0]["shaders"][0];
    assert_eq!(v["version"], "vs_2_0");
    let items = v["items"].as_array().unwrap();
    assert_eq!(items.len(), 4);
    assert_eq!(items[2]["offset"], 7);
    assert_eq!(items[2]["tokens"][0], "0x03000014");
    assert_eq!(items[2]["opcode"], "m4x4");
    assert_eq!(v["end_offset"], 14);
}

#[test]
fn unknown_input_is_an_error() {
    let out = run(&["dis", "-"], Some(b"this is not a shader"));
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).starts_with("<stdin>: no shader found"));
    // `dis -o FILE` takes several inputs (one stream, as on standard output); a verb
    // writing one binary per input does not.
    let out = run(&["asm", "-o", "x", "a", "b"], None);
    assert_eq!(
        out.status.code(),
        Some(2),
        "clap rejects -o with --out-dir only; -o with several inputs is ours"
    );
}

const VS_TEXT: &str =
    "vs_2_0\ndcl_position v0\ndcl_texcoord v1\nm4x4 oPos, v0, c0\nmov oT0.xy, v1\n";

#[test]
fn asm_gives_the_example_bytes_and_dis_reads_them_back() {
    let dir = tmpdir("asm");
    let src = dir.join("transform.asm");
    std::fs::write(&src, VS_TEXT).unwrap();
    let out_bin = dir.join("t.vso");
    let out = run(
        &[
            "asm",
            src.to_str().unwrap(),
            "-o",
            out_bin.to_str().unwrap(),
        ],
        None,
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        std::fs::read(&out_bin).unwrap(),
        std::fs::read(example("transform.vso")).unwrap()
    );
    let hex = run(&["asm", "--format", "hex", "-"], Some(VS_TEXT.as_bytes()));
    let want: String = VS.iter().map(|t| format!("0x{t:08x}\n")).collect();
    assert_eq!(String::from_utf8_lossy(&hex.stdout), want);
    // The header holds the listing and the bytes, and `dis` reads it back.
    let hdr = run(
        &[
            "asm",
            "--format",
            "header",
            "--out-dir",
            dir.to_str().unwrap(),
            src.to_str().unwrap(),
        ],
        None,
    );
    assert!(hdr.status.success());
    let h = std::fs::read_to_string(dir.join("transform.h")).unwrap();
    assert!(
        h.starts_with("#if 0\n    vs_2_0\n") && h.contains("const BYTE g_transform[] ="),
        "{h}"
    );
    let back = run(&["dis", dir.join("transform.h").to_str().unwrap()], None);
    let direct = run(&["dis", example("transform.vso").to_str().unwrap()], None);
    assert_eq!(back.stdout, direct.stdout);
}

#[test]
fn asm_errors_point_at_line_and_column() {
    let out = run(
        &["asm", "--format", "hex", "-"],
        Some(b"vs_2_0\nmov r0, v0\nfoo r0, v0\nmov r99, v0\n"),
    );
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("<stdin>:3:1: error"), "{err}");
    assert!(err.contains("<stdin>:4:5: error"), "{err}");
    assert!(err.contains("\n  foo r0, v0\n  ^^^"), "{err}");
    // -D and #ifdef.
    let text = b"vs_2_0\n#ifdef BIG\nmov r0, c200\n#else\nmov r0, c1\n#endif\nmov oPos, r0\n";
    let a = run(&["asm", "--format", "hex", "-"], Some(text));
    let b = run(&["asm", "--format", "hex", "-D", "BIG", "-"], Some(text));
    assert!(a.status.success() && b.status.success());
    assert_ne!(a.stdout, b.stdout);
}

#[test]
fn asm_validates_unless_told_not_to() {
    let text = b"ps_2_0\nmov oC0, r5\n";
    let out = run(&["asm", "--format", "hex", "-"], Some(text));
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("error[E0204]"));
    let out = run(
        &["asm", "--format", "hex", "--no-validate", "-"],
        Some(text),
    );
    assert!(out.status.success());
}

/// `--no-validate` is D3DCOMPILE_SKIP_VALIDATION: the assembler's grammar still refuses
/// what the version lacks, at `file:line:col`; `--raw` encodes it. Cases from Microsoft's
/// documentation of the modifiers ("Instruction Modifiers", "Source Register Modifiers"
/// of the ps_2_0/vs_2_0 references): `_x2` and `_bx2` exist only in ps_1_x, `_abs` only
/// in 3.0, `_pp` only in pixel shaders.
#[test]
fn no_validate_keeps_the_grammar_raw_does_not() {
    let dir = tmpdir("grammar");
    for (text, line_col, shown) in [
        (
            "ps_2_0\ndcl t0\nmul_x2 r0, t0, t0\nmov oC0, r0\n",
            ":3:1: error",
            "mul_x2 r0, t0, t0",
        ),
        (
            "vs_2_0\ndcl_position v0\nmov r0, v0_bx2\nmov oPos, r0\n",
            ":3:11: error",
            "mov r0, v0_bx2",
        ),
        (
            "vs_2_0\ndcl_position v0\nmov oPos, v0_abs\n",
            ":3:13: error",
            "mov oPos, v0_abs",
        ),
        (
            "vs_3_0\ndcl_position v0\ndcl_position o0\nmul_pp o0, v0, v0\n",
            ":4:1: error",
            "mul_pp o0, v0, v0",
        ),
    ] {
        let file = dir.join("g.asm");
        std::fs::write(&file, text).unwrap();
        let f = file.to_str().unwrap();
        let out = run(&["asm", "--no-validate", f], None);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{text}");
        assert!(err.contains(&format!("g.asm{line_col}")), "{text}: {err}");
        let bin = dir.join("g.bin");
        let raw = run(&["asm", "--raw", f, "-o", bin.to_str().unwrap()], None);
        assert!(
            raw.status.success(),
            "{text}: {}",
            String::from_utf8_lossy(&raw.stderr)
        );
        let listing = run(&["dis", bin.to_str().unwrap()], None);
        let listing = String::from_utf8_lossy(&listing.stdout);
        assert!(listing.contains(shown), "{text}: {listing}");
    }
}

#[test]
fn validate_reports_and_exits_by_validity() {
    let ok = run(
        &["validate", example("transform.vso").to_str().unwrap()],
        None,
    );
    assert!(ok.status.success());
    assert!(ok.stdout.is_empty(), "quiet on success");
    let bad = "0xffff0200, 0x05000051, 0xa00f0020, 0x3f800000, 0x3f800000, 0x3f800000, 0x3f800000, 0x0000ffff";
    let out = run(&["validate", "--format", "json", "-"], Some(bad.as_bytes()));
    assert_eq!(out.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v[0]["status"], "invalid");
    let s = &v[0]["shaders"][0];
    assert_eq!(s["valid"], false);
    assert_eq!(s["findings"][0]["code"], "E0203");
    assert_eq!(s["findings"][0]["offset"], 1);
    assert_eq!(s["findings"][0]["offset_hex"], "+0001");
    assert_eq!(s["findings"][0]["instruction"], "def c32, 1, 1, 1, 1");
}

#[test]
fn validate_puts_the_caret_under_the_operand_as_asm_does() {
    // `r7` (operand 1, column 10) is read before anything writes it.
    let text = b"ps_2_0\nmov oC0, r7\n";
    let v = run(&["validate", "-"], Some(text));
    assert_eq!(v.status.code(), Some(1));
    let out = String::from_utf8_lossy(&v.stdout);
    assert_eq!(
        out.lines().collect::<Vec<_>>(),
        [
            "<stdin>:2:10: error[E0204]: `mov oC0, r7`: mov reads r7, which no earlier \
             instruction wrote [Temporary Register (HLSL VS reference); Temporary register \
             (HLSL PS reference)]",
            "  mov oC0, r7",
            "           ^^",
        ],
        "{out}"
    );
    // `asm` reports the same place.
    let a = run(&["asm", "--format", "hex", "-"], Some(text));
    let err = String::from_utf8_lossy(&a.stderr);
    assert!(err.contains("<stdin>:2:10: error[E0204]"), "{err}");
    assert!(err.contains("\n           ^^"), "{err}");
    // JSON gives the operand's line:column too.
    let j = run(&["validate", "--format", "json", "-"], Some(text));
    let v: serde_json::Value = serde_json::from_slice(&j.stdout).unwrap();
    assert_eq!(
        v[0]["shaders"][0]["findings"][0]["location"],
        "<stdin>:2:10"
    );
}
