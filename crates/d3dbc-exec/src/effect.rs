//! An effect pass as the executor's [`Draw`](crate::Draw): [`pass_scene`] applies a pass of a D3DX
//! effect ([`d3dbc::fx::Effect::apply_pass`]: parameter values, preshaders, state
//! expressions) and turns the result into a full-screen draw — the pass's shaders, the
//! constants they read, its render states and the sampler states of its stages, with
//! the same D3D enumeration values the execution oracles use.
//!
//! The geometry is [`quick::fullscreen`]'s (a quad through the pass's vertex shader, or
//! pre-transformed when the pass has none). Render states the executor does not model
//! (lighting, fixed-function transforms, NPatch) are listed in [`PassScene::ignored`].

use std::sync::Arc;

use d3dbc::fx::apply::{AppliedState, Constants, Values};
use d3dbc::fx::{Effect, StateClass};
use d3dbc::regs::{self, SAMPLER_STAGES, VERTEX_SAMPLER_BASE};
use serde_json::{Map, Value};

use crate::draw::{Constants as DrawConstants, Op, Scene, Texture};

use crate::invoke::Inputs;
use crate::oracle::{apply_render_states, parse_sampler, Ctx};
use crate::quick;

/// A pass ready to render.
#[derive(Clone, Debug)]
pub struct PassScene {
    /// One draw of the pass (render target `w`×`h`).
    pub scene: Scene,
    /// States the pass sets that the executor does not model, by name.
    pub ignored: Vec<String>,
}

/// D3D's names of an enumeration's values, by number (index 0 = value `first`).
fn enum_name(state: &str, v: u32) -> Option<&'static str> {
    const BLEND: [&str; 15] = [
        "ZERO",
        "ONE",
        "SRCCOLOR",
        "INVSRCCOLOR",
        "SRCALPHA",
        "INVSRCALPHA",
        "DESTALPHA",
        "INVDESTALPHA",
        "DESTCOLOR",
        "INVDESTCOLOR",
        "SRCALPHASAT",
        "BOTHSRCALPHA",
        "BOTHINVSRCALPHA",
        "BLENDFACTOR",
        "INVBLENDFACTOR",
    ];
    const CMP: [&str; 8] = [
        "NEVER",
        "LESS",
        "EQUAL",
        "LESSEQUAL",
        "GREATER",
        "NOTEQUAL",
        "GREATEREQUAL",
        "ALWAYS",
    ];
    const BLENDOP: [&str; 5] = ["ADD", "SUBTRACT", "REVSUBTRACT", "MIN", "MAX"];
    const STENCILOP: [&str; 8] = [
        "KEEP", "ZERO", "REPLACE", "INCRSAT", "DECRSAT", "INVERT", "INCR", "DECR",
    ];
    const CULL: [&str; 3] = ["NONE", "CW", "CCW"];
    const FILL: [&str; 3] = ["POINT", "WIREFRAME", "SOLID"];
    const SHADE: [&str; 3] = ["FLAT", "GOURAUD", "PHONG"];
    const FOG: [&str; 4] = ["NONE", "EXP", "EXP2", "LINEAR"];
    const ADDRESS: [&str; 5] = ["WRAP", "MIRROR", "CLAMP", "BORDER", "MIRRORONCE"];
    const FILTER: [&str; 4] = ["NONE", "POINT", "LINEAR", "ANISOTROPIC"];
    let (table, first): (&[&'static str], u32) = match state {
        "D3DRS_SRCBLEND" | "D3DRS_DESTBLEND" | "D3DRS_SRCBLENDALPHA" | "D3DRS_DESTBLENDALPHA" => {
            (&BLEND, 1)
        }
        "D3DRS_ZFUNC" | "D3DRS_ALPHAFUNC" | "D3DRS_STENCILFUNC" | "D3DRS_CCW_STENCILFUNC" => {
            (&CMP, 1)
        }
        "D3DRS_BLENDOP" | "D3DRS_BLENDOPALPHA" => (&BLENDOP, 1),
        "D3DRS_STENCILFAIL"
        | "D3DRS_STENCILZFAIL"
        | "D3DRS_STENCILPASS"
        | "D3DRS_CCW_STENCILFAIL"
        | "D3DRS_CCW_STENCILZFAIL"
        | "D3DRS_CCW_STENCILPASS" => (&STENCILOP, 1),
        "D3DRS_CULLMODE" => (&CULL, 1),
        "D3DRS_FILLMODE" => (&FILL, 1),
        "D3DRS_SHADEMODE" => (&SHADE, 1),
        "D3DRS_FOGTABLEMODE" | "D3DRS_FOGVERTEXMODE" => (&FOG, 0),
        "D3DSAMP_ADDRESSU" | "D3DSAMP_ADDRESSV" | "D3DSAMP_ADDRESSW" => (&ADDRESS, 1),
        "D3DSAMP_MAGFILTER" | "D3DSAMP_MINFILTER" | "D3DSAMP_MIPFILTER" => (&FILTER, 0),
        _ => return None,
    };
    table.get(v.checked_sub(first)? as usize).copied()
}

