//! `MOJOSHADER_parse("spirv", …)` through the face against MojoShader's own, in the
//! same run and under the same C harness: `tests/c/parse_bench.c` built at `-O2` once
//! against MojoShader 6333f74 and once against `libd3dbc_mojoshader` (this build's
//! release library), timed over every corpus shader MojoShader's SPIR-V profile
//! accepts (parse and free, best of the rounds, the two builds alternating). Prints
//! nanoseconds per shader for each and the ratio. The timing comes from the harness's
//! monotonic clock, not criterion's: criterion cannot hold both libraries in one process
//! (they export the same symbols).
//!
//! `cargo xtask peers --fetch-only` first; `D3DBC_CORPUS` as for the tests.

#[path = "../tests/cbuild/mod.rs"]
mod cbuild;
#[path = "../../d3dbc/tests/common/mod.rs"]
mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

fn run(exe: &Path, arg: &str, list: &Path) -> String {
    let out = Command::new(exe)
        .env("LD_LIBRARY_PATH", cbuild::lib_dir())
        .arg(arg)
        .stdin(std::fs::File::open(list).unwrap())
        .output()
        .expect("run parse_bench");
    assert!(out.status.success(), "{} failed", exe.display());
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn main() {
    let Some(src) = cbuild::mojoshader_dir(common::skipped) else {
        return;
    };
    let Some(streams) = common::all_streams() else {
        return;
    };
    let out = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target/tmp/mojoshader_bench");
    let _ = std::fs::remove_dir_all(&out);
    std::fs::create_dir_all(&out).unwrap();
    let mojo = cbuild::build_mojoshader("parse_bench", &src, &out, "-O2");
    let face = cbuild::build_face("parse_bench", &out, "-O2");
    let mut all = String::new();
    for (i, (_, _, tokens)) in streams.iter().enumerate() {
        let p = out.join(format!("s{i}.bin"));
        std::fs::write(
            &p,
            tokens
                .iter()
                .flat_map(|w| w.to_le_bytes())
                .collect::<Vec<u8>>(),
        )
        .unwrap();
        all.push_str(&format!("{}\n", p.display()));
    }
    let all_path = out.join("all");
    std::fs::write(&all_path, &all).unwrap();
    let accepted: Vec<&str> = run(&mojo, "check", &all_path)
        .lines()
        .zip(all.lines())
        .filter(|(ok, _)| *ok == "1")
        .map(|(_, p)| p)
        .collect();
    let list = out.join("accepted");
    std::fs::write(&list, accepted.join("\n") + "\n").unwrap();
    let (mut m_best, mut f_best) = (f64::MAX, f64::MAX);
    for _ in 0..15 {
        m_best = m_best.min(run(&mojo, "20", &list).trim().parse().unwrap());
        f_best = f_best.min(run(&face, "20", &list).trim().parse().unwrap());
    }
    // For reference: what `d3dbc-spirv` alone takes (decode and translate) on the same
    // shaders in this process (those with an end token), the floor under the face's
    // figure.
    let shaders: Vec<d3dbc::Shader> = accepted
        .iter()
        .filter_map(|p| d3dbc::Shader::decode_bytes(&std::fs::read(p).unwrap()).ok())
        .collect();
    let opts = Default::default();
    let mut t_best = f64::MAX;
    for _ in 0..15 {
        let t0 = std::time::Instant::now();
        for _ in 0..20 {
            for s in &shaders {
                std::hint::black_box(d3dbc_spirv::translate(std::hint::black_box(s), &opts).ok());
            }
        }
        t_best = t_best.min(t0.elapsed().as_nanos() as f64 / (20.0 * shaders.len() as f64));
    }
    println!(
        "MOJOSHADER_parse(\"spirv\") over {} corpus shaders MojoShader accepts, same C harness:\n  MojoShader 6333f74  {m_best:>10.1} ns/shader\n  libd3dbc_mojoshader {f_best:>10.1} ns/shader\n  face speed-up       {:>10.2}x\n  (d3dbc_spirv::translate alone, in Rust: {t_best:.1} ns/shader)",
        accepted.len(),
        m_best / f_best
    );
}
