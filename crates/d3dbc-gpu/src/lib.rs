//! # d3dbc-gpu
//!
//! Runs the shared Direct3D 9 work description ([`d3dbc_exec::Scene`] /
//! [`d3dbc_exec::Draw`]) on a real GPU: both shaders go to SPIR-V through `d3dbc-spirv`
//! (the direct back end, the default) or through `d3dbc-naga` ([`Backend::Naga`], env
//! `D3DBC_GPU_BACKEND=naga`), and into wgpu 30 (Vulkan; Mesa's lavapipe in CI), fixed-function state becomes
//! pipeline state, and every render target can be read back as RGBA floats.
//!
//! This is the only crate of the workspace that depends on wgpu.
//!
//! ```no_run
//! // A pixel shader drawn full-screen on the GPU (needs a Vulkan adapter).
//! let ps = d3dbc::asm::assemble("ps_2_0\ndef c0, 1, 0.5, 0, 1\nmov oC0, c0\n", &Default::default())
//!     .unwrap()
//!     .encode();
//! let scene = d3dbc_exec::quick::fullscreen(&ps, None, 64, 64, &[]).unwrap();
//! let gpu = d3dbc_gpu::Gpu::new().unwrap();
//! let mut image = None;
//! gpu.run_scene(&scene, |_| true, |_, targets| image = targets.first().cloned())
//!     .unwrap();
//! let rgba8 = image.unwrap().to_rgba8();
//! assert_eq!(&rgba8[..4], &[255, 128, 0, 255]);
//! ```
//!
//! What is emulated, and how: vertex elements are expanded on the CPU to one
//! `vec4<f32>` stream per vertex-shader input (the executor's element decoding), so
//! every `D3DDECLTYPE` works; textures are decoded by the executor's texture module
//! and uploaded as `Rgba32Float`; D3D9's half-pixel rasterisation
//! offset is in the viewport (moved half a pixel right and down, as DXVK does; moving
//! the geometry instead pushes primitives on the clip volume's edge out of it, and the
//! clipper's re-triangulation costs lavapipe ~1e-5 of interpolation precision); triangle
//! fans become lists; points are drawn as instances of a 4-vertex strip that the
//! vertex shader expands (the translation option `point_expansion`: `oPts` or `POINTSIZE`,
//! clamped to `POINTSIZE_MIN`/`_MAX`, sprite coordinates with `POINTSPRITEENABLE`);
//! table fog reads `w` when the projection is not orthographic (`_44 != 1`); the user
//! clip planes `D3DRS_CLIPPLANEENABLE` enables become clip distances (the
//! `CLIP_DISTANCES` feature), packed into the first driver clip-plane slots
//! (`d3dbc_exec::Draw::user_clip_planes`, the CPU executor's rule, as is
//! `Draw::projection` for ps_1_x projected reads); the options of a pre-transformed
//! draw are those of the draw itself, not of its programmable equivalent (no user
//! clipping, projection by the vertex declaration).
//!
//! ## Conformance and where the GPU and the CPU executor legitimately differ
//!
//! On lavapipe every probe of both execution oracles passes (`tests/oracles.rs`: 493
//! vkd3d, 295 Wine). `tests/differential.rs` renders the same scenes on both (every
//! oracle record, scaled to ≤ 64 pixels a side; corpus pixel shaders behind a
//! pass-through vertex shader; corpus vertex shaders into four float targets) and
//! compares every pixel. The documented differences:
//! - float results within 64 ulps or 2e-5 absolute: the driver's `exp2`/`log2`/`sin`/
//!   `cos`/`rsqrt`/division approximations, fused multiply-adds, and varyings
//!   interpolated from f32 plane equations (the executor uses f64 barycentrics);
//!   half-float targets within 2 ulps; unorm targets within one step of the format;
//! - a feature edge may move by one pixel (the value matches a neighbour's):
//!   nearest-texel ties, mip-level choices and step functions (`frc`, `cmp`, `slt`,
//!   `texkill`, alpha test) of values within float error of the step;
//! - in draws that sample textures, up to 10% of the pixels may differ beyond that:
//!   a different texel (point sampling at a tie) or LOD (cube-map LOD formulas are
//!   implementation-defined) feeds later arithmetic (seen: point-sampled `texbem`,
//!   `texldb` on a cube map followed by `frc`).
//! - a varying that is infinite at the vertices reads NaN on the GPU (∞ · 0 in the
//!   interpolation) where the executor passes a value constant over the triangle
//!   through; D3D9 leaves interpolating non-finite values undefined.
//! - a texture lookup at a non-finite coordinate or level (an `inf` or NaN that reached
//!   a lookup: `rcp` of a generated 0, say) is undefined in D3D9 (seen: lavapipe
//!   returns black where the executor wraps to a texel); the executor counts such lookups (`render::Stats::nonfinite_lookups`) and
//!   a differing draw with any is listed as undefined, not as a failure;
//! - filtering across a cube-map face edge: Vulkan filters seamlessly across faces,
//!   D3D9 leaves it to the hardware (the executor filters within the face under the
//!   sampler's address mode); the harness's cube textures have a uniform one-texel
//!   border so that both read the same;
//! - render targets a pixel shader does not write keep their contents on the GPU; the
//!   executor writes 0 to them (D3D9 leaves them undefined).
//!
//! Every draw links its two shaders (`d3dbc_spirv::link`, or `d3dbc_naga::link` through
//! naga; the same rules): compact varying locations for
//! what the pixel shader reads, with its interpolation and sampling on the vertex
//! outputs. Before linking, wgpu refused 197 corpus draws of a full run (129 centroid
//! pixel inputs fed by non-centroid vertex outputs, 64 fixed-map locations beyond
//! lavapipe's 30 inter-stage variables, 4 pixel shaders writing `oDepth` with no depth
//! buffer, now drawn with a scratch depth attachment that is neither tested nor
//! written, as D3D9 ignores the depth) and the harness 2 (ps_3_0 `POSITION` inputs,
//! now passed through); all 199 are now compared.
//!
//! The corpus harness chooses defined inputs: float constants without a CTAB default
//! are a fixed non-zero pattern in pixel shaders and repeating identity rows in vertex
//! shaders, generated texture coordinates of pixel-shader draws are `(u, v, 0.5, 1)`
//! (a shader dividing by `z` stays finite), every declared sampler of either stage (vertex samplers are stages 16–19)
//! has a texture, and every declared vertex input (`POSITION1` and up included) has an
//! element; an input without one reads `(0, 0, 0, 1)` on both sides
//! (`render::MISSING_INPUT`). A vs_3_0's position is its first `POSITION0` output on
//! both sides (`d3dbc::regs::vs3_position_output`). Coverage on both sides is decided on vertex positions
//! snapped to 1/256 pixel (`render::SUBPIXEL`, as lavapipe and fixed-point hardware
//! do), so pixel centres exactly on an edge made by clipping follow the top-left rule.
//!
//! A full run (`D3DBC_GPU_DIFF_STRIDE=1`) finds no difference beyond these rules: 384 /
//! 384 oracle scenes, 1765 / 1765 corpus pixel-shader draws and 1931 / 1931 corpus
//! vertex-shader draws agree on every pixel, none undefined, none skipped; the test
//! fails on any other difference.

