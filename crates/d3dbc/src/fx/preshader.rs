//! Preshaders: the FXLC programs D3DX runs on the CPU — inside a shader's `PRES` comment
//! (computing constants the shader reads) and as an effect's state expressions and array
//! selectors. This module reads them (`CTAB` inputs, `CLIT` double literals, `FXLC`
//! code), evaluates them as D3DX on Windows does, and lists them as fxc does.
//!
//! A preshader is a token stream of its own: a version token `0x4658xxxx` (`FX`), then
//! comments — `CTAB` (the effect parameters it reads), `CLIT` (a count, then that many
//! `f64` literals), `FXLC` (an instruction count, then instructions), `PRSI` — and an end
//! token. An instruction is `opcode << 20 | component count`, bit 31 set when the first
//! input is a scalar broadcast to every component; then the input count, then each
//! operand (inputs, then the output) as `relative flag` (0, or 1 followed by the index
//! register's table and component offset), `table`, `component offset`. Tables:
//! 1 literals, 2 inputs (`c`), 3 `v`, 4 float outputs (`c`), 5 bool outputs (`b`),
//! 6 int outputs (`i`), 7 temporaries (`r`).
//!
//! Arithmetic is done in `f64`; temporaries keep `f64`, outputs are stored as `f32`. Windows' results for special values (Wine's `test_effect_preshader_ops` gives
//! them as bit patterns): a NaN an operation creates is the negative quiet NaN
//! (`0xFFC00000`), a NaN operand propagates; `log` of 0 is 0 and of a negative value that
//! of its magnitude; `rsq` of 0 is +inf; `asin`/`acos` outside [-1, 1] give the negative
//! NaN; `div` always gives 0 (D3DX does not implement it); `atan2(-0, x)` for `x > 0`
//! is +0.

use std::fmt::Write as _;

use crate::ctab::{CtabView, ParameterClass, RegisterSet};

/// `PRES` FourCC (the comment holding a shader's preshader).
pub const FOURCC_PRES: u32 = u32::from_le_bytes(*b"PRES");
/// `CLIT` FourCC (literals).
pub const FOURCC_CLIT: u32 = u32::from_le_bytes(*b"CLIT");
/// `FXLC` FourCC (code).
pub const FOURCC_FXLC: u32 = u32::from_le_bytes(*b"FXLC");
/// `PRSI` FourCC (input map).
pub const FOURCC_PRSI: u32 = u32::from_le_bytes(*b"PRSI");

/// A malformed preshader: what and the DWORD offset in its token stream.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("preshader DWORD {offset}: {what}")]
pub struct PresError {
    /// DWORD offset in the preshader's tokens.
    pub offset: usize,
    /// What is wrong.
    pub what: String,
}

/// A register table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum Table {
    /// `CLIT` literals (f64).
    Literal,
    /// Inputs: effect parameters staged by the `CTAB` (`c`).
    Input,
    /// The `v` table.
    V,
    /// Float outputs (`c`).
    Output,
    /// Bool outputs (`b`).
    OutputBool,
    /// Int outputs (`i`).
    OutputInt,
    /// Temporaries (`r`).
    Temp,
}

impl Table {
    fn from_u32(v: u32) -> Option<Table> {
        Some(match v {
            1 => Table::Literal,
            2 => Table::Input,
            3 => Table::V,
            4 => Table::Output,
            5 => Table::OutputBool,
            6 => Table::OutputInt,
            7 => Table::Temp,
            _ => return None,
        })
    }

    fn index(self) -> usize {
        self as usize
    }

    /// The register prefix of listings.
    pub fn prefix(self) -> &'static str {
        match self {
            Table::Literal => "imm",
            Table::Input | Table::Output => "c",
            Table::V => "v",
            Table::OutputBool => "b",
            Table::OutputInt => "i",
            Table::Temp => "r",
        }
    }
}

/// An operand: a component offset into a table, maybe indexed by another register.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Operand {
    /// Table.
    pub table: Table,
    /// Component offset (`c3.y` is 13).
    pub offset: u32,
    /// Relative addressing: the index register's table and component offset.
    pub index: Option<(Table, u32)>,
}

/// An FXLC opcode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct OpInfo {
    /// The 11-bit opcode.
    pub code: u32,
    /// Mnemonic as fxc lists it.
    pub name: &'static str,
    /// Inputs.
    pub inputs: u32,
}

