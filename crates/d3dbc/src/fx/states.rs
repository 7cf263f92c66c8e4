//! The D3DX effect state table: what each `operation` number of an fx_2_0 state
//! assignment sets, with the name Direct3D gives it (`D3DRS_ZENABLE`, `D3DTSS_COLOROP`,
//! `D3DSAMP_MINFILTER`, `LightDiffuse`, `VertexShaderConstantF`, …).
//!
//! The order is the one D3DX numbers states by (render states, texture-stage states,
//! NPatch mode, FVF, transforms, material, light, light enable, shaders, shader
//! constants, texture, sampler states, sampler); the enumeration values are Direct3D
//! 9's (`d3d9types.h`).

/// What a state assignment sets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum StateClass {
    /// `SetRenderState(value, …)`.
    RenderState,
    /// `SetTextureStageState(index, value, …)`.
    TextureStage,
    /// `SetNPatchMode`.
    NPatchMode,
    /// `SetFVF`.
    Fvf,
    /// `SetTransform(value (+ index for textures/world matrices), …)`.
    Transform,
    /// A field of the material (`value`: diffuse, ambient, specular, emissive, power).
    Material,
    /// A field of light `index` (`value`: the field).
    Light,
    /// `LightEnable(index, …)`.
    LightEnable,
    /// `SetVertexShader`.
    VertexShader,
    /// `SetPixelShader`.
    PixelShader,
    /// Shader constants starting at register `index`.
    ShaderConst,
    /// `SetTexture(index, …)`.
    Texture,
    /// `SetSamplerState(index, value, …)`.
    SamplerState,
    /// A sampler object bound to stage `index`.
    Sampler,
}

/// Which shader constant a [`StateClass::ShaderConst`] state sets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConstKind {
    /// `SetVertexShaderConstantF`.
    VsFloat,
    /// `SetVertexShaderConstantB`.
    VsBool,
    /// `SetVertexShaderConstantI`.
    VsInt,
    /// `SetPixelShaderConstantF`.
    PsFloat,
    /// `SetPixelShaderConstantB`.
    PsBool,
    /// `SetPixelShaderConstantI`.
    PsInt,
}

/// One entry of the table.
#[derive(Clone, Copy, Debug)]
pub struct StateInfo {
    /// The state's name as D3D spells it.
    pub name: &'static str,
    /// What it sets.
    pub class: StateClass,
    /// The D3D enumeration value (`D3DRS_*`, `D3DTSS_*`, `D3DSAMP_*`, `D3DTS_*`, the
    /// material/light field, or the constant kind's index).
    pub value: u32,
}

macro_rules! table {
    ($($class:ident $value:literal $name:literal),* $(,)?) => {
        /// Every state D3DX knows, indexed by the `operation` of a state assignment.
        pub static STATES: &[StateInfo] = &[
            $(StateInfo { name: $name, class: StateClass::$class, value: $value }),*
        ];
    };
}

