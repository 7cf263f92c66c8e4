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

/// The JSON value the oracle loader takes for one DWORD state.
fn state_value(s: &AppliedState) -> Value {
    let w = s.words.first().copied().unwrap_or(0);
    let info = d3dbc::fx::state_info(s.operation);
    // Enumeration values by the names `d3dbc::fx::states` gives them (texture-stage
    // operations are not modelled by the draw).
    if let Some(n) = info
        .filter(|i| i.class != StateClass::TextureStage)
        .and_then(|i| i.value_name(w))
    {
        return Value::String(n.into());
    }
    match info {
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

/// The pixel-shader inputs (`v#`/`t#` by name, as [`Inputs::registers`] takes them)
/// that vertex shader `vs`, having produced `vs_out` ([`crate::run_vertex`]), feeds
/// pixel shader `ps` where the rasterizer draws that vertex: the varyings linked by
/// semantic as [`crate::render`](mod@crate::render) links them (below vs_3_0 colours and fog saturated,
/// inputs the vertex shader does not write read D3D9's defaults: COLOR0 (1, 1, 1, 1),
/// anything else 0). `d3dbc run X.fxo` runs a pass's two stages through it, at the
/// point `render` draws at texture coordinate (0, 0).
pub fn linked_inputs(
    vs: &d3dbc::Shader,
    vs_out: &crate::invoke::Outputs,
    ps: &d3dbc::Shader,
) -> Result<Vec<(String, [f32; 4])>, crate::exec::ExecError> {
    use crate::exec::{self, Program};
    use crate::format::exec_sat;
    use d3dbc::token::DeclUsage;
    let vp = Program::new(vs)?;
    let pp = Program::new(ps)?;
    let links = crate::render::fetch::ps_links(Some(&pp));
    let name_of_ps_reg = |reg: usize| -> Option<String> {
        (0..d3dbc::regs::MAX_INPUTS as u16)
            .find(|&k| exec::input_reg(k) == reg)
            .map(|k| format!("v{k}"))
            .or_else(|| {
                (0..d3dbc::regs::MAX_TEXTURES as u16)
                    .find(|&k| exec::tex_reg(k) == reg)
                    .map(|k| format!("t{k}"))
            })
    };
    let (color, texc, fog) = (
        DeclUsage::Color as u8,
        DeclUsage::TexCoord as u8,
        DeclUsage::Fog as u8,
    );
    let mut out = Vec::with_capacity(links.len());
    for link in &links {
        let val = if vs.version.major >= 3 {
            vp.outputs
                .iter()
                .find(|s| s.usage == link.usage && s.index == link.index)
                .and_then(|s| vs_out.get(&format!("o{}", s.reg - exec::out_reg(0))))
        } else if link.usage == color && link.index < 2 {
            vs_out
                .get(&format!("oD{}", link.index))
                .map(|v| v.map(exec_sat))
        } else if link.usage == texc && link.index < 8 {
            vs_out.get(&format!("oT{}", link.index))
        } else if link.usage == fog {
            vs_out.get("oFog").map(|v| v.map(exec_sat))
        } else {
            None
        };
        let v = val.unwrap_or_else(|| d3dbc::regs::unwritten_varying(link.usage, link.index));
        if let Some(name) = name_of_ps_reg(link.ps_reg) {
            out.push((name, v));
        }
    }
    Ok(out)
}
