//! Options as name/value pairs (`struct d3dbc_option`), read into the settings the
//! library calls take: every field of [`d3dbc::target::TranslateOptions`] by its JSON
//! path (`semantics.mul_zero`, `pipeline.alpha_test`: the keys of `d3dbc translate
//! --options FILE.json`, the names listed by serialising the defaults, so a field added
//! there is an option here with no edit), plus the choices the command's flags make.
//! An unknown name is an error that lists every valid one.
//!
//! A value is JSON where it parses as JSON (`true`, `8`, `"less"`, `["cube"]`), else a
//! string (`less`); a list may also be written comma-separated (`cube,tex2d`).

use d3dbc::target::TranslateOptions;
use serde_json::{Map, Value};

/// The options that are not translation options, with what each takes.
pub const OTHER: [(&str, &str); 11] = [
    ("name", "the input's name in messages (default `input`)"),
    (
        "validate",
        "true (default): refuse a shader the runtime validator rejects; false: go ahead \
         with a warning (`--no-validate`)",
    ),
    (
        "via",
        "direct (default) or naga: the SPIR-V back end (`translate --via`)",
    ),
    ("print.offsets", "true/false: `dis --offsets`"),
    ("print.tokens", "true/false: `dis --tokens`"),
    (
        "asm.no_validate",
        "true/false: `asm --no-validate` (assembly to bytecode)",
    ),
    ("asm.raw", "true/false: `asm --raw`"),
    (
        "asm.no_ctab",
        "true/false: `asm --no-ctab` (do not rebuild the constant table)",
    ),
    (
        "asm.ctab_flags",
        "a 32-bit number: the rebuilt constant table's compile flags (`asm --ctab-flags`)",
    ),
    (
        "asm.ctab_explicit",
        "auto, none, all or NAME,...: the constants placed with register(...) \
         (`asm --ctab-explicit`)",
    ),
    ("asm.define", "NAME or NAME=VALUE: `asm -D` (may repeat)"),
];

/// Everything the options select.
#[derive(Clone, Debug)]
pub struct Settings {
    /// The translation options.
    pub translate: TranslateOptions,
    /// How messages call the input.
    pub name: String,
    /// Refuse shaders the validator rejects.
    pub validate: bool,
    /// SPIR-V through naga instead of the direct back end.
    pub via_naga: bool,
    /// `dis --offsets`.
    pub offsets: bool,
    /// `dis --tokens`.
    pub tokens: bool,
    /// The assembler's options.
    pub asm: d3dbc::asm::Options,
    /// `asm --no-ctab`.
    pub no_ctab: bool,
    /// `asm --ctab-flags`, `--ctab-explicit`.
    pub ctab: d3dbc::asm::ctab_header::Overrides,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            translate: TranslateOptions::default(),
            name: "input".into(),
            validate: true,
            via_naga: false,
            offsets: false,
            tokens: false,
            asm: d3dbc::asm::Options {
                file_name: "input".into(),
                ..Default::default()
            },
            no_ctab: false,
            ctab: Default::default(),
        }
    }
}

/// Every translation option name (`semantics.mul_zero`, …), from the defaults' JSON.
pub fn translate_names() -> Vec<String> {
    let mut out = Vec::new();
    if let Ok(Value::Object(top)) = serde_json::to_value(TranslateOptions::default()) {
        for (group, v) in top {
            if let Value::Object(fields) = v {
                out.extend(fields.keys().map(|k| format!("{group}.{k}")));
            }
        }
    }
    out
}

/// Every valid option name, for error messages.
pub fn all_names() -> Vec<String> {
    let mut v = translate_names();
    v.extend(OTHER.iter().map(|(n, _)| n.to_string()));
    v
}

/// A value's JSON: itself where it parses, else a string, or a list when it has commas.
fn json_value(value: &str) -> Value {
    if let Ok(v) = serde_json::from_str::<Value>(value) {
        return v;
    }
    if value.contains(',') {
        return Value::Array(
            value
                .split(',')
                .map(|p| {
                    let p = p.trim();
                    serde_json::from_str(p).unwrap_or_else(|_| Value::String(p.into()))
                })
                .collect(),
        );
    }
    Value::String(value.into())
}

fn boolean(name: &str, value: &str) -> Result<bool, String> {
    match value {
        "true" | "1" => Ok(true),
        "false" | "0" => Ok(false),
        _ => Err(format!(
            "option `{name}`: `{value}` is not a boolean (true, false, 1, 0)"
        )),
    }
}

