//! End-to-end tests of `d3dbc translate`: every target's output naming and contents,
//! `--interface`, `--options`, and per-file errors in a batch.

mod common;

use common::{example, run, text, tmpdir};

fn ex(name: &str) -> String {
    example(name).to_str().unwrap().to_owned()
}

#[test]
fn one_input_goes_to_stdout_as_wgsl() {
    let out = run(
        &["translate", &ex("transform.vso"), "--target", "wgsl"],
        None,
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let wgsl = text(&out.stdout);
    assert!(wgsl.contains("@vertex"), "{wgsl}");
    assert!(wgsl.contains("@builtin(position)"), "{wgsl}");
    // The assembly text of the pixel shader translates too.
    let out = run(
        &["translate", &ex("textured.asm"), "--target", "wgsl"],
        None,
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let wgsl = text(&out.stdout);
    assert!(
        wgsl.contains("@fragment") && wgsl.contains("textureSample"),
        "{wgsl}"
    );
}

#[test]
fn out_dir_names_each_output_by_target_and_stage() {
    let dir = tmpdir("translate-names");
    let cases = [
        ("spirv", "transform.spv", "textured.spv"),
        ("wgsl", "transform.wgsl", "textured.wgsl"),
        ("glsl", "transform.vert", "textured.frag"),
        ("msl", "transform.metal", "textured.metal"),
        ("hlsl", "transform.hlsl", "textured.hlsl"),
    ];
    for (target, vs, ps) in cases {
        let out_dir = dir.join(target);
        let out = run(
            &[
                "translate",
                &ex("transform.vso"),
                &ex("textured.pso"),
                "--target",
                target,
                "--out-dir",
                out_dir.to_str().unwrap(),
            ],
            None,
        );
        assert!(out.status.success(), "{target}: {}", text(&out.stderr));
        for name in [vs, ps] {
            let data = std::fs::read(out_dir.join(name))
                .unwrap_or_else(|e| panic!("{target}: {name}: {e}"));
            assert!(!data.is_empty(), "{target}: {name} is empty");
            if target == "spirv" {
                assert_eq!(
                    data[..4],
                    0x0723_0203u32.to_le_bytes(),
                    "{name}: SPIR-V magic"
                );
                assert_eq!(data.len() % 4, 0);
            }
        }
        if target == "glsl" {
            let frag = std::fs::read_to_string(out_dir.join(ps)).unwrap();
            assert!(frag.starts_with("#version 450"), "{frag}");
        }
    }
}

/// `translate PSO --target TARGET -o OUT --interface EXTRA…`: the output's text (empty
/// for SPIR-V) and the interface JSON written beside it.
fn with_interface(
    pso: &str,
    target: &str,
    out: &std::path::Path,
    extra: &[&str],
) -> (String, serde_json::Value) {
    let mut args = vec![
        "translate",
        pso,
        "--target",
        target,
        "-o",
        out.to_str().unwrap(),
        "--interface",
    ];
    args.extend_from_slice(extra);
    let o = run(&args, None);
    assert!(o.status.success(), "{args:?}: {}", text(&o.stderr));
    assert!(out.exists());
    let src = std::fs::read(out).unwrap();
    let json = std::fs::read_to_string(out.with_extension("interface.json")).unwrap();
    (
        String::from_utf8(src).unwrap_or_default(),
        serde_json::from_str(&json).unwrap(),
    )
}

#[test]
fn interface_json_is_written_beside_the_output() {
    let dir = tmpdir("translate-interface");
    let (_, v) = with_interface(&ex("textured.pso"), "spirv", &dir.join("ps.spv"), &[]);
    assert_eq!(v["version"], "ps_2_0", "{v}");
    // One 2D sampler (s0) and the float constants the shader reads (c0, c1).
    let samplers = v["samplers"].as_array().expect("samplers");
    assert_eq!(samplers.len(), 1, "{v}");
    assert_eq!(samplers[0]["stage"], 0, "{v}");
    assert!(
        v["float_constants"]["registers"].as_u64().unwrap() >= 2,
        "{v}"
    );
}

#[test]
fn a_batch_reports_each_failure_and_writes_the_rest() {
    let dir = tmpdir("translate-batch");
    let bad = dir.join("bad.pso");
    // A ps_2_0 cut off inside its first instruction.
    std::fs::write(&bad, [0x00u8, 0x02, 0xff, 0xff, 0x01, 0, 0, 0x02]).unwrap();
    let out_dir = dir.join("out");
    let out = run(
        &[
            "translate",
            bad.to_str().unwrap(),
            &ex("textured.pso"),
            "--target",
            "wgsl",
            "--out-dir",
            out_dir.to_str().unwrap(),
        ],
        None,
    );
    assert!(!out.status.success());
    let err = text(&out.stderr);
    assert!(err.contains("bad.pso"), "{err}");
    assert!(!err.contains("textured.pso"), "{err}");
    assert!(out_dir.join("textured.wgsl").exists());
    assert!(!out_dir.join("bad.wgsl").exists());
}

#[test]
fn options_come_from_a_json_file_and_bad_ones_are_named() {
    let dir = tmpdir("translate-options");
    let bad = dir.join("bad.json");
    std::fs::write(&bad, "{ not json").unwrap();
    let out = run(
        &[
            "translate",
            &ex("textured.pso"),
            "--target",
            "wgsl",
            "--options",
            bad.to_str().unwrap(),
        ],
        None,
    );
    assert!(!out.status.success());
    let err = text(&out.stderr);
    assert!(
        err.contains("--options") && err.contains("bad.json"),
        "{err}"
    );
    // The defaults written out as a file translate exactly as no file does.
    let defaults = dir.join("defaults.json");
    std::fs::write(&defaults, "{}").unwrap();
    let plain = run(
        &["translate", &ex("textured.pso"), "--target", "wgsl"],
        None,
    );
    let with = run(
        &[
            "translate",
            &ex("textured.pso"),
            "--target",
            "wgsl",
            "--options",
            defaults.to_str().unwrap(),
        ],
        None,
    );
    assert!(with.status.success(), "{}", text(&with.stderr));
    assert_eq!(plain.stdout, with.stdout);
}

#[test]
fn spirv_comes_from_the_direct_back_end_unless_via_naga_with_the_same_interface() {
    let dir = tmpdir("translate-via");
    let mut outputs = Vec::new();
    for via in ["direct", "naga"] {
        let spv = dir.join(format!("{via}.spv"));
        let out = run(
            &[
                "translate",
                &ex("textured.pso"),
                "--target",
                "spirv",
                "--via",
                via,
                "-o",
                spv.to_str().unwrap(),
                "--interface",
            ],
            None,
        );
        assert!(out.status.success(), "{via}: {}", text(&out.stderr));
        let words = std::fs::read(&spv).unwrap();
        assert_eq!(words[..4], 0x0723_0203u32.to_le_bytes(), "{via}: magic");
        let json = std::fs::read_to_string(dir.join(format!("{via}.interface.json"))).unwrap();
        outputs.push((words, json));
    }
    // Two back ends, two different modules, one interface.
    assert_ne!(outputs[0].0, outputs[1].0);
    assert_eq!(outputs[0].1, outputs[1].1);
    let out = run(
        &[
            "translate",
            &ex("textured.pso"),
            "--target",
            "spirv",
            "--via",
            "mojo",
        ],
        None,
    );
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("direct"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn hlsl_has_static_registers_that_the_interface_states() {
    let dir = tmpdir("translate-hlsl");
    let out = dir.join("ps.hlsl");
    let (src, v) = with_interface(&ex("textured.pso"), "hlsl", &out, &[]);
    // Shader model 5.0: s0 is a texture and a sampler at t0/s0, constants in cbuffer b0.
    assert!(
        src.contains("Texture2D<float4> t0_ : register(t0);"),
        "{src}"
    );
    assert!(src.contains("SamplerState s0_ : register(s0);"), "{src}");
    assert!(src.contains(": register(b0)"), "{src}");
    assert!(!src.contains("nagaSamplerHeap"), "{src}");
    let h = &v["hlsl"];
    assert_eq!(h["model"], "5_0", "{v}");
    assert_eq!(h["float_constants"], "b0", "{v}");
    assert_eq!(h["samplers"][0]["texture"], "t0", "{v}");
    assert_eq!(h["samplers"][0]["sampler"], "s0", "{v}");
    assert!(h["sampler_heap"].is_null(), "{v}");

    // naga's Direct3D 12 layout on request; the interface says where the heap is.
    let (src, v) = with_interface(&ex("textured.pso"), "hlsl", &out, &["--hlsl-model", "6_0"]);
    assert!(
        src.contains("nagaSamplerHeap[nagaGroup0SamplerIndexArray[0]]"),
        "{src}"
    );
    assert_eq!(v["hlsl"]["model"], "6_0", "{v}");
    assert_eq!(v["hlsl"]["sampler_heap"], "s0, space0", "{v}");
    assert_eq!(v["hlsl"]["samplers"][0]["sampler"], "index 0", "{v}");

    // An unknown model is a usage error naming both.
    let o = run(
        &[
            "translate",
            &ex("textured.pso"),
            "-t",
            "hlsl",
            "--hlsl-model",
            "5_1",
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(2));
    let err = text(&o.stderr);
    assert!(err.contains("5_0") && err.contains("6_0"), "{err}");
}
