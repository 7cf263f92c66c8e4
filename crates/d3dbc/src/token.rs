//! Bit-level fields of the DWORD tokens: instruction token, destination and source
//! parameter tokens, relative-address tokens, `dcl` tokens, comment and end tokens,
//! and the enumerations they carry (register types, modifiers, usages, sampler types).

use crate::version::Version;

/// `D3DSHADER_PARAM_REGISTER_TYPE` (5 bits split over bits 28–30 and 11–12).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[repr(u8)]
pub enum RegisterType {
    /// `D3DSPR_TEMP` (`r#`).
    Temp = 0,
    /// `D3DSPR_INPUT` (`v#`).
    Input = 1,
    /// `D3DSPR_CONST` (`c#`).
    Const = 2,
    /// `D3DSPR_ADDR` in vertex shaders (`a0`), `D3DSPR_TEXTURE` in pixel shaders (`t#`).
    AddrOrTexture = 3,
    /// `D3DSPR_RASTOUT` (`oPos`, `oFog`, `oPts`).
    RastOut = 4,
    /// `D3DSPR_ATTROUT` (`oD#`).
    AttrOut = 5,
    /// `D3DSPR_TEXCRDOUT` (`oT#`), `D3DSPR_OUTPUT` in vs_3_0 (`o#`).
    Output = 6,
    /// `D3DSPR_CONSTINT` (`i#`).
    ConstInt = 7,
    /// `D3DSPR_COLOROUT` (`oC#`).
    ColorOut = 8,
    /// `D3DSPR_DEPTHOUT` (`oDepth`).
    DepthOut = 9,
    /// `D3DSPR_SAMPLER` (`s#`).
    Sampler = 10,
    /// `D3DSPR_CONST2` (`c2048`…).
    Const2 = 11,
    /// `D3DSPR_CONST3` (`c4096`…).
    Const3 = 12,
    /// `D3DSPR_CONST4` (`c6144`…).
    Const4 = 13,
    /// `D3DSPR_CONSTBOOL` (`b#`).
    ConstBool = 14,
    /// `D3DSPR_LOOP` (`aL`).
    Loop = 15,
    /// `D3DSPR_TEMPFLOAT16` (`half#`).
    TempFloat16 = 16,
    /// `D3DSPR_MISCTYPE` (`vPos`, `vFace`).
    MiscType = 17,
    /// `D3DSPR_LABEL` (`l#`).
    Label = 18,
    /// `D3DSPR_PREDICATE` (`p0`).
    Predicate = 19,
}

impl RegisterType {
    /// Decodes the 5-bit register type; values 20–31 are not register types.
    pub const fn from_u8(v: u8) -> Option<Self> {
        use RegisterType::*;
        Some(match v {
            0 => Temp,
            1 => Input,
            2 => Const,
            3 => AddrOrTexture,
            4 => RastOut,
            5 => AttrOut,
            6 => Output,
            7 => ConstInt,
            8 => ColorOut,
            9 => DepthOut,
            10 => Sampler,
            11 => Const2,
            12 => Const3,
            13 => Const4,
            14 => ConstBool,
            15 => Loop,
            16 => TempFloat16,
            17 => MiscType,
            18 => Label,
            19 => Predicate,
            _ => return None,
        })
    }

    /// The `D3DSPR_*` name (version-dependent for the shared values 3 and 6).
    pub fn d3dspr_name(self, version: Version) -> &'static str {
        use RegisterType::*;
        match self {
            Temp => "D3DSPR_TEMP",
            Input => "D3DSPR_INPUT",
            Const => "D3DSPR_CONST",
            AddrOrTexture if version.is_vertex() => "D3DSPR_ADDR",
            AddrOrTexture => "D3DSPR_TEXTURE",
            RastOut => "D3DSPR_RASTOUT",
            AttrOut => "D3DSPR_ATTROUT",
            Output if version.is_vertex() && version.major >= 3 => "D3DSPR_OUTPUT",
            Output => "D3DSPR_TEXCRDOUT",
            ConstInt => "D3DSPR_CONSTINT",
            ColorOut => "D3DSPR_COLOROUT",
            DepthOut => "D3DSPR_DEPTHOUT",
            Sampler => "D3DSPR_SAMPLER",
            Const2 => "D3DSPR_CONST2",
            Const3 => "D3DSPR_CONST3",
            Const4 => "D3DSPR_CONST4",
            ConstBool => "D3DSPR_CONSTBOOL",
            Loop => "D3DSPR_LOOP",
            TempFloat16 => "D3DSPR_TEMPFLOAT16",
            MiscType => "D3DSPR_MISCTYPE",
            Label => "D3DSPR_LABEL",
            Predicate => "D3DSPR_PREDICATE",
        }
    }
}

