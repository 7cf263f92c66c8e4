//! The owned intermediate representation: a [`Shader`] is a version plus a list of
//! [`Item`]s (instructions and comment blocks) in stream order.
//!
//! [`Instruction`] is a fixed-size value (no heap data), so the zero-copy decoder can
//! hand out the same type without allocating, and the encoder can turn it back into
//! exactly the tokens it came from.

use crate::ctab::{Ctab, CtabError};
use crate::opcode::{Layout, Opcode};
use crate::token::{
    result_modifier, Comparison, DeclUsage, RegisterType, SamplerType, SrcModifier,
};
use crate::version::Version;

/// The identity swizzle `.xyzw`.
pub const SWIZZLE_IDENTITY: u8 = 0xE4;
/// The full write mask `.xyzw`.
pub const MASK_ALL: u8 = 0xF;

/// A register reference: type and number (11 bits).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Register {
    /// Register file.
    pub kind: RegisterType,
    /// Index within the file (0–2047).
    pub num: u16,
}

impl Register {
    /// A register.
    pub const fn new(kind: RegisterType, num: u16) -> Self {
        Register { kind, num }
    }
}

/// Relative addressing of an operand: `c[a0.x + n]`, `v[aL]`, `o[aL]`.
///
/// From SM2 on this is a separate relative-address token after the operand; in vs_1_x it
/// is implicit (`a0.x`) and only the operand's relative bit is set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct RelAddr {
    /// The address register (`a0`, `aL`).
    pub reg: Register,
    /// The swizzle field of the relative-address token; its low two bits pick the
    /// component (`x` = 0 … `w` = 3).
    pub swizzle: u8,
}

impl RelAddr {
    /// The implicit `a0.x` of vs_1_x.
    pub const A0_X: RelAddr = RelAddr {
        reg: Register::new(RegisterType::AddrOrTexture, 0),
        swizzle: 0,
    };

    /// The component selected (0–3).
    pub fn component(self) -> u8 {
        self.swizzle & 3
    }
}

/// A destination parameter token (plus its relative-address token, if any).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct DstParam {
    /// The register written.
    pub reg: Register,
    /// Relative addressing (vs_3_0 `o[aL]`).
    pub rel: Option<RelAddr>,
    /// Write mask, bit 0 = x … bit 3 = w.
    pub mask: u8,
    /// Result modifiers (`result_modifier::*` bits).
    pub modifiers: u8,
    /// Shift scale, the raw signed 4-bit field (1 = `_x2`, 2 = `_x4`, 3 = `_x8`,
    /// 15 = `_d2`, 14 = `_d4`, 13 = `_d8`).
    pub shift: u8,
}

impl DstParam {
    /// A plain destination with a write mask.
    pub const fn new(reg: Register, mask: u8) -> Self {
        DstParam {
            reg,
            rel: None,
            mask,
            modifiers: 0,
            shift: 0,
        }
    }

    /// `_sat`.
    pub fn saturate(&self) -> bool {
        self.modifiers & result_modifier::SATURATE != 0
    }

    /// `_pp`.
    pub fn partial_precision(&self) -> bool {
        self.modifiers & result_modifier::PARTIAL_PRECISION != 0
    }

    /// `_centroid`.
    pub fn centroid(&self) -> bool {
        self.modifiers & result_modifier::CENTROID != 0
    }

    /// Shift as a signed power of two (-3…3, 0 for none).
    pub fn shift_value(&self) -> i8 {
        ((self.shift << 4) as i8) >> 4
    }
}

/// A source parameter token (plus its relative-address token, if any).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct SrcParam {
    /// The register read.
    pub reg: Register,
    /// Relative addressing.
    pub rel: Option<RelAddr>,
    /// Swizzle, 2 bits per output component (x in bits 0–1).
    pub swizzle: u8,
    /// Source modifier.
    pub modifier: SrcModifier,
}

impl SrcParam {
    /// A plain source with the identity swizzle.
    pub const fn new(reg: Register) -> Self {
        SrcParam {
            reg,
            rel: None,
            swizzle: SWIZZLE_IDENTITY,
            modifier: SrcModifier::None,
        }
    }

