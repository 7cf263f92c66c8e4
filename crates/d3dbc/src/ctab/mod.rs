//! The `CTAB` constant table (D3DXSHADER_CONSTANTTABLE) carried in a comment block:
//! creator, target, flags, and every constant with its full type description.
//!
//! Offsets inside the table are relative to the first byte after the `CTAB` FourCC.
//! Parsing is bounds-checked throughout and limits struct nesting, so a hostile table
//! can neither read out of bounds nor recurse without bound.
//!
//! This module holds the table's types and the owned [`Ctab`]; `view` reads a table in
//! place ([`CtabView`]), `encode` writes one back in its tool's byte layout.

mod encode;
mod view;

pub use encode::CtabLayout;
pub(crate) use view::{control_bytes, Record};
pub use view::{default_dwords, ConstantView, CtabView, TypeView};

/// `'CTAB'` as a little-endian DWORD.
pub const CTAB_FOURCC: u32 = u32::from_le_bytes(*b"CTAB");

/// Deepest struct nesting accepted (the HLSL compiler's own limit is far lower).
const MAX_DEPTH: usize = 16;
/// Most type descriptions parsed for one table, whatever their nesting.
const MAX_TYPES: usize = 65_536;

/// Why a `CTAB` block could not be read (the byte offset shown in hex, like every
/// offset the tools print).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("CTAB byte 0x{offset:x}: {reason}")]
#[non_exhaustive]
pub struct CtabError {
    /// Byte offset inside the table (after the FourCC).
    pub offset: usize,
    /// What is wrong.
    pub reason: &'static str,
}

/// `D3DXREGISTER_SET`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum RegisterSet {
    /// `b#`.
    Bool,
    /// `i#`.
    Int4,
    /// `c#`.
    Float4,
    /// `s#`.
    Sampler,
    /// A value outside the enumeration.
    Other(u16),
}

impl RegisterSet {
    pub(crate) fn from_u16(v: u16) -> Self {
        match v {
            0 => RegisterSet::Bool,
            1 => RegisterSet::Int4,
            2 => RegisterSet::Float4,
            3 => RegisterSet::Sampler,
            n => RegisterSet::Other(n),
        }
    }

    /// The register prefix (`b`, `i`, `c`, `s`).
    pub fn prefix(self) -> &'static str {
        match self {
            RegisterSet::Bool => "b",
            RegisterSet::Int4 => "i",
            RegisterSet::Float4 => "c",
            RegisterSet::Sampler => "s",
            RegisterSet::Other(_) => "?",
        }
    }
}

/// `D3DXPARAMETER_CLASS`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum ParameterClass {
    /// Scalar.
    Scalar,
    /// Vector.
    Vector,
    /// Row-major matrix.
    MatrixRows,
    /// Column-major matrix.
    MatrixColumns,
    /// Object (sampler, texture, …).
    Object,
    /// Struct.
    Struct,
    /// A value outside the enumeration.
    Other(u16),
}

impl ParameterClass {
    pub(crate) fn from_u16(v: u16) -> Self {
        match v {
            0 => ParameterClass::Scalar,
            1 => ParameterClass::Vector,
            2 => ParameterClass::MatrixRows,
            3 => ParameterClass::MatrixColumns,
            4 => ParameterClass::Object,
            5 => ParameterClass::Struct,
            n => ParameterClass::Other(n),
        }
    }
}

/// `D3DXPARAMETER_TYPE`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum ParameterType {
    /// `void`.
    Void,
    /// `bool`.
    Bool,
    /// `int`.
    Int,
    /// `float`.
    Float,
    /// `string`.
    String,
    /// `texture`.
    Texture,
    /// `texture1D`.
    Texture1D,
    /// `texture2D`.
    Texture2D,
    /// `texture3D`.
    Texture3D,
    /// `textureCUBE`.
    TextureCube,
    /// `sampler`.
    Sampler,
    /// `sampler1D`.
    Sampler1D,
    /// `sampler2D`.
    Sampler2D,
    /// `sampler3D`.
    Sampler3D,
    /// `samplerCUBE`.
    SamplerCube,
    /// `pixelshader`.
    PixelShader,
    /// `vertexshader`.
    VertexShader,
    /// `pixelfragment`.
    PixelFragment,
    /// `vertexfragment`.
    VertexFragment,
    /// `unsupported`.
    Unsupported,
    /// A value outside the enumeration.
    Other(u16),
}

impl ParameterType {
    /// The `D3DXPARAMETER_TYPE` value (what the table stores).
    pub fn to_u16(self) -> u16 {
        use ParameterType::*;
        match self {
            Void => 0,
            Bool => 1,
            Int => 2,
            Float => 3,
            String => 4,
            Texture => 5,
            Texture1D => 6,
            Texture2D => 7,
            Texture3D => 8,
            TextureCube => 9,
            Sampler => 10,
            Sampler1D => 11,
            Sampler2D => 12,
            Sampler3D => 13,
            SamplerCube => 14,
            PixelShader => 15,
            VertexShader => 16,
            PixelFragment => 17,
            VertexFragment => 18,
            Unsupported => 19,
            Other(n) => n,
        }
    }

    pub(crate) fn from_u16(v: u16) -> Self {
        use ParameterType::*;
        match v {
            0 => Void,
            1 => Bool,
            2 => Int,
            3 => Float,
            4 => String,
            5 => Texture,
            6 => Texture1D,
            7 => Texture2D,
            8 => Texture3D,
            9 => TextureCube,
            10 => Sampler,
            11 => Sampler1D,
            12 => Sampler2D,
            13 => Sampler3D,
            14 => SamplerCube,
            15 => PixelShader,
            16 => VertexShader,
            17 => PixelFragment,
            18 => VertexFragment,
            19 => Unsupported,
            n => Other(n),
        }
    }

