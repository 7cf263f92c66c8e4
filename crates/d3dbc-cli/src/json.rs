//! JSON output: the shapes `dis --format json` and `validate --format json` share, and a
//! streaming writer so a huge shader is written item by item (compact, or indented
//! with `--pretty`) in memory bounded per instruction.
//!
//! Top level is always an array with one record per input:
//! `{"file", "status", "shaders": [...], "diagnostics": [...]}`. Registers, masks,
//! swizzles and usages are named as `dis` prints them (`"mask": "xy"`,
//! `"swizzle": "xxyz"`, `"usage": "texcoord"`); offsets are DWORD counts with their
//! `+01b7` hex form beside them.

use std::cell::RefCell;
use std::fmt::Write as _;
use std::io::Write;

use d3dbc::ctab::{Ctab, RegisterSet, TypeInfo};
use d3dbc::diag::Diagnostic;
use d3dbc::opcode::Shape;
use d3dbc::token::SrcModifier;
use d3dbc::{print, Decoder, DstParam, Event, Instruction, RegisterType, SrcParam, Version};
use serde::ser::{SerializeMap, SerializeSeq};
use serde::{Serialize, Serializer};
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

fn set_name(s: RegisterSet) -> Value {
    match s {
        RegisterSet::Bool => json!("bool"),
        RegisterSet::Int4 => json!("int4"),
        RegisterSet::Float4 => json!("float4"),
        RegisterSet::Sampler => json!("sampler"),
        RegisterSet::Other(n) => json!(n),
    }
}

fn type_json(t: &TypeInfo) -> Value {
    let class = format!("{:?}", t.class);
    let mut class_snake = String::new();
    for (i, c) in class.chars().enumerate() {
        if c.is_ascii_uppercase() && i > 0 {
            class_snake.push('_');
        }
        class_snake.push(c.to_ascii_lowercase());
    }
    let mut v = json!({
        "class": class_snake,
        "type": t.ty.hlsl_name(),
        "rows": t.rows,
        "columns": t.columns,
        "elements": t.elements,
    });
    if !t.members.is_empty() {
        v["members"] = t
            .members
            .iter()
            .map(|m| json!({ "name": m.name, "type": type_json(&m.ty) }))
            .collect();
    }
    v
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
/// defaults as numbers.
pub fn ctab(c: &Ctab) -> Value {
    json!({
        "creator": c.creator,
        "target": c.target,
        "version_token": format!("0x{:08x}", c.version),
        "flags": format!("0x{:08x}", c.flags),
        "constants": c.constants.iter().map(|k| {
            let defaults = k.default_value.as_ref().map(|d| match k.register_set {
                RegisterSet::Float4 => d.iter().map(|&b| json!(f32::from_bits(b))).collect::<Vec<_>>(),
                _ => d.iter().map(|&b| json!(b as i32)).collect(),
            });
            json!({
                "name": k.name,
                "register": format!("{}{}", k.register_set.prefix(), k.register_index),
                "register_set": set_name(k.register_set),
                "register_count": k.register_count,
                "type": type_json(&k.ty),
                "default_value": defaults,
            })
        }).collect::<Vec<_>>(),
    })
}

fn modifier_name(m: SrcModifier) -> Option<&'static str> {
    use SrcModifier::*;
    Some(match m {
        None => return Option::None,
        Neg => "neg",
        Bias => "bias",
        BiasNeg => "bias_neg",
        Sign => "bx2",
        SignNeg => "bx2_neg",
        Comp => "comp",
        X2 => "x2",
        X2Neg => "x2_neg",
        Dz => "dz",
        Dw => "dw",
        Abs => "abs",
        AbsNeg => "abs_neg",
        Not => "not",
    })
}

/// A value serialised through `Display` (no intermediate `String`).
struct Shown<T: std::fmt::Display>(T);

impl<T: std::fmt::Display> Serialize for Shown<T> {
    fn serialize<S: Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
        ser.collect_str(&self.0)
    }
}

/// `+01b7`.
struct HexOffset(usize);

impl std::fmt::Display for HexOffset {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "+{:04x}", self.0)
    }
}

/// Raw tokens as `"0x%08x"` strings.
struct Tokens<'a>(&'a [u32]);

impl Serialize for Tokens<'_> {
    fn serialize<S: Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
        let mut seq = ser.serialize_seq(Some(self.0.len()))?;
        for t in self.0 {
            seq.serialize_element(&Shown(format_args!("0x{t:08x}")))?;
        }
        seq.end()
    }
}

