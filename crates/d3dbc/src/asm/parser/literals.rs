//! The `def`, `defi` and `defb` values: floats converted as the C runtime's `atof`
//! then a cast to `float`, integers, booleans.

use super::cursor::{eq_ic, Cur};
use super::{err, LResult};

/// A `def` value: `[-] digits [. digits] [e[+-]digits] [f]`; converted like the C
/// runtime's `atof` followed by a cast to `float` (correct rounding to double, then to
/// single precision).
pub(super) fn parse_float(cur: &mut Cur) -> LResult<u32> {
    cur.ws();
    let start = cur.pos;
    let neg = cur.eat(b'-');
    if neg {
        cur.ws();
    }
    let ns = cur.pos;
    // The MSVC runtime's spellings, as `dis` prints infinities and NaNs (`1.#INF`,
    // `-1.#INF`, `1.#QNAN`, `-1.#IND`), so every listing reassembles.
    if cur.s[ns..].starts_with(b"1.#") {
        let rest = &cur.s[ns + 3..];
        let upper = |w: &[u8]| rest.len() >= w.len() && rest[..w.len()].eq_ignore_ascii_case(w);
        let special = [
            (&b"INF"[..], 0x7f80_0000u32),
            (b"QNAN", 0x7fc0_0000),
            (b"SNAN", 0x7f80_0001),
            (b"IND", 0x7fc0_0000),
        ]
        .into_iter()
        .find(|(w, _)| upper(w));
        if let Some((w, bits)) = special {
            cur.pos = ns + 3 + w.len();
            cur.take_while(|c| c == b'0');
            return Ok(if neg { bits | 0x8000_0000 } else { bits });
        }
    }
    let (_, ie) = cur.take_while(|c| c.is_ascii_digit());
    let mut digits = ie - ns;
    if cur.eat(b'.') {
        let (fs, fe) = cur.take_while(|c| c.is_ascii_digit());
        digits += fe - fs;
    }
    if digits == 0 {
        let e = cur.pos.max(start + 1).min(cur.s.len().max(start + 1));
        return err(start, e, "expected a number");
    }
    if matches!(cur.peek(), Some(b'e' | b'E')) {
        let save = cur.pos;
        cur.pos += 1;
        if matches!(cur.peek(), Some(b'+' | b'-')) {
            cur.pos += 1;
        }
        let (es, ee) = cur.take_while(|c| c.is_ascii_digit());
        if es == ee {
            cur.pos = save;
        }
    }
    let ne = cur.pos;
    if matches!(cur.peek(), Some(b'f' | b'F')) {
        cur.pos += 1;
    }
    if cur
        .peek()
        .is_some_and(|c| c.is_ascii_alphanumeric() || c == b'.' || c == b'_')
    {
        let (_, e) = cur.take_while(|c| !matches!(c, b',' | b' ' | b'\t'));
        return err(start, e, "invalid number");
    }
    let text = std::str::from_utf8(&cur.s[ns..ne]).unwrap_or("0");
    let v: f64 = match text.parse() {
        Ok(v) => v,
        Err(_) => return err(start, cur.pos, "invalid number"),
    };
    let f = v as f32;
    Ok(if neg { (-f).to_bits() } else { f.to_bits() })
}

/// A `defi` value: `[-] digits`, no fraction, no exponent, no `f`.
pub(super) fn parse_int(cur: &mut Cur) -> LResult<u32> {
    cur.ws();
    let start = cur.pos;
    let neg = cur.eat(b'-');
    if neg {
        cur.ws();
    }
    let (ns, ne) = cur.take_while(|c| c.is_ascii_digit());
    if ns == ne {
        return err(start, (cur.pos + 1).max(start + 1), "expected an integer");
    }
    if cur
        .peek()
        .is_some_and(|c| c.is_ascii_alphanumeric() || c == b'.' || c == b'_')
    {
        let (_, e) = cur.take_while(|c| !matches!(c, b',' | b' ' | b'\t'));
        return err(start, e, "`defi` takes integer values");
    }
    if ne - ns > 10 {
        return err(start, ne, "integer out of range");
    }
    let mut v: i64 = 0;
    for &d in &cur.s[ns..ne] {
        v = v * 10 + (d - b'0') as i64;
    }
    if neg {
        v = -v;
    }
    if v > i32::MAX as i64 || v < i32::MIN as i64 {
        return err(start, ne, "integer out of range");
    }
    Ok(v as i32 as u32)
}

/// A `defb` value: `true` or `false`.
pub(super) fn parse_bool(cur: &mut Cur) -> LResult<u32> {
    cur.ws();
    let (s, e) = cur.word();
    let w = &cur.s[s..e];
    if eq_ic(w, "true") {
        Ok(1)
    } else if eq_ic(w, "false") {
        Ok(0)
    } else {
        err(s, e.max(s + 1), "`defb` takes `true` or `false`")
    }
}
