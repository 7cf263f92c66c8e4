//! Rasterization and output-merger features checked against values computed by hand or
//! by an independent formula: homogeneous clipping, line pixels, fill modes, blend
//! factor, separate alpha, blend ops, sRGB write and read, stencil, depth bias and the
//! alpha test's precision.

use std::sync::Arc;

use d3dbc::asm;
use d3dbc::token::DeclUsage;
use d3dbc_exec::draw::*;
use d3dbc_exec::render::{Options, Renderer};

fn tokens(t: &str) -> Vec<u32> {
    asm::assemble(t, &asm::Options::default())
        .unwrap_or_else(|e| panic!("{e}\n{t}"))
        .encode()
}

const W: u32 = 32;
const H: u32 = 32;

/// A draw of float4 POSITION + float4 TEXCOORD0 vertices through a pass-through
/// vs_2_0 and a ps_2_0 that writes the texture coordinate.
fn clip_space_draw(prim: Primitive, verts: &[([f32; 4], [f32; 4])]) -> Draw {
    let mut d = Draw::new(prim, verts.len() as u32);
    d.viewport.width = W;
    d.viewport.height = H;
    d.render_states.cull = Cull::None;
    d.vs = Some(tokens(
        "vs_2_0\ndcl_position v0\ndcl_texcoord v1\nmov oPos, v0\nmov oT0, v1\n",
    ));
    d.ps = Some(tokens("ps_2_0\ndcl t0\nmov oC0, t0\n"));
    d.vertex_declaration = vec![
        VertexElement::float4(0, DeclUsage::Position as u8, 0),
        VertexElement::float4(16, DeclUsage::TexCoord as u8, 0),
    ];
    let mut data = Vec::new();
    for (p, t) in verts {
        for v in p.iter().chain(t.iter()) {
            data.extend_from_slice(&v.to_le_bytes());
        }
    }
    d.streams = vec![VertexStream {
        stream: 0,
        stride: 32,
        data,
    }];
    d
}

/// A draw of pre-transformed (POSITIONT) vertices with a COLOR0 each, through a
/// ps_2_0 that writes the colour.
fn screen_draw(prim: Primitive, verts: &[([f32; 4], [f32; 4])]) -> Draw {
    d3dbc_exec::quick::colour_draw(prim, verts, W, H)
}

fn scene(format: Format, depth: bool, ops: Vec<Op>) -> Scene {
    Scene {
        targets: vec![TargetDesc {
            width: W,
            height: H,
            format,
            initial: [-1.0; 4],
        }],
        depth: depth.then_some(DepthDesc {
            width: W,
            height: H,
            format: DepthFormat::D24S8,
            initial: 1.0,
            initial_stencil: 0,
        }),
        ops,
    }
}

fn render(s: &Scene) -> Renderer {
    Renderer::run_scene(s, Options::default(), None, |_, _| {}).unwrap()
}

fn draw_one(d: Draw) -> Renderer {
    render(&scene(
        Format::A32B32G32R32F,
        false,
        vec![Op::Draw(Box::new(d))],
    ))
}

/// Solves the clip-space barycentrics of the point of triangle `p` seen at pixel
/// centre (px, py): α·A + β·B + γ·C projects to the pixel, α + β + γ = 1. Returns the
/// barycentrics and the point's (z, w).
fn solve(p: &[[f32; 4]; 3], px: f64, py: f64) -> Option<([f64; 3], f64, f64)> {
    let nx = 2.0 * px / W as f64 - 1.0;
    let ny = 1.0 - 2.0 * py / H as f64;
    let c = |v: &[f32; 4]| {
        let v = v.map(|x| x as f64);
        [v[0] - nx * v[3], v[1] - ny * v[3], 1.0]
    };
    let (a, b, cc) = (c(&p[0]), c(&p[1]), c(&p[2]));
    // Columns a, b, cc; right-hand side (0, 0, 1). Cramer's rule.
    let det3 = |x: [f64; 3], y: [f64; 3], z: [f64; 3]| {
        x[0] * (y[1] * z[2] - y[2] * z[1]) - y[0] * (x[1] * z[2] - x[2] * z[1])
            + z[0] * (x[1] * y[2] - x[2] * y[1])
    };
    let det = det3(a, b, cc);
    if det.abs() < 1e-12 {
        return None;
    }
    let r = [0.0, 0.0, 1.0];
    let bary = [
        det3(r, b, cc) / det,
        det3(a, r, cc) / det,
        det3(a, b, r) / det,
    ];
    let z: f64 = (0..3).map(|i| bary[i] * p[i][2] as f64).sum();
    let w: f64 = (0..3).map(|i| bary[i] * p[i][3] as f64).sum();
    Some((bary, z, w))
}

