//! Shared by the translation tests: every target emitted for one shader (naga-validated,
//! WGSL re-parsed by naga's front end), written to files, and the ecosystem's own
//! validators and compilers (`spirv-val`, `glslangValidator`, `tint`, and
//! `vkd3d-compiler` as the shader model 5 HLSL compiler) run over them in batches. Under
//! CI they are required; elsewhere their absence skips visibly.
#![allow(dead_code)]

pub mod webgpu;

use std::path::{Path, PathBuf};
use std::process::Command;

use d3dbc::target::interface::Stage;
use d3dbc::Shader;
use d3dbc_naga::{translate, HlslModel, Target, TranslateOptions};
use rayon::prelude::*;

/// One shader's translations into every target.
pub struct Emitted {
    /// Vertex or fragment.
    pub stage: Stage,
    /// SPIR-V words.
    pub spv: Vec<u32>,
    /// WGSL.
    pub wgsl: String,
    /// GLSL 450.
    pub glsl: String,
    /// MSL.
    pub msl: String,
    /// HLSL, shader model 5.0 (static bindings).
    pub hlsl: String,
    /// HLSL, shader model 6.0 (naga's sampler-heap layout).
    pub hlsl6: String,
}

/// Translates `s` to every target; the error names the step and the shader (`label`).
pub fn emit(label: &str, s: &Shader, opts: &TranslateOptions) -> Result<Emitted, String> {
    let fail = |t: &str, e: &dyn std::fmt::Display| format!("{label} [{}] {t}: {e}", s.version);
    let t = translate(s, opts).map_err(|e| fail("translate", &e))?;
    let spv = t.spirv().map_err(|e| fail("spirv", &e))?;
    let wgsl = t.wgsl().map_err(|e| fail("wgsl", &e))?;
    naga::front::wgsl::parse_str(&wgsl)
        .map_err(|e| fail("wgsl re-parse", &e.emit_to_string(&wgsl)))?;
    let glsl = t.glsl().map_err(|e| fail("glsl", &e))?;
    let msl = t.msl().map_err(|e| fail("msl", &e))?;
    let hlsl = t.hlsl().map_err(|e| fail("hlsl", &e))?;
    let hlsl6 = t
        .hlsl_with(HlslModel::Sm6_0)
        .map_err(|e| fail("hlsl 6_0", &e))?;
    Ok(Emitted {
        stage: t.interface.stage,
        spv,
        wgsl,
        glsl,
        msl,
        hlsl,
        hlsl6,
    })
}

/// The files of one shader's translations, for the external validators.
pub struct Files {
    /// `i.spv`.
    pub spv: PathBuf,
    /// `i.vert` / `i.frag`.
    pub glsl: PathBuf,
    /// `i.wgsl`.
    pub wgsl: PathBuf,
    /// `i.hlsl` (shader model 5.0) and its stage.
    pub hlsl: (PathBuf, Stage),
}

/// Writes the SPIR-V, GLSL, WGSL and HLSL of `e` into `dir` as `i.*`.
pub fn write(dir: &Path, i: usize, e: &Emitted) -> Files {
    let spv = dir.join(format!("{i}.spv"));
    let bytes: Vec<u8> = e.spv.iter().flat_map(|w| w.to_le_bytes()).collect();
    std::fs::write(&spv, bytes).unwrap();
    let glsl = dir.join(format!("{i}.{}", Target::Glsl.extension(e.stage)));
    std::fs::write(&glsl, &e.glsl).unwrap();
    let wgsl = dir.join(format!("{i}.wgsl"));
    std::fs::write(&wgsl, &e.wgsl).unwrap();
    let hlsl = dir.join(format!("{i}.hlsl"));
    std::fs::write(&hlsl, &e.hlsl).unwrap();
    Files {
        spv,
        glsl,
        wgsl,
        hlsl: (hlsl, e.stage),
    }
}

/// Whether the validator `name` is installed (required under `CI=true`).
pub fn tool(name: &str, version_arg: &str) -> bool {
    let ok = Command::new(name).arg(version_arg).output().is_ok();
    if !ok {
        let ci = std::env::var("CI").is_ok_and(|v| v == "true" || v == "1");
        assert!(
            !ci,
            "{name} missing: CI=true requires it (apt-get install spirv-tools glslang-tools)"
        );
        skipped(&format!("{name} not installed; its checks are skipped"));
    }
    ok
}

