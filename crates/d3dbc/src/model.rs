//! The shader as data: every instruction with its operands named as the listing names
//! them (registers, masks, swizzles, modifiers, usages), comment blocks and the constant
//! table, as serde values. `d3dbc dis --format json` writes these, and the Python and
//! JavaScript bindings hand them to their callers, so all three show one model.
//!
//! Items stream straight from the decoder ([`for_each_item`]) without building the IR
//! and without allocating per instruction: operand text goes through one reused buffer.
//!
//! ```
//! let tokens = [0xFFFF0200, 0x02000001, 0x800F0800, 0xB0E40000, 0x0000FFFF]; // mov oC0, t0
//! let mut json = Vec::new();
//! d3dbc::model::for_each_item(&tokens, 0, |item| {
//!     json.push(serde_json::to_value(&item).unwrap());
//!     Ok::<(), d3dbc::DecodeError>(())
//! })
//! .unwrap();
//! assert_eq!(json[0]["opcode"], "mov");
//! assert_eq!(json[0]["dst"]["register"], "oC0");
//! assert_eq!(json[0]["srcs"][0]["swizzle"], "xyzw");
//! ```

use std::cell::RefCell;
use std::fmt::Write as _;

use serde::ser::{SerializeMap, SerializeSeq};
use serde::{Serialize, Serializer};

use crate::ctab::{Ctab, RegisterSet, TypeInfo};
use crate::opcode::Shape;
use crate::token::SrcModifier;
use crate::{
    print, DecodeError, Decoder, DstParam, Event, Instruction, RegisterType, SrcParam, Version,
};

/// A source modifier's name (`neg`, `bx2`, `abs_neg`…; `None` for none).
pub fn modifier_name(m: SrcModifier) -> Option<&'static str> {
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

/// A register set's name: `bool`, `int4`, `float4`, `sampler` (or its raw number).
pub fn register_set_name(s: RegisterSet) -> SetName {
    SetName(s)
}

/// [`register_set_name`]'s value.
#[derive(Clone, Copy, Debug)]
pub struct SetName(RegisterSet);

impl Serialize for SetName {
    fn serialize<S: Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            RegisterSet::Bool => ser.serialize_str("bool"),
            RegisterSet::Int4 => ser.serialize_str("int4"),
            RegisterSet::Float4 => ser.serialize_str("float4"),
            RegisterSet::Sampler => ser.serialize_str("sampler"),
            RegisterSet::Other(n) => n.serialize(ser),
        }
    }
}

/// A value serialised through `Display` (no intermediate `String`).
struct Shown<T: std::fmt::Display>(T);

impl<T: std::fmt::Display> Serialize for Shown<T> {
    fn serialize<S: Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
        ser.collect_str(&self.0)
    }
}

/// `+01b7`: a DWORD offset as every message writes it.
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

/// The `CTAB` type of a constant: `class` (snake case), `type` (HLSL name), `rows`,
/// `columns`, `elements`, and `members` of structs.
pub struct TypeJson<'a>(pub &'a TypeInfo);

impl Serialize for TypeJson<'_> {
    fn serialize<S: Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
        let t = self.0;
        let class = format!("{:?}", t.class);
        let mut class_snake = String::with_capacity(class.len() + 2);
        for (i, c) in class.chars().enumerate() {
            if c.is_ascii_uppercase() && i > 0 {
                class_snake.push('_');
            }
            class_snake.push(c.to_ascii_lowercase());
        }
        let mut m = ser.serialize_map(None)?;
        m.serialize_entry("class", &class_snake)?;
        m.serialize_entry("columns", &t.columns)?;
        m.serialize_entry("elements", &t.elements)?;
        if !t.members.is_empty() {
            struct Members<'b>(&'b TypeInfo);
            impl Serialize for Members<'_> {
                fn serialize<S: Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
                    let mut seq = ser.serialize_seq(Some(self.0.members.len()))?;
                    for mem in &self.0.members {
                        seq.serialize_element(&MemberJson(&mem.name, &mem.ty))?;
                    }
                    seq.end()
                }
            }
            m.serialize_entry("members", &Members(t))?;
        }
        m.serialize_entry("rows", &t.rows)?;
        m.serialize_entry("type", t.ty.hlsl_name())?;
        m.end()
    }
}

struct MemberJson<'a>(&'a str, &'a TypeInfo);

