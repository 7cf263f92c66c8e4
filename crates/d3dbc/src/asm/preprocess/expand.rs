//! Macro definitions and expansion, C style: object- and function-like macros, `#`
//! stringizing, `##` pasting, and the recursion guard by per-token hide sets (Prosser's
//! algorithm). Work is bounded: tokens per expansion, argument nesting, and a global
//! step budget turn macro bombs into errors.

use std::collections::HashMap;
use std::rc::Rc;

use super::lex::{lex, Kind};

/// Most tokens one line may grow by through macro expansion.
pub(crate) const MAX_LINE_TOKENS: usize = 1 << 16;
/// Deepest nesting of macro invocations inside macro arguments.
pub(crate) const MAX_ARG_DEPTH: usize = 200;

/// Where a token came from: logical line index in the current file, byte offset and
/// length there.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Loc {
    pub line: u32,
    pub off: u32,
    pub len: u32,
}

/// The whitespace before a token.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Lead {
    /// None.
    None,
    /// Some (written as one space).
    Space,
    /// Original text `[a, b)` of the token's own logical line (written verbatim when the
    /// token reaches the output unexpanded on its own line).
    Src(u32, u32),
}

impl Lead {
    pub fn is_some(self) -> bool {
        match self {
            Lead::None => false,
            Lead::Space => true,
            Lead::Src(a, b) => a < b,
        }
    }
    fn normalized(self) -> Lead {
        if self.is_some() {
            Lead::Space
        } else {
            Lead::None
        }
    }
}

/// A hide set: ids of the macros a token must not expand (sorted).
pub(crate) type Hs = Option<Rc<[u32]>>;

fn hs_contains(hs: &Hs, id: u32) -> bool {
    hs.as_ref().is_some_and(|h| h.binary_search(&id).is_ok())
}

fn hs_union(a: &Hs, b: &Hs) -> Hs {
    match (a, b) {
        (None, x) | (x, None) => x.clone(),
        (Some(x), Some(y)) => {
            if Rc::ptr_eq(x, y) {
                return a.clone();
            }
            // Merge two sorted sets.
            let mut v = Vec::with_capacity(x.len() + y.len());
            let (mut i, mut j) = (0, 0);
            while i < x.len() && j < y.len() {
                match x[i].cmp(&y[j]) {
                    std::cmp::Ordering::Less => {
                        v.push(x[i]);
                        i += 1;
                    }
                    std::cmp::Ordering::Greater => {
                        v.push(y[j]);
                        j += 1;
                    }
                    std::cmp::Ordering::Equal => {
                        v.push(x[i]);
                        i += 1;
                        j += 1;
                    }
                }
            }
            if v.len() + (x.len() - i) == x.len() && j == y.len() {
                // `y` was a subset of `x`.
                return a.clone();
            }
            v.extend_from_slice(&x[i..]);
            v.extend_from_slice(&y[j..]);
            Some(v.into())
        }
    }
}

fn hs_intersect(a: &Hs, b: &Hs) -> Hs {
    match (a, b) {
        (Some(x), Some(y)) => {
            let v: Vec<u32> = x
                .iter()
                .copied()
                .filter(|i| y.binary_search(i).is_ok())
                .collect();
            if v.is_empty() {
                None
            } else {
                Some(v.into())
            }
        }
        _ => None,
    }
}

fn hs_add(a: &Hs, id: u32) -> Hs {
    match a {
        None => Some(Rc::from([id].as_slice())),
        Some(x) => match x.binary_search(&id) {
            Ok(_) => a.clone(),
            Err(pos) => {
                let mut v = Vec::with_capacity(x.len() + 1);
                v.extend_from_slice(&x[..pos]);
                v.push(id);
                v.extend_from_slice(&x[pos..]);
                Some(v.into())
            }
        },
    }
}

/// A preprocessing token with its hide set and origin.
#[derive(Clone, Debug)]
pub(crate) struct Tok {
    pub kind: Kind,
    pub text: Rc<str>,
    pub lead: Lead,
    pub hs: Hs,
    pub loc: Loc,
}

impl Tok {
    pub fn is_punct(&self, p: &str) -> bool {
        self.kind == Kind::Punct && &*self.text == p
    }
    fn placemarker(loc: Loc) -> Tok {
        Tok {
            kind: Kind::Placemarker,
            text: Rc::from(""),
            lead: Lead::None,
            hs: None,
            loc,
        }
    }
}

