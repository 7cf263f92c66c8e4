//! bgfx shader binaries (`shaderc -o x.bin`, what bgfx's `createShader` loads): a
//! header, the uniform table, then the renderer's own code, which for the Direct3D 9
//! renderer (`shaders/dx9/*.bin`) is shader model 2–3 bytecode.
//!
//! Every layout bgfx has written, learned from bgfx's `shaderc`, `src/shader.cpp` and
//! `src/renderer_d3d9.cpp` and checked on bgfx's own `examples/runtime/shaders/dx9`
//! binaries from 2012 to 2026:
//!
//! | version | header | uniform record | code size |
//! |---|---|---|---|
//! | none (Oct 2012) | — | name, type, count, register index, register count | u16 |
//! | 0–3 | magic `VSH`/`FSH`/`CSH` + version byte, one hash | same | u16 |
//! | 4 | same | same (types renumbered: 0 sampler, 2 vec4, 3 mat3, 4 mat4) | u16 |
//! | 5 (2017) | same, then the vertex attributes' names (u32 size, names) | same | u16 |
//! | 5 (2018) | one hash, or input and output hash | same | u32 |
//! | 6–7 | magic, input hash, output hash | same | u32 |
//! | 8–9 | same | + texture info (u16) | u32 |
//! | 10–11 | same | + texture info, texture format (u16 each) | u32 |
//!
//! Names are a length byte and that many bytes; a type byte carries flags (0x10
//! fragment, 0x20 sampler, 0x40 read-only/compute, 0x80 compare/buffer) above the base
//! type. After the code: a NUL byte, and from version 5 the vertex attribute ids (a
//! count byte, u16 each) and from version 8 the constant-buffer size (u16), each read
//! when present.

/// A shader stage, from the magic.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum Stage {
    /// `VSH`.
    Vertex,
    /// `FSH`.
    Fragment,
    /// `CSH`.
    Compute,
}

/// One entry of the uniform table.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Uniform {
    /// The uniform's name (`u_modelViewProj`).
    pub name: String,
    /// The type byte as stored (base type and flags).
    pub type_code: u8,
    /// The base type's name in the version's numbering (`vec4`, `mat4`, `sampler`,
    /// `float4x4` in versions 0–3).
    pub type_name: &'static str,
    /// Array elements.
    pub num: u8,
    /// First register.
    pub register_index: u16,
    /// Registers used.
    pub register_count: u16,
    /// Texture information (versions 8+).
    pub texture_info: Option<u16>,
    /// Texture format (versions 10+).
    pub texture_format: Option<u16>,
}

/// A parsed bgfx shader binary.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct BgfxShader {
    /// Stage.
    pub stage: Stage,
    /// The format version (the magic's fourth byte); `None` for the headerless layout
    /// of October 2012.
    pub version: Option<u8>,
    /// Input hash (versions before 6: the one hash, input for fragment shaders,
    /// output for vertex shaders).
    pub input_hash: u32,
    /// Output hash (versions 6+; the one hash before).
    pub output_hash: u32,
    /// The uniform table.
    pub uniforms: Vec<Uniform>,
    /// Byte offset of the code.
    pub code_offset: usize,
    /// Code size in bytes.
    pub code_size: usize,
    /// Vertex attribute ids after the code (versions 5+).
    pub attributes: Vec<u16>,
    /// Constant-buffer size after the attributes (versions 8+).
    pub constant_buffer_size: Option<u16>,
}

/// Why bytes that start like a bgfx shader binary cannot be read as one.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("bgfx shader binary, byte {offset}: {reason}")]
pub struct BgfxError {
    /// Byte offset.
    pub offset: usize,
    /// What is wrong.
    pub reason: String,
}

/// The newest format version read.
pub const MAX_VERSION: u8 = 11;

/// True when `bytes` start with a bgfx magic (`VSH`, `FSH`, `CSH` and a version byte
/// 0–[`MAX_VERSION`]).
pub fn is_bgfx(bytes: &[u8]) -> bool {
    bytes.len() >= 4
        && matches!(bytes[0], b'V' | b'F' | b'C')
        && bytes[1..3] == *b"SH"
        && bytes[3] <= MAX_VERSION
}

