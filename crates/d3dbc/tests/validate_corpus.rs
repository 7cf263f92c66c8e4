//! Validator conformance: every shader the D3D9 runtime accepts in the corpus validates
//! clean; the shaders Wine's `test_unsupported_shaders` shows the runtime rejecting are
//! rejected with the right rule; single-rule mutations of valid shaders are caught; and
//! `docs/validation.md` lists every rule.

mod common;

use d3dbc::token::DeclUsage;
use d3dbc::validate::{validate, Finding};
use d3dbc::Severity;
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
    ("dlls/d3dcompiler_43/tests/asm.c", 1128, &["E0203", "E0206"]), // vs_3_0
    ("dlls/d3dcompiler_43/tests/asm.c", 1158, &["E0305", "E0306"]), // vs_3_0
    ("dlls/d3dcompiler_43/tests/asm.c", 1169, &["E0203", "E0207"]), // vs_3_0
    ("dlls/d3dcompiler_43/tests/asm.c", 1175, &["E0207"]), // vs_3_0
    ("dlls/d3dcompiler_43/tests/asm.c", 1208, &["E0203", "E0207"]), // ps_3_0
    ("dlls/d3dcompiler_43/tests/asm.c", 1221, &["E0401"]), // ps_3_0
    ("dlls/d3dcompiler_43/tests/asm.c", 1236, &["E0104"]), // ps_3_0
    ("dlls/d3dcompiler_43/tests/asm.c", 1242, &["E0401"]), // ps_3_0
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

// ---------------------------------------------------------------------------------------
// Mutation test: break one rule at a time in valid corpus shaders.
// ---------------------------------------------------------------------------------------

use d3dbc::ir::{DeclToken, DstParam, Instruction, Item, RelAddr, SrcParam};
use d3dbc::{Opcode, Register, RegisterType as R, Version};

fn reg(kind: R, num: u16) -> Register {
    Register::new(kind, num)
}

fn op1(op: Opcode, d: Register, mask: u8, srcs: &[Register]) -> Item {
    let mut i = Instruction::new(op);
    i.dst = DstParam::new(d, mask);
    for s in srcs {
        i.push_src(SrcParam::new(*s));
    }
    Item::Instruction(i)
}

fn nodst(op: Opcode, srcs: &[Register]) -> Item {
    let mut i = Instruction::new(op);
    for s in srcs {
        i.push_src(SrcParam::new(*s));
    }
    Item::Instruction(i)
}

/// Index of the first executable (non-declaration) instruction.
fn first_exec(s: &Shader) -> usize {
    s.items
        .iter()
        .position(|it| match it {
            Item::Instruction(i) => !matches!(
                i.opcode,
                Opcode::Dcl | Opcode::Def | Opcode::DefI | Opcode::DefB | Opcode::Phase
            ),
            Item::Comment(_) => false,
        })
        .unwrap_or(s.items.len())
}

/// Mutable references to the instructions.
fn instrs(s: &mut Shader) -> impl Iterator<Item = &mut Instruction> {
    s.items.iter_mut().filter_map(|i| match i {
        Item::Instruction(i) => Some(i),
        Item::Comment(_) => None,
    })
}

/// The first instruction matching `f`.
fn find(s: &mut Shader, f: impl Fn(&Instruction) -> bool) -> Option<&mut Instruction> {
    instrs(s).find(|i| f(i))
}

fn writes_temp(s: &Shader, n: u16) -> bool {
    s.instructions().any(|i| {
        i.opcode.layout(s.version).dst && i.dst.reg == reg(R::Temp, n)
            || i.src().iter().any(|x| x.reg == reg(R::Temp, n))
    })
}

/// An SM2+ texld (sampler operand present).
fn s_is_sm2(i: &Instruction) -> bool {
    i.src_count == 2
}

fn is(v: Version, s: &str) -> bool {
    v.to_string() == s
}

fn ps1(v: Version) -> bool {
    v.is_pixel() && v.major == 1
}

type Mutate = fn(&mut Shader) -> bool;