/// Every FXLC operation (fx_2_0's, plus `floor`, `ceil` and `movc` of fx_4 expressions).
pub static OPS: &[OpInfo] = &[
    OpInfo {
        code: 0x000,
        name: "nop",
        inputs: 0,
    },
    OpInfo {
        code: 0x100,
        name: "mov",
        inputs: 1,
    },
    OpInfo {
        code: 0x101,
        name: "neg",
        inputs: 1,
    },
    OpInfo {
        code: 0x103,
        name: "rcp",
        inputs: 1,
    },
    OpInfo {
        code: 0x104,
        name: "frc",
        inputs: 1,
    },
    OpInfo {
        code: 0x105,
        name: "exp",
        inputs: 1,
    },
    OpInfo {
        code: 0x106,
        name: "log",
        inputs: 1,
    },
    OpInfo {
        code: 0x107,
        name: "rsq",
        inputs: 1,
    },
    OpInfo {
        code: 0x108,
        name: "sin",
        inputs: 1,
    },
    OpInfo {
        code: 0x109,
        name: "cos",
        inputs: 1,
    },
    OpInfo {
        code: 0x10a,
        name: "asin",
        inputs: 1,
    },
    OpInfo {
        code: 0x10b,
        name: "acos",
        inputs: 1,
    },
    OpInfo {
        code: 0x10c,
        name: "atan",
        inputs: 1,
    },
    OpInfo {
        code: 0x139,
        name: "floor",
        inputs: 1,
    },
    OpInfo {
        code: 0x13a,
        name: "ceil",
        inputs: 1,
    },
    OpInfo {
        code: 0x200,
        name: "min",
        inputs: 2,
    },
    OpInfo {
        code: 0x201,
        name: "max",
        inputs: 2,
    },
    OpInfo {
        code: 0x202,
        name: "lt",
        inputs: 2,
    },
    OpInfo {
        code: 0x203,
        name: "ge",
        inputs: 2,
    },
    OpInfo {
        code: 0x204,
        name: "add",
        inputs: 2,
    },
    OpInfo {
        code: 0x205,
        name: "mul",
        inputs: 2,
    },
    OpInfo {
        code: 0x206,
        name: "atan2",
        inputs: 2,
    },
    OpInfo {
        code: 0x208,
        name: "div",
        inputs: 2,
    },
    OpInfo {
        code: 0x300,
        name: "cmp",
        inputs: 3,
    },
    OpInfo {
        code: 0x301,
        name: "movc",
        inputs: 3,
    },
    OpInfo {
        code: 0x500,
        name: "dot",
        inputs: 2,
    },
    OpInfo {
        code: 0x70e,
        name: "d3ds_dotswiz",
        inputs: 6,
    },
    OpInfo {
        code: 0x70e,
        name: "d3ds_dotswiz",
        inputs: 8,
    },
];

/// One instruction.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Instruction {
    /// The operation.
    pub op: &'static OpInfo,
    /// Components (1–4).
    pub components: u32,
    /// The first input is a scalar broadcast to every component.
    pub scalar: bool,
    /// Inputs.
    pub inputs: Vec<Operand>,
    /// Output.
    pub output: Operand,
}

/// A parsed preshader.
#[derive(Clone, Debug)]
pub struct Preshader {
    /// The version token (`0x4658_0200` for fx_2_0's).
    pub version: u32,
    /// The `CTAB` payload (FourCC first), when present.
    pub ctab: Option<Vec<u32>>,
    /// `CLIT` literals.
    pub literals: Vec<f64>,
    /// `FXLC` code.
    pub instructions: Vec<Instruction>,
    /// Table sizes in components (literal, input, v, output, bool, int, temp).
    pub sizes: [u32; 7],
}

/// The most components any table may have (8192 registers: vs_3_sw's float file twice).
const MAX_COMPONENTS: u32 = 1 << 16;

/// Comments of a token stream starting after the version token: `(offset, payload)`
/// where the payload starts with its FourCC.
fn comments(tokens: &[u32]) -> impl Iterator<Item = (usize, &[u32])> {
    let mut at = 1;
    std::iter::from_fn(move || {
        let t = *tokens.get(at)?;
        if t & 0xFFFF != 0xFFFE {
            return None;
        }
        let len = ((t >> 16) & 0x7FFF) as usize;
        let payload = tokens.get(at + 1..at + 1 + len)?;
        let here = at;
        at += 1 + len;
        Some((here, payload))
    })
}

/// The comment payloads (FourCC first) of a token stream, after its version token.
pub fn comments_of(tokens: &[u32]) -> impl Iterator<Item = &[u32]> {
    comments(tokens).map(|(_, c)| c)
}

