//! `MOJOSHADER_compileEffect`, `MOJOSHADER_deleteEffect` and `MOJOSHADER_cloneEffect`:
//! an fx_2_0 effect read by `d3dbc::fx` laid out in MojoShader's `MOJOSHADER_effect`
//! — parameters with their values and annotations, techniques, passes, states, the
//! object table (strings, texture/sampler mappings, shaders compiled through the
//! caller's `MOJOSHADER_effectShaderContext`, array-selector preshaders) — filled the
//! way MojoShader 6333f74 fills it (its value layout of rows padded to four
//! components, its object types, its `ShaderFunction<N>` entry names).
//!
//! Memory: one block from the caller's allocator (`ctx->m`, the C library's when NULL)
//! holds the effect and everything it points to, behind a private `Header` that
//! remembers the allocator, the effect's bytes (for `cloneEffect`) and each object's
//! preshader tokens (for `CommitChanges`). The shaders themselves are the caller's: made
//! by `ctx->compileShader`, released by `ctx->deleteShader`, shared by `cloneEffect`
//! through `ctx->shaderAddRef`.
//!
//! Where MojoShader's reading goes wrong against Windows, the values here are D3DX's:
//! struct defaults are the struct's values (MojoShader reads them from the type
//! description and copies nothing for members that are not arrays); selector
//! preshaders stage their inputs at `register × 4` (MojoShader at `register`); states
//! that are not objects never touch the object table.

use std::cell::RefCell;
use std::ffi::{c_int, c_uint, c_void};

use d3dbc::fx::preshader::{Preshader, Registers};
use d3dbc::fx::Effect;

use crate::arena::{build, Allocator};
use crate::types::*;

/// Marks a block this module made.
const MAGIC: u64 = 0x6433_6462_6378_6678; // "d3dbcxfx"

/// What sits before the `MOJOSHADER_effect` in its block (never seen by C).
#[repr(C)]
#[derive(Clone, Copy)]
pub(crate) struct Header {
    magic: u64,
    pub alloc: Allocator,
    /// The effect's bytes, as given to `compileEffect`.
    source: *const u8,
    source_len: usize,
    /// The preshaders `BeginPass` and `CommitChanges` run, parsed when the effect is
    /// made; owned by the effect (a `Box`, dropped by `deleteEffect`).
    pub parsed: *const Parsed,
}

/// Per object (`object_count` entries), its preshader — a shader's `PRES` block, or an
/// array selector's program — parsed once, with the register file every run of it
/// reuses (`CommitChanges` runs before every draw: no parse and no allocation there).
/// `None`: no preshader, or one that does not parse (which runs as nothing).
pub(crate) struct Parsed {
    pub pres: Vec<Option<(Preshader, RefCell<Registers>)>>,
}

impl Parsed {
    /// Parses each object's tokens.
    pub fn new<'t>(tokens: impl Iterator<Item = &'t [u32]>) -> Parsed {
        Parsed {
            pres: tokens
                .map(|t| {
                    if t.is_empty() {
                        return None;
                    }
                    let p = Preshader::parse(t).ok()?;
                    let regs = RefCell::new(p.registers());
                    Some((p, regs))
                })
                .collect(),
        }
    }
}

// ---- MojoShader's static answers ----

static mut OUT_OF_MEM_ERROR: MOJOSHADER_error = MOJOSHADER_error {
    error: c"Out of memory".as_ptr(),
    filename: std::ptr::null(),
    error_position: POSITION_NONE,
};
static mut NEED_BACKEND_ERROR: MOJOSHADER_error = MOJOSHADER_error {
    error: c"Need a MOJOSHADER_effectShaderContext".as_ptr(),
    filename: std::ptr::null(),
    error_position: POSITION_NONE,
};
static mut EOF_ERROR: MOJOSHADER_error = MOJOSHADER_error {
    error: c"Unexpected EOF".as_ptr(),
    filename: std::ptr::null(),
    error_position: POSITION_NONE,
};
static mut NOT_EFFECT_ERROR: MOJOSHADER_error = MOJOSHADER_error {
    error: c"Not an Effects Framework binary".as_ptr(),
    filename: std::ptr::null(),
    error_position: POSITION_NONE,
};

