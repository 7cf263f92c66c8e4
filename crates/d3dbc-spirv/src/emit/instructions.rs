//! Instructions: the SPIR-V of each arithmetic, texture and ps_1_x instruction, with
//! the helpers for sampler swizzles, bump mapping and `mova` rounding.

use super::*;

impl Emitter<'_> {
    /// Emits one instruction: first by its role ([`Opcode::role`]: declarations and
    /// markers emit nothing, `phase` and flow control have their own code), then by
    /// family.
    pub(super) fn emit_ins(&mut self, x: &Instruction) -> Result<(), Error> {
        let op = x.opcode;
        self.op = op;
        match op.role() {
            Role::Declaration | Role::Marker => Ok(()),
            Role::Phase => {
                self.phase();
                Ok(())
            }
            Role::Flow(flow) => self.flow(x, flow),
            Role::Compute if op.is_texld() => self.texld(x),
            Role::Compute if op.is_ps1x_texture_op() => self.ps1x_texture(x),
            Role::Compute => self.arith(x),
        }
    }

    /// Arithmetic: moves, sums, products, dot products, matrix macros, `lrp`, `crs`,
    /// `sgn`, `abs`, `bem`; the other computing families are sent on.
    pub(super) fn arith(&mut self, x: &Instruction) -> Result<(), Error> {
        use Opcode::*;
        let op = x.opcode;
        let s = |l: &mut Self, i: usize| l.src(&x.srcs[i]);
        match op {
            Mov => {
                let mut v = s(self, 0)?;
                if !self.ps && x.dst.reg.kind == RegisterType::AddrOrTexture {
                    v = if self.v.is_sm1() {
                        self.ext(T::V4F, G::Floor, &[v])
                    } else {
                        self.mova_round(v)
                    };
                }
                self.write(x, v)?;
            }
            Mova => {
                let v = s(self, 0)?;
                let r = self.mova_round(v);
                self.write(x, r)?;
            }
            Add | Sub => {
                let (a, b) = (s(self, 0)?, s(self, 1)?);
                let r = self.op2(if op == Add { Op::FAdd } else { Op::FSub }, T::V4F, a, b);
                self.write(x, r)?;
            }
            Mul => {
                let (a, b) = (s(self, 0)?, s(self, 1)?);
                let r = self.mulz(a, b);
                self.write(x, r)?;
            }
            Mad => {
                let (a, b, c) = (s(self, 0)?, s(self, 1)?, s(self, 2)?);
                let (a, b) = self.zero_factors(a, b, true);
                let r = if self.o.semantics.fused_mad {
                    self.ext(T::V4F, G::Fma, &[a, b, c])
                } else {
                    let p = self.op2(Op::FMul, T::V4F, a, b);
                    self.op2(Op::FAdd, T::V4F, p, c)
                };
                self.write(x, r)?;
            }
            Frc => {
                let v = s(self, 0)?;
                let f = self.ext(T::V4F, G::Floor, &[v]);
                let r = self.op2(Op::FSub, T::V4F, v, f);
                // frc is in [0, 1): a driver that contracts the product feeding it into
                // the subtraction (fma(a, b, -floor(a·b))) can give a tiny negative.
                let z = self.zero4();
                let neg = self.op2(Op::FOrdLessThan, T::V4B, r, z);
                let r = self.sel(T::V4F, neg, z, r);
                self.write(x, r)?;
            }
            Dp3 | Dp4 => {
                let (a, b) = (s(self, 0)?, s(self, 1)?);
                let d = self.dotz(a, b, if op == Dp3 { 3 } else { 4 });
                let r = self.splat(T::V4F, d);
                self.write(x, r)?;
            }
            Dp2Add => {
                let (a, b, c) = (s(self, 0)?, s(self, 1)?, s(self, 2)?);
                let d = self.dotz(a, b, 2);
                let cx = self.cf(c, 0);
                let r = self.op2(Op::FAdd, T::F32, d, cx);
                let r = self.splat(T::V4F, r);
                self.write(x, r)?;
            }
            Lrp => {
                let (a, b, c) = (s(self, 0)?, s(self, 1)?, s(self, 2)?);
                let d = self.op2(Op::FSub, T::V4F, b, c);
                let p = self.mulz(a, d);
                let r = self.op2(Op::FAdd, T::V4F, p, c);
                self.write(x, r)?;
            }
            M4x4 | M4x3 | M3x4 | M3x3 | M3x2 => {
                let Some(shape) = op.matrix() else {
                    return Err(self.unsupported("not a matrix macro"));
                };
                let (n, rows) = (u32::from(shape.columns), usize::from(shape.rows));
                let a = s(self, 0)?;
                let zero = self.m.f(0.0);
                let mut c = [zero; 4];
                for (r, slot) in c.iter_mut().enumerate().take(rows) {
                    let mut row = x.srcs[1];
                    row.reg.num = row.reg.num.wrapping_add(r as u16);
                    let b = self.src(&row)?;
                    *slot = self.dotz(a, b, n);
                }
                let r = self.vec4(c);
                self.write(x, r)?;
            }
            Crs => {
                let (a, b) = (s(self, 0)?, s(self, 1)?);
                let a1 = self.shuffle(T::V4F, a, &[1, 2, 0, 3]);
                let b1 = self.shuffle(T::V4F, b, &[2, 0, 1, 3]);
                let a2 = self.shuffle(T::V4F, a, &[2, 0, 1, 3]);
                let b2 = self.shuffle(T::V4F, b, &[1, 2, 0, 3]);
                let p1 = self.mulz(a1, b1);
                let p2 = self.mulz(a2, b2);
                let r = self.op2(Op::FSub, T::V4F, p1, p2);
                self.write(x, r)?;
            }
            Sgn => {
                let a = s(self, 0)?;
                let r = self.ext(T::V4F, G::FSign, &[a]);
                self.write(x, r)?;
            }
            Abs => {
                let a = s(self, 0)?;
                let r = self.ext(T::V4F, G::FAbs, &[a]);
                self.write(x, r)?;
            }
            Bem => {
                let (a, b) = (s(self, 0)?, s(self, 1)?);
                let r = self.bump(x.dst.reg.num, a, b);
                self.write(x, r)?;
            }
            Rcp | Rsq | Exp | Log | ExpP | LogP | Lit | Dst | Pow | Nrm | SinCos => {
                return self.math(x)
            }
            Min | Max | Slt | Sge | Cnd | Cmp | SetP => return self.compare(x),
            Dsx | Dsy | TexKill | TexDepth => return self.pixel(x),
            _ => return Err(self.unsupported("not an arithmetic instruction")),
        }
        Ok(())
    }

    /// Scalar and transcendental functions: `rcp`, `rsq`, `exp`, `log`, `expp`, `logp`,
    /// `lit`, `dst`, `pow`, `nrm`, `sincos`.
    pub(super) fn math(&mut self, x: &Instruction) -> Result<(), Error> {
        use Opcode::*;
        let op = x.opcode;
        let s = |l: &mut Self, i: usize| l.src(&x.srcs[i]);
        match op {
            Rcp | Rsq | Exp | Log => {
                let v = s(self, 0)?;
                let xs = self.scalar(op, v);
                let r = match op {
                    Rcp => self.rcp(xs),
                    Rsq => self.rsq(xs),
                    Exp => self.ext(T::F32, G::Exp2, &[xs]),
                    _ => self.log2(xs),
                };
                let r = self.splat(T::V4F, r);
                self.write(x, r)?;
            }
            ExpP | LogP => {
                let v = s(self, 0)?;
                let xs = self.scalar(op, v);
                let r = if self.v.is_sm1() {
                    let one = self.m.f(1.0);
                    if op == ExpP {
                        let fl = self.ext(T::F32, G::Floor, &[xs]);
                        let a = self.ext(T::F32, G::Exp2, &[fl]);
                        let b = self.op2(Op::FSub, T::F32, xs, fl);
                        let c = self.ext(T::F32, G::Exp2, &[xs]);
                        self.vec4([a, b, c, one])
                    } else {
                        let l = self.log2(xs);
                        let e = self.ext(T::F32, G::Floor, &[l]);
                        let ne = self.fneg(T::F32, e);
                        let sc = self.ext(T::F32, G::Exp2, &[ne]);
                        let ab = self.ext(T::F32, G::FAbs, &[xs]);
                        let mnt = self.op2(Op::FMul, T::F32, ab, sc);
                        self.vec4([e, mnt, l, one])
                    }
                } else {
                    let r = if op == ExpP {
                        self.ext(T::F32, G::Exp2, &[xs])
                    } else {
                        self.log2(xs)
                    };
                    self.splat(T::V4F, r)
                };
                self.write(x, r)?;
            }
            Lit => {
                let v = s(self, 0)?;
                let (vx, vy, vw) = (self.cf(v, 0), self.cf(v, 1), self.cf(v, 3));
                let one = self.m.f(1.0);
                let zero = self.m.f(0.0);
                let lim = 127.9961f32;
                let lo = self.m.f(-lim);
                let hi = self.m.f(lim);
                let p = self.ext(T::F32, G::FClamp, &[vw, lo, hi]);
                let xp = self.op2(Op::FOrdGreaterThan, T::Bool, vx, zero);
                let yp = self.op2(Op::FOrdGreaterThan, T::Bool, vy, zero);
                let both = self.op2(Op::LogicalAnd, T::Bool, xp, yp);
                let y = self.sel(T::F32, xp, vx, zero);
                let ly = self.ext(T::F32, G::Log2, &[vy]);
                let pl = self.mulz1(p, ly);
                let pw = self.ext(T::F32, G::Exp2, &[pl]);
                let z = self.sel(T::F32, both, pw, zero);
                let r = self.vec4([one, y, z, one]);
                self.write(x, r)?;
            }
            Dst => {
                let (a, b) = (s(self, 0)?, s(self, 1)?);
                let one = self.m.f(1.0);
                let (ay, by) = (self.cf(a, 1), self.cf(b, 1));
                let y = self.mulz1(ay, by);
                let z = self.cf(a, 2);
                let w = self.cf(b, 3);
                let r = self.vec4([one, y, z, w]);
                self.write(x, r)?;
            }
            Pow => {
                let (a, b) = (s(self, 0)?, s(self, 1)?);
                let (ax, bx) = (self.scalar(op, a), self.scalar(op, b));
                let ab = self.ext(T::F32, G::FAbs, &[ax]);
                let l = self.ext(T::F32, G::Log2, &[ab]);
                let p = self.mulz1(bx, l);
                let r = self.ext(T::F32, G::Exp2, &[p]);
                let r = self.splat(T::V4F, r);
                self.write(x, r)?;
            }
            Nrm => {
                let a = s(self, 0)?;
                let f = self.dotz(a, a, 3);
                let zero = self.m.f(0.0);
                let is0 = self.op2(Op::FOrdEqual, T::Bool, f, zero);
                let r = self.ext(T::F32, G::InverseSqrt, &[f]);
                let big = self.m.f(f32::MAX);
                let sc = self.sel(T::F32, is0, big, r);
                let sc = self.splat(T::V4F, sc);
                let r = self.mulz(a, sc);
                self.write(x, r)?;
            }
            SinCos => {
                let a = s(self, 0)?;
                let c = self.scalar(op, a);
                let co = self.ext(T::F32, G::Cos, &[c]);
                let si = self.ext(T::F32, G::Sin, &[c]);
                let z = self.m.f(0.0);
                let r = self.vec4([co, si, z, z]);
                self.write(x, r)?;
            }
            _ => return Err(self.unsupported("not a scalar function")),
        }
        Ok(())
    }

    /// Comparisons and selections: `min`, `max`, `slt`, `sge`, `cnd`, `cmp`, `setp`.
    pub(super) fn compare(&mut self, x: &Instruction) -> Result<(), Error> {
        use Opcode::*;
        let op = x.opcode;
        let s = |l: &mut Self, i: usize| l.src(&x.srcs[i]);
        match op {
            Min | Max => {
                let (a, b) = (s(self, 0)?, s(self, 1)?);
                let cop = if op == Min {
                    Op::FOrdLessThan
                } else {
                    Op::FOrdGreaterThanEqual
                };
                let c = self.op2(cop, T::V4B, a, b);
                let r = self.sel(T::V4F, c, a, b);
                self.write(x, r)?;
            }
            Slt | Sge => {
                let (a, b) = (s(self, 0)?, s(self, 1)?);
                let cop = if op == Slt {
                    Op::FOrdLessThan
                } else {
                    Op::FOrdGreaterThanEqual
                };
                let c = self.op2(cop, T::V4B, a, b);
                let one = self.m.splat_f(1.0);
                let z = self.zero4();
                let r = self.sel(T::V4F, c, one, z);
                self.write(x, r)?;
            }
            Cnd => {
                let (a, b, c) = (s(self, 0)?, s(self, 1)?, s(self, 2)?);
                let r = if !self.v.is_ps_1_4() {
                    let aw = self.cf(a, 3);
                    let h = self.m.f(0.5);
                    let cond = self.op2(Op::FOrdGreaterThan, T::Bool, aw, h);
                    self.sel_s(T::V4F, cond, b, c)
                } else {
                    let h = self.m.splat_f(0.5);
                    let cond = self.op2(Op::FOrdGreaterThan, T::V4B, a, h);
                    self.sel(T::V4F, cond, b, c)
                };
                self.write(x, r)?;
            }
            Cmp => {
                let (a, b, c) = (s(self, 0)?, s(self, 1)?, s(self, 2)?);
                let z = self.zero4();
                let cond = self.op2(Op::FOrdGreaterThanEqual, T::V4B, a, z);
                let r = self.sel(T::V4F, cond, b, c);
                self.write(x, r)?;
            }
            SetP => {
                let (a, b) = (s(self, 0)?, s(self, 1)?);
                let c = self.op2(cmp_op(x.comparison()), T::V4B, a, b);
                if let Some(i) = self.slot(x.dst.reg.kind, x.dst.reg.num) {
                    if self.slots[i].ty != SlotTy::B4 {
                        return Err(self.unsupported("setp to a register other than p0"));
                    }
                    let old = self.read_slot(i);
                    let nv = self.masked(T::V4B, old, c, x.dst.mask, x.predicate);
                    self.set_slot(i, nv);
                }
            }
            _ => return Err(self.unsupported("not a comparison")),
        }
        Ok(())
    }

    /// What only a pixel has: derivatives, `texkill`, `texdepth`.
    pub(super) fn pixel(&mut self, x: &Instruction) -> Result<(), Error> {
        use Opcode::*;
        let op = x.opcode;
        let s = |l: &mut Self, i: usize| l.src(&x.srcs[i]);
        match op {
            Dsx | Dsy => {
                let a = s(self, 0)?;
                let r = if self.ps {
                    self.derivatives = true;
                    self.op1(
                        if op == Dsx {
                            Op::DPdxFine
                        } else {
                            Op::DPdyFine
                        },
                        T::V4F,
                        a,
                    )
                } else {
                    self.zero4()
                };
                self.write(x, r)?;
            }
            TexKill => {
                let v = self.reg_of(x.dst.reg.kind, x.dst.reg.num)?;
                let z = self.zero4();
                let lt = self.op2(Op::FOrdLessThan, T::V4B, v, z);
                let mask = if self.v.is_sm1() { 7 } else { x.dst.mask & 15 };
                let mut any: Option<u32> = None;
                for c in 0..4 {
                    if mask & (1 << c) != 0 {
                        let b = self.comp(T::Bool, lt, c);
                        any = Some(match any {
                            None => b,
                            Some(a) => self.op2(Op::LogicalOr, T::Bool, a, b),
                        });
                    }
                }
                if let (Some(cond), k @ 1..) = (any, self.killed) {
                    // Deferred (module docs): killed |= cond.
                    let was = self.load(T::Bool, k);
                    let now = self.op2(Op::LogicalOr, T::Bool, was, cond);
                    self.store(k, now);
                }
            }
            TexDepth => {
                let v = self.reg_of(x.dst.reg.kind, x.dst.reg.num)?;
                let (z, w) = (self.cf(v, 0), self.cf(v, 1));
                self.depth_write(z, w);
            }
            _ => return Err(self.unsupported("not a pixel instruction")),
        }
        Ok(())
    }

    /// The sampling family ([`Opcode::is_texld`]): `texld` (ps_1_x `tex` too), `texldl`,
    /// `texldd`.
    pub(super) fn texld(&mut self, x: &Instruction) -> Result<(), Error> {
        use Opcode::*;
        let op = x.opcode;
        let s = |l: &mut Self, i: usize| l.src(&x.srcs[i]);
        match op {
            Tex => {
                let r = if self.ps1x {
                    if !self.v.is_ps_1_4() {
                        let n = x.dst.reg.num;
                        let c = self.texcoord(n, true);
                        self.sample(n, c, Level::Auto)?
                    } else {
                        let c = s(self, 0)?;
                        self.sample(x.dst.reg.num, c, Level::Auto)?
                    }
                } else {
                    let c = s(self, 0)?;
                    let stage = x.srcs[1].reg.num;
                    let ctl = x.controls;
                    let r = if ctl & d3dbc::token::texld_controls::PROJECT != 0 {
                        let w = self.cf(c, 3);
                        let w = self.splat(T::V4F, w);
                        let pc = self.op2(Op::FDiv, T::V4F, c, w);
                        self.sample(stage, pc, Level::Auto)?
                    } else if ctl & d3dbc::token::texld_controls::BIAS != 0 {
                        let w = self.cf(c, 3);
                        self.sample(stage, c, Level::Bias(w))?
                    } else {
                        self.sample(stage, c, Level::Auto)?
                    };
                    self.sampler_swizzle(r, &x.srcs[1])
                };
                self.write(x, r)?;
            }
            TexLdl => {
                let c = s(self, 0)?;
                let w = self.cf(c, 3);
                let r = self.sample(x.srcs[1].reg.num, c, Level::Exact(w))?;
                let r = self.sampler_swizzle(r, &x.srcs[1]);
                self.write(x, r)?;
            }
            TexLdd => {
                let c = s(self, 0)?;
                let (gx, gy) = (s(self, 2)?, s(self, 3)?);
                let r = if self.ps {
                    self.sample(x.srcs[1].reg.num, c, Level::Grad(gx, gy))?
                } else {
                    self.sample(x.srcs[1].reg.num, c, Level::Auto)?
                };
                let r = self.sampler_swizzle(r, &x.srcs[1]);
                self.write(x, r)?;
            }
            _ => return Err(self.unsupported("not a texld instruction")),
        }
        Ok(())
    }

    /// The ps_1_x texture-addressing instructions ([`Opcode::is_ps1x_texture_op`]) but
    /// `tex`: coordinates, bump mapping, register reads, and the `texm*` pads; the
    /// instructions that end a `texm*` sequence are [`Self::texm`]'s.
    pub(super) fn ps1x_texture(&mut self, x: &Instruction) -> Result<(), Error> {
        use Opcode::*;
        let op = x.opcode;
        let s = |l: &mut Self, i: usize| l.src(&x.srcs[i]);
        match op {
            TexCoord => {
                let r = if !self.v.is_ps_1_4() {
                    let t = self.texcoord(x.dst.reg.num, false);
                    let (z, o) = (self.zero4(), self.m.splat_f(1.0));
                    let sat = self.ext(T::V4F, G::FClamp, &[t, z, o]);
                    let one = self.m.f(1.0);
                    let (a, b, c) = (self.cf(sat, 0), self.cf(sat, 1), self.cf(sat, 2));
                    self.vec4([a, b, c, one])
                } else {
                    s(self, 0)?
                };
                self.write(x, r)?;
            }
            TexBem | TexBemL => {
                let m = x.dst.reg.num;
                let src = s(self, 0)?;
                let tc = self.texcoord(m, true);
                let uv = self.bump(m, tc, src);
                let mut r = self.sample(m, uv, Level::Auto)?;
                if op == TexBemL {
                    let lum = self.driver(driver::BUMP_LUM + m as u32 % driver::BUMP_STAGES);
                    let (ls, lo) = (self.cf(lum, 0), self.cf(lum, 1));
                    let bz = self.cf(src, 2);
                    let p = self.mulz1(bz, ls);
                    let f = self.op2(Op::FAdd, T::F32, p, lo);
                    // The luminance factor saturates (Windows' BUMPENVMAPLUMINANCE, DXVK).
                    let (z, o) = (self.m.f(0.0), self.m.f(1.0));
                    let f = self.ext(T::F32, G::FClamp, &[f, z, o]);
                    let f = self.splat(T::V4F, f);
                    r = self.mulz(r, f);
                }
                self.write(x, r)?;
            }
            TexReg2Ar | TexReg2Gb | TexReg2Rgb => {
                let src = s(self, 0)?;
                let c = match op {
                    TexReg2Ar => self.shuffle(T::V4F, src, &[3, 0, 0, 0]),
                    TexReg2Gb => self.shuffle(T::V4F, src, &[1, 2, 2, 2]),
                    _ => src,
                };
                let r = self.sample(x.dst.reg.num, c, Level::Auto)?;
                self.write(x, r)?;
            }
            TexM3x2Pad | TexM3x3Pad => {
                let src = s(self, 0)?;
                let tc = self.texcoord(x.dst.reg.num, false);
                let d = self.dotz(tc, src, 3);
                if self.npads == self.pads.len() {
                    return Err(self.unsupported("more than two texm*pad in a row"));
                }
                self.pads[self.npads] = d;
                self.npads += 1;
            }
            TexM3x2Tex | TexM3x2Depth | TexM3x3Tex | TexM3x3 | TexM3x3Spec | TexM3x3VSpec
            | TexDp3 | TexDp3Tex => return self.texm(x),
            _ => return Err(self.unsupported("not a ps_1_x texture instruction")),
        }
        Ok(())
    }

    /// The instructions that end a ps_1_x `texm*` sequence (and `texdp3*`): the last
    /// row's dot product with the pads' before it.
    pub(super) fn texm(&mut self, x: &Instruction) -> Result<(), Error> {
        use Opcode::*;
        let op = x.opcode;
        let s = |l: &mut Self, i: usize| l.src(&x.srcs[i]);
        let m = x.dst.reg.num;
        let src = s(self, 0)?;
        let tc = self.texcoord(m, false);
        let d = self.dotz(tc, src, 3);
        let zero = self.m.f(0.0);
        let one = self.m.f(1.0);
        let np = std::mem::take(&mut self.npads);
        let pads = self.pads;
        let p = |i: usize| if i < np { pads[i] } else { zero };
        match op {
            TexM3x2Tex => {
                let c = self.vec4([p(0), d, zero, zero]);
                let r = self.sample(m, c, Level::Auto)?;
                self.write(x, r)?;
            }
            TexM3x2Depth => {
                self.depth_write(p(0), d);
            }
            TexM3x3Tex => {
                let c = self.vec4([p(0), p(1), d, zero]);
                let r = self.sample(m, c, Level::Auto)?;
                self.write(x, r)?;
            }
            TexM3x3 => {
                let r = self.vec4([p(0), p(1), d, one]);
                self.write(x, r)?;
            }
            TexM3x3Spec | TexM3x3VSpec => {
                let n = self.vec4([p(0), p(1), d, zero]);
                let e = if op == TexM3x3Spec {
                    s(self, 1)?
                } else {
                    let a = self.texcoord(m.wrapping_sub(2), false);
                    let b = self.texcoord(m.wrapping_sub(1), false);
                    let (aw, bw, cw) = (self.cf(a, 3), self.cf(b, 3), self.cf(tc, 3));
                    self.vec4([aw, bw, cw, zero])
                };
                let ne = self.dotz(n, e, 3);
                let nn = self.dotz(n, n, 3);
                let two = self.m.f(2.0);
                let q = self.op2(Op::FDiv, T::F32, ne, nn);
                let q = self.op2(Op::FMul, T::F32, two, q);
                let q = self.splat(T::V4F, q);
                let rn = self.mulz(n, q);
                let r = self.op2(Op::FSub, T::V4F, rn, e);
                // Where N·N = 0 (a zero normal, or one whose square underflows)
                // the 2·N·… term is 0 by the 0·x rule and R = −E, as the
                // executor and the naga path compute it.
                let z = self.m.f(0.0);
                let flat = self.op2(Op::FOrdEqual, T::Bool, nn, z);
                let minus_e = self.fneg(T::V4F, e);
                let r = self.sel_s(T::V4F, flat, minus_e, r);
                let r = self.sample(m, r, Level::Auto)?;
                self.write(x, r)?;
            }
            TexDp3 => {
                let r = self.splat(T::V4F, d);
                self.write(x, r)?;
            }
            _ => {
                let c = self.vec4([d, zero, zero, zero]);
                let r = self.sample(m, c, Level::Auto)?;
                self.write(x, r)?;
            }
        }
        Ok(())
    }

    pub(super) fn sampler_swizzle(&mut self, r: u32, s: &SrcParam) -> u32 {
        if self.v.is_sm3() && s.swizzle != d3dbc::ir::SWIZZLE_IDENTITY {
            self.shuffle(T::V4F, r, &swizzle4(s.swizzle))
        } else {
            r
        }
    }

    pub(super) fn bump(&mut self, stage: u16, base: u32, d: u32) -> u32 {
        let mat = self.driver(driver::BUMP_MAT + stage as u32 % driver::BUMP_STAGES);
        let m = [0, 1, 2, 3].map(|i| self.cf(mat, i));
        let (dr, dg) = (self.cf(d, 0), self.cf(d, 1));
        let (bu, bv) = (self.cf(base, 0), self.cf(base, 1));
        let a = self.mulz1(m[0], dr);
        let b = self.mulz1(m[2], dg);
        let u = self.op2(Op::FAdd, T::F32, bu, a);
        let u = self.op2(Op::FAdd, T::F32, u, b);
        let a = self.mulz1(m[1], dr);
        let b = self.mulz1(m[3], dg);
        let v = self.op2(Op::FAdd, T::F32, bv, a);
        let v = self.op2(Op::FAdd, T::F32, v, b);
        let (bz, bw) = (self.cf(base, 2), self.cf(base, 3));
        self.vec4([u, v, bz, bw])
    }

    pub(super) fn mova_round(&mut self, v: u32) -> u32 {
        match self.o.semantics.mova_ties {
            MovaTies::ToEven => self.ext(T::V4F, G::RoundEven, &[v]),
            MovaTies::HalfUp => {
                let h = self.m.splat_f(0.5);
                let a = self.op2(Op::FAdd, T::V4F, v, h);
                self.ext(T::V4F, G::Floor, &[a])
            }
            MovaTies::AwayFromZero => {
                let a = self.ext(T::V4F, G::FAbs, &[v]);
                let h = self.m.splat_f(0.5);
                let a = self.op2(Op::FAdd, T::V4F, a, h);
                let f = self.ext(T::V4F, G::Floor, &[a]);
                let sg = self.ext(T::V4F, G::FSign, &[v]);
                self.op2(Op::FMul, T::V4F, f, sg)
            }
        }
    }
}
