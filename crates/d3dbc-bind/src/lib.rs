//! # d3dbc-bind
//!
//! The API the `d3dbc` Python package (`crates/d3dbc-py`) and the `d3dbc` npm package
//! (`crates/d3dbc-web`'s WebAssembly module) expose, written once in Rust so both
//! languages get the same methods, the same results and the same errors:
//!
//! - [`Shader`]: read once from bytes ([`Shader::from_bytes`]: bytecode, an fxc `/Fh`
//!   header or hex, as the `d3dbc` command reads them) or assembled ([`assemble`]); its
//!   version, tokens, listing ([`Shader::disassemble`], what `d3dbc dis` prints),
//!   constant table and instructions (JSON in the shape of `dis --format json`,
//!   [`d3dbc::model`]), validator findings, translations ([`Shader::translate`], as
//!   `d3dbc translate`), one invocation ([`Shader::run`], as `d3dbc run`) and the
//!   full-screen picture ([`Shader::render`], as `d3dbc render`);
//! - [`Effect`]: an fx_2_0 effect's techniques and parameters, values set by name, and
//!   the shaders a pass binds with the constants the pass gives them;
//! - [`rip`]: every shader and effect inside any bytes.
//!
//! Every failure is an [`Error`] whose [`ErrorKind`] names the exception class the
//! bindings raise (`DecodeError`, `AsmError`, `ValidationError`, …) and whose fields
//! say where (DWORD offset, or line and column) and why. Structured results are JSON
//! strings, which both bindings parse with their own fast parsers.
//!
//! ```
//! let (sh, _) = d3dbc_bind::assemble("ps_2_0\ndcl t0\nmov oC0, t0\n", &Default::default()).unwrap();
//! assert_eq!(sh.version(), "ps_2_0");
//! assert!(sh.disassemble(false, false).contains("mov oC0, t0"));
//! let out = sh.run(&d3dbc_bind::RunRequest::from_json(r#"{"inputs": {"t0": [0.5, 0.25]}}"#).unwrap()).unwrap();
//! assert_eq!(out.outputs[0], ("oC0".to_string(), [0.5, 0.25, 0.0, 1.0]));
//! let err = d3dbc_bind::assemble("ps_2_0\nmov oC0, r9\n", &Default::default()).unwrap_err();
//! assert_eq!((err.kind.class_name(), err.line, err.column), ("AsmError", Some(2), Some(10)));
//! ```

use std::collections::BTreeMap;
use std::sync::Arc;

use d3dbc::fx::apply::Values;
use d3dbc::report;
use d3dbc::token::RegisterType;
use d3dbc::{regs, Severity};
use d3dbc_exec::draw::{Op, Texture};
use d3dbc_exec::render::{Options, Renderer};
use d3dbc_exec::Inputs;
use serde::{Deserialize, Serialize};

/// Which exception an [`Error`] becomes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// The bytes hold no shader, or the shader does not decode.
    Decode,
    /// Assembly text does not assemble (syntax, the assembler's grammar, or the
    /// validator when assembling validates).
    Asm,
    /// The runtime validator rejects the shader (translate, run and render refuse it).
    Validation,
    /// A back end could not translate the shader.
    Translate,
    /// The executor could not run or draw the shader.
    Run,
    /// The effect is malformed, or a technique, pass or parameter does not exist.
    Effect,
    /// An argument is out of range or malformed (a register the version lacks, a size).
    Argument,
}

impl ErrorKind {
    /// The exception class the bindings raise: `DecodeError`, `AsmError`,
    /// `ValidationError`, `TranslateError`, `RunError`, `EffectError`, `ArgumentError`.
    pub fn class_name(self) -> &'static str {
        match self {
            ErrorKind::Decode => "DecodeError",
            ErrorKind::Asm => "AsmError",
            ErrorKind::Validation => "ValidationError",
            ErrorKind::Translate => "TranslateError",
            ErrorKind::Run => "RunError",
            ErrorKind::Effect => "EffectError",
            ErrorKind::Argument => "ArgumentError",
        }
    }
}

impl Serialize for ErrorKind {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.class_name())
    }
}

/// A failure: what kind (the exception class), the message (what, where and why, as the
/// `d3dbc` command says it), and the fields each kind carries.
#[derive(Clone, Debug, Serialize)]
pub struct Error {
    /// The exception class.
    pub kind: ErrorKind,
    /// The whole message.
    pub message: String,
    /// The rule's or diagnostic's code (`E0204`), when there is one.
    pub code: Option<&'static str>,
    /// 1-based line in the assembly text ([`ErrorKind::Asm`]).
    pub line: Option<u32>,
    /// 1-based column in that line.
    pub column: Option<u32>,
    /// DWORD offset in the token stream (decode errors, validator findings), or byte
    /// offset in an effect ([`ErrorKind::Effect`]).
    pub offset: Option<usize>,
    /// Every assembler diagnostic (errors and warnings) as `file:line:col: …` text with
    /// the source line and a caret ([`ErrorKind::Asm`]).
    pub diagnostics: Box<[String]>,
    /// The validator's findings ([`ErrorKind::Validation`]).
    pub findings: Box<[Finding]>,
}

impl Error {
    fn new(kind: ErrorKind, message: impl Into<String>) -> Error {
        Error {
            kind,
            message: message.into(),
            code: None,
            line: None,
            column: None,
            offset: None,
            diagnostics: Box::new([]),
            findings: Box::new([]),
        }
    }

    /// An [`ErrorKind::Argument`] error.
    pub fn argument(message: impl Into<String>) -> Error {
        Error::new(ErrorKind::Argument, message)
    }

    /// The error as JSON (`{"kind": "AsmError", "message", "code", "line", …}`): what
    /// the WebAssembly exports throw.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_else(|_| {
            format!(
                "{{\"kind\":\"{}\",\"message\":\"unserialisable error\"}}",
                self.kind.class_name()
            )
        })
    }
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}

