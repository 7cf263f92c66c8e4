//! `d3dbc run` (one vertex or one pixel quad, with an instruction trace) and
//! `d3dbc render` (a full-screen draw to a PNG) over the CPU executor `d3dbc-exec`.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use clap::{Args, ValueEnum};
use d3dbc::{regs, Shader, Version};
use d3dbc_exec::draw::{Constants, Texture};
use d3dbc_exec::render::{Options, Renderer};
use d3dbc_exec::{draw, quick, RunError};
use serde_json::json;

use crate::batch;
use crate::load::{self, ValidityArgs};

/// A line into `run`'s output, which goes to standard output or `-o FILE` at the end.
macro_rules! out {
    ($buf:expr, $($t:tt)*) => {{
        use std::fmt::Write as _;
        let _ = writeln!($buf, $($t)*);
    }};
}

/// Output of `run`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum RunFormat {
    /// Register = value lines.
    Text,
    /// One JSON object.
    Json,
}

/// Constants shared by `run` and `render`.
#[derive(Args, Debug)]
pub struct ConstArgs {
    /// Float constant, e.g. `c0=1,2,3,4` (repeatable; missing components are 0).
    #[arg(long = "const", value_name = "cN=X,Y,Z,W")]
    pub consts: Vec<String>,
    /// Integer constant, e.g. `i0=3,0,1,0`.
    #[arg(long = "int", value_name = "iN=X,Y,Z,W")]
    pub ints: Vec<String>,
    /// Boolean constant, e.g. `b0=true`.
    #[arg(long = "bool", value_name = "bN=true|false")]
    pub bools: Vec<String>,
    /// Texture from a PNG for a sampler, e.g. `s0=wood.png`.
    #[arg(long = "texture", value_name = "sN=FILE.png")]
    pub textures: Vec<String>,
}

/// Which pass of an effect input to use (`render`/`run` of an `.fxo`), and `--set`.
#[derive(Args, Debug)]
pub struct PassArgs {
    /// Technique of an effect input (name or index; default the first).
    #[arg(long)]
    pub technique: Option<String>,
    /// Pass of the technique (name or index; default 0).
    #[arg(long)]
    pub pass: Option<String>,
    /// Parameter value by name, e.g. `--set tint=1,0.5,0,1`: an effect parameter, or a
    /// constant of a plain shader's constant table (staged into its registers as D3DX's
    /// SetValue does). Every component, row-major, array elements one after another;
    /// `NAME=identity` for a matrix. Repeatable.
    #[arg(long = "set", value_name = "NAME=VALUES")]
    pub set: Vec<String>,
}

impl PassArgs {
    /// (technique index, pass index, values) in `effect`; a bad choice is a usage error
    /// that names the valid ones.
    fn resolve(
        &self,
        effect: &d3dbc::fx::Effect,
    ) -> Result<(usize, usize, d3dbc::fx::apply::Values), String> {
        let t = effect
            .find_technique(self.technique.as_deref().unwrap_or("0"))
            .map_err(|e| format!("--technique: {e}"))?;
        let p = effect
            .find_pass(t, self.pass.as_deref().unwrap_or("0"))
            .map_err(|e| format!("--pass: {e}"))?;
        let values = effect
            .parse_values(&self.set)
            .map_err(|e| format!("--set {e}"))?;
        Ok((t, p, values))
    }

    /// For a plain shader: `--technique`/`--pass` are usage errors.
    fn refuse_on_shader(&self) -> Result<(), String> {
        if self.technique.is_some() || self.pass.is_some() {
            return Err(
                "--technique and --pass choose a pass of an effect; this input is a \
                        shader, not an effect"
                    .into(),
            );
        }
        Ok(())
    }

    /// `--set` on plain shaders: each name staged through the constant table of the
    /// first of `shaders` that declares it (an error naming what the tables hold when
    /// none does). One `Constants` per shader.
    fn shader_constants(
        &self,
        shaders: &[&Shader],
    ) -> Result<Vec<d3dbc::fx::apply::Constants>, String> {
        let mut out = vec![d3dbc::fx::apply::Constants::default(); shaders.len()];
        for spec in &self.set {
            let mut first_err = None;
            let mut done = false;
            for (k, sh) in shaders.iter().enumerate() {
                match d3dbc::fx::pass::constant_table_value(sh, spec) {
                    Ok(c) => {
                        out[k].float.extend(c.float);
                        out[k].int.extend(c.int);
                        out[k].bool.extend(c.bool);
                        done = true;
                    }
                    Err(e) => {
                        first_err.get_or_insert(e);
                    }
                }
            }
            if !done {
                return Err(format!("--set {}", first_err.unwrap_or_default()));
            }
        }
        Ok(out)
    }
}

