//! Effects from C: an fx_2_0 effect opened once ([`d3dbc_effect_open`]), its
//! techniques, passes and parameters listed, numeric parameters set by name, and a pass
//! evaluated as D3DX's `BeginPass` applies it ([`d3dbc::fx::Effect::apply_pass`]): the
//! states it sets, its shaders' bytecode and the constants they read (the parameters
//! their constant tables name and what their preshaders compute).
//!
//! A `d3dbc_effect` owns a copy of the effect's bytes. Reading functions take it
//! `const` and may run on several threads at once; `d3dbc_effect_set_parameter` changes
//! it and must not run beside any other call on the same effect.

use std::ffi::{c_char, c_int, CString};

use d3dbc::fx::apply::{Constants, Values};
use d3dbc::fx::{Effect, ParameterClass};

use crate::compile::{code, d3dbc_code};
use crate::ffi::{self, Failure};

self_cell::self_cell!(
    struct Parsed {
        owner: Vec<u8>,
        #[covariant]
        dependent: Effect,
    }
);

/// An opened effect (opaque).
pub struct d3dbc_effect {
    parsed: Parsed,
    values: Values,
    /// Technique names, then each technique's pass names, as C strings.
    techniques: Vec<(CString, Vec<CString>)>,
    /// Parameter names and semantics.
    parameters: Vec<(CString, CString)>,
}

/// A top-level parameter.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct d3dbc_effect_parameter {
    /// Its name (owned by the effect).
    pub name: *const c_char,
    /// Its semantic, "" when none (owned by the effect).
    pub semantic: *const c_char,
    /// `D3DXPARAMETER_CLASS`.
    pub parameter_class: u32,
    /// `D3DXPARAMETER_TYPE`.
    pub parameter_type: u32,
    /// Rows.
    pub rows: u32,
    /// Columns.
    pub columns: u32,
    /// Array elements (0: not an array).
    pub elements: u32,
    /// `D3DX_PARAMETER_*` flags.
    pub flags: u32,
    /// Annotations.
    pub annotation_count: u32,
    /// Numbers in its value (what `d3dbc_effect_set_parameter` takes; 0 for objects).
    pub float_count: usize,
}

/// One state a pass sets, evaluated.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct d3dbc_state {
    /// The D3DX state number.
    pub operation: u32,
    /// Its name (`"ZENABLE"`, `"MINFILTER"`, …).
    pub name: *const c_char,
    /// What it sets: 0 render state, 1 texture stage, 2 N-patch mode, 3 FVF,
    /// 4 transform, 5 material, 6 light, 7 light enable, 8 vertex shader, 9 pixel
    /// shader, 10 shader constant, 11 texture, 12 sampler state, 13 sampler.
    pub state_class: u32,
    /// The D3D enumeration value (`D3DRS_*`, `D3DSAMP_*`, …).
    pub state: u32,
    /// Light, stage, sampler or register index.
    pub index: u32,
    /// The value's 32-bit words.
    pub words: *const u32,
    /// How many.
    pub word_count: usize,
}

/// A float constant register.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct d3dbc_float_constant {
    /// `c#`.
    pub register_index: u32,
    /// Its value.
    pub value: [f32; 4],
}

/// An integer constant register.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct d3dbc_int_constant {
    /// `i#`.
    pub register_index: u32,
    /// Its value.
    pub value: [i32; 4],
}

/// A boolean constant register.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct d3dbc_bool_constant {
    /// `b#`.
    pub register_index: u32,
    /// 0 or 1.
    pub value: i32,
}

/// The constants one shader of a pass reads.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct d3dbc_constants {
    /// Float registers.
    pub floats: *const d3dbc_float_constant,
    /// How many.
    pub float_count: usize,
    /// Integer registers.
    pub ints: *const d3dbc_int_constant,
    /// How many.
    pub int_count: usize,
    /// Boolean registers.
    pub bools: *const d3dbc_bool_constant,
    /// How many.
    pub bool_count: usize,
}

