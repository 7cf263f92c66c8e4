//! Runs a [`Scene`]: vertex fetch and vertex shading (four vertices per lane group),
//! primitive assembly, D3D9 rasterization (pixel centres on integer coordinates, top-left
//! fill rule, perspective-correct interpolation, flat shading, point sprites), pixel
//! shading in groups of four 2×2 quads (16 lanes; quad rows in parallel with rayon),
//! then alpha test, depth test, blending and the colour write mask into the render
//! targets.
// Lane and component loops index several structure-of-arrays values at once.
#![allow(clippy::needless_range_loop)]

use rayon::prelude::*;

use d3dbc::token::DeclUsage;
use d3dbc::{Semantics, Shader};

use crate::draw::*;
use crate::exec::{self, ConstFile, Env, ExecError, Lanes, Mask, Program, Stage, LANES, QUAD};
use crate::merge::PrimInfo;
use crate::texture::{Decoded, TextureError};

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

/// A render target's contents as RGBA floats (already quantised to its format).
#[derive(Clone, Debug, PartialEq)]
pub struct Image {
    /// Width.
    pub width: u32,
    /// Height.
    pub height: u32,
    /// The target's format: the CPU quantises the values to it; the GPU runner reads
    /// back what the device stored (8 bits per channel for the non-float formats).
    pub format: Format,
    /// Pixels, row-major.
    pub pixels: Vec<[f32; 4]>,
}

impl Image {
    /// Pixel (x, y), or zeros outside.
    pub fn get(&self, x: u32, y: u32) -> [f32; 4] {
        if x >= self.width || y >= self.height {
            return [0.0; 4];
        }
        self.pixels[(y * self.width + x) as usize]
    }

    /// The pixels as 8-bit RGBA in row order (each channel clamped to [0, 1] and
    /// rounded), what a PNG file or a browser canvas takes.
    pub fn to_rgba8(&self) -> Vec<u8> {
        let q = |x: f32| (x.clamp(0.0, 1.0) * 255.0).round() as u8;
        self.pixels
            .iter()
            .flat_map(|p| [q(p[0]), q(p[1]), q(p[2]), q(p[3])])
            .collect()
    }
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
}

impl Default for Options {
    fn default() -> Self {
        Options {
            sem: Semantics::default(),
            budget: DEFAULT_BUDGET,
            trace_pixel: None,
        }
    }
}

/// A pixel-shader trace: per executed instruction, its index in the program's
/// [`Program::originals`], the value it wrote at the traced pixel and whether that
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
pub struct Renderer {
    /// Colour targets.
    pub targets: Vec<Image>,
    /// Depth buffer.
    pub depth: Option<Vec<f32>>,
    /// Stencil buffer (8 bits, beside the depth buffer, when its format has one).
    pub stencil: Option<Vec<u8>>,
    /// The depth buffer's format (depths are quantised to it).
    pub depth_format: DepthFormat,
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

pub(crate) fn quantize(format: Format, v: [f32; 4]) -> [f32; 4] {
    use Format::*;
    let q = |x: f32, bits: u32| {
        let m = ((1u32 << bits) - 1) as f32;
        (exec_sat(x) * m).round() / m
    };
    match format {
        A8R8G8B8 | A8B8G8R8 => [q(v[0], 8), q(v[1], 8), q(v[2], 8), q(v[3], 8)],
        X8R8G8B8 | X8B8G8R8 => [q(v[0], 8), q(v[1], 8), q(v[2], 8), 1.0],
        R5G6B5 => [q(v[0], 5), q(v[1], 6), q(v[2], 5), 1.0],
        A1R5G5B5 => [q(v[0], 5), q(v[1], 5), q(v[2], 5), q(v[3], 1)],
        X1R5G5B5 => [q(v[0], 5), q(v[1], 5), q(v[2], 5), 1.0],
        A4R4G4B4 => [q(v[0], 4), q(v[1], 4), q(v[2], 4), q(v[3], 4)],
        R32F => [v[0], 1.0, 1.0, 1.0],
        G32R32F => [v[0], v[1], 1.0, 1.0],
        R16F => [f16_round(v[0]), 1.0, 1.0, 1.0],
        G16R16F => [f16_round(v[0]), f16_round(v[1]), 1.0, 1.0],
        A16B16G16R16F => v.map(f16_round),
        _ => v,
    }
}

fn f16_round(x: f32) -> f32 {
    // Good enough for targets: round the mantissa to 10 bits.
    if !x.is_finite() || x == 0.0 {
        return x;
    }
    let b = x.to_bits();
    let r = (b + 0x0FFF + ((b >> 13) & 1)) & !0x1FFF;
    f32::from_bits(r).clamp(-65504.0, 65504.0)
}

#[inline]
pub(crate) fn exec_sat(x: f32) -> f32 {
    if x > 0.0 {
        x.min(1.0)
    } else {
        0.0
    }
}

/// A vertex after shading: clip-space and screen position and the varyings the pixel
/// shader reads.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SVert {
    pub(crate) x: f64,
    pub(crate) y: f64,
    pub(crate) z: f64,
    pub(crate) rhw: f64,
    /// Clip-space position (`oPos`); `(0, 0, 0, 1)` for pre-transformed vertices, which
    /// are never clipped.
    pub(crate) pos: [f64; 4],
    pub(crate) psize: f32,
    /// Vertex fog factor (`oFog`, else the specular alpha; 1 when neither).
    pub(crate) fog: f32,
    /// Signed distances to the enabled user clip planes (`dot(oPos, plane)`; planes
    /// not enabled read 0, which never clips).
    pub(crate) clip: [f64; NCLIP],
    pub(crate) v: [[f32; 4]; NVARY],
}

