//! Diagnostics for text input: `file:line:col: error: message`, the source line and a
//! caret, as a compiler prints them. Shared by the preprocessor, the assembler and the
//! validator (when it runs inside `asm`).

use std::fmt;

/// How bad a diagnostic is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum Severity {
    /// The input is rejected.
    Error,
    /// Accepted, but worth a look.
    Warning,
}

/// One problem at one place in a text.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Diagnostic {
    /// Error or warning.
    pub severity: Severity,
    /// Stable code (`E0203`) for validation findings; `None` for syntax errors.
    pub code: Option<&'static str>,
    /// File name as given by the caller or by `#include`/`#line`.
    pub file: String,
    /// 1-based line.
    pub line: u32,
    /// 1-based column (in characters).
    pub col: u32,
    /// Length of the offending text in characters (at least 1), for the caret.
    pub len: u32,
    /// The message, without location.
    pub message: String,
    /// The source line, for the caret display.
    pub source_line: String,
}

impl Diagnostic {
    /// An error.
    pub fn error(
        file: &str,
        line: u32,
        col: u32,
        len: u32,
        message: impl Into<String>,
        source_line: &str,
    ) -> Self {
        Diagnostic {
            severity: Severity::Error,
            code: None,
            file: file.to_string(),
            line,
            col,
            len: len.max(1),
            message: message.into(),
            source_line: source_line.trim_end_matches(['\r', '\n']).to_string(),
        }
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sev = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        write!(f, "{}:{}:{}: {sev}", self.file, self.line, self.col)?;
        if let Some(code) = self.code {
            write!(f, "[{code}]")?;
        }
        writeln!(f, ": {}", escape(&self.message))?;
        // The echoed line is escaped (a raw ESC would drive the user's terminal, a NUL
        // or invalid UTF-8 would garble it); the caret follows the escaped widths.
        let mut line = String::with_capacity(self.source_line.len());
        let (mut pad, mut width) = (0usize, 0usize);
        let (start, end) = (
            self.col.saturating_sub(1) as usize,
            (self.col.saturating_sub(1) + self.len) as usize,
        );
        let mut chars = 0usize;
        for (i, c) in self.source_line.chars().enumerate() {
            let before = line.len();
            push_escaped(c, &mut line);
            let w = line[before..].chars().count();
            if i < start {
                pad += w;
            } else if i < end {
                width += w;
            }
            chars = i + 1;
        }
        // Carets past the end of the line (a missing operand) keep their own width.
        pad += start.saturating_sub(chars);
        width += end.saturating_sub(start.max(chars));
        writeln!(f, "  {line}")?;
        write!(f, "  {}{}", " ".repeat(pad), "^".repeat(width.max(1)))
    }
}

/// One character as it is safe to show on a terminal: tabs as a space, other control
/// characters as `\xNN`/`\u{…}`, bidirectional overrides and U+FFFD (what invalid
/// UTF-8 decodes to) as `\u{…}`.
fn push_escaped(c: char, out: &mut String) {
    use std::fmt::Write as _;
    match c {
        '\t' => out.push(' '),
        c if (c as u32) < 0x80 && c.is_control() => {
            let _ = write!(out, "\\x{:02x}", c as u32);
        }
        c if c.is_control()
            || c == char::REPLACEMENT_CHARACTER
            || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}') =>
        {
            let _ = write!(out, "\\u{{{:x}}}", c as u32);
        }
        c => out.push(c),
    }
}

/// Escapes text echoed from the input (source lines, names quoted in messages) so it
/// cannot drive or garble a terminal: see the rules of the diagnostic display.
///
/// ```
/// assert_eq!(d3dbc::escape("mov\x1b[2J r0\0"), "mov\\x1b[2J r0\\x00");
/// assert_eq!(d3dbc::escape("plain\ttext"), "plain text");
/// ```
pub fn escape(s: &str) -> std::borrow::Cow<'_, str> {
    let safe = |c: char| {
        !c.is_control()
            && c != char::REPLACEMENT_CHARACTER
            && !matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
    };
    if s.chars().all(safe) {
        return std::borrow::Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    s.chars().for_each(|c| push_escaped(c, &mut out));
    std::borrow::Cow::Owned(out)
}

/// Several diagnostics (an assembler run reports every problem it can recover from).
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Diagnostics(pub Vec<Diagnostic>);

impl fmt::Display for Diagnostics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, d) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{d}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Diagnostics {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn echoed_lines_are_escaped_and_carets_follow() {
        // Column 7 is `r9`, after `ESC [ 2 J NUL space` (6 characters, 12 escaped).
        let d = Diagnostic::error("f", 1, 7, 2, "bad", "\x1b[2J\0 r9\u{fffd}");
        assert_eq!(
            d.to_string(),
            "f:1:7: error: bad\n  \\x1b[2J\\x00 r9\\u{fffd}\n              ^^"
        );
        let tab = Diagnostic::error("f", 1, 2, 1, "m", "\tx");
        assert!(tab.to_string().ends_with("\n   x\n   ^"));
    }
}
