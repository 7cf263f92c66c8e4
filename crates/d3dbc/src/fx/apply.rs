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
use super::{state_info, to_words, Effect, ParameterType, State, StateValue, Value};
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

/// Sets register `reg` of one register file: replaces its value where the file holds
/// it, else appends it (a later state or shader staging overrides an earlier one).
fn set<T>(file: &mut Vec<(u32, T)>, reg: u32, v: T) {
    match file.iter_mut().find(|(r, _)| *r == reg) {
        Some(e) => e.1 = v,
        None => file.push((reg, v)),
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
    /// Why `BeginPass` would fail (`E_FAIL`): a shader state's array selector computed
    /// an index outside its array. D3DX still sets the pass's other states; the shader
    /// state sets nothing (here: no shader).
    pub failure: Option<PresError>,
}

/// A value's numbers as `f32`s in D3DX order (array elements, struct members,
/// row-major matrices), ints and bools converted.
pub fn flatten(ty: &super::TypeDesc, v: &Value, out: &mut Vec<f32>) {
    match v {
        Value::Data(b) => out.extend(
            b.chunks_exact(4)
                .map(|w| word_to_f32(ty.ty, u32::from_le_bytes([w[0], w[1], w[2], w[3]]))),
        ),
        Value::Array(items) => items.iter().for_each(|i| flatten(ty, i, out)),
        Value::Struct(members) => {
            for (m, mt) in members.iter().zip(&ty.members) {
                flatten(mt, m, out);
            }
        }
        _ => {}
    }
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
    /// The values of parameter `name` as `f32`s, flattened in D3DX order (the
    /// caller's, else the default).
    pub fn parameter_floats(&self, name: &str, values: &Values) -> Option<Vec<f32>> {
        let p = self.parameter(name)?;
        Some(match values.get(name) {
            Some(v) => v.to_vec(),
            None => {
                let mut out = Vec::new();
                flatten(&p.ty, &p.value, &mut out);
                out
            }
        })
    }

    fn stage_inputs(
        &self,
        pres: &Preshader,
        regs: &mut super::preshader::Registers,
        values: &Values,
    ) {
        if let Some(view) = pres.ctab_view() {
            for k in view.constants() {
                if let (Some(p), Some(v)) = (
                    self.parameter(&k.name),
                    self.parameter_floats(&k.name, values),
                ) {
                    pres.set_input(regs, &k.name, &p.ty, &v);
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
                let (Some(p), Some(v)) = (
                    self.parameter(&k.name),
                    self.parameter_floats(&k.name, values),
                ) else {
                    continue;
                };
                let per_reg = if k.register_set == RegisterSet::Bool {
                    1
                } else {
                    4
                };
                let first = u32::from(k.register_index);
                let count = u32::from(k.register_count);
                let mut table = vec![f64::NAN; ((first + count) * per_reg) as usize];
                super::preshader::stage_constant(&mut table, per_reg, &k, &p.ty, &v);
                for reg in first..first + count {
                    let at = (reg * per_reg) as usize;
                    if per_reg == 1 {
                        if !table[at].is_nan() {
                            out.bool.push((reg, table[at] != 0.0));
                        }
                        continue;
                    }
                    let q = [table[at], table[at + 1], table[at + 2], table[at + 3]];
                    if q.iter().all(|x| x.is_nan()) {
                        continue;
                    }
                    // Components the parameter does not cover are 0.
                    let q = q.map(|x| if x.is_nan() { 0.0 } else { x });
                    match k.register_set {
                        RegisterSet::Float4 => set(&mut out.float, reg, q.map(|x| x as f32)),
                        RegisterSet::Int4 => out.int.push((reg, q.map(|x| x as i32))),
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
                    set(&mut out.float, reg as u32, [q[0], q[1], q[2], q[3]]);
                }
            }
        }
        Ok(out)
    }

    /// The value words of a state: constant, referenced parameter, or expression. A
    /// render, sampler or texture-stage state gets the DWORD D3D takes: a float's bits
    /// for the float-valued ones, else the integer (floats truncated, as D3DX converts).
    pub fn state_words(&self, s: &State<'a>, values: &Values) -> Result<Vec<u32>, PresError> {
        let words = self.raw_state_words(s, values)?;
        let Some(info) = state_info(s.operation) else {
            return Ok(words);
        };
        if !info.is_dword() || words.is_empty() {
            return Ok(words);
        }
        // The value's type: the state's own, or the referenced parameter's.
        let ty = match &s.source {
            StateValue::Parameter(n) => self.resolve(n).map_or(s.ty.ty, |(t, _)| t.ty),
            _ => s.ty.ty,
        };
        let w = words[0];
        let dword = match (info.is_float(), ty) {
            (true, ParameterType::Int) => (w as i32 as f32).to_bits(),
            (true, ParameterType::Bool) => (if w != 0 { 1f32 } else { 0.0 }).to_bits(),
            (false, ParameterType::Float) => f32::from_bits(w) as i32 as u32,
            _ => w,
        };
        Ok(vec![dword])
    }

    fn raw_state_words(&self, s: &State<'a>, values: &Values) -> Result<Vec<u32>, PresError> {
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
                    out.vertex_shader = self.bound_shader(s, values, &mut out.failure);
                }
                StateClass::PixelShader => {
                    out.pixel_shader = self.bound_shader(s, values, &mut out.failure);
                }
                StateClass::Sampler => {
                    // A sampler object: its states for stage `index`.
                    let sampler = match &s.source {
                        StateValue::Parameter(n) => self.resolve(n).map(|(_, v)| v),
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
                        // D3DX sets as many registers as the value spans, rounded up
                        // (a bool register is one word, a float or int register four),
                        // but copies only the first register's worth of the value: the
                        // registers after the first are zero
                        // (`VertexShaderConstant4[4] = {4, 4, 4, 4, 5, 5, 5, 5, 6}`
                        // sets c4 = 4, c5 = c6 = 0; Wine's `test_effect_states`).
                        let per_reg = if matches!(kind, ConstKind::VsBool | ConstKind::PsBool) {
                            1
                        } else {
                            4
                        };
                        let regs = words.len().div_ceil(per_reg);
                        for r in 0..regs {
                            let reg = s.index.saturating_add(r as u32);
                            let mut q = [0u32; 4];
                            if r == 0 {
                                for (i, w) in words.iter().take(per_reg).enumerate() {
                                    q[i] = *w;
                                }
                            }
                            match kind {
                                ConstKind::VsFloat | ConstKind::PsFloat => {
                                    set(&mut target.float, reg, q.map(f32::from_bits));
                                }
                                ConstKind::VsInt | ConstKind::PsInt => {
                                    set(&mut target.int, reg, q.map(|w| w as i32));
                                }
                                ConstKind::VsBool | ConstKind::PsBool => {
                                    set(&mut target.bool, reg, q[0] != 0);
                                }
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
        // explicit constant states, as D3DX does when it binds the shaders), and the
        // sampler parameters the shaders sample, bound to their stages (vertex shader
        // samplers from D3DVERTEXTEXTURESAMPLER0 = 257).
        if let Some(vs) = out.vertex_shader {
            let c = self.shader_constants(vs, values)?;
            merge(&mut out.vs_constants, c);
            self.bind_samplers(vs, 257, values, &mut out.states)?;
        }
        if let Some(ps) = out.pixel_shader {
            let c = self.shader_constants(ps, values)?;
            merge(&mut out.ps_constants, c);
            self.bind_samplers(ps, 0, values, &mut out.states)?;
        }
        Ok(out)
    }

    /// The shader a `VertexShader`/`PixelShader` state binds. An array selector whose
    /// index is outside its array binds none and fails the pass
    /// ([`Effect::selector_index`]; recorded in `failure`). A
    /// software-only shader (`vs_2_sw`, `vs_3_sw`, `ps_2_sw`, `ps_3_sw`) binds none:
    /// D3DX creates the effect's shaders on its device, a hardware device creates no
    /// software shader, and the pass sets NULL (Wine's `test_effect_unsupported_shader`:
    /// `VertexShader = vs_arr[1]` of a `vs_3_sw` element leaves no vertex shader).
    fn bound_shader(
        &self,
        s: &State<'a>,
        values: &Values,
        failure: &mut Option<PresError>,
    ) -> Option<&'a [u8]> {
        match self.selected_shader(s, values) {
            Ok(code) => code.filter(|code| !is_software_shader(code)),
            Err(e) => {
                failure.get_or_insert(e);
                None
            }
        }
    }

    /// Sampler states of the sampler parameters a shader's `CTAB` binds, for their
    /// stages (`base` + register).
    fn bind_samplers(
        &self,
        code: &[u8],
        base: u32,
        values: &Values,
        out: &mut Vec<AppliedState>,
    ) -> Result<(), PresError> {
        let tokens = to_words(code);
        let Some(view) = super::preshader::comments_of(&tokens)
            .find(|c| crate::ctab::Ctab::is_ctab(c))
            .and_then(|c| CtabView::parse(c).ok())
        else {
            return Ok(());
        };
        for k in view.constants() {
            if k.register_set != RegisterSet::Sampler {
                continue;
            }
            // `name` or `name[i]` of a sampler array.
            let (pname, element) = match k.name.split_once('[') {
                Some((n, rest)) => (n, rest.trim_end_matches(']').parse::<usize>().ok()),
                None => (&*k.name, None),
            };
            let Some(p) = self.parameter(pname) else {
                continue;
            };
            let items: Vec<&Value> = match (&p.value, element) {
                (Value::Array(v), Some(i)) => v.get(i).into_iter().collect(),
                (Value::Array(v), None) => v.iter().collect(),
                (v, _) => vec![v],
            };
            for (r, item) in items.into_iter().enumerate() {
                if r >= usize::from(k.register_count.max(1)) {
                    break;
                }
                let Value::Sampler(states) = item else {
                    continue;
                };
                for ss in states {
                    let Some(si) = state_info(ss.operation) else {
                        continue;
                    };
                    out.push(AppliedState {
                        operation: ss.operation,
                        name: si.name,
                        class: si.class,
                        state: si.value,
                        index: base + u32::from(k.register_index) + r as u32,
                        words: self.state_words(ss, values)?,
                    });
                }
            }
        }
        Ok(())
    }
}

/// Whether `code` is a software-vertex-processing / reference-only shader version
/// (minor version 0xFF: `vs_2_sw`, `vs_3_sw`, `ps_2_sw`, `ps_3_sw`).
fn is_software_shader(code: &[u8]) -> bool {
    let Some(v) = code.get(..4) else {
        return false;
    };
    let version = u32::from_le_bytes([v[0], v[1], v[2], v[3]]);
    matches!(version >> 16, 0xFFFE | 0xFFFF) && version & 0xFF == 0xFF
}

fn merge(into: &mut Constants, from: Constants) {
    for (r, v) in from.float {
        set(&mut into.float, r, v);
    }
    for (r, v) in from.int {
        set(&mut into.int, r, v);
    }
    for (r, v) in from.bool {
        set(&mut into.bool, r, v);
    }
}
