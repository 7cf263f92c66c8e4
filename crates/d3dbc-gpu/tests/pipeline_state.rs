//! The render and texture-stage states that act on what shaders compute, on the GPU
//! through both translation back ends (the direct SPIR-V emitter and naga), against the
//! values Windows gives: user clip planes, ps_1_x projected texture reads, fog with
//! shaders. The scenes and their sources are the CPU executor's
//! (`d3dbc-exec/tests/state_cases/mod.rs`); the cases drawn through the fixed-function
//! pixel pipeline, which the GPU runner does not draw, are left to the CPU test.

mod support;

#[path = "../../d3dbc-exec/tests/state_cases/mod.rs"]
mod state_cases;

use d3dbc_gpu::Backend;
use state_cases::Case;

fn run(cases: Vec<Case>) {
    for backend in [Backend::Direct, Backend::Naga] {
        let Some(gpu) = support::gpu_with(backend) else {
            return;
        };
        let mut failures = Vec::new();
        for case in cases.iter().filter(|c| !c.fixed_function_ps) {
            let mut found = Vec::new();
            let run = gpu.run_scene(
                &case.scene,
                |n| case.wants(n),
                |n, imgs| found.extend(case.check(n, |x, y| imgs[0].get(x, y))),
            );
            if let Err(e) = run {
                found.push(format!("{}: {e}", case.name));
            }
            failures.extend(found.into_iter().map(|f| format!("{backend:?}: {f}")));
        }
        assert!(failures.is_empty(), "{}", failures.join("\n"));
    }
}

#[test]
fn user_clip_planes_enabled_by_bit_clip_in_clip_space() {
    run(state_cases::clip_plane_cases());
}

#[test]
fn ps_1_x_projected_reads_follow_the_vertex_shader_and_declaration() {
    run(state_cases::projection_cases());
}

#[test]
fn fog_with_shaders_follows_wine_fog_with_shader_test() {
    run(state_cases::fog_cases());
}
