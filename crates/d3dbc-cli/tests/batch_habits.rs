//! The habits every verb shares in batches: one output naming rule that never refuses a
//! game dump (`foo.vso` + `foo.pso` → `foo.vso.asm`, `foo.pso.asm`), `render -o -`,
//! `run --input` checked against the version's registers, `--pretty` wherever JSON is
//! written, `-o` wherever text is, and `--format json -o all.json` over several inputs
//! writing one JSON array.

mod common;

use common::{example, run, text, tmpdir};

fn ex(name: &str) -> String {
    example(name).to_str().unwrap().to_string()
}

/// A game dump: a vertex and a pixel shader sharing a stem.
fn dump(tag: &str) -> (std::path::PathBuf, String, String) {
    let dir = tmpdir(tag);
    let vs = dir.join("foo.vso");
    let ps = dir.join("foo.pso");
    std::fs::copy(example("transform.vso"), &vs).unwrap();
    std::fs::copy(example("textured.pso"), &ps).unwrap();
    let (vs, ps) = (
        vs.to_str().unwrap().to_string(),
        ps.to_str().unwrap().to_string(),
    );
    (dir, vs, ps)
}

#[test]
fn inputs_sharing_a_stem_keep_their_extension_on_every_verb() {
    let (dir, vs, ps) = dump("naming");
    let out = dir.join("dis");
    let r = run(&["dis", &vs, &ps, "--out-dir", out.to_str().unwrap()], None);
    assert!(r.status.success(), "{}", text(&r.stderr));
    assert!(out.join("foo.vso.asm").exists() && out.join("foo.pso.asm").exists());
    let json = dir.join("json");
    let r = run(
        &[
            "dis",
            &vs,
            &ps,
            "--format",
            "json",
            "--out-dir",
            json.to_str().unwrap(),
        ],
        None,
    );
    assert!(r.status.success(), "{}", text(&r.stderr));
    assert!(json.join("foo.vso.json").exists() && json.join("foo.pso.json").exists());
    let wgsl = dir.join("wgsl");
    let r = run(
        &[
            "translate",
            &vs,
            &ps,
            "--target",
            "wgsl",
            "--out-dir",
            wgsl.to_str().unwrap(),
        ],
        None,
    );
    assert!(r.status.success(), "{}", text(&r.stderr));
    assert!(wgsl.join("foo.vso.wgsl").exists() && wgsl.join("foo.pso.wgsl").exists());
    // asm: `foo.asm` and `foo.psh` both give a pixel shader; `bar.asm` alone keeps `bar.pso`.
    for (name, src) in [
        ("foo.asm", "ps_2_0\nmov oC0, c0\n"),
        ("foo.psh", "ps_2_0\nmov oC0, c1\n"),
        ("bar.asm", "ps_2_0\nmov oC0, c2\n"),
    ] {
        std::fs::write(dir.join(name), src).unwrap();
    }
    let bin = dir.join("bin");
    let r = run(
        &[
            "asm",
            dir.join("foo.asm").to_str().unwrap(),
            dir.join("foo.psh").to_str().unwrap(),
            dir.join("bar.asm").to_str().unwrap(),
            "--out-dir",
            bin.to_str().unwrap(),
        ],
        None,
    );
    assert!(r.status.success(), "{}", text(&r.stderr));
    let mut names: Vec<String> = std::fs::read_dir(&bin)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["bar.pso", "foo.asm.pso", "foo.psh.pso"]);
}

#[test]
fn render_dash_o_dash_writes_the_png_to_standard_output() {
    let r = run(
        &["render", &ex("textured.pso"), "-o", "-", "--size", "8x4"],
        None,
    );
    assert!(r.status.success(), "{}", text(&r.stderr));
    assert!(r.stdout.starts_with(b"\x89PNG\r\n\x1a\n"));
    let dir = tmpdir("render-dash");
    let file = dir.join("a.png");
    let r2 = run(
        &[
            "render",
            &ex("textured.pso"),
            "-o",
            file.to_str().unwrap(),
            "--size",
            "8x4",
        ],
        None,
    );
    assert!(r2.status.success());
    assert_eq!(std::fs::read(&file).unwrap(), r.stdout);
    assert!(!dir.join("-").exists());
}

