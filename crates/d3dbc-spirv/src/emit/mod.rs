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
use d3dbc::target::interface::{self as itf, driver, Interface};
use d3dbc::target::options::{CompareFunc, FogDepth, FogMode, TextureKind, TranslateOptions};
use d3dbc::token::{Comparison, DeclUsage, RegisterType, SamplerType, SrcModifier};
use d3dbc::{LogOfZero, MovaTies, MulZero, ReciprocalOfZero};
use d3dbc::{Opcode, Version};
use spirv::{BuiltIn, Decoration, GlslStd450Op as G, Op};

use crate::module::{inst, Lvn, Module, Sc, T};
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
type Decl = d3dbc::Varying;
/// Register numbers a slot table holds per register type.
const MAX_REG: u16 = d3dbc::RegSet::LIMIT;
/// Register types.
const NKIND: usize = d3dbc::RegSet::TYPES;

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
    pub m: Box<Module>,
    /// The deferred kill's private flag (0: the shader has no `texkill`): `texkill` sets
    /// it and the pixel runs on as a helper; the entry point kills at its end.
    killed: u32,
    o: &'a TranslateOptions,
    v: Version,
    ps: bool,
    ps1x: bool,
    adjust_y: bool,
    /// The pre-pass, borrowed from the caller (its instructions and offsets too).
    scan: &'a Scan,
    slot_of: Box<SlotTable>,
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
    /// Pixel inputs: what a linked vertex shader must provide (recorded only when the
    /// caller links them, [`Self::link_pixel_inputs`]).
    reads: Option<LinkReads>,
    loc_words: Vec<LocWord>,
    /// Vertex shader linked to these pixel reads.
    link: Option<&'a [LinkRead]>,
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

/// Register → slot index (`NONE`: the register has no slot).
type SlotTable = [[u16; MAX_REG as usize]; NKIND];

/// The emitter's own buffers, kept between the translations of a thread as the
/// [`Module`] is: cleared, not freed (the slot table is put back to all `NONE` entry by
/// entry from the slot list, not refilled).
struct Scratch {
    slot_of: Box<SlotTable>,
    slots: Vec<Slot>,
    cache: Vec<u32>,
    dirty: Vec<bool>,
    frames: Vec<Frame>,
    labels: Vec<(u16, u32)>,
    outputs: Vec<Output>,
    io_vars: Vec<u32>,
    loc_words: Vec<LocWord>,
}

thread_local! {
    static SCRATCH: std::cell::Cell<Option<Scratch>> = const { std::cell::Cell::new(None) };
    /// The interface a caller of the words alone left ([`keep_interface`]): the next
    /// translation records into its vectors ([`Interface::reset`]) instead of growing
    /// new ones.
    static ITF: std::cell::Cell<Option<Interface>> = const { std::cell::Cell::new(None) };
}

/// Keeps `itf`'s buffers for the thread's next translation (one handed out is taken
/// with `mem::replace`, leaving an empty one here).
pub(crate) fn keep_interface(itf: Interface) {
    ITF.with(|c| c.set(Some(itf)));
}

