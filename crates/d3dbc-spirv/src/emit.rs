//! The emission pass: D3D9 instructions → SPIR-V words, one instruction at a time.
//!
//! The register model is `d3dbc-naga`'s lowering, instruction for instruction, so both
//! back ends compute the same values and expose the same interface: a register's
//! current value is an SSA id inside straight-line code; only registers written in a
//! shader with flow control are backed by a variable (a function local, or a private
//! global when the shader has subroutines), stored at block boundaries. D3D9 blocks map
//! to SPIR-V structured control flow (`OpSelectionMerge`, `OpLoopMerge`) as they come.
//!
//! `texkill` is deferred, as in the naga lowering: it sets a private flag, the invocation
//! runs on to the end of the entry point and is killed there. A D3D9 pixel killed
//! mid-shader keeps running as a helper so that its quad neighbours' derivatives
//! (`dsx`/`dsy`, the implicit LOD of `texld`) stay right; an immediate `OpKill` would
//! leave them undefined.

use d3dbc::ir::{DstParam, Instruction, RelAddr, SrcParam};
use d3dbc::opcode::{Block, Flow, Role};
use d3dbc::regs;
use d3dbc::semantics::{LogOfZero, MovaTies, MulZero, ReciprocalOfZero};
use d3dbc::target::interface::{self as itf, driver, Interface};
use d3dbc::target::options::{CompareFunc, FogDepth, FogMode, TextureKind, TranslateOptions};
use d3dbc::token::{Comparison, DeclUsage, RegisterType, SamplerType, SrcModifier};
use d3dbc::{Opcode, Version};
use spirv::{BuiltIn, Decoration, GlslStd450Op as G, Op};

use crate::module::{inst, Module, Sc, T};
use crate::scan::{Decl, Scan, MAX_REG, NKIND};
use crate::{Error, LinkRead};

/// What a slot holds: the register table's value kind.
use d3dbc::regs::Holds as SlotTy;

/// The SPIR-V type of a slot's value.
trait SlotType {
    fn t(self) -> T;
}

impl SlotType for SlotTy {
    fn t(self) -> T {
        match self {
            SlotTy::F4 => T::V4F,
            SlotTy::I4 => T::V4I,
            SlotTy::I1 => T::I32,
            SlotTy::B4 => T::V4B,
        }
    }
}

#[derive(Clone, Copy)]
struct Slot {
    kind: RegisterType,
    num: u16,
    ty: SlotTy,
    /// Backing variable (0: none).
    var: u32,
}

#[derive(Clone, Copy)]
struct Tex {
    image: u32,
    sampler: u32,
    kind: TextureKind,
}

enum Frame {
    If {
        merge: u32,
        else_label: u32,
        has_else: bool,
    },
    Loop {
        header: u32,
        merge: u32,
        cont: u32,
        counter: u32,
        step: Option<u32>,
        saved_al: Option<u32>,
    },
}

/// Where a vertex output's value comes from.
#[derive(Clone, Copy, PartialEq)]
enum VSrc {
    /// The shader's own output for `(usage, index)`.
    Own(DeclUsage, u8),
    /// The final position (a vs_3_0 POSITION0 read as a varying, linked).
    Position,
    /// A constant (a linked varying the vertex shader does not write).
    Const([f32; 4]),
}

#[derive(Clone, Copy, PartialEq)]
enum OutKind {
    Position,
    Varying(VSrc),
    PointSize,
    Clip(u32),
    Color(u32),
    Depth,
}

#[derive(Clone, Copy)]
struct Output {
    kind: OutKind,
    var: u32,
}

enum Level {
    Auto,
    Bias(u32),
    Exact(u32),
    Grad(u32, u32),
}

/// A location decoration of a pixel input (for linking): fixed location, the word
/// holding it in the annotation section.
#[derive(Clone, Copy)]
struct LocWord {
    fixed: u32,
    word: usize,
}

pub(crate) struct Emitter<'a> {
    pub m: Module,
    /// The deferred kill's private flag (0: the shader has no `texkill`): `texkill` sets
    /// it and the pixel runs on as a helper; the entry point kills at its end.
    killed: u32,
    o: &'a TranslateOptions,
    v: Version,
    ps: bool,
    ps1x: bool,
    adjust_y: bool,
    scan: Scan,
    slot_of: [[u16; MAX_REG as usize]; NKIND],
    slots: Vec<Slot>,
    cache: Vec<u32>,
    dirty: Vec<bool>,
    in_entry: bool,
    dead: Option<usize>,
    terminated: bool,
    frames: Vec<Frame>,
    c_buf: Option<(u32, u32)>,
    i_buf: u32,
    b_buf: u32,
    d_buf: u32,
    texs: [Option<Tex>; regs::MAX_SAMPLERS],
    mask_consts: [u32; 16],
    tc_args: [u32; MAX_REG as usize],
    fog_arg: u32,
    corner: u32,
    fragcoord_var: u32,
    labels: Vec<(u16, u32)>,
    pads: [u32; 2],
    npads: usize,
    deferred: Option<([(DstParam, u32); 4], usize)>,
    outputs: Vec<Output>,
    pub io_vars: Vec<u32>,
    pub itf: Interface,
    pub derivatives: bool,
    pub clip: bool,
    /// Pixel inputs: what a linked vertex shader must provide.
    pub reads: Vec<LinkRead>,
    loc_words: Vec<LocWord>,
    /// Vertex shader linked to these pixel reads.
    link: Option<&'a [LinkRead]>,
    /// DWORD offset of the instruction being emitted.
    at: u32,
    op: Opcode,
    pub main_fn: u32,
}

/// The float comparison op of a D3D9 comparison (naga's mapping: ordered).
fn cmp_op(c: Option<Comparison>) -> Op {
    match c {
        Some(Comparison::Gt) => Op::FOrdGreaterThan,
        Some(Comparison::Eq) => Op::FOrdEqual,
        Some(Comparison::Ge) => Op::FOrdGreaterThanEqual,
        Some(Comparison::Lt) => Op::FOrdLessThan,
        Some(Comparison::Ne) => Op::FOrdNotEqual,
        Some(Comparison::Le) | None => Op::FOrdLessThanEqual,
    }
}

fn swizzle4(s: u8) -> [u32; 4] {
    [
        (s & 3) as u32,
        ((s >> 2) & 3) as u32,
        ((s >> 4) & 3) as u32,
        ((s >> 6) & 3) as u32,
    ]
}

const NONE: u16 = u16::MAX;

impl<'a> Emitter<'a> {
    pub fn new(
        v: Version,
        scan: Scan,
        o: &'a TranslateOptions,
        adjust_y: bool,
        link: Option<&'a [LinkRead]>,
    ) -> Self {
        let ps = v.is_pixel();
        let itf = Interface::empty(v);
        Emitter {
            m: Module::new(),
            killed: 0,
            o,
            v,
            ps,
            ps1x: ps && v.major < 2,
            adjust_y,
            scan,
            slot_of: [[NONE; MAX_REG as usize]; NKIND],
            slots: Vec::new(),
            cache: Vec::new(),
            dirty: Vec::new(),
            in_entry: true,
            dead: None,
            terminated: false,
            frames: Vec::new(),
            c_buf: None,
            i_buf: 0,
            b_buf: 0,
            d_buf: 0,
            texs: [None; regs::MAX_SAMPLERS],
            mask_consts: [0; 16],
            tc_args: [0; MAX_REG as usize],
            fog_arg: 0,
            corner: 0,
            fragcoord_var: 0,
            labels: Vec::new(),
            pads: [0; 2],
            npads: 0,
            deferred: None,
            outputs: Vec::new(),
            io_vars: Vec::new(),
            itf,
            derivatives: false,
            clip: false,
            reads: Vec::new(),
            loc_words: Vec::new(),
            link,
            at: 0,
            op: Opcode::Nop,
            main_fn: 0,
        }
    }

    fn unsupported(&self, why: &'static str) -> Error {
        Error::Unsupported {
            offset: self.at,
            opcode: self.op,
            why,
        }
    }

    // ------------------------------------------------------------------ instructions

    #[inline]
    fn op1(&mut self, op: Op, t: T, a: u32) -> u32 {
        let ty = self.m.ty(t);
        let id = self.m.id();
        inst(&mut self.m.body, op, &[ty, id, a]);
        id
    }
    #[inline]
    fn op2(&mut self, op: Op, t: T, a: u32, b: u32) -> u32 {
        let ty = self.m.ty(t);
        let id = self.m.id();
        inst(&mut self.m.body, op, &[ty, id, a, b]);
        id
    }
    fn sel(&mut self, t: T, c: u32, a: u32, b: u32) -> u32 {
        let ty = self.m.ty(t);
        let id = self.m.id();
        inst(&mut self.m.body, Op::Select, &[ty, id, c, a, b]);
        id
    }
    /// `c ? a : b` for vec4 operands and a scalar condition.
    fn sel_s(&mut self, t: T, c: u32, a: u32, b: u32) -> u32 {
        let c4 = self.splat(T::V4B, c);
        self.sel(t, c4, a, b)
    }
    fn ext(&mut self, t: T, f: G, args: &[u32]) -> u32 {
        let ty = self.m.ty(t);
        let id = self.m.id();
        let mut w = [0u32; 7];
        w[0] = ty;
        w[1] = id;
        w[2] = self.m.glsl;
        w[3] = f as u32;
        w[4..4 + args.len()].copy_from_slice(args);
        inst(&mut self.m.body, Op::ExtInst, &w[..4 + args.len()]);
        id
    }
    fn comp(&mut self, t: T, v: u32, i: u32) -> u32 {
        let ty = self.m.ty(t);
        let id = self.m.id();
        inst(&mut self.m.body, Op::CompositeExtract, &[ty, id, v, i]);
        id
    }
    fn cf(&mut self, v: u32, i: u32) -> u32 {
        self.comp(T::F32, v, i)
    }
    fn construct(&mut self, t: T, c: &[u32]) -> u32 {
        let ty = self.m.ty(t);
        self.construct_ty(ty, c)
    }
    fn construct_ty(&mut self, ty: u32, c: &[u32]) -> u32 {
        let id = self.m.id();
        let mut w = [0u32; 10];
        w[0] = ty;
        w[1] = id;
        w[2..2 + c.len()].copy_from_slice(c);
        inst(&mut self.m.body, Op::CompositeConstruct, &w[..2 + c.len()]);
        id
    }
    fn splat(&mut self, t: T, s: u32) -> u32 {
        self.construct(t, &[s, s, s, s])
    }
    fn vec4(&mut self, c: [u32; 4]) -> u32 {
        self.construct(T::V4F, &c)
    }
    fn shuffle(&mut self, t: T, v: u32, p: &[u32]) -> u32 {
        let ty = self.m.ty(t);
        let id = self.m.id();
        let mut w = [0u32; 8];
        w[0] = ty;
        w[1] = id;
        w[2] = v;
        w[3] = v;
        w[4..4 + p.len()].copy_from_slice(p);
        inst(&mut self.m.body, Op::VectorShuffle, &w[..4 + p.len()]);
        id
    }
    fn load(&mut self, t: T, p: u32) -> u32 {
        self.op1(Op::Load, t, p)
    }
    fn store(&mut self, p: u32, v: u32) {
        inst(&mut self.m.body, Op::Store, &[p, v]);
    }
    fn label(&mut self, l: u32) {
        inst(&mut self.m.body, Op::Label, &[l]);
        self.terminated = false;
    }
    fn branch(&mut self, l: u32) {
        inst(&mut self.m.body, Op::Branch, &[l]);
        self.terminated = true;
    }
    fn zero4(&mut self) -> u32 {
        self.m.splat_f(0.0)
    }
    fn fneg(&mut self, t: T, v: u32) -> u32 {
        self.op1(Op::FNegate, t, v)
    }
    /// A function-local variable of `t` (zero-initialised) in the current function.
    fn local(&mut self, t: T) -> u32 {
        let p = self.m.ptr(Sc::Function, t);
        let z = self.m.null(t);
        let id = self.m.id();
        inst(
            &mut self.m.vars,
            Op::Variable,
            &[p, id, spirv::StorageClass::Function as u32, z],
        );
        id
    }
    /// `if cond { <kill> }` (or `if !cond` when `on_false`).
    fn kill_if(&mut self, cond: u32, on_false: bool) {
        let merge = self.m.id();
        let k = self.m.id();
        inst(&mut self.m.body, Op::SelectionMerge, &[merge, 0]);
        let (t, f) = if on_false { (merge, k) } else { (k, merge) };
        inst(&mut self.m.body, Op::BranchConditional, &[cond, t, f]);
        self.label(k);
        inst(&mut self.m.body, Op::Kill, &[]);
        self.label(merge);
    }

