//! Execution rules from sources the shared oracle corpus does not carry (a vkd3d HLSL
//! shader test the corpus lacks, DXVK's D3D9 alpha test, Wine d3d9 visual tests), each
//! case built as an oracle record: of the shape of `vkd3d_exec.jsonl` (the way vkd3d's
//! Direct3D 9 runner drives a `[test]`: a 640×480 `D3DFMT_A32B32G32R32F` target, 0 at
//! first and kept across the sections of a file, `draw quad` through the default vertex
//! shader) with the pixel shader assembled from a listing, or of the shape of
//! `wine_exec.jsonl` (the `D3DFMT_A8R8G8B8` back buffer, a vertex and a pixel shader,
//! colours compared per 8-bit channel); replayed on the CPU executor and on the GPU
//! through both back ends (the GPU part skips visibly without an adapter, except under
//! `CI=true`).

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

/// A record of the shape of `wine_exec.jsonl`: the 640×480 `D3DFMT_A8R8G8B8` back buffer
/// cleared to `clear` (a D3DCOLOR), one triangle strip of `verts` (FLOAT3 position, then
/// one FLOAT`n` texture coordinate when the vertices carry `3 + n` floats) drawn with the
/// vertex shader `vs` (tokens) and the pixel shader `ps` (assembly), z test off, and
/// one probe of `(x, y)` expecting the D3DCOLOR `expect` within `tol` per 8-bit channel
/// (alpha compared when `alpha`).
fn wine_record(
    source: &str,
    vs: &[u32],
    ps: &str,
    verts: &[&[f32]],
    clear: u32,
    (x, y, expect, tol, alpha): (u32, u32, u32, u32, bool),
) -> Value {
    let unorm = |c: u32| [16, 8, 0, 24].map(|s| ((c >> s) & 0xff) as f32 / 255.0);
    let mut decl = vec![
        json!({"Stream": 0, "Offset": 0, "Type": "D3DDECLTYPE_FLOAT3",
        "Method": "D3DDECLMETHOD_DEFAULT", "Usage": "D3DDECLUSAGE_POSITION", "UsageIndex": 0}),
    ];
    let extra = verts[0].len() - 3;
    if extra > 0 {
        decl.push(
            json!({"Stream": 0, "Offset": 12, "Type": format!("D3DDECLTYPE_FLOAT{extra}"),
            "Method": "D3DDECLMETHOD_DEFAULT", "Usage": "D3DDECLUSAGE_TEXCOORD", "UsageIndex": 0}),
        );
    }
    let bits: Vec<u32> = verts
        .iter()
        .flat_map(|v| v.iter().map(|f| f.to_bits()))
        .collect();
    json!({
        "source": source,
        "vs_dwords": hex_words(vs),
        "ps_dwords": hex_words(&tokens(ps)),
        "render_targets": [{"slot": 0, "width": 640, "height": 480, "d3d9_format": "D3DFMT_A8R8G8B8"}],
        "viewport": {"X": 0, "Y": 0, "Width": 640, "Height": 480, "MinZ": 0.0, "MaxZ": 1.0},
        "vertex_declaration": decl,
        "vertex_streams": [{"stream": 0, "stride": 4 * verts[0].len(), "data_bits": hex_words(&bits)}],
        "render_states": {"D3DRS_ZENABLE": "FALSE", "D3DRS_CULLMODE": "NONE"},
        "draws": [
            {"op": "clear", "value": unorm(clear), "flags": ["TARGET"]},
            {"op": "draw", "topology": "triangle_strip", "vertex_count": verts.len()},
        ],
        "probes": [{
            "rect_ltrb": [x, y, x + 1, y + 1],
            "expect_bits": hex_words(&unorm(expect).map(f32::to_bits)),
            "tolerance_8bit": tol,
            "compare_alpha": alpha,
            "read_element_size": 4,
            "rt_texel_size": 4,
        }],
    })
}

