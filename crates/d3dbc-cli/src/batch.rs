//! Batch plumbing shared by every verb: expanding inputs with the one input rule
//! (files, directories recursed by extension or content, `--ext`, `-` = stdin, stdin
//! when none is given), planning where
//! each output goes (stdout, `-o FILE`, `-o -`, `--out-dir DIR/<name>.<ext>`) with
//! name collisions refused before anything is written, the one stdout writer (a closed
//! pipe ends the program quietly), colour and the progress bar.

use std::collections::HashMap;
use std::io::{IsTerminal, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

use crate::{BatchArgs, ColorChoice};

/// Exit status after a closed output pipe: what a shell reports for a tool killed by
/// SIGPIPE (coreutils' `cat big | head`), without a message.
pub const BROKEN_PIPE_STATUS: i32 = 141;

/// One input: the path to read (`-` = stdin) and the name its output takes under
/// `--out-dir` (the file name, or the path below a directory given as input).
#[derive(Clone, Debug)]
pub struct Input {
    /// What to read.
    pub path: PathBuf,
    /// Relative output name (extension replaced later).
    pub rel: PathBuf,
    /// The output name keeps the input's extension before its own (`foo.vso.asm`):
    /// set by [`Target::settle_names`] where two inputs would give the same name.
    pub keep_ext: bool,
}

impl Input {
    /// The name shown in messages.
    pub fn display(&self) -> String {
        display_name(&self.path)
    }

    /// The output name with extension `ext` (`foo.asm`, or `foo.vso.asm` when the
    /// input keeps its extension), relative to the output directory.
    pub fn out_name(&self, ext: &str) -> PathBuf {
        if self.keep_ext {
            let mut name = self.rel.clone().into_os_string();
            name.push(".");
            name.push(ext);
            PathBuf::from(name)
        } else {
            self.rel.with_extension(ext)
        }
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

/// What a verb reads, which decides what a directory input yields.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reads {
    /// Bytecode in any container (raw, fxc `/Fh` header, hex text): `dis`.
    Bytecode,
    /// Assembly text: `asm`.
    Listings,
    /// Either: `validate`, `translate`.
    Both,
    /// Any file at all (`rip` scans every file below a directory).
    Anything,
}

/// Extensions of bytecode files (raw, headers, hex text).
pub const BYTECODE_EXTS: &[&str] = &["vso", "pso", "cso", "bin", "fxo", "fxb", "xnb", "h", "hex"];
/// Extensions of assembly listings. `.txt` is not among them: a `.txt` file (the
/// HelixMod/3DMigoto dumps) is taken when its content is a listing.
pub const LISTING_EXTS: &[&str] = &["asm", "vsh", "psh", "vsa", "psa"];

/// Bytes read from a file of another extension to recognise it by content.
const SNIFF_BYTES: u64 = 64 * 1024;

impl Reads {
    fn exts(self) -> Vec<&'static str> {
        match self {
            Reads::Bytecode => BYTECODE_EXTS.to_vec(),
            Reads::Listings => LISTING_EXTS.to_vec(),
            Reads::Both => BYTECODE_EXTS.iter().chain(LISTING_EXTS).copied().collect(),
            Reads::Anything => Vec::new(),
        }
    }

    /// A file of another extension, recognised by its first bytes: raw bytecode (a
    /// D3D9 version token), an fx_2_0 effect, or a listing (a version statement after
    /// comments).
    fn sniff(self, path: &Path) -> bool {
        if self == Reads::Anything {
            return true;
        }
        let mut head = Vec::new();
        let Ok(f) = std::fs::File::open(path) else {
            return false;
        };
        if f.take(SNIFF_BYTES).read_to_end(&mut head).is_err() {
            return false;
        }
        let bytecode = head.len() >= 4 && {
            let v = u32::from_le_bytes([head[0], head[1], head[2], head[3]]);
            d3dbc::Version::from_token(v).is_some()
        } || d3dbc::fx::Effect::is_effect(&head);
        let listing = || {
            !d3dbc::input::is_binary(&head)
                && d3dbc::input::looks_like_assembly(&d3dbc::input::decode_text(&head))
        };
        match self {
            Reads::Bytecode => bytecode,
            Reads::Listings => listing(),
            Reads::Both | Reads::Anything => bytecode || listing(),
        }
    }
}

/// The one input rule of every verb. No input means stdin; a file is read whatever its
/// name; a directory yields every file below it (sorted) that is
/// - with `--ext` (`exts` non-empty): one of those extensions (case-insensitive);
/// - otherwise: one of the extensions of what the verb reads ([`BYTECODE_EXTS`],
///   [`LISTING_EXTS`]), or any other file whose content is recognised as such
///   (bytecode by its version token, listings by their version statement: `.txt`
///   dumps).
pub fn expand(files: &[PathBuf], exts: &[String], reads: Reads) -> Result<Vec<Input>, String> {
    if files.is_empty() {
        if std::io::stdin().is_terminal() {
            return Err("no input: name files or directories, or pipe data to stdin".into());
        }
        return Ok(vec![Input {
            path: "-".into(),
            rel: "stdin".into(),
            keep_ext: false,
        }]);
    }
    let exts = ext_list(exts);
    let mut out = Vec::new();
    for f in files {
        if f.is_dir() {
            let mut found = Vec::new();
            walk(f, &exts, reads, &mut found).map_err(|e| format!("{}: {e}", f.display()))?;
            found.sort();
            if found.is_empty() {
                let what = if reads == Reads::Anything {
                    "no file".to_string()
                } else if exts.is_empty() {
                    format!(
                        "no shader file (extension {}, or recognised by content); \
                         --ext chooses extensions",
                        reads.exts().join(", ")
                    )
                } else {
                    format!("no file with extension {}", exts.join(", "))
                };
                return Err(format!("{}: directory holds {what}", f.display()));
            }
            out.extend(found.into_iter().map(|p| Input {
                rel: p.strip_prefix(f).unwrap_or(&p).to_path_buf(),
                path: p,
                keep_ext: false,
            }));
        } else {
            let rel = if f == Path::new("-") {
                PathBuf::from("stdin")
            } else {
                f.file_name().map_or_else(|| "out".into(), PathBuf::from)
            };
            out.push(Input {
                path: f.clone(),
                rel,
                keep_ext: false,
            });
        }
    }
    Ok(out)
}

fn walk(dir: &Path, exts: &[String], reads: Reads, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let p = entry?.path();
        if p.is_dir() {
            walk(&p, exts, reads, out)?;
            continue;
        }
        let ext = p
            .extension()
            .map(|e| e.to_string_lossy().to_ascii_lowercase());
        let has = |x: &str| ext.as_deref().is_some_and(|e| x.eq_ignore_ascii_case(e));
        let take = if exts.is_empty() {
            reads.exts().into_iter().any(has) || reads.sniff(&p)
        } else {
            exts.iter().map(String::as_str).any(has)
        };
        if take {
            out.push(p);
        }
    }
    Ok(())
}

