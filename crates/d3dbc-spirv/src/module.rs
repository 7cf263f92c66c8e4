//! The SPIR-V word builder: ids, the interned type, pointer and constant tables, and
//! the module's sections (annotations, types/constants/globals, functions), put
//! together into one output vector whose header bound is patched at the end.
//!
//! Every instruction is written straight into its section's `Vec<u32>` from one block on
//! the stack: nothing is allocated per instruction. Types and pointers live in fixed
//! arrays indexed by [`T`] and storage class; scalar and vector constants in one
//! open-addressing table keyed by their words; the pure instructions of the current
//! block in a direct-mapped one ([`Lvn`]). A thread keeps its last module
//! ([`Module::take`], [`Module::recycle`]), so a translation allocates only its output.

use spirv::{Op, StorageClass};

/// The types a translation uses (index into the fixed type table).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub(crate) enum T {
    Void,
    Bool,
    F32,
    I32,
    U32,
    V2F,
    V3F,
    V4F,
    V4I,
    V4U,
    V4B,
    FnVoid,
    Sampler,
    Img2D,
    ImgCube,
    Img3D,
    SImg2D,
    SImgCube,
    SImg3D,
}

const NT: usize = T::SImg3D as usize + 1;

/// How each [`T`] is declared: the instruction's words (the result id at word 1 left 0)
/// and the type it is made of, whose id goes to word 2 (declared first).
type TypeDecl = ([u32; 9], Option<T>);

/// A [`TypeDecl`] of `op` made of `of` with the literal operands `lits` after it.
const fn type_decl(op: Op, of: Option<T>, lits: &[u32]) -> TypeDecl {
    let mut w = [0u32; 9];
    let base = 2 + of.is_some() as usize;
    w[0] = (((base + lits.len()) as u32) << 16) | op as u32;
    let mut i = 0;
    while i < lits.len() {
        w[base + i] = lits[i];
        i += 1;
    }
    (w, of)
}

/// An image type of `dim`: float samples, not depth, arrayed or multisampled, sampled,
/// format Unknown.
const fn image_decl(dim: spirv::Dim) -> TypeDecl {
    type_decl(Op::TypeImage, Some(T::F32), &[dim as u32, 0, 0, 0, 1, 0])
}

/// Every type's declaration, indexed by [`T`].
const TYPE_DECLS: [TypeDecl; NT] = [
    type_decl(Op::TypeVoid, None, &[]),
    type_decl(Op::TypeBool, None, &[]),
    type_decl(Op::TypeFloat, None, &[32]),
    type_decl(Op::TypeInt, None, &[32, 1]),
    type_decl(Op::TypeInt, None, &[32, 0]),
    type_decl(Op::TypeVector, Some(T::F32), &[2]),
    type_decl(Op::TypeVector, Some(T::F32), &[3]),
    type_decl(Op::TypeVector, Some(T::F32), &[4]),
    type_decl(Op::TypeVector, Some(T::I32), &[4]),
    type_decl(Op::TypeVector, Some(T::U32), &[4]),
    type_decl(Op::TypeVector, Some(T::Bool), &[4]),
    type_decl(Op::TypeFunction, Some(T::Void), &[]),
    type_decl(Op::TypeSampler, None, &[]),
    image_decl(spirv::Dim::Dim2D),
    image_decl(spirv::Dim::DimCube),
    image_decl(spirv::Dim::Dim3D),
    type_decl(Op::TypeSampledImage, Some(T::Img2D), &[]),
    type_decl(Op::TypeSampledImage, Some(T::ImgCube), &[]),
    type_decl(Op::TypeSampledImage, Some(T::Img3D), &[]),
];

/// The storage classes pointers are made for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub(crate) enum Sc {
    Function,
    Private,
    Input,
    Output,
    Uniform,
    UniformConstant,
}

