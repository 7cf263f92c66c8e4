//! The preprocessor Microsoft's assembler runs before parsing: `#define` (object- and
//! function-like), `#undef`, conditionals with integer expressions, `#include`, `#line`,
//! `#error`, `#pragma` (ignored, except `once`), and macros predefined with `-D`.
//!
//! The output keeps the input's shape: every input line gives one output line (directive
//! and skipped lines become empty lines, a spliced or multi-line macro invocation is
//! written on its first line followed by empty lines), except `#include`, which is
//! replaced by the included file's lines. Comments (`//`, `;`, `/* */`) and whitespace
//! are kept verbatim, and text without directives or macros passes through unchanged, so
//! the parser still has to skip comments. [`Output::lines`] maps each output line to its
//! file and line, with `#line` applied.
//!
//! Work is bounded: `#include` nesting ([`MAX_INCLUDE_DEPTH`]), count
//! ([`MAX_INCLUDES`]) and size ([`MAX_INCLUDED_BYTES`]), tokens per expanded line, a
//! global expansion budget, argument and expression nesting, the output size
//! ([`MAX_OUTPUT_BYTES`]) and the number of diagnostics; hitting a limit is an error,
//! never a hang, a stack overflow or unbounded memory.
//!
//! Asm-specific choices: `;` starts a comment (to the end of the line) everywhere,
//! directive lines included, so quotes in `;` comments are harmless; `'` is an ordinary
//! character (no character constants); an unterminated `"` is an ordinary character.
//! `#include "…"` is searched in the including file's directory, then
//! [`Options::include_dirs`]; `<…>` only in the latter (or both go to
//! [`Options::include`]). A function-like macro name at the end of a line takes its
//! arguments from the next line only when that line starts with `(`.

mod expand;
mod expr;
mod lex;

use std::collections::{HashMap, HashSet};
use std::fmt;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::Arc;

use crate::diag::{Diagnostic, Diagnostics};
use expand::{parse_define, Builtin, ExpandError, Expander, Lead, Loc, Macro, Tok};
use lex::{join_logical, lex, split_phys, Kind, Lexed, LogicalLine, PhysLine};

/// Deepest `#include` nesting.
pub const MAX_INCLUDE_DEPTH: usize = 64;
/// Largest preprocessed output.
pub const MAX_OUTPUT_BYTES: usize = 64 << 20;
/// Most `#include` directives processed in one run.
pub const MAX_INCLUDES: usize = 4096;
/// Most text read through `#include` in one run.
pub const MAX_INCLUDED_BYTES: usize = 256 << 20;
/// Global expansion budget (tokens produced by macro expansion in one run).
const WORK_BUDGET: u64 = 1 << 22;
/// Most diagnostics reported before giving up.
const MAX_DIAGNOSTICS: usize = 100;

/// Include handler: `(requested name, including file) -> (resolved name, contents)`.
pub type IncludeFn = dyn Fn(&str, &str) -> Option<(String, String)>;

/// Preprocessor settings.
#[derive(Default)]
pub struct Options {
    /// Name of the main file (diagnostics, `__FILE__`, relative `#include "…"`).
    pub file_name: String,
    /// Predefined macros, as `-D NAME[=VALUE]`: `None` defines `NAME` as `1`. `NAME` may
    /// carry a parameter list (`F(x)`).
    pub defines: Vec<(String, Option<String>)>,
    /// Searched for `#include "…"` after the including file's directory, and for
    /// `#include <…>`.
    pub include_dirs: Vec<PathBuf>,
    /// Include handler replacing the file system (as ID3DInclude does). It also gets
    /// `<…>` includes; returning `None` means "cannot open".
    pub include: Option<Box<IncludeFn>>,
}

impl fmt::Debug for Options {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Options")
            .field("file_name", &self.file_name)
            .field("defines", &self.defines)
            .field("include_dirs", &self.include_dirs)
            .field("include", &self.include.as_ref().map(|_| "<handler>"))
            .finish()
    }
}

/// Where an output line comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineOrigin {
    /// File name (as given, resolved by `#include`, or set by `#line`); shared between
    /// the lines of one file.
    pub file: Arc<str>,
    /// 1-based line number (as renumbered by `#line`).
    pub line: u32,
}

