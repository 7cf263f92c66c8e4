//! The dispatch loop: one program run on one lane group, with structured flow control
//! (masks, loop and call stacks), the instruction budget, co-issue and traces.
//!
//! [`run`] dispatches on [`d3dbc::opcode::Opcode::role`]: flow control goes to [`Flow`]
//! (one method per construct), `phase` clears the temporaries' alpha, everything else
//! is computed ([`compute`]: [`alu`], then [`eval`]) and written for the active lanes.

use d3dbc::opcode::{self, Role};
use d3dbc::token::{Comparison, SrcModifier};

use super::alu::alu;
use super::eval::{eval, flush_q};
use super::lanes::{Env, Lanes};
use super::layout::R_TEMP;
use super::program::{File, Inst, Program, Src};
use super::{ExecError, Mask, ALL, LANES, Q};

/// One open block of the flow-control stack.
#[derive(Clone, Copy)]
enum Frame {
    If {
        saved: Mask,
    },
    Loop {
        entry: Mask,
        brk: Mask,
        remaining: i32,
        step: i32,
        al: i32,
        start: u32,
    },
    Rep {
        entry: Mask,
        brk: Mask,
        remaining: i32,
        start: u32,
    },
    Call {
        ret: u32,
        entry: Mask,
        brk: Mask,
    },
}

/// Deepest nesting of blocks and calls the interpreter runs.
const MAX_DEPTH: usize = 64;

/// Most iterations of a `loop` or `rep` (the count is clamped to this).
const MAX_ITERATIONS: i32 = 255;

#[inline]
pub(super) fn cmp(c: u8, a: f32, b: f32) -> bool {
    Comparison::from_u8(c & 7).is_some_and(|k| k.test(a, b))
}

/// The lanes for which `f(lane)` holds.
#[inline]
fn lanes_where(f: impl Fn(usize) -> bool) -> Mask {
    let mut m: Mask = 0;
    for l in 0..LANES {
        if f(l) {
            m |= 1 << l;
        }
    }
    m
}

/// The lanes where component `x` of `a` compares true against that of `b`
/// (`if_comp`, `break_comp`).
fn compare_lanes(inst: &Inst, st: &Lanes, env: &Env, ps1: bool) -> Mask {
    // Comparisons are arithmetic under the subnormal rule.
    let a = flush_q(env.sem, st.read(&inst.src[0], env, ps1));
    let b = flush_q(env.sem, st.read(&inst.src[1], env, ps1));
    lanes_where(|l| cmp(inst.ctrl, a[0][l], b[0][l]))
}

/// The lanes where predicate source `s` (`p0.c`, `!p0.c`) is true.
fn predicate_lanes(s: &Src, st: &Lanes) -> Mask {
    let c = s.swz[0] as usize;
    lanes_where(|l| st.p0[c][l] != (s.m == SrcModifier::Not))
}

/// Flow-control state of one run: the execution mask, the lanes that left the
/// innermost loop with `break`, and the stack of open blocks and calls.
struct Flow {
    stack: [Frame; MAX_DEPTH],
    sp: usize,
    cur: Mask,
    brk: Mask,
}

impl Flow {
    fn new(active: Mask) -> Flow {
        Flow {
            stack: [Frame::If { saved: 0 }; MAX_DEPTH],
            sp: 0,
            cur: active,
            brk: 0,
        }
    }

    fn push(&mut self, f: Frame, inst: &Inst) -> Result<(), ExecError> {
        if self.sp >= MAX_DEPTH {
            return Err(ExecError::Nesting {
                offset: inst.offset,
            });
        }
        self.stack[self.sp] = f;
        self.sp += 1;
        Ok(())
    }

