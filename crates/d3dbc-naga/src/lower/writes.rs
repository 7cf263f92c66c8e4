//! Writes: destination registers with write masks, predicates, saturation and the
//! result shift, deferred writes of co-issued pairs.

use super::*;

impl Lower<'_> {
    pub(super) fn write(&mut self, ins: &Instruction, v: H) -> Result<(), Error> {
        if let Some(d) = self.deferred.as_mut() {
            d.push((ins.dst, v));
            return Ok(());
        }
        self.write_dst(ins.dst, ins.predicate, v)
    }

    pub(super) fn write_dst(
        &mut self,
        dst: DstParam,
        pred: Option<SrcParam>,
        mut v: H,
    ) -> Result<(), Error> {
        let sh = dst.shift_value();
        if sh != 0 {
            let f = self.fun.splat_f((sh as f32).exp2());
            v = self.fun.mul(v, f);
        }
        if dst.saturate() {
            v = self.fun.m1(M::Saturate, v);
        } else if self.ps1x {
            let m = self.o.semantics.ps1x_max_value;
            let lo = self.fun.splat_f(-m);
            let hi = self.fun.splat_f(m);
            v = self.fun.math(M::Clamp, v, Some(lo), Some(hi));
        }
        let k = dst.reg.kind;
        if let (Some(rel), RegisterType::Output) = (dst.rel, k) {
            // o[aL + n]: every declared output may be the target.
            let a = self.addr(rel);
            let b = self.fun.i(dst.reg.num as i32);
            let idx = self.fun.add(a, b);
            let regs: Vec<(u16, usize)> = self
                .slots
                .iter()
                .enumerate()
                .filter(|(_, s)| s.key.0 == RegisterType::Output)
                .map(|(i, s)| (s.key.1, i))
                .collect();
            for (n, i) in regs {
                let old = self.read_slot(i);
                let nv = self.masked(old, v, dst.mask, pred)?;
                let kk = self.fun.i(n as i32);
                let eq = self.fun.bin(B::Equal, idx, kk);
                let r = self.fun.select(eq, nv, old);
                self.set_slot(i, r);
            }
            return Ok(());
        }
        let Some(i) = self.slot(k, dst.reg.num) else {
            return Ok(());
        };
        let v = match self.slots[i].ty {
            SlotTy::F4 => v,
            SlotTy::I4 => self.fun.cast(v, ScalarKind::Sint),
            SlotTy::I1 => {
                let x = self.fun.comp(v, 0);
                self.fun.cast(x, ScalarKind::Sint)
            }
            SlotTy::B4 => v,
        };
        let old = if dst.mask & 15 == 15 && pred.is_none() {
            None
        } else {
            Some(self.read_slot(i))
        };
        let nv = match old {
            None => v,
            Some(old) => {
                if self.slots[i].ty == SlotTy::I1 {
                    v
                } else {
                    self.masked(old, v, dst.mask, pred)?
                }
            }
        };
        self.set_slot(i, nv);
        Ok(())
    }

    /// ps_1_4 `phase`: the temporaries' alpha is not kept across the boundary (a read
    /// of `r#.a` written in phase 1 gives 0), as the executor does (semantics.md §2).
    pub(super) fn phase(&mut self) -> Result<(), Error> {
        for n in 0..d3dbc::regs::MAX_TEMPS as u16 {
            if let Some(i) = self.slot(RegisterType::Temp, n) {
                if self.slots[i].ty != SlotTy::F4 {
                    continue;
                }
                let old = self.read_slot(i);
                let z = self.fun.splat_f(0.0);
                let nv = self.masked(old, z, 8, None)?;
                self.set_slot(i, nv);
            }
        }
        Ok(())
    }

    pub(super) fn masked(
        &mut self,
        old: H,
        v: H,
        mask: u8,
        pred: Option<SrcParam>,
    ) -> Result<H, Error> {
        let mut nv = if mask & 15 == 15 {
            v
        } else {
            let m = self.mask_const(mask);
            self.fun.select(m, v, old)
        };
        if let Some(p) = pred {
            let pv = match self.slot(RegisterType::Predicate, p.reg.num) {
                Some(i) => self.read_slot(i),
                None => self.fun.e(Expression::ZeroValue(self.t.vec4b)),
            };
            let pv = if p.swizzle != d3dbc::ir::SWIZZLE_IDENTITY {
                let pat = [
                    p.swizzle & 3,
                    (p.swizzle >> 2) & 3,
                    (p.swizzle >> 4) & 3,
                    (p.swizzle >> 6) & 3,
                ];
                self.fun.swz(pv, VectorSize::Quad, pat)
            } else {
                pv
            };
            let pv = if p.modifier == SrcModifier::Not {
                self.fun.e(Expression::Unary {
                    op: UnaryOperator::LogicalNot,
                    expr: pv,
                })
            } else {
                pv
            };
            nv = self.fun.select(pv, nv, old);
        }
        Ok(nv)
    }
}
