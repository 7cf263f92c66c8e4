//! The instructions [`super::alu`] leaves out: the rarer and multi-output arithmetic,
//! fused `mad`, `texkill` and texture sampling and addressing, lane by lane.

// Lane and component loops index several structure-of-arrays values at once.
#![allow(clippy::needless_range_loop)]

use d3dbc::opcode::Opcode;
use d3dbc::token::SrcModifier;
use d3dbc::Semantics;

use super::lanes::{sat, Env, Lanes};
use super::layout::{tc_reg, temp_reg, DEPTH};
use super::program::{Dst, File, Inst, Program, Src};
use super::run::cmp;
use super::tex::{ddx, ddy, dz_dw, project_1x, tex_lookup, LodMode};
use super::{ExecError, Mask, LANES, Q};

#[inline]
fn dot(sem: &Semantics, a: &Q, b: &Q, n: usize, l: usize) -> f32 {
    let mut s = sem.mul(a[0][l], b[0][l]);
    for c in 1..n {
        s += sem.mul(a[c][l], b[c][l]);
    }
    s
}

fn splat(f: impl Fn(usize) -> f32) -> Q {
    let mut q = [[0.0; LANES]; 4];
    for l in 0..LANES {
        let v = f(l);
        for c in q.iter_mut() {
            c[l] = v;
        }
    }
    q
}

