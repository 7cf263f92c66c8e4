//! Primitive assembly and the non-triangle rasterization of a draw: triangle lists,
//! strips and fans, line lists and strips, point lists; homogeneous clipping of each
//! primitive (clip.rs); the fill modes (`D3DFILL_SOLID` rasterizes triangles,
//! `WIREFRAME` draws their edges as lines, `POINT` their vertices as points, after
//! culling in every mode); and D3D9 line rasterization.
//!
//! Lines (one pixel wide, not antialiased) follow the rule D3D9 documents as "the
//! same as GDI lines", which the D3D10 specification formalises as the diamond-exit
//! rule: along the major axis, a pixel is drawn when the segment leaves its diamond
//! `|x − cx| + |y − cy| < ½`, so the pixel holding the first end point is drawn and
//! the one holding the last is not; the minor coordinate at the pixel's centre line
//! picks the row (or column), a tie exactly halfway going to the smaller coordinate.
//! With `D3DRS_LASTPIXEL` (on by default) the pixel holding the last end point is
//! drawn too. Attributes are interpolated perspective-correctly along the major axis.
//!
//! Culling is decided in screen space after the viewport transform, where D3D9 decides
//! it: a projection that mirrors the image (negative x or y scale in clip space) turns
//! clockwise into counter-clockwise exactly as on the device. (D3D9 viewports have
//! unsigned sizes, so the viewport itself cannot flip.)

use rayon::prelude::*;

use super::clip::Volume;
use super::fetch::{SVert, NVARY};
use super::merge::{Frag, PrimInfo};
use super::setup::{varyings, TriSetup};
use super::shade::{shade_quad, PixelCtx};
use super::{RenderError, Renderer, Stats};
use crate::draw::{Cull, Draw, FillMode, Primitive};
use crate::exec::{Lanes, LANES};

impl Renderer {
    /// Assembles, clips and rasterizes the primitives of a draw from its shaded
    /// vertices.
    pub(crate) fn assemble(
        &mut self,
        d: &Draw,
        verts: &[SVert],
        ctx: &PixelCtx,
    ) -> Result<(), RenderError> {
        let n = verts.len();
        let vol = Volume::new(&d.render_states, d.viewport);
        match d.primitive {
            Primitive::PointList => {
                for v in verts {
                    self.point(v, &v.v, &vol, d, ctx)?;
                }
                return Ok(());
            }
            Primitive::LineList => {
                for i in 0..n / 2 {
                    self.line(&verts[2 * i], &verts[2 * i + 1], None, &vol, d, ctx)?;
                }
                return Ok(());
            }
            Primitive::LineStrip => {
                for i in 0..n.saturating_sub(1) {
                    self.line(&verts[i], &verts[i + 1], None, &vol, d, ctx)?;
                }
                return Ok(());
            }
            _ => {}
        }
        let mut tris: Vec<[usize; 3]> = Vec::new();
        match d.primitive {
            Primitive::TriangleList => {
                for i in 0..n / 3 {
                    tris.push([3 * i, 3 * i + 1, 3 * i + 2]);
                }
            }
            Primitive::TriangleStrip => {
                for i in 0..n.saturating_sub(2) {
                    if i % 2 == 0 {
                        tris.push([i, i + 1, i + 2]);
                    } else {
                        tris.push([i, i + 2, i + 1]);
                    }
                }
            }
            _ => {
                for i in 1..n.saturating_sub(1) {
                    tris.push([i, i + 1, 0]);
                }
            }
        }
        // Provoking vertex: the first of the primitive as listed.
        let provoke = match d.primitive {
            Primitive::TriangleFan => 1,
            _ => 0,
        };
        let (mut poly, mut scratch) = (Vec::with_capacity(12), Vec::with_capacity(12));
        for t in tris {
            let tv = [verts[t[0]], verts[t[1]], verts[t[2]]];
            let flat_v = tv[provoke].v;
            vol.triangle(&tv, &mut poly, &mut scratch);
            if poly.len() < 3 {
                continue;
            }
            if d.render_states.fill == FillMode::Solid {
                for k in 1..poly.len() - 1 {
                    self.triangle([poly[0], poly[k], poly[k + 1]], &flat_v, d, ctx, false)?;
                }
                continue;
            }
            // Point and wireframe fill: cull on the clipped polygon's winding, then
            // draw the original vertices or edges.
            let area: f64 = (0..poly.len())
                .map(|k| {
                    let (a, b) = (&poly[k], &poly[(k + 1) % poly.len()]);
                    a.x * b.y - b.x * a.y
                })
                .sum();
            let cw = area > 0.0;
            if area == 0.0 || !area.is_finite() {
                continue;
            }
            match d.render_states.cull {
                Cull::Ccw if !cw => continue,
                Cull::Cw if cw => continue,
                _ => {}
            }
            if d.render_states.fill == FillMode::Point {
                for v in &tv {
                    self.point(v, &flat_v, &vol, d, ctx)?;
                }
            } else {
                for k in 0..3 {
                    self.line(&tv[k], &tv[(k + 1) % 3], Some(&flat_v), &vol, d, ctx)?;
                }
            }
        }
        Ok(())
    }