/// Replays every case on the CPU and on the GPU through both back ends: each case lists
/// the outcomes a Wine test accepts as Windows' (one record each), and one of them must
/// pass on every runner.
fn check_one_of_everywhere(cases: &[(String, Vec<oracle::Record>)]) {
    let passes = |outcomes: Vec<replay::ProbeOutcome>| outcomes.iter().all(|o| o.failure.is_none());
    let mut failed = Vec::new();
    for (name, alts) in cases {
        if !alts
            .iter()
            .any(|r| passes(replay::replay(r, render::Options::default())))
        {
            failed.push(format!("cpu: {name}"));
        }
    }
    for backend in [d3dbc_gpu::Backend::Direct, d3dbc_gpu::Backend::Naga] {
        if let Some(gpu) = support::gpu_with(backend) {
            for (name, alts) in cases {
                if !alts.iter().any(|r| passes(d3dbc_gpu::replay(&gpu, r))) {
                    failed.push(format!("{backend:?}: {name}"));
                }
            }
        }
    }
    assert!(
        failed.is_empty(),
        "no accepted outcome:\n{}",
        failed.join("\n")
    );
}

/// Wine `fp_special_test` (dlls/d3d9/tests/visual.c): a vs_2_0 computes a special value
/// from a texture coordinate of 0 (log 0, pow(0, 0), nrm of a zero vector, rcp and rsq
/// of ±0, lit) or reads one from `def c1, NaN, -inf, +inf, 0`, classifies it into
/// oT0.xy (red: 0 or ±inf, half: NaN), and a ps_2_0 classifies it again. The colours
/// are the ones the test accepts from Windows drivers (r500, r600, nv40, nv50); each
/// runner must give one of them. The non-finite `def` is the part a SPIR-V front end
/// that rebuilds an IR without non-finite literals (naga's, under wgpu) rejected.
#[test]
fn special_float_results_are_one_of_the_windows_outcomes() {
    let head = "vs_2_0\ndef c0, 0.0, 0.5, 1.0, 2.0\ndef c1, 0, 0, 0, 0\ndcl_position v0\ndcl_texcoord0 v1\n";
    let foot = "mul r0.y, r0.x, c0.w\nsge r0.z, r0.x, r0.y\nsge r0.y, r0, r0.x\nmul r0.z, r0.y, r0
max r0.w, -r0.z, r0.z\nslt r0.y, r0.x, r0.x\nadd r0.z, r0.y, r0.y\nslt r0.y, c0.x, r0.w
max r0.w, -r0.z, r0.z\nadd r0.z, -r0.y, c0\nslt r0.w, c0.x, r0\nmul r0.z, r0.w, r0
mad r0.y, r0.z, c0, r0\nmov oT0.xy, r0\nmov oPos, v0\n";
    let ps = "ps_2_0\ndef c0, 0.0, 0.5, 1.0, 2.0\ndcl t0.xy\nmax r1.x, t0, c0\nmin r0.x, t0, c0
add r0.x, r0, -r1\nmad r1.x, t0, c0.w, -t0\nabs r2.x, r1\nabs r0.x, r0\nabs r1.x, t0
cmp r2.x, -r2, c0.z, c0\nabs r2.x, r2\ncmp r1.x, -r1, c0.z, c0\nabs r1.x, r1
cmp r3.x, -r2, c0.z, c0\ncmp r2.x, -r1, c0.z, c0\ncmp r0.x, -r0, c0.y, c0\nmul r2.x, r2, r3
cmp r0.x, -r2, c0.z, r0\ncmp r0.y, -r1.x, r0.x, c0.x\nmov r0.xz, t0.yzxw\nmov r0.w, c0.z
mov oC0, r0\n";
    // (body, the colours the test accepts: r500, r600, nv40, nv50)
    let bodies: [(&str, [u32; 4]); 11] = [
        ("log r0.x, v1.x", [0x000000, 0x000000, 0xff0000, 0xff7f00]),
        (
            "pow r0.x, v1.x, v1.x",
            [0x0000ff, 0x0000ff, 0x00ff00, 0x0000ff],
        ),
        ("nrm r0.xyz, v1.x", [0xff0000, 0xff0000, 0x00ff00, 0xff0000]),
        ("rcp r0.x, v1.x", [0x0000ff, 0x0000ff, 0xff00ff, 0xff7f00]),
        ("rcp r0.x, -v1.x", [0x0000ff, 0x000000, 0xff0000, 0xff7f00]),
        ("rsq r0.x, v1.x", [0x0000ff, 0x0000ff, 0xff00ff, 0xff7f00]),
        ("rsq r0.x, -v1.x", [0x0000ff, 0x0000ff, 0xff00ff, 0xff7f00]),
        ("lit r0, v1.xxxx\nmov r0.x, r0.z", [0xff0000; 4]),
        ("mov r0.x, c1.x", [0x0000ff, 0x007f00, 0x00ff00, 0x007f00]),
        ("mov r0.x, c1.y", [0xff0000, 0xff7f00, 0xff0000, 0xff7f00]),
        ("mov r0.x, c1.z", [0xff00ff, 0xff7f00, 0xff00ff, 0xff7f00]),
    ];
    let verts: [&[f32]; 4] = [
        &[-1.0, 1.0, 0.0, 0.0],
        &[1.0, 1.0, 1.0, 0.0],
        &[-1.0, -1.0, 0.0, 0.0],
        &[1.0, -1.0, 1.0, 0.0],
    ];
    let mut cases = Vec::new();
    for (body, colours) in bodies {
        let mut vs = tokens(&format!("{head}{body}\n{foot}"));
        // `def c1, 1.#QNAN, -1.#INF, 1.#INF, 0`: the assembler has no spelling for them.
        let k = vs
            .windows(2)
            .position(|w| w == [0x0500_0051, 0xa00f_0001])
            .unwrap()
            + 2;
        vs[k..k + 4].copy_from_slice(&[0x7fc0_0000, 0xff80_0000, 0x7f80_0000, 0]);
        let alts = colours
            .iter()
            .map(|&c| {
                let source = format!("wine:dlls/d3d9/tests/visual.c fp_special_test {body}");
                wine_record(
                    &source,
                    &vs,
                    ps,
                    &verts,
                    0xff00ff00,
                    (320, 240, c, 1, false),
                )
            })
            .collect::<Vec<_>>();
        cases.push((body.replace('\n', "; "), load(&alts)));
    }
    check_one_of_everywhere(&cases);
}

