//! Applying a pass: parameter values (defaults, overridden by the caller), preshaders
//! and state expressions evaluated, and the result — the D3D state a pass sets and the
//! constants its shaders read — as plain data ([`PassState`]). The executor turns a
//! `PassState` into its `Draw`.
//!
//! Values follow D3DX: numeric parameters are kept as `f32` (ints and bools converted);
//! a state's value is its constant, the referenced parameter's value, or its expression's
//! result; a float state is stored as the float's bits, an int or bool state as the
//! integer (D3DX converts float results to int by truncation).

use std::collections::HashMap;

use super::preshader::{find_pres, PresError, Preshader};
use super::states::{ConstKind, StateClass};
use super::{
    state_info, to_words, Effect, ParameterClass, ParameterType, State, StateValue, Value,
};
use crate::ctab::{CtabView, RegisterSet};

/// Parameter values set by the caller, by name (all components as `f32`, row-major,
/// elements one after another).
#[derive(Clone, Debug, Default)]
pub struct Values {
    map: HashMap<String, Vec<f32>>,
}

impl Values {
    /// Sets parameter `name`.
    pub fn set(&mut self, name: &str, values: Vec<f32>) {
        self.map.insert(name.to_string(), values);
    }

    /// The value set for `name`.
    pub fn get(&self, name: &str) -> Option<&[f32]> {
        self.map.get(name).map(Vec::as_slice)
    }
}

/// Constants a shader reads, by register.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Constants {
    /// Float registers `(register, value)`.
    pub float: Vec<(u32, [f32; 4])>,
    /// Int registers.
    pub int: Vec<(u32, [i32; 4])>,
    /// Bool registers.
    pub bool: Vec<(u32, bool)>,
}

impl Constants {
    fn set_f(&mut self, reg: u32, v: [f32; 4]) {
        match self.float.iter_mut().find(|(r, _)| *r == reg) {
            Some(e) => e.1 = v,
            None => self.float.push((reg, v)),
        }
    }
}

/// One state a pass sets, evaluated.
#[derive(Clone, Debug, PartialEq)]
pub struct AppliedState {
    /// The D3DX state number.
    pub operation: u32,
    /// Its name.
    pub name: &'static str,
    /// What it sets.
    pub class: StateClass,
    /// The D3D enumeration value (`D3DRS_*`, `D3DSAMP_*`, …).
    pub state: u32,
    /// Light, stage, sampler or register index.
    pub index: u32,
    /// The value's 32-bit words (one for render/sampler states; four per register for
    /// shader constants; the object id for textures and samplers).
    pub words: Vec<u32>,
}

/// What a pass sets.
#[derive(Clone, Debug, Default)]
pub struct PassState<'a> {
    /// The vertex shader's bytecode (`None`: the fixed-function pipeline or NULL).
    pub vertex_shader: Option<&'a [u8]>,
    /// The pixel shader's bytecode.
    pub pixel_shader: Option<&'a [u8]>,
    /// Vertex shader constants (preshader outputs and the parameters its `CTAB` names).
    pub vs_constants: Constants,
    /// Pixel shader constants.
    pub ps_constants: Constants,
    /// Every other state in the order the pass sets it (sampler objects expanded into
    /// their sampler states for their stage).
    pub states: Vec<AppliedState>,
}

fn word_to_f32(ty: ParameterType, w: u32) -> f32 {
    match ty {
        ParameterType::Float => f32::from_bits(w),
        ParameterType::Int => w as i32 as f32,
        ParameterType::Bool => {
            if w != 0 {
                1.0
            } else {
                0.0
            }
        }
        _ => f32::from_bits(w),
    }
}