const NSC: usize = Sc::UniformConstant as usize + 1;
impl Sc {
    fn spirv(self) -> StorageClass {
        match self {
            Sc::Function => StorageClass::Function,
            Sc::Private => StorageClass::Private,
            Sc::Input => StorageClass::Input,
            Sc::Output => StorageClass::Output,
            Sc::Uniform => StorageClass::Uniform,
            Sc::UniformConstant => StorageClass::UniformConstant,
        }
    }
}

/// Writes one instruction: the word count and opcode, then the operands.
#[inline]
pub(crate) fn inst(buf: &mut Vec<u32>, op: Op, operands: &[u32]) {
    let n = operands.len();
    let head = ((n as u32 + 1) << 16) | op as u32;
    if n <= 10 {
        // One capacity check and one fixed-size copy where the call site's operand
        // count is a constant (nearly all of them).
        let mut w = [0u32; 11];
        w[0] = head;
        w[1..1 + n].copy_from_slice(operands);
        buf.extend_from_slice(&w[..n + 1]);
    } else {
        buf.push(head);
        buf.extend_from_slice(operands);
    }
}

thread_local! {
    /// A finished translation's module, kept for the thread's next one.
    static SPARE: std::cell::Cell<Option<Box<Module>>> = const { std::cell::Cell::new(None) };
}

/// The most buffer words a recycled module keeps (1 MiB).
const KEEP_WORDS: usize = 1 << 18;

/// The module under construction.
pub(crate) struct Module {
    next: u32,
    /// `OpDecorate`/`OpMemberDecorate`.
    pub dec: Vec<u32>,
    /// Types, constants and global variables, in definition order.
    pub glob: Vec<u32>,
    /// Finished functions.
    pub funcs: Vec<u32>,
    /// `OpVariable`s of the function under construction (its first block).
    pub vars: Vec<u32>,
    /// Body of the function under construction.
    pub body: Vec<u32>,
    types: [u32; NT],
    ptrs: [[u32; NT]; NSC],
    scalars: ConstTable<u64>,
    vectors: ConstTable<VecKey>,
    nulls: [u32; NT],
    /// The `GLSL.std.450` import.
    pub glsl: u32,
    /// The id of `vec4(0.0)` once interned (0: not yet): asked for at every `0·x` test,
    /// it skips the table.
    zero4: u32,
    /// The ids of the `I32` and `U32` constants below [`SMALL_INTS`] (uniform indices,
    /// register numbers, components), each with the `generation` it was interned in:
    /// they skip the table.
    small_ints: [[(u32, u32); SMALL_INTS]; 2],
    generation: u32,
    /// The current block's pure instructions (the emitter merges identical ones).
    pub lvn: Lvn,
    /// The components of each float constant (`F32`: the first), sorted by id.
    float_values: Vec<(u32, [u32; 4])>,
    /// Bit `id` set where `id` is in `float_values`: most ids asked about are not, and
    /// are answered without the search.
    float_ids: Vec<u64>,
}

/// The small integer constants [`Module`] finds by value.
const SMALL_INTS: usize = 256;

impl Module {
    pub fn new() -> Module {
        let mut m = Module {
            next: 1,
            dec: Vec::with_capacity(256),
            glob: Vec::with_capacity(1024),
            funcs: Vec::new(),
            vars: Vec::with_capacity(64),
            body: Vec::with_capacity(4096),
            types: [0; NT],
            ptrs: [[0; NT]; NSC],
            scalars: ConstTable::new(),
            vectors: ConstTable::new(),
            nulls: [0; NT],
            glsl: 0,
            zero4: 0,
            small_ints: [[(0, 0); SMALL_INTS]; 2],
            generation: 1,
            lvn: Lvn::new(),
            float_values: Vec::new(),
            float_ids: Vec::new(),
        };
        m.glsl = m.id();
        m
    }

