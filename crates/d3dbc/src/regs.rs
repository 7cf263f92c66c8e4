//! The register table: the one place that knows, per shader version, how each register
//! file is spelled in assembly (`oPos`, `oT0`/`o0`, `a0`/`t0`, `vFace`, `aL`, `c2048` for
//! `CONST2`…), how many registers it has (the runtime's limit and the assembler's), whether
//! it can be read or written, and whether it may be relatively addressed.
//!
//! The printer, the assembler, the validator (and the executor and translator) read this
//! table; none of them keeps its own list of register names or counts.

use crate::ir::Register;
use crate::token::RegisterType;
use crate::version::{ShaderKind, Version};

/// What one register file is in one shader version.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct RegFile {
    /// Registers the runtime accepts (indices `0..count`), at the documented maximum caps
    /// (`_sw` models: software-vertex-processing limits). 0: the runtime has no such file
    /// in this version (the assembler may still accept the name, see `asm_count`).
    pub count: u32,
    /// Registers Microsoft's assembler accepts by name (it does not tell sources from
    /// destinations and checks fewer limits than the runtime). 0: not a name the
    /// assembler knows in this version. For `c#` this counts across the four constant
    /// files (`c0`…`c8191`).
    pub asm_count: u32,
    /// The file can be a source operand.
    pub read: bool,
    /// The file can be a destination operand.
    pub write: bool,
    /// The register may be relatively addressed (`c[a0.x + n]`, `v[aL]`, `o[aL]`).
    pub rel: bool,
    /// Relative addressing may use `a0` (the vertex-shader constant files, and vs_3_0
    /// inputs); everywhere else only the loop counter `aL` indexes (see [`rel_ok`]).
    pub rel_a0: bool,
    /// Reading the register needs a `dcl` first: inputs from 2.0 on, samplers, the
    /// ps_2_x `t#`, `vPos`/`vFace`.
    pub dcl: bool,
}

/// Constant registers addressable by the encoding (`c0`…`c8191` over the four files).
pub const CONST_NAMES: u32 = 8192;

/// Sampler stages a draw binds: the 16 pixel-shader samplers (`s0`–`s15`, stages 0–15),
/// then the 4 vertex-shader samplers of vs_3_0 (`s0`–`s3`, stages 16–19, the API's
/// `D3DVERTEXTEXTURESAMPLER0`…`3`). The executor, the GPU runner and the CLI number
/// stages this way.
pub const SAMPLER_STAGES: usize = 20;

/// The stage of vertex-shader sampler `s0` ([`SAMPLER_STAGES`]); also the number of
/// pixel-shader samplers.
pub const VERTEX_SAMPLER_BASE: usize = 16;

/// The vertex-shader samplers of vs_3_0 (`s0`–`s3`).
pub const VERTEX_SAMPLERS: usize = SAMPLER_STAGES - VERTEX_SAMPLER_BASE;

/// `D3DVERTEXTEXTURESAMPLER0`: the sampler-state index the API (and an effect's sampler
/// states) gives vertex-shader sampler `s0`; `s1`–`s3` follow. Stage
/// [`VERTEX_SAMPLER_BASE`] in a draw.
pub const VERTEX_SAMPLER_STATE_INDEX: u32 = 257;

/// The most registers of each file any hardware version has (the largest runtime count
/// of [`file()`] over the versions, `_sw` models aside): what the executor's register
/// file, the translators' tables, the CLI and the GPU runner are sized by. A test checks
/// each against the table.
pub const MAX_TEMPS: usize = 32;
/// Input registers `v#` (vertex shaders; ps_3_0 has 10).
pub const MAX_INPUTS: usize = 16;
/// Pixel-shader texture registers `t#` (ps_2_x; ps_1_4 has 6, ps_1_1–1_3 4).
pub const MAX_TEXTURES: usize = 8;
/// Vertex-shader outputs `o#` (vs_3_0; the `oT#` of earlier versions are 8).
pub const MAX_OUTPUTS: usize = 12;
/// Colour outputs `oD#` of vs_1_1–2_x.
pub const MAX_ATTR_OUTPUTS: usize = 2;
/// Pixel-shader colour outputs `oC#` (render targets).
pub const MAX_COLOR_OUTPUTS: usize = 4;
/// Sampler registers `s#` of one shader (pixel shaders; vs_3_0 has 4).
pub const MAX_SAMPLERS: usize = VERTEX_SAMPLER_BASE;
/// Integer constants `i#` (and boolean constants `b#`, [`MAX_BOOL_CONSTANTS`]).
pub const MAX_INT_CONSTANTS: usize = 16;
/// Boolean constants `b#`.
pub const MAX_BOOL_CONSTANTS: usize = 16;

