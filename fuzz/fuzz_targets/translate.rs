//! Arbitrary bytes → decode → validate → translate → every back end. The first 4 bytes
//! choose the translation options (device semantics and pipeline state: the code paths
//! they select); the rest is the token stream. A validator-accepted shader must lower
//! to a module naga's validator accepts, and every back end (SPIR-V, WGSL, GLSL, MSL,
//! HLSL in both models) must write it: any error there is a translator bug, so it fails
//! the run. Every 256th shader model 5.0 HLSL also goes through vkd3d-compiler
//! (`-b dxbc-tpf`) when `D3DBC_VKD3D_COMPILER` names one, and must compile (a compile
//! still running after 20 s is given up on and counted on stderr).
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::sync::atomic::{AtomicUsize, Ordering};

mod common;

use d3dbc_naga::{HlslModel, Target};

static COUNT: AtomicUsize = AtomicUsize::new(0);

/// How long vkd3d-compiler may take on one file. Its constant folding takes minutes on
/// a few generated shaders (one ran for over 9 minutes and stalled a run); the corpus
/// test gives up after 30 s the same way and counts those files apart.
const VKD3D_LIMIT: std::time::Duration = std::time::Duration::from_secs(20);

/// Outputs given up on after [`VKD3D_LIMIT`].
static GIVEN_UP: AtomicUsize = AtomicUsize::new(0);

/// vkd3d-compiler over `hlsl` (shader model 5.0 for the stage): its failure message.
/// A run past [`VKD3D_LIMIT`] is killed and counts as neither.
fn vkd3d(compiler: &std::ffi::OsStr, hlsl: &str, vertex: bool) -> Result<(), String> {
    use std::process::{Command, Stdio};
    let f = std::env::temp_dir().join(format!("d3dbc-fuzz-hlsl-{}.hlsl", std::process::id()));
    std::fs::write(&f, hlsl).map_err(|e| e.to_string())?;
    let profile = if vertex { "vs_5_0" } else { "ps_5_0" };
    let mut child = Command::new(compiler)
        .args(["-x", "hlsl", "-b", "dxbc-tpf", "-e", "main", "-p", profile])
        .arg(&f)
        .args(["-o", "/dev/null"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| e.to_string())?;
    let start = std::time::Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().map_err(|e| e.to_string())? {
            break status;
        }
        if start.elapsed() > VKD3D_LIMIT {
            let _ = child.kill();
            let _ = child.wait();
            let n = GIVEN_UP.fetch_add(1, Ordering::Relaxed) + 1;
            eprintln!("vkd3d-compiler given up after {VKD3D_LIMIT:?} ({n} so far)");
            return Ok(());
        }
        std::thread::sleep(std::time::Duration::from_millis(1));
    };
    if status.success() {
        Ok(())
    } else {
        let mut err = String::new();
        if let Some(mut e) = child.stderr.take() {
            use std::io::Read as _;
            let _ = e.read_to_string(&mut err);
        }
        Err(format!("{status}: {err}\n{hlsl}"))
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((head, _, shader)) = common::valid_shader(data, 4) else {
        return;
    };
    let opts = common::translate_options([head[0], head[1], head[2], head[3]]);
    let t = match d3dbc_naga::translate(&shader, &opts) {
        Ok(t) => t,
        Err(e) => panic!(
            "valid shader did not translate: {e}\n{}",
            d3dbc::print::to_string(&shader)
        ),
    };
    for target in [
        Target::Spirv,
        Target::Wgsl,
        Target::Glsl,
        Target::Msl,
        Target::Hlsl,
    ] {
        if let Err(e) = t.emit(target) {
            panic!("{target}: {e}\n{}", d3dbc::print::to_string(&shader));
        }
    }
    if let Err(e) = t.hlsl_with(HlslModel::Sm6_0) {
        panic!("hlsl 6_0: {e}\n{}", d3dbc::print::to_string(&shader));
    }
    if COUNT.fetch_add(1, Ordering::Relaxed) % 256 == 0 {
        if let Some(c) = std::env::var_os("D3DBC_VKD3D_COMPILER") {
            // vkd3d-compiler 1.17 does not know the SV_ClipDistance system value (its
            // tpf.c semantic table): compiled with it spelt as a user semantic, as the
            // corpus test does, so that everything else is checked.
            let hlsl = t
                .hlsl()
                .expect("written above")
                .replace(" : SV_ClipDistance;", " : CLIPDISTANCE;");
            let vertex = shader.version.is_vertex();
            if let Err(e) = vkd3d(&c, &hlsl, vertex) {
                panic!(
                    "vkd3d-compiler rejects the HLSL: {e}\n{}",
                    d3dbc::print::to_string(&shader)
                );
            }
        }
    }
});
