//! The effect listing fxc 10.1 writes with `/Fc` for an fx_2_0 effect: the shaders of
//! shader-typed parameters (`pixelshader name = asm { … };`, arrays element by element
//! with `//listing for: name[i]`), then `//listing of all techniques and passes with
//! embedded asm listings` and every pass's vertex and pixel shader (`//No embedded …`
//! where a pass sets none), each shader's Microsoft listing indented 12 spaces and
//! preceded by its preshader block when it has one. A pass that picks its shader from an
//! array by a selector expression lists the element the selector gives for the
//! parameters' default values.

use std::fmt::Write as _;

use super::preshader::{find_pres, Preshader};
use super::states::StateClass;
use super::{state_info, to_words, Effect, ParameterClass, StateValue, Value};
use crate::print::{print_tokens, PrintOptions};

/// The listing of one shader's bytecode: its preshader block (when it has one), then the
/// shader's own listing.
pub fn shader_listing(bytes: &[u8]) -> String {
    shader_listing_with(bytes, &PrintOptions::default())
}

/// [`shader_listing`] with the printer's `offsets`/`tokens` annotations of `options`
/// (offsets count DWORDs from the shader's version token); the effect listing never
/// prints `CTAB` default values (fxc's does not).
pub fn shader_listing_with(bytes: &[u8], options: &PrintOptions) -> String {
    let tokens = to_words(bytes);
    let mut out = String::new();
    if let Some(pres) = find_pres(&tokens) {
        match Preshader::parse(pres) {
            Ok(p) => p.write_listing(&mut out),
            Err(e) => {
                let _ = writeln!(out, "// preshader: {e}");
            }
        }
    }
    let options = PrintOptions {
        ctab_defaults: false,
        ..*options
    };
    if let Err(e) = print_tokens(&tokens, &options, &mut out) {
        let _ = writeln!(out, "// shader does not decode: {e}");
    }
    out
}

fn push_indented(text: &str, indent: &str, out: &mut String) {
    for line in text.lines() {
        out.push_str(indent);
        out.push_str(line);
        out.push('\n');
    }
}

impl<'a> Effect<'a> {
    /// The shader bytecode a shader state of a pass selects, evaluating array selectors
    /// with the parameters' default values (`None`: no shader, or it cannot be found).
    pub fn state_shader(&self, state: &super::State<'a>) -> Option<&'a [u8]> {
        self.state_shader_with(state, &super::apply::Values::default())
    }

    /// As [`state_shader`](Self::state_shader) with parameter values overriding the
    /// defaults.
    pub fn state_shader_with(
        &self,
        state: &super::State<'a>,
        values: &super::apply::Values,
    ) -> Option<&'a [u8]> {
        self.selected_shader(state, values).ok().flatten()
    }

