//! D3DX effects (`fx_2_0`): the effect container fxc writes with `/Tfx_2_0` — parameters,
//! techniques, passes, state assignments, the embedded shaders and the preshaders that
//! compute constants and states on the CPU.
//!
//! Why a module of the format crate and not a crate of its own: the effect container is
//! part of the Direct3D 9 bytecode format as shipped (most shaders live inside one), and
//! its pieces are this crate's — every embedded shader is decoded by [`crate::Decoder`],
//! listed by [`crate::print`], and every preshader carries a `CTAB` read by
//! [`crate::ctab`]. Keeping it here keeps one decoder and one constant-table reader.
//!
//! [`Effect::parse`] reads the container zero-copy: names, values and object data are
//! slices of the input. Offsets inside an effect are relative to the byte after its
//! 8-byte header; errors report absolute byte offsets in the input. Hostile input gets an
//! [`FxError`] (what, where); every count is checked against the bytes that remain before
//! anything is allocated for it, and a node budget proportional to the input size bounds
//! what repeated type descriptions (array elements re-read one typedef) can build.
//!
//! Layout (little-endian DWORDs):
//! - header: `0xFEFF0901`, offset of the tables (relative to the body);
//!   an XNA/FNA wrapper `0xBCF00BCF`, `skip` precedes it with the effect at `skip`.
//! - tables: parameter count, technique count, a DWORD D3DX ignores, object count;
//!   parameters (typedef offset, value offset, flags, annotation count, annotations);
//!   techniques (name offset, annotation count, pass count, annotations, passes: name
//!   offset, annotation count, state count, annotations, states: operation, index,
//!   typedef offset, value offset); then the object data: string count, resource count,
//!   strings (object id, size, bytes padded to 4), resources (technique index or
//!   `0xFFFFFFFF` for a sampler parameter, pass or parameter index, element index, state
//!   index, usage, size, bytes).
//! - a typedef: type, class, name offset, semantic offset, element count, then rows and
//!   columns (columns first for vectors), or a member count and the members' typedefs.
//! - resource usage 0: the state's shader bytecode or CPU expression (a preshader);
//!   1: the name of the parameter the state takes its value from; 2: an array selector
//!   (name of a shader-array parameter, then a preshader computing the element index).

pub mod apply;
pub mod asm;
pub mod listing;
pub mod pass;
pub mod preshader;
pub mod preshader_asm;
pub mod states;
pub mod write;

use std::borrow::Cow;
use std::fmt;

pub use crate::ctab::{ParameterClass, ParameterType};
pub use preshader::Preshader;
pub use states::{state_info, StateClass, StateInfo, STATES};

/// The fx_2_0 effect tag.
pub const FX_2_0: u32 = 0xFEFF_0901;
/// The tag of the XNA/FNA wrapper around an effect.
pub const XNA_WRAPPER: u32 = 0xBCF0_0BCF;

/// A malformed effect: what is wrong and the byte offset in the input where it is.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("byte {offset:#x}: {what}")]
pub struct FxError {
    /// Byte offset in the input.
    pub offset: usize,
    /// What is wrong.
    pub what: String,
}

/// A type description (`D3DXPARAMETER_DESC` without the value).
#[derive(Clone, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct TypeDesc<'a> {
    /// Base type.
    pub ty: ParameterType,
    /// Class.
    pub class: ParameterClass,
    /// Name.
    pub name: Cow<'a, str>,
    /// Semantic (empty when none).
    pub semantic: Cow<'a, str>,
    /// Array elements (0: not an array).
    pub elements: u32,
    /// Rows.
    pub rows: u32,
    /// Columns.
    pub columns: u32,
    /// Struct members.
    pub members: Vec<TypeDesc<'a>>,
}

