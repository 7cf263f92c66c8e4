//! The output merger: what happens to a shaded pixel on its way into the render targets,
//! in D3D9's order — alpha test, stencil test, depth test (with depth bias), stencil
//! operations, depth write, blending (blend factor, separate alpha, every blend op),
//! sRGB write, the colour write masks and quantisation to the target formats.
//!
//! Choices D3D9 leaves to the hardware, as made here:
//! - blending into UNORM targets clamps the source colour and the factors to [0, 1]
//!   first (fixed-point blenders; float targets blend unclamped);
//! - with `SRGBWRITEENABLE`, the destination is read back as linear, blending happens
//!   in linear space and the result is encoded to sRGB (D3D10-class hardware; some
//!   D3D9-era parts blended in gamma space);
//! - depth bias (`DEPTHBIAS + SLOPESCALEDEPTHBIAS · max(|∂z/∂x|, |∂z/∂y|)`) moves the
//!   interpolated depth only: a pixel shader writing `oDepth` overrides it (as D3D10
//!   defines); the result is clamped to [0, 1] like every depth;
//! - the alpha test compares at the target's precision: unclamped floats for float
//!   targets, 8 bits (saturated, rounded) otherwise (`alpha_test_passes`).

use super::fetch::SVert;
use crate::draw::{Blend, BlendOp, DepthFormat, Draw, Format, RenderStates, StencilOp};
use crate::exec::Program;
use crate::format::{d3dcolor, exec_sat, linear_to_srgb, quantize, srgb_to_linear};

/// A render target's contents as RGBA floats (already quantised to its format).
#[derive(Clone, Debug, PartialEq)]
pub struct Image {
    /// Width.
    pub width: u32,
    /// Height.
    pub height: u32,
    /// The target's format: the CPU quantises the values to it; the GPU runner reads
    /// back what the device stored (8 bits per channel for the non-float formats).
    pub format: Format,
    /// Pixels, row-major.
    pub pixels: Vec<[f32; 4]>,
}

impl Image {
    /// Pixel (x, y), or zeros outside.
    pub fn get(&self, x: u32, y: u32) -> [f32; 4] {
        if x >= self.width || y >= self.height {
            return [0.0; 4];
        }
        self.pixels[(y * self.width + x) as usize]
    }

    /// The pixels as 8-bit RGBA in row order (each channel clamped to [0, 1] and
    /// rounded), what a PNG file or a browser canvas takes.
    pub fn to_rgba8(&self) -> Vec<u8> {
        let q = |x: f32| (x.clamp(0.0, 1.0) * 255.0).round() as u8;
        self.pixels
            .iter()
            .flat_map(|p| [q(p[0]), q(p[1]), q(p[2]), q(p[3])])
            .collect()
    }
}

/// What the output merger writes into: the colour targets and the depth/stencil buffer.
#[derive(Clone, Debug)]
pub struct Framebuffer {
    /// Colour targets.
    pub targets: Vec<Image>,
    /// Depth buffer.
    pub depth: Option<Vec<f32>>,
    /// Stencil buffer (8 bits, beside the depth buffer, when its format has one).
    pub stencil: Option<Vec<u8>>,
    /// The depth buffer's format (depths are quantised to it).
    pub depth_format: DepthFormat,
}

/// A shaded pixel on its way into the targets: position, the colours of up to four
/// targets and its depth.
pub(crate) struct Frag {
    pub(crate) x: u32,
    pub(crate) y: u32,
    pub(crate) color: [[f32; 4]; 4],
    pub(crate) depth: f32,
}

/// What the merger needs to know about the primitive a pixel came from.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct PrimInfo {
    /// Counter-clockwise triangle (uses the `CCW_STENCIL*` states in two-sided mode).
    pub(crate) ccw: bool,
    /// Depth bias added to interpolated depths.
    pub(crate) bias: f32,
}

