//! `d3dbc translate`: bytecode (or assembly text) → SPIR-V, WGSL, GLSL, MSL or HLSL,
//! with the shader's interface as JSON on request. SPIR-V comes from the direct back end
//! (`d3dbc-spirv`) unless `--via naga` asks for `d3dbc-naga`'s; the text targets always
//! go through naga. Both give the same interface.

use std::path::PathBuf;

use clap::Args;
use d3dbc_naga::{HlslModel, Target as Lang, TranslateOptions};

use crate::batch::{self, Input, Target};
use crate::load::{self, ValidityArgs};
use crate::BatchArgs;

/// Arguments of `translate`.
#[derive(Args, Debug)]
pub struct TranslateArgs {
    #[command(flatten)]
    pub batch: BatchArgs,
    /// Output language: spirv, wgsl, glsl, msl, hlsl.
    #[arg(long, short = 't', value_parser = parse_target)]
    pub target: Lang,
    /// Translation options as JSON (`d3dbc_naga::TranslateOptions`: `semantics` and
    /// `pipeline`; missing keys keep their defaults).
    #[arg(long, value_name = "FILE.json")]
    pub options: Option<PathBuf>,
    /// Also write the shader's interface (bindings, vertex inputs, varyings, outputs) as
    /// JSON beside each output: `-o out.wgsl` gives `out.interface.json`, `--out-dir`
    /// gives `DIR/<name>.interface.json`. Needs -o FILE or --out-dir.
    #[arg(long)]
    pub interface: bool,
    /// Back end for SPIR-V: `direct` (d3dbc-spirv, the default: fast) or `naga`
    /// (d3dbc-naga through naga's validator and writer). Text targets always use naga.
    #[arg(long, value_name = "direct|naga", default_value = "direct", value_parser = ["direct", "naga"])]
    pub via: String,
    /// HLSL flavour: `5_0` (the default: static `register(tN)`/`register(sN)`/`register(bN)`
    /// bindings, for shader model 5 compilers, fxc and Direct3D 11) or `6_0` (naga's
    /// sampler-heap layout for Direct3D 12). `--interface` states the registers.
    #[arg(long, value_name = "5_0|6_0", default_value = "5_0", value_parser = parse_model)]
    pub hlsl_model: HlslModel,
    #[command(flatten)]
    pub validity: ValidityArgs,
}

fn parse_target(s: &str) -> Result<Lang, String> {
    s.parse()
}

fn parse_model(s: &str) -> Result<HlslModel, String> {
    s.parse()
}

/// One translated input: output extension, the translated text or words, and the
/// interface JSON when asked for.
type Translated = batch::Converted<Option<String>>;

fn translate_one(
    input: &Input,
    args: &TranslateArgs,
    options: &TranslateOptions,
) -> Result<Translated, String> {
    let shader = load::load(
        &input.path,
        args.validity,
        Some("translate takes one per file"),
    )?
    .shader;
    if args.target == Lang::Spirv && args.via == "direct" {
        let t = d3dbc_spirv::translate(&shader, options).map_err(|e| e.to_string())?;
        let iface = if args.interface {
            Some(serde_json::to_string_pretty(&t.interface).map_err(|e| e.to_string())?)
        } else {
            None
        };
        let data = t.words.iter().flat_map(|w| w.to_le_bytes()).collect();
        return Ok(("spv".to_string(), data, iface));
    }
    let t = d3dbc_naga::translate(&shader, options).map_err(|e| e.to_string())?;
    let data = match args.target {
        Lang::Hlsl => t.hlsl_with(args.hlsl_model).map(String::into_bytes),
        target => t.emit(target),
    }
    .map_err(|e| e.to_string())?;
    let ext = args.target.extension(t.interface.stage);
    let iface = if args.interface {
        // The HLSL target also states its registers (`"hlsl"`: `b0`, `t1`, `s1`, …).
        let mut json = serde_json::to_value(&t.interface).map_err(|e| e.to_string())?;
        if args.target == Lang::Hlsl {
            json["hlsl"] = serde_json::to_value(t.interface.hlsl(args.hlsl_model))
                .map_err(|e| e.to_string())?;
        }
        Some(serde_json::to_string_pretty(&json).map_err(|e| e.to_string())?)
    } else {
        None
    };
    Ok((ext.to_string(), data, iface))
}

/// Where `--interface` writes: beside the output file, or `<name>.interface.json` in
/// the output directory. Never the current directory: with standard output as the
/// target, `--interface` is a usage error (checked in [`run`]).
fn interface_path(target: &Target, input: &Input) -> Option<PathBuf> {
    match target {
        Target::File(p) => Some(p.with_extension("interface.json")),
        Target::Dir(d) => Some(d.join(input.rel.with_extension("interface.json"))),
        Target::Stdout => None,
    }
}

/// Runs the verb: `Ok(true)` when every input translated, `Err` for usage errors.
pub fn run(args: &TranslateArgs) -> Result<bool, String> {
    let options: TranslateOptions = match &args.options {
        None => TranslateOptions::default(),
        Some(p) => std::fs::read_to_string(p)
            .map_err(|e| e.to_string())
            .and_then(|t| serde_json::from_str(&t).map_err(|e| e.to_string()))
            .map_err(|e| format!("--options {}: {e}", p.display()))?,
    };
    let inputs = batch::expand(&args.batch.files, &args.batch.ext.ext, batch::Reads::Both)?;
    let target = Target::plan(&args.batch, inputs.len(), false)?;
    if args.interface && target == Target::Stdout {
        return Err(
            "--interface writes <name>.interface.json beside the output: \
                    give -o FILE or --out-dir DIR (nothing is written into the current \
                    directory unasked)"
                .into(),
        );
    }
    let binary = (args.target == Lang::Spirv)
        .then_some("refusing to write SPIR-V to a terminal; use -o FILE or a pipe");
    batch::convert_all(
        &inputs,
        &target,
        binary,
        |input, _| translate_one(input, args, &options),
        |input, iface, progress| {
            let Some(json) = iface else { return true };
            let Some(p) = interface_path(&target, input) else {
                return true;
            };
            std::fs::write(&p, json)
                .map_err(|e| progress.eprintln(&format!("{}: {e}", p.display())))
                .is_ok()
        },
    )
}