    // ------------------------------------------------------------------ globals

    fn decorate_binding(&mut self, var: u32, binding: u32) {
        self.m
            .decorate(var, Decoration::DescriptorSet, &[itf::GROUP]);
        self.m.decorate(var, Decoration::Binding, &[binding]);
    }

    /// A uniform block `struct { array<elem, n> }` at `binding`.
    fn uniform_block(
        &mut self,
        binding: u32,
        elem: T,
        n: u32,
    ) -> (u32, Option<itf::ConstantBuffer>) {
        let et = self.m.ty(elem);
        let len = self.m.u(n.max(1));
        let arr = self.m.id();
        inst(&mut self.m.glob, Op::TypeArray, &[arr, et, len]);
        self.m.decorate(arr, Decoration::ArrayStride, &[16]);
        let st = self.m.id();
        inst(&mut self.m.glob, Op::TypeStruct, &[st, arr]);
        self.m.decorate(st, Decoration::Block, &[]);
        inst(
            &mut self.m.dec,
            Op::MemberDecorate,
            &[st, 0, Decoration::Offset as u32, 0],
        );
        let p = self.m.ptr_to(Sc::Uniform, st);
        let var = self.m.global(p, Sc::Uniform);
        self.decorate_binding(var, binding);
        (
            var,
            Some(itf::ConstantBuffer {
                binding,
                registers: n,
            }),
        )
    }

    fn stage_binding(&self, ps: u32, vs: u32) -> u32 {
        if self.ps {
            ps
        } else {
            vs
        }
    }

    fn float_consts(&mut self) -> (u32, u32) {
        if let Some(c) = self.c_buf {
            return c;
        }
        let n = d3dbc::regs::float_constant_file(self.v, self.scan.max_const).min(4096);
        let b = self.stage_binding(itf::PS_FLOAT_BINDING, itf::VS_FLOAT_BINDING);
        let (var, record) = self.uniform_block(b, T::V4F, n);
        self.itf.float_constants = record;
        self.c_buf = Some((var, n));
        (var, n)
    }

    fn int_consts(&mut self) -> u32 {
        if self.i_buf == 0 {
            let b = self.stage_binding(itf::PS_INT_BINDING, itf::VS_INT_BINDING);
            let (var, record) = self.uniform_block(b, T::V4I, itf::INT_CONSTANTS);
            self.itf.int_constants = record;
            self.i_buf = var;
        }
        self.i_buf
    }

    fn bool_consts(&mut self) -> u32 {
        if self.b_buf == 0 {
            let b = self.stage_binding(itf::PS_BOOL_BINDING, itf::VS_BOOL_BINDING);
            let (var, record) = self.uniform_block(b, T::V4U, itf::INT_CONSTANTS);
            self.itf.bool_constants = record;
            self.b_buf = var;
        }
        self.b_buf
    }

    /// Loads element `idx` (an id) of uniform block `var` of `elem`s.
    fn uniform_elem(&mut self, var: u32, elem: T, idx: u32) -> u32 {
        let p = self.m.ptr(Sc::Uniform, elem);
        let zero = self.m.i(0);
        let id = self.m.id();
        inst(&mut self.m.body, Op::AccessChain, &[p, id, var, zero, idx]);
        self.load(elem, id)
    }

    /// `driver[i]` (vec4f).
    fn driver(&mut self, i: u32) -> u32 {
        if self.d_buf == 0 {
            let (var, record) = self.uniform_block(itf::DRIVER_BINDING, T::V4F, driver::VEC4S);
            self.itf.driver = record;
            self.d_buf = var;
        }
        let idx = self.m.i(i as i32);
        self.uniform_elem(self.d_buf, T::V4F, idx)
    }

    fn texture(&mut self, stage: u16) -> Result<Tex, Error> {
        let st = stage as usize;
        if st >= self.texs.len() {
            return Err(self.unsupported("sampler stage past every version's samplers"));
        }
        if let Some(t) = self.texs[st] {
            return Ok(t);
        }
        let kind = if self.ps1x {
            self.o.pipeline.sm1_kind(st)
        } else {
            match self.scan.sampler_type(stage) {
                Some(SamplerType::Cube) => TextureKind::Cube,
                Some(SamplerType::Volume) => TextureKind::Volume,
                _ => TextureKind::Tex2d,
            }
        };
        let it = match kind {
            TextureKind::Tex2d => T::Img2D,
            TextureKind::Cube => T::ImgCube,
            TextureKind::Volume => T::Img3D,
        };
        let base = if self.ps {
            itf::PS_TEXTURE_BASE
        } else {
            itf::VS_TEXTURE_BASE
        } + 2 * stage as u32;
        let ip = self.m.ptr(Sc::UniformConstant, it);
        let image = self.m.global(ip, Sc::UniformConstant);
        self.decorate_binding(image, base);
        let sp = self.m.ptr(Sc::UniformConstant, T::Sampler);
        let sampler = self.m.global(sp, Sc::UniformConstant);
        self.decorate_binding(sampler, base + 1);
        self.itf.samplers.push(itf::SamplerBinding {
            stage: stage as u32,
            kind,
            texture_binding: base,
            sampler_binding: base + 1,
        });
        let t = Tex {
            image,
            sampler,
            kind,
        };
        self.texs[st] = Some(t);
        Ok(t)
    }

    fn mask_const(&mut self, mask: u8) -> u32 {
        let m = (mask & 15) as usize;
        if self.mask_consts[m] == 0 {
            let bits = [0, 1, 2, 3].map(|i| u32::from(mask & (1 << i) != 0));
            self.mask_consts[m] = self.m.vec4(T::V4B, bits);
        }
        self.mask_consts[m]
    }

    // ------------------------------------------------------------------ slots

