//! Texel formats: the one place that knows how a [`Format`] stores a colour. Decoding
//! texels (every non-block format and the DXT blocks) to RGBA floats, quantising colours
//! to a render target's format, the sRGB curves, saturation, and D3DCOLOR unpacking.
//! A leaf: it imports only the shared draw description; the sampler ([`crate::texture`]),
//! the rasterizer and output merger ([`crate::render`](mod@crate::render)) and the GPU runner read it.
// Lane and component loops index several structure-of-arrays values at once.
#![allow(clippy::needless_range_loop)]

use crate::draw::Format;

/// How each format stores its texels: sizes, blocks, and which conversions apply.
impl Format {
    /// Bytes per texel, or per 4×4 block for DXT formats.
    pub fn unit_bytes(self) -> usize {
        use Format::*;
        match self {
            L8 | A8 => 1,
            R5G6B5 | X1R5G5B5 | A1R5G5B5 | A4R4G4B4 | A8L8 | V8U8 | L6V5U5 | R16F => 2,
            A8R8G8B8 | X8R8G8B8 | A8B8G8R8 | X8B8G8R8 | Q8W8V8U8 | V16U16 | X8L8V8U8 | G16R16
            | G16R16F | R32F => 4,
            A16B16G16R16 | A16B16G16R16F | G32R32F => 8,
            A32B32G32R32F => 16,
            Dxt1 => 8,
            Dxt2 | Dxt3 | Dxt4 | Dxt5 => 16,
        }
    }

    /// True for the block-compressed formats.
    pub fn is_block(self) -> bool {
        matches!(
            self,
            Format::Dxt1 | Format::Dxt2 | Format::Dxt3 | Format::Dxt4 | Format::Dxt5
        )
    }

    /// True for the floating-point formats (16- and 32-bit float channels).
    pub fn is_float(self) -> bool {
        use Format::*;
        matches!(
            self,
            R16F | G16R16F | A16B16G16R16F | R32F | G32R32F | A32B32G32R32F
        )
    }

    /// True for the UNORM colour formats (fixed-point: blending clamps to [0, 1]).
    pub fn is_unorm(self) -> bool {
        use Format::*;
        matches!(
            self,
            A8R8G8B8
                | X8R8G8B8
                | A8B8G8R8
                | X8B8G8R8
                | R5G6B5
                | X1R5G5B5
                | A1R5G5B5
                | A4R4G4B4
                | L8
                | A8L8
                | A8
                | G16R16
                | A16B16G16R16
                | Dxt1
                | Dxt2
                | Dxt3
                | Dxt4
                | Dxt5
        )
    }

    /// True for the texture formats `SRGBTEXTURE` converts: the 8-bit-per-channel
    /// colour formats, luminance, and DXT1–5 (the formats D3D9 drivers report sRGB
    /// reads for; the packed 16-bit ones read linear).
    pub fn is_srgb_readable(self) -> bool {
        self.is_srgb_writable()
            || matches!(
                self,
                Format::L8
                    | Format::A8L8
                    | Format::Dxt1
                    | Format::Dxt2
                    | Format::Dxt3
                    | Format::Dxt4
                    | Format::Dxt5
            )
    }

    /// True for the render-target formats `SRGBWRITEENABLE` converts: 8 bits per
    /// colour channel (what `D3DUSAGE_QUERY_SRGBWRITE` reports; other targets are
    /// written linear).
    pub fn is_srgb_writable(self) -> bool {
        matches!(
            self,
            Format::A8R8G8B8 | Format::X8R8G8B8 | Format::A8B8G8R8 | Format::X8B8G8R8
        )
    }

