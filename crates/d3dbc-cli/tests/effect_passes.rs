//! Everyday tasks on an effect's pass from the command line: `translate` of a pass as
//! its linked vertex/pixel pair (stdout sections, `NAME.vs.EXT`/`NAME.ps.EXT` files,
//! interface JSON naming each constant by its effect parameter, `--all-passes`), `run`
//! of a pass through both stages agreeing with `render`, and the argument checks:
//! `--set` component counts and `identity`, `--set` on a plain shader through its
//! constant table, `--technique`/`--pass` choices named, `--offsets`/`--tokens` on the
//! embedded listings.

mod common;

use common::{example, run, text, tmpdir};

fn tint() -> String {
    example("tint.fxo").to_str().unwrap().to_string()
}

fn fails_with(args: &[&str], status: i32, needle: &str) {
    let out = run(args, None);
    assert_eq!(
        out.status.code(),
        Some(status),
        "{args:?}: {}",
        text(&out.stderr)
    );
    assert!(
        text(&out.stderr).contains(needle),
        "{args:?}: {}",
        text(&out.stderr)
    );
}

#[test]
fn translate_writes_a_pass_as_its_linked_pair() {
    let out = run(&["translate", &tint(), "--target", "wgsl"], None);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let s = text(&out.stdout);
    let vs = s.find("// tint vs\n").expect(&s);
    let ps = s.find("// tint ps\n").expect(&s);
    assert!(vs < ps && s[vs..ps].contains("@vertex") && s[ps..].contains("@fragment"));
    // Linked: the vertex shader writes only what the pixel shader reads, at location 0.
    assert!(s[vs..ps].contains("@location(0)"), "{s}");

    let dir = tmpdir("fx-translate");
    for target in ["spirv", "wgsl", "glsl", "msl", "hlsl"] {
        let out = run(
            &[
                "translate",
                &tint(),
                "--technique",
                "Tint",
                "--pass",
                "P0",
                "--target",
                target,
                "--interface",
                "--out-dir",
                dir.to_str().unwrap(),
            ],
            None,
        );
        assert!(out.status.success(), "{target}: {}", text(&out.stderr));
    }
    for f in [
        "tint.vs.spv",
        "tint.ps.spv",
        "tint.vs.wgsl",
        "tint.ps.wgsl",
        "tint.vs.vert",
        "tint.ps.frag",
        "tint.vs.metal",
        "tint.ps.metal",
        "tint.vs.hlsl",
        "tint.ps.hlsl",
    ] {
        assert!(dir.join(f).is_file(), "{f} missing");
    }
    let iface: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("tint.ps.interface.json")).unwrap())
            .unwrap();
    assert_eq!(iface["linked"], true);
    assert_eq!(iface["technique"], "Tint");
    assert_eq!(iface["pass"], "P0");
    assert_eq!(iface["parameters"][0]["name"], "tint");
    assert_eq!(iface["parameters"][0]["register"], 0);
    assert_eq!(iface["parameters"][0]["register_set"], "float4");

    let out = run(
        &[
            "translate",
            &tint(),
            "--all-passes",
            "--target",
            "glsl",
            "-o",
            dir.join("all.glsl").to_str().unwrap(),
        ],
        None,
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(dir.join("all.Tint.P0.vs.vert").is_file());
    assert!(dir.join("all.Tint.P0.ps.frag").is_file());
    // SPIR-V of a pass is two binaries: never one stream.
    fails_with(
        &["translate", &tint(), "--target", "spirv", "-o", "-"],
        1,
        "--out-dir",
    );
}

#[test]
fn unknown_techniques_and_passes_name_the_ones_that_exist() {
    for verb in [
        &["translate", "--target", "wgsl"][..],
        &["run"][..],
        &["render", "-o", "/dev/null"][..],
    ] {
        let mut a = verb.to_vec();
        let t = tint();
        a.extend([t.as_str(), "--technique", "Nope"]);
        fails_with(
            &a,
            2,
            "technique `Nope` does not exist: the effect has 1 technique: Tint (0)",
        );
        let mut a = verb.to_vec();
        a.extend([t.as_str(), "--pass", "P7"]);
        fails_with(
            &a,
            2,
            "pass `P7` does not exist: technique Tint has 1 pass: P0 (0)",
        );
    }
    let pso = example("textured.pso");
    let pso = pso.to_str().unwrap();
    fails_with(
        &["run", pso, "--pass", "0"],
        2,
        "this input is a shader, not an effect",
    );
    fails_with(
        &["translate", pso, "--target", "wgsl", "--technique", "T"],
        2,
        "this is a shader, not an effect",
    );
}

