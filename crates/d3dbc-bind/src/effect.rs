//! [`Effect`]: an fx_2_0 effect's techniques and parameters as JSON, values set by
//! name, and the shaders a pass binds with their constants.

use std::collections::BTreeMap;

use d3dbc::fx::apply::Values;
use serde::Serialize;

use crate::{Error, ErrorKind, Shader};

/// An fx_2_0 effect (`.fxo`, or XNA/FNA `.fxb`): its bytes, and the parameter values set
/// so far.
#[derive(Clone, Debug)]
pub struct Effect {
    bytes: Vec<u8>,
    values: Values,
}

/// A technique or pass, by name or index.
#[derive(Clone, Debug)]
pub enum Pick {
    /// By index.
    Index(usize),
    /// By name.
    Name(String),
}

fn effect_error(e: &d3dbc::fx::FxError) -> Error {
    let mut err = Error::new(ErrorKind::Effect, e.to_string());
    err.offset = Some(e.offset);
    err
}

#[derive(Serialize)]
struct AnnotationJson {
    name: String,
    #[serde(rename = "type")]
    ty: &'static str,
    value: serde_json::Value,
}

#[derive(Serialize)]
struct PassJson {
    name: String,
    annotations: Vec<AnnotationJson>,
    states: Vec<String>,
}

#[derive(Serialize)]
struct TechniqueJson {
    name: String,
    annotations: Vec<AnnotationJson>,
    passes: Vec<PassJson>,
}

#[derive(Serialize)]
struct ParameterJson {
    name: String,
    semantic: String,
    #[serde(rename = "type")]
    ty: &'static str,
    class: String,
    rows: u32,
    columns: u32,
    elements: u32,
    annotations: Vec<AnnotationJson>,
    value: serde_json::Value,
}

impl Effect {
    /// Reads an effect (checked once here; later calls parse the bytes again, which
    /// costs no allocation of the data).
    pub fn from_bytes(data: Vec<u8>) -> Result<Effect, Error> {
        if !d3dbc::fx::Effect::is_effect(&data) {
            return Err(Error::new(
                ErrorKind::Effect,
                "not an fx_2_0 effect (expected the tag 0xFEFF0901, or 0xBCF00BCF before it)",
            ));
        }
        d3dbc::fx::Effect::parse(&data).map_err(|e| effect_error(&e))?;
        Ok(Effect {
            bytes: data,
            values: Values::default(),
        })
    }

    /// Reads an effect and sets the values of `values_json` (`{"name": [numbers], …}`,
    /// each checked as [`Effect::set`] checks it): what a stateless caller (the
    /// WebAssembly exports) passes on every call.
    pub fn with_values(data: Vec<u8>, values_json: &str) -> Result<Effect, Error> {
        let mut e = Effect::from_bytes(data)?;
        if !values_json.trim().is_empty() {
            let values: BTreeMap<String, Vec<f32>> = serde_json::from_str(values_json)
                .map_err(|x| Error::argument(format!("effect values: {x}")))?;
            for (name, v) in values {
                e.set(&name, v)?;
            }
        }
        Ok(e)
    }