table! {
    RenderState 7 "D3DRS_ZENABLE", RenderState 8 "D3DRS_FILLMODE", RenderState 9 "D3DRS_SHADEMODE",
    RenderState 14 "D3DRS_ZWRITEENABLE", RenderState 15 "D3DRS_ALPHATESTENABLE",
    RenderState 16 "D3DRS_LASTPIXEL", RenderState 19 "D3DRS_SRCBLEND", RenderState 20 "D3DRS_DESTBLEND",
    RenderState 22 "D3DRS_CULLMODE", RenderState 23 "D3DRS_ZFUNC", RenderState 24 "D3DRS_ALPHAREF",
    RenderState 25 "D3DRS_ALPHAFUNC", RenderState 26 "D3DRS_DITHERENABLE",
    RenderState 27 "D3DRS_ALPHABLENDENABLE", RenderState 28 "D3DRS_FOGENABLE",
    RenderState 29 "D3DRS_SPECULARENABLE", RenderState 34 "D3DRS_FOGCOLOR",
    RenderState 35 "D3DRS_FOGTABLEMODE", RenderState 36 "D3DRS_FOGSTART", RenderState 37 "D3DRS_FOGEND",
    RenderState 38 "D3DRS_FOGDENSITY", RenderState 48 "D3DRS_RANGEFOGENABLE",
    RenderState 52 "D3DRS_STENCILENABLE", RenderState 53 "D3DRS_STENCILFAIL",
    RenderState 54 "D3DRS_STENCILZFAIL", RenderState 55 "D3DRS_STENCILPASS",
    RenderState 56 "D3DRS_STENCILFUNC", RenderState 57 "D3DRS_STENCILREF",
    RenderState 58 "D3DRS_STENCILMASK", RenderState 59 "D3DRS_STENCILWRITEMASK",
    RenderState 60 "D3DRS_TEXTUREFACTOR", RenderState 128 "D3DRS_WRAP0", RenderState 129 "D3DRS_WRAP1",
    RenderState 130 "D3DRS_WRAP2", RenderState 131 "D3DRS_WRAP3", RenderState 132 "D3DRS_WRAP4",
    RenderState 133 "D3DRS_WRAP5", RenderState 134 "D3DRS_WRAP6", RenderState 135 "D3DRS_WRAP7",
    RenderState 198 "D3DRS_WRAP8", RenderState 199 "D3DRS_WRAP9", RenderState 200 "D3DRS_WRAP10",
    RenderState 201 "D3DRS_WRAP11", RenderState 202 "D3DRS_WRAP12", RenderState 203 "D3DRS_WRAP13",
    RenderState 204 "D3DRS_WRAP14", RenderState 205 "D3DRS_WRAP15", RenderState 136 "D3DRS_CLIPPING",
    RenderState 137 "D3DRS_LIGHTING", RenderState 139 "D3DRS_AMBIENT",
    RenderState 140 "D3DRS_FOGVERTEXMODE", RenderState 141 "D3DRS_COLORVERTEX",
    RenderState 142 "D3DRS_LOCALVIEWER", RenderState 143 "D3DRS_NORMALIZENORMALS",
    RenderState 145 "D3DRS_DIFFUSEMATERIALSOURCE", RenderState 146 "D3DRS_SPECULARMATERIALSOURCE",
    RenderState 147 "D3DRS_AMBIENTMATERIALSOURCE", RenderState 148 "D3DRS_EMISSIVEMATERIALSOURCE",
    RenderState 151 "D3DRS_VERTEXBLEND", RenderState 152 "D3DRS_CLIPPLANEENABLE",
    RenderState 154 "D3DRS_POINTSIZE", RenderState 155 "D3DRS_POINTSIZE_MIN",
    RenderState 166 "D3DRS_POINTSIZE_MAX", RenderState 156 "D3DRS_POINTSPRITEENABLE",
    RenderState 157 "D3DRS_POINTSCALEENABLE", RenderState 158 "D3DRS_POINTSCALE_A",
    RenderState 159 "D3DRS_POINTSCALE_B", RenderState 160 "D3DRS_POINTSCALE_C",
    RenderState 161 "D3DRS_MULTISAMPLEANTIALIAS", RenderState 162 "D3DRS_MULTISAMPLEMASK",
    RenderState 163 "D3DRS_PATCHEDGESTYLE", RenderState 165 "D3DRS_DEBUGMONITORTOKEN",
    RenderState 167 "D3DRS_INDEXEDVERTEXBLENDENABLE", RenderState 168 "D3DRS_COLORWRITEENABLE",
    RenderState 170 "D3DRS_TWEENFACTOR", RenderState 171 "D3DRS_BLENDOP",
    RenderState 172 "D3DRS_POSITIONDEGREE", RenderState 173 "D3DRS_NORMALDEGREE",
    RenderState 174 "D3DRS_SCISSORTESTENABLE", RenderState 175 "D3DRS_SLOPESCALEDEPTHBIAS",
    RenderState 176 "D3DRS_ANTIALIASEDLINEENABLE", RenderState 178 "D3DRS_MINTESSELLATIONLEVEL",
    RenderState 179 "D3DRS_MAXTESSELLATIONLEVEL", RenderState 180 "D3DRS_ADAPTIVETESS_X",
    RenderState 181 "D3DRS_ADAPTIVETESS_Y", RenderState 182 "D3DRS_ADAPTIVETESS_Z",
    RenderState 183 "D3DRS_ADAPTIVETESS_W", RenderState 184 "D3DRS_ENABLEADAPTIVETESSELLATION",
    RenderState 185 "D3DRS_TWOSIDEDSTENCILMODE", RenderState 186 "D3DRS_CCW_STENCILFAIL",
    RenderState 187 "D3DRS_CCW_STENCILZFAIL", RenderState 188 "D3DRS_CCW_STENCILPASS",
    RenderState 189 "D3DRS_CCW_STENCILFUNC", RenderState 190 "D3DRS_COLORWRITEENABLE1",
    RenderState 191 "D3DRS_COLORWRITEENABLE2", RenderState 192 "D3DRS_COLORWRITEENABLE3",
    RenderState 193 "D3DRS_BLENDFACTOR", RenderState 194 "D3DRS_SRGBWRITEENABLE",
    RenderState 195 "D3DRS_DEPTHBIAS", RenderState 206 "D3DRS_SEPARATEALPHABLENDENABLE",
    RenderState 207 "D3DRS_SRCBLENDALPHA", RenderState 208 "D3DRS_DESTBLENDALPHA",
    RenderState 209 "D3DRS_BLENDOPALPHA",
    TextureStage 1 "D3DTSS_COLOROP", TextureStage 26 "D3DTSS_COLORARG0",
    TextureStage 2 "D3DTSS_COLORARG1", TextureStage 3 "D3DTSS_COLORARG2",
    TextureStage 4 "D3DTSS_ALPHAOP", TextureStage 27 "D3DTSS_ALPHAARG0",
    TextureStage 5 "D3DTSS_ALPHAARG1", TextureStage 6 "D3DTSS_ALPHAARG2",
    TextureStage 28 "D3DTSS_RESULTARG", TextureStage 7 "D3DTSS_BUMPENVMAT00",
    TextureStage 8 "D3DTSS_BUMPENVMAT01", TextureStage 9 "D3DTSS_BUMPENVMAT10",
    TextureStage 10 "D3DTSS_BUMPENVMAT11", TextureStage 11 "D3DTSS_TEXCOORDINDEX",
    TextureStage 22 "D3DTSS_BUMPENVLSCALE", TextureStage 23 "D3DTSS_BUMPENVLOFFSET",
    TextureStage 24 "D3DTSS_TEXTURETRANSFORMFLAGS", TextureStage 32 "D3DTSS_CONSTANT",
    NPatchMode 0 "NPatchMode", Fvf 0 "FVF",
    Transform 3 "D3DTS_PROJECTION", Transform 2 "D3DTS_VIEW", Transform 256 "D3DTS_WORLD",
    Transform 16 "D3DTS_TEXTURE0",
    Material 0 "MaterialDiffuse", Material 1 "MaterialAmbient", Material 2 "MaterialSpecular",
    Material 3 "MaterialEmissive", Material 4 "MaterialPower",
    Light 0 "LightType", Light 1 "LightDiffuse", Light 2 "LightSpecular", Light 3 "LightAmbient",
    Light 4 "LightPosition", Light 5 "LightDirection", Light 6 "LightRange", Light 7 "LightFallOff",
    Light 8 "LightAttenuation0", Light 9 "LightAttenuation1", Light 10 "LightAttenuation2",
    Light 11 "LightTheta", Light 12 "LightPhi",
    LightEnable 0 "LightEnable", VertexShader 0 "VertexShader", PixelShader 0 "PixelShader",
    ShaderConst 0 "VertexShaderConstantF", ShaderConst 1 "VertexShaderConstantB",
    ShaderConst 2 "VertexShaderConstantI", ShaderConst 0 "VertexShaderConstant",
    ShaderConst 0 "VertexShaderConstant1", ShaderConst 0 "VertexShaderConstant2",
    ShaderConst 0 "VertexShaderConstant3", ShaderConst 0 "VertexShaderConstant4",
    ShaderConst 3 "PixelShaderConstantF", ShaderConst 4 "PixelShaderConstantB",
    ShaderConst 5 "PixelShaderConstantI", ShaderConst 3 "PixelShaderConstant",
    ShaderConst 3 "PixelShaderConstant1", ShaderConst 3 "PixelShaderConstant2",
    ShaderConst 3 "PixelShaderConstant3", ShaderConst 3 "PixelShaderConstant4",
    Texture 0 "Texture",
    SamplerState 1 "D3DSAMP_ADDRESSU", SamplerState 2 "D3DSAMP_ADDRESSV",
    SamplerState 3 "D3DSAMP_ADDRESSW", SamplerState 4 "D3DSAMP_BORDERCOLOR",
    SamplerState 5 "D3DSAMP_MAGFILTER", SamplerState 6 "D3DSAMP_MINFILTER",
    SamplerState 7 "D3DSAMP_MIPFILTER", SamplerState 8 "D3DSAMP_MIPMAPLODBIAS",
    SamplerState 9 "D3DSAMP_MAXMIPLEVEL", SamplerState 10 "D3DSAMP_MAXANISOTROPY",
    SamplerState 11 "D3DSAMP_SRGBTEXTURE", SamplerState 12 "D3DSAMP_ELEMENTINDEX",
    SamplerState 13 "D3DSAMP_DMAPOFFSET",
    Sampler 0 "Sampler",
}

