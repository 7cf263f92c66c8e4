//! # d3dbc-naga
//!
//! Direct3D 9 shader bytecode (SM1.0–3.0) → [`naga::Module`] plus an [`Interface`]
//! (where constants, textures and varyings live), then naga's back ends: SPIR-V, WGSL,
//! GLSL 450, MSL and HLSL. Device-dependent results follow [`d3dbc::Semantics`], the
//! options struct the CPU executor reads too; state outside the shader is
//! [`PipelineState`].
//!
//! Varyings use one fixed map ([`d3dbc::target::interface::varying_location`]) so that any vertex
//! shader links with any pixel shader. A host that draws with a known pair calls
//! [`link`], as a D3D9 driver does when it builds a pipeline: the pair moves to compact
//! locations for exactly what the pixel shader reads, with the pixel inputs'
//! interpolation and sampling on the vertex outputs (rules in the `link` module docs).
//!
//! ```
//! let tokens = [0xFFFF0200, 0x0200001F, 0x80000000, 0xB00F0000,
//!               0x02000001, 0x800F0800, 0xB0E40000, 0x0000FFFF];
//! let shader = d3dbc::Shader::decode(&tokens).unwrap();
//! let t = d3dbc_naga::translate(&shader, &Default::default()).unwrap();
//! let wgsl = t.wgsl().unwrap();
//! assert!(wgsl.contains("@fragment"));
//! assert_eq!(t.interface.varyings[0].location, 0); // TEXCOORD0
//!
//! // A vs_3_0 writing COLOR2 (fixed location 178) linked to a ps_3_0 reading it.
//! use d3dbc::token::DeclUsage;
//! let asm = |t: &str| d3dbc::asm::assemble(t, &Default::default()).unwrap();
//! let vs = asm("vs_3_0\ndcl_position v0\ndcl_position o0\ndcl_color2 o1\nmov o0, v0\nmov o1, v0\n");
//! let ps = asm("ps_3_0\ndcl_color2_centroid v0\nmov oC0, v0\n");
//! let mut v = d3dbc_naga::translate(&vs, &Default::default()).unwrap();
//! let mut p = d3dbc_naga::translate(&ps, &Default::default()).unwrap();
//! let color2 = |x: &&d3dbc::target::interface::Varying| x.usage == DeclUsage::Color && x.usage_index == 2;
//! assert_eq!(v.interface.varyings.iter().find(color2).unwrap().location, 178);
//! d3dbc_naga::link(&mut v, &mut p).unwrap();
//! assert_eq!(v.interface.varyings.len(), 1);
//! assert_eq!(v.interface.varyings[0].location, 0);
//! assert!(v.interface.varyings[0].centroid);
//! ```
#![warn(missing_docs)]

mod builder;
pub mod effect;
mod hlsl;
mod link;
mod lower;

use d3dbc::target::{interface, options};
use d3dbc::Shader;
use naga::valid::{Capabilities, ModuleInfo, ValidationFlags, Validator};

pub use effect::{translate_pass, PassTranslation};
pub use interface::{HlslModel, Interface};
pub use link::link;
pub use options::{PipelineState, TextureKind, TranslateOptions};

/// Why a shader could not be translated.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// What is wrong with the shader itself (flow control, register numbers, a pair
    /// that cannot be linked): the error both back ends report
    /// ([`d3dbc::target::Error`]), at DWORD offsets.
    #[error(transparent)]
    Shader(#[from] d3dbc::target::Error),
    /// naga's validator rejected the module (a translator bug: please report).
    #[error("naga validation: {0}")]
    Validation(String),
    /// A naga back end failed.
    #[error("{target} back end: {message}")]
    Backend {
        /// The target.
        target: Target,
        /// naga's message.
        message: String,
    },
}

/// An output language.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Target {
    /// SPIR-V 1.0 for Vulkan.
    Spirv,
    /// WGSL.
    Wgsl,
    /// GLSL 450 (desktop).
    Glsl,
    /// Metal Shading Language.
    Msl,
    /// HLSL: shader model 5.0 with static bindings by default ([`HlslModel`]).
    Hlsl,
}