mod state;

use std::collections::BTreeMap;

use d3dbc::target::interface::{self as itf, driver};
use d3dbc::target::options::{CompareFunc, FogDepth, FogMode, PipelineState, TranslateOptions};
use d3dbc::Shader;
use d3dbc_exec::draw::{
    Address, Cull, Filter, Format, Primitive, ShadeMode, TargetDesc, TextureKind,
};
use d3dbc_exec::{Draw, Op, Scene};
use d3dbc_naga::Translation;
use wgpu::util::DeviceExt;

/// Why a scene could not run.
#[derive(Debug, thiserror::Error)]
pub enum GpuError {
    /// No Vulkan adapter.
    #[error("no GPU adapter: {0}")]
    Adapter(String),
    /// Device creation failed.
    #[error("device: {0}")]
    Device(String),
    /// A shader did not decode or translate.
    #[error("shader: {0}")]
    Shader(String),
    /// Something the runner does not support.
    #[error("unsupported: {0}")]
    Unsupported(String),
    /// wgpu reported an error.
    #[error("wgpu: {0}")]
    Wgpu(String),
}

/// A read-back render target: the executor's image type (RGBA floats, row-major, top row
/// first), so GPU and CPU results compare directly.
pub use d3dbc_exec::Image;

/// A wgpu device able to run scenes.
pub struct Gpu {
    device: wgpu::Device,
    queue: wgpu::Queue,
    passthrough: bool,
    backend: Backend,
    /// The adapter's name.
    pub adapter_name: String,
    features: wgpu::Features,
    pixel_override: Option<Box<PixelOverride>>,
}

/// A replacement for the naga module of every draw's linked pixel shader
/// ([`Backend::Naga`], [`Gpu::set_pixel_override`]): given the linked translation, the
/// module to draw with, bound by the same interface. How a test draws another
/// compiler's output for the same shader (vkd3d-compiler's SPIR-V from the HLSL target,
/// `tests/hlsl_through_vkd3d.rs`).
pub type PixelOverride = dyn Fn(&Translation) -> Result<naga::Module, String> + Send + Sync;

/// Which translation back end makes the shader modules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    /// `d3dbc-spirv`: SPIR-V words written directly, handed to the driver as they are
    /// (wgpu pass-through; through wgpu's SPIR-V front end where the adapter has no
    /// pass-through). The default.
    Direct,
    /// `d3dbc-naga`: a naga module, compiled by wgpu (or naga's SPIR-V writer with
    /// pass-through under `D3DBC_GPU_PASSTHROUGH`).
    Naga,
}

impl Backend {
    /// The back end named by env `D3DBC_GPU_BACKEND` (`naga` or `direct`), else
    /// [`Backend::Direct`].
    pub fn from_env() -> Backend {
        match std::env::var("D3DBC_GPU_BACKEND").as_deref() {
            Ok("naga") => Backend::Naga,
            _ => Backend::Direct,
        }
    }
}

/// A translated vertex/pixel pair, linked, from either back end.
enum Pair {
    Naga(Box<(Translation, Translation)>),
    Direct(Box<(d3dbc_spirv::Translation, d3dbc_spirv::Translation)>),
}

impl Pair {
    /// The vertex and pixel shaders' interfaces (the same from either back end).
    fn interfaces(&self) -> (&itf::Interface, &itf::Interface) {
        match self {
            Pair::Naga(p) => (&p.0.interface, &p.1.interface),
            Pair::Direct(p) => (&p.0.interface, &p.1.interface),
        }
    }
}

const UNIFORM_VIS: wgpu::ShaderStages = wgpu::ShaderStages::VERTEX_FRAGMENT;

impl Gpu {
    /// Opens the first Vulkan adapter (`WGPU_BACKEND` may override the backend) with the
    /// translation back end of [`Backend::from_env`].
    pub fn new() -> Result<Gpu, GpuError> {
        Gpu::with_backend(Backend::from_env())
    }