/// One item of a macro body.
#[derive(Clone, Debug)]
pub(crate) enum BodyItem {
    /// A plain token.
    Tok(Tok),
    /// A parameter (by index) with the whitespace before it.
    Param(usize, Lead),
    /// `#param`.
    Stringize(usize, Lead),
    /// `##`.
    Paste,
}

/// Macros the preprocessor computes itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Builtin {
    Line,
    File,
}

/// A macro definition.
#[derive(Clone, Debug)]
pub(crate) struct Macro {
    pub id: u32,
    /// `None` for object-like macros.
    pub params: Option<Vec<Rc<str>>>,
    /// The last parameter is `__VA_ARGS__`.
    pub variadic: bool,
    pub body: Vec<BodyItem>,
    pub builtin: Option<Builtin>,
}

/// An expansion error at a token.
#[derive(Clone, Debug)]
pub(crate) struct ExpandError {
    pub loc: Loc,
    pub msg: String,
    /// Stop preprocessing (limits).
    pub fatal: bool,
}

fn err(loc: Loc, msg: impl Into<String>) -> ExpandError {
    ExpandError {
        loc,
        msg: msg.into(),
        fatal: false,
    }
}

fn fatal(loc: Loc, msg: impl Into<String>) -> ExpandError {
    ExpandError {
        loc,
        msg: msg.into(),
        fatal: true,
    }
}

/// Fetches more input for a macro invocation that continues past its line: with
/// `true`, only a next line that starts with `(`; with `false`, any next text line.
pub(crate) type Fetch<'f> = dyn FnMut(bool) -> Option<Vec<Tok>> + 'f;

/// Expansion context.
pub(crate) struct Expander<'a> {
    pub macros: &'a HashMap<Rc<str>, Macro>,
    /// Remaining global work (tokens produced); exhausting it is fatal.
    pub budget: &'a mut u64,
    /// `__LINE__` value.
    pub line: u32,
    /// `__FILE__` value.
    pub file: &'a str,
}

