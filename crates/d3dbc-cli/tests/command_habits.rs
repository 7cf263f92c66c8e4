//! The command as users meet it: closed pipes, one JSON shape, odd inputs,
//! output names, the constant table through dis → asm, one report stream, colour,
//! directories and stdin. Every test runs the built binary.

mod common;

use common::{close_after_first_line, example, run, run_in, text, tmpdir};

fn ex(name: &str) -> String {
    example(name).to_str().unwrap().to_string()
}

fn bytes(tokens: &[u32]) -> Vec<u8> {
    tokens.iter().flat_map(|t| t.to_le_bytes()).collect()
}

/// vs_2_0 with `n` times `mov r0, r36` (decodes, prints, fails validation per line).
fn big_vs(n: usize) -> Vec<u8> {
    let mut t = vec![0xfffe0200u32];
    for _ in 0..n {
        t.extend([0x02000001, 0x800f0000, 0x80e40024]);
    }
    t.push(0xffff);
    bytes(&t)
}

// 1.
#[test]
fn closed_pipe_ends_quietly_for_every_verb() {
    let dir = tmpdir("pipe");
    let big = dir.join("big.vso");
    std::fs::write(&big, big_vs(60_000)).unwrap();
    let listing = dir.join("big.asm");
    let b = big.to_str().unwrap();
    std::fs::write(&listing, run(&["dis", b], None).stdout).unwrap();
    let l = listing.to_str().unwrap();
    for args in [
        vec!["dis", b],
        vec!["dis", "--format", "json", b],
        vec!["validate", b],
        vec!["validate", "--format", "json", b],
        vec!["asm", "--raw", "--format", "hex", l],
    ] {
        let (code, err) = close_after_first_line(&args);
        assert_eq!(code, Some(141), "{args:?}: {err}");
        assert!(err.is_empty(), "{args:?}: {err}");
    }
}

// 2.
#[test]
fn json_lists_every_input_with_its_status() {
    let dir = tmpdir("json");
    let typo = dir.join("typo.asm");
    std::fs::write(&typo, "vs_2_0\nfoo r0, v0\n").unwrap();
    let t = typo.to_str().unwrap();
    let one = run(&["validate", "--format", "json", t], None);
    assert_eq!(one.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&one.stdout).unwrap();
    assert_eq!(
        v.as_array().unwrap().len(),
        1,
        "an array even for one input"
    );
    assert_eq!(v[0]["status"], "error");
    assert_eq!(v[0]["diagnostics"][0]["line"], 2);
    assert!(v[0]["diagnostics"][0]["message"]
        .as_str()
        .unwrap()
        .contains("foo"));
    let two = run(
        &["validate", "--format", "json", t, &ex("transform.vso")],
        None,
    );
    let v: serde_json::Value = serde_json::from_slice(&two.stdout).unwrap();
    assert_eq!(v.as_array().unwrap().len(), 2);
    assert_eq!(v[1]["status"], "valid");
    assert_eq!(v[1]["shaders"][0]["findings"], serde_json::json!([]));
    // dis: the same shape, failed inputs included.
    let d = run(&["dis", "--format", "json", t, &ex("transform.vso")], None);
    let v: serde_json::Value = serde_json::from_slice(&d.stdout).unwrap();
    assert_eq!(v[0]["status"], "error");
    assert_eq!(v[1]["status"], "ok");
    assert_eq!(v[1]["shaders"][0]["version"], "vs_2_0");
}

const VS_TEXT: &str =
    "vs_2_0\ndcl_position v0\ndcl_texcoord v1\nm4x4 oPos, v0, c0\nmov oT0.xy, v1\n";

