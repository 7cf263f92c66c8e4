//! The interpreter: a validated [`d3dbc::Shader`] is translated once into a compact
//! [`Program`] (register-file offsets, swizzles, jump targets resolved), which then runs
//! up to [`LANES`] = 16 lanes at a time (four 2×2 pixel quads, or vertices) in
//! structure-of-arrays registers (`[register][component][lane]`) with per-lane execution
//! masks. Arithmetic is computed one component row of all lanes at a time, straight
//! from the register file, so the lane loops vectorise. Helper lanes keep running so
//! derivatives and implicit LOD see all four lanes of their quad; nothing allocates per
//! instruction. Lanes never interact except within a quad (derivatives), so a group
//! gives every lane the result it would get alone in its quad.
//!
//! The program setup reads its whole-shader facts (declarations, `def*` constants, the
//! highest constant named, inputs read, colour and depth outputs, sampler types) from
//! the shared pre-pass [`d3dbc::analysis`], its opcode classes from
//! [`Opcode::role`]/[`Opcode::block`] and its register-file sizes from [`d3dbc::regs`];
//! the semantics of each instruction stay this crate's own, independent of the
//! translators'.
// Lane and component loops index several structure-of-arrays values at once.
#![allow(clippy::needless_range_loop)]

use d3dbc::analysis::Analysis;
use d3dbc::ir::Instruction;
use d3dbc::opcode::{Block, Opcode, Role};
use d3dbc::regs::{self, SAMPLER_STAGES};
use d3dbc::token::{Comparison, DeclUsage, RegisterType, SamplerType, SrcModifier};
use d3dbc::{Register, Semantics, Shader, Version};

use crate::draw::{SamplerState, TextureKind, TextureStage};
use crate::texture::{self, Decoded, Lod};

/// Four components × [`LANES`] lanes.
pub type Q = [[f32; LANES]; 4];

/// Lanes executed together: four 2×2 quads (lanes `4q..4q+4` are quad `q`, in the
/// order top-left, top-right, bottom-left, bottom-right).
pub const LANES: usize = 16;
/// Lanes of one 2×2 quad (derivatives are taken within each).
pub const QUAD: usize = 4;
/// A lane mask (bit `l` is lane `l`).
pub type Mask = u16;
/// Every lane.
pub const ALL: Mask = 0xFFFF;

// Register-file layout (indices into the per-lane register array), each file as large
// as the most registers any version has (`d3dbc::regs`).
const R_TEMP: u16 = 0; // r#
const R_INPUT: u16 = R_TEMP + regs::MAX_TEMPS as u16; // v#
const R_TEX: u16 = R_INPUT + regs::MAX_INPUTS as u16; // t# (ps), a0 lives elsewhere
const R_OUT: u16 = R_TEX + regs::MAX_TEXTURES as u16; // o# / oT#
const R_POS: u16 = R_OUT + regs::MAX_OUTPUTS as u16; // oPos
const R_FOG: u16 = R_POS + 1; // oFog
const R_PTS: u16 = R_FOG + 1; // oPts
const R_ATTR: u16 = R_PTS + 1; // oD#
const R_COLOR: u16 = R_ATTR + regs::MAX_ATTR_OUTPUTS as u16; // oC#
const R_DEPTH: u16 = R_COLOR + regs::MAX_COLOR_OUTPUTS as u16; // oDepth
const R_VPOS: u16 = R_DEPTH + 1; // vPos
const R_VFACE: u16 = R_VPOS + 1; // vFace
const R_TC: u16 = R_VFACE + 1; // ps_1_x texture coordinates as interpolated (t# at entry)
/// Registers per lane group.
pub const NREGS: usize = R_TC as usize + regs::MAX_TEXTURES;

/// Input register `v#` index in the register file.
pub const fn input_reg(n: u16) -> usize {
    (R_INPUT + n) as usize
}
/// Texture-coordinate register `t#`.
pub const fn tex_reg(n: u16) -> usize {
    (R_TEX + n) as usize
}
/// Interpolated ps_1_x texture coordinate `n` (what `t#` held at entry).
pub const fn tc_reg(n: u16) -> usize {
    (R_TC + n) as usize
}
/// `o#` / `oT#`.
pub const fn out_reg(n: u16) -> usize {
    (R_OUT + n) as usize
}
/// `oPos`.
pub const POS: usize = R_POS as usize;
/// `oFog`.
pub const FOG: usize = R_FOG as usize;
/// `oPts`.
pub const PTS: usize = R_PTS as usize;
/// `oD#`.
pub const fn attr_reg(n: u16) -> usize {
    (R_ATTR + n) as usize
}
/// `oC#`.
pub const fn color_reg(n: u16) -> usize {
    (R_COLOR + n) as usize
}
/// `oDepth`.
pub const DEPTH: usize = R_DEPTH as usize;
/// `vPos`.
pub const VPOS: usize = R_VPOS as usize;
/// `vFace`.
pub const VFACE: usize = R_VFACE as usize;
/// `r#`.
pub const fn temp_reg(n: u16) -> usize {
    (R_TEMP + n) as usize
}

/// Why execution stopped.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ExecError {
    /// The instruction budget ran out.
    #[error(
        "instruction budget of {budget} exceeded at {}",
        d3dbc::report::hex_offset(*offset as usize)
    )]
    Budget {
        /// The budget.
        budget: u64,
        /// Offset of the instruction that would exceed it.
        offset: u32,
    },
    /// Control flow nested deeper than the interpreter's stack.
    #[error(
        "control flow nested too deep at {}",
        d3dbc::report::hex_offset(*offset as usize)
    )]
    Nesting {
        /// Offset.
        offset: u32,
    },
    /// The shader is not something the interpreter can run.
    #[error("cannot execute: {0}")]
    Unsupported(String),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum File {
    Reg(u16),
    Const(u16),
    ConstInt(u16),
    ConstBool(u16),
    Addr,
    Loop,
    Pred,
    Sampler(u16),
    Zero,
}

#[derive(Clone, Copy, Debug)]
struct Src {
    file: File,
    /// Relative addressing: (address register is aL, component of a0).
    rel: Option<(bool, u8)>,
    swz: [u8; 4],
    m: SrcModifier,
}

#[derive(Clone, Copy, Debug)]
struct Dst {
    file: File,
    rel: bool,
    mask: u8,
    sat: bool,
    shift: i8,
    num: u16,
}

#[derive(Clone, Copy, Debug)]
struct Inst {
    op: Opcode,
    ctrl: u8,
    coissue: bool,
    /// The next instruction is co-issued with this one.
    pair: bool,
    pred: Option<Src>,
    dst: Dst,
    src: [Src; 4],

    /// Jump target (else/endif/loop end/label pc).
    target: u32,
    offset: u32,
}

/// A declared shader input or output: register and semantic.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Semantic {
    /// Register-file index.
    pub reg: usize,
    /// `D3DDECLUSAGE` value.
    pub usage: u8,
    /// Usage index.
    pub index: u8,
    /// Write mask of the declaration.
    pub mask: u8,
}

/// A shader translated for execution.
#[derive(Clone, Debug)]
pub struct Program {
    /// The version.
    pub version: Version,
    insts: Vec<Inst>,
    defs_f: Vec<(u16, [f32; 4])>,
    /// Highest float constant an instruction names directly (the file grows to it).
    max_const: Option<u32>,
    defs_i: Vec<(u16, [i32; 4])>,
    defs_b: Vec<(u16, bool)>,
    /// Declared inputs (vs: `dcl_usage v#`; ps_3_0: `dcl_usage v#`).
    pub inputs: Vec<Semantic>,
    /// Declared outputs (vs_3_0 `dcl_usage o#`).
    pub outputs: Vec<Semantic>,
    /// Declared sampler types (`dcl_2d s#`…), by sampler number.
    pub samplers: [Option<SamplerType>; SAMPLER_STAGES],
    /// Pixel shader writes `oDepth` (or uses `texdepth`/`texm3x2depth`).
    pub writes_depth: bool,
    /// Number of `oC#` written (pixel shaders).
    pub color_outputs: u8,
    /// Registers read as inputs (`v#` bit mask, `t#` bit mask), for interpolation.
    pub reads_v: u16,
    /// `t#` read (ps).
    pub reads_t: u16,
    /// Register-file entries written by some instruction.
    pub writes: [bool; NREGS],
    /// The same as a list of register-file indices.
    written: Vec<u8>,
    /// The original instruction of each translated one (for traces).
    pub originals: Vec<Instruction>,
    /// Temporaries of the version (the ps_1_4 `phase` clears their alpha).
    temps: usize,
}

fn swz(s: u8) -> [u8; 4] {
    [s & 3, (s >> 2) & 3, (s >> 4) & 3, (s >> 6) & 3]
}

/// The register-file entry (or other file) of register `reg`; a number past the file's
/// size in every version ([`d3dbc::regs`]) cannot run.
fn file(reg: Register, ps: bool) -> Result<File, ExecError> {
    let n = reg.num;
    let within = |max: usize| -> Result<u16, ExecError> {
        if (n as usize) < max {
            Ok(n)
        } else {
            Err(ExecError::Unsupported(format!(
                "register {:?} {}",
                reg.kind, n
            )))
        }
    };
    let bad = || {
        Err(ExecError::Unsupported(format!(
            "register {:?} {}",
            reg.kind, n
        )))
    };
    Ok(match reg.kind {
        RegisterType::Temp => File::Reg(R_TEMP + within(regs::MAX_TEMPS)?),
        RegisterType::Input => File::Reg(R_INPUT + within(regs::MAX_INPUTS)?),
        RegisterType::Const
        | RegisterType::Const2
        | RegisterType::Const3
        | RegisterType::Const4 => File::Const(regs::float_constant_index(reg.kind, n) as u16),
        RegisterType::AddrOrTexture if ps => File::Reg(R_TEX + within(regs::MAX_TEXTURES)?),
        RegisterType::AddrOrTexture => File::Addr,
        RegisterType::RastOut => match n {
            0 => File::Reg(R_POS),
            1 => File::Reg(R_FOG),
            2 => File::Reg(R_PTS),
            _ => return bad(),
        },
        RegisterType::AttrOut => File::Reg(R_ATTR + within(regs::MAX_ATTR_OUTPUTS)?),
        RegisterType::Output => File::Reg(R_OUT + within(regs::MAX_OUTPUTS)?),
        RegisterType::ConstInt => File::ConstInt(n),
        RegisterType::ColorOut => File::Reg(R_COLOR + within(regs::MAX_COLOR_OUTPUTS)?),
        RegisterType::DepthOut => File::Reg(R_DEPTH),
        RegisterType::Sampler => File::Sampler(n),
        RegisterType::ConstBool => File::ConstBool(n),
        RegisterType::Loop => File::Loop,
        RegisterType::TempFloat16 => return bad(),
        RegisterType::MiscType => match n {
            0 => File::Reg(R_VPOS),
            1 => File::Reg(R_VFACE),
            _ => return bad(),
        },
        RegisterType::Label => File::Zero,
        RegisterType::Predicate => File::Pred,
    })
}

