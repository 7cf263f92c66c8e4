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
    /// The `D3DXPARAMETER_TYPE` value ([`ParameterType::from_u16`]'s inverse).
    pub(crate) fn code(self) -> u16 {
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

struct Reader<'a> {
    bytes: &'a [u8],
    types: usize,
}

impl<'a> Reader<'a> {
    fn u32_at(&self, off: usize, what: &'static str) -> Result<u32, CtabError> {
        read_u32(self.bytes, off).ok_or(CtabError {
            offset: off,
            reason: what,
        })
    }

    fn u16_at(&self, off: usize, what: &'static str) -> Result<u16, CtabError> {
        read_u16(self.bytes, off).ok_or(CtabError {
            offset: off,
            reason: what,
        })
    }

    /// Checks that a NUL-terminated string starts at `off`; its length without the NUL.
    fn check_string(&self, off: usize) -> Result<usize, CtabError> {
        self.check_name(off).map(|(len, _)| len)
    }

    /// [`Reader::check_string`], and whether the string is [`plain`](scan_string).
    fn check_name(&self, off: usize) -> Result<(usize, bool), CtabError> {
        let tail = self.bytes.get(off..).ok_or(CtabError {
            offset: off,
            reason: "string offset past the end",
        })?;
        scan_string(tail).ok_or(CtabError {
            offset: off,
            reason: "string has no terminating NUL",
        })
    }

    /// Checks the type description at `off` and, recursively, its members.
    fn check_type(&mut self, off: usize, depth: usize) -> Result<(), CtabError> {
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
        for field in (0..12).step_by(2) {
            self.u16_at(off + field, what)?;
        }
        let nmembers = self.u16_at(off + 10, what)? as usize;
        let moff = self.u32_at(off + 12, what)? as usize;
        if nmembers > 0 {
            // Each member is 8 bytes; refuse counts the data cannot hold.
            if moff.saturating_add(nmembers * 8) > self.bytes.len() {
                return Err(CtabError {
                    offset: moff,
                    reason: "struct members past the end",
                });
            }
            for i in 0..nmembers {
                let m = moff + i * 8;
                self.check_string(self.u32_at(m, "member name")? as usize)?;
                let toff = self.u32_at(m + 4, "member type")? as usize;
                self.check_type(toff, depth + 1)?;
            }
        }
        Ok(())
    }
}

fn read_u32(bytes: &[u8], off: usize) -> Option<u32> {
    let b = bytes.get(off..off.checked_add(4)?)?;
    Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

fn read_u16(bytes: &[u8], off: usize) -> Option<u16> {
    let b = bytes.get(off..off.checked_add(2)?)?;
    Some(u16::from_le_bytes([b[0], b[1]]))
}

/// The position of the first NUL byte of `b`, eight bytes a step: names are a few
/// bytes, where `memchr`'s alignment set-up costs more than the scan, and creator strings
/// some fifty, where a byte loop is slow.
#[inline]
fn nul_position(b: &[u8]) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    let mut chunks = b.chunks_exact(8);
    let mut at = 0;
    for c in &mut chunks {
        let x = u64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]);
        // High bit set in the lowest zero byte (and maybe in higher bytes after it).
        let zero = x.wrapping_sub(ONES) & !x & (ONES << 7);
        if zero != 0 {
            return Some(at + (zero.trailing_zeros() / 8) as usize);
        }
        at += 8;
    }
    chunks
        .remainder()
        .iter()
        .position(|&c| c == 0)
        .map(|i| at + i)
}

