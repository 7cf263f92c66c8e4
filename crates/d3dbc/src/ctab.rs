//! The `CTAB` constant table (D3DXSHADER_CONSTANTTABLE) carried in a comment block:
//! creator, target, flags, and every constant with its full type description.
//!
//! Offsets inside the table are relative to the first byte after the `CTAB` FourCC.
//! Parsing is bounds-checked throughout and limits struct nesting, so a hostile table
//! can neither read out of bounds nor recurse without bound.

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
    fn from_u16(v: u16) -> Self {
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
    fn from_u16(v: u16) -> Self {
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
    fn from_u16(v: u16) -> Self {
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
    /// Default value DWORDs (`register_count * 4` at most), when the table has one.
    pub default_value: Option<Vec<u32>>,
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

struct Reader<'a> {
    bytes: &'a [u8],
    types: usize,
}

impl<'a> Reader<'a> {
    fn u32_at(&self, off: usize, what: &'static str) -> Result<u32, CtabError> {
        self.bytes
            .get(
                off..off.checked_add(4).ok_or(CtabError {
                    offset: off,
                    reason: what,
                })?,
            )
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .ok_or(CtabError {
                offset: off,
                reason: what,
            })
    }

    fn u16_at(&self, off: usize, what: &'static str) -> Result<u16, CtabError> {
        self.bytes
            .get(
                off..off.checked_add(2).ok_or(CtabError {
                    offset: off,
                    reason: what,
                })?,
            )
            .map(|b| u16::from_le_bytes([b[0], b[1]]))
            .ok_or(CtabError {
                offset: off,
                reason: what,
            })
    }

    fn string_at(&self, off: usize) -> Result<String, CtabError> {
        let tail = self.bytes.get(off..).ok_or(CtabError {
            offset: off,
            reason: "string offset past the end",
        })?;
        let len = tail.iter().position(|&b| b == 0).ok_or(CtabError {
            offset: off,
            reason: "string has no terminating NUL",
        })?;
        Ok(String::from_utf8_lossy(&tail[..len]).into_owned())
    }

    fn type_at(&mut self, off: usize, depth: usize) -> Result<TypeInfo, CtabError> {
        if depth > MAX_DEPTH {
            return Err(CtabError {
                offset: off,
                reason: "struct nesting too deep (cyclic type info?)",
            });
        }
        self.types += 1;
        if self.types > MAX_TYPES {
            return Err(CtabError {
                offset: off,
                reason: "too many type descriptions",
            });
        }
        let what = "type info past the end";
        let class = ParameterClass::from_u16(self.u16_at(off, what)?);
        let ty = ParameterType::from_u16(self.u16_at(off + 2, what)?);
        let rows = self.u16_at(off + 4, what)?;
        let columns = self.u16_at(off + 6, what)?;
        let elements = self.u16_at(off + 8, what)?;
        let nmembers = self.u16_at(off + 10, what)? as usize;
        let moff = self.u32_at(off + 12, what)? as usize;
        let mut members = Vec::new();
        if nmembers > 0 {
            // Each member is 8 bytes; refuse counts the data cannot hold before allocating.
            if moff.saturating_add(nmembers * 8) > self.bytes.len() {
                return Err(CtabError {
                    offset: moff,
                    reason: "struct members past the end",
                });
            }
            members.reserve(nmembers);
            for i in 0..nmembers {
                let m = moff + i * 8;
                let name = self.string_at(self.u32_at(m, "member name")? as usize)?;
                let toff = self.u32_at(m + 4, "member type")? as usize;
                members.push(StructMember {
                    name,
                    ty: self.type_at(toff, depth + 1)?,
                });
            }
        }
        Ok(TypeInfo {
            class,
            ty,
            rows,
            columns,
            elements,
            members,
        })
    }
}

impl Ctab {
    /// True when a comment payload starts with the `CTAB` FourCC.
    pub fn is_ctab(payload: &[u32]) -> bool {
        payload.first() == Some(&CTAB_FOURCC)
    }

    /// Parses a comment payload that starts with `CTAB`.
    pub fn parse(payload: &[u32]) -> Result<Ctab, CtabError> {
        if !Ctab::is_ctab(payload) {
            return Err(CtabError {
                offset: 0,
                reason: "comment does not start with CTAB",
            });
        }
        // The table's little-endian bytes: the payload itself on a little-endian host
        // (no copy: this runs once per listing), a copy elsewhere.
        let bytes: std::borrow::Cow<[u8]> = if cfg!(target_endian = "little") {
            std::borrow::Cow::Borrowed(bytemuck::cast_slice(&payload[1..]))
        } else {
            payload[1..].iter().flat_map(|d| d.to_le_bytes()).collect()
        };
        let mut r = Reader {
            bytes: &bytes,
            types: 0,
        };
        let size = r.u32_at(0, "header truncated")? as usize;
        if size < 28 {
            return Err(CtabError {
                offset: 0,
                reason: "header size field is smaller than 28 bytes",
            });
        }
        let creator_off = r.u32_at(4, "header truncated")? as usize;
        let version = r.u32_at(8, "header truncated")?;
        let count = r.u32_at(12, "header truncated")? as usize;
        let info_off = r.u32_at(16, "header truncated")? as usize;
        let flags = r.u32_at(20, "header truncated")?;
        let target_off = r.u32_at(24, "header truncated")? as usize;
        let creator = r.string_at(creator_off)?;
        let target = r.string_at(target_off)?;
        if info_off.saturating_add(count.saturating_mul(20)) > bytes.len() {
            return Err(CtabError {
                offset: info_off,
                reason: "constant count runs past the end of the table",
            });
        }
        let mut constants = Vec::with_capacity(count);
        for i in 0..count {
            let c = info_off + i * 20;
            let name = r.string_at(r.u32_at(c, "constant info")? as usize)?;
            let register_set = RegisterSet::from_u16(r.u16_at(c + 4, "constant info")?);
            let register_index = r.u16_at(c + 6, "constant info")?;
            let register_count = r.u16_at(c + 8, "constant info")?;
            let type_off = r.u32_at(c + 12, "constant info")? as usize;
            let default_off = r.u32_at(c + 16, "constant info")? as usize;
            let ty = r.type_at(type_off, 0)?;
            let default_value = if default_off != 0 {
                let want = register_count as usize * 4;
                let avail = bytes.len().saturating_sub(default_off) / 4;
                Some(
                    (0..want.min(avail))
                        .map(|k| r.u32_at(default_off + k * 4, "default value"))
                        .collect::<Result<_, _>>()?,
                )
            } else {
                None
            };
            constants.push(Constant {
                name,
                register_set,
                register_index,
                register_count,
                ty,
                default_value,
            });
        }
        Ok(Ctab {
            creator,
            target,
            version,
            flags,
            constants,
        })
    }
}

impl RegisterSet {
    fn to_u16(self) -> u16 {
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
    fn to_u16(self) -> u16 {
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

impl ParameterType {
    fn to_u16(self) -> u16 {
        (0..20u16)
            .find(|&v| ParameterType::from_u16(v) == self)
            .unwrap_or(match self {
                ParameterType::Other(n) => n,
                _ => 19,
            })
    }
}

/// Byte buffer for [`Ctab::encode`]: offsets are relative to its start.
struct Writer(Vec<u8>);

impl Writer {
    fn u32(&mut self, v: u32) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    fn u16(&mut self, v: u16) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    fn set_u32(&mut self, at: usize, v: u32) {
        self.0[at..at + 4].copy_from_slice(&v.to_le_bytes());
    }
    fn pos(&self) -> u32 {
        self.0.len() as u32
    }
    /// A NUL-terminated string; returns its offset.
    fn string(&mut self, s: &str) -> u32 {
        let at = self.pos();
        self.0.extend_from_slice(s.as_bytes());
        self.0.push(0);
        at
    }
    /// Pads to a DWORD boundary with 0xAB, as D3DX pads.
    fn align(&mut self) {
        while !self.0.len().is_multiple_of(4) {
            self.0.push(0xAB);
        }
    }
    /// A type description (and, after it, its members' names and types); returns its offset.
    fn type_info(&mut self, t: &TypeInfo) -> u32 {
        let at = self.pos();
        self.u16(t.class.to_u16());
        self.u16(t.ty.to_u16());
        self.u16(t.rows);
        self.u16(t.columns);
        self.u16(t.elements);
        self.u16(t.members.len() as u16);
        self.u32(0); // member table offset, patched below
        if !t.members.is_empty() {
            let table = self.pos();
            self.set_u32(at as usize + 12, table);
            for _ in &t.members {
                self.u32(0);
                self.u32(0);
            }
            for (i, m) in t.members.iter().enumerate() {
                let name = self.string(&m.name);
                self.align();
                let ty = self.type_info(&m.ty);
                self.set_u32(table as usize + i * 8, name);
                self.set_u32(table as usize + i * 8 + 4, ty);
            }
        }
        at
    }
}

impl Ctab {
    /// Encodes the table as a comment payload (starting with the `CTAB` FourCC) in the
    /// order D3DX uses: header, constant descriptions, then per constant its name, type
    /// and default value, then the target and creator strings. `Ctab::parse` of the
    /// result gives back an equal table. (The compiler also shares identical type
    /// descriptions between constants; this writer does not, so sizes can differ.)
    pub fn encode(&self) -> Vec<u32> {
        let mut w = Writer(Vec::new());
        for v in [
            28,
            0,
            self.version,
            self.constants.len() as u32,
            28,
            self.flags,
            0,
        ] {
            w.u32(v);
        }
        let infos = w.0.len();
        w.0.resize(infos + 20 * self.constants.len(), 0);
        for (i, c) in self.constants.iter().enumerate() {
            let name = w.string(&c.name);
            w.align();
            let ty = w.type_info(&c.ty);
            let default = match &c.default_value {
                Some(d) => {
                    let at = w.pos();
                    d.iter().for_each(|&x| w.u32(x));
                    at
                }
                None => 0,
            };
            let base = infos + i * 20;
            w.set_u32(base, name);
            w.0[base + 4..base + 6].copy_from_slice(&c.register_set.to_u16().to_le_bytes());
            w.0[base + 6..base + 8].copy_from_slice(&c.register_index.to_le_bytes());
            w.0[base + 8..base + 10].copy_from_slice(&c.register_count.to_le_bytes());
            w.set_u32(base + 12, ty);
            w.set_u32(base + 16, default);
        }
        // The target string is followed directly by the creator string, then padding.
        let target = w.string(&self.target);
        w.set_u32(24, target);
        let creator = w.string(&self.creator);
        w.set_u32(4, creator);
        w.align();
        let mut out = Vec::with_capacity(1 + w.0.len() / 4);
        out.push(CTAB_FOURCC);
        out.extend(
            w.0.chunks_exact(4)
                .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])),
        );
        out
    }
}
