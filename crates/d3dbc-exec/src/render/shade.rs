//! Pixel shading: lane groups of four 2×2 quads over a span of a triangle (or one quad
//! of a line), the interpolated inputs, `vPos`/`vFace`, running the pixel shader, the
//! colour source by shader model, fixed-function fog, and the shaded [`Frag`]s handed
//! to the output merger.
// Lane and component loops index several structure-of-arrays values at once.
#![allow(clippy::needless_range_loop)]

use d3dbc::token::DeclUsage;
use d3dbc::Semantics;

use super::fetch::Link;
use super::merge::Frag;
use super::setup::TriSetup;
use super::{RenderError, Stats};
use crate::draw::*;
use crate::exec::{self, ConstFile, Env, ExecError, Lanes, Mask, Program, Stage, LANES};
use crate::format::{d3dcolor, exec_sat};

/// How far a GPU's interpolation may stray, in ulps of the value: GPUs interpolate
/// from float32 plane equations, the executor in f64 (`d3dbc_gpu`'s documented
/// differences). [`super::Options::perturb`] moves interpolated inputs by that much.
pub(crate) const INTERPOLATION_ULPS: f32 = 4.0;

/// Interpolated values moved by `t` × [`INTERPOLATION_ULPS`] ulps.
#[cold]
fn perturb_interpolated(col: &mut [f32; LANES], t: f32) {
    for x in col.iter_mut() {
        let a = x.abs();
        if a.is_finite() {
            let ulp = (f32::from_bits(a.to_bits() + 1) - a).max(f32::from_bits(1));
            *x += t * INTERPOLATION_ULPS * ulp;
        }
    }
}

pub(crate) struct PixelCtx<'a> {
    pub(crate) ps: Option<&'a Program>,
    pub(crate) consts: Option<&'a ConstFile>,
    pub(crate) stages: &'a [Stage<'a>],
    pub(crate) sem: &'a Semantics,
    pub(crate) budget: u64,
    pub(crate) perturb: f32,
    pub(crate) links: &'a [Link],
    pub(crate) flat: bool,
    pub(crate) fog: Option<FogSetup>,
    /// The pixel to trace and where its trace goes.
    pub(crate) trace: Option<((i64, i64), &'a TraceSlot)>,
}

/// Where a traced pixel's steps (and whether it was killed) land during a draw.
pub(crate) type TraceSlot = std::sync::Mutex<Option<(Vec<(u32, [f32; 4], bool)>, bool)>>;

/// Fixed-function fog applied after pixel shaders below 3.0 (and the fixed-function
/// pixel stage), when `FOGENABLE` is on. What Windows does with a vertex shader (Wine
/// `fog_with_shader_test`): a table mode other than `NONE` fogs by the pixel's depth
/// (z, or w with a perspective projection) with `FOGSTART`/`FOGEND`/`FOGDENSITY`,
/// ignoring the shader's fog output; table mode `NONE` fogs by the interpolated vertex
/// fog value (`SVert::fog`: oFog, else the specular alpha), whatever
/// `FOGVERTEXMODE` says (its formula is fixed-function vertex processing). ps_3_0 has
/// no fixed fog.
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
    pub(crate) fn new(rs: &RenderStates, ps: Option<&Program>) -> Option<FogSetup> {
        if !rs.fog_enable || ps.is_some_and(|p| !p.version.has_fixed_function_fog()) {
            return None;
        }
        let c = rs.fog_color;
        Some(FogSetup {
            table: rs.fog_table_mode,
            w_fog: rs.projection_44 != 1.0,
            start: rs.fog_start,
            end: rs.fog_end,
            density: rs.fog_density,
            color: {
                let [r, g, b, _] = d3dcolor(c);
                [r, g, b]
            },
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

#[inline]
pub(crate) fn shade_row(
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
#[inline]
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
                        if ctx.perturb != 0.0 {
                            perturb_interpolated(&mut col, ctx.perturb);
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
                perturb: ctx.perturb,
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
            if p.version.is_ps_1_x() {
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
