//! # d3dbc-mojoshader
//!
//! `libd3dbc_mojoshader.{so,a}`: MojoShader's C API over d3dbc's libraries, with
//! MojoShader's exact ABI as `crates/d3dbc-capi/face/mojoshader.h` declares it (the
//! layout of MojoShader 6333f74, the revision FNA3D builds against). A program written
//! for MojoShader links `-ld3dbc_mojoshader` instead of `-lmojoshader`.
//!
//! Exported: `MOJOSHADER_version`, `MOJOSHADER_changeset`, `MOJOSHADER_maxShaderModel`,
//! `MOJOSHADER_parse` (profiles `d3d`, `bytecode`, `glsl`, `glsl120`, `spirv`; any other
//! gives MojoShader's unknown-profile error), `MOJOSHADER_freeParseData`,
//! `MOJOSHADER_linkSPIRVShaders`, `MOJOSHADER_parsePreshader` and
//! `MOJOSHADER_freePreshader`. See [`parse`] for what each profile writes and
//! [`spirv`] for the SPIR-V layout. The effect half (`MOJOSHADER_compileEffect`,
//! `_deleteEffect`, `_cloneEffect`, `_effectSetRawValueHandle`/`Name`, the technique
//! functions, `_effectBegin` … `_effectEnd`) is [`effect`] (reading and laying out) and
//! [`effect_run`] (running passes through the caller's shader context).
//!
//! Memory comes from the caller's `MOJOSHADER_malloc` and goes back through its
//! `MOJOSHADER_free` (the C library's when NULL), one block per answer. Every entry
//! point checks its pointers and catches any panic: a panic answers as an error
//! (`MOJOSHADER_parse`) or does nothing (the void functions), never unwinding into C.
//! No global state: calls on different answers run on any threads at once.
//!
//! Nothing here knows bytecode: the answers come from `d3dbc` (decoding, the constant
//! table, the listing), `d3dbc-spirv` and `d3dbc-naga`; this crate only lays them out
//! in MojoShader's shapes.

#![allow(non_camel_case_types, non_snake_case, clippy::missing_safety_doc)]

mod arena;
pub mod effect;
pub mod effect_run;
pub mod parse;
pub mod preshader;
pub mod spirv;
pub mod types;

use std::ffi::{c_char, c_int, c_uint, c_void};
use std::panic::{catch_unwind, AssertUnwindSafe};

use arena::Allocator;
use types::*;

/// `MOJOSHADER_version`: the library's version, `MAJOR * 10000 + MINOR * 100 + PATCH`.
#[no_mangle]
pub extern "C" fn MOJOSHADER_version() -> c_int {
    let v = |s: &str| s.parse::<c_int>().unwrap_or(0);
    v(env!("CARGO_PKG_VERSION_MAJOR")) * 10000
        + v(env!("CARGO_PKG_VERSION_MINOR")) * 100
        + v(env!("CARGO_PKG_VERSION_PATCH"))
}

/// `MOJOSHADER_changeset`: `"d3dbc-VERSION"`.
#[no_mangle]
pub extern "C" fn MOJOSHADER_changeset() -> *const c_char {
    concat!("d3dbc-", env!("CARGO_PKG_VERSION"), "\0").as_ptr() as *const c_char
}

/// `MOJOSHADER_maxShaderModel`: 3 for every profile the face answers, -1 otherwise
/// (MojoShader's answer for an unknown profile).
///
/// # Safety
/// `profile` is NULL or a NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn MOJOSHADER_maxShaderModel(profile: *const c_char) -> c_int {
    // SAFETY: per the contract.
    let name = unsafe { parse::c_bytes(profile) };
    match name.and_then(parse::Profile::from_name) {
        Some(_) => 3,
        None => -1,
    }
}

