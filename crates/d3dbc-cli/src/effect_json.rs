//! `dis --format json` of an effect: the record of one input (`file`, `status`,
//! `diagnostics`, `effect`) in the vocabulary of the shader JSON. Parameters carry
//! `type`/`class`/`rows`/`columns`/`elements`/`semantic`/`annotations` and their default
//! decoded (numbers, booleans, matrices as rows, structs by member, strings as text);
//! states are named as effect source names them (`ZEnable`, `AlphaBlendEnable`,
//! `VertexShader`, with the D3D name beside: `D3DRS_ZENABLE`) and their values decoded
//! (enumeration names, booleans, numbers); a state computed on the CPU lists its
//! preshader and the value it gives for the defaults; every embedded shader is the
//! object `dis --format json` gives for a shader file (instructions named, `ctab`),
//! with its preshader listing, and states and parameters point at it by its index in
//! `shaders`.

use std::collections::BTreeMap;

use d3dbc::fx::apply::Values;
use d3dbc::fx::{
    state_info, to_words, Annotation, Effect, ParameterClass, ParameterType, Preshader, State,
    StateClass, StateValue, TypeDesc, Value,
};
use serde_json::{json, Map, Value as Json};

use crate::json::{self, JsonWriter};

/// The shaders of an effect by object id, in the order they are met.
struct Shaders {
    index: BTreeMap<u32, usize>,
    ids: Vec<u32>,
}

impl Shaders {
    fn at(&mut self, e: &Effect, id: u32) -> Json {
        if e.object(id).is_empty() {
            return Json::Null;
        }
        let next = self.ids.len();
        let i = *self.index.entry(id).or_insert(next);
        if i == next {
            self.ids.push(id);
        }
        json!({ "shader": i })
    }
}

/// One component of numeric data as JSON by its base type.
fn scalar(ty: ParameterType, w: u32) -> Json {
    match ty {
        ParameterType::Bool => json!(w != 0),
        ParameterType::Int => json!(w as i32),
        _ => float(f32::from_bits(w)),
    }
}

/// A float as a JSON number (non-finite values, which JSON cannot hold, as text).
fn float(f: f32) -> Json {
    if f.is_finite() {
        json!(f)
    } else {
        json!(f.to_string())
    }
}

/// Numeric words of one element shaped by class: a scalar, a vector, rows of a matrix.
fn shaped(ty: &TypeDesc, words: &[u32]) -> Json {
    let c = |w: &u32| scalar(ty.ty, *w);
    match ty.class {
        ParameterClass::Scalar => words.first().map_or(Json::Null, c),
        ParameterClass::MatrixRows | ParameterClass::MatrixColumns => {
            let cols = (ty.columns as usize).max(1);
            Json::Array(
                words
                    .chunks(cols)
                    .map(|r| Json::Array(r.iter().map(c).collect()))
                    .collect(),
            )
        }
        _ => Json::Array(words.iter().map(c).collect()),
    }
}

/// A value decoded by its type.
fn value(e: &Effect, ty: &TypeDesc, v: &Value, shaders: &mut Shaders) -> Json {
    match v {
        Value::Data(_) => shaped(ty, &v.words()),
        Value::Array(items) => {
            let elem = TypeDesc {
                elements: 0,
                ..ty.clone()
            };
            Json::Array(items.iter().map(|i| value(e, &elem, i, shaders)).collect())
        }
        Value::Struct(members) => Json::Object(
            ty.members
                .iter()
                .zip(members)
                .map(|(mt, mv)| (mt.name.to_string(), value(e, mt, mv, shaders)))
                .collect(),
        ),
        Value::Object(id) => match ty.ty {
            ParameterType::String => json!(e.string(*id)),
            _ if ty.is_shader() => shaders.at(e, *id),
            _ => Json::Null,
        },
        Value::Sampler(states) => json!({
            "states": states.iter().map(|s| state(e, s, shaders)).collect::<Vec<_>>(),
        }),
    }
}

