//! The front door: run one shader from Rust without building a [`Draw`].
//! [`run_pixel`] shades one 2×2 pixel quad, [`run_vertex`] one vertex (four lanes fed
//! alike), each with the [`Inputs`] given (input registers, constants over the CTAB
//! defaults, textures), and returns the shader's [`Outputs`] at lane 0, with an
//! instruction trace on request; [`render()`] draws a [`Draw`] into an
//! [`Image`]. `d3dbc run` is this module with a command line around it.
//!
//! ```
//! use d3dbc_exec::{run_pixel, Inputs};
//!
//! let shader = d3dbc::asm::assemble(
//!     "ps_2_0\ndcl t0.xy\ndef c1, 0.5, 0.5, 0.5, 0.5\nmul r0, t0, c1\nadd oC0, r0, c0\n",
//!     &Default::default(),
//! ).unwrap();
//! let inputs = Inputs::default()
//!     .input("t0", [0.5, 1.0, 0.0, 1.0])
//!     .constant(0, [0.0, 0.0, 0.0, 1.0]);
//! let out = run_pixel(&shader, &inputs).unwrap();
//! assert_eq!(out.get("oC0"), Some([0.25, 0.5, 0.0, 1.5]));
//! assert_eq!(out.killed, Some(false));
//! ```

use std::sync::Arc;

use d3dbc::regs::{self, SAMPLER_STAGES};
use d3dbc::token::{DeclUsage, SamplerType};
use d3dbc::Shader;

use crate::draw::{self, Draw, Op, Scene, TargetDesc, Texture, TextureKind};
use crate::exec::{self, Env, ExecError, Lanes, Program, Stage};
use crate::render::{Image, Options, RenderError, Renderer};
use crate::texture::{Decoded, TextureError};
use crate::{quick, trace};

/// What one invocation starts from: the scene `d3dbc render` draws
/// ([`quick::fullscreen`]), at its top-left corner `(u, v) = (0, 0)`, unless set here.
/// Unset inputs read what that scene feeds ([`quick::scene_input`]): colours (`v0`/`v1`
/// before ps_3_0, `COLOR` inputs) white, normals `(0, 0, 1, 0)`, texture coordinates
/// and anything else `(0, 0, 0, 1)`, a vertex shader's `POSITION0` the clip-space
/// corner `(-1, 1, 0.5, 1)`. Float constants start at the shader's CTAB defaults, those
/// the CTAB declares without one at 1 ([`quick::neutral_undefaulted_constants`]), the
/// rest at 0; then `floats` applies. Samplers without a texture get a 32×32
/// checkerboard of their type; all sample with linear filtering, as in the scene.
#[derive(Clone, Debug, Default)]
pub struct Inputs {
    /// Input registers by name: `v0`–`v15`, and `t0`–`t9` in pixel shaders.
    pub registers: Vec<(String, [f32; 4])>,
    /// Float constants `c#` written over the CTAB defaults.
    pub floats: Vec<(usize, [f32; 4])>,
    /// Integer constants `i#` (0 unless set; `defi` in the shader wins).
    pub ints: Vec<(usize, [i32; 4])>,
    /// Boolean constants `b#` (false unless set; `defb` in the shader wins).
    pub bools: Vec<(usize, bool)>,
    /// Textures by sampler stage (0–15 pixel, 16–19 vertex samplers).
    pub textures: Vec<(usize, Arc<Texture>)>,
    /// Record every executed instruction ([`Outputs::trace`]).
    pub trace: bool,
    /// Instruction budget (default [`crate::render::DEFAULT_BUDGET`] when 0).
    pub budget: u64,
}

impl Inputs {
    /// Sets input register `name` (`v0`, `t1`).
    pub fn input(mut self, name: &str, value: [f32; 4]) -> Self {
        self.registers.push((name.to_string(), value));
        self
    }

    /// Sets float constant `c{n}`.
    pub fn constant(mut self, n: usize, value: [f32; 4]) -> Self {
        self.floats.push((n, value));
        self
    }

    /// Sets integer constant `i{n}`.
    pub fn int(mut self, n: usize, value: [i32; 4]) -> Self {
        self.ints.push((n, value));
        self
    }

    /// Sets boolean constant `b{n}`.
    pub fn bool(mut self, n: usize, value: bool) -> Self {
        self.bools.push((n, value));
        self
    }

    /// Binds a texture to sampler stage `stage`.
    pub fn texture(mut self, stage: usize, texture: Texture) -> Self {
        self.textures.push((stage, Arc::new(texture)));
        self
    }

    /// Records a trace.
    pub fn traced(mut self) -> Self {
        self.trace = true;
        self
    }

