//! Ready-made work for one shader: a full-screen draw of a pixel shader with sensible
//! defaults (texture coordinates `(u, v, 0, 1)`, white colours, normal `(0, 0, 1)`,
//! checkerboards in unset samplers, constants from the CTAB defaults), and a single
//! vertex-shader invocation over generated inputs. Used by the CLI's `run`/`render`
//! and by the corpus-wide execution test.

use std::sync::Arc;

use d3dbc::regs::{SAMPLER_STAGES, VERTEX_SAMPLER_BASE};
use d3dbc::token::{DeclUsage, SamplerType};
use d3dbc::Shader;

use crate::draw::*;
use crate::exec::{self, ExecError, Lanes, Program};

/// Why [`fullscreen`] could not build its scene.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum QuickError {
    /// A shader's tokens do not decode.
    #[error("{stage}: {error}")]
    Decode {
        /// `pixel shader` or `vertex shader`.
        stage: &'static str,
        /// Why.
        error: d3dbc::DecodeError,
    },
    /// The executor cannot run a shader.
    #[error("{stage}: {error}")]
    Program {
        /// `pixel shader` or `vertex shader`.
        stage: &'static str,
        /// Why.
        error: ExecError,
    },
    /// A shader of the wrong kind was given for a stage.
    #[error("the {stage} is {found}")]
    WrongStage {
        /// `pixel shader` or `vertex shader`: the stage.
        stage: &'static str,
        /// The version found.
        found: d3dbc::Version,
    },
}

/// Decodes and translates one stage's shader.
fn stage(tokens: &[u32], stage: &'static str) -> Result<(Shader, Program), QuickError> {
    let sh = Shader::decode(tokens).map_err(|error| QuickError::Decode { stage, error })?;
    if sh.version.is_pixel() != (stage == "pixel shader") {
        return Err(QuickError::WrongStage {
            stage,
            found: sh.version,
        });
    }
    let p = Program::new(&sh).map_err(|error| QuickError::Program { stage, error })?;
    Ok((sh, p))
}

/// A `size`×`size` RGBA8 checkerboard of 8×8 cells (2D, cube faces or volume slices).
/// Cube faces have a one-texel grey border: filtering across a face edge (D3D9 leaves it
/// to the hardware: within the face under the address mode here, seamless across faces
/// on Vulkan) then reads the same colour either way.
pub fn checkerboard(kind: TextureKind, size: u32) -> Texture {
    let (faces, depth) = match kind {
        TextureKind::Tex2d => (1, 1),
        TextureKind::Cube => (6, 1),
        TextureKind::Volume => (1, size),
    };
    let mut data = Vec::with_capacity((size * size * faces * depth * 4) as usize);
    for f in 0..faces * depth {
        for y in 0..size {
            for x in 0..size {
                let on = ((x / 8) + (y / 8) + f) % 2 == 0;
                let border = x == 0 || y == 0 || x == size - 1 || y == size - 1;
                let c: [u8; 4] = if kind == TextureKind::Cube && border {
                    [0x80, 0x80, 0x80, 0xFF]
                } else if on {
                    [0xE0, 0xE0, 0xE0, 0xFF]
                } else {
                    [0x40, 0x40, 0x40, 0xFF]
                };
                data.extend_from_slice(&c);
            }
        }
    }
    Texture {
        kind,
        format: Format::A8R8G8B8,
        width: size,
        height: size,
        depth,
        levels: 1,
        data,
    }
}

/// The CTAB default values of a shader's float constants (raw bits, by register).
pub fn ctab_defaults(shader: &Shader) -> Constants {
    let mut c = Constants::default();
    apply_ctab_defaults(shader, &mut c);
    c
}

/// Writes the CTAB default values of a shader's float constants over `c`, leaving the
/// registers without a default as they are.
pub fn apply_ctab_defaults(shader: &Shader, c: &mut Constants) {
    if let Some(Ok(ctab)) = shader.ctab() {
        for k in &ctab.constants {
            if let Some(def) = &k.default_value {
                if k.register_set == d3dbc::ctab::RegisterSet::Float4 {
                    let n = (k.register_count as usize * 4).min(def.len());
                    c.set_float_bits(k.register_index as usize, &def[..n]);
                }
            }
        }
    }
}