    /// Runs flow-control instruction `inst` (at `pc`, of kind `f`); the instruction to
    /// run next, `None` when the program ends (`ret` from the main program, or falling
    /// into a subroutine's `label`).
    #[allow(clippy::too_many_arguments)]
    fn step(
        &mut self,
        f: opcode::Flow,
        p: &Program,
        inst: &Inst,
        pc: usize,
        st: &mut Lanes,
        env: &Env,
        ps1: bool,
    ) -> Result<Option<usize>, ExecError> {
        use opcode::Flow as F;
        let next = match f {
            F::If => {
                let c = st.read(&inst.src[0], env, ps1);
                self.open_if(lanes_where(|l| c[0][l] != 0.0), inst, pc)?
            }
            F::IfC => self.open_if(compare_lanes(inst, st, env, ps1), inst, pc)?,
            F::Else => self.else_(inst, pc)?,
            F::EndIf => self.end_if(pc)?,
            F::Rep => {
                let c = st.read(&inst.src[0], env, ps1);
                let count = (c[0][0] as i32).clamp(0, MAX_ITERATIONS);
                self.open_rep(count, inst, pc)?
            }
            F::Loop => self.open_loop(inst, pc, st, env)?,
            F::EndRep | F::EndLoop => self.end_loop(pc, st)?,
            F::Break => self.break_(self.cur, p, pc),
            F::BreakC => self.break_(compare_lanes(inst, st, env, ps1) & self.cur, p, pc),
            F::BreakP => self.break_(predicate_lanes(&inst.src[0], st) & self.cur, p, pc),
            F::Call => self.call(self.cur, inst, pc)?,
            F::CallNz => {
                let m = self.cur & Self::call_condition(&inst.src[1], st, env, ps1);
                self.call(m, inst, pc)?
            }
            F::Ret => return Ok(self.ret()),
            // Falling into a subroutine body from the main program ends it.
            F::Label => return Ok(None),
        };
        Ok(Some(next))
    }

    /// `if`/`if_comp`: the lanes of `taken` go on; none left skips to the `else`
    /// (which then runs) or the `endif`.
    fn open_if(&mut self, taken: Mask, inst: &Inst, pc: usize) -> Result<usize, ExecError> {
        self.push(Frame::If { saved: self.cur }, inst)?;
        self.cur &= taken;
        Ok(if self.cur == 0 {
            inst.target as usize
        } else {
            pc + 1
        })
    }

    /// `else`: the lanes the `if` left out (and that did not `break`) go on.
    fn else_(&mut self, inst: &Inst, pc: usize) -> Result<usize, ExecError> {
        if self.sp == 0 {
            return Err(ExecError::Unsupported("else without if".into()));
        }
        if let Frame::If { saved } = self.stack[self.sp - 1] {
            self.cur = saved & !self.cur & !self.brk;
        }
        Ok(if self.cur == 0 {
            inst.target as usize
        } else {
            pc + 1
        })
    }

    /// `endif`: the lanes active at the `if` (less those that broke) go on.
    fn end_if(&mut self, pc: usize) -> Result<usize, ExecError> {
        if self.sp == 0 {
            return Err(ExecError::Unsupported("endif without if".into()));
        }
        self.sp -= 1;
        if let Frame::If { saved } = self.stack[self.sp] {
            self.cur = saved & !self.brk;
        }
        Ok(pc + 1)
    }

    /// `rep i#` with its iteration count: no iteration, or no lane active, skips the
    /// body.
    fn open_rep(&mut self, count: i32, inst: &Inst, pc: usize) -> Result<usize, ExecError> {
        if count == 0 || self.cur == 0 {
            return Ok(inst.target as usize + 1);
        }
        let frame = Frame::Rep {
            entry: self.cur,
            brk: self.brk,
            remaining: count,
            start: pc as u32,
        };
        self.push(frame, inst)?;
        Ok(pc + 1)
    }

    /// `loop aL, i#`: `i#.x` iterations, `aL` from `i#.y` in steps of `i#.z` (the
    /// outer `aL` restored at the end).
    fn open_loop(
        &mut self,
        inst: &Inst,
        pc: usize,
        st: &mut Lanes,
        env: &Env,
    ) -> Result<usize, ExecError> {
        let i = match inst.src[1].file {
            File::ConstInt(k) => env.consts.i.get(k as usize).copied().unwrap_or([0; 4]),
            _ => [0; 4],
        };
        let count = i[0].clamp(0, MAX_ITERATIONS);
        if count == 0 || self.cur == 0 {
            return Ok(inst.target as usize + 1);
        }
        let frame = Frame::Loop {
            entry: self.cur,
            brk: self.brk,
            remaining: count,
            step: i[2],
            al: st.al,
            start: pc as u32,
        };
        self.push(frame, inst)?;
        st.al = i[1];
        Ok(pc + 1)
    }