impl PrimInfo {
    /// A triangle's info: its winding and depth bias from its screen-space depth slope.
    pub(crate) fn triangle(v: &[SVert; 3], cw: bool, rs: &RenderStates) -> PrimInfo {
        let mut bias = rs.depth_bias;
        if rs.slope_scale_depth_bias != 0.0 {
            let (x1, y1, z1) = (v[1].x - v[0].x, v[1].y - v[0].y, v[1].z - v[0].z);
            let (x2, y2, z2) = (v[2].x - v[0].x, v[2].y - v[0].y, v[2].z - v[0].z);
            let det = x1 * y2 - x2 * y1;
            if det != 0.0 && det.is_finite() {
                let dzdx = (z1 * y2 - z2 * y1) / det;
                let dzdy = (x1 * z2 - x2 * z1) / det;
                let m = dzdx.abs().max(dzdy.abs());
                bias += (rs.slope_scale_depth_bias as f64 * m) as f32;
            }
        }
        PrimInfo { ccw: !cw, bias }
    }

    /// A point's or line's info (front-facing, constant bias only).
    pub(crate) fn flat(rs: &RenderStates) -> PrimInfo {
        PrimInfo {
            ccw: false,
            bias: rs.depth_bias,
        }
    }
}

/// Blends source `s` over destination `dd` with the render states' factors and ops;
/// `clamp` clamps the inputs to [0, 1] first (UNORM targets).
#[inline]
pub fn blend(rs: &RenderStates, s: [f32; 4], dd: [f32; 4], clamp: bool) -> [f32; 4] {
    let (s, dd) = if clamp {
        (s.map(exec_sat), dd.map(exec_sat))
    } else {
        (s, dd)
    };
    let bf = d3dcolor(rs.blend_factor);
    let factor = |b: Blend, c: usize, src_side: bool| -> f32 {
        match b {
            Blend::Zero => 0.0,
            Blend::One => 1.0,
            Blend::SrcColor => s[c],
            Blend::InvSrcColor => 1.0 - s[c],
            Blend::SrcAlpha => s[3],
            Blend::InvSrcAlpha => 1.0 - s[3],
            Blend::DestAlpha => dd[3],
            Blend::InvDestAlpha => 1.0 - dd[3],
            Blend::DestColor => dd[c],
            Blend::InvDestColor => 1.0 - dd[c],
            Blend::SrcAlphaSat => {
                if c == 3 {
                    1.0
                } else {
                    s[3].min(1.0 - dd[3])
                }
            }
            // The obsolete pair sets both factors from the source blend state.
            Blend::BothSrcAlpha => {
                if src_side {
                    s[3]
                } else {
                    1.0 - s[3]
                }
            }
            Blend::BothInvSrcAlpha => {
                if src_side {
                    1.0 - s[3]
                } else {
                    s[3]
                }
            }
            Blend::BlendFactor => bf[c],
            Blend::InvBlendFactor => 1.0 - bf[c],
        }
    };
    let mut o = [0.0; 4];
    for c in 0..4 {
        let (sb, db, op) = if c == 3 && rs.separate_alpha_blend {
            (rs.src_blend_alpha, rs.dest_blend_alpha, rs.blend_op_alpha)
        } else {
            (rs.src_blend, rs.dest_blend, rs.blend_op)
        };
        // BOTH*SRCALPHA as source blend overrides the destination factor.
        let db_eff = match sb {
            Blend::BothSrcAlpha | Blend::BothInvSrcAlpha => sb,
            _ => db,
        };
        let a = s[c] * factor(sb, c, true);
        let b = dd[c] * factor(db_eff, c, false);
        o[c] = match op {
            BlendOp::Add => a + b,
            BlendOp::Subtract => a - b,
            BlendOp::RevSubtract => b - a,
            // Min and max ignore the factors.
            BlendOp::Min => s[c].min(dd[c]),
            BlendOp::Max => s[c].max(dd[c]),
        };
    }
    o
}

