//! The shared description of Direct3D 9 rendering work: [`Scene`] (render targets and an
//! ordered list of [`Op`]s) and [`Draw`] (one draw call with every piece of state that
//! acts on it). The CPU executor in this crate and the GPU runner (`d3dbc-gpu`) take the
//! very same values; the execution oracles load into them (`crate::oracle`).
//!
//! Everything is plain data with serde support. Enumerations carry the D3D9 names without
//! their prefix (`D3DFMT_A8R8G8B8` is [`Format::A8R8G8B8`], `D3DBLEND_SRCALPHA` is
//! [`Blend::SrcAlpha`]).

use std::sync::Arc;

use serde::{Deserialize, Serialize};

/// A whole piece of rendering work: the render targets (and depth buffer) it draws into
/// and the clears and draws, in order. Probes of the oracles name a target and the number
/// of draws executed before they read.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Scene {
    /// Colour targets, by slot (`oC0` writes slot 0).
    pub targets: Vec<TargetDesc>,
    /// The depth-stencil buffer (`D3DFMT_D24S8`-like: depth kept as f32), if any.
    pub depth: Option<DepthDesc>,
    /// Clears and draws, in execution order.
    pub ops: Vec<Op>,
}

/// A colour render target.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct TargetDesc {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// Storage format; results are quantised to it on write (and blending reads it back).
    /// The readback format of the GPU runner.
    pub format: Format,
    /// Initial contents (RGBA); D3D9 leaves them undefined, the oracles clear first or
    /// cover the whole target.
    #[serde(default)]
    pub initial: [f32; 4],
}

/// A depth buffer.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct DepthDesc {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// Storage format: depths are quantised to it before the test and on write.
    #[serde(default)]
    pub format: DepthFormat,
    /// Initial depth value.
    #[serde(default = "one")]
    pub initial: f32,
    /// Initial stencil value (the low 8 bits are kept, as in `D3DFMT_D24S8`).
    #[serde(default)]
    pub initial_stencil: u32,
}

fn one() -> f32 {
    1.0
}

/// Depth-stencil formats (`D3DFMT_D*`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum DepthFormat {
    /// 24-bit UNORM depth, 8-bit stencil. The default (the usual auto depth-stencil).
    #[default]
    D24S8,
    /// 24-bit UNORM depth, no stencil.
    D24X8,
    /// 16-bit UNORM depth.
    D16,
    /// 32-bit float depth (`D3DFMT_D32F_LOCKABLE`), and `D24FS8` (kept as float).
    D32F,
}

impl DepthFormat {
    /// Parses a D3D9 depth format name with or without the `D3DFMT_` prefix.
    pub fn from_d3d_name(name: &str) -> Option<DepthFormat> {
        Some(match name.trim_start_matches("D3DFMT_") {
            "D24S8" => DepthFormat::D24S8,
            "D24X8" | "D24X4S4" => DepthFormat::D24X8,
            "D16" | "D16_LOCKABLE" => DepthFormat::D16,
            "D32F_LOCKABLE" | "D24FS8" | "D32" => DepthFormat::D32F,
            _ => return None,
        })
    }

    /// Depth `z` (already in [0, 1]) as this format stores it.
    pub fn quantize(self, z: f32) -> f32 {
        let q = |max: f64| ((z as f64 * max).round() / max) as f32;
        match self {
            DepthFormat::D24S8 | DepthFormat::D24X8 => q(16_777_215.0),
            DepthFormat::D16 => q(65_535.0),
            DepthFormat::D32F => z,
        }
    }

    /// Whether the format has a stencil channel.
    pub fn has_stencil(self) -> bool {
        matches!(self, DepthFormat::D24S8 | DepthFormat::D32F)
    }
}

/// One step of a [`Scene`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Op {
    /// `IDirect3DDevice9::Clear` / `ColorFill`.
    Clear(Clear),
    /// A draw call with its complete state.
    Draw(Box<Draw>),
}