/// The `PRES` block of a shader's tokens (the preshader's own token stream), if any.
pub fn find_pres(shader: &[u32]) -> Option<&[u32]> {
    comments(shader)
        .find(|(_, c)| c.first() == Some(&FOURCC_PRES))
        .map(|(_, c)| &c[1..])
}

/// A shader's whole listing as D3DX prints it (what `d3dbc dis` prints): its
/// preshader (`PRES` comment) first when it has one, then the shader
/// ([`crate::print::print_tokens`], or from the IR when the streaming printer cannot).
pub fn print_shader(
    tokens: &[u32],
    options: &crate::PrintOptions,
    out: &mut String,
) -> Result<(), crate::DecodeError> {
    if let Some(pres) = find_pres(tokens) {
        match Preshader::parse(pres) {
            Ok(p) => p.write_listing(out),
            Err(e) => {
                let _ = writeln!(out, "// preshader: {e}");
            }
        }
    }
    if crate::print::print_tokens(tokens, options, out).is_err() {
        crate::print::print(&crate::Shader::decode(tokens)?, options, out);
    }
    Ok(())
}

impl Preshader {
    /// Parses a preshader token stream (a `PRES` payload after its FourCC, or an
    /// effect's expression data).
    pub fn parse(tokens: &[u32]) -> Result<Preshader, PresError> {
        let err = |offset: usize, what: &str| PresError {
            offset,
            what: what.to_string(),
        };
        let version = *tokens.first().ok_or_else(|| err(0, "empty preshader"))?;
        if version & 0xFFFF_0000 != 0x4658_0000 {
            return Err(err(
                0,
                &format!("not a preshader (version token {version:#010x})"),
            ));
        }
        let mut ctab = None;
        let mut literals = Vec::new();
        let mut code: Option<(usize, &[u32])> = None;
        for (at, c) in comments(tokens) {
            match c.first().copied() {
                Some(crate::ctab::CTAB_FOURCC) if ctab.is_none() => ctab = Some(c.to_vec()),
                Some(FOURCC_CLIT) => {
                    let n = *c.get(1).unwrap_or(&0) as usize;
                    if n > (c.len().saturating_sub(2)) / 2 {
                        return Err(err(at, "CLIT literal count exceeds its comment"));
                    }
                    literals = (0..n)
                        .map(|i| {
                            let lo = c[2 + 2 * i] as u64;
                            let hi = c[3 + 2 * i] as u64;
                            f64::from_bits(hi << 32 | lo)
                        })
                        .collect();
                }
                Some(FOURCC_FXLC) => code = Some((at + 2, &c[1..])),
                _ => {}
            }
        }
        let mut sizes = [0u32; 7];
        sizes[Table::Literal.index()] = (literals.len() as u32).div_ceil(4) * 4;
        if let Some(c) = &ctab {
            if let Ok(view) = CtabView::parse(c) {
                for k in view.constants() {
                    if let Some(t) = input_table(k.register_set) {
                        let end = (u32::from(k.register_index) + u32::from(k.register_count)) * 4;
                        sizes[t.index()] = sizes[t.index()].max(end);
                    }
                }
            }
        }
        let mut instructions = Vec::new();
        if let Some((base, code)) = code {
            let n = *code
                .first()
                .ok_or_else(|| err(base, "FXLC without a count"))? as usize;
            // Each instruction takes at least 5 DWORDs (opcode, count, output operand).
            if n > code.len() / 5 {
                return Err(err(base, "FXLC instruction count exceeds its comment"));
            }
            let mut at = 1;
            for _ in 0..n {
                let here = base + at;
                let raw = *code
                    .get(at)
                    .ok_or_else(|| err(here, "truncated instruction"))?;
                let ninputs = *code
                    .get(at + 1)
                    .ok_or_else(|| err(here, "truncated instruction"))?;
                at += 2;
                let opcode = (raw & 0x7FF0_0000) >> 20;
                let components = raw & 0xFFFF;
                if !(1..=4).contains(&components) {
                    return Err(err(here, &format!("{components} components (1 to 4)")));
                }
                let op = OPS
                    .iter()
                    .find(|o| o.code == opcode && o.inputs == ninputs)
                    .ok_or_else(|| {
                        err(
                            here,
                            &format!("unknown opcode {opcode:#x} with {ninputs} inputs"),
                        )
                    })?;
                let mut inputs = Vec::with_capacity(op.inputs as usize);
                for _ in 0..op.inputs {
                    inputs.push(operand(code, &mut at, base)?);
                }
                let output = operand(code, &mut at, base)?;
                if output.index.is_some() {
                    return Err(err(here, "relative addressing in the output"));
                }
                if matches!(output.table, Table::Literal | Table::Input | Table::V) {
                    return Err(err(here, "output to an input table"));
                }
                let scalar = raw & 0x8000_0000 != 0;
                let ins = Instruction {
                    op,
                    components,
                    scalar,
                    inputs,
                    output,
                };
                // Direct reads must lie inside their tables; outputs size theirs.
                for (k, i) in ins.inputs.iter().enumerate() {
                    let last = match i.index {
                        Some((t, o)) => {
                            check(t, o, &sizes, here)?;
                            continue;
                        }
                        None => i.offset.saturating_add(if ins.scalar && k == 0 {
                            0
                        } else {
                            components - 1
                        }),
                    };
                    check(i.table, last, &sizes, here)?;
                }
                let end = output.offset.saturating_add(components);
                if end > MAX_COMPONENTS {
                    return Err(err(here, "output register out of range"));
                }
                let t = output.table.index();
                sizes[t] = sizes[t].max(end.div_ceil(4) * 4);
                instructions.push(ins);
            }
        }
        Ok(Preshader {
            version,
            ctab,
            literals,
            instructions,
            sizes,
        })
    }

