//! SPIR-V translation speed and size over the 471 corpus binaries, d3dbc's direct
//! emitter beside MojoShader's `spirv` profile in the same run, in thread CPU time with
//! the two sides' passes interleaved (robust on a shared machine, where wall time
//! measures the neighbours).
//!
//! The inputs are every `dwords` of `binaries.jsonl`, `wine_d3d9_blobs.jsonl`,
//! `vkd3d_d3dbc.jsonl` and `fxc10_listings.jsonl` that holds a shader, as bytes, which is
//! the set the figures count (`crates/d3dbc-bind/benches/dis_corpus.rs` reads the
//! same). Each side translates every binary from its bytes each pass (d3dbc:
//! `d3dbc_spirv::emit_tokens`, which decodes straight into the scan, then emits; bytes
//! that do not decode count as attempts, as MojoShader's rejections do); the throughput
//! is MB/s of bytecode in.
//!
//! Prints: how many each side translates, SPIR-V words in total and per D3D9 instruction
//! (slot-taking instructions), the best and median pass of each side and their ratio.
//! With `--words FILE` it also writes `index words instructions` per binary (the input
//! to a per-shader comparison with another compiler). `--ours-only N` runs N passes of
//! d3dbc alone (for `valgrind --tool=callgrind`).
//!
//! `cargo run --release -p d3dbc-peers --example spirv_speed` (after
//! `cargo xtask peers --fetch-only`; reads `D3DBC_CORPUS`).

#[path = "../../d3dbc/benches/support/cpu_time.rs"]
mod cpu_time;
#[path = "../../d3dbc/benches/support/records.rs"]
mod records;

use std::hint::black_box;
use std::time::{Duration, Instant};

use cpu_time::thread_cpu;
use d3dbc::Shader;
use d3dbc_peers::mojoshader::{self, Profile};
use records::load;

#[inline(never)]
fn ours(tokens: &[u32], opts: &d3dbc_spirv::TranslateOptions) -> Option<usize> {
    d3dbc_spirv::emit_tokens(tokens, opts).ok().map(|w| w.len())
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let all = load();
    if all.is_empty() {
        eprintln!("corpus not found: nothing to measure");
        return;
    }
    let opts = d3dbc_spirv::TranslateOptions::default();
    if let Some(i) = args.iter().position(|a| a == "--probe") {
        probe(&all, args[i + 1].parse().expect("--probe START"));
        return;
    }
    for (flag, mojo_side) in [("--ours-only", false), ("--mojo-only", true)] {
        let Some(i) = args.iter().position(|a| a == flag) else {
            continue;
        };
        // The binaries both sides are timed on, as below.
        let crashes = if mojoshader::available() {
            crashers(all.len())
        } else {
            Vec::new()
        };
        let set: Vec<&Vec<u32>> = (0..all.len())
            .filter(|i| !crashes.contains(i))
            .map(|i| &all[i])
            .collect();
        let bytes: Vec<Vec<u8>> = set
            .iter()
            .map(|t| t.iter().flat_map(|w| w.to_le_bytes()).collect())
            .collect();
        let n: usize = args.get(i + 1).and_then(|s| s.parse().ok()).unwrap_or(1);
        for _ in 0..n {
            if mojo_side {
                for b in &bytes {
                    black_box(mojoshader::parse(Profile::Spirv, black_box(b)));
                }
            } else {
                for t in &set {
                    black_box(ours(black_box(t), &opts));
                }
            }
        }
        return;
    }
    let bytes: Vec<Vec<u8>> = all
        .iter()
        .map(|t| t.iter().flat_map(|w| w.to_le_bytes()).collect())
        .collect();
    let total_bytes: usize = bytes.iter().map(Vec::len).sum();
    let mut words = 0usize;
    let mut instrs = 0usize;
    let mut ok = 0usize;
    let mut table = String::new();
    for (i, t) in all.iter().enumerate() {
        let n = Shader::decode(t).map_or(0, |s| {
            s.instructions()
                .filter(|x| x.opcode.slots(s.version) > 0)
                .count()
        });
        match ours(t, &opts) {
            Some(w) => {
                ok += 1;
                words += w;
                instrs += n;
                table.push_str(&format!("{i} {w} {n}\n"));
            }
            None => table.push_str(&format!("{i} - {n}\n")),
        }
    }
    if let Some(i) = args.iter().position(|a| a == "--dump") {
        // `--dump N FILE`: record N's SPIR-V, for spirv-dis.
        let n: usize = args[i + 1].parse().expect("--dump N FILE");
        let s = Shader::decode(&all[n]).expect("decodes");
        let w = d3dbc_spirv::emit(&s, &opts).expect("emits");
        let bytes: Vec<u8> = w.iter().flat_map(|x| x.to_le_bytes()).collect();
        std::fs::write(&args[i + 2], bytes).expect("write --dump file");
        return;
    }
    if args.iter().any(|a| a == "--histogram") {
        histogram(&all, &opts);
    }
    if let Some(i) = args.iter().position(|a| a == "--words") {
        let path = args.get(i + 1).expect("--words FILE");
        std::fs::write(path, &table).expect("write --words file");
    }
    let mojo = mojoshader::available();
    let crashes = if mojo {
        crashers(all.len())
    } else {
        Vec::new()
    };
    let mojo_ok = bytes
        .iter()
        .enumerate()
        .filter(|(i, b)| !crashes.contains(i) && mojoshader::parse(Profile::Spirv, b).is_some())
        .count();
    // Both sides time the binaries MojoShader survives (it aborts on some: an
    // assertion, a null dereference without one); d3dbc's figure over all 471 follows.
    let timed: Vec<usize> = (0..all.len()).filter(|i| !crashes.contains(i)).collect();
    let timed_bytes: usize = timed.iter().map(|&i| bytes[i].len()).sum();
    eprintln!(
        "{} binaries ({total_bytes} bytes): d3dbc translates {ok}, MojoShader {} ({} abort it)",
        all.len(),
        if mojo {
            mojo_ok.to_string()
        } else {
            "not built".into()
        },
        crashes.len()
    );
    eprintln!(
        "d3dbc SPIR-V: {words} words ({} bytes), {:.2} words per D3D9 instruction ({instrs} instructions)",
        words * 4,
        words as f64 / instrs.max(1) as f64
    );
    let mut a = Vec::new();
    let mut b = Vec::new();
    let mut c = Vec::new();
    let start = Instant::now();
    while a.len() < 20 || start.elapsed() < Duration::from_secs(6) {
        let t = thread_cpu();
        for &i in &timed {
            black_box(ours(black_box(&all[i]), &opts));
        }
        a.push(thread_cpu() - t);
        if mojo {
            let t = thread_cpu();
            for &i in &timed {
                black_box(mojoshader::parse(Profile::Spirv, black_box(&bytes[i])));
            }
            b.push(thread_cpu() - t);
        }
        let t = thread_cpu();
        for tk in &all {
            black_box(ours(black_box(tk), &opts));
        }
        c.push(thread_cpu() - t);
    }
    a.sort();
    b.sort();
    c.sort();
    let mbs = |d: Duration| timed_bytes as f64 / d.as_secs_f64() / 1e6;
    eprintln!(
        "thread CPU time, {} interleaved passes over the {} binaries MojoShader survives ({timed_bytes} bytes):",
        a.len(),
        timed.len()
    );
    eprintln!(
        "  d3dbc decode+emit   best {:>7.1} MB/s  median {:>7.1} MB/s",
        mbs(a[0]),
        mbs(a[a.len() / 2])
    );
    if mojo {
        eprintln!(
            "  mojoshader spirv    best {:>7.1} MB/s  median {:>7.1} MB/s",
            mbs(b[0]),
            mbs(b[b.len() / 2])
        );
        eprintln!(
            "  ratio               best {:>7.2}x       median {:>7.2}x",
            b[0].as_secs_f64() / a[0].as_secs_f64(),
            b[b.len() / 2].as_secs_f64() / a[a.len() / 2].as_secs_f64()
        );
    }
    let all_mbs = |d: Duration| total_bytes as f64 / d.as_secs_f64() / 1e6;
    eprintln!(
        "  d3dbc, all {}       best {:>7.1} MB/s  median {:>7.1} MB/s",
        all.len(),
        all_mbs(c[0]),
        all_mbs(c[c.len() / 2])
    );
}

