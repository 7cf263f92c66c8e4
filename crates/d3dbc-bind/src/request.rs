//! What the methods take and give, converted from and to JSON: constant values by
//! register name, run, render and assembly requests, run outputs and pictures.

use std::collections::BTreeMap;
use std::sync::Arc;

use d3dbc::regs;
use d3dbc::token::RegisterType;
use d3dbc_exec::draw::Texture;
use d3dbc_exec::Inputs;
use serde::{Deserialize, Serialize};

use crate::Error;

/// Constants by register name (`c0`, `i3`, `b1`): float and int registers take one to
/// four numbers (missing components 0), bool registers `true`/`false` (or a number).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(transparent)]
pub struct ConstantValues(BTreeMap<String, serde_json::Value>);

impl ConstantValues {
    /// Checks every register against `version` (the register file's size in that
    /// version, as `d3dbc run --const` checks it) and appends the values to `inputs`.
    pub(crate) fn feed(&self, version: d3dbc::Version, inputs: &mut Inputs) -> Result<(), Error> {
        self.check(&[version])?;
        self.feed_unchecked(inputs);
        Ok(())
    }

    /// Register file and number of `name`.
    fn parse_name(name: &str) -> Result<(RegisterType, usize), Error> {
        let (t, rest) = match name.trim().split_at_checked(1) {
            Some(("c", r)) => (RegisterType::Const, r),
            Some(("i", r)) => (RegisterType::ConstInt, r),
            Some(("b", r)) => (RegisterType::ConstBool, r),
            _ => {
                return Err(Error::argument(format!(
                    "constant `{name}`: expected cN, iN or bN"
                )))
            }
        };
        let n = rest
            .parse::<usize>()
            .map_err(|_| Error::argument(format!("constant `{name}`: expected cN, iN or bN")))?;
        Ok((t, n))
    }

    /// The numbers of one value (a number, a bool, or a list of 1–4 of them).
    fn numbers(name: &str, v: &serde_json::Value) -> Result<Vec<f64>, Error> {
        let one = |x: &serde_json::Value| -> Option<f64> {
            x.as_f64()
                .or_else(|| x.as_bool().map(|b| if b { 1.0 } else { 0.0 }))
        };
        let out: Option<Vec<f64>> = match v {
            serde_json::Value::Array(a) => a.iter().map(one).collect(),
            x => one(x).map(|x| vec![x]),
        };
        match out {
            Some(o) if !o.is_empty() && o.len() <= 4 => Ok(o),
            _ => Err(Error::argument(format!(
                "constant {name}: expected 1 to 4 numbers, got {v}"
            ))),
        }
    }

    /// Checks names, value shapes and that each register exists in one of `versions`
    /// (the shaders the values go to; `render` with a vertex shader has two), as `d3dbc
    /// run --const` and `render --const` check them.
    pub(crate) fn check(&self, versions: &[d3dbc::Version]) -> Result<(), Error> {
        for (name, v) in &self.0 {
            let (t, n) = Self::parse_name(name)?;
            Self::numbers(name, v)?;
            let count = |v: &d3dbc::Version| regs::file(*v, t).map_or(0, |f| f.asm_count) as usize;
            if versions.iter().any(|v| n < count(v)) {
                continue;
            }
            let prefix = &name.trim()[..1];
            let have: Vec<String> = versions
                .iter()
                .map(|v| match count(v) {
                    0 => format!("{v} has no {prefix}# registers"),
                    k => format!("{v} has {prefix}0–{prefix}{}", k - 1),
                })
                .collect();
            return Err(Error::argument(format!(
                "constant {name}: out of range ({})",
                have.join("; ")
            )));
        }
        Ok(())
    }

    /// Appends the values (already checked) to `inputs`.
    pub(crate) fn feed_unchecked(&self, inputs: &mut Inputs) {
        for (name, v) in &self.0 {
            let (Ok((t, n)), Ok(nums)) = (Self::parse_name(name), Self::numbers(name, v)) else {
                continue;
            };
            match t {
                RegisterType::ConstInt => {
                    let mut x = [0i32; 4];
                    for (d, s) in x.iter_mut().zip(&nums) {
                        *d = *s as i32;
                    }
                    inputs.ints.push((n, x));
                }
                RegisterType::ConstBool => inputs.bools.push((n, nums[0] != 0.0)),
                _ => {
                    let mut x = [0f32; 4];
                    for (d, s) in x.iter_mut().zip(&nums) {
                        *d = *s as f32;
                    }
                    inputs.floats.push((n, x));
                }
            }
        }
    }
}

fn yes() -> bool {
    true
}

/// What [`Shader::run`](crate::Shader::run) takes.
#[derive(Clone, Debug, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RunRequest {
    /// Input registers (`v0`, `t0`) → 1–4 values (missing components `(0, 0, 0, 1)`).
    pub inputs: BTreeMap<String, Vec<f32>>,
    /// Constants (`c0`, `i0`, `b0`).
    pub constants: ConstantValues,
    /// Record every executed instruction.
    pub trace: bool,
    /// Refuse a shader the runtime rejects (default true).
    #[serde(default = "yes")]
    pub validate: bool,
}

impl Default for RunRequest {
    fn default() -> Self {
        RunRequest {
            inputs: BTreeMap::new(),
            constants: ConstantValues::default(),
            trace: false,
            validate: true,
        }
    }
}