    /// The HLSL spelling Microsoft's listings use (`float`, `sampler2D`, `samplerCUBE`…).
    pub fn hlsl_name(self) -> &'static str {
        use ParameterType::*;
        match self {
            Void => "void",
            Bool => "bool",
            Int => "int",
            Float => "float",
            String => "string",
            Texture => "texture",
            Texture1D => "texture1D",
            Texture2D => "texture2D",
            Texture3D => "texture3D",
            TextureCube => "textureCUBE",
            Sampler => "sampler",
            Sampler1D => "sampler1D",
            Sampler2D => "sampler2D",
            Sampler3D => "sampler3D",
            SamplerCube => "samplerCUBE",
            PixelShader => "pixelshader",
            VertexShader => "vertexshader",
            PixelFragment => "pixelfragment",
            VertexFragment => "vertexfragment",
            Unsupported => "unsupported",
            Other(_) => "unknown",
        }
    }
}

/// `D3DXSHADER_TYPEINFO`, with struct members resolved.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct TypeInfo {
    /// Class (scalar, vector, matrix, object, struct).
    pub class: ParameterClass,
    /// Base type.
    pub ty: ParameterType,
    /// Rows.
    pub rows: u16,
    /// Columns.
    pub columns: u16,
    /// Array elements (1 for non-arrays).
    pub elements: u16,
    /// Struct members, in declaration order.
    pub members: Vec<StructMember>,
}

/// `D3DXSHADER_STRUCTMEMBERINFO`.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct StructMember {
    /// Member name.
    pub name: String,
    /// Member type.
    pub ty: TypeInfo,
}

/// `D3DXSHADER_CONSTANTINFO`.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Constant {
    /// Name.
    pub name: String,
    /// Register set.
    pub register_set: RegisterSet,
    /// First register.
    pub register_index: u16,
    /// Number of registers.
    pub register_count: u16,
    /// Type description.
    pub ty: TypeInfo,
    /// Default value DWORDs, when the table has one: the whole type's value, as many
    /// DWORDs as [`default_dwords`] gives (one per component in the bool register set,
    /// four per register of the type's layout in the others), which can be more than
    /// `register_count * 4` where the shader uses only the first registers.
    pub default_value: Option<Vec<u32>>,
    /// The HLSL source placed the constant with `register(…)` (`float4 tint :
    /// register(c4)`) instead of leaving the register to the compiler. Microsoft's
    /// compilers record it in the record's `Reserved` word as `(register_index << 2) |
    /// 2` (0 when the compiler chose); listings do not show it.
    pub explicit_register: bool,
}

/// A parsed constant table.
///
/// ```
/// use d3dbc::ctab::RegisterSet;
/// // A shader whose CTAB declares `float4x4 World` in c0..c3 (built here from a listing).
/// let listing = "// Generated by me\n// Parameters:\n//   float4x4 World;\n\
///                // Registers:\n//   World c0 4\nvs_2_0\ndcl_position v0\nm4x4 oPos, v0, c0\n";
/// let table = d3dbc::asm::ctab_header::ctab_from_listing(listing, "t").unwrap().unwrap();
/// let mut shader = d3dbc::asm::assemble(listing, &Default::default()).unwrap();
/// d3dbc::asm::ctab_header::embed(&mut shader, &table);
///
/// let ctab: d3dbc::Ctab = shader.ctab().unwrap().unwrap();
/// let world = ctab.constants.iter().find(|c| c.name == "World").unwrap();
/// assert_eq!((world.register_set, world.register_index, world.register_count),
///            (RegisterSet::Float4, 0, 4));
/// assert_eq!((world.ty.rows, world.ty.columns), (4, 4));
/// assert_eq!(d3dbc::Ctab::parse(&ctab.encode()).unwrap(), ctab);
/// ```
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Ctab {
    /// The creator string (`Microsoft (R) HLSL Shader Compiler 9.29.952.3111`).
    pub creator: String,
    /// The target string (`vs_2_0`).
    pub target: String,
    /// The version field (same encoding as the version token).
    pub version: u32,
    /// `D3DXSHADER_*` compile flags.
    pub flags: u32,
    /// Constants, in table order.
    pub constants: Vec<Constant>,
}

impl Ctab {
    /// True when a comment payload starts with the `CTAB` FourCC.
    pub fn is_ctab(payload: &[u32]) -> bool {
        payload.first() == Some(&CTAB_FOURCC)
    }

    /// Parses a comment payload that starts with `CTAB` (see [`CtabView`] for reading
    /// it in place).
    pub fn parse(payload: &[u32]) -> Result<Ctab, CtabError> {
        CtabView::parse(payload).map(|v| v.to_ctab())
    }
}

impl RegisterSet {
    /// The `D3DXREGISTER_SET` value (what the table stores).
    pub fn to_u16(self) -> u16 {
        match self {
            RegisterSet::Bool => 0,
            RegisterSet::Int4 => 1,
            RegisterSet::Float4 => 2,
            RegisterSet::Sampler => 3,
            RegisterSet::Other(n) => n,
        }
    }
}

impl ParameterClass {
    /// The `D3DXPARAMETER_CLASS` value (what the table stores).
    pub fn to_u16(self) -> u16 {
        match self {
            ParameterClass::Scalar => 0,
            ParameterClass::Vector => 1,
            ParameterClass::MatrixRows => 2,
            ParameterClass::MatrixColumns => 3,
            ParameterClass::Object => 4,
            ParameterClass::Struct => 5,
            ParameterClass::Other(n) => n,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameter_type_to_u16_inverts_from_u16() {
        for v in 0..=u16::MAX {
            assert_eq!(ParameterType::from_u16(v).to_u16(), v);
        }
    }
}