/// A clear of the colour targets and/or the depth buffer.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Clear {
    /// Colour target slot to clear, or `None` for every target (`Clear(TARGET)`).
    pub target: Option<u32>,
    /// Clear colour targets (RGBA value `color`).
    pub color_enabled: bool,
    /// The colour (RGBA floats, quantised by the target format).
    pub color: [f32; 4],
    /// Clear the depth buffer to `depth`.
    pub depth_enabled: bool,
    /// The depth value.
    pub depth: f32,
    /// Clear the stencil buffer to `stencil` (`D3DCLEAR_STENCIL`).
    #[serde(default)]
    pub stencil_enabled: bool,
    /// The stencil value (low 8 bits kept).
    #[serde(default)]
    pub stencil: u32,
}

/// The shared description of one Direct3D 9 draw call — the one value both the CPU
/// executor (`d3dbc_exec`) and the GPU runner (`d3dbc-gpu`) consume: vertex declaration
/// and streams, primitive type, shaders (token streams), constants of both stages,
/// textures and sampler states per stage, texture-stage states, viewport and the render
/// states that act around the shaders. The render targets belong to the enclosing
/// [`Scene`]. Every field is complete (no deltas): the oracle loader resolves the
/// oracles' state deltas.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Draw {
    /// Primitive type.
    pub primitive: Primitive,
    /// Number of vertices read (from vertex 0 of each stream).
    pub vertex_count: u32,
    /// The vertex declaration.
    pub vertex_declaration: Vec<VertexElement>,
    /// Vertex streams, by stream number.
    pub streams: Vec<VertexStream>,
    /// Vertex shader tokens; `None` = positions are pre-transformed (`POSITIONT`, screen
    /// space x, y, z, rhw) and other elements pass through by usage.
    pub vs: Option<Vec<u32>>,
    /// Pixel shader tokens; `None` = fixed function (output = diffuse colour).
    pub ps: Option<Vec<u32>>,
    /// Vertex shader constants.
    pub vs_constants: Constants,
    /// Pixel shader constants.
    pub ps_constants: Constants,
    /// Textures by sampler stage (0–15 pixel, 16–19 the vertex samplers
    /// `D3DVERTEXTEXTURESAMPLER0..3`); `None` = nothing bound.
    pub textures: Vec<Option<Arc<Texture>>>,
    /// Sampler states by stage (same numbering); missing stages use the D3D9 defaults.
    pub samplers: Vec<SamplerState>,
    /// Texture-stage states by stage (bump-environment matrix, texture transform flags).
    pub stages: Vec<TextureStage>,
    /// The viewport.
    pub viewport: Viewport,
    /// Render states.
    pub render_states: RenderStates,
}

/// `D3DPRIMITIVETYPE`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Primitive {
    /// `D3DPT_POINTLIST`.
    PointList,
    /// `D3DPT_LINELIST`.
    LineList,
    /// `D3DPT_LINESTRIP`.
    LineStrip,
    /// `D3DPT_TRIANGLELIST`.
    TriangleList,
    /// `D3DPT_TRIANGLESTRIP`.
    TriangleStrip,
    /// `D3DPT_TRIANGLEFAN`.
    TriangleFan,
}

/// One `D3DVERTEXELEMENT9`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct VertexElement {
    /// Stream number.
    pub stream: u16,
    /// Byte offset in the vertex.
    pub offset: u16,
    /// Data type.
    pub ty: DeclType,
    /// `D3DDECLUSAGE` value (0 position … 10 color …).
    pub usage: u8,
    /// Usage index.
    pub usage_index: u8,
    /// D3D8-style binding straight to input register `v#` (no `dcl` in the shader);
    /// `None` = matched to the shader's `dcl_usage` by usage and index.
    #[serde(default)]
    pub register: Option<u8>,
}

impl VertexElement {
    /// A `FLOAT4` element of stream 0 at byte `offset`, matched to the shader's
    /// `dcl_usage` by `(usage, usage_index)`.
    pub fn float4(offset: u16, usage: u8, usage_index: u8) -> VertexElement {
        VertexElement {
            stream: 0,
            offset,
            ty: DeclType::Float4,
            usage,
            usage_index,
            register: None,
        }
    }
}