    /// This module emptied for the next shader, its buffers' capacity kept.
    pub fn reset(&mut self) {
        self.next = 1;
        self.dec.clear();
        self.glob.clear();
        self.funcs.clear();
        self.vars.clear();
        self.body.clear();
        self.types = [0; NT];
        self.ptrs = [[0; NT]; NSC];
        self.scalars.clear();
        self.vectors.clear();
        self.float_values.clear();
        self.float_ids.clear();
        self.nulls = [0; NT];
        self.zero4 = 0;
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.small_ints = [[(0, 0); SMALL_INTS]; 2];
            self.generation = 1;
        }
        self.lvn.clear();
        self.glsl = self.id();
    }

    /// A module for one translation: the thread's spare one (see [`Module::recycle`]),
    /// reset, or a new one. Translating many shaders then allocates nothing but each
    /// one's output.
    pub fn take() -> Box<Module> {
        match SPARE.with(|s| s.take()) {
            Some(mut m) => {
                m.reset();
                m
            }
            None => Box::new(Module::new()),
        }
    }

    /// Keeps this module's buffers for the thread's next translation (buffers grown
    /// past [`KEEP_WORDS`] by an unusually large shader are dropped instead).
    pub fn recycle(self: Box<Self>) {
        if self.body.capacity() + self.glob.capacity() + self.funcs.capacity() <= KEEP_WORDS {
            SPARE.with(|s| s.set(Some(self)));
        }
    }

    /// A fresh id.
    #[inline]
    pub fn id(&mut self) -> u32 {
        let i = self.next;
        self.next += 1;
        i
    }

    /// The id of type `t`, declared on first use.
    #[inline]
    pub fn ty(&mut self, t: T) -> u32 {
        match self.types[t as usize] {
            0 => self.declare_type(t),
            id => id,
        }
    }

    /// Declares type `t` from its row of [`TYPE_DECLS`] (the type it is made of first).
    /// A table, not a match: the match compiled to a jump whose target changes from one
    /// first use to the next (cachegrind counts a sixth fewer mispredicted indirect
    /// branches in a translation with the table), and `spirv_speed` ran about 3 % faster
    /// in alternating runs.
    #[cold]
    fn declare_type(&mut self, t: T) -> u32 {
        let (mut w, of) = TYPE_DECLS[t as usize];
        if let Some(of) = of {
            w[2] = self.ty(of);
        }
        let id = self.id();
        w[1] = id;
        self.glob.extend_from_slice(&w[..(w[0] >> 16) as usize]);
        self.types[t as usize] = id;
        id
    }

    /// A pointer to `t` in `sc`.
    #[inline]
    pub fn ptr(&mut self, sc: Sc, t: T) -> u32 {
        let (s, i) = (sc as usize, t as usize);
        if self.ptrs[s][i] != 0 {
            return self.ptrs[s][i];
        }
        let ty = self.ty(t);
        let id = self.id();
        inst(
            &mut self.glob,
            Op::TypePointer,
            &[id, sc.spirv() as u32, ty],
        );
        self.ptrs[s][i] = id;
        id
    }

    /// A pointer type to an aggregate `ty` (not interned).
    pub fn ptr_to(&mut self, sc: Sc, ty: u32) -> u32 {
        let id = self.id();
        inst(
            &mut self.glob,
            Op::TypePointer,
            &[id, sc.spirv() as u32, ty],
        );
        id
    }

    /// A global variable of pointer type `ptr` in `sc`.
    pub fn global(&mut self, ptr: u32, sc: Sc) -> u32 {
        let id = self.id();
        inst(&mut self.glob, Op::Variable, &[ptr, id, sc.spirv() as u32]);
        id
    }

    /// The components' bits of `id` if it is a float constant (`F32`: the first).
    #[inline]
    pub fn float_value(&self, id: u32) -> Option<[u32; 4]> {
        let word = self.float_ids.get(id as usize / 64).copied().unwrap_or(0);
        if word & (1 << (id % 64)) == 0 {
            return None;
        }
        let f = &self.float_values;
        f.binary_search_by_key(&id, |e| e.0).ok().map(|i| f[i].1)
    }

    /// A scalar constant of type `t` with bits `bits`.
    #[inline]
    pub fn scalar(&mut self, t: T, bits: u32) -> u32 {
        let key = ((t as u64) << 32) | bits as u64;
        match self.scalars.get(key) {
            Some(id) => id,
            None => self.new_scalar(t, bits, key),
        }
    }

    /// Declares the scalar constant [`Self::scalar`] did not find.
    #[inline(never)]
    fn new_scalar(&mut self, t: T, bits: u32, key: u64) -> u32 {
        let ty = self.ty(t);
        let id = self.id();
        if t == T::Bool {
            inst(
                &mut self.glob,
                if bits != 0 {
                    Op::ConstantTrue
                } else {
                    Op::ConstantFalse
                },
                &[ty, id],
            );
        } else {
            inst(&mut self.glob, Op::Constant, &[ty, id, bits]);
        }
        self.scalars.insert(key, id);
        if t == T::F32 {
            self.float_constant(id, [bits, 0, 0, 0]);
        }
        id
    }

    /// Notes float constant `id` (for [`Self::float_value`]).
    fn float_constant(&mut self, id: u32, bits: [u32; 4]) {
        // Ids are handed out in increasing order, so the list stays sorted.
        self.float_values.push((id, bits));
        let word = id as usize / 64;
        if word >= self.float_ids.len() {
            self.float_ids.resize(word + 1, 0);
        }
        self.float_ids[word] |= 1 << (id % 64);
    }

    /// A small integer constant (`v` below [`SMALL_INTS`]) of `t`, `I32` or `U32`.
    #[inline]
    fn small_int(&mut self, t: T, v: u32) -> u32 {
        let k = usize::from(t == T::U32);
        let (g, id) = self.small_ints[k][v as usize];
        if g == self.generation {
            return id;
        }
        let id = self.scalar(t, v);
        self.small_ints[k][v as usize] = (self.generation, id);
        id
    }

    pub fn f(&mut self, v: f32) -> u32 {
        self.scalar(T::F32, v.to_bits())
    }
    pub fn i(&mut self, v: i32) -> u32 {
        match v as u32 {
            v if (v as usize) < SMALL_INTS => self.small_int(T::I32, v),
            v => self.scalar(T::I32, v),
        }
    }
    pub fn u(&mut self, v: u32) -> u32 {
        if (v as usize) < SMALL_INTS {
            return self.small_int(T::U32, v);
        }
        self.scalar(T::U32, v)
    }
    pub fn b(&mut self, v: bool) -> u32 {
        self.scalar(T::Bool, v as u32)
    }

    /// A 4-component constant vector of type `t` (V4F, V4I, V4U, V4B) from its
    /// components' bits.
    #[inline]
    pub fn vec4(&mut self, t: T, bits: [u32; 4]) -> u32 {
        let key = VecKey(t, bits);
        match self.vectors.get(key) {
            Some(id) => id,
            None => self.new_vec4(key),
        }
    }

    /// Declares the vector constant [`Self::vec4`] did not find.
    #[inline(never)]
    fn new_vec4(&mut self, key: VecKey) -> u32 {
        let VecKey(t, bits) = key;
        let st = match t {
            T::V4F => T::F32,
            T::V4I => T::I32,
            T::V4U => T::U32,
            _ => T::Bool,
        };
        // A splat's component looked up once (the same id four times).
        let c = if bits[1..].iter().all(|&b| b == bits[0]) {
            [self.scalar(st, bits[0]); 4]
        } else {
            bits.map(|b| self.scalar(st, b))
        };
        let ty = self.ty(t);
        let id = self.id();
        inst(
            &mut self.glob,
            Op::ConstantComposite,
            &[ty, id, c[0], c[1], c[2], c[3]],
        );
        self.vectors.insert(key, id);
        if t == T::V4F {
            self.float_constant(id, bits);
        }
        id
    }

    pub fn vec4f(&mut self, v: [f32; 4]) -> u32 {
        self.vec4(T::V4F, v.map(f32::to_bits))
    }
    pub fn splat_f(&mut self, v: f32) -> u32 {
        self.vec4f([v; 4])
    }

    /// `vec4(0.0)`.
    #[inline]
    pub fn zero4(&mut self) -> u32 {
        if self.zero4 == 0 {
            self.zero4 = self.splat_f(0.0);
        }
        self.zero4
    }

    /// `OpConstantNull` of `t`.
    pub fn null(&mut self, t: T) -> u32 {
        let i = t as usize;
        if self.nulls[i] == 0 {
            let ty = self.ty(t);
            let id = self.id();
            inst(&mut self.glob, Op::ConstantNull, &[ty, id]);
            self.nulls[i] = id;
        }
        self.nulls[i]
    }

    /// Decorates `id`.
    pub fn decorate(&mut self, id: u32, d: spirv::Decoration, args: &[u32]) {
        let n = args.len();
        let head = ((n as u32 + 3) << 16) | Op::Decorate as u32;
        if n <= 4 {
            let mut w = [0u32; 7];
            w[0] = head;
            w[1] = id;
            w[2] = d as u32;
            w[3..3 + n].copy_from_slice(args);
            self.dec.extend_from_slice(&w[..n + 3]);
        } else {
            self.dec.extend_from_slice(&[head, id, d as u32]);
            self.dec.extend_from_slice(args);
        }
    }

    /// The id bound (one past the largest id).
    pub fn bound(&self) -> u32 {
        self.next
    }
}

