//! Replays an execution oracle (`vkd3d_exec.jsonl` or `wine_exec.jsonl`) on the CPU
//! executor: one line per failing probe, then `probes: P passed, F failed`.
//!
//! `cargo run --release -p d3dbc-exec --example vkd3d_oracle -- FILE.jsonl`

use d3dbc_exec::{oracle, render};

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
    let (mut pass, mut fail) = (0, 0);
    for rec in recs.iter().filter(|r| r.source.contains(&filter)) {
        for o in render::replay(rec, render::Options::default()) {
            match o.failure {
                None => pass += 1,
                Some(f) => {
                    fail += 1;
                    println!(
                        "FAIL {}: expected {:?} (channels from {}), {}",
                        o.probe.label,
                        o.probe.expect_f32(),
                        o.probe.first_channel,
                        f
                    );
                }
            }
        }
    }
    println!("probes: {pass} passed, {fail} failed");
}
