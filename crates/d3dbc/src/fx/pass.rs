//! What a tool asks of an effect before it draws, runs or translates a pass, in one
//! place so the command line, the playground and the translators agree: techniques and
//! passes found by name or index (an unknown one names the ones that exist), parameter
//! values from `NAME=VALUES` text checked against the parameter's type (`identity` for
//! matrices), the same assignment on a plain shader through its constant table (as
//! D3DX's `ID3DXConstantTable::SetValue` stages a value), and a pass's shaders decoded
//! with the effect parameter each of their constant registers holds.

use std::fmt::Write as _;

use super::apply::{Constants, PassState, Values};
use super::preshader::{find_pres, stage_constant, Preshader, Table};
use super::{to_words, Effect, ParameterClass, ParameterType, TypeDesc};
use crate::ctab::{CtabView, RegisterSet};
use crate::Shader;

/// A technique, pass or parameter that does not exist, with the ones that do.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{what} `{given}` does not exist: {choices}")]
pub struct ChoiceError {
    /// `technique`, `pass` or `parameter`.
    pub what: &'static str,
    /// The name or index given.
    pub given: String,
    /// The valid choices, spelled out (`the effect has 2 techniques: A (0), B (1)`).
    pub choices: String,
}

/// `name (index)` for each of `names`, unnamed ones as `#index`.
fn list<'n>(names: impl Iterator<Item = &'n str>) -> String {
    let mut s = String::new();
    for (i, n) in names.enumerate() {
        if i > 0 {
            s.push_str(", ");
        }
        if n.is_empty() {
            let _ = write!(s, "#{i}");
        } else {
            let _ = write!(s, "{n} ({i})");
        }
    }
    s
}

fn plural(n: usize, one: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {one}s")
    }
}

/// Finds `given` among `names` by name first, then as an index.
fn find<'n>(names: impl Iterator<Item = &'n str> + Clone, given: &str) -> Option<usize> {
    let given = given.trim();
    let n = names.clone().count();
    names
        .clone()
        .position(|x| x == given)
        .or_else(|| given.parse::<usize>().ok().filter(|i| *i < n))
}

impl<'a> Effect<'a> {
    /// The technique named `given` (or with that index).
    pub fn find_technique(&self, given: &str) -> Result<usize, ChoiceError> {
        let names = self.techniques.iter().map(|t| &*t.name);
        find(names.clone(), given).ok_or_else(|| ChoiceError {
            what: "technique",
            given: given.into(),
            choices: format!(
                "the effect has {}: {}",
                plural(self.techniques.len(), "technique"),
                list(names)
            ),
        })
    }

    /// Pass `given` (name or index) of technique `technique`.
    pub fn find_pass(&self, technique: usize, given: &str) -> Result<usize, ChoiceError> {
        let Some(t) = self.techniques.get(technique) else {
            return Err(ChoiceError {
                what: "technique",
                given: technique.to_string(),
                choices: format!(
                    "the effect has {}",
                    plural(self.techniques.len(), "technique")
                ),
            });
        };
        let names = t.passes.iter().map(|p| &*p.name);
        find(names.clone(), given).ok_or_else(|| ChoiceError {
            what: "pass",
            given: given.into(),
            choices: format!(
                "technique {} has {}: {}",
                t.name,
                plural(t.passes.len(), "pass"),
                list(names)
            ),
        })
    }

    /// Parses `NAME=VALUES` (the `--set` of `run`/`render`) for a top-level numeric
    /// parameter: every component of the value, row-major, array elements one after
    /// another (`true`/`false` for bools), or `identity` for a matrix (each element).
    /// The count must be the parameter's: too few or too many is an error that says
    /// what the type expects; an unknown name lists the numeric parameters.
    pub fn parse_value(&self, spec: &str) -> Result<(String, Vec<f32>), String> {
        let (name, vals) = spec
            .split_once('=')
            .ok_or_else(|| format!("`{spec}`: expected NAME=VALUES"))?;
        let name = name.trim();
        let Some(p) = self.parameter(name) else {
            let names: Vec<&str> = self
                .parameters
                .iter()
                .filter(|p| is_numeric(&p.ty))
                .map(|p| &*p.ty.name)
                .collect();
            return Err(format!(
                "`{spec}`: the effect has no parameter {name} (numeric parameters: {})",
                if names.is_empty() {
                    "none".to_string()
                } else {
                    names.join(", ")
                }
            ));
        };
        let values = parse_values(spec, name, &p.ty, vals)?;
        Ok((name.to_string(), values))
    }

    /// [`parse_value`](Self::parse_value) of each spec into one [`Values`].
    pub fn parse_values(&self, specs: &[String]) -> Result<Values, String> {
        let mut values = Values::default();
        for s in specs {
            let (n, v) = self.parse_value(s)?;
            values.set(&n, v);
        }
        Ok(values)
    }

