//! The MojoShader face against MojoShader: `tests/c/parse_dump.c`, a program written
//! for MojoShader's API, is built twice — against MojoShader 6333f74 (its sources from
//! `cargo xtask peers --fetch-only`, compiled here with `cc`) and against
//! `libd3dbc_mojoshader` with d3dbc's header (`crates/d3dbc-capi/face/mojoshader.h`) —
//! and run over every corpus shader with the profiles `bytecode`, `d3d`, `glsl` and
//! `spirv`. The two outputs are compared field by field (uniforms, constants, samplers,
//! attributes, outputs, swizzles, symbols, instruction count, output), and the figures
//! printed: how many shaders MojoShader accepts, how many the face accepts (every one
//! MojoShader accepts, and those it refuses), and per field how many answers are equal.
//!
//! What must hold: the face accepts every shader MojoShader accepts; every field (and
//! the `bytecode` output) is equal wherever both accept; the face frees everything it
//! allocates through the caller's allocator; every `spirv` module (alone, and after
//! `MOJOSHADER_linkSPIRVShaders` of a vertex and a pixel shader) passes `spirv-val`;
//! the unknown profile gives MojoShader's error. The `d3d`, `glsl` and `spirv` outputs are
//! d3dbc's own (README, "Replace MojoShader"): counted, not compared.

mod cbuild;
#[path = "../../d3dbc/tests/common/mod.rs"]
mod common;

use cbuild::{build_face, build_mojoshader, lib_dir};

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Runs `exe PROFILE DIR < list`; the answer of each shader: field → lines.
fn run(
    exe: &Path,
    profile: &str,
    dir: &Path,
    list: &str,
) -> BTreeMap<String, BTreeMap<String, Vec<String>>> {
    std::fs::create_dir_all(dir).unwrap();
    let list_path = dir.join("list");
    std::fs::write(&list_path, list).unwrap();
    // The library beside this test, not a stale copy that cargo's LD_LIBRARY_PATH (the
    // profile folder) would find before the program's run path.
    let out = Command::new(exe)
        .env("LD_LIBRARY_PATH", lib_dir())
        .arg(profile)
        .arg(dir)
        .stdin(std::fs::File::open(&list_path).unwrap())
        .output()
        .expect("run parse_dump");
    assert!(
        out.status.success(),
        "{} {profile} failed: {}",
        exe.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let mut all = BTreeMap::new();
    let mut current: Option<(String, BTreeMap<String, Vec<String>>)> = None;
    for line in text.lines() {
        if let Some(name) = line.strip_prefix("== ") {
            if let Some((n, m)) = current.take() {
                all.insert(n, m);
            }
            current = Some((name.to_string(), BTreeMap::new()));
            continue;
        }
        let Some((_, m)) = current.as_mut() else {
            continue;
        };
        let (field, rest) = line.split_once(' ').unwrap_or((line, ""));
        m.entry(field.to_string())
            .or_default()
            .push(rest.to_string());
    }
    if let Some((n, m)) = current {
        all.insert(n, m);
    }
    all
}

fn spirv_val(path: &Path) -> Result<(), String> {
    let out = Command::new("spirv-val")
        .arg(path)
        .output()
        .map_err(|e| format!("spirv-val: {e}"))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).into_owned())
    }
}

const FIELDS: [&str; 13] = [
    "blob",
    "shader",
    "instruction_count",
    "uniform",
    "constant",
    "sampler",
    "attribute",
    "output",
    "swizzle",
    "symbol",
    "preshader",
    "mainfn",
    "profile",
];

/// Links pairs of vertex and pixel shaders of the face's `spirv` answers with
/// `MOJOSHADER_linkSPIRVShaders` and validates both linked modules.
fn link_pairs(
    face: &Path,
    out: &Path,
    answers: &BTreeMap<String, BTreeMap<String, Vec<String>>>,
    labels: &[String],
) -> Vec<String> {
    let (mut vs, mut ps) = (Vec::new(), Vec::new());
    for (key, a) in answers {
        let Some(shader) = a.get("shader").and_then(|s| s.first()) else {
            continue;
        };
        let idx: usize = key.split(' ').next().unwrap().parse().unwrap();
        let path = key.split_once(' ').unwrap().1.to_string();
        if shader.starts_with("2 ") {
            vs.push((idx, path));
        } else {
            ps.push((idx, path));
        }
    }
    let list: String = vs
        .iter()
        .zip(ps.iter().rev())
        .map(|((_, v), (_, p))| format!("link {v} {p}\n"))
        .collect();
    let dir = out.join("face-link");
    let linked = run(face, "spirv", &dir, &list);
    let mut failures = Vec::new();
    let mut n = 0;
    for (key, a) in &linked {
        let Some(rest) = key.strip_prefix("link ") else {
            continue;
        };
        let id: usize = rest.split(' ').next().unwrap().parse().unwrap();
        if a.get("linked").is_none() {
            failures.push(format!("link {rest}: {:?}", a));
            continue;
        }
        for stage in ["vs", "ps"] {
            if let Err(e) = spirv_val(&dir.join(format!("{id}.{stage}.spv"))) {
                let (v, p) = (&vs[id], &ps[ps.len() - 1 - id]);
                failures.push(format!(
                    "linked {stage} of {} + {}: spirv-val: {e}",
                    labels[v.0], labels[p.0]
                ));
            }
        }
        n += 1;
    }
    assert!(n > 0, "no shader pair linked");
    println!("spirv: {n} vertex/pixel pairs linked with MOJOSHADER_linkSPIRVShaders, both modules validated");
    failures
}