    /// The translation back end in use.
    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// Opens the first Vulkan adapter with translation back end `backend`.
    pub fn with_backend(backend: Backend) -> Result<Gpu, GpuError> {
        let desc = wgpu::InstanceDescriptor::new_without_display_handle().with_env();
        let instance = wgpu::Instance::new(desc);
        let adapter = pollster::block_on(instance.request_adapter(&wgpu::RequestAdapterOptions {
            power_preference: wgpu::PowerPreference::default(),
            force_fallback_adapter: false,
            compatible_surface: None,
            apply_limit_buckets: false,
        }))
        .map_err(|e| GpuError::Adapter(e.to_string()))?;
        let wanted = wgpu::Features::PASSTHROUGH_SHADERS
            | wgpu::Features::FLOAT32_FILTERABLE
            | wgpu::Features::ADDRESS_MODE_CLAMP_TO_BORDER
            | wgpu::Features::CLIP_DISTANCES
            | state::FEATURES;
        let features = adapter.features() & wanted;
        let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
            label: Some("d3dbc-gpu"),
            required_features: features,
            required_limits: adapter.limits(),
            experimental_features: unsafe { wgpu::ExperimentalFeatures::enabled() },
            memory_hints: wgpu::MemoryHints::Performance,
            trace: wgpu::Trace::Off,
        }))
        .map_err(|e| GpuError::Device(e.to_string()))?;
        Ok(Gpu {
            device,
            queue,
            passthrough: features.contains(wgpu::Features::PASSTHROUGH_SHADERS)
                && std::env::var_os("D3DBC_GPU_PASSTHROUGH").is_some(),
            backend,
            adapter_name: adapter.get_info().name,
            features,
            pixel_override: None,
        })
    }

    /// Draws every pixel shader with the module `f` makes from its linked translation
    /// instead of the translation's own (with [`Backend::Naga`]; `None` restores it).
    pub fn set_pixel_override(&mut self, f: Option<Box<PixelOverride>>) {
        self.pixel_override = f;
    }

    /// Runs every op of `scene`; after each draw, `after_draw(n, targets)` sees the
    /// read-back targets (`n` = draws so far) when `want(n)` is true.
    pub fn run_scene(
        &self,
        scene: &Scene,
        want: impl Fn(usize) -> bool,
        mut after_draw: impl FnMut(usize, &[Image]),
    ) -> Result<(), GpuError> {
        let targets: Vec<(wgpu::Texture, wgpu::TextureFormat)> = scene
            .targets
            .iter()
            .map(|t| {
                let f = rt_format(t.format);
                let srgb_view = [f.add_srgb_suffix()];
                (
                    self.device.create_texture(&wgpu::TextureDescriptor {
                        label: Some("rt"),
                        size: wgpu::Extent3d {
                            width: t.width,
                            height: t.height,
                            depth_or_array_layers: 1,
                        },
                        mip_level_count: 1,
                        sample_count: 1,
                        dimension: wgpu::TextureDimension::D2,
                        format: f,
                        usage: wgpu::TextureUsages::RENDER_ATTACHMENT
                            | wgpu::TextureUsages::COPY_SRC,
                        // SRGBWRITEENABLE draws through the sRGB view.
                        view_formats: if f.add_srgb_suffix() != f {
                            &srgb_view[..]
                        } else {
                            &[]
                        },
                    }),
                    f,
                )
            })
            .collect();
        let depth = scene.depth.map(|d| {
            self.device.create_texture(&wgpu::TextureDescriptor {
                label: Some("depth"),
                size: wgpu::Extent3d {
                    width: d.width,
                    height: d.height,
                    depth_or_array_layers: 1,
                },
                mip_level_count: 1,
                sample_count: 1,
                dimension: wgpu::TextureDimension::D2,
                format: state::depth_format(d.format, self.features),
                usage: wgpu::TextureUsages::RENDER_ATTACHMENT,
                view_formats: &[],
            })
        });
        let rt_formats: Vec<Format> = scene.targets.iter().map(|t| t.format).collect();
        // Initial contents.
        for (i, t) in scene.targets.iter().enumerate() {
            self.clear(&targets[i].0, Some(t.initial), None);
        }
        if let (Some(d), Some(dd)) = (&depth, &scene.depth) {
            self.clear_depth(d, Some(dd.initial), Some(dd.initial_stencil));
        }
        let mut draws = 0;
        for op in &scene.ops {
            match op {
                Op::Clear(c) => {
                    for (i, (t, _)) in targets.iter().enumerate() {
                        if c.color_enabled && c.target.is_none_or(|s| s as usize == i) {
                            self.clear(t, Some(c.color), None);
                        }
                    }
                    if let Some(d) = &depth {
                        if c.depth_enabled || c.stencil_enabled {
                            self.clear_depth(
                                d,
                                c.depth_enabled.then_some(c.depth),
                                c.stencil_enabled.then_some(c.stencil),
                            );
                        }
                    }
                }
                Op::Draw(d) => {
                    self.draw(d, &targets, &rt_formats, depth.as_ref())?;
                    draws += 1;
                    if want(draws) {
                        let imgs: Vec<Image> = targets
                            .iter()
                            .zip(&scene.targets)
                            .map(|((t, f), desc)| self.read(t, *f, desc))
                            .collect();
                        after_draw(draws, &imgs);
                    }
                }
            }
        }
        Ok(())
    }

    fn clear(&self, t: &wgpu::Texture, color: Option<[f32; 4]>, _d: Option<f32>) {
        let view = t.create_view(&Default::default());
        let c = color.unwrap_or_default();
        let mut enc = self.device.create_command_encoder(&Default::default());
        {
            let _p = enc.begin_render_pass(&wgpu::RenderPassDescriptor {
                label: None,
                color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                    view: &view,
                    depth_slice: None,
                    resolve_target: None,
                    ops: wgpu::Operations {
                        load: wgpu::LoadOp::Clear(wgpu::Color {
                            r: c[0] as f64,
                            g: c[1] as f64,
                            b: c[2] as f64,
                            a: c[3] as f64,
                        }),
                        store: wgpu::StoreOp::Store,
                    },
                })],
                depth_stencil_attachment: None,
                timestamp_writes: None,
                occlusion_query_set: None,
                multiview_mask: None,
            });
        }
        self.queue.submit([enc.finish()]);
    }

    /// Clears depth and/or stencil (the low 8 bits), each only where given.
    fn clear_depth(&self, t: &wgpu::Texture, z: Option<f32>, stencil: Option<u32>) {
        let view = t.create_view(&Default::default());
        let mut enc = self.device.create_command_encoder(&Default::default());
        {
            let _p = enc.begin_render_pass(&wgpu::RenderPassDescriptor {
                label: None,
                color_attachments: &[],
                depth_stencil_attachment: Some(wgpu::RenderPassDepthStencilAttachment {
                    view: &view,
                    depth_ops: Some(wgpu::Operations {
                        load: z.map_or(wgpu::LoadOp::Load, wgpu::LoadOp::Clear),
                        store: wgpu::StoreOp::Store,
                    }),
                    stencil_ops: t.format().has_stencil_aspect().then(|| wgpu::Operations {
                        load: stencil.map_or(wgpu::LoadOp::Load, |v| wgpu::LoadOp::Clear(v & 0xFF)),
                        store: wgpu::StoreOp::Store,
                    }),
                }),
                timestamp_writes: None,
                occlusion_query_set: None,
                multiview_mask: None,
            });
        }
        self.queue.submit([enc.finish()]);
    }

    fn module(&self, t: &Translation) -> Result<wgpu::ShaderModule, GpuError> {
        if self.passthrough {
            let words = t
                .spirv_with(false)
                .map_err(|e| GpuError::Shader(e.to_string()))?;
            Ok(self.passthrough_module(words))
        } else {
            Ok(self
                .device
                .create_shader_module(wgpu::ShaderModuleDescriptor {
                    label: Some("d3dbc"),
                    source: wgpu::ShaderSource::Naga(std::borrow::Cow::Owned(t.module.clone())),
                }))
        }
    }

    /// A module from SPIR-V words of the direct back end: handed to the driver as they
    /// are with pass-through (`D3DBC_GPU_PASSTHROUGH`, as for the naga path: Mesa 22's
    /// lavapipe crashes in pass-through pipelines of either back end), else through
    /// wgpu's SPIR-V front end.
    fn direct_module(&self, words: &[u32]) -> wgpu::ShaderModule {
        if self.passthrough {
            self.passthrough_module(words.to_vec())
        } else {
            self.device
                .create_shader_module(wgpu::ShaderModuleDescriptor {
                    label: Some("d3dbc"),
                    source: wgpu::ShaderSource::SpirV(std::borrow::Cow::Borrowed(words)),
                })
        }
    }

    fn passthrough_module(&self, words: Vec<u32>) -> wgpu::ShaderModule {
        {
            // SAFETY: the SPIR-V comes from naga's writer for a module naga validated, or
            // from d3dbc-spirv (spirv-val accepts every corpus shader's output of both),
            // with the bindings of the explicit pipeline layout built from the same
            // interface.
            unsafe {
                self.device.create_shader_module_passthrough(
                    wgpu::ShaderModuleDescriptorPassthrough {
                        label: Some("d3dbc"),
                        entry_points: std::borrow::Cow::Owned(vec![
                            wgpu::PassthroughShaderEntryPoint {
                                name: "main".into(),
                                workgroup_size: (0, 0, 0),
                            },
                        ]),
                        spirv: Some(std::borrow::Cow::Owned(words)),
                        ..Default::default()
                    },
                )
            }
        }
    }

    fn draw(
        &self,
        d: &Draw,
        targets: &[(wgpu::Texture, wgpu::TextureFormat)],
        rt_formats: &[Format],
        depth: Option<&wgpu::Texture>,
    ) -> Result<(), GpuError> {
        // The options follow the draw as D3D9 sees it (pre-transformed vertices are not
        // clipped by user planes; their projection follows the vertex declaration).
        let opts = options_for(d);
        // Pre-transformed vertices: draw the programmable equivalent.
        let equivalent = d3dbc_exec::pretransformed::programmable_equivalent(d)
            .map_err(GpuError::Unsupported)?;
        let d = equivalent.as_ref().unwrap_or(d);
        let vs_tokens = d.vs.as_ref().ok_or_else(|| {
            GpuError::Unsupported("fixed-function vertex pipeline (no vertex shader)".into())
        })?;
        let ps_tokens =
            d.ps.as_ref()
                .ok_or_else(|| GpuError::Unsupported("fixed-function pixel pipeline".into()))?;
        let vs = Shader::decode(vs_tokens).map_err(|e| GpuError::Shader(e.to_string()))?;
        let ps = Shader::decode(ps_tokens).map_err(|e| GpuError::Shader(e.to_string()))?;
        // Compact varying locations for exactly what the pixel shader reads, with its
        // interpolation and sampling (what a D3D9 driver does when it builds a pipeline).
        let pair = match self.backend {
            Backend::Naga => {
                let shader_err = |e: d3dbc_naga::Error| GpuError::Shader(e.to_string());
                let mut vt = d3dbc_naga::translate(&vs, &opts).map_err(shader_err)?;
                let mut pt = d3dbc_naga::translate(&ps, &opts).map_err(shader_err)?;
                d3dbc_naga::link(&mut vt, &mut pt).map_err(shader_err)?;
                if let Some(f) = &self.pixel_override {
                    pt.module = f(&pt).map_err(GpuError::Shader)?;
                    pt.info = d3dbc_naga::validate(&pt.module).map_err(shader_err)?;
                }
                Pair::Naga(Box::new((vt, pt)))
            }
            Backend::Direct => {
                let flags = d3dbc_spirv::EmitFlags { adjust_y: false };
                let (vt, pt) = d3dbc_spirv::link(&vs, &ps, &opts, flags)
                    .map_err(|e| GpuError::Shader(e.to_string()))?;
                Pair::Direct(Box::new((vt, pt)))
            }
        };
        let scope = self.device.push_error_scope(wgpu::ErrorFilter::Validation);
        let result = self.draw_inner(d, &pair, targets, rt_formats, depth);
        let err = pollster::block_on(scope.pop());
        result?;
        if let Some(e) = err {
            return Err(GpuError::Wgpu(match e {
                wgpu::Error::Validation { description, .. } => description,
                e => e.to_string(),
            }));
        }
        Ok(())
    }

    /// Draws with linked translations: bind group, vertex streams, pipeline, pass.
    fn draw_inner(
        &self,
        d: &Draw,
        pair: &Pair,
        targets: &[(wgpu::Texture, wgpu::TextureFormat)],
        rt_formats: &[Format],
        depth: Option<&wgpu::Texture>,
    ) -> Result<(), GpuError> {
        let (vi, pi) = pair.interfaces();
        let (bg, pl) = self.bind_group(d, vi, pi)?;
        let (vbufs, attrs, order) = self.vertex_streams(d, vi);
        let points = d.primitive == Primitive::PointList;
        let layouts: Vec<Option<wgpu::VertexBufferLayout>> = attrs
            .iter()
            .map(|a| {
                Some(wgpu::VertexBufferLayout {
                    array_stride: 16,
                    step_mode: if points {
                        wgpu::VertexStepMode::Instance
                    } else {
                        wgpu::VertexStepMode::Vertex
                    },
                    attributes: a,
                })
            })
            .collect();
        let (pipeline, color_targets, scratch) =
            self.pipeline(d, pair, targets, rt_formats, depth, &pl, &layouts)?;
        let depth = depth.or(scratch.as_ref());
        let mut enc = self.device.create_command_encoder(&Default::default());
        Self::pass(
            &mut enc,
            d,
            targets,
            rt_formats,
            depth,
            &color_targets,
            &pipeline,
            &bg,
            &vbufs,
            order.len() as u32,
        );
        self.queue.submit([enc.finish()]);
        Ok(())
    }

    /// The bind group of a draw's constants, driver uniforms, textures and samplers
    /// (both stages), and the pipeline layout over it.
    fn bind_group(
        &self,
        d: &Draw,
        vi: &itf::Interface,
        pi: &itf::Interface,
    ) -> Result<(wgpu::BindGroup, wgpu::PipelineLayout), GpuError> {
        let dev = &self.device;
        let mut layout_entries = Vec::new();
        let mut keep_buffers: Vec<wgpu::Buffer> = Vec::new();
        let mut keep_views: BTreeMap<u32, wgpu::TextureView> = BTreeMap::new();
        let mut keep_samplers: BTreeMap<u32, wgpu::Sampler> = BTreeMap::new();
        let mut uniform = |binding: u32, bytes: Vec<u8>, keep: &mut Vec<wgpu::Buffer>| {
            layout_entries.push(wgpu::BindGroupLayoutEntry {
                binding,
                visibility: UNIFORM_VIS,
                ty: wgpu::BindingType::Buffer {
                    ty: wgpu::BufferBindingType::Uniform,
                    has_dynamic_offset: false,
                    min_binding_size: None,
                },
                count: None,
            });
            keep.push(dev.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: None,
                contents: &bytes,
                usage: wgpu::BufferUsages::UNIFORM,
            }));
            binding
        };
        let mut buffer_bindings = Vec::new();
        for (itf, consts) in [(vi, &d.vs_constants), (pi, &d.ps_constants)] {
            if let Some(c) = &itf.float_constants {
                let mut words = vec![0u32; 4 * c.registers as usize];
                for (r, v) in consts.float.iter().take(c.registers as usize).enumerate() {
                    words[4 * r..4 * r + 4].copy_from_slice(v);
                }
                buffer_bindings.push(uniform(
                    c.binding,
                    bytemuck::cast_slice(&words).to_vec(),
                    &mut keep_buffers,
                ));
            }
            if let Some(c) = &itf.int_constants {
                let mut words = vec![0i32; 4 * c.registers as usize];
                for (r, v) in consts.int.iter().take(c.registers as usize).enumerate() {
                    words[4 * r..4 * r + 4].copy_from_slice(v);
                }
                buffer_bindings.push(uniform(
                    c.binding,
                    bytemuck::cast_slice(&words).to_vec(),
                    &mut keep_buffers,
                ));
            }
            if let Some(c) = &itf.bool_constants {
                let mut words = vec![0u32; 4 * c.registers as usize];
                for (r, v) in consts.bool.iter().take(c.registers as usize).enumerate() {
                    words[4 * r] = *v as u32;
                }
                buffer_bindings.push(uniform(
                    c.binding,
                    bytemuck::cast_slice(&words).to_vec(),
                    &mut keep_buffers,
                ));
            }
        }
        if vi.driver.is_some() || pi.driver.is_some() {
            let w = driver_uniforms(d);
            buffer_bindings.push(uniform(
                itf::DRIVER_BINDING,
                bytemuck::cast_slice(&w).to_vec(),
                &mut keep_buffers,
            ));
        }
        for (itf, base) in [(vi, d3dbc::regs::VERTEX_SAMPLER_BASE), (pi, 0usize)] {
            for s in &itf.samplers {
                let stage = base + s.stage as usize;
                let (view, dim) = self.texture_view(d, stage, s.kind)?;
                layout_entries.push(wgpu::BindGroupLayoutEntry {
                    binding: s.texture_binding,
                    visibility: UNIFORM_VIS,
                    ty: wgpu::BindingType::Texture {
                        sample_type: wgpu::TextureSampleType::Float { filterable: true },
                        view_dimension: dim,
                        multisampled: false,
                    },
                    count: None,
                });
                layout_entries.push(wgpu::BindGroupLayoutEntry {
                    binding: s.sampler_binding,
                    visibility: UNIFORM_VIS,
                    ty: wgpu::BindingType::Sampler(wgpu::SamplerBindingType::Filtering),
                    count: None,
                });
                keep_views.insert(s.texture_binding, view);
                keep_samplers.insert(s.sampler_binding, self.sampler(d, stage));
            }
        }
        let bgl = dev.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: None,
            entries: &layout_entries,
        });
        let mut entries = Vec::new();
        for (i, b) in buffer_bindings.iter().enumerate() {
            entries.push(wgpu::BindGroupEntry {
                binding: *b,
                resource: keep_buffers[i].as_entire_binding(),
            });
        }
        for (b, v) in &keep_views {
            entries.push(wgpu::BindGroupEntry {
                binding: *b,
                resource: wgpu::BindingResource::TextureView(v),
            });
        }
        for (b, s) in &keep_samplers {
            entries.push(wgpu::BindGroupEntry {
                binding: *b,
                resource: wgpu::BindingResource::Sampler(s),
            });
        }
        let bg = dev.create_bind_group(&wgpu::BindGroupDescriptor {
            label: None,
            layout: &bgl,
            entries: &entries,
        });
        let pl = dev.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: None,
            bind_group_layouts: &[Some(&bgl)],
            immediate_size: 0,
        });
        Ok((bg, pl))
    }

    /// One `vec4<f32>` vertex buffer per vertex-shader input, in draw order (points are
    /// instances of a 4-vertex strip: d3dbc-naga's point expansion); returns the buffers,
    /// their attributes and the vertex order.
    #[allow(clippy::type_complexity)]
    fn vertex_streams(
        &self,
        d: &Draw,
        vi: &itf::Interface,
    ) -> (Vec<wgpu::Buffer>, Vec<[wgpu::VertexAttribute; 1]>, Vec<u32>) {
        let dev = &self.device;
        let order = vertex_order(d.primitive, d.vertex_count);
        let mut vbufs = Vec::new();
        let mut attrs = Vec::new();
        for input in &vi.vertex_inputs {
            let elem = d.vertex_declaration.iter().find(|e| {
                e.register.map(u16::from) == Some(input.register)
                    || (e.register.is_none()
                        && input.usage.is_some_and(|u| u as u8 == e.usage)
                        && e.usage_index == input.usage_index)
            });
            let mut data: Vec<[f32; 4]> = Vec::with_capacity(order.len());
            for &v in &order {
                let val = elem
                    .and_then(|e| d3dbc_exec::render::read_element(d, e, v as usize))
                    .unwrap_or(d3dbc_exec::render::MISSING_INPUT);
                data.push(val);
            }
            if data.is_empty() {
                data.push([0.0; 4]);
            }
            vbufs.push(dev.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: None,
                contents: bytemuck::cast_slice(&data),
                usage: wgpu::BufferUsages::VERTEX,
            }));
            attrs.push([wgpu::VertexAttribute {
                format: wgpu::VertexFormat::Float32x4,
                offset: 0,
                shader_location: input.location,
            }]);
        }
        (vbufs, attrs, order)
    }

    /// The render pipeline of a draw; also the colour target states and, when the pixel
    /// shader writes depth without a depth buffer, the scratch depth texture it needs.
    #[allow(clippy::too_many_arguments, clippy::type_complexity)]
    fn pipeline(
        &self,
        d: &Draw,
        pair: &Pair,
        targets: &[(wgpu::Texture, wgpu::TextureFormat)],
        rt_formats: &[Format],
        depth: Option<&wgpu::Texture>,
        pl: &wgpu::PipelineLayout,
        layouts: &[Option<wgpu::VertexBufferLayout>],
    ) -> Result<
        (
            wgpu::RenderPipeline,
            Vec<Option<wgpu::ColorTargetState>>,
            Option<wgpu::Texture>,
        ),
        GpuError,
    > {
        let dev = &self.device;
        let pi = pair.interfaces().1;
        let points = d.primitive == Primitive::PointList;
        let rs = &d.render_states;
        let (vm, fm) = match pair {
            Pair::Naga(p) => (self.module(&p.0)?, self.module(&p.1)?),
            Pair::Direct(p) => (
                self.direct_module(&p.0.words),
                self.direct_module(&p.1.words),
            ),
        };
        let color_targets: Vec<Option<wgpu::ColorTargetState>> = targets
            .iter()
            .enumerate()
            .map(|(i, (_, f))| {
                if !pi.color_outputs.contains(&(i as u32)) {
                    return None;
                }
                let mask = if i == 0 {
                    rs.color_write
                } else {
                    rs.color_write_more.get(i - 1).copied().unwrap_or(0xF)
                };
                Some(wgpu::ColorTargetState {
                    format: state::color_format(rs, rt_formats[i], *f),
                    blend: state::blend(rs),
                    write_mask: wgpu::ColorWrites::from_bits_truncate(mask),
                })
            })
            .collect();
        let topology = match d.primitive {
            Primitive::PointList => wgpu::PrimitiveTopology::TriangleStrip,
            Primitive::LineList => wgpu::PrimitiveTopology::LineList,
            Primitive::LineStrip => wgpu::PrimitiveTopology::LineStrip,
            Primitive::TriangleStrip => wgpu::PrimitiveTopology::TriangleStrip,
            Primitive::TriangleList | Primitive::TriangleFan => {
                wgpu::PrimitiveTopology::TriangleList
            }
        };
        // D3D9 ignores `oDepth` when no depth buffer is bound; wgpu wants a depth
        // attachment for a pixel shader that writes depth: a scratch one, neither
        // tested nor written.
        let scratch = (depth.is_none() && pi.depth_output)
            .then(|| targets.first())
            .flatten()
            .map(|(t, _)| {
                dev.create_texture(&wgpu::TextureDescriptor {
                    label: Some("scratch depth"),
                    size: t.size(),
                    mip_level_count: 1,
                    sample_count: 1,
                    dimension: wgpu::TextureDimension::D2,
                    format: wgpu::TextureFormat::Depth32Float,
                    usage: wgpu::TextureUsages::RENDER_ATTACHMENT,
                    view_formats: &[],
                })
            });
        let depth_state = match (depth, &scratch) {
            (Some(t), _) => Some(state::depth_stencil(rs, t.format())),
            (None, Some(t)) => Some(wgpu::DepthStencilState {
                format: t.format(),
                depth_write_enabled: Some(false),
                depth_compare: Some(wgpu::CompareFunction::Always),
                stencil: Default::default(),
                bias: Default::default(),
            }),
            (None, None) => None,
        };
        let polygon_mode =
            state::polygon_mode(rs.fill, self.features).map_err(GpuError::Unsupported)?;
        let pipeline = dev.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: None,
            layout: Some(pl),
            vertex: wgpu::VertexState {
                module: &vm,
                entry_point: Some("main"),
                compilation_options: Default::default(),
                buffers: layouts,
            },
            primitive: wgpu::PrimitiveState {
                topology,
                strip_index_format: None,
                front_face: wgpu::FrontFace::Cw,
                cull_mode: match rs.cull {
                    _ if points => None,
                    Cull::None => None,
                    Cull::Ccw => Some(wgpu::Face::Back),
                    Cull::Cw => Some(wgpu::Face::Front),
                },
                unclipped_depth: false,
                polygon_mode,
                conservative: false,
            },
            depth_stencil: depth_state,
            multisample: Default::default(),
            fragment: Some(wgpu::FragmentState {
                module: &fm,
                entry_point: Some("main"),
                compilation_options: Default::default(),
                targets: &color_targets,
            }),
            multiview_mask: None,
            cache: None,
        });
        Ok((pipeline, color_targets, scratch))
    }

    /// Records the render pass: the targets the pixel shader writes (loaded and stored),
    /// depth/stencil, D3D9's half-pixel viewport, the draw.
    #[allow(clippy::too_many_arguments)]
    fn pass(
        enc: &mut wgpu::CommandEncoder,
        d: &Draw,
        targets: &[(wgpu::Texture, wgpu::TextureFormat)],
        rt_formats: &[Format],
        depth: Option<&wgpu::Texture>,
        color_targets: &[Option<wgpu::ColorTargetState>],
        pipeline: &wgpu::RenderPipeline,
        bg: &wgpu::BindGroup,
        vbufs: &[wgpu::Buffer],
        nverts: u32,
    ) {
        let rs = &d.render_states;
        let points = d.primitive == Primitive::PointList;
        let views: Vec<wgpu::TextureView> = targets
            .iter()
            .zip(rt_formats)
            .map(|((t, f), d3d)| {
                t.create_view(&wgpu::TextureViewDescriptor {
                    format: Some(state::color_format(rs, *d3d, *f)),
                    ..Default::default()
                })
            })
            .collect();
        let dview = depth.map(|t| t.create_view(&Default::default()));
        {
            // Targets the pixel shader does not write are left out of the pass (D3D9
            // leaves them untouched; wgpu wants the pass to match the pipeline).
            let atts: Vec<Option<wgpu::RenderPassColorAttachment>> = views
                .iter()
                .zip(color_targets)
                .map(|(v, t)| {
                    t.as_ref()?;
                    Some(wgpu::RenderPassColorAttachment {
                        view: v,
                        depth_slice: None,
                        resolve_target: None,
                        ops: wgpu::Operations {
                            load: wgpu::LoadOp::Load,
                            store: wgpu::StoreOp::Store,
                        },
                    })
                })
                .collect();
            let mut pass = enc.begin_render_pass(&wgpu::RenderPassDescriptor {
                label: None,
                color_attachments: &atts,
                depth_stencil_attachment: dview.as_ref().map(|v| {
                    wgpu::RenderPassDepthStencilAttachment {
                        view: v,
                        depth_ops: Some(wgpu::Operations {
                            load: wgpu::LoadOp::Load,
                            store: wgpu::StoreOp::Store,
                        }),
                        stencil_ops: v.texture().format().has_stencil_aspect().then_some(
                            wgpu::Operations {
                                load: wgpu::LoadOp::Load,
                                store: wgpu::StoreOp::Store,
                            },
                        ),
                    }
                }),
                timestamp_writes: None,
                occlusion_query_set: None,
                multiview_mask: None,
            });
            // D3D9 samples pixel (x, y) at integer window coordinates, Vulkan at
            // x + 0.5: the viewport moves half a pixel right and down (as DXVK does)
            // rather than the geometry, so that a primitive on the D3D9 clip volume
            // stays on the Vulkan one (a shifted one is clipped and re-triangulated,
            // which costs lavapipe ~1e-5 of interpolation precision).
            let vp = &d.viewport;
            pass.set_viewport(
                vp.x as f32 + 0.5,
                vp.y as f32 + 0.5,
                vp.width as f32,
                vp.height as f32,
                vp.min_z,
                vp.max_z,
            );
            pass.set_pipeline(pipeline);
            pass.set_blend_constant(state::blend_constant(rs));
            pass.set_stencil_reference(rs.stencil.reference & 0xFF);
            pass.set_bind_group(0, bg, &[]);
            for (i, b) in vbufs.iter().enumerate() {
                pass.set_vertex_buffer(i as u32, b.slice(..));
            }
            if points {
                pass.draw(0..4, 0..nverts);
            } else {
                pass.draw(0..nverts, 0..1);
            }
        }
    }

    fn texture_view(
        &self,
        d: &Draw,
        stage: usize,
        kind: d3dbc::target::options::TextureKind,
    ) -> Result<(wgpu::TextureView, wgpu::TextureViewDimension), GpuError> {
        use d3dbc::target::options::TextureKind as K;
        let dim = match kind {
            K::Tex2d => wgpu::TextureViewDimension::D2,
            K::Cube => wgpu::TextureViewDimension::Cube,
            K::Volume => wgpu::TextureViewDimension::D3,
        };
        let decoded = d
            .texture(stage)
            .map(d3dbc_exec::texture::Decoded::new)
            .transpose()
            .map_err(|e| GpuError::Unsupported(format!("texture {stage}: {e}")))?;
        let matches = decoded.as_ref().is_some_and(|t| {
            matches!(
                (t.kind, kind),
                (TextureKind::Tex2D, K::Tex2d)
                    | (TextureKind::Cube, K::Cube)
                    | (TextureKind::Volume, K::Volume)
            )
        });
        let (w, h, layers, levels): (u32, u32, u32, Vec<Vec<[f32; 4]>>) = match (&decoded, matches)
        {
            (Some(t), true) => (
                t.levels[0].w,
                t.levels[0].h,
                if kind == K::Volume {
                    t.levels[0].d
                } else if kind == K::Cube {
                    6
                } else {
                    1
                },
                {
                    // SRGBTEXTURE: decode before filtering, as the CPU sampler does.
                    let srgb = d.sampler(stage).srgb && t.srgb_capable;
                    let lin = d3dbc_exec::format::srgb_to_linear;
                    t.levels
                        .iter()
                        .map(|l| {
                            let mut texels = l.texels.clone();
                            if srgb {
                                for p in &mut texels {
                                    *p = [lin(p[0]), lin(p[1]), lin(p[2]), p[3]];
                                }
                            }
                            texels
                        })
                        .collect()
                },
            ),
            // Unbound (or mismatched) samplers read (0, 0, 0, 1).
            _ => {
                let n = if kind == K::Cube { 6 } else { 1 };
                (1, 1, n, vec![vec![[0.0, 0.0, 0.0, 1.0]; n as usize]])
            }
        };
        let tex = self.device.create_texture(&wgpu::TextureDescriptor {
            label: Some("texture"),
            size: wgpu::Extent3d {
                width: w,
                height: h,
                depth_or_array_layers: layers,
            },
            mip_level_count: levels.len() as u32,
            sample_count: 1,
            dimension: if kind == K::Volume {
                wgpu::TextureDimension::D3
            } else {
                wgpu::TextureDimension::D2
            },
            format: wgpu::TextureFormat::Rgba32Float,
            usage: wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
            view_formats: &[],
        });
        for (mip, texels) in levels.iter().enumerate() {
            let (mw, mh) = ((w >> mip).max(1), (h >> mip).max(1));
            let ml = if kind == K::Volume {
                (layers >> mip).max(1)
            } else {
                layers
            };
            let need = (mw * mh * ml) as usize;
            if texels.len() < need {
                continue;
            }
            self.queue.write_texture(
                wgpu::TexelCopyTextureInfo {
                    texture: &tex,
                    mip_level: mip as u32,
                    origin: wgpu::Origin3d::ZERO,
                    aspect: wgpu::TextureAspect::All,
                },
                bytemuck::cast_slice(&texels[..need]),
                wgpu::TexelCopyBufferLayout {
                    offset: 0,
                    bytes_per_row: Some(mw * 16),
                    rows_per_image: Some(mh),
                },
                wgpu::Extent3d {
                    width: mw,
                    height: mh,
                    depth_or_array_layers: ml,
                },
            );
        }
        let view = tex.create_view(&wgpu::TextureViewDescriptor {
            dimension: Some(dim),
            ..Default::default()
        });
        Ok((view, dim))
    }

    fn sampler(&self, d: &Draw, stage: usize) -> wgpu::Sampler {
        let s = d.sampler(stage);
        let addr = |a: Address| match a {
            Address::Wrap => wgpu::AddressMode::Repeat,
            Address::Mirror | Address::MirrorOnce => wgpu::AddressMode::MirrorRepeat,
            Address::Clamp => wgpu::AddressMode::ClampToEdge,
            Address::Border => wgpu::AddressMode::ClampToBorder,
        };
        let filt = |f: Filter| match f {
            Filter::None | Filter::Point => wgpu::FilterMode::Nearest,
            Filter::Linear | Filter::Anisotropic => wgpu::FilterMode::Linear,
        };
        let mip_none = s.mip_filter == Filter::None;
        let border = match s.border_color {
            0 => wgpu::SamplerBorderColor::TransparentBlack,
            0xFF00_0000 => wgpu::SamplerBorderColor::OpaqueBlack,
            _ => wgpu::SamplerBorderColor::OpaqueWhite,
        };
        let any_border = [s.address_u, s.address_v, s.address_w].contains(&Address::Border);
        self.device.create_sampler(&wgpu::SamplerDescriptor {
            label: None,
            address_mode_u: addr(s.address_u),
            address_mode_v: addr(s.address_v),
            address_mode_w: addr(s.address_w),
            mag_filter: filt(s.mag_filter),
            min_filter: filt(s.min_filter),
            mipmap_filter: if s.mip_filter == Filter::Linear {
                wgpu::MipmapFilterMode::Linear
            } else {
                wgpu::MipmapFilterMode::Nearest
            },
            lod_min_clamp: s.max_mip_level as f32,
            lod_max_clamp: if mip_none {
                s.max_mip_level as f32
            } else {
                32.0
            },
            compare: None,
            anisotropy_clamp: 1,
            border_color: any_border.then_some(border),
        })
    }

    fn read(&self, t: &wgpu::Texture, f: wgpu::TextureFormat, desc: &TargetDesc) -> Image {
        let (w, h) = (desc.width, desc.height);
        let bpp = f.block_copy_size(None).unwrap_or(16);
        let row = (w * bpp).div_ceil(256) * 256;
        let buf = self.device.create_buffer(&wgpu::BufferDescriptor {
            label: None,
            size: (row * h) as u64,
            usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
            mapped_at_creation: false,
        });
        let mut enc = self.device.create_command_encoder(&Default::default());
        enc.copy_texture_to_buffer(
            wgpu::TexelCopyTextureInfo {
                texture: t,
                mip_level: 0,
                origin: wgpu::Origin3d::ZERO,
                aspect: wgpu::TextureAspect::All,
            },
            wgpu::TexelCopyBufferInfo {
                buffer: &buf,
                layout: wgpu::TexelCopyBufferLayout {
                    offset: 0,
                    bytes_per_row: Some(row),
                    rows_per_image: Some(h),
                },
            },
            wgpu::Extent3d {
                width: w,
                height: h,
                depth_or_array_layers: 1,
            },
        );
        self.queue.submit([enc.finish()]);
        let slice = buf.slice(..);
        slice.map_async(wgpu::MapMode::Read, |_| {});
        let _ = self.device.poll(wgpu::PollType::Wait {
            submission_index: None,
            timeout: None,
        });
        let mut pixels = Vec::with_capacity((w * h) as usize);
        if let Ok(data) = slice.get_mapped_range() {
            for y in 0..h {
                let r = &data[(y * row) as usize..];
                for x in 0..w as usize {
                    let p = &r[x * bpp as usize..(x + 1) * bpp as usize];
                    pixels.push(decode_pixel(f, p));
                }
            }
        }
        buf.unmap();
        Image {
            width: w,
            height: h,
            format: desc.format,
            pixels,
        }
    }
}

