//! Reading bytecode from the containers people keep it in: raw token files (`.vso`,
//! `.pso`, `.cso`), fxc `/Fh` C headers (`const BYTE g_x[] = { … }` or
//! `const DWORD g_x[] = { … }`), and hex text (DWORDs like `0xfffe0101, 0x00000001`,
//! or a plain byte dump like `0101feff…`).
//!
//! Text may be UTF-8 (with or without a byte-order mark) or UTF-16 (little- or
//! big-endian, as Windows PowerShell's `>` writes it): [`decode_text`] turns any of them
//! into a `str`, for this module and for the assembler's input alike.

pub mod xnb;

use std::borrow::Cow;

use crate::version::Version;

/// One shader found in an input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    /// The array name for C headers (`g_ps20_main`), `None` otherwise.
    pub name: Option<String>,
    /// The token stream.
    pub tokens: Vec<u32>,
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
        }]);
    }
    if bytes.len() < 4 {
        return Err(InputError::TooShort(bytes.len()));
    }
    if is_binary(bytes) {
        return Err(InputError::Unrecognized);
    }
    let text = decode_text(bytes);
    let arrays = c_arrays(&text)?;
    if !arrays.is_empty() {
        return Ok(arrays);
    }
    // Hex text may carry `//` comments: the `// NAME` headers `asm --format hex` writes
    // before each of several outputs.
    if let Some(tokens) = hex_text(&strip_c_comments(&text))? {
        return Ok(vec![Found { name: None, tokens }]);
    }
    if looks_like_assembly(&text) {
        return Err(InputError::AssemblyText);
    }
    Err(InputError::Unrecognized)
}

/// Strips `//` and `/* */` comments (keeping newlines so line numbers stay right).
fn strip_c_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'/' && b.get(i + 1) == Some(&b'/') {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if b[i] == b'/' && b.get(i + 1) == Some(&b'*') {
            i += 2;
            while i < b.len() && !(b[i] == b'*' && b.get(i + 1) == Some(&b'/')) {
                if b[i] == b'\n' {
                    out.push('\n');
                }
                i += 1;
            }
            i += 2;
        } else {
            let ch = text[i..].chars().next().unwrap_or(' ');
            out.push(ch);
            i += ch.len_utf8();
        }
    }
    out
}

fn parse_c_number(s: &str) -> Option<u64> {
    let s = s.trim().trim_end_matches(['u', 'U', 'l', 'L']);
    if let Some(h) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        u64::from_str_radix(h, 16).ok()
    } else {
        s.parse().ok()
    }
}

/// Every `TYPE name[] = { … };` array of BYTE/DWORD-like element type in a C source.
fn c_arrays(text: &str) -> Result<Vec<Found>, InputError> {
    // `#if 0 … #endif` holds fxc's listing; comments may hold anything.
    let clean = strip_c_comments(text);
    let mut clean_lines = String::with_capacity(clean.len());
    let mut skip = 0usize;
    for line in clean.lines() {
        let t = line.trim_start();
        if t.starts_with("#if 0") || (skip > 0 && t.starts_with("#if")) {
            skip += 1;
        } else if skip > 0 && t.starts_with("#endif") {
            skip -= 1;
            clean_lines.push('\n');
            continue;
        }
        if skip == 0 && !t.starts_with('#') {
            clean_lines.push_str(line);
        }
        clean_lines.push('\n');
    }
    let mut found = Vec::new();
    let mut rest = clean_lines.as_str();
    let mut consumed = 0usize;
    while let Some(eq) = rest.find("[]") {
        let head = &rest[..eq];
        let after = &rest[eq + 2..];
        let decl_start = head.rfind([';', '}', '{']).map_or(0, |p| p + 1);
        let decl = head[decl_start..].split_whitespace().collect::<Vec<_>>();
        let after_trim = after.trim_start();
        let (Some(name), true) = (decl.last(), after_trim.starts_with('=')) else {
            consumed += eq + 2;
            rest = &clean_lines[consumed..];
            continue;
        };
        let elem_bytes = if decl.iter().any(|w| {
            matches!(
                *w,
                "BYTE" | "unsigned char" | "uint8_t" | "char" | "UCHAR" | "u8"
            )
        }) || decl
            .windows(2)
            .any(|w| w[0] == "unsigned" && w[1] == "char")
        {
            1
        } else {
            4
        };
        let Some(open) = after.find('{') else { break };
        let Some(close) = after[open..].find('}') else {
            break;
        };
        let body = &after[open + 1..open + close];
        let line0 = clean_lines[..consumed + eq + 2 + open]
            .matches('\n')
            .count()
            + 1;
        let mut values = Vec::new();
        for (k, body_line) in body.split('\n').enumerate() {
            for item in body_line.split(',') {
                let item = item.trim();
                if item.is_empty() {
                    continue;
                }
                let v = parse_c_number(item).ok_or_else(|| InputError::BadNumber {
                    line: line0 + k,
                    text: item.to_string(),
                    what: "C array",
                })?;
                values.push(v);
            }
        }
        let tokens = if elem_bytes == 1 {
            if values.len() % 4 != 0 {
                return Err(InputError::ArrayLength(name.to_string()));
            }
            let bytes: Vec<u8> = values.iter().map(|&v| v as u8).collect();
            le_words(&bytes)
        } else {
            values.iter().map(|&v| v as u32).collect()
        };
        found.push(Found {
            name: Some(name.to_string()),
            tokens,
        });
        consumed += eq + 2 + open + close + 1;
        rest = &clean_lines[consumed..];
    }
    Ok(found)
}

/// Hex text: `0x`-prefixed DWORDs, bare 8-digit DWORDs, or a byte dump.
fn hex_text(text: &str) -> Result<Option<Vec<u32>>, InputError> {
    let words: Vec<(usize, &str)> = text
        .lines()
        .enumerate()
        .flat_map(|(i, l)| {
            l.split([' ', '\t', ',', '\r', ';'])
                .filter(|w| !w.is_empty())
                .map(move |w| (i + 1, w))
        })
        .collect();
    if words.is_empty() {
        return Ok(None);
    }
    let all_hex = |w: &str| !w.is_empty() && w.bytes().all(|b| b.is_ascii_hexdigit());
    if words
        .iter()
        .all(|(_, w)| w.starts_with("0x") || w.starts_with("0X"))
    {
        let mut out = Vec::with_capacity(words.len());
        for (line, w) in &words {
            let v = u32::from_str_radix(&w[2..], 16).map_err(|_| InputError::BadNumber {
                line: *line,
                text: w.to_string(),
                what: "hex DWORDs",
            })?;
            out.push(v);
        }
        return Ok(Some(out));
    }
    if !words.iter().all(|(_, w)| all_hex(w)) {
        return Ok(None);
    }
    // Bare 8-digit words printed as DWORDs (`fffe0101`), or one long byte dump.
    if words.iter().all(|(_, w)| w.len() == 8) {
        let dw: Vec<u32> = words
            .iter()
            .map(|(_, w)| u32::from_str_radix(w, 16).unwrap_or(0))
            .collect();
        if looks_like_version(dw[0]) {
            return Ok(Some(dw));
        }
    }
    let joined: String = words.iter().map(|(_, w)| *w).collect();
    if !joined.len().is_multiple_of(8) {
        return Ok(None);
    }
    let bytes: Vec<u8> = (0..joined.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&joined[i..i + 2], 16).unwrap_or(0))
        .collect();
    let tokens = le_words(&bytes);
    Ok(looks_like_version(tokens[0]).then_some(tokens))
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