/// Wine `test_uninitialized_varyings` (dlls/d3d9/tests/visual.c): below vs_3_0 the
/// components of oD0 a vertex shader leaves unwritten read 1, the diffuse colour's
/// default (`mov oD0.x, c0` with c0 = 0.5 draws 0xff7fffff through ps_1_1 `mov r0, v0`
/// and ps_2_0 `mov oC0, v0`); those of oD1 and oT0 read 0 (alpha 1 or 0: the test
/// accepts both); an oD0 never written reads (1, 1, 1, 1).
#[test]
fn unwritten_components_of_od0_read_the_diffuse_default() {
    let part = "dcl_position v0\ndef c0, 0.5, 0.5, 0.5, 0.5\nmov oPos, v0\nmov oD0.x, c0\nmov oD1.x, c0\nmov oT0.x, c0\n";
    let vs1p = tokens(&format!("vs_1_1\n{part}"));
    let vs2p = tokens(&format!("vs_2_0\n{part}"));
    let vs1 = tokens("vs_1_1\ndcl_position v0\nmov oPos, v0\n");
    let verts: [&[f32]; 4] = [
        &[-1.0, -1.0, 0.1],
        &[-1.0, 1.0, 0.1],
        &[1.0, -1.0, 0.1],
        &[1.0, 1.0, 0.1],
    ];
    let cases: [(&[u32], &str, u32, bool); 7] = [
        (&vs1, "ps_1_1\nmov r0, v0\n", 0xffffffff, false),
        (&vs1p, "ps_1_1\nmov r0, v0\n", 0xff7fffff, false),
        (&vs1p, "ps_1_1\nmov r0, v1\n", 0xff7f0000, true),
        (&vs1p, "ps_1_1\ntexcoord t0\nmov r0, t0\n", 0xff7f0000, true),
        (&vs2p, "ps_2_0\ndcl v0\nmov oC0, v0\n", 0xff7fffff, false),
        (&vs2p, "ps_2_0\ndcl v1\nmov oC0, v1\n", 0xff7f0000, true),
        (&vs2p, "ps_2_0\ndcl t0\nmov oC0, t0\n", 0xff7f0000, true),
    ];
    let mut all = Vec::new();
    for (vs, ps, expect, zero_alpha) in cases {
        let source = format!("wine:dlls/d3d9/tests/visual.c test_uninitialized_varyings {ps:?}");
        let mut alts = vec![wine_record(
            &source,
            vs,
            ps,
            &verts,
            0xff00ff00,
            (320, 240, expect, 1, true),
        )];
        if zero_alpha {
            let e = expect & 0x00ff_ffff;
            alts.push(wine_record(
                &source,
                vs,
                ps,
                &verts,
                0xff00ff00,
                (320, 240, e, 1, true),
            ));
        }
        all.push((source, load(&alts)));
    }
    check_one_of_everywhere(&all);
}

