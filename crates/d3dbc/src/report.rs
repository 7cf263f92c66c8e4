//! What `validate` reports about one input, as data: every shader found in it (bytecode,
//! C headers, hex text, effects, or assembly text assembled without validation), each with the
//! runtime validator's findings located by DWORD offset (`+01b7`) and, for text input,
//! by `file:line:col` with the source line and a caret. The `d3dbc` command and the web
//! page both print these reports, so they read the same everywhere.
//!
//! ```
//! let r = d3dbc::report::check(b"ps_2_0\nmov oC0, r5\n", "x.asm");
//! assert!(!r.valid());
//! let text = r.lines("x.asm", false).join("\n");
//! assert!(text.starts_with("x.asm:2:10: error[E0204]: `mov oC0, r5`:"), "{text}");
//! ```

use crate::decode::{DecodeError, Decoder};
use crate::diag::{escape, Diagnostic, Severity};
use crate::input::{self, InputError};
use crate::ir::{Item, Shader};
use crate::print;

/// `+01b7`: a DWORD offset as every message and listing spells it (hex, the version
/// token at `+0000`).
pub fn hex_offset(offset: usize) -> String {
    format!("+{offset:04x}")
}

/// One shader found in an input: its array name (C headers), DWORD offset in its
/// stream (non-zero for the later shaders of `dis --all`) and its tokens, already
/// decoded once without error.
#[derive(Clone, Copy, Debug)]
pub struct Located<'a> {
    /// The C array's name, for headers.
    pub name: Option<&'a str>,
    /// DWORD offset of the shader's version token in its stream.
    pub at: usize,
    /// The shader's tokens, version to end token.
    pub tokens: &'a [u32],
    /// The container it came in (a bgfx binary's header and uniforms), for the first
    /// shader of an input.
    pub container: Option<&'a input::Container>,
}

impl Located<'_> {
    /// The shader's IR.
    pub fn shader(&self) -> Shader {
        // Checked by `locate`; an empty shader cannot happen.
        Shader::decode(self.tokens).unwrap_or_else(|_| Shader::new(crate::Version::vertex(1, 1)))
    }
}

/// Finds every shader of an input with the zero-copy decoder (no IR is built). Data
/// after an end token is a warning (pushed to `warnings`) unless `all`, which decodes
/// it as the next shader.
pub fn locate<'a>(
    found: &'a [input::Found],
    all: bool,
    warnings: &mut Vec<String>,
) -> Result<Vec<Located<'a>>, String> {
    let many = found.len() > 1;
    let mut out = Vec::new();
    for f in found {
        let label = |msg: String| match (&f.name, many) {
            (Some(n), true) => format!("{n}: {msg}"),
            _ => msg,
        };
        let mut at = 0usize;
        loop {
            let rest = &f.tokens[at..];
            let adjust = |mut e: DecodeError| {
                e.offset += at;
                label(e.to_string())
            };
            let mut d = Decoder::new(rest).map_err(adjust)?;
            while d.next_event().map_err(adjust)?.is_some() {}
            let used = d.offset().min(rest.len());
            out.push(Located {
                name: f.name.as_deref(),
                at,
                tokens: &rest[..used],
                container: f.container.as_ref().filter(|_| at == 0),
            });
            at += used;
            let left = f.tokens.len() - at;
            if left == 0 {
                break;
            }
            if !all {
                warnings.push(label(format!(
                    "{} bytes ({left} DWORD{}) after the end token, from +{at:04x} \
                     (another shader? `d3dbc dis --all` prints every shader found)",
                    left * 4,
                    if left == 1 { "" } else { "s" }
                )));
                break;
            }
        }
    }
    Ok(out)
}

