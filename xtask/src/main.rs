//! Project tasks, run as `cargo xtask TASK` (the alias lives in `.cargo/config.toml`).
//!
//! - `cargo xtask web [--out DIR] [--dev]`: builds the playground page, a static site,
//!   into `target/web` (or `DIR`): `index.html`, `app.js`, `style.css`, the examples,
//!   and `pkg/` with the `d3dbc-web` WebAssembly module and its `wasm-bindgen` glue.
//!   Needs the `wasm32-unknown-unknown` target (`rustup target add
//!   wasm32-unknown-unknown`) and the `wasm-bindgen` CLI of the version in
//!   `Cargo.lock` (`cargo install wasm-bindgen-cli --version =VERSION`); it says so
//!   when either is missing. Serve the folder with any static server
//!   (`python3 -m http.server -d target/web`).
//! - `cargo xtask peers [--fetch-only] [-- BENCH ARGS]`: fetches MojoShader's sources
//!   (FNA3D's copy, in crates.io's `fna3d-sys` 0.1.8, checked against its SHA-256) into
//!   `target/peers/MojoShader`, then runs `cargo bench -p d3dbc-peers`, which measures
//!   d3dbc and MojoShader on the same binaries in the same run.
//! - `cargo xtask py [--dev] [--no-install]`, `cargo xtask npm [--dev]`: the Python
//!   wheel and the npm package (see `pkg.rs`).

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

mod pkg;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("web") => web(&args[1..]),
        Some("peers") => peers(&args[1..]),
        Some("py") => pkg::py(&root(), &args[1..]),
        Some("npm") => pkg::npm(&root(), &args[1..]),
        Some("-h" | "--help") | None => {
            println!("usage: cargo xtask web [--out DIR] [--dev]\n       cargo xtask peers [--fetch-only] [-- BENCH ARGS]\n       cargo xtask py [--dev] [--no-install]\n       cargo xtask npm [--dev]\n\n  web    build the playground page (default: target/web)\n  peers  fetch MojoShader and bench d3dbc beside it in one run\n  py     build the Python wheel into target/wheels (and install it into target/py/venv)\n  npm    build the npm package into target/npm and pack it (target/npm/d3dbc-VERSION.tgz)");
            return ExitCode::SUCCESS;
        }
        Some(other) => Err(format!(
            "unknown task `{other}` (tasks: web, peers, py, npm)"
        )),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("xtask: {e}");
            ExitCode::FAILURE
        }
    }
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask lives in the workspace root")
        .to_path_buf()
}

/// The version of `package` that `Cargo.lock` pins.
fn locked_version(root: &Path, package: &str) -> Result<String, String> {
    let lock =
        std::fs::read_to_string(root.join("Cargo.lock")).map_err(|e| format!("Cargo.lock: {e}"))?;
    let mut lines = lock.lines();
    while let Some(l) = lines.next() {
        if l.trim() == format!("name = \"{package}\"") {
            if let Some(v) = lines
                .next()
                .and_then(|v| v.trim().strip_prefix("version = "))
            {
                return Ok(v.trim_matches('"').to_string());
            }
        }
    }
    Err(format!("{package} is not in Cargo.lock"))
}

fn run(cmd: &mut Command) -> Result<(), String> {
    let shown = format!("{cmd:?}");
    let status = cmd.status().map_err(|e| format!("{shown}: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("{shown} failed ({status})"))
    }
}

fn web(args: &[String]) -> Result<(), String> {
    let root = root();
    let mut out = root.join("target/web");
    let mut dev = false;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--out" => out = PathBuf::from(it.next().ok_or("--out needs a folder")?),
            "--dev" => dev = true,
            other => return Err(format!("web: unknown argument `{other}`")),
        }
    }
    let wasm = build_wasm(&root, dev)?;

    let _ = std::fs::remove_dir_all(&out);
    std::fs::create_dir_all(out.join("pkg")).map_err(|e| format!("{}: {e}", out.display()))?;
    run(Command::new("wasm-bindgen")
        .args(["--target", "web", "--no-typescript", "--out-dir"])
        .arg(out.join("pkg"))
        .arg(&wasm))?;

    for f in ["index.html", "app.js", "style.css", "sw.js"] {
        std::fs::copy(root.join("web").join(f), out.join(f))
            .map_err(|e| format!("web/{f}: {e}"))?;
    }
    std::fs::write(out.join("examples.js"), examples_js(&root)?)
        .map_err(|e| format!("examples.js: {e}"))?;

    let bg = out.join("pkg/d3dbc_web_bg.wasm");
    let bytes = std::fs::read(&bg).map_err(|e| format!("{}: {e}", bg.display()))?;
    println!(
        "built {}: d3dbc_web_bg.wasm {} KiB ({} KiB gzip)",
        out.display(),
        bytes.len() / 1024,
        gzip_len(&bytes) / 1024
    );
    Ok(())
}

