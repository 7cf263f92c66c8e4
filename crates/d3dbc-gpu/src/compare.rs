//! The CPU/GPU differential for one scene, pixel by pixel, with a verdict per pixel
//! and per scene: identical, within one step of 1/255, precision-sensitive, or a
//! semantic difference.
//!
//! The executor computes `exp`, `log`, `rcp`, `rsq`, `nrm`, `pow`, `sincos`, `expp`,
//! `logp` and `lit` exactly (see [`d3dbc::Precision`]); a driver may use the
//! whole error Direct3D 9 documents for them, and a shader can amplify the last bits of
//! such a result into a different colour (`frac(sin(x) · 43758.5453)`). So besides the
//! exact CPU image, the scene is rendered again with every approximated result moved
//! by fractions of its documented error in both directions
//! ([`d3dbc_exec::render::Options::perturb`], [`PERTURBATIONS`]; the pixel shader's
//! interpolated inputs move too, by as many fractions of 4 ulps: GPUs interpolate from
//! float32 plane equations, the executor in f64), and with `mad` fused (which a GPU
//! compiler may do). A GPU pixel that differs by more than 1/255 but
//! lies, in every channel, within 1/255 of the range those CPU images span there is
//! **precision-sensitive**; anything else beyond 1/255 is a **semantic** difference. [`explain`] traces one pixel to the instruction where the runs first
//! part ways and where the difference first exceeds 1/255.

use d3dbc_exec::divergence::{first_divergence, Divergence};
use d3dbc_exec::render::{Options, Renderer};
use d3dbc_exec::{Image, Scene};

use crate::Gpu;

/// One colour step of an 8-bit target.
pub const STEP: f32 = 1.0 / 255.0;

/// The verdict on a pixel or a scene (a scene's is its worst pixel's).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Verdict {
    /// Every channel the same (bit for bit, or both NaN).
    Identical,
    /// Every channel within 1/255.
    WithinStep,
    /// Beyond 1/255, inside the range the CPU gives with the approximated results
    /// moved by their documented error (widened by 1/255).
    PrecisionSensitive,
    /// Beyond 1/255 where the shader's exact output there is infinite or NaN: D3D9
    /// (and Vulkan) leave converting such a value to a fixed-point target undefined.
    Undefined,
    /// Beyond 1/255 and outside that range.
    Semantic,
}

impl Verdict {
    /// The verdict's name in reports.
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Identical => "identical",
            Verdict::WithinStep => "within 1/255",
            Verdict::PrecisionSensitive => "precision-sensitive",
            Verdict::Undefined => "undefined (inf/NaN output)",
            Verdict::Semantic => "semantic difference",
        }
    }
}

/// The differential of one scene's last render target.
#[derive(Clone, Debug)]
pub struct Comparison {
    /// The scene's verdict: its worst pixel's.
    pub verdict: Verdict,
    /// Pixels per verdict, in [`Verdict`] order.
    pub counts: [usize; 5],
    /// The first pixel (row-major) with the scene's verdict, when it is not identical.
    pub pixel: Option<(u32, u32)>,
    /// The largest channel difference.
    pub max_diff: f32,
    /// At [`Comparison::pixel`]: the exact CPU value, the perturbed CPU range's low and
    /// high ends, and the GPU value.
    pub values: Option<[[f32; 4]; 4]>,
}

/// The CPU images a verdict needs ([`cpu_images`]).
#[derive(Clone, Debug)]
pub struct CpuImages {
    /// The exact render.
    pub exact: Image,
    /// Per-channel minimum over the perturbed renders (and the exact one).
    pub lo: Image,
    /// Per-channel maximum.
    pub hi: Image,
    /// The exact render into float targets: where the shader's output is not finite.
    pub raw: Image,
}