/// What a pass sets.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct d3dbc_pass_state {
    /// The vertex shader's bytecode (`{NULL, 0}`: none).
    pub vertex_shader: d3dbc_code,
    /// The pixel shader's bytecode.
    pub pixel_shader: d3dbc_code,
    /// Vertex shader constants.
    pub vs_constants: d3dbc_constants,
    /// Pixel shader constants.
    pub ps_constants: d3dbc_constants,
    /// Every other state, in the order the pass sets it.
    pub states: *const d3dbc_state,
    /// How many.
    pub state_count: usize,
    /// NULL, or why D3DX's `BeginPass` fails (an array selector out of range); the
    /// other states are still set.
    pub failure: *const c_char,
}

type ConstKeep = (
    Vec<d3dbc_float_constant>,
    Vec<d3dbc_int_constant>,
    Vec<d3dbc_bool_constant>,
);

/// What a [`d3dbc_pass_state`] points into (the shaders' bytes are [`d3dbc_code`]s,
/// freed with it). Its fields are only kept alive, never read.
#[allow(dead_code)]
struct PassKeep {
    vs: ConstKeep,
    ps: ConstKeep,
    states: Vec<d3dbc_state>,
    words: Vec<Vec<u32>>,
    strings: ffi::Strings,
    codes: [d3dbc_code; 2],
}

impl Drop for PassKeep {
    fn drop(&mut self) {
        for c in &mut self.codes {
            // SAFETY: made by `compile::code`, freed once here.
            unsafe { crate::compile::d3dbc_free_code(c) };
        }
    }
}

fn effect_ref<'a>(e: *const d3dbc_effect) -> Result<&'a d3dbc_effect, Failure> {
    if e.is_null() {
        return Err(Failure::argument("effect: NULL"));
    }
    // SAFETY: non-NULL; the caller passes an effect `d3dbc_effect_open` returned.
    Ok(unsafe { &*e })
}

/// Opens the effect in `size` bytes at `data` (an fx_2_0 effect, or XNA/FNA's wrapper
/// around one); the bytes are copied. Returns 0 and sets `*out` (free it with
/// `d3dbc_effect_free`), or a negative `d3dbc_result` with `*messages` saying what is
/// wrong and at which byte.
///
/// # Safety
/// `data` must point to `size` readable bytes; `out` to a writable pointer; `messages`
/// be NULL or point to a writable `char *`.
#[no_mangle]
pub unsafe extern "C" fn d3dbc_effect_open(
    data: *const u8,
    size: usize,
    out: *mut *mut d3dbc_effect,
    messages: *mut *mut c_char,
) -> c_int {
    ffi::guard("d3dbc_effect_open", messages, || {
        ffi::out_arg(out, "out")?;
        // SAFETY: checked non-NULL.
        unsafe { *out = std::ptr::null_mut() };
        // SAFETY: per this function's contract.
        let bytes = unsafe { ffi::bytes(data, size, "data")? }.to_vec();
        if !Effect::is_effect(&bytes) {
            return Err(Failure::input(
                "not an fx_2_0 effect (no 0xFEFF0901 tag, nor an XNA wrapper around one)",
            ));
        }
        let parsed = Parsed::try_new(bytes, |b| Effect::parse(b))
            .map_err(|e| Failure::input(e.to_string()))?;
        let e = parsed.borrow_dependent();
        let techniques = e
            .techniques
            .iter()
            .map(|t| {
                (
                    ffi::c_string(&t.name),
                    t.passes.iter().map(|p| ffi::c_string(&p.name)).collect(),
                )
            })
            .collect();
        let parameters = e
            .parameters
            .iter()
            .map(|p| (ffi::c_string(&p.ty.name), ffi::c_string(&p.ty.semantic)))
            .collect();
        let effect = d3dbc_effect {
            parsed,
            values: Values::default(),
            techniques,
            parameters,
        };
        // SAFETY: as above.
        unsafe { *out = Box::into_raw(Box::new(effect)) };
        Ok(String::new())
    })
}

/// Frees an effect (NULL is ignored).
///
/// # Safety
/// `effect` must be NULL or what `d3dbc_effect_open` returned, not yet freed.
#[no_mangle]
pub unsafe extern "C" fn d3dbc_effect_free(effect: *mut d3dbc_effect) {
    ffi::quiet((), || {
        if !effect.is_null() {
            // SAFETY: made by `Box::into_raw` in `d3dbc_effect_open`.
            drop(unsafe { Box::from_raw(effect) });
        }
    })
}