/// Renders a triangle (texcoords = the barycentric basis, so the output is the
/// perspective-correct barycentrics) and compares every pixel with [`solve`]: covered
/// exactly where the barycentrics are ≥ 0 with w > 0 and 0 ≤ z ≤ w, with the same
/// values. Pixels within `EPS` of an edge or clip plane are not compared.
fn check_clipped(p: [[f32; 4]; 3]) -> usize {
    const EPS: f64 = 1e-4;
    let basis = [
        [1.0, 0.0, 0.0, 0.0],
        [0.0, 1.0, 0.0, 0.0],
        [0.0, 0.0, 1.0, 0.0],
    ];
    let verts: Vec<_> = (0..3).map(|i| (p[i], basis[i])).collect();
    let r = draw_one(clip_space_draw(Primitive::TriangleList, &verts));
    let img = &r.targets[0];
    let mut covered = 0;
    for y in 0..H {
        for x in 0..W {
            let got = img.get(x, y);
            let Some((b, z, w)) = solve(&p, x as f64, y as f64) else {
                continue;
            };
            let margin = b
                .iter()
                .copied()
                .fold(f64::INFINITY, f64::min)
                .min(z)
                .min(w - z);
            if margin.abs() < EPS * w.abs().max(1.0) {
                continue;
            }
            let inside = margin > 0.0 && w > 0.0;
            if inside {
                covered += 1;
                for c in 0..3 {
                    assert!(
                        (got[c] as f64 - b[c]).abs() < 1e-4,
                        "pixel ({x}, {y}): got {got:?}, want {b:?}"
                    );
                }
            } else {
                assert_eq!(got, [-1.0; 4], "pixel ({x}, {y}) should be clipped");
            }
        }
    }
    covered
}

#[test]
fn triangle_with_a_vertex_behind_the_eye_is_clipped_not_dropped() {
    // C is behind the eye (w < 0): the visible part runs off to infinity on screen.
    let n = check_clipped([
        [-0.5, -0.5, 0.5, 1.0],
        [0.5, -0.5, 0.5, 1.0],
        [0.0, 0.5, 0.5, -0.5],
    ]);
    assert!(n > 20, "only {n} pixels covered");
}

#[test]
fn triangle_crossing_the_near_and_far_planes_is_cut_there() {
    // All w > 0; z < 0 near A (cut by the near plane), z > w near C (far plane).
    let n = check_clipped([
        [-0.9, -0.9, -0.5, 1.0],
        [0.9, -0.9, 0.5, 1.0],
        [0.0, 0.9, 2.5, 2.0],
    ]);
    assert!(n > 50, "only {n} pixels covered");
}

#[test]
fn triangle_entirely_behind_the_eye_draws_nothing() {
    let n = check_clipped([
        [-0.5, -0.5, -0.5, -1.0],
        [0.5, -0.5, -0.5, -1.0],
        [0.0, 0.5, -0.5, -1.0],
    ]);
    assert_eq!(n, 0);
}

fn lit(r: &Renderer) -> Vec<(u32, u32)> {
    let img = &r.targets[0];
    let mut v = Vec::new();
    for y in 0..H {
        for x in 0..W {
            if img.get(x, y)[0] != -1.0 {
                v.push((x, y));
            }
        }
    }
    v
}

const WHITE: [f32; 4] = [1.0; 4];

