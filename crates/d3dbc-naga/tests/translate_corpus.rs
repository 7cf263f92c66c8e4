//! Every valid corpus shader translates to all five targets: naga's validator accepts
//! the module, `spirv-val --target-env vulkan1.0` every SPIR-V, `glslangValidator`
//! every GLSL, naga's WGSL front end re-parses every WGSL and Tint (the WGSL compiler of
//! Chrome and Dawn, what WebGPU users run) compiles it, and the MSL and HLSL writers
//! succeed. The external validators run in batches over files written to a temporary
//! directory; under CI they are required, elsewhere their absence skips visibly.

#[path = "../../d3dbc/tests/common/mod.rs"]
mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use d3dbc::diag::Severity;
use d3dbc::{asm, Shader};
use d3dbc_naga::{translate, Target, TranslateOptions};
use rayon::prelude::*;

fn valid(s: &Shader) -> bool {
    !d3dbc::validate::validate(s)
        .iter()
        .any(|f| f.severity == Severity::Error)
}

/// Every valid shader of the corpus: (file, label, shader).
fn corpus() -> Option<Vec<(String, String, Shader)>> {
    let mut out = Vec::new();
    let push_tokens = |file: &str, label: String, toks: Vec<u32>, out: &mut Vec<_>| {
        if let Ok(s) = Shader::decode(&toks) {
            if valid(&s) {
                out.push((file.to_string(), label, s));
            }
        }
    };
    for file in [
        "binaries.jsonl",
        "wine_d3d9_blobs.jsonl",
        "vkd3d_d3dbc.jsonl",
    ] {
        for r in common::records(file)? {
            push_tokens(
                file,
                common::label(&r),
                common::dwords(&r["dwords"]),
                &mut out,
            );
        }
    }
    for file in ["vkd3d_exec.jsonl", "wine_exec.jsonl"] {
        for r in common::records(file)? {
            for key in ["vs_dwords", "ps_dwords"] {
                if r[key].is_array() {
                    let l = format!("{} {key}", common::label(&r));
                    push_tokens(file, l, common::dwords(&r[key]), &mut out);
                }
            }
        }
    }
    let opts = asm::Options {
        file_name: "listing.asm".into(),
        ..Default::default()
    };
    for file in ["oblivion_disasm.jsonl", "helix_asm.jsonl"] {
        for r in common::records(file)? {
            if let Ok(s) = asm::assemble(r["text"].as_str().unwrap_or(""), &opts) {
                if valid(&s) {
                    out.push((file.to_string(), common::label(&r), s));
                }
            }
        }
    }
    Some(out)
}

/// Whether `name` runs; under `CI=true` a missing tool fails, with `install` as the hint.
fn tool(name: &str, install: &str) -> bool {
    let ok = Command::new(name).arg("--help").output().is_ok();
    if !ok {
        let ci = std::env::var("CI").is_ok_and(|v| v == "true" || v == "1");
        assert!(!ci, "{name} missing: CI=true requires it ({install})");
        eprintln!("SKIPPED: {name} not installed; its checks are skipped ({install})");
    }
    ok
}

