//! Batch plumbing shared by every verb: reading inputs (`-` = stdin), choosing where each
//! output goes (stdout, `-o FILE`, or `--out-dir DIR/<stem>.<ext>`), and reporting
//! per-file failures as `path: error` while the other inputs are still processed.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use crate::BatchArgs;

/// Where outputs go.
pub enum Sink<'a> {
    /// Standard output (single input, no `-o`).
    Stdout,
    /// One named file (single input with `-o`).
    File(&'a Path),
    /// One file per input in a directory.
    Dir(PathBuf),
}

impl<'a> Sink<'a> {
    /// Picks the sink: several inputs or `--out-dir` → one file per input (in DIR, or in
    /// the current directory when several inputs come without `--out-dir`). `main`
    /// has already refused `-o` with several inputs.
    pub fn for_batch(batch: &'a BatchArgs) -> Self {
        match (&batch.output, &batch.out_dir) {
            (Some(p), _) => Sink::File(p),
            (None, Some(d)) => Sink::Dir(d.clone()),
            (None, None) if batch.files.len() > 1 => Sink::Dir(PathBuf::from(".")),
            (None, None) => Sink::Stdout,
        }
    }

    /// Writes one input's output.
    pub fn write(&self, input: &Path, ext: &str, data: &[u8]) -> Result<(), String> {
        match self {
            Sink::Stdout => {
                let mut out = std::io::stdout().lock();
                out.write_all(data)
                    .and_then(|_| out.flush())
                    .map_err(|e| format!("stdout: {e}"))
            }
            Sink::File(p) => std::fs::write(p, data).map_err(|e| format!("{}: {e}", p.display())),
            Sink::Dir(d) => {
                std::fs::create_dir_all(d).map_err(|e| format!("{}: {e}", d.display()))?;
                let stem = if input == Path::new("-") {
                    "stdin".into()
                } else {
                    input
                        .file_stem()
                        .map(|s| s.to_string_lossy().into_owned())
                        .unwrap_or_else(|| "out".into())
                };
                let p = d.join(format!("{stem}.{ext}"));
                std::fs::write(&p, data).map_err(|e| format!("{}: {e}", p.display()))
            }
        }
    }
}

/// Reads an input file, or stdin for `-`.
pub fn read_input(path: &Path) -> Result<Vec<u8>, String> {
    if path == Path::new("-") {
        let mut buf = Vec::new();
        std::io::stdin()
            .read_to_end(&mut buf)
            .map_err(|e| format!("stdin: {e}"))?;
        Ok(buf)
    } else {
        std::fs::read(path).map_err(|e| e.to_string())
    }
}

/// The name to show for an input in messages.
pub fn display_name(path: &Path) -> String {
    if path == Path::new("-") {
        "<stdin>".into()
    } else {
        path.display().to_string()
    }
}

/// Runs `f` over every input, printing `path: error` for failures; true if all succeeded.
pub fn for_each(files: &[PathBuf], mut f: impl FnMut(&Path) -> Result<(), String>) -> bool {
    let mut ok = true;
    for file in files {
        if let Err(e) = f(file) {
            ok = false;
            let name = display_name(file);
            if e.starts_with(&format!("{name}:")) {
                eprintln!("{e}");
            } else {
                eprintln!("{name}: {e}");
            }
        }
    }
    ok
}
