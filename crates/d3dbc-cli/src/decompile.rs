//! `d3dbc decompile`: bytecode (or assembly text) → D3D9 HLSL (`d3dbc-hlsl`), one
//! `.hlsl` per input. `--check` compiles each result again (`d3dbc_hlsl::recompile`)
//! and runs original and recompiled shader on the executor over random input sets
//! (`d3dbc_exec::equivalence::check`), reporting per shader on standard error:
//! equivalent, differs (the first differing output and its inputs), or did not compile
//! (the compiler's message).

use std::path::PathBuf;

use clap::Args;
use d3dbc_exec::equivalence::{self, Verdict};
use d3dbc_hlsl::Compiler;

use crate::batch::{self, Input, Progress, Target};
use crate::load::{self, ValidityArgs};
use crate::BatchArgs;

/// Arguments of `decompile`.
#[derive(Args, Debug)]
pub struct DecompileArgs {
    #[command(flatten)]
    pub batch: BatchArgs,
    /// Compile each result again and run it beside the original on the CPU executor
    /// over random input sets; prints equivalent / differs / did not compile per
    /// shader on standard error, exit status 1 unless all are equivalent.
    #[arg(long)]
    pub check: bool,
    /// The HLSL compiler --check runs (default: vkd3d-compiler on PATH, else the file
    /// D3DBC_VKD3D_COMPILER names).
    #[arg(long, value_name = "PATH", requires = "check")]
    pub compiler: Option<PathBuf>,
    /// Random input sets --check runs per shader (at least 16).
    #[arg(long, value_name = "N", default_value_t = 32, requires = "check")]
    pub sets: usize,
    #[command(flatten)]
    pub validity: ValidityArgs,
}

/// The check of one input, as a line for standard error; `Ok` when equivalent.
fn check(
    input: &Input,
    shader: &d3dbc::Shader,
    compiler: &Compiler,
    sets: usize,
) -> Result<String, String> {
    let name = input.display();
    let r = d3dbc_hlsl::recompile(shader, compiler).map_err(|e| format!("{name}: {e}"))?;
    let opts = equivalence::Options {
        sets,
        ..Default::default()
    };
    match equivalence::check(shader, &r.shader, &opts) {
        Ok(Verdict::Equivalent { sets, exact }) => Ok(format!(
            "{name}: equivalent ({sets} random input sets, {}, recompiled as {})",
            if exact { "bit-exact" } else { "within 1e-4" },
            r.decompiled.profile
        )),
        Ok(Verdict::Differs(d)) => Err(format!("{name}: differs: {d}")),
        Err(e) => Err(format!("{name}: cannot compare: {e}")),
    }
}

/// Runs the verb: `Ok(true)` when every input decompiled (and, with `--check`, proved
/// equivalent), `Err` for usage errors.
pub fn run(args: &DecompileArgs) -> Result<bool, String> {
    let compiler = if args.check {
        Some(Compiler::find(args.compiler.as_deref()).ok_or_else(|| {
            format!(
                "--check needs an HLSL compiler: vkd3d-compiler on PATH, {} naming one, or \
                 --compiler PATH (../shared/tools/build-vkd3d-compiler.sh DIR builds it)",
                d3dbc_hlsl::compile::ENV
            )
        })?)
    } else {
        None
    };
    if args.sets < 16 {
        return Err(format!("--sets {}: at least 16", args.sets));
    }
    let inputs = batch::expand(&args.batch.files, &args.batch.ext.ext, batch::Reads::Both)?;
    let target = Target::plan(&args.batch, inputs.len(), false)?;
    let mut checked_ok = true;
    let ok = batch::convert_all(
        &inputs,
        &target,
        None,
        |input, progress: &Progress| {
            let shader = load::load(
                &input.path,
                args.validity,
                Some("decompile takes one per file"),
            )?
            .shader;
            let d = d3dbc_hlsl::decompile(&shader).map_err(|e| e.to_string())?;
            if let Some(c) = &compiler {
                match check(input, &shader, c, args.sets) {
                    Ok(line) => progress.eprintln(&line),
                    Err(line) => {
                        checked_ok = false;
                        progress.eprintln(&line);
                    }
                }
            }
            Ok(("hlsl".to_string(), d.hlsl.into_bytes(), ()))
        },
        |_, _, _| true,
    )?;
    Ok(ok && checked_ok)
}