/// Writes `--set` constants of a plain shader over a draw's constant file.
fn apply_set(c: &d3dbc::fx::apply::Constants, file: &mut Constants) {
    for (r, v) in &c.float {
        file.set_float_bits(*r as usize, &v.map(f32::to_bits));
    }
    for (r, v) in &c.int {
        file.set_int(*r as usize, v);
    }
    for &(r, b) in &c.bool {
        let r = r as usize;
        if file.bool.len() <= r {
            file.bool.resize(r + 1, false);
        }
        file.bool[r] = b;
    }
}

/// `d3dbc run` (its defaults: the help text on `Verb::Run`).
#[derive(Args, Debug)]
pub struct RunArgs {
    /// The shader (bytecode, fxc header, hex text or assembly), or an effect (`.fxo`,
    /// `.fxb`): the pass runs as `render` draws it, its vertex shader at the quad's
    /// (u, v) = (0, 0) corner, then its pixel shader with what the vertex shader feeds
    /// it there (the pixel `render` draws at that corner).
    pub shader: PathBuf,
    #[command(flatten)]
    pub pass: PassArgs,
    #[command(flatten)]
    pub consts: ConstArgs,
    /// Input register value, e.g. `v0=1,0,0,1` or `t0=0.5,0.5` (repeatable). For an
    /// effect pass with a pixel shader, the pixel shader's inputs (over what the vertex
    /// shader feeds it).
    #[arg(long = "input", value_name = "REG=X,Y,Z,W")]
    pub inputs: Vec<String>,
    /// Print every executed instruction with the value it wrote (at most the first
    /// 65,536 steps; kept when the instruction budget runs out).
    #[arg(long)]
    pub trace: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = RunFormat::Text)]
    pub format: RunFormat,
    /// Indent JSON output.
    #[arg(long)]
    pub pretty: bool,
    /// Write the output to FILE instead of standard output (`-` = stdout).
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    #[command(flatten)]
    pub validity: ValidityArgs,
}

/// `d3dbc render` (its scene: the help text on `Verb::Render`).
#[derive(Args, Debug)]
pub struct RenderArgs {
    /// The pixel shader, or an effect (`.fxo`: the pass chosen by --technique/--pass is
    /// drawn with its shaders, constants, render and sampler states).
    pub ps: PathBuf,
    #[command(flatten)]
    pub pass: PassArgs,
    /// A vertex shader to feed the full-screen quad through.
    #[arg(long)]
    pub vs: Option<PathBuf>,
    /// Output PNG (missing folders above it are created); `-` writes it to standard
    /// output (refused on a terminal).
    #[arg(short, long)]
    pub output: PathBuf,
    /// Image size, WIDTHxHEIGHT (1x1 up to 16384x16384).
    #[arg(long, default_value = "256x256")]
    pub size: String,
    /// Render on the GPU (the shaders translated by d3dbc-naga, run by wgpu on the first
    /// Vulkan adapter) instead of the CPU reference executor. Needs a build with the cargo
    /// feature `gpu`.
    #[arg(long)]
    pub gpu: bool,
    #[command(flatten)]
    pub consts: ConstArgs,
    #[command(flatten)]
    pub validity: ValidityArgs,
}

fn load_shader(path: &Path, validity: ValidityArgs) -> Result<(Shader, Vec<u32>), String> {
    let l = load::load(path, validity, None)?;
    Ok((l.shader, l.tokens))
}

/// `name=a,b,c,d` → (register number after the prefix, values).
fn parse_assign<T: std::str::FromStr>(s: &str, prefix: &str) -> Result<(usize, Vec<T>), String> {
    let (name, vals) = s
        .split_once('=')
        .ok_or_else(|| format!("`{s}`: expected NAME=VALUES"))?;
    let num = name
        .trim()
        .strip_prefix(prefix)
        .and_then(|n| n.parse::<usize>().ok())
        .ok_or_else(|| format!("`{s}`: expected {prefix}N=…"))?;
    let v = vals
        .split(',')
        .map(|x| {
            x.trim()
                .parse::<T>()
                .map_err(|_| format!("`{s}`: bad value `{x}`"))
        })
        .collect::<Result<Vec<T>, String>>()?;
    if v.len() > 4 {
        return Err(format!("`{s}`: at most 4 values"));
    }
    Ok((num, v))
}

