//! CPU executor vs GPU (d3dbc-naga + wgpu on lavapipe): the same `Scene` rendered by
//! both, every pixel of every render target compared after every draw.
//!
//! Work compared:
//! - every record of both execution oracles (`vkd3d_exec.jsonl`, `wine_exec.jsonl`),
//!   scaled down to at most 64 pixels a side (viewports and targets divided alike);
//! - every valid corpus pixel shader, drawn full-screen (8×8) by `quick::fullscreen`
//!   behind a generated pass-through vertex shader;
//! - every valid corpus vertex shader over a full-screen quad (8×8), float constants set
//!   to repeating identity rows so that position transforms keep the quad on screen,
//!   its first four varyings written to four float targets by a generated pixel shader.
//!
//! The tolerances, and why the two may legitimately differ, are documented on
//! [`close`]; `DIFF_VERBOSE=1` prints every mismatching pixel.
//!
//! The two translation back ends (d3dbc-spirv, d3dbc-naga) are also compared with each
//! other on the GPU, pixel for pixel, over a stride of the oracle scenes and of the
//! corpus shaders (`D3DBC_GPU_BACKEND_STRIDE`, default 4).

#[path = "../../d3dbc/tests/common/mod.rs"]
mod common;
mod support;

use std::sync::Arc;

use d3dbc::opcode::SlotClass;
use d3dbc::token::DeclUsage;
use d3dbc::Severity;
use d3dbc::{asm, validate, Opcode, Shader};
use d3dbc_exec::draw::{Format, TargetDesc};
use d3dbc_exec::exec::Program;
use d3dbc_exec::render::{Options, Renderer};
use d3dbc_exec::{oracle, quick, Op, Scene};

/// Ulps between two floats by ordered bits (+0 and −0 equal).
fn ulps(a: f32, b: f32) -> u64 {
    let key = |x: f32| {
        let b = x.to_bits() as i32;
        (if b < 0 { i32::MIN - b } else { b }) as i64
    };
    (key(a) - key(b)).unsigned_abs()
}

/// Float channels agree within `ULPS` ulps or `ABS` absolutely: the GPU computes in f32
/// with the driver's own `exp2`/`log2`/`sin`/`cos`/`rsqrt`/division (lavapipe: LLVM's
/// approximations, a few ulps), may fuse `a·b + c`, and interpolates varyings from
/// plane equations in f32 where the CPU uses f64 barycentrics; values that cancel
/// (`a − b` near 0) keep only that absolute error.
const ULPS: u64 = 64;
const ABS: f32 = 2e-5;
/// A pixel outside that tolerance still agrees when the GPU value is within it of one of
/// the CPU's 8 neighbours: a feature edge may move by up to one pixel. Edges that
/// sub-ulp differences move: nearest-texel ties (a coordinate exactly on a texel
/// boundary, as in point-sampled or `texbem`-offset lookups), mip-level choices from
/// derivatives (lavapipe approximates the LOD, the executor computes `log2` of the
/// exact scale), and any step function of a computed value (`frc`/floor, `cmp`, `slt`,
/// `texkill`, alpha test) where the value lands within float error of the step.
fn neighbour_agrees(c: &d3dbc_exec::render::Image, x: u32, y: u32, g: [f32; 4]) -> bool {
    (-1i32..=1).any(|dy| {
        (-1i32..=1).any(|dx| {
            let (nx, ny) = (x as i32 + dx, y as i32 + dy);
            nx >= 0
                && ny >= 0
                && (nx as u32) < c.width
                && (ny as u32) < c.height
                && close(c.format, c.get(nx as u32, ny as u32), g).0
        })
    })
}

/// One step of a target format's coarsest channel (the GPU stores every unorm format
/// as RGBA8, the CPU quantises to the format's own bits).
fn step(f: Format) -> Option<f32> {
    use Format::*;
    Some(match f {
        R5G6B5 | X1R5G5B5 | A1R5G5B5 => 1.0 / 31.0,
        A4R4G4B4 => 1.0 / 15.0,
        A32B32G32R32F | R32F | G32R32F => return None,
        R16F | G16R16F | A16B16G16R16F => return None,
        _ => 1.0 / 255.0,
    })
}