impl Program {
    /// Translates a (validated) shader.
    pub fn new(shader: &Shader) -> Result<Program, ExecError> {
        let v = shader.version;
        let mut p = Program {
            version: v,
            insts: Vec::new(),
            defs_f: Vec::new(),
            max_const: None,
            defs_i: Vec::new(),
            defs_b: Vec::new(),
            inputs: Vec::new(),
            outputs: Vec::new(),
            samplers: [None; SAMPLER_STAGES],
            writes_depth: false,
            color_outputs: 0,
            reads_v: 0,
            reads_t: 0,
            writes: [false; NREGS],
            written: Vec::new(),
            originals: Vec::new(),
            temps: regs::runtime_file(v, RegisterType::Temp).map_or(0, |f| f.count as usize),
        };
        let a = Analysis::new(shader);
        p.take_facts(&a);
        let labels = p.translate_items(&a)?;
        for i in 1..p.insts.len() {
            p.insts[i - 1].pair = p.insts[i].coissue;
        }
        p.resolve_blocks()?;
        p.written = (0..NREGS as u8).filter(|&r| p.writes[r as usize]).collect();
        p.resolve_calls(&labels)?;
        Ok(p)
    }

    /// Takes the pre-pass's whole-shader facts: definitions, constants named, the
    /// inputs read, colour outputs and depth written, declared sampler types.
    fn take_facts(&mut self, a: &Analysis) {
        let ps = a.version.is_pixel();
        self.defs_f = a
            .float_defs
            .iter()
            .map(|&(r, c)| (r, c.map(f32::from_bits)))
            .collect();
        self.defs_i.clone_from(&a.int_defs);
        self.defs_b.clone_from(&a.bool_defs);
        self.max_const = a.max_const;
        // Numbers past a file are refused when the instruction naming them is translated.
        self.reads_v = a.used.bits(RegisterType::Input) as u16;
        self.reads_t = if ps {
            a.used.bits(RegisterType::AddrOrTexture) as u16
        } else {
            0
        };
        let colors = a.used.bits(RegisterType::ColorOut);
        self.color_outputs = (u64::BITS - colors.leading_zeros()) as u8;
        self.writes_depth = a.writes_depth || a.used.bits(RegisterType::DepthOut) != 0;
        for (s, t) in self.samplers.iter_mut().enumerate() {
            *t = a.sampler_type(s as u16);
        }
    }

    /// Translates every instruction of the analysed shader (declarations into the
    /// program's input, output and sampler tables, markers dropped, the rest into
    /// [`Inst`]s with their DWORD offsets); returns the labels and the instruction each
    /// starts at.
    fn translate_items(&mut self, a: &Analysis) -> Result<Vec<(u16, u32)>, ExecError> {
        let p = self;
        let v = a.version;
        let ps = v.is_pixel();
        let mk_src = |s: &d3dbc::SrcParam| -> Result<Src, ExecError> {
            Ok(Src {
                file: file(s.reg, ps)?,
                rel: s
                    .rel
                    .map(|r| (r.reg.kind == RegisterType::Loop, r.component())),
                swz: swz(s.swizzle),
                m: s.modifier,
            })
        };
        for d in &a.declarations {
            let semantic = |usage: u8, index: u8| -> Result<Option<Semantic>, ExecError> {
                Ok(match file(Register::new(d.kind, d.num), ps)? {
                    File::Reg(r) => Some(Semantic {
                        reg: r as usize,
                        usage,
                        index,
                        mask: d.mask,
                    }),
                    _ => None,
                })
            };
            let (raw, index) = (d.decl.usage_raw(), d.decl.usage_index());
            match d.kind {
                RegisterType::Input | RegisterType::AddrOrTexture if ps => {
                    let (usage, index) = if v.major >= 3 {
                        (raw, index)
                    } else if d.kind == RegisterType::Input {
                        (DeclUsage::Color as u8, d.num as u8)
                    } else {
                        (DeclUsage::TexCoord as u8, d.num as u8)
                    };
                    p.inputs.extend(semantic(usage, index)?);
                }
                RegisterType::Input => p.inputs.extend(semantic(raw, index)?),
                RegisterType::Output => p.outputs.extend(semantic(raw, index)?),
                _ => {}
            }
        }
        let mut labels: Vec<(u16, u32)> = Vec::new();
        for (ins, &here) in a.instructions.iter().zip(&a.offsets) {
            let layout = ins.layout(v);
            match ins.opcode.role() {
                Role::Declaration | Role::Marker => continue,
                Role::Phase | Role::Flow(_) | Role::Compute => {}
            }
            if ins.opcode == Opcode::Label {
                labels.push((ins.srcs[0].reg.num, p.insts.len() as u32));
            }
            let mut src = [Src {
                file: File::Zero,
                rel: None,
                swz: [0, 1, 2, 3],
                m: SrcModifier::None,
            }; 4];
            for (k, s) in ins.src().iter().enumerate() {
                src[k] = mk_src(s)?;
            }
            let dst = if layout.dst {
                let d = &ins.dst;
                Dst {
                    file: file(d.reg, ps)?,
                    rel: d.rel.is_some(),
                    mask: d.mask,
                    sat: d.saturate(),
                    shift: d.shift_value(),
                    num: d.reg.num,
                }
            } else {
                Dst {
                    file: File::Zero,
                    rel: false,
                    mask: 0,
                    sat: false,
                    shift: 0,
                    num: 0,
                }
            };
            if let File::Reg(r) = dst.file {
                if layout.dst {
                    p.writes[r as usize] = true;
                }
            }
            let pred = match &ins.predicate {
                Some(s) => Some(mk_src(s)?),
                None => None,
            };
            p.originals.push(*ins);
            p.insts.push(Inst {
                op: ins.opcode,
                ctrl: ins.controls,
                coissue: ins.coissue,
                pair: false,
                pred,
                dst,
                src,

                target: u32::MAX,
                offset: here,
            });
        }
        Ok(labels)
    }

    /// Pairs each block opener with its `else`/end and back: structured control flow.
    fn resolve_blocks(&mut self) -> Result<(), ExecError> {
        let p = self;
        // Resolve structured control flow.
        let mut stack: Vec<usize> = Vec::new();
        let n = p.insts.len();
        for i in 0..n {
            match p.insts[i].op.block() {
                Block::Open => stack.push(i),
                Block::Else => {
                    let Some(&o) = stack.last() else {
                        return Err(ExecError::Unsupported("else without if".into()));
                    };
                    p.insts[o].target = i as u32;
                    stack.pop();
                    stack.push(i);
                }
                Block::Close => {
                    let Some(o) = stack.pop() else {
                        return Err(ExecError::Unsupported("unbalanced flow control".into()));
                    };
                    p.insts[o].target = i as u32;
                    p.insts[i].target = o as u32;
                }
                Block::None => {}
            }
        }
        if !stack.is_empty() {
            return Err(ExecError::Unsupported("unterminated flow control".into()));
        }
        Ok(())
    }

    /// Points every `call`/`callnz` at its label's instruction.
    fn resolve_calls(&mut self, labels: &[(u16, u32)]) -> Result<(), ExecError> {
        for (inst, ins) in self.insts.iter_mut().zip(&self.originals) {
            if matches!(inst.op, Opcode::Call | Opcode::CallNz) {
                let want = ins.srcs[0].reg.num;
                match labels.iter().find(|(l, _)| *l == want) {
                    Some(&(_, t)) => inst.target = t,
                    None => {
                        return Err(ExecError::Unsupported(format!(
                            "call to missing label l{want}"
                        )))
                    }
                }
            }
        }
        Ok(())
    }

    /// Instructions after translation (declarations and definitions removed).
    pub fn len(&self) -> usize {
        self.insts.len()
    }

    /// True when there is nothing to execute.
    pub fn is_empty(&self) -> bool {
        self.insts.is_empty()
    }

    /// DWORD offset of translated instruction `i`.
    pub fn offset(&self, i: usize) -> u32 {
        self.insts[i].offset
    }

    /// The float constant file of this stage: uploaded values, then `def`s; ps_1_x
    /// constants clamped as `sem` says.
    pub fn constants(&self, uploaded: &crate::draw::Constants, sem: &Semantics) -> ConstFile {
        let v = self.version;
        let nf = d3dbc::regs::float_constant_file(v, self.max_const) as usize;
        let mut f = vec![[0.0f32; 4]; nf];
        for (i, c) in uploaded.float.iter().enumerate().take(nf) {
            f[i] = c.map(f32::from_bits);
        }
        for (r, c) in &self.defs_f {
            if let Some(x) = f.get_mut(*r as usize) {
                *x = *c;
            }
        }
        if v.is_pixel() && v.major < 2 && sem.ps1x_clamp_constants {
            for c in f.iter_mut() {
                for x in c.iter_mut() {
                    *x = x.clamp(-1.0, 1.0);
                }
            }
        }
        let mut i = vec![[0i32; 4]; regs::MAX_INT_CONSTANTS];
        for (k, c) in uploaded
            .int
            .iter()
            .enumerate()
            .take(regs::MAX_INT_CONSTANTS)
        {
            i[k] = *c;
        }
        for (r, c) in &self.defs_i {
            if let Some(x) = i.get_mut(*r as usize) {
                *x = *c;
            }
        }
        let mut b = vec![false; regs::MAX_BOOL_CONSTANTS];
        for (k, c) in uploaded
            .bool
            .iter()
            .enumerate()
            .take(regs::MAX_BOOL_CONSTANTS)
        {
            b[k] = *c;
        }
        for (r, c) in &self.defs_b {
            if let Some(x) = b.get_mut(*r as usize) {
                *x = *c;
            }
        }
        ConstFile { f, i, b }
    }
}

