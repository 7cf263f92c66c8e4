//! Where two CPU runs of one scene part ways at one pixel: the pixel shader traced
//! under two sets of [`Options`] (the subnormal rule flushing or preserving, the
//! approximated instructions exact or moved by their documented error,
//! [`Options::perturb`]) and compared step by step. How the CPU/GPU differential
//! (`d3dbc_gpu::compare`) names the instruction a difference starts at, and the one
//! that amplifies it past a colour step.

use crate::render::{Options, RenderError, Renderer};
use crate::trace;
use crate::Scene;

/// One traced step where two runs differ.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    /// Position in the executed sequence (0-based).
    pub step: usize,
    /// The instruction as `dis` prints it.
    pub instruction: String,
    /// The value it wrote in the first run.
    pub a: [f32; 4],
    /// The value it wrote in the second run.
    pub b: [f32; 4],
}

/// Where two runs part ways at a pixel.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Divergence {
    /// The first step whose written value differs at all (bit for bit; NaNs equal).
    pub first: Option<Step>,
    /// The first step whose written value differs by more than the tolerance given to
    /// [`first_divergence`] in some component.
    pub amplified: Option<Step>,
}

/// Traces the pixel shader at `pixel` under `a` and under `b` (each with
/// `trace_pixel` set, only the pixel's quad shaded) and compares the values the steps
/// wrote; `tolerance` is the difference [`Divergence::amplified`] looks for.
pub fn first_divergence(
    scene: &Scene,
    pixel: (u32, u32),
    a: Options,
    b: Options,
    tolerance: f32,
) -> Result<Divergence, RenderError> {
    let traced = |o: Options| -> Result<Vec<crate::invoke::TraceStep>, RenderError> {
        let o = Options {
            trace_pixel: Some(pixel),
            ..o
        };
        let region = vec![[pixel.0, pixel.1, pixel.0 + 1, pixel.1 + 1]];
        let r = Renderer::run_scene(scene, o, Some(region), |_, _| {})?;
        Ok(r.trace
            .map(|t| trace::steps(&t.program, &t.steps))
            .unwrap_or_default())
    };
    let (ta, tb) = (traced(a)?, traced(b)?);
    let mut d = Divergence::default();
    for (i, (sa, sb)) in ta.iter().zip(&tb).enumerate() {
        let (Some(va), Some(vb)) = (sa.1, sb.1) else {
            continue;
        };
        let same = |x: f32, y: f32| x.to_bits() == y.to_bits() || (x.is_nan() && y.is_nan());
        let step = || Step {
            step: i,
            instruction: sa.0.trim().to_string(),
            a: va,
            b: vb,
        };
        if d.first.is_none() && (0..4).any(|c| !same(va[c], vb[c])) {
            d.first = Some(step());
        }
        // A NaN against a number is far too.
        let far = |x: f32, y: f32| !same(x, y) && ((x - y).abs() > tolerance || (x - y).is_nan());
        if (0..4).any(|c| far(va[c], vb[c])) {
            d.amplified = Some(step());
            break;
        }
    }
    Ok(d)
}

#[cfg(test)]
mod tests {
    use super::*;
    use d3dbc::{Denormals, Semantics};

    #[test]
    fn the_exp_of_minus_128_is_where_the_rules_part() {
        // 2^-128 is subnormal: flushed it is 0 and rcp makes +inf, kept 2^128 overflows
        // to inf too, so the difference starts at exp and grows at the multiply.
        let ps = d3dbc::asm::assemble(
            "ps_3_0\ndef c0, -128, 1, 0.5, 0\nexp r0.x, c0.x\nmul r0.y, r0.x, c0.y\nadd r0.z, r0.y, c0.z\nmov oC0, r0.zzzw\n",
            &Default::default(),
        )
        .unwrap()
        .encode();
        let scene = crate::quick::fullscreen(&ps, None, 4, 4, &[]).unwrap();
        let keep = Options {
            sem: Semantics {
                denormals: Denormals::Preserve,
                ..Semantics::default()
            },
            ..Options::default()
        };
        let d = first_divergence(&scene, (1, 1), Options::default(), keep, 1e-3).unwrap();
        let first = d.first.unwrap();
        assert!(first.instruction.starts_with("exp"), "{first:?}");
        assert_eq!(first.a[0], 0.0);
        assert_eq!(first.b[0].to_bits(), 1 << 21);
        // The difference stays far below the tolerance: no amplification.
        assert_eq!(d.amplified, None);
        // Perturbed: exp moves by its documented error (4 ulps of 2^-128, subnormal,
        // then flushed: no change); the add by one rounding, the first difference.
        let p = Options {
            perturb: 1.0,
            ..Options::default()
        };
        let d = first_divergence(&scene, (1, 1), Options::default(), p, 1e-3).unwrap();
        let first = d.first.unwrap();
        assert!(first.instruction.starts_with("add"), "{first:?}");
        assert_eq!(first.b[2], 0.5 + f32::EPSILON / 2.0);
        assert_eq!(d.amplified, None);
    }
}
