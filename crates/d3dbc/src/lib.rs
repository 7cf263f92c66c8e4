//! # d3dbc
//!
//! Direct3D 9 shader bytecode (shader models 1.0–3.0): the one opcode table, a zero-copy
//! decoder over `&[u32]`, an owned IR and its encoder, the `CTAB` constant table, a
//! printer that writes Microsoft's listing format, an assembler (preprocessor + parser)
//! that produces Microsoft's exact bytes, and a validator with the runtime's rules.
//!
//! Data flows one way: bytes → [`decode`] → [`ir`] → {[`print`](mod@print), [`validate`]};
//! text → [`asm`] → [`ir`] → [`encode`].
//!
//! ```
//! let tokens = [0xFFFE0101, 0x00000001, 0xC00F0000, 0x90E40000, 0x0000FFFF];
//! let shader = d3dbc::Shader::decode(&tokens).unwrap();
//! assert_eq!(shader.encode(), tokens);
//! assert!(d3dbc::print::to_string(&shader).contains("mov oPos, v0"));
//! ```
#![warn(missing_docs)]

pub mod asm;
pub mod ctab;
pub mod decode;
pub mod diag;
pub mod encode;
pub mod input;
pub mod ir;
pub mod mask;
pub mod opcode;
pub mod print;
pub mod regs;
pub mod semantics;
pub mod token;
pub mod validate;
pub mod version;

pub use ctab::{Ctab, CtabError};
pub use decode::{DecodeError, DecodeErrorKind, Decoder, Event};
pub use diag::Severity;
pub use diag::{Diagnostic, Diagnostics};
pub use input::InputError;
pub use ir::{DstParam, Instruction, Item, Register, RelAddr, Shader, SrcParam};
pub use mask::{Swizzle, WriteMask};
pub use opcode::{Opcode, SlotModel};
pub use print::PrintOptions;
pub use regs::RegFile;
pub use semantics::Semantics;
pub use token::RegisterType;
pub use validate::{Finding, Rule};
pub use version::{ShaderKind, Version};