    /// A point (sprite): a screen-aligned square of the point size around the vertex,
    /// rasterized as two triangles; clipped whole when its centre is outside the clip
    /// volume.
    fn point(
        &mut self,
        v: &SVert,
        flat_v: &[[f32; 4]; NVARY],
        vol: &Volume,
        d: &Draw,
        ctx: &PixelCtx,
    ) -> Result<(), RenderError> {
        if !vol.contains(v) || !v.x.is_finite() || !v.y.is_finite() {
            return Ok(());
        }
        let rs = &d.render_states;
        let size = (if v.psize > 0.0 {
            v.psize
        } else {
            rs.point_size
        })
        .clamp(rs.point_size_min, rs.point_size_max)
        .max(1.0) as f64;
        let h = size / 2.0;
        let mut corners = [*v; 4];
        let offs = [
            (-h, -h, 0.0, 0.0),
            (h, -h, 1.0, 0.0),
            (-h, h, 0.0, 1.0),
            (h, h, 1.0, 1.0),
        ];
        let texc = d3dbc::token::DeclUsage::TexCoord as u8;
        for (c, (dx, dy, u, w)) in corners.iter_mut().zip(offs) {
            c.x += dx;
            c.y += dy;
            if rs.point_sprite {
                for (k, l) in ctx.links.iter().enumerate() {
                    if l.usage == texc {
                        c.v[k] = [u as f32, w as f32, 0.0, 1.0];
                    }
                }
            }
        }
        self.triangle([corners[0], corners[1], corners[2]], flat_v, d, ctx, true)?;
        self.triangle([corners[1], corners[3], corners[2]], flat_v, d, ctx, true)
    }