impl TypeDesc<'_> {
    /// Bytes of one element's numeric data (the D3DX `bytes` of a non-array).
    pub fn element_bytes(&self) -> u64 {
        match self.class {
            ParameterClass::Scalar
            | ParameterClass::Vector
            | ParameterClass::MatrixRows
            | ParameterClass::MatrixColumns => 4 * self.rows as u64 * self.columns as u64,
            ParameterClass::Struct => self.members.iter().map(|m| m.bytes()).sum(),
            _ => 0,
        }
    }

    /// Bytes of the numeric data of the whole value (arrays included).
    pub fn bytes(&self) -> u64 {
        self.element_bytes() * u64::from(self.elements.max(1))
    }

    /// Whether the type is a shader object.
    pub fn is_shader(&self) -> bool {
        matches!(
            self.ty,
            ParameterType::VertexShader | ParameterType::PixelShader
        )
    }

    /// Whether the type is a sampler object.
    pub fn is_sampler(&self) -> bool {
        matches!(
            self.ty,
            ParameterType::Sampler
                | ParameterType::Sampler1D
                | ParameterType::Sampler2D
                | ParameterType::Sampler3D
                | ParameterType::SamplerCube
        )
    }
}

/// A value as stored in the effect.
#[derive(Clone, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum Value<'a> {
    /// Numeric data of a scalar/vector/matrix (raw 32-bit words, as many as
    /// `rows × columns`).
    Data(#[cfg_attr(feature = "serde", serde(serialize_with = "ser_words"))] &'a [u8]),
    /// An object (string, texture, shader): its id in [`Effect::objects`].
    Object(u32),
    /// A sampler: its `sampler_state` block.
    Sampler(Vec<State<'a>>),
    /// Array elements.
    Array(Vec<Value<'a>>),
    /// Struct members.
    Struct(Vec<Value<'a>>),
}

#[cfg(feature = "serde")]
fn ser_words<S: serde::Serializer>(b: &&[u8], s: S) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeSeq;
    let mut seq = s.serialize_seq(Some(b.len() / 4))?;
    for w in b.chunks_exact(4) {
        seq.serialize_element(&format!(
            "0x{:08x}",
            u32::from_le_bytes([w[0], w[1], w[2], w[3]])
        ))?;
    }
    seq.end()
}

/// A preshader program as `{"listing": …, "words": […]}` (the listing as `dis` prints
/// preshaders, or the reader's error).
#[cfg(feature = "serde")]
fn ser_program<S: serde::Serializer>(b: &&[u8], s: S) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeMap;
    struct Words<'b>(&'b [u8]);
    impl serde::Serialize for Words<'_> {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            ser_words(&self.0, s)
        }
    }
    let listing = match Preshader::parse(&to_words(b)) {
        Ok(p) => {
            let mut text = String::new();
            p.write_listing(&mut text);
            text
        }
        Err(e) => format!("// {e}"),
    };
    let mut m = s.serialize_map(Some(2))?;
    m.serialize_entry("listing", &listing)?;
    m.serialize_entry("words", &Words(b))?;
    m.end()
}

#[cfg(feature = "serde")]
fn ser_objects<S: serde::Serializer>(objects: &[&[u8]], s: S) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeSeq;
    struct Words<'b>(&'b [u8]);
    impl serde::Serialize for Words<'_> {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            ser_words(&self.0, s)
        }
    }
    let mut seq = s.serialize_seq(Some(objects.len()))?;
    for o in objects {
        seq.serialize_element(&Words(o))?;
    }
    seq.end()
}

impl Value<'_> {
    /// The 32-bit words of numeric data (flattened over arrays and structs).
    pub fn words(&self) -> Vec<u32> {
        let mut out = Vec::new();
        self.collect_words(&mut out);
        out
    }

    fn collect_words(&self, out: &mut Vec<u32>) {
        match self {
            Value::Data(b) => out.extend(
                b.chunks_exact(4)
                    .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]])),
            ),
            Value::Array(v) | Value::Struct(v) => v.iter().for_each(|x| x.collect_words(out)),
            _ => {}
        }
    }
}

/// How a state gets its value.
#[derive(Clone, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum StateValue<'a> {
    /// The value in the state's typedef/value (a constant, or for shader states an
    /// object id whose data is the bytecode).
    Constant,
    /// The value of a named parameter (`State = <Param>;`).
    Parameter(Cow<'a, str>),
    /// A CPU expression: a preshader computing the value (serialized with its listing).
    Expression(#[cfg_attr(feature = "serde", serde(serialize_with = "ser_program"))] &'a [u8]),
    /// An element of a shader-array parameter chosen by a preshader.
    ArraySelector {
        /// The array parameter's name.
        array: Cow<'a, str>,
        /// The selector program (serialized with its listing).
        #[cfg_attr(feature = "serde", serde(serialize_with = "ser_program"))]
        program: &'a [u8],
    },
}

/// One state assignment.
#[derive(Clone, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct State<'a> {
    /// The D3DX state number ([`states::STATES`] index).
    pub operation: u32,
    /// The state's index (light, stage, sampler, register…).
    pub index: u32,
    /// The value's type.
    pub ty: TypeDesc<'a>,
    /// The stored value.
    pub value: Value<'a>,
    /// Where the value comes from.
    pub source: StateValue<'a>,
}