/// The length of the NUL-terminated string at the start of `b` and whether it is plain:
/// printable ASCII only (no control character, no byte of 0x7F or above), which a
/// listing prints as it is. One scan, eight bytes a step, finds the first byte that is
/// not printable ASCII: where that is the NUL, the string is plain.
#[inline]
fn scan_string(b: &[u8]) -> Option<(usize, bool)> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = ONES << 7;
    // High bit set in each byte below `n` (and maybe in bytes above a flagged one: a
    // borrow only runs upwards, so the lowest flagged byte is a true one).
    let below = |x: u64, n: u64| x.wrapping_sub(ONES * n) & !x & HIGH;
    let mut chunks = b.chunks_exact(8);
    let mut at = 0;
    let mut odd = None;
    for c in &mut chunks {
        let x = u64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]);
        // Below 0x20, exactly 0x7F, or 0x80 and above.
        let flags = below(x, 0x20) | below(x ^ (ONES * 0x7F), 1) | (x & HIGH);
        if flags != 0 {
            odd = Some(at + (flags.trailing_zeros() / 8) as usize);
            break;
        }
        at += 8;
    }
    let first = match odd {
        Some(i) => i,
        None => {
            at + chunks
                .remainder()
                .iter()
                .position(|&c| !(0x20..0x7F).contains(&c))?
        }
    };
    if b[first] == 0 {
        return Some((first, true));
    }
    nul_position(&b[first..]).map(|n| (first + n, false))
}

/// The NUL-terminated string at `off` (invalid UTF-8 replaced, borrowed otherwise).
fn str_at(bytes: &[u8], off: usize) -> std::borrow::Cow<'_, str> {
    let tail = bytes.get(off..).unwrap_or(&[]);
    let len = nul_position(tail).unwrap_or(tail.len());
    text(&tail[..len])
}

/// A string's bytes as text (invalid UTF-8 replaced, borrowed otherwise).
#[inline]
fn text(bytes: &[u8]) -> std::borrow::Cow<'_, str> {
    if bytes.is_ascii() {
        // SAFETY: ASCII is valid UTF-8. Measured reason: names are a few bytes, where
        // `from_utf8`'s set-up costs ~100 instructions a call, 7% of a listing of the
        // peers bench's binaries (callgrind); `is_ascii` checks a word at a time.
        return std::borrow::Cow::Borrowed(unsafe { std::str::from_utf8_unchecked(bytes) });
    }
    // `from_utf8` first: its ASCII fast path is far quicker than the lossy walk.
    match std::str::from_utf8(bytes) {
        Ok(s) => std::borrow::Cow::Borrowed(s),
        Err(_) => String::from_utf8_lossy(bytes),
    }
}

/// One constant record (`D3DXSHADER_CONSTANTINFO`) of a checked table, as
/// [`CtabView::parse_each`] finds it: its name's place (byte offset and length, the NUL
/// excluded) and its fields, for readers that keep a table's constants in a small array
/// rather than as [`ConstantView`]s.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Record {
    name_off: u32,
    name_len: u32,
    /// The name is printable ASCII ([`scan_string`]).
    plain: bool,
    set: u16,
    index: u16,
    count: u16,
    reserved: u16,
    type_off: u32,
    default_off: u32,
}

impl Record {
    /// The record's name in `bytes`, its table's (see [`CtabView::bytes`]).
    #[inline]
    pub(crate) fn name<'s>(&self, bytes: &'s [u8]) -> std::borrow::Cow<'s, str> {
        text(self.name_bytes(bytes))
    }

    /// The bytes of the record's name in `bytes`, its table's.
    #[inline]
    pub(crate) fn name_bytes<'s>(&self, bytes: &'s [u8]) -> &'s [u8] {
        let at = self.name_off as usize;
        bytes.get(at..at + self.name_len as usize).unwrap_or(&[])
    }

    /// The name's bytes where it is printable ASCII (as a listing prints it, and as its
    /// [`Record::name`] reads).
    #[inline]
    pub(crate) fn plain_name<'s>(&self, bytes: &'s [u8]) -> Option<&'s [u8]> {
        self.plain.then(|| self.name_bytes(bytes))
    }

    /// The name's length in bytes as [`Record::name`] reads it.
    #[inline]
    pub(crate) fn name_len(&self, bytes: &[u8]) -> usize {
        if self.plain {
            self.name_len as usize
        } else {
            self.name(bytes).len()
        }
    }

    /// True when the table gives a default value.
    #[inline]
    pub(crate) fn has_default(&self) -> bool {
        self.default_off != 0
    }

    /// Register set, first register and register count.
    #[inline]
    pub(crate) fn registers(&self) -> (RegisterSet, u16, u16) {
        (RegisterSet::from_u16(self.set), self.index, self.count)
    }

    /// The record's type description in `bytes`.
    #[inline]
    pub(crate) fn ty<'s>(&self, bytes: &'s [u8]) -> TypeView<'s> {
        TypeView::at(bytes, self.type_off as usize)
    }

    /// The record as a [`ConstantView`] of `bytes`.
    pub(crate) fn view<'s>(&self, bytes: &'s [u8]) -> ConstantView<'s> {
        let (register_set, register_index, register_count) = self.registers();
        ConstantView {
            name: self.name(bytes),
            register_set,
            register_index,
            register_count,
            ty: self.ty(bytes),
            explicit_register: self.reserved != 0,
            bytes,
            default_off: self.default_off as usize,
        }
    }
}