const fn static_effect(error: *mut MOJOSHADER_error) -> MOJOSHADER_effect {
    MOJOSHADER_effect {
        error_count: 1,
        errors: error,
        param_count: 0,
        params: std::ptr::null_mut(),
        technique_count: 0,
        techniques: std::ptr::null_mut(),
        object_count: 0,
        objects: std::ptr::null_mut(),
        current_technique: std::ptr::null(),
        current_pass: 0,
        restore_shader_state: 0,
        state_changes: std::ptr::null_mut(),
        current_vert_raw: std::ptr::null_mut(),
        current_pixl_raw: std::ptr::null_mut(),
        current_vert: std::ptr::null_mut(),
        current_pixl: std::ptr::null_mut(),
        prev_vertex_shader: std::ptr::null_mut(),
        prev_pixel_shader: std::ptr::null_mut(),
        ctx: MOJOSHADER_effectShaderContext::EMPTY,
    }
}

/// MojoShader's `MOJOSHADER_out_of_mem_effect`.
pub static mut OUT_OF_MEM_EFFECT: MOJOSHADER_effect = static_effect(&raw mut OUT_OF_MEM_ERROR);
/// MojoShader's `MOJOSHADER_need_a_backend_effect`.
pub static mut NEED_BACKEND_EFFECT: MOJOSHADER_effect = static_effect(&raw mut NEED_BACKEND_ERROR);
/// MojoShader's `MOJOSHADER_unexpected_eof_effect`.
pub static mut EOF_EFFECT: MOJOSHADER_effect = static_effect(&raw mut EOF_ERROR);
/// MojoShader's `MOJOSHADER_not_an_effect_effect`.
pub static mut NOT_EFFECT_EFFECT: MOJOSHADER_effect = static_effect(&raw mut NOT_EFFECT_ERROR);

/// Whether `e` is one of the static answers (never freed, never cloned or run).
pub(crate) fn is_static(e: *const MOJOSHADER_effect) -> bool {
    [
        &raw const OUT_OF_MEM_EFFECT,
        &raw const NEED_BACKEND_EFFECT,
        &raw const EOF_EFFECT,
        &raw const NOT_EFFECT_EFFECT,
    ]
    .contains(&e)
}

/// The header of an effect this module made; `None` for NULL, a static answer or a
/// pointer without the mark.
///
/// # Safety
/// `e` is NULL, a static answer, or an effect answered by `compileEffect`/`cloneEffect`.
pub(crate) unsafe fn header<'a>(e: *const MOJOSHADER_effect) -> Option<&'a Header> {
    if e.is_null() || is_static(e) {
        return None;
    }
    // SAFETY: our effects sit right after their header in the block.
    let h = unsafe { &*(e as *const Header).sub(1) };
    (h.magic == MAGIC).then_some(h)
}

extern "C" fn default_malloc(bytes: c_int, _d: *mut c_void) -> *mut c_void {
    Allocator {
        m: None,
        f: None,
        d: std::ptr::null_mut(),
    }
    .alloc(bytes.max(0) as usize) as *mut c_void
}

extern "C" fn default_free(p: *mut c_void, _d: *mut c_void) {
    Allocator {
        m: None,
        f: None,
        d: std::ptr::null_mut(),
    }
    .release(p)
}

// ---- The plan: everything an effect holds, before it is laid out ----

mod plan;
mod write;

use plan::*;
use write::*;

/// Releases the shaders a plan made (the block could not be allocated).
fn release_shaders(plan: &Plan, ctx: &MOJOSHADER_effectShaderContext) {
    for o in &plan.objects {
        if let (ObjectPlan::Shader(s), Some(del)) = (o, ctx.deleteShader) {
            // SAFETY: the caller's callback on a shader it made.
            unsafe { del(ctx.shaderContext, s.handle) };
        }
    }
}

/// Lays a plan out in one block; the effect, or the out-of-memory answer.
fn emit(
    plan: &Plan,
    ctx: &MOJOSHADER_effectShaderContext,
    alloc: &Allocator,
    source: &[u8],
) -> *mut MOJOSHADER_effect {
    let h = build(alloc, |a| write(a, plan, ctx, alloc, source));
    if h.is_null() {
        release_shaders(plan, ctx);
        return &raw mut OUT_OF_MEM_EFFECT;
    }
    // SAFETY: the effect follows its header in the block.
    unsafe { h.add(1) as *mut MOJOSHADER_effect }
}

/// An effect holding only `message` (what `d3dbc` found wrong with the bytes).
fn failed(
    message: String,
    position: c_int,
    ctx: &MOJOSHADER_effectShaderContext,
    alloc: &Allocator,
) -> *mut MOJOSHADER_effect {
    let plan = Plan {
        params: Vec::new(),
        techniques: Vec::new(),
        types: Vec::new(),
        objects: Vec::new(),
        errors: vec![ErrorPlan {
            message,
            filename: None,
            position,
        }],
    };
    emit(&plan, ctx, alloc, &[])
}

