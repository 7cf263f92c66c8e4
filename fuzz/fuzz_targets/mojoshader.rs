//! Arbitrary bytes through the MojoShader face (`libd3dbc_mojoshader`) as a C caller
//! reaches it: `MOJOSHADER_parse` with the profile the first byte picks (one of the
//! five, or an unknown one), with and without the caller's allocator, then
//! `MOJOSHADER_linkSPIRVShaders` of the answer with itself (with its inputs under vertex
//! formats the first byte picks, and without) and `MOJOSHADER_parsePreshader`
//! of the same bytes. No call may report an internal error (a caught panic) or crash,
//! and every allocation of the caller's allocator must come back through its free.
#![no_main]

use std::ffi::{c_int, c_void, CStr};
use std::sync::atomic::{AtomicIsize, Ordering};

use d3dbc_mojoshader::types::*;
use d3dbc_mojoshader::*;
use libfuzzer_sys::fuzz_target;

static LIVE: AtomicIsize = AtomicIsize::new(0);

unsafe extern "C" fn counting_malloc(bytes: c_int, _: *mut c_void) -> *mut c_void {
    LIVE.fetch_add(1, Ordering::Relaxed);
    libc_malloc(bytes.max(0) as usize)
}

unsafe extern "C" fn counting_free(p: *mut c_void, _: *mut c_void) {
    if !p.is_null() {
        LIVE.fetch_sub(1, Ordering::Relaxed);
    }
    libc_free(p)
}

extern "C" {
    #[link_name = "malloc"]
    fn libc_malloc(n: usize) -> *mut c_void;
    #[link_name = "free"]
    fn libc_free(p: *mut c_void);
}

const PROFILES: [&CStr; 6] = [c"spirv", c"glsl", c"glsl120", c"d3d", c"bytecode", c"hlsl"];

fuzz_target!(|data: &[u8]| {
    let Some((&head, body)) = data.split_first() else {
        return;
    };
    let profile = PROFILES[head as usize % PROFILES.len()];
    let own = head & 0x80 != 0;
    let (m, f): (MOJOSHADER_malloc, MOJOSHADER_free) = if own {
        (Some(counting_malloc), Some(counting_free))
    } else {
        (None, None)
    };
    unsafe {
        let d = MOJOSHADER_parse(
            profile.as_ptr(),
            c"main".as_ptr(),
            body.as_ptr(),
            body.len() as u32,
            std::ptr::null(),
            0,
            std::ptr::null(),
            0,
            m,
            f,
            std::ptr::null_mut(),
        );
        assert!(!d.is_null());
        for e in 0..(*d).error_count.max(0) as usize {
            let text = CStr::from_ptr((*(*d).errors.add(e)).error).to_string_lossy();
            assert!(!text.contains("internal error"), "{text}");
        }
        // The answer's inputs under vertex formats the first byte picks (integer ones
        // retype them), and two out of range.
        let listed = if (*d).attributes.is_null() {
            0
        } else {
            (*d).attribute_count.max(0) as usize
        };
        let mut attrs: Vec<MOJOSHADER_vertexAttribute> = (0..listed)
            .map(|k| {
                let a = &*(*d).attributes.add(k);
                MOJOSHADER_vertexAttribute {
                    usage: a.usage,
                    vertexElementFormat: ((head as usize + k) % 12) as c_int,
                    usageIndex: a.index,
                }
            })
            .collect();
        attrs.push(MOJOSHADER_vertexAttribute {
            usage: -1,
            vertexElementFormat: 5,
            usageIndex: 99,
        });
        attrs.push(MOJOSHADER_vertexAttribute {
            usage: 13,
            vertexElementFormat: 99,
            usageIndex: -3,
        });
        MOJOSHADER_linkSPIRVShaders(d, d, attrs.as_ptr(), attrs.len() as c_int);
        MOJOSHADER_linkSPIRVShaders(d, d, std::ptr::null(), 0);
        MOJOSHADER_freeParseData(d);
        let p = MOJOSHADER_parsePreshader(body.as_ptr(), body.len() as u32, m, f, std::ptr::null_mut());
        MOJOSHADER_freePreshader(p);
    }
    assert_eq!(LIVE.load(Ordering::Relaxed), 0, "the face leaked");
});