/// The binaries MojoShader aborts on: a child process (this program, `--probe START`)
/// parses from START on, printing each index before it starts; where it dies, the
/// parent notes the index and starts another after it.
fn crashers(n: usize) -> Vec<usize> {
    let exe = std::env::current_exe().expect("current_exe");
    let mut out = Vec::new();
    let mut start = 0;
    while start < n {
        let o = std::process::Command::new(&exe)
            .args(["--probe", &start.to_string()])
            .stderr(std::process::Stdio::null())
            .output()
            .expect("spawn probe");
        if o.status.success() {
            break;
        }
        let last = String::from_utf8_lossy(&o.stdout)
            .lines()
            .last()
            .and_then(|l| l.parse::<usize>().ok())
            .unwrap_or(start);
        out.push(last);
        start = last + 1;
    }
    out
}

fn probe(all: &[Vec<u32>], start: usize) {
    use std::io::Write;
    let mut so = std::io::stdout();
    for (i, t) in all.iter().enumerate().skip(start) {
        writeln!(so, "{i}").unwrap();
        so.flush().unwrap();
        let b: Vec<u8> = t.iter().flat_map(|w| w.to_le_bytes()).collect();
        black_box(mojoshader::parse(Profile::Spirv, &b));
    }
}

/// SPIR-V words by opcode over the corpus, largest first (where the words go).
fn histogram(all: &[Vec<u32>], opts: &d3dbc_spirv::TranslateOptions) {
    let mut by_op = std::collections::BTreeMap::<u32, (usize, usize)>::new();
    for t in all {
        let Ok(s) = Shader::decode(t) else { continue };
        let Ok(w) = d3dbc_spirv::emit(&s, opts) else {
            continue;
        };
        let mut i = 5;
        while i < w.len() {
            let n = (w[i] >> 16) as usize;
            let e = by_op.entry(w[i] & 0xffff).or_default();
            e.0 += 1;
            e.1 += n;
            i += n.max(1);
        }
    }
    let mut v: Vec<_> = by_op.into_iter().collect();
    v.sort_by_key(|e| std::cmp::Reverse(e.1 .1));
    for (op, (n, words)) in v {
        eprintln!("  op {op:>4}: {n:>7} instructions {words:>8} words");
    }
}
