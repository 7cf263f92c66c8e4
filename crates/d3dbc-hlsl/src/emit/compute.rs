//! The arithmetic instructions (shader model 2 and 3 and the ps_1_x ones they share):
//! one expression each, matrix products as `mul` over the constant table's matrices.

use d3dbc::ir::{DstParam, Instruction, SrcParam};
use d3dbc::opcode::Opcode;
use d3dbc::token::{RegisterType, SrcModifier};

use crate::text::{construct, float_type, letters, mask_comps, Expr, Prec};
use crate::Error;

use super::expr::{abs_of, binary, call, comparison, is_const, matrix_shape, select};
use super::{Emitter, Helper};

impl Emitter {
    pub(super) fn compute(&mut self, idx: usize, ins: &Instruction) -> Result<(), Error> {
        let op = ins.opcode;
        let v = self.v;
        let comps = mask_comps(ins.dst.mask);
        let n = comps.len() as u8;
        let s = |e: &mut Self, k: usize| -> Result<Expr, Error> {
            let pos = e.src_positions(ins, k);
            e.src(&ins.srcs[k], &pos, idx)
        };
        let value: Expr = match op {
            // vs_1_x `mov a0.x, …` floors.
            Opcode::Mov if v.is_vertex() && ins.dst.reg.kind == RegisterType::AddrOrTexture => {
                let x = s(self, 0)?;
                Expr::atom(format!("floor({})", x.text), x.width)
            }
            Opcode::Mov => s(self, 0)?,
            Opcode::Mova => {
                let x = s(self, 0)?;
                if v.major < 2 {
                    Expr::atom(format!("floor({})", x.text), n)
                } else {
                    self.helpers.insert(Helper::Mova);
                    match x.width {
                        1 | 4 => Expr::atom(format!("d3d_round({})", x.text), x.width),
                        w => {
                            let pad = vec!["0"; 4 - w as usize].join(", ");
                            let sel = letters(&(0..w).collect::<Vec<_>>());
                            Expr::atom(format!("d3d_round(float4({}, {pad})).{sel}", x.text), w)
                        }
                    }
                }
            }
            Opcode::Add => {
                let (a, b) = (s(self, 0)?, s(self, 1)?);
                // `-a + b` reads better as `b - a` (the same IEEE sum).
                let neg = |e: &Expr| {
                    (e.prec == Prec::Unary)
                        .then(|| e.text.strip_prefix('-'))
                        .flatten()
                        .map(|rest| Expr::new(rest, Prec::Unary, e.width))
                };
                match (neg(&a), neg(&b)) {
                    (Some(rest), None) => binary(b, "-", rest, Prec::Add),
                    (None, Some(rest)) => binary(a, "-", rest, Prec::Add),
                    _ => binary(a, "+", b, Prec::Add),
                }
            }
            Opcode::Sub => binary(s(self, 0)?, "-", s(self, 1)?, Prec::Add),
            Opcode::Mul => binary(s(self, 0)?, "*", s(self, 1)?, Prec::Mul),
            Opcode::Mad => {
                let m = binary(s(self, 0)?, "*", s(self, 1)?, Prec::Mul);
                binary(m, "+", s(self, 2)?, Prec::Add)
            }
            Opcode::Min => call("min", &[s(self, 0)?, s(self, 1)?], n),
            Opcode::Max => call("max", &[s(self, 0)?, s(self, 1)?], n),
            Opcode::Slt | Opcode::Sge => {
                let (a, b) = (s(self, 0)?, s(self, 1)?);
                let o = if op == Opcode::Slt { "<" } else { ">=" };
                Expr::atom(
                    format!(
                        "{}({} {o} {})",
                        float_type(n),
                        a.at(Prec::Add),
                        b.at(Prec::Add)
                    ),
                    n,
                )
            }
            Opcode::Frc => call("frac", &[s(self, 0)?], n),
            Opcode::Abs => call("abs", &[s(self, 0)?], n),
            Opcode::Sgn => call("sign", &[s(self, 0)?], n),
            Opcode::Rcp => {
                let x = s(self, 0)?;
                Expr::new(format!("1 / {}", x.right_of(Prec::Mul)), Prec::Mul, 1)
            }
            Opcode::Rsq => {
                let x = s(self, 0)?;
                Expr::atom(format!("rsqrt({})", abs_of(&ins.srcs[0], x)), 1)
            }
            Opcode::Exp => call("exp2", &[s(self, 0)?], 1),
            Opcode::Log => {
                let x = s(self, 0)?;
                Expr::atom(format!("log2({})", abs_of(&ins.srcs[0], x)), 1)
            }
            Opcode::Pow => {
                let (a, b) = (s(self, 0)?, s(self, 1)?);
                Expr::atom(format!("pow({}, {})", abs_of(&ins.srcs[0], a), b.text), 1)
            }
            Opcode::ExpP => {
                let x = s(self, 0)?;
                if v.major < 2 {
                    let xt = x.text.clone();
                    let full = Expr::atom(
                        format!("float4(exp2(floor({xt})), frac({xt}), exp2({xt}), 1)"),
                        4,
                    );
                    select(full, &comps)
                } else {
                    call("exp2", &[x], 1)
                }
            }
            Opcode::LogP => {
                let x = s(self, 0)?;
                if v.major < 2 {
                    self.helpers.insert(Helper::LogP);
                    select(Expr::atom(format!("d3d_logp({})", x.text), 4), &comps)
                } else {
                    Expr::atom(format!("log2({})", abs_of(&ins.srcs[0], x)), 1)
                }
            }
            Opcode::Dp3 | Opcode::Dp4 => call("dot", &[s(self, 0)?, s(self, 1)?], 1),
            Opcode::Dp2Add => {
                let d = call("dot", &[s(self, 0)?, s(self, 1)?], 1);
                let c = s(self, 2)?;
                // `+ 0` only turns a -0 into +0.
                if c.text == "0" {
                    d
                } else {
                    binary(d, "+", c, Prec::Add)
                }
            }
            Opcode::Lrp => {
                let (a, b, c) = (s(self, 0)?, s(self, 1)?, s(self, 2)?);
                call("lerp", &[c, b, a], n)
            }
            Opcode::Nrm => {
                let full = self.src(&ins.srcs[0], &[0, 1, 2], idx)?;
                if comps == [0, 1, 2] {
                    call("normalize", &[full], 3)
                } else {
                    let part = self.src(&ins.srcs[0], &comps, idx)?;
                    let f = full.text.clone();
                    binary(
                        part,
                        "*",
                        Expr::atom(format!("rsqrt(dot({f}, {f}))"), 1),
                        Prec::Mul,
                    )
                }
            }
            Opcode::Crs => {
                let (a, b) = (s(self, 0)?, s(self, 1)?);
                select(call("cross", &[a, b], 3), &comps)
            }
            Opcode::SinCos => {
                let x = self.src(&ins.srcs[0], &[ins.opcode.scalar_component() as u8], idx)?;
                let xt = x.text.clone();
                let sin = if v.major >= 3 || v.is_software() {
                    self.helpers.insert(Helper::Sin);
                    "d3d_sin"
                } else {
                    "sin"
                };
                let parts: Vec<Expr> = comps
                    .iter()
                    .filter(|&&c| c < 2)
                    .map(|&c| Expr::atom(format!("{}({xt})", if c == 0 { "cos" } else { sin }), 1))
                    .collect();
                let comps2: Vec<u8> = comps.iter().copied().filter(|&c| c < 2).collect();
                if comps2.is_empty() {
                    return Ok(());
                }
                let ins2 = Instruction {
                    dst: DstParam {
                        mask: comps2.iter().fold(0, |m, &c| m | (1 << c)),
                        ..ins.dst
                    },
                    ..*ins
                };
                let val = construct(parts);
                return self.assign(&ins2, val, idx);
            }
            Opcode::M4x4 | Opcode::M4x3 | Opcode::M3x4 | Opcode::M3x3 | Opcode::M3x2
                if self.mul_form(&ins.srcs[1], matrix_shape(op)).is_some() =>
            {
                let (k, n) = matrix_shape(op);
                let m = self.mul_form(&ins.srcs[1], (k, n)).unwrap_or_default();
                let vcomps: Vec<u8> = (0..k).collect();
                let vec = self.src(&ins.srcs[0], &vcomps, idx)?;
                let full = Expr::atom(m.replace("{v}", &vec.text), n);
                let sel: Vec<u8> = comps.iter().copied().filter(|&c| c < n).collect();
                if sel.len() as u8 == n {
                    full
                } else {
                    select(full, &sel)
                }
            }
            Opcode::M4x4 | Opcode::M4x3 | Opcode::M3x4 | Opcode::M3x3 | Opcode::M3x2 => {
                let shape = op.matrix().unwrap_or(d3dbc::opcode::MatrixShape {
                    rows: 4,
                    columns: 4,
                });
                let vcomps: Vec<u8> = (0..shape.columns).collect();
                let vec = self.src(&ins.srcs[0], &vcomps, idx)?;
                let mut rows = Vec::new();
                for &c in &comps {
                    if c >= shape.rows {
                        continue;
                    }
                    let mut m = ins.srcs[1];
                    m.reg.num += c as u16;
                    let row = self.src(&m, &vcomps, idx)?;
                    rows.push(call("dot", &[vec.clone(), row], 1));
                }
                construct(rows)
            }
            Opcode::Cmp => {
                let (a, b, c) = (s(self, 0)?, s(self, 1)?, s(self, 2)?);
                Expr::new(
                    format!(
                        "{} >= 0 ? {} : {}",
                        a.at(Prec::Add),
                        b.at(Prec::Compare),
                        c.at(Prec::Select)
                    ),
                    Prec::Select,
                    n,
                )
            }
            Opcode::Cnd => {
                let a = if v.minor < 4 {
                    self.src(&ins.srcs[0], &[3], idx)?
                } else {
                    s(self, 0)?
                };
                let (b, c) = (s(self, 1)?, s(self, 2)?);
                Expr::new(
                    format!(
                        "{} > 0.5 ? {} : {}",
                        a.at(Prec::Add),
                        b.at(Prec::Compare),
                        c.at(Prec::Select)
                    ),
                    Prec::Select,
                    n,
                )
            }
            Opcode::Dst => {
                let a = self.src(&ins.srcs[0], &[0, 1, 2, 3], idx)?;
                let b = self.src(&ins.srcs[1], &[0, 1, 2, 3], idx)?;
                let (at, bt) = (a.at(Prec::Atom), b.at(Prec::Atom));
                let full = Expr::atom(format!("float4(1, {at}.y * {bt}.y, {at}.z, {bt}.w)"), 4);
                select(full, &comps)
            }
            Opcode::Lit => {
                self.helpers.insert(Helper::Lit);
                let a = self.src(&ins.srcs[0], &[0, 1, 2, 3], idx)?;
                select(Expr::atom(format!("d3d_lit({})", a.text), 4), &comps)
            }
            Opcode::SetP => {
                let (a, b) = (s(self, 0)?, s(self, 1)?);
                let o = comparison(ins.comparison());
                Expr::new(
                    format!("{} {o} {}", a.at(Prec::Add), b.at(Prec::Add)),
                    Prec::Compare,
                    n,
                )
            }
            Opcode::Dsx => call("ddx", &[s(self, 0)?], n),
            Opcode::Dsy => call("ddy", &[s(self, 0)?], n),
            Opcode::Tex | Opcode::TexLdl | Opcode::TexLdd if v.major >= 2 => {
                self.sample(ins, idx)?
            }
            _ => {
                if self.ps1 {
                    return self.ps1_op(idx, ins);
                }
                return Err(self.unsupported(idx, &format!("`{}`", op.mnemonic(v))));
            }
        };
        self.assign(ins, value, idx)
    }

