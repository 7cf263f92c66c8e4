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
