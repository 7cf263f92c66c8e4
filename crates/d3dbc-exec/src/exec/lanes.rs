//! The per-lane-group machine state ([`Lanes`]) with what a program reads besides its
//! registers ([`Env`], [`Stage`]): operand reads (swizzle, relative addressing, source
//! modifiers) and result writes (destination modifiers, masks, predicates, `a0`/`p0`).

// Lane and component loops index several structure-of-arrays values at once.
#![allow(clippy::needless_range_loop)]

use d3dbc::opcode::Opcode;
use d3dbc::token::SrcModifier;
use d3dbc::Semantics;

use crate::draw::{SamplerState, TextureStage};
use crate::texture::Decoded;

use super::layout::NREGS;
use super::program::{ConstFile, File, Inst, Program, Src};
use super::{Mask, ALL, LANES, Q};

/// A bound sampler stage.
#[derive(Clone, Copy)]
pub struct Stage<'a> {
    /// The decoded texture, if bound.
    pub tex: Option<&'a Decoded>,
    /// Sampler state.
    pub state: SamplerState,
    /// Texture-stage state.
    pub tss: TextureStage,
    /// The ps_1_1–1_3 projective divide of this stage (`D3DTTFF_PROJECTED`): the
    /// coordinate is divided by component `projection − 1` (2–4), 0 = none. A draw sets
    /// it from [`crate::Draw::projection`].
    pub projection: u8,
}

/// Everything a program reads besides its registers.
pub struct Env<'a> {
    /// Constants.
    pub consts: &'a ConstFile,
    /// Sampler stages by number (ps: 0–15; vs: the vertex samplers at 0–3).
    pub stages: &'a [Stage<'a>],
    /// Device semantics.
    pub sem: &'a Semantics,
    /// Instruction budget per invocation: instructions the lane group executes (the
    /// renderer re-runs a group that runs out one quad at a time, so the budget holds
    /// per 2×2 quad).
    pub budget: u64,
    /// Moves every approximated instruction's result (exp, log, rcp, rsq, nrm, pow,
    /// sincos, expp, logp, lit) by this fraction of its documented error
    /// ([`d3dbc::Precision`]): 1 the whole error towards +inf, −1 towards
    /// −inf; 0 computes them exactly. The other instructions of the vectorised path
    /// (`add`, `mul`, `mad`, the dot products, `min`/`max`, `frc`, …) move by this
    /// fraction of one ulp (one rounding). How the CPU/GPU differential bounds what a
    /// driver's approximations and roundings may change in a pixel.
    pub perturb: f32,
}

/// Per-lane-group machine state, reused across invocations (no allocation per run).
pub struct Lanes {
    /// Registers: `[reg][component][lane]`.
    pub(crate) regs: Vec<Q>,
    pub(super) a0: [[i32; LANES]; 4],
    pub(super) al: i32,
    pub(super) p0: [[bool; LANES]; 4],
    /// Lanes killed by `texkill`.
    pub killed: Mask,
    /// Instructions executed by the last run.
    pub executed: u64,
    /// Lane-instructions executed by the last run: for each executed instruction, the
    /// number of lanes active when it ran (helper lanes included).
    pub lane_instructions: u64,
    /// Texture lookups of the last run, by active lanes, at a non-finite coordinate or
    /// level (an `inf`/NaN that reached a lookup): D3D9 leaves their result undefined.
    pub nonfinite_lookups: u64,
    pub(super) m3: [[f32; LANES]; 3],
    /// When set, every executed instruction is appended as (translated instruction
    /// index, lane `trace_lane`'s destination value afterwards, that lane active), up to
    /// `trace_limit` steps. The trace is kept when [`run`](super::run) fails (an exhausted
    /// instruction budget): the steps up to the failure.
    pub trace: Option<Vec<(u32, [f32; 4], bool)>>,
    /// The lane a trace follows (0 unless set).
    pub trace_lane: usize,
    /// Most steps a trace keeps ([`TRACE_LIMIT`] unless set); later steps set
    /// `trace_truncated` instead.
    pub trace_limit: usize,
    /// The trace reached `trace_limit` and dropped later steps.
    pub trace_truncated: bool,
}

