//! Throughput of the CPU executor at 640×480: every draw of a selection of oracle records
//! (vkd3d's shader tests) rendered in full. Two views of the same work: pixels/s and
//! pixel-shader lane-instructions/s (helper lanes included).
//!
//! `cargo bench -p d3dbc-exec --bench exec -- --warm-up-time 1 --measurement-time 3`

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use d3dbc_exec::render::{Options, Renderer};
use d3dbc_exec::{oracle, Op, Scene};

fn scenes() -> Vec<(String, Scene)> {
    let dir = std::env::var("D3DBC_CORPUS").unwrap_or_else(|_| "../../../shared/corpus".into());
    let path = std::path::Path::new(&dir).join("vkd3d_exec.jsonl");
    let Ok(recs) = oracle::load(&path) else {
        eprintln!("SKIPPED: {} not found (set D3DBC_CORPUS)", path.display());
        return Vec::new();
    };
    // Records whose draws are full-screen single quads, a spread of shader kinds.
    let want = [
        "abs.shader_test:9",
        "sampler.shader_test",
        "loop.shader_test",
        "trigonometry",
        "arithmetic-float",
    ];
    let mut out = Vec::new();
    for w in want {
        if let Some(r) = recs.iter().find(|r| r.source.contains(w)) {
            out.push((w.to_string(), r.scene.clone()));
        }
    }
    out
}

fn work(scene: &Scene) -> (u64, u64) {
    let r = Renderer::run_scene(scene, Options::default(), None, |_, _| {}).unwrap();
    (r.stats.ps_lanes, r.stats.ps_lane_instructions)
}

fn bench(c: &mut Criterion) {
    let scenes = scenes();
    for (name, scene) in &scenes {
        let draws = scene
            .ops
            .iter()
            .filter(|o| matches!(o, Op::Draw(_)))
            .count();
        let (lanes, instrs) = work(scene);
        eprintln!("{name}: {draws} draws, {lanes} pixel lanes, {instrs} lane-instructions per run");
        let mut g = c.benchmark_group("pixels");
        g.throughput(Throughput::Elements(lanes));
        g.bench_function(name, |b| b.iter(|| work(scene)));
        g.finish();
        let mut g = c.benchmark_group("lane_instructions");
        g.throughput(Throughput::Elements(instrs));
        g.bench_function(name, |b| b.iter(|| work(scene)));
        g.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
