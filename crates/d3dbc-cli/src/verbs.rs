//! The verbs: each one expands its inputs through `batch`, calls the library, and
//! formats the result. No format knowledge lives here.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use d3dbc::asm::ctab_header;
use d3dbc::ctab::Ctab;
use d3dbc::input;
use d3dbc::ir::Item;
use d3dbc::print::{self, PrintOptions};
use d3dbc::report::{self, hex_offset, locate, Located, Report};
use d3dbc::Shader;
use serde_json::{json, Map, Value};

use crate::batch::{self, Input, Out, Progress, Target};
use crate::json::{self, JsonWriter};
use crate::{AsmFormat, BatchArgs, DisFormat, ReportFormat};

/// `dis` settings.
#[derive(clap::Args, Debug)]
pub struct DisOptions {
    /// Output format.
    #[arg(long, value_enum, default_value_t = DisFormat::Text)]
    pub format: DisFormat,
    /// Indent JSON output.
    #[arg(long)]
    pub pretty: bool,
    /// Annotate each instruction with its DWORD offset.
    #[arg(long)]
    pub offsets: bool,
    /// Annotate each instruction with its raw tokens.
    #[arg(long)]
    pub tokens: bool,
    /// Print every shader found one after another (data after an end token is
    /// otherwise a warning).
    #[arg(long)]
    pub all: bool,
}

/// The listing of every shader of one input.
fn listing(found: &[Located], o: &DisOptions) -> String {
    let opts = PrintOptions {
        offsets: o.offsets,
        tokens: o.tokens,
        ..Default::default()
    };
    report::listing(found, &opts)
}

/// Streams one input's JSON record at `depth`.
fn dis_record(
    w: &mut JsonWriter,
    name: &str,
    result: &Result<Vec<Located>, String>,
    warnings: &[String],
    depth: usize,
) -> Result<(), String> {
    w.raw("{")?;
    let mut head = Map::new();
    head.insert("file".into(), json!(name));
    head.insert(
        "status".into(),
        json!(if result.is_ok() { "ok" } else { "error" }),
    );
    let mut diags: Vec<Value> = warnings
        .iter()
        .map(|m| json::message("warning", m))
        .collect();
    if let Err(e) = result {
        diags.push(json::message("error", e));
    }
    head.insert("diagnostics".into(), Value::Array(diags));
    w.fields(&head, depth + 1)?;
    w.raw(",")?;
    w.nl(depth + 1)?;
    w.key("shaders")?;
    w.raw("[")?;
    for (i, f) in result.as_deref().unwrap_or(&[]).iter().enumerate() {
        if i > 0 {
            w.raw(",")?;
        }
        w.nl(depth + 2)?;
        w.raw("{")?;
        let mut head = json::shader_head(f.name, f.at, f.tokens);
        if let Some(c) = f.container {
            head.insert("container".into(), json::container(c));
        }
        w.fields(&head, depth + 3)?;
        w.raw(",")?;
        w.nl(depth + 3)?;
        w.key("items")?;
        w.raw("[")?;
        let end = json::write_items(w, f.tokens, f.at, depth + 4)?;
        w.nl(depth + 3)?;
        w.raw("],")?;
        w.nl(depth + 3)?;
        w.key("end_offset")?;
        w.raw(&end.to_string())?;
        w.nl(depth + 2)?;
        w.raw("}")?;
    }
    w.nl(depth + 1)?;
    w.raw("]")?;
    w.nl(depth)?;
    w.raw("}")
}

/// `dis` of an fx_2_0 effect (`None` when the input is not one): fxc's effect listing,
/// or the whole effect model as one JSON record.
fn dis_effect(path: &Path, bytes: &[u8], o: &DisOptions) -> Option<Result<String, String>> {
    let (format, pretty) = (o.format, o.pretty);
    if !d3dbc::fx::Effect::is_effect(bytes) {
        return None;
    }
    Some(
        d3dbc::fx::Effect::parse(bytes)
            .map_err(|e| e.to_string())
            .and_then(|e| match format {
                DisFormat::Text => Ok(e.listing_with(&PrintOptions {
                    offsets: o.offsets,
                    tokens: o.tokens,
                    ..Default::default()
                })),
                DisFormat::Json => {
                    let v = crate::effect_json::record(&batch::display_name(path), &e);
                    let s = if pretty {
                        serde_json::to_string_pretty(&v)
                    } else {
                        serde_json::to_string(&v)
                    };
                    s.map_err(|e| e.to_string())
                }
            }),
    )
}