/// The JSON value the oracle loader takes for one DWORD state.
fn state_value(s: &AppliedState) -> Value {
    let w = s.words.first().copied().unwrap_or(0);
    if let Some(n) = enum_name(s.name, w) {
        return Value::String(n.into());
    }
    match d3dbc::fx::state_info(s.operation) {
        Some(i) if i.is_float() => Value::String(format!("0x{w:08x}")),
        _ => Value::from(w),
    }
}

/// Writes the constants an applied pass sets for one stage (floats, ints, bools) into a
/// draw's constant file.
fn load_constants(file: &mut DrawConstants, c: &Constants) {
    for (reg, v) in &c.float {
        file.set_float_bits(*reg as usize, &v.map(f32::to_bits));
    }
    for (reg, v) in &c.int {
        file.set_int(*reg as usize, v);
    }
    for &(reg, b) in &c.bool {
        let r = reg as usize;
        if r < 2048 {
            if file.bool.len() <= r {
                file.bool.resize(r + 1, false);
            }
            file.bool[r] = b;
        }
    }
}

/// The constants an applied pass sets for one stage, as the inputs of
/// [`crate::run_pixel`] / [`crate::run_vertex`] (`d3dbc run X.fxo`).
pub fn stage_inputs(c: &Constants) -> Inputs {
    Inputs {
        floats: c.float.iter().map(|(r, v)| (*r as usize, *v)).collect(),
        ints: c.int.iter().map(|(r, v)| (*r as usize, *v)).collect(),
        bools: c.bool.iter().map(|&(r, b)| (r as usize, b)).collect(),
        ..Default::default()
    }
}

/// Applies pass `pass` of technique `technique` with `values` and builds its draw into a
/// `w`×`h` target; `textures` bind to sampler stages.
pub fn pass_scene(
    effect: &Effect,
    technique: usize,
    pass: usize,
    values: &Values,
    w: u32,
    h: u32,
    textures: &[(usize, Arc<Texture>)],
) -> Result<PassScene, String> {
    let applied = effect
        .apply_pass(technique, pass, values)
        .map_err(|e| e.to_string())?;
    if let Some(e) = &applied.failure {
        return Err(format!("BeginPass fails: {e}"));
    }
    let ps = applied
        .pixel_shader
        .ok_or("the pass sets no pixel shader (fixed-function pixel processing is not drawn)")?;
    let ps_tokens = d3dbc::fx::to_words(ps);
    let vs_tokens = applied.vertex_shader.map(d3dbc::fx::to_words);
    let mut scene = quick::fullscreen(&ps_tokens, vs_tokens.as_deref(), w, h, textures)
        .map_err(|e| e.to_string())?;
    let Some(Op::Draw(d)) = scene.ops.first_mut() else {
        return Err("no draw".into());
    };
    load_constants(&mut d.ps_constants, &applied.ps_constants);
    load_constants(&mut d.vs_constants, &applied.vs_constants);
    let cx = Ctx {
        source: "effect pass",
    };
    let mut render = Map::new();
    let mut samplers: Vec<(u32, Map<String, Value>)> = Vec::new();
    let mut ignored = Vec::new();
    for s in &applied.states {
        match s.class {
            StateClass::RenderState => {
                render.insert(s.name.to_string(), state_value(s));
            }
            StateClass::SamplerState => {
                // Pixel stages 0–15, vertex samplers 257–260 → 16–19.
                let stage = if s.index >= regs::VERTEX_SAMPLER_STATE_INDEX {
                    s.index - regs::VERTEX_SAMPLER_STATE_INDEX + VERTEX_SAMPLER_BASE as u32
                } else {
                    s.index
                };
                let slot = match samplers.iter().position(|(n, _)| *n == stage) {
                    Some(i) => i,
                    None => {
                        samplers.push((stage, Map::new()));
                        samplers.len() - 1
                    }
                };
                samplers[slot].1.insert(s.name.to_string(), state_value(s));
            }
            _ => ignored.push(s.name.to_string()),
        }
    }
    // States the draw description has no field for are reported, not failed on.
    let mut known = Map::new();
    for (k, v) in render {
        let mut one = Map::new();
        one.insert(k.clone(), v.clone());
        let mut probe = d.render_states.clone();
        if apply_render_states(&mut probe, &one, &cx).is_ok() {
            known.insert(k, v);
        } else {
            ignored.push(k);
        }
    }
    apply_render_states(&mut d.render_states, &known, &cx).map_err(|e| e.to_string())?;
    for (stage, m) in samplers {
        let mut kept = Map::new();
        for (k, v) in m {
            let mut one = Map::new();
            one.insert(k.clone(), v.clone());
            if parse_sampler(&Value::Object(one), &cx).is_ok() {
                kept.insert(k, v);
            } else {
                ignored.push(k);
            }
        }
        let st = parse_sampler(&Value::Object(kept), &cx).map_err(|e| e.to_string())?;
        let stage = stage as usize;
        if stage < SAMPLER_STAGES {
            if d.samplers.len() <= stage {
                d.samplers.resize(stage + 1, Default::default());
            }
            d.samplers[stage] = st;
        }
    }
    ignored.sort();
    ignored.dedup();
    Ok(PassScene { scene, ignored })
}