    /// Placeholder for unused slots of [`Instruction::srcs`].
    pub const EMPTY: SrcParam = SrcParam::new(Register::new(RegisterType::Temp, 0));
}

/// The `dcl` token (the DWORD between a `dcl` instruction token and its destination).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct DeclToken(pub u32);

impl DeclToken {
    /// Usage form: usage in bits 0–4, usage index in bits 16–19, bit 31 set.
    pub const fn usage(usage: DeclUsage, index: u8) -> Self {
        DeclToken(0x8000_0000 | usage as u32 | ((index as u32 & 0xF) << 16))
    }

    /// Sampler form: texture type in bits 27–30, bit 31 set.
    pub const fn sampler(ty: SamplerType) -> Self {
        DeclToken(0x8000_0000 | ((ty as u32) << 27))
    }

    /// The raw usage field (bits 0–4).
    pub const fn usage_raw(self) -> u8 {
        (self.0 & 0x1F) as u8
    }

    /// The usage, if the field holds a defined `D3DDECLUSAGE`.
    pub fn usage_kind(self) -> Option<DeclUsage> {
        DeclUsage::from_u8(self.usage_raw())
    }

    /// The usage index (bits 16–19).
    pub const fn usage_index(self) -> u8 {
        ((self.0 >> 16) & 0xF) as u8
    }

    /// The raw sampler texture type (bits 27–30).
    pub const fn sampler_type_raw(self) -> u8 {
        ((self.0 >> 27) & 0xF) as u8
    }

    /// The sampler texture type, if defined.
    pub fn sampler_type(self) -> Option<SamplerType> {
        SamplerType::from_u8(self.sampler_type_raw())
    }
}

/// One instruction: opcode, controls, operands. Fixed size; no heap data.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Instruction {
    /// The opcode.
    pub opcode: Opcode,
    /// Bits 16–23 of the instruction token (comparison, `texldp`/`texldb`).
    pub controls: u8,
    /// Co-issue (`+` prefix, ps < 2.0).
    pub coissue: bool,
    /// Predicate (`(p0)`, `(!p0.x)`), encoded as a source token after the destination and
    /// before the sources.
    pub predicate: Option<SrcParam>,
    /// The `dcl` token (only meaningful for `dcl`).
    pub decl: DeclToken,
    /// The destination (meaningful when the layout has one).
    pub dst: DstParam,
    /// Sources; only the first `src_count` are meaningful.
    pub srcs: [SrcParam; 4],
    /// Number of sources.
    pub src_count: u8,
    /// Immediate DWORDs of `def` (4 floats), `defi` (4 ints), `defb` (1 bool).
    pub imm: [u32; 4],
}

impl Instruction {
    /// An instruction with no operands filled in.
    pub const fn new(opcode: Opcode) -> Self {
        Instruction {
            opcode,
            controls: 0,
            coissue: false,
            predicate: None,
            decl: DeclToken(0),
            dst: DstParam::new(Register::new(RegisterType::Temp, 0), MASK_ALL),
            srcs: [SrcParam::EMPTY; 4],
            src_count: 0,
            imm: [0; 4],
        }
    }

    /// The meaningful sources.
    #[inline]
    pub fn src(&self) -> &[SrcParam] {
        &self.srcs[..self.src_count as usize]
    }

    /// Appends a source (up to four).
    pub fn push_src(&mut self, s: SrcParam) {
        self.srcs[self.src_count as usize] = s;
        self.src_count += 1;
    }

    /// The destination, when the opcode's layout in `version` has one.
    pub fn dst_in(&self, version: Version) -> Option<&DstParam> {
        self.opcode.layout(version).dst.then_some(&self.dst)
    }

    /// The comparison of `ifc`, `breakc`, `setp`.
    pub fn comparison(&self) -> Option<Comparison> {
        if self.opcode.has_comparison() {
            Comparison::from_u8(self.controls & 7)
        } else {
            None
        }
    }

    /// The token layout of this instruction in `version`.
    pub fn layout(&self, version: Version) -> Layout {
        self.opcode.layout(version)
    }