/// Gives the float constants that `shader`'s CTAB declares without a default value the
/// value 1 (a neutral tint or scale, so that a preview shows what the shader samples),
/// leaving registers that already hold something as they are. `d3dbc render` and the
/// web page start their constants this way, before the CTAB defaults' and the user's.
pub fn neutral_undefaulted_constants(shader: &Shader, c: &mut Constants) {
    if let Some(Ok(ctab)) = shader.ctab() {
        for k in &ctab.constants {
            if k.default_value.is_none() && k.register_set == d3dbc::ctab::RegisterSet::Float4 {
                for r in 0..k.register_count as usize {
                    let reg = k.register_index as usize + r;
                    if c.float.get(reg).is_none_or(|v| *v == [0; 4]) {
                        c.set_float_bits(reg, &[1f32.to_bits(); 4]);
                    }
                }
            }
        }
    }
}

/// The value the full-screen scene ([`fullscreen`], `d3dbc render`, and `d3dbc run`
/// through [`crate::run_pixel`]/[`crate::run_vertex`] at `(u, v) = (0, 0)`) feeds an
/// input of `D3DDECLUSAGE` `usage` at texture coordinate `(u, v)`: colours white,
/// normals `(0, 0, 1, 0)`, anything else `(u, v, 0, 1)`.
pub fn scene_input(usage: u8, u: f32, v: f32) -> [f32; 4] {
    if usage == DeclUsage::Color as u8 {
        [1.0, 1.0, 1.0, 1.0]
    } else if usage == DeclUsage::Normal as u8 {
        [0.0, 0.0, 1.0, 0.0]
    } else {
        [u, v, 0.0, 1.0]
    }
}

/// A full-screen draw of pixel shader `ps` (tokens) into a `w`×`h` A8R8G8B8 target
/// without a vertex shader. Samplers the shader uses get a checkerboard of the declared
/// type unless `textures` binds one (by stage: 0–15 pixel, 16–19 vertex samplers).
///
/// With `vs`, the vertex shader's declared inputs are fed instead: positions in clip
/// space covering the viewport, texture coordinates `(u, v, 0, 1)`, white colours,
/// normal `(0, 0, 1)`; its constants start from its CTAB defaults.
pub fn fullscreen(
    ps: &[u32],
    vs: Option<&[u32]>,
    w: u32,
    h: u32,
    textures: &[(usize, Arc<Texture>)],
) -> Result<Scene, QuickError> {
    fullscreen_with(ps, vs, w, h, textures, false)
}

/// The scene `d3dbc render` draws, as the playground and the Python and JavaScript
/// packages draw it too: [`fullscreen`] (textures from `set.textures`) with the float
/// constants the pixel shader's CTAB declares without a default at 1
/// ([`neutral_undefaulted_constants`]), then `set`'s float, int and bool constants
/// written into both stages' constant files ([`crate::Inputs::apply_constants`]).
/// `set.registers` and `set.trace` play no part. One recipe for every front end.
pub fn preview(
    ps: &[u32],
    vs: Option<&[u32]>,
    w: u32,
    h: u32,
    set: &crate::Inputs,
) -> Result<Scene, QuickError> {
    let mut scene = fullscreen_with(ps, vs, w, h, &set.textures, true)?;
    if let Some(Op::Draw(d)) = scene.ops.first_mut() {
        set.apply_constants(&mut d.ps_constants);
        set.apply_constants(&mut d.vs_constants);
    }
    Ok(scene)
}

