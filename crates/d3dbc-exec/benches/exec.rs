//! Throughput of the CPU executor at 640×480: every draw of a selection of oracle records
//! (vkd3d's shader tests, full-screen quads from 2 to 184 pixel-shader instructions)
//! rendered in full, output merger included.
//!
//! Two figures per record: pixels/s (pixel-shader lanes, helper lanes included) and
//! lane-instructions/s (every executed instruction times the lanes active for it,
//! helper lanes included; flow-control instructions count, co-issued pairs count
//! twice). A summary table is printed first: one rayon thread measured in process CPU
//! time (robust on a shared machine), and all of rayon's threads in wall-clock time;
//! criterion then measures lane-instructions/s with the default pool (set
//! `RAYON_NUM_THREADS=1` for one core). `D3DBC_BENCH_NO_SUMMARY=1` skips the table.
//!
//! `cargo bench -p d3dbc-exec --bench exec -- --warm-up-time 1 --measurement-time 3`

use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use d3dbc_exec::render::{Options, Renderer};
use d3dbc_exec::{oracle, Scene};

/// The records measured: (label, record source suffix).
const RECORDS: &[(&str, &str)] = &[
    ("abs", "tests/hlsl/abs.shader_test:9"),
    ("arith", "tests/hlsl/arithmetic-float.shader_test:10"),
    ("sampler", "tests/hlsl/sampler.shader_test:19"),
    ("ps1tex", "tests/hlsl/ps1-sampler.shader_test:26"),
    ("samplers4", "tests/hlsl/combined-samplers.shader_test:203"),
    ("invtrig", "tests/hlsl/inverse-trig.shader_test:45"),
    ("lit", "tests/hlsl/lit.shader_test:32"),
    ("matidx", "tests/hlsl/matrix-indexing.shader_test:121"),
    ("copyprop", "tests/hlsl/hard-copy-prop.shader_test:112"),
];

fn scenes() -> Vec<(&'static str, Scene)> {
    let dir = std::env::var("D3DBC_CORPUS").unwrap_or_else(|_| "../../../shared/corpus".into());
    let path = std::path::Path::new(&dir).join("vkd3d_exec.jsonl");
    let Ok(recs) = oracle::load(&path) else {
        eprintln!("SKIPPED: {} not found (set D3DBC_CORPUS)", path.display());
        return Vec::new();
    };
    let mut out = Vec::new();
    for &(label, src) in RECORDS {
        match recs.iter().find(|r| r.source.ends_with(src)) {
            Some(r) => out.push((label, r.scene.clone())),
            None => eprintln!("bench record {src} not in the corpus; skipped"),
        }
    }
    out
}

fn work(scene: &Scene) -> (u64, u64) {
    let r = Renderer::run_scene(scene, Options::default(), None, |_, _| {}).unwrap();
    (r.stats.ps_lanes, r.stats.ps_lane_instructions)
}

/// CPU time consumed by this process so far (all threads).
fn cpu_time() -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec; CLOCK_PROCESS_CPUTIME_ID is supported
    // on every Unix this bench runs on. The bench needs CPU time because wall time on a
    // shared machine measures the neighbours.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut ts) };
    assert_eq!(rc, 0, "clock_gettime");
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

/// Best wall time and best CPU time of a few runs of `scene` (at least `min` in total).
fn best(scene: &Scene, min: Duration) -> (Duration, Duration) {
    let start = Instant::now();
    let (mut wall, mut cpu) = (Duration::MAX, Duration::MAX);
    let mut n = 0;
    while n < 3 || start.elapsed() < min {
        let (t, c) = (Instant::now(), cpu_time());
        std::hint::black_box(work(scene));
        wall = wall.min(t.elapsed());
        cpu = cpu.min(cpu_time().saturating_sub(c));
        n += 1;
    }
    (wall, cpu)
}

fn summary(scenes: &[(&str, Scene)]) {
    let all = rayon::current_num_threads();
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    eprintln!(
        "1T: one rayon thread, per CPU-second; NT: {all} threads, per wall-clock second \
         (and per CPU-second). M = 10^6."
    );
    eprintln!(
        "{:<10} {:>6} {:>9} {:>10} | {:>9} {:>10} | {:>9} {:>10} {:>10}",
        "record",
        "ins/px",
        "lanes",
        "lane-ins",
        "1T Mpix",
        "1T Mlanei",
        "NT Mpix",
        "NT Mlanei",
        "NT cpu Mli"
    );
    let mut tot = (0u64, 0u64, 0f64, 0f64, 0f64);
    for (name, scene) in scenes {
        let (lanes, instrs) = work(scene);
        let (_, c1) = one.install(|| best(scene, Duration::from_millis(300)));
        let (wn, cn) = best(scene, Duration::from_millis(300));
        let t = (
            lanes,
            instrs,
            c1.as_secs_f64(),
            wn.as_secs_f64(),
            cn.as_secs_f64(),
        );
        row(name, t);
        tot = (
            tot.0 + t.0,
            tot.1 + t.1,
            tot.2 + t.2,
            tot.3 + t.3,
            tot.4 + t.4,
        );
    }
    row("all", tot);
}

/// One line of the summary: lanes, lane-instructions, one-thread CPU seconds, all-thread
/// wall and CPU seconds.
fn row(name: &str, (lanes, instrs, c1, wn, cn): (u64, u64, f64, f64, f64)) {
    let m = |x: u64, d: f64| x as f64 / d / 1e6;
    eprintln!(
        "{:<10} {:>6.1} {:>9} {:>10} | {:>9.2} {:>10.1} | {:>9.2} {:>10.1} {:>10.1}",
        name,
        instrs as f64 / lanes.max(1) as f64,
        lanes,
        instrs,
        m(lanes, c1),
        m(instrs, c1),
        m(lanes, wn),
        m(instrs, wn),
        m(instrs, cn)
    );
}

fn bench(c: &mut Criterion) {
    let scenes = scenes();
    if std::env::var_os("D3DBC_BENCH_NO_SUMMARY").is_none() {
        summary(&scenes);
    }
    let mut g = c.benchmark_group("lane_instructions");
    for (name, scene) in &scenes {
        let (_, instrs) = work(scene);
        g.throughput(Throughput::Elements(instrs));
        g.bench_function(*name, |b| b.iter(|| work(scene)));
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