    /// Pass `pass` of `technique` applied with `values`, its shaders decoded: what a
    /// translator or executor takes. A pass whose `BeginPass` fails (an array selector
    /// out of range) is an error, as is a shader that does not decode.
    pub fn pass_shaders(
        &self,
        technique: usize,
        pass: usize,
        values: &Values,
    ) -> Result<PassShaders<'a>, String> {
        let state = self
            .apply_pass(technique, pass, values)
            .map_err(|e| e.to_string())?;
        if let Some(e) = &state.failure {
            return Err(format!("BeginPass fails: {e}"));
        }
        let decode =
            |code: Option<&'a [u8]>, stage: &str| -> Result<Option<StageShader<'a>>, String> {
                let Some(code) = code else { return Ok(None) };
                let shader = Shader::decode(&to_words(code))
                    .map_err(|e| format!("the pass's {stage} shader: {e}"))?;
                Ok(Some(StageShader {
                    shader,
                    bytes: code,
                    constants: constant_names(code),
                }))
            };
        Ok(PassShaders {
            vertex: decode(state.vertex_shader, "vertex")?,
            pixel: decode(state.pixel_shader, "pixel")?,
            state,
        })
    }
}

/// Whether a parameter of type `ty` holds numbers only (scalars, vectors, matrices,
/// structs of them).
fn is_numeric(ty: &TypeDesc) -> bool {
    match ty.class {
        ParameterClass::Scalar
        | ParameterClass::Vector
        | ParameterClass::MatrixRows
        | ParameterClass::MatrixColumns => matches!(
            ty.ty,
            ParameterType::Float | ParameterType::Int | ParameterType::Bool
        ),
        ParameterClass::Struct => !ty.members.is_empty() && ty.members.iter().all(is_numeric),
        _ => false,
    }
}

/// How a type is spelled in messages: `float4x4`, `float3[2]`, `struct`.
fn type_name(ty: &TypeDesc) -> String {
    let base = match ty.class {
        ParameterClass::Vector => format!("{}{}", ty.ty.hlsl_name(), ty.columns),
        ParameterClass::MatrixRows | ParameterClass::MatrixColumns => {
            format!("{}{}x{}", ty.ty.hlsl_name(), ty.rows, ty.columns)
        }
        ParameterClass::Struct => "struct".into(),
        _ => ty.ty.hlsl_name().into(),
    };
    if ty.elements > 0 {
        format!("{base}[{}]", ty.elements)
    } else {
        base
    }
}

/// The components of `vals` for a value of type `ty` (checked count, or `identity`).
fn parse_values(spec: &str, name: &str, ty: &TypeDesc, vals: &str) -> Result<Vec<f32>, String> {
    if !is_numeric(ty) {
        return Err(format!(
            "`{spec}`: {name} is a {} ({}); --set takes numeric parameters",
            type_name(ty),
            ty.class.name()
        ));
    }
    let expected = (ty.bytes() / 4) as usize;
    let matrix = matches!(
        ty.class,
        ParameterClass::MatrixRows | ParameterClass::MatrixColumns
    );
    if vals.trim() == "identity" {
        if !matrix {
            return Err(format!(
                "`{spec}`: identity sets a matrix; {name} is a {}",
                type_name(ty)
            ));
        }
        let (rows, columns) = (ty.rows as usize, ty.columns as usize);
        let one = (0..rows * columns).map(|i| if i / columns == i % columns { 1.0 } else { 0.0 });
        return Ok(one.cycle().take(expected).collect());
    }
    let v = vals
        .split(',')
        .map(|x| match x.trim() {
            "true" => Ok(1.0),
            "false" => Ok(0.0),
            t => t
                .parse::<f32>()
                .map_err(|_| format!("`{spec}`: bad value `{x}` (a number)")),
        })
        .collect::<Result<Vec<f32>, String>>()?;
    if v.len() != expected {
        let layout = if matrix {
            format!("{} rows of {}, row-major", ty.rows, ty.columns)
        } else if ty.class == ParameterClass::Struct {
            "members in order".into()
        } else {
            "components in order".into()
        };
        let elements = if ty.elements > 0 {
            format!(", {} elements one after another", ty.elements)
        } else {
            String::new()
        };
        let identity = if matrix { " (or identity)" } else { "" };
        return Err(format!(
            "`{spec}`: {name} is {} and takes {expected} value{} ({layout}{elements}){identity}; got {}",
            type_name(ty),
            if expected == 1 { "" } else { "s" },
            v.len()
        ));
    }
    Ok(v)
}