/// `--const`/`--int`/`--bool` parsed: register number and values (a usage error when
/// malformed).
#[derive(Debug, Default)]
pub struct ParsedConsts {
    floats: Vec<(usize, Vec<f32>)>,
    ints: Vec<(usize, Vec<i32>)>,
    bools: Vec<(usize, bool)>,
}

impl ParsedConsts {
    /// Parses the flags; a malformed one is a usage error.
    pub fn parse(a: &ConstArgs) -> Result<ParsedConsts, String> {
        Ok(ParsedConsts {
            floats: a
                .consts
                .iter()
                .map(|c| parse_assign::<f32>(c, "c").map_err(|e| format!("--const {e}")))
                .collect::<Result<_, _>>()?,
            ints: a
                .ints
                .iter()
                .map(|c| parse_assign::<i32>(c, "i").map_err(|e| format!("--int {e}")))
                .collect::<Result<_, _>>()?,
            bools: a
                .bools
                .iter()
                .map(|c| {
                    let (n, v) = parse_assign::<bool>(c, "b").map_err(|e| format!("--bool {e}"))?;
                    Ok((n, v.first().copied().unwrap_or(false)))
                })
                .collect::<Result<_, String>>()?,
        })
    }

    /// Refuses (as a usage error) a register that no shader of the given versions can
    /// name: `c#` up to the version's float constants (`d3dbc::regs`: ps_3_0 c0–c223,
    /// ps_2_x c0–c31, ps_1_x c0–c7, vs c0–c8191), `i#`/`b#` where the version has them.
    pub fn check_ranges(&self, versions: &[Version]) -> Result<(), String> {
        use d3dbc::token::RegisterType;
        let check = |flag: &str, prefix: &str, t: RegisterType, n: usize| {
            let count = |v: &Version| regs::file(*v, t).map_or(0, |f| f.asm_count) as usize;
            if versions.iter().any(|v| n < count(v)) {
                return Ok(());
            }
            let have: Vec<String> = versions
                .iter()
                .map(|v| match count(v) {
                    0 => format!("{v} has no {prefix}# registers"),
                    k => format!("{v} has {prefix}0–{prefix}{}", k - 1),
                })
                .collect();
            Err(format!(
                "{flag} {prefix}{n}: out of range ({})",
                have.join("; ")
            ))
        };
        for (n, _) in &self.floats {
            check("--const", "c", RegisterType::Const, *n)?;
        }
        for (n, _) in &self.ints {
            check("--int", "i", RegisterType::ConstInt, *n)?;
        }
        for (n, _) in &self.bools {
            check("--bool", "b", RegisterType::ConstBool, *n)?;
        }
        Ok(())
    }

    /// Hands the constants to the executor's front door.
    pub fn feed(&self, inputs: &mut d3dbc_exec::Inputs) {
        for (n, v) in &self.floats {
            let mut w = [0f32; 4];
            w[..v.len()].copy_from_slice(v);
            inputs.floats.push((*n, w));
        }
        for (n, v) in &self.ints {
            let mut w = [0i32; 4];
            w[..v.len()].copy_from_slice(v);
            inputs.ints.push((*n, w));
        }
        inputs.bools.extend(&self.bools);
    }

    /// Writes the constants over `base`.
    pub fn apply(&self, base: &mut Constants) {
        for (n, v) in &self.floats {
            let mut w = [0u32; 4];
            for (i, x) in v.iter().enumerate() {
                w[i] = x.to_bits();
            }
            base.set_float_bits(*n, &w);
        }
        for (n, v) in &self.ints {
            let mut w = [0i32; 4];
            w[..v.len()].copy_from_slice(v);
            base.set_int(*n, &w);
        }
        for &(n, v) in &self.bools {
            if base.bool.len() <= n {
                base.bool.resize(n + 1, false);
            }
            base.bool[n] = v;
        }
    }
}