const fn f(count: u32, asm_count: u32, read: bool, write: bool, rel: bool) -> Option<RegFile> {
    Some(RegFile {
        count,
        asm_count,
        read,
        write,
        rel,
        rel_a0: false,
        dcl: false,
    })
}

/// The register table: `Registers - vs_1_1`, `vs_2_0`, `vs_2_x`, `vs_3_0`,
/// `Registers - ps_1_1 - ps_1_3`, `ps_1_4`, `ps_2_0`, `ps_2_x`, `ps_3_0`. `None`: the
/// file does not exist in `v` for the runtime nor the assembler.
pub fn file(v: Version, t: RegisterType) -> Option<RegFile> {
    use RegisterType::*;
    let mut file = counts(v, t)?;
    let vertex = v.is_vertex();
    // "RelAddr" a0/aL: the vertex constant files, and vs_3_0 inputs (o# takes aL only).
    file.rel_a0 = vertex && matches!(t, Const | Const2 | Const3 | Const4 | Input);
    file.dcl = match t {
        Input => v.major >= 2,
        Sampler => true,
        AddrOrTexture | MiscType => !vertex && v.major >= 2,
        _ => false,
    };
    Some(file)
}

/// Whether `addr` (`a0` or `aL`) may relatively address a register of file `t` in `v`,
/// as a destination (`write`) or a source.
pub fn rel_ok(v: Version, t: RegisterType, addr: RegisterType, write: bool) -> bool {
    let Some(f) = file(v, t) else {
        return false;
    };
    let access = if write { f.write } else { f.read };
    access
        && f.rel
        && match addr {
            RegisterType::AddrOrTexture => f.rel_a0,
            RegisterType::Loop => file(v, RegisterType::Loop).is_some(),
            _ => false,
        }
}

/// Counts, access and relative addressing of [`file()`].
fn counts(v: Version, t: RegisterType) -> Option<RegFile> {
    use RegisterType::*;
    let sw = v.is_software();
    let c = v.code();
    let (r, w) = (true, false);
    match v.kind {
        ShaderKind::Vertex => match t {
            Temp => {
                let n = if c < 0x0201 { 12 } else { 32 };
                f(n, n, true, true, false)
            }
            Input => f(16, 16, r, w, v.major >= 3),
            Const => f(2048, CONST_NAMES, r, w, true),
            Const2 | Const3 | Const4 => f(2048, 0, r, w, true),
            AddrOrTexture => f(1, 1, false, true, false),
            RastOut if v.major < 3 => f(3, 3, false, true, false),
            AttrOut if v.major < 3 => f(2, 2, false, true, false),
            Output if v.major < 3 => f(8, 8, false, true, false),
            Output => f(12, 12, false, true, true),
            ConstInt | ConstBool if v.major >= 2 => {
                let n = if sw { 2048 } else { 16 };
                f(n, n, r, w, false)
            }
            Loop if v.major >= 2 => f(1, 1, r, w, false),
            Label if v.major >= 2 => f(
                if v.major >= 3 || sw { 2048 } else { 16 },
                2048,
                r,
                w,
                false,
            ),
            Predicate if c >= 0x0201 => f(1, 1, true, true, false),
            Sampler if v.major >= 3 => f(4, 4, r, w, false),
            _ => None,
        },
        ShaderKind::Pixel => match t {
            Temp => match c {
                0x0100..=0x0103 => f(2, 2, true, true, false),
                0x0104 => f(6, 6, true, true, false),
                0x0200 => f(12, 32, true, true, false),
                _ => f(32, 32, true, true, false),
            },
            Input if v.major >= 3 => f(10, 10, r, w, true),
            Input => f(2, 2, r, w, false),
            Const => match c {
                _ if sw => f(8192, CONST_NAMES, r, w, false),
                0x0100..=0x0104 => f(8, 8, r, w, false),
                0x0200 | 0x0201 => f(32, 32, r, w, false),
                _ => f(224, 224, r, w, false),
            },
            AddrOrTexture => match c {
                0x0100..=0x0103 => f(4, 4, true, true, false),
                0x0104 => f(6, 6, r, w, false),
                _ if v.major == 2 => f(8, 8, r, w, false),
                _ => None,
            },
            Sampler if v.major >= 2 => f(16, 16, r, w, false),
            ColorOut if v.major >= 2 => f(4, 4, false, true, false),
            DepthOut if v.major >= 2 => f(1, 1, false, true, false),
            // The assembler takes i#/b# from ps_2_0 (the runtime from ps_2_x).
            ConstInt | ConstBool if v.major >= 2 => {
                let n = if c < 0x0201 {
                    0
                } else if sw {
                    2048
                } else {
                    16
                };
                f(n, 16, r, w, false)
            }
            Predicate if c >= 0x0201 => f(1, 1, true, true, false),
            Label if c >= 0x0201 => f(
                if v.major >= 3 || sw { 2048 } else { 16 },
                2048,
                r,
                w,
                false,
            ),
            Loop if v.major >= 3 => f(1, 1, r, w, false),
            MiscType if v.major >= 3 => f(2, 2, r, w, false),
            _ => None,
        },
    }
}