impl<'a> Effect<'a> {
    /// The values of parameter `name` as `f32`s (the caller's, else the default), with
    /// its class, rows and columns.
    pub fn parameter_floats(
        &self,
        name: &str,
        values: &Values,
    ) -> Option<(ParameterClass, u32, u32, Vec<f32>)> {
        let p = self.parameter(name)?;
        let v = match values.get(name) {
            Some(v) => v.to_vec(),
            None => p
                .value
                .words()
                .into_iter()
                .map(|w| word_to_f32(p.ty.ty, w))
                .collect(),
        };
        Some((p.ty.class, p.ty.rows, p.ty.columns, v))
    }

    fn stage_inputs(
        &self,
        pres: &Preshader,
        regs: &mut super::preshader::Registers,
        values: &Values,
    ) {
        if let Some(view) = pres.ctab_view() {
            for k in view.constants() {
                if let Some((class, rows, columns, v)) = self.parameter_floats(&k.name, values) {
                    pres.set_input(regs, &k.name, class, rows, columns, &v);
                }
            }
        }
    }

    /// Runs a state expression or array selector program; the float outputs.
    pub fn evaluate_expression(
        &self,
        program: &[u8],
        values: &Values,
    ) -> Result<Vec<f32>, PresError> {
        let pres = Preshader::parse(&to_words(program))?;
        let mut regs = pres.registers();
        self.stage_inputs(&pres, &mut regs, values);
        pres.run(&mut regs);
        Ok(regs.outputs())
    }

    /// The constants a shader reads: the parameters its `CTAB` names, then its
    /// preshader's outputs.
    pub fn shader_constants(&self, code: &[u8], values: &Values) -> Result<Constants, PresError> {
        let tokens = to_words(code);
        let mut out = Constants::default();
        let ctab = super::preshader::comments_of(&tokens)
            .find(|c| crate::ctab::Ctab::is_ctab(c))
            .and_then(|c| CtabView::parse(c).ok());
        if let Some(view) = ctab {
            for k in view.constants() {
                let Some((class, rows, columns, v)) = self.parameter_floats(&k.name, values) else {
                    continue;
                };
                let mut table =
                    vec![0f64; (k.register_index as usize + k.register_count as usize) * 4];
                super::preshader::stage_public(
                    &mut table,
                    u32::from(k.register_index),
                    u32::from(k.register_count),
                    k.ty.class,
                    class,
                    rows.max(1),
                    columns.max(1),
                    &v,
                );
                for r in 0..u32::from(k.register_count) {
                    let reg = u32::from(k.register_index) + r;
                    let at = reg as usize * 4;
                    let q: [f64; 4] = [table[at], table[at + 1], table[at + 2], table[at + 3]];
                    match k.register_set {
                        RegisterSet::Float4 => out.set_f(reg, q.map(|x| x as f32)),
                        RegisterSet::Int4 => out.int.push((reg, q.map(|x| x as i32))),
                        RegisterSet::Bool => out.bool.push((reg, q[0] != 0.0)),
                        _ => {}
                    }
                }
            }
        }
        if let Some(pres) = find_pres(&tokens) {
            let pres = Preshader::parse(pres)?;
            let mut regs = pres.registers();
            self.stage_inputs(&pres, &mut regs, values);
            pres.run(&mut regs);
            let outs = regs.outputs();
            for (reg, q) in outs.chunks_exact(4).enumerate() {
                let written = pres.instructions.iter().any(|i| {
                    i.output.table == super::preshader::Table::Output
                        && (i.output.offset / 4) as usize == reg
                });
                if written {
                    out.set_f(reg as u32, [q[0], q[1], q[2], q[3]]);
                }
            }
        }
        Ok(out)
    }

