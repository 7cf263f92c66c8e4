//! Register slots: one per register a shader touches, holding its current value as an
//! SSA id, with a backing variable only where flow control needs one; flushing and
//! invalidating at block boundaries.

use super::*;

impl Emitter<'_> {
    pub(super) fn make_slots(&mut self) {
        for k in 0..NKIND {
            let Some(kind) = RegisterType::from_u8(k as u8) else {
                continue;
            };
            let bits = self.scan.used.bits(kind);
            if bits == 0 {
                continue;
            }
            let Some(ty) = d3dbc::regs::holds(self.v, kind) else {
                continue;
            };
            // The set bits in increasing order: a shader names a few registers of
            // the 64 a type can hold.
            let mut rest = bits;
            while rest != 0 {
                let num = rest.trailing_zeros() as u16;
                rest &= rest - 1;
                let var = if self.scan.has_calls {
                    let p = self.m.ptr(Sc::Private, ty.t());
                    let z = self.m.null(ty.t());
                    let id = self.m.id();
                    inst(
                        &mut self.m.glob,
                        Op::Variable,
                        &[p, id, spirv::StorageClass::Private as u32, z],
                    );
                    id
                } else if self.scan.has_flow && self.scan.written.contains(kind, num) {
                    self.local(ty.t())
                } else {
                    0
                };
                self.slot_of[k][num as usize] = self.slots.len() as u16;
                self.slots.push(Slot { kind, num, ty, var });
            }
        }
        self.reset_fn_state();
    }

    pub(super) fn reset_fn_state(&mut self) {
        let n = self.slots.len();
        self.m.lvn.clear();
        self.cache.clear();
        self.cache.resize(n, 0);
        self.dirty.clear();
        self.dirty.resize(n, false);
    }

    /// Slot `i`'s current value: the cached id (inlined), else its first read in the
    /// block.
    #[inline]
    pub(super) fn read_slot(&mut self, i: usize) -> u32 {
        match self.cache[i] {
            0 => self.first_read(i),
            v => v,
        }
    }

    #[inline(never)]
    fn first_read(&mut self, i: usize) -> u32 {
        let s = self.slots[i];
        let h = if s.var != 0 {
            self.load(s.ty.t(), s.var)
        } else {
            self.m.null(s.ty.t())
        };
        self.cache[i] = h;
        h
    }

    pub(super) fn set_slot(&mut self, i: usize, v: u32) {
        self.cache[i] = v;
        self.dirty[i] = true;
    }

    pub(super) fn slot(&self, kind: RegisterType, num: u16) -> Option<usize> {
        if num >= MAX_REG {
            return None;
        }
        let s = self.slot_of[kind as usize][num as usize];
        (s != NONE).then_some(s as usize)
    }

    pub(super) fn flush(&mut self) {
        if self.terminated {
            return;
        }
        for i in 0..self.slots.len() {
            if self.dirty[i] && self.slots[i].var != 0 && self.cache[i] != 0 {
                let (p, v) = (self.slots[i].var, self.cache[i]);
                self.store(p, v);
                self.dirty[i] = false;
            }
        }
    }

    pub(super) fn invalidate(&mut self) {
        for i in 0..self.slots.len() {
            if self.slots[i].var != 0 {
                self.cache[i] = 0;
                self.dirty[i] = false;
            }
        }
    }

    pub(super) fn boundary(&mut self) {
        self.flush();
        self.invalidate();
    }
}
