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
    /// Technique of an effect input (name or index; default the first): its pass
    /// translates as the linked vertex/pixel pair it draws with.
    #[arg(long)]
    pub technique: Option<String>,
    /// Pass of the technique (name or index; default 0).
    #[arg(long)]
    pub pass: Option<String>,
    /// Every pass of every technique of an effect input (outputs named
    /// `NAME.TECHNIQUE.PASS.vs.EXT` / `.ps.EXT`).
    #[arg(long, conflicts_with_all = ["technique", "pass"])]
    pub all_passes: bool,
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
        // The HLSL target also states its registers (`"hlsl"`: `b0`, `t1`, `s1`, …),
        // after the interface's own fields, in their order (as the direct path writes).
        #[derive(serde::Serialize)]
        struct WithHlsl<'a, H: serde::Serialize> {
            #[serde(flatten)]
            interface: &'a d3dbc::target::interface::Interface,
            #[serde(skip_serializing_if = "Option::is_none")]
            hlsl: Option<H>,
        }
        let json = WithHlsl {
            interface: &t.interface,
            hlsl: (args.target == Lang::Hlsl).then(|| t.interface.hlsl(args.hlsl_model)),
        };
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
        Target::Dir(d) => Some(d.join(input.out_name("interface.json"))),
        Target::Stdout => None,
    }
}

/// One translated stage of an effect pass: where it goes (`NAME[.T.P]`, the stage) and
/// what.
struct Part {
    base: String,
    stage: &'static str,
    ext: String,
    data: Vec<u8>,
    iface: Option<String>,
}