const LVN_SLOTS: usize = 256;

/// Local value numbering: the pure instructions emitted since the current block's label,
/// keyed by opcode, result type and operands, in a direct-mapped table (a collision
/// forgets the older entry, which only costs a duplicate). An id found here is defined
/// earlier in the same block, so it dominates the use. A generation number clears the
/// table at every label in O(1).
pub(crate) struct Lvn {
    entries: Vec<LvnEntry>,
    generation: u32,
}

/// One [`Lvn`] slot: the key, the generation it was stored in and the id, in one cache
/// line (a lookup reads one line, where the keys and the ids in two arrays took two, and
/// a 40-byte key straddled lines at every other slot).
#[derive(Clone, Copy)]
#[repr(C, align(64))]
struct LvnEntry {
    key: [u32; 10],
    generation: u32,
    id: u32,
}

impl Lvn {
    fn new() -> Lvn {
        Lvn {
            entries: vec![
                LvnEntry {
                    key: [0; 10],
                    generation: 0,
                    id: 0,
                };
                LVN_SLOTS
            ],
            generation: 1,
        }
    }

    /// Whether instructions of `op` are looked up at all: those a translation repeats
    /// within a block often enough to pay for the lookup (swizzles, the `0·x` rule's
    /// comparisons with zero, constant-buffer reads), measured over the corpus: they
    /// were 15.4 k of the 20 k words merging every pure instruction saved. The rest
    /// (arithmetic, selects, extracts, constructs, GLSL.std.450) is written straight.
    #[inline]
    pub fn merges(op: Op) -> bool {
        matches!(
            op,
            Op::VectorShuffle | Op::FOrdEqual | Op::AccessChain | Op::Load
        )
    }