/// Whether a `dcl` may name a register of file `t` in `v` (besides samplers, which
/// every version with `s#` declares): vertex-shader inputs (`dcl_position v0`), vs_3_0
/// outputs (`dcl_texcoord o1`), pixel-shader inputs and the ps_2_x `t#` (`dcl t0`,
/// `dcl_texcoord v0` in ps_3_0), ps_3_0 `vPos`/`vFace`. Microsoft's assembler refuses
/// any other `dcl` operand (Wine's `asmparser.c` `asmparser_dcl_input`/`_output`
/// per version, `tests/asm.c` failure cases).
pub fn declarable(v: Version, t: RegisterType) -> bool {
    use RegisterType::*;
    let exists = file(v, t).is_some();
    exists
        && match (v.kind, t) {
            (ShaderKind::Vertex, Input) => true,
            (ShaderKind::Vertex, Output) => v.major >= 3,
            (ShaderKind::Pixel, Input) => true,
            (ShaderKind::Pixel, AddrOrTexture) => v.major == 2,
            (ShaderKind::Pixel, MiscType) => v.major >= 3,
            _ => false,
        }
}

/// The runtime's view of [`file()`]: `None` where the runtime has no such file.
#[inline]
pub fn runtime_file(v: Version, t: RegisterType) -> Option<RegFile> {
    file(v, t).filter(|f| f.count > 0)
}

/// How a register is spelled in `version`: the name, and the number written after it
/// (`None` for the named registers `oPos`, `oFog`, `oPts`, `oDepth`, `aL`, `vPos`,
/// `vFace`). Constants of the `CONST2`…`CONST4` files are numbered on from 2048.
#[inline]
pub const fn spelling(reg: Register, version: Version) -> (&'static str, Option<u32>) {
    use RegisterType::*;
    let n = reg.num as u32;
    match reg.kind {
        Temp => ("r", Some(n)),
        Input => ("v", Some(n)),
        Const => ("c", Some(n)),
        AddrOrTexture if version.is_vertex() => ("a", Some(n)),
        AddrOrTexture => ("t", Some(n)),
        RastOut => match n {
            0 => ("oPos", None),
            1 => ("oFog", None),
            2 => ("oPts", None),
            _ => ("oRast", Some(n)),
        },
        AttrOut => ("oD", Some(n)),
        Output if version.is_vertex() && version.major >= 3 => ("o", Some(n)),
        Output => ("oT", Some(n)),
        ConstInt => ("i", Some(n)),
        ColorOut => ("oC", Some(n)),
        DepthOut => ("oDepth", None),
        Sampler => ("s", Some(n)),
        Const2 => ("c", Some(n + 2048)),
        Const3 => ("c", Some(n + 4096)),
        Const4 => ("c", Some(n + 6144)),
        ConstBool => ("b", Some(n)),
        Loop => ("aL", None),
        TempFloat16 => ("half", Some(n)),
        MiscType => match n {
            0 => ("vPos", None),
            1 => ("vFace", None),
            _ => ("vMisc", Some(n)),
        },
        Label => ("l", Some(n)),
        Predicate => ("p", Some(n)),
    }
}

