//! Arbitrary bytes → one draw through the rasterizer and output merger: clip-space
//! vertex positions (any float bits: NaN, inf, w ≤ 0), colours, primitive type, fill,
//! cull and shade modes, viewport, and the output-merger states (blending with every
//! factor and op, stencil, depth bias, sRGB, last pixel, clipping, user clip planes).
//! Rendering must not panic and must end.
#![no_main]

use libfuzzer_sys::fuzz_target;

use d3dbc::token::DeclUsage;
use d3dbc_exec::draw::*;
use d3dbc_exec::render::{Options, Renderer};

/// vs_2_0: `dcl_position v0; dcl_color v1; mov oPos, v0; mov oD0, v1`.
const VS: &[u32] = &[
    0xFFFE0200, 0x0200001F, 0x80000000, 0x900F0000, 0x0200001F, 0x8000000A, 0x900F0001, 0x02000001,
    0xC00F0000, 0x90E40000, 0x02000001, 0xD00F0000, 0x90E40001, 0x0000FFFF,
];
/// ps_2_0: `dcl v0; mov oC0, v0`.
const PS: &[u32] = &[
    0xFFFF0200, 0x0200001F, 0x80000000, 0x900F0000, 0x02000001, 0x800F0800, 0x90E40000, 0x0000FFFF,
];

fn pick<T: Copy>(b: u8, v: &[T]) -> T {
    v[b as usize % v.len()]
}

fuzz_target!(|data: &[u8]| {
    if data.len() < 48 {
        return;
    }
    let (h, body) = data.split_at(48);
    let word = |i: usize| u32::from_le_bytes([h[4 * i], h[4 * i + 1], h[4 * i + 2], h[4 * i + 3]]);
    const BLENDS: [Blend; 15] = [
        Blend::Zero,
        Blend::One,
        Blend::SrcColor,
        Blend::InvSrcColor,
        Blend::SrcAlpha,
        Blend::InvSrcAlpha,
        Blend::DestAlpha,
        Blend::InvDestAlpha,
        Blend::DestColor,
        Blend::InvDestColor,
        Blend::SrcAlphaSat,
        Blend::BothSrcAlpha,
        Blend::BothInvSrcAlpha,
        Blend::BlendFactor,
        Blend::InvBlendFactor,
    ];
    const OPS: [BlendOp; 5] = [
        BlendOp::Add,
        BlendOp::Subtract,
        BlendOp::RevSubtract,
        BlendOp::Min,
        BlendOp::Max,
    ];
    const SOPS: [StencilOp; 8] = [
        StencilOp::Keep,
        StencilOp::Zero,
        StencilOp::Replace,
        StencilOp::IncrSat,
        StencilOp::DecrSat,
        StencilOp::Invert,
        StencilOp::Incr,
        StencilOp::Decr,
    ];
    const CMPS: [Cmp; 8] = [
        Cmp::Never,
        Cmp::Less,
        Cmp::Equal,
        Cmp::LessEqual,
        Cmp::Greater,
        Cmp::NotEqual,
        Cmp::GreaterEqual,
        Cmp::Always,
    ];
    let prim = pick(
        h[0],
        &[
            Primitive::PointList,
            Primitive::LineList,
            Primitive::LineStrip,
            Primitive::TriangleList,
            Primitive::TriangleStrip,
            Primitive::TriangleFan,
        ],
    );
    let nverts = body.len() / 32;
    let mut d = Draw::new(prim, nverts.min(64) as u32);
    d.vs = Some(VS.to_vec());
    d.ps = Some(PS.to_vec());
    d.viewport = Viewport {
        x: (h[1] % 8) as u32,
        y: (h[2] % 8) as u32,
        width: 1 + (h[3] % 24) as u32,
        height: 1 + (h[4] % 24) as u32,
        min_z: 0.0,
        max_z: 1.0,
    };
    let rs = &mut d.render_states;
    rs.fill = pick(
        h[5],
        &[FillMode::Solid, FillMode::Wireframe, FillMode::Point],
    );
    rs.cull = pick(h[6], &[Cull::None, Cull::Cw, Cull::Ccw]);
    rs.shade = pick(h[7], &[ShadeMode::Gouraud, ShadeMode::Flat]);
    rs.blend = h[8] & 1 != 0;
    rs.src_blend = pick(h[9], &BLENDS);
    rs.dest_blend = pick(h[10], &BLENDS);
    rs.blend_op = pick(h[11], &OPS);
    rs.separate_alpha_blend = h[8] & 2 != 0;
    rs.src_blend_alpha = pick(h[12], &BLENDS);
    rs.dest_blend_alpha = pick(h[13], &BLENDS);
    rs.blend_op_alpha = pick(h[14], &OPS);
    rs.blend_factor = word(4);
    rs.srgb_write = h[8] & 4 != 0;
    rs.last_pixel = h[8] & 8 != 0;
    rs.clipping = h[8] & 16 != 0;
    rs.z_enable = h[8] & 32 != 0;
    rs.z_write = h[8] & 64 != 0;
    rs.z_func = pick(h[15], &CMPS);
    rs.alpha_test = h[8] & 128 != 0;
    rs.alpha_func = pick(h[16], &CMPS);
    rs.alpha_ref = h[17] as u32;
    rs.depth_bias = f32::from_bits(word(5));
    rs.slope_scale_depth_bias = f32::from_bits(word(6));
    rs.point_size = f32::from_bits(word(7));
    rs.point_size_min = 1.0;
    rs.point_size_max = 8.0;
    rs.point_sprite = h[18] & 1 != 0;
    rs.clip_plane_enable = (h[18] >> 1) as u32;
    rs.clip_planes = vec![
        [1.0, 0.5, 0.0, 0.25],
        [f32::from_bits(word(8)), -1.0, 0.0, 0.5],
    ];
    rs.stencil = StencilStates {
        enable: h[19] & 1 != 0,
        two_sided: h[19] & 2 != 0,
        func: pick(h[20], &CMPS),
        ccw_func: pick(h[21], &CMPS),
        reference: h[22] as u32,
        mask: h[23] as u32,
        write_mask: h[24] as u32,
        fail: pick(h[25], &SOPS),
        z_fail: pick(h[26], &SOPS),
        pass: pick(h[27], &SOPS),
        ccw_fail: pick(h[28] >> 4, &SOPS),
        ccw_z_fail: pick(h[28], &SOPS),
        ccw_pass: pick(h[29], &SOPS),
    };
    let format = pick(
        h[30],
        &[
            Format::A32B32G32R32F,
            Format::A8R8G8B8,
            Format::R5G6B5,
            Format::R16F,
        ],
    );
    d.vertex_declaration = vec![
        VertexElement::float4(0, DeclUsage::Position as u8, 0),
        VertexElement::float4(16, DeclUsage::Color as u8, 0),
    ];
    d.streams = vec![VertexStream {
        stream: 0,
        stride: 32,
        data: body[..nverts.min(64) * 32].to_vec(),
    }];
    let scene = Scene {
        targets: vec![TargetDesc {
            width: 24,
            height: 24,
            format,
            initial: [0.0; 4],
        }],
        depth: Some(DepthDesc {
            width: 24,
            height: 24,
            format: pick(
                h[32],
                &[
                    DepthFormat::D24S8,
                    DepthFormat::D24X8,
                    DepthFormat::D16,
                    DepthFormat::D32F,
                ],
            ),
            initial: 0.5,
            initial_stencil: h[31] as u32,
        }),
        ops: vec![Op::Draw(Box::new(d))],
    };
    let _ = Renderer::run_scene(&scene, Options::default(), None, |_, _| {});
});