/// The constants of one stage.
#[derive(Clone, Debug)]
pub struct ConstFile {
    /// `c#`.
    pub f: Vec<[f32; 4]>,
    /// `i#`.
    pub i: Vec<[i32; 4]>,
    /// `b#`.
    pub b: Vec<bool>,
}

/// A bound sampler stage.
#[derive(Clone, Copy)]
pub struct Stage<'a> {
    /// The decoded texture, if bound.
    pub tex: Option<&'a Decoded>,
    /// Sampler state.
    pub state: SamplerState,
    /// Texture-stage state.
    pub tss: TextureStage,
    /// The ps_1_1–1_3 projective divide of this stage (`D3DTTFF_PROJECTED`): the
    /// coordinate is divided by component `projection − 1` (2–4), 0 = none. A draw sets
    /// it from [`crate::Draw::projection`].
    pub projection: u8,
}

/// Everything a program reads besides its registers.
pub struct Env<'a> {
    /// Constants.
    pub consts: &'a ConstFile,
    /// Sampler stages by number (ps: 0–15; vs: the vertex samplers at 0–3).
    pub stages: &'a [Stage<'a>],
    /// Device semantics.
    pub sem: &'a Semantics,
    /// Instruction budget per invocation: instructions the lane group executes (the
    /// renderer re-runs a group that runs out one quad at a time, so the budget holds
    /// per 2×2 quad).
    pub budget: u64,
}

/// Per-lane-group machine state, reused across invocations (no allocation per run).
pub struct Lanes {
    /// Registers: `[reg][component][lane]`.
    pub regs: Vec<Q>,
    a0: [[i32; LANES]; 4],
    al: i32,
    p0: [[bool; LANES]; 4],
    /// Lanes killed by `texkill`.
    pub killed: Mask,
    /// Instructions executed by the last run.
    pub executed: u64,
    /// Lane-instructions executed by the last run: for each executed instruction, the
    /// number of lanes active when it ran (helper lanes included).
    pub lane_instructions: u64,
    /// Texture lookups of the last run, by active lanes, at a non-finite coordinate or
    /// level (an `inf`/NaN that reached a lookup): D3D9 leaves their result undefined.
    pub nonfinite_lookups: u64,
    m3: [[f32; LANES]; 3],
    /// When set, every executed instruction is appended as (translated instruction
    /// index, lane `trace_lane`'s destination value afterwards, that lane active), up to
    /// `trace_limit` steps. The trace is kept when [`run`] fails (an exhausted
    /// instruction budget): the steps up to the failure.
    pub trace: Option<Vec<(u32, [f32; 4], bool)>>,
    /// The lane a trace follows (0 unless set).
    pub trace_lane: usize,
    /// Most steps a trace keeps ([`TRACE_LIMIT`] unless set); later steps set
    /// `trace_truncated` instead.
    pub trace_limit: usize,
    /// The trace reached `trace_limit` and dropped later steps.
    pub trace_truncated: bool,
}

/// Default [`Lanes::trace_limit`]: enough for any shader that finishes inside a sane
/// budget, bounded (about 2 MB) for one that does not.
pub const TRACE_LIMIT: usize = 65_536;

impl Default for Lanes {
    fn default() -> Self {
        Lanes {
            regs: vec![[[0.0; LANES]; 4]; NREGS],
            a0: [[0; LANES]; 4],
            al: 0,
            p0: [[false; LANES]; 4],
            killed: 0,
            executed: 0,
            lane_instructions: 0,
            nonfinite_lookups: 0,
            m3: [[0.0; LANES]; 3],
            trace: None,
            trace_lane: 0,
            trace_limit: TRACE_LIMIT,
            trace_truncated: false,
        }
    }
}

#[derive(Clone, Copy)]
enum Frame {
    If {
        saved: Mask,
    },
    Loop {
        entry: Mask,
        brk: Mask,
        remaining: i32,
        step: i32,
        al: i32,
        start: u32,
    },
    Rep {
        entry: Mask,
        brk: Mask,
        remaining: i32,
        start: u32,
    },
    Call {
        ret: u32,
        entry: Mask,
        brk: Mask,
    },
}

const MAX_DEPTH: usize = 64;

#[inline]
fn cmp(c: u8, a: f32, b: f32) -> bool {
    Comparison::from_u8(c & 7).is_some_and(|k| k.test(a, b))
}

impl Lanes {
    /// Clears temporaries, outputs and state before an invocation (inputs are set by
    /// the caller afterwards).
    pub fn reset(&mut self) {
        for r in self.regs.iter_mut() {
            *r = [[0.0; LANES]; 4];
        }
        self.clear_state();
    }

    /// Like [`Lanes::reset`], but clears only the registers `writes` marks: enough
    /// between two runs of the same program whose inputs are all set again.
    pub fn reset_written(&mut self, writes: &[bool; NREGS]) {
        for (r, w) in self.regs.iter_mut().zip(writes.iter()) {
            if *w {
                *r = [[0.0; LANES]; 4];
            }
        }
        self.clear_state();
    }

    /// [`Lanes::reset_written`] for `p` with the list of registers it writes computed
    /// once (no scan of the whole register file per run).
    pub fn reset_for(&mut self, p: &Program) {
        for &r in &p.written {
            self.regs[r as usize] = [[0.0; LANES]; 4];
        }
        self.clear_state();
    }

    /// Clears everything but the registers.
    fn clear_state(&mut self) {
        self.a0 = [[0; LANES]; 4];
        self.al = 0;
        self.p0 = [[false; LANES]; 4];
        self.killed = 0;
        self.executed = 0;
        self.lane_instructions = 0;
        self.nonfinite_lookups = 0;
        self.m3 = [[0.0; LANES]; 3];
    }

    /// Sets register `reg` of `lane` to `v`.
    #[inline]
    pub fn set(&mut self, reg: usize, lane: usize, v: [f32; 4]) {
        for (c, x) in v.iter().enumerate() {
            self.regs[reg][c][lane] = *x;
        }
    }

    /// Register `reg` of `lane`.
    #[inline]
    pub fn get(&self, reg: usize, lane: usize) -> [f32; 4] {
        let r = &self.regs[reg];
        [r[0][lane], r[1][lane], r[2][lane], r[3][lane]]
    }

    fn rel_index(&self, base: u16, rel: Option<(bool, u8)>, lane: usize) -> i64 {
        match rel {
            None => base as i64,
            Some((true, _)) => base as i64 + self.al as i64,
            Some((false, c)) => base as i64 + self.a0[c as usize][lane] as i64,
        }
    }

    /// Reads a source operand (swizzle and modifier applied).
    fn read(&self, s: &Src, env: &Env, ps1: bool) -> Q {
        // Fast path: a direct register swizzles straight out of the file.
        if let (File::Reg(r), None) = (s.file, s.rel) {
            let src = &self.regs[r as usize];
            let mut q: Q = [[0.0; LANES]; 4];
            for c in 0..4 {
                q[c] = src[s.swz[c] as usize];
            }
            apply_mod(&mut q, s.m, ps1);
            return q;
        }
        let mut raw: Q = [[0.0; LANES]; 4];
        match s.file {
            File::Reg(r) => {
                if let Some(rel) = s.rel {
                    for l in 0..LANES {
                        let i = self.rel_index(r, Some(rel), l);
                        let ok = i >= 0 && (i as usize) < NREGS;
                        for c in 0..4 {
                            raw[c][l] = if ok { self.regs[i as usize][c][l] } else { 0.0 };
                        }
                    }
                } else {
                    raw = self.regs[r as usize];
                }
            }
            File::Const(n) => {
                if s.rel.is_some() {
                    for l in 0..LANES {
                        let i = self.rel_index(n, s.rel, l);
                        let v = if i >= 0 {
                            env.consts.f.get(i as usize).copied().unwrap_or([0.0; 4])
                        } else {
                            [0.0; 4]
                        };
                        for c in 0..4 {
                            raw[c][l] = v[c];
                        }
                    }
                } else {
                    let v = env.consts.f.get(n as usize).copied().unwrap_or([0.0; 4]);
                    for c in 0..4 {
                        raw[c] = [v[c]; LANES];
                    }
                }
            }
            File::ConstInt(n) => {
                let v = env.consts.i.get(n as usize).copied().unwrap_or([0; 4]);
                for c in 0..4 {
                    raw[c] = [v[c] as f32; LANES];
                }
            }
            File::ConstBool(n) => {
                let v = env.consts.b.get(n as usize).copied().unwrap_or(false) as u8 as f32;
                raw = [[v; LANES]; 4];
            }
            File::Addr => {
                for c in 0..4 {
                    for l in 0..LANES {
                        raw[c][l] = self.a0[c][l] as f32;
                    }
                }
            }
            File::Loop => raw = [[self.al as f32; LANES]; 4],
            File::Pred => {
                for c in 0..4 {
                    for l in 0..LANES {
                        raw[c][l] = self.p0[c][l] as u8 as f32;
                    }
                }
            }
            File::Sampler(_) | File::Zero => {}
        }
        let mut q: Q = [[0.0; LANES]; 4];
        for c in 0..4 {
            q[c] = raw[s.swz[c] as usize];
        }
        apply_mod(&mut q, s.m, ps1);
        q
    }