/// Text printed by the `dis` printer into a reused buffer, then serialised as a string:
/// no allocation per operand.
struct Printed<'a, F: Fn(&mut String)> {
    scratch: &'a RefCell<String>,
    print: F,
}

impl<F: Fn(&mut String)> Serialize for Printed<'_, F> {
    fn serialize<S: Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
        let mut buf = self.scratch.borrow_mut();
        buf.clear();
        (self.print)(&mut buf);
        ser.serialize_str(&buf)
    }
}

/// `a0.x`, `aL`: a relative address as the listing names it, all four components.
fn write_rel(r: d3dbc::RelAddr, v: Version, s: &mut String) {
    print::write_register_name(r.reg, v, s);
    if r.reg.kind != RegisterType::Loop {
        let _ = write!(s, ".{}", d3dbc::Swizzle::from_raw(r.swizzle));
    }
}

/// `text`, `register` and `relative` of an operand, printed through the scratch buffer.
fn operand_head<M: SerializeMap>(
    m: &mut M,
    scratch: &RefCell<String>,
    text: impl Fn(&mut String),
    reg: d3dbc::Register,
    rel: Option<d3dbc::RelAddr>,
    v: Version,
) -> Result<(), M::Error> {
    m.serialize_entry(
        "text",
        &Printed {
            scratch,
            print: text,
        },
    )?;
    let register = |s: &mut String| print::write_register_name(reg, v, s);
    m.serialize_entry(
        "register",
        &Printed {
            scratch,
            print: register,
        },
    )?;
    let rel = rel.map(|r| Printed {
        scratch,
        print: move |s: &mut String| write_rel(r, v, s),
    });
    m.serialize_entry("relative", &rel)
}

/// A destination operand with named fields.
struct Dst<'a> {
    d: &'a DstParam,
    v: Version,
    scratch: &'a RefCell<String>,
}

impl Serialize for Dst<'_> {
    fn serialize<S: Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
        let (d, v) = (self.d, self.v);
        let mut m = ser.serialize_map(None)?;
        let text = |s: &mut String| print::write_dst_operand(d, v, s);
        operand_head(&mut m, self.scratch, text, d.reg, d.rel, v)?;
        m.serialize_entry("mask", &Shown(d.write_mask()))?;
        m.serialize_entry("saturate", &d.saturate())?;
        m.serialize_entry("partial_precision", &d.partial_precision())?;
        m.serialize_entry("centroid", &d.centroid())?;
        m.serialize_entry("shift", &d.shift_value())?;
        m.end()
    }
}

/// A source operand (or the predicate) with named fields.
struct Src<'a> {
    s: &'a SrcParam,
    v: Version,
    scratch: &'a RefCell<String>,
}

impl Serialize for Src<'_> {
    fn serialize<S: Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
        let (p, v) = (self.s, self.v);
        let mut m = ser.serialize_map(None)?;
        let text = |s: &mut String| print::write_src_operand(p, v, s);
        operand_head(&mut m, self.scratch, text, p.reg, p.rel, v)?;
        m.serialize_entry("swizzle", &Shown(p.swizzle_typed()))?;
        m.serialize_entry("modifier", &modifier_name(p.modifier))?;
        m.end()
    }
}

struct Srcs<'a>(&'a [SrcParam], Version, &'a RefCell<String>);

impl Serialize for Srcs<'_> {
    fn serialize<S: Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
        let mut seq = ser.serialize_seq(Some(self.0.len()))?;
        for s in self.0 {
            seq.serialize_element(&Src {
                s,
                v: self.1,
                scratch: self.2,
            })?;
        }
        seq.end()
    }
}

/// One instruction: offset, raw tokens, printed text and named fields (registers,
/// masks, swizzles, usages as the listing names them).
pub struct InstructionJson<'a> {
    /// The instruction.
    pub ins: &'a Instruction,
    /// Its shader's version.
    pub version: Version,
    /// DWORD offset of its first token.
    pub offset: usize,
    /// Its raw tokens.
    pub tokens: &'a [u32],
    /// Its text as `dis` prints it.
    pub text: &'a str,
    /// A reused buffer for operand text.
    pub scratch: &'a RefCell<String>,
}

