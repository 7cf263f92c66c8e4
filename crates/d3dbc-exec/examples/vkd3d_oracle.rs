//! Replays an execution oracle (`vkd3d_exec.jsonl` or `wine_exec.jsonl`) on the CPU
//! executor: one line per failing probe, then `probes: P passed, F failed`.
//!
//! `cargo run --release -p d3dbc-exec --example vkd3d_oracle -- FILE.jsonl`

use d3dbc_exec::{oracle, render, replay};

fn main() {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: vkd3d_oracle FILE.jsonl");
        std::process::exit(2);
    };
    let recs = match oracle::load(std::path::Path::new(&path)) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(2);
        }
    };
    // Optional second argument: only records whose source contains it.
    let filter = std::env::args().nth(2).unwrap_or_default();
    let mut tally = d3dbc_exec::replay::ProbeTally::default();
    for rec in recs.iter().filter(|r| r.source.contains(&filter)) {
        tally.record(replay::replay(rec, render::Options::default()));
    }
    println!("{}", tally.summary());
}
