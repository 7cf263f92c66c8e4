//! The pre-pass over a shader's instructions (the emitter's one scan), mirroring
//! `d3dbc-naga`'s: which registers are read and written, the declarations and `def*`
//! constants, flow control, and the split into the main program and `label`
//! subroutines. Register sets are fixed bit tables; only the declarations and
//! definitions go into vectors (once per shader, not per instruction).

use d3dbc::ir::Instruction;
use d3dbc::token::{DeclUsage, RegisterType, SamplerType};
use d3dbc::{Opcode, Version};

use crate::Error;

/// Register numbers a slot table holds per register type.
pub(crate) const MAX_REG: u16 = 64;
/// Register types.
pub(crate) const NKIND: usize = 20;

/// One `dcl` of an input or output register with a usage.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Decl {
    pub num: u16,
    pub usage: DeclUsage,
    pub index: u8,
    pub mask: u8,
    pub centroid: bool,
}

/// A set of (register type, number) with numbers below [`MAX_REG`].
#[derive(Clone, Copy, Default)]
pub(crate) struct RegSet([u64; NKIND]);

impl RegSet {
    pub fn insert(&mut self, k: RegisterType, n: u16) {
        self.0[k as usize] |= 1u64 << n;
    }
    pub fn contains(&self, k: RegisterType, n: u16) -> bool {
        n < MAX_REG && self.0[k as usize] & (1u64 << n) != 0
    }
    pub fn bits(&self, k: usize) -> u64 {
        self.0[k]
    }
}

/// What the pre-pass learns.
#[derive(Default)]
pub(crate) struct Scan {
    pub used: RegSet,
    pub written: RegSet,
    /// `def*` constants, sorted by register, the last definition of each.
    pub float_defs: Vec<(u16, [u32; 4])>,
    pub int_defs: Vec<(u16, [i32; 4])>,
    pub bool_defs: Vec<(u16, bool)>,
    pub inputs: Vec<(RegisterType, Decl)>,
    pub outputs: Vec<Decl>,
    /// Declared sampler types by register (`None`: not declared).
    pub samplers: [Option<SamplerType>; 32],
    pub max_const: Option<u32>,
    pub has_flow: bool,
    pub has_calls: bool,
    pub writes_depth: bool,
    pub discards: bool,
    /// Instruction ranges: main, and `(label, range)` per subroutine.
    pub main: std::ops::Range<usize>,
    pub subs: Vec<(u16, std::ops::Range<usize>)>,
}

fn is_ps1x_tex(op: Opcode) -> bool {
    use Opcode::*;
    matches!(
        op,
        TexCoord
            | Tex
            | TexBem
            | TexBemL
            | TexReg2Ar
            | TexReg2Gb
            | TexReg2Rgb
            | TexM3x2Pad
            | TexM3x2Tex
            | TexM3x3Pad
            | TexM3x3Tex
            | TexM3x3Spec
            | TexM3x3VSpec
            | TexM3x3
            | TexM3x2Depth
            | TexDp3
            | TexDp3Tex
    )
}

/// Sorts definitions by register, keeping the last definition of each (linear in the
/// number of definitions, whatever the input).
fn last_defs<V: Copy>(v: &mut Vec<(u16, V)>) {
    v.reverse();
    v.sort_by_key(|e| e.0);
    v.dedup_by_key(|e| e.0);
}