/// vkd3d's `tests/hlsl/non-const-indexing.shader_test`, its first section (`uniform
/// float4 f[3]; uniform float2 i; return f[i.x + i.y];`), lowered the way vkd3d's
/// shader model 2 code generator lowers a non-constant array load (the shape of the
/// shared `matrix-indexing` records): the index truncated with `frc`/`cmp`, then for
/// each element `k` an equality flag from `cmp` on `-2·(index - k)²` and a `cmp` that
/// keeps the element where the flag is set. `f` is uploaded to c0–c2 and `i` to c3.
#[test]
fn non_constant_index_into_a_uniform_array_as_shader_model_2_lowers_it() {
    let mut ps = String::from(
        "ps_2_0
def c4, 0, 1, 0, 0
def c5, -0, 0, 0, 0
def c6, -1, 0, 0, 0
def c7, -2, 0, 0, 0
add r0.x, c3.x, c3.y
frc r1.w, r0.x
mov r1.w, -r1.w
cmp r1.z, r1.w, c4.x, c4.y
cmp r1.y, r0.x, c4.x, r1.z
add r1.x, r0.x, r1.w
add r1.x, r1.x, r1.y
mov r2, c4.x
",
    );
    for k in 0..3 {
        ps += &format!(
            "add r3.y, r1.x, c{c}.x
mul r3.y, r3.y, r3.y
add r3.y, -r3.y, -r3.y
cmp r3.y, r3.y, c4.x, c4.y
add r3.y, -r3.y, c4.y
cmp r2, -r3.y, r2, c{k}
",
            c = 5 + k,
        );
    }
    ps += "mov oC0, r2\n";
    let f = [
        1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0,
    ];
    let mut draws = Vec::new();
    let mut probes = Vec::new();
    for (n, (i, expect)) in [
        ([0.0, 0.0], [1.0, 2.0, 3.0, 4.0]),
        ([1.0, 0.0], [5.0, 6.0, 7.0, 8.0]),
        ([0.0, 1.0], [5.0, 6.0, 7.0, 8.0]),
        ([1.0, 1.0], [9.0, 10.0, 11.0, 12.0]),
        // Truncation, as HLSL converts a float index: 0.7 + 1.6 = 2.3 → f[2].
        ([0.7, 1.6], [9.0, 10.0, 11.0, 12.0]),
    ]
    .into_iter()
    .enumerate()
    {
        let mut u = f.to_vec();
        u.extend([i[0], i[1], 0.0, 0.0]);
        draws.push(draw_quad(Some(uniforms(&u)), None));
        probes.push(probe(0, 0, expect, 0, n));
        probes.push(probe(320, 240, expect, 0, n));
    }
    let rec = vkd3d_record(
        "vkd3d-tests:tests/hlsl/non-const-indexing.shader_test:1",
        &ps,
        "D3DFMT_A32B32G32R32F",
        draws,
        probes,
    );
    check_everywhere(&load(&[rec]));
}