impl Serialize for MemberJson<'_> {
    fn serialize<S: Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
        let mut m = ser.serialize_map(Some(2))?;
        m.serialize_entry("name", self.0)?;
        m.serialize_entry("type", &TypeJson(self.1))?;
        m.end()
    }
}

/// One constant of the table: `name`, `register` as `dis` prints it (`c4`),
/// `register_set`, `register_index` (4), `register_count`, `type` ([`TypeJson`]) and
/// `default_value` (floats for float4 constants, integers otherwise, `null` when none).
pub struct ConstantJson<'a>(pub &'a crate::ctab::Constant);

impl Serialize for ConstantJson<'_> {
    fn serialize<S: Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
        let k = self.0;
        struct Defaults<'b>(&'b [u32], bool);
        impl Serialize for Defaults<'_> {
            fn serialize<S: Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
                let mut seq = ser.serialize_seq(Some(self.0.len()))?;
                for &b in self.0 {
                    if self.1 {
                        seq.serialize_element(&f32::from_bits(b))?;
                    } else {
                        seq.serialize_element(&(b as i32))?;
                    }
                }
                seq.end()
            }
        }
        let float = k.register_set == RegisterSet::Float4;
        let mut m = ser.serialize_map(None)?;
        m.serialize_entry(
            "default_value",
            &k.default_value.as_deref().map(|d| Defaults(d, float)),
        )?;
        m.serialize_entry("name", &k.name)?;
        m.serialize_entry(
            "register",
            &Shown(format_args!(
                "{}{}",
                k.register_set.prefix(),
                k.register_index
            )),
        )?;
        m.serialize_entry("register_count", &k.register_count)?;
        m.serialize_entry("register_index", &k.register_index)?;
        m.serialize_entry("register_set", &SetName(k.register_set))?;
        m.serialize_entry("type", &TypeJson(&k.ty))?;
        m.end()
    }
}

/// The constant table: `constants` ([`ConstantJson`] each), `creator`, `flags`,
/// `target`, `version_token` (keys in name order, as `dis --format json` writes them).
pub struct CtabJson<'a>(pub &'a Ctab);

impl Serialize for CtabJson<'_> {
    fn serialize<S: Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
        let c = self.0;
        struct Constants<'b>(&'b [crate::ctab::Constant]);
        impl Serialize for Constants<'_> {
            fn serialize<S: Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
                let mut seq = ser.serialize_seq(Some(self.0.len()))?;
                for k in self.0 {
                    seq.serialize_element(&ConstantJson(k))?;
                }
                seq.end()
            }
        }
        let mut m = ser.serialize_map(None)?;
        m.serialize_entry("constants", &Constants(&c.constants))?;
        m.serialize_entry("creator", &c.creator)?;
        m.serialize_entry("flags", &Shown(format_args!("0x{:08x}", c.flags)))?;
        m.serialize_entry("target", &c.target)?;
        m.serialize_entry("version_token", &Shown(format_args!("0x{:08x}", c.version)))?;
        m.end()
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
fn write_rel(r: crate::RelAddr, v: Version, s: &mut String) {
    print::write_register_name(r.reg, v, s);
    if r.reg.kind != RegisterType::Loop {
        let _ = write!(s, ".{}", crate::Swizzle::from_raw(r.swizzle));
    }
}

/// `text`, `register`, `index` and `relative` of an operand, printed through the
/// scratch buffer.
fn operand_head<M: SerializeMap>(
    m: &mut M,
    scratch: &RefCell<String>,
    text: impl Fn(&mut String),
    reg: crate::Register,
    rel: Option<crate::RelAddr>,
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
    m.serialize_entry("index", &reg.num)?;
    let rel = rel.map(|r| Printed {
        scratch,
        print: move |s: &mut String| write_rel(r, v, s),
    });
    m.serialize_entry("relative", &rel)
}

/// A destination operand: `text`, `register`, `index`, `relative`, `mask`, `saturate`,
/// `partial_precision`, `centroid`, `shift`.
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

/// A source operand (or the predicate): `text`, `register`, `index`, `relative`,
/// `swizzle`, `modifier`.
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

/// A declaration's usage (`usage`, `usage_index`) or sampler type (`sampler_type`).
struct Dcl<'a>(&'a Instruction);

impl Serialize for Dcl<'_> {
    fn serialize<S: Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
        let ins = self.0;
        let mut m = ser.serialize_map(None)?;
        if ins.dst.reg.kind == RegisterType::Sampler {
            m.serialize_entry("sampler_type", &ins.decl.sampler_type().map(|t| t.name()))?;
        } else {
            m.serialize_entry("usage", &ins.decl.usage_kind().map(|u| u.name()))?;
            m.serialize_entry("usage_index", &ins.decl.usage_index())?;
        }
        m.end()
    }
}