/// The name each state of [`STATES`] has in effect source (what fxc's HLSL and its
/// listings call it: `ZEnable`, `AlphaBlendEnable`, `MinFilter`, `VertexShader`), by
/// operation.
static EFFECT_NAMES: [&str; 179] = [
    "ZEnable",
    "FillMode",
    "ShadeMode",
    "ZWriteEnable",
    "AlphaTestEnable",
    "LastPixel",
    "SrcBlend",
    "DestBlend",
    "CullMode",
    "ZFunc",
    "AlphaRef",
    "AlphaFunc",
    "DitherEnable",
    "AlphaBlendEnable",
    "FogEnable",
    "SpecularEnable",
    "FogColor",
    "FogTableMode",
    "FogStart",
    "FogEnd",
    "FogDensity",
    "RangeFogEnable",
    "StencilEnable",
    "StencilFail",
    "StencilZFail",
    "StencilPass",
    "StencilFunc",
    "StencilRef",
    "StencilMask",
    "StencilWriteMask",
    "TextureFactor",
    "Wrap0",
    "Wrap1",
    "Wrap2",
    "Wrap3",
    "Wrap4",
    "Wrap5",
    "Wrap6",
    "Wrap7",
    "Wrap8",
    "Wrap9",
    "Wrap10",
    "Wrap11",
    "Wrap12",
    "Wrap13",
    "Wrap14",
    "Wrap15",
    "Clipping",
    "Lighting",
    "Ambient",
    "FogVertexMode",
    "ColorVertex",
    "LocalViewer",
    "NormalizeNormals",
    "DiffuseMaterialSource",
    "SpecularMaterialSource",
    "AmbientMaterialSource",
    "EmissiveMaterialSource",
    "VertexBlend",
    "ClipPlaneEnable",
    "PointSize",
    "PointSize_Min",
    "PointSize_Max",
    "PointSpriteEnable",
    "PointScaleEnable",
    "PointScale_A",
    "PointScale_B",
    "PointScale_C",
    "MultiSampleAntialias",
    "MultiSampleMask",
    "PatchEdgeStyle",
    "DebugMonitorToken",
    "IndexedVertexBlendEnable",
    "ColorWriteEnable",
    "TweenFactor",
    "BlendOp",
    "PositionDegree",
    "NormalDegree",
    "ScissorTestEnable",
    "SlopeScaleDepthBias",
    "AntialiasedLineEnable",
    "MinTessellationLevel",
    "MaxTessellationLevel",
    "AdaptiveTess_X",
    "AdaptiveTess_Y",
    "AdaptiveTess_Z",
    "AdaptiveTess_W",
    "EnableAdaptiveTessellation",
    "TwoSidedStencilMode",
    "CCW_StencilFail",
    "CCW_StencilZFail",
    "CCW_StencilPass",
    "CCW_StencilFunc",
    "ColorWriteEnable1",
    "ColorWriteEnable2",
    "ColorWriteEnable3",
    "BlendFactor",
    "SRGBWriteEnable",
    "DepthBias",
    "SeparateAlphaBlendEnable",
    "SrcBlendAlpha",
    "DestBlendAlpha",
    "BlendOpAlpha",
    "ColorOp",
    "ColorArg0",
    "ColorArg1",
    "ColorArg2",
    "AlphaOp",
    "AlphaArg0",
    "AlphaArg1",
    "AlphaArg2",
    "ResultArg",
    "BumpEnvMat00",
    "BumpEnvMat01",
    "BumpEnvMat10",
    "BumpEnvMat11",
    "TexCoordIndex",
    "BumpEnvLScale",
    "BumpEnvLOffset",
    "TextureTransformFlags",
    "Constant",
    "NPatchMode",
    "FVF",
    "ProjectionTransform",
    "ViewTransform",
    "WorldTransform",
    "TextureTransform",
    "MaterialDiffuse",
    "MaterialAmbient",
    "MaterialSpecular",
    "MaterialEmissive",
    "MaterialPower",
    "LightType",
    "LightDiffuse",
    "LightSpecular",
    "LightAmbient",
    "LightPosition",
    "LightDirection",
    "LightRange",
    "LightFallOff",
    "LightAttenuation0",
    "LightAttenuation1",
    "LightAttenuation2",
    "LightTheta",
    "LightPhi",
    "LightEnable",
    "VertexShader",
    "PixelShader",
    "VertexShaderConstantF",
    "VertexShaderConstantB",
    "VertexShaderConstantI",
    "VertexShaderConstant",
    "VertexShaderConstant1",
    "VertexShaderConstant2",
    "VertexShaderConstant3",
    "VertexShaderConstant4",
    "PixelShaderConstantF",
    "PixelShaderConstantB",
    "PixelShaderConstantI",
    "PixelShaderConstant",
    "PixelShaderConstant1",
    "PixelShaderConstant2",
    "PixelShaderConstant3",
    "PixelShaderConstant4",
    "Texture",
    "AddressU",
    "AddressV",
    "AddressW",
    "BorderColor",
    "MagFilter",
    "MinFilter",
    "MipFilter",
    "MipMapLodBias",
    "MaxMipLevel",
    "MaxAnisotropy",
    "SRGBTexture",
    "ElementIndex",
    "DMapOffset",
    "Sampler",
];