/// (family, name, expected code, mutation). A mutation returns false when it does not apply.
const MUTATIONS: &[(&str, &str, &str, Mutate)] = &[
    (
        "instructions",
        "ps_2_0 mov -> dsx (ps_2_x only)",
        "E0101",
        |s| {
            is(s.version, "ps_2_0")
                && find(s, |i| i.opcode == Opcode::Mov)
                    .map(|i| i.opcode = Opcode::Dsx)
                    .is_some()
        },
    ),
    (
        "instructions",
        "vs_1_1 mov -> lrp shape-free opcode nrm (vs_2_0+)",
        "E0101",
        |s| {
            is(s.version, "vs_1_1")
                && find(s, |i| i.opcode == Opcode::Mov)
                    .map(|i| i.opcode = Opcode::Nrm)
                    .is_some()
        },
    ),
    ("instructions", "setp without comparison", "E0102", |s| {
        if s.version.code() < 0x0201 {
            return false;
        }
        let at = first_exec(s);
        let mut i = Instruction::new(Opcode::SetP);
        i.dst = DstParam::new(reg(R::Predicate, 0), 0xF);
        i.push_src(SrcParam::new(reg(R::Const, 0)));
        i.push_src(SrcParam::new(reg(R::Const, 1)));
        s.items.insert(at, Item::Instruction(i));
        true
    }),
    ("instructions", "controls on mov", "E0103", |s| {
        find(s, |i| i.opcode == Opcode::Mov)
            .map(|i| i.controls = 1)
            .is_some()
    }),
    (
        "instructions",
        "texld sampler operand is a constant",
        "E0104",
        |s| {
            s.version.is_pixel()
                && s.version.major >= 2
                && find(s, |i| i.opcode == Opcode::Tex)
                    .map(|i| i.srcs[1].reg = reg(R::Const, 0))
                    .is_some()
        },
    ),
    ("registers", "vs_1_1 reads i0", "E0201", |s| {
        is(s.version, "vs_1_1")
            && find(s, |i| i.opcode == Opcode::Mov)
                .map(|i| i.srcs[0].reg = reg(R::ConstInt, 0))
                .is_some()
    }),
    ("registers", "ps_2_0 writes oPos", "E0202", |s| {
        is(s.version, "ps_2_0")
            && find(s, |i| i.opcode == Opcode::Mov)
                .map(|i| i.dst.reg = reg(R::RastOut, 0))
                .is_some()
    }),
    (
        "registers",
        "constant index past the version's range",
        "E0203",
        |s| {
            let v = s.version;
            let n = if v.is_vertex() {
                return false;
            } else if v.major == 1 {
                8
            } else if v.code() <= 0x0201 {
                32
            } else {
                224
            };
            let mut hit = false;
            for i in instrs(s) {
                for x in i.srcs[..i.src_count as usize].iter_mut() {
                    if x.reg.kind == R::Const && !hit {
                        x.reg.num = n;
                        hit = true;
                    }
                }
            }
            hit
        },
    ),
    (
        "registers",
        "temp index past the version's range",
        "E0203",
        |s| {
            let lim = if s.version.is_vertex() { 32 } else { 12 };
            find(s, |i| i.opcode == Opcode::Mov && i.dst.reg.kind == R::Temp)
                .map(|i| i.dst.reg.num = lim)
                .is_some()
        },
    ),
    ("registers", "read of a never-written temp", "E0204", |s| {
        if s.version.major >= 3 {
            return false;
        }
        let lim = match (s.version.is_pixel(), s.version.code()) {
            (true, 0x0100..=0x0103) => 2,
            (true, 0x0104) => 6,
            _ => 12,
        };
        let Some(n) = (0..lim).rev().find(|&n| !writes_temp(s, n)) else {
            return false;
        };
        let at = first_exec(s);
        // mov rn, rn: reads rn before anything wrote it.
        let target = reg(R::Temp, n);
        s.items
            .insert(at, op1(Opcode::Mov, target, 0xF, &[reg(R::Temp, n)]));
        true
    }),
    ("registers", "vs writes an input register", "E0205", |s| {
        s.version.is_vertex()
            && find(s, |i| i.opcode == Opcode::Mov && i.dst.reg.kind == R::Temp)
                .map(|i| i.dst.reg = reg(R::Input, 0))
                .is_some()
    }),
    ("registers", "relative addressing in ps_2_0", "E0206", |s| {
        is(s.version, "ps_2_0")
            && find(s, |i| {
                i.opcode != Opcode::Tex && i.src().iter().any(|x| x.reg.kind == R::Const)
            })
            .map(|i| {
                let k = i.src().iter().position(|x| x.reg.kind == R::Const).unwrap();
                i.srcs[k].rel = Some(RelAddr {
                    reg: reg(R::Loop, 0),
                    swizzle: 0,
                });
            })
            .is_some()
    }),
    (
        "registers",
        "c[aL] outside a loop in vs_3_0",
        "E0207",
        |s| {
            is(s.version, "vs_3_0")
                && !s.instructions().any(|i| i.opcode == Opcode::Loop)
                && find(s, |i| {
                    i.opcode != Opcode::Def && i.src().iter().any(|x| x.reg.kind == R::Const)
                })
                .map(|i| {
                    let k = i.src().iter().position(|x| x.reg.kind == R::Const).unwrap();
                    i.srcs[k].rel = Some(RelAddr {
                        reg: reg(R::Loop, 0),
                        swizzle: 0,
                    });
                })
                .is_some()
        },
    ),
    (
        "registers",
        "c300 in hardware vs_2_0 (warning)",
        "E0208",
        |s| {
            is(s.version, "vs_2_0")
                && find(s, |i| i.src().iter().any(|x| x.reg.kind == R::Const))
                    .map(|i| {
                        let k = i.src().iter().position(|x| x.reg.kind == R::Const).unwrap();
                        i.srcs[k].reg.num = 300;
                    })
                    .is_some()
        },
    ),
    (
        "modifiers",
        "_abs source modifier in vs_2_0",
        "E0301",
        |s| {
            is(s.version, "vs_2_0")
                && find(s, |i| i.opcode == Opcode::Mov)
                    .map(|i| i.srcs[0].modifier = d3dbc::token::SrcModifier::Abs)
                    .is_some()
        },
    ),
    ("modifiers", "_sat in vs_2_0", "E0302", |s| {
        is(s.version, "vs_2_0")
            && find(s, |i| i.opcode == Opcode::Mov)
                .map(|i| i.dst.modifiers = d3dbc::token::result_modifier::SATURATE)
                .is_some()
    }),
    ("modifiers", "shift in ps_2_0", "E0303", |s| {
        is(s.version, "ps_2_0")
            && find(s, |i| i.opcode == Opcode::Mov)
                .map(|i| i.dst.shift = 1)
                .is_some()
    }),
    ("modifiers", "co-issue in a vertex shader", "E0304", |s| {
        s.version.is_vertex()
            && find(s, |i| i.opcode == Opcode::Mov)
                .map(|i| i.coissue = true)
                .is_some()
    }),
    (
        "modifiers",
        "rsq/rcp without replicate swizzle",
        "E0305",
        |s| {
            s.version.major >= 2
                && find(s, |i| matches!(i.opcode, Opcode::Rcp | Opcode::Rsq))
                    .map(|i| i.srcs[0].swizzle = 0xE4)
                    .is_some()
        },
    ),
    ("modifiers", "ps_2_0 texld partial mask", "E0306", |s| {
        is(s.version, "ps_2_0")
            && find(s, |i| i.opcode == Opcode::Tex)
                .map(|i| i.dst.mask = 0x7)
                .is_some()
    }),
    ("modifiers", "ps_2_0 arbitrary swizzle", "E0307", |s| {
        is(s.version, "ps_2_0")
            && find(s, |i| i.opcode == Opcode::Mov)
                .map(|i| i.srcs[0].swizzle = 0x4E)
                .is_some()
    }),
    ("modifiers", "m4x4 matrix operand swizzled", "E0308", |s| {
        find(s, |i| {
            matches!(i.opcode, Opcode::M4x4 | Opcode::M4x3 | Opcode::M3x3)
        })
        .map(|i| i.srcs[1].swizzle = 0x1B)
        .is_some()
    }),
    ("modifiers", "negated sampler operand", "E0301", |s| {
        find(s, |i| i.opcode == Opcode::Tex && s_is_sm2(i))
            .map(|i| i.srcs[1].modifier = d3dbc::token::SrcModifier::Neg)
            .is_some()
    }),
    (
        "modifiers",
        "swizzled texld coordinate in ps_2_0",
        "E0307",
        |s| {
            is(s.version, "ps_2_0")
                && find(s, |i| i.opcode == Opcode::Tex)
                    .map(|i| i.srcs[0].swizzle = 0x00)
                    .is_some()
        },
    ),
    ("modifiers", "nrm writing its own source", "E0308", |s| {
        find(s, |i| i.opcode == Opcode::Nrm)
            .map(|i| i.srcs[0].reg = i.dst.reg)
            .is_some()
    }),
    (
        "modifiers",
        "predicated instruction in ps_2_0",
        "E0309",
        |s| {
            is(s.version, "ps_2_0")
                && find(s, |i| i.opcode == Opcode::Mov)
                    .map(|i| i.predicate = Some(SrcParam::new(reg(R::Predicate, 0))))
                    .is_some()
        },
    ),
    (
        "declarations",
        "dcl of a used input removed",
        "E0401",
        |s| {
            let v = s.version;
            if v.major < 2 {
                return false;
            }
            let pos = s.items.iter().position(|it| {
                matches!(it, Item::Instruction(i) if i.opcode == Opcode::Dcl
                && matches!(i.dst.reg.kind, R::Input | R::Sampler | R::AddrOrTexture))
            });
            let Some(pos) = pos else { return false };
            let Item::Instruction(d) = s.items[pos].clone() else {
                return false;
            };
            let used = s
                .instructions()
                .any(|i| i.opcode != Opcode::Dcl && i.src().iter().any(|x| x.reg == d.dst.reg));
            if !used {
                return false;
            }
            s.items.remove(pos);
            true
        },
    ),
    (
        "declarations",
        "ps_3_0 reads vPos without dcl (a warning: shipped fixes do it)",
        "E0408",
        |s| {
            let declared = s
                .instructions()
                .any(|i| i.opcode == Opcode::Dcl && i.dst.reg.kind == R::MiscType);
            is(s.version, "ps_3_0")
                && !declared
                && find(s, |i| {
                    i.opcode == Opcode::Mov && i.src().first().is_some_and(|x| x.rel.is_none())
                })
                .map(|i| i.srcs[0].reg = reg(R::MiscType, 0))
                .is_some()
        },
    ),
    ("declarations", "dcl of a constant register", "E0402", |s| {
        s.version.major >= 2
            && find(s, |i| i.opcode == Opcode::Dcl)
                .map(|i| i.dst.reg = reg(R::Const, 0))
                .is_some()
    }),
    ("declarations", "duplicate dcl", "E0403", |s| {
        let pos = s
            .items
            .iter()
            .position(|it| matches!(it, Item::Instruction(i) if i.opcode == Opcode::Dcl));
        let Some(pos) = pos else { return false };
        let d = s.items[pos].clone();
        s.items.insert(pos, d);
        true
    }),
    (
        "declarations",
        "vs_3_0 output / ps_3_0 input semantic declared on a second register",
        "E0403",
        |s| {
            let file = if is(s.version, "vs_3_0") {
                R::Output
            } else if is(s.version, "ps_3_0") {
                R::Input
            } else {
                return false;
            };
            let pos = s.items.iter().position(
                |it| matches!(it, Item::Instruction(i) if i.opcode == Opcode::Dcl && i.dst.reg.kind == file),
            );
            let Some(pos) = pos else { return false };
            let Item::Instruction(mut d) = s.items[pos].clone() else {
                return false;
            };
            d.dst.reg.num = 9;
            s.items.insert(pos + 1, Item::Instruction(d));
            true
        },
    ),
    (
        "declarations",
        "vs_3_0 output declared again for another usage",
        "E0407",
        |s| {
            if !is(s.version, "vs_3_0") {
                return false;
            }
            let pos = s.items.iter().position(
            |it| matches!(it, Item::Instruction(i) if i.opcode == Opcode::Dcl && i.dst.reg.kind == R::Output),
        );
            let Some(pos) = pos else { return false };
            let Item::Instruction(mut d) = s.items[pos].clone() else {
                return false;
            };
            let fog = if d.decl.usage_kind() == Some(DeclUsage::Fog) {
                DeclUsage::PSize
            } else {
                DeclUsage::Fog
            };
            d.decl = DeclToken::usage(fog, 0);
            s.items.insert(pos + 1, Item::Instruction(d));
            true
        },
    ),
    ("declarations", "sampler of unknown type", "E0404", |s| {
        find(s, |i| {
            i.opcode == Opcode::Dcl && i.dst.reg.kind == R::Sampler
        })
        .map(|i| i.decl = DeclToken(0x8000_0000))
        .is_some()
    }),
    (
        "declarations",
        "def after the first instruction",
        "E0405",
        |s| {
            let pos = s
                .items
                .iter()
                .position(|it| matches!(it, Item::Instruction(i) if i.opcode == Opcode::Def));
            let Some(pos) = pos else { return false };
            let d = s.items.remove(pos);
            s.items.push(d);
            true
        },
    ),
    ("declarations", "undefined usage value", "E0406", |s| {
        find(s, |i| {
            i.opcode == Opcode::Dcl && i.dst.reg.kind == R::Input && i.decl.0 & 0x1F != 0x1F
        })
        .map(|i| i.decl = DeclToken((i.decl.0 & !0x1F) | 20))
        .is_some()
            && s.version.major >= 2
            && !(s.version.is_pixel() && s.version.major == 2)
    }),
    ("flow control", "endif without if", "E0501", |s| {
        if s.version.code() < 0x0200 || (s.version.is_pixel() && s.version.code() < 0x0201) {
            return false;
        }
        let at = first_exec(s);
        s.items.insert(at, nodst(Opcode::EndIf, &[]));
        true
    }),
    ("flow control", "a second else for one if", "E0501", |s| {
        if s.version.code() < 0x0200 || (s.version.is_pixel() && s.version.code() < 0x0201) {
            return false;
        }
        let at = first_exec(s);
        s.items.insert(at, nodst(Opcode::EndIf, &[]));
        s.items.insert(at, nodst(Opcode::Else, &[]));
        s.items.insert(at, nodst(Opcode::Else, &[]));
        s.items
            .insert(at, nodst(Opcode::If, &[reg(R::ConstBool, 0)]));
        true
    }),
    ("flow control", "endrep without rep", "E0502", |s| {
        if s.version.code() < 0x0200 || (s.version.is_pixel() && s.version.code() < 0x0201) {
            return false;
        }
        let at = first_exec(s);
        s.items.insert(at, nodst(Opcode::EndRep, &[]));
        true
    }),
    ("flow control", "if b0 never closed", "E0503", |s| {
        if s.version.code() < 0x0200 || (s.version.is_pixel() && s.version.code() < 0x0201) {
            return false;
        }
        let at = first_exec(s);
        s.items
            .insert(at, nodst(Opcode::If, &[reg(R::ConstBool, 0)]));
        true
    }),
    ("flow control", "break outside a loop", "E0504", |s| {
        if s.version.code() < 0x0201 {
            return false;
        }
        let at = first_exec(s);
        s.items.insert(at, nodst(Opcode::Break, &[]));
        true
    }),
    ("flow control", "five nested rep blocks", "E0505", |s| {
        if s.version.code() < 0x0201 {
            return false;
        }
        let at = first_exec(s);
        for _ in 0..5 {
            s.items.insert(at, nodst(Opcode::EndRep, &[]));
        }
        for _ in 0..5 {
            s.items
                .insert(at, nodst(Opcode::Rep, &[reg(R::ConstInt, 0)]));
        }
        true
    }),
    ("flow control", "call to an undefined label", "E0506", |s| {
        if s.version.code() < 0x0200 || (s.version.is_pixel() && s.version.code() < 0x0201) {
            return false;
        }
        let at = first_exec(s);
        s.items.insert(at, nodst(Opcode::Call, &[reg(R::Label, 5)]));
        true
    }),
    (
        "ps_1_x",
        "texture instruction after arithmetic",
        "E0601",
        |s| {
            if !(ps1(s.version) && s.version.minor < 4) {
                return false;
            }
            let pos = s
                .items
                .iter()
                .position(|it| matches!(it, Item::Instruction(i) if i.opcode == Opcode::Tex));
            let Some(pos) = pos else { return false };
            let t = s.items.remove(pos);
            s.items.push(t);
            true
        },
    ),
    (
        "ps_1_x",
        "texm3x2pad without its texm3x2tex",
        "E0602",
        |s| {
            if !(ps1(s.version) && s.version.minor < 4) {
                return false;
            }
            let at = first_exec(s);
            s.items.insert(
                at,
                op1(
                    Opcode::TexM3x2Pad,
                    reg(R::AddrOrTexture, 3),
                    0xF,
                    &[reg(R::AddrOrTexture, 0)],
                ),
            );
            true
        },
    ),
    (
        "ps_1_x",
        "texture source numbered above its destination",
        "E0603",
        |s| {
            if !(ps1(s.version) && s.version.minor < 4) {
                return false;
            }
            let at = first_exec(s);
            s.items.insert(
                at,
                op1(
                    Opcode::TexReg2Ar,
                    reg(R::AddrOrTexture, 1),
                    0xF,
                    &[reg(R::AddrOrTexture, 2)],
                ),
            );
            true
        },
    ),
    ("ps_1_x", "two phase instructions in ps_1_4", "E0604", |s| {
        if !is(s.version, "ps_1_4") {
            return false;
        }
        let at = first_exec(s);
        s.items.insert(at, nodst(Opcode::Phase, &[]));
        s.items.insert(at, nodst(Opcode::Phase, &[]));
        true
    }),
    ("ps_1_x", "t# loaded twice", "E0605", |s| {
        if !(ps1(s.version) && s.version.minor < 4) {
            return false;
        }
        let pos = s
            .items
            .iter()
            .position(|it| matches!(it, Item::Instruction(i) if i.opcode == Opcode::Tex));
        let Some(pos) = pos else { return false };
        let t = s.items[pos].clone();
        s.items.insert(pos, t);
        true
    }),
    (
        "counts",
        "vs_1_1 with 130 extra instructions",
        "E0701",
        |s| {
            if !is(s.version, "vs_1_1") {
                return false;
            }
            let at = first_exec(s);
            for _ in 0..130 {
                s.items.insert(at, nodst(Opcode::Nop, &[]));
            }
            true
        },
    ),
    ("counts", "ps_2_0 with 33 texture loads", "E0702", |s| {
        if !is(s.version, "ps_2_0") {
            return false;
        }
        let Some(t) = s
            .items
            .iter()
            .find(|it| matches!(it, Item::Instruction(i) if i.opcode == Opcode::Tex))
            .cloned()
        else {
            return false;
        };
        let at = first_exec(s);
        for _ in 0..33 {
            s.items.insert(at, t.clone());
        }
        true
    }),
    (
        "counts",
        "ps_1_1 with 9 extra arithmetic instructions",
        "E0703",
        |s| {
            if !(ps1(s.version) && s.version.minor < 4) {
                return false;
            }
            let at = s.items.len();
            for _ in 0..9 {
                s.items.insert(
                    at,
                    op1(Opcode::Mov, reg(R::Temp, 0), 0xF, &[reg(R::Input, 0)]),
                );
            }
            true
        },
    ),
    (
        "counts",
        "ps_2_0 five-deep dependent read chain",
        "E0704",
        |s| {
            if !is(s.version, "ps_2_0") {
                return false;
            }
            let Some(Item::Instruction(t)) = s
                .items
                .iter()
                .find(|it| {
                    matches!(it, Item::Instruction(i) if i.opcode == Opcode::Tex
                    && i.srcs[0].reg.kind == R::AddrOrTexture)
                })
                .cloned()
            else {
                return false;
            };
            let at = first_exec(s);
            let mut dep = t;
            dep.dst.reg = reg(R::Temp, 11);
            dep.srcs[0] = SrcParam::new(reg(R::Temp, 11));
            for _ in 0..5 {
                s.items.insert(at, Item::Instruction(dep));
            }
            let mut first = t;
            first.dst.reg = reg(R::Temp, 11);
            s.items.insert(at, Item::Instruction(first));
            true
        },
    ),
];

