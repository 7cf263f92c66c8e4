//! Line splitting and the preprocessing-token lexer: physical lines (with their
//! terminators), logical lines (backslash-newline spliced), and tokens as byte spans of
//! one logical line. Comments (`//`, `;`, `/* */`) are whitespace to the lexer; block
//! comments may span lines, so the lexer carries an "inside a comment" state.

use std::borrow::Cow;

/// One physical line of a text: its content and its terminator (`"\n"`, `"\r\n"`, or
/// `""` for a last line without one).
#[derive(Clone, Copy, Debug)]
pub(crate) struct PhysLine<'a> {
    pub text: &'a str,
    pub term: &'a str,
}

/// Splits a text into physical lines. A text ending in a newline has no extra empty line.
pub(crate) fn split_phys(text: &str) -> Vec<PhysLine<'_>> {
    let mut out = Vec::new();
    let mut rest = text;
    while !rest.is_empty() {
        match rest.find('\n') {
            Some(i) => {
                let (line, term) = if i > 0 && rest.as_bytes()[i - 1] == b'\r' {
                    (&rest[..i - 1], &rest[i - 1..=i])
                } else {
                    (&rest[..i], &rest[i..=i])
                };
                out.push(PhysLine { text: line, term });
                rest = &rest[i + 1..];
            }
            None => {
                out.push(PhysLine {
                    text: rest,
                    term: "",
                });
                rest = "";
            }
        }
    }
    out
}

/// A logical line: one or more physical lines joined where a line ends in `\`.
#[derive(Clone, Debug)]
pub(crate) struct LogicalLine<'a> {
    /// The spliced text (backslashes and newlines removed).
    pub text: Cow<'a, str>,
    /// Index of the first physical line.
    pub first: usize,
    /// Number of physical lines (at least 1).
    pub count: usize,
    /// `(offset in text, physical line index)` where each physical line's piece starts.
    pub segs: Vec<(usize, usize)>,
}

impl LogicalLine<'_> {
    /// The physical line index and byte offset within it of a logical offset.
    pub fn phys_pos(&self, off: usize) -> (usize, usize) {
        let mut best = (self.first, off);
        for &(start, phys) in &self.segs {
            if start <= off {
                best = (phys, off - start);
            } else {
                break;
            }
        }
        best
    }
}

/// Joins physical lines ending in a backslash with the next one.
pub(crate) fn join_logical<'a>(phys: &[PhysLine<'a>]) -> Vec<LogicalLine<'a>> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < phys.len() {
        let first = i;
        if !phys[i].text.ends_with('\\') || i + 1 == phys.len() {
            out.push(LogicalLine {
                text: Cow::Borrowed(phys[i].text),
                first,
                count: 1,
                segs: vec![(0, i)],
            });
            i += 1;
            continue;
        }
        let mut text = String::new();
        let mut segs = Vec::new();
        loop {
            segs.push((text.len(), i));
            let t = phys[i].text;
            if t.ends_with('\\') && i + 1 < phys.len() {
                text.push_str(&t[..t.len() - 1]);
                i += 1;
            } else {
                text.push_str(t);
                i += 1;
                break;
            }
        }
        out.push(LogicalLine {
            text: Cow::Owned(text),
            first,
            count: i - first,
            segs,
        });
    }
    out
}

/// Kind of a preprocessing token.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// `[A-Za-z_][A-Za-z0-9_]*`
    Ident,
    /// A pp-number: `1`, `0x1F`, `1.5f`, `.5`, `1e+3`.
    Number,
    /// A string literal `"..."` closed on its line.
    Str,
    /// An operator or punctuator (`##`, `&&`, `(`, ...).
    Punct,
    /// Any other single character (a lone quote, a non-ASCII character).
    Other,
    /// An empty token standing for an empty macro argument next to `##`.
    Placemarker,
}

/// A token as a span of a logical line.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Span {
    pub kind: Kind,
    /// Start of the whitespace/comments before the token.
    pub lead: u32,
    pub start: u32,
    pub end: u32,
}

/// The tokens of one logical line.
#[derive(Clone, Debug, Default)]
pub(crate) struct Lexed {
    pub spans: Vec<Span>,
    /// Start of the whitespace/comments after the last token.
    pub tail: u32,
    /// Where a block comment still open at the end of the line starts (0 when the line
    /// started inside one and never closed it).
    pub open_comment: Option<u32>,
}

const PUNCT3: [&str; 1] = ["..."];
const PUNCT2: [&str; 9] = ["##", "&&", "||", "==", "!=", "<=", ">=", "<<", ">>"];

