//! Textures and samplers: decodes a texture's levels once into RGBA floats (texels
//! through [`crate::format`](mod@crate::format); missing channels read as D3D9 defines them), and samples 2D, cube and volume textures with
//! point/linear/mip filtering, every address mode, LOD from derivatives, bias and
//! `MAXMIPLEVEL`.
// Lane and component loops index several structure-of-arrays values at once.
#![allow(clippy::needless_range_loop)]

use crate::draw::{Address, Filter, SamplerState, Texture, TextureKind};
use crate::format::{d3dcolor, decode_block, decode_texel, srgb_to_linear};

/// Largest texture accepted (texels of all levels, faces and slices together).
pub const MAX_TEXELS: usize = 1 << 26;

/// A texture decoded to RGBA floats.
#[derive(Clone, Debug)]
pub struct Decoded {
    /// Dimensionality.
    pub kind: TextureKind,
    /// Levels, largest first.
    pub levels: Vec<Level>,
    /// The format is one `D3DSAMP_SRGBTEXTURE` converts ([`crate::draw::Format::is_srgb_readable`]).
    pub srgb_capable: bool,
}

/// One mip level: `images` faces (cube) or one image of `depth` slices.
#[derive(Clone, Debug)]
pub struct Level {
    /// Width.
    pub w: u32,
    /// Height.
    pub h: u32,
    /// Depth (volume) or 1.
    pub d: u32,
    /// Texels: faces × depth × h × w.
    pub texels: Vec<[f32; 4]>,
}

/// Why a texture could not be decoded.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum TextureError {
    /// Sizes are zero or too large.
    #[error("texture size {0}x{1}x{2} with {3} levels is out of range")]
    Size(u32, u32, u32, u32),
    /// Fewer bytes than the levels need.
    #[error("texture data has {have} bytes, its levels need {need}")]
    Short {
        /// Bytes present.
        have: usize,
        /// Bytes needed.
        need: usize,
    },
}

impl Decoded {
    /// Decodes a texture, checking sizes before allocating.
    pub fn new(t: &Texture) -> Result<Decoded, TextureError> {
        let faces = if t.kind == TextureKind::Cube { 6 } else { 1 };
        let depth = if t.kind == TextureKind::Volume {
            t.depth
        } else {
            1
        };
        let size_err = || TextureError::Size(t.width, t.height, t.depth, t.levels);
        if t.width == 0
            || t.height == 0
            || depth == 0
            || t.levels == 0
            || t.levels > 16
            || t.width > 16384
            || t.height > 16384
            || depth > 16384
        {
            return Err(size_err());
        }
        let mut total = 0usize;
        let mut need = 0usize;
        for l in 0..t.levels {
            let (w, h, d) = (
                (t.width >> l).max(1),
                (t.height >> l).max(1),
                (depth >> l).max(1),
            );
            total = total.saturating_add(w as usize * h as usize * d as usize * faces);
            need = need.saturating_add(t.format.image_bytes(w, h) * d as usize * faces);
        }
        if total > MAX_TEXELS {
            return Err(size_err());
        }
        if t.data.len() < need {
            return Err(TextureError::Short {
                have: t.data.len(),
                need,
            });
        }
        let mut levels = Vec::with_capacity(t.levels as usize);
        let mut off = 0usize;
        let unit = t.format.unit_bytes();
        for l in 0..t.levels {
            let (w, h, d) = (
                (t.width >> l).max(1),
                (t.height >> l).max(1),
                (depth >> l).max(1),
            );
            let n = w as usize * h as usize;
            let mut texels = Vec::with_capacity(n * d as usize * faces);
            for _ in 0..(faces * d as usize) {
                let img = &t.data[off..off + t.format.image_bytes(w, h)];
                off += img.len();
                if t.format.is_block() {
                    let bw = w.div_ceil(4) as usize;
                    let base = texels.len();
                    texels.resize(base + n, [0.0; 4]);
                    for (bi, blk) in img.chunks_exact(unit).enumerate() {
                        let px = decode_block(t.format, blk);
                        let (bx, by) = ((bi % bw) * 4, (bi / bw) * 4);
                        for (k, v) in px.iter().enumerate() {
                            let (x, y) = (bx + k % 4, by + k / 4);
                            if x < w as usize && y < h as usize {
                                texels[base + y * w as usize + x] = *v;
                            }
                        }
                    }
                } else {
                    texels.extend(img.chunks_exact(unit).map(|b| decode_texel(t.format, b)));
                }
            }
            levels.push(Level { w, h, d, texels });
        }
        let srgb_capable = t.format.is_srgb_readable();
        Ok(Decoded {
            kind: t.kind,
            levels,
            srgb_capable,
        })
    }
}

