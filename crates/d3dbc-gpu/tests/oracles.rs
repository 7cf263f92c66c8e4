//! The execution oracles replayed on a real Vulkan adapter (lavapipe in CI) through
//! both translation back ends (d3dbc-spirv, the default, and d3dbc-naga) and wgpu: every
//! probe of `vkd3d_exec.jsonl` (vkd3d's shader tests with
//! Windows' values) and of `wine_exec.jsonl` (Wine's visual tests, SM1 above all)
//! passes, and the probe counts are asserted so that a shrinking oracle is noticed.

#[path = "../../d3dbc/tests/common/mod.rs"]
mod common;
mod support;

use d3dbc_exec::oracle;

fn check(file: &str, probes: usize) {
    for backend in [d3dbc_gpu::Backend::Direct, d3dbc_gpu::Backend::Naga] {
        check_with(file, probes, backend);
    }
}

fn check_with(file: &str, probes: usize, backend: d3dbc_gpu::Backend) {
    let Some(dir) = common::corpus_dir() else {
        return;
    };
    let Some(gpu) = support::gpu_with(backend) else {
        return;
    };
    let recs = oracle::load(&dir.join(file)).expect("oracle loads");
    let (mut pass, mut failed) = (0, Vec::new());
    for rec in &recs {
        for o in d3dbc_gpu::replay(&gpu, rec) {
            match o.failure {
                None => pass += 1,
                Some(f) => failed.push(format!(
                    "{}: expected {:?}: {f}",
                    o.probe.label,
                    o.probe.expect_f32()
                )),
            }
        }
    }
    eprintln!(
        "{file} on {} through {backend:?}: probes: {pass} passed, {} failed",
        gpu.adapter_name,
        failed.len()
    );
    assert_eq!(pass + failed.len(), probes, "{file}: probe count changed");
    assert!(
        failed.is_empty(),
        "{file} through {backend:?}: {pass} passed, {} failed:\n{}",
        failed.len(),
        failed.join("\n")
    );
}

#[test]
fn vkd3d_exec_all_probes_pass_on_the_gpu() {
    check("vkd3d_exec.jsonl", 493);
}

#[test]
fn wine_exec_all_probes_pass_on_the_gpu() {
    check("wine_exec.jsonl", 295);
}