    /// The preshader's constant table.
    pub fn ctab_view(&self) -> Option<CtabView<'_>> {
        self.ctab.as_deref().and_then(|c| CtabView::parse(c).ok())
    }

    /// A fresh register file for [`run`](Self::run).
    pub fn registers(&self) -> Registers {
        let mut r = Registers {
            tables: std::array::from_fn(|i| vec![0.0; self.sizes[i] as usize]),
        };
        r.tables[Table::Literal.index()][..self.literals.len()].copy_from_slice(&self.literals);
        r
    }

    /// Makes `regs` (a register file of [`registers`](Self::registers) of this
    /// preshader) fresh again — zeros, the literals in place — so that a program run
    /// often (an effect's `CommitChanges`) reuses one register file.
    pub fn reset(&self, regs: &mut Registers) {
        for (t, &n) in regs.tables.iter_mut().zip(&self.sizes) {
            t.clear();
            t.resize(n as usize, 0.0);
        }
        regs.tables[Table::Literal.index()][..self.literals.len()].copy_from_slice(&self.literals);
    }

    /// Stages an effect parameter (`ty`, with its values flattened by
    /// [`flatten`](super::apply::flatten)) into the input table where the `CTAB` places
    /// the constant of the same name.
    pub fn set_input(
        &self,
        regs: &mut Registers,
        name: &str,
        ty: &super::TypeDesc,
        values: &[f32],
    ) {
        let Some(view) = self.ctab_view() else { return };
        for k in view.constants() {
            if k.name != name {
                continue;
            }
            if input_table(k.register_set).is_none() {
                continue;
            }
            let table = &mut regs.tables[Table::Input.index()];
            stage_constant(table, 4, &k, ty, values);
        }
    }

    /// Runs the program on `regs`.
    pub fn run(&self, regs: &mut Registers) {
        let mut args = [0f64; 8];
        for ins in &self.instructions {
            let n = ins.components as usize;
            if ins.op.code == 0x500 {
                // dot: one result from all components, written to the first.
                let mut sum = 0.0f64;
                let mut nan = None;
                for j in 0..n {
                    let a = regs.read(&ins.inputs[0], if ins.scalar { 0 } else { j as u32 });
                    let b = regs.read(&ins.inputs[1], j as u32);
                    sum += a * b;
                    nan = nan.or(first_nan(&[a, b]));
                }
                regs.write(ins.output, 0, fix_nan(sum, nan));
                continue;
            }
            // The first input of a scalar operation is its component 0 throughout.
            let first = |j: u32| if ins.scalar { 0 } else { j };
            let code = ins.op.code;
            let n = n as u32;
            match ins.inputs.as_slice() {
                [a] => {
                    for j in 0..n {
                        let v = eval1(code, regs.read(a, first(j)));
                        regs.write(ins.output, j, v);
                    }
                }
                [a, b] => {
                    for j in 0..n {
                        let v = eval2(code, regs.read(a, first(j)), regs.read(b, j));
                        regs.write(ins.output, j, v);
                    }
                }
                [a, b, c] => {
                    for j in 0..n {
                        let (x, y, z) = (regs.read(a, first(j)), regs.read(b, j), regs.read(c, j));
                        regs.write(ins.output, j, eval3(code, x, y, z));
                    }
                }
                inputs => {
                    for j in 0..n {
                        for (k, i) in inputs.iter().enumerate() {
                            args[k] = regs.read(i, if k == 0 { first(j) } else { j });
                        }
                        let v = evaln(code, &args[..inputs.len()]);
                        regs.write(ins.output, j, v);
                    }
                }
            }
        }
    }
}