/// Wine `test_signed_formats` (dlls/d3d9/tests/visual.c and dlls/d3d8/tests/visual.c):
/// a 4×4 `D3DFMT_L6V5U5` texture read by ps_1_1 `tex t0; mad r0, t0, 0.5, 0.5`. The
/// signed 5-bit U and V channels take a positive value over 15 and a negative one over
/// 16 (15 → 1.0, −15 → −0.9375, −16 → −1.0), L is unsigned 6-bit over 63 and lands in
/// blue; alpha is 1. Windows' colours (the test's `expected_colors`, slop 4) fit this
/// within one step; a plain `v / 15` gives 0x00 instead of 0x07 for −15 and 0x19
/// instead of 0x1f for −12.
#[test]
fn l6v5u5_signed_channels_take_positive_over_15_and_negative_over_16() {
    let content: [[u32; 4]; 4] = [
        [0x0000, 0xfdef, 0x0230, 0xfc00],
        [0x0010, 0x0200, 0x01e0, 0x000f],
        [0x4067, 0x53b9, 0x0421, 0xffff],
        [0x8108, 0x0318, 0xc28c, 0x909c],
    ];
    let expected: [[u32; 4]; 4] = [
        [0x00808080, 0x00fefeff, 0x00010780, 0x008080ff],
        [0x00018080, 0x00800180, 0x0080fe80, 0x00fe8080],
        [0x00ba98a0, 0x004767a8, 0x00888881, 0x007878ff],
        [0x00c3c3c0, 0x003f3f80, 0x00e51fe1, 0x005fa2c8],
    ];
    let vs = tokens("vs_1_1\ndcl_position v0\ndcl_texcoord v1\nmov oPos, v0\nmov oT0, v1\n");
    let ps = "ps_1_1\ndef c0, 0.5, 0.5, 0.5, 0.5\ntex t0\nmad r0, t0, c0, c0\n";
    // The y coordinate flipped, as the test does, so texel row y lands in screen row y.
    let verts: [&[f32]; 4] = [
        &[-1.0, -1.0, 0.0, 0.0, 1.0],
        &[-1.0, 1.0, 0.0, 0.0, 0.0],
        &[1.0, -1.0, 0.0, 1.0, 1.0],
        &[1.0, 1.0, 0.0, 1.0, 0.0],
    ];
    let source = "wine:dlls/d3d9/tests/visual.c test_signed_formats D3DFMT_L6V5U5";
    let mut rec = wine_record(source, &vs, ps, &verts, 0x00330033, (0, 0, 0, 0, false));
    let texels: Vec<String> = content
        .iter()
        .flatten()
        .map(|t| format!("0x{t:04x}"))
        .collect();
    rec["textures"] = json!([{"stage": 0, "dimension": "2d", "d3d9_format": "D3DFMT_L6V5U5",
        "width": 4, "height": 4, "depth": 1, "levels": 1,
        "data_raw": texels, "data_raw_unit_bytes": 2}]);
    let unorm = |c: u32| [16, 8, 0, 24].map(|s| ((c >> s) & 0xff) as f32 / 255.0);
    let mut probes = Vec::new();
    for (y, row) in expected.iter().enumerate() {
        for (x, &e) in row.iter().enumerate() {
            let (px, py) = (80 + 160 * x as u32, 60 + 120 * y as u32);
            probes.push(json!({
                "rect_ltrb": [px, py, px + 1, py + 1],
                "expect_bits": hex_words(&unorm(e).map(f32::to_bits)),
                "tolerance_8bit": 4,
                "compare_alpha": false,
                "read_element_size": 4,
                "rt_texel_size": 4,
            }));
        }
    }
    rec["probes"] = Value::Array(probes);
    check_everywhere(&load(&[rec]));
}

