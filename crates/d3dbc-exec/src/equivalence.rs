//! Do two shaders compute the same? [`check`] runs an original and a candidate (a
//! recompiled decompilation, a hand edit, another compiler's output) on the executor
//! over random input sets and compares every output.
//!
//! How the two are fed alike:
//! - **inputs by semantic**: each `(usage, index)` either shader declares gets one random
//!   value per set (colours in [0, 1], blend indices in [0, 0.04]: the first 10 bones
//!   as a D3DCOLOR carries them, vPos whole pixels,
//!   vFace ±1, anything else in [−2, 2]); before ps_3_0 the registers the model implies
//!   (`t#` TEXCOORD#, `v#` COLOR#);
//! - **constants by register**: the original's registers get random values (floats in
//!   [−2, 2]; an `int` or `bool` its table puts in float registers a whole number 0–4
//!   or 0/1; loop counts 0–4, booleans either way), its own `def`s applied; the
//!   candidate gets the values the original reads at the registers its constant table
//!   gives each name: a name the original's table has stands for that constant, a
//!   register name (`c12`, `b0`, `i3`, `s1`; a bare `c` is c0) for that register. A
//!   compiler may move a `bool` or `int` into float registers: the value follows;
//! - **samplers as bound**: every stage either shader samples gets the same random
//!   texture (one level, linear filtering), the candidate's through its table's names.
//!
//! Outputs are compared by semantic (positions, colours, texture coordinates, fog,
//! point size, depth; ps_1_x's `r0` saturated, as it leaves the shader) and by which
//! pixels `texkill` discards. Exact means the same bits, `+0 = −0`, any NaN equals any
//! NaN; where some value is not exact, the shaders are still equivalent when every
//! value is within [`Options::tolerance`] (relative, or absolute below 1): a compiler
//! may compute `sin`/`cos` through its own range reduction, or reorder a sum, where the
//! original's instructions round differently ([`Verdict::Equivalent::exact`] says which).

use d3dbc::ctab::{ParameterType, RegisterSet};
use d3dbc::token::{DeclUsage, RegisterType, SamplerType};
use d3dbc::Analysis;
use d3dbc::{Semantics, Shader};

use crate::draw::{self, Constants, Format, Texture, TextureKind};
use crate::exec::{self, Env, ExecError, Lanes, Program, Stage, LANES};
use crate::texture::Decoded;

/// How to compare.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// Random input sets (rounded up to a multiple of the executor's 16 lanes; at least 16).
    pub sets: usize,
    /// Seed of the random values.
    pub seed: u64,
    /// Largest difference accepted where values are not bit-identical: relative to the
    /// larger magnitude, absolute below 1 (0: only bit-identical values agree).
    pub tolerance: f32,
    /// Instruction budget per run.
    pub budget: u64,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            sets: 32,
            seed: 0x9E37_79B9_7F4A_7C15,
            tolerance: 1e-4,
            budget: 1 << 22,
        }
    }
}

/// The outcome of a comparison.
#[derive(Clone, Debug, PartialEq)]
pub enum Verdict {
    /// Every output of every set agrees.
    Equivalent {
        /// Input sets run.
        sets: usize,
        /// Every value is bit-identical (else some are within the tolerance).
        exact: bool,
    },
    /// The first disagreement.
    Differs(Box<Difference>),
}

/// Where two shaders first disagree.
#[derive(Clone, Debug, PartialEq)]
pub struct Difference {
    /// The output (`COLOR0`, `POSITION`, `TEXCOORD3`, `DEPTH`, `discard`).
    pub output: String,
    /// The input set (0-based).
    pub set: usize,
    /// The original's value.
    pub original: [f32; 4],
    /// The candidate's value.
    pub candidate: [f32; 4],
    /// The inputs of that set, by semantic.
    pub inputs: Vec<(String, [f32; 4])>,
}