fn input_table(set: RegisterSet) -> Option<Table> {
    match set {
        RegisterSet::Float4 => Some(Table::Input),
        _ => None,
    }
}

fn check(t: Table, last: u32, sizes: &[u32; 7], at: usize) -> Result<(), PresError> {
    // Temporaries and outputs are sized by the instructions that write them.
    if matches!(t, Table::Literal | Table::Input) && last >= sizes[t.index()] {
        return Err(PresError {
            offset: at,
            what: format!("{}{} is outside its table", t.prefix(), last / 4),
        });
    }
    if last >= MAX_COMPONENTS {
        return Err(PresError {
            offset: at,
            what: "register out of range".into(),
        });
    }
    Ok(())
}

fn operand(code: &[u32], at: &mut usize, base: usize) -> Result<Operand, PresError> {
    let err = |o: usize, w: &str| PresError {
        offset: base + o,
        what: w.to_string(),
    };
    let next = |at: &mut usize| -> Result<u32, PresError> {
        let v = *code.get(*at).ok_or_else(|| err(*at, "truncated operand"))?;
        *at += 1;
        Ok(v)
    };
    let rel = next(at)?;
    let index = match rel {
        0 => None,
        1 => {
            let t = next(at)?;
            let o = next(at)?;
            let t = Table::from_u32(t).ok_or_else(|| err(*at - 2, "unknown register table"))?;
            Some((t, o))
        }
        _ => return Err(err(*at - 1, "unknown relative-addressing flag")),
    };
    let t = next(at)?;
    let offset = next(at)?;
    let table = Table::from_u32(t).ok_or_else(|| err(*at - 2, "unknown register table"))?;
    Ok(Operand {
        table,
        offset,
        index,
    })
}

/// Places a parameter's values into the registers constant `k` occupies: `table` holds
/// `per_reg` components per register (4, or 1 for bool registers); `ty` is the effect
/// parameter's type and `values` its data flattened in D3DX order (elements, members,
/// row-major matrices). Column-major constants take a register per column; struct
/// members follow one another; registers past the constant's count are not written.
pub fn stage_constant(
    table: &mut [f64],
    per_reg: u32,
    k: &crate::ctab::ConstantView,
    ty: &super::TypeDesc,
    values: &[f32],
) {
    let mut reg = u32::from(k.register_index);
    let end = reg + u32::from(k.register_count);
    let mut vi = 0;
    stage_tree(table, per_reg, &mut reg, end, &k.ty, ty, values, &mut vi, 0);
}

#[allow(clippy::too_many_arguments)]
fn stage_tree(
    table: &mut [f64],
    per_reg: u32,
    reg: &mut u32,
    end: u32,
    ct: &crate::ctab::TypeView,
    pt: &super::TypeDesc,
    values: &[f32],
    vi: &mut usize,
    depth: u32,
) {
    if depth > 16 {
        return;
    }
    let elements = u32::from(ct.elements).max(1).min(pt.elements.max(1));
    for _ in 0..elements {
        if *reg >= end {
            return;
        }
        if ct.class == ParameterClass::Struct {
            for ((_, mct), mpt) in ct.members().zip(&pt.members) {
                stage_tree(table, per_reg, reg, end, &mct, mpt, values, vi, depth + 1);
            }
            continue;
        }
        let (rows, columns) = (pt.rows.max(1), pt.columns.max(1));
        let n = (rows * columns) as usize;
        let element = values.get(*vi..(*vi + n).min(values.len())).unwrap_or(&[]);
        *vi += n;
        let columns_major = ct.class == ParameterClass::MatrixColumns;
        let matrix = matches!(
            ct.class,
            ParameterClass::MatrixRows | ParameterClass::MatrixColumns
        );
        // Registers of the element and components in each.
        let (major, minor) = if per_reg == 1 {
            (n as u32, 1)
        } else if matrix && columns_major {
            (columns, rows)
        } else if matrix {
            (rows, columns)
        } else {
            (1, n as u32)
        };
        for m in 0..major {
            if *reg >= end {
                return;
            }
            for c in 0..minor.min(per_reg) {
                let idx = if per_reg == 1 {
                    // Bool registers: one component each, in the constant's order.
                    if columns_major {
                        let (col, row) = (m / rows, m % rows);
                        (row * columns + col) as usize
                    } else {
                        m as usize
                    }
                } else if matrix && columns_major {
                    (c * columns + m) as usize
                } else {
                    (m * minor + c) as usize
                };
                let at = (*reg * per_reg + c) as usize;
                if let (Some(slot), Some(&v)) = (table.get_mut(at), element.get(idx)) {
                    *slot = f64::from(v);
                }
            }
            *reg += 1;
        }
    }
}

