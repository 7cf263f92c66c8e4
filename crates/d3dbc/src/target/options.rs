//! Translation options, read by every back end (`d3dbc-naga`, `d3dbc-spirv`): the device
//! semantics shared with the CPU executor ([`crate::Semantics`]) plus the pipeline state outside the shader that changes what a
//! D3D9 shader computes (SM1 sampler types, projected coordinates, alpha test, fog, …).
//!
//! Every field has a documented default; the whole struct is serde-loadable
//! (`d3dbc translate --options FILE.json`), unknown keys are rejected.

use crate::Semantics;

/// Texture dimensionality a sampler stage is bound to.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum TextureKind {
    /// A 2D texture (also D3D9's 1D textures, which are 2D textures of height 1).
    #[default]
    #[cfg_attr(feature = "serde", serde(alias = "tex2_d"))]
    Tex2d,
    /// A cube map.
    Cube,
    /// A volume (3D) texture.
    Volume,
}

/// D3D9 comparison function (`D3DCMPFUNC`) for the alpha test: the core crate's one definition,
/// shared with the CPU executor's `Draw`.
pub use crate::CompareFunc;

/// Fog mode applied to the colour output of pixel shaders below 3.0.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum FogMode {
    /// No fog; the default.
    #[default]
    None,
    /// The fog factor is the interpolated `oFog` (vertex fog), clamped to [0, 1]; a
    /// vertex shader below 3.0 that writes no `oFog` gives its specular alpha, 0 when it
    /// writes no `oD1` either (fully fogged). `D3DRS_FOGVERTEXMODE`'s formula belongs
    /// to fixed-function vertex processing and never applies to a vertex shader's fog
    /// (Wine `fog_with_shader_test`).
    Vertex,
    /// Linear table fog on the fragment depth: `(end − z) / (end − start)`.
    Linear,
    /// `exp(−density · z)`.
    Exp,
    /// `exp(−(density · z)²)`.
    Exp2,
}

/// Which depth table fog (`linear`/`exp`/`exp2`) reads per pixel.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum FogDepth {
    /// The rasterised depth `z/w` (D3D9 with an orthographic projection, `_44 == 1`);
    /// the default.
    #[default]
    Z,
    /// The perspective-correct clip `w` (D3D9 "w-fog", used when the projection matrix
    /// is not orthographic, `_44 != 1`).
    W,
}