/// The extensions of `--ext` (comma-separated, repeatable, leading dots dropped).
fn ext_list(given: &[String]) -> Vec<String> {
    given
        .iter()
        .flat_map(|s| s.split(','))
        .map(|s| s.trim().trim_start_matches('.').to_string())
        .filter(|s| !s.is_empty())
        .collect()
}

/// Reads an input file, or stdin for `-` (an `.xnb` effect file: its effect).
pub fn read_input(path: &Path) -> Result<Vec<u8>, String> {
    let bytes = read_file(path)?;
    // An XNA content file (`.xnb`) holding an effect reads as that effect.
    match d3dbc::input::xnb::effect_of(&bytes) {
        None => Ok(bytes),
        Some(r) => r.map_err(|e| e.to_string()),
    }
}

/// The bytes of a file, or of stdin for `-`.
fn read_file(path: &Path) -> Result<Vec<u8>, String> {
    if path == Path::new("-") {
        let mut buf = Vec::new();
        std::io::stdin()
            .read_to_end(&mut buf)
            .map_err(|e| format!("stdin: {e}"))?;
        Ok(buf)
    } else if path.is_dir() {
        Err("is a directory".into())
    } else {
        std::fs::read(path).map_err(|e| e.to_string())
    }
}

/// Where outputs go.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    /// Standard output (one input, `-o -`, or several inputs for verbs that can
    /// concatenate).
    Stdout,
    /// One named file (`-o FILE`, one input).
    File(PathBuf),
    /// One file per input in a directory.
    Dir(PathBuf),
}

