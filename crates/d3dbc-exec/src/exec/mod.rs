//! The interpreter: a validated [`d3dbc::Shader`] is translated once into a compact
//! [`Program`] (register-file offsets, swizzles, jump targets resolved), which then runs
//! up to 16 lanes at a time (four 2×2 pixel quads, or vertices) in
//! structure-of-arrays registers (`[register][component][lane]`) with per-lane execution
//! masks. Arithmetic is computed one component row of all lanes at a time, straight
//! from the register file, so the lane loops vectorise. Helper lanes keep running so
//! derivatives and implicit LOD see all four lanes of their quad; nothing allocates per
//! instruction. Lanes never interact except within a quad (derivatives), so a group
//! gives every lane the result it would get alone in its quad.
//!
//! The program setup reads its whole-shader facts (declarations, `def*` constants, the
//! highest constant named, inputs read, colour and depth outputs, sampler types) from
//! the shared pre-pass [`d3dbc::Analysis`], its opcode classes from
//! [`d3dbc::Opcode::role`]/[`d3dbc::Opcode::block`] and its register-file sizes from [`d3dbc::regs`];
//! the semantics of each instruction stay this crate's own, independent of the
//! translators'.
//!
//! The interpreter's parts, one module each: `layout` (the register-file layout),
//! `program` (a shader translated once into a [`Program`]), `lanes` (the per-group
//! machine state and operand reads and writes), `run` (the dispatch loop and flow
//! control), `alu` (arithmetic over component rows), `eval` (the remaining
//! instructions) and `tex` (texture lookups and the ps_1_x texture addressing).

// Lane and component loops index several structure-of-arrays values at once.
#![allow(clippy::needless_range_loop)]

mod alu;
mod eval;
mod lanes;
mod layout;
mod program;
mod run;
#[cfg(test)]
mod tests;
mod tex;

pub use lanes::{Env, Lanes, Stage, TRACE_LIMIT};
pub(crate) use layout::{
    attr_reg, color_reg, input_reg, out_reg, tc_reg, temp_reg, tex_reg, DEPTH, FOG, POS, PTS,
    VFACE, VPOS,
};
pub use program::{ConstFile, Program, Semantic};
pub use run::run;

/// Four components × [`LANES`] lanes.
pub(crate) type Q = [[f32; LANES]; 4];

/// Lanes executed together: four 2×2 quads (lanes `4q..4q+4` are quad `q`, in the
/// order top-left, top-right, bottom-left, bottom-right).
pub(crate) const LANES: usize = 16;
/// Lanes of one 2×2 quad (derivatives are taken within each).
pub(crate) const QUAD: usize = 4;
/// A lane mask (bit `l` is lane `l`).
pub(crate) type Mask = u16;
/// Every lane.
pub(crate) const ALL: Mask = 0xFFFF;

/// Why execution stopped.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ExecError {
    /// The instruction budget ran out.
    #[error(
        "instruction budget of {budget} exceeded at {}",
        d3dbc::report::hex_offset(*offset as usize)
    )]
    Budget {
        /// The budget.
        budget: u64,
        /// Offset of the instruction that would exceed it.
        offset: u32,
    },
    /// Control flow nested deeper than the interpreter's stack.
    #[error(
        "control flow nested too deep at {}",
        d3dbc::report::hex_offset(*offset as usize)
    )]
    Nesting {
        /// Offset.
        offset: u32,
    },
    /// The shader is not something the interpreter can run.
    #[error("cannot execute: {0}")]
    Unsupported(String),
}