impl<'a> Emitter<'a> {
    pub fn new(
        m: Box<Module>,
        v: Version,
        scan: &'a Scan,
        o: &'a TranslateOptions,
        adjust_y: bool,
        link: Option<&'a [LinkRead]>,
        link_pixel: bool,
    ) -> Self {
        let ps = v.is_pixel();
        // Named when handed out (`crate::translation`): `emit` allocates no name.
        let itf = match ITF.with(|c| c.take()) {
            Some(mut i) => {
                i.reset(v);
                i
            }
            None => Interface::unnamed(v),
        };
        let sc = SCRATCH.with(|c| c.take()).unwrap_or_else(|| Scratch {
            slot_of: Box::new([[NONE; MAX_REG as usize]; NKIND]),
            slots: Vec::new(),
            cache: Vec::new(),
            dirty: Vec::new(),
            frames: Vec::new(),
            labels: Vec::new(),
            outputs: Vec::new(),
            io_vars: Vec::new(),
            loc_words: Vec::new(),
        });
        let Scratch {
            slot_of,
            mut slots,
            mut cache,
            mut dirty,
            mut frames,
            mut labels,
            mut outputs,
            mut io_vars,
            mut loc_words,
        } = sc;
        slots.clear();
        cache.clear();
        dirty.clear();
        frames.clear();
        labels.clear();
        outputs.clear();
        io_vars.clear();
        loc_words.clear();
        Emitter {
            m,
            killed: 0,
            o,
            v,
            ps,
            ps1x: v.is_ps_1_x(),
            adjust_y,
            scan,
            slot_of,
            slots,
            cache,
            dirty,
            in_entry: true,
            dead: None,
            terminated: false,
            frames,
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
            labels,
            pads: [0; 2],
            npads: 0,
            deferred: None,
            outputs,
            io_vars,
            itf,
            derivatives: false,
            clip: false,
            reads: link_pixel.then(LinkReads::default),
            loc_words,
            link,
            at: 0,
            op: Opcode::Nop,
            main_fn: 0,
        }
    }

    /// The module (for [`Module::recycle`]) and the interface, once assembled.
    pub fn finish(mut self) -> (Box<Module>, Interface) {
        for s in &self.slots {
            self.slot_of[s.kind as usize][s.num as usize] = NONE;
        }
        let sc = Scratch {
            slot_of: self.slot_of,
            slots: self.slots,
            cache: self.cache,
            dirty: self.dirty,
            frames: self.frames,
            labels: self.labels,
            outputs: self.outputs,
            io_vars: self.io_vars,
            loc_words: self.loc_words,
        };
        SCRATCH.with(|c| c.set(Some(sc)));
        (self.m, self.itf)
    }

    pub(super) fn unsupported(&self, why: &'static str) -> Error {
        Error::Unsupported {
            offset: self.at,
            opcode: self.op,
            why,
        }
    }

    /// A pure instruction `op` of result type `ty` on `args`: the id an identical one
    /// already emitted in the current block has (local value numbering, see [`Lvn`]),
    /// else a fresh one, written. `N` is fixed at each call site so that the key and
    /// the words are built without a `memcpy` call.
    #[inline]
    pub(super) fn pure<const N: usize>(&mut self, op: Op, ty: u32, args: [u32; N]) -> u32 {
        if !Lvn::merges(op) {
            let id = self.m.id();
            self.write_pure(op, ty, id, args);
            return id;
        }
        let (slot, key) = Lvn::key(op, ty, args);
        if let Some(id) = self.m.lvn.get::<N>(slot, &key) {
            return id;
        }
        let id = self.m.id();
        self.write_pure(op, ty, id, args);
        self.m.lvn.put::<N>(slot, &key, id);
        id
    }

    /// Writes `op ty id args…` into the body from one stack block (a fixed-size copy).
    #[inline(always)]
    fn write_pure<const N: usize>(&mut self, op: Op, ty: u32, id: u32, args: [u32; N]) {
        let mut w = [0u32; 11];
        w[0] = ((N as u32 + 3) << 16) | op as u32;
        w[1] = ty;
        w[2] = id;
        w[3..3 + N].copy_from_slice(&args);
        self.m.body.extend_from_slice(&w[..N + 3]);
    }

    #[inline]
    pub(super) fn op1(&mut self, op: Op, t: T, a: u32) -> u32 {
        let ty = self.m.ty(t);
        self.pure(op, ty, [a])
    }

    #[inline]
    pub(super) fn op2(&mut self, op: Op, t: T, a: u32, b: u32) -> u32 {
        let ty = self.m.ty(t);
        self.pure(op, ty, [a, b])
    }

    pub(super) fn sel(&mut self, t: T, c: u32, a: u32, b: u32) -> u32 {
        if a == b {
            return a;
        }
        let ty = self.m.ty(t);
        self.pure(Op::Select, ty, [c, a, b])
    }