#[test]
fn mutations_are_caught() {
    let mut valid = Vec::new();
    for file in [
        "binaries.jsonl",
        "wine_d3d9_blobs.jsonl",
        "vkd3d_d3dbc.jsonl",
    ] {
        let Some(recs) = common::records(file) else {
            return;
        };
        for r in &recs {
            let Ok(shader) = Shader::decode(&common::dwords(&r["dwords"])) else {
                continue;
            };
            if validate(&shader).is_empty() {
                valid.push((common::label(r), shader));
            }
        }
    }
    let mut failures = Vec::new();
    let mut caught = 0;
    let mut families = std::collections::BTreeMap::<&str, usize>::new();
    for (family, name, code, mutate) in MUTATIONS {
        let mut applied = 0;
        for (label, original) in &valid {
            if applied >= 3 {
                break;
            }
            let mut m = original.clone();
            if !mutate(&mut m) {
                continue;
            }
            applied += 1;
            let found = validate(&m);
            if found.iter().any(|f| f.code == *code) {
                caught += 1;
                *families.entry(family).or_default() += 1;
            } else {
                failures.push(format!(
                    "{code} {name} on {label} ({}): not caught; got [{}]",
                    m.version,
                    show(&found)
                ));
            }
        }
        if applied == 0 {
            failures.push(format!("{code} {name}: no corpus shader to mutate"));
        }
    }
    eprintln!(
        "mutations: {caught} caught of {} mutation kinds over {} valid shaders; per family: {families:?}",
        MUTATIONS.len(),
        valid.len()
    );
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(families.len() >= 7, "every rule family needs a case");
}