// 3.
#[test]
fn bom_and_utf16_text_are_read() {
    let plain = run(&["asm", "--format", "hex", "-"], Some(VS_TEXT.as_bytes()));
    assert!(plain.status.success());
    let mut bom = b"\xEF\xBB\xBF".to_vec();
    bom.extend_from_slice(VS_TEXT.as_bytes());
    let mut le = vec![0xFF, 0xFE];
    le.extend(VS_TEXT.encode_utf16().flat_map(u16::to_le_bytes));
    let mut be = vec![0xFE, 0xFF];
    be.extend(VS_TEXT.encode_utf16().flat_map(u16::to_be_bytes));
    for input in [bom, le, be] {
        let out = run(&["asm", "--format", "hex", "-"], Some(&input));
        assert!(out.status.success(), "{}", text(&out.stderr));
        assert_eq!(out.stdout, plain.stdout);
    }
    // Hex text saved by PowerShell (UTF-16LE with BOM) disassembles.
    let mut hex = vec![0xFF, 0xFE];
    hex.extend(
        text(&plain.stdout)
            .encode_utf16()
            .flat_map(u16::to_le_bytes),
    );
    let d = run(&["dis", "-"], Some(&hex));
    assert!(d.status.success(), "{}", text(&d.stderr));
    assert!(text(&d.stdout).contains("m4x4 oPos, v0, c0"));
}

