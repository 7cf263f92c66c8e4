//! Disassembly beside MojoShader, for profilers: `--ours-only N` runs N passes of
//! `d3dbc::print::print_tokens` (what `dis` runs) over the real binaries MojoShader
//! accepts, `--mojo-only N` N passes of MojoShader's `d3d` profile over the same ones;
//! under `valgrind --tool=callgrind` the two instruction counts compare the work each
//! side does independently of the machine's load (the peers bench's thread-CPU summary
//! measures time). `--time N` runs N passes of d3dbc alone and prints the best and
//! median pass in thread CPU time (for comparing two builds of the printer: run them in
//! turn, in the same minutes); with `--cold` an untimed MojoShader pass precedes each,
//! as in the peers bench, where each side starts with the other's data in the caches;
//! with `--mojo` MojoShader's passes are the timed ones. Without a flag it prints the set and the listing bytes.
//!
//! `cargo build --release -p d3dbc-peers --example dis_speed` (after
//! `cargo xtask peers --fetch-only`; reads `D3DBC_CORPUS`).

#[path = "../../d3dbc/benches/support/binaries.rs"]
mod binaries;
#[path = "../../d3dbc/benches/support/cpu_time.rs"]
mod cpu_time;

use std::hint::black_box;

use d3dbc_peers::mojoshader::{self, Profile};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let set: Vec<(Vec<u32>, Vec<u8>)> = binaries::load()
        .into_iter()
        .map(|(tokens, _)| {
            let bytes: Vec<u8> = tokens.iter().flat_map(|t| t.to_le_bytes()).collect();
            (tokens, bytes)
        })
        .filter(|(_, b)| !mojoshader::available() || mojoshader::parse(Profile::D3d, b).is_some())
        .collect();
    let passes = |flag: &str| {
        let i = args.iter().position(|a| a == flag)?;
        Some(
            args.get(i + 1)
                .and_then(|s| s.parse().ok())
                .unwrap_or(1usize),
        )
    };
    let mut text = String::new();
    // One pass of each side over the set.
    let ours = |text: &mut String| {
        for (t, _) in &set {
            text.clear();
            d3dbc::print::print_tokens(black_box(t), &Default::default(), text)
                .expect("MojoShader-accepted binaries disassemble");
            black_box(&text);
        }
    };
    let theirs = || {
        for (_, b) in &set {
            black_box(mojoshader::parse(Profile::D3d, black_box(b)));
        }
    };
    if let Some(n) = passes("--ours-only") {
        for _ in 0..n {
            ours(&mut text);
        }
    } else if let Some(n) = passes("--time") {
        // `--cold`: a MojoShader pass (untimed) before each, as the peers bench runs them.
        // `--mojo`: MojoShader's passes are the timed ones (and d3dbc's the cold ones).
        let cold = args.iter().any(|a| a == "--cold");
        let mojo = args.iter().any(|a| a == "--mojo");
        let mut times: Vec<_> = (0..n.max(1))
            .map(|_| {
                if cold && mojo {
                    ours(&mut text);
                } else if cold {
                    theirs();
                }
                let t = cpu_time::thread_cpu();
                if mojo {
                    theirs();
                } else {
                    ours(&mut text);
                }
                cpu_time::thread_cpu() - t
            })
            .collect();
        times.sort();
        println!(
            "{} passes: best {:.1} µs, median {:.1} µs a pass",
            times.len(),
            times[0].as_secs_f64() * 1e6,
            times[times.len() / 2].as_secs_f64() * 1e6
        );
    } else if let Some(n) = passes("--mojo-only") {
        for _ in 0..n {
            theirs();
        }
    } else {
        let mut listing = 0;
        for (t, _) in &set {
            text.clear();
            d3dbc::print::print_tokens(t, &Default::default(), &mut text).expect("disassembles");
            listing += text.len();
        }
        let bytes: usize = set.iter().map(|(_, b)| b.len()).sum();
        println!(
            "{} binaries, {bytes} bytes of bytecode, {listing} bytes of listing",
            set.len()
        );
    }
}
