//! Errors: [`Error`] and the [`ErrorKind`] naming the exception class the bindings
//! raise, the conversions from the library's errors, and validator [`Finding`]s.

use d3dbc::report;
use serde::Serialize;

/// Which exception an [`Error`] becomes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// The bytes hold no shader, or the shader does not decode.
    Decode,
    /// Assembly text does not assemble (syntax, the assembler's grammar, or the
    /// validator when assembling validates).
    Asm,
    /// The runtime validator rejects the shader (translate, run and render refuse it).
    Validation,
    /// A back end could not translate the shader.
    Translate,
    /// The executor could not run or draw the shader.
    Run,
    /// The effect is malformed, or a technique, pass or parameter does not exist.
    Effect,
    /// An argument is out of range or malformed (a register the version lacks, a size).
    Argument,
}

impl ErrorKind {
    /// The exception class the bindings raise: `DecodeError`, `AsmError`,
    /// `ValidationError`, `TranslateError`, `RunError`, `EffectError`, `ArgumentError`.
    pub fn class_name(self) -> &'static str {
        match self {
            ErrorKind::Decode => "DecodeError",
            ErrorKind::Asm => "AsmError",
            ErrorKind::Validation => "ValidationError",
            ErrorKind::Translate => "TranslateError",
            ErrorKind::Run => "RunError",
            ErrorKind::Effect => "EffectError",
            ErrorKind::Argument => "ArgumentError",
        }
    }
}

impl Serialize for ErrorKind {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.class_name())
    }
}

/// A failure: what kind (the exception class), the message (what, where and why, as the
/// `d3dbc` command says it), and the fields each kind carries.
#[derive(Clone, Debug, Serialize)]
pub struct Error {
    /// The exception class.
    pub kind: ErrorKind,
    /// The whole message.
    pub message: String,
    /// The rule's or diagnostic's code (`E0204`), when there is one.
    pub code: Option<&'static str>,
    /// 1-based line in the assembly text ([`ErrorKind::Asm`]).
    pub line: Option<u32>,
    /// 1-based column in that line.
    pub column: Option<u32>,
    /// DWORD offset in the token stream (decode errors, validator findings), or byte
    /// offset in an effect ([`ErrorKind::Effect`]).
    pub offset: Option<usize>,
    /// Every assembler diagnostic (errors and warnings) as `file:line:col: …` text with
    /// the source line and a caret ([`ErrorKind::Asm`]).
    pub diagnostics: Box<[String]>,
    /// The validator's findings ([`ErrorKind::Validation`]).
    pub findings: Box<[Finding]>,
}

impl Error {
    pub(crate) fn new(kind: ErrorKind, message: impl Into<String>) -> Error {
        Error {
            kind,
            message: message.into(),
            code: None,
            line: None,
            column: None,
            offset: None,
            diagnostics: Box::new([]),
            findings: Box::new([]),
        }
    }

    /// An [`ErrorKind::Argument`] error.
    pub fn argument(message: impl Into<String>) -> Error {
        Error::new(ErrorKind::Argument, message)
    }

    /// The error as JSON (`{"kind": "AsmError", "message", "code", "line", …}`): what
    /// the WebAssembly exports throw.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_else(|_| {
            format!(
                "{{\"kind\":\"{}\",\"message\":\"unserialisable error\"}}",
                self.kind.class_name()
            )
        })
    }
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}

/// One validator finding, with the fields `d3dbc validate --format json` writes.
#[derive(Clone, Debug, Serialize)]
pub struct Finding {
    /// The rule's stable code (`E0204`).
    pub code: &'static str,
    /// `error` or `warning`.
    pub severity: &'static str,
    /// DWORD offset of the instruction.
    pub offset: usize,
    /// The same offset as every message writes it (`+0004`).
    pub offset_hex: String,
    /// `file:line:col` for text input, else `null`.
    pub location: Option<String>,
    /// The instruction as `dis` prints it (empty for whole-shader findings).
    pub instruction: String,
    /// What is wrong (and the rule's documentation page).
    pub message: String,
}

impl Finding {
    pub(crate) fn of(f: &report::Finding) -> Finding {
        Finding {
            code: f.code,
            severity: report::severity(f.severity),
            offset: f.offset,
            offset_hex: report::hex_offset(f.offset),
            location: f.location.clone(),
            instruction: f.instruction.clone(),
            message: f.message.clone(),
        }
    }
}

/// Why a translation failed, as a [`ErrorKind::Translate`] error.
pub(crate) fn translate_error(e: impl std::fmt::Display) -> Error {
    Error::new(ErrorKind::Translate, e.to_string())
}

pub(crate) fn decode_error(e: &d3dbc::DecodeError) -> Error {
    let mut err = Error::new(ErrorKind::Decode, e.to_string());
    err.offset = Some(e.offset);
    err
}

impl From<d3dbc::DecodeError> for Error {
    fn from(e: d3dbc::DecodeError) -> Self {
        decode_error(&e)
    }
}
