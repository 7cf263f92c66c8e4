//! Instructions: one naga expression tree per arithmetic, texture and ps_1_x
//! instruction, with the helpers for sampler swizzles, bump mapping and `mova` rounding.

use super::*;

impl Lower<'_> {
    /// Lowers one instruction: first by its role ([`Opcode::role`]: declarations and
    /// markers lower to nothing, `phase` and flow control have their own code), then by
    /// family.
    pub(super) fn lower_ins(&mut self, x: &Instruction) -> Result<(), Error> {
        let op = x.opcode;
        self.op = op;
        match op.role() {
            Role::Declaration | Role::Marker => Ok(()),
            Role::Phase => self.phase(),
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
                        self.fun.m1(M::Floor, v)
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
                let r = if op == Add {
                    self.fun.add(a, b)
                } else {
                    self.fun.sub(a, b)
                };
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
                    self.fun.math(M::Fma, a, Some(b), Some(c))
                } else {
                    let p = self.fun.mul(a, b);
                    self.fun.add(p, c)
                };
                self.write(x, r)?;
            }
            Frc => {
                let v = s(self, 0)?;
                let f = self.fun.m1(M::Floor, v);
                let r = self.fun.sub(v, f);
                // frc is in [0, 1): a driver that contracts the product feeding it into
                // the subtraction (fma(a, b, -floor(a·b))) can give a tiny negative.
                let z = self.zero4();
                let neg = self.fun.bin(B::Less, r, z);
                let r = self.fun.select(neg, z, r);
                self.write(x, r)?;
            }
            Dp3 | Dp4 => {
                let (a, b) = (s(self, 0)?, s(self, 1)?);
                let d = self.dotz(a, b, if op == Dp3 { 3 } else { 4 });
                let r = self.fun.splat(d);
                self.write(x, r)?;
            }
            Dp2Add => {
                let (a, b, c) = (s(self, 0)?, s(self, 1)?, s(self, 2)?);
                let d = self.dotz(a, b, 2);
                let cx = self.fun.comp(c, 0);
                let r = self.fun.add(d, cx);
                let r = self.fun.splat(r);
                self.write(x, r)?;
            }
            Lrp => {
                let (a, b, c) = (s(self, 0)?, s(self, 1)?, s(self, 2)?);
                let d = self.fun.sub(b, c);
                let p = self.mulz(a, d);
                let r = self.fun.add(p, c);
                self.write(x, r)?;
            }
            M4x4 | M4x3 | M3x4 | M3x3 | M3x2 => {
                let Some(shape) = op.matrix() else {
                    return Err(self.unsupported("not a matrix macro"));
                };
                let (n, rows) = (u32::from(shape.columns), u16::from(shape.rows));
                let a = s(self, 0)?;
                let mut c = Vec::with_capacity(4);
                for r in 0..rows {
                    let mut row = x.srcs[1];
                    row.reg.num = row.reg.num.wrapping_add(r);
                    let b = self.src(&row)?;
                    c.push(self.dotz(a, b, n));
                }
                while c.len() < 4 {
                    c.push(self.fun.f(0.0));
                }
                let r = self.fun.compose(self.t.vec4f, c);
                self.write(x, r)?;
            }
            Crs => {
                let (a, b) = (s(self, 0)?, s(self, 1)?);
                let a1 = self.fun.swz(a, VectorSize::Quad, [1, 2, 0, 3]);
                let b1 = self.fun.swz(b, VectorSize::Quad, [2, 0, 1, 3]);
                let a2 = self.fun.swz(a, VectorSize::Quad, [2, 0, 1, 3]);
                let b2 = self.fun.swz(b, VectorSize::Quad, [1, 2, 0, 3]);
                let p1 = self.mulz(a1, b1);
                let p2 = self.mulz(a2, b2);
                let r = self.fun.sub(p1, p2);
                self.write(x, r)?;
            }
            Sgn => {
                let a = s(self, 0)?;
                let r = self.fun.m1(M::Sign, a);
                self.write(x, r)?;
            }
            Abs => {
                let a = s(self, 0)?;
                let r = self.fun.m1(M::Abs, a);
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
                    Exp => self.fun.m1(M::Exp2, xs),
                    _ => self.log2(xs),
                };
                let r = self.fun.splat(r);
                self.write(x, r)?;
            }
            ExpP | LogP => {
                let v = s(self, 0)?;
                let xs = self.scalar(op, v);
                let r = if self.v.is_sm1() {
                    let one = self.fun.f(1.0);
                    if op == ExpP {
                        let fl = self.fun.m1(M::Floor, xs);
                        let a = self.fun.m1(M::Exp2, fl);
                        let b = self.fun.sub(xs, fl);
                        let c = self.fun.m1(M::Exp2, xs);
                        self.vec4([a, b, c, one])
                    } else {
                        let l = self.log2(xs);
                        let e = self.fun.m1(M::Floor, l);
                        let ne = self.fun.e(Expression::Unary {
                            op: UnaryOperator::Negate,
                            expr: e,
                        });
                        let sc = self.fun.m1(M::Exp2, ne);
                        let ab = self.fun.m1(M::Abs, xs);
                        let mnt = self.fun.mul(ab, sc);
                        self.vec4([e, mnt, l, one])
                    }
                } else {
                    let r = if op == ExpP {
                        self.fun.m1(M::Exp2, xs)
                    } else {
                        self.log2(xs)
                    };
                    self.fun.splat(r)
                };
                self.write(x, r)?;
            }
            Lit => {
                let v = s(self, 0)?;
                let (vx, vy, vw) = (
                    self.fun.comp(v, 0),
                    self.fun.comp(v, 1),
                    self.fun.comp(v, 3),
                );
                let one = self.fun.f(1.0);
                let zero = self.fun.f(0.0);
                let lim = 127.9961f32;
                let lo = self.fun.f(-lim);
                let hi = self.fun.f(lim);
                let p = self.fun.math(M::Clamp, vw, Some(lo), Some(hi));
                let xp = self.fun.bin(B::Greater, vx, zero);
                let yp = self.fun.bin(B::Greater, vy, zero);
                let both = self.fun.bin(B::LogicalAnd, xp, yp);
                let y = self.fun.select(xp, vx, zero);
                let ly = self.fun.m1(M::Log2, vy);
                let pl = self.mulz1(p, ly);
                let pw = self.fun.m1(M::Exp2, pl);
                let z = self.fun.select(both, pw, zero);
                let r = self.vec4([one, y, z, one]);
                self.write(x, r)?;
            }
            Dst => {
                let (a, b) = (s(self, 0)?, s(self, 1)?);
                let one = self.fun.f(1.0);
                let (ay, by) = (self.fun.comp(a, 1), self.fun.comp(b, 1));
                let y = self.mulz1(ay, by);
                let z = self.fun.comp(a, 2);
                let w = self.fun.comp(b, 3);
                let r = self.vec4([one, y, z, w]);
                self.write(x, r)?;
            }
            Pow => {
                let (a, b) = (s(self, 0)?, s(self, 1)?);
                let (ax, bx) = (self.scalar(op, a), self.scalar(op, b));
                let ab = self.fun.m1(M::Abs, ax);
                let l = self.fun.m1(M::Log2, ab);
                let p = self.mulz1(bx, l);
                let r = self.fun.m1(M::Exp2, p);
                let r = self.fun.splat(r);
                self.write(x, r)?;
            }
            Nrm => {
                let a = s(self, 0)?;
                let f = self.dotz(a, a, 3);
                let zero = self.fun.f(0.0);
                let is0 = self.fun.bin(B::Equal, f, zero);
                let r = self.fun.m1(M::InverseSqrt, f);
                let big = self.fun.f(f32::MAX);
                let sc = self.fun.select(is0, big, r);
                let sc = self.fun.splat(sc);
                let r = self.mulz(a, sc);
                self.write(x, r)?;
            }
            SinCos => {
                let a = s(self, 0)?;
                let c = self.scalar(op, a);
                let co = self.fun.m1(M::Cos, c);
                let si = self.fun.m1(M::Sin, c);
                let z = self.fun.f(0.0);
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
                let c = self
                    .fun
                    .bin(if op == Min { B::Less } else { B::GreaterEqual }, a, b);
                let r = self.fun.select(c, a, b);
                self.write(x, r)?;
            }
            Slt | Sge => {
                let (a, b) = (s(self, 0)?, s(self, 1)?);
                let c = self
                    .fun
                    .bin(if op == Slt { B::Less } else { B::GreaterEqual }, a, b);
                let one = self.fun.splat_f(1.0);
                let z = self.zero4();
                let r = self.fun.select(c, one, z);
                self.write(x, r)?;
            }
            Cnd => {
                let (a, b, c) = (s(self, 0)?, s(self, 1)?, s(self, 2)?);
                let cond = if !self.v.is_ps_1_4() {
                    // ps_1_1–1_3: src0 is r0.a, one test for every component.
                    let aw = self.fun.comp(a, 3);
                    let h = self.fun.f(0.5);
                    self.fun.bin(B::Greater, aw, h)
                } else {
                    let h = self.fun.splat_f(0.5);
                    self.fun.bin(B::Greater, a, h)
                };
                let r = self.fun.select(cond, b, c);
                self.write(x, r)?;
            }
            Cmp => {
                let (a, b, c) = (s(self, 0)?, s(self, 1)?, s(self, 2)?);
                let z = self.zero4();
                let cond = self.fun.bin(B::GreaterEqual, a, z);
                let r = self.fun.select(cond, b, c);
                self.write(x, r)?;
            }
            SetP => {
                let (a, b) = (s(self, 0)?, s(self, 1)?);
                let c = self.fun.bin(cmp_op(x.comparison()), a, b);
                if let Some(i) = self.slot(x.dst.reg.kind, x.dst.reg.num) {
                    let old = self.read_slot(i);
                    let nv = self.masked(old, c, x.dst.mask, x.predicate)?;
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
                    self.fun.e(Expression::Derivative {
                        axis: if op == Dsx {
                            naga::DerivativeAxis::X
                        } else {
                            naga::DerivativeAxis::Y
                        },
                        ctrl: naga::DerivativeControl::Fine,
                        expr: a,
                    })
                } else {
                    self.zero4()
                };
                self.write(x, r)?;
            }
            TexKill => {
                let v = self.reg_of(x.dst.reg.kind, x.dst.reg.num)?;
                let z = self.zero4();
                let lt = self.fun.bin(B::Less, v, z);
                let mask = if self.v.is_sm1() { 7 } else { x.dst.mask & 15 };
                let mut any: Option<H> = None;
                for c in 0..4 {
                    if mask & (1 << c) != 0 {
                        let b = self.fun.comp(lt, c);
                        any = Some(match any {
                            None => b,
                            Some(a) => self.fun.bin(B::LogicalOr, a, b),
                        });
                    }
                }
                if let (Some(cond), Some(k)) = (any, self.killed) {
                    // Deferred: the entry point kills at its end (module docs).
                    let pointer = self.fun.e(Expression::GlobalVariable(k));
                    let value = self.fun.b(true);
                    self.fun.stmt(Statement::If {
                        condition: cond,
                        accept: naga::Block::from_vec(vec![Statement::Store { pointer, value }]),
                        reject: naga::Block::new(),
                    });
                }
            }
            TexDepth => {
                let v = self.reg_of(x.dst.reg.kind, x.dst.reg.num)?;
                let (z, w) = (self.fun.comp(v, 0), self.fun.comp(v, 1));
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
                        self.sample(n, c, Level::Auto)
                    } else {
                        let c = s(self, 0)?;
                        self.sample(x.dst.reg.num, c, Level::Auto)
                    }
                } else {
                    let c = s(self, 0)?;
                    let stage = x.srcs[1].reg.num;
                    let ctl = x.controls;
                    let r = if ctl & d3dbc::token::texld_controls::PROJECT != 0 {
                        let w = self.fun.comp(c, 3);
                        let w = self.fun.splat(w);
                        let pc = self.fun.div(c, w);
                        self.sample(stage, pc, Level::Auto)
                    } else if ctl & d3dbc::token::texld_controls::BIAS != 0 {
                        let w = self.fun.comp(c, 3);
                        self.sample(stage, c, Level::Bias(w))
                    } else {
                        self.sample(stage, c, Level::Auto)
                    };
                    self.sampler_swizzle(r, &x.srcs[1])
                };
                self.write(x, r)?;
            }
            TexLdl => {
                let c = s(self, 0)?;
                let w = self.fun.comp(c, 3);
                let r = self.sample(x.srcs[1].reg.num, c, Level::Exact(w));
                let r = self.sampler_swizzle(r, &x.srcs[1]);
                self.write(x, r)?;
            }
            TexLdd => {
                let c = s(self, 0)?;
                let (gx, gy) = (s(self, 2)?, s(self, 3)?);
                let r = if self.ps {
                    self.sample(x.srcs[1].reg.num, c, Level::Grad(gx, gy))
                } else {
                    self.sample(x.srcs[1].reg.num, c, Level::Auto)
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
                    let sat = self.fun.m1(M::Saturate, t);
                    let one = self.fun.f(1.0);
                    let (a, b, c) = (
                        self.fun.comp(sat, 0),
                        self.fun.comp(sat, 1),
                        self.fun.comp(sat, 2),
                    );
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
                let mut r = self.sample(m, uv, Level::Auto);
                if op == TexBemL {
                    let lum = self.driver(driver::BUMP_LUM + m as u32 % driver::BUMP_STAGES);
                    let (ls, lo) = (self.fun.comp(lum, 0), self.fun.comp(lum, 1));
                    let bz = self.fun.comp(src, 2);
                    let p = self.mulz1(bz, ls);
                    let f = self.fun.add(p, lo);
                    // The luminance factor saturates (Windows' BUMPENVMAPLUMINANCE, DXVK).
                    let (z, o) = (self.fun.f(0.0), self.fun.f(1.0));
                    let f = self.fun.math(M::Clamp, f, Some(z), Some(o));
                    let f = self.fun.splat(f);
                    r = self.mulz(r, f);
                }
                self.write(x, r)?;
            }
            TexReg2Ar | TexReg2Gb | TexReg2Rgb => {
                let src = s(self, 0)?;
                let c = match op {
                    TexReg2Ar => self.fun.swz(src, VectorSize::Quad, [3, 0, 0, 0]),
                    TexReg2Gb => self.fun.swz(src, VectorSize::Quad, [1, 2, 2, 2]),
                    _ => src,
                };
                let r = self.sample(x.dst.reg.num, c, Level::Auto);
                self.write(x, r)?;
            }
            TexM3x2Pad | TexM3x3Pad => {
                let src = s(self, 0)?;
                let tc = self.texcoord(x.dst.reg.num, false);
                let d = self.dotz(tc, src, 3);
                self.pads.push(d);
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
        let zero = self.fun.f(0.0);
        let one = self.fun.f(1.0);
        let pads = std::mem::take(&mut self.pads);
        let p = |i: usize, l: &mut Self| pads.get(i).copied().unwrap_or_else(|| l.fun.f(0.0));
        match op {
            TexM3x2Tex => {
                let u = p(0, self);
                let c = self.vec4([u, d, zero, zero]);
                let r = self.sample(m, c, Level::Auto);
                self.write(x, r)?;
            }
            TexM3x2Depth => {
                let z = p(0, self);
                self.depth_write(z, d);
            }
            TexM3x3Tex => {
                let (u, v) = (p(0, self), p(1, self));
                let c = self.vec4([u, v, d, zero]);
                let r = self.sample(m, c, Level::Auto);
                self.write(x, r)?;
            }
            TexM3x3 => {
                let (u, v) = (p(0, self), p(1, self));
                let r = self.vec4([u, v, d, one]);
                self.write(x, r)?;
            }
            TexM3x3Spec | TexM3x3VSpec => {
                let (u, v) = (p(0, self), p(1, self));
                let n = self.vec4([u, v, d, zero]);
                let e = if op == TexM3x3Spec {
                    s(self, 1)?
                } else {
                    let a = self.texcoord(m.wrapping_sub(2), false);
                    let b = self.texcoord(m.wrapping_sub(1), false);
                    let (aw, bw, cw) = (
                        self.fun.comp(a, 3),
                        self.fun.comp(b, 3),
                        self.fun.comp(tc, 3),
                    );
                    self.vec4([aw, bw, cw, zero])
                };
                // R = 2·N·(N·E)/(N·N) − E; where N·N = 0 (a zero normal, or
                // one whose square underflows) the 2·N·… term is 0 by the 0·x
                // rule and R = −E, as the executor computes it.
                let ne = self.dotz(n, e, 3);
                let nn = self.dotz(n, n, 3);
                let two = self.fun.f(2.0);
                let q = self.fun.div(ne, nn);
                let q = self.fun.mul(two, q);
                let q = self.fun.splat(q);
                let rn = self.mulz(n, q);
                let r = self.fun.sub(rn, e);
                let flat = self.fun.bin(B::Equal, nn, zero);
                let ne_ = self.fun.e(Expression::Unary {
                    op: UnaryOperator::Negate,
                    expr: e,
                });
                let r = self.fun.select(flat, ne_, r);
                let r = self.sample(m, r, Level::Auto);
                self.write(x, r)?;
            }
            TexDp3 => {
                let r = self.fun.splat(d);
                self.write(x, r)?;
            }
            _ => {
                let c = self.vec4([d, zero, zero, zero]);
                let r = self.sample(m, c, Level::Auto);
                self.write(x, r)?;
            }
        }
        Ok(())
    }

    pub(super) fn sampler_swizzle(&mut self, r: H, s: &SrcParam) -> H {
        if self.v.is_sm3() && s.swizzle != d3dbc::ir::SWIZZLE_IDENTITY {
            let p = [
                s.swizzle & 3,
                (s.swizzle >> 2) & 3,
                (s.swizzle >> 4) & 3,
                (s.swizzle >> 6) & 3,
            ];
            self.fun.swz(r, VectorSize::Quad, p)
        } else {
            r
        }
    }

    /// `base.xy + M·d.xy` with stage `stage`'s bump matrix (texbem, bem).
    pub(super) fn bump(&mut self, stage: u16, base: H, d: H) -> H {
        let mat = self.driver(driver::BUMP_MAT + stage as u32 % driver::BUMP_STAGES);
        let m = [0, 1, 2, 3].map(|i| self.fun.comp(mat, i));
        let (dr, dg) = (self.fun.comp(d, 0), self.fun.comp(d, 1));
        let (bu, bv) = (self.fun.comp(base, 0), self.fun.comp(base, 1));
        let a = self.mulz1(m[0], dr);
        let b = self.mulz1(m[2], dg);
        let u = self.fun.add(bu, a);
        let u = self.fun.add(u, b);
        let a = self.mulz1(m[1], dr);
        let b = self.mulz1(m[3], dg);
        let v = self.fun.add(bv, a);
        let v = self.fun.add(v, b);
        let (bz, bw) = (self.fun.comp(base, 2), self.fun.comp(base, 3));
        self.vec4([u, v, bz, bw])
    }

    pub(super) fn mova_round(&mut self, v: H) -> H {
        match self.o.semantics.mova_ties {
            MovaTies::ToEven => self.fun.m1(M::Round, v),
            MovaTies::HalfUp => {
                let h = self.fun.splat_f(0.5);
                let a = self.fun.add(v, h);
                self.fun.m1(M::Floor, a)
            }
            MovaTies::AwayFromZero => {
                let a = self.fun.m1(M::Abs, v);
                let h = self.fun.splat_f(0.5);
                let a = self.fun.add(a, h);
                let f = self.fun.m1(M::Floor, a);
                let sg = self.fun.m1(M::Sign, v);
                self.fun.mul(f, sg)
            }
        }
    }
}
