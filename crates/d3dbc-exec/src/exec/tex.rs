//! Texture lookups for every lane (implicit LOD from per-quad derivatives, explicit LOD
//! or gradients), the quad derivatives themselves and the ps_1_x coordinate divides
//! (`_dz`/`_dw`, the stage's projection).

// Lane and component loops index several structure-of-arrays values at once.
#![allow(clippy::needless_range_loop)]

use d3dbc::opcode::Opcode;
use d3dbc::token::{texld_controls, SrcModifier};
use d3dbc::Version;

use crate::draw::TextureKind;
use crate::texture::{self, Lod};

use super::eval::{dot, flush_q, per, splat, st_m3_row};
use super::lanes::{sat, Env, Lanes, Stage};
use super::layout::{tc_reg, temp_reg, DEPTH};
use super::program::{File, Inst, Program, Src};
use super::{ExecError, Mask, LANES, Q, QUAD};

pub(super) fn dz_dw(q: &mut Q, m: SrcModifier) {
    let d = match m {
        SrcModifier::Dz => 2,
        SrcModifier::Dw => 3,
        _ => return,
    };
    for l in 0..LANES {
        let w = q[d][l];
        let r = if w == 0.0 { 0.0 } else { 1.0 / w };
        q[0][l] *= r;
        q[1][l] *= r;
        if d == 3 {
            q[2][l] *= r;
        }
    }
}

/// Derivative along x within each quad (lanes 0 1 / 2 3 of the quad).
#[inline]
pub(super) fn ddx(v: &[f32; LANES]) -> [f32; LANES] {
    let mut o = [0.0; LANES];
    for q in (0..LANES).step_by(QUAD) {
        let a = v[q + 1] - v[q];
        let b = v[q + 3] - v[q + 2];
        o[q..q + QUAD].copy_from_slice(&[a, a, b, b]);
    }
    o
}

/// Derivative along y within each quad.
#[inline]
pub(super) fn ddy(v: &[f32; LANES]) -> [f32; LANES] {
    let mut o = [0.0; LANES];
    for q in (0..LANES).step_by(QUAD) {
        let a = v[q + 2] - v[q];
        let b = v[q + 3] - v[q + 1];
        o[q..q + QUAD].copy_from_slice(&[a, b, a, b]);
    }
    o
}

/// Texture lookup for every lane with implicit (per-quad derivatives) or explicit LOD.
pub(super) fn tex_lookup(
    stage: Option<&Stage>,
    coords: &Q,
    lod: LodMode,
    (cur, nonfinite): (Mask, &mut u64),
) -> Q {
    let mut out = [[0.0; LANES]; 4];
    let Some(stage) = stage else {
        for l in 0..LANES {
            out[3][l] = 1.0;
        }
        return out;
    };
    let Some(tex) = stage.tex else {
        for l in 0..LANES {
            out[3][l] = 1.0;
        }
        return out;
    };
    let (gx, gy): (Q, Q) = match lod {
        LodMode::Implicit(_) => {
            let mut gx = [[0.0; LANES]; 4];
            let mut gy = [[0.0; LANES]; 4];
            for c in 0..4 {
                gx[c] = ddx(&coords[c]);
                gy[c] = ddy(&coords[c]);
            }
            (gx, gy)
        }
        LodMode::Grad(gx, gy) => (*gx, *gy),
        _ => ([[0.0; LANES]; 4], [[0.0; LANES]; 4]),
    };
    for l in 0..LANES {
        let c = [coords[0][l], coords[1][l], coords[2][l], coords[3][l]];
        let lodv = match lod {
            LodMode::Implicit(bias) => {
                if tex.kind == TextureKind::Cube {
                    // Derivatives of the face coordinates: approximate with the
                    // direction's derivatives divided by the major axis.
                    let (_, _) = texture::cube_face([c[0], c[1], c[2]]);
                    let ma = c[0].abs().max(c[1].abs()).max(c[2].abs()).max(1e-30);
                    let s = 0.5 / ma;
                    Lod::Grad(
                        [gx[0][l] * s, gx[1][l] * s, gx[2][l] * s],
                        [gy[0][l] * s, gy[1][l] * s, gy[2][l] * s],
                        bias[l],
                    )
                } else {
                    Lod::Grad(
                        [gx[0][l], gx[1][l], gx[2][l]],
                        [gy[0][l], gy[1][l], gy[2][l]],
                        bias[l],
                    )
                }
            }
            LodMode::Grad(..) => Lod::Grad(
                [gx[0][l], gx[1][l], gx[2][l]],
                [gy[0][l], gy[1][l], gy[2][l]],
                0.0,
            ),
            LodMode::Level(lv) => Lod::Level(lv[l]),
        };
        let n = if tex.kind == TextureKind::Tex2d { 2 } else { 3 };
        let level_ok = !matches!(lodv, Lod::Level(x) if !x.is_finite());
        if cur & (1 << l) != 0 && (c[..n].iter().any(|x| !x.is_finite()) || !level_ok) {
            *nonfinite += 1;
        }
        let v = texture::sample(tex, &stage.state, c, lodv);
        for ch in 0..4 {
            out[ch][l] = v[ch];
        }
    }
    out
}