/// Runs one validator process per file, several at a time; returns the failures.
fn per_file(files: &[PathBuf], program: &str, args: &[&str], after: &[&str]) -> Vec<String> {
    files
        .par_iter()
        .filter_map(|f| {
            let o = Command::new(program)
                .args(args)
                .arg(f)
                .args(after)
                .output()
                .unwrap_or_else(|e| panic!("{program} runs: {e}"));
            (!o.status.success()).then(|| {
                format!(
                    "{}: {}",
                    f.display(),
                    String::from_utf8_lossy(&o.stdout) + String::from_utf8_lossy(&o.stderr)
                )
            })
        })
        .collect()
}

/// Runs `spirv-val --target-env vulkan1.0` on every file; returns the failures.
pub fn spirv_val(files: &[PathBuf]) -> Vec<String> {
    per_file(files, "spirv-val", &["--target-env", "vulkan1.0"], &[])
}

/// Which Tint compiles WGSL here: the `tint` binary where one is on PATH, else the same
/// compiler inside Chromium's WebGPU ([`webgpu`]). `D3DBC_TINT=chromium` picks the
/// browser even where the binary exists.
#[derive(Clone, Debug)]
pub enum Tint {
    /// `tint --format wgsl FILE -o /dev/null`.
    Binary,
    /// `device.createShaderModule` + `getCompilationInfo()` in headless Chromium.
    Chromium(PathBuf),
}

impl Tint {
    /// How result lines name it.
    pub fn label(&self) -> &'static str {
        match self {
            Tint::Binary => "tint",
            Tint::Chromium(_) => "tint (chromium)",
        }
    }
}

/// The Tint to use, or `None` (skipped visibly) where neither is installed; under
/// `CI=true` one of them is required.
pub fn tint_compiler() -> Option<Tint> {
    let forced = std::env::var("D3DBC_TINT").is_ok_and(|v| v == "chromium");
    let binary = !forced && Command::new("tint").arg("--help").output().is_ok();
    let found = if binary {
        Some(Tint::Binary)
    } else {
        webgpu::chromium().map(Tint::Chromium)
    };
    if found.is_none() {
        let ci = std::env::var("CI").is_ok_and(|v| v == "true" || v == "1");
        assert!(
            !ci,
            "Tint missing: CI=true requires a `tint` binary or Chromium (apt-get install chromium)"
        );
        skipped("neither `tint` nor chromium installed; the Tint checks are skipped");
    }
    found
}

/// Runs Tint on every file; returns the failures.
pub fn tint(compiler: &Tint, files: &[PathBuf]) -> Vec<String> {
    match compiler {
        Tint::Binary => per_file(files, "tint", &["--format", "wgsl"], &["-o", "/dev/null"]),
        Tint::Chromium(browser) => webgpu::tint_in_chromium(browser, files)
            .unwrap_or_else(|e| panic!("Tint in Chromium could not run: {e}")),
    }
}

/// The shader model 5 HLSL compiler: vkd3d-compiler 1.17 from `D3DBC_VKD3D_COMPILER`,
/// else `target/tools/vkd3d/vkd3d-compiler` (where `.ci/run` builds it from
/// `../shared/tools`), else `vkd3d-compiler` on PATH. `None` (skipped visibly) where
/// there is none; under `CI=true` it is required.
pub fn vkd3d_compiler() -> Option<PathBuf> {
    let built =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/tools/vkd3d/vkd3d-compiler");
    let candidates = std::env::var_os("D3DBC_VKD3D_COMPILER")
        .map(PathBuf::from)
        .into_iter()
        .chain([built, PathBuf::from("vkd3d-compiler")]);
    for c in candidates {
        let runs = Command::new(&c)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success());
        if runs {
            return Some(c);
        }
    }
    let ci = std::env::var("CI").is_ok_and(|v| v == "true" || v == "1");
    assert!(
        !ci,
        "vkd3d-compiler missing: CI=true requires it (D3DBC_VKD3D_COMPILER, or \
         ../shared/tools/build-vkd3d-compiler.sh target/tools/vkd3d as .ci/run does)"
    );
    skipped("vkd3d-compiler not found (D3DBC_VKD3D_COMPILER, target/tools/vkd3d); the shader model 5 HLSL checks are skipped");
    None
}

/// The shader model 5.0 profile of a stage.
pub fn sm5_profile(stage: Stage) -> &'static str {
    match stage {
        Stage::Vertex => "vs_5_0",
        Stage::Fragment => "ps_5_0",
    }
}

/// How long one vkd3d-compiler run may take: vkd3d-compiler 1.17 simplifies nested
/// conditionals by walking their operands as trees, which is exponential in the depth
/// of a shared expression chain; most files take 0.1-0.5 s, a few minutes, and a run past
/// this is counted apart (the caller bounds how many) rather than a hung test.
pub const VKD3D_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(30);