    fn pred_ok(&self, inst: &Inst, c: usize, lane: usize) -> bool {
        match &inst.pred {
            None => true,
            Some(p) => {
                let v = self.p0[p.swz[c] as usize][lane];
                if p.m == SrcModifier::Not {
                    !v
                } else {
                    v
                }
            }
        }
    }

    /// Writes an instruction's result: destination modifiers, write mask, predicate
    /// and the lanes of `mask_lanes`.
    #[inline(always)]
    fn write(&mut self, inst: &Inst, val: &Q, mask_lanes: Mask, env: &Env, ps1: bool) {
        let d = &inst.dst;
        // The common case inline: a direct register, no modifier, no predicate, every
        // lane active.
        if let File::Reg(r) = d.file {
            if !d.rel && inst.pred.is_none() && mask_lanes == ALL && d.shift == 0 && !d.sat && !ps1
            {
                let dst = &mut self.regs[r as usize];
                for c in 0..4 {
                    if d.mask & (1 << c) != 0 {
                        dst[c] = val[c];
                    }
                }
                return;
            }
        }
        self.write_general(inst, val, mask_lanes, env, ps1)
    }

    fn write_general(&mut self, inst: &Inst, val: &Q, mask_lanes: Mask, env: &Env, ps1: bool) {
        let d = &inst.dst;
        let scale = match d.shift {
            0 => 1.0,
            s if s > 0 => (1u32 << s) as f32,
            s => 1.0 / (1u32 << (-s)) as f32,
        };
        let maxv = env.sem.ps1x_max_value;
        // Destination shift, saturate, then the ps_1_x range.
        let fin = |mut x: f32| {
            if d.shift != 0 {
                x *= scale;
            }
            if d.sat {
                x = sat(x);
            }
            if ps1 {
                x = x.clamp(-maxv, maxv);
            }
            x
        };
        match d.file {
            // Fast path (the common case): direct register, no predicate, every lane
            // active; the same operations in the same order as the general path.
            File::Reg(r) if !d.rel && inst.pred.is_none() && mask_lanes == ALL => {
                let dst = &mut self.regs[r as usize];
                for c in 0..4 {
                    if d.mask & (1 << c) == 0 {
                        continue;
                    }
                    for l in 0..LANES {
                        dst[c][l] = fin(val[c][l]);
                    }
                }
            }
            File::Reg(r) => {
                for l in 0..LANES {
                    if mask_lanes & (1 << l) == 0 {
                        continue;
                    }
                    let reg = if d.rel {
                        let i = self.al as i64 + r as i64;
                        if i < 0 || i as usize >= NREGS {
                            continue;
                        }
                        i as usize
                    } else {
                        r as usize
                    };
                    for c in 0..4 {
                        if d.mask & (1 << c) == 0 || !self.pred_ok(inst, c, l) {
                            continue;
                        }
                        self.regs[reg][c][l] = fin(val[c][l]);
                    }
                }
            }
            File::Addr => {
                let vs1 = self.is_vs1(inst);
                for l in 0..LANES {
                    if mask_lanes & (1 << l) == 0 {
                        continue;
                    }
                    for c in 0..4 {
                        if d.mask & (1 << c) == 0 || !self.pred_ok(inst, c, l) {
                            continue;
                        }
                        let x = val[c][l];
                        let r = if vs1 {
                            x.floor()
                        } else {
                            env.sem.mova_round(x)
                        };
                        self.a0[c][l] = if r.is_nan() {
                            0
                        } else {
                            r.clamp(-1.0e6, 1.0e6) as i32
                        };
                    }
                }
            }
            File::Pred => {
                for l in 0..LANES {
                    if mask_lanes & (1 << l) == 0 {
                        continue;
                    }
                    for c in 0..4 {
                        if d.mask & (1 << c) == 0 || !self.pred_ok(inst, c, l) {
                            continue;
                        }
                        self.p0[c][l] = val[c][l] != 0.0;
                    }
                }
            }
            _ => {}
        }
    }

    fn is_vs1(&self, inst: &Inst) -> bool {
        inst.op == Opcode::Mov
    }
}

#[inline]
fn sat(x: f32) -> f32 {
    // NaN saturates to 0.
    if x > 0.0 {
        x.min(1.0)
    } else {
        0.0
    }
}

fn apply_mod(q: &mut Q, m: SrcModifier, _ps1: bool) {
    use SrcModifier::*;
    // Each arm maps every element with a closure the compiler inlines (no indirect
    // call per element).
    fn each(q: &mut Q, f: impl Fn(f32) -> f32) {
        for c in q.iter_mut() {
            for x in c.iter_mut() {
                *x = f(*x);
            }
        }
    }
    match m {
        None | Not | Dz | Dw => return,
        // One arm per modifier: each closure applies a constant modifier, which
        // `SrcModifier::apply` folds to its arithmetic.
        Neg => each(q, |x| Neg.apply(x)),
        Bias => each(q, |x| Bias.apply(x)),
        BiasNeg => each(q, |x| BiasNeg.apply(x)),
        Sign => each(q, |x| Sign.apply(x)),
        SignNeg => each(q, |x| SignNeg.apply(x)),
        Comp => each(q, |x| Comp.apply(x)),
        X2 => each(q, |x| X2.apply(x)),
        X2Neg => each(q, |x| X2Neg.apply(x)),
        Abs => each(q, |x| Abs.apply(x)),
        AbsNeg => each(q, |x| AbsNeg.apply(x)),
    }
    if matches!(m, Dz | Dw) {
        unreachable!()
    }
}

fn dz_dw(q: &mut Q, m: SrcModifier) {
    let d = match m {
        SrcModifier::Dz => 2,
        SrcModifier::Dw => 3,
        _ => return,
    };
    for l in 0..LANES {
        let w = q[d][l];
        let r = if w == 0.0 { 0.0 } else { 1.0 / w };
        q[0][l] *= r;
        q[1][l] *= r;
        if d == 3 {
            q[2][l] *= r;
        }
    }
}

/// Derivative along x within each quad (lanes 0 1 / 2 3 of the quad).
#[inline]
fn ddx(v: &[f32; LANES]) -> [f32; LANES] {
    let mut o = [0.0; LANES];
    for q in (0..LANES).step_by(QUAD) {
        let a = v[q + 1] - v[q];
        let b = v[q + 3] - v[q + 2];
        o[q..q + QUAD].copy_from_slice(&[a, a, b, b]);
    }
    o
}

/// Derivative along y within each quad.
#[inline]
fn ddy(v: &[f32; LANES]) -> [f32; LANES] {
    let mut o = [0.0; LANES];
    for q in (0..LANES).step_by(QUAD) {
        let a = v[q + 2] - v[q];
        let b = v[q + 3] - v[q + 1];
        o[q..q + QUAD].copy_from_slice(&[a, b, a, b]);
    }
    o
}