/// `MOJOSHADER_compileEffect` after its pointers are checked.
pub(crate) fn compile(
    bytes: &[u8],
    swiz: &[MOJOSHADER_swizzle],
    smap: &[MOJOSHADER_samplerMap],
    ctx: &MOJOSHADER_effectShaderContext,
) -> *mut MOJOSHADER_effect {
    if ctx.m.is_some() != ctx.f.is_some() {
        return &raw mut OUT_OF_MEM_EFFECT;
    }
    let alloc = Allocator {
        m: ctx.m,
        f: ctx.f,
        d: ctx.malloc_data,
    };
    // MojoShader's own checks of the header, with its answers.
    if bytes.len() < 8 {
        return &raw mut EOF_EFFECT;
    }
    let word = |at: usize| {
        bytes
            .get(at..at + 4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    };
    let mut at = 0usize;
    if word(0) == Some(d3dbc::fx::XNA_WRAPPER) {
        at = (word(4).unwrap_or(0) as usize).max(8);
    }
    if word(at) != Some(d3dbc::fx::FX_2_0) {
        return &raw mut NOT_EFFECT_EFFECT;
    }
    let left = bytes.len() - at - 4;
    match word(at + 4) {
        Some(off) if (off as usize) <= left - 4 && left - 4 - off as usize >= 16 => {}
        _ => return &raw mut EOF_EFFECT,
    }
    match Effect::parse(bytes) {
        Ok(fx) => {
            let plan = plan(&fx, ctx, &Shaders::Compile { swiz, smap });
            emit(&plan, ctx, &alloc, bytes)
        }
        Err(e) => failed(
            format!(
                "Bogus effect data at byte {:#x}: {} (d3dbc's effect reader)",
                e.offset, e.what
            ),
            c_int::try_from(e.offset).unwrap_or(c_int::MAX),
            ctx,
            &alloc,
        ),
    }
}

/// `MOJOSHADER_deleteEffect` after its pointer is checked.
///
/// # Safety
/// `e` is NULL, a static answer or an effect of this module not yet deleted.
pub(crate) unsafe fn delete(e: *const MOJOSHADER_effect) {
    // SAFETY: per the contract.
    let Some(h) = (unsafe { header(e) }) else {
        return;
    };
    let alloc = h.alloc;
    // SAFETY: our effect.
    let eff = unsafe { &*e };
    // SAFETY: `objects` holds `object_count` entries.
    for o in unsafe { crate::slice(eff.objects, eff.object_count.max(0) as c_uint) } {
        // SAFETY: every object starts with its type.
        let s = unsafe { o.shader };
        if is_shader_type(s.r#type) && s.is_preshader == 0 && !s.shader.is_null() {
            if let Some(del) = eff.ctx.deleteShader {
                // SAFETY: the caller's callback on a shader it made.
                unsafe { del(eff.ctx.shaderContext, s.shader) };
            }
        }
    }
    if !h.parsed.is_null() {
        // SAFETY: made by `Box::into_raw` when the effect was written, dropped once here.
        drop(unsafe { Box::from_raw(h.parsed as *mut Parsed) });
    }
    // The header is the block's start.
    alloc.release((h as *const Header) as *mut c_void);
}

/// `MOJOSHADER_cloneEffect` after its pointer is checked: the same bytes read again,
/// the shaders shared (`ctx->shaderAddRef`), then the errors, the current values and
/// the current technique copied. NULL for a static answer or when memory runs out.
///
/// # Safety
/// `e` is NULL, a static answer or an effect of this module.
pub(crate) unsafe fn clone(e: *const MOJOSHADER_effect) -> *mut MOJOSHADER_effect {
    // SAFETY: per the contract.
    let Some(h) = (unsafe { header(e) }) else {
        return std::ptr::null_mut();
    };
    // SAFETY: our effect.
    let src = unsafe { &*e };
    let bytes = if h.source.is_null() {
        &[][..]
    } else {
        // SAFETY: the block holds the source bytes.
        unsafe { std::slice::from_raw_parts(h.source, h.source_len) }
    };
    // SAFETY: `objects` holds `object_count` entries.
    let objects = unsafe { crate::slice(src.objects, src.object_count.max(0) as c_uint) };
    let fx = Effect::parse(bytes);
    let mut p = match &fx {
        Ok(fx) => plan(fx, &src.ctx, &Shaders::Share { objects }),
        Err(_) => Plan {
            params: Vec::new(),
            techniques: Vec::new(),
            types: Vec::new(),
            objects: Vec::new(),
            errors: Vec::new(),
        },
    };
    p.errors = copy_errors(src);
    let out = emit(&p, &src.ctx, &h.alloc, bytes);
    if is_static(out) {
        return std::ptr::null_mut();
    }
    // SAFETY: `out` is the new effect, of the same bytes: the same shapes as `src`.
    unsafe { copy_state(src, &mut *out) };
    out
}

fn copy_errors(src: &MOJOSHADER_effect) -> Vec<ErrorPlan> {
    // SAFETY: `errors` holds `error_count` entries of NUL-terminated strings.
    unsafe { crate::slice(src.errors, src.error_count.max(0) as c_uint) }
        .iter()
        .map(|e| ErrorPlan {
            // SAFETY: as above.
            message: unsafe { c_string(e.error) }.unwrap_or_default(),
            // SAFETY: as above.
            filename: unsafe { c_string(e.filename) },
            position: e.error_position,
        })
        .collect()
}

/// Copies a value's current data (`value_count` words, or each sampler state's).
///
/// # Safety
/// Both values are laid out by this module from the same effect bytes.
unsafe fn copy_value(src: &MOJOSHADER_effectValue, dst: &MOJOSHADER_effectValue) {
    if src.value_count != dst.value_count || src.values.is_null() || dst.values.is_null() {
        return;
    }
    let n = src.value_count as usize;
    if src.r#type.parameter_class == SYMCLASS_OBJECT && is_sampler_type(src.r#type.parameter_type) {
        // SAFETY: `n` sampler states on both sides.
        let (s, d) = unsafe {
            (
                std::slice::from_raw_parts(src.values as *const MOJOSHADER_effectSamplerState, n),
                std::slice::from_raw_parts(dst.values as *const MOJOSHADER_effectSamplerState, n),
            )
        };
        for (s, d) in s.iter().zip(d) {
            // SAFETY: as above.
            unsafe { copy_value(&s.value, &d.value) };
        }
    } else {
        // SAFETY: `n` words on both sides, in different blocks.
        unsafe {
            std::ptr::copy_nonoverlapping(src.values as *const u32, dst.values as *mut u32, n)
        };
    }
}