/// The clip distances' system value. vkd3d-compiler 1.17 does not know it
/// (`sysval_semantic_from_hlsl` in `libs/vkd3d-shader/tpf.c` lists no `sv_clipdistance`
/// and refuses every unknown `SV_` name with E5013), though Direct3D 11 documents it for
/// a vertex shader's output and fxc compiles it; a file that writes it is compiled with
/// that one semantic spelt as a user semantic, so that everything else in it is checked.
const CLIP_DISTANCE: &str = " : SV_ClipDistance;";

/// Compiles every distinct HLSL file (by contents: identical translations compile
/// once) with vkd3d-compiler for shader model 5.0 (`-x hlsl -b dxbc-tpf -p
/// vs_5_0|ps_5_0 -e main`); returns the number compiled, the failures (a refusal or a
/// crash: the output must not make it fall over either) and the files it gave up on
/// after [`VKD3D_TIMEOUT`]. Clip distances: see [`CLIP_DISTANCE`].
pub fn vkd3d(compiler: &Path, files: &[(PathBuf, Stage)]) -> (usize, Vec<String>, Vec<String>) {
    let mut seen = std::collections::HashSet::new();
    let mut clipping = 0;
    let distinct: Vec<(PathBuf, Stage)> = files
        .iter()
        .filter_map(|(f, stage)| {
            let text = std::fs::read_to_string(f).unwrap_or_default();
            if !seen.insert((text.clone(), sm5_profile(*stage))) {
                return None;
            }
            if !text.contains(CLIP_DISTANCE) {
                return Some((f.clone(), *stage));
            }
            clipping += 1;
            let copy = f.with_extension("user-clip-semantic.hlsl");
            std::fs::write(&copy, text.replace(CLIP_DISTANCE, " : CLIPDISTANCE;"))
                .expect("HLSL copy written");
            Some((copy, *stage))
        })
        .collect();
    if clipping > 0 {
        eprintln!(
            "vkd3d-compiler: {clipping} files write SV_ClipDistance, which vkd3d-compiler 1.17 \
             does not know: compiled with it spelt CLIPDISTANCE"
        );
    }
    let outcomes: Vec<(bool, String)> = distinct
        .par_iter()
        .filter_map(|(f, stage)| {
            let mut child = Command::new(compiler)
                .args(["-x", "hlsl", "-b", "dxbc-tpf", "-e", "main", "-p"])
                .arg(sm5_profile(*stage))
                .arg(f)
                .args(["-o", "/dev/null"])
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap_or_else(|e| panic!("{} runs: {e}", compiler.display()));
            let start = std::time::Instant::now();
            let status = loop {
                if let Some(s) = child.try_wait().expect("vkd3d-compiler waits") {
                    break Some(s);
                }
                if start.elapsed() > VKD3D_TIMEOUT {
                    let _ = child.kill();
                    let _ = child.wait();
                    break None;
                }
                std::thread::sleep(std::time::Duration::from_millis(5));
            };
            let mut err = String::new();
            if let Some(mut e) = child.stderr.take() {
                use std::io::Read;
                let _ = e.read_to_string(&mut err);
            }
            match status {
                Some(s) if s.success() => None,
                Some(s) => Some((false, format!("{}: ({s}) {err}", f.display()))),
                None => Some((
                    true,
                    format!(
                        "{}: vkd3d-compiler took over {} s",
                        f.display(),
                        VKD3D_TIMEOUT.as_secs()
                    ),
                )),
            }
        })
        .collect();
    let (slow, failed): (Vec<_>, Vec<_>) = outcomes.into_iter().partition(|(s, _)| *s);
    (
        distinct.len(),
        failed.into_iter().map(|(_, m)| m).collect(),
        slow.into_iter().map(|(_, m)| m).collect(),
    )
}

/// Runs `glslangValidator` on batches of files; returns the failing files' messages.
pub fn glslang(files: &[PathBuf]) -> Vec<String> {
    files
        .par_chunks(150)
        .flat_map_iter(|chunk| {
            let o = Command::new("glslangValidator")
                .args(chunk)
                .output()
                .expect("glslangValidator runs");
            let text = String::from_utf8_lossy(&o.stdout).into_owned();
            if o.status.success() {
                return Vec::new();
            }
            text.lines()
                .filter(|l| l.contains("ERROR"))
                .map(str::to_string)
                .collect::<Vec<_>>()
        })
        .collect()
}

/// Says that part of the running test was skipped, where a reader of `cargo test` sees
/// it: straight to standard error, past the harness's capture of passing tests.
pub fn skipped(why: &str) {
    use std::io::Write;
    let test = std::thread::current()
        .name()
        .unwrap_or("a test")
        .to_string();
    let _ = writeln!(std::io::stderr().lock(), "SKIPPED {test}: {why}");
}
