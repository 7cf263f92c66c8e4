//! The back ends' view of the shared pre-pass ([`crate::Analysis`]): the analysis itself
//! (registers read and written, declarations, `def*` constants, flow control, the split
//! into the main program and `label` subroutines) with its problems turned into
//! [`Error`]s at DWORD offsets, the input and output declarations in the form a back end
//! binds them (once per shader, not per instruction), and the order subroutines are
//! translated in. Both translators start here, so they refuse the same shaders with the
//! same messages.

use std::ops::Range;

use crate::analysis::{Analysis, Problem, Varying};
use crate::ir::Instruction;
use crate::opcode::{Flow, Role};
use crate::RegisterType;

use super::Error;

/// The pre-pass's facts and the declarations derived from them.
pub struct Scan {
    /// The shared pre-pass.
    pub analysis: Analysis,
    /// Input (`v#`, `t#`) declarations with usages, in declaration order.
    pub inputs: Vec<(RegisterType, Varying)>,
    /// vs_3_0 output declarations, in declaration order.
    pub outputs: Vec<Varying>,
}

impl std::ops::Deref for Scan {
    type Target = Analysis;
    fn deref(&self) -> &Analysis {
        &self.analysis
    }
}

impl std::ops::DerefMut for Scan {
    fn deref_mut(&mut self) -> &mut Analysis {
        &mut self.analysis
    }
}

/// Checks the analysis (a problem is an error at its instruction's DWORD offset, or the
/// end token's) and derives the declarations.
pub fn scan(analysis: Analysis) -> Result<Scan, Error> {
    check(&analysis)?;
    let inputs = analysis.inputs().collect();
    let outputs = analysis.outputs().collect();
    Ok(Scan {
        analysis,
        inputs,
        outputs,
    })
}

/// The analysis's problem as an error at its instruction's DWORD offset (or the end
/// token's).
fn check(analysis: &Analysis) -> Result<(), Error> {
    let Some((i, p)) = analysis.problem else {
        return Ok(());
    };
    let offset = analysis.offsets[i];
    Err(match p {
        Problem::Register(kind, num) => Error::Register { offset, kind, num },
        Problem::UnbalancedEnd | Problem::LabelInBlock | Problem::Unclosed => Error::Flow {
            offset,
            why: p.why(),
        },
    })
}

impl Scan {
    /// `shader`'s scan in place of this one, every buffer kept ([`Analysis::refill`]):
    /// what [`scan`]`(Analysis::new(shader))` gives, for a translator that keeps one
    /// per thread. After an error the scan is not the shader's (refill it again before
    /// reading it).
    pub fn refill(&mut self, shader: &crate::Shader) -> Result<(), Error> {
        self.analysis.refill(shader);
        self.derive()
    }

    /// [`Scan::refill`] from a token stream, decoded straight into the analysis
    /// ([`Analysis::refill_tokens`]; a stream that does not decode is
    /// [`Error::Decode`]).
    pub fn refill_tokens(&mut self, tokens: &[u32]) -> Result<(), Error> {
        self.analysis.refill_tokens(tokens).map_err(Error::Decode)?;
        self.derive()
    }

    /// The check and the declarations, once the analysis is refilled.
    fn derive(&mut self) -> Result<(), Error> {
        check(&self.analysis)?;
        self.inputs.clear();
        self.inputs.extend(self.analysis.inputs());
        self.outputs.clear();
        self.outputs.extend(self.analysis.outputs());
        Ok(())
    }
}

/// The subroutines (`subs`, as [`Analysis::subs`] lists them: label number, body range
/// in `ins`) in an order where every callee comes before its callers, so that a back end
/// can translate each one before the first call to it. `offsets` holds each
/// instruction's DWORD offset.
///
/// A label defined twice is an error at its second definition, a call cycle one at the
/// call that closes it. The walk is iterative: a deep call chain takes heap, not stack.
pub fn call_order(
    subs: &[(u16, Range<usize>)],
    ins: &[Instruction],
    offsets: &[u32],
) -> Result<Vec<usize>, Error> {
    let at = |i: usize| offsets.get(i).copied().unwrap_or(0);
    for (i, (label, range)) in subs.iter().enumerate() {
        if subs[..i].iter().any(|s| s.0 == *label) {
            // The body starts after its `label` instruction.
            return Err(Error::Flow {
                offset: at(range.start.saturating_sub(1)),
                why: "label defined twice",
            });
        }
    }
    let n = subs.len();
    // 0: not visited, 1: on the current call path, 2: done.
    let mut state = vec![0u8; n];
    let mut order = Vec::with_capacity(n);
    // Depth-first: (subroutine, next instruction index).
    let mut stack: Vec<(usize, usize)> = Vec::new();
    for root in 0..n {
        if state[root] != 0 {
            continue;
        }
        state[root] = 1;
        stack.push((root, subs[root].1.start));
        while let Some(&mut (i, ref mut pc)) = stack.last_mut() {
            let end = subs[i].1.end;
            let mut callee = None;
            while *pc < end {
                let x = &ins[*pc];
                *pc += 1;
                if !matches!(x.opcode.role(), Role::Flow(Flow::Call | Flow::CallNz)) {
                    continue;
                }
                let Some(j) = subs.iter().position(|s| s.0 == x.srcs[0].reg.num) else {
                    continue;
                };
                match state[j] {
                    0 => {
                        callee = Some(j);
                        break;
                    }
                    1 => {
                        return Err(Error::Flow {
                            offset: at(*pc - 1),
                            why: "recursive call",
                        })
                    }
                    _ => {}
                }
            }
            match callee {
                Some(j) => {
                    state[j] = 1;
                    stack.push((j, subs[j].1.start));
                }
                None => {
                    state[i] = 2;
                    order.push(i);
                    stack.pop();
                }
            }
        }
    }
    Ok(order)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Shader;

    fn order(text: &str) -> Result<Vec<u16>, Error> {
        let o = crate::asm::Options {
            raw: true,
            ..Default::default()
        };
        let s: Shader = crate::asm::assemble(text, &o).expect("assembles");
        let a = Analysis::new(&s);
        let order = call_order(&a.subs, &a.instructions, &a.offsets)?;
        Ok(order.into_iter().map(|i| a.subs[i].0).collect())
    }

    #[test]
    fn callees_come_before_their_callers() {
        let text =
            "vs_2_0\ncall l1\nret\nlabel l1\ncall l2\nret\nlabel l2\ncall l3\nret\nlabel l3\nret\n";
        assert_eq!(order(text).unwrap(), [3, 2, 1]);
    }

    #[test]
    fn recursion_and_a_label_defined_twice_are_flow_errors_where_they_happen() {
        // call l1 at 1-2, ret 3, label l1 4-5, call l1 6-7.
        let e = order("vs_2_0\ncall l1\nret\nlabel l1\ncall l1\nret\n").unwrap_err();
        assert_eq!(
            e,
            Error::Flow {
                offset: 6,
                why: "recursive call"
            }
        );
        assert_eq!(e.to_string(), "+0006: recursive call");
        // ret 1, label l1 2-3, ret 4, label l1 5-6.
        let e = order("vs_2_0\nret\nlabel l1\nret\nlabel l1\nret\n").unwrap_err();
        assert_eq!(
            e,
            Error::Flow {
                offset: 5,
                why: "label defined twice"
            }
        );
    }
}
