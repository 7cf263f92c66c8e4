//! Options load from partial JSON with documented defaults (unknown keys rejected), and
//! the interface of a translated pair links: every pixel-shader varying is a location
//! some vertex-shader output of the fixed map provides.

use d3dbc_naga::{translate, TranslateOptions};

#[test]
fn options_json_defaults_and_rejection() {
    let o: TranslateOptions = serde_json::from_str(
        r#"{"semantics": {"mul_zero": "ieee"}, "pipeline": {"alpha_test": "greater", "flat_shading": true}}"#,
    )
    .unwrap();
    assert_eq!(o.semantics.mul_zero, d3dbc::semantics::MulZero::Ieee);
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
        d3dbc_naga::options::FogDepth::Z,
        d3dbc_naga::options::FogDepth::W,
    ] {
        for fog in [
            d3dbc_naga::options::FogMode::Vertex,
            d3dbc_naga::options::FogMode::Exp2,
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
