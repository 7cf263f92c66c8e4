//! Builds the C programs of `tests/c` twice: against MojoShader 6333f74 (its sources
//! from `cargo xtask peers --fetch-only`, compiled with `cc` as `d3dbc-peers` builds
//! them) and against `libd3dbc_mojoshader` with d3dbc's header
//! (`crates/d3dbc-capi/face/mojoshader.h`). Shared by the differential test and the
//! bench.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// MojoShader's sources, or `None` after `skipped` says why (never under `CI=true`).
pub fn mojoshader_dir(skipped: fn(&str)) -> Option<PathBuf> {
    let dir = std::env::var_os("D3DBC_MOJOSHADER_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace().join("target/peers/MojoShader"));
    if dir.join("mojoshader.c").is_file() {
        return Some(dir);
    }
    let ci = std::env::var("CI").is_ok_and(|v| v == "true" || v == "1");
    assert!(
        !ci,
        "MojoShader's sources not at {} (run cargo xtask peers --fetch-only); CI=true forbids skipping",
        dir.display()
    );
    skipped("MojoShader's sources absent (cargo xtask peers --fetch-only)");
    None
}

/// The directory holding the built `libd3dbc_mojoshader.so`.
pub fn lib_dir() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let deps = exe.parent().unwrap().to_path_buf();
    if deps.join("libd3dbc_mojoshader.so").is_file() {
        deps
    } else {
        deps.parent().unwrap().to_path_buf()
    }
}

fn cc() -> String {
    std::env::var("CC").unwrap_or_else(|_| "cc".into())
}

/// `tests/c/NAME.c` against MojoShader.
pub fn build_mojoshader(name: &str, src: &Path, out: &Path, opt: &str) -> PathBuf {
    let exe = out.join(format!("{name}_mojoshader"));
    let mut c = Command::new(cc());
    c.args([opt, "-w", "-std=gnu99"])
        .arg("-I")
        .arg(src)
        .args([
            "-DSUPPORT_PROFILE_HLSL=0",
            "-DSUPPORT_PROFILE_ARB1=0",
            "-DSUPPORT_PROFILE_ARB1_NV=0",
            "-DSUPPORT_PROFILE_METAL=0",
            "-DSUPPORT_PROFILE_GLSPIRV=0",
            "-DMOJOSHADER_EFFECT_SUPPORT",
        ])
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("tests/c/{name}.c")));
    for f in [
        "mojoshader.c",
        "mojoshader_common.c",
        "mojoshader_effects.c",
        "profiles/mojoshader_profile_common.c",
        "profiles/mojoshader_profile_spirv.c",
        "profiles/mojoshader_profile_d3d.c",
        "profiles/mojoshader_profile_bytecode.c",
        "profiles/mojoshader_profile_glsl.c",
    ] {
        c.arg(src.join(f));
    }
    let st = c.arg("-o").arg(&exe).arg("-lm").status().expect("cc");
    assert!(
        st.success(),
        "building parse_dump against MojoShader failed"
    );
    exe
}

/// `tests/c/NAME.c` against the face.
pub fn build_face(name: &str, out: &Path, opt: &str) -> PathBuf {
    let exe = out.join(format!("{name}_face"));
    let lib = lib_dir();
    assert!(
        lib.join("libd3dbc_mojoshader.so").is_file(),
        "libd3dbc_mojoshader.so not built"
    );
    let st = Command::new(cc())
        .args([opt, "-std=c99", "-Wall", "-Wextra", "-Werror", "-pedantic"])
        .arg("-I")
        .arg(workspace().join("crates/d3dbc-capi/face"))
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("tests/c/{name}.c")))
        .arg("-o")
        .arg(&exe)
        .arg("-L")
        .arg(&lib)
        .arg(format!("-Wl,-rpath,{}", lib.display()))
        .arg("-ld3dbc_mojoshader")
        .status()
        .expect("cc");
    assert!(st.success(), "building {name} against the face failed");
    exe
}
