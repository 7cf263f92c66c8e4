//! The lowering: D3D9 instructions → naga IR.
//!
//! Registers are SSA values inside straight-line code: a register's current value is an
//! expression handle, a write with a partial mask is one `Select` against a constant
//! boolean mask. Only registers written somewhere in a shader with flow control get a
//! backing variable (a function local, or a private global when the shader has
//! subroutines, which share every register); their values are stored at block
//! boundaries only. Device-dependent results follow [`d3dbc::Semantics`].

use rustc_hash::FxHashMap as HashMap;
use std::num::NonZeroU32;

use d3dbc::ir::{DstParam, Instruction, SrcParam};
use d3dbc::semantics::{LogOfZero, MovaTies, MulZero, ReciprocalOfZero};
use d3dbc::token::{Comparison, DeclUsage, RegisterType, SamplerType, SrcModifier};
use d3dbc::{Opcode, Version};
use naga::{
    AddressSpace, ArraySize, BinaryOperator as B, Binding, BuiltIn, Expression, Function,
    FunctionArgument, FunctionResult, GlobalVariable, Handle, ImageClass, ImageDimension,
    Interpolation, LocalVariable, MathFunction as M, Module, ResourceBinding, SampleLevel,
    Sampling, ScalarKind, ShaderStage, Span, Statement, StructMember, Type, TypeInner,
    UnaryOperator, VectorSize,
};

use crate::builder::{Func, Types};
use crate::interface::{self as itf, driver, Interface, Stage};
use crate::options::{CompareFunc, FogDepth, FogMode, TextureKind, TranslateOptions};
use crate::scan::{Decl, Key, Scan};
use crate::Error;

type H = Handle<Expression>;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum SlotTy {
    F4,
    I4,
    I1,
    B4,
}

#[derive(Clone, Copy)]
enum Backing {
    None,
    Local(Handle<LocalVariable>),
    Global(Handle<GlobalVariable>),
}

struct Slot {
    key: Key,
    ty: SlotTy,
    backing: Backing,
}

struct Tex {
    image: Handle<GlobalVariable>,
    sampler: Handle<GlobalVariable>,
    kind: TextureKind,
}

enum Frame {
    If {
        cond: H,
        accept: Option<naga::Block>,
    },
    Loop {
        counter: Handle<LocalVariable>,
        step: Option<H>,
        saved_al: Option<Handle<LocalVariable>>,
    },
}

struct Output {
    binding: Binding,
    ty: Handle<Type>,
    name: String,
}

pub(crate) struct Lower<'a> {
    pub m: Module,
    t: Types,
    o: &'a TranslateOptions,
    v: Version,
    ps: bool,
    ps1x: bool,
    scan: Scan,
    slots: Vec<Slot>,
    index: HashMap<Key, usize>,
    fun: Func,
    cache: Vec<Option<H>>,
    dirty: Vec<bool>,
    ptrs: Vec<Option<H>>,
    in_entry: bool,
    dead: Option<usize>,
    frames: Vec<Frame>,
    c_gv: Option<(Handle<GlobalVariable>, u32)>,
    i_gv: Option<Handle<GlobalVariable>>,
    b_gv: Option<Handle<GlobalVariable>>,
    d_gv: Option<Handle<GlobalVariable>>,
    texs: HashMap<u16, Tex>,
    mask_consts: [Option<Handle<naga::Constant>>; 16],
    /// Entry arguments: texcoord inputs by number (ps_1_x texture ops).
    tc_args: HashMap<u16, H>,
    fog_arg: Option<H>,
    /// Point expansion: the corner of the point quad, `(x, y, 0, 1)` with x, y in {0, 1}.
    corner: Option<H>,
    fragcoord_arg: Option<H>,
    labels: HashMap<u16, Handle<Function>>,
    pads: Vec<H>,
    deferred: Option<Vec<(DstParam, H)>>,
    args: Vec<FunctionArgument>,
    outputs: Vec<Output>,
    pub itf: Interface,
}

fn slot_ty(v: Version, k: RegisterType) -> Option<SlotTy> {
    use RegisterType::*;
    Some(match k {
        AddrOrTexture if v.is_vertex() => SlotTy::I4,
        Loop => SlotTy::I1,
        Predicate => SlotTy::B4,
        Temp | Input | AddrOrTexture | RastOut | AttrOut | Output | ColorOut | DepthOut
        | MiscType | TempFloat16 => SlotTy::F4,
        _ => return None,
    })
}

fn cmp_op(c: Option<Comparison>) -> B {
    match c {
        Some(Comparison::Gt) => B::Greater,
        Some(Comparison::Eq) => B::Equal,
        Some(Comparison::Ge) => B::GreaterEqual,
        Some(Comparison::Lt) => B::Less,
        Some(Comparison::Ne) => B::NotEqual,
        Some(Comparison::Le) | None => B::LessEqual,
    }
}

fn loc(location: u32, interp: Interpolation, centroid: bool) -> Binding {
    Binding::Location {
        location,
        interpolation: Some(interp),
        sampling: if interp == Interpolation::Flat {
            None
        } else if centroid {
            Some(Sampling::Centroid)
        } else {
            Some(Sampling::Center)
        },
        blend_src: None,
        per_primitive: false,
    }
}

impl<'a> Lower<'a> {
    pub fn new(v: Version, scan: Scan, o: &'a TranslateOptions) -> Self {
        let mut m = Module::default();
        let t = Types::new(&mut m.types);
        let vec4u = t.vec4u;
        let ps = v.is_pixel();
        let itf = Interface {
            stage: if ps { Stage::Fragment } else { Stage::Vertex },
            version: v.to_string(),
            entry_point: "main".into(),
            group: itf::GROUP,
            float_constants: None,
            int_constants: None,
            bool_constants: None,
            driver: None,
            samplers: Vec::new(),
            vertex_inputs: Vec::new(),
            varyings: Vec::new(),
            color_outputs: Vec::new(),
            depth_output: false,
            discards: false,
            linked: false,
        };
        Lower {
            m,
            t,
            o,
            v,
            ps,
            ps1x: ps && v.major < 2,
            scan,
            slots: Vec::new(),
            index: HashMap::default(),
            fun: Func::new("main", vec4u),
            cache: Vec::new(),
            dirty: Vec::new(),
            ptrs: Vec::new(),
            in_entry: true,
            dead: None,
            frames: Vec::new(),
            c_gv: None,
            i_gv: None,
            b_gv: None,
            d_gv: None,
            texs: HashMap::default(),
            mask_consts: [None; 16],
            tc_args: HashMap::default(),
            fog_arg: None,
            corner: None,
            fragcoord_arg: None,
            labels: HashMap::default(),
            pads: Vec::new(),
            deferred: None,
            args: Vec::new(),
            outputs: Vec::new(),
            itf,
        }
    }

    // ------------------------------------------------------------------ globals

    fn global(
        &mut self,
        name: &str,
        space: AddressSpace,
        binding: Option<u32>,
        ty: Handle<Type>,
    ) -> Handle<GlobalVariable> {
        self.m.global_variables.append(
            GlobalVariable {
                name: Some(name.into()),
                space,
                binding: binding.map(|b| ResourceBinding {
                    group: itf::GROUP,
                    binding: b,
                }),
                ty,
                init: None,
                memory_decorations: Default::default(),
            },
            Span::UNDEFINED,
        )
    }

    fn array_ty(&mut self, base: Handle<Type>, n: u32) -> Handle<Type> {
        self.m.types.insert(
            Type {
                name: None,
                inner: TypeInner::Array {
                    base,
                    size: ArraySize::Constant(NonZeroU32::new(n.max(1)).unwrap()),
                    stride: 16,
                },
            },
            Span::UNDEFINED,
        )
    }

    /// A uniform block of `n` vec4 registers at `binding`, and its interface record.
    fn uniform_block(
        &mut self,
        name: &str,
        binding: u32,
        elem: Handle<Type>,
        n: u32,
    ) -> (Handle<GlobalVariable>, Option<itf::ConstantBuffer>) {
        let ty = self.array_ty(elem, n);
        let gv = self.global(name, AddressSpace::Uniform, Some(binding), ty);
        let record = itf::ConstantBuffer {
            binding,
            registers: n,
        };
        (gv, Some(record))
    }

    /// This stage's binding: the pixel or the vertex one.
    fn stage_binding(&self, ps: u32, vs: u32) -> u32 {
        if self.ps {
            ps
        } else {
            vs
        }
    }

    fn float_consts(&mut self) -> (Handle<GlobalVariable>, u32) {
        if let Some(c) = self.c_gv {
            return c;
        }
        // The executor's constant file (one rule, in the register table), at most 4096
        // registers: 64 KiB, the uniform-buffer binding size every Vulkan device offers.
        let n = d3dbc::regs::float_constant_file(self.v, self.scan.max_const).min(4096);
        let b = self.stage_binding(itf::PS_FLOAT_BINDING, itf::VS_FLOAT_BINDING);
        let (gv, record) = self.uniform_block("c", b, self.t.vec4f, n);
        self.itf.float_constants = record;
        self.c_gv = Some((gv, n));
        (gv, n)
    }

    fn int_consts(&mut self) -> Handle<GlobalVariable> {
        if let Some(c) = self.i_gv {
            return c;
        }
        let b = self.stage_binding(itf::PS_INT_BINDING, itf::VS_INT_BINDING);
        let (gv, record) = self.uniform_block("i", b, self.t.vec4i, itf::INT_CONSTANTS);
        self.itf.int_constants = record;
        self.i_gv = Some(gv);
        gv
    }

    fn bool_consts(&mut self) -> Handle<GlobalVariable> {
        if let Some(c) = self.b_gv {
            return c;
        }
        let b = self.stage_binding(itf::PS_BOOL_BINDING, itf::VS_BOOL_BINDING);
        let (gv, record) = self.uniform_block("b", b, self.t.vec4u, itf::INT_CONSTANTS);
        self.itf.bool_constants = record;
        self.b_gv = Some(gv);
        gv
    }

    /// `driver[i]` (vec4f).
    fn driver(&mut self, i: u32) -> H {
        let gv = match self.d_gv {
            Some(g) => g,
            None => {
                let (g, record) =
                    self.uniform_block("driver", itf::DRIVER_BINDING, self.t.vec4f, driver::VEC4S);
                self.itf.driver = record;
                self.d_gv = Some(g);
                g
            }
        };
        let p = self.fun.e(Expression::GlobalVariable(gv));
        let a = self.fun.e(Expression::AccessIndex { base: p, index: i });
        self.fun.load(a)
    }

