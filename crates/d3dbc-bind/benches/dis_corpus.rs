//! `Shader::from_bytes(bytes).disassemble()` over the corpus binaries, in process: the
//! Rust side of the Python package's bench (`crates/d3dbc-py/bench/dis_corpus.py` runs
//! the same calls through the wheel; README "From Python" has both figures). The
//! inputs are every `dwords` of `binaries.jsonl`, `wine_d3d9_blobs.jsonl`,
//! `vkd3d_d3dbc.jsonl` and `fxc10_listings.jsonl` that holds a shader (471), as bytes.
//!
//! `cargo bench -p d3dbc-bind --bench dis_corpus` (`--profile release` reuses the
//! wheel's build).

#[path = "../../d3dbc/benches/support/records.rs"]
mod records;

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};

/// The corpus binaries that hold a shader, as file bytes.
fn load() -> Vec<Vec<u8>> {
    records::load()
        .into_iter()
        .map(|dw| dw.iter().flat_map(|w| w.to_le_bytes()).collect::<Vec<u8>>())
        .filter(|bytes| d3dbc_bind::Shader::from_bytes(bytes).is_ok())
        .collect()
}

fn bench(c: &mut Criterion) {
    let inputs = load();
    if inputs.is_empty() {
        eprintln!(
            "corpus not found at {}: nothing to measure",
            records::corpus_dir().display()
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
