//! `d3dbc_compile`: one input (bytecode in any container the command reads, assembly
//! text, or an fx_2_0 effect) to one output, with the bytes the `d3dbc` command writes
//! for the same input and options:
//!
//! | source → target | the command |
//! |---|---|
//! | bytecode/assembly → spirv, wgsl, glsl, msl, hlsl | `d3dbc translate --target T` (`via` = `--via`) |
//! | bytecode/assembly → json | the interface `translate --interface` writes |
//! | bytecode → assembly | `d3dbc dis` (`print.offsets`, `print.tokens`) |
//! | assembly → bytecode | `d3dbc asm` (`asm.*` options) |
//! | assembly → assembly | `d3dbc asm`, then `d3dbc dis` |
//! | bytecode → bytecode | the first shader's tokens (from a C header, hex text…) |
//! | effect → assembly | `d3dbc dis` of the effect (fxc's `/Fc` listing) |
//! | effect → json | the `effect` record of `d3dbc dis --format json --pretty` |
//! | effect → bytecode | the effect's bytes (an XNA wrapper taken off) |

use std::ffi::{c_char, c_int, c_void, CString};

use d3dbc::print::PrintOptions;
use d3dbc::{input, report, Shader};

use crate::ffi::{self, Failure};
use crate::options::{self, Settings};

/// A block of bytes: an input, or an output the library allocated (freed with
/// [`d3dbc_free_code`]). Outputs are followed by a NUL byte that `size` does not count,
/// so text outputs are C strings as well.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct d3dbc_code {
    /// The bytes.
    pub data: *const c_void,
    /// How many.
    pub size: usize,
}

/// What the source bytes are.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum d3dbc_source_type {
    /// Shader bytecode: raw DWORDs, an fxc `/Fh` C header or hex text.
    D3DBC_SOURCE_BYTECODE = 0,
    /// Microsoft-format assembly text (UTF-8, UTF-16 with a byte-order mark).
    D3DBC_SOURCE_ASSEMBLY = 1,
    /// An fx_2_0 effect (`.fxo`, or XNA/FNA's wrapped `.fxb`).
    D3DBC_SOURCE_EFFECT = 2,
}

/// What to produce.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum d3dbc_target_type {
    /// SPIR-V words (little-endian bytes).
    D3DBC_TARGET_SPIRV = 0,
    /// WGSL text.
    D3DBC_TARGET_WGSL = 1,
    /// GLSL 450 text.
    D3DBC_TARGET_GLSL = 2,
    /// Metal Shading Language text.
    D3DBC_TARGET_MSL = 3,
    /// HLSL (shader model 5.1) text.
    D3DBC_TARGET_HLSL = 4,
    /// The Microsoft listing (`d3dbc dis`).
    D3DBC_TARGET_ASSEMBLY = 5,
    /// Shader bytecode (`d3dbc asm`).
    D3DBC_TARGET_BYTECODE = 6,
    /// JSON: a shader's interface, an effect's model.
    D3DBC_TARGET_JSON = 7,
}

/// One option: a name and its value, both NUL-terminated UTF-8. The names are every
/// field of the translation options by its JSON path (`semantics.mul_zero`,
/// `pipeline.alpha_test`, …) and `name`, `validate`, `via`, `print.offsets`,
/// `print.tokens`, `asm.no_validate`, `asm.raw`, `asm.no_ctab`, `asm.ctab_flags`,
/// `asm.ctab_explicit`, `asm.define`; an
/// unknown name is an error listing them all.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct d3dbc_option {
    /// The option's name.
    pub name: *const c_char,
    /// Its value: JSON (`true`, `4`, `["cube"]`) or plain text (`less`, `cube,tex2d`).
    pub value: *const c_char,
}

/// What to compile. Set `struct_size` to `sizeof(struct d3dbc_compile_info)`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct d3dbc_compile_info {
    /// `sizeof(struct d3dbc_compile_info)` as the caller was built with.
    pub struct_size: u32,
    /// What `source` holds.
    pub source_type: d3dbc_source_type,
    /// The input bytes (read during the call only).
    pub source: d3dbc_code,
    /// What to produce.
    pub target_type: d3dbc_target_type,
    /// `option_count` options (NULL when 0).
    pub options: *const d3dbc_option,
    /// How many options.
    pub option_count: usize,
}