/// How far apart two pixel values are, in units of the tolerance (≤ 1 passes), and the
/// absolute difference.
fn close(f: Format, cpu: [f32; 4], gpu: [f32; 4]) -> (bool, f32) {
    let channels = match f {
        Format::R32F | Format::R16F => 1,
        Format::G32R32F | Format::G16R16F => 2,
        Format::X8R8G8B8 | Format::X8B8G8R8 | Format::R5G6B5 | Format::X1R5G5B5 => 3,
        _ => 4,
    };
    let half = matches!(f, Format::R16F | Format::G16R16F | Format::A16B16G16R16F);
    let mut ok = true;
    let mut worst = 0.0f32;
    for c in 0..channels {
        let (a, b) = (cpu[c], gpu[c]);
        // An infinite varying interpolates to NaN on the GPU (∞ · 0 in the barycentric
        // sum); the executor passes values constant over the triangle through as they
        // are. D3D9 leaves the interpolation of non-finite values undefined.
        if a.is_nan() && b.is_nan() || a == b || a.is_infinite() && b.is_nan() {
            continue;
        }
        let d = (a - b).abs();
        worst = worst.max(if d.is_nan() { f32::INFINITY } else { d });
        let pass = match step(f) {
            // Rounding to the format's steps: values within float error of a rounding
            // boundary land one step apart.
            Some(s) => d <= s * 1.01,
            None if half => ulps(a, b) <= 2 || d <= ABS,
            None => ulps(a, b) <= ULPS || d <= ABS,
        };
        ok &= pass;
    }
    (ok, worst)
}

/// In draws that sample textures, up to this share of the pixels may disagree even
/// after the neighbour rule: the texel a nearest-filtered lookup at a tie picks, or the
/// LOD (cube-map LOD formulas are implementation-defined), feeds later arithmetic, so a
/// different texel or mip level moves the result by a whole step wherever it happens
/// (seen: point-sampled `texbem` offsets, `texldb` on a cube map followed by `frc`).
const TEXTURE_SHARE: f64 = 0.10;

/// Whether a draw's shaders sample textures (texture-class instructions other than
/// `texkill`).
fn samples(d: &d3dbc_exec::Draw) -> bool {
    [&d.vs, &d.ps].into_iter().flatten().any(|t| {
        Shader::decode(t).is_ok_and(|s| {
            s.instructions().any(|i| {
                i.opcode != Opcode::TexKill
                    && (i.opcode.is_texld() || i.opcode.slot_class() == SlotClass::Texture)
            })
        })
    })
}

#[derive(Default, Debug)]
struct Tally {
    compared: usize,
    skipped: usize,
    pixels: usize,
    edge_pixels: usize,
    off_pixels: usize,
    texture_draws: usize,
    texture_pixels: usize,
    agree_draws: usize,
    failures: Vec<String>,
    /// Differing draws in which the executor made texture lookups at non-finite
    /// coordinates (undefined in D3D9): listed, not failures.
    undefined: Vec<String>,
}

