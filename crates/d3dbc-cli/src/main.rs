//! The `d3dbc` command: a thin layer over the `d3dbc` library.
//!
//! Every verb reads one or more inputs (files, directories, `-` or nothing for stdin),
//! processes each independently, reports failures per input, and exits 1 if any input
//! failed (2 for usage errors, 141 when its output pipe was closed).

mod batch;
mod decompile;
mod effect_json;
mod exec_verbs;
mod json;
mod load;
mod rip;
mod translate;
mod verbs;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand, ValueEnum};

/// Direct3D 9 shader bytecode toolkit (vs_1_1 … vs_3_0, ps_1_1 … ps_3_0).
///
/// Outputs: one input goes to stdout (or `-o FILE`); several inputs need `--out-dir DIR`,
/// where each output is named after its input (the path below a directory input is
/// kept). Two inputs that would write the same file are refused before anything is
/// written. `-o -` is stdout. A closed pipe ends the command quietly (status 141).
#[derive(Parser, Debug)]
#[command(name = "d3dbc", version, about, long_about)]
struct Cli {
    /// Colour diagnostics: auto (on a terminal, unless NO_COLOR is set), always, never.
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto, global = true)]
    color: ColorChoice,
    #[command(subcommand)]
    verb: Verb,
}

/// `--color`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    /// Colour when writing to a terminal.
    Auto,
    /// Always colour.
    Always,
    /// Never colour.
    Never,
}

/// Output of `dis`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum DisFormat {
    /// Microsoft's listing format.
    Text,
    /// The decoded shaders as JSON: an array with one record per input (streamed;
    /// compact unless --pretty).
    Json,
}

/// Output of `asm`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum AsmFormat {
    /// Raw little-endian tokens (`.vso`/`.pso` under --out-dir).
    Bin,
    /// One `0x%08x` DWORD per line.
    Hex,
    /// A C array like fxc `/Fh`, with the listing in a comment.
    Header,
}

/// Output of `validate`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ReportFormat {
    /// One line per finding; nothing for a valid input unless -v.
    Text,
    /// An array with one record per input: status, shaders, findings, diagnostics.
    Json,
}

/// Inputs and where their outputs go, shared by the verbs.
#[derive(Args, Debug)]
pub struct BatchArgs {
    /// Input files or directories (recursed); `-` or nothing reads stdin.
    pub files: Vec<PathBuf>,
    #[command(flatten)]
    pub ext: ExtArgs,
    /// Output file (single input; `-` = stdout, the default for one input).
    #[arg(short, long, conflicts_with = "out_dir")]
    pub output: Option<PathBuf>,
    /// Write one file per input into DIR, named after the input with the output's
    /// extension (created if missing; refused if it is a file).
    #[arg(long, value_name = "DIR")]
    pub out_dir: Option<PathBuf>,
}

/// `--ext`: the one input rule, shared by every verb that takes directories.
#[derive(Args, Debug, Clone)]
pub struct ExtArgs {
    /// Extensions read from directory inputs (comma-separated). Default: the extensions
    /// of what the verb reads (bytecode: vso,pso,cso,bin,fxo,h,hex; listings:
    /// asm,vsh,psh,vsa,psa), plus any other file recognised by content (bytecode by
    /// its version token, a listing by its version statement: `.txt` dumps).
    #[arg(long, value_name = "EXT")]
    pub ext: Vec<String>,
}

