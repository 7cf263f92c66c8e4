//! Hex text: `0x`-prefixed DWORDs (`0xfffe0101, 0x00000001`), bare 8-digit DWORDs, or a
//! plain byte dump (`0101feff…`).

use super::{le_words, looks_like_version, InputError};

/// Hex text: `0x`-prefixed DWORDs, bare 8-digit DWORDs, or a byte dump.
pub(super) fn hex_text(text: &str) -> Result<Option<Vec<u32>>, InputError> {
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