/// A checked, borrowed view of a `CTAB` payload: the same facts as [`Ctab`], read in
/// place when asked for (names borrowed, types and default values read lazily), so a
/// listing's header is printed without building the owned table. [`CtabView::parse`]
/// checks the whole table first (with exactly [`Ctab::parse`]'s errors), so every
/// later read is in bounds.
///
/// ```
/// let listing = "// Generated by me\n// Parameters:\n//   float4 Tint;\n\
///                // Registers:\n//   Tint c3 1\nps_2_0\nmov oC0, c3\n";
/// let table = d3dbc::asm::ctab_header::ctab_from_listing(listing, "t").unwrap().unwrap();
/// let payload = table.encode();
/// let view = d3dbc::ctab::CtabView::parse(&payload).unwrap();
/// assert_eq!(view.creator(), "me");
/// let tint = view.constants().next().unwrap();
/// assert_eq!((&*tint.name, tint.register_index, tint.ty.columns), ("Tint", 3, 4));
/// assert_eq!(view.to_ctab(), table);
/// ```
#[derive(Clone, Debug)]
pub struct CtabView<'a> {
    /// The table's little-endian bytes after the FourCC.
    bytes: std::borrow::Cow<'a, [u8]>,
    creator_off: usize,
    target_off: usize,
    version: u32,
    flags: u32,
    count: usize,
    info_off: usize,
}

/// One constant of a [`CtabView`] (`D3DXSHADER_CONSTANTINFO`).
#[derive(Clone, Debug)]
pub struct ConstantView<'s> {
    /// Name.
    pub name: std::borrow::Cow<'s, str>,
    /// Register set.
    pub register_set: RegisterSet,
    /// First register.
    pub register_index: u16,
    /// Number of registers.
    pub register_count: u16,
    /// Type description.
    pub ty: TypeView<'s>,
    /// Placed by `register(…)` in the source (see [`Constant::explicit_register`]).
    pub explicit_register: bool,
    bytes: &'s [u8],
    default_off: usize,
}

/// A type description of a [`CtabView`] (`D3DXSHADER_TYPEINFO`); members are read when
/// iterated.
#[derive(Clone, Copy, Debug)]
pub struct TypeView<'s> {
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
    bytes: &'s [u8],
    members: usize,
    members_off: usize,
}

impl<'s> TypeView<'s> {
    /// Reads the (checked) type description at `off`.
    pub(crate) fn at(bytes: &'s [u8], off: usize) -> TypeView<'s> {
        let h = |k: usize| read_u16(bytes, off + k).unwrap_or(0);
        TypeView {
            class: ParameterClass::from_u16(h(0)),
            ty: ParameterType::from_u16(h(2)),
            rows: h(4),
            columns: h(6),
            elements: h(8),
            bytes,
            members: h(10) as usize,
            members_off: read_u32(bytes, off + 12).unwrap_or(0) as usize,
        }
    }

    /// Struct members in declaration order: name and type.
    pub fn members(
        &self,
    ) -> impl ExactSizeIterator<Item = (std::borrow::Cow<'s, str>, TypeView<'s>)> + 's {
        let (bytes, base) = (self.bytes, self.members_off);
        (0..self.members).map(move |i| {
            let m = base + i * 8;
            let name = str_at(bytes, read_u32(bytes, m).unwrap_or(0) as usize);
            let ty = TypeView::at(bytes, read_u32(bytes, m + 4).unwrap_or(0) as usize);
            (name, ty)
        })
    }

