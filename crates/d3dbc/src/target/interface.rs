//! The interface of a translated shader, the same from every back end (`d3dbc-naga`,
//! `d3dbc-spirv`) so that a host switches back ends without touching its pipeline layout: where the host binds constants, textures,
//! samplers and the driver uniforms, which vertex input location holds which
//! `(usage, index)`, and the one fixed varying map that lets any vertex shader link with
//! any pixel shader of any version.
//!
//! Everything lives in bind group 0. Binding numbers are fixed per stage so that a
//! vertex and a pixel shader can share one bind group layout.

use crate::token::DeclUsage;

use super::options::TextureKind;

/// The bind group of every resource.
pub const GROUP: u32 = 0;
/// Float constants `c#` of the vertex shader (`array<vec4<f32>, N>`).
pub const VS_FLOAT_BINDING: u32 = 0;
/// Integer constants `i#` of the vertex shader (`array<vec4<i32>, 16>`).
pub const VS_INT_BINDING: u32 = 1;
/// Boolean constants `b#` of the vertex shader (`array<vec4<u32>, 16>`, value in `.x`).
pub const VS_BOOL_BINDING: u32 = 2;
/// Float constants of the pixel shader.
pub const PS_FLOAT_BINDING: u32 = 3;
/// Integer constants of the pixel shader.
pub const PS_INT_BINDING: u32 = 4;
/// Boolean constants of the pixel shader.
pub const PS_BOOL_BINDING: u32 = 5;
/// The driver uniforms (`array<vec4<f32>, DRIVER_VEC4S>`), shared by both stages.
pub const DRIVER_BINDING: u32 = 6;
/// Pixel sampler `s#`: texture at `PS_TEXTURE_BASE + 2·#`, sampler at `+ 1`.
pub const PS_TEXTURE_BASE: u32 = 16;
/// Vertex sampler `s#` (vs_3_0): texture at `VS_TEXTURE_BASE + 2·#`, sampler at `+ 1`
/// (after the pixel samplers' bindings).
pub const VS_TEXTURE_BASE: u32 = PS_TEXTURE_BASE + 2 * crate::regs::MAX_SAMPLERS as u32;
/// Integer and boolean constant registers per stage.
pub const INT_CONSTANTS: u32 = crate::regs::MAX_INT_CONSTANTS as u32;
/// The most float constant registers a stage's uniform array holds (64 KiB, the
/// uniform-buffer size every Vulkan and WebGPU device allows); a `vs_3_sw` reading
/// further reads 0.
pub const MAX_FLOAT_CONSTANTS: u32 = 4096;

/// The varyings every vertex shader below 3.0 has, in output order: `oT0`–`oT7`,
/// `oD0`–`oD1`, `oFog` (a vs_3_0 declares its own, which follow these in the
/// unlinked output, and a pixel shader of any version may read any of them).
pub const FIXED_VARYINGS: [(DeclUsage, u8); 11] = [
    (DeclUsage::TexCoord, 0),
    (DeclUsage::TexCoord, 1),
    (DeclUsage::TexCoord, 2),
    (DeclUsage::TexCoord, 3),
    (DeclUsage::TexCoord, 4),
    (DeclUsage::TexCoord, 5),
    (DeclUsage::TexCoord, 6),
    (DeclUsage::TexCoord, 7),
    (DeclUsage::Color, 0),
    (DeclUsage::Color, 1),
    (DeclUsage::Fog, 0),
];

/// Layout of the driver uniform buffer: vec4 indices.
pub mod driver {
    /// `xy`: added to the clip-space position times `w`; D3D9's pixel centres on a
    /// target API that samples at pixel + 0.5 (y down in the window): `(1/width,
    /// −1/height)`. `zw` unused.
    pub const POS_FIXUP: u32 = 0;
    /// `x`: alpha-test reference in [0, 1].
    pub const ALPHA_REF: u32 = 1;
    /// `x`: fog start, `y`: fog end, `z`: fog density.
    pub const FOG_PARAMS: u32 = 2;
    /// `rgb`: fog colour.
    pub const FOG_COLOR: u32 = 3;
    /// Texture stages with a bump-environment matrix and luminance: one per ps_1_x
    /// texture register.
    pub const BUMP_STAGES: u32 = crate::regs::MAX_TEXTURES as u32;
    /// Stage `n`'s bump-environment matrix at `BUMP_MAT + n`: (M00, M01, M10, M11).
    pub const BUMP_MAT: u32 = 4;
    /// Stage `n`'s luminance at `BUMP_LUM + n`: (LSCALE, LOFFSET, 0, 0).
    pub const BUMP_LUM: u32 = BUMP_MAT + BUMP_STAGES;
    /// User clip planes the layout holds (D3D9 has 6; the two more cost nothing).
    pub const CLIP_PLANES: u32 = 8;
    /// Clip plane `n` at `CLIP_PLANE + n`.
    pub const CLIP_PLANE: u32 = BUMP_LUM + BUMP_STAGES;
    /// Point size (with point expansion): `x` the size when the vertex shader writes no
    /// positive `oPts`, `y` the minimum, `z` the maximum (pixels).
    pub const POINT_SIZE: u32 = CLIP_PLANE + CLIP_PLANES;
    /// Point expansion: `xy` the clip-space extent of one pixel divided by `w`,
    /// `(2/width, −2/height)` for a y-up clip space and a y-down window.
    pub const POINT_EXTENT: u32 = POINT_SIZE + 1;
    /// Size of the buffer in vec4s.
    pub const VEC4S: u32 = POINT_EXTENT + 1;