    /// Number of DWORDs after the instruction token in `version` (the SM2+ length field).
    pub fn operand_len(&self, version: Version) -> usize {
        self.operand_len_in(self.layout(version), version)
    }

    /// [`Self::operand_len`] with the layout already looked up.
    #[inline]
    pub(crate) fn operand_len_in(&self, l: Layout, version: Version) -> usize {
        let reltok =
            |rel: Option<RelAddr>| usize::from(rel.is_some() && version.has_relative_token());
        let mut n = usize::from(l.decl) + l.imms as usize;
        if l.dst {
            n += 1 + reltok(self.dst.rel);
        }
        for s in self.src() {
            n += 1 + reltok(s.rel);
        }
        if let Some(p) = &self.predicate {
            n += 1 + reltok(p.rel);
        }
        n
    }

    /// The `def` immediates as floats.
    pub fn imm_f32(&self) -> [f32; 4] {
        self.imm.map(f32::from_bits)
    }
}

/// One element of a shader's token stream after the version token.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum Item {
    /// An instruction.
    Instruction(Instruction),
    /// A comment block's payload (the DWORDs after the comment token).
    Comment(Vec<u32>),
}

/// An owned shader: version and items in stream order (the end token is implicit).
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Shader {
    /// The version token.
    pub version: Version,
    /// Instructions and comments, in order.
    pub items: Vec<Item>,
}

impl Shader {
    /// An empty shader of `version`.
    pub fn new(version: Version) -> Self {
        Shader {
            version,
            items: Vec::new(),
        }
    }

    /// The instructions, skipping comments.
    pub fn instructions(&self) -> impl Iterator<Item = &Instruction> + '_ {
        self.items.iter().filter_map(|i| match i {
            Item::Instruction(ins) => Some(ins),
            Item::Comment(_) => None,
        })
    }

    /// The comment payloads, in order.
    pub fn comments(&self) -> impl Iterator<Item = &[u32]> + '_ {
        self.items.iter().filter_map(|i| match i {
            Item::Comment(c) => Some(c.as_slice()),
            Item::Instruction(_) => None,
        })
    }

    /// The first comment block carrying a `CTAB` constant table, parsed.
    pub fn ctab(&self) -> Option<Result<Ctab, CtabError>> {
        self.comments().find(|c| Ctab::is_ctab(c)).map(Ctab::parse)
    }

    /// A copy without comment blocks (what assembling a listing gives back).
    pub fn without_comments(&self) -> Shader {
        Shader {
            version: self.version,
            items: self
                .items
                .iter()
                .filter(|i| matches!(i, Item::Instruction(_)))
                .cloned()
                .collect(),
        }
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for Instruction {
    /// Only the fields the opcode uses: unused source slots, the `dcl` token of
    /// non-`dcl` instructions and unused immediates are left out.
    fn serialize<S: serde::Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
        use crate::opcode::Shape;
        use serde::ser::SerializeMap;
        let shape = self.opcode.info().shape;
        let mut m = ser.serialize_map(None)?;
        m.serialize_entry("opcode", &self.opcode)?;
        m.serialize_entry("controls", &self.controls)?;
        if let Some(c) = self.comparison() {
            m.serialize_entry("comparison", &c)?;
        }
        if self.coissue {
            m.serialize_entry("coissue", &true)?;
        }
        if let Some(p) = &self.predicate {
            m.serialize_entry("predicate", p)?;
        }
        if matches!(shape, Shape::Dcl) {
            m.serialize_entry("decl", &self.decl)?;
            m.serialize_entry("usage", &self.decl.usage_kind())?;
            m.serialize_entry("usage_index", &self.decl.usage_index())?;
            m.serialize_entry("sampler_type", &self.decl.sampler_type())?;
        }
        if !matches!(shape, Shape::None | Shape::Src(_)) {
            m.serialize_entry("dst", &self.dst)?;
        }
        if let Shape::Def(n) = shape {
            m.serialize_entry("imm", &self.imm[..n as usize])?;
        }
        m.serialize_entry("srcs", self.src())?;
        m.end()
    }
}