/// [`spelling`] of a file whose every register is a name and a number (`r5`, `oT3`,
/// `c2050`), for the printer's hot path: the name as 8 bytes of which `len` are text,
/// and what is added to the register index.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Numbered {
    pub name: [u8; 8],
    pub len: u8,
    pub add: u16,
}

/// [`spelling`] as a table by register type and shader class (pixel; vertex before 3.0;
/// vertex 3.0: what spelling depends on), derived from it at compile time; `None` where
/// the name depends on the index (`oPos`, `vFace`) or has no number (`oDepth`, `aL`).
static NUMBERED: [[Option<Numbered>; 3]; 32] = {
    let classes = [
        Version::pixel(3, 0),
        Version::vertex(2, 0),
        Version::vertex(3, 0),
    ];
    let mut t = [[None; 3]; 32];
    let mut k = 0;
    while k < 32 {
        if let Some(kind) = RegisterType::from_u8(k as u8) {
            let mut c = 0;
            while c < 3 {
                let (name, n0) = spelling(Register::new(kind, 0), classes[c]);
                let (name1, n1) = spelling(Register::new(kind, 1), classes[c]);
                if let (Some(add), Some(next)) = (n0, n1) {
                    let b = name.as_bytes();
                    let same = same_text(b, name1.as_bytes()) && next == add + 1 && b.len() <= 8;
                    if same {
                        let mut e = Numbered {
                            name: [0; 8],
                            len: b.len() as u8,
                            add: add as u16,
                        };
                        let mut i = 0;
                        while i < b.len() {
                            e.name[i] = b[i];
                            i += 1;
                        }
                        t[k][c] = Some(e);
                    }
                }
                c += 1;
            }
        }
        k += 1;
    }
    t
};

const fn same_text(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// The [`Numbered`] spelling of register type `t` in `version`, where it has one.
#[inline(always)]
pub(crate) fn numbered(t: RegisterType, version: Version) -> Option<&'static Numbered> {
    let class = if version.is_pixel() {
        0
    } else if version.major >= 3 {
        2
    } else {
        1
    };
    NUMBERED[t as usize & 31][class].as_ref()
}

/// A register as the listing spells it, for messages (`format!("{}", Name(v, r))`);
/// formats nothing until displayed.
#[derive(Clone, Copy, Debug)]
pub struct Name(pub Version, pub Register);

impl std::fmt::Display for Name {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (p, n) = spelling(self.1, self.0);
        f.write_str(p)?;
        match n {
            Some(n) => write!(f, "{n}"),
            None => Ok(()),
        }
    }
}

/// What a register holds as a value a shader writes and reads back (what a translator
/// keeps a variable for): four floats, four integers (`a0` of a vertex shader), one
/// integer (`aL`) or four booleans (`p0`). `None` for files that are not written as
/// values (constants, samplers, labels).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Holds {
    /// `vec4<f32>`: temporaries, inputs, texture coordinates in pixel shaders, outputs.
    F4,
    /// `vec4<i32>`: the vertex shader's address register `a0`.
    I4,
    /// `i32`: the loop counter `aL`.
    I1,
    /// `vec4<bool>`: the predicate `p0`.
    B4,
}

/// The value kind a register file `t` holds in version `v` ([`Holds`]).
pub fn holds(v: Version, t: RegisterType) -> Option<Holds> {
    use RegisterType::*;
    Some(match t {
        AddrOrTexture if v.is_vertex() => Holds::I4,
        Loop => Holds::I1,
        Predicate => Holds::B4,
        Temp | Input | AddrOrTexture | RastOut | AttrOut | Output | ColorOut | DepthOut
        | MiscType | TempFloat16 => Holds::F4,
        Const | Const2 | Const3 | Const4 | ConstInt | ConstBool | Sampler | Label => return None,
    })
}

/// The index of float constant `n` of file `t` across the four constant files
/// (`D3DSPR_CONST` 0–2047, `CONST2` 2048–4095, `CONST3` 4096–6143, `CONST4` 6144–8191).
pub fn float_constant_index(t: RegisterType, n: u16) -> u32 {
    u32::from(n)
        + match t {
            RegisterType::Const2 => 2048,
            RegisterType::Const3 => 4096,
            RegisterType::Const4 => 6144,
            _ => 0,
        }
}