#[test]
fn lines_follow_the_diamond_exit_rule_and_lastpixel() {
    let line = |a: [f32; 2], b: [f32; 2], last: bool| {
        let mut d = screen_draw(
            Primitive::LineList,
            &[
                ([a[0], a[1], 0.0, 1.0], WHITE),
                ([b[0], b[1], 0.0, 1.0], WHITE),
            ],
        );
        d.render_states.last_pixel = last;
        lit(&draw_one(d))
    };
    // Horizontal, centre to centre: pixels 2..=5 of row 3, plus 6 with LASTPIXEL.
    assert_eq!(
        line([2.0, 3.0], [6.0, 3.0], false),
        vec![(2, 3), (3, 3), (4, 3), (5, 3)]
    );
    assert_eq!(
        line([2.0, 3.0], [6.0, 3.0], true),
        vec![(2, 3), (3, 3), (4, 3), (5, 3), (6, 3)]
    );
    // Steep: one pixel per row, x = 1 + y/4 rounded (ties to the smaller).
    assert_eq!(
        line([1.0, 0.0], [2.0, 4.0], false),
        vec![(1, 0), (1, 1), (1, 2), (2, 3)]
    );
    // A strip draws both segments: (1,1)→(4,1)→(4,4), LASTPIXEL off.
    let mut d = screen_draw(
        Primitive::LineStrip,
        &[
            ([1.0, 1.0, 0.0, 1.0], WHITE),
            ([4.0, 1.0, 0.0, 1.0], WHITE),
            ([4.0, 4.0, 0.0, 1.0], WHITE),
        ],
    );
    d.render_states.last_pixel = false;
    assert_eq!(
        lit(&draw_one(d)),
        vec![(1, 1), (2, 1), (3, 1), (4, 1), (4, 2), (4, 3)]
    );
}

#[test]
fn line_colours_interpolate_along_the_major_axis() {
    let d = screen_draw(
        Primitive::LineList,
        &[
            ([0.0, 2.0, 0.0, 1.0], [0.0, 0.0, 0.0, 1.0]),
            ([8.0, 2.0, 0.0, 1.0], [1.0, 0.5, 0.0, 1.0]),
        ],
    );
    let r = draw_one(d);
    for x in 0..8 {
        let c = r.targets[0].get(x, 2);
        assert_eq!(c, [x as f32 / 8.0, x as f32 / 16.0, 0.0, 1.0], "x = {x}");
    }
}

#[test]
fn wireframe_and_point_fill_draw_edges_and_vertices() {
    let tri = [
        ([1.0, 1.0, 0.0, 1.0], WHITE),
        ([9.0, 1.0, 0.0, 1.0], WHITE),
        ([1.0, 9.0, 0.0, 1.0], WHITE),
    ];
    let mut d = screen_draw(Primitive::TriangleList, &tri);
    d.render_states.fill = FillMode::Point;
    assert_eq!(lit(&draw_one(d.clone())), vec![(1, 1), (9, 1), (1, 9)]);
    d.render_states.fill = FillMode::Wireframe;
    let px = lit(&draw_one(d.clone()));
    // Top edge, left edge and the diagonal; the interior stays empty.
    for x in 1..=9 {
        assert!(px.contains(&(x, 1)), "top edge at {x}");
    }
    for y in 1..=9 {
        assert!(px.contains(&(1, y)), "left edge at {y}");
    }
    assert!(px.contains(&(5, 5)));
    assert!(!px.contains(&(3, 3)));
    // Culling applies before the fill mode: this triangle is clockwise on screen.
    d.render_states.cull = Cull::Cw;
    assert!(lit(&draw_one(d)).is_empty());
}

/// A full-target quad (two triangles) of constant colour `c` at depth `z`.
fn quad(c: [f32; 4], z: f32) -> Draw {
    let (w, h) = (W as f32, H as f32);
    screen_draw(
        Primitive::TriangleStrip,
        &[
            ([0.0, 0.0, z, 1.0], c),
            ([w, 0.0, z, 1.0], c),
            ([0.0, h, z, 1.0], c),
            ([w, h, z, 1.0], c),
        ],
    )
}