/// Renders `scene` on both and compares every target after every draw.
fn compare(gpu: &d3dbc_gpu::Gpu, label: &str, scene: &Scene, t: &mut Tally) {
    let mut cpu_imgs: Vec<Vec<d3dbc_exec::render::Image>> = Vec::new();
    // Per draw: texture lookups at non-finite coordinates on the CPU (cumulative).
    let mut nonfinite: Vec<u64> = Vec::new();
    let cpu = Renderer::run_scene(scene, Options::default(), None, |_, r| {
        cpu_imgs.push(r.targets.clone());
        nonfinite.push(r.stats.nonfinite_lookups);
    });
    if let Err(e) = cpu {
        if std::env::var_os("DIFF_VERBOSE").is_some() {
            eprintln!("{label}: skipped, cpu: {e}");
        }
        t.skipped += 1;
        return;
    }
    let mut gpu_imgs: Vec<Vec<d3dbc_gpu::Image>> = Vec::new();
    if let Err(e) = gpu.run_scene(scene, |_| true, |_, imgs| gpu_imgs.push(imgs.to_vec())) {
        if std::env::var_os("DIFF_VERBOSE").is_some() {
            eprintln!("{label}: skipped, gpu: {e}");
        }
        t.skipped += 1;
        return;
    }
    t.compared += 1;
    let draws: Vec<bool> = scene
        .ops
        .iter()
        .filter_map(|o| match o {
            Op::Draw(d) => Some(samples(d)),
            _ => None,
        })
        .collect();
    let verbose = std::env::var_os("DIFF_VERBOSE").is_some();
    for (n, (c, g)) in cpu_imgs.iter().zip(&gpu_imgs).enumerate() {
        let (mut off, mut edge, mut total, mut worst) = (0usize, 0usize, 0usize, 0.0f32);
        let mut first = None;
        for (ti, (ci, gi)) in c.iter().zip(g).enumerate() {
            for y in 0..ci.height {
                for x in 0..ci.width {
                    total += 1;
                    let (a, b) = (ci.get(x, y), gi.get(x, y));
                    let (ok, d) = close(ci.format, a, b);
                    if !ok && neighbour_agrees(ci, x, y, b) {
                        edge += 1;
                    } else if !ok {
                        off += 1;
                        worst = worst.max(d);
                        first.get_or_insert((ti, x, y, a, b));
                        if verbose {
                            eprintln!(
                                "{label} draw {} rt{ti} ({x},{y}): cpu {a:?} gpu {b:?}",
                                n + 1
                            );
                        }
                    }
                }
            }
        }
        t.pixels += total;
        t.off_pixels += off;
        t.edge_pixels += edge;
        if off + edge == 0 {
            t.agree_draws += 1;
        }
        let share = if draws.get(n).copied().unwrap_or(false) {
            TEXTURE_SHARE
        } else {
            0.0
        };
        if off > 0 && off as f64 <= share * total as f64 {
            t.texture_draws += 1;
            t.texture_pixels += off;
        } else if off > 0 {
            let (ti, x, y, a, b) = first.unwrap();
            let undefined = nonfinite.get(n).copied().unwrap_or(0)
                > n.checked_sub(1)
                    .and_then(|p| nonfinite.get(p).copied())
                    .unwrap_or(0);
            let list = if undefined {
                &mut t.undefined
            } else {
                &mut t.failures
            };
            list.push(format!(
                "{label} draw {}: {off}/{total} pixels off (max {worst}); first rt{ti} ({x},{y}): cpu {a:?} gpu {b:?}",
                n + 1
            ));
        }
    }
}

/// The scene scaled down so that no target is wider or taller than `max` pixels.
fn shrink(scene: &Scene, max: u32) -> Scene {
    let big = scene
        .targets
        .iter()
        .map(|t| t.width.max(t.height))
        .max()
        .unwrap_or(1);
    let f = big.div_ceil(max).max(1);
    let mut s = scene.clone();
    if f == 1 {
        return s;
    }
    let d = |v: u32| v.div_ceil(f).max(1);
    for t in &mut s.targets {
        t.width = d(t.width);
        t.height = d(t.height);
    }
    if let Some(z) = &mut s.depth {
        z.width = d(z.width);
        z.height = d(z.height);
    }
    for op in &mut s.ops {
        if let Op::Draw(dr) = op {
            let vp = &mut dr.viewport;
            vp.x /= f;
            vp.y /= f;
            vp.width = d(vp.width);
            vp.height = d(vp.height);
            let rs = &mut dr.render_states;
            rs.point_size /= f as f32;
        }
    }
    s
}

fn report(what: &str, t: &Tally) {
    eprintln!(
        "{what}: {} scenes compared ({} draws agree on every pixel within the per-pixel tolerance), {} skipped (unsupported on one side); of {} pixels {} agree only with a neighbour (moved edge), {} disagree: {} in {} texture-sampling draws within the texel/LOD share, the rest in {} failing draws",
        t.compared,
        t.agree_draws,
        t.skipped,
        t.pixels,
        t.edge_pixels,
        t.off_pixels,
        t.texture_pixels,
        t.texture_draws,
        t.failures.len()
    );
    for f in &t.failures {
        eprintln!("  {f}");
    }
    eprintln!(
        "{what}: {} more draws differ where the executor sampled at non-finite coordinates (undefined)",
        t.undefined.len()
    );
    for f in &t.undefined {
        eprintln!("  undefined: {f}");
    }
}

