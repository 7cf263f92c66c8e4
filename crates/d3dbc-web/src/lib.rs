//! # d3dbc-web
//!
//! The playground page's engine: everything the page shows, computed by the same
//! library calls the `d3dbc` command makes, compiled to WebAssembly by `cargo xtask
//! web`. The page's four panels map to four calls:
//!
//! - [`analyze`]: the input (assembly text, hex, an fxc `/Fh` header, anything
//!   [`d3dbc::input::read_any`] reads, an fx_2_0 effect) → the Microsoft listing
//!   (`#listing`), the
//!   validator's and assembler's findings as `d3dbc validate` prints them (`#findings`),
//!   the bytecode as hex (for the link) and the constants the render panel edits;
//! - [`translate`]: → SPIR-V (disassembled; the direct back end `d3dbc-spirv`), WGSL,
//!   GLSL, MSL or HLSL through `d3dbc-naga`, with the interface JSON (`#translation`);
//! - [`render`]: → what the pixel shader draws on the CPU executor, as `d3dbc render`
//!   draws it (`#render`);
//! - [`trace`]: → the pixel shader's trace at one pixel of that picture, as
//!   `d3dbc run --trace` prints it.
//!
//! Each call is a plain Rust function returning a serialisable value (tested natively);
//! the `wasm_bindgen` exports at the bottom only move JSON strings and bytes across.
//! [`api`] exports the `d3dbc` npm package's functions (`cargo xtask npm`) from the same
//! module.
//!
//! ```
//! let a = d3dbc_web::analyze("ps_2_0\ndcl t0\nmov oC0, t0\n", &Default::default());
//! assert_eq!(a.kind, "assembly");
//! assert!(a.listing.contains("mov oC0, t0"));
//! let img = d3dbc_web::render(&a.hex, &d3dbc_web::RenderRequest::default()).unwrap();
//! assert_eq!(img.rgba.len(), 4 * 128 * 128);
//! ```

pub mod api;

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::sync::Arc;

use d3dbc::asm::ctab_header;
use d3dbc::ctab::RegisterSet;
use d3dbc::input;
use d3dbc::print::{self, PrintOptions};
use d3dbc::report::{self, hex_offset};
use d3dbc::Severity;
use d3dbc::Shader;
use d3dbc_exec::draw::{Op, Texture};
use d3dbc_exec::render::{Options, Renderer};
use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::wasm_bindgen;

/// What the listing panel shows besides the instructions.
#[derive(Clone, Copy, Debug, Default, Deserialize)]
#[serde(default)]
pub struct ListingOptions {
    /// Each instruction's DWORD offset (`dis --offsets`).
    pub offsets: bool,
    /// Each instruction's raw tokens (`dis --tokens`).
    pub tokens: bool,
}

/// One finding of the findings panel.
#[derive(Clone, Debug, Serialize)]
pub struct Finding {
    /// `error` or `warning`.
    pub severity: &'static str,
    /// The rule's code (`E0204`), when it has one.
    pub code: Option<String>,
    /// `line:col` for text input, else the DWORD offset (`+0004`).
    pub at: String,
    /// The message.
    pub message: String,
    /// The whole report entry as the CLI prints it (source line and caret included).
    pub text: String,
}

/// A float constant the render panel can edit.
#[derive(Clone, Debug, Serialize)]
pub struct Constant {
    /// Its name in the constant table.
    pub name: String,
    /// First register (`c3` → 3).
    pub register: u32,
    /// Registers it spans.
    pub count: u32,
    /// The value the render starts from (the CTAB default, else 1 as `d3dbc render`
    /// starts it), one vector per register.
    pub value: Vec<[f32; 4]>,
}

/// A sampler the shader uses.
#[derive(Clone, Debug, Serialize)]
pub struct Sampler {
    /// Stage (0–15 pixel, 16–19 vertex samplers).
    pub stage: usize,
    /// Its name in the constant table, when there is one.
    pub name: Option<String>,
}