/// One validator finding, with the fields `d3dbc validate --format json` writes.
#[derive(Clone, Debug, Serialize)]
pub struct Finding {
    /// The rule's stable code (`E0204`).
    pub code: &'static str,
    /// `error` or `warning`.
    pub severity: &'static str,
    /// DWORD offset of the instruction.
    pub offset: usize,
    /// The same offset as every message writes it (`+0004`).
    pub offset_hex: String,
    /// `file:line:col` for text input, else `null`.
    pub location: Option<String>,
    /// The instruction as `dis` prints it (empty for whole-shader findings).
    pub instruction: String,
    /// What is wrong (and the rule's documentation page).
    pub message: String,
}

impl Finding {
    fn of(f: &report::Finding) -> Finding {
        Finding {
            code: f.code,
            severity: report::severity(f.severity),
            offset: f.offset,
            offset_hex: report::hex_offset(f.offset),
            location: f.location.clone(),
            instruction: f.instruction.clone(),
            message: f.message.clone(),
        }
    }
}

/// One shader: its tokens and IR, read once; and, for a shader a pass binds
/// ([`Effect::pass_shaders`]), the constants the pass gives it.
#[derive(Clone, Debug)]
pub struct Shader {
    tokens: Vec<u32>,
    ir: d3dbc::Shader,
    bound: Option<Inputs>,
}

/// Why a translation failed, as a [`ErrorKind::Translate`] error.
fn translate_error(e: impl std::fmt::Display) -> Error {
    Error::new(ErrorKind::Translate, e.to_string())
}

fn decode_error(e: &d3dbc::DecodeError) -> Error {
    let mut err = Error::new(ErrorKind::Decode, e.to_string());
    err.offset = Some(e.offset);
    err
}

/// What a translation gives: SPIR-V words, or text.
#[derive(Clone, Debug, PartialEq)]
pub enum Translation {
    /// SPIR-V (the direct back end, `d3dbc-spirv`, unless naga was asked for).
    Words(Vec<u32>),
    /// WGSL, GLSL, MSL or HLSL (through `d3dbc-naga`).
    Text(String),
}

impl Shader {
    /// The first shader in `data`: bytecode (raw, or behind any container
    /// [`d3dbc::input::read_any`] reads), an fxc `/Fh` C header or hex text, as the
    /// `d3dbc` command reads it. Returns the shader and the warnings (data after the end
    /// token). Assembly text, effects and bytes without a shader are
    /// [`ErrorKind::Decode`] errors that say what to call instead.
    pub fn from_bytes(data: &[u8]) -> Result<(Shader, Vec<String>), Error> {
        if d3dbc::fx::Effect::is_effect(data) {
            return Err(Error::new(
                ErrorKind::Decode,
                "this is an fx_2_0 effect: read it with Effect.from_bytes",
            ));
        }
        let found = d3dbc::input::read_any(data).map_err(|e| {
            let msg = match e {
                d3dbc::InputError::AssemblyText => {
                    "this is assembly text: assemble it with assemble(text)".to_string()
                }
                e => e.to_string(),
            };
            Error::new(ErrorKind::Decode, msg)
        })?;
        let mut warnings = Vec::new();
        let located = report::locate(&found, false, &mut warnings).map_err(|e| {
            // The located error is the decoder's, with its offset in the text.
            let offset = found.first().and_then(|f| {
                d3dbc::Shader::decode(&f.tokens)
                    .err()
                    .map(|d: d3dbc::DecodeError| d.offset)
            });
            let mut err = Error::new(ErrorKind::Decode, e);
            err.offset = offset;
            err
        })?;
        let first = located
            .first()
            .ok_or_else(|| Error::new(ErrorKind::Decode, "no shader found"))?;
        Ok((Shader::from_tokens(first.tokens.to_vec())?, warnings))
    }

    /// A shader from its tokens (version token to end token).
    pub fn from_tokens(tokens: Vec<u32>) -> Result<Shader, Error> {
        let ir = d3dbc::Shader::decode(&tokens).map_err(|e| decode_error(&e))?;
        Ok(Shader {
            tokens,
            ir,
            bound: None,
        })
    }

    /// The constants a pass gives this shader ([`Effect::pass_shaders`]) as JSON
    /// (`{"floats": [[register, [x, y, z, w]], …], "ints": […], "bools": [[register,
    /// bool], …]}`), `None` for a shader read or assembled; a stateless caller (the
    /// WebAssembly exports) hands it back with [`Shader::with_bound_json`].
    pub fn bound_json(&self) -> Option<String> {
        let b = self.bound.as_ref()?;
        Some(serde_json::json!({"floats": b.floats, "ints": b.ints, "bools": b.bools}).to_string())
    }

    /// This shader with the pass constants of [`Shader::bound_json`] (`""`: none).
    pub fn with_bound_json(mut self, json: &str) -> Result<Shader, Error> {
        if json.trim().is_empty() {
            self.bound = None;
            return Ok(self);
        }
        #[derive(Deserialize)]
        struct Bound {
            floats: Vec<(usize, [f32; 4])>,
            ints: Vec<(usize, [i32; 4])>,
            bools: Vec<(usize, bool)>,
        }
        let b: Bound = serde_json::from_str(json)
            .map_err(|e| Error::argument(format!("pass constants: {e}")))?;
        self.bound = Some(Inputs {
            floats: b.floats,
            ints: b.ints,
            bools: b.bools,
            ..Default::default()
        });
        Ok(self)
    }

    /// The version: `ps_3_0`, `vs_1_1`, `ps_2_x`…
    pub fn version(&self) -> String {
        self.ir.version.to_string()
    }

    /// Whether this is a pixel shader.
    pub fn is_pixel(&self) -> bool {
        self.ir.version.is_pixel()
    }

    /// The tokens.
    pub fn tokens(&self) -> &[u32] {
        &self.tokens
    }

    /// The IR.
    pub fn ir(&self) -> &d3dbc::Shader {
        &self.ir
    }

    /// The bytecode (little-endian tokens), what a `.vso`/`.pso` file holds.
    pub fn to_bytes(&self) -> Vec<u8> {
        self.tokens.iter().flat_map(|t| t.to_le_bytes()).collect()
    }