/// A C array as a slice (empty for NULL or a zero count).
///
/// # Safety
/// `p` is NULL or points to `n` values.
unsafe fn slice<'a, T>(p: *const T, n: c_uint) -> &'a [T] {
    if p.is_null() || n == 0 {
        &[]
    } else {
        // SAFETY: per the contract.
        unsafe { std::slice::from_raw_parts(p, n as usize) }
    }
}

/// `MOJOSHADER_parse`: see [`parse`]. Never NULL: errors are in the answer's `errors`
/// (a NULL `tokenbuf`, a panic caught, memory that ran out included).
///
/// # Safety
/// Pointers are NULL or valid for their counts (`tokenbuf` for `bufsize` bytes); strings
/// are NUL-terminated.
#[no_mangle]
pub unsafe extern "C" fn MOJOSHADER_parse(
    profile: *const c_char,
    mainfn: *const c_char,
    tokenbuf: *const u8,
    bufsize: c_uint,
    swiz: *const MOJOSHADER_swizzle,
    swizcount: c_uint,
    smap: *const MOJOSHADER_samplerMap,
    smapcount: c_uint,
    m: MOJOSHADER_malloc,
    f: MOJOSHADER_free,
    d: *mut c_void,
) -> *const MOJOSHADER_parseData {
    let alloc = Allocator { m, f, d };
    let r = catch_unwind(AssertUnwindSafe(|| {
        // SAFETY: per the contract.
        let (profile, mainfn) = unsafe { (parse::c_bytes(profile), parse::c_bytes(mainfn)) };
        // SAFETY: per the contract.
        let (bytes, swizzles, smap) = unsafe {
            (
                slice(tokenbuf, bufsize),
                slice(swiz, swizcount),
                slice(smap, smapcount),
            )
        };
        if tokenbuf.is_null() {
            return parse::emit_error(
                &parse::Failure {
                    message: "NULL token buffer".into(),
                    position: POSITION_BEFORE,
                },
                &alloc,
            );
        }
        parse::parse(
            profile.unwrap_or(b""),
            mainfn,
            bytes,
            swizzles,
            smap,
            &alloc,
        )
    }));
    r.unwrap_or_else(|_| {
        parse::emit_error(
            &parse::Failure {
                message: "internal error in d3dbc (a caught panic); please report it".into(),
                position: POSITION_BEFORE,
            },
            &alloc,
        )
    })
}

/// `MOJOSHADER_freeParseData`.
///
/// # Safety
/// `data` is NULL or an answer of [`MOJOSHADER_parse`] not yet freed.
#[no_mangle]
pub unsafe extern "C" fn MOJOSHADER_freeParseData(data: *const MOJOSHADER_parseData) {
    // SAFETY: per the contract.
    let _ = catch_unwind(AssertUnwindSafe(|| unsafe { parse::free_parse_data(data) }));
}

/// `MOJOSHADER_parsePreshader`: a preshader token stream (the `0x4658xxxx` version
/// token first) as MojoShader lays it out ([`preshader`]); NULL when it is not one.
///
/// # Safety
/// `buf` is NULL or valid for `len` bytes.
#[no_mangle]
pub unsafe extern "C" fn MOJOSHADER_parsePreshader(
    buf: *const u8,
    len: c_uint,
    m: MOJOSHADER_malloc,
    f: MOJOSHADER_free,
    d: *mut c_void,
) -> *const MOJOSHADER_preshader {
    if buf.is_null() {
        return std::ptr::null();
    }
    let alloc = Allocator { m, f, d };
    // SAFETY: per the contract.
    let bytes = unsafe { slice(buf, len) };
    catch_unwind(AssertUnwindSafe(|| {
        preshader::parse_preshader(bytes, &alloc)
    }))
    .unwrap_or(std::ptr::null())
}

/// `MOJOSHADER_freePreshader`.
///
/// # Safety
/// `p` is NULL or an answer of [`MOJOSHADER_parsePreshader`] not yet freed.
#[no_mangle]
pub unsafe extern "C" fn MOJOSHADER_freePreshader(p: *const MOJOSHADER_preshader) {
    // SAFETY: per the contract.
    let _ = catch_unwind(AssertUnwindSafe(|| unsafe { preshader::free_preshader(p) }));
}