// 4.
#[test]
fn echoed_lines_are_escaped_and_binary_input_is_named() {
    let out = run(
        &["asm", "--format", "hex", "-"],
        Some(b"vs_2_0\nmov r0, q0 \x1b[2J\n"),
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(!out.stderr.contains(&0x1b), "raw ESC echoed");
    assert!(
        text(&out.stderr).contains("\\x1b[2J"),
        "{}",
        text(&out.stderr)
    );
    // Messages that quote the input (a bad number in hex text) are escaped too.
    let hex = run(&["dis", "-"], Some(b"0xfffe0200, 0x\x1b[2Jzz\n"));
    assert_eq!(hex.status.code(), Some(1));
    assert!(!hex.stderr.contains(&0x1b), "{}", text(&hex.stderr));
    assert!(
        text(&hex.stderr).contains("\\x1b[2Jzz"),
        "{}",
        text(&hex.stderr)
    );
    let bin_in = run(&["asm", "-"], Some(&[0x7f, 0x45, 0x4c, 0x46, 0, 0, 1, 2]));
    assert!(
        text(&bin_in.stderr).contains("binary input") && text(&bin_in.stderr).contains("dis"),
        "{}",
        text(&bin_in.stderr)
    );
    let bytecode = run(&["asm", &ex("transform.vso")], None);
    assert!(text(&bytecode.stderr).contains("did you mean `d3dbc dis`"));
    let v = run(
        &["validate", "-"],
        Some(&[0x7f, 0x45, 0x4c, 0x46, 0, 0, 1, 2]),
    );
    assert_eq!(v.status.code(), Some(1));
    assert!(
        text(&v.stdout).contains("binary input"),
        "{}",
        text(&v.stdout)
    );
    assert!(!v.stdout.contains(&0));
}

// 5.
#[test]
fn dash_o_dash_is_stdout() {
    let dir = tmpdir("dash");
    let out = run_in(Some(&dir), &["dis", "-o", "-", &ex("transform.vso")], None);
    assert!(out.status.success());
    assert!(text(&out.stdout).contains("m4x4 oPos, v0, c0"));
    assert!(!dir.join("-").exists(), "a file named `-` was created");
}

// 6.
#[test]
fn colliding_outputs_are_refused_before_writing() {
    let dir = tmpdir("collide");
    for sub in ["a", "b"] {
        std::fs::create_dir_all(dir.join(sub)).unwrap();
        std::fs::copy(example("transform.vso"), dir.join(sub).join("x.vso")).unwrap();
    }
    let out_dir = dir.join("out");
    let a = dir.join("a/x.vso");
    let b = dir.join("b/x.vso");
    let out = run(
        &[
            "dis",
            "--out-dir",
            out_dir.to_str().unwrap(),
            a.to_str().unwrap(),
            b.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("would both be written"),
        "{}",
        text(&out.stderr)
    );
    assert!(!out_dir.join("x.asm").exists(), "something was written");
    // Several inputs without --out-dir: asm refuses, writing nothing in the cwd.
    std::fs::write(dir.join("p.asm"), "ps_2_0\nmov oC0, c0\n").unwrap();
    std::fs::write(dir.join("q.asm"), "ps_2_0\nmov oC0, c1\n").unwrap();
    let out = run_in(Some(&dir), &["asm", "p.asm", "q.asm"], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("--out-dir"));
    assert!(!dir.join("p.pso").exists() && !dir.join("p.bin").exists());
    // A directory input keeps the relative paths: no collision.
    let out = run(
        &[
            "dis",
            "--out-dir",
            out_dir.to_str().unwrap(),
            dir.to_str().unwrap(),
        ],
        None,
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(out_dir.join("a/x.asm").exists() && out_dir.join("b/x.asm").exists());
    // --help says where outputs go.
    let help = run(&["--help"], None);
    assert!(text(&help.stdout).contains("--out-dir"));
}

// 7.
#[test]
fn json_is_compact_by_default_and_pretty_on_request() {
    let dir = tmpdir("stream");
    let big = dir.join("big.vso");
    std::fs::write(&big, big_vs(20_000)).unwrap();
    let b = big.to_str().unwrap();
    let compact = run(&["dis", "--format", "json", b], None);
    assert!(compact.status.success());
    assert_eq!(compact.stdout.iter().filter(|&&c| c == b'\n').count(), 1);
    let v: serde_json::Value = serde_json::from_slice(&compact.stdout).unwrap();
    assert_eq!(
        v[0]["shaders"][0]["items"].as_array().unwrap().len(),
        20_000
    );
    let pretty = run(&["dis", "--format", "json", "--pretty", b], None);
    let p: serde_json::Value = serde_json::from_slice(&pretty.stdout).unwrap();
    assert_eq!(p, v);
    assert!(text(&pretty.stdout).contains("\n        \"items\": ["));
}

// 8.
#[test]
fn dis_edit_asm_keeps_the_constant_table() {
    let dir = tmpdir("ctab");
    let original = example("textured.pso");
    let listing = run(&["dis", original.to_str().unwrap()], None);
    assert!(text(&listing.stdout).contains("// Registers:"));
    let src = dir.join("textured.asm");
    std::fs::write(&src, &listing.stdout).unwrap();
    let rebuilt = dir.join("rebuilt.pso");
    let out = run(
        &[
            "asm",
            src.to_str().unwrap(),
            "-o",
            rebuilt.to_str().unwrap(),
        ],
        None,
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let again = run(&["dis", rebuilt.to_str().unwrap()], None);
    assert_eq!(text(&again.stdout), text(&listing.stdout));
    // --no-ctab: no header; --ctab-from: the original table, byte for byte.
    let bare = run(
        &["asm", "--no-ctab", "--format", "hex", src.to_str().unwrap()],
        None,
    );
    assert!(
        !text(&bare.stdout).contains("0x42415443"),
        "CTAB fourcc present"
    );
    let from = dir.join("from.pso");
    let out = run(
        &[
            "asm",
            "--ctab-from",
            original.to_str().unwrap(),
            src.to_str().unwrap(),
            "-o",
            from.to_str().unwrap(),
        ],
        None,
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        std::fs::read(&from).unwrap(),
        std::fs::read(&original).unwrap()
    );
    // A hand-annotated header does not stop the assembly: a warning, no table.
    let noted = text(&listing.stdout).replacen(
        "// Parameters:\n//\n",
        "// Parameters:\n//\n//   (tint is set per frame)\n",
        1,
    );
    let out = run(&["asm", "--format", "hex", "-"], Some(noted.as_bytes()));
    assert!(out.status.success(), "{}", text(&out.stderr));
    let err = text(&out.stderr);
    assert!(err.contains("warning: cannot read parameter"), "{err}");
    assert_eq!(text(&out.stdout), text(&bare.stdout));
}

// 9.
#[test]
fn offsets_are_hex_everywhere() {
    let bad = "0xffff0200, 0x05000051, 0xa00f0020, 0x3f800000, 0x3f800000, 0x3f800000, 0x3f800000, 0x0000ffff";
    let v = run(&["validate", "-"], Some(bad.as_bytes()));
    assert!(
        text(&v.stdout).contains("<stdin>:+0001: error[E0203]"),
        "{}",
        text(&v.stdout)
    );
    let d = run(&["dis", "-"], Some(&bytes(&[0xfffe0200, 0x31, 0xffff])));
    assert!(
        text(&d.stderr).contains("DWORD +0001 (0x00000031)"),
        "{}",
        text(&d.stderr)
    );
    let o = run(&["dis", "--offsets", &ex("transform.vso")], None);
    assert!(text(&o.stdout).contains("// +0007"));
}

// 10.
#[test]
fn validate_reports_on_one_stream() {
    let out = run(&["validate", "-"], Some(b"vs_2_0\nfoo r0\n"));
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stderr.is_empty(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("<stdin>:2:1: error"));
    let usage = run(&["validate", "--format", "nope"], None);
    assert_eq!(usage.status.code(), Some(2));
    assert!(usage.stdout.is_empty() && !usage.stderr.is_empty());
}

// 11.
#[test]
fn json_fields_are_named() {
    let out = run(&["dis", "--format", "json", &ex("transform.vso")], None);
    let s = text(&out.stdout);
    assert!(!s.contains("AddrOrTexture") && !s.contains("\"kind\""));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let sh = &v[0]["shaders"][0];
    assert_eq!(sh["version"], "vs_2_0");
    assert_eq!(sh["version_token"], "0xfffe0200");
    let items = &sh["items"];
    assert_eq!(items[1]["dcl"]["usage"], "texcoord");
    assert_eq!(items[3]["dst"]["mask"], "xy");
    assert_eq!(items[3]["dst"]["register"], "oT0");
    assert_eq!(items[2]["srcs"][0]["swizzle"], "xyzw");
    assert_eq!(items[2]["srcs"][1]["register"], "c0");
}

// 12.
#[test]
fn odd_inputs_get_plain_messages() {
    let empty = run(&["dis", "-"], Some(b""));
    assert_eq!(text(&empty.stderr), "<stdin>: empty input\n");
    let asm_text = run(&["dis", "-"], Some(VS_TEXT.as_bytes()));
    assert!(text(&asm_text.stderr).contains("this is assembly text: use `d3dbc asm`"));
    let four = run(&["dis", "-"], Some(&bytes(&[0xfffe0200])));
    let e = text(&four.stderr);
    assert!(
        e.contains("end of input after 1 DWORD") && !e.contains("0x00000000"),
        "{e}"
    );
    let tiny = run(&["dis", "-"], Some(&[1, 2]));
    assert!(text(&tiny.stderr).contains("too short"));
    let dir = tmpdir("odd");
    let file = dir.join("file");
    std::fs::write(&file, "x").unwrap();
    let out = run(
        &[
            "dis",
            "--out-dir",
            file.to_str().unwrap(),
            &ex("transform.vso"),
        ],
        None,
    );
    assert!(text(&out.stderr).contains("exists and is not a directory"));
}

// 13.
#[test]
fn trailing_data_warns_and_dis_all_prints_each_shader() {
    let mut two = std::fs::read(example("transform.vso")).unwrap();
    two.extend(std::fs::read(example("textured.pso")).unwrap());
    let out = run(&["dis", "-"], Some(&two));
    assert!(out.status.success());
    let err = text(&out.stderr);
    assert!(
        err.contains("after the end token, from +000f") && err.contains("bytes"),
        "{err}"
    );
    let all = run(&["dis", "--all", "-"], Some(&two));
    let s = text(&all.stdout);
    assert!(s.contains("vs_2_0") && s.contains("ps_2_0") && s.contains("// shader at +000f"));
    assert!(all.stderr.is_empty());
    let v = run(&["validate", "-"], Some(&two));
    assert!(
        text(&v.stdout).contains("warning: 280 bytes"),
        "{}",
        text(&v.stdout)
    );
}

// 14.
#[test]
fn asm_out_dir_names_by_shader_kind() {
    let dir = tmpdir("kind");
    std::fs::create_dir_all(dir.join("vs")).unwrap();
    std::fs::create_dir_all(dir.join("ps")).unwrap();
    std::fs::write(dir.join("vs/x.asm"), VS_TEXT).unwrap();
    std::fs::write(dir.join("ps/x.asm"), "ps_2_0\nmov oC0, c0\n").unwrap();
    let out_dir = dir.join("out");
    let (v, p) = (dir.join("vs/x.asm"), dir.join("ps/x.asm"));
    let args = [
        "asm",
        "--out-dir",
        out_dir.to_str().unwrap(),
        v.to_str().unwrap(),
        p.to_str().unwrap(),
    ];
    let out = run(&args, None);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(out_dir.join("x.vso").exists() && out_dir.join("x.pso").exists());
    let mut with_ext = args.to_vec();
    with_ext.extend(["--out-ext", "bin"]);
    let out = run(&with_ext, None);
    assert_eq!(out.status.code(), Some(2), "x.bin twice");
}

// 15.
#[test]
fn raw_takes_back_what_dis_prints() {
    let tokens = [0xfffe0200, 0x02000001, 0x800f0024, 0x90e40000, 0xffff];
    let listing = run(&["dis", "-"], Some(&bytes(&tokens)));
    assert!(text(&listing.stdout).contains("mov r36, v0"));
    let strict = run(&["asm", "--format", "hex", "-"], Some(&listing.stdout));
    assert_eq!(strict.status.code(), Some(1));
    // `r36` does not exist in vs_2_0: the grammar refuses it even without validation.
    let grammar = run(
        &["asm", "--no-validate", "--format", "hex", "-"],
        Some(&listing.stdout),
    );
    assert_eq!(grammar.status.code(), Some(1));
    let back = run(
        &["asm", "--raw", "--format", "hex", "-"],
        Some(&listing.stdout),
    );
    assert!(back.status.success(), "{}", text(&back.stderr));
    let want: String = tokens.iter().map(|t| format!("0x{t:08x}\n")).collect();
    assert_eq!(text(&back.stdout), want);
}

// 16.
#[test]
fn validate_is_quiet_on_success_with_a_batch_summary() {
    let one = run(&["validate", &ex("transform.vso")], None);
    assert!(one.status.success() && one.stdout.is_empty());
    let verbose = run(&["validate", "-v", &ex("transform.vso")], None);
    assert!(text(&verbose.stdout).ends_with("transform.vso: valid\n"));
    let dir = tmpdir("summary");
    std::fs::write(dir.join("bad.asm"), "ps_2_0\nmov oC0, r5\n").unwrap();
    let batch = run(
        &[
            "validate",
            &ex("transform.vso"),
            &ex("textured.pso"),
            dir.join("bad.asm").to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(batch.status.code(), Some(1));
    assert!(
        text(&batch.stdout).ends_with("2 valid, 1 invalid\n"),
        "{}",
        text(&batch.stdout)
    );
}

// Expected by users.
#[test]
fn color_follows_the_flag() {
    let args = |c: &'static str| vec!["validate", "--color", c, "-"];
    let input = b"vs_2_0\nfoo r0\n";
    let always = run(&args("always"), Some(input));
    assert!(always.stdout.contains(&0x1b));
    let never = run(&args("never"), Some(input));
    assert!(!never.stdout.contains(&0x1b));
    let auto = run(&args("auto"), Some(input));
    assert!(!auto.stdout.contains(&0x1b), "auto is plain in a pipe");
}

#[test]
fn directories_stdin_and_header_names() {
    let dir = tmpdir("dirs");
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    std::fs::copy(example("transform.vso"), dir.join("sub/a.vso")).unwrap();
    std::fs::copy(example("textured.pso"), dir.join("b.pso")).unwrap();
    std::fs::write(dir.join("notes.txt"), "hello").unwrap();
    // Directories recurse, filtered by --ext.
    let v = run(&["validate", "-v", dir.to_str().unwrap()], None);
    let s = text(&v.stdout);
    assert!(
        s.contains("a.vso: valid") && s.contains("b.pso: valid") && !s.contains("notes"),
        "{s}"
    );
    let only = run(
        &["validate", "-v", "--ext", "pso", dir.to_str().unwrap()],
        None,
    );
    assert!(!text(&only.stdout).contains("a.vso"));
    // dis with no file reads stdin.
    let d = run(
        &["dis"],
        Some(&std::fs::read(example("transform.vso")).unwrap()),
    );
    assert!(d.status.success() && text(&d.stdout).contains("m4x4 oPos, v0, c0"));
    // asm --format header --name (fxc /Vn).
    let h = run(
        &["asm", "--format", "header", "--name", "g_myShader", "-"],
        Some(VS_TEXT.as_bytes()),
    );
    assert!(text(&h.stdout).contains("const BYTE g_myShader[] ="));
    // No progress bar (nor anything else) on stderr when it is not a terminal.
    assert!(v.stderr.is_empty());
}
