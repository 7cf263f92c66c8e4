//! What the fuzz targets that run shaders share: split the input into a fixed-size head
//! (options, constants) and a token stream, and keep only shaders the validator accepts.
#![allow(dead_code)]

use d3dbc::{LogOfZero, MovaTies, MulZero, ReciprocalOfZero};
use d3dbc::target::options::{FogDepth, FogMode, TextureKind, TranslateOptions};
use d3dbc::CompareFunc;

/// `data` as `(head, tokens, shader)` when it holds `head_len` bytes, at least two
/// tokens after them, and the tokens decode to a shader with no validation error.
pub fn valid_shader(data: &[u8], head_len: usize) -> Option<(&[u8], Vec<u32>, d3dbc::Shader)> {
    if data.len() < head_len + 8 {
        return None;
    }
    let (head, body) = data.split_at(head_len);
    let tokens: Vec<u32> = body
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    let shader = d3dbc::Shader::decode(&tokens).ok()?;
    let invalid = d3dbc::validate::validate(&shader)
        .iter()
        .any(|f| f.severity == d3dbc::Severity::Error);
    (!invalid).then_some((head, tokens, shader))
}

/// Translation options (device semantics and pipeline state: the code paths they
/// select) from four bytes, shared by the targets that translate: every field of
/// `Semantics` and `PipelineState` at each of its values (bits are shared between
/// fields, so some combinations come together).
pub fn translate_options(b: [u8; 4]) -> TranslateOptions {
    let mut o = TranslateOptions::default();
    let s = &mut o.semantics;
    s.mul_zero = [MulZero::Ieee, MulZero::Strict, MulZero::Fast][(b[0] % 3) as usize];
    s.rcp_zero = if b[0] & 4 != 0 {
        ReciprocalOfZero::FltMax
    } else {
        ReciprocalOfZero::Infinity
    };
    s.log_zero = if b[0] & 8 != 0 {
        LogOfZero::NegInfinity
    } else {
        LogOfZero::NegFltMax
    };
    s.mova_ties =
        [MovaTies::AwayFromZero, MovaTies::ToEven, MovaTies::HalfUp][(b[0] >> 4) as usize % 3];
    s.fused_mad = b[0] & 0x80 != 0;
    s.ps1x_clamp_constants = b[1] & 1 != 0;
    s.ps1x_saturate_output = b[3] & 4 != 0;
    s.ps1x_max_value = [8.0, 1.0, 2.0, f32::MAX][(b[2] >> 2) as usize & 3];
    s.denormals = if b[3] & 0x80 != 0 {
        d3dbc::Denormals::Preserve
    } else {
        d3dbc::Denormals::FlushToZero
    };
    let p = &mut o.pipeline;
    p.alpha_test = CompareFunc::from_d3d(u32::from(b[1] >> 1 & 7) + 1).unwrap_or_default();
    p.fog = [
        FogMode::None,
        FogMode::Vertex,
        FogMode::Linear,
        FogMode::Exp,
        FogMode::Exp2,
    ][(b[1] >> 4) as usize % 5];
    p.fog_depth = if b[1] & 0x80 != 0 {
        FogDepth::W
    } else {
        FogDepth::Z
    };
    p.clip_planes = b[2] % 9;
    p.point_expansion = b[0] & 0x40 != 0;
    p.point_size_builtin = b[2] & 0x10 != 0;
    p.point_sprites = b[2] & 0x20 != 0;
    p.flat_shading = b[2] & 0x40 != 0;
    p.vpos_half_pixel = b[2] & 0x80 != 0;
    p.vface_front_positive = b[3] & 1 != 0;
    p.position_fixup = b[3] & 2 != 0;
    p.float_controls = b[3] & 0x40 != 0;
    let kinds = [TextureKind::Tex2d, TextureKind::Cube, TextureKind::Volume];
    p.sm1_sampler_kinds = (0..4)
        .map(|i| kinds[(b[3] >> (3 + i)) as usize % 3])
        .collect();
    p.projected = (0..4).map(|i| [0, 2, 3, 4][(b[i] >> 6) as usize]).collect();
    o
}
