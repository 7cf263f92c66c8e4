//! `MOJOSHADER_compileEffect`, `MOJOSHADER_deleteEffect` and `MOJOSHADER_cloneEffect`:
//! an fx_2_0 effect read by `d3dbc::fx` laid out in MojoShader's `MOJOSHADER_effect`
//! — parameters with their values and annotations, techniques, passes, states, the
//! object table (strings, texture/sampler mappings, shaders compiled through the
//! caller's `MOJOSHADER_effectShaderContext`, array-selector preshaders) — filled the
//! way MojoShader 6333f74 fills it (its value layout of rows padded to four
//! components, its object types, its `ShaderFunction<N>` entry names).
//!
//! Memory: one block from the caller's allocator (`ctx->m`, the C library's when NULL)
//! holds the effect and everything it points to, behind a private `Header` that
//! remembers the allocator, the effect's bytes (for `cloneEffect`) and each object's
//! preshader tokens (for `CommitChanges`). The shaders themselves are the caller's: made
//! by `ctx->compileShader`, released by `ctx->deleteShader`, shared by `cloneEffect`
//! through `ctx->shaderAddRef`.
//!
//! Where MojoShader's reading goes wrong against Windows, the values here are D3DX's:
//! struct defaults are the struct's values (MojoShader reads them from the type
//! description and copies nothing for members that are not arrays); selector
//! preshaders stage their inputs at `register × 4` (MojoShader at `register`); states
//! that are not objects never touch the object table.

use std::borrow::Cow;
use std::ffi::{c_char, c_int, c_uint, c_void, CStr};

use d3dbc::fx::{Effect, ParameterClass, StateValue, Value};

use crate::arena::{build, Allocator, Arena};
use crate::types::*;

/// Marks a block this module made.
const MAGIC: u64 = 0x6433_6462_6378_6678; // "d3dbcxfx"

/// What sits before the `MOJOSHADER_effect` in its block (never seen by C).
#[repr(C)]
#[derive(Clone, Copy)]
pub(crate) struct Header {
    magic: u64,
    pub alloc: Allocator,
    /// The effect's bytes, as given to `compileEffect`.
    source: *const u8,
    source_len: usize,
    /// Per object: the preshader tokens `CommitChanges` runs (a shader's `PRES`
    /// block, or an array selector's program); `object_count` entries.
    pub pres: *const PresTokens,
}

/// One object's preshader tokens (`len` 0: none).
#[repr(C)]
#[derive(Clone, Copy)]
pub(crate) struct PresTokens {
    pub words: *const u32,
    pub len: usize,
}

// ---- MojoShader's static answers ----

static mut OUT_OF_MEM_ERROR: MOJOSHADER_error = MOJOSHADER_error {
    error: c"Out of memory".as_ptr(),
    filename: std::ptr::null(),
    error_position: POSITION_NONE,
};
static mut NEED_BACKEND_ERROR: MOJOSHADER_error = MOJOSHADER_error {
    error: c"Need a MOJOSHADER_effectShaderContext".as_ptr(),
    filename: std::ptr::null(),
    error_position: POSITION_NONE,
};
static mut EOF_ERROR: MOJOSHADER_error = MOJOSHADER_error {
    error: c"Unexpected EOF".as_ptr(),
    filename: std::ptr::null(),
    error_position: POSITION_NONE,
};
static mut NOT_EFFECT_ERROR: MOJOSHADER_error = MOJOSHADER_error {
    error: c"Not an Effects Framework binary".as_ptr(),
    filename: std::ptr::null(),
    error_position: POSITION_NONE,
};

const fn static_effect(error: *mut MOJOSHADER_error) -> MOJOSHADER_effect {
    MOJOSHADER_effect {
        error_count: 1,
        errors: error,
        param_count: 0,
        params: std::ptr::null_mut(),
        technique_count: 0,
        techniques: std::ptr::null_mut(),
        object_count: 0,
        objects: std::ptr::null_mut(),
        current_technique: std::ptr::null(),
        current_pass: 0,
        restore_shader_state: 0,
        state_changes: std::ptr::null_mut(),
        current_vert_raw: std::ptr::null_mut(),
        current_pixl_raw: std::ptr::null_mut(),
        current_vert: std::ptr::null_mut(),
        current_pixl: std::ptr::null_mut(),
        prev_vertex_shader: std::ptr::null_mut(),
        prev_pixel_shader: std::ptr::null_mut(),
        ctx: MOJOSHADER_effectShaderContext::EMPTY,
    }
}

/// MojoShader's `MOJOSHADER_out_of_mem_effect`.
pub static mut OUT_OF_MEM_EFFECT: MOJOSHADER_effect = static_effect(&raw mut OUT_OF_MEM_ERROR);
/// MojoShader's `MOJOSHADER_need_a_backend_effect`.
pub static mut NEED_BACKEND_EFFECT: MOJOSHADER_effect = static_effect(&raw mut NEED_BACKEND_ERROR);
/// MojoShader's `MOJOSHADER_unexpected_eof_effect`.
pub static mut EOF_EFFECT: MOJOSHADER_effect = static_effect(&raw mut EOF_ERROR);
/// MojoShader's `MOJOSHADER_not_an_effect_effect`.
pub static mut NOT_EFFECT_EFFECT: MOJOSHADER_effect = static_effect(&raw mut NOT_EFFECT_ERROR);

/// Whether `e` is one of the static answers (never freed, never cloned or run).
pub(crate) fn is_static(e: *const MOJOSHADER_effect) -> bool {
    [
        &raw const OUT_OF_MEM_EFFECT,
        &raw const NEED_BACKEND_EFFECT,
        &raw const EOF_EFFECT,
        &raw const NOT_EFFECT_EFFECT,
    ]
    .contains(&e)
}

/// The header of an effect this module made; `None` for NULL, a static answer or a
/// pointer without the mark.
///
/// # Safety
/// `e` is NULL, a static answer, or an effect answered by `compileEffect`/`cloneEffect`.
pub(crate) unsafe fn header<'a>(e: *const MOJOSHADER_effect) -> Option<&'a Header> {
    if e.is_null() || is_static(e) {
        return None;
    }
    // SAFETY: our effects sit right after their header in the block.
    let h = unsafe { &*(e as *const Header).sub(1) };
    (h.magic == MAGIC).then_some(h)
}