/// Builds `d3dbc-web` for `wasm32-unknown-unknown` (profile `web`, or `dev`) after
/// checking that the `wasm-bindgen` CLI is the version `Cargo.lock` pins (or its glue
/// breaks); returns the `.wasm` file. `cargo xtask web` and `cargo xtask npm` share it.
fn build_wasm(root: &Path, dev: bool) -> Result<PathBuf, String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());

    // The wasm-bindgen CLI must be the version the crate links, or its glue breaks.
    let want = locked_version(root, "wasm-bindgen")?;
    let have = Command::new("wasm-bindgen")
        .arg("--version")
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string());
    match &have {
        Some(v) if v.split_whitespace().nth(1) == Some(want.as_str()) => {}
        Some(v) => {
            return Err(format!(
                "{v} found, d3dbc-web needs wasm-bindgen {want}: \
                 cargo install wasm-bindgen-cli --version ={want}"
            ))
        }
        None => {
            return Err(format!(
                "the wasm-bindgen CLI is missing: cargo install wasm-bindgen-cli --version ={want}"
            ))
        }
    }

    let profile = if dev { "dev" } else { "web" };
    let mut build = Command::new(&cargo);
    build
        .current_dir(root)
        .args([
            "build",
            "-p",
            "d3dbc-web",
            "--lib",
            "--target",
            "wasm32-unknown-unknown",
        ])
        .args(["--profile", profile]);
    run(&mut build).map_err(|e| {
        format!("{e}\n(the wasm target may be missing: rustup target add wasm32-unknown-unknown)")
    })?;
    let dir = if dev { "debug" } else { "web" };
    let wasm = root.join(format!(
        "target/wasm32-unknown-unknown/{dir}/d3dbc_web.wasm"
    ));

    Ok(wasm)
}

/// The size of `bytes` gzip-compressed (what a web server sends).
fn gzip_len(bytes: &[u8]) -> usize {
    use std::io::Write;
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    let _ = e.write_all(bytes);
    e.finish().map(|v| v.len()).unwrap_or(0)
}

/// `examples.js`: the bundled examples (`examples/*.asm` as text, bytecode as hex) for
/// the page's picker.
fn examples_js(root: &Path) -> Result<String, String> {
    let dir = root.join("examples");
    let mut names: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    names.sort();
    let mut s = String::from(
        "// Generated by `cargo xtask web` from examples/.\nexport const EXAMPLES = [\n",
    );
    for p in names {
        let name = p
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        let bytes = std::fs::read(&p).map_err(|e| format!("{}: {e}", p.display()))?;
        let text = match p.extension().and_then(|e| e.to_str()) {
            Some("asm" | "txt" | "h" | "hex") => String::from_utf8_lossy(&bytes).into_owned(),
            Some("vso" | "pso" | "cso" | "bin") => bytes
                .chunks(4)
                .map(|c| {
                    let mut w = [0u8; 4];
                    w[..c.len()].copy_from_slice(c);
                    format!("0x{:08x}", u32::from_le_bytes(w))
                })
                .collect::<Vec<_>>()
                .chunks(4)
                .map(|l| l.join(", "))
                .collect::<Vec<_>>()
                .join(",\n"),
            _ => continue,
        };
        s.push_str(&format!(
            "  {{ name: {}, text: {} }},\n",
            js_string(&name),
            js_string(&text)
        ));
    }
    s.push_str("];\n");
    Ok(s)
}

