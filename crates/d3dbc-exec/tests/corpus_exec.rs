//! Every valid corpus shader executes: vertex shaders over generated inputs, pixel
//! shaders over a rendered 8×8 quad with default textures. Runs are deterministic (two
//! runs agree bit for bit), never panic, and end (the instruction budget turns a runaway
//! loop into a clean error).
#[path = "../../d3dbc/tests/common/mod.rs"]
mod common;

use d3dbc::diag::Severity;
use d3dbc::{asm, validate, Shader};
use d3dbc_exec::exec::Program;
use d3dbc_exec::render::{Options, Renderer};
use d3dbc_exec::{draw::Constants, quick};

const BUDGET: u64 = 100_000;

/// Executes one shader; `Ok(true)` = ran to the end, `Ok(false)` = a clean error.
fn execute(tokens: &[u32]) -> Result<bool, String> {
    let shader = Shader::decode(tokens).map_err(|e| e.to_string())?;
    let opts = Options {
        budget: BUDGET,
        ..Options::default()
    };
    if shader.version.is_vertex() {
        let prog = match Program::new(&shader) {
            Ok(p) => p,
            Err(e) => return Err(e.to_string()),
        };
        let consts = quick::ctab_defaults(&shader);
        let a = quick::run_vertex(&prog, &consts, &opts.sem, BUDGET);
        let b = quick::run_vertex(&prog, &Constants { ..consts }, &opts.sem, BUDGET);
        match (a, b) {
            (Ok(a), Ok(b)) => {
                let bits = |l: &d3dbc_exec::exec::Lanes| -> Vec<u32> {
                    l.regs
                        .iter()
                        .flatten()
                        .flatten()
                        .map(|f| f.to_bits())
                        .collect()
                };
                assert_eq!(bits(&a), bits(&b), "nondeterministic");
                Ok(true)
            }
            (Err(a), Err(b)) => {
                assert_eq!(a, b);
                Ok(false)
            }
            _ => panic!("nondeterministic outcome"),
        }
    } else {
        let scene = quick::fullscreen(tokens, 8, 8, &[])?;
        let run = || {
            Renderer::run_scene(&scene, opts, None, |_, _| {}).map(|r| r.targets[0].pixels.clone())
        };
        match (run(), run()) {
            (Ok(a), Ok(b)) => {
                assert_eq!(a, b, "nondeterministic");
                Ok(true)
            }
            (Err(a), Err(b)) => {
                assert_eq!(a, b);
                Ok(false)
            }
            _ => panic!("nondeterministic outcome"),
        }
    }
}

fn valid(tokens: &[u32]) -> bool {
    match Shader::decode(tokens) {
        Ok(s) => !validate::validate(&s)
            .iter()
            .any(|f| f.severity == Severity::Error),
        Err(_) => false,
    }
}

#[test]
fn every_valid_corpus_shader_executes() {
    let Some(streams) = common::all_streams() else {
        return;
    };
    let mut shaders: Vec<(String, Vec<u32>)> = streams
        .into_iter()
        .map(|(f, l, t)| (format!("{f} {l}"), t))
        .collect();
    for file in ["oblivion_disasm.jsonl", "helix_asm.jsonl"] {
        for r in common::records(file).unwrap() {
            let text = r["text"].as_str().unwrap_or("");
            if let Ok(s) = asm::assemble(text, &asm::Options::default()) {
                shaders.push((format!("{file} {}", common::label(&r)), s.encode()));
            }
        }
    }
    let (mut ran, mut clean_errors, mut invalid) = (0, 0, 0);
    let mut failures = Vec::new();
    for (label, tokens) in &shaders {
        if !valid(tokens) {
            invalid += 1;
            continue;
        }
        match execute(tokens) {
            Ok(true) => ran += 1,
            Ok(false) => clean_errors += 1,
            Err(e) => failures.push(format!("{label}: {e}")),
        }
    }
    eprintln!(
        "corpus execution: {ran} ran, {clean_errors} stopped by the budget, {invalid} invalid skipped, {} failed",
        failures.len()
    );
    assert!(ran > 3000, "only {ran} shaders ran");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
