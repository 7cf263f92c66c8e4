//! Textures and samplers: decodes every [`Format`] once into RGBA floats (missing
//! channels read as D3D9 defines them), and samples 2D, cube and volume textures with
//! point/linear/mip filtering, every address mode, LOD from derivatives, bias and
//! `MAXMIPLEVEL`.
// Lane and component loops index several structure-of-arrays values at once.
#![allow(clippy::needless_range_loop)]

use crate::draw::{Address, Filter, Format, SamplerState, Texture, TextureKind};

/// Largest texture accepted (texels of all levels, faces and slices together).
pub const MAX_TEXELS: usize = 1 << 26;

/// A texture decoded to RGBA floats.
#[derive(Clone, Debug)]
pub struct Decoded {
    /// Dimensionality.
    pub kind: TextureKind,
    /// Levels, largest first.
    pub levels: Vec<Level>,
    /// The format is one `D3DSAMP_SRGBTEXTURE` converts ([`Format::is_srgb_readable`]).
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

fn unorm(v: u32, bits: u32) -> f32 {
    v as f32 / ((1u32 << bits) - 1) as f32
}

/// Signed normalised: `c / (2^(n-1) - 1)`, the most negative value clamped to −1.
fn snorm(v: i32, bits: u32) -> f32 {
    (v as f32 / ((1i32 << (bits - 1)) - 1) as f32).max(-1.0)
}

fn half(h: u16) -> f32 {
    let s = ((h >> 15) & 1) as u32;
    let e = ((h >> 10) & 0x1F) as i32;
    let m = (h & 0x3FF) as u32;
    let bits = if e == 0 {
        if m == 0 {
            s << 31
        } else {
            // subnormal
            let f = m as f32 / 1024.0 * (2.0f32).powi(-14);
            return if s == 1 { -f } else { f };
        }
    } else if e == 31 {
        (s << 31) | 0x7F80_0000 | (m << 13)
    } else {
        (s << 31) | (((e - 15 + 127) as u32) << 23) | (m << 13)
    };
    f32::from_bits(bits)
}

/// Decodes one texel of a non-block format.
pub fn decode_texel(format: Format, b: &[u8]) -> [f32; 4] {
    use Format::*;
    let u16_at = |i: usize| u16::from_le_bytes([b[i], b[i + 1]]);
    let u32_at = |i: usize| u32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]);
    let f32_at = |i: usize| f32::from_bits(u32_at(i));
    let s8 = |i: usize| snorm(b[i] as i8 as i32, 8);
    let u8n = |i: usize| unorm(b[i] as u32, 8);
    match format {
        A8R8G8B8 => [u8n(2), u8n(1), u8n(0), u8n(3)],
        X8R8G8B8 => [u8n(2), u8n(1), u8n(0), 1.0],
        A8B8G8R8 => [u8n(0), u8n(1), u8n(2), u8n(3)],
        X8B8G8R8 => [u8n(0), u8n(1), u8n(2), 1.0],
        R5G6B5 => {
            let v = u16_at(0) as u32;
            [
                unorm(v >> 11, 5),
                unorm((v >> 5) & 63, 6),
                unorm(v & 31, 5),
                1.0,
            ]
        }
        X1R5G5B5 | A1R5G5B5 => {
            let v = u16_at(0) as u32;
            let a = if format == A1R5G5B5 {
                (v >> 15) as f32
            } else {
                1.0
            };
            [
                unorm((v >> 10) & 31, 5),
                unorm((v >> 5) & 31, 5),
                unorm(v & 31, 5),
                a,
            ]
        }
        A4R4G4B4 => {
            let v = u16_at(0) as u32;
            [
                unorm((v >> 8) & 15, 4),
                unorm((v >> 4) & 15, 4),
                unorm(v & 15, 4),
                unorm(v >> 12, 4),
            ]
        }
        L8 => [u8n(0), u8n(0), u8n(0), 1.0],
        A8L8 => [u8n(0), u8n(0), u8n(0), u8n(1)],
        A8 => [0.0, 0.0, 0.0, u8n(0)],
        V8U8 => [s8(0), s8(1), 1.0, 1.0],
        Q8W8V8U8 => [s8(0), s8(1), s8(2), s8(3)],
        V16U16 => [
            snorm(u16_at(0) as i16 as i32, 16),
            snorm(u16_at(2) as i16 as i32, 16),
            1.0,
            1.0,
        ],
        X8L8V8U8 => [s8(0), s8(1), u8n(2), 1.0],
        G16R16 => [
            unorm(u16_at(0) as u32, 16),
            unorm(u16_at(2) as u32, 16),
            1.0,
            1.0,
        ],
        A16B16G16R16 => [
            unorm(u16_at(0) as u32, 16),
            unorm(u16_at(2) as u32, 16),
            unorm(u16_at(4) as u32, 16),
            unorm(u16_at(6) as u32, 16),
        ],
        R16F => [half(u16_at(0)), 1.0, 1.0, 1.0],
        G16R16F => [half(u16_at(0)), half(u16_at(2)), 1.0, 1.0],
        A16B16G16R16F => [
            half(u16_at(0)),
            half(u16_at(2)),
            half(u16_at(4)),
            half(u16_at(6)),
        ],
        R32F => [f32_at(0), 1.0, 1.0, 1.0],
        G32R32F => [f32_at(0), f32_at(4), 1.0, 1.0],
        A32B32G32R32F => [f32_at(0), f32_at(4), f32_at(8), f32_at(12)],
        Dxt1 | Dxt2 | Dxt3 | Dxt4 | Dxt5 => [0.0, 0.0, 0.0, 1.0],
    }
}

