//! The line parser: one assembly statement per line → one IR [`Item`], with the implicit
//! rules of Microsoft's assembler filled in (full write mask, identity swizzle,
//! replicated short swizzles, `dcl`/`def` token forms) and its per-version checks
//! (instruction ranges from the opcode table, register files, modifiers).
//!
//! Errors are collected per line; a bad line is skipped and parsing goes on.
//!
//! By grammar: `cursor` (the byte cursor over a line, comments), `operands` (registers,
//! swizzles, masks, source modifiers, relative addressing, the destination), `literals`
//! (`def*` values), `statements` (an instruction line: name, suffixes, operand slots),
//! `checks` (what a version allows of modifiers, registers and sources) and `dcl`
//! (declarations); this module runs the lines and reads the version statement.

mod checks;
mod cursor;
mod dcl;
mod literals;
mod operands;
mod statements;

use super::{Assembled, ItemSource, Span};
use crate::diag::{Diagnostic, Diagnostics};
use crate::ir::{Item, Shader};
use crate::opcode::Opcode;
use crate::version::Version;
use cursor::{strip_comment, Cur};
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
}