/// The register file of a run: one `f64` per component (literals keep double
/// precision; everything else is stored rounded to `f32`).
#[derive(Clone, Debug)]
pub struct Registers {
    /// Tables indexed by [`Table`] order.
    pub tables: [Vec<f64>; 7],
}

impl Registers {
    #[inline]
    fn read(&self, o: &Operand, comp: u32) -> f64 {
        let t = &self.tables[o.table.index()];
        // A register inside its table at a constant index: the common case.
        if o.index.is_none() {
            let at = o.offset.wrapping_add(comp) as usize;
            if at < t.len() & !3 {
                return t[at];
            }
        }
        let base = match o.index {
            None => 0u32,
            Some((it, io)) => {
                let v = self.tables[it.index()]
                    .get(io as usize)
                    .copied()
                    .unwrap_or(0.0);
                lrint(v) as u32
            }
        };
        let offset = base
            .wrapping_mul(4)
            .wrapping_add(o.offset)
            .wrapping_add(comp);
        let size = (t.len() / 4) as u32;
        let mut reg = offset / 4;
        if reg >= size {
            // D3DX wraps indices into the input table to the next power of two of its
            // size, others to their size; what lies beyond reads as 0.
            let wrap = if o.table == Table::Input {
                size.max(1).next_power_of_two()
            } else {
                size.max(1)
            };
            reg %= wrap;
            if reg >= size {
                return 0.0;
            }
        }
        t[(reg * 4 + offset % 4) as usize]
    }

    fn write(&mut self, o: Operand, comp: u32, v: f64) {
        let t = &mut self.tables[o.table.index()];
        let at = o.offset.wrapping_add(comp) as usize;
        if let Some(slot) = t.get_mut(at) {
            *slot = match o.table {
                Table::OutputInt => lrint(v) as f64,
                Table::OutputBool => f64::from(u8::from(v != 0.0)),
                // Temporaries keep double precision (Wine's "prec" expectation: a
                // difference of nearly equal products survives only in doubles).
                Table::Literal | Table::Temp => v,
                _ => round_f32(v),
            };
        }
    }

    /// Float output register `reg` (x, y, z, w).
    pub fn output(&self, reg: usize) -> [f32; 4] {
        let t = &self.tables[Table::Output.index()];
        std::array::from_fn(|i| t.get(reg * 4 + i).map_or(0.0, |&v| v as f32))
    }

    /// The whole float output table as `f32`s.
    pub fn outputs(&self) -> Vec<f32> {
        self.tables[Table::Output.index()]
            .iter()
            .map(|&v| v as f32)
            .collect()
    }
}

/// `f64` rounded to `f32` precision with NaNs kept bit-faithful.
fn round_f32(v: f64) -> f64 {
    if v.is_nan() {
        // An f32 NaN with the sign and quiet bit of the f64 one.
        return f64::from(f32::from_bits(if v.is_sign_negative() {
            0xFFC0_0000
        } else {
            0x7FC0_0000
        }));
    }
    f64::from(v as f32)
}

/// C's `lrint` (round half to even) saturated to `i32`.
fn lrint(v: f64) -> i32 {
    if v.is_nan() {
        return i32::MIN;
    }
    let r = v.round_ties_even();
    if r >= i32::MAX as f64 {
        i32::MAX
    } else if r <= i32::MIN as f64 {
        i32::MIN
    } else {
        r as i32
    }
}

/// The negative quiet NaN x86 creates for invalid operations.
const DEFAULT_NAN: f64 = f64::from_bits(0xFFF8_0000_0000_0000);

fn first_nan(args: &[f64]) -> Option<f64> {
    args.iter().copied().find(|a| a.is_nan())
}

/// A NaN result is the first NaN operand (quieted) or, when the operation created it,
/// the default NaN.
fn fix_nan(v: f64, operand_nan: Option<f64>) -> f64 {
    if !v.is_nan() {
        return v;
    }
    operand_nan.unwrap_or(DEFAULT_NAN)
}