fn read_png(path: &Path) -> Result<Texture, String> {
    let file = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut dec = png::Decoder::new(std::io::BufReader::new(file));
    dec.set_transformations(png::Transformations::normalize_to_color8());
    let mut reader = dec
        .read_info()
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let (w, h) = (reader.info().width, reader.info().height);
    if w as u64 * h as u64 > (1 << 24) {
        return Err(format!("{}: {w}x{h} is too large", path.display()));
    }
    let mut buf = vec![0u8; reader.output_buffer_size()];
    let info = reader
        .next_frame(&mut buf)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let ch = info.color_type.samples();
    let mut rgba = Vec::with_capacity((w * h * 4) as usize);
    for px in buf[..info.buffer_size()].chunks_exact(ch) {
        rgba.extend_from_slice(&match ch {
            1 => [px[0], px[0], px[0], 255],
            2 => [px[0], px[0], px[0], px[1]],
            3 => [px[0], px[1], px[2], 255],
            _ => [px[0], px[1], px[2], px[3]],
        });
    }
    Texture::from_rgba8(w, h, &rgba).ok_or_else(|| format!("{}: empty image", path.display()))
}

/// `--texture sN=FILE.png` parsed: sampler and file (a usage error when malformed).
fn texture_specs(a: &ConstArgs) -> Result<Vec<(usize, PathBuf)>, String> {
    a.textures
        .iter()
        .map(|t| {
            let (name, file) = t
                .split_once('=')
                .ok_or_else(|| format!("--texture `{t}`: expected sN=FILE.png"))?;
            let n = name
                .strip_prefix('s')
                .and_then(|n| n.parse::<usize>().ok())
                .filter(|n| *n < d3dbc::regs::VERTEX_SAMPLER_BASE)
                .ok_or_else(|| format!("--texture `{t}`: expected s0…s15"))?;
            Ok((n, PathBuf::from(file)))
        })
        .collect()
}

fn textures(specs: &[(usize, PathBuf)]) -> Result<Vec<(usize, Arc<Texture>)>, String> {
    specs
        .iter()
        .map(|(n, file)| Ok((*n, Arc::new(read_png(file)?))))
        .collect()
}

/// Why `run` or `render` stopped: a usage error (exit 2, with the verb's usage) or a
/// failure of the input (exit 1).
pub enum Failure {
    /// The command line is wrong.
    Usage(String),
    /// The shader could not be run.
    Input(String),
}

impl From<String> for Failure {
    fn from(e: String) -> Self {
        Failure::Input(e)
    }
}

/// `Ok(true)`, `Ok(false)` after reporting a failed input, `Err` for usage errors.
fn finish(r: Result<(), Failure>, input: &Path) -> Result<bool, String> {
    match r {
        Ok(()) => Ok(true),
        Err(Failure::Usage(e)) => Err(e),
        Err(Failure::Input(e)) => {
            eprintln!("{}", batch::prefixed(&batch::display_name(input), &e));
            Ok(false)
        }
    }
}

/// `--size WxH`.
fn parse_size(size: &str) -> Result<(u32, u32), String> {
    size.split_once('x')
        .and_then(|(w, h)| Some((w.parse::<u32>().ok()?, h.parse::<u32>().ok()?)))
        .filter(|(w, h)| *w > 0 && *h > 0 && *w <= 16384 && *h <= 16384)
        .ok_or_else(|| format!("--size {size}: expected WxH, 1x1 up to 16384x16384"))
}

/// `render -o -` on a terminal: refused before anything is drawn, as binary output is
/// on every verb.
fn refuse_png_on_terminal(path: &Path) -> Result<(), Failure> {
    use std::io::IsTerminal;
    if path == Path::new("-") && std::io::stdout().is_terminal() {
        return Err(Failure::Usage(
            "refusing to write a PNG to a terminal; use -o FILE or a pipe".into(),
        ));
    }
    Ok(())
}

/// Writes the PNG (`-`: standard output, through the one writer, so a closed pipe ends
/// quietly), creating missing folders above a file as every verb does for `-o`.
fn write_png(path: &Path, img: &d3dbc_exec::Image) -> Result<(), String> {
    let mut bytes = Vec::new();
    let mut enc = png::Encoder::new(&mut bytes, img.width, img.height);
    enc.set_color(png::ColorType::Rgba);
    enc.set_depth(png::BitDepth::Eight);
    let mut w = enc.write_header().map_err(|e| e.to_string())?;
    w.write_image_data(&img.to_rgba8())
        .map_err(|e| e.to_string())?;
    w.finish().map_err(|e| e.to_string())?;
    if path == Path::new("-") {
        return batch::Out::with(|o| o.write(&bytes));
    }
    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
    }
    std::fs::write(path, bytes).map_err(|e| format!("{}: {e}", path.display()))
}

/// `d3dbc render`.
pub fn render(a: &RenderArgs) -> Result<bool, String> {
    finish(render_inner(a), &a.ps)
}

