//! `d3dbc_naga::link`: a vertex/pixel pair moves from the fixed varying map to compact
//! locations `0..N` for what the pixel shader reads, the vertex outputs take the pixel
//! inputs' interpolation and sampling, outputs nobody reads go, and both modules stay
//! valid for every back end.

use d3dbc::target::interface::{varying_at, varying_location, Stage};
use d3dbc_naga::{link, translate, Error, TranslateOptions, Translation};
use naga::{Binding, Interpolation, Sampling, TypeInner};

fn tr(text: &str, o: &TranslateOptions) -> Translation {
    let s = d3dbc::asm::assemble(text, &Default::default()).unwrap_or_else(|e| panic!("{e}"));
    translate(&s, o).unwrap_or_else(|e| panic!("{text}: {e}"))
}

type Loc = (u32, Option<Interpolation>, Option<Sampling>);

/// The location bindings among `bindings`, by location (deduplicated).
fn locations<'a>(bindings: impl Iterator<Item = &'a Option<Binding>>) -> Vec<Loc> {
    let mut v: Vec<Loc> = bindings
        .filter_map(|b| match *b {
            Some(Binding::Location {
                location,
                interpolation,
                sampling,
                ..
            }) => Some((location, interpolation, sampling)),
            _ => None,
        })
        .collect();
    v.sort_by_key(|x| x.0);
    v.dedup();
    v
}

/// The location bindings of the vertex shader's outputs.
fn vs_outputs(t: &Translation) -> Vec<Loc> {
    let ty = t.module.entry_points[0]
        .function
        .result
        .as_ref()
        .unwrap()
        .ty;
    let TypeInner::Struct { members, .. } = &t.module.types[ty].inner else {
        panic!("no output struct");
    };
    locations(members.iter().map(|m| &m.binding))
}

/// The location bindings of the pixel shader's inputs.
fn ps_inputs(t: &Translation) -> Vec<Loc> {
    let args = &t.module.entry_points[0].function.arguments;
    locations(args.iter().map(|a| &a.binding))
}

fn every_target(t: &Translation) {
    t.spirv().unwrap();
    let wgsl = t.wgsl().unwrap();
    naga::front::wgsl::parse_str(&wgsl).unwrap_or_else(|e| panic!("{}", e.emit_to_string(&wgsl)));
    t.glsl().unwrap();
    t.msl().unwrap();
    t.hlsl().unwrap();
}

const VS3: &str = "vs_3_0
dcl_position v0
dcl_position o0
dcl_texcoord0 o1
dcl_blendweight0 o2
dcl_color1 o3
dcl_tangent3 o4
mov o0, v0
mov o1, v0.yxzw
mov o2, v0.zzzz
mov o3, v0.wwww
mov o4, v0
";

