//! The output-merger states of a `Draw` on the GPU against the CPU executor's output
//! merger (the reference, itself checked by hand-computed values in
//! `d3dbc-exec/tests/raster.rs`): blend factor, separate alpha, blend ops, the `BOTH*`
//! pair, sRGB write and sRGB texture reads, stencil (one- and two-sided), depth formats
//! and pre-transformed vertices. Every pixel of every target is compared.

use std::sync::Arc;

mod support;

use d3dbc_exec::draw::*;
use d3dbc_exec::quick;
use d3dbc_exec::render::{Options, Renderer};

const W: u32 = 16;
const H: u32 = 16;
const WHITE: [f32; 4] = [1.0; 4];

fn tokens(t: &str) -> Vec<u32> {
    d3dbc::asm::assemble(t, &Default::default())
        .unwrap_or_else(|e| panic!("{e}\n{t}"))
        .encode()
}

fn screen_draw(prim: Primitive, verts: &[([f32; 4], [f32; 4])]) -> Draw {
    quick::colour_draw(prim, verts, W, H)
}

fn rect(x0: f32, x1: f32, c: [f32; 4], z: f32) -> Draw {
    let h = H as f32;
    screen_draw(
        Primitive::TriangleStrip,
        &[
            ([x0, 0.0, z, 1.0], c),
            ([x1, 0.0, z, 1.0], c),
            ([x0, h, z, 1.0], c),
            ([x1, h, z, 1.0], c),
        ],
    )
}

fn scene(format: Format, depth: Option<DepthFormat>, ops: Vec<Op>) -> Scene {
    Scene {
        targets: vec![TargetDesc {
            width: W,
            height: H,
            format,
            initial: [0.0; 4],
        }],
        depth: depth.map(|format| DepthDesc {
            width: W,
            height: H,
            format,
            initial: 1.0,
            initial_stencil: 0,
        }),
        ops,
    }
}

/// A change to a draw's render states.
type SetStates = dyn Fn(&mut RenderStates);

