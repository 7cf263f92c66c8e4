//! Every draw links its two shaders (`d3dbc_naga::link`): varyings beyond the device's
//! inter-stage limit in the fixed map, centroid pixel inputs fed by plain vertex
//! outputs, and inputs the vertex shader does not write (D3D9's defaults: COLOR0
//! (1, 1, 1, 1), anything else 0) all draw, and agree with the CPU executor. A pixel
//! shader writing `oDepth` draws without a depth buffer (D3D9 ignores the depth).

use d3dbc_exec::draw::{Format, TargetDesc};
use d3dbc_exec::render::{Options, Renderer};
use d3dbc_exec::{quick, Op, Scene};

mod support;

const W: u32 = 8;

fn tokens(t: &str) -> Vec<u32> {
    d3dbc::asm::assemble(t, &Default::default())
        .unwrap_or_else(|e| panic!("{e}\n{t}"))
        .encode()
}

/// Renders `scene` on both; returns the CPU and GPU targets after the last draw.
fn both(gpu: &d3dbc_gpu::Gpu, scene: &Scene) -> (Vec<d3dbc_exec::Image>, Vec<d3dbc_exec::Image>) {
    let mut cpu = Vec::new();
    Renderer::run_scene(scene, Options::default(), None, |_, r| {
        cpu = r.targets.clone()
    })
    .expect("cpu");
    let mut out = Vec::new();
    gpu.run_scene(scene, |_| true, |_, imgs| out = imgs.to_vec())
        .expect("gpu draws");
    (cpu, out)
}

fn float_targets(mut scene: Scene, n: usize) -> Scene {
    let t = TargetDesc {
        format: Format::A32B32G32R32F,
        ..scene.targets[0]
    };
    scene.targets = vec![t; n];
    scene
}

#[test]
fn high_centroid_and_unwritten_varyings_agree_with_the_executor() {
    let Some(gpu) = support::gpu() else {
        return;
    };
    let vs = tokens(
        "vs_3_0
def c0, 0.5, 0.25, 2, 1
dcl_position v0
dcl_texcoord0 v1
dcl_position o0
dcl_texcoord0 o1
dcl_blendweight0 o2
dcl_tangent3 o3
dcl_color1 o4
mov o0, v0
mov o1, v1
mul o2, v1.yxzw, c0
add o3, v1, v1
mov o4, c0
",
    );
    let ps = tokens(
        "ps_3_0
dcl_texcoord0_centroid v0
dcl_blendweight0 v1
dcl_normal2 v2
dcl_color0 v3
mov oC0, v0
mov oC1, v1
mov oC2, v2
mov oC3, v3
",
    );
    let scene = float_targets(quick::fullscreen(&ps, Some(&vs), W, W, &[]).unwrap(), 4);
    let (cpu, g) = both(&gpu, &scene);
    for y in 0..W {
        for x in 0..W {
            // D3D9 samples pixel (x, y) at integer coordinates.
            let (u, v) = (x as f32 / W as f32, y as f32 / W as f32);
            let want = [
                [u, v, 0.0, 1.0],
                [v * 0.5, u * 0.25, 0.0, 1.0],
                [0.0; 4],
                [1.0; 4],
            ];
            for t in 0..4 {
                let (c, gp) = (cpu[t].get(x, y), g[t].get(x, y));
                for k in 0..4 {
                    assert!(
                        (c[k] - gp[k]).abs() <= 2e-5,
                        "rt{t} ({x},{y}): cpu {c:?} gpu {gp:?}"
                    );
                }
                if t >= 2 {
                    assert_eq!(gp, want[t], "rt{t} ({x},{y}): the default");
                }
            }
            for t in 0..2 {
                let gp = g[t].get(x, y);
                assert!(
                    want[t].iter().zip(gp).all(|(a, b)| (a - b).abs() < 1e-5),
                    "rt{t} ({x},{y}): {gp:?}, want {:?}",
                    want[t]
                );
            }
        }
    }
}

#[test]
fn depth_output_without_a_depth_buffer_draws() {
    let Some(gpu) = support::gpu() else {
        return;
    };
    let ps = tokens("ps_2_0\ndef c0, 0.5, 0.25, 1, 1\nmov oC0, c0\nmov oDepth, c0.x\n");
    let scene = float_targets(quick::fullscreen(&ps, None, W, W, &[]).unwrap(), 1);
    assert!(scene.depth.is_none());
    assert!(scene.ops.iter().any(|o| matches!(o, Op::Draw(_))));
    let (cpu, g) = both(&gpu, &scene);
    for y in 0..W {
        for x in 0..W {
            assert_eq!(g[0].get(x, y), [0.5, 0.25, 1.0, 1.0]);
            assert_eq!(cpu[0].get(x, y), g[0].get(x, y));
        }
    }
}