/// ps_1_1 `texbeml` with the bump data of Wine `fixed_function_bumpmap_test`'s luminance
/// part (dlls/d3d9/tests/visual.c): an L6V5U5 texel 0x4000 (U = V = 0, L = 16/63) in
/// stage 0 and an X8R8G8B8 texel in stage 1, whose LSCALE/LOFFSET give the factor. The
/// factor saturates: Windows keeps the texel unchanged for scale 10 / offset 10 and for
/// scale 1000 / offset −1 (the test's D3DTOP_BUMPENVMAPLUMINANCE results; DXVK clamps
/// texbeml's factor the same way), and 2 / 0.1 gives 0x00994c72. It scales all four
/// channels, as the documented `t(m)RGBA = t(m)RGBA * (t(n)B * LSCALE + LOFFSET)` and
/// DXVK do: the texel's alpha 0x80 becomes 0x80 · 0.6 = 0x4d.
#[test]
fn texbeml_luminance_factor_saturates_and_scales_every_channel() {
    let vs = tokens(
        "vs_1_1\ndcl_position v0\ndcl_texcoord0 v1\nmov oPos, v0\nmov oT0, v1\nmov oT1, v1\n",
    );
    let ps = "ps_1_1\ntex t0\ntexbeml t1, t0\nmov r0, t1\n";
    let verts: [&[f32]; 4] = [
        &[-1.0, -1.0, 0.1, 0.0, 0.0],
        &[-1.0, 1.0, 0.1, 0.0, 1.0],
        &[1.0, -1.0, 0.1, 1.0, 0.0],
        &[1.0, 1.0, 0.1, 1.0, 1.0],
    ];
    let f = |x: f32| format!("0x{:08x}", x.to_bits());
    let mut recs = Vec::new();
    for (scale, offset, expect, tol) in [
        (2.0f32, 0.1f32, 0x4d994c72u32, 5u32),
        (10.0, 10.0, 0x80ff80c0, 1),
        (1000.0, -1.0, 0x80ff80c0, 1),
    ] {
        let source =
            format!("wine:dlls/d3d9/tests/visual.c fixed_function_bumpmap_test L{scale}/{offset}");
        let mut rec = wine_record(
            &source,
            &vs,
            ps,
            &verts,
            0xff000000,
            (320, 240, expect, tol, true),
        );
        rec["textures"] = json!([
            {"stage": 0, "dimension": "2d", "d3d9_format": "D3DFMT_L6V5U5", "width": 1, "height": 1,
             "depth": 1, "levels": 1, "data_raw": ["0x4000"], "data_raw_unit_bytes": 2},
            {"stage": 1, "dimension": "2d", "d3d9_format": "D3DFMT_A8R8G8B8", "width": 1, "height": 1,
             "depth": 1, "levels": 1, "data_raw": ["0x80ff80c0"], "data_raw_unit_bytes": 4},
        ]);
        rec["texture_stage_states"] = json!([{"stage": 1, "raw": {
            "D3DTSS_BUMPENVMAT00": f(0.0), "D3DTSS_BUMPENVMAT01": f(0.0),
            "D3DTSS_BUMPENVMAT10": f(0.0), "D3DTSS_BUMPENVMAT11": f(0.0),
            "D3DTSS_BUMPENVLSCALE": f(scale), "D3DTSS_BUMPENVLOFFSET": f(offset)}}]);
        recs.push(rec);
    }
    check_everywhere(&load(&recs));
}

/// Wine d3d8 `test_vshader_input` (dlls/d3d8/tests/visual.c): a Direct3D 8 declaration
/// binds stream offsets to input registers, with no `dcl` in the vs_1_1 shader. A
/// D3DCOLOR bound to v7 (a texture coordinate) still reads as a colour (0x00ff8040); a
/// `D3DVSDT_UBYTE4` at v5 reads the bytes unnormalised (times c0 = 1/256: 0x004080ff);
/// `D3DVSD_SKIP(3)` leaves three DWORDs unread, so the colour at offset 24 lands in v5.
#[test]
fn d3d8_declarations_bind_stream_offsets_to_registers_without_dcl() {
    let colour = f32::from_bits(0x00ff8040);
    /// Name, shader, c0, the floats after the position, (register, offset, type), colour.
    type Case<'a> = (
        &'a str,
        &'a str,
        [f32; 4],
        &'a [f32],
        (u32, u32, &'a str),
        u32,
    );
    let cases: [Case; 3] = [
        (
            "texcoord_color",
            "vs_1_1\nmov oPos, v0\nmov oD0, v7\n",
            [1.0; 4],
            &[colour],
            (7, 12, "D3DVSDT_D3DCOLOR"),
            0x00ff8040,
        ),
        (
            "color_ubyte",
            "vs_1_1\nmov oPos, v0\nmul oD0, c0, v5\n",
            [1.0 / 256.0; 4],
            &[colour],
            (5, 12, "D3DVSDT_UBYTE4"),
            0x004080ff,
        ),
        (
            "color_color_skip3",
            "vs_1_1\nmov oPos, v0\nmul oD0, c0, v5\n",
            [1.0; 4],
            &[0.0, 0.0, 0.0, colour],
            (5, 24, "D3DVSDT_D3DCOLOR"),
            0x00ff8040,
        ),
    ];
    let mut recs = Vec::new();
    for (name, vs, c0, extra, (reg, offset, ty), expect) in cases {
        let rows: Vec<Vec<f32>> = [[-1.0f32, -1.0], [-1.0, 1.0], [1.0, -1.0], [1.0, 1.0]]
            .iter()
            .map(|p| [p[0], p[1], 0.1].iter().chain(extra).copied().collect())
            .collect();
        let verts: Vec<&[f32]> = rows.iter().map(Vec::as_slice).collect();
        let source = format!("wine:dlls/d3d8/tests/visual.c test_vshader_input {name}");
        let mut rec = wine_record(
            &source,
            &tokens(vs),
            "ps_1_1\nmov r0, v0\n",
            &verts,
            0xff0000ff,
            (320, 240, expect, 1, false),
        );
        rec["api"] = json!("d3d8");
        rec["d3d8_vs_input_registers"] = json!([
            {"register": "v0", "Stream": 0, "Offset": 0, "Type": "D3DVSDT_FLOAT3"},
            {"register": format!("v{reg}"), "Stream": 0, "Offset": offset, "Type": ty},
        ]);
        rec["vs_constants_f"] = json!([{"start_register": 0, "vector4f_count": 1,
            "bits": hex_words(&c0.map(f32::to_bits))}]);
        recs.push(rec);
    }
    check_everywhere(&load(&recs));
}