/// A compile request read from C.
pub(crate) struct Request<'a> {
    pub source_type: d3dbc_source_type,
    pub source: &'a [u8],
    pub target: d3dbc_target_type,
    pub settings: Settings,
}

/// Reads and checks `info`.
///
/// # Safety
/// `info` must be NULL or point to a `d3dbc_compile_info` of at least `struct_size`
/// readable bytes whose pointers are valid for the call.
pub(crate) unsafe fn request<'a>(info: *const d3dbc_compile_info) -> Result<Request<'a>, Failure> {
    if info.is_null() {
        return Err(Failure::argument("info: NULL"));
    }
    // SAFETY: non-NULL; `struct_size` is the first field, present in every version.
    let size = unsafe { std::ptr::addr_of!((*info).struct_size).read() };
    if (size as usize) < std::mem::size_of::<d3dbc_compile_info>() {
        return Err(Failure::argument(format!(
            "info: struct_size {size}, expected at least {} (sizeof(struct d3dbc_compile_info))",
            std::mem::size_of::<d3dbc_compile_info>()
        )));
    }
    // The enumerations are read as integers: a value outside them is an error here,
    // never an invalid Rust enum.
    // SAFETY: the struct is readable (size checked); enums are `int`-sized.
    let (source_raw, target_raw, source, opts, count) = unsafe {
        (
            std::ptr::addr_of!((*info).source_type).cast::<u32>().read(),
            std::ptr::addr_of!((*info).target_type).cast::<u32>().read(),
            std::ptr::addr_of!((*info).source).read(),
            std::ptr::addr_of!((*info).options).read(),
            std::ptr::addr_of!((*info).option_count).read(),
        )
    };
    let source_type = source_type(source_raw)?;
    let target = target_type(target_raw)?;
    // SAFETY: the caller guarantees `source` and `options` point to what they say.
    let source = unsafe { ffi::bytes(source.data.cast(), source.size, "info->source")? };
    let opts = unsafe { ffi::slice(opts, count, "info->options")? };
    let mut pairs = Vec::with_capacity(opts.len());
    for (i, o) in opts.iter().enumerate() {
        // SAFETY: each option's strings are NUL-terminated or NULL (checked).
        let name = unsafe { ffi::str_arg(o.name, &format!("info->options[{i}].name"))? };
        let value = unsafe { ffi::str_arg(o.value, &format!("info->options[{i}].value"))? };
        pairs.push((name, value));
    }
    let settings = options::parse(pairs).map_err(Failure::argument)?;
    Ok(Request {
        source_type,
        source,
        target,
        settings,
    })
}

fn source_type(v: u32) -> Result<d3dbc_source_type, Failure> {
    use d3dbc_source_type::*;
    Ok(match v {
        0 => D3DBC_SOURCE_BYTECODE,
        1 => D3DBC_SOURCE_ASSEMBLY,
        2 => D3DBC_SOURCE_EFFECT,
        _ => {
            return Err(Failure::argument(format!(
                "info->source_type: {v} is not a source type (D3DBC_SOURCE_BYTECODE, \
                 D3DBC_SOURCE_ASSEMBLY, D3DBC_SOURCE_EFFECT)"
            )))
        }
    })
}

fn target_type(v: u32) -> Result<d3dbc_target_type, Failure> {
    use d3dbc_target_type::*;
    Ok(match v {
        0 => D3DBC_TARGET_SPIRV,
        1 => D3DBC_TARGET_WGSL,
        2 => D3DBC_TARGET_GLSL,
        3 => D3DBC_TARGET_MSL,
        4 => D3DBC_TARGET_HLSL,
        5 => D3DBC_TARGET_ASSEMBLY,
        6 => D3DBC_TARGET_BYTECODE,
        7 => D3DBC_TARGET_JSON,
        _ => {
            return Err(Failure::argument(format!(
                "info->target_type: {v} is not a target type (D3DBC_TARGET_SPIRV, \
                 D3DBC_TARGET_WGSL, D3DBC_TARGET_GLSL, D3DBC_TARGET_MSL, D3DBC_TARGET_HLSL, \
                 D3DBC_TARGET_ASSEMBLY, D3DBC_TARGET_BYTECODE, D3DBC_TARGET_JSON)"
            )))
        }
    })
}