/// A [`TypeDesc`] of a constant-table type (what the staging code reads).
fn ctab_type(name: &str, ty: &crate::ctab::TypeInfo) -> TypeDesc<'static> {
    TypeDesc {
        ty: ty.ty,
        class: ty.class,
        name: name.to_string().into(),
        semantic: "".into(),
        elements: if ty.elements > 1 {
            u32::from(ty.elements)
        } else {
            0
        },
        rows: u32::from(ty.rows),
        columns: u32::from(ty.columns),
        members: ty
            .members
            .iter()
            .map(|m| ctab_type(&m.name, &m.ty))
            .collect(),
    }
}

/// The registers `NAME=VALUES` sets in a plain shader, through its constant table as
/// D3DX's `ID3DXConstantTable::SetValue` stages the value (matrices by their register
/// layout, arrays and structs member by member, bools and ints converted). The same
/// checks as for an effect parameter; a name the table does not have is an error that
/// lists the ones it has (a shader without a table has none).
pub fn constant_table_value(shader: &Shader, spec: &str) -> Result<Constants, String> {
    let (name, vals) = spec
        .split_once('=')
        .ok_or_else(|| format!("`{spec}`: expected NAME=VALUES"))?;
    let name = name.trim();
    let payload = shader.comments().find(|c| crate::ctab::Ctab::is_ctab(c));
    let view = payload.and_then(|p| CtabView::parse(p).ok());
    let Some(view) = view else {
        return Err(format!(
            "`{spec}`: the shader has no constant table, so no constant has a name \
             (--const cN=… sets registers)"
        ));
    };
    let Some(k) = view.constants().find(|k| k.name == name) else {
        let names: Vec<String> = view.constants().map(|k| k.name.to_string()).collect();
        return Err(format!(
            "`{spec}`: the shader's constant table has no {name} (it has: {})",
            if names.is_empty() {
                "nothing".to_string()
            } else {
                names.join(", ")
            }
        ));
    };
    let ty = ctab_type(name, &k.ty.to_type_info());
    if k.register_set == RegisterSet::Sampler {
        return Err(format!(
            "`{spec}`: {name} is a sampler (--texture sN=FILE.png binds one)"
        ));
    }
    let values = parse_values(spec, name, &ty, vals)?;
    let per_reg = if k.register_set == RegisterSet::Bool {
        1
    } else {
        4
    };
    let first = u32::from(k.register_index);
    let count = u32::from(k.register_count);
    let mut table = vec![f64::NAN; ((first + count) * per_reg) as usize];
    stage_constant(&mut table, per_reg, &k, &ty, &values);
    let mut out = Constants::default();
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
        let q = q.map(|x| if x.is_nan() { 0.0 } else { x });
        match k.register_set {
            RegisterSet::Int4 => out.int.push((reg, q.map(|x| x as i32))),
            _ => out.float.push((reg, q.map(|x| x as f32))),
        }
    }
    Ok(out)
}

/// Where a shader constant's value comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct NamedRegisters {
    /// The effect parameter (the `CTAB` name), or for a preshader output
    /// `preshader(a, b)` naming the parameters the preshader reads.
    pub name: String,
    /// `float4`, `int4`, `bool` or `sampler`.
    pub register_set: &'static str,
    /// First register.
    pub register: u32,
    /// Registers.
    pub count: u32,
}

/// The effect parameter each constant register of a shader (bytecode) holds: its
/// `CTAB` constants, then the registers its preshader writes.
pub fn constant_names(code: &[u8]) -> Vec<NamedRegisters> {
    let tokens = to_words(code);
    let mut out = Vec::new();
    let ctab = super::preshader::comments_of(&tokens)
        .find(|c| crate::ctab::Ctab::is_ctab(c))
        .and_then(|c| CtabView::parse(c).ok());
    if let Some(view) = ctab {
        for k in view.constants() {
            out.push(NamedRegisters {
                name: k.name.to_string(),
                register_set: set_name(k.register_set),
                register: u32::from(k.register_index),
                count: u32::from(k.register_count),
            });
        }
    }
    if let Some(Ok(p)) = find_pres(&tokens).map(Preshader::parse) {
        let inputs: Vec<String> = p
            .ctab_view()
            .map(|v| v.constants().map(|k| k.name.to_string()).collect())
            .unwrap_or_default();
        let name = format!("preshader({})", inputs.join(", "));
        let mut regs: Vec<u32> = p
            .instructions
            .iter()
            .filter(|i| i.output.table == Table::Output)
            .flat_map(|i| {
                let first = i.output.offset / 4;
                let last = (i.output.offset + i.components - 1) / 4;
                first..=last
            })
            .collect();
        regs.sort_unstable();
        regs.dedup();
        // Runs of consecutive registers.
        let mut i = 0;
        while i < regs.len() {
            let mut j = i;
            while j + 1 < regs.len() && regs[j + 1] == regs[j] + 1 {
                j += 1;
            }
            out.push(NamedRegisters {
                name: name.clone(),
                register_set: "float4",
                register: regs[i],
                count: (j - i + 1) as u32,
            });
            i = j + 1;
        }
    }
    out
}

