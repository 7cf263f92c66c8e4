//! The WebAssembly exports behind the `d3dbc` npm package (`cargo xtask npm`): one
//! stateless function per method of [`d3dbc_bind`], the API the Python package has too.
//! A shader travels as its tokens (`Uint32Array`), with the constants an effect's pass
//! gave it as JSON; an effect as its bytes with the parameter values set so far as
//! JSON. Structured results are JSON text; failures throw the error's JSON
//! ([`d3dbc_bind::Error::to_json`]), which the package's `index.js` turns into an
//! `Error` subclass with the same fields. Nothing is kept between calls, so nothing
//! needs freeing from JavaScript.

use d3dbc_bind::{Effect, Pick, RenderRequest, RunRequest, Shader, Translation};
use wasm_bindgen::prelude::{wasm_bindgen, JsValue};

fn fail(e: d3dbc_bind::Error) -> JsValue {
    JsValue::from_str(&e.to_json())
}

fn shader(tokens: &[u32], bound: &str) -> Result<Shader, JsValue> {
    Shader::from_tokens(tokens.to_vec())
        .and_then(|s| s.with_bound_json(bound))
        .map_err(fail)
}

/// `{"tokens", "version", "warnings", "bound"}` of a shader.
fn described(s: &Shader, warnings: &[String]) -> String {
    serde_json::json!({
        "tokens": s.tokens(),
        "version": s.version(),
        "warnings": warnings,
        "bound": s.bound_json(),
    })
    .to_string()
}

/// [`Shader::from_bytes`]: `{"tokens", "version", "warnings", "bound"}`.
#[wasm_bindgen(js_name = apiShaderRead)]
pub fn shader_read(data: &[u8]) -> Result<String, JsValue> {
    let (s, w) = Shader::from_bytes(data).map_err(fail)?;
    Ok(described(&s, &w))
}

/// [`d3dbc_bind::assemble`] (`options`: an [`d3dbc_bind::AsmRequest`] as JSON).
#[wasm_bindgen(js_name = apiAssemble)]
pub fn assemble(text: &str, options: &str) -> Result<String, JsValue> {
    let req = d3dbc_bind::AsmRequest::from_json(options).map_err(fail)?;
    let (s, w) = d3dbc_bind::assemble(text, &req).map_err(fail)?;
    Ok(described(&s, &w))
}

/// [`Shader::disassemble`].
#[wasm_bindgen(js_name = apiDisassemble)]
pub fn disassemble(tokens: &[u32], offsets: bool, raw: bool) -> Result<String, JsValue> {
    Ok(shader(tokens, "")?.disassemble(offsets, raw))
}

/// [`Shader::constants_json`].
#[wasm_bindgen(js_name = apiConstants)]
pub fn constants(tokens: &[u32]) -> Result<String, JsValue> {
    shader(tokens, "")?.constants_json().map_err(fail)
}

/// [`Shader::instructions_json`].
#[wasm_bindgen(js_name = apiInstructions)]
pub fn instructions(tokens: &[u32]) -> Result<String, JsValue> {
    shader(tokens, "")?.instructions_json().map_err(fail)
}

/// [`Shader::findings_json`].
#[wasm_bindgen(js_name = apiFindings)]
pub fn findings(tokens: &[u32]) -> Result<String, JsValue> {
    Ok(shader(tokens, "")?.findings_json())
}

/// [`Shader::translate`]: SPIR-V bytes, or the text as UTF-8.
#[wasm_bindgen(js_name = apiTranslate)]
pub fn translate(
    tokens: &[u32],
    target: &str,
    options: &str,
    validate: bool,
    via_naga: bool,
) -> Result<Vec<u8>, JsValue> {
    let t = shader(tokens, "")?
        .translate(target, options, validate, via_naga)
        .map_err(fail)?;
    Ok(match t {
        Translation::Words(w) => w.iter().flat_map(|x| x.to_le_bytes()).collect(),
        Translation::Text(t) => t.into_bytes(),
    })
}

/// [`Shader::interface_json`].
#[wasm_bindgen(js_name = apiInterface)]
pub fn interface(tokens: &[u32], options: &str, validate: bool) -> Result<String, JsValue> {
    shader(tokens, "")?
        .interface_json(options, validate)
        .map_err(fail)
}

