//! Validator conformance: every shader the D3D9 runtime accepts in the corpus validates
//! clean; the shaders Wine's `test_unsupported_shaders` shows the runtime rejecting are
//! rejected with the right rule; single-rule mutations of valid shaders are caught; and
//! `docs/validation.md` lists every rule.

mod common;

use d3dbc::diag::Severity;
use d3dbc::validate::{validate, Finding};
use d3dbc::Shader;

/// Shaders in Wine's d3d9 `test_unsupported_shaders` that native D3D9 rejects with
/// `D3DERR_INVALIDCALL` (the test's own expectations), with the rule that catches each.
fn runtime_rejects(function: &str, name: &str) -> Option<&'static str> {
    if function != "test_unsupported_shaders" {
        return None;
    }
    Some(match name {
        // c256 in vs_1_1/vs_3_0: rejected on the hardware-vertex-processing device the
        // test creates (a warning here: software vertex processing exposes 8192).
        "vs_1_256" | "vs_3_256" => "E0208",
        // i16, b16, c8 in ps_1_1, c32 in ps_2_0, c224 in ps_3_0.
        "vs_3_i16" | "vs_3_b16" | "ps_1_8" | "ps_2_32" | "ps_3_224" => "E0203",
        // defb/defi/rep/if are ps_2_x instructions.
        "ps_2_0_boolint" => "E0101",
        _ => return None,
    })
}

/// Streams in the corpus that were never created through the D3D9 runtime and break a
/// documented rule: assembler tests (`D3DAssemble` does not run the runtime validator),
/// a disassembler test and a parser torture test. Keyed by `source`; the codes each must
/// produce (and no others).
fn not_runtime_valid(source: &str) -> Option<&'static [&'static str]> {
    // mojoshader's parser test file: reads uninitialised temps.
    if source == "icculus/mojoshader:tests/1.vsa" {
        return Some(&["E0204"]);
    }
    let (file, line) = source.rsplit_once(':')?;
    let line: u32 = line.parse().ok()?;
    let file = file.rsplit_once(':').map(|(_, f)| f).unwrap_or(file);
    // vkd3d's D3DDisassemble test: vs_3_0 v0/o0 used without dcl.
    if file == "tests/hlsl_d3d12.c" && line == 3455 {
        return Some(&["E0401"]);
    }
    WINE_ASM
        .iter()
        .find(|(f, l, _)| *f == file && *l == line)
        .map(|x| x.2)
}

