//! Arbitrary bytes through the C API as a C caller reaches it: `d3dbc_compile`,
//! `d3dbc_validate`, `d3dbc_reflect` and the effect functions. The first byte picks the
//! source type (bytecode, assembly, effect), the second the target (any of the eight, or
//! a value outside the enumeration), the third which option pairs go along (valid and
//! unknown names, malformed values); the rest is the input. No call may return
//! `D3DBC_ERROR_INTERNAL` (a caught panic) or crash, and every success hands back what
//! the matching free function takes.
#![no_main]

use std::ffi::{c_char, CStr};

use d3dbc_capi::effect::*;
use d3dbc_capi::reflect::*;
use d3dbc_capi::validate::*;
use d3dbc_capi::*;
use libfuzzer_sys::fuzz_target;

const OPTIONS: [(&CStr, &CStr); 8] = [
    (c"semantics.mul_zero", c"ieee"),
    (c"pipeline.alpha_test", c"less"),
    (c"pipeline.sm1_sampler_kinds", c"cube,volume"),
    (c"via", c"naga"),
    (c"validate", c"false"),
    (c"asm.define", c"X=1"),
    (c"pipeline.fog", c"thick"),
    (c"no.such.option", c"1"),
];

const INTERNAL: i32 = d3dbc_result::D3DBC_ERROR_INTERNAL as i32;

unsafe fn done(rc: i32, messages: *mut c_char, what: &str) {
    let text = if messages.is_null() {
        String::new()
    } else {
        CStr::from_ptr(messages).to_string_lossy().into_owned()
    };
    d3dbc_free_messages(messages);
    assert_ne!(rc, INTERNAL, "{what}: {text}");
}

fuzz_target!(|data: &[u8]| {
    if data.len() < 3 {
        return;
    }
    let (head, body) = data.split_at(3);
    let opts: Vec<d3dbc_option> = OPTIONS
        .iter()
        .enumerate()
        .filter(|(i, _)| head[2] & (1 << i) != 0)
        .map(|(_, (n, v))| d3dbc_option {
            name: n.as_ptr(),
            value: v.as_ptr(),
        })
        .collect();
    // The enumerations as a C caller may pass them, out-of-range values included.
    let mut info = d3dbc_compile_info {
        struct_size: std::mem::size_of::<d3dbc_compile_info>() as u32,
        source_type: d3dbc_source_type::D3DBC_SOURCE_BYTECODE,
        source: d3dbc_code {
            data: body.as_ptr().cast(),
            size: body.len(),
        },
        target_type: d3dbc_target_type::D3DBC_TARGET_SPIRV,
        options: opts.as_ptr(),
        option_count: opts.len(),
    };
    // SAFETY: the struct's enum fields are C `int`s; the library reads them as integers.
    unsafe {
        let p = std::ptr::addr_of_mut!(info);
        std::ptr::addr_of_mut!((*p).source_type)
            .cast::<u32>()
            .write(u32::from(head[0] % 4));
        std::ptr::addr_of_mut!((*p).target_type)
            .cast::<u32>()
            .write(u32::from(head[1] % 9));
    }
    // SAFETY: every pointer is valid for the calls; outputs are freed once.
    unsafe {
        let mut out = d3dbc_code {
            data: std::ptr::null(),
            size: 0,
        };
        let mut messages = std::ptr::null_mut();
        let rc = d3dbc_compile(&info, &mut out, &mut messages);
        done(rc, messages, "d3dbc_compile");
        d3dbc_free_code(&mut out);

        let mut v = std::ptr::null_mut();
        let rc = d3dbc_validate(&info, &mut v, &mut messages);
        done(rc, messages, "d3dbc_validate");
        d3dbc_free_validation(v);

        let mut r = std::ptr::null_mut();
        let rc = d3dbc_reflect(&info, &mut r, &mut messages);
        done(rc, messages, "d3dbc_reflect");
        d3dbc_free_interface(r);

        let mut e = std::ptr::null_mut();
        let rc = d3dbc_effect_open(body.as_ptr(), body.len(), &mut e, &mut messages);
        done(rc, messages, "d3dbc_effect_open");
        if !e.is_null() {
            for t in 0..d3dbc_effect_technique_count(e).min(4) {
                for p in 0..d3dbc_effect_pass_count(e, t).min(4) {
                    let mut s = std::ptr::null_mut();
                    let rc = d3dbc_effect_evaluate_pass(e, t, p, &mut s, &mut messages);
                    done(rc, messages, "d3dbc_effect_evaluate_pass");
                    d3dbc_free_pass_state(s);
                }
            }
            d3dbc_effect_free(e);
        }
    }
});
