//! The CPU/GPU differential over a folder of shaders: every pixel shader found in the
//! files of DIR (raw `.pso`/`.cso` tokens, bgfx `.bin`, fxc headers, hex; whatever
//! `d3dbc::input::read_any` reads) drawn as `d3dbc render` draws it (full screen,
//! 64×64 unless `--size WxH`), by the executor and by both GPU back ends, with each
//! shader's verdict ([`d3dbc_gpu::compare::Verdict`]) and, where it is not within
//! 1/255, the instructions where the difference starts and where it first exceeds
//! 1/255 (the executor's trace at the first such pixel).
//!
//! `NODEVICE_SELECT=1 cargo run --release -p d3dbc-gpu --example compare_gpu -- DIR`
//!
//! Prints a Markdown table; exits with 1 when any shader has a semantic difference.

use std::path::PathBuf;

use d3dbc_gpu::compare::{self, Comparison, Verdict};
use d3dbc_gpu::{Backend, Gpu};

fn main() {
    let mut args = std::env::args().skip(1);
    let (mut dir, mut size) = (None, (64u32, 64u32));
    while let Some(a) = args.next() {
        if a == "--size" {
            let s = args.next().unwrap_or_default();
            let (w, h) = s.split_once('x').unwrap_or(("", ""));
            size = match (w.parse(), h.parse()) {
                (Ok(w), Ok(h)) if w > 0 && h > 0 && w <= 1024 && h <= 1024 => (w, h),
                _ => fail(&format!("--size {s}: expected WxH, 1x1 up to 1024x1024")),
            };
        } else {
            dir = Some(PathBuf::from(a));
        }
    }
    let Some(dir) = dir else {
        fail("usage: compare_gpu DIR [--size WxH]")
    };
    let report = match run(&dir, size) {
        Ok(r) => r,
        Err(e) => fail(&e),
    };
    print!("{}", report.text);
    std::process::exit(i32::from(report.semantic > 0));
}

fn fail(msg: &str) -> ! {
    eprintln!("compare_gpu: {msg}");
    std::process::exit(2)
}

struct Report {
    text: String,
    semantic: usize,
}

fn run(dir: &std::path::Path, (w, h): (u32, u32)) -> Result<Report, String> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    let direct = Gpu::with_backend(Backend::Direct).map_err(|e| e.to_string())?;
    let naga = Gpu::with_backend(Backend::Naga).map_err(|e| e.to_string())?;
    let mut text = format!(
        "Adapter: {}; {w}x{h}, the `d3dbc render` scene.\n\n\
         | shader | direct | naga | pixels (identical / ≤1/255 / precision / undefined / semantic) | first divergence (precision; subnormals) |\n\
         |---|---|---|---|---|\n",
        direct.adapter_name
    );
    let mut totals = std::collections::BTreeMap::<Verdict, usize>::new();
    let mut semantic = 0;
    for f in files {
        let name = f
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .to_string();
        let Ok(bytes) = std::fs::read(&f) else {
            continue;
        };
        let Ok(found) = d3dbc::input::read_any(&bytes) else {
            continue;
        };
        for (k, s) in found.iter().enumerate() {
            let Ok(shader) = d3dbc::Shader::decode(&s.tokens) else {
                continue;
            };
            if !shader.version.is_pixel() {
                continue;
            }
            let label = if found.len() > 1 {
                format!("{name}#{k}")
            } else {
                name.clone()
            };
            let row = shader_row(&direct, &naga, &s.tokens, w, h);
            match row {
                Ok((d, n, why)) => {
                    let worst = d.verdict.max(n.verdict);
                    *totals.entry(worst).or_default() += 1;
                    semantic += usize::from(worst == Verdict::Semantic);
                    let c = if d.verdict >= n.verdict { &d } else { &n };
                    text.push_str(&format!(
                        "| {label} | {} | {} | {} / {} / {} / {} / {} | {why} |\n",
                        d.verdict.name(),
                        n.verdict.name(),
                        c.counts[0],
                        c.counts[1],
                        c.counts[2],
                        c.counts[3],
                        c.counts[4],
                    ));
                }
                Err(e) => text.push_str(&format!("| {label} | error: {e} | | | |\n")),
            }
        }
    }
    text.push_str("\nShaders by verdict (the worse back end's):");
    for (v, n) in &totals {
        text.push_str(&format!(" {}: {n};", v.name()));
    }
    text.push('\n');
    Ok(Report { text, semantic })
}

/// Both back ends' comparisons and, where either is beyond 1/255, the trace's account
/// of its first such pixel.
fn shader_row(
    direct: &Gpu,
    naga: &Gpu,
    tokens: &[u32],
    w: u32,
    h: u32,
) -> Result<(Comparison, Comparison, String), String> {
    let scene = d3dbc_exec::quick::preview(tokens, None, w, h, &Default::default())
        .map_err(|e| e.to_string())?;
    let cpu = compare::cpu_images(&scene)?;
    let d = compare::compare(direct, &scene, &cpu)?;
    let n = compare::compare(naga, &scene, &cpu)?;
    let worst = if d.verdict >= n.verdict { &d } else { &n };
    let why = match (worst.verdict >= Verdict::PrecisionSensitive, worst.pixel) {
        (true, Some(px)) => {
            let e = compare::explain(&scene, px)?;
            let at = |s: &Option<d3dbc_exec::divergence::Step>| {
                s.as_ref().map_or("—".to_string(), |s| {
                    format!("`{}` (step {})", s.instruction, s.step)
                })
            };
            let v = worst.values.unwrap_or_default();
            format!(
                "pixel {px:?} (CPU {:?}, range {:?}..{:?}, GPU {:?}): documented error: starts at {}, past 1/255 at {}; fused mad: {}, {}; subnormals: {}",
                v[0],
                v[1],
                v[2],
                v[3],
                at(&e.precision.first),
                at(&e.precision.amplified),
                at(&e.fused.first),
                at(&e.fused.amplified),
                at(&e.subnormals.first)
            )
        }
        _ => String::new(),
    };
    Ok((d, n, why))
}