struct Reader<'a> {
    b: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn err<T>(&self, reason: impl Into<String>) -> Result<T, BgfxError> {
        Err(BgfxError {
            offset: self.at,
            reason: reason.into(),
        })
    }
    fn take(&mut self, n: usize, what: &str) -> Result<&[u8], BgfxError> {
        match self.b.get(self.at..self.at.saturating_add(n)) {
            Some(s) => {
                self.at += n;
                Ok(s)
            }
            None => self.err(format!(
                "the file ends inside the {what} ({} byte(s) left, {n} needed)",
                self.b.len().saturating_sub(self.at)
            )),
        }
    }
    fn u8(&mut self, what: &str) -> Result<u8, BgfxError> {
        Ok(self.take(1, what)?[0])
    }
    fn u16(&mut self, what: &str) -> Result<u16, BgfxError> {
        let s = self.take(2, what)?;
        Ok(u16::from_le_bytes([s[0], s[1]]))
    }
    fn u32(&mut self, what: &str) -> Result<u32, BgfxError> {
        let s = self.take(4, what)?;
        Ok(u32::from_le_bytes([s[0], s[1], s[2], s[3]]))
    }
}

/// The base type names: versions 0–3 numbered bgfx's `ConstantType`, 4+ its
/// `UniformType`.
fn type_name(version: Option<u8>, code: u8) -> &'static str {
    const OLD: [&str; 10] = [
        "int", "float", "end", "int[]", "float[]", "float2", "float3", "float4", "float3x3",
        "float4x4",
    ];
    const NEW: [&str; 5] = ["sampler", "end", "vec4", "mat3", "mat4"];
    let base = (code & 0x0F) as usize;
    let names: &[&str] = if version.is_none_or(|v| v < 4) {
        &OLD
    } else {
        &NEW
    };
    names.get(base).copied().unwrap_or("unknown")
}

/// Reads a bgfx shader binary (any version, [`is_bgfx`]); the code is at
/// `code_offset..code_offset + code_size`. Counts are checked against the bytes left
/// before anything is allocated.
pub fn parse(bytes: &[u8]) -> Result<BgfxShader, BgfxError> {
    if !is_bgfx(bytes) {
        return Err(BgfxError {
            offset: 0,
            reason: format!(
                "no magic: a bgfx shader starts with VSH, FSH or CSH and a version byte \
                 0-{MAX_VERSION}"
            ),
        });
    }
    let stage = match bytes[0] {
        b'V' => Stage::Vertex,
        b'F' => Stage::Fragment,
        _ => Stage::Compute,
    };
    let v = bytes[3];
    let primary = Layout::of(v);
    let first = parse_body(bytes, 4, stage, Some(v), primary);
    if first.as_ref().is_ok_and(|s| s.code_is_d3d9(bytes)) {
        return first;
    }
    // Version 5 was written three ways (bgfx's own dx9 binaries hold all three): in
    // 2017 with the vertex attributes' names after the hash and a u16 code size, in
    // 2018 with one hash, then with two, and a u32 size. Where the version's layout does
    // not lead to Direct3D 9 code, the others are tried before the first error is
    // reported.
    for two_hashes in [false, true] {
        for size_u32 in [false, true] {
            for attribute_names in [false, true] {
                let alt = Layout {
                    two_hashes,
                    size_u32,
                    attribute_names,
                };
                if alt == primary {
                    continue;
                }
                if let Ok(s) = parse_body(bytes, 4, stage, Some(v), alt) {
                    if s.code_is_d3d9(bytes) {
                        return Ok(s);
                    }
                }
            }
        }
    }
    first
}

/// The fields a version's layout has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Layout {
    two_hashes: bool,
    size_u32: bool,
    /// The 2017 version 5: the vertex attributes' names (a u32 byte count, then a
    /// length byte and the name for each of bgfx's attributes) after the hash.
    attribute_names: bool,
}

impl Layout {
    fn of(version: u8) -> Layout {
        Layout {
            two_hashes: version >= 6,
            size_u32: version >= 5,
            attribute_names: false,
        }
    }
}

/// The headerless layout of October 2012: the uniform table and a u16 code size at
/// byte 0. Only taken where the code it points to is D3D9 bytecode ending the file but
/// for its NUL.
pub fn parse_headerless(bytes: &[u8]) -> Option<BgfxShader> {
    let s = parse_body(bytes, 0, Stage::Vertex, None, Layout::of(0)).ok()?;
    let code = bytes.get(s.code_offset..s.code_offset + s.code_size)?;
    let stage = match code.get(2..4)? {
        [0xFE, 0xFF] => Stage::Vertex,
        [0xFF, 0xFF] => Stage::Fragment,
        _ => return None,
    };
    let tail = bytes.len() - (s.code_offset + s.code_size);
    (tail <= 1 && code.len() >= 8 && code.ends_with(&[0xFF, 0xFF, 0, 0]))
        .then_some(BgfxShader { stage, ..s })
}

