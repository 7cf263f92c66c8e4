//! fxc `/Fh` C headers: every `TYPE name[] = { … };` array of bytes or DWORDs, the
//! listing inside `#if 0 … #endif` and comments skipped.

use super::{le_words, Found, InputError};

/// Strips `//` and `/* */` comments (keeping newlines so line numbers stay right).
pub(super) fn strip_c_comments(text: &str) -> String {
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
pub(super) fn c_arrays(text: &str) -> Result<Vec<Found>, InputError> {
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
            container: None,
        });
        consumed += eq + 2 + open + close + 1;
        rest = &clean_lines[consumed..];
    }
    Ok(found)
}