    /// Writes the float, int and bool constants set here over `c` (what `run` does over
    /// the CTAB defaults, and `render` over both stages' constant files).
    pub fn apply_constants(&self, c: &mut draw::Constants) {
        for (n, v) in &self.floats {
            c.set_float_bits(*n, &v.map(f32::to_bits));
        }
        for (n, v) in &self.ints {
            c.set_int(*n, v);
        }
        for &(n, v) in &self.bools {
            if c.bool.len() <= n {
                c.bool.resize(n + 1, false);
            }
            c.bool[n] = v;
        }
    }
}

/// One executed instruction as `dis` prints it (indented by its depth in the listing)
/// and the value it wrote at lane 0 (`None`: lane inactive, or no register written).
pub type TraceStep = (String, Option<[f32; 4]>);

/// What one invocation produced, at lane 0.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Outputs {
    /// Output registers by name, in order: pixel shaders `oC#` (`r0` in ps_1_x) then
    /// `oDepth`; vertex shaders `oPos`, `oD#`, `oFog`, `oPts`, `oT#` (`o#` in vs_3_0).
    pub values: Vec<(String, [f32; 4])>,
    /// Pixel shaders: whether the pixel was discarded (`texkill`).
    pub killed: Option<bool>,
    /// The trace, when [`Inputs::trace`] was set.
    pub trace: Vec<TraceStep>,
    /// The trace reached [`exec::TRACE_LIMIT`] steps and dropped the rest.
    pub trace_truncated: bool,
}

impl Outputs {
    /// The value of output register `name` (`oC0`, `oPos`, `o1`).
    pub fn get(&self, name: &str) -> Option<[f32; 4]> {
        self.values.iter().find(|(n, _)| n == name).map(|(_, v)| *v)
    }
}

/// Why an invocation failed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum RunError {
    /// [`run_pixel`] got a vertex shader or [`run_vertex`] a pixel shader.
    #[error("expected a {expected} shader, got {found}")]
    WrongStage {
        /// `pixel` or `vertex`.
        expected: &'static str,
        /// The shader's version.
        found: d3dbc::Version,
    },
    /// An input register the shader's version does not have.
    #[error("no input register {name} in {version} (v0–v15{})", if version.is_pixel() { ", t0–t9" } else { "" })]
    UnknownInput {
        /// The name given.
        name: String,
        /// The shader's version.
        version: d3dbc::Version,
    },
    /// A texture could not be decoded.
    #[error("sampler {stage}: {error}")]
    Texture {
        /// The stage.
        stage: usize,
        /// Why.
        error: TextureError,
    },
    /// The executor stopped (the shader cannot be executed, or its instruction budget
    /// ran out); `trace` holds the steps up to there when a trace was asked for.
    #[error("{error}")]
    Exec {
        /// Why.
        error: ExecError,
        /// The trace so far.
        trace: Vec<TraceStep>,
        /// The trace was cut at [`exec::TRACE_LIMIT`] steps.
        trace_truncated: bool,
    },
}

/// The lane register of input `name` (`v#`, and `t#` in pixel shaders).
fn input_register(name: &str, pixel: bool) -> Option<(usize, Option<u16>)> {
    let n = |p: &str| name.strip_prefix(p).and_then(|x| x.parse::<u16>().ok());
    if let Some(k) = n("v").filter(|k| (*k as usize) < regs::MAX_INPUTS) {
        return Some((exec::input_reg(k), None));
    }
    n("t")
        .filter(|k| pixel && (*k as usize) < regs::MAX_TEXTURES)
        .map(|k| (exec::tex_reg(k), Some(k)))
}

/// Runs pixel shader `shader` on one 2×2 quad, every pixel fed `inputs`.
pub fn run_pixel(shader: &Shader, inputs: &Inputs) -> Result<Outputs, RunError> {
    if !shader.version.is_pixel() {
        return Err(RunError::WrongStage {
            expected: "pixel",
            found: shader.version,
        });
    }
    invoke(shader, inputs)
}

/// Runs vertex shader `shader` once (four lanes fed `inputs` alike).
///
/// ```
/// use d3dbc_exec::{run_vertex, Inputs};
///
/// let vs = d3dbc::asm::assemble(
///     "vs_2_0\ndcl_position v0\nmul oPos, v0, c0\n",
///     &Default::default(),
/// ).unwrap();
/// let out = run_vertex(&vs, &Inputs::default()
///     .input("v0", [1.0, 2.0, 3.0, 1.0])
///     .constant(0, [2.0, 2.0, 2.0, 1.0])).unwrap();
/// assert_eq!(out.get("oPos"), Some([2.0, 4.0, 6.0, 1.0]));
/// ```
pub fn run_vertex(shader: &Shader, inputs: &Inputs) -> Result<Outputs, RunError> {
    if !shader.version.is_vertex() {
        return Err(RunError::WrongStage {
            expected: "vertex",
            found: shader.version,
        });
    }
    invoke(shader, inputs)
}

