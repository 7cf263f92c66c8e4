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
//! time, passes of the two sides interleaved (robust on a shared machine, where wall time
//! measures the neighbours): the best and median pass of each and their ratio.
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

/// Disassembly of `set` by both sides in thread CPU time: passes alternate for about
/// `min` in total; prints each side's best and median pass and the throughput ratio.
fn cpu_summary(set: &[&Binary], min: Duration) {
    let bytes: usize = set.iter().map(|b| b.bytes.len()).sum();
    let mut text = String::new();
    let mut ours = Vec::new();
    let mut theirs = Vec::new();
    let start = Instant::now();
    while ours.len() < 20 || start.elapsed() < min {
        let t = thread_cpu();
        for s in set {
            text.clear();
            d3dbc::print::print_tokens(black_box(&s.tokens), &Default::default(), &mut text)
                .unwrap();
            black_box(&text);
        }
        ours.push(thread_cpu() - t);
        let t = thread_cpu();
        for s in set {
            black_box(mojoshader::parse(Profile::D3d, black_box(&s.bytes)));
        }
        theirs.push(thread_cpu() - t);
    }
    ours.sort();
    theirs.sort();
    let mib = |d: Duration| bytes as f64 / d.as_secs_f64() / (1024.0 * 1024.0);
    let (ob, om) = (ours[0], ours[ours.len() / 2]);
    let (tb, tm) = (theirs[0], theirs[theirs.len() / 2]);
    eprintln!(
        "disassembly, thread CPU time, {} interleaved passes of {} shaders ({bytes} bytes):",
        ours.len(),
        set.len()
    );
    eprintln!(
        "  d3dbc print_tokens  best {:>8.1} MiB/s  median {:>8.1} MiB/s",
        mib(ob),
        mib(om)
    );
    eprintln!(
        "  mojoshader d3d      best {:>8.1} MiB/s  median {:>8.1} MiB/s",
        mib(tb),
        mib(tm)
    );
    eprintln!(
        "  ratio               best {:>8.1}x       median {:>8.1}x",
        tb.as_secs_f64() / ob.as_secs_f64(),
        tm.as_secs_f64() / om.as_secs_f64()
    );
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
