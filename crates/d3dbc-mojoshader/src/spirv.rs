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
//! index computed at run time (relative addressing, which MojoShader allows only inside an
//! array) is shifted by the slot minus the first register of the array its base register
//! `n` of `c[a0 + n]` is in (read back through d3dbc's `UMin(Bitcast(IAdd(a, n)))`), then
//! clamped to the block's new length; a read relative to a `def` array (which MojoShader
//! reads from an array inside its module, and d3dbc's selects by index) is left unshifted.
//! Relative addressing MojoShader refuses (no constant table, or a register outside every
//! array) gets one array uniform over the whole float file in the answer (`parse.rs`), so
//! there the register is its slot. Where a relative index has another shape across arrays
//! of different shifts, the module keeps its register-indexed blocks, in the uniform set
//! at bindings 2 (float), 3 (integer) and 4 (boolean), off the buffer the glue fills (the
//! differential test lists such shaders; none in the corpus, FNA's effects or the
//! test's probes). d3dbc's driver uniforms, which
//! MojoShader does not have, go to binding 1 of the uniform set: the face asks for no
//! position fix-up (MojoShader's Vulkan mode does none), so only state such as ps_1_x's
//! bump-environment matrix reads them (MojoShader puts that in two float slots after the
//! uniforms, which its glue never fills).
//!
//! **Position.** The vertex position is written as the shader computes it, in D3D's clip
//! space (y up), as MojoShader's Vulkan mode writes it: its renderers flip y with the
//! viewport (SDL_GPU's Vulkan back end draws with a negative viewport height), so the
//! face does not ask d3dbc-spirv to negate y (`EmitFlags::adjust_y`), which would draw
//! every image upside down there (`d3dbc-gpu`'s `mojoshader_face_draw` test draws the
//! oracles' pairs that way).
//!
//! **Patch table.** In Vulkan mode MojoShader records no uniform or sampler patches:
//! `vpflip`, `array_*` and `samplers[]` have offset 0 and location −1, `location_count`
//! is 0 — and so does the face. `attrib_offsets[usage][index]` hold the word index of
//! each varying's `Location` literal and `output_offsets[n]` those of the colour outputs,
//! for the varyings MojoShader records (`Records`), read from the module d3dbc's
//! emitter wrote (the interface it reports says which location is which
//! `(usage, index)`), so MojoShader's linker and the face's assign the same compact
//! locations. Vertex input locations are the `v#` register in both. A vertex shader's
//! inputs also carry MojoShader's `attrib_type_*` patch points, which the linker uses to
//! retype inputs of integer vertex formats (`typed_inputs`).

mod link;

use std::ffi::c_int;

pub(crate) use link::link;

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
    // MojoShader's Vulkan mode adds nothing to the position: no half-pixel fix-up and
    // no negated y (its renderers flip with the viewport: SDL_GPU's Vulkan back end
    // draws with a negative viewport height).
    options.pipeline.position_fixup = false;
    // A ps_1_x's samplers have the kinds the sampler map gives them (MojoShader declares
    // a cube or volume image for them; the kinds of a ps_2_0 and later come from `dcl`).
    if plan.major < 2 {
        options.pipeline.sm1_sampler_kinds = plan.sampler_kinds();
    }
    let flags = d3dbc_spirv::EmitFlags { adjust_y: false };
    let words = d3dbc_spirv::emit_with(shader, &options, flags).map_err(|e| Failure {
        message: e.to_string(),
        position: crate::types::POSITION_BEFORE,
    })?;
    let vertex = plan.shader_type == crate::types::TYPE_VERTEX;
    let records = Records {
        vertex,
        major: plan.major,
        plan,
    };
    STATE.with_borrow_mut(|state| {
        let State { scan, work, spare } = state;
        let mut table = TablePatches(std::mem::take(&mut spare.patches));
        scan.read(&words, vertex);
        // Before the rewrite, which leaves the `Location` literals as they are and
        // where they are (annotations precede every instruction it inserts).
        patch_table(scan, &words, &records, &mut table);
        plan.uniform_slots_into(&mut work.slots);
        let (words, _) = relayout(scan, work, spare, words, vertex);
        let (words, loads) = if vertex {
            typed_inputs(words, scan, work, spare, plan, &mut table)
        } else {
            (words, Loads::default())
        };
        Ok(Output::Spirv {
            words,
            table,
            loads,
        })
    })
}

/// What a `spirv` answer changes in [`SpirvPatchTable::VULKAN`]: `(word index in the
/// table, value)`, written over the constant's copy in the answer (building a 7 KB table
/// per parse to copy it again was most of the bytes a parse moved).
#[derive(Default)]
pub(crate) struct TablePatches(pub Vec<(u32, u32)>);

impl TablePatches {
    fn set(&mut self, byte_offset: usize, value: u32) {
        self.0.push(((byte_offset / 4) as u32, value));
    }