fn invoke(shader: &Shader, inputs: &Inputs) -> Result<Outputs, RunError> {
    let exec_err = |error| RunError::Exec {
        error,
        trace: Vec::new(),
        trace_truncated: false,
    };
    let pixel = shader.version.is_pixel();
    // Checked before anything runs.
    let mut regs = Vec::with_capacity(inputs.registers.len());
    for (name, v) in &inputs.registers {
        let reg = input_register(name.trim(), pixel).ok_or_else(|| RunError::UnknownInput {
            name: name.clone(),
            version: shader.version,
        })?;
        regs.push((reg, *v));
    }
    let prog = Program::new(shader).map_err(exec_err)?;
    let mut consts = quick::ctab_defaults(shader);
    quick::neutral_undefaulted_constants(shader, &mut consts);
    inputs.apply_constants(&mut consts);
    let opts = Options::default();
    let budget = if inputs.budget == 0 {
        opts.budget
    } else {
        inputs.budget
    };
    let cf = prog.constants(&consts, &opts.sem);
    let mut decoded: Vec<Option<Decoded>> = Vec::with_capacity(SAMPLER_STAGES);
    for s in 0..SAMPLER_STAGES {
        let Some(kind) = prog.samplers[s] else {
            decoded.push(None);
            continue;
        };
        let kind = match kind {
            SamplerType::Cube => TextureKind::Cube,
            SamplerType::Volume => TextureKind::Volume,
            _ => TextureKind::Tex2d,
        };
        let t = inputs
            .textures
            .iter()
            .rev()
            .find(|(n, _)| *n == s)
            .map(|(_, t)| (**t).clone())
            .unwrap_or_else(|| quick::checkerboard(kind, 32));
        decoded.push(Some(
            Decoded::new(&t).map_err(|error| RunError::Texture { stage: s, error })?,
        ));
    }
    let stages: Vec<Stage> = decoded
        .iter()
        .map(|d| Stage {
            tex: d.as_ref(),
            state: draw::SamplerState {
                min_filter: draw::Filter::Linear,
                mag_filter: draw::Filter::Linear,
                ..draw::SamplerState::default()
            },
            tss: draw::TextureStage::default(),
            projection: 0,
        })
        .collect();
    let env = Env {
        consts: &cf,
        stages: &stages,
        sem: &opts.sem,
        budget,
        perturb: 0.0,
    };
    let mut lanes = Lanes::default();
    lanes.reset();
    let fill = |lanes: &mut Lanes, reg: usize, v: [f32; 4]| {
        for l in 0..exec::LANES {
            lanes.set(reg, l, v);
        }
    };
    for r in 0..regs::MAX_INPUTS as u16 {
        fill(&mut lanes, exec::input_reg(r), [0.0, 0.0, 0.0, 1.0]);
        if pixel && (r as usize) < regs::MAX_TEXTURES {
            fill(&mut lanes, exec::tex_reg(r), [0.0, 0.0, 0.0, 1.0]);
            fill(&mut lanes, exec::tc_reg(r), [0.0, 0.0, 0.0, 1.0]);
        }
    }
    // The full-screen scene at (u, v) = (0, 0).
    if pixel && !shader.version.declares_varyings() {
        fill(&mut lanes, exec::input_reg(0), [1.0; 4]);
        fill(&mut lanes, exec::input_reg(1), [1.0; 4]);
    }
    for s in &prog.inputs {
        let position0 = s.usage == DeclUsage::Position as u8 && s.index == 0;
        let v = if !pixel && position0 {
            [-1.0, 1.0, 0.5, 1.0]
        } else {
            quick::scene_input(s.usage, 0.0, 0.0)
        };
        fill(&mut lanes, s.reg, v);
    }
    for ((reg, tex), v) in regs {
        for l in 0..exec::LANES {
            lanes.set(reg, l, v);
            if let Some(k) = tex {
                lanes.set(exec::tc_reg(k), l, v);
            }
        }
    }
    if inputs.trace {
        lanes.trace = Some(Vec::new());
    }
    if let Err(error) = exec::run(&prog, &mut lanes, &env, 0xF) {
        return Err(RunError::Exec {
            error,
            trace: trace::steps(&prog, &lanes.trace.take().unwrap_or_default()),
            trace_truncated: lanes.trace_truncated,
        });
    }
    let mut values: Vec<(String, [f32; 4])> = Vec::new();
    let v = shader.version;
    if pixel {
        if v.is_ps_1_x() {
            values.push(("r0".into(), lanes.get(exec::temp_reg(0), 0)));
        } else {
            for c in 0..prog.color_outputs.max(1) {
                values.push((format!("oC{c}"), lanes.get(exec::color_reg(c as u16), 0)));
            }
        }
        if prog.writes_depth {
            values.push(("oDepth".into(), lanes.get(exec::DEPTH, 0)));
        }
    } else if v.declares_varyings() {
        for s in &prog.outputs {
            values.push((
                format!("o{}", s.reg - exec::out_reg(0)),
                lanes.get(s.reg, 0),
            ));
        }
    } else {
        values.push(("oPos".into(), lanes.get(exec::POS, 0)));
        for (name, r) in [
            ("oD0", exec::attr_reg(0)),
            ("oD1", exec::attr_reg(1)),
            ("oFog", exec::FOG),
            ("oPts", exec::PTS),
        ] {
            if prog.writes[r] {
                values.push((name.into(), lanes.get(r, 0)));
            }
        }
        for k in 0..regs::MAX_OUTPUTS as u16 {
            if prog.writes[exec::out_reg(k)] {
                values.push((format!("oT{k}"), lanes.get(exec::out_reg(k), 0)));
            }
        }
    }
    Ok(Outputs {
        values,
        killed: pixel.then_some(lanes.killed & 1 != 0),
        trace: trace::steps(&prog, &lanes.trace.take().unwrap_or_default()),
        trace_truncated: lanes.trace_truncated,
    })
}

