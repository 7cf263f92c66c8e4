//! Every valid corpus shader translates to all five targets, under the default options
//! and under one more set of the option spread in rotation (`option_spread.rs`): naga's
//! validator accepts the module, `spirv-val --target-env vulkan1.0` every SPIR-V,
//! `glslangValidator` every GLSL, naga's WGSL front end and Tint every WGSL,
//! vkd3d-compiler (shader model 5.0, `-b dxbc-tpf`) every HLSL, and the MSL writer and
//! the HLSL writer's shader model 6.0 layout succeed (no Metal or DXC compiler runs
//! here; naga's validator is what checks the module behind the MSL). The external tools
//! run over files written to a temporary directory; under CI they are required,
//! elsewhere their absence skips visibly.

#[path = "../../d3dbc/tests/common/mod.rs"]
mod common;
#[path = "../../d3dbc/tests/common/option_spread.rs"]
mod option_spread;
mod support;

use std::collections::BTreeMap;
use std::path::Path;

use d3dbc::Severity;
use d3dbc::{asm, Shader};
use d3dbc_naga::TranslateOptions;
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

/// Every how many shaders the HLSL of the non-default option set also goes through
/// vkd3d-compiler, and every how many of the game listings' (Helix, Oblivion: 3,941
/// shaders in hand-edited variants of a few hundred) under the defaults (env
/// `D3DBC_VKD3D_STRIDE`, default 8; 1 compiles all of them). Every other corpus shader's
/// HLSL goes through it under the defaults. vkd3d-compiler takes 0.1-0.5 s a file and
/// minutes on a few; all of them would take CI half an hour.
fn vkd3d_stride() -> usize {
    std::env::var("D3DBC_VKD3D_STRIDE")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(8)
        .max(1)
}

#[test]
fn every_corpus_shader_translates_to_every_target() {
    let Some(shaders) = corpus() else {
        return;
    };
    let dir = std::env::temp_dir().join(format!("d3dbc-naga-corpus-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // Every shader under the defaults and under one more set of the option spread, in
    // rotation (`common/option_spread.rs`): each of the 7 other sets meets a seventh of
    // the corpus, every file's shaders included.
    let sets = option_spread::all();
    let jobs: Vec<(usize, usize)> = (0..shaders.len())
        .flat_map(|i| [(i, 0), (i, option_spread::rotation(i))])
        .collect();
    type Outcome = (usize, usize, Result<support::Files, String>);
    let results: Vec<Outcome> = jobs
        .par_iter()
        .enumerate()
        .map(|(n, &(i, o))| {
            let (_, label, s) = &shaders[i];
            let label = format!("{label} (options {o})");
            (i, o, one(&dir, n, &label, s, &sets[o]))
        })
        .collect();
    let mut per_file: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    let mut per_set = [(0usize, 0usize); option_spread::SETS];
    let mut failures = Vec::new();
    let (mut spv, mut glsl, mut wgsl, mut hlsl) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for (i, o, r) in results {
        let e = per_file.entry(shaders[i].0.as_str()).or_default();
        if o == 0 {
            e.0 += 1;
        }
        per_set[o].0 += 1;
        match r {
            Ok(f) => {
                if o == 0 {
                    e.1 += 1;
                }
                per_set[o].1 += 1;
                spv.push(f.spv);
                glsl.push(f.glsl);
                wgsl.push(f.wgsl);
                // vkd3d-compiler is slow on long shaders (seconds, in an optimiser pass
                // that grows exponentially with nested conditionals): every shader's HLSL
                // under the defaults, every `VKD3D_STRIDE`-th under its other set.
                let game = matches!(
                    shaders[i].0.as_str(),
                    "helix_asm.jsonl" | "oblivion_disasm.jsonl"
                );
                let stride = vkd3d_stride();
                let pick = match (o, game) {
                    (0, false) => true,
                    (0, true) | (_, false) => i % stride == 0,
                    (_, true) => i % (stride * 8) == 0,
                };
                if pick {
                    hlsl.push(f.hlsl);
                }
            }
            Err(m) => failures.push(m),
        }
    }
    for (f, (n, ok)) in &per_file {
        eprintln!(
            "{f}: {ok}/{n} valid shaders translate under the defaults (naga-validated, WGSL re-parsed, MSL, HLSL 5.0 and 6.0)"
        );
    }
    for (o, (n, ok)) in per_set.iter().enumerate() {
        eprintln!("option set {o}: {ok}/{n} translate");
    }
    for f in failures.iter().take(20) {
        eprintln!("FAIL {f}");
    }
    let mut tool_failures = Vec::new();
    if support::tool("spirv-val", "--version") {
        let bad = support::spirv_val(&spv);
        eprintln!(
            "spirv-val: {}/{} accepted",
            spv.len() - bad.len(),
            spv.len()
        );
        tool_failures.extend(bad);
    }
    if support::tool("glslangValidator", "--version") {
        let bad = support::glslang(&glsl);
        eprintln!(
            "glslangValidator: {} error lines over {} files",
            bad.len(),
            glsl.len()
        );
        tool_failures.extend(bad);
    }
    // Tint, the WGSL compiler of Chrome and Dawn: what WebGPU users run.
    if let Some(t) = support::tint_compiler() {
        let bad = support::tint(&t, &wgsl);
        eprintln!(
            "{}: {}/{} accepted",
            t.label(),
            wgsl.len() - bad.len(),
            wgsl.len()
        );
        tool_failures.extend(bad);
    }
    // The shader model 5 HLSL compiler: what a Direct3D 11 port compiles at run time.
    if let Some(v) = support::vkd3d_compiler() {
        let (n, bad, slow) = support::vkd3d(&v, &hlsl);
        eprintln!(
            "vkd3d-compiler (HLSL, shader model 5.0): {}/{n} distinct files accepted, {} \
             given up after {} s (every shader under the defaults, every {}th game listing; \
             every {}th under the spread)",
            n - bad.len() - slow.len(),
            slow.len(),
            support::VKD3D_TIMEOUT.as_secs(),
            vkd3d_stride(),
            vkd3d_stride()
        );
        for f in &slow {
            eprintln!("SLOW {f}");
        }
        // vkd3d-compiler's own slowness (its conditional folding walks shared
        // expression chains as trees), not a refusal: bounded, not failed.
        assert!(
            slow.len() * 20 <= n,
            "{} of {n} HLSL files took vkd3d-compiler over {} s",
            slow.len(),
            support::VKD3D_TIMEOUT.as_secs()
        );
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
        "{} of {} translations failed",
        failures.len(),
        jobs.len()
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
) -> Result<support::Files, String> {
    let e = support::emit(label, s, opts)?;
    Ok(support::write(dir, i, &e))
}
