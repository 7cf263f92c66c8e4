//! `d3dbc rip`: find D3D9 shaders and fx_2_0 effects inside any files and write each
//! byte for byte as `<stem>@<hex offset>.vso|.pso|.fxo` (the scan is `d3dbc::rip`).

use std::path::PathBuf;

use clap::Args;

use crate::batch;

/// `d3dbc rip`.
#[derive(Args, Debug)]
pub struct RipArgs {
    /// Files to scan (any format: executables, archives, memory dumps, `.xnb`).
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Write every find into DIR as `<stem>@<hex offset>.vso|.pso|.fxo` (created if
    /// missing); without it the finds are only listed.
    #[arg(long, value_name = "DIR")]
    pub out_dir: Option<PathBuf>,
    /// List finds as JSON (one array of records).
    #[arg(long)]
    pub json: bool,
}

/// `d3dbc rip`: lists `offset kind version size crc32 [file]` per find.
pub fn run(a: &RipArgs) -> Result<bool, String> {
    if let Some(dir) = &a.out_dir {
        if dir.is_file() {
            return Err(format!("--out-dir {}: is a file", dir.display()));
        }
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    let mut ok = true;
    let mut records = Vec::new();
    for path in &a.files {
        let name = batch::display_name(path);
        let data = match batch::read_input(path) {
            Ok(d) => d,
            Err(e) => {
                eprintln!("{}", batch::prefixed(&name, &e));
                ok = false;
                continue;
            }
        };
        let stem = path
            .file_stem()
            .map_or_else(|| "stdin".into(), |s| s.to_string_lossy().into_owned());
        for f in d3dbc::rip::scan(&data) {
            let file_name = format!("{stem}@{:x}.{}", f.offset, f.kind.extension());
            let written = match &a.out_dir {
                Some(dir) => {
                    let out = dir.join(&file_name);
                    match std::fs::write(&out, &data[f.offset..f.offset + f.size]) {
                        Ok(()) => Some(out.display().to_string()),
                        Err(e) => {
                            eprintln!("{}: {e}", out.display());
                            ok = false;
                            None
                        }
                    }
                }
                None => None,
            };
            if a.json {
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
                println!(
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
    if a.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&records).map_err(|e| e.to_string())?
        );
    }
    Ok(ok)
}
