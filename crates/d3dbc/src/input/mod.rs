//! The one reader every verb uses for shader bytecode, whatever container people keep
//! it in: raw token files (`.vso`, `.pso`, `.cso`), bgfx shader binaries
//! ([`bgfx`]: `VSH`/`FSH` header and uniform table before the bytecode), fxc `/Fh` C
//! headers (`fxc_header`: `const BYTE g_x[] = { … }` or `const DWORD g_x[] = { … }`),
//! and hex text (`hex`: DWORDs like `0xfffe0101, 0x00000001`, or a plain byte dump
//! like `0101feff…`). fx_2_0 effects and their XNA wrapper are read by
//! [`crate::fx::Effect`]. Anything else gets one sentence saying what it is
//! ([`sniff`]: DXBC, SPIR-V, shader source, …) or, where [`crate::rip`] finds shaders
//! inside it, how many and how to get them.
//!
//! A container reader is one module here and one arm in [`read_any`]: it returns the
//! shaders it holds as [`Found`]s, with what the container says beside the bytecode
//! in [`Found::container`].
//!
//! Text may be UTF-8 (with or without a byte-order mark) or UTF-16 (little- or
//! big-endian, as Windows PowerShell's `>` writes it): [`decode_text`] turns any of them
//! into a `str`, for this module and for the assembler's input alike.

pub mod xnb;

use std::borrow::Cow;

use crate::version::Version;

pub mod bgfx;
mod fxc_header;
mod hex;
pub mod sniff;

use fxc_header::{c_arrays, strip_c_comments};
use hex::hex_text;

/// One shader found in an input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    /// The array name for C headers (`g_ps20_main`), `None` otherwise.
    pub name: Option<String>,
    /// The token stream.
    pub tokens: Vec<u32>,
    /// The container the shader came in, with what it says beside the bytecode
    /// (`None` for raw bytecode, headers and hex).
    pub container: Option<Container>,
}

/// What a container holds beside the bytecode.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub enum Container {
    /// A bgfx shader binary's header and uniform table.
    Bgfx(bgfx::BgfxShader),
}

impl Container {
    /// The container's facts as `//` comment lines, for a listing to print first.
    pub fn comment(&self) -> String {
        match self {
            Container::Bgfx(b) => b.comment(),
        }
    }
}

/// Why an input holds no bytecode.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum InputError {
    /// Zero bytes.
    #[error("empty input")]
    Empty,
    /// Fewer bytes than one version token.
    #[error("input is {0} byte(s): too short to hold a version token")]
    TooShort(usize),
    /// Assembly text (a version statement like `vs_2_0`) given where bytecode is expected.
    #[error("this is assembly text: use `d3dbc asm` (or `d3dbc validate`)")]
    AssemblyText,
    /// Binary input whose length is not a multiple of 4.
    #[error("binary input is {0} bytes, not a multiple of 4")]
    ByteLength(usize),
    /// Text that is neither a C header with an array nor hex.
    #[error("no shader found: input is neither bytecode (first DWORD 0xFFFEmmnn/0xFFFFmmnn), a C array, nor hex DWORDs")]
    Unrecognized,
    /// A number in a C array or hex text that does not parse.
    #[error("line {line}: bad number `{text}` in {what}")]
    BadNumber {
        /// 1-based line.
        line: usize,
        /// The offending text.
        text: String,
        /// Where.
        what: &'static str,
    },
    /// A C `BYTE` array whose length is not a multiple of 4.
    #[error("array `{0}` has a byte count that is not a multiple of 4")]
    ArrayLength(String),
    /// A format d3dbc knows but does not read as a shader ([`sniff::what_is`]).
    #[error("this is {0}")]
    NotD3d9(String),
    /// A bgfx shader binary that cannot be read, or whose code is another renderer's.
    #[error("{0}")]
    Bgfx(String),
    /// No shader at the start, but [`crate::rip::scan`] finds some inside.
    #[error("no shader at offset 0; `d3dbc rip FILE` finds {} inside{what}", finds(*.shaders, *.effects))]
    FoundInside {
        /// Shaders found.
        shaders: usize,
        /// Effects found.
        effects: usize,
        /// What the file is, when [`sniff::what_is`] knows (`" (an XNA content file)"`).
        what: String,
    },
}