extern "C" fn default_malloc(bytes: c_int, _d: *mut c_void) -> *mut c_void {
    Allocator {
        m: None,
        f: None,
        d: std::ptr::null_mut(),
    }
    .alloc(bytes.max(0) as usize) as *mut c_void
}

extern "C" fn default_free(p: *mut c_void, _d: *mut c_void) {
    Allocator {
        m: None,
        f: None,
        d: std::ptr::null_mut(),
    }
    .release(p)
}

// ---- The plan: everything an effect holds, before it is laid out ----

/// A `MOJOSHADER_symbolTypeInfo` to be.
#[derive(Clone, Default)]
struct Info<'a> {
    class: c_int,
    ty: c_int,
    rows: u32,
    columns: u32,
    elements: u32,
    members: Vec<(Option<Cow<'a, str>>, Info<'a>)>,
}

/// A `MOJOSHADER_effectValue` to be.
struct ValuePlan<'a> {
    name: Option<Cow<'a, str>>,
    semantic: Option<Cow<'a, str>>,
    info: Info<'a>,
    count: u32,
    data: Data<'a>,
}

enum Data<'a> {
    /// `count` 32-bit words (numbers in rows of four, or object ids).
    Words(Vec<u32>),
    /// Sampler states: MojoShader's state type and value.
    Samplers(Vec<(c_int, ValuePlan<'a>)>),
}

/// A shader object compiled (or shared, for a clone).
#[derive(Clone)]
struct ShaderPlan {
    technique: u32,
    pass: u32,
    handle: *mut c_void,
    /// Parameter index per symbol of the shader's constant table.
    params: Vec<u32>,
    /// (parameter index, register) per sampler symbol.
    samplers: Vec<(u32, u32)>,
    /// Parameter index per symbol of the shader's preshader.
    preshader_params: Vec<u32>,
    /// The shader's `PRES` tokens.
    pres: Vec<u32>,
}

/// An array selector: a preshader picking an element of a shader-array parameter.
struct SelectorPlan {
    technique: u32,
    pass: u32,
    array: u32,
    preshader: Option<crate::preshader::Plan>,
    preshader_params: Vec<u32>,
    program: Vec<u32>,
}

enum ObjectPlan {
    Empty,
    String(Vec<u8>),
    Mapping(Vec<u8>),
    Shader(ShaderPlan),
    Selector(SelectorPlan),
}

struct ErrorPlan {
    message: String,
    filename: Option<String>,
    position: c_int,
}

struct Plan<'a> {
    params: Vec<(ValuePlan<'a>, Vec<ValuePlan<'a>>)>,
    techniques: Vec<TechniquePlan<'a>>,
    types: Vec<c_int>,
    objects: Vec<ObjectPlan>,
    errors: Vec<ErrorPlan>,
}

struct TechniquePlan<'a> {
    name: Option<Cow<'a, str>>,
    annotations: Vec<ValuePlan<'a>>,
    passes: Vec<PassPlan<'a>>,
}

struct PassPlan<'a> {
    name: Option<Cow<'a, str>>,
    annotations: Vec<ValuePlan<'a>>,
    states: Vec<(c_int, ValuePlan<'a>)>,
}

fn is_sampler_type(t: c_int) -> bool {
    (SYMTYPE_SAMPLER..=SYMTYPE_SAMPLERCUBE).contains(&t)
}

fn is_texture_or_sampler(t: c_int) -> bool {
    (SYMTYPE_TEXTURE..=SYMTYPE_SAMPLERCUBE).contains(&t)
}

fn is_shader_type(t: c_int) -> bool {
    t == SYMTYPE_PIXELSHADER || t == SYMTYPE_VERTEXSHADER
}

/// A name as MojoShader's `readstring` gives it: none for an empty one. (fxc stores a
/// missing semantic or annotation name with length 0, which MojoShader reads as NULL,
/// and an unnamed pass or technique as a lone NUL, which it reads as "": `d3dbc`
/// gives both as an empty string, so passes and techniques keep "".)
fn name_of<'a>(s: &Cow<'a, str>) -> Option<Cow<'a, str>> {
    (!s.is_empty()).then(|| s.clone())
}

/// The two size DWORDs of a typedef in file order (MojoShader calls them columns,
/// then rows, for every class; `d3dbc` reads a vector's columns first and the other
/// classes' rows first).
fn file_dims(t: &d3dbc::fx::TypeDesc) -> (u32, u32) {
    if t.class == ParameterClass::Vector {
        (t.columns, t.rows)
    } else {
        (t.rows, t.columns)
    }
}

/// The object ids of an object value (elements in order).
fn object_ids(v: &Value, out: &mut Vec<u32>) {
    match v {
        Value::Object(id) => out.push(*id),
        Value::Array(items) => items.iter().for_each(|i| object_ids(i, out)),
        _ => {}
    }
}

/// Numbers `raw` (words in file order, `first` per row) in rows of four.
/// Rows past the data (a typedef claiming more rows than its value holds, or rows of
/// no columns) are not made: what MojoShader would allocate for them is unbounded.
fn rows_of_four(raw: &[u32], first: u32, rows: usize, out: &mut Vec<u32>) {
    let rows = match first {
        0 => 0,
        f => rows.min(raw.len().div_ceil(f as usize)),
    };
    let per = first.min(4) as usize;
    for i in 0..rows {
        let at = out.len();
        out.resize(at + 4, 0);
        for c in 0..per {
            out[at + c] = raw.get(first as usize * i + c).copied().unwrap_or(0);
        }
    }
}

/// Size in words (rows of four) of a struct member, and its `Info`.
fn member_info<'a>(t: &d3dbc::fx::TypeDesc<'a>) -> (u32, Info<'a>) {
    let elements = t.elements;
    if t.class == ParameterClass::Struct {
        let (size, info) = struct_info(t);
        return (size * elements.max(1), info);
    }
    let (first, second) = file_dims(t);
    let info = Info {
        class: t.class.to_u16() as c_int,
        ty: t.ty.to_u16() as c_int,
        rows: second,
        columns: first,
        elements,
        members: Vec::new(),
    };
    (4 * second * elements.max(1), info)
}