impl SVert {
    /// Recomputes the screen position from the clip-space one.
    pub(crate) fn set_screen(&mut self, vp: Viewport) {
        let rhw = 1.0 / self.pos[3];
        self.x = vp.x as f64 + (self.pos[0] * rhw + 1.0) * vp.width as f64 * 0.5;
        self.y = vp.y as f64 + (1.0 - self.pos[1] * rhw) * vp.height as f64 * 0.5;
        self.z = vp.min_z as f64 + self.pos[2] * rhw * (vp.max_z - vp.min_z) as f64;
        self.rhw = rhw;
    }
}

pub(crate) const NVARY: usize = 16;

/// User clip planes D3D9 defines (`D3DCLIPPLANE0`…`D3DCLIPPLANE5`).
pub(crate) const NCLIP: usize = 6;

/// The distances of clip-space position `pos` to the planes enabled by
/// `D3DRS_CLIPPLANEENABLE` (only when `D3DRS_CLIPPING` is on).
fn clip_distances(pos: [f32; 4], rs: &RenderStates) -> [f64; NCLIP] {
    let mut d = [0.0f64; NCLIP];
    if !rs.clipping {
        return d;
    }
    for (i, di) in d.iter_mut().enumerate() {
        if rs.clip_plane_enable & (1 << i) != 0 {
            if let Some(pl) = rs.clip_planes.get(i) {
                *di = (0..4).map(|c| pos[c] as f64 * pl[c] as f64).sum();
            }
        }
    }
    d
}