impl State<'_> {
    /// The state's name as D3D spells it (`<unknown N>` for operations D3DX does not
    /// know).
    pub fn name(&self) -> Cow<'static, str> {
        match state_info(self.operation) {
            Some(i) => Cow::Borrowed(i.name),
            None => Cow::Owned(format!("<unknown {}>", self.operation)),
        }
    }
}

/// An annotation.
#[derive(Clone, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Annotation<'a> {
    /// Type (with the annotation's name).
    pub ty: TypeDesc<'a>,
    /// Value.
    pub value: Value<'a>,
}

/// A top-level parameter.
#[derive(Clone, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Parameter<'a> {
    /// Type (with the parameter's name and semantic).
    pub ty: TypeDesc<'a>,
    /// Flags (`D3DX_PARAMETER_SHARED` = 1, …).
    pub flags: u32,
    /// Default value.
    pub value: Value<'a>,
    /// Annotations.
    pub annotations: Vec<Annotation<'a>>,
}

/// A pass.
#[derive(Clone, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Pass<'a> {
    /// Name (empty when unnamed).
    pub name: Cow<'a, str>,
    /// Annotations.
    pub annotations: Vec<Annotation<'a>>,
    /// State assignments in order.
    pub states: Vec<State<'a>>,
}

/// A technique.
#[derive(Clone, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Technique<'a> {
    /// Name.
    pub name: Cow<'a, str>,
    /// Annotations.
    pub annotations: Vec<Annotation<'a>>,
    /// Passes.
    pub passes: Vec<Pass<'a>>,
}

/// A parsed effect.
#[derive(Clone, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Effect<'a> {
    /// Byte offset of the effect header in the input (non-zero behind an XNA wrapper).
    pub start: usize,
    /// Parameters.
    pub parameters: Vec<Parameter<'a>>,
    /// Techniques.
    pub techniques: Vec<Technique<'a>>,
    /// Object data by id (strings, shader bytecode; empty where the effect has none).
    #[cfg_attr(feature = "serde", serde(serialize_with = "ser_objects"))]
    pub objects: Vec<&'a [u8]>,
    /// Bytes of the effect in the input (header included).
    pub size: usize,
}

/// Little-endian DWORD at byte `at` of `b`.
#[inline]
pub(crate) fn dword(b: &[u8], at: usize) -> Option<u32> {
    let s = b.get(at..at.checked_add(4)?)?;
    Some(u32::from_le_bytes([s[0], s[1], s[2], s[3]]))
}

/// The parsing state: the body (offsets are relative to it) and its position in the input.
struct Parser<'a> {
    body: &'a [u8],
    base: usize,
    budget: usize,
    objects: Vec<&'a [u8]>,
    /// Where the last DWORD was read: the location reported for an offset that points
    /// outside the effect.
    last: std::cell::Cell<usize>,
}

/// A cursor over the body.
#[derive(Clone, Copy)]
struct Cur {
    at: usize,
}

impl<'a> Parser<'a> {
    /// An error at body offset `at`; a location outside the input is reported at the
    /// DWORD that pointed there.
    fn err<T>(&self, at: usize, what: impl Into<String>) -> Result<T, FxError> {
        let mut what = what.into();
        let at = if at >= self.body.len() {
            let from = self.last.get();
            if at > self.body.len() {
                what = format!(
                    "{what} (offset {at:#x}, read at byte {:#x})",
                    self.base + from
                );
            }
            at.min(self.body.len())
        } else {
            at
        };
        Err(FxError {
            offset: self.base + at,
            what,
        })
    }

    fn u32(&self, c: &mut Cur, what: &str) -> Result<u32, FxError> {
        match dword(self.body, c.at) {
            Some(v) => {
                self.last.set(c.at);
                c.at += 4;
                Ok(v)
            }
            None => self.err(c.at, format!("truncated: {what} runs past the end")),
        }
    }