    fn texture(&mut self, stage: u16) -> (H, H, TextureKind) {
        if !self.texs.contains_key(&stage) {
            let kind = if self.ps1x {
                self.o.pipeline.sm1_kind(stage as usize)
            } else {
                match self.scan.samplers.get(&stage) {
                    Some(SamplerType::Cube) => TextureKind::Cube,
                    Some(SamplerType::Volume) => TextureKind::Volume,
                    _ => TextureKind::Tex2d,
                }
            };
            let dim = match kind {
                TextureKind::Tex2d => ImageDimension::D2,
                TextureKind::Cube => ImageDimension::Cube,
                TextureKind::Volume => ImageDimension::D3,
            };
            let ity = self.m.types.insert(
                Type {
                    name: None,
                    inner: TypeInner::Image {
                        dim,
                        arrayed: false,
                        class: ImageClass::Sampled {
                            kind: ScalarKind::Float,
                            multi: false,
                        },
                    },
                },
                Span::UNDEFINED,
            );
            let sty = self.m.types.insert(
                Type {
                    name: None,
                    inner: TypeInner::Sampler { comparison: false },
                },
                Span::UNDEFINED,
            );
            let base = if self.ps {
                itf::PS_TEXTURE_BASE
            } else {
                itf::VS_TEXTURE_BASE
            } + 2 * stage as u32;
            let image = self.global(&format!("t{stage}"), AddressSpace::Handle, Some(base), ity);
            let sampler = self.global(
                &format!("s{stage}"),
                AddressSpace::Handle,
                Some(base + 1),
                sty,
            );
            self.itf.samplers.push(itf::SamplerBinding {
                stage: stage as u32,
                kind,
                texture_binding: base,
                sampler_binding: base + 1,
            });
            self.texs.insert(
                stage,
                Tex {
                    image,
                    sampler,
                    kind,
                },
            );
        }
        let t = &self.texs[&stage];
        let (i, s, k) = (t.image, t.sampler, t.kind);
        let ie = self.fun.e(Expression::GlobalVariable(i));
        let se = self.fun.e(Expression::GlobalVariable(s));
        (ie, se, k)
    }

    fn mask_const(&mut self, mask: u8) -> H {
        let m = (mask & 15) as usize;
        let c = match self.mask_consts[m] {
            Some(c) => c,
            None => {
                let comps = (0..4)
                    .map(|i| {
                        self.m.global_expressions.append(
                            Expression::Literal(naga::Literal::Bool(mask & (1 << i) != 0)),
                            Span::UNDEFINED,
                        )
                    })
                    .collect();
                let init = self.m.global_expressions.append(
                    Expression::Compose {
                        ty: self.t.vec4b,
                        components: comps,
                    },
                    Span::UNDEFINED,
                );
                let c = self.m.constants.append(
                    naga::Constant {
                        name: None,
                        ty: self.t.vec4b,
                        init,
                    },
                    Span::UNDEFINED,
                );
                self.mask_consts[m] = Some(c);
                c
            }
        };
        self.fun.e(Expression::Constant(c))
    }

    // ------------------------------------------------------------------ slots

    fn ty_of(&self, s: SlotTy) -> Handle<Type> {
        match s {
            SlotTy::F4 => self.t.vec4f,
            SlotTy::I4 => self.t.vec4i,
            SlotTy::I1 => self.t.i32,
            SlotTy::B4 => self.t.vec4b,
        }
    }

