//! Arbitrary bytes through the MojoShader face's effect API as a C caller (FNA3D's
//! glue) reaches it: `MOJOSHADER_compileEffect` with a shader context whose
//! `compileShader` is the face's `MOJOSHADER_parse` (`bytecode`), then every technique
//! run (`effectBegin`, each pass's `BeginPass` and `CommitChanges`, `EndPass`, `End`)
//! with new parameter values from the input, `cloneEffect` and `deleteEffect`. No call
//! may crash or end in a caught panic (`compileEffect` answers those as its static
//! out-of-memory effect, which this allocator never causes), every block of the
//! caller's allocator must come back, and every shader reference be released.
#![no_main]

use std::ffi::{c_char, c_int, c_uint, c_void};
use std::sync::atomic::{AtomicIsize, Ordering};

use d3dbc_mojoshader::types::*;
use d3dbc_mojoshader::*;
use libfuzzer_sys::fuzz_target;

static LIVE: AtomicIsize = AtomicIsize::new(0);
static SHADERS: AtomicIsize = AtomicIsize::new(0);

extern "C" {
    #[link_name = "malloc"]
    fn libc_malloc(n: usize) -> *mut c_void;
    #[link_name = "free"]
    fn libc_free(p: *mut c_void);
}

unsafe extern "C" fn counting_malloc(bytes: c_int, _: *mut c_void) -> *mut c_void {
    LIVE.fetch_add(1, Ordering::Relaxed);
    libc_malloc(bytes.max(1) as usize)
}

unsafe extern "C" fn counting_free(p: *mut c_void, _: *mut c_void) {
    if !p.is_null() {
        LIVE.fetch_sub(1, Ordering::Relaxed);
    }
    libc_free(p)
}

/// A shader: its parse data and reference count (one allocation, `libc_malloc`).
#[repr(C)]
struct Shader {
    pd: *const MOJOSHADER_parseData,
    refs: isize,
}

unsafe extern "C" fn compile(
    _: *const c_void,
    mainfn: *const c_char,
    tokenbuf: *const u8,
    bufsize: c_uint,
    swiz: *const MOJOSHADER_swizzle,
    swizcount: c_uint,
    smap: *const MOJOSHADER_samplerMap,
    smapcount: c_uint,
) -> *mut c_void {
    let pd = MOJOSHADER_parse(
        c"bytecode".as_ptr(),
        mainfn,
        tokenbuf,
        bufsize,
        swiz,
        swizcount,
        smap,
        smapcount,
        None,
        None,
        std::ptr::null_mut(),
    );
    let s = libc_malloc(std::mem::size_of::<Shader>()) as *mut Shader;
    s.write(Shader { pd, refs: 1 });
    SHADERS.fetch_add(1, Ordering::Relaxed);
    s as *mut c_void
}

unsafe extern "C" fn add_ref(s: *mut c_void) {
    (*(s as *mut Shader)).refs += 1;
    SHADERS.fetch_add(1, Ordering::Relaxed);
}

unsafe extern "C" fn delete_shader(_: *const c_void, s: *mut c_void) {
    let sh = s as *mut Shader;
    SHADERS.fetch_sub(1, Ordering::Relaxed);
    (*sh).refs -= 1;
    if (*sh).refs == 0 {
        MOJOSHADER_freeParseData((*sh).pd);
        libc_free(s);
    }
}

unsafe extern "C" fn parse_data(s: *mut c_void) -> *mut MOJOSHADER_parseData {
    (*(s as *mut Shader)).pd as *mut MOJOSHADER_parseData
}

static mut BOUND: [*mut c_void; 2] = [std::ptr::null_mut(); 2];

unsafe extern "C" fn bind(_: *const c_void, v: *mut c_void, p: *mut c_void) {
    BOUND = [v, p];
}

unsafe extern "C" fn bound(_: *const c_void, v: *mut *mut c_void, p: *mut *mut c_void) {
    *v = BOUND[0];
    *p = BOUND[1];
}