#[test]
fn oracle_scenes_agree_on_cpu_and_gpu() {
    let Some(dir) = common::corpus_dir() else {
        return;
    };
    let Some(gpu) = support::gpu() else {
        return;
    };
    let mut t = Tally::default();
    let max = std::env::var("DIFF_MAX_SIDE").map_or(64, |v| v.parse().unwrap_or(64));
    let filter = std::env::var("D3DBC_GPU_DIFF_FILTER").unwrap_or_default();
    for file in ["vkd3d_exec.jsonl", "wine_exec.jsonl"] {
        for rec in oracle::load(&dir.join(file)).expect("oracle loads") {
            if !rec.source.contains(&filter) {
                continue;
            }
            compare(&gpu, &rec.source, &shrink(&rec.scene, max), &mut t);
        }
    }
    report("oracle scenes", &t);
    if filter.is_empty() {
        assert!(
            t.compared >= 380,
            "only {} oracle scenes compared",
            t.compared
        );
    }
    assert!(t.failures.is_empty(), "{} draws differ", t.failures.len());
}

fn valid(s: &Shader) -> bool {
    !validate::validate(s)
        .iter()
        .any(|f| f.severity == Severity::Error)
}

/// Assembles declarations followed by instructions.
fn assemble(head: &str, dcls: &str, body: &str) -> Option<Vec<u32>> {
    let text = format!("{head}\n{dcls}{body}");
    asm::assemble(&text, &asm::Options::default())
        .ok()
        .map(|s| s.encode())
}

/// A vertex shader passing generated inputs through to what pixel shader `ps` reads.
fn passthrough_vs(ps: &Program) -> Option<Vec<u32>> {
    let (mut d, mut b) = (String::new(), String::new());
    if ps.version.major >= 3 {
        d += "dcl_position v0\ndcl_position o0\n";
        b += "mov o0, v0\n";
        for (k, s) in ps.inputs.iter().enumerate() {
            let u = DeclUsage::from_u8(s.usage)?;
            if k >= 11 {
                return None;
            }
            if u == DeclUsage::Position && s.index == 0 {
                // Reads the vertex shader's POSITION0 output, o0.
                continue;
            }
            let (n, i, r) = (u.name(), s.index, k + 1);
            d += &format!("dcl_{n}{i} v{r}\ndcl_{n}{i} o{r}\n");
            b += &format!("mov o{r}, v{r}\n");
        }
        assemble("vs_3_0", &d, &b)
    } else {
        d += "dcl_position v0\n";
        b += "mov oPos, v0\n";
        for i in 0..8 {
            d += &format!("dcl_texcoord{i} v{}\n", i + 1);
            b += &format!("mov oT{i}, v{}\n", i + 1);
        }
        d += "dcl_color0 v9\ndcl_color1 v10\n";
        b += "mov oD0, v9\nmov oD1, v10\n";
        assemble("vs_2_0", &d, &b)
    }
}

/// A pixel shader writing the first four varyings vertex shader `vs` produces to
/// `oC0..3`.
fn passthrough_ps(vs: &Program) -> Option<Vec<u32>> {
    if vs.version.major >= 3 {
        let (mut d, mut b) = (String::new(), String::new());
        let mut k = 0;
        for s in &vs.outputs {
            let u = DeclUsage::from_u8(s.usage)?;
            if matches!(u, DeclUsage::Position | DeclUsage::PSize) || k == 4 {
                continue;
            }
            d += &format!("dcl_{}{} v{k}\n", u.name(), s.index);
            b += &format!("mov oC{k}, v{k}\n");
            k += 1;
        }
        if k == 0 {
            b += "mov oC0, c0\n";
        }
        assemble("ps_3_0", &d, &b)
    } else {
        assemble(
            "ps_2_0",
            "dcl v0\ndcl v1\ndcl t0\ndcl t1\n",
            "mov oC0, v0\nmov oC1, v1\nmov oC2, t0\nmov oC3, t1\n",
        )
    }
}

