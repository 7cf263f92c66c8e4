//! The body: every instruction as an HLSL statement over variables named after the
//! registers (`r0`, `i.texcoord0`, `o.color0`, the constant table's names), flow
//! control as `if`/`for`/`break`, subroutines as functions, and the D3D9 rules HLSL does
//! not spell written out (see the crate documentation).
//!
//! This file holds the `Emitter`'s state, its constructor and the small pieces every
//! pass uses; the rest is split by concern: `scan` (the first pass), `declare` (the
//! interface structs), `body` (instructions and flow control), `fold` (folded
//! temporaries), `source` and `dest` (operands), `compute` (arithmetic), `texture`
//! (shader model 2 and 3 sampling), `ps1` (the ps_1_x rules), `expr` (expression
//! helpers) and `helpers` (the HLSL helper functions above `main`).

mod body;
mod compute;
mod declare;
mod dest;
mod expr;
mod fold;
mod helpers;
mod ps1;
mod scan;
mod source;
mod texture;

use std::collections::{BTreeMap, BTreeSet};

use d3dbc::ir::Instruction;
use d3dbc::opcode::Reads;
use d3dbc::Analysis;
use d3dbc::{Shader, Version};

use crate::interface::{Field, Uniforms};
use crate::text::{mask_comps, Expr};
use crate::Error;

pub(crate) use helpers::helper_text;
use helpers::Helper;

/// One variable a register becomes.
pub(crate) struct Emitter {
    pub v: Version,
    pub a: Analysis,
    pub u: Uniforms,
    pub inputs: Vec<Field>,
    pub outputs: Vec<Field>,
    pub helpers: BTreeSet<Helper>,
    pub body: String,
    pub subs: String,
    indent: usize,
    /// Temporaries used, and those read before a certain write (zero-initialised).
    pub temps: BTreeSet<u16>,
    pub temps_init: BTreeSet<u16>,
    pub uses_a0: bool,
    pub uses_p0: bool,
    pub ps1: bool,
    /// ps_1_x texture registers kept as variables `t#`.
    pub ps1_t: BTreeSet<u16>,
    /// Loop counters open (innermost last): (`aL` variable or none).
    loops: Vec<Option<String>>,
    depth_counter: usize,
    in_sub: bool,
    /// Subroutines are functions over globals.
    pub globals: bool,
    /// A loop count is read at run time.
    pub dynamic_loops: bool,
    /// Write such loops with a constant bound of 255 and a `break`.
    pub bounded_loops: bool,
    /// ps_1_x `texm3x*`: the matrix rows (`m3`) and the eye vector (`e`).
    pub uses_m3: bool,
    pub uses_eye: bool,
    /// Instructions before this one were folded into an earlier statement.
    skip_to: usize,
    /// A register read through a copy (the second of a co-issued pair).
    alias: Option<(d3dbc::Register, String)>,
    /// Single-use temporaries folded into their reader: (reader, temporary) → writer.
    folds: BTreeMap<(usize, u16), usize>,
    /// Writers folded away (emitted inside their reader).
    folded: BTreeSet<usize>,
    /// [`Emitter::assign`] keeps the value instead of writing a statement.
    capturing: bool,
    captured: Option<Expr>,
}

impl Emitter {
    pub fn new(shader: &Shader) -> Result<Emitter, Error> {
        let a = Analysis::new(shader);
        if let Some((i, p)) = a.problem {
            let offset = a.offsets.get(i).copied().unwrap_or(0);
            return Err(Error::Structure {
                offset,
                why: p.why(),
            });
        }
        let v = shader.version;
        let ps1 = v.is_pixel() && v.major < 2;
        let globals = a.has_calls;
        Ok(Emitter {
            v,
            a,
            u: Uniforms::default(),
            inputs: Vec::new(),
            outputs: Vec::new(),
            helpers: BTreeSet::new(),
            body: String::new(),
            subs: String::new(),
            indent: 1,
            temps: BTreeSet::new(),
            temps_init: BTreeSet::new(),
            uses_a0: false,
            uses_p0: false,
            ps1,
            ps1_t: BTreeSet::new(),
            loops: Vec::new(),
            depth_counter: 0,
            in_sub: false,
            globals,
            dynamic_loops: false,
            bounded_loops: false,
            uses_m3: false,
            uses_eye: false,
            skip_to: 0,
            alias: None,
            folds: BTreeMap::new(),
            folded: BTreeSet::new(),
            capturing: false,
            captured: None,
        })
    }

    /// Components of source `k` the instruction reads, as destination positions: the
    /// swizzle letters at these positions are what is read.
    pub fn src_positions(&self, ins: &Instruction, k: usize) -> Vec<u8> {
        let v = self.v;
        match ins.opcode.reads(k, v) {
            Reads::PerComponent => {
                let m = if ins.opcode.layout(v).dst {
                    ins.dst.mask
                } else {
                    0xF
                };
                mask_comps(m)
            }
            Reads::Components(m) => mask_comps(m),
            Reads::Scalar => vec![ins.opcode.scalar_component() as u8],
            Reads::NotValue => Vec::new(),
        }
    }

    fn unsupported(&self, idx: usize, what: &str) -> Error {
        Error::Unsupported {
            offset: self.a.offsets.get(idx).copied().unwrap_or(0),
            what: what.to_string(),
        }
    }

    fn line(&mut self, s: &str) {
        let out = if self.in_sub {
            &mut self.subs
        } else {
            &mut self.body
        };
        for _ in 0..self.indent {
            out.push_str("    ");
        }
        out.push_str(s);
        out.push('\n');
    }
}
