//! `rip` throughput: bytes of input scanned per second for shaders and effects, over
//! 64 MiB of random bytes (the common case: nothing to find) and over the same bytes
//! with a shader planted every 64 KiB (each find decoded and checksummed). One core.
//! Run with `cargo bench -p d3dbc --bench rip`.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};

fn random(n: usize) -> Vec<u8> {
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    let mut v = Vec::with_capacity(n);
    while v.len() < n {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        v.extend_from_slice(&x.to_le_bytes());
    }
    v.truncate(n);
    v
}

fn bench(c: &mut Criterion) {
    let n = 64 << 20;
    let data = random(n);
    let mut planted = data.clone();
    let shader: [u32; 5] = [0xFFFF0200, 0x02000001, 0x800F0800, 0xA0E40000, 0x0000FFFF];
    let bytes: Vec<u8> = shader.iter().flat_map(|w| w.to_le_bytes()).collect();
    let mut count = 0;
    for at in (1000..n - 64).step_by(64 << 10) {
        planted[at..at + bytes.len()].copy_from_slice(&bytes);
        count += 1;
    }
    assert_eq!(d3dbc::rip::scan(&planted).len(), count);
    let mut g = c.benchmark_group("rip");
    g.sample_size(10);
    g.throughput(Throughput::Bytes(n as u64));
    g.bench_function("random_64MiB", |b| {
        b.iter(|| d3dbc::rip::scan(black_box(&data)))
    });
    g.bench_function("planted_64MiB", |b| {
        b.iter(|| d3dbc::rip::scan(black_box(&planted)))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
