//! d3dbc beside MojoShader in the same run, over the real binaries (`binaries.jsonl`):
//! SPIR-V from bytecode (`d3dbc-spirv`'s decode + emit, `emit_tokens`, against
//! MojoShader's `spirv` profile) and disassembly (`d3dbc::print::print_tokens`, what
//! `dis` runs, against MojoShader's `d3d` profile). Both sides get the shaders MojoShader accepts, as bytes
//! in memory; throughput is MB/s of D3D9 bytecode and shaders per second.
//!
//! `cargo xtask peers` fetches MojoShader's sources and runs this bench; without them it
//! measures d3dbc alone and says so. Reads `D3DBC_CORPUS`.
//!
//! Before criterion's wall-clock groups, a summary measures disassembly in thread CPU
//! time, the two sides taking turns in blocks of passes (robust on a shared machine,
//! where wall time measures the neighbours): the best and median pass of each and their
//! ratio, for warm passes (as in a loop over files, and in criterion's groups) and for
//! each block's first, cold one (after the other side's passes).
//! `D3DBC_BENCH_NO_SUMMARY=1` skips it.

#[path = "../../d3dbc/benches/support/binaries.rs"]
mod binaries;
#[path = "../../d3dbc/benches/support/cpu_time.rs"]
mod cpu_time;

use std::time::{Duration, Instant};

use cpu_time::thread_cpu;
use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use d3dbc_peers::mojoshader::{self, Profile};

struct Binary {
    tokens: Vec<u32>,
    bytes: Vec<u8>,
}

fn load() -> Vec<Binary> {
    binaries::load()
        .into_iter()
        .map(|(tokens, _)| Binary {
            bytes: tokens.iter().flat_map(|t| t.to_le_bytes()).collect(),
            tokens,
        })
        .collect()
}

/// Disassembly of `set` by both sides in thread CPU time, for about `min` in total: the
/// sides take turns in blocks of [`BLOCK`] passes. The first pass of a block starts cold
/// (the other side's code and data in the caches and branch predictors), the others warm,
/// as in a loop over many files and in criterion's groups; prints each side's best and
/// median pass of both kinds and the throughput ratios.
fn cpu_summary(set: &[&Binary], min: Duration) {
    let bytes: usize = set.iter().map(|b| b.bytes.len()).sum();
    let mut text = String::new();
    let (mut ours, mut theirs) = (Passes::default(), Passes::default());
    let start = Instant::now();
    while ours.cold.len() < 20 || start.elapsed() < min {
        for k in 0..BLOCK {
            let t = thread_cpu();
            for s in set {
                text.clear();
                d3dbc::print::print_tokens(black_box(&s.tokens), &Default::default(), &mut text)
                    .unwrap();
                black_box(&text);
            }
            ours.push(k, thread_cpu() - t);
        }
        for k in 0..BLOCK {
            let t = thread_cpu();
            for s in set {
                black_box(mojoshader::parse(Profile::D3d, black_box(&s.bytes)));
            }
            theirs.push(k, thread_cpu() - t);
        }
    }
    let mib = |d: Duration| bytes as f64 / d.as_secs_f64() / (1024.0 * 1024.0);
    eprintln!(
        "disassembly, thread CPU time, {} blocks of {BLOCK} passes a side over {} shaders ({bytes} bytes):",
        ours.cold.len(),
        set.len()
    );
    for (kind, o, t) in [
        ("warm", &mut ours.warm, &mut theirs.warm),
        ("cold", &mut ours.cold, &mut theirs.cold),
    ] {
        o.sort();
        t.sort();
        let (ob, om) = (o[0], o[o.len() / 2]);
        let (tb, tm) = (t[0], t[t.len() / 2]);
        eprintln!(
            "  {kind}: d3dbc print_tokens  best {:>8.1} MiB/s  median {:>8.1} MiB/s",
            mib(ob),
            mib(om)
        );
        eprintln!(
            "  {kind}: mojoshader d3d      best {:>8.1} MiB/s  median {:>8.1} MiB/s",
            mib(tb),
            mib(tm)
        );
        eprintln!(
            "  {kind}: ratio               best {:>8.1}x       median {:>8.1}x",
            tb.as_secs_f64() / ob.as_secs_f64(),
            tm.as_secs_f64() / om.as_secs_f64()
        );
    }
}

/// Passes a side runs in a row in [`cpu_summary`].
const BLOCK: usize = 8;

/// One side's pass times in [`cpu_summary`]: each block's first pass, and the others.
#[derive(Default)]
struct Passes {
    cold: Vec<Duration>,
    warm: Vec<Duration>,
}

impl Passes {
    fn push(&mut self, k: usize, d: Duration) {
        if k == 0 {
            self.cold.push(d);
        } else {
            self.warm.push(d);
        }
    }
}

fn bench(c: &mut Criterion) {
    let all = load();
    if all.is_empty() {
        eprintln!("corpus not found: nothing to measure");
        return;
    }
    let opts = d3dbc_spirv::TranslateOptions::default();
    let mojo = mojoshader::available();
    if !mojo {
        eprintln!("MojoShader not built (`cargo xtask peers` fetches it): measuring d3dbc alone");
    }
    // Both sides translate the same shaders: those MojoShader accepts for both profiles.
    let set: Vec<&Binary> = all
        .iter()
        .filter(|b| {
            !mojo
                || (mojoshader::parse(Profile::Spirv, &b.bytes).is_some()
                    && mojoshader::parse(Profile::D3d, &b.bytes).is_some())
        })
        .collect();
    assert!(!set.is_empty(), "MojoShader accepted none of the binaries");
    let bytes: usize = set.iter().map(|b| b.bytes.len()).sum();
    eprintln!(
        "{} of {} binaries ({bytes} bytes){}",
        set.len(),
        all.len(),
        if mojo { " accepted by MojoShader" } else { "" }
    );
    if mojo && std::env::var_os("D3DBC_BENCH_NO_SUMMARY").is_none() {
        cpu_summary(&set, Duration::from_secs(6));
    }
    for (name, t) in [
        ("bytes", Throughput::Bytes(bytes as u64)),
        ("shaders", Throughput::Elements(set.len() as u64)),
    ] {
        let mut g = c.benchmark_group(format!("spirv_{name}"));
        g.throughput(t.clone());
        g.bench_function("d3dbc_spirv", |b| {
            b.iter(|| {
                for s in &set {
                    // Decoded straight into the emitter's pre-pass (no `Shader`).
                    black_box(d3dbc_spirv::emit_tokens(black_box(&s.tokens), &opts).unwrap());
                }
            })
        });
        if mojo {
            g.bench_function("mojoshader", |b| {
                b.iter(|| {
                    for s in &set {
                        black_box(mojoshader::parse(Profile::Spirv, black_box(&s.bytes)));
                    }
                })
            });
        }
        g.finish();

        let mut g = c.benchmark_group(format!("disassembly_{name}"));
        g.throughput(t);
        let mut text = String::new();
        g.bench_function("d3dbc_print_tokens", |b| {
            b.iter(|| {
                for s in &set {
                    text.clear();
                    d3dbc::print::print_tokens(
                        black_box(&s.tokens),
                        &Default::default(),
                        &mut text,
                    )
                    .unwrap();
                    black_box(&text);
                }
            })
        });
        if mojo {
            g.bench_function("mojoshader_d3d", |b| {
                b.iter(|| {
                    for s in &set {
                        black_box(mojoshader::parse(Profile::D3d, black_box(&s.bytes)));
                    }
                })
            });
        }
        g.finish();
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(20)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(4));
    targets = bench
}
criterion_main!(benches);
