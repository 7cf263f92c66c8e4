//! Flow control: `if`/`else`, `loop`/`rep`, `break`, calls and returns, lowered to naga
//! statements over straight-line ranges (the order subroutines are lowered in is
//! [`d3dbc::target::scan::call_order`]'s).

use super::*;
use d3dbc::opcode::{Block, Flow};

impl Lower<'_> {
    pub(super) fn cmp_scalar(&mut self, x: &Instruction) -> Result<H, Error> {
        let a = self.src(&x.srcs[0])?;
        let b = self.src(&x.srcs[1])?;
        let (a, b) = (self.fun.comp(a, 0), self.fun.comp(b, 0));
        Ok(self.fun.bin(cmp_op(x.comparison()), a, b))
    }

    /// Lowers one flow-control instruction (blocks, loops, breaks, calls, returns,
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
                self.flush();
                self.fun.stmt(Statement::Break);
                self.dead = Some(0);
            }
            Flow::BreakC | Flow::BreakP => {
                let cond = if x.opcode == BreakC {
                    self.cmp_scalar(x)?
                } else {
                    self.bool_src(&x.srcs[0])?
                };
                self.flush();
                self.fun.stmt(Statement::If {
                    condition: cond,
                    accept: naga::Block::from_vec(vec![Statement::Break]),
                    reject: naga::Block::new(),
                });
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
        self.frames.push(Frame::If { cond, accept: None });
        self.fun.open();
        Ok(())
    }

    /// `else`: the first half closed, the second opened.
    fn if_else(&mut self) -> Result<(), Error> {
        self.flush();
        let b = self.fun.close();
        self.invalidate();
        match self.frames.last_mut() {
            Some(Frame::If { accept, .. }) if accept.is_none() => *accept = Some(b),
            _ => return Err(self.flow_err("else without if")),
        }
        self.fun.open();
        Ok(())
    }

    /// `endif`: the block closed.
    fn if_close(&mut self) -> Result<(), Error> {
        self.flush();
        let b = self.fun.close();
        self.invalidate();
        match self.frames.pop() {
            Some(Frame::If { cond, accept }) => {
                let (accept, reject) = match accept {
                    Some(a) => (a, b),
                    None => (b, naga::Block::new()),
                };
                self.fun.stmt(Statement::If {
                    condition: cond,
                    accept,
                    reject,
                });
            }
            _ => return Err(self.flow_err("endif without if")),
        }
        Ok(())
    }

    /// `loop`/`rep`: the trip count (and `aL`'s start and step), the loop opened.
    fn loop_open(&mut self, x: &Instruction) -> Result<(), Error> {
        use Opcode::*;
        let iv = self.const_i(x.srcs[if x.opcode == Loop { 1 } else { 0 }].reg.num);
        let count = self.fun.comp(iv, 0);
        let counter = self.fun.f.local_variables.append(
            LocalVariable {
                name: Some("count".into()),
                ty: self.t.i32,
                init: None,
            },
            Span::UNDEFINED,
        );
        let mut step = None;
        let mut saved_al = None;
        if x.opcode == Loop {
            let start = self.fun.comp(iv, 1);
            step = Some(self.fun.comp(iv, 2));
            if let Some(i) = self.slot(RegisterType::Loop, 0) {
                let old = self.read_slot(i);
                let l = self.fun.f.local_variables.append(
                    LocalVariable {
                        name: Some("saved_aL".into()),
                        ty: self.t.i32,
                        init: None,
                    },
                    Span::UNDEFINED,
                );
                let lp = self.fun.e(Expression::LocalVariable(l));
                self.fun.store(lp, old);
                saved_al = Some(l);
                self.set_slot(i, start);
            }
        }
        self.boundary();
        let cp = self.fun.e(Expression::LocalVariable(counter));
        self.fun.store(cp, count);
        self.frames.push(Frame::Loop {
            counter,
            step,
            saved_al,
        });
        self.fun.open();
        let cp = self.fun.e(Expression::LocalVariable(counter));
        let c = self.fun.load(cp);
        let z = self.fun.i(0);
        let done = self.fun.bin(B::LessEqual, c, z);
        self.fun.stmt(Statement::If {
            condition: done,
            accept: naga::Block::from_vec(vec![Statement::Break]),
            reject: naga::Block::new(),
        });
        Ok(())
    }

    /// `endloop`/`endrep`: the counter stepped (and `aL`), the loop closed, `aL` restored.
    fn loop_close(&mut self) -> Result<(), Error> {
        self.flush();
        let body = self.fun.close();
        self.invalidate();
        let Some(Frame::Loop {
            counter,
            step,
            saved_al,
        }) = self.frames.pop()
        else {
            return Err(self.flow_err("endloop without loop"));
        };
        self.fun.open();
        let cp = self.fun.e(Expression::LocalVariable(counter));
        let c = self.fun.load(cp);
        let one = self.fun.i(1);
        let c1 = self.fun.sub(c, one);
        self.fun.store(cp, c1);
        if let (Some(step), Some(i)) = (step, self.slot(RegisterType::Loop, 0)) {
            if let Some(p) = self.ptr(i) {
                let a = self.fun.load(p);
                let a1 = self.fun.add(a, step);
                self.fun.store(p, a1);
            }
        }
        let continuing = self.fun.close();
        self.fun.stmt(Statement::Loop {
            body,
            continuing,
            break_if: None,
        });
        if let (Some(l), Some(i)) = (saved_al, self.slot(RegisterType::Loop, 0)) {
            let lp = self.fun.e(Expression::LocalVariable(l));
            let v = self.fun.load(lp);
            self.set_slot(i, v);
        }
        Ok(())
    }

    /// `call`/`callnz`: the subroutine's function called, under the condition for `callnz`.
    fn call(&mut self, x: &Instruction) -> Result<(), Error> {
        use Opcode::*;
        let f = *self
            .labels
            .get(&x.srcs[0].reg.num)
            .ok_or_else(|| self.flow_err("call of an undefined label"))?;
        let cond = if x.opcode == CallNz {
            Some(self.bool_src(&x.srcs[1])?)
        } else {
            None
        };
        self.boundary();
        let call = Statement::Call {
            function: f,
            arguments: Vec::new(),
            result: None,
        };
        match cond {
            Some(c) => self.fun.stmt(Statement::If {
                condition: c,
                accept: naga::Block::from_vec(vec![call]),
                reject: naga::Block::new(),
            }),
            None => self.fun.stmt(call),
        }
        Ok(())
    }

    /// Lowers a range of instructions (from instruction `base` on) into the current
    /// function; what each lowers to carries its DWORD offset as span.
    pub(super) fn lower_range(&mut self, ins: &[Instruction], base: usize) -> Result<(), Error> {
        let mut i = 0;
        while i < ins.len() {
            let x = &ins[i];
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
                    Block::Close | Block::Else => {
                        self.dead = None;
                    }
                    Block::None => {
                        i += 1;
                        continue;
                    }
                }
            }
            if x.opcode == Opcode::Ret && self.frames.is_empty() {
                break;
            }
            self.set_at(base + i);
            // Co-issue: the pair reads every source before either writes.
            if ins.get(i + 1).is_some_and(|n| n.coissue) && !x.coissue {
                self.deferred = Some(Vec::new());
                self.lower_ins(x)?;
                let mut j = i + 1;
                while j < ins.len() && ins[j].coissue {
                    self.set_at(base + j);
                    self.lower_ins(&ins[j])?;
                    j += 1;
                }
                let writes = self.deferred.take().unwrap_or_default();
                for (d, v) in writes {
                    self.write_dst(d, None, v)?;
                }
                i = j;
                continue;
            }
            self.lower_ins(x)?;
            i += 1;
        }
        self.fun.span = naga::Span::UNDEFINED;
        if !self.frames.is_empty() {
            return Err(TargetError::Flow {
                offset: self.offsets[base + ins.len()],
                why: "unclosed block",
            }
            .into());
        }
        Ok(())
    }

    pub(super) fn flow_err(&self, why: &'static str) -> Error {
        TargetError::Flow {
            offset: self.at,
            why,
        }
        .into()
    }

    /// Makes instruction `i` the one being lowered: its DWORD offset goes into errors
    /// and, as span, into every expression and statement appended.
    fn set_at(&mut self, i: usize) {
        self.at = self.offsets[i];
        self.fun.span = Span::new(self.at, self.at + 1);
    }
}