    /// The Microsoft listing `d3dbc dis` prints (`offsets`/`tokens`: its `--offsets`
    /// and `--tokens`).
    pub fn disassemble(&self, offsets: bool, tokens: bool) -> String {
        let opts = d3dbc::PrintOptions {
            offsets,
            tokens,
            ..Default::default()
        };
        let mut out = String::with_capacity(self.tokens.len() * 12 + 256);
        if d3dbc::fx::preshader::print_shader(&self.tokens, &opts, &mut out).is_err() {
            out.clear();
            d3dbc::print::print(&self.ir, &opts, &mut out);
        }
        out
    }

    /// The constant table's entries as a JSON array ([`d3dbc::model::ConstantJson`]
    /// each: `name`, `register`, `register_set`, `register_count`, `type`,
    /// `default_value`); `[]` without a table. A malformed table is a decode error.
    pub fn constants_json(&self) -> Result<String, Error> {
        match self.ir.ctab() {
            None => Ok("[]".into()),
            Some(Err(e)) => Err(Error::new(
                ErrorKind::Decode,
                format!("constant table: {e}"),
            )),
            Some(Ok(c)) => {
                // Through a JSON value, as `dis --format json` writes the table: float
                // defaults as the f32's exact value.
                let all: Vec<_> = c.constants.iter().map(d3dbc::model::ConstantJson).collect();
                serde_json::to_value(&all)
                    .map(|v| v.to_string())
                    .map_err(|e| Error::new(ErrorKind::Decode, e.to_string()))
            }
        }
    }

    /// The instructions (comments left out) as a JSON array, each as `dis --format
    /// json` writes it ([`d3dbc::model::InstructionJson`]).
    pub fn instructions_json(&self) -> Result<String, Error> {
        let mut out = Vec::with_capacity(self.tokens.len() * 64);
        out.push(b'[');
        let mut first = true;
        d3dbc::model::for_each_item(&self.tokens, 0, |item| {
            if !item.is_instruction() {
                return Ok(());
            }
            if !first {
                out.push(b',');
            }
            first = false;
            serde_json::to_writer(&mut out, &item)
                .map_err(|e| Error::new(ErrorKind::Decode, e.to_string()))
        })?;
        out.push(b']');
        String::from_utf8(out).map_err(|e| Error::new(ErrorKind::Decode, e.to_string()))
    }

    /// The runtime validator's findings (empty: the runtime accepts the shader).
    pub fn findings(&self) -> Vec<Finding> {
        report::findings(&self.ir, 0, &|_, _| None)
            .iter()
            .map(Finding::of)
            .collect()
    }

    /// [`findings`](Self::findings) as a JSON array.
    pub fn findings_json(&self) -> String {
        serde_json::to_string(&self.findings()).unwrap_or_else(|_| "[]".into())
    }

    /// Refuses a shader the runtime rejects, as `run`, `render` and `translate` do: a
    /// [`ErrorKind::Validation`] error with every finding.
    pub fn check_valid(&self) -> Result<(), Error> {
        let findings = self.findings();
        let Some(first) = findings.iter().find(|f| f.severity == "error") else {
            return Ok(());
        };
        let mut err = Error::new(
            ErrorKind::Validation,
            format!(
                "the runtime validator rejects this {} shader: {}: error[{}]: {}{} \
                 (validate off goes ahead anyway)",
                self.version(),
                first.offset_hex,
                first.code,
                if first.instruction.is_empty() {
                    String::new()
                } else {
                    format!("`{}`: ", first.instruction)
                },
                first.message
            ),
        );
        err.code = Some(first.code);
        err.offset = Some(first.offset);
        err.findings = findings.into_boxed_slice();
        Err(err)
    }

    /// Translates to `target` (`spirv`, `wgsl`, `glsl`, `msl`, `hlsl`) as `d3dbc
    /// translate` does: SPIR-V from the direct back end (`via_naga`: through naga, as
    /// `--via naga`), text through naga. `options_json` is a
    /// [`d3dbc_naga::TranslateOptions`] (`{"semantics": …, "pipeline": …}`; `""` for
    /// the defaults). `validate`: refuse a shader the runtime rejects.
    pub fn translate(
        &self,
        target: &str,
        options_json: &str,
        validate: bool,
        via_naga: bool,
    ) -> Result<Translation, Error> {
        let lang: d3dbc_naga::Target = target.parse().map_err(|e: String| Error::argument(e))?;
        let options = translate_options(options_json)?;
        if validate {
            self.check_valid()?;
        }
        if lang == d3dbc_naga::Target::Spirv && !via_naga {
            let t = d3dbc_spirv::translate(&self.ir, &options).map_err(translate_error)?;
            return Ok(Translation::Words(t.words));
        }
        let t = d3dbc_naga::translate(&self.ir, &options).map_err(translate_error)?;
        Ok(match lang {
            d3dbc_naga::Target::Spirv => Translation::Words(t.spirv().map_err(translate_error)?),
            d3dbc_naga::Target::Wgsl => Translation::Text(t.wgsl().map_err(translate_error)?),
            d3dbc_naga::Target::Glsl => Translation::Text(t.glsl().map_err(translate_error)?),
            d3dbc_naga::Target::Msl => Translation::Text(t.msl().map_err(translate_error)?),
            d3dbc_naga::Target::Hlsl => Translation::Text(t.hlsl().map_err(translate_error)?),
        })
    }

    /// The interface a translation gives the host (bindings, constant buffers, vertex
    /// inputs, varyings) as pretty JSON, what `d3dbc translate --interface` writes.
    pub fn interface_json(&self, options_json: &str, validate: bool) -> Result<String, Error> {
        let options = translate_options(options_json)?;
        if validate {
            self.check_valid()?;
        }
        let t = d3dbc_spirv::translate(&self.ir, &options).map_err(translate_error)?;
        serde_json::to_string_pretty(&t.interface).map_err(translate_error)
    }

