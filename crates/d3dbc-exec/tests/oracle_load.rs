//! Every record of both execution oracles loads into a `Scene` with its probes.
#[path = "../../d3dbc/tests/common/mod.rs"]
mod common;

use d3dbc_exec::oracle;
use d3dbc_exec::Op;

#[test]
fn both_oracles_load() {
    let Some(dir) = common::corpus_dir() else {
        return;
    };
    for (file, records, probes) in [("vkd3d_exec.jsonl", 334, 493), ("wine_exec.jsonl", 50, 295)] {
        let recs = oracle::load(&dir.join(file)).unwrap();
        assert_eq!(recs.len(), records, "{file}");
        let n: usize = recs.iter().map(|r| r.probes.len()).sum();
        assert_eq!(n, probes, "{file}");
        for r in &recs {
            let draws = r
                .scene
                .ops
                .iter()
                .filter(|o| matches!(o, Op::Draw(_)))
                .count();
            for p in &r.probes {
                assert!(p.after_draws >= 1 && p.after_draws <= draws, "{}", p.label);
            }
            // The description round-trips through serde.
            let json = serde_json::to_string(&r.scene).unwrap();
            let back: d3dbc_exec::Scene = serde_json::from_str(&json).unwrap();
            assert_eq!(back, r.scene, "{}", r.source);
        }
    }
}

#[test]
fn ulp_rules() {
    assert_eq!(oracle::ulp_distance(0x8000_0000, 0), 0);
    assert_eq!(oracle::ulp_distance(0x3f80_0000, 0x3f80_0001), 1);
    assert_eq!(oracle::ulp_distance(0x0000_0001, 0x8000_0001), 2);
    assert_eq!(oracle::ulp_distance(0x7fc0_0000, 0x7fc0_0001), 0);
    assert_eq!(oracle::ulp_distance(0x7fc0_0000, 0xffc0_0000), u64::MAX);
}