/// Register files as large as any constant table can address (index and count are
/// 16-bit), so that whatever a hostile table asks for stays inside them.
const REGS: usize = 2 * 65536;
static mut VF: [f32; REGS * 4] = [0.0; REGS * 4];
static mut VI: [c_int; REGS * 4] = [0; REGS * 4];
static mut VB: [u8; REGS * 2] = [0; REGS * 2];
static mut PF: [f32; REGS * 4] = [0.0; REGS * 4];
static mut PI: [c_int; REGS * 4] = [0; REGS * 4];
static mut PB: [u8; REGS * 2] = [0; REGS * 2];

unsafe extern "C" fn map(
    _: *const c_void,
    vsf: *mut *mut f32,
    vsi: *mut *mut c_int,
    vsb: *mut *mut u8,
    psf: *mut *mut f32,
    psi: *mut *mut c_int,
    psb: *mut *mut u8,
) {
    *vsf = (&raw mut VF) as *mut f32;
    *vsi = (&raw mut VI) as *mut c_int;
    *vsb = (&raw mut VB) as *mut u8;
    *psf = (&raw mut PF) as *mut f32;
    *psi = (&raw mut PI) as *mut c_int;
    *psb = (&raw mut PB) as *mut u8;
}

unsafe extern "C" fn get_error(_: *const c_void) -> *const c_char {
    c"compile failed".as_ptr()
}

fuzz_target!(|data: &[u8]| {
    let ctx = MOJOSHADER_effectShaderContext {
        compileShader: Some(compile),
        shaderAddRef: Some(add_ref),
        deleteShader: Some(delete_shader),
        getParseData: Some(parse_data),
        bindShaders: Some(bind),
        getBoundShaders: Some(bound),
        mapUniformBufferMemory: Some(map),
        unmapUniformBufferMemory: None,
        getError: Some(get_error),
        shaderContext: std::ptr::null(),
        m: Some(counting_malloc),
        f: Some(counting_free),
        malloc_data: std::ptr::null_mut(),
    };
    unsafe {
        let e = MOJOSHADER_compileEffect(
            data.as_ptr(),
            data.len() as c_uint,
            std::ptr::null(),
            0,
            std::ptr::null(),
            0,
            &ctx,
        );
        assert!(!e.is_null());
        assert!(
            !std::ptr::eq(e, &raw const d3dbc_mojoshader::effect::OUT_OF_MEM_EFFECT),
            "compileEffect caught a panic"
        );
        if (*e).error_count == 0 {
            let mut t = MOJOSHADER_effectFindNextValidTechnique(e, std::ptr::null());
            while !t.is_null() {
                MOJOSHADER_effectSetTechnique(e, t);
                let mut n = 0;
                let mut changes: MOJOSHADER_effectStateChanges = std::mem::zeroed();
                MOJOSHADER_effectBegin(e, &mut n, 1, &mut changes);
                for p in 0..n.min(16) {
                    MOJOSHADER_effectBeginPass(e, p);
                    // New values: the input's bytes over every parameter.
                    for i in 0..(*e).param_count.max(0) as usize {
                        let param = &*(*e).params.add(i);
                        let len = (param.value.value_count as usize * 4).min(data.len());
                        MOJOSHADER_effectSetRawValueHandle(param, data.as_ptr() as _, 0, len as c_uint);
                    }
                    MOJOSHADER_effectCommitChanges(e);
                    MOJOSHADER_effectEndPass(e);
                }
                MOJOSHADER_effectEnd(e);
                t = MOJOSHADER_effectFindNextValidTechnique(e, t);
            }
        }
        let c = MOJOSHADER_cloneEffect(e);
        MOJOSHADER_deleteEffect(c);
        MOJOSHADER_deleteEffect(e);
    }
    assert_eq!(LIVE.load(Ordering::Relaxed), 0, "the face leaked");
    assert_eq!(SHADERS.load(Ordering::Relaxed), 0, "a shader reference was not released");
});
