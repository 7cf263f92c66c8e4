//! Replays an execution oracle (`vkd3d_exec.jsonl` or `wine_exec.jsonl`) on the GPU
//! through d3dbc-naga and wgpu: one line per failing probe, then
//! `probes: P passed, F failed` (the same arguments and last line as the CPU
//! executor's example).
//!
//! `cargo run --release -p d3dbc-gpu --example vkd3d_oracle_gpu -- FILE.jsonl [FILTER]`

use d3dbc_exec::oracle;

fn main() {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: vkd3d_oracle_gpu FILE.jsonl [SOURCE-FILTER]");
        std::process::exit(2);
    };
    let recs = match oracle::load(std::path::Path::new(&path)) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(2);
        }
    };
    let gpu = match d3dbc_gpu::Gpu::new() {
        Ok(g) => g,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    eprintln!("adapter: {}", gpu.adapter_name);
    let filter = std::env::args().nth(2).unwrap_or_default();
    let mut tally = d3dbc_exec::replay::ProbeTally::default();
    for rec in recs.iter().filter(|r| r.source.contains(&filter)) {
        tally.record(d3dbc_gpu::replay(&gpu, rec));
    }
    println!("{}", tally.summary());
}