/// Type fields shared by parameters and annotations.
fn type_fields(m: &mut Map<String, Json>, ty: &TypeDesc) {
    m.insert("name".into(), json!(ty.name));
    m.insert("type".into(), json!(ty.ty.hlsl_name()));
    m.insert("class".into(), json!(ty.class.name()));
    m.insert("rows".into(), json!(ty.rows));
    m.insert("columns".into(), json!(ty.columns));
    m.insert("elements".into(), json!(ty.elements));
    if !ty.semantic.is_empty() {
        m.insert("semantic".into(), json!(ty.semantic));
    }
    if !ty.members.is_empty() {
        m.insert(
            "members".into(),
            ty.members
                .iter()
                .map(|mt| {
                    let mut m = Map::new();
                    type_fields(&mut m, mt);
                    Json::Object(m)
                })
                .collect(),
        );
    }
}

fn annotations(e: &Effect, a: &[Annotation], shaders: &mut Shaders) -> Json {
    a.iter()
        .map(|a| {
            let mut m = Map::new();
            type_fields(&mut m, &a.ty);
            m.insert("value".into(), value(e, &a.ty, &a.value, shaders));
            Json::Object(m)
        })
        .collect()
}

/// A preshader program's listing as `dis` prints it (or its error).
fn program_listing(program: &[u8]) -> String {
    match Preshader::parse(&to_words(program)) {
        Ok(p) => {
            let mut s = String::new();
            p.write_listing(&mut s);
            s
        }
        Err(e) => format!("// {e}"),
    }
}

/// The DWORD a render, sampler or texture-stage state takes, decoded.
fn dword(info: &d3dbc::fx::StateInfo, w: u32) -> Json {
    if let Some(n) = info.value_name(w) {
        return json!(n);
    }
    if info.is_bool() {
        return json!(w != 0);
    }
    if info.is_float() {
        return float(f32::from_bits(w));
    }
    json!(w)
}

/// One state: its names, index, where its value comes from, and the value.
fn state(e: &Effect, s: &State, shaders: &mut Shaders) -> Json {
    let mut m = Map::new();
    let info = state_info(s.operation);
    m.insert(
        "state".into(),
        json!(info.map_or_else(|| s.name().into_owned(), |i| i.effect_name().to_string())),
    );
    m.insert("d3d".into(), json!(s.name()));
    m.insert("index".into(), json!(s.index));
    let shader_state =
        info.is_some_and(|i| matches!(i.class, StateClass::VertexShader | StateClass::PixelShader));
    let source = match &s.source {
        StateValue::Constant => "constant",
        StateValue::Parameter(_) => "parameter",
        StateValue::Expression(_) => "expression",
        StateValue::ArraySelector { .. } => "array_selector",
    };
    m.insert("source".into(), json!(source));
    let decoded = |words: &[u32], shaders: &mut Shaders| -> Json {
        match info {
            Some(i) if i.is_dword() => words.first().map_or(Json::Null, |w| dword(i, *w)),
            _ if shader_state => words.first().map_or(Json::Null, |id| shaders.at(e, *id)),
            _ if matches!(s.value, Value::Object(_) | Value::Sampler(_)) => {
                value(e, &s.ty, &s.value, shaders)
            }
            _ => shaped(&s.ty, words),
        }
    };
    match &s.source {
        StateValue::Constant => {
            let v = match (&s.value, shader_state) {
                (Value::Data(_), _) => decoded(&s.value.words(), shaders),
                (Value::Object(id), true) => shaders.at(e, *id),
                _ => value(e, &s.ty, &s.value, shaders),
            };
            m.insert("value".into(), v);
        }
        StateValue::Parameter(name) => {
            m.insert("parameter".into(), json!(name));
        }
        StateValue::Expression(program) => {
            m.insert("expression".into(), json!(program_listing(program)));
            // What the expression gives for the parameters' defaults.
            let v = e
                .state_words(s, &Values::default())
                .map_or(Json::Null, |w| decoded(&w, shaders));
            m.insert("value".into(), v);
        }
        StateValue::ArraySelector { array, program } => {
            m.insert("array".into(), json!(array));
            m.insert("selector".into(), json!(program_listing(program)));
            let v = e
                .state_shader(s)
                .and_then(|code| {
                    // The selected element's object id.
                    e.objects
                        .iter()
                        .position(|o| std::ptr::eq(o.as_ptr(), code.as_ptr()))
                })
                .map_or(Json::Null, |id| shaders.at(e, id as u32));
            m.insert("value".into(), v);
        }
    }
    Json::Object(m)
}

