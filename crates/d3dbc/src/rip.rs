//! Finding Direct3D 9 shaders and fx_2_0 effects inside arbitrary bytes (executables,
//! game archives, memory dumps, `.xnb` files): [`scan`] reports each find's byte
//! offset, kind, version, size and CRC-32 (the key HelixMod and ReShade dumps name
//! shaders by).
//!
//! A shader is a version token (`FFFE`/`FFFF` with a major version 1–3 and a minor the
//! format defines) whose token stream [`Decoder`] reads cleanly to an end token and which
//! holds at least one instruction other than `nop`; an effect is an `FEFF0901` tag that
//! [`Effect::parse`] accepts. Shaders inside a found effect belong to it and are not
//! reported again: the scan resumes after the effect. The scan is byte-aligned (archives
//! do not align their members) and finds candidates with `memchr` on the `0xFF` byte
//! every version token and effect tag contains, so random input costs one vectorised
//! search and a few comparisons per `0xFF`.

use crate::decode::{DecodeErrorKind, Decoder};
use crate::fx::Effect;

/// What a find is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum Kind {
    /// A vertex shader.
    VertexShader,
    /// A pixel shader.
    PixelShader,
    /// An fx_2_0 effect.
    Effect,
}

impl Kind {
    /// The file extension `rip` writes (`vso`, `pso`, `fxo`).
    pub fn extension(self) -> &'static str {
        match self {
            Kind::VertexShader => "vso",
            Kind::PixelShader => "pso",
            Kind::Effect => "fxo",
        }
    }
}

/// One shader or effect found.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Find {
    /// Byte offset in the input.
    pub offset: usize,
    /// Size in bytes.
    pub size: usize,
    /// Kind.
    pub kind: Kind,
    /// The version token (`0xFFFE0300`…; `0xFEFF0901` for effects).
    pub version: u32,
    /// CRC-32 (IEEE) of the bytes.
    pub crc32: u32,
}

impl Find {
    /// The version as text (`vs_3_0`, `ps_2_x`, `fx_2_0`).
    pub fn version_name(&self) -> String {
        if self.kind == Kind::Effect {
            return "fx_2_0".into();
        }
        crate::version::Version::from_token(self.version)
            .map_or_else(|| format!("{:#010x}", self.version), |v| v.to_string())
    }
}

/// The most DWORDs a shader may have (D3D9's instruction limits are far below).
const MAX_SHADER_DWORDS: usize = 1 << 20;

#[inline]
fn le32(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

/// Whether `token` is a D3D9 shader version token.
#[inline]
fn is_version(token: u32) -> bool {
    let (kind, major, minor) = (token >> 16, (token >> 8) & 0xFF, token & 0xFF);
    match (kind, major) {
        (0xFFFE, 1) => minor <= 1,
        (0xFFFF, 1) => minor <= 4,
        (0xFFFE | 0xFFFF, 2) => minor <= 1 || minor == 0xFF,
        (0xFFFE | 0xFFFF, 3) => minor == 0 || minor == 0xFF,
        _ => false,
    }
}

/// The size in bytes of the shader at `off`, if one is there. The tokens are copied
/// into `buf` a window at a time (1 KiB first: most candidates in random bytes fail
/// within a few tokens); a window that ends inside the shader grows (to what a comment
/// block declares, or twice the size), the new tokens are appended, and the decode
/// starts over.
fn shader_at(data: &[u8], off: usize, buf: &mut Vec<u32>) -> Option<usize> {
    let avail = ((data.len() - off) / 4).min(MAX_SHADER_DWORDS);
    let mut want = avail.min(256);
    buf.clear();
    loop {
        let have = buf.len();
        buf.extend(
            data[off + 4 * have..off + 4 * want]
                .chunks_exact(4)
                .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])),
        );
        let mut d = Decoder::new(buf).ok()?;
        let mut real = false;
        let result = loop {
            match d.next_event() {
                Ok(Some((_, crate::decode::Event::Instruction(ins)))) => {
                    real |= ins.opcode != crate::opcode::Opcode::Nop;
                }
                Ok(Some(_)) => {}
                Ok(None) => break Ok(d.offset()),
                Err(e) => break Err(e),
            }
        };
        let e = match result {
            Ok(dwords) => return real.then_some(dwords * 4),
            Err(e) => e,
        };
        if want >= avail {
            return None;
        }
        // A comment longer than the window (a constant table over 1 KiB, a 64 KiB
        // block) names the length it needs: the comment and a token after it.
        let needed = match e.kind {
            DecodeErrorKind::CommentOverrun { declared, .. } => e.offset + 2 + declared + 64,
            _ if e.at_end() => want * 2,
            _ => return None,
        };
        want = needed.max(want + 64).min(avail);
    }
}

/// Finds every shader and effect in `data`, in offset order.
pub fn scan(data: &[u8]) -> Vec<Find> {
    let mut out = Vec::new();
    let mut buf = Vec::new();
    let mut resume = 0;
    for j in memchr::memchr_iter(0xFF, data) {
        // An effect tag `01 09 FF FE` has its 0xFF third.
        if j >= 2 && j + 1 < data.len() && j - 2 >= resume && data[j + 1] == 0xFE {
            let off = j - 2;
            if data[off] == 0x01 && data[off + 1] == 0x09 {
                if let Ok(e) = Effect::parse(&data[off..]) {
                    let size = e.size.max(8);
                    out.push(Find {
                        offset: off,
                        size,
                        kind: Kind::Effect,
                        version: crate::fx::FX_2_0,
                        crc32: crc32(&data[off..off + size]),
                    });
                    resume = off + size;
                    continue;
                }
            }
        }
        // A version token `mm MM FE|FF FF` has its 0xFF fourth.
        if j < 3 || j - 3 < resume {
            continue;
        }
        let off = j - 3;
        if data[off + 2] < 0xFE || !(1..=3).contains(&data[off + 1]) {
            continue;
        }
        let token = le32(data, off);
        if !is_version(token) {
            continue;
        }
        if let Some(size) = shader_at(data, off, &mut buf) {
            out.push(Find {
                offset: off,
                size,
                kind: if token >> 16 == 0xFFFE {
                    Kind::VertexShader
                } else {
                    Kind::PixelShader
                },
                version: token,
                crc32: crc32(&data[off..off + size]),
            });
            resume = off + size;
        }
    }
    out
}

/// CRC-32 (IEEE 802.3, as zlib and the shader-dump tools compute it).
pub fn crc32(data: &[u8]) -> u32 {
    crc32fast::hash(data)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crc32_check_value() {
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
    }

    #[test]
    fn finds_a_planted_shader_at_an_odd_offset() {
        let shader: [u32; 5] = [0xFFFE0101, 0x00000001, 0xC00F0000, 0x90E40000, 0x0000FFFF];
        let mut data = vec![0x55u8; 37];
        for w in shader {
            data.extend_from_slice(&w.to_le_bytes());
        }
        data.extend_from_slice(&[0xFF; 11]);
        let f = scan(&data);
        assert_eq!(f.len(), 1);
        assert_eq!(
            (f[0].offset, f[0].size, f[0].kind),
            (37, 20, Kind::VertexShader)
        );
        assert_eq!(f[0].version_name(), "vs_1_1");
    }
}
