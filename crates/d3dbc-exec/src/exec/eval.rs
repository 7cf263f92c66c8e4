//! The instructions [`super::alu`] leaves out, lane by lane: [`eval`] dispatches on
//! [`Opcode::role`] first, then runs the rarer and multi-output arithmetic and fused
//! `mad` here and the texture instructions in [`super::tex`].

// Lane and component loops index several structure-of-arrays values at once.
#![allow(clippy::needless_range_loop)]

use d3dbc::opcode::{Opcode, Role};
use d3dbc::Semantics;

use super::lanes::{Env, Lanes};
use super::program::{Dst, File, Inst, Program, Src};
use super::run::cmp;
use super::tex::{self, ddx, ddy};
use super::{ExecError, Mask, LANES, Q};

#[inline]
pub(super) fn dot(sem: &Semantics, a: &Q, b: &Q, n: usize, l: usize) -> f32 {
    let mut s = sem.mul(a[0][l], b[0][l]);
    for c in 1..n {
        s += sem.mul(a[c][l], b[c][l]);
    }
    s
}

pub(super) fn splat(f: impl Fn(usize) -> f32) -> Q {
    let mut q = [[0.0; LANES]; 4];
    for l in 0..LANES {
        let v = f(l);
        for c in q.iter_mut() {
            c[l] = v;
        }
    }
    q
}

pub(super) fn per(f: impl Fn(usize, usize) -> f32) -> Q {
    let mut q = [[0.0; LANES]; 4];
    for (c, qc) in q.iter_mut().enumerate() {
        for (l, x) in qc.iter_mut().enumerate() {
            *x = f(c, l);
        }
    }
    q
}

pub(super) fn next_reg(s: &Src, k: u16) -> Src {
    let mut s = *s;
    s.file = match s.file {
        File::Reg(r) => File::Reg(r + k),
        File::Const(r) => File::Const(r + k),
        f => f,
    };
    s
}

/// The instructions [`super::alu`] leaves out. Only [`Role::Compute`] instructions
/// run here (flow control runs in the dispatch loop; declarations and markers never
/// reach a program): first the arithmetic ones, then the texture ones. `None` when the
/// instruction writes no register. Kept out of line so the interpreter loop stays
/// small.
#[inline(never)]
pub(super) fn eval(
    p: &Program,
    inst: &Inst,
    st: &mut Lanes,
    env: &Env,
    ps1: bool,
    cur: Mask,
) -> Result<Option<Q>, ExecError> {
    if inst.op.role() != Role::Compute {
        return Err(ExecError::Unsupported(format!("opcode {:?}", inst.op)));
    }
    if let Some(q) = arithmetic(p, inst, st, env, ps1) {
        return Ok(Some(q));
    }
    tex::texture(p, inst, st, env, ps1, cur)
}