/// Where pixel-shader input `k` comes from and where it goes.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Link {
    pub(crate) usage: u8,
    pub(crate) index: u8,
    /// Register-file index in the pixel shader.
    pub(crate) ps_reg: usize,
    /// Also the ps_1_x interpolated texture coordinate register.
    pub(crate) tc_reg: Option<usize>,
    pub(crate) color: bool,
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
            targets,
            depth,
            stencil,
            depth_format: scene.depth.map(|d| d.format).unwrap_or_default(),
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
                    for (i, t) in self.targets.iter_mut().enumerate() {
                        if c.target.is_none_or(|x| x as usize == i) {
                            let v = quantize(t.format, c.color);
                            t.pixels.iter_mut().for_each(|p| *p = v);
                        }
                    }
                }
                if c.depth_enabled {
                    if let Some(d) = self.depth.as_mut() {
                        let z = self.depth_format.quantize(c.depth.clamp(0.0, 1.0));
                        d.iter_mut().for_each(|p| *p = z);
                    }
                }
                if c.stencil_enabled {
                    if let Some(s) = self.stencil.as_mut() {
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
        if self.targets.is_empty() {
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
        let stages: Vec<Stage> = (0..20)
            .map(|i| Stage {
                tex: decoded.get(i).and_then(|x| x.as_ref()),
                state: d.sampler(i),
                tss: d.stage(i),
            })
            .collect();
        let vs_stages: Vec<Stage> = (16..20).map(|i| stages[i]).collect();

        // Vertex shading.
        let nverts = d.vertex_count as usize;
        if nverts > 1 << 20 {
            return Err(RenderError::Size(format!("{nverts} vertices")));
        }
        let links = ps_links(ps.as_ref());
        let mut verts: Vec<SVert> = Vec::with_capacity(nverts);
        let vp = d.viewport;
        let rs = &d.render_states;
        match &vs {
            Some(vsp) => {
                let consts = vsp.constants(&d.vs_constants, &sem);
                let env = Env {
                    consts: &consts,
                    stages: &vs_stages,
                    sem: &sem,
                    budget: self.opts.budget,
                };
                let mut lanes = Lanes::default();
                let mut base = 0;
                while base < nverts {
                    lanes.reset();
                    for l in 0..QUAD {
                        let vi = (base + l).min(nverts - 1);
                        fetch_vertex(d, vsp, vi, &mut lanes, l);
                    }
                    // Output registers start at (0, 0, 0, 0) except oFog/oPts defaults.
                    exec::run(vsp, &mut lanes, &env, 0xF)
                        .map_err(|err| RenderError::Exec { stage: "vs", err })?;
                    self.stats.nonfinite_lookups += lanes.nonfinite_lookups;
                    for l in 0..QUAD {
                        if base + l >= nverts {
                            break;
                        }
                        verts.push(vs_output(vsp, &lanes, l, &links, vp, rs));
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

    /// Rasterizes and shades one triangle (already clipped); `flat_v` holds the
    /// provoking vertex's varyings for flat shading.
    pub(crate) fn triangle(
        &mut self,
        mut v: [SVert; 3],
        flat_v: &[[f32; 4]; NVARY],
        d: &Draw,
        ctx: &PixelCtx,
        no_cull: bool,
    ) -> Result<(), RenderError> {
        let rs = &d.render_states;
        let area = (v[1].x - v[0].x) * (v[2].y - v[0].y) - (v[2].x - v[0].x) * (v[1].y - v[0].y);
        if area == 0.0 || !area.is_finite() {
            return Ok(());
        }
        let cw = area > 0.0;
        if !no_cull {
            match rs.cull {
                Cull::Ccw if !cw => return Ok(()),
                Cull::Cw if cw => return Ok(()),
                _ => {}
            }
        }
        let flat_v = *flat_v;
        if !cw {
            v.swap(1, 2);
        }
        let area = area.abs();
        let face = if cw { 1.0f32 } else { -1.0 };
        // Coverage: snapped positions (SUBPIXEL); a triangle that snapping makes
        // degenerate, or turns over, covers nothing.
        let snapped = v.map(|p| (snap(p.x), snap(p.y)));
        let [(s0x, s0y), (s1x, s1y), (s2x, s2y)] = snapped;
        if (s1x - s0x) * (s2y - s0y) - (s2x - s0x) * (s1y - s0y) <= 0.0 {
            return Ok(());
        }
        // Bounding box in pixels (centres at integers), clipped to viewport and target.
        let vp = d.viewport;
        let t0 = &self.targets[0];
        let x_min = vp.x as i64;
        let y_min = vp.y as i64;
        let x_max = (vp.x as i64 + vp.width as i64).min(t0.width as i64) - 1;
        let y_max = (vp.y as i64 + vp.height as i64).min(t0.height as i64) - 1;
        let lo = |c: fn(&(f64, f64)) -> f64| {
            (snapped.iter().map(c).fold(f64::INFINITY, f64::min) / SUBPIXEL).ceil() as i64
        };
        let hi = |c: fn(&(f64, f64)) -> f64| {
            (snapped.iter().map(c).fold(f64::NEG_INFINITY, f64::max) / SUBPIXEL).floor() as i64
        };
        let bx0 = lo(|p| p.0).max(x_min);
        let by0 = lo(|p| p.1).max(y_min);
        let bx1 = hi(|p| p.0).min(x_max);
        let by1 = hi(|p| p.1).min(y_max);
        if bx0 > bx1 || by0 > by1 {
            return Ok(());
        }
        // Edges (a → b): plane equations of the exact positions for interpolation, and
        // the snapped edge with the top-left rule for coverage.
        let edges = [(1usize, 2usize), (2, 0), (0, 1)];
        let mut eq = [(0.0f64, 0.0f64, 0.0f64); 3];
        let mut cover = [Edge::default(); 3];
        for (k, (a, b)) in edges.iter().enumerate() {
            let (ax, ay, bx, by) = (v[*a].x, v[*a].y, v[*b].x, v[*b].y);
            // E(p) = (bx-ax)*(py-ay) - (by-ay)*(px-ax), positive inside for CW (y down).
            let a_ = -(by - ay);
            let b_ = bx - ax;
            let c_ = -(a_ * ax + b_ * ay);
            eq[k] = (a_, b_, c_);
            cover[k] = Edge::new(snapped[*a], snapped[*b]);
        }
        let qx0 = bx0 & !1;
        let qy0 = by0 & !1;
        let regions: Vec<[i64; 4]> = match &self.regions {
            Some(r) => r
                .iter()
                .map(|r| {
                    [
                        (r[0] as i64) & !1,
                        (r[1] as i64) & !1,
                        r[2] as i64,
                        r[3] as i64,
                    ]
                })
                .collect(),
            None => vec![[qx0, qy0, bx1 + 1, by1 + 1]],
        };
        let rows: Vec<(i64, i64, i64)> = (qy0..=by1)
            .step_by(2)
            .flat_map(|y| {
                regions
                    .iter()
                    .filter(move |r| y + 1 >= r[1] && y < r[3])
                    .map(move |r| (y, r[0].max(qx0), r[2].min(bx1 + 1)))
            })
            .collect();
        let (pre, clip, nclip) = varyings(&v, ctx);
        let tri = TriSetup {
            v,
            pre,
            clip,
            nclip,
            eq,
            cover,
            area,
            face,
            flat_v,
            bx0,
            bx1,
            by0,
            by1,
        };
        let frags: Vec<(Vec<Frag>, Stats)> = rows
            .par_iter()
            .map_init(Lanes::default, |lanes, &(qy, x0, x1)| {
                shade_row(&tri, qy, x0, x1, ctx, lanes)
            })
            .collect::<Result<Vec<_>, RenderError>>()?;
        let prim = PrimInfo::triangle(&tri.v, cw, rs);
        for (fs, st) in frags {
            self.stats.ps_lanes += st.ps_lanes;
            self.stats.ps_lane_instructions += st.ps_lane_instructions;
            self.stats.nonfinite_lookups += st.nonfinite_lookups;
            for f in fs {
                self.output(&f, d, ctx, &prim);
            }
        }
        Ok(())
    }
}

pub(crate) struct PixelCtx<'a> {
    pub(crate) ps: Option<&'a Program>,
    pub(crate) consts: Option<&'a ConstFile>,
    pub(crate) stages: &'a [Stage<'a>],
    pub(crate) sem: &'a Semantics,
    pub(crate) budget: u64,
    pub(crate) links: &'a [Link],
    pub(crate) flat: bool,
    pub(crate) fog: Option<FogSetup>,
    /// The pixel to trace and where its trace goes.
    pub(crate) trace: Option<((i64, i64), &'a TraceSlot)>,
}

/// Where a traced pixel's steps (and whether it was killed) land during a draw.
pub(crate) type TraceSlot = std::sync::Mutex<Option<(Vec<(u32, [f32; 4], bool)>, bool)>>;

/// Fixed-function fog applied after pixel shaders below 3.0.
#[derive(Clone, Copy)]
pub(crate) struct FogSetup {
    table: FogMode,
    w_fog: bool,
    start: f32,
    end: f32,
    density: f32,
    color: [f32; 3],
}

impl FogSetup {
    fn new(rs: &RenderStates, ps: Option<&Program>) -> Option<FogSetup> {
        if !rs.fog_enable || ps.is_some_and(|p| p.version.major >= 3) {
            return None;
        }
        let c = rs.fog_color;
        Some(FogSetup {
            table: rs.fog_table_mode,
            w_fog: rs.projection_44 != 1.0,
            start: rs.fog_start,
            end: rs.fog_end,
            density: rs.fog_density,
            color: [
                ((c >> 16) & 255) as f32 / 255.0,
                ((c >> 8) & 255) as f32 / 255.0,
                (c & 255) as f32 / 255.0,
            ],
        })
    }

    /// The fog factor (1 = no fog) from the vertex value or the pixel's depth.
    fn factor(&self, vertex: f32, z: f32, w: f32) -> f32 {
        let d = if self.w_fog { w } else { z };
        exec_sat(match self.table {
            FogMode::None => vertex,
            FogMode::Linear => (self.end - d) / (self.end - self.start),
            FogMode::Exp => (-(self.density * d)).exp(),
            FogMode::Exp2 => (-(self.density * d) * (self.density * d)).exp(),
        })
    }
}

/// Sub-pixel precision of the coverage test, in steps per pixel: vertex positions are
/// snapped to 1/256 pixel (to nearest, ties to even), as fixed-point hardware
/// rasterizers do (8 bits on D3D10-class hardware, lavapipe and most Vulkan drivers).
/// Edge functions of snapped positions are exact (integers held in f64, exact below
/// 2^53), so a pixel centre exactly on an edge or a vertex (an edge two triangles share,
/// or one that clipping made) is decided by the top-left rule alone, never by rounding.
/// Interpolation keeps the exact positions.
pub const SUBPIXEL: f64 = 256.0;

/// `c` (pixels) snapped to the [`SUBPIXEL`] grid, in grid steps.
#[inline]
fn snap(c: f64) -> f64 {
    (c * SUBPIXEL).round_ties_even()
}

/// One snapped edge `a → b` of a clockwise (y down) triangle, in [`SUBPIXEL`] steps.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Edge {
    ax: f64,
    ay: f64,
    dx: f64,
    dy: f64,
    /// Top edge (horizontal, interior below) or left edge (interior to the right):
    /// pixel centres exactly on it are covered.
    top_left: bool,
}

impl Edge {
    fn new((ax, ay): (f64, f64), (bx, by): (f64, f64)) -> Edge {
        Edge {
            ax,
            ay,
            dx: bx - ax,
            dy: by - ay,
            top_left: (ay == by && bx > ax) || by < ay,
        }
    }

    /// Whether the pixel centre `(px, py)` (pixels) is inside the edge:
    /// `E = dx·(py − ay) − dy·(px − ax)` positive, or 0 on a top or left edge.
    #[inline]
    fn covers(&self, px: f64, py: f64) -> bool {
        let e = self.dx * (py * SUBPIXEL - self.ay) - self.dy * (px * SUBPIXEL - self.ax);
        e > 0.0 || (e == 0.0 && self.top_left)
    }
}

pub(crate) struct TriSetup {
    pub(crate) v: [SVert; 3],
    pub(crate) pre: [[Option<[f64; 3]>; 4]; NVARY],
    /// Enabled user clip planes' distance numerators per vertex (first `nclip`).
    pub(crate) clip: [[f64; 3]; NCLIP],
    pub(crate) nclip: usize,
    /// Plane equations `a·x + b·y + c` of the edges (exact positions): barycentrics.
    pub(crate) eq: [(f64, f64, f64); 3],
    /// The snapped edges: coverage.
    pub(crate) cover: [Edge; 3],
    pub(crate) area: f64,
    pub(crate) face: f32,
    pub(crate) flat_v: [[f32; 4]; NVARY],
    pub(crate) bx0: i64,
    pub(crate) bx1: i64,
    pub(crate) by0: i64,
    pub(crate) by1: i64,
}

pub(crate) struct Frag {
    pub(crate) x: u32,
    pub(crate) y: u32,
    pub(crate) color: [[f32; 4]; 4],
    pub(crate) depth: f32,
}

/// Pixel offset of lane `l` of a lane group from the group's top-left pixel: the group
/// is four 2×2 quads side by side (8×2 pixels).
#[inline]
fn lane_offset(l: usize) -> (i64, i64) {
    (
        2 * (l / exec::QUAD) as i64 + (l & 1) as i64,
        ((l >> 1) & 1) as i64,
    )
}

/// The lanes of quad `q` of a lane group.
#[inline]
fn quad_mask(q: usize) -> Mask {
    0xF << (exec::QUAD * q)
}

fn shade_row(
    t: &TriSetup,
    qy: i64,
    x0: i64,
    x1: i64,
    ctx: &PixelCtx,
    lanes: &mut Lanes,
) -> Result<(Vec<Frag>, Stats), RenderError> {
    let mut out = Vec::with_capacity(2 * (x1 - (x0 & !1)).max(0) as usize);
    let mut stats = Stats::default();
    // A full clear per row; between the groups of a row only what the shader writes.
    lanes.reset();
    let mut g = Group {
        gx: x0 & !1,
        qy,
        cover: 0,
        active: 0,
        bary: [[0.0; LANES]; 3],
    };
    while g.gx < x1 {
        // Coverage and barycentric weights, edge by edge over all lanes.
        let mut fx = [0.0f64; LANES];
        let mut fy = [0.0f64; LANES];
        let mut inside = [true; LANES];
        for l in 0..LANES {
            let (dx, dy) = lane_offset(l);
            let (px, py) = (g.gx + dx, qy + dy);
            (fx[l], fy[l]) = (px as f64, py as f64);
            inside[l] = px >= t.bx0 && px <= t.bx1 && py >= t.by0 && py <= t.by1;
        }
        for (k, (&(a, b, c), edge)) in t.eq.iter().zip(&t.cover).enumerate() {
            for l in 0..LANES {
                let e = a * fx[l] + b * fy[l] + c;
                g.bary[k][l] = e / t.area;
                inside[l] &= edge.covers(fx[l], fy[l]);
            }
        }
        let b = &g.bary;
        for p in &t.clip[..t.nclip] {
            for l in 0..LANES {
                // A NaN distance does not clip.
                if b[0][l] * p[0] + b[1][l] * p[1] + b[2][l] * p[2] < 0.0 {
                    inside[l] = false;
                }
            }
        }
        g.cover = 0;
        for (l, i) in inside.iter().enumerate() {
            g.cover |= (*i as Mask) << l;
        }
        // Quads starting inside the span with a covered pixel run (helpers included).
        g.active = 0;
        for q in 0..LANES / exec::QUAD {
            let m = quad_mask(q);
            if g.gx + 2 * (q as i64) < x1 && g.cover & m != 0 {
                g.active |= m;
            }
        }
        g.cover &= g.active;
        if g.active != 0 {
            shade_group(t, &g, ctx, lanes, &mut out, &mut stats)?;
        }
        g.gx += 2 * (LANES / exec::QUAD) as i64;
    }
    Ok((out, stats))
}

/// Shades one 2×2 quad at (`qx`, `qy`) (pixel `l` at `(qx + (l & 1), qy + (l >> 1))`)
/// with its barycentric weights per pixel: the entry point for primitives that find
/// their pixels quad by quad (lines).
#[allow(clippy::too_many_arguments)]
pub(crate) fn shade_quad(
    t: &TriSetup,
    qx: i64,
    qy: i64,
    cover: u8,
    bary: &[[f64; 3]; 4],
    ctx: &PixelCtx,
    lanes: &mut Lanes,
    out: &mut Vec<Frag>,
    stats: &mut Stats,
) -> Result<(), RenderError> {
    let mut g = Group {
        gx: qx,
        qy,
        cover: cover as Mask & quad_mask(0),
        active: quad_mask(0),
        bary: [[0.0; LANES]; 3],
    };
    for (l, b) in bary.iter().enumerate() {
        for k in 0..3 {
            g.bary[k][l] = b[k];
        }
    }
    shade_lanes(t, &g, ctx, lanes, out, stats)
}

/// A lane group: four quads side by side from pixel (`gx`, `qy`).
#[derive(Clone, Copy)]
struct Group {
    gx: i64,
    qy: i64,
    /// Lanes inside the primitive.
    cover: Mask,
    /// Lanes that run (the quads with a covered lane, helpers included).
    active: Mask,
    /// Barycentric weights per lane, structure of arrays.
    bary: [[f64; LANES]; 3],
}

/// Shades a lane group. The instruction budget is per quad: when the group as a whole
/// runs out, each quad runs alone, exactly as if it had been the only one in its group.
fn shade_group(
    t: &TriSetup,
    g: &Group,
    ctx: &PixelCtx,
    lanes: &mut Lanes,
    out: &mut Vec<Frag>,
    stats: &mut Stats,
) -> Result<(), RenderError> {
    match shade_lanes(t, g, ctx, lanes, out, stats) {
        Err(RenderError::Exec {
            err: ExecError::Budget { .. },
            ..
        }) if g.active.count_ones() as usize > exec::QUAD => {
            for q in 0..LANES / exec::QUAD {
                let m = quad_mask(q);
                if g.active & m != 0 {
                    let alone = Group {
                        cover: g.cover & m,
                        active: m,
                        ..*g
                    };
                    shade_lanes(t, &alone, ctx, lanes, out, stats)?;
                }
            }
            Ok(())
        }
        r => r,
    }
}

fn shade_lanes(
    t: &TriSetup,
    g: &Group,
    ctx: &PixelCtx,
    lanes: &mut Lanes,
    out: &mut Vec<Frag>,
    stats: &mut Stats,
) -> Result<(), RenderError> {
    let (gx, qy) = (g.gx, g.qy);
    match ctx.ps {
        Some(p) => lanes.reset_for(p),
        None => lanes.reset(),
    }
    let v = &t.v;
    let [b0, b1, b2] = &g.bary;
    let mut w = [0.0f64; LANES];
    let mut depth = [0.0f32; LANES];
    for l in 0..LANES {
        w[l] = b0[l] * v[0].rhw + b1[l] * v[1].rhw + b2[l] * v[2].rhw;
        let z = b0[l] * v[0].z + b1[l] * v[1].z + b2[l] * v[2].z;
        depth[l] = z as f32;
    }
    let mut fogf = [1.0f32; LANES];
    if let Some(f) = &ctx.fog {
        for l in 0..LANES {
            let vf = (b0[l] * v[0].fog as f64 * v[0].rhw
                + b1[l] * v[1].fog as f64 * v[1].rhw
                + b2[l] * v[2].fog as f64 * v[2].rhw)
                / w[l];
            fogf[l] = f.factor(vf as f32, depth[l], (1.0 / w[l]) as f32);
        }
    }
    // Inputs, written component by component for all lanes at once.
    for (k, link) in ctx.links.iter().enumerate() {
        for c in 0..4 {
            let mut col = [0.0f32; LANES];
            if ctx.flat && link.color {
                col = [t.flat_v[k][c]; LANES];
            } else {
                match &t.pre[k][c] {
                    None => col = [v[0].v[k][c]; LANES],
                    Some(p) => {
                        for l in 0..LANES {
                            col[l] = ((b0[l] * p[0] + b1[l] * p[1] + b2[l] * p[2]) / w[l]) as f32;
                        }
                    }
                }
            }
            lanes.regs[link.ps_reg][c] = col;
            if let Some(tc) = link.tc_reg {
                lanes.regs[tc][c] = col;
            }
        }
    }
    let vpos = &mut lanes.regs[exec::VPOS];
    for l in 0..LANES {
        let (dx, dy) = lane_offset(l);
        vpos[0][l] = (gx + dx) as f32;
        vpos[1][l] = (qy + dy) as f32;
    }
    vpos[2] = [0.0; LANES];
    vpos[3] = [0.0; LANES];
    lanes.regs[exec::VFACE] = [[t.face; LANES]; 4];
    // Where the colours come from: oC0..oC3 (ps_2_0+), r0 saturated (ps_1_x), or the
    // diffuse colour (fixed function: the register of that input, else white).
    enum Source {
        Color,
        R0,
        Diffuse(Option<usize>),
    }
    let src = match (ctx.ps, ctx.consts) {
        (Some(p), Some(consts)) => {
            let env = Env {
                consts,
                stages: ctx.stages,
                sem: ctx.sem,
                budget: ctx.budget,
            };
            lanes.regs[exec::DEPTH] = [depth, [0.0; LANES], [0.0; LANES], [0.0; LANES]];
            // The traced pixel, when it is one of this group's covered lanes.
            let traced = ctx.trace.and_then(|((x, y), slot)| {
                (0..LANES)
                    .find(|&l| {
                        let (dx, dy) = lane_offset(l);
                        g.cover & (1 << l) != 0 && (gx + dx, qy + dy) == (x, y)
                    })
                    .map(|l| (l, slot))
            });
            if let Some((l, _)) = traced {
                lanes.trace = Some(Vec::new());
                lanes.trace_lane = l;
            }
            let ran = exec::run(p, lanes, &env, g.active);
            if let Some((l, slot)) = traced {
                let steps = lanes.trace.take().unwrap_or_default();
                if let Ok(mut s) = slot.lock() {
                    *s = Some((steps, lanes.killed & (1 << l) != 0));
                }
            }
            ran.map_err(|err| RenderError::Exec { stage: "ps", err })?;
            stats.ps_lanes += g.active.count_ones() as u64;
            stats.ps_lane_instructions += lanes.lane_instructions;
            stats.nonfinite_lookups += lanes.nonfinite_lookups;
            if p.writes_depth {
                depth = lanes.regs[exec::DEPTH][0];
            }
            if p.version.major < 2 {
                Source::R0
            } else {
                Source::Color
            }
        }
        _ => Source::Diffuse(
            ctx.links
                .iter()
                .find(|l| l.usage == DeclUsage::Color as u8 && l.index == 0)
                .map(|l| l.ps_reg),
        ),
    };
    let live = g.cover & !lanes.killed;
    for l in 0..LANES {
        if live & (1 << l) == 0 {
            continue;
        }
        let mut color = [[0.0f32; 4]; 4];
        match src {
            Source::Color => {
                for (c, col) in color.iter_mut().enumerate() {
                    *col = lanes.get(exec::color_reg(c as u16), l);
                }
            }
            // The ps_1_x colour output is r0, saturated or not by the device.
            Source::R0 => {
                let c = lanes.get(exec::temp_reg(0), l);
                color[0] = if ctx.sem.ps1x_saturate_output {
                    c.map(exec_sat)
                } else {
                    c
                };
            }
            Source::Diffuse(Some(r)) => color[0] = lanes.get(r, l),
            Source::Diffuse(None) => color[0] = [1.0; 4],
        }
        if let Some(f) = &ctx.fog {
            for c in 0..3 {
                let x = color[0][c];
                color[0][c] = fogf[l] * x + (1.0 - fogf[l]) * f.color[c];
            }
        }
        let (dx, dy) = lane_offset(l);
        out.push(Frag {
            x: (gx + dx) as u32,
            y: (qy + dy) as u32,
            color,
            depth: depth[l],
        });
    }
    Ok(())
}

/// The pixel shader's inputs and their semantics.
fn ps_links(ps: Option<&Program>) -> Vec<Link> {
    let mut links = Vec::new();
    let color = DeclUsage::Color as u8;
    let texc = DeclUsage::TexCoord as u8;
    match ps {
        Some(p) if p.version.major >= 3 => {
            for s in &p.inputs {
                links.push(Link {
                    usage: s.usage,
                    index: s.index,
                    ps_reg: s.reg,
                    tc_reg: None,
                    color: s.usage == color,
                });
            }
        }
        Some(p) if p.version.major == 2 => {
            for s in &p.inputs {
                links.push(Link {
                    usage: s.usage,
                    index: s.index,
                    ps_reg: s.reg,
                    tc_reg: None,
                    color: s.usage == color,
                });
            }
        }
        _ => {
            // ps_1_x (and fixed function): v0, v1 colours; t0..t7 texture coordinates.
            for i in 0..2u16 {
                links.push(Link {
                    usage: color,
                    index: i as u8,
                    ps_reg: exec::input_reg(i),
                    tc_reg: None,
                    color: true,
                });
            }
            for i in 0..8u16 {
                links.push(Link {
                    usage: texc,
                    index: i as u8,
                    ps_reg: exec::tex_reg(i),
                    tc_reg: Some(exec::tc_reg(i)),
                    color: false,
                });
            }
        }
    }
    links.truncate(NVARY);
    links
}

/// One vertex element of vertex `vi` as RGBA floats (missing components 0, 0, 0, 1),
/// or `None` when its stream is absent or too short (shared with the GPU runner).
pub fn read_element(d: &Draw, e: &VertexElement, vi: usize) -> Option<[f32; 4]> {
    let s = d.streams.iter().find(|s| s.stream == e.stream)?;
    let off = vi * s.stride as usize + e.offset as usize;
    let b = s.data.get(off..off + e.ty.size())?;
    let f = |i: usize| f32::from_le_bytes([b[4 * i], b[4 * i + 1], b[4 * i + 2], b[4 * i + 3]]);
    let u16at = |i: usize| u16::from_le_bytes([b[2 * i], b[2 * i + 1]]);
    let h = |i: usize| crate::texture::decode_texel(Format::R16F, &u16at(i).to_le_bytes())[0];
    Some(match e.ty {
        DeclType::Float1 => [f(0), 0.0, 0.0, 1.0],
        DeclType::Float2 => [f(0), f(1), 0.0, 1.0],
        DeclType::Float3 => [f(0), f(1), f(2), 1.0],
        DeclType::Float4 => [f(0), f(1), f(2), f(3)],
        DeclType::D3dColor => [
            b[2] as f32 / 255.0,
            b[1] as f32 / 255.0,
            b[0] as f32 / 255.0,
            b[3] as f32 / 255.0,
        ],
        DeclType::Ubyte4 => [b[0] as f32, b[1] as f32, b[2] as f32, b[3] as f32],
        DeclType::Ubyte4N => [
            b[0] as f32 / 255.0,
            b[1] as f32 / 255.0,
            b[2] as f32 / 255.0,
            b[3] as f32 / 255.0,
        ],
        DeclType::Short2 => [u16at(0) as i16 as f32, u16at(1) as i16 as f32, 0.0, 1.0],
        DeclType::Short4 => [
            u16at(0) as i16 as f32,
            u16at(1) as i16 as f32,
            u16at(2) as i16 as f32,
            u16at(3) as i16 as f32,
        ],
        DeclType::Short2N => [
            u16at(0) as i16 as f32 / 32767.0,
            u16at(1) as i16 as f32 / 32767.0,
            0.0,
            1.0,
        ],
        DeclType::Short4N => [
            u16at(0) as i16 as f32 / 32767.0,
            u16at(1) as i16 as f32 / 32767.0,
            u16at(2) as i16 as f32 / 32767.0,
            u16at(3) as i16 as f32 / 32767.0,
        ],
        DeclType::Ushort2N => [
            u16at(0) as f32 / 65535.0,
            u16at(1) as f32 / 65535.0,
            0.0,
            1.0,
        ],
        DeclType::Ushort4N => [
            u16at(0) as f32 / 65535.0,
            u16at(1) as f32 / 65535.0,
            u16at(2) as f32 / 65535.0,
            u16at(3) as f32 / 65535.0,
        ],
        DeclType::Float16_2 => [h(0), h(1), 0.0, 1.0],
        DeclType::Float16_4 => [h(0), h(1), h(2), h(3)],
    })
}

/// What a declared vertex-shader input reads when the vertex declaration has no element
/// for it, or the element's stream is absent or too short: every component is missing,
/// so it reads like the missing components of a partial element, `(0, 0, 0, 1)` (what a
/// disabled attribute reads in GL and wined3d). Shared with the GPU runner.
pub const MISSING_INPUT: [f32; 4] = [0.0, 0.0, 0.0, 1.0];

fn fetch_vertex(d: &Draw, p: &Program, vi: usize, lanes: &mut Lanes, l: usize) {
    for s in &p.inputs {
        lanes.set(s.reg, l, MISSING_INPUT);
    }
    for e in &d.vertex_declaration {
        let reg = match e.register {
            Some(r) => Some(exec::input_reg(r as u16)),
            None => p
                .inputs
                .iter()
                .find(|s| s.usage == e.usage && s.index == e.usage_index)
                .map(|s| s.reg),
        };
        if let Some(reg) = reg {
            if let Some(v) = read_element(d, e, vi) {
                lanes.set(reg, l, v);
            }
        }
    }
}

fn to_screen(pos: [f32; 4], vp: Viewport) -> (f64, f64, f64, f64) {
    let w = pos[3] as f64;
    let rhw = 1.0 / w;
    let x = vp.x as f64 + (pos[0] as f64 * rhw + 1.0) * vp.width as f64 * 0.5;
    let y = vp.y as f64 + (1.0 - pos[1] as f64 * rhw) * vp.height as f64 * 0.5;
    let z = vp.min_z as f64 + pos[2] as f64 * rhw * (vp.max_z - vp.min_z) as f64;
    (x, y, z, rhw)
}

fn vs_output(
    p: &Program,
    lanes: &Lanes,
    l: usize,
    links: &[Link],
    vp: Viewport,
    rs: &RenderStates,
) -> SVert {
    let color = DeclUsage::Color as u8;
    let texc = DeclUsage::TexCoord as u8;
    let (pos, psize) = if p.version.major >= 3 {
        let pos = d3dbc::regs::vs3_position_output(p.outputs.iter().map(|s| (s.usage, s.index)))
            .map_or([0.0; 4], |k| lanes.get(p.outputs[k].reg, l));
        let mut ps = 0.0;
        for s in &p.outputs {
            if s.usage == DeclUsage::PSize as u8 {
                ps = lanes.get(s.reg, l)[0];
            }
        }
        (pos, ps)
    } else {
        let ps = if p.writes[exec::PTS] {
            lanes.get(exec::PTS, l)[0]
        } else {
            0.0
        };
        (lanes.get(exec::POS, l), ps)
    };
    let _ = rs;
    let (x, y, z, rhw) = to_screen(pos, vp);
    let mut v = [[0.0f32; 4]; NVARY];
    for (k, link) in links.iter().enumerate() {
        let val = if p.version.major >= 3 {
            p.outputs
                .iter()
                .find(|s| s.usage == link.usage && s.index == link.index)
                .map(|s| lanes.get(s.reg, l))
        } else if link.usage == color && link.index < 2 {
            let r = exec::attr_reg(link.index as u16);
            p.writes[r].then(|| lanes.get(r, l).map(exec_sat))
        } else if link.usage == texc && link.index < 8 {
            let r = exec::out_reg(link.index as u16);
            p.writes[r].then(|| lanes.get(r, l))
        } else if link.usage == DeclUsage::Fog as u8 {
            p.writes[exec::FOG].then(|| lanes.get(exec::FOG, l).map(exec_sat))
        } else {
            None
        };
        v[k] = val.unwrap_or_else(|| d3dbc::regs::unwritten_varying(link.usage, link.index));
    }
    let fog = if p.version.major >= 3 {
        p.outputs
            .iter()
            .find(|s| s.usage == DeclUsage::Fog as u8)
            .map(|s| lanes.get(s.reg, l)[0])
            .or_else(|| {
                p.outputs
                    .iter()
                    .find(|s| s.usage == color && s.index == 1)
                    .map(|s| lanes.get(s.reg, l)[3])
            })
    } else if p.writes[exec::FOG] {
        Some(lanes.get(exec::FOG, l)[0])
    } else if p.writes[exec::attr_reg(1)] {
        Some(lanes.get(exec::attr_reg(1), l)[3])
    } else {
        None
    };
    SVert {
        x,
        y,
        z,
        rhw,
        pos: pos.map(|c| c as f64),
        psize,
        fog: exec_sat(fog.unwrap_or(1.0)),
        clip: clip_distances(pos, rs),
        v,
    }
}

fn pretransformed(d: &Draw, vi: usize, links: &[Link]) -> SVert {
    let mut pos = [0.0f32, 0.0, 0.0, 1.0];
    let mut v = [[0.0f32; 4]; NVARY];
    for (k, link) in links.iter().enumerate() {
        v[k] = d3dbc::regs::unwritten_varying(link.usage, link.index);
    }
    for e in &d.vertex_declaration {
        let Some(val) = read_element(d, e, vi) else {
            continue;
        };
        if e.usage == DeclUsage::PositionT as u8 || e.usage == DeclUsage::Position as u8 {
            pos = val;
        } else if let Some(k) = links
            .iter()
            .position(|l| l.usage == e.usage && l.index == e.usage_index)
        {
            v[k] = val;
        }
    }
    let rhw = if pos[3] != 0.0 {
        1.0 / pos[3] as f64
    } else {
        1.0
    };
    SVert {
        x: pos[0] as f64,
        y: pos[1] as f64,
        z: pos[2] as f64,
        rhw: 1.0 / rhw,
        pos: [0.0, 0.0, 0.0, 1.0],
        psize: 0.0,
        fog: 1.0,
        // Pre-transformed vertices are not clipped by user planes.
        clip: [0.0; NCLIP],
        v,
    }
}

/// The outcome of one probe of a replayed oracle record.
#[derive(Clone, Debug)]
pub struct ProbeOutcome {
    /// The probe.
    pub probe: crate::oracle::Probe,
    /// `None` = passed; otherwise the first failing pixel and the value read there, or
    /// the render error.
    pub failure: Option<String>,
}

/// The pass/fail count of the oracle examples (CPU and GPU): [`ProbeTally::record`] prints
/// one line per failing probe (label, expected value, what was read), [`ProbeTally::summary`]
/// the last line, `probes: P passed, F failed`.
#[derive(Clone, Copy, Debug, Default)]
pub struct ProbeTally {
    /// Probes that passed.
    pub passed: usize,
    /// Probes that failed.
    pub failed: usize,
}

impl ProbeTally {
    /// Counts `outcomes`, printing each failure to standard output.
    pub fn record(&mut self, outcomes: impl IntoIterator<Item = ProbeOutcome>) {
        for o in outcomes {
            match o.failure {
                None => self.passed += 1,
                Some(f) => {
                    self.failed += 1;
                    println!(
                        "FAIL {}: expected {:?} (channels from {}), {}",
                        o.probe.label,
                        o.probe.expect_f32(),
                        o.probe.first_channel,
                        f
                    );
                }
            }
        }
    }

    /// `probes: P passed, F failed`.
    pub fn summary(&self) -> String {
        format!("probes: {} passed, {} failed", self.passed, self.failed)
    }
}

/// Renders an oracle record on the CPU and checks every probe.
pub fn replay(rec: &crate::oracle::Record, opts: Options) -> Vec<ProbeOutcome> {
    let mut book = ProbeBook::new(rec);
    let regions = rec.probes.iter().map(|p| p.rect).collect();
    let run = Renderer::run_scene(&rec.scene, opts, Some(regions), |n, r| {
        book.after_draws(n, |t| r.targets.get(t).map(|img| move |x, y| img.get(x, y)));
    });
    book.finish(run.err().map(|e| e.to_string()))
}

/// Collects the probes of one oracle record as a runner (this crate's renderer, or the
/// GPU runner) reaches them: both replay a record through the same book.
pub struct ProbeBook<'a> {
    rec: &'a crate::oracle::Record,
    /// Per probe: not reached yet (`None`), passed (`Some(None)`) or failed.
    results: Vec<Option<Option<String>>>,
}

impl<'a> ProbeBook<'a> {
    /// An empty book for `rec`'s probes.
    pub fn new(rec: &'a crate::oracle::Record) -> Self {
        ProbeBook {
            rec,
            results: vec![None; rec.probes.len()],
        }
    }

    /// Checks the probes taken after `n` draws; `target(i)` reads render target `i`
    /// (`None` when there is no such target).
    pub fn after_draws<R: Fn(u32, u32) -> [f32; 4]>(
        &mut self,
        n: usize,
        target: impl Fn(usize) -> Option<R>,
    ) {
        for (i, p) in self.rec.probes.iter().enumerate() {
            if p.after_draws != n {
                continue;
            }
            let Some(read) = target(p.target as usize) else {
                self.results[i] = Some(Some(format!("no render target {}", p.target)));
                continue;
            };
            self.results[i] = Some(match p.check(read) {
                Ok(()) => None,
                Err(((x, y), got)) => Some(format!("at ({x}, {y}) got {got:?}")),
            });
        }
    }

    /// One outcome per probe; a probe never reached fails with the run's error, if any.
    pub fn finish(self, err: Option<String>) -> Vec<ProbeOutcome> {
        self.rec
            .probes
            .iter()
            .zip(self.results)
            .map(|(p, r)| ProbeOutcome {
                probe: p.clone(),
                failure: match r {
                    Some(f) => f,
                    None => Some(err.clone().unwrap_or_else(|| "probe never reached".into())),
                },
            })
            .collect()
    }
}

/// Perspective-correct numerators of a triangle's varyings (per component, `None`
/// when the three vertices agree: the value is then exact).
pub(crate) type Pre = [[Option<[f64; 3]>; 4]; NVARY];

/// Per-triangle setup of the varyings: the perspective-correct numerators, and the
/// enabled user clip planes' distance numerators (the first `nclip` rows).
pub(crate) fn varyings(v: &[SVert; 3], ctx: &PixelCtx) -> (Pre, [[f64; 3]; NCLIP], usize) {
    let mut pre = [[None; 4]; NVARY];
    for (k, pk) in pre.iter_mut().enumerate().take(ctx.links.len()) {
        for (c, pc) in pk.iter_mut().enumerate() {
            let (a0, a1, a2) = (v[0].v[k][c], v[1].v[k][c], v[2].v[k][c]);
            if !(a0 == a1 && a1 == a2) {
                *pc = Some([
                    a0 as f64 * v[0].rhw,
                    a1 as f64 * v[1].rhw,
                    a2 as f64 * v[2].rhw,
                ]);
            }
        }
    }
    // User clip planes: the distance is linear in clip space, so its
    // perspective-correct interpolation is exact; a pixel is clipped where the
    // interpolated distance is < 0 (its sign is that of the numerator, w > 0).
    let mut clip = [[0.0f64; 3]; NCLIP];
    let mut nclip = 0;
    for i in 0..NCLIP {
        if v.iter().any(|p| p.clip[i] != 0.0) {
            clip[nclip] = [0, 1, 2].map(|j| v[j].clip[i] * v[j].rhw);
            nclip += 1;
        }
    }
    (pre, clip, nclip)
}