/// Default [`Lanes::trace_limit`]: enough for any shader that finishes inside a sane
/// budget, bounded (about 2 MB) for one that does not.
pub const TRACE_LIMIT: usize = 65_536;

impl Default for Lanes {
    fn default() -> Self {
        Lanes {
            regs: vec![[[0.0; LANES]; 4]; NREGS],
            a0: [[0; LANES]; 4],
            al: 0,
            p0: [[false; LANES]; 4],
            killed: 0,
            executed: 0,
            lane_instructions: 0,
            nonfinite_lookups: 0,
            m3: [[0.0; LANES]; 3],
            trace: None,
            trace_lane: 0,
            trace_limit: TRACE_LIMIT,
            trace_truncated: false,
        }
    }
}

impl Lanes {
    /// Clears temporaries, outputs and state before an invocation (inputs are set by
    /// the caller afterwards).
    pub fn reset(&mut self) {
        for r in self.regs.iter_mut() {
            *r = [[0.0; LANES]; 4];
        }
        self.clear_state();
    }

    /// Like [`Lanes::reset`], but clears only the registers `p` writes (its list,
    /// computed once): enough between two runs of the same program whose inputs are all
    /// set again.
    pub fn reset_for(&mut self, p: &Program) {
        for &r in &p.written {
            self.regs[r as usize] = [[0.0; LANES]; 4];
        }
        self.clear_state();
    }

    /// Whether every register of every lane holds the same bits in `self` and `other`
    /// (two runs of one program on one input: the executor is deterministic).
    pub fn same_bits(&self, other: &Lanes) -> bool {
        let bits =
            |r: &[Q]| -> Vec<u32> { r.iter().flatten().flatten().map(|f| f.to_bits()).collect() };
        bits(&self.regs) == bits(&other.regs)
    }

    /// Clears everything but the registers.
    fn clear_state(&mut self) {
        self.a0 = [[0; LANES]; 4];
        self.al = 0;
        self.p0 = [[false; LANES]; 4];
        self.killed = 0;
        self.executed = 0;
        self.lane_instructions = 0;
        self.nonfinite_lookups = 0;
        self.m3 = [[0.0; LANES]; 3];
    }

    /// Sets register `reg` of `lane` to `v`.
    #[inline]
    pub(crate) fn set(&mut self, reg: usize, lane: usize, v: [f32; 4]) {
        for (c, x) in v.iter().enumerate() {
            self.regs[reg][c][lane] = *x;
        }
    }

    /// Register `reg` of `lane`.
    #[inline]
    pub(crate) fn get(&self, reg: usize, lane: usize) -> [f32; 4] {
        let r = &self.regs[reg];
        [r[0][lane], r[1][lane], r[2][lane], r[3][lane]]
    }

    pub(super) fn rel_index(&self, base: u16, rel: Option<(bool, u8)>, lane: usize) -> i64 {
        match rel {
            None => base as i64,
            Some((true, _)) => base as i64 + self.al as i64,
            Some((false, c)) => base as i64 + self.a0[c as usize][lane] as i64,
        }
    }