/// One instruction: `offset` (DWORDs, with `offset_hex`), raw `tokens`, `text` as `dis`
/// prints it, `opcode`, `mnemonic` (with its suffixes), `comparison`, `coissue`,
/// `predicate`, `dcl`, `dst`, `values` (of a `def`), `srcs`.
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
            m.serialize_entry("dcl", &Dcl(ins))?;
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
            let n = n as usize;
            match ins.opcode {
                crate::Opcode::Def => {
                    let f: [f32; 4] = ins.imm_f32();
                    m.serialize_entry("values", &f[..n])?
                }
                crate::Opcode::DefB => {
                    let b = ins.imm.map(|x| x != 0);
                    m.serialize_entry("values", &b[..n])?
                }
                _ => {
                    let i = ins.imm.map(|b| b as i32);
                    m.serialize_entry("values", &i[..n])?
                }
            }
        }
        if ins.src_count > 0 {
            m.serialize_entry("srcs", &Srcs(ins.src(), v, self.scratch))?;
        }
        m.end()
    }
}

/// A comment block: `offset` (with `offset_hex`) and `comment` (`dwords`, `fourcc`).
pub struct CommentJson<'a> {
    /// DWORD offset of the comment token.
    pub offset: usize,
    /// The payload after the comment token.
    pub payload: &'a [u32],
}

impl Serialize for CommentJson<'_> {
    fn serialize<S: Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
        struct Inner<'b>(&'b [u32]);
        impl Serialize for Inner<'_> {
            fn serialize<S: Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
                let fourcc = self.0.first().map(|d| {
                    crate::diag::escape(&String::from_utf8_lossy(&d.to_le_bytes())).into_owned()
                });
                let mut m = ser.serialize_map(Some(2))?;
                m.serialize_entry("dwords", &self.0.len())?;
                m.serialize_entry("fourcc", &fourcc)?;
                m.end()
            }
        }
        let mut m = ser.serialize_map(Some(3))?;
        m.serialize_entry("offset", &self.offset)?;
        m.serialize_entry("offset_hex", &Shown(HexOffset(self.offset)))?;
        m.serialize_entry("comment", &Inner(self.payload))?;
        m.end()
    }
}

/// One item of a shader, as [`for_each_item`] hands it over.
pub enum ItemJson<'a> {
    /// An instruction.
    Instruction(InstructionJson<'a>),
    /// A comment block.
    Comment(CommentJson<'a>),
}

impl ItemJson<'_> {
    /// Whether this is an instruction.
    pub fn is_instruction(&self) -> bool {
        matches!(self, ItemJson::Instruction(_))
    }
}

impl Serialize for ItemJson<'_> {
    fn serialize<S: Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
        match self {
            ItemJson::Instruction(i) => i.serialize(ser),
            ItemJson::Comment(c) => c.serialize(ser),
        }
    }
}

/// Calls `f` with every item of the shader `tokens` in order, straight from the
/// decoder, reusing its buffers (no allocation per instruction); `at` is added to every
/// offset (the shader's offset in a larger input). Returns the DWORD offset of the end
/// token (plus `at`), or the first error: the decoder's (converted) or `f`'s.
pub fn for_each_item<E: From<DecodeError>>(
    tokens: &[u32],
    at: usize,
    mut f: impl FnMut(ItemJson<'_>) -> Result<(), E>,
) -> Result<usize, E> {
    let mut d = Decoder::new(tokens)?;
    let version = d.version();
    let mut toks = Vec::with_capacity(8);
    let mut text = String::with_capacity(64);
    let scratch = RefCell::new(String::with_capacity(32));
    while let Some((off, ev)) = d.next_event()? {
        let offset = at + off;
        match ev {
            Event::Instruction(ins) => {
                toks.clear();
                crate::encode::encode_instruction(&ins, version, &mut toks);
                text.clear();
                print::print_instruction(&ins, version, &mut text);
                f(ItemJson::Instruction(InstructionJson {
                    ins: &ins,
                    version,
                    offset,
                    tokens: &toks,
                    text: &text,
                    scratch: &scratch,
                }))?;
            }
            Event::Comment(payload) => f(ItemJson::Comment(CommentJson { offset, payload }))?,
        }
    }
    Ok(at + d.offset() - 1)
}