/// The number of techniques (0 for NULL).
///
/// # Safety
/// `effect` must be NULL or a live effect.
#[no_mangle]
pub unsafe extern "C" fn d3dbc_effect_technique_count(effect: *const d3dbc_effect) -> usize {
    ffi::quiet(0, || effect_ref(effect).map_or(0, |e| e.techniques.len()))
}

/// Technique `technique`'s name (owned by the effect), NULL when out of range.
///
/// # Safety
/// `effect` must be NULL or a live effect.
#[no_mangle]
pub unsafe extern "C" fn d3dbc_effect_technique_name(
    effect: *const d3dbc_effect,
    technique: usize,
) -> *const c_char {
    ffi::quiet(std::ptr::null(), || {
        effect_ref(effect)
            .ok()
            .and_then(|e| e.techniques.get(technique))
            .map_or(std::ptr::null(), |t| t.0.as_ptr())
    })
}

/// The number of passes of technique `technique` (0 when out of range).
///
/// # Safety
/// `effect` must be NULL or a live effect.
#[no_mangle]
pub unsafe extern "C" fn d3dbc_effect_pass_count(
    effect: *const d3dbc_effect,
    technique: usize,
) -> usize {
    ffi::quiet(0, || {
        effect_ref(effect)
            .ok()
            .and_then(|e| e.techniques.get(technique))
            .map_or(0, |t| t.1.len())
    })
}

/// Pass `pass` of technique `technique`: its name, "" when unnamed (owned by the
/// effect), NULL when out of range.
///
/// # Safety
/// `effect` must be NULL or a live effect.
#[no_mangle]
pub unsafe extern "C" fn d3dbc_effect_pass_name(
    effect: *const d3dbc_effect,
    technique: usize,
    pass: usize,
) -> *const c_char {
    ffi::quiet(std::ptr::null(), || {
        effect_ref(effect)
            .ok()
            .and_then(|e| e.techniques.get(technique))
            .and_then(|t| t.1.get(pass))
            .map_or(std::ptr::null(), |p| p.as_ptr())
    })
}

/// The number of top-level parameters (0 for NULL).
///
/// # Safety
/// `effect` must be NULL or a live effect.
#[no_mangle]
pub unsafe extern "C" fn d3dbc_effect_parameter_count(effect: *const d3dbc_effect) -> usize {
    ffi::quiet(0, || effect_ref(effect).map_or(0, |e| e.parameters.len()))
}

/// Describes parameter `index` into `*out`. Returns 0, or
/// `D3DBC_ERROR_INVALID_ARGUMENT` for a NULL pointer or an index past the end.
///
/// # Safety
/// `effect` must be NULL or a live effect; `out` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn d3dbc_effect_parameter_info(
    effect: *const d3dbc_effect,
    index: usize,
    out: *mut d3dbc_effect_parameter,
) -> c_int {
    ffi::guard("d3dbc_effect_parameter_info", std::ptr::null_mut(), || {
        let e = effect_ref(effect)?;
        ffi::out_arg(out, "out")?;
        let fx = e.parsed.borrow_dependent();
        let (Some(p), Some(names)) = (fx.parameters.get(index), e.parameters.get(index)) else {
            return Err(Failure::argument(format!(
                "parameter {index}: the effect has {}",
                e.parameters.len()
            )));
        };
        let numeric = !matches!(p.ty.class, ParameterClass::Object);
        let info = d3dbc_effect_parameter {
            name: names.0.as_ptr(),
            semantic: names.1.as_ptr(),
            parameter_class: p.ty.class.to_u16().into(),
            parameter_type: p.ty.ty.to_u16().into(),
            rows: p.ty.rows,
            columns: p.ty.columns,
            elements: p.ty.elements,
            flags: p.flags,
            annotation_count: p.annotations.len() as u32,
            float_count: if numeric {
                (p.ty.bytes() / 4) as usize
            } else {
                0
            },
        };
        // SAFETY: checked non-NULL.
        unsafe { out.write(info) };
        Ok(String::new())
    })
}

