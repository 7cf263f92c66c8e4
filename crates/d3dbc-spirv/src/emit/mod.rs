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
//!
//! The files mirror `d3dbc-naga/src/lower/` one for one (an opcode's two
//! implementations sit in same-named files, to be read side by side; they stay two
//! independent implementations, which the differential tests compare): `globals`
//! (uniform blocks, textures), `slots` (register values), `values` (sources, modifiers,
//! D3D9's arithmetic rules), `writes` (destinations), `textures` (lookups), `flow`
//! (blocks, loops, calls), `entry` (inputs), `output` (outputs and the return),
//! `instructions` (one arm per opcode), and here the emitter's state, the instruction
//! builders (naga's `Func` does this for the lowering) and the driver, [`Emitter::run`].

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
use d3dbc::target::link::{self, LinkRead, LinkReads};
use d3dbc::target::scan::{call_order, Scan};
use d3dbc::target::Error;

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

/// What a slot holds: the register table's value kind.
use d3dbc::regs::Holds as SlotTy;

/// One `dcl` of an input or output register with a usage.
type Decl = d3dbc::analysis::Varying;
/// Register numbers a slot table holds per register type.
const MAX_REG: u16 = d3dbc::analysis::REG_SET_LIMIT;
/// Register types.
const NKIND: usize = d3dbc::analysis::REGISTER_TYPES;

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
    pub reads: LinkReads,
    loc_words: Vec<LocWord>,
    /// Vertex shader linked to these pixel reads.
    link: Option<&'a [LinkRead]>,
    /// The DWORD offset of each instruction, then of the end token.
    offsets: Vec<u32>,
    /// The DWORD offset of the instruction being emitted (errors name it).
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
        offsets: Vec<u32>,
    ) -> Self {
        let ps = v.is_pixel();
        let itf = Interface::empty(v);
        Emitter {
            m: Module::new(),
            killed: 0,
            o,
            v,
            ps,
            ps1x: v.is_ps_1_x(),
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
            reads: LinkReads::default(),
            loc_words: Vec::new(),
            link,
            offsets,
            at: 0,
            op: Opcode::Nop,
            main_fn: 0,
        }
    }

    pub(super) fn unsupported(&self, why: &'static str) -> Error {
        Error::Unsupported {
            offset: self.at,
            opcode: self.op,
            why,
        }
    }

    #[inline]
    pub(super) fn op1(&mut self, op: Op, t: T, a: u32) -> u32 {
        let ty = self.m.ty(t);
        let id = self.m.id();
        inst(&mut self.m.body, op, &[ty, id, a]);
        id
    }

    #[inline]
    pub(super) fn op2(&mut self, op: Op, t: T, a: u32, b: u32) -> u32 {
        let ty = self.m.ty(t);
        let id = self.m.id();
        inst(&mut self.m.body, op, &[ty, id, a, b]);
        id
    }

    pub(super) fn sel(&mut self, t: T, c: u32, a: u32, b: u32) -> u32 {
        let ty = self.m.ty(t);
        let id = self.m.id();
        inst(&mut self.m.body, Op::Select, &[ty, id, c, a, b]);
        id
    }

    /// `c ? a : b` for vec4 operands and a scalar condition.
    pub(super) fn sel_s(&mut self, t: T, c: u32, a: u32, b: u32) -> u32 {
        let c4 = self.splat(T::V4B, c);
        self.sel(t, c4, a, b)
    }

    pub(super) fn ext(&mut self, t: T, f: G, args: &[u32]) -> u32 {
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

    pub(super) fn comp(&mut self, t: T, v: u32, i: u32) -> u32 {
        let ty = self.m.ty(t);
        let id = self.m.id();
        inst(&mut self.m.body, Op::CompositeExtract, &[ty, id, v, i]);
        id
    }

    pub(super) fn cf(&mut self, v: u32, i: u32) -> u32 {
        self.comp(T::F32, v, i)
    }

    pub(super) fn construct(&mut self, t: T, c: &[u32]) -> u32 {
        let ty = self.m.ty(t);
        self.construct_ty(ty, c)
    }

    pub(super) fn construct_ty(&mut self, ty: u32, c: &[u32]) -> u32 {
        let id = self.m.id();
        let mut w = [0u32; 10];
        w[0] = ty;
        w[1] = id;
        w[2..2 + c.len()].copy_from_slice(c);
        inst(&mut self.m.body, Op::CompositeConstruct, &w[..2 + c.len()]);
        id
    }

    pub(super) fn splat(&mut self, t: T, s: u32) -> u32 {
        self.construct(t, &[s, s, s, s])
    }

    pub(super) fn shuffle(&mut self, t: T, v: u32, p: &[u32]) -> u32 {
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

    pub(super) fn load(&mut self, t: T, p: u32) -> u32 {
        self.op1(Op::Load, t, p)
    }

    pub(super) fn store(&mut self, p: u32, v: u32) {
        inst(&mut self.m.body, Op::Store, &[p, v]);
    }

    pub(super) fn label(&mut self, l: u32) {
        inst(&mut self.m.body, Op::Label, &[l]);
        self.terminated = false;
    }

    pub(super) fn branch(&mut self, l: u32) {
        inst(&mut self.m.body, Op::Branch, &[l]);
        self.terminated = true;
    }

    pub(super) fn fneg(&mut self, t: T, v: u32) -> u32 {
        self.op1(Op::FNegate, t, v)
    }

    /// A function-local variable of `t` (zero-initialised) in the current function.
    pub(super) fn local(&mut self, t: T) -> u32 {
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
    pub(super) fn kill_if(&mut self, cond: u32, on_false: bool) {
        let merge = self.m.id();
        let k = self.m.id();
        inst(&mut self.m.body, Op::SelectionMerge, &[merge, 0]);
        let (t, f) = if on_false { (merge, k) } else { (k, merge) };
        inst(&mut self.m.body, Op::BranchConditional, &[cond, t, f]);
        self.label(k);
        inst(&mut self.m.body, Op::Kill, &[]);
        self.label(merge);
    }

    /// Writes the function under construction's head (declaration, first label, local
    /// variables) into the function section; the body follows.
    pub(super) fn function_head(&mut self, id: u32) {
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
    pub(super) fn finish_function(&mut self, id: u32) {
        self.function_head(id);
        let m = &mut self.m;
        m.funcs.extend_from_slice(&m.body);
        inst(&mut m.funcs, Op::FunctionEnd, &[]);
        m.body.clear();
    }

    /// Runs the whole emission (subroutines callee first, then `main`).
    pub fn run(&mut self, ins: &[Instruction]) -> Result<(), Error> {
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
        let order = call_order(&subs, ins, &self.offsets)?;
        for si in order {
            let (label, range) = subs[si].clone();
            self.in_entry = false;
            self.reset_fn_state();
            self.dead = None;
            self.terminated = false;
            self.emit_range(&ins[range.clone()], range.start)?;
            if self.dead.is_none() {
                self.flush();
            }
            if !self.terminated {
                inst(&mut self.m.body, Op::Return, &[]);
            }
            let id = self.labels.iter().find(|e| e.0 == label).map_or(0, |e| e.1);
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
        self.emit_range(&ins[main.clone()], main.start)?;
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
}