    /// A line from `a` to `b`, clipped, rasterized by the diamond-exit rule and
    /// shaded; `flat` overrides the provoking vertex (`a`) for flat shading.
    fn line(
        &mut self,
        a: &SVert,
        b: &SVert,
        flat: Option<&[[f32; 4]; NVARY]>,
        vol: &Volume,
        d: &Draw,
        ctx: &PixelCtx,
    ) -> Result<(), RenderError> {
        let flat_v = *flat.unwrap_or(&a.v);
        let Some((a, b)) = vol.line(a, b) else {
            return Ok(());
        };
        let rs = &d.render_states;
        let vp = d.viewport;
        let t0 = &self.fb.targets[0];
        let x_max = (vp.x as i64 + vp.width as i64).min(t0.width as i64) - 1;
        let y_max = (vp.y as i64 + vp.height as i64).min(t0.height as i64) - 1;
        let (x_min, y_min) = (vp.x as i64, vp.y as i64);
        let mut pixels: Vec<(i64, i64)> = Vec::new();
        let Some(major_x) = line_pixels(
            (a.x, a.y),
            (b.x, b.y),
            rs.last_pixel,
            [x_min, y_min, x_max, y_max],
            |x, y| {
                if x >= x_min && x <= x_max && y >= y_min && y <= y_max {
                    pixels.push((x, y));
                }
            },
        ) else {
            return Ok(());
        };
        if pixels.is_empty() {
            return Ok(());
        }
        let v = [a, b, b];
        let (pre, clip, nclip) = varyings(&v, ctx.links);
        let tri = TriSetup {
            v,
            pre,
            clip,
            nclip,
            eq: [(0.0, 0.0, 0.0); 3],
            cover: Default::default(),
            area: 1.0,
            face: 1.0,
            flat_v,
            bx0: x_min,
            bx1: x_max,
            by0: y_min,
            by1: y_max,
        };
        // Screen-space parameter along the major axis of pixel (x, y).
        let s_at = |x: i64, y: i64| -> f64 {
            if major_x {
                (x as f64 - a.x) / (b.x - a.x)
            } else {
                (y as f64 - a.y) / (b.y - a.y)
            }
        };
        // Group the pixels by 2×2 quad.
        let mut quads: Vec<(i64, i64, u8)> = pixels
            .iter()
            .map(|&(x, y)| (y & !1, x & !1, 1u8 << (((y & 1) << 1) | (x & 1))))
            .collect();
        quads.sort_unstable_by_key(|q| (q.0, q.1));
        let mut merged: Vec<(i64, i64, u8)> = Vec::new();
        for q in quads {
            match merged.last_mut() {
                Some(m) if m.0 == q.0 && m.1 == q.1 => m.2 |= q.2,
                _ => merged.push(q),
            }
        }
        let results: Vec<(Vec<Frag>, Stats)> = merged
            .par_iter()
            .map_init(Lanes::default, |lanes, &(qy, qx, mut cover)| {
                lanes.reset();
                let mut bary = [[0.0f64; 3]; 4];
                for (l, bl) in bary.iter_mut().enumerate().take(LANES) {
                    let s = s_at(qx + (l & 1) as i64, qy + (l >> 1) as i64);
                    *bl = [1.0 - s, s, 0.0];
                    for p in &tri.clip[..tri.nclip] {
                        if bl[0] * p[0] + bl[1] * p[1] < 0.0 {
                            cover &= !(1 << l);
                        }
                    }
                }
                let mut out = Vec::new();
                let mut stats = Stats::default();
                if cover != 0 {
                    shade_quad(&tri, qx, qy, cover, &bary, ctx, lanes, &mut out, &mut stats)?;
                }
                Ok((out, stats))
            })
            .collect::<Result<_, RenderError>>()?;
        let prim = PrimInfo::flat(rs);
        for (fs, st) in results {
            self.stats.ps_lanes += st.ps_lanes;
            self.stats.ps_lane_instructions += st.ps_lane_instructions;
            for f in fs {
                self.fb.output(&f, d, ctx.ps, &prim);
            }
        }
        Ok(())
    }
}