    /// `c ? a : b` for vec4 operands and a scalar condition.
    pub(super) fn sel_s(&mut self, t: T, c: u32, a: u32, b: u32) -> u32 {
        let c4 = self.splat(T::V4B, c);
        self.sel(t, c4, a, b)
    }

    pub(super) fn ext(&mut self, t: T, f: G, args: &[u32]) -> u32 {
        let ty = self.m.ty(t);
        let (g, f) = (self.m.glsl, f as u32);
        match *args {
            [a] => self.pure(Op::ExtInst, ty, [g, f, a]),
            [a, b] => self.pure(Op::ExtInst, ty, [g, f, a, b]),
            [a, b, c] => self.pure(Op::ExtInst, ty, [g, f, a, b, c]),
            _ => unreachable!("GLSL.std.450 instructions take 1 to 3 operands"),
        }
    }

    pub(super) fn comp(&mut self, t: T, v: u32, i: u32) -> u32 {
        let ty = self.m.ty(t);
        self.pure(Op::CompositeExtract, ty, [v, i])
    }

    pub(super) fn cf(&mut self, v: u32, i: u32) -> u32 {
        self.comp(T::F32, v, i)
    }

    pub(super) fn construct(&mut self, t: T, c: &[u32]) -> u32 {
        let ty = self.m.ty(t);
        self.construct_ty(ty, c)
    }

    pub(super) fn construct_ty(&mut self, ty: u32, c: &[u32]) -> u32 {
        const OP: Op = Op::CompositeConstruct;
        match *c {
            [a, b] => self.pure(OP, ty, [a, b]),
            [a, b, d] => self.pure(OP, ty, [a, b, d]),
            [a, b, d, e] => self.pure(OP, ty, [a, b, d, e]),
            _ => {
                let id = self.m.id();
                let b = &mut self.m.body;
                b.push(((c.len() as u32 + 3) << 16) | OP as u32);
                b.push(ty);
                b.push(id);
                b.extend_from_slice(c);
                id
            }
        }
    }

    pub(super) fn splat(&mut self, t: T, s: u32) -> u32 {
        self.construct(t, &[s, s, s, s])
    }

    pub(super) fn shuffle(&mut self, t: T, v: u32, p: &[u32]) -> u32 {
        let ty = self.m.ty(t);
        const OP: Op = Op::VectorShuffle;
        match *p {
            [a] => self.pure(OP, ty, [v, v, a]),
            [a, b] => self.pure(OP, ty, [v, v, a, b]),
            [a, b, c] => self.pure(OP, ty, [v, v, a, b, c]),
            [a, b, c, d] => self.pure(OP, ty, [v, v, a, b, c, d]),
            _ => unreachable!("a shuffle takes 1 to 4 components"),
        }
    }

    /// A load from memory the function may write: never merged with another.
    pub(super) fn load(&mut self, t: T, p: u32) -> u32 {
        let ty = self.m.ty(t);
        let id = self.m.id();
        inst(&mut self.m.body, Op::Load, &[ty, id, p]);
        id
    }

    /// A load from memory nothing writes while the shader runs (uniforms, inputs):
    /// merged with an identical one in the block like a pure instruction.
    pub(super) fn load_const(&mut self, t: T, p: u32) -> u32 {
        let ty = self.m.ty(t);
        self.pure(Op::Load, ty, [p])
    }

    pub(super) fn store(&mut self, p: u32, v: u32) {
        inst(&mut self.m.body, Op::Store, &[p, v]);
    }

    pub(super) fn label(&mut self, l: u32) {
        inst(&mut self.m.body, Op::Label, &[l]);
        self.m.lvn.clear();
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
    pub fn run(&mut self) -> Result<(), Error> {
        let scan = self.scan;
        let ins = &scan.instructions[..];
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
        let subs = &scan.subs;
        for (l, _) in subs {
            if !self.labels.iter().any(|e| e.0 == *l) {
                let id = self.m.id();
                self.labels.push((*l, id));
            }
        }
        let order = call_order(subs, ins, &scan.offsets)?;
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
        let main = scan.main.clone();
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