    /// `endrep`/`endloop`: back to the top while iterations and unbroken lanes remain,
    /// else out of the loop with the lanes it was entered with.
    fn end_loop(&mut self, pc: usize, st: &mut Lanes) -> Result<usize, ExecError> {
        if self.sp == 0 {
            return Err(ExecError::Unsupported("endloop without loop".into()));
        }
        let brk = self.brk;
        let (entry, b0, remaining, start) = match &mut self.stack[self.sp - 1] {
            Frame::Rep {
                entry,
                brk,
                remaining,
                start,
            } => (*entry, *brk, remaining, *start),
            Frame::Loop {
                entry,
                brk,
                remaining,
                step,
                al,
                start,
            } => {
                st.al = st.al.wrapping_add(*step);
                if *remaining <= 1 || *entry & !self.brk == 0 {
                    st.al = *al;
                }
                (*entry, *brk, remaining, *start)
            }
            _ => return Err(ExecError::Unsupported("mismatched endloop".into())),
        };
        *remaining -= 1;
        let live = entry & !brk;
        if *remaining > 0 && live != 0 {
            self.cur = live;
            Ok(start as usize + 1)
        } else {
            self.cur = entry;
            self.brk = b0;
            self.sp -= 1;
            Ok(pc + 1)
        }
    }

    /// `break`/`break_comp`/`breakp` for the lanes of `m`: they stop until the loop
    /// ends; when no lane of the innermost loop is left, the loop is left now.
    fn break_(&mut self, m: Mask, p: &Program, pc: usize) -> usize {
        self.brk |= m;
        self.cur &= !m;
        let mut k = self.sp;
        while k > 0 {
            k -= 1;
            match self.stack[k] {
                Frame::Loop { entry, start, .. } | Frame::Rep { entry, start, .. } => {
                    if entry & !self.brk == 0 {
                        self.sp = k + 1;
                        self.cur = 0;
                        return p.insts[start as usize].target as usize;
                    }
                    break;
                }
                Frame::Call { .. } => break,
                Frame::If { .. } => {}
            }
        }
        pc + 1
    }

    /// The lanes `callnz`'s condition holds for: a predicate per lane, a boolean
    /// constant for all.
    fn call_condition(s: &Src, st: &Lanes, env: &Env, ps1: bool) -> Mask {
        if s.file == File::Pred {
            return predicate_lanes(s, st);
        }
        let q = st.read(s, env, ps1);
        if (q[0][0] != 0.0) != (s.m == SrcModifier::Not) {
            ALL
        } else {
            0
        }
    }

    /// `call`/`callnz` for the lanes of `m` (none: nothing happens).
    fn call(&mut self, m: Mask, inst: &Inst, pc: usize) -> Result<usize, ExecError> {
        if m == 0 {
            return Ok(pc + 1);
        }
        let frame = Frame::Call {
            ret: (pc + 1) as u32,
            entry: self.cur,
            brk: self.brk,
        };
        self.push(frame, inst)?;
        self.cur = m;
        self.brk = 0;
        Ok(inst.target as usize + 1)
    }

    /// `ret`: back from the innermost call; `None` from the main program (its end).
    fn ret(&mut self) -> Option<usize> {
        let k = (0..self.sp)
            .rev()
            .find(|&k| matches!(self.stack[k], Frame::Call { .. }))?;
        let Frame::Call { ret, entry, brk } = self.stack[k] else {
            unreachable!("found a call frame")
        };
        self.sp = k;
        self.cur = entry;
        self.brk = brk;
        Some(ret as usize)
    }
}

/// `phase`: temporaries' alpha is not kept across the ps_1_4 phase boundary
/// (semantics.md §2); a read of `r#.a` written in phase 1 gives 0.
fn phase(p: &Program, st: &mut Lanes) {
    for r in &mut st.regs[R_TEMP as usize..R_TEMP as usize + p.temps] {
        r[3] = [0.0; LANES];
    }
}