/// What `dis` prints for the shaders [`locate`] found in one input: each shader's
/// listing (a preshader's, from its `PRES` comment, first, as D3DX lists it), under a
/// `// NAME` / `// shader at +OFFSET` line when there are several.
pub fn listing(found: &[Located], options: &print::PrintOptions) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    let many = found.len() > 1;
    for f in found {
        if many {
            match &f.name {
                Some(n) if f.at == 0 => {
                    let _ = writeln!(out, "// {n}");
                }
                Some(n) => {
                    let _ = writeln!(out, "// {n}, shader at +{:04x}", f.at);
                }
                None => {
                    let _ = writeln!(out, "// shader at +{:04x}", f.at);
                }
            }
        }
        // What a container says beside the bytecode (a bgfx binary's uniforms) comes
        // first, as comments the assembler skips.
        if let Some(c) = f.container {
            out.push_str(&c.comment());
        }
        // The preshader first, then one streaming pass, no IR (`locate` already
        // decoded these tokens once).
        if crate::fx::preshader::print_shader(f.tokens, options, &mut out).is_err() {
            print::print(&f.shader(), options, &mut out);
        }
    }
    out
}

/// One finding, ready to report: where (DWORD offset, and line:col for text input),
/// the instruction as `dis` prints it, and the rule.
#[derive(Clone, Debug)]
pub struct Finding {
    /// The rule's stable code (`E0204`).
    pub code: &'static str,
    /// Error or warning.
    pub severity: Severity,
    /// DWORD offset of the instruction in its stream.
    pub offset: usize,
    /// `file:line:col` for text input.
    pub location: Option<String>,
    /// Text input: the source line with a caret under the operand at fault.
    pub source: Option<Diagnostic>,
    /// The instruction as `dis` prints it (empty for findings about the whole shader).
    pub instruction: String,
    /// What is wrong.
    pub message: String,
}

impl Finding {
    /// The finding as `d3dbc validate` prints it (the page shows the same text): for
    /// text input `file:line:col: severity[code]: `instruction`: message`, the source
    /// line and a caret; for bytecode `LABEL:+OFFSET: severity[code]: …`, `label` being
    /// [`ShaderReport::label`].
    pub fn text(&self, label: &str) -> String {
        let ins = if self.instruction.is_empty() {
            String::new()
        } else {
            format!("`{}`: ", self.instruction)
        };
        match &self.source {
            Some(d) => {
                let mut d = d.clone();
                d.message = format!("{ins}{}", self.message);
                d.to_string()
            }
            None => {
                let at = self
                    .location
                    .clone()
                    .unwrap_or_else(|| format!("{label}:{}", hex_offset(self.offset)));
                format!(
                    "{at}: {}[{}]: {ins}{}",
                    severity(self.severity),
                    self.code,
                    self.message
                )
            }
        }
    }
}

/// Where a finding lies in assembly text: `Assembled::error_at` of its item and operand.
pub type Locate<'a> = &'a dyn Fn(usize, Option<usize>) -> Option<Diagnostic>;

/// The validator's findings on `shader` (at DWORD `at` of its stream), located.
pub fn findings(shader: &Shader, at: usize, locate: Locate) -> Vec<Finding> {
    crate::validate::validate(shader)
        .into_iter()
        .map(|f| {
            let mut instruction = String::new();
            if let Some(Item::Instruction(ins)) = shader.items.get(f.item) {
                print::print_instruction(ins, shader.version, &mut instruction);
            }
            let source = locate(f.item, f.operand).map(|mut d| {
                d.severity = f.severity;
                d.code = Some(f.code);
                d
            });
            Finding {
                code: f.code,
                severity: f.severity,
                offset: f.offset + at,
                location: source
                    .as_ref()
                    .map(|d| format!("{}:{}:{}", d.file, d.line, d.col)),
                source,
                instruction,
                message: f.message,
            }
        })
        .collect()
}

/// One shader of a report: array name, stream offset, the shader and its findings.
#[derive(Clone, Debug)]
pub struct ShaderReport {
    /// The C array's name, for headers.
    pub name: Option<String>,
    /// DWORD offset of the shader in its stream.
    pub at: usize,
    /// The shader.
    pub shader: Shader,
    /// The validator's findings.
    pub findings: Vec<Finding>,
}

impl ShaderReport {
    /// How reports name this shader: the input's name, with the C array's for headers
    /// (`shaders.h (g_ps)`).
    pub fn label(&self, name: &str) -> String {
        match &self.name {
            Some(a) => format!("{name} ({a})"),
            None => name.to_string(),
        }
    }

    /// No error among the findings.
    pub fn valid(&self) -> bool {
        self.findings.iter().all(|f| f.severity != Severity::Error)
    }
}