    /// Reads a source operand (swizzle and modifier applied). Inlinable: the other
    /// `exec` modules call it per operand (`alu`'s rows of relative operands).
    #[inline]
    pub(super) fn read(&self, s: &Src, env: &Env, ps1: bool) -> Q {
        // Fast path: a direct register swizzles straight out of the file.
        if let (File::Reg(r), None) = (s.file, s.rel) {
            let src = &self.regs[r as usize];
            let mut q: Q = [[0.0; LANES]; 4];
            for c in 0..4 {
                q[c] = src[s.swz[c] as usize];
            }
            apply_mod(&mut q, s.m, ps1);
            return q;
        }
        let mut raw: Q = [[0.0; LANES]; 4];
        match s.file {
            File::Reg(r) => {
                if let Some(rel) = s.rel {
                    for l in 0..LANES {
                        let i = self.rel_index(r, Some(rel), l);
                        let ok = i >= 0 && (i as usize) < NREGS;
                        for c in 0..4 {
                            raw[c][l] = if ok { self.regs[i as usize][c][l] } else { 0.0 };
                        }
                    }
                } else {
                    raw = self.regs[r as usize];
                }
            }
            File::Const(n) => {
                if s.rel.is_some() {
                    for l in 0..LANES {
                        let i = self.rel_index(n, s.rel, l);
                        let v = if i >= 0 {
                            env.consts.f.get(i as usize).copied().unwrap_or([0.0; 4])
                        } else {
                            [0.0; 4]
                        };
                        for c in 0..4 {
                            raw[c][l] = v[c];
                        }
                    }
                } else {
                    let v = env.consts.f.get(n as usize).copied().unwrap_or([0.0; 4]);
                    for c in 0..4 {
                        raw[c] = [v[c]; LANES];
                    }
                }
            }
            File::ConstInt(n) => {
                let v = env.consts.i.get(n as usize).copied().unwrap_or([0; 4]);
                for c in 0..4 {
                    raw[c] = [v[c] as f32; LANES];
                }
            }
            File::ConstBool(n) => {
                let v = env.consts.b.get(n as usize).copied().unwrap_or(false) as u8 as f32;
                raw = [[v; LANES]; 4];
            }
            File::Addr => {
                for c in 0..4 {
                    for l in 0..LANES {
                        raw[c][l] = self.a0[c][l] as f32;
                    }
                }
            }
            File::Loop => raw = [[self.al as f32; LANES]; 4],
            File::Pred => {
                for c in 0..4 {
                    for l in 0..LANES {
                        raw[c][l] = self.p0[c][l] as u8 as f32;
                    }
                }
            }
            File::Sampler(_) | File::Zero => {}
        }
        let mut q: Q = [[0.0; LANES]; 4];
        for c in 0..4 {
            q[c] = raw[s.swz[c] as usize];
        }
        apply_mod(&mut q, s.m, ps1);
        q
    }

    fn pred_ok(&self, inst: &Inst, c: usize, lane: usize) -> bool {
        match &inst.pred {
            None => true,
            Some(p) => {
                let v = self.p0[p.swz[c] as usize][lane];
                if p.m == SrcModifier::Not {
                    !v
                } else {
                    v
                }
            }
        }
    }

    /// Writes an instruction's result: destination modifiers, write mask, predicate
    /// and the lanes of `mask_lanes`.
    #[inline(always)]
    pub(super) fn write(&mut self, inst: &Inst, val: &Q, mask_lanes: Mask, env: &Env, ps1: bool) {
        let d = &inst.dst;
        // The common case inline: a direct register, no modifier, no predicate, every
        // lane active.
        if let File::Reg(r) = d.file {
            if !d.rel && inst.pred.is_none() && mask_lanes == ALL && d.shift == 0 && !d.sat && !ps1
            {
                let dst = &mut self.regs[r as usize];
                for c in 0..4 {
                    if d.mask & (1 << c) != 0 {
                        dst[c] = val[c];
                    }
                }
                return;
            }
        }
        self.write_general(inst, val, mask_lanes, env, ps1)
    }