/// The pixels of the line from `a` to `b` (screen coordinates, pixel centres on
/// integers) by the diamond-exit rule, plus the last pixel when `last_pixel`; calls
/// `emit(x, y)` for each, in order from `a`, skipping those whose major coordinate is
/// outside `bounds` (`[x_min, y_min, x_max, y_max]`, inclusive). Returns whether the line is x-major, or
/// `None` for a zero-length or non-finite line (nothing drawn).
pub(crate) fn line_pixels(
    a: (f64, f64),
    b: (f64, f64),
    last_pixel: bool,
    bounds: [i64; 4],
    mut emit: impl FnMut(i64, i64),
) -> Option<bool> {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    if !(dx.is_finite() && dy.is_finite()) || (dx == 0.0 && dy == 0.0) {
        return None;
    }
    let major_x = dx.abs() >= dy.abs();
    // Work in (major, minor) coordinates.
    let (a0, a1, b0, b1) = if major_x {
        (a.0, a.1, b.0, b.1)
    } else {
        (a.1, a.0, b.1, b.0)
    };
    let (d0, d1) = (b0 - a0, b1 - a1);
    let put = |m: i64, n: i64, emit: &mut dyn FnMut(i64, i64)| {
        if major_x {
            emit(m, n)
        } else {
            emit(n, m)
        }
    };
    // Minor pixel of the line at major coordinate m (ties to the smaller).
    let minor = |m: f64| -> i64 { (a1 + (m - a0) / d0 * d1 - 0.5).ceil() as i64 };
    // Bound the walk to the major range of `bounds`.
    let (lo, hi) = if major_x {
        (bounds[0], bounds[2])
    } else {
        (bounds[1], bounds[3])
    };
    let clamp = |x: f64| x.clamp(lo as f64 - 1.0, hi as f64 + 1.0) as i64;
    let mut last = None;
    if d0 > 0.0 {
        // Columns m with a0 − ½ < m ≤ b0 − ½ (the line exits at m + ½).
        let first = clamp((a0 - 0.5).floor() + 1.0).max(lo);
        let end = clamp((b0 - 0.5).floor()).min(hi);
        for m in first..=end {
            let n = minor(m as f64);
            put(m, n, &mut emit);
            last = Some((m, n));
        }
    } else {
        // Columns m with b0 + ½ ≤ m < a0 + ½ (the line exits at m − ½).
        let first = clamp((a0 + 0.5).ceil() - 1.0).min(hi);
        let end = clamp((b0 + 0.5).ceil()).max(lo);
        let mut m = first;
        while m >= end {
            let n = minor(m as f64);
            put(m, n, &mut emit);
            last = Some((m, n));
            m -= 1;
        }
    }
    if last_pixel {
        // The pixel whose column holds the end point, if the walk stopped short of it.
        let m = clamp(if d0 > 0.0 {
            (b0 - 0.5).ceil()
        } else {
            (b0 + 0.5).floor()
        });
        let n = minor(m as f64);
        if last != Some((m, n)) && (lo..=hi).contains(&m) {
            put(m, n, &mut emit);
        }
    }
    Some(major_x)
}

#[cfg(test)]
mod tests {
    use super::line_pixels;

    fn px(a: (f64, f64), b: (f64, f64), last: bool) -> Vec<(i64, i64)> {
        let mut v = Vec::new();
        line_pixels(a, b, last, [-100, -100, 100, 100], |x, y| v.push((x, y)));
        v
    }

    #[test]
    fn horizontal_line_from_centre_to_centre_excludes_the_end_pixel() {
        assert_eq!(
            px((0.0, 1.0), (4.0, 1.0), false),
            vec![(0, 1), (1, 1), (2, 1), (3, 1)]
        );
        // Right to left: the first pixel is the start's, the end's is left out.
        assert_eq!(
            px((4.0, 1.0), (0.0, 1.0), false),
            vec![(4, 1), (3, 1), (2, 1), (1, 1)]
        );
        // LASTPIXEL adds it.
        assert_eq!(px((0.0, 1.0), (4.0, 1.0), true).last(), Some(&(4, 1)));
    }

    #[test]
    fn diagonal_and_steep_lines() {
        // 45°: x-major (|dx| == |dy|), one pixel per column on the diagonal.
        assert_eq!(
            px((0.0, 0.0), (3.0, 3.0), false),
            vec![(0, 0), (1, 1), (2, 2)]
        );
        // Steep: one pixel per row; x = 0.25·y rounds to 0, 0, 1 (0.5 ties down).
        assert_eq!(
            px((0.0, 0.0), (1.0, 4.0), false),
            vec![(0, 0), (0, 1), (0, 2), (1, 3)]
        );
    }

    #[test]
    fn half_pixel_offsets_and_degenerate_lines() {
        // From x = 0.5 (between pixels 0 and 1) to 3.5: pixels 1, 2, 3.
        assert_eq!(
            px((0.5, 0.0), (3.5, 0.0), false),
            vec![(1, 0), (2, 0), (3, 0)]
        );
        assert!(px((1.0, 1.0), (1.0, 1.0), true).is_empty());
        assert!(px((0.0, 0.0), (f64::INFINITY, 0.0), true).is_empty());
    }
}