    // The layout hosts bind against: derived, but fixed.
    const _: () = assert!(BUMP_LUM == 12 && CLIP_PLANE == 20 && POINT_SIZE == 28 && VEC4S == 30);
}

/// Varying location of `(usage, index)` in the fixed map, shared by every vertex and
/// pixel shader: TEXCOORD0–7 → 0–7, COLOR0–1 → 8–9, FOG → 10, NORMAL0 → 11,
/// TANGENT0 → 12, BINORMAL0 → 13, POSITION (as a varying) → 14, PSIZE → 15; any
/// other pair → `16 + 16·usage + index`.
pub fn varying_location(usage: DeclUsage, index: u8) -> u32 {
    use DeclUsage::*;
    match (usage, index) {
        (TexCoord, i) if i < 8 => i as u32,
        (Color, i) if i < 2 => 8 + i as u32,
        (Fog, 0) => 10,
        (Normal, 0) => 11,
        (Tangent, 0) => 12,
        (Binormal, 0) => 13,
        (Position, 0) => 14,
        (PSize, 0) => 15,
        (u, i) => 16 + 16 * u as u32 + (i as u32 & 15),
    }
}

/// The `(usage, index)` a fixed-map location stands for: the inverse of
/// [`varying_location`] (`None` for a location no pair maps to).
pub fn varying_at(location: u32) -> Option<(DeclUsage, u8)> {
    use DeclUsage::*;
    let pair = match location {
        0..=7 => (TexCoord, location as u8),
        8 | 9 => (Color, location as u8 - 8),
        10 => (Fog, 0),
        11 => (Normal, 0),
        12 => (Tangent, 0),
        13 => (Binormal, 0),
        14 => (Position, 0),
        15 => (PSize, 0),
        l => {
            let u = DeclUsage::from_u8(u8::try_from((l - 16) / 16).ok()?)?;
            (u, ((l - 16) % 16) as u8)
        }
    };
    (varying_location(pair.0, pair.1) == location).then_some(pair)
}

/// Which pipeline stage.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Stage {
    /// Vertex shader.
    Vertex,
    /// Pixel (fragment) shader.
    Fragment,
}

/// A uniform array of constant registers.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct ConstantBuffer {
    /// Binding in [`GROUP`].
    pub binding: u32,
    /// Number of vec4 registers in the array (16 bytes each).
    pub registers: u32,
}

/// A texture + sampler pair for one `s#` (or SM1 stage).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct SamplerBinding {
    /// The sampler register / texture stage.
    pub stage: u32,
    /// Texture kind the shader samples.
    pub kind: TextureKind,
    /// Binding of the texture (float, filterable).
    pub texture_binding: u32,
    /// Binding of the sampler.
    pub sampler_binding: u32,
}

/// One vertex shader input.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct VertexInput {
    /// Declared usage (`None` for vs_1_x registers read without `dcl`).
    pub usage: Option<DeclUsage>,
    /// Usage index.
    pub usage_index: u8,
    /// Input register `v#`.
    pub register: u16,
    /// Shader location (= the register number).
    pub location: u32,
}

/// One varying (vertex output or pixel input) in the fixed map.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Varying {
    /// Usage.
    pub usage: DeclUsage,
    /// Usage index.
    pub usage_index: u8,
    /// Location ([`varying_location`]).
    pub location: u32,
    /// Flat interpolation.
    pub flat: bool,
    /// Centroid sampling.
    pub centroid: bool,
}