/// Preprocessed text.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Output {
    /// The text, line terminators as in the input.
    pub text: String,
    /// `lines[i]` is the origin of output line `i` (0-based; `text.lines()` order).
    pub lines: Vec<LineOrigin>,
}

/// The fast path for the common case (real listings): with no predefined macros, a text
/// without `#` (no directive), `\` (no continuation), `__` (no `__LINE__`/`__FILE__`),
/// NUL or a lone CR comes out of the preprocessor unchanged, each line from itself; the
/// full run is skipped. `tests/preprocess.rs` checks both paths agree over the corpus.
fn passthrough(text: &str, opts: &Options) -> Option<Output> {
    let b = text.as_bytes();
    if !opts.defines.is_empty()
        || b.contains(&b'#')
        || b.contains(&b'\\')
        || text.contains("__")
        || b.contains(&0)
        || text.split('\r').skip(1).any(|rest| !rest.starts_with('\n'))
    {
        return None;
    }
    let file: Arc<str> = Arc::from(opts.file_name.as_str());
    let lines = (1..=text.lines().count() as u32)
        .map(|line| LineOrigin {
            file: Arc::clone(&file),
            line,
        })
        .collect();
    Some(Output {
        text: text.to_string(),
        lines,
    })
}

/// Preprocesses `text`.
pub fn preprocess(text: &str, opts: &Options) -> Result<Output, Diagnostics> {
    if let Some(out) = passthrough(text, opts) {
        return Ok(out);
    }
    let mut pp = Pp {
        opts,
        macros: HashMap::new(),
        next_id: 0,
        out: Output::default(),
        last_term_missing: false,
        last_line_empty: false,
        diags: Vec::new(),
        fatal: false,
        budget: WORK_BUDGET,
        includes: 0,
        included_bytes: 0,
        once: HashSet::new(),
    };
    pp.define_builtin("__LINE__", Builtin::Line);
    pp.define_builtin("__FILE__", Builtin::File);
    if !opts.defines.is_empty() {
        let mut cmd = String::new();
        for (name, value) in &opts.defines {
            let clean = |s: &str| s.replace(['\r', '\n'], " ");
            let value = value.as_deref().map_or_else(|| "1".to_string(), clean);
            cmd.push_str(&format!("#define {} {}\n", clean(name), value));
        }
        pp.run_file("<command line>", &cmd, 0, false);
    }
    if !pp.fatal {
        pp.run_file(&opts.file_name, text, 0, true);
    }
    if pp.last_term_missing && pp.last_line_empty {
        // An empty last line without terminator is no line of the text.
        pp.out.lines.pop();
    }
    if pp.diags.is_empty() {
        Ok(pp.out)
    } else {
        Err(Diagnostics(pp.diags))
    }
}

struct Pp<'o> {
    opts: &'o Options,
    macros: HashMap<Rc<str>, Macro>,
    next_id: u32,
    out: Output,
    /// The last emitted line has no terminator (end of an included file).
    last_term_missing: bool,
    /// The last emitted line is empty.
    last_line_empty: bool,
    diags: Vec<Diagnostic>,
    fatal: bool,
    budget: u64,
    includes: usize,
    included_bytes: usize,
    once: HashSet<String>,
}

/// One open conditional.
struct Cond {
    /// `#if`, `#ifdef` or `#ifndef`, for "unterminated" messages.
    what: &'static str,
    loc: Loc,
    parent_active: bool,
    /// Some group of this conditional was taken.
    taken: bool,
    active: bool,
    seen_else: bool,
}

/// The state of one file being preprocessed.
struct FileState<'t> {
    /// Name used to resolve relative includes.
    name: String,
    /// Name in origins and diagnostics (changed by `#line`).
    origin_file: Arc<str>,
    /// Origin line of physical line `p` is `p + line_base`.
    line_base: i64,
    phys: Vec<PhysLine<'t>>,
    logical: Vec<LogicalLine<'t>>,
    /// Next logical line to lex.
    next: usize,
    in_comment: bool,
    /// A line lexed by a look-ahead and not used.
    pending: Option<(usize, Lexed)>,
    /// A `#line` renumbering, applied after the directive's own line is written.
    pending_line: Option<(i64, Option<Arc<str>>)>,
    /// Lines consumed by a macro invocation spanning lines, with where their trailing
    /// whitespace/comments start.
    consumed: Vec<(usize, u32)>,
}