    #[inline]
    pub fn key<const N: usize>(op: Op, ty: u32, args: [u32; N]) -> (usize, [u32; 10]) {
        let mut k = [0u32; 10];
        k[0] = ((N as u32) << 16) | op as u32;
        k[1] = ty;
        let mut h = k[0].wrapping_mul(0x9E37_79B9) ^ ty;
        for (i, a) in args.into_iter().enumerate() {
            k[2 + i] = a;
            h = (h.rotate_left(5) ^ a).wrapping_mul(0x9E37_79B9);
        }
        ((h >> 24) as usize % LVN_SLOTS, k)
    }

    /// The id of the instruction with `key` (of [`Self::key`] for `N` operands). Only
    /// the key's first `N + 2` words are compared: its first word holds `N`, so an
    /// entry that matches it has no other words.
    #[inline]
    pub fn get<const N: usize>(&self, slot: usize, key: &[u32; 10]) -> Option<u32> {
        let e = &self.entries[slot];
        // Word by word without early exit: compiles to a few compares where `==` on
        // the slice calls `memcmp`.
        let k = &e.key;
        let mut diff = e.generation ^ self.generation;
        for i in 0..N + 2 {
            diff |= k[i] ^ key[i];
        }
        (diff == 0).then_some(e.id)
    }