fn set_name(s: RegisterSet) -> &'static str {
    match s {
        RegisterSet::Bool => "bool",
        RegisterSet::Int4 => "int4",
        RegisterSet::Float4 => "float4",
        _ => "sampler",
    }
}

/// One stage of a pass: the shader, its bytes in the effect, and what its constant
/// registers hold.
#[derive(Clone, Debug)]
pub struct StageShader<'a> {
    /// The decoded shader.
    pub shader: Shader,
    /// Its bytecode inside the effect.
    pub bytes: &'a [u8],
    /// The effect parameter behind each constant register.
    pub constants: Vec<NamedRegisters>,
}

/// A pass's shaders ([`Effect::pass_shaders`]).
#[derive(Clone, Debug)]
pub struct PassShaders<'a> {
    /// The vertex shader (`None`: fixed function, or a software-only shader).
    pub vertex: Option<StageShader<'a>>,
    /// The pixel shader.
    pub pixel: Option<StageShader<'a>>,
    /// The applied pass (constants, states).
    pub state: PassState<'a>,
}

impl ParameterClass {
    /// The class as D3DX names it (`scalar`, `vector`, `matrix_rows`, `object`, …).
    pub fn name(self) -> &'static str {
        match self {
            ParameterClass::Scalar => "scalar",
            ParameterClass::Vector => "vector",
            ParameterClass::MatrixRows => "matrix_rows",
            ParameterClass::MatrixColumns => "matrix_columns",
            ParameterClass::Object => "object",
            ParameterClass::Struct => "struct",
            _ => "unknown",
        }
    }
}

/// The determinant of a square `n`×`n` matrix (row-major), by elimination in `f64`.
fn determinant(m: &[f32], n: usize) -> f64 {
    let mut a: Vec<f64> = m.iter().map(|&x| f64::from(x)).collect();
    let mut det = 1.0;
    for c in 0..n {
        let Some(p) = (c..n).max_by(|&i, &j| a[i * n + c].abs().total_cmp(&a[j * n + c].abs()))
        else {
            return 0.0;
        };
        if a[p * n + c] == 0.0 {
            return 0.0;
        }
        if p != c {
            for k in 0..n {
                a.swap(p * n + k, c * n + k);
            }
            det = -det;
        }
        det *= a[c * n + c];
        for r in c + 1..n {
            let f = a[r * n + c] / a[c * n + c];
            for k in c..n {
                a[r * n + k] -= f * a[c * n + k];
            }
        }
    }
    det
}

impl Effect<'_> {
    /// The matrix parameters a shader (bytecode) reads through its constant table whose
    /// value is all zeros or, for a square matrix, singular (with `values` over the
    /// defaults): the usual reason a pass draws nothing, since a zero world-view-projection
    /// matrix puts every vertex at `w = 0`. One sentence each, with the `--set` that fixes
    /// it.
    pub fn degenerate_matrices(&self, code: &[u8], values: &Values) -> Vec<String> {
        let tokens = to_words(code);
        let Some(view) = super::preshader::comments_of(&tokens)
            .find(|c| crate::ctab::Ctab::is_ctab(c))
            .and_then(|c| CtabView::parse(c).ok())
        else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for k in view.constants() {
            let Some(p) = self.parameter(&k.name) else {
                continue;
            };
            if !matches!(
                p.ty.class,
                ParameterClass::MatrixRows | ParameterClass::MatrixColumns
            ) {
                continue;
            }
            let Some(v) = self.parameter_floats(&k.name, values) else {
                continue;
            };
            let (rows, columns) = (p.ty.rows as usize, p.ty.columns as usize);
            let n = (rows * columns).max(1);
            let given = if values.get(&k.name).is_some() {
                "as set"
            } else {
                "its default"
            };
            let fix = format!("--set {}=identity", k.name);
            if v.iter().all(|x| *x == 0.0) {
                out.push(format!(
                    "matrix parameter {} ({}) is all zeros ({given}; {fix})",
                    k.name,
                    type_name(&p.ty)
                ));
            } else if rows == columns
                && v.chunks(n)
                    .any(|m| m.len() == n && determinant(m, rows) == 0.0)
            {
                out.push(format!(
                    "matrix parameter {} ({}) is singular ({given}; {fix})",
                    k.name,
                    type_name(&p.ty)
                ));
            }
        }
        out
    }
}