impl Target {
    /// Every target.
    pub const ALL: [Target; 5] = [
        Target::Spirv,
        Target::Wgsl,
        Target::Glsl,
        Target::Msl,
        Target::Hlsl,
    ];

    /// The file extension of an output for a shader of `stage`.
    pub fn extension(self, stage: interface::Stage) -> &'static str {
        match (self, stage) {
            (Target::Spirv, _) => "spv",
            (Target::Wgsl, _) => "wgsl",
            (Target::Glsl, interface::Stage::Vertex) => "vert",
            (Target::Glsl, interface::Stage::Fragment) => "frag",
            (Target::Msl, _) => "metal",
            (Target::Hlsl, _) => "hlsl",
        }
    }
}

impl std::fmt::Display for Target {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Target::Spirv => "spirv",
            Target::Wgsl => "wgsl",
            Target::Glsl => "glsl",
            Target::Msl => "msl",
            Target::Hlsl => "hlsl",
        })
    }
}

impl std::str::FromStr for Target {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        Ok(match s {
            "spirv" | "spv" => Target::Spirv,
            "wgsl" => Target::Wgsl,
            "glsl" => Target::Glsl,
            "msl" | "metal" => Target::Msl,
            "hlsl" => Target::Hlsl,
            _ => {
                return Err(format!(
                    "unknown target `{s}` (spirv, wgsl, glsl, msl, hlsl)"
                ))
            }
        })
    }
}

/// A translated shader: the naga module, its validation info and its interface.
pub struct Translation {
    /// The module (one entry point, `main`).
    pub module: naga::Module,
    /// naga's validation result for the module.
    pub info: ModuleInfo,
    /// Where the host binds everything.
    pub interface: Interface,
    /// The float32 denormal mode its SPIR-V requests (`SPV_KHR_float_controls`), where
    /// [`d3dbc::target::PipelineState::float_controls`] was set: naga's IR has no place
    /// for it, so [`Translation::spirv_with`] adds it to naga's words.
    pub float_controls: Option<d3dbc::Denormals>,
}

/// The validator settings the translation is checked with. Uniformity of control flow
/// is not required: D3D9 allows `texld` and `dsx` in divergent flow (the result is
/// undefined there, as on D3D9 hardware).
pub fn validator() -> Validator {
    Validator::new(
        ValidationFlags::all() & !ValidationFlags::CONTROL_FLOW_UNIFORMITY,
        Capabilities::CLIP_DISTANCES,
    )
}

/// Lowers `shader` to a naga module (not yet validated) and its interface.
pub fn lower(
    shader: &Shader,
    options: &TranslateOptions,
) -> Result<(naga::Module, Interface), Error> {
    // The shared pre-pass: the instructions, the DWORD offset of each (the version
    // token is offset 0; comments count) with the end token's last, and what they use.
    let mut analysis = d3dbc::Analysis::new(shader);
    let ins = std::mem::take(&mut analysis.instructions);
    let mut scan = d3dbc::target::scan::scan(analysis)?;
    let offsets = std::mem::take(&mut scan.analysis.offsets);
    lower::Lower::new(shader.version, scan, options, offsets).run(&ins)
}

/// Validates a lowered module.
pub fn validate(module: &naga::Module) -> Result<ModuleInfo, Error> {
    validator().validate(module).map_err(|e| {
        // Lowered expressions carry their D3D9 instruction's DWORD offset as span.
        let at: Vec<String> = e
            .spans()
            .filter_map(|(span, label)| {
                let r = span.to_range()?;
                Some(format!("{} ({label})", d3dbc::report::hex_offset(r.start)))
            })
            .collect();
        let mut msg = e.into_inner().to_string();
        if !at.is_empty() {
            msg = format!("{msg}, at {}", at.join(", "));
        }
        Error::Validation(msg)
    })
}

/// Lowers and validates a (validated) D3D9 shader.
pub fn translate(shader: &Shader, options: &TranslateOptions) -> Result<Translation, Error> {
    let (module, interface) = lower(shader, options)?;
    let info = validate(&module)?;
    Ok(Translation {
        module,
        info,
        interface,
        float_controls: options
            .pipeline
            .float_controls
            .then_some(options.semantics.denormals),
    })
}