/// Pixel-shader float constants for the corpus draws: the CTAB defaults over a fixed
/// pattern in every other register (component `k` of `c#r` is `0.5 + 0.125·((r + k) mod
/// 4)`). Constants the application would set (a texture size, a scale) are then finite,
/// non-zero and distinct, so the comparison exercises defined arithmetic: all-zero
/// constants turn, e.g., SDL's bicubic filter's `rcp` of its texture size into `inf` and its
/// texture coordinates into NaN, where sampling is undefined.
fn ps_constants(sh: &Shader) -> d3dbc_exec::draw::Constants {
    let mut c = d3dbc_exec::draw::Constants {
        float: (0..224)
            .map(|r| std::array::from_fn(|k| (0.5 + 0.125 * ((r + k) % 4) as f32).to_bits()))
            .collect(),
        ..Default::default()
    };
    quick::apply_ctab_defaults(sh, &mut c);
    c
}

/// Gives the generated texture coordinates `(u, v, 0, 1)` a depth of 0.5: pixel shaders
/// that divide by `z` (a projected coordinate, a view-space depth) then compute finite
/// values, where `z = 0` sends `inf`/NaN into their lookups (undefined).
fn texcoord_depth(d: &mut d3dbc_exec::Draw) {
    let offsets: Vec<usize> = d
        .vertex_declaration
        .iter()
        .filter(|e| e.usage == DeclUsage::TexCoord as u8)
        .map(|e| e.offset as usize + 8)
        .collect();
    for s in &mut d.streams {
        for v in s.data.chunks_exact_mut(s.stride as usize) {
            for &o in &offsets {
                v[o..o + 4].copy_from_slice(&0.5f32.to_le_bytes());
            }
        }
    }
}

/// Every valid corpus shader, deduplicated.
fn corpus_shaders() -> Option<Vec<(String, Vec<u32>)>> {
    let streams = common::all_streams()?;
    let mut out: Vec<(String, Vec<u32>)> = streams
        .into_iter()
        .map(|(f, l, t)| (format!("{f} {l}"), t))
        .collect();
    for file in ["oblivion_disasm.jsonl", "helix_asm.jsonl"] {
        for r in common::records(file)? {
            if let Ok(s) = asm::assemble(r["text"].as_str().unwrap_or(""), &Default::default()) {
                out.push((format!("{file} {}", common::label(&r)), s.encode()));
            }
        }
    }
    let mut seen = std::collections::HashSet::new();
    out.retain(|(_, t)| seen.insert(t.clone()));
    Some(out)
}

/// The scene a corpus shader is drawn in: `None` for a shader that is not valid or
/// does not run on the executor, `(pixel, None)` for one the harness cannot draw,
/// `(pixel, Some(scene))` otherwise.
fn corpus_scene(label: &str, tokens: &[u32]) -> Option<(bool, Option<Scene>)> {
    let verbose = std::env::var_os("DIFF_VERBOSE").is_some();
    let sh = Shader::decode(tokens).ok().filter(valid)?;
    let prog = Program::new(&sh).ok()?;
    if sh.version.is_pixel() {
        let Some(vs) = passthrough_vs(&prog) else {
            if verbose {
                eprintln!("{label}: skipped, no pass-through vertex shader");
            }
            return Some((true, None));
        };
        match quick::fullscreen(tokens, Some(&vs), 8, 8, &[]) {
            Ok(mut scene) => {
                if let Some(Op::Draw(d)) = scene.ops.first_mut() {
                    d.ps_constants = ps_constants(&sh);
                    texcoord_depth(d);
                }
                Some((true, Some(scene)))
            }
            Err(e) => {
                if verbose {
                    eprintln!("{label}: skipped, scene: {e}");
                }
                Some((true, None))
            }
        }
    } else {
        let Some(ps) = passthrough_ps(&prog) else {
            return Some((false, None));
        };
        let Ok(mut scene) = quick::fullscreen(&ps, Some(tokens), 8, 8, &[]) else {
            return Some((false, None));
        };
        let target = TargetDesc {
            format: Format::A32B32G32R32F,
            ..scene.targets[0]
        };
        scene.targets = vec![target; 4];
        if let Some(Op::Draw(d)) = scene.ops.first_mut() {
            // Repeating identity rows: m4x4/dp4 chains keep positions as they are.
            let mut id = [[0u32; 4]; 256];
            for (r, row) in id.iter_mut().enumerate() {
                row[r % 4] = 1.0f32.to_bits();
            }
            d.vs_constants.float = id.to_vec();
            d.textures.iter_mut().for_each(|t| {
                if t.is_none() {
                    *t = Some(Arc::new(quick::checkerboard(
                        d3dbc_exec::draw::TextureKind::Tex2d,
                        32,
                    )))
                }
            });
        }
        Some((false, Some(scene)))
    }
}

