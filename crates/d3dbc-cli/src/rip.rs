//! `d3dbc rip`: find D3D9 shaders and fx_2_0 effects inside any files and write each
//! byte for byte as `<stem>@<hex offset>.vso|.pso|.fxo` (the scan is `d3dbc::rip`).
//! Inputs follow the one input rule (files, directories: every file below them,
//! `-`/nothing: stdin), output names the one naming rule ([`batch::Target::settle_names`]:
//! inputs sharing a stem keep their extension, `game.exe@1f00.vso`).

use std::io::Write;
use std::path::PathBuf;

use clap::Args;

use crate::batch::{self, Input, Out, Target};
use crate::DisFormat;

/// `d3dbc rip`.
#[derive(Args, Debug)]
pub struct RipArgs {
    /// Files or directories (every file below, whatever its name) to scan: executables,
    /// archives, memory dumps, `.xnb`; `-` or nothing reads stdin.
    pub files: Vec<PathBuf>,
    /// Write every find into DIR as `<stem>@<hex offset>.vso|.pso|.fxo` (created if
    /// missing; the path below a directory input kept); without it the finds are only
    /// listed.
    #[arg(long, value_name = "DIR")]
    pub out_dir: Option<PathBuf>,
    /// Write the list to FILE instead of standard output (`-` = stdout).
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// List format: one line per find, or one JSON array of records.
    #[arg(long, value_enum, default_value_t = DisFormat::Text)]
    pub format: DisFormat,
    /// The same as `--format json` (the older spelling).
    #[arg(long, hide = true)]
    pub json: bool,
    /// Indent JSON output.
    #[arg(long)]
    pub pretty: bool,
}

/// `d3dbc rip`: lists `file: offset kind version size crc32` per find.
pub fn run(a: &RipArgs) -> Result<bool, String> {
    let json = a.json || a.format == DisFormat::Json;
    let mut inputs = batch::expand(&a.files, &[], batch::Reads::Anything)?;
    let dir_target = a.out_dir.clone().map(Target::Dir);
    if let Some(dir) = &a.out_dir {
        if dir.exists() && !dir.is_dir() {
            return Err(format!(
                "--out-dir {}: exists and is not a directory",
                dir.display()
            ));
        }
        // Names end `@<offset>.<ext>`: inputs that share a stem keep their extension.
        if let Some(t) = &dir_target {
            t.settle_names(inputs.iter_mut().map(|i| (i, "")))?;
        }
    }
    let mut ok = true;
    let mut records = Vec::new();
    let mut text = String::new();
    for input in &inputs {
        let name = input.display();
        let data = match batch::read_input(&input.path) {
            Ok(d) => d,
            Err(e) => {
                eprintln!("{}", batch::prefixed(&name, &e));
                ok = false;
                continue;
            }
        };
        for f in d3dbc::rip::scan(&data) {
            let written = match &a.out_dir {
                Some(dir) => {
                    let out = dir.join(find_name(input, f.offset, f.kind.extension()));
                    match write_find(&out, &data[f.offset..f.offset + f.size]) {
                        Ok(()) => Some(out.display().to_string()),
                        Err(e) => {
                            eprintln!("{e}");
                            ok = false;
                            None
                        }
                    }
                }
                None => None,
            };
            if json {
                records.push(serde_json::json!({
                    "file": name,
                    "offset": f.offset,
                    "kind": f.kind.extension(),
                    "version": f.version_name(),
                    "size": f.size,
                    "crc32": format!("{:08x}", f.crc32),
                    "written": written,
                }));
            } else {
                use std::fmt::Write as _;
                let _ = writeln!(
                    text,
                    "{name}: {:#010x} {} {} {} bytes crc32 {:08x}{}",
                    f.offset,
                    f.kind.extension(),
                    f.version_name(),
                    f.size,
                    f.crc32,
                    written.map(|w| format!(" -> {w}")).unwrap_or_default()
                );
            }
        }
    }
    if json {
        let mut s = if a.pretty {
            serde_json::to_string_pretty(&records)
        } else {
            serde_json::to_string(&records)
        }
        .map_err(|e| e.to_string())?;
        s.push('\n');
        text = s;
    }
    match a.output.as_deref() {
        Some(p) if p != std::path::Path::new("-") => {
            if let Some(parent) = p.parent().filter(|p| !p.as_os_str().is_empty()) {
                std::fs::create_dir_all(parent)
                    .map_err(|e| format!("{}: {e}", parent.display()))?;
            }
            if let Err(e) = std::fs::write(p, text) {
                eprintln!("{}: {e}", p.display());
                ok = false;
            }
        }
        _ => Out::with(|o| o.str(&text))?,
    }
    Ok(ok)
}

/// `<stem>@<hex offset>.<ext>` below the output directory, by the one naming rule.
fn find_name(input: &Input, offset: usize, ext: &str) -> PathBuf {
    let stem = if input.keep_ext {
        input.rel.clone()
    } else {
        input.rel.with_extension("")
    };
    let mut name = stem.into_os_string();
    name.push(format!("@{offset:x}.{ext}"));
    PathBuf::from(name)
}

fn write_find(out: &std::path::Path, bytes: &[u8]) -> Result<(), String> {
    if let Some(parent) = out.parent() {
        std::fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
    }
    let mut f = std::fs::File::create(out).map_err(|e| format!("{}: {e}", out.display()))?;
    f.write_all(bytes)
        .map_err(|e| format!("{}: {e}", out.display()))
}