/// Classifies `gpu` against the CPU images (all the same size).
pub fn classify(cpu: &CpuImages, gpu: &Image) -> Comparison {
    let (cpu, lo, hi, raw) = (&cpu.exact, &cpu.lo, &cpu.hi, &cpu.raw);
    let mut counts = [0usize; 5];
    let (mut verdict, mut pixel, mut max_diff) = (Verdict::Identical, None, 0f32);
    let mut values = None;
    let same = |x: f32, y: f32| x.to_bits() == y.to_bits() || (x.is_nan() && y.is_nan());
    for (i, &g) in gpu.pixels.iter().enumerate() {
        let (c, l, h) = (cpu.pixels[i], lo.pixels[i], hi.pixels[i]);
        let mut v = Verdict::Identical;
        for k in 0..4 {
            if same(c[k], g[k]) {
                continue;
            }
            let d = (c[k] - g[k]).abs();
            if d.is_nan() || d > STEP * 1.0001 {
                let min = c[k].min(l[k]).min(h[k]) - STEP * 1.0001;
                let max = c[k].max(l[k]).max(h[k]) + STEP * 1.0001;
                let inside = g[k] >= min && g[k] <= max;
                v = v.max(if inside {
                    Verdict::PrecisionSensitive
                } else if raw.pixels[i].iter().any(|x| !x.is_finite()) {
                    Verdict::Undefined
                } else {
                    Verdict::Semantic
                });
            } else {
                v = v.max(Verdict::WithinStep);
            }
            if d.is_finite() {
                max_diff = max_diff.max(d);
            } else {
                max_diff = f32::INFINITY;
            }
        }
        counts[v as usize] += 1;
        if v > verdict {
            verdict = v;
            pixel = Some((i as u32 % gpu.width, i as u32 / gpu.width));
            values = Some([c, l, h, g]);
        }
    }
    Comparison {
        verdict,
        counts,
        pixel,
        max_diff,
        values,
    }
}

/// The last render target of `scene` rendered by the executor under `opts`.
pub fn cpu_image(scene: &Scene, opts: Options) -> Result<Image, String> {
    let r = Renderer::run_scene(scene, opts, None, |_, _| {}).map_err(|e| e.to_string())?;
    r.targets
        .first()
        .cloned()
        .ok_or_else(|| "the scene has no render target".to_string())
}

/// The last render target of `scene` rendered by `gpu`.
pub fn gpu_image(gpu: &Gpu, scene: &Scene) -> Result<Image, String> {
    let mut out = None;
    gpu.run_scene(scene, |_| true, |_, t| out = t.first().cloned())
        .map_err(|e| e.to_string())?;
    out.ok_or_else(|| "the scene drew nothing".to_string())
}

/// The fractions of the documented error [`cpu_images`] moves the approximated results
/// by: both directions, several sizes, since a shader can fold a result (`frac` of a
/// large multiple) so that the ends of the range alone do not span what lies between.
pub const PERTURBATIONS: [f32; 8] = [-1.0, -0.5, -0.25, -0.125, 0.125, 0.25, 0.5, 1.0];

/// The three CPU images the verdicts need: the exact one, and the per-channel minimum
/// and maximum over the renders with the approximated results moved by each of
/// [`PERTURBATIONS`], each with `mad` unfused (the default) and fused
/// ([`d3dbc::Semantics::fused_mad`]: GPU compilers may contract a multiply and an add
/// into one fused operation, which SPIR-V allows).
pub fn cpu_images(scene: &Scene) -> Result<CpuImages, String> {
    cpu_images_with(scene, Options::default())
}

/// [`cpu_images`] from `base` options (its `perturb` and `fused_mad` are replaced).
pub fn cpu_images_with(scene: &Scene, base: Options) -> Result<CpuImages, String> {
    let with = |perturb, fused_mad| {
        cpu_image(
            scene,
            Options {
                perturb,
                sem: d3dbc::Semantics {
                    fused_mad,
                    ..base.sem
                },
                ..base
            },
        )
    };
    let exact = with(0.0, false)?;
    let (mut lo, mut hi) = (exact.clone(), exact.clone());
    for fused in [false, true] {
        for &t in std::iter::once(&0.0).chain(&PERTURBATIONS) {
            if (t, fused) == (0.0, false) {
                continue;
            }
            let img = with(t, fused)?;
            for (i, p) in img.pixels.iter().enumerate() {
                for (k, &x) in p.iter().enumerate() {
                    lo.pixels[i][k] = lo.pixels[i][k].min(x);
                    hi.pixels[i][k] = hi.pixels[i][k].max(x);
                }
            }
        }
    }
    let mut float = scene.clone();
    for t in &mut float.targets {
        t.format = d3dbc_exec::draw::Format::A32B32G32R32F;
    }
    let raw = cpu_image(
        &float,
        Options {
            perturb: 0.0,
            ..base
        },
    )?;
    Ok(CpuImages { exact, lo, hi, raw })
}

