//! The first pass over the body: which constants it reads, which temporaries need a
//! starting value, which registers the interface structs carry.

use std::collections::BTreeMap;

use d3dbc::ir::{Instruction, SrcParam};
use d3dbc::opcode::Opcode;
use d3dbc::token::{RegisterType, SamplerType};

use crate::interface::ConstReads;
use crate::Error;

use super::expr::is_const;
use super::Emitter;

impl Emitter {
    /// The first pass: what the body reads from the constant files, which temporaries
    /// need a starting value, the interface structs.
    pub fn scan(&mut self) -> Result<ConstReads, Error> {
        let mut reads = ConstReads::default();
        let v = self.v;
        let mut written: BTreeMap<u16, u8> = BTreeMap::new();
        let mut depth = 0usize;
        let instructions = self.a.instructions.clone();
        // The aL range of each open loop whose count is the shader's own (`defi`).
        let mut al: Vec<Option<(i32, i32)>> = Vec::new();
        for (idx, ins) in instructions.iter().enumerate() {
            let op = ins.opcode;
            match op {
                Opcode::Loop => al.push(self.a.int_def(ins.srcs[1].reg.num).map(|d| {
                    let last = d[1] + d[2] * (d[0] - 1).max(0);
                    (d[1].min(last), d[1].max(last))
                })),
                Opcode::Rep => al.push(al.last().copied().flatten()),
                Opcode::EndLoop | Opcode::EndRep => {
                    al.pop();
                }
                _ => {}
            }
            for src in ins.src() {
                if let (Some(rel), Some(Some((lo, hi)))) = (src.rel, al.last()) {
                    if rel.reg.kind == RegisterType::Loop && is_const(src) {
                        let n = d3dbc::regs::float_constant_index(src.reg.kind, src.reg.num) as i32;
                        for x in [n + lo, n + hi] {
                            if (0..=u16::MAX as i32).contains(&x) {
                                reads.rel_extent.push(x as u16);
                            }
                        }
                    }
                }
            }
            match op.block() {
                d3dbc::opcode::Block::Open => depth += 1,
                d3dbc::opcode::Block::Close => depth = depth.saturating_sub(1),
                _ => {}
            }
            if op == Opcode::Label {
                depth += 1; // subroutine bodies never count as certain writes
            }
            if matches!(op, Opcode::Dcl | Opcode::Def | Opcode::DefI | Opcode::DefB) {
                continue;
            }
            let layout = op.layout(v);
            for k in 0..ins.src().len() {
                let s = ins.srcs[k];
                let pos = self.src_positions(ins, k);
                let comps: u8 = pos
                    .iter()
                    .map(|&p| 1u8 << ((s.swizzle >> (2 * p)) & 3))
                    .fold(0, |a, b| a | b);
                self.note_read(&s, comps, ins, k, &mut reads, &written);
                // Matrix instructions read the registers after their second operand.
                if let (1, Some(m)) = (k, op.matrix()) {
                    for r in 1..m.rows as u16 {
                        let mut next = s;
                        next.reg.num += r;
                        self.note_read(&next, comps, ins, k, &mut reads, &written);
                    }
                }
            }
            // ps_1_x sampling ops read their own stage's sampler; texkill reads its
            // destination register.
            if self.ps1 && (op.is_texld() || op.samples_dst_stage()) {
                reads
                    .samplers
                    .entry(ins.dst.reg.num)
                    .or_insert(SamplerType::Tex2D);
            }
            if let Some(p) = ins.predicate {
                let _ = p;
                self.uses_p0 = true;
            }
            if op == Opcode::TexKill {
                let r = ins.dst.reg;
                if r.kind == RegisterType::Temp {
                    self.temps.insert(r.num);
                    let m = if v.major < 2 { 0x7 } else { ins.dst.mask };
                    if written.get(&r.num).copied().unwrap_or(0) & m != m {
                        self.temps_init.insert(r.num);
                    }
                }
                if self.ps1 && r.kind == RegisterType::AddrOrTexture {
                    self.ps1_t.insert(r.num);
                }
                continue;
            }
            if layout.dst {
                let d = ins.dst;
                match d.reg.kind {
                    RegisterType::Temp => {
                        self.temps.insert(d.reg.num);
                        let partial_op = matches!(op, Opcode::SinCos) && v.major < 3;
                        if depth == 0 && ins.predicate.is_none() && !partial_op {
                            *written.entry(d.reg.num).or_default() |= d.mask;
                        }
                    }
                    RegisterType::AddrOrTexture if v.is_vertex() => self.uses_a0 = true,
                    RegisterType::AddrOrTexture if self.ps1 => {
                        self.ps1_t.insert(d.reg.num);
                    }
                    RegisterType::Predicate => self.uses_p0 = true,
                    _ => {}
                }
                if d.rel.is_some() {
                    return Err(self.unsupported(idx, "a relatively addressed destination (o[aL])"));
                }
            }
            if op == Opcode::SinCos && v.major < 3 {
                // sincos keeps the destination's other components.
                if ins.dst.reg.kind == RegisterType::Temp {
                    self.temps.insert(ins.dst.reg.num);
                }
            }
        }
        if self.ps1 && self.v.minor < 4 {
            // ps_1_0–1_3: t# registers used as sources read the coordinate they start
            // with.
        }
        Ok(reads)
    }

    fn note_read(
        &mut self,
        s: &SrcParam,
        comps: u8,
        _ins: &Instruction,
        _k: usize,
        reads: &mut ConstReads,
        written: &BTreeMap<u16, u8>,
    ) {
        let r = s.reg;
        match r.kind {
            RegisterType::Const
            | RegisterType::Const2
            | RegisterType::Const3
            | RegisterType::Const4 => {
                let n = d3dbc::regs::float_constant_index(r.kind, r.num) as u16;
                if s.rel.is_some() {
                    reads.rel.push(n);
                } else {
                    *reads.direct.entry(n).or_default() |= comps;
                }
            }
            RegisterType::ConstInt => reads.ints.push(r.num),
            RegisterType::ConstBool => reads.bools.push(r.num),
            RegisterType::Sampler => {
                reads.samplers.entry(r.num).or_insert(SamplerType::Tex2D);
            }
            RegisterType::Temp => {
                self.temps.insert(r.num);
                if written.get(&r.num).copied().unwrap_or(0) & comps != comps {
                    self.temps_init.insert(r.num);
                }
            }
            RegisterType::AddrOrTexture if self.ps1 => {
                self.ps1_t.insert(r.num);
            }
            RegisterType::Predicate => self.uses_p0 = true,
            _ => {}
        }
        if let Some(rel) = s.rel {
            if rel.reg.kind == RegisterType::AddrOrTexture {
                self.uses_a0 = true;
            }
        }
    }
}