fn render_inner(a: &RenderArgs) -> Result<(), Failure> {
    let (w, h) = parse_size(&a.size).map_err(Failure::Usage)?;
    refuse_png_on_terminal(&a.output)?;
    let consts = ParsedConsts::parse(&a.consts).map_err(Failure::Usage)?;
    let specs = texture_specs(&a.consts).map_err(Failure::Usage)?;
    let bytes = batch::read_input(&a.ps)?;
    if d3dbc::fx::Effect::is_effect(&bytes) {
        let effect = d3dbc::fx::Effect::parse(&bytes).map_err(|e| e.to_string())?;
        let (t, p, values) = a.pass.resolve(&effect).map_err(Failure::Usage)?;
        let texs = textures(&specs)?;
        let ps = d3dbc_exec::effect::pass_scene(&effect, t, p, &values, w, h, &texs)?;
        for s in &ps.ignored {
            eprintln!(
                "{}: note: state {s} is not modelled",
                batch::display_name(&a.ps)
            );
        }
        let mut scene = ps.scene;
        if let Some(draw::Op::Draw(d)) = scene.ops.first_mut() {
            consts.apply(&mut d.ps_constants);
            consts.apply(&mut d.vs_constants);
        }
        // Matrix parameters of the pass's shaders that are zero or singular: named
        // when the picture comes out empty.
        let applied = effect.apply_pass(t, p, &values).ok();
        let hints: Vec<String> = applied
            .iter()
            .flat_map(|s| [s.vertex_shader, s.pixel_shader])
            .flatten()
            .flat_map(|code| effect.degenerate_matrices(code, &values))
            .collect();
        let img = if a.gpu {
            render_gpu(&scene)?
        } else {
            Renderer::run_scene(&scene, Options::default(), None, |_, _| {})
                .map_err(|e| e.to_string())?
                .targets[0]
                .clone()
        };
        warn_if_empty(&a.ps, &scene, &img, &hints);
        return Ok(write_png(&a.output, &img)?);
    }
    a.pass.refuse_on_shader().map_err(Failure::Usage)?;
    let l = load::load_bytes(&bytes, &batch::display_name(&a.ps), a.validity, None)?;
    let (ps, ps_tokens) = (l.shader, l.tokens);
    if !ps.version.is_pixel() {
        return Err(Failure::Usage(format!(
            "{}: render needs a pixel shader, this is {} (use --vs for the vertex shader)",
            batch::display_name(&a.ps),
            ps.version
        )));
    }
    let mut versions = vec![ps.version];
    let vs = match &a.vs {
        Some(p) => {
            let (vs, tokens) = load_shader(p, a.validity)
                .map_err(|e| batch::prefixed(&batch::display_name(p), &e))?;
            versions.push(vs.version);
            Some((vs, tokens))
        }
        None => None,
    };
    let vs_tokens = vs.as_ref().map(|(_, t)| t.clone());
    consts.check_ranges(&versions).map_err(Failure::Usage)?;
    let mut stages = vec![&ps];
    stages.extend(vs.as_ref().map(|(s, _)| s));
    let set = a.pass.shader_constants(&stages).map_err(Failure::Usage)?;
    let base = d3dbc_exec::Inputs {
        textures: textures(&specs)?,
        ..Default::default()
    };
    // Constants the CTAB declares without a default value start at 1 (`preview`), then
    // the CTAB defaults, the effect's --set and --const apply.
    let mut scene =
        quick::preview(&ps_tokens, vs_tokens.as_deref(), w, h, &base).map_err(|e| e.to_string())?;
    if let Some(draw::Op::Draw(d)) = scene.ops.first_mut() {
        apply_set(&set[0], &mut d.ps_constants);
        if let Some(c) = set.get(1) {
            apply_set(c, &mut d.vs_constants);
        }
        consts.apply(&mut d.ps_constants);
        consts.apply(&mut d.vs_constants);
    }
    let img = if a.gpu {
        render_gpu(&scene)?
    } else {
        Renderer::run_scene(&scene, Options::default(), None, |_, _| {})
            .map_err(|e| e.to_string())?
            .targets[0]
            .clone()
    };
    warn_if_empty(&a.ps, &scene, &img, &[]);
    Ok(write_png(&a.output, &img)?)
}