/// Draws `draw` into its first render target (A8R8G8B8, the viewport's size, cleared
/// to opaque black, as [`quick::fullscreen`]'s target), on the CPU reference executor.
///
/// ```
/// use d3dbc_exec::{quick, render, Op};
///
/// let ps = d3dbc::asm::assemble("ps_2_0\ndef c0, 1, 0.5, 0, 1\nmov oC0, c0\n", &Default::default())
///     .unwrap()
///     .encode();
/// let scene = quick::fullscreen(&ps, None, 4, 4, &[]).unwrap();
/// let Op::Draw(draw) = &scene.ops[0] else { unreachable!() };
/// let image = render(draw).unwrap();
/// assert_eq!((image.width, image.height), (4, 4));
/// assert_eq!(&image.to_rgba8()[..4], &[255, 128, 0, 255]);
/// ```
pub fn render(draw: &Draw) -> Result<Image, RenderError> {
    let scene = Scene {
        targets: vec![TargetDesc {
            width: draw.viewport.width,
            height: draw.viewport.height,
            format: draw::Format::A8R8G8B8,
            initial: [0.0, 0.0, 0.0, 1.0],
        }],
        depth: None,
        ops: vec![Op::Draw(Box::new(draw.clone()))],
    };
    let mut r = Renderer::run_scene(&scene, Options::default(), None, |_, _| {})?;
    Ok(r.targets.swap_remove(0))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn asm(t: &str) -> Shader {
        d3dbc::asm::assemble(t, &Default::default()).unwrap()
    }

    #[test]
    fn wrong_stage_and_unknown_inputs_are_typed_errors() {
        let vs = asm("vs_2_0\ndcl_position v0\nmov oPos, v0\n");
        assert!(matches!(
            run_pixel(&vs, &Inputs::default()),
            Err(RunError::WrongStage {
                expected: "pixel",
                ..
            })
        ));
        // t# are pixel-shader inputs only.
        let e = run_vertex(&vs, &Inputs::default().input("t0", [0.0; 4])).unwrap_err();
        assert!(matches!(e, RunError::UnknownInput { .. }), "{e}");
    }

    #[test]
    fn an_exhausted_budget_returns_the_trace_so_far() {
        let ps = asm(
            "ps_3_0\ndefi i0, 255, 0, 0, 0\ndef c0, 1, 1, 1, 1\nmov r0, c0\nrep i0\n\
             add r0, r0, c0\nendrep\nmov oC0, r0\n",
        );
        let inputs = Inputs {
            budget: 100,
            ..Inputs::default().traced()
        };
        let Err(RunError::Exec { error, trace, .. }) = run_pixel(&ps, &inputs) else {
            panic!("the budget of 100 runs out")
        };
        assert!(matches!(error, ExecError::Budget { budget: 100, .. }));
        assert!(trace.len() >= 90, "{}", trace.len());
        assert_eq!(trace[0].0, "mov r0, c0");
    }
}