fn backend(target: Target) -> impl Fn(String) -> Error {
    move |message| Error::Backend { target, message }
}

/// `module` without the entry point's point-size output (WGSL and HLSL have none, see
/// [`Translation::wgsl`]):
/// the member leaves the result struct and every value composed for it, then unused
/// types are dropped. `None` when there is no such output.
fn without_point_size(module: &naga::Module) -> Result<Option<(naga::Module, ModuleInfo)>, Error> {
    use naga::{Binding, BuiltIn, Expression, Span, Type, TypeInner};
    let Some(result) = module
        .entry_points
        .first()
        .and_then(|ep| ep.function.result.as_ref())
    else {
        return Ok(None);
    };
    let old_ty = result.ty;
    let TypeInner::Struct { members, span } = &module.types[old_ty].inner else {
        return Ok(None);
    };
    let point_size = Some(Binding::BuiltIn(BuiltIn::PointSize));
    let Some(at) = members.iter().position(|m| m.binding == point_size) else {
        return Ok(None);
    };
    let mut m = module.clone();
    let mut kept = members.clone();
    kept.remove(at);
    let name = m.types[old_ty].name.clone();
    let new_ty = m.types.insert(
        Type {
            name,
            inner: TypeInner::Struct {
                members: kept,
                span: *span,
            },
        },
        Span::UNDEFINED,
    );
    let f = &mut m.entry_points[0].function;
    if let Some(r) = f.result.as_mut() {
        r.ty = new_ty;
    }
    for (_, e) in f.expressions.iter_mut() {
        if let Expression::Compose { ty, components } = e {
            if *ty == old_ty && at < components.len() {
                components.remove(at);
                *ty = new_ty;
            }
        }
    }
    naga::compact::compact(&mut m, naga::compact::KeepUnused::No);
    let info = validate(&m)?;
    Ok(Some((m, info)))
}

impl Translation {
    fn stage(&self) -> naga::ShaderStage {
        self.module.entry_points[0].stage
    }

    /// SPIR-V words (SPIR-V 1.0, Vulkan conventions: the writer flips y for Vulkan's
    /// clip space unless `adjust_y` is false, as wgpu wants for raw pass-through).
    pub fn spirv_with(&self, adjust_y: bool) -> Result<Vec<u32>, Error> {
        let mut flags = naga::back::spv::WriterFlags::LABEL_VARYINGS;
        if adjust_y {
            flags |= naga::back::spv::WriterFlags::ADJUST_COORDINATE_SPACE;
        }
        let opts = naga::back::spv::Options {
            flags,
            force_loop_bounding: false,
            ..Default::default()
        };
        let po = naga::back::spv::PipelineOptions {
            shader_stage: self.stage(),
            entry_point: "main".into(),
        };
        let mut words = naga::back::spv::write_vec(&self.module, &self.info, &opts, Some(&po))
            .map_err(|e| backend(Target::Spirv)(e.to_string()))?;
        if let Some(d) = self.float_controls {
            d3dbc::target::float_controls::request(&mut words, d);
        }
        Ok(words)
    }

    /// SPIR-V words for Vulkan (y flipped into Vulkan's clip space).
    pub fn spirv(&self) -> Result<Vec<u32>, Error> {
        self.spirv_with(true)
    }

    /// WGSL source.
    ///
    /// WGSL has no point-size output (WebGPU draws every point one pixel wide): a vertex
    /// shader translated with [`PipelineState::point_size_builtin`] that writes `oPts`
    /// leaves the point-size built-in out of its WGSL, as browsers would ignore it
    /// anyway. `oPts` still reaches the `PSIZE` varying, and
    /// [`PipelineState::point_expansion`] is how a WebGPU host draws sized points.
    ///
    /// A pixel shader's WGSL opens with `diagnostic(off, derivative_uniformity);`: D3D9
    /// lets `texld`/`dsx` run in divergent flow control (their derivatives are then
    /// undefined, as on D3D9 hardware), which WGSL's uniformity analysis would make a
    /// shader-creation error in browsers (Tint); naga's validator is run with the same
    /// rule off ([`validator`]). naga's WGSL writer does not write directives, so the
    /// line is added here.
    pub fn wgsl(&self) -> Result<String, Error> {
        let stripped = without_point_size(&self.module)?;
        let (module, info) = match &stripped {
            Some((m, i)) => (m, i),
            None => (&self.module, &self.info),
        };
        let text =
            naga::back::wgsl::write_string(module, info, naga::back::wgsl::WriterFlags::empty())
                .map_err(|e| backend(Target::Wgsl)(e.to_string()))?;
        Ok(if self.stage() == naga::ShaderStage::Fragment {
            format!("diagnostic(off, derivative_uniformity);\n{text}")
        } else {
            text
        })
    }