fn clear(color: [f32; 4]) -> Op {
    d3dbc_exec::quick::clear_all(color)
}

fn blended(
    format: Format,
    dst: [f32; 4],
    src: [f32; 4],
    f: impl Fn(&mut RenderStates),
) -> [f32; 4] {
    let mut d = quad(src, 0.0);
    d.render_states.blend = true;
    f(&mut d.render_states);
    let r = render(&scene(
        format,
        false,
        vec![clear(dst), Op::Draw(Box::new(d))],
    ));
    r.targets[0].get(3, 3)
}

#[test]
fn blend_factor_separate_alpha_and_blend_ops() {
    let dst = [0.5, 0.25, 1.0, 0.5];
    let src = [0.25, 1.0, 0.5, 0.75];
    // BLENDFACTOR 0x40_80_C0_FF (A, R, G, B): factor (0.5019…, 0.7529…, 1, 0.2509…).
    let bf = [128.0 / 255.0, 192.0 / 255.0, 1.0, 64.0 / 255.0];
    let got = blended(Format::A32B32G32R32F, dst, src, |rs| {
        rs.blend_factor = 0x4080_C0FF;
        rs.src_blend = Blend::BlendFactor;
        rs.dest_blend = Blend::InvBlendFactor;
    });
    for c in 0..4 {
        let want = src[c] * bf[c] + dst[c] * (1.0 - bf[c]);
        assert!((got[c] - want).abs() < 1e-6, "channel {c}: {got:?}");
    }
    // Separate alpha: colour SRCALPHA/INVSRCALPHA add, alpha ONE/ONE revsubtract.
    let got = blended(Format::A32B32G32R32F, dst, src, |rs| {
        rs.src_blend = Blend::SrcAlpha;
        rs.dest_blend = Blend::InvSrcAlpha;
        rs.separate_alpha_blend = true;
        rs.src_blend_alpha = Blend::One;
        rs.dest_blend_alpha = Blend::One;
        rs.blend_op_alpha = BlendOp::RevSubtract;
    });
    assert_eq!(got, [0.3125, 0.8125, 0.625, 0.5 - 0.75]);
    // Min and max ignore the factors; subtract.
    let op = |op: BlendOp| {
        blended(Format::A32B32G32R32F, dst, src, |rs| {
            rs.blend_op = op;
            rs.src_blend = Blend::Zero;
            rs.dest_blend = Blend::One;
        })
    };
    assert_eq!(op(BlendOp::Min), [0.25, 0.25, 0.5, 0.5]);
    assert_eq!(op(BlendOp::Max), [0.5, 1.0, 1.0, 0.75]);
    assert_eq!(op(BlendOp::Subtract), [-0.5, -0.25, -1.0, -0.5]);
    // UNORM targets clamp the source first: 2 · SRCALPHA(0.5) is 0.5, not 1.
    let got = blended(Format::A8R8G8B8, [0.0; 4], [2.0, 0.0, 0.0, 0.5], |rs| {
        rs.src_blend = Blend::SrcAlpha;
        rs.dest_blend = Blend::One;
    });
    assert_eq!(got[0], 128.0 / 255.0);
}

#[test]
fn srgb_write_encodes_and_blends_in_linear_space() {
    let draw = |blend: bool| {
        let mut d = quad([0.5, 0.0, 1.0, 0.5], 0.0);
        d.render_states.srgb_write = true;
        d.render_states.blend = blend;
        d.render_states.src_blend = Blend::One;
        d.render_states.dest_blend = Blend::One;
        let r = render(&scene(
            Format::A8R8G8B8,
            false,
            vec![clear([0.0; 4]), Op::Draw(Box::new(d))],
        ));
        r.targets[0].get(1, 1)
    };
    // sRGB(0.5) = 1.055 · 0.5^(1/2.4) − 0.055 = 0.73536 → 188/255; alpha stays 0.5.
    assert_eq!(draw(false), [188.0 / 255.0, 0.0, 1.0, 128.0 / 255.0]);
    // Blending ONE/ONE over black: the destination reads back as linear 0.
    assert_eq!(draw(true), [188.0 / 255.0, 0.0, 1.0, 128.0 / 255.0]);
    // Float targets are not converted.
    let mut d = quad([0.5, 0.0, 1.0, 0.5], 0.0);
    d.render_states.srgb_write = true;
    assert_eq!(draw_one(d).targets[0].get(0, 0), [0.5, 0.0, 1.0, 0.5]);
    // Nor are targets without 8-bit channels: R5G6B5 stores 0.5 as 16/31.
    let mut d = quad([0.5, 0.0, 1.0, 0.5], 0.0);
    d.render_states.srgb_write = true;
    let r = render(&scene(Format::R5G6B5, false, vec![Op::Draw(Box::new(d))]));
    assert_eq!(r.targets[0].get(0, 0), [16.0 / 31.0, 0.0, 1.0, 1.0]);
}