/// A technique or pass name as a file-name part (other characters as `_`; unnamed:
/// its index).
fn file_part(name: &str, index: usize) -> String {
    if name.is_empty() {
        return index.to_string();
    }
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// The interface JSON of one stage of a pass: the shader interface plus which effect
/// parameter each constant register holds.
fn pass_interface(
    iface: &d3dbc::target::interface::Interface,
    constants: &[d3dbc::fx::pass::NamedRegisters],
    technique: &str,
    pass: &str,
) -> Result<String, String> {
    let mut v = serde_json::to_value(iface).map_err(|e| e.to_string())?;
    if let Some(m) = v.as_object_mut() {
        m.insert("technique".into(), technique.into());
        m.insert("pass".into(), pass.into());
        m.insert(
            "parameters".into(),
            serde_json::to_value(constants).map_err(|e| e.to_string())?,
        );
    }
    serde_json::to_string_pretty(&v).map_err(|e| e.to_string())
}

/// Translates the chosen passes of an effect input (`Err`: `(usage error?, message)`).
fn translate_effect(
    input: &Input,
    bytes: &[u8],
    args: &TranslateArgs,
    options: &TranslateOptions,
) -> Result<Vec<Part>, (bool, String)> {
    use d3dbc::fx::Effect;
    let effect = Effect::parse(bytes).map_err(|e| (false, e.to_string()))?;
    let passes: Vec<(usize, usize)> = if args.all_passes {
        effect
            .techniques
            .iter()
            .enumerate()
            .flat_map(|(t, tech)| (0..tech.passes.len()).map(move |p| (t, p)))
            .collect()
    } else {
        let t = effect
            .find_technique(args.technique.as_deref().unwrap_or("0"))
            .map_err(|e| (true, format!("--technique: {e}")))?;
        let p = effect
            .find_pass(t, args.pass.as_deref().unwrap_or("0"))
            .map_err(|e| (true, format!("--pass: {e}")))?;
        vec![(t, p)]
    };
    let stem = input
        .rel
        .file_stem()
        .map_or_else(|| "out".into(), |s| s.to_string_lossy().into_owned());
    let values = d3dbc::fx::apply::Values::default();
    let mut parts = Vec::new();
    for (t, p) in passes {
        let (tech, pass) = (&effect.techniques[t], &effect.techniques[t].passes[p]);
        let base = if args.all_passes {
            format!(
                "{stem}.{}.{}",
                file_part(&tech.name, t),
                file_part(&pass.name, p)
            )
        } else {
            stem.clone()
        };
        let at = format!("technique {} pass {}", tech.name, pass.name);
        let e = |m: String| (false, format!("{at}: {m}"));
        let shaders = effect.pass_shaders(t, p, &values).map_err(e)?;
        for (s, kind) in [(&shaders.vertex, "vertex"), (&shaders.pixel, "pixel")] {
            if let Some(s) = s {
                load::check_validity(
                    &s.shader,
                    &format!("{} ({at}, {kind} shader)", input.display()),
                    args.validity,
                )
                .map_err(e)?;
            }
        }
        if shaders.vertex.is_none() && shaders.pixel.is_none() {
            return Err(e(
                "the pass sets no shader (fixed function): nothing to translate".into(),
            ));
        }
        let iface = |i: &d3dbc::target::interface::Interface,
                     c: &[d3dbc::fx::pass::NamedRegisters]| {
            args.interface
                .then(|| pass_interface(i, c, &tech.name, &pass.name))
                .transpose()
                .map_err(e)
        };
        if args.target == Lang::Spirv && args.via == "direct" {
            let flags = d3dbc_spirv::EmitFlags::default();
            let (v, f) = match (&shaders.vertex, &shaders.pixel) {
                (Some(v), Some(f)) => {
                    let (a, b) = d3dbc_spirv::link(&v.shader, &f.shader, options, flags)
                        .map_err(|x| e(x.to_string()))?;
                    (Some(a), Some(b))
                }
                (v, f) => {
                    let one = |s: &Option<d3dbc::fx::pass::StageShader>| {
                        s.as_ref()
                            .map(|s| d3dbc_spirv::translate(&s.shader, options))
                            .transpose()
                            .map_err(|x| e(x.to_string()))
                    };
                    (one(v)?, one(f)?)
                }
            };
            for (t, s, stage) in [(v, &shaders.vertex, "vs"), (f, &shaders.pixel, "ps")] {
                let (Some(t), Some(s)) = (t, s) else { continue };
                parts.push(Part {
                    base: base.clone(),
                    stage,
                    ext: "spv".into(),
                    data: t.words.iter().flat_map(|w| w.to_le_bytes()).collect(),
                    iface: iface(&t.interface, &s.constants)?,
                });
            }
            continue;
        }
        let tr = d3dbc_naga::translate_pass(&effect, t, p, &values, options)
            .map_err(|x| e(x.to_string()))?;
        for (s, stage) in [(tr.vertex, "vs"), (tr.pixel, "ps")] {
            let Some(s) = s else { continue };
            let data = s
                .translation
                .emit(args.target)
                .map_err(|x| e(x.to_string()))?;
            parts.push(Part {
                base: base.clone(),
                stage,
                ext: args.target.extension(s.translation.interface.stage).into(),
                data,
                iface: iface(&s.translation.interface, &s.constants)?,
            });
        }
    }
    Ok(parts)
}

/// Writes an effect's parts: `NAME.vs.EXT`/`NAME.ps.EXT` beside `-o FILE` or under
/// `--out-dir`, or `// NAME vs` sections on standard output (text targets only).
fn write_parts(target: &Target, input: &Input, parts: &[Part]) -> Result<(), String> {
    let dir_and_stem = |base: &str| -> Option<PathBuf> {
        match target {
            Target::File(p) => {
                let stem = p
                    .file_stem()
                    .map_or_else(|| "out".into(), |s| s.to_string_lossy().into_owned());
                // `-o out.wgsl` names the single pass `out`; several keep their suffix.
                let suffix = base.split_once('.').map_or("", |(_, rest)| rest);
                let name = if suffix.is_empty() {
                    stem
                } else {
                    format!("{stem}.{suffix}")
                };
                Some(p.with_file_name(name))
            }
            Target::Dir(d) => Some(d.join(input.rel.with_file_name(base))),
            Target::Stdout => None,
        }
    };
    for part in parts {
        match dir_and_stem(&part.base) {
            None => {
                if part.ext == "spv" {
                    return Err("an effect pass translates to one SPIR-V module per stage: \
                                give --out-dir DIR or -o FILE (NAME.vs.spv, NAME.ps.spv)"
                        .into());
                }
                batch::Out::with(|o| {
                    o.str(&format!("// {} {}\n", part.base, part.stage))?;
                    o.write(&part.data)
                })?;
            }
            Some(stem) => {
                let path = PathBuf::from(format!("{}.{}.{}", stem.display(), part.stage, part.ext));
                if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
                    std::fs::create_dir_all(parent)
                        .map_err(|e| format!("{}: {e}", parent.display()))?;
                }
                std::fs::write(&path, &part.data)
                    .map_err(|e| format!("{}: {e}", path.display()))?;
                if let Some(json) = &part.iface {
                    let p =
                        PathBuf::from(format!("{}.{}.interface.json", stem.display(), part.stage));
                    std::fs::write(&p, json).map_err(|e| format!("{}: {e}", p.display()))?;
                }
            }
        }
    }
    Ok(())
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
    // Effects (fx_2_0, XNA/FNA wrappers) translate pass by pass, one output per stage;
    // the other inputs one output each.
    let mut ok = true;
    let mut shaders = Vec::with_capacity(inputs.len());
    for input in inputs {
        let bytes = match batch::read_input(&input.path) {
            Ok(b) if d3dbc::fx::Effect::is_effect(&b) => b,
            _ => {
                shaders.push(input);
                continue;
            }
        };
        match translate_effect(&input, &bytes, args, &options) {
            Ok(parts) => {
                if let Err(e) = write_parts(&target, &input, &parts) {
                    ok = false;
                    eprintln!("{}", batch::prefixed(&input.display(), &e));
                }
            }
            Err((true, usage)) => return Err(format!("{}: {usage}", input.display())),
            Err((false, e)) => {
                ok = false;
                eprintln!("{}", batch::prefixed(&input.display(), &e));
            }
        }
    }
    if shaders.is_empty() {
        return Ok(ok);
    }
    if args.technique.is_some() || args.pass.is_some() || args.all_passes {
        return Err(format!(
            "{}: --technique, --pass and --all-passes choose a pass of an effect; this is a \
             shader, not an effect",
            shaders[0].display()
        ));
    }
    let inputs = shaders;
    let binary = (args.target == Lang::Spirv)
        .then_some("refusing to write SPIR-V to a terminal; use -o FILE or a pipe");
    let done = batch::convert_all(
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
    )?;
    Ok(ok && done)
}
