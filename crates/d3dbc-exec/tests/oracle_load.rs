//! Every record of both execution oracles loads into a `Scene` with its probes.
#[path = "../../d3dbc/tests/common/mod.rs"]
mod common;

use d3dbc_exec::oracle;
use d3dbc_exec::Op;

#[test]
fn both_oracles_load() {
    let Some(dir) = common::corpus_dir() else {
        return;
    };
    for (file, records, probes) in [("vkd3d_exec.jsonl", 334, 493), ("wine_exec.jsonl", 50, 295)] {
        let recs = oracle::load(&dir.join(file)).unwrap();
        assert_eq!(recs.len(), records, "{file}");
        let n: usize = recs.iter().map(|r| r.probes.len()).sum();
        assert_eq!(n, probes, "{file}");
        for r in &recs {
            let draws = r
                .scene
                .ops
                .iter()
                .filter(|o| matches!(o, Op::Draw(_)))
                .count();
            for p in &r.probes {
                assert!(p.after_draws >= 1 && p.after_draws <= draws, "{}", p.label);
            }
            // The description round-trips through serde.
            let json = serde_json::to_string(&r.scene).unwrap();
            let back: d3dbc_exec::Scene = serde_json::from_str(&json).unwrap();
            assert_eq!(back, r.scene, "{}", r.source);
        }
    }
}

#[test]
fn ulp_rules() {
    assert_eq!(oracle::ulp_distance(0x8000_0000, 0), 0);
    assert_eq!(oracle::ulp_distance(0x3f80_0000, 0x3f80_0001), 1);
    assert_eq!(oracle::ulp_distance(0x0000_0001, 0x8000_0001), 2);
    assert_eq!(oracle::ulp_distance(0x7fc0_0000, 0x7fc0_0001), 0);
    assert_eq!(oracle::ulp_distance(0x7fc0_0000, 0xffc0_0000), u64::MAX);
}

/// A record in the oracles' shape carrying the output-merger and sampler states the
/// corpus files do not use yet: each lands in the `Draw`, none is dropped.
#[test]
fn every_merger_and_sampler_state_loads() {
    use d3dbc_exec::draw::*;
    let rec = serde_json::json!({
        "source": "synthetic:1",
        "ps_dwords": ["0xffff0200", "0x0000ffff"],
        "vs_dwords": null,
        "depth_stencil": {"format": "D3DFMT_D24S8", "width": 640, "height": 480},
        "render_states": {
            "D3DRS_STENCILENABLE": true, "D3DRS_STENCILFUNC": "EQUAL", "D3DRS_STENCILREF": 3,
            "D3DRS_STENCILMASK": "0x0000000f", "D3DRS_STENCILWRITEMASK": 255,
            "D3DRS_STENCILFAIL": "INCRSAT", "D3DRS_STENCILZFAIL": "DECR",
            "D3DRS_STENCILPASS": "REPLACE", "D3DRS_TWOSIDEDSTENCILMODE": "TRUE",
            "D3DRS_CCW_STENCILFUNC": "NOTEQUAL", "D3DRS_CCW_STENCILFAIL": "INVERT",
            "D3DRS_CCW_STENCILZFAIL": "ZERO", "D3DRS_CCW_STENCILPASS": "INCR",
            "D3DRS_BLENDFACTOR": "0x80ff0040", "D3DRS_SEPARATEALPHABLENDENABLE": true,
            "D3DRS_SRCBLENDALPHA": "BLENDFACTOR", "D3DRS_DESTBLENDALPHA": "INVBLENDFACTOR",
            "D3DRS_BLENDOPALPHA": "REVSUBTRACT", "D3DRS_DEPTHBIAS": "0x3e800000",
            "D3DRS_SLOPESCALEDEPTHBIAS": 2.0, "D3DRS_LASTPIXEL": false,
            "D3DRS_COLORWRITEENABLE1": "0x00000003", "D3DRS_SRCBLEND": "BOTHSRCALPHA"
        },
        "sampler_states": [{"stage": 0, "D3DSAMP_SRGBTEXTURE": true,
            "D3DSAMP_MIPMAPLODBIAS": "0xbf800000", "D3DSAMP_MAXANISOTROPY": 4,
            "comparison": null}],
        "draws": [{"op": "clear", "flags": ["STENCIL"], "stencil": 7},
                  {"op": "draw", "topology": "line_strip", "vertex_count": 2}],
        "probes": []
    });
    let r = oracle::parse_record(&rec).unwrap();
    let Op::Clear(c) = &r.scene.ops[0] else {
        panic!("clear first")
    };
    assert!(c.stencil_enabled && !c.color_enabled && c.stencil == 7);
    let Op::Draw(d) = &r.scene.ops[1] else {
        panic!("draw second")
    };
    assert_eq!(d.primitive, Primitive::LineStrip);
    let rs = &d.render_states;
    assert_eq!(
        rs.stencil,
        StencilStates {
            enable: true,
            func: Cmp::Equal,
            reference: 3,
            mask: 0xF,
            write_mask: 255,
            fail: StencilOp::IncrSat,
            z_fail: StencilOp::Decr,
            pass: StencilOp::Replace,
            two_sided: true,
            ccw_func: Cmp::NotEqual,
            ccw_fail: StencilOp::Invert,
            ccw_z_fail: StencilOp::Zero,
            ccw_pass: StencilOp::Incr,
        }
    );
    assert_eq!(rs.blend_factor, 0x80ff_0040);
    assert!(rs.separate_alpha_blend);
    assert_eq!(rs.src_blend, Blend::BothSrcAlpha);
    assert_eq!(rs.src_blend_alpha, Blend::BlendFactor);
    assert_eq!(rs.dest_blend_alpha, Blend::InvBlendFactor);
    assert_eq!(rs.blend_op_alpha, BlendOp::RevSubtract);
    assert_eq!(rs.depth_bias, 0.25);
    assert_eq!(rs.slope_scale_depth_bias, 2.0);
    assert!(!rs.last_pixel);
    assert_eq!(rs.color_write_more, [3, 0xF, 0xF]);
    let s = d.sampler(0);
    assert!(s.srgb);
    assert_eq!(s.mip_lod_bias, -1.0);

    // A sampler state that would change the result but is not modelled is refused.
    let mut bad = rec.clone();
    bad["sampler_states"][0]["comparison"] = serde_json::json!("LESS");
    assert!(oracle::parse_record(&bad).is_err());
    let mut bad = rec;
    bad["render_states"]["D3DRS_WRAP0"] = serde_json::json!(1);
    assert!(oracle::parse_record(&bad).is_err());
}