    /// A count of items that each take at least `min` bytes from `c` on.
    fn count(&self, c: &mut Cur, min: usize, what: &str) -> Result<usize, FxError> {
        let at = c.at;
        let n = self.u32(c, what)? as usize;
        let left = self.body.len().saturating_sub(c.at);
        if n.saturating_mul(min.max(1)) > left {
            return self.err(
                at,
                format!("{what} {n} exceeds the {left} bytes that follow"),
            );
        }
        Ok(n)
    }

    fn spend(&mut self, at: usize, n: usize) -> Result<(), FxError> {
        if n > self.budget {
            return self.err(at, "more values than the input can describe");
        }
        self.budget -= n;
        Ok(())
    }

    /// A size-prefixed string at body offset `off` (NUL and what follows dropped).
    fn name(&self, off: u32, what: &str) -> Result<Cow<'a, str>, FxError> {
        let off = off as usize;
        let Some(len) = dword(self.body, off) else {
            return self.err(off, format!("{what} offset {off:#x} is outside the effect"));
        };
        let start = off + 4;
        let Some(bytes) = self.body.get(start..start.saturating_add(len as usize)) else {
            return self.err(off, format!("{what} of {len} bytes runs past the end"));
        };
        let end = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
        Ok(String::from_utf8_lossy(&bytes[..end]))
    }

    fn typedef(&mut self, off: u32, depth: u32) -> Result<TypeDesc<'a>, FxError> {
        let mut c = Cur { at: off as usize };
        if depth > 32 {
            return self.err(c.at, "struct types nested deeper than 32");
        }
        self.spend(c.at, 1)?;
        let ty = self.u32(&mut c, "type")?;
        let class = self.u32(&mut c, "class")?;
        let name_at = c.at;
        let name_off = self.u32(&mut c, "name offset")?;
        let sem_off = self.u32(&mut c, "semantic offset")?;
        let elements = self.u32(&mut c, "element count")?;
        self.last.set(name_at);
        let name = self.name(name_off, "name")?;
        self.last.set(name_at + 4);
        let semantic = self.name(sem_off, "semantic")?;
        let ty = ParameterType::from_u16(ty.min(0xFFFF) as u16);
        let class = ParameterClass::from_u16(class.min(0xFFFF) as u16);
        let (mut rows, mut columns, mut members) = (0, 0, Vec::new());
        match class {
            ParameterClass::Vector => {
                columns = self.u32(&mut c, "columns")?;
                rows = self.u32(&mut c, "rows")?;
            }
            ParameterClass::Scalar | ParameterClass::MatrixRows | ParameterClass::MatrixColumns => {
                rows = self.u32(&mut c, "rows")?;
                columns = self.u32(&mut c, "columns")?;
            }
            ParameterClass::Struct => {
                let n = self.count(&mut c, 20, "member count")?;
                members.reserve(n);
                for _ in 0..n {
                    // Members are typedefs laid out one after another.
                    let m = self.typedef(c.at as u32, depth + 1)?;
                    c.at = self.typedef_end(c.at, depth + 1)?;
                    members.push(m);
                }
            }
            ParameterClass::Object => {}
            ParameterClass::Other(n) => {
                return self.err(off as usize + 4, format!("unknown parameter class {n}"))
            }
        }
        // Shader-constant states carry whole register ranges (`float4x9`…); the
        // value's bytes are checked against the data when read.
        if rows > 0xFFFF || columns > 0xFFFF {
            return self.err(off as usize, format!("{rows}x{columns} values"));
        }
        Ok(TypeDesc {
            ty,
            class,
            name,
            semantic,
            elements,
            rows,
            columns,
            members,
        })
    }

    /// Byte offset after the typedef at `at`.
    fn typedef_end(&self, at: usize, depth: u32) -> Result<usize, FxError> {
        if depth > 32 {
            return self.err(at, "struct types nested deeper than 32");
        }
        let mut c = Cur { at: at + 4 };
        let class = self.u32(&mut c, "class")?;
        c.at += 12;
        match class {
            0..=3 => Ok(c.at + 8),
            5 => {
                let n = self.u32(&mut c, "member count")?;
                for _ in 0..n {
                    c.at = self.typedef_end(c.at, depth + 1)?;
                }
                Ok(c.at)
            }
            _ => Ok(c.at),
        }
    }

    /// The value of type `ty` whose numeric data starts at `data` and whose object
    /// references are read from `c`.
    fn value(
        &mut self,
        ty: &TypeDesc<'a>,
        data: usize,
        c: &mut Cur,
        element: bool,
        depth: u32,
    ) -> Result<Value<'a>, FxError> {
        if depth > 64 {
            return self.err(c.at, "values nested deeper than 64");
        }
        if ty.elements > 0 && !element {
            let n = ty.elements as usize;
            let eb = ty.element_bytes() as usize;
            // Each element takes numeric bytes or at least one DWORD of object data.
            let per = if eb > 0 { eb } else { 4 };
            let left = self.body.len().saturating_sub(data.min(c.at));
            if n.saturating_mul(per) > left {
                return self.err(c.at, format!("{n} array elements exceed the data"));
            }
            self.spend(c.at, n)?;
            let mut v = Vec::with_capacity(n);
            for i in 0..n {
                v.push(self.value(ty, data + i * eb, c, true, depth + 1)?);
            }
            return Ok(Value::Array(v));
        }
        match ty.class {
            ParameterClass::Scalar
            | ParameterClass::Vector
            | ParameterClass::MatrixRows
            | ParameterClass::MatrixColumns => {
                let n = ty.element_bytes() as usize;
                match self.body.get(data..data.saturating_add(n)) {
                    Some(b) => Ok(Value::Data(b)),
                    None => self.err(data, format!("value of {n} bytes runs past the end")),
                }
            }
            ParameterClass::Struct => {
                self.spend(c.at, ty.members.len())?;
                let mut v = Vec::with_capacity(ty.members.len());
                let mut at = data;
                for m in &ty.members {
                    v.push(self.value(m, at, c, false, depth + 1)?);
                    at += m.bytes() as usize;
                }
                Ok(Value::Struct(v))
            }
            ParameterClass::Object => {
                if ty.is_sampler() {
                    let n = self.count(c, 16, "sampler state count")?;
                    self.spend(c.at, n)?;
                    let mut states = Vec::with_capacity(n);
                    for _ in 0..n {
                        states.push(self.state(c, depth + 1)?);
                    }
                    Ok(Value::Sampler(states))
                } else {
                    let at = c.at;
                    let id = self.u32(c, "object id")?;
                    if id as usize >= self.objects.len() {
                        return self.err(
                            at,
                            format!("object id {id} of {} objects", self.objects.len()),
                        );
                    }
                    Ok(Value::Object(id))
                }
            }
            ParameterClass::Other(_) => self.err(c.at, "unknown class"),
        }
    }

    fn state(&mut self, c: &mut Cur, depth: u32) -> Result<State<'a>, FxError> {
        let at = c.at;
        let operation = self.u32(c, "state operation")?;
        let index = self.u32(c, "state index")?;
        let ty_at = c.at;
        let ty_off = self.u32(c, "state typedef offset")?;
        let val_off = self.u32(c, "state value offset")?;
        if state_info(operation).is_none() {
            return self.err(at, format!("unknown state operation {operation}"));
        }
        self.last.set(ty_at);
        let ty = self.typedef(ty_off, 0)?;
        let mut vc = Cur {
            at: val_off as usize,
        };
        self.last.set(ty_at + 4);
        let value = self.value(&ty, val_off as usize, &mut vc, false, depth)?;
        Ok(State {
            operation,
            index,
            ty,
            value,
            source: StateValue::Constant,
        })
    }

    fn annotations(&mut self, c: &mut Cur, n: usize) -> Result<Vec<Annotation<'a>>, FxError> {
        let mut v = Vec::with_capacity(n);
        for _ in 0..n {
            let ty_at = c.at;
            let ty_off = self.u32(c, "annotation typedef offset")?;
            let val_off = self.u32(c, "annotation value offset")?;
            self.last.set(ty_at);
            let ty = self.typedef(ty_off, 0)?;
            let mut vc = Cur {
                at: val_off as usize,
            };
            self.last.set(ty_at + 4);
            let value = self.value(&ty, val_off as usize, &mut vc, false, 0)?;
            v.push(Annotation { ty, value });
        }
        Ok(v)
    }

    /// Size-prefixed data padded to 4 bytes.
    fn blob(&self, c: &mut Cur, what: &str) -> Result<&'a [u8], FxError> {
        let at = c.at;
        let n = self.u32(c, what)? as usize;
        let Some(b) = self.body.get(c.at..c.at.saturating_add(n)) else {
            return self.err(at, format!("{what} of {n} bytes runs past the end"));
        };
        c.at += n.div_ceil(4) * 4;
        Ok(b)
    }
}