/// `D3DDECLTYPE`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "UPPERCASE")]
#[allow(missing_docs)]
pub enum DeclType {
    Float1,
    Float2,
    Float3,
    Float4,
    /// Read as BGRA bytes, giving (R, G, B, A) / 255.
    D3dColor,
    Ubyte4,
    Short2,
    Short4,
    Ubyte4N,
    Short2N,
    Short4N,
    Ushort2N,
    Ushort4N,
    Float16_2,
    Float16_4,
}

impl DeclType {
    /// Size in bytes.
    pub fn size(self) -> usize {
        use DeclType::*;
        match self {
            Float1 | D3dColor | Ubyte4 | Short2 | Ubyte4N | Short2N | Ushort2N | Float16_2 => 4,
            Float2 | Short4 | Short4N | Ushort4N | Float16_4 => 8,
            Float3 => 12,
            Float4 => 16,
        }
    }

    /// Components the element supplies (the rest read D3D9's defaults, 0 and w = 1).
    pub fn components(self) -> u32 {
        use DeclType::*;
        match self {
            Float1 => 1,
            Float2 | Short2 | Short2N | Ushort2N | Float16_2 => 2,
            Float3 => 3,
            Float4 | D3dColor | Ubyte4 | Short4 | Ubyte4N | Short4N | Ushort4N | Float16_4 => 4,
        }
    }
}

/// Vertex data of one stream.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct VertexStream {
    /// Stream number.
    pub stream: u16,
    /// Bytes per vertex.
    pub stride: u32,
    /// The bytes.
    pub data: Vec<u8>,
}

/// Shader constants of one stage. Registers not listed read 0 (bool: false); `def` in the
/// shader overrides them.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Constants {
    /// Float constants `c#` as raw bits (uploads may be integer bit patterns).
    pub float: Vec<[u32; 4]>,
    /// Integer constants `i#`.
    pub int: Vec<[i32; 4]>,
    /// Boolean constants `b#`.
    pub bool: Vec<bool>,
}

impl Constants {
    /// Writes float constants (raw bits) from register `start`.
    pub fn set_float_bits(&mut self, start: usize, words: &[u32]) {
        for (i, v) in words.chunks(4).enumerate() {
            let r = start + i;
            if self.float.len() <= r {
                self.float.resize(r + 1, [0; 4]);
            }
            for (c, w) in v.iter().enumerate() {
                self.float[r][c] = *w;
            }
        }
    }

    /// Writes integer constants from register `start`.
    pub fn set_int(&mut self, start: usize, ints: &[i32]) {
        for (i, v) in ints.chunks(4).enumerate() {
            let r = start + i;
            if self.int.len() <= r {
                self.int.resize(r + 1, [0; 4]);
            }
            for (c, w) in v.iter().enumerate() {
                self.int[r][c] = *w;
            }
        }
    }
}

/// Texture dimensionality (`D3DRTYPE_TEXTURE`, `_CUBETEXTURE` with faces +X, −X, +Y,
/// −Y, +Z, −Z, `_VOLUMETEXTURE`): the one type the translators' options also use.
pub use d3dbc::target::options::TextureKind;

/// `D3DFORMAT` of textures and render targets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[allow(missing_docs)]
pub enum Format {
    A8R8G8B8,
    X8R8G8B8,
    A8B8G8R8,
    X8B8G8R8,
    R5G6B5,
    X1R5G5B5,
    A1R5G5B5,
    A4R4G4B4,
    L8,
    A8L8,
    A8,
    V8U8,
    Q8W8V8U8,
    V16U16,
    X8L8V8U8,
    /// 16 bits: U (signed 5-bit, bits 0–4), V (signed 5-bit, bits 5–9), L (unsigned 6-bit).
    L6V5U5,
    G16R16,
    A16B16G16R16,
    R16F,
    G16R16F,
    A16B16G16R16F,
    R32F,
    G32R32F,
    A32B32G32R32F,
    Dxt1,
    Dxt2,
    Dxt3,
    Dxt4,
    Dxt5,
}

impl Format {
    /// Parses a D3D9 format name with or without the `D3DFMT_` prefix.
    pub fn from_d3d_name(name: &str) -> Option<Format> {
        let n = name.trim_start_matches("D3DFMT_");
        serde_json::from_value(serde_json::Value::String(n.to_string())).ok()
    }
}