/// Copies every value's data of `src` into the annotations list `dst` of the same shape.
///
/// # Safety
/// As [`copy_value`]; both lists hold `n` values.
unsafe fn copy_values(
    src: *const MOJOSHADER_effectValue,
    dst: *const MOJOSHADER_effectValue,
    n: c_uint,
) {
    // SAFETY: per the contract.
    let (s, d) = unsafe { (crate::slice(src, n), crate::slice(dst, n)) };
    for (s, d) in s.iter().zip(d) {
        // SAFETY: per the contract.
        unsafe { copy_value(s, d) };
    }
}

/// The clone's values and current technique from `src`.
///
/// # Safety
/// Both effects are laid out by this module from the same bytes.
unsafe fn copy_state(src: &MOJOSHADER_effect, dst: &mut MOJOSHADER_effect) {
    if src.param_count != dst.param_count || src.technique_count != dst.technique_count {
        return;
    }
    // SAFETY: per the contract: the same counts everywhere below.
    unsafe {
        let sp = crate::slice(src.params, src.param_count.max(0) as c_uint);
        let dp = crate::slice(dst.params, dst.param_count.max(0) as c_uint);
        for (s, d) in sp.iter().zip(dp) {
            copy_value(&s.value, &d.value);
            copy_values(
                s.annotations,
                d.annotations,
                s.annotation_count.min(d.annotation_count),
            );
        }
        let st = crate::slice(src.techniques, src.technique_count.max(0) as c_uint);
        let dt = crate::slice(dst.techniques, dst.technique_count.max(0) as c_uint);
        for (i, (s, d)) in st.iter().zip(dt).enumerate() {
            if std::ptr::eq(src.current_technique, s) {
                dst.current_technique = dst.techniques.add(i);
            }
            copy_values(
                s.annotations,
                d.annotations,
                s.annotation_count.min(d.annotation_count),
            );
            let n = s.pass_count.min(d.pass_count);
            for (sp, dp) in crate::slice(s.passes, n)
                .iter()
                .zip(crate::slice(d.passes, n))
            {
                copy_values(
                    sp.annotations,
                    dp.annotations,
                    sp.annotation_count.min(dp.annotation_count),
                );
                let k = sp.state_count.min(dp.state_count);
                for (ss, ds) in crate::slice(sp.states, k)
                    .iter()
                    .zip(crate::slice(dp.states, k))
                {
                    copy_value(&ss.value, &ds.value);
                }
            }
        }
    }
}