fn decode_pixel(f: wgpu::TextureFormat, p: &[u8]) -> [f32; 4] {
    let f32at = |i: usize| f32::from_le_bytes([p[4 * i], p[4 * i + 1], p[4 * i + 2], p[4 * i + 3]]);
    let h = |i: usize| d3dbc_exec::format::decode_texel(Format::R16F, &p[2 * i..2 * i + 2])[0];
    match f {
        wgpu::TextureFormat::Rgba32Float => [f32at(0), f32at(1), f32at(2), f32at(3)],
        wgpu::TextureFormat::R32Float => [f32at(0), 1.0, 1.0, 1.0],
        wgpu::TextureFormat::Rg32Float => [f32at(0), f32at(1), 1.0, 1.0],
        wgpu::TextureFormat::Rgba16Float => [h(0), h(1), h(2), h(3)],
        wgpu::TextureFormat::R16Float => [h(0), 1.0, 1.0, 1.0],
        wgpu::TextureFormat::Rg16Float => [h(0), h(1), 1.0, 1.0],
        _ => [0, 1, 2, 3].map(|i| p[i] as f32 / 255.0),
    }
}

fn rt_format(f: Format) -> wgpu::TextureFormat {
    match f {
        Format::A32B32G32R32F => wgpu::TextureFormat::Rgba32Float,
        Format::R32F => wgpu::TextureFormat::R32Float,
        Format::G32R32F => wgpu::TextureFormat::Rg32Float,
        Format::A16B16G16R16F => wgpu::TextureFormat::Rgba16Float,
        Format::R16F => wgpu::TextureFormat::R16Float,
        Format::G16R16F => wgpu::TextureFormat::Rg16Float,
        _ => wgpu::TextureFormat::Rgba8Unorm,
    }
}