/// Checks that `bytes` are what `source_type` says: an effect, bytecode, or text.
pub(crate) fn check_kind(source_type: d3dbc_source_type, bytes: &[u8]) -> Result<(), Failure> {
    use d3dbc_source_type::*;
    let effect = d3dbc::fx::Effect::is_effect(bytes);
    let bytecode = !effect && input::read_any(bytes).is_ok();
    match source_type {
        D3DBC_SOURCE_EFFECT if !effect => Err(Failure::input(
            "D3DBC_SOURCE_EFFECT: not an fx_2_0 effect (no 0xFEFF0901 tag, nor an XNA \
             wrapper around one)",
        )),
        D3DBC_SOURCE_BYTECODE if effect => Err(Failure::input(
            "D3DBC_SOURCE_BYTECODE: this is an fx_2_0 effect: use D3DBC_SOURCE_EFFECT",
        )),
        D3DBC_SOURCE_BYTECODE if !bytecode && !bytes.is_empty() && !input::is_binary(bytes) => {
            Err(Failure::input(
                "D3DBC_SOURCE_BYTECODE: this is assembly text: use D3DBC_SOURCE_ASSEMBLY",
            ))
        }
        D3DBC_SOURCE_ASSEMBLY if effect || (bytecode && !bytes.is_ascii()) => Err(Failure::input(
            "D3DBC_SOURCE_ASSEMBLY: binary input, not assembly text: use \
             D3DBC_SOURCE_BYTECODE or D3DBC_SOURCE_EFFECT",
        )),
        _ => Ok(()),
    }
}

/// The output of one request and its warnings.
pub(crate) fn run(r: &Request) -> Result<(Vec<u8>, Vec<String>), Failure> {
    use d3dbc_source_type::*;
    use d3dbc_target_type::*;
    check_kind(r.source_type, r.source)?;
    let s = &r.settings;
    let mut warnings = Vec::new();
    let out = match (r.source_type, r.target) {
        (D3DBC_SOURCE_EFFECT, t) => {
            let e = d3dbc::fx::Effect::parse(r.source)
                .map_err(|e| Failure::input(format!("{}: {e}", s.name)))?;
            match t {
                D3DBC_TARGET_ASSEMBLY => e.listing().into_bytes(),
                D3DBC_TARGET_JSON => serde_json::to_string_pretty(&e)
                    .map_err(|e| Failure::input(e.to_string()))?
                    .into_bytes(),
                D3DBC_TARGET_BYTECODE => r.source[e.start..e.start + e.size].to_vec(),
                _ => {
                    return Err(Failure::unsupported(
                        "an effect's shaders translate one pass at a time: \
                         d3dbc_effect_evaluate_pass gives each pass's bytecode (targets \
                         for an effect: D3DBC_TARGET_ASSEMBLY, _JSON, _BYTECODE)",
                    ))
                }
            }
        }
        (D3DBC_SOURCE_ASSEMBLY, D3DBC_TARGET_BYTECODE) => {
            words_bytes(&assemble(r.source, s, &mut warnings)?.encode())
        }
        (D3DBC_SOURCE_ASSEMBLY, D3DBC_TARGET_ASSEMBLY) => {
            let tokens = assemble(r.source, s, &mut warnings)?.encode();
            listing(&tokens, s, &mut warnings)?.into_bytes()
        }
        (D3DBC_SOURCE_BYTECODE, D3DBC_TARGET_ASSEMBLY) => {
            listing_of_input(r.source, s, &mut warnings)?.into_bytes()
        }
        (D3DBC_SOURCE_BYTECODE, D3DBC_TARGET_BYTECODE) => {
            let found = input::read_any(r.source)
                .map_err(|e| Failure::input(format!("{}: {e}", s.name)))?;
            let located = report::locate(&found, false, &mut warnings)
                .map_err(|e| Failure::input(format!("{}: {e}", s.name)))?;
            words_bytes(located.first().map_or(&[][..], |l| l.tokens))
        }
        (_, t) => {
            let shader = load(r.source, s, &mut warnings)?;
            translate(&shader, t, s)?
        }
    };
    Ok((out, warnings))
}