impl RunRequest {
    /// Parses a request (`{"inputs": {...}, "constants": {...}, "trace": bool,
    /// "validate": bool}`); a malformed one is an [`ErrorKind::Argument`] error.
    ///
    /// [`ErrorKind::Argument`]: crate::ErrorKind::Argument
    pub fn from_json(json: &str) -> Result<RunRequest, Error> {
        serde_json::from_str(json).map_err(|e| Error::argument(format!("run: {e}")))
    }
}

/// What [`Shader::run`](crate::Shader::run) gives, as `d3dbc run --format json` prints it.
#[derive(Clone, Debug, Serialize)]
pub struct RunOutput {
    /// Output registers in order (`oC0`, `oDepth`; `oPos`, `oD0`, `oT0`/`o0`…).
    pub outputs: Vec<(String, [f32; 4])>,
    /// Pixel shaders: whether the pixel was discarded.
    pub killed: Option<bool>,
    /// The trace: each executed instruction as `dis` prints it and the value it wrote.
    pub trace: Vec<(String, Option<[f32; 4]>)>,
    /// The trace was cut after its first 65,536 steps.
    pub trace_truncated: bool,
}

impl RunOutput {
    /// As JSON: `{"outputs": {"oC0": [x, y, z, w], …}, "order": [names], "killed",
    /// "trace": [{"instruction", "value"}], "trace_truncated"}`.
    pub fn to_json(&self) -> String {
        let outputs: serde_json::Map<String, serde_json::Value> = self
            .outputs
            .iter()
            .map(|(n, v)| (n.clone(), serde_json::json!(v)))
            .collect();
        let order: Vec<&str> = self.outputs.iter().map(|(n, _)| n.as_str()).collect();
        let trace: Vec<serde_json::Value> = self
            .trace
            .iter()
            .map(|(t, v)| serde_json::json!({"instruction": t, "value": v}))
            .collect();
        serde_json::json!({
            "outputs": outputs,
            "order": order,
            "killed": self.killed,
            "trace": trace,
            "trace_truncated": self.trace_truncated,
        })
        .to_string()
    }
}

/// What [`Shader::render`](crate::Shader::render) takes.
#[derive(Clone, Debug, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RenderRequest {
    /// Width in pixels (default 256, as `d3dbc render`).
    pub width: u32,
    /// Height in pixels (default 256).
    pub height: u32,
    /// Constants (`c0`, `i0`, `b0`) for both stages.
    pub constants: ConstantValues,
    /// Refuse shaders the runtime rejects (default true).
    pub validate: bool,
    /// Textures by sampler stage (set with [`RenderRequest::texture`]; not JSON).
    #[serde(skip)]
    pub textures: Vec<(usize, Arc<Texture>)>,
}

impl Default for RenderRequest {
    fn default() -> Self {
        RenderRequest {
            width: 256,
            height: 256,
            constants: ConstantValues::default(),
            validate: true,
            textures: Vec::new(),
        }
    }
}

impl RenderRequest {
    /// Parses a request (`{"width", "height", "constants", "validate"}`).
    pub fn from_json(json: &str) -> Result<RenderRequest, Error> {
        serde_json::from_str(json).map_err(|e| Error::argument(format!("render: {e}")))
    }

    /// Binds an RGBA8 image (rows top to bottom) to sampler stage `stage` (0–15).
    pub fn texture(
        &mut self,
        stage: usize,
        width: u32,
        height: u32,
        rgba: &[u8],
    ) -> Result<(), Error> {
        if stage >= regs::VERTEX_SAMPLER_BASE {
            return Err(Error::argument(format!(
                "texture s{stage}: expected s0…s{}",
                regs::VERTEX_SAMPLER_BASE - 1
            )));
        }
        let t = Texture::from_rgba8(width, height, rgba).ok_or_else(|| {
            Error::argument(format!(
                "texture s{stage}: {} bytes is not {width}x{height} RGBA8 ({} bytes)",
                rgba.len(),
                u64::from(width) * u64::from(height) * 4
            ))
        })?;
        self.textures.retain(|(s, _)| *s != stage);
        self.textures.push((stage, Arc::new(t)));
        Ok(())
    }
}

/// A picture: RGBA8, rows top to bottom.
#[derive(Clone, Debug, PartialEq)]
pub struct Picture {
    /// Width.
    pub width: u32,
    /// Height.
    pub height: u32,
    /// `width × height × 4` bytes.
    pub rgba: Vec<u8>,
}

/// Assembly options: `-D`, `-I`, `--no-validate`, `--raw` of `d3dbc asm`.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct AsmRequest {
    /// Macros (`NAME` → value; `null` or `""` defines it empty).
    pub defines: BTreeMap<String, Option<String>>,
    /// Include directories.
    pub include_dirs: Vec<std::path::PathBuf>,
    /// Skip the runtime validator (`--no-validate`).
    pub no_validate: bool,
    /// Raw mode (`--raw`).
    pub raw: bool,
    /// The file name diagnostics show (default `input`).
    pub file_name: Option<String>,
}

impl AsmRequest {
    /// Parses options (`{"defines", "include_dirs", "no_validate", "raw", "file_name"}`;
    /// `""` for the defaults).
    pub fn from_json(json: &str) -> Result<AsmRequest, Error> {
        if json.trim().is_empty() {
            return Ok(AsmRequest::default());
        }
        serde_json::from_str(json).map_err(|e| Error::argument(format!("assemble: {e}")))
    }
}