/// What [`analyze`] found.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Analysis {
    /// `assembly`, `bytecode`, `effect` (fx_2_0: the listing is fxc's effect listing,
    /// the translation and render panels use its first pass), or `none` (nothing
    /// usable: see `findings`).
    pub kind: &'static str,
    /// `ps_2_0`, … of the (first) shader.
    pub version: Option<String>,
    /// A pixel shader (the render panel draws only those).
    pub pixel: bool,
    /// The bytecode (of the first shader; assembled for assembly input) as hex bytes in
    /// file order: what `#hex=` links and [`render`]/[`translate`] take.
    pub hex: String,
    /// The Microsoft listing.
    pub listing: String,
    /// Findings: assembler errors, validator findings, input problems.
    pub findings: Vec<Finding>,
    /// The findings as `d3dbc validate` prints them (empty for a valid shader).
    pub report: String,
    /// The runtime accepts the shader.
    pub valid: bool,
    /// Float constants of the constant table.
    pub constants: Vec<Constant>,
    /// Samplers the shader declares or uses.
    pub samplers: Vec<Sampler>,
}

const FILE: &str = "input";

fn to_hex(tokens: &[u32]) -> String {
    let mut s = String::with_capacity(tokens.len() * 8);
    for t in tokens {
        for b in t.to_le_bytes() {
            s.push_str(&format!("{b:02x}"));
        }
    }
    s
}

/// The bytes of an fx_2_0 effect given as hex text or a C array, if `input` is one.
fn effect_bytes(input: &str) -> Option<Vec<u8>> {
    if input::looks_like_assembly(input) {
        return None;
    }
    // A dropped `.xnb` (shown as DWORD hex): the effect inside.
    if let Some(fx) = xnb_effect(input) {
        return Some(fx);
    }
    let bytes = match plain_hex(input) {
        Some(b) => b,
        None => {
            let found = input::read_any(input.as_bytes()).ok()?;
            found
                .first()?
                .tokens
                .iter()
                .flat_map(|t| t.to_le_bytes())
                .collect()
        }
    };
    d3dbc::fx::Effect::is_effect(&bytes).then_some(bytes)
}

/// The effect inside an XNA content file given as the page shows dropped bytes
/// (`0x%08x, ` DWORDs) or plain hex.
fn xnb_effect(input: &str) -> Option<Vec<u8>> {
    let bytes = plain_hex(input).unwrap_or_else(|| {
        input
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter_map(|w| w.trim().strip_prefix("0x"))
            .filter_map(|w| u32::from_str_radix(w, 16).ok())
            .flat_map(u32::to_le_bytes)
            .collect()
    });
    d3dbc::input::xnb::effect_of(&bytes)?.ok()
}

/// The bytes of a plain hex string (what [`Analysis::hex`] holds and `#hex=` links
/// carry).
fn plain_hex(s: &str) -> Option<Vec<u8>> {
    let s = s.trim();
    if s.is_empty() || !s.len().is_multiple_of(2) || !s.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).ok())
        .collect()
}

/// The tokens of the first shader in `input` (hex, header, assembly...), or why not.
fn tokens_of(input: &str) -> Result<Vec<u32>, String> {
    if input::looks_like_assembly(input) {
        let opts = d3dbc::asm::Options {
            file_name: FILE.into(),
            no_validate: true,
            ..Default::default()
        };
        let mut shader = d3dbc::asm::assemble(input, &opts).map_err(|d| d.to_string())?;
        if let Ok(Some(t)) = ctab_header::ctab_from_listing(input, FILE) {
            ctab_header::embed(&mut shader, &t);
        }
        return Ok(shader.encode());
    }
    let found = input::read_any(input.as_bytes()).map_err(|e| e.to_string())?;
    let mut warnings = Vec::new();
    let located = report::locate(&found, false, &mut warnings)?;
    Ok(located
        .first()
        .map(|l| l.tokens.to_vec())
        .unwrap_or_default())
}

