//! Which vs_3_0 output is the position (`d3dbc::regs::vs3_position_output`): the first
//! one declared `POSITION0`, on the GPU as on the CPU executor; `POSITION1` is an
//! ordinary varying.

mod support;

use d3dbc_exec::render::{Options, Renderer};
use d3dbc_exec::{quick, Scene};

/// Assembled without the runtime's validation: a second `POSITION0` output is what the
/// validator rejects (E0403), and what the back ends must still translate as the
/// executor runs it when a caller goes ahead (`--no-validate`).
fn tokens(t: &str) -> Vec<u32> {
    let options = d3dbc::asm::Options {
        no_validate: true,
        ..Default::default()
    };
    d3dbc::asm::assemble(t, &options)
        .unwrap_or_else(|e| panic!("{e}\n{t}"))
        .encode()
}

/// Pixels whose red channel is at least `min`, row by row.
fn red(img: &d3dbc_exec::Image, min: f32) -> Vec<bool> {
    (0..img.height)
        .flat_map(|y| (0..img.width).map(move |x| img.get(x, y)[0] >= min))
        .collect()
}

/// Pixels the draw covers (red channel 1) on the CPU and on the GPU.
fn coverage(gpu: &d3dbc_gpu::Gpu, scene: &Scene) -> (Vec<bool>, Vec<bool>) {
    let mut cpu = Vec::new();
    Renderer::run_scene(scene, Options::default(), None, |_, r| {
        cpu = red(&r.targets[0], 1.0)
    })
    .unwrap();
    let mut gpu_px = Vec::new();
    gpu.run_scene(scene, |_| true, |_, imgs| gpu_px = red(&imgs[0], 0.99))
        .unwrap();
    (cpu, gpu_px)
}

#[test]
fn the_first_position0_output_is_the_position_on_both() {
    let Some(gpu) = support::gpu() else {
        return;
    };
    // o0 covers the viewport; o2, a second POSITION0, would cover a quarter; o1
    // (POSITION1) carries the colour to the pixel shader.
    let vs = tokens(
        "vs_3_0\ndef c0, 0.25, 1, 0, 0\ndcl_position v0\ndcl_position o0\n\
         dcl_position1 o1\ndcl_position o2\nmov o0, v0\nmov o1, c0.yyyy\n\
         mul o2, v0, c0.xxxy\n",
    );
    let ps = tokens("ps_3_0\ndcl_position1 v0\nmov oC0, v0\n");
    let scene = quick::fullscreen(&ps, Some(&vs), 8, 8, &[]).unwrap();
    let (cpu, gpu_px) = coverage(&gpu, &scene);
    assert_eq!(cpu, vec![true; 64]);
    assert_eq!(gpu_px, cpu);
}