/// When the picture holds nothing but the clear colour, says why on standard error
/// (`d3dbc_exec::diagnose`), with the zero or singular matrix parameters the pass's
/// shaders read.
fn warn_if_empty(input: &Path, scene: &draw::Scene, img: &d3dbc_exec::Image, hints: &[String]) {
    let Some(why) = d3dbc_exec::diagnose::why_empty(scene, img) else {
        return;
    };
    let mut msg = format!("warning: the picture is empty (only the clear colour): {why}");
    for h in hints {
        msg.push_str(&format!("; {h}"));
    }
    eprintln!(
        "{}",
        batch::paint(&batch::prefixed(&batch::display_name(input), &msg), true)
    );
}

/// The scene's first render target after its last draw, rendered by d3dbc-gpu.
#[cfg(feature = "gpu")]
fn render_gpu(scene: &draw::Scene) -> Result<d3dbc_exec::Image, String> {
    let gpu = d3dbc_gpu::Gpu::new().map_err(|e| format!("--gpu: {e}"))?;
    let mut out = None;
    gpu.run_scene(scene, |_| true, |_, targets| out = targets.first().cloned())
        .map_err(|e| format!("--gpu ({}): {e}", gpu.adapter_name))?;
    out.ok_or_else(|| "--gpu: the scene drew nothing".into())
}

#[cfg(not(feature = "gpu"))]
fn render_gpu(_: &draw::Scene) -> Result<d3dbc_exec::Image, String> {
    Err("--gpu: this d3dbc was built without the `gpu` feature \
         (cargo install --locked --path crates/d3dbc-cli --features gpu)"
        .into())
}

/// The stages `run` executes for an effect's pass: the vertex shader (when the pass
/// has one) and the pixel shader, each with the constants the pass gives it.
struct PassRun {
    vertex: Option<(Shader, d3dbc_exec::Inputs)>,
    pixel: Option<(Shader, d3dbc_exec::Inputs)>,
}

fn effect_stages(bytes: &[u8], pass: &PassArgs) -> Result<PassRun, Failure> {
    let effect = d3dbc::fx::Effect::parse(bytes).map_err(|e| e.to_string())?;
    let (t, p, values) = pass.resolve(&effect).map_err(Failure::Usage)?;
    let shaders = effect.pass_shaders(t, p, &values)?;
    if shaders.vertex.is_none() && shaders.pixel.is_none() {
        return Err("the pass sets no shader (fixed function): nothing to run"
            .to_string()
            .into());
    }
    let stage = |s: Option<d3dbc::fx::pass::StageShader>, c: &d3dbc::fx::apply::Constants| {
        s.map(|s| (s.shader, d3dbc_exec::effect::stage_inputs(c)))
    };
    Ok(PassRun {
        vertex: stage(shaders.vertex, &shaders.state.vs_constants),
        pixel: stage(shaders.pixel, &shaders.state.ps_constants),
    })
}

/// `d3dbc run`.
pub fn run(a: &RunArgs) -> Result<bool, String> {
    finish(run_inner(a), &a.shader)
}

/// The trace of `run --trace`: in text, one line per step with a note when it was cut
/// at `exec::TRACE_LIMIT` steps; after a failure (`error`), in JSON too, as
/// `{"shader", "trace", "trace_truncated", "error"}` (the outputs are meaningless then).
fn print_trace(
    buf: &mut String,
    format: RunFormat,
    pretty: bool,
    shader: &Shader,
    trace: &[(String, Option<[f32; 4]>)],
    truncated: bool,
    error: Option<&str>,
) {
    match format {
        RunFormat::Text => {
            for (t, val) in trace {
                out!(buf, "{}", d3dbc_exec::trace::line(t, *val));
            }
            if truncated {
                out!(
                    buf,
                    "; trace stopped after its first {} steps (execution went on)",
                    trace.len()
                );
            }
            if let Some(e) = error {
                out!(buf, "; stopped: {e}");
            }
        }
        RunFormat::Json => {
            if let Some(e) = error {
                let t: Vec<serde_json::Value> = trace
                    .iter()
                    .map(|(t, v)| json!({"instruction": t, "value": v}))
                    .collect();
                let doc = json!({
                    "shader": shader.version.to_string(),
                    "trace": t,
                    "trace_truncated": truncated,
                    "error": e,
                });
                out!(buf, "{}", json_text(&doc, pretty));
            }
        }
    }
}