/// Appends the step just run to the trace, if one is kept (see [`Lanes::trace`]).
fn record_trace(st: &mut Lanes, inst: &Inst, pc: usize, cur: Mask) {
    let Some(t) = st.trace.as_mut() else { return };
    if t.len() >= st.trace_limit {
        st.trace_truncated = true;
        return;
    }
    let l = st.trace_lane % LANES;
    let vals = match inst.dst.file {
        File::Reg(r) if !inst.dst.rel => {
            let q = &st.regs[r as usize];
            [q[0][l], q[1][l], q[2][l], q[3][l]]
        }
        File::Addr => st.a0.map(|c| c[l] as f32),
        File::Pred => st.p0.map(|c| c[l] as u8 as f32),
        _ => [f32::NAN; 4],
    };
    t.push((pc as u32, vals, cur & (1 << l) != 0));
}

/// Runs a program on one lane group. `active` is the initial execution mask (all four
/// lanes for pixel quads, helpers included). The loop keeps the instruction budget and
/// lane counts in locals; flow control lives in a `Flow`.
pub fn run(p: &Program, st: &mut Lanes, env: &Env, active: Mask) -> Result<(), ExecError> {
    let ps1 = p.version.is_ps_1_x();
    let mut flow = Flow::new(active);
    let mut pc = 0usize;
    let n = p.insts.len();
    let mut count = 0u64;
    let mut lane_count = 0u64;
    let (mut counted, mut cur_lanes) = (active, active.count_ones() as u64);
    let mut scratch: Q = [[0.0; LANES]; 4];
    let mut scratch2: Q = [[0.0; LANES]; 4];
    st.nonfinite_lookups = 0;
    while pc < n {
        let inst = &p.insts[pc];
        count += 1;
        if count > env.budget {
            return Err(ExecError::Budget {
                budget: env.budget,
                offset: inst.offset,
            });
        }
        // The active lane count changes only with flow control (no POPCNT in the
        // baseline x86-64 instruction set).
        let cur = flow.cur;
        if cur != counted {
            counted = cur;
            cur_lanes = cur.count_ones() as u64;
        }
        lane_count += cur_lanes;
        let next = match inst.op.role() {
            Role::Flow(f) => match flow.step(f, p, inst, pc, st, env, ps1)? {
                Some(next) => next,
                None => break,
            },
            Role::Phase => {
                phase(p, st);
                pc + 1
            }
            // Never in a program: `Program::new` drops them.
            Role::Declaration | Role::Marker => pc + 1,
            Role::Compute if cur == 0 => pc + 1,
            Role::Compute if inst.pair => {
                // Co-issued pairs read every source before either writes.
                let second = &p.insts[pc + 1];
                let a = compute(p, inst, st, env, ps1, cur, &mut scratch)?;
                let b = compute(p, second, st, env, ps1, cur, &mut scratch2)?;
                if a {
                    st.write(inst, &scratch, cur, env, ps1);
                }
                if b {
                    st.write(second, &scratch2, cur, env, ps1);
                }
                count += 1;
                lane_count += cur_lanes;
                pc + 2
            }
            Role::Compute => {
                if compute(p, inst, st, env, ps1, cur, &mut scratch)? {
                    st.write(inst, &scratch, cur, env, ps1);
                }
                pc + 1
            }
        };
        if st.trace.is_some() {
            record_trace(st, inst, pc, flow.cur);
        }
        pc = next;
    }
    st.executed = count;
    st.lane_instructions = lane_count;
    Ok(())
}

/// Computes the result of an arithmetic or texture instruction into `out`; false when
/// it writes no register (`texkill`, the `texm3x#pad` rows…).
#[inline(always)]
fn compute(
    p: &Program,
    inst: &Inst,
    st: &mut Lanes,
    env: &Env,
    ps1: bool,
    cur: Mask,
    out: &mut Q,
) -> Result<bool, ExecError> {
    if alu(p, inst, st, env, out) {
        return Ok(true);
    }
    Ok(match eval(p, inst, st, env, ps1, cur)? {
        Some(q) => {
            *out = q;
            true
        }
        None => false,
    })
}