/// `2 shaders`, `1 effect`, `3 shaders and 1 effect`.
fn finds(shaders: usize, effects: usize) -> String {
    let n = |k: usize, what: &str| format!("{k} {what}{}", if k == 1 { "" } else { "s" });
    match (shaders, effects) {
        (s, 0) => n(s, "shader"),
        (0, e) => n(e, "effect"),
        (s, e) => format!("{} and {}", n(s, "shader"), n(e, "effect")),
    }
}

fn looks_like_version(t: u32) -> bool {
    Version::from_token(t).is_some() || matches!(t >> 16, 0xFFFE | 0xFFFF)
}

fn le_words(bytes: &[u8]) -> Vec<u32> {
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

/// Decodes text input: UTF-8 (a leading byte-order mark `EF BB BF` is dropped), or
/// UTF-16LE/BE (with its mark `FF FE`/`FE FF`, or without one when the text is plainly
/// ASCII in 16-bit units). Invalid sequences become U+FFFD; never fails.
///
/// ```
/// use d3dbc::input::decode_text;
/// assert_eq!(decode_text(b"\xEF\xBB\xBFvs_2_0"), "vs_2_0");
/// let utf16le: Vec<u8> = [0xFF, 0xFE].into_iter()
///     .chain("ps_2_0".encode_utf16().flat_map(|u| u.to_le_bytes())).collect();
/// assert_eq!(decode_text(&utf16le), "ps_2_0");
/// ```
pub fn decode_text(bytes: &[u8]) -> Cow<'_, str> {
    if let Some(rest) = bytes.strip_prefix(b"\xEF\xBB\xBF") {
        return String::from_utf8_lossy(rest);
    }
    match utf16_order(bytes) {
        Some((body, big)) => {
            let units = body.chunks(2).map(|c| {
                let pair = [c[0], c.get(1).copied().unwrap_or(0)];
                if big {
                    u16::from_be_bytes(pair)
                } else {
                    u16::from_le_bytes(pair)
                }
            });
            Cow::Owned(
                char::decode_utf16(units)
                    .map(|r| r.unwrap_or(char::REPLACEMENT_CHARACTER))
                    .collect(),
            )
        }
        None => String::from_utf8_lossy(bytes),
    }
}

/// UTF-16 body and byte order (`true` = big-endian), when the input is UTF-16.
fn utf16_order(bytes: &[u8]) -> Option<(&[u8], bool)> {
    if let Some(rest) = bytes.strip_prefix(&[0xFF, 0xFE]) {
        return Some((rest, false));
    }
    if let Some(rest) = bytes.strip_prefix(&[0xFE, 0xFF]) {
        return Some((rest, true));
    }
    // No mark: ASCII text in 16-bit units has a zero in every other byte.
    let head = &bytes[..bytes.len().min(64) & !1];
    if head.len() < 4 {
        return None;
    }
    let zeros_at = |odd: usize| {
        head.chunks(2)
            .all(|c| c[odd] == 0 && c[1 - odd] != 0 && c[1 - odd] < 0x80)
    };
    if zeros_at(1) {
        Some((bytes, false))
    } else if zeros_at(0) {
        Some((bytes, true))
    } else {
        None
    }
}

/// True when the input is not text: after [`decode_text`], it holds NUL bytes or other
/// control characters beyond tabs, line breaks and form feeds.
pub fn is_binary(bytes: &[u8]) -> bool {
    let text = decode_text(bytes);
    let controls = text
        .chars()
        .filter(|&c| c.is_control() && !matches!(c, '\t' | '\n' | '\r' | '\x0c'))
        .count();
    text.contains('\0') || controls * 20 > text.chars().count().max(1)
}

