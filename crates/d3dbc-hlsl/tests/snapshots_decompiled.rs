//! The format crate's snapshot cases (`crates/d3dbc/tests/snapshots/*.hex`: hand-made
//! shaders covering every opcode, declaration, modifier and flow form), decompiled with
//! no corpus. Every valid case decompiles, and its HLSL is kept in
//! `tests/out/hlsl-decompiled/NAME.hlsl`, compared byte for byte, so that a readability
//! change shows in review. After an intended change rewrite them with
//! `D3DBC_BLESS=1 cargo test -p d3dbc-hlsl --test snapshots_decompiled` and review the
//! diff.
//!
//! Where vkd3d-compiler is found (required under `CI=true`), every case is also compiled
//! again and run beside the original on the executor; the cases listed in [`KNOWN`]
//! are the ones that cannot be, with the reason.

use std::path::Path;

use d3dbc::Severity;
use d3dbc::Shader;
use d3dbc_exec::equivalence::{self, Verdict};
use d3dbc_hlsl::Compiler;
use rayon::prelude::*;

const SNAPSHOTS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../d3dbc/tests/snapshots");
const OUT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/out/hlsl-decompiled");

/// Cases that do not recompile or compare, with the reason; the test fails when this
/// list is wrong either way, so a fix removes its entry.
const KNOWN: &[(&str, &str)] = &[
    (
        "dcl-vs_3_0-sampler-cube",
        "vkd3d-compiler 1.17 has no texCUBElod",
    ),
    (
        "dcl-vs_3_0-sampler-volume",
        "vkd3d-compiler 1.17 has no tex3Dlod",
    ),
    ("tex-ps_2_0-texld", "vkd3d-compiler 1.17 has no tex3Dbias"),
    ("tex-ps_2_x-texld", "vkd3d-compiler 1.17 has no tex3Dbias"),
    ("tex-ps_3_0-texld", "vkd3d-compiler 1.17 has no tex3Dbias"),
];

/// Every snapshot case that the validator accepts.
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

fn compiler() -> Option<Compiler> {
    let built =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/tools/vkd3d/vkd3d-compiler");
    Compiler::find(None).or_else(|| built.is_file().then(|| Compiler::new(built)))
}

#[test]
fn every_valid_snapshot_case_decompiles_to_its_golden_hlsl() {
    let cases = cases();
    assert!(
        cases.len() > 500,
        "only {} valid snapshot cases",
        cases.len()
    );
    let bless = std::env::var("D3DBC_BLESS").is_ok_and(|v| v == "1");
    if bless {
        let _ = std::fs::remove_dir_all(OUT);
        std::fs::create_dir_all(OUT).unwrap();
    }
    let mut failed = Vec::new();
    let mut mismatched = Vec::new();
    for (name, s) in &cases {
        let hlsl = match d3dbc_hlsl::decompile(s) {
            Ok(d) => d.hlsl,
            Err(e) => {
                failed.push(format!("{name}: {e}"));
                continue;
            }
        };
        let path = Path::new(OUT).join(format!("{name}.hlsl"));
        if bless {
            std::fs::write(&path, &hlsl).unwrap();
        } else if std::fs::read_to_string(&path).ok().as_deref() != Some(hlsl.as_str()) {
            mismatched.push(name.clone());
        }
    }
    for f in &failed {
        eprintln!("FAIL {f}");
    }
    assert!(
        failed.is_empty(),
        "{} cases did not decompile",
        failed.len()
    );
    assert!(
        mismatched.is_empty(),
        "{} goldens differ (D3DBC_BLESS=1 rewrites them): {}",
        mismatched.len(),
        mismatched.join(", ")
    );
}

#[test]
fn every_valid_snapshot_case_recompiles_and_computes_the_same() {
    let Some(c) = compiler() else {
        let ci = std::env::var("CI").is_ok_and(|v| v == "true" || v == "1");
        assert!(!ci, "vkd3d-compiler not found; CI=true requires it");
        eprintln!("SKIPPED: vkd3d-compiler not found (PATH, D3DBC_VKD3D_COMPILER)");
        return;
    };
    let cases = cases();
    let results: Vec<(String, Option<String>)> = cases
        .par_iter()
        .map(|(name, s)| {
            let why = match d3dbc_hlsl::recompile(s, &c) {
                Err(e) => Some(e.to_string().lines().next().unwrap_or("").to_string()),
                Ok(r) => match equivalence::check(s, &r.shader, &Default::default()) {
                    Ok(Verdict::Equivalent { .. }) => None,
                    Ok(Verdict::Differs(d)) => Some(format!("differs: {d}")),
                    Err(e) => Some(format!("cannot compare: {e}")),
                },
            };
            (name.clone(), why)
        })
        .collect();
    let mut unexpected = Vec::new();
    let mut fixed = Vec::new();
    for (name, why) in &results {
        let known = KNOWN.iter().find(|k| k.0 == name);
        match (why, known) {
            (Some(w), None) => unexpected.push(format!("{name}: {w}")),
            (None, Some(_)) => fixed.push(name.clone()),
            _ => {}
        }
    }
    let ok = results.iter().filter(|r| r.1.is_none()).count();
    eprintln!(
        "{ok}/{} snapshot cases recompile and compute the same",
        results.len()
    );
    for u in &unexpected {
        eprintln!("FAIL {u}");
    }
    assert!(unexpected.is_empty(), "{} cases fail", unexpected.len());
    assert!(
        fixed.is_empty(),
        "fixed, remove from KNOWN: {}",
        fixed.join(", ")
    );
}