    /// The shader bytecode a shader state selects, or the error of an array selector
    /// whose index falls outside its array ([`Effect::selector_index`]), which fails
    /// the pass.
    pub(super) fn selected_shader(
        &self,
        state: &super::State<'a>,
        values: &super::apply::Values,
    ) -> Result<Option<&'a [u8]>, super::preshader::PresError> {
        let object = |v: &Value<'a>| match v {
            Value::Object(id) => Some(self.object(*id)).filter(|b| !b.is_empty()),
            _ => None,
        };
        Ok(match &state.source {
            StateValue::Constant => object(&state.value),
            StateValue::Parameter(name) => self.resolve(name).and_then(|(_, v)| object(v)),
            StateValue::ArraySelector { array, program } => {
                let i = self.selector_index(array, program, values)?;
                match self.parameter(array).map(|p| &p.value) {
                    Some(Value::Array(items)) => items.get(i).and_then(object),
                    _ => None,
                }
            }
            StateValue::Expression(_) => None,
        })
    }

    /// The element of parameter `array` an array selector (`VertexShader =
    /// vs_arr[expr]`) picks: D3DX runs the selector `program`, truncates its first
    /// output to an integer, takes -1 as 0 (the first element, without an error), and
    /// fails any other index outside the array: `BeginPass`, `CommitChanges`,
    /// `GetPassDesc` and `ValidateTechnique` return `E_FAIL` (Wine's
    /// `test_effect_out_of_bounds_selector`, `test_effect_get_pass_desc`,
    /// `test_effect_null_shader`).
    pub fn selector_index(
        &self,
        array: &str,
        program: &[u8],
        values: &super::apply::Values,
    ) -> Result<usize, super::preshader::PresError> {
        let fail = |what: String| super::preshader::PresError { offset: 0, what };
        let outputs = self.evaluate_expression(program, values)?;
        let Some(&first) = outputs.first() else {
            return Err(fail(format!("the selector of {array} computes no index")));
        };
        // `(int)` of the float, as D3DX converts it (NaN and overflow: out of range).
        let index = if first.is_nan() {
            i64::MIN
        } else {
            first as i64
        };
        let index = if index == -1 { 0 } else { index };
        let count = self
            .parameter(array)
            .map_or(0, |p| p.ty.elements.max(1) as usize);
        match usize::try_from(index) {
            Ok(i) if i < count => Ok(i),
            _ => Err(fail(format!(
                "array selector index {index} is outside {array}[{count}] (D3DX: E_FAIL)"
            ))),
        }
    }

    /// fxc's `/Fc` listing of the effect.
    pub fn listing(&self) -> String {
        self.listing_with(&PrintOptions::default())
    }

    /// [`listing`](Self::listing) with the embedded shaders printed under `options`
    /// (`offsets`, `tokens`: `dis --offsets --tokens`).
    pub fn listing_with(&self, options: &PrintOptions) -> String {
        let shader_listing = |code: &[u8]| shader_listing_with(code, options);
        let mut out = String::new();
        for p in &self.parameters {
            if !p.ty.is_shader() || p.ty.class != ParameterClass::Object {
                continue;
            }
            let kind = p.ty.ty.hlsl_name();
            match &p.value {
                Value::Object(id) => {
                    let code = self.object(*id);
                    if code.is_empty() {
                        continue;
                    }
                    let _ = write!(out, "{kind} {} = \nasm {{\n", p.ty.name);
                    out.push_str(&shader_listing(code));
                    out.push_str("};\n\n");
                }
                Value::Array(items) => {
                    // Arrays without code (declared, not initialized) are not listed.
                    let code = |v: &Value| match v {
                        Value::Object(id) => self.object(*id),
                        _ => &[],
                    };
                    if items.iter().all(|v| code(v).is_empty()) {
                        continue;
                    }
                    let _ = write!(out, "{kind} {}[{}] = \n{{\n", p.ty.name, items.len());
                    for (i, item) in items.iter().enumerate() {
                        if i > 0 {
                            out.push_str(",\n\n");
                        }
                        let code = match item {
                            Value::Object(id) => self.object(*id),
                            _ => &[],
                        };
                        let _ = write!(out, "//listing for: {}[{i}]\nasm {{\n", p.ty.name);
                        out.push_str(&shader_listing(code));
                        out.push('}');
                    }
                    out.push_str("};\n");
                }
                _ => {}
            }
        }
        out.push_str("\n//listing of all techniques and passes with embedded asm listings \n\n");
        for t in &self.techniques {
            let _ = write!(out, "technique {}\n{{\n", t.name);
            for pass in &t.passes {
                let _ = write!(out, "    pass {}\n    {{\n", pass.name);
                for (class, kind, blank) in [
                    (StateClass::VertexShader, "vertex", "\n"),
                    (StateClass::PixelShader, "pixel", ""),
                ] {
                    let code = pass
                        .states
                        .iter()
                        .filter(|s| state_info(s.operation).map(|i| i.class) == Some(class))
                        .find_map(|s| self.state_shader(s));
                    match code {
                        Some(code) => {
                            let _ = write!(out, "        {kind}shader = \n            asm {{\n");
                            push_indented(&shader_listing(code), "            ", &mut out);
                            out.push_str("            };\n");
                            out.push_str(blank);
                        }
                        None => {
                            let _ = writeln!(out, "        //No embedded {kind} shader");
                        }
                    }
                }
                out.push_str("    }\n");
            }
            out.push_str("}\n\n");
        }
        out
    }
}