/// `d3dbc dis`.
pub fn dis(batch: &BatchArgs, o: &DisOptions) -> Result<bool, String> {
    let mut inputs = batch::expand(&batch.files, &batch.ext.ext, batch::Reads::Bytecode)?;
    let target = Target::plan(batch, inputs.len(), true)?;
    let out_ext = match o.format {
        DisFormat::Text => "asm",
        DisFormat::Json => "json",
    };
    target.settle_names(inputs.iter_mut().map(|i| (i, out_ext)))?;
    let progress = Progress::new(inputs.len());
    // Standard output and `-o FILE` are one stream (several inputs one after another,
    // or one JSON array); `--out-dir` writes a file per input.
    let to_stdout = !matches!(target, Target::Dir(_));
    let stream_file = match &target {
        Target::File(p) => Some(p.clone()),
        _ => None,
    };
    let json_stdout = to_stdout && o.format == DisFormat::Json;
    let mut ok = true;
    let mut first = true;
    let mut run = |out: &mut Option<&mut Out>| -> Result<bool, String> {
        if json_stdout {
            if let Some(out) = out.as_deref_mut() {
                out.str("[")?;
            }
        }
        for input in &inputs {
            let name = input.display();
            // Read once (standard input cannot be read twice).
            let bytes = batch::read_input(&input.path);
            let effect = match &bytes {
                Ok(b) => dis_effect(&input.path, b, o),
                Err(_) => None,
            };
            if let Some(r) = effect {
                let r = r.map_err(|e| batch::prefixed(&name, &e));
                match (r, out.as_deref_mut()) {
                    (Err(e), _) => {
                        ok = false;
                        progress.eprintln(&e);
                    }
                    (Ok(text), Some(out)) => {
                        if o.format == DisFormat::Json && !first {
                            out.str(",")?;
                        }
                        progress.suspend(|| out.str(&text))?;
                    }
                    (Ok(text), None) => {
                        let text = if o.format == DisFormat::Json {
                            format!("[{text}]\n")
                        } else {
                            text
                        };
                        if let Err(e) = target.write_file(input, out_ext, text.as_bytes()) {
                            ok = false;
                            progress.eprintln(&e);
                        }
                    }
                }
                first = false;
                progress.inc();
                continue;
            }
            let mut warnings = Vec::new();
            let found = bytes.and_then(|bytes| input::read_any(&bytes).map_err(|e| e.to_string()));
            let result = match &found {
                Ok(found) => locate(found, o.all, &mut warnings),
                Err(e) => Err(e.clone()),
            };
            for w in &warnings {
                progress.eprintln(&format!("{name}: warning: {w}"));
            }
            if let Err(e) = &result {
                ok = false;
                progress.eprintln(&batch::prefixed(&name, e));
            }
            match (o.format, out.as_deref_mut()) {
                (DisFormat::Json, Some(out)) => {
                    let mut w = JsonWriter::new(out.inner(), o.pretty);
                    if !first {
                        w.raw(",")?;
                    }
                    w.nl(1)?;
                    progress.suspend(|| dis_record(&mut w, &name, &result, &warnings, 1))?;
                }
                (DisFormat::Json, None) => {
                    let mut buf = Vec::new();
                    let mut w = JsonWriter::new(&mut buf, o.pretty);
                    w.raw("[")?;
                    w.nl(1)?;
                    dis_record(&mut w, &name, &result, &warnings, 1)?;
                    w.nl(0)?;
                    w.raw("]\n")?;
                    if result.is_ok() {
                        target.write_file(input, out_ext, &buf)?;
                    }
                }
                (DisFormat::Text, out) => {
                    if let Ok(found) = &result {
                        let mut text = listing(found, o);
                        match out {
                            Some(out) => {
                                if inputs.len() > 1 {
                                    text.insert_str(0, &format!("// {name}\n"));
                                }
                                progress.suspend(|| out.str(&text))?;
                            }
                            None => {
                                if let Err(e) = target.write_file(input, out_ext, text.as_bytes()) {
                                    ok = false;
                                    progress.eprintln(&e);
                                }
                            }
                        }
                    }
                }
            }
            first = false;
            progress.inc();
        }
        if json_stdout {
            if let Some(out) = out.as_deref_mut() {
                let mut w = JsonWriter::new(out.inner(), o.pretty);
                w.nl(0)?;
                w.raw("]\n")?;
            }
        }
        Ok(ok)
    };
    if to_stdout {
        Out::to(stream_file.as_deref(), |out| run(&mut Some(out)))
    } else {
        run(&mut None)
    }
}

