//! The execution oracles: every probe of `vkd3d_exec.jsonl` (vkd3d's shader tests with
//! Windows' values) and `wine_exec.jsonl` (Wine's visual tests, SM1 above all) passes on
//! the CPU executor.
#[path = "../../d3dbc/tests/common/mod.rs"]
mod common;

use d3dbc_exec::{oracle, render, replay};

fn check(file: &str) {
    let Some(dir) = common::corpus_dir() else {
        return;
    };
    let recs = oracle::load(&dir.join(file)).unwrap();
    let mut failed = Vec::new();
    let mut passed = 0;
    for rec in &recs {
        for o in replay::replay(rec, render::Options::default()) {
            match o.failure {
                None => passed += 1,
                Some(f) => failed.push(format!(
                    "{}: expected {:?}: {f}",
                    o.probe.label,
                    o.probe.expect_f32()
                )),
            }
        }
    }
    assert!(passed > 0, "{file}: no probes");
    assert!(
        failed.is_empty(),
        "{file}: {passed} passed, {} failed:\n{}",
        failed.len(),
        failed.join("\n")
    );
}

#[test]
fn vkd3d_exec_all_probes_pass() {
    check("vkd3d_exec.jsonl");
}

#[test]
fn wine_exec_all_probes_pass() {
    check("wine_exec.jsonl");
}