#[test]
fn face_against_mojoshader_on_the_corpus() {
    let Some(src) = cbuild::mojoshader_dir(common::skipped) else {
        return;
    };
    let Some(streams) = common::all_streams() else {
        return;
    };
    let mut streams = streams;
    if let Some(recs) = common::records("fxc10_listings.jsonl") {
        for r in recs {
            if r.get("dwords").is_some() {
                streams.push((
                    "fxc10_listings.jsonl".into(),
                    common::label(&r),
                    common::dwords(&r["dwords"]),
                ));
            }
        }
    }
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("mojoshader_differential");
    let _ = std::fs::remove_dir_all(&out);
    std::fs::create_dir_all(&out).unwrap();
    let mojo = build_mojoshader("parse_dump", &src, &out, "-O1");
    let face = build_face("parse_dump", &out, "-O1");

    let mut list = String::new();
    let mut labels = Vec::new();
    for (i, (file, label, tokens)) in streams.iter().enumerate() {
        let p = out.join(format!("shader{i}.bin"));
        let bytes: Vec<u8> = tokens.iter().flat_map(|w| w.to_le_bytes()).collect();
        std::fs::write(&p, bytes).unwrap();
        list.push_str(&format!("{}\n", p.display()));
        labels.push(format!("{file} {label}"));
    }

    let mut report = String::new();
    let mut hard: Vec<String> = Vec::new();
    for profile in ["bytecode", "d3d", "glsl", "spirv"] {
        let m = run(&mojo, profile, &out.join(format!("mojo-{profile}")), &list);
        let f = run(&face, profile, &out.join(format!("face-{profile}")), &list);
        let (mut mojo_ok, mut face_ok, mut face_only, mut both) = (0, 0, 0, 0);
        let mut equal: BTreeMap<&str, usize> = BTreeMap::new();
        let mut examples: BTreeMap<&str, String> = BTreeMap::new();
        let mut refused = Vec::new();
        for (key, fm) in &f {
            if key == "unknown-profile" || key.starts_with("link ") {
                let mm = &m[key];
                assert_eq!(fm.get("error"), mm.get("error"), "unknown profile error");
                continue;
            }
            let idx: usize = key.split(' ').next().unwrap().parse().unwrap();
            let label = &labels[idx];
            let mm = &m[key];
            if let Some(leak) = fm.get("leak") {
                hard.push(format!(
                    "{profile} {label}: the face leaked {leak:?} allocations"
                ));
            }
            let m_accepts = mm["errors"] == ["0"];
            let f_accepts = fm["errors"] == ["0"];
            mojo_ok += m_accepts as usize;
            face_ok += f_accepts as usize;
            if m_accepts && !f_accepts {
                hard.push(format!(
                    "{profile} {label}: MojoShader accepts, the face refuses: {:?}",
                    fm.get("error")
                ));
            }
            if !m_accepts && f_accepts {
                face_only += 1;
            }
            if f_accepts && profile == "spirv" {
                let spv = out.join(format!("face-spirv/{idx}.spv"));
                if let Err(e) = spirv_val(&spv) {
                    hard.push(format!("spirv {label}: spirv-val: {e}"));
                }
            }
            if !f_accepts {
                refused.push(format!("{profile} {label}: {:?}", fm.get("error")));
            }
            if !(m_accepts && f_accepts) {
                continue;
            }
            both += 1;
            for field in FIELDS
                .into_iter()
                .filter(|&f| profile != "spirv" || f != "blob")
            {
                let (a, b) = (mm.get(field), fm.get(field));
                if a == b {
                    *equal.entry(field).or_default() += 1;
                } else {
                    examples
                        .entry(field)
                        .or_insert_with(|| format!("{label}: MojoShader {a:?}, face {b:?}"));
                    if matches!(
                        field,
                        "shader"
                            | "swizzle"
                            | "symbol"
                            | "profile"
                            | "preshader"
                            | "constant"
                            | "sampler"
                            | "attribute"
                            | "output"
                            | "instruction_count"
                            | "mainfn"
                            | "uniform"
                    ) || (profile == "bytecode" && field == "blob")
                    {
                        hard.push(format!(
                            "{profile} {label}: {field} differs: MojoShader {a:?}, face {b:?}"
                        ));
                    }
                }
            }
        }
        if profile == "spirv" {
            hard.extend(link_pairs(&face, &out, &f, &labels));
        }
        report.push_str(&format!(
            "{profile}: {} shaders; MojoShader accepts {mojo_ok}, the face {face_ok} ({face_only} MojoShader refuses); both {both}; equal:",
            f.len() - 1
        ));
        for (field, n) in &equal {
            report.push_str(&format!(" {field} {n}"));
        }
        report.push('\n');
        for r in &refused {
            report.push_str(&format!("  the face refuses {r}\n"));
        }
        for (field, ex) in &examples {
            report.push_str(&format!("  first {field} difference: {ex}\n"));
        }
    }
    println!("{report}");
    std::fs::write(out.join("report.txt"), &report).unwrap();
    assert!(
        hard.is_empty(),
        "{} failures:\n{}\n\n{report}",
        hard.len(),
        hard[..hard.len().min(40)].join("\n")
    );
}