fn words_str(b: &[u8]) -> Cow<'_, str> {
    let end = b.iter().position(|&x| x == 0).unwrap_or(b.len());
    String::from_utf8_lossy(&b[..end])
}

impl<'a> Effect<'a> {
    /// Whether `bytes` starts like an effect (fx_2_0 tag, or the XNA wrapper).
    pub fn is_effect(bytes: &[u8]) -> bool {
        matches!(dword(bytes, 0), Some(FX_2_0 | XNA_WRAPPER))
    }

    /// Parses an effect (an fx_2_0 container, or one behind the XNA wrapper).
    pub fn parse(bytes: &'a [u8]) -> Result<Effect<'a>, FxError> {
        let mut start = 0;
        let tag = dword(bytes, 0).ok_or_else(|| FxError {
            offset: 0,
            what: "truncated: no effect header".into(),
        })?;
        if tag == XNA_WRAPPER {
            let skip = dword(bytes, 4).ok_or_else(|| FxError {
                offset: 4,
                what: "truncated XNA header".into(),
            })? as usize;
            if skip < 8 || skip > bytes.len() {
                return Err(FxError {
                    offset: 4,
                    what: format!("XNA header points at {skip:#x}, outside the input"),
                });
            }
            start = skip;
        }
        let b = &bytes[start..];
        match dword(b, 0) {
            Some(FX_2_0) => {}
            Some(t) => {
                return Err(FxError {
                    offset: start,
                    what: format!("not an fx_2_0 effect (tag {t:#010x})"),
                })
            }
            None => {
                return Err(FxError {
                    offset: start,
                    what: "truncated: no effect header".into(),
                })
            }
        }
        let table = dword(b, 4).ok_or_else(|| FxError {
            offset: start + 4,
            what: "truncated effect header".into(),
        })? as usize;
        let body = &b[8..];
        let mut p = Parser {
            body,
            base: start + 8,
            budget: body.len() / 2 + 64,
            objects: Vec::new(),
            last: std::cell::Cell::new(0),
        };
        let mut c = Cur { at: table };
        if table > body.len() {
            return p.err(0, format!("table offset {table:#x} is outside the effect"));
        }
        let nparams = p.count(&mut c, 16, "parameter count")?;
        let ntech = p.count(&mut c, 12, "technique count")?;
        p.u32(&mut c, "reserved DWORD")?;
        let objects_at = c.at;
        let nobjects = p.u32(&mut c, "object count")? as usize;
        if nobjects > body.len() {
            return p.err(
                objects_at,
                format!("{nobjects} objects in {} bytes", body.len()),
            );
        }
        p.objects = vec![&[][..]; nobjects];
        let mut parameters = Vec::with_capacity(nparams);
        for _ in 0..nparams {
            let ty_at = c.at;
            let ty_off = p.u32(&mut c, "parameter typedef offset")?;
            let val_off = p.u32(&mut c, "parameter value offset")?;
            let flags = p.u32(&mut c, "parameter flags")?;
            let nanno = p.count(&mut c, 8, "annotation count")?;
            p.last.set(ty_at);
            let ty = p.typedef(ty_off, 0)?;
            let mut vc = Cur {
                at: val_off as usize,
            };
            p.last.set(ty_at + 4);
            let value = p.value(&ty, val_off as usize, &mut vc, false, 0)?;
            let annotations = p.annotations(&mut c, nanno)?;
            parameters.push(Parameter {
                ty,
                flags,
                value,
                annotations,
            });
        }
        let mut techniques = Vec::with_capacity(ntech);
        for _ in 0..ntech {
            let name_at = c.at;
            let name_off = p.u32(&mut c, "technique name offset")?;
            let nanno = p.count(&mut c, 8, "annotation count")?;
            let npass = p.count(&mut c, 12, "pass count")?;
            p.last.set(name_at);
            let name = p.name(name_off, "technique name")?;
            let annotations = p.annotations(&mut c, nanno)?;
            let mut passes = Vec::with_capacity(npass);
            for _ in 0..npass {
                let name_at = c.at;
                let name_off = p.u32(&mut c, "pass name offset")?;
                let nanno = p.count(&mut c, 8, "annotation count")?;
                let nstates = p.count(&mut c, 16, "state count")?;
                p.last.set(name_at);
                let name = p.name(name_off, "pass name")?;
                let annotations = p.annotations(&mut c, nanno)?;
                let mut states = Vec::with_capacity(nstates);
                for _ in 0..nstates {
                    states.push(p.state(&mut c, 0)?);
                }
                passes.push(Pass {
                    name,
                    annotations,
                    states,
                });
            }
            techniques.push(Technique {
                name,
                annotations,
                passes,
            });
        }
        let nstrings = p.count(&mut c, 8, "string count")?;
        let nres = p.count(&mut c, 24, "resource count")?;
        for _ in 0..nstrings {
            let at = c.at;
            let id = p.u32(&mut c, "object id")? as usize;
            let data = p.blob(&mut c, "object data")?;
            match p.objects.get_mut(id) {
                Some(o) => *o = data,
                None => return p.err(at, format!("object id {id} of {nobjects} objects")),
            }
        }
        for _ in 0..nres {
            let at = c.at;
            let tech = p.u32(&mut c, "resource technique index")?;
            let index = p.u32(&mut c, "resource index")?;
            let element = p.u32(&mut c, "resource element index")?;
            let state_index = p.u32(&mut c, "resource state index")? as usize;
            let usage = p.u32(&mut c, "resource usage")?;
            let data = p.blob(&mut c, "resource data")?;
            let state: &mut State = if tech == u32::MAX {
                let Some(param) = parameters.get_mut(index as usize) else {
                    return p.err(at, format!("resource for parameter {index} of {nparams}"));
                };
                let mut v = &mut param.value;
                if element != u32::MAX {
                    if let Value::Array(items) = v {
                        let n = items.len();
                        match items.get_mut(element as usize) {
                            Some(e) => v = e,
                            None => {
                                return p.err(at, format!("resource for element {element} of {n}"))
                            }
                        }
                    }
                }
                match v {
                    Value::Sampler(s) => {
                        let n = s.len();
                        match s.get_mut(state_index) {
                            Some(s) => s,
                            None => {
                                return p
                                    .err(at, format!("resource for state {state_index} of {n}"))
                            }
                        }
                    }
                    _ => return p.err(at, "resource for a parameter that is not a sampler"),
                }
            } else {
                let pass = techniques
                    .get_mut(tech as usize)
                    .and_then(|t| t.passes.get_mut(index as usize));
                let Some(pass) = pass else {
                    return p.err(at, format!("resource for technique {tech} pass {index}"));
                };
                let n = pass.states.len();
                match pass.states.get_mut(state_index) {
                    Some(s) => s,
                    None => return p.err(at, format!("resource for state {state_index} of {n}")),
                }
            };
            match usage {
                0 => {
                    if state.ty.is_shader() {
                        if let Value::Object(id) = state.value {
                            p.objects[id as usize] = data;
                        }
                        state.source = StateValue::Constant;
                    } else {
                        state.source = StateValue::Expression(data);
                    }
                }
                1 => state.source = StateValue::Parameter(words_str(data)),
                2 => {
                    let Some(n) = dword(data, 0) else {
                        return p.err(at, "array selector without a name");
                    };
                    let n = n as usize;
                    let Some(name) = data.get(4..4usize.saturating_add(n)) else {
                        return p.err(at, "array selector name runs past its data");
                    };
                    // The selector program starts `size + 4` bytes in (D3DX's reading; fxc
                    // pads the name so that the program follows it).
                    let prog_at = n.saturating_add(4);
                    let program = data.get(prog_at.min(data.len())..).unwrap_or(&[]);
                    state.source = StateValue::ArraySelector {
                        array: words_str(name),
                        program,
                    };
                }
                u => return p.err(at, format!("unknown resource usage {u}")),
            }
        }
        Ok(Effect {
            start,
            parameters,
            techniques,
            objects: p.objects,
            size: b.len().min(8 + c.at),
        })
    }

    /// The data of object `id` (empty when none).
    pub fn object(&self, id: u32) -> &'a [u8] {
        self.objects.get(id as usize).copied().unwrap_or(&[])
    }

