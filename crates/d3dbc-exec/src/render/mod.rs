//! Runs a [`Scene`]: vertex fetch and vertex shading (four vertices per lane group),
//! primitive assembly, D3D9 rasterization (pixel centres on integer coordinates, top-left
//! fill rule, perspective-correct interpolation, flat shading, point sprites), pixel
//! shading in groups of four 2×2 quads (16 lanes; quad rows in parallel with rayon),
//! then alpha test, depth test, blending and the colour write mask into the render
//! targets.
//!
//! This module owns the [`Renderer`] and a draw's setup; its children, lowest first:
//! [`fetch`] (vertex fetch, vertex-stage results, stage linkage) → `clip` (homogeneous
//! clipping) → `setup` (triangle setup: snapped edges, varyings) → [`merge`] (the output
//! merger and its [`Framebuffer`]) → `shade` (pixel shading of lane groups) → `raster`
//! and `prim` (triangle rasterization and primitive assembly, adding methods to
//! [`Renderer`]). A child never imports a sibling above it.
// Lane and component loops index several structure-of-arrays values at once.
#![allow(clippy::needless_range_loop)]

use d3dbc::regs::{SAMPLER_STAGES, VERTEX_SAMPLER_BASE};
use d3dbc::{Semantics, Shader};

use crate::draw::*;
use crate::exec::{self, ConstFile, Env, ExecError, Lanes, Program, Stage, QUAD};
use crate::format::quantize;
use crate::texture::{Decoded, TextureError};

mod clip;
pub mod fetch;
pub mod merge;
mod prim;
mod raster;
mod setup;
mod shade;

use fetch::{fetch_vertex, pretransformed, ps_links, vs_output, SVert};
pub use fetch::{read_element, MISSING_INPUT};
pub use merge::{Framebuffer, Image};
pub use setup::SUBPIXEL;
use shade::{FogSetup, PixelCtx};

/// Largest render target accepted (pixels).
pub const MAX_PIXELS: u64 = 1 << 26;
/// Default instruction budget per 2×2 pixel quad or group of four vertices.
pub const DEFAULT_BUDGET: u64 = 1 << 22;

/// Why a scene could not be rendered.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum RenderError {
    /// A shader failed to decode.
    #[error("{stage} shader: {msg}")]
    Shader {
        /// `vs` or `ps`.
        stage: &'static str,
        /// What went wrong.
        msg: String,
    },
    /// Execution failed.
    #[error("{stage} shader: {err}")]
    Exec {
        /// `vs` or `ps`.
        stage: &'static str,
        /// The error.
        err: ExecError,
    },
    /// A texture is malformed.
    #[error("texture stage {stage}: {err}")]
    Texture {
        /// Stage.
        stage: usize,
        /// The error.
        err: TextureError,
    },
    /// Sizes out of range.
    #[error("{0}")]
    Size(String),
}

/// Options of a run.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// Device semantics.
    pub sem: Semantics,
    /// Instruction budget per 2×2 pixel quad or group of four vertices.
    pub budget: u64,
    /// Trace the pixel shader at this pixel `(x, y)`: every instruction it executes
    /// there, with the value it wrote, lands in [`Renderer::trace`] (the last
    /// primitive to shade the pixel wins).
    pub trace_pixel: Option<(u32, u32)>,
    /// Approximated instructions' results moved by this fraction of their documented
    /// error (1: all of it towards +inf, −1 towards −inf), and the pixel shader's
    /// interpolated inputs by this fraction of `shade::INTERPOLATION_ULPS` (4) ulps;
    /// 0 (the default) computes them exactly ([`crate::exec::Env::perturb`]).
    pub perturb: f32,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            sem: Semantics::default(),
            budget: DEFAULT_BUDGET,
            trace_pixel: None,
            perturb: 0.0,
        }
    }
}

/// A pixel-shader trace: per executed instruction, its index in the program's
/// original instructions, the value it wrote at the traced pixel and whether that
/// pixel was active; then the program that ran.
#[derive(Clone, Debug)]
pub struct PixelTrace {
    /// The executed instructions.
    pub steps: Vec<(u32, [f32; 4], bool)>,
    /// The pixel shader that ran.
    pub program: Program,
    /// The pixel was killed (`texkill`/`discard`).
    pub killed: bool,
}

/// Statistics of a run.
#[derive(Clone, Copy, Debug, Default)]
pub struct Stats {
    /// Pixel-shader lane invocations (helpers included).
    pub ps_lanes: u64,
    /// Lane-instructions executed by pixel shaders.
    pub ps_lane_instructions: u64,
    /// Texture lookups (vertex and pixel shaders, active lanes) at a non-finite
    /// coordinate or level: their results are undefined in D3D9, so a draw with any
    /// cannot be compared with another implementation's.
    pub nonfinite_lookups: u64,
}

