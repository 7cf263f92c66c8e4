//! Options load from partial JSON with documented defaults (unknown keys rejected), and
//! the interface of a translated pair links: every pixel-shader varying is a location
//! some vertex-shader output of the fixed map provides.

use d3dbc_naga::{translate, TranslateOptions};

mod support;

#[test]
fn options_json_defaults_and_rejection() {
    let o: TranslateOptions = serde_json::from_str(
        r#"{"semantics": {"mul_zero": "ieee"}, "pipeline": {"alpha_test": "greater", "flat_shading": true}}"#,
    )
    .unwrap();
    assert_eq!(o.semantics.mul_zero, d3dbc::MulZero::Ieee);
    assert_eq!(o.semantics.ps1x_max_value, 8.0);
    assert!(o.pipeline.flat_shading && o.pipeline.vpos_half_pixel);
    assert!(serde_json::from_str::<TranslateOptions>(r#"{"pipeline": {"nope": 1}}"#).is_err());
}

#[test]
fn vertex_and_pixel_interfaces_link() {
    // vs_1_1: m4x4 oPos, v0, c0; mov oT0, v1; mov oD0, v2
    let vs = d3dbc::asm::assemble(
        "vs_1_1\ndcl_position v0\ndcl_texcoord v1\ndcl_color v2\nm4x4 oPos, v0, c0\nmov oT0, v1\nmov oD0, v2\n",
        &Default::default(),
    )
    .unwrap();
    // ps_3_0 reading TEXCOORD0 and COLOR0.
    let ps = d3dbc::asm::assemble(
        "ps_3_0\ndcl_texcoord0 v0\ndcl_color0 v1\nadd oC0, v0, v1\n",
        &Default::default(),
    )
    .unwrap();
    let o = TranslateOptions::default();
    let (v, p) = (translate(&vs, &o).unwrap(), translate(&ps, &o).unwrap());
    for pv in &p.interface.varyings {
        assert!(
            v.interface
                .varyings
                .iter()
                .any(|vv| vv.location == pv.location),
            "{pv:?} has no vertex output"
        );
    }
    assert_eq!(p.interface.color_outputs, vec![0]);
    assert_eq!(v.interface.vertex_inputs.len(), 3);
    let json = serde_json::to_string(&v.interface).unwrap();
    assert!(json.contains("\"float_constants\""));
}

#[test]
fn point_expansion_sprites_and_fog_translate_to_every_target() {
    let shaders = [
        "vs_1_1\ndcl_position v0\nmov oPos, v0\nmov oPts, v0.x\nmov oT0, v0\n",
        "vs_2_0\ndcl_position v0\nmov oPos, v0\nmov oD1, v0\n",
        "vs_3_0\ndcl_position v0\ndcl_position o0\ndcl_psize o1\ndcl_texcoord0 o2\nmov o0, v0\nmov o1, v0.x\nmov o2, v0\n",
        "ps_2_0\ndcl t0\nmov oC0, t0\n",
        "ps_1_1\ntex t0\nmov r0, t0\n",
    ];
    for fog_depth in [
        d3dbc::target::options::FogDepth::Z,
        d3dbc::target::options::FogDepth::W,
    ] {
        for fog in [
            d3dbc::target::options::FogMode::Vertex,
            d3dbc::target::options::FogMode::Exp2,
        ] {
            let mut o = TranslateOptions::default();
            o.pipeline.point_expansion = true;
            o.pipeline.point_sprites = true;
            o.pipeline.fog = fog;
            o.pipeline.fog_depth = fog_depth;
            for text in shaders {
                let s = d3dbc::asm::assemble(text, &Default::default()).unwrap();
                let t = translate(&s, &o).unwrap_or_else(|e| panic!("{text}: {e}"));
                t.spirv().unwrap();
                let wgsl = t.wgsl().unwrap();
                naga::front::wgsl::parse_str(&wgsl).unwrap();
                t.glsl().unwrap();
                t.msl().unwrap();
                t.hlsl().unwrap();
                if s.version.is_vertex() {
                    assert!(wgsl.contains("vertex_index"), "{text}: no corner input");
                    assert!(t.interface.driver.is_some());
                }
            }
        }
    }
}

/// WGSL and HLSL 5.1 have no point-size output: with `point_size_builtin`, a vertex
/// shader that writes `oPts` keeps the built-in in SPIR-V/GLSL/MSL and leaves it out of
/// WGSL and HLSL (WebGPU and Direct3D 10+ draw points one pixel wide). The stream is the `translate` fuzz target's find: a
/// vs_1_0 writing `oPts` under options with the built-in on.
#[test]
fn point_size_builtin_is_left_out_of_wgsl_and_hlsl() {
    let input =
        "0100d93f0001feff0100000000000180330087a00000000001000000020001c00a0087a000000000ffff0000";
    let bytes: Vec<u8> = (0..input.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&input[i..i + 2], 16).unwrap())
        .collect();
    let tokens: Vec<u32> = bytes[4..]
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    let shader = d3dbc::Shader::decode(&tokens).unwrap();
    let listing = d3dbc::print::to_string(&shader);
    assert!(listing.contains("oPts"), "{listing}");
    let mut o = TranslateOptions::default();
    o.pipeline.point_size_builtin = true;
    let t = translate(&shader, &o).unwrap();
    let wgsl = t.wgsl().unwrap_or_else(|e| panic!("{e}\n{listing}"));
    assert!(!wgsl.contains("point_size"), "{wgsl}");
    naga::front::wgsl::parse_str(&wgsl).unwrap();
    let glsl = t.glsl().unwrap();
    assert!(glsl.contains("gl_PointSize"), "{glsl}");
    t.spirv().unwrap();
    assert!(t.msl().unwrap().contains("point_size"));
    assert!(!t.hlsl().unwrap().contains("PSIZE"));
    // The same for an assembled vs_3_0 with a psize output and a vs_1_1.
    for text in [
        "vs_3_0\ndcl_position v0\ndcl_position o0\ndcl_psize o1\nmov o0, v0\nmov o1, v0.x\n",
        "vs_1_1\ndcl_position v0\nmov oPos, v0\nmov oPts, v0.x\n",
    ] {
        let s = d3dbc::asm::assemble(text, &Default::default()).unwrap();
        let t = translate(&s, &o).unwrap();
        let wgsl = t.wgsl().unwrap_or_else(|e| panic!("{text}{e}"));
        assert!(!wgsl.contains("point_size"), "{wgsl}");
        assert!(wgsl.contains("@builtin(position)"), "{wgsl}");
        naga::front::wgsl::parse_str(&wgsl).unwrap();
        t.hlsl().unwrap_or_else(|e| panic!("{text}{e}"));
    }
}

/// Tint (the WGSL compiler of Chrome and Dawn) compiles the WGSL of shaders that need
/// infinities, FLT_MAX and NaN (`rcp`/`rsq`/`log` of zero under both semantics, `def`
/// with special values), texture reads in divergent flow, under option sets that
/// select the other code paths. Tint is the binary, else the one inside Chromium; it
/// skips visibly without either, never under `CI=true`.
#[test]
fn wgsl_with_special_values_passes_tint() {
    let Some(tint) = support::tint_compiler() else {
        return;
    };
    use d3dbc::target::options::FogMode;
    use d3dbc::{LogOfZero, ReciprocalOfZero};
    let shaders = [
        "vs_2_0\ndcl_position v0\nrcp r0.x, v0.x\nrsq r0.y, v0.y\nlog r0.z, v0.z\nmov r0.w, v0.w\nmov oPos, r0\nmov oPts, v0.x\n",
        "ps_2_0\ndef c0, 1.#INF, -1.#INF, 3.40282347e+038, -3.40282347e+038\ndef c1, 1.#QNAN, 0, 0, 1\ndcl t0\nadd r0, t0, c0\nmul r0, r0, c1\nmov oC0, r0\n",
        "ps_3_0\ndcl_texcoord v0\ndcl_2d s0\nif_gt v0.x, c0.x\ntexld r0, v0, s0\nelse\nmov r0, c1\nendif\ndsx r1, v0\nadd oC0, r0, r1\n",
        "vs_1_1\ndcl_position v0\nrcp r0, v0.w\nlogp r1, v0.x\nexpp r2, v0.y\nmov oPos, r0\nmov oFog, r1.z\nmov oPts, r2.z\n",
    ];
    let dir = std::env::temp_dir().join(format!("d3dbc-naga-tint-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut checked = 0;
    let mut files = Vec::new();
    for (k, text) in shaders.iter().enumerate() {
        let s = d3dbc::asm::assemble(text, &Default::default()).unwrap_or_else(|e| panic!("{e}"));
        for variant in 0..4 {
            let mut o = TranslateOptions::default();
            o.semantics.rcp_zero =
                [ReciprocalOfZero::Infinity, ReciprocalOfZero::FltMax][variant & 1];
            o.semantics.log_zero = [LogOfZero::NegInfinity, LogOfZero::NegFltMax][variant >> 1];
            o.pipeline.point_size_builtin = variant & 1 == 1;
            o.pipeline.fog = [
                FogMode::Vertex,
                FogMode::Exp2,
                FogMode::None,
                FogMode::Linear,
            ][variant];
            o.pipeline.point_expansion = variant == 2;
            o.pipeline.position_fixup = variant == 3;
            o.pipeline.clip_planes = if variant == 3 { 2 } else { 0 };
            let t = translate(&s, &o).unwrap_or_else(|e| panic!("{text}: {e}"));
            let wgsl = t.wgsl().unwrap();
            assert!(
                !wgsl.contains("340282350000000000000000000000000000000"),
                "{wgsl}"
            );
            naga::front::wgsl::parse_str(&wgsl)
                .unwrap_or_else(|e| panic!("{}", e.emit_to_string(&wgsl)));
            let f = dir.join(format!("{k}-{variant}.wgsl"));
            std::fs::write(&f, &wgsl).unwrap();
            files.push(f);
            checked += 1;
        }
    }
    let bad = support::tint(&tint, &files);
    assert!(bad.is_empty(), "{}", bad.join("\n"));
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(checked, 16);
}

/// The Chromium fallback is the same compiler as the `tint` binary: it rejects what WGSL
/// makes a shader-creation error (a const expression that overflows to infinity, an f32
/// literal beyond FLT_MAX, an unknown identifier) with line:column, and accepts the rest.
/// Where both exist they agree. Needs Chromium (required under `CI=true`).
#[test]
fn tint_in_chromium_agrees_with_the_tint_binary() {
    let Some(browser) = support::webgpu::chromium() else {
        let ci = std::env::var("CI").is_ok_and(|v| v == "true" || v == "1");
        assert!(
            !ci,
            "chromium missing: CI=true requires it (apt-get install chromium)"
        );
        support::skipped("chromium not installed");
        return;
    };
    let cases = [
        ("@fragment fn main() -> @location(0) vec4f { return vec4f(1.0); }", true),
        (
            "const x = bitcast<f32>(2139095040u);\n@fragment fn main() -> @location(0) vec4f { return vec4f(x); }",
            false,
        ),
        (
            "@fragment fn main() -> @location(0) vec4f { return vec4f(340282350000000000000000000000000000000f); }",
            false,
        ),
        ("@fragment fn main() -> @location(0) vec4f { return nope; }", false),
        (
            "var<private> i: f32 = 0.0;\n@fragment fn main() -> @location(0) vec4f { let inf = 1.0 / i; return vec4f(inf); }",
            true,
        ),
    ];
    let dir = std::env::temp_dir().join(format!("d3dbc-naga-tint-agree-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let files: Vec<_> = cases
        .iter()
        .enumerate()
        .map(|(i, (src, _))| {
            let f = dir.join(format!("{i}.wgsl"));
            std::fs::write(&f, src).unwrap();
            f
        })
        .collect();
    let rejected = |failures: &[String]| -> Vec<bool> {
        files
            .iter()
            .map(|f| {
                failures
                    .iter()
                    .any(|m| m.starts_with(&format!("{}:", f.display())))
            })
            .collect()
    };
    let chromium = support::tint(&support::Tint::Chromium(browser), &files);
    let expected: Vec<bool> = cases.iter().map(|(_, ok)| !ok).collect();
    assert_eq!(rejected(&chromium), expected, "{chromium:#?}");
    // The messages say where: `LINE:COL: …` from getCompilationInfo.
    assert!(
        chromium.iter().any(|m| m.contains("1:11: value inf")),
        "{chromium:#?}"
    );
    if std::process::Command::new("tint")
        .arg("--help")
        .output()
        .is_ok()
    {
        let binary = support::tint(&support::Tint::Binary, &files);
        assert_eq!(rejected(&binary), expected, "{binary:#?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