/// A struct's size in words per element and its `Info` (rows 1, columns the size, as
/// MojoShader describes a struct).
fn struct_info<'a>(t: &d3dbc::fx::TypeDesc<'a>) -> (u32, Info<'a>) {
    let mut size = 0u32;
    let mut members = Vec::with_capacity(t.members.len());
    for m in &t.members {
        let (s, mut info) = member_info(m);
        if m.class == ParameterClass::Struct {
            // MojoShader does not describe nested structs' members.
            info.members.clear();
        }
        size = size.saturating_add(s);
        members.push((name_of(&m.name), info));
    }
    (
        size,
        Info {
            class: SYMCLASS_STRUCT,
            ty: t.ty.to_u16() as c_int,
            rows: 1,
            columns: size,
            elements: t.elements,
            members,
        },
    )
}

/// A struct value's words in MojoShader's layout (each member's rows padded to four).
fn struct_words(t: &d3dbc::fx::TypeDesc, v: &Value, out: &mut Vec<u32>) {
    let elements: Vec<&Value> = match v {
        Value::Array(items) if t.elements > 0 => items.iter().collect(),
        v => vec![v],
    };
    for e in elements {
        let Value::Struct(members) = e else { continue };
        for (mt, mv) in t.members.iter().zip(members) {
            if mt.class == ParameterClass::Struct {
                struct_words(mt, mv, out);
                continue;
            }
            let (first, second) = file_dims(mt);
            let raw = mv.words();
            rows_of_four(&raw, first, (second * mt.elements.max(1)) as usize, out);
        }
    }
}

/// MojoShader's `readvalue` over `d3dbc`'s reading: the value plan, object types set as
/// MojoShader sets them (last writer wins).
fn value_plan<'a>(
    t: &d3dbc::fx::TypeDesc<'a>,
    v: &Value<'a>,
    types: &mut [c_int],
) -> ValuePlan<'a> {
    let ty = t.ty.to_u16() as c_int;
    let mut plan = ValuePlan {
        name: name_of(&t.name),
        semantic: name_of(&t.semantic),
        info: Info {
            class: t.class.to_u16() as c_int,
            ty,
            elements: t.elements,
            ..Info::default()
        },
        count: 0,
        data: Data::Words(Vec::new()),
    };
    match t.class {
        ParameterClass::Scalar
        | ParameterClass::Vector
        | ParameterClass::MatrixRows
        | ParameterClass::MatrixColumns => {
            let (first, second) = file_dims(t);
            plan.info.columns = first;
            plan.info.rows = second;
            let rows = second as usize * t.elements.max(1) as usize;
            let mut words = Vec::with_capacity(rows * 4);
            rows_of_four(&v.words(), first, rows, &mut words);
            plan.count = words.len() as u32;
            plan.data = Data::Words(words);
        }
        ParameterClass::Object if t.is_sampler() => {
            // MojoShader reads one sampler_state block (the first element's).
            let first = match v {
                Value::Array(items) => items.first(),
                v => Some(v),
            };
            let mut states = Vec::new();
            if let Some(Value::Sampler(list)) = first {
                for s in list {
                    let stype = (s.operation & !0xA0) as c_int;
                    let sv = value_plan(&s.ty, &s.value, types);
                    if stype == SAMP_TEXTURE {
                        if let Data::Words(w) = &sv.data {
                            if let Some(slot) = w.first().and_then(|&id| types.get_mut(id as usize))
                            {
                                *slot = ty;
                            }
                        }
                    }
                    states.push((stype, sv));
                }
            }
            plan.count = states.len() as u32;
            plan.data = Data::Samplers(states);
        }
        ParameterClass::Object => {
            let mut ids = Vec::new();
            object_ids(v, &mut ids);
            for &id in &ids {
                if let Some(slot) = types.get_mut(id as usize) {
                    *slot = ty;
                }
            }
            plan.count = ids.len() as u32;
            plan.data = Data::Words(ids);
        }
        ParameterClass::Struct => {
            let (size, info) = struct_info(t);
            plan.info = info;
            let mut words = Vec::new();
            struct_words(t, v, &mut words);
            // As many words as the value holds (a legal struct fills all of them).
            let count = (size as usize * t.elements.max(1) as usize).min(words.len());
            words.truncate(count);
            plan.count = count as u32;
            plan.data = Data::Words(words);
        }
        ParameterClass::Other(_) => {}
    }
    plan
}

// ---- Shaders through the caller's context ----

/// Where shader objects come from.
pub(crate) enum Shaders<'s> {
    /// `ctx->compileShader` with the swizzles and sampler map given to `compileEffect`.
    Compile {
        swiz: &'s [MOJOSHADER_swizzle],
        smap: &'s [MOJOSHADER_samplerMap],
    },
    /// The objects of the effect being cloned, shared with `ctx->shaderAddRef`.
    Share {
        objects: &'s [MOJOSHADER_effectObject],
    },
}

/// Reads a NUL-terminated C string (lossy), `None` for NULL.
///
/// # Safety
/// `p` is NULL or a NUL-terminated string.
unsafe fn c_string(p: *const c_char) -> Option<String> {
    if p.is_null() {
        return None;
    }
    // SAFETY: per the contract.
    Some(unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned())
}

/// The parameter named `name` (MojoShader's `findparameter`; `u32::MAX` when none).
fn find_param(names: &[Option<Cow<str>>], name: &[u8]) -> u32 {
    names
        .iter()
        .position(|n| n.as_deref().map(str::as_bytes) == Some(name))
        .map_or(u32::MAX, |i| i as u32)
}