#[doc(hidden)]
/// Extracts the 5-bit register type of a parameter token (bits 28–30 low, 11–12 high).
#[inline]
pub const fn param_register_type_bits(token: u32) -> u8 {
    (((token >> 28) & 0x7) | ((token >> 8) & 0x18)) as u8
}

#[doc(hidden)]
/// Places a 5-bit register type into parameter-token bits.
#[inline]
pub const fn register_type_to_bits(t: RegisterType) -> u32 {
    let v = t as u32;
    ((v & 0x7) << 28) | ((v & 0x18) << 8)
}

/// `D3DSHADER_PARAM_SRCMOD_TYPE` (source token bits 24–27).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[repr(u8)]
pub enum SrcModifier {
    /// No modifier.
    #[default]
    None = 0,
    /// `-r`.
    Neg = 1,
    /// `r_bias`.
    Bias = 2,
    /// `-r_bias`.
    BiasNeg = 3,
    /// `r_bx2` (signed scale).
    Sign = 4,
    /// `-r_bx2`.
    SignNeg = 5,
    /// `1 - r` (complement).
    Comp = 6,
    /// `r_x2`.
    X2 = 7,
    /// `-r_x2`.
    X2Neg = 8,
    /// `r_dz` (divide by z).
    Dz = 9,
    /// `r_dw` (divide by w).
    Dw = 10,
    /// `r_abs`.
    Abs = 11,
    /// `-r_abs`.
    AbsNeg = 12,
    /// `!b` (boolean not).
    Not = 13,
}

impl SrcModifier {
    /// Decodes bits 24–27; 14 and 15 are not modifiers.
    pub fn from_u8(v: u8) -> Option<Self> {
        use SrcModifier::*;
        Some(match v {
            0 => None,
            1 => Neg,
            2 => Bias,
            3 => BiasNeg,
            4 => Sign,
            5 => SignNeg,
            6 => Comp,
            7 => X2,
            8 => X2Neg,
            9 => Dz,
            10 => Dw,
            11 => Abs,
            12 => AbsNeg,
            13 => Not,
            _ => return Option::None,
        })
    }

    /// The modifier's arithmetic on one component, as D3D9 defines it (`_bias`: x − 0.5,
    /// `_bx2`: 2·(x − 0.5), `1-`: 1 − x, `_x2`: 2·x, `_abs`, and their negations). `_dz`,
    /// `_dw` (a projective divide over the whole operand) and `!` (booleans) leave the
    /// value as it is. The executor reads it; the translator expresses the same rules in
    /// naga IR independently.
    #[inline(always)]
    pub fn apply(self, x: f32) -> f32 {
        use SrcModifier::*;
        match self {
            None | Not | Dz | Dw => x,
            Neg => -x,
            Bias => x - 0.5,
            BiasNeg => -(x - 0.5),
            Sign => 2.0 * (x - 0.5),
            SignNeg => -(2.0 * (x - 0.5)),
            Comp => 1.0 - x,
            X2 => 2.0 * x,
            X2Neg => -(2.0 * x),
            Abs => x.abs(),
            AbsNeg => -x.abs(),
        }
    }

    /// True for the modifiers printed with a leading `-`.
    pub fn is_negated(self) -> bool {
        matches!(
            self,
            SrcModifier::Neg
                | SrcModifier::BiasNeg
                | SrcModifier::SignNeg
                | SrcModifier::X2Neg
                | SrcModifier::AbsNeg
        )
    }

