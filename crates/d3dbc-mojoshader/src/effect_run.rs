//! Running an effect: `MOJOSHADER_effectSetRawValue{Handle,Name}`, the technique
//! functions, and `effectBegin` / `BeginPass` / `CommitChanges` / `EndPass` / `End` —
//! MojoShader 6333f74's sequence of calls into the caller's
//! `MOJOSHADER_effectShaderContext` (`getBoundShaders`, `bindShaders`,
//! `getParseData`, `mapUniformBufferMemory`, `unmapUniformBufferMemory`) and its
//! `MOJOSHADER_effectStateChanges`, with the uniform registers filled as MojoShader
//! fills them (`copy_parameter_data`).
//!
//! Preshaders (a shader's `PRES` block, an array selector) are evaluated by
//! `d3dbc::fx::preshader` — D3DX's arithmetic (its NaNs, `log`, `rsq`, `div`, `dot`,
//! bool and int outputs to the `b` and `i` registers) where MojoShader's own evaluator
//! differs from Windows. A selector index outside its array (Windows: the pass fails)
//! binds no new shader; MojoShader reads past the array.
//!
//! What MojoShader leaves unchecked is checked here: a pass index past the technique,
//! a technique of another effect, writes past a parameter's values, a missing
//! `stateChanges` or callback — each does nothing instead of writing out of bounds.

use std::cell::RefCell;
use std::ffi::{c_int, c_uint};

use d3dbc::fx::preshader::{Preshader, Registers, Table};

use crate::effect::header;
use crate::types::*;

/// Writes into the caller's register files (NULL files are skipped).
struct Files {
    f: *mut f32,
    i: *mut c_int,
    b: *mut u8,
}

/// Where [`copy_parameters`] writes: register files of floats (component indices),
/// ints (component indices) and bools (register indices). Generic, so that each
/// destination is its own copy of the loop, writing runs of words at a time.
trait RegisterFiles {
    /// Float components `start…` from the words' bits.
    fn floats(&mut self, start: usize, words: &[u32]);
    /// One float component.
    fn float(&mut self, at: usize, v: f32);
    /// Int components `start…`.
    fn ints(&mut self, start: usize, words: &[u32]);
    /// One bool register.
    fn bool(&mut self, at: usize, v: u8);
}

impl RegisterFiles for Files {
    fn floats(&mut self, start: usize, words: &[u32]) {
        if !self.f.is_null() {
            // SAFETY: the caller's float register file, sized for the shader it bound;
            // f32 and u32 have one size and alignment.
            unsafe {
                std::ptr::copy_nonoverlapping(
                    words.as_ptr(),
                    self.f.add(start) as *mut u32,
                    words.len(),
                )
            };
        }
    }
    fn float(&mut self, at: usize, v: f32) {
        if !self.f.is_null() {
            // SAFETY: as above.
            unsafe { *self.f.add(at) = v };
        }
    }
    fn ints(&mut self, start: usize, words: &[u32]) {
        if !self.i.is_null() {
            // SAFETY: the caller's int register file, as above.
            unsafe {
                std::ptr::copy_nonoverlapping(
                    words.as_ptr(),
                    self.i.add(start) as *mut u32,
                    words.len(),
                )
            };
        }
    }
    fn bool(&mut self, at: usize, v: u8) {
        if !self.b.is_null() {
            // SAFETY: the caller's bool register file, as above.
            unsafe { *self.b.add(at) = v };
        }
    }
}

/// A preshader's input table: floats only (ints and bools have no input table).
struct Input<'t>(&'t mut [f64]);

impl RegisterFiles for Input<'_> {
    fn floats(&mut self, start: usize, words: &[u32]) {
        if let Some(t) = self.0.get_mut(start..) {
            for (slot, &w) in t.iter_mut().zip(words) {
                *slot = f64::from(f32::from_bits(w));
            }
        }
    }
    fn float(&mut self, at: usize, v: f32) {
        if let Some(slot) = self.0.get_mut(at) {
            *slot = f64::from(v);
        }
    }
    fn ints(&mut self, _: usize, _: &[u32]) {}
    fn bool(&mut self, _: usize, _: u8) {}
}

