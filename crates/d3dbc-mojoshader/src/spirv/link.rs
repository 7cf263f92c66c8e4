//! `MOJOSHADER_linkSPIRVShaders`: the vertex formats applied to a vertex answer's inputs
//! and the varyings' locations assigned across a vertex and a pixel answer, through the
//! patch table the parse wrote after each module.

use super::*;

/// Applies `MOJOSHADER_linkSPIRVShaders`' vertex formats to a vertex answer's module
/// (`w`, `n` words) through its table, as MojoShader does: `BYTE4` inputs become `uvec4`
/// converted with `OpConvertUToF`, `SHORT2`/`SHORT4` `ivec4` with `OpConvertSToF`, the
/// other formats `vec4` with the plain copy.
///
/// # Safety
/// `w` holds `n` words; `t` is the answer's table, its load arrays in the answer.
unsafe fn retype_inputs(
    w: *mut u32,
    n: usize,
    t: &SpirvPatchTable,
    attributes: &[crate::types::MOJOSHADER_vertexAttribute],
) {
    for a in attributes {
        let (Ok(u), Ok(i)) = (usize::try_from(a.usage), usize::try_from(a.usageIndex)) else {
            continue;
        };
        if u >= USAGE_TOTAL || i >= 16 {
            continue;
        }
        let (decl, load, convert) = match a.vertexElementFormat {
            5 => (t.tid_uvec4_p, t.tid_uvec4, OP_CONVERT_U_TO_F),
            6 | 7 => (t.tid_ivec4_p, t.tid_ivec4, OP_CONVERT_S_TO_F),
            _ => (t.tid_vec4_p, t.tid_vec4, OP_COPY_OBJECT),
        };
        let at = t.attrib_type_offsets[u][i] as usize;
        if at == 0 || at >= n || decl == 0 {
            continue;
        }
        // SAFETY: within the module.
        unsafe { w.add(at).write_unaligned(decl) };
        let l = &t.attrib_type_load_offsets[u][i];
        if l.load_types.is_null() || l.load_opcodes.is_null() {
            continue;
        }
        for k in 0..l.num_loads as usize {
            // SAFETY: the answer's arrays hold `num_loads` offsets each.
            let (ty, op) = unsafe {
                (
                    l.load_types.add(k).read_unaligned() as usize,
                    l.load_opcodes.add(k).read_unaligned() as usize,
                )
            };
            if ty != 0 && ty < n {
                // SAFETY: within the module.
                unsafe { w.add(ty).write_unaligned(load) };
            }
            if op != 0 && op < n {
                // SAFETY: within the module.
                unsafe {
                    let word = w.add(op).read_unaligned();
                    w.add(op).write_unaligned((word & 0xFFFF_0000) | convert);
                }
            }
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
/// Offsets the table does not have are skipped (MojoShader writes word 0 there). Pixel
/// inputs the table records but the answer does not list (ps_1_x `t#`, which MojoShader
/// leaves at 0xDEADBEEF) take the next locations, with the vertex outputs that feed
/// them. The
/// vertex outputs the table does not list (d3dbc's fixed varyings a shader below vs_3_0
/// always writes) take the locations after all those.
///
/// # Safety
/// Both are valid `spirv` answers of this library.
pub(crate) unsafe fn link(
    v: &MOJOSHADER_parseData,
    p: &MOJOSHADER_parseData,
    attributes: &[crate::types::MOJOSHADER_vertexAttribute],
) -> c_int {
    // SAFETY: per the contract.
    let (Some((vw, vn, vt)), Some((pw, pn, pt))) = (unsafe { table_of(v) }, unsafe { table_of(p) })
    else {
        return 0;
    };
    // SAFETY: the vertex answer's module and table.
    unsafe { retype_inputs(vw, vn, &vt, attributes) };
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
    let mut linked = [[false; 16]; USAGE_TOTAL];
    for a in list(p.attributes, p.attribute_count) {
        if a.usage < 0 || a.usage == 12 {
            continue;
        }
        put(pw, pn, slot(&pt, a.usage, a.index), loc);
        put(vw, vn, slot(&vt, a.usage, a.index), loc);
        if let (Ok(u), Ok(i)) = (usize::try_from(a.usage), usize::try_from(a.index)) {
            if u < USAGE_TOTAL && i < 16 {
                linked[u][i] = true;
            }
        }
        loc += 1;
    }
    // The pixel inputs the table records and the answer does not list (a ps_1_x's
    // `t#`): MojoShader leaves their literal, and that of the vertex output feeding
    // them, at 0xDEADBEEF; here they take the next locations.
    for (u, row) in pt.attrib_offsets.iter().enumerate() {
        for (i, &offset) in row.iter().enumerate() {
            if offset != 0 && !linked[u][i] {
                put(pw, pn, offset, loc);
                put(vw, vn, vt.attrib_offsets[u][i], loc);
                loc += 1;
            }
        }
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
    // d3dbc's vertex shaders also write varyings the answer does not list (every fixed
    // varying below vs_3_0): they keep no fixed location that could meet a linked one,
    // and take the locations after.
    let offsets = {
        // SAFETY: the answer's output holds the module's `vn` words; the slice is gone
        // before anything is written.
        let module = unsafe { std::slice::from_raw_parts(vw as *const u32, vn) };
        output_locations(module)
    };
    let recorded: Vec<u32> = vt.attrib_offsets.iter().flatten().copied().collect();
    for offset in offsets {
        if !recorded.contains(&(offset as u32)) {
            put(vw, vn, offset as u32, loc);
            loc += 1;
        }
    }
    1
}

/// Word offsets of the `Location` literals of a module's output variables.
fn output_locations(words: &[u32]) -> Vec<usize> {
    let mut outputs = Vec::new();
    let mut locations = Vec::new();
    for (at, op, w) in instructions(words) {
        if op == OP_VARIABLE && w.len() >= 4 && w[3] == STORAGE_OUTPUT {
            outputs.push(w[2]);
        } else if op == OP_DECORATE && w.len() >= 4 && w[2] == DECORATION_LOCATION {
            locations.push((w[1], at + 3));
        }
    }
    locations
        .into_iter()
        .filter(|(id, _)| outputs.contains(id))
        .map(|(_, offset)| offset)
        .collect()
}
