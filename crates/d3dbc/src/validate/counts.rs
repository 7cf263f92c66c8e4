//! Counts: E0701-E0703 (slot limits) and the end-of-shader checks (E0503 open
//! blocks, E0506 call targets); written-register bookkeeping.

use super::*;

impl State<'_> {
    #[inline]
    pub(super) fn mark_written(&mut self, ins: &Instruction, f: &OpFacts) {
        if !self.ctx.temp_rbw || !f.layout.dst || ins.opcode == Opcode::TexKill {
            return;
        }
        let d = ins.dst.reg;
        let n = d.num as usize;
        if d.kind == RegisterType::Temp && n < 32 {
            // ps_1_x texture instructions (texm3x2pad etc.) fill the whole register.
            let mask = if self.ctx.ps1 && f.class == SlotClass::Texture {
                0xF
            } else {
                ins.dst.mask
            };
            self.temp_written[n] |= mask;
            self.temp_now_written(n);
        }
    }

    #[inline]
    pub(super) fn count(&mut self, ins: &Instruction, f: &OpFacts) {
        if !self.ctx.split_counts {
            // Only the total is limited, and nothing reads the previous instruction.
            self.slots = self.slots.saturating_add(f.slots);
            if self.slots > self.ctx.limits.0 {
                self.count_over(f.slots);
            }
            return;
        }
        let class = f.class;
        let slots = if self.ctx.ps1 {
            // ps_1_x: every instruction is one slot; a co-issued pair shares one.
            u32::from(class != SlotClass::None && !ins.coissue)
        } else {
            f.slots
        };
        self.slots = self.slots.saturating_add(slots);
        match class {
            SlotClass::Arithmetic => self.arith = self.arith.saturating_add(slots),
            SlotClass::Texture => self.tex = self.tex.saturating_add(slots),
            SlotClass::None => {}
        }
        let (total, a, t) = self.ctx.limits;
        if (self.slots > total) | (self.arith > a) | (self.tex > t) {
            self.count_over(slots);
        }
        if class == SlotClass::Arithmetic {
            self.prev_arith = Some((ins.dst.mask, ins.coissue));
        } else if class != SlotClass::None {
            self.prev_arith = None;
        }
    }

    /// The slot-limit findings, once a count is over its limit.
    #[cold]
    #[inline(never)]
    pub(super) fn count_over(&mut self, slots: u32) {
        let v = self.v;
        let (total, a, t) = self.ctx.limits;
        let (n_slots, n_arith, n_tex) = (self.slots, self.arith, self.tex);
        if self.slots > total && self.slots - slots <= total {
            self.err(
                Rule::E0701,
                format_args!("instruction slot {n_slots} exceeds the {v} limit of {total}"),
            );
        }
        if self.arith > a && self.arith - slots <= a {
            self.err(
                Rule::E0703,
                format_args!("arithmetic slot {n_arith} exceeds the {v} limit of {a}"),
            );
        }
        if self.tex > t && self.tex - slots <= t {
            self.err(
                Rule::E0702,
                format_args!("texture slot {n_tex} exceeds the {v} limit of {t}"),
            );
        }
    }

    pub(super) fn finish(&mut self) {
        self.item = self.last_item;
        self.offset = self.last_offset;
        if self.depth != 0 {
            let what = match self.top() {
                Some(Block::Loop) => "loop",
                Some(Block::Rep) => "rep",
                _ => "if",
            };
            self.err(
                Rule::E0503,
                format_args!("{what} block not closed at the end of the shader"),
            );
        }
        if let Some((pad, ..)) = self.pad_expect {
            self.err(
                Rule::E0602,
                format_args!(
                    "{} sequence not completed at the end of the shader",
                    pad.mnemonic(self.v)
                ),
            );
        }
        for w in 0..if self.any_call { 32 } else { 0 } {
            let missing = self.labels_called[w] & !self.labels_defined[w];
            if missing != 0 {
                let n = w * 64 + missing.trailing_zeros() as usize;
                self.err(
                    Rule::E0506,
                    format_args!("call to l{n}, which no label defines"),
                );
                break;
            }
        }
    }
}