#[test]
fn srgb_texture_reads_decode_before_filtering() {
    // A 2×1 A8R8G8B8 texture: texel 0 = 188 (sRGB of ≈ 0.5), texel 1 = 0.
    let tex = Texture {
        kind: TextureKind::Tex2d,
        format: Format::A8R8G8B8,
        width: 2,
        height: 1,
        depth: 1,
        levels: 1,
        data: vec![188, 188, 188, 255, 0, 0, 0, 255],
    };
    let sample = |srgb: bool, filter: Filter, u: f32| {
        let mut d = quad(WHITE, 0.0);
        d.ps = Some(tokens(&format!(
            "ps_2_0\ndef c0, {u}, 0.5, 0, 1\ndcl_2d s0\nmov r1, c0\ntexld r0, r1, s0\nmov oC0, r0\n"
        )));
        d.textures = vec![Some(Arc::new(tex.clone()))];
        d.samplers = vec![SamplerState {
            srgb,
            mag_filter: filter,
            min_filter: filter,
            address_u: Address::Clamp,
            ..SamplerState::default()
        }];
        draw_one(d).targets[0].get(0, 0)
    };
    let lin = ((188.0f32 / 255.0 + 0.055) / 1.055).powf(2.4);
    assert_eq!(sample(false, Filter::Point, 0.25)[0], 188.0 / 255.0);
    assert_eq!(sample(true, Filter::Point, 0.25), [lin, lin, lin, 1.0]);
    // Linear halfway between the texels: the average of the decoded values.
    let mid = sample(true, Filter::Linear, 0.5);
    assert!((mid[0] - lin / 2.0).abs() < 1e-6, "{mid:?}");
}

#[test]
fn stencil_replace_then_equal_masks_the_second_draw() {
    let (w, h) = (W as f32, H as f32);
    // Draw 1: left half, stencil ALWAYS, pass REPLACE with ref 5.
    let mut left = screen_draw(
        Primitive::TriangleStrip,
        &[
            ([0.0, 0.0, 0.5, 1.0], WHITE),
            ([w / 2.0, 0.0, 0.5, 1.0], WHITE),
            ([0.0, h, 0.5, 1.0], WHITE),
            ([w / 2.0, h, 0.5, 1.0], WHITE),
        ],
    );
    left.render_states.stencil = StencilStates {
        enable: true,
        func: Cmp::Always,
        reference: 5,
        pass: StencilOp::Replace,
        ..StencilStates::default()
    };
    // Draw 2: everything, only where stencil == 5, then INCR.
    let mut all = quad([0.0, 1.0, 0.0, 1.0], 0.5);
    all.render_states.stencil = StencilStates {
        enable: true,
        func: Cmp::Equal,
        reference: 5,
        pass: StencilOp::Incr,
        fail: StencilOp::Invert,
        write_mask: 0x0F,
        ..StencilStates::default()
    };
    let s = scene(
        Format::A32B32G32R32F,
        true,
        vec![
            clear([0.0; 4]),
            Op::Draw(Box::new(left)),
            Op::Draw(Box::new(all)),
        ],
    );
    let r = render(&s);
    assert_eq!(r.targets[0].get(3, 3), [0.0, 1.0, 0.0, 1.0]);
    assert_eq!(r.targets[0].get(20, 3), [0.0; 4]);
    let st = r.stencil.as_ref().unwrap();
    // Left: 5 + 1 = 6. Right: 0 failed → INVERT under write mask 0x0F = 0x0F.
    assert_eq!(st[(3 * W + 3) as usize], 6);
    assert_eq!(st[(3 * W + 20) as usize], 0x0F);
}