fn fullscreen_with(
    ps: &[u32],
    vs: Option<&[u32]>,
    w: u32,
    h: u32,
    textures: &[(usize, Arc<Texture>)],
    neutral: bool,
) -> Result<Scene, QuickError> {
    let (shader, prog) = stage(ps, "pixel shader")?;
    let vs_prog = vs.map(|t| stage(t, "vertex shader")).transpose()?;
    let mut d = Draw::new(Primitive::TriangleStrip, 4);
    d.viewport.width = w;
    d.viewport.height = h;
    d.render_states.cull = Cull::None;
    d.ps = Some(ps.to_vec());
    d.ps_constants = ctab_defaults(&shader);
    if neutral {
        neutral_undefaulted_constants(&shader, &mut d.ps_constants);
    }
    // Vertex layout: POSITIONT then one float4 per semantic the shader reads.
    let mut sems: Vec<(u8, u8)> = Vec::new();
    if let Some((_, vp)) = &vs_prog {
        for s in &vp.inputs {
            // POSITION0 is the clip-space position fed below; POSITION1.. are ordinary
            // inputs.
            if s.usage != DeclUsage::Position as u8 || s.index != 0 {
                sems.push((s.usage, s.index));
            }
        }
    } else if !prog.version.is_ps_1_x() {
        for s in &prog.inputs {
            sems.push((s.usage, s.index));
        }
    } else {
        // ps_1_x reads the fixed varyings (FOG feeds the fog stage).
        for &(usage, index) in &d3dbc::regs::FIXED_VARYINGS {
            if usage != DeclUsage::Fog {
                sems.push((usage as u8, index));
            }
        }
    }
    let mut decl = vec![VertexElement::float4(0, DeclUsage::PositionT as u8, 0)];
    for (k, &(usage, index)) in sems.iter().enumerate() {
        decl.push(VertexElement::float4(16 + 16 * k as u16, usage, index));
    }
    let stride = 16 + 16 * sems.len() as u32;
    let mut data = Vec::new();
    for (x, y) in [
        (0.0f32, 0.0f32),
        (w as f32, 0.0),
        (0.0, h as f32),
        (w as f32, h as f32),
    ] {
        let (u, v) = (x / w as f32, y / h as f32);
        let mut vals = if vs_prog.is_some() {
            vec![[2.0 * u - 1.0, 1.0 - 2.0 * v, 0.5, 1.0]]
        } else {
            vec![[x, y, 0.5, 1.0]]
        };
        for (usage, _) in &sems {
            vals.push(scene_input(*usage, u, v));
        }
        for v in vals {
            for f in v {
                data.extend_from_slice(&f.to_le_bytes());
            }
        }
    }
    if let Some((vsh, _)) = &vs_prog {
        decl[0].usage = DeclUsage::Position as u8;
        d.vs = vs.map(|t| t.to_vec());
        d.vs_constants = ctab_defaults(vsh);
    }
    d.vertex_declaration = decl;
    d.streams = vec![VertexStream {
        stream: 0,
        stride,
        data,
    }];
    // Textures: explicit, else a checkerboard of the declared type (2D before SM2); the
    // vertex shader's declared samplers s0..s3 (D3DVERTEXTEXTURESAMPLER0..3, stages
    // 16..19) likewise.
    let kind = |t: Option<SamplerType>| match t {
        Some(SamplerType::Cube) => TextureKind::Cube,
        Some(SamplerType::Volume) => TextureKind::Volume,
        _ => TextureKind::Tex2d,
    };
    let vs_samplers = vs_prog
        .as_ref()
        .map_or([None; d3dbc::regs::VERTEX_SAMPLERS], |(_, vp)| {
            std::array::from_fn(|s| vp.samplers[s])
        });
    let stages = if vs_samplers.iter().any(Option::is_some) {
        SAMPLER_STAGES
    } else {
        VERTEX_SAMPLER_BASE
    };
    d.textures = vec![None; stages];
    for s in 0..VERTEX_SAMPLER_BASE {
        d.textures[s] = Some(Arc::new(checkerboard(kind(prog.samplers[s]), 32)));
    }
    for (s, t) in vs_samplers.into_iter().enumerate() {
        if t.is_some() {
            d.textures[VERTEX_SAMPLER_BASE + s] = Some(Arc::new(checkerboard(kind(t), 32)));
        }
    }
    for (s, t) in textures {
        if *s < stages {
            d.textures[*s] = Some(t.clone());
        }
    }
    d.samplers = vec![
        SamplerState {
            min_filter: Filter::Linear,
            mag_filter: Filter::Linear,
            ..SamplerState::default()
        };
        stages
    ];
    Ok(Scene {
        targets: vec![TargetDesc {
            width: w,
            height: h,
            format: Format::A8R8G8B8,
            initial: [0.0, 0.0, 0.0, 1.0],
        }],
        depth: None,
        ops: vec![Op::Draw(Box::new(d))],
    })
}