/// A message about a whole input (unreadable, syntax error, trailing data).
#[derive(Clone, Debug)]
pub struct Message {
    /// Error or warning.
    pub severity: Severity,
    /// The text.
    pub text: String,
    /// The located diagnostic, for syntax errors in assembly text.
    pub diagnostic: Option<Diagnostic>,
}

/// What `validate` learned about one input.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// Every shader found.
    pub shaders: Vec<ShaderReport>,
    /// Messages about the whole input.
    pub messages: Vec<Message>,
    /// Unreadable (not a shader, syntax errors).
    pub failed: bool,
}

impl Report {
    /// A report that holds one error about the whole input.
    pub fn failure(text: impl Into<String>) -> Report {
        let mut r = Report::default();
        r.fail(text.into());
        r
    }

    fn fail(&mut self, text: String) {
        self.failed = true;
        self.messages.push(Message {
            severity: Severity::Error,
            text,
            diagnostic: None,
        });
    }

    /// Readable, and no shader has an error.
    pub fn valid(&self) -> bool {
        !self.failed && self.shaders.iter().all(ShaderReport::valid)
    }

    /// The report as `d3dbc validate` prints it, one entry per message or finding
    /// (an entry may span lines: the source line and its caret); with `verbose`, a
    /// `NAME: valid` line for each valid shader.
    pub fn lines(&self, name: &str, verbose: bool) -> Vec<String> {
        let mut out = Vec::new();
        for m in &self.messages {
            out.push(match &m.diagnostic {
                Some(d) => d.to_string(),
                None => escape_lines(&format!("{name}: {}: {}", severity(m.severity), m.text)),
            });
        }
        for s in &self.shaders {
            let label = s.label(name);
            for f in &s.findings {
                out.push(f.text(&label));
            }
            if verbose && s.valid() && !self.failed {
                out.push(format!("{label}: valid"));
            }
        }
        out
    }
}

/// `error` or `warning`, as reports spell severities.
pub fn severity(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
    }
}

/// Escapes each line of a message that may quote the input (names in hex text, file
/// names) so it cannot drive a terminal; line breaks are kept.
pub fn escape_lines(msg: &str) -> String {
    msg.split('\n').map(escape).collect::<Vec<_>>().join("\n")
}

/// Validates one input of any kind `validate` reads: bytecode, C headers and hex text
/// (every shader in them), or assembly text (assembled without validation, then
/// validated, findings reported at `name:line:col`).
pub fn check(bytes: &[u8], name: &str) -> Report {
    let mut r = Report::default();
    if crate::fx::Effect::is_effect(bytes) {
        // An effect: every shader embedded in it, named by its object id.
        match crate::fx::Effect::parse(bytes) {
            Ok(e) => {
                for (id, data) in e.objects.iter().enumerate() {
                    let tokens = crate::fx::to_words(data);
                    if tokens.first().is_none_or(|t| t >> 16 < 0xFFFE) {
                        continue;
                    }
                    match Shader::decode(&tokens) {
                        Ok(shader) => {
                            let findings = findings(&shader, 0, &|_, _| None);
                            r.shaders.push(ShaderReport {
                                name: Some(format!("object {id}")),
                                at: 0,
                                shader,
                                findings,
                            });
                        }
                        Err(err) => r.fail(format!("object {id}: {err}")),
                    }
                }
            }
            Err(err) => r.fail(err.to_string()),
        }
        return r;
    }
    match input::read_any(bytes) {
        Ok(found) => {
            let mut warnings = Vec::new();
            match locate(&found, false, &mut warnings) {
                Ok(located) => {
                    for l in located {
                        let shader = l.shader();
                        let findings = findings(&shader, l.at, &|_, _| None);
                        r.shaders.push(ShaderReport {
                            name: l.name.map(str::to_string),
                            at: l.at,
                            shader,
                            findings,
                        });
                    }
                }
                Err(e) => r.fail(e),
            }
            r.messages.extend(warnings.into_iter().map(|w| Message {
                severity: Severity::Warning,
                text: w,
                diagnostic: None,
            }));
        }
        Err(
            e @ (InputError::Empty
            | InputError::TooShort(_)
            | InputError::NotD3d9(_)
            | InputError::Bgfx(_)
            | InputError::FoundInside { .. }),
        ) => r.fail(e.to_string()),
        Err(_) if input::is_binary(bytes) => r.fail(
            "binary input: neither D3D9 shader bytecode (no 0xFFFEmmnn/0xFFFFmmnn version \
             token) nor text"
                .into(),
        ),
        Err(input_err) => {
            // Not bytecode: assembly text, reported at line:col.
            let text = input::decode_text(bytes);
            let opts = crate::asm::Options {
                file_name: name.to_string(),
                no_validate: true,
                ..Default::default()
            };
            match crate::asm::assemble_with_sources(&text, &opts) {
                Ok(a) => {
                    // The caret goes under the operand at fault, as `asm` puts it.
                    let locate = |item: usize, operand: Option<usize>| {
                        (item < a.sources.len()).then(|| a.error_at(item, operand, ""))
                    };
                    let findings = findings(&a.shader, 0, &locate);
                    r.shaders.push(ShaderReport {
                        name: None,
                        at: 0,
                        shader: a.shader.clone(),
                        findings,
                    });
                }
                Err(d) if d.0.is_empty() => r.fail(input_err.to_string()),
                Err(d) => {
                    r.failed = true;
                    for diag in d.0 {
                        r.messages.push(Message {
                            severity: Severity::Error,
                            text: diag.message.clone(),
                            diagnostic: Some(diag),
                        });
                    }
                }
            }
        }
    }
    r
}

