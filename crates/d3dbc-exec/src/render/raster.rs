//! Triangle rasterization: culling, coverage of the snapped triangle ([`super::setup`]),
//! its bounding box in the viewport and target, the quad rows shaded in parallel
//! ([`super::shade`]), then each shaded pixel into the output merger.
// Lane and component loops index several structure-of-arrays values at once.
#![allow(clippy::needless_range_loop)]

use rayon::prelude::*;

use super::fetch::{SVert, NVARY};
use super::merge::{Frag, PrimInfo};
use super::setup::{snap, varyings, Edge, TriSetup, SUBPIXEL};
use super::shade::{shade_row, PixelCtx};
use super::{RenderError, Renderer, Stats};
use crate::draw::*;
use crate::exec::Lanes;

impl Renderer {
    /// Rasterizes and shades one triangle (already clipped); `flat_v` holds the
    /// provoking vertex's varyings for flat shading.
    pub(crate) fn triangle(
        &mut self,
        mut v: [SVert; 3],
        flat_v: &[[f32; 4]; NVARY],
        d: &Draw,
        ctx: &PixelCtx,
        no_cull: bool,
    ) -> Result<(), RenderError> {
        let rs = &d.render_states;
        let area = (v[1].x - v[0].x) * (v[2].y - v[0].y) - (v[2].x - v[0].x) * (v[1].y - v[0].y);
        if area == 0.0 || !area.is_finite() {
            return Ok(());
        }
        let cw = area > 0.0;
        if !no_cull {
            match rs.cull {
                Cull::Ccw if !cw => return Ok(()),
                Cull::Cw if cw => return Ok(()),
                _ => {}
            }
        }
        let flat_v = *flat_v;
        if !cw {
            v.swap(1, 2);
        }
        let area = area.abs();
        let face = if cw { 1.0f32 } else { -1.0 };
        // Coverage: snapped positions (SUBPIXEL); a triangle that snapping makes
        // degenerate, or turns over, covers nothing.
        let snapped = v.map(|p| (snap(p.x), snap(p.y)));
        let [(s0x, s0y), (s1x, s1y), (s2x, s2y)] = snapped;
        if (s1x - s0x) * (s2y - s0y) - (s2x - s0x) * (s1y - s0y) <= 0.0 {
            return Ok(());
        }
        // Bounding box in pixels (centres at integers), clipped to viewport and target.
        let vp = d.viewport;
        let t0 = &self.fb.targets[0];
        let x_min = vp.x as i64;
        let y_min = vp.y as i64;
        let x_max = (vp.x as i64 + vp.width as i64).min(t0.width as i64) - 1;
        let y_max = (vp.y as i64 + vp.height as i64).min(t0.height as i64) - 1;
        let lo = |c: fn(&(f64, f64)) -> f64| {
            (snapped.iter().map(c).fold(f64::INFINITY, f64::min) / SUBPIXEL).ceil() as i64
        };
        let hi = |c: fn(&(f64, f64)) -> f64| {
            (snapped.iter().map(c).fold(f64::NEG_INFINITY, f64::max) / SUBPIXEL).floor() as i64
        };
        let bx0 = lo(|p| p.0).max(x_min);
        let by0 = lo(|p| p.1).max(y_min);
        let bx1 = hi(|p| p.0).min(x_max);
        let by1 = hi(|p| p.1).min(y_max);
        if bx0 > bx1 || by0 > by1 {
            return Ok(());
        }
        // Edges (a → b): plane equations of the exact positions for interpolation, and
        // the snapped edge with the top-left rule for coverage.
        let edges = [(1usize, 2usize), (2, 0), (0, 1)];
        let mut eq = [(0.0f64, 0.0f64, 0.0f64); 3];
        let mut cover = [Edge::default(); 3];
        for (k, (a, b)) in edges.iter().enumerate() {
            let (ax, ay, bx, by) = (v[*a].x, v[*a].y, v[*b].x, v[*b].y);
            // E(p) = (bx-ax)*(py-ay) - (by-ay)*(px-ax), positive inside for CW (y down).
            let a_ = -(by - ay);
            let b_ = bx - ax;
            let c_ = -(a_ * ax + b_ * ay);
            eq[k] = (a_, b_, c_);
            cover[k] = Edge::new(snapped[*a], snapped[*b]);
        }
        let qx0 = bx0 & !1;
        let qy0 = by0 & !1;
        let regions: Vec<[i64; 4]> = match &self.regions {
            Some(r) => r
                .iter()
                .map(|r| {
                    [
                        (r[0] as i64) & !1,
                        (r[1] as i64) & !1,
                        r[2] as i64,
                        r[3] as i64,
                    ]
                })
                .collect(),
            None => vec![[qx0, qy0, bx1 + 1, by1 + 1]],
        };
        let rows: Vec<(i64, i64, i64)> = (qy0..=by1)
            .step_by(2)
            .flat_map(|y| {
                regions
                    .iter()
                    .filter(move |r| y + 1 >= r[1] && y < r[3])
                    .map(move |r| (y, r[0].max(qx0), r[2].min(bx1 + 1)))
            })
            .collect();
        let (pre, clip, nclip) = varyings(&v, ctx.links);
        let tri = TriSetup {
            v,
            pre,
            clip,
            nclip,
            eq,
            cover,
            area,
            face,
            flat_v,
            bx0,
            bx1,
            by0,
            by1,
        };
        let frags: Vec<(Vec<Frag>, Stats)> = rows
            .par_iter()
            .map_init(Lanes::default, |lanes, &(qy, x0, x1)| {
                shade_row(&tri, qy, x0, x1, ctx, lanes)
            })
            .collect::<Result<Vec<_>, RenderError>>()?;
        let prim = PrimInfo::triangle(&tri.v, cw, rs);
        for (fs, st) in frags {
            self.stats.ps_lanes += st.ps_lanes;
            self.stats.ps_lane_instructions += st.ps_lane_instructions;
            self.stats.nonfinite_lookups += st.nonfinite_lookups;
            for f in fs {
                self.fb.output(&f, d, ctx.ps, &prim);
            }
        }
        Ok(())
    }
}