/// Lexes one logical line. `in_comment` is whether the line starts inside a block
/// comment; it is updated to whether the line ends inside one.
pub(crate) fn lex(text: &str, in_comment: &mut bool) -> Lexed {
    let b = text.as_bytes();
    let n = b.len();
    let mut i = 0;
    let mut spans = Vec::new();
    let mut lead = 0;
    let mut open_comment = None;
    if *in_comment {
        match text.find("*/") {
            Some(p) => {
                i = p + 2;
                *in_comment = false;
            }
            None => {
                return Lexed {
                    spans,
                    tail: 0,
                    open_comment: Some(0),
                }
            }
        }
    }
    while i < n {
        let c = b[i];
        match c {
            b' ' | b'\t' | b'\r' | b'\x0b' | b'\x0c' => {
                i += 1;
                continue;
            }
            // `//` and `;` comments run to the end of the line.
            b'/' if i + 1 < n && b[i + 1] == b'/' => break,
            b';' => break,
            b'/' if i + 1 < n && b[i + 1] == b'*' => {
                match text[i + 2..].find("*/") {
                    Some(p) => i = i + 2 + p + 2,
                    None => {
                        open_comment = Some(i as u32);
                        *in_comment = true;
                        i = n;
                    }
                }
                continue;
            }
            _ => {}
        }
        let start = i;
        let kind;
        if c.is_ascii_alphabetic() || c == b'_' {
            i += 1;
            while i < n && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            kind = Kind::Ident;
        } else if c.is_ascii_digit() || (c == b'.' && i + 1 < n && b[i + 1].is_ascii_digit()) {
            i += 1;
            while i < n {
                let d = b[i];
                let sign =
                    (d == b'+' || d == b'-') && matches!(b[i - 1], b'e' | b'E' | b'p' | b'P');
                if sign || d.is_ascii_alphanumeric() || d == b'_' || d == b'.' {
                    i += 1;
                } else {
                    break;
                }
            }
            kind = Kind::Number;
        } else if c == b'"' {
            let mut j = i + 1;
            let mut closed = false;
            while j < n {
                match b[j] {
                    b'\\' => j += 2,
                    b'"' => {
                        closed = true;
                        j += 1;
                        break;
                    }
                    _ => j += 1,
                }
            }
            if closed {
                i = j;
                kind = Kind::Str;
            } else {
                i += 1;
                kind = Kind::Other;
            }
        } else if c.is_ascii_punctuation() {
            let rest = &text[i..];
            if let Some(p) = PUNCT3
                .iter()
                .chain(PUNCT2.iter())
                .find(|p| rest.starts_with(**p))
            {
                i += p.len();
            } else {
                i += 1;
            }
            kind = if c == b'\'' { Kind::Other } else { Kind::Punct };
        } else {
            // Any other character, whole (UTF-8 aware).
            let ch = text[i..].chars().next().map_or(1, char::len_utf8);
            i += ch;
            kind = Kind::Other;
        }
        spans.push(Span {
            kind,
            lead: lead as u32,
            start: start as u32,
            end: i as u32,
        });
        lead = i;
    }
    Lexed {
        spans,
        tail: lead as u32,
        open_comment,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(t: &str) -> Vec<(Kind, String)> {
        let mut c = false;
        let l = lex(t, &mut c);
        l.spans
            .iter()
            .map(|s| (s.kind, t[s.start as usize..s.end as usize].to_string()))
            .collect()
    }

    #[test]
    fn tokens() {
        let k = kinds("mov r0.x, c0[a0.x + 2] ; it's");
        let texts: Vec<_> = k.iter().map(|(_, s)| s.as_str()).collect();
        assert_eq!(
            texts,
            ["mov", "r0", ".", "x", ",", "c0", "[", "a0", ".", "x", "+", "2", "]"]
        );
        assert_eq!(kinds("1.0f -0.5 .5 1e+5")[0].0, Kind::Number);
        assert_eq!(kinds("1e+5").len(), 1);
        assert_eq!(kinds("a ## b")[1].1, "##");
    }

    #[test]
    fn splice() {
        let p = split_phys("a\\\r\nb\nc\\\nd");
        let l = join_logical(&p);
        assert_eq!(l.len(), 2);
        assert_eq!(l[0].text, "ab");
        assert_eq!(l[1].text, "cd");
        assert_eq!(l[1].phys_pos(1), (3, 0));
    }
}