/// Scans `ins` (`offsets[i]` the DWORD offset of instruction `i`, for errors).
pub(crate) fn scan(version: Version, ins: &[Instruction], offsets: &[u32]) -> Result<Scan, Error> {
    let mut s = Scan::default();
    let ps1x = version.is_pixel() && version.major < 2;
    let mut depth = 0usize;
    let mut main_end = ins.len();
    let mut cur_label: Option<(u16, usize)> = None;
    let end_offset = offsets.last().map_or(1, |o| o + 1);
    for (i, x) in ins.iter().enumerate() {
        let op = x.opcode;
        let at = offsets[i];
        let flow = |why| Error::Flow { offset: at, why };
        match op {
            Opcode::If | Opcode::IfC | Opcode::Loop | Opcode::Rep => {
                depth += 1;
                s.has_flow = true;
            }
            Opcode::EndIf | Opcode::EndLoop | Opcode::EndRep => {
                depth = depth
                    .checked_sub(1)
                    .ok_or(flow("unbalanced end of block"))?;
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
                    return Err(flow("label inside a block"));
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
        let note = |k: RegisterType, n: u16, s: &mut Scan| -> Result<(), Error> {
            match k {
                RegisterType::Const
                | RegisterType::Const2
                | RegisterType::Const3
                | RegisterType::Const4 => {
                    let n = d3dbc::regs::float_constant_index(k, n);
                    s.max_const = Some(s.max_const.map_or(n, |m| m.max(n)));
                }
                RegisterType::ConstInt
                | RegisterType::ConstBool
                | RegisterType::Sampler
                | RegisterType::Label => {}
                _ => {
                    if n >= MAX_REG {
                        return Err(Error::Register {
                            offset: at,
                            kind: k,
                            num: n,
                        });
                    }
                    s.used.insert(k, n);
                }
            }
            Ok(())
        };
        match op {
            Opcode::Dcl => {
                let r = x.dst.reg;
                match r.kind {
                    RegisterType::Sampler => {
                        let slot = s.samplers.get_mut(r.num as usize).ok_or(Error::Register {
                            offset: at,
                            kind: r.kind,
                            num: r.num,
                        })?;
                        *slot = Some(x.decl.sampler_type().unwrap_or(SamplerType::Tex2D));
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
                        let (usage, index) = match x.decl.usage_kind() {
                            Some(u) => (u, x.decl.usage_index()),
                            None if r.kind == RegisterType::Input => {
                                (DeclUsage::Color, r.num as u8)
                            }
                            None => (DeclUsage::TexCoord, r.num as u8),
                        };
                        s.inputs.push((
                            r.kind,
                            Decl {
                                num: r.num,
                                usage,
                                index,
                                mask: x.dst.mask,
                                centroid: x.dst.centroid(),
                            },
                        ));
                    }
                    _ => {}
                }
                if r.kind != RegisterType::Sampler && r.kind != RegisterType::Output {
                    note(r.kind, r.num, &mut s)?;
                }
                continue;
            }
            Opcode::Def => {
                s.float_defs.push((x.dst.reg.num, x.imm));
                continue;
            }
            Opcode::DefI => {
                s.int_defs.push((x.dst.reg.num, x.imm.map(|v| v as i32)));
                continue;
            }
            Opcode::DefB => {
                s.bool_defs.push((x.dst.reg.num, x.imm[0] != 0));
                continue;
            }
            Opcode::Label | Opcode::Comment | Opcode::End | Opcode::Phase | Opcode::Nop => continue,
            _ => {}
        }
        let layout = x.layout(version);
        for src in x.src() {
            note(src.reg.kind, src.reg.num, &mut s)?;
            if let Some(r) = src.rel {
                note(r.reg.kind, r.reg.num, &mut s)?;
            }
        }
        if let Some(p) = &x.predicate {
            note(p.reg.kind, p.reg.num, &mut s)?;
        }
        if layout.dst && op != Opcode::TexKill && op != Opcode::TexDepth {
            let d = x.dst.reg;
            note(d.kind, d.num, &mut s)?;
            if let Some(r) = x.dst.rel {
                note(r.reg.kind, r.reg.num, &mut s)?;
            }
            if d.num < MAX_REG {
                s.written.insert(d.kind, d.num);
            }
        }
        match op {
            Opcode::TexKill => {
                s.discards = true;
                note(x.dst.reg.kind, x.dst.reg.num, &mut s)?;
            }
            Opcode::TexDepth => {
                s.writes_depth = true;
                note(x.dst.reg.kind, x.dst.reg.num, &mut s)?;
            }
            Opcode::TexM3x2Depth => s.writes_depth = true,
            Opcode::Loop => {
                s.used.insert(RegisterType::Loop, 0);
                s.written.insert(RegisterType::Loop, 0);
            }
            _ => {}
        }
        if x.dst.reg.kind == RegisterType::DepthOut && layout.dst {
            s.writes_depth = true;
        }
        if ps1x && is_ps1x_tex(op) {
            note(RegisterType::AddrOrTexture, x.dst.reg.num, &mut s)?;
        }
    }
    if depth != 0 {
        return Err(Error::Flow {
            offset: end_offset,
            why: "unclosed block",
        });
    }
    if let Some((l, start)) = cur_label {
        s.subs.push((l, start..ins.len()));
    }
    s.main = 0..main_end;
    if ps1x {
        s.used.insert(RegisterType::Temp, 0);
    }
    if s.writes_depth {
        s.used.insert(RegisterType::DepthOut, 0);
        s.written.insert(RegisterType::DepthOut, 0);
    }
    last_defs(&mut s.float_defs);
    last_defs(&mut s.int_defs);
    last_defs(&mut s.bool_defs);
    Ok(s)
}