    /// The owned [`TypeInfo`].
    pub fn to_type_info(&self) -> TypeInfo {
        TypeInfo {
            class: self.class,
            ty: self.ty,
            rows: self.rows,
            columns: self.columns,
            elements: self.elements,
            members: self
                .members()
                .map(|(name, ty)| StructMember {
                    name: name.into_owned(),
                    ty: ty.to_type_info(),
                })
                .collect(),
        }
    }
}

impl<'s> ConstantView<'s> {
    /// True when the table gives a default value.
    pub fn has_default(&self) -> bool {
        self.default_off != 0
    }

    /// The default value DWORDs ([`default_dwords`] of the type, fewer where the table
    /// ends first); empty without a default value.
    pub fn default_value(&self) -> impl ExactSizeIterator<Item = u32> + 's {
        let (bytes, off) = (self.bytes, self.default_off);
        let n = if off == 0 {
            0
        } else {
            let fallback = self.register_count as usize * 4;
            default_dwords(&self.ty, self.register_set)
                .unwrap_or(fallback)
                .min(bytes.len().saturating_sub(off) / 4)
        };
        (0..n).map(move |k| read_u32(bytes, off + k * 4).unwrap_or(0))
    }

    /// The owned [`Constant`].
    pub fn to_constant(&self) -> Constant {
        Constant {
            name: self.name.clone().into_owned(),
            register_set: self.register_set,
            register_index: self.register_index,
            register_count: self.register_count,
            ty: self.ty.to_type_info(),
            default_value: self.has_default().then(|| self.default_value().collect()),
            explicit_register: self.explicit_register,
        }
    }
}

/// How many DWORDs a default value of type `ty` in register set `set` has, as the
/// compilers write it: one per scalar component in the bool set (`bool3` → 3), four per
/// register of the type's layout in the float and int sets (a vector or scalar takes one
/// register per element, a row-major matrix one per row, a column-major one per column,
/// a struct its members' sum). `None` for other sets (samplers have no default) and for
/// types too deeply shared to walk (a hostile table).
pub fn default_dwords(ty: &TypeView, set: RegisterSet) -> Option<usize> {
    fn walk(ty: &TypeView, bools: bool, budget: &mut u32) -> Option<usize> {
        *budget = budget.checked_sub(1)?;
        let per_element = match ty.class {
            ParameterClass::Struct => {
                let mut sum = 0usize;
                for (_, m) in ty.members() {
                    sum = sum.saturating_add(walk(&m, bools, budget)?);
                }
                sum
            }
            _ if bools => ty.rows as usize * ty.columns as usize,
            ParameterClass::MatrixRows => ty.rows as usize,
            ParameterClass::MatrixColumns => ty.columns as usize,
            _ => 1,
        };
        Some(per_element.saturating_mul(ty.elements as usize))
    }
    let mut budget = 4096;
    match set {
        RegisterSet::Bool => walk(ty, true, &mut budget),
        RegisterSet::Float4 | RegisterSet::Int4 => {
            walk(ty, false, &mut budget).map(|r| r.saturating_mul(4))
        }
        _ => None,
    }
}

