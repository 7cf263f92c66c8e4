//! The careless caller of the MojoShader face: NULL pointers, unknown profiles, a long
//! main function name, bad swizzles, garbage and truncated bytes, an allocator that
//! fails, one that counts (every block comes back), and linking answers that are not
//! `spirv` ones. Every call answers as MojoShader's API documents: never NULL from
//! `MOJOSHADER_parse`, errors in the answer, nothing freed twice.

use std::ffi::{c_int, c_void, CStr};
use std::sync::atomic::{AtomicIsize, Ordering};

use d3dbc_mojoshader::types::*;
use d3dbc_mojoshader::*;

/// ps_2_0: `def c0, 1, 0, 0, 1; mov oC0, c0`.
const PS: [u32; 9] = [
    0xFFFF_0200,
    0x0500_0051,
    0xA00F_0000,
    0x3F80_0000,
    0,
    0,
    0x3F80_0000,
    0x0200_0001,
    0x800F_0800,
];

fn ps_bytes() -> Vec<u8> {
    let mut t = PS.to_vec();
    t.push(0xA0E4_0000);
    t.push(0x0000_FFFF);
    t.iter().flat_map(|w| w.to_le_bytes()).collect()
}

unsafe fn parse(
    profile: &CStr,
    bytes: &[u8],
    m: MOJOSHADER_malloc,
    f: MOJOSHADER_free,
) -> *const MOJOSHADER_parseData {
    MOJOSHADER_parse(
        profile.as_ptr(),
        c"main".as_ptr(),
        bytes.as_ptr(),
        bytes.len() as u32,
        std::ptr::null(),
        0,
        std::ptr::null(),
        0,
        m,
        f,
        std::ptr::null_mut(),
    )
}

unsafe fn first_error(d: *const MOJOSHADER_parseData) -> Option<(String, c_int)> {
    let d = &*d;
    (d.error_count > 0).then(|| {
        let e = &*d.errors;
        (
            CStr::from_ptr(e.error).to_string_lossy().into_owned(),
            e.error_position,
        )
    })
}

#[test]
fn every_profile_parses_a_small_shader() {
    for profile in [c"spirv", c"glsl", c"glsl120", c"d3d", c"bytecode"] {
        unsafe {
            let d = parse(profile, &ps_bytes(), None, None);
            assert_eq!(first_error(d), None, "{profile:?}");
            let r = &*d;
            assert_eq!(CStr::from_ptr(r.profile), profile);
            assert_eq!(
                (r.shader_type, r.major_ver, r.minor_ver),
                (TYPE_PIXEL, 2, 0)
            );
            assert_eq!(r.constant_count, 1);
            assert_eq!((*r.constants).index, 0);
            assert_eq!(r.output_count, 1);
            assert!(r.output_len > 0 && !r.output.is_null());
            MOJOSHADER_freeParseData(d);
        }
    }
}

#[test]
fn unknown_profile_is_mojoshaders_error() {
    unsafe {
        let d = parse(c"hlsl", &ps_bytes(), None, None);
        assert_eq!(
            first_error(d),
            Some(("Profile 'hlsl' is unknown or unsupported".into(), -2))
        );
        assert!((*d).profile.is_null());
        MOJOSHADER_freeParseData(d);
        assert_eq!(MOJOSHADER_maxShaderModel(c"hlsl".as_ptr()), -1);
        assert_eq!(MOJOSHADER_maxShaderModel(c"spirv".as_ptr()), 3);
        assert_eq!(MOJOSHADER_maxShaderModel(std::ptr::null()), -1);
    }
}

