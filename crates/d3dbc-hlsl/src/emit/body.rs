//! Walking the body: `main` and the subroutines, one statement per instruction, and
//! flow control (`if`/`for`/`break`/`call`/`ret`, their loop counters and conditions).

use d3dbc::ir::{DstParam, Instruction, SrcParam};
use d3dbc::opcode::Opcode;
use d3dbc::token::{RegisterType, SrcModifier};

use crate::text::{self, mask_comps, Expr, Prec};
use crate::Error;

use super::expr::comparison;
use super::Emitter;

impl Emitter {
    /// Writes every instruction.
    pub fn body(&mut self) -> Result<(), Error> {
        let main = self.a.main.clone();
        let subs = self.a.subs.clone();
        for i in main.clone() {
            self.instruction(i, i + 1 == main.end)?;
        }
        for (label, range) in subs {
            self.in_sub = true;
            self.indent = 0;
            self.line(&format!("void l{label}()"));
            self.line("{");
            self.indent = 1;
            let end = range.end;
            for i in range {
                self.instruction(i, i + 1 == end)?;
            }
            self.indent = 0;
            self.line("}");
            self.line("");
            self.in_sub = false;
            self.indent = 1;
        }
        Ok(())
    }

    fn instruction(&mut self, idx: usize, last: bool) -> Result<(), Error> {
        if idx < self.skip_to || self.folded.contains(&idx) {
            return Ok(());
        }
        if let Some((rows, form)) = self.dot_rows(idx) {
            // dp4 dst.x, v, M0 / dp4 dst.y, v, M1 / …: one product.
            let first = self.a.instructions[idx];
            let k = if first.opcode == Opcode::Dp4 { 4 } else { 3 };
            let v = self.src(&first.srcs[0], &(0..k).collect::<Vec<_>>(), idx)?;
            let ins = Instruction {
                dst: DstParam {
                    mask: (1u8 << rows) - 1,
                    ..first.dst
                },
                ..first
            };
            self.skip_to = idx + rows;
            let value = Expr::atom(form.replace("{v}", &v.text), rows as u8);
            return self.assign(&ins, value, idx);
        }
        let ins = self.a.instructions[idx];
        // A co-issued pair reads every source before either writes: when the second
        // reads what the first writes, it reads a copy taken before the pair.
        if let Some(next) = self.a.instructions.get(idx + 1).copied() {
            let d = ins.dst.reg;
            let writes = ins.opcode.layout(self.v).dst
                && matches!(d.kind, RegisterType::Temp | RegisterType::AddrOrTexture);
            if next.coissue && writes && next.src().iter().any(|s| s.reg == d) {
                let var = match d.kind {
                    RegisterType::Temp => format!("r{}", d.num),
                    _ => format!("t{}", d.num),
                };
                let copy = format!("{var}_pair");
                self.line("{");
                self.indent += 1;
                self.line(&format!(
                    "float4 {copy} = {var}; // the co-issued pair reads {var} before either writes"
                ));
                self.instruction_body(idx, last)?;
                self.alias = Some((d, copy));
                self.instruction_body(idx + 1, last)?;
                self.alias = None;
                self.skip_to = idx + 2;
                self.indent -= 1;
                self.line("}");
                return Ok(());
            }
        }
        self.instruction_body(idx, last)
    }

