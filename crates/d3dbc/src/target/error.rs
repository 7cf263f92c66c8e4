//! Why a back end could not translate a shader: the one error shape both translators
//! (`d3dbc-naga`, `d3dbc-spirv`) report for what is wrong with the shader itself, each
//! at the DWORD offset of its instruction (the version token is at 0), written as every
//! message of this toolkit writes an offset ([`crate::report::hex_offset`], `+01b7`).

use crate::report::hex_offset;
use crate::{Opcode, RegisterType};

/// Why a shader could not be translated.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// Unbalanced or misplaced flow control, at the offset of an instruction (or of the
    /// end token, for a block left open).
    #[error("{}: {why}", hex_offset(*offset as usize))]
    Flow {
        /// Where.
        offset: u32,
        /// What is wrong.
        why: &'static str,
    },
    /// A register number past what any shader model has.
    #[error("{}: register {kind:?} {num} out of range", hex_offset(*offset as usize))]
    Register {
        /// Where.
        offset: u32,
        /// The register type.
        kind: RegisterType,
        /// Its number.
        num: u16,
    },
    /// A construct the back end does not translate (the validator rejects it too).
    #[error("{}: {opcode:?}: {why}", hex_offset(*offset as usize))]
    Unsupported {
        /// Where.
        offset: u32,
        /// The instruction.
        opcode: Opcode,
        /// Why.
        why: &'static str,
    },
    /// The token stream does not decode (the translators that start from tokens,
    /// decoding straight into their pre-pass: [`super::scan::Scan::refill_tokens`]).
    #[error("{0}")]
    Decode(crate::DecodeError),
    /// A vertex/pixel pair could not be linked ([`super::link`]).
    #[error("link: {0}")]
    Link(&'static str),
}