#[derive(Subcommand, Debug)]
enum Verb {
    /// Disassemble bytecode (raw, fxc /Fh header, or hex text) into Microsoft's listing;
    /// an fx_2_0 effect (`.fxo`) lists as fxc /Fc lists it.
    Dis {
        #[command(flatten)]
        batch: BatchArgs,
        #[command(flatten)]
        opts: verbs::DisOptions,
    },
    /// Assemble Microsoft-format assembly text into bytecode.
    Asm {
        #[command(flatten)]
        batch: BatchArgs,
        #[command(flatten)]
        opts: verbs::AsmOptions,
    },
    /// Check shaders against the D3D9 runtime's rules (bytecode, or assembly text).
    /// Every report goes to stdout; a valid input prints nothing unless -v.
    Validate {
        /// Input files or directories (recursed); `-` or nothing reads stdin.
        files: Vec<PathBuf>,
        #[command(flatten)]
        ext: ExtArgs,
        /// Report format.
        #[arg(long, value_enum, default_value_t = ReportFormat::Text)]
        format: ReportFormat,
        /// Indent JSON output.
        #[arg(long)]
        pretty: bool,
        /// Also name the inputs that are valid.
        #[arg(short, long)]
        verbose: bool,
        /// Write the reports (text, or the one JSON array) to FILE instead of standard
        /// output (`-` = stdout).
        #[arg(short, long, value_name = "FILE")]
        output: Option<PathBuf>,
    },
    /// Execute a shader on the CPU: one vertex (vs) or one pixel quad (ps); `--trace` steps through it.
    ///
    /// The inputs are those of the scene `render` draws, at texture coordinate (0, 0):
    /// colour inputs white, normals (0, 0, 1, 0), texture coordinates and other inputs
    /// (0, 0, 0, 1) unless --input sets them (`--input t0=0.3,0.6` gives what `render`
    /// draws where t0 is (0.3, 0.6)); float constants from the CTAB defaults, those
    /// declared without one at 1, others 0; checkerboards in unset samplers, linear
    /// filtering.
    Run(exec_verbs::RunArgs),
    /// Draw a pixel shader (or an effect pass) full-screen on the CPU into a PNG.
    ///
    /// The scene (the same as `run`'s, which runs one point of it): texture coordinates
    /// (u, v, 0, 1) across the image, colour inputs white, normals (0, 0, 1, 0); float
    /// constants from the CTAB defaults, those declared without one at 1, others 0;
    /// checkerboards in unset samplers, linear filtering. --const/--int/--bool set the
    /// registers in both stages' constant files (the pixel shader's and, with --vs, the
    /// vertex shader's).
    Render(exec_verbs::RenderArgs),
    /// Translate to SPIR-V (direct, or `--via naga`), WGSL, GLSL 450, MSL or HLSL.
    Translate(translate::TranslateArgs),
    /// Decompile to D3D9 HLSL that compiles again (`// compile: -T <profile> -E main`);
    /// `--check` compiles it and proves it computes the same on the CPU executor.
    Decompile(decompile::DecompileArgs),
    /// Find D3D9 shaders and fx_2_0 effects inside any files (offset, kind, version,
    /// size, CRC-32); `--out-dir` writes each as `<stem>@<hex offset>.vso|.pso|.fxo`.
    Rip(rip::RipArgs),
}

impl Verb {
    /// The verb as typed.
    fn name(&self) -> &'static str {
        match self {
            Verb::Dis { .. } => "dis",
            Verb::Asm { .. } => "asm",
            Verb::Validate { .. } => "validate",
            Verb::Run(_) => "run",
            Verb::Render(_) => "render",
            Verb::Translate(_) => "translate",
            Verb::Rip(_) => "rip",
            Verb::Decompile(_) => "decompile",
        }
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    batch::init_color(cli.color);
    let verb = cli.verb.name();
    let ok = match cli.verb {
        Verb::Dis { batch, opts } => verbs::dis(&batch, &opts),
        Verb::Asm { batch, opts } => verbs::asm(&batch, &opts),
        Verb::Validate {
            files,
            ext,
            format,
            pretty,
            verbose,
            output,
        } => verbs::validate(&files, &ext.ext, format, pretty, verbose, output.as_deref()),
        Verb::Run(a) => exec_verbs::run(&a),
        Verb::Render(a) => exec_verbs::render(&a),
        Verb::Translate(args) => translate::run(&args),
        Verb::Rip(args) => rip::run(&args),
        Verb::Decompile(args) => decompile::run(&args),
    };
    match ok {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(usage_error) => {
            // As clap reports its own usage errors: the message, the verb's usage, a
            // pointer to its help; status 2.
            let mut cmd = <Cli as clap::CommandFactory>::command();
            cmd.build();
            let usage = cmd
                .find_subcommand_mut(verb)
                .map(|c| c.render_usage().to_string())
                .unwrap_or_default();
            eprintln!(
                "{}\n\n{usage}\n\nFor more information, try 'd3dbc {verb} --help'.",
                batch::paint(&format!("error: {usage_error}"), true)
            );
            ExitCode::from(2)
        }
    }
}