/// `MOJOSHADER_linkSPIRVShaders`: gives the varyings of a `spirv` vertex and pixel
/// shader matching compact locations, as MojoShader's linker does (see
/// the [`spirv`] module), after retyping the vertex inputs `attributes` gives integer
/// formats (`BYTE4` → `uvec4`, `SHORT2`/`SHORT4` → `ivec4`, converted to float after
/// each load, as MojoShader does); returns 1, or 0 when either is not a `spirv` answer.
///
/// # Safety
/// Both are NULL or answers of [`MOJOSHADER_parse`] with the `spirv` profile.
#[no_mangle]
pub unsafe extern "C" fn MOJOSHADER_linkSPIRVShaders(
    vertex: *const MOJOSHADER_parseData,
    pixel: *const MOJOSHADER_parseData,
    attributes: *const MOJOSHADER_vertexAttribute,
    attribute_count: c_int,
) -> c_int {
    if vertex.is_null() || pixel.is_null() {
        return 0;
    }
    catch_unwind(AssertUnwindSafe(|| {
        // SAFETY: per the contract.
        let (v, p) = unsafe { (&*vertex, &*pixel) };
        let spirv = |d: &MOJOSHADER_parseData| {
            // SAFETY: `profile` is NULL or one of our static names.
            let name = unsafe { parse::c_bytes(d.profile) };
            name == Some(b"spirv".as_slice())
        };
        if v.error_count != 0 || p.error_count != 0 || !spirv(v) || !spirv(p) {
            return 0;
        }
        // SAFETY: the caller's array holds `attribute_count` elements (none when NULL).
        let attributes = unsafe { slice(attributes, attribute_count.max(0) as c_uint) };
        // SAFETY: both are `spirv` answers.
        unsafe { spirv::link(v, p, attributes) }
    }))
    .unwrap_or(0)
}

// ---- The effect half ----

/// `MOJOSHADER_compileEffect`: see [`effect`]. Never NULL: errors are in the answer's
/// `errors` (MojoShader's static answers for a NULL context, mismatched allocator
/// functions, bytes that are not an effect or end too early).
///
/// # Safety
/// Pointers are NULL or valid for their counts (`tokenbuf` for `bufsize` bytes); `ctx`
/// holds callbacks that behave as MojoShader's contract says.
#[no_mangle]
pub unsafe extern "C" fn MOJOSHADER_compileEffect(
    tokenbuf: *const u8,
    bufsize: c_uint,
    swiz: *const MOJOSHADER_swizzle,
    swizcount: c_uint,
    smap: *const MOJOSHADER_samplerMap,
    smapcount: c_uint,
    ctx: *const MOJOSHADER_effectShaderContext,
) -> *mut MOJOSHADER_effect {
    if ctx.is_null() {
        return &raw mut effect::NEED_BACKEND_EFFECT;
    }
    catch_unwind(AssertUnwindSafe(|| {
        // SAFETY: per the contract.
        let (ctx, bytes, swizzles, smap) = unsafe {
            (
                &*ctx,
                slice(tokenbuf, bufsize),
                slice(swiz, swizcount),
                slice(smap, smapcount),
            )
        };
        effect::compile(bytes, swizzles, smap, ctx)
    }))
    .unwrap_or(&raw mut effect::OUT_OF_MEM_EFFECT)
}

/// `MOJOSHADER_deleteEffect`: the shaders through `ctx->deleteShader`, the block
/// through the allocator. NULL and the static answers are left alone.
///
/// # Safety
/// `effect` is NULL or an answer of [`MOJOSHADER_compileEffect`] or
/// [`MOJOSHADER_cloneEffect`] not yet deleted.
#[no_mangle]
pub unsafe extern "C" fn MOJOSHADER_deleteEffect(effect: *const MOJOSHADER_effect) {
    // SAFETY: per the contract.
    let _ = catch_unwind(AssertUnwindSafe(|| unsafe { effect::delete(effect) }));
}