#[test]
fn high_centroid_and_missing_varyings_link_compactly() {
    let o = TranslateOptions::default();
    let (mut v, mut p) = (
        tr(VS3, &o),
        tr(
            "ps_3_0
dcl_texcoord0_centroid v0
dcl_blendweight0 v1
dcl_normal2 v2
dcl_color0 v3
add r0, v0, v1
add r0, r0, v2
add oC0, r0, v3
",
            &o,
        ),
    );
    // Unlinked: the fixed map puts BLENDWEIGHT0 and TANGENT3 past 30 locations.
    assert!(vs_outputs(&v)
        .iter()
        .any(|x| x.0 == varying_location(d3dbc::token::DeclUsage::BlendWeight, 0)));
    assert!(vs_outputs(&v).iter().any(|x| x.0 > 30));
    link(&mut v, &mut p).unwrap();
    let (vo, pi) = (vs_outputs(&v), ps_inputs(&p));
    // Exactly what the pixel shader reads, at 0..4, with its interpolation and sampling.
    assert_eq!(vo, pi);
    assert_eq!(
        vo.iter().map(|x| x.0).collect::<Vec<_>>(),
        vec![0, 1, 2, 3],
        "{vo:?}"
    );
    // TEXCOORD0 (fixed 0) first, then COLOR0 (8), NORMAL2, BLENDWEIGHT0 in fixed order.
    assert_eq!(vo[0].2, Some(Sampling::Centroid));
    assert!(vo[1..].iter().all(|x| x.2 == Some(Sampling::Center)));
    let names: Vec<String> = v
        .interface
        .varyings
        .iter()
        .map(|x| format!("{}{}@{}", x.usage.name(), x.usage_index, x.location))
        .collect();
    assert_eq!(
        names,
        ["texcoord0@0", "color0@1", "blendweight0@2", "normal2@3"],
        "ordered by fixed location"
    );
    assert!(v.interface.varyings[0].centroid && !v.interface.varyings[1].centroid);
    assert_eq!(
        p.interface
            .varyings
            .iter()
            .map(|x| x.location)
            .collect::<Vec<_>>(),
        vec![0, 2, 3, 1],
        "the pixel interface follows"
    );
    assert!(v.interface.linked && p.interface.linked);
    // The unread TANGENT3 and COLOR1 outputs are gone; the unwritten NORMAL2 and COLOR0
    // read D3D9's defaults (0 and 1).
    let wgsl = v.wgsl().unwrap();
    assert!(
        !wgsl.contains("tangent3") && !wgsl.contains("color1"),
        "{wgsl}"
    );
    assert!(
        wgsl.contains("normal2") && wgsl.contains("0f, 0f, 0f, 0f"),
        "{wgsl}"
    );
    every_target(&v);
    every_target(&p);
    // Linking twice, or the wrong way round, is refused.
    assert!(matches!(
        link(&mut v, &mut p),
        Err(Error::Shader(d3dbc::target::Error::Link(_)))
    ));
    let (mut v2, mut p2) = (tr(VS3, &o), tr("ps_2_0\ndcl t0\nmov oC0, t0\n", &o));
    assert!(matches!(
        link(&mut p2, &mut v2),
        Err(Error::Shader(d3dbc::target::Error::Link(_)))
    ));
}

#[test]
fn flat_colours_fog_and_sm1_pairs_link() {
    let mut o = TranslateOptions::default();
    o.pipeline.flat_shading = true;
    o.pipeline.fog = d3dbc::target::options::FogMode::Vertex;
    o.pipeline.clip_planes = 2;
    let (mut v, mut p) = (
        tr(
            "vs_1_1\ndcl_position v0\ndcl_color v1\nmov oPos, v0\nmov oD0, v1\nmov oD1, v1\nmov oT3, v0\nmov oFog, v0.x\n",
            &o,
        ),
        tr("ps_1_4\ntexcrd r1.xyz, t3\nadd r0, r1, v1\n", &o),
    );
    link(&mut v, &mut p).unwrap();
    let (vo, pi) = (vs_outputs(&v), ps_inputs(&p));
    assert_eq!(vo, pi);
    // TEXCOORD3, COLOR1 (flat), FOG (the fixed-function fog factor), in fixed order.
    let linked: Vec<(String, bool)> = v
        .interface
        .varyings
        .iter()
        .map(|x| (format!("{}{}", x.usage.name(), x.usage_index), x.flat))
        .collect();
    for want in [("texcoord3", false), ("color1", true), ("fog0", false)] {
        assert!(
            linked.iter().any(|(n, f)| n == want.0 && *f == want.1),
            "{want:?} not in {linked:?}"
        );
    }
    assert_eq!(linked.len(), vo.len());
    assert_eq!(linked.last().unwrap().0, "fog0");
    let flat = vo
        .iter()
        .filter(|x| x.1 == Some(Interpolation::Flat))
        .count();
    assert_eq!(flat, 1, "{vo:?}");
    // The clip distances and the position stay.
    let wgsl = v.glsl().unwrap();
    assert!(wgsl.contains("gl_ClipDistance"), "{wgsl}");
    v.spirv().unwrap();
    p.spirv().unwrap();
}

