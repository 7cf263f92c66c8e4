//! The dispatch loop: one program run on one lane group, with structured flow control
//! (masks, loop and call stacks), the instruction budget, co-issue and traces.

use d3dbc::opcode::Opcode;
use d3dbc::token::{Comparison, SrcModifier};

use super::alu::alu;
use super::eval::eval;
use super::lanes::{Env, Lanes};
use super::layout::R_TEMP;
use super::program::{File, Inst, Program};
use super::{ExecError, Mask, ALL, LANES, Q};

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

const MAX_DEPTH: usize = 64;

#[inline]
pub(super) fn cmp(c: u8, a: f32, b: f32) -> bool {
    Comparison::from_u8(c & 7).is_some_and(|k| k.test(a, b))
}
/// Runs a program on one lane group. `active` is the initial execution mask (all four
/// lanes for pixel quads, helpers included). Long by design: the dispatch loop keeps
/// the flow-control state (masks, loop and call stacks, the instruction budget) in
/// locals the hot path reads every instruction; splitting it would pass them around
/// per instruction.
pub fn run(p: &Program, st: &mut Lanes, env: &Env, active: Mask) -> Result<(), ExecError> {
    let v = p.version;
    let ps1 = v.is_pixel() && v.major < 2;
    let sem = env.sem;
    let mut stack: [Frame; MAX_DEPTH] = [Frame::If { saved: 0 }; MAX_DEPTH];
    let mut sp = 0usize;
    let mut cur = active;
    let mut brk: Mask = 0;
    let mut pc = 0usize;
    let n = p.insts.len();
    let mut count = 0u64;
    let mut lane_count = 0u64;
    let (mut counted, mut cur_lanes) = (cur, cur.count_ones() as u64);
    let mut scratch: Q = [[0.0; LANES]; 4];
    let mut scratch2: Q = [[0.0; LANES]; 4];
    st.nonfinite_lookups = 0;
    macro_rules! push {
        ($f:expr, $off:expr) => {{
            if sp >= MAX_DEPTH {
                return Err(ExecError::Nesting { offset: $off });
            }
            stack[sp] = $f;
            sp += 1;
        }};
    }
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
        if cur != counted {
            counted = cur;
            cur_lanes = cur.count_ones() as u64;
        }
        lane_count += cur_lanes;
        let mut next = pc + 1;
        match inst.op {
            Opcode::If => {
                let c = st.read(&inst.src[0], env, ps1);
                let mut m: Mask = 0;
                for l in 0..LANES {
                    if c[0][l] != 0.0 {
                        m |= 1 << l;
                    }
                }
                push!(Frame::If { saved: cur }, inst.offset);
                cur &= m;
                if cur == 0 {
                    next = inst.target as usize;
                    if p.insts[next].op == Opcode::Else {
                        // Execute the else itself.
                    }
                }
            }
            Opcode::IfC => {
                let a = st.read(&inst.src[0], env, ps1);
                let b = st.read(&inst.src[1], env, ps1);
                let mut m: Mask = 0;
                for l in 0..LANES {
                    if cmp(inst.ctrl, a[0][l], b[0][l]) {
                        m |= 1 << l;
                    }
                }
                push!(Frame::If { saved: cur }, inst.offset);
                cur &= m;
                if cur == 0 {
                    next = inst.target as usize;
                }
            }
            Opcode::Else => {
                if sp == 0 {
                    return Err(ExecError::Unsupported("else without if".into()));
                }
                if let Frame::If { saved } = stack[sp - 1] {
                    cur = saved & !cur & !brk;
                }
                if cur == 0 {
                    next = inst.target as usize;
                }
            }
            Opcode::EndIf => {
                if sp == 0 {
                    return Err(ExecError::Unsupported("endif without if".into()));
                }
                sp -= 1;
                if let Frame::If { saved } = stack[sp] {
                    cur = saved & !brk;
                }
            }
            Opcode::Rep => {
                let c = st.read(&inst.src[0], env, ps1);
                let count = (c[0][0] as i32).clamp(0, 255);
                if count == 0 || cur == 0 {
                    next = inst.target as usize + 1;
                } else {
                    push!(
                        Frame::Rep {
                            entry: cur,
                            brk,
                            remaining: count,
                            start: pc as u32
                        },
                        inst.offset
                    );
                }
            }
            Opcode::Loop => {
                let i = match inst.src[1].file {
                    File::ConstInt(k) => env.consts.i.get(k as usize).copied().unwrap_or([0; 4]),
                    _ => [0; 4],
                };
                let count = i[0].clamp(0, 255);
                if count == 0 || cur == 0 {
                    next = inst.target as usize + 1;
                } else {
                    push!(
                        Frame::Loop {
                            entry: cur,
                            brk,
                            remaining: count,
                            step: i[2],
                            al: st.al,
                            start: pc as u32
                        },
                        inst.offset
                    );
                    st.al = i[1];
                }
            }
            Opcode::EndRep | Opcode::EndLoop => {
                if sp == 0 {
                    return Err(ExecError::Unsupported("endloop without loop".into()));
                }
                match &mut stack[sp - 1] {
                    Frame::Rep {
                        entry,
                        brk: b0,
                        remaining,
                        start,
                    } => {
                        *remaining -= 1;
                        let live = *entry & !brk;
                        if *remaining > 0 && live != 0 {
                            cur = live;
                            next = *start as usize + 1;
                        } else {
                            cur = *entry;
                            brk = *b0;
                            sp -= 1;
                        }
                    }
                    Frame::Loop {
                        entry,
                        brk: b0,
                        remaining,
                        step,
                        al,
                        start,
                    } => {
                        *remaining -= 1;
                        st.al = st.al.wrapping_add(*step);
                        let live = *entry & !brk;
                        if *remaining > 0 && live != 0 {
                            cur = live;
                            next = *start as usize + 1;
                        } else {
                            cur = *entry;
                            brk = *b0;
                            st.al = *al;
                            sp -= 1;
                        }
                    }
                    _ => return Err(ExecError::Unsupported("mismatched endloop".into())),
                }
            }
            Opcode::Break | Opcode::BreakC | Opcode::BreakP => {
                let m = match inst.op {
                    Opcode::Break => cur,
                    Opcode::BreakC => {
                        let a = st.read(&inst.src[0], env, ps1);
                        let b = st.read(&inst.src[1], env, ps1);
                        let mut m = 0;
                        for l in 0..LANES {
                            if cmp(inst.ctrl, a[0][l], b[0][l]) {
                                m |= 1 << l;
                            }
                        }
                        m & cur
                    }
                    _ => {
                        let s = &inst.src[0];
                        let mut m = 0;
                        for l in 0..LANES {
                            let mut b = st.p0[s.swz[0] as usize][l];
                            if s.m == SrcModifier::Not {
                                b = !b;
                            }
                            if b {
                                m |= 1 << l;
                            }
                        }
                        m & cur
                    }
                };
                brk |= m;
                cur &= !m;
                // When no lane of the loop is left, leave it now.
                let mut k = sp;
                while k > 0 {
                    k -= 1;
                    match stack[k] {
                        Frame::Loop { entry, start, .. } | Frame::Rep { entry, start, .. } => {
                            if entry & !brk == 0 {
                                sp = k + 1;
                                cur = 0;
                                next = p.insts[start as usize].target as usize;
                            }
                            break;
                        }
                        Frame::Call { .. } => break,
                        Frame::If { .. } => {}
                    }
                }
            }
            Opcode::Call | Opcode::CallNz => {
                let mut m = cur;
                if inst.op == Opcode::CallNz {
                    let s = &inst.src[1];
                    let mut c = 0;
                    if s.file == File::Pred {
                        for l in 0..LANES {
                            let mut b = st.p0[s.swz[0] as usize][l];
                            if s.m == SrcModifier::Not {
                                b = !b;
                            }
                            if b {
                                c |= 1 << l;
                            }
                        }
                    } else {
                        let q = st.read(s, env, ps1);
                        let mut b = q[0][0] != 0.0;
                        if s.m == SrcModifier::Not {
                            b = !b;
                        }
                        if b {
                            c = ALL;
                        }
                    }
                    m &= c;
                }
                if m != 0 {
                    push!(
                        Frame::Call {
                            ret: (pc + 1) as u32,
                            entry: cur,
                            brk
                        },
                        inst.offset
                    );
                    cur = m;
                    brk = 0;
                    next = inst.target as usize + 1;
                }
            }
            Opcode::Ret => {
                // Return from the innermost call (or end the main program).
                let mut k = sp;
                let mut found = None;
                while k > 0 {
                    k -= 1;
                    if let Frame::Call {
                        ret,
                        entry,
                        brk: b0,
                    } = stack[k]
                    {
                        found = Some((k, ret, entry, b0));
                        break;
                    }
                }
                match found {
                    Some((k, ret, entry, b0)) => {
                        sp = k;
                        cur = entry;
                        brk = b0;
                        next = ret as usize;
                    }
                    None => break,
                }
            }
            Opcode::Label => {
                // Falling into a subroutine body from the main program ends it.
                break;
            }
            Opcode::Phase => {
                // semantics.md §2: temporaries' alpha is not kept across the ps_1_4
                // phase boundary; a read of r#.a written in phase 1 gives 0.
                for r in &mut st.regs[R_TEMP as usize..R_TEMP as usize + p.temps] {
                    r[3] = [0.0; LANES];
                }
            }
            _ => {
                if cur != 0 {
                    // Co-issued pairs read every source before either writes.
                    if inst.pair {
                        let second = &p.insts[pc + 1];
                        let a = compute(p, inst, st, env, ps1, cur, &mut scratch)?;
                        let b = compute(p, second, st, env, ps1, cur, &mut scratch2)?;
                        if a {
                            st.write(inst, &scratch, cur, env, ps1);
                        }
                        if b {
                            st.write(second, &scratch2, cur, env, ps1);
                        }
                        next = pc + 2;
                        count += 1;
                        lane_count += cur_lanes;
                    } else if compute(p, inst, st, env, ps1, cur, &mut scratch)? {
                        st.write(inst, &scratch, cur, env, ps1);
                    }
                }
            }
        }
        let _ = sem;
        if let Some(t) = st.trace.as_mut().filter(|t| {
            let full = t.len() >= st.trace_limit;
            st.trace_truncated |= full;
            !full
        }) {
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