impl<'t> FileState<'t> {
    fn next_line(&mut self) -> Option<(usize, Lexed)> {
        if let Some(p) = self.pending.take() {
            return Some(p);
        }
        let idx = self.next;
        let ll = self.logical.get(idx)?;
        self.next += 1;
        let lexed = lex(&ll.text, &mut self.in_comment);
        Some((idx, lexed))
    }

    fn origin_line(&self, phys: usize) -> u32 {
        (phys as i64 + self.line_base).clamp(0, u32::MAX as i64) as u32
    }

    /// Tokens of a lexed line, from span `from` on.
    fn tokens(&self, idx: usize, lexed: &Lexed, from: usize) -> Vec<Tok> {
        let text = &self.logical[idx].text;
        lexed.spans[from..]
            .iter()
            .map(|s| Tok {
                kind: s.kind,
                text: Rc::from(&text[s.start as usize..s.end as usize]),
                lead: Lead::Src(s.lead, s.start),
                hs: None,
                loc: Loc {
                    line: idx as u32,
                    off: s.start,
                    len: s.end - s.start,
                },
            })
            .collect()
    }

    /// Look-ahead for a macro invocation continuing on the next line.
    fn fetch(&mut self, need_paren: bool) -> Option<Vec<Tok>> {
        let (idx, lexed) = self.next_line()?;
        let first = lexed.spans.first();
        let is_directive = first.is_some_and(|s| is_hash(&self.logical[idx].text, s));
        let ok = !is_directive
            && (!need_paren
                || first.is_some_and(|s| {
                    &self.logical[idx].text[s.start as usize..s.end as usize] == "("
                }));
        if !ok {
            self.pending = Some((idx, lexed));
            return None;
        }
        let mut toks = self.tokens(idx, &lexed, 0);
        if let Some(t) = toks.first_mut() {
            t.lead = Lead::Space;
        }
        self.consumed.push((idx, lexed.tail));
        Some(toks)
    }
}

fn is_hash(text: &str, s: &lex::Span) -> bool {
    s.kind == Kind::Punct && &text[s.start as usize..s.end as usize] == "#"
}

fn loc_of(idx: usize, s: &lex::Span) -> Loc {
    Loc {
        line: idx as u32,
        off: s.start,
        len: s.end - s.start,
    }
}

