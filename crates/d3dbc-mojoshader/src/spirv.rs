//! The `spirv` profile's output and `MOJOSHADER_linkSPIRVShaders`.
//!
//! The output keeps MojoShader's shape: the SPIR-V module (`d3dbc-spirv`'s, with
//! d3dbc's interface: every varying at its fixed-map location,
//! `d3dbc::target::interface`), then MojoShader's `SpirvPatchTable`, `output_len`
//! counting both. The table's `attrib_offsets[usage][index]` hold the word index of
//! each varying's `Location` literal (vertex outputs, pixel inputs) and
//! `output_offsets[n]` those of the colour outputs, read from the module d3dbc's emitter
//! wrote (the interface it reports says which location is which `(usage, index)`), so
//! MojoShader's linker and d3dbc's assign the same compact locations. The uniform and
//! sampler entries of the table stay 0: d3dbc's bindings are fixed
//! (`d3dbc::target::interface`) and need no patching.

use std::ffi::c_int;

use d3dbc::target::interface::varying_at;
use d3dbc::Shader;

use crate::parse::{Failure, Output, Plan};
use crate::types::{MOJOSHADER_parseData, SpirvPatchTable, USAGE_TOTAL};

const OP_DECORATE: u32 = 71;
const OP_VARIABLE: u32 = 59;
const DECORATION_LOCATION: u32 = 30;
const STORAGE_INPUT: u32 = 1;
const STORAGE_OUTPUT: u32 = 3;

/// The module and the patch table that follows it.
pub(crate) fn output(shader: &Shader, plan: &Plan) -> Result<Output, Failure> {
    let t = d3dbc_spirv::translate(shader, &Default::default()).map_err(|e| Failure {
        message: e.to_string(),
        position: crate::types::POSITION_BEFORE,
    })?;
    let mut table = Box::new(SpirvPatchTable::empty());
    patch_table(
        &t.words,
        plan.shader_type == crate::types::TYPE_VERTEX,
        &mut table,
    );
    Ok(Output::Spirv {
        words: t.words,
        table,
    })
}

/// Where the module's varying and colour-output locations are.
fn patch_table(words: &[u32], vertex: bool, table: &mut SpirvPatchTable) {
    // Storage class of each variable id (ids are below the header's bound).
    let bound = words.get(3).copied().unwrap_or(0).min(1 << 22) as usize;
    let mut storage = vec![0u32; bound];
    let mut decorations = Vec::new();
    let mut at = 5;
    while at < words.len() {
        let len = (words[at] >> 16) as usize;
        let op = words[at] & 0xFFFF;
        if len == 0 || at + len > words.len() {
            break;
        }
        if op == OP_VARIABLE && len >= 4 {
            if let Some(slot) = storage.get_mut(words[at + 2] as usize) {
                *slot = words[at + 3];
            }
        } else if op == OP_DECORATE && len >= 4 && words[at + 2] == DECORATION_LOCATION {
            decorations.push((words[at + 1], at + 3));
        }
        at += len;
    }
    let varyings = if vertex {
        STORAGE_OUTPUT
    } else {
        STORAGE_INPUT
    };
    for (id, offset) in decorations {
        let location = words[offset];
        let class = storage.get(id as usize).copied();
        if class == Some(varyings) {
            if let Some((usage, index)) = varying_at(location) {
                let (u, i) = (usage as usize, index as usize);
                if u < USAGE_TOTAL && i < 16 {
                    table.attrib_offsets[u][i] = offset as u32;
                }
            }
        } else if !vertex && class == Some(STORAGE_OUTPUT) && location < 16 {
            table.output_offsets[location as usize] = offset as u32;
        }
    }
}

/// The patch table at the end of a `spirv` answer, and the module's word count.
///
/// # Safety
/// `d` is a valid parse answer.
unsafe fn table_of(d: &MOJOSHADER_parseData) -> Option<(*mut u32, usize, SpirvPatchTable)> {
    let size = std::mem::size_of::<SpirvPatchTable>();
    let len = usize::try_from(d.output_len).ok()?;
    if d.output.is_null() || len < size + 20 || !(len - size).is_multiple_of(4) {
        return None;
    }
    // SAFETY: the answer's output holds `output_len` bytes; the table is plain data.
    let table =
        unsafe { std::ptr::read_unaligned(d.output.add(len - size) as *const SpirvPatchTable) };
    Some((d.output as *mut u32, (len - size) / 4, table))
}

/// MojoShader's `MOJOSHADER_spirv_link_attributes` (not the GL variant): pixel inputs
/// get locations 0, 1, … in the order the pixel shader lists them, the vertex outputs
/// that feed them the same, and vertex outputs no pixel input reads the locations after.
/// Offsets the table does not have are skipped (MojoShader writes word 0 there).
///
/// # Safety
/// Both are valid `spirv` answers of this library.
pub(crate) unsafe fn link(v: &MOJOSHADER_parseData, p: &MOJOSHADER_parseData) -> c_int {
    // SAFETY: per the contract.
    let (Some((vw, vn, vt)), Some((pw, pn, pt))) = (unsafe { table_of(v) }, unsafe { table_of(p) })
    else {
        return 0;
    };
    let put = |w: *mut u32, n: usize, offset: u32, value: u32| {
        let o = offset as usize;
        if o != 0 && o < n {
            // SAFETY: within the module; the output is the caller's answer, written by
            // MojoShader's own linker in the same way.
            unsafe { w.add(o).write_unaligned(value) };
        }
    };
    let slot = |t: &SpirvPatchTable, usage: c_int, index: c_int| -> u32 {
        match (usize::try_from(usage), usize::try_from(index)) {
            (Ok(u), Ok(i)) if u < USAGE_TOTAL && i < 16 => t.attrib_offsets[u][i],
            _ => 0,
        }
    };
    let list = |ptr: *const crate::types::MOJOSHADER_attribute, n: c_int| {
        if ptr.is_null() || n <= 0 {
            &[][..]
        } else {
            // SAFETY: the answer's arrays hold their counts.
            unsafe { std::slice::from_raw_parts(ptr, n as usize) }
        }
    };
    let mut loc = 0u32;
    for a in list(p.attributes, p.attribute_count) {
        if a.usage < 0 || a.usage == 12 {
            continue;
        }
        put(pw, pn, slot(&pt, a.usage, a.index), loc);
        put(vw, vn, slot(&vt, a.usage, a.index), loc);
        loc += 1;
    }
    for a in list(v.outputs, v.output_count) {
        if (a.usage == 0 || a.usage == 4) && a.index == 0 {
            continue;
        }
        if slot(&pt, a.usage, a.index) == 0 {
            put(vw, vn, slot(&vt, a.usage, a.index), loc);
            loc += 1;
        }
    }
    1
}