impl std::fmt::Display for Difference {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} differs in input set {}: original {:?}, recompiled {:?}",
            self.output, self.set, self.original, self.candidate
        )?;
        if !self.inputs.is_empty() {
            write!(f, "; inputs")?;
            for (k, v) in &self.inputs {
                write!(f, " {k}={v:?}")?;
            }
        }
        Ok(())
    }
}

/// Why no comparison could be made.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum Error {
    /// A shader cannot run on the executor.
    #[error("{which}: {error}")]
    Exec {
        /// `original` or `candidate`.
        which: &'static str,
        /// Why.
        error: ExecError,
    },
    /// The shaders are of different kinds.
    #[error("the original is a {0} shader, the candidate a {1} shader")]
    Kind(&'static str, &'static str),
    /// An output of the original has no counterpart in the candidate.
    #[error("the candidate has no {0} output")]
    MissingOutput(String),
}

/// A semantic key: `(usage, index)`; vPos and vFace get usages past the enumeration.
type Key = (u8, u8);
const VPOS: u8 = 0xF0;
const VFACE: u8 = 0xF1;

fn key_name(k: Key) -> String {
    match k.0 {
        VPOS => "VPOS".into(),
        VFACE => "VFACE".into(),
        u => {
            let name = DeclUsage::from_u8(u).map_or("USAGE?", |x| x.name());
            format!("{}{}", name.to_ascii_uppercase(), k.1)
        }
    }
}

/// One input: its key, the register-file entries it fills, the components.
struct Slot {
    key: Key,
    regs: Vec<usize>,
    mask: u8,
}

fn input_slots(sh: &Shader, p: &Program, a: &Analysis) -> Vec<Slot> {
    let v = sh.version;
    let mut out = Vec::new();
    if v.is_vertex() || v.major >= 3 {
        for s in &p.inputs {
            out.push(Slot {
                key: (s.usage, s.index),
                regs: vec![s.reg],
                mask: if v.is_vertex() { 0xF } else { s.mask },
            });
        }
        if v.is_vertex() {
            // Registers read without a `dcl` (Direct3D 8): the D3DVSDE_* convention.
            for n in 0..d3dbc::regs::MAX_INPUTS as u16 {
                let reg = exec::input_reg(n);
                if !a.used.contains(RegisterType::Input, n) || p.inputs.iter().any(|s| s.reg == reg)
                {
                    continue;
                }
                if let Some((usage, index)) = d3dbc::regs::d3d8_vertex_input(n) {
                    out.push(Slot {
                        key: (usage as u8, index),
                        regs: vec![reg],
                        mask: 0xF,
                    });
                }
            }
        }
        if v.is_pixel() {
            if a.used.contains(RegisterType::MiscType, 0) {
                out.push(Slot {
                    key: (VPOS, 0),
                    regs: vec![exec::VPOS],
                    mask: 0xF,
                });
            }
            if a.used.contains(RegisterType::MiscType, 1) {
                out.push(Slot {
                    key: (VFACE, 0),
                    regs: vec![exec::VFACE],
                    mask: 0xF,
                });
            }
        }
    } else {
        let tc = DeclUsage::TexCoord as u8;
        let col = DeclUsage::Color as u8;
        for n in 0..d3dbc::regs::MAX_TEXTURES as u16 {
            out.push(Slot {
                key: (tc, n as u8),
                regs: vec![exec::tex_reg(n), exec::tc_reg(n)],
                mask: 0xF,
            });
        }
        for n in 0..2u16 {
            out.push(Slot {
                key: (col, n as u8),
                regs: vec![exec::input_reg(n)],
                mask: 0xF,
            });
        }
    }
    out
}

/// One output: key, register, components compared.
struct Out {
    key: Key,
    reg: usize,
    mask: u8,
}

const DEPTH_KEY: Key = (DeclUsage::Depth as u8, 0);