fn parse_define(d: &str) -> (String, Option<String>) {
    match d.split_once('=') {
        Some((n, v)) => (n.to_string(), Some(v.to_string())),
        None => (d.to_string(), None),
    }
}

fn c_identifier(stem: &str) -> String {
    let mut s: String = stem
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    if s.starts_with(|c: char| c.is_ascii_digit()) {
        s.insert(0, '_');
    }
    s
}

/// A C header like fxc `/Fh`: the listing inside `#if 0`, then the bytes.
pub fn c_header(name: &str, shader: &Shader, tokens: &[u32]) -> String {
    let mut out = String::from("#if 0\n");
    if print::print_tokens(tokens, &PrintOptions::default(), &mut out).is_err() {
        print::print(shader, &PrintOptions::default(), &mut out);
    }
    out.push_str("#endif\n\nconst BYTE ");
    out.push_str(name);
    out.push_str("[] =\n{\n");
    let bytes: Vec<u8> = tokens.iter().flat_map(|t| t.to_le_bytes()).collect();
    for (i, chunk) in bytes.chunks(12).enumerate() {
        out.push_str("    ");
        for (j, b) in chunk.iter().enumerate() {
            let last = i * 12 + j + 1 == bytes.len();
            let _ = write!(out, "{b:3}{}", if last { "" } else { ", " });
        }
        out.truncate(out.trim_end().len());
        out.push('\n');
    }
    out.push_str("};\n");
    out
}

/// `asm` settings.
#[derive(clap::Args, Debug)]
pub struct AsmOptions {
    /// Extension of binary outputs under --out-dir (default: vso/pso by shader kind).
    /// `--ext` chooses input extensions, as on every verb.
    #[arg(long, value_name = "EXT")]
    pub out_ext: Option<String>,
    /// Predefine a macro.
    #[arg(short = 'D', value_name = "NAME[=VALUE]")]
    pub define: Vec<String>,
    /// Add an include directory.
    #[arg(short = 'I', value_name = "DIR")]
    pub include: Vec<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = AsmFormat::Bin)]
    pub format: AsmFormat,
    /// Array name for --format header (fxc /Vn); default g_<input stem>.
    #[arg(long, value_name = "NAME")]
    pub name: Option<String>,
    /// Skip the runtime validator (D3DCOMPILE_SKIP_VALIDATION): the assembler's
    /// grammar still applies (registers, modifiers, dcl forms, instructions per version).
    #[arg(long)]
    pub no_validate: bool,
    /// Raw mode: encode whatever the token format can express, even where the version's
    /// grammar lacks it, without validation, so everything `dis` prints (runtime-invalid
    /// shaders included) reassembles to the same tokens.
    #[arg(long)]
    pub raw: bool,
    /// Do not rebuild the constant table (CTAB) from the listing's header comment.
    #[arg(long, conflicts_with = "ctab_from")]
    pub no_ctab: bool,
    /// Take the constant table from this binary (the original shader) instead (and,
    /// for a listing with a preshader block, the original's preshader where the block
    /// reads as its listing).
    #[arg(long, value_name = "ORIGINAL")]
    pub ctab_from: Option<PathBuf>,
    /// The rebuilt table's compile-flags word, which no listing shows (default 0x100 for
    /// a Microsoft compiler's header, 0 otherwise).
    #[arg(long, value_name = "FLAGS", value_parser = ctab_header::parse_flags, conflicts_with_all = ["no_ctab", "ctab_from"])]
    pub ctab_flags: Option<u32>,
    /// Which constants the HLSL source placed with `register(…)`, which no listing shows
    /// (the records' Reserved word): `auto` infers it from holes in the register table,
    /// `none`, `all`, or the names (`--ctab-explicit World,tint`).
    #[arg(long, value_name = "auto|none|all|NAME,...", conflicts_with_all = ["no_ctab", "ctab_from"])]
    pub ctab_explicit: Option<String>,
    /// For an effect listing (what `dis X.fxo` prints): the original effect, whose
    /// parameters, states, annotations and constant tables the listing does not carry.
    /// Every listed shader replaces the one it was listed from; unedited, the output is
    /// the original byte for byte. Without it, an effect listing builds a new effect
    /// from the techniques, passes and shaders it lists.
    #[arg(long, value_name = "ORIGINAL", conflicts_with = "ctab_from")]
    pub fx_from: Option<PathBuf>,
    /// Assemble every shader model 1–3 listing of an input (a file may hold several, one
    /// per version statement) and skip later-model ones (the `vs_4_0`/`ps_4_0` part of a
    /// Unity "level 9" dump) with a note. Several shaders are written one after another,
    /// as `dis --all` reads them back.
    #[arg(long)]
    pub all: bool,
}