/// One embedded shader as `dis --format json` gives a shader file (streamed into a
/// buffer and read back), with its object id and preshader listing.
fn shader_object(id: u32, code: &[u8]) -> Result<Json, String> {
    let tokens = to_words(code);
    let mut buf = Vec::new();
    let mut w = JsonWriter::new(&mut buf, false);
    w.raw("{")?;
    w.fields(&json::shader_head(None, 0, &tokens), 0)?;
    w.raw(",")?;
    w.key("items")?;
    w.raw("[")?;
    let end = json::write_items(&mut w, &tokens, 0, 0)?;
    w.raw("],")?;
    w.key("end_offset")?;
    w.raw(&end.to_string())?;
    w.raw("}")?;
    let mut v: Json = serde_json::from_slice(&buf).map_err(|e| e.to_string())?;
    v["object"] = json!(id);
    v["preshader"] = match d3dbc::fx::preshader::find_pres(&tokens) {
        Some(p) => match Preshader::parse(p) {
            Ok(p) => {
                let mut s = String::new();
                p.write_listing(&mut s);
                json!(s)
            }
            Err(e) => json!(format!("// {e}")),
        },
        None => Json::Null,
    };
    Ok(v)
}

/// The record of an effect input.
pub fn record(file: &str, e: &Effect) -> Json {
    let mut shaders = Shaders {
        index: BTreeMap::new(),
        ids: Vec::new(),
    };
    let parameters: Vec<Json> = e
        .parameters
        .iter()
        .map(|p| {
            let mut m = Map::new();
            type_fields(&mut m, &p.ty);
            m.insert("flags".into(), json!(p.flags));
            m.insert("shared".into(), json!(p.flags & 1 != 0));
            m.insert(
                "annotations".into(),
                annotations(e, &p.annotations, &mut shaders),
            );
            m.insert("value".into(), value(e, &p.ty, &p.value, &mut shaders));
            Json::Object(m)
        })
        .collect();
    let techniques: Vec<Json> = e
        .techniques
        .iter()
        .map(|t| {
            json!({
                "name": t.name,
                "annotations": annotations(e, &t.annotations, &mut shaders),
                "passes": t.passes.iter().map(|p| json!({
                    "name": p.name,
                    "annotations": annotations(e, &p.annotations, &mut shaders),
                    "states": p.states.iter().map(|s| state(e, s, &mut shaders)).collect::<Vec<_>>(),
                })).collect::<Vec<_>>(),
            })
        })
        .collect();
    let mut diagnostics = Vec::new();
    let list: Vec<Json> = shaders
        .ids
        .iter()
        .map(|&id| {
            shader_object(id, e.object(id)).unwrap_or_else(|err| {
                diagnostics.push(json::message(
                    "warning",
                    &format!("object {id}: the shader does not decode: {err}"),
                ));
                json!({ "object": id, "error": err })
            })
        })
        .collect();
    json!({
        "file": file,
        "status": "ok",
        "diagnostics": diagnostics,
        "effect": {
            "offset": e.start,
            "size": e.size,
            "parameters": parameters,
            "techniques": techniques,
            "shaders": list,
        },
    })
}
