//! The verbs: each one reads its inputs through `batch`, calls the library, and formats
//! the result. No format knowledge lives here.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use d3dbc::ir::Item;
use d3dbc::print::{self, PrintOptions};
use d3dbc::{input, Shader};
use serde_json::{json, Value};

use crate::batch::{self, Sink};
use crate::{AsmFormat, BatchArgs, DisFormat, ReportFormat};

fn decode_input(path: &Path) -> Result<Vec<(Option<String>, Shader)>, String> {
    let bytes = batch::read_input(path)?;
    let found = input::read_any(&bytes).map_err(|e| e.to_string())?;
    let many = found.len() > 1;
    found
        .into_iter()
        .map(|f| {
            let shader = Shader::decode(&f.tokens).map_err(|e| match (&f.name, many) {
                (Some(n), true) => format!("{n}: {e}"),
                _ => e.to_string(),
            })?;
            Ok((f.name, shader))
        })
        .collect()
}

/// JSON view of a decoded shader: version, CTAB, and every item with its offset, raw
/// tokens, printed text and decoded fields.
pub fn shader_json(name: Option<&str>, shader: &Shader) -> Value {
    let mut offset = 1usize;
    let mut items = Vec::with_capacity(shader.items.len());
    for item in &shader.items {
        let mut toks = Vec::new();
        match item {
            Item::Instruction(ins) => {
                d3dbc::encode::encode_instruction(ins, shader.version, &mut toks);
                let mut text = String::new();
                print::print_instruction(ins, shader.version, &mut text);
                items.push(json!({
                    "offset": offset,
                    "tokens": toks.iter().map(|t| format!("0x{t:08x}")).collect::<Vec<_>>(),
                    "text": text,
                    "instruction": ins,
                }));
            }
            Item::Comment(c) => {
                d3dbc::encode::encode_comment(c, &mut toks);
                let fourcc = c
                    .first()
                    .map(|d| String::from_utf8_lossy(&d.to_le_bytes()).into_owned());
                items.push(json!({
                    "offset": offset,
                    "comment": { "dwords": c.len(), "fourcc": fourcc },
                }));
            }
        }
        offset += toks.len();
    }
    let ctab = match shader.ctab() {
        Some(Ok(c)) => serde_json::to_value(c).unwrap_or(Value::Null),
        Some(Err(e)) => json!({ "error": e.to_string() }),
        None => Value::Null,
    };
    json!({
        "name": name,
        "version": shader.version.to_string(),
        "version_token": format!("0x{:08x}", shader.version.token()),
        "ctab": ctab,
        "items": items,
        "end_offset": offset,
    })
}