/// Compiles (or shares) shader object `index`; `Err` with the errors to report.
#[allow(clippy::too_many_arguments)]
fn make_shader(
    ctx: &MOJOSHADER_effectShaderContext,
    shaders: &Shaders,
    index: usize,
    code: &[u8],
    technique: u32,
    pass: u32,
    names: &[Option<Cow<str>>],
) -> Result<Option<ShaderPlan>, Vec<ErrorPlan>> {
    let handle = match shaders {
        Shaders::Compile { swiz, smap } => {
            let Some(compile) = ctx.compileShader else {
                return Err(vec![ErrorPlan {
                    message: "MOJOSHADER_effectShaderContext has no compileShader".into(),
                    filename: None,
                    position: 0,
                }]);
            };
            let mainfn = format!("ShaderFunction{index}\0");
            // SAFETY: the caller's callback, called as MojoShader calls it.
            let h = unsafe {
                compile(
                    ctx.shaderContext,
                    mainfn.as_ptr() as *const c_char,
                    code.as_ptr(),
                    code.len() as c_uint,
                    if swiz.is_empty() {
                        std::ptr::null()
                    } else {
                        swiz.as_ptr()
                    },
                    swiz.len() as c_uint,
                    if smap.is_empty() {
                        std::ptr::null()
                    } else {
                        smap.as_ptr()
                    },
                    smap.len() as c_uint,
                )
            };
            if h.is_null() {
                // SAFETY: the caller's callback.
                let message = ctx
                    .getError
                    .and_then(|g| unsafe { c_string(g(ctx.shaderContext)) })
                    .unwrap_or_else(|| {
                        format!("compileShader failed on shader object {index} (no getError)")
                    });
                return Err(vec![ErrorPlan {
                    message,
                    filename: None,
                    position: 0,
                }]);
            }
            h
        }
        Shaders::Share { objects } => {
            let Some(o) = objects.get(index) else {
                return Ok(None);
            };
            // SAFETY: every object starts with its type; shader objects hold a shader.
            let s = unsafe { o.shader };
            if !is_shader_type(s.r#type) || s.is_preshader != 0 || s.shader.is_null() {
                return Ok(None);
            }
            if let Some(add) = ctx.shaderAddRef {
                // SAFETY: the caller's callback on its own shader.
                unsafe { add(s.shader) };
            }
            s.shader
        }
    };
    let mut plan = ShaderPlan {
        technique,
        pass,
        handle,
        params: Vec::new(),
        samplers: Vec::new(),
        preshader_params: Vec::new(),
        pres: d3dbc::fx::preshader::find_pres(&d3dbc::fx::to_words(code))
            .map(<[u32]>::to_vec)
            .unwrap_or_default(),
    };
    // SAFETY: the caller's callback on its own shader.
    let pd = ctx
        .getParseData
        .map_or(std::ptr::null_mut(), |g| unsafe { g(handle) });
    if pd.is_null() {
        return Ok(Some(plan));
    }
    // SAFETY: the caller's parse data, valid while the shader lives.
    let pd = unsafe { &*pd };
    if pd.error_count > 0 {
        // SAFETY: `errors` holds `error_count` entries.
        let errors = unsafe { crate::slice(pd.errors, pd.error_count as c_uint) };
        let list = errors
            .iter()
            .map(|e| ErrorPlan {
                // SAFETY: error strings are NULL or NUL-terminated.
                message: unsafe { c_string(e.error) }.unwrap_or_default(),
                // SAFETY: as above.
                filename: unsafe { c_string(e.filename) },
                position: e.error_position,
            })
            .collect();
        // Not kept (the effect fails): our reference goes back now, after its errors
        // were copied.
        if let Some(del) = ctx.deleteShader {
            // SAFETY: the caller's callback on a shader we hold.
            unsafe { del(ctx.shaderContext, handle) };
        }
        return Err(list);
    }
    // SAFETY: `symbols` holds `symbol_count` entries.
    let symbols = unsafe { crate::slice(pd.symbols, pd.symbol_count.max(0) as c_uint) };
    for s in symbols {
        // SAFETY: symbol names are NULL or NUL-terminated.
        let name = unsafe { crate::parse::c_bytes(s.name) }.unwrap_or(b"");
        let par = find_param(names, name);
        plan.params.push(par);
        if s.register_set == SYMREGSET_SAMPLER {
            plan.samplers.push((par, s.register_index));
        }
    }
    if !pd.preshader.is_null() {
        // SAFETY: the caller's preshader.
        let p = unsafe { &*pd.preshader };
        // SAFETY: `symbols` holds `symbol_count` entries.
        for s in unsafe { crate::slice(p.symbols, p.symbol_count) } {
            // SAFETY: symbol names are NULL or NUL-terminated.
            let name = unsafe { crate::parse::c_bytes(s.name) }.unwrap_or(b"");
            plan.preshader_params.push(find_param(names, name));
        }
    }
    Ok(Some(plan))
}

/// An array selector's plan.
fn selector(
    technique: u32,
    pass: u32,
    array: &str,
    program: &[u8],
    names: &[Option<Cow<str>>],
) -> SelectorPlan {
    let words = d3dbc::fx::to_words(program);
    let preshader = crate::preshader::plan(&words).ok();
    let preshader_params = preshader
        .as_ref()
        .map(|p| {
            p.symbol_names()
                .map(|n| find_param(names, n.as_bytes()))
                .collect()
        })
        .unwrap_or_default();
    SelectorPlan {
        technique,
        pass,
        array: find_param(names, array.as_bytes()),
        preshader,
        preshader_params,
        program: words,
    }
}

