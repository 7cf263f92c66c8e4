//! The pre-pass over a shader's instructions: which registers it reads and writes,
//! its declarations and `def*` constants, sampled stages, flow control and the split
//! into the main program and `label` subroutines.

use std::collections::{BTreeMap, BTreeSet};

use d3dbc::ir::Instruction;
use d3dbc::token::{DeclUsage, RegisterType, SamplerType};
use d3dbc::{Opcode, Version};

use crate::Error;

/// A register key: (type, number).
pub(crate) type Key = (RegisterType, u16);

/// One `dcl` of an input or output register with a usage.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Decl {
    pub num: u16,
    pub usage: DeclUsage,
    pub index: u8,
    pub mask: u8,
    pub centroid: bool,
}

/// What the pre-pass learns.
#[derive(Default)]
pub(crate) struct Scan {
    pub used: BTreeSet<Key>,
    pub written: BTreeSet<Key>,
    pub float_defs: BTreeMap<u16, [f32; 4]>,
    pub int_defs: BTreeMap<u16, [i32; 4]>,
    pub bool_defs: BTreeMap<u16, bool>,
    /// Input (`v#`, `t#`) declarations with usages (register type, decl).
    pub inputs: Vec<(RegisterType, Decl)>,
    /// vs_3_0 output declarations.
    pub outputs: Vec<Decl>,
    /// Declared samplers.
    pub samplers: BTreeMap<u16, SamplerType>,
    /// Stages sampled.
    pub stages: BTreeSet<u16>,
    /// Texture-coordinate inputs ps_1_x texture ops read directly.
    pub texcoords: BTreeSet<u16>,
    pub max_const: Option<u32>,
    pub reads_int: bool,
    pub reads_bool: bool,
    pub has_flow: bool,
    pub has_calls: bool,
    pub writes_depth: bool,
    pub discards: bool,
    /// Instruction ranges: `sections[0]` is main, the others `(label, range)`.
    pub main: std::ops::Range<usize>,
    pub subs: Vec<(u16, std::ops::Range<usize>)>,
}