/// Wine assembler tests whose `expected` tokens break a documented runtime rule. Each
/// line: (file, line, codes). `E0204`: temp read before written (Temporary Register
/// pages); `E0401`: undeclared input/texture/sampler; `E0305`: missing replicate
/// swizzle; `E0306`: write mask (crs, sincos, bem); `E0203`: index out of range
/// (l2047 with 16 labels, o12, v20, v12); `E0207`: aL outside a loop; `E0704`: ps_1_4
/// dependent read in phase 1; `E0104`: wrong operand type; `E0303`: ps_1_4-only shifts
/// in ps_1_1-1_3 or shifts on texture instructions; `E0302`: `_sat` on texcrd; `E0301`:
/// `_x2` source modifier outside ps_1_4; `E0603`: texreg2ar t0, t1; `E0404`: `dcl s2`
/// without texture type; `E0506`: call to an undefined label.
const WINE_ASM: &[(&str, u32, &[&str])] = &[
    ("dlls/d3dcompiler_43/tests/asm.c", 89, &["E0204"]), // vs_1_1
    ("dlls/d3dcompiler_43/tests/asm.c", 116, &["E0204"]), // ps_1_1
    ("dlls/d3dcompiler_43/tests/asm.c", 124, &["E0204", "E0303"]), // ps_1_1
    ("dlls/d3dcompiler_43/tests/asm.c", 143, &["E0204"]), // vs_1_1
    ("dlls/d3dcompiler_43/tests/asm.c", 216, &["E0204"]), // vs_1_1
    ("dlls/d3dcompiler_43/tests/asm.c", 221, &["E0204"]), // vs_1_1
    ("dlls/d3dcompiler_43/tests/asm.c", 286, &["E0204"]), // ps_1_3
    ("dlls/d3dcompiler_43/tests/asm.c", 291, &["E0204"]), // ps_1_3
    ("dlls/d3dcompiler_43/tests/asm.c", 334, &["E0204"]), // ps_1_3
    ("dlls/d3dcompiler_43/tests/asm.c", 340, &["E0204"]), // ps_1_3
    ("dlls/d3dcompiler_43/tests/asm.c", 441, &["E0204"]), // ps_1_3
    ("dlls/d3dcompiler_43/tests/asm.c", 446, &["E0204", "E0303"]), // ps_1_3
    ("dlls/d3dcompiler_43/tests/asm.c", 451, &["E0204"]), // ps_1_3
    ("dlls/d3dcompiler_43/tests/asm.c", 456, &["E0204"]), // ps_1_3
    ("dlls/d3dcompiler_43/tests/asm.c", 461, &["E0204"]), // ps_1_3
    ("dlls/d3dcompiler_43/tests/asm.c", 466, &["E0204"]), // ps_1_3
    ("dlls/d3dcompiler_43/tests/asm.c", 471, &["E0204", "E0301"]), // ps_1_3
    ("dlls/d3dcompiler_43/tests/asm.c", 476, &["E0204"]), // ps_1_3
    ("dlls/d3dcompiler_43/tests/asm.c", 481, &["E0303"]), // ps_1_3
    ("dlls/d3dcompiler_43/tests/asm.c", 486, &["E0303"]), // ps_1_3
    ("dlls/d3dcompiler_43/tests/asm.c", 491, &["E0303", "E0603"]), // ps_1_3
    ("dlls/d3dcompiler_43/tests/asm.c", 496, &["E0303"]), // ps_1_3
    ("dlls/d3dcompiler_43/tests/asm.c", 501, &["E0303"]), // ps_1_3
    ("dlls/d3dcompiler_43/tests/asm.c", 511, &["E0303"]), // ps_1_3
    ("dlls/d3dcompiler_43/tests/asm.c", 526, &["E0204"]), // ps_1_4
    ("dlls/d3dcompiler_43/tests/asm.c", 531, &["E0204"]), // ps_1_4
    ("dlls/d3dcompiler_43/tests/asm.c", 561, &["E0302"]), // ps_1_4
    ("dlls/d3dcompiler_43/tests/asm.c", 576, &["E0204", "E0704"]), // ps_1_4
    ("dlls/d3dcompiler_43/tests/asm.c", 581, &["E0104"]), // ps_1_4
    ("dlls/d3dcompiler_43/tests/asm.c", 586, &["E0204", "E0704"]), // ps_1_4
    ("dlls/d3dcompiler_43/tests/asm.c", 591, &["E0204"]), // ps_1_4
    ("dlls/d3dcompiler_43/tests/asm.c", 601, &["E0204"]), // ps_1_4
    ("dlls/d3dcompiler_43/tests/asm.c", 606, &["E0204"]), // ps_1_4
    ("dlls/d3dcompiler_43/tests/asm.c", 611, &["E0204"]), // ps_1_4
    ("dlls/d3dcompiler_43/tests/asm.c", 618, &["E0303"]), // ps_1_4
    ("dlls/d3dcompiler_43/tests/asm.c", 623, &["E0204", "E0306"]), // ps_1_4
    ("dlls/d3dcompiler_43/tests/asm.c", 636, &["E0204"]), // vs_2_0
    ("dlls/d3dcompiler_43/tests/asm.c", 641, &["E0204", "E0401"]), // vs_2_0
    ("dlls/d3dcompiler_43/tests/asm.c", 647, &["E0401"]), // vs_2_0
    ("dlls/d3dcompiler_43/tests/asm.c", 722, &["E0204", "E0306"]), // vs_2_0
    ("dlls/d3dcompiler_43/tests/asm.c", 727, &["E0204"]), // vs_2_0
    (
        "dlls/d3dcompiler_43/tests/asm.c",
        733,
        &["E0104", "E0204", "E0305", "E0306"],
    ), // vs_2_0
    ("dlls/d3dcompiler_43/tests/asm.c", 739, &["E0204", "E0305"]), // vs_2_0
    ("dlls/d3dcompiler_43/tests/asm.c", 814, &["E0203", "E0506"]), // vs_2_0
    ("dlls/d3dcompiler_43/tests/asm.c", 833, &["E0204", "E0305"]), // vs_2_x
    ("dlls/d3dcompiler_43/tests/asm.c", 839, &["E0204", "E0305"]), // vs_2_x
    ("dlls/d3dcompiler_43/tests/asm.c", 849, &["E0204"]), // vs_2_x
    ("dlls/d3dcompiler_43/tests/asm.c", 910, &["E0401"]), // ps_2_0
    ("dlls/d3dcompiler_43/tests/asm.c", 915, &["E0401"]), // ps_2_0
    ("dlls/d3dcompiler_43/tests/asm.c", 922, &["E0401"]), // ps_2_0
    ("dlls/d3dcompiler_43/tests/asm.c", 939, &["E0401"]), // ps_2_0
    ("dlls/d3dcompiler_43/tests/asm.c", 946, &["E0401"]), // ps_2_0
    ("dlls/d3dcompiler_43/tests/asm.c", 976, &["E0204"]), // ps_2_x
    ("dlls/d3dcompiler_43/tests/asm.c", 981, &["E0204"]), // ps_2_x
    ("dlls/d3dcompiler_43/tests/asm.c", 986, &["E0204", "E0401"]), // ps_2_x
    ("dlls/d3dcompiler_43/tests/asm.c", 1036, &["E0204", "E0305"]), // ps_2_x
    ("dlls/d3dcompiler_43/tests/asm.c", 1042, &["E0204", "E0305"]), // ps_2_x
    ("dlls/d3dcompiler_43/tests/asm.c", 1051, &["E0204"]), // ps_2_x
    ("dlls/d3dcompiler_43/tests/asm.c", 1082, &["E0203"]), // ps_2_x
    ("dlls/d3dcompiler_43/tests/asm.c", 1118, &["E0401"]), // vs_3_0
    ("dlls/d3dcompiler_43/tests/asm.c", 1123, &["E0207"]), // vs_3_0
    (
        "dlls/d3dcompiler_43/tests/asm.c",
        1128,
        &["E0203", "E0204", "E0206"],
    ), // vs_3_0
    ("dlls/d3dcompiler_43/tests/asm.c", 1133, &["E0204"]), // vs_3_0
    ("dlls/d3dcompiler_43/tests/asm.c", 1138, &["E0204"]), // vs_3_0
    ("dlls/d3dcompiler_43/tests/asm.c", 1143, &["E0204"]), // vs_3_0
    ("dlls/d3dcompiler_43/tests/asm.c", 1148, &["E0204"]), // vs_3_0
    ("dlls/d3dcompiler_43/tests/asm.c", 1153, &["E0204"]), // vs_3_0
    (
        "dlls/d3dcompiler_43/tests/asm.c",
        1158,
        &["E0204", "E0305", "E0306"],
    ), // vs_3_0
    (
        "dlls/d3dcompiler_43/tests/asm.c",
        1169,
        &["E0203", "E0204", "E0207"],
    ), // vs_3_0
    ("dlls/d3dcompiler_43/tests/asm.c", 1175, &["E0204", "E0207"]), // vs_3_0
    ("dlls/d3dcompiler_43/tests/asm.c", 1198, &["E0401"]), // ps_3_0
    ("dlls/d3dcompiler_43/tests/asm.c", 1203, &["E0401"]), // ps_3_0
    ("dlls/d3dcompiler_43/tests/asm.c", 1208, &["E0203", "E0207"]), // ps_3_0
    ("dlls/d3dcompiler_43/tests/asm.c", 1221, &["E0401"]), // ps_3_0
    ("dlls/d3dcompiler_43/tests/asm.c", 1226, &["E0204"]), // ps_3_0
    ("dlls/d3dcompiler_43/tests/asm.c", 1231, &["E0204"]), // ps_3_0
    ("dlls/d3dcompiler_43/tests/asm.c", 1236, &["E0104", "E0204"]), // ps_3_0
    ("dlls/d3dcompiler_43/tests/asm.c", 1242, &["E0401"]), // ps_3_0
    ("dlls/d3dcompiler_43/tests/asm.c", 1247, &["E0204"]), // ps_3_0
    ("dlls/d3dx9_36/tests/asm.c", 638, &["E0204"]),      // ps_1_4
    ("dlls/d3dx9_36/tests/asm.c", 1298, &["E0404"]),     // ps_3_0
];

