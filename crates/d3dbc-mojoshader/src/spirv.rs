//! The `spirv` profile's output and `MOJOSHADER_linkSPIRVShaders`.
//!
//! The output keeps MojoShader's shape: the SPIR-V module (`d3dbc-spirv`'s), then
//! MojoShader's `SpirvPatchTable`, `output_len` counting both.
//!
//! **Resource layout.** MojoShader's Vulkan-mode `spirv` profile (what
//! `mojoshader_sdlgpu.c` and FNA3D's Vulkan glue bind) puts a vertex shader's samplers
//! in descriptor set 0 and its uniforms in set 1, a pixel shader's in sets 2 and 3
//! (`MOJOSHADER_SPIRV_{VS,PS}_{SAMPLER,UNIFORM}_SET`); sampler `s#` is a combined image
//! sampler at binding `#`; the uniforms are one uniform buffer at binding 0, a block of
//! up to three arrays of 16-byte elements — the float registers packed in the order of
//! the answer's uniform list (constant-table arrays first), then the integer ones, then
//! the boolean ones (`.x`), which is the order the glue copies `parseData->uniforms` into
//! its staging buffer. d3dbc's module (`d3dbc::target::interface`: set 0, one block per
//! register file indexed by register number, texture and sampler at separate bindings)
//! is rewritten here to that layout, with no code of d3dbc-spirv's duplicated: the
//! descriptor set and binding decorations are rewritten (texture and sampler of `s#`
//! both at binding `#`: Vulkan lets separate image and sampler variables consume one
//! combined-image-sampler descriptor); the three register blocks all go to binding 0,
//! each block's array placed at its MojoShader offset (`Offset` of the integer array
//! after the float elements, of the boolean array after both) and sized as MojoShader
//! sizes it; every constant register index is replaced by the register's slot, and an
//! index computed at run time (relative addressing, which MojoShader allows only inside a
//! constant-table array) is shifted by the array's slot minus its first register. Where
//! that cannot be done (relative addressing with several arrays of different shifts) the
//! module keeps its register-indexed blocks, in the uniform set at bindings 2 (float), 3
//! (integer) and 4 (boolean), off the buffer the glue fills (the differential test lists
//! such shaders; none in the corpus or FNA's effects). d3dbc's driver uniforms, which
//! MojoShader does not have, go to binding 1 of the uniform set: the face asks for no
//! position fix-up (MojoShader's Vulkan mode does none), so only state such as ps_1_x's
//! bump-environment matrix reads them (MojoShader puts that in two float slots after the
//! uniforms, which its glue never fills).
//!
//! **Patch table.** In Vulkan mode MojoShader records no uniform or sampler patches:
//! `vpflip`, `array_*` and `samplers[]` have offset 0 and location −1, `location_count`
//! is 0 — and so does the face. `attrib_offsets[usage][index]` hold the word index of
//! each varying's `Location` literal and `output_offsets[n]` those of the colour outputs,
//! for the varyings MojoShader records (`Records`), read from the module d3dbc's
//! emitter wrote (the interface it reports says which location is which
//! `(usage, index)`), so MojoShader's linker and the face's assign the same compact
//! locations. Vertex input locations are the `v#` register in both.

use std::collections::HashMap;
use std::ffi::c_int;

use d3dbc::target::interface::varying_at;
use d3dbc::Shader;

use crate::parse::{Failure, Output, Plan, UniformSlots};
use crate::types::{MOJOSHADER_parseData, SpirvPatchTable, USAGE_TOTAL};

const OP_DECORATE: u32 = 71;
const OP_VARIABLE: u32 = 59;
const DECORATION_LOCATION: u32 = 30;
const STORAGE_INPUT: u32 = 1;
const STORAGE_OUTPUT: u32 = 3;

