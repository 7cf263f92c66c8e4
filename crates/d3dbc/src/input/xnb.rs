//! XNA content files (`.xnb`) holding an effect: what XNA Game Studio 4.0 and FNA
//! games ship their compiled effects in (tModLoader and other mods too).
//!
//! Layout: `XNB`, a platform byte (`w` Windows, `x` Xbox 360, `m` Windows Phone, and
//! MonoGame's `d`, `a`, `i`, …), a format version (5 for XNA 4.0), flags (`0x01` HiDef,
//! `0x80` LZX-compressed, `0x40` LZ4-compressed), the file's total size (u32), and for
//! a compressed file the decompressed size (u32) before the compressed data. The
//! content: the type-reader table (a 7-bit-encoded count; each reader a 7-bit-length
//! string naming it and an i32 version), a shared-resource count, then the primary
//! object as a 1-based reader index and its data. An effect's data
//! (`Microsoft.Xna.Framework.Content.EffectReader`) is a u32 byte count and the effect:
//! the `0xBCF00BCF` XNA wrapper or the bare `fx_2_0` container [`crate::fx::Effect`]
//! reads. MonoGame's own effect format (`MGFX`) holds no Direct3D 9 bytecode and is
//! refused with that reason.
//!
//! LZX is decompressed by the `lzxd` crate (64 KiB window, XNA's block framing: two
//! big-endian bytes of compressed size, or `0xFF`, the frame size and then the block
//! size), LZ4 by `lz4_flex` (one raw block). Hostile input gets an [`XnbError`] with
//! its byte offset; the decompressed size is checked against a bound proportional to
//! the compressed size before anything is allocated.

use std::fmt;

/// The `XNB` magic.
pub const MAGIC: &[u8; 3] = b"XNB";
/// Flag: LZX compression.
pub const FLAG_LZX: u8 = 0x80;
/// Flag: LZ4 compression (MonoGame).
pub const FLAG_LZ4: u8 = 0x40;

/// The most any decompressed content may be: LZX and LZ4 expand at most about 255× in
/// practice; the bound is 256× the compressed bytes plus 64 KiB, at most 1 GiB.
fn max_decompressed(compressed: usize) -> usize {
    compressed
        .saturating_mul(256)
        .saturating_add(1 << 16)
        .min(1 << 30)
}

/// A malformed or unsupported `.xnb`: what and the byte offset.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct XnbError {
    /// Byte offset in the file (in the decompressed content for content errors, said
    /// in `what`).
    pub offset: usize,
    /// What is wrong.
    pub what: String,
}

impl fmt::Display for XnbError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "xnb byte {:#x}: {}", self.offset, self.what)
    }
}

impl std::error::Error for XnbError {}

/// A parsed content file.
#[derive(Clone, Debug)]
pub struct Xnb {
    /// Target platform byte (`w`, `x`, `m`, …).
    pub platform: u8,
    /// Format version (5: XNA 4.0).
    pub version: u8,
    /// Flags (HiDef, compression).
    pub flags: u8,
    /// Type readers: name and version.
    pub readers: Vec<(String, i32)>,
    /// The primary object's reader name (empty for a null object).
    pub reader: String,
    /// The primary object's data (after its reader index).
    pub object: Vec<u8>,
}

/// Whether `bytes` start like an XNB file.
pub fn is_xnb(bytes: &[u8]) -> bool {
    bytes.len() >= 10 && bytes.starts_with(MAGIC) && bytes[3].is_ascii_alphabetic()
}

fn err<T>(offset: usize, what: impl Into<String>) -> Result<T, XnbError> {
    Err(XnbError {
        offset,
        what: what.into(),
    })
}

fn u32_at(b: &[u8], at: usize) -> Option<u32> {
    let s = b.get(at..at.checked_add(4)?)?;
    Some(u32::from_le_bytes([s[0], s[1], s[2], s[3]]))
}