impl Expander<'_> {
    fn spend(&mut self, n: usize, loc: Loc) -> Result<(), ExpandError> {
        let n = n as u64 + 1;
        if *self.budget < n {
            *self.budget = 0;
            return Err(fatal(
                loc,
                "preprocessing exceeds the work limit (macro expansion too costly)",
            ));
        }
        *self.budget -= n;
        Ok(())
    }

    /// Fully expands a token list; `fetch` supplies following lines for invocations
    /// whose arguments continue there.
    pub fn expand(
        &mut self,
        tokens: Vec<Tok>,
        fetch: Option<&mut Fetch<'_>>,
    ) -> Result<Vec<Tok>, ExpandError> {
        self.expand_at(tokens, fetch, 0)
    }

    fn expand_at(
        &mut self,
        tokens: Vec<Tok>,
        mut fetch: Option<&mut Fetch<'_>>,
        depth: usize,
    ) -> Result<Vec<Tok>, ExpandError> {
        // A stack: the next token is at the end.
        let mut stack: Vec<Tok> = tokens;
        stack.reverse();
        let limit = stack.len() + MAX_LINE_TOKENS;
        let mut out: Vec<Tok> = Vec::new();
        while let Some(t) = stack.pop() {
            if out.len() + stack.len() > limit {
                return Err(fatal(
                    t.loc,
                    format!("macro expansion too large (more than {MAX_LINE_TOKENS} tokens)"),
                ));
            }
            let m = match (t.kind, self.macros.get(&t.text)) {
                (Kind::Ident, Some(m)) if !hs_contains(&t.hs, m.id) => m,
                _ => {
                    out.push(t);
                    continue;
                }
            };
            self.spend(0, t.loc)?;
            if let Some(b) = m.builtin {
                let (kind, text) = match b {
                    Builtin::Line => (Kind::Number, self.line.to_string()),
                    Builtin::File => (Kind::Str, stringize_text(self.file)),
                };
                out.push(Tok {
                    kind,
                    text: text.into(),
                    lead: t.lead,
                    hs: t.hs.clone(),
                    loc: t.loc,
                });
                continue;
            }
            let params = match &m.params {
                None => {
                    let hs = hs_add(&t.hs, m.id);
                    let repl = self.subst(m, &t, &[], &hs, depth)?;
                    stack.extend(repl.into_iter().rev());
                    continue;
                }
                Some(p) => p,
            };
            // Function-like: needs `(` next.
            if stack.is_empty() {
                if let Some(f) = fetch.as_deref_mut() {
                    if let Some(more) = f(true) {
                        stack.extend(more.into_iter().rev());
                    }
                }
            }
            if !stack.last().is_some_and(|n| n.is_punct("(")) {
                out.push(t);
                continue;
            }
            stack.pop();
            let mut args: Vec<Vec<Tok>> = vec![Vec::new()];
            let mut level = 0usize;
            let rparen = loop {
                let a = match stack.pop() {
                    Some(a) => a,
                    None => {
                        let more = fetch.as_deref_mut().and_then(|f| f(false));
                        match more {
                            Some(more) => {
                                self.spend(more.len(), t.loc)?;
                                stack.extend(more.into_iter().rev());
                                continue;
                            }
                            None => {
                                return Err(err(
                                    t.loc,
                                    format!(
                                        "unterminated argument list invoking macro \"{}\"",
                                        t.text
                                    ),
                                ))
                            }
                        }
                    }
                };
                if a.kind == Kind::Punct {
                    match &*a.text {
                        "(" => level += 1,
                        ")" if level == 0 => break a,
                        ")" => level -= 1,
                        "," if level == 0 => {
                            args.push(Vec::new());
                            continue;
                        }
                        _ => {}
                    }
                }
                let last = args.last_mut().expect("args never empty");
                let mut a = a;
                if last.is_empty() {
                    a.lead = Lead::None;
                } else {
                    a.lead = a.lead.normalized();
                }
                last.push(a);
            };
            let n = params.len();
            if n == 0 && args.len() == 1 && args[0].is_empty() {
                args.clear();
            }
            if m.variadic {
                if args.len() + 1 == n {
                    args.push(Vec::new());
                } else if args.len() > n {
                    let extra: Vec<Vec<Tok>> = args.drain(n - 1..).collect();
                    let mut joined = Vec::new();
                    for (i, e) in extra.into_iter().enumerate() {
                        if i > 0 {
                            joined.push(Tok {
                                kind: Kind::Punct,
                                text: Rc::from(","),
                                lead: Lead::None,
                                hs: None,
                                loc: t.loc,
                            });
                        }
                        let mut e = e;
                        if i > 0 {
                            if let Some(f) = e.first_mut() {
                                f.lead = Lead::Space;
                            }
                        }
                        joined.extend(e);
                    }
                    args.push(joined);
                }
            }
            if args.len() != n {
                let msg = if args.len() < n {
                    format!(
                        "macro \"{}\" requires {} argument{}, but only {} given",
                        t.text,
                        n,
                        if n == 1 { "" } else { "s" },
                        args.len()
                    )
                } else {
                    format!(
                        "macro \"{}\" passed {} arguments, but takes just {}",
                        t.text,
                        args.len(),
                        n
                    )
                };
                return Err(err(t.loc, msg));
            }
            let hs = hs_add(&hs_intersect(&t.hs, &rparen.hs), m.id);
            let repl = self.subst(m, &t, &args, &hs, depth)?;
            stack.extend(repl.into_iter().rev());
        }
        Ok(out)
    }

    /// Substitutes arguments into a macro body (the invocation's name token is `name`).
    fn subst(
        &mut self,
        m: &Macro,
        name: &Tok,
        args: &[Vec<Tok>],
        hs: &Hs,
        depth: usize,
    ) -> Result<Vec<Tok>, ExpandError> {
        let mut expanded: Vec<Option<Vec<Tok>>> = vec![None; args.len()];
        let mut out: Vec<Tok> = Vec::with_capacity(m.body.len());
        let loc = name.loc;
        let mut i = 0;
        while i < m.body.len() {
            match &m.body[i] {
                BodyItem::Tok(t) => {
                    let mut t = t.clone();
                    t.loc = loc;
                    out.push(t);
                }
                BodyItem::Stringize(p, lead) => {
                    out.push(stringize(&args[*p], *lead, loc));
                }
                BodyItem::Param(p, lead) => {
                    let before_paste = matches!(m.body.get(i + 1), Some(BodyItem::Paste));
                    let toks: Vec<Tok> = if before_paste {
                        args[*p].clone()
                    } else {
                        if expanded[*p].is_none() {
                            if depth >= MAX_ARG_DEPTH {
                                return Err(fatal(loc, "macro invocations nested too deeply"));
                            }
                            let e = self.expand_at(args[*p].clone(), None, depth + 1)?;
                            expanded[*p] = Some(e);
                        }
                        expanded[*p].clone().unwrap_or_default()
                    };
                    self.spend(toks.len(), loc)?;
                    if toks.is_empty() {
                        out.push(Tok::placemarker(loc));
                    } else {
                        let start = out.len();
                        out.extend(toks);
                        out[start].lead = *lead;
                    }
                }
                BodyItem::Paste => {
                    // Validated at definition: never first or last.
                    let rhs: Vec<Tok> = match m.body.get(i + 1) {
                        Some(BodyItem::Tok(t)) => {
                            let mut t = t.clone();
                            t.loc = loc;
                            vec![t]
                        }
                        Some(BodyItem::Param(p, _)) => {
                            if args[*p].is_empty() {
                                vec![Tok::placemarker(loc)]
                            } else {
                                args[*p].clone()
                            }
                        }
                        Some(BodyItem::Stringize(p, lead)) => {
                            vec![stringize(&args[*p], *lead, loc)]
                        }
                        Some(BodyItem::Paste) | None => vec![Tok {
                            kind: Kind::Punct,
                            text: Rc::from("##"),
                            lead: Lead::None,
                            hs: None,
                            loc,
                        }],
                    };
                    self.spend(rhs.len(), loc)?;
                    let mut rhs = rhs.into_iter();
                    let first = rhs.next().expect("rhs never empty");
                    match out.pop() {
                        Some(lhs) => out.extend(paste(lhs, first)),
                        None => out.push(first),
                    }
                    out.extend(rhs);
                    i += 2;
                    continue;
                }
            }
            i += 1;
        }
        out.retain(|t| t.kind != Kind::Placemarker);
        self.spend(out.len(), loc)?;
        for t in &mut out {
            t.hs = hs_union(&t.hs, hs);
        }
        if let Some(f) = out.first_mut() {
            f.lead = name.lead;
        }
        Ok(out)
    }
}