#[test]
fn run_input_registers_follow_the_versions_register_file() {
    for (shader, input, want) in [
        (
            "textured.pso",
            "t8=1",
            "ps_2_0 has no input register t8 (its inputs: v0–v1 and t0–t7)",
        ),
        (
            "textured.pso",
            "v2=1",
            "ps_2_0 has no input register v2 (its inputs: v0–v1 and t0–t7)",
        ),
        (
            "transform.vso",
            "t0=1",
            "vs_2_0 has no input register t0 (its inputs: v0–v15)",
        ),
    ] {
        let r = run(&["run", &ex(shader), "--input", input], None);
        assert_eq!(r.status.code(), Some(2), "{input}");
        assert!(
            text(&r.stderr).contains(want),
            "{input}: {}",
            text(&r.stderr)
        );
    }
    for (shader, input) in [
        ("textured.pso", "t7=1"),
        ("textured.pso", "v1=1"),
        ("transform.vso", "v15=1"),
    ] {
        let r = run(&["run", &ex(shader), "--input", input], None);
        assert!(r.status.success(), "{input}: {}", text(&r.stderr));
    }
}

#[test]
fn json_takes_pretty_and_text_takes_dash_o_on_every_verb() {
    let (dir, vs, ps) = dump("pretty");
    // run: compact by default, indented with --pretty, the same document.
    let compact = run(&["run", &ps, "--format", "json"], None);
    let pretty = run(&["run", &ps, "--format", "json", "--pretty"], None);
    assert_eq!(text(&compact.stdout).lines().count(), 1);
    assert!(text(&pretty.stdout).lines().count() > 3);
    let a: serde_json::Value = serde_json::from_slice(&compact.stdout).unwrap();
    let b: serde_json::Value = serde_json::from_slice(&pretty.stdout).unwrap();
    assert_eq!(a, b);
    // run and validate write their text to -o FILE.
    let r = dir.join("r/run.txt");
    assert!(run(&["run", &ps, "-o", r.to_str().unwrap()], None)
        .stdout
        .is_empty());
    assert!(std::fs::read_to_string(&r).unwrap().contains("oC0 = ("));
    let v = dir.join("v.txt");
    let out = run(
        &["validate", "-v", &vs, &ps, "-o", v.to_str().unwrap()],
        None,
    );
    assert!(out.status.success() && out.stdout.is_empty());
    assert!(std::fs::read_to_string(&v)
        .unwrap()
        .contains("2 valid, 0 invalid"));
    // Several inputs, --format json -o all.json: one JSON array, as on standard output.
    for verb in ["dis", "validate"] {
        let all = dir.join(format!("{verb}-all.json"));
        let out = run(
            &[
                verb,
                &vs,
                &ps,
                "--format",
                "json",
                "-o",
                all.to_str().unwrap(),
            ],
            None,
        );
        assert!(out.status.success(), "{verb}: {}", text(&out.stderr));
        let from_file: serde_json::Value =
            serde_json::from_slice(&std::fs::read(&all).unwrap()).unwrap();
        let stdout = run(&[verb, &vs, &ps, "--format", "json"], None);
        let from_stdout: serde_json::Value = serde_json::from_slice(&stdout.stdout).unwrap();
        assert_eq!(from_file.as_array().unwrap().len(), 2, "{verb}");
        assert_eq!(from_file, from_stdout, "{verb}");
    }
    // dis text of several inputs into one file, each under its `// NAME` header.
    let all = dir.join("all.asm");
    assert!(run(&["dis", &vs, &ps, "-o", all.to_str().unwrap()], None)
        .status
        .success());
    let t = std::fs::read_to_string(&all).unwrap();
    assert_eq!(
        t.matches("\n    vs_2_0\n").count() + t.matches("\n    ps_2_0\n").count(),
        2,
        "{t}"
    );
}