impl<'a> CtabView<'a> {
    /// Checks a comment payload that starts with `CTAB` and views it in place (a copy
    /// only on big-endian hosts). Fails exactly where [`Ctab::parse`] fails.
    pub fn parse(payload: &'a [u32]) -> Result<CtabView<'a>, CtabError> {
        Self::parse_each(payload, |_| {})
    }

    /// [`CtabView::parse`], handing `each` every constant's [`Record`] as it is checked,
    /// in table order (on an error, the records handed so far are of a table that fails).
    pub(crate) fn parse_each(
        payload: &'a [u32],
        mut each: impl FnMut(Record),
    ) -> Result<CtabView<'a>, CtabError> {
        if !Ctab::is_ctab(payload) {
            return Err(CtabError {
                offset: 0,
                reason: "comment does not start with CTAB",
            });
        }
        // The table's little-endian bytes: the payload itself on a little-endian host
        // (no copy), a copy elsewhere.
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
        r.check_string(creator_off)?;
        r.check_string(target_off)?;
        if info_off.saturating_add(count.saturating_mul(20)) > bytes.len() {
            return Err(CtabError {
                offset: info_off,
                reason: "constant count runs past the end of the table",
            });
        }
        for i in 0..count {
            let c = info_off + i * 20;
            let name_off = r.u32_at(c, "constant info")?;
            let (name_len, plain) = r.check_name(name_off as usize)?;
            let half = |k: usize| r.u16_at(c + k, "constant info");
            let (set, index, count, reserved) = (half(4)?, half(6)?, half(8)?, half(10)?);
            let type_off = r.u32_at(c + 12, "constant info")?;
            let default_off = r.u32_at(c + 16, "constant info")?;
            r.check_type(type_off as usize, 0)?;
            each(Record {
                name_off,
                // A string's length fits: it lies in a table of `u32` offsets.
                name_len: name_len as u32,
                plain,
                set,
                index,
                count,
                reserved,
                type_off,
                default_off,
            });
        }
        Ok(CtabView {
            bytes,
            creator_off,
            target_off,
            version,
            flags,
            count,
            info_off,
        })
    }

    /// The creator string (`Microsoft (R) HLSL Shader Compiler 9.29.952.3111`).
    pub fn creator(&self) -> std::borrow::Cow<'_, str> {
        str_at(&self.bytes, self.creator_off)
    }

    /// The target string (`vs_2_0`).
    pub fn target(&self) -> std::borrow::Cow<'_, str> {
        str_at(&self.bytes, self.target_off)
    }

    /// The version field (same encoding as the version token).
    pub fn version(&self) -> u32 {
        self.version
    }

    /// `D3DXSHADER_*` compile flags.
    pub fn flags(&self) -> u32 {
        self.flags
    }

    /// Number of constants.
    pub fn len(&self) -> usize {
        self.count
    }

    /// True without constants.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// The constants, in table order.
    pub fn constants(&self) -> impl ExactSizeIterator<Item = ConstantView<'_>> + '_ {
        let bytes: &[u8] = &self.bytes;
        self.records().map(move |r| r.view(bytes))
    }

    /// The table's bytes after the FourCC, which [`Record`]s index.
    pub(crate) fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The constants' [`Record`]s, in table order.
    pub(crate) fn records(&self) -> impl ExactSizeIterator<Item = Record> + '_ {
        let bytes: &[u8] = &self.bytes;
        let info = self.info_off;
        (0..self.count).map(move |i| {
            let c = info + i * 20;
            let h = |k: usize| read_u16(bytes, c + k).unwrap_or(0);
            let w = |k: usize| read_u32(bytes, c + k).unwrap_or(0);
            let name_off = w(0);
            let tail = bytes.get(name_off as usize..).unwrap_or(&[]);
            let (name_len, plain) = scan_string(tail).unwrap_or((tail.len(), false));
            Record {
                name_off,
                name_len: name_len as u32,
                plain,
                set: h(4),
                index: h(6),
                count: h(8),
                reserved: h(10),
                type_off: w(12),
                default_off: w(16),
            }
        })
    }

    /// The owned [`Ctab`].
    pub fn to_ctab(&self) -> Ctab {
        Ctab {
            creator: self.creator().into_owned(),
            target: self.target().into_owned(),
            version: self.version,
            flags: self.flags,
            constants: self.constants().map(|c| c.to_constant()).collect(),
        }
    }
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

impl ParameterType {
    /// The `D3DXPARAMETER_TYPE` value (what the table stores).
    pub fn to_u16(self) -> u16 {
        (0..20u16)
            .find(|&v| ParameterType::from_u16(v) == self)
            .unwrap_or(match self {
                ParameterType::Other(n) => n,
                _ => 19,
            })
    }
}