/// `MOJOSHADER_cloneEffect`: NULL for NULL, a static answer, or when memory runs out.
///
/// # Safety
/// As [`MOJOSHADER_deleteEffect`].
#[no_mangle]
pub unsafe extern "C" fn MOJOSHADER_cloneEffect(
    effect: *const MOJOSHADER_effect,
) -> *mut MOJOSHADER_effect {
    // SAFETY: per the contract.
    catch_unwind(AssertUnwindSafe(|| unsafe { effect::clone(effect) }))
        .unwrap_or(std::ptr::null_mut())
}

/// `MOJOSHADER_effectSetRawValueHandle`: nothing for NULL pointers or a write past the
/// parameter's values.
///
/// # Safety
/// `parameter` is NULL or a parameter of a live effect; `data` holds `len` bytes.
#[no_mangle]
pub unsafe extern "C" fn MOJOSHADER_effectSetRawValueHandle(
    parameter: *const MOJOSHADER_effectParam,
    data: *const c_void,
    offset: c_uint,
    len: c_uint,
) {
    if parameter.is_null() || data.is_null() {
        return;
    }
    let _ = catch_unwind(AssertUnwindSafe(|| {
        // SAFETY: per the contract.
        unsafe { effect_run::set_raw(&*parameter, data as *const u8, offset, len) }
    }));
}

/// `MOJOSHADER_effectSetRawValueName`: nothing for NULL pointers, an unknown name or a
/// write past the parameter's values.
///
/// # Safety
/// `effect` is NULL or a live effect; `name` NUL-terminated; `data` holds `len` bytes.
#[no_mangle]
pub unsafe extern "C" fn MOJOSHADER_effectSetRawValueName(
    effect: *const MOJOSHADER_effect,
    name: *const c_char,
    data: *const c_void,
    offset: c_uint,
    len: c_uint,
) {
    // SAFETY: per the contract.
    let (Some(e), Some(name)) = (unsafe { live(effect) }, unsafe { parse::c_bytes(name) }) else {
        return;
    };
    if data.is_null() {
        return;
    }
    let _ = catch_unwind(AssertUnwindSafe(|| {
        // SAFETY: per the contract.
        unsafe { effect_run::set_raw_by_name(&*e, name, data as *const u8, offset, len) }
    }));
}

/// An effect of this crate (not NULL, not a static answer).
///
/// # Safety
/// `e` is NULL, a static answer or a live effect of this crate.
unsafe fn live(e: *const MOJOSHADER_effect) -> Option<*mut MOJOSHADER_effect> {
    // SAFETY: per the contract.
    unsafe { effect::header(e) }.map(|_| e as *mut MOJOSHADER_effect)
}

/// `MOJOSHADER_effectGetCurrentTechnique` (NULL for NULL).
///
/// # Safety
/// `effect` is NULL, a static answer or a live effect.
#[no_mangle]
pub unsafe extern "C" fn MOJOSHADER_effectGetCurrentTechnique(
    effect: *const MOJOSHADER_effect,
) -> *const MOJOSHADER_effectTechnique {
    if effect.is_null() {
        return std::ptr::null();
    }
    // SAFETY: per the contract (a static answer has no technique).
    unsafe { (*effect).current_technique }
}

/// `MOJOSHADER_effectSetTechnique`: only a technique of this effect is taken.
///
/// # Safety
/// `effect` is NULL, a static answer or a live effect.
#[no_mangle]
pub unsafe extern "C" fn MOJOSHADER_effectSetTechnique(
    effect: *mut MOJOSHADER_effect,
    technique: *const MOJOSHADER_effectTechnique,
) {
    // SAFETY: per the contract.
    if let Some(e) = unsafe { live(effect) } {
        // SAFETY: a live effect of ours.
        let _ = catch_unwind(AssertUnwindSafe(|| {
            effect_run::set_technique(unsafe { &mut *e }, technique)
        }));
    }
}