/// One component of an operation, as D3DX computes it.
pub fn eval(op: &OpInfo, a: &[f64]) -> f64 {
    match *a {
        [x] => eval1(op.code, x),
        [x, y] => eval2(op.code, x, y),
        [x, y, z] => eval3(op.code, x, y, z),
        _ => evaln(op.code, a),
    }
}

/// A result of a computation: a NaN one is the first NaN operand (quieted) or the
/// default NaN; the operands are looked at only then.
#[inline(always)]
fn result(r: f64, a: &[f64]) -> f64 {
    if r.is_nan() {
        fix_nan(r, first_nan(a))
    } else {
        r
    }
}

/// [`eval`] of a one-operand operation.
#[inline]
fn eval1(code: u32, x: f64) -> f64 {
    let r = match code {
        0x100 => return x,
        0x101 => return -x,
        0x103 => 1.0 / x,
        0x104 => x - x.floor(),
        0x105 => 2f64.powf(x),
        0x106 => {
            let v = x.abs();
            if v == 0.0 {
                0.0
            } else {
                v.log2()
            }
        }
        0x107 => {
            let v = x.abs();
            if v == 0.0 {
                f64::INFINITY
            } else {
                1.0 / v.sqrt()
            }
        }
        0x108 => x.sin(),
        0x109 => x.cos(),
        0x10a => {
            let v = x.asin();
            return if v.is_nan() { DEFAULT_NAN } else { v };
        }
        0x10b => {
            let v = x.acos();
            return if v.is_nan() { DEFAULT_NAN } else { v };
        }
        0x10c => x.atan(),
        0x139 => x.floor(),
        0x13a => x.ceil(),
        _ => 0.0,
    };
    result(r, &[x])
}

/// [`eval`] of a two-operand operation.
#[inline]
fn eval2(code: u32, x: f64, y: f64) -> f64 {
    let r = match code {
        0x200 => return x.min(y),
        0x201 => return x.max(y),
        0x202 => return if x < y { 1.0 } else { 0.0 },
        0x203 => return if x >= y { 1.0 } else { 0.0 },
        0x204 => x + y,
        0x205 => x * y,
        // Windows gives +0 for atan2(-0, x > 0) (Wine's "atan2 test #2"); C's atan2
        // keeps the sign. Adding +0 changes nothing else.
        0x206 if y > 0.0 => x.atan2(y) + 0.0,
        0x206 => x.atan2(y),
        _ => 0.0,
    };
    result(r, &[x, y])
}

/// [`eval`] of a three-operand operation.
#[inline]
fn eval3(code: u32, x: f64, y: f64, z: f64) -> f64 {
    match code {
        0x300 => {
            if x >= 0.0 {
                y
            } else {
                z
            }
        }
        0x301 => {
            if x != 0.0 {
                y
            } else {
                z
            }
        }
        _ => 0.0,
    }
}

/// [`eval`] of the other operations (`dot` of 3 or 4 components as one operation).
fn evaln(code: u32, a: &[f64]) -> f64 {
    let r = match (code, a) {
        (0x70e, [x0, x1, x2, y0, y1, y2]) => x0 * y0 + x1 * y1 + x2 * y2,
        (0x70e, [x0, x1, x2, x3, y0, y1, y2, y3]) => x0 * y0 + x1 * y1 + x2 * y2 + x3 * y3,
        _ => 0.0,
    };
    result(r, a)
}