/// The module and the patch table that follows it.
pub(crate) fn output(shader: &Shader, plan: &Plan) -> Result<Output, Failure> {
    let mut options = d3dbc::target::TranslateOptions::default();
    // MojoShader's Vulkan mode adds nothing to the position.
    options.pipeline.position_fixup = false;
    let t = d3dbc_spirv::translate(shader, &options).map_err(|e| Failure {
        message: e.to_string(),
        position: crate::types::POSITION_BEFORE,
    })?;
    let vertex = plan.shader_type == crate::types::TYPE_VERTEX;
    let (words, _) = relayout(t.words, vertex, &plan.uniform_slots());
    let mut table = Box::new(SpirvPatchTable::empty());
    for e in [
        &mut table.vpflip,
        &mut table.array_vec4,
        &mut table.array_ivec4,
        &mut table.array_bool,
    ] {
        e.location = -1;
    }
    for e in table.samplers.iter_mut() {
        e.location = -1;
    }
    let records = Records {
        vertex,
        major: plan.major,
        outputs: plan.listed(true),
    };
    patch_table(&words, &records, &mut table);
    Ok(Output::Spirv { words, table })
}

/// A module in MojoShader's resource layout, and why its register blocks kept d3dbc's
/// register-indexed layout, if they did.
type Layout = (Vec<u32>, Option<&'static str>);

const OP_CONSTANT: u32 = 43;
const OP_TYPE_ARRAY: u32 = 28;
const OP_TYPE_STRUCT: u32 = 30;
const OP_TYPE_POINTER: u32 = 32;
const OP_ACCESS_CHAIN: u32 = 65;
const OP_IN_BOUNDS_ACCESS_CHAIN: u32 = 66;
const OP_MEMBER_DECORATE: u32 = 72;
const OP_FUNCTION: u32 = 54;
const OP_IADD: u32 = 128;
const DECORATION_BINDING: u32 = 33;
const DECORATION_DESCRIPTOR_SET: u32 = 34;
const DECORATION_OFFSET: u32 = 35;

/// The instructions of a module after its 5-word header: (word offset, opcode, the
/// instruction's words), up to the first malformed length.
fn instructions(words: &[u32]) -> impl Iterator<Item = (usize, u32, &[u32])> {
    let mut at = 5;
    std::iter::from_fn(move || {
        let first = *words.get(at)?;
        let len = (first >> 16) as usize;
        let w = words.get(at..at + len).filter(|_| len > 0)?;
        let item = (at, first & 0xFFFF, w);
        at += len;
        Some(item)
    })
}

/// A map keyed by SPIR-V id: dense below the module's id bound, so that the scan costs
/// one store per instruction (a hash map's inserts were most of `MOJOSHADER_parse`'s
/// time), with a sentinel for "none" so that a slot is 4 bytes (word offsets fit in
/// `u32`: modules are far shorter). Ids at or past the bound (none in a well-formed
/// module) are not kept.
struct IdMap<T: Copy + PartialEq + Sentinel> {
    slots: Vec<T>,
}

/// The value a slot holds when the id has none.
trait Sentinel {
    const NONE: Self;
}

impl Sentinel for u32 {
    const NONE: u32 = u32::MAX;
}

impl Sentinel for (u32, u32, u32) {
    const NONE: (u32, u32, u32) = (u32::MAX, u32::MAX, u32::MAX);
}

impl<T: Copy + PartialEq + Sentinel> IdMap<T> {
    fn new(bound: usize) -> Self {
        Self {
            slots: vec![T::NONE; bound],
        }
    }

    fn insert(&mut self, id: u32, value: T) {
        if let Some(slot) = self.slots.get_mut(id as usize) {
            *slot = value;
        }
    }

    fn get(&self, id: &u32) -> Option<T> {
        self.slots
            .get(*id as usize)
            .copied()
            .filter(|v| *v != T::NONE)
    }

    fn contains_key(&self, id: &u32) -> bool {
        self.get(id).is_some()
    }

    /// The value of `id`, inserting `value` first where there is none.
    fn get_or_insert(&mut self, id: u32, value: T) -> T {
        match self.slots.get_mut(id as usize) {
            Some(v) if *v != T::NONE => *v,
            Some(slot) => {
                *slot = value;
                value
            }
            None => value,
        }
    }

    /// The entries in id order.
    fn iter(&self) -> impl Iterator<Item = (u32, T)> + '_ {
        self.slots
            .iter()
            .enumerate()
            .filter(|(_, v)| **v != T::NONE)
            .map(|(id, v)| (id as u32, *v))
    }
}

/// The largest id bound the scan keeps dense maps for (d3dbc-spirv's modules stay far
/// below it; a larger bound is not one of its modules and maps nothing).
const MAX_BOUND: usize = 1 << 22;