/// The `CTAB` comment payload of a binary (`asm --ctab-from`), byte for byte.
fn ctab_of(path: &Path) -> Result<Vec<u32>, String> {
    let name = batch::display_name(path);
    let bytes = batch::read_input(path).map_err(|e| format!("--ctab-from {name}: {e}"))?;
    let found = input::read_any(&bytes).map_err(|e| format!("--ctab-from {name}: {e}"))?;
    let shader =
        Shader::decode(&found[0].tokens).map_err(|e| format!("--ctab-from {name}: {e}"))?;
    let payload = shader
        .comments()
        .find(|c| Ctab::is_ctab(c))
        .map(<[u32]>::to_vec);
    payload.ok_or_else(|| format!("--ctab-from {name}: the shader has no constant table"))
}

/// Assembles one listing's text (`text` may be a whole input, or one listing of it
/// isolated by [`d3dbc::asm::Listing::isolate`]) and rebuilds or replaces its constant
/// table; warnings are pushed.
/// The assembler settings of `asm`'s flags.
fn asm_options(name: &str, o: &AsmOptions) -> d3dbc::asm::Options {
    d3dbc::asm::Options {
        file_name: name.to_string(),
        defines: o.define.iter().map(|d| parse_define(d)).collect(),
        include_dirs: o.include.clone(),
        no_validate: o.no_validate,
        raw: o.raw,
    }
}

fn assemble_text(
    text: &str,
    name: &str,
    o: &AsmOptions,
    ctab: Option<&[u32]>,
    warnings: &mut Vec<String>,
) -> Result<Shader, String> {
    let opts = asm_options(name, o);
    let mut shader = d3dbc::asm::assemble(text, &opts).map_err(|d| {
        if d.0.is_empty() {
            format!("{name}: assembly failed")
        } else {
            d.to_string()
        }
    })?;
    match (o.no_ctab, ctab) {
        (true, _) => {}
        (false, Some(payload)) => {
            shader
                .items
                .retain(|i| !matches!(i, Item::Comment(c) if Ctab::is_ctab(c)));
            shader.items.insert(0, Item::Comment(payload.to_vec()));
        }
        (false, None) => {
            let overrides = ctab_header::Overrides {
                flags: o.ctab_flags,
                explicit: o.ctab_explicit.as_deref().map(ctab_header::Explicit::parse),
            };
            // A hand-annotated header is no reason to refuse the shader.
            if let Some(d) = ctab_header::rebuild(&mut shader, text, name, &overrides) {
                warnings.push(d.to_string());
            }
        }
    }
    Ok(shader)
}