fn outputs(sh: &Shader, p: &Program) -> Vec<Out> {
    let v = sh.version;
    let mut out = Vec::new();
    if v.is_pixel() {
        if v.major < 2 {
            out.push(Out {
                key: (DeclUsage::Color as u8, 0),
                reg: exec::temp_reg(0),
                mask: 0xF,
            });
        } else {
            for c in 0..d3dbc::regs::MAX_COLOR_OUTPUTS as u16 {
                if p.writes[exec::color_reg(c)] {
                    out.push(Out {
                        key: (DeclUsage::Color as u8, c as u8),
                        reg: exec::color_reg(c),
                        mask: 0xF,
                    });
                }
            }
        }
        if p.writes_depth {
            out.push(Out {
                key: DEPTH_KEY,
                reg: exec::DEPTH,
                mask: 1,
            });
        }
    } else if v.major >= 3 {
        for s in &p.outputs {
            // Point size and fog are read from x.
            let scalar = s.usage == DeclUsage::PSize as u8 || s.usage == DeclUsage::Fog as u8;
            out.push(Out {
                key: (s.usage, s.index),
                reg: s.reg,
                mask: if scalar { s.mask & 1 } else { s.mask },
            });
        }
    } else {
        let regs = [
            ((DeclUsage::Position as u8, 0), exec::POS, 0xF),
            ((DeclUsage::Color as u8, 0), exec::attr_reg(0), 0xF),
            ((DeclUsage::Color as u8, 1), exec::attr_reg(1), 0xF),
            ((DeclUsage::Fog as u8, 0), exec::FOG, 1),
            ((DeclUsage::PSize as u8, 0), exec::PTS, 1),
        ];
        for (key, reg, mask) in regs {
            if p.writes[reg] {
                out.push(Out { key, reg, mask });
            }
        }
        for k in 0..d3dbc::regs::MAX_OUTPUTS as u16 {
            if p.writes[exec::out_reg(k)] {
                out.push(Out {
                    key: (DeclUsage::TexCoord as u8, k as u8),
                    reg: exec::out_reg(k),
                    mask: 0xF,
                });
            }
        }
    }
    out
}