    /// The top-level parameter named `name`.
    pub fn parameter(&self, name: &str) -> Option<&Parameter<'a>> {
        self.parameters.iter().find(|p| p.ty.name == name)
    }

    /// The type and value a parameter path names (`name`, `name[2]`, `name.member`,
    /// combinations), as D3DX resolves parameter references and `GetParameterByName`
    /// names: a top-level parameter's annotation is `name@annotation` (then indexed
    /// and followed into like a parameter: `g@h[0]`, `i@k[0].j`). An index into a
    /// non-array, a member of a non-struct, an empty or unknown part, or an annotation
    /// of anything but a top-level parameter names nothing (Wine's
    /// `test_effect_variable_names`).
    pub fn resolve(&self, path: &str) -> Option<(&TypeDesc<'a>, &Value<'a>)> {
        let end = path.find(['[', '.', '@']).unwrap_or(path.len());
        let p = self.parameter(&path[..end])?;
        let rest = &path[end..];
        match rest.strip_prefix('@') {
            Some(a) => Self::resolve_annotation(&p.annotations, a),
            None => walk(&p.ty, &p.value, rest),
        }
    }

    /// The type and value an annotation path names among `annotations` (a parameter's,
    /// technique's or pass's): `name`, `name[0]`, `name[0].member`, as
    /// `GetAnnotationByName` resolves them.
    pub fn resolve_annotation<'s>(
        annotations: &'s [Annotation<'a>],
        path: &str,
    ) -> Option<(&'s TypeDesc<'a>, &'s Value<'a>)> {
        let end = path.find(['[', '.', '@']).unwrap_or(path.len());
        let a = annotations.iter().find(|a| a.ty.name == path[..end])?;
        walk(&a.ty, &a.value, &path[end..])
    }

    /// The string value of object `id`.
    pub fn string(&self, id: u32) -> Cow<'a, str> {
        words_str(self.object(id))
    }
}