fn show(f: &[Finding]) -> String {
    f.iter()
        .map(|f| format!("{} @{}: {}", f.code, f.offset, f.message))
        .collect::<Vec<_>>()
        .join("; ")
}

fn errors(f: &[Finding]) -> Vec<Finding> {
    f.iter()
        .filter(|f| f.severity == Severity::Error)
        .cloned()
        .collect()
}

/// Checks one runtime-valid stream (no errors) or known-invalid stream (exactly its codes).
fn check(
    file: &str,
    source: &str,
    what: &str,
    shader: &Shader,
    stats: &mut Stats,
    failures: &mut Vec<String>,
) {
    let found = validate(shader);
    let errs = errors(&found);
    if let Some(codes) = not_runtime_valid(source) {
        let mut got: Vec<&str> = errs.iter().map(|f| f.code).collect();
        got.sort_unstable();
        got.dedup();
        if got != codes {
            failures.push(format!(
                "{file} {what} ({}): known invalid, expected {codes:?}, got [{}]",
                shader.version,
                show(&errs)
            ));
        } else {
            stats.known_invalid += 1;
        }
        return;
    }
    stats.checked += 1;
    if found.len() != errs.len() {
        stats.with_warnings += 1;
    }
    if !errs.is_empty() {
        failures.push(format!(
            "{file} {what} ({}): {}",
            shader.version,
            show(&errs)
        ));
    }
}

