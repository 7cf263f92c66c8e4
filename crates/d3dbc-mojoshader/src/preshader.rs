//! `MOJOSHADER_parsePreshader`, `MOJOSHADER_freePreshader` and the `preshader` of a
//! parse answer: a preshader parsed by `d3dbc::fx::preshader` laid out in MojoShader's
//! `MOJOSHADER_preshader` (its opcodes, operand kinds, literals, the constant table's
//! symbols, temporaries rounded up to whole registers, the zeroed output registers).
//!
//! MojoShader's opcode set has no bool or int outputs and no fx_4 operations; a
//! preshader using an operation outside `MOJOSHADER_preshaderOpcode` is refused with
//! MojoShader's message, as MojoShader refuses it.

use std::ffi::{c_int, c_uint};

use d3dbc::ctab::Ctab;
use d3dbc::fx::preshader::{Operand, Preshader, Table};

use crate::arena::{build, Allocator, Arena};
use crate::parse::{self, Failure};
use crate::types::*;

/// MojoShader's opcode for an FXLC operation (`code`, scalar first input).
fn opcode(code: u32, scalar: bool) -> Option<c_int> {
    let key = (code << 4) | if scalar { 0x8000 } else { 0 };
    Some(match key {
        0x1000 => 1,
        0x1010 => 2,
        0x1030 => 3,
        0x1040 => 4,
        0x1050 => 5,
        0x1060 => 6,
        0x1070 => 7,
        0x1080 => 8,
        0x1090 => 9,
        0x10A0 => 10,
        0x10B0 => 11,
        0x10C0 => 12,
        0x2000 => 13,
        0x2010 => 14,
        0x2020 => 15,
        0x2030 => 16,
        0x2040 => 17,
        0x2050 => 18,
        0x2060 => 19,
        0x2080 => 20,
        0x3000 => 21,
        0x3010 => 22,
        0x5000 => 23,
        0x5020 => 24,
        0xA000 => 25,
        0xA010 => 26,
        0xA020 => 27,
        0xA030 => 28,
        0xA040 => 29,
        0xA050 => 30,
        0xA060 => 31,
        0xA080 => 32,
        0xD000 => 33,
        0xD020 => 34,
        _ => return None,
    })
}

/// A preshader ready to lay out.
pub(crate) struct Plan {
    pres: Preshader,
    ctab: Option<Ctab>,
    opcodes: Vec<c_int>,
}

impl Plan {
    /// The names of the constant table's symbols, in its order.
    pub(crate) fn symbol_names(&self) -> impl Iterator<Item = &str> {
        self.ctab
            .iter()
            .flat_map(|t| t.constants.iter().map(|c| c.name.as_str()))
    }
}

/// Parses a preshader token stream (the version token first).
pub(crate) fn plan(tokens: &[u32]) -> Result<Plan, Failure> {
    let pres = Preshader::parse(tokens).map_err(|e| Failure {
        message: format!("Bogus preshader data: {} (DWORD {})", e.what, e.offset),
        position: (e.offset * 4) as c_int,
    })?;
    let ctab = pres
        .ctab
        .as_deref()
        .map(Ctab::parse)
        .transpose()
        .map_err(|e| Failure {
            message: format!("Bogus preshader CTAB data: {}", e.reason),
            position: POSITION_BEFORE,
        })?;
    let opcodes = pres
        .instructions
        .iter()
        .map(|i| opcode(i.op.code, i.scalar))
        .collect::<Option<Vec<_>>>()
        .ok_or_else(|| Failure {
            message: "Unknown preshader opcode.".into(),
            position: POSITION_BEFORE,
        })?;
    Ok(Plan {
        pres,
        ctab,
        opcodes,
    })
}

