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
//! - `cargo xtask peers [--fetch-only] [-- BENCH ARGS]`: unpacks MojoShader's sources
//!   (revision 6333f74, the one FNA3D builds against: `../shared/tools/
//!   mojoshader-6333f74.tar.xz` or `D3DBC_MOJOSHADER_TARBALL`, checked against its
//!   SHA-256) into `target/peers/MojoShader`, then runs `cargo bench -p d3dbc-peers`,
//!   which measures d3dbc and MojoShader on the same binaries in the same run.
//!   `--fetch-only` just unpacks. Nothing is downloaded.
//! - `cargo xtask capi --prefix DIR`: builds `crates/d3dbc-capi` in release and
//!   installs the C library: `DIR/lib/libd3dbc.so` and `libd3dbc.a`,
//!   `DIR/include/d3dbc.h`, and `DIR/lib/pkgconfig/d3dbc.pc` (`pkg-config --cflags
//!   --libs d3dbc`) with `d3dbc-static.pc` beside it (the static library and the
//!   system libraries it needs, as rustc reports them); and the MojoShader face,
//!   `libd3dbc_mojoshader.{so,a}`, `include/mojoshader.h`, `d3dbc-mojoshader.pc`.
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
        Some("capi") => capi(&args[1..]),
        Some("py") => pkg::py(&root(), &args[1..]),
        Some("npm") => pkg::npm(&root(), &args[1..]),
        Some("-h" | "--help") | None => {
            println!("usage: cargo xtask web [--out DIR] [--dev]\n       cargo xtask peers [--fetch-only] [-- BENCH ARGS]\n       cargo xtask capi --prefix DIR\n       cargo xtask py [--dev] [--no-install]\n       cargo xtask npm [--dev]\n\n  web    build the playground page (default: target/web)\n  peers  unpack MojoShader and bench d3dbc beside it in one run\n  capi   build and install the C library: DIR/lib, DIR/include, DIR/lib/pkgconfig/d3dbc.pc (and the MojoShader face)\n  py     build the Python wheel into target/wheels (and install it into target/py/venv)\n  npm    build the npm package into target/npm and pack it (target/npm/d3dbc-VERSION.tgz)");
            return ExitCode::SUCCESS;
        }
        Some(other) => Err(format!(
            "unknown task `{other}` (tasks: web, peers, capi, py, npm)"
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

/// MojoShader's sources (zlib licence): the revision FNA3D builds against, from the
/// project's shared tools beside the repository (`../shared/tools`, or the file
/// `D3DBC_MOJOSHADER_TARBALL` names), checked against its SHA-256.
const PEER_TARBALL: &str = "../shared/tools/mojoshader-6333f74.tar.xz";
const PEER_SHA256: &str = "3160660af8ee689ac2e4b6dd54ea3f8579a7b9ba6c6f1e37ffb12f1d33cdaf25";
/// What `mojoshader_version.h` says (MojoShader's CMake writes it from git: version
/// -1, changeset `git-<commit>`).
const PEER_CHANGESET: &str = "git-6333f74";

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
    unpack_mojoshader(&root, &dest)?;
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

/// Unpacks MojoShader's sources from [`PEER_TARBALL`] into `dest/MojoShader` (once:
/// a stamp file holds the tarball's SHA-256) and writes the `mojoshader_version.h` its
/// CMake build would.
fn unpack_mojoshader(root: &Path, dest: &Path) -> Result<(), String> {
    use sha2::Digest;
    let out = dest.join("MojoShader");
    let stamp = out.join(".d3dbc-sha256");
    if std::fs::read_to_string(&stamp).is_ok_and(|s| s.trim() == PEER_SHA256) {
        return Ok(());
    }
    let path = std::env::var_os("D3DBC_MOJOSHADER_TARBALL")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join(PEER_TARBALL));
    let bytes = std::fs::read(&path).map_err(|e| {
        format!(
            "{}: {e} (MojoShader's sources: the shared tools beside the repository, or \
             D3DBC_MOJOSHADER_TARBALL)",
            path.display()
        )
    })?;
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
    let mut tar_bytes = Vec::new();
    lzma_rs::xz_decompress(&mut &bytes[..], &mut tar_bytes)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let _ = std::fs::remove_dir_all(&out);
    let mut archive = tar::Archive::new(&tar_bytes[..]);
    let mut n = 0;
    for entry in archive
        .entries()
        .map_err(|e| format!("{}: {e}", path.display()))?
    {
        let mut entry = entry.map_err(|e| format!("{}: {e}", path.display()))?;
        let name = entry
            .path()
            .map_err(|e| format!("{}: {e}", path.display()))?
            .to_string_lossy()
            .into_owned();
        // `mojoshader-6333f74/…`: the top folder dropped.
        let Some((_, rel)) = name.split_once('/') else {
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
        return Err(format!("{} holds no mojoshader.c", path.display()));
    }
    std::fs::write(
        out.join("mojoshader_version.h"),
        format!(
            "/* Written by cargo xtask peers, as MojoShader's CMake build writes it. */\n\
             #ifndef _INCL_MOJOSHADER_VERSION_H_\n#define _INCL_MOJOSHADER_VERSION_H_\n\
             #define MOJOSHADER_VERSION -1\n#define MOJOSHADER_CHANGESET \"{PEER_CHANGESET}\"\n\
             #endif\n"
        ),
    )
    .map_err(|e| format!("{}: {e}", out.display()))?;
    std::fs::write(&stamp, PEER_SHA256).map_err(|e| format!("{}: {e}", stamp.display()))?;
    eprintln!("unpacked {n} MojoShader files into {}", out.display());
    Ok(())
}

/// The MojoShader face beside the C library: `lib/libd3dbc_mojoshader.{so,a}`,
/// `include/mojoshader.h` (d3dbc's declaration of MojoShader's API) and
/// `lib/pkgconfig/d3dbc-mojoshader.pc`.
fn install_mojoshader(root: &Path, prefix: &Path, static_libs: &str) -> Result<(), String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let st = Command::new(&cargo)
        .current_dir(root)
        .args(["build", "--release", "-p", "d3dbc-mojoshader", "--lib"])
        .status()
        .map_err(|e| format!("{cargo}: {e}"))?;
    if !st.success() {
        return Err("cargo build -p d3dbc-mojoshader failed".into());
    }
    let release = root.join("target/release");
    for (from, to) in [
        (
            release.join("libd3dbc_mojoshader.so"),
            prefix.join("lib/libd3dbc_mojoshader.so"),
        ),
        (
            release.join("libd3dbc_mojoshader.a"),
            prefix.join("lib/libd3dbc_mojoshader.a"),
        ),
        (
            root.join("crates/d3dbc-capi/face/mojoshader.h"),
            prefix.join("include/mojoshader.h"),
        ),
    ] {
        std::fs::copy(&from, &to)
            .map_err(|e| format!("{} → {}: {e}", from.display(), to.display()))?;
    }
    let pc = format!(
        "prefix={}\nlibdir=${{prefix}}/lib\nincludedir=${{prefix}}/include\n\n\
         Name: d3dbc-mojoshader\nDescription: MojoShader's parse API over d3dbc (link instead of -lmojoshader)\n\
         Version: {}\nLibs: -L${{libdir}} -ld3dbc_mojoshader\nLibs.private: {static_libs}\n\
         Cflags: -I${{includedir}}\n",
        prefix.display(),
        env!("CARGO_PKG_VERSION")
    );
    let path = prefix.join("lib/pkgconfig/d3dbc-mojoshader.pc");
    std::fs::write(&path, pc).map_err(|e| format!("{}: {e}", path.display()))?;
    println!(
        "installed the MojoShader face: lib/libd3dbc_mojoshader.{{so,a}}, include/mojoshader.h, \
         lib/pkgconfig/d3dbc-mojoshader.pc"
    );
    Ok(())
}

/// `cargo xtask capi --prefix DIR`: the C library, its header and its pkg-config file
/// (and the MojoShader face: [`install_mojoshader`]).
fn capi(args: &[String]) -> Result<(), String> {
    let mut prefix = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--prefix" => prefix = Some(PathBuf::from(it.next().ok_or("--prefix needs a folder")?)),
            other => {
                return Err(format!(
                    "capi: unknown argument `{other}` (usage: cargo xtask capi --prefix DIR)"
                ))
            }
        }
    }
    let prefix = prefix.ok_or("capi: --prefix DIR is required (where lib/ and include/ go)")?;
    let prefix = if prefix.is_absolute() {
        prefix
    } else {
        std::env::current_dir()
            .map_err(|e| e.to_string())?
            .join(prefix)
    };
    let root = root();
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    // `cargo rustc` builds the library (every crate type) and has rustc print the
    // system libraries a static link needs.
    let out = Command::new(&cargo)
        .current_dir(&root)
        .args([
            "rustc",
            "--release",
            "-p",
            "d3dbc-capi",
            "--lib",
            "--",
            "--print",
            "native-static-libs",
        ])
        .output()
        .map_err(|e| format!("{cargo}: {e}"))?;
    let stderr = String::from_utf8_lossy(&out.stderr);
    if !out.status.success() {
        return Err(format!("cargo rustc -p d3dbc-capi failed:\n{stderr}"));
    }
    // "note: native-static-libs: -lgcc_s -lutil ..." (absent when the crate was fresh:
    // then the usual Linux set).
    let static_libs = stderr
        .lines()
        .find_map(|l| l.split("native-static-libs: ").nth(1))
        .map(str::trim)
        .unwrap_or("-lgcc_s -lutil -lrt -lpthread -lm -ldl -lc")
        .to_string();
    let lib = prefix.join("lib");
    let include = prefix.join("include");
    let pc = lib.join("pkgconfig");
    for d in [&lib, &include, &pc] {
        std::fs::create_dir_all(d).map_err(|e| format!("{}: {e}", d.display()))?;
    }
    let release = root.join("target/release");
    let copy = |from: PathBuf, to: PathBuf| {
        std::fs::copy(&from, &to)
            .map(|_| ())
            .map_err(|e| format!("{} → {}: {e}", from.display(), to.display()))
    };
    copy(release.join("libd3dbc_capi.so"), lib.join("libd3dbc.so"))?;
    copy(release.join("libd3dbc_capi.a"), lib.join("libd3dbc.a"))?;
    copy(
        root.join("crates/d3dbc-capi/include/d3dbc.h"),
        include.join("d3dbc.h"),
    )?;
    let version = env!("CARGO_PKG_VERSION");
    let pc_text = format!(
        "prefix={}\nlibdir=${{prefix}}/lib\nincludedir=${{prefix}}/include\n\n\
         Name: d3dbc\nDescription: Direct3D 9 shader bytecode: translate, assemble, disassemble, \
         validate, reflect, effects\nVersion: {version}\nLibs: -L${{libdir}} -ld3dbc\n\
         Libs.private: {static_libs}\nCflags: -I${{includedir}}\n",
        prefix.display()
    );
    std::fs::write(pc.join("d3dbc.pc"), pc_text).map_err(|e| format!("{}: {e}", pc.display()))?;
    // The static library by name, for linkers that would take the shared one for
    // `-ld3dbc` (both sit in lib/).
    let static_pc = format!(
        "prefix={}\nlibdir=${{prefix}}/lib\nincludedir=${{prefix}}/include\n\n\
         Name: d3dbc-static\nDescription: d3dbc, linked statically\nVersion: {version}\n\
         Libs: ${{libdir}}/libd3dbc.a {static_libs}\nCflags: -I${{includedir}}\n",
        prefix.display()
    );
    std::fs::write(pc.join("d3dbc-static.pc"), static_pc)
        .map_err(|e| format!("{}: {e}", pc.display()))?;
    install_mojoshader(&root, &prefix, &static_libs)?;
    println!(
        "installed into {}: lib/libd3dbc.so, lib/libd3dbc.a, include/d3dbc.h, \
         lib/pkgconfig/d3dbc.pc (and d3dbc-static.pc)\n\
         link: cc app.c $(PKG_CONFIG_PATH={}/lib/pkgconfig pkg-config --cflags --libs d3dbc)",
        prefix.display(),
        prefix.display()
    );
    Ok(())
}
