//! Laying a [`Plan`] out in MojoShader's `MOJOSHADER_effect` structs inside one arena
//! block: strings, symbol type infos, values padded to rows of four, passes and states.

use std::borrow::Cow;
use std::ffi::{c_char, c_int, c_uint, c_void};

use super::*;
use crate::arena::{Allocator, Arena};

pub(super) fn opt_str(a: &mut Arena, s: &Option<Cow<str>>) -> *const c_char {
    s.as_deref().map_or(std::ptr::null(), |s| a.str(s))
}

pub(super) fn write_info(a: &mut Arena, i: &Info) -> MOJOSHADER_symbolTypeInfo {
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

pub(super) fn write_value(a: &mut Arena, v: &ValuePlan) -> MOJOSHADER_effectValue {
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

pub(super) fn write_values(a: &mut Arena, list: &[ValuePlan]) -> *mut MOJOSHADER_effectValue {
    let v: Vec<MOJOSHADER_effectValue> = list.iter().map(|x| write_value(a, x)).collect();
    a.slice(&v)
}

pub(super) fn empty_shader(ty: c_int) -> MOJOSHADER_effectShader {
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
pub(super) fn write(
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
    // Each object's preshader tokens (parsed once, in the writing pass).
    let mut pres: Vec<&[u32]> = Vec::with_capacity(plan.objects.len());
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
            pres.push(tokens);
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
    let parsed = if a.writing() {
        Box::into_raw(Box::new(Parsed::new(pres.into_iter()))) as *const Parsed
    } else {
        std::ptr::null()
    };
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
            parsed,
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