    /// Runs the shader once, as `d3dbc run`: a pixel shader on one 2×2 quad, a vertex
    /// shader on one vertex, inputs and constants from `req` over the scene's defaults
    /// (and, for a shader a pass binds, over the pass's constants).
    pub fn run(&self, req: &RunRequest) -> Result<RunOutput, Error> {
        if req.validate {
            self.check_valid()?;
        }
        let mut inputs = self.bound.clone().unwrap_or_default();
        req.constants.feed(self.ir.version, &mut inputs)?;
        for (name, v) in &req.inputs {
            if v.is_empty() || v.len() > 4 {
                return Err(Error::argument(format!(
                    "input {name}: expected 1 to 4 values, got {}",
                    v.len()
                )));
            }
            let mut x = [0.0f32, 0.0, 0.0, 1.0];
            x[..v.len()].copy_from_slice(v);
            inputs.registers.push((name.clone(), x));
        }
        inputs.trace = req.trace;
        let result = if self.ir.version.is_pixel() {
            d3dbc_exec::run_pixel(&self.ir, &inputs)
        } else {
            d3dbc_exec::run_vertex(&self.ir, &inputs)
        };
        let out = result.map_err(|e| match e {
            d3dbc_exec::RunError::UnknownInput { .. } => Error::argument(e.to_string()),
            e => Error::new(ErrorKind::Run, e.to_string()),
        })?;
        Ok(RunOutput {
            outputs: out.values,
            killed: out.killed,
            trace: out.trace,
            trace_truncated: out.trace_truncated,
        })
    }

    /// Draws the pixel shader full-screen on the CPU executor, as `d3dbc render` does
    /// (its scene: [`d3dbc_exec::quick::preview`]), through vertex shader `vs` when
    /// given; a pass's constants go to their stage before `req`'s.
    pub fn render(&self, req: &RenderRequest, vs: Option<&Shader>) -> Result<Picture, Error> {
        const MAX_SIDE: u32 = 16384;
        if !self.ir.version.is_pixel() {
            return Err(Error::argument(format!(
                "render draws a pixel shader; this is {} (pass it as vs=)",
                self.version()
            )));
        }
        if let Some(v) = vs.filter(|v| v.ir.version.is_pixel()) {
            return Err(Error::argument(format!(
                "vs: expected a vertex shader, got {}",
                v.version()
            )));
        }
        let (w, h) = (req.width, req.height);
        if w == 0 || h == 0 || w > MAX_SIDE || h > MAX_SIDE || u64::from(w) * u64::from(h) > 1 << 26
        {
            return Err(Error::argument(format!(
                "size {w}x{h}: expected 1x1 up to {MAX_SIDE}x{MAX_SIDE} and at most 2^26 pixels"
            )));
        }
        if req.validate {
            self.check_valid()?;
            if let Some(v) = vs {
                v.check_valid()?;
            }
        }
        let mut user = Inputs::default();
        let mut versions = vec![self.ir.version];
        versions.extend(vs.map(|v| v.ir.version));
        req.constants.check(&versions)?;
        req.constants.feed_unchecked(&mut user);
        let set = Inputs {
            textures: req.textures.clone(),
            ..Default::default()
        };
        let mut scene =
            d3dbc_exec::quick::preview(&self.tokens, vs.map(|v| v.tokens.as_slice()), w, h, &set)
                .map_err(|e| Error::new(ErrorKind::Run, e.to_string()))?;
        if let Some(Op::Draw(d)) = scene.ops.first_mut() {
            if let Some(b) = &self.bound {
                b.apply_constants(&mut d.ps_constants);
            }
            if let Some(b) = vs.and_then(|v| v.bound.as_ref()) {
                b.apply_constants(&mut d.vs_constants);
            }
            user.apply_constants(&mut d.ps_constants);
            user.apply_constants(&mut d.vs_constants);
        }
        let r = Renderer::run_scene(&scene, Options::default(), None, |_, _| {})
            .map_err(|e| Error::new(ErrorKind::Run, e.to_string()))?;
        let img = &r.targets[0];
        Ok(Picture {
            width: img.width,
            height: img.height,
            rgba: img.to_rgba8(),
        })
    }
}

impl From<d3dbc::DecodeError> for Error {
    fn from(e: d3dbc::DecodeError) -> Self {
        decode_error(&e)
    }
}

fn translate_options(json: &str) -> Result<d3dbc_naga::TranslateOptions, Error> {
    if json.trim().is_empty() {
        return Ok(Default::default());
    }
    serde_json::from_str(json).map_err(|e| {
        Error::argument(format!(
            "translation options: {e} (keys: semantics, pipeline; see d3dbc::target::options)"
        ))
    })
}

/// Constants by register name (`c0`, `i3`, `b1`): float and int registers take one to
/// four numbers (missing components 0), bool registers `true`/`false` (or a number).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(transparent)]
pub struct ConstantValues(BTreeMap<String, serde_json::Value>);

impl ConstantValues {
    /// Checks every register against `version` (the register file's size in that
    /// version, as `d3dbc run --const` checks it) and appends the values to `inputs`.
    fn feed(&self, version: d3dbc::Version, inputs: &mut Inputs) -> Result<(), Error> {
        self.check(&[version])?;
        self.feed_unchecked(inputs);
        Ok(())
    }

    /// Register file and number of `name`.
    fn parse_name(name: &str) -> Result<(RegisterType, usize), Error> {
        let (t, rest) = match name.trim().split_at_checked(1) {
            Some(("c", r)) => (RegisterType::Const, r),
            Some(("i", r)) => (RegisterType::ConstInt, r),
            Some(("b", r)) => (RegisterType::ConstBool, r),
            _ => {
                return Err(Error::argument(format!(
                    "constant `{name}`: expected cN, iN or bN"
                )))
            }
        };
        let n = rest
            .parse::<usize>()
            .map_err(|_| Error::argument(format!("constant `{name}`: expected cN, iN or bN")))?;
        Ok((t, n))
    }

    /// The numbers of one value (a number, a bool, or a list of 1–4 of them).
    fn numbers(name: &str, v: &serde_json::Value) -> Result<Vec<f64>, Error> {
        let one = |x: &serde_json::Value| -> Option<f64> {
            x.as_f64()
                .or_else(|| x.as_bool().map(|b| if b { 1.0 } else { 0.0 }))
        };
        let out: Option<Vec<f64>> = match v {
            serde_json::Value::Array(a) => a.iter().map(one).collect(),
            x => one(x).map(|x| vec![x]),
        };
        match out {
            Some(o) if !o.is_empty() && o.len() <= 4 => Ok(o),
            _ => Err(Error::argument(format!(
                "constant {name}: expected 1 to 4 numbers, got {v}"
            ))),
        }
    }