/// Decompresses XNA's LZX framing: blocks of `hi lo` compressed size (frame 0x8000),
/// or `0xFF`, frame size, block size.
fn lzx(data: &[u8], base: usize, out_len: usize) -> Result<Vec<u8>, XnbError> {
    let mut dec = lzxd::Lzxd::new(lzxd::WindowSize::KB64);
    let mut out = Vec::with_capacity(out_len);
    let mut at = 0;
    while at < data.len() && out.len() < out_len {
        let byte = |i: usize| -> Result<usize, XnbError> {
            data.get(i).map(|&b| b as usize).ok_or_else(|| XnbError {
                offset: base + i,
                what: "truncated LZX block header".into(),
            })
        };
        let (frame, block) = if byte(at)? == 0xFF {
            let f = byte(at + 1)? << 8 | byte(at + 2)?;
            let b = byte(at + 3)? << 8 | byte(at + 4)?;
            at += 5;
            (f, b)
        } else {
            let b = byte(at)? << 8 | byte(at + 1)?;
            at += 2;
            (0x8000, b)
        };
        if block == 0 || frame == 0 {
            break;
        }
        let Some(chunk) = data.get(at..at + block) else {
            return err(
                base + at,
                format!("LZX block of {block} bytes runs past the end"),
            );
        };
        let frame = frame.min(out_len - out.len()).min(lzxd::MAX_CHUNK_SIZE);
        let got = dec.decompress_next(chunk, frame).map_err(|e| XnbError {
            offset: base + at,
            what: format!("LZX: {e}"),
        })?;
        out.extend_from_slice(got);
        at += block;
    }
    if out.len() != out_len {
        return err(
            base,
            format!(
                "LZX content decompresses to {} bytes, the header says {out_len}",
                out.len()
            ),
        );
    }
    Ok(out)
}

/// A 7-bit-encoded int (.NET `Read7BitEncodedInt`).
fn int7(b: &[u8], at: &mut usize) -> Option<u32> {
    let mut v = 0u32;
    for shift in (0..35).step_by(7) {
        let x = *b.get(*at)?;
        *at += 1;
        v |= u32::from(x & 0x7F).checked_shl(shift)?;
        if x & 0x80 == 0 {
            return Some(v);
        }
    }
    None
}

impl Xnb {
    /// Parses a content file (decompressing it when it says so).
    pub fn parse(bytes: &[u8]) -> Result<Xnb, XnbError> {
        if !is_xnb(bytes) {
            return err(0, "not an XNA content file (no `XNB` magic)");
        }
        let (platform, version, flags) = (bytes[3], bytes[4], bytes[5]);
        let size = u32_at(bytes, 6).unwrap_or(0) as usize;
        if size > bytes.len() || size < 10 {
            return err(
                6,
                format!("the header says {size} bytes, the file has {}", bytes.len()),
            );
        }
        let bytes = &bytes[..size];
        let content: Vec<u8> = if flags & (FLAG_LZX | FLAG_LZ4) != 0 {
            let out_len = u32_at(bytes, 10).ok_or_else(|| XnbError {
                offset: 10,
                what: "truncated: no decompressed size".into(),
            })? as usize;
            let data = &bytes[14.min(bytes.len())..];
            if out_len > max_decompressed(data.len()) {
                return err(
                    10,
                    format!(
                        "decompressed size {out_len} is out of proportion to {} compressed bytes",
                        data.len()
                    ),
                );
            }
            if flags & FLAG_LZX != 0 {
                lzx(data, 14, out_len)?
            } else {
                lz4_flex::block::decompress(data, out_len).map_err(|e| XnbError {
                    offset: 14,
                    what: format!("LZ4: {e}"),
                })?
            }
        } else {
            bytes[10..].to_vec()
        };
        let c = &content;
        let cerr = |at: usize, what: &str| XnbError {
            offset: at,
            what: format!("content byte {at:#x}: {what}"),
        };
        let mut at = 0;
        let n = int7(c, &mut at).ok_or_else(|| cerr(at, "truncated reader count"))? as usize;
        if n > c.len() / 5 + 1 {
            return Err(cerr(0, &format!("{n} type readers in {} bytes", c.len())));
        }
        let mut readers = Vec::with_capacity(n);
        for _ in 0..n {
            let len = int7(c, &mut at).ok_or_else(|| cerr(at, "truncated reader name"))? as usize;
            let name = c
                .get(at..at.saturating_add(len))
                .ok_or_else(|| cerr(at, "reader name runs past the end"))?;
            at += len;
            let version = u32_at(c, at).ok_or_else(|| cerr(at, "truncated reader version"))?;
            at += 4;
            readers.push((String::from_utf8_lossy(name).into_owned(), version as i32));
        }
        let _shared = int7(c, &mut at).ok_or_else(|| cerr(at, "truncated shared count"))?;
        let index = int7(c, &mut at).ok_or_else(|| cerr(at, "truncated object"))? as usize;
        let reader = match index {
            0 => String::new(),
            i => readers
                .get(i - 1)
                .map(|r| r.0.clone())
                .ok_or_else(|| cerr(at, &format!("object reader {i} of {n}")))?,
        };
        Ok(Xnb {
            platform,
            version,
            flags,
            readers,
            reader,
            object: c[at.min(c.len())..].to_vec(),
        })
    }

