//! The format crate's snapshot cases (`crates/d3dbc/tests/snapshots/*.hex`, hand-made
//! shaders covering every opcode, declaration, modifier and flow form) through the
//! lowering, with no corpus: every valid case translates to all five targets, naga's
//! validator accepts each module, naga's WGSL front end re-parses the WGSL, and, where
//! installed, `spirv-val`, `glslangValidator`, Tint (the binary, else inside
//! Chromium's WebGPU) and vkd3d-compiler (shader model 5.0; all required under
//! `CI=true`) accept the SPIR-V, GLSL, WGSL and HLSL.
//!
//! A few dozen cases ([`GOLDEN`]) also keep their outputs in `tests/out/{spv,wgsl,glsl,
//! msl,hlsl}/` (SPIR-V as hex words, 8 per line), compared byte for byte. After an
//! intended change, rewrite them with
//! `D3DBC_BLESS=1 cargo test -p d3dbc-naga --test translate_snapshots` and review the diff.

mod support;

use std::path::{Path, PathBuf};

use d3dbc::Severity;
use d3dbc::Shader;
use d3dbc_naga::TranslateOptions;
use rayon::prelude::*;

const SNAPSHOTS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../d3dbc/tests/snapshots");
const OUT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/out");

/// The cases whose translations are kept as golden files: declarations, flow control,
/// modifiers, arithmetic, and the ps_1_x texture instructions, both stages.
const GOLDEN: &[&str] = &[
    "dcl-ps_2_x-sampler-2d",
    "dcl-ps_3_0-sampler-cube",
    "dcl-ps_3_0-sampler-volume",
    "dcl-ps_3_0-vpos-vface",
    "dcl-vs_1_1-in-texcoord",
    "dcl-vs_3_0-out-psize",
    "dcl-vs_3_0-sampler-2d",
    "dcl-vs_3_0-split-output",
    "flow-ps_2_x-ifc",
    "flow-ps_2_x-predicate",
    "flow-ps_3_0-call",
    "flow-ps_3_0-loop",
    "flow-ps_3_0-rep",
    "flow-ps_3_0-texkill-in-if",
    "flow-vs_2_0-call",
    "flow-vs_2_0-loop",
    "flow-vs_3_0-nested",
    "mod-ps_1_1-src-negr1",
    "mod-ps_1_3-src-negr1-bias",
    "mod-ps_1_4-dst_x2_sat",
    "mod-ps_3_0-input-rel",
    "mod-vs_2_0-neg-swizzle",
    "op-ps_1_1-cnd",
    "op-ps_1_2-texkill",
    "op-ps_1_4-cmp",
    "op-ps_2_0-m3x4",
    "op-ps_2_0-nrm",
    "op-ps_2_0-sincos",
    "op-ps_3_0-dp2add",
    "op-vs_1_1-lit",
    "op-vs_1_1-m3x3",
    "op-vs_2_0-logp",
    "op-vs_2_x-setp",
    "op-vs_3_0-expp",
    "op-vs_3_0-mova",
    "tex-ps_1_1-texbem",
    "tex-ps_1_1-texm3x3spec",
    "tex-ps_1_1-texreg2ar",
    "tex-ps_1_3-texm3x3vspec",
    "tex-ps_1_4-texld-modifiers",
    "tex-ps_2_x-texldd",
    "tex-ps_3_0-texldl",
    "tex-vs_3_0-texldl",
];

/// Known translator defects these cases expose, as (case, check that fails). None now:
/// the WGSL that naga wrote for `rcp`/`rsq`/`log`/`nrm` of 0 (FLT_MAX as a decimal
/// literal past the f32 range, infinities as constant expressions) is fixed, and every
/// case passes Tint. The test fails when this list is wrong either way, so a fix
/// removes its entry.
const KNOWN: &[(&str, &str)] = &[];

