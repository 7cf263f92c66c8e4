//! Flow control: `if`/`else`, `loop`/`rep`, `break`, calls and returns, emitted as
//! SPIR-V structured control flow over straight-line ranges (the order subroutines are
//! emitted in is [`d3dbc::target::scan::call_order`]'s).

use super::*;

impl Emitter<'_> {
    pub(super) fn cmp_scalar(&mut self, x: &Instruction) -> Result<u32, Error> {
        let a = self.src(&x.srcs[0])?;
        let b = self.src(&x.srcs[1])?;
        let (a, b) = (self.cf(a, 0), self.cf(b, 0));
        Ok(self.op2(cmp_op(x.comparison()), T::Bool, a, b))
    }

    pub(super) fn loop_merge(&self) -> Option<u32> {
        self.frames.iter().rev().find_map(|f| match f {
            Frame::Loop { merge, .. } => Some(*merge),
            _ => None,
        })
    }

    /// Emits one flow-control instruction (blocks, loops, breaks, calls, returns,
    /// labels), one arm per [`Flow`] over the open-frame stack.
    pub(super) fn flow(&mut self, x: &Instruction, flow: Flow) -> Result<(), Error> {
        use Opcode::*;
        match flow {
            Flow::If | Flow::IfC => self.if_open(x)?,
            Flow::Else => self.if_else()?,
            Flow::EndIf => self.if_close()?,
            Flow::Loop | Flow::Rep => self.loop_open(x)?,
            Flow::EndLoop | Flow::EndRep => self.loop_close()?,
            Flow::Break => {
                let merge = self
                    .loop_merge()
                    .ok_or_else(|| self.flow_err("break outside a loop"))?;
                self.flush();
                self.branch(merge);
                self.dead = Some(0);
            }
            Flow::BreakC | Flow::BreakP => {
                let lm = self
                    .loop_merge()
                    .ok_or_else(|| self.flow_err("break outside a loop"))?;
                let cond = if x.opcode == BreakC {
                    self.cmp_scalar(x)?
                } else {
                    self.bool_src(&x.srcs[0])?
                };
                self.flush();
                let (after, brk) = (self.m.id(), self.m.id());
                inst(&mut self.m.body, Op::SelectionMerge, &[after, 0]);
                inst(&mut self.m.body, Op::BranchConditional, &[cond, brk, after]);
                self.label(brk);
                self.branch(lm);
                self.label(after);
            }
            Flow::Call | Flow::CallNz => self.call(x)?,
            Flow::Ret => {
                self.emit_return()?;
                self.dead = Some(0);
            }
            Flow::Label => {}
        }
        Ok(())
    }

    /// `if`/`if_comp`: the condition, then the block's first half.
    fn if_open(&mut self, x: &Instruction) -> Result<(), Error> {
        use Opcode::*;
        let cond = if x.opcode == If {
            self.bool_src(&x.srcs[0])?
        } else {
            self.cmp_scalar(x)?
        };
        self.boundary();
        let (merge, then, else_label) = (self.m.id(), self.m.id(), self.m.id());
        inst(&mut self.m.body, Op::SelectionMerge, &[merge, 0]);
        inst(
            &mut self.m.body,
            Op::BranchConditional,
            &[cond, then, else_label],
        );
        self.label(then);
        self.frames.push(Frame::If {
            merge,
            else_label,
            has_else: false,
        });
        Ok(())
    }

    /// `else`: the first half closed, the second opened.
    fn if_else(&mut self) -> Result<(), Error> {
        self.flush();
        let (merge, else_label) = match self.frames.last_mut() {
            Some(Frame::If {
                merge,
                else_label,
                has_else,
            }) if !*has_else => {
                *has_else = true;
                (*merge, *else_label)
            }
            _ => return Err(self.flow_err("else without if")),
        };
        if !self.terminated {
            self.branch(merge);
        }
        self.invalidate();
        self.label(else_label);
        Ok(())
    }

    /// `endif`: the block closed.
    fn if_close(&mut self) -> Result<(), Error> {
        self.flush();
        let Some(Frame::If {
            merge,
            else_label,
            has_else,
        }) = self.frames.pop()
        else {
            return Err(self.flow_err("endif without if"));
        };
        if !self.terminated {
            self.branch(merge);
        }
        self.invalidate();
        if !has_else {
            self.label(else_label);
            self.branch(merge);
        }
        self.label(merge);
        Ok(())
    }

    /// `loop`/`rep`: the trip count (and `aL`'s start and step), the loop opened.
    fn loop_open(&mut self, x: &Instruction) -> Result<(), Error> {
        use Opcode::*;
        let iv = self.const_i(x.srcs[if x.opcode == Loop { 1 } else { 0 }].reg.num);
        let count = self.comp(T::I32, iv, 0);
        let counter = self.local(T::I32);
        let mut step = None;
        let mut saved_al = None;
        if x.opcode == Loop {
            let start = self.comp(T::I32, iv, 1);
            step = Some(self.comp(T::I32, iv, 2));
            if let Some(i) = self.slot(RegisterType::Loop, 0) {
                let old = self.read_slot(i);
                let l = self.local(T::I32);
                self.store(l, old);
                saved_al = Some(l);
                self.set_slot(i, start);
            }
        }
        self.boundary();
        self.store(counter, count);
        let (header, merge, cont, body) = (self.m.id(), self.m.id(), self.m.id(), self.m.id());
        self.branch(header);
        self.label(header);
        let c = self.load(T::I32, counter);
        let z = self.m.i(0);
        let done = self.op2(Op::SLessThanEqual, T::Bool, c, z);
        inst(&mut self.m.body, Op::LoopMerge, &[merge, cont, 0]);
        inst(
            &mut self.m.body,
            Op::BranchConditional,
            &[done, merge, body],
        );
        self.label(body);
        self.frames.push(Frame::Loop {
            header,
            merge,
            cont,
            counter,
            step,
            saved_al,
        });
        Ok(())
    }

    /// `endloop`/`endrep`: the counter stepped (and `aL`), the loop closed, `aL` restored.
    fn loop_close(&mut self) -> Result<(), Error> {
        self.flush();
        let Some(Frame::Loop {
            header,
            merge,
            cont,
            counter,
            step,
            saved_al,
        }) = self.frames.pop()
        else {
            return Err(self.flow_err("endloop without loop"));
        };
        if !self.terminated {
            self.branch(cont);
        }
        self.invalidate();
        self.label(cont);
        let c = self.load(T::I32, counter);
        let one = self.m.i(1);
        let c1 = self.op2(Op::ISub, T::I32, c, one);
        self.store(counter, c1);
        if let (Some(step), Some(i)) = (step, self.slot(RegisterType::Loop, 0)) {
            let p = self.slots[i].var;
            if p != 0 {
                let a = self.load(T::I32, p);
                let a1 = self.op2(Op::IAdd, T::I32, a, step);
                self.store(p, a1);
            }
        }
        self.branch(header);
        self.label(merge);
        if let (Some(l), Some(i)) = (saved_al, self.slot(RegisterType::Loop, 0)) {
            let v = self.load(T::I32, l);
            self.set_slot(i, v);
        }
        Ok(())
    }

    /// `call`/`callnz`: the subroutine's function called, under the condition for `callnz`.
    fn call(&mut self, x: &Instruction) -> Result<(), Error> {
        use Opcode::*;
        let l = x.srcs[0].reg.num;
        let f = self
            .labels
            .iter()
            .find(|e| e.0 == l)
            .map(|e| e.1)
            .ok_or_else(|| self.flow_err("call of an undefined label"))?;
        let cond = if x.opcode == CallNz {
            Some(self.bool_src(&x.srcs[1])?)
        } else {
            None
        };
        self.boundary();
        let void = self.m.ty(T::Void);
        match cond {
            Some(c) => {
                let (after, call) = (self.m.id(), self.m.id());
                inst(&mut self.m.body, Op::SelectionMerge, &[after, 0]);
                inst(&mut self.m.body, Op::BranchConditional, &[c, call, after]);
                self.label(call);
                let r = self.m.id();
                inst(&mut self.m.body, Op::FunctionCall, &[void, r, f]);
                self.branch(after);
                self.label(after);
            }
            None => {
                let r = self.m.id();
                inst(&mut self.m.body, Op::FunctionCall, &[void, r, f]);
            }
        }
        Ok(())
    }

    pub(super) fn flow_err(&self, why: &'static str) -> Error {
        Error::Flow {
            offset: self.at,
            why,
        }
    }

    /// Emits a range of instructions (from instruction `base` on) into the current
    /// function.
    pub(super) fn emit_range(&mut self, ins: &[Instruction], base: usize) -> Result<(), Error> {
        let mut i = 0;
        while i < ins.len() {
            let x = &ins[i];
            self.at = self.scan.offsets[base + i];
            self.op = x.opcode;
            if let Some(d) = self.dead {
                match x.opcode.block() {
                    Block::Open => {
                        self.dead = Some(d + 1);
                        i += 1;
                        continue;
                    }
                    Block::Close if d > 0 => {
                        self.dead = Some(d - 1);
                        i += 1;
                        continue;
                    }
                    Block::Else if d > 0 => {
                        i += 1;
                        continue;
                    }
                    Block::Close | Block::Else => self.dead = None,
                    Block::None => {
                        i += 1;
                        continue;
                    }
                }
            }
            if x.opcode == Opcode::Ret && self.frames.is_empty() {
                break;
            }
            if ins.get(i + 1).is_some_and(|n| n.coissue) && !x.coissue {
                self.deferred = Some(([(x.dst, 0); 4], 0));
                self.emit_ins(x)?;
                let mut j = i + 1;
                while j < ins.len() && ins[j].coissue {
                    self.at = self.scan.offsets[base + j];
                    self.emit_ins(&ins[j])?;
                    j += 1;
                }
                if let Some((writes, n)) = self.deferred.take() {
                    for &(d, v) in &writes[..n] {
                        self.write_dst(d, None, v)?;
                    }
                }
                i = j;
                continue;
            }
            self.emit_ins(x)?;
            i += 1;
        }
        if !self.frames.is_empty() {
            return Err(Error::Flow {
                offset: self.scan.offsets[base + ins.len()],
                why: "unclosed block",
            });
        }
        Ok(())
    }
}