/// The interface of one translated shader.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Interface {
    /// Vertex or fragment.
    pub stage: Stage,
    /// The D3D9 version, e.g. `ps_2_0`.
    pub version: String,
    /// Entry point name in the module.
    pub entry_point: String,
    /// Bind group of every resource.
    pub group: u32,
    /// Float constants `c#`, if read.
    pub float_constants: Option<ConstantBuffer>,
    /// Integer constants `i#`, if read.
    pub int_constants: Option<ConstantBuffer>,
    /// Boolean constants `b#`, if read.
    pub bool_constants: Option<ConstantBuffer>,
    /// The driver uniform buffer (layout in [`driver`]), if read.
    pub driver: Option<ConstantBuffer>,
    /// Texture and sampler bindings.
    pub samplers: Vec<SamplerBinding>,
    /// Vertex inputs (vertex shaders).
    pub vertex_inputs: Vec<VertexInput>,
    /// Varyings: outputs of a vertex shader, inputs of a pixel shader.
    pub varyings: Vec<Varying>,
    /// Colour outputs `oC#` (location = index) of a pixel shader.
    pub color_outputs: Vec<u32>,
    /// Writes `oDepth`.
    pub depth_output: bool,
    /// Discards fragments (`texkill`, alpha test).
    pub discards: bool,
    /// The varyings were moved from the fixed map to compact locations by
    /// `link` (d3dbc-naga, d3dbc-spirv): the shader only works with the one it was linked to.
    pub linked: bool,
}

impl Interface {
    /// The interface of a `version` shader before a back end has recorded anything: its
    /// stage, version and the `main` entry point in [`GROUP`], no resources, inputs or
    /// outputs. Both back ends start from here.
    pub fn empty(version: crate::Version) -> Interface {
        let mut i = Interface::unnamed(version);
        i.name(version);
        i
    }

    /// [`Interface::empty`] with its two strings (`version`, `entry_point`) left empty,
    /// nothing allocated: for a back end whose caller may take the words alone, which
    /// names the interface ([`Interface::name`]) only when it hands it out.
    pub fn unnamed(version: crate::Version) -> Interface {
        Interface {
            stage: if version.is_pixel() {
                Stage::Fragment
            } else {
                Stage::Vertex
            },
            version: String::new(),
            entry_point: String::new(),
            group: GROUP,
            float_constants: None,
            int_constants: None,
            bool_constants: None,
            driver: None,
            samplers: Vec::new(),
            vertex_inputs: Vec::new(),
            varyings: Vec::new(),
            color_outputs: Vec::new(),
            depth_output: false,
            discards: false,
            linked: false,
        }
    }

    /// This interface made [`Interface::unnamed`] for `version` in place, its vectors
    /// and strings emptied with their capacity kept: a back end that translates many
    /// shaders and hands out only the words records every shader's interface in the
    /// same buffers (every field is named, so a new one cannot be missed).
    pub fn reset(&mut self, version: crate::Version) {
        let Interface {
            stage,
            version: name,
            entry_point,
            group,
            float_constants,
            int_constants,
            bool_constants,
            driver,
            samplers,
            vertex_inputs,
            varyings,
            color_outputs,
            depth_output,
            discards,
            linked,
        } = self;
        *stage = if version.is_pixel() {
            Stage::Fragment
        } else {
            Stage::Vertex
        };
        name.clear();
        entry_point.clear();
        *group = GROUP;
        *float_constants = None;
        *int_constants = None;
        *bool_constants = None;
        *driver = None;
        samplers.clear();
        vertex_inputs.clear();
        varyings.clear();
        color_outputs.clear();
        *depth_output = false;
        *discards = false;
        *linked = false;
    }

    /// Names an [`Interface::unnamed`] one: the version's name and the `main` entry
    /// point, as [`Interface::empty`] has them.
    pub fn name(&mut self, version: crate::Version) {
        self.version = version.name();
        self.entry_point = "main".into();
    }
}

/// Registers of the HLSL output (`d3dbc-naga`): the bindings a Direct3D 11 or 12 host
/// uses, stated in [`Interface::hlsl`]. Registers are per stage, so both stages use the
/// same numbers: the constant blocks are `cbuffer`s at `register(bN)`, sampler stage
/// `s#` is `Texture… t# : register(t#)` plus `SamplerState s# : register(s#)`.
pub mod hlsl {
    /// `cbuffer` of the float constants `c#`: `register(b0)`.
    pub const FLOAT_CONSTANTS: u32 = 0;
    /// `cbuffer` of the integer constants `i#`: `register(b1)`.
    pub const INT_CONSTANTS: u32 = 1;
    /// `cbuffer` of the boolean constants `b#`: `register(b2)`.
    pub const BOOL_CONSTANTS: u32 = 2;
    /// `cbuffer` of the driver uniforms ([`super::driver`]): `register(b3)`.
    pub const DRIVER: u32 = 3;
    /// Shader model 6.0 (naga's layout, `--hlsl-model 6_0`): every sampler is read from
    /// the heap `SamplerState nagaSamplerHeap[2048] : register(s0, space0)` at the index
    /// the host stores, per sampler stage `s#`, at element `#` of
    /// `StructuredBuffer<uint> nagaGroup0SamplerIndexArray : register(t0, space255)`.
    pub const SAMPLER_HEAP: &str = "s0, space0";
    /// Where the sampler index buffer of the 6.0 layout lives ([`SAMPLER_HEAP`]).
    pub const SAMPLER_INDEX_BUFFER: &str = "t0, space255";
}