/// Reads `input` as `d3dbc` does (assembly text is assembled, its constant table
/// rebuilt from the listing header as `d3dbc asm` rebuilds it), then lists and
/// validates it.
pub fn analyze(input: &str, o: &ListingOptions) -> Analysis {
    let mut a = Analysis {
        kind: "none",
        ..Default::default()
    };
    let effect = effect_bytes(input);
    let rep = report::check(effect.as_deref().unwrap_or(input.as_bytes()), FILE);
    a.report = rep.lines(FILE, false).join("\n");
    a.valid = rep.valid();
    for m in &rep.messages {
        let (code, at) = match &m.diagnostic {
            Some(d) => (d.code.map(str::to_string), format!("{}:{}", d.line, d.col)),
            None => (None, String::new()),
        };
        a.findings.push(Finding {
            severity: report::severity(m.severity),
            code,
            at,
            message: m.text.clone(),
            text: match &m.diagnostic {
                Some(d) => d.to_string(),
                None => m.text.clone(),
            },
        });
    }
    for s in &rep.shaders {
        for f in &s.findings {
            let at = match &f.source {
                Some(d) => format!("{}:{}", d.line, d.col),
                None => hex_offset(f.offset),
            };
            let text = f.text(&s.label(FILE));
            a.findings.push(Finding {
                severity: report::severity(f.severity),
                code: Some(f.code.to_string()),
                at,
                message: f.message.clone(),
                text,
            });
        }
    }
    if let Some(bytes) = effect {
        if let Ok(e) = d3dbc::fx::Effect::parse(&bytes) {
            a.kind = "effect";
            a.version = Some("fx_2_0".into());
            a.hex = bytes.iter().map(|b| format!("{b:02x}")).collect();
            a.listing = e.listing();
            // The render panel draws the first pass of the first technique.
            a.pixel = e
                .apply_pass(0, 0, &Default::default())
                .is_ok_and(|p| p.pixel_shader.is_some());
        }
        return a;
    }
    let Ok(tokens) = tokens_of(input) else {
        return a;
    };
    let Ok(shader) = Shader::decode(&tokens) else {
        return a;
    };
    a.kind = if input::looks_like_assembly(input) {
        "assembly"
    } else {
        "bytecode"
    };
    a.version = Some(shader.version.to_string());
    a.pixel = shader.version.is_pixel();
    a.hex = to_hex(&tokens);
    let opts = PrintOptions {
        offsets: o.offsets,
        tokens: o.tokens,
        ..Default::default()
    };
    if print::print_tokens(&tokens, &opts, &mut a.listing).is_err() {
        a.listing.clear();
        print::print(&shader, &opts, &mut a.listing);
    }
    let mut start = d3dbc_exec::quick::ctab_defaults(&shader);
    d3dbc_exec::quick::neutral_undefaulted_constants(&shader, &mut start);
    if let Some(Ok(ctab)) = shader.ctab() {
        for k in &ctab.constants {
            match k.register_set {
                RegisterSet::Float4 => a.constants.push(Constant {
                    name: k.name.clone(),
                    register: k.register_index as u32,
                    count: k.register_count as u32,
                    value: (0..k.register_count as usize)
                        .map(|r| {
                            let bits = start
                                .float
                                .get(k.register_index as usize + r)
                                .copied()
                                .unwrap_or([0; 4]);
                            bits.map(f32::from_bits)
                        })
                        .collect(),
                }),
                RegisterSet::Sampler => a.samplers.push(Sampler {
                    stage: k.register_index as usize,
                    name: Some(k.name.clone()),
                }),
                _ => {}
            }
        }
    }
    if a.samplers.is_empty() {
        if let Ok(p) = d3dbc_exec::exec::Program::new(&shader) {
            a.samplers = (0..p.samplers.len())
                .filter(|&s| p.samplers[s].is_some())
                .map(|stage| Sampler { stage, name: None })
                .collect();
        }
    }
    a
}