    /// Checks names, value shapes and that each register exists in one of `versions`
    /// (the shaders the values go to; `render` with a vertex shader has two), as `d3dbc
    /// run --const` and `render --const` check them.
    fn check(&self, versions: &[d3dbc::Version]) -> Result<(), Error> {
        for (name, v) in &self.0 {
            let (t, n) = Self::parse_name(name)?;
            Self::numbers(name, v)?;
            let count = |v: &d3dbc::Version| regs::file(*v, t).map_or(0, |f| f.asm_count) as usize;
            if versions.iter().any(|v| n < count(v)) {
                continue;
            }
            let prefix = &name.trim()[..1];
            let have: Vec<String> = versions
                .iter()
                .map(|v| match count(v) {
                    0 => format!("{v} has no {prefix}# registers"),
                    k => format!("{v} has {prefix}0–{prefix}{}", k - 1),
                })
                .collect();
            return Err(Error::argument(format!(
                "constant {name}: out of range ({})",
                have.join("; ")
            )));
        }
        Ok(())
    }

    /// Appends the values (already checked) to `inputs`.
    fn feed_unchecked(&self, inputs: &mut Inputs) {
        for (name, v) in &self.0 {
            let (Ok((t, n)), Ok(nums)) = (Self::parse_name(name), Self::numbers(name, v)) else {
                continue;
            };
            match t {
                RegisterType::ConstInt => {
                    let mut x = [0i32; 4];
                    for (d, s) in x.iter_mut().zip(&nums) {
                        *d = *s as i32;
                    }
                    inputs.ints.push((n, x));
                }
                RegisterType::ConstBool => inputs.bools.push((n, nums[0] != 0.0)),
                _ => {
                    let mut x = [0f32; 4];
                    for (d, s) in x.iter_mut().zip(&nums) {
                        *d = *s as f32;
                    }
                    inputs.floats.push((n, x));
                }
            }
        }
    }
}

fn yes() -> bool {
    true
}

/// What [`Shader::run`] takes.
#[derive(Clone, Debug, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RunRequest {
    /// Input registers (`v0`, `t0`) → 1–4 values (missing components `(0, 0, 0, 1)`).
    pub inputs: BTreeMap<String, Vec<f32>>,
    /// Constants (`c0`, `i0`, `b0`).
    pub constants: ConstantValues,
    /// Record every executed instruction.
    pub trace: bool,
    /// Refuse a shader the runtime rejects (default true).
    #[serde(default = "yes")]
    pub validate: bool,
}

impl Default for RunRequest {
    fn default() -> Self {
        RunRequest {
            inputs: BTreeMap::new(),
            constants: ConstantValues::default(),
            trace: false,
            validate: true,
        }
    }
}

impl RunRequest {
    /// Parses a request (`{"inputs": {...}, "constants": {...}, "trace": bool,
    /// "validate": bool}`); a malformed one is an [`ErrorKind::Argument`] error.
    pub fn from_json(json: &str) -> Result<RunRequest, Error> {
        serde_json::from_str(json).map_err(|e| Error::argument(format!("run: {e}")))
    }
}

/// What [`Shader::run`] gives, as `d3dbc run --format json` prints it.
#[derive(Clone, Debug, Serialize)]
pub struct RunOutput {
    /// Output registers in order (`oC0`, `oDepth`; `oPos`, `oD0`, `oT0`/`o0`…).
    pub outputs: Vec<(String, [f32; 4])>,
    /// Pixel shaders: whether the pixel was discarded.
    pub killed: Option<bool>,
    /// The trace: each executed instruction as `dis` prints it and the value it wrote.
    pub trace: Vec<(String, Option<[f32; 4]>)>,
    /// The trace was cut after its first 65,536 steps.
    pub trace_truncated: bool,
}

impl RunOutput {
    /// As JSON: `{"outputs": {"oC0": [x, y, z, w], …}, "order": [names], "killed",
    /// "trace": [{"instruction", "value"}], "trace_truncated"}`.
    pub fn to_json(&self) -> String {
        let outputs: serde_json::Map<String, serde_json::Value> = self
            .outputs
            .iter()
            .map(|(n, v)| (n.clone(), serde_json::json!(v)))
            .collect();
        let order: Vec<&str> = self.outputs.iter().map(|(n, _)| n.as_str()).collect();
        let trace: Vec<serde_json::Value> = self
            .trace
            .iter()
            .map(|(t, v)| serde_json::json!({"instruction": t, "value": v}))
            .collect();
        serde_json::json!({
            "outputs": outputs,
            "order": order,
            "killed": self.killed,
            "trace": trace,
            "trace_truncated": self.trace_truncated,
        })
        .to_string()
    }
}

/// What [`Shader::render`] takes.
#[derive(Clone, Debug, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RenderRequest {
    /// Width in pixels (default 256, as `d3dbc render`).
    pub width: u32,
    /// Height in pixels (default 256).
    pub height: u32,
    /// Constants (`c0`, `i0`, `b0`) for both stages.
    pub constants: ConstantValues,
    /// Refuse shaders the runtime rejects (default true).
    pub validate: bool,
    /// Textures by sampler stage (set with [`RenderRequest::texture`]; not JSON).
    #[serde(skip)]
    pub textures: Vec<(usize, Arc<Texture>)>,
}

impl Default for RenderRequest {
    fn default() -> Self {
        RenderRequest {
            width: 256,
            height: 256,
            constants: ConstantValues::default(),
            validate: true,
            textures: Vec::new(),
        }
    }
}

impl RenderRequest {
    /// Parses a request (`{"width", "height", "constants", "validate"}`).
    pub fn from_json(json: &str) -> Result<RenderRequest, Error> {
        serde_json::from_str(json).map_err(|e| Error::argument(format!("render: {e}")))
    }

