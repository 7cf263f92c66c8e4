//! `rip` throughput: bytes of input scanned per second for shaders and effects, over
//! 64 MiB of random bytes (the common case: nothing to find), over the same bytes with
//! a small shader planted every 64 KiB and with a real-sized `ps_3_0` (a 3 KiB constant
//! table) planted every 64 KiB (each find decoded and checksummed), beside `memchr`'s
//! raw scan for the `0xFF` byte the candidates are found by, in the same run. One core.
//! Run with `cargo bench -p d3dbc --bench rip`.

#[path = "support/sm3.rs"]
mod sm3;

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

fn le_bytes(tokens: &[u32]) -> Vec<u8> {
    tokens.iter().flat_map(|w| w.to_le_bytes()).collect()
}

fn plant(data: &[u8], item: &[u8]) -> (Vec<u8>, usize) {
    let mut planted = data.to_vec();
    let mut count = 0;
    for at in (1000..data.len() - item.len() - 64).step_by(64 << 10) {
        planted[at..at + item.len()].copy_from_slice(item);
        count += 1;
    }
    (planted, count)
}

fn bench(c: &mut Criterion) {
    let n = 64 << 20;
    let data = random(n);
    let tiny = le_bytes(&[0xFFFF0200, 0x02000001, 0x800F0800, 0xA0E40000, 0x0000FFFF]);
    let (planted, count) = plant(&data, &tiny);
    assert_eq!(d3dbc::rip::scan(&planted).len(), count);
    let sm3 = le_bytes(&sm3::ps_3_0_with_table(64));
    assert!(sm3.len() > 3000, "{} bytes", sm3.len());
    let (planted_sm3, count) = plant(&data, &sm3);
    assert_eq!(d3dbc::rip::scan(&planted_sm3).len(), count);
    let mut g = c.benchmark_group("rip");
    g.sample_size(10);
    g.throughput(Throughput::Bytes(n as u64));
    g.bench_function("memchr_0xFF_64MiB", |b| {
        b.iter(|| memchr::memchr_iter(0xFF, black_box(&data)).count())
    });
    g.bench_function("random_64MiB", |b| {
        b.iter(|| d3dbc::rip::scan(black_box(&data)))
    });
    g.bench_function("planted_64MiB", |b| {
        b.iter(|| d3dbc::rip::scan(black_box(&planted)))
    });
    g.bench_function("planted_sm3_64MiB", |b| {
        b.iter(|| d3dbc::rip::scan(black_box(&planted_sm3)))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