fn tokens_from_hex(hex: &str) -> Result<Vec<u32>, String> {
    let found = input::read_any(hex.as_bytes()).map_err(|e| e.to_string())?;
    found
        .into_iter()
        .next()
        .map(|f| f.tokens)
        .ok_or_else(|| "no shader".to_string())
}

/// What a bytecode input of the page holds, read once: an effect (its bytes) or a shader
/// (its tokens).
enum Bytecode {
    Effect(Vec<u8>),
    Shader(Vec<u32>),
}

/// Reads `hex` (any input form [`analyze`] shows as bytecode) once.
fn read_bytecode(hex: &str) -> Result<Bytecode, String> {
    if let Some(bytes) = plain_hex(hex).filter(|b| d3dbc::fx::Effect::is_effect(b)) {
        return Ok(Bytecode::Effect(bytes));
    }
    let tokens = tokens_from_hex(hex)?;
    let head = tokens.first().map(|t| t.to_le_bytes()).unwrap_or_default();
    if d3dbc::fx::Effect::is_effect(&head) {
        return Ok(Bytecode::Effect(
            tokens.iter().flat_map(|t| t.to_le_bytes()).collect(),
        ));
    }
    Ok(Bytecode::Shader(tokens))
}

/// The shader of `hex` (an effect's first pass: its pixel shader, else its vertex
/// shader), refused with the first error finding when the runtime rejects it.
fn valid_shader(hex: &str) -> Result<Shader, String> {
    let tokens = match read_bytecode(hex)? {
        Bytecode::Shader(tokens) => tokens,
        Bytecode::Effect(bytes) => {
            // An effect: the first pass's pixel shader (its vertex shader where it has none).
            let e = d3dbc::fx::Effect::parse(&bytes).map_err(|e| e.to_string())?;
            let p = e
                .apply_pass(0, 0, &Default::default())
                .map_err(|e| e.to_string())?;
            let shader = p
                .pixel_shader
                .or(p.vertex_shader)
                .ok_or("the effect's first pass sets no shader")?;
            d3dbc::fx::to_words(shader)
        }
    };
    let shader = Shader::decode(&tokens).map_err(|e| e.to_string())?;
    if let Some(f) = d3dbc::validate::validate(&shader)
        .into_iter()
        .find(|f| f.severity == Severity::Error)
    {
        return Err(format!(
            "the runtime rejects this shader ({}: {}[{}]: {}); fix the findings first",
            hex_offset(f.offset),
            report::severity(f.severity),
            f.code,
            f.message
        ));
    }
    Ok(shader)
}

/// The decompiled HLSL for the panel beside the listing.
#[derive(Clone, Debug, Serialize)]
pub struct Decompiled {
    /// The HLSL (`d3dbc decompile`'s output).
    pub text: String,
    /// The profile its first line names.
    pub profile: String,
}

/// Decompiles the bytecode `hex` (as [`Analysis::hex`]) to HLSL, as `d3dbc decompile`
/// does (`d3dbc-hlsl`).
pub fn decompile(hex: &str) -> Result<Decompiled, String> {
    let shader = valid_shader(hex)?;
    let d = d3dbc_hlsl::decompile(&shader).map_err(|e| e.to_string())?;
    Ok(Decompiled {
        text: d.hlsl,
        profile: d.profile,
    })
}

/// A translation for the translation panel.
#[derive(Clone, Debug, Serialize)]
pub struct Translated {
    /// The target's text (SPIR-V as a disassembly).
    pub text: String,
    /// The interface (bindings, inputs, varyings) as pretty JSON.
    pub interface: String,
}