/// A texture: every mip level of every face or slice, in the format's own bytes.
///
/// Layout of `data`: level by level (largest first); within a level, cube faces in
/// `D3DCUBEMAP_FACES` order or volume slices front to back; within each image, rows top
/// to bottom (4×4 blocks for DXT), texels little-endian as D3D9 stores them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Texture {
    /// 2D, cube or volume.
    pub kind: TextureKind,
    /// Texel format.
    pub format: Format,
    /// Width of level 0.
    pub width: u32,
    /// Height of level 0.
    pub height: u32,
    /// Depth of level 0 (1 unless volume).
    pub depth: u32,
    /// Mip levels present.
    pub levels: u32,
    /// The bytes.
    pub data: Vec<u8>,
}

impl Texture {
    /// A one-level 2D `A8R8G8B8` texture from RGBA bytes in row order (what PNG
    /// decoders and a browser canvas give). `None` when `rgba` is not `width`×`height`×4
    /// bytes or the texture is empty.
    pub fn from_rgba8(width: u32, height: u32, rgba: &[u8]) -> Option<Texture> {
        if width == 0 || height == 0 || rgba.len() as u64 != width as u64 * height as u64 * 4 {
            return None;
        }
        // D3DFMT_A8R8G8B8 is a little-endian 0xAARRGGBB word: B, G, R, A in memory.
        let data = rgba
            .chunks_exact(4)
            .flat_map(|p| [p[2], p[1], p[0], p[3]])
            .collect();
        Some(Texture {
            kind: TextureKind::Tex2d,
            format: Format::A8R8G8B8,
            width,
            height,
            depth: 1,
            levels: 1,
            data,
        })
    }
}

/// `D3DTEXTUREADDRESS`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "UPPERCASE")]
#[allow(missing_docs)]
pub enum Address {
    #[default]
    Wrap,
    Mirror,
    Clamp,
    Border,
    MirrorOnce,
}

/// `D3DTEXTUREFILTERTYPE`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "UPPERCASE")]
#[allow(missing_docs)]
pub enum Filter {
    None,
    #[default]
    Point,
    Linear,
    /// Treated as linear.
    Anisotropic,
}

/// Sampler states of one stage (`D3DSAMP_*`), defaults as D3D9's.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SamplerState {
    /// `ADDRESSU`.
    pub address_u: Address,
    /// `ADDRESSV`.
    pub address_v: Address,
    /// `ADDRESSW`.
    pub address_w: Address,
    /// `BORDERCOLOR` as a D3DCOLOR (ARGB).
    pub border_color: u32,
    /// `MAGFILTER`.
    pub mag_filter: Filter,
    /// `MINFILTER`.
    pub min_filter: Filter,
    /// `MIPFILTER` (`None` = level 0 only… of `max_mip_level`).
    pub mip_filter: Filter,
    /// `MIPMAPLODBIAS` (float).
    pub mip_lod_bias: f32,
    /// `MAXMIPLEVEL`: the most detailed level used.
    pub max_mip_level: u32,
    /// `SRGBTEXTURE`: texels of the 8-bit-per-channel, luminance and DXT formats
    /// ([`Format::is_srgb_readable`]) are decoded sRGB → linear (red, green, blue; not alpha) before filtering.
    pub srgb: bool,
}

impl Default for SamplerState {
    fn default() -> Self {
        SamplerState {
            address_u: Address::Wrap,
            address_v: Address::Wrap,
            address_w: Address::Wrap,
            border_color: 0,
            mag_filter: Filter::Point,
            min_filter: Filter::Point,
            mip_filter: Filter::None,
            mip_lod_bias: 0.0,
            max_mip_level: 0,
            srgb: false,
        }
    }
}

/// Texture-stage states that change what a pixel shader computes.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct TextureStage {
    /// `BUMPENVMAT00`, `01`, `10`, `11`.
    pub bump_mat: [f32; 4],
    /// `BUMPENVLSCALE`.
    pub bump_lscale: f32,
    /// `BUMPENVLOFFSET`.
    pub bump_loffset: f32,
    /// `TEXTURETRANSFORMFLAGS` raw value (`COUNTn` in bits 0–7, `PROJECTED` = 0x100).
    pub transform_flags: u32,
}

