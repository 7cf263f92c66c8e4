//! Flow-control rules: E0501-E0506 (block structure, nesting limits, break placement,
//! call/label/ret), E0207 (aL outside a loop).

use super::*;

impl State<'_> {
    pub(super) fn flow(&mut self, ins: &Instruction) {
        let v = self.v;
        let op = ins.opcode;
        let mn = Mn(op, v);
        let (max_loops, max_static, max_dyn) = self.ctx.nest;
        match op {
            Opcode::If | Opcode::IfC => {
                let dynamic = op == Opcode::IfC
                    || ins
                        .src()
                        .first()
                        .is_some_and(|s| s.reg.kind == RegisterType::Predicate);
                let b = if dynamic { Block::IfDyn } else { Block::IfBool };
                if dynamic {
                    self.dynamics += 1;
                    if self.dynamics > max_dyn {
                        self.err(
                            Rule::E0505,
                            format_args!("{mn} nests dynamic flow control deeper than {max_dyn}"),
                        );
                    }
                } else {
                    self.statics += 1;
                    self.static_flow_count += 1;
                    if self.statics > max_static {
                        self.err(
                            Rule::E0505,
                            format_args!("{mn} nests static flow control deeper than {max_static}"),
                        );
                    }
                }
                self.push(b);
            }
            Opcode::Else => match self.top() {
                Some(b @ (Block::IfBool | Block::IfDyn)) => {
                    self.stack[self.depth - 1] = if b == Block::IfDyn {
                        Block::ElseDyn
                    } else {
                        Block::ElseBool
                    };
                }
                Some(Block::ElseBool | Block::ElseDyn) => self.err(
                    Rule::E0501,
                    format_args!("second else for one if (an if block has at most one else)"),
                ),
                _ => self.err(Rule::E0501, format_args!("else without an open if")),
            },
            Opcode::EndIf => match self.top() {
                Some(b @ (Block::IfBool | Block::IfDyn | Block::ElseBool | Block::ElseDyn)) => {
                    if matches!(b, Block::IfDyn | Block::ElseDyn) {
                        self.dynamics -= 1;
                    } else {
                        self.statics -= 1;
                    }
                    self.depth -= 1;
                }
                _ => self.err(Rule::E0501, format_args!("endif without an open if")),
            },
            Opcode::Loop | Opcode::Rep => {
                self.loops += 1;
                self.static_flow_count += 1;
                if self.loops > max_loops {
                    self.err(
                        Rule::E0505,
                        format_args!("{mn} nests loop/rep deeper than {max_loops}"),
                    );
                }
                self.push(if op == Opcode::Loop {
                    Block::Loop
                } else {
                    Block::Rep
                });
            }
            Opcode::EndLoop | Opcode::EndRep => {
                let want = if op == Opcode::EndLoop {
                    Block::Loop
                } else {
                    Block::Rep
                };
                if self.top() == Some(want) {
                    self.depth -= 1;
                    self.loops -= 1;
                } else {
                    self.err(
                        Rule::E0502,
                        format_args!(
                            "{mn} does not close an open {}",
                            if want == Block::Loop { "loop" } else { "rep" }
                        ),
                    );
                }
            }
            Opcode::Break | Opcode::BreakC | Opcode::BreakP if self.loops == 0 => {
                self.err(Rule::E0504, format_args!("{mn} outside a loop or rep"));
            }
            Opcode::Call | Opcode::CallNz => {
                self.static_flow_count += 1;
                if let Some(l) = ins.src().first() {
                    if l.reg.kind == RegisterType::Label && (l.reg.num as usize) < 2048 {
                        let n = l.reg.num as usize;
                        self.labels_called[n / 64] |= 1 << (n % 64);
                        self.any_call = true;
                    }
                }
            }
            Opcode::Label => {
                if self.depth != 0 {
                    self.err(
                        Rule::E0503,
                        format_args!("label inside an open flow-control block"),
                    );
                    self.depth = 0;
                    self.loops = 0;
                    self.statics = 0;
                    self.dynamics = 0;
                }
                if !self.main_ended {
                    self.err(
                        Rule::E0506,
                        format_args!("label before the main program's ret"),
                    );
                    self.main_ended = true;
                }
                self.in_sub = true;
                if let Some(l) = ins.src().first() {
                    if l.reg.kind == RegisterType::Label && (l.reg.num as usize) < 2048 {
                        let n = l.reg.num as usize;
                        if self.labels_defined[n / 64] & (1 << (n % 64)) != 0 {
                            self.err(Rule::E0506, format_args!("label l{n} defined twice"));
                        }
                        self.labels_defined[n / 64] |= 1 << (n % 64);
                    }
                }
            }
            Opcode::Ret if self.depth == 0 => {
                if self.in_sub {
                    self.in_sub = false;
                } else {
                    self.main_ended = true;
                }
            }
            _ => {}
        }
        if v.is_vertex() && v.code() == 0x0200 && self.static_flow_count == 17 {
            self.static_flow_count += 1;
            self.err(
                Rule::E0505,
                format_args!("more than 16 static flow-control instructions in vs_2_0"),
            );
        }
    }

    pub(super) fn push(&mut self, b: Block) {
        if self.depth < MAX_STACK {
            self.stack[self.depth] = b;
            self.depth += 1;
        } else {
            self.err(
                Rule::E0505,
                format_args!("flow control nested deeper than {MAX_STACK}"),
            );
        }
    }

    pub(super) fn top(&self) -> Option<Block> {
        self.depth.checked_sub(1).map(|i| self.stack[i])
    }
}
