//! Every valid corpus shader emits through the direct SPIR-V back end, the output passes
//! `spirv-val --target-env vulkan1.0`, and its interface is the naga path's, unlinked and
//! linked (every vertex/pixel pair of the execution oracles), under the default options
//! and under the option spread (every `Semantics` and `PipelineState` field at each of
//! its values: fog, alpha test, clip planes, point expansion and sprites, flat shading,
//! the semantics choices), each shader under one more set in rotation.
//! `spirv-val` is required under CI and skipped visibly elsewhere.

#[path = "../../d3dbc/tests/common/mod.rs"]
mod common;
#[path = "../../d3dbc/tests/common/option_spread.rs"]
mod option_spread;

use std::path::PathBuf;
use std::process::Command;

use d3dbc::Severity;
use d3dbc::{asm, Shader};
use d3dbc_spirv::{EmitFlags, TranslateOptions};
use rayon::prelude::*;

fn valid(s: &Shader) -> bool {
    !d3dbc::validate::validate(s)
        .iter()
        .any(|f| f.severity == Severity::Error)
}

/// Every valid shader of the corpus (label, shader), and the vertex/pixel pairs of the
/// execution oracles.
type Pairs = Vec<(String, Shader, Shader)>;
fn corpus() -> Option<(Vec<(String, Shader)>, Pairs)> {
    let mut out = Vec::new();
    let mut pairs = Vec::new();
    let dec = |toks: Vec<u32>| Shader::decode(&toks).ok().filter(valid);
    for file in [
        "binaries.jsonl",
        "wine_d3d9_blobs.jsonl",
        "vkd3d_d3dbc.jsonl",
    ] {
        for r in common::records(file)? {
            if let Some(s) = dec(common::dwords(&r["dwords"])) {
                out.push((format!("{file} {}", common::label(&r)), s));
            }
        }
    }
    for file in ["vkd3d_exec.jsonl", "wine_exec.jsonl"] {
        for r in common::records(file)? {
            let mut both = Vec::new();
            for key in ["vs_dwords", "ps_dwords"] {
                if r[key].is_array() {
                    if let Some(s) = dec(common::dwords(&r[key])) {
                        out.push((format!("{file} {} {key}", common::label(&r)), s.clone()));
                        both.push(s);
                    }
                }
            }
            if let [vs, ps] = &both[..] {
                pairs.push((common::label(&r), vs.clone(), ps.clone()));
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
                    out.push((format!("{file} {}", common::label(&r)), s));
                }
            }
        }
    }
    Some((out, pairs))
}

fn spirv_val_present() -> bool {
    let ok = Command::new("spirv-val").arg("--version").output().is_ok();
    if !ok {
        let ci = std::env::var("CI").is_ok_and(|v| v == "true" || v == "1");
        assert!(!ci, "spirv-val missing: CI=true requires it");
        eprintln!("SKIPPED: spirv-val not installed; SPIR-V validation is skipped");
    }
    ok
}

fn bytes(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// `spirv-val` over `words`; the message on failure.
fn spirv_val(dir: &std::path::Path, name: &str, words: &[u32]) -> Result<(), String> {
    let f: PathBuf = dir.join(format!("{name}.spv"));
    std::fs::write(&f, bytes(words)).unwrap();
    let o = Command::new("spirv-val")
        .args(["--target-env", "vulkan1.0"])
        .arg(&f)
        .output()
        .expect("spirv-val runs");
    let _ = std::fs::remove_file(&f);
    if o.status.success() {
        Ok(())
    } else {
        Err(String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr))
    }
}

/// The option spread (`d3dbc/tests/common/option_spread.rs`): every `Semantics` and
/// `PipelineState` field at each of its values in some set; set 0 is the defaults.
fn variants() -> Vec<TranslateOptions> {
    option_spread::all()
}

/// Every `stride`-th element (env `D3DBC_SPIRV_STRIDE`, default `default`).
fn stride(default: usize) -> usize {
    std::env::var("D3DBC_SPIRV_STRIDE")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
        .max(1)
}

#[test]
fn every_corpus_shader_emits_valid_spirv_with_the_naga_interface() {
    let Some((shaders, pairs)) = corpus() else {
        return;
    };
    let val = spirv_val_present();
    let dir = std::env::temp_dir().join(format!("d3dbc-spirv-corpus-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let opts = variants();
    let st = stride(1);
    // (label, option set): every shader under the defaults, and every `st`-th under one
    // more set of the spread in rotation.
    let jobs: Vec<(usize, usize)> = (0..shaders.len())
        .flat_map(|i| {
            let more = (i % st == 0).then(|| (i, option_spread::rotation(i / st)));
            std::iter::once((i, 0)).chain(more)
        })
        .collect();
    let failures: Vec<String> = jobs
        .par_iter()
        .filter_map(|&(i, o)| {
            let (label, s) = &shaders[i];
            let t = match d3dbc_spirv::translate(s, &opts[o]) {
                Ok(t) => t,
                Err(e) => return Some(format!("{label} (options {o}): {e}")),
            };
            let n = d3dbc_naga::translate(s, &opts[o]).expect("naga path translates");
            if t.interface != n.interface {
                return Some(format!(
                    "{label} (options {o}): interface differs\n direct {:?}\n naga   {:?}",
                    t.interface, n.interface
                ));
            }
            if val {
                if let Err(m) = spirv_val(&dir, &format!("s{i}_{o}"), &t.words) {
                    return Some(format!("{label} (options {o}): spirv-val: {m}"));
                }
            }
            None
        })
        .collect();
    let pair_failures: Vec<String> = pairs
        .par_iter()
        .enumerate()
        .filter_map(|(i, (label, vs, ps))| {
            let o = &opts[i % opts.len()];
            let (v, p) = match d3dbc_spirv::link(vs, ps, o, EmitFlags::default()) {
                Ok(x) => x,
                Err(e) => return Some(format!("pair {label}: {e}")),
            };
            let mut nv = d3dbc_naga::translate(vs, o).unwrap();
            let mut np = d3dbc_naga::translate(ps, o).unwrap();
            d3dbc_naga::link(&mut nv, &mut np).unwrap();
            if v.interface != nv.interface || p.interface != np.interface {
                return Some(format!(
                    "pair {label}: linked interface differs\n direct {:?}\n naga   {:?}\n direct {:?}\n naga   {:?}",
                    v.interface, nv.interface, p.interface, np.interface
                ));
            }
            if val {
                for (k, w) in [("v", &v.words), ("p", &p.words)] {
                    if let Err(m) = spirv_val(&dir, &format!("pair{i}{k}"), w) {
                        return Some(format!("pair {label} {k}: spirv-val: {m}"));
                    }
                }
            }
            None
        })
        .collect();
    let _ = std::fs::remove_dir_all(&dir);
    eprintln!(
        "{} shaders × options: {}/{} emitted{} with the naga interface; {} linked pairs: {}/{}",
        shaders.len(),
        jobs.len() - failures.len(),
        jobs.len(),
        if val { ", spirv-val accepted," } else { "" },
        pairs.len(),
        pairs.len() - pair_failures.len(),
        pairs.len()
    );
    for f in failures.iter().chain(&pair_failures).take(15) {
        eprintln!("FAIL {f}");
    }
    assert!(
        shaders.len() > 4000,
        "only {} valid corpus shaders",
        shaders.len()
    );
    assert!(failures.is_empty() && pair_failures.is_empty());
}