impl Default for TextureStage {
    fn default() -> Self {
        TextureStage {
            bump_mat: [0.0; 4],
            bump_lscale: 0.0,
            bump_loffset: 0.0,
            transform_flags: 0,
        }
    }
}

/// `D3DVIEWPORT9`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Viewport {
    /// Left.
    pub x: u32,
    /// Top.
    pub y: u32,
    /// Width.
    pub width: u32,
    /// Height.
    pub height: u32,
    /// Near depth.
    pub min_z: f32,
    /// Far depth.
    pub max_z: f32,
}

/// `D3DCMPFUNC`: the one definition lives in the core crate, shared with the translator.
pub use d3dbc::CompareFunc as Cmp;

/// `D3DCULL`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum Cull {
    /// Draw both faces.
    None,
    /// Cull clockwise triangles.
    Cw,
    /// Cull counter-clockwise triangles (the D3D9 default).
    #[default]
    Ccw,
}

/// `D3DFILLMODE`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "UPPERCASE")]
#[allow(missing_docs)]
pub enum FillMode {
    Point,
    Wireframe,
    #[default]
    Solid,
}

/// `D3DSHADEMODE`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "UPPERCASE")]
#[allow(missing_docs)]
pub enum ShadeMode {
    Flat,
    #[default]
    Gouraud,
}

/// `D3DBLEND`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "UPPERCASE")]
#[allow(missing_docs)]
pub enum Blend {
    Zero,
    One,
    SrcColor,
    InvSrcColor,
    SrcAlpha,
    InvSrcAlpha,
    DestAlpha,
    InvDestAlpha,
    DestColor,
    InvDestColor,
    SrcAlphaSat,
    /// `D3DBLEND_BOTHSRCALPHA` (obsolete): source factor source alpha, destination
    /// factor 1 − source alpha (whatever the destination blend state says).
    BothSrcAlpha,
    /// `D3DBLEND_BOTHINVSRCALPHA` (obsolete): source factor 1 − source alpha,
    /// destination factor source alpha.
    BothInvSrcAlpha,
    /// `D3DRS_BLENDFACTOR`, per channel.
    BlendFactor,
    /// 1 − `D3DRS_BLENDFACTOR`, per channel.
    InvBlendFactor,
}

/// `D3DBLENDOP`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "UPPERCASE")]
#[allow(missing_docs)]
pub enum BlendOp {
    #[default]
    Add,
    Subtract,
    RevSubtract,
    Min,
    Max,
}

/// `D3DSTENCILOP`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum StencilOp {
    /// Keep the stored value.
    #[default]
    Keep,
    /// Write 0.
    Zero,
    /// Write the reference value.
    Replace,
    /// Increment, clamping at 255.
    IncrSat,
    /// Decrement, clamping at 0.
    DecrSat,
    /// Invert every bit.
    Invert,
    /// Increment, wrapping to 0.
    Incr,
    /// Decrement, wrapping to 255.
    Decr,
}

impl StencilOp {
    /// The new stencil value for stored value `s` and reference `r` (8-bit buffer).
    pub fn apply(self, s: u8, r: u8) -> u8 {
        match self {
            StencilOp::Keep => s,
            StencilOp::Zero => 0,
            StencilOp::Replace => r,
            StencilOp::IncrSat => s.saturating_add(1),
            StencilOp::DecrSat => s.saturating_sub(1),
            StencilOp::Invert => !s,
            StencilOp::Incr => s.wrapping_add(1),
            StencilOp::Decr => s.wrapping_sub(1),
        }
    }
}