    fn write_general(&mut self, inst: &Inst, val: &Q, mask_lanes: Mask, env: &Env, ps1: bool) {
        let d = &inst.dst;
        let scale = match d.shift {
            0 => 1.0,
            s if s > 0 => (1u32 << s) as f32,
            s => 1.0 / (1u32 << (-s)) as f32,
        };
        let maxv = env.sem.ps1x_max_value;
        // Destination shift, saturate, then the ps_1_x range.
        let fin = |mut x: f32| {
            if d.shift != 0 {
                x *= scale;
            }
            if d.sat {
                x = sat(x);
            }
            if ps1 {
                x = x.clamp(-maxv, maxv);
            }
            x
        };
        match d.file {
            // Fast path (the common case): direct register, no predicate, every lane
            // active; the same operations in the same order as the general path.
            File::Reg(r) if !d.rel && inst.pred.is_none() && mask_lanes == ALL => {
                let dst = &mut self.regs[r as usize];
                for c in 0..4 {
                    if d.mask & (1 << c) == 0 {
                        continue;
                    }
                    for l in 0..LANES {
                        dst[c][l] = fin(val[c][l]);
                    }
                }
            }
            File::Reg(r) => {
                for l in 0..LANES {
                    if mask_lanes & (1 << l) == 0 {
                        continue;
                    }
                    let reg = if d.rel {
                        let i = self.al as i64 + r as i64;
                        if i < 0 || i as usize >= NREGS {
                            continue;
                        }
                        i as usize
                    } else {
                        r as usize
                    };
                    for c in 0..4 {
                        if d.mask & (1 << c) == 0 || !self.pred_ok(inst, c, l) {
                            continue;
                        }
                        self.regs[reg][c][l] = fin(val[c][l]);
                    }
                }
            }
            File::Addr => {
                let vs1 = self.is_vs1(inst);
                for l in 0..LANES {
                    if mask_lanes & (1 << l) == 0 {
                        continue;
                    }
                    for c in 0..4 {
                        if d.mask & (1 << c) == 0 || !self.pred_ok(inst, c, l) {
                            continue;
                        }
                        let x = val[c][l];
                        let r = if vs1 {
                            x.floor()
                        } else {
                            env.sem.mova_round(x)
                        };
                        self.a0[c][l] = if r.is_nan() {
                            0
                        } else {
                            r.clamp(-1.0e6, 1.0e6) as i32
                        };
                    }
                }
            }
            File::Pred => {
                for l in 0..LANES {
                    if mask_lanes & (1 << l) == 0 {
                        continue;
                    }
                    for c in 0..4 {
                        if d.mask & (1 << c) == 0 || !self.pred_ok(inst, c, l) {
                            continue;
                        }
                        self.p0[c][l] = val[c][l] != 0.0;
                    }
                }
            }
            _ => {}
        }
    }

    fn is_vs1(&self, inst: &Inst) -> bool {
        inst.op == Opcode::Mov
    }
}

#[inline]
pub(super) fn sat(x: f32) -> f32 {
    // NaN saturates to 0.
    if x > 0.0 {
        x.min(1.0)
    } else {
        0.0
    }
}

fn apply_mod(q: &mut Q, m: SrcModifier, _ps1: bool) {
    use SrcModifier::*;
    // Each arm maps every element with a closure the compiler inlines (no indirect
    // call per element).
    fn each(q: &mut Q, f: impl Fn(f32) -> f32) {
        for c in q.iter_mut() {
            for x in c.iter_mut() {
                *x = f(*x);
            }
        }
    }
    match m {
        None | Not | Dz | Dw => return,
        // One arm per modifier: each closure applies a constant modifier, which
        // `SrcModifier::apply` folds to its arithmetic.
        Neg => each(q, |x| Neg.apply(x)),
        Bias => each(q, |x| Bias.apply(x)),
        BiasNeg => each(q, |x| BiasNeg.apply(x)),
        Sign => each(q, |x| Sign.apply(x)),
        SignNeg => each(q, |x| SignNeg.apply(x)),
        Comp => each(q, |x| Comp.apply(x)),
        X2 => each(q, |x| X2.apply(x)),
        X2Neg => each(q, |x| X2Neg.apply(x)),
        Abs => each(q, |x| Abs.apply(x)),
        AbsNeg => each(q, |x| AbsNeg.apply(x)),
    }
    if matches!(m, Dz | Dw) {
        unreachable!()
    }
}