/// `lhs ## rhs`. When the joined text is not a sequence of tokens without whitespace
/// (it would start a comment), the two tokens stay apart.
fn paste(lhs: Tok, rhs: Tok) -> Vec<Tok> {
    if lhs.kind == Kind::Placemarker {
        let mut r = rhs;
        r.lead = lhs.lead;
        return vec![r];
    }
    if rhs.kind == Kind::Placemarker {
        return vec![lhs];
    }
    let text = format!("{}{}", lhs.text, rhs.text);
    let mut c = false;
    let lexed = lex(&text, &mut c);
    let contiguous = !c
        && lexed.tail as usize == text.len()
        && lexed.spans.iter().all(|s| s.lead == s.start)
        && lexed.spans.first().is_some_and(|s| s.start == 0);
    if !contiguous {
        return vec![lhs, rhs];
    }
    lexed
        .spans
        .iter()
        .enumerate()
        .map(|(k, s)| Tok {
            kind: s.kind,
            text: Rc::from(&text[s.start as usize..s.end as usize]),
            lead: if k == 0 { lhs.lead } else { Lead::None },
            hs: hs_union(&lhs.hs, &rhs.hs),
            loc: lhs.loc,
        })
        .collect()
}

fn stringize_text(s: &str) -> String {
    let mut o = String::with_capacity(s.len() + 2);
    o.push('"');
    for c in s.chars() {
        if c == '"' || c == '\\' {
            o.push('\\');
        }
        o.push(c);
    }
    o.push('"');
    o
}

/// `#param`: the argument's spelling as a string literal.
fn stringize(arg: &[Tok], lead: Lead, loc: Loc) -> Tok {
    let mut s = String::from("\"");
    for (i, t) in arg.iter().enumerate() {
        if i > 0 && t.lead.is_some() {
            s.push(' ');
        }
        if t.kind == Kind::Str || t.text.contains(['"', '\\']) {
            for c in t.text.chars() {
                if c == '"' || c == '\\' {
                    s.push('\\');
                }
                s.push(c);
            }
        } else {
            s.push_str(&t.text);
        }
    }
    s.push('"');
    Tok {
        kind: Kind::Str,
        text: s.into(),
        lead,
        hs: None,
        loc,
    }
}

