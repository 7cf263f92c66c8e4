//! The render and texture-stage states that act on what shaders compute, on the CPU
//! executor, against the values Windows gives (the scenes and their sources:
//! `state_cases/mod.rs`, shared with the GPU runner's test).

mod state_cases;

use d3dbc_exec::render::{Options, Renderer};
use state_cases::Case;

fn run(cases: Vec<Case>) {
    let mut failures = Vec::new();
    for case in &cases {
        let mut found = Vec::new();
        let run = Renderer::run_scene(&case.scene, Options::default(), None, |n, r| {
            if case.wants(n) {
                let img = &r.targets[0];
                found.extend(case.check(n, |x, y| img.get(x, y)));
            }
        });
        if let Err(e) = run {
            found.push(format!("{}: {e}", case.name));
        }
        failures.extend(found);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
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