/// Vertex indices in draw order (triangle fans become lists).
fn vertex_order(p: Primitive, n: u32) -> Vec<u32> {
    match p {
        Primitive::TriangleFan => (1..n.saturating_sub(1))
            .flat_map(|i| [0, i, i + 1])
            .collect(),
        _ => (0..n).collect(),
    }
}

/// The translation options a draw's state selects.
pub fn options_for(d: &Draw) -> TranslateOptions {
    let rs = &d.render_states;
    let sm1_sampler_kinds = (0..d3dbc::regs::VERTEX_SAMPLER_BASE)
        .map(|s| match d.texture(s).map(|t| t.kind) {
            Some(TextureKind::Cube) => d3dbc::target::options::TextureKind::Cube,
            Some(TextureKind::Volume) => d3dbc::target::options::TextureKind::Volume,
            _ => d3dbc::target::options::TextureKind::Tex2d,
        })
        .collect();
    let projected = (0..d3dbc::regs::MAX_TEXTURES)
        .map(|s| d.projection(s))
        .collect();
    let alpha_test = if rs.alpha_test {
        rs.alpha_func
    } else {
        CompareFunc::Always
    };
    use d3dbc_exec::draw::FogMode as F;
    let fog_depth = if rs.projection_44 != 1.0 {
        FogDepth::W
    } else {
        FogDepth::Z
    };
    let fog = if !rs.fog_enable {
        FogMode::None
    } else {
        match rs.fog_table_mode {
            F::None => FogMode::Vertex,
            F::Linear => FogMode::Linear,
            F::Exp => FogMode::Exp,
            F::Exp2 => FogMode::Exp2,
        }
    };
    TranslateOptions {
        semantics: Default::default(),
        pipeline: PipelineState {
            sm1_sampler_kinds,
            projected,
            alpha_test,
            fog,
            fog_depth,
            point_expansion: d.primitive == Primitive::PointList,
            point_sprites: rs.point_sprite,
            flat_shading: rs.shade == ShadeMode::Flat,
            // The enabled planes, in the driver uniforms' first clip-plane slots.
            clip_planes: d.user_clip_planes().count() as u8,
            // The viewport carries D3D9's half-pixel offset.
            position_fixup: false,
            ..Default::default()
        },
    }
}