/// Parses a `#define` after the directive name: `tokens` starts at the macro name.
/// Returns the name and the macro (with id 0; the caller assigns ids).
pub(crate) fn parse_define(tokens: &[Tok], dir_loc: Loc) -> Result<(Rc<str>, Macro), ExpandError> {
    let Some(name) = tokens.first() else {
        return Err(err(dir_loc, "no macro name given in #define directive"));
    };
    if name.kind != Kind::Ident {
        return Err(err(name.loc, "macro names must be identifiers"));
    }
    if &*name.text == "defined" {
        return Err(err(name.loc, "\"defined\" cannot be used as a macro name"));
    }
    let mut i = 1;
    let mut params: Option<Vec<Rc<str>>> = None;
    let mut variadic = false;
    // Function-like only when `(` follows the name with no whitespace.
    if tokens
        .get(1)
        .is_some_and(|t| t.is_punct("(") && !t.lead.is_some())
    {
        let mut ps: Vec<Rc<str>> = Vec::new();
        i = 2;
        let mut expect_name = true;
        loop {
            let Some(t) = tokens.get(i) else {
                return Err(err(
                    tokens[i - 1].loc,
                    "missing ')' in macro parameter list",
                ));
            };
            i += 1;
            if t.is_punct(")") {
                if expect_name && !ps.is_empty() {
                    return Err(err(t.loc, "expected parameter name before ')'"));
                }
                break;
            }
            if expect_name {
                if t.is_punct("...") {
                    ps.push(Rc::from("__VA_ARGS__"));
                    variadic = true;
                    if !tokens.get(i).is_some_and(|t| t.is_punct(")")) {
                        return Err(err(
                            t.loc,
                            "missing ')' after \"...\" in macro parameter list",
                        ));
                    }
                    expect_name = false;
                    continue;
                }
                if t.kind != Kind::Ident {
                    return Err(err(
                        t.loc,
                        format!("expected parameter name, found \"{}\"", t.text),
                    ));
                }
                if ps.contains(&t.text) {
                    return Err(err(
                        t.loc,
                        format!("duplicate macro parameter \"{}\"", t.text),
                    ));
                }
                ps.push(t.text.clone());
                expect_name = false;
            } else if t.is_punct(",") {
                expect_name = true;
            } else {
                return Err(err(
                    t.loc,
                    format!(
                        "expected ',' or ')' in macro parameter list, found \"{}\"",
                        t.text
                    ),
                ));
            }
        }
        params = Some(ps);
    }
    let mut body = Vec::new();
    let rest = &tokens[i..];
    let mut j = 0;
    while j < rest.len() {
        let t = &rest[j];
        let lead = if j == 0 {
            Lead::None
        } else {
            t.lead.normalized()
        };
        let param_idx = |tok: &Tok| -> Option<usize> {
            if tok.kind != Kind::Ident {
                return None;
            }
            params.as_ref()?.iter().position(|p| *p == tok.text)
        };
        if t.is_punct("##") {
            if j == 0 || j + 1 == rest.len() {
                return Err(err(
                    t.loc,
                    "'##' cannot appear at either end of a macro expansion",
                ));
            }
            body.push(BodyItem::Paste);
        } else if params.is_some() && t.is_punct("#") {
            match rest.get(j + 1).and_then(param_idx) {
                Some(p) => {
                    body.push(BodyItem::Stringize(p, lead));
                    j += 2;
                    continue;
                }
                None => return Err(err(t.loc, "'#' is not followed by a macro parameter")),
            }
        } else if let Some(p) = param_idx(t) {
            body.push(BodyItem::Param(p, lead));
        } else {
            let mut t = t.clone();
            t.lead = lead;
            t.hs = None;
            body.push(BodyItem::Tok(t));
        }
        j += 1;
    }
    Ok((
        name.text.clone(),
        Macro {
            id: 0,
            params,
            variadic,
            body,
            builtin: None,
        },
    ))
}