/// Translates the bytecode `hex` (as [`Analysis::hex`]) to `target`: `spirv` (the
/// direct back end), `wgsl`, `glsl`, `msl` or `hlsl` (through naga), as `d3dbc
/// translate` does with default options.
pub fn translate(hex: &str, target: &str) -> Result<Translated, String> {
    let shader = valid_shader(hex)?;
    if target == "spirv" {
        // The direct back end, as `d3dbc translate --target spirv` uses it.
        let t = d3dbc_spirv::translate(&shader, &Default::default()).map_err(|e| e.to_string())?;
        return Ok(Translated {
            text: disassemble_spirv(&t.words)?,
            interface: serde_json::to_string_pretty(&t.interface).map_err(|e| e.to_string())?,
        });
    }
    let t = d3dbc_naga::translate(&shader, &Default::default()).map_err(|e| e.to_string())?;
    let text = match target {
        "wgsl" => t.wgsl().map_err(|e| e.to_string())?,
        "glsl" => t.glsl().map_err(|e| e.to_string())?,
        "msl" => t.msl().map_err(|e| e.to_string())?,
        "hlsl" => t.hlsl().map_err(|e| e.to_string())?,
        other => {
            return Err(format!(
                "unknown target `{other}` (spirv, wgsl, glsl, msl, hlsl)"
            ))
        }
    };
    let interface = serde_json::to_string_pretty(&t.interface).map_err(|e| e.to_string())?;
    Ok(Translated { text, interface })
}

/// SPIR-V words as an assembly listing (rspirv's disassembler).
pub fn disassemble_spirv(words: &[u32]) -> Result<String, String> {
    use rspirv::binary::Disassemble;
    let mut loader = rspirv::dr::Loader::new();
    rspirv::binary::parse_words(words, &mut loader).map_err(|e| e.to_string())?;
    Ok(loader.module().disassemble())
}

/// What to draw: size, constant overrides (`"c3": [x, y, z, w]`) and textures
/// (registered with [`set_texture`]) come from the page.
#[derive(Clone, Debug, Deserialize)]
#[serde(default)]
pub struct RenderRequest {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// Float constants to set, by register name (`c0`…).
    pub constants: BTreeMap<String, [f32; 4]>,
    /// An effect's technique (name or index; default the first).
    pub technique: Option<String>,
    /// An effect's pass (name or index; default 0).
    pub pass: Option<String>,
    /// Parameter values as `d3dbc render --set` takes them (`tint=1,0.5,0,1`,
    /// `World=identity`): effect parameters, or a plain shader's constant-table names.
    pub set: Vec<String>,
}

impl Default for RenderRequest {
    fn default() -> Self {
        RenderRequest {
            width: 128,
            height: 128,
            constants: BTreeMap::new(),
            technique: None,
            pass: None,
            set: Vec::new(),
        }
    }
}

/// A rendered picture.
#[derive(Clone, Debug)]
pub struct Rendered {
    /// Width.
    pub width: u32,
    /// Height.
    pub height: u32,
    /// RGBA bytes, row order (what `ImageData` takes).
    pub rgba: Vec<u8>,
    /// Why the picture holds only the clear colour (`d3dbc render`'s warning), when it
    /// does.
    pub warning: Option<String>,
}

thread_local! {
    static TEXTURES: RefCell<Vec<(usize, Arc<Texture>)>> = const { RefCell::new(Vec::new()) };
}

/// Binds an RGBA image to sampler stage `stage` for later renders (the page's sampler
/// images); `false` when the data does not fit `width`×`height`.
pub fn set_texture(stage: usize, width: u32, height: u32, rgba: &[u8]) -> bool {
    let Some(t) = Texture::from_rgba8(width, height, rgba) else {
        return false;
    };
    TEXTURES.with(|ts| {
        let mut ts = ts.borrow_mut();
        ts.retain(|(s, _)| *s != stage);
        ts.push((stage, Arc::new(t)));
    });
    true
}

/// Unbinds every texture set by [`set_texture`] (stages fall back to checkerboards).
pub fn clear_textures() {
    TEXTURES.with(|ts| ts.borrow_mut().clear());
}

const MAX_SIDE: u32 = 2048;

/// A rendered scene, the scene, and the zero or singular matrix parameters of an
/// effect pass's shaders.
type Run = (Renderer, d3dbc_exec::Scene, Vec<String>);

