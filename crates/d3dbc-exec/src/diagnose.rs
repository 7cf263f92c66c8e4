//! Why a picture is empty: when a scene's first draw leaves its render target at the
//! clear colour, [`why_empty`] finds the stage that dropped everything, as a user
//! debugging a black window would, from the front of the pipeline to the back:
//!
//! 1. the vertex stage: every vertex behind the eye (`w ≤ 0`), every vertex outside
//!    the same side of the view volume, or positions that are not numbers (the
//!    vertex shader runs on the draw's vertices and constants);
//! 2. every triangle of zero area on screen;
//! 3. the output merger: the draw again with one test switched off at a time (alpha
//!    test, depth test, stencil test, culling, user clip planes, blending and the
//!    colour write mask) — the one whose absence draws something is named with its
//!    states;
//! 4. the pixel shader: with every test off the draw still leaves the clear colour, so
//!    its pixels are killed (`texkill`), or it writes the clear colour itself.
//!
//! Only called once a picture is known to be empty; the re-draws cost a few renders of
//! the same scene.

use d3dbc::Shader;

use crate::draw::{Cull, Op, Primitive, Scene};
use crate::exec::{self, Env, Lanes, Program};
use crate::render::fetch::{fetch_vertex, ps_links, vs_output};
use crate::render::{Image, Options, Renderer};

/// Whether every pixel of `image` is `clear` (RGBA, quantised to 8 bits as the PNG
/// writer does).
pub fn is_clear(image: &Image, clear: [f32; 4]) -> bool {
    let q = |x: f32| (x.clamp(0.0, 1.0) * 255.0).round() as u8;
    let c = clear.map(q);
    image.to_rgba8().chunks_exact(4).all(|p| p == c)
}

fn fmt4(v: [f64; 4]) -> String {
    let f = |x: f64| {
        let s = format!("{:.4}", x);
        let s = s.trim_end_matches('0').trim_end_matches('.');
        if s == "-0" {
            "0".to_string()
        } else {
            s.to_string()
        }
    };
    format!("({}, {}, {}, {})", f(v[0]), f(v[1]), f(v[2]), f(v[3]))
}

/// The clip-space positions the draw's vertex shader gives its vertices (`None`: no
/// vertex shader, or it cannot run here).
fn clip_positions(d: &crate::Draw, opts: &Options) -> Option<Vec<[f64; 4]>> {
    let vs = Shader::decode(d.vs.as_deref()?).ok()?;
    let prog = Program::new(&vs).ok()?;
    let cf = prog.constants(&d.vs_constants, &opts.sem);
    let env = Env {
        consts: &cf,
        stages: &[],
        sem: &opts.sem,
        budget: opts.budget,
        perturb: 0.0,
    };
    let ps_prog =
        d.ps.as_deref()
            .and_then(|t| Shader::decode(t).ok())
            .and_then(|s| Program::new(&s).ok());
    let links = ps_links(ps_prog.as_ref());
    let planes = [[0.0f32; 4]; crate::draw::USER_CLIP_PLANES];
    let mut out = Vec::with_capacity(d.vertex_count as usize);
    let mut lanes = Lanes::default();
    for vi in 0..d.vertex_count.min(1 << 16) as usize {
        lanes.reset();
        fetch_vertex(d, &prog, vi, &mut lanes, 0);
        exec::run(&prog, &mut lanes, &env, 0x1).ok()?;
        let v = vs_output(&prog, &lanes, 0, &links, d.viewport, &planes);
        out.push(v.pos);
    }
    Some(out)
}

/// The vertex stage's verdict on clip-space positions: every vertex on the wrong side
/// of one clip plane, or not a number.
fn clipped(pos: &[[f64; 4]]) -> Option<String> {
    let first = pos.first()?;
    if pos.iter().any(|p| p.iter().any(|c| c.is_nan()))
        && pos.iter().all(|p| p.iter().any(|c| c.is_nan()))
    {
        return Some(format!(
            "every vertex is clipped: the vertex shader's positions are not numbers (NaN; \
             first vertex oPos = {})",
            fmt4(*first)
        ));
    }
    let all = |f: &dyn Fn(&[f64; 4]) -> bool| pos.iter().all(f);
    let side = if all(&|p| p[3] <= 0.0) {
        Some("w ≤ 0: behind the eye")
    } else if all(&|p| p[0] > p[3]) {
        Some("x > w: right of the view")
    } else if all(&|p| p[0] < -p[3]) {
        Some("x < -w: left of the view")
    } else if all(&|p| p[1] > p[3]) {
        Some("y > w: above the view")
    } else if all(&|p| p[1] < -p[3]) {
        Some("y < -w: below the view")
    } else if all(&|p| p[2] < 0.0) {
        Some("z < 0: in front of the near plane")
    } else if all(&|p| p[2] > p[3]) {
        Some("z > w: beyond the far plane")
    } else {
        None
    };
    side.map(|s| {
        format!(
            "every vertex is clipped ({s}; first vertex oPos = {})",
            fmt4(*first)
        )
    })
}