/// The state of a scene being rendered.
///
/// It reads as its [`Framebuffer`] (`renderer.targets[0]`): the draws write there.
pub struct Renderer {
    /// The render targets and depth/stencil buffer.
    pub fb: Framebuffer,
    /// Options.
    pub opts: Options,
    /// Statistics.
    pub stats: Stats,
    /// When set, only the 2×2 quads touching these rectangles `[l, t, r, b)` are
    /// shaded: the pixels inside come out exactly as in a full render (derivatives are
    /// taken within quads), everything else is left untouched. For checking probes fast.
    pub regions: Option<Vec<[u32; 4]>>,
    /// The pixel shader's trace at [`Options::trace_pixel`], once a draw shaded it.
    pub trace: Option<PixelTrace>,
}

impl std::ops::Deref for Renderer {
    type Target = Framebuffer;
    fn deref(&self) -> &Framebuffer {
        &self.fb
    }
}

impl std::ops::DerefMut for Renderer {
    fn deref_mut(&mut self) -> &mut Framebuffer {
        &mut self.fb
    }
}

impl Renderer {
    /// Allocates the targets of a scene.
    pub fn new(scene: &Scene, opts: Options) -> Result<Renderer, RenderError> {
        let mut targets = Vec::new();
        for t in &scene.targets {
            let n = t.width as u64 * t.height as u64;
            if n == 0 || n > MAX_PIXELS {
                return Err(RenderError::Size(format!(
                    "render target {}x{}",
                    t.width, t.height
                )));
            }
            targets.push(Image {
                width: t.width,
                height: t.height,
                format: t.format,
                pixels: vec![quantize(t.format, t.initial); n as usize],
            });
        }
        let (depth, stencil) = match scene.depth {
            Some(d) => {
                let n = d.width as u64 * d.height as u64;
                if n > MAX_PIXELS {
                    return Err(RenderError::Size("depth buffer".into()));
                }
                let z = d.format.quantize(d.initial.clamp(0.0, 1.0));
                let stencil = d.format.has_stencil();
                (
                    Some(vec![z; n as usize]),
                    stencil.then(|| vec![d.initial_stencil as u8; n as usize]),
                )
            }
            None => (None, None),
        };
        Ok(Renderer {
            fb: Framebuffer {
                targets,
                depth,
                stencil,
                depth_format: scene.depth.map(|d| d.format).unwrap_or_default(),
            },
            opts,
            stats: Stats::default(),
            regions: None,
            trace: None,
        })
    }

    /// Executes one op.
    pub fn op(&mut self, op: &Op) -> Result<(), RenderError> {
        match op {
            Op::Clear(c) => {
                if c.color_enabled {
                    for (i, t) in self.fb.targets.iter_mut().enumerate() {
                        if c.target.is_none_or(|x| x as usize == i) {
                            let v = quantize(t.format, c.color);
                            t.pixels.iter_mut().for_each(|p| *p = v);
                        }
                    }
                }
                if c.depth_enabled {
                    if let Some(d) = self.fb.depth.as_mut() {
                        let z = self.fb.depth_format.quantize(c.depth.clamp(0.0, 1.0));
                        d.iter_mut().for_each(|p| *p = z);
                    }
                }
                if c.stencil_enabled {
                    if let Some(s) = self.fb.stencil.as_mut() {
                        s.iter_mut().for_each(|p| *p = c.stencil as u8);
                    }
                }
                Ok(())
            }
            Op::Draw(d) => self.draw(d),
        }
    }

    /// Renders a whole scene, calling `after_draw(n, self)` after the n-th draw (1-based).
    pub fn run_scene(
        scene: &Scene,
        opts: Options,
        regions: Option<Vec<[u32; 4]>>,
        mut after_draw: impl FnMut(usize, &Renderer),
    ) -> Result<Renderer, RenderError> {
        let mut r = Renderer::new(scene, opts)?;
        r.regions = regions;
        let mut n = 0;
        for op in &scene.ops {
            r.op(op)?;
            if matches!(op, Op::Draw(_)) {
                n += 1;
                after_draw(n, &r);
            }
        }
        Ok(r)
    }