/// A deterministic xorshift64* generator.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    /// Uniform in [lo, hi), on a grid of 1/1024 so that sums stay representable.
    fn range(&mut self, lo: f32, hi: f32) -> f32 {
        let u = (self.next() >> 40) as f32 / (1u64 << 24) as f32;
        lo + (hi - lo) * u
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

fn input_value(rng: &mut Rng, key: Key, vertex: bool) -> [f32; 4] {
    let mut v = [0.0; 4];
    for x in v.iter_mut() {
        *x = match key.0 {
            u if u == DeclUsage::Color as u8 => rng.range(0.0, 1.0),
            // A D3DCOLOR naming one of the first 10 bones, which shaders scale to a
            // register index (765.01 = 255 · 3): indices within any skinning array.
            u if u == DeclUsage::BlendIndices as u8 => rng.range(0.0, 0.04),
            VPOS => rng.below(256) as f32,
            VFACE => {
                if rng.below(2) == 0 {
                    1.0
                } else {
                    -1.0
                }
            }
            _ => rng.range(-2.0, 2.0),
        };
    }
    let _ = vertex;
    match key.0 {
        // vFace is one value; vPos has x and y.
        VFACE => [v[0]; 4],
        VPOS => [v[0], v[1], 0.0, 0.0],
        _ => v,
    }
}

/// Where the candidate's named constants come from in the original.
#[derive(Clone, Copy, Debug)]
struct Link {
    cand_set: RegisterSet,
    cand_index: u16,
    orig_set: RegisterSet,
    orig_index: u16,
    count: u16,
}

fn register_name(name: &str) -> Option<(RegisterSet, u16)> {
    let mut chars = name.chars();
    let set = match chars.next()? {
        'c' => RegisterSet::Float4,
        'b' => RegisterSet::Bool,
        'i' => RegisterSet::Int4,
        's' => RegisterSet::Sampler,
        _ => return None,
    };
    let rest = chars.as_str();
    if rest.is_empty() {
        return Some((set, 0));
    }
    rest.parse().ok().map(|n| (set, n))
}

/// A constant's name as an HLSL identifier holds it: characters other than letters,
/// digits and `_` become `_`, leading and trailing `_` dropped (`$bAnimate` → `bAnimate`).
fn identifier(name: &str) -> String {
    let s: String = name
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    s.trim_matches('_').to_string()
}

fn links(original: &Shader, candidate: &Shader) -> Vec<Link> {
    let orig = original.ctab().and_then(Result::ok);
    let Some(cand) = candidate.ctab().and_then(Result::ok) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for k in &cand.constants {
        let from = orig
            .as_ref()
            .and_then(|t| {
                t.constants
                    .iter()
                    .find(|o| o.name == k.name)
                    .or_else(|| t.constants.iter().find(|o| identifier(&o.name) == k.name))
            })
            .map(|o| (o.register_set, o.register_index))
            .or_else(|| register_name(&k.name));
        // Names a decompiler had to change: `u_` before a reserved word (`u_i` for
        // `i`), `_N` after a duplicate: the name without them.
        let from = from.or_else(|| {
            let base = k.name.strip_prefix("u_").unwrap_or(&k.name);
            orig.as_ref()
                .and_then(|t| t.constants.iter().find(|o| o.name == base))
                .map(|o| (o.register_set, o.register_index))
        });
        // `name_N`: element N of an array declared element by element (samplers).
        let from = from.or_else(|| {
            let (base, n) = k.name.rsplit_once('_')?;
            let n: u16 = n.parse().ok()?;
            orig.as_ref()?
                .constants
                .iter()
                .find(|o| o.name == base && o.register_count > n)
                .map(|o| (o.register_set, o.register_index + n))
        });
        let from = from.or_else(|| {
            let base = k.name.rsplit_once('_')?.0;
            orig.as_ref()
                .and_then(|t| t.constants.iter().find(|o| o.name == base))
                .map(|o| (o.register_set, o.register_index))
                .or_else(|| register_name(base))
        });
        if let Some((set, index)) = from {
            out.push(Link {
                cand_set: k.register_set,
                cand_index: k.register_index,
                orig_set: set,
                orig_index: index,
                count: k.register_count.max(1),
            });
        }
    }
    out
}

fn noise(kind: TextureKind, rng: &mut Rng) -> Texture {
    let size = 8u32;
    let layers = match kind {
        TextureKind::Tex2d => 1,
        TextureKind::Cube => 6,
        TextureKind::Volume => size,
    };
    let n = (size * size * layers * 4) as usize;
    let data = (0..n).map(|_| rng.below(256) as u8).collect();
    Texture {
        kind,
        format: Format::A8R8G8B8,
        width: size,
        height: size,
        depth: if kind == TextureKind::Volume { size } else { 1 },
        levels: 1,
        data,
    }
}

fn kind_of(t: Option<SamplerType>) -> TextureKind {
    match t {
        Some(SamplerType::Cube) => TextureKind::Cube,
        Some(SamplerType::Volume) => TextureKind::Volume,
        _ => TextureKind::Tex2d,
    }
}

/// Bit-identical (`+0 = −0`, NaN = NaN).
fn exact(a: f32, b: f32) -> bool {
    a.to_bits() == b.to_bits() || (a == 0.0 && b == 0.0) || (a.is_nan() && b.is_nan())
}

/// Within `tol` of each other: relative to the larger magnitude, absolute below 1.
fn close(a: f32, b: f32, tol: f32) -> bool {
    if exact(a, b) {
        return true;
    }
    if !a.is_finite() || !b.is_finite() {
        return false;
    }
    (a - b).abs() <= tol * a.abs().max(b.abs()).max(1.0)
}

/// Runs `original` and `candidate` over [`Options::sets`] random input sets and
/// compares their outputs.
pub fn check(original: &Shader, candidate: &Shader, opts: &Options) -> Result<Verdict, Error> {
    let kind = |s: &Shader| {
        if s.version.is_pixel() {
            "pixel"
        } else {
            "vertex"
        }
    };
    if original.version.is_pixel() != candidate.version.is_pixel() {
        return Err(Error::Kind(kind(original), kind(candidate)));
    }
    let po = Program::new(original).map_err(|error| Error::Exec {
        which: "original",
        error,
    })?;
    let pc = Program::new(candidate).map_err(|error| Error::Exec {
        which: "candidate",
        error,
    })?;
    let ao = Analysis::new(original);
    let ac = Analysis::new(candidate);
    let in_o = input_slots(original, &po, &ao);
    let in_c = input_slots(candidate, &pc, &ac);
    let out_o = outputs(original, &po);
    let out_c = outputs(candidate, &pc);
    for o in &out_o {
        if !out_c.iter().any(|c| c.key == o.key) {
            return Err(Error::MissingOutput(key_name(o.key)));
        }
    }
    let links = links(original, candidate);
    let orig_ctab = original.ctab().and_then(Result::ok);
    let bump_names: Vec<(String, u16)> = candidate
        .ctab()
        .and_then(Result::ok)
        .map(|t| {
            t.constants
                .iter()
                .filter(|k| k.name.starts_with("BumpEnv") && k.register_set == RegisterSet::Float4)
                .map(|k| (k.name.clone(), k.register_index))
                .collect()
        })
        .unwrap_or_default();
    let sem = Semantics::default();
    let pixel = original.version.is_pixel();
    let ps1 = pixel && original.version.major < 2;
    let runs = opts.sets.max(16).div_ceil(LANES);
    let mut rng = Rng(opts.seed | 1);
    let mut keys: Vec<Key> = in_o.iter().map(|s| s.key).collect();
    for s in &in_c {
        if !keys.contains(&s.key) {
            keys.push(s.key);
        }
    }
    let mut lo = Lanes::default();
    let mut lc = Lanes::default();
    let mut all_exact = true;
    for run in 0..runs {
        // Constants: the original's registers, then its defs (what it reads).
        let mut up = Constants::default();
        let nf = d3dbc::regs::float_constant_file(original.version, ao.max_const) as usize;
        let nf = nf.max(256);
        for r in 0..nf {
            let v = [0; 4].map(|_: u32| rng.range(-2.0, 2.0).to_bits());
            up.set_float_bits(r, &v);
        }
        // An `int` or `bool` the table places in float registers holds what an
        // application sets there: a whole number 0–4, or 0/1.
        if let Some(t) = &orig_ctab {
            for k in t
                .constants
                .iter()
                .filter(|k| k.register_set == RegisterSet::Float4)
            {
                let whole = match k.ty.ty {
                    ParameterType::Int => 5,
                    ParameterType::Bool => 2,
                    _ => continue,
                };
                for r in k.register_index..k.register_index + k.register_count {
                    let x = rng.below(whole) as f32;
                    up.set_float_bits(r as usize, &[x.to_bits(); 4]);
                }
            }
        }
        for r in 0..d3dbc::regs::MAX_INT_CONSTANTS {
            let v = [
                rng.below(5) as i32,
                rng.below(5) as i32,
                rng.below(4) as i32 - 1,
                0,
            ];
            up.set_int(r, &v);
        }
        up.bool = (0..d3dbc::regs::MAX_BOOL_CONSTANTS)
            .map(|_| rng.below(2) == 1)
            .collect();
        let cf_o = po.constants(&up, &sem);
        // What the original reads, before the ps_1_x clamp it applies itself.
        let mut seen = up.clone();
        for &(r, bits) in &ao.float_defs {
            seen.set_float_bits(r as usize, &bits);
        }
        for &(r, v) in &ao.int_defs {
            seen.set_int(r as usize, &v);
        }
        for &(r, b) in &ao.bool_defs {
            if let Some(x) = seen.bool.get_mut(r as usize) {
                *x = b;
            }
        }
        let cand_up = if links.is_empty() {
            seen.clone()
        } else {
            // Registers no name covers keep the original's values (by register).
            let mut c = seen.clone();
            for l in &links {
                for k in 0..l.count {
                    let (oi, ci) = ((l.orig_index + k) as usize, (l.cand_index + k) as usize);
                    let fval: Option<[f32; 4]> = match l.orig_set {
                        RegisterSet::Float4 => seen.float.get(oi).map(|w| w.map(f32::from_bits)),
                        RegisterSet::Int4 => seen.int.get(oi).map(|w| w.map(|x| x as f32)),
                        RegisterSet::Bool => {
                            seen.bool.get(oi).map(|&b| [if b { 1.0 } else { 0.0 }; 4])
                        }
                        _ => None,
                    };
                    match (l.cand_set, l.orig_set) {
                        (RegisterSet::Float4, _) => {
                            if let Some(v) = fval {
                                c.set_float_bits(ci, &v.map(f32::to_bits));
                            }
                        }
                        (RegisterSet::Int4, RegisterSet::Int4) => {
                            if let Some(v) = seen.int.get(oi) {
                                c.set_int(ci, v);
                            }
                        }
                        (RegisterSet::Bool, RegisterSet::Bool) => {
                            if let Some(&b) = seen.bool.get(oi) {
                                if c.bool.len() <= ci {
                                    c.bool.resize(ci + 1, false);
                                }
                                c.bool[ci] = b;
                            }
                        }
                        _ => {}
                    }
                }
            }
            c
        };
        // ps_1_x bump-environment states, random per stage; the candidate reads them
        // from the constants its table names `BumpEnvMat#` and `BumpEnvLum#`.
        let mut cand_up = cand_up;
        let tss: Vec<draw::TextureStage> = (0..d3dbc::regs::SAMPLER_STAGES)
            .map(|_| draw::TextureStage {
                bump_mat: [0; 4].map(|_: u8| rng.range(-1.0, 1.0)),
                bump_lscale: rng.range(-1.0, 2.0),
                bump_loffset: rng.range(-1.0, 1.0),
                ..Default::default()
            })
            .collect();
        for (name, reg) in &bump_names {
            let (mat, n) = if let Some(n) = name.strip_prefix("BumpEnvMat") {
                (true, n)
            } else if let Some(n) = name.strip_prefix("BumpEnvLum") {
                (false, n)
            } else {
                continue;
            };
            let Some(t) = n.parse::<usize>().ok().and_then(|n| tss.get(n)) else {
                continue;
            };
            let v = if mat {
                t.bump_mat
            } else {
                [t.bump_lscale, t.bump_loffset, 0.0, 0.0]
            };
            cand_up.set_float_bits(*reg as usize, &v.map(f32::to_bits));
        }
        let cf_c = pc.constants(&cand_up, &sem);
        // Textures: one per original stage, the candidate's through its names.
        let mut tex_o: Vec<Option<Decoded>> = Vec::new();
        let mut stage_map: Vec<Option<usize>> =
            (0..d3dbc::regs::SAMPLER_STAGES).map(Some).collect();
        for (s, declared) in po.samplers.iter().enumerate() {
            let used = declared.is_some()
                || (ps1 && ao.used.contains(RegisterType::AddrOrTexture, s as u16));
            tex_o.push(if used || pixel {
                let t = noise(kind_of(*declared), &mut rng);
                Decoded::new(&t).ok()
            } else {
                None
            });
        }
        for l in links.iter().filter(|l| l.cand_set == RegisterSet::Sampler) {
            for k in 0..l.count {
                let (ci, oi) = ((l.cand_index + k) as usize, (l.orig_index + k) as usize);
                if ci < stage_map.len() {
                    stage_map[ci] = Some(oi);
                }
            }
        }
        let state = draw::SamplerState {
            min_filter: draw::Filter::Linear,
            mag_filter: draw::Filter::Linear,
            ..draw::SamplerState::default()
        };
        fn mk(
            d: Option<&Decoded>,
            state: draw::SamplerState,
            tss: draw::TextureStage,
        ) -> Stage<'_> {
            Stage {
                tex: d,
                state,
                tss,
                projection: 0,
            }
        }
        // Vertex samplers are stages 16–19 of the same array in the executor's view; the
        // textures above cover the pixel stages, vertex shaders read theirs from 0.
        let stages_o: Vec<Stage> = tex_o
            .iter()
            .enumerate()
            .map(|(k, t)| mk(t.as_ref(), state, tss[k]))
            .collect();
        let stages_c: Vec<Stage> = (0..d3dbc::regs::SAMPLER_STAGES)
            .map(|s| {
                let o = stage_map[s].unwrap_or(s);
                mk(
                    tex_o.get(o).and_then(|t| t.as_ref()),
                    state,
                    draw::TextureStage::default(),
                )
            })
            .collect();
        let env_o = Env {
            consts: &cf_o,
            stages: &stages_o,
            sem: &sem,
            budget: opts.budget,
            perturb: 0.0,
        };
        let env_c = Env {
            consts: &cf_c,
            stages: &stages_c,
            sem: &sem,
            budget: opts.budget,
            perturb: 0.0,
        };
        // Inputs.
        let mut values: Vec<Vec<(Key, [f32; 4])>> = Vec::with_capacity(LANES);
        for _ in 0..LANES {
            values.push(
                keys.iter()
                    .map(|&k| (k, input_value(&mut rng, k, !pixel)))
                    .collect(),
            );
        }
        lo.reset();
        lc.reset();
        for (lanes, slots) in [(&mut lo, &in_o), (&mut lc, &in_c)] {
            for (l, vals) in values.iter().enumerate() {
                for s in slots.iter() {
                    let v = vals.iter().find(|x| x.0 == s.key).map_or([0.0; 4], |x| x.1);
                    for &r in &s.regs {
                        let mut cur = lanes.get(r, l);
                        for c in 0..4 {
                            if s.mask & (1 << c) != 0 {
                                cur[c] = v[c];
                            }
                        }
                        lanes.set(r, l, cur);
                    }
                }
            }
        }
        exec::run(&po, &mut lo, &env_o, exec::ALL).map_err(|error| Error::Exec {
            which: "original",
            error,
        })?;
        exec::run(&pc, &mut lc, &env_c, exec::ALL).map_err(|error| Error::Exec {
            which: "candidate",
            error,
        })?;
        for (l, vals) in values.iter().enumerate() {
            let set = run * LANES + l;
            let diff = |output: String, a: [f32; 4], b: [f32; 4]| {
                Verdict::Differs(Box::new(Difference {
                    output,
                    set,
                    original: a,
                    candidate: b,
                    inputs: vals.iter().map(|(k, v)| (key_name(*k), *v)).collect(),
                }))
            };
            if pixel {
                let (ko, kc) = (lo.killed & (1 << l) != 0, lc.killed & (1 << l) != 0);
                if ko != kc {
                    let f = |k: bool| [if k { 1.0 } else { 0.0 }; 4];
                    return Ok(diff("discard".into(), f(ko), f(kc)));
                }
                if ko {
                    continue;
                }
            }
            for o in &out_o {
                let Some(c) = out_c.iter().find(|c| c.key == o.key) else {
                    continue;
                };
                let mut a = lo.get(o.reg, l);
                let b = lc.get(c.reg, l);
                if ps1 && o.reg == exec::temp_reg(0) && sem.ps1x_saturate_output {
                    a = a.map(|x| if x > 0.0 { x.min(1.0) } else { 0.0 });
                }
                let mask = o.mask & c.mask;
                let on = |k: usize| mask & (1 << k) != 0;
                if (0..4).any(|k| on(k) && !exact(a[k], b[k])) {
                    all_exact = false;
                }
                if (0..4).any(|k| on(k) && !close(a[k], b[k], opts.tolerance)) {
                    let name = if o.key == DEPTH_KEY {
                        "DEPTH".to_string()
                    } else {
                        key_name(o.key)
                    };
                    return Ok(diff(name, a, b));
                }
            }
        }
    }
    Ok(Verdict::Equivalent {
        sets: runs * LANES,
        exact: all_exact,
    })
}
