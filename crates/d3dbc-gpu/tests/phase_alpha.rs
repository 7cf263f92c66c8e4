//! ps_1_4's `phase`: the alpha of the temporaries is not kept across the boundary (a
//! read of `r#.a` written in phase 1 gives 0; semantics.md §2). The executor always did
//! this; both GPU back ends now do it too, so the three agree.

mod support;

use d3dbc_exec::quick;
use d3dbc_exec::render::{Options, Renderer};

#[test]
fn phase_drops_the_alpha_of_temporaries_on_cpu_and_both_back_ends() {
    // r0 = (0.25, 0.5, 0.75, 1) before the phase; after it r0.a reads 0 and r1.a 0,
    // while the colour channels are kept.
    let ps = d3dbc::asm::assemble(
        "ps_1_4\ndef c0, 0.25, 0.5, 0.75, 1\ndef c1, 0, 0, 0, 0.5\nmov r0, c0\nmov r1, c0\n\
         phase\nadd r0.a, r0.a, r1.a\nmov r0.rgb, r0\n",
        &Default::default(),
    )
    .unwrap_or_else(|e| panic!("{e}"))
    .encode();
    let scene = quick::fullscreen(&ps, None, 4, 4, &[]).unwrap();
    let mut cpu = [f32::NAN; 4];
    Renderer::run_scene(&scene, Options::default(), None, |_, r| {
        cpu = r.targets[0].get(1, 1)
    })
    .unwrap();
    let want = [0.25, 0.5, 0.75, 0.0];
    let near = |a: [f32; 4]| {
        a.iter()
            .zip(&want)
            .all(|(x, y)| (x - y).abs() <= 1.5 / 255.0)
    };
    assert!(near(cpu), "CPU {cpu:?}, want {want:?}");
    for backend in [d3dbc_gpu::Backend::Direct, d3dbc_gpu::Backend::Naga] {
        let Some(gpu) = support::gpu_with(backend) else {
            return;
        };
        let mut px = [f32::NAN; 4];
        gpu.run_scene(&scene, |_| true, |_, imgs| px = imgs[0].get(1, 1))
            .unwrap();
        assert!(near(px), "{backend:?}: {px:?}, want {want:?}");
    }
}