/// `mova` rounds to nearest, ties to even. The D3D9 driver documentation of
/// `D3DSIO_MOVA` (Microsoft's "Instructions" page of the DDK, in the seeds: "The values
/// are converted from floating-point using rounding to nearest") and the `mova`
/// reference page ("int intSrc = RoundToNearest(src)") name IEEE 754's default rounding,
/// roundTiesToEven: 0.5 → 0, 1.5 → 2, −0.5 → −0, 2.5 → 2. The shader and its colours are
/// Wine's `test_mova` (dlls/d3d9/tests/visual.c, the `mova_test` vs_2_0: `mova a0.x,
/// c7.x`, `mov oD0, c3[a0.x]`, seven `def`s of distinct colours), whose non-tie inputs
/// (±0.4, ±1.6, ±2.4) Windows drivers pass; the ties are the ones the documentation
/// decides, where rounding away from zero (wined3d, MojoShader) picks the other
/// neighbour of every odd tie: −2.5 → c0 red, −0.5 → c2 green, 0.5 → c4 blue, 2.5 → c6
/// white instead of yellow, cyan, cyan, magenta.
#[test]
fn mova_rounds_ties_to_even() {
    // c0–c6 as D3DCOLORs, indexed by a0.x + 3.
    const COLOURS: [u32; 7] = [
        0x00ff0000, 0x00ffff00, 0x0000ff00, 0x0000ffff, 0x000000ff, 0x00ff00ff, 0x00ffffff,
    ];
    let verts: [&[f32]; 4] = [
        &[-1.0, -1.0, 0.0],
        &[-1.0, 1.0, 0.0],
        &[1.0, -1.0, 0.0],
        &[1.0, 1.0, 0.0],
    ];
    // (c7.x, a0.x under ties to even)
    let inputs: [(f32, i32); 12] = [
        (-2.4, -2),
        (-1.6, -2),
        (-0.4, 0),
        (0.4, 0),
        (1.6, 2),
        (2.4, 2),
        (-2.5, -2),
        (-1.5, -2),
        (-0.5, 0),
        (0.5, 0),
        (1.5, 2),
        (2.5, 2),
    ];
    let mut all = Vec::new();
    for (x, a0) in inputs {
        let vs = tokens(&format!(
            "vs_2_0\ndcl_position v0\ndef c0, 1, 0, 0, 1\ndef c1, 1, 1, 0, 1\n\
             def c2, 0, 1, 0, 1\ndef c3, 0, 1, 1, 1\ndef c4, 0, 0, 1, 1\n\
             def c5, 1, 0, 1, 1\ndef c6, 1, 1, 1, 1\ndef c7, {x:?}, 0, 0, 0\n\
             mova a0.x, c7.x\nmov oD0, c3[a0.x]\nmov oPos, v0\n"
        ));
        let expect = COLOURS[(a0 + 3) as usize];
        let source = format!("wine:dlls/d3d9/tests/visual.c test_mova, c7.x = {x:?}");
        let rec = wine_record(
            &source,
            &vs,
            "ps_1_1\nmov r0, v0\n",
            &verts,
            0,
            (320, 240, expect, 0, false),
        );
        all.push((source, load(&[rec])));
    }
    check_one_of_everywhere(&all);
}
