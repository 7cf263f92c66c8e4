//! Operands: register names and numbers, swizzles and write masks, relative
//! addressing, source modifiers and suffixes, and the destination operand.

use super::cursor::{eq_ic, Cur};
use super::statements::NameMods;
use super::{err, LResult, Parser};
use crate::asm::regs::RegName;
use crate::ir::{DstParam, RelAddr, MASK_ALL, SWIZZLE_IDENTITY};

/// A parsed swizzle or write mask: the components in order (0–3) and how many.
#[derive(Clone, Copy)]
pub(super) struct Components {
    pub(super) comps: [u8; 4],
    pub(super) len: u8,
}

impl Components {
    /// The swizzle byte, the last component replicated (`.xy` → `.xyyy`).
    pub(super) fn swizzle(self) -> u8 {
        let mut sw = 0u8;
        for i in 0..4 {
            let c = self.comps[(i as usize).min(self.len as usize - 1)];
            sw |= c << (2 * i);
        }
        sw
    }
}

/// Parses `.xyzw`/`.rgba` components after the dot (which must be at the cursor).
fn parse_components(cur: &mut Cur) -> LResult<Components> {
    let dot = cur.pos;
    cur.pos += 1;
    let (s, e) = cur.take_while(|c| c.is_ascii_alphanumeric());
    if s == e {
        return err(
            dot,
            dot + 1,
            "expected swizzle or write mask components after `.`",
        );
    }
    if e - s > 4 {
        return err(dot, e, "a swizzle or write mask has at most 4 components");
    }
    let mut comps = [0u8; 4];
    for (i, &c) in cur.s[s..e].iter().enumerate() {
        comps[i] = match c.to_ascii_lowercase() {
            b'x' | b'r' => 0,
            b'y' | b'g' => 1,
            b'z' | b'b' => 2,
            b'w' | b'a' => 3,
            _ => {
                return err(
                    s + i,
                    s + i + 1,
                    format!(
                        "invalid component `{}` (use x, y, z, w or r, g, b, a)",
                        c as char
                    ),
                )
            }
        };
    }
    Ok(Components {
        comps,
        len: (e - s) as u8,
    })
}

/// The address register inside `[...]`.
#[derive(Clone, Copy)]
pub(super) struct AddrReg {
    pub(super) name: RegName,
    pub(super) num: u32,
    pub(super) swizzle: Option<Components>,
    pub(super) start: usize,
    pub(super) end: usize,
}

/// A register operand as written.
#[derive(Clone, Copy)]
pub(super) struct RegRef {
    pub(super) name: RegName,
    pub(super) num: u32,
    /// `[...]` was present with an address register.
    pub(super) rel: Option<AddrReg>,
    pub(super) start: usize,
    pub(super) end: usize,
}

/// Parses a decimal number of at most 9 digits (register numbers, offsets).
fn small_number(cur: &mut Cur) -> LResult<u32> {
    let (s, e) = cur.take_while(|c| c.is_ascii_digit());
    if e - s > 9 {
        return err(s, e, "number too large");
    }
    let mut v = 0u32;
    for &d in &cur.s[s..e] {
        v = v * 10 + (d - b'0') as u32;
    }
    Ok(v)
}

/// Parses a register name with its number and optional `[...]` relative address.
fn parse_register(cur: &mut Cur) -> LResult<RegRef> {
    let start = cur.pos;
    let (ls, le) = cur.take_while(|c| c.is_ascii_alphabetic());
    if ls == le {
        let end = (cur.pos + 1).min(cur.s.len()).max(cur.pos);
        return err(start, end.max(start + 1), "expected a register");
    }
    let Some((name, fixed)) = RegName::lookup(&cur.s[ls..le]) else {
        let (_, e) = cur.word();
        return err(
            start,
            e,
            format!(
                "unknown register `{}`",
                String::from_utf8_lossy(&cur.s[start..e])
            ),
        );
    };
    let (ds, de) = (
        cur.pos,
        cur.s[cur.pos..]
            .iter()
            .take_while(|c| c.is_ascii_digit())
            .count()
            + cur.pos,
    );
    let has_digits = de > ds;
    let mut num = 0;
    if let Some(n) = fixed {
        if has_digits {
            return err(
                start,
                de,
                format!("register `{}` takes no number", name.spelling()),
            );
        }
        num = n as u32;
    } else if has_digits {
        num = small_number(cur)?;
    }
    let mut r = RegRef {
        name,
        num,
        rel: None,
        start,
        end: cur.pos,
    };
    if cur.peek() == Some(b'[') {
        parse_index(cur, &mut r, fixed.is_some(), has_digits)?;
    } else if fixed.is_none() && !has_digits {
        return err(
            start,
            cur.pos,
            format!("register `{}` needs a number", name.spelling()),
        );
    }
    r.end = cur.pos;
    Ok(r)
}