/// The stencil states (`D3DRS_STENCIL*`, `TWOSIDEDSTENCILMODE`, `CCW_STENCIL*`), defaults
/// as D3D9's. The test is `(ref & mask) FUNC (stored & mask)`; the buffer is 8 bits
/// (`D3DFMT_D24S8`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct StencilStates {
    /// `STENCILENABLE`.
    pub enable: bool,
    /// `STENCILFUNC` (clockwise faces, or every face without two-sided mode).
    pub func: Cmp,
    /// `STENCILREF`.
    pub reference: u32,
    /// `STENCILMASK`.
    pub mask: u32,
    /// `STENCILWRITEMASK`.
    pub write_mask: u32,
    /// `STENCILFAIL`: the stencil test failed.
    pub fail: StencilOp,
    /// `STENCILZFAIL`: the stencil test passed, the depth test failed.
    pub z_fail: StencilOp,
    /// `STENCILPASS`: both passed.
    pub pass: StencilOp,
    /// `TWOSIDEDSTENCILMODE`: counter-clockwise triangles use the `ccw_*` states.
    pub two_sided: bool,
    /// `CCW_STENCILFUNC`.
    pub ccw_func: Cmp,
    /// `CCW_STENCILFAIL`.
    pub ccw_fail: StencilOp,
    /// `CCW_STENCILZFAIL`.
    pub ccw_z_fail: StencilOp,
    /// `CCW_STENCILPASS`.
    pub ccw_pass: StencilOp,
}

impl Default for StencilStates {
    fn default() -> Self {
        StencilStates {
            enable: false,
            func: Cmp::Always,
            reference: 0,
            mask: 0xFFFF_FFFF,
            write_mask: 0xFFFF_FFFF,
            fail: StencilOp::Keep,
            z_fail: StencilOp::Keep,
            pass: StencilOp::Keep,
            two_sided: false,
            ccw_func: Cmp::Always,
            ccw_fail: StencilOp::Keep,
            ccw_z_fail: StencilOp::Keep,
            ccw_pass: StencilOp::Keep,
        }
    }
}

/// `D3DFOGMODE`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "UPPERCASE")]
#[allow(missing_docs)]
pub enum FogMode {
    #[default]
    None,
    Exp,
    Exp2,
    Linear,
}

/// The render states (`D3DRS_*`) that act around the shaders, defaults as D3D9's.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct RenderStates {
    /// `ZENABLE`.
    pub z_enable: bool,
    /// `ZWRITEENABLE`.
    pub z_write: bool,
    /// `ZFUNC`.
    pub z_func: Cmp,
    /// `ALPHATESTENABLE`.
    pub alpha_test: bool,
    /// `ALPHAFUNC`.
    pub alpha_func: Cmp,
    /// `ALPHAREF` (raw DWORD; compared as ref & 0xFF / 255 against the 8-bit alpha).
    pub alpha_ref: u32,
    /// `ALPHABLENDENABLE`.
    pub blend: bool,
    /// `SRCBLEND`.
    pub src_blend: Blend,
    /// `DESTBLEND`.
    pub dest_blend: Blend,
    /// `BLENDOP`.
    pub blend_op: BlendOp,
    /// `SEPARATEALPHABLENDENABLE`: alpha blends with the `*_alpha` states below
    /// instead of `src_blend`/`dest_blend`/`blend_op`.
    pub separate_alpha_blend: bool,
    /// `SRCBLENDALPHA`.
    pub src_blend_alpha: Blend,
    /// `DESTBLENDALPHA`.
    pub dest_blend_alpha: Blend,
    /// `BLENDOPALPHA`.
    pub blend_op_alpha: BlendOp,
    /// `BLENDFACTOR` as a D3DCOLOR (ARGB), read by [`Blend::BlendFactor`] and
    /// [`Blend::InvBlendFactor`].
    pub blend_factor: u32,
    /// The stencil states.
    pub stencil: StencilStates,
    /// `DEPTHBIAS` (added to the depth of every pixel of a triangle, in [0, 1] depth
    /// units).
    pub depth_bias: f32,
    /// `SLOPESCALEDEPTHBIAS` (times the triangle's largest depth slope per pixel).
    pub slope_scale_depth_bias: f32,
    /// `LASTPIXEL`: lines also draw their last pixel (the one containing the end
    /// point). Default true.
    pub last_pixel: bool,
    /// `COLORWRITEENABLE` (bit 0 red … bit 3 alpha), for target 0 (targets 1–3 use
    /// `COLORWRITEENABLE1..3`, listed in `color_write_more`).
    pub color_write: u32,
    /// `COLORWRITEENABLE1..3`.
    pub color_write_more: [u32; 3],
    /// `CULLMODE`.
    pub cull: Cull,
    /// `FILLMODE`.
    pub fill: FillMode,
    /// `SHADEMODE`.
    pub shade: ShadeMode,
    /// `CLIPPING`.
    pub clipping: bool,
    /// `CLIPPLANEENABLE` (bit per plane).
    pub clip_plane_enable: u32,
    /// The clip planes (in clip space, as seen by shaders).
    pub clip_planes: Vec<[f32; 4]>,
    /// `POINTSIZE`.
    pub point_size: f32,
    /// `POINTSIZE_MIN`.
    pub point_size_min: f32,
    /// `POINTSIZE_MAX`.
    pub point_size_max: f32,
    /// `POINTSPRITEENABLE`.
    pub point_sprite: bool,
    /// `FOGENABLE`.
    pub fog_enable: bool,
    /// `FOGTABLEMODE` (pixel fog).
    pub fog_table_mode: FogMode,
    /// `FOGVERTEXMODE`.
    pub fog_vertex_mode: FogMode,
    /// `FOGCOLOR` (D3DCOLOR).
    pub fog_color: u32,
    /// `FOGSTART`.
    pub fog_start: f32,
    /// `FOGEND`.
    pub fog_end: f32,
    /// `FOGDENSITY`.
    pub fog_density: f32,
    /// `SRGBWRITEENABLE`: colours written to the 8-bit-per-channel targets are
    /// encoded linear → sRGB (red, green, blue; alpha stays linear), and blending reads
    /// the destination back as linear (what D3D10-class hardware does; some D3D9-era
    /// parts blended in gamma space). Float targets are not converted.
    pub srgb_write: bool,
    /// `_44` of the projection matrix (decides z vs w fog with table fog).
    pub projection_44: f32,
}