fn words_bytes(tokens: &[u32]) -> Vec<u8> {
    tokens.iter().flat_map(|t| t.to_le_bytes()).collect()
}

/// `d3dbc asm`: assembles the text and rebuilds its constant table from the header.
fn assemble(bytes: &[u8], s: &Settings, warnings: &mut Vec<String>) -> Result<Shader, Failure> {
    let text = input::decode_text(bytes);
    let mut shader = d3dbc::asm::assemble(&text, &s.asm).map_err(|d| {
        Failure::input(if d.0.is_empty() {
            format!("{}: assembly failed", s.name)
        } else {
            d.to_string()
        })
    })?;
    if !s.no_ctab {
        if let Some(w) = d3dbc::asm::ctab_header::rebuild(&mut shader, &text, &s.name, &s.ctab) {
            warnings.push(w.to_string());
        }
    }
    Ok(shader)
}

fn print_options(s: &Settings) -> PrintOptions {
    PrintOptions {
        offsets: s.offsets,
        tokens: s.tokens,
        ..Default::default()
    }
}

/// `d3dbc dis` of tokens already assembled.
fn listing(tokens: &[u32], s: &Settings, warnings: &mut Vec<String>) -> Result<String, Failure> {
    let found = [input::Found {
        name: None,
        tokens: tokens.to_vec(),
        container: None,
    }];
    let located = report::locate(&found, false, warnings).map_err(Failure::input)?;
    Ok(report::listing(&located, &print_options(s)))
}

/// `d3dbc dis` of an input.
fn listing_of_input(
    bytes: &[u8],
    s: &Settings,
    warnings: &mut Vec<String>,
) -> Result<String, Failure> {
    let found = input::read_any(bytes).map_err(|e| Failure::input(format!("{}: {e}", s.name)))?;
    let located = report::locate(&found, false, warnings)
        .map_err(|e| Failure::input(format!("{}: {e}", s.name)))?;
    Ok(report::listing(&located, &print_options(s)))
}

/// The shader `translate` takes: the first of the input, refused when the validator
/// rejects it unless `validate` is false (then the report is a warning).
pub(crate) fn load(
    bytes: &[u8],
    s: &Settings,
    warnings: &mut Vec<String>,
) -> Result<Shader, Failure> {
    let l = report::load_first(
        bytes,
        &s.name,
        !s.validate,
        Some("translate takes one per file"),
    )
    .map_err(Failure::input)?;
    warnings.extend(l.warning);
    Ok(l.shader)
}

/// `d3dbc translate` of one loaded shader to `target` (JSON: its interface).
fn translate(shader: &Shader, target: d3dbc_target_type, s: &Settings) -> Result<Vec<u8>, Failure> {
    use d3dbc_naga::Target as Lang;
    use d3dbc_target_type::*;
    let lang = match target {
        D3DBC_TARGET_SPIRV => Lang::Spirv,
        D3DBC_TARGET_WGSL => Lang::Wgsl,
        D3DBC_TARGET_GLSL => Lang::Glsl,
        D3DBC_TARGET_MSL => Lang::Msl,
        D3DBC_TARGET_HLSL => Lang::Hlsl,
        _ => {
            let iface = interface(shader, s)?;
            return serde_json::to_string_pretty(&iface)
                .map(String::into_bytes)
                .map_err(|e| Failure::input(e.to_string()));
        }
    };
    let fail = |e: String| Failure::input(format!("{}: {e}", s.name));
    if lang == Lang::Spirv && !s.via_naga {
        let t = d3dbc_spirv::translate(shader, &s.translate).map_err(|e| fail(e.to_string()))?;
        return Ok(words_bytes(&t.words));
    }
    let t = d3dbc_naga::translate(shader, &s.translate).map_err(|e| fail(e.to_string()))?;
    t.emit(lang).map_err(|e| fail(e.to_string()))
}