#[test]
fn every_rule_is_documented_and_mutated() {
    let codes: std::collections::BTreeSet<&str> = MUTATIONS.iter().map(|m| m.2).collect();
    let doc = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../docs/validation.md"
    ))
    .expect("docs/validation.md");
    for r in d3dbc::validate::rules() {
        assert!(doc.contains(r.code), "docs/validation.md lacks {}", r.code);
        assert!(
            doc.contains(r.summary),
            "docs/validation.md lacks the summary of {}",
            r.code
        );
        assert!(codes.contains(r.code), "no mutation exercises {}", r.code);
    }
}

/// Cost of validation relative to decoding, over the whole corpus (run with
/// `cargo test --release -p d3dbc --test validate_corpus -- --ignored --nocapture`).
#[test]
#[ignore]
fn validation_cost() {
    let Some(streams) = common::all_streams() else {
        return;
    };
    let streams: Vec<Vec<u32>> = streams
        .into_iter()
        .map(|s| s.2)
        .filter(|t| Shader::decode(t).is_ok())
        .collect();
    let rounds = 200;
    let t0 = std::time::Instant::now();
    let mut n = 0usize;
    for _ in 0..rounds {
        for t in &streams {
            n += Shader::decode(t).unwrap().items.len();
        }
    }
    let decode = t0.elapsed();
    let shaders: Vec<Shader> = streams.iter().map(|t| Shader::decode(t).unwrap()).collect();
    let t1 = std::time::Instant::now();
    for _ in 0..rounds {
        for s in &shaders {
            n += validate(s).len();
        }
    }
    let val = t1.elapsed();
    eprintln!(
        "decode {decode:?}, validate {val:?} over {} shaders x {rounds}: validate/decode = {:.2} ({n})",
        shaders.len(),
        val.as_secs_f64() / decode.as_secs_f64()
    );
}