/// The `[...]` after a register name: the address register and the offset (added to
/// the number before the bracket). Also reached after a source modifier the listing
/// prints between the name and the bracket (`c17_dz[a0.x]`).
fn parse_index(cur: &mut Cur, r: &mut RegRef, fixed: bool, has_digits: bool) -> LResult<()> {
    let open = cur.pos;
    cur.pos += 1;
    let mut addr: Option<AddrReg> = None;
    let mut offset = r.num;
    loop {
        cur.ws();
        match cur.peek() {
            Some(d) if d.is_ascii_digit() => {
                let ts = cur.pos;
                let v = small_number(cur)?;
                if matches!(cur.peek(), Some(b'.' | b'e' | b'E' | b'f')) {
                    let (_, e) = cur.take_while(|c| c.is_ascii_alphanumeric() || c == b'.');
                    return err(ts, e, "relative addressing takes integer offsets only");
                }
                offset = offset.saturating_add(v);
            }
            Some(c) if c.is_ascii_alphabetic() => {
                let rs = cur.pos;
                let (ls, le) = cur.take_while(|c| c.is_ascii_alphabetic());
                let found = RegName::lookup(&cur.s[ls..le]);
                let n = if cur.peek().is_some_and(|c| c.is_ascii_digit()) {
                    Some(small_number(cur)?)
                } else {
                    None
                };
                let (aname, anum) = match (found, n) {
                    (Some((RegName::Addr, None)), Some(n)) => (RegName::Addr, n),
                    (Some((RegName::Loop, Some(f))), None) => (RegName::Loop, f as u32),
                    // The file `a0` shares with `t#`, as a pixel-shader listing spells it
                    // (refused later unless raw).
                    (Some((RegName::Texture, None)), Some(n)) => (RegName::Texture, n),
                    _ => {
                        return err(
                            rs,
                            cur.pos,
                            format!(
                                "`{}` cannot be used as an address register (use a0 or aL)",
                                String::from_utf8_lossy(&cur.s[rs..cur.pos])
                            ),
                        )
                    }
                };
                if addr.is_some() {
                    return err(rs, cur.pos, "only one address register is allowed");
                }
                let swizzle = if cur.peek() == Some(b'.') {
                    Some(parse_components(cur)?)
                } else {
                    None
                };
                addr = Some(AddrReg {
                    name: aname,
                    num: anum,
                    swizzle,
                    start: rs,
                    end: cur.pos,
                });
            }
            Some(b'-') => {
                return err(
                    cur.pos,
                    cur.pos + 1,
                    "`-` is not allowed in a relative address (only `+`)",
                )
            }
            _ => {
                return err(
                    cur.pos,
                    (cur.pos + 1).min(cur.s.len()).max(cur.pos + 1),
                    "expected an address register or integer offset",
                )
            }
        }
        cur.ws();
        if cur.eat(b'+') {
            continue;
        }
        if cur.eat(b']') {
            break;
        }
        if cur.peek() == Some(b'-') {
            return err(
                cur.pos,
                cur.pos + 1,
                "`-` is not allowed in a relative address (only `+`)",
            );
        }
        return err(
            open,
            cur.pos.max(open + 1),
            "expected `+` or `]` in relative address",
        );
    }
    r.num = offset;
    r.rel = addr;
    // `c4[2]`, `c[2 + 10]` are plain indices; only `c`, `v`, `o` take brackets
    // without an address register.
    if !r.name.number_optional_with_rel() && (r.rel.is_none() || fixed) {
        return err(
            r.start,
            cur.pos,
            format!(
                "register `{}` cannot be indexed with `[...]`",
                r.name.spelling()
            ),
        );
    }
    if r.rel.is_some() && !has_digits && !r.name.number_optional_with_rel() {
        return err(r.start, cur.pos, "register number missing");
    }
    Ok(())
}

/// Source-operand modifier as written.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Suffix {
    None,
    Bias,
    Bx2,
    X2,
    Dz,
    Dw,
    Abs,
}

pub(super) struct SrcParsed {
    pub(super) reg: RegRef,
    pub(super) neg: bool,
    pub(super) not: bool,
    pub(super) comp: bool,
    pub(super) suffix: Suffix,
    pub(super) suffix_span: (usize, usize),
    pub(super) swizzle: Option<Components>,
    pub(super) start: usize,
    pub(super) end: usize,
}

fn parse_suffix(cur: &mut Cur) -> LResult<(Suffix, (usize, usize))> {
    let s = cur.pos;
    cur.pos += 1; // '_'
    let (ws, we) = cur.take_while(|c| c.is_ascii_alphanumeric());
    let w = &cur.s[ws..we];
    let suf = if eq_ic(w, "bias") {
        Suffix::Bias
    } else if eq_ic(w, "bx2") {
        Suffix::Bx2
    } else if eq_ic(w, "x2") {
        Suffix::X2
    } else if eq_ic(w, "dz") || eq_ic(w, "db") {
        Suffix::Dz
    } else if eq_ic(w, "dw") || eq_ic(w, "da") {
        Suffix::Dw
    } else if eq_ic(w, "abs") {
        Suffix::Abs
    } else {
        return err(
            s,
            we.max(s + 1),
            format!(
                "unknown source modifier `{}`",
                String::from_utf8_lossy(&cur.s[s..we])
            ),
        );
    };
    Ok((suf, (s, we)))
}