#[test]
fn two_sided_stencil_uses_the_ccw_ops_for_ccw_triangles() {
    let (w, h) = (W as f32, H as f32);
    // Counter-clockwise on screen (y down): (0,0) → (0,h) → (w,0).
    let mut d = screen_draw(
        Primitive::TriangleList,
        &[
            ([0.0, 0.0, 0.5, 1.0], WHITE),
            ([0.0, h, 0.5, 1.0], WHITE),
            ([w, 0.0, 0.5, 1.0], WHITE),
        ],
    );
    d.render_states.stencil = StencilStates {
        enable: true,
        reference: 7,
        pass: StencilOp::Replace,
        two_sided: true,
        ccw_pass: StencilOp::DecrSat,
        ..StencilStates::default()
    };
    let cw = {
        let mut c = screen_draw(
            Primitive::TriangleList,
            &[
                ([0.0, 0.0, 0.5, 1.0], WHITE),
                ([w, 0.0, 0.5, 1.0], WHITE),
                ([0.0, h, 0.5, 1.0], WHITE),
            ],
        );
        c.render_states = d.render_states.clone();
        c
    };
    for (draw, want) in [(d, 0u8), (cw, 7)] {
        let r = render(&scene(
            Format::A32B32G32R32F,
            true,
            vec![clear([0.0; 4]), Op::Draw(Box::new(draw))],
        ));
        assert_eq!(r.stencil.as_ref().unwrap()[(2 * W + 2) as usize], want);
    }
}

#[test]
fn depth_bias_moves_the_written_depth() {
    let mut d = quad(WHITE, 0.25);
    d.render_states.z_enable = true;
    d.render_states.depth_bias = 0.5;
    let r = render(&scene(
        Format::A32B32G32R32F,
        true,
        vec![clear([0.0; 4]), Op::Draw(Box::new(d))],
    ));
    // Stored as D24: round(0.75 · (2^24 − 1)) / (2^24 − 1).
    let d24 = ((0.75f64 * 16_777_215.0).round() / 16_777_215.0) as f32;
    assert_eq!(r.depth.as_ref().unwrap()[5], d24);
    // Slope-scaled: depth rises 1/32 per pixel in x; slope 2 adds 2/32.
    let (w, h) = (W as f32, H as f32);
    let mut d = screen_draw(
        Primitive::TriangleStrip,
        &[
            ([0.0, 0.0, 0.0, 1.0], WHITE),
            ([w, 0.0, 1.0, 1.0], WHITE),
            ([0.0, h, 0.0, 1.0], WHITE),
            ([w, h, 1.0, 1.0], WHITE),
        ],
    );
    d.render_states.z_enable = true;
    d.render_states.slope_scale_depth_bias = 2.0;
    let r = render(&scene(
        Format::A32B32G32R32F,
        true,
        vec![clear([0.0; 4]), Op::Draw(Box::new(d))],
    ));
    let z = r.depth.as_ref().unwrap()[(4 * W + 8) as usize];
    assert!((z - (8.0 / 32.0 + 2.0 / 32.0)).abs() < 1e-6, "{z}");
}

#[test]
fn ps_1_x_output_saturation_is_the_semantics_option() {
    // r0 = 1 + 1 = 2 (within ±PixelShader1xMaxValue) on a float target.
    let mut d = quad(WHITE, 0.0);
    d.ps = Some(tokens("ps_1_1\ndef c0, 1, 1, 1, 1\nadd r0, c0, c0\n"));
    let s = scene(Format::A32B32G32R32F, false, vec![Op::Draw(Box::new(d))]);
    let with = |saturate: bool| {
        let mut o = Options::default();
        o.sem.ps1x_saturate_output = saturate;
        Renderer::run_scene(&s, o, None, |_, _| {}).unwrap().targets[0].get(0, 0)
    };
    assert_eq!(with(true), [1.0; 4]);
    assert_eq!(with(false), [2.0; 4]);
}