#[test]
fn set_checks_the_component_count_and_knows_identity() {
    let t = tint();
    fails_with(
        &["run", &t, "--set", "tint=1,0"],
        2,
        "tint is float4 and takes 4 values (components in order); got 2",
    );
    fails_with(&["run", &t, "--set", "tint=1,0,0,0,9"], 2, "got 5");
    fails_with(
        &["run", &t, "--set", "tint=identity"],
        2,
        "identity sets a matrix",
    );
    fails_with(
        &["run", &t, "--set", "nope=1"],
        2,
        "numeric parameters: tint",
    );
    // A plain shader: the name goes through its constant table.
    let pso = example("textured.pso");
    let pso = pso.to_str().unwrap();
    let out = run(
        &["run", pso, "--set", "Tint=1,0,0,1", "--input", "t0=0.5,0.5"],
        None,
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let with = text(&out.stdout);
    let out = run(
        &["run", pso, "--const", "c0=1,0,0,1", "--input", "t0=0.5,0.5"],
        None,
    );
    assert_eq!(with, text(&out.stdout), "--set Tint is --const c0");
    fails_with(
        &["run", pso, "--set", "Nope=1"],
        2,
        "has no Nope (it has: Diffuse, Tint)",
    );
    fails_with(&["run", pso, "--set", "Tint=1,2"], 2, "takes 4 values");
    fails_with(&["run", pso, "--set", "Diffuse=1"], 2, "is a sampler");
}

/// The pixel `run` reports for a pass is the one `render` draws at texture coordinate
/// (0, 0), and `--set` reaches the vertex shader's constants too.
#[test]
fn run_of_a_pass_runs_both_stages_as_render_draws_them() {
    let t = tint();
    let out = run(
        &["run", &t, "--set", "tint=0.25,0.5,1,1", "--format", "json"],
        None,
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["vertex"]["shader"], "vs_2_0");
    assert_eq!(
        v["vertex"]["outputs"]["oPos"],
        serde_json::json!([-1.0, 1.0, 0.5, 1.0])
    );
    assert_eq!(v["shader"], "ps_2_0");
    let oc0: Vec<f64> = v["outputs"]["oC0"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect();
    let dir = tmpdir("fx-run-render");
    let png = dir.join("p.png");
    let out = run(
        &[
            "render",
            &t,
            "--set",
            "tint=0.25,0.5,1,1",
            "--size",
            "4x4",
            "-o",
            png.to_str().unwrap(),
        ],
        None,
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let dec = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(&png).unwrap()));
    let mut r = dec.read_info().unwrap();
    let mut buf = vec![0; r.output_buffer_size()];
    r.next_frame(&mut buf).unwrap();
    for c in 0..4 {
        let want = (oc0[c].clamp(0.0, 1.0) * 255.0).round();
        assert!(
            (f64::from(buf[c]) - want).abs() <= 1.0,
            "component {c}: {buf:?} vs {oc0:?}"
        );
    }
    // Text output: a heading per stage.
    let out = run(&["run", &t], None);
    let s = text(&out.stdout);
    assert!(s.starts_with("// vertex shader (vs_2_0)\noPos = "), "{s}");
    assert!(s.contains("// pixel shader (ps_2_0)\noC0 = "), "{s}");
}

#[test]
fn offsets_and_tokens_annotate_the_embedded_listings() {
    let out = run(&["dis", "--offsets", "--tokens", &tint()], None);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let s = text(&out.stdout);
    assert!(
        s.contains("vs_2_0                                      // +0000: fffe0200"),
        "{s}"
    );
    assert!(s.contains("// +0007: 02000001 c00f0000 90e40000"), "{s}");
}

/// `render` says why a picture holds only the clear colour, on standard error.
#[test]
fn render_says_why_the_picture_is_empty() {
    let dir = tmpdir("fx-empty");
    let vs = dir.join("zero.vsh");
    std::fs::write(&vs, "vs_2_0\ndcl_position v0\nmul oPos, v0, c0\n").unwrap();
    let ps = dir.join("red.psh");
    std::fs::write(&ps, "ps_2_0\ndef c0, 1, 0, 0, 1\nmov oC0, c0\n").unwrap();
    let png = dir.join("x.png");
    let args = |c0: &'static str| {
        vec![
            "render".to_string(),
            ps.to_str().unwrap().into(),
            "--vs".into(),
            vs.to_str().unwrap().into(),
            "--const".into(),
            c0.into(),
            "-o".into(),
            png.to_str().unwrap().into(),
        ]
    };
    let a = args("c0=0,0,0,0");
    let out = run(&a.iter().map(String::as_str).collect::<Vec<_>>(), None);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains(
            "warning: the picture is empty (only the clear colour): every vertex is clipped (w ≤ 0"
        ),
        "{}",
        text(&out.stderr)
    );
    let a = args("c0=1,1,1,1");
    let out = run(&a.iter().map(String::as_str).collect::<Vec<_>>(), None);
    assert!(out.status.success());
    assert!(
        !text(&out.stderr).contains("empty"),
        "{}",
        text(&out.stderr)
    );
}

/// `dis --format json` of an effect: the shader JSON's vocabulary, states by their
/// effect names with decoded values, embedded shaders as shader records.
#[test]
fn effect_json_decodes_states_parameters_and_shaders() {
    let out = run(&["dis", "--format", "json", &tint()], None);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let r = &v[0];
    assert_eq!(r["status"], "ok");
    assert_eq!(r["diagnostics"], serde_json::json!([]));
    let e = &r["effect"];
    let p = &e["parameters"][0];
    assert_eq!(
        (
            &p["name"],
            &p["type"],
            &p["class"],
            &p["rows"],
            &p["columns"]
        ),
        (
            &serde_json::json!("tint"),
            &serde_json::json!("float"),
            &serde_json::json!("vector"),
            &serde_json::json!(1),
            &serde_json::json!(4)
        )
    );
    assert_eq!(p["value"], serde_json::json!([1.0, 0.5, 0.25, 1.0]));
    let states = &e["techniques"][0]["passes"][0]["states"];
    assert_eq!(states[0]["state"], "CullMode");
    assert_eq!(states[0]["d3d"], "D3DRS_CULLMODE");
    assert_eq!(states[0]["value"], "NONE");
    assert_eq!(states[1]["state"], "VertexShader");
    let vs = &e["shaders"][states[1]["value"]["shader"].as_u64().unwrap() as usize];
    assert_eq!(vs["version"], "vs_2_0");
    assert_eq!(vs["items"][0]["text"], "dcl_position v0");
    let ps = &e["shaders"][states[2]["value"]["shader"].as_u64().unwrap() as usize];
    assert_eq!(ps["ctab"]["constants"][0]["name"], "tint");
}