#[test]
fn corpus_shaders_agree_on_cpu_and_gpu() {
    let Some(shaders) = corpus_shaders() else {
        return;
    };
    let Some(gpu) = support::gpu() else {
        return;
    };
    // Every shader costs a lavapipe pipeline compile (~0.2 s of CPU): CI compares every
    // STRIDE-th one; `D3DBC_GPU_DIFF_STRIDE=1` compares them all.
    let stride = std::env::var("D3DBC_GPU_DIFF_STRIDE").map_or(8, |v| v.parse().unwrap_or(8));
    // `D3DBC_GPU_DIFF_FILTER=substring` compares only the shaders whose label contains it.
    let filter = std::env::var("D3DBC_GPU_DIFF_FILTER").unwrap_or_default();
    let (mut ps_t, mut vs_t) = (Tally::default(), Tally::default());
    for (label, tokens) in shaders.iter().step_by(stride.max(1)) {
        if !label.contains(&filter) {
            continue;
        }
        match corpus_scene(label, tokens) {
            None => {}
            Some((true, None)) => ps_t.skipped += 1,
            Some((false, None)) => vs_t.skipped += 1,
            Some((true, Some(scene))) => compare(&gpu, label, &scene, &mut ps_t),
            Some((false, Some(scene))) => compare(&gpu, label, &scene, &mut vs_t),
        }
    }
    report("corpus pixel shaders", &ps_t);
    report("corpus vertex shaders", &vs_t);
    let n = shaders.len() / stride.max(1);
    assert!(
        !filter.is_empty() || ps_t.compared * 4 > n,
        "only {} pixel shaders",
        ps_t.compared
    );
    assert!(
        !filter.is_empty() || vs_t.compared * 4 > n,
        "only {} vertex shaders",
        vs_t.compared
    );
    // No draw differs beyond the documented rules (see the crate docs); draws whose
    // lookups were undefined are listed above, not counted.
    assert!(
        ps_t.failures.is_empty() && vs_t.failures.is_empty(),
        "{} pixel and {} vertex shader draws differ",
        ps_t.failures.len(),
        vs_t.failures.len()
    );
    // Every draw runs on both sides (draws link their shaders: no wgpu refusals).
    assert_eq!(
        (ps_t.skipped, vs_t.skipped),
        (0, 0),
        "draws skipped (DIFF_VERBOSE=1 says why)"
    );
}

/// Direct (d3dbc-spirv) vs naga (d3dbc-naga) back end on the same adapter.
#[derive(Default)]
struct BackendTally {
    scenes: usize,
    skipped: usize,
    pixels: usize,
    identical: usize,
    close: usize,
    edge: usize,
    failures: Vec<String>,
}