    /// `attrib_offsets[usage][index]`.
    fn attrib_offset(&mut self, usage: usize, index: usize, value: u32) {
        let at = std::mem::offset_of!(SpirvPatchTable, attrib_offsets) + 4 * (usage * 16 + index);
        self.set(at, value);
    }

    /// `attrib_type_offsets[usage][index]`.
    fn attrib_type_offset(&mut self, usage: usize, index: usize, value: u32) {
        let at =
            std::mem::offset_of!(SpirvPatchTable, attrib_type_offsets) + 4 * (usage * 16 + index);
        self.set(at, value);
    }

    /// `output_offsets[n]`.
    fn output_offset(&mut self, n: usize, value: u32) {
        self.set(
            std::mem::offset_of!(SpirvPatchTable, output_offsets) + 4 * n,
            value,
        );
    }
}

/// What a `spirv` parse keeps per thread so that, once warm, it allocates little and
/// writes into memory the cache holds: the scan of the module, the rewrite's lists, and
/// spare module buffers and a patch list (an answer's come back when it is laid out,
/// [`recycle`]).
#[derive(Default)]
struct State {
    scan: Scan,
    work: Work,
    spare: Spare,
}

/// Spare buffers: modules' words (and the loads' offsets), the table's patch list.
#[derive(Default)]
struct Spare {
    words: Vec<Vec<u32>>,
    patches: Vec<(u32, u32)>,
}

/// Buffers kept: a few, none over 1 M words (a larger module's buffer is freed).
const SPARE_BUFFERS: usize = 4;
const SPARE_WORDS: usize = 1 << 20;

impl Spare {
    /// An empty buffer with room for `n` words: the largest spare one, or a new one
    /// where that is too small (growing it would copy its old contents).
    fn words(&mut self, n: usize) -> Vec<u32> {
        match self.words.pop() {
            Some(mut v) if v.capacity() >= n => {
                v.clear();
                v
            }
            _ => Vec::with_capacity(n),
        }
    }

    /// Keeps `v`, in place of the smallest spare buffer where there are enough (the
    /// buffers stay sorted by capacity, the largest last).
    fn keep(&mut self, v: Vec<u32>) {
        if v.capacity() > SPARE_WORDS {
            return;
        }
        if self.words.len() == SPARE_BUFFERS {
            if self.words[0].capacity() >= v.capacity() {
                return;
            }
            self.words.remove(0);
        }
        let at = self.words.partition_point(|w| w.capacity() <= v.capacity());
        self.words.insert(at, v);
    }
}

thread_local! {
    static STATE: std::cell::RefCell<State> = std::cell::RefCell::default();
}

/// Takes back the buffers of a `spirv` output once it is laid out for C.
pub(crate) fn recycle(words: Vec<u32>, table: TablePatches, loads: Loads) {
    // `try_with`: during the thread's teardown the buffers are simply freed.
    let _ = STATE.try_with(|s| {
        if let Ok(mut s) = s.try_borrow_mut() {
            s.spare.keep(words);
            s.spare.keep(loads.words);
            let mut patches = table.0;
            patches.clear();
            s.spare.patches = patches;
        }
    });
}

/// A relatively addressed read to shift: `(access chain offset, index type, shift, the
/// extended-instruction set and bound of the `UMin` clamping it)`.
type ShiftEdit = (usize, u32, u32, Option<(u32, u32)>);

/// The rewrite's lists (cleared before each use).
#[derive(Default)]
struct Work {
    slots: UniformSlots,
    index: SlotIndex,
    blocks: Vec<(u32, usize, usize)>,
    rebind: Vec<(usize, usize, u32, u32)>,
    shifts: Vec<u32>,
    index_edits: Vec<(usize, u32, u32, usize)>,
    /// `(access chain, index type, shift, clamp)` of each relatively addressed read.
    shift_edits: Vec<ShiftEdit>,
    body: Vec<u32>,
    array_edits: Vec<(usize, u32, u32, usize, usize, u32)>,
    fresh: Vec<((u32, u32), u32)>,
    inserts: Vec<(usize, [u32; 7], usize)>,
    adds: Vec<(usize, [u32; 7], usize)>,
    edits: Vec<(usize, u32)>,
    /// The instructions `relayout` inserted: `(word offset in the module before, words)`,
    /// in order (each before the instruction at its offset).
    inserted: Vec<(usize, usize)>,
    moved: Vec<(u32, usize, usize, usize)>,
    loads: Vec<(usize, usize)>,
    types: Vec<u32>,
    skips: Vec<usize>,
}

/// A module in MojoShader's resource layout, and why its register blocks kept d3dbc's
/// register-indexed layout, if they did (the instructions it inserted are in
/// [`Work::inserted`]).
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
const OP_EXT_INST: u32 = 12;
const OP_BITCAST: u32 = 124;
/// GLSL.std.450's `UMin`.
const GLSL_UMIN: u32 = 38;
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

/// The largest id bound the scan keeps its dense map for (d3dbc-spirv's modules stay
/// far below it; a larger bound is not one of its modules and maps nothing).
const MAX_BOUND: usize = 1 << 22;