    /// Binds an RGBA8 image (rows top to bottom) to sampler stage `stage` (0–15).
    pub fn texture(
        &mut self,
        stage: usize,
        width: u32,
        height: u32,
        rgba: &[u8],
    ) -> Result<(), Error> {
        if stage >= regs::VERTEX_SAMPLER_BASE {
            return Err(Error::argument(format!(
                "texture s{stage}: expected s0…s{}",
                regs::VERTEX_SAMPLER_BASE - 1
            )));
        }
        let t = Texture::from_rgba8(width, height, rgba).ok_or_else(|| {
            Error::argument(format!(
                "texture s{stage}: {} bytes is not {width}x{height} RGBA8 ({} bytes)",
                rgba.len(),
                u64::from(width) * u64::from(height) * 4
            ))
        })?;
        self.textures.retain(|(s, _)| *s != stage);
        self.textures.push((stage, Arc::new(t)));
        Ok(())
    }
}

/// A picture: RGBA8, rows top to bottom.
#[derive(Clone, Debug, PartialEq)]
pub struct Picture {
    /// Width.
    pub width: u32,
    /// Height.
    pub height: u32,
    /// `width × height × 4` bytes.
    pub rgba: Vec<u8>,
}

/// Assembly options: `-D`, `-I`, `--no-validate`, `--raw` of `d3dbc asm`.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct AsmRequest {
    /// Macros (`NAME` → value; `null` or `""` defines it empty).
    pub defines: BTreeMap<String, Option<String>>,
    /// Include directories.
    pub include_dirs: Vec<std::path::PathBuf>,
    /// Skip the runtime validator (`--no-validate`).
    pub no_validate: bool,
    /// Raw mode (`--raw`).
    pub raw: bool,
    /// The file name diagnostics show (default `input`).
    pub file_name: Option<String>,
}

impl AsmRequest {
    /// Parses options (`{"defines", "include_dirs", "no_validate", "raw", "file_name"}`;
    /// `""` for the defaults).
    pub fn from_json(json: &str) -> Result<AsmRequest, Error> {
        if json.trim().is_empty() {
            return Ok(AsmRequest::default());
        }
        serde_json::from_str(json).map_err(|e| Error::argument(format!("assemble: {e}")))
    }
}

/// Assembles `text` as `d3dbc asm` does: preprocess, parse, encode, validate (unless
/// `no_validate`/`raw`), and rebuild the constant table from the listing's header
/// comment. Returns the shader and warnings (a header the table could not be read
/// from). The first error is an [`ErrorKind::Asm`] with its code, line and column.
pub fn assemble(text: &str, req: &AsmRequest) -> Result<(Shader, Vec<String>), Error> {
    let name = req.file_name.clone().unwrap_or_else(|| "input".into());
    let opts = d3dbc::asm::Options {
        file_name: name.clone(),
        defines: req
            .defines
            .iter()
            .map(|(k, v)| (k.clone(), v.clone().filter(|v| !v.is_empty())))
            .collect(),
        include_dirs: req.include_dirs.clone(),
        no_validate: req.no_validate,
        raw: req.raw,
    };
    let mut shader = d3dbc::asm::assemble(text, &opts).map_err(|d| {
        let first =
            d.0.iter()
                .find(|x| x.severity == Severity::Error)
                .or(d.0.first());
        let mut err = Error::new(
            ErrorKind::Asm,
            first.map_or_else(|| format!("{name}: assembly failed"), |x| x.to_string()),
        );
        if let Some(x) = first {
            err.code = x.code;
            err.line = Some(x.line);
            err.column = Some(x.col);
        }
        err.diagnostics = d.0.iter().map(|x| x.to_string()).collect();
        err
    })?;
    let mut warnings = Vec::new();
    match d3dbc::asm::ctab_header::ctab_from_listing(text, &name) {
        Ok(Some(t)) => d3dbc::asm::ctab_header::embed(&mut shader, &t),
        Ok(None) => {}
        Err(mut d) => {
            d.severity = Severity::Warning;
            d.message = format!("{}; assembled without a constant table", d.message);
            warnings.push(d.to_string());
        }
    }
    Ok((Shader::from_tokens(shader.encode())?, warnings))
}

/// An fx_2_0 effect (`.fxo`, or XNA/FNA `.fxb`): its bytes, and the parameter values set
/// so far.
#[derive(Clone, Debug)]
pub struct Effect {
    bytes: Vec<u8>,
    values: Values,
}

/// A technique or pass, by name or index.
#[derive(Clone, Debug)]
pub enum Pick {
    /// By index.
    Index(usize),
    /// By name.
    Name(String),
}

fn effect_error(e: &d3dbc::fx::FxError) -> Error {
    let mut err = Error::new(ErrorKind::Effect, e.to_string());
    err.offset = Some(e.offset);
    err
}

#[derive(Serialize)]
struct AnnotationJson {
    name: String,
    #[serde(rename = "type")]
    ty: &'static str,
    value: serde_json::Value,
}

#[derive(Serialize)]
struct PassJson {
    name: String,
    annotations: Vec<AnnotationJson>,
    states: Vec<String>,
}

#[derive(Serialize)]
struct TechniqueJson {
    name: String,
    annotations: Vec<AnnotationJson>,
    passes: Vec<PassJson>,
}

#[derive(Serialize)]
struct ParameterJson {
    name: String,
    semantic: String,
    #[serde(rename = "type")]
    ty: &'static str,
    class: String,
    rows: u32,
    columns: u32,
    elements: u32,
    annotations: Vec<AnnotationJson>,
    value: serde_json::Value,
}

impl Effect {
    /// Reads an effect (checked once here; later calls parse the bytes again, which
    /// costs no allocation of the data).
    pub fn from_bytes(data: Vec<u8>) -> Result<Effect, Error> {
        if !d3dbc::fx::Effect::is_effect(&data) {
            return Err(Error::new(
                ErrorKind::Effect,
                "not an fx_2_0 effect (expected the tag 0xFEFF0901, or 0xBCF00BCF before it)",
            ));
        }
        d3dbc::fx::Effect::parse(&data).map_err(|e| effect_error(&e))?;
        Ok(Effect {
            bytes: data,
            values: Values::default(),
        })
    }