/// A parameter's current words (`value_count` of them; empty for samplers).
fn words(p: &MOJOSHADER_effectParam) -> &[u32] {
    let v = &p.value;
    if v.values.is_null()
        || (v.r#type.parameter_class == SYMCLASS_OBJECT
            && (SYMTYPE_SAMPLER..=SYMTYPE_SAMPLERCUBE).contains(&v.r#type.parameter_type))
    {
        return &[];
    }
    // SAFETY: numeric and object values hold `value_count` words.
    unsafe { std::slice::from_raw_parts(v.values as *const u32, v.value_count as usize) }
}

/// MojoShader's `copy_parameter_data`: each symbol's parameter into its registers.
fn copy_parameters(
    params: &[MOJOSHADER_effectParam],
    locs: &[c_uint],
    symbols: &[MOJOSHADER_symbol],
    out: &mut impl RegisterFiles,
) {
    for (sym, &loc) in symbols.iter().zip(locs) {
        let Some(p) = params.get(loc as usize) else {
            continue;
        };
        let w = words(p);
        let t = &p.value.r#type;
        let start = sym.register_index as usize * 4;
        let count = sym.register_count as usize;
        if t.parameter_type == SYMTYPE_FLOAT
            || (sym.register_set == SYMREGSET_FLOAT4 && t.parameter_class == SYMCLASS_STRUCT)
        {
            if sym.register_set == SYMREGSET_SAMPLER {
                continue;
            }
            out.floats(start, &w[..w.len().min(count * 4)]);
        } else if sym.register_set == SYMREGSET_FLOAT4 {
            // Ints and bools in float registers, converted.
            let columns = (t.columns.max(1) as usize).min(4);
            for j in 0..count.max(1) {
                for c in 0..columns {
                    if let Some(&x) = w.get(j * 4 + c) {
                        out.float(start + j * 4 + c, x as i32 as f32);
                    }
                }
            }
        } else if sym.register_set == SYMREGSET_INT4 {
            out.ints(start, &w[..w.len().min(count * 4)]);
        } else if sym.register_set == SYMREGSET_BOOL {
            let columns = t.columns.max(1) as usize;
            let (mut r, mut j) = (0usize, 0usize);
            loop {
                let mut c = 0usize;
                loop {
                    let x = w.get(j * 4 + c).copied().unwrap_or(0);
                    out.bool(start / 4 + r + c, x as u8);
                    c += 1;
                    if !(c < columns && r + c < count) {
                        break;
                    }
                }
                r += c;
                j += 1;
                if r >= count {
                    break;
                }
            }
        }
    }
}

/// Runs `pres` (a preshader, on its register file `regs`) with its inputs staged from
/// `params` by `symbols` (`locs` their parameters); calls `out` with each output
/// component an instruction writes: (table, component index, value). `dot` writes its
/// one result to the first component only, as D3DX does.
fn run_preshader(
    (pres, regs): &(Preshader, RefCell<Registers>),
    params: &[MOJOSHADER_effectParam],
    locs: &[c_uint],
    symbols: &[MOJOSHADER_symbol],
    out: &mut impl FnMut(Table, usize, f64),
) {
    // A run never starts inside another (the callbacks write registers only).
    let Ok(mut regs) = regs.try_borrow_mut() else {
        return;
    };
    let regs = &mut *regs;
    pres.reset(regs);
    copy_parameters(
        params,
        locs,
        symbols,
        &mut Input(&mut regs.tables[Table::Input as usize]),
    );
    pres.run(regs);
    for ins in &pres.instructions {
        let t = ins.output.table;
        if !matches!(t, Table::Output | Table::OutputBool | Table::OutputInt) {
            continue;
        }
        let table = &regs.tables[t as usize];
        let n = if ins.op.code == DOT {
            1
        } else {
            ins.components
        };
        for j in 0..n {
            let at = ins.output.offset.wrapping_add(j) as usize;
            if let Some(&v) = table.get(at) {
                out(t, at, v);
            }
        }
    }
}

/// The FXLC `dot` operation.
const DOT: u32 = 0x500;

/// The parsed preshader of object `index` of `effect`, if it has one.
fn preshader_of(
    effect: &MOJOSHADER_effect,
    index: usize,
) -> Option<&(Preshader, RefCell<Registers>)> {
    // SAFETY: the header of our effect; `parsed` was made with it and lives as long.
    let h = unsafe { header(effect)? };
    if h.parsed.is_null() {
        return None;
    }
    // SAFETY: as above.
    let parsed = unsafe { &*h.parsed };
    parsed.pres.get(index)?.as_ref()
}

/// The object index of `raw` (a shader inside `effect.objects`).
fn object_index(effect: &MOJOSHADER_effect, raw: *const MOJOSHADER_effectShader) -> Option<usize> {
    let base = effect.objects as usize;
    let at = (raw as usize).checked_sub(base)?;
    let size = std::mem::size_of::<MOJOSHADER_effectObject>();
    let i = at / size;
    (at % size == 0 && i < effect.object_count.max(0) as usize).then_some(i)
}

fn params_of(effect: &MOJOSHADER_effect) -> &[MOJOSHADER_effectParam] {
    // SAFETY: our effect: `params` holds `param_count` entries.
    unsafe { crate::slice(effect.params, effect.param_count.max(0) as c_uint) }
}

/// `MOJOSHADER_effectSetRawValueHandle`: `len` bytes of `data` at byte `offset` of the
/// parameter's values; nothing when they would run past them.
///
/// # Safety
/// `parameter` is a parameter of an effect of this crate; `data` holds `len` bytes.
pub(crate) unsafe fn set_raw(
    parameter: &MOJOSHADER_effectParam,
    data: *const u8,
    offset: c_uint,
    len: c_uint,
) {
    let bytes = std::mem::size_of_val(words(parameter));
    let end = offset as usize + len as usize;
    if end > bytes || data.is_null() {
        return;
    }
    // SAFETY: checked against the values' size; the caller's `len` bytes.
    unsafe {
        std::ptr::copy(
            data,
            (parameter.value.values as *mut u8).add(offset as usize),
            len as usize,
        )
    };
}

/// `MOJOSHADER_effectSetRawValueName`.
///
/// # Safety
/// `effect` is an effect of this crate; `name` NUL-terminated; `data` holds `len` bytes.
pub(crate) unsafe fn set_raw_by_name(
    effect: &MOJOSHADER_effect,
    name: &[u8],
    data: *const u8,
    offset: c_uint,
    len: c_uint,
) {
    for p in params_of(effect) {
        // SAFETY: our names are NULL or NUL-terminated.
        if unsafe { crate::parse::c_bytes(p.value.name) } == Some(name) {
            // SAFETY: per the contract.
            unsafe { set_raw(p, data, offset, len) };
            return;
        }
    }
}

/// `MOJOSHADER_effectSetTechnique`: only a technique of this effect is taken.
pub(crate) fn set_technique(effect: &mut MOJOSHADER_effect, t: *const MOJOSHADER_effectTechnique) {
    // SAFETY: our effect: `techniques` holds `technique_count` entries.
    let list = unsafe { crate::slice(effect.techniques, effect.technique_count.max(0) as c_uint) };
    if list.iter().any(|x| std::ptr::eq(x, t)) {
        effect.current_technique = t;
    }
}

/// `MOJOSHADER_effectFindNextValidTechnique`.
pub(crate) fn next_technique(
    effect: &MOJOSHADER_effect,
    t: *const MOJOSHADER_effectTechnique,
) -> *const MOJOSHADER_effectTechnique {
    if t.is_null() {
        return effect.techniques;
    }
    // SAFETY: our effect.
    let list = unsafe { crate::slice(effect.techniques, effect.technique_count.max(0) as c_uint) };
    match list.iter().position(|x| std::ptr::eq(x, t)) {
        Some(i) if i + 1 < list.len() => &list[i + 1],
        _ => std::ptr::null(),
    }
}

/// `MOJOSHADER_effectBegin`.
pub(crate) fn begin(
    effect: &mut MOJOSHADER_effect,
    passes: *mut c_uint,
    save: c_int,
    changes: *mut MOJOSHADER_effectStateChanges,
) {
    let count = if effect.current_technique.is_null() {
        0
    } else {
        // SAFETY: one of our techniques.
        unsafe { (*effect.current_technique).pass_count }
    };
    if !passes.is_null() {
        // SAFETY: the caller's out pointer.
        unsafe { *passes = count };
    }
    effect.restore_shader_state = save;
    effect.state_changes = changes;
    if save != 0 {
        if let Some(get) = effect.ctx.getBoundShaders {
            // SAFETY: the caller's callback, with pointers into our effect.
            unsafe {
                get(
                    effect.ctx.shaderContext,
                    &mut effect.prev_vertex_shader,
                    &mut effect.prev_pixel_shader,
                )
            };
        }
    }
}

fn set_sampler_changes(
    effect: &MOJOSHADER_effect,
    vert: *const MOJOSHADER_effectShader,
    pixl: *const MOJOSHADER_effectShader,
) {
    let sc = effect.state_changes;
    if sc.is_null() {
        return;
    }
    // SAFETY: the caller's state-change structure, given to Begin.
    let sc = unsafe { &mut *sc };
    if !effect.current_vert_raw.is_null() && !vert.is_null() {
        // SAFETY: one of our shader objects.
        let v = unsafe { &*vert };
        sc.vertex_sampler_state_changes = v.samplers;
        sc.vertex_sampler_state_change_count = v.sampler_count;
    }
    if !effect.current_pixl_raw.is_null() && !pixl.is_null() {
        // SAFETY: one of our shader objects.
        let p = unsafe { &*pixl };
        sc.sampler_state_changes = p.samplers;
        sc.sampler_state_change_count = p.sampler_count;
    }
}

fn bind(effect: &MOJOSHADER_effect) {
    if let Some(bind) = effect.ctx.bindShaders {
        // SAFETY: the caller's callback with its own shaders.
        unsafe {
            bind(
                effect.ctx.shaderContext,
                effect.current_vert,
                effect.current_pixl,
            )
        };
    }
}

/// `MOJOSHADER_effectBeginPass`.
pub(crate) fn begin_pass(effect: &mut MOJOSHADER_effect, pass: c_uint) {
    if effect.current_technique.is_null() {
        return;
    }
    // SAFETY: one of our techniques.
    let tech = unsafe { &*effect.current_technique };
    if pass >= tech.pass_count {
        return;
    }
    if let Some(get) = effect.ctx.getBoundShaders {
        // SAFETY: the caller's callback, with pointers into our effect.
        unsafe {
            get(
                effect.ctx.shaderContext,
                &mut effect.current_vert,
                &mut effect.current_pixl,
            )
        };
    }
    effect.current_pass = pass as c_int;
    // SAFETY: `pass` is within the technique's passes.
    let cur = unsafe { &*tech.passes.add(pass as usize) };
    // SAFETY: the pass's states.
    let states = unsafe { crate::slice(cur.states, cur.state_count) };
    let (mut vert, mut pixl) = (effect.current_vert_raw, effect.current_pixl_raw);
    let mut has_preshader = false;
    for s in states {
        if s.r#type != RS_VERTEXSHADER && s.r#type != RS_PIXELSHADER {
            continue;
        }
        let Some(&id) = words_of_value(&s.value).first() else {
            continue;
        };
        if id as usize >= effect.object_count.max(0) as usize {
            continue;
        }
        // SAFETY: within the object table.
        let raw = unsafe { &raw mut (*effect.objects.add(id as usize)).shader };
        // SAFETY: as above; every object starts with its type.
        let r = unsafe { &*raw };
        if r.r#type != SYMTYPE_VERTEXSHADER && r.r#type != SYMTYPE_PIXELSHADER {
            continue;
        }
        if r.is_preshader != 0 {
            has_preshader = true;
        } else if s.r#type == RS_VERTEXSHADER {
            effect.current_vert = r.shader;
        } else {
            effect.current_pixl = r.shader;
        }
        if s.r#type == RS_VERTEXSHADER {
            vert = raw;
        } else {
            pixl = raw;
        }
    }
    if !effect.state_changes.is_null() {
        // SAFETY: the caller's state-change structure.
        let sc = unsafe { &mut *effect.state_changes };
        sc.render_state_changes = cur.states;
        sc.render_state_change_count = cur.state_count;
    }
    effect.current_vert_raw = vert;
    effect.current_pixl_raw = pixl;
    if !has_preshader {
        bind(effect);
        set_sampler_changes(effect, vert, pixl);
    }
    commit(effect);
}