/// The alpha test of oC0's alpha `a` against `ALPHAREF` at the precision of render
/// target 0's format: a floating-point target compares the shader's alpha as it is
/// (unclamped, so an alpha above 1 passes `GREATER` against `ALPHAREF` 0xFF) with
/// `ALPHAREF / 255`; the other targets compare the alpha saturated and rounded to 8 bits
/// with `ALPHAREF`. (DXVK's D3D9 alpha test keys the precision on the target format the
/// same way: a float path for the float formats, an integer one otherwise.)
#[inline]
fn alpha_test_passes(rs: &RenderStates, target: Format, a: f32) -> bool {
    let r = rs.alpha_ref & 0xFF;
    if target.is_float() {
        rs.alpha_func.test(a, r as f32 / 255.0)
    } else {
        rs.alpha_func.test((exec_sat(a) * 255.0).round() as u32, r)
    }
}

impl Framebuffer {
    /// Merges one shaded pixel into the targets (and depth/stencil buffer); `ps` is the
    /// pixel shader that shaded it (`None`: fixed function).
    #[inline]
    pub(crate) fn output(&mut self, f: &Frag, d: &Draw, ps: Option<&Program>, prim: &PrimInfo) {
        let rs = &d.render_states;
        let w = self.targets[0].width;
        let idx = (f.y * w + f.x) as usize;
        if rs.alpha_test && !alpha_test_passes(rs, self.targets[0].format, f.color[0][3]) {
            return;
        }
        let writes_depth = ps.is_some_and(|p| p.writes_depth);
        let z = if writes_depth {
            f.depth
        } else {
            f.depth + prim.bias
        };
        let z = self
            .depth_format
            .quantize(if z.is_nan() { 0.0 } else { z.clamp(0.0, 1.0) });
        if let Some(db) = self.depth.as_mut() {
            if let Some(dv) = db.get_mut(idx) {
                let st = &rs.stencil;
                let sv = self.stencil.as_mut().and_then(|s| s.get_mut(idx));
                let stencil = match sv {
                    Some(sv) if st.enable => {
                        let (func, fail, zfail, pass) = if st.two_sided && prim.ccw {
                            (st.ccw_func, st.ccw_fail, st.ccw_z_fail, st.ccw_pass)
                        } else {
                            (st.func, st.fail, st.z_fail, st.pass)
                        };
                        Some((sv, func, fail, zfail, pass))
                    }
                    _ => None,
                };
                let r = (st.reference & 0xFF) as u8;
                let m = (st.mask & 0xFF) as u8;
                let wm = (st.write_mask & 0xFF) as u8;
                let update = |sv: &mut u8, op: StencilOp| {
                    *sv = (*sv & !wm) | (op.apply(*sv, r) & wm);
                };
                if let Some((sv, func, fail, zfail, pass)) = stencil {
                    if !func.test(r & m, *sv & m) {
                        update(sv, fail);
                        return;
                    }
                    let zpass = !rs.z_enable || rs.z_func.test(z, *dv);
                    if !zpass {
                        update(sv, zfail);
                        return;
                    }
                    update(sv, pass);
                } else if rs.z_enable && !rs.z_func.test(z, *dv) {
                    return;
                }
                if rs.z_enable && rs.z_write {
                    *dv = z;
                }
            }
        }
        let ncol = match ps {
            Some(p) if !p.version.is_ps_1_x() => (p.color_outputs as usize).max(1),
            _ => 1,
        };
        for (ti, t) in self.targets.iter_mut().enumerate().take(ncol.min(4)) {
            let Some(dst) = t.pixels.get_mut(idx) else {
                continue;
            };
            let unorm = t.format.is_unorm();
            let srgb = rs.srgb_write && t.format.is_srgb_writable();
            let mut src = f.color[ti];
            if rs.blend {
                let mut dl = *dst;
                if srgb {
                    for c in dl.iter_mut().take(3) {
                        *c = srgb_to_linear(*c);
                    }
                }
                src = blend(rs, src, dl, unorm);
            }
            if srgb {
                for c in src.iter_mut().take(3) {
                    *c = linear_to_srgb(*c);
                }
            }
            let mask = if ti == 0 {
                rs.color_write
            } else {
                rs.color_write_more[ti - 1]
            };
            let q = quantize(t.format, src);
            for c in 0..4 {
                if mask & (1 << c) != 0 {
                    dst[c] = q[c];
                }
            }
        }
    }
}