fn run(hex: &str, r: &RenderRequest, trace: Option<(u32, u32)>) -> Result<Run, String> {
    if r.width == 0 || r.height == 0 || r.width > MAX_SIDE || r.height > MAX_SIDE {
        return Err(format!(
            "size {}x{}: expected 1x1 up to {MAX_SIDE}x{MAX_SIDE}",
            r.width, r.height
        ));
    }
    let textures = TEXTURES.with(|ts| ts.borrow().clone());
    let opts = Options {
        trace_pixel: trace,
        ..Options::default()
    };
    let regions = trace.map(|(x, y)| vec![[x, y, x + 1, y + 1]]);
    let tokens = match read_bytecode(hex)? {
        Bytecode::Shader(tokens) => tokens,
        Bytecode::Effect(bytes) => {
            // An effect: the chosen pass with the parameters' defaults and `set`, as
            // `d3dbc render X.fxo --technique T --pass P --set …` draws it.
            let e = d3dbc::fx::Effect::parse(&bytes).map_err(|e| e.to_string())?;
            let t = e
                .find_technique(r.technique.as_deref().unwrap_or("0"))
                .map_err(|e| e.to_string())?;
            let p = e
                .find_pass(t, r.pass.as_deref().unwrap_or("0"))
                .map_err(|e| e.to_string())?;
            let values = e.parse_values(&r.set)?;
            let pass =
                d3dbc_exec::effect::pass_scene(&e, t, p, &values, r.width, r.height, &textures)?;
            let hints: Vec<String> = e
                .apply_pass(t, p, &values)
                .ok()
                .iter()
                .flat_map(|s| [s.vertex_shader, s.pixel_shader])
                .flatten()
                .flat_map(|code| e.degenerate_matrices(code, &values))
                .collect();
            let rendered = Renderer::run_scene(&pass.scene, opts, regions, |_, _| {})
                .map_err(|e| e.to_string())?;
            return Ok((rendered, pass.scene, hints));
        }
    };
    let shader = Shader::decode(&tokens).map_err(|e| e.to_string())?;
    if !shader.version.is_pixel() {
        return Err("the render panel draws pixel shaders".into());
    }
    if let Some(f) = d3dbc::validate::validate(&shader)
        .into_iter()
        .find(|f| f.severity == Severity::Error)
    {
        return Err(format!(
            "the runtime rejects this shader ({}: [{}] {}); fix the findings first",
            hex_offset(f.offset),
            f.code,
            f.message
        ));
    }
    let set = d3dbc_exec::Inputs {
        textures,
        ..Default::default()
    };
    let mut scene = d3dbc_exec::quick::preview(&tokens, None, r.width, r.height, &set)
        .map_err(|e| e.to_string())?;
    if let Some(Op::Draw(d)) = scene.ops.first_mut() {
        // The float constants of the shader's version (`d3dbc::regs`), as `d3dbc render
        // --const` checks them.
        let count = d3dbc::regs::file(shader.version, d3dbc::token::RegisterType::Const)
            .map_or(0, |f| f.asm_count) as usize;
        for (name, v) in &r.constants {
            let reg = name
                .strip_prefix('c')
                .and_then(|n| n.parse::<usize>().ok())
                .filter(|&n| n < count)
                .ok_or_else(|| format!("`{name}`: expected c0…c{}", count.saturating_sub(1)))?;
            d.ps_constants.set_float_bits(reg, &v.map(f32::to_bits));
        }
        for spec in &r.set {
            let c = d3dbc::fx::pass::constant_table_value(&shader, spec)?;
            for (reg, v) in &c.float {
                d.ps_constants
                    .set_float_bits(*reg as usize, &v.map(f32::to_bits));
            }
            for (reg, v) in &c.int {
                d.ps_constants.set_int(*reg as usize, v);
            }
        }
    }
    let rendered =
        Renderer::run_scene(&scene, opts, regions, |_, _| {}).map_err(|e| e.to_string())?;
    Ok((rendered, scene, Vec::new()))
}

