//! Execution rules from sources the shared oracle corpus does not carry (a vkd3d HLSL
//! shader test the corpus lacks, DXVK's D3D9 alpha test), each case built as an oracle
//! record of the shape of `vkd3d_exec.jsonl` (the way vkd3d's Direct3D 9 runner drives a
//! `[test]`: a 640×480 `D3DFMT_A32B32G32R32F` target, 0 at first and kept across the
//! sections of a file, `draw quad` through the default vertex shader) with the pixel shader assembled from a listing, and
//! replayed on the CPU executor and on the GPU through both back ends (the GPU part
//! skips visibly without an adapter, except under `CI=true`).

mod support;

use d3dbc_exec::{oracle, render, replay};
use serde_json::{json, Value};

fn hex_words(words: &[u32]) -> Value {
    words.iter().map(|w| format!("0x{w:08x}")).collect()
}

fn tokens(text: &str) -> Vec<u32> {
    d3dbc::asm::assemble(text, &Default::default())
        .unwrap_or_else(|e| panic!("{e}\n{text}"))
        .encode()
}

/// `uniform 0 float4 …` of a shader test: uploaded to c0… of both stages.
fn uniforms(floats: &[f32]) -> Value {
    json!({
        "api": ["SetVertexShaderConstantF", "SetPixelShaderConstantF"],
        "start_register": 0,
        "vector4f_count": floats.len() / 4,
        "bits": hex_words(&floats.iter().map(|f| f.to_bits()).collect::<Vec<_>>()),
    })
}

/// A probe of one pixel (`x`, `y`) after draw `after_draw` (0 = the first) expecting
/// `rgba` within `ulps`.
fn probe(x: u32, y: u32, rgba: [f32; 4], ulps: u32, after_draw: usize) -> Value {
    json!({
        "rect_ltrb": [x, y, x + 1, y + 1],
        "expect_bits": hex_words(&rgba.map(f32::to_bits)),
        "ulps": ulps,
        "after_draw": after_draw,
    })
}

/// A `draw quad` with the uniforms and render states it changes first.
fn draw_quad(uniforms: Option<Value>, render_states: Option<Value>) -> Value {
    let mut delta = serde_json::Map::new();
    if let Some(u) = uniforms {
        delta.insert("uniforms".into(), u);
    }
    if let Some(rs) = render_states {
        delta.insert("render_states".into(), rs);
    }
    json!({"op": "draw", "topology": "triangle_list", "vertex_count": 3, "state_delta": delta})
}

/// A record (JSON) of vkd3d's Direct3D 9 runner: pixel shader `ps` (assembly), the given
/// draws and probes, on a target of `format`.
fn vkd3d_record(
    source: &str,
    ps: &str,
    format: &str,
    draws: Vec<Value>,
    probes: Vec<Value>,
) -> Value {
    let vs = tokens("vs_2_0\ndcl_position v0\nmov oPos, v0\n");
    let rec = json!({
        "source": source,
        "ps_dwords": hex_words(&tokens(ps)),
        "vs_dwords": hex_words(&vs),
        "render_targets": [{"slot": 0, "width": 640, "height": 480, "d3d9_format": format}],
        "viewport": {"X": 0, "Y": 0, "Width": 640, "Height": 480, "MinZ": 0.0, "MaxZ": 1.0},
        "vertex_declaration": [{"Stream": 0, "Offset": 0, "Type": "D3DDECLTYPE_FLOAT2",
            "Method": "D3DDECLMETHOD_DEFAULT", "Usage": "D3DDECLUSAGE_POSITION", "UsageIndex": 0}],
        "vertex_streams": [{"stream": 0, "stride": 8,
            "data_bits": hex_words(&[-2.0f32, -2.0, -2.0, 4.0, 4.0, -2.0].map(f32::to_bits))}],
        "render_states": {"D3DRS_ALPHATESTENABLE": true, "D3DRS_ALPHAFUNC": "ALWAYS",
            "D3DRS_ALPHAREF": 0, "D3DRS_CULLMODE": "NONE"},
        "draws": draws,
        "probes": probes,
    });
    rec
}

/// Loads `records` as the lines of one oracle file (a vkd3d shader test's sections in
/// order share their render target).
fn load(records: &[Value]) -> Vec<oracle::Record> {
    let text: Vec<String> = records.iter().map(Value::to_string).collect();
    oracle::parse_jsonl(&text.join("\n")).unwrap_or_else(|e| panic!("{e}"))
}