    /// Reads an effect and sets the values of `values_json` (`{"name": [numbers], …}`,
    /// each checked as [`Effect::set`] checks it): what a stateless caller (the
    /// WebAssembly exports) passes on every call.
    pub fn with_values(data: Vec<u8>, values_json: &str) -> Result<Effect, Error> {
        let mut e = Effect::from_bytes(data)?;
        if !values_json.trim().is_empty() {
            let values: BTreeMap<String, Vec<f32>> = serde_json::from_str(values_json)
                .map_err(|x| Error::argument(format!("effect values: {x}")))?;
            for (name, v) in values {
                e.set(&name, v)?;
            }
        }
        Ok(e)
    }

    fn parsed(&self) -> Result<d3dbc::fx::Effect<'_>, Error> {
        d3dbc::fx::Effect::parse(&self.bytes).map_err(|e| effect_error(&e))
    }

    /// The effect's bytes.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// fxc's `/Fc` listing of the effect (what `d3dbc dis X.fxo` prints).
    pub fn disassemble(&self) -> Result<String, Error> {
        Ok(self.parsed()?.listing())
    }

    /// The techniques: `[{"name", "annotations", "passes": [{"name", "annotations",
    /// "states": [state names]}]}]`.
    pub fn techniques_json(&self) -> Result<String, Error> {
        let e = self.parsed()?;
        let t: Vec<TechniqueJson> = e
            .techniques
            .iter()
            .map(|t| TechniqueJson {
                name: t.name.to_string(),
                annotations: annotations(&e, &t.annotations),
                passes: t
                    .passes
                    .iter()
                    .map(|p| PassJson {
                        name: p.name.to_string(),
                        annotations: annotations(&e, &p.annotations),
                        states: p.states.iter().map(|s| s.name().into_owned()).collect(),
                    })
                    .collect(),
            })
            .collect();
        serde_json::to_string(&t).map_err(|e| Error::new(ErrorKind::Effect, e.to_string()))
    }

    /// The parameters: `[{"name", "semantic", "type", "class", "rows", "columns",
    /// "elements", "annotations", "value"}]`, `value` being the numbers in D3DX order
    /// (the value set, else the default), a string's text, or `null` for objects.
    pub fn parameters_json(&self) -> Result<String, Error> {
        let e = self.parsed()?;
        let p: Vec<ParameterJson> = e
            .parameters
            .iter()
            .map(|p| {
                let numbers = self.values.get(&p.ty.name).map(<[f32]>::to_vec);
                ParameterJson {
                    name: p.ty.name.to_string(),
                    semantic: p.ty.semantic.to_string(),
                    ty: p.ty.ty.hlsl_name(),
                    class: snake(&format!("{:?}", p.ty.class)),
                    rows: p.ty.rows,
                    columns: p.ty.columns,
                    elements: p.ty.elements,
                    annotations: annotations(&e, &p.annotations),
                    value: value_json(&e, &p.ty, &p.value, numbers),
                }
            })
            .collect();
        serde_json::to_string(&p).map_err(|e| Error::new(ErrorKind::Effect, e.to_string()))
    }

    /// Sets parameter `name` (or `name[i]`, `name.member`, as D3DX resolves it) to
    /// `values`: all components, row-major, array elements one after another, as many
    /// as the parameter holds.
    pub fn set(&mut self, name: &str, values: Vec<f32>) -> Result<(), Error> {
        let e = self.parsed()?;
        let Some((ty, _)) = e.resolve(name) else {
            let names: Vec<String> = e.parameters.iter().map(|p| p.ty.name.to_string()).collect();
            return Err(Error::new(
                ErrorKind::Effect,
                format!(
                    "no parameter `{name}` in the effect (parameters: {})",
                    names.join(", ")
                ),
            ));
        };
        let want = (ty.bytes() / 4) as usize;
        if want == 0 {
            return Err(Error::argument(format!(
                "parameter `{name}` is a {} object, not numbers",
                ty.ty.hlsl_name()
            )));
        }
        if values.len() != want {
            return Err(Error::argument(format!(
                "parameter `{name}` ({} {}x{}{}) takes {want} numbers, got {}",
                ty.ty.hlsl_name(),
                ty.rows,
                ty.columns,
                if ty.elements > 0 {
                    format!("[{}]", ty.elements)
                } else {
                    String::new()
                },
                values.len()
            )));
        }
        self.values.set(name, values);
        Ok(())
    }

    /// The (vertex, pixel) shaders pass `pass` of technique `technique` binds, each
    /// carrying the constants the pass gives it (preshaders evaluated with the values
    /// set), which its [`Shader::run`] and [`Shader::render`] start from.
    pub fn pass_shaders(
        &self,
        technique: &Pick,
        pass: &Pick,
    ) -> Result<(Option<Shader>, Option<Shader>), Error> {
        let e = self.parsed()?;
        let names = |it: &mut dyn Iterator<Item = String>| it.collect::<Vec<_>>().join(", ");
        let t = match technique {
            Pick::Index(i) => Some(*i).filter(|i| *i < e.techniques.len()),
            Pick::Name(n) => e.techniques.iter().position(|t| t.name == *n),
        }
        .ok_or_else(|| {
            Error::new(
                ErrorKind::Effect,
                format!(
                    "no technique {technique:?} (techniques: {})",
                    names(&mut e.techniques.iter().map(|t| t.name.to_string()))
                ),
            )
        })?;
        let tech = &e.techniques[t];
        let p = match pass {
            Pick::Index(i) => Some(*i).filter(|i| *i < tech.passes.len()),
            Pick::Name(n) => tech.passes.iter().position(|p| p.name == *n),
        }
        .ok_or_else(|| {
            Error::new(
                ErrorKind::Effect,
                format!(
                    "no pass {pass:?} in technique {} ({} passes)",
                    tech.name,
                    tech.passes.len()
                ),
            )
        })?;
        let applied = e
            .apply_pass(t, p, &self.values)
            .map_err(|x| Error::new(ErrorKind::Effect, x.to_string()))?;
        if let Some(f) = &applied.failure {
            return Err(Error::new(
                ErrorKind::Effect,
                format!("BeginPass fails: {f}"),
            ));
        }
        let stage = |code: Option<&[u8]>, c: &d3dbc::fx::apply::Constants| {
            code.map(|b| {
                let mut s = Shader::from_tokens(d3dbc::fx::to_words(b))?;
                s.bound = Some(d3dbc_exec::effect::stage_inputs(c));
                Ok::<Shader, Error>(s)
            })
            .transpose()
        };
        Ok((
            stage(applied.vertex_shader, &applied.vs_constants)?,
            stage(applied.pixel_shader, &applied.ps_constants)?,
        ))
    }
}