impl StateInfo {
    /// The state's name in effect source (`ZEnable`, `CullMode`, `AddressU`, `ColorOp`,
    /// `VertexShaderConstantF`), as fxc spells it.
    pub fn effect_name(&self) -> &'static str {
        let i = STATES
            .iter()
            .position(|s| std::ptr::eq(s, self))
            .unwrap_or(usize::MAX);
        EFFECT_NAMES.get(i).copied().unwrap_or(self.name)
    }

    /// Whether the state's value is a boolean (`AlphaBlendEnable`, `Lighting`,
    /// `LightEnable`, …; `ZEnable`, which may be `USEW`, and the colour-write masks are
    /// not).
    pub fn is_bool(&self) -> bool {
        let n = self.name;
        (n.contains("ENABLE") && !n.starts_with("D3DRS_COLORWRITEENABLE") && n != "D3DRS_ZENABLE")
            || matches!(
                n,
                "D3DRS_LASTPIXEL"
                    | "D3DRS_CLIPPING"
                    | "D3DRS_LIGHTING"
                    | "D3DRS_COLORVERTEX"
                    | "D3DRS_LOCALVIEWER"
                    | "D3DRS_NORMALIZENORMALS"
                    | "D3DRS_MULTISAMPLEANTIALIAS"
                    | "D3DRS_TWOSIDEDSTENCILMODE"
                    | "D3DSAMP_SRGBTEXTURE"
                    | "LightEnable"
            )
    }

    /// The D3D name of enumeration value `v` of this state, as effect source spells it
    /// (`D3DBLEND_SRCALPHA` → `SRCALPHA`, `D3DCMP_LESSEQUAL` → `LESSEQUAL`,
    /// `D3DTEXF_LINEAR` → `LINEAR`, `D3DTOP_MODULATE` → `MODULATE`); `None` for states
    /// that are not enumerations, or values outside the enumeration.
    pub fn value_name(&self, v: u32) -> Option<&'static str> {
        const BLEND: [&str; 15] = [
            "ZERO",
            "ONE",
            "SRCCOLOR",
            "INVSRCCOLOR",
            "SRCALPHA",
            "INVSRCALPHA",
            "DESTALPHA",
            "INVDESTALPHA",
            "DESTCOLOR",
            "INVDESTCOLOR",
            "SRCALPHASAT",
            "BOTHSRCALPHA",
            "BOTHINVSRCALPHA",
            "BLENDFACTOR",
            "INVBLENDFACTOR",
        ];
        const CMP: [&str; 8] = [
            "NEVER",
            "LESS",
            "EQUAL",
            "LESSEQUAL",
            "GREATER",
            "NOTEQUAL",
            "GREATEREQUAL",
            "ALWAYS",
        ];
        const BLENDOP: [&str; 5] = ["ADD", "SUBTRACT", "REVSUBTRACT", "MIN", "MAX"];
        const STENCILOP: [&str; 8] = [
            "KEEP", "ZERO", "REPLACE", "INCRSAT", "DECRSAT", "INVERT", "INCR", "DECR",
        ];
        const CULL: [&str; 3] = ["NONE", "CW", "CCW"];
        const FILL: [&str; 3] = ["POINT", "WIREFRAME", "SOLID"];
        const SHADE: [&str; 3] = ["FLAT", "GOURAUD", "PHONG"];
        const FOG: [&str; 4] = ["NONE", "EXP", "EXP2", "LINEAR"];
        const ADDRESS: [&str; 5] = ["WRAP", "MIRROR", "CLAMP", "BORDER", "MIRRORONCE"];
        const FILTER: [&str; 8] = [
            "NONE",
            "POINT",
            "LINEAR",
            "ANISOTROPIC",
            "",
            "",
            "PYRAMIDALQUAD",
            "GAUSSIANQUAD",
        ];
        const TOP: [&str; 26] = [
            "DISABLE",
            "SELECTARG1",
            "SELECTARG2",
            "MODULATE",
            "MODULATE2X",
            "MODULATE4X",
            "ADD",
            "ADDSIGNED",
            "ADDSIGNED2X",
            "SUBTRACT",
            "ADDSMOOTH",
            "BLENDDIFFUSEALPHA",
            "BLENDTEXTUREALPHA",
            "BLENDFACTORALPHA",
            "BLENDTEXTUREALPHAPM",
            "BLENDCURRENTALPHA",
            "PREMODULATE",
            "MODULATEALPHA_ADDCOLOR",
            "MODULATECOLOR_ADDALPHA",
            "MODULATEINVALPHA_ADDCOLOR",
            "MODULATEINVCOLOR_ADDALPHA",
            "BUMPENVMAP",
            "BUMPENVMAPLUMINANCE",
            "DOTPRODUCT3",
            "MULTIPLYADD",
            "LERP",
        ];
        const ZB: [&str; 3] = ["FALSE", "TRUE", "USEW"];
        let (table, first): (&[&'static str], u32) = match self.name {
            "D3DRS_SRCBLEND"
            | "D3DRS_DESTBLEND"
            | "D3DRS_SRCBLENDALPHA"
            | "D3DRS_DESTBLENDALPHA" => (&BLEND, 1),
            "D3DRS_ZFUNC" | "D3DRS_ALPHAFUNC" | "D3DRS_STENCILFUNC" | "D3DRS_CCW_STENCILFUNC" => {
                (&CMP, 1)
            }
            "D3DRS_BLENDOP" | "D3DRS_BLENDOPALPHA" => (&BLENDOP, 1),
            "D3DRS_STENCILFAIL"
            | "D3DRS_STENCILZFAIL"
            | "D3DRS_STENCILPASS"
            | "D3DRS_CCW_STENCILFAIL"
            | "D3DRS_CCW_STENCILZFAIL"
            | "D3DRS_CCW_STENCILPASS" => (&STENCILOP, 1),
            "D3DRS_CULLMODE" => (&CULL, 1),
            "D3DRS_FILLMODE" => (&FILL, 1),
            "D3DRS_SHADEMODE" => (&SHADE, 1),
            "D3DRS_ZENABLE" => (&ZB, 0),
            "D3DRS_FOGTABLEMODE" | "D3DRS_FOGVERTEXMODE" => (&FOG, 0),
            "D3DSAMP_ADDRESSU" | "D3DSAMP_ADDRESSV" | "D3DSAMP_ADDRESSW" => (&ADDRESS, 1),
            "D3DSAMP_MAGFILTER" | "D3DSAMP_MINFILTER" | "D3DSAMP_MIPFILTER" => (&FILTER, 0),
            "D3DTSS_COLOROP" | "D3DTSS_ALPHAOP" => (&TOP, 1),
            _ => return None,
        };
        table
            .get(v.checked_sub(first)? as usize)
            .copied()
            .filter(|n| !n.is_empty())
    }
}

