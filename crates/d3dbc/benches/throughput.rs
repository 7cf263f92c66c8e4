//! Throughput over the corpus: bytes of bytecode per second for the zero-copy decoder
//! scan, decoding to the IR, encoding, printing and validating; bytes of text per second
//! for the assembler. Run with `cargo bench -p d3dbc`; shaders/s = elements/s of the
//! `*_shaders` groups.
//!
//! Reads the corpus from `D3DBC_CORPUS` (default `../shared/corpus`); without it, the
//! bundled examples are measured.

use std::path::PathBuf;

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use d3dbc::{Decoder, Event, Shader};

fn corpus_dir() -> PathBuf {
    std::env::var_os("D3DBC_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus"))
}

fn hex_dwords(v: &serde_json::Value) -> Vec<u32> {
    v.as_array()
        .map(|a| {
            a.iter()
                .filter_map(|s| u32::from_str_radix(s.as_str()?.trim_start_matches("0x"), 16).ok())
                .collect()
        })
        .unwrap_or_default()
}

/// Valid token streams, and assembly texts.
fn load() -> (Vec<Vec<u32>>, Vec<String>) {
    let dir = corpus_dir();
    let mut streams = Vec::new();
    let mut texts = Vec::new();
    for file in [
        "binaries.jsonl",
        "wine_d3d9_blobs.jsonl",
        "vkd3d_d3dbc.jsonl",
        "oblivion_disasm.jsonl",
        "helix_asm.jsonl",
    ] {
        let Ok(data) = std::fs::read_to_string(dir.join(file)) else {
            continue;
        };
        for line in data.lines() {
            let Ok(r) = serde_json::from_str::<serde_json::Value>(line) else {
                continue;
            };
            if let Some(t) = r.get("text").and_then(|t| t.as_str()) {
                texts.push(t.to_string());
            }
            let d = hex_dwords(&r["dwords"]);
            if Shader::decode(&d).is_ok() {
                streams.push(d);
            }
        }
    }
    if streams.is_empty() {
        eprintln!(
            "corpus not found at {}: measuring the bundled examples",
            dir.display()
        );
        let ex = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../examples");
        for e in std::fs::read_dir(ex).into_iter().flatten().flatten() {
            let bytes = std::fs::read(e.path()).unwrap_or_default();
            if let Ok(found) = d3dbc::input::read_any(&bytes) {
                streams.extend(
                    found
                        .into_iter()
                        .map(|f| f.tokens)
                        .filter(|t| Shader::decode(t).is_ok()),
                );
            }
        }
    }
    (streams, texts)
}

fn benches(c: &mut Criterion) {
    let (streams, texts) = load();
    let bytes: u64 = streams.iter().map(|s| s.len() as u64 * 4).sum();
    let decode_all = || {
        streams
            .iter()
            .map(|s| Shader::decode(s).unwrap().items.len())
            .sum::<usize>()
    };
    let shaders: Vec<Shader> = streams.iter().map(|s| Shader::decode(s).unwrap()).collect();

    let mut g = c.benchmark_group("bytecode");
    g.throughput(Throughput::Bytes(bytes));
    g.bench_function("decode_scan", |b| {
        b.iter(|| {
            let mut n = 0usize;
            for s in &streams {
                for ev in Decoder::new(s).unwrap() {
                    if let Ok((_, Event::Instruction(i))) = ev {
                        n += i.src_count as usize;
                    }
                }
            }
            black_box(n)
        })
    });
    g.bench_function("decode_ir", |b| b.iter(decode_all));
    g.bench_function("encode", |b| {
        b.iter(|| shaders.iter().map(|s| s.encode().len()).sum::<usize>())
    });
    g.bench_function("print", |b| {
        let mut out = String::with_capacity(1 << 20);
        b.iter(|| {
            let mut n = 0;
            for s in &shaders {
                out.clear();
                d3dbc::print::print(s, &Default::default(), &mut out);
                n += out.len();
            }
            black_box(n)
        })
    });
    g.bench_function("validate", |b| {
        b.iter(|| {
            shaders
                .iter()
                .map(|s| d3dbc::validate::validate(s).len())
                .sum::<usize>()
        })
    });
    g.bench_function("decode_print", |b| {
        let mut out = String::with_capacity(1 << 20);
        b.iter(|| {
            for s in &streams {
                out.clear();
                d3dbc::print::print(&Shader::decode(s).unwrap(), &Default::default(), &mut out);
            }
            black_box(out.len())
        })
    });
    g.bench_function("print_tokens", |b| {
        let mut out = String::with_capacity(1 << 20);
        b.iter(|| {
            for s in &streams {
                out.clear();
                d3dbc::print::print_tokens(s, &Default::default(), &mut out).unwrap();
            }
            black_box(out.len())
        })
    });
    g.finish();

    let mut g = c.benchmark_group("bytecode_shaders");
    g.throughput(Throughput::Elements(streams.len() as u64));
    g.bench_function("decode_ir", |b| b.iter(decode_all));
    g.finish();

    if !texts.is_empty() {
        let text_bytes: u64 = texts.iter().map(|t| t.len() as u64).sum();
        let opts = d3dbc::asm::Options {
            file_name: "bench.asm".into(),
            ..Default::default()
        };
        let mut g = c.benchmark_group("text");
        g.throughput(Throughput::Bytes(text_bytes));
        g.sample_size(10);
        g.bench_function("assemble", |b| {
            b.iter(|| {
                texts
                    .iter()
                    .filter(|t| d3dbc::asm::assemble(t, &opts).is_ok())
                    .count()
            })
        });
        g.finish();
    }
}

criterion_group!(throughput, benches);
criterion_main!(throughput);