impl fmt::Display for TypeDesc<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.class {
            ParameterClass::Vector => write!(f, "{}{}", self.ty.hlsl_name(), self.columns)?,
            ParameterClass::MatrixRows | ParameterClass::MatrixColumns => {
                write!(f, "{}{}x{}", self.ty.hlsl_name(), self.rows, self.columns)?
            }
            ParameterClass::Struct => f.write_str("struct")?,
            _ => f.write_str(self.ty.hlsl_name())?,
        }
        write!(f, " {}", self.name)?;
        if self.elements > 0 {
            write!(f, "[{}]", self.elements)?;
        }
        Ok(())
    }
}

/// Follows `rest` (`[i]`, `.member`, repeated) from a value of type `ty`.
fn walk<'s, 'a>(
    mut ty: &'s TypeDesc<'a>,
    mut v: &'s Value<'a>,
    mut rest: &str,
) -> Option<(&'s TypeDesc<'a>, &'s Value<'a>)> {
    let mut in_array = ty.elements > 0;
    while !rest.is_empty() {
        if let Some(r) = rest.strip_prefix('[') {
            let close = r.find(']')?;
            let i: usize = r[..close].trim().parse().ok()?;
            match v {
                Value::Array(items) if in_array => v = items.get(i)?,
                _ => return None,
            }
            in_array = false;
            rest = &r[close + 1..];
        } else if let Some(r) = rest.strip_prefix('.') {
            let end = r.find(['[', '.', '@']).unwrap_or(r.len());
            let (Value::Struct(members), false) = (v, in_array) else {
                return None;
            };
            let k = ty.members.iter().position(|m| m.name == r[..end])?;
            ty = &ty.members[k];
            v = members.get(k)?;
            in_array = ty.elements > 0;
            rest = &r[end..];
        } else {
            return None;
        }
    }
    Some((ty, v))
}

/// Bytes as little-endian DWORDs (a trailing partial DWORD is dropped).
pub fn to_words(b: &[u8]) -> Vec<u32> {
    b.chunks_exact(4)
        .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
        .collect()
}
