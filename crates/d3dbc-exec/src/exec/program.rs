//! A validated shader translated once for execution: [`Program`] (operands resolved to
//! register-file entries, swizzles unpacked, jump targets and calls resolved, the
//! declared inputs, outputs and samplers) and the float/int/bool constant file of a
//! stage ([`ConstFile`]).

use d3dbc::ir::Instruction;
use d3dbc::opcode::{Block, Opcode, Role};
use d3dbc::regs::{self, SAMPLER_STAGES};
use d3dbc::token::{DeclUsage, RegisterType, SamplerType, SrcModifier};
use d3dbc::Analysis;
use d3dbc::{Register, Semantics, Shader, Version};

use super::layout::{
    NREGS, R_ATTR, R_COLOR, R_DEPTH, R_FOG, R_INPUT, R_OUT, R_POS, R_PTS, R_TEMP, R_TEX, R_VFACE,
    R_VPOS,
};
use super::ExecError;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum File {
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
pub(super) struct Src {
    pub(super) file: File,
    /// Relative addressing: (address register is aL, component of a0).
    pub(super) rel: Option<(bool, u8)>,
    pub(super) swz: [u8; 4],
    pub(super) m: SrcModifier,
}

#[derive(Clone, Copy, Debug)]
pub(super) struct Dst {
    pub(super) file: File,
    pub(super) rel: bool,
    pub(super) mask: u8,
    pub(super) sat: bool,
    pub(super) shift: i8,
    pub(super) num: u16,
}

#[derive(Clone, Copy, Debug)]
pub(super) struct Inst {
    pub(super) op: Opcode,
    pub(super) ctrl: u8,
    pub(super) coissue: bool,
    /// The next instruction is co-issued with this one.
    pub(super) pair: bool,
    pub(super) pred: Option<Src>,
    pub(super) dst: Dst,
    pub(super) src: [Src; 4],

    /// Jump target (else/endif/loop end/label pc).
    pub(super) target: u32,
    pub(super) offset: u32,
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
    pub(super) insts: Vec<Inst>,
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
    pub(crate) writes: [bool; NREGS],
    /// The same as a list of register-file indices.
    pub(super) written: Vec<u8>,
    /// The original instruction of each translated one (for traces).
    pub(crate) originals: Vec<Instruction>,
    /// Temporaries of the version (the ps_1_4 `phase` clears their alpha).
    pub(super) temps: usize,
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
                    let (usage, index) = if v.declares_varyings() {
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
        if v.is_ps_1_x() && sem.ps1x_clamp_constants {
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
