//! Folding: temporaries written once and read right after become expressions in
//! their reader, and the value a folded instruction computes.

use std::collections::BTreeMap;

use d3dbc::ir::{DstParam, Instruction};
use d3dbc::opcode::Opcode;
use d3dbc::token::RegisterType;

use crate::text::{mask_comps, Expr};
use crate::Error;

use super::expr::select;
use super::Emitter;

impl Emitter {
    /// The value instruction `a` computes for its destination components `want` (in
    /// that order, repeats allowed), its modifiers applied: what a folded temporary
    /// holds.
    pub(super) fn value_at(&mut self, a: usize, want: &[u8]) -> Result<Expr, Error> {
        let ins = self.a.instructions[a];
        let mask = want.iter().fold(0u8, |m, &c| m | (1 << c));
        let sub = Instruction {
            dst: DstParam { mask, ..ins.dst },
            ..ins
        };
        let (was, saved) = (self.capturing, self.captured.take());
        self.capturing = true;
        let r = self.compute(a, &sub);
        self.capturing = was;
        let v = std::mem::replace(&mut self.captured, saved);
        r?;
        let v = v.ok_or_else(|| self.unsupported(a, "a folded value"))?;
        let distinct = mask_comps(mask);
        if v.width == 1 {
            return Ok(v.splat(want.len() as u8));
        }
        let pos: Vec<u8> = want
            .iter()
            .map(|c| distinct.iter().position(|d| d == c).unwrap_or(0) as u8)
            .collect();
        if pos.iter().enumerate().all(|(i, &p)| p as usize == i) && pos.len() == distinct.len() {
            Ok(v)
        } else {
            Ok(select(v, &pos))
        }
    }