/// Renders `scene` through both back ends and compares every pixel after every draw:
/// the same rules as CPU vs GPU ([`close`], a feature edge moved by one pixel), which
/// the two should need far less often (both are compiled by the same driver).
fn compare_backends(
    direct: &d3dbc_gpu::Gpu,
    naga: &d3dbc_gpu::Gpu,
    label: &str,
    scene: &Scene,
    t: &mut BackendTally,
) {
    let mut imgs: [Vec<Vec<d3dbc_gpu::Image>>; 2] = [Vec::new(), Vec::new()];
    let mut errs = Vec::new();
    for (k, gpu) in [direct, naga].into_iter().enumerate() {
        if let Err(e) = gpu.run_scene(scene, |_| true, |_, i| imgs[k].push(i.to_vec())) {
            errs.push(format!("{:?}: {e}", gpu.backend()));
        }
    }
    match errs.len() {
        0 => {}
        2 => {
            t.skipped += 1;
            return;
        }
        _ => {
            t.failures
                .push(format!("{label}: only one back end draws: {errs:?}"));
            return;
        }
    }
    t.scenes += 1;
    for (n, (d, g)) in imgs[0].iter().zip(&imgs[1]).enumerate() {
        let mut off = 0;
        let mut first = None;
        for (ti, (di, gi)) in d.iter().zip(g).enumerate() {
            for y in 0..di.height {
                for x in 0..di.width {
                    t.pixels += 1;
                    let (a, b) = (di.get(x, y), gi.get(x, y));
                    if a.map(f32::to_bits) == b.map(f32::to_bits) {
                        t.identical += 1;
                    } else if close(di.format, a, b).0 {
                        t.close += 1;
                    } else if neighbour_agrees(di, x, y, b) {
                        t.edge += 1;
                    } else {
                        off += 1;
                        first.get_or_insert((ti, x, y, a, b));
                    }
                }
            }
        }
        if let Some((ti, x, y, a, b)) = first {
            t.failures.push(format!(
                "{label} draw {}: {off} pixels differ; first rt{ti} ({x},{y}): direct {a:?} naga {b:?}",
                n + 1
            ));
        }
    }
}

fn backend_gpus() -> Option<(d3dbc_gpu::Gpu, d3dbc_gpu::Gpu)> {
    Some((
        support::gpu_with(d3dbc_gpu::Backend::Direct)?,
        support::gpu_with(d3dbc_gpu::Backend::Naga)?,
    ))
}

fn backend_report(what: &str, t: &BackendTally) {
    eprintln!(
        "{what}, direct vs naga: {} scenes ({} skipped by both), {} pixels: {} identical, {} within float tolerance, {} edge moves, {} draws differ",
        t.scenes,
        t.skipped,
        t.pixels,
        t.identical,
        t.close,
        t.edge,
        t.failures.len()
    );
    for f in t.failures.iter().take(20) {
        eprintln!("  {f}");
    }
}

/// Every `D3DBC_GPU_BACKEND_STRIDE`-th scene (default 4; 1 compares them all).
fn backend_stride() -> usize {
    std::env::var("D3DBC_GPU_BACKEND_STRIDE")
        .map_or(4, |v| v.parse().unwrap_or(4))
        .max(1)
}

#[test]
fn oracle_scenes_draw_the_same_through_both_back_ends() {
    let Some(dir) = common::corpus_dir() else {
        return;
    };
    let Some((direct, naga)) = backend_gpus() else {
        return;
    };
    let mut t = BackendTally::default();
    for file in ["vkd3d_exec.jsonl", "wine_exec.jsonl"] {
        let recs = oracle::load(&dir.join(file)).expect("oracle loads");
        for rec in recs.iter().step_by(backend_stride()) {
            compare_backends(&direct, &naga, &rec.source, &shrink(&rec.scene, 32), &mut t);
        }
    }
    backend_report("oracle scenes", &t);
    assert!(
        t.scenes * backend_stride() >= 380,
        "only {} scenes",
        t.scenes
    );
    assert!(t.failures.is_empty(), "{} draws differ", t.failures.len());
}

#[test]
fn corpus_shaders_draw_the_same_through_both_back_ends() {
    let Some(shaders) = corpus_shaders() else {
        return;
    };
    let Some((direct, naga)) = backend_gpus() else {
        return;
    };
    // A lavapipe pipeline compile per shader and back end: every STRIDE-th shader, at
    // an offset from the CPU/GPU differential's sample.
    let stride = 8 * backend_stride();
    let mut t = BackendTally::default();
    for (label, tokens) in shaders.iter().skip(1).step_by(stride) {
        if let Some((_, Some(scene))) = corpus_scene(label, tokens) {
            compare_backends(&direct, &naga, label, &scene, &mut t);
        }
    }
    backend_report("corpus shaders", &t);
    assert!(
        t.scenes * stride * 2 > shaders.len(),
        "only {} scenes",
        t.scenes
    );
    assert!(t.failures.is_empty(), "{} draws differ", t.failures.len());
}
