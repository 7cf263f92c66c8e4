//! `MOJOSHADER_effectCommitChanges` through the face against MojoShader's own, in the
//! same run and under the same C harness: `tests/c/effect_bench.c` built at `-O2` once
//! against MojoShader 6333f74 and once against `libd3dbc_mojoshader` (this build's
//! release library), over every corpus effect both compile (`wine_fx.jsonl`,
//! `fxc_effects.jsonl`) and FNA's stock effects when `D3DBC_FNA_EFFECTS` names their
//! folder. CommitChanges is what FNA3D calls before every draw of an effect pass: it
//! reruns the pass's preshaders and copies the parameters into the uniform registers.
//! Prints nanoseconds per SetRawValueHandle + CommitChanges (best of the rounds, the two
//! builds alternating, thread CPU time) and the ratio. Criterion cannot hold both
//! libraries in one process (they export the same symbols).
//!
//! `cargo xtask peers --fetch-only` first; `D3DBC_CORPUS` as for the tests.

#[path = "../tests/cbuild/mod.rs"]
mod cbuild;
#[path = "../../d3dbc/tests/common/mod.rs"]
mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

fn run(exe: &Path, arg: &str, list: &Path) -> Option<String> {
    let out = Command::new(exe)
        .env("LD_LIBRARY_PATH", cbuild::lib_dir())
        .arg(arg)
        .stdin(std::fs::File::open(list).unwrap())
        .output()
        .expect("run effect_bench");
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).into_owned())
}

/// The best figure and the calls per round of `exe` over `list`.
fn figure(exe: &Path, list: &Path) -> (f64, u64) {
    let out = run(exe, "10", list).unwrap_or_else(|| panic!("{} failed", exe.display()));
    let mut it = out.split_whitespace();
    let ns = it.next().and_then(|s| s.parse().ok()).expect("a time");
    let calls = it.next().and_then(|s| s.parse().ok()).expect("a count");
    (ns, calls)
}

fn main() {
    let Some(src) = cbuild::mojoshader_dir(common::skipped) else {
        return;
    };
    let out = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target/tmp/effect_bench");
    let _ = std::fs::remove_dir_all(&out);
    std::fs::create_dir_all(&out).unwrap();
    let mut files = Vec::new();
    for file in ["wine_fx.jsonl", "fxc_effects.jsonl"] {
        let Some(recs) = common::records(file) else {
            return;
        };
        for (i, r) in recs.iter().enumerate() {
            let p = out.join(format!("{file}.{i}.fxo"));
            let words = common::dwords(&r["dwords"]);
            std::fs::write(
                &p,
                words
                    .iter()
                    .flat_map(|w| w.to_le_bytes())
                    .collect::<Vec<u8>>(),
            )
            .unwrap();
            files.push(p);
        }
    }
    let mut fna = Vec::new();
    match std::env::var_os("D3DBC_FNA_EFFECTS") {
        Some(dir) => {
            fna = std::fs::read_dir(dir)
                .expect("D3DBC_FNA_EFFECTS is a folder")
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x.eq_ignore_ascii_case("fxb")))
                .collect();
            fna.sort();
        }
        None => common::skipped("D3DBC_FNA_EFFECTS is not set: corpus effects only"),
    }
    let mojo = cbuild::build_mojoshader("effect_bench", &src, &out, "-O2");
    let face = cbuild::build_face("effect_bench", &out, "-O2");
    for (what, set) in [("corpus effects", files), ("FNA's stock effects", fna)] {
        if set.is_empty() {
            continue;
        }
        let all: String = set.iter().map(|p| format!("{}\n", p.display())).collect();
        let all_path = out.join("all");
        std::fs::write(&all_path, &all).unwrap();
        // Both must compile it (MojoShader aborts on some corpus effects).
        let m_ok = run(&mojo, "check", &all_path).unwrap_or_default();
        let f_ok = run(&face, "check", &all_path).unwrap_or_default();
        let both: Vec<&str> = m_ok
            .lines()
            .zip(f_ok.lines())
            .zip(all.lines())
            .filter(|((m, f), _)| *m == "1" && *f == "1")
            .map(|(_, p)| p)
            .collect();
        let list = out.join("both");
        std::fs::write(&list, both.join("\n") + "\n").unwrap();
        let (mut m_best, mut f_best, mut calls) = (f64::MAX, f64::MAX, 0);
        for _ in 0..9 {
            let (m, c) = figure(&mojo, &list);
            let (f, _) = figure(&face, &list);
            m_best = m_best.min(m);
            f_best = f_best.min(f);
            calls = c;
        }
        println!(
            "MOJOSHADER_effectCommitChanges over {} {what} both compile ({calls} calls a round), same C harness:\n  MojoShader 6333f74  {m_best:>10.1} ns/call\n  libd3dbc_mojoshader {f_best:>10.1} ns/call\n  face speed-up       {:>10.2}x",
            both.len(),
            m_best / f_best
        );
    }
}
