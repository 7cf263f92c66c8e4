//! Homogeneous clipping of shaded primitives, as Direct3D 9 does it before the viewport
//! transform: triangles (Sutherland–Hodgman on the polygon) and lines (parametric) are
//! cut against the planes of the clip volume in clip space, and every new vertex gets
//! its attributes by linear interpolation in clip space, which is what makes the
//! perspective-correct interpolation over the clipped pieces equal that over the
//! original primitive.
//!
//! The planes:
//! - `w ≥ ε` always (a vertex behind the eye has no screen position);
//! - with `D3DRS_CLIPPING` on (the default), the depth planes `0 ≤ z ≤ w` (D3D9 has no
//!   depth clamp; with clipping off the depth is clamped at the depth test instead);
//! - a guard band for x and y (`|x|, |y| ≤ g·w` with `g` about 2^20 pixels over the
//!   viewport size), so that x/y need no clipping at the viewport: the rasterizer only
//!   visits pixels of the viewport. The guard band only keeps screen coordinates
//!   finite and precise; it never changes which pixels are covered.
//!
//! User clip planes (`D3DRS_CLIPPLANEENABLE`) are not clipped here: the rasterizer
//! tests the perspective-correct interpolated distance per pixel (render.rs), which
//! gives the same coverage as polygon clipping without generating vertices.
//!
//! A primitive entirely inside every plane comes back unchanged (same vertices, same
//! bits): clipping never perturbs what it does not cut.

use super::fetch::SVert;
use crate::draw::{RenderStates, Viewport};

/// Smallest clip-space w kept.
const W_EPSILON: f64 = 1e-20;

/// The clip volume of one draw: planes as `(a, b, c, d)` with inside `a·x + b·y + c·z +
/// d·w ≥ 0`, plus the constant `e` subtracted (for `w ≥ ε`).
#[derive(Clone, Debug)]
pub(crate) struct Volume {
    planes: Vec<([f64; 4], f64)>,
    vp: Viewport,
}

impl Volume {
    /// The planes for a draw's render states and viewport.
    pub(crate) fn new(rs: &RenderStates, vp: Viewport) -> Volume {
        let mut planes = vec![([0.0, 0.0, 0.0, 1.0], W_EPSILON)];
        if rs.clipping {
            planes.push(([0.0, 0.0, 1.0, 0.0], 0.0));
            planes.push(([0.0, 0.0, -1.0, 1.0], 0.0));
        }
        let size = vp.width.max(vp.height).max(1) as f64;
        let g = ((1u64 << 20) as f64 / size).max(2.0);
        for p in [
            [1.0, 0.0, 0.0, g],
            [-1.0, 0.0, 0.0, g],
            [0.0, 1.0, 0.0, g],
            [0.0, -1.0, 0.0, g],
        ] {
            planes.push((p, 0.0));
        }
        Volume { planes, vp }
    }

    fn dist(&self, i: usize, v: &SVert) -> f64 {
        let (p, e) = &self.planes[i];
        p[0] * v.pos[0] + p[1] * v.pos[1] + p[2] * v.pos[2] + p[3] * v.pos[3] - e
    }

    /// True when the vertex is inside every plane (NaN positions are not).
    pub(crate) fn contains(&self, v: &SVert) -> bool {
        (0..self.planes.len()).all(|i| self.dist(i, v) >= 0.0)
    }

    /// Clips triangle `tri` into `out` (a convex polygon, empty when nothing is left;
    /// fewer than 3 vertices is nothing). `scratch` is working space.
    pub(crate) fn triangle(
        &self,
        tri: &[SVert; 3],
        out: &mut Vec<SVert>,
        scratch: &mut Vec<SVert>,
    ) {
        out.clear();
        if tri.iter().any(|v| v.pos.iter().any(|c| !c.is_finite())) {
            return;
        }
        out.extend_from_slice(tri);
        if tri.iter().all(|v| self.contains(v)) {
            return;
        }
        for i in 0..self.planes.len() {
            if out.iter().all(|v| self.dist(i, v) >= 0.0) {
                continue;
            }
            std::mem::swap(out, scratch);
            out.clear();
            let n = scratch.len();
            for k in 0..n {
                let a = &scratch[k];
                let b = &scratch[(k + 1) % n];
                let (da, db) = (self.dist(i, a), self.dist(i, b));
                if da >= 0.0 {
                    out.push(*a);
                }
                if (da >= 0.0) != (db >= 0.0) {
                    // Interpolate from the inside vertex so that an edge shared by two
                    // triangles gives the same new vertex in both.
                    let v = if da >= 0.0 {
                        self.lerp(a, b, da / (da - db))
                    } else {
                        self.lerp(b, a, db / (db - da))
                    };
                    out.push(v);
                }
            }
            if out.len() < 3 {
                out.clear();
                return;
            }
        }
    }

    /// Clips the segment `a`–`b`; `None` when nothing is left.
    pub(crate) fn line(&self, a: &SVert, b: &SVert) -> Option<(SVert, SVert)> {
        if [a, b].iter().any(|v| v.pos.iter().any(|c| !c.is_finite())) {
            return None;
        }
        if self.contains(a) && self.contains(b) {
            return Some((*a, *b));
        }
        let (mut t0, mut t1) = (0.0f64, 1.0f64);
        for i in 0..self.planes.len() {
            let (da, db) = (self.dist(i, a), self.dist(i, b));
            if da < 0.0 && db < 0.0 {
                return None;
            }
            if da < 0.0 {
                t0 = t0.max(da / (da - db));
            } else if db < 0.0 {
                t1 = t1.min(da / (da - db));
            }
        }
        if t0 > t1 {
            return None;
        }
        let na = if t0 > 0.0 { self.lerp(a, b, t0) } else { *a };
        let nb = if t1 < 1.0 { self.lerp(a, b, t1) } else { *b };
        Some((na, nb))
    }

    /// The vertex at `a + t·(b − a)`: every attribute interpolated in clip space, the
    /// screen position recomputed.
    fn lerp(&self, a: &SVert, b: &SVert, t: f64) -> SVert {
        let l = |x: f64, y: f64| x + (y - x) * t;
        let lf = |x: f32, y: f32| (x as f64 + (y as f64 - x as f64) * t) as f32;
        let mut o = *a;
        for c in 0..4 {
            o.pos[c] = l(a.pos[c], b.pos[c]);
        }
        for (k, ov) in o.v.iter_mut().enumerate() {
            *ov = [0, 1, 2, 3].map(|c| lf(a.v[k][c], b.v[k][c]));
        }
        for (i, oc) in o.clip.iter_mut().enumerate() {
            *oc = l(a.clip[i], b.clip[i]);
        }
        o.fog = lf(a.fog, b.fog);
        o.psize = lf(a.psize, b.psize);
        o.set_screen(self.vp);
        o
    }
}