    /// The suffix printed after the register name (`_bias`, `_bx2`, `_x2`, `_dz`, `_dw`, `_abs`).
    pub fn suffix(self) -> &'static str {
        use SrcModifier::*;
        match self {
            Bias | BiasNeg => "_bias",
            Sign | SignNeg => "_bx2",
            X2 | X2Neg => "_x2",
            Dz => "_dz",
            Dw => "_dw",
            Abs | AbsNeg => "_abs",
            _ => "",
        }
    }
}

/// Result modifier bits of a destination token (bits 20–23).
pub mod result_modifier {
    /// `_sat`.
    pub const SATURATE: u8 = 1;
    /// `_pp`.
    pub const PARTIAL_PRECISION: u8 = 2;
    /// `_centroid`.
    pub const CENTROID: u8 = 4;
}

/// Comparison in the controls field of `ifc`, `breakc`, `setp` (`D3DSHADER_COMPARISON`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[repr(u8)]
pub enum Comparison {
    /// `_gt`.
    Gt = 1,
    /// `_eq`.
    Eq = 2,
    /// `_ge`.
    Ge = 3,
    /// `_lt`.
    Lt = 4,
    /// `_ne`.
    Ne = 5,
    /// `_le`.
    Le = 6,
}

impl Comparison {
    /// Decodes the 3-bit comparison; 0 and 7 are reserved.
    pub fn from_u8(v: u8) -> Option<Self> {
        Some(match v {
            1 => Comparison::Gt,
            2 => Comparison::Eq,
            3 => Comparison::Ge,
            4 => Comparison::Lt,
            5 => Comparison::Ne,
            6 => Comparison::Le,
            _ => return None,
        })
    }

    /// The comparison `a OP b` on floats, as `ifc`, `breakc` and `setp` evaluate it (IEEE:
    /// any comparison with NaN is false except `ne`). The executor reads it; the
    /// translator maps each to naga's operator of the same meaning.
    #[inline]
    pub fn test(self, a: f32, b: f32) -> bool {
        match self {
            Comparison::Gt => a > b,
            Comparison::Eq => a == b,
            Comparison::Ge => a >= b,
            Comparison::Lt => a < b,
            Comparison::Ne => a != b,
            Comparison::Le => a <= b,
        }
    }

    /// `gt`, `eq`, … as in `if_gt`.
    pub fn suffix(self) -> &'static str {
        match self {
            Comparison::Gt => "gt",
            Comparison::Eq => "eq",
            Comparison::Ge => "ge",
            Comparison::Lt => "lt",
            Comparison::Ne => "ne",
            Comparison::Le => "le",
        }
    }

    /// All comparisons.
    pub const ALL: [Comparison; 6] = [
        Comparison::Gt,
        Comparison::Eq,
        Comparison::Ge,
        Comparison::Lt,
        Comparison::Ne,
        Comparison::Le,
    ];
}

/// Texture-load controls (`D3DSI_TEXLD_PROJECT`, `D3DSI_TEXLD_BIAS`) in bits 16–23.
pub mod texld_controls {
    /// `texldp` (ps_2_0+) — controls value 1.
    pub const PROJECT: u8 = 1;
    /// `texldb` (ps_2_0+) — controls value 2.
    pub const BIAS: u8 = 2;
}

/// `D3DDECLUSAGE` (bits 0–4 of a `dcl` token).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[repr(u8)]
pub enum DeclUsage {
    /// `position`.
    Position = 0,
    /// `blendweight`.
    BlendWeight = 1,
    /// `blendindices`.
    BlendIndices = 2,
    /// `normal`.
    Normal = 3,
    /// `psize`.
    PSize = 4,
    /// `texcoord`.
    TexCoord = 5,
    /// `tangent`.
    Tangent = 6,
    /// `binormal`.
    Binormal = 7,
    /// `tessfactor`.
    TessFactor = 8,
    /// `positiont`.
    PositionT = 9,
    /// `color`.
    Color = 10,
    /// `fog`.
    Fog = 11,
    /// `depth`.
    Depth = 12,
    /// `sample`.
    Sample = 13,
}