/// Copies the current value of numeric parameter `name` (set, else its default) as
/// floats into `values` (room for `capacity`), and its length into `*count`. Returns 0,
/// or a negative `d3dbc_result` (`*messages` says why: unknown name, not numeric).
///
/// # Safety
/// `effect` a live effect, `name` a NUL-terminated string, `values` room for
/// `capacity` floats (NULL when 0), `count` NULL or writable, `messages` NULL or a
/// writable `char *`.
#[no_mangle]
pub unsafe extern "C" fn d3dbc_effect_get_parameter(
    effect: *const d3dbc_effect,
    name: *const c_char,
    values: *mut f32,
    capacity: usize,
    count: *mut usize,
    messages: *mut *mut c_char,
) -> c_int {
    ffi::guard("d3dbc_effect_get_parameter", messages, || {
        let e = effect_ref(effect)?;
        // SAFETY: per this function's contract.
        let name = unsafe { ffi::str_arg(name, "name")? };
        let fx = e.parsed.borrow_dependent();
        let p = numeric(fx, name)?;
        let v = fx
            .parameter_floats(&p.ty.name, &e.values)
            .unwrap_or_default();
        if capacity > 0 && values.is_null() {
            return Err(Failure::argument("values: NULL with a capacity"));
        }
        let n = v.len().min(capacity);
        if n > 0 {
            // SAFETY: `values` has room for `capacity` ≥ n floats.
            unsafe { std::ptr::copy_nonoverlapping(v.as_ptr(), values, n) };
        }
        if !count.is_null() {
            // SAFETY: checked non-NULL.
            unsafe { *count = v.len() };
        }
        Ok(String::new())
    })
}

fn numeric<'e, 'a>(
    fx: &'e Effect<'a>,
    name: &str,
) -> Result<&'e d3dbc::fx::Parameter<'a>, Failure> {
    let p = fx.parameter(name).ok_or_else(|| {
        let names: Vec<_> = fx.parameters.iter().map(|p| p.ty.name.as_ref()).collect();
        Failure::argument(format!(
            "no parameter `{name}`; the effect's parameters: {}",
            names.join(", ")
        ))
    })?;
    if matches!(p.ty.class, ParameterClass::Object) {
        return Err(Failure::argument(format!(
            "parameter `{name}` is an object ({}), not a number",
            p.ty.ty.hlsl_name()
        )));
    }
    Ok(p)
}

/// Sets numeric parameter `name` to `count` floats (all its numbers, in D3DX order:
/// elements, members, rows; ints and bools as floats). Returns 0, or a negative
/// `d3dbc_result` with `*messages` naming the valid parameters or the expected count.
/// Not to be called beside another call on the same effect.
///
/// # Safety
/// `effect` a live effect, `name` a NUL-terminated string, `values` `count` floats,
/// `messages` NULL or a writable `char *`.
#[no_mangle]
pub unsafe extern "C" fn d3dbc_effect_set_parameter(
    effect: *mut d3dbc_effect,
    name: *const c_char,
    values: *const f32,
    count: usize,
    messages: *mut *mut c_char,
) -> c_int {
    ffi::guard("d3dbc_effect_set_parameter", messages, || {
        if effect.is_null() {
            return Err(Failure::argument("effect: NULL"));
        }
        // SAFETY: non-NULL; a live effect no other call uses now.
        let e = unsafe { &mut *effect };
        // SAFETY: per this function's contract.
        let name = unsafe { ffi::str_arg(name, "name")? };
        let v = unsafe { ffi::slice(values, count, "values")? };
        let fx = e.parsed.borrow_dependent();
        let p = numeric(fx, name)?;
        let want = (p.ty.bytes() / 4) as usize;
        if v.len() != want {
            return Err(Failure::argument(format!(
                "parameter `{name}` holds {want} numbers, {} given",
                v.len()
            )));
        }
        e.values.set(name, v.to_vec());
        Ok(String::new())
    })
}