    /// Records `key` (its first `N + 2` words, as [`Self::get`] reads them).
    #[inline]
    pub fn put<const N: usize>(&mut self, slot: usize, key: &[u32; 10], id: u32) {
        let e = &mut self.entries[slot];
        e.key[..N + 2].copy_from_slice(&key[..N + 2]);
        e.generation = self.generation;
        e.id = id;
    }

    /// Forgets everything (a new block).
    pub fn clear(&mut self) {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            for e in &mut self.entries {
                e.generation = 0;
            }
            self.generation = 1;
        }
    }
}

/// A key of a [`ConstTable`]: compared whole, hashed to 32 bits.
trait ConstKey: Copy + PartialEq {
    /// The key of an unused slot (any value: the generation marks use).
    const UNUSED: Self;
    fn hash(&self) -> u32;
}

/// A scalar constant: its type in the high word, its bits in the low one.
impl ConstKey for u64 {
    const UNUSED: u64 = 0;
    #[inline]
    fn hash(&self) -> u32 {
        (self.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32) as u32
    }
}

/// A vector constant: its type and components' bits.
#[derive(Clone, Copy, PartialEq)]
struct VecKey(T, [u32; 4]);

impl ConstKey for VecKey {
    const UNUSED: VecKey = VecKey(T::Void, [0; 4]);
    #[inline]
    fn hash(&self) -> u32 {
        let b = &self.1;
        let h = (b[0] ^ b[1].rotate_left(7) ^ b[2].rotate_left(13) ^ b[3].rotate_left(19))
            .wrapping_mul(0x9E37_79B9)
            ^ (self.0 as u32).wrapping_mul(0x85EB_CA6B);
        h.wrapping_mul(0x9E37_79B9)
    }
}

/// Interned constants (one table for scalars, one for vectors): open addressing with
/// linear probing, whose entries carry the generation they were written in, so that
/// clearing it for the next shader is one increment; it doubles when half full.
struct ConstTable<K> {
    slots: Vec<ConstSlot<K>>,
    len: usize,
    generation: u32,
}

#[derive(Clone, Copy)]
struct ConstSlot<K> {
    generation: u32,
    id: u32,
    key: K,
}

impl<K: ConstKey> ConstTable<K> {
    const EMPTY: ConstSlot<K> = ConstSlot {
        generation: 0,
        id: 0,
        key: K::UNUSED,
    };

    fn new() -> ConstTable<K> {
        ConstTable {
            slots: vec![Self::EMPTY; 256],
            len: 0,
            generation: 1,
        }
    }

    #[inline]
    fn home(&self, key: &K) -> usize {
        (key.hash() >> 8) as usize & (self.slots.len() - 1)
    }

    #[inline]
    fn get(&self, key: K) -> Option<u32> {
        let mask = self.slots.len() - 1;
        let mut i = self.home(&key);
        loop {
            let s = &self.slots[i];
            if s.generation != self.generation {
                return None;
            }
            if s.key == key {
                return Some(s.id);
            }
            i = (i + 1) & mask;
        }
    }

