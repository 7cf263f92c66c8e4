//! The emitter's view of the shared pre-pass ([`d3dbc::analysis`]), as `d3dbc-naga`
//! takes it: the analysis itself (registers read and written as fixed bit tables,
//! declarations, `def*` constants, flow control, the split into the main program and
//! `label` subroutines), with its problems turned into this crate's errors and the
//! input and output declarations in the form the emitter binds them (once per shader,
//! not per instruction).

use d3dbc::analysis::{Analysis, Problem};
use d3dbc::token::RegisterType;

use crate::Error;

/// Register numbers a slot table holds per register type.
pub(crate) const MAX_REG: u16 = d3dbc::analysis::REG_SET_LIMIT;
/// Register types.
pub(crate) const NKIND: usize = d3dbc::analysis::REGISTER_TYPES;

/// One `dcl` of an input or output register with a usage.
pub(crate) type Decl = d3dbc::analysis::Varying;

/// The pre-pass's facts and the declarations derived from them.
pub(crate) struct Scan {
    /// The shared pre-pass.
    pub a: Analysis,
    /// Input (`v#`, `t#`) declarations with usages (register type, decl).
    pub inputs: Vec<(RegisterType, Decl)>,
    /// vs_3_0 output declarations.
    pub outputs: Vec<Decl>,
}

impl std::ops::Deref for Scan {
    type Target = Analysis;
    fn deref(&self) -> &Analysis {
        &self.a
    }
}

impl std::ops::DerefMut for Scan {
    fn deref_mut(&mut self) -> &mut Analysis {
        &mut self.a
    }
}

/// Checks the analysis (a problem is an error at its instruction's DWORD offset, or the
/// end token's) and derives the declarations.
pub(crate) fn scan(a: Analysis) -> Result<Scan, Error> {
    if let Some((i, p)) = a.problem {
        let offset = a.offsets[i];
        return Err(match p {
            Problem::Register(kind, num) => Error::Register { offset, kind, num },
            Problem::UnbalancedEnd | Problem::LabelInBlock | Problem::Unclosed => Error::Flow {
                offset,
                why: p.why(),
            },
        });
    }
    let inputs = a.inputs().collect();
    let outputs = a.outputs().collect();
    Ok(Scan { a, inputs, outputs })
}
