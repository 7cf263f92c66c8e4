//! Register slots: one per register a shader touches, holding its current value as an
//! SSA handle, with a backing variable only where flow control needs one; flushing and
//! invalidating at block boundaries.

use super::*;

impl Lower<'_> {
    pub(super) fn ty_of(&self, s: SlotTy) -> Handle<Type> {
        match s {
            SlotTy::F4 => self.t.vec4f,
            SlotTy::I4 => self.t.vec4i,
            SlotTy::I1 => self.t.i32,
            SlotTy::B4 => self.t.vec4b,
        }
    }

    /// Creates the slots and their backing storage.
    pub(super) fn make_slots(&mut self) {
        let keys: Vec<Key> = self.scan.used.iter().collect();
        for key in keys {
            let Some(ty) = d3dbc::regs::holds(self.v, key.0) else {
                continue;
            };
            let backing = if self.scan.has_calls {
                let tyh = self.ty_of(ty);
                Backing::Global(self.global(
                    &format!("reg{}_{}", key.0 as u8, key.1),
                    AddressSpace::Private,
                    None,
                    tyh,
                ))
            } else if self.scan.has_flow && self.scan.written.contains(key.0, key.1) {
                let tyh = self.ty_of(ty);
                Backing::Local(self.fun.f.local_variables.append(
                    LocalVariable {
                        name: Some(format!("reg{}_{}", key.0 as u8, key.1)),
                        ty: tyh,
                        init: None,
                    },
                    Span::UNDEFINED,
                ))
            } else {
                Backing::None
            };
            self.index.insert(key, self.slots.len());
            self.slots.push(Slot { key, ty, backing });
        }
        self.reset_fn_state();
    }

    pub(super) fn reset_fn_state(&mut self) {
        let n = self.slots.len();
        self.cache = vec![None; n];
        self.dirty = vec![false; n];
        self.ptrs = vec![None; n];
    }

    pub(super) fn ptr(&mut self, i: usize) -> Option<H> {
        if let Some(p) = self.ptrs[i] {
            return Some(p);
        }
        let p = match self.slots[i].backing {
            Backing::None => return None,
            Backing::Local(l) => self.fun.e(Expression::LocalVariable(l)),
            Backing::Global(g) => self.fun.e(Expression::GlobalVariable(g)),
        };
        self.ptrs[i] = Some(p);
        Some(p)
    }

    pub(super) fn slot_zero(&mut self, i: usize) -> H {
        let ty = self.ty_of(self.slots[i].ty);
        self.fun.e(Expression::ZeroValue(ty))
    }

    pub(super) fn read_slot(&mut self, i: usize) -> H {
        if let Some(h) = self.cache[i] {
            return h;
        }
        let h = match self.ptr(i) {
            Some(p) => self.fun.load(p),
            None => self.slot_zero(i),
        };
        self.cache[i] = Some(h);
        h
    }

    pub(super) fn set_slot(&mut self, i: usize, v: H) {
        self.cache[i] = Some(v);
        self.dirty[i] = true;
    }

    pub(super) fn slot(&mut self, kind: RegisterType, num: u16) -> Option<usize> {
        self.index.get(&(kind, num)).copied()
    }

    /// Stores dirty backed values (before a block boundary or a call).
    pub(super) fn flush(&mut self) {
        for i in 0..self.slots.len() {
            if self.dirty[i] {
                if let (Some(p), Some(v)) = (self.ptr(i), self.cache[i]) {
                    self.fun.store(p, v);
                    self.dirty[i] = false;
                }
            }
        }
    }

    /// Forgets cached values of backed slots (after a block boundary).
    pub(super) fn invalidate(&mut self) {
        for i in 0..self.slots.len() {
            if !matches!(self.slots[i].backing, Backing::None) {
                self.cache[i] = None;
                self.dirty[i] = false;
            }
        }
    }

    pub(super) fn boundary(&mut self) {
        self.flush();
        self.invalidate();
    }
}