#[test]
fn a_vs_3_0_position_is_visible_to_a_position_input() {
    let o = TranslateOptions::default();
    let (mut v, mut p) = (
        tr(VS3, &o),
        tr("ps_3_0\ndcl_position0 v0\nmov oC0, v0\n", &o),
    );
    link(&mut v, &mut p).unwrap();
    assert_eq!(vs_outputs(&v).len(), 1);
    let wgsl = v.wgsl().unwrap();
    // One return: the position built-in and the varying share the value.
    assert!(wgsl.contains("position0"), "{wgsl}");
    every_target(&v);
}

#[test]
fn varying_at_inverts_the_fixed_map() {
    for u in d3dbc::token::DeclUsage::ALL {
        for i in 0..16 {
            assert_eq!(varying_at(varying_location(u, i)), Some((u, i)));
        }
    }
    assert_eq!(varying_at(16 + 16 * 200), None);
}

#[test]
fn every_corpus_shader_links() {
    // Each corpus pixel shader with a vs_3_0 writing many varyings, each corpus vertex
    // shader with a ps_3_0 reading TEXCOORD0-7 and COLOR0-1: the pair links, the modules
    // validate, and no location reaches 16.
    let Some(streams) = common::all_streams() else {
        return;
    };
    let o = TranslateOptions::default();
    let vs_text = "vs_3_0\ndcl_position v0\ndcl_position o0\ndcl_texcoord0 o1\ndcl_color0 o2\ndcl_color1 o3\ndcl_fog o4\nmov o0, v0\nmov o1, v0\nmov o2, v0\nmov o3, v0\nmov o4, v0\n";
    let mut ps_text = String::from("ps_3_0\n");
    for i in 0..8 {
        ps_text += &format!("dcl_texcoord{i} v{i}\n");
    }
    ps_text += "dcl_color0 v8\ndcl_color1 v9\nmov r0, v0\n";
    for i in 1..10 {
        ps_text += &format!("add r0, r0, v{i}\n");
    }
    ps_text += "mov oC0, r0\n";
    let (vs, ps) = (tr(vs_text, &o), tr(&ps_text, &o));
    let (mut nv, mut np) = (0, 0);
    for (file, label, tokens) in streams {
        let Ok(s) = d3dbc::Shader::decode(&tokens) else {
            continue;
        };
        if d3dbc::validate::validate(&s)
            .iter()
            .any(|f| f.severity == d3dbc::Severity::Error)
        {
            continue;
        }
        let Ok(t) = translate(&s, &o) else {
            continue;
        };
        let (mut v, mut p) = match t.interface.stage {
            Stage::Vertex => {
                nv += 1;
                (t, clone(&ps))
            }
            Stage::Fragment => {
                np += 1;
                (clone(&vs), t)
            }
        };
        link(&mut v, &mut p).unwrap_or_else(|e| panic!("{file} {label}: {e}"));
        assert_eq!(vs_outputs(&v), ps_inputs(&p), "{file} {label}");
        assert!(
            vs_outputs(&v).iter().all(|x| x.0 < 16),
            "{file} {label}: {:?}",
            vs_outputs(&v)
        );
        v.spirv().unwrap_or_else(|e| panic!("{file} {label}: {e}"));
    }
    eprintln!("linked {nv} vertex and {np} pixel shaders");
    assert!(nv > 150 && np > 150, "{nv} vertex, {np} pixel shaders");
}

fn clone(t: &Translation) -> Translation {
    Translation {
        module: t.module.clone(),
        info: d3dbc_naga::validate(&t.module).unwrap(),
        interface: t.interface.clone(),
        float_controls: t.float_controls,
    }
}

#[path = "../../d3dbc/tests/common/mod.rs"]
mod common;
