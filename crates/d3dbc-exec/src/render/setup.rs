//! Triangle setup, below shading and rasterization: the sub-pixel grid positions snap to
//! ([`SUBPIXEL`]), snapped edges with the top-left rule ([`Edge`]), and what the pixel
//! shading of one triangle reads ([`TriSetup`]: perspective-correct varying numerators
//! from [`varyings`], user clip-plane distances, barycentric plane equations).

use super::fetch::{Link, SVert, NCLIP, NVARY};

/// Sub-pixel precision of the coverage test, in steps per pixel: vertex positions are
/// snapped to 1/256 pixel (to nearest, ties to even), as fixed-point hardware
/// rasterizers do (8 bits on D3D10-class hardware, lavapipe and most Vulkan drivers).
/// Edge functions of snapped positions are exact (integers held in f64, exact below
/// 2^53), so a pixel centre exactly on an edge or a vertex (an edge two triangles share,
/// or one that clipping made) is decided by the top-left rule alone, never by rounding.
/// Interpolation keeps the exact positions.
pub const SUBPIXEL: f64 = 256.0;

/// `c` (pixels) snapped to the [`SUBPIXEL`] grid, in grid steps.
#[inline]
pub(crate) fn snap(c: f64) -> f64 {
    (c * SUBPIXEL).round_ties_even()
}

/// One snapped edge `a → b` of a clockwise (y down) triangle, in [`SUBPIXEL`] steps.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Edge {
    ax: f64,
    ay: f64,
    dx: f64,
    dy: f64,
    /// Top edge (horizontal, interior below) or left edge (interior to the right):
    /// pixel centres exactly on it are covered.
    top_left: bool,
}

impl Edge {
    pub(crate) fn new((ax, ay): (f64, f64), (bx, by): (f64, f64)) -> Edge {
        Edge {
            ax,
            ay,
            dx: bx - ax,
            dy: by - ay,
            top_left: (ay == by && bx > ax) || by < ay,
        }
    }

    /// Whether the pixel centre `(px, py)` (pixels) is inside the edge:
    /// `E = dx·(py − ay) − dy·(px − ax)` positive, or 0 on a top or left edge.
    #[inline]
    pub(crate) fn covers(&self, px: f64, py: f64) -> bool {
        let e = self.dx * (py * SUBPIXEL - self.ay) - self.dy * (px * SUBPIXEL - self.ax);
        e > 0.0 || (e == 0.0 && self.top_left)
    }
}

pub(crate) struct TriSetup {
    pub(crate) v: [SVert; 3],
    pub(crate) pre: [[Option<[f64; 3]>; 4]; NVARY],
    /// Enabled user clip planes' distance numerators per vertex (first `nclip`).
    pub(crate) clip: [[f64; 3]; NCLIP],
    pub(crate) nclip: usize,
    /// Plane equations `a·x + b·y + c` of the edges (exact positions): barycentrics.
    pub(crate) eq: [(f64, f64, f64); 3],
    /// The snapped edges: coverage.
    pub(crate) cover: [Edge; 3],
    pub(crate) area: f64,
    pub(crate) face: f32,
    pub(crate) flat_v: [[f32; 4]; NVARY],
    pub(crate) bx0: i64,
    pub(crate) bx1: i64,
    pub(crate) by0: i64,
    pub(crate) by1: i64,
}

/// Perspective-correct numerators of a triangle's varyings (per component, `None`
/// when the three vertices agree: the value is then exact).
pub(crate) type Pre = [[Option<[f64; 3]>; 4]; NVARY];

/// Per-triangle setup of the varyings: the perspective-correct numerators, and the
/// enabled user clip planes' distance numerators (the first `nclip` rows).
pub(crate) fn varyings(v: &[SVert; 3], links: &[Link]) -> (Pre, [[f64; 3]; NCLIP], usize) {
    let mut pre = [[None; 4]; NVARY];
    for (k, pk) in pre.iter_mut().enumerate().take(links.len()) {
        for (c, pc) in pk.iter_mut().enumerate() {
            let (a0, a1, a2) = (v[0].v[k][c], v[1].v[k][c], v[2].v[k][c]);
            if !(a0 == a1 && a1 == a2) {
                *pc = Some([
                    a0 as f64 * v[0].rhw,
                    a1 as f64 * v[1].rhw,
                    a2 as f64 * v[2].rhw,
                ]);
            }
        }
    }
    // User clip planes: the distance is linear in clip space, so its
    // perspective-correct interpolation is exact; a pixel is clipped where the
    // interpolated distance is < 0 (its sign is that of the numerator, w > 0).
    let mut clip = [[0.0f64; 3]; NCLIP];
    let mut nclip = 0;
    for i in 0..NCLIP {
        if v.iter().any(|p| p.clip[i] != 0.0) {
            clip[nclip] = [0, 1, 2].map(|j| v[j].clip[i] * v[j].rhw);
            nclip += 1;
        }
    }
    (pre, clip, nclip)
}