/// Runs a program on one lane group. `active` is the initial execution mask (all four
/// lanes for pixel quads, helpers included). Long by design: the dispatch loop keeps
/// the flow-control state (masks, loop and call stacks, the instruction budget) in
/// locals the hot path reads every instruction; splitting it would pass them around
/// per instruction.
pub fn run(p: &Program, st: &mut Lanes, env: &Env, active: Mask) -> Result<(), ExecError> {
    let v = p.version;
    let ps1 = v.is_pixel() && v.major < 2;
    let sem = env.sem;
    let mut stack: [Frame; MAX_DEPTH] = [Frame::If { saved: 0 }; MAX_DEPTH];
    let mut sp = 0usize;
    let mut cur = active;
    let mut brk: Mask = 0;
    let mut pc = 0usize;
    let n = p.insts.len();
    let mut count = 0u64;
    let mut lane_count = 0u64;
    let (mut counted, mut cur_lanes) = (cur, cur.count_ones() as u64);
    let mut scratch: Q = [[0.0; LANES]; 4];
    let mut scratch2: Q = [[0.0; LANES]; 4];
    st.nonfinite_lookups = 0;
    macro_rules! push {
        ($f:expr, $off:expr) => {{
            if sp >= MAX_DEPTH {
                return Err(ExecError::Nesting { offset: $off });
            }
            stack[sp] = $f;
            sp += 1;
        }};
    }
    while pc < n {
        let inst = &p.insts[pc];
        count += 1;
        if count > env.budget {
            return Err(ExecError::Budget {
                budget: env.budget,
                offset: inst.offset,
            });
        }
        // The active lane count changes only with flow control (no POPCNT in the
        // baseline x86-64 instruction set).
        if cur != counted {
            counted = cur;
            cur_lanes = cur.count_ones() as u64;
        }
        lane_count += cur_lanes;
        let mut next = pc + 1;
        match inst.op {
            Opcode::If => {
                let c = st.read(&inst.src[0], env, ps1);
                let mut m: Mask = 0;
                for l in 0..LANES {
                    if c[0][l] != 0.0 {
                        m |= 1 << l;
                    }
                }
                push!(Frame::If { saved: cur }, inst.offset);
                cur &= m;
                if cur == 0 {
                    next = inst.target as usize;
                    if p.insts[next].op == Opcode::Else {
                        // Execute the else itself.
                    }
                }
            }
            Opcode::IfC => {
                let a = st.read(&inst.src[0], env, ps1);
                let b = st.read(&inst.src[1], env, ps1);
                let mut m: Mask = 0;
                for l in 0..LANES {
                    if cmp(inst.ctrl, a[0][l], b[0][l]) {
                        m |= 1 << l;
                    }
                }
                push!(Frame::If { saved: cur }, inst.offset);
                cur &= m;
                if cur == 0 {
                    next = inst.target as usize;
                }
            }
            Opcode::Else => {
                if sp == 0 {
                    return Err(ExecError::Unsupported("else without if".into()));
                }
                if let Frame::If { saved } = stack[sp - 1] {
                    cur = saved & !cur & !brk;
                }
                if cur == 0 {
                    next = inst.target as usize;
                }
            }
            Opcode::EndIf => {
                if sp == 0 {
                    return Err(ExecError::Unsupported("endif without if".into()));
                }
                sp -= 1;
                if let Frame::If { saved } = stack[sp] {
                    cur = saved & !brk;
                }
            }
            Opcode::Rep => {
                let c = st.read(&inst.src[0], env, ps1);
                let count = (c[0][0] as i32).clamp(0, 255);
                if count == 0 || cur == 0 {
                    next = inst.target as usize + 1;
                } else {
                    push!(
                        Frame::Rep {
                            entry: cur,
                            brk,
                            remaining: count,
                            start: pc as u32
                        },
                        inst.offset
                    );
                }
            }
            Opcode::Loop => {
                let i = match inst.src[1].file {
                    File::ConstInt(k) => env.consts.i.get(k as usize).copied().unwrap_or([0; 4]),
                    _ => [0; 4],
                };
                let count = i[0].clamp(0, 255);
                if count == 0 || cur == 0 {
                    next = inst.target as usize + 1;
                } else {
                    push!(
                        Frame::Loop {
                            entry: cur,
                            brk,
                            remaining: count,
                            step: i[2],
                            al: st.al,
                            start: pc as u32
                        },
                        inst.offset
                    );
                    st.al = i[1];
                }
            }
            Opcode::EndRep | Opcode::EndLoop => {
                if sp == 0 {
                    return Err(ExecError::Unsupported("endloop without loop".into()));
                }
                match &mut stack[sp - 1] {
                    Frame::Rep {
                        entry,
                        brk: b0,
                        remaining,
                        start,
                    } => {
                        *remaining -= 1;
                        let live = *entry & !brk;
                        if *remaining > 0 && live != 0 {
                            cur = live;
                            next = *start as usize + 1;
                        } else {
                            cur = *entry;
                            brk = *b0;
                            sp -= 1;
                        }
                    }
                    Frame::Loop {
                        entry,
                        brk: b0,
                        remaining,
                        step,
                        al,
                        start,
                    } => {
                        *remaining -= 1;
                        st.al = st.al.wrapping_add(*step);
                        let live = *entry & !brk;
                        if *remaining > 0 && live != 0 {
                            cur = live;
                            next = *start as usize + 1;
                        } else {
                            cur = *entry;
                            brk = *b0;
                            st.al = *al;
                            sp -= 1;
                        }
                    }
                    _ => return Err(ExecError::Unsupported("mismatched endloop".into())),
                }
            }
            Opcode::Break | Opcode::BreakC | Opcode::BreakP => {
                let m = match inst.op {
                    Opcode::Break => cur,
                    Opcode::BreakC => {
                        let a = st.read(&inst.src[0], env, ps1);
                        let b = st.read(&inst.src[1], env, ps1);
                        let mut m = 0;
                        for l in 0..LANES {
                            if cmp(inst.ctrl, a[0][l], b[0][l]) {
                                m |= 1 << l;
                            }
                        }
                        m & cur
                    }
                    _ => {
                        let s = &inst.src[0];
                        let mut m = 0;
                        for l in 0..LANES {
                            let mut b = st.p0[s.swz[0] as usize][l];
                            if s.m == SrcModifier::Not {
                                b = !b;
                            }
                            if b {
                                m |= 1 << l;
                            }
                        }
                        m & cur
                    }
                };
                brk |= m;
                cur &= !m;
                // When no lane of the loop is left, leave it now.
                let mut k = sp;
                while k > 0 {
                    k -= 1;
                    match stack[k] {
                        Frame::Loop { entry, start, .. } | Frame::Rep { entry, start, .. } => {
                            if entry & !brk == 0 {
                                sp = k + 1;
                                cur = 0;
                                next = p.insts[start as usize].target as usize;
                            }
                            break;
                        }
                        Frame::Call { .. } => break,
                        Frame::If { .. } => {}
                    }
                }
            }
            Opcode::Call | Opcode::CallNz => {
                let mut m = cur;
                if inst.op == Opcode::CallNz {
                    let s = &inst.src[1];
                    let mut c = 0;
                    if s.file == File::Pred {
                        for l in 0..LANES {
                            let mut b = st.p0[s.swz[0] as usize][l];
                            if s.m == SrcModifier::Not {
                                b = !b;
                            }
                            if b {
                                c |= 1 << l;
                            }
                        }
                    } else {
                        let q = st.read(s, env, ps1);
                        let mut b = q[0][0] != 0.0;
                        if s.m == SrcModifier::Not {
                            b = !b;
                        }
                        if b {
                            c = ALL;
                        }
                    }
                    m &= c;
                }
                if m != 0 {
                    push!(
                        Frame::Call {
                            ret: (pc + 1) as u32,
                            entry: cur,
                            brk
                        },
                        inst.offset
                    );
                    cur = m;
                    brk = 0;
                    next = inst.target as usize + 1;
                }
            }
            Opcode::Ret => {
                // Return from the innermost call (or end the main program).
                let mut k = sp;
                let mut found = None;
                while k > 0 {
                    k -= 1;
                    if let Frame::Call {
                        ret,
                        entry,
                        brk: b0,
                    } = stack[k]
                    {
                        found = Some((k, ret, entry, b0));
                        break;
                    }
                }
                match found {
                    Some((k, ret, entry, b0)) => {
                        sp = k;
                        cur = entry;
                        brk = b0;
                        next = ret as usize;
                    }
                    None => break,
                }
            }
            Opcode::Label => {
                // Falling into a subroutine body from the main program ends it.
                break;
            }
            Opcode::Phase => {
                // semantics.md §2: temporaries' alpha is not kept across the ps_1_4
                // phase boundary; a read of r#.a written in phase 1 gives 0.
                for r in &mut st.regs[R_TEMP as usize..R_TEMP as usize + p.temps] {
                    r[3] = [0.0; LANES];
                }
            }
            _ => {
                if cur != 0 {
                    // Co-issued pairs read every source before either writes.
                    if inst.pair {
                        let second = &p.insts[pc + 1];
                        let a = compute(p, inst, st, env, ps1, cur, &mut scratch)?;
                        let b = compute(p, second, st, env, ps1, cur, &mut scratch2)?;
                        if a {
                            st.write(inst, &scratch, cur, env, ps1);
                        }
                        if b {
                            st.write(second, &scratch2, cur, env, ps1);
                        }
                        next = pc + 2;
                        count += 1;
                        lane_count += cur_lanes;
                    } else if compute(p, inst, st, env, ps1, cur, &mut scratch)? {
                        st.write(inst, &scratch, cur, env, ps1);
                    }
                }
            }
        }
        let _ = sem;
        if let Some(t) = st.trace.as_mut().filter(|t| {
            let full = t.len() >= st.trace_limit;
            st.trace_truncated |= full;
            !full
        }) {
            let l = st.trace_lane % LANES;
            let vals = match inst.dst.file {
                File::Reg(r) if !inst.dst.rel => {
                    let q = &st.regs[r as usize];
                    [q[0][l], q[1][l], q[2][l], q[3][l]]
                }
                File::Addr => st.a0.map(|c| c[l] as f32),
                File::Pred => st.p0.map(|c| c[l] as u8 as f32),
                _ => [f32::NAN; 4],
            };
            t.push((pc as u32, vals, cur & (1 << l) != 0));
        }
        pc = next;
    }
    st.executed = count;
    st.lane_instructions = lane_count;
    Ok(())
}

#[inline]
fn dot(sem: &Semantics, a: &Q, b: &Q, n: usize, l: usize) -> f32 {
    let mut s = sem.mul(a[0][l], b[0][l]);
    for c in 1..n {
        s += sem.mul(a[c][l], b[c][l]);
    }
    s
}

fn splat(f: impl Fn(usize) -> f32) -> Q {
    let mut q = [[0.0; LANES]; 4];
    for l in 0..LANES {
        let v = f(l);
        for c in q.iter_mut() {
            c[l] = v;
        }
    }
    q
}

fn per(f: impl Fn(usize, usize) -> f32) -> Q {
    let mut q = [[0.0; LANES]; 4];
    for (c, qc) in q.iter_mut().enumerate() {
        for (l, x) in qc.iter_mut().enumerate() {
            *x = f(c, l);
        }
    }
    q
}

fn next_reg(s: &Src, k: u16) -> Src {
    let mut s = *s;
    s.file = match s.file {
        File::Reg(r) => File::Reg(r + k),
        File::Const(r) => File::Const(r + k),
        f => f,
    };
    s
}

/// Texture lookup for every lane with implicit (per-quad derivatives) or explicit LOD.
fn tex_lookup(
    stage: Option<&Stage>,
    coords: &Q,
    lod: LodMode,
    (cur, nonfinite): (Mask, &mut u64),
) -> Q {
    let mut out = [[0.0; LANES]; 4];
    let Some(stage) = stage else {
        for l in 0..LANES {
            out[3][l] = 1.0;
        }
        return out;
    };
    let Some(tex) = stage.tex else {
        for l in 0..LANES {
            out[3][l] = 1.0;
        }
        return out;
    };
    let (gx, gy): (Q, Q) = match lod {
        LodMode::Implicit(_) => {
            let mut gx = [[0.0; LANES]; 4];
            let mut gy = [[0.0; LANES]; 4];
            for c in 0..4 {
                gx[c] = ddx(&coords[c]);
                gy[c] = ddy(&coords[c]);
            }
            (gx, gy)
        }
        LodMode::Grad(gx, gy) => (*gx, *gy),
        _ => ([[0.0; LANES]; 4], [[0.0; LANES]; 4]),
    };
    for l in 0..LANES {
        let c = [coords[0][l], coords[1][l], coords[2][l], coords[3][l]];
        let lodv = match lod {
            LodMode::Implicit(bias) => {
                if tex.kind == TextureKind::Cube {
                    // Derivatives of the face coordinates: approximate with the
                    // direction's derivatives divided by the major axis.
                    let (_, _) = texture::cube_face([c[0], c[1], c[2]]);
                    let ma = c[0].abs().max(c[1].abs()).max(c[2].abs()).max(1e-30);
                    let s = 0.5 / ma;
                    Lod::Grad(
                        [gx[0][l] * s, gx[1][l] * s, gx[2][l] * s],
                        [gy[0][l] * s, gy[1][l] * s, gy[2][l] * s],
                        bias[l],
                    )
                } else {
                    Lod::Grad(
                        [gx[0][l], gx[1][l], gx[2][l]],
                        [gy[0][l], gy[1][l], gy[2][l]],
                        bias[l],
                    )
                }
            }
            LodMode::Grad(..) => Lod::Grad(
                [gx[0][l], gx[1][l], gx[2][l]],
                [gy[0][l], gy[1][l], gy[2][l]],
                0.0,
            ),
            LodMode::Level(lv) => Lod::Level(lv[l]),
        };
        let n = if tex.kind == TextureKind::Tex2D { 2 } else { 3 };
        let level_ok = !matches!(lodv, Lod::Level(x) if !x.is_finite());
        if cur & (1 << l) != 0 && (c[..n].iter().any(|x| !x.is_finite()) || !level_ok) {
            *nonfinite += 1;
        }
        let v = texture::sample(tex, &stage.state, c, lodv);
        for ch in 0..4 {
            out[ch][l] = v[ch];
        }
    }
    out
}