/// Every snapshot case that assembled (`NAME.hex`) and that the validator accepts.
fn cases() -> Vec<(String, Shader)> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(SNAPSHOTS).expect("the snapshot cases") {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "hex") {
            continue;
        }
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(&path).unwrap();
        let tokens: Vec<u32> = text
            .split_whitespace()
            .map(|w| u32::from_str_radix(w, 16).expect("a hex DWORD"))
            .collect();
        let Ok(s) = Shader::decode(&tokens) else {
            continue;
        };
        let valid = !d3dbc::validate::validate(&s)
            .iter()
            .any(|f| f.severity == Severity::Error);
        if valid {
            out.push((name, s));
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

fn spv_hex(words: &[u32]) -> String {
    let mut s = String::new();
    for line in words.chunks(8) {
        let w: Vec<String> = line.iter().map(|t| format!("{t:08x}")).collect();
        s.push_str(&w.join(" "));
        s.push('\n');
    }
    s
}

/// Compares (or with `D3DBC_BLESS=1` writes) the golden outputs of one case; returns
/// the mismatching files.
fn golden(name: &str, e: &support::Emitted) -> Vec<String> {
    let bless = std::env::var("D3DBC_BLESS").is_ok_and(|v| v == "1");
    let glsl_ext = d3dbc_naga::Target::Glsl.extension(e.stage);
    let files: [(&str, String, String); 5] = [
        ("spv", format!("{name}.spv.hex"), spv_hex(&e.spv)),
        ("wgsl", format!("{name}.wgsl"), e.wgsl.clone()),
        ("glsl", format!("{name}.{glsl_ext}"), e.glsl.clone()),
        ("msl", format!("{name}.metal"), e.msl.clone()),
        ("hlsl", format!("{name}.hlsl"), e.hlsl.clone()),
    ];
    let mut bad = Vec::new();
    for (dir, file, text) in files {
        let path = Path::new(OUT).join(dir).join(&file);
        if bless {
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, &text).unwrap();
        } else if std::fs::read_to_string(&path).ok().as_deref() != Some(text.as_str()) {
            bad.push(format!("{dir}/{file}"));
        }
    }
    bad
}