    /// Finds the temporaries written once and read once right after, with nothing in
    /// between that changes what the writer reads: the reader gets the expression.
    pub fn plan_folds(&mut self) {
        if self.ps1 {
            return;
        }
        let ins = self.a.instructions.clone();
        let n = ins.len();
        let barrier = |op: Opcode| {
            !matches!(op.block(), d3dbc::opcode::Block::None)
                || matches!(
                    op,
                    Opcode::Break
                        | Opcode::BreakC
                        | Opcode::BreakP
                        | Opcode::Call
                        | Opcode::CallNz
                        | Opcode::Ret
                        | Opcode::Label
                        | Opcode::Phase
                )
        };
        let foldable = |op: Opcode| {
            matches!(
                op,
                Opcode::Mov
                    | Opcode::Add
                    | Opcode::Sub
                    | Opcode::Mul
                    | Opcode::Mad
                    | Opcode::Min
                    | Opcode::Max
                    | Opcode::Frc
                    | Opcode::Abs
                    | Opcode::Dp3
                    | Opcode::Dp4
                    | Opcode::Dp2Add
                    | Opcode::Rcp
                    | Opcode::Rsq
                    | Opcode::Exp
                    | Opcode::Log
                    | Opcode::Pow
                    | Opcode::Lrp
                    | Opcode::Cmp
                    | Opcode::Slt
                    | Opcode::Sge
                    | Opcode::Nrm
                    | Opcode::Crs
                    | Opcode::Tex
                    | Opcode::TexLdl
                    | Opcode::TexLdd
                    | Opcode::M4x4
                    | Opcode::M4x3
                    | Opcode::M3x4
                    | Opcode::M3x3
                    | Opcode::M3x2
            )
        };
        // The components of temporary `x` instruction `i` reads.
        let reads = |e: &Self, i: &Instruction, x: u16| -> u8 {
            let mut m = 0u8;
            for (k, s) in i.src().iter().enumerate() {
                if s.reg.kind == RegisterType::Temp && s.reg.num == x {
                    for p in e.src_positions(i, k) {
                        m |= 1 << ((s.swizzle >> (2 * p)) & 3);
                    }
                    if let (1, Some(mx)) = (k, i.opcode.matrix()) {
                        let _ = mx;
                    }
                }
                // Matrix instructions read the registers after their second operand.
                if let (1, Some(mx)) = (k, i.opcode.matrix()) {
                    if s.reg.kind == RegisterType::Temp
                        && s.reg.num < x
                        && x < s.reg.num + mx.rows as u16
                    {
                        m |= 0xF;
                    }
                }
            }
            if i.opcode == Opcode::TexKill
                && i.dst.reg == d3dbc::Register::new(RegisterType::Temp, x)
            {
                m |= 0xF;
            }
            if let Some(p) = i.predicate {
                let _ = p;
            }
            m
        };
        let writes_temp = |i: &Instruction, x: u16| -> u8 {
            if i.opcode.layout(self.v).dst
                && i.opcode != Opcode::TexKill
                && i.dst.reg == d3dbc::Register::new(RegisterType::Temp, x)
                && i.predicate.is_none()
                && i.dst.rel.is_none()
            {
                i.dst.mask
            } else {
                0
            }
        };
        let mut in_dot_rows = vec![false; n];
        for i in 0..n {
            if let Some((rows, _)) = self.dot_rows(i) {
                for f in in_dot_rows.iter_mut().skip(i).take(rows) {
                    *f = true;
                }
            }
        }
        let mut all_sources: BTreeMap<usize, Vec<d3dbc::Register>> = BTreeMap::new();
        for a in 0..n {
            let w = ins[a];
            let x = w.dst.reg.num;
            let pair = w.coissue || ins.get(a + 1).is_some_and(|i| i.coissue);
            if !foldable(w.opcode)
                || w.dst.reg.kind != RegisterType::Temp
                || w.dst.rel.is_some()
                || w.predicate.is_some()
                || pair
                || in_dot_rows[a]
                || !(self.a.main.contains(&a))
            {
                continue;
            }
            let m = w.dst.mask;
            // What the writer reads.
            let mut sources: Vec<d3dbc::Register> = w.src().iter().map(|s| s.reg).collect();
            for s in w.src() {
                if let Some(rel) = s.rel {
                    sources.push(rel.reg);
                }
            }
            if let Some(mx) = w.opcode.matrix() {
                for r in 1..mx.rows as u16 {
                    let mut reg = w.srcs[1].reg;
                    reg.num += r;
                    sources.push(reg);
                }
            }
            // A writer that already holds folded values reads what they read, too.
            for (&(reader, _), writer) in &self.folds {
                if reader == a {
                    sources.extend(all_sources.get(writer).cloned().unwrap_or_default());
                }
            }
            all_sources.insert(a, sources.clone());
            // The reader: the next instruction that touches the temporary.
            let mut reader = None;
            for (j, i) in ins.iter().enumerate().skip(a + 1) {
                if barrier(i.opcode) {
                    break;
                }
                if reads(self, i, x) != 0 {
                    reader = Some(j);
                    break;
                }
                let d = i.dst.reg;
                let writes_any = i.opcode.layout(self.v).dst;
                if writes_any && (sources.contains(&d) || d == w.dst.reg) {
                    break;
                }
                if writes_any
                    && d.kind == RegisterType::AddrOrTexture
                    && sources
                        .iter()
                        .any(|r| r.kind == RegisterType::AddrOrTexture)
                {
                    break;
                }
            }
            let Some(j) = reader else { continue };
            let b = ins[j];
            let once = b.src().iter().filter(|s| s.reg == w.dst.reg).count() == 1;
            let b_pair = b.coissue || ins.get(j + 1).is_some_and(|i| i.coissue);
            if !once
                || b_pair
                || b.opcode == Opcode::TexKill
                || reads(self, &b, x) & !m != 0
                || b.opcode
                    .matrix()
                    .is_some_and(|_| b.srcs[1].reg == w.dst.reg)
                || self.folds.keys().filter(|k| k.0 == j).count() >= 2
            {
                continue;
            }
            // Dead after the reader: rewritten before any later read.
            let mut pending = m & !writes_temp(&b, x);
            let mut dead = pending == 0;
            if !dead {
                dead = true;
                for i in ins.iter().skip(j + 1) {
                    if barrier(i.opcode) {
                        dead = !ins[j + 1..].iter().any(|k| reads(self, k, x) != 0);
                        break;
                    }
                    if reads(self, i, x) & pending != 0 {
                        dead = false;
                        break;
                    }
                    pending &= !writes_temp(i, x);
                    if pending == 0 {
                        break;
                    }
                }
            }
            if dead {
                self.folds.insert((j, x), a);
                self.folded.insert(a);
            }
        }
    }
}