    /// `mul({v}, M)` or `mul(M, {v})` when the registers from `m` on are exactly a
    /// matrix of the constant table that a product with a `k`-vector giving `n`
    /// components reads (`{v}` stands for the vector).
    fn mul_form(&self, m: &SrcParam, (k, n): (u8, u8)) -> Option<String> {
        if m.rel.is_some()
            || m.modifier != SrcModifier::None
            || m.swizzle != d3dbc::ir::SWIZZLE_IDENTITY
            || !is_const(m)
        {
            return None;
        }
        let base = d3dbc::regs::float_constant_index(m.reg.kind, m.reg.num) as u16;
        let mx = self.u.matrix(base, n as u16)?;
        // A product with fewer components than the matrix has reads its upper-left
        // part: a cast takes it.
        if mx.row_major && mx.rows == n && k <= mx.cols {
            let m = if k == mx.cols {
                mx.expr.clone()
            } else {
                format!("(float{n}x{k}){}", mx.expr)
            };
            Some(format!("mul({m}, {{v}})"))
        } else if !mx.row_major && mx.cols == n && k <= mx.rows {
            let m = if k == mx.rows {
                mx.expr.clone()
            } else {
                format!("(float{k}x{n}){}", mx.expr)
            };
            Some(format!("mul({{v}}, {m})"))
        } else {
            None
        }
    }

