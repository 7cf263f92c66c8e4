//! Runs the npm package's suite (`npm/test/api.test.mjs`) under `cargo test`: installs
//! the tarball `cargo xtask npm` packed (`target/npm/d3dbc-VERSION.tgz`) offline into a
//! temporary folder, as a user would, and runs `node --test` there against the `d3dbc`
//! command of this build and the corpus. Without the tarball, Node 18+, the command or
//! the corpus it says so and skips; under `CI=true` it fails instead (`.ci/run` runs
//! `cargo xtask npm` first). A tarball older than the package's sources is a failure.

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
        } else if !p.components().any(|c| c.as_os_str() == "test") {
            t = t.max(meta.modified().unwrap_or(SystemTime::UNIX_EPOCH));
        }
    }
    t
}

fn node_major() -> Option<u32> {
    let out = Command::new("node").arg("--version").output().ok()?;
    let v = String::from_utf8_lossy(&out.stdout);
    v.trim()
        .trim_start_matches('v')
        .split('.')
        .next()?
        .parse()
        .ok()
}

#[test]
fn npm_package_suite() {
    let root = root();
    let tarball = root.join(format!(
        "target/npm/d3dbc-{}.tgz",
        env!("CARGO_PKG_VERSION")
    ));
    if !tarball.is_file() {
        return skip_or_fail(&format!(
            "{} is missing: run `cargo xtask npm`",
            tarball.display()
        ));
    }
    match node_major() {
        Some(v) if v >= 18 => {}
        other => return skip_or_fail(&format!("Node 18 or later is needed (found {other:?})")),
    }
    let corpus = std::env::var_os("D3DBC_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("../shared/corpus"));
    if !corpus.join("README.md").is_file() {
        return skip_or_fail(&format!("corpus not found at {}", corpus.display()));
    }
    let exe = std::env::current_exe().expect("test executable");
    let cli = exe
        .parent()
        .and_then(Path::parent)
        .expect("target/PROFILE/deps")
        .join("d3dbc");
    if !cli.is_file() {
        return skip_or_fail(&format!(
            "{} is not built: cargo build -p d3dbc-cli",
            cli.display()
        ));
    }
    let built = std::fs::metadata(&tarball)
        .and_then(|m| m.modified())
        .unwrap_or(SystemTime::UNIX_EPOCH);
    let sources = newest(&[
        root.join("crates/d3dbc-web/src"),
        root.join("crates/d3dbc-web/npm"),
        root.join("crates/d3dbc-bind/src"),
    ]);
    assert!(
        built >= sources,
        "{} is older than the package's sources: rebuild it with `cargo xtask npm`",
        tarball.display()
    );

    let dir = std::env::temp_dir().join(format!("d3dbc-npm-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("package.json"),
        r#"{"name": "d3dbc-npm-test", "private": true, "type": "module"}"#,
    )
    .unwrap();
    let status = Command::new("npm")
        .current_dir(&dir)
        .args([
            "install",
            "--offline",
            "--no-audit",
            "--no-fund",
            "--ignore-scripts",
            "--silent",
        ])
        .arg(&tarball)
        .status()
        .expect("run npm");
    assert!(
        status.success(),
        "npm install --offline {} failed",
        tarball.display()
    );
    let tests = root.join("crates/d3dbc-web/npm/test");
    std::fs::copy(tests.join("api.test.mjs"), dir.join("api.test.mjs")).unwrap();
    std::fs::copy(root.join("examples/tint.fxo"), dir.join("tint.fxo")).unwrap();
    let status = Command::new("node")
        .current_dir(&dir)
        .args(["--test", "api.test.mjs"])
        .env("D3DBC_CLI", &cli)
        .env("D3DBC_CORPUS", &corpus)
        .status()
        .expect("run node --test");
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        status.success(),
        "the npm package's suite failed (output above)"
    );
}