impl Target {
    /// Picks the target. Several inputs go to stdout only when the verb can put them
    /// one after another (`concat`); otherwise `--out-dir` is required, and outputs are
    /// never written next to the inputs or into the current directory unasked.
    pub fn plan(batch: &BatchArgs, inputs: usize, concat: bool) -> Result<Target, String> {
        match (&batch.output, &batch.out_dir) {
            (Some(p), _) if p == Path::new("-") => Ok(Target::Stdout),
            // Text and JSON outputs go one after another into the one file, as they
            // would go to standard output.
            (Some(p), _) if inputs > 1 && concat => Ok(Target::File(p.clone())),
            (Some(p), _) if inputs > 1 => Err(format!(
                "-o {} takes a single input ({inputs} given); use --out-dir DIR",
                p.display()
            )),
            (Some(p), _) => Ok(Target::File(p.clone())),
            (None, Some(d)) => {
                if d.exists() && !d.is_dir() {
                    return Err(format!(
                        "--out-dir {}: exists and is not a directory",
                        d.display()
                    ));
                }
                Ok(Target::Dir(d.clone()))
            }
            (None, None) if inputs > 1 && !concat => Err(format!(
                "{inputs} inputs: name an output directory with --out-dir DIR (or -o - for stdout)"
            )),
            (None, None) => Ok(Target::Stdout),
        }
    }

    /// The file an input's output goes to under `--out-dir`.
    pub fn path_for(&self, input: &Input, ext: &str) -> Option<PathBuf> {
        match self {
            Target::Dir(d) => Some(d.join(input.out_name(ext))),
            Target::File(p) => Some(p.clone()),
            Target::Stdout => None,
        }
    }

    /// The one naming rule of every verb under `--out-dir`: an output is named after
    /// its input with the output's extension (`foo.pso` → `foo.asm`); inputs that would
    /// give the same name (`foo.vso` and `foo.pso`, the usual game dump) each keep
    /// their own extension before it (`foo.vso.asm`, `foo.pso.asm`). What still
    /// collides (the same relative path under two directory inputs) is refused before
    /// anything is written.
    pub fn settle_names<'a>(
        &self,
        outputs: impl IntoIterator<Item = (&'a mut Input, &'a str)>,
    ) -> Result<(), String> {
        let mut items: Vec<(&mut Input, &str)> = outputs.into_iter().collect();
        if !matches!(self, Target::Dir(_)) {
            return Ok(());
        }
        let mut count: HashMap<PathBuf, usize> = HashMap::new();
        for (input, ext) in &items {
            *count.entry(input.out_name(ext)).or_default() += 1;
        }
        for (input, ext) in &mut items {
            if count[&input.out_name(ext)] > 1 {
                input.keep_ext = true;
            }
        }
        self.check_collisions(
            items
                .iter()
                .filter_map(|(i, ext)| self.path_for(i, ext).map(|p| (&**i, p))),
        )
    }

    /// Refuses two inputs whose outputs would land on the same file (`a/x.pso` and
    /// `b/x.pso` → `x.asm`), before anything is written.
    pub fn check_collisions<'a>(
        &self,
        outputs: impl IntoIterator<Item = (&'a Input, PathBuf)>,
    ) -> Result<(), String> {
        let mut seen: HashMap<PathBuf, &Input> = HashMap::new();
        for (input, path) in outputs {
            if let Some(first) = seen.insert(path.clone(), input) {
                return Err(format!(
                    "{} and {} would both be written to {}; nothing written (give them separate runs or rename one)",
                    first.display(),
                    input.display(),
                    path.display()
                ));
            }
        }
        Ok(())
    }

    /// Writes one input's whole output to its file (stdout goes through [`Out`]).
    pub fn write_file(&self, input: &Input, ext: &str, data: &[u8]) -> Result<(), String> {
        let Some(p) = self.path_for(input, ext) else {
            return Out::with(|o| o.write(data));
        };
        if let Some(parent) = p.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
        }
        std::fs::write(&p, data).map_err(|e| format!("{}: {e}", p.display()))
    }
}

/// One input's converted output: the extension its file gets, its bytes, and what else
/// the verb keeps for it (written by the verb after the main output).
pub type Converted<X> = (String, Vec<u8>, X);