#[derive(Clone, Copy)]
enum LodMode<'a> {
    Implicit([f32; LANES]),
    Grad(&'a Q, &'a Q),
    Level([f32; LANES]),
}

/// ps_1_1–1_3 projective divide by the component the stage's projection names
/// ([`crate::Draw::projection`]: the rule, from the texture-transform flags, the
/// vertex shader and the bound texture).
fn project_1x(q: &mut Q, stage: Option<&Stage>) {
    let Some(s) = stage else { return };
    let count = s.projection as usize;
    if !(2..=4).contains(&count) {
        return;
    }
    let d = count - 1;
    for l in 0..LANES {
        let w = q[d][l];
        for c in 0..3 {
            q[c][l] /= w;
        }
    }
}

/// Computes the result of an arithmetic or texture instruction into `out`; false when
/// it writes no register (`texkill`, the `texm3x#pad` rows…).
#[inline(always)]
fn compute(
    p: &Program,
    inst: &Inst,
    st: &mut Lanes,
    env: &Env,
    ps1: bool,
    cur: Mask,
    out: &mut Q,
) -> Result<bool, ExecError> {
    if alu(p, inst, st, env, out) {
        return Ok(true);
    }
    Ok(match eval(p, inst, st, env, ps1, cur)? {
        Some(q) => {
            *out = q;
            true
        }
        None => false,
    })
}

