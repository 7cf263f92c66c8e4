//! Two rules where the executor and the translator once disagreed, checked on both:
//! - a scalar instruction (`rcp`, `rsq`, `exp`, `log`, `expp`, `logp`, `pow`, the `sincos`
//!   angle) reads the `w` of its swizzled source in every shader version
//!   (`Opcode::scalar_component`; from 2.0 the validator requires a replicate swizzle,
//!   so only unvalidated shaders can tell);
//! - `texm3x3spec` reflects the eye vector about the normal,
//!   `R = 2·N·(N·E)/(N·N) − E`, and where `N·N` is 0 (here: a normal whose square
//!   underflows) the `2·N·…` term is 0 and `R = −E`.

mod support;

use std::sync::Arc;

use d3dbc_exec::draw::{Format, Texture, TextureKind};
use d3dbc_exec::render::{Options, Renderer};
use d3dbc_exec::{quick, Scene};

fn tokens(t: &str) -> Vec<u32> {
    let opts = d3dbc::asm::Options {
        no_validate: true,
        ..Default::default()
    };
    d3dbc::asm::assemble(t, &opts)
        .unwrap_or_else(|e| panic!("{e}\n{t}"))
        .encode()
}

/// Pixel (1, 1) of the first target on the CPU executor and on the GPU.
fn pixel(gpu: &d3dbc_gpu::Gpu, scene: &Scene) -> ([f32; 4], [f32; 4]) {
    let mut cpu = [f32::NAN; 4];
    Renderer::run_scene(scene, Options::default(), None, |_, r| {
        cpu = r.targets[0].get(1, 1)
    })
    .unwrap();
    let mut gpu_px = [f32::NAN; 4];
    gpu.run_scene(scene, |_| true, |_, imgs| gpu_px = imgs[0].get(1, 1))
        .unwrap();
    (cpu, gpu_px)
}

fn near(a: [f32; 4], b: [f32; 4]) -> bool {
    a.iter().zip(&b).all(|(x, y)| (x - y).abs() <= 1.5 / 255.0)
}

#[test]
fn a_scalar_source_reads_w_in_every_version() {
    let Some(gpu) = support::gpu() else {
        return;
    };
    // c0 = (4, 8, 16, 2): rcp of .w is 0.5, of .x would be 0.25.
    for ps in [
        "ps_2_0\ndef c0, 4, 8, 16, 2\nrcp r0, c0\nmov oC0, r0\n",
        "ps_3_0\ndef c0, 4, 8, 16, 2\nrcp r0, c0\nmov oC0, r0\n",
        "ps_3_0\ndef c0, 4, 8, 16, -1\ndef c1, 0.5, 0.5, 0.5, 1\npow r0, c1, c0\nmov oC0, r0\n",
    ] {
        let scene = quick::fullscreen(&tokens(ps), None, 4, 4, &[]).unwrap();
        let (cpu, gpu_px) = pixel(&gpu, &scene);
        let want = if ps.contains("pow") {
            [1.0; 4] // 0.5 ^ −1 = 2, saturated by the target
        } else {
            [0.5; 4]
        };
        assert!(near(cpu, want), "{ps}CPU {cpu:?}, want {want:?}");
        assert!(near(gpu_px, want), "{ps}GPU {gpu_px:?}, want {want:?}");
    }
}

#[test]
fn texm3x3spec_with_a_vanishing_normal_reflects_to_minus_e() {
    let Some(gpu) = support::gpu() else {
        return;
    };
    // t0 samples white, so N = (t1·1, t2·1, t3·1) = (1e-30·3, 0, 0): N·N underflows to 0.
    let vs = tokens(
        "vs_1_1\ndcl_position v0\ndef c0, 1e-30, 0, 0, 0\ndef c1, 0, 0, 0, 0\n\
         mov oPos, v0\nmov oT0, c1\nmov oT1, c0.xxxw\nmov oT2, c1\nmov oT3, c1\n",
    );
    // E = (0.25, 0.5, 0.75): R = −E samples u = −0.25 → 0.75 (wrap): the second texel.
    let ps = tokens(
        "ps_1_1\ndef c0, 0.25, 0.5, 0.75, 0\ntex t0\ntexm3x3pad t1, t0\n\
         texm3x3pad t2, t0\ntexm3x3spec t3, t0, c0\nmov r0, t3\n",
    );
    let tex = |w: u32, texels: &[[u8; 4]]| {
        Arc::new(Texture {
            kind: TextureKind::Tex2d,
            format: Format::A8R8G8B8,
            width: w,
            height: 1,
            depth: 1,
            levels: 1,
            data: texels.concat(),
        })
    };
    // A8R8G8B8 bytes are B, G, R, A: white; then red, green.
    let white = tex(1, &[[255, 255, 255, 255]]);
    let red_green = tex(2, &[[0, 0, 255, 255], [0, 255, 0, 255]]);
    let scene = quick::fullscreen(&ps, Some(&vs), 4, 4, &[(0, white), (3, red_green)]).unwrap();
    let (cpu, gpu_px) = pixel(&gpu, &scene);
    let green = [0.0, 1.0, 0.0, 1.0];
    assert!(near(cpu, green), "CPU {cpu:?}");
    assert!(near(gpu_px, green), "GPU {gpu_px:?}");
}