/// The interface of `shader` under the options (the same from both back ends: the
/// chosen one gives it).
pub(crate) fn interface(
    shader: &Shader,
    s: &Settings,
) -> Result<d3dbc::target::Interface, Failure> {
    let fail = |e: String| Failure::input(format!("{}: {e}", s.name));
    if s.via_naga {
        d3dbc_naga::translate(shader, &s.translate)
            .map(|t| t.interface)
            .map_err(|e| fail(e.to_string()))
    } else {
        d3dbc_spirv::translate(shader, &s.translate)
            .map(|t| t.interface)
            .map_err(|e| fail(e.to_string()))
    }
}

/// Hands bytes to C as a [`d3dbc_code`] (a NUL byte after them).
pub(crate) fn code(mut bytes: Vec<u8>) -> d3dbc_code {
    let size = bytes.len();
    bytes.push(0);
    let data = Box::into_raw(bytes.into_boxed_slice()).cast::<u8>();
    d3dbc_code {
        data: data.cast(),
        size,
    }
}

/// Compiles `info->source` to `info->target_type`. On success returns 0 and sets
/// `*out` to the output (free it with `d3dbc_free_code`); otherwise returns a negative
/// `d3dbc_result` and leaves `*out` empty (`{NULL, 0}`). `messages` may be NULL; when
/// not, `*messages` receives the errors or warnings as text (a string to free with
/// `d3dbc_free_messages`), or NULL when there are none.
///
/// # Safety
/// `info` must point to a valid `d3dbc_compile_info` (with `struct_size` set) whose
/// pointers are valid for the call; `out` to a writable `d3dbc_code`; `messages` be NULL
/// or point to a writable `char *`.
#[no_mangle]
pub unsafe extern "C" fn d3dbc_compile(
    info: *const d3dbc_compile_info,
    out: *mut d3dbc_code,
    messages: *mut *mut c_char,
) -> c_int {
    ffi::guard("d3dbc_compile", messages, || {
        ffi::out_arg(out, "out")?;
        // SAFETY: checked non-NULL; the caller passes a writable struct.
        unsafe {
            out.write(d3dbc_code {
                data: std::ptr::null(),
                size: 0,
            })
        };
        // SAFETY: per this function's contract.
        let r = unsafe { request(info)? };
        let (bytes, warnings) = run(&r)?;
        // SAFETY: as above.
        unsafe { out.write(code(bytes)) };
        Ok(warnings.join("\n"))
    })
}

/// Frees an output of `d3dbc_compile` (or of the effect functions) and empties
/// `*code`. NULL, or a `code` already freed (empty), is ignored.
///
/// # Safety
/// `code` must be NULL or point to a `d3dbc_code` the library filled, or an empty one.
#[no_mangle]
pub unsafe extern "C" fn d3dbc_free_code(code: *mut d3dbc_code) {
    ffi::quiet((), || {
        if code.is_null() {
            return;
        }
        // SAFETY: non-NULL, points to a library-filled or empty struct.
        let c = unsafe { code.read() };
        if !c.data.is_null() {
            let slice = std::ptr::slice_from_raw_parts_mut(c.data as *mut u8, c.size + 1);
            // SAFETY: `code()` made this from a boxed slice of `size + 1` bytes.
            drop(unsafe { Box::from_raw(slice) });
        }
        // SAFETY: as above.
        unsafe {
            code.write(d3dbc_code {
                data: std::ptr::null(),
                size: 0,
            })
        };
    })
}

/// Frees a messages string the library returned (NULL is ignored).
///
/// # Safety
/// `messages` must be NULL or a string a `d3dbc_*` function returned, not yet freed.
#[no_mangle]
pub unsafe extern "C" fn d3dbc_free_messages(messages: *mut c_char) {
    ffi::quiet((), || {
        if !messages.is_null() {
            // SAFETY: made by `CString::into_raw` in `ffi::guard`.
            drop(unsafe { CString::from_raw(messages) });
        }
    })
}
