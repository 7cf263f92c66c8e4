//! [`Shader`]: read from bytes or assembled ([`assemble`]), and everything asked of
//! it (listing, JSON, findings, translations, runs, pictures).

use d3dbc::report;
use d3dbc::Severity;
use d3dbc_exec::draw::Op;
use d3dbc_exec::render::{Options, Renderer};
use d3dbc_exec::Inputs;
use serde::Deserialize;

use crate::error::{decode_error, translate_error};
use crate::{AsmRequest, Error, ErrorKind, Finding, Picture, RenderRequest, RunOutput, RunRequest};

/// One shader: its tokens and IR, read once; and, for a shader a pass binds
/// ([`Effect::pass_shaders`]), the constants the pass gives it.
///
/// [`Effect::pass_shaders`]: crate::Effect::pass_shaders
#[derive(Clone, Debug)]
pub struct Shader {
    tokens: Vec<u32>,
    ir: d3dbc::Shader,
    pub(crate) bound: Option<Inputs>,
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
    ///
    /// [`Effect::pass_shaders`]: crate::Effect::pass_shaders
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
