//! Writes: destination registers with write masks, predicates, saturation and the
//! result shift, deferred writes of co-issued pairs.

use super::*;

impl Emitter<'_> {
    pub(super) fn write(&mut self, x: &Instruction, v: u32) -> Result<(), Error> {
        if let Some((d, n)) = self.deferred.as_mut() {
            if *n == d.len() {
                return Err(Error::Unsupported {
                    offset: self.at,
                    opcode: self.op,
                    why: "more than 4 co-issued instructions",
                });
            }
            d[*n] = (x.dst, v);
            *n += 1;
            return Ok(());
        }
        self.write_dst(x.dst, x.predicate, v)
    }

    pub(super) fn write_dst(
        &mut self,
        dst: DstParam,
        pred: Option<SrcParam>,
        mut v: u32,
    ) -> Result<(), Error> {
        let sh = dst.shift_value();
        if sh != 0 {
            let f = self.m.splat_f((sh as f32).exp2());
            v = self.op2(Op::FMul, T::V4F, v, f);
        }
        if dst.saturate() {
            let (z, o) = (self.zero4(), self.m.splat_f(1.0));
            v = self.ext(T::V4F, G::FClamp, &[v, z, o]);
        } else if self.ps1x {
            let m = self.o.semantics.ps1x_max_value;
            let lo = self.m.splat_f(-m);
            let hi = self.m.splat_f(m);
            v = self.ext(T::V4F, G::FClamp, &[v, lo, hi]);
        }
        let k = dst.reg.kind;
        if let (Some(rel), RegisterType::Output) = (dst.rel, k) {
            let a = self.addr(rel);
            let b = self.m.i(dst.reg.num as i32);
            let idx = self.op2(Op::IAdd, T::I32, a, b);
            for i in 0..self.slots.len() {
                if self.slots[i].kind != RegisterType::Output {
                    continue;
                }
                let n = self.slots[i].num;
                let old = self.read_slot(i);
                let nv = self.masked(T::V4F, old, v, dst.mask, pred);
                let kk = self.m.i(n as i32);
                let eq = self.op2(Op::IEqual, T::Bool, idx, kk);
                let r = self.sel_s(T::V4F, eq, nv, old);
                self.set_slot(i, r);
            }
            return Ok(());
        }
        let Some(i) = self.slot(k, dst.reg.num) else {
            return Ok(());
        };
        let ty = self.slots[i].ty;
        let v = match ty {
            SlotTy::F4 => v,
            SlotTy::I4 => self.op1(Op::ConvertFToS, T::V4I, v),
            SlotTy::I1 => {
                let x = self.cf(v, 0);
                self.op1(Op::ConvertFToS, T::I32, x)
            }
            SlotTy::B4 => return Err(self.unsupported("a float written to the predicate")),
        };
        let nv = if (dst.mask & 15 == 15 && pred.is_none()) || ty == SlotTy::I1 {
            v
        } else {
            let old = self.read_slot(i);
            self.masked(ty.t(), old, v, dst.mask, pred)
        };
        self.set_slot(i, nv);
        Ok(())
    }

    /// ps_1_4 `phase`: the temporaries' alpha is not kept across the boundary (a read
    /// of `r#.a` written in phase 1 gives 0), as the executor does (semantics.md §2).
    pub(super) fn phase(&mut self) {
        for n in 0..d3dbc::regs::MAX_TEMPS as u16 {
            if let Some(i) = self.slot(RegisterType::Temp, n) {
                if self.slots[i].ty != SlotTy::F4 {
                    continue;
                }
                let old = self.read_slot(i);
                let z = self.zero4();
                let nv = self.masked(T::V4F, old, z, 8, None);
                self.set_slot(i, nv);
            }
        }
    }

    pub(super) fn masked(
        &mut self,
        t: T,
        old: u32,
        v: u32,
        mask: u8,
        pred: Option<SrcParam>,
    ) -> u32 {
        let mut nv = if mask & 15 == 15 {
            v
        } else {
            let m = self.mask_const(mask);
            self.sel(t, m, v, old)
        };
        if let Some(p) = pred {
            let pv = self.pred_vec(p.reg.num);
            let pv = if p.swizzle != d3dbc::ir::SWIZZLE_IDENTITY {
                self.shuffle(T::V4B, pv, &swizzle4(p.swizzle))
            } else {
                pv
            };
            let pv = if p.modifier == SrcModifier::Not {
                self.op1(Op::LogicalNot, T::V4B, pv)
            } else {
                pv
            };
            nv = self.sel(t, pv, nv, old);
        }
        nv
    }
}