#[derive(Default)]
struct Stats {
    checked: usize,
    known_invalid: usize,
    with_warnings: usize,
    rejected_ok: usize,
}

#[test]
fn corpus_valid_shaders_validate_clean() {
    let mut stats = Stats::default();
    let mut failures = Vec::new();
    for file in [
        "binaries.jsonl",
        "wine_d3d9_blobs.jsonl",
        "vkd3d_d3dbc.jsonl",
    ] {
        let Some(recs) = common::records(file) else {
            return;
        };
        for r in &recs {
            let tokens = common::dwords(&r["dwords"]);
            let Ok(shader) = Shader::decode(&tokens) else {
                continue;
            };
            let function = r["function"].as_str().unwrap_or("");
            let name = r["name"].as_str().unwrap_or("");
            let source = r["source"].as_str().unwrap_or("");
            if let Some(code) = runtime_rejects(function, name) {
                let found = validate(&shader);
                if found.iter().any(|f| f.code == code) {
                    stats.rejected_ok += 1;
                } else {
                    failures.push(format!(
                        "{file} {}: runtime rejects it, expected {code}, got [{}]",
                        common::label(r),
                        show(&found)
                    ));
                }
                continue;
            }
            check(
                file,
                source,
                &common::label(r),
                &shader,
                &mut stats,
                &mut failures,
            );
        }
    }
    let Some(asm) = common::records("wine_asm.jsonl") else {
        return;
    };
    for r in &asm {
        let Some(exp) = r.get("expected").filter(|e| e.is_array()) else {
            continue;
        };
        let tokens = common::dwords(exp);
        let Ok(shader) = Shader::decode(&tokens) else {
            continue;
        };
        let source = r["source"].as_str().unwrap_or("");
        let what = format!("{source} #{}", r["index"]);
        check(
            "wine_asm.jsonl",
            source,
            &what,
            &shader,
            &mut stats,
            &mut failures,
        );
    }
    eprintln!(
        "validate: {} runtime-valid streams checked ({} with warnings), {} false rejections; \
         {} known-invalid test streams flagged as expected; {} runtime-rejected Wine shaders caught",
        stats.checked,
        stats.with_warnings,
        failures.len(),
        stats.known_invalid,
        stats.rejected_ok
    );
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    // 8 in d3d9 device.c, 8 in d3d9ex.c, vs_1_256 in d3d8 device.c.
    assert_eq!(
        stats.rejected_ok, 17,
        "every runtime-rejected Wine shader must be caught"
    );
}