    /// The value words of a state: constant, referenced parameter, or expression.
    pub fn state_words(&self, s: &State<'a>, values: &Values) -> Result<Vec<u32>, PresError> {
        let to_words_typed = |ty: ParameterType, f: &[f32]| -> Vec<u32> {
            f.iter()
                .map(|&x| match ty {
                    ParameterType::Float => x.to_bits(),
                    ParameterType::Bool => u32::from(x != 0.0),
                    _ => x as i32 as u32,
                })
                .collect()
        };
        Ok(match &s.source {
            StateValue::Constant => match &s.value {
                Value::Object(id) => vec![*id],
                v => v.words(),
            },
            StateValue::Parameter(name) => match self.parameter(name) {
                Some(p) => match &p.value {
                    Value::Object(id) => vec![*id],
                    Value::Sampler(_) => vec![],
                    _ => match values.get(name) {
                        Some(f) => to_words_typed(p.ty.ty, f),
                        None => p.value.words(),
                    },
                },
                None => vec![],
            },
            StateValue::Expression(prog) => {
                let f = self.evaluate_expression(prog, values)?;
                let n = (s.ty.bytes() / 4).max(1) as usize;
                to_words_typed(s.ty.ty, &f[..n.min(f.len())])
            }
            StateValue::ArraySelector { .. } => vec![],
        })
    }

    /// Applies pass `pass` of technique `technique` with `values`.
    pub fn apply_pass(
        &self,
        technique: usize,
        pass: usize,
        values: &Values,
    ) -> Result<PassState<'a>, PresError> {
        let mut out = PassState::default();
        let Some(p) = self
            .techniques
            .get(technique)
            .and_then(|t| t.passes.get(pass))
        else {
            return Ok(out);
        };
        for s in &p.states {
            let Some(info) = state_info(s.operation) else {
                continue;
            };
            match info.class {
                StateClass::VertexShader => {
                    out.vertex_shader = self.state_shader_with(s, values);
                }
                StateClass::PixelShader => {
                    out.pixel_shader = self.state_shader_with(s, values);
                }
                StateClass::Sampler => {
                    // A sampler object: its states for stage `index`.
                    let sampler = match &s.source {
                        StateValue::Parameter(n) => self.parameter(n).map(|p| &p.value),
                        _ => Some(&s.value),
                    };
                    if let Some(Value::Sampler(states)) = sampler {
                        for ss in states {
                            let Some(si) = state_info(ss.operation) else {
                                continue;
                            };
                            out.states.push(AppliedState {
                                operation: ss.operation,
                                name: si.name,
                                class: si.class,
                                state: si.value,
                                index: s.index,
                                words: self.state_words(ss, values)?,
                            });
                        }
                    }
                }
                _ => {
                    let words = self.state_words(s, values)?;
                    if let Some(kind) = info.const_kind() {
                        let target = match kind {
                            ConstKind::VsFloat | ConstKind::VsBool | ConstKind::VsInt => {
                                &mut out.vs_constants
                            }
                            _ => &mut out.ps_constants,
                        };
                        for (r, q) in words.chunks(4).enumerate() {
                            let mut v = [0f32; 4];
                            for (i, w) in q.iter().enumerate() {
                                v[i] = f32::from_bits(*w);
                            }
                            if matches!(kind, ConstKind::VsFloat | ConstKind::PsFloat) {
                                target.set_f(s.index + r as u32, v);
                            }
                        }
                    }
                    out.states.push(AppliedState {
                        operation: s.operation,
                        name: info.name,
                        class: info.class,
                        state: info.value,
                        index: s.index,
                        words,
                    });
                }
            }
        }
        // Shader constants from the shaders' tables and preshaders (set after the pass's
        // explicit constant states, as D3DX does when it binds the shaders).
        if let Some(vs) = out.vertex_shader {
            let c = self.shader_constants(vs, values)?;
            merge(&mut out.vs_constants, c);
        }
        if let Some(ps) = out.pixel_shader {
            let c = self.shader_constants(ps, values)?;
            merge(&mut out.ps_constants, c);
        }
        Ok(out)
    }
}

fn merge(into: &mut Constants, from: Constants) {
    for (r, v) in from.float {
        into.set_f(r, v);
    }
    into.int.extend(from.int);
    into.bool.extend(from.bool);
}