/// [`Shader::run`] (`request`: a [`RunRequest`] as JSON; `bound`: the pass constants).
#[wasm_bindgen(js_name = apiRun)]
pub fn run(tokens: &[u32], bound: &str, request: &str) -> Result<String, JsValue> {
    let s = shader(tokens, bound)?;
    let req = RunRequest::from_json(request).map_err(fail)?;
    s.run(&req).map(|o| o.to_json()).map_err(fail)
}

/// [`Shader::render`]: the RGBA bytes. `vs_tokens` empty: no vertex shader.
/// `texture_info` holds (stage, width, height) per texture, `texture_data` their RGBA
/// bytes one after another.
#[wasm_bindgen(js_name = apiRender)]
#[allow(clippy::too_many_arguments)]
pub fn render(
    tokens: &[u32],
    bound: &str,
    vs_tokens: &[u32],
    vs_bound: &str,
    request: &str,
    texture_info: &[u32],
    texture_data: &[u8],
) -> Result<Vec<u8>, JsValue> {
    let s = shader(tokens, bound)?;
    let vs = if vs_tokens.is_empty() {
        None
    } else {
        Some(shader(vs_tokens, vs_bound)?)
    };
    let mut req = RenderRequest::from_json(request).map_err(fail)?;
    let mut at = 0usize;
    for t in texture_info.chunks_exact(3) {
        let n = t[1] as usize * t[2] as usize * 4;
        let data = texture_data.get(at..at + n).ok_or_else(|| {
            fail(d3dbc_bind::Error::argument(format!(
                "texture s{}: {}x{} RGBA needs {n} bytes, {} left",
                t[0],
                t[1],
                t[2],
                texture_data.len().saturating_sub(at)
            )))
        })?;
        req.texture(t[0] as usize, t[1], t[2], data).map_err(fail)?;
        at += n;
    }
    s.render(&req, vs.as_ref()).map(|p| p.rgba).map_err(fail)
}

/// [`Effect::with_values`], then `{"techniques", "parameters"}`.
#[wasm_bindgen(js_name = apiEffect)]
pub fn effect(data: &[u8], values: &str) -> Result<String, JsValue> {
    let e = Effect::with_values(data.to_vec(), values).map_err(fail)?;
    let t = e.techniques_json().map_err(fail)?;
    let p = e.parameters_json().map_err(fail)?;
    Ok(format!("{{\"techniques\":{t},\"parameters\":{p}}}"))
}

/// [`Effect::disassemble`].
#[wasm_bindgen(js_name = apiEffectDisassemble)]
pub fn effect_disassemble(data: &[u8]) -> Result<String, JsValue> {
    Effect::from_bytes(data.to_vec())
        .and_then(|e| e.disassemble())
        .map_err(fail)
}

/// [`Effect::set`] over the values so far: checks one more value (throws when it does
/// not fit).
#[wasm_bindgen(js_name = apiEffectSet)]
pub fn effect_set(data: &[u8], values: &str, name: &str, numbers: &[f32]) -> Result<(), JsValue> {
    let mut e = Effect::with_values(data.to_vec(), values).map_err(fail)?;
    e.set(name, numbers.to_vec()).map_err(fail)
}

fn pick(index: i32, name: &str) -> Pick {
    if index >= 0 {
        Pick::Index(index as usize)
    } else {
        Pick::Name(name.to_string())
    }
}

/// [`Effect::pass_shaders`]: `{"vs": shader or null, "ps": …}`, each as
/// [`shader_read`] describes it. A technique or pass is picked by index (`>= 0`) or,
/// with index `-1`, by name.
#[wasm_bindgen(js_name = apiPassShaders)]
pub fn pass_shaders(
    data: &[u8],
    values: &str,
    technique: i32,
    technique_name: &str,
    pass: i32,
    pass_name: &str,
) -> Result<String, JsValue> {
    let e = Effect::with_values(data.to_vec(), values).map_err(fail)?;
    let (vs, ps) = e
        .pass_shaders(&pick(technique, technique_name), &pick(pass, pass_name))
        .map_err(fail)?;
    let one = |s: Option<Shader>| s.map_or_else(|| "null".to_string(), |s| described(&s, &[]));
    Ok(format!("{{\"vs\":{},\"ps\":{}}}", one(vs), one(ps)))
}

/// [`d3dbc_bind::rip_json`].
#[wasm_bindgen(js_name = apiRip)]
pub fn rip(data: &[u8]) -> String {
    d3dbc_bind::rip_json(data)
}