    /// `dp4`/`dp3` rows writing `dst.x`, `dst.y`, … from one vector and the registers
    /// of one matrix, starting at instruction `idx`: how many fold into one `mul`, and
    /// its form.
    pub(super) fn dot_rows(&self, idx: usize) -> Option<(usize, String)> {
        let first = *self.a.instructions.get(idx)?;
        let k = match first.opcode {
            Opcode::Dp4 => 4u8,
            Opcode::Dp3 => 3,
            _ => return None,
        };
        let v = first.srcs[0];
        let d = first.dst;
        if d.rel.is_some() || d.reg == v.reg || first.predicate.is_some() || d.mask != 1 {
            return None;
        }
        let mut n = 0usize;
        while n < 4 {
            let Some(ins) = self.a.instructions.get(idx + n) else {
                break;
            };
            let mut m = first.srcs[1];
            m.reg.num = m.reg.num.wrapping_add(n as u16);
            let same = ins.opcode == first.opcode
                && ins.srcs[0] == v
                && ins.srcs[1] == m
                && ins.predicate.is_none()
                && ins.dst.reg == d.reg
                && ins.dst.rel.is_none()
                && ins.dst.mask == 1 << n
                && ins.dst.modifiers == d.modifiers
                && ins.dst.shift == d.shift;
            if !same {
                break;
            }
            n += 1;
        }
        // The longest run that is exactly a matrix.
        (2..=n)
            .rev()
            .find_map(|c| self.mul_form(&first.srcs[1], (k, c as u8)).map(|f| (c, f)))
    }
}