/// What the rewrite reads of the module: word offsets of literals, by id.
struct Scan {
    set_at: IdMap<u32>,
    binding_at: IdMap<u32>,
    /// Variable → its pointer type.
    var_type: IdMap<u32>,
    /// Pointer type → pointee.
    pointee: IdMap<u32>,
    /// Struct → its first member's type.
    member0: IdMap<u32>,
    /// Array → word offset of its length operand.
    array_len_at: IdMap<u32>,
    /// Struct → word offset of its first member's `Offset` literal.
    offset_at: IdMap<u32>,
    /// Constant → (type, value, offset of the type's first constant).
    constants: IdMap<(u32, u32, u32)>,
    /// Type → offset of its first constant.
    first_constant: IdMap<u32>,
    /// Access chains: (base, word offset of the instruction).
    chains: Vec<(u32, usize)>,
    /// Result id → result type, of the instructions in function bodies.
    result_type: IdMap<u32>,
}

fn scan(words: &[u32]) -> Scan {
    let bound = (words[3] as usize).min(MAX_BOUND);
    let mut s = Scan {
        set_at: IdMap::new(bound),
        binding_at: IdMap::new(bound),
        var_type: IdMap::new(bound),
        pointee: IdMap::new(bound),
        member0: IdMap::new(bound),
        array_len_at: IdMap::new(bound),
        offset_at: IdMap::new(bound),
        constants: IdMap::new(bound),
        first_constant: IdMap::new(bound),
        chains: Vec::new(),
        result_type: IdMap::new(bound),
    };
    let mut in_body = false;
    for (at, op, w) in instructions(words) {
        let len = w.len();
        in_body |= op == OP_FUNCTION;
        if in_body && len >= 3 {
            s.result_type.insert(w[2], w[1]);
        }
        match op {
            OP_DECORATE if len >= 4 && w[2] == DECORATION_DESCRIPTOR_SET => {
                s.set_at.insert(w[1], (at + 3) as u32);
            }
            OP_DECORATE if len >= 4 && w[2] == DECORATION_BINDING => {
                s.binding_at.insert(w[1], (at + 3) as u32);
            }
            OP_MEMBER_DECORATE if len >= 5 && w[2] == 0 && w[3] == DECORATION_OFFSET => {
                s.offset_at.insert(w[1], (at + 4) as u32);
            }
            OP_VARIABLE if len >= 4 => {
                s.var_type.insert(w[2], w[1]);
            }
            OP_TYPE_POINTER if len >= 4 => {
                s.pointee.insert(w[1], w[3]);
            }
            OP_TYPE_STRUCT if len >= 3 => {
                s.member0.insert(w[1], w[2]);
            }
            OP_TYPE_ARRAY if len >= 4 => {
                s.array_len_at.insert(w[1], (at + 3) as u32);
            }
            OP_CONSTANT if len == 4 => {
                // Offset of the type's first constant: new constants of the type go after
                // it, before any use.
                let first = s.first_constant.get_or_insert(w[1], at as u32);
                s.constants.insert(w[2], (w[1], w[3], first));
            }
            OP_ACCESS_CHAIN | OP_IN_BOUNDS_ACCESS_CHAIN if len >= 6 => {
                s.chains.push((w[3], at));
            }
            _ => {}
        }
    }
    s
}