/// The empty-picture warning of a rendered scene (as `d3dbc render` prints it).
fn warning(rendered: &Renderer, scene: &d3dbc_exec::Scene, hints: &[String]) -> Option<String> {
    let why = d3dbc_exec::diagnose::why_empty(scene, rendered.targets.first()?)?;
    let mut w = format!("the picture is empty (only the clear colour): {why}");
    for h in hints {
        w.push_str("; ");
        w.push_str(h);
    }
    Some(w)
}

/// Draws the pixel shader `hex` full-screen on the CPU executor, as `d3dbc render`
/// does: texture coordinates `(u, v, 0, 1)`, white colours, checkerboards in samplers
/// without an image, constants from the CTAB defaults (1 where there is none), then
/// the request's.
pub fn render(hex: &str, r: &RenderRequest) -> Result<Rendered, String> {
    let (out, scene, hints) = run(hex, r, None)?;
    let img = &out.targets[0];
    Ok(Rendered {
        width: img.width,
        height: img.height,
        rgba: img.to_rgba8(),
        warning: warning(&out, &scene, &hints),
    })
}

/// The pixel shader's trace at pixel (`x`, `y`) of [`render`]'s picture: every
/// executed instruction as `dis` prints it with the value it wrote there, then the
/// pixel's colour.
pub fn trace(hex: &str, r: &RenderRequest, x: u32, y: u32) -> Result<Vec<String>, String> {
    if x >= r.width || y >= r.height {
        return Err(format!(
            "pixel ({x}, {y}) is outside {}x{}",
            r.width, r.height
        ));
    }
    let (out, _, _) = run(hex, r, Some((x, y)))?;
    let t = out
        .trace
        .as_ref()
        .ok_or_else(|| format!("pixel ({x}, {y}) is not drawn"))?;
    let mut lines = d3dbc_exec::trace::lines(&t.program, &t.steps);
    let px = out.targets[0].get(x, y);
    lines.push(format!(
        "pixel ({x}, {y}) = {}{}",
        d3dbc_exec::trace::fmt4(px),
        if t.killed { " (killed)" } else { "" }
    ));
    Ok(lines)
}

// ---- WebAssembly exports: JSON strings and bytes across the boundary. ----

fn json<T: Serialize>(v: &T) -> String {
    serde_json::to_string(v).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"))
}

fn error_json(e: &str) -> String {
    json(&serde_json::json!({ "error": e }))
}

/// [`analyze`]: `options` is `{"offsets": bool, "tokens": bool}`; returns the
/// [`Analysis`] as JSON.
#[wasm_bindgen(js_name = analyze)]
pub fn analyze_json(input: &str, options: &str) -> String {
    let o: ListingOptions = serde_json::from_str(options).unwrap_or_default();
    json(&analyze(input, &o))
}

/// [`translate`]: returns `{"text", "interface"}` or `{"error"}` as JSON.
#[wasm_bindgen(js_name = translate)]
pub fn translate_json(hex: &str, target: &str) -> String {
    match translate(hex, target) {
        Ok(t) => json(&t),
        Err(e) => error_json(&e),
    }
}

/// [`decompile`]: returns `{"text", "profile"}` or `{"error"}` as JSON.
#[wasm_bindgen(js_name = decompile)]
pub fn decompile_json(hex: &str) -> String {
    match decompile(hex) {
        Ok(d) => json(&d),
        Err(e) => error_json(&e),
    }
}

fn request(r: &str) -> Result<RenderRequest, String> {
    serde_json::from_str(r).map_err(|e| format!("render request: {e}"))
}

/// [`render`]: `request` is a [`RenderRequest`] as JSON; returns the RGBA bytes, or
/// an empty array with the reason in [`last_error`].
#[wasm_bindgen(js_name = render)]
pub fn render_rgba(hex: &str, request_json: &str) -> Vec<u8> {
    match request(request_json).and_then(|r| render(hex, &r)) {
        Ok(img) => {
            set_error(String::new());
            LAST_WARNING.with(|l| *l.borrow_mut() = img.warning.clone().unwrap_or_default());
            img.rgba
        }
        Err(e) => {
            set_error(e);
            Vec::new()
        }
    }
}

