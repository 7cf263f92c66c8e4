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
//! The GPU runner is held to the execution oracles' probes and to the CPU executor
//! pixel for pixel; where the two may legitimately differ:
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
//! Subnormals follow [`d3dbc::Denormals`] on both sides (flushed by
//! arithmetic, by default: lavapipe flushes, and the back ends request
//! `DenormFlushToZero` where `PipelineState::float_controls` says the driver has it).
//! `frc` results are clamped to be at least 0 on the GPU, because a driver that contracts
//! the product feeding `x - floor(x)` into an fma can give a tiny negative, outside D3D9's
//! [0, 1). [`compare`] classifies the pixels of any scene, and explains precision-sensitive
//! ones from the executor's traces.
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

mod bind;
pub mod compare;
mod pass;
mod pipeline;
mod readback;
mod shaders;
mod state;
mod texture;

use d3dbc_exec::draw::Format;
use d3dbc_exec::{Op, Scene};
use pipeline::rt_format;
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
pub type PixelOverride =
    dyn Fn(&d3dbc_naga::Translation) -> Result<naga::Module, String> + Send + Sync;

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
}

#[cfg(feature = "oracle")]
pub use d3dbc_exec::replay::{ProbeBook, ProbeOutcome};

/// Replays an oracle record on the GPU and checks every probe (feature `oracle`).
#[cfg(feature = "oracle")]
pub fn replay(gpu: &Gpu, rec: &d3dbc_exec::oracle::Record) -> Vec<ProbeOutcome> {
    let mut book = ProbeBook::new(rec);
    let run = gpu.run_scene(
        &rec.scene,
        |n| rec.probes.iter().any(|p| p.after_draws == n),
        |n, imgs| book.after_draws(n, |t| imgs.get(t).map(|img| move |x, y| img.get(x, y))),
    );
    book.finish(run.err().map(|e| e.to_string()))
}