/// The shape every one-output-per-input verb (`asm`, `translate`) shares: converts each
/// input with `convert` (its errors reported per input, the batch goes on), refuses
/// output names that collide under `--out-dir` before anything is written, refuses
/// binary output on a terminal (`binary`: the refusal's message) or several binary outputs
/// on one stream, then writes each output (several text outputs on standard output, each
/// under a `// NAME` header, as `dis` prints them) and
/// hands it to `after` (side files). `Ok(true)` when every input converted and was
/// written.
pub fn convert_all<X>(
    inputs: &[Input],
    target: &Target,
    binary: Option<&str>,
    mut convert: impl FnMut(&Input, &Progress) -> Result<Converted<X>, String>,
    mut after: impl FnMut(&Input, &X, &Progress) -> bool,
) -> Result<bool, String> {
    let many_to_stdout = *target == Target::Stdout && inputs.len() > 1;
    if many_to_stdout && binary.is_some() {
        return Err(format!(
            "{} inputs: binary outputs cannot share standard output (one stream would not \
             say where each ends); use --out-dir DIR, or a text format",
            inputs.len()
        ));
    }
    let progress = Progress::new(inputs.len());
    let mut ok = true;
    let mut done = Vec::with_capacity(inputs.len());
    for input in inputs {
        match convert(input, &progress) {
            Ok(out) => done.push((input.clone(), out)),
            Err(e) => {
                ok = false;
                progress.eprintln(&prefixed(&input.display(), &e));
            }
        }
        progress.inc();
    }
    // Names can depend on the output (`.vso`/`.pso`, `.vert`/`.frag`): checked once all
    // are known.
    target.settle_names(done.iter_mut().map(|(i, (ext, _, _))| (i, ext.as_str())))?;
    if let Some(refusal) = binary {
        if *target == Target::Stdout && !done.is_empty() && std::io::stdout().is_terminal() {
            return Err(refusal.into());
        }
    }
    for (input, (ext, data, extra)) in &mut done {
        if many_to_stdout {
            // One after another, each under the header `dis` puts on its inputs.
            data.splice(0..0, format!("// {}\n", input.display()).into_bytes());
        }
        if let Err(e) = target.write_file(input, ext, data) {
            ok = false;
            progress.eprintln(&e);
        }
        ok &= after(input, extra, &progress);
    }
    Ok(ok)
}

/// The one writer of a verb's stream output: standard output, or the one file of
/// `-o FILE` (several inputs' text or JSON array go into it as they would go to standard
/// output). A closed pipe (`d3dbc dis big.pso | head`) ends the program at once,
/// quietly, with [`BROKEN_PIPE_STATUS`].
pub struct Out<'a>(std::io::BufWriter<Box<dyn Write + 'a>>);

impl Out<'_> {
    /// Runs `f` with the standard-output writer and flushes.
    pub fn with<T>(f: impl FnOnce(&mut Out) -> Result<T, String>) -> Result<T, String> {
        Out::to(None, f)
    }

    /// Runs `f` with a writer to `file` (`None` or `-`: standard output; missing
    /// folders above a file are created) and flushes.
    pub fn to<T>(
        file: Option<&Path>,
        f: impl FnOnce(&mut Out) -> Result<T, String>,
    ) -> Result<T, String> {
        let inner: Box<dyn Write> = match file.filter(|p| *p != Path::new("-")) {
            Some(p) => {
                if let Some(parent) = p.parent().filter(|p| !p.as_os_str().is_empty()) {
                    std::fs::create_dir_all(parent)
                        .map_err(|e| format!("{}: {e}", parent.display()))?;
                }
                Box::new(std::fs::File::create(p).map_err(|e| format!("{}: {e}", p.display()))?)
            }
            None => Box::new(std::io::stdout().lock()),
        };
        let mut o = Out(std::io::BufWriter::with_capacity(1 << 16, inner));
        let r = f(&mut o)?;
        o.flush()?;
        Ok(r)
    }

    /// Writes bytes.
    pub fn write(&mut self, data: &[u8]) -> Result<(), String> {
        pipe_ok(self.0.write_all(data))
    }

    /// Writes a string.
    pub fn str(&mut self, s: &str) -> Result<(), String> {
        self.write(s.as_bytes())
    }

    /// Flushes.
    pub fn flush(&mut self) -> Result<(), String> {
        pipe_ok(self.0.flush())
    }

    /// The raw writer (for serde_json).
    pub fn inner(&mut self) -> &mut dyn Write {
        &mut self.0
    }
}

/// Turns a write result into a message, or ends the program quietly on a closed pipe.
pub fn pipe_ok(r: std::io::Result<()>) -> Result<(), String> {
    match r {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {
            std::process::exit(BROKEN_PIPE_STATUS)
        }
        Err(e) => Err(format!("output: {e}")),
    }
}

/// Same for serde_json errors while streaming to stdout.
pub fn json_ok(r: serde_json::Result<()>) -> Result<(), String> {
    pipe_ok(r.map_err(std::io::Error::from))
}