fn snake(camel: &str) -> String {
    let mut s = String::with_capacity(camel.len() + 2);
    for (i, c) in camel.chars().enumerate() {
        if c.is_ascii_uppercase() && i > 0 {
            s.push('_');
        }
        s.push(c.to_ascii_lowercase());
    }
    s
}

/// A value as JSON: numbers by the type's base (floats, ints, bools), a string's text,
/// `null` for other objects.
fn value_json(
    e: &d3dbc::fx::Effect,
    ty: &d3dbc::fx::TypeDesc,
    v: &d3dbc::fx::Value,
    set: Option<Vec<f32>>,
) -> serde_json::Value {
    use d3dbc::fx::{ParameterType, Value};
    if ty.ty == ParameterType::String {
        return match v {
            Value::Object(id) => serde_json::json!(e.string(*id)),
            _ => serde_json::Value::Null,
        };
    }
    if ty.bytes() == 0 {
        return serde_json::Value::Null;
    }
    let numbers = set.unwrap_or_else(|| {
        let mut out = Vec::new();
        d3dbc::fx::apply::flatten(ty, v, &mut out);
        out
    });
    match ty.ty {
        ParameterType::Int => {
            serde_json::json!(numbers.iter().map(|x| *x as i64).collect::<Vec<_>>())
        }
        ParameterType::Bool => {
            serde_json::json!(numbers.iter().map(|x| *x != 0.0).collect::<Vec<_>>())
        }
        _ => serde_json::json!(numbers),
    }
}

fn annotations(e: &d3dbc::fx::Effect, list: &[d3dbc::fx::Annotation]) -> Vec<AnnotationJson> {
    list.iter()
        .map(|a| AnnotationJson {
            name: a.ty.name.to_string(),
            ty: a.ty.ty.hlsl_name(),
            value: value_json(e, &a.ty, &a.value, None),
        })
        .collect()
}

/// One shader or effect [`rip`] found.
#[derive(Clone, Debug, Serialize)]
pub struct Find {
    /// Byte offset in the input.
    pub offset: usize,
    /// Size in bytes.
    pub size: usize,
    /// `vso`, `pso` or `fxo`, as `d3dbc rip` names it.
    pub kind: &'static str,
    /// `vs_3_0`, `ps_2_x`, `fx_2_0`.
    pub version: String,
    /// CRC-32 (IEEE) of the bytes, what HelixMod and ReShade dumps are keyed by.
    pub crc32: u32,
}

/// Every shader and effect inside `data`, as `d3dbc rip` finds them.
pub fn rip(data: &[u8]) -> Vec<Find> {
    d3dbc::rip::scan(data)
        .into_iter()
        .map(|f| Find {
            offset: f.offset,
            size: f.size,
            kind: f.kind.extension(),
            version: f.version_name(),
            crc32: f.crc32,
        })
        .collect()
}

/// [`rip`] as a JSON array.
pub fn rip_json(data: &[u8]) -> String {
    serde_json::to_string(&rip(data)).unwrap_or_else(|_| "[]".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_name_their_class_and_place() {
        let e = Shader::from_bytes(b"ps_2_0\nmov oC0, t0\n").unwrap_err();
        assert_eq!(e.kind.class_name(), "DecodeError");
        assert!(e.message.contains("assemble"), "{}", e.message);
        let e = Shader::from_bytes(&[0x00, 0x02, 0xff, 0xff, 0x01, 0x00, 0x00, 0x02]).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Decode);
        assert!(e.offset.is_some(), "{e:?}");
        let (sh, _) = assemble(
            "ps_2_0\nmov oC0, r5\n",
            &AsmRequest {
                no_validate: true,
                ..Default::default()
            },
        )
        .unwrap();
        let e = sh.run(&RunRequest::default()).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Validation);
        assert_eq!(e.findings[0].code, "E0204");
        let e = sh
            .run(
                &RunRequest::from_json(r#"{"constants": {"c300": 1}, "validate": false}"#).unwrap(),
            )
            .unwrap_err();
        assert_eq!(e.kind, ErrorKind::Argument);
        assert!(e.message.contains("c0–c31"), "{}", e.message);
        let j = e.to_json();
        assert!(j.contains("\"kind\":\"ArgumentError\""), "{j}");
    }

    #[test]
    fn effect_parameters_and_pass_shaders() {
        let bytes = std::fs::read(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../examples/tint.fxo"
        ))
        .unwrap();
        let mut fx = Effect::from_bytes(bytes).unwrap();
        let p: serde_json::Value = serde_json::from_str(&fx.parameters_json().unwrap()).unwrap();
        assert_eq!(p[0]["name"], "tint");
        assert_eq!(p[0]["value"], serde_json::json!([1.0, 0.5, 0.25, 1.0]));
        assert!(fx.set("tint", vec![1.0]).is_err());
        fx.set("tint", vec![0.0, 1.0, 0.0, 1.0]).unwrap();
        let (vs, ps) = fx
            .pass_shaders(&Pick::Name("Tint".into()), &Pick::Index(0))
            .unwrap();
        assert!(vs.is_some());
        let out = ps.unwrap().run(&RunRequest::default()).unwrap();
        assert_eq!(out.outputs[0].0, "oC0");
        assert_eq!(out.outputs[0].1[0], 0.0, "{out:?}");
    }
}