/// How a tool lays out a constant table's bytes: what follows the header and the
/// constant records, in which order, and what it writes once and points to again.
/// [`Ctab::encode`] picks it from the table's creator and target
/// ([`CtabLayout::of`]); every Microsoft-made table of the conformance corpus (shaders,
/// effects and their preshaders, from D3DX9 4.08 to fxc 10.1) re-encodes to its own
/// bytes (`tests/ctab_encode_corpus.rs`).
///
/// The Microsoft layout: the 28-byte header (its constant-info offset 0 when there are
/// no constants), the 20-byte records, then per constant its name (strings are packed,
/// not aligned; a name already written is pointed to again, member names included), its
/// type (aligned to 4; a struct's member names and types first, then its member table,
/// then the type record) and its default value (aligned), then the target and creator
/// strings, padded with `0xAB` to a DWORD. What is shared:
///
/// | | [`Fxc`](CtabLayout::Fxc) | [`D3dx9`](CtabLayout::D3dx9) | [`Preshader`](CtabLayout::Preshader) |
/// |---|---|---|---|
/// | a non-array, non-object type equal to an earlier constant's (one pool for constants, one for struct members) | shared | shared | written again |
/// | object types (samplers, textures) | written again | shared | written again |
/// | a struct's member table equal to an earlier one | shared | shared | written again |
/// | a default value equal to an earlier one | shared | shared | shared |
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum CtabLayout {
    /// fxc and d3dcompiler (HLSL Shader Compiler 9.x, 6.3, 10.x).
    Fxc,
    /// The D3DX9 shader compiler of the DirectX SDK (`D3DX9 Shader Compiler 4.x`–9.x).
    D3dx9,
    /// The constant table of a D3DX preshader (target `tx`, inside an effect or a
    /// shader's `PRES` block).
    Preshader,
    /// vkd3d-shader: [`Plain`](CtabLayout::Plain) without the target string (its
    /// offset is 0).
    Vkd3d,
    /// Any other creator (d3dbc's own tables among them): every name aligned, nothing
    /// shared, a type record before its member table and members.
    Plain,
}

impl CtabLayout {
    /// The layout of the tool that wrote `ctab`, from its creator and target.
    pub fn of(ctab: &Ctab) -> CtabLayout {
        if ctab.target == "tx" {
            CtabLayout::Preshader
        } else if ctab.creator.starts_with("vkd3d") {
            CtabLayout::Vkd3d
        } else if ctab.creator.contains("D3DX9 Shader Compiler") {
            CtabLayout::D3dx9
        } else if ctab.creator.starts_with("Microsoft") {
            CtabLayout::Fxc
        } else {
            CtabLayout::Plain
        }
    }
}