    fn make_slots(&mut self) {
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
            for num in 0..MAX_REG {
                if bits & (1u64 << num) == 0 {
                    continue;
                }
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

    fn reset_fn_state(&mut self) {
        let n = self.slots.len();
        self.cache.clear();
        self.cache.resize(n, 0);
        self.dirty.clear();
        self.dirty.resize(n, false);
    }

    fn read_slot(&mut self, i: usize) -> u32 {
        if self.cache[i] != 0 {
            return self.cache[i];
        }
        let s = self.slots[i];
        let h = if s.var != 0 {
            self.load(s.ty.t(), s.var)
        } else {
            self.m.null(s.ty.t())
        };
        self.cache[i] = h;
        h
    }

    fn set_slot(&mut self, i: usize, v: u32) {
        self.cache[i] = v;
        self.dirty[i] = true;
    }

    fn slot(&self, kind: RegisterType, num: u16) -> Option<usize> {
        if num >= MAX_REG {
            return None;
        }
        let s = self.slot_of[kind as usize][num as usize];
        (s != NONE).then_some(s as usize)
    }

    fn flush(&mut self) {
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

    fn invalidate(&mut self) {
        for i in 0..self.slots.len() {
            if self.slots[i].var != 0 {
                self.cache[i] = 0;
                self.dirty[i] = false;
            }
        }
    }

    fn boundary(&mut self) {
        self.flush();
        self.invalidate();
    }

    // ------------------------------------------------------------------ values

    fn vec4_lit(&mut self, v: [f32; 4]) -> u32 {
        self.m.vec4f(v)
    }

    fn mulz(&mut self, a: u32, b: u32) -> u32 {
        let (a, b) = self.zero_factors(a, b, true);
        self.op2(Op::FMul, T::V4F, a, b)
    }

    fn mulz1(&mut self, a: u32, b: u32) -> u32 {
        let (a, b) = self.zero_factors(a, b, false);
        self.op2(Op::FMul, T::F32, a, b)
    }

    fn zero_factors(&mut self, a: u32, b: u32, vec: bool) -> (u32, u32) {
        let (t, bt) = if vec {
            (T::V4F, T::V4B)
        } else {
            (T::F32, T::Bool)
        };
        match self.o.semantics.mul_zero {
            MulZero::Ieee => (a, b),
            MulZero::Strict => {
                let z = if vec { self.zero4() } else { self.m.f(0.0) };
                let a0 = self.op2(Op::FOrdEqual, bt, a, z);
                let b0 = self.op2(Op::FOrdEqual, bt, b, z);
                let na = self.sel(t, b0, z, a);
                let nb = self.sel(t, a0, z, b);
                (na, nb)
            }
            MulZero::Fast => {
                let (lo, hi) = if vec {
                    (self.m.splat_f(-f32::MAX), self.m.splat_f(f32::MAX))
                } else {
                    (self.m.f(-f32::MAX), self.m.f(f32::MAX))
                };
                let ca = self.ext(t, G::FClamp, &[a, lo, hi]);
                let cb = self.ext(t, G::FClamp, &[b, lo, hi]);
                (ca, cb)
            }
        }
    }

    fn dotz(&mut self, a: u32, b: u32, n: u32) -> u32 {
        let (a, b) = self.zero_factors(a, b, true);
        let (a, b) = match n {
            4 => (a, b),
            3 => (
                self.shuffle(T::V3F, a, &[0, 1, 2]),
                self.shuffle(T::V3F, b, &[0, 1, 2]),
            ),
            _ => (
                self.shuffle(T::V2F, a, &[0, 1]),
                self.shuffle(T::V2F, b, &[0, 1]),
            ),
        };
        self.op2(Op::Dot, T::F32, a, b)
    }

    fn big(&mut self) -> u32 {
        match self.o.semantics.rcp_zero {
            ReciprocalOfZero::Infinity => self.bits_f32(0x7f80_0000),
            ReciprocalOfZero::FltMax => self.m.f(f32::MAX),
        }
    }

    /// A float from its bits, as an instruction (an infinite constant is valid SPIR-V,
    /// but not to SPIR-V front ends that rebuild an IR without infinities, naga's).
    fn bits_f32(&mut self, bits: u32) -> u32 {
        let u = self.m.u(bits);
        self.op1(Op::Bitcast, T::F32, u)
    }

    fn big_bits(&self) -> u32 {
        match self.o.semantics.rcp_zero {
            ReciprocalOfZero::Infinity => 0x7f80_0000,
            ReciprocalOfZero::FltMax => f32::MAX.to_bits(),
        }
    }

    /// The scalar operand of rcp/rsq/exp/log/pow/sincos: `.w` of the swizzled source in
    /// every version ([`Opcode::scalar_component`], as the naga path and the executor).
    fn scalar(&mut self, op: Opcode, v: u32) -> u32 {
        self.cf(v, op.scalar_component() as _)
    }

    fn rcp(&mut self, x: u32) -> u32 {
        let one = self.m.f(1.0);
        let q = self.op2(Op::FDiv, T::F32, one, x);
        let z = self.m.f(0.0);
        let is0 = self.op2(Op::FOrdEqual, T::Bool, x, z);
        let xb = self.op1(Op::Bitcast, T::U32, x);
        let sm = self.m.u(0x8000_0000);
        let sign = self.op2(Op::BitwiseAnd, T::U32, xb, sm);
        let bb = self.m.u(self.big_bits());
        let sb = self.op2(Op::BitwiseOr, T::U32, bb, sign);
        let sbig = self.op1(Op::Bitcast, T::F32, sb);
        self.sel(T::F32, is0, sbig, q)
    }

    fn rsq(&mut self, x: u32) -> u32 {
        let a = self.ext(T::F32, G::FAbs, &[x]);
        let r = self.ext(T::F32, G::InverseSqrt, &[a]);
        let z = self.m.f(0.0);
        let is0 = self.op2(Op::FOrdEqual, T::Bool, a, z);
        let big = self.big();
        self.sel(T::F32, is0, big, r)
    }

    fn log2(&mut self, x: u32) -> u32 {
        let a = self.ext(T::F32, G::FAbs, &[x]);
        let l = self.ext(T::F32, G::Log2, &[a]);
        let z = self.m.f(0.0);
        let is0 = self.op2(Op::FOrdEqual, T::Bool, a, z);
        let lz = match self.o.semantics.log_zero {
            LogOfZero::NegFltMax => self.m.f(-f32::MAX),
            LogOfZero::NegInfinity => self.bits_f32(0xff80_0000),
        };
        self.sel(T::F32, is0, lz, l)
    }

    fn reg_value(&mut self, s: &SrcParam) -> Result<u32, Error> {
        use RegisterType::*;
        let k = s.reg.kind;
        Ok(match k {
            Const | Const2 | Const3 | Const4 => {
                let n = d3dbc::regs::float_constant_index(k, s.reg.num);
                let v = self.const_f(n, s.rel);
                if self.ps1x && self.o.semantics.ps1x_clamp_constants {
                    let lo = self.m.splat_f(-1.0);
                    let hi = self.m.splat_f(1.0);
                    self.ext(T::V4F, G::FClamp, &[v, lo, hi])
                } else {
                    v
                }
            }
            ConstInt => {
                let v = self.const_i(s.reg.num);
                self.op1(Op::ConvertSToF, T::V4F, v)
            }
            ConstBool => {
                let b = self.const_b(s.reg.num);
                let one = self.m.f(1.0);
                let zero = self.m.f(0.0);
                let f = self.sel(T::F32, b, one, zero);
                self.splat(T::V4F, f)
            }
            Sampler | Label => self.zero4(),
            _ => {
                if let (Some(rel), Input) = (s.rel, k) {
                    return Ok(self.rel_input(s.reg.num, rel));
                }
                let Some(i) = self.slot(k, s.reg.num) else {
                    return Ok(self.zero4());
                };
                let v = self.read_slot(i);
                match self.slots[i].ty {
                    SlotTy::F4 => v,
                    SlotTy::I4 => self.op1(Op::ConvertSToF, T::V4F, v),
                    SlotTy::I1 => {
                        let f = self.op1(Op::ConvertSToF, T::F32, v);
                        self.splat(T::V4F, f)
                    }
                    SlotTy::B4 => {
                        let one = self.m.splat_f(1.0);
                        let zero = self.zero4();
                        self.sel(T::V4F, v, one, zero)
                    }
                }
            }
        })
    }

    fn addr(&mut self, rel: RelAddr) -> u32 {
        match rel.reg.kind {
            RegisterType::Loop => match self.slot(RegisterType::Loop, 0) {
                Some(i) => self.read_slot(i),
                None => self.m.i(0),
            },
            _ => match self.slot(rel.reg.kind, rel.reg.num) {
                Some(i) if self.slots[i].ty == SlotTy::I4 => {
                    let v = self.read_slot(i);
                    self.comp(T::I32, v, rel.component() as u32)
                }
                _ => self.m.i(0),
            },
        }
    }

    fn float_def(&self, n: u32) -> Option<[u32; 4]> {
        if n >= 65536 {
            return None;
        }
        let d = &self.scan.float_defs;
        d.binary_search_by_key(&(n as u16), |e| e.0)
            .ok()
            .map(|i| d[i].1)
    }

    /// The value of a `def`: a constant vector, or, where a component is NaN or
    /// infinite (`def c1, 1.#QNAN, -1.#INF, 1.#INF, 0` as Wine's fp_special_test writes
    /// it), the bit pattern's constant bitcast to floats, since SPIR-V front ends that
    /// rebuild an IR without non-finite literals (naga's, under wgpu) reject the constant.
    fn def_vec4(&mut self, d: [u32; 4]) -> u32 {
        if d.iter().all(|b| f32::from_bits(*b).is_finite()) {
            return self.m.vec4(T::V4F, d);
        }
        let u = self.m.vec4(T::V4U, d);
        self.op1(Op::Bitcast, T::V4F, u)
    }

    fn const_f(&mut self, n: u32, rel: Option<RelAddr>) -> u32 {
        let (var, len) = self.float_consts();
        match rel {
            None => {
                if let Some(d) = self.float_def(n) {
                    return self.def_vec4(d);
                }
                if n >= len {
                    return self.zero4();
                }
                let idx = self.m.u(n);
                self.uniform_elem(var, T::V4F, idx)
            }
            Some(rel) => {
                let a = self.addr(rel);
                let base = self.m.i(n as i32);
                let idx = self.op2(Op::IAdd, T::I32, a, base);
                let iu = self.op1(Op::Bitcast, T::U32, idx);
                let lim = self.m.u(len);
                let ok = self.op2(Op::ULessThan, T::Bool, iu, lim);
                let last = self.m.u(len.saturating_sub(1));
                let cl = self.ext(T::U32, G::UMin, &[iu, last]);
                let val = self.uniform_elem(var, T::V4F, cl);
                let z = self.zero4();
                let mut r = self.sel_s(T::V4F, ok, val, z);
                for j in 0..self.scan.float_defs.len() {
                    let (k, d) = self.scan.float_defs[j];
                    let kk = self.m.i(k as i32);
                    let eq = self.op2(Op::IEqual, T::Bool, idx, kk);
                    let dv = self.def_vec4(d);
                    r = self.sel_s(T::V4F, eq, dv, r);
                }
                r
            }
        }
    }

    fn const_i(&mut self, n: u16) -> u32 {
        let defs = &self.scan.int_defs;
        if let Ok(i) = defs.binary_search_by_key(&n, |e| e.0) {
            let d = defs[i].1;
            return self.m.vec4(T::V4I, d.map(|x| x as u32));
        }
        if n as u32 >= itf::INT_CONSTANTS {
            return self.m.null(T::V4I);
        }
        let var = self.int_consts();
        let idx = self.m.u(n as u32);
        self.uniform_elem(var, T::V4I, idx)
    }

    fn const_b(&mut self, n: u16) -> u32 {
        let defs = &self.scan.bool_defs;
        if let Ok(i) = defs.binary_search_by_key(&n, |e| e.0) {
            let d = defs[i].1;
            return self.m.b(d);
        }
        if n as u32 >= itf::INT_CONSTANTS {
            return self.m.b(false);
        }
        let var = self.bool_consts();
        let idx = self.m.u(n as u32);
        let v = self.uniform_elem(var, T::V4U, idx);
        let x = self.comp(T::U32, v, 0);
        let z = self.m.u(0);
        self.op2(Op::INotEqual, T::Bool, x, z)
    }

    fn rel_input(&mut self, base: u16, rel: RelAddr) -> u32 {
        let a = self.addr(rel);
        let b = self.m.i(base as i32);
        let idx = self.op2(Op::IAdd, T::I32, a, b);
        let mut r = self.zero4();
        for i in 0..self.slots.len() {
            if self.slots[i].kind != RegisterType::Input {
                continue;
            }
            let n = self.slots[i].num;
            let v = self.read_slot(i);
            let k = self.m.i(n as i32);
            let eq = self.op2(Op::IEqual, T::Bool, idx, k);
            r = self.sel_s(T::V4F, eq, v, r);
        }
        r
    }

    fn src(&mut self, s: &SrcParam) -> Result<u32, Error> {
        let v = self.reg_value(s)?;
        let v = if s.swizzle != d3dbc::ir::SWIZZLE_IDENTITY {
            self.shuffle(T::V4F, v, &swizzle4(s.swizzle))
        } else {
            v
        };
        Ok(self.modifier(v, s.modifier))
    }

    fn modifier(&mut self, v: u32, m: SrcModifier) -> u32 {
        use SrcModifier::*;
        match m {
            None | Not => v,
            Neg => self.fneg(T::V4F, v),
            Bias | BiasNeg => {
                let h = self.m.splat_f(0.5);
                let r = self.op2(Op::FSub, T::V4F, v, h);
                if m == BiasNeg {
                    self.fneg(T::V4F, r)
                } else {
                    r
                }
            }
            Sign | SignNeg => {
                let h = self.m.splat_f(0.5);
                let r = self.op2(Op::FSub, T::V4F, v, h);
                let two = self.m.splat_f(2.0);
                let r = self.op2(Op::FMul, T::V4F, r, two);
                if m == SignNeg {
                    self.fneg(T::V4F, r)
                } else {
                    r
                }
            }
            Comp => {
                let one = self.m.splat_f(1.0);
                self.op2(Op::FSub, T::V4F, one, v)
            }
            X2 | X2Neg => {
                let two = self.m.splat_f(2.0);
                let r = self.op2(Op::FMul, T::V4F, v, two);
                if m == X2Neg {
                    self.fneg(T::V4F, r)
                } else {
                    r
                }
            }
            Dz | Dw => {
                let c = if m == Dz { 2 } else { 3 };
                let d = self.cf(v, c);
                let d = self.splat(T::V4F, d);
                self.op2(Op::FDiv, T::V4F, v, d)
            }
            Abs => self.ext(T::V4F, G::FAbs, &[v]),
            AbsNeg => {
                let a = self.ext(T::V4F, G::FAbs, &[v]);
                self.fneg(T::V4F, a)
            }
        }
    }

    fn pred_vec(&mut self, num: u16) -> u32 {
        match self.slot(RegisterType::Predicate, num) {
            Some(i) => self.read_slot(i),
            None => self.m.null(T::V4B),
        }
    }

    fn bool_src(&mut self, s: &SrcParam) -> Result<u32, Error> {
        let b = match s.reg.kind {
            RegisterType::ConstBool => self.const_b(s.reg.num),
            RegisterType::Predicate => {
                let v = self.pred_vec(s.reg.num);
                self.comp(T::Bool, v, (s.swizzle & 3) as u32)
            }
            _ => {
                let v = self.src(s)?;
                let x = self.cf(v, 0);
                let z = self.m.f(0.0);
                self.op2(Op::FOrdNotEqual, T::Bool, x, z)
            }
        };
        Ok(if s.modifier == SrcModifier::Not {
            self.op1(Op::LogicalNot, T::Bool, b)
        } else {
            b
        })
    }

    // ------------------------------------------------------------------ writes

    fn write(&mut self, x: &Instruction, v: u32) -> Result<(), Error> {
        if let Some((d, n)) = self.deferred.as_mut() {
            if *n == d.len() {
                return Err(Error::Unsupported {
                    offset: self.at,
                    opcode: self.op,
                    why: "more than 4 co-issued instructions",
                });
            }
            d[*n] = (x.dst, v);
            *n += 1;
            return Ok(());
        }
        self.write_dst(x.dst, x.predicate, v)
    }

    fn write_dst(
        &mut self,
        dst: DstParam,
        pred: Option<SrcParam>,
        mut v: u32,
    ) -> Result<(), Error> {
        let sh = dst.shift_value();
        if sh != 0 {
            let f = self.m.splat_f((sh as f32).exp2());
            v = self.op2(Op::FMul, T::V4F, v, f);
        }
        if dst.saturate() {
            let (z, o) = (self.zero4(), self.m.splat_f(1.0));
            v = self.ext(T::V4F, G::FClamp, &[v, z, o]);
        } else if self.ps1x {
            let m = self.o.semantics.ps1x_max_value;
            let lo = self.m.splat_f(-m);
            let hi = self.m.splat_f(m);
            v = self.ext(T::V4F, G::FClamp, &[v, lo, hi]);
        }
        let k = dst.reg.kind;
        if let (Some(rel), RegisterType::Output) = (dst.rel, k) {
            let a = self.addr(rel);
            let b = self.m.i(dst.reg.num as i32);
            let idx = self.op2(Op::IAdd, T::I32, a, b);
            for i in 0..self.slots.len() {
                if self.slots[i].kind != RegisterType::Output {
                    continue;
                }
                let n = self.slots[i].num;
                let old = self.read_slot(i);
                let nv = self.masked(T::V4F, old, v, dst.mask, pred);
                let kk = self.m.i(n as i32);
                let eq = self.op2(Op::IEqual, T::Bool, idx, kk);
                let r = self.sel_s(T::V4F, eq, nv, old);
                self.set_slot(i, r);
            }
            return Ok(());
        }
        let Some(i) = self.slot(k, dst.reg.num) else {
            return Ok(());
        };
        let ty = self.slots[i].ty;
        let v = match ty {
            SlotTy::F4 => v,
            SlotTy::I4 => self.op1(Op::ConvertFToS, T::V4I, v),
            SlotTy::I1 => {
                let x = self.cf(v, 0);
                self.op1(Op::ConvertFToS, T::I32, x)
            }
            SlotTy::B4 => return Err(self.unsupported("a float written to the predicate")),
        };
        let nv = if (dst.mask & 15 == 15 && pred.is_none()) || ty == SlotTy::I1 {
            v
        } else {
            let old = self.read_slot(i);
            self.masked(ty.t(), old, v, dst.mask, pred)
        };
        self.set_slot(i, nv);
        Ok(())
    }

    /// ps_1_4 `phase`: the temporaries' alpha is not kept across the boundary (a read
    /// of `r#.a` written in phase 1 gives 0), as the executor does (semantics.md §2).
    fn phase(&mut self) {
        for n in 0..d3dbc::regs::MAX_TEMPS as u16 {
            if let Some(i) = self.slot(RegisterType::Temp, n) {
                if self.slots[i].ty != SlotTy::F4 {
                    continue;
                }
                let old = self.read_slot(i);
                let z = self.zero4();
                let nv = self.masked(T::V4F, old, z, 8, None);
                self.set_slot(i, nv);
            }
        }
    }

    fn masked(&mut self, t: T, old: u32, v: u32, mask: u8, pred: Option<SrcParam>) -> u32 {
        let mut nv = if mask & 15 == 15 {
            v
        } else {
            let m = self.mask_const(mask);
            self.sel(t, m, v, old)
        };
        if let Some(p) = pred {
            let pv = self.pred_vec(p.reg.num);
            let pv = if p.swizzle != d3dbc::ir::SWIZZLE_IDENTITY {
                self.shuffle(T::V4B, pv, &swizzle4(p.swizzle))
            } else {
                pv
            };
            let pv = if p.modifier == SrcModifier::Not {
                self.op1(Op::LogicalNot, T::V4B, pv)
            } else {
                pv
            };
            nv = self.sel(t, pv, nv, old);
        }
        nv
    }

    // ------------------------------------------------------------------ textures

    fn sample(&mut self, stage: u16, coord: u32, level: Level) -> Result<u32, Error> {
        let tex = self.texture(stage)?;
        let (it, sit, ct, n) = match tex.kind {
            TextureKind::Tex2d => (T::Img2D, T::SImg2D, T::V2F, 2),
            TextureKind::Cube => (T::ImgCube, T::SImgCube, T::V3F, 3),
            TextureKind::Volume => (T::Img3D, T::SImg3D, T::V3F, 3),
        };
        let img = self.load(it, tex.image);
        let smp = self.load(T::Sampler, tex.sampler);
        let si = self.op2(Op::SampledImage, sit, img, smp);
        let c = self.shuffle(ct, coord, &[0, 1, 2][..n]);
        let ty = self.m.ty(T::V4F);
        let id = self.m.id();
        match level {
            Level::Auto if self.ps => {
                inst(
                    &mut self.m.body,
                    Op::ImageSampleImplicitLod,
                    &[ty, id, si, c],
                );
            }
            Level::Auto => {
                let z = self.m.f(0.0);
                inst(
                    &mut self.m.body,
                    Op::ImageSampleExplicitLod,
                    &[ty, id, si, c, spirv::ImageOperands::LOD.bits(), z],
                );
            }
            Level::Bias(b) => {
                if !self.ps {
                    return Err(self.unsupported("biased sampling in a vertex shader"));
                }
                inst(
                    &mut self.m.body,
                    Op::ImageSampleImplicitLod,
                    &[ty, id, si, c, spirv::ImageOperands::BIAS.bits(), b],
                );
            }
            Level::Exact(l) => {
                inst(
                    &mut self.m.body,
                    Op::ImageSampleExplicitLod,
                    &[ty, id, si, c, spirv::ImageOperands::LOD.bits(), l],
                );
            }
            Level::Grad(x, y) => {
                let gx = self.shuffle(ct, x, &[0, 1, 2][..n]);
                let gy = self.shuffle(ct, y, &[0, 1, 2][..n]);
                inst(
                    &mut self.m.body,
                    Op::ImageSampleExplicitLod,
                    &[ty, id, si, c, spirv::ImageOperands::GRAD.bits(), gx, gy],
                );
            }
        }
        Ok(id)
    }

    fn texcoord(&mut self, n: u16, project: bool) -> u32 {
        let v = match self.tc_args.get(n as usize) {
            Some(&h) if h != 0 => h,
            _ => self.zero4(),
        };
        let count = self.o.pipeline.projection(n as usize);
        if project
            && (2..=4).contains(&count)
            && self.o.pipeline.sm1_kind(n as usize) != TextureKind::Cube
        {
            let d = self.cf(v, count as u32 - 1);
            let d = self.splat(T::V4F, d);
            self.op2(Op::FDiv, T::V4F, v, d)
        } else {
            v
        }
    }

    fn reg_of(&mut self, kind: RegisterType, num: u16) -> Result<u32, Error> {
        self.reg_value(&SrcParam::new(d3dbc::Register::new(kind, num)))
    }

    fn depth_write(&mut self, z: u32, w: u32) {
        let zero = self.m.f(0.0);
        let one = self.m.f(1.0);
        let is0 = self.op2(Op::FOrdEqual, T::Bool, w, zero);
        let q = self.op2(Op::FDiv, T::F32, z, w);
        let d = self.sel(T::F32, is0, one, q);
        let d = self.splat(T::V4F, d);
        if let Some(i) = self.slot(RegisterType::DepthOut, 0) {
            self.set_slot(i, d);
        }
    }

    fn sampler_swizzle(&mut self, r: u32, s: &SrcParam) -> u32 {
        if self.v.major >= 3 && s.swizzle != d3dbc::ir::SWIZZLE_IDENTITY {
            self.shuffle(T::V4F, r, &swizzle4(s.swizzle))
        } else {
            r
        }
    }

    fn bump(&mut self, stage: u16, base: u32, d: u32) -> u32 {
        let mat = self.driver(driver::BUMP_MAT + stage as u32 % 8);
        let m = [0, 1, 2, 3].map(|i| self.cf(mat, i));
        let (dr, dg) = (self.cf(d, 0), self.cf(d, 1));
        let (bu, bv) = (self.cf(base, 0), self.cf(base, 1));
        let a = self.mulz1(m[0], dr);
        let b = self.mulz1(m[2], dg);
        let u = self.op2(Op::FAdd, T::F32, bu, a);
        let u = self.op2(Op::FAdd, T::F32, u, b);
        let a = self.mulz1(m[1], dr);
        let b = self.mulz1(m[3], dg);
        let v = self.op2(Op::FAdd, T::F32, bv, a);
        let v = self.op2(Op::FAdd, T::F32, v, b);
        let (bz, bw) = (self.cf(base, 2), self.cf(base, 3));
        self.vec4([u, v, bz, bw])
    }

    fn mova_round(&mut self, v: u32) -> u32 {
        match self.o.semantics.mova_ties {
            MovaTies::ToEven => self.ext(T::V4F, G::RoundEven, &[v]),
            MovaTies::HalfUp => {
                let h = self.m.splat_f(0.5);
                let a = self.op2(Op::FAdd, T::V4F, v, h);
                self.ext(T::V4F, G::Floor, &[a])
            }
            MovaTies::AwayFromZero => {
                let a = self.ext(T::V4F, G::FAbs, &[v]);
                let h = self.m.splat_f(0.5);
                let a = self.op2(Op::FAdd, T::V4F, a, h);
                let f = self.ext(T::V4F, G::Floor, &[a]);
                let sg = self.ext(T::V4F, G::FSign, &[v]);
                self.op2(Op::FMul, T::V4F, f, sg)
            }
        }
    }

    fn emit_ins(&mut self, x: &Instruction) -> Result<(), Error> {
        use Opcode::*;
        let op = x.opcode;
        self.op = op;
        let s = |l: &mut Self, i: usize| l.src(&x.srcs[i]);
        match op {
            Nop | Dcl | Def | DefI | DefB | Comment | End | Label | Reserved0 => {}
            Phase => self.phase(),
            Mov => {
                let mut v = s(self, 0)?;
                if !self.ps && x.dst.reg.kind == RegisterType::AddrOrTexture {
                    v = if self.v.major < 2 {
                        self.ext(T::V4F, G::Floor, &[v])
                    } else {
                        self.mova_round(v)
                    };
                }
                self.write(x, v)?;
            }
            Mova => {
                let v = s(self, 0)?;
                let r = self.mova_round(v);
                self.write(x, r)?;
            }
            Add | Sub => {
                let (a, b) = (s(self, 0)?, s(self, 1)?);
                let r = self.op2(if op == Add { Op::FAdd } else { Op::FSub }, T::V4F, a, b);
                self.write(x, r)?;
            }
            Mul => {
                let (a, b) = (s(self, 0)?, s(self, 1)?);
                let r = self.mulz(a, b);
                self.write(x, r)?;
            }
            Mad => {
                let (a, b, c) = (s(self, 0)?, s(self, 1)?, s(self, 2)?);
                let (a, b) = self.zero_factors(a, b, true);
                let r = if self.o.semantics.fused_mad {
                    self.ext(T::V4F, G::Fma, &[a, b, c])
                } else {
                    let p = self.op2(Op::FMul, T::V4F, a, b);
                    self.op2(Op::FAdd, T::V4F, p, c)
                };
                self.write(x, r)?;
            }
            Rcp | Rsq | Exp | Log => {
                let v = s(self, 0)?;
                let xs = self.scalar(op, v);
                let r = match op {
                    Rcp => self.rcp(xs),
                    Rsq => self.rsq(xs),
                    Exp => self.ext(T::F32, G::Exp2, &[xs]),
                    _ => self.log2(xs),
                };
                let r = self.splat(T::V4F, r);
                self.write(x, r)?;
            }
            Frc => {
                let v = s(self, 0)?;
                let f = self.ext(T::V4F, G::Floor, &[v]);
                let r = self.op2(Op::FSub, T::V4F, v, f);
                self.write(x, r)?;
            }
            ExpP | LogP => {
                let v = s(self, 0)?;
                let xs = self.scalar(op, v);
                let r = if self.v.major < 2 {
                    let one = self.m.f(1.0);
                    if op == ExpP {
                        let fl = self.ext(T::F32, G::Floor, &[xs]);
                        let a = self.ext(T::F32, G::Exp2, &[fl]);
                        let b = self.op2(Op::FSub, T::F32, xs, fl);
                        let c = self.ext(T::F32, G::Exp2, &[xs]);
                        self.vec4([a, b, c, one])
                    } else {
                        let l = self.log2(xs);
                        let e = self.ext(T::F32, G::Floor, &[l]);
                        let ne = self.fneg(T::F32, e);
                        let sc = self.ext(T::F32, G::Exp2, &[ne]);
                        let ab = self.ext(T::F32, G::FAbs, &[xs]);
                        let mnt = self.op2(Op::FMul, T::F32, ab, sc);
                        self.vec4([e, mnt, l, one])
                    }
                } else {
                    let r = if op == ExpP {
                        self.ext(T::F32, G::Exp2, &[xs])
                    } else {
                        self.log2(xs)
                    };
                    self.splat(T::V4F, r)
                };
                self.write(x, r)?;
            }
            Dp3 | Dp4 => {
                let (a, b) = (s(self, 0)?, s(self, 1)?);
                let d = self.dotz(a, b, if op == Dp3 { 3 } else { 4 });
                let r = self.splat(T::V4F, d);
                self.write(x, r)?;
            }
            Dp2Add => {
                let (a, b, c) = (s(self, 0)?, s(self, 1)?, s(self, 2)?);
                let d = self.dotz(a, b, 2);
                let cx = self.cf(c, 0);
                let r = self.op2(Op::FAdd, T::F32, d, cx);
                let r = self.splat(T::V4F, r);
                self.write(x, r)?;
            }
            Min | Max => {
                let (a, b) = (s(self, 0)?, s(self, 1)?);
                let cop = if op == Min {
                    Op::FOrdLessThan
                } else {
                    Op::FOrdGreaterThanEqual
                };
                let c = self.op2(cop, T::V4B, a, b);
                let r = self.sel(T::V4F, c, a, b);
                self.write(x, r)?;
            }
            Slt | Sge => {
                let (a, b) = (s(self, 0)?, s(self, 1)?);
                let cop = if op == Slt {
                    Op::FOrdLessThan
                } else {
                    Op::FOrdGreaterThanEqual
                };
                let c = self.op2(cop, T::V4B, a, b);
                let one = self.m.splat_f(1.0);
                let z = self.zero4();
                let r = self.sel(T::V4F, c, one, z);
                self.write(x, r)?;
            }
            Lit => {
                let v = s(self, 0)?;
                let (vx, vy, vw) = (self.cf(v, 0), self.cf(v, 1), self.cf(v, 3));
                let one = self.m.f(1.0);
                let zero = self.m.f(0.0);
                let lim = 127.9961f32;
                let lo = self.m.f(-lim);
                let hi = self.m.f(lim);
                let p = self.ext(T::F32, G::FClamp, &[vw, lo, hi]);
                let xp = self.op2(Op::FOrdGreaterThan, T::Bool, vx, zero);
                let yp = self.op2(Op::FOrdGreaterThan, T::Bool, vy, zero);
                let both = self.op2(Op::LogicalAnd, T::Bool, xp, yp);
                let y = self.sel(T::F32, xp, vx, zero);
                let ly = self.ext(T::F32, G::Log2, &[vy]);
                let pl = self.mulz1(p, ly);
                let pw = self.ext(T::F32, G::Exp2, &[pl]);
                let z = self.sel(T::F32, both, pw, zero);
                let r = self.vec4([one, y, z, one]);
                self.write(x, r)?;
            }
            Dst => {
                let (a, b) = (s(self, 0)?, s(self, 1)?);
                let one = self.m.f(1.0);
                let (ay, by) = (self.cf(a, 1), self.cf(b, 1));
                let y = self.mulz1(ay, by);
                let z = self.cf(a, 2);
                let w = self.cf(b, 3);
                let r = self.vec4([one, y, z, w]);
                self.write(x, r)?;
            }
            Lrp => {
                let (a, b, c) = (s(self, 0)?, s(self, 1)?, s(self, 2)?);
                let d = self.op2(Op::FSub, T::V4F, b, c);
                let p = self.mulz(a, d);
                let r = self.op2(Op::FAdd, T::V4F, p, c);
                self.write(x, r)?;
            }
            M4x4 | M4x3 | M3x4 | M3x3 | M3x2 => {
                let Some(shape) = op.matrix() else {
                    return Err(self.unsupported("not a matrix macro"));
                };
                let (n, rows) = (u32::from(shape.columns), usize::from(shape.rows));
                let a = s(self, 0)?;
                let zero = self.m.f(0.0);
                let mut c = [zero; 4];
                for (r, slot) in c.iter_mut().enumerate().take(rows) {
                    let mut row = x.srcs[1];
                    row.reg.num = row.reg.num.wrapping_add(r as u16);
                    let b = self.src(&row)?;
                    *slot = self.dotz(a, b, n);
                }
                let r = self.vec4(c);
                self.write(x, r)?;
            }
            Pow => {
                let (a, b) = (s(self, 0)?, s(self, 1)?);
                let (ax, bx) = (self.scalar(op, a), self.scalar(op, b));
                let ab = self.ext(T::F32, G::FAbs, &[ax]);
                let l = self.ext(T::F32, G::Log2, &[ab]);
                let p = self.mulz1(bx, l);
                let r = self.ext(T::F32, G::Exp2, &[p]);
                let r = self.splat(T::V4F, r);
                self.write(x, r)?;
            }
            Crs => {
                let (a, b) = (s(self, 0)?, s(self, 1)?);
                let a1 = self.shuffle(T::V4F, a, &[1, 2, 0, 3]);
                let b1 = self.shuffle(T::V4F, b, &[2, 0, 1, 3]);
                let a2 = self.shuffle(T::V4F, a, &[2, 0, 1, 3]);
                let b2 = self.shuffle(T::V4F, b, &[1, 2, 0, 3]);
                let p1 = self.mulz(a1, b1);
                let p2 = self.mulz(a2, b2);
                let r = self.op2(Op::FSub, T::V4F, p1, p2);
                self.write(x, r)?;
            }
            Sgn => {
                let a = s(self, 0)?;
                let r = self.ext(T::V4F, G::FSign, &[a]);
                self.write(x, r)?;
            }
            Abs => {
                let a = s(self, 0)?;
                let r = self.ext(T::V4F, G::FAbs, &[a]);
                self.write(x, r)?;
            }
            Nrm => {
                let a = s(self, 0)?;
                let f = self.dotz(a, a, 3);
                let zero = self.m.f(0.0);
                let is0 = self.op2(Op::FOrdEqual, T::Bool, f, zero);
                let r = self.ext(T::F32, G::InverseSqrt, &[f]);
                let big = self.m.f(f32::MAX);
                let sc = self.sel(T::F32, is0, big, r);
                let sc = self.splat(T::V4F, sc);
                let r = self.mulz(a, sc);
                self.write(x, r)?;
            }
            SinCos => {
                let a = s(self, 0)?;
                let c = self.scalar(op, a);
                let co = self.ext(T::F32, G::Cos, &[c]);
                let si = self.ext(T::F32, G::Sin, &[c]);
                let z = self.m.f(0.0);
                let r = self.vec4([co, si, z, z]);
                self.write(x, r)?;
            }
            Cnd => {
                let (a, b, c) = (s(self, 0)?, s(self, 1)?, s(self, 2)?);
                let r = if self.v.minor < 4 {
                    let aw = self.cf(a, 3);
                    let h = self.m.f(0.5);
                    let cond = self.op2(Op::FOrdGreaterThan, T::Bool, aw, h);
                    self.sel_s(T::V4F, cond, b, c)
                } else {
                    let h = self.m.splat_f(0.5);
                    let cond = self.op2(Op::FOrdGreaterThan, T::V4B, a, h);
                    self.sel(T::V4F, cond, b, c)
                };
                self.write(x, r)?;
            }
            Cmp => {
                let (a, b, c) = (s(self, 0)?, s(self, 1)?, s(self, 2)?);
                let z = self.zero4();
                let cond = self.op2(Op::FOrdGreaterThanEqual, T::V4B, a, z);
                let r = self.sel(T::V4F, cond, b, c);
                self.write(x, r)?;
            }
            Dsx | Dsy => {
                let a = s(self, 0)?;
                let r = if self.ps {
                    self.derivatives = true;
                    self.op1(
                        if op == Dsx {
                            Op::DPdxFine
                        } else {
                            Op::DPdyFine
                        },
                        T::V4F,
                        a,
                    )
                } else {
                    self.zero4()
                };
                self.write(x, r)?;
            }
            SetP => {
                let (a, b) = (s(self, 0)?, s(self, 1)?);
                let c = self.op2(cmp_op(x.comparison()), T::V4B, a, b);
                if let Some(i) = self.slot(x.dst.reg.kind, x.dst.reg.num) {
                    if self.slots[i].ty != SlotTy::B4 {
                        return Err(self.unsupported("setp to a register other than p0"));
                    }
                    let old = self.read_slot(i);
                    let nv = self.masked(T::V4B, old, c, x.dst.mask, x.predicate);
                    self.set_slot(i, nv);
                }
            }
            Bem => {
                let (a, b) = (s(self, 0)?, s(self, 1)?);
                let r = self.bump(x.dst.reg.num, a, b);
                self.write(x, r)?;
            }
            TexKill => {
                let v = self.reg_of(x.dst.reg.kind, x.dst.reg.num)?;
                let z = self.zero4();
                let lt = self.op2(Op::FOrdLessThan, T::V4B, v, z);
                let mask = if self.v.major < 2 { 7 } else { x.dst.mask & 15 };
                let mut any: Option<u32> = None;
                for c in 0..4 {
                    if mask & (1 << c) != 0 {
                        let b = self.comp(T::Bool, lt, c);
                        any = Some(match any {
                            None => b,
                            Some(a) => self.op2(Op::LogicalOr, T::Bool, a, b),
                        });
                    }
                }
                if let (Some(cond), k @ 1..) = (any, self.killed) {
                    // Deferred (module docs): killed |= cond.
                    let was = self.load(T::Bool, k);
                    let now = self.op2(Op::LogicalOr, T::Bool, was, cond);
                    self.store(k, now);
                }
            }
            TexCoord => {
                let r = if self.v.minor < 4 {
                    let t = self.texcoord(x.dst.reg.num, false);
                    let (z, o) = (self.zero4(), self.m.splat_f(1.0));
                    let sat = self.ext(T::V4F, G::FClamp, &[t, z, o]);
                    let one = self.m.f(1.0);
                    let (a, b, c) = (self.cf(sat, 0), self.cf(sat, 1), self.cf(sat, 2));
                    self.vec4([a, b, c, one])
                } else {
                    s(self, 0)?
                };
                self.write(x, r)?;
            }
            Tex => {
                let r = if self.ps1x {
                    if self.v.minor < 4 {
                        let n = x.dst.reg.num;
                        let c = self.texcoord(n, true);
                        self.sample(n, c, Level::Auto)?
                    } else {
                        let c = s(self, 0)?;
                        self.sample(x.dst.reg.num, c, Level::Auto)?
                    }
                } else {
                    let c = s(self, 0)?;
                    let stage = x.srcs[1].reg.num;
                    let ctl = x.controls;
                    let r = if ctl & d3dbc::token::texld_controls::PROJECT != 0 {
                        let w = self.cf(c, 3);
                        let w = self.splat(T::V4F, w);
                        let pc = self.op2(Op::FDiv, T::V4F, c, w);
                        self.sample(stage, pc, Level::Auto)?
                    } else if ctl & d3dbc::token::texld_controls::BIAS != 0 {
                        let w = self.cf(c, 3);
                        self.sample(stage, c, Level::Bias(w))?
                    } else {
                        self.sample(stage, c, Level::Auto)?
                    };
                    self.sampler_swizzle(r, &x.srcs[1])
                };
                self.write(x, r)?;
            }
            TexLdl => {
                let c = s(self, 0)?;
                let w = self.cf(c, 3);
                let r = self.sample(x.srcs[1].reg.num, c, Level::Exact(w))?;
                let r = self.sampler_swizzle(r, &x.srcs[1]);
                self.write(x, r)?;
            }
            TexLdd => {
                let c = s(self, 0)?;
                let (gx, gy) = (s(self, 2)?, s(self, 3)?);
                let r = if self.ps {
                    self.sample(x.srcs[1].reg.num, c, Level::Grad(gx, gy))?
                } else {
                    self.sample(x.srcs[1].reg.num, c, Level::Auto)?
                };
                let r = self.sampler_swizzle(r, &x.srcs[1]);
                self.write(x, r)?;
            }
            TexBem | TexBemL => {
                let m = x.dst.reg.num;
                let src = s(self, 0)?;
                let tc = self.texcoord(m, true);
                let uv = self.bump(m, tc, src);
                let mut r = self.sample(m, uv, Level::Auto)?;
                if op == TexBemL {
                    let lum = self.driver(driver::BUMP_LUM + m as u32 % 8);
                    let (ls, lo) = (self.cf(lum, 0), self.cf(lum, 1));
                    let bz = self.cf(src, 2);
                    let p = self.mulz1(bz, ls);
                    let f = self.op2(Op::FAdd, T::F32, p, lo);
                    // The luminance factor saturates (Windows' BUMPENVMAPLUMINANCE, DXVK).
                    let (z, o) = (self.m.f(0.0), self.m.f(1.0));
                    let f = self.ext(T::F32, G::FClamp, &[f, z, o]);
                    let f = self.splat(T::V4F, f);
                    r = self.mulz(r, f);
                }
                self.write(x, r)?;
            }
            TexReg2Ar | TexReg2Gb | TexReg2Rgb => {
                let src = s(self, 0)?;
                let c = match op {
                    TexReg2Ar => self.shuffle(T::V4F, src, &[3, 0, 0, 0]),
                    TexReg2Gb => self.shuffle(T::V4F, src, &[1, 2, 2, 2]),
                    _ => src,
                };
                let r = self.sample(x.dst.reg.num, c, Level::Auto)?;
                self.write(x, r)?;
            }
            TexM3x2Pad | TexM3x3Pad => {
                let src = s(self, 0)?;
                let tc = self.texcoord(x.dst.reg.num, false);
                let d = self.dotz(tc, src, 3);
                if self.npads == self.pads.len() {
                    return Err(self.unsupported("more than two texm*pad in a row"));
                }
                self.pads[self.npads] = d;
                self.npads += 1;
            }
            TexM3x2Tex | TexM3x2Depth | TexM3x3Tex | TexM3x3 | TexM3x3Spec | TexM3x3VSpec
            | TexDp3 | TexDp3Tex => {
                let m = x.dst.reg.num;
                let src = s(self, 0)?;
                let tc = self.texcoord(m, false);
                let d = self.dotz(tc, src, 3);
                let zero = self.m.f(0.0);
                let one = self.m.f(1.0);
                let np = std::mem::take(&mut self.npads);
                let pads = self.pads;
                let p = |i: usize| if i < np { pads[i] } else { zero };
                match op {
                    TexM3x2Tex => {
                        let c = self.vec4([p(0), d, zero, zero]);
                        let r = self.sample(m, c, Level::Auto)?;
                        self.write(x, r)?;
                    }
                    TexM3x2Depth => {
                        self.depth_write(p(0), d);
                    }
                    TexM3x3Tex => {
                        let c = self.vec4([p(0), p(1), d, zero]);
                        let r = self.sample(m, c, Level::Auto)?;
                        self.write(x, r)?;
                    }
                    TexM3x3 => {
                        let r = self.vec4([p(0), p(1), d, one]);
                        self.write(x, r)?;
                    }
                    TexM3x3Spec | TexM3x3VSpec => {
                        let n = self.vec4([p(0), p(1), d, zero]);
                        let e = if op == TexM3x3Spec {
                            s(self, 1)?
                        } else {
                            let a = self.texcoord(m.wrapping_sub(2), false);
                            let b = self.texcoord(m.wrapping_sub(1), false);
                            let (aw, bw, cw) = (self.cf(a, 3), self.cf(b, 3), self.cf(tc, 3));
                            self.vec4([aw, bw, cw, zero])
                        };
                        let ne = self.dotz(n, e, 3);
                        let nn = self.dotz(n, n, 3);
                        let two = self.m.f(2.0);
                        let q = self.op2(Op::FDiv, T::F32, ne, nn);
                        let q = self.op2(Op::FMul, T::F32, two, q);
                        let q = self.splat(T::V4F, q);
                        let rn = self.mulz(n, q);
                        let r = self.op2(Op::FSub, T::V4F, rn, e);
                        // Where N·N = 0 (a zero normal, or one whose square underflows)
                        // the 2·N·… term is 0 by the 0·x rule and R = −E, as the
                        // executor and the naga path compute it.
                        let z = self.m.f(0.0);
                        let flat = self.op2(Op::FOrdEqual, T::Bool, nn, z);
                        let minus_e = self.fneg(T::V4F, e);
                        let r = self.sel_s(T::V4F, flat, minus_e, r);
                        let r = self.sample(m, r, Level::Auto)?;
                        self.write(x, r)?;
                    }
                    TexDp3 => {
                        let r = self.splat(T::V4F, d);
                        self.write(x, r)?;
                    }
                    _ => {
                        let c = self.vec4([d, zero, zero, zero]);
                        let r = self.sample(m, c, Level::Auto)?;
                        self.write(x, r)?;
                    }
                }
            }
            TexDepth => {
                let v = self.reg_of(x.dst.reg.kind, x.dst.reg.num)?;
                let (z, w) = (self.cf(v, 0), self.cf(v, 1));
                self.depth_write(z, w);
            }
            If | IfC | Else | EndIf | Loop | EndLoop | Rep | EndRep | Break | BreakC | BreakP
            | Call | CallNz | Ret => self.flow(x)?,
        }
        Ok(())
    }

    // ------------------------------------------------------------------ flow

    fn cmp_scalar(&mut self, x: &Instruction) -> Result<u32, Error> {
        let a = self.src(&x.srcs[0])?;
        let b = self.src(&x.srcs[1])?;
        let (a, b) = (self.cf(a, 0), self.cf(b, 0));
        Ok(self.op2(cmp_op(x.comparison()), T::Bool, a, b))
    }

    fn loop_merge(&self) -> Option<u32> {
        self.frames.iter().rev().find_map(|f| match f {
            Frame::Loop { merge, .. } => Some(*merge),
            _ => None,
        })
    }

    fn flow(&mut self, x: &Instruction) -> Result<(), Error> {
        use Opcode::*;
        // Only flow-control opcodes come here; the match names every one.
        let Role::Flow(flow) = x.opcode.role() else {
            return Ok(());
        };
        match flow {
            Flow::If | Flow::IfC => {
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
            }
            Flow::Else => {
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
            }
            Flow::EndIf => {
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
            }
            Flow::Loop | Flow::Rep => {
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
                let (header, merge, cont, body) =
                    (self.m.id(), self.m.id(), self.m.id(), self.m.id());
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
            }
            Flow::EndLoop | Flow::EndRep => {
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
            }
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
            Flow::Call | Flow::CallNz => {
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
            }
            Flow::Ret => {
                self.emit_return()?;
                self.dead = Some(0);
            }
            Flow::Label => {}
        }
        Ok(())
    }

    fn flow_err(&self, why: &'static str) -> Error {
        Error::Flow {
            offset: self.at,
            why,
        }
    }

    fn emit_range(&mut self, ins: &[Instruction], offsets: &[u32]) -> Result<(), Error> {
        let mut i = 0;
        while i < ins.len() {
            let x = &ins[i];
            self.at = offsets[i];
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
                    self.at = offsets[j];
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
                offset: offsets.last().map_or(0, |o| o + 1),
                why: "unclosed block",
            });
        }
        Ok(())
    }

    // ------------------------------------------------------------------ entry point

    fn input_var(&mut self, t: T) -> u32 {
        let p = self.m.ptr(Sc::Input, t);
        let v = self.m.global(p, Sc::Input);
        self.io_vars.push(v);
        v
    }

    fn output_var(&mut self, t: T) -> u32 {
        let p = self.m.ptr(Sc::Output, t);
        let v = self.m.global(p, Sc::Output);
        self.io_vars.push(v);
        v
    }

    /// Location and interpolation decorations of a varying variable; returns the word
    /// index of the location operand.
    fn varying_decor(&mut self, var: u32, location: u32, flat: bool, centroid: bool) -> usize {
        self.m.decorate(var, Decoration::Location, &[location]);
        let w = self.m.dec.len() - 1;
        if flat {
            self.m.decorate(var, Decoration::Flat, &[]);
        } else if centroid {
            self.m.decorate(var, Decoration::Centroid, &[]);
        }
        w
    }

    /// A pixel input at fixed location `location`: its variable, loaded.
    fn ps_input(&mut self, location: u32, flat: bool, centroid: bool) -> u32 {
        let var = self.input_var(T::V4F);
        let word = self.varying_decor(var, location, flat, centroid);
        self.loc_words.push(LocWord {
            fixed: location,
            word,
        });
        if !self.reads.iter().any(|r| r.fixed == location) {
            self.reads.push(LinkRead {
                fixed: location,
                location: 0,
                flat,
                centroid,
            });
        }
        self.load(T::V4F, var)
    }

    fn inputs(&mut self) {
        let flat = self.o.pipeline.flat_shading;
        for i in 0..self.slots.len() {
            let (kind, num) = (self.slots[i].kind, self.slots[i].num);
            let init: Option<u32> = match (self.ps, kind) {
                (false, RegisterType::Input) => {
                    let d = self
                        .scan
                        .inputs
                        .iter()
                        .find(|(k, d)| *k == kind && d.num == num)
                        .map(|d| d.1);
                    self.itf.vertex_inputs.push(itf::VertexInput {
                        usage: d.map(|d| d.usage),
                        usage_index: d.map_or(0, |d| d.index),
                        register: num,
                        location: num as u32,
                    });
                    let var = self.input_var(T::V4F);
                    self.m.decorate(var, Decoration::Location, &[num as u32]);
                    Some(self.load(T::V4F, var))
                }
                (true, RegisterType::Input) | (true, RegisterType::AddrOrTexture) => {
                    let first = self
                        .scan
                        .inputs
                        .iter()
                        .position(|(k, d)| *k == kind && d.num == num);
                    let single = first.is_none() || self.v.major < 3;
                    let mut val: Option<u32> = None;
                    let n = self.scan.inputs.len();
                    let mut j = first.unwrap_or(0);
                    loop {
                        let d = if single {
                            let centroid = first.is_some_and(|f| self.scan.inputs[f].1.centroid);
                            Decl {
                                num,
                                usage: if kind == RegisterType::Input {
                                    DeclUsage::Color
                                } else {
                                    DeclUsage::TexCoord
                                },
                                index: num as u8,
                                mask: 15,
                                centroid,
                            }
                        } else {
                            if j >= n {
                                break;
                            }
                            let (k, d) = self.scan.inputs[j];
                            j += 1;
                            if k != kind || d.num != num {
                                continue;
                            }
                            d
                        };
                        let location = itf::varying_location(d.usage, d.index);
                        let is_flat = flat && d.usage == DeclUsage::Color;
                        if !self.itf.varyings.iter().any(|v| v.location == location) {
                            self.itf.varyings.push(itf::Varying {
                                usage: d.usage,
                                usage_index: d.index,
                                location,
                                flat: is_flat,
                                centroid: d.centroid,
                            });
                        }
                        let a = self.ps_input(location, is_flat, d.centroid && !is_flat);
                        val = Some(match val {
                            None => a,
                            Some(prev) => {
                                let m = self.mask_const(d.mask);
                                self.sel(T::V4F, m, a, prev)
                            }
                        });
                        if single {
                            break;
                        }
                    }
                    if kind == RegisterType::AddrOrTexture {
                        if let Some(v) = val {
                            self.tc_args[num as usize] = v;
                        }
                    }
                    val
                }
                (true, RegisterType::MiscType) if num == 0 => {
                    let fc = self.frag_coord();
                    if self.o.pipeline.vpos_half_pixel {
                        let h = self.vec4_lit([0.5, 0.5, 0.0, 0.0]);
                        Some(self.op2(Op::FSub, T::V4F, fc, h))
                    } else {
                        Some(fc)
                    }
                }
                (true, RegisterType::MiscType) => {
                    let var = self.input_var(T::Bool);
                    self.m
                        .decorate(var, Decoration::BuiltIn, &[BuiltIn::FrontFacing as u32]);
                    let ff = self.load(T::Bool, var);
                    let s = if self.o.pipeline.vface_front_positive {
                        1.0
                    } else {
                        -1.0
                    };
                    let (p, n) = (self.m.f(s), self.m.f(-s));
                    let v = self.sel(T::F32, ff, p, n);
                    Some(self.splat(T::V4F, v))
                }
                (false, RegisterType::RastOut) if num == 1 => Some(self.m.splat_f(1.0)),
                _ => None,
            };
            if let Some(v) = init {
                match self.slots[i].var {
                    0 => self.cache[i] = v,
                    p => self.store(p, v),
                }
            }
        }
        if !self.ps && self.o.pipeline.point_expansion {
            let var = self.input_var(T::U32);
            self.m
                .decorate(var, Decoration::BuiltIn, &[BuiltIn::VertexIndex as u32]);
            let vi = self.load(T::U32, var);
            let one = self.m.u(1);
            let x = self.op2(Op::BitwiseAnd, T::U32, vi, one);
            let y = self.op2(Op::ShiftRightLogical, T::U32, vi, one);
            let y = self.op2(Op::BitwiseAnd, T::U32, y, one);
            let x = self.op1(Op::ConvertUToF, T::F32, x);
            let y = self.op1(Op::ConvertUToF, T::F32, y);
            let (z, w) = (self.m.f(0.0), self.m.f(1.0));
            self.corner = self.vec4([x, y, z, w]);
        }
        if self.ps && self.o.pipeline.fog == FogMode::Vertex && self.v.major < 3 {
            let location = itf::varying_location(DeclUsage::Fog, 0);
            self.fog_arg = self.ps_input(location, false, false);
        }
    }

    /// The fragment coordinate, loaded where it is needed.
    fn frag_coord(&mut self) -> u32 {
        if self.fragcoord_var == 0 {
            let var = self.input_var(T::V4F);
            self.m
                .decorate(var, Decoration::BuiltIn, &[BuiltIn::FragCoord as u32]);
            self.fragcoord_var = var;
        }
        self.load(T::V4F, self.fragcoord_var)
    }

    fn psize_slot(&self) -> Option<usize> {
        if self.v.major >= 3 {
            let d = self
                .scan
                .outputs
                .iter()
                .find(|d| d.usage == DeclUsage::PSize)?;
            self.slot(RegisterType::Output, d.num)
        } else {
            self.slot(RegisterType::RastOut, 2)
        }
    }

    /// The unlinked vertex varyings in output order.
    fn vs_varyings(&self, mut f: impl FnMut(DeclUsage, u8)) {
        let base = (0..8u8).map(|i| (DeclUsage::TexCoord, i)).chain([
            (DeclUsage::Color, 0),
            (DeclUsage::Color, 1),
            (DeclUsage::Fog, 0),
        ]);
        for (u, i) in base {
            f(u, i);
        }
        let mut extra = [(DeclUsage::Position, 0u8); regs::MAX_OUTPUTS];
        let mut n = 0;
        if self.v.major >= 3 {
            for d in &self.scan.outputs {
                if (d.usage == DeclUsage::Position && d.index == 0) || d.usage == DeclUsage::PSize {
                    continue;
                }
                let pair = (d.usage, d.index);
                let fixed = matches!(pair, (DeclUsage::TexCoord, i) if i < 8)
                    || matches!(pair, (DeclUsage::Color, i) if i < 2)
                    || pair == (DeclUsage::Fog, 0);
                if !fixed && !extra[..n].contains(&pair) && n < extra.len() {
                    extra[n] = pair;
                    n += 1;
                    f(d.usage, d.index);
                }
            }
        }
        if self.psize_slot().is_some() {
            f(DeclUsage::PSize, 0);
        }
    }

    fn declare_outputs(&mut self) -> Result<(), Error> {
        let flat = self.o.pipeline.flat_shading;
        if self.ps {
            let push_color = |e: &mut Self, c: u32| {
                e.itf.color_outputs.push(c);
                let var = e.output_var(T::V4F);
                e.m.decorate(var, Decoration::Location, &[c]);
                e.outputs.push(Output {
                    kind: OutKind::Color(c),
                    var,
                });
            };
            if self.ps1x {
                push_color(self, 0);
            } else {
                let bits = self.scan.written.bits(RegisterType::ColorOut);
                for c in 0..MAX_REG as u32 {
                    if bits & (1u64 << c) != 0 {
                        push_color(self, c);
                    }
                }
            }
            if self.scan.writes_depth {
                self.itf.depth_output = true;
                let var = self.output_var(T::F32);
                self.m
                    .decorate(var, Decoration::BuiltIn, &[BuiltIn::FragDepth as u32]);
                self.outputs.push(Output {
                    kind: OutKind::Depth,
                    var,
                });
            }
            return Ok(());
        }
        let var = self.output_var(T::V4F);
        self.m
            .decorate(var, Decoration::BuiltIn, &[BuiltIn::Position as u32]);
        self.outputs.push(Output {
            kind: OutKind::Position,
            var,
        });
        match self.link {
            None => {
                let mut pairs: [(DeclUsage, u8); 48] = [(DeclUsage::Position, 0); 48];
                let mut n = 0;
                self.vs_varyings(|u, i| {
                    if n < pairs.len() {
                        pairs[n] = (u, i);
                        n += 1;
                    }
                });
                for &(u, i) in &pairs[..n] {
                    let location = itf::varying_location(u, i);
                    let is_flat = flat && u == DeclUsage::Color;
                    self.itf.varyings.push(itf::Varying {
                        usage: u,
                        usage_index: i,
                        location,
                        flat: is_flat,
                        centroid: false,
                    });
                    let var = self.output_var(T::V4F);
                    self.varying_decor(var, location, is_flat, false);
                    self.outputs.push(Output {
                        kind: OutKind::Varying(VSrc::Own(u, i)),
                        var,
                    });
                }
            }
            Some(reads) => {
                let vs3 = self.v.major >= 3;
                for r in reads {
                    let mut own = false;
                    self.vs_varyings(|u, i| own |= itf::varying_location(u, i) == r.fixed);
                    let pair = itf::varying_at(r.fixed);
                    let src = match pair {
                        Some((u, i)) if own => VSrc::Own(u, i),
                        Some((DeclUsage::Position, 0)) if vs3 => VSrc::Position,
                        Some((u, i)) => VSrc::Const(d3dbc::regs::unwritten_varying(u as u8, i)),
                        None => VSrc::Const([0.0; 4]),
                    };
                    if let Some((u, i)) = pair {
                        self.itf.varyings.push(itf::Varying {
                            usage: u,
                            usage_index: i,
                            location: r.location,
                            flat: r.flat,
                            centroid: r.centroid,
                        });
                    }
                    let var = self.output_var(T::V4F);
                    self.varying_decor(var, r.location, r.flat, r.centroid);
                    self.outputs.push(Output {
                        kind: OutKind::Varying(src),
                        var,
                    });
                }
                self.itf.linked = true;
            }
        }
        if self.o.pipeline.point_size_builtin && self.psize_slot().is_some() {
            let var = self.output_var(T::F32);
            self.m
                .decorate(var, Decoration::BuiltIn, &[BuiltIn::PointSize as u32]);
            self.outputs.push(Output {
                kind: OutKind::PointSize,
                var,
            });
        }
        let n = self.o.pipeline.clip_planes.min(8) as u32;
        if n > 0 {
            self.clip = true;
            let f = self.m.ty(T::F32);
            let len = self.m.u(n);
            let arr = self.m.id();
            inst(&mut self.m.glob, Op::TypeArray, &[arr, f, len]);
            let p = self.m.ptr_to(Sc::Output, arr);
            let var = self.m.global(p, Sc::Output);
            self.io_vars.push(var);
            self.m
                .decorate(var, Decoration::BuiltIn, &[BuiltIn::ClipDistance as u32]);
            self.outputs.push(Output {
                kind: OutKind::Clip(arr),
                var,
            });
        }
        Ok(())
    }

    /// Below vs_3_0 the diffuse output `oD0` starts as the diffuse colour's default,
    /// `(1, 1, 1, 1)`, so the components a shader leaves unwritten read 1 (Wine
    /// `test_uninitialized_varyings`: `mov oD0.x, c0` with c0 = 0.5 draws 0xff7fffff on
    /// Windows); every other output register starts at 0, as the executor's.
    fn output_defaults(&mut self) {
        if self.v.is_pixel() || self.v.major >= 3 {
            return;
        }
        if let Some(i) = self.slot(RegisterType::AttrOut, 0) {
            let v = self.vec4_lit(d3dbc::regs::unwritten_varying(DeclUsage::Color as u8, 0));
            self.set_slot(i, v);
        }
    }

    fn out_slot(&mut self, kind: RegisterType, num: u16) -> u32 {
        match self.slot(kind, num) {
            Some(i) => self.read_slot(i),
            None => self.zero4(),
        }
    }

    fn vs3_out(&mut self, u: DeclUsage, idx: u8) -> Option<u32> {
        let d = *self
            .scan
            .outputs
            .iter()
            .find(|d| d.usage == u && d.index == idx)?;
        Some(self.out_slot(RegisterType::Output, d.num))
    }

    /// The value of the vertex shader's own varying `(u, idx)`.
    fn vs_own(&mut self, u: DeclUsage, idx: u8) -> u32 {
        let sprite = self.corner != 0 && self.o.pipeline.point_sprites && u == DeclUsage::TexCoord;
        let v = if sprite {
            Some(self.corner)
        } else if self.v.major >= 3 {
            self.vs3_out(u, idx)
        } else {
            match u {
                DeclUsage::TexCoord => Some(self.out_slot(RegisterType::Output, idx as u16)),
                DeclUsage::Color if self.slot(RegisterType::AttrOut, idx as u16).is_some() => {
                    let c = self.out_slot(RegisterType::AttrOut, idx as u16);
                    Some(self.saturate4(c))
                }
                // oFog, else the specular alpha (D3D9 vertex fog), which reads 0 where
                // oD1 is not written: fully fogged (Wine `fog_with_shader_test`, the CPU
                // executor's rule).
                DeclUsage::Fog => {
                    if self.slot(RegisterType::RastOut, 1).is_some() {
                        let f = self.out_slot(RegisterType::RastOut, 1);
                        Some(self.saturate4(f))
                    } else if self.slot(RegisterType::AttrOut, 1).is_some() {
                        let c = self.out_slot(RegisterType::AttrOut, 1);
                        let a = self.cf(c, 3);
                        let (z, o) = (self.m.f(0.0), self.m.f(1.0));
                        let a = self.ext(T::F32, G::FClamp, &[a, z, o]);
                        Some(self.splat(T::V4F, a))
                    } else {
                        Some(self.zero4())
                    }
                }
                DeclUsage::PSize => self.psize_slot().map(|i| self.read_slot(i)),
                _ => None,
            }
        };
        match v {
            Some(v) => v,
            None if u == DeclUsage::Color && idx == 0 => self.m.splat_f(1.0),
            None if u == DeclUsage::Fog => self.m.splat_f(1.0),
            None => self.zero4(),
        }
    }

    fn saturate4(&mut self, v: u32) -> u32 {
        let (z, o) = (self.zero4(), self.m.splat_f(1.0));
        self.ext(T::V4F, G::FClamp, &[v, z, o])
    }

    /// The shader's own position output (`oPos`, or a vs_3_0's `POSITION0` output),
    /// before point expansion and the fix-up: what user clip planes are tested against.
    fn shader_position(&mut self) -> u32 {
        if self.v.major >= 3 {
            let outs = &self.scan.outputs;
            match d3dbc::regs::vs3_position_output(outs.iter().map(|d| (d.usage as u8, d.index))) {
                Some(k) => {
                    let n = outs[k].num;
                    self.out_slot(RegisterType::Output, n)
                }
                None => self.m.null(T::V4F),
            }
        } else {
            self.out_slot(RegisterType::RastOut, 0)
        }
    }

    fn position(&mut self) -> u32 {
        let p = self.shader_position();
        let p = if self.corner != 0 {
            self.expand_point(p, self.corner)
        } else {
            p
        };
        if self.o.pipeline.position_fixup {
            let fx = self.driver(driver::POS_FIXUP);
            let w = self.cf(p, 3);
            let w = self.splat(T::V4F, w);
            let off = self.op2(Op::FMul, T::V4F, fx, w);
            let z = self.m.f(0.0);
            let (ox, oy) = (self.cf(off, 0), self.cf(off, 1));
            let off = self.vec4([ox, oy, z, z]);
            self.op2(Op::FAdd, T::V4F, p, off)
        } else {
            p
        }
    }

    fn emit_return(&mut self) -> Result<(), Error> {
        if !self.in_entry {
            self.flush();
            inst(&mut self.m.body, Op::Return, &[]);
            self.terminated = true;
            return Ok(());
        }
        if self.killed != 0 {
            // The deferred `texkill` (module docs).
            let dead = self.load(T::Bool, self.killed);
            self.kill_if(dead, false);
        }
        let mut vals = [0u32; 64];
        let nout = self.outputs.len();
        if nout > vals.len() {
            return Err(self.unsupported("more than 64 outputs"));
        }
        let mut color0: Option<u32> = None;
        let mut position = 0;
        for (k, slot) in vals.iter_mut().enumerate().take(nout) {
            let o = self.outputs[k];
            let v = match o.kind {
                OutKind::Depth => {
                    let d = self.out_slot(RegisterType::DepthOut, 0);
                    self.cf(d, 0)
                }
                OutKind::Color(location) => {
                    let mut c = if self.ps1x {
                        let r = self.out_slot(RegisterType::Temp, 0);
                        if self.o.semantics.ps1x_saturate_output {
                            self.saturate4(r)
                        } else {
                            r
                        }
                    } else {
                        self.out_slot(RegisterType::ColorOut, location as u16)
                    };
                    if location == 0 {
                        c = self.fog(c);
                        color0 = Some(c);
                    }
                    c
                }
                OutKind::Position => {
                    position = self.position();
                    position
                }
                OutKind::PointSize => {
                    let i = self.psize_slot().ok_or(self.unsupported("point size"))?;
                    let v = self.read_slot(i);
                    self.cf(v, 0)
                }
                OutKind::Clip(arr) => {
                    let p = self.shader_position();
                    let n = self.o.pipeline.clip_planes.min(8) as u32;
                    let mut c = [0u32; 8];
                    for (k, slot) in c.iter_mut().enumerate().take(n as usize) {
                        let pl = self.driver(driver::CLIP_PLANE + k as u32);
                        *slot = self.dotz(p, pl, 4);
                    }
                    self.construct_ty(arr, &c[..n as usize])
                }
                OutKind::Varying(src) => match src {
                    VSrc::Own(u, i) => self.vs_own(u, i),
                    VSrc::Position => position,
                    VSrc::Const(c) => self.m.vec4f(c),
                },
            };
            *slot = v;
        }
        if self.ps && self.o.pipeline.alpha_test != CompareFunc::Always {
            let a = match color0 {
                Some(c) => self.cf(c, 3),
                None => self.m.f(0.0),
            };
            let r = self.driver(driver::ALPHA_REF);
            let r = self.cf(r, 0);
            let pass = match self.o.pipeline.alpha_test {
                CompareFunc::Never => self.m.b(false),
                f => {
                    let op = match f {
                        CompareFunc::Less => Op::FOrdLessThan,
                        CompareFunc::Equal => Op::FOrdEqual,
                        CompareFunc::LessEqual => Op::FOrdLessThanEqual,
                        CompareFunc::Greater => Op::FOrdGreaterThan,
                        CompareFunc::NotEqual => Op::FOrdNotEqual,
                        _ => Op::FOrdGreaterThanEqual,
                    };
                    self.op2(op, T::Bool, a, r)
                }
            };
            self.kill_if(pass, true);
        }
        for (k, &v) in vals.iter().enumerate().take(nout) {
            let o = self.outputs[k];
            self.store(o.var, v);
            if o.kind == OutKind::Position && self.adjust_y {
                let p = self.m.ptr(Sc::Output, T::F32);
                let one = self.m.i(1);
                let acc = self.m.id();
                inst(&mut self.m.body, Op::AccessChain, &[p, acc, o.var, one]);
                let y = self.load(T::F32, acc);
                let ny = self.fneg(T::F32, y);
                self.store(acc, ny);
            }
        }
        inst(&mut self.m.body, Op::Return, &[]);
        self.terminated = true;
        Ok(())
    }

    fn expand_point(&mut self, p: u32, c: u32) -> u32 {
        let ps = self.driver(driver::POINT_SIZE);
        let (def, lo, hi) = (self.cf(ps, 0), self.cf(ps, 1), self.cf(ps, 2));
        let size = match self.psize_slot() {
            Some(i) => {
                let v = self.read_slot(i);
                let v = self.cf(v, 0);
                let zero = self.m.f(0.0);
                let pos = self.op2(Op::FOrdGreaterThan, T::Bool, v, zero);
                self.sel(T::F32, pos, v, def)
            }
            None => def,
        };
        let size = self.ext(T::F32, G::FClamp, &[size, lo, hi]);
        let one = self.m.f(1.0);
        let size = self.ext(T::F32, G::FMax, &[size, one]);
        let half = self.vec4_lit([0.5, 0.5, 0.0, 0.0]);
        let d = self.op2(Op::FSub, T::V4F, c, half);
        let w = self.cf(p, 3);
        let sw = self.op2(Op::FMul, T::F32, size, w);
        let sw = self.splat(T::V4F, sw);
        let d = self.op2(Op::FMul, T::V4F, d, sw);
        let ext = self.driver(driver::POINT_EXTENT);
        let (ex, ey) = (self.cf(ext, 0), self.cf(ext, 1));
        let z = self.m.f(0.0);
        let ext = self.vec4([ex, ey, z, z]);
        let d = self.op2(Op::FMul, T::V4F, d, ext);
        self.op2(Op::FAdd, T::V4F, p, d)
    }

    fn fog(&mut self, c: u32) -> u32 {
        if self.v.major >= 3 || self.o.pipeline.fog == FogMode::None {
            return c;
        }
        let f = match self.o.pipeline.fog {
            FogMode::Vertex => match self.fog_arg {
                0 => self.m.f(1.0),
                a => self.cf(a, 0),
            },
            mode => {
                let z = match self.o.pipeline.fog_depth {
                    FogDepth::Z => {
                        let fc = self.frag_coord();
                        self.cf(fc, 2)
                    }
                    FogDepth::W => {
                        let fc = self.frag_coord();
                        let rw = self.cf(fc, 3);
                        let one = self.m.f(1.0);
                        self.op2(Op::FDiv, T::F32, one, rw)
                    }
                };
                let p = self.driver(driver::FOG_PARAMS);
                match mode {
                    FogMode::Linear => {
                        let (s, e) = (self.cf(p, 0), self.cf(p, 1));
                        let num = self.op2(Op::FSub, T::F32, e, z);
                        let den = self.op2(Op::FSub, T::F32, e, s);
                        self.op2(Op::FDiv, T::F32, num, den)
                    }
                    _ => {
                        let d = self.cf(p, 2);
                        let dz = self.mulz1(d, z);
                        let dz = if mode == FogMode::Exp2 {
                            self.op2(Op::FMul, T::F32, dz, dz)
                        } else {
                            dz
                        };
                        let n = self.fneg(T::F32, dz);
                        self.ext(T::F32, G::Exp, &[n])
                    }
                }
            }
        };
        let (z, o) = (self.m.f(0.0), self.m.f(1.0));
        let f = self.ext(T::F32, G::FClamp, &[f, z, o]);
        let fcol = self.driver(driver::FOG_COLOR);
        let fv = self.splat(T::V4F, f);
        let mixed = self.ext(T::V4F, G::FMix, &[fcol, c, fv]);
        let m = self.mask_const(7);
        self.sel(T::V4F, m, mixed, c)
    }

    /// Writes the function under construction's head (declaration, first label, local
    /// variables) into the function section; the body follows.
    fn function_head(&mut self, id: u32) {
        let void = self.m.ty(T::Void);
        let fnty = self.m.ty(T::FnVoid);
        let first = self.m.id();
        let m = &mut self.m;
        inst(&mut m.funcs, Op::Function, &[void, id, 0, fnty]);
        inst(&mut m.funcs, Op::Label, &[first]);
        m.funcs.extend_from_slice(&m.vars);
        m.vars.clear();
    }

    /// Closes a subroutine into the function section.
    fn finish_function(&mut self, id: u32) {
        self.function_head(id);
        let m = &mut self.m;
        m.funcs.extend_from_slice(&m.body);
        inst(&mut m.funcs, Op::FunctionEnd, &[]);
        m.body.clear();
    }

    /// Runs the whole emission (subroutines callee first, then `main`).
    pub fn run(&mut self, ins: &[Instruction], offsets: &[u32]) -> Result<(), Error> {
        self.make_slots();
        if self.scan.discards {
            let p = self.m.ptr(Sc::Private, T::Bool);
            let no = self.m.null(T::Bool);
            let id = self.m.id();
            inst(
                &mut self.m.glob,
                Op::Variable,
                &[p, id, spirv::StorageClass::Private as u32, no],
            );
            self.killed = id;
        }
        let subs = std::mem::take(&mut self.scan.subs);
        for (l, _) in &subs {
            if !self.labels.iter().any(|e| e.0 == *l) {
                let id = self.m.id();
                self.labels.push((*l, id));
            }
        }
        let order = call_order(&subs, ins, offsets)?;
        for si in order {
            let (label, range) = subs[si].clone();
            self.in_entry = false;
            self.reset_fn_state();
            self.dead = None;
            self.terminated = false;
            self.emit_range(&ins[range.clone()], &offsets[range])?;
            if self.dead.is_none() {
                self.flush();
            }
            if !self.terminated {
                inst(&mut self.m.body, Op::Return, &[]);
            }
            let id = self.labels.iter().find(|e| e.0 == label).map_or(0, |e| e.1);
            // A label defined twice: the first definition is the one called.
            if subs[..si].iter().any(|s| s.0 == label)
                || subs[si + 1..].iter().any(|s| s.0 == label)
            {
                return Err(Error::Flow {
                    offset: offsets.get(range_start(&subs[si])).copied().unwrap_or(0),
                    why: "label defined twice",
                });
            }
            self.finish_function(id);
        }
        self.in_entry = true;
        self.reset_fn_state();
        self.dead = None;
        self.terminated = false;
        self.declare_outputs()?;
        self.inputs();
        self.output_defaults();
        let main = self.scan.main.clone();
        self.emit_range(&ins[main.clone()], &offsets[main])?;
        if self.dead.is_none() {
            self.emit_return()?;
        }
        if !self.terminated {
            inst(&mut self.m.body, Op::Return, &[]);
        }
        // The entry point's body stays in `body`: the assembly appends it (one copy less).
        self.main_fn = self.m.id();
        self.function_head(self.main_fn);
        self.itf.discards = self.scan.discards || self.o.pipeline.alpha_test != CompareFunc::Always;
        Ok(())
    }

    /// Gives the pixel inputs compact locations `0..N` (in fixed-location order) and
    /// rewrites their decorations; returns the reads for the vertex shader.
    pub fn link_pixel_inputs(&mut self) -> Vec<LinkRead> {
        let mut reads = std::mem::take(&mut self.reads);
        reads.sort_unstable_by_key(|r| r.fixed);
        for (n, r) in reads.iter_mut().enumerate() {
            r.location = n as u32;
        }
        for lw in &self.loc_words {
            if let Some(r) = reads.iter().find(|r| r.fixed == lw.fixed) {
                self.m.dec[lw.word] = r.location;
            }
        }
        for v in &mut self.itf.varyings {
            if let Some(r) = reads.iter().find(|r| r.fixed == v.location) {
                v.location = r.location;
            }
        }
        self.itf.linked = true;
        reads
    }
}

fn range_start(s: &(u16, std::ops::Range<usize>)) -> usize {
    s.1.start.saturating_sub(1)
}

/// Subroutine indices in an order where every callee comes before its callers.
fn call_order(
    subs: &[(u16, std::ops::Range<usize>)],
    ins: &[Instruction],
    offsets: &[u32],
) -> Result<Vec<usize>, Error> {
    let n = subs.len();
    let mut state = vec![0u8; n];
    let mut order = Vec::with_capacity(n);
    // Iterative depth-first search: (sub, next instruction index).
    let mut stack: Vec<(usize, usize)> = Vec::new();
    for root in 0..n {
        if state[root] != 0 {
            continue;
        }
        state[root] = 1;
        stack.push((root, subs[root].1.start));
        while let Some(&mut (i, ref mut pc)) = stack.last_mut() {
            let end = subs[i].1.end;
            let mut pushed = None;
            while *pc < end {
                let x = &ins[*pc];
                *pc += 1;
                if matches!(x.opcode, Opcode::Call | Opcode::CallNz) {
                    if let Some(j) = subs.iter().position(|s| s.0 == x.srcs[0].reg.num) {
                        match state[j] {
                            0 => {
                                pushed = Some(j);
                                break;
                            }
                            1 => {
                                return Err(Error::Flow {
                                    offset: offsets[*pc - 1],
                                    why: "recursive call",
                                })
                            }
                            _ => {}
                        }
                    }
                }
            }
            match pushed {
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
