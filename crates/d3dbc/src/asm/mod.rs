//! The assembler: Microsoft's assembly text → IR → the exact bytes Microsoft's assembler
//! (D3DXAssembleShader / D3DAssemble / vsa / psa) produces. The preprocessor runs first.

pub mod preprocess;

use crate::diag::Diagnostics;
use crate::ir::Shader;

/// Assembler settings.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// File name used in diagnostics.
    pub file_name: String,
    /// `-D NAME[=VALUE]` predefined macros.
    pub defines: Vec<(String, Option<String>)>,
    /// `-I DIR` include directories, searched after the including file's directory.
    pub include_dirs: Vec<std::path::PathBuf>,
    /// Skip the validator (`asm --no-validate`).
    pub no_validate: bool,
}

/// Assembles text into a shader.
pub fn assemble(text: &str, options: &Options) -> Result<Shader, Diagnostics> {
    let _ = (text, options);
    Err(Diagnostics::default())
}
