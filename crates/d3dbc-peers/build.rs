//! Builds MojoShader (zlib licence, Ryan C. Gordon) from the sources that
//! `cargo xtask peers` unpacks into `target/peers/MojoShader` (revision 6333f74, from
//! the shared tools; or from `D3DBC_MOJOSHADER_DIR`), with the profiles the benches
//! compare (`spirv`, `d3d`, `glsl`, `bytecode`) and its effect runtime
//! (`MOJOSHADER_EFFECT_SUPPORT`). Without the sources the crate builds empty and the
//! benches measure d3dbc alone, saying so.

use std::path::PathBuf;

fn main() {
    println!("cargo::rustc-check-cfg=cfg(mojoshader)");
    println!("cargo::rerun-if-env-changed=D3DBC_MOJOSHADER_DIR");
    let dir = std::env::var_os("D3DBC_MOJOSHADER_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target/peers/MojoShader")
        });
    println!(
        "cargo::rerun-if-changed={}",
        dir.join("mojoshader.c").display()
    );
    if !dir.join("mojoshader.c").is_file() {
        return;
    }
    let mut build = cc::Build::new();
    build
        .include(&dir)
        .warnings(false)
        .flag_if_supported("-w")
        .opt_level(2)
        .define("SUPPORT_PROFILE_HLSL", "0")
        .define("SUPPORT_PROFILE_ARB1", "0")
        .define("SUPPORT_PROFILE_ARB1_NV", "0")
        .define("SUPPORT_PROFILE_METAL", "0")
        .define("SUPPORT_PROFILE_GLSPIRV", "0")
        .define("MOJOSHADER_EFFECT_SUPPORT", None)
        .file("c/mojoshader_shim.c");
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
        build.file(dir.join(f));
    }
    build.compile("mojoshader");
    println!("cargo::rustc-cfg=mojoshader");
}
