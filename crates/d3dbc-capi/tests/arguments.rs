//! What a careless C caller can do, answered with an error code and a message instead
//! of a crash: NULL pointers, a `struct_size` from an older or garbled struct, values
//! outside the enumerations, unknown or malformed options, indexes past the end,
//! double frees of emptied outputs; and calls from many threads at once give the
//! answers one thread gets.

use std::ffi::{c_char, CStr};

use d3dbc_capi::effect::*;
use d3dbc_capi::reflect::*;
use d3dbc_capi::validate::*;
use d3dbc_capi::*;

/// ps_2_0: `dcl t0; mov oC0, t0`.
const PS: [u32; 8] = [
    0xFFFF0200, 0x0200001F, 0x80000000, 0xB00F0000, 0x02000001, 0x800F0800, 0xB0E40000, 0x0000FFFF,
];

fn bytes() -> Vec<u8> {
    PS.iter().flat_map(|w| w.to_le_bytes()).collect()
}

fn info(source: &[u8], options: &[d3dbc_option]) -> d3dbc_compile_info {
    d3dbc_compile_info {
        struct_size: std::mem::size_of::<d3dbc_compile_info>() as u32,
        source_type: d3dbc_source_type::D3DBC_SOURCE_BYTECODE,
        source: d3dbc_code {
            data: source.as_ptr().cast(),
            size: source.len(),
        },
        target_type: d3dbc_target_type::D3DBC_TARGET_SPIRV,
        options: options.as_ptr(),
        option_count: options.len(),
    }
}

/// Calls `d3dbc_compile`: its code, output and messages.
fn compile(info: *const d3dbc_compile_info) -> (i32, Vec<u8>, String) {
    let mut out = d3dbc_code {
        data: std::ptr::null(),
        size: 0,
    };
    let mut messages: *mut c_char = std::ptr::null_mut();
    // SAFETY: `info` is NULL or valid; the slots are writable; outputs freed once.
    unsafe {
        let rc = d3dbc_compile(info, &mut out, &mut messages);
        let text = if messages.is_null() {
            String::new()
        } else {
            CStr::from_ptr(messages).to_string_lossy().into_owned()
        };
        d3dbc_free_messages(messages);
        let data = if out.data.is_null() {
            Vec::new()
        } else {
            std::slice::from_raw_parts(out.data.cast::<u8>(), out.size).to_vec()
        };
        d3dbc_free_code(&mut out);
        assert!(out.data.is_null(), "d3dbc_free_code empties the code");
        d3dbc_free_code(&mut out);
        (rc, data, text)
    }
}

const INVALID: i32 = d3dbc_result::D3DBC_ERROR_INVALID_ARGUMENT as i32;

#[test]
fn null_and_short_structs_are_argument_errors() {
    let (rc, _, m) = compile(std::ptr::null());
    assert_eq!((rc, m.as_str()), (INVALID, "info: NULL"));
    let b = bytes();
    let mut i = info(&b, &[]);
    i.struct_size = 8;
    let (rc, _, m) = compile(&i);
    assert_eq!(rc, INVALID);
    assert!(m.contains("struct_size 8, expected at least"), "{m}");
    let mut i = info(&b, &[]);
    i.source.data = std::ptr::null();
    let (rc, _, m) = compile(&i);
    assert!(rc == INVALID && m.contains("NULL data with size 32"), "{m}");
    // SAFETY: NULL out-pointers are refused before anything is written.
    unsafe {
        let i = info(&b, &[]);
        assert_eq!(
            d3dbc_compile(&i, std::ptr::null_mut(), std::ptr::null_mut()),
            INVALID
        );
        assert_eq!(
            d3dbc_validate(&i, std::ptr::null_mut(), std::ptr::null_mut()),
            INVALID
        );
        assert_eq!(
            d3dbc_reflect(&i, std::ptr::null_mut(), std::ptr::null_mut()),
            INVALID
        );
        let mut e = std::ptr::null_mut();
        assert_eq!(
            d3dbc_effect_open(std::ptr::null(), 4, &mut e, std::ptr::null_mut()),
            INVALID
        );
        assert!(e.is_null());
        assert_eq!(d3dbc_effect_technique_count(std::ptr::null()), 0);
        assert!(d3dbc_effect_pass_name(std::ptr::null(), 0, 0).is_null());
        d3dbc_effect_free(std::ptr::null_mut());
        d3dbc_free_validation(std::ptr::null_mut());
        d3dbc_free_interface(std::ptr::null_mut());
        d3dbc_free_pass_state(std::ptr::null_mut());
    }
}