/// [`trace`]: returns `{"lines": [...]}` or `{"error"}` as JSON.
#[wasm_bindgen(js_name = trace)]
pub fn trace_json(hex: &str, request_json: &str, x: u32, y: u32) -> String {
    match request(request_json).and_then(|r| trace(hex, &r, x, y)) {
        Ok(lines) => json(&serde_json::json!({ "lines": lines })),
        Err(e) => error_json(&e),
    }
}

/// [`set_texture`] for the page.
#[wasm_bindgen(js_name = setTexture)]
pub fn set_texture_js(stage: usize, width: u32, height: u32, rgba: &[u8]) -> bool {
    set_texture(stage, width, height, rgba)
}

/// [`clear_textures`] for the page.
#[wasm_bindgen(js_name = clearTextures)]
pub fn clear_textures_js() {
    clear_textures()
}

thread_local! {
    static LAST_ERROR: RefCell<String> = const { RefCell::new(String::new()) };
    static LAST_WARNING: RefCell<String> = const { RefCell::new(String::new()) };
}

/// Why the last [`render_rgba`]'s picture is empty (empty when it is not).
#[wasm_bindgen(js_name = lastWarning)]
pub fn last_warning() -> String {
    LAST_WARNING.with(|l| l.borrow().clone())
}

/// An effect's techniques and passes (for the pickers) and its numeric parameters with
/// their defaults as `--set` text (for the parameter editor).
#[derive(Clone, Debug, Serialize)]
pub struct EffectInfo {
    /// Techniques: name and pass names.
    pub techniques: Vec<(String, Vec<String>)>,
    /// Numeric parameters: name, type (`float4x4`), and the default as `--set` takes
    /// it (`1, 0, 0, 0, …`).
    pub parameters: Vec<(String, String, String)>,
}

/// The pickers' and parameter editor's content for an effect (`hex` as [`analyze`]
/// gives it); an error for anything else.
pub fn effect_info(hex: &str) -> Result<EffectInfo, String> {
    let Bytecode::Effect(bytes) = read_bytecode(hex)? else {
        return Err("not an effect".into());
    };
    let e = d3dbc::fx::Effect::parse(&bytes).map_err(|e| e.to_string())?;
    let techniques = e
        .techniques
        .iter()
        .map(|t| {
            (
                t.name.to_string(),
                t.passes.iter().map(|p| p.name.to_string()).collect(),
            )
        })
        .collect();
    let mut parameters = Vec::new();
    for p in &e.parameters {
        let name = p.ty.name.to_string();
        // Numeric parameters are the ones `--set` takes: their defaults parse back.
        let Some(v) = e.parameter_floats(&name, &Default::default()) else {
            continue;
        };
        let text = v.iter().map(f32::to_string).collect::<Vec<_>>().join(", ");
        if v.is_empty() || e.parse_value(&format!("{name}={text}")).is_err() {
            continue;
        }
        parameters.push((
            name,
            p.ty.to_string().split(' ').next().unwrap_or("").to_string(),
            text,
        ));
    }
    Ok(EffectInfo {
        techniques,
        parameters,
    })
}

/// [`effect_info`]: returns the [`EffectInfo`] or `{"error"}` as JSON.
#[wasm_bindgen(js_name = effectInfo)]
pub fn effect_info_json(hex: &str) -> String {
    match effect_info(hex) {
        Ok(i) => json(&i),
        Err(e) => error_json(&e),
    }
}

fn set_error(e: String) {
    LAST_ERROR.with(|l| *l.borrow_mut() = e);
}

/// Why the last [`render_rgba`] returned nothing (empty after a success).
#[wasm_bindgen(js_name = lastError)]
pub fn last_error() -> String {
    LAST_ERROR.with(|l| l.borrow().clone())
}

/// The d3dbc version the page runs.
#[wasm_bindgen(js_name = version)]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}
