//! The register-file layout: where each register file of every version lives in the
//! per-lane register array ([`super::Lanes::regs`]), each file as large as the most
//! registers any version has ([`d3dbc::regs`]).

use d3dbc::regs;

// Register-file layout (indices into the per-lane register array), each file as large
// as the most registers any version has (`d3dbc::regs`).
pub(super) const R_TEMP: u16 = 0; // r#
pub(super) const R_INPUT: u16 = R_TEMP + regs::MAX_TEMPS as u16; // v#
pub(super) const R_TEX: u16 = R_INPUT + regs::MAX_INPUTS as u16; // t# (ps), a0 lives elsewhere
pub(super) const R_OUT: u16 = R_TEX + regs::MAX_TEXTURES as u16; // o# / oT#
pub(super) const R_POS: u16 = R_OUT + regs::MAX_OUTPUTS as u16; // oPos
pub(super) const R_FOG: u16 = R_POS + 1; // oFog
pub(super) const R_PTS: u16 = R_FOG + 1; // oPts
pub(super) const R_ATTR: u16 = R_PTS + 1; // oD#
pub(super) const R_COLOR: u16 = R_ATTR + regs::MAX_ATTR_OUTPUTS as u16; // oC#
pub(super) const R_DEPTH: u16 = R_COLOR + regs::MAX_COLOR_OUTPUTS as u16; // oDepth
pub(super) const R_VPOS: u16 = R_DEPTH + 1; // vPos
pub(super) const R_VFACE: u16 = R_VPOS + 1; // vFace
const R_TC: u16 = R_VFACE + 1; // ps_1_x texture coordinates as interpolated (t# at entry)
/// Registers per lane group.
pub const NREGS: usize = R_TC as usize + regs::MAX_TEXTURES;

/// Input register `v#` index in the register file.
pub const fn input_reg(n: u16) -> usize {
    (R_INPUT + n) as usize
}
/// Texture-coordinate register `t#`.
pub const fn tex_reg(n: u16) -> usize {
    (R_TEX + n) as usize
}
/// Interpolated ps_1_x texture coordinate `n` (what `t#` held at entry).
pub const fn tc_reg(n: u16) -> usize {
    (R_TC + n) as usize
}
/// `o#` / `oT#`.
pub const fn out_reg(n: u16) -> usize {
    (R_OUT + n) as usize
}
/// `oPos`.
pub const POS: usize = R_POS as usize;
/// `oFog`.
pub const FOG: usize = R_FOG as usize;
/// `oPts`.
pub const PTS: usize = R_PTS as usize;
/// `oD#`.
pub const fn attr_reg(n: u16) -> usize {
    (R_ATTR + n) as usize
}
/// `oC#`.
pub const fn color_reg(n: u16) -> usize {
    (R_COLOR + n) as usize
}
/// `oDepth`.
pub const DEPTH: usize = R_DEPTH as usize;
/// `vPos`.
pub const VPOS: usize = R_VPOS as usize;
/// `vFace`.
pub const VFACE: usize = R_VFACE as usize;
/// `r#`.
pub const fn temp_reg(n: u16) -> usize {
    (R_TEMP + n) as usize
}
