//! The line parser: one assembly statement per line → one IR [`Item`], with the implicit
//! rules of Microsoft's assembler filled in (full write mask, identity swizzle,
//! replicated short swizzles, `dcl`/`def` token forms) and its per-version checks
//! (instruction ranges from the opcode table, register files, modifiers).
//!
//! Errors are collected per line; a bad line is skipped and parsing goes on.

use super::regs::{self, RegName};
use super::{Assembled, ItemSource, Span};
use crate::diag::{Diagnostic, Diagnostics};
use crate::ir::{
    DeclToken, DstParam, Instruction, Item, RelAddr, Shader, SrcParam, MASK_ALL, SWIZZLE_IDENTITY,
};
use crate::opcode::{modifiers, Opcode};
use crate::token::{
    result_modifier, texld_controls, Comparison, DeclUsage, SamplerType, SrcModifier,
};
use crate::version::Version;
use std::borrow::Cow;

/// At most this many diagnostics are kept; the rest are counted in a final message.
const MAX_DIAGNOSTICS: usize = 200;

/// A parse error inside one line: byte range and message.
struct LineError {
    start: usize,
    end: usize,
    msg: Cow<'static, str>,
}

type LResult<T> = Result<T, LineError>;

fn err<T>(start: usize, end: usize, msg: impl Into<Cow<'static, str>>) -> LResult<T> {
    Err(LineError {
        start,
        end,
        msg: msg.into(),
    })
}

/// A byte cursor over one line (comment already cut off).
struct Cur<'a> {
    s: &'a [u8],
    pos: usize,
}

impl<'a> Cur<'a> {
    fn ws(&mut self) {
        while self.pos < self.s.len()
            && matches!(self.s[self.pos], b' ' | b'\t' | b'\r' | 0x0B | 0x0C)
        {
            self.pos += 1;
        }
    }
    fn peek(&self) -> Option<u8> {
        self.s.get(self.pos).copied()
    }
    fn eat(&mut self, c: u8) -> bool {
        if self.peek() == Some(c) {
            self.pos += 1;
            true
        } else {
            false
        }
    }
    fn at_end(&self) -> bool {
        self.pos >= self.s.len()
    }
    /// `[A-Za-z0-9_]*` from the cursor.
    fn word(&mut self) -> (usize, usize) {
        let start = self.pos;
        while self.pos < self.s.len()
            && (self.s[self.pos].is_ascii_alphanumeric() || self.s[self.pos] == b'_')
        {
            self.pos += 1;
        }
        (start, self.pos)
    }
    fn take_while(&mut self, f: impl Fn(u8) -> bool) -> (usize, usize) {
        let start = self.pos;
        while self.pos < self.s.len() && f(self.s[self.pos]) {
            self.pos += 1;
        }
        (start, self.pos)
    }
}

/// The error for a version statement of shader model 4 or later (`vs_4_0`, `ps_5_0`,
/// `gs_4_1`, …) starting `code`: d3dbc reads shader models 1–3, and such a listing
/// (a Unity "level 9" dump holds one after the D3D9 listing) would otherwise give one
/// error per line.
fn later_model_listing(code: &str) -> Option<LineError> {
    let t = code.trim_start();
    let s = code.len() - t.len();
    let w = t
        .split(|c: char| c.is_whitespace())
        .next()
        .unwrap_or("")
        .to_ascii_lowercase();
    let b = w.as_bytes();
    let stage = matches!(&w.get(..2)?, &("vs" | "ps" | "gs" | "hs" | "ds" | "cs"));
    let major = *b.get(3)?;
    if !stage || !matches!(b.get(2), Some(b'_' | b'.')) || !(b'4'..=b'9').contains(&major) {
        return None;
    }
    if !matches!(b.get(4), Some(b'_' | b'.')) {
        return None;
    }
    Some(LineError {
        start: s,
        end: s + w.len(),
        msg: format!(
            "a shader model {} listing starts here (`{w}`): d3dbc reads shader models 1–3",
            major as char
        )
        .into(),
    })
}

/// The version statement a line of assembly starts with, if it is one: the word and
/// whether it names shader model 1–3 (`true`) or a later one (`false`). Comments and
/// blank lines are not version statements.
pub(crate) fn version_statement(line: &str) -> Option<(&str, bool)> {
    let code = strip_comment(line.strip_suffix('\r').unwrap_or(line));
    let t = code.trim_start();
    let word = t.split(|c: char| c.is_whitespace()).next().unwrap_or("");
    if word.is_empty() {
        return None;
    }
    if later_model_listing(t).is_some() {
        return Some((word, false));
    }
    word.parse::<Version>().is_ok().then_some((word, true))
}

/// Whether a line holds nothing but a comment or blanks.
pub(crate) fn is_blank_or_comment(line: &str) -> bool {
    strip_comment(line).bytes().all(|c| c.is_ascii_whitespace())
}

/// Cuts a `//` or `;` comment off a line.
fn strip_comment(line: &str) -> &str {
    let b = line.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b';' => return &line[..i],
            b'/' if b.get(i + 1) == Some(&b'/') => return &line[..i],
            _ => i += 1,
        }
    }
    line
}