fn js_string(s: &str) -> String {
    let mut o = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => o.push_str("\\\""),
            '\\' => o.push_str("\\\\"),
            '\n' => o.push_str("\\n"),
            '\r' => {}
            '<' => o.push_str("\\u003c"),
            c if (c as u32) < 0x20 => o.push_str(&format!("\\u{:04x}", c as u32)),
            c => o.push(c),
        }
    }
    o.push('"');
    o
}

/// The crate that carries the MojoShader sources the peer bench builds, and its
/// SHA-256 (crates.io's checksum of the `.crate` file).
const PEER_CRATE: &str = "fna3d-sys-0.1.8";
const PEER_SHA256: &str = "d5c556a3377b298018d510f58afa9e2d82e2b2abdc38b4d041f4313699a165ee";

fn peers(args: &[String]) -> Result<(), String> {
    let (ours, bench_args) = match args.iter().position(|a| a == "--") {
        Some(i) => (&args[..i], &args[i + 1..]),
        None => (args, &args[args.len()..]),
    };
    let mut fetch_only = false;
    for a in ours {
        match a.as_str() {
            "--fetch-only" => fetch_only = true,
            other => return Err(format!("peers: unknown argument `{other}`")),
        }
    }
    let root = root();
    let dest = root.join("target/peers");
    fetch_mojoshader(&dest)?;
    if fetch_only {
        return Ok(());
    }
    run(
        Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
            .current_dir(&root)
            .args(["bench", "-p", "d3dbc-peers", "--bench", "peers", "--"])
            .args(bench_args),
    )
}

/// Unpacks `FNA3D/MojoShader` of [`PEER_CRATE`] into `dest/MojoShader`, from cargo's
/// download cache when it holds the crate, else from static.crates.io (with `curl`).
fn fetch_mojoshader(dest: &Path) -> Result<(), String> {
    use sha2::Digest;
    let out = dest.join("MojoShader");
    if out.join("mojoshader.c").is_file() {
        return Ok(());
    }
    std::fs::create_dir_all(dest).map_err(|e| format!("{}: {e}", dest.display()))?;
    let file = format!("{PEER_CRATE}.crate");
    let cached = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cargo")))
        .and_then(|home| std::fs::read_dir(home.join("registry/cache")).ok())
        .into_iter()
        .flatten()
        .flatten()
        .map(|d| d.path().join(&file))
        .find(|p| p.is_file());
    let path = match cached {
        Some(p) => p,
        None => {
            let p = dest.join(&file);
            let (name, version) = PEER_CRATE.rsplit_once('-').expect("name-version");
            eprintln!("fetching {file} from static.crates.io");
            run(Command::new("curl")
                .args(["-fsSL", "-o"])
                .arg(&p)
                .arg(format!(
                    "https://static.crates.io/crates/{name}/{name}-{version}.crate"
                )))?;
            p
        }
    };
    let bytes = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let sum: String = sha2::Sha256::digest(&bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    if sum != PEER_SHA256 {
        return Err(format!(
            "{}: SHA-256 {sum}, expected {PEER_SHA256}",
            path.display()
        ));
    }
    let prefix = format!("{PEER_CRATE}/FNA3D/MojoShader/");
    let mut archive = tar::Archive::new(flate2::read::GzDecoder::new(&bytes[..]));
    let mut n = 0;
    for entry in archive.entries().map_err(|e| format!("{file}: {e}"))? {
        let mut entry = entry.map_err(|e| format!("{file}: {e}"))?;
        let name = entry
            .path()
            .map_err(|e| format!("{file}: {e}"))?
            .to_string_lossy()
            .into_owned();
        let Some(rel) = name.strip_prefix(&prefix) else {
            continue;
        };
        if rel.is_empty() || rel.split('/').any(|c| c == "..") {
            continue;
        }
        let target = out.join(rel);
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
        }
        if entry.header().entry_type().is_file() {
            entry
                .unpack(&target)
                .map_err(|e| format!("{}: {e}", target.display()))?;
            n += 1;
        }
    }
    if !out.join("mojoshader.c").is_file() {
        return Err(format!("{file} holds no {prefix}mojoshader.c"));
    }
    eprintln!("unpacked {n} MojoShader files into {}", out.display());
    Ok(())
}