/// Bit-flipped corpus streams that still decode must validate without panicking, and
/// every finding must point at an instruction inside the stream.
#[test]
fn corrupted_streams_never_panic() {
    let Some(streams) = common::all_streams() else {
        return;
    };
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut decoded = 0;
    let mut with_findings = 0;
    for round in 0..40 {
        for (_, label, tokens) in &streams {
            if tokens.len() < 3 {
                continue;
            }
            let mut t = tokens.clone();
            for _ in 0..1 + round % 3 {
                let at = 1 + (next() as usize) % (t.len() - 1);
                t[at] ^= 1 << (next() % 32);
            }
            let Ok(shader) = Shader::decode(&t) else {
                continue;
            };
            decoded += 1;
            let found = validate(&shader);
            if !found.is_empty() {
                with_findings += 1;
            }
            for f in &found {
                assert!(
                    f.item < shader.items.len().max(1),
                    "{label}: item out of range"
                );
                assert!(
                    f.offset < t.len(),
                    "{label}: offset {} past the stream",
                    f.offset
                );
                assert!(!f.message.contains('\n'), "{label}: multi-line message");
            }
        }
    }
    eprintln!("corrupted streams: {decoded} decoded and validated, {with_findings} with findings");
    assert!(decoded > 1000);
}