/// Reads `fx` into a plan, making its shaders.
fn plan<'a>(
    fx: &'a Effect<'a>,
    ctx: &MOJOSHADER_effectShaderContext,
    shaders: &Shaders,
) -> Plan<'a> {
    let mut types = vec![0 as c_int; fx.objects.len()];
    let mut params = Vec::with_capacity(fx.parameters.len());
    for p in &fx.parameters {
        let annotations: Vec<ValuePlan> = p
            .annotations
            .iter()
            .map(|a| value_plan(&a.ty, &a.value, &mut types))
            .collect();
        let value = value_plan(&p.ty, &p.value, &mut types);
        params.push((value, annotations));
    }
    let mut techniques = Vec::with_capacity(fx.techniques.len());
    for t in &fx.techniques {
        let annotations = t
            .annotations
            .iter()
            .map(|a| value_plan(&a.ty, &a.value, &mut types))
            .collect();
        let passes = t
            .passes
            .iter()
            .map(|p| PassPlan {
                name: Some(p.name.clone()),
                annotations: p
                    .annotations
                    .iter()
                    .map(|a| value_plan(&a.ty, &a.value, &mut types))
                    .collect(),
                states: p
                    .states
                    .iter()
                    .map(|s| {
                        (
                            s.operation as c_int,
                            value_plan(&s.ty, &s.value, &mut types),
                        )
                    })
                    .collect(),
            })
            .collect();
        techniques.push(TechniquePlan {
            name: Some(t.name.clone()),
            annotations,
            passes,
        });
    }
    let names: Vec<Option<Cow<str>>> = params.iter().map(|(v, _)| v.name.clone()).collect();

    // Where the "large" objects come from: pass states (shader code, selectors,
    // texture names) and sampler parameters' states (texture names).
    let mut large: Vec<(usize, u32, u32)> = Vec::new(); // (object, technique, pass)
    let mut selectors: Vec<(usize, SelectorPlan)> = Vec::new();
    let mut mapping: Vec<(usize, Vec<u8>)> = Vec::new();
    let mut aliases: Vec<(usize, u32, u32, &str)> = Vec::new();
    let mut note_state = |s: &'a d3dbc::fx::State<'a>, t: u32, p: u32, large: &mut Vec<_>| {
        let Value::Object(id) = s.value else { return };
        let id = id as usize;
        match &s.source {
            StateValue::Constant if s.ty.is_shader() && !fx.object(id as u32).is_empty() => {
                large.push((id, t, p))
            }
            StateValue::ArraySelector { array, program } if s.ty.is_shader() => {
                selectors.push((id, selector(t, p, array, program, &names)))
            }
            StateValue::Parameter(name) if s.ty.is_shader() => aliases.push((id, t, p, name)),
            StateValue::Parameter(name) => mapping.push((id, name.as_bytes().to_vec())),
            _ => {}
        }
    };
    for p in &fx.parameters {
        let first = match &p.value {
            Value::Array(items) => items.first(),
            v => Some(v),
        };
        if let Some(Value::Sampler(states)) = first {
            for s in states {
                note_state(s, u32::MAX, u32::MAX, &mut large);
            }
        }
    }
    for (ti, t) in fx.techniques.iter().enumerate() {
        for (pi, p) in t.passes.iter().enumerate() {
            for s in &p.states {
                note_state(s, ti as u32, pi as u32, &mut large);
            }
        }
    }

    let mut objects: Vec<ObjectPlan> = (0..fx.objects.len()).map(|_| ObjectPlan::Empty).collect();
    let mut errors = Vec::new();
    // "Small" objects first, in id order: strings, names, shader arrays' shaders.
    let is_large = |id: usize, large: &[(usize, u32, u32)]| large.iter().any(|l| l.0 == id);
    for (id, data) in fx.objects.iter().enumerate() {
        if data.is_empty() || is_large(id, &large) {
            continue;
        }
        let ty = types[id];
        if ty == SYMTYPE_STRING {
            objects[id] = ObjectPlan::String(data.to_vec());
        } else if is_texture_or_sampler(ty) {
            objects[id] = ObjectPlan::Mapping(data.to_vec());
        } else if is_shader_type(ty) && errors.is_empty() {
            match make_shader(ctx, shaders, id, data, u32::MAX, u32::MAX, &names) {
                Ok(Some(s)) => objects[id] = ObjectPlan::Shader(s),
                Ok(None) => {}
                Err(e) => errors = e,
            }
        }
    }
    for (id, t, p) in large {
        if !errors.is_empty() {
            break;
        }
        if !is_shader_type(types[id]) || matches!(objects[id], ObjectPlan::Shader(_)) {
            continue;
        }
        match make_shader(ctx, shaders, id, fx.object(id as u32), t, p, &names) {
            Ok(Some(s)) => objects[id] = ObjectPlan::Shader(s),
            Ok(None) => {}
            Err(e) => errors = e,
        }
    }
    // `VertexShader = <param>`: the parameter's shader, shared (MojoShader compiles the
    // parameter's name as bytecode and fails the effect; D3DX binds the shader).
    for (id, t, p, name) in aliases {
        let Some((_, Value::Object(src))) = fx.resolve(name) else {
            continue;
        };
        // Only into an empty object: each object holds one reference.
        if !matches!(objects.get(id), Some(ObjectPlan::Empty)) {
            continue;
        }
        let (Some(ObjectPlan::Shader(sp)), Some(add)) =
            (objects.get(*src as usize), ctx.shaderAddRef)
        else {
            continue;
        };
        let mut shared = sp.clone();
        // SAFETY: the caller's callback on a shader it made.
        unsafe { add(shared.handle) };
        shared.technique = t;
        shared.pass = p;
        objects[id] = ObjectPlan::Shader(shared);
    }
    for (id, s) in selectors {
        if matches!(objects.get(id), Some(ObjectPlan::Empty)) && is_shader_type(types[id]) {
            objects[id] = ObjectPlan::Selector(s);
        }
    }
    for (id, name) in mapping {
        if id < objects.len() && is_texture_or_sampler(types[id]) {
            objects[id] = ObjectPlan::Mapping(name);
        }
    }
    Plan {
        params,
        techniques,
        types,
        objects,
        errors,
    }
}

// ---- Laying a plan out ----

fn opt_str(a: &mut Arena, s: &Option<Cow<str>>) -> *const c_char {
    s.as_deref().map_or(std::ptr::null(), |s| a.str(s))
}

fn write_info(a: &mut Arena, i: &Info) -> MOJOSHADER_symbolTypeInfo {
    let members: Vec<MOJOSHADER_symbolStructMember> = i
        .members
        .iter()
        .map(|(n, mi)| MOJOSHADER_symbolStructMember {
            name: opt_str(a, n),
            info: write_info(a, mi),
        })
        .collect();
    MOJOSHADER_symbolTypeInfo {
        parameter_class: i.class,
        parameter_type: i.ty,
        rows: i.rows,
        columns: i.columns,
        elements: i.elements,
        member_count: members.len() as c_uint,
        members: a.slice(&members),
    }
}