/// Byte buffer for [`Ctab::encode`]: offsets are relative to its start. Remembers what
/// it wrote, for the layouts that point to equal pieces again.
struct Writer<'t> {
    out: Vec<u8>,
    layout: CtabLayout,
    names: Vec<(&'t str, u32)>,
    types: Vec<(&'t TypeInfo, u32)>,
    member_types: Vec<(&'t TypeInfo, u32)>,
    tables: Vec<(&'t [StructMember], u32)>,
    defaults: Vec<(&'t [u32], u32)>,
}

impl<'t> Writer<'t> {
    fn u32(&mut self, v: u32) {
        self.out.extend_from_slice(&v.to_le_bytes());
    }
    fn u16(&mut self, v: u16) {
        self.out.extend_from_slice(&v.to_le_bytes());
    }
    fn set_u32(&mut self, at: usize, v: u32) {
        self.out[at..at + 4].copy_from_slice(&v.to_le_bytes());
    }
    fn set_u16(&mut self, at: usize, v: u16) {
        self.out[at..at + 2].copy_from_slice(&v.to_le_bytes());
    }
    fn pos(&self) -> u32 {
        self.out.len() as u32
    }
    /// A NUL-terminated string; returns its offset.
    fn string(&mut self, s: &str) -> u32 {
        let at = self.pos();
        self.out.extend_from_slice(s.as_bytes());
        self.out.push(0);
        at
    }
    /// A constant's or member's name: written once, pointed to again where the layout
    /// shares names.
    fn name(&mut self, s: &'t str) -> u32 {
        if self.plain() {
            let at = self.string(s);
            self.align();
            return at;
        }
        if let Some(&(_, at)) = self.names.iter().find(|(n, _)| *n == s) {
            return at;
        }
        let at = self.string(s);
        self.names.push((s, at));
        at
    }
    /// vkd3d's layout or the plain one: nothing shared, names aligned.
    fn plain(&self) -> bool {
        matches!(self.layout, CtabLayout::Vkd3d | CtabLayout::Plain)
    }
    /// Pads to a DWORD boundary with 0xAB, as D3DX pads.
    fn align(&mut self) {
        while !self.out.len().is_multiple_of(4) {
            self.out.push(0xAB);
        }
    }
    /// Whether an equal earlier type record may stand for `t`.
    fn shares_type(&self, t: &TypeInfo) -> bool {
        t.elements == 1
            && match self.layout {
                CtabLayout::Fxc => t.class != ParameterClass::Object,
                CtabLayout::D3dx9 => true,
                CtabLayout::Preshader | CtabLayout::Vkd3d | CtabLayout::Plain => false,
            }
    }
    /// A type description (its members' names and types, then its member table, then the
    /// record); returns the record's offset.
    fn type_info(&mut self, t: &'t TypeInfo, member: bool) -> u32 {
        if self.plain() {
            return self.plain_type_info(t);
        }
        let share = self.shares_type(t);
        if share {
            let pool = if member {
                &self.member_types
            } else {
                &self.types
            };
            if let Some(&(_, at)) = pool.iter().find(|(p, _)| *p == t) {
                return at;
            }
        }
        let table = if t.members.is_empty() {
            0
        } else {
            self.member_table(&t.members)
        };
        let at = self.record(t, table);
        if share {
            if member {
                self.member_types.push((t, at));
            } else {
                self.types.push((t, at));
            }
        }
        at
    }
    /// A type record (`D3DXSHADER_TYPEINFO`), aligned; returns its offset.
    fn record(&mut self, t: &TypeInfo, member_table: u32) -> u32 {
        self.align();
        let at = self.pos();
        for v in [
            t.class.to_u16(),
            t.ty.to_u16(),
            t.rows,
            t.columns,
            t.elements,
        ] {
            self.u16(v);
        }
        self.u16(t.members.len() as u16);
        self.u32(member_table);
        at
    }
    /// The plain layout's type description: the record, its member table, then each
    /// member's name and type.
    fn plain_type_info(&mut self, t: &'t TypeInfo) -> u32 {
        let at = self.record(t, 0); // member table offset patched below
        if !t.members.is_empty() {
            let table = self.pos();
            self.set_u32(at as usize + 12, table);
            for _ in &t.members {
                self.u32(0);
                self.u32(0);
            }
            for (i, m) in t.members.iter().enumerate() {
                let name = self.name(&m.name);
                let ty = self.plain_type_info(&m.ty);
                self.set_u32(table as usize + i * 8, name);
                self.set_u32(table as usize + i * 8 + 4, ty);
            }
        }
        at
    }
    /// A struct's member names and types, then the table of (name, type) offsets.
    fn member_table(&mut self, members: &'t [StructMember]) -> u32 {
        let shares = matches!(self.layout, CtabLayout::Fxc | CtabLayout::D3dx9);
        if shares {
            if let Some(&(_, at)) = self.tables.iter().find(|(m, _)| *m == members) {
                return at;
            }
        }
        let mut entries = Vec::with_capacity(members.len());
        for m in members {
            let name = self.name(&m.name);
            let ty = self.type_info(&m.ty, true);
            entries.push((name, ty));
        }
        self.align();
        let at = self.pos();
        for (name, ty) in entries {
            self.u32(name);
            self.u32(ty);
        }
        if shares {
            self.tables.push((members, at));
        }
        at
    }
    /// A default value, shared with an equal earlier one except in vkd3d's layout.
    fn default_value(&mut self, d: &'t [u32]) -> u32 {
        let shares = !self.plain();
        if shares {
            if let Some(&(_, at)) = self.defaults.iter().find(|(p, _)| *p == d) {
                return at;
            }
        }
        self.align();
        let at = self.pos();
        d.iter().for_each(|&x| self.u32(x));
        if shares {
            self.defaults.push((d, at));
        }
        at
    }
}

impl Ctab {
    /// Encodes the table as a comment payload (starting with the `CTAB` FourCC) in the
    /// byte layout of the tool that made it ([`CtabLayout::of`]): a table read from a
    /// Microsoft compiler's shader encodes back to the same bytes, and `Ctab::parse` of
    /// the result gives back an equal table.
    pub fn encode(&self) -> Vec<u32> {
        self.encode_as(CtabLayout::of(self))
    }

    /// Encodes the table in the given tool's byte layout.
    pub fn encode_as(&self, layout: CtabLayout) -> Vec<u32> {
        let mut w = Writer {
            out: Vec::with_capacity(64 + 48 * self.constants.len() + self.creator.len()),
            layout,
            names: Vec::new(),
            types: Vec::new(),
            member_types: Vec::new(),
            tables: Vec::new(),
            defaults: Vec::new(),
        };
        let info = if self.constants.is_empty() && !w.plain() {
            0
        } else {
            28
        };
        for v in [
            28,
            0,
            self.version,
            self.constants.len() as u32,
            info,
            self.flags,
            0,
        ] {
            w.u32(v);
        }
        let infos = w.out.len();
        w.out.resize(infos + 20 * self.constants.len(), 0);
        for (i, c) in self.constants.iter().enumerate() {
            let name = w.name(&c.name);
            let ty = w.type_info(&c.ty, false);
            let default = c.default_value.as_deref().map_or(0, |d| w.default_value(d));
            let base = infos + i * 20;
            w.set_u32(base, name);
            w.set_u16(base + 4, c.register_set.to_u16());
            w.set_u16(base + 6, c.register_index);
            w.set_u16(base + 8, c.register_count);
            let reserved = if c.explicit_register {
                (c.register_index << 2) | 2
            } else {
                0
            };
            w.set_u16(base + 10, reserved);
            w.set_u32(base + 12, ty);
            w.set_u32(base + 16, default);
        }
        // The target string is followed directly by the creator string, then padding;
        // vkd3d writes no target string (its offset stays 0).
        if layout != CtabLayout::Vkd3d {
            let target = w.string(&self.target);
            w.set_u32(24, target);
        }
        let creator = w.string(&self.creator);
        w.set_u32(4, creator);
        w.align();
        let mut out = Vec::with_capacity(1 + w.out.len() / 4);
        out.push(CTAB_FOURCC);
        out.extend(
            w.out
                .chunks_exact(4)
                .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])),
        );
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nul_position_is_the_first_nul() {
        // Every length to 40, a NUL at every place (or none), other bytes 0x01, 0x80 and
        // 0xFF (the values a borrow-based zero test could mistake).
        for len in 0..40 {
            for fill in [0x01u8, 0x80, 0xFF] {
                for nul in (0..len).map(Some).chain([None]) {
                    let mut b = vec![fill; len];
                    if let Some(i) = nul {
                        b[i] = 0;
                        // A second NUL later does not move the answer.
                        if i + 3 < len {
                            b[i + 3] = 0;
                        }
                    }
                    assert_eq!(nul_position(&b), b.iter().position(|&c| c == 0), "{b:?}");
                }
            }
        }
    }

    #[test]
    fn parameter_type_code_inverts_from_u16() {
        for v in 0..=u16::MAX {
            assert_eq!(ParameterType::from_u16(v).code(), v);
        }
    }

    /// The one-scan string check agrees with a byte-by-byte one: every length to 24, a
    /// NUL at every place (or none), one odd byte (every value) at every place before it
    /// among printable neighbours.
    #[test]
    fn scan_string_finds_the_nul_and_plainness() {
        let slow = |b: &[u8]| {
            let n = b.iter().position(|&c| c == 0)?;
            Some((n, b[..n].iter().all(|c| (0x20..0x7F).contains(c))))
        };
        for len in 0..24 {
            for nul in (0..len).map(Some).chain([None]) {
                for odd in 0..len {
                    for v in 0..=255u8 {
                        let mut b = vec![b'a'; len];
                        b[odd] = v;
                        if let Some(i) = nul {
                            b[i] = 0;
                        }
                        assert_eq!(scan_string(&b), slow(&b), "{b:?}");
                    }
                }
            }
        }
    }
}