/// The driver uniform buffer for a draw (layout: [`d3dbc::target::interface::driver`]).
fn driver_uniforms(d: &Draw) -> Vec<[f32; 4]> {
    let mut u = vec![[0.0f32; 4]; driver::VEC4S as usize];
    let vp = &d.viewport;
    // POS_FIXUP stays zero: the half-pixel offset is in the viewport.
    let rs = &d.render_states;
    u[driver::ALPHA_REF as usize][0] = (rs.alpha_ref & 0xFF) as f32 / 255.0;
    u[driver::FOG_PARAMS as usize] = [rs.fog_start, rs.fog_end, rs.fog_density, 0.0];
    u[driver::FOG_COLOR as usize] = d3dbc_exec::format::d3dcolor(rs.fog_color);
    for s in 0..d3dbc::regs::MAX_TEXTURES {
        let st = d.stage(s);
        u[driver::BUMP_MAT as usize + s] = st.bump_mat;
        u[driver::BUMP_LUM as usize + s] = [st.bump_lscale, st.bump_loffset, 0.0, 0.0];
    }
    u[driver::POINT_SIZE as usize] = [rs.point_size, rs.point_size_min, rs.point_size_max, 0.0];
    u[driver::POINT_EXTENT as usize] = [
        2.0 / vp.width.max(1) as f32,
        -2.0 / vp.height.max(1) as f32,
        0.0,
        0.0,
    ];
    // The enabled planes packed from slot 0, as `options_for` counts them (plane 3
    // alone enabled is clip distance 0).
    for (k, (_, p)) in d.user_clip_planes().enumerate() {
        u[driver::CLIP_PLANE as usize + k] = p;
    }
    u
}

pub use d3dbc_exec::replay::{ProbeBook, ProbeOutcome};

/// Replays an oracle record on the GPU and checks every probe.
pub fn replay(gpu: &Gpu, rec: &d3dbc_exec::oracle::Record) -> Vec<ProbeOutcome> {
    let mut book = ProbeBook::new(rec);
    let run = gpu.run_scene(
        &rec.scene,
        |n| rec.probes.iter().any(|p| p.after_draws == n),
        |n, imgs| book.after_draws(n, |t| imgs.get(t).map(|img| move |x, y| img.get(x, y))),
    );
    book.finish(run.err().map(|e| e.to_string()))
}
