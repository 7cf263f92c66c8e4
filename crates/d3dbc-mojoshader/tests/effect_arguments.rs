//! The careless caller of the face's effect API: NULL effects, parameters, names, data,
//! techniques, pass counts and state-change structures; the static error answers passed
//! back in; a context without callbacks, one whose `compileShader` fails, mismatched
//! allocator functions; truncated and foreign bytes; a pass index past the technique;
//! writes past a parameter's values. Every call answers as MojoShader's API documents
//! (never NULL from `compileEffect`, errors in the answer) and nothing is written out of
//! bounds, freed twice or leaked (a counting allocator sees every block come back).

use std::ffi::{c_char, c_int, c_uint, c_void, CStr};
use std::sync::atomic::{AtomicIsize, AtomicUsize, Ordering};

use d3dbc_mojoshader::types::*;
use d3dbc_mojoshader::*;

/// ps_2_0: `def c0, 1, 0, 0, 1; mov oC0, c0`.
const PS: [u32; 11] = [
    0xFFFF_0200,
    0x0500_0051,
    0xA00F_0000,
    0x3F80_0000,
    0,
    0,
    0x3F80_0000,
    0x0200_0001,
    0x800F_0800,
    0xA0E4_0000,
    0x0000_FFFF,
];

/// A string as the effect stores it: length (with the NUL), bytes, padding.
fn string(body: &mut Vec<u32>, s: &str) -> u32 {
    let at = (body.len() * 4) as u32;
    let mut b = s.as_bytes().to_vec();
    b.push(0);
    body.push(b.len() as u32);
    b.resize(b.len().div_ceil(4) * 4, 0);
    body.extend(
        b.chunks(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])),
    );
    at
}