    fn parsed(&self) -> Result<d3dbc::fx::Effect<'_>, Error> {
        d3dbc::fx::Effect::parse(&self.bytes).map_err(|e| effect_error(&e))
    }

    /// The effect's bytes.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// fxc's `/Fc` listing of the effect (what `d3dbc dis X.fxo` prints).
    pub fn disassemble(&self) -> Result<String, Error> {
        Ok(self.parsed()?.listing())
    }

    /// The techniques: `[{"name", "annotations", "passes": [{"name", "annotations",
    /// "states": [state names]}]}]`.
    pub fn techniques_json(&self) -> Result<String, Error> {
        let e = self.parsed()?;
        let t: Vec<TechniqueJson> = e
            .techniques
            .iter()
            .map(|t| TechniqueJson {
                name: t.name.to_string(),
                annotations: annotations(&e, &t.annotations),
                passes: t
                    .passes
                    .iter()
                    .map(|p| PassJson {
                        name: p.name.to_string(),
                        annotations: annotations(&e, &p.annotations),
                        states: p.states.iter().map(|s| s.name().into_owned()).collect(),
                    })
                    .collect(),
            })
            .collect();
        serde_json::to_string(&t).map_err(|e| Error::new(ErrorKind::Effect, e.to_string()))
    }

    /// The parameters: `[{"name", "semantic", "type", "class", "rows", "columns",
    /// "elements", "annotations", "value"}]`, `value` being the numbers in D3DX order
    /// (the value set, else the default), a string's text, or `null` for objects.
    pub fn parameters_json(&self) -> Result<String, Error> {
        let e = self.parsed()?;
        let p: Vec<ParameterJson> = e
            .parameters
            .iter()
            .map(|p| {
                let numbers = self.values.get(&p.ty.name).map(<[f32]>::to_vec);
                ParameterJson {
                    name: p.ty.name.to_string(),
                    semantic: p.ty.semantic.to_string(),
                    ty: p.ty.ty.hlsl_name(),
                    class: snake(&format!("{:?}", p.ty.class)),
                    rows: p.ty.rows,
                    columns: p.ty.columns,
                    elements: p.ty.elements,
                    annotations: annotations(&e, &p.annotations),
                    value: value_json(&e, &p.ty, &p.value, numbers),
                }
            })
            .collect();
        serde_json::to_string(&p).map_err(|e| Error::new(ErrorKind::Effect, e.to_string()))
    }

    /// Sets parameter `name` (or `name[i]`, `name.member`, as D3DX resolves it) to
    /// `values`: all components, row-major, array elements one after another, as many
    /// as the parameter holds.
    pub fn set(&mut self, name: &str, values: Vec<f32>) -> Result<(), Error> {
        let e = self.parsed()?;
        let Some((ty, _)) = e.resolve(name) else {
            let names: Vec<String> = e.parameters.iter().map(|p| p.ty.name.to_string()).collect();
            return Err(Error::new(
                ErrorKind::Effect,
                format!(
                    "no parameter `{name}` in the effect (parameters: {})",
                    names.join(", ")
                ),
            ));
        };
        let want = (ty.bytes() / 4) as usize;
        if want == 0 {
            return Err(Error::argument(format!(
                "parameter `{name}` is a {} object, not numbers",
                ty.ty.hlsl_name()
            )));
        }
        if values.len() != want {
            return Err(Error::argument(format!(
                "parameter `{name}` ({} {}x{}{}) takes {want} numbers, got {}",
                ty.ty.hlsl_name(),
                ty.rows,
                ty.columns,
                if ty.elements > 0 {
                    format!("[{}]", ty.elements)
                } else {
                    String::new()
                },
                values.len()
            )));
        }
        self.values.set(name, values);
        Ok(())
    }

    /// The (vertex, pixel) shaders pass `pass` of technique `technique` binds, each
    /// carrying the constants the pass gives it (preshaders evaluated with the values
    /// set), which its [`Shader::run`] and [`Shader::render`] start from.
    pub fn pass_shaders(
        &self,
        technique: &Pick,
        pass: &Pick,
    ) -> Result<(Option<Shader>, Option<Shader>), Error> {
        let e = self.parsed()?;
        let names = |it: &mut dyn Iterator<Item = String>| it.collect::<Vec<_>>().join(", ");
        let t = match technique {
            Pick::Index(i) => Some(*i).filter(|i| *i < e.techniques.len()),
            Pick::Name(n) => e.techniques.iter().position(|t| t.name == *n),
        }
        .ok_or_else(|| {
            Error::new(
                ErrorKind::Effect,
                format!(
                    "no technique {technique:?} (techniques: {})",
                    names(&mut e.techniques.iter().map(|t| t.name.to_string()))
                ),
            )
        })?;
        let tech = &e.techniques[t];
        let p = match pass {
            Pick::Index(i) => Some(*i).filter(|i| *i < tech.passes.len()),
            Pick::Name(n) => tech.passes.iter().position(|p| p.name == *n),
        }
        .ok_or_else(|| {
            Error::new(
                ErrorKind::Effect,
                format!(
                    "no pass {pass:?} in technique {} ({} passes)",
                    tech.name,
                    tech.passes.len()
                ),
            )
        })?;
        let applied = e
            .apply_pass(t, p, &self.values)
            .map_err(|x| Error::new(ErrorKind::Effect, x.to_string()))?;
        if let Some(f) = &applied.failure {
            return Err(Error::new(
                ErrorKind::Effect,
                format!("BeginPass fails: {f}"),
            ));
        }
        let stage = |code: Option<&[u8]>, c: &d3dbc::fx::apply::Constants| {
            code.map(|b| {
                let mut s = Shader::from_tokens(d3dbc::fx::to_words(b))?;
                s.bound = Some(d3dbc_exec::effect::stage_inputs(c));
                Ok::<Shader, Error>(s)
            })
            .transpose()
        };
        Ok((
            stage(applied.vertex_shader, &applied.vs_constants)?,
            stage(applied.pixel_shader, &applied.ps_constants)?,
        ))
    }
}

fn snake(camel: &str) -> String {
    let mut s = String::with_capacity(camel.len() + 2);
    for (i, c) in camel.chars().enumerate() {
        if c.is_ascii_uppercase() && i > 0 {
            s.push('_');
        }
        s.push(c.to_ascii_lowercase());
    }
    s
}

/// A value as JSON: numbers by the type's base (floats, ints, bools), a string's text,
/// `null` for other objects.
fn value_json(
    e: &d3dbc::fx::Effect,
    ty: &d3dbc::fx::TypeDesc,
    v: &d3dbc::fx::Value,
    set: Option<Vec<f32>>,
) -> serde_json::Value {
    use d3dbc::fx::{ParameterType, Value};
    if ty.ty == ParameterType::String {
        return match v {
            Value::Object(id) => serde_json::json!(e.string(*id)),
            _ => serde_json::Value::Null,
        };
    }
    if ty.bytes() == 0 {
        return serde_json::Value::Null;
    }
    let numbers = set.unwrap_or_else(|| {
        let mut out = Vec::new();
        d3dbc::fx::apply::flatten(ty, v, &mut out);
        out
    });
    match ty.ty {
        ParameterType::Int => {
            serde_json::json!(numbers.iter().map(|x| *x as i64).collect::<Vec<_>>())
        }
        ParameterType::Bool => {
            serde_json::json!(numbers.iter().map(|x| *x != 0.0).collect::<Vec<_>>())
        }
        _ => serde_json::json!(numbers),
    }
}

fn annotations(e: &d3dbc::fx::Effect, list: &[d3dbc::fx::Annotation]) -> Vec<AnnotationJson> {
    list.iter()
        .map(|a| AnnotationJson {
            name: a.ty.name.to_string(),
            ty: a.ty.ty.hlsl_name(),
            value: value_json(e, &a.ty, &a.value, None),
        })
        .collect()
}