/// Runs `program args FILE` on every file, several processes at a time; returns the
/// failures with the tool's messages.
fn per_file(program: &str, args: &[&str], files: &[PathBuf]) -> Vec<String> {
    files
        .par_iter()
        .filter_map(|f| {
            let o = Command::new(program)
                .args(args)
                .arg(f)
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

/// `spirv-val` on every file.
fn spirv_val(files: &[PathBuf]) -> Vec<String> {
    per_file("spirv-val", &["--target-env", "vulkan1.0"], files)
}

/// Tint (`tint --format wgsl -o /dev/null FILE`: parse, resolve, every WGSL
/// shader-creation check) on every file (about 5 ms a process).
fn tint(files: &[PathBuf]) -> Vec<String> {
    per_file("tint", &["--format", "wgsl", "-o", "/dev/null"], files)
}

/// Runs `glslangValidator` on batches of files; returns the failing files' messages.
fn glslang(files: &[PathBuf]) -> Vec<String> {
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

#[test]
fn every_corpus_shader_translates_to_every_target() {
    let Some(shaders) = corpus() else {
        return;
    };
    let dir = std::env::temp_dir().join(format!("d3dbc-naga-corpus-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let opts = TranslateOptions::default();
    type Outcome = (usize, Result<[PathBuf; 3], String>);
    let results: Vec<Outcome> = shaders
        .par_iter()
        .enumerate()
        .map(|(i, (_, label, s))| (i, one(&dir, i, label, s, &opts)))
        .collect();
    let mut per_file: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    let mut failures = Vec::new();
    let (mut spv, mut glsl, mut wgsl) = (Vec::new(), Vec::new(), Vec::new());
    for (i, r) in results {
        let e = per_file.entry(shaders[i].0.as_str()).or_default();
        e.0 += 1;
        match r {
            Ok([a, b, c]) => {
                e.1 += 1;
                spv.push(a);
                glsl.push(b);
                wgsl.push(c);
            }
            Err(m) => failures.push(m),
        }
    }
    for (f, (n, ok)) in &per_file {
        eprintln!(
            "{f}: {ok}/{n} valid shaders translate (naga-validated, WGSL re-parsed, MSL, HLSL)"
        );
    }
    for f in failures.iter().take(20) {
        eprintln!("FAIL {f}");
    }
    let mut tool_failures = Vec::new();
    if tool("spirv-val", "apt-get install spirv-tools") {
        let bad = spirv_val(&spv);
        eprintln!(
            "spirv-val: {}/{} accepted",
            spv.len() - bad.len(),
            spv.len()
        );
        tool_failures.extend(bad);
    }
    if tool("glslangValidator", "apt-get install glslang-tools") {
        let bad = glslang(&glsl);
        eprintln!(
            "glslangValidator: {} error lines over {} files",
            bad.len(),
            glsl.len()
        );
        tool_failures.extend(bad);
    }
    if tool(
        "tint",
        "build Dawn's `tint` executable (dawn.googlesource.com/dawn, target `tint`) and put it on PATH",
    ) {
        let bad = tint(&wgsl);
        eprintln!("tint: {}/{} accepted", wgsl.len() - bad.len(), wgsl.len());
        tool_failures.extend(bad);
    }
    for f in tool_failures.iter().take(20) {
        eprintln!("TOOL {f}");
    }
    let _ = std::fs::remove_dir_all(&dir);
    let total: usize = per_file.values().map(|v| v.0).sum();
    // The corpus holds at least these many valid shaders; a drop means the loader broke.
    assert!(total > 4000, "only {total} valid corpus shaders found");
    assert!(
        failures.is_empty(),
        "{} of {total} shaders failed",
        failures.len()
    );
    assert!(
        tool_failures.is_empty(),
        "{} external validator failures",
        tool_failures.len()
    );
}

fn one(
    dir: &Path,
    i: usize,
    label: &str,
    s: &Shader,
    opts: &TranslateOptions,
) -> Result<[PathBuf; 3], String> {
    let fail = |t: &str, e: &dyn std::fmt::Display| format!("{label} [{}] {t}: {e}", s.version);
    let t = translate(s, opts).map_err(|e| fail("translate", &e))?;
    let words = t.spirv().map_err(|e| fail("spirv", &e))?;
    let wgsl = t.wgsl().map_err(|e| fail("wgsl", &e))?;
    naga::front::wgsl::parse_str(&wgsl)
        .map_err(|e| fail("wgsl re-parse", &e.emit_to_string(&wgsl)))?;
    let glsl = t.glsl().map_err(|e| fail("glsl", &e))?;
    t.msl().map_err(|e| fail("msl", &e))?;
    t.hlsl().map_err(|e| fail("hlsl", &e))?;
    let spv_path = dir.join(format!("{i}.spv"));
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    std::fs::write(&spv_path, bytes).unwrap();
    let ext = Target::Glsl.extension(t.interface.stage);
    let glsl_path = dir.join(format!("{i}.{ext}"));
    std::fs::write(&glsl_path, glsl).unwrap();
    let wgsl_path = dir.join(format!("{i}.wgsl"));
    std::fs::write(&wgsl_path, wgsl).unwrap();
    Ok([spv_path, glsl_path, wgsl_path])
}