/// The float constant file a stage of version `v` executes with: the registers every
/// D3D9 device of the version offers (vs 256, the `MaxVertexShaderConst` of hardware
/// vertex processing; `_sw` 8192; ps_1_x 8, ps_2_x 32, ps_3_0 224), grown to the highest
/// register the shader names directly (`highest`, as [`float_constant_index`]; a vs_1_1
/// shader naming `c300` runs under software vertex processing, which has 8192), at most
/// 8192. Relative reads past the end read (0, 0, 0, 0). The CPU executor and the
/// translator both size their constant files with it.
pub fn float_constant_file(v: Version, highest: Option<u32>) -> u32 {
    let base = match v.kind {
        _ if v.is_software() => 8192,
        ShaderKind::Vertex => 256,
        ShaderKind::Pixel if v.major >= 3 => 224,
        ShaderKind::Pixel if v.major == 2 => 32,
        ShaderKind::Pixel => 8,
    };
    highest.map_or(base, |h| base.max(h + 1)).min(8192)
}

/// The varyings below shader model 3, where a varying is a register rather than a
/// declaration ([`Version::declares_varyings`]), as `(usage, usage index)`: `oT0`–`oT7`
/// (`t0`–`t7` in a pixel shader) are TEXCOORD0–7, `oD0`/`oD1` (`v0`/`v1`) COLOR0–1 and
/// `oFog` FOG (read by the fog stage, not by a pixel shader), in the order of the fixed
/// varying map ([`crate::target::interface::varying_location`]). The executor and the
/// translators read the set from here.
pub const FIXED_VARYINGS: [(crate::token::DeclUsage, u8); MAX_TEXTURES + MAX_ATTR_OUTPUTS + 1] = {
    use crate::token::DeclUsage::{Color, Fog, TexCoord};
    // The last entry stays FOG.
    let mut t = [(Fog, 0); MAX_TEXTURES + MAX_ATTR_OUTPUTS + 1];
    let mut i = 0;
    while i < MAX_TEXTURES {
        t[i] = (TexCoord, i as u8);
        i += 1;
    }
    while i < MAX_TEXTURES + MAX_ATTR_OUTPUTS {
        t[i] = (Color, (i - MAX_TEXTURES) as u8);
        i += 1;
    }
    t
};

/// Whether `(usage, usage index)` is one of the [`FIXED_VARYINGS`].
pub fn is_fixed_varying(usage: crate::token::DeclUsage, usage_index: u8) -> bool {
    FIXED_VARYINGS.contains(&(usage, usage_index))
}

/// What a pixel shader reads from a varying `(usage, usage index)` that the vertex stage
/// does not provide: `(1, 1, 1, 1)` for COLOR0 (the diffuse colour's default), `(0, 0,
/// 0, 0)` for anything else. The CPU executor and the translator's stage linking both
/// read it from here.
pub fn unwritten_varying(usage: u8, usage_index: u8) -> [f32; 4] {
    if usage == crate::token::DeclUsage::Color as u8 && usage_index == 0 {
        [1.0; 4]
    } else {
        [0.0; 4]
    }
}

/// The usage a vertex shader input register `v#` carries when no `dcl` names one (a
/// Direct3D 8 shader, whose vertex declaration binds streams to registers): the
/// register of the `D3DVSDE_*` element of that number (`d3d8types.h`: position v0,
/// blend weight v1, blend indices v2, normal v3, point size v4, diffuse v5, specular
/// v6, texture coordinates 0–7 in v7–v14, position 2 in v15).
pub fn d3d8_vertex_input(n: u16) -> Option<(crate::token::DeclUsage, u8)> {
    use crate::token::DeclUsage::*;
    Some(match n {
        0 => (Position, 0),
        1 => (BlendWeight, 0),
        2 => (BlendIndices, 0),
        3 => (Normal, 0),
        4 => (PSize, 0),
        5 => (Color, 0),
        6 => (Color, 1),
        7..=14 => (TexCoord, (n - 7) as u8),
        15 => (Position, 1),
        _ => return None,
    })
}