    fn insert(&mut self, key: K, id: u32) {
        if 2 * (self.len + 1) > self.slots.len() {
            self.grow();
        }
        let mask = self.slots.len() - 1;
        let mut i = self.home(&key);
        while self.slots[i].generation == self.generation {
            i = (i + 1) & mask;
        }
        self.slots[i] = ConstSlot {
            generation: self.generation,
            id,
            key,
        };
        self.len += 1;
    }

    #[cold]
    fn grow(&mut self) {
        let old = std::mem::take(&mut self.slots);
        let live = self.generation;
        self.slots = vec![Self::EMPTY; old.len() * 2];
        self.generation = 1;
        self.len = 0;
        for s in old {
            if s.generation == live {
                self.insert(s.key, s.id);
            }
        }
    }

    fn clear(&mut self) {
        self.len = 0;
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.slots.iter_mut().for_each(|s| s.generation = 0);
            self.generation = 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every type, in [`T`]'s order.
    const ALL: [T; NT] = [
        T::Void,
        T::Bool,
        T::F32,
        T::I32,
        T::U32,
        T::V2F,
        T::V3F,
        T::V4F,
        T::V4I,
        T::V4U,
        T::V4B,
        T::FnVoid,
        T::Sampler,
        T::Img2D,
        T::ImgCube,
        T::Img3D,
        T::SImg2D,
        T::SImgCube,
        T::SImg3D,
    ];

    /// Each type's declaration as its own words, spelled out per variant (the table
    /// must agree with it row for row).
    fn expected(m: &Module, t: T) -> Vec<u32> {
        let id = |u: T| m.types[u as usize];
        let (op, ops): (Op, Vec<u32>) = match t {
            T::Void => (Op::TypeVoid, vec![]),
            T::Bool => (Op::TypeBool, vec![]),
            T::F32 => (Op::TypeFloat, vec![32]),
            T::I32 => (Op::TypeInt, vec![32, 1]),
            T::U32 => (Op::TypeInt, vec![32, 0]),
            T::V2F => (Op::TypeVector, vec![id(T::F32), 2]),
            T::V3F => (Op::TypeVector, vec![id(T::F32), 3]),
            T::V4F => (Op::TypeVector, vec![id(T::F32), 4]),
            T::V4I => (Op::TypeVector, vec![id(T::I32), 4]),
            T::V4U => (Op::TypeVector, vec![id(T::U32), 4]),
            T::V4B => (Op::TypeVector, vec![id(T::Bool), 4]),
            T::FnVoid => (Op::TypeFunction, vec![id(T::Void)]),
            T::Sampler => (Op::TypeSampler, vec![]),
            T::Img2D | T::ImgCube | T::Img3D => {
                let dim = match t {
                    T::Img2D => spirv::Dim::Dim2D,
                    T::ImgCube => spirv::Dim::DimCube,
                    _ => spirv::Dim::Dim3D,
                };
                (Op::TypeImage, vec![id(T::F32), dim as u32, 0, 0, 0, 1, 0])
            }
            T::SImg2D => (Op::TypeSampledImage, vec![id(T::Img2D)]),
            T::SImgCube => (Op::TypeSampledImage, vec![id(T::ImgCube)]),
            T::SImg3D => (Op::TypeSampledImage, vec![id(T::Img3D)]),
        };
        let mut w = vec![((ops.len() as u32 + 2) << 16) | op as u32, id(t)];
        w.extend(ops);
        w
    }

    #[test]
    fn every_type_is_declared_as_its_variant_says_after_what_it_is_made_of() {
        for t in ALL {
            let mut m = Module::new();
            let id = m.ty(t);
            // The declaration is the last instruction written (what it is made of, if
            // new, before it).
            let mine = expected(&m, t);
            assert_eq!(m.glob[m.glob.len() - mine.len()..], mine[..], "{t:?}");
            assert_eq!(m.ty(t), id, "{t:?} declared once");
            if let Some(of) = TYPE_DECLS[t as usize].1 {
                assert!(m.types[of as usize] < id, "{t:?}: {of:?} first");
            }
        }
    }
}