/// The lowering's pre-pass over the instructions: declarations, definitions, registers
/// read and written, blocks and subroutines. `offsets` holds each instruction's DWORD
/// offset, then the end token's (for errors). Long by design: one arm per opcode class
/// over the scan being built.
pub(crate) fn scan(
    version: Version,
    ins: &[Instruction],
    offsets: &[usize],
) -> Result<Scan, Error> {
    let mut s = Scan::default();
    let ps1x = version.is_pixel() && version.major < 2;
    let mut depth = 0usize;
    let mut main_end = ins.len();
    let mut cur_label: Option<(u16, usize)> = None;
    for (i, x) in ins.iter().enumerate() {
        let op = x.opcode;
        match op {
            Opcode::If | Opcode::IfC | Opcode::Loop | Opcode::Rep => {
                depth += 1;
                s.has_flow = true;
            }
            Opcode::EndIf | Opcode::EndLoop | Opcode::EndRep => {
                depth = depth
                    .checked_sub(1)
                    .ok_or(Error::Flow(offsets[i], "unbalanced end of block"))?;
            }
            Opcode::Break | Opcode::BreakC | Opcode::BreakP => s.has_flow = true,
            Opcode::Call | Opcode::CallNz => {
                s.has_flow = true;
                s.has_calls = true;
            }
            Opcode::Label => {
                s.has_flow = true;
                s.has_calls = true;
                if depth != 0 {
                    return Err(Error::Flow(offsets[i], "label inside a block"));
                }
                if let Some((l, start)) = cur_label.take() {
                    s.subs.push((l, start..i));
                } else {
                    main_end = main_end.min(i);
                }
                cur_label = Some((x.srcs[0].reg.num, i + 1));
            }
            _ => {}
        }
        match op {
            Opcode::Dcl => {
                let r = x.dst.reg;
                match r.kind {
                    RegisterType::Sampler => {
                        s.samplers
                            .insert(r.num, x.decl.sampler_type().unwrap_or(SamplerType::Tex2D));
                    }
                    RegisterType::Output if version.is_vertex() => {
                        if let Some(u) = x.decl.usage_kind() {
                            s.outputs.push(Decl {
                                num: r.num,
                                usage: u,
                                index: x.decl.usage_index(),
                                mask: x.dst.mask,
                                centroid: false,
                            });
                        }
                    }
                    RegisterType::Input | RegisterType::AddrOrTexture => {
                        if let Some(u) = x.decl.usage_kind() {
                            s.inputs.push((
                                r.kind,
                                Decl {
                                    num: r.num,
                                    usage: u,
                                    index: x.decl.usage_index(),
                                    mask: x.dst.mask,
                                    centroid: x.dst.centroid(),
                                },
                            ));
                        } else {
                            s.inputs.push((
                                r.kind,
                                Decl {
                                    num: r.num,
                                    usage: if r.kind == RegisterType::Input {
                                        DeclUsage::Color
                                    } else {
                                        DeclUsage::TexCoord
                                    },
                                    index: r.num as u8,
                                    mask: x.dst.mask,
                                    centroid: x.dst.centroid(),
                                },
                            ));
                        }
                    }
                    _ => {}
                }
                if r.kind != RegisterType::Sampler && r.kind != RegisterType::Output {
                    s.used.insert((r.kind, r.num));
                }
                continue;
            }
            Opcode::Def => {
                s.float_defs.insert(x.dst.reg.num, x.imm_f32());
                continue;
            }
            Opcode::DefI => {
                s.int_defs.insert(x.dst.reg.num, x.imm.map(|v| v as i32));
                continue;
            }
            Opcode::DefB => {
                s.bool_defs.insert(x.dst.reg.num, x.imm[0] != 0);
                continue;
            }
            Opcode::Label | Opcode::Comment | Opcode::End | Opcode::Phase | Opcode::Nop => continue,
            _ => {}
        }
        let layout = x.layout(version);
        let note = |k: RegisterType, n: u16, s: &mut Scan| match k {
            RegisterType::Const
            | RegisterType::Const2
            | RegisterType::Const3
            | RegisterType::Const4 => {
                let n = d3dbc::regs::float_constant_index(k, n);
                s.max_const = Some(s.max_const.map_or(n, |m| m.max(n)));
            }
            RegisterType::ConstInt => s.reads_int = true,
            RegisterType::ConstBool => s.reads_bool = true,
            RegisterType::Sampler | RegisterType::Label => {}
            _ => {
                s.used.insert((k, n));
            }
        };
        for src in x.src() {
            note(src.reg.kind, src.reg.num, &mut s);
            if let Some(r) = src.rel {
                note(r.reg.kind, r.reg.num, &mut s);
            }
        }
        if let Some(p) = &x.predicate {
            note(p.reg.kind, p.reg.num, &mut s);
        }
        if layout.dst && op != Opcode::TexKill && op != Opcode::TexDepth {
            let d = x.dst.reg;
            note(d.kind, d.num, &mut s);
            if let Some(r) = x.dst.rel {
                note(r.reg.kind, r.reg.num, &mut s);
            }
            s.written.insert((d.kind, d.num));
        }
        match op {
            Opcode::TexKill => {
                s.discards = true;
                note(x.dst.reg.kind, x.dst.reg.num, &mut s);
            }
            Opcode::TexDepth => {
                s.writes_depth = true;
                note(x.dst.reg.kind, x.dst.reg.num, &mut s);
            }
            Opcode::TexM3x2Depth => s.writes_depth = true,
            Opcode::Loop => {
                s.used.insert((RegisterType::Loop, 0));
                s.written.insert((RegisterType::Loop, 0));
            }
            _ => {}
        }
        if x.dst.reg.kind == RegisterType::DepthOut && layout.dst {
            s.writes_depth = true;
        }
        if ps1x && op.is_ps1x_texture_op() {
            s.texcoords.insert(x.dst.reg.num);
            s.used.insert((RegisterType::AddrOrTexture, x.dst.reg.num));
        }
        match op {
            Opcode::Tex if version.major < 2 => {
                s.stages.insert(x.dst.reg.num);
            }
            Opcode::Tex | Opcode::TexLdd | Opcode::TexLdl => {
                s.stages.insert(x.srcs[1].reg.num);
            }
            _ if op.samples_dst_stage() => {
                s.stages.insert(x.dst.reg.num);
            }
            _ => {}
        }
    }
    if depth != 0 {
        return Err(Error::Flow(offsets[ins.len()], "unclosed block"));
    }
    if let Some((l, start)) = cur_label {
        s.subs.push((l, start..ins.len()));
    }
    s.main = 0..main_end;
    if ps1x {
        s.used.insert((RegisterType::Temp, 0));
    }
    if s.writes_depth {
        s.used.insert((RegisterType::DepthOut, 0));
        s.written.insert((RegisterType::DepthOut, 0));
    }
    Ok(s)
}