    fn instruction_body(&mut self, idx: usize, last: bool) -> Result<(), Error> {
        let ins = self.a.instructions[idx];
        let op = ins.opcode;
        let v = self.v;
        match op {
            Opcode::Dcl | Opcode::Def | Opcode::DefI | Opcode::DefB | Opcode::Nop => Ok(()),
            Opcode::Comment | Opcode::End | Opcode::Reserved0 => Ok(()),
            Opcode::Phase => {
                // ps_1_4: temporaries' alpha does not survive the phase boundary.
                let temps: Vec<u16> = self.temps.iter().copied().collect();
                self.line("// phase: temporaries' alpha is not kept");
                for t in temps {
                    self.line(&format!("r{t}.w = 0;"));
                }
                Ok(())
            }
            Opcode::Label => Ok(()),
            Opcode::Ret => {
                if !last {
                    if self.in_sub {
                        self.line("return;");
                    } else {
                        self.line(&self.return_stmt());
                    }
                }
                Ok(())
            }
            Opcode::If => {
                let c = self.condition(&ins.srcs[0], idx)?;
                self.line(&format!("if ({c})"));
                self.line("{");
                self.indent += 1;
                Ok(())
            }
            Opcode::IfC => {
                let c = self.compare(&ins, idx)?;
                self.line(&format!("if ({c})"));
                self.line("{");
                self.indent += 1;
                Ok(())
            }
            Opcode::Else => {
                self.indent = self.indent.saturating_sub(1);
                self.line("}");
                self.line("else");
                self.line("{");
                self.indent += 1;
                Ok(())
            }
            Opcode::EndIf | Opcode::EndLoop | Opcode::EndRep => {
                if matches!(op, Opcode::EndLoop | Opcode::EndRep) {
                    self.loops.pop();
                }
                self.indent = self.indent.saturating_sub(1);
                self.line("}");
                Ok(())
            }
            Opcode::Rep => {
                let (count, _, _, constant) = self.int_parts(&ins.srcs[0], idx)?;
                let k = self.counter();
                if constant {
                    self.line(&format!("for (int {k} = 0; {k} < {count}; {k}++)"));
                    self.line("{");
                    self.indent += 1;
                } else if !self.bounded_loops {
                    self.dynamic_loops = true;
                    self.line("[loop]");
                    self.line(&format!("for (int {k} = 0; {k} < {count}; {k}++)"));
                    self.line("{");
                    self.indent += 1;
                } else {
                    // A count read at run time: D3D9 runs at most 255 iterations.
                    self.dynamic_loops = true;
                    self.line(&format!(
                        "for (int {k} = 0; {k} < 255; {k}++) // rep {count}: D3D9 runs 0-255 iterations"
                    ));
                    self.line("{");
                    self.indent += 1;
                    self.line(&format!("if ({k} >= {count})"));
                    self.line("    break;");
                }
                self.loops.push(None);
                Ok(())
            }
            Opcode::Loop => {
                let (count, start, step, constant) = self.int_parts(&ins.srcs[1], idx)?;
                let k = self.counter();
                let al = if self.loops.iter().flatten().count() == 0 {
                    "aL".to_string()
                } else {
                    format!("aL{}", self.loops.iter().flatten().count())
                };
                if constant {
                    self.line(&format!(
                        "for (int {al} = {start}, {k} = 0; {k} < {count}; {k}++, {al} += {step})"
                    ));
                    self.line("{");
                    self.indent += 1;
                } else if !self.bounded_loops {
                    self.dynamic_loops = true;
                    self.line("[loop]");
                    self.line(&format!(
                        "for (int {al} = {start}, {k} = 0; {k} < {count}; {k}++, {al} += {step})"
                    ));
                    self.line("{");
                    self.indent += 1;
                } else {
                    self.dynamic_loops = true;
                    self.line(&format!(
                        "for (int {al} = {start}, {k} = 0; {k} < 255; {k}++, {al} += {step}) // loop: D3D9 runs 0-255 iterations"
                    ));
                    self.line("{");
                    self.indent += 1;
                    self.line(&format!("if ({k} >= {count})"));
                    self.line("    break;");
                }
                self.loops.push(Some(al));
                Ok(())
            }
            Opcode::Break => {
                self.line("break;");
                Ok(())
            }
            Opcode::BreakC => {
                let c = self.compare(&ins, idx)?;
                self.line(&format!("if ({c})"));
                self.line("    break;");
                Ok(())
            }
            Opcode::BreakP => {
                let c = self.condition(&ins.srcs[0], idx)?;
                self.line(&format!("if ({c})"));
                self.line("    break;");
                Ok(())
            }
            Opcode::Call => {
                self.line(&format!("l{}();", ins.srcs[0].reg.num));
                Ok(())
            }
            Opcode::CallNz => {
                let c = self.condition(&ins.srcs[1], idx)?;
                self.line(&format!("if ({c})"));
                self.line(&format!("    l{}();", ins.srcs[0].reg.num));
                Ok(())
            }
            Opcode::TexKill => {
                let mask = if v.major < 2 { 0x7 } else { ins.dst.mask };
                let comps = mask_comps(mask);
                let s = SrcParam {
                    reg: ins.dst.reg,
                    rel: None,
                    swizzle: d3dbc::ir::SWIZZLE_IDENTITY,
                    modifier: SrcModifier::None,
                };
                let e = self.src(&s, &comps, idx)?;
                self.line(&format!("clip({});", e.text));
                Ok(())
            }
            Opcode::TexDepth => {
                // ps_1_4: depth = r5.r / r5.g (1 where r5.g is 0).
                self.temps.insert(5);
                self.line("o.depth = r5.y == 0 ? 1 : r5.x / r5.y;");
                Ok(())
            }
            _ => self.compute(idx, &ins),
        }
    }

    fn return_stmt(&self) -> String {
        "return o;".to_string()
    }

    fn counter(&mut self) -> String {
        let k = format!("k{}", self.depth_counter);
        self.depth_counter += 1;
        k
    }

    /// `count`, `start`, `step` of an integer constant (`rep`/`loop` operand), and
    /// whether they are the shader's own (`defi`).
    fn int_parts(
        &mut self,
        s: &SrcParam,
        idx: usize,
    ) -> Result<(String, String, String, bool), Error> {
        let n = s.reg.num;
        if let Some(d) = self.a.int_def(n) {
            return Ok((d[0].to_string(), d[1].to_string(), d[2].to_string(), true));
        }
        let Some(name) = self.u.ints.get(&n).cloned() else {
            return Err(self.unsupported(idx, "an integer constant without a declaration"));
        };
        Ok((
            format!("{name}.x"),
            format!("{name}.y"),
            format!("{name}.z"),
            false,
        ))
    }

    /// A boolean condition: `b#`, `p0.x`, `!p0.x`.
    fn condition(&mut self, s: &SrcParam, idx: usize) -> Result<String, Error> {
        match s.reg.kind {
            RegisterType::ConstBool => {
                if let Some(b) = self.a.bool_def(s.reg.num) {
                    return Ok(if b { "true".into() } else { "false".into() });
                }
                self.u
                    .bools
                    .get(&s.reg.num)
                    .cloned()
                    .ok_or_else(|| self.unsupported(idx, "an undeclared boolean constant"))
            }
            RegisterType::Predicate => {
                let c = s.swizzle & 3;
                let not = if s.modifier == SrcModifier::Not {
                    "!"
                } else {
                    ""
                };
                Ok(format!("{not}p0.{}", text::XYZW[c as usize]))
            }
            _ => Err(self.unsupported(idx, "a condition register")),
        }
    }

    /// `a.x < b.x` of `ifc`/`breakc`.
    fn compare(&mut self, ins: &Instruction, idx: usize) -> Result<String, Error> {
        let a = self.src(&ins.srcs[0], &[0], idx)?;
        let b = self.src(&ins.srcs[1], &[0], idx)?;
        let op = comparison(ins.comparison());
        Ok(format!("{} {op} {}", a.at(Prec::Add), b.at(Prec::Add)))
    }
}