#[test]
fn every_valid_snapshot_case_translates_to_every_target() {
    let cases = cases();
    // 556 of the 664 cases are valid today; a drop means the loader broke.
    assert!(
        cases.len() > 500,
        "only {} valid snapshot cases",
        cases.len()
    );
    for g in GOLDEN {
        assert!(
            cases.iter().any(|(n, _)| n == g),
            "golden case {g} is not a valid snapshot case"
        );
    }
    let dir = std::env::temp_dir().join(format!("d3dbc-naga-snapshots-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let opts = TranslateOptions::default();
    let results: Vec<(usize, Result<support::Emitted, String>)> = cases
        .par_iter()
        .enumerate()
        .map(|(i, (name, s))| (i, support::emit(name, s, &opts)))
        .collect();
    // (case, check, message)
    let mut failures: Vec<(String, &str, String)> = Vec::new();
    let mut mismatched = Vec::new();
    let (mut spv, mut glsl, mut wgsl): (Vec<PathBuf>, Vec<PathBuf>, Vec<PathBuf>) =
        Default::default();
    let mut hlsl = Vec::new();
    for (i, r) in results {
        let name = &cases[i].0;
        match r {
            Ok(e) => {
                if GOLDEN.contains(&name.as_str()) {
                    mismatched.extend(golden(name, &e));
                }
                let f = support::write(&dir, i, &e);
                spv.push(f.spv);
                glsl.push(f.glsl);
                wgsl.push(f.wgsl);
                hlsl.push(f.hlsl);
            }
            Err(m) => {
                let check = [
                    "wgsl re-parse",
                    "translate",
                    "spirv",
                    "wgsl",
                    "glsl",
                    "msl",
                    "hlsl",
                ]
                .into_iter()
                .find(|c| m.contains(&format!("] {c}:")))
                .unwrap_or("translate");
                failures.push((name.clone(), check, m));
            }
        }
    }
    eprintln!(
        "snapshot cases: {}/{} translate to every target (naga-validated, WGSL re-parsed)",
        cases.len() - failures.len(),
        cases.len()
    );
    // A validator's failure message starts with the file it read, `DIR/INDEX.EXT`.
    let case_of = |msg: &str| -> String {
        let file = msg.split(':').next().unwrap_or("");
        let stem = Path::new(file)
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or("");
        stem.parse::<usize>()
            .ok()
            .and_then(|i| cases.get(i))
            .map_or_else(|| msg.to_string(), |c| c.0.clone())
    };
    if support::tool("spirv-val", "--version") {
        let bad = support::spirv_val(&spv);
        eprintln!(
            "spirv-val: {}/{} accepted",
            spv.len() - bad.len(),
            spv.len()
        );
        failures.extend(bad.into_iter().map(|m| (case_of(&m), "spirv-val", m)));
    }
    if support::tool("glslangValidator", "--version") {
        let bad = support::glslang(&glsl);
        eprintln!(
            "glslangValidator: {} error lines over {} files",
            bad.len(),
            glsl.len()
        );
        failures.extend(bad.into_iter().map(|m| {
            // `ERROR: DIR/INDEX.EXT:LINE: …`
            let file = m.trim_start_matches("ERROR: ").to_string();
            (case_of(&file), "glslangValidator", m)
        }));
    }
    let tint = support::tint_compiler();
    if let Some(t) = &tint {
        let bad = support::tint(t, &wgsl);
        eprintln!(
            "{}: {}/{} accepted",
            t.label(),
            wgsl.len() - bad.len(),
            wgsl.len()
        );
        failures.extend(bad.into_iter().map(|m| (case_of(&m), "tint", m)));
    }
    let vkd3d = support::vkd3d_compiler();
    if let Some(v) = &vkd3d {
        let (n, mut bad, slow) = support::vkd3d(v, &hlsl);
        bad.extend(slow);
        eprintln!(
            "vkd3d-compiler (HLSL, shader model 5.0): {}/{n} distinct files accepted",
            n - bad.len()
        );
        failures.extend(bad.into_iter().map(|m| (case_of(&m), "vkd3d-compiler", m)));
    }
    let _ = std::fs::remove_dir_all(&dir);
    let unexpected: Vec<&(String, &str, String)> = failures
        .iter()
        .filter(|(c, k, _)| !KNOWN.contains(&(c.as_str(), *k)))
        .collect();
    for (c, k, m) in unexpected.iter().take(20) {
        eprintln!("FAIL {c} ({k}): {m}");
    }
    if !unexpected.is_empty() {
        let list: Vec<String> = unexpected
            .iter()
            .map(|(c, k, _)| format!("({c:?}, {k:?})"))
            .collect();
        eprintln!("unexpected failures: {}", list.join(", "));
    }
    // Known defects only count where their check ran.
    let ran = |k: &str| match k {
        "spirv-val" => support::tool("spirv-val", "--version"),
        "glslangValidator" => support::tool("glslangValidator", "--version"),
        "tint" => tint.is_some(),
        "vkd3d-compiler" => vkd3d.is_some(),
        _ => true,
    };
    let fixed: Vec<_> = KNOWN
        .iter()
        .filter(|(c, k)| ran(k) && !failures.iter().any(|f| f.0 == *c && f.1 == *k))
        .collect();
    assert!(
        unexpected.is_empty(),
        "{} unexpected failures",
        unexpected.len()
    );
    assert!(
        fixed.is_empty(),
        "known failures now pass, remove them from KNOWN: {fixed:?}"
    );
    assert!(
        mismatched.is_empty(),
        "golden outputs differ (D3DBC_BLESS=1 rewrites them): {}",
        mismatched.join(", ")
    );
}
