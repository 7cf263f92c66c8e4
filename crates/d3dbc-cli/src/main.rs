//! The `d3dbc` command: a thin layer over the `d3dbc` library.
//!
//! Every verb reads one or more inputs (`-` is stdin), processes each independently,
//! reports failures per file as `path: error`, and exits 1 if any input failed.

mod batch;
mod translate;
mod verbs;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand, ValueEnum};

/// Direct3D 9 shader bytecode toolkit (vs_1_1 … vs_3_0, ps_1_1 … ps_3_0).
#[derive(Parser, Debug)]
#[command(name = "d3dbc", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    verb: Verb,
}

/// Output of `dis`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum DisFormat {
    /// Microsoft's listing format.
    Text,
    /// The decoded IR (tokens, fields, CTAB) as JSON.
    Json,
}

/// Output of `asm`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum AsmFormat {
    /// Raw little-endian tokens.
    Bin,
    /// One `0x%08x` DWORD per line.
    Hex,
    /// A C array like fxc `/Fh`, with the listing in a comment.
    Header,
}

/// Output of `validate`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ReportFormat {
    /// One line per finding.
    Text,
    /// JSON array of findings per file.
    Json,
}

/// Inputs and where their outputs go, shared by the verbs that write files.
#[derive(Args, Debug)]
pub struct BatchArgs {
    /// Input files (`-` for stdin).
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Output file (single input only; default stdout).
    #[arg(short, long, conflicts_with = "out_dir")]
    pub output: Option<PathBuf>,
    /// Write one `<stem>.<ext>` per input into DIR (`.asm`/`.json` for dis,
    /// `.bin`/`.hex`/`.h` for asm).
    #[arg(long, value_name = "DIR")]
    pub out_dir: Option<PathBuf>,
}

#[derive(Subcommand, Debug)]
enum Verb {
    /// Disassemble bytecode (raw, fxc /Fh header, or hex text) into Microsoft's listing.
    Dis {
        #[command(flatten)]
        batch: BatchArgs,
        /// Output format.
        #[arg(long, value_enum, default_value_t = DisFormat::Text)]
        format: DisFormat,
        /// Annotate each instruction with its DWORD offset.
        #[arg(long)]
        offsets: bool,
        /// Annotate each instruction with its raw tokens.
        #[arg(long)]
        tokens: bool,
    },
    /// Assemble Microsoft-format assembly text into bytecode.
    Asm {
        #[command(flatten)]
        batch: BatchArgs,
        /// Predefine a macro.
        #[arg(short = 'D', value_name = "NAME[=VALUE]")]
        define: Vec<String>,
        /// Add an include directory.
        #[arg(short = 'I', value_name = "DIR")]
        include: Vec<PathBuf>,
        /// Output format.
        #[arg(long, value_enum, default_value_t = AsmFormat::Bin)]
        format: AsmFormat,
        /// Skip validation (assemble shaders the runtime would reject).
        #[arg(long)]
        no_validate: bool,
    },
    /// Check shaders against the D3D9 runtime's rules (bytecode, or assembly text).
    Validate {
        /// Input files (`-` for stdin).
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Report format.
        #[arg(long, value_enum, default_value_t = ReportFormat::Text)]
        format: ReportFormat,
    },
    /// Translate to SPIR-V, WGSL, GLSL 450, MSL or HLSL through naga.
    Translate(translate::TranslateArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    if let Verb::Dis { batch, .. }
    | Verb::Asm { batch, .. }
    | Verb::Translate(translate::TranslateArgs { batch, .. }) = &cli.verb
    {
        if batch.files.len() > 1 && batch.output.is_some() {
            use clap::CommandFactory;
            Cli::command()
                .error(
                    clap::error::ErrorKind::ArgumentConflict,
                    "-o takes a single input; use --out-dir for several",
                )
                .exit();
        }
    }
    let ok = match cli.verb {
        Verb::Dis {
            batch,
            format,
            offsets,
            tokens,
        } => verbs::dis(&batch, format, offsets, tokens),
        Verb::Asm {
            batch,
            define,
            include,
            format,
            no_validate,
        } => verbs::asm(&batch, &define, &include, format, no_validate),
        Verb::Validate { files, format } => verbs::validate(&files, format),
        Verb::Translate(args) => translate::run(&args),
    };
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