fn per(f: impl Fn(usize, usize) -> f32) -> Q {
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

/// The instructions [`alu`] leaves out: texture sampling and addressing, the
/// multi-output and rarer arithmetic, fused `mad`. Kept out of line so the interpreter
/// loop stays small. Long by design: one arm per opcode over operand closures shared
/// by every arm (the executor's instruction table).
#[inline(never)]
pub(super) fn eval(
    p: &Program,
    inst: &Inst,
    st: &mut Lanes,
    env: &Env,
    ps1: bool,
    cur: Mask,
) -> Result<Option<Q>, ExecError> {
    let sem = env.sem;
    let v = p.version;
    let rd = |k: usize, st: &Lanes| st.read(&inst.src[k], env, ps1);
    let stage = |n: u16| env.stages.get(n as usize);
    Ok(Some(match inst.op {
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
            if v.major < 2 {
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
            if v.major < 2 {
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
        Opcode::TexKill => {
            let r = st.read(
                &Src {
                    file: inst.dst.file,
                    rel: None,
                    swz: [0, 1, 2, 3],
                    m: SrcModifier::None,
                },
                env,
                ps1,
            );
            let mask = if v.major < 2 { 0x7 } else { inst.dst.mask };
            for l in 0..LANES {
                if cur & (1 << l) == 0 {
                    continue;
                }
                for c in 0..4 {
                    if mask & (1 << c) != 0 && r[c][l] < 0.0 {
                        st.killed |= 1 << l;
                    }
                }
            }
            return Ok(None);
        }
        Opcode::Tex if v.major >= 2 => {
            let mut c = rd(0, st);
            let s = match inst.src[1].file {
                File::Sampler(n) => n,
                _ => 0,
            };
            let stg = stage(s);
            let proj = inst.ctrl & 1 != 0;
            let bias = inst.ctrl & 2 != 0;
            let q = if v.is_vertex() {
                tex_lookup(
                    stg,
                    &c,
                    LodMode::Level([0.0; LANES]),
                    (cur, &mut st.nonfinite_lookups),
                )
            } else {
                if proj {
                    for l in 0..LANES {
                        let w = c[3][l];
                        for k in 0..3 {
                            c[k][l] /= w;
                        }
                    }
                }
                let b = if bias { c[3] } else { [0.0; LANES] };
                tex_lookup(
                    stg,
                    &c,
                    LodMode::Implicit(b),
                    (cur, &mut st.nonfinite_lookups),
                )
            };
            let sw = inst.src[1].swz;
            per(|ch, l| q[sw[ch] as usize][l])
        }
        Opcode::TexLdl => {
            let c = rd(0, st);
            let s = match inst.src[1].file {
                File::Sampler(n) => n,
                _ => 0,
            };
            let q = tex_lookup(
                stage(s),
                &c,
                LodMode::Level(c[3]),
                (cur, &mut st.nonfinite_lookups),
            );
            let sw = inst.src[1].swz;
            per(|ch, l| q[sw[ch] as usize][l])
        }
        Opcode::TexLdd => {
            let c = rd(0, st);
            let s = match inst.src[1].file {
                File::Sampler(n) => n,
                _ => 0,
            };
            let (gx, gy) = (rd(2, st), rd(3, st));
            let q = tex_lookup(
                stage(s),
                &c,
                LodMode::Grad(&gx, &gy),
                (cur, &mut st.nonfinite_lookups),
            );
            let sw = inst.src[1].swz;
            per(|ch, l| q[sw[ch] as usize][l])
        }
        // ps_1_4 texld r#, t#/r# ; ps_1_1-1_3 tex t#.
        Opcode::Tex => {
            let n = inst.dst.num;
            let stg = stage(n);
            let mut c = if v.minor >= 4 {
                let mut c = rd(0, st);
                dz_dw(&mut c, inst.src[0].m);
                c
            } else {
                let mut c = st.regs[tc_reg(n)];
                project_1x(&mut c, stg);
                c
            };
            if v.minor >= 4 {
                project_1x(&mut c, None);
            }
            tex_lookup(
                stg,
                &c,
                LodMode::Implicit([0.0; LANES]),
                (cur, &mut st.nonfinite_lookups),
            )
        }
        Opcode::TexCoord => {
            if v.minor >= 4 {
                let mut c = rd(0, st);
                dz_dw(&mut c, inst.src[0].m);
                c
            } else {
                let c = st.regs[tc_reg(inst.dst.num)];
                let mut q = per(|ch, l| sat(c[ch][l]));
                q[3] = [1.0; LANES];
                q
            }
        }
        Opcode::TexBem | Opcode::TexBemL => {
            let n = inst.dst.num;
            let stg = stage(n);
            let src = rd(0, st);
            let mut c = st.regs[tc_reg(n)];
            project_1x(&mut c, stg);
            let m = stg.map(|s| s.tss).unwrap_or_default();
            for l in 0..LANES {
                let (r, g) = (src[0][l], src[1][l]);
                let u = c[0][l] + sem.mul(m.bump_mat[0], r) + sem.mul(m.bump_mat[2], g);
                let vv = c[1][l] + sem.mul(m.bump_mat[1], r) + sem.mul(m.bump_mat[3], g);
                c[0][l] = u;
                c[1][l] = vv;
            }
            let mut q = tex_lookup(
                stg,
                &c,
                LodMode::Implicit([0.0; LANES]),
                (cur, &mut st.nonfinite_lookups),
            );
            if inst.op == Opcode::TexBemL {
                for l in 0..LANES {
                    // Saturated, and it scales all four channels: the documented
                    // `t(m)RGBA = t(m)RGBA * (t(n)B * LSCALE + LOFFSET)`, with the clamp
                    // Windows applies to D3DTOP_BUMPENVMAPLUMINANCE (Wine
                    // fixed_function_bumpmap_test) and DXVK applies to texbeml.
                    let f = sat(sem.mul(src[2][l], m.bump_lscale) + m.bump_loffset);
                    for ch in 0..4 {
                        q[ch][l] *= f;
                    }
                }
            }
            q
        }
        Opcode::Bem => {
            let (a, b) = (rd(0, st), rd(1, st));
            let m = stage(inst.dst.num).map(|s| s.tss).unwrap_or_default();
            let mut q = a;
            for l in 0..LANES {
                q[0][l] =
                    a[0][l] + sem.mul(m.bump_mat[0], b[0][l]) + sem.mul(m.bump_mat[2], b[1][l]);
                q[1][l] =
                    a[1][l] + sem.mul(m.bump_mat[1], b[0][l]) + sem.mul(m.bump_mat[3], b[1][l]);
            }
            q
        }
        Opcode::TexReg2Ar | Opcode::TexReg2Gb | Opcode::TexReg2Rgb => {
            let n = inst.dst.num;
            let s = rd(0, st);
            let sel: [usize; 3] = match inst.op {
                Opcode::TexReg2Ar => [3, 0, 2],
                Opcode::TexReg2Gb => [1, 2, 2],
                _ => [0, 1, 2],
            };
            let c = per(|ch, l| if ch < 3 { s[sel[ch]][l] } else { 1.0 });
            tex_lookup(
                stage(n),
                &c,
                LodMode::Implicit([0.0; LANES]),
                (cur, &mut st.nonfinite_lookups),
            )
        }
        Opcode::TexM3x2Pad | Opcode::TexM3x3Pad => {
            let n = inst.dst.num;
            let s = rd(0, st);
            let tc = st.regs[tc_reg(n)];
            let row = if inst.op == Opcode::TexM3x2Pad {
                0
            } else {
                st_m3_row(p, inst)
            };
            for l in 0..LANES {
                st.m3[row][l] = dot(sem, &tc, &s, 3, l);
            }
            return Ok(None);
        }
        Opcode::TexM3x2Tex | Opcode::TexM3x2Depth => {
            let n = inst.dst.num;
            let s = rd(0, st);
            let tc = st.regs[tc_reg(n)];
            let mut c = [[0.0; LANES]; 4];
            for l in 0..LANES {
                c[0][l] = st.m3[0][l];
                c[1][l] = dot(sem, &tc, &s, 3, l);
            }
            if inst.op == Opcode::TexM3x2Depth {
                for l in 0..LANES {
                    let (z, w) = (c[0][l], c[1][l]);
                    st.regs[DEPTH][0][l] = if w == 0.0 { 1.0 } else { z / w };
                }
                return Ok(None);
            }
            tex_lookup(
                stage(n),
                &c,
                LodMode::Implicit([0.0; LANES]),
                (cur, &mut st.nonfinite_lookups),
            )
        }
        Opcode::TexM3x3Tex | Opcode::TexM3x3 | Opcode::TexM3x3Spec | Opcode::TexM3x3VSpec => {
            let n = inst.dst.num;
            let s = rd(0, st);
            let tc = st.regs[tc_reg(n)];
            let mut c = [[0.0; LANES]; 4];
            for l in 0..LANES {
                c[0][l] = st.m3[0][l];
                c[1][l] = st.m3[1][l];
                c[2][l] = dot(sem, &tc, &s, 3, l);
                c[3][l] = 1.0;
            }
            match inst.op {
                Opcode::TexM3x3 => c,
                Opcode::TexM3x3Tex => tex_lookup(
                    stage(n),
                    &c,
                    LodMode::Implicit([0.0; LANES]),
                    (cur, &mut st.nonfinite_lookups),
                ),
                _ => {
                    let e: Q = if inst.op == Opcode::TexM3x3Spec {
                        rd(1, st)
                    } else {
                        // Eye vector from the w of the three texture coordinates.
                        let mut e = [[0.0; LANES]; 4];
                        for (k, r) in [n.saturating_sub(2), n.saturating_sub(1), n]
                            .iter()
                            .enumerate()
                        {
                            e[k] = st.regs[tc_reg(*r)][3];
                        }
                        e
                    };
                    let mut rc = [[0.0; LANES]; 4];
                    for l in 0..LANES {
                        let nn = dot(sem, &c, &c, 3, l);
                        let ne = dot(sem, &c, &e, 3, l);
                        for k in 0..3 {
                            let r = if nn != 0.0 {
                                2.0 * sem.mul(c[k][l], ne) / nn - e[k][l]
                            } else {
                                -e[k][l]
                            };
                            rc[k][l] = r;
                        }
                        rc[3][l] = 1.0;
                    }
                    tex_lookup(
                        stage(n),
                        &rc,
                        LodMode::Implicit([0.0; LANES]),
                        (cur, &mut st.nonfinite_lookups),
                    )
                }
            }
        }
        Opcode::TexDp3Tex => {
            let n = inst.dst.num;
            let s = rd(0, st);
            let tc = st.regs[tc_reg(n)];
            let c = per(|ch, l| {
                if ch == 0 {
                    dot(sem, &tc, &s, 3, l)
                } else {
                    0.0
                }
            });
            tex_lookup(
                stage(n),
                &c,
                LodMode::Implicit([0.0; LANES]),
                (cur, &mut st.nonfinite_lookups),
            )
        }
        Opcode::TexDp3 => {
            let n = inst.dst.num;
            let s = rd(0, st);
            let tc = st.regs[tc_reg(n)];
            splat(|l| dot(sem, &tc, &s, 3, l))
        }
        Opcode::TexDepth => {
            let r = st.regs[temp_reg(5)];
            for l in 0..LANES {
                let (z, w) = (r[0][l], r[1][l]);
                st.regs[DEPTH][0][l] = if w == 0.0 { 1.0 } else { z / w };
            }
            return Ok(None);
        }
        // Executed by `alu`, by the dispatch loop (flow control) or dropped by
        // `Program::new` (declarations): not evaluated here. Listed rather than
        // wildcarded, so that a new opcode fails to compile until the executor has it.
        op @ (Opcode::Nop
        | Opcode::Mov
        | Opcode::Add
        | Opcode::Sub
        | Opcode::Mul
        | Opcode::Rcp
        | Opcode::Rsq
        | Opcode::Dp3
        | Opcode::Dp4
        | Opcode::Min
        | Opcode::Max
        | Opcode::Slt
        | Opcode::Sge
        | Opcode::Exp
        | Opcode::Log
        | Opcode::Lrp
        | Opcode::Frc
        | Opcode::M4x4
        | Opcode::M4x3
        | Opcode::M3x4
        | Opcode::M3x3
        | Opcode::M3x2
        | Opcode::Call
        | Opcode::CallNz
        | Opcode::Loop
        | Opcode::Ret
        | Opcode::EndLoop
        | Opcode::Label
        | Opcode::Dcl
        | Opcode::Abs
        | Opcode::Nrm
        | Opcode::Rep
        | Opcode::EndRep
        | Opcode::If
        | Opcode::IfC
        | Opcode::Else
        | Opcode::EndIf
        | Opcode::Break
        | Opcode::BreakC
        | Opcode::Mova
        | Opcode::DefB
        | Opcode::DefI
        | Opcode::Reserved0
        | Opcode::Cnd
        | Opcode::Def
        | Opcode::Cmp
        | Opcode::Dp2Add
        | Opcode::BreakP
        | Opcode::Phase
        | Opcode::Comment
        | Opcode::End) => return Err(ExecError::Unsupported(format!("opcode {op:?}"))),
    }))
}

fn st_reg_value(st: &Lanes, d: &Dst) -> Q {
    match d.file {
        File::Reg(r) => st.regs[r as usize],
        _ => [[0.0; LANES]; 4],
    }
}

/// Which pad row a `texm3x3pad` fills: the first when the next instruction is also a pad.
fn st_m3_row(p: &Program, inst: &Inst) -> usize {
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
