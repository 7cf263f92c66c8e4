//! Shared by the execution tests: one shader run on the executor the way a conformance
//! check runs it — vertex shaders over generated inputs, pixel shaders over a rendered
//! 8×8 quad with default textures — twice, to check the runs agree bit for bit.

use d3dbc::Severity;
use d3dbc::{validate, Shader};
use d3dbc_exec::exec::Program;
use d3dbc_exec::render::{Options, Renderer};
use d3dbc_exec::{draw::Constants, quick};

const BUDGET: u64 = 100_000;

/// Executes one shader; `Ok(true)` = ran to the end, `Ok(false)` = a clean error.
pub fn execute(tokens: &[u32]) -> Result<bool, String> {
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
                assert!(a.same_bits(&b), "nondeterministic");
                Ok(true)
            }
            (Err(a), Err(b)) => {
                assert_eq!(a, b);
                Ok(false)
            }
            _ => panic!("nondeterministic outcome"),
        }
    } else {
        let scene = quick::fullscreen(tokens, None, 8, 8, &[]).map_err(|e| e.to_string())?;
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

/// Whether `tokens` decode to a shader the validator accepts.
pub fn valid(tokens: &[u32]) -> bool {
    match Shader::decode(tokens) {
        Ok(s) => !validate::validate(&s)
            .iter()
            .any(|f| f.severity == Severity::Error),
        Err(_) => false,
    }
}
