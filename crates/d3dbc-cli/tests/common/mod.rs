//! Helpers shared by the CLI tests: run the built binary with stdin fed from a thread
//! (so big inputs and outputs cannot deadlock), example paths, scratch directories, a
//! runtime-invalid shader.
#![allow(dead_code)]

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// The built `d3dbc` binary.
pub fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_d3dbc"))
}

/// A file of `examples/`.
pub fn example(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples")
        .join(name)
}

/// Runs `d3dbc args` in `dir` (or here) with `stdin`, collecting its output.
pub fn run_in(dir: Option<&Path>, args: &[&str], stdin: Option<&[u8]>) -> Output {
    let mut c = bin();
    c.args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if let Some(d) = dir {
        c.current_dir(d);
    }
    let mut child = c.spawn().unwrap();
    let mut sin = child.stdin.take().unwrap();
    let data = stdin.map(<[u8]>::to_vec);
    let feeder = std::thread::spawn(move || {
        if let Some(d) = data {
            let _ = sin.write_all(&d);
        }
    });
    let out = child.wait_with_output().unwrap();
    feeder.join().unwrap();
    out
}

/// Runs `d3dbc args` here with `stdin`.
pub fn run(args: &[&str], stdin: Option<&[u8]>) -> Output {
    run_in(None, args, stdin)
}

/// Lossy text of an output stream.
pub fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// A fresh scratch directory for one test.
pub fn tmpdir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("d3dbc-cli-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// `unwritten.pso` in `dir`: a `ps_2_0` writing `oC0` from `r5`, which nothing wrote
/// (runtime-invalid, E0204), assembled with `--no-validate` as a tool that skips
/// validation would. Returns its path.
pub fn invalid_pso(dir: &Path) -> String {
    let src = dir.join("unwritten.asm");
    std::fs::write(&src, "ps_2_0\nmov oC0, r5\n").unwrap();
    let out = dir.join("unwritten.pso");
    let a = run(
        &[
            "asm",
            "--no-validate",
            src.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
        ],
        None,
    );
    assert!(a.status.success(), "{}", text(&a.stderr));
    out.to_str().unwrap().to_string()
}

/// Runs with stdout piped, reads one line, closes the pipe; returns (status, stderr).
pub fn close_after_first_line(args: &[&str]) -> (Option<i32>, String) {
    let mut child = bin()
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut out = child.stdout.take().unwrap();
    let mut first = [0u8; 64];
    let _ = out.read(&mut first).unwrap();
    drop(out);
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    (child.wait().unwrap().code(), err)
}