/// The shaders of one input: the whole text as one listing, or under `--all` each
/// shader model 1–3 listing (later ones skipped with a note). Each comes with the
/// 1-based line of its version statement.
fn assemble_listings(
    text: &str,
    name: &str,
    o: &AsmOptions,
    ctab: Option<&[u32]>,
    warnings: &mut Vec<String>,
) -> Result<Vec<(usize, Shader)>, String> {
    let found = d3dbc::asm::listings(text);
    if !o.all || found.len() < 2 {
        return match assemble_text(text, name, o, ctab, warnings) {
            Ok(s) => Ok(vec![(found.first().map_or(1, |l| l.version_line + 1), s)]),
            Err(e) if found.len() > 1 => {
                let later = found.iter().any(|l| !l.d3d9);
                let what = if later {
                    "the shader model 1–3 listings, skipping the later ones"
                } else {
                    "each of them"
                };
                Err(format!(
                    "{e}\nnote: {name} holds {} listings (version statements at lines {}); \
                     `asm --all` assembles {what}",
                    found.len(),
                    found
                        .iter()
                        .map(|l| (l.version_line + 1).to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                ))
            }
            Err(e) => Err(e),
        };
    }
    let mut shaders = Vec::new();
    for l in &found {
        let line = l.version_line + 1;
        if !l.d3d9 {
            warnings.push(format!(
                "{name}:{line}: note: skipped a later shader model listing (`{}`): d3dbc \
                 reads shader models 1–3",
                l.version
            ));
            continue;
        }
        shaders.push((
            line,
            assemble_text(&l.isolate(text), name, o, ctab, warnings)?,
        ));
    }
    if shaders.is_empty() {
        return Err(format!("{name}: no shader model 1–3 listing to assemble"));
    }
    Ok(shaders)
}

/// Assembles one input: (extension under --out-dir, bytes); warnings are pushed.
fn assemble_one(
    input: &Input,
    o: &AsmOptions,
    ctab: Option<&[u32]>,
    original: Option<&[u8]>,
    warnings: &mut Vec<String>,
) -> Result<(String, Vec<u8>), String> {
    let bytes = batch::read_input(&input.path)?;
    if bytes.is_empty() {
        return Err("empty input".into());
    }
    if input::is_binary(&bytes)
        || input::read_any(&bytes).is_ok_and(|_| bytes.len() >= 4 && !bytes.is_ascii())
    {
        return Err("binary input: this is not assembly text; did you mean `d3dbc dis`?".into());
    }
    let text = input::decode_text(&bytes);
    let name = input.display();
    let opts = asm_options(&name, o);
    if d3dbc::fx::asm::is_effect_listing(&text) {
        // An effect listing: the fx_2_0 binary (`.fxo`).
        if o.ctab_from.is_some() {
            return Err(
                "an effect listing takes its original with --fx-from, not --ctab-from".into(),
            );
        }
        let fx = d3dbc::fx::asm::assemble_effect(&text, &name, original, &opts)
            .map_err(|d| d.to_string())?;
        return match o.format {
            AsmFormat::Bin => Ok((o.out_ext.clone().unwrap_or_else(|| "fxo".into()), fx)),
            _ => Err("an effect assembles to its binary: --format bin (the default)".into()),
        };
    }
    if o.fx_from.is_some() {
        return Err("--fx-from takes an effect listing (what `d3dbc dis X.fxo` prints); this is a shader listing (--ctab-from gives a shader's original)".into());
    }
    let shaders = if d3dbc::fx::asm::has_preshader(&text) && !o.no_ctab {
        // A shader with a preshader block: CTAB, PRES and code.
        let tokens = d3dbc::fx::asm::assemble_shader_listing(&text, &name, original, &opts)
            .map_err(|d| d.to_string())?;
        let line = d3dbc::asm::listings(&text)
            .first()
            .map_or(1, |l| l.version_line + 1);
        vec![(line, Shader::decode(&tokens).map_err(|e| e.to_string())?)]
    } else {
        assemble_listings(&text, &name, o, ctab, warnings)?
    };
    let many = shaders.len() > 1;
    let array_base = match &o.name {
        Some(n) => n.clone(),
        None if input.path == Path::new("-") => "g_shader".into(),
        None => {
            let stem = input
                .path
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned());
            format!("g_{}", c_identifier(stem.as_deref().unwrap_or("shader")))
        }
    };
    let mut data = Vec::new();
    let mut ext = String::new();
    for (k, (line, shader)) in shaders.iter().enumerate() {
        let tokens = shader.encode();
        match o.format {
            AsmFormat::Bin => {
                let kind = if shader.version.is_pixel() {
                    "pso"
                } else {
                    "vso"
                };
                if ext.is_empty() {
                    ext = o.out_ext.clone().unwrap_or_else(|| kind.into());
                }
                data.extend(tokens.iter().flat_map(|t| t.to_le_bytes()));
            }
            AsmFormat::Hex => {
                ext = "hex".into();
                let mut s = String::with_capacity(tokens.len() * 11 + 40);
                if many {
                    let _ = writeln!(s, "// listing at line {line}");
                }
                for t in &tokens {
                    let _ = writeln!(s, "0x{t:08x}");
                }
                data.extend(s.into_bytes());
            }
            AsmFormat::Header => {
                ext = "h".into();
                // One array per listing: the first keeps the plain name.
                let array = if k == 0 {
                    array_base.clone()
                } else {
                    format!("{array_base}_{}", k + 1)
                };
                data.extend(c_header(&array, shader, &tokens).into_bytes());
            }
        }
    }
    Ok((ext, data))
}