fn rgb565(c: u16) -> [f32; 3] {
    let c = c as u32;
    [unorm(c >> 11, 5), unorm((c >> 5) & 63, 6), unorm(c & 31, 5)]
}

/// Decodes one 4×4 DXT block into 16 texels (row-major).
fn decode_block(format: Format, b: &[u8]) -> [[f32; 4]; 16] {
    let mut out = [[0.0f32; 4]; 16];
    let color_off = if format == Format::Dxt1 { 0 } else { 8 };
    let c0 = u16::from_le_bytes([b[color_off], b[color_off + 1]]);
    let c1 = u16::from_le_bytes([b[color_off + 2], b[color_off + 3]]);
    let (p0, p1) = (rgb565(c0), rgb565(c1));
    let mut pal = [[0.0f32; 4]; 4];
    pal[0] = [p0[0], p0[1], p0[2], 1.0];
    pal[1] = [p1[0], p1[1], p1[2], 1.0];
    let four = format != Format::Dxt1 || c0 > c1;
    for c in 0..3 {
        if four {
            pal[2][c] = (2.0 * p0[c] + p1[c]) / 3.0;
            pal[3][c] = (p0[c] + 2.0 * p1[c]) / 3.0;
        } else {
            pal[2][c] = (p0[c] + p1[c]) / 2.0;
            pal[3][c] = 0.0;
        }
    }
    pal[2][3] = 1.0;
    pal[3][3] = if four { 1.0 } else { 0.0 };
    let idx = u32::from_le_bytes([
        b[color_off + 4],
        b[color_off + 5],
        b[color_off + 6],
        b[color_off + 7],
    ]);
    for (i, t) in out.iter_mut().enumerate() {
        *t = pal[((idx >> (2 * i)) & 3) as usize];
    }
    match format {
        Format::Dxt2 | Format::Dxt3 => {
            for (i, t) in out.iter_mut().enumerate() {
                let nib = (b[i / 2] >> ((i % 2) * 4)) & 15;
                t[3] = unorm(nib as u32, 4);
            }
        }
        Format::Dxt4 | Format::Dxt5 => {
            let (a0, a1) = (b[0] as f32 / 255.0, b[1] as f32 / 255.0);
            let mut ap = [0.0f32; 8];
            ap[0] = a0;
            ap[1] = a1;
            if b[0] > b[1] {
                for k in 1..7 {
                    ap[k + 1] = ((7 - k) as f32 * a0 + k as f32 * a1) / 7.0;
                }
            } else {
                for k in 1..5 {
                    ap[k + 1] = ((5 - k) as f32 * a0 + k as f32 * a1) / 5.0;
                }
                ap[6] = 0.0;
                ap[7] = 1.0;
            }
            let mut bits = 0u64;
            for k in 0..6 {
                bits |= (b[2 + k] as u64) << (8 * k);
            }
            for (i, t) in out.iter_mut().enumerate() {
                t[3] = ap[((bits >> (3 * i)) & 7) as usize];
            }
        }
        _ => {}
    }
    out
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
    let c = s.border_color;
    [
        ((c >> 16) & 255) as f32 / 255.0,
        ((c >> 8) & 255) as f32 / 255.0,
        (c & 255) as f32 / 255.0,
        (c >> 24) as f32 / 255.0,
    ]
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
            let l = crate::merge::srgb_to_linear;
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
        TextureKind::Tex2D => (0, [c[0], c[1], 0.0], false),
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
            kind: TextureKind::Tex2D,
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
