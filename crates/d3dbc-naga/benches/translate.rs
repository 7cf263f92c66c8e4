//! Translation to SPIR-V over the real binaries (`binaries.jsonl`), split into the
//! lowering (d3dbc → naga IR), naga's validator and naga's SPIR-V writer, in bytes of
//! D3D9 bytecode per second (`*_bytes`) and shaders per second (`*_shaders`). Prints
//! SPIR-V words per D3D9 instruction once before measuring.
//!
//! `cargo bench -p d3dbc-naga --bench translate` (reads `D3DBC_CORPUS`).

#[path = "../../d3dbc/benches/support/binaries.rs"]
mod binaries;

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use d3dbc::Shader;
use d3dbc_naga::TranslateOptions;

fn load() -> Vec<(Shader, usize)> {
    binaries::load()
        .into_iter()
        .filter(|(_, s)| d3dbc_naga::translate(s, &TranslateOptions::default()).is_ok())
        .map(|(tokens, s)| (s, tokens.len() * 4))
        .collect()
}

fn bench(c: &mut Criterion) {
    let shaders = load();
    if shaders.is_empty() {
        eprintln!("corpus not found: nothing to measure");
        return;
    }
    let opts = TranslateOptions::default();
    let bytes: usize = shaders.iter().map(|s| s.1).sum();
    let n = shaders.len() as u64;
    // Words per instruction (arithmetic and texture instructions; dcl/def/comments not),
    // under the default (strict 0·x) semantics and under plain IEEE multiplication.
    let ieee = TranslateOptions {
        semantics: d3dbc::Semantics {
            mul_zero: d3dbc::MulZero::Ieee,
            ..Default::default()
        },
        ..Default::default()
    };
    for (name, o) in [("strict 0·x", &opts), ("ieee", &ieee)] {
        let (mut words, mut instrs) = (0usize, 0usize);
        for (s, _) in &shaders {
            let t = d3dbc_naga::translate(s, o).unwrap();
            words += t.spirv().unwrap().len();
            instrs += s
                .instructions()
                .filter(|i| i.opcode.slots(s.version) > 0)
                .count();
        }
        eprintln!(
            "{name}: {} shaders, {bytes} bytes, {instrs} instructions: {words} SPIR-V words, {:.2} words per D3D9 instruction",
            shaders.len(),
            words as f64 / instrs as f64
        );
    }
    let modules: Vec<naga::Module> = shaders
        .iter()
        .map(|(s, _)| d3dbc_naga::lower(s, &opts).unwrap().0)
        .collect();
    let translations: Vec<d3dbc_naga::Translation> = shaders
        .iter()
        .map(|(s, _)| d3dbc_naga::translate(s, &opts).unwrap())
        .collect();
    for (name, t) in [
        ("bytes", Throughput::Bytes(bytes as u64)),
        ("shaders", Throughput::Elements(n)),
    ] {
        let mut g = c.benchmark_group(format!("spirv_{name}"));
        g.throughput(t);
        g.bench_function("lower", |b| {
            b.iter(|| {
                for (s, _) in &shaders {
                    black_box(d3dbc_naga::lower(s, &opts).unwrap());
                }
            })
        });
        g.bench_function("validate", |b| {
            b.iter(|| {
                for m in &modules {
                    black_box(d3dbc_naga::validate(m).unwrap());
                }
            })
        });
        g.bench_function("write", |b| {
            b.iter(|| {
                for t in &translations {
                    black_box(t.spirv().unwrap());
                }
            })
        });
        g.bench_function("total", |b| {
            b.iter(|| {
                for (s, _) in &shaders {
                    black_box(d3dbc_naga::translate(s, &opts).unwrap().spirv().unwrap());
                }
            })
        });
        g.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