/// Applies an address mode to an integer texel coordinate; `None` = border.
#[inline]
fn address(mode: Address, i: i32, n: i32) -> Option<i32> {
    Some(match mode {
        Address::Wrap => i.rem_euclid(n),
        Address::Mirror => {
            let m = i.rem_euclid(2 * n);
            if m >= n {
                2 * n - 1 - m
            } else {
                m
            }
        }
        Address::Clamp => i.clamp(0, n - 1),
        Address::Border => {
            if i < 0 || i >= n {
                return None;
            }
            i
        }
        Address::MirrorOnce => {
            let j = if i < 0 { -1 - i } else { i };
            j.clamp(0, n - 1)
        }
    })
}

fn border(s: &SamplerState) -> [f32; 4] {
    d3dcolor(s.border_color)
}

/// Clamps a texel-space coordinate to a finite range (NaN → 0).
#[inline]
fn finite(x: f32) -> f32 {
    if x.is_nan() {
        0.0
    } else {
        x.clamp(-1.0e9, 1.0e9)
    }
}

/// Float-to-int that saturates and maps NaN to 0 (texel coordinates).
#[inline]
fn fi(x: f32) -> i32 {
    if x.is_nan() {
        0
    } else {
        x.clamp(-1.0e9, 1.0e9) as i32
    }
}

impl Level {
    /// One texel; `srgb` decodes its colour channels sRGB → linear.
    #[inline]
    fn fetch(&self, face: usize, x: i32, y: i32, z: i32, srgb: bool) -> [f32; 4] {
        let (w, h) = (self.w as usize, self.h as usize);
        let i = ((face * self.d as usize + z as usize) * h + y as usize) * w + x as usize;
        let t = self.texels[i];
        if srgb {
            let l = srgb_to_linear;
            [l(t[0]), l(t[1]), l(t[2]), t[3]]
        } else {
            t
        }
    }

    /// Samples one level at normalised (u, v, w) with one filter (texels decoded from
    /// sRGB before filtering when `srgb`).
    fn sample(
        &self,
        s: &SamplerState,
        face: usize,
        uvw: [f32; 3],
        filter: Filter,
        vol: bool,
        srgb: bool,
    ) -> [f32; 4] {
        let dims = [self.w as i32, self.h as i32, self.d as i32];
        let modes = [s.address_u, s.address_v, s.address_w];
        let naxes = if vol { 3 } else { 2 };
        if matches!(filter, Filter::Point | Filter::None) {
            let mut c = [0i32; 3];
            for a in 0..naxes {
                let t = (uvw[a] * dims[a] as f32).floor();
                match address(modes[a], fi(t), dims[a]) {
                    Some(v) => c[a] = v,
                    None => return border(s),
                }
            }
            return self.fetch(face, c[0], c[1], c[2], srgb);
        }
        // Linear: texel centres at (i + 0.5) / n.
        let mut i0 = [0i32; 3];
        let mut fr = [0.0f32; 3];
        for a in 0..naxes {
            // Infinite and NaN coordinates address like huge finite ones (and 0).
            let t = finite(uvw[a] * dims[a] as f32 - 0.5);
            let f = t.floor();
            i0[a] = fi(f);
            fr[a] = t - f;
        }
        let mut acc = [0.0f32; 4];
        let corners = if vol { 8 } else { 4 };
        for k in 0..corners {
            let mut wgt = 1.0f32;
            let mut c = [0i32; 3];
            let mut is_border = false;
            for a in 0..naxes {
                let hi = (k >> a) & 1 == 1;
                wgt *= if hi { fr[a] } else { 1.0 - fr[a] };
                match address(modes[a], i0[a] + hi as i32, dims[a]) {
                    Some(v) => c[a] = v,
                    None => is_border = true,
                }
            }
            if wgt == 0.0 {
                continue;
            }
            let t = if is_border {
                border(s)
            } else {
                self.fetch(face, c[0], c[1], c[2], srgb)
            };
            for ch in 0..4 {
                acc[ch] += wgt * t[ch];
            }
        }
        acc
    }
}

/// Cube face and 2D coordinates for a direction (`D3DCUBEMAP_FACES` order).
pub fn cube_face(d: [f32; 3]) -> (usize, [f32; 2]) {
    let (ax, ay, az) = (d[0].abs(), d[1].abs(), d[2].abs());
    let (face, sc, tc, ma) = if ax >= ay && ax >= az {
        if d[0] >= 0.0 {
            (0, -d[2], -d[1], ax)
        } else {
            (1, d[2], -d[1], ax)
        }
    } else if ay >= az {
        if d[1] >= 0.0 {
            (2, d[0], d[2], ay)
        } else {
            (3, d[0], -d[2], ay)
        }
    } else if d[2] >= 0.0 {
        (4, d[0], -d[1], az)
    } else {
        (5, -d[0], -d[1], az)
    };
    let ma = if ma == 0.0 { 1.0 } else { ma };
    (face, [(sc / ma + 1.0) * 0.5, (tc / ma + 1.0) * 0.5])
}