/// `--input REG=X,Y,Z,W`: (flag, register name, value; missing components (0, 0, 0, 1)).
fn parse_inputs(inputs: &[String]) -> Result<Vec<(String, String, [f32; 4])>, String> {
    inputs
        .iter()
        .map(|i| {
            let (name, vals) = i
                .split_once('=')
                .ok_or_else(|| format!("--input `{i}`: expected REG=X,Y,Z,W"))?;
            let mut v = [0.0f32, 0.0, 0.0, 1.0];
            let vals: Vec<&str> = vals.split(',').collect();
            if vals.len() > 4 {
                return Err(format!("--input `{i}`: at most 4 values"));
            }
            for (k, x) in vals.iter().enumerate() {
                v[k] = x
                    .trim()
                    .parse()
                    .map_err(|_| format!("--input `{i}`: bad value `{x}`"))?;
            }
            Ok((i.clone(), name.trim().to_string(), v))
        })
        .collect()
}

use d3dbc_exec::trace::fmt4;

/// Refuses (as a usage error) an `--input` register the shader's version does not have,
/// by the version's register file (`d3dbc::regs`: ps_2_0 has v0–v1 and t0–t7, ps_3_0
/// v0–v9, vs v0–v15); the message states the version's ranges.
fn check_inputs(given: &[(String, String, [f32; 4])], v: Version) -> Result<(), String> {
    use d3dbc::token::RegisterType;
    let files: Vec<(&str, u32)> = [
        ("v", RegisterType::Input),
        ("t", RegisterType::AddrOrTexture),
    ]
    .into_iter()
    .filter(|(p, _)| *p == "v" || v.is_pixel())
    .map(|(p, t)| (p, regs::file(v, t).map_or(0, |f| f.count)))
    .filter(|(_, n)| *n > 0)
    .collect();
    let ranges = files
        .iter()
        .map(|(p, n)| format!("{p}0–{p}{}", n - 1))
        .collect::<Vec<_>>()
        .join(" and ");
    for (flag, name, _) in given {
        let ok = files.iter().any(|(p, n)| {
            name.strip_prefix(p)
                .and_then(|k| k.parse::<u32>().ok())
                .is_some_and(|k| k < *n)
        });
        if !ok {
            return Err(format!(
                "--input `{flag}`: {v} has no input register {name} (its inputs: {ranges})"
            ));
        }
    }
    Ok(())
}

fn run_inner(a: &RunArgs) -> Result<(), Failure> {
    let consts = ParsedConsts::parse(&a.consts).map_err(Failure::Usage)?;
    let specs = texture_specs(&a.consts).map_err(Failure::Usage)?;
    let given_inputs = parse_inputs(&a.inputs).map_err(Failure::Usage)?;
    let bytes = batch::read_input(&a.shader)?;
    let stages = if d3dbc::fx::Effect::is_effect(&bytes) {
        effect_stages(&bytes, &a.pass)?
    } else {
        a.pass.refuse_on_shader().map_err(Failure::Usage)?;
        let name = batch::display_name(&a.shader);
        let l = load::load_bytes(&bytes, &name, a.validity, None)?;
        let set = a
            .pass
            .shader_constants(&[&l.shader])
            .map_err(Failure::Usage)?;
        let inputs = d3dbc_exec::effect::stage_inputs(&set[0]);
        if l.shader.version.is_pixel() {
            PassRun {
                vertex: None,
                pixel: Some((l.shader, inputs)),
            }
        } else {
            PassRun {
                vertex: Some((l.shader, inputs)),
                pixel: None,
            }
        }
    };
    let versions: Vec<Version> = [&stages.vertex, &stages.pixel]
        .into_iter()
        .flatten()
        .map(|(s, _)| s.version)
        .collect();
    consts.check_ranges(&versions).map_err(Failure::Usage)?;
    // `--input` sets the pixel shader's inputs (over what the pass's vertex shader feeds
    // it), or the vertex shader's where the pass has no pixel shader: checked against
    // that stage's register file.
    if let Some((s, _)) = stages.pixel.as_ref().or(stages.vertex.as_ref()) {
        check_inputs(&given_inputs, s.version).map_err(Failure::Usage)?;
    }
    let textures = textures(&specs)?;
    let given: Vec<(String, [f32; 4])> = given_inputs.into_iter().map(|(_, n, v)| (n, v)).collect();
    let (for_vertex, for_pixel) = if stages.pixel.is_some() {
        (Vec::new(), given)
    } else {
        (given, Vec::new())
    };
    let mut buf = String::new();
    let mut docs = Vec::new();
    let mut vs_out = None;
    let two = stages.vertex.is_some() && stages.pixel.is_some();
    if let Some((vs, base)) = &stages.vertex {
        let mut inputs = d3dbc_exec::Inputs {
            registers: for_vertex,
            textures: textures.clone(),
            trace: a.trace,
            ..base.clone()
        };
        consts.feed(&mut inputs);
        let out = execute(a, &mut buf, vs, &inputs, two.then_some("vertex shader"))?;
        docs.push(("vertex", out_doc(a, vs, &out)));
        vs_out = Some(out);
    }
    if let Some((ps, base)) = &stages.pixel {
        let mut registers = match (&stages.vertex, &vs_out) {
            (Some((vs, _)), Some(out)) => d3dbc_exec::effect::linked_inputs(vs, out, ps)
                .map_err(|e| Failure::Input(e.to_string()))?,
            _ => Vec::new(),
        };
        registers.extend(for_pixel);
        let mut inputs = d3dbc_exec::Inputs {
            registers,
            textures: textures.clone(),
            trace: a.trace,
            ..base.clone()
        };
        consts.feed(&mut inputs);
        let out = execute(a, &mut buf, ps, &inputs, two.then_some("pixel shader"))?;
        docs.push(("pixel", out_doc(a, ps, &out)));
    }
    if a.format == RunFormat::Json {
        // One stage: its document; a pass with both: the pixel shader's, with the
        // vertex shader's under "vertex".
        let mut doc = docs.pop().map(|(_, d)| d).unwrap_or_default();
        if let Some((_, v)) = docs.pop() {
            doc["vertex"] = v;
        }
        out!(buf, "{}", json_text(&doc, a.pretty));
    }
    Ok(batch::Out::to(a.output.as_deref(), |o| o.str(&buf))?)
}