/// Rewrites d3dbc's fixed set-0 layout into MojoShader's (the module doc).
pub(crate) fn relayout(mut words: Vec<u32>, vertex: bool, slots: &UniformSlots) -> Layout {
    use d3dbc::target::interface as itf;
    if words.len() < 5 {
        return (words, None);
    }
    let s = scan(&words);
    let (sampler_set, uniform_set) = if vertex { (0, 1) } else { (2, 3) };
    let (files, tex_base) = if vertex {
        (
            [
                itf::VS_FLOAT_BINDING,
                itf::VS_INT_BINDING,
                itf::VS_BOOL_BINDING,
            ],
            itf::VS_TEXTURE_BASE,
        )
    } else {
        (
            [
                itf::PS_FLOAT_BINDING,
                itf::PS_INT_BINDING,
                itf::PS_BOOL_BINDING,
            ],
            itf::PS_TEXTURE_BASE,
        )
    };
    let samplers = d3dbc::regs::MAX_SAMPLERS as u32;
    // The register blocks: (variable, file).
    let mut blocks = Vec::new();
    let mut rebind = Vec::new();
    for (var, b_at) in s.binding_at.iter() {
        let b_at = b_at as usize;
        let Some(set_at) = s.set_at.get(&var).map(|a| a as usize) else {
            continue;
        };
        if words[set_at] != itf::GROUP {
            continue;
        }
        let b = words[b_at];
        if let Some(file) = files.iter().position(|&f| f == b) {
            blocks.push((var, file));
            rebind.push((set_at, b_at, uniform_set, 0));
        } else if b == itf::DRIVER_BINDING {
            rebind.push((set_at, b_at, uniform_set, 1));
        } else if (tex_base..tex_base + 2 * samplers).contains(&b) {
            rebind.push((set_at, b_at, sampler_set, (b - tex_base) / 2));
        }
    }
    // Every index into a register block must be a constant register the slots place, or
    // (float registers) an index computed at run time into the one constant-table array
    // MojoShader places for relative addressing (all arrays the same shift).
    let file_of = |base: u32| blocks.iter().find(|(v, _)| *v == base).map(|(_, f)| *f);
    let mut shifts = slots.array_shifts.clone();
    shifts.sort_unstable();
    shifts.dedup();
    let mut kept = None;
    let mut index_edits = Vec::new();
    let mut shift_edits = Vec::new();
    for &(base, chain_at) in &s.chains {
        let Some(file) = file_of(base) else { continue };
        let idx_at = chain_at + 5;
        match s.constants.get(&words[idx_at]) {
            Some((ty, reg, c_at)) => match slots.slot(file, reg) {
                Some(slot) => index_edits.push((idx_at, ty, slot, c_at as usize)),
                None => kept = Some("a register MojoShader's uniform list does not hold"),
            },
            None => match (file, shifts.as_slice(), s.result_type.get(&words[idx_at])) {
                (0, &[shift], Some(ty)) if s.first_constant.contains_key(&ty) => {
                    shift_edits.push((chain_at, ty, shift));
                }
                _ => kept = Some("relative addressing outside one constant-table array"),
            },
        }
    }
    // The blocks' arrays: (length operand offset, length type, new length, offset literal
    // offset, new offset).
    let mut array_edits = Vec::new();
    for &(var, file) in &blocks {
        let arr = s
            .var_type
            .get(&var)
            .and_then(|p| s.pointee.get(&p))
            .and_then(|st| s.member0.get(&st).map(|a| (st, a)));
        let Some((st, arr)) = arr else {
            kept = Some("a register block of an unexpected shape");
            continue;
        };
        let (Some(len_at), Some(off_at)) = (s.array_len_at.get(&arr), s.offset_at.get(&st)) else {
            kept = Some("a register block of an unexpected shape");
            continue;
        };
        let (len_at, off_at) = (len_at as usize, off_at as usize);
        let Some((ty, _, c_at)) = s.constants.get(&words[len_at]) else {
            kept = Some("a register block of an unexpected shape");
            continue;
        };
        let c_at = c_at as usize;
        let before: u32 = slots.counts[..file].iter().sum();
        array_edits.push((
            len_at,
            ty,
            slots.counts[file].max(1),
            c_at,
            off_at,
            16 * before,
        ));
    }
    for &(set_at, b_at, set, binding) in &rebind {
        words[set_at] = set;
        words[b_at] = binding;
    }
    if kept.is_some() {
        // The register blocks stay indexed by register number, off the binding the glue
        // fills: bindings 2 (float), 3 (integer), 4 (boolean) of the uniform set.
        for &(var, file) in &blocks {
            if let Some(b_at) = s.binding_at.get(&var) {
                words[b_at as usize] = 2 + file as u32;
            }
        }
        return (words, kept);
    }
    // New constants, each after the first constant of its type (so before any use), and
    // the shifted indices, each before its access chain: (offset, instruction).
    let mut bound = words[3];
    let mut fresh: HashMap<(u32, u32), u32> = HashMap::new();
    let mut inserts: Vec<(usize, Vec<u32>)> = Vec::new();
    let mut constant = |ty: u32, value: u32, c_at: usize, words: &[u32], bound: &mut u32| -> u32 {
        *fresh.entry((ty, value)).or_insert_with(|| {
            let id = *bound;
            *bound += 1;
            let after = c_at + (words[c_at] >> 16) as usize;
            inserts.push((after, vec![(4 << 16) | OP_CONSTANT, ty, id, value]));
            id
        })
    };
    let mut edits = Vec::new();
    for &(idx_at, ty, slot, c_at) in &index_edits {
        edits.push((idx_at, constant(ty, slot, c_at, &words, &mut bound)));
    }
    for &(len_at, ty, len, c_at, off_at, offset) in &array_edits {
        edits.push((len_at, constant(ty, len, c_at, &words, &mut bound)));
        edits.push((off_at, offset));
    }
    let mut adds = Vec::new();
    for &(chain_at, ty, shift) in &shift_edits {
        let first = s
            .first_constant
            .get(&ty)
            .expect("checked when the edit was recorded") as usize;
        let c = constant(ty, shift, first, &words, &mut bound);
        let id = bound;
        bound += 1;
        adds.push((
            chain_at,
            vec![(5 << 16) | OP_IADD, ty, id, words[chain_at + 5], c],
        ));
        edits.push((chain_at + 5, id));
    }
    inserts.extend(adds);
    for (at, value) in edits {
        words[at] = value;
    }
    words[3] = bound;
    if inserts.is_empty() {
        return (words, None);
    }
    inserts.sort_by_key(|i| i.0);
    let mut out = Vec::with_capacity(words.len() + 5 * inserts.len());
    let mut next = inserts.iter().peekable();
    for (at, &w) in words.iter().enumerate() {
        while let Some((_, inst)) = next.next_if(|i| i.0 == at) {
            out.extend_from_slice(inst);
        }
        out.push(w);
    }
    for (_, inst) in next {
        out.extend_from_slice(inst);
    }
    (out, None)
}