    /// Executes one draw.
    pub fn draw(&mut self, d: &Draw) -> Result<(), RenderError> {
        if self.fb.targets.is_empty() {
            return Err(RenderError::Size("a draw needs a render target".into()));
        }
        let sem = self.opts.sem;
        let load = |tokens: &Option<Vec<u32>>,
                    stage: &'static str|
         -> Result<Option<Program>, RenderError> {
            match tokens {
                None => Ok(None),
                Some(t) => {
                    let sh = Shader::decode(t).map_err(|e| RenderError::Shader {
                        stage,
                        msg: e.to_string(),
                    })?;
                    Program::new(&sh)
                        .map(Some)
                        .map_err(|err| RenderError::Exec { stage, err })
                }
            }
        };
        let vs = load(&d.vs, "vs")?;
        let ps = load(&d.ps, "ps")?;
        // Textures.
        let mut decoded: Vec<Option<Decoded>> = Vec::new();
        for (i, t) in d.textures.iter().enumerate() {
            decoded.push(match t {
                Some(t) => {
                    Some(Decoded::new(t).map_err(|err| RenderError::Texture { stage: i, err })?)
                }
                None => None,
            });
        }
        let stages: Vec<Stage> = (0..SAMPLER_STAGES)
            .map(|i| Stage {
                tex: decoded.get(i).and_then(|x| x.as_ref()),
                state: d.sampler(i),
                tss: d.stage(i),
                projection: d.projection(i),
            })
            .collect();
        let vs_stages: Vec<Stage> = (VERTEX_SAMPLER_BASE..SAMPLER_STAGES)
            .map(|i| stages[i])
            .collect();

        // Vertex shading.
        let nverts = d.vertex_count as usize;
        if nverts > 1 << 20 {
            return Err(RenderError::Size(format!("{nverts} vertices")));
        }
        let links = ps_links(ps.as_ref());
        let mut verts: Vec<SVert> = Vec::with_capacity(nverts);
        let vp = d.viewport;
        let rs = &d.render_states;
        // Planes not enabled stay (0, 0, 0, 0): distance 0, never clipped.
        let mut clip_planes = [[0.0f32; 4]; USER_CLIP_PLANES];
        for (i, plane) in d.user_clip_planes() {
            clip_planes[i] = plane;
        }
        match &vs {
            Some(vsp) => {
                let consts = vsp.constants(&d.vs_constants, &sem);
                let env = Env {
                    consts: &consts,
                    stages: &vs_stages,
                    sem: &sem,
                    budget: self.opts.budget,
                    perturb: self.opts.perturb,
                };
                let mut lanes = Lanes::default();
                let mut base = 0;
                while base < nverts {
                    lanes.reset();
                    for l in 0..QUAD {
                        let vi = (base + l).min(nverts - 1);
                        fetch_vertex(d, vsp, vi, &mut lanes, l);
                    }
                    // Output registers start at (0, 0, 0, 0) except oD0 (set by
                    // fetch_vertex below vs_3_0) and the oFog/oPts defaults.
                    exec::run(vsp, &mut lanes, &env, 0xF)
                        .map_err(|err| RenderError::Exec { stage: "vs", err })?;
                    self.stats.nonfinite_lookups += lanes.nonfinite_lookups;
                    for l in 0..QUAD {
                        if base + l >= nverts {
                            break;
                        }
                        verts.push(vs_output(vsp, &lanes, l, &links, vp, &clip_planes));
                    }
                    base += QUAD;
                }
            }
            None => {
                for vi in 0..nverts {
                    verts.push(pretransformed(d, vi, &links));
                }
            }
        }

        // Pixel stage setup.
        let ps_consts: Option<ConstFile> = ps.as_ref().map(|p| p.constants(&d.ps_constants, &sem));
        let ctx = PixelCtx {
            ps: ps.as_ref(),
            consts: ps_consts.as_ref(),
            stages: &stages,
            sem: &sem,
            budget: self.opts.budget,
            perturb: self.opts.perturb,
            links: &links,
            flat: rs.shade == ShadeMode::Flat,
            fog: FogSetup::new(rs, ps.as_ref()),
            trace: None,
        };

        // Primitive assembly, clipping, fill modes: prim.rs.
        match (self.opts.trace_pixel, ps.as_ref()) {
            (Some((x, y)), Some(p)) => {
                let slot = std::sync::Mutex::new(None);
                let ctx = PixelCtx {
                    trace: Some(((x as i64, y as i64), &slot)),
                    ..ctx
                };
                let r = self.assemble(d, &verts, &ctx);
                if let Some((steps, killed)) = slot.into_inner().unwrap_or_default() {
                    self.trace = Some(PixelTrace {
                        steps,
                        program: p.clone(),
                        killed,
                    });
                }
                r
            }
            _ => self.assemble(d, &verts, &ctx),
        }
    }
}