#[derive(Clone, Copy)]
pub(super) enum LodMode<'a> {
    Implicit([f32; LANES]),
    Grad(&'a Q, &'a Q),
    Level([f32; LANES]),
}

/// ps_1_1–1_3 projective divide by the component the stage's projection names
/// ([`crate::Draw::projection`]: the rule, from the texture-transform flags, the
/// vertex shader and the bound texture).
pub(super) fn project_1x(q: &mut Q, stage: Option<&Stage>) {
    let Some(s) = stage else { return };
    let count = s.projection as usize;
    if !(2..=4).contains(&count) {
        return;
    }
    let d = count - 1;
    for l in 0..LANES {
        let w = q[d][l];
        for c in 0..3 {
            q[c][l] /= w;
        }
    }
}

/// The texture instructions: `texkill`, sampling (`texld*`, `texldl`, `texldd`; ps_1_x
/// `tex`) and the ps_1_x texture-address operations (`texcoord`, `texbem*`, `bem`,
/// `texreg2*`, `texm3x*`, `texdp3*`, `texdepth`). `None` when the instruction writes
/// no register.
pub(super) fn texture(
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
    let implicit = |st: &mut Lanes, n: u16, c: &Q| {
        tex_lookup(
            stage(n),
            c,
            LodMode::Implicit([0.0; LANES]),
            (cur, &mut st.nonfinite_lookups),
        )
    };
    Ok(Some(match inst.op {
        Opcode::TexKill => {
            texkill(v.is_sm1(), inst, st, env, ps1, cur);
            return Ok(None);
        }
        Opcode::Tex | Opcode::TexLdl | Opcode::TexLdd if !v.is_sm1() => {
            sample(v, inst, st, env, ps1, cur)
        }
        // ps_1_4 texld r#, t#/r# ; ps_1_1-1_3 tex t#.
        Opcode::Tex => {
            let n = inst.dst.num;
            let c = if v.is_ps_1_4() {
                let mut c = rd(0, st);
                dz_dw(&mut c, inst.src[0].m);
                c
            } else {
                let mut c = st.regs[tc_reg(n)];
                project_1x(&mut c, stage(n));
                c
            };
            implicit(st, n, &c)
        }
        Opcode::TexCoord => {
            if v.is_ps_1_4() {
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
        Opcode::TexBem | Opcode::TexBemL => texbem(inst, st, env, ps1, cur),
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
            let s = rd(0, st);
            let sel: [usize; 3] = match inst.op {
                Opcode::TexReg2Ar => [3, 0, 2],
                Opcode::TexReg2Gb => [1, 2, 2],
                _ => [0, 1, 2],
            };
            let c = per(|ch, l| if ch < 3 { s[sel[ch]][l] } else { 1.0 });
            implicit(st, inst.dst.num, &c)
        }
        Opcode::TexM3x2Pad | Opcode::TexM3x3Pad => {
            let s = rd(0, st);
            let tc = st.regs[tc_reg(inst.dst.num)];
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
                write_depth(st, &c);
                return Ok(None);
            }
            implicit(st, n, &c)
        }
        Opcode::TexM3x3Tex | Opcode::TexM3x3 | Opcode::TexM3x3Spec | Opcode::TexM3x3VSpec => {
            texm3x3(inst, st, env, ps1, cur)
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
            implicit(st, n, &c)
        }
        Opcode::TexDp3 => {
            let s = rd(0, st);
            let tc = st.regs[tc_reg(inst.dst.num)];
            splat(|l| dot(sem, &tc, &s, 3, l))
        }
        Opcode::TexDepth => {
            let r = st.regs[temp_reg(5)];
            write_depth(st, &r);
            return Ok(None);
        }
        op => return Err(ExecError::Unsupported(format!("opcode {op:?}"))),
    }))
}