/// A record whose `state_delta` switches the pixel shader for a second draw, as the
/// corpus README documents (`ps_dwords`/`vs_dwords` in the delta, with descriptive
/// `profile_*`, `*_asm`, `*_source` keys beside them): it loads, the second draw runs the
/// new shader, and the descriptive keys change nothing. The shaders: `ps_2_0; def c0,
/// 1, 0, 0, 1; mov oC0, c0` (red), then the same with green, drawn over the left half.
#[test]
fn a_state_delta_may_switch_shaders() {
    let asm = |t: &str| -> Vec<String> {
        d3dbc::asm::assemble(t, &Default::default())
            .unwrap()
            .encode()
            .iter()
            .map(|w| format!("0x{w:08x}"))
            .collect()
    };
    let vs = asm("vs_2_0\ndcl_position v0\nmov oPos, v0\n");
    let red = asm("ps_2_0\ndef c0, 1, 0, 0, 1\nmov oC0, c0\n");
    let green_text = "ps_2_0\ndef c0, 0, 1, 0, 1\nmov oC0, c0\n";
    let green = asm(green_text);
    let bits =
        |v: &[f32]| -> Vec<String> { v.iter().map(|f| format!("0x{:08x}", f.to_bits())).collect() };
    let full = bits(&[-2.0, -2.0, -2.0, 4.0, 4.0, -2.0]);
    // Left half: x in [-1, 0].
    let left = bits(&[
        -1.0, -2.0, -1.0, 4.0, 0.0, -2.0, 0.0, -2.0, -1.0, 4.0, 0.0, 4.0,
    ]);
    let probe = |x: u32, after: u32, rgba: [f32; 4]| {
        serde_json::json!({"rect_ltrb": [x, 100, x + 1, 101], "expect_bits": bits(&rgba),
            "ulps": 0, "after_draw": after})
    };
    let rec = serde_json::json!({
        "source": "synthetic:shader-switch",
        "vs_dwords": vs,
        "ps_dwords": red,
        "profile_ps": "ps_2_0",
        "ps_asm": "(descriptive)",
        "vertex_declaration": [{"Stream": 0, "Offset": 0, "Type": "D3DDECLTYPE_FLOAT2",
            "Usage": "D3DDECLUSAGE_POSITION", "UsageIndex": 0}],
        "vertex_streams": [{"stream": 0, "stride": 8, "data_bits": full}],
        "draws": [
            {"op": "draw", "topology": "triangle_list", "vertex_count": 3, "state_delta": {}},
            {"op": "draw", "topology": "triangle_list", "vertex_count": 6, "state_delta": {
                "ps_dwords": green,
                "profile_ps": "ps_2_0",
                "ps_asm": green_text,
                "ps_source": "float4 main() : COLOR { return float4(0, 1, 0, 1); }",
                "vertex_streams": [{"stream": 0, "stride": 8, "data_bits": left}]
            }}
        ],
        "probes": [
            probe(100, 0, [1.0, 0.0, 0.0, 1.0]),
            probe(100, 1, [0.0, 1.0, 0.0, 1.0]),
            probe(500, 1, [1.0, 0.0, 0.0, 1.0])
        ]
    });
    let r = oracle::parse_record(&rec).unwrap_or_else(|e| panic!("{e}"));
    let draws: Vec<&d3dbc_exec::Draw> = r
        .scene
        .ops
        .iter()
        .filter_map(|o| match o {
            Op::Draw(d) => Some(&**d),
            Op::Clear(_) => None,
        })
        .collect();
    assert_eq!(draws.len(), 2);
    assert_ne!(draws[0].ps, draws[1].ps);
    assert_eq!(draws[0].vs, draws[1].vs);
    let outcomes = d3dbc_exec::replay::replay(&r, Default::default());
    assert_eq!(outcomes.len(), 3);
    for o in &outcomes {
        assert!(o.failure.is_none(), "{}: {:?}", o.probe.label, o.failure);
    }
    // `null` switches the shader off, as at the top level; anything else is refused.
    let mut off = rec.clone();
    off["draws"][1]["state_delta"]["ps_dwords"] = serde_json::Value::Null;
    let r = oracle::parse_record(&off).unwrap();
    let Op::Draw(d) = &r.scene.ops[1] else {
        panic!("draw")
    };
    assert!(d.ps.is_none());
    let mut bad = rec.clone();
    bad["draws"][1]["state_delta"]["ps_dwords"] = serde_json::json!(["0xffff0200", "zz"]);
    let e = oracle::parse_record(&bad).unwrap_err().to_string();
    assert!(e.contains("state_delta.ps_dwords"), "{e}");
    let mut unknown = rec;
    unknown["draws"][1]["state_delta"]["ps_shader"] = serde_json::json!(1);
    assert!(oracle::parse_record(&unknown).is_err());
    assert!(oracle::is_descriptive("vs_source") && !oracle::is_descriptive("vs_dwords"));
}
