//! JSON output: the shapes `dis --format json` and `validate --format json` share, and a
//! streaming writer so a huge shader is written item by item (compact, or indented
//! with `--pretty`) in memory bounded per instruction.
//!
//! Top level is always an array with one record per input:
//! `{"file", "status", "shaders": [...], "diagnostics": [...]}`. Registers, masks,
//! swizzles and usages are named as `dis` prints them (`"mask": "xy"`,
//! `"swizzle": "xxyz"`, `"usage": "texcoord"`); offsets are DWORD counts with their
//! `+01b7` hex form beside them.

use std::io::Write;

use d3dbc::ctab::Ctab;
use d3dbc::Diagnostic;
use d3dbc::{Decoder, Event};
use serde::Serialize;
use serde_json::{json, Map, Value};

use crate::batch::json_ok;

/// Writes JSON pieces to a stream, indented or compact.
pub struct JsonWriter<'w> {
    w: &'w mut dyn Write,
    pretty: bool,
    buf: Vec<u8>,
}

impl<'w> JsonWriter<'w> {
    /// A writer over `w`.
    pub fn new(w: &'w mut dyn Write, pretty: bool) -> Self {
        JsonWriter {
            w,
            pretty,
            buf: Vec::new(),
        }
    }

    /// Raw text.
    pub fn raw(&mut self, s: &str) -> Result<(), String> {
        crate::batch::pipe_ok(self.w.write_all(s.as_bytes()))
    }

    /// A line break and indentation to `depth` (nothing when compact).
    pub fn nl(&mut self, depth: usize) -> Result<(), String> {
        if self.pretty {
            self.raw("\n")?;
            for _ in 0..depth {
                self.raw("  ")?;
            }
        }
        Ok(())
    }

    /// `"key": ` (or `"key":`).
    pub fn key(&mut self, k: &str) -> Result<(), String> {
        json_ok(serde_json::to_writer(&mut *self.w, k))?;
        self.raw(if self.pretty { ": " } else { ":" })
    }

    /// A value, indented as if it started at `depth`.
    pub fn value(&mut self, v: &Value, depth: usize) -> Result<(), String> {
        if !self.pretty {
            return json_ok(serde_json::to_writer(&mut *self.w, v));
        }
        let s = serde_json::to_string_pretty(v).map_err(|e| e.to_string())?;
        for (i, line) in s.split('\n').enumerate() {
            if i > 0 {
                self.nl(depth)?;
            }
            self.raw(line)?;
        }
        Ok(())
    }

    /// A serialisable item, indented as if it started at `depth`; pretty output goes
    /// through a reused buffer, compact output straight to the stream.
    pub fn item<T: Serialize>(&mut self, v: &T, depth: usize) -> Result<(), String> {
        if !self.pretty {
            return json_ok(serde_json::to_writer(&mut *self.w, v));
        }
        let mut buf = std::mem::take(&mut self.buf);
        buf.clear();
        let r = serde_json::to_writer_pretty(&mut buf, v).map_err(|e| e.to_string());
        let out = r.and_then(|()| {
            for (i, line) in buf.split(|&b| b == b'\n').enumerate() {
                if i > 0 {
                    self.nl(depth)?;
                }
                crate::batch::pipe_ok(self.w.write_all(line))?;
            }
            Ok(())
        });
        self.buf = buf;
        out
    }

    /// The fields of an object (without braces), each on its own line at `depth`.
    pub fn fields(&mut self, m: &Map<String, Value>, depth: usize) -> Result<(), String> {
        for (i, (k, v)) in m.iter().enumerate() {
            if i > 0 {
                self.raw(",")?;
            }
            self.nl(depth)?;
            self.key(k)?;
            self.value(v, depth)?;
        }
        Ok(())
    }
}

pub use d3dbc::report::hex_offset;

/// A diagnostic (syntax error, warning) as JSON.
pub fn diagnostic(d: &Diagnostic) -> Value {
    json!({
        "severity": severity(d.severity),
        "code": d.code,
        "file": d.file,
        "line": d.line,
        "column": d.col,
        "message": d.message,
        "source_line": d.source_line,
    })
}

/// A message about the whole input (unreadable, not a shader, trailing data).
pub fn message(severity: &str, text: &str) -> Value {
    json!({ "severity": severity, "message": text })
}

pub use d3dbc::report::severity;

/// The head of a shader record, everything but its items: `tokens` is the shader's
/// stream (already decoded once without error), `at` its offset in the input.
pub fn shader_head(name: Option<&str>, at: usize, tokens: &[u32]) -> Map<String, Value> {
    let mut m = Map::new();
    m.insert("name".into(), json!(name));
    m.insert("offset".into(), json!(at));
    m.insert("offset_hex".into(), json!(hex_offset(at)));
    let mut ctab_json = Value::Null;
    if let Ok(mut d) = Decoder::new(tokens) {
        let v = d.version();
        m.insert("version".into(), json!(v.to_string()));
        m.insert(
            "version_token".into(),
            json!(format!("0x{:08x}", v.token())),
        );
        while let Ok(Some((_, ev))) = d.next_event() {
            if let Event::Comment(c) = ev {
                if Ctab::is_ctab(c) {
                    ctab_json = match Ctab::parse(c) {
                        Ok(c) => ctab(&c),
                        Err(e) => json!({ "error": e.to_string() }),
                    };
                    break;
                }
            }
        }
    }
    m.insert("ctab".into(), ctab_json);
    m
}

/// A container's facts (a bgfx binary: format, stage, version, hashes, every uniform
/// with its type, array size and registers).
pub fn container(c: &d3dbc::input::Container) -> Value {
    match c {
        d3dbc::input::Container::Bgfx(b) => {
            let mut v = serde_json::to_value(b).unwrap_or(Value::Null);
            if let Value::Object(m) = &mut v {
                m.insert("format".into(), json!("bgfx"));
                for k in ["input_hash", "output_hash"] {
                    if let Some(h) = m.get(k).and_then(Value::as_u64) {
                        m.insert(k.into(), json!(format!("0x{h:08x}")));
                    }
                }
            }
            v
        }
        _ => Value::Null,
    }
}

/// The constant table with named sets, registers as `dis` prints them (`c4`) and float
/// defaults as numbers (`d3dbc::model::CtabJson`).
pub fn ctab(c: &Ctab) -> Value {
    serde_json::to_value(d3dbc::model::CtabJson(c)).unwrap_or(Value::Null)
}

/// Streams a shader's items (`"items": [ … ]` body) to `w` straight from the decoder,
/// without building the IR, and without allocating per instruction (buffers are
/// reused): memory stays bounded whatever the shader's size. `tokens` is the shader's
/// stream (decoded once without error), `at` its offset in the input; returns the
/// offset of its end token.
pub fn write_items(
    w: &mut JsonWriter,
    tokens: &[u32],
    at: usize,
    depth: usize,
) -> Result<usize, String> {
    let mut i = 0usize;
    d3dbc::model::for_each_item(tokens, at, |item| {
        if i > 0 {
            w.raw(",")?;
        }
        w.nl(depth)?;
        i += 1;
        Ok(w.item(&item, depth)?)
    })
    .map_err(|ItemsError(e)| e)
}

/// [`write_items`]' errors: the writer's, or the decoder's as text.
struct ItemsError(String);

impl From<String> for ItemsError {
    fn from(e: String) -> Self {
        ItemsError(e)
    }
}

impl From<d3dbc::DecodeError> for ItemsError {
    fn from(e: d3dbc::DecodeError) -> Self {
        ItemsError(e.to_string())
    }
}