/// `MOJOSHADER_effectFindNextValidTechnique`: the first technique for NULL, the next
/// one, or NULL after the last (or for a technique of another effect).
///
/// # Safety
/// `effect` is NULL, a static answer or a live effect.
#[no_mangle]
pub unsafe extern "C" fn MOJOSHADER_effectFindNextValidTechnique(
    effect: *const MOJOSHADER_effect,
    technique: *const MOJOSHADER_effectTechnique,
) -> *const MOJOSHADER_effectTechnique {
    // SAFETY: per the contract.
    match unsafe { live(effect) } {
        // SAFETY: a live effect of ours.
        Some(e) => catch_unwind(AssertUnwindSafe(|| {
            effect_run::next_technique(unsafe { &*e }, technique)
        }))
        .unwrap_or(std::ptr::null()),
        None => std::ptr::null(),
    }
}

/// Runs `f` on a live effect, catching any panic.
///
/// # Safety
/// `effect` is NULL, a static answer or a live effect.
unsafe fn with_effect(effect: *mut MOJOSHADER_effect, f: impl FnOnce(&mut MOJOSHADER_effect)) {
    // SAFETY: per the contract.
    if let Some(e) = unsafe { live(effect) } {
        // SAFETY: a live effect of ours, used by one call at a time as MojoShader's is.
        let _ = catch_unwind(AssertUnwindSafe(|| f(unsafe { &mut *e })));
    }
}

/// `MOJOSHADER_effectBegin`.
///
/// # Safety
/// `effect` is NULL, a static answer or a live effect; `numPasses` NULL or writable;
/// `stateChanges` NULL or valid until `MOJOSHADER_effectEnd`.
#[no_mangle]
pub unsafe extern "C" fn MOJOSHADER_effectBegin(
    effect: *mut MOJOSHADER_effect,
    numPasses: *mut c_uint,
    saveShaderState: c_int,
    stateChanges: *mut MOJOSHADER_effectStateChanges,
) {
    // SAFETY: per the contract.
    unsafe {
        with_effect(effect, |e| {
            effect_run::begin(e, numPasses, saveShaderState, stateChanges)
        })
    };
}

/// `MOJOSHADER_effectBeginPass`: nothing for a pass past the current technique's.
///
/// # Safety
/// As [`MOJOSHADER_effectBegin`].
#[no_mangle]
pub unsafe extern "C" fn MOJOSHADER_effectBeginPass(effect: *mut MOJOSHADER_effect, pass: c_uint) {
    // SAFETY: per the contract.
    unsafe { with_effect(effect, |e| effect_run::begin_pass(e, pass)) };
}

/// `MOJOSHADER_effectCommitChanges`.
///
/// # Safety
/// As [`MOJOSHADER_effectBegin`].
#[no_mangle]
pub unsafe extern "C" fn MOJOSHADER_effectCommitChanges(effect: *mut MOJOSHADER_effect) {
    // SAFETY: per the contract.
    unsafe { with_effect(effect, effect_run::commit) };
}

/// `MOJOSHADER_effectEndPass`.
///
/// # Safety
/// As [`MOJOSHADER_effectBegin`].
#[no_mangle]
pub unsafe extern "C" fn MOJOSHADER_effectEndPass(effect: *mut MOJOSHADER_effect) {
    // SAFETY: per the contract.
    unsafe { with_effect(effect, effect_run::end_pass) };
}

/// `MOJOSHADER_effectEnd`.
///
/// # Safety
/// As [`MOJOSHADER_effectBegin`].
#[no_mangle]
pub unsafe extern "C" fn MOJOSHADER_effectEnd(effect: *mut MOJOSHADER_effect) {
    // SAFETY: per the contract.
    unsafe { with_effect(effect, effect_run::end) };
}