/// "No definition" in [`Scan::def`].
const NONE: u32 = u32::MAX;

/// What the rewrite and the patch table read of a module, in one pass over its words,
/// kept per thread so that a parse allocates nothing for it once warm. Everything the
/// rewrite asks — a variable's pointer type, a pointer's pointee, a struct's first
/// member, an array's length, a constant's type and value, a variable's storage class —
/// is read at the word offset of the id's defining instruction ([`Scan::def`], dense
/// below the id bound: one store per global instruction); decorations, which are few,
/// are listed.
#[derive(Default)]
struct Scan {
    /// Word offset of the instruction defining each id of the global section (types,
    /// constants, variables), [`NONE`] for the others.
    def: Vec<u32>,
    /// `(target, word offset of the literal)` of the `DescriptorSet` decorations, in
    /// module order.
    sets: Vec<(u32, u32)>,
    /// `(target, word offset of the literal, that of the target's `DescriptorSet`
    /// literal or [`NONE`])` of the `Binding` decorations, in module order.
    bindings: Vec<(u32, u32, u32)>,
    /// `(target, word offset of the literal)` of the `Location` decorations, in module
    /// order.
    locations: Vec<(u32, u32)>,
    /// `(struct, word offset of the literal)` of each member-0 `Offset` decoration.
    offsets: Vec<(u32, u32)>,
    /// `(type, word offset)` of the first `OpConstant` of each type.
    first_constant: Vec<(u32, u32)>,
    /// Access chains in function bodies: `(base, word offset of the instruction)`.
    chains: Vec<(u32, usize)>,
    /// Word offset of the first function.
    body: usize,
    /// The 32-bit float type, and the 32-bit integer types (unsigned, signed).
    float: Option<u32>,
    ints: [Option<u32>; 2],
    /// `(component type, id)` of each 4-component vector type.
    vec4s: Vec<(u32, u32)>,
    /// `(pointee, id)` of each `Input` pointer type.
    input_ptrs: Vec<(u32, u32)>,
    /// `(id, pointer type, word offset)` of each `Input` variable.
    input_vars: Vec<(u32, u32, usize)>,
    /// `(word offset, variable)` of each 4-word `OpLoad` of an `Input` variable.
    input_loads: Vec<(usize, u32)>,
}

impl Scan {
    /// Reads `words` (a module with its header); the loads of `Input` variables only
    /// for a vertex shader (`typed_inputs`).
    fn read(&mut self, words: &[u32], vertex: bool) {
        let bound = (words.get(3).copied().unwrap_or(0) as usize).min(MAX_BOUND);
        self.def.clear();
        self.def.resize(bound, NONE);
        self.sets.clear();
        self.bindings.clear();
        self.locations.clear();
        self.offsets.clear();
        self.first_constant.clear();
        self.chains.clear();
        self.body = words.len();
        self.float = None;
        self.ints = [None; 2];
        self.vec4s.clear();
        self.input_ptrs.clear();
        self.input_vars.clear();
        self.input_loads.clear();
        let mut at = 5;
        // The global section: annotations, types, constants, variables.
        while let Some(&first) = words.get(at) {
            let len = (first >> 16) as usize;
            let Some(w) = words.get(at..at + len).filter(|_| len > 0) else {
                return;
            };
            let op = first & 0xFFFF;
            match op {
                OP_FUNCTION => {
                    self.body = at;
                    break;
                }
                OP_DECORATE if len >= 4 => {
                    let literal = (at + 3) as u32;
                    match w[2] {
                        DECORATION_DESCRIPTOR_SET => self.sets.push((w[1], literal)),
                        DECORATION_BINDING => {
                            // d3dbc's emitter decorates a variable's set just before its
                            // binding (others are found after the section).
                            let set = match self.sets.last() {
                                Some(&(t, set)) if t == w[1] => set,
                                _ => NONE,
                            };
                            self.bindings.push((w[1], literal, set));
                        }
                        DECORATION_LOCATION => self.locations.push((w[1], literal)),
                        _ => {}
                    }
                }
                OP_MEMBER_DECORATE if len >= 5 && w[2] == 0 && w[3] == DECORATION_OFFSET => {
                    self.offsets.push((w[1], (at + 4) as u32));
                }
                OP_TYPE_POINTER | OP_TYPE_STRUCT | OP_TYPE_ARRAY if len >= 3 => {
                    self.define(w[1], at);
                    if op == OP_TYPE_POINTER && len == 4 && w[2] == STORAGE_INPUT {
                        self.input_ptrs.push((w[3], w[1]));
                    }
                }
                OP_VARIABLE if len >= 4 => {
                    self.define(w[2], at);
                    if len == 4 && w[3] == STORAGE_INPUT {
                        self.input_vars.push((w[2], w[1], at));
                    }
                }
                OP_TYPE_FLOAT if len == 3 && w[2] == 32 => self.float = Some(w[1]),
                OP_TYPE_INT if len == 4 && w[2] == 32 => {
                    self.ints[usize::from(w[3] != 0)] = Some(w[1]);
                }
                OP_TYPE_VECTOR if len == 4 && w[3] == 4 => self.vec4s.push((w[2], w[1])),
                OP_CONSTANT if len == 4 => {
                    self.define(w[2], at);
                    if !self.first_constant.iter().any(|&(t, _)| t == w[1]) {
                        self.first_constant.push((w[1], at as u32));
                    }
                }
                _ => {}
            }
            at += len;
        }
        // The set of a binding not just after it: the target's first set decoration.
        for b in self.bindings.iter_mut().filter(|b| b.2 == NONE) {
            b.2 = self.sets.iter().find(|s| s.0 == b.0).map_or(NONE, |s| s.1);
        }
        // Function bodies: the access chains, and a vertex shader's input loads.
        while let Some(&first) = words.get(at) {
            let len = (first >> 16) as usize;
            let Some(w) = words.get(at..at + len).filter(|_| len > 0) else {
                return;
            };
            match first {
                _ if len >= 6
                    && matches!(first & 0xFFFF, OP_ACCESS_CHAIN | OP_IN_BOUNDS_ACCESS_CHAIN) =>
                {
                    self.chains.push((w[3], at));
                }
                _ if vertex
                    && first == (4 << 16) | OP_LOAD
                    && self.storage(words, w[3]) == Some(STORAGE_INPUT) =>
                {
                    self.input_loads.push((at, w[3]));
                }
                _ => {}
            }
            at += len;
        }
    }

