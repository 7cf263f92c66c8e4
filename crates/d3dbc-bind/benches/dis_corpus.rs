//! `Shader::from_bytes(bytes).disassemble()` over the corpus binaries, in process: the
//! Rust side of the Python package's bench (`crates/d3dbc-py/bench/dis_corpus.py` runs
//! the same calls through the wheel; README "From Python" has both figures). The
//! inputs are every `dwords` of `binaries.jsonl`, `wine_d3d9_blobs.jsonl`,
//! `vkd3d_d3dbc.jsonl` and `fxc10_listings.jsonl` that holds a shader (471), as bytes.
//!
//! `cargo bench -p d3dbc-bind --bench dis_corpus` (`--profile release` reuses the
//! wheel's build).

use std::path::PathBuf;

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};

fn corpus_dir() -> PathBuf {
    std::env::var_os("D3DBC_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus"))
}

/// The corpus binaries that hold a shader, as file bytes.
fn load() -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    for file in [
        "binaries.jsonl",
        "wine_d3d9_blobs.jsonl",
        "vkd3d_d3dbc.jsonl",
        "fxc10_listings.jsonl",
    ] {
        let Ok(text) = std::fs::read_to_string(corpus_dir().join(file)) else {
            continue;
        };
        for line in text.lines() {
            let Ok(r) = serde_json::from_str::<serde_json::Value>(line) else {
                continue;
            };
            let Some(words) = r["dwords"].as_array() else {
                continue;
            };
            let bytes: Vec<u8> = words
                .iter()
                .filter_map(|w| u32::from_str_radix(w.as_str()?.trim_start_matches("0x"), 16).ok())
                .flat_map(u32::to_le_bytes)
                .collect();
            if d3dbc_bind::Shader::from_bytes(&bytes).is_ok() {
                out.push(bytes);
            }
        }
    }
    out
}

fn bench(c: &mut Criterion) {
    let inputs = load();
    if inputs.is_empty() {
        eprintln!(
            "corpus not found at {}: nothing to measure",
            corpus_dir().display()
        );
        return;
    }
    let bytes: u64 = inputs.iter().map(|b| b.len() as u64).sum();
    eprintln!("{} shaders, {bytes} bytes", inputs.len());
    let mut g = c.benchmark_group("from_bytes_disassemble");
    g.throughput(Throughput::Bytes(bytes));
    g.bench_function("corpus", |b| {
        b.iter(|| {
            let mut n = 0usize;
            for data in &inputs {
                let (sh, _) = d3dbc_bind::Shader::from_bytes(data).expect("decodes");
                n += sh.disassemble(false, false).len();
            }
            black_box(n)
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