/// Runs one stage and prints its text output (a `// vertex shader` / `// pixel shader`
/// heading before each stage of a pass that has both).
fn execute(
    a: &RunArgs,
    buf: &mut String,
    shader: &Shader,
    inputs: &d3dbc_exec::Inputs,
    heading: Option<&str>,
) -> Result<d3dbc_exec::Outputs, Failure> {
    if let (Some(h), RunFormat::Text) = (heading, a.format) {
        out!(buf, "// {h} ({})", shader.version);
    }
    let result = if shader.version.is_pixel() {
        d3dbc_exec::run_pixel(shader, inputs)
    } else {
        d3dbc_exec::run_vertex(shader, inputs)
    };
    let out = match result {
        Ok(out) => out,
        Err(e @ RunError::UnknownInput { .. }) => {
            return Err(Failure::Usage(format!("--input: {e}")))
        }
        Err(RunError::Exec {
            error,
            trace,
            trace_truncated,
        }) => {
            // The trace up to the failure (an exhausted budget) is what explains it.
            if a.trace {
                // What the earlier stage printed, then this one's trace.
                print_trace(
                    buf,
                    a.format,
                    a.pretty,
                    shader,
                    &trace,
                    trace_truncated,
                    Some(&error.to_string()),
                );
                batch::Out::to(a.output.as_deref(), |o| o.str(buf))?;
            }
            return Err(error.to_string().into());
        }
        Err(e) => return Err(e.to_string().into()),
    };
    if a.format == RunFormat::Text {
        print_trace(
            buf,
            a.format,
            a.pretty,
            shader,
            &out.trace,
            out.trace_truncated,
            None,
        );
        for (n, val) in &out.values {
            out!(buf, "{n} = {}", fmt4(*val));
        }
        if let Some(k) = out.killed {
            out!(buf, "killed = {k}");
        }
    }
    Ok(out)
}

/// A JSON document, compact unless `pretty`, as every verb writes JSON.
fn json_text(doc: &serde_json::Value, pretty: bool) -> String {
    if pretty {
        serde_json::to_string_pretty(doc)
    } else {
        serde_json::to_string(doc)
    }
    .unwrap_or_default()
}

/// The JSON document of one stage's run.
fn out_doc(a: &RunArgs, shader: &Shader, out: &d3dbc_exec::Outputs) -> serde_json::Value {
    let o: serde_json::Map<String, serde_json::Value> = out
        .values
        .iter()
        .map(|(n, v)| (n.clone(), json!(v)))
        .collect();
    let mut doc = json!({"shader": shader.version.to_string(), "outputs": o});
    if let Some(k) = out.killed {
        doc["killed"] = json!(k);
    }
    if a.trace {
        let t: Vec<serde_json::Value> = out
            .trace
            .iter()
            .map(|(t, v)| json!({"instruction": t, "value": v}))
            .collect();
        doc["trace"] = json!(t);
        doc["trace_truncated"] = json!(out.trace_truncated);
    }
    doc
}
