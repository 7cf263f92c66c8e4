//! Values: vector construction, D3D9's arithmetic special cases (multiply by zero,
//! reciprocal, log of zero), source registers with relative addressing, swizzles and
//! source modifiers.

use super::*;

impl Lower<'_> {
    pub(super) fn zero4(&mut self) -> H {
        self.fun.e(Expression::ZeroValue(self.t.vec4f))
    }

    pub(super) fn vec4(&mut self, c: [H; 4]) -> H {
        self.fun.compose(self.t.vec4f, c.to_vec())
    }

    pub(super) fn vec4_lit(&mut self, v: [f32; 4]) -> H {
        if v[1..].iter().all(|x| x.to_bits() == v[0].to_bits()) {
            return self.fun.splat_f(v[0]);
        }
        let c = v.map(|x| self.fun.f(x));
        self.vec4(c)
    }

    /// `a · b` under the 0·x rule, component-wise on vec4s.
    pub(super) fn mulz(&mut self, a: H, b: H) -> H {
        let (a, b) = self.zero_factors(a, b, true);
        self.fun.mul(a, b)
    }

    /// `a · b` under the 0·x rule, on scalars.
    pub(super) fn mulz1(&mut self, a: H, b: H) -> H {
        let (a, b) = self.zero_factors(a, b, false);
        self.fun.mul(a, b)
    }

    pub(super) fn zero_factors(&mut self, a: H, b: H, vec: bool) -> (H, H) {
        match self.o.semantics.mul_zero {
            MulZero::Ieee => (a, b),
            MulZero::Strict => {
                let z = if vec { self.zero4() } else { self.fun.f(0.0) };
                let a0 = self.fun.bin(B::Equal, a, z);
                let b0 = self.fun.bin(B::Equal, b, z);
                let na = self.fun.select(b0, z, a);
                let nb = self.fun.select(a0, z, b);
                (na, nb)
            }
            MulZero::Fast => {
                let (lo, hi) = if vec {
                    (self.fun.splat_f(-f32::MAX), self.fun.splat_f(f32::MAX))
                } else {
                    (self.fun.f(-f32::MAX), self.fun.f(f32::MAX))
                };
                let ca = self.fun.math(M::Clamp, a, Some(lo), Some(hi));
                let cb = self.fun.math(M::Clamp, b, Some(lo), Some(hi));
                (ca, cb)
            }
        }
    }

    /// Sum of the first `n` products `a[i]·b[i]` under the 0·x rule: the factors are
    /// zeroed as the rule says, then one `dot` adds the products.
    pub(super) fn dotz(&mut self, a: H, b: H, n: u32) -> H {
        let (a, b) = self.zero_factors(a, b, true);
        let (a, b) = match n {
            4 => (a, b),
            3 => (
                self.fun.swz(a, VectorSize::Tri, [0, 1, 2, 0]),
                self.fun.swz(b, VectorSize::Tri, [0, 1, 2, 0]),
            ),
            _ => (
                self.fun.swz(a, VectorSize::Bi, [0, 1, 0, 0]),
                self.fun.swz(b, VectorSize::Bi, [0, 1, 0, 0]),
            ),
        };
        self.fun.math(M::Dot, a, Some(b), None)
    }

    pub(super) fn bits_f32(&mut self, bits: u32) -> H {
        self.fun.f_bits(bits)
    }

    pub(super) fn big(&mut self) -> H {
        match self.o.semantics.rcp_zero {
            ReciprocalOfZero::Infinity => self.bits_f32(0x7f80_0000),
            ReciprocalOfZero::FltMax => self.fun.f(f32::MAX),
        }
    }

    /// The scalar operand of rcp/rsq/exp/log/pow/sincos: `.w` of the swizzled source in
    /// every version ([`Opcode::scalar_component`]).
    pub(super) fn scalar(&mut self, op: Opcode, v: H) -> H {
        self.fun.comp(v, op.scalar_component() as u32)
    }

    pub(super) fn rcp(&mut self, x: H) -> H {
        let one = self.fun.f(1.0);
        let q = self.fun.div(one, x);
        let z = self.fun.f(0.0);
        let is0 = self.fun.bin(B::Equal, x, z);
        let big = self.big();
        // copysign(big, x)
        let xb = self.fun.bitcast(x, ScalarKind::Uint);
        let sm = self.fun.u(0x8000_0000);
        let sign = self.fun.bin(B::And, xb, sm);
        let bb = self.fun.bitcast(big, ScalarKind::Uint);
        let sb = self.fun.bin(B::InclusiveOr, bb, sign);
        let sbig = self.fun.bitcast(sb, ScalarKind::Float);
        self.fun.select(is0, sbig, q)
    }

    pub(super) fn rsq(&mut self, x: H) -> H {
        let a = self.fun.m1(M::Abs, x);
        let r = self.fun.m1(M::InverseSqrt, a);
        let z = self.fun.f(0.0);
        let is0 = self.fun.bin(B::Equal, a, z);
        let big = self.big();
        self.fun.select(is0, big, r)
    }

    pub(super) fn log2(&mut self, x: H) -> H {
        let a = self.fun.m1(M::Abs, x);
        let l = self.fun.m1(M::Log2, a);
        let z = self.fun.f(0.0);
        let is0 = self.fun.bin(B::Equal, a, z);
        let lz = match self.o.semantics.log_zero {
            LogOfZero::NegFltMax => self.fun.f(-f32::MAX),
            LogOfZero::NegInfinity => self.bits_f32(0xff80_0000),
        };
        self.fun.select(is0, lz, l)
    }

    /// A register's value as vec4f before swizzle and modifiers.
    pub(super) fn reg_value(&mut self, s: &SrcParam) -> Result<H, Error> {
        use RegisterType::*;
        let k = s.reg.kind;
        Ok(match k {
            Const | Const2 | Const3 | Const4 => {
                let n = d3dbc::regs::float_constant_index(k, s.reg.num);
                let v = self.const_f(n, s.rel)?;
                if self.ps1x && self.o.semantics.ps1x_clamp_constants {
                    let lo = self.fun.splat_f(-1.0);
                    let hi = self.fun.splat_f(1.0);
                    self.fun.math(M::Clamp, v, Some(lo), Some(hi))
                } else {
                    v
                }
            }
            ConstInt => {
                let v = self.const_i(s.reg.num);
                self.fun.cast(v, ScalarKind::Float)
            }
            ConstBool => {
                let b = self.const_b(s.reg.num);
                let one = self.fun.f(1.0);
                let zero = self.fun.f(0.0);
                let f = self.fun.select(b, one, zero);
                self.fun.splat(f)
            }
            Sampler | Label => self.zero4(),
            _ => {
                if let (Some(rel), Input) = (s.rel, k) {
                    return self.rel_input(s.reg.num, rel);
                }
                let Some(i) = self.slot(k, s.reg.num) else {
                    return Ok(self.zero4());
                };
                let v = self.read_slot(i);
                match self.slots[i].ty {
                    SlotTy::F4 => v,
                    SlotTy::I4 => self.fun.cast(v, ScalarKind::Float),
                    SlotTy::I1 => {
                        let f = self.fun.cast(v, ScalarKind::Float);
                        self.fun.splat(f)
                    }
                    SlotTy::B4 => {
                        let one = self.fun.splat_f(1.0);
                        let zero = self.zero4();
                        self.fun.select(v, one, zero)
                    }
                }
            }
        })
    }

    /// The value of a relative address register component (i32).
    pub(super) fn addr(&mut self, rel: d3dbc::ir::RelAddr) -> H {
        match rel.reg.kind {
            RegisterType::Loop => match self.slot(RegisterType::Loop, 0) {
                Some(i) => self.read_slot(i),
                None => self.fun.i(0),
            },
            _ => match self.slot(rel.reg.kind, rel.reg.num) {
                Some(i) if self.slots[i].ty == SlotTy::I4 => {
                    let v = self.read_slot(i);
                    self.fun.comp(v, rel.component() as u32)
                }
                _ => self.fun.i(0),
            },
        }
    }

    pub(super) fn const_f(&mut self, n: u32, rel: Option<d3dbc::ir::RelAddr>) -> Result<H, Error> {
        let (gv, len) = self.float_consts();
        match rel {
            None => {
                if let Some(d) = self.scan.float_def(n as u16).map(|d| d.map(f32::from_bits)) {
                    if n < 65536 {
                        return Ok(self.vec4_lit(d));
                    }
                }
                if n >= len {
                    return Ok(self.zero4());
                }
                let p = self.fun.e(Expression::GlobalVariable(gv));
                let a = self.fun.e(Expression::AccessIndex { base: p, index: n });
                Ok(self.fun.load(a))
            }
            Some(rel) => {
                let a = self.addr(rel);
                let base = self.fun.i(n as i32);
                let idx = self.fun.add(a, base);
                let iu = self.fun.bitcast(idx, ScalarKind::Uint);
                let lim = self.fun.u(len);
                let ok = self.fun.bin(B::Less, iu, lim);
                let last = self.fun.u(len - 1);
                let cl = self.fun.math(M::Min, iu, Some(last), None);
                let p = self.fun.e(Expression::GlobalVariable(gv));
                let acc = self.fun.e(Expression::Access { base: p, index: cl });
                let val = self.fun.load(acc);
                let z = self.zero4();
                let mut r = self.fun.select(ok, val, z);
                let defs: Vec<(u16, [f32; 4])> = self
                    .scan
                    .float_defs
                    .iter()
                    .map(|(k, v)| (*k, v.map(f32::from_bits)))
                    .collect();
                for (k, d) in defs {
                    let kk = self.fun.i(k as i32);
                    let eq = self.fun.bin(B::Equal, idx, kk);
                    let dv = self.vec4_lit(d);
                    r = self.fun.select(eq, dv, r);
                }
                Ok(r)
            }
        }
    }

    pub(super) fn const_i(&mut self, n: u16) -> H {
        if let Some(d) = self.scan.int_def(n) {
            let c = d.map(|x| self.fun.i(x));
            return self.fun.compose(self.t.vec4i, c.to_vec());
        }
        if n as u32 >= itf::INT_CONSTANTS {
            return self.fun.e(Expression::ZeroValue(self.t.vec4i));
        }
        let gv = self.int_consts();
        let p = self.fun.e(Expression::GlobalVariable(gv));
        let a = self.fun.e(Expression::AccessIndex {
            base: p,
            index: n as u32,
        });
        self.fun.load(a)
    }

    pub(super) fn const_b(&mut self, n: u16) -> H {
        if let Some(d) = self.scan.bool_def(n) {
            return self.fun.b(d);
        }
        if n as u32 >= itf::INT_CONSTANTS {
            return self.fun.b(false);
        }
        let gv = self.bool_consts();
        let p = self.fun.e(Expression::GlobalVariable(gv));
        let a = self.fun.e(Expression::AccessIndex {
            base: p,
            index: n as u32,
        });
        let v = self.fun.load(a);
        let x = self.fun.comp(v, 0);
        let z = self.fun.u(0);
        self.fun.bin(B::NotEqual, x, z)
    }

    pub(super) fn rel_input(&mut self, base: u16, rel: d3dbc::ir::RelAddr) -> Result<H, Error> {
        let a = self.addr(rel);
        let b = self.fun.i(base as i32);
        let idx = self.fun.add(a, b);
        let mut r = self.zero4();
        let regs: Vec<(u16, usize)> = self
            .slots
            .iter()
            .enumerate()
            .filter(|(_, s)| s.key.0 == RegisterType::Input)
            .map(|(i, s)| (s.key.1, i))
            .collect();
        for (n, i) in regs {
            let v = self.read_slot(i);
            let k = self.fun.i(n as i32);
            let eq = self.fun.bin(B::Equal, idx, k);
            r = self.fun.select(eq, v, r);
        }
        Ok(r)
    }

    /// A source operand: register, swizzle, modifier.
    pub(super) fn src(&mut self, s: &SrcParam) -> Result<H, Error> {
        let v = self.reg_value(s)?;
        let v = if s.swizzle != d3dbc::ir::SWIZZLE_IDENTITY {
            let p = [
                s.swizzle & 3,
                (s.swizzle >> 2) & 3,
                (s.swizzle >> 4) & 3,
                (s.swizzle >> 6) & 3,
            ];
            self.fun.swz(v, VectorSize::Quad, p)
        } else {
            v
        };
        Ok(self.modifier(v, s.modifier))
    }

    pub(super) fn modifier(&mut self, v: H, m: SrcModifier) -> H {
        use SrcModifier::*;
        let neg = |l: &mut Self, x: H| {
            l.fun.e(Expression::Unary {
                op: UnaryOperator::Negate,
                expr: x,
            })
        };
        match m {
            None | Not => v,
            Neg => neg(self, v),
            Bias | BiasNeg => {
                let h = self.fun.splat_f(0.5);
                let r = self.fun.sub(v, h);
                if m == BiasNeg {
                    neg(self, r)
                } else {
                    r
                }
            }
            Sign | SignNeg => {
                let h = self.fun.splat_f(0.5);
                let r = self.fun.sub(v, h);
                let two = self.fun.splat_f(2.0);
                let r = self.fun.mul(r, two);
                if m == SignNeg {
                    neg(self, r)
                } else {
                    r
                }
            }
            Comp => {
                let one = self.fun.splat_f(1.0);
                self.fun.sub(one, v)
            }
            X2 | X2Neg => {
                let two = self.fun.splat_f(2.0);
                let r = self.fun.mul(v, two);
                if m == X2Neg {
                    neg(self, r)
                } else {
                    r
                }
            }
            Dz | Dw => {
                let c = if m == Dz { 2 } else { 3 };
                let d = self.fun.comp(v, c);
                let d = self.fun.splat(d);
                self.fun.div(v, d)
            }
            Abs => self.fun.m1(M::Abs, v),
            AbsNeg => {
                let a = self.fun.m1(M::Abs, v);
                neg(self, a)
            }
        }
    }

    /// A scalar boolean condition source (`b#`, `p0.c`, with `!`).
    pub(super) fn bool_src(&mut self, s: &SrcParam) -> Result<H, Error> {
        let b = match s.reg.kind {
            RegisterType::ConstBool => self.const_b(s.reg.num),
            RegisterType::Predicate => {
                let v = match self.slot(RegisterType::Predicate, s.reg.num) {
                    Some(i) => self.read_slot(i),
                    None => self.fun.e(Expression::ZeroValue(self.t.vec4b)),
                };
                self.fun.comp(v, (s.swizzle & 3) as u32)
            }
            _ => {
                let v = self.src(s)?;
                let x = self.fun.comp(v, 0);
                let z = self.fun.f(0.0);
                self.fun.bin(B::NotEqual, x, z)
            }
        };
        Ok(if s.modifier == SrcModifier::Not {
            self.fun.e(Expression::Unary {
                op: UnaryOperator::LogicalNot,
                expr: b,
            })
        } else {
            b
        })
    }
}
