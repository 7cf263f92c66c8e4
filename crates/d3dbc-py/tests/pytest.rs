//! Runs the Python suite (`tests/test_*.py`) under `cargo test`: pytest in the
//! environment `cargo xtask py` makes (`target/py/venv`, with the wheel installed),
//! against the `d3dbc` command of this build (`target/debug/d3dbc`) and the corpus
//! (`D3DBC_CORPUS`). Without the environment, the command or the corpus it says so and
//! skips; under `CI=true` it fails instead (`.ci/run` runs `cargo xtask py` first). An
//! installed module older than the binding's sources is a failure: rebuild it.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::SystemTime;

fn ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true" || v == "1")
}

fn skip_or_fail(why: &str) {
    assert!(!ci(), "{why}; CI=true forbids skipping");
    eprintln!("SKIPPED: {why}");
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The newest modification time of the files under `dirs`.
fn newest(dirs: &[PathBuf]) -> SystemTime {
    let mut t = SystemTime::UNIX_EPOCH;
    let mut stack: Vec<PathBuf> = dirs.to_vec();
    while let Some(p) = stack.pop() {
        let Ok(meta) = std::fs::metadata(&p) else {
            continue;
        };
        if meta.is_dir() {
            stack.extend(
                std::fs::read_dir(&p)
                    .into_iter()
                    .flatten()
                    .flatten()
                    .map(|e| e.path()),
            );
        } else if p
            .extension()
            .is_some_and(|e| e == "rs" || e == "py" || e == "pyi")
        {
            t = t.max(meta.modified().unwrap_or(SystemTime::UNIX_EPOCH));
        }
    }
    t
}

/// `target/debug` (or whichever profile directory runs this test).
fn profile_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("test executable");
    exe.parent()
        .and_then(Path::parent)
        .expect("target/PROFILE/deps")
        .to_path_buf()
}

#[test]
fn python_suite() {
    let root = root();
    let python = root.join("target/py/venv/bin/python");
    if !python.is_file() {
        return skip_or_fail(&format!(
            "{} is missing: run `cargo xtask py`",
            python.display()
        ));
    }
    let corpus = std::env::var_os("D3DBC_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("../shared/corpus"));
    if !corpus.join("README.md").is_file() {
        return skip_or_fail(&format!("corpus not found at {}", corpus.display()));
    }
    let cli = profile_dir().join("d3dbc");
    if !cli.is_file() {
        return skip_or_fail(&format!(
            "{} is not built: cargo build -p d3dbc-cli",
            cli.display()
        ));
    }
    let probe = Command::new(&python)
        .args([
            "-c",
            "import d3dbc._native as n, numpy, pytest; print(n.__file__)",
        ])
        .output()
        .expect("run the environment's python");
    if !probe.status.success() {
        return skip_or_fail(&format!(
            "the d3dbc module is not installed in target/py/venv ({}): run `cargo xtask py`",
            String::from_utf8_lossy(&probe.stderr).trim()
        ));
    }
    let module = PathBuf::from(String::from_utf8_lossy(&probe.stdout).trim());
    let built = std::fs::metadata(&module)
        .and_then(|m| m.modified())
        .unwrap_or(SystemTime::UNIX_EPOCH);
    let sources = newest(&[
        root.join("crates/d3dbc-py/src"),
        root.join("crates/d3dbc-py/python"),
        root.join("crates/d3dbc-bind/src"),
    ]);
    assert!(
        built >= sources,
        "{} is older than the binding's sources: rebuild it with `cargo xtask py`",
        module.display()
    );
    let status = Command::new(&python)
        .current_dir(&root)
        .args([
            "-m",
            "pytest",
            "crates/d3dbc-py/tests",
            "-q",
            "-p",
            "no:cacheprovider",
        ])
        .env("D3DBC_CLI", &cli)
        .env("D3DBC_CORPUS", &corpus)
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .status()
        .expect("run pytest");
    assert!(status.success(), "the Python suite failed (output above)");
}