    /// GLSL 450 source with explicit `layout(binding = …)` from the interface.
    pub fn glsl(&self) -> Result<String, Error> {
        let mut binding_map = naga::back::glsl::BindingMap::default();
        for (_, gv) in self.module.global_variables.iter() {
            if let Some(b) = &gv.binding {
                binding_map.insert(*b, b.binding as u8);
            }
        }
        let opts = naga::back::glsl::Options {
            version: naga::back::glsl::Version::Desktop(450),
            writer_flags: naga::back::glsl::WriterFlags::ADJUST_COORDINATE_SPACE,
            binding_map,
            zero_initialize_workgroup_memory: false,
        };
        let po = naga::back::glsl::PipelineOptions {
            shader_stage: self.stage(),
            entry_point: "main".into(),
            multiview: None,
        };
        let mut out = String::new();
        let mut w = naga::back::glsl::Writer::new(
            &mut out,
            &self.module,
            &self.info,
            &opts,
            &po,
            Default::default(),
        )
        .map_err(|e| backend(Target::Glsl)(e.to_string()))?;
        w.write()
            .map_err(|e| backend(Target::Glsl)(e.to_string()))?;
        Ok(out)
    }

    /// Metal Shading Language source.
    pub fn msl(&self) -> Result<String, Error> {
        let opts = naga::back::msl::Options {
            lang_version: (2, 0),
            force_loop_bounding: false,
            ..Default::default()
        };
        let po = naga::back::msl::PipelineOptions {
            entry_point: Some((self.stage(), "main".into())),
            ..Default::default()
        };
        naga::back::msl::write_string(&self.module, &self.info, &opts, &po)
            .map(|(s, _)| s)
            .map_err(|e| backend(Target::Msl)(e.to_string()))
    }

    /// HLSL for shader model 5.0 compilers (fxc, `D3DCompile` for Direct3D 11,
    /// vkd3d-compiler): static bindings at the registers [`Interface::hlsl`] states
    /// ([`Translation::hlsl_with`] for naga's Direct3D 12 layout). Direct3D 10 and later
    /// have no point-size output (points are one pixel): the point-size built-in is left
    /// out as for WGSL ([`Translation::wgsl`]).
    pub fn hlsl(&self) -> Result<String, Error> {
        self.hlsl_with(HlslModel::default())
    }

    /// HLSL of `model`: [`HlslModel::Sm5_0`] (static `register(tN)`/`register(sN)`/
    /// `register(bN)` bindings) or [`HlslModel::Sm6_0`] (naga's sampler-heap layout).
    pub fn hlsl_with(&self, model: HlslModel) -> Result<String, Error> {
        let stripped = without_point_size(&self.module)?;
        let (module, info) = match &stripped {
            Some((m, i)) => (m, i),
            None => (&self.module, &self.info),
        };
        hlsl::write(module, info, &self.interface, self.stage(), model)
    }

    /// Text output for a text target (SPIR-V as its words' little-endian bytes).
    pub fn emit(&self, target: Target) -> Result<Vec<u8>, Error> {
        Ok(match target {
            Target::Spirv => self.spirv()?.iter().flat_map(|w| w.to_le_bytes()).collect(),
            Target::Wgsl => self.wgsl()?.into_bytes(),
            Target::Glsl => self.glsl()?.into_bytes(),
            Target::Msl => self.msl()?.into_bytes(),
            Target::Hlsl => self.hlsl()?.into_bytes(),
        })
    }
}