impl Default for RenderStates {
    fn default() -> Self {
        RenderStates {
            z_enable: false,
            z_write: true,
            z_func: Cmp::LessEqual,
            alpha_test: false,
            alpha_func: Cmp::Always,
            alpha_ref: 0,
            blend: false,
            src_blend: Blend::One,
            dest_blend: Blend::Zero,
            blend_op: BlendOp::Add,
            separate_alpha_blend: false,
            src_blend_alpha: Blend::One,
            dest_blend_alpha: Blend::Zero,
            blend_op_alpha: BlendOp::Add,
            blend_factor: 0xFFFF_FFFF,
            stencil: StencilStates::default(),
            depth_bias: 0.0,
            slope_scale_depth_bias: 0.0,
            last_pixel: true,
            color_write: 0xF,
            color_write_more: [0xF; 3],
            cull: Cull::Ccw,
            fill: FillMode::Solid,
            shade: ShadeMode::Gouraud,
            clipping: true,
            clip_plane_enable: 0,
            clip_planes: Vec::new(),
            point_size: 1.0,
            point_size_min: 1.0,
            point_size_max: 64.0,
            point_sprite: false,
            fog_enable: false,
            fog_table_mode: FogMode::None,
            fog_vertex_mode: FogMode::None,
            fog_color: 0,
            fog_start: 0.0,
            fog_end: 1.0,
            fog_density: 1.0,
            srgb_write: false,
            projection_44: 1.0,
        }
    }
}

impl Draw {
    /// A draw with D3D9 default state: no shaders, nothing bound, a 640×480 viewport.
    pub fn new(primitive: Primitive, vertex_count: u32) -> Draw {
        Draw {
            primitive,
            vertex_count,
            vertex_declaration: Vec::new(),
            streams: Vec::new(),
            vs: None,
            ps: None,
            vs_constants: Constants::default(),
            ps_constants: Constants::default(),
            textures: Vec::new(),
            samplers: Vec::new(),
            stages: Vec::new(),
            viewport: Viewport {
                x: 0,
                y: 0,
                width: 640,
                height: 480,
                min_z: 0.0,
                max_z: 1.0,
            },
            render_states: RenderStates::default(),
        }
    }

    /// The sampler state of `stage` (D3D9 defaults when not listed).
    pub fn sampler(&self, stage: usize) -> SamplerState {
        self.samplers.get(stage).copied().unwrap_or_default()
    }

