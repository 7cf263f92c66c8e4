//! Compiling HLSL back to bytecode with an external compiler: vkd3d-compiler (vkd3d
//! 1.17's `-x hlsl -b d3dbc`), found as `--compiler PATH` gives it, else as
//! `vkd3d-compiler` on `PATH`, else through the environment variable
//! `D3DBC_VKD3D_COMPILER`. The text goes in on standard input, the bytecode comes back
//! on standard output; a compiler that runs longer than [`Compiler::timeout`] is
//! stopped.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The environment variable naming vkd3d-compiler when it is not on `PATH`.
pub const ENV: &str = "D3DBC_VKD3D_COMPILER";

/// An HLSL compiler to run.
#[derive(Clone, Debug)]
pub struct Compiler {
    /// The executable.
    pub path: PathBuf,
    /// How long one compilation may take.
    pub timeout: Duration,
}

/// Why a compilation gave no bytecode.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum CompileError {
    /// The compiler could not be started.
    #[error("cannot run {path}: {why}")]
    NotRun {
        /// The executable.
        path: String,
        /// The operating system's reason.
        why: String,
    },
    /// The compiler rejected the text; `message` is what it printed.
    #[error("{message}")]
    Rejected {
        /// The compiler's diagnostics (standard error), trimmed.
        message: String,
    },
    /// The compiler ran past its time limit and was stopped.
    #[error("the compiler ran longer than {0:?} and was stopped")]
    Timeout(Duration),
    /// The output is not a token stream (its length is not a multiple of 4).
    #[error("the compiler wrote {0} bytes, not a whole number of DWORDs")]
    Output(usize),
}

/// What a successful compilation gave.
#[derive(Clone, Debug, PartialEq)]
pub struct Compiled {
    /// The bytecode.
    pub tokens: Vec<u32>,
    /// Warnings the compiler printed.
    pub warnings: String,
}

impl Compiler {
    /// A compiler at `path`.
    pub fn new(path: impl Into<PathBuf>) -> Compiler {
        Compiler {
            path: path.into(),
            timeout: Duration::from_secs(60),
        }
    }

    /// `explicit` when given; else `vkd3d-compiler` found on `PATH`; else the file
    /// [`ENV`] names. `None` when there is none.
    pub fn find(explicit: Option<&Path>) -> Option<Compiler> {
        if let Some(p) = explicit {
            return Some(Compiler::new(p));
        }
        if let Some(paths) = std::env::var_os("PATH") {
            for dir in std::env::split_paths(&paths) {
                let p = dir.join("vkd3d-compiler");
                if p.is_file() {
                    return Some(Compiler::new(p));
                }
            }
        }
        let p = PathBuf::from(std::env::var_os(ENV)?);
        p.is_file().then(|| Compiler::new(p))
    }

    /// Compiles `hlsl` for `profile` (`ps_3_0`) with entry point [`crate::ENTRY`].
    pub fn compile(&self, hlsl: &str, profile: &str) -> Result<Compiled, CompileError> {
        let not_run = |e: std::io::Error| CompileError::NotRun {
            path: self.path.display().to_string(),
            why: e.to_string(),
        };
        let mut child = Command::new(&self.path)
            .args([
                "-x",
                "hlsl",
                "-b",
                "d3dbc",
                "-p",
                profile,
                "-e",
                crate::ENTRY,
                "-o",
                "-",
                "-",
            ])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(not_run)?;
        // Standard input is written from a thread so that a compiler that prints a lot
        // before reading everything cannot deadlock us.
        let mut stdin = child.stdin.take();
        let text = hlsl.to_string();
        let writer = std::thread::spawn(move || {
            if let Some(s) = stdin.as_mut() {
                let _ = s.write_all(text.as_bytes());
            }
        });
        let mut out_pipe = child.stdout.take();
        let mut err_pipe = child.stderr.take();
        let reader = std::thread::spawn(move || {
            let mut out = Vec::new();
            if let Some(p) = out_pipe.as_mut() {
                let _ = p.read_to_end(&mut out);
            }
            out
        });
        let err_reader = std::thread::spawn(move || {
            let mut err = Vec::new();
            if let Some(p) = err_pipe.as_mut() {
                let _ = p.read_to_end(&mut err);
            }
            err
        });
        let start = Instant::now();
        let status = loop {
            match child.try_wait().map_err(not_run)? {
                Some(s) => break s,
                None if start.elapsed() > self.timeout => {
                    let _ = child.kill();
                    let _ = child.wait();
                    return Err(CompileError::Timeout(self.timeout));
                }
                None => std::thread::sleep(Duration::from_millis(2)),
            }
        };
        let _ = writer.join();
        let out = reader.join().unwrap_or_default();
        let err = String::from_utf8_lossy(&err_reader.join().unwrap_or_default())
            .trim()
            .to_string();
        if !status.success() || out.is_empty() {
            return Err(CompileError::Rejected {
                message: if err.is_empty() {
                    format!("exit status {status}")
                } else {
                    err
                },
            });
        }
        if out.len() % 4 != 0 {
            return Err(CompileError::Output(out.len()));
        }
        let tokens = out
            .chunks_exact(4)
            .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
            .collect();
        Ok(Compiled {
            tokens,
            warnings: err,
        })
    }
}

/// Compiles a decompiled shader with `compiler` for its own profile.
pub fn compile(compiler: &Compiler, d: &crate::Decompiled) -> Result<Compiled, CompileError> {
    compiler.compile(&d.hlsl, &d.profile)
}