fn operand(a: &mut Arena, o: &Operand) -> MOJOSHADER_preshaderOperand {
    let kind = match o.table {
        Table::Literal => 2,
        Table::Output | Table::OutputBool | Table::OutputInt => 1,
        Table::Temp => 3,
        Table::Input | Table::V => 0,
    };
    let arrays: Vec<c_uint> = o.index.iter().map(|&(_, at)| at).collect();
    MOJOSHADER_preshaderOperand {
        r#type: kind,
        index: o.offset,
        array_register_count: arrays.len() as c_uint,
        array_registers: a.slice(&arrays),
    }
}

/// Lays `plan` out in `a` (the `MOJOSHADER_preshader` first).
pub(crate) fn write(a: &mut Arena, plan: &Plan, alloc: &Allocator) -> *mut MOJOSHADER_preshader {
    let top = a.place::<MOJOSHADER_preshader>();
    let p = &plan.pres;
    let literals = a.slice(&p.literals);
    let (symbols, symbol_count) = parse::symbols(
        a,
        plan.ctab.as_ref().map_or(0, |t| t.constants.len()),
        plan.ctab.iter().flat_map(|t| &t.constants).map(|c| {
            (
                std::borrow::Cow::Borrowed(c.name.as_str()),
                c.register_set,
                c.register_index,
                c.register_count,
                &c.ty,
            )
        }),
    );
    let mut temps = 0u32;
    let instructions: Vec<MOJOSHADER_preshaderInstruction> = p
        .instructions
        .iter()
        .zip(&plan.opcodes)
        .map(|(i, &op)| {
            let empty = MOJOSHADER_preshaderOperand {
                r#type: 0,
                index: 0,
                array_register_count: 0,
                array_registers: std::ptr::null_mut(),
            };
            let mut operands = [empty; 4];
            let all: Vec<&Operand> = i.inputs.iter().chain(std::iter::once(&i.output)).collect();
            for (slot, o) in operands.iter_mut().zip(&all) {
                if o.table == Table::Temp {
                    temps = temps.max(o.offset + 1);
                }
                *slot = operand(a, o);
            }
            MOJOSHADER_preshaderInstruction {
                opcode: op,
                element_count: i.components,
                operand_count: all.len().min(4) as c_uint,
                operands,
            }
        })
        .collect();
    let largest = plan.ctab.as_ref().map_or(0, |t| {
        t.constants
            .iter()
            .map(|c| u32::from(c.register_index) + u32::from(c.register_count))
            .max()
            .unwrap_or(0)
    });
    let registers = vec![0f32; largest as usize * 4];
    let value = MOJOSHADER_preshader {
        literal_count: p.literals.len() as c_uint,
        literals,
        temp_count: (temps + 3) & !3,
        symbol_count: symbol_count as c_uint,
        symbols,
        instruction_count: instructions.len() as c_uint,
        instructions: a.slice(&instructions),
        register_count: largest,
        registers: a.slice(&registers),
        malloc: alloc.m,
        free: alloc.f,
        malloc_data: alloc.d,
    };
    a.set(top, value);
    top
}

/// `MOJOSHADER_parsePreshader` after its pointers are checked: NULL when the data is
/// not a preshader MojoShader's opcode set can hold (as MojoShader answers).
pub(crate) fn parse_preshader(bytes: &[u8], alloc: &Allocator) -> *const MOJOSHADER_preshader {
    let tokens: Vec<u32> = bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    match plan(&tokens) {
        Ok(p) => build(alloc, |a| write(a, &p, alloc)),
        Err(_) => std::ptr::null(),
    }
}

/// Frees an answer of [`parse_preshader`].
///
/// # Safety
/// `p` is NULL or an answer of `MOJOSHADER_parsePreshader` not yet freed.
pub(crate) unsafe fn free_preshader(p: *const MOJOSHADER_preshader) {
    if p.is_null() {
        return;
    }
    // SAFETY: per the contract.
    let d = unsafe { &*p };
    Allocator {
        m: d.malloc,
        f: d.free,
        d: d.malloc_data,
    }
    .release(p as *mut _);
}
