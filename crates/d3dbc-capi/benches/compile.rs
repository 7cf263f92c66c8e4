//! What the C boundary costs: `d3dbc_compile` to SPIR-V (options read, the input
//! checked, the validator run, the output copied out) beside the same work through the
//! Rust crates (`report::load_first` + `d3dbc_spirv::translate`) and beside the bare
//! emitter on already-decoded shaders, over the real binaries (`binaries.jsonl`), in one
//! run. Reads `D3DBC_CORPUS`.

#[path = "../../d3dbc/benches/support/binaries.rs"]
mod binaries;

use std::time::Duration;

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use d3dbc_capi::*;

fn bench(c: &mut Criterion) {
    let all = binaries::load();
    if all.is_empty() {
        eprintln!("corpus not found: nothing to measure");
        return;
    }
    let set: Vec<(Vec<u8>, d3dbc::Shader)> = all
        .into_iter()
        .map(|(t, s)| {
            (
                t.iter().flat_map(|w| w.to_le_bytes()).collect::<Vec<u8>>(),
                s,
            )
        })
        .filter(|(b, _)| d3dbc::report::load_first(b, "input", false, None).is_ok())
        .collect();
    let bytes: usize = set.iter().map(|(b, _)| b.len()).sum();
    eprintln!("{} valid binaries, {bytes} bytes", set.len());
    let opts = d3dbc::target::TranslateOptions::default();
    let mut g = c.benchmark_group("spirv");
    g.throughput(Throughput::Bytes(bytes as u64));
    g.bench_function("d3dbc_compile", |b| {
        b.iter(|| {
            for (bytes, _) in &set {
                let info = d3dbc_compile_info {
                    struct_size: std::mem::size_of::<d3dbc_compile_info>() as u32,
                    source_type: d3dbc_source_type::D3DBC_SOURCE_BYTECODE,
                    source: d3dbc_code {
                        data: bytes.as_ptr().cast(),
                        size: bytes.len(),
                    },
                    target_type: d3dbc_target_type::D3DBC_TARGET_SPIRV,
                    options: std::ptr::null(),
                    option_count: 0,
                };
                let mut out = d3dbc_code {
                    data: std::ptr::null(),
                    size: 0,
                };
                // SAFETY: valid pointers; the output is freed once.
                unsafe {
                    assert_eq!(d3dbc_compile(&info, &mut out, std::ptr::null_mut()), 0);
                    black_box(out.size);
                    d3dbc_free_code(&mut out);
                }
            }
        })
    });
    g.bench_function("rust_load_translate", |b| {
        b.iter(|| {
            for (bytes, _) in &set {
                let l = d3dbc::report::load_first(black_box(bytes), "input", false, None).unwrap();
                black_box(d3dbc_spirv::translate(&l.shader, &opts).unwrap());
            }
        })
    });
    g.bench_function("emit_only", |b| {
        b.iter(|| {
            for (_, shader) in &set {
                black_box(d3dbc_spirv::emit(black_box(shader), &opts).unwrap());
            }
        })
    });
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().measurement_time(Duration::from_secs(3)).warm_up_time(Duration::from_secs(1));
    targets = bench
}
criterion_main!(benches);