/// `d3dbc asm`.
pub fn asm(batch: &BatchArgs, o: &AsmOptions) -> Result<bool, String> {
    let inputs = batch::expand(&batch.files, &batch.ext.ext, batch::Reads::Listings)?;
    let target = Target::plan(batch, inputs.len(), false)?;
    let ctab = o.ctab_from.as_deref().map(ctab_of).transpose()?;
    let original = match o.fx_from.as_deref().or(o.ctab_from.as_deref()) {
        Some(p) => {
            let flag = if o.fx_from.is_some() {
                "--fx-from"
            } else {
                "--ctab-from"
            };
            let name = batch::display_name(p);
            let bytes = batch::read_input(p).map_err(|e| format!("{flag} {name}: {e}"))?;
            if o.fx_from.is_some() {
                d3dbc::fx::Effect::parse(&bytes).map_err(|e| format!("--fx-from {name}: {e}"))?;
                Some(bytes)
            } else {
                let found =
                    input::read_any(&bytes).map_err(|e| format!("--ctab-from {name}: {e}"))?;
                Some(
                    found[0]
                        .tokens
                        .iter()
                        .flat_map(|t| t.to_le_bytes())
                        .collect(),
                )
            }
        }
        None => None,
    };
    if let Some(n) = &o.name {
        if c_identifier(n) != *n {
            return Err(format!("--name {n}: not a C identifier"));
        }
    }
    let binary = (o.format == AsmFormat::Bin)
        .then_some("refusing to write binary to a terminal; use -o FILE, --format hex, or a pipe");
    batch::convert_all(
        &inputs,
        &target,
        binary,
        |input, progress| {
            let mut warnings = Vec::new();
            let result = assemble_one(
                input,
                o,
                ctab.as_deref(),
                original.as_deref(),
                &mut warnings,
            );
            for w in &warnings {
                progress.eprintln(w);
            }
            result.map(|(ext, data)| (ext, data, ()))
        },
        |_, _, _| true,
    )
}

fn report_json(name: &str, r: &Report) -> Value {
    let status = if r.failed {
        "error"
    } else if r.valid() {
        "valid"
    } else {
        "invalid"
    };
    json!({
        "file": name,
        "status": status,
        "shaders": r.shaders.iter().map(|s| json!({
            "name": s.name,
            "offset": s.at,
            "offset_hex": hex_offset(s.at),
            "version": s.shader.version.to_string(),
            "version_token": format!("0x{:08x}", s.shader.version.token()),
            "valid": s.valid(),
            "findings": s.findings.iter().map(|f| json!({
                "code": f.code,
                "severity": report::severity(f.severity),
                "offset": f.offset,
                "offset_hex": hex_offset(f.offset),
                "location": f.location,
                "instruction": f.instruction,
                "message": f.message,
            })).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
        "diagnostics": r.messages.iter().map(|m| match &m.diagnostic {
            Some(d) => json::diagnostic(d),
            None => json::message(report::severity(m.severity), &m.text),
        }).collect::<Vec<_>>(),
    })
}

/// `d3dbc validate`: every per-input report on stdout.
pub fn validate(
    files: &[PathBuf],
    ext: &[String],
    format: ReportFormat,
    pretty: bool,
    verbose: bool,
    output: Option<&Path>,
) -> Result<bool, String> {
    let inputs = batch::expand(files, ext, batch::Reads::Both)?;
    let progress = Progress::new(inputs.len());
    let (mut valid, mut invalid) = (0usize, 0usize);
    Out::to(output, |out| {
        if format == ReportFormat::Json {
            out.str("[")?;
        }
        for (i, input) in inputs.iter().enumerate() {
            let name = input.display();
            let r = match batch::read_input(&input.path) {
                Ok(bytes) => report::check(&bytes, &name),
                Err(e) => Report::failure(e),
            };
            if r.valid() {
                valid += 1;
            } else {
                invalid += 1;
            }
            match format {
                ReportFormat::Text => {
                    let mut text = String::new();
                    for line in r.lines(&name, verbose) {
                        text.push_str(&batch::paint(&line, false));
                        text.push('\n');
                    }
                    progress.suspend(|| out.str(&text))?;
                }
                ReportFormat::Json => {
                    let mut w = JsonWriter::new(out.inner(), pretty);
                    if i > 0 {
                        w.raw(",")?;
                    }
                    w.nl(1)?;
                    w.value(&report_json(&name, &r), 1)?;
                }
            }
            progress.inc();
        }
        match format {
            ReportFormat::Json => {
                let mut w = JsonWriter::new(out.inner(), pretty);
                w.nl(0)?;
                w.raw("]\n")?;
            }
            ReportFormat::Text if inputs.len() > 1 => {
                out.str(&format!("{valid} valid, {invalid} invalid\n"))?;
            }
            ReportFormat::Text => {}
        }
        Ok(invalid == 0)
    })
}