/// Reads `(name, value)` pairs into [`Settings`]; later pairs override earlier ones
/// (`asm.define` adds).
pub fn parse<'a>(pairs: impl IntoIterator<Item = (&'a str, &'a str)>) -> Result<Settings, String> {
    let mut s = Settings::default();
    let mut pairs = pairs.into_iter().peekable();
    if pairs.peek().is_none() {
        return Ok(s);
    }
    let known = translate_names();
    let mut groups: Map<String, Value> = Map::new();
    for (name, value) in pairs {
        if known.iter().any(|k| k == name) {
            let (group, field) = name.split_once('.').unwrap_or((name, ""));
            let v = json_value(value);
            // Each option on its own first, so an error names the option at fault.
            let mut one = Map::new();
            one.insert(field.to_string(), v.clone());
            let mut top = Map::new();
            top.insert(group.to_string(), Value::Object(one));
            if let Err(e) = serde_json::from_value::<TranslateOptions>(Value::Object(top)) {
                return Err(format!("option `{name}` = `{value}`: {e}"));
            }
            groups
                .entry(group.to_string())
                .or_insert_with(|| Value::Object(Map::new()))
                .as_object_mut()
                .map(|m| m.insert(field.to_string(), v));
            continue;
        }
        match name {
            "name" => {
                s.name = value.to_string();
                s.asm.file_name = value.to_string();
            }
            "validate" => s.validate = boolean(name, value)?,
            "via" => {
                s.via_naga = match value {
                    "direct" => false,
                    "naga" => true,
                    _ => {
                        return Err(format!(
                            "option `via`: `{value}` is not a back end (direct, naga)"
                        ))
                    }
                }
            }
            "print.offsets" => s.offsets = boolean(name, value)?,
            "print.tokens" => s.tokens = boolean(name, value)?,
            "asm.no_validate" => s.asm.no_validate = boolean(name, value)?,
            "asm.raw" => s.asm.raw = boolean(name, value)?,
            "asm.no_ctab" => s.no_ctab = boolean(name, value)?,
            "asm.ctab_flags" => {
                s.ctab.flags = Some(
                    d3dbc::asm::ctab_header::parse_flags(value.trim())
                        .map_err(|e| format!("option `{name}`: {e}"))?,
                )
            }
            "asm.ctab_explicit" => {
                s.ctab.explicit = Some(d3dbc::asm::ctab_header::Explicit::parse(value))
            }
            "asm.define" => s.asm.defines.push(match value.split_once('=') {
                Some((n, v)) => (n.to_string(), Some(v.to_string())),
                None => (value.to_string(), None),
            }),
            _ => {
                return Err(format!(
                    "unknown option `{name}`; the options are: {}",
                    all_names().join(", ")
                ))
            }
        }
    }
    s.translate =
        serde_json::from_value(Value::Object(groups)).map_err(|e| format!("options: {e}"))?;
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_translate_field_is_an_option() {
        let names = translate_names();
        for n in [
            "semantics.mul_zero",
            "semantics.fused_mad",
            "pipeline.alpha_test",
            "pipeline.sm1_sampler_kinds",
            "pipeline.position_fixup",
        ] {
            assert!(names.iter().any(|k| k == n), "{n} missing from {names:?}");
        }
    }

    #[test]
    fn values_read_as_json_or_text() {
        let s = parse([
            ("semantics.mul_zero", "ieee"),
            ("semantics.ps1x_max_value", "4"),
            ("pipeline.alpha_test", "\"less\""),
            ("pipeline.sm1_sampler_kinds", "cube,tex2d"),
            ("pipeline.projected", "[0, 4]"),
            ("pipeline.flat_shading", "true"),
            ("via", "naga"),
        ])
        .unwrap();
        let t = &s.translate;
        assert_eq!(t.semantics.mul_zero, d3dbc::MulZero::Ieee);
        assert_eq!(t.semantics.ps1x_max_value, 4.0);
        assert_eq!(t.pipeline.alpha_test, d3dbc::CompareFunc::Less);
        assert_eq!(
            t.pipeline.sm1_sampler_kinds,
            [
                d3dbc::target::TextureKind::Cube,
                d3dbc::target::TextureKind::Tex2d
            ]
        );
        assert_eq!(t.pipeline.projected, [0, 4]);
        assert!(t.pipeline.flat_shading && s.via_naga);
    }

    #[test]
    fn errors_name_the_option_and_the_choices() {
        let e = parse([("pipeline.fogg", "x")]).unwrap_err();
        assert!(e.contains("unknown option `pipeline.fogg`"), "{e}");
        assert!(
            e.contains("pipeline.fog_depth") && e.contains("asm.define"),
            "{e}"
        );
        let e = parse([("pipeline.fog", "thick")]).unwrap_err();
        assert!(e.contains("`pipeline.fog`") && e.contains("exp2"), "{e}");
        let e = parse([("validate", "maybe")]).unwrap_err();
        assert!(e.contains("true, false"), "{e}");
    }
}