fn parse_body(
    bytes: &[u8],
    start: usize,
    stage: Stage,
    version: Option<u8>,
    layout: Layout,
) -> Result<BgfxShader, BgfxError> {
    let v = version.unwrap_or(0);
    let mut r = Reader {
        b: bytes,
        at: start,
    };
    let (input_hash, output_hash) = match version {
        None => (0, 0),
        Some(_) if !layout.two_hashes => {
            let h = r.u32("hash")?;
            (h, h)
        }
        Some(_) => (r.u32("input hash")?, r.u32("output hash")?),
    };
    if layout.attribute_names {
        let n = r.u32("attribute names' size")? as usize;
        r.take(n, "attribute names")?;
    }
    let count = r.u16("uniform count")? as usize;
    // Each record is at least 7 bytes: refuse counts the bytes cannot hold.
    if count.saturating_mul(7) > bytes.len() - r.at {
        return r.err(format!(
            "{count} uniforms cannot fit in the {} byte(s) left",
            bytes.len() - r.at
        ));
    }
    let mut uniforms = Vec::with_capacity(count);
    for i in 0..count {
        let what = format!("uniform {i}");
        let len = r.u8(&what)? as usize;
        let name = String::from_utf8_lossy(r.take(len, &what)?).into_owned();
        let type_code = r.u8(&what)?;
        let num = r.u8(&what)?;
        let register_index = r.u16(&what)?;
        let register_count = r.u16(&what)?;
        let texture_info = if v >= 8 { Some(r.u16(&what)?) } else { None };
        let texture_format = if v >= 10 { Some(r.u16(&what)?) } else { None };
        uniforms.push(Uniform {
            name,
            type_code,
            type_name: type_name(version, type_code),
            num,
            register_index,
            register_count,
            texture_info,
            texture_format,
        });
    }
    let code_size = if layout.size_u32 {
        r.u32("code size")? as usize
    } else {
        r.u16("code size")? as usize
    };
    let code_offset = r.at;
    r.take(code_size, "code")?;
    // What follows the code, read where present.
    let mut attributes = Vec::new();
    let mut constant_buffer_size = None;
    if v >= 5 && r.u8("NUL after the code").is_ok() {
        if let Ok(n) = r.u8("attribute count") {
            for _ in 0..n {
                match r.u16("attribute") {
                    Ok(a) => attributes.push(a),
                    Err(_) => break,
                }
            }
            if v >= 8 {
                constant_buffer_size = r.u16("constant buffer size").ok();
            }
        }
    }
    Ok(BgfxShader {
        stage,
        version,
        input_hash,
        output_hash,
        uniforms,
        code_offset,
        code_size,
        attributes,
        constant_buffer_size,
    })
}

impl BgfxShader {
    /// Whether the code starts with a Direct3D 9 version token.
    fn code_is_d3d9(&self, bytes: &[u8]) -> bool {
        bytes
            .get(self.code_offset..self.code_offset + self.code_size.min(4))
            .is_some_and(|c| {
                c.len() == 4 && c[3] == 0xFF && c[2] >= 0xFE && (1..=3).contains(&c[1])
            })
    }

    /// The header as comment lines, for `dis` to print before the listing:
    /// `// bgfx VSH version 11, input hash 0x00000000, output hash 0xc5f7eee7` and one
    /// line per uniform: name, type, first register, register count
    /// (`//   u_modelViewProj  mat4      c8      4`).
    pub fn comment(&self) -> String {
        let stage = match self.stage {
            Stage::Vertex => "VSH",
            Stage::Fragment => "FSH",
            Stage::Compute => "CSH",
        };
        let mut s = match self.version {
            Some(v) => format!(
                "// bgfx {stage} version {v}, input hash 0x{:08x}, output hash 0x{:08x}\n",
                self.input_hash, self.output_hash
            ),
            None => format!("// bgfx {stage} (headerless, 2012)\n"),
        };
        if !self.uniforms.is_empty() {
            s.push_str("// uniforms:\n");
            let width = self
                .uniforms
                .iter()
                .map(|u| u.name.len())
                .max()
                .unwrap_or(0);
            for u in &self.uniforms {
                let sampler = u.type_code & 0x20 != 0 || u.type_name == "sampler";
                let mut ty = u.type_name.to_string();
                if u.num > 1 {
                    ty.push_str(&format!("[{}]", u.num));
                }
                let reg = format!("{}{}", if sampler { 's' } else { 'c' }, u.register_index);
                let fragment = if u.type_code & 0x10 != 0 {
                    "  fragment"
                } else {
                    ""
                };
                s.push_str(&format!(
                    "//   {:width$}  {ty:9} {reg:5} {:3}{fragment}\n",
                    crate::diag::escape(&u.name),
                    u.register_count
                ));
            }
        }
        s
    }
}