    #[inline]
    fn define(&mut self, id: u32, at: usize) {
        if let Some(slot) = self.def.get_mut(id as usize) {
            *slot = at as u32;
        }
    }

    /// The words of the global instruction defining `id` with opcode `op` and at least
    /// `min` words.
    fn defined<'w>(&self, words: &'w [u32], id: u32, op: u32, min: usize) -> Option<&'w [u32]> {
        let at = *self.def.get(id as usize)? as usize;
        let first = *words.get(at)?;
        let len = (first >> 16) as usize;
        (first & 0xFFFF == op && len >= min)
            .then(|| words.get(at..at + len))
            .flatten()
    }

    /// A constant's `(type, value, offset of its type's first constant)`.
    fn constant(&self, words: &[u32], id: u32) -> Option<(u32, u32, u32)> {
        let w = self.defined(words, id, OP_CONSTANT, 4)?;
        Some((w[1], w[3], self.first_of(w[1])?))
    }

    /// The offset of the first constant of type `ty`.
    fn first_of(&self, ty: u32) -> Option<u32> {
        self.first_constant
            .iter()
            .find(|&&(t, _)| t == ty)
            .map(|&(_, at)| at)
    }

    /// The literal offset of `id`'s `Location` decoration.
    fn location(&self, id: u32) -> Option<usize> {
        self.locations
            .iter()
            .find(|l| l.0 == id)
            .map(|l| l.1 as usize)
    }

    /// The storage class of variable `id`.
    fn storage(&self, words: &[u32], id: u32) -> Option<u32> {
        self.defined(words, id, OP_VARIABLE, 4).map(|w| w[3])
    }

    /// The word offset of the instruction defining each id in the function bodies,
    /// dense below the id bound, into `out` (a body instruction with result type and
    /// result has them at words 1 and 2; the last one with that result word wins).
    fn body_defs(&self, words: &[u32], out: &mut Vec<u32>) {
        out.clear();
        out.resize(self.def.len(), NONE);
        for (at, _, w) in instructions(words) {
            if at >= self.body && w.len() >= 3 {
                if let Some(slot) = out.get_mut(w[2] as usize) {
                    *slot = at as u32;
                }
            }
        }
    }

    /// The extended-instruction set and the bound of the `UMin` that computes index `id`
    /// (`body`: [`Scan::body_defs`]), if it is one with a constant bound.
    fn clamp(&self, words: &[u32], body: &[u32], id: u32) -> Option<(u32, u32)> {
        let w = body_def(words, body, id)?;
        (w[0] == (7 << 16) | OP_EXT_INST && w[4] == GLSL_UMIN)
            .then(|| Some((w[3], self.constant(words, w[6])?.1)))
            .flatten()
    }

    /// The register `n` of a relatively addressed float read `c[a + n]` whose clamped
    /// index is `id`, as d3dbc's emitter computes it (`UMin(Bitcast(IAdd(a, n)), last)`;
    /// `body`: [`Scan::body_defs`]); `None` for another shape.
    fn relative_base(&self, words: &[u32], body: &[u32], mut id: u32) -> Option<u32> {
        for _ in 0..3 {
            let w = body_def(words, body, id)?;
            match (w[0] & 0xFFFF, w.len()) {
                (OP_EXT_INST, 7..) => id = w[5],
                (OP_BITCAST, 4) => id = w[3],
                (OP_IADD, 5) => return self.constant(words, w[4]).map(|c| c.1),
                _ => return None,
            }
        }
        None
    }
}