    /// Bytes of one `w`×`h` image.
    pub fn image_bytes(self, w: u32, h: u32) -> usize {
        if self.is_block() {
            w.div_ceil(4) as usize * h.div_ceil(4) as usize * self.unit_bytes()
        } else {
            w as usize * h as usize * self.unit_bytes()
        }
    }
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

/// A signed 5-bit channel of `D3DFMT_L6V5U5`: positive values over 15, negative ones over
/// 16 (15 → 1.0, −15 → −0.9375, −16 → −1.0). Windows' results in Wine's
/// `test_signed_formats` (d3d8 and d3d9 visual.c) fit this within one step everywhere,
/// while a plain `v / 15` misses −15 (0x07 expected after `mad r0, t0, 0.5, 0.5`) and
/// −12 (0x1f) by six or seven steps.
fn s5(v: u32) -> f32 {
    let s = ((v << 27) as i32) >> 27;
    if s < 0 {
        s as f32 / 16.0
    } else {
        s as f32 / 15.0
    }
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
        L6V5U5 => {
            let v = u16_at(0) as u32;
            [s5(v & 31), s5((v >> 5) & 31), unorm(v >> 10, 6), 1.0]
        }
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
pub(crate) fn decode_block(format: Format, b: &[u8]) -> [[f32; 4]; 16] {
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

/// A colour as render-target `format` stores it: UNORM channels saturated and rounded to
/// their bit depth, half floats rounded to 10 mantissa bits, channels the format lacks 1.
#[inline]
pub fn quantize(format: Format, v: [f32; 4]) -> [f32; 4] {
    use Format::*;
    let q = |x: f32, bits: u32| {
        let m = ((1u32 << bits) - 1) as f32;
        (exec_sat(x) * m).round() / m
    };
    match format {
        A8R8G8B8 | A8B8G8R8 => [q(v[0], 8), q(v[1], 8), q(v[2], 8), q(v[3], 8)],
        X8R8G8B8 | X8B8G8R8 => [q(v[0], 8), q(v[1], 8), q(v[2], 8), 1.0],
        R5G6B5 => [q(v[0], 5), q(v[1], 6), q(v[2], 5), 1.0],
        A1R5G5B5 => [q(v[0], 5), q(v[1], 5), q(v[2], 5), q(v[3], 1)],
        X1R5G5B5 => [q(v[0], 5), q(v[1], 5), q(v[2], 5), 1.0],
        A4R4G4B4 => [q(v[0], 4), q(v[1], 4), q(v[2], 4), q(v[3], 4)],
        R32F => [v[0], 1.0, 1.0, 1.0],
        G32R32F => [v[0], v[1], 1.0, 1.0],
        R16F => [f16_round(v[0]), 1.0, 1.0, 1.0],
        G16R16F => [f16_round(v[0]), f16_round(v[1]), 1.0, 1.0],
        A16B16G16R16F => v.map(f16_round),
        _ => v,
    }
}

#[inline]
fn f16_round(x: f32) -> f32 {
    // Good enough for targets: round the mantissa to 10 bits.
    if !x.is_finite() || x == 0.0 {
        return x;
    }
    let b = x.to_bits();
    let r = (b + 0x0FFF + ((b >> 13) & 1)) & !0x1FFF;
    f32::from_bits(r).clamp(-65504.0, 65504.0)
}

/// Saturation as the executor does it: clamps to [0, 1], NaN to 0.
#[inline]
pub fn exec_sat(x: f32) -> f32 {
    if x > 0.0 {
        x.min(1.0)
    } else {
        0.0
    }
}

/// sRGB-encoded value → linear (the exact sRGB curve).
#[inline]
pub fn srgb_to_linear(c: f32) -> f32 {
    if c <= 0.04045 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    }
}

/// Linear value → sRGB-encoded (the exact sRGB curve; input clamped to [0, 1]).
#[inline]
pub fn linear_to_srgb(c: f32) -> f32 {
    let c = exec_sat(c);
    if c <= 0.003_130_8 {
        c * 12.92
    } else {
        1.055 * c.powf(1.0 / 2.4) - 0.055
    }
}

/// A D3DCOLOR (ARGB) as RGBA floats.
#[inline]
pub fn d3dcolor(c: u32) -> [f32; 4] {
    [
        ((c >> 16) & 255) as f32 / 255.0,
        ((c >> 8) & 255) as f32 / 255.0,
        (c & 255) as f32 / 255.0,
        (c >> 24) as f32 / 255.0,
    ]
}