/// Pipeline state outside the shader (the keys DXVK's spec constants, wined3d's compile
/// args and vkd3d-shader's parameters carry). Dynamic values (bump matrices, alpha
/// reference, fog colour and range, clip planes, the half-pixel fix-up) are read from
/// the driver uniform buffer described by [`super::interface::Interface::driver`], so they can
/// change without recompiling; what changes the code is here.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(default, deny_unknown_fields))]
pub struct PipelineState {
    /// Texture kind of the texture bound to each sampler stage, for the shaders that
    /// have no sampler declarations (ps_1_x). Stages beyond the list are 2D.
    /// Default: empty (all 2D).
    pub sm1_sampler_kinds: Vec<TextureKind>,
    /// `D3DTSS_TEXTURETRANSFORMFLAGS` projection per stage (ps_1_1–1_3 `tex`, `texbem`,
    /// `texbeml`): 0 = not projected, 2/3/4 = divide by component `count − 1`;
    /// ignored for cube textures. The host derives it from the flags as Windows does:
    /// with a vertex shader any `D3DTTFF_PROJECTED` divides by `.w` (4) whatever the
    /// count; without one the count is capped by the vertex declaration's coordinate
    /// (`d3dbc_exec::Draw::projection`). Default: empty (none).
    pub projected: Vec<u8>,
    /// Alpha test function applied to `oC0.a` (`D3DRS_ALPHAFUNC`, enabled when not
    /// `always`); the reference is driver uniform `ALPHA_REF.x`. Default `always`.
    pub alpha_test: CompareFunc,
    /// Fog for pixel shaders below 3.0. Default none.
    pub fog: FogMode,
    /// Depth table fog reads (`z` or `w`). Default `z`.
    pub fog_depth: FogDepth,
    /// Number of user clip planes (0–8) written as clip distances by vertex shaders:
    /// distance k is `dot(position, driver CLIP_PLANE + k)`, the position being the
    /// shader's own output (`oPos`, a vs_3_0's `POSITION0` output) before point
    /// expansion and fix-up. The host packs the planes `D3DRS_CLIPPLANEENABLE` enables
    /// (any combination of bits) into slots `0..n`. Default 0. Not available for the
    /// WGSL target without the `clip_distances` extension.
    pub clip_planes: u8,
    /// Write `oPts` to the point-size built-in: SPIR-V, GLSL and MSL. WGSL and HLSL 5.1
    /// have no point-size output (WebGPU and Direct3D 10+ draw points one pixel wide),
    /// so their output leaves the built-in out ([`point_expansion`](Self::point_expansion)
    /// draws sized points there). `oPts` always also goes to the PSIZE varying. Default
    /// false.
    pub point_size_builtin: bool,
    /// Point expansion (vertex shaders): the host draws every point as an instance of a
    /// 4-vertex triangle strip (vertex attributes step per instance, `vertex_index`
    /// 0–3 names the corner: x = index & 1, y = index >> 1, y down), and the shader
    /// moves each corner by `(corner − ½) · size` pixels, the size being `oPts` when
    /// written and positive, else driver `POINT_SIZE.x`, clamped to
    /// [`POINT_SIZE.y`, `POINT_SIZE.z`] and at least 1 (D3D9's `POINTSIZE`,
    /// `POINTSIZE_MIN`, `POINTSIZE_MAX`). For targets that draw only 1-pixel points
    /// (WebGPU) or have no point coordinate (naga's IR). Default false.
    ///
    /// `D3DRS_POINTSCALEENABLE`'s distance formula (`Vh · S · sqrt(1/(A + B·De +
    /// C·De²))`, `De` the eye-space distance) belongs to fixed-function vertex
    /// processing (drivers apply it "with transform and lighting only", never to
    /// pre-transformed vertices): with a vertex shader the size is already in pixels,
    /// so it is not applied here, nor by the CPU executor.
    pub point_expansion: bool,
    /// Point sprites (`D3DRS_POINTSPRITEENABLE`): every TEXCOORD varying of an expanded
    /// point is the sprite corner `(u, v, 0, 1)`, (0, 0) top left to (1, 1) bottom
    /// right. Applied with [`PipelineState::point_expansion`] only. Default false.
    pub point_sprites: bool,
    /// Flat shading (`D3DSHADE_FLAT`): colour varyings use flat interpolation (the
    /// provoking vertex of the target API). Default false.
    pub flat_shading: bool,
    /// `vPos` is the pixel's integer position (fragment coordinate − 0.5), as D3D9
    /// rasterises. Default true.
    pub vpos_half_pixel: bool,
    /// `vFace` is +1 for front faces (false: −1 for front faces). Default true.
    pub vface_front_positive: bool,
    /// Add the driver uniform `POS_FIXUP.xy · w` to the vertex position (the D3D9
    /// half-pixel offset and any y-flip the host needs). Default true.
    pub position_fixup: bool,
    /// The target driver supports the float32 denormal mode of
    /// [`crate::Semantics::denormals`] (`shaderDenormFlushToZeroFloat32` or
    /// `shaderDenormPreserveFloat32`): the SPIR-V back ends then request it
    /// (`SPV_KHR_float_controls`, [`super::float_controls`]). Default false: nothing is
    /// requested and the driver's own behaviour applies (flushing, on D3D10+ hardware
    /// and lavapipe).
    pub float_controls: bool,
}

impl Default for PipelineState {
    fn default() -> Self {
        PipelineState {
            sm1_sampler_kinds: Vec::new(),
            projected: Vec::new(),
            alpha_test: CompareFunc::Always,
            fog: FogMode::None,
            fog_depth: FogDepth::Z,
            clip_planes: 0,
            point_size_builtin: false,
            point_expansion: false,
            point_sprites: false,
            flat_shading: false,
            vpos_half_pixel: true,
            vface_front_positive: true,
            position_fixup: true,
            float_controls: false,
        }
    }
}

/// Everything that selects the code a translator (`d3dbc-naga`, `d3dbc-spirv`) produces.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(default, deny_unknown_fields))]
pub struct TranslateOptions {
    /// Device semantics, shared with the CPU executor.
    pub semantics: Semantics,
    /// Pipeline state outside the shader.
    pub pipeline: PipelineState,
}

impl PipelineState {
    /// The texture kind bound to SM1 stage `stage`.
    pub fn sm1_kind(&self, stage: usize) -> TextureKind {
        self.sm1_sampler_kinds
            .get(stage)
            .copied()
            .unwrap_or_default()
    }

    /// The projection component count of stage `stage` (0 = none).
    pub fn projection(&self, stage: usize) -> u8 {
        self.projected.get(stage).copied().unwrap_or(0)
    }
}