    /// The texture-stage state of `stage` (defaults when not listed).
    pub fn stage(&self, stage: usize) -> TextureStage {
        self.stages.get(stage).copied().unwrap_or_default()
    }

    /// The texture bound to `stage`.
    pub fn texture(&self, stage: usize) -> Option<&Texture> {
        self.textures.get(stage).and_then(|t| t.as_deref())
    }

    /// `D3DTTFF_PROJECTED` for the ps_1_1–1_3 texture reads of stage `stage` (`tex`,
    /// `texbem`, `texbeml`): the coordinate component count whose last component the
    /// coordinate is divided by (4 = `.w`, 3 = `.z`), or 0 for no division. The one rule
    /// of the CPU executor and the GPU runner's translation options.
    ///
    /// What Windows does (Wine `dlls/d3d9/tests/visual.c`, `projected_textures_test` and
    /// the three tables of `texture_transform_flags_test`; wined3d's pixel-shader compile
    /// arguments implement the same):
    /// - without `D3DTTFF_PROJECTED` (`0x100`) nothing is divided, nor for a cube map;
    /// - with a vertex shader every coordinate has four components and the division is
    ///   by `.w` whatever the count says: `COUNT3 | PROJECTED`, `PROJECTED` alone and
    ///   the invalid `0xffffffff` all "draw like COUNT4 | PROJECTED";
    /// - without one (pre-transformed vertices) the count is capped by the components
    ///   of the stage's `TEXCOORDn` element, and a count of 0 (`PROJECTED` alone) or
    ///   above it (`0xffffffff`) is that number; a count that does not exceed the
    ///   texture's dimensions (2 for 2D, 3 for volumes: `COUNT1`, `COUNT2`, or
    ///   `COUNT3 | PROJECTED` on a two-component coordinate) "draws non-projected".
    pub fn projection(&self, stage: usize) -> u8 {
        let flags = self.stage(stage).transform_flags;
        if flags & PROJECTED == 0 {
            return 0;
        }
        let kind = self.texture(stage).map(|t| t.kind);
        if kind == Some(TextureKind::Cube) {
            return 0;
        }
        if self.vs.is_some() {
            return 4;
        }
        let texcoord = d3dbc::token::DeclUsage::TexCoord as u8;
        let supplied = self
            .vertex_declaration
            .iter()
            .find(|e| e.usage == texcoord && e.usage_index as usize == stage)
            .map_or(4, |e| e.ty.components());
        let count = match flags & !PROJECTED {
            0 => supplied,
            n if n > supplied => supplied,
            n => n,
        };
        let dims = if kind == Some(TextureKind::Volume) {
            3
        } else {
            2
        };
        if count > dims {
            count as u8
        } else {
            0
        }
    }

    /// The user clip planes that clip this draw, as `(plane number, plane)`: those
    /// `D3DRS_CLIPPLANEENABLE` enables (bit n enables plane n, any combination; Microsoft,
    /// "D3DCLIPPLANEn"), when `D3DRS_CLIPPING` is on and a vertex shader is bound.
    /// With a vertex shader the planes are in clip space and a point is kept where
    /// `a·x + b·y + c·z + d·w ≥ 0` of its output position (Microsoft,
    /// "IDirect3DDevice9::SetClipPlane"); pre-transformed vertices are never clipped by
    /// them. A plane never set is (0, 0, 0, 0), which clips nothing. The one rule of the
    /// CPU executor and the GPU runner.
    pub fn user_clip_planes(&self) -> impl Iterator<Item = (usize, [f32; 4])> + '_ {
        let rs = &self.render_states;
        let on = rs.clipping && self.vs.is_some();
        (0..USER_CLIP_PLANES)
            .filter(move |&i| on && rs.clip_plane_enable & (1 << i) != 0)
            .map(|i| (i, rs.clip_planes.get(i).copied().unwrap_or([0.0; 4])))
    }
}

/// `D3DTTFF_PROJECTED`.
const PROJECTED: u32 = 0x100;

/// User clip planes a D3D9 device offers (`D3DCAPS9::MaxUserClipPlanes` of the
/// hardware the oracles ran on; `D3DCLIPPLANE0`…`D3DCLIPPLANE5`).
pub const USER_CLIP_PLANES: usize = 6;