pub(super) fn parse_src(cur: &mut Cur) -> LResult<SrcParsed> {
    cur.ws();
    let start = cur.pos;
    let mut neg = false;
    let mut not = false;
    let mut comp = false;
    if cur.eat(b'!') {
        not = true;
        cur.ws();
    }
    if cur.eat(b'-') {
        neg = true;
        cur.ws();
    }
    if cur.peek().is_some_and(|c| c.is_ascii_digit()) {
        let ns = cur.pos;
        let (_, ne) = cur.take_while(|c| c.is_ascii_digit() || c == b'.');
        let one = &cur.s[ns..ne] == b"1";
        cur.ws();
        if !one || !cur.eat(b'-') {
            return err(
                ns,
                ne,
                "invalid source modifier (only `1 - reg`, the complement, starts with a number)",
            );
        }
        comp = true;
        cur.ws();
    }
    let mut reg = parse_register(cur)?;
    let mut suffix = Suffix::None;
    let mut suffix_span = (0, 0);
    let mut swizzle = None;
    if cur.peek() == Some(b'_') {
        (suffix, suffix_span) = parse_suffix(cur)?;
    }
    if cur.peek() == Some(b'[') && suffix != Suffix::None && reg.rel.is_none() {
        // `c17_abs[a0.x].w`: the printer puts the modifier before the relative address.
        parse_index(cur, &mut reg, false, true)?;
        reg.end = cur.pos;
    }
    if cur.peek() == Some(b'.') {
        swizzle = Some(parse_components(cur)?);
    }
    if cur.peek() == Some(b'_') {
        if suffix != Suffix::None {
            return err(cur.pos, cur.pos + 1, "only one source modifier is allowed");
        }
        (suffix, suffix_span) = parse_suffix(cur)?;
    }
    Ok(SrcParsed {
        reg,
        neg,
        not,
        comp,
        suffix,
        suffix_span,
        swizzle,
        start,
        end: cur.pos,
    })
}
impl<'a> Parser<'a> {
    pub(super) fn rel_addr(&self, r: &RegRef) -> Option<RelAddr> {
        let version = self.version.expect("version");
        let a = r.rel?;
        if version.major == 1 {
            return Some(RelAddr::A0_X);
        }
        Some(RelAddr {
            reg: a.name.register(a.num),
            swizzle: a.swizzle.map_or(SWIZZLE_IDENTITY, |s| s.swizzle()),
        })
    }

    pub(super) fn parse_dst(&self, cur: &mut Cur, m: &NameMods) -> LResult<DstParam> {
        cur.ws();
        let start = cur.pos;
        if matches!(cur.peek(), Some(b'-' | b'!')) {
            return err(start, start + 1, "a destination takes no source modifiers");
        }
        let r = parse_register(cur)?;
        self.check_reg(&r)?;
        if r.name == RegName::Loop {
            return err(r.start, r.end, "`aL` cannot be written");
        }
        let mut mask = MASK_ALL;
        let empty_mask = cur
            .s
            .get(cur.pos + 1)
            .is_none_or(|c| !c.is_ascii_alphanumeric());
        if cur.peek() == Some(b'.') && empty_mask && self.raw {
            // `oPos.`: the printer's spelling of an empty write mask.
            cur.pos += 1;
            mask = 0;
        } else if cur.peek() == Some(b'.') {
            let ms = cur.pos;
            let c = parse_components(cur)?;
            let mut bits = 0u8;
            let mut last: i8 = -1;
            for &comp in &c.comps[..c.len as usize] {
                if comp as i8 <= last {
                    return err(
                        ms,
                        cur.pos,
                        "invalid write mask: components must be distinct and in x, y, z, w order",
                    );
                }
                last = comp as i8;
                bits |= 1 << comp;
            }
            mask = bits;
        }
        if cur.peek() == Some(b'_') {
            return err(
                cur.pos,
                cur.pos + 1,
                "a destination takes no source modifiers",
            );
        }
        Ok(DstParam {
            reg: r.name.register(r.num),
            rel: self.rel_addr(&r),
            mask,
            modifiers: m.modifiers,
            shift: m.shift.unwrap_or(0),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn swizzle_replicates_last_component() {
        let c = Components {
            comps: [0, 1, 0, 0],
            len: 2,
        };
        assert_eq!(c.swizzle(), 0b01_01_01_00);
    }
}