/// The arithmetic [`super::alu`] does not compute: fused `mad`, `expp`/`logp`, `sgn`,
/// `pow`, `lit`, `dst`, `crs`, `sincos`, `setp`, `dsx`/`dsy`; `None` for any other
/// instruction.
fn arithmetic(p: &Program, inst: &Inst, st: &Lanes, env: &Env, ps1: bool) -> Option<Q> {
    let sem = env.sem;
    let v = p.version;
    // The subnormal rule: every instruction here is arithmetic, so its sources and its
    // result are flushed under `Denormals::FlushToZero`.
    let rd = |k: usize, st: &Lanes| flush_q(sem, st.read(&inst.src[k], env, ps1));
    let q = match inst.op {
        // The fused form only: `alu` computes the unfused one.
        Opcode::Mad => {
            let (a, b, d) = (rd(0, st), rd(1, st), rd(2, st));
            per(|c, l| {
                let (x, y) = (a[c][l], b[c][l]);
                if x == 0.0 || y == 0.0 {
                    sem.mul(x, y) + d[c][l]
                } else {
                    x.mul_add(y, d[c][l])
                }
            })
        }
        Opcode::ExpP => {
            let a = rd(0, st);
            let w = inst.op.scalar_component();
            if v.is_sm1() {
                let mut q = [[0.0; LANES]; 4];
                for l in 0..LANES {
                    let x = a[w][l];
                    let f = x.floor();
                    q[0][l] = f.exp2();
                    q[1][l] = x - f;
                    q[2][l] = x.exp2();
                    q[3][l] = 1.0;
                }
                q
            } else {
                splat(|l| a[w][l].exp2())
            }
        }
        Opcode::LogP => {
            let a = rd(0, st);
            let w = inst.op.scalar_component();
            if v.is_sm1() {
                let mut q = [[0.0; LANES]; 4];
                for l in 0..LANES {
                    let x = a[w][l].abs();
                    if x == 0.0 {
                        let m = sem.log2(0.0);
                        q[0][l] = m;
                        q[1][l] = 1.0;
                        q[2][l] = m;
                    } else {
                        let e = x.log2().floor();
                        q[0][l] = e;
                        q[1][l] = x / e.exp2();
                        q[2][l] = x.log2();
                    }
                    q[3][l] = 1.0;
                }
                q
            } else {
                splat(|l| sem.log2(a[w][l]))
            }
        }
        Opcode::Sgn => {
            let a = rd(0, st);
            per(|c, l| {
                let x = a[c][l];
                if x > 0.0 {
                    1.0
                } else if x < 0.0 {
                    -1.0
                } else {
                    0.0
                }
            })
        }
        Opcode::Pow => {
            let (a, b) = (rd(0, st), rd(1, st));
            let w = inst.op.scalar_component();
            splat(|l| {
                let base = a[w][l].abs();
                let e = b[w][l];
                sem.mul(e, sem.log2(base)).exp2()
            })
        }
        Opcode::Lit => {
            let a = rd(0, st);
            let mut q = [[0.0; LANES]; 4];
            for l in 0..LANES {
                let (x, y, w) = (a[0][l], a[1][l], a[3][l]);
                let pw = w.clamp(-127.9961, 127.9961);
                q[0][l] = 1.0;
                q[1][l] = if x > 0.0 { x } else { 0.0 };
                q[2][l] = if x > 0.0 && y > 0.0 {
                    sem.mul(pw, sem.log2(y)).exp2()
                } else {
                    0.0
                };
                q[3][l] = 1.0;
            }
            q
        }
        Opcode::Dst => {
            let (a, b) = (rd(0, st), rd(1, st));
            let mut q = [[0.0; LANES]; 4];
            for l in 0..LANES {
                q[0][l] = 1.0;
                q[1][l] = sem.mul(a[1][l], b[1][l]);
                q[2][l] = a[2][l];
                q[3][l] = b[3][l];
            }
            q
        }
        Opcode::Crs => {
            let (a, b) = (rd(0, st), rd(1, st));
            let mut q = [[0.0; LANES]; 4];
            for l in 0..LANES {
                q[0][l] = sem.mul(a[1][l], b[2][l]) - sem.mul(a[2][l], b[1][l]);
                q[1][l] = sem.mul(a[2][l], b[0][l]) - sem.mul(a[0][l], b[2][l]);
                q[2][l] = sem.mul(a[0][l], b[1][l]) - sem.mul(a[1][l], b[0][l]);
            }
            q
        }
        Opcode::SinCos => {
            let a = rd(0, st);
            let comp = inst.op.scalar_component();
            let mut q = st_reg_value(st, &inst.dst);
            for l in 0..LANES {
                let x = a[comp][l];
                q[0][l] = x.cos();
                q[1][l] = x.sin();
            }
            q
        }
        Opcode::SetP => {
            let (a, b) = (rd(0, st), rd(1, st));
            per(|c, l| cmp(inst.ctrl, a[c][l], b[c][l]) as u8 as f32)
        }
        Opcode::Dsx => {
            let a = rd(0, st);
            per(|c, l| ddx(&a[c])[l])
        }
        Opcode::Dsy => {
            let a = rd(0, st);
            per(|c, l| ddy(&a[c])[l])
        }
        _ => return None,
    };
    if env.perturb != 0.0 {
        return Some(flush_q(sem, perturbed(inst, st, env, ps1, q)));
    }
    Some(flush_q(sem, q))
}

/// `q` with an approximated instruction's results moved by its documented error
/// ([`Env::perturb`]): `lit` in `z` only, `sincos` by its argument's ulps too.
#[cold]
fn perturbed(inst: &Inst, st: &Lanes, env: &Env, ps1: bool, mut q: Q) -> Q {
    let Some(pr) = d3dbc::Precision::of(inst.op) else {
        return q;
    };
    let arg = if inst.op == Opcode::SinCos {
        flush_q(env.sem, st.read(&inst.src[0], env, ps1))[inst.op.scalar_component()]
    } else {
        [0.0; LANES]
    };
    let comps = if inst.op == Opcode::Lit { 2..3 } else { 0..4 };
    for c in comps {
        for l in 0..LANES {
            q[c][l] = pr.nudge(q[c][l], arg[l], env.perturb);
        }
    }
    q
}

/// `q` under [`Semantics::denormals`] (a no-op when subnormals are preserved).
#[inline]
pub(super) fn flush_q(sem: &Semantics, mut q: Q) -> Q {
    if sem.denormals == d3dbc::Denormals::FlushToZero {
        for c in q.iter_mut() {
            for x in c.iter_mut() {
                *x = d3dbc::flush_subnormal(*x);
            }
        }
    }
    q
}

fn st_reg_value(st: &Lanes, d: &Dst) -> Q {
    match d.file {
        File::Reg(r) => st.regs[r as usize],
        _ => [[0.0; LANES]; 4],
    }
}

/// Which pad row a `texm3x3pad` fills: the first when the next instruction is also a pad.
pub(super) fn st_m3_row(p: &Program, inst: &Inst) -> usize {
    let i = p
        .insts
        .iter()
        .position(|x| std::ptr::eq(x, inst))
        .unwrap_or(0);
    match p.insts.get(i + 1).map(|x| x.op) {
        Some(Opcode::TexM3x3Pad) => 0,
        _ => 1,
    }
}
