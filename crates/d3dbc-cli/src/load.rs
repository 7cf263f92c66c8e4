//! Loading one shader for the verbs that execute or translate it (`run`, `render`,
//! `translate`), with their one validity rule: a shader the runtime validator rejects
//! is refused with the validator's report, as `validate` prints it; `--no-validate`
//! goes ahead and says so on standard error.

use std::path::Path;

use d3dbc::report;
use d3dbc::Shader;

use crate::batch;

/// `--no-validate`, shared by the verbs that execute or translate.
#[derive(clap::Args, Debug, Clone, Copy, Default)]
pub struct ValidityArgs {
    /// Go ahead with a shader the runtime validator rejects (refused by default, with
    /// the validator's report); a warning on standard error says so. `asm` has the same
    /// flag.
    #[arg(long)]
    pub no_validate: bool,
}

/// One loaded shader: its IR and its tokens (as read, for bytecode).
pub struct Loaded {
    /// The shader.
    pub shader: Shader,
    /// Its tokens.
    pub tokens: Vec<u32>,
}

/// Reads the first shader of `path` (bytecode in any container, or assembly text
/// assembled without validation so the report can name `line:col`), and applies the
/// validity rule. `many` refuses inputs holding several shaders (the message names the
/// verb's reason).
pub fn load(path: &Path, validity: ValidityArgs, many: Option<&str>) -> Result<Loaded, String> {
    let bytes = batch::read_input(path)?;
    load_bytes(&bytes, &batch::display_name(path), validity, many)
}

/// [`load`] of an input already read (`name` is how messages call it).
pub fn load_bytes(
    bytes: &[u8],
    name: &str,
    validity: ValidityArgs,
    many: Option<&str>,
) -> Result<Loaded, String> {
    let l = report::load_first(bytes, name, validity.no_validate, many)?;
    warn(l.warning);
    Ok(Loaded {
        shader: l.shader,
        tokens: l.tokens,
    })
}

/// The validity rule for a shader already decoded (an effect's): refused with the
/// validator's report when the runtime rejects it, unless `--no-validate`
/// ([`report::validity`], as [`load_bytes`] applies it).
pub fn check_validity(shader: &Shader, name: &str, validity: ValidityArgs) -> Result<(), String> {
    let r = report::ShaderReport {
        name: None,
        at: 0,
        shader: shader.clone(),
        findings: report::findings(shader, 0, &|_, _| None),
    };
    warn(report::validity(&r, name, validity.no_validate)?);
    Ok(())
}

/// A `--no-validate` warning on standard error.
fn warn(warning: Option<String>) {
    if let Some(w) = warning {
        eprintln!("{}", batch::paint(&batch::escape_lines(&w), true));
    }
}
