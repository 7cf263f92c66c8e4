//! `cargo xtask py` and `cargo xtask npm`: the Python wheel and the npm package.
//!
//! - `py [--dev] [--no-install]`: makes the virtual environment `target/py/venv` (with
//!   `python3 -m venv`; `D3DBC_PYTHON` names another interpreter) holding the pinned
//!   maturin, pytest, numpy and mypy from PyPI, builds the abi3 wheel of `crates/d3dbc-py`
//!   with maturin (release profile; `--dev` for a quick debug build) into
//!   `target/wheels`, and installs it into that environment, where
//!   `crates/d3dbc-py/tests/pytest.rs` runs the Python suite.
//! - `npm [--dev]`: builds `d3dbc-web` for wasm32 (as `cargo xtask web` does), runs the
//!   pinned `wasm-bindgen` CLI (`--target web`) into `target/npm/d3dbc/wasm`, adds the
//!   package's own files (`crates/d3dbc-web/npm`: `api.js`, the Node and browser
//!   entries, `index.d.ts`, `package.json` with the workspace's version) and runs `npm
//!   pack` into `target/npm/d3dbc-VERSION.tgz`, which `crates/d3dbc-web/tests/npm.rs`
//!   installs offline and tests with `node --test`.

use std::path::{Path, PathBuf};
use std::process::Command;

use super::{build_wasm, run};

/// PyPI packages the environment holds, pinned.
const PY_PACKAGES: [&str; 4] = [
    "maturin==1.16.0",
    "pytest==9.2.0",
    "numpy==2.4.6",
    "mypy==2.4.1",
];

/// The environment's interpreter.
pub fn venv_python(root: &Path) -> PathBuf {
    root.join("target/py/venv/bin/python")
}

fn has_packages(python: &Path) -> bool {
    let check = "import importlib.metadata as m, sys; \
                 want = [p.split('==') for p in sys.argv[1:]]; \
                 sys.exit(any(m.version(n) != v for n, v in want))";
    Command::new(python)
        .args(["-c", check])
        .args(PY_PACKAGES)
        .output()
        .is_ok_and(|o| o.status.success())
}

/// `cargo xtask py`.
pub fn py(root: &Path, args: &[String]) -> Result<(), String> {
    let (mut dev, mut install) = (false, true);
    for a in args {
        match a.as_str() {
            "--dev" => dev = true,
            "--no-install" => install = false,
            other => {
                return Err(format!(
                    "py: unknown argument `{other}` (--dev, --no-install)"
                ))
            }
        }
    }
    let python = venv_python(root);
    if !python.is_file() {
        let base = std::env::var("D3DBC_PYTHON").unwrap_or_else(|_| "python3".into());
        run(Command::new(&base)
            .args(["-m", "venv"])
            .arg(root.join("target/py/venv")))
        .map_err(|e| format!("{e}\n(needs Python 3.8+ with venv: apt-get install python3-venv)"))?;
    }
    if !has_packages(&python) {
        run(Command::new(&python)
            .args(["-m", "pip", "install", "-q", "--disable-pip-version-check"])
            .args(PY_PACKAGES))?;
    }
    let wheels = root.join("target/wheels");
    if let Ok(dir) = std::fs::read_dir(&wheels) {
        for e in dir.flatten() {
            if e.file_name().to_string_lossy().starts_with("d3dbc-") {
                let _ = std::fs::remove_file(e.path());
            }
        }
    }
    let mut build = Command::new(python.with_file_name("maturin"));
    build
        .current_dir(root)
        .args(["build", "-m", "crates/d3dbc-py/Cargo.toml", "--out"])
        .arg(&wheels);
    if dev {
        build.args(["--profile", "dev"]);
    } else {
        build.arg("--release");
    }
    run(&mut build)?;
    let wheel = std::fs::read_dir(&wheels)
        .map_err(|e| format!("{}: {e}", wheels.display()))?
        .flatten()
        .map(|e| e.path())
        .find(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("d3dbc-"))
        })
        .ok_or("maturin wrote no d3dbc wheel")?;
    if install {
        run(Command::new(&python)
            .args([
                "-m",
                "pip",
                "install",
                "-q",
                "--disable-pip-version-check",
                "--force-reinstall",
                "--no-deps",
            ])
            .arg(&wheel))?;
    }
    let size = std::fs::metadata(&wheel).map(|m| m.len()).unwrap_or(0);
    println!(
        "built {} ({} KiB){}",
        wheel.display(),
        size / 1024,
        if install {
            format!(", installed into {}", root.join("target/py/venv").display())
        } else {
            String::new()
        }
    );
    Ok(())
}

/// The package's own files, from `crates/d3dbc-web/npm`.
const NPM_FILES: [&str; 6] = [
    "package.json",
    "index.js",
    "node.js",
    "api.js",
    "index.d.ts",
    "README.md",
];

/// `cargo xtask npm`.
pub fn npm(root: &Path, args: &[String]) -> Result<(), String> {
    let mut dev = false;
    for a in args {
        match a.as_str() {
            "--dev" => dev = true,
            other => return Err(format!("npm: unknown argument `{other}` (--dev)")),
        }
    }
    let wasm = build_wasm(root, dev)?;
    let top = root.join("target/npm");
    let out = top.join("d3dbc");
    let _ = std::fs::remove_dir_all(&out);
    std::fs::create_dir_all(out.join("wasm")).map_err(|e| format!("{}: {e}", out.display()))?;
    run(Command::new("wasm-bindgen")
        .args(["--target", "web", "--no-typescript", "--out-dir"])
        .arg(out.join("wasm"))
        .arg(&wasm))?;
    let src = root.join("crates/d3dbc-web/npm");
    for f in NPM_FILES {
        let text = std::fs::read_to_string(src.join(f))
            .map_err(|e| format!("crates/d3dbc-web/npm/{f}: {e}"))?;
        let text = if f == "package.json" {
            text.replacen(
                "\"version\": \"0.0.0\"",
                &format!("\"version\": \"{}\"", env!("CARGO_PKG_VERSION")),
                1,
            )
        } else {
            text
        };
        std::fs::write(out.join(f), text).map_err(|e| format!("{}: {e}", out.display()))?;
    }
    let tarball = top.join(format!("d3dbc-{}.tgz", env!("CARGO_PKG_VERSION")));
    let _ = std::fs::remove_file(&tarball);
    run(Command::new("npm")
        .current_dir(&out)
        .args(["pack", "--silent", "--pack-destination"])
        .arg(&top))
    .map_err(|e| format!("{e}\n(needs npm: apt-get install npm)"))?;
    let size = std::fs::metadata(&tarball)
        .map_err(|e| format!("{}: {e}", tarball.display()))?
        .len();
    println!("built {} ({} KiB)", tarball.display(), size / 1024);
    Ok(())
}