#[test]
fn enumerations_out_of_range_are_named() {
    let b = bytes();
    let mut i = info(&b, &[]);
    // SAFETY: the field is a C `int`; C callers may store any value there.
    unsafe {
        std::ptr::addr_of_mut!(i.target_type)
            .cast::<u32>()
            .write(42);
    }
    let (rc, _, m) = compile(&i);
    assert_eq!(rc, INVALID);
    assert!(
        m.contains("42 is not a target type") && m.contains("D3DBC_TARGET_WGSL"),
        "{m}"
    );
    let mut i = info(&b, &[]);
    // SAFETY: as above.
    unsafe {
        std::ptr::addr_of_mut!(i.source_type).cast::<u32>().write(7);
    }
    let (rc, _, m) = compile(&i);
    assert!(rc == INVALID && m.contains("D3DBC_SOURCE_EFFECT"), "{m}");
}

#[test]
fn options_are_checked_by_name_and_value() {
    let b = bytes();
    let opt = |n: &'static CStr, v: &'static CStr| d3dbc_option {
        name: n.as_ptr(),
        value: v.as_ptr(),
    };
    let (rc, _, m) = compile(&info(&b, &[opt(c"pipeline.fogg", c"linear")]));
    assert_eq!(rc, INVALID);
    assert!(
        m.contains("unknown option `pipeline.fogg`") && m.contains("pipeline.fog,"),
        "{m}"
    );
    let (rc, _, m) = compile(&info(&b, &[opt(c"semantics.mova_ties", c"sideways")]));
    assert!(rc == INVALID && m.contains("to_even"), "{m}");
    let null = d3dbc_option {
        name: c"via".as_ptr(),
        value: std::ptr::null(),
    };
    let (rc, _, m) = compile(&info(&b, &[null]));
    assert!(
        rc == INVALID && m.contains("info->options[0].value: NULL"),
        "{m}"
    );
    // Options change the code: IEEE multiplication drops the 0·x guard.
    let (rc, strict, _) = compile(&info(&b, &[]));
    assert_eq!(rc, 0);
    let (rc, same, _) = compile(&info(&b, &[opt(c"semantics.mul_zero", c"strict")]));
    assert_eq!((rc, &same), (0, &strict));
}

#[test]
fn wrong_source_types_and_targets_say_what_to_use() {
    let (rc, _, m) = {
        let text = b"ps_2_0\nmov oC0, c0\n";
        compile(&info(text, &[]))
    };
    assert_eq!(rc, d3dbc_result::D3DBC_ERROR as i32);
    assert!(m.contains("use D3DBC_SOURCE_ASSEMBLY"), "{m}");
    let b = bytes();
    let mut i = info(&b, &[]);
    i.source_type = d3dbc_source_type::D3DBC_SOURCE_EFFECT;
    let (rc, _, m) = compile(&i);
    assert!(
        rc == d3dbc_result::D3DBC_ERROR as i32 && m.contains("not an fx_2_0 effect"),
        "{m}"
    );
    // Output ends with a NUL byte the size leaves out.
    let mut i = info(&b, &[]);
    i.target_type = d3dbc_target_type::D3DBC_TARGET_ASSEMBLY;
    let (rc, text, _) = compile(&i);
    assert_eq!(rc, 0);
    assert!(String::from_utf8(text).unwrap().contains("    ps_2_0\n"));
}

#[test]
fn threads_share_nothing() {
    let b = bytes();
    let one = compile(&info(&b, &[])).1;
    std::thread::scope(|s| {
        for _ in 0..8 {
            s.spawn(|| {
                for _ in 0..20 {
                    assert_eq!(compile(&info(&b, &[])).1, one);
                    let mut r = std::ptr::null_mut();
                    // SAFETY: valid pointers; the interface is freed once.
                    unsafe {
                        assert_eq!(
                            d3dbc_reflect(&info(&b, &[]), &mut r, std::ptr::null_mut()),
                            0
                        );
                        assert_eq!((*r).sampler_count, 0);
                        assert_eq!((*r).varying_count, 1);
                        d3dbc_free_interface(r);
                    }
                }
            });
        }
    });
}