/// Generated input for vertex `lane`, register `reg`: small distinct values.
pub fn generated_input(reg: usize, lane: usize) -> [f32; 4] {
    let b = reg as f32 * 0.25 + lane as f32 * 0.125;
    [b - 0.5, 0.75 - b, b * 0.5, 1.0]
}

/// Runs a vertex shader once on four generated vertices; returns the lane state.
pub fn run_vertex(
    prog: &Program,
    consts: &Constants,
    sem: &d3dbc::Semantics,
    budget: u64,
) -> Result<Lanes, ExecError> {
    let cf = prog.constants(consts, sem);
    let env = exec::Env {
        consts: &cf,
        stages: &[],
        sem,
        budget,
        perturb: 0.0,
    };
    let mut lanes = Lanes::default();
    lanes.reset();
    for r in 0..16 {
        for l in 0..exec::LANES {
            lanes.set(exec::input_reg(r as u16), l, generated_input(r, l));
        }
    }
    exec::run(prog, &mut lanes, &env, 0xF)?;
    Ok(lanes)
}

/// A `width`×`height` draw of pre-transformed (`POSITIONT`) vertices, each with a float4
/// `COLOR0`, through a `ps_2_0` that writes the colour, culling off: the smallest scene
/// for rasterizer and output-merger states.
pub fn colour_draw(
    prim: Primitive,
    verts: &[([f32; 4], [f32; 4])],
    width: u32,
    height: u32,
) -> Draw {
    let mut d = Draw::new(prim, verts.len() as u32);
    d.viewport.width = width;
    d.viewport.height = height;
    d.render_states.cull = Cull::None;
    let ps = d3dbc::asm::assemble("ps_2_0\ndcl v0\nmov oC0, v0\n", &Default::default())
        .expect("fixed shader assembles");
    d.ps = Some(ps.encode());
    d.vertex_declaration = vec![
        VertexElement::float4(0, DeclUsage::PositionT as u8, 0),
        VertexElement::float4(16, DeclUsage::Color as u8, 0),
    ];
    let data = verts
        .iter()
        .flat_map(|(p, c)| p.iter().chain(c).flat_map(|v| v.to_le_bytes()))
        .collect();
    d.streams = vec![VertexStream {
        stream: 0,
        stride: 32,
        data,
    }];
    d
}

/// A clear of every target to `color`, depth to 1 and stencil to 0.
pub fn clear_all(color: [f32; 4]) -> Op {
    Op::Clear(Clear {
        target: None,
        color_enabled: true,
        color,
        depth_enabled: true,
        depth: 1.0,
        stencil_enabled: true,
        stencil: 0,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(t: &str) -> Vec<u32> {
        d3dbc::asm::assemble(t, &Default::default())
            .unwrap()
            .encode()
    }

    #[test]
    fn fullscreen_binds_the_vertex_shaders_samplers_and_position1() {
        let ps = tokens("ps_3_0\ndcl_texcoord v0\nmov oC0, v0\n");
        let vs = tokens(
            "vs_3_0\ndcl_position v0\ndcl_position1 v1\ndcl_2d s1\ndcl_position o0\n\
             dcl_texcoord o1\nmov o0, v0\ntexldl o1, v1, s1\n",
        );
        let scene = fullscreen(&ps, Some(&vs), 4, 4, &[]).unwrap();
        let Op::Draw(d) = &scene.ops[0] else {
            panic!("one draw")
        };
        // D3DVERTEXTEXTURESAMPLER1 is stage 17; s0, s2, s3 stay unbound.
        assert_eq!(d.textures.len(), 20);
        assert!(d.textures[17].is_some());
        assert!(d.textures[16].is_none() && d.textures[18].is_none());
        assert_eq!(d.samplers.len(), 20);
        // POSITION1 is fed like any other input.
        assert!(d
            .vertex_declaration
            .iter()
            .any(|e| e.usage == DeclUsage::Position as u8 && e.usage_index == 1));
    }
}