fn write_value(a: &mut Arena, v: &ValuePlan) -> MOJOSHADER_effectValue {
    let values = match &v.data {
        Data::Words(w) => a.slice(w) as *mut c_void,
        Data::Samplers(states) => {
            let list: Vec<MOJOSHADER_effectSamplerState> = states
                .iter()
                .map(|(t, sv)| MOJOSHADER_effectSamplerState {
                    r#type: *t,
                    value: write_value(a, sv),
                })
                .collect();
            a.slice(&list) as *mut c_void
        }
    };
    MOJOSHADER_effectValue {
        name: opt_str(a, &v.name),
        semantic: opt_str(a, &v.semantic),
        r#type: write_info(a, &v.info),
        value_count: v.count,
        values,
    }
}

fn write_values(a: &mut Arena, list: &[ValuePlan]) -> *mut MOJOSHADER_effectValue {
    let v: Vec<MOJOSHADER_effectValue> = list.iter().map(|x| write_value(a, x)).collect();
    a.slice(&v)
}

fn empty_shader(ty: c_int) -> MOJOSHADER_effectShader {
    MOJOSHADER_effectShader {
        r#type: ty,
        technique: 0,
        pass: 0,
        is_preshader: 0,
        preshader_param_count: 0,
        preshader_params: std::ptr::null_mut(),
        param_count: 0,
        params: std::ptr::null_mut(),
        sampler_count: 0,
        samplers: std::ptr::null_mut(),
        shader: std::ptr::null_mut(),
    }
}

/// Lays `plan` out after `header`: the effect's address.
fn write(
    a: &mut Arena,
    plan: &Plan,
    ctx: &MOJOSHADER_effectShaderContext,
    alloc: &Allocator,
    source: &[u8],
) -> *mut Header {
    let top = a.place::<Header>();
    let eff = a.place::<MOJOSHADER_effect>();
    let source_copy = a.slice(source);
    let params: Vec<MOJOSHADER_effectParam> = plan
        .params
        .iter()
        .map(|(v, annos)| MOJOSHADER_effectParam {
            value: write_value(a, v),
            annotation_count: annos.len() as c_uint,
            annotations: write_values(a, annos),
        })
        .collect();
    let params_ptr = a.slice(&params);
    let techniques: Vec<MOJOSHADER_effectTechnique> = plan
        .techniques
        .iter()
        .map(|t| {
            let passes: Vec<MOJOSHADER_effectPass> = t
                .passes
                .iter()
                .map(|p| {
                    let states: Vec<MOJOSHADER_effectState> = p
                        .states
                        .iter()
                        .map(|(ty, v)| MOJOSHADER_effectState {
                            r#type: *ty,
                            value: write_value(a, v),
                        })
                        .collect();
                    MOJOSHADER_effectPass {
                        name: opt_str(a, &p.name),
                        state_count: states.len() as c_uint,
                        states: a.slice(&states),
                        annotation_count: p.annotations.len() as c_uint,
                        annotations: write_values(a, &p.annotations),
                    }
                })
                .collect();
            MOJOSHADER_effectTechnique {
                name: opt_str(a, &t.name),
                pass_count: passes.len() as c_uint,
                passes: a.slice(&passes),
                annotation_count: t.annotations.len() as c_uint,
                annotations: write_values(a, &t.annotations),
            }
        })
        .collect();
    let techniques_ptr = a.slice(&techniques);
    let mut pres = Vec::with_capacity(plan.objects.len());
    let objects: Vec<MOJOSHADER_effectObject> = plan
        .objects
        .iter()
        .zip(&plan.types)
        .map(|(o, &ty)| {
            let mut tokens: &[u32] = &[];
            let obj = match o {
                ObjectPlan::Empty => MOJOSHADER_effectObject {
                    shader: empty_shader(ty),
                },
                ObjectPlan::String(b) => {
                    let end = b.iter().position(|&c| c == 0).unwrap_or(b.len());
                    MOJOSHADER_effectObject {
                        string: MOJOSHADER_effectString {
                            r#type: ty,
                            string: a.bytes_z(&b[..end]),
                        },
                    }
                }
                ObjectPlan::Mapping(b) => {
                    let end = b.iter().position(|&c| c == 0).unwrap_or(b.len());
                    MOJOSHADER_effectObject {
                        mapping: MOJOSHADER_effectSamplerMap {
                            r#type: ty,
                            name: a.bytes_z(&b[..end]),
                        },
                    }
                }
                ObjectPlan::Shader(s) => {
                    tokens = &s.pres;
                    let samplers: Vec<MOJOSHADER_samplerStateRegister> = s
                        .samplers
                        .iter()
                        .map(|&(par, reg)| {
                            let v = params.get(par as usize).map(|p| p.value);
                            MOJOSHADER_samplerStateRegister {
                                sampler_name: v.map_or(std::ptr::null(), |v| v.name),
                                sampler_register: reg,
                                sampler_state_count: v.map_or(0, |v| v.value_count),
                                sampler_states: v.map_or(std::ptr::null(), |v| {
                                    v.values as *const MOJOSHADER_effectSamplerState
                                }),
                            }
                        })
                        .collect();
                    MOJOSHADER_effectObject {
                        shader: MOJOSHADER_effectShader {
                            r#type: ty,
                            technique: s.technique,
                            pass: s.pass,
                            is_preshader: 0,
                            preshader_param_count: s.preshader_params.len() as c_uint,
                            preshader_params: a.slice(&s.preshader_params),
                            param_count: s.params.len() as c_uint,
                            params: a.slice(&s.params),
                            sampler_count: samplers.len() as c_uint,
                            samplers: a.slice(&samplers),
                            shader: s.handle,
                        },
                    }
                }
                ObjectPlan::Selector(s) => {
                    tokens = &s.program;
                    let preshader = s.preshader.as_ref().map_or(std::ptr::null_mut(), |p| {
                        crate::preshader::write(a, p, alloc)
                    });
                    MOJOSHADER_effectObject {
                        shader: MOJOSHADER_effectShader {
                            r#type: ty,
                            technique: s.technique,
                            pass: s.pass,
                            is_preshader: 1,
                            preshader_param_count: s.preshader_params.len() as c_uint,
                            preshader_params: a.slice(&s.preshader_params),
                            param_count: 1,
                            params: a.one(s.array),
                            sampler_count: 0,
                            samplers: std::ptr::null_mut(),
                            shader: preshader as *mut c_void,
                        },
                    }
                }
            };
            pres.push(PresTokens {
                words: a.slice(tokens),
                len: tokens.len(),
            });
            obj
        })
        .collect();
    let objects_ptr = a.slice(&objects);
    let errors: Vec<MOJOSHADER_error> = plan
        .errors
        .iter()
        .map(|e| MOJOSHADER_error {
            error: a.str(&e.message),
            filename: e.filename.as_deref().map_or(std::ptr::null(), |f| a.str(f)),
            error_position: e.position,
        })
        .collect();
    let errors_ptr = a.slice(&errors);
    let pres_ptr = a.slice(&pres);
    let mut ctx = *ctx;
    ctx.m = Some(alloc.m.unwrap_or(default_malloc));
    ctx.f = Some(alloc.f.unwrap_or(default_free));
    a.set(
        top,
        Header {
            magic: MAGIC,
            alloc: *alloc,
            source: source_copy,
            source_len: source.len(),
            pres: pres_ptr,
        },
    );
    a.set(
        eff,
        MOJOSHADER_effect {
            error_count: errors.len() as c_int,
            errors: errors_ptr,
            param_count: params.len() as c_int,
            params: params_ptr,
            technique_count: techniques.len() as c_int,
            techniques: techniques_ptr,
            object_count: objects.len() as c_int,
            objects: objects_ptr,
            current_technique: techniques_ptr,
            current_pass: -1,
            restore_shader_state: 0,
            state_changes: std::ptr::null_mut(),
            current_vert_raw: std::ptr::null_mut(),
            current_pixl_raw: std::ptr::null_mut(),
            current_vert: std::ptr::null_mut(),
            current_pixl: std::ptr::null_mut(),
            prev_vertex_shader: std::ptr::null_mut(),
            prev_pixel_shader: std::ptr::null_mut(),
            ctx,
        },
    );
    top
}