/// Which varyings and colour outputs MojoShader's table records (`spv_link_vs_attributes`,
/// `spv_link_ps_attributes`): a vertex shader's outputs its answer lists (d3dbc's
/// shaders below vs_3_0 write every fixed varying), `oFog` and `oPts` below vs_3_0 as
/// `(FOG, 1)` and `(POINTSIZE, 2)` (MojoShader takes the rasterizer register number as
/// the index, and so makes `oPts` a varying); every input of a
/// pixel shader (`v#`, `t#`); the colour outputs `oC#` from ps_2_0 on (a ps_1_x's `r0`
/// output has no entry).
struct Records {
    vertex: bool,
    major: c_int,
    outputs: Vec<(c_int, c_int)>,
}

const USAGE_FOG: usize = 11;
const USAGE_POINTSIZE: usize = 4;

/// Where the module's varying and colour-output locations are (those [`Records`] says).
fn patch_table(words: &[u32], r: &Records, table: &mut SpirvPatchTable) {
    let vertex = r.vertex;
    // Storage class of each variable id (ids are below the header's bound).
    let bound = words.get(3).copied().unwrap_or(0).min(1 << 22) as usize;
    let mut storage = vec![0u32; bound];
    let mut decorations = Vec::new();
    for (at, op, w) in instructions(words) {
        if op == OP_VARIABLE && w.len() >= 4 {
            if let Some(slot) = storage.get_mut(w[2] as usize) {
                *slot = w[3];
            }
        } else if op == OP_DECORATE && w.len() >= 4 && w[2] == DECORATION_LOCATION {
            decorations.push((w[1], at + 3));
        }
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
                let (u, mut i) = (usage as usize, index as usize);
                if vertex && r.major < 3 && i == 0 {
                    if u == USAGE_FOG {
                        i = 1;
                    } else if u == USAGE_POINTSIZE {
                        i = 2;
                    }
                }
                let record = !vertex || r.outputs.contains(&(u as c_int, i as c_int));
                if u < USAGE_TOTAL && i < 16 && record {
                    table.attrib_offsets[u][i] = offset as u32;
                }
            }
        } else if !vertex && class == Some(STORAGE_OUTPUT) && location < 16 && r.major >= 2 {
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
/// Offsets the table does not have are skipped (MojoShader writes word 0 there). Pixel
/// inputs the table records but the answer does not list (ps_1_x `t#`, which MojoShader
/// leaves at 0xDEADBEEF) take the next locations, with the vertex outputs that feed
/// them. The
/// vertex outputs the table does not list (d3dbc's fixed varyings a shader below vs_3_0
/// always writes) take the locations after all those.
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