fn words_of_value(v: &MOJOSHADER_effectValue) -> &[u32] {
    if v.values.is_null()
        || v.r#type.parameter_class == SYMCLASS_OBJECT
            && (SYMTYPE_SAMPLER..=SYMTYPE_SAMPLERCUBE).contains(&v.r#type.parameter_type)
    {
        return &[];
    }
    // SAFETY: numeric and object values hold `value_count` words.
    unsafe { std::slice::from_raw_parts(v.values as *const u32, v.value_count as usize) }
}

/// An array selector's choice: the shader object its preshader picks, `None` when the
/// index is outside the array.
fn select(
    effect: &MOJOSHADER_effect,
    raw: *mut MOJOSHADER_effectShader,
) -> Option<*mut MOJOSHADER_effectShader> {
    // SAFETY: a selector object of ours.
    let r = unsafe { &*raw };
    let index = object_index(effect, raw)?;
    let pres = preshader_of(effect, index)?;
    let params = params_of(effect);
    let symbols: &[MOJOSHADER_symbol] = if r.shader.is_null() {
        &[]
    } else {
        // SAFETY: the selector's preshader, laid out in our block.
        let p = unsafe { &*(r.shader as *const MOJOSHADER_preshader) };
        // SAFETY: as above.
        unsafe { crate::slice(p.symbols, p.symbol_count) }
    };
    // SAFETY: our arrays.
    let locs = unsafe { crate::slice(r.preshader_params, r.preshader_param_count) };
    let mut first = None;
    run_preshader(pres, params, locs, symbols, &mut |t, at, v| {
        if t == Table::Output && at == 0 {
            first = Some(v);
        }
    });
    // D3DX truncates; -1 means the first element.
    let mut i = first? as f32 as i64;
    if i == -1 {
        i = 0;
    }
    // SAFETY: our array.
    let array = unsafe { crate::slice(r.params, r.param_count) }.first()?;
    let ids = words(params.get(*array as usize)?);
    let id = *ids.get(usize::try_from(i).ok()?)? as usize;
    if id >= effect.object_count.max(0) as usize {
        return None;
    }
    // SAFETY: within the object table.
    let sel = unsafe { &raw mut (*effect.objects.add(id)).shader };
    // SAFETY: as above.
    let s = unsafe { &*sel };
    (s.is_preshader == 0 && (s.r#type == SYMTYPE_VERTEXSHADER || s.r#type == SYMTYPE_PIXELSHADER))
        .then_some(sel)
}

/// The parameters of `raw` into `files`, then its preshader's outputs.
fn upload(effect: &MOJOSHADER_effect, raw: *mut MOJOSHADER_effectShader, files: &mut Files) {
    // SAFETY: one of our shader objects.
    let r = unsafe { &*raw };
    if r.is_preshader != 0 || r.shader.is_null() {
        return;
    }
    let Some(get) = effect.ctx.getParseData else {
        return;
    };
    // SAFETY: the caller's callback on its own shader.
    let pd = unsafe { get(r.shader) };
    if pd.is_null() {
        return;
    }
    // SAFETY: the caller's parse data.
    let pd = unsafe { &*pd };
    let params = params_of(effect);
    // SAFETY: the caller's symbols; our parameter indices.
    let (symbols, locs) = unsafe {
        (
            crate::slice(pd.symbols, pd.symbol_count.max(0) as c_uint),
            crate::slice(r.params, r.param_count),
        )
    };
    copy_parameters(params, locs, symbols, files);
    if pd.preshader.is_null() {
        return;
    }
    let Some(index) = object_index(effect, raw) else {
        return;
    };
    let Some(pres) = preshader_of(effect, index) else {
        return;
    };
    // SAFETY: the caller's preshader; our parameter indices.
    let (psyms, plocs) = unsafe {
        let p = &*pd.preshader;
        (
            crate::slice(p.symbols, p.symbol_count),
            crate::slice(r.preshader_params, r.preshader_param_count),
        )
    };
    run_preshader(pres, params, plocs, psyms, &mut |t, at, v| match t {
        Table::Output => files.float(at, v as f32),
        Table::OutputInt => files.ints(at, &[v as c_int as u32]),
        // Bool registers hold one value each: `b<n>` is component `4n`.
        _ => files.bool(at / 4, u8::from(v != 0.0)),
    });
}

/// `MOJOSHADER_effectCommitChanges`.
pub(crate) fn commit(effect: &mut MOJOSHADER_effect) {
    let (mut vert, mut pixl) = (effect.current_vert_raw, effect.current_pixl_raw);
    let mut had_selector = false;
    for (raw, bound) in [(&mut vert, 0), (&mut pixl, 1)] {
        if raw.is_null() {
            continue;
        }
        // SAFETY: one of our shader objects.
        if unsafe { (**raw).is_preshader } == 0 {
            continue;
        }
        match select(effect, *raw) {
            Some(s) => {
                *raw = s;
                // SAFETY: as above.
                let h = unsafe { (*s).shader };
                if bound == 0 {
                    effect.current_vert = h;
                } else {
                    effect.current_pixl = h;
                }
            }
            // Windows fails the pass: this stage keeps the shader bound before the
            // pass and gets no uniforms.
            None => *raw = std::ptr::null_mut(),
        }
        // BeginPass left the binding to this call: bind whatever was chosen.
        had_selector = true;
    }
    if had_selector {
        bind(effect);
        set_sampler_changes(effect, vert, pixl);
    }
    let Some(map) = effect.ctx.mapUniformBufferMemory else {
        return;
    };
    let mut vs = Files {
        f: std::ptr::null_mut(),
        i: std::ptr::null_mut(),
        b: std::ptr::null_mut(),
    };
    let mut ps = Files {
        f: std::ptr::null_mut(),
        i: std::ptr::null_mut(),
        b: std::ptr::null_mut(),
    };
    // SAFETY: the caller's callback, with out pointers on our stack.
    unsafe {
        map(
            effect.ctx.shaderContext,
            &mut vs.f,
            &mut vs.i,
            &mut vs.b,
            &mut ps.f,
            &mut ps.i,
            &mut ps.b,
        )
    };
    if !vert.is_null() {
        upload(effect, vert, &mut vs);
    }
    if !pixl.is_null() {
        upload(effect, pixl, &mut ps);
    }
    if let Some(unmap) = effect.ctx.unmapUniformBufferMemory {
        // SAFETY: the caller's callback.
        unsafe { unmap(effect.ctx.shaderContext) };
    }
}

/// `MOJOSHADER_effectEndPass`.
pub(crate) fn end_pass(effect: &mut MOJOSHADER_effect) {
    effect.current_pass = -1;
}

/// `MOJOSHADER_effectEnd`.
pub(crate) fn end(effect: &mut MOJOSHADER_effect) {
    if effect.restore_shader_state != 0 {
        effect.restore_shader_state = 0;
        if let Some(bind) = effect.ctx.bindShaders {
            // SAFETY: the caller's callback with the shaders it had bound.
            unsafe {
                bind(
                    effect.ctx.shaderContext,
                    effect.prev_vertex_shader,
                    effect.prev_pixel_shader,
                )
            };
        }
    }
    effect.state_changes = std::ptr::null_mut();
}