/// Releases the shaders a plan made (the block could not be allocated).
fn release_shaders(plan: &Plan, ctx: &MOJOSHADER_effectShaderContext) {
    for o in &plan.objects {
        if let (ObjectPlan::Shader(s), Some(del)) = (o, ctx.deleteShader) {
            // SAFETY: the caller's callback on a shader it made.
            unsafe { del(ctx.shaderContext, s.handle) };
        }
    }
}

/// Lays a plan out in one block; the effect, or the out-of-memory answer.
fn emit(
    plan: &Plan,
    ctx: &MOJOSHADER_effectShaderContext,
    alloc: &Allocator,
    source: &[u8],
) -> *mut MOJOSHADER_effect {
    let h = build(alloc, |a| write(a, plan, ctx, alloc, source));
    if h.is_null() {
        release_shaders(plan, ctx);
        return &raw mut OUT_OF_MEM_EFFECT;
    }
    // SAFETY: the effect follows its header in the block.
    unsafe { h.add(1) as *mut MOJOSHADER_effect }
}

/// An effect holding only `message` (what `d3dbc` found wrong with the bytes).
fn failed(
    message: String,
    position: c_int,
    ctx: &MOJOSHADER_effectShaderContext,
    alloc: &Allocator,
) -> *mut MOJOSHADER_effect {
    let plan = Plan {
        params: Vec::new(),
        techniques: Vec::new(),
        types: Vec::new(),
        objects: Vec::new(),
        errors: vec![ErrorPlan {
            message,
            filename: None,
            position,
        }],
    };
    emit(&plan, ctx, alloc, &[])
}

