//! Arithmetic computed one component row of all lanes at a time, straight from the
//! register file (the hot path: the lane loops vectorise).

// Lane and component loops index several structure-of-arrays values at once.
#![allow(clippy::needless_range_loop)]

use d3dbc::opcode::Opcode;
use d3dbc::token::SrcModifier;
use d3dbc::Semantics;
use d3dbc::{Denormals, Precision};

use super::eval::next_reg;
use super::lanes::{Env, Lanes};
use super::program::{File, Inst, Program, Src};
use super::{LANES, Q};

/// One rounding of an exactly computed operation, as a [`Precision`].
const ROUNDING: Precision = Precision {
    result_ulps: 1,
    argument_ulps: 0,
};

/// One lane row (one component of every lane).
type Row = [f32; LANES];

/// `sem.mul` over a row, written without branches so it vectorises: the same results
/// bit for bit (checked against [`Semantics::mul`] by a test).
#[inline(always)]
fn mul_row(sem: &Semantics, x: &Row, y: &Row) -> Row {
    let mut o = [0.0; LANES];
    match sem.mul_zero {
        d3dbc::MulZero::Ieee => {
            for l in 0..LANES {
                o[l] = x[l] * y[l];
            }
        }
        _ => {
            for l in 0..LANES {
                let (a, b) = (x[l], y[l]);
                let a = if b == 0.0 && !a.is_finite() { 0.0 } else { a };
                let b = if a == 0.0 && !b.is_finite() { 0.0 } else { b };
                o[l] = a * b;
            }
        }
    }
    o
}

/// A row under the subnormal rule: subnormals become zeros of their sign.
#[inline(always)]
fn flush_row(x: Row) -> Row {
    map_row(&x, d3dbc::flush_subnormal)
}

#[inline(always)]
fn map_row(x: &Row, f: impl Fn(f32) -> f32) -> Row {
    let mut o = [0.0; LANES];
    for l in 0..LANES {
        o[l] = f(x[l]);
    }
    o
}

#[inline(always)]
fn zip_row(x: &Row, y: &Row, f: impl Fn(f32, f32) -> f32) -> Row {
    let mut o = [0.0; LANES];
    for l in 0..LANES {
        o[l] = f(x[l], y[l]);
    }
    o
}

#[inline(always)]
fn zip3_row(x: &Row, y: &Row, z: &Row, f: impl Fn(f32, f32, f32) -> f32) -> Row {
    let mut o = [0.0; LANES];
    for l in 0..LANES {
        o[l] = f(x[l], y[l], z[l]);
    }
    o
}

/// A source modifier applied to one row (the same arithmetic as [`apply_mod`]).
#[inline(always)]
fn mod_row(r: Row, m: SrcModifier) -> Row {
    use SrcModifier::*;
    match m {
        None | Not | Dz | Dw => r,
        Neg => map_row(&r, |x| Neg.apply(x)),
        Bias => map_row(&r, |x| Bias.apply(x)),
        BiasNeg => map_row(&r, |x| BiasNeg.apply(x)),
        Sign => map_row(&r, |x| Sign.apply(x)),
        SignNeg => map_row(&r, |x| SignNeg.apply(x)),
        Comp => map_row(&r, |x| Comp.apply(x)),
        X2 => map_row(&r, |x| X2.apply(x)),
        X2Neg => map_row(&r, |x| X2Neg.apply(x)),
        Abs => map_row(&r, |x| Abs.apply(x)),
        AbsNeg => map_row(&r, |x| AbsNeg.apply(x)),
    }
}

impl Lanes {
    /// Component `c` of a source operand after swizzle and modifier, for every lane:
    /// the same values as `read(s)[c]`, without building the other components.
    #[inline(always)]
    pub(super) fn row(&self, s: &Src, c: usize, env: &Env) -> Row {
        let k = s.swz[c] as usize;
        let r = match (s.file, s.rel) {
            (File::Reg(r), None) => self.regs[r as usize][k],
            (File::Const(n), None) => [env.consts.f.get(n as usize).map_or(0.0, |v| v[k]); LANES],
            _ => return self.read(s, env, false)[c],
        };
        mod_row(r, s.m)
    }
}

