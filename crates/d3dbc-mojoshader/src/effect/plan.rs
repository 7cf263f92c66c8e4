//! What an effect becomes before it is laid out: the plan of its parameters' values,
//! techniques, passes and objects (shaders compiled through the caller's context,
//! selectors), read from `d3dbc::fx`.

use std::borrow::Cow;
use std::ffi::{c_char, c_int, c_uint, c_void, CStr};

use d3dbc::fx::{Effect, ParameterClass, StateValue, Value};

use super::*;

/// A `MOJOSHADER_symbolTypeInfo` to be.
#[derive(Clone, Default)]
pub(super) struct Info<'a> {
    pub(super) class: c_int,
    pub(super) ty: c_int,
    pub(super) rows: u32,
    pub(super) columns: u32,
    pub(super) elements: u32,
    pub(super) members: Vec<(Option<Cow<'a, str>>, Info<'a>)>,
}

/// A `MOJOSHADER_effectValue` to be.
pub(super) struct ValuePlan<'a> {
    pub(super) name: Option<Cow<'a, str>>,
    pub(super) semantic: Option<Cow<'a, str>>,
    pub(super) info: Info<'a>,
    pub(super) count: u32,
    pub(super) data: Data<'a>,
}

pub(super) enum Data<'a> {
    /// `count` 32-bit words (numbers in rows of four, or object ids).
    Words(Vec<u32>),
    /// Sampler states: MojoShader's state type and value.
    Samplers(Vec<(c_int, ValuePlan<'a>)>),
}

/// A shader object compiled (or shared, for a clone).
#[derive(Clone)]
pub(super) struct ShaderPlan {
    pub(super) technique: u32,
    pub(super) pass: u32,
    pub(super) handle: *mut c_void,
    /// Parameter index per symbol of the shader's constant table.
    pub(super) params: Vec<u32>,
    /// (parameter index, register) per sampler symbol.
    pub(super) samplers: Vec<(u32, u32)>,
    /// Parameter index per symbol of the shader's preshader.
    pub(super) preshader_params: Vec<u32>,
    /// The shader's `PRES` tokens.
    pub(super) pres: Vec<u32>,
}

/// An array selector: a preshader picking an element of a shader-array parameter.
pub(super) struct SelectorPlan {
    pub(super) technique: u32,
    pub(super) pass: u32,
    pub(super) array: u32,
    pub(super) preshader: Option<crate::preshader::Plan>,
    pub(super) preshader_params: Vec<u32>,
    pub(super) program: Vec<u32>,
}

pub(super) enum ObjectPlan {
    Empty,
    String(Vec<u8>),
    Mapping(Vec<u8>),
    Shader(ShaderPlan),
    Selector(SelectorPlan),
}

pub(super) struct ErrorPlan {
    pub(super) message: String,
    pub(super) filename: Option<String>,
    pub(super) position: c_int,
}

pub(super) struct Plan<'a> {
    pub(super) params: Vec<(ValuePlan<'a>, Vec<ValuePlan<'a>>)>,
    pub(super) techniques: Vec<TechniquePlan<'a>>,
    pub(super) types: Vec<c_int>,
    pub(super) objects: Vec<ObjectPlan>,
    pub(super) errors: Vec<ErrorPlan>,
}

pub(super) struct TechniquePlan<'a> {
    pub(super) name: Option<Cow<'a, str>>,
    pub(super) annotations: Vec<ValuePlan<'a>>,
    pub(super) passes: Vec<PassPlan<'a>>,
}

pub(super) struct PassPlan<'a> {
    pub(super) name: Option<Cow<'a, str>>,
    pub(super) annotations: Vec<ValuePlan<'a>>,
    pub(super) states: Vec<(c_int, ValuePlan<'a>)>,
}

pub(super) fn is_sampler_type(t: c_int) -> bool {
    (SYMTYPE_SAMPLER..=SYMTYPE_SAMPLERCUBE).contains(&t)
}

pub(super) fn is_texture_or_sampler(t: c_int) -> bool {
    (SYMTYPE_TEXTURE..=SYMTYPE_SAMPLERCUBE).contains(&t)
}

pub(super) fn is_shader_type(t: c_int) -> bool {
    t == SYMTYPE_PIXELSHADER || t == SYMTYPE_VERTEXSHADER
}

/// A name as MojoShader's `readstring` gives it: none for an empty one. (fxc stores a
/// missing semantic or annotation name with length 0, which MojoShader reads as NULL,
/// and an unnamed pass or technique as a lone NUL, which it reads as "": `d3dbc`
/// gives both as an empty string, so passes and techniques keep "".)
pub(super) fn name_of<'a>(s: &Cow<'a, str>) -> Option<Cow<'a, str>> {
    (!s.is_empty()).then(|| s.clone())
}

/// The two size DWORDs of a typedef in file order (MojoShader calls them columns,
/// then rows, for every class; `d3dbc` reads a vector's columns first and the other
/// classes' rows first).
pub(super) fn file_dims(t: &d3dbc::fx::TypeDesc) -> (u32, u32) {
    if t.class == ParameterClass::Vector {
        (t.columns, t.rows)
    } else {
        (t.rows, t.columns)
    }
}

/// The object ids of an object value (elements in order).
pub(super) fn object_ids(v: &Value, out: &mut Vec<u32>) {
    match v {
        Value::Object(id) => out.push(*id),
        Value::Array(items) => items.iter().for_each(|i| object_ids(i, out)),
        _ => {}
    }
}

/// Numbers `raw` (words in file order, `first` per row) in rows of four.
/// Rows past the data (a typedef claiming more rows than its value holds, or rows of
/// no columns) are not made: what MojoShader would allocate for them is unbounded.
pub(super) fn rows_of_four(raw: &[u32], first: u32, rows: usize, out: &mut Vec<u32>) {
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
pub(super) fn member_info<'a>(t: &d3dbc::fx::TypeDesc<'a>) -> (u32, Info<'a>) {
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
pub(super) fn struct_info<'a>(t: &d3dbc::fx::TypeDesc<'a>) -> (u32, Info<'a>) {
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
pub(super) fn struct_words(t: &d3dbc::fx::TypeDesc, v: &Value, out: &mut Vec<u32>) {
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
pub(super) fn value_plan<'a>(
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
pub(super) unsafe fn c_string(p: *const c_char) -> Option<String> {
    if p.is_null() {
        return None;
    }
    // SAFETY: per the contract.
    Some(unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned())
}

/// The parameter named `name` (MojoShader's `findparameter`; `u32::MAX` when none).
pub(super) fn find_param(names: &[Option<Cow<str>>], name: &[u8]) -> u32 {
    names
        .iter()
        .position(|n| n.as_deref().map(str::as_bytes) == Some(name))
        .map_or(u32::MAX, |i| i as u32)
}

/// Compiles (or shares) shader object `index`; `Err` with the errors to report.
#[allow(clippy::too_many_arguments)]
pub(super) fn make_shader(
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
pub(super) fn selector(
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
pub(super) fn plan<'a>(
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