/// `texkill`: the active lanes where a tested component is negative are killed (shader
/// model 1, `sm1`, tests `xyz`, later versions the write mask).
fn texkill(sm1: bool, inst: &Inst, st: &mut Lanes, env: &Env, ps1: bool, cur: Mask) {
    let whole = Src {
        file: inst.dst.file,
        rel: None,
        swz: [0, 1, 2, 3],
        m: SrcModifier::None,
    };
    let r = st.read(&whole, env, ps1);
    let mask = if sm1 { 0x7 } else { inst.dst.mask };
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
}

/// `texld`/`texldp`/`texldb` (implicit LOD; vertex shaders level 0), `texldl` (the
/// level in `w`) and `texldd` (gradients): the sample swizzled by the sampler operand.
fn sample(v: Version, inst: &Inst, st: &mut Lanes, env: &Env, ps1: bool, cur: Mask) -> Q {
    // Coordinates, levels and gradients under the subnormal rule.
    let rd = |k: usize, st: &Lanes| flush_q(env.sem, st.read(&inst.src[k], env, ps1));
    let mut c = rd(0, st);
    let s = match inst.src[1].file {
        File::Sampler(n) => n,
        _ => 0,
    };
    let stage = env.stages.get(s as usize);
    let grads;
    let lod = match inst.op {
        Opcode::TexLdl => LodMode::Level(c[3]),
        Opcode::TexLdd => {
            grads = (rd(2, st), rd(3, st));
            LodMode::Grad(&grads.0, &grads.1)
        }
        _ if v.is_vertex() => LodMode::Level([0.0; LANES]),
        _ => {
            if inst.ctrl & texld_controls::PROJECT != 0 {
                for l in 0..LANES {
                    let w = c[3][l];
                    for k in 0..3 {
                        c[k][l] /= w;
                    }
                }
            }
            let bias = inst.ctrl & texld_controls::BIAS != 0;
            LodMode::Implicit(if bias { c[3] } else { [0.0; LANES] })
        }
    };
    let q = tex_lookup(stage, &c, lod, (cur, &mut st.nonfinite_lookups));
    let sw = inst.src[1].swz;
    per(|ch, l| q[sw[ch] as usize][l])
}

/// `texbem`/`texbeml`: the stage's coordinate moved by the bump matrix times the
/// source's red and green; `texbeml` scales the sample by the luminance factor.
fn texbem(inst: &Inst, st: &mut Lanes, env: &Env, ps1: bool, cur: Mask) -> Q {
    let sem = env.sem;
    let n = inst.dst.num;
    let stg = env.stages.get(n as usize);
    let src = st.read(&inst.src[0], env, ps1);
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

/// The last row of `texm3x3*`: the vector the three rows make (`texm3x3`), sampled
/// (`texm3x3tex`), or reflected about the eye vector and sampled (`texm3x3spec`: the
/// eye from a source; `texm3x3vspec`: from the `w` of the three coordinates).
fn texm3x3(inst: &Inst, st: &mut Lanes, env: &Env, ps1: bool, cur: Mask) -> Q {
    let sem = env.sem;
    let n = inst.dst.num;
    let s = st.read(&inst.src[0], env, ps1);
    let tc = st.regs[tc_reg(n)];
    let mut c = [[0.0; LANES]; 4];
    for l in 0..LANES {
        c[0][l] = st.m3[0][l];
        c[1][l] = st.m3[1][l];
        c[2][l] = dot(sem, &tc, &s, 3, l);
        c[3][l] = 1.0;
    }
    let lookup = |st: &mut Lanes, c: &Q| {
        tex_lookup(
            env.stages.get(n as usize),
            c,
            LodMode::Implicit([0.0; LANES]),
            (cur, &mut st.nonfinite_lookups),
        )
    };
    match inst.op {
        Opcode::TexM3x3 => return c,
        Opcode::TexM3x3Tex => return lookup(st, &c),
        _ => {}
    }
    let e: Q = if inst.op == Opcode::TexM3x3Spec {
        st.read(&inst.src[1], env, ps1)
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
    lookup(st, &rc)
}

/// `texdepth`/`texm3x2depth`: `oDepth = x / y` (1 when `y` is 0).
fn write_depth(st: &mut Lanes, zw: &Q) {
    for l in 0..LANES {
        let (z, w) = (zw[0][l], zw[1][l]);
        st.regs[DEPTH][0][l] = if w == 0.0 { 1.0 } else { z / w };
    }
}
