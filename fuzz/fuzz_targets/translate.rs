//! Arbitrary bytes → decode → validate → translate → every back end. The first 4 bytes
//! choose the translation options (device semantics and pipeline state: the code paths
//! they select); the rest is the token stream. A validator-accepted shader must lower
//! to a module naga's validator accepts, and every back end (SPIR-V, WGSL, GLSL, MSL,
//! HLSL) must write it: any error there is a translator bug, so it fails the run.
#![no_main]

use libfuzzer_sys::fuzz_target;

mod common;

use d3dbc::semantics::{LogOfZero, MovaTies, MulZero, ReciprocalOfZero};
use d3dbc::CompareFunc;
use d3dbc_naga::options::{FogMode, TextureKind, TranslateOptions};
use d3dbc_naga::Target;

fn options(b: [u8; 4]) -> TranslateOptions {
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
    let p = &mut o.pipeline;
    p.alpha_test = CompareFunc::from_d3d(u32::from(b[1] >> 1 & 7) + 1).unwrap_or_default();
    p.fog = [
        FogMode::None,
        FogMode::Vertex,
        FogMode::Linear,
        FogMode::Exp,
        FogMode::Exp2,
    ][(b[1] >> 4) as usize % 5];
    p.clip_planes = b[2] % 9;
    p.point_size_builtin = b[2] & 0x10 != 0;
    p.point_sprites = b[2] & 0x20 != 0;
    p.flat_shading = b[2] & 0x40 != 0;
    p.vpos_half_pixel = b[2] & 0x80 != 0;
    p.vface_front_positive = b[3] & 1 != 0;
    p.position_fixup = b[3] & 2 != 0;
    let kinds = [TextureKind::Tex2d, TextureKind::Cube, TextureKind::Volume];
    p.sm1_sampler_kinds = (0..4)
        .map(|i| kinds[(b[3] >> (3 + i)) as usize % 3])
        .collect();
    p.projected = (0..4).map(|i| [0, 2, 3, 4][(b[i] >> 6) as usize]).collect();
    o
}

fuzz_target!(|data: &[u8]| {
    let Some((head, _, shader)) = common::valid_shader(data, 4) else {
        return;
    };
    let opts = options([head[0], head[1], head[2], head[3]]);
    let t = match d3dbc_naga::translate(&shader, &opts) {
        Ok(t) => t,
        Err(e) => panic!(
            "valid shader did not translate: {e}\n{}",
            d3dbc::print::to_string(&shader)
        ),
    };
    for target in [
        Target::Spirv,
        Target::Wgsl,
        Target::Glsl,
        Target::Msl,
        Target::Hlsl,
    ] {
        if let Err(e) = t.emit(target) {
            panic!("{target}: {e}\n{}", d3dbc::print::to_string(&shader));
        }
    }
});