#[test]
fn null_and_bad_arguments_answer_with_errors() {
    unsafe {
        let d = MOJOSHADER_parse(
            std::ptr::null(),
            std::ptr::null(),
            std::ptr::null(),
            0,
            std::ptr::null(),
            0,
            std::ptr::null(),
            0,
            None,
            None,
            std::ptr::null_mut(),
        );
        assert!(first_error(d).is_some());
        MOJOSHADER_freeParseData(d);

        let long =
            c"a_main_function_name_far_longer_than_the_fifty_five_characters_mojoshader_takes";
        let bytes = ps_bytes();
        let d = MOJOSHADER_parse(
            c"spirv".as_ptr(),
            long.as_ptr(),
            bytes.as_ptr(),
            bytes.len() as u32,
            std::ptr::null(),
            0,
            std::ptr::null(),
            0,
            None,
            None,
            std::ptr::null_mut(),
        );
        assert!(first_error(d).unwrap().0.contains("too big"));
        MOJOSHADER_freeParseData(d);

        let swiz = [MOJOSHADER_swizzle {
            usage: 10,
            index: 0,
            swizzles: [0, 1, 2, 7],
        }];
        let d = MOJOSHADER_parse(
            c"spirv".as_ptr(),
            c"main".as_ptr(),
            bytes.as_ptr(),
            bytes.len() as u32,
            swiz.as_ptr(),
            1,
            std::ptr::null(),
            0,
            None,
            None,
            std::ptr::null_mut(),
        );
        assert_eq!(first_error(d).unwrap().0, "invalid swizzle");
        MOJOSHADER_freeParseData(d);

        // Garbage, and every truncation of a real shader: an error or an answer, never
        // a crash; the error says where (a byte position) and what.
        for cut in 0..bytes.len() {
            let d = parse(c"spirv", &bytes[..cut], None, None);
            if let Some((msg, pos)) = first_error(d) {
                assert!(!msg.is_empty() && pos >= -3, "{cut}: {msg} at {pos}");
            }
            MOJOSHADER_freeParseData(d);
        }
        let d = parse(c"glsl", b"not a shader at all", None, None);
        assert!(first_error(d).unwrap().0.contains("version token"));
        MOJOSHADER_freeParseData(d);

        MOJOSHADER_freeParseData(std::ptr::null());
        MOJOSHADER_freePreshader(std::ptr::null());
        assert!(
            MOJOSHADER_parsePreshader(std::ptr::null(), 4, None, None, std::ptr::null_mut())
                .is_null()
        );
        assert!(MOJOSHADER_parsePreshader(
            bytes.as_ptr(),
            bytes.len() as u32,
            None,
            None,
            std::ptr::null_mut()
        )
        .is_null());
        assert_eq!(
            MOJOSHADER_linkSPIRVShaders(std::ptr::null(), std::ptr::null(), std::ptr::null(), 0),
            0
        );
        let g = parse(c"glsl", &bytes, None, None);
        assert_eq!(MOJOSHADER_linkSPIRVShaders(g, g, std::ptr::null(), 0), 0);
        MOJOSHADER_freeParseData(g);
    }
}

static LIVE: AtomicIsize = AtomicIsize::new(0);

extern "C" {
    fn malloc(n: usize) -> *mut c_void;
    fn free(p: *mut c_void);
}

unsafe extern "C" fn counting_malloc(bytes: c_int, data: *mut c_void) -> *mut c_void {
    assert_eq!(
        data as usize, 0x1234,
        "the caller's data pointer is passed on"
    );
    LIVE.fetch_add(1, Ordering::SeqCst);
    malloc(bytes as usize)
}

unsafe extern "C" fn counting_free(p: *mut c_void, data: *mut c_void) {
    assert_eq!(data as usize, 0x1234);
    LIVE.fetch_sub(1, Ordering::SeqCst);
    free(p)
}

unsafe extern "C" fn failing_malloc(_: c_int, _: *mut c_void) -> *mut c_void {
    std::ptr::null_mut()
}

#[test]
fn memory_goes_through_the_callers_allocator() {
    unsafe {
        let bytes = ps_bytes();
        let d = MOJOSHADER_parse(
            c"spirv".as_ptr(),
            c"main".as_ptr(),
            bytes.as_ptr(),
            bytes.len() as u32,
            std::ptr::null(),
            0,
            std::ptr::null(),
            0,
            Some(counting_malloc),
            Some(counting_free),
            0x1234 as *mut c_void,
        );
        assert!(LIVE.load(Ordering::SeqCst) > 0);
        assert_eq!((*d).malloc_data as usize, 0x1234);
        MOJOSHADER_freeParseData(d);
        assert_eq!(LIVE.load(Ordering::SeqCst), 0);

        // Out of memory: MojoShader's static answer, which freeing leaves alone.
        let d = parse(c"spirv", &bytes, Some(failing_malloc), Some(counting_free));
        assert_eq!(first_error(d).unwrap().0, "Out of memory");
        MOJOSHADER_freeParseData(d);
        MOJOSHADER_freeParseData(d);
    }
}

#[test]
fn version_and_changeset() {
    assert!(MOJOSHADER_version() >= 0);
    let c = unsafe { CStr::from_ptr(MOJOSHADER_changeset()) };
    assert!(c.to_str().unwrap().starts_with("d3dbc-"));
}