/// True when text starts (after comments and blank lines) with a version statement
/// such as `vs_2_0`, `ps.1.4` or `vs_3_sw`: assembly source, not bytecode.
pub fn looks_like_assembly(text: &str) -> bool {
    text.lines()
        .map(|l| {
            let l = l.split("//").next().unwrap_or("");
            l.split(';').next().unwrap_or("").trim()
        })
        .find(|l| !l.is_empty())
        .is_some_and(|l| {
            let w = l
                .split(|c: char| c.is_whitespace())
                .next()
                .unwrap_or("")
                .to_ascii_lowercase();
            (w.starts_with("vs") || w.starts_with("ps"))
                && matches!(w.as_bytes().get(2), Some(b'_' | b'.'))
                && w.as_bytes().get(3).is_some_and(|b| b.is_ascii_digit())
        })
}

/// Finds the shaders in an input of any supported kind.
///
/// Raw bytecode is recognised by its version token; anything else is read as text
/// ([`decode_text`]: UTF-8 with or without a BOM, UTF-16) holding C arrays or hex.
///
/// ```
/// use d3dbc::input::{read_any, InputError};
/// let raw: Vec<u8> = [0xFFFE0101u32, 0x0000FFFF].iter().flat_map(|t| t.to_le_bytes()).collect();
/// assert_eq!(read_any(&raw).unwrap()[0].tokens, [0xFFFE0101, 0x0000FFFF]);
/// let header = b"const DWORD g_vs[] = { 0xfffe0101, 0x0000ffff };";
/// assert_eq!(read_any(header).unwrap()[0].name.as_deref(), Some("g_vs"));
/// assert_eq!(read_any(b"// a.asm\n0xfffe0101, 0x0000ffff\n").unwrap()[0].tokens, [0xFFFE0101, 0x0000FFFF]);
/// assert_eq!(read_any(b"vs_1_1\nmov oPos, v0\n"), Err(InputError::AssemblyText));
/// assert_eq!(read_any(b""), Err(InputError::Empty));
/// ```
pub fn read_any(bytes: &[u8]) -> Result<Vec<Found>, InputError> {
    if bytes.is_empty() {
        return Err(InputError::Empty);
    }
    if bytes.len() >= 4
        && looks_like_version(u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]))
    {
        if !bytes.len().is_multiple_of(4) {
            return Err(InputError::ByteLength(bytes.len()));
        }
        return Ok(vec![Found {
            name: None,
            tokens: le_words(bytes),
            container: None,
        }]);
    }
    if bytes.len() < 4 {
        return Err(InputError::TooShort(bytes.len()));
    }
    if bgfx::is_bgfx(bytes) {
        return read_bgfx(
            bytes,
            bgfx::parse(bytes).map_err(|e| InputError::Bgfx(e.to_string()))?,
        );
    }
    if let Some(b) = bgfx::parse_headerless(bytes) {
        return read_bgfx(bytes, b);
    }
    if is_binary(bytes) {
        return Err(not_a_shader(bytes));
    }
    let text = decode_text(bytes);
    let arrays = c_arrays(&text)?;
    if !arrays.is_empty() {
        return Ok(arrays);
    }
    // Hex text may carry `//` comments: the `// NAME` headers `asm --format hex` writes
    // before each of several outputs.
    if let Some(tokens) = hex_text(&strip_c_comments(&text))? {
        return Ok(vec![Found {
            name: None,
            tokens,
            container: None,
        }]);
    }
    if looks_like_assembly(&text) {
        return Err(InputError::AssemblyText);
    }
    Err(not_a_shader(bytes))
}

/// The Direct3D 9 code of a bgfx binary, or what the code is when another renderer's.
fn read_bgfx(bytes: &[u8], b: bgfx::BgfxShader) -> Result<Vec<Found>, InputError> {
    let code = &bytes[b.code_offset..b.code_offset + b.code_size];
    let token = code
        .get(..4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]));
    if !token.is_some_and(looks_like_version) || !code.len().is_multiple_of(4) {
        let what = sniff::what_is(code)
            .map(|w| format!("its code is {}", w.split(':').next().unwrap_or(&w)))
            .unwrap_or_else(|| "its code is not Direct3D 9 bytecode".into());
        return Err(InputError::Bgfx(format!(
            "a bgfx shader binary for another renderer: {what}; d3dbc reads the Direct3D 9 \
             renderer's (shaderc --platform windows -p vs_3_0/ps_3_0, bgfx's shaders/dx9/*.bin)"
        )));
    }
    Ok(vec![Found {
        name: None,
        tokens: le_words(code),
        container: Some(Container::Bgfx(b)),
    }])
}