fn constants(c: &Constants) -> (d3dbc_constants, ConstKeep) {
    let f: Vec<_> = c
        .float
        .iter()
        .map(|(r, v)| d3dbc_float_constant {
            register_index: *r,
            value: *v,
        })
        .collect();
    let i: Vec<_> = c
        .int
        .iter()
        .map(|(r, v)| d3dbc_int_constant {
            register_index: *r,
            value: *v,
        })
        .collect();
    let b: Vec<_> = c
        .bool
        .iter()
        .map(|(r, v)| d3dbc_bool_constant {
            register_index: *r,
            value: (*v).into(),
        })
        .collect();
    let public = d3dbc_constants {
        floats: ffi::array(&f).0,
        float_count: f.len(),
        ints: ffi::array(&i).0,
        int_count: i.len(),
        bools: ffi::array(&b).0,
        bool_count: b.len(),
    };
    (public, (f, i, b))
}

/// Evaluates pass `pass` of technique `technique` with the parameters set so far, as
/// D3DX's `BeginPass` applies it. Returns 0 and sets `*out` (free it with
/// `d3dbc_free_pass_state`), or a negative `d3dbc_result` with `*messages` saying why
/// (an index out of range, a preshader that cannot run).
///
/// # Safety
/// `effect` a live effect, `out` writable, `messages` NULL or a writable `char *`.
#[no_mangle]
pub unsafe extern "C" fn d3dbc_effect_evaluate_pass(
    effect: *const d3dbc_effect,
    technique: usize,
    pass: usize,
    out: *mut *mut d3dbc_pass_state,
    messages: *mut *mut c_char,
) -> c_int {
    ffi::guard("d3dbc_effect_evaluate_pass", messages, || {
        ffi::out_arg(out, "out")?;
        // SAFETY: checked non-NULL.
        unsafe { *out = std::ptr::null_mut() };
        let e = effect_ref(effect)?;
        let Some(t) = e.techniques.get(technique) else {
            return Err(Failure::argument(format!(
                "technique {technique}: the effect has {}",
                e.techniques.len()
            )));
        };
        if pass >= t.1.len() {
            return Err(Failure::argument(format!(
                "pass {pass}: technique {technique} has {}",
                t.1.len()
            )));
        }
        let fx = e.parsed.borrow_dependent();
        let ps = fx
            .apply_pass(technique, pass, &e.values)
            .map_err(|err| Failure::input(format!("technique {technique} pass {pass}: {err}")))?;
        let mut strings = ffi::Strings::default();
        let mut words = Vec::new();
        let mut states = Vec::new();
        for s in &ps.states {
            let w = s.words.clone();
            states.push(d3dbc_state {
                operation: s.operation,
                name: strings.add(s.name),
                state_class: s.class as u32,
                state: s.state,
                index: s.index,
                words: ffi::array(&w).0,
                word_count: w.len(),
            });
            words.push(w);
        }
        let failure = match &ps.failure {
            Some(f) => strings.add(&f.to_string()),
            None => std::ptr::null(),
        };
        let shader = |b: Option<&[u8]>| match b {
            Some(b) => code(b.to_vec()),
            None => d3dbc_code {
                data: std::ptr::null(),
                size: 0,
            },
        };
        let codes = [shader(ps.vertex_shader), shader(ps.pixel_shader)];
        let (vs_c, vs) = constants(&ps.vs_constants);
        let (ps_c, psk) = constants(&ps.ps_constants);
        let public = d3dbc_pass_state {
            vertex_shader: codes[0],
            pixel_shader: codes[1],
            vs_constants: vs_c,
            ps_constants: ps_c,
            states: ffi::array(&states).0,
            state_count: states.len(),
            failure,
        };
        let keep = PassKeep {
            vs,
            ps: psk,
            states,
            words,
            strings,
            codes,
        };
        // SAFETY: as above.
        unsafe { *out = ffi::give(public, keep) };
        Ok(String::new())
    })
}

/// Frees a pass state (NULL is ignored); its shaders' bytecode goes with it.
///
/// # Safety
/// `state` must be NULL or what `d3dbc_effect_evaluate_pass` returned, not yet freed.
#[no_mangle]
pub unsafe extern "C" fn d3dbc_free_pass_state(state: *mut d3dbc_pass_state) {
    // SAFETY: per this function's contract.
    ffi::quiet((), || unsafe {
        ffi::take::<d3dbc_pass_state, PassKeep>(state)
    })
}
