//! Values: vector construction, D3D9's arithmetic special cases (multiply by zero,
//! reciprocal, log of zero), source registers with relative addressing, swizzles and
//! source modifiers.

use super::*;

impl Emitter<'_> {
    pub(super) fn zero4(&mut self) -> u32 {
        self.m.zero4()
    }

    pub(super) fn vec4(&mut self, c: [u32; 4]) -> u32 {
        self.construct(T::V4F, &c)
    }

    pub(super) fn vec4_lit(&mut self, v: [f32; 4]) -> u32 {
        self.m.vec4f(v)
    }

    pub(super) fn mulz(&mut self, a: u32, b: u32) -> u32 {
        let (a, b) = self.zero_factors(a, b, true);
        self.op2(Op::FMul, T::V4F, a, b)
    }

    pub(super) fn mulz1(&mut self, a: u32, b: u32) -> u32 {
        let (a, b) = self.zero_factors(a, b, false);
        self.op2(Op::FMul, T::F32, a, b)
    }

    pub(super) fn zero_factors(&mut self, a: u32, b: u32, vec: bool) -> (u32, u32) {
        let t = if vec { T::V4F } else { T::F32 };
        match self.o.semantics.mul_zero {
            MulZero::Ieee => (a, b),
            MulZero::Strict => {
                let z = if vec { self.zero4() } else { self.m.f(0.0) };
                let na = self.unless_zero(a, b, z, vec);
                let nb = self.unless_zero(b, a, z, vec);
                (na, nb)
            }
            MulZero::Fast => {
                let (lo, hi) = if vec {
                    (self.m.splat_f(-f32::MAX), self.m.splat_f(f32::MAX))
                } else {
                    (self.m.f(-f32::MAX), self.m.f(f32::MAX))
                };
                let ca = self.ext(t, G::FClamp, &[a, lo, hi]);
                let cb = self.ext(t, G::FClamp, &[b, lo, hi]);
                (ca, cb)
            }
        }
    }

    /// `other == 0 ? 0 : v` per component (`z`: the zero of `v`'s type), the test
    /// decided at translation time where `other` is a constant: `v` itself, the zero, or
    /// a select on a constant mask.
    fn unless_zero(&mut self, v: u32, other: u32, z: u32, vec: bool) -> u32 {
        let (t, bt) = if vec {
            (T::V4F, T::V4B)
        } else {
            (T::F32, T::Bool)
        };
        let Some(bits) = self.m.float_value(other) else {
            let o0 = self.op2(Op::FOrdEqual, bt, other, z);
            return self.sel(t, o0, z, v);
        };
        let n = if vec { 4 } else { 1 };
        let zeros = (0..n).fold(0u8, |m, i| m | (u8::from(bits[i] << 1 == 0) << i));
        if zeros == 0 {
            v
        } else if zeros == (1 << n) - 1 {
            z
        } else {
            let m = self.mask_const(zeros);
            self.sel(t, m, z, v)
        }
    }

    pub(super) fn dotz(&mut self, a: u32, b: u32, n: u32) -> u32 {
        let (a, b) = self.zero_factors(a, b, true);
        let (a, b) = match n {
            4 => (a, b),
            3 => (
                self.shuffle(T::V3F, a, &[0, 1, 2]),
                self.shuffle(T::V3F, b, &[0, 1, 2]),
            ),
            _ => (
                self.shuffle(T::V2F, a, &[0, 1]),
                self.shuffle(T::V2F, b, &[0, 1]),
            ),
        };
        self.op2(Op::Dot, T::F32, a, b)
    }

    pub(super) fn big(&mut self) -> u32 {
        match self.o.semantics.rcp_zero {
            ReciprocalOfZero::Infinity => self.bits_f32(0x7f80_0000),
            ReciprocalOfZero::FltMax => self.m.f(f32::MAX),
        }
    }

    /// A float from its bits, as an instruction (an infinite constant is valid SPIR-V,
    /// but not to SPIR-V front ends that rebuild an IR without infinities, naga's).
    pub(super) fn bits_f32(&mut self, bits: u32) -> u32 {
        let u = self.m.u(bits);
        self.op1(Op::Bitcast, T::F32, u)
    }

    pub(super) fn big_bits(&self) -> u32 {
        match self.o.semantics.rcp_zero {
            ReciprocalOfZero::Infinity => 0x7f80_0000,
            ReciprocalOfZero::FltMax => f32::MAX.to_bits(),
        }
    }

    /// The scalar operand of rcp/rsq/exp/log/pow/sincos: `.w` of the swizzled source in
    /// every version ([`Opcode::scalar_component`], as the naga path and the executor).
    pub(super) fn scalar(&mut self, op: Opcode, v: u32) -> u32 {
        self.cf(v, op.scalar_component() as _)
    }

    pub(super) fn rcp(&mut self, x: u32) -> u32 {
        let one = self.m.f(1.0);
        let q = self.op2(Op::FDiv, T::F32, one, x);
        let z = self.m.f(0.0);
        let is0 = self.op2(Op::FOrdEqual, T::Bool, x, z);
        let xb = self.op1(Op::Bitcast, T::U32, x);
        let sm = self.m.u(0x8000_0000);
        let sign = self.op2(Op::BitwiseAnd, T::U32, xb, sm);
        let bb = self.m.u(self.big_bits());
        let sb = self.op2(Op::BitwiseOr, T::U32, bb, sign);
        let sbig = self.op1(Op::Bitcast, T::F32, sb);
        self.sel(T::F32, is0, sbig, q)
    }

    pub(super) fn rsq(&mut self, x: u32) -> u32 {
        let a = self.ext(T::F32, G::FAbs, &[x]);
        let r = self.ext(T::F32, G::InverseSqrt, &[a]);
        let z = self.m.f(0.0);
        let is0 = self.op2(Op::FOrdEqual, T::Bool, a, z);
        let big = self.big();
        self.sel(T::F32, is0, big, r)
    }

    pub(super) fn log2(&mut self, x: u32) -> u32 {
        let a = self.ext(T::F32, G::FAbs, &[x]);
        let l = self.ext(T::F32, G::Log2, &[a]);
        let z = self.m.f(0.0);
        let is0 = self.op2(Op::FOrdEqual, T::Bool, a, z);
        let lz = match self.o.semantics.log_zero {
            LogOfZero::NegFltMax => self.m.f(-f32::MAX),
            LogOfZero::NegInfinity => self.bits_f32(0xff80_0000),
        };
        self.sel(T::F32, is0, lz, l)
    }

    pub(super) fn reg_value(&mut self, s: &SrcParam) -> Result<u32, Error> {
        use RegisterType::*;
        let k = s.reg.kind;
        Ok(match k {
            Const | Const2 | Const3 | Const4 => {
                let n = d3dbc::regs::float_constant_index(k, s.reg.num);
                let v = self.const_f(n, s.rel);
                if self.ps1x && self.o.semantics.ps1x_clamp_constants {
                    let lo = self.m.splat_f(-1.0);
                    let hi = self.m.splat_f(1.0);
                    self.ext(T::V4F, G::FClamp, &[v, lo, hi])
                } else {
                    v
                }
            }
            ConstInt => {
                let v = self.const_i(s.reg.num);
                self.op1(Op::ConvertSToF, T::V4F, v)
            }
            ConstBool => {
                let b = self.const_b(s.reg.num);
                let one = self.m.f(1.0);
                let zero = self.m.f(0.0);
                let f = self.sel(T::F32, b, one, zero);
                self.splat(T::V4F, f)
            }
            Sampler | Label => self.zero4(),
            _ => {
                if let (Some(rel), Input) = (s.rel, k) {
                    return Ok(self.rel_input(s.reg.num, rel));
                }
                let Some(i) = self.slot(k, s.reg.num) else {
                    return Ok(self.zero4());
                };
                let v = self.read_slot(i);
                match self.slots[i].ty {
                    SlotTy::F4 => v,
                    SlotTy::I4 => self.op1(Op::ConvertSToF, T::V4F, v),
                    SlotTy::I1 => {
                        let f = self.op1(Op::ConvertSToF, T::F32, v);
                        self.splat(T::V4F, f)
                    }
                    SlotTy::B4 => {
                        let one = self.m.splat_f(1.0);
                        let zero = self.zero4();
                        self.sel(T::V4F, v, one, zero)
                    }
                }
            }
        })
    }

    pub(super) fn addr(&mut self, rel: RelAddr) -> u32 {
        match rel.reg.kind {
            RegisterType::Loop => match self.slot(RegisterType::Loop, 0) {
                Some(i) => self.read_slot(i),
                None => self.m.i(0),
            },
            _ => match self.slot(rel.reg.kind, rel.reg.num) {
                Some(i) if self.slots[i].ty == SlotTy::I4 => {
                    let v = self.read_slot(i);
                    self.comp(T::I32, v, rel.component() as u32)
                }
                _ => self.m.i(0),
            },
        }
    }

    pub(super) fn float_def(&self, n: u32) -> Option<[u32; 4]> {
        if n >= 65536 {
            return None;
        }
        let d = &self.scan.float_defs;
        d.binary_search_by_key(&(n as u16), |e| e.0)
            .ok()
            .map(|i| d[i].1)
    }

    /// The value of a `def`: a constant vector, or, where a component is NaN or
    /// infinite (`def c1, 1.#QNAN, -1.#INF, 1.#INF, 0` as Wine's fp_special_test writes
    /// it), the bit pattern's constant bitcast to floats, since SPIR-V front ends that
    /// rebuild an IR without non-finite literals (naga's, under wgpu) reject the constant.
    pub(super) fn def_vec4(&mut self, d: [u32; 4]) -> u32 {
        if d.iter().all(|b| f32::from_bits(*b).is_finite()) {
            return self.m.vec4(T::V4F, d);
        }
        let u = self.m.vec4(T::V4U, d);
        self.op1(Op::Bitcast, T::V4F, u)
    }

    pub(super) fn const_f(&mut self, n: u32, rel: Option<RelAddr>) -> u32 {
        let (var, len) = self.float_consts();
        match rel {
            None => {
                if let Some(d) = self.float_def(n) {
                    return self.def_vec4(d);
                }
                if n >= len {
                    return self.zero4();
                }
                let idx = self.m.u(n);
                self.uniform_elem(var, T::V4F, idx)
            }
            Some(rel) => {
                let a = self.addr(rel);
                let base = self.m.i(n as i32);
                let idx = self.op2(Op::IAdd, T::I32, a, base);
                let iu = self.op1(Op::Bitcast, T::U32, idx);
                let lim = self.m.u(len);
                let ok = self.op2(Op::ULessThan, T::Bool, iu, lim);
                let last = self.m.u(len.saturating_sub(1));
                let cl = self.ext(T::U32, G::UMin, &[iu, last]);
                let val = self.uniform_elem(var, T::V4F, cl);
                let z = self.zero4();
                let mut r = self.sel_s(T::V4F, ok, val, z);
                for j in 0..self.scan.float_defs.len() {
                    let (k, d) = self.scan.float_defs[j];
                    let kk = self.m.i(k as i32);
                    let eq = self.op2(Op::IEqual, T::Bool, idx, kk);
                    let dv = self.def_vec4(d);
                    r = self.sel_s(T::V4F, eq, dv, r);
                }
                r
            }
        }
    }

    pub(super) fn const_i(&mut self, n: u16) -> u32 {
        let defs = &self.scan.int_defs;
        if let Ok(i) = defs.binary_search_by_key(&n, |e| e.0) {
            let d = defs[i].1;
            return self.m.vec4(T::V4I, d.map(|x| x as u32));
        }
        if n as u32 >= itf::INT_CONSTANTS {
            return self.m.null(T::V4I);
        }
        let var = self.int_consts();
        let idx = self.m.u(n as u32);
        self.uniform_elem(var, T::V4I, idx)
    }

    pub(super) fn const_b(&mut self, n: u16) -> u32 {
        let defs = &self.scan.bool_defs;
        if let Ok(i) = defs.binary_search_by_key(&n, |e| e.0) {
            let d = defs[i].1;
            return self.m.b(d);
        }
        if n as u32 >= itf::INT_CONSTANTS {
            return self.m.b(false);
        }
        let var = self.bool_consts();
        let idx = self.m.u(n as u32);
        let v = self.uniform_elem(var, T::V4U, idx);
        let x = self.comp(T::U32, v, 0);
        let z = self.m.u(0);
        self.op2(Op::INotEqual, T::Bool, x, z)
    }

    pub(super) fn rel_input(&mut self, base: u16, rel: RelAddr) -> u32 {
        let a = self.addr(rel);
        let b = self.m.i(base as i32);
        let idx = self.op2(Op::IAdd, T::I32, a, b);
        let mut r = self.zero4();
        for i in 0..self.slots.len() {
            if self.slots[i].kind != RegisterType::Input {
                continue;
            }
            let n = self.slots[i].num;
            let v = self.read_slot(i);
            let k = self.m.i(n as i32);
            let eq = self.op2(Op::IEqual, T::Bool, idx, k);
            r = self.sel_s(T::V4F, eq, v, r);
        }
        r
    }

    /// A source that reads a `def` constant directly, swizzled and negated at
    /// translation time: one constant instead of a shuffle (and a negate) of one.
    /// `None` where the source is anything else, or a component is not finite (those
    /// go through [`Self::def_vec4`]'s bitcast), or the modifier computes.
    fn folded_src(&mut self, s: &SrcParam) -> Option<u32> {
        use RegisterType::*;
        let k = s.reg.kind;
        if s.rel.is_some() || !matches!(k, Const | Const2 | Const3 | Const4) {
            return None;
        }
        let n = d3dbc::regs::float_constant_index(k, s.reg.num);
        let d = self.float_def(n)?;
        if !d.iter().all(|b| f32::from_bits(*b).is_finite()) {
            return None;
        }
        // The constant block stays declared, as `const_f` declares it: the interface is
        // the naga path's, which declares it for any `c#` read.
        self.float_consts();
        let flip = match s.modifier {
            SrcModifier::None => 0,
            SrcModifier::Neg => 0x8000_0000,
            _ => return None,
        };
        let clamp = self.ps1x && self.o.semantics.ps1x_clamp_constants;
        let sw = swizzle4(s.swizzle);
        let bits = sw.map(|i| {
            let b = d[i as usize];
            // FClamp(x, -1, 1) of a finite x, as the shader would compute it.
            let b = if clamp {
                f32::from_bits(b).clamp(-1.0, 1.0).to_bits()
            } else {
                b
            };
            b ^ flip
        });
        Some(self.m.vec4(T::V4F, bits))
    }

    pub(super) fn src(&mut self, s: &SrcParam) -> Result<u32, Error> {
        if let Some(v) = self.folded_src(s) {
            return Ok(v);
        }
        let v = self.reg_value(s)?;
        let v = if s.swizzle != d3dbc::ir::SWIZZLE_IDENTITY {
            self.shuffle(T::V4F, v, &swizzle4(s.swizzle))
        } else {
            v
        };
        Ok(self.modifier(v, s.modifier))
    }

    pub(super) fn modifier(&mut self, v: u32, m: SrcModifier) -> u32 {
        use SrcModifier::*;
        match m {
            None | Not => v,
            Neg => self.fneg(T::V4F, v),
            Bias | BiasNeg => {
                let h = self.m.splat_f(0.5);
                let r = self.op2(Op::FSub, T::V4F, v, h);
                if m == BiasNeg {
                    self.fneg(T::V4F, r)
                } else {
                    r
                }
            }
            Sign | SignNeg => {
                let h = self.m.splat_f(0.5);
                let r = self.op2(Op::FSub, T::V4F, v, h);
                let two = self.m.splat_f(2.0);
                let r = self.op2(Op::FMul, T::V4F, r, two);
                if m == SignNeg {
                    self.fneg(T::V4F, r)
                } else {
                    r
                }
            }
            Comp => {
                let one = self.m.splat_f(1.0);
                self.op2(Op::FSub, T::V4F, one, v)
            }
            X2 | X2Neg => {
                let two = self.m.splat_f(2.0);
                let r = self.op2(Op::FMul, T::V4F, v, two);
                if m == X2Neg {
                    self.fneg(T::V4F, r)
                } else {
                    r
                }
            }
            Dz | Dw => {
                let c = if m == Dz { 2 } else { 3 };
                let d = self.cf(v, c);
                let d = self.splat(T::V4F, d);
                self.op2(Op::FDiv, T::V4F, v, d)
            }
            Abs => self.ext(T::V4F, G::FAbs, &[v]),
            AbsNeg => {
                let a = self.ext(T::V4F, G::FAbs, &[v]);
                self.fneg(T::V4F, a)
            }
        }
    }

    pub(super) fn pred_vec(&mut self, num: u16) -> u32 {
        match self.slot(RegisterType::Predicate, num) {
            Some(i) => self.read_slot(i),
            None => self.m.null(T::V4B),
        }
    }

    pub(super) fn bool_src(&mut self, s: &SrcParam) -> Result<u32, Error> {
        let b = match s.reg.kind {
            RegisterType::ConstBool => self.const_b(s.reg.num),
            RegisterType::Predicate => {
                let v = self.pred_vec(s.reg.num);
                self.comp(T::Bool, v, (s.swizzle & 3) as u32)
            }
            _ => {
                let v = self.src(s)?;
                let x = self.cf(v, 0);
                let z = self.m.f(0.0);
                self.op2(Op::FOrdNotEqual, T::Bool, x, z)
            }
        };
        Ok(if s.modifier == SrcModifier::Not {
            self.op1(Op::LogicalNot, T::Bool, b)
        } else {
            b
        })
    }
}