/// The instructions [`alu`] leaves out: texture sampling and addressing, the
/// multi-output and rarer arithmetic, fused `mad`. Kept out of line so the interpreter
/// loop stays small. Long by design: one arm per opcode over operand closures shared
/// by every arm (the executor's instruction table).
#[inline(never)]
fn eval(
    p: &Program,
    inst: &Inst,
    st: &mut Lanes,
    env: &Env,
    ps1: bool,
    cur: Mask,
) -> Result<Option<Q>, ExecError> {
    let sem = env.sem;
    let v = p.version;
    let rd = |k: usize, st: &Lanes| st.read(&inst.src[k], env, ps1);
    let stage = |n: u16| env.stages.get(n as usize);
    Ok(Some(match inst.op {
        // The fused form only: `alu` computes the unfused one.
        Opcode::Mad => {
            let (a, b, d) = (rd(0, st), rd(1, st), rd(2, st));
            per(|c, l| {
                let (x, y) = (a[c][l], b[c][l]);
                if x == 0.0 || y == 0.0 {
                    sem.mul(x, y) + d[c][l]
                } else {
                    x.mul_add(y, d[c][l])
                }
            })
        }
        Opcode::ExpP => {
            let a = rd(0, st);
            let w = inst.op.scalar_component();
            if v.major < 2 {
                let mut q = [[0.0; LANES]; 4];
                for l in 0..LANES {
                    let x = a[w][l];
                    let f = x.floor();
                    q[0][l] = f.exp2();
                    q[1][l] = x - f;
                    q[2][l] = x.exp2();
                    q[3][l] = 1.0;
                }
                q
            } else {
                splat(|l| a[w][l].exp2())
            }
        }
        Opcode::LogP => {
            let a = rd(0, st);
            let w = inst.op.scalar_component();
            if v.major < 2 {
                let mut q = [[0.0; LANES]; 4];
                for l in 0..LANES {
                    let x = a[w][l].abs();
                    if x == 0.0 {
                        let m = sem.log2(0.0);
                        q[0][l] = m;
                        q[1][l] = 1.0;
                        q[2][l] = m;
                    } else {
                        let e = x.log2().floor();
                        q[0][l] = e;
                        q[1][l] = x / e.exp2();
                        q[2][l] = x.log2();
                    }
                    q[3][l] = 1.0;
                }
                q
            } else {
                splat(|l| sem.log2(a[w][l]))
            }
        }
        Opcode::Sgn => {
            let a = rd(0, st);
            per(|c, l| {
                let x = a[c][l];
                if x > 0.0 {
                    1.0
                } else if x < 0.0 {
                    -1.0
                } else {
                    0.0
                }
            })
        }
        Opcode::Pow => {
            let (a, b) = (rd(0, st), rd(1, st));
            let w = inst.op.scalar_component();
            splat(|l| {
                let base = a[w][l].abs();
                let e = b[w][l];
                sem.mul(e, sem.log2(base)).exp2()
            })
        }
        Opcode::Lit => {
            let a = rd(0, st);
            let mut q = [[0.0; LANES]; 4];
            for l in 0..LANES {
                let (x, y, w) = (a[0][l], a[1][l], a[3][l]);
                let pw = w.clamp(-127.9961, 127.9961);
                q[0][l] = 1.0;
                q[1][l] = if x > 0.0 { x } else { 0.0 };
                q[2][l] = if x > 0.0 && y > 0.0 {
                    sem.mul(pw, sem.log2(y)).exp2()
                } else {
                    0.0
                };
                q[3][l] = 1.0;
            }
            q
        }
        Opcode::Dst => {
            let (a, b) = (rd(0, st), rd(1, st));
            let mut q = [[0.0; LANES]; 4];
            for l in 0..LANES {
                q[0][l] = 1.0;
                q[1][l] = sem.mul(a[1][l], b[1][l]);
                q[2][l] = a[2][l];
                q[3][l] = b[3][l];
            }
            q
        }
        Opcode::Crs => {
            let (a, b) = (rd(0, st), rd(1, st));
            let mut q = [[0.0; LANES]; 4];
            for l in 0..LANES {
                q[0][l] = sem.mul(a[1][l], b[2][l]) - sem.mul(a[2][l], b[1][l]);
                q[1][l] = sem.mul(a[2][l], b[0][l]) - sem.mul(a[0][l], b[2][l]);
                q[2][l] = sem.mul(a[0][l], b[1][l]) - sem.mul(a[1][l], b[0][l]);
            }
            q
        }
        Opcode::SinCos => {
            let a = rd(0, st);
            let comp = inst.op.scalar_component();
            let mut q = st_reg_value(st, &inst.dst);
            for l in 0..LANES {
                let x = a[comp][l];
                q[0][l] = x.cos();
                q[1][l] = x.sin();
            }
            q
        }
        Opcode::SetP => {
            let (a, b) = (rd(0, st), rd(1, st));
            per(|c, l| cmp(inst.ctrl, a[c][l], b[c][l]) as u8 as f32)
        }
        Opcode::Dsx => {
            let a = rd(0, st);
            per(|c, l| ddx(&a[c])[l])
        }
        Opcode::Dsy => {
            let a = rd(0, st);
            per(|c, l| ddy(&a[c])[l])
        }
        Opcode::TexKill => {
            let r = st.read(
                &Src {
                    file: inst.dst.file,
                    rel: None,
                    swz: [0, 1, 2, 3],
                    m: SrcModifier::None,
                },
                env,
                ps1,
            );
            let mask = if v.major < 2 { 0x7 } else { inst.dst.mask };
            for l in 0..LANES {
                if cur & (1 << l) == 0 {
                    continue;
                }
                for c in 0..4 {
                    if mask & (1 << c) != 0 && r[c][l] < 0.0 {
                        st.killed |= 1 << l;
                    }
                }
            }
            return Ok(None);
        }
        Opcode::Tex if v.major >= 2 => {
            let mut c = rd(0, st);
            let s = match inst.src[1].file {
                File::Sampler(n) => n,
                _ => 0,
            };
            let stg = stage(s);
            let proj = inst.ctrl & 1 != 0;
            let bias = inst.ctrl & 2 != 0;
            let q = if v.is_vertex() {
                tex_lookup(
                    stg,
                    &c,
                    LodMode::Level([0.0; LANES]),
                    (cur, &mut st.nonfinite_lookups),
                )
            } else {
                if proj {
                    for l in 0..LANES {
                        let w = c[3][l];
                        for k in 0..3 {
                            c[k][l] /= w;
                        }
                    }
                }
                let b = if bias { c[3] } else { [0.0; LANES] };
                tex_lookup(
                    stg,
                    &c,
                    LodMode::Implicit(b),
                    (cur, &mut st.nonfinite_lookups),
                )
            };
            let sw = inst.src[1].swz;
            per(|ch, l| q[sw[ch] as usize][l])
        }
        Opcode::TexLdl => {
            let c = rd(0, st);
            let s = match inst.src[1].file {
                File::Sampler(n) => n,
                _ => 0,
            };
            let q = tex_lookup(
                stage(s),
                &c,
                LodMode::Level(c[3]),
                (cur, &mut st.nonfinite_lookups),
            );
            let sw = inst.src[1].swz;
            per(|ch, l| q[sw[ch] as usize][l])
        }
        Opcode::TexLdd => {
            let c = rd(0, st);
            let s = match inst.src[1].file {
                File::Sampler(n) => n,
                _ => 0,
            };
            let (gx, gy) = (rd(2, st), rd(3, st));
            let q = tex_lookup(
                stage(s),
                &c,
                LodMode::Grad(&gx, &gy),
                (cur, &mut st.nonfinite_lookups),
            );
            let sw = inst.src[1].swz;
            per(|ch, l| q[sw[ch] as usize][l])
        }
        // ps_1_4 texld r#, t#/r# ; ps_1_1-1_3 tex t#.
        Opcode::Tex => {
            let n = inst.dst.num;
            let stg = stage(n);
            let mut c = if v.minor >= 4 {
                let mut c = rd(0, st);
                dz_dw(&mut c, inst.src[0].m);
                c
            } else {
                let mut c = st.regs[tc_reg(n)];
                project_1x(&mut c, stg);
                c
            };
            if v.minor >= 4 {
                project_1x(&mut c, None);
            }
            tex_lookup(
                stg,
                &c,
                LodMode::Implicit([0.0; LANES]),
                (cur, &mut st.nonfinite_lookups),
            )
        }
        Opcode::TexCoord => {
            if v.minor >= 4 {
                let mut c = rd(0, st);
                dz_dw(&mut c, inst.src[0].m);
                c
            } else {
                let c = st.regs[tc_reg(inst.dst.num)];
                let mut q = per(|ch, l| sat(c[ch][l]));
                q[3] = [1.0; LANES];
                q
            }
        }
        Opcode::TexBem | Opcode::TexBemL => {
            let n = inst.dst.num;
            let stg = stage(n);
            let src = rd(0, st);
            let mut c = st.regs[tc_reg(n)];
            project_1x(&mut c, stg);
            let m = stg.map(|s| s.tss).unwrap_or_default();
            for l in 0..LANES {
                let (r, g) = (src[0][l], src[1][l]);
                let u = c[0][l] + sem.mul(m.bump_mat[0], r) + sem.mul(m.bump_mat[2], g);
                let vv = c[1][l] + sem.mul(m.bump_mat[1], r) + sem.mul(m.bump_mat[3], g);
                c[0][l] = u;
                c[1][l] = vv;
            }
            let mut q = tex_lookup(
                stg,
                &c,
                LodMode::Implicit([0.0; LANES]),
                (cur, &mut st.nonfinite_lookups),
            );
            if inst.op == Opcode::TexBemL {
                for l in 0..LANES {
                    // Saturated, and it scales all four channels: the documented
                    // `t(m)RGBA = t(m)RGBA * (t(n)B * LSCALE + LOFFSET)`, with the clamp
                    // Windows applies to D3DTOP_BUMPENVMAPLUMINANCE (Wine
                    // fixed_function_bumpmap_test) and DXVK applies to texbeml.
                    let f = sat(sem.mul(src[2][l], m.bump_lscale) + m.bump_loffset);
                    for ch in 0..4 {
                        q[ch][l] *= f;
                    }
                }
            }
            q
        }
        Opcode::Bem => {
            let (a, b) = (rd(0, st), rd(1, st));
            let m = stage(inst.dst.num).map(|s| s.tss).unwrap_or_default();
            let mut q = a;
            for l in 0..LANES {
                q[0][l] =
                    a[0][l] + sem.mul(m.bump_mat[0], b[0][l]) + sem.mul(m.bump_mat[2], b[1][l]);
                q[1][l] =
                    a[1][l] + sem.mul(m.bump_mat[1], b[0][l]) + sem.mul(m.bump_mat[3], b[1][l]);
            }
            q
        }
        Opcode::TexReg2Ar | Opcode::TexReg2Gb | Opcode::TexReg2Rgb => {
            let n = inst.dst.num;
            let s = rd(0, st);
            let sel: [usize; 3] = match inst.op {
                Opcode::TexReg2Ar => [3, 0, 2],
                Opcode::TexReg2Gb => [1, 2, 2],
                _ => [0, 1, 2],
            };
            let c = per(|ch, l| if ch < 3 { s[sel[ch]][l] } else { 1.0 });
            tex_lookup(
                stage(n),
                &c,
                LodMode::Implicit([0.0; LANES]),
                (cur, &mut st.nonfinite_lookups),
            )
        }
        Opcode::TexM3x2Pad | Opcode::TexM3x3Pad => {
            let n = inst.dst.num;
            let s = rd(0, st);
            let tc = st.regs[tc_reg(n)];
            let row = if inst.op == Opcode::TexM3x2Pad {
                0
            } else {
                st_m3_row(p, inst)
            };
            for l in 0..LANES {
                st.m3[row][l] = dot(sem, &tc, &s, 3, l);
            }
            return Ok(None);
        }
        Opcode::TexM3x2Tex | Opcode::TexM3x2Depth => {
            let n = inst.dst.num;
            let s = rd(0, st);
            let tc = st.regs[tc_reg(n)];
            let mut c = [[0.0; LANES]; 4];
            for l in 0..LANES {
                c[0][l] = st.m3[0][l];
                c[1][l] = dot(sem, &tc, &s, 3, l);
            }
            if inst.op == Opcode::TexM3x2Depth {
                for l in 0..LANES {
                    let (z, w) = (c[0][l], c[1][l]);
                    st.regs[DEPTH][0][l] = if w == 0.0 { 1.0 } else { z / w };
                }
                return Ok(None);
            }
            tex_lookup(
                stage(n),
                &c,
                LodMode::Implicit([0.0; LANES]),
                (cur, &mut st.nonfinite_lookups),
            )
        }
        Opcode::TexM3x3Tex | Opcode::TexM3x3 | Opcode::TexM3x3Spec | Opcode::TexM3x3VSpec => {
            let n = inst.dst.num;
            let s = rd(0, st);
            let tc = st.regs[tc_reg(n)];
            let mut c = [[0.0; LANES]; 4];
            for l in 0..LANES {
                c[0][l] = st.m3[0][l];
                c[1][l] = st.m3[1][l];
                c[2][l] = dot(sem, &tc, &s, 3, l);
                c[3][l] = 1.0;
            }
            match inst.op {
                Opcode::TexM3x3 => c,
                Opcode::TexM3x3Tex => tex_lookup(
                    stage(n),
                    &c,
                    LodMode::Implicit([0.0; LANES]),
                    (cur, &mut st.nonfinite_lookups),
                ),
                _ => {
                    let e: Q = if inst.op == Opcode::TexM3x3Spec {
                        rd(1, st)
                    } else {
                        // Eye vector from the w of the three texture coordinates.
                        let mut e = [[0.0; LANES]; 4];
                        for (k, r) in [n.saturating_sub(2), n.saturating_sub(1), n]
                            .iter()
                            .enumerate()
                        {
                            e[k] = st.regs[tc_reg(*r)][3];
                        }
                        e
                    };
                    let mut rc = [[0.0; LANES]; 4];
                    for l in 0..LANES {
                        let nn = dot(sem, &c, &c, 3, l);
                        let ne = dot(sem, &c, &e, 3, l);
                        for k in 0..3 {
                            let r = if nn != 0.0 {
                                2.0 * sem.mul(c[k][l], ne) / nn - e[k][l]
                            } else {
                                -e[k][l]
                            };
                            rc[k][l] = r;
                        }
                        rc[3][l] = 1.0;
                    }
                    tex_lookup(
                        stage(n),
                        &rc,
                        LodMode::Implicit([0.0; LANES]),
                        (cur, &mut st.nonfinite_lookups),
                    )
                }
            }
        }
        Opcode::TexDp3Tex => {
            let n = inst.dst.num;
            let s = rd(0, st);
            let tc = st.regs[tc_reg(n)];
            let c = per(|ch, l| {
                if ch == 0 {
                    dot(sem, &tc, &s, 3, l)
                } else {
                    0.0
                }
            });
            tex_lookup(
                stage(n),
                &c,
                LodMode::Implicit([0.0; LANES]),
                (cur, &mut st.nonfinite_lookups),
            )
        }
        Opcode::TexDp3 => {
            let n = inst.dst.num;
            let s = rd(0, st);
            let tc = st.regs[tc_reg(n)];
            splat(|l| dot(sem, &tc, &s, 3, l))
        }
        Opcode::TexDepth => {
            let r = st.regs[temp_reg(5)];
            for l in 0..LANES {
                let (z, w) = (r[0][l], r[1][l]);
                st.regs[DEPTH][0][l] = if w == 0.0 { 1.0 } else { z / w };
            }
            return Ok(None);
        }
        // Executed by `alu`, by the dispatch loop (flow control) or dropped by
        // `Program::new` (declarations): not evaluated here. Listed rather than
        // wildcarded, so that a new opcode fails to compile until the executor has it.
        op @ (Opcode::Nop
        | Opcode::Mov
        | Opcode::Add
        | Opcode::Sub
        | Opcode::Mul
        | Opcode::Rcp
        | Opcode::Rsq
        | Opcode::Dp3
        | Opcode::Dp4
        | Opcode::Min
        | Opcode::Max
        | Opcode::Slt
        | Opcode::Sge
        | Opcode::Exp
        | Opcode::Log
        | Opcode::Lrp
        | Opcode::Frc
        | Opcode::M4x4
        | Opcode::M4x3
        | Opcode::M3x4
        | Opcode::M3x3
        | Opcode::M3x2
        | Opcode::Call
        | Opcode::CallNz
        | Opcode::Loop
        | Opcode::Ret
        | Opcode::EndLoop
        | Opcode::Label
        | Opcode::Dcl
        | Opcode::Abs
        | Opcode::Nrm
        | Opcode::Rep
        | Opcode::EndRep
        | Opcode::If
        | Opcode::IfC
        | Opcode::Else
        | Opcode::EndIf
        | Opcode::Break
        | Opcode::BreakC
        | Opcode::Mova
        | Opcode::DefB
        | Opcode::DefI
        | Opcode::Reserved0
        | Opcode::Cnd
        | Opcode::Def
        | Opcode::Cmp
        | Opcode::Dp2Add
        | Opcode::BreakP
        | Opcode::Phase
        | Opcode::Comment
        | Opcode::End) => return Err(ExecError::Unsupported(format!("opcode {op:?}"))),
    }))
}

/// One lane row (one component of every lane).
type Row = [f32; LANES];