/// Arithmetic instructions computed component by component over all lanes, straight
/// from the register file into `out` (only the components the write mask keeps).
/// Returns false for an instruction this path does not handle (`eval` then runs it).
/// Same operations in the same order as `eval`.
#[inline(always)]
pub(super) fn alu(p: &Program, inst: &Inst, st: &Lanes, env: &Env, out: &mut Q) -> bool {
    let sem = env.sem;
    let mask = inst.dst.mask;
    let s = &inst.src;
    // The subnormal rule (`Semantics::denormals`): arithmetic flushes its sources and
    // results; `mov`/`mova` move, and `cmp`/`cnd` flush only their condition.
    let flush =
        sem.denormals == Denormals::FlushToZero && !matches!(inst.op, Opcode::Mov | Opcode::Mova);
    let select = matches!(inst.op, Opcode::Cmp | Opcode::Cnd);
    let row = |k: usize, c: usize| {
        let r = st.row(&s[k], c, env);
        if flush && (k == 0 || !select) {
            flush_row(r)
        } else {
            r
        }
    };
    // Per written component: out[c] = f(c).
    macro_rules! each {
        (|$c:ident| $e:expr) => {{
            for $c in 0..4 {
                if mask & (1 << $c) != 0 {
                    out[$c] = $e;
                }
            }
        }};
    }
    // One value for every written component.
    macro_rules! splat {
        ($e:expr) => {{
            let v: Row = $e;
            each!(|c| v)
        }};
    }
    let dot = |n: usize, a: &dyn Fn(usize) -> Row, b: &dyn Fn(usize) -> Row| -> Row {
        let mut acc = mul_row(sem, &a(0), &b(0));
        for c in 1..n {
            let m = mul_row(sem, &a(c), &b(c));
            for l in 0..LANES {
                acc[l] += m[l];
            }
        }
        acc
    };
    match inst.op {
        Opcode::Mov | Opcode::Mova => each!(|c| row(0, c)),
        Opcode::Add => each!(|c| zip_row(&row(0, c), &row(1, c), |a, b| a + b)),
        Opcode::Sub => each!(|c| zip_row(&row(0, c), &row(1, c), |a, b| a - b)),
        Opcode::Mul => each!(|c| mul_row(sem, &row(0, c), &row(1, c))),
        Opcode::Mad if !sem.fused_mad => each!(|c| {
            let m = mul_row(sem, &row(0, c), &row(1, c));
            zip_row(&m, &row(2, c), |x, y| x + y)
        }),
        Opcode::Dp3 => splat!(dot(3, &|c| row(0, c), &|c| row(1, c))),
        Opcode::Dp4 => splat!(dot(4, &|c| row(0, c), &|c| row(1, c))),
        Opcode::Dp2Add => splat!({
            let d = dot(2, &|c| row(0, c), &|c| row(1, c));
            zip_row(&d, &row(2, 0), |x, y| x + y)
        }),
        Opcode::Min => each!(|c| zip_row(&row(0, c), &row(1, c), |a, b| if a < b { a } else { b })),
        Opcode::Max => {
            each!(|c| zip_row(&row(0, c), &row(1, c), |a, b| if a >= b { a } else { b }))
        }
        Opcode::Slt => each!(|c| zip_row(&row(0, c), &row(1, c), |a, b| (a < b) as u8 as f32)),
        Opcode::Sge => each!(|c| zip_row(&row(0, c), &row(1, c), |a, b| (a >= b) as u8 as f32)),
        Opcode::Cmp => each!(|c| zip3_row(&row(0, c), &row(1, c), &row(2, c), |a, b, d| {
            if a >= 0.0 {
                b
            } else {
                d
            }
        })),
        Opcode::Cnd => {
            let v = p.version;
            let ps11 = v.is_sm1() && !v.is_ps_1_4();
            each!(|c| {
                let a = row(0, if ps11 { 3 } else { c });
                zip3_row(
                    &a,
                    &row(1, c),
                    &row(2, c),
                    |a, b, d| if a > 0.5 { b } else { d },
                )
            })
        }
        Opcode::Lrp => each!(|c| {
            let (a, b, d) = (row(0, c), row(1, c), row(2, c));
            let m = mul_row(sem, &a, &zip_row(&b, &d, |x, y| x - y));
            zip_row(&m, &d, |x, y| x + y)
        }),
        Opcode::Frc => each!(|c| map_row(&row(0, c), |x| x - x.floor())),
        Opcode::Abs => each!(|c| map_row(&row(0, c), |x| x.abs())),
        Opcode::Rcp => splat!(map_row(&row(0, inst.op.scalar_component()), |x| sem.rcp(x))),
        Opcode::Rsq => splat!(map_row(&row(0, inst.op.scalar_component()), |x| sem.rsq(x))),
        Opcode::Exp => splat!(map_row(&row(0, inst.op.scalar_component()), |x| x.exp2())),
        Opcode::Log => splat!(map_row(&row(0, inst.op.scalar_component()), |x| sem.log2(x))),
        Opcode::Nrm => {
            let a = [row(0, 0), row(0, 1), row(0, 2), row(0, 3)];
            let f = dot(3, &|c| a[c], &|c| a[c]);
            let r = map_row(&f, |f| if f != 0.0 { sem.rsq(f) } else { f32::MAX });
            each!(|c| mul_row(sem, &a[c], &r))
        }
        Opcode::M4x4 | Opcode::M4x3 | Opcode::M3x4 | Opcode::M3x3 | Opcode::M3x2 => {
            let Some(shape) = inst.op.matrix() else {
                return false;
            };
            let (k, rows) = (shape.columns as usize, shape.rows as usize);
            for r in 0..rows {
                if mask & (1 << r) != 0 {
                    let m = next_reg(&s[1], r as u16);
                    let mrow = |c: usize| {
                        let v = st.row(&m, c, env);
                        if flush {
                            flush_row(v)
                        } else {
                            v
                        }
                    };
                    out[r] = dot(k, &|c| row(0, c), &mrow);
                }
            }
        }
        _ => return false,
    }
    if env.perturb != 0.0 {
        if let Some(pr) = Precision::of(inst.op) {
            each!(|c| map_row(&out[c], |x| pr.nudge(x, 0.0, env.perturb)));
        } else if !select && inst.op != Opcode::Mov && inst.op != Opcode::Mova {
            // The other arithmetic by one rounding (a GPU may round differently: fused
            // or reassociated operations).
            each!(|c| map_row(&out[c], |x| ROUNDING.nudge(x, 0.0, env.perturb)));
        }
    }
    if flush && !select {
        each!(|c| flush_row(out[c]));
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use d3dbc::MulZero;

    #[test]
    fn mul_row_is_semantics_mul() {
        let vals = [
            0.0f32,
            -0.0,
            1.0,
            -2.5,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
            -f32::NAN,
            f32::MAX,
            f32::MIN_POSITIVE,
            1e-45,
        ];
        for mz in [MulZero::Strict, MulZero::Fast, MulZero::Ieee] {
            let sem = Semantics {
                mul_zero: mz,
                ..Semantics::default()
            };
            for a in vals {
                for b in vals {
                    let r = mul_row(&sem, &[a; LANES], &[b; LANES]);
                    let want = sem.mul(a, b);
                    // A NaN result's sign and payload are not specified (IEEE 754: the
                    // optimiser's vector and scalar code may differ); any NaN matches.
                    assert!(
                        r.iter().all(|x| x.to_bits() == want.to_bits()
                            || (x.is_nan() && want.is_nan())),
                        "{mz:?}: {a} * {b}: {} != {want}",
                        r[0]
                    );
                }
            }
        }
    }
}
