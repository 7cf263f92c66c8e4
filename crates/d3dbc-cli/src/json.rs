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

use d3dbc::ctab::{Ctab, RegisterSet, TypeInfo};
use d3dbc::diag::{Diagnostic, Severity};
use d3dbc::opcode::Shape;
use d3dbc::token::SrcModifier;
use d3dbc::{print, Decoder, DstParam, Event, Instruction, RegisterType, SrcParam, Version};
use serde_json::{json, Map, Value};

use crate::batch::json_ok;

/// Writes JSON pieces to a stream, indented or compact.
pub struct JsonWriter<'w> {
    w: &'w mut dyn Write,
    pretty: bool,
}

impl<'w> JsonWriter<'w> {
    /// A writer over `w`.
    pub fn new(w: &'w mut dyn Write, pretty: bool) -> Self {
        JsonWriter { w, pretty }
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

/// `+01b7`, as `dis --offsets` prints offsets.
pub fn hex_offset(offset: usize) -> String {
    format!("+{offset:04x}")
}

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

/// `error` / `warning`.
pub fn severity(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
    }
}

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

fn register(r: d3dbc::Register, v: Version) -> String {
    let mut s = String::new();
    print::write_register_name(r, v, &mut s);
    s
}

fn rel_json(rel: Option<d3dbc::RelAddr>, v: Version) -> Option<String> {
    rel.map(|a| {
        let mut s = register(a.reg, v);
        if a.reg.kind != RegisterType::Loop {
            s.push('.');
            s.push_str(&d3dbc::Swizzle::from_raw(a.swizzle).to_string());
        }
        s
    })
}

fn dst_json(d: &DstParam, v: Version) -> Value {
    let mut text = String::new();
    print::write_dst_operand(d, v, &mut text);
    json!({
        "text": text,
        "register": register(d.reg, v),
        "relative": rel_json(d.rel, v),
        "mask": d.write_mask().to_string(),
        "saturate": d.saturate(),
        "partial_precision": d.partial_precision(),
        "centroid": d.centroid(),
        "shift": d.shift_value(),
    })
}

fn src_json(s: &SrcParam, v: Version) -> Value {
    let mut text = String::new();
    print::write_src_operand(s, v, &mut text);
    json!({
        "text": text,
        "register": register(s.reg, v),
        "relative": rel_json(s.rel, v),
        "swizzle": s.swizzle_typed().to_string(),
        "modifier": modifier_name(s.modifier),
    })
}

/// One instruction: offset, raw tokens, printed text and named fields.
pub fn instruction(ins: &Instruction, v: Version, offset: usize, tokens: &[u32]) -> Value {
    let mut text = String::new();
    print::print_instruction(ins, v, &mut text);
    let mnemonic = text
        .trim_start_matches('+')
        .trim_start()
        .split(|c: char| c.is_whitespace())
        .find(|w| !w.starts_with('('))
        .unwrap_or("")
        .to_string();
    let mut m = Map::new();
    m.insert("offset".into(), json!(offset));
    m.insert("offset_hex".into(), json!(hex_offset(offset)));
    m.insert(
        "tokens".into(),
        tokens.iter().map(|t| format!("0x{t:08x}")).collect(),
    );
    m.insert("text".into(), json!(text));
    m.insert("opcode".into(), json!(ins.opcode.mnemonic(v)));
    m.insert("mnemonic".into(), json!(mnemonic));
    if let Some(c) = ins.comparison() {
        m.insert("comparison".into(), json!(c.suffix()));
    }
    if ins.coissue {
        m.insert("coissue".into(), json!(true));
    }
    if let Some(p) = &ins.predicate {
        m.insert("predicate".into(), src_json(p, v));
    }
    let shape = ins.opcode.info().shape;
    if matches!(shape, Shape::Dcl) {
        let dcl = if ins.dst.reg.kind == RegisterType::Sampler {
            json!({ "sampler_type": ins.decl.sampler_type().map(|t| t.name()) })
        } else {
            json!({
                "usage": ins.decl.usage_kind().map(|u| u.name()),
                "usage_index": ins.decl.usage_index(),
            })
        };
        m.insert("dcl".into(), dcl);
    }
    if let Some(d) = ins.dst_in(v) {
        m.insert("dst".into(), dst_json(d, v));
    }
    if let Shape::Def(n) = shape {
        let imm = &ins.imm[..n as usize];
        let values: Vec<Value> = match ins.opcode {
            d3dbc::Opcode::Def => imm.iter().map(|&b| json!(f32::from_bits(b))).collect(),
            d3dbc::Opcode::DefB => imm.iter().map(|&b| json!(b != 0)).collect(),
            _ => imm.iter().map(|&b| json!(b as i32)).collect(),
        };
        m.insert("values".into(), Value::Array(values));
    }
    if ins.src_count > 0 {
        m.insert(
            "srcs".into(),
            ins.src().iter().map(|s| src_json(s, v)).collect(),
        );
    }
    Value::Object(m)
}

/// Streams a shader's items (`"items": [ … ]` body) to `w` straight from the decoder,
/// without building the IR: memory stays bounded per instruction. `tokens` is the
/// shader's stream (decoded once without error), `at` its offset in the input; returns
/// the offset of its end token.
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
    while let Some((off, ev)) = d.next_event().map_err(|e| e.to_string())? {
        let offset = at + off;
        let v = match ev {
            Event::Instruction(ins) => {
                toks.clear();
                d3dbc::encode::encode_instruction(&ins, version, &mut toks);
                instruction(&ins, version, offset, &toks)
            }
            Event::Comment(c) => {
                let fourcc = c.first().map(|d| {
                    d3dbc::diag::escape(&String::from_utf8_lossy(&d.to_le_bytes())).into_owned()
                });
                json!({
                    "offset": offset,
                    "offset_hex": hex_offset(offset),
                    "comment": { "dwords": c.len(), "fourcc": fourcc },
                })
            }
        };
        if i > 0 {
            w.raw(",")?;
        }
        w.nl(depth)?;
        w.value(&v, depth)?;
        i += 1;
    }
    // The offset of the end token.
    Ok(at + d.offset() - 1)
}