    /// Creates the slots and their backing storage.
    fn make_slots(&mut self) {
        let keys: Vec<Key> = self.scan.used.iter().copied().collect();
        for key in keys {
            let Some(ty) = slot_ty(self.v, key.0) else {
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
            } else if self.scan.has_flow && self.scan.written.contains(&key) {
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

    fn reset_fn_state(&mut self) {
        let n = self.slots.len();
        self.cache = vec![None; n];
        self.dirty = vec![false; n];
        self.ptrs = vec![None; n];
    }

    fn ptr(&mut self, i: usize) -> Option<H> {
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

    fn slot_zero(&mut self, i: usize) -> H {
        let ty = self.ty_of(self.slots[i].ty);
        self.fun.e(Expression::ZeroValue(ty))
    }

    fn read_slot(&mut self, i: usize) -> H {
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

    fn set_slot(&mut self, i: usize, v: H) {
        self.cache[i] = Some(v);
        self.dirty[i] = true;
    }

    fn slot(&mut self, kind: RegisterType, num: u16) -> Option<usize> {
        self.index.get(&(kind, num)).copied()
    }

    /// Stores dirty backed values (before a block boundary or a call).
    fn flush(&mut self) {
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
    fn invalidate(&mut self) {
        for i in 0..self.slots.len() {
            if !matches!(self.slots[i].backing, Backing::None) {
                self.cache[i] = None;
                self.dirty[i] = false;
            }
        }
    }

    fn boundary(&mut self) {
        self.flush();
        self.invalidate();
    }

    // ------------------------------------------------------------------ values

    fn zero4(&mut self) -> H {
        self.fun.e(Expression::ZeroValue(self.t.vec4f))
    }

    fn vec4(&mut self, c: [H; 4]) -> H {
        self.fun.compose(self.t.vec4f, c.to_vec())
    }

    fn vec4_lit(&mut self, v: [f32; 4]) -> H {
        if v[1..].iter().all(|x| x.to_bits() == v[0].to_bits()) {
            return self.fun.splat_f(v[0]);
        }
        let c = v.map(|x| self.fun.f(x));
        self.vec4(c)
    }

    /// `a · b` under the 0·x rule, component-wise on vec4s.
    fn mulz(&mut self, a: H, b: H) -> H {
        let (a, b) = self.zero_factors(a, b, true);
        self.fun.mul(a, b)
    }

    /// `a · b` under the 0·x rule, on scalars.
    fn mulz1(&mut self, a: H, b: H) -> H {
        let (a, b) = self.zero_factors(a, b, false);
        self.fun.mul(a, b)
    }

    fn zero_factors(&mut self, a: H, b: H, vec: bool) -> (H, H) {
        match self.o.semantics.mul_zero {
            MulZero::Ieee => (a, b),
            MulZero::Strict => {
                let z = if vec { self.zero4() } else { self.fun.f(0.0) };
                let a0 = self.fun.bin(B::Equal, a, z);
                let b0 = self.fun.bin(B::Equal, b, z);
                let na = self.fun.select(b0, z, a);
                let nb = self.fun.select(a0, z, b);
                (na, nb)
            }
            MulZero::Fast => {
                let (lo, hi) = if vec {
                    (self.fun.splat_f(-f32::MAX), self.fun.splat_f(f32::MAX))
                } else {
                    (self.fun.f(-f32::MAX), self.fun.f(f32::MAX))
                };
                let ca = self.fun.math(M::Clamp, a, Some(lo), Some(hi));
                let cb = self.fun.math(M::Clamp, b, Some(lo), Some(hi));
                (ca, cb)
            }
        }
    }

    /// Sum of the first `n` products `a[i]·b[i]` under the 0·x rule: the factors are
    /// zeroed as the rule says, then one `dot` adds the products.
    fn dotz(&mut self, a: H, b: H, n: u32) -> H {
        let (a, b) = self.zero_factors(a, b, true);
        let (a, b) = match n {
            4 => (a, b),
            3 => (
                self.fun.swz(a, VectorSize::Tri, [0, 1, 2, 0]),
                self.fun.swz(b, VectorSize::Tri, [0, 1, 2, 0]),
            ),
            _ => (
                self.fun.swz(a, VectorSize::Bi, [0, 1, 0, 0]),
                self.fun.swz(b, VectorSize::Bi, [0, 1, 0, 0]),
            ),
        };
        self.fun.math(M::Dot, a, Some(b), None)
    }

    fn bits_f32(&mut self, bits: u32) -> H {
        self.fun.f_bits(bits)
    }

    fn big(&mut self) -> H {
        match self.o.semantics.rcp_zero {
            ReciprocalOfZero::Infinity => self.bits_f32(0x7f80_0000),
            ReciprocalOfZero::FltMax => self.fun.f(f32::MAX),
        }
    }

    /// The scalar operand of rcp/rsq/exp/log…: `.w` of the swizzled source in SM1,
    /// `.x` from SM2 on.
    fn scalar(&mut self, v: H) -> H {
        let c = if self.v.major < 2 { 3 } else { 0 };
        self.fun.comp(v, c)
    }

    fn rcp(&mut self, x: H) -> H {
        let one = self.fun.f(1.0);
        let q = self.fun.div(one, x);
        let z = self.fun.f(0.0);
        let is0 = self.fun.bin(B::Equal, x, z);
        let big = self.big();
        // copysign(big, x)
        let xb = self.fun.bitcast(x, ScalarKind::Uint);
        let sm = self.fun.u(0x8000_0000);
        let sign = self.fun.bin(B::And, xb, sm);
        let bb = self.fun.bitcast(big, ScalarKind::Uint);
        let sb = self.fun.bin(B::InclusiveOr, bb, sign);
        let sbig = self.fun.bitcast(sb, ScalarKind::Float);
        self.fun.select(is0, sbig, q)
    }

    fn rsq(&mut self, x: H) -> H {
        let a = self.fun.m1(M::Abs, x);
        let r = self.fun.m1(M::InverseSqrt, a);
        let z = self.fun.f(0.0);
        let is0 = self.fun.bin(B::Equal, a, z);
        let big = self.big();
        self.fun.select(is0, big, r)
    }

    fn log2(&mut self, x: H) -> H {
        let a = self.fun.m1(M::Abs, x);
        let l = self.fun.m1(M::Log2, a);
        let z = self.fun.f(0.0);
        let is0 = self.fun.bin(B::Equal, a, z);
        let lz = match self.o.semantics.log_zero {
            LogOfZero::NegFltMax => self.fun.f(-f32::MAX),
            LogOfZero::NegInfinity => self.bits_f32(0xff80_0000),
        };
        self.fun.select(is0, lz, l)
    }

    /// A register's value as vec4f before swizzle and modifiers.
    fn reg_value(&mut self, s: &SrcParam) -> Result<H, Error> {
        use RegisterType::*;
        let k = s.reg.kind;
        Ok(match k {
            Const | Const2 | Const3 | Const4 => {
                let n = d3dbc::regs::float_constant_index(k, s.reg.num);
                let v = self.const_f(n, s.rel)?;
                if self.ps1x && self.o.semantics.ps1x_clamp_constants {
                    let lo = self.fun.splat_f(-1.0);
                    let hi = self.fun.splat_f(1.0);
                    self.fun.math(M::Clamp, v, Some(lo), Some(hi))
                } else {
                    v
                }
            }
            ConstInt => {
                let v = self.const_i(s.reg.num);
                self.fun.cast(v, ScalarKind::Float)
            }
            ConstBool => {
                let b = self.const_b(s.reg.num);
                let one = self.fun.f(1.0);
                let zero = self.fun.f(0.0);
                let f = self.fun.select(b, one, zero);
                self.fun.splat(f)
            }
            Sampler | Label => self.zero4(),
            _ => {
                if let (Some(rel), Input) = (s.rel, k) {
                    return self.rel_input(s.reg.num, rel);
                }
                let Some(i) = self.slot(k, s.reg.num) else {
                    return Ok(self.zero4());
                };
                let v = self.read_slot(i);
                match self.slots[i].ty {
                    SlotTy::F4 => v,
                    SlotTy::I4 => self.fun.cast(v, ScalarKind::Float),
                    SlotTy::I1 => {
                        let f = self.fun.cast(v, ScalarKind::Float);
                        self.fun.splat(f)
                    }
                    SlotTy::B4 => {
                        let one = self.fun.splat_f(1.0);
                        let zero = self.zero4();
                        self.fun.select(v, one, zero)
                    }
                }
            }
        })
    }

    /// The value of a relative address register component (i32).
    fn addr(&mut self, rel: d3dbc::ir::RelAddr) -> H {
        match rel.reg.kind {
            RegisterType::Loop => match self.slot(RegisterType::Loop, 0) {
                Some(i) => self.read_slot(i),
                None => self.fun.i(0),
            },
            _ => match self.slot(rel.reg.kind, rel.reg.num) {
                Some(i) if self.slots[i].ty == SlotTy::I4 => {
                    let v = self.read_slot(i);
                    self.fun.comp(v, rel.component() as u32)
                }
                _ => self.fun.i(0),
            },
        }
    }

    fn const_f(&mut self, n: u32, rel: Option<d3dbc::ir::RelAddr>) -> Result<H, Error> {
        let (gv, len) = self.float_consts();
        match rel {
            None => {
                if let Some(d) = self.scan.float_defs.get(&(n as u16)).copied() {
                    if n < 65536 {
                        return Ok(self.vec4_lit(d));
                    }
                }
                if n >= len {
                    return Ok(self.zero4());
                }
                let p = self.fun.e(Expression::GlobalVariable(gv));
                let a = self.fun.e(Expression::AccessIndex { base: p, index: n });
                Ok(self.fun.load(a))
            }
            Some(rel) => {
                let a = self.addr(rel);
                let base = self.fun.i(n as i32);
                let idx = self.fun.add(a, base);
                let iu = self.fun.bitcast(idx, ScalarKind::Uint);
                let lim = self.fun.u(len);
                let ok = self.fun.bin(B::Less, iu, lim);
                let last = self.fun.u(len - 1);
                let cl = self.fun.math(M::Min, iu, Some(last), None);
                let p = self.fun.e(Expression::GlobalVariable(gv));
                let acc = self.fun.e(Expression::Access { base: p, index: cl });
                let val = self.fun.load(acc);
                let z = self.zero4();
                let mut r = self.fun.select(ok, val, z);
                let defs: Vec<(u16, [f32; 4])> =
                    self.scan.float_defs.iter().map(|(k, v)| (*k, *v)).collect();
                for (k, d) in defs {
                    let kk = self.fun.i(k as i32);
                    let eq = self.fun.bin(B::Equal, idx, kk);
                    let dv = self.vec4_lit(d);
                    r = self.fun.select(eq, dv, r);
                }
                Ok(r)
            }
        }
    }

    fn const_i(&mut self, n: u16) -> H {
        if let Some(d) = self.scan.int_defs.get(&n).copied() {
            let c = d.map(|x| self.fun.i(x));
            return self.fun.compose(self.t.vec4i, c.to_vec());
        }
        if n as u32 >= itf::INT_CONSTANTS {
            return self.fun.e(Expression::ZeroValue(self.t.vec4i));
        }
        let gv = self.int_consts();
        let p = self.fun.e(Expression::GlobalVariable(gv));
        let a = self.fun.e(Expression::AccessIndex {
            base: p,
            index: n as u32,
        });
        self.fun.load(a)
    }

    fn const_b(&mut self, n: u16) -> H {
        if let Some(d) = self.scan.bool_defs.get(&n).copied() {
            return self.fun.b(d);
        }
        if n as u32 >= itf::INT_CONSTANTS {
            return self.fun.b(false);
        }
        let gv = self.bool_consts();
        let p = self.fun.e(Expression::GlobalVariable(gv));
        let a = self.fun.e(Expression::AccessIndex {
            base: p,
            index: n as u32,
        });
        let v = self.fun.load(a);
        let x = self.fun.comp(v, 0);
        let z = self.fun.u(0);
        self.fun.bin(B::NotEqual, x, z)
    }

    fn rel_input(&mut self, base: u16, rel: d3dbc::ir::RelAddr) -> Result<H, Error> {
        let a = self.addr(rel);
        let b = self.fun.i(base as i32);
        let idx = self.fun.add(a, b);
        let mut r = self.zero4();
        let regs: Vec<(u16, usize)> = self
            .slots
            .iter()
            .enumerate()
            .filter(|(_, s)| s.key.0 == RegisterType::Input)
            .map(|(i, s)| (s.key.1, i))
            .collect();
        for (n, i) in regs {
            let v = self.read_slot(i);
            let k = self.fun.i(n as i32);
            let eq = self.fun.bin(B::Equal, idx, k);
            r = self.fun.select(eq, v, r);
        }
        Ok(r)
    }

    /// A source operand: register, swizzle, modifier.
    fn src(&mut self, s: &SrcParam) -> Result<H, Error> {
        let v = self.reg_value(s)?;
        let v = if s.swizzle != d3dbc::ir::SWIZZLE_IDENTITY {
            let p = [
                s.swizzle & 3,
                (s.swizzle >> 2) & 3,
                (s.swizzle >> 4) & 3,
                (s.swizzle >> 6) & 3,
            ];
            self.fun.swz(v, VectorSize::Quad, p)
        } else {
            v
        };
        Ok(self.modifier(v, s.modifier))
    }

    fn modifier(&mut self, v: H, m: SrcModifier) -> H {
        use SrcModifier::*;
        let neg = |l: &mut Self, x: H| {
            l.fun.e(Expression::Unary {
                op: UnaryOperator::Negate,
                expr: x,
            })
        };
        match m {
            None | Not => v,
            Neg => neg(self, v),
            Bias | BiasNeg => {
                let h = self.fun.splat_f(0.5);
                let r = self.fun.sub(v, h);
                if m == BiasNeg {
                    neg(self, r)
                } else {
                    r
                }
            }
            Sign | SignNeg => {
                let h = self.fun.splat_f(0.5);
                let r = self.fun.sub(v, h);
                let two = self.fun.splat_f(2.0);
                let r = self.fun.mul(r, two);
                if m == SignNeg {
                    neg(self, r)
                } else {
                    r
                }
            }
            Comp => {
                let one = self.fun.splat_f(1.0);
                self.fun.sub(one, v)
            }
            X2 | X2Neg => {
                let two = self.fun.splat_f(2.0);
                let r = self.fun.mul(v, two);
                if m == X2Neg {
                    neg(self, r)
                } else {
                    r
                }
            }
            Dz | Dw => {
                let c = if m == Dz { 2 } else { 3 };
                let d = self.fun.comp(v, c);
                let d = self.fun.splat(d);
                self.fun.div(v, d)
            }
            Abs => self.fun.m1(M::Abs, v),
            AbsNeg => {
                let a = self.fun.m1(M::Abs, v);
                neg(self, a)
            }
        }
    }

    /// A scalar boolean condition source (`b#`, `p0.c`, with `!`).
    fn bool_src(&mut self, s: &SrcParam) -> Result<H, Error> {
        let b = match s.reg.kind {
            RegisterType::ConstBool => self.const_b(s.reg.num),
            RegisterType::Predicate => {
                let v = match self.slot(RegisterType::Predicate, s.reg.num) {
                    Some(i) => self.read_slot(i),
                    None => self.fun.e(Expression::ZeroValue(self.t.vec4b)),
                };
                self.fun.comp(v, (s.swizzle & 3) as u32)
            }
            _ => {
                let v = self.src(s)?;
                let x = self.fun.comp(v, 0);
                let z = self.fun.f(0.0);
                self.fun.bin(B::NotEqual, x, z)
            }
        };
        Ok(if s.modifier == SrcModifier::Not {
            self.fun.e(Expression::Unary {
                op: UnaryOperator::LogicalNot,
                expr: b,
            })
        } else {
            b
        })
    }

    // ------------------------------------------------------------------ writes

    fn write(&mut self, ins: &Instruction, v: H) -> Result<(), Error> {
        if let Some(d) = self.deferred.as_mut() {
            d.push((ins.dst, v));
            return Ok(());
        }
        self.write_dst(ins.dst, ins.predicate, v)
    }

    fn write_dst(&mut self, dst: DstParam, pred: Option<SrcParam>, mut v: H) -> Result<(), Error> {
        let sh = dst.shift_value();
        if sh != 0 {
            let f = self.fun.splat_f((sh as f32).exp2());
            v = self.fun.mul(v, f);
        }
        if dst.saturate() {
            v = self.fun.m1(M::Saturate, v);
        } else if self.ps1x {
            let m = self.o.semantics.ps1x_max_value;
            let lo = self.fun.splat_f(-m);
            let hi = self.fun.splat_f(m);
            v = self.fun.math(M::Clamp, v, Some(lo), Some(hi));
        }
        let k = dst.reg.kind;
        if let (Some(rel), RegisterType::Output) = (dst.rel, k) {
            // o[aL + n]: every declared output may be the target.
            let a = self.addr(rel);
            let b = self.fun.i(dst.reg.num as i32);
            let idx = self.fun.add(a, b);
            let regs: Vec<(u16, usize)> = self
                .slots
                .iter()
                .enumerate()
                .filter(|(_, s)| s.key.0 == RegisterType::Output)
                .map(|(i, s)| (s.key.1, i))
                .collect();
            for (n, i) in regs {
                let old = self.read_slot(i);
                let nv = self.masked(old, v, dst.mask, pred)?;
                let kk = self.fun.i(n as i32);
                let eq = self.fun.bin(B::Equal, idx, kk);
                let r = self.fun.select(eq, nv, old);
                self.set_slot(i, r);
            }
            return Ok(());
        }
        let Some(i) = self.slot(k, dst.reg.num) else {
            return Ok(());
        };
        let v = match self.slots[i].ty {
            SlotTy::F4 => v,
            SlotTy::I4 => self.fun.cast(v, ScalarKind::Sint),
            SlotTy::I1 => {
                let x = self.fun.comp(v, 0);
                self.fun.cast(x, ScalarKind::Sint)
            }
            SlotTy::B4 => v,
        };
        let old = if dst.mask & 15 == 15 && pred.is_none() {
            None
        } else {
            Some(self.read_slot(i))
        };
        let nv = match old {
            None => v,
            Some(old) => {
                if self.slots[i].ty == SlotTy::I1 {
                    v
                } else {
                    self.masked(old, v, dst.mask, pred)?
                }
            }
        };
        self.set_slot(i, nv);
        Ok(())
    }

    fn masked(&mut self, old: H, v: H, mask: u8, pred: Option<SrcParam>) -> Result<H, Error> {
        let mut nv = if mask & 15 == 15 {
            v
        } else {
            let m = self.mask_const(mask);
            self.fun.select(m, v, old)
        };
        if let Some(p) = pred {
            let pv = match self.slot(RegisterType::Predicate, p.reg.num) {
                Some(i) => self.read_slot(i),
                None => self.fun.e(Expression::ZeroValue(self.t.vec4b)),
            };
            let pv = if p.swizzle != d3dbc::ir::SWIZZLE_IDENTITY {
                let pat = [
                    p.swizzle & 3,
                    (p.swizzle >> 2) & 3,
                    (p.swizzle >> 4) & 3,
                    (p.swizzle >> 6) & 3,
                ];
                self.fun.swz(pv, VectorSize::Quad, pat)
            } else {
                pv
            };
            let pv = if p.modifier == SrcModifier::Not {
                self.fun.e(Expression::Unary {
                    op: UnaryOperator::LogicalNot,
                    expr: pv,
                })
            } else {
                pv
            };
            nv = self.fun.select(pv, nv, old);
        }
        Ok(nv)
    }

    // ------------------------------------------------------------------ textures

    fn sample(&mut self, stage: u16, coord: H, level: Level) -> H {
        let (image, sampler, kind) = self.texture(stage);
        let (size, pat) = match kind {
            TextureKind::Tex2d => (VectorSize::Bi, [0, 1, 0, 0]),
            _ => (VectorSize::Tri, [0, 1, 2, 0]),
        };
        let c = self.fun.swz(coord, size, pat);
        let level = match level {
            Level::Auto if !self.ps => SampleLevel::Zero,
            Level::Auto => SampleLevel::Auto,
            Level::Bias(b) => SampleLevel::Bias(b),
            Level::Exact(l) => SampleLevel::Exact(l),
            Level::Grad(x, y) => {
                let gx = self.fun.swz(x, size, pat);
                let gy = self.fun.swz(y, size, pat);
                SampleLevel::Gradient { x: gx, y: gy }
            }
        };
        self.fun.e(Expression::ImageSample {
            image,
            sampler,
            gather: None,
            coordinate: c,
            array_index: None,
            offset: None,
            level,
            depth_ref: None,
            clamp_to_edge: false,
        })
    }

    /// The interpolated texture coordinate of stage `n` (ps_1_x), projected as the
    /// pipeline state says.
    fn texcoord(&mut self, n: u16, project: bool) -> H {
        let v = match self.tc_args.get(&n) {
            Some(&h) => h,
            None => self.zero4(),
        };
        let count = self.o.pipeline.projection(n as usize);
        if project && (2..=4).contains(&count) && self.stage_kind(n) != TextureKind::Cube {
            let d = self.fun.comp(v, count as u32 - 1);
            let d = self.fun.splat(d);
            self.fun.div(v, d)
        } else {
            v
        }
    }

    fn stage_kind(&self, n: u16) -> TextureKind {
        self.o.pipeline.sm1_kind(n as usize)
    }

    fn reg_of(&mut self, kind: RegisterType, num: u16) -> Result<H, Error> {
        self.reg_value(&SrcParam::new(d3dbc::Register::new(kind, num)))
    }

    fn depth_write(&mut self, z: H, w: H) {
        let zero = self.fun.f(0.0);
        let one = self.fun.f(1.0);
        let is0 = self.fun.bin(B::Equal, w, zero);
        let q = self.fun.div(z, w);
        let d = self.fun.select(is0, one, q);
        let d = self.fun.splat(d);
        if let Some(i) = self.slot(RegisterType::DepthOut, 0) {
            self.set_slot(i, d);
        }
    }

    // ------------------------------------------------------------------ instructions

    fn lower_ins(&mut self, x: &Instruction) -> Result<(), Error> {
        use Opcode::*;
        let op = x.opcode;
        let s = |l: &mut Self, i: usize| l.src(&x.srcs[i]);
        match op {
            Nop | Dcl | Def | DefI | DefB | Comment | End | Label | Phase | Reserved0 => {}
            Mov => {
                let mut v = s(self, 0)?;
                if !self.ps && x.dst.reg.kind == RegisterType::AddrOrTexture {
                    v = if self.v.major < 2 {
                        self.fun.m1(M::Floor, v)
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
                let r = if op == Add {
                    self.fun.add(a, b)
                } else {
                    self.fun.sub(a, b)
                };
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
                    self.fun.math(M::Fma, a, Some(b), Some(c))
                } else {
                    let p = self.fun.mul(a, b);
                    self.fun.add(p, c)
                };
                self.write(x, r)?;
            }
            Rcp | Rsq | Exp | Log => {
                let v = s(self, 0)?;
                let xs = self.scalar(v);
                let r = match op {
                    Rcp => self.rcp(xs),
                    Rsq => self.rsq(xs),
                    Exp => self.fun.m1(M::Exp2, xs),
                    _ => self.log2(xs),
                };
                let r = self.fun.splat(r);
                self.write(x, r)?;
            }
            Frc => {
                let v = s(self, 0)?;
                let f = self.fun.m1(M::Floor, v);
                let r = self.fun.sub(v, f);
                self.write(x, r)?;
            }
            ExpP | LogP => {
                let v = s(self, 0)?;
                let xs = self.scalar(v);
                let r = if self.v.major < 2 {
                    let one = self.fun.f(1.0);
                    if op == ExpP {
                        let fl = self.fun.m1(M::Floor, xs);
                        let a = self.fun.m1(M::Exp2, fl);
                        let b = self.fun.sub(xs, fl);
                        let c = self.fun.m1(M::Exp2, xs);
                        self.vec4([a, b, c, one])
                    } else {
                        let l = self.log2(xs);
                        let e = self.fun.m1(M::Floor, l);
                        let ne = self.fun.e(Expression::Unary {
                            op: UnaryOperator::Negate,
                            expr: e,
                        });
                        let sc = self.fun.m1(M::Exp2, ne);
                        let ab = self.fun.m1(M::Abs, xs);
                        let mnt = self.fun.mul(ab, sc);
                        self.vec4([e, mnt, l, one])
                    }
                } else {
                    let r = if op == ExpP {
                        self.fun.m1(M::Exp2, xs)
                    } else {
                        self.log2(xs)
                    };
                    self.fun.splat(r)
                };
                self.write(x, r)?;
            }
            Dp3 | Dp4 => {
                let (a, b) = (s(self, 0)?, s(self, 1)?);
                let d = self.dotz(a, b, if op == Dp3 { 3 } else { 4 });
                let r = self.fun.splat(d);
                self.write(x, r)?;
            }
            Dp2Add => {
                let (a, b, c) = (s(self, 0)?, s(self, 1)?, s(self, 2)?);
                let d = self.dotz(a, b, 2);
                let cx = self.fun.comp(c, 0);
                let r = self.fun.add(d, cx);
                let r = self.fun.splat(r);
                self.write(x, r)?;
            }
            Min | Max => {
                let (a, b) = (s(self, 0)?, s(self, 1)?);
                let c = self
                    .fun
                    .bin(if op == Min { B::Less } else { B::GreaterEqual }, a, b);
                let r = self.fun.select(c, a, b);
                self.write(x, r)?;
            }
            Slt | Sge => {
                let (a, b) = (s(self, 0)?, s(self, 1)?);
                let c = self
                    .fun
                    .bin(if op == Slt { B::Less } else { B::GreaterEqual }, a, b);
                let one = self.fun.splat_f(1.0);
                let z = self.zero4();
                let r = self.fun.select(c, one, z);
                self.write(x, r)?;
            }
            Lit => {
                let v = s(self, 0)?;
                let (vx, vy, vw) = (
                    self.fun.comp(v, 0),
                    self.fun.comp(v, 1),
                    self.fun.comp(v, 3),
                );
                let one = self.fun.f(1.0);
                let zero = self.fun.f(0.0);
                let lim = 127.9961f32;
                let lo = self.fun.f(-lim);
                let hi = self.fun.f(lim);
                let p = self.fun.math(M::Clamp, vw, Some(lo), Some(hi));
                let xp = self.fun.bin(B::Greater, vx, zero);
                let yp = self.fun.bin(B::Greater, vy, zero);
                let both = self.fun.bin(B::LogicalAnd, xp, yp);
                let y = self.fun.select(xp, vx, zero);
                let ly = self.fun.m1(M::Log2, vy);
                let pl = self.mulz1(p, ly);
                let pw = self.fun.m1(M::Exp2, pl);
                let z = self.fun.select(both, pw, zero);
                let r = self.vec4([one, y, z, one]);
                self.write(x, r)?;
            }
            Dst => {
                let (a, b) = (s(self, 0)?, s(self, 1)?);
                let one = self.fun.f(1.0);
                let (ay, by) = (self.fun.comp(a, 1), self.fun.comp(b, 1));
                let y = self.mulz1(ay, by);
                let z = self.fun.comp(a, 2);
                let w = self.fun.comp(b, 3);
                let r = self.vec4([one, y, z, w]);
                self.write(x, r)?;
            }
            Lrp => {
                let (a, b, c) = (s(self, 0)?, s(self, 1)?, s(self, 2)?);
                let d = self.fun.sub(b, c);
                let p = self.mulz(a, d);
                let r = self.fun.add(p, c);
                self.write(x, r)?;
            }
            M4x4 | M4x3 | M3x4 | M3x3 | M3x2 => {
                let (n, rows) = match op {
                    M4x4 => (4, 4),
                    M4x3 => (4, 3),
                    M3x4 => (3, 4),
                    M3x3 => (3, 3),
                    _ => (3, 2),
                };
                let a = s(self, 0)?;
                let mut c = Vec::with_capacity(4);
                for r in 0..rows {
                    let mut row = x.srcs[1];
                    row.reg.num = row.reg.num.wrapping_add(r);
                    let b = self.src(&row)?;
                    c.push(self.dotz(a, b, n));
                }
                while c.len() < 4 {
                    c.push(self.fun.f(0.0));
                }
                let r = self.fun.compose(self.t.vec4f, c);
                self.write(x, r)?;
            }
            Pow => {
                let (a, b) = (s(self, 0)?, s(self, 1)?);
                let (ax, bx) = (self.scalar(a), self.scalar(b));
                let ab = self.fun.m1(M::Abs, ax);
                let l = self.fun.m1(M::Log2, ab);
                let p = self.mulz1(bx, l);
                let r = self.fun.m1(M::Exp2, p);
                let r = self.fun.splat(r);
                self.write(x, r)?;
            }
            Crs => {
                let (a, b) = (s(self, 0)?, s(self, 1)?);
                let a1 = self.fun.swz(a, VectorSize::Quad, [1, 2, 0, 3]);
                let b1 = self.fun.swz(b, VectorSize::Quad, [2, 0, 1, 3]);
                let a2 = self.fun.swz(a, VectorSize::Quad, [2, 0, 1, 3]);
                let b2 = self.fun.swz(b, VectorSize::Quad, [1, 2, 0, 3]);
                let p1 = self.mulz(a1, b1);
                let p2 = self.mulz(a2, b2);
                let r = self.fun.sub(p1, p2);
                self.write(x, r)?;
            }
            Sgn => {
                let a = s(self, 0)?;
                let r = self.fun.m1(M::Sign, a);
                self.write(x, r)?;
            }
            Abs => {
                let a = s(self, 0)?;
                let r = self.fun.m1(M::Abs, a);
                self.write(x, r)?;
            }
            Nrm => {
                let a = s(self, 0)?;
                let f = self.dotz(a, a, 3);
                let zero = self.fun.f(0.0);
                let is0 = self.fun.bin(B::Equal, f, zero);
                let r = self.fun.m1(M::InverseSqrt, f);
                let big = self.fun.f(f32::MAX);
                let sc = self.fun.select(is0, big, r);
                let sc = self.fun.splat(sc);
                let r = self.mulz(a, sc);
                self.write(x, r)?;
            }
            SinCos => {
                let a = s(self, 0)?;
                let c = if self.v.major < 3 {
                    self.fun.comp(a, 0)
                } else {
                    self.scalar(a)
                };
                let co = self.fun.m1(M::Cos, c);
                let si = self.fun.m1(M::Sin, c);
                let z = self.fun.f(0.0);
                let r = self.vec4([co, si, z, z]);
                self.write(x, r)?;
            }
            Cnd => {
                let (a, b, c) = (s(self, 0)?, s(self, 1)?, s(self, 2)?);
                let cond = if self.v.minor < 4 {
                    // ps_1_1–1_3: src0 is r0.a, one test for every component.
                    let aw = self.fun.comp(a, 3);
                    let h = self.fun.f(0.5);
                    self.fun.bin(B::Greater, aw, h)
                } else {
                    let h = self.fun.splat_f(0.5);
                    self.fun.bin(B::Greater, a, h)
                };
                let r = self.fun.select(cond, b, c);
                self.write(x, r)?;
            }
            Cmp => {
                let (a, b, c) = (s(self, 0)?, s(self, 1)?, s(self, 2)?);
                let z = self.zero4();
                let cond = self.fun.bin(B::GreaterEqual, a, z);
                let r = self.fun.select(cond, b, c);
                self.write(x, r)?;
            }
            Dsx | Dsy => {
                let a = s(self, 0)?;
                let r = if self.ps {
                    self.fun.e(Expression::Derivative {
                        axis: if op == Dsx {
                            naga::DerivativeAxis::X
                        } else {
                            naga::DerivativeAxis::Y
                        },
                        ctrl: naga::DerivativeControl::Fine,
                        expr: a,
                    })
                } else {
                    self.zero4()
                };
                self.write(x, r)?;
            }
            SetP => {
                let (a, b) = (s(self, 0)?, s(self, 1)?);
                let c = self.fun.bin(cmp_op(x.comparison()), a, b);
                if let Some(i) = self.slot(x.dst.reg.kind, x.dst.reg.num) {
                    let old = self.read_slot(i);
                    let nv = self.masked(old, c, x.dst.mask, x.predicate)?;
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
                let lt = self.fun.bin(B::Less, v, z);
                let mask = if self.v.major < 2 { 7 } else { x.dst.mask & 15 };
                let mut any: Option<H> = None;
                for c in 0..4 {
                    if mask & (1 << c) != 0 {
                        let b = self.fun.comp(lt, c);
                        any = Some(match any {
                            None => b,
                            Some(a) => self.fun.bin(B::LogicalOr, a, b),
                        });
                    }
                }
                if let Some(cond) = any {
                    self.fun.stmt(Statement::If {
                        condition: cond,
                        accept: naga::Block::from_vec(vec![Statement::Kill]),
                        reject: naga::Block::new(),
                    });
                }
            }
            TexCoord => {
                let r = if self.v.minor < 4 {
                    let t = self.texcoord(x.dst.reg.num, false);
                    let sat = self.fun.m1(M::Saturate, t);
                    let one = self.fun.f(1.0);
                    let (a, b, c) = (
                        self.fun.comp(sat, 0),
                        self.fun.comp(sat, 1),
                        self.fun.comp(sat, 2),
                    );
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
                        self.sample(n, c, Level::Auto)
                    } else {
                        let c = s(self, 0)?;
                        self.sample(x.dst.reg.num, c, Level::Auto)
                    }
                } else {
                    let c = s(self, 0)?;
                    let stage = x.srcs[1].reg.num;
                    let ctl = x.controls;
                    let r = if ctl & d3dbc::token::texld_controls::PROJECT != 0 {
                        let w = self.fun.comp(c, 3);
                        let w = self.fun.splat(w);
                        let pc = self.fun.div(c, w);
                        self.sample(stage, pc, Level::Auto)
                    } else if ctl & d3dbc::token::texld_controls::BIAS != 0 {
                        let w = self.fun.comp(c, 3);
                        self.sample(stage, c, Level::Bias(w))
                    } else {
                        self.sample(stage, c, Level::Auto)
                    };
                    self.sampler_swizzle(r, &x.srcs[1])
                };
                self.write(x, r)?;
            }
            TexLdl => {
                let c = s(self, 0)?;
                let w = self.fun.comp(c, 3);
                let r = self.sample(x.srcs[1].reg.num, c, Level::Exact(w));
                let r = self.sampler_swizzle(r, &x.srcs[1]);
                self.write(x, r)?;
            }
            TexLdd => {
                let c = s(self, 0)?;
                let (gx, gy) = (s(self, 2)?, s(self, 3)?);
                let r = if self.ps {
                    self.sample(x.srcs[1].reg.num, c, Level::Grad(gx, gy))
                } else {
                    self.sample(x.srcs[1].reg.num, c, Level::Auto)
                };
                let r = self.sampler_swizzle(r, &x.srcs[1]);
                self.write(x, r)?;
            }
            TexBem | TexBemL => {
                let m = x.dst.reg.num;
                let src = s(self, 0)?;
                let tc = self.texcoord(m, true);
                let uv = self.bump(m, tc, src);
                let mut r = self.sample(m, uv, Level::Auto);
                if op == TexBemL {
                    let lum = self.driver(driver::BUMP_LUM + m as u32 % 8);
                    let (ls, lo) = (self.fun.comp(lum, 0), self.fun.comp(lum, 1));
                    let bz = self.fun.comp(src, 2);
                    let p = self.mulz1(bz, ls);
                    let f = self.fun.add(p, lo);
                    let f = self.fun.splat(f);
                    r = self.mulz(r, f);
                }
                self.write(x, r)?;
            }
            TexReg2Ar | TexReg2Gb | TexReg2Rgb => {
                let src = s(self, 0)?;
                let c = match op {
                    TexReg2Ar => self.fun.swz(src, VectorSize::Quad, [3, 0, 0, 0]),
                    TexReg2Gb => self.fun.swz(src, VectorSize::Quad, [1, 2, 2, 2]),
                    _ => src,
                };
                let r = self.sample(x.dst.reg.num, c, Level::Auto);
                self.write(x, r)?;
            }
            TexM3x2Pad | TexM3x3Pad => {
                let src = s(self, 0)?;
                let tc = self.texcoord(x.dst.reg.num, false);
                let d = self.dotz(tc, src, 3);
                self.pads.push(d);
            }
            TexM3x2Tex | TexM3x2Depth | TexM3x3Tex | TexM3x3 | TexM3x3Spec | TexM3x3VSpec
            | TexDp3 | TexDp3Tex => {
                let m = x.dst.reg.num;
                let src = s(self, 0)?;
                let tc = self.texcoord(m, false);
                let d = self.dotz(tc, src, 3);
                let zero = self.fun.f(0.0);
                let one = self.fun.f(1.0);
                let pads = std::mem::take(&mut self.pads);
                let p =
                    |i: usize, l: &mut Self| pads.get(i).copied().unwrap_or_else(|| l.fun.f(0.0));
                match op {
                    TexM3x2Tex => {
                        let u = p(0, self);
                        let c = self.vec4([u, d, zero, zero]);
                        let r = self.sample(m, c, Level::Auto);
                        self.write(x, r)?;
                    }
                    TexM3x2Depth => {
                        let z = p(0, self);
                        self.depth_write(z, d);
                    }
                    TexM3x3Tex => {
                        let (u, v) = (p(0, self), p(1, self));
                        let c = self.vec4([u, v, d, zero]);
                        let r = self.sample(m, c, Level::Auto);
                        self.write(x, r)?;
                    }
                    TexM3x3 => {
                        let (u, v) = (p(0, self), p(1, self));
                        let r = self.vec4([u, v, d, one]);
                        self.write(x, r)?;
                    }
                    TexM3x3Spec | TexM3x3VSpec => {
                        let (u, v) = (p(0, self), p(1, self));
                        let n = self.vec4([u, v, d, zero]);
                        let e = if op == TexM3x3Spec {
                            s(self, 1)?
                        } else {
                            let a = self.texcoord(m.wrapping_sub(2), false);
                            let b = self.texcoord(m.wrapping_sub(1), false);
                            let (aw, bw, cw) = (
                                self.fun.comp(a, 3),
                                self.fun.comp(b, 3),
                                self.fun.comp(tc, 3),
                            );
                            self.vec4([aw, bw, cw, zero])
                        };
                        // R = 2·N·(N·E)/(N·N) − E
                        let ne = self.dotz(n, e, 3);
                        let nn = self.dotz(n, n, 3);
                        let two = self.fun.f(2.0);
                        let q = self.fun.div(ne, nn);
                        let q = self.fun.mul(two, q);
                        let q = self.fun.splat(q);
                        let rn = self.mulz(n, q);
                        let r = self.fun.sub(rn, e);
                        let r = self.sample(m, r, Level::Auto);
                        self.write(x, r)?;
                    }
                    TexDp3 => {
                        let r = self.fun.splat(d);
                        self.write(x, r)?;
                    }
                    _ => {
                        let c = self.vec4([d, zero, zero, zero]);
                        let r = self.sample(m, c, Level::Auto);
                        self.write(x, r)?;
                    }
                }
            }
            TexDepth => {
                let v = self.reg_of(x.dst.reg.kind, x.dst.reg.num)?;
                let (z, w) = (self.fun.comp(v, 0), self.fun.comp(v, 1));
                self.depth_write(z, w);
            }
            If | IfC | Else | EndIf | Loop | EndLoop | Rep | EndRep | Break | BreakC | BreakP
            | Call | CallNz | Ret => self.flow(x)?,
        }
        Ok(())
    }

    fn sampler_swizzle(&mut self, r: H, s: &SrcParam) -> H {
        if self.v.major >= 3 && s.swizzle != d3dbc::ir::SWIZZLE_IDENTITY {
            let p = [
                s.swizzle & 3,
                (s.swizzle >> 2) & 3,
                (s.swizzle >> 4) & 3,
                (s.swizzle >> 6) & 3,
            ];
            self.fun.swz(r, VectorSize::Quad, p)
        } else {
            r
        }
    }

    /// `base.xy + M·d.xy` with stage `stage`'s bump matrix (texbem, bem).
    fn bump(&mut self, stage: u16, base: H, d: H) -> H {
        let mat = self.driver(driver::BUMP_MAT + stage as u32 % 8);
        let m = [0, 1, 2, 3].map(|i| self.fun.comp(mat, i));
        let (dr, dg) = (self.fun.comp(d, 0), self.fun.comp(d, 1));
        let (bu, bv) = (self.fun.comp(base, 0), self.fun.comp(base, 1));
        let a = self.mulz1(m[0], dr);
        let b = self.mulz1(m[2], dg);
        let u = self.fun.add(bu, a);
        let u = self.fun.add(u, b);
        let a = self.mulz1(m[1], dr);
        let b = self.mulz1(m[3], dg);
        let v = self.fun.add(bv, a);
        let v = self.fun.add(v, b);
        let (bz, bw) = (self.fun.comp(base, 2), self.fun.comp(base, 3));
        self.vec4([u, v, bz, bw])
    }

    fn mova_round(&mut self, v: H) -> H {
        match self.o.semantics.mova_ties {
            MovaTies::ToEven => self.fun.m1(M::Round, v),
            MovaTies::HalfUp => {
                let h = self.fun.splat_f(0.5);
                let a = self.fun.add(v, h);
                self.fun.m1(M::Floor, a)
            }
            MovaTies::AwayFromZero => {
                let a = self.fun.m1(M::Abs, v);
                let h = self.fun.splat_f(0.5);
                let a = self.fun.add(a, h);
                let f = self.fun.m1(M::Floor, a);
                let sg = self.fun.m1(M::Sign, v);
                self.fun.mul(f, sg)
            }
        }
    }

    // ------------------------------------------------------------------ flow

    fn cmp_scalar(&mut self, x: &Instruction) -> Result<H, Error> {
        let a = self.src(&x.srcs[0])?;
        let b = self.src(&x.srcs[1])?;
        let (a, b) = (self.fun.comp(a, 0), self.fun.comp(b, 0));
        Ok(self.fun.bin(cmp_op(x.comparison()), a, b))
    }

    fn flow(&mut self, x: &Instruction) -> Result<(), Error> {
        use Opcode::*;
        match x.opcode {
            If | IfC => {
                let cond = if x.opcode == If {
                    self.bool_src(&x.srcs[0])?
                } else {
                    self.cmp_scalar(x)?
                };
                self.boundary();
                self.frames.push(Frame::If { cond, accept: None });
                self.fun.open();
            }
            Else => {
                self.flush();
                let b = self.fun.close();
                self.invalidate();
                match self.frames.last_mut() {
                    Some(Frame::If { accept, .. }) if accept.is_none() => *accept = Some(b),
                    _ => return Err(Error::Flow(0, "else without if")),
                }
                self.fun.open();
            }
            EndIf => {
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
                    _ => return Err(Error::Flow(0, "endif without if")),
                }
            }
            Loop | Rep => {
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
            }
            EndLoop | EndRep => {
                self.flush();
                let body = self.fun.close();
                self.invalidate();
                let Some(Frame::Loop {
                    counter,
                    step,
                    saved_al,
                }) = self.frames.pop()
                else {
                    return Err(Error::Flow(0, "endloop without loop"));
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
            }
            Break => {
                self.flush();
                self.fun.stmt(Statement::Break);
                self.dead = Some(0);
            }
            BreakC | BreakP => {
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
            Call | CallNz => {
                let f = *self
                    .labels
                    .get(&x.srcs[0].reg.num)
                    .ok_or(Error::Flow(0, "call of an undefined label"))?;
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
            }
            Ret => {
                self.emit_return()?;
                self.dead = Some(0);
            }
            _ => {}
        }
        Ok(())
    }

    /// Lowers a range of instructions into the current function.
    fn lower_range(&mut self, ins: &[Instruction]) -> Result<(), Error> {
        let mut i = 0;
        while i < ins.len() {
            let x = &ins[i];
            if let Some(d) = self.dead {
                use Opcode::*;
                match x.opcode {
                    If | IfC | Loop | Rep => {
                        self.dead = Some(d + 1);
                        i += 1;
                        continue;
                    }
                    EndIf | EndLoop | EndRep if d > 0 => {
                        self.dead = Some(d - 1);
                        i += 1;
                        continue;
                    }
                    Else if d > 0 => {
                        i += 1;
                        continue;
                    }
                    EndIf | EndLoop | EndRep | Else => {
                        self.dead = None;
                    }
                    _ => {
                        i += 1;
                        continue;
                    }
                }
            }
            if x.opcode == Opcode::Ret && self.frames.is_empty() {
                break;
            }
            // Co-issue: the pair reads every source before either writes.
            if ins.get(i + 1).is_some_and(|n| n.coissue) && !x.coissue {
                self.deferred = Some(Vec::new());
                self.lower_ins(x)?;
                let mut j = i + 1;
                while j < ins.len() && ins[j].coissue {
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
            self.lower_ins(x).map_err(|e| e.at(i))?;
            i += 1;
        }
        if !self.frames.is_empty() {
            return Err(Error::Flow(ins.len(), "unclosed block"));
        }
        Ok(())
    }

    // ------------------------------------------------------------------ entry point

    fn arg(&mut self, name: String, ty: Handle<Type>, binding: Binding) -> H {
        let idx = self.args.len() as u32;
        self.args.push(FunctionArgument {
            name: Some(name),
            ty,
            binding: Some(binding),
        });
        self.fun.e(Expression::FunctionArgument(idx))
    }

    /// Creates the entry arguments and the initial values of input slots.
    fn inputs(&mut self) {
        let keys: Vec<(usize, Key)> = self
            .slots
            .iter()
            .enumerate()
            .map(|(i, s)| (i, s.key))
            .collect();
        let flat = self.o.pipeline.flat_shading;
        let interp_for = |u: DeclUsage| {
            if flat && u == DeclUsage::Color {
                Interpolation::Flat
            } else {
                Interpolation::Perspective
            }
        };
        let decls: Vec<(RegisterType, Decl)> = self.scan.inputs.clone();
        for (i, (kind, num)) in keys {
            let init: Option<H> = match (self.ps, kind) {
                (false, RegisterType::Input) => {
                    let d = decls.iter().find(|(k, d)| *k == kind && d.num == num);
                    self.itf.vertex_inputs.push(itf::VertexInput {
                        usage: d.map(|d| d.1.usage),
                        usage_index: d.map_or(0, |d| d.1.index),
                        register: num,
                        location: num as u32,
                    });
                    Some(self.arg(
                        format!("v{num}"),
                        self.t.vec4f,
                        Binding::Location {
                            location: num as u32,
                            interpolation: None,
                            sampling: None,
                            blend_src: None,
                            per_primitive: false,
                        },
                    ))
                }
                (true, RegisterType::Input) | (true, RegisterType::AddrOrTexture) => {
                    let mut ds: Vec<Decl> = decls
                        .iter()
                        .filter(|(k, d)| *k == kind && d.num == num)
                        .map(|d| d.1)
                        .collect();
                    if ds.is_empty() || self.v.major < 3 {
                        let centroid = ds.first().is_some_and(|d| d.centroid);
                        let usage = if kind == RegisterType::Input {
                            DeclUsage::Color
                        } else {
                            DeclUsage::TexCoord
                        };
                        ds = vec![Decl {
                            num,
                            usage,
                            index: num as u8,
                            mask: 15,
                            centroid,
                        }];
                    }
                    let mut val: Option<H> = None;
                    for d in ds {
                        let location = itf::varying_location(d.usage, d.index);
                        let interp = interp_for(d.usage);
                        if !self.itf.varyings.iter().any(|v| v.location == location) {
                            self.itf.varyings.push(itf::Varying {
                                usage: d.usage,
                                usage_index: d.index,
                                location,
                                flat: interp == Interpolation::Flat,
                                centroid: d.centroid,
                            });
                        }
                        let a = self.arg(
                            format!("{}{}_{}", d.usage.name(), d.index, self.args.len()),
                            self.t.vec4f,
                            loc(location, interp, d.centroid),
                        );
                        val = Some(match val {
                            None => a,
                            Some(prev) => {
                                let m = self.mask_const(d.mask);
                                self.fun.select(m, a, prev)
                            }
                        });
                    }
                    if kind == RegisterType::AddrOrTexture {
                        if let Some(v) = val {
                            self.tc_args.insert(num, v);
                        }
                    }
                    val
                }
                (true, RegisterType::MiscType) if num == 0 => {
                    let fc = self.frag_coord();
                    if self.o.pipeline.vpos_half_pixel {
                        let h = self.vec4_lit([0.5, 0.5, 0.0, 0.0]);
                        Some(self.fun.sub(fc, h))
                    } else {
                        Some(fc)
                    }
                }
                (true, RegisterType::MiscType) => {
                    let ff = self.arg(
                        "front_facing".into(),
                        self.t.bool,
                        Binding::BuiltIn(BuiltIn::FrontFacing),
                    );
                    let s = if self.o.pipeline.vface_front_positive {
                        1.0
                    } else {
                        -1.0
                    };
                    let p = self.fun.f(s);
                    let n = self.fun.f(-s);
                    let v = self.fun.select(ff, p, n);
                    Some(self.fun.splat(v))
                }
                (false, RegisterType::RastOut) if num == 1 => Some(self.fun.splat_f(1.0)),
                _ => None,
            };
            if let Some(v) = init {
                match self.ptr(i) {
                    Some(p) => {
                        self.fun.store(p, v);
                    }
                    None => {
                        self.cache[i] = Some(v);
                    }
                }
            }
        }
        if !self.ps && self.o.pipeline.point_expansion {
            let u32_ty = self.m.types.insert(
                Type {
                    name: None,
                    inner: TypeInner::Scalar(naga::Scalar::U32),
                },
                Span::UNDEFINED,
            );
            let vi = self.arg(
                "vertex_index".into(),
                u32_ty,
                Binding::BuiltIn(BuiltIn::VertexIndex),
            );
            let one = self.fun.u(1);
            let x = self.fun.bin(B::And, vi, one);
            let y = self.fun.bin(B::ShiftRight, vi, one);
            let y = self.fun.bin(B::And, y, one);
            let x = self.fun.cast(x, ScalarKind::Float);
            let y = self.fun.cast(y, ScalarKind::Float);
            let (z, w) = (self.fun.f(0.0), self.fun.f(1.0));
            self.corner = Some(self.vec4([x, y, z, w]));
        }
        if self.ps && self.o.pipeline.fog == FogMode::Vertex && self.v.major < 3 {
            let location = itf::varying_location(DeclUsage::Fog, 0);
            self.fog_arg = Some(self.arg(
                "fog".into(),
                self.t.vec4f,
                loc(location, Interpolation::Perspective, false),
            ));
        }
    }

    fn frag_coord(&mut self) -> H {
        if let Some(h) = self.fragcoord_arg {
            return h;
        }
        let h = self.arg(
            "frag_coord".into(),
            self.t.vec4f,
            Binding::BuiltIn(BuiltIn::Position { invariant: false }),
        );
        self.fragcoord_arg = Some(h);
        h
    }

    /// Declares the outputs (struct members) before lowering.
    fn declare_outputs(&mut self) {
        let flat = self.o.pipeline.flat_shading;
        let mut out = Vec::new();
        let push = |out: &mut Vec<Output>, name: String, ty, binding| {
            out.push(Output { binding, ty, name })
        };
        if self.ps {
            let colors: Vec<u16> = if self.ps1x {
                vec![0]
            } else {
                self.scan
                    .written
                    .iter()
                    .filter(|k| k.0 == RegisterType::ColorOut)
                    .map(|k| k.1)
                    .collect()
            };
            for c in colors {
                self.itf.color_outputs.push(c as u32);
                push(
                    &mut out,
                    format!("oC{c}"),
                    self.t.vec4f,
                    Binding::Location {
                        location: c as u32,
                        interpolation: None,
                        sampling: None,
                        blend_src: None,
                        per_primitive: false,
                    },
                );
            }
            if self.scan.writes_depth {
                self.itf.depth_output = true;
                push(
                    &mut out,
                    "oDepth".into(),
                    self.t.f32,
                    Binding::BuiltIn(BuiltIn::FragDepth),
                );
            }
        } else {
            push(
                &mut out,
                "position".into(),
                self.t.vec4f,
                Binding::BuiltIn(BuiltIn::Position { invariant: false }),
            );
            let mut vary: Vec<(DeclUsage, u8)> = (0..8u8)
                .map(|i| (DeclUsage::TexCoord, i))
                .chain([
                    (DeclUsage::Color, 0),
                    (DeclUsage::Color, 1),
                    (DeclUsage::Fog, 0),
                ])
                .collect();
            if self.v.major >= 3 {
                for d in &self.scan.outputs {
                    if (d.usage == DeclUsage::Position && d.index == 0)
                        || d.usage == DeclUsage::PSize
                    {
                        continue;
                    }
                    if !vary.contains(&(d.usage, d.index)) {
                        vary.push((d.usage, d.index));
                    }
                }
            }
            if self.psize_slot().is_some() {
                vary.push((DeclUsage::PSize, 0));
            }
            for (u, i) in vary {
                let location = itf::varying_location(u, i);
                let interp = if flat && u == DeclUsage::Color {
                    Interpolation::Flat
                } else {
                    Interpolation::Perspective
                };
                self.itf.varyings.push(itf::Varying {
                    usage: u,
                    usage_index: i,
                    location,
                    flat: interp == Interpolation::Flat,
                    centroid: false,
                });
                push(
                    &mut out,
                    format!("{}{}", u.name(), i),
                    self.t.vec4f,
                    loc(location, interp, false),
                );
            }
            if self.o.pipeline.point_size_builtin && self.psize_slot().is_some() {
                push(
                    &mut out,
                    "point_size".into(),
                    self.t.f32,
                    Binding::BuiltIn(BuiltIn::PointSize),
                );
            }
            let n = self.o.pipeline.clip_planes.min(8) as u32;
            if n > 0 {
                let ty = self.m.types.insert(
                    Type {
                        name: None,
                        inner: TypeInner::Array {
                            base: self.t.f32,
                            size: ArraySize::Constant(NonZeroU32::new(n).unwrap()),
                            stride: 4,
                        },
                    },
                    Span::UNDEFINED,
                );
                push(
                    &mut out,
                    "clip".into(),
                    ty,
                    Binding::BuiltIn(BuiltIn::ClipDistances),
                );
            }
        }
        self.outputs = out;
    }

    fn psize_slot(&self) -> Option<usize> {
        if self.v.major >= 3 {
            let d = self
                .scan
                .outputs
                .iter()
                .find(|d| d.usage == DeclUsage::PSize)?;
            self.index.get(&(RegisterType::Output, d.num)).copied()
        } else {
            self.index.get(&(RegisterType::RastOut, 2)).copied()
        }
    }

    fn out_slot(&mut self, kind: RegisterType, num: u16) -> H {
        match self.slot(kind, num) {
            Some(i) => self.read_slot(i),
            None => self.zero4(),
        }
    }

    /// The vs_3_0 output register holding `(usage, index)`.
    fn vs3_out(&mut self, u: DeclUsage, idx: u8) -> Option<H> {
        let d = *self
            .scan
            .outputs
            .iter()
            .find(|d| d.usage == u && d.index == idx)?;
        Some(self.out_slot(RegisterType::Output, d.num))
    }

    /// Builds the output values and returns from the entry point (or a subroutine).
    fn emit_return(&mut self) -> Result<(), Error> {
        if !self.in_entry {
            self.flush();
            self.fun.stmt(Statement::Return { value: None });
            return Ok(());
        }
        let mut vals = Vec::with_capacity(self.outputs.len());
        let outs: Vec<(String, Binding)> = self
            .outputs
            .iter()
            .map(|o| (o.name.clone(), o.binding.clone()))
            .collect();
        let sm3 = self.v.major >= 3;
        let mut color0: Option<H> = None;
        for (name, binding) in outs {
            let v = if self.ps {
                match binding {
                    Binding::BuiltIn(BuiltIn::FragDepth) => {
                        let d = self.out_slot(RegisterType::DepthOut, 0);
                        self.fun.comp(d, 0)
                    }
                    Binding::Location { location, .. } => {
                        let mut c = if self.ps1x {
                            let r = self.out_slot(RegisterType::Temp, 0);
                            if self.o.semantics.ps1x_saturate_output {
                                self.fun.m1(M::Saturate, r)
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
                    _ => self.zero4(),
                }
            } else {
                match binding {
                    Binding::BuiltIn(BuiltIn::Position { .. }) => {
                        let p = if sm3 {
                            let outs = &self.scan.outputs;
                            d3dbc::regs::vs3_position_output(
                                outs.iter().map(|d| (d.usage as u8, d.index)),
                            )
                            .map(|k| outs[k].num)
                            .map(|n| self.out_slot(RegisterType::Output, n))
                            .unwrap_or_else(|| self.fun.e(Expression::ZeroValue(self.t.vec4f)))
                        } else {
                            self.out_slot(RegisterType::RastOut, 0)
                        };
                        let p = match self.corner {
                            Some(c) => self.expand_point(p, c),
                            None => p,
                        };
                        if self.o.pipeline.position_fixup {
                            let fx = self.driver(driver::POS_FIXUP);
                            let w = self.fun.comp(p, 3);
                            let w = self.fun.splat(w);
                            let off = self.fun.mul(fx, w);
                            let z = self.fun.f(0.0);
                            let (ox, oy) = (self.fun.comp(off, 0), self.fun.comp(off, 1));
                            let off = self.vec4([ox, oy, z, z]);
                            self.fun.add(p, off)
                        } else {
                            p
                        }
                    }
                    Binding::BuiltIn(BuiltIn::PointSize) => {
                        let i = self.psize_slot().expect("declared with a slot");
                        let v = self.read_slot(i);
                        self.fun.comp(v, 0)
                    }
                    Binding::BuiltIn(BuiltIn::ClipDistances) => {
                        let p = self.out_slot(RegisterType::RastOut, 0);
                        let n = self.o.pipeline.clip_planes.min(8) as u32;
                        let mut c = Vec::new();
                        for k in 0..n {
                            let pl = self.driver(driver::CLIP_PLANE + k);
                            c.push(self.dotz(p, pl, 4));
                        }
                        let ty = self.outputs.iter().find(|o| o.name == name).unwrap().ty;
                        self.fun.compose(ty, c)
                    }
                    _ => {
                        let (u, idx) = varying_of(&name);
                        let sprite = self
                            .corner
                            .filter(|_| self.o.pipeline.point_sprites && u == DeclUsage::TexCoord);
                        let v = if let Some(c) = sprite {
                            Some(c)
                        } else if sm3 {
                            self.vs3_out(u, idx)
                        } else {
                            match u {
                                DeclUsage::TexCoord => {
                                    Some(self.out_slot(RegisterType::Output, idx as u16))
                                }
                                // Written components, 0 in the others; an oD# never
                                // written reads the default below.
                                DeclUsage::Color
                                    if self.slot(RegisterType::AttrOut, idx as u16).is_some() =>
                                {
                                    let c = self.out_slot(RegisterType::AttrOut, idx as u16);
                                    Some(self.fun.m1(M::Saturate, c))
                                }
                                // oFog, else the specular alpha (D3D9 vertex fog), else
                                // no fog (1).
                                DeclUsage::Fog => {
                                    if self.slot(RegisterType::RastOut, 1).is_some() {
                                        let f = self.out_slot(RegisterType::RastOut, 1);
                                        Some(self.fun.m1(M::Saturate, f))
                                    } else if self.slot(RegisterType::AttrOut, 1).is_some() {
                                        let c = self.out_slot(RegisterType::AttrOut, 1);
                                        let a = self.fun.comp(c, 3);
                                        let a = self.fun.m1(M::Saturate, a);
                                        Some(self.fun.splat(a))
                                    } else {
                                        None
                                    }
                                }
                                DeclUsage::PSize => {
                                    let i = self.psize_slot().expect("psize");
                                    Some(self.read_slot(i))
                                }
                                _ => None,
                            }
                        };
                        match v {
                            Some(v) => v,
                            None if u == DeclUsage::Color && idx == 0 => self.fun.splat_f(1.0),
                            None if u == DeclUsage::Fog => self.fun.splat_f(1.0),
                            None => self.zero4(),
                        }
                    }
                }
            };
            vals.push(v);
        }
        if self.ps && self.o.pipeline.alpha_test != CompareFunc::Always {
            let a = match color0 {
                Some(c) => self.fun.comp(c, 3),
                None => self.fun.f(0.0),
            };
            let r = self.driver(driver::ALPHA_REF);
            let r = self.fun.comp(r, 0);
            let pass = match self.o.pipeline.alpha_test {
                CompareFunc::Never => self.fun.b(false),
                f => {
                    let op = match f {
                        CompareFunc::Less => B::Less,
                        CompareFunc::Equal => B::Equal,
                        CompareFunc::LessEqual => B::LessEqual,
                        CompareFunc::Greater => B::Greater,
                        CompareFunc::NotEqual => B::NotEqual,
                        _ => B::GreaterEqual,
                    };
                    self.fun.bin(op, a, r)
                }
            };
            self.fun.stmt(Statement::If {
                condition: pass,
                accept: naga::Block::new(),
                reject: naga::Block::from_vec(vec![Statement::Kill]),
            });
        }
        let value = if self.outputs.is_empty() {
            None
        } else {
            let ty = self.out_struct_ty();
            Some(self.fun.compose(ty, vals))
        };
        self.fun.stmt(Statement::Return { value });
        Ok(())
    }

    /// Moves the clip-space position `p` of an expanded point to corner `c`.
    fn expand_point(&mut self, p: H, c: H) -> H {
        let ps = self.driver(driver::POINT_SIZE);
        let (def, lo, hi) = (
            self.fun.comp(ps, 0),
            self.fun.comp(ps, 1),
            self.fun.comp(ps, 2),
        );
        let size = match self.psize_slot() {
            Some(i) => {
                let v = self.read_slot(i);
                let v = self.fun.comp(v, 0);
                let zero = self.fun.f(0.0);
                let pos = self.fun.bin(B::Greater, v, zero);
                self.fun.select(pos, v, def)
            }
            None => def,
        };
        let size = self.fun.math(M::Clamp, size, Some(lo), Some(hi));
        let one = self.fun.f(1.0);
        let size = self.fun.math(M::Max, size, Some(one), None);
        // (corner − ½) · size · extent · w
        let half = self.vec4_lit([0.5, 0.5, 0.0, 0.0]);
        let d = self.fun.sub(c, half);
        let w = self.fun.comp(p, 3);
        let sw = self.fun.mul(size, w);
        let sw = self.fun.splat(sw);
        let d = self.fun.mul(d, sw);
        let ext = self.driver(driver::POINT_EXTENT);
        let (ex, ey) = (self.fun.comp(ext, 0), self.fun.comp(ext, 1));
        let z = self.fun.f(0.0);
        let ext = self.vec4([ex, ey, z, z]);
        let d = self.fun.mul(d, ext);
        self.fun.add(p, d)
    }

    fn fog(&mut self, c: H) -> H {
        if self.v.major >= 3 || self.o.pipeline.fog == FogMode::None {
            return c;
        }
        let f = match self.o.pipeline.fog {
            FogMode::Vertex => match self.fog_arg {
                Some(a) => self.fun.comp(a, 0),
                None => self.fun.f(1.0),
            },
            mode => {
                let z = match self.o.pipeline.fog_depth {
                    FogDepth::Z => {
                        let fc = self.frag_coord();
                        self.fun.comp(fc, 2)
                    }
                    FogDepth::W => {
                        let fc = self.frag_coord();
                        // frag_coord.w is the interpolated 1/w.
                        let rw = self.fun.comp(fc, 3);
                        let one = self.fun.f(1.0);
                        self.fun.div(one, rw)
                    }
                };
                let p = self.driver(driver::FOG_PARAMS);
                match mode {
                    FogMode::Linear => {
                        let (s, e) = (self.fun.comp(p, 0), self.fun.comp(p, 1));
                        let num = self.fun.sub(e, z);
                        let den = self.fun.sub(e, s);
                        self.fun.div(num, den)
                    }
                    _ => {
                        let d = self.fun.comp(p, 2);
                        let dz = self.mulz1(d, z);
                        let dz = if mode == FogMode::Exp2 {
                            self.fun.mul(dz, dz)
                        } else {
                            dz
                        };
                        let n = self.fun.e(Expression::Unary {
                            op: UnaryOperator::Negate,
                            expr: dz,
                        });
                        self.fun.m1(M::Exp, n)
                    }
                }
            }
        };
        let f = self.fun.m1(M::Saturate, f);
        let fcol = self.driver(driver::FOG_COLOR);
        let fv = self.fun.splat(f);
        let mixed = self.fun.math(M::Mix, fcol, Some(c), Some(fv));
        let m = self.mask_const(7);
        self.fun.select(m, mixed, c)
    }

    fn out_struct_ty(&mut self) -> Handle<Type> {
        let mut offset = 0;
        let members = self
            .outputs
            .iter()
            .map(|o| {
                let size = crate::builder::io_member_size(&self.m.types[o.ty].inner);
                let m = StructMember {
                    name: Some(o.name.clone()),
                    ty: o.ty,
                    binding: Some(o.binding.clone()),
                    offset,
                };
                offset += size;
                m
            })
            .collect();
        self.m.types.insert(
            Type {
                name: Some(if self.ps { "PsOut" } else { "VsOut" }.into()),
                inner: TypeInner::Struct {
                    members,
                    span: offset,
                },
            },
            Span::UNDEFINED,
        )
    }

    /// Runs the whole lowering.
    pub fn run(mut self, ins: &[Instruction]) -> Result<(Module, Interface), Error> {
        self.make_slots();
        // Subroutines, callees first.
        let order = call_order(&self.scan, ins)?;
        for si in order {
            let (label, range) = self.scan.subs[si].clone();
            let entry_fun =
                std::mem::replace(&mut self.fun, Func::new(&format!("l{label}"), self.t.vec4u));
            self.in_entry = false;
            self.reset_fn_state();
            self.dead = None;
            self.lower_range(&ins[range])?;
            if self.dead.is_none() {
                self.flush();
            }
            let f = std::mem::replace(&mut self.fun, entry_fun).finish();
            let h = self.m.functions.append(f, Span::UNDEFINED);
            self.labels.insert(label, h);
        }
        self.in_entry = true;
        self.reset_fn_state();
        self.dead = None;
        self.declare_outputs();
        self.inputs();
        let main = self.scan.main.clone();
        self.lower_range(&ins[main])?;
        if self.dead.is_none() {
            self.emit_return()?;
        }
        let result = if self.outputs.is_empty() {
            None
        } else {
            Some(FunctionResult {
                ty: self.out_struct_ty(),
                binding: None,
            })
        };
        let mut f = std::mem::replace(&mut self.fun, Func::new("", self.t.vec4u)).finish();
        f.arguments = std::mem::take(&mut self.args);
        f.result = result;
        self.itf.discards = self.scan.discards || self.o.pipeline.alpha_test != CompareFunc::Always;
        self.m.entry_points.push(naga::EntryPoint {
            name: "main".into(),
            stage: if self.ps {
                ShaderStage::Fragment
            } else {
                ShaderStage::Vertex
            },
            early_depth_test: None,
            workgroup_size: [0; 3],
            workgroup_size_overrides: None,
            function: f,
            mesh_info: None,
            task_payload: None,
            incoming_ray_payload: None,
        });
        Ok((self.m, self.itf))
    }
}

enum Level {
    Auto,
    Bias(H),
    Exact(H),
    Grad(H, H),
}

fn varying_of(name: &str) -> (DeclUsage, u8) {
    for u in DeclUsage::ALL {
        if let Some(rest) = name.strip_prefix(u.name()) {
            if let Ok(i) = rest.parse::<u8>() {
                return (u, i);
            }
        }
    }
    (DeclUsage::TexCoord, 0)
}

/// Subroutine indices in an order where every callee comes before its callers.
fn call_order(scan: &Scan, ins: &[Instruction]) -> Result<Vec<usize>, Error> {
    let by_label: HashMap<u16, usize> = scan
        .subs
        .iter()
        .enumerate()
        .map(|(i, (l, _))| (*l, i))
        .collect();
    let n = scan.subs.len();
    let mut state = vec![0u8; n];
    let mut order = Vec::with_capacity(n);
    fn visit(
        i: usize,
        scan: &Scan,
        ins: &[Instruction],
        by_label: &HashMap<u16, usize>,
        state: &mut [u8],
        order: &mut Vec<usize>,
    ) -> Result<(), Error> {
        match state[i] {
            2 => return Ok(()),
            1 => return Err(Error::Flow(scan.subs[i].1.start, "recursive call")),
            _ => {}
        }
        state[i] = 1;
        for x in &ins[scan.subs[i].1.clone()] {
            if matches!(x.opcode, Opcode::Call | Opcode::CallNz) {
                if let Some(&j) = by_label.get(&x.srcs[0].reg.num) {
                    visit(j, scan, ins, by_label, state, order)?;
                }
            }
        }
        state[i] = 2;
        order.push(i);
        Ok(())
    }
    for i in 0..n {
        visit(i, scan, ins, &by_label, &mut state, &mut order)?;
    }
    Ok(order)
}