/// Which HLSL the HLSL target writes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum HlslModel {
    /// Shader model 5.0 with static bindings (`register(tN)`, `register(sN)`,
    /// `register(bN)`; [`hlsl`]): what fxc, `D3DCompile` for Direct3D 11 and
    /// vkd3d-compiler (`-b dxbc-tpf -p ps_5_0`) accept. The default.
    #[default]
    #[cfg_attr(feature = "serde", serde(rename = "5_0"))]
    Sm5_0,
    /// Shader model 6.0 in naga's own layout for Direct3D 12 (wgpu's): samplers come
    /// from a descriptor heap through an index buffer ([`hlsl::SAMPLER_HEAP`]), which
    /// shader model 5 compilers reject.
    #[cfg_attr(feature = "serde", serde(rename = "6_0"))]
    Sm6_0,
}

impl HlslModel {
    /// `5_0` or `6_0`, as `--hlsl-model` spells it.
    pub fn as_str(self) -> &'static str {
        match self {
            HlslModel::Sm5_0 => "5_0",
            HlslModel::Sm6_0 => "6_0",
        }
    }
}

impl std::fmt::Display for HlslModel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::str::FromStr for HlslModel {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "5_0" | "5.0" => Ok(HlslModel::Sm5_0),
            "6_0" | "6.0" => Ok(HlslModel::Sm6_0),
            _ => Err(format!(
                "unknown HLSL model `{s}` (5_0: static bindings for shader model 5 \
                 compilers; 6_0: naga's sampler-heap layout for Direct3D 12)"
            )),
        }
    }
}

/// The registers of one shader's HLSL ([`Interface::hlsl`]): `"b0"`, `"t3"`, … as the
/// `register(…)` clauses spell them.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct HlslBindings {
    /// The model the registers are for.
    pub model: HlslModel,
    /// The float constants' `cbuffer`, if read.
    pub float_constants: Option<String>,
    /// The integer constants' `cbuffer`, if read.
    pub int_constants: Option<String>,
    /// The boolean constants' `cbuffer`, if read.
    pub bool_constants: Option<String>,
    /// The driver uniforms' `cbuffer`, if read.
    pub driver: Option<String>,
    /// One per sampler stage read.
    pub samplers: Vec<HlslSampler>,
    /// Shader model 6.0 only: where the sampler heap is bound.
    pub sampler_heap: Option<String>,
    /// Shader model 6.0 only: where the sampler index buffer is bound.
    pub sampler_index_buffer: Option<String>,
}

/// The texture and sampler registers of one sampler stage in HLSL.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct HlslSampler {
    /// The sampler register / texture stage.
    pub stage: u32,
    /// The texture's register (`t#`).
    pub texture: String,
    /// Shader model 5.0: the sampler's register (`s#`). Shader model 6.0: the element
    /// of the sampler index buffer that holds its heap index (`"index 3"`).
    pub sampler: String,
}

impl Interface {
    /// The registers this shader's HLSL (of `model`) binds, from the resources it reads.
    pub fn hlsl(&self, model: HlslModel) -> HlslBindings {
        let cb = |c: &Option<ConstantBuffer>, r: u32| c.as_ref().map(|_| format!("b{r}"));
        let heap = model == HlslModel::Sm6_0;
        HlslBindings {
            model,
            float_constants: cb(&self.float_constants, hlsl::FLOAT_CONSTANTS),
            int_constants: cb(&self.int_constants, hlsl::INT_CONSTANTS),
            bool_constants: cb(&self.bool_constants, hlsl::BOOL_CONSTANTS),
            driver: cb(&self.driver, hlsl::DRIVER),
            samplers: self
                .samplers
                .iter()
                .map(|s| HlslSampler {
                    stage: s.stage,
                    texture: format!("t{}", s.stage),
                    sampler: if heap {
                        format!("index {}", s.stage)
                    } else {
                        format!("s{}", s.stage)
                    },
                })
                .collect(),
            sampler_heap: (heap && !self.samplers.is_empty()).then(|| hlsl::SAMPLER_HEAP.into()),
            sampler_index_buffer: (heap && !self.samplers.is_empty())
                .then(|| hlsl::SAMPLER_INDEX_BUFFER.into()),
        }
    }
}
