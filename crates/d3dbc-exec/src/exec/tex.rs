//! Texture lookups for every lane (implicit LOD from per-quad derivatives, explicit LOD
//! or gradients), the quad derivatives themselves and the ps_1_x coordinate divides
//! (`_dz`/`_dw`, the stage's projection).

// Lane and component loops index several structure-of-arrays values at once.
#![allow(clippy::needless_range_loop)]

use d3dbc::token::SrcModifier;

use crate::draw::TextureKind;
use crate::texture::{self, Lod};

use super::lanes::Stage;
use super::{Mask, LANES, Q, QUAD};

pub(super) fn dz_dw(q: &mut Q, m: SrcModifier) {
    let d = match m {
        SrcModifier::Dz => 2,
        SrcModifier::Dw => 3,
        _ => return,
    };
    for l in 0..LANES {
        let w = q[d][l];
        let r = if w == 0.0 { 0.0 } else { 1.0 / w };
        q[0][l] *= r;
        q[1][l] *= r;
        if d == 3 {
            q[2][l] *= r;
        }
    }
}

/// Derivative along x within each quad (lanes 0 1 / 2 3 of the quad).
#[inline]
pub(super) fn ddx(v: &[f32; LANES]) -> [f32; LANES] {
    let mut o = [0.0; LANES];
    for q in (0..LANES).step_by(QUAD) {
        let a = v[q + 1] - v[q];
        let b = v[q + 3] - v[q + 2];
        o[q..q + QUAD].copy_from_slice(&[a, a, b, b]);
    }
    o
}

/// Derivative along y within each quad.
#[inline]
pub(super) fn ddy(v: &[f32; LANES]) -> [f32; LANES] {
    let mut o = [0.0; LANES];
    for q in (0..LANES).step_by(QUAD) {
        let a = v[q + 2] - v[q];
        let b = v[q + 3] - v[q + 1];
        o[q..q + QUAD].copy_from_slice(&[a, b, a, b]);
    }
    o
}

/// Texture lookup for every lane with implicit (per-quad derivatives) or explicit LOD.
pub(super) fn tex_lookup(
    stage: Option<&Stage>,
    coords: &Q,
    lod: LodMode,
    (cur, nonfinite): (Mask, &mut u64),
) -> Q {
    let mut out = [[0.0; LANES]; 4];
    let Some(stage) = stage else {
        for l in 0..LANES {
            out[3][l] = 1.0;
        }
        return out;
    };
    let Some(tex) = stage.tex else {
        for l in 0..LANES {
            out[3][l] = 1.0;
        }
        return out;
    };
    let (gx, gy): (Q, Q) = match lod {
        LodMode::Implicit(_) => {
            let mut gx = [[0.0; LANES]; 4];
            let mut gy = [[0.0; LANES]; 4];
            for c in 0..4 {
                gx[c] = ddx(&coords[c]);
                gy[c] = ddy(&coords[c]);
            }
            (gx, gy)
        }
        LodMode::Grad(gx, gy) => (*gx, *gy),
        _ => ([[0.0; LANES]; 4], [[0.0; LANES]; 4]),
    };
    for l in 0..LANES {
        let c = [coords[0][l], coords[1][l], coords[2][l], coords[3][l]];
        let lodv = match lod {
            LodMode::Implicit(bias) => {
                if tex.kind == TextureKind::Cube {
                    // Derivatives of the face coordinates: approximate with the
                    // direction's derivatives divided by the major axis.
                    let (_, _) = texture::cube_face([c[0], c[1], c[2]]);
                    let ma = c[0].abs().max(c[1].abs()).max(c[2].abs()).max(1e-30);
                    let s = 0.5 / ma;
                    Lod::Grad(
                        [gx[0][l] * s, gx[1][l] * s, gx[2][l] * s],
                        [gy[0][l] * s, gy[1][l] * s, gy[2][l] * s],
                        bias[l],
                    )
                } else {
                    Lod::Grad(
                        [gx[0][l], gx[1][l], gx[2][l]],
                        [gy[0][l], gy[1][l], gy[2][l]],
                        bias[l],
                    )
                }
            }
            LodMode::Grad(..) => Lod::Grad(
                [gx[0][l], gx[1][l], gx[2][l]],
                [gy[0][l], gy[1][l], gy[2][l]],
                0.0,
            ),
            LodMode::Level(lv) => Lod::Level(lv[l]),
        };
        let n = if tex.kind == TextureKind::Tex2D { 2 } else { 3 };
        let level_ok = !matches!(lodv, Lod::Level(x) if !x.is_finite());
        if cur & (1 << l) != 0 && (c[..n].iter().any(|x| !x.is_finite()) || !level_ok) {
            *nonfinite += 1;
        }
        let v = texture::sample(tex, &stage.state, c, lodv);
        for ch in 0..4 {
            out[ch][l] = v[ch];
        }
    }
    out
}

#[derive(Clone, Copy)]
pub(super) enum LodMode<'a> {
    Implicit([f32; LANES]),
    Grad(&'a Q, &'a Q),
    Level([f32; LANES]),
}

/// ps_1_1–1_3 projective divide by the component the stage's projection names
/// ([`crate::Draw::projection`]: the rule, from the texture-transform flags, the
/// vertex shader and the bound texture).
pub(super) fn project_1x(q: &mut Q, stage: Option<&Stage>) {
    let Some(s) = stage else { return };
    let count = s.projection as usize;
    if !(2..=4).contains(&count) {
        return;
    }
    let d = count - 1;
    for l in 0..LANES {
        let w = q[d][l];
        for c in 0..3 {
            q[c][l] /= w;
        }
    }
}
