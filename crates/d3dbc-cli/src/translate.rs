//! `d3dbc translate`: bytecode (or assembly text) → SPIR-V, WGSL, GLSL, MSL or HLSL
//! through `d3dbc-naga`, with the shader's interface as JSON on request.

use std::path::{Path, PathBuf};

use clap::Args;
use d3dbc::diag::Severity;
use d3dbc::{input, Shader};
use d3dbc_naga::{Target, TranslateOptions};

use crate::batch::{self, Sink};
use crate::BatchArgs;

/// Arguments of `translate`.
#[derive(Args, Debug)]
pub struct TranslateArgs {
    #[command(flatten)]
    pub batch: BatchArgs,
    /// Output language: spirv, wgsl, glsl, msl, hlsl.
    #[arg(long, short = 't', value_parser = parse_target)]
    pub target: Target,
    /// Translation options as JSON (`d3dbc_naga::TranslateOptions`: `semantics` and
    /// `pipeline`; missing keys keep their defaults).
    #[arg(long, value_name = "FILE.json")]
    pub options: Option<PathBuf>,
    /// Also write `<stem>.interface.json` (bindings, vertex inputs, varyings, outputs).
    #[arg(long)]
    pub interface: bool,
}

fn parse_target(s: &str) -> Result<Target, String> {
    s.parse()
}

/// Decodes bytecode in any form `input::read_any` knows, or assembles text.
fn load(path: &Path) -> Result<Shader, String> {
    let bytes = batch::read_input(path)?;
    let shader = match input::read_any(&bytes) {
        Ok(found) if found.len() == 1 => {
            Shader::decode(&found[0].tokens).map_err(|e| e.to_string())?
        }
        Ok(found) if found.len() > 1 => {
            return Err(format!(
                "{} shaders in one input; translate takes one per file",
                found.len()
            ))
        }
        _ => {
            let text = std::str::from_utf8(&bytes).map_err(|_| "not bytecode or assembly text")?;
            let opts = d3dbc::asm::Options {
                file_name: batch::display_name(path),
                ..Default::default()
            };
            d3dbc::asm::assemble(text, &opts).map_err(|e| e.to_string())?
        }
    };
    if let Some(f) = d3dbc::validate::validate(&shader)
        .into_iter()
        .find(|f| f.severity == Severity::Error)
    {
        return Err(format!("DWORD {}: invalid shader: {}", f.offset, f.message));
    }
    Ok(shader)
}

/// Runs the verb; true when every input translated.
pub fn run(args: &TranslateArgs) -> bool {
    let options: TranslateOptions = match &args.options {
        None => TranslateOptions::default(),
        Some(p) => match std::fs::read_to_string(p)
            .map_err(|e| e.to_string())
            .and_then(|t| serde_json::from_str(&t).map_err(|e| e.to_string()))
        {
            Ok(o) => o,
            Err(e) => {
                eprintln!("{}: {e}", p.display());
                return false;
            }
        },
    };
    let sink = Sink::for_batch(&args.batch);
    batch::for_each(&args.batch.files, |path| {
        let shader = load(path)?;
        let t = d3dbc_naga::translate(&shader, &options).map_err(|e| e.to_string())?;
        let data = t.emit(args.target).map_err(|e| e.to_string())?;
        let ext = args.target.extension(t.interface.stage);
        sink.write(path, ext, &data)?;
        if args.interface {
            let json = serde_json::to_string_pretty(&t.interface).map_err(|e| e.to_string())?;
            let dir = match (&args.batch.output, &args.batch.out_dir) {
                (Some(o), _) => o.parent().map(Path::to_path_buf).unwrap_or_default(),
                (None, Some(d)) => d.clone(),
                (None, None) => PathBuf::from("."),
            };
            let stem = path
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_else(|| "stdin".into());
            let p = dir.join(format!("{stem}.interface.json"));
            std::fs::write(&p, json).map_err(|e| format!("{}: {e}", p.display()))?;
        }
        Ok(())
    })
}