/// `MOJOSHADER_compileEffect` after its pointers are checked.
pub(crate) fn compile(
    bytes: &[u8],
    swiz: &[MOJOSHADER_swizzle],
    smap: &[MOJOSHADER_samplerMap],
    ctx: &MOJOSHADER_effectShaderContext,
) -> *mut MOJOSHADER_effect {
    if ctx.m.is_some() != ctx.f.is_some() {
        return &raw mut OUT_OF_MEM_EFFECT;
    }
    let alloc = Allocator {
        m: ctx.m,
        f: ctx.f,
        d: ctx.malloc_data,
    };
    // MojoShader's own checks of the header, with its answers.
    if bytes.len() < 8 {
        return &raw mut EOF_EFFECT;
    }
    let word = |at: usize| {
        bytes
            .get(at..at + 4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    };
    let mut at = 0usize;
    if word(0) == Some(d3dbc::fx::XNA_WRAPPER) {
        at = (word(4).unwrap_or(0) as usize).max(8);
    }
    if word(at) != Some(d3dbc::fx::FX_2_0) {
        return &raw mut NOT_EFFECT_EFFECT;
    }
    let left = bytes.len() - at - 4;
    match word(at + 4) {
        Some(off) if (off as usize) <= left - 4 && left - 4 - off as usize >= 16 => {}
        _ => return &raw mut EOF_EFFECT,
    }
    match Effect::parse(bytes) {
        Ok(fx) => {
            let plan = plan(&fx, ctx, &Shaders::Compile { swiz, smap });
            emit(&plan, ctx, &alloc, bytes)
        }
        Err(e) => failed(
            format!(
                "Bogus effect data at byte {:#x}: {} (d3dbc's effect reader)",
                e.offset, e.what
            ),
            c_int::try_from(e.offset).unwrap_or(c_int::MAX),
            ctx,
            &alloc,
        ),
    }
}

/// `MOJOSHADER_deleteEffect` after its pointer is checked.
///
/// # Safety
/// `e` is NULL, a static answer or an effect of this module not yet deleted.
pub(crate) unsafe fn delete(e: *const MOJOSHADER_effect) {
    // SAFETY: per the contract.
    let Some(h) = (unsafe { header(e) }) else {
        return;
    };
    let alloc = h.alloc;
    // SAFETY: our effect.
    let eff = unsafe { &*e };
    // SAFETY: `objects` holds `object_count` entries.
    for o in unsafe { crate::slice(eff.objects, eff.object_count.max(0) as c_uint) } {
        // SAFETY: every object starts with its type.
        let s = unsafe { o.shader };
        if is_shader_type(s.r#type) && s.is_preshader == 0 && !s.shader.is_null() {
            if let Some(del) = eff.ctx.deleteShader {
                // SAFETY: the caller's callback on a shader it made.
                unsafe { del(eff.ctx.shaderContext, s.shader) };
            }
        }
    }
    // The header is the block's start.
    alloc.release((h as *const Header) as *mut c_void);
}

/// `MOJOSHADER_cloneEffect` after its pointer is checked: the same bytes read again,
/// the shaders shared (`ctx->shaderAddRef`), then the errors, the current values and
/// the current technique copied. NULL for a static answer or when memory runs out.
///
/// # Safety
/// `e` is NULL, a static answer or an effect of this module.
pub(crate) unsafe fn clone(e: *const MOJOSHADER_effect) -> *mut MOJOSHADER_effect {
    // SAFETY: per the contract.
    let Some(h) = (unsafe { header(e) }) else {
        return std::ptr::null_mut();
    };
    // SAFETY: our effect.
    let src = unsafe { &*e };
    let bytes = if h.source.is_null() {
        &[][..]
    } else {
        // SAFETY: the block holds the source bytes.
        unsafe { std::slice::from_raw_parts(h.source, h.source_len) }
    };
    // SAFETY: `objects` holds `object_count` entries.
    let objects = unsafe { crate::slice(src.objects, src.object_count.max(0) as c_uint) };
    let fx = Effect::parse(bytes);
    let mut p = match &fx {
        Ok(fx) => plan(fx, &src.ctx, &Shaders::Share { objects }),
        Err(_) => Plan {
            params: Vec::new(),
            techniques: Vec::new(),
            types: Vec::new(),
            objects: Vec::new(),
            errors: Vec::new(),
        },
    };
    p.errors = copy_errors(src);
    let out = emit(&p, &src.ctx, &h.alloc, bytes);
    if is_static(out) {
        return std::ptr::null_mut();
    }
    // SAFETY: `out` is the new effect, of the same bytes: the same shapes as `src`.
    unsafe { copy_state(src, &mut *out) };
    out
}

fn copy_errors(src: &MOJOSHADER_effect) -> Vec<ErrorPlan> {
    // SAFETY: `errors` holds `error_count` entries of NUL-terminated strings.
    unsafe { crate::slice(src.errors, src.error_count.max(0) as c_uint) }
        .iter()
        .map(|e| ErrorPlan {
            // SAFETY: as above.
            message: unsafe { c_string(e.error) }.unwrap_or_default(),
            // SAFETY: as above.
            filename: unsafe { c_string(e.filename) },
            position: e.error_position,
        })
        .collect()
}

/// Copies a value's current data (`value_count` words, or each sampler state's).
///
/// # Safety
/// Both values are laid out by this module from the same effect bytes.
unsafe fn copy_value(src: &MOJOSHADER_effectValue, dst: &MOJOSHADER_effectValue) {
    if src.value_count != dst.value_count || src.values.is_null() || dst.values.is_null() {
        return;
    }
    let n = src.value_count as usize;
    if src.r#type.parameter_class == SYMCLASS_OBJECT && is_sampler_type(src.r#type.parameter_type) {
        // SAFETY: `n` sampler states on both sides.
        let (s, d) = unsafe {
            (
                std::slice::from_raw_parts(src.values as *const MOJOSHADER_effectSamplerState, n),
                std::slice::from_raw_parts(dst.values as *const MOJOSHADER_effectSamplerState, n),
            )
        };
        for (s, d) in s.iter().zip(d) {
            // SAFETY: as above.
            unsafe { copy_value(&s.value, &d.value) };
        }
    } else {
        // SAFETY: `n` words on both sides, in different blocks.
        unsafe {
            std::ptr::copy_nonoverlapping(src.values as *const u32, dst.values as *mut u32, n)
        };
    }
}

/// Copies every value's data of `src` into the annotations list `dst` of the same shape.
///
/// # Safety
/// As [`copy_value`]; both lists hold `n` values.
unsafe fn copy_values(
    src: *const MOJOSHADER_effectValue,
    dst: *const MOJOSHADER_effectValue,
    n: c_uint,
) {
    // SAFETY: per the contract.
    let (s, d) = unsafe { (crate::slice(src, n), crate::slice(dst, n)) };
    for (s, d) in s.iter().zip(d) {
        // SAFETY: per the contract.
        unsafe { copy_value(s, d) };
    }
}

/// The clone's values and current technique from `src`.
///
/// # Safety
/// Both effects are laid out by this module from the same bytes.
unsafe fn copy_state(src: &MOJOSHADER_effect, dst: &mut MOJOSHADER_effect) {
    if src.param_count != dst.param_count || src.technique_count != dst.technique_count {
        return;
    }
    // SAFETY: per the contract: the same counts everywhere below.
    unsafe {
        let sp = crate::slice(src.params, src.param_count.max(0) as c_uint);
        let dp = crate::slice(dst.params, dst.param_count.max(0) as c_uint);
        for (s, d) in sp.iter().zip(dp) {
            copy_value(&s.value, &d.value);
            copy_values(
                s.annotations,
                d.annotations,
                s.annotation_count.min(d.annotation_count),
            );
        }
        let st = crate::slice(src.techniques, src.technique_count.max(0) as c_uint);
        let dt = crate::slice(dst.techniques, dst.technique_count.max(0) as c_uint);
        for (i, (s, d)) in st.iter().zip(dt).enumerate() {
            if std::ptr::eq(src.current_technique, s) {
                dst.current_technique = dst.techniques.add(i);
            }
            copy_values(
                s.annotations,
                d.annotations,
                s.annotation_count.min(d.annotation_count),
            );
            let n = s.pass_count.min(d.pass_count);
            for (sp, dp) in crate::slice(s.passes, n)
                .iter()
                .zip(crate::slice(d.passes, n))
            {
                copy_values(
                    sp.annotations,
                    dp.annotations,
                    sp.annotation_count.min(dp.annotation_count),
                );
                let k = sp.state_count.min(dp.state_count);
                for (ss, ds) in crate::slice(sp.states, k)
                    .iter()
                    .zip(crate::slice(dp.states, k))
                {
                    copy_value(&ss.value, &ds.value);
                }
            }
        }
    }
}
