//! The option spread the translation checks run under: [`SETS`] translation option sets
//! (`d3dbc::target::options::TranslateOptions`) in which every field of `Semantics` and
//! `PipelineState` takes each of its values at least once (a numeric field: its default,
//! its limits and a value between). Set 0 is the defaults; set `k` gives each field its
//! value number `k` modulo the number of values, so that a field's values spread over
//! the sets and the sets differ from each other in every field. `tests/option_spread.rs`
//! (crate `d3dbc`) checks the coverage, a new field included.
//!
//! The corpus tests run every shader under the defaults and under one more set chosen by
//! rotation ([`rotation`]): every set meets a seventh of the corpus, every shader two
//! sets, at twice the cost of the defaults alone rather than eight times.
#![allow(dead_code)]

use d3dbc::target::options::{
    CompareFunc, FogDepth, FogMode, PipelineState, TextureKind, TranslateOptions,
};
use d3dbc::{Denormals, LogOfZero, MovaTies, MulZero, ReciprocalOfZero, Semantics};

/// How many option sets the spread has: the most values any field has (`alpha_test`'s
/// eight comparison functions).
pub const SETS: usize = 8;

fn pick<T: Clone>(values: &[T], k: usize) -> T {
    values[k % values.len()].clone()
}

/// Option set `k` of the spread (`k < SETS`; 0 is the defaults).
pub fn set(k: usize) -> TranslateOptions {
    use CompareFunc::*;
    use TextureKind::*;
    let d = TranslateOptions::default();
    let (s, p) = (&d.semantics, &d.pipeline);
    let kinds = [Tex2d, Cube, Volume];
    let semantics = Semantics {
        mul_zero: pick(&[s.mul_zero, MulZero::Ieee, MulZero::Fast], k),
        rcp_zero: pick(&[s.rcp_zero, ReciprocalOfZero::FltMax], k),
        log_zero: pick(&[s.log_zero, LogOfZero::NegInfinity], k),
        ps1x_max_value: pick(&[s.ps1x_max_value, 1.0, 2.0, f32::MAX], k),
        ps1x_clamp_constants: pick(&[s.ps1x_clamp_constants, !s.ps1x_clamp_constants], k),
        ps1x_saturate_output: pick(&[s.ps1x_saturate_output, !s.ps1x_saturate_output], k),
        mova_ties: pick(&[s.mova_ties, MovaTies::AwayFromZero, MovaTies::HalfUp], k),
        fused_mad: pick(&[s.fused_mad, !s.fused_mad], k),
        denormals: pick(&[s.denormals, Denormals::Preserve], k),
    };
    let pipeline = PipelineState {
        // Stage n of set k: the kinds rotate, so every stage meets every kind.
        sm1_sampler_kinds: if k == 0 {
            p.sm1_sampler_kinds.clone()
        } else {
            (0..6).map(|n| kinds[(k + n) % 3]).collect()
        },
        projected: if k == 0 {
            p.projected.clone()
        } else {
            (0..6).map(|n| [0, 2, 3, 4][(k + n) % 4]).collect()
        },
        alpha_test: pick(
            &[
                p.alpha_test,
                Never,
                Less,
                Equal,
                LessEqual,
                Greater,
                NotEqual,
                GreaterEqual,
            ],
            k,
        ),
        fog: pick(
            &[
                p.fog,
                FogMode::Vertex,
                FogMode::Linear,
                FogMode::Exp,
                FogMode::Exp2,
            ],
            k,
        ),
        fog_depth: pick(&[p.fog_depth, FogDepth::W], k),
        clip_planes: pick(&[p.clip_planes, 1, 8, 3], k),
        point_size_builtin: pick(&[p.point_size_builtin, !p.point_size_builtin], k),
        point_expansion: pick(&[p.point_expansion, !p.point_expansion], k),
        // Sprites apply with expansion only: on in the sets that expand (odd k) and in
        // one that does not.
        point_sprites: pick(&[p.point_sprites, true, true, false, false, true], k),
        flat_shading: pick(&[p.flat_shading, !p.flat_shading], k),
        vpos_half_pixel: pick(&[p.vpos_half_pixel, !p.vpos_half_pixel], k),
        vface_front_positive: pick(&[p.vface_front_positive, !p.vface_front_positive], k),
        position_fixup: pick(&[p.position_fixup, !p.position_fixup], k),
        float_controls: pick(&[p.float_controls, !p.float_controls], k),
    };
    TranslateOptions {
        semantics,
        pipeline,
    }
}

/// Every set of the spread.
pub fn all() -> Vec<TranslateOptions> {
    (0..SETS).map(set).collect()
}

/// The non-default set shader number `i` of a corpus also runs under: `1 + i mod 7`.
pub fn rotation(i: usize) -> usize {
    1 + i % (SETS - 1)
}