fn eq_ic(a: &[u8], b: &str) -> bool {
    a.eq_ignore_ascii_case(b.as_bytes())
}

/// A parsed swizzle or write mask: the components in order (0–3) and how many.
#[derive(Clone, Copy)]
struct Components {
    comps: [u8; 4],
    len: u8,
}

impl Components {
    /// The swizzle byte, the last component replicated (`.xy` → `.xyyy`).
    fn swizzle(self) -> u8 {
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
struct AddrReg {
    name: RegName,
    num: u32,
    swizzle: Option<Components>,
    start: usize,
    end: usize,
}

/// A register operand as written.
#[derive(Clone, Copy)]
struct RegRef {
    name: RegName,
    num: u32,
    /// `[...]` was present with an address register.
    rel: Option<AddrReg>,
    start: usize,
    end: usize,
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
enum Suffix {
    None,
    Bias,
    Bx2,
    X2,
    Dz,
    Dw,
    Abs,
}

struct SrcParsed {
    reg: RegRef,
    neg: bool,
    not: bool,
    comp: bool,
    suffix: Suffix,
    suffix_span: (usize, usize),
    swizzle: Option<Components>,
    start: usize,
    end: usize,
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

fn parse_src(cur: &mut Cur) -> LResult<SrcParsed> {
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

/// Instruction-name suffixes (`_sat`, `_pp`, `_x2`, `_gt`, usages of `dcl`…).
#[derive(Default)]
struct NameMods {
    modifiers: u8,
    shift: Option<u8>,
    comparison: Option<Comparison>,
    /// Usage (the raw `D3DDECLUSAGE` field, 0–31) and usage index.
    usage: Option<(u8, u8)>,
    sampler: Option<SamplerType>,
}

/// What an operand slot expects.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Slot {
    Dst,
    Src,
    Float,
    Int,
    Bool,
}

/// Parses a whole text.
pub(crate) struct Parser<'a> {
    text: &'a str,
    version: Option<Version>,
    names: Vec<(&'static str, Opcode)>,
    items: Vec<Item>,
    sources: Vec<ItemSource>,
    files: Vec<String>,
    diags: Vec<Diagnostic>,
    dropped: usize,
    /// Current line's file index, 1-based line and text.
    cur_file: u32,
    cur_line: u32,
    cur_text: &'a str,
    cur_ascii: bool,
    /// `asm --raw`: accept what the token format can encode even where the version's
    /// grammar lacks it (register counts, co-issue, predication, modifiers), so that
    /// everything the printer writes reassembles. Off, the grammar of Microsoft's
    /// assembler holds, as it does under `D3DCOMPILE_SKIP_VALIDATION`.
    raw: bool,
}

impl<'a> Parser<'a> {
    pub(crate) fn new(text: &'a str) -> Self {
        Parser {
            text,
            version: None,
            names: Vec::new(),
            items: Vec::new(),
            sources: Vec::new(),
            files: Vec::new(),
            diags: Vec::new(),
            dropped: 0,
            cur_file: 0,
            cur_line: 0,
            cur_text: "",
            cur_ascii: true,
            raw: false,
        }
    }

    /// Accepts what the token format can encode even where `version` lacks it.
    pub(crate) fn raw(mut self, on: bool) -> Self {
        self.raw = on;
        self
    }

    fn file_index(&mut self, name: &str) -> u32 {
        if let Some(i) = self.files.iter().rposition(|f| f == name) {
            return i as u32;
        }
        self.files.push(name.to_string());
        (self.files.len() - 1) as u32
    }

    fn col(&self, byte: usize) -> u32 {
        let b = byte.min(self.cur_text.len());
        if self.cur_ascii {
            b as u32 + 1
        } else {
            let b = (0..=b)
                .rev()
                .find(|&i| self.cur_text.is_char_boundary(i))
                .unwrap_or(0);
            self.cur_text[..b].chars().count() as u32 + 1
        }
    }

    fn span(&self, s: usize, e: usize) -> Span {
        let col = self.col(s);
        let end = self.col(e.max(s));
        Span {
            col,
            len: end.saturating_sub(col).max(1),
        }
    }

    fn report(&mut self, e: LineError) {
        if self.diags.len() >= MAX_DIAGNOSTICS {
            self.dropped += 1;
            return;
        }
        let sp = self.span(e.start, e.end);
        let file = &self.files[self.cur_file as usize];
        self.diags.push(Diagnostic::error(
            file,
            self.cur_line,
            sp.col,
            sp.len,
            e.msg,
            self.cur_text,
        ));
    }

    /// Runs over every line. `origin(i)` maps 0-based line `i` of the text to its file
    /// and 1-based line (the preprocessor's line map); `None` means `default_file`, `i + 1`.
    pub(crate) fn run<'m>(
        mut self,
        default_file: &str,
        origin: &dyn Fn(usize) -> Option<(&'m str, u32)>,
    ) -> Result<Assembled, Diagnostics> {
        let default_idx = self.file_index(default_file);
        let text = self.text;
        for (i, raw) in text.split('\n').enumerate() {
            let line = raw.strip_suffix('\r').unwrap_or(raw);
            match origin(i) {
                Some((f, l)) => {
                    self.cur_file = self.file_index(f);
                    self.cur_line = l;
                }
                None => {
                    self.cur_file = default_idx;
                    self.cur_line = i as u32 + 1;
                }
            }
            self.cur_text = line;
            self.cur_ascii = line.is_ascii();
            let code = strip_comment(line);
            if code.bytes().all(|c| c.is_ascii_whitespace()) {
                continue;
            }
            if self.version.is_none() {
                if let Err(e) = self.version_line(code) {
                    // Without a version nothing after it can be checked: one error.
                    self.report(e);
                    break;
                }
            } else if let Some(e) = later_model_listing(code) {
                // A shader model 4+ listing after the D3D9 one (Unity "level 9" dumps
                // hold both): one clear error instead of one per line of it.
                self.report(e);
                break;
            } else if let Err(e) = self.statement(code, i as u32) {
                self.report(e);
            }
        }
        if self.version.is_none() && self.diags.is_empty() {
            let file = &self.files[default_idx as usize];
            self.diags.push(Diagnostic::error(
                file,
                1,
                1,
                1,
                "no shader version statement (`vs_2_0`, `ps_3_0`, ...)",
                text.split('\n').next().unwrap_or(""),
            ));
        }
        if !self.diags.is_empty() {
            if self.dropped > 0 {
                let last = self.diags.last().cloned().expect("non-empty");
                let mut d = last;
                d.message = format!("{} more errors not shown", self.dropped);
                self.diags.push(d);
            }
            return Err(Diagnostics(self.diags));
        }
        let version = self.version.expect("checked");
        Ok(Assembled {
            shader: Shader {
                version,
                items: self.items,
            },
            sources: self.sources,
            files: self.files,
            text: text.to_string(),
        })
    }

    fn version_line(&mut self, code: &str) -> LResult<()> {
        if let Some(e) = later_model_listing(code) {
            return Err(e);
        }
        let mut cur = Cur {
            s: code.as_bytes(),
            pos: 0,
        };
        cur.ws();
        let (s, e) = cur.take_while(|c| c.is_ascii_alphanumeric() || c == b'_' || c == b'.');
        let word = &code[s..e];
        let Ok(v) = word.parse::<Version>() else {
            let shown = if e == s {
                code[s..]
                    .chars()
                    .next()
                    .map(String::from)
                    .unwrap_or_default()
            } else {
                word.to_string()
            };
            return err(
                s,
                e.max(s + 1),
                format!(
                    "expected a shader version (`vs_1_1`, `ps_2_0`, `vs.3.0`, ...), found `{shown}`"
                ),
            );
        };
        cur.ws();
        if !cur.at_end() {
            return err(cur.pos, code.len(), "unexpected text after the version");
        }
        self.version = Some(v);
        self.names = Opcode::all()
            .filter(|o| !matches!(o, Opcode::Comment | Opcode::End | Opcode::Reserved0))
            .map(|o| (o.mnemonic(v), o))
            .collect();
        self.names.sort_by(|a, b| a.0.cmp(b.0));
        self.names.dedup_by(|a, b| a.0 == b.0);
        Ok(())
    }

    fn lookup(&self, name: &[u8]) -> Option<Opcode> {
        let mut buf = [0u8; 16];
        if name.len() > buf.len() {
            return None;
        }
        for (d, s) in buf.iter_mut().zip(name) {
            *d = s.to_ascii_lowercase();
        }
        let key = &buf[..name.len()];
        self.names
            .binary_search_by(|(n, _)| n.as_bytes().cmp(key))
            .ok()
            .map(|i| self.names[i].1)
    }

    fn statement(&mut self, code: &'a str, text_line: u32) -> LResult<()> {
        let version = self.version.expect("version known");
        let mut cur = Cur {
            s: code.as_bytes(),
            pos: 0,
        };
        cur.ws();
        let mut ins_start = cur.pos;
        // Co-issue.
        let mut coissue = false;
        if cur.peek() == Some(b'+') {
            let p = cur.pos;
            cur.pos += 1;
            if !(self.raw || modifiers(version).coissue) {
                return err(
                    p,
                    p + 1,
                    format!("co-issue (`+`) is only available in ps_1_x, not in {version}"),
                );
            }
            coissue = true;
            cur.ws();
        }
        // Predicate.
        let mut predicate = None;
        let mut pred_span = None;
        if cur.peek() == Some(b'(') {
            let ps = cur.pos;
            cur.pos += 1;
            let src = parse_src(&mut cur)?;
            cur.ws();
            if !cur.eat(b')') {
                return err(ps, cur.pos.max(ps + 1), "expected `)` after the predicate");
            }
            if src.reg.name != RegName::Predicate {
                return err(
                    src.reg.start,
                    src.reg.end,
                    "the predicate must be the predicate register `p0`",
                );
            }
            if regs::rule(version, RegName::Predicate).is_none() && !self.raw {
                return err(
                    ps,
                    cur.pos,
                    format!("predication is not available in {version}"),
                );
            }
            if src.neg || src.comp || src.suffix != Suffix::None || src.reg.rel.is_some() {
                return err(
                    src.start,
                    src.end,
                    "a predicate takes only `!` and a swizzle",
                );
            }
            if src.reg.num != 0 {
                return err(
                    src.reg.start,
                    src.reg.end,
                    "the only predicate register is `p0`",
                );
            }
            let mut p = SrcParam::new(src.reg.name.register(0));
            p.swizzle = src.swizzle.map_or(SWIZZLE_IDENTITY, |c| c.swizzle());
            if src.not {
                p.modifier = SrcModifier::Not;
            }
            predicate = Some(p);
            pred_span = Some(self.span(ps, cur.pos));
            cur.ws();
            ins_start = cur.pos;
        }
        // Mnemonic.
        let (ms, me) = cur.word();
        if ms == me {
            let e = (ms + 1).min(code.len()).max(ms + 1);
            return err(ms, e, "expected an instruction");
        }
        let word_end = code[me..]
            .find(|c: char| c.is_whitespace())
            .map_or(code.len(), |i| me + i);
        if code[ms..word_end].parse::<Version>().is_ok() {
            return err(ms, word_end, "only one version statement is allowed");
        }
        if !(cur.at_end() || matches!(cur.peek(), Some(b' ' | b'\t' | b'\r' | 0x0B | 0x0C))) {
            return err(
                ms,
                cur.pos + 1,
                "unexpected character after the instruction name",
            );
        }
        let full = &cur.s[ms..me];
        let base_len = full.iter().position(|&c| c == b'_').unwrap_or(full.len());
        let base = &full[..base_len];
        let mut controls = 0u8;
        let opcode = match self.lookup(base) {
            Some(op) => op,
            None if (eq_ic(base, "texldp") || eq_ic(base, "texldb"))
                && (version.is_pixel() || self.raw)
                && version.major >= 2 =>
            {
                controls = if eq_ic(base, "texldp") {
                    texld_controls::PROJECT
                } else {
                    texld_controls::BIAS
                };
                Opcode::Tex
            }
            None => {
                return err(
                    ms,
                    ms + base_len,
                    format!(
                        "unknown instruction `{}` in {version}",
                        String::from_utf8_lossy(base)
                    ),
                );
            }
        };
        let is_dcl = opcode == Opcode::Dcl;
        let mods = self.name_mods(&cur, ms + base_len, me, is_dcl)?;
        // Comparison forms share the mnemonic.
        let opcode = match (opcode, mods.comparison.is_some()) {
            (Opcode::If, true) => Opcode::IfC,
            (Opcode::Break, true) => Opcode::BreakC,
            (op, true) if !op.has_comparison() => {
                return err(
                    ms,
                    me,
                    format!("`{}` takes no comparison suffix", op.mnemonic(version)),
                )
            }
            (op, false) if op.has_comparison() => {
                return err(
                    ms,
                    me,
                    format!(
                        "`{}` needs a comparison suffix (`_gt`, `_lt`, `_ge`, `_le`, `_eq`, `_ne`)",
                        op.mnemonic(version)
                    ),
                )
            }
            (op, _) => op,
        };
        if !opcode.is_legal(version) && !self.raw {
            let name = String::from_utf8_lossy(base);
            return err(
                ms,
                ms + base_len,
                format!("instruction `{name}` is not available in {version}"),
            );
        }
        let declaration = matches!(
            opcode,
            Opcode::Phase | Opcode::Def | Opcode::DefI | Opcode::DefB | Opcode::Dcl | Opcode::Label
        );
        if coissue && declaration && !self.raw {
            return err(ins_start, me, "this instruction cannot be co-issued");
        }
        if predicate.is_some() && declaration {
            return err(ins_start, me, "this instruction cannot be predicated");
        }
        let layout = opcode.layout(version);
        // Instruction modifiers.
        self.check_instruction_mods(opcode, &mods, layout.dst, ms, me)?;

        let mut ins = Instruction::new(opcode);
        ins.coissue = coissue;
        ins.predicate = predicate;
        if let Some(c) = mods.comparison {
            ins.controls = c as u8;
        } else {
            ins.controls = controls;
        }

        // Operand slots.
        let mut slots = [Slot::Src; 6];
        let mut n = 0;
        if layout.dst {
            slots[n] = Slot::Dst;
            n += 1;
        }
        let imm_slot = match opcode {
            Opcode::Def => Slot::Float,
            Opcode::DefI => Slot::Int,
            _ => Slot::Bool,
        };
        for _ in 0..layout.imms {
            slots[n] = imm_slot;
            n += 1;
        }
        for _ in 0..layout.srcs {
            slots[n] = Slot::Src;
            n += 1;
        }
        let slots = &slots[..n];

        let mut src_info = ItemSource {
            file: self.cur_file,
            line: self.cur_line,
            text_line,
            mnemonic: self.span(ms, me),
            predicate: pred_span,
            operands: [Span::default(); 6],
            operand_count: 0,
        };

        cur.ws();
        let mut k = 0usize;
        let mut op_ranges = [(0usize, 0usize); 6];
        if !cur.at_end() {
            loop {
                cur.ws();
                let os = cur.pos;
                if k >= slots.len() {
                    return err(
                        os,
                        code.trim_end().len().max(os + 1),
                        format!(
                            "too many operands: `{}` takes {}",
                            opcode.mnemonic(version),
                            describe_slots(slots)
                        ),
                    );
                }
                match slots[k] {
                    Slot::Dst => {
                        let d = self.parse_dst(&mut cur, &mods)?;
                        use crate::token::RegisterType as T;
                        let want = match opcode {
                            Opcode::Def => Some((
                                "a float constant (`c#`)",
                                matches!(d.reg.kind, T::Const | T::Const2 | T::Const3 | T::Const4),
                            )),
                            Opcode::DefI => {
                                Some(("an integer constant (`i#`)", d.reg.kind == T::ConstInt))
                            }
                            Opcode::DefB => {
                                Some(("a boolean constant (`b#`)", d.reg.kind == T::ConstBool))
                            }
                            _ => None,
                        };
                        if let Some((what, false)) = want {
                            return err(
                                os,
                                cur.pos,
                                format!("`{}` defines {what}", opcode.mnemonic(version)),
                            );
                        }
                        if want.is_some() && (d.rel.is_some() || d.mask != MASK_ALL) {
                            return err(
                                os,
                                cur.pos,
                                "a constant definition takes a plain register",
                            );
                        }
                        ins.dst = d;
                    }
                    Slot::Src => {
                        let s = parse_src(&mut cur)?;
                        let p = self.check_src(&s, opcode)?;
                        ins.push_src(p);
                    }
                    Slot::Float => {
                        ins.imm[k - 1] = parse_float(&mut cur)?;
                    }
                    Slot::Int => {
                        ins.imm[k - 1] = parse_int(&mut cur)?;
                    }
                    Slot::Bool => {
                        ins.imm[k - 1] = parse_bool(&mut cur)?;
                    }
                }
                src_info.operands[k] = self.span(os, cur.pos);
                op_ranges[k] = (os, cur.pos);
                k += 1;
                cur.ws();
                if cur.at_end() {
                    break;
                }
                if !cur.eat(b',') {
                    let (s, e) = (cur.pos, cur.pos + 1);
                    return err(s, e, "expected `,` between operands");
                }
            }
        }
        if k < slots.len() {
            let end = code.trim_end().len();
            return err(
                ms,
                end.max(me),
                format!(
                    "`{}` takes {}, found {k} operand{}",
                    opcode.mnemonic(version),
                    describe_slots(slots),
                    if k == 1 { "" } else { "s" }
                ),
            );
        }
        src_info.operand_count = k as u8;
        if opcode == Opcode::Sub && !(version.is_pixel() && version.major < 2) && !self.raw {
            // Outside ps_1_x Microsoft's assembler writes `sub a, b, c` as `add a, b, -c`
            // (raw keeps the `sub` token the listing came from: the runtime takes both).
            ins.opcode = Opcode::Add;
            let m = &mut ins.srcs[1].modifier;
            *m = match *m {
                SrcModifier::None => SrcModifier::Neg,
                SrcModifier::Neg => SrcModifier::None,
                SrcModifier::Abs => SrcModifier::AbsNeg,
                SrcModifier::AbsNeg => SrcModifier::Abs,
                other => other,
            };
        }
        if is_dcl {
            self.finish_dcl(&mut ins, &mods, ms, me, op_ranges[0])?;
        }
        self.items.push(Item::Instruction(ins));
        self.sources.push(src_info);
        Ok(())
    }

    /// Parses the `_…` suffixes of an instruction name.
    fn name_mods(&self, cur: &Cur, mut p: usize, end: usize, is_dcl: bool) -> LResult<NameMods> {
        let s = cur.s;
        let mut m = NameMods::default();
        while p < end {
            // s[p] == '_'
            let seg_start = p + 1;
            let mut q = seg_start;
            while q < end && s[q] != b'_' {
                q += 1;
            }
            let seg = &s[seg_start..q];
            let bad = |msg: String| err::<()>(p, q.max(p + 1), msg);
            let seg_l = |x: &str| eq_ic(seg, x);
            if seg.is_empty() {
                bad("empty modifier".into())?;
            }
            let set_mod = |bit: u8, m: &mut NameMods| -> LResult<()> {
                if m.modifiers & bit != 0 {
                    return err(p, q, "modifier given twice");
                }
                m.modifiers |= bit;
                Ok(())
            };
            if seg_l("sat") {
                set_mod(result_modifier::SATURATE, &mut m)?;
            } else if seg_l("pp") {
                set_mod(result_modifier::PARTIAL_PRECISION, &mut m)?;
            } else if seg_l("centroid") {
                set_mod(result_modifier::CENTROID, &mut m)?;
            } else if let Some(sh) = [
                ("x2", 1u8),
                ("x4", 2),
                ("x8", 3),
                ("d2", 15),
                ("d4", 14),
                ("d8", 13),
            ]
            .iter()
            .find(|(n, _)| seg_l(n))
            .map(|x| x.1)
            {
                if m.shift.is_some() {
                    bad("only one shift modifier (`_x2`, `_d2`, ...) is allowed".into())?;
                }
                m.shift = Some(sh);
            } else if let Some(c) = Comparison::ALL.iter().find(|c| seg_l(c.suffix())).copied() {
                if is_dcl || m.comparison.is_some() {
                    bad(format!(
                        "unexpected modifier `_{}`",
                        String::from_utf8_lossy(seg)
                    ))?;
                }
                m.comparison = Some(c);
            } else if is_dcl {
                if let Some(t) = [SamplerType::Tex2D, SamplerType::Cube, SamplerType::Volume]
                    .iter()
                    .find(|t| seg_l(t.name()))
                {
                    if m.sampler.is_some() || m.usage.is_some() {
                        bad("more than one declaration type".into())?;
                    }
                    m.sampler = Some(*t);
                } else {
                    let letters = seg.iter().take_while(|c| c.is_ascii_alphabetic()).count();
                    let (name, digits) = seg.split_at(letters);
                    let mut digits = digits;
                    let mut usage = DeclUsage::ALL
                        .iter()
                        .find(|u| eq_ic(name, u.name()))
                        .map(|&u| u as u8);
                    // `dcl_usage22`, `dcl_usage153`: the printer's name for a usage field
                    // past the defined ones (14-31, two digits), then the index.
                    if self.raw && eq_ic(name, "usage") && digits.len() >= 2 {
                        let raw = (digits[0].wrapping_sub(b'0') as u32) * 10
                            + digits[1].wrapping_sub(b'0') as u32;
                        if raw < 32 && digits[..2].iter().all(u8::is_ascii_digit) {
                            usage = Some(raw as u8);
                            digits = &digits[2..];
                        }
                    }
                    let Some(usage) = usage else {
                        return err(
                            p,
                            q,
                            format!("unknown declaration `_{}`", String::from_utf8_lossy(seg)),
                        );
                    };
                    if !digits.iter().all(|c| c.is_ascii_digit()) {
                        bad(format!(
                            "unknown declaration `_{}`",
                            String::from_utf8_lossy(seg)
                        ))?;
                    }
                    let mut idx = 0u32;
                    for &d in digits {
                        idx = idx.saturating_mul(10).saturating_add((d - b'0') as u32);
                    }
                    if idx > 15 {
                        bad(format!("usage index {idx} out of range (0-15)"))?;
                    }
                    if m.sampler.is_some() || m.usage.is_some() {
                        bad("more than one declaration type".into())?;
                    }
                    m.usage = Some((usage, idx as u8));
                }
            } else {
                bad(format!(
                    "unknown instruction modifier `_{}`",
                    String::from_utf8_lossy(seg)
                ))?;
            }
            p = q;
        }
        Ok(m)
    }

    fn check_instruction_mods(
        &self,
        opcode: Opcode,
        m: &NameMods,
        has_dst: bool,
        ms: usize,
        me: usize,
    ) -> LResult<()> {
        let version = self.version.expect("version");
        let name = opcode.mnemonic(version);
        if m.shift.is_some() {
            if !(self.raw || modifiers(version).shift) {
                return err(
                    ms,
                    me,
                    format!("shift modifiers (`_x2`, `_d2`, ...) are only available in ps_1_x, not in {version}"),
                );
            }
            // `dcl` carries a shift only in streams the runtime rejects (raw reads them).
            if !has_dst || (opcode.is_declaration() && !(opcode == Opcode::Dcl && self.raw)) {
                return err(ms, me, format!("`{name}` takes no shift modifier"));
            }
        }
        if m.modifiers != 0 {
            if !has_dst || matches!(opcode, Opcode::Def | Opcode::DefI | Opcode::DefB) {
                return err(ms, me, format!("`{name}` takes no instruction modifiers"));
            }
            if opcode == Opcode::Dcl {
                if version.is_vertex() && !self.raw {
                    return err(ms, me, "vertex shader declarations take no modifiers");
                }
                if m.modifiers & result_modifier::SATURATE != 0 && !self.raw {
                    return err(ms, me, "`_sat` is not allowed on a declaration");
                }
            }
            let pp_or_centroid =
                m.modifiers & (result_modifier::PARTIAL_PRECISION | result_modifier::CENTROID);
            if pp_or_centroid != 0 && !(self.raw || modifiers(version).partial_precision) {
                return err(
                    ms,
                    me,
                    format!("`_pp` and `_centroid` are only available in ps_2_0 and later, not in {version}"),
                );
            }
        }
        if opcode == Opcode::Dcl && m.shift.is_some() && !self.raw {
            return err(ms, me, "shift modifiers are not allowed on a declaration");
        }
        Ok(())
    }

    fn check_reg(&self, r: &RegRef) -> LResult<()> {
        let version = self.version.expect("version");
        let max = if r.name == RegName::Const { 8191 } else { 2047 };
        if self.raw && (r.num > max || r.rel.is_some_and(|a| a.num > 2047)) {
            return err(
                r.start,
                r.end,
                "register number too large for the token format",
            );
        }
        let Some(rule) = regs::rule(version, r.name).or(self.raw.then_some(regs::RegRule {
            count: max + 1,
            rel: true,
        })) else {
            return err(
                r.start,
                r.end,
                format!(
                    "register `{}` does not exist in {version}",
                    r.name.spelling()
                ),
            );
        };
        if let Some(a) = r.rel {
            if !rule.rel && !self.raw {
                return err(
                    r.start,
                    r.end,
                    format!(
                        "register `{}` cannot be relatively addressed in {version}",
                        r.name.spelling()
                    ),
                );
            }
            if !regs::address_register_allowed(version, a.name) && !self.raw {
                return err(
                    a.start,
                    a.end,
                    format!(
                        "`{}` cannot be used for relative addressing in {version}",
                        a.name.spelling()
                    ),
                );
            }
            if regs::rule(version, a.name).is_none_or(|ar| a.num >= ar.count) && !self.raw {
                return err(a.start, a.end, "no such address register");
            }
            match a.name {
                RegName::Loop if a.swizzle.is_some() => {
                    return err(a.start, a.end, "`aL` takes no swizzle");
                }
                RegName::Addr
                    if version.major == 1
                        && !a.swizzle.is_some_and(|s| s.len == 1 && s.comps[0] == 0) =>
                {
                    return err(
                        a.start,
                        a.end,
                        format!("{version} only has `a0.x` for relative addressing"),
                    );
                }
                _ => {}
            }
            if r.num > 8191 {
                return err(r.start, r.end, "register offset out of range");
            }
        } else if r.num >= rule.count && !self.raw {
            let written = match r.name {
                // `oRast5`, `vMisc4`: as the register table spells them.
                RegName::RastOut | RegName::Misc => {
                    crate::regs::Name(version, r.name.register(r.num)).to_string()
                }
                _ => format!("{}{}", r.name.spelling().trim_end_matches('#'), r.num),
            };
            return err(
                r.start,
                r.end,
                format!(
                    "register `{written}` does not exist in {version} (it has {} of them)",
                    rule.count
                ),
            );
        }
        Ok(())
    }

    fn rel_addr(&self, r: &RegRef) -> Option<RelAddr> {
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

    fn parse_dst(&self, cur: &mut Cur, m: &NameMods) -> LResult<DstParam> {
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

    fn check_src(&self, s: &SrcParsed, opcode: Opcode) -> LResult<SrcParam> {
        let version = self.version.expect("version");
        self.check_reg(&s.reg)?;
        if s.reg.name == RegName::Loop && s.swizzle.is_some() && !self.raw {
            return err(s.reg.start, s.end, "`aL` takes no swizzle");
        }
        let legacy = modifiers(version).legacy_src;
        let (ss, se) = s.suffix_span;
        let modifier = match s.suffix {
            Suffix::None => {
                if s.comp {
                    if !legacy && !self.raw {
                        return err(
                            s.start,
                            s.end,
                            format!("the complement modifier `1 - reg` is only available in ps_1_x, not in {version}"),
                        );
                    }
                    if s.neg {
                        return err(s.start, s.end, "`-` cannot be combined with `1 - reg`");
                    }
                    SrcModifier::Comp
                } else if s.neg {
                    SrcModifier::Neg
                } else {
                    SrcModifier::None
                }
            }
            Suffix::Bias | Suffix::Bx2 | Suffix::X2 => {
                if !legacy && !self.raw {
                    return err(
                        ss,
                        se,
                        format!(
                            "this source modifier is only available in ps_1_x, not in {version}"
                        ),
                    );
                }
                match (s.suffix, s.neg) {
                    (Suffix::Bias, false) => SrcModifier::Bias,
                    (Suffix::Bias, true) => SrcModifier::BiasNeg,
                    (Suffix::Bx2, false) => SrcModifier::Sign,
                    (Suffix::Bx2, true) => SrcModifier::SignNeg,
                    (_, false) => SrcModifier::X2,
                    (_, true) => SrcModifier::X2Neg,
                }
            }
            Suffix::Dz | Suffix::Dw => {
                if !(self.raw || modifiers(version).dz_dw) {
                    return err(
                        ss,
                        se,
                        format!("`_dz`/`_dw` are only available in ps_1_4, not in {version}"),
                    );
                }
                if !matches!(opcode, Opcode::Tex | Opcode::TexCoord) && !self.raw {
                    return err(
                        ss,
                        se,
                        "`_dz`/`_dw` apply only to `texld` and `texcrd` sources",
                    );
                }
                if s.neg {
                    return err(s.start, s.end, "`-` cannot be combined with `_dz`/`_dw`");
                }
                if s.suffix == Suffix::Dz {
                    SrcModifier::Dz
                } else {
                    SrcModifier::Dw
                }
            }
            Suffix::Abs => {
                if !modifiers(version).abs && !self.raw {
                    return err(
                        ss,
                        se,
                        format!("`_abs` is only available in vs_3_0 and ps_3_0, not in {version}"),
                    );
                }
                if s.neg {
                    SrcModifier::AbsNeg
                } else {
                    SrcModifier::Abs
                }
            }
        };
        if s.suffix != Suffix::None && s.comp {
            return err(s.start, s.end, "only one source modifier is allowed");
        }
        let modifier = if s.not {
            if modifier != SrcModifier::None {
                return err(
                    s.start,
                    s.end,
                    "`!` cannot be combined with other modifiers",
                );
            }
            if !matches!(s.reg.name, RegName::ConstBool | RegName::Predicate) && !self.raw {
                return err(
                    s.start,
                    s.end,
                    "`!` applies only to boolean (`b#`) and predicate (`p0`) registers",
                );
            }
            SrcModifier::Not
        } else {
            modifier
        };
        Ok(SrcParam {
            reg: s.reg.name.register(s.reg.num),
            rel: self.rel_addr(&s.reg),
            swizzle: s.swizzle.map_or(SWIZZLE_IDENTITY, |c| c.swizzle()),
            modifier,
        })
    }

    /// Fills the `dcl` token and checks what may be declared in this version.
    fn finish_dcl(
        &self,
        ins: &mut Instruction,
        m: &NameMods,
        ms: usize,
        me: usize,
        (os, oe): (usize, usize),
    ) -> LResult<()> {
        let version = self.version.expect("version");
        let reg = ins.dst.reg;
        use crate::token::RegisterType as T;
        let is_sampler = reg.kind == T::Sampler;
        if is_sampler {
            if m.usage.is_some() {
                return err(ms, me, "a sampler is declared with a texture type (`dcl_2d`, `dcl_cube`, `dcl_volume`)");
            }
            let ty = match m.sampler {
                Some(t) => t,
                None if version.is_pixel() => SamplerType::Unknown,
                None => {
                    return err(
                        ms,
                        me,
                        "a vertex shader sampler needs a texture type (`dcl_2d`, `dcl_cube`, `dcl_volume`)",
                    )
                }
            };
            if ins.dst.modifiers != 0 && !modifiers(version).sampler_dcl && !self.raw {
                return err(
                    ms,
                    me,
                    format!("sampler declarations take no modifiers in {version}"),
                );
            }
            ins.decl = DeclToken::sampler(ty);
            return Ok(());
        }
        if m.sampler.is_some() {
            return err(
                os,
                oe,
                "a texture type can only be declared for a sampler (`s#`)",
            );
        }
        let ok_reg = crate::regs::declarable(version, reg.kind);
        if !ok_reg && !self.raw {
            return err(
                os,
                oe,
                format!("this register cannot be declared in {version}"),
            );
        }
        ins.decl = match (version.is_vertex(), version.major, m.usage) {
            (_, _, Some((u, i))) if self.raw => usage_token(u, i),
            (true, _, Some((u, i))) => usage_token(u, i),
            // `dcl vFace` of a pixel-shader stream relabelled as a vertex shader.
            (true, _, None) if self.raw => DeclToken(0x8000_0000),
            (true, _, None) => return err(
                ms,
                me,
                "vertex shader declarations need a usage (`dcl_position`, `dcl_texcoord1`, ...)",
            ),
            (false, 2, Some(_)) => {
                return err(
                    ms,
                    me,
                    format!(
                        "{version} input declarations take no usage (write `dcl v0` or `dcl t0`)"
                    ),
                )
            }
            (false, _, Some((u, i))) => usage_token(u, i),
            (false, _, None) => DeclToken(0x8000_0000),
        };
        Ok(())
    }
}

/// The `dcl` token of a usage given by its raw field (a defined usage, or with
/// `raw` any 5-bit value) and index: [`DeclToken::usage`]'s layout.
fn usage_token(usage: u8, index: u8) -> DeclToken {
    DeclToken(0x8000_0000 | (usage as u32 & 0x1F) | ((index as u32 & 0xF) << 16))
}

fn describe_slots(slots: &[Slot]) -> String {
    let dst = slots.iter().filter(|s| **s == Slot::Dst).count();
    let src = slots.iter().filter(|s| **s == Slot::Src).count();
    let imm = slots.len() - dst - src;
    let mut parts = Vec::new();
    if dst > 0 {
        parts.push("a destination".to_string());
    }
    if imm > 0 {
        parts.push(format!("{imm} value{}", if imm == 1 { "" } else { "s" }));
    }
    if src > 0 {
        parts.push(format!("{src} source{}", if src == 1 { "" } else { "s" }));
    }
    if parts.is_empty() {
        "no operands".to_string()
    } else {
        parts.join(" and ")
    }
}

/// A `def` value: `[-] digits [. digits] [e[+-]digits] [f]`; converted like the C
/// runtime's `atof` followed by a cast to `float` (correct rounding to double, then to
/// single precision).
fn parse_float(cur: &mut Cur) -> LResult<u32> {
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
fn parse_int(cur: &mut Cur) -> LResult<u32> {
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
fn parse_bool(cur: &mut Cur) -> LResult<u32> {
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

    #[test]
    fn comments_are_cut() {
        assert_eq!(strip_comment("mov r0, r1 // x"), "mov r0, r1 ");
        assert_eq!(strip_comment("; all"), "");
        assert_eq!(strip_comment("a / b"), "a / b");
    }
}
