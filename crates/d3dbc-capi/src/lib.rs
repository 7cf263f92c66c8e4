//! # d3dbc-capi
//!
//! d3dbc from C: the native library `libd3dbc` (`libd3dbc_capi.{so,a}` in the build
//! tree; `cargo xtask capi --prefix DIR` installs it as `libd3dbc` with
//! `include/d3dbc.h` and `lib/pkgconfig/d3dbc.pc`). Its header is generated from this
//! crate by cbindgen (`include/d3dbc.h`; `tests/header.rs` fails when it is stale).
//!
//! The API is shaped like vkd3d-shader's: one info struct in, one code blob out,
//! messages as text.
//!
//! - [`compile::d3dbc_compile`]: bytecode, assembly text or an effect → SPIR-V, WGSL,
//!   GLSL, MSL, HLSL, the Microsoft listing, bytecode or the interface as JSON, the
//!   same bytes as the `d3dbc` command for the same input and options;
//! - [`validate::d3dbc_validate`]: the runtime validator's findings (code, DWORD offset,
//!   line and column for text, message), as `d3dbc validate` reports them;
//! - [`reflect::d3dbc_reflect`]: the interface (constant buffers, samplers, vertex
//!   inputs, varyings, outputs, bindings) and the constant table's constants as C
//!   structs;
//! - [`effect`]: open an fx_2_0 effect, list its techniques, passes and parameters, set
//!   parameters by name, evaluate a pass (its states, its shaders' bytecode, the
//!   constants its preshaders compute).
//!
//! Every entry point checks its pointers, catches any panic (reported as
//! [`d3dbc_result::D3DBC_ERROR_INTERNAL`], never unwinding into C) and keeps no global
//! state: calls on different objects run on any threads at once. Everything the library
//! returns is owned by the caller and freed with the matching `d3dbc_free_*` function;
//! strings inside a returned struct live as long as the struct.
//!
//! The binding is a thin layer: every answer comes from the library crates (`d3dbc`,
//! `d3dbc-naga`, `d3dbc-spirv`) through the calls the `d3dbc` command makes.

#![allow(non_camel_case_types)]
#![warn(missing_docs)]

pub mod compile;
pub mod effect;
mod ffi;
pub mod options;
pub mod reflect;
pub mod validate;

pub use compile::{
    d3dbc_code, d3dbc_compile, d3dbc_compile_info, d3dbc_free_code, d3dbc_free_messages,
    d3dbc_option, d3dbc_source_type, d3dbc_target_type,
};

/// What every function returns: 0 on success, a negative value saying why not (the
/// `messages` text, where the function has one, says what, where and why).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum d3dbc_result {
    /// Success.
    D3DBC_OK = 0,
    /// The input was refused: not a shader or effect, a syntax error, a shader the
    /// runtime validator rejects, a translation that failed.
    D3DBC_ERROR = -1,
    /// A NULL pointer, a `struct_size` smaller than the library's struct, a value
    /// outside an enumeration, an unknown option or an index past the end.
    D3DBC_ERROR_INVALID_ARGUMENT = -2,
    /// The source and target types do not go together (an effect to WGSL: its shaders
    /// translate one pass at a time, through the effect functions).
    D3DBC_ERROR_NOT_IMPLEMENTED = -3,
    /// A bug in the library (a caught panic); the message says where. Please report it.
    D3DBC_ERROR_INTERNAL = -4,
}

/// The library's version, `MAJOR * 10000 + MINOR * 100 + PATCH` (the crate version).
#[no_mangle]
pub extern "C" fn d3dbc_version() -> u32 {
    let v = |s: &str| s.parse::<u32>().unwrap_or(0);
    v(env!("CARGO_PKG_VERSION_MAJOR")) * 10000
        + v(env!("CARGO_PKG_VERSION_MINOR")) * 100
        + v(env!("CARGO_PKG_VERSION_PATCH"))
}
