//! Decompilation speed over the real binaries (`binaries.jsonl`): shaders per second
//! and MB/s of D3D9 bytecode, from the bytecode (decode included) and from a decoded
//! shader. Prints the HLSL lines per D3D9 instruction once before measuring.
//!
//! `cargo bench -p d3dbc-hlsl --bench decompile` (reads `D3DBC_CORPUS`).

#[path = "../../d3dbc/benches/support/binaries.rs"]
mod binaries;

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use d3dbc::Shader;

fn bench(c: &mut Criterion) {
    let shaders = binaries::load();
    if shaders.is_empty() {
        eprintln!("corpus not found: nothing to measure");
        return;
    }
    let bytes: usize = shaders.iter().map(|s| s.0.len() * 4).sum();
    let instrs: usize = shaders
        .iter()
        .map(|(_, s)| {
            s.instructions()
                .filter(|i| i.opcode.slots(s.version) > 0)
                .count()
        })
        .sum();
    let lines: usize = shaders
        .iter()
        .map(|(_, s)| d3dbc_hlsl::decompile(s).map_or(0, |d| d.hlsl.lines().count()))
        .sum();
    eprintln!(
        "{} shaders, {bytes} bytes, {instrs} instructions; {:.2} HLSL lines per instruction",
        shaders.len(),
        lines as f64 / instrs as f64
    );
    for (name, t) in [
        ("shaders", Throughput::Elements(shaders.len() as u64)),
        ("bytes", Throughput::Bytes(bytes as u64)),
    ] {
        let mut g = c.benchmark_group(format!("decompile_{name}"));
        g.throughput(t);
        g.bench_function("from_bytecode", |b| {
            b.iter(|| {
                for (toks, _) in &shaders {
                    let s = Shader::decode(black_box(toks)).unwrap();
                    let _ = black_box(d3dbc_hlsl::decompile(&s));
                }
            })
        });
        g.bench_function("decompile", |b| {
            b.iter(|| {
                for (_, s) in &shaders {
                    let _ = black_box(d3dbc_hlsl::decompile(s));
                }
            })
        });
        g.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