impl DeclUsage {
    /// All usages in `D3DDECLUSAGE` order.
    pub const ALL: [DeclUsage; 14] = [
        DeclUsage::Position,
        DeclUsage::BlendWeight,
        DeclUsage::BlendIndices,
        DeclUsage::Normal,
        DeclUsage::PSize,
        DeclUsage::TexCoord,
        DeclUsage::Tangent,
        DeclUsage::Binormal,
        DeclUsage::TessFactor,
        DeclUsage::PositionT,
        DeclUsage::Color,
        DeclUsage::Fog,
        DeclUsage::Depth,
        DeclUsage::Sample,
    ];

    /// Decodes bits 0–4.
    pub fn from_u8(v: u8) -> Option<Self> {
        Self::ALL.get(v as usize).copied()
    }

    /// The spelling after `dcl_`.
    pub fn name(self) -> &'static str {
        match self {
            DeclUsage::Position => "position",
            DeclUsage::BlendWeight => "blendweight",
            DeclUsage::BlendIndices => "blendindices",
            DeclUsage::Normal => "normal",
            DeclUsage::PSize => "psize",
            DeclUsage::TexCoord => "texcoord",
            DeclUsage::Tangent => "tangent",
            DeclUsage::Binormal => "binormal",
            DeclUsage::TessFactor => "tessfactor",
            DeclUsage::PositionT => "positiont",
            DeclUsage::Color => "color",
            DeclUsage::Fog => "fog",
            DeclUsage::Depth => "depth",
            DeclUsage::Sample => "sample",
        }
    }
}

/// `D3DSAMPLER_TEXTURE_TYPE` (bits 27–30 of a sampler `dcl` token).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[repr(u8)]
pub enum SamplerType {
    /// `D3DSTT_UNKNOWN` (printed as plain `dcl`).
    Unknown = 0,
    /// `D3DSTT_1D` (`dcl_1d`, not exposed by D3D9 but defined).
    Tex1D = 1,
    /// `D3DSTT_2D` (`dcl_2d`).
    Tex2D = 2,
    /// `D3DSTT_CUBE` (`dcl_cube`).
    Cube = 3,
    /// `D3DSTT_VOLUME` (`dcl_volume`).
    Volume = 4,
}

impl SamplerType {
    /// Decodes bits 27–30.
    pub fn from_u8(v: u8) -> Option<Self> {
        Some(match v {
            0 => SamplerType::Unknown,
            1 => SamplerType::Tex1D,
            2 => SamplerType::Tex2D,
            3 => SamplerType::Cube,
            4 => SamplerType::Volume,
            _ => return None,
        })
    }

    /// The spelling after `dcl_` (`2d`, `cube`, `volume`, `1d`; empty for unknown).
    pub fn name(self) -> &'static str {
        match self {
            SamplerType::Unknown => "",
            SamplerType::Tex1D => "1d",
            SamplerType::Tex2D => "2d",
            SamplerType::Cube => "cube",
            SamplerType::Volume => "volume",
        }
    }
}

/// Instruction-token fields.
#[doc(hidden)]
pub mod instruction {
    /// Bits 0–15: opcode.
    pub const OPCODE_MASK: u32 = 0x0000_FFFF;
    /// Bits 16–23: opcode-specific controls.
    pub const CONTROLS_SHIFT: u32 = 16;
    /// Bits 24–27: instruction length (SM2+).
    pub const LENGTH_SHIFT: u32 = 24;
    /// Bit 28: predicated.
    pub const PREDICATED: u32 = 1 << 28;
    /// Bit 29: reserved.
    pub const RESERVED_29: u32 = 1 << 29;
    /// Bit 30: co-issue (ps < 2.0).
    pub const COISSUE: u32 = 1 << 30;
    /// Bit 31: must be zero for instruction tokens.
    pub const BIT31: u32 = 1 << 31;
}

/// The end token.
pub const END_TOKEN: u32 = 0x0000_FFFF;

#[doc(hidden)]
/// Builds a comment token for `len` payload DWORDs (bits 16–30).
#[inline]
pub const fn comment_token(len: u32) -> u32 {
    0xFFFE | (len << 16)
}

/// Maximum payload length of one comment token (15 bits).
pub const MAX_COMMENT_LEN: usize = 0x7FFF;
