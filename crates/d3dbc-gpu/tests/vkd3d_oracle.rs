//! Every probe of `vkd3d_exec.jsonl` replayed on a real Vulkan adapter (lavapipe in CI)
//! through d3dbc-naga and wgpu. Probes that do not pass yet are listed, one label per
//! line, in `expected_failures.txt` (point sizes and sprites: wgpu draws 1-pixel
//! points; table fog, a few ulps off): the test fails when a probe outside the list fails,
//! and reports listed probes that pass now so the list can shrink.

#[path = "../../d3dbc/tests/common/mod.rs"]
mod common;
mod gpu_common;

use d3dbc_exec::oracle;

#[test]
fn vkd3d_exec_probes_on_the_gpu() {
    let Some(dir) = common::corpus_dir() else {
        return;
    };
    let Some(gpu) = gpu_common::gpu_or_skip() else {
        return;
    };
    let expected: std::collections::BTreeSet<&str> = include_str!("expected_failures.txt")
        .lines()
        .filter(|l| !l.trim().is_empty())
        .collect();
    let recs = oracle::load(&dir.join("vkd3d_exec.jsonl")).expect("vkd3d_exec.jsonl loads");
    let (mut pass, mut unexpected, mut fixed) = (0, Vec::new(), Vec::new());
    let mut total = 0;
    for rec in &recs {
        for o in d3dbc_gpu::replay(&gpu, rec) {
            total += 1;
            let listed = expected.contains(o.probe.label.as_str());
            match (o.failure, listed) {
                (None, false) => pass += 1,
                (None, true) => {
                    pass += 1;
                    fixed.push(o.probe.label);
                }
                (Some(_), true) => {}
                (Some(f), false) => unexpected.push(format!("{}: {f}", o.probe.label)),
            }
        }
    }
    eprintln!(
        "adapter {}: probes: {pass} passed, {} failed ({} listed as expected)",
        gpu.adapter_name,
        total - pass,
        expected.len()
    );
    for f in &fixed {
        eprintln!("now passing (remove from expected_failures.txt): {f}");
    }
    assert_eq!(total, 493, "vkd3d_exec.jsonl probe count changed");
    assert!(
        unexpected.is_empty(),
        "unexpected failures:\n{}",
        unexpected.join("\n")
    );
    assert!(pass >= 441, "only {pass} probes pass");
}