/// The table entry of `operation`, if D3DX knows it.
pub fn state_info(operation: u32) -> Option<&'static StateInfo> {
    STATES.get(operation as usize)
}

impl StateInfo {
    /// For [`StateClass::ShaderConst`]: which constants it sets.
    pub fn const_kind(&self) -> Option<ConstKind> {
        if self.class != StateClass::ShaderConst {
            return None;
        }
        Some(match self.value {
            0 => ConstKind::VsFloat,
            1 => ConstKind::VsBool,
            2 => ConstKind::VsInt,
            3 => ConstKind::PsFloat,
            4 => ConstKind::PsBool,
            _ => ConstKind::PsInt,
        })
    }
}

impl StateInfo {
    /// Whether the state's DWORD holds a float (`D3DRS_FOGSTART`, `D3DSAMP_MIPMAPLODBIAS`,
    /// `D3DTSS_BUMPENVMAT00`…); other render, sampler and texture-stage states hold an
    /// integer or enumeration value.
    pub fn is_float(&self) -> bool {
        match self.class {
            StateClass::RenderState => matches!(
                self.value,
                36..=38 | 154 | 155 | 158..=160 | 166 | 170 | 175 | 178..=183 | 195
            ),
            StateClass::SamplerState => self.value == 8,
            StateClass::TextureStage => matches!(self.value, 7..=10 | 22 | 23),
            _ => true,
        }
    }