/// A small fx_2_0 effect: `float4 color = {1, 2, 3, 4};` and technique `t` with pass
/// `p` setting `PixelShader` to the shader [`PS`].
fn effect_bytes() -> Vec<u8> {
    let mut body: Vec<u32> = Vec::new();
    let name = string(&mut body, "color");
    let empty = (body.len() * 4) as u32;
    body.push(0);
    // float4 typedef: type, class, name, semantic, elements, columns, rows.
    let float4 = (body.len() * 4) as u32;
    body.extend([3, 1, name, empty, 0, 4, 1]);
    let value = (body.len() * 4) as u32;
    body.extend([1.0f32, 2.0, 3.0, 4.0].map(f32::to_bits));
    // pixelshader typedef and its value (object 0).
    let ps_type = (body.len() * 4) as u32;
    body.extend([15, 4, empty, empty, 0]);
    let ps_value = (body.len() * 4) as u32;
    body.push(0);
    let tech = string(&mut body, "t");
    let pass = string(&mut body, "p");
    let table = (body.len() * 4) as u32;
    // parameters 1, techniques 1, reserved, objects 1
    body.extend([1, 1, 0, 1]);
    body.extend([float4, value, 0, 0]);
    body.extend([tech, 0, 1]);
    body.extend([pass, 0, 1]);
    // state: PixelShader (147), index 0
    body.extend([147, 0, ps_type, ps_value]);
    // strings 0, resources 1: technique 0, pass 0, element 0, state 0, usage 0, size.
    body.extend([0, 1, 0, 0, 0, 0, 0, (PS.len() * 4) as u32]);
    body.extend(PS);
    let mut words = vec![0xFEFF_0901, table];
    words.extend(body);
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

static LIVE: AtomicIsize = AtomicIsize::new(0);
static REFS: AtomicIsize = AtomicIsize::new(0);
static BINDS: AtomicUsize = AtomicUsize::new(0);

unsafe extern "C" fn counting_malloc(bytes: c_int, _d: *mut c_void) -> *mut c_void {
    LIVE.fetch_add(1, Ordering::SeqCst);
    let v = vec![0u64; (bytes.max(1) as usize).div_ceil(8) + 1].into_boxed_slice();
    let p = Box::into_raw(v) as *mut u64;
    *p = (bytes.max(1) as usize).div_ceil(8) as u64 + 1;
    p.add(1) as *mut c_void
}

unsafe extern "C" fn counting_free(p: *mut c_void, _d: *mut c_void) {
    if p.is_null() {
        return;
    }
    LIVE.fetch_sub(1, Ordering::SeqCst);
    let base = (p as *mut u64).sub(1);
    let n = *base as usize;
    drop(Box::from_raw(std::ptr::slice_from_raw_parts_mut(base, n)));
}

unsafe extern "C" fn compile(
    _ctx: *const c_void,
    mainfn: *const c_char,
    tokenbuf: *const u8,
    bufsize: c_uint,
    swiz: *const MOJOSHADER_swizzle,
    swizcount: c_uint,
    smap: *const MOJOSHADER_samplerMap,
    smapcount: c_uint,
) -> *mut c_void {
    REFS.fetch_add(1, Ordering::SeqCst);
    MOJOSHADER_parse(
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
    ) as *mut c_void
}

unsafe extern "C" fn compile_fails(
    _ctx: *const c_void,
    _mainfn: *const c_char,
    _tokenbuf: *const u8,
    _bufsize: c_uint,
    _swiz: *const MOJOSHADER_swizzle,
    _swizcount: c_uint,
    _smap: *const MOJOSHADER_samplerMap,
    _smapcount: c_uint,
) -> *mut c_void {
    std::ptr::null_mut()
}

unsafe extern "C" fn get_error(_ctx: *const c_void) -> *const c_char {
    c"the backend says no".as_ptr()
}

unsafe extern "C" fn add_ref(_s: *mut c_void) {
    REFS.fetch_add(1, Ordering::SeqCst);
}

unsafe extern "C" fn delete_shader(_ctx: *const c_void, s: *mut c_void) {
    // The parse data is shared by every reference: freed with the last.
    if REFS.fetch_sub(1, Ordering::SeqCst) == 1 {
        MOJOSHADER_freeParseData(s as *const MOJOSHADER_parseData);
    }
}

unsafe extern "C" fn parse_data(s: *mut c_void) -> *mut MOJOSHADER_parseData {
    s as *mut MOJOSHADER_parseData
}

unsafe extern "C" fn bind(_ctx: *const c_void, _v: *mut c_void, _p: *mut c_void) {
    BINDS.fetch_add(1, Ordering::SeqCst);
}

unsafe extern "C" fn bound(_ctx: *const c_void, v: *mut *mut c_void, p: *mut *mut c_void) {
    *v = std::ptr::null_mut();
    *p = std::ptr::null_mut();
}

static mut FILES: [f32; 64] = [0.0; 64];

unsafe extern "C" fn map(
    _ctx: *const c_void,
    vsf: *mut *mut f32,
    vsi: *mut *mut c_int,
    vsb: *mut *mut u8,
    psf: *mut *mut f32,
    psi: *mut *mut c_int,
    psb: *mut *mut u8,
) {
    *vsf = std::ptr::null_mut();
    *vsi = std::ptr::null_mut();
    *vsb = std::ptr::null_mut();
    *psf = (&raw mut FILES) as *mut f32;
    *psi = std::ptr::null_mut();
    *psb = std::ptr::null_mut();
}

fn context() -> MOJOSHADER_effectShaderContext {
    MOJOSHADER_effectShaderContext {
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
    }
}

unsafe fn compile_effect(
    bytes: &[u8],
    ctx: *const MOJOSHADER_effectShaderContext,
) -> *mut MOJOSHADER_effect {
    MOJOSHADER_compileEffect(
        if bytes.is_empty() {
            std::ptr::null()
        } else {
            bytes.as_ptr()
        },
        bytes.len() as c_uint,
        std::ptr::null(),
        0,
        std::ptr::null(),
        0,
        ctx,
    )
}

unsafe fn errors(e: *const MOJOSHADER_effect) -> Vec<String> {
    let e = &*e;
    (0..e.error_count as usize)
        .map(|i| {
            CStr::from_ptr((*e.errors.add(i)).error)
                .to_string_lossy()
                .into_owned()
        })
        .collect()
}

/// One test at a time touches the counters.
static SERIAL: std::sync::Mutex<()> = std::sync::Mutex::new(());

#[test]
fn static_answers_for_a_missing_context_bad_allocators_and_foreign_bytes() {
    let _g = SERIAL.lock().unwrap();
    unsafe {
        let ctx = context();
        let e = compile_effect(&effect_bytes(), std::ptr::null());
        assert_eq!(errors(e), ["Need a MOJOSHADER_effectShaderContext"]);
        let e2 = compile_effect(&[], &ctx);
        assert_eq!(errors(e2), ["Unexpected EOF"]);
        let e3 = compile_effect(&[0xFF; 64], &ctx);
        assert_eq!(errors(e3), ["Not an Effects Framework binary"]);
        let mut half = ctx;
        half.f = None;
        let e4 = compile_effect(&effect_bytes(), &half);
        assert_eq!(errors(e4), ["Out of memory"]);
        // Static answers go through every entry point untouched.
        for s in [e, e2, e3, e4] {
            assert!(MOJOSHADER_cloneEffect(s).is_null());
            assert!(MOJOSHADER_effectGetCurrentTechnique(s).is_null());
            assert!(MOJOSHADER_effectFindNextValidTechnique(s, std::ptr::null()).is_null());
            let mut n = 7;
            MOJOSHADER_effectBegin(s, &mut n, 1, std::ptr::null_mut());
            assert_eq!(n, 7);
            MOJOSHADER_effectBeginPass(s, 0);
            MOJOSHADER_effectCommitChanges(s);
            MOJOSHADER_effectEndPass(s);
            MOJOSHADER_effectEnd(s);
            MOJOSHADER_effectSetTechnique(s, std::ptr::null());
            MOJOSHADER_effectSetRawValueName(s, c"color".as_ptr(), [0u8; 4].as_ptr() as _, 0, 4);
            MOJOSHADER_deleteEffect(s);
            assert_eq!((*s).error_count, 1);
        }
        assert_eq!(LIVE.load(Ordering::SeqCst), 0);
    }
}

#[test]
fn null_arguments_do_nothing() {
    let _g = SERIAL.lock().unwrap();
    unsafe {
        MOJOSHADER_deleteEffect(std::ptr::null());
        assert!(MOJOSHADER_cloneEffect(std::ptr::null()).is_null());
        assert!(MOJOSHADER_effectGetCurrentTechnique(std::ptr::null()).is_null());
        assert!(
            MOJOSHADER_effectFindNextValidTechnique(std::ptr::null(), std::ptr::null()).is_null()
        );
        MOJOSHADER_effectSetTechnique(std::ptr::null_mut(), std::ptr::null());
        MOJOSHADER_effectSetRawValueHandle(std::ptr::null(), [0u8; 4].as_ptr() as _, 0, 4);
        MOJOSHADER_effectSetRawValueName(
            std::ptr::null(),
            c"x".as_ptr(),
            [0u8; 4].as_ptr() as _,
            0,
            4,
        );
        MOJOSHADER_effectBegin(
            std::ptr::null_mut(),
            std::ptr::null_mut(),
            0,
            std::ptr::null_mut(),
        );
        MOJOSHADER_effectBeginPass(std::ptr::null_mut(), 0);
        MOJOSHADER_effectCommitChanges(std::ptr::null_mut());
        MOJOSHADER_effectEndPass(std::ptr::null_mut());
        MOJOSHADER_effectEnd(std::ptr::null_mut());
    }
}

#[test]
fn a_small_effect_runs_and_bad_arguments_change_nothing() {
    let _g = SERIAL.lock().unwrap();
    unsafe {
        let ctx = context();
        let bytes = effect_bytes();
        let e = compile_effect(&bytes, &ctx);
        assert_eq!(errors(e), Vec::<String>::new());
        let eff = &mut *e;
        assert_eq!(
            (eff.param_count, eff.technique_count, eff.object_count),
            (1, 1, 1)
        );
        let param = &*eff.params;
        assert_eq!(CStr::from_ptr(param.value.name), c"color");
        let values = |p: &MOJOSHADER_effectParam| {
            std::slice::from_raw_parts(p.value.values as *const f32, p.value.value_count as usize)
                .to_vec()
        };
        assert_eq!(values(param), [1.0, 2.0, 3.0, 4.0]);
        let obj = (*eff.objects).shader;
        assert_eq!(
            (obj.r#type, obj.technique, obj.pass),
            (SYMTYPE_PIXELSHADER, 0, 0)
        );
        assert!(!obj.shader.is_null());

        // SetRawValue: NULL data, a write past the values, an unknown name: nothing.
        let five = 5.0f32.to_le_bytes();
        MOJOSHADER_effectSetRawValueHandle(param, std::ptr::null(), 0, 4);
        MOJOSHADER_effectSetRawValueHandle(param, five.as_ptr() as _, 16, 4);
        MOJOSHADER_effectSetRawValueHandle(param, five.as_ptr() as _, 14, 4);
        MOJOSHADER_effectSetRawValueHandle(param, five.as_ptr() as _, u32::MAX, 4);
        MOJOSHADER_effectSetRawValueName(e, c"nope".as_ptr(), five.as_ptr() as _, 0, 4);
        MOJOSHADER_effectSetRawValueName(e, std::ptr::null(), five.as_ptr() as _, 0, 4);
        MOJOSHADER_effectSetRawValueName(e, c"color".as_ptr(), std::ptr::null(), 0, 4);
        assert_eq!(values(param), [1.0, 2.0, 3.0, 4.0]);
        MOJOSHADER_effectSetRawValueName(e, c"color".as_ptr(), five.as_ptr() as _, 12, 4);
        MOJOSHADER_effectSetRawValueHandle(param, five.as_ptr() as _, 0, 4);
        assert_eq!(values(param), [5.0, 2.0, 3.0, 5.0]);

        // Techniques: NULL gives the first; the last has no next; foreign ones nothing.
        let first = MOJOSHADER_effectFindNextValidTechnique(e, std::ptr::null());
        assert_eq!(first, eff.techniques as *const _);
        assert!(MOJOSHADER_effectFindNextValidTechnique(e, first).is_null());
        let foreign = MOJOSHADER_effectTechnique {
            name: std::ptr::null(),
            pass_count: 9,
            passes: std::ptr::null_mut(),
            annotation_count: 0,
            annotations: std::ptr::null_mut(),
        };
        assert!(MOJOSHADER_effectFindNextValidTechnique(e, &foreign).is_null());
        MOJOSHADER_effectSetTechnique(e, &foreign);
        MOJOSHADER_effectSetTechnique(e, std::ptr::null());
        assert_eq!(MOJOSHADER_effectGetCurrentTechnique(e), first);

        // Begin without outputs; a pass past the technique; then a real pass.
        MOJOSHADER_effectBegin(e, std::ptr::null_mut(), 0, std::ptr::null_mut());
        MOJOSHADER_effectBeginPass(e, 1);
        MOJOSHADER_effectBeginPass(e, u32::MAX);
        assert_eq!(eff.current_pass, -1);
        let binds = BINDS.load(Ordering::SeqCst);
        MOJOSHADER_effectBeginPass(e, 0);
        assert_eq!(eff.current_pass, 0);
        assert_eq!(BINDS.load(Ordering::SeqCst), binds + 1);
        MOJOSHADER_effectCommitChanges(e);
        MOJOSHADER_effectEndPass(e);
        MOJOSHADER_effectEnd(e);
        assert_eq!(eff.current_pass, -1);

        let mut n = 0;
        let mut changes: MOJOSHADER_effectStateChanges = std::mem::zeroed();
        MOJOSHADER_effectBegin(e, &mut n, 1, &mut changes);
        assert_eq!(n, 1);
        MOJOSHADER_effectBeginPass(e, 0);
        assert_eq!(changes.render_state_change_count, 1);
        assert_eq!((*changes.render_state_changes).r#type, RS_PIXELSHADER);
        MOJOSHADER_effectEndPass(e);
        MOJOSHADER_effectEnd(e);
        assert!(eff.state_changes.is_null());

        // A clone shares the shader and copies the values; both delete cleanly.
        let c = MOJOSHADER_cloneEffect(e);
        assert!(!c.is_null());
        assert_eq!(values(&*(*c).params), [5.0, 2.0, 3.0, 5.0]);
        assert_eq!((*(*c).objects).shader.shader, obj.shader);
        assert_eq!(REFS.load(Ordering::SeqCst), 2);
        MOJOSHADER_deleteEffect(c);
        MOJOSHADER_deleteEffect(e);
        assert_eq!(REFS.load(Ordering::SeqCst), 0);
        assert_eq!(LIVE.load(Ordering::SeqCst), 0);
    }
}

#[test]
fn failing_backends_and_truncated_effects_answer_errors() {
    let _g = SERIAL.lock().unwrap();
    unsafe {
        let bytes = effect_bytes();
        // compileShader fails: its getError is the effect's error.
        let mut ctx = context();
        ctx.compileShader = Some(compile_fails);
        let e = compile_effect(&bytes, &ctx);
        assert_eq!(errors(e), ["the backend says no"]);
        let c = MOJOSHADER_cloneEffect(e);
        assert_eq!(errors(c), ["the backend says no"]);
        MOJOSHADER_deleteEffect(c);
        MOJOSHADER_deleteEffect(e);
        // No getError either.
        ctx.getError = None;
        let e = compile_effect(&bytes, &ctx);
        assert_eq!(errors(e).len(), 1);
        MOJOSHADER_deleteEffect(e);
        // No compileShader at all.
        ctx.compileShader = None;
        let e = compile_effect(&bytes, &ctx);
        assert!(errors(e)[0].contains("compileShader"), "{:?}", errors(e));
        MOJOSHADER_deleteEffect(e);
        // A context with nothing but compileShader: it still runs (no binding, no
        // uniforms) and its shaders are not deleted (no deleteShader: the caller's).
        let bare = MOJOSHADER_effectShaderContext {
            compileShader: Some(compile),
            ..MOJOSHADER_effectShaderContext::EMPTY
        };
        let e = compile_effect(&bytes, &bare);
        assert_eq!(errors(e), Vec::<String>::new());
        let mut n = 0;
        MOJOSHADER_effectBegin(e, &mut n, 1, std::ptr::null_mut());
        MOJOSHADER_effectBeginPass(e, 0);
        MOJOSHADER_effectCommitChanges(e);
        MOJOSHADER_effectEndPass(e);
        MOJOSHADER_effectEnd(e);
        let shader = (*(*e).objects).shader.shader;
        MOJOSHADER_deleteEffect(e);
        MOJOSHADER_freeParseData(shader as *const MOJOSHADER_parseData);
        REFS.store(0, Ordering::SeqCst);
        // The XNA/FNA wrapper in front of the effect is skipped, as MojoShader skips it.
        let mut wrapped = [0xBCF0_0BCFu32, 12, 0]
            .iter()
            .flat_map(|w| w.to_le_bytes())
            .collect::<Vec<u8>>();
        wrapped.extend(&bytes);
        let ctx = context();
        let e = compile_effect(&wrapped, &ctx);
        assert_eq!(errors(e), Vec::<String>::new());
        assert_eq!(((*e).param_count, (*e).technique_count), (1, 1));
        MOJOSHADER_deleteEffect(e);
        // Every truncation of the effect: an error or an effect, never a crash or leak.
        for n in 0..bytes.len() {
            let e = compile_effect(&bytes[..n], &ctx);
            assert!(!e.is_null());
            if (*e).error_count == 0 {
                MOJOSHADER_effectBegin(e, &mut 0, 0, std::ptr::null_mut());
                MOJOSHADER_effectBeginPass(e, 0);
                MOJOSHADER_effectEndPass(e);
                MOJOSHADER_effectEnd(e);
            }
            MOJOSHADER_deleteEffect(e);
        }
        assert_eq!(REFS.load(Ordering::SeqCst), 0);
        assert_eq!(LIVE.load(Ordering::SeqCst), 0);
    }
}