/// The words of the body instruction defining `id` (`body`: [`Scan::body_defs`]).
fn body_def<'w>(words: &'w [u32], body: &[u32], id: u32) -> Option<&'w [u32]> {
    let at = body.get(id as usize).copied().filter(|&a| a != NONE)? as usize;
    let len = (*words.get(at)? >> 16) as usize;
    words.get(at..at + len).filter(|_| len > 0)
}

/// A register → slot lookup for each of the three files, dense over the registers the
/// slots name.
#[derive(Default)]
struct SlotIndex([Vec<u32>; 3]);

impl SlotIndex {
    fn fill(&mut self, slots: &UniformSlots) {
        for (v, list) in self
            .0
            .iter_mut()
            .zip([&slots.float, &slots.int, &slots.bool])
        {
            let n = list.iter().map(|&(r, _)| r as usize + 1).max().unwrap_or(0);
            v.clear();
            v.resize(n, NONE);
            // The first listing of a register wins, as a search of the list finds it.
            for &(r, s) in list.iter().rev() {
                v[r as usize] = s;
            }
        }
    }

    fn slot(&self, file: usize, reg: u32) -> Option<u32> {
        self.0[file]
            .get(reg as usize)
            .copied()
            .filter(|&s| s != NONE)
    }
}

/// Rewrites d3dbc's fixed set-0 layout into MojoShader's (the module doc); `s` is the
/// scan of `words`.
fn relayout(
    s: &Scan,
    w: &mut Work,
    spare: &mut Spare,
    mut words: Vec<u32>,
    vertex: bool,
) -> Layout {
    use d3dbc::target::interface as itf;
    let Work {
        slots,
        index,
        blocks,
        rebind,
        shifts,
        index_edits,
        shift_edits,
        body,
        array_edits,
        fresh,
        inserts,
        adds,
        edits,
        inserted,
        ..
    } = w;
    for list in [&mut *shifts, &mut *body] {
        list.clear();
    }
    blocks.clear();
    rebind.clear();
    index_edits.clear();
    shift_edits.clear();
    array_edits.clear();
    fresh.clear();
    inserts.clear();
    adds.clear();
    edits.clear();
    inserted.clear();
    if words.len() < 5 {
        return (words, None);
    }
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
    // The register blocks: (variable, file, binding literal offset).
    for &(var, b_at, set_at) in &s.bindings {
        if set_at == NONE {
            continue;
        }
        let (b_at, set_at) = (b_at as usize, set_at as usize);
        if words[set_at] != itf::GROUP {
            continue;
        }
        let b = words[b_at];
        if let Some(file) = files.iter().position(|&f| f == b) {
            blocks.push((var, file, b_at));
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
    index.fill(slots);
    let file_of = |base: u32| blocks.iter().find(|b| b.0 == base).map(|b| b.1);
    shifts.extend(slots.arrays.iter().map(|a| a.2));
    shifts.sort_unstable();
    shifts.dedup();
    let mut kept = None;
    // `body`: the defining instructions in the bodies, read at the first index computed
    // at run time.
    for &(base, chain_at) in &s.chains {
        let Some(file) = file_of(base) else { continue };
        let idx_at = chain_at + 5;
        match s.constant(&words, words[idx_at]) {
            Some((ty, reg, c_at)) => match index.slot(file, reg) {
                Some(slot) => index_edits.push((idx_at, ty, slot, c_at as usize)),
                None => kept = Some("a register MojoShader's uniform list does not hold"),
            },
            None => {
                if body.is_empty() {
                    s.body_defs(&words, body);
                }
                let ty = body_def(&words, body, words[idx_at]).and_then(|w| w.get(1).copied());
                let ty = match ty {
                    Some(ty) if file == 0 && s.first_of(ty).is_some() => ty,
                    _ => {
                        kept = Some("relative addressing of an unexpected shape");
                        continue;
                    }
                };
                // The array the read is relative to, by its base register (MojoShader
                // allows relative addressing only inside one array); where the base
                // cannot be read, the one shift of all the arrays.
                let base = s.relative_base(&words, body, words[idx_at]);
                let array =
                    base.map(|n| slots.arrays.iter().find(|a| (a.0..a.0 + a.1).contains(&n)));
                let shift = match (array, shifts.as_slice()) {
                    (Some(Some(a)), _) => a.2,
                    (None, &[shift]) => shift,
                    // Only `def` arrays, which MojoShader's module reads from an array in
                    // the shader: d3dbc's module selects the `def` values by index and
                    // reads the block only for a register outside them, where
                    // MojoShader's array has nothing; the block is read unshifted there.
                    (Some(None), _) | (None, &[]) => 0,
                    (None, _) => {
                        kept = Some("relative addressing with no base register, across arrays of different shifts");
                        continue;
                    }
                };
                // d3dbc clamps the index to its register block (`UMin`); the block now has
                // MojoShader's length, so the shifted index is clamped again to it.
                let clamp = s.clamp(&words, body, words[idx_at]);
                shift_edits.push((chain_at, ty, shift, clamp));
            }
        }
    }
    // The blocks' arrays: (length operand offset, length type, new length, offset literal
    // offset, new offset).
    for &(var, file, _) in blocks.iter() {
        let arr = s
            .defined(&words, var, OP_VARIABLE, 4)
            .and_then(|v| s.defined(&words, v[1], OP_TYPE_POINTER, 4))
            .and_then(|p| {
                s.defined(&words, p[3], OP_TYPE_STRUCT, 3)
                    .map(|st| (p[3], st[2]))
            });
        let shape = arr.and_then(|(st, arr)| {
            s.defined(&words, arr, OP_TYPE_ARRAY, 4)?;
            let len_at = s.def[arr as usize] as usize + 3;
            let off_at = s.offsets.iter().find(|o| o.0 == st)?.1 as usize;
            let (ty, _, c_at) = s.constant(&words, words[len_at])?;
            Some((len_at, off_at, ty, c_at as usize))
        });
        let Some((len_at, off_at, ty, c_at)) = shape else {
            kept = Some("a register block of an unexpected shape");
            continue;
        };
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
    for &(set_at, b_at, set, binding) in rebind.iter() {
        words[set_at] = set;
        words[b_at] = binding;
    }
    if kept.is_some() {
        // The register blocks stay indexed by register number, off the binding the glue
        // fills: bindings 2 (float), 3 (integer), 4 (boolean) of the uniform set.
        for &(_, file, b_at) in blocks.iter() {
            words[b_at] = 2 + file as u32;
        }
        return (words, kept);
    }
    // New constants, each after the first constant of its type (so before any use), and
    // the shifted indices, each before its access chain: (offset, instruction, its
    // length).
    let mut bound = words[3];
    let mut constant = |ty: u32, value: u32, c_at: usize, words: &[u32], bound: &mut u32| -> u32 {
        if let Some(&(_, id)) = fresh.iter().find(|f| f.0 == (ty, value)) {
            return id;
        }
        let id = *bound;
        *bound += 1;
        let after = c_at + (words[c_at] >> 16) as usize;
        inserts.push((after, [(4 << 16) | OP_CONSTANT, ty, id, value, 0, 0, 0], 4));
        fresh.push(((ty, value), id));
        id
    };
    for &(idx_at, ty, slot, c_at) in index_edits.iter() {
        edits.push((idx_at, constant(ty, slot, c_at, &words, &mut bound)));
    }
    for &(len_at, ty, len, c_at, off_at, offset) in array_edits.iter() {
        edits.push((len_at, constant(ty, len, c_at, &words, &mut bound)));
        edits.push((off_at, offset));
    }
    let last = slots.counts[0].max(1) - 1;
    for &(chain_at, ty, shift, clamp) in shift_edits.iter() {
        let first = s.first_of(ty).expect("checked when the edit was recorded") as usize;
        let mut index = words[chain_at + 5];
        if shift != 0 {
            let c = constant(ty, shift, first, &words, &mut bound);
            let id = bound;
            bound += 1;
            adds.push((chain_at, [(5 << 16) | OP_IADD, ty, id, index, c, 0, 0], 5));
            index = id;
        }
        if let Some((set, _)) = clamp.filter(|&(_, b)| shift != 0 || b > last) {
            let c = constant(ty, last, first, &words, &mut bound);
            let id = bound;
            bound += 1;
            adds.push((
                chain_at,
                [(7 << 16) | OP_EXT_INST, ty, id, set, GLSL_UMIN, index, c],
                7,
            ));
            index = id;
        }
        edits.push((chain_at + 5, index));
    }
    inserts.append(adds);
    for &(at, value) in edits.iter() {
        words[at] = value;
    }
    words[3] = bound;
    if inserts.is_empty() {
        return (words, None);
    }
    // Stable: instructions inserted at one offset keep the order they were made in.
    inserts.sort_by_key(|i| i.0);
    let extra: usize = inserts.iter().map(|i| i.2).sum();
    let mut out = spare.words(words.len() + extra);
    let mut from = 0;
    for (at, inst, len) in inserts.iter() {
        out.extend_from_slice(&words[from..*at]);
        out.extend_from_slice(&inst[..*len]);
        from = *at;
    }
    out.extend_from_slice(&words[from..]);
    inserted.extend(inserts.iter().map(|i| (i.0, i.2)));
    spare.keep(words);
    (out, None)
}

const OP_TYPE_INT: u32 = 21;
const OP_TYPE_FLOAT: u32 = 22;
const OP_TYPE_VECTOR: u32 = 23;
const OP_LOAD: u32 = 61;
const OP_COPY_OBJECT: u32 = 83;
const OP_CONVERT_S_TO_F: u32 = 111;
const OP_CONVERT_U_TO_F: u32 = 112;

/// The loads of each vertex input `(usage, index)` (MojoShader's
/// `attrib_type_load_offsets`): for each, the word offsets of its loads' result types
/// and of the first words of the `OpCopyObject`s after them, kept in one run of words
/// (`usage, index, n`, then the `n` type offsets, then the `n` opcode offsets).
#[derive(Default)]
pub(crate) struct Loads {
    words: Vec<u32>,
}

impl Loads {
    /// `(usage, index, type offsets, opcode offsets)` of each input with loads.
    pub fn each(&self) -> impl Iterator<Item = (usize, usize, &[u32], &[u32])> {
        let mut rest = &self.words[..];
        std::iter::from_fn(move || {
            let (&[u, i, n], tail) = rest.split_first_chunk::<3>()?;
            let n = n as usize;
            let (types, tail) = tail.split_at_checked(n)?;
            let (opcodes, tail) = tail.split_at_checked(n)?;
            rest = tail;
            Some((u as usize, i as usize, types, opcodes))
        })
    }
}

/// Makes a vertex shader's inputs retypable by `MOJOSHADER_linkSPIRVShaders` for
/// integer vertex formats, as MojoShader's own modules are: each input `vec4` variable
/// (the inputs `plan` lists; the variable's `Location` is its `v#`) moves to the
/// end of the global section, after `uvec4`/`ivec4` types and `Input` pointers to them
/// (declared there where the module has none), and each load of it is followed by an
/// `OpCopyObject` of the value (the load's result renamed), which the linker turns into
/// `OpConvertUToF`/`OpConvertSToF` when it changes the variable and the load to the
/// integer type (`BYTE4`; `SHORT2`/`SHORT4`). The table gets the ids (`tid_*`) and the
/// word offsets (`attrib_type_offsets`, and the loads returned for
/// `attrib_type_load_offsets`). A module of another shape is left as it is, with no
/// offsets (the linker then changes nothing).
fn typed_inputs(
    words: Vec<u32>,
    s: &Scan,
    w: &mut Work,
    spare: &mut Spare,
    plan: &Plan,
    table: &mut TablePatches,
) -> (Vec<u32>, Loads) {
    let Work {
        inserted,
        moved,
        loads,
        types,
        skips,
        ..
    } = w;
    moved.clear();
    loads.clear();
    types.clear();
    skips.clear();
    // `s` read the module before `relayout` inserted `inserted`: where an offset of it
    // is now.
    let now = |x: usize| {
        x + inserted
            .iter()
            .take_while(|i| i.0 <= x)
            .map(|i| i.1)
            .sum::<usize>()
    };
    if words.len() < 5 || s.body >= words.len() {
        return (words, Loads::default());
    }
    let first_fn = now(s.body);
    let Some(float) = s.float else {
        return (words, Loads::default());
    };
    let vector_of = |c: u32| s.vec4s.iter().find(|v| v.0 == c).map(|v| v.1);
    let Some(vec4) = vector_of(float) else {
        return (words, Loads::default());
    };
    let ptr_of = |t: u32| s.input_ptrs.iter().find(|p| p.0 == t).map(|p| p.1);
    let Some(vec4_p) = ptr_of(vec4) else {
        return (words, Loads::default());
    };
    // The input variables to retype: `vec4` ones at the location of a listed input:
    // (id, at, usage, index).
    for &(id, ptr, at) in &s.input_vars {
        let Some(location) = s.location(id).map(|at| words[at]) else {
            continue;
        };
        let Some((usage, index)) = plan.input_at(location) else {
            continue;
        };
        let (Ok(u), Ok(i)) = (usize::try_from(usage), usize::try_from(index)) else {
            continue;
        };
        if ptr == vec4_p && u < USAGE_TOTAL && i < 16 {
            moved.push((id, now(at), u, i));
        }
    }
    if moved.is_empty() {
        return (words, Loads::default());
    }
    // The loads of them (in function bodies): (offset, index into `moved`).
    loads.extend(s.input_loads.iter().filter_map(|&(at, var)| {
        let at = now(at);
        let k = moved.iter().position(|m| m.0 == var)?;
        (words.get(at + 1) == Some(&vec4)).then_some((at, k))
    }));
    // The types the linker may switch to, declared where missing.
    let mut bound = words[3];
    let mut fresh = || {
        let id = bound;
        bound += 1;
        id
    };
    let mut declare = |have: Option<u32>, inst: &dyn Fn(u32) -> [u32; 4], types: &mut Vec<u32>| {
        have.unwrap_or_else(|| {
            let id = fresh();
            types.extend_from_slice(&inst(id));
            id
        })
    };
    let uint = declare(s.ints[0], &|id| [(4 << 16) | OP_TYPE_INT, id, 32, 0], types);
    let int = declare(s.ints[1], &|id| [(4 << 16) | OP_TYPE_INT, id, 32, 1], types);
    let uvec4 = declare(
        vector_of(uint),
        &|id| [(4 << 16) | OP_TYPE_VECTOR, id, uint, 4],
        types,
    );
    let ivec4 = declare(
        vector_of(int),
        &|id| [(4 << 16) | OP_TYPE_VECTOR, id, int, 4],
        types,
    );
    let uvec4_p = declare(
        ptr_of(uvec4),
        &|id| [(4 << 16) | OP_TYPE_POINTER, id, STORAGE_INPUT, uvec4],
        types,
    );
    let ivec4_p = declare(
        ptr_of(ivec4),
        &|id| [(4 << 16) | OP_TYPE_POINTER, id, STORAGE_INPUT, ivec4],
        types,
    );
    // The module again, copied in runs between the edits: each variable skipped where
    // it was and written after the new types at the end of the global section; each
    // load (result renamed) followed by its copy.
    let mut out = spare.words(words.len() + types.len() + 4 * loads.len());
    let mut from = 0;
    skips.extend(moved.iter().map(|m| m.1));
    skips.sort_unstable();
    for &at in skips.iter() {
        out.extend_from_slice(&words[from..at]);
        from = at + 4;
    }
    out.extend_from_slice(&words[from..first_fn]);
    out.extend_from_slice(types);
    for m in moved.iter() {
        table.attrib_type_offset(m.2, m.3, (out.len() + 1) as u32);
        out.extend_from_slice(&words[m.1..m.1 + 4]);
    }
    from = first_fn;
    // Each load's place in `out` replaces its offset in `loads`.
    for (at, _) in loads.iter_mut() {
        out.extend_from_slice(&words[from..*at]);
        let tmp = fresh();
        let w = &words[*at..*at + 4];
        from = *at + 4;
        *at = out.len();
        out.extend_from_slice(&[w[0], w[1], tmp, w[3]]);
        out.extend_from_slice(&[(4 << 16) | OP_COPY_OBJECT, vec4, w[2], tmp]);
    }
    out.extend_from_slice(&words[from..]);
    out[3] = bound;
    use std::mem::offset_of;
    table.set(offset_of!(SpirvPatchTable, tid_vec4), vec4);
    table.set(offset_of!(SpirvPatchTable, tid_vec4_p), vec4_p);
    table.set(offset_of!(SpirvPatchTable, tid_uvec4), uvec4);
    table.set(offset_of!(SpirvPatchTable, tid_uvec4_p), uvec4_p);
    table.set(offset_of!(SpirvPatchTable, tid_ivec4), ivec4);
    table.set(offset_of!(SpirvPatchTable, tid_ivec4_p), ivec4_p);
    // The loads of each variable: the result type is the load's second word, the copy's
    // opcode the word after the load.
    let mut patches = spare.words(3 * moved.len() + 2 * loads.len());
    for (k, m) in moved.iter().enumerate() {
        let n = loads.iter().filter(|l| l.1 == k).count();
        if n == 0 {
            continue;
        }
        patches.extend_from_slice(&[m.2 as u32, m.3 as u32, n as u32]);
        patches.extend(loads.iter().filter(|l| l.1 == k).map(|l| (l.0 + 1) as u32));
        patches.extend(loads.iter().filter(|l| l.1 == k).map(|l| (l.0 + 4) as u32));
    }
    spare.keep(words);
    (out, Loads { words: patches })
}

/// Which varyings and colour outputs MojoShader's table records (`spv_link_vs_attributes`,
/// `spv_link_ps_attributes`): a vertex shader's outputs its answer lists (d3dbc's
/// shaders below vs_3_0 write every fixed varying), `oFog` and `oPts` below vs_3_0 as
/// `(FOG, 1)` and `(POINTSIZE, 2)` (MojoShader takes the rasterizer register number as
/// the index, and so makes `oPts` a varying); every input of a
/// pixel shader (`v#`, `t#`); the colour outputs `oC#` from ps_2_0 on (a ps_1_x's `r0`
/// output has no entry).
struct Records<'p> {
    vertex: bool,
    major: c_int,
    plan: &'p Plan<'p>,
}

const USAGE_FOG: usize = 11;
const USAGE_POINTSIZE: usize = 4;

/// Where the module's varying and colour-output locations are (those [`Records`] says),
/// from `s`, the scan of `words`.
fn patch_table(s: &Scan, words: &[u32], r: &Records, table: &mut TablePatches) {
    let vertex = r.vertex;
    let varyings = if vertex {
        STORAGE_OUTPUT
    } else {
        STORAGE_INPUT
    };
    for &(id, offset) in &s.locations {
        let location = words[offset as usize];
        let class = s.storage(words, id);
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
                let record = !vertex || r.plan.lists_output(u as c_int, i as c_int);
                if u < USAGE_TOTAL && i < 16 && record {
                    table.attrib_offset(u, i, offset);
                }
            }
        } else if !vertex && class == Some(STORAGE_OUTPUT) && location < 16 && r.major >= 2 {
            table.output_offset(location as usize, offset);
        }
    }
}