    /// The effect bytes of an effect content file (`EffectReader`): the XNA-wrapped or
    /// bare `fx_2_0` effect.
    pub fn effect(&self) -> Result<&[u8], XnbError> {
        // `Microsoft.Xna.Framework.Content.EffectReader, Microsoft.Xna.Framework.Graphics, …`
        let name = self.reader.split(',').next().unwrap_or("");
        if !name.ends_with("EffectReader") {
            return err(
                0,
                format!(
                    "the content is a {} object, not an effect (EffectReader)",
                    if name.is_empty() { "null" } else { name }
                ),
            );
        }
        let n = u32_at(&self.object, 0).unwrap_or(0) as usize;
        let Some(fx) = self.object.get(4..4usize.saturating_add(n)) else {
            return err(
                0,
                format!(
                    "effect of {n} bytes in {} bytes of content",
                    self.object.len().saturating_sub(4)
                ),
            );
        };
        if fx.starts_with(b"MGFX") {
            return err(
                0,
                "a MonoGame effect (MGFX): it holds no Direct3D 9 bytecode (XNA and FNA \
                 effects do)",
            );
        }
        if !crate::fx::Effect::is_effect(fx) {
            return err(0, "the EffectReader data is not an fx_2_0 effect");
        }
        Ok(fx)
    }
}

/// The effect inside `.xnb` bytes, or `None` when `bytes` are not an XNB file.
pub fn effect_of(bytes: &[u8]) -> Option<Result<Vec<u8>, XnbError>> {
    if !is_xnb(bytes) {
        return None;
    }
    Some(Xnb::parse(bytes).and_then(|x| x.effect().map(<[u8]>::to_vec)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An uncompressed XNB around `fx` with XNA's EffectReader.
    pub(crate) fn wrap(fx: &[u8]) -> Vec<u8> {
        let reader = b"Microsoft.Xna.Framework.Content.EffectReader, Microsoft.Xna.Framework.Graphics, Version=4.0.0.0";
        let mut c = vec![
            1,
            reader.len() as u8 & 0x7F | 0x80,
            (reader.len() >> 7) as u8,
        ];
        c.extend_from_slice(reader);
        c.extend_from_slice(&0i32.to_le_bytes());
        c.push(0);
        c.push(1);
        c.extend_from_slice(&(fx.len() as u32).to_le_bytes());
        c.extend_from_slice(fx);
        let mut out = b"XNBw\x05\x01".to_vec();
        out.extend_from_slice(&((c.len() + 10) as u32).to_le_bytes());
        out.extend(c);
        out
    }

    #[test]
    fn reads_an_uncompressed_effect_and_refuses_the_rest() {
        let fx = [0x01, 0x09, 0xFF, 0xFE, 8, 0, 0, 0, 0, 0, 0, 0];
        let x = wrap(&fx);
        assert_eq!(effect_of(&x).unwrap().unwrap(), fx);
        // Truncations at every byte: errors, never panics.
        for n in 0..x.len() {
            let _ = effect_of(&x[..n]);
        }
        let mut mg = x.clone();
        let at = mg.len() - fx.len();
        mg[at..at + 4].copy_from_slice(b"MGFX");
        assert!(effect_of(&mg)
            .unwrap()
            .unwrap_err()
            .what
            .contains("MonoGame"));
        // A compressed size out of proportion is refused before allocating.
        let mut big = b"XNBw\x05\x80\x0e\x00\x00\x00\xff\xff\xff\x7f".to_vec();
        big.extend_from_slice(&[0; 4]);
        big[6] = big.len() as u8;
        assert!(Xnb::parse(&big)
            .unwrap_err()
            .what
            .contains("out of proportion"));
    }
}
