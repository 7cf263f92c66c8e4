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
        writeln!(f, ": {}", self.message)?;
        let src = self.source_line.replace('\t', " ");
        writeln!(f, "  {src}")?;
        let pad = " ".repeat(self.col.saturating_sub(1) as usize);
        write!(f, "  {pad}{}", "^".repeat(self.len as usize))
    }
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