impl Pp<'_> {
    fn define_builtin(&mut self, name: &str, b: Builtin) {
        let id = self.next_id;
        self.next_id += 1;
        self.macros.insert(
            Rc::from(name),
            Macro {
                id,
                params: None,
                variadic: false,
                body: Vec::new(),
                builtin: Some(b),
            },
        );
    }

    fn diag(&mut self, fs: &FileState, loc: Loc, msg: impl Into<String>) {
        if self.diags.len() >= MAX_DIAGNOSTICS {
            self.fatal = true;
            return;
        }
        let ll = &fs.logical[(loc.line as usize).min(fs.logical.len().saturating_sub(1))];
        let (phys, off) = ll.phys_pos(loc.off as usize);
        let src = fs.phys.get(phys).map_or("", |p| p.text);
        let off = floor_char_boundary(src, off);
        let col = src[..off].chars().count() as u32 + 1;
        let end = floor_char_boundary(src, off + loc.len as usize);
        let len = src[off..end].chars().count() as u32;
        let line = fs.origin_line(phys);
        self.diags
            .push(Diagnostic::error(&fs.origin_file, line, col, len, msg, src));
        if self.diags.len() >= MAX_DIAGNOSTICS {
            self.fatal = true;
        }
    }

    fn expand_error(&mut self, fs: &FileState, e: ExpandError) {
        self.diag(fs, e.loc, e.msg);
        if e.fatal {
            self.fatal = true;
        }
    }

    fn emit(&mut self, fs: &FileState, text: &str, phys: usize) {
        if self.out.text.len() + text.len() > MAX_OUTPUT_BYTES {
            if !self.fatal {
                // Locate the diagnostic at the line being written.
                let line = fs.logical.iter().position(|l| l.first + l.count > phys);
                let loc = Loc {
                    line: line.unwrap_or(0) as u32,
                    ..Loc::default()
                };
                self.diag(
                    fs,
                    loc,
                    format!("preprocessed output exceeds {MAX_OUTPUT_BYTES} bytes"),
                );
                self.fatal = true;
            }
            return;
        }
        if self.last_term_missing {
            self.out.text.push('\n');
        }
        self.out.text.push_str(text);
        let term = fs.phys.get(phys).map_or("", |p| p.term);
        self.out.text.push_str(term);
        self.last_term_missing = term.is_empty();
        self.last_line_empty = text.is_empty();
        self.out.lines.push(LineOrigin {
            file: Arc::clone(&fs.origin_file),
            line: fs.origin_line(phys),
        });
    }

    /// Emits `first` for the first physical line of a logical line and empty lines for
    /// the rest.
    fn emit_logical(&mut self, fs: &FileState, idx: usize, first: &str) {
        let (start, count) = (fs.logical[idx].first, fs.logical[idx].count);
        self.emit(fs, first, start);
        for p in start + 1..start + count {
            self.emit(fs, "", p);
        }
    }

    fn run_file(&mut self, name: &str, text: &str, depth: usize, emit: bool) {
        let phys = split_phys(text);
        let logical = join_logical(&phys);
        let mut fs = FileState {
            name: name.to_string(),
            origin_file: Arc::from(name),
            line_base: 1,
            phys,
            logical,
            next: 0,
            in_comment: false,
            pending: None,
            pending_line: None,
            consumed: Vec::new(),
        };
        let mut conds: Vec<Cond> = Vec::new();
        while let Some((idx, lexed)) = fs.next_line() {
            if self.fatal {
                return;
            }
            let active = conds.last().is_none_or(|c| c.active);
            let directive = lexed
                .spans
                .first()
                .is_some_and(|s| is_hash(&fs.logical[idx].text, s));
            if directive {
                let out_line = self.directive(&mut fs, idx, &lexed, &mut conds, depth, active);
                if emit {
                    match out_line {
                        DirectiveOutput::Line(l) => self.emit_logical(&fs, idx, &l),
                        DirectiveOutput::Replaced(Some(l)) => {
                            let last = fs.logical[idx].first + fs.logical[idx].count - 1;
                            self.emit(&fs, &l, last);
                        }
                        DirectiveOutput::Replaced(None) => {}
                    }
                }
                if let Some((base, file)) = fs.pending_line.take() {
                    fs.line_base = base;
                    if let Some(f) = file {
                        fs.origin_file = f;
                    }
                }
                continue;
            }
            if !active {
                if emit {
                    self.emit_logical(&fs, idx, "");
                }
                continue;
            }
            let line = self.text_line(&mut fs, idx, &lexed);
            if emit {
                self.emit_logical(&fs, idx, &line);
                for (c, _) in std::mem::take(&mut fs.consumed) {
                    self.emit_logical(&fs, c, "");
                }
            } else {
                fs.consumed.clear();
            }
        }
        for c in conds {
            if self.fatal {
                return;
            }
            self.diag(&fs, c.loc, format!("unterminated {}", c.what));
        }
    }

    /// Expands the macros of an active text line; returns the line's output text.
    fn text_line(&mut self, fs: &mut FileState, idx: usize, lexed: &Lexed) -> String {
        let text = &fs.logical[idx].text;
        let any_macro = lexed.spans.iter().any(|s| {
            s.kind == Kind::Ident
                && self
                    .macros
                    .contains_key(&text[s.start as usize..s.end as usize])
        });
        if !any_macro {
            return text.to_string();
        }
        let toks = fs.tokens(idx, lexed, 0);
        let line_no = fs.origin_line(fs.logical[idx].first);
        let file = fs.origin_file.clone();
        let result = {
            let mut ex = Expander {
                macros: &self.macros,
                budget: &mut self.budget,
                line: line_no,
                file: &file,
            };
            let mut fetch = |need_paren: bool| fs.fetch(need_paren);
            ex.expand(toks, Some(&mut fetch))
        };
        match result {
            Ok(toks) => {
                let size: usize = toks.iter().map(|t| t.text.len() + 1).sum();
                if size > MAX_OUTPUT_BYTES.saturating_sub(self.out.text.len()) {
                    let loc = toks.first().map_or_else(Loc::default, |t| t.loc);
                    self.diag(
                        fs,
                        loc,
                        format!("preprocessed output exceeds {MAX_OUTPUT_BYTES} bytes"),
                    );
                    self.fatal = true;
                    return String::new();
                }
                let mut s = String::with_capacity(size + 16);
                for t in &toks {
                    match t.lead {
                        Lead::None => {}
                        Lead::Space => s.push(' '),
                        Lead::Src(a, b) => {
                            if t.loc.line as usize == idx {
                                s.push_str(&fs.logical[idx].text[a as usize..b as usize]);
                            } else if a < b {
                                s.push(' ');
                            }
                        }
                    }
                    s.push_str(&t.text);
                }
                // The trailing whitespace/comments of the last line used.
                let (last, tail) = fs.consumed.last().copied().unwrap_or((idx, lexed.tail));
                s.push_str(&fs.logical[last].text[tail as usize..]);
                s
            }
            Err(e) => {
                self.expand_error(fs, e);
                fs.logical[idx].text.to_string()
            }
        }
    }
}