/// Replays `recs` on the CPU and on the GPU through both back ends; every probe passes.
fn check_everywhere(recs: &[oracle::Record]) {
    let mut failed = Vec::new();
    let mut note = |runner: &str, outcomes: Vec<replay::ProbeOutcome>| {
        for o in outcomes {
            if let Some(f) = o.failure {
                failed.push(format!(
                    "{runner}: {}: expected {:?}: {f}",
                    o.probe.label,
                    o.probe.expect_f32()
                ));
            }
        }
    };
    for rec in recs {
        note("cpu", replay::replay(rec, render::Options::default()));
    }
    for backend in [d3dbc_gpu::Backend::Direct, d3dbc_gpu::Backend::Naga] {
        if let Some(gpu) = support::gpu_with(backend) {
            for rec in recs {
                note(&format!("{backend:?}"), d3dbc_gpu::replay(&gpu, rec));
            }
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

/// vkd3d `tests/hlsl/discard.shader_test`, its first two sections. The first draws
/// `x` = (1, 2, 3, 4) everywhere, then discards every pixel (`if (x.x == 9.0f)
/// discard;`). The second (`[require] shader model >= 3.0`: "derivatives are still
/// computed after discarding other pixels in the same quad") discards every other pixel
/// of each 2×2 quad (`frac((floor(pos.x) + floor(pos.y)) / 2) == 0.5`) and returns
/// `float4(ddx(pos.x), ddx(pos.y), ddy(pos.x), ddy(pos.y))`: the survivors read
/// (1, 0, 0, 1) and the killed pixels keep the (1, 2, 3, 4) the first section drew,
/// since vkd3d's runner keeps its render target across the sections of a file. The
/// killed pixels must run on as helpers for their neighbours' derivatives: the CPU
/// keeps killed lanes running, the GPU back ends defer the kill to the end.
#[test]
fn discarded_quad_neighbours_keep_derivatives_and_the_target_keeps_earlier_sections() {
    // `if (x.x == 9.0f) discard; return x;` as vkd3d lowers it for ps_2_0.
    let first = "ps_2_0
def c1, -9, -1, 0, 0
add r0.x, c0.x, c1.x
mul r0.x, r0.x, r0.x
cmp r1, -r0.x, c1.y, c1.z
texkill r1
mov oC0, c0
";
    let second = "ps_3_0
def c1, 0.5, -0.5, -1, 0
dcl vPos.xy
frc r0.xy, vPos
add r0.xy, vPos, -r0
add r0.x, r0.x, r0.y
mul r0.x, r0.x, c1.x
frc r0.x, r0.x
add r0.x, r0.x, c1.y
cmp r1, -r0_abs.x, c1.z, c1.w
texkill r1
dsx r2.xy, vPos
dsy r3.xy, vPos
mov r4.xy, r2
mov r4.zw, r3.xyxy
mov oC0, r4
";
    let x = [1.0, 2.0, 3.0, 4.0];
    let file = "vkd3d-tests:tests/hlsl/discard.shader_test";
    let first = vkd3d_record(
        &format!("{file}:1"),
        first,
        "D3DFMT_A32B32G32R32F",
        vec![
            draw_quad(Some(uniforms(&x)), None),
            draw_quad(Some(uniforms(&[9.0, 8.0, 7.0, 6.0])), None),
        ],
        vec![probe(0, 0, x, 0, 0), probe(0, 0, x, 0, 1)],
    );
    let mut probes = Vec::new();
    for (px, py) in [
        (0, 0),
        (1, 1),
        (2, 0),
        (3, 1),
        (10, 10),
        (11, 11),
        (639, 479),
    ] {
        probes.push(probe(px, py, [1.0, 0.0, 0.0, 1.0], 0, 0));
    }
    for (px, py) in [(1, 0), (0, 1), (3, 0), (2, 1), (11, 10), (10, 11)] {
        probes.push(probe(px, py, x, 0, 0));
    }
    let second = vkd3d_record(
        &format!("{file}:22"),
        second,
        "D3DFMT_A32B32G32R32F",
        vec![draw_quad(None, None)],
        probes,
    );
    check_everywhere(&load(&[first, second]));
}

/// The alpha test on a floating-point target (the `D3DFMT_A32B32G32R32F` target of
/// vkd3d's Direct3D 9 runner) compares the shader's alpha unclamped and unquantised
/// with `ALPHAREF / 255`, the rule DXVK's D3D9 alpha test applies to float targets
/// (`DoFixedFunctionAlphaTest`: the float path, chosen by the target format's
/// precision; 8-bit targets take the integer path): an alpha of 1.5 passes `GREATER`
/// against 0xFF, an alpha of 2 fails `EQUAL` against 0xFF, and 0.5 passes `LESS`
/// against 0x80 (128/255 > 0.5, though both round to 128 in 8 bits).
#[test]
fn alpha_test_on_a_float_target_compares_the_unclamped_alpha() {
    let ps = "ps_2_0\nmov oC0, c0\n";
    let rs = |func: &str, r: u32| {
        Some(json!({"D3DRS_ALPHATESTENABLE": true, "D3DRS_ALPHAFUNC": func, "D3DRS_ALPHAREF": r}))
    };
    let draws = vec![
        draw_quad(Some(uniforms(&[0.0, 1.0, 0.0, 1.5])), rs("GREATER", 0xFF)),
        draw_quad(Some(uniforms(&[1.0, 0.0, 0.0, 2.0])), rs("EQUAL", 0xFF)),
        draw_quad(Some(uniforms(&[0.0, 0.0, 1.0, 0.5])), rs("LESS", 0x80)),
    ];
    let probes = vec![
        probe(320, 240, [0.0, 1.0, 0.0, 1.5], 0, 0),
        probe(320, 240, [0.0, 1.0, 0.0, 1.5], 0, 1),
        probe(320, 240, [0.0, 0.0, 1.0, 0.5], 0, 2),
    ];
    let rec = vkd3d_record(
        "dxvk:src/d3d9/d3d9_fixed_function.cpp DoFixedFunctionAlphaTest (float targets)",
        ps,
        "D3DFMT_A32B32G32R32F",
        draws,
        probes,
    );
    check_everywhere(&load(&[rec]));
}