/// One shader loaded for execution or translation (`d3dbc run`, `render`, `translate`,
/// the C API's `d3dbc_compile`): its IR, its tokens as read, and the warning to show
/// when it was let through against the validator.
#[derive(Clone, Debug)]
pub struct Loaded {
    /// The shader.
    pub shader: Shader,
    /// Its tokens (as read, for bytecode; encoded from the IR for assembly text).
    pub tokens: Vec<u32>,
    /// The validator's report and a note saying the shader goes ahead anyway
    /// (`no_validate` on a shader the runtime rejects).
    pub warning: Option<String>,
}

/// The one validity rule of the verbs that execute or translate, for one shader's
/// report: valid is `Ok(None)`; rejected by the runtime validator is an error carrying
/// the validator's report (`name` is how it calls the input), or with `no_validate` the
/// same report as a warning, `Ok(Some(warning))`.
pub fn validity(
    shader: &ShaderReport,
    name: &str,
    no_validate: bool,
) -> Result<Option<String>, String> {
    if shader.valid() {
        return Ok(None);
    }
    let only = Report {
        shaders: vec![shader.clone()],
        messages: Vec::new(),
        failed: false,
    };
    let report = only.lines(name, false).join("\n");
    if !no_validate {
        return Err(format!(
            "{report}\n{name}: error: the runtime validator rejects this shader; \
             refused (--no-validate goes ahead anyway)"
        ));
    }
    Ok(Some(format!(
        "{report}\n{name}: warning: the runtime validator rejects this shader; \
         going ahead because of --no-validate"
    )))
}

/// Reads the first shader of an input of any kind [`check`] reads and applies the one
/// validity rule of the verbs that execute or translate: a shader the runtime validator
/// rejects is refused with the validator's report (`name` is how it calls the input),
/// unless `no_validate`, which lets it through with [`Loaded::warning`]. `many` refuses
/// inputs holding several shaders, the message ending with the caller's reason.
pub fn load_first(
    bytes: &[u8],
    name: &str,
    no_validate: bool,
    many: Option<&str>,
) -> Result<Loaded, String> {
    let r = check(bytes, name);
    if r.failed || r.shaders.is_empty() {
        return Err(r.lines(name, false).join("\n"));
    }
    if let (Some(why), true) = (many, r.shaders.len() > 1) {
        return Err(format!("{} shaders in one input; {why}", r.shaders.len()));
    }
    let first = &r.shaders[0];
    let warning = validity(first, name, no_validate)?;
    let tokens = match input::read_any(bytes) {
        Ok(found) if !found.is_empty() => found[0].tokens.clone(),
        _ => first.shader.encode(),
    };
    Ok(Loaded {
        shader: first.shader.clone(),
        tokens,
        warning,
    })
}