/// What a directive line becomes in the output.
enum DirectiveOutput {
    /// This text on the directive's first line (empty lines for the rest).
    Line(String),
    /// Replaced by an included file; an extra line when a block comment stays open.
    Replaced(Option<String>),
}

fn floor_char_boundary(s: &str, mut i: usize) -> usize {
    if i >= s.len() {
        return s.len();
    }
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

impl Pp<'_> {
    #[allow(clippy::too_many_arguments)]
    fn directive(
        &mut self,
        fs: &mut FileState,
        idx: usize,
        lexed: &Lexed,
        conds: &mut Vec<Cond>,
        depth: usize,
        active: bool,
    ) -> DirectiveOutput {
        let text = &fs.logical[idx].text;
        let open_comment = lexed
            .open_comment
            .map(|o| text[o as usize..].to_string())
            .unwrap_or_default();
        let hash = lexed.spans[0];
        let name_span = lexed.spans.get(1).filter(|s| s.kind == Kind::Ident);
        let name = name_span
            .map_or("", |s| &text[s.start as usize..s.end as usize])
            .to_string();
        let hash_loc = loc_of(idx, &hash);
        let dir_loc = name_span.map_or(hash_loc, |s| Loc {
            line: idx as u32,
            off: hash.start,
            len: s.end - hash.start,
        });
        let end_loc = Loc {
            line: idx as u32,
            off: lexed.spans.last().map_or(0, |s| s.end),
            len: 1,
        };
        let args = fs.tokens(idx, lexed, 2.min(lexed.spans.len()));
        let line = DirectiveOutput::Line(open_comment.clone());
        match name.as_str() {
            "if" | "ifdef" | "ifndef" => {
                let what = match name.as_str() {
                    "if" => "#if",
                    "ifdef" => "#ifdef",
                    _ => "#ifndef",
                };
                let cond = if active {
                    match name.as_str() {
                        "if" => self.eval_if(fs, args, "#if", dir_loc, end_loc),
                        _ => self
                            .ifdef(fs, &args, what, dir_loc)
                            .map(|d| d == (name == "ifdef")),
                    }
                } else {
                    Some(false)
                };
                let c = cond.unwrap_or(false);
                conds.push(Cond {
                    what,
                    loc: dir_loc,
                    parent_active: active,
                    taken: c,
                    active: active && c,
                    seen_else: false,
                });
            }
            "elif" => match conds.last() {
                None => self.diag(fs, dir_loc, "#elif without #if"),
                Some(c) if c.seen_else => self.diag(fs, dir_loc, "#elif after #else"),
                Some(c) => {
                    let run = c.parent_active && !c.taken;
                    let v = if run {
                        self.eval_if(fs, args, "#elif", dir_loc, end_loc)
                            .unwrap_or(false)
                    } else {
                        false
                    };
                    let c = conds.last_mut().expect("checked");
                    c.active = run && v;
                    c.taken |= c.active;
                }
            },
            "else" => match conds.last_mut() {
                None => self.diag(fs, dir_loc, "#else without #if"),
                Some(c) if c.seen_else => self.diag(fs, dir_loc, "#else after #else"),
                Some(c) => {
                    c.seen_else = true;
                    c.active = c.parent_active && !c.taken;
                    c.taken = true;
                }
            },
            "endif" => {
                if conds.pop().is_none() {
                    self.diag(fs, dir_loc, "#endif without #if");
                }
            }
            _ if !active => {}
            "" if lexed.spans.len() == 1 => {} // the null directive
            "define" => match parse_define(&args, dir_loc) {
                Ok((name, mut m)) => {
                    m.id = self.next_id;
                    self.next_id += 1;
                    self.macros.insert(name, m);
                }
                Err(e) => self.expand_error(fs, e),
            },
            "undef" => match args.first() {
                None => self.diag(fs, dir_loc, "no macro name given in #undef directive"),
                Some(t) if t.kind != Kind::Ident => {
                    self.diag(fs, t.loc, "macro names must be identifiers")
                }
                Some(t) => {
                    self.macros.remove(&t.text);
                }
            },
            "line" => self.line_directive(fs, idx, args, dir_loc),
            "error" => {
                let msg = match lexed.spans.get(2) {
                    Some(s) => text[s.start as usize..lexed.tail as usize].trim_end(),
                    None => "",
                };
                let msg = if msg.is_empty() {
                    "#error".to_string()
                } else {
                    format!("#error {msg}")
                };
                self.diag(fs, dir_loc, msg);
            }
            "pragma" => {
                if args.first().is_some_and(|t| &*t.text == "once") {
                    self.once.insert(fs.name.clone());
                }
            }
            "include" => {
                return DirectiveOutput::Replaced(
                    self.include(fs, idx, lexed, args, depth, dir_loc)
                        .then_some(open_comment)
                        .filter(|s| !s.is_empty()),
                );
            }
            _ => {
                let what = if name.is_empty() {
                    lexed.spans.get(1).map_or(String::new(), |s| {
                        text[s.start as usize..s.end as usize].to_string()
                    })
                } else {
                    name
                };
                let loc = lexed.spans.get(1).map_or(hash_loc, |s| Loc {
                    line: idx as u32,
                    off: hash.start,
                    len: s.end - hash.start,
                });
                self.diag(fs, loc, format!("invalid preprocessing directive #{what}"));
            }
        }
        line
    }

    /// `#ifdef`/`#ifndef`: whether the name is defined.
    fn ifdef(&mut self, fs: &FileState, args: &[Tok], what: &str, dir_loc: Loc) -> Option<bool> {
        match args.first() {
            None => {
                self.diag(
                    fs,
                    dir_loc,
                    format!("no macro name given in {what} directive"),
                );
                None
            }
            Some(t) if t.kind != Kind::Ident => {
                self.diag(fs, t.loc, "macro names must be identifiers");
                None
            }
            Some(t) => Some(self.macros.contains_key(&t.text)),
        }
    }

    /// Evaluates an `#if`/`#elif` expression; `None` after an error.
    fn eval_if(
        &mut self,
        fs: &FileState,
        args: Vec<Tok>,
        dir: &str,
        dir_loc: Loc,
        end: Loc,
    ) -> Option<bool> {
        if args.is_empty() {
            self.diag(fs, dir_loc, format!("{dir} with no expression"));
            return None;
        }
        // `defined X` / `defined(X)` first, then macro expansion.
        let mut toks = Vec::with_capacity(args.len());
        let mut i = 0;
        while i < args.len() {
            let t = &args[i];
            if t.kind == Kind::Ident && &*t.text == "defined" {
                let (name, next) = if args.get(i + 1).is_some_and(|n| n.is_punct("(")) {
                    let name = args.get(i + 2).filter(|n| n.kind == Kind::Ident);
                    match name {
                        Some(n) if args.get(i + 3).is_some_and(|c| c.is_punct(")")) => (n, i + 4),
                        Some(n) => {
                            self.diag(fs, n.loc, "missing ')' after \"defined\"");
                            return None;
                        }
                        None => {
                            self.diag(fs, t.loc, "operator \"defined\" requires an identifier");
                            return None;
                        }
                    }
                } else {
                    match args.get(i + 1).filter(|n| n.kind == Kind::Ident) {
                        Some(n) => (n, i + 2),
                        None => {
                            self.diag(fs, t.loc, "operator \"defined\" requires an identifier");
                            return None;
                        }
                    }
                };
                let v = self.macros.contains_key(&name.text);
                toks.push(Tok {
                    kind: Kind::Number,
                    text: Rc::from(if v { "1" } else { "0" }),
                    lead: Lead::Space,
                    hs: None,
                    loc: t.loc,
                });
                i = next;
                continue;
            }
            toks.push(t.clone());
            i += 1;
        }
        let file = fs.origin_file.clone();
        let line = fs.origin_line(fs.logical[end.line as usize].first);
        let expanded = Expander {
            macros: &self.macros,
            budget: &mut self.budget,
            line,
            file: &file,
        }
        .expand(toks, None);
        let expanded = match expanded {
            Ok(t) => t,
            Err(e) => {
                self.expand_error(fs, e);
                return None;
            }
        };
        match expr::eval(&expanded, dir, end) {
            Ok(v) => Some(v),
            Err(e) => {
                self.expand_error(fs, e);
                None
            }
        }
    }

    fn line_directive(&mut self, fs: &mut FileState, idx: usize, args: Vec<Tok>, dir_loc: Loc) {
        let file = fs.origin_file.clone();
        let line = fs.origin_line(fs.logical[idx].first);
        let toks = match (Expander {
            macros: &self.macros,
            budget: &mut self.budget,
            line,
            file: &file,
        })
        .expand(args, None)
        {
            Ok(t) => t,
            Err(e) => return self.expand_error(fs, e),
        };
        let Some(num) = toks.first() else {
            return self.diag(fs, dir_loc, "#line directive requires a line number");
        };
        let n = match num.text.parse::<u32>() {
            Ok(n) if num.kind == Kind::Number && num.text.bytes().all(|b| b.is_ascii_digit()) => n,
            _ => {
                return self.diag(
                    fs,
                    num.loc,
                    format!("\"{}\" after #line is not a positive integer", num.text),
                )
            }
        };
        let new_file = match toks.get(1) {
            None => None,
            Some(f) if f.kind == Kind::Str && toks.len() == 2 => Some(unquote(&f.text)),
            Some(f) => {
                return self.diag(
                    fs,
                    f.loc,
                    format!("invalid filename \"{}\" in #line", f.text),
                )
            }
        };
        let ll = &fs.logical[idx];
        let next_phys = (ll.first + ll.count) as i64;
        fs.pending_line = Some((
            i64::from(n) - next_phys,
            new_file.map(|f| Arc::from(f.as_str())),
        ));
    }

    /// `#include`; returns whether the file was included (its lines were emitted).
    fn include(
        &mut self,
        fs: &mut FileState,
        idx: usize,
        lexed: &Lexed,
        args: Vec<Tok>,
        depth: usize,
        dir_loc: Loc,
    ) -> bool {
        let text = &fs.logical[idx].text;
        // The operand: `"name"`, `<name>`, or macros expanding to one of these.
        let raw = lexed
            .spans
            .get(2)
            .map_or("", |s| &text[s.start as usize..lexed.tail as usize]);
        let parsed = parse_include_operand(raw).map(|(n, s)| (n.to_string(), s));
        let (req, system) = match parsed {
            Some(p) => p,
            None => {
                let file = fs.origin_file.clone();
                let line = fs.origin_line(fs.logical[idx].first);
                let ex = Expander {
                    macros: &self.macros,
                    budget: &mut self.budget,
                    line,
                    file: &file,
                }
                .expand(args, None);
                let toks = match ex {
                    Ok(t) => t,
                    Err(e) => {
                        self.expand_error(fs, e);
                        return false;
                    }
                };
                let mut s = String::new();
                for (i, t) in toks.iter().enumerate() {
                    if i > 0 && t.lead.is_some() {
                        s.push(' ');
                    }
                    s.push_str(&t.text);
                }
                match parse_include_operand(&s) {
                    Some((n, sys)) => (n.to_string(), sys),
                    None => {
                        self.diag(fs, dir_loc, "#include expects \"FILENAME\" or <FILENAME>");
                        return false;
                    }
                }
            }
        };
        let op_loc = lexed.spans.get(2).map_or(dir_loc, |s| Loc {
            line: idx as u32,
            off: s.start,
            len: lexed.spans.last().map_or(s.end, |l| l.end) - s.start,
        });
        if req.is_empty() {
            self.diag(fs, op_loc, "empty filename in #include");
            return false;
        }
        if depth + 1 > MAX_INCLUDE_DEPTH {
            self.diag(
                fs,
                dir_loc,
                format!("#include nested too deeply (more than {MAX_INCLUDE_DEPTH} levels)"),
            );
            self.fatal = true;
            return false;
        }
        self.includes += 1;
        if self.includes > MAX_INCLUDES {
            self.diag(
                fs,
                dir_loc,
                format!("too many #include directives (more than {MAX_INCLUDES})"),
            );
            self.fatal = true;
            return false;
        }
        let found = match &self.opts.include {
            Some(handler) => handler(&req, &fs.name),
            None => self.find_include(&req, system, &fs.name),
        };
        let Some((resolved, contents)) = found else {
            self.diag(fs, op_loc, format!("cannot open include file \"{req}\""));
            return false;
        };
        if self.once.contains(&resolved) {
            return true;
        }
        let contents = contents.trim_end_matches('\0');
        self.included_bytes += contents.len();
        if self.included_bytes > MAX_INCLUDED_BYTES {
            self.diag(
                fs,
                dir_loc,
                format!("included text exceeds {MAX_INCLUDED_BYTES} bytes"),
            );
            self.fatal = true;
            return false;
        }
        self.run_file(&resolved, contents, depth + 1, true);
        true
    }

    fn find_include(&self, req: &str, system: bool, including: &str) -> Option<(String, String)> {
        let mut dirs: Vec<PathBuf> = Vec::new();
        if !system {
            dirs.push(
                Path::new(including)
                    .parent()
                    .map(Path::to_path_buf)
                    .unwrap_or_default(),
            );
        }
        dirs.extend(self.opts.include_dirs.iter().cloned());
        // Windows listings may write `sub\file.inc`.
        let alt = req.replace('\\', "/");
        let names: Vec<&str> = if alt != req {
            vec![req, &alt]
        } else {
            vec![req]
        };
        for (d, name) in dirs.iter().flat_map(|d| names.iter().map(move |n| (d, n))) {
            let p = d.join(name);
            if p.is_file() {
                let bytes = std::fs::read(&p).ok()?;
                let text = String::from_utf8_lossy(&bytes).into_owned();
                return Some((p.to_string_lossy().into_owned(), text));
            }
        }
        None
    }
}

/// `"name"` or `<name>` (followed by nothing but whitespace/comments) → (name, system).
fn parse_include_operand(s: &str) -> Option<(&str, bool)> {
    let s = s.trim_start();
    let (close, system) = match s.chars().next()? {
        '"' => ('"', false),
        '<' => ('>', true),
        _ => return None,
    };
    let end = s[1..].find(close)? + 1;
    let rest = &s[end + 1..];
    let mut c = false;
    if !lex(rest, &mut c).spans.is_empty() {
        return None;
    }
    Some((&s[1..end], system))
}

/// The contents of a string literal, escapes resolved.
fn unquote(s: &str) -> String {
    let inner = s
        .strip_prefix('"')
        .and_then(|s| s.strip_suffix('"'))
        .unwrap_or(s);
    let mut o = String::new();
    let mut it = inner.chars();
    while let Some(c) = it.next() {
        if c == '\\' {
            if let Some(n) = it.next() {
                o.push(n);
            }
        } else {
            o.push(c);
        }
    }
    o
}