/// Which vs_3_0 output register is the rasterizer's position, given the output
/// declarations as `(usage, usage index)` in declaration order: the first one declared
/// `POSITION0` (`dcl_position o#`). `POSITION1` and up are ordinary varyings (Wine's
/// `test_position_index` feeds them to a pixel shader's `dcl_position1 v#`), and a
/// further `POSITION0` declaration is ignored. The CPU executor and the translator both
/// pick the position with it.
pub fn vs3_position_output(decls: impl IntoIterator<Item = (u8, u8)>) -> Option<usize> {
    let position = crate::token::DeclUsage::Position as u8;
    decls
        .into_iter()
        .position(|(usage, index)| usage == position && index == 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed_varyings_are_the_registers_below_shader_model_3() {
        use crate::token::DeclUsage::{Color, Fog, TexCoord};
        let names: Vec<String> = FIXED_VARYINGS
            .iter()
            .map(|(u, i)| format!("{}{i}", u.name()))
            .collect();
        assert_eq!(
            names.join(" "),
            "texcoord0 texcoord1 texcoord2 texcoord3 texcoord4 texcoord5 texcoord6 \
             texcoord7 color0 color1 fog0"
        );
        // Their fixed-map locations are 0..11 in this order.
        for (k, &(u, i)) in FIXED_VARYINGS.iter().enumerate() {
            assert_eq!(crate::target::interface::varying_location(u, i), k as u32);
        }
        assert!(is_fixed_varying(TexCoord, 7) && is_fixed_varying(Color, 1));
        assert!(!is_fixed_varying(TexCoord, 8) && !is_fixed_varying(Fog, 1));
    }

    /// Each `MAX_*` size is the largest runtime count of its file over the hardware
    /// versions of the table (the documented "Registers - vs_1_1" … "ps_3_0" pages).
    #[test]
    fn max_sizes_are_the_table_maxima() {
        use RegisterType::*;
        let mut versions = Vec::new();
        for (major, minors) in [(1u8, &[0u8, 1, 2, 3, 4][..]), (2, &[0, 1]), (3, &[0])] {
            for &minor in minors {
                versions.push(Version::vertex(major, minor));
                versions.push(Version::pixel(major, minor));
            }
        }
        let max = |t: RegisterType, kind: Option<ShaderKind>| {
            versions
                .iter()
                .filter(|v| kind.is_none_or(|k| v.kind == k))
                .filter_map(|&v| runtime_file(v, t))
                .map(|f| f.count as usize)
                .max()
                .unwrap_or(0)
        };
        assert_eq!(max(Temp, None), MAX_TEMPS);
        assert_eq!(max(Input, None), MAX_INPUTS);
        assert_eq!(max(AddrOrTexture, Some(ShaderKind::Pixel)), MAX_TEXTURES);
        assert_eq!(max(Output, None), MAX_OUTPUTS);
        assert_eq!(max(AttrOut, None), MAX_ATTR_OUTPUTS);
        assert_eq!(max(ColorOut, None), MAX_COLOR_OUTPUTS);
        assert_eq!(max(Sampler, None), MAX_SAMPLERS);
        assert_eq!(max(ConstInt, None), MAX_INT_CONSTANTS);
        assert_eq!(max(ConstBool, None), MAX_BOOL_CONSTANTS);
        assert_eq!(
            max(Sampler, Some(ShaderKind::Vertex)),
            SAMPLER_STAGES - VERTEX_SAMPLER_BASE
        );
    }

    /// The compile-time table agrees with [`spelling`] for every register of every
    /// version (it is derived from spelling for one version per class).
    #[test]
    fn numbered_table_is_spelling() {
        let mut versions = Vec::new();
        for (major, minors) in [
            (1u8, &[0u8, 1, 2, 3, 4][..]),
            (2, &[0, 1, 0xFF]),
            (3, &[0, 0xFF]),
        ] {
            for &minor in minors {
                versions.push(Version::vertex(major, minor));
                versions.push(Version::pixel(major, minor));
            }
        }
        let mut fast = 0;
        for v in versions {
            for k in 0..32u8 {
                let Some(kind) = RegisterType::from_u8(k) else {
                    continue;
                };
                for n in 0..2048u16 {
                    let reg = Register::new(kind, n);
                    if let Some(e) = numbered(kind, v) {
                        let name = std::str::from_utf8(&e.name[..e.len as usize]).unwrap();
                        let got = (name, Some(u32::from(n) + u32::from(e.add)));
                        assert_eq!(got, spelling(reg, v), "{kind:?} {n} in {v}");
                        fast += 1;
                    }
                }
            }
        }
        assert!(fast > 0);
    }

    #[test]
    fn the_first_position0_output_is_the_position() {
        use crate::token::DeclUsage::{Position, TexCoord};
        let d = |u: crate::token::DeclUsage, i: u8| (u as u8, i);
        assert_eq!(
            vs3_position_output([d(TexCoord, 0), d(Position, 0)]),
            Some(1)
        );
        assert_eq!(
            vs3_position_output([d(Position, 1), d(Position, 0), d(Position, 0)]),
            Some(1)
        );
        assert_eq!(vs3_position_output([d(Position, 1)]), None);
    }

    #[test]
    fn spellings_per_version() {
        let vs11 = Version::vertex(1, 1);
        let vs30 = Version::vertex(3, 0);
        let ps30 = Version::pixel(3, 0);
        let name = |v, k, n| Name(v, Register::new(k, n)).to_string();
        assert_eq!(name(vs11, RegisterType::Output, 3), "oT3");
        assert_eq!(name(vs30, RegisterType::Output, 3), "o3");
        assert_eq!(name(vs11, RegisterType::AddrOrTexture, 0), "a0");
        assert_eq!(name(ps30, RegisterType::MiscType, 1), "vFace");
        assert_eq!(name(ps30, RegisterType::MiscType, 5), "vMisc5");
        assert_eq!(name(vs30, RegisterType::Const3, 1), "c4097");
        assert_eq!(name(vs11, RegisterType::RastOut, 0), "oPos");
    }

    #[test]
    fn relative_addressing_and_dcl() {
        use RegisterType::{AddrOrTexture as A0, Const, Input, Loop, MiscType, Output, Temp};
        let (vs11, vs20, vs30) = (
            Version::vertex(1, 1),
            Version::vertex(2, 0),
            Version::vertex(3, 0),
        );
        let (ps20, ps30) = (Version::pixel(2, 0), Version::pixel(3, 0));
        // Registers - vs_1_1 … ps_3_0, "RelAddr" column.
        assert!(rel_ok(vs11, Const, A0, false));
        assert!(!rel_ok(vs11, Const, Loop, false));
        assert!(rel_ok(vs20, Const, Loop, false));
        assert!(!rel_ok(vs20, Input, Loop, false));
        assert!(rel_ok(vs30, Input, Loop, false));
        assert!(rel_ok(vs30, Input, A0, false));
        assert!(rel_ok(vs30, Output, Loop, true));
        assert!(!rel_ok(vs30, Output, A0, true));
        assert!(!rel_ok(vs30, Const, Loop, true));
        assert!(!rel_ok(vs30, Temp, Loop, false));
        assert!(rel_ok(ps30, Input, Loop, false));
        assert!(!rel_ok(ps30, Const, Loop, false));
        assert!(!rel_ok(ps20, Input, Loop, false));
        // "Requires DCL" column.
        let dcl = |v, t| file(v, t).is_some_and(|f| f.dcl);
        assert!(!dcl(vs11, Input));
        assert!(dcl(vs20, Input));
        assert!(dcl(ps20, A0)); // t#
        assert!(dcl(ps30, Input));
        assert!(dcl(ps30, MiscType)); // vPos, vFace
        assert!(dcl(ps30, RegisterType::Sampler));
        assert!(!dcl(ps30, Const));
    }

    #[test]
    fn runtime_and_assembler_counts() {
        let ps20 = Version::pixel(2, 0);
        let t = file(ps20, RegisterType::Temp).unwrap();
        assert_eq!((t.count, t.asm_count), (12, 32));
        assert!(runtime_file(ps20, RegisterType::ConstBool).is_none());
        assert_eq!(file(ps20, RegisterType::ConstBool).unwrap().asm_count, 16);
        assert!(file(Version::vertex(3, 0), RegisterType::RastOut).is_none());
        assert!(
            file(Version::vertex(3, 0), RegisterType::Output)
                .unwrap()
                .rel
        );
    }
}