/// `sem.mul` over a row, written without branches so it vectorises: the same results
/// bit for bit (checked against [`Semantics::mul`] by a test).
#[inline(always)]
fn mul_row(sem: &Semantics, x: &Row, y: &Row) -> Row {
    let mut o = [0.0; LANES];
    match sem.mul_zero {
        d3dbc::semantics::MulZero::Ieee => {
            for l in 0..LANES {
                o[l] = x[l] * y[l];
            }
        }
        _ => {
            for l in 0..LANES {
                let (a, b) = (x[l], y[l]);
                let a = if b == 0.0 && !a.is_finite() { 0.0 } else { a };
                let b = if a == 0.0 && !b.is_finite() { 0.0 } else { b };
                o[l] = a * b;
            }
        }
    }
    o
}

#[inline(always)]
fn map_row(x: &Row, f: impl Fn(f32) -> f32) -> Row {
    let mut o = [0.0; LANES];
    for l in 0..LANES {
        o[l] = f(x[l]);
    }
    o
}

#[inline(always)]
fn zip_row(x: &Row, y: &Row, f: impl Fn(f32, f32) -> f32) -> Row {
    let mut o = [0.0; LANES];
    for l in 0..LANES {
        o[l] = f(x[l], y[l]);
    }
    o
}

#[inline(always)]
fn zip3_row(x: &Row, y: &Row, z: &Row, f: impl Fn(f32, f32, f32) -> f32) -> Row {
    let mut o = [0.0; LANES];
    for l in 0..LANES {
        o[l] = f(x[l], y[l], z[l]);
    }
    o
}

/// A source modifier applied to one row (the same arithmetic as [`apply_mod`]).
#[inline(always)]
fn mod_row(r: Row, m: SrcModifier) -> Row {
    use SrcModifier::*;
    match m {
        None | Not | Dz | Dw => r,
        Neg => map_row(&r, |x| Neg.apply(x)),
        Bias => map_row(&r, |x| Bias.apply(x)),
        BiasNeg => map_row(&r, |x| BiasNeg.apply(x)),
        Sign => map_row(&r, |x| Sign.apply(x)),
        SignNeg => map_row(&r, |x| SignNeg.apply(x)),
        Comp => map_row(&r, |x| Comp.apply(x)),
        X2 => map_row(&r, |x| X2.apply(x)),
        X2Neg => map_row(&r, |x| X2Neg.apply(x)),
        Abs => map_row(&r, |x| Abs.apply(x)),
        AbsNeg => map_row(&r, |x| AbsNeg.apply(x)),
    }
}

impl Lanes {
    /// Component `c` of a source operand after swizzle and modifier, for every lane:
    /// the same values as `read(s)[c]`, without building the other components.
    #[inline(always)]
    fn row(&self, s: &Src, c: usize, env: &Env) -> Row {
        let k = s.swz[c] as usize;
        let r = match (s.file, s.rel) {
            (File::Reg(r), None) => self.regs[r as usize][k],
            (File::Const(n), None) => [env.consts.f.get(n as usize).map_or(0.0, |v| v[k]); LANES],
            _ => return self.read(s, env, false)[c],
        };
        mod_row(r, s.m)
    }
}

/// Arithmetic instructions computed component by component over all lanes, straight
/// from the register file into `out` (only the components the write mask keeps).
/// Returns false for an instruction this path does not handle (`eval` then runs it).
/// Same operations in the same order as `eval`.
#[inline(always)]
fn alu(p: &Program, inst: &Inst, st: &Lanes, env: &Env, out: &mut Q) -> bool {
    let sem = env.sem;
    let mask = inst.dst.mask;
    let s = &inst.src;
    let row = |k: usize, c: usize| st.row(&s[k], c, env);
    // Per written component: out[c] = f(c).
    macro_rules! each {
        (|$c:ident| $e:expr) => {{
            for $c in 0..4 {
                if mask & (1 << $c) != 0 {
                    out[$c] = $e;
                }
            }
        }};
    }
    // One value for every written component.
    macro_rules! splat {
        ($e:expr) => {{
            let v: Row = $e;
            each!(|c| v)
        }};
    }
    let dot = |n: usize, a: &dyn Fn(usize) -> Row, b: &dyn Fn(usize) -> Row| -> Row {
        let mut acc = mul_row(sem, &a(0), &b(0));
        for c in 1..n {
            let m = mul_row(sem, &a(c), &b(c));
            for l in 0..LANES {
                acc[l] += m[l];
            }
        }
        acc
    };
    match inst.op {
        Opcode::Mov | Opcode::Mova => each!(|c| row(0, c)),
        Opcode::Add => each!(|c| zip_row(&row(0, c), &row(1, c), |a, b| a + b)),
        Opcode::Sub => each!(|c| zip_row(&row(0, c), &row(1, c), |a, b| a - b)),
        Opcode::Mul => each!(|c| mul_row(sem, &row(0, c), &row(1, c))),
        Opcode::Mad if !sem.fused_mad => each!(|c| {
            let m = mul_row(sem, &row(0, c), &row(1, c));
            zip_row(&m, &row(2, c), |x, y| x + y)
        }),
        Opcode::Dp3 => splat!(dot(3, &|c| row(0, c), &|c| row(1, c))),
        Opcode::Dp4 => splat!(dot(4, &|c| row(0, c), &|c| row(1, c))),
        Opcode::Dp2Add => splat!({
            let d = dot(2, &|c| row(0, c), &|c| row(1, c));
            zip_row(&d, &row(2, 0), |x, y| x + y)
        }),
        Opcode::Min => each!(|c| zip_row(&row(0, c), &row(1, c), |a, b| if a < b { a } else { b })),
        Opcode::Max => {
            each!(|c| zip_row(&row(0, c), &row(1, c), |a, b| if a >= b { a } else { b }))
        }
        Opcode::Slt => each!(|c| zip_row(&row(0, c), &row(1, c), |a, b| (a < b) as u8 as f32)),
        Opcode::Sge => each!(|c| zip_row(&row(0, c), &row(1, c), |a, b| (a >= b) as u8 as f32)),
        Opcode::Cmp => each!(|c| zip3_row(&row(0, c), &row(1, c), &row(2, c), |a, b, d| {
            if a >= 0.0 {
                b
            } else {
                d
            }
        })),
        Opcode::Cnd => {
            let v = p.version;
            let ps11 = v.minor < 4 && v.major == 1;
            each!(|c| {
                let a = row(0, if ps11 { 3 } else { c });
                zip3_row(
                    &a,
                    &row(1, c),
                    &row(2, c),
                    |a, b, d| if a > 0.5 { b } else { d },
                )
            })
        }
        Opcode::Lrp => each!(|c| {
            let (a, b, d) = (row(0, c), row(1, c), row(2, c));
            let m = mul_row(sem, &a, &zip_row(&b, &d, |x, y| x - y));
            zip_row(&m, &d, |x, y| x + y)
        }),
        Opcode::Frc => each!(|c| map_row(&row(0, c), |x| x - x.floor())),
        Opcode::Abs => each!(|c| map_row(&row(0, c), |x| x.abs())),
        Opcode::Rcp => splat!(map_row(&row(0, inst.op.scalar_component()), |x| sem.rcp(x))),
        Opcode::Rsq => splat!(map_row(&row(0, inst.op.scalar_component()), |x| sem.rsq(x))),
        Opcode::Exp => splat!(map_row(&row(0, inst.op.scalar_component()), |x| x.exp2())),
        Opcode::Log => splat!(map_row(&row(0, inst.op.scalar_component()), |x| sem.log2(x))),
        Opcode::Nrm => {
            let a = [row(0, 0), row(0, 1), row(0, 2), row(0, 3)];
            let f = dot(3, &|c| a[c], &|c| a[c]);
            let r = map_row(&f, |f| if f != 0.0 { sem.rsq(f) } else { f32::MAX });
            each!(|c| mul_row(sem, &a[c], &r))
        }
        Opcode::M4x4 | Opcode::M4x3 | Opcode::M3x4 | Opcode::M3x3 | Opcode::M3x2 => {
            let Some(shape) = inst.op.matrix() else {
                return false;
            };
            let (k, rows) = (shape.columns as usize, shape.rows as usize);
            for r in 0..rows {
                if mask & (1 << r) != 0 {
                    let m = next_reg(&s[1], r as u16);
                    out[r] = dot(k, &|c| row(0, c), &|c| st.row(&m, c, env));
                }
            }
        }
        _ => return false,
    }
    true
}

fn st_reg_value(st: &Lanes, d: &Dst) -> Q {
    match d.file {
        File::Reg(r) => st.regs[r as usize],
        _ => [[0.0; LANES]; 4],
    }
}

/// Which pad row a `texm3x3pad` fills: the first when the next instruction is also a pad.
fn st_m3_row(p: &Program, inst: &Inst) -> usize {
    let i = p
        .insts
        .iter()
        .position(|x| std::ptr::eq(x, inst))
        .unwrap_or(0);
    match p.insts.get(i + 1).map(|x| x.op) {
        Some(Opcode::TexM3x3Pad) => 0,
        _ => 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use d3dbc::semantics::MulZero;

    #[test]
    fn mul_row_is_semantics_mul() {
        let vals = [
            0.0f32,
            -0.0,
            1.0,
            -2.5,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
            -f32::NAN,
            f32::MAX,
            f32::MIN_POSITIVE,
            1e-45,
        ];
        for mz in [MulZero::Strict, MulZero::Fast, MulZero::Ieee] {
            let sem = Semantics {
                mul_zero: mz,
                ..Semantics::default()
            };
            for a in vals {
                for b in vals {
                    let r = mul_row(&sem, &[a; LANES], &[b; LANES]);
                    let want = sem.mul(a, b);
                    // A NaN result's sign and payload are not specified (IEEE 754: the
                    // optimiser's vector and scalar code may differ); any NaN matches.
                    assert!(
                        r.iter().all(|x| x.to_bits() == want.to_bits()
                            || (x.is_nan() && want.is_nan())),
                        "{mz:?}: {a} * {b}: {} != {want}",
                        r[0]
                    );
                }
            }
        }
    }
}