#[test]
fn an_input_the_declaration_does_not_supply_reads_0001() {
    // v2 (TEXCOORD1) has no vertex element: it reads like an element with every
    // component missing, (0, 0, 0, 1) (render::MISSING_INPUT, shared with the GPU).
    let mut d = clip_space_draw(
        Primitive::TriangleStrip,
        &[
            ([-1.0, 1.0, 0.5, 1.0], [0.25; 4]),
            ([1.0, 1.0, 0.5, 1.0], [0.25; 4]),
            ([-1.0, -1.0, 0.5, 1.0], [0.25; 4]),
            ([1.0, -1.0, 0.5, 1.0], [0.25; 4]),
        ],
    );
    d.vs = Some(tokens(
        "vs_2_0\ndcl_position v0\ndcl_texcoord v1\ndcl_texcoord1 v2\nmov oPos, v0\nmov oT0, v2\n",
    ));
    let r = draw_one(d);
    assert_eq!(d3dbc_exec::render::MISSING_INPUT, [0.0, 0.0, 0.0, 1.0]);
    assert_eq!(r.targets[0].get(5, 7), [0.0, 0.0, 0.0, 1.0]);
}

#[test]
fn pixel_centres_on_a_clipped_shared_edge_are_covered_exactly_once() {
    // Two triangles share the edge A → C, which crosses the near plane (C has z < 0):
    // each is clipped there on its own, the clip point (10.67, 21.33) is not
    // representable, and the visible part of the edge runs through the pixel centres
    // (k, 32 − k). Snapped to the sub-pixel grid both clipped edges are the same exact
    // line, so the top-left rule alone decides: the triangle to its lower right (a
    // left edge for it) covers those centres, the one to its upper left does not.
    let a = [-1.0, -1.0, 0.5, 1.0];
    let c = [1.0, 1.0, -1.0, 1.0];
    let covered = |third: [f32; 4]| -> Vec<bool> {
        let r = draw_one(clip_space_draw(
            Primitive::TriangleList,
            &[(a, [1.0; 4]), (c, [1.0; 4]), (third, [1.0; 4])],
        ));
        (1..=10)
            .map(|k| r.targets[0].get(k, 32 - k)[0] == 1.0)
            .collect()
    };
    let lower_right = covered([1.0, -1.0, 0.5, 1.0]);
    let upper_left = covered([-1.0, 1.0, 0.5, 1.0]);
    assert_eq!(lower_right, vec![true; 10]);
    assert_eq!(upper_left, vec![false; 10]);
}

/// The alpha test at the target's precision: on a float target the shader's alpha is
/// compared unclamped with `ALPHAREF / 255` (DXVK's float-target alpha test); on an
/// 8-bit target it is rounded to 8 bits first.
#[test]
fn alpha_test_compares_at_the_target_precision() {
    let passes = |format: Format, alpha: f32, func: Cmp, r: u32| {
        let mut d = quad(WHITE, 0.0);
        d.ps = Some(tokens("ps_2_0\nmov oC0, c0\n"));
        d.ps_constants
            .set_float_bits(0, &[0.0, 1.0, 0.0, alpha].map(f32::to_bits));
        d.render_states.alpha_test = true;
        d.render_states.alpha_func = func;
        d.render_states.alpha_ref = r;
        let out = render(&scene(format, false, vec![Op::Draw(Box::new(d))]));
        out.targets[0].get(3, 3)[1] == 1.0
    };
    let f = Format::A32B32G32R32F;
    assert!(passes(f, 1.5, Cmp::Greater, 0xFF));
    assert!(!passes(f, 2.0, Cmp::Equal, 0xFF));
    assert!(passes(f, 0.5, Cmp::Less, 0x80));
    // 0.5 rounds to 128 in 8 bits: not below 0x80.
    assert!(!passes(Format::A8R8G8B8, 0.5, Cmp::Less, 0x80));
}