impl Serialize for InstructionJson<'_> {
    fn serialize<S: Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
        let (ins, v) = (self.ins, self.version);
        let mnemonic = self
            .text
            .trim_start_matches('+')
            .trim_start()
            .split(char::is_whitespace)
            .find(|w| !w.starts_with('('))
            .unwrap_or("");
        let mut m = ser.serialize_map(None)?;
        m.serialize_entry("offset", &self.offset)?;
        m.serialize_entry("offset_hex", &Shown(HexOffset(self.offset)))?;
        m.serialize_entry("tokens", &Tokens(self.tokens))?;
        m.serialize_entry("text", self.text)?;
        m.serialize_entry("opcode", ins.opcode.mnemonic(v))?;
        m.serialize_entry("mnemonic", mnemonic)?;
        if let Some(c) = ins.comparison() {
            m.serialize_entry("comparison", c.suffix())?;
        }
        if ins.coissue {
            m.serialize_entry("coissue", &true)?;
        }
        if let Some(p) = &ins.predicate {
            m.serialize_entry(
                "predicate",
                &Src {
                    s: p,
                    v,
                    scratch: self.scratch,
                },
            )?;
        }
        let shape = ins.opcode.info().shape;
        if matches!(shape, Shape::Dcl) {
            // Declarations are few: a small map is fine here.
            let dcl = if ins.dst.reg.kind == RegisterType::Sampler {
                json!({ "sampler_type": ins.decl.sampler_type().map(|t| t.name()) })
            } else {
                json!({
                    "usage": ins.decl.usage_kind().map(|u| u.name()),
                    "usage_index": ins.decl.usage_index(),
                })
            };
            m.serialize_entry("dcl", &dcl)?;
        }
        if let Some(d) = ins.dst_in(v) {
            m.serialize_entry(
                "dst",
                &Dst {
                    d,
                    v,
                    scratch: self.scratch,
                },
            )?;
        }
        if let Shape::Def(n) = shape {
            let imm = &ins.imm[..n as usize];
            match ins.opcode {
                d3dbc::Opcode::Def => {
                    let f: [f32; 4] = ins.imm_f32();
                    m.serialize_entry("values", &f[..imm.len()])?
                }
                d3dbc::Opcode::DefB => {
                    let b = ins.imm.map(|x| x != 0);
                    m.serialize_entry("values", &b[..imm.len()])?
                }
                _ => {
                    let i = ins.imm.map(|b| b as i32);
                    m.serialize_entry("values", &i[..imm.len()])?
                }
            }
        }
        if ins.src_count > 0 {
            m.serialize_entry("srcs", &Srcs(ins.src(), v, self.scratch))?;
        }
        m.end()
    }
}

/// A comment block: offset, size and FourCC.
struct CommentJson<'a> {
    offset: usize,
    payload: &'a [u32],
}

impl Serialize for CommentJson<'_> {
    fn serialize<S: Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
        let mut m = ser.serialize_map(Some(3))?;
        m.serialize_entry("offset", &self.offset)?;
        m.serialize_entry("offset_hex", &Shown(HexOffset(self.offset)))?;
        let fourcc = self
            .payload
            .first()
            .map(|d| d3dbc::diag::escape(&String::from_utf8_lossy(&d.to_le_bytes())).into_owned());
        m.serialize_entry(
            "comment",
            &json!({ "dwords": self.payload.len(), "fourcc": fourcc }),
        )?;
        m.end()
    }
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
    let mut d = Decoder::new(tokens).map_err(|e| e.to_string())?;
    let version = d.version();
    let mut i = 0usize;
    let mut toks = Vec::with_capacity(8);
    let mut text = String::with_capacity(64);
    let scratch = RefCell::new(String::with_capacity(32));
    while let Some((off, ev)) = d.next_event().map_err(|e| e.to_string())? {
        let offset = at + off;
        if i > 0 {
            w.raw(",")?;
        }
        w.nl(depth)?;
        match ev {
            Event::Instruction(ins) => {
                toks.clear();
                d3dbc::encode::encode_instruction(&ins, version, &mut toks);
                text.clear();
                print::print_instruction(&ins, version, &mut text);
                w.item(
                    &InstructionJson {
                        ins: &ins,
                        version,
                        offset,
                        tokens: &toks,
                        text: &text,
                        scratch: &scratch,
                    },
                    depth,
                )?;
            }
            Event::Comment(payload) => w.item(&CommentJson { offset, payload }, depth)?,
        }
        i += 1;
    }
    Ok(at + d.offset() - 1)
}