/// `(name, scene)` for every state under test.
fn scenes() -> Vec<(String, Scene)> {
    let mut out = Vec::new();
    let dst = [0.5, 0.25, 1.0, 0.5];
    let src = [0.25, 1.0, 0.5, 0.75];
    let blends: Vec<(&str, Box<SetStates>)> = vec![
        (
            "blend factor",
            Box::new(|rs| {
                rs.blend_factor = 0x4080_C0FF;
                rs.src_blend = Blend::BlendFactor;
                rs.dest_blend = Blend::InvBlendFactor;
            }),
        ),
        (
            "separate alpha",
            Box::new(|rs| {
                rs.src_blend = Blend::SrcAlpha;
                rs.dest_blend = Blend::InvSrcAlpha;
                rs.separate_alpha_blend = true;
                rs.src_blend_alpha = Blend::One;
                rs.dest_blend_alpha = Blend::One;
                rs.blend_op_alpha = BlendOp::RevSubtract;
            }),
        ),
        ("min", Box::new(|rs| rs.blend_op = BlendOp::Min)),
        ("max", Box::new(|rs| rs.blend_op = BlendOp::Max)),
        (
            "subtract",
            Box::new(|rs| {
                rs.blend_op = BlendOp::Subtract;
                rs.dest_blend = Blend::One;
            }),
        ),
        (
            "bothinvsrcalpha",
            Box::new(|rs| {
                rs.src_blend = Blend::BothInvSrcAlpha;
                rs.dest_blend = Blend::Zero;
            }),
        ),
    ];
    for (name, f) in &blends {
        for format in [Format::A32B32G32R32F, Format::A8R8G8B8] {
            let mut d = rect(0.0, W as f32, src, 0.0);
            d.render_states.blend = true;
            f(&mut d.render_states);
            out.push((
                format!("{name} {format:?}"),
                scene(
                    format,
                    None,
                    vec![quick::clear_all(dst), Op::Draw(Box::new(d))],
                ),
            ));
        }
    }
    for blend in [false, true] {
        let mut d = rect(0.0, W as f32, [0.5, 0.0, 1.0, 0.5], 0.0);
        d.render_states.srgb_write = true;
        d.render_states.blend = blend;
        d.render_states.src_blend = Blend::One;
        d.render_states.dest_blend = Blend::One;
        out.push((
            format!("srgb write, blend {blend}"),
            scene(
                Format::A8R8G8B8,
                None,
                vec![quick::clear_all([0.25; 4]), Op::Draw(Box::new(d))],
            ),
        ));
    }
    // sRGB texture reads, point and linear.
    let tex = Texture {
        kind: TextureKind::Tex2d,
        format: Format::A8R8G8B8,
        width: 2,
        height: 1,
        depth: 1,
        levels: 1,
        data: vec![188, 188, 188, 255, 0, 0, 0, 255],
    };
    for (srgb, filter) in [
        (false, Filter::Linear),
        (true, Filter::Point),
        (true, Filter::Linear),
    ] {
        let mut d = rect(0.0, W as f32, WHITE, 0.0);
        d.ps = Some(tokens(
            "ps_2_0\ndef c0, 0.5, 0.5, 0, 1\ndcl_2d s0\nmov r1, c0\ntexld r0, r1, s0\nmov oC0, r0\n",
        ));
        d.textures = vec![Some(Arc::new(tex.clone()))];
        d.samplers = vec![SamplerState {
            srgb,
            mag_filter: filter,
            min_filter: filter,
            address_u: Address::Clamp,
            ..SamplerState::default()
        }];
        out.push((
            format!("srgb texture {srgb} {filter:?}"),
            scene(Format::A32B32G32R32F, None, vec![Op::Draw(Box::new(d))]),
        ));
    }
    // Stencil: replace on the left half, then equal/incr everywhere.
    let mut left = rect(0.0, W as f32 / 2.0, WHITE, 0.5);
    left.render_states.stencil = StencilStates {
        enable: true,
        func: Cmp::Always,
        reference: 5,
        pass: StencilOp::Replace,
        ..StencilStates::default()
    };
    let mut all = rect(0.0, W as f32, [0.0, 1.0, 0.0, 1.0], 0.5);
    all.render_states.stencil = StencilStates {
        enable: true,
        func: Cmp::Equal,
        reference: 5,
        pass: StencilOp::Incr,
        fail: StencilOp::Invert,
        write_mask: 0x0F,
        ..StencilStates::default()
    };
    let mut probe = rect(0.0, W as f32, [0.0, 0.0, 1.0, 1.0], 0.5);
    probe.render_states.stencil = StencilStates {
        enable: true,
        func: Cmp::Equal,
        reference: 0x0F,
        ..StencilStates::default()
    };
    out.push((
        "stencil".into(),
        scene(
            Format::A32B32G32R32F,
            Some(DepthFormat::D24S8),
            vec![
                quick::clear_all([0.0; 4]),
                Op::Draw(Box::new(left)),
                Op::Draw(Box::new(all)),
                Op::Draw(Box::new(probe)),
            ],
        ),
    ));
    // Two-sided stencil: a counter-clockwise triangle decrements, a clockwise one
    // replaces; a last draw shows where the stencil holds 7.
    let (w, h) = (W as f32, H as f32);
    let two = StencilStates {
        enable: true,
        reference: 7,
        pass: StencilOp::Replace,
        two_sided: true,
        ccw_pass: StencilOp::DecrSat,
        ..StencilStates::default()
    };
    let mut ccw = screen_draw(
        Primitive::TriangleList,
        &[
            ([0.0, 0.0, 0.5, 1.0], WHITE),
            ([0.0, h, 0.5, 1.0], WHITE),
            ([w, 0.0, 0.5, 1.0], WHITE),
        ],
    );
    ccw.render_states.stencil = two;
    let mut cw = screen_draw(
        Primitive::TriangleList,
        &[
            ([w, h, 0.5, 1.0], WHITE),
            ([w, 0.0, 0.5, 1.0], WHITE),
            ([0.0, h, 0.5, 1.0], WHITE),
        ],
    );
    cw.render_states.stencil = two;
    let mut probe = rect(0.0, w, [1.0, 0.0, 0.0, 1.0], 0.5);
    probe.render_states.stencil = StencilStates {
        enable: true,
        func: Cmp::Equal,
        reference: 7,
        ..StencilStates::default()
    };
    out.push((
        "two-sided stencil".into(),
        scene(
            Format::A32B32G32R32F,
            Some(DepthFormat::D24S8),
            vec![
                quick::clear_all([0.0; 4]),
                Op::Draw(Box::new(ccw)),
                Op::Draw(Box::new(cw)),
                Op::Draw(Box::new(probe)),
            ],
        ),
    ));
    // Depth formats: a far quad, then a nearer one on the left and a farther one on
    // the right; LESS keeps the nearest.
    for format in [DepthFormat::D16, DepthFormat::D24X8, DepthFormat::D32F] {
        let mut ops = vec![quick::clear_all([0.0; 4])];
        for (x0, x1, c, z) in [
            (0.0, w, [1.0, 0.0, 0.0, 1.0], 0.5),
            (0.0, w / 2.0, [0.0, 1.0, 0.0, 1.0], 0.25),
            (w / 2.0, w, [0.0, 0.0, 1.0, 1.0], 0.75),
        ] {
            let mut d = rect(x0, x1, c, z);
            d.render_states.z_enable = true;
            d.render_states.z_func = Cmp::Less;
            ops.push(Op::Draw(Box::new(d)));
        }
        out.push((
            format!("depth {format:?}"),
            scene(Format::A32B32G32R32F, Some(format), ops),
        ));
    }
    out
}

#[test]
fn output_merger_states_match_the_cpu() {
    let Some(gpu) = support::gpu() else {
        return;
    };
    let mut bad = Vec::new();
    let all = scenes();
    for (name, s) in &all {
        let cpu = Renderer::run_scene(s, Options::default(), None, |_, _| {}).unwrap();
        let mut got = None;
        if let Err(e) = gpu.run_scene(s, |_| true, |_, t| got = Some(t[0].clone())) {
            bad.push(format!("{name}: {e}"));
            continue;
        }
        let got = got.expect("a draw");
        // Float targets: a few ulps (operation order); 8-bit: one step.
        let tol = if s.targets[0].format == Format::A8R8G8B8 {
            1.0 / 255.0 + 1e-6
        } else {
            1e-6
        };
        let want = &cpu.targets[0];
        let mut worst = (0.0f32, 0, 0, [0.0; 4], [0.0; 4]);
        for y in 0..H {
            for x in 0..W {
                let (a, b) = (want.get(x, y), got.get(x, y));
                for c in 0..4 {
                    let d = (a[c] - b[c]).abs();
                    if d > worst.0 || d.is_nan() {
                        worst = (d, x, y, a, b);
                    }
                }
            }
        }
        if worst.0.is_nan() || worst.0 > tol {
            bad.push(format!(
                "{name}: pixel ({}, {}) cpu {:?} gpu {:?}",
                worst.1, worst.2, worst.3, worst.4
            ));
        }
    }
    assert!(
        bad.is_empty(),
        "{} of {} scenes differ:\n{}",
        bad.len(),
        all.len(),
        bad.join("\n")
    );
}