/// Renders `scene` on `gpu` and compares it with `cpu` ([`cpu_images`]).
pub fn compare(gpu: &Gpu, scene: &Scene, cpu: &CpuImages) -> Result<Comparison, String> {
    let g = gpu_image(gpu, scene)?;
    if (g.width, g.height) != (cpu.exact.width, cpu.exact.height) {
        return Err(format!(
            "the GPU image is {}x{}, the CPU's {}x{}",
            g.width, g.height, cpu.exact.width, cpu.exact.height
        ));
    }
    Ok(classify(cpu, &g))
}

/// Why a pixel differs, from the executor's traces: where the exact run and the run
/// with approximated results moved up (`precision`) part ways, where the unfused and
/// fused `mad` runs do (`fused`), and where the subnormal rule's two choices do
/// (`subnormals`); `None` in a field's steps when that choice plays no part at the
/// pixel. Each names the first differing instruction and the
/// first whose value differs by more than 1/255.
#[derive(Clone, Debug, Default)]
pub struct Explanation {
    /// Exact against documented-error-moved results.
    pub precision: Divergence,
    /// Unfused `mad` against fused.
    pub fused: Divergence,
    /// Subnormals flushed (the default) against preserved.
    pub subnormals: Divergence,
}

/// Traces `pixel` of `scene` ([`Explanation`]).
pub fn explain(scene: &Scene, pixel: (u32, u32)) -> Result<Explanation, String> {
    use d3dbc::{Denormals, Semantics};
    let exact = Options::default();
    let moved = Options {
        perturb: 1.0,
        ..Options::default()
    };
    let kept = Options {
        sem: Semantics {
            denormals: Denormals::Preserve,
            ..Semantics::default()
        },
        ..Options::default()
    };
    let fused = Options {
        sem: Semantics {
            fused_mad: true,
            ..Semantics::default()
        },
        ..Options::default()
    };
    let e = |a, b| first_divergence(scene, pixel, a, b, STEP).map_err(|e| e.to_string());
    Ok(Explanation {
        precision: e(exact, moved)?,
        fused: e(exact, fused)?,
        subnormals: e(exact, kept)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use d3dbc_exec::draw::Format;

    fn img(p: &[[f32; 4]]) -> Image {
        Image {
            width: p.len() as u32,
            height: 1,
            format: Format::A32B32G32R32F,
            pixels: p.to_vec(),
        }
    }

    #[test]
    fn verdicts_by_pixel() {
        let exact = img(&[[0.5; 4], [0.5; 4], [0.5; 4], [0.5; 4], [0.0; 4]]);
        let cpu = CpuImages {
            lo: img(&[[0.5; 4], [0.5; 4], [0.2; 4], [0.5; 4], [0.0; 4]]),
            hi: img(&[[0.5; 4], [0.5; 4], [0.6; 4], [0.5; 4], [0.0; 4]]),
            raw: img(&[[0.5; 4], [0.5; 4], [0.5; 4], [0.5; 4], [f32::NAN; 4]]),
            exact,
        };
        let gpu = img(&[[0.5; 4], [0.502; 4], [0.3; 4], [0.9; 4], [1.0; 4]]);
        let c = classify(&cpu, &gpu);
        assert_eq!(c.counts, [1, 1, 1, 1, 1]);
        assert_eq!(c.verdict, Verdict::Semantic);
        assert_eq!(c.pixel, Some((3, 0)));
        assert!((c.max_diff - 1.0).abs() < 1e-6);
        let c = classify(
            &cpu,
            &img(&[[0.5; 4], [0.5; 4], [0.5; 4], [0.5; 4], [0.0; 4]]),
        );
        assert_eq!((c.verdict, c.pixel), (Verdict::Identical, None));
    }
}