/// How the level of detail is chosen.
#[derive(Clone, Copy, Debug)]
pub enum Lod {
    /// From texel-space derivatives `(ddx, ddy)` of the normalised coordinates, plus a
    /// bias.
    Grad([f32; 3], [f32; 3], f32),
    /// An explicit level (`texldl`, vertex texture fetch).
    Level(f32),
}

/// Samples `tex` with sampler state `s` at normalised coordinates `c` (u, v, w or a cube
/// direction).
pub fn sample(tex: &Decoded, s: &SamplerState, c: [f32; 4], lod: Lod) -> [f32; 4] {
    let base = &tex.levels[0];
    let srgb = s.srgb && tex.srgb_capable;
    let (face, uvw, vol) = match tex.kind {
        TextureKind::Tex2d => (0, [c[0], c[1], 0.0], false),
        TextureKind::Volume => (0, [c[0], c[1], c[2]], true),
        TextureKind::Cube => {
            let (f, uv) = cube_face([c[0], c[1], c[2]]);
            (f, [uv[0], uv[1], 0.0], false)
        }
    };
    let lambda = match lod {
        Lod::Level(l) => l + s.mip_lod_bias,
        Lod::Grad(dx, dy, bias) => {
            let size = [base.w as f32, base.h as f32, base.d as f32];
            let n = if vol { 3 } else { 2 };
            let (mut lx, mut ly) = (0.0f32, 0.0f32);
            for a in 0..n {
                lx += (dx[a] * size[a]) * (dx[a] * size[a]);
                ly += (dy[a] * size[a]) * (dy[a] * size[a]);
            }
            let rho2 = lx.max(ly);
            let l = if rho2 > 0.0 {
                0.5 * rho2.log2()
            } else {
                -1000.0
            };
            l + bias + s.mip_lod_bias
        }
    };
    let filter = if lambda > 0.0 {
        s.min_filter
    } else {
        s.mag_filter
    };
    let nlev = tex.levels.len() as u32;
    let first = s.max_mip_level.min(nlev - 1) as f32;
    let last = (nlev - 1) as f32;
    match s.mip_filter {
        Filter::None => tex.levels[first as usize].sample(s, face, uvw, filter, vol, srgb),
        Filter::Point => {
            let l = if lambda.is_nan() { 0.0 } else { lambda };
            let lv = (l + 0.5).floor().clamp(first, last) as usize;
            let lv = if lambda <= 0.5 { first as usize } else { lv };
            tex.levels[lv].sample(s, face, uvw, filter, vol, srgb)
        }
        Filter::Linear | Filter::Anisotropic => {
            let l = if lambda.is_nan() { 0.0 } else { lambda };
            let l = l.clamp(first, last);
            let l0 = l.floor();
            let f = l - l0;
            let a = tex.levels[l0 as usize].sample(s, face, uvw, filter, vol, srgb);
            if f == 0.0 {
                return a;
            }
            let b = tex.levels[(l0 as usize + 1).min(nlev as usize - 1)]
                .sample(s, face, uvw, filter, vol, srgb);
            let mut o = [0.0; 4];
            for ch in 0..4 {
                o[ch] = a[ch] + (b[ch] - a[ch]) * f;
            }
            o
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draw::Format;

    #[test]
    fn linear_centre_of_3x3() {
        let mut data = Vec::new();
        for y in 0..3 {
            for x in 0..3 {
                for v in [x as f32, y as f32, 0.0, 1.0] {
                    data.extend_from_slice(&v.to_le_bytes());
                }
            }
        }
        let t = Texture {
            kind: TextureKind::Tex2d,
            format: Format::A32B32G32R32F,
            width: 3,
            height: 3,
            depth: 1,
            levels: 1,
            data,
        };
        let d = Decoded::new(&t).unwrap();
        let s = SamplerState {
            address_u: Address::Clamp,
            address_v: Address::Clamp,
            min_filter: Filter::Linear,
            mag_filter: Filter::Linear,
            mip_filter: Filter::Linear,
            ..SamplerState::default()
        };
        let v = sample(
            &d,
            &s,
            [0.5, 0.5, 0.0, 1.0],
            Lod::Grad([0.0; 3], [0.0; 3], 0.0),
        );
        assert_eq!(v, [1.0, 1.0, 0.0, 1.0]);
        // Point sampling picks texel floor(u * size); wrap repeats.
        let p = SamplerState::default();
        assert_eq!(
            sample(&d, &p, [1.2, -0.1, 0.0, 1.0], Lod::Level(0.0)),
            [0.0, 2.0, 0.0, 1.0]
        );
    }
}