/// Whether every triangle the draw assembles has zero area on screen.
fn zero_area(d: &crate::Draw, pos: &[[f64; 4]]) -> Option<String> {
    let screen: Vec<(f64, f64)> = pos
        .iter()
        .map(|p| {
            let w = if p[3] == 0.0 { 1.0 } else { p[3] };
            (p[0] / w, p[1] / w)
        })
        .collect();
    let tris: Vec<[usize; 3]> = match d.primitive {
        Primitive::TriangleList => (0..screen.len() / 3)
            .map(|i| [3 * i, 3 * i + 1, 3 * i + 2])
            .collect(),
        Primitive::TriangleStrip => (2..screen.len()).map(|i| [i - 2, i - 1, i]).collect(),
        Primitive::TriangleFan => (2..screen.len()).map(|i| [0, i - 1, i]).collect(),
        _ => return None,
    };
    if tris.is_empty() {
        return None;
    }
    let area = |[a, b, c]: [usize; 3]| {
        let (p, q, r) = (screen[a], screen[b], screen[c]);
        ((q.0 - p.0) * (r.1 - p.1) - (r.0 - p.0) * (q.1 - p.1)).abs()
    };
    if tris.iter().all(|t| area(*t) == 0.0) {
        return Some(format!(
            "every triangle has zero area on screen (first vertex oPos = {}): the vertex \
             shader puts the vertices on one point or line",
            fmt4(pos[0])
        ));
    }
    None
}

/// Renders `scene` with its first draw changed by `f`; whether the picture is still
/// the clear colour, and the renderer.
fn redraw(scene: &Scene, opts: Options, f: impl Fn(&mut crate::Draw)) -> Option<(bool, Renderer)> {
    let mut s = scene.clone();
    let Some(Op::Draw(d)) = s.ops.iter_mut().find(|o| matches!(o, Op::Draw(_))) else {
        return None;
    };
    f(d);
    let r = Renderer::run_scene(&s, opts, None, |_, _| {}).ok()?;
    let clear = is_clear(r.fb.targets.first()?, scene.targets[0].initial);
    Some((clear, r))
}

/// A change to a draw that switches one test off.
type Undo<'a> = &'a dyn Fn(&mut crate::Draw);

/// Why `image`, the first target after `scene`, holds nothing but the clear colour
/// (`None` when it holds something else, or no reason is found). One sentence, naming
/// the states or values responsible.
pub fn why_empty(scene: &Scene, image: &Image) -> Option<String> {
    let target = scene.targets.first()?;
    if !is_clear(image, target.initial) {
        return None;
    }
    let d = scene.ops.iter().find_map(|o| match o {
        Op::Draw(d) => Some(d),
        _ => None,
    })?;
    let opts = Options::default();
    if let Some(pos) = clip_positions(d, &opts) {
        if let Some(why) = clipped(&pos).or_else(|| zero_area(d, &pos)) {
            return Some(why);
        }
    }
    // Every test off: does the draw cover anything?
    let off = |d: &mut crate::Draw| {
        let rs = &mut d.render_states;
        rs.alpha_test = false;
        rs.z_enable = false;
        rs.stencil.enable = false;
        rs.cull = Cull::None;
        rs.clip_plane_enable = 0;
        rs.blend = false;
        rs.color_write = 0xF;
    };
    let (still_empty, r) = redraw(scene, opts, off)?;
    if still_empty {
        if r.stats.ps_lanes == 0 {
            return Some("no pixel is covered: the primitives lie outside the viewport".into());
        }
        // Trace the centre of the viewport to tell killed pixels from a clear-coloured
        // result.
        let centre = (
            d.viewport.x + d.viewport.width / 2,
            d.viewport.y + d.viewport.height / 2,
        );
        let traced = redraw(
            scene,
            Options {
                trace_pixel: Some(centre),
                ..opts
            },
            off,
        );
        let killed = traced
            .as_ref()
            .and_then(|(_, r)| r.trace.as_ref())
            .is_some_and(|t| t.killed);
        let c = target.initial;
        return Some(if killed {
            format!(
                "every pixel is killed: the pixel shader discards them (texkill; pixel \
                 ({}, {}) among them)",
                centre.0, centre.1
            )
        } else {
            format!(
                "the pixel shader writes the clear colour ({}, {}, {}, {}) at every pixel",
                c[0], c[1], c[2], c[3]
            )
        });
    }
    let rs = &d.render_states;
    let named: [(&str, String, Undo); 6] = [
        (
            "alpha test",
            format!(
                "the alpha test rejects every pixel (AlphaFunc = {:?}, AlphaRef = {})",
                rs.alpha_func, rs.alpha_ref
            ),
            &|d: &mut crate::Draw| d.render_states.alpha_test = false,
        ),
        (
            "depth test",
            format!(
                "the depth test rejects every pixel (ZFunc = {:?})",
                rs.z_func
            ),
            &|d: &mut crate::Draw| d.render_states.z_enable = false,
        ),
        (
            "stencil test",
            format!(
                "the stencil test rejects every pixel (StencilFunc = {:?}, StencilRef = {})",
                rs.stencil.func, rs.stencil.reference
            ),
            &|d: &mut crate::Draw| d.render_states.stencil.enable = false,
        ),
        (
            "culling",
            format!("every triangle is culled (CullMode = {:?})", rs.cull),
            &|d: &mut crate::Draw| d.render_states.cull = Cull::None,
        ),
        (
            "clip planes",
            format!(
                "the user clip planes clip everything (ClipPlaneEnable = {:#x})",
                rs.clip_plane_enable
            ),
            &|d: &mut crate::Draw| d.render_states.clip_plane_enable = 0,
        ),
        (
            "blending",
            format!(
                "blending and the colour write mask leave the target as it was \
                 (AlphaBlendEnable = {}, SrcBlend = {:?}, DestBlend = {:?}, \
                 ColorWriteEnable = {:#x})",
                rs.blend, rs.src_blend, rs.dest_blend, rs.color_write
            ),
            &|d: &mut crate::Draw| {
                d.render_states.blend = false;
                d.render_states.color_write = 0xF;
            },
        ),
    ];
    for (_, why, undo) in named {
        if let Some((false, _)) = redraw(scene, opts, undo) {
            return Some(why);
        }
    }
    Some("several tests together reject every pixel (alpha, depth, stencil, culling)".into())
}