/// `%.{p}g` with the Microsoft C runtime's three-digit exponent, of an `f64`.
pub fn fmt_g(v: f64, p: usize) -> String {
    if v.is_nan() {
        return if v.is_sign_negative() {
            "-1.#IND"
        } else {
            "1.#QNAN"
        }
        .into();
    }
    if v.is_infinite() {
        return if v < 0.0 { "-1.#INF" } else { "1.#INF" }.into();
    }
    if v == 0.0 {
        return if v.is_sign_negative() { "-0" } else { "0" }.into();
    }
    let s = format!("{:.*e}", p - 1, v);
    let (mant, exp) = s.split_once('e').unwrap_or((&s, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let neg = mant.starts_with('-');
    let digits: String = mant.chars().filter(|c| c.is_ascii_digit()).collect();
    let digits = digits.trim_end_matches('0');
    let digits = if digits.is_empty() { "0" } else { digits };
    let mut out = String::new();
    if neg {
        out.push('-');
    }
    if exp < -4 || exp >= p as i32 {
        out.push_str(&digits[..1]);
        if digits.len() > 1 {
            out.push('.');
            out.push_str(&digits[1..]);
        }
        let _ = write!(out, "e{}{:03}", if exp < 0 { '-' } else { '+' }, exp.abs());
    } else if exp >= 0 {
        let int_len = exp as usize + 1;
        if digits.len() <= int_len {
            out.push_str(digits);
            out.extend(std::iter::repeat_n('0', int_len - digits.len()));
        } else {
            out.push_str(&digits[..int_len]);
            out.push('.');
            out.push_str(&digits[int_len..]);
        }
    } else {
        out.push_str("0.");
        out.extend(std::iter::repeat_n('0', (-exp - 1) as usize));
        out.push_str(digits);
    }
    out
}

const XYZW: [char; 4] = ['x', 'y', 'z', 'w'];

impl Preshader {
    fn write_operand(&self, o: &Operand, n: u32, scalar: bool, out: &mut String) {
        if o.table == Table::Literal && o.index.is_none() {
            out.push('(');
            for i in 0..n {
                if i > 0 {
                    out.push_str(", ");
                }
                // A broadcast scalar literal repeats its one value.
                let at = if scalar {
                    o.offset
                } else {
                    o.offset.saturating_add(i)
                };
                let v = self.literals.get(at as usize).copied().unwrap_or(0.0);
                out.push_str(&fmt_g(v, 9));
            }
            out.push(')');
            return;
        }
        let _ = write!(out, "{}{}", o.table.prefix(), o.offset / 4);
        if let Some((t, io)) = o.index {
            let _ = write!(
                out,
                "[{}{}.{}]",
                t.prefix(),
                io / 4,
                XYZW[(io % 4) as usize]
            );
        }
        let start = o.offset % 4;
        if !(n == 4 && start == 0) {
            out.push('.');
            for i in 0..n {
                out.push(XYZW[((start + i) % 4) as usize]);
            }
        }
    }

    /// Appends the listing fxc writes for the program: its `CTAB` header (without
    /// default values), `preshader`, the instructions, and the instruction count.
    pub fn write_listing(&self, out: &mut String) {
        if let Some(c) = &self.ctab {
            if let Ok(view) = CtabView::parse(c) {
                crate::print::write_ctab_header(&view, false, out);
            }
        }
        out.push_str("    preshader\n");
        for ins in &self.instructions {
            out.push_str("    ");
            out.push_str(ins.op.name);
            out.push(' ');
            self.write_operand(&ins.output, ins.components, false, out);
            for (k, i) in ins.inputs.iter().enumerate() {
                out.push_str(", ");
                let scalar = (ins.scalar && k == 0) || ins.op.code == 0x70e;
                let n = if scalar && i.table != Table::Literal {
                    1
                } else {
                    ins.components
                };
                self.write_operand(i, n, scalar, out);
            }
            out.push('\n');
        }
        let n = self.instructions.len();
        let _ = writeln!(
            out,
            "\n// approximately {n} instruction{} used",
            if n == 1 { "" } else { "s" }
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `mov` from literal component 0xFFFFFFFF (an offset whose last component
    /// overflows): an error, not a panic (found by the `fx` fuzz target).
    #[test]
    fn huge_operand_offsets_are_errors() {
        let mut t = vec![0x4658_0200, 0x0002_FFFE, FOURCC_CLIT, 0];
        let code = [FOURCC_FXLC, 1, 0x1000_0004, 1, 0, 1, u32::MAX, 0, 4, 0];
        t.push(((code.len() as u32) << 16) | 0xFFFE);
        t.extend_from_slice(&code);
        t.push(0x0000_FFFF);
        let e = Preshader::parse(&t).unwrap_err();
        assert!(e.what.contains("outside its table"), "{e}");
    }

    #[test]
    fn g_format_matches_msvc() {
        assert_eq!(fmt_g(0.02f32 as f64, 9), "0.0199999996");
        assert_eq!(fmt_g(std::f64::consts::PI, 9), "3.14159265");
        assert_eq!(fmt_g(2.47609e-5, 9), "2.47609e-005");
        assert_eq!(fmt_g(5.0, 9), "5");
        assert_eq!(fmt_g(-2.52398518e-7, 9), "-2.52398518e-007");
        assert_eq!(fmt_g(1e9, 9), "1e+009");
        assert_eq!(fmt_g(123456789.0, 9), "123456789");
    }
}
