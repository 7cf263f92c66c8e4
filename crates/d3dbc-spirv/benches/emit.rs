//! Both SPIR-V back ends over the real binaries (`binaries.jsonl`), in the same run: MB/s
//! of D3D9 bytecode (`*_bytes`) and shaders per second (`*_shaders`), from the
//! bytecode (decode included, as an engine translating at load time does) and from a
//! decoded shader. `direct` is `d3dbc-spirv`, `naga` is `d3dbc-naga` (lower, naga
//! validation, naga's SPIR-V writer). Prints SPIR-V words per D3D9 instruction of both
//! once before measuring.
//!
//! `cargo bench -p d3dbc-spirv --bench emit` (reads `D3DBC_CORPUS`).

#[path = "../../d3dbc/benches/support/binaries.rs"]
mod binaries;

use std::time::Duration;

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use d3dbc::Shader;
use d3dbc_spirv::TranslateOptions;

fn bench(c: &mut Criterion) {
    let shaders = binaries::load();
    if shaders.is_empty() {
        eprintln!("corpus not found: nothing to measure");
        return;
    }
    let opts = TranslateOptions::default();
    let bytes: usize = shaders.iter().map(|s| s.0.len() * 4).sum();
    let n = shaders.len() as u64;
    let instrs: usize = shaders
        .iter()
        .map(|(_, s)| {
            s.instructions()
                .filter(|i| i.opcode.slots(s.version) > 0)
                .count()
        })
        .sum();
    let (mut direct, mut naga) = (0usize, 0usize);
    for (_, s) in &shaders {
        direct += d3dbc_spirv::emit(s, &opts).unwrap().len();
        naga += d3dbc_naga::translate(s, &opts)
            .unwrap()
            .spirv()
            .unwrap()
            .len();
    }
    eprintln!(
        "{} shaders, {bytes} bytes, {instrs} instructions; SPIR-V words per D3D9 instruction: direct {:.2}, naga {:.2}",
        shaders.len(),
        direct as f64 / instrs as f64,
        naga as f64 / instrs as f64
    );
    for (name, t) in [
        ("bytes", Throughput::Bytes(bytes as u64)),
        ("shaders", Throughput::Elements(n)),
    ] {
        let mut g = c.benchmark_group(format!("spirv_{name}"));
        g.throughput(t);
        g.bench_function("direct_from_bytecode", |b| {
            b.iter(|| {
                for (toks, _) in &shaders {
                    let s = Shader::decode(black_box(toks)).unwrap();
                    black_box(d3dbc_spirv::emit(&s, &opts).unwrap());
                }
            })
        });
        g.bench_function("direct_emit", |b| {
            b.iter(|| {
                for (_, s) in &shaders {
                    black_box(d3dbc_spirv::emit(s, &opts).unwrap());
                }
            })
        });
        g.bench_function("naga_from_bytecode", |b| {
            b.iter(|| {
                for (toks, _) in &shaders {
                    let s = Shader::decode(black_box(toks)).unwrap();
                    let t = d3dbc_naga::translate(&s, &opts).unwrap();
                    black_box(t.spirv().unwrap());
                }
            })
        });
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
