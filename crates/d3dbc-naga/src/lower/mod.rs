//! The lowering: D3D9 instructions → naga IR.
//!
//! Registers are SSA values inside straight-line code: a register's current value is an
//! expression handle, a write with a partial mask is one `Select` against a constant
//! boolean mask. Only registers written somewhere in a shader with flow control get a
//! backing variable (a function local, or a private global when the shader has
//! subroutines, which share every register); their values are stored at block
//! boundaries only. Device-dependent results follow [`d3dbc::Semantics`].
//!
//! `texkill` is deferred: it sets a private flag and the invocation runs to the end of
//! the entry point, which kills it there. A D3D9 pixel killed mid-shader keeps running
//! as a helper so that its quad neighbours' derivatives (`dsx`/`dsy`, the implicit LOD
//! of `texld`) stay right; SPIR-V's `OpKill` would end it at once and leave the
//! neighbours' derivatives undefined.

use rustc_hash::FxHashMap as HashMap;
use std::num::NonZeroU32;

use d3dbc::ir::{DstParam, Instruction, SrcParam};
use d3dbc::opcode::Role;
use d3dbc::token::{Comparison, DeclUsage, RegisterType, SamplerType, SrcModifier};
use d3dbc::{LogOfZero, MovaTies, MulZero, ReciprocalOfZero};
use d3dbc::{Opcode, Version};
use naga::{
    AddressSpace, ArraySize, BinaryOperator as B, Binding, BuiltIn, Expression, Function,
    FunctionArgument, FunctionResult, GlobalVariable, Handle, ImageClass, ImageDimension,
    Interpolation, LocalVariable, MathFunction as M, Module, ResourceBinding, SampleLevel,
    Sampling, ScalarKind, ShaderStage, Span, Statement, StructMember, Type, TypeInner,
    UnaryOperator, VectorSize,
};

use crate::builder::{Func, Types};
use crate::interface::{self as itf, driver, Interface};
use crate::options::{CompareFunc, FogDepth, FogMode, TextureKind, TranslateOptions};
use crate::Error;
use d3dbc::target::scan::{call_order, Scan};
use d3dbc::target::Error as TargetError;

mod entry;
mod flow;
mod globals;
mod instructions;
mod output;
mod slots;
mod textures;
mod values;
mod writes;

use textures::Level;

type H = Handle<Expression>;

/// What a slot holds: the register table's value kind.
use d3dbc::regs::Holds as SlotTy;

/// A register key: (type, number).
type Key = (RegisterType, u16);
/// One `dcl` of an input or output register with a usage.
type Decl = d3dbc::Varying;

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
    /// The deferred kill: `texkill` sets this private flag and the pixel runs on (a
    /// helper for its quad's derivatives); the entry point kills at its end.
    killed: Option<Handle<GlobalVariable>>,
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
    /// The DWORD offset of each instruction, then of the end token.
    offsets: Vec<u32>,
    /// The DWORD offset of the instruction being lowered (errors and spans name it).
    at: u32,
    /// The opcode being lowered (errors name it).
    op: Opcode,
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

/// The binding of a varying at `location` with D3D9's interpolation: flat, or perspective
/// at the centre or the centroid (what the link rules' flat/centroid flags stand for).
pub(crate) fn loc(location: u32, interp: Interpolation, centroid: bool) -> Binding {
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
    pub fn new(v: Version, scan: Scan, o: &'a TranslateOptions, offsets: Vec<u32>) -> Self {
        let mut m = Module::default();
        let t = Types::new(&mut m.types);
        let vec4u = t.vec4u;
        let ps = v.is_pixel();
        let itf = Interface::empty(v);
        Lower {
            offsets,
            at: 0,
            op: Opcode::Nop,
            m,
            t,
            o,
            v,
            ps,
            ps1x: v.is_ps_1_x(),
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
            killed: None,
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

    fn unsupported(&self, why: &'static str) -> Error {
        TargetError::Unsupported {
            offset: self.at,
            opcode: self.op,
            why,
        }
        .into()
    }

    /// Runs the whole lowering.
    pub fn run(mut self, ins: &[Instruction]) -> Result<(Module, Interface), Error> {
        self.make_slots();
        if self.scan.discards {
            let ty = self.t.bool;
            self.killed = Some(self.global("killed", AddressSpace::Private, None, ty));
        }
        // Subroutines, callees first.
        let order = call_order(&self.scan.subs, ins, &self.offsets)?;
        for si in order {
            let (label, range) = self.scan.subs[si].clone();
            let entry_fun =
                std::mem::replace(&mut self.fun, Func::new(&format!("l{label}"), self.t.vec4u));
            self.in_entry = false;
            self.reset_fn_state();
            self.dead = None;
            self.lower_range(&ins[range.clone()], range.start)?;
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
        self.output_defaults();
        if let Some(k) = self.killed {
            let p = self.fun.e(Expression::GlobalVariable(k));
            let no = self.fun.b(false);
            self.fun.store(p, no);
        }
        let main = self.scan.main.clone();
        self.lower_range(&ins[main.clone()], main.start)?;
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