/// Why bytes hold no shader d3dbc reads: what they are, or how many shaders `rip`
/// finds inside them.
fn not_a_shader(bytes: &[u8]) -> InputError {
    let what = sniff::what_is(bytes);
    let finds = crate::rip::scan(bytes);
    let effects = finds
        .iter()
        .filter(|f| f.kind == crate::rip::Kind::Effect)
        .count();
    let shaders = finds.len() - effects;
    if !finds.is_empty() {
        return InputError::FoundInside {
            shaders,
            effects,
            what: what
                .map(|w| format!(" ({})", w.split(':').next().unwrap_or(&w)))
                .unwrap_or_default(),
        };
    }
    match what {
        Some(w) => InputError::NotD3d9(w),
        None => InputError::Unrecognized,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detects_each_container() {
        let raw: Vec<u8> = [0xFFFE0101u32, 0x0000FFFF]
            .iter()
            .flat_map(|t| t.to_le_bytes())
            .collect();
        assert_eq!(read_any(&raw).unwrap()[0].tokens, vec![0xFFFE0101, 0xFFFF]);
        let hdr = b"#if 0\n    vs_1_1\n#endif\n\nconst BYTE g_vs[] =\n{\n      1,   1, 254, 255, 255, 255,\n      0,   0\n};\n";
        let f = read_any(hdr).unwrap();
        assert_eq!(f[0].name.as_deref(), Some("g_vs"));
        assert_eq!(f[0].tokens, vec![0xFFFE0101, 0xFFFF]);
        let dw = b"const DWORD g_ps[] = { 0xffff0200, 0x0000ffff };";
        assert_eq!(read_any(dw).unwrap()[0].tokens, vec![0xFFFF0200, 0xFFFF]);
        assert_eq!(
            read_any(b"0xfffe0101, 0x0000ffff\n").unwrap()[0].tokens,
            vec![0xFFFE0101, 0xFFFF]
        );
        assert_eq!(
            read_any(b"fffe0101 0000ffff").unwrap()[0].tokens,
            vec![0xFFFE0101, 0xFFFF]
        );
        assert_eq!(
            read_any(b"0101feffffff0000").unwrap()[0].tokens,
            vec![0xFFFE0101, 0xFFFF]
        );
        assert!(read_any(b"hello world").is_err());
        // BOMs and UTF-16 around a C array.
        let mut bom = b"\xEF\xBB\xBF".to_vec();
        bom.extend_from_slice(dw);
        assert_eq!(read_any(&bom).unwrap()[0].tokens, vec![0xFFFF0200, 0xFFFF]);
        let text = std::str::from_utf8(dw).unwrap();
        for big in [false, true] {
            for mark in [true, false] {
                let mut b: Vec<u8> = Vec::new();
                let unit = |u: u16| {
                    if big {
                        u.to_be_bytes()
                    } else {
                        u.to_le_bytes()
                    }
                };
                if mark {
                    b.extend(unit(0xFEFF));
                }
                b.extend(text.encode_utf16().flat_map(unit));
                assert_eq!(read_any(&b).unwrap()[0].tokens, vec![0xFFFF0200, 0xFFFF]);
            }
        }
        assert_eq!(read_any(b"\x01\x02"), Err(InputError::TooShort(2)));
        assert_eq!(read_any(b"// x\n  ps.1.4\n"), Err(InputError::AssemblyText));
        assert!(is_binary(b"abc\0def") && !is_binary(b"mov r0, r1\r\n\tnop\n"));
        assert!(matches!(
            read_any(b"0xzz"),
            Err(InputError::BadNumber { .. })
        ));
    }
}