static COLOR_STDOUT: AtomicBool = AtomicBool::new(false);
static COLOR_STDERR: AtomicBool = AtomicBool::new(false);

/// Sets colour for both streams from `--color` (auto: a terminal, and `NO_COLOR` unset).
pub fn init_color(choice: ColorChoice) {
    let auto = |tty: bool| tty && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
    let (out, err) = match choice {
        ColorChoice::Always => (true, true),
        ColorChoice::Never => (false, false),
        ColorChoice::Auto => (
            auto(std::io::stdout().is_terminal()),
            auto(std::io::stderr().is_terminal()),
        ),
    };
    COLOR_STDOUT.store(out, Ordering::Relaxed);
    COLOR_STDERR.store(err, Ordering::Relaxed);
}

/// Colours a diagnostic text (`file:line:col: error[E0203]: …`, source line, carets)
/// for stdout (`stderr == false`) or stderr, when colour is on for that stream.
pub fn paint(text: &str, stderr: bool) -> String {
    let on = if stderr {
        COLOR_STDERR.load(Ordering::Relaxed)
    } else {
        COLOR_STDOUT.load(Ordering::Relaxed)
    };
    if !on {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len() + 32);
    for (i, line) in text.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let sev = [(": error", "\x1b[1;31m"), (": warning", "\x1b[1;33m")]
            .into_iter()
            .find_map(|(s, c)| line.find(s).map(|at| (at, s, c)));
        if let Some((at, s, c)) = sev {
            let end = line[at + s.len()..]
                .find(": ")
                .map_or(line.len(), |e| at + s.len() + e);
            out.push_str("\x1b[1m");
            out.push_str(&line[..at]);
            out.push_str("\x1b[0m: ");
            out.push_str(c);
            out.push_str(&line[at + 2..end]);
            out.push_str("\x1b[0m");
            out.push_str(&line[end..]);
        } else if !line.trim().is_empty() && line.trim().chars().all(|c| c == '^') {
            out.push_str("\x1b[1;32m");
            out.push_str(line);
            out.push_str("\x1b[0m");
        } else {
            out.push_str(line);
        }
    }
    out
}

/// Escapes each line of a message that may quote the input (names in hex text, file
/// names) so it cannot drive the terminal; line breaks are kept.
pub fn escape_lines(msg: &str) -> String {
    msg.split('\n')
        .map(d3dbc::escape)
        .collect::<Vec<_>>()
        .join("\n")
}

/// Inputs from which a batch shows a progress bar (when stderr is a terminal).
pub const PROGRESS_FROM: usize = 2000;

/// A progress bar on big batches when stderr is a terminal; messages printed through
/// it do not tear the bar.
pub struct Progress(Option<indicatif::ProgressBar>);

impl Progress {
    /// A bar for `n` inputs, shown only for big batches on a terminal.
    pub fn new(n: usize) -> Self {
        if n < PROGRESS_FROM || !std::io::stderr().is_terminal() {
            return Progress(None);
        }
        let bar = indicatif::ProgressBar::new(n as u64);
        if let Ok(style) = indicatif::ProgressStyle::with_template(
            "{bar:40} {pos}/{len} files {elapsed_precise} (eta {eta})",
        ) {
            bar.set_style(style);
        }
        Progress(Some(bar))
    }

    /// One input done.
    pub fn inc(&self) {
        if let Some(b) = &self.0 {
            b.inc(1);
        }
    }

    /// Prints a message on stderr (escaped, then coloured when enabled).
    pub fn eprintln(&self, msg: &str) {
        let msg = paint(&escape_lines(msg), true);
        match &self.0 {
            Some(b) => b.suspend(|| {
                let _ = writeln!(std::io::stderr(), "{msg}");
            }),
            None => {
                let _ = writeln!(std::io::stderr(), "{msg}");
            }
        }
    }

    /// Runs `f` (writing to stdout) with the bar out of the way.
    pub fn suspend<T>(&self, f: impl FnOnce() -> T) -> T {
        match &self.0 {
            Some(b) => b.suspend(f),
            None => f(),
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        if let Some(b) = &self.0 {
            b.finish_and_clear();
        }
    }
}

/// `path: message`, unless the message already starts with the path.
pub fn prefixed(name: &str, msg: &str) -> String {
    if msg.starts_with(&format!("{name}:")) {
        msg.to_string()
    } else {
        format!("{name}: {msg}")
    }
}