    /// Whether the state is one DWORD set through `SetRenderState`, `SetSamplerState` or
    /// `SetTextureStageState`.
    pub fn is_dword(&self) -> bool {
        matches!(
            self.class,
            StateClass::RenderState | StateClass::SamplerState | StateClass::TextureStage
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn operation_numbers_follow_d3dx_order() {
        // Wine's effect tests name these operations by number.
        assert_eq!(STATES[0].name, "D3DRS_ZENABLE");
        assert_eq!(STATES[0x10].name, "D3DRS_FOGCOLOR");
        assert_eq!(STATES[0x30].name, "D3DRS_LIGHTING");
        assert_eq!(STATES[0x60].name, "D3DRS_BLENDFACTOR");
        assert_eq!(STATES[0x70].name, "D3DTSS_BUMPENVMAT00");
        assert_eq!(STATES[0x80].name, "MaterialAmbient");
        assert_eq!(STATES[0x90].name, "LightPhi");
        assert_eq!(STATES[0x92].name, "VertexShader");
        assert_eq!(STATES[0xa0].name, "PixelShaderConstant1");
        assert_eq!(STATES[0xb0].name, "D3DSAMP_ELEMENTINDEX");
        assert_eq!(STATES.last().unwrap().name, "Sampler");
        assert_eq!(STATES.len(), 0xb3);
        assert_eq!(EFFECT_NAMES.len(), STATES.len());
        assert_eq!(STATES[0].effect_name(), "ZEnable");
        assert_eq!(STATES[0x92].effect_name(), "VertexShader");
        assert_eq!(STATES[0xb0].effect_name(), "ElementIndex");
        assert_eq!(STATES[0x10].effect_name(), "FogColor");
    }
}
