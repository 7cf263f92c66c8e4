//! Parameter types and default values of Wine's `test_effect_parameter_value` effects
//! (`wine_fx.jsonl`): every declaration of the effect's HLSL source (given in the same
//! record) must come back with its type, dimensions, element count and initializer
//! values; string defaults read back as the source's strings; object parameters have
//! their types.

mod common;

use d3dbc::fx::{Effect, ParameterClass, ParameterType, Value};

fn bytes(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

fn record(name: &str) -> Option<(Vec<u8>, String)> {
    let records = common::records("wine_fx.jsonl")?;
    let r = records.iter().find(|r| r["name"] == name)?;
    Some((
        bytes(&common::dwords(&r["dwords"])),
        r["hlsl"].as_str().unwrap().to_string(),
    ))
}

/// `TYPE NAME[N] = {numbers};` declarations: (base, rows, columns, name, elements,
/// numbers).
fn declarations(hlsl: &str) -> Vec<(String, u32, u32, String, u32, Vec<f64>)> {
    let mut out = Vec::new();
    for decl in hlsl.split(';') {
        let decl = decl.trim();
        let Some((head, init)) = decl.split_once('=') else {
            continue;
        };
        let mut words = head.split_whitespace();
        let (Some(ty), Some(name)) = (words.next(), words.next()) else {
            continue;
        };
        let base: String = ty.chars().take_while(|c| c.is_ascii_alphabetic()).collect();
        if !matches!(base.as_str(), "float" | "int" | "bool") {
            continue;
        }
        let dims = &ty[base.len()..];
        let (rows, columns) = match dims.split_once('x') {
            Some((r, c)) => (r.parse().unwrap(), c.parse().unwrap()),
            None if dims.is_empty() => (1, 1),
            None => (1, dims.parse().unwrap()),
        };
        let (name, elements) = match name.split_once('[') {
            Some((n, e)) => (n.to_string(), e.trim_end_matches(']').parse().unwrap()),
            None => (name.to_string(), 0),
        };
        let numbers = init
            .split(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-' || c == 'e'))
            .filter(|t| !t.is_empty() && t.chars().any(|c| c.is_ascii_digit()))
            .map(|t| {
                // C/HLSL integer literals with a leading 0 are octal.
                if t.len() > 1 && t.starts_with('0') && t.chars().all(|c| c.is_ascii_digit()) {
                    i64::from_str_radix(t, 8).unwrap() as f64
                } else {
                    t.parse::<f64>().unwrap()
                }
            })
            .collect();
        out.push((base, rows, columns, name, elements, numbers));
    }
    out
}

fn check_numeric(name: &str) -> usize {
    let Some((data, hlsl)) = record(name) else {
        return 0;
    };
    let e = Effect::parse(&data).unwrap();
    let mut checked = 0;
    for (base, rows, columns, pname, elements, numbers) in declarations(&hlsl) {
        let p = e
            .parameter(&pname)
            .unwrap_or_else(|| panic!("{name}: no parameter {pname}"));
        let want_ty = match base.as_str() {
            "float" => ParameterType::Float,
            "int" => ParameterType::Int,
            _ => ParameterType::Bool,
        };
        assert_eq!(p.ty.ty, want_ty, "{pname}");
        assert_eq!(
            (p.ty.rows, p.ty.columns, p.ty.elements),
            (rows, columns, elements),
            "{pname}"
        );
        let words = p.value.words();
        assert_eq!(words.len(), numbers.len(), "{pname}: value count");
        let mut got: Vec<f64> = words
            .iter()
            .map(|&w| match want_ty {
                ParameterType::Float => f64::from(f32::from_bits(w)),
                _ => f64::from(w as i32),
            })
            .collect();
        let mut want: Vec<f64> = numbers
            .iter()
            .map(|&x| {
                if want_ty == ParameterType::Float {
                    f64::from(x as f32)
                } else {
                    x.trunc()
                }
            })
            .collect();
        got.sort_by(f64::total_cmp);
        want.sort_by(f64::total_cmp);
        assert_eq!(got, want, "{pname}: values");
        checked += 1;
    }
    checked
}

#[test]
fn numeric_parameters_have_their_types_and_defaults() {
    let n = check_numeric("test_effect_parameter_value_blob_float")
        + check_numeric("test_effect_parameter_value_blob_int")
        + check_numeric("test_effect_parameter_value_blob_special");
    if common::corpus_dir().is_some() {
        eprintln!("{n} numeric parameters checked");
        assert!(n >= 60, "{n}");
    }
}

#[test]
fn object_parameters_have_their_types_and_strings() {
    let Some((data, _)) = record("test_effect_parameter_value_blob_object") else {
        return;
    };
    let e = Effect::parse(&data).unwrap();
    let p = e.parameter("s").unwrap();
    let Value::Object(id) = p.value else {
        panic!("s: {:?}", p.value)
    };
    assert_eq!(e.string(id), "test");
    let Value::Array(items) = &e.parameter("s_2").unwrap().value else {
        panic!()
    };
    let strings: Vec<_> = items
        .iter()
        .map(|v| match v {
            Value::Object(id) => e.string(*id).into_owned(),
            _ => panic!(),
        })
        .collect();
    assert_eq!(strings, ["test1", "test2"]);
    for (name, ty, elements) in [
        ("tex", ParameterType::Texture2D, 0),
        ("v", ParameterType::VertexShader, 0),
        ("v_2", ParameterType::VertexShader, 2),
        ("p", ParameterType::PixelShader, 0),
        ("p_2", ParameterType::PixelShader, 2),
    ] {
        let p = e.parameter(name).unwrap();
        assert_eq!(
            (p.ty.ty, p.ty.class, p.ty.elements),
            (ty, ParameterClass::Object, elements),
            "{name}"
        );
    }
    // Shader parameters without an initializer are null shaders: nothing to list.
    assert!(!e.listing().contains("vertexshader v"));
}

/// `test_effect_variable_names`: which names `GetParameterByName` /
/// `GetAnnotationByName` resolve (`c@d`, `g@h[0]`, `i@k[0].j`, technique and pass
/// annotations) and which name nothing; `test_effect_parameter_block` and
/// `test_effect_clone`: `f@a` is 1.
#[test]
fn parameter_and_annotation_names_resolve_as_d3dx_does() {
    let Some((data, _)) = record("test_effect_variable_names_blob") else {
        return;
    };
    let e = Effect::parse(&data).unwrap();
    let floats = |ty: &d3dbc::fx::TypeDesc, v: &Value| {
        let mut out = Vec::new();
        d3dbc::fx::apply::flatten(ty, v, &mut out);
        out
    };
    for (name, want) in [
        ("a", vec![2.1f32]),
        ("b[0]", vec![0.0]),
        ("c@d", vec![3.0]),
        ("f.e", vec![0.0]),
        ("g@h[0]", vec![3.0]),
        ("i@k[0].j", vec![4.0]),
    ] {
        let (ty, v) = e.resolve(name).unwrap_or_else(|| panic!("{name}"));
        assert_eq!(floats(ty, v), want, "{name}");
    }
    for name in [
        "",
        "invalid1",
        "a.",
        "a.invalid",
        "a[]",
        "a[0]",
        "a@",
        "a@invalid",
        "b[]",
        "b[1]",
        "c@",
        "c@invalid",
        "f.",
        "f.invalid",
    ] {
        assert!(e.resolve(name).is_none(), "{name:?} names nothing");
    }
    let t = &e.techniques[0];
    let (ty, v) = Effect::resolve_annotation(&t.annotations, "l[0].j").unwrap();
    assert_eq!(floats(ty, v), vec![5.0]);
    let (ty, v) = Effect::resolve_annotation(&t.passes[0].annotations, "m[0].j").unwrap();
    assert_eq!(floats(ty, v), vec![6.0]);
    for name in ["effect_code", "annotation_code"] {
        let Some((data, _)) = record(name) else {
            continue;
        };
        let e = Effect::parse(&data).unwrap();
        let (ty, v) = e.resolve("f@a").unwrap();
        assert_eq!(floats(ty, v), vec![1.0], "{name}");
    }
}