/// `d3dbc dis`.
pub fn dis(batch: &BatchArgs, format: DisFormat, offsets: bool, tokens: bool) -> bool {
    let (files, sink) = (&batch.files, Sink::for_batch(batch));
    let opts = PrintOptions {
        offsets,
        tokens,
        ..Default::default()
    };
    batch::for_each(files, |path| {
        let shaders = decode_input(path)?;
        let many = shaders.len() > 1;
        let (ext, data) = match format {
            DisFormat::Text => {
                let mut out = String::new();
                for (name, shader) in &shaders {
                    if let (true, Some(n)) = (many, name) {
                        let _ = writeln!(out, "// {n}");
                    }
                    print::print(shader, &opts, &mut out);
                }
                ("asm", out.into_bytes())
            }
            DisFormat::Json => {
                let v: Vec<Value> = shaders
                    .iter()
                    .map(|(n, s)| shader_json(n.as_deref(), s))
                    .collect();
                let v = if many {
                    Value::Array(v)
                } else {
                    v.into_iter().next().unwrap_or(Value::Null)
                };
                let mut s = serde_json::to_string_pretty(&v).map_err(|e| e.to_string())?;
                s.push('\n');
                ("json", s.into_bytes())
            }
        };
        sink.write(path, ext, &data)
    })
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
    out.push_str(&print::to_string(shader));
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

/// `d3dbc asm`.
pub fn asm(
    batch: &BatchArgs,
    defines: &[String],
    include_dirs: &[PathBuf],
    format: AsmFormat,
    no_validate: bool,
) -> bool {
    let (files, sink) = (&batch.files, Sink::for_batch(batch));
    batch::for_each(files, |path| {
        let bytes = batch::read_input(path)?;
        let text = String::from_utf8_lossy(&bytes);
        let name = batch::display_name(path);
        let opts = d3dbc::asm::Options {
            file_name: name.clone(),
            defines: defines.iter().map(|d| parse_define(d)).collect(),
            include_dirs: include_dirs.to_vec(),
            no_validate,
            lenient: no_validate,
        };
        let shader = d3dbc::asm::assemble(&text, &opts).map_err(|d| {
            if d.0.is_empty() {
                format!("{name}: assembly failed")
            } else {
                d.to_string()
            }
        })?;
        let tokens = shader.encode();
        let (ext, data) = match format {
            AsmFormat::Bin => ("bin", tokens.iter().flat_map(|t| t.to_le_bytes()).collect()),
            AsmFormat::Hex => {
                let mut s = String::with_capacity(tokens.len() * 11);
                for t in &tokens {
                    let _ = writeln!(s, "0x{t:08x}");
                }
                ("hex", s.into_bytes())
            }
            AsmFormat::Header => {
                let stem = path
                    .file_stem()
                    .map(|s| s.to_string_lossy().into_owned())
                    .unwrap_or_else(|| "shader".into());
                let stem = if path == Path::new("-") {
                    "shader".to_string()
                } else {
                    stem
                };
                (
                    "h",
                    c_header(&format!("g_{}", c_identifier(&stem)), &shader, &tokens).into_bytes(),
                )
            }
        };
        if matches!(sink, Sink::Stdout)
            && matches!(format, AsmFormat::Bin)
            && std::io::IsTerminal::is_terminal(&std::io::stdout())
        {
            return Err(
                "refusing to write binary to a terminal; use -o FILE, --format hex, or a pipe"
                    .into(),
            );
        }
        sink.write(path, ext, &data)
    })
}

/// One finding, ready to report: where (DWORD offset, and line:col for text input),
/// the instruction as `dis` prints it, and the rule.
struct Report {
    code: &'static str,
    severity: &'static str,
    offset: usize,
    location: Option<String>,
    instruction: String,
    message: String,
}

/// The findings of each shader in one input (C headers may hold several, by array name).
type InputReport = Vec<(Option<String>, Vec<Report>)>;

fn findings_for(path: &Path) -> Result<InputReport, String> {
    let bytes = batch::read_input(path)?;
    let name = batch::display_name(path);
    let report = |shader: &Shader, locate: &dyn Fn(usize) -> Option<String>| -> Vec<Report> {
        d3dbc::validate::validate(shader)
            .into_iter()
            .map(|f| {
                let mut instruction = String::new();
                if let Some(Item::Instruction(ins)) = shader.items.get(f.item) {
                    print::print_instruction(ins, shader.version, &mut instruction);
                }
                Report {
                    code: f.code,
                    severity: match f.severity {
                        d3dbc::diag::Severity::Error => "error",
                        d3dbc::diag::Severity::Warning => "warning",
                    },
                    offset: f.offset,
                    location: locate(f.item),
                    instruction,
                    message: f.message,
                }
            })
            .collect()
    };
    match input::read_any(&bytes) {
        Ok(found) => found
            .into_iter()
            .map(|f| {
                let shader = Shader::decode(&f.tokens).map_err(|e| e.to_string())?;
                Ok((f.name, report(&shader, &|_| None)))
            })
            .collect(),
        Err(input_err) => {
            // Not bytecode: treat it as assembly text and report at line:col.
            let text = String::from_utf8_lossy(&bytes);
            let opts = d3dbc::asm::Options {
                file_name: name.clone(),
                no_validate: true,
                ..Default::default()
            };
            let assembled = d3dbc::asm::assemble_with_sources(&text, &opts).map_err(|d| {
                if d.0.is_empty() {
                    input_err.to_string()
                } else {
                    d.to_string()
                }
            })?;
            let locate = |item: usize| {
                assembled
                    .sources
                    .get(item)
                    .map(|s| format!("{}:{}:{}", assembled.file(s), s.line, s.mnemonic.col))
            };
            Ok(vec![(None, report(&assembled.shader, &locate))])
        }
    }
}

/// `d3dbc validate`.
pub fn validate(files: &[PathBuf], format: ReportFormat) -> bool {
    let mut json_out = Vec::new();
    let mut all_ok = true;
    let io_ok = batch::for_each(files, |path| {
        let name = batch::display_name(path);
        let shaders = findings_for(path)?;
        for (array, reports) in shaders {
            let valid = !reports.iter().any(|r| r.severity == "error");
            all_ok &= valid;
            let label = match &array {
                Some(a) => format!("{name} ({a})"),
                None => name.clone(),
            };
            match format {
                ReportFormat::Text => {
                    for r in &reports {
                        let at = r
                            .location
                            .clone()
                            .unwrap_or_else(|| format!("{label}:DWORD {}", r.offset));
                        let ins = if r.instruction.is_empty() {
                            String::new()
                        } else {
                            format!("`{}`: ", r.instruction)
                        };
                        println!("{at}: {}[{}]: {ins}{}", r.severity, r.code, r.message);
                    }
                    if reports.is_empty() {
                        println!("{label}: valid");
                    }
                }
                ReportFormat::Json => json_out.push(json!({
                    "file": name,
                    "name": array,
                    "valid": valid,
                    "findings": reports.iter().map(|r| json!({
                        "code": r.code,
                        "severity": r.severity,
                        "offset": r.offset,
                        "location": r.location,
                        "instruction": r.instruction,
                        "message": r.message,
                    })).collect::<Vec<_>>(),
                })),
            }
        }
        Ok(())
    });
    if format == ReportFormat::Json {
        println!(
            "{}",
            serde_json::to_string_pretty(&json_out).unwrap_or_default()
        );
    }
    io_ok && all_ok
}
