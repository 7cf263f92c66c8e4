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
//! [`spirv`] for the SPIR-V layout.
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
/// the [`spirv`] module); returns 1, or 0 when either is not a `spirv` answer. The vertex
/// attribute formats are not used: d3dbc's vertex inputs are `vec4` of float at the
/// location of their input register.
///
/// # Safety
/// Both are NULL or answers of [`MOJOSHADER_parse`] with the `spirv` profile.
#[no_mangle]
pub unsafe extern "C" fn MOJOSHADER_linkSPIRVShaders(
    vertex: *const MOJOSHADER_parseData,
    pixel: *const MOJOSHADER_parseData,
    _attributes: *const MOJOSHADER_vertexAttribute,
    _attribute_count: c_int,
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
        // SAFETY: both are `spirv` answers.
        unsafe { spirv::link(v, p) }
    }))
    .unwrap_or(0)
}
