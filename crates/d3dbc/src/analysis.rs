//! The one pre-pass over a decoded shader, shared by the CPU executor and both GPU
//! translators (`d3dbc-naga`, `d3dbc-spirv`): a single walk that records what the
//! shader declares (`dcl`s per register, sampler types), its `def`/`defi`/`defb`
//! constants, the registers it reads and writes (per register file, the highest float
//! constant named directly, integer/boolean constants read), its block structure
//! (balance, deepest nesting), its `label` subroutines and where the main program ends,
//! and the few whole-shader facts the consumers size their state by (`texkill`, depth
//! written).
//!
//! It owns facts only; what a consumer derives from them (the executor's register-file
//! layout and jump targets, the translators' variables and interface) stays with the
//! consumer, so the executor and the translators remain independent implementations of
//! the semantics. Problems (unbalanced blocks, a register number past every register
//! file) are recorded, not raised: each consumer reports them its own way.

use std::ops::Range;

use crate::decode::{DecodeError, Decoder, Step};
use crate::ir::{DeclToken, Instruction, Item, Shader, SrcParam};
use crate::opcode::{Block, Layout, Opcode, Role};
use crate::regs;
use crate::token::{DeclUsage, RegisterType, SamplerType};
use crate::version::Version;

/// Register numbers a [`RegSet`] holds per register type: more than any register file
/// but the constants and labels has (which the sets do not hold).
pub const REG_SET_LIMIT: u16 = 64;

/// Register types (`D3DSPR_*` values 0–19).
pub const REGISTER_TYPES: usize = 20;

/// A set of registers `(type, number)` with numbers below [`RegSet::LIMIT`]: one bit
/// table, no allocation.
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub struct RegSet([u64; REGISTER_TYPES]);

impl RegSet {
    /// Register numbers a set holds per register type (more than any register file but
    /// the constants and labels has, which the sets do not hold).
    pub const LIMIT: u16 = REG_SET_LIMIT;
    /// Register types a set holds (`D3DSPR_*` values 0–19).
    pub const TYPES: usize = REGISTER_TYPES;
}

impl RegSet {
    /// Adds a register (numbers from [`RegSet::LIMIT`] on are not held).
    #[inline]
    pub fn insert(&mut self, kind: RegisterType, num: u16) {
        if num < REG_SET_LIMIT {
            self.0[kind as usize] |= 1u64 << num;
        }
    }

    /// Whether the set holds the register.
    #[inline]
    pub fn contains(&self, kind: RegisterType, num: u16) -> bool {
        num < REG_SET_LIMIT && self.0[kind as usize] & (1u64 << num) != 0
    }

    /// The registers of one type, bit `n` for number `n`.
    #[inline]
    pub fn bits(&self, kind: RegisterType) -> u64 {
        self.0[kind as usize]
    }

    /// Every register held, by type (in `D3DSPR_*` order) then number.
    pub fn iter(&self) -> impl Iterator<Item = (RegisterType, u16)> + '_ {
        self.0.iter().enumerate().flat_map(|(k, &bits)| {
            let kind = RegisterType::from_u8(k as u8).unwrap_or(RegisterType::Temp);
            (0..REG_SET_LIMIT)
                .filter(move |n| bits & (1u64 << n) != 0)
                .map(move |n| (kind, n))
        })
    }
}

/// One `dcl` of a register (samplers included), in declaration order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Declaration {
    /// The register file.
    pub kind: RegisterType,
    /// The register number.
    pub num: u16,
    /// The declaration token (usage and index, or sampler type).
    pub decl: DeclToken,
    /// The destination write mask.
    pub mask: u8,
    /// The `_centroid` modifier.
    pub centroid: bool,
}

impl Declaration {
    /// The usage and usage index the declaration gives, or for a `dcl` without a
    /// defined usage (the ps_2_x `dcl v#`/`dcl t#` forms) the one the register implies:
    /// `v#` is COLOR#, `t#` TEXCOORD#.
    pub fn usage_or_implied(&self) -> (DeclUsage, u8) {
        match self.decl.usage_kind() {
            Some(u) => (u, self.decl.usage_index()),
            None if self.kind == RegisterType::Input => (DeclUsage::Color, self.num as u8),
            None => (DeclUsage::TexCoord, self.num as u8),
        }
    }
}

/// An input or output declaration as a stage's interface binds it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Varying {
    /// The register number.
    pub num: u16,
    /// The usage.
    pub usage: DeclUsage,
    /// The usage index.
    pub index: u8,
    /// The declaration's write mask.
    pub mask: u8,
    /// Interpolated at the centroid (`_centroid`; inputs only).
    pub centroid: bool,
}

/// What is wrong with a shader's structure, as the pre-pass finds it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Problem {
    /// An `endif`/`endloop`/`endrep` with no open block.
    UnbalancedEnd,
    /// A `label` inside an open block.
    LabelInBlock,
    /// A block still open at the end token.
    Unclosed,
    /// A register number at or past [`RegSet::LIMIT`] in a file with fewer registers in
    /// every version (a sampler declaration past the most samplers any version has).
    Register(RegisterType, u16),
}

impl Problem {
    /// The problem in words (for the consumers' errors).
    pub fn why(self) -> &'static str {
        match self {
            Problem::UnbalancedEnd => "unbalanced end of block",
            Problem::LabelInBlock => "label inside a block",
            Problem::Unclosed => "unclosed block",
            Problem::Register(..) => "register out of range",
        }
    }
}

/// What the pre-pass learns about one shader.
#[derive(Clone, Debug)]
pub struct Analysis {
    /// The shader's version.
    pub version: Version,
    /// The instructions, comments left out.
    pub instructions: Vec<Instruction>,
    /// The DWORD offset of each instruction (the version token is 0; comments count),
    /// then the end token's.
    pub offsets: Vec<u32>,
    /// Every `dcl`, in order.
    pub declarations: Vec<Declaration>,
    /// Declared sampler registers `s#` (the last declaration of each).
    pub samplers: [Option<DeclToken>; regs::MAX_SAMPLERS],
    /// `def` constants by register, sorted, the last definition of each (raw bits).
    pub float_defs: Vec<(u16, [u32; 4])>,
    /// `defi` constants, as `float_defs`.
    pub int_defs: Vec<(u16, [i32; 4])>,
    /// `defb` constants, as `float_defs`.
    pub bool_defs: Vec<(u16, bool)>,
    /// Registers named (read, written or declared; samplers, labels and constants
    /// aside; `aL` when a `loop` sets it; `r0` in ps_1_x, its colour output; `oDepth`
    /// when written by `texdepth`/`texm3x2depth`).
    pub used: RegSet,
    /// Registers some instruction writes.
    pub written: RegSet,
    /// The highest float constant named directly (as [`regs::float_constant_index`]).
    pub max_const: Option<u32>,
    /// An integer constant `i#` is read.
    pub reads_int: bool,
    /// A boolean constant `b#` is read.
    pub reads_bool: bool,
    /// Flow control: a block, a break, a call or a label.
    pub has_flow: bool,
    /// A `call`/`callnz` or `label`.
    pub has_calls: bool,
    /// The pixel depth is written (`oDepth`, `texdepth`, `texm3x2depth`).
    pub writes_depth: bool,
    /// `texkill` is used.
    pub discards: bool,
    /// The deepest `if`/`loop`/`rep` nesting.
    pub max_depth: usize,
    /// The main program's instruction range (up to the first `label`).
    pub main: Range<usize>,
    /// Each subroutine: its label number and the instruction range of its body.
    pub subs: Vec<(u16, Range<usize>)>,
    /// The first problem found, with the index of its instruction (the instruction
    /// count for a block left open at the end).
    pub problem: Option<(usize, Problem)>,
}

impl Analysis {
    /// Walks `shader` once.
    pub fn new(shader: &Shader) -> Analysis {
        let mut a = Analysis::blank(shader.version);
        a.fill(shader);
        a
    }

    /// `shader`'s analysis in place of this one, its buffers kept: a translator that
    /// keeps one per thread allocates nothing here from its second shader on. The
    /// result is [`Analysis::new`]'s.
    pub fn refill(&mut self, shader: &Shader) {
        self.reset(shader.version);
        self.fill(shader);
    }

    /// This analysis as [`Analysis::blank`] makes one, in place (no blank value built
    /// and moved in): the buffers emptied and kept. Every field is named, so a new one
    /// must be reset here too.
    fn reset(&mut self, version: Version) {
        let Analysis {
            version: v,
            instructions,
            offsets,
            declarations,
            samplers,
            float_defs,
            int_defs,
            bool_defs,
            used,
            written,
            max_const,
            reads_int,
            reads_bool,
            has_flow,
            has_calls,
            writes_depth,
            discards,
            max_depth,
            main,
            subs,
            problem,
        } = self;
        *v = version;
        instructions.clear();
        offsets.clear();
        declarations.clear();
        *samplers = [None; regs::MAX_SAMPLERS];
        float_defs.clear();
        int_defs.clear();
        bool_defs.clear();
        *used = RegSet::default();
        *written = RegSet::default();
        *max_const = None;
        *reads_int = false;
        *reads_bool = false;
        *has_flow = false;
        *has_calls = false;
        *writes_depth = false;
        *discards = false;
        *max_depth = 0;
        *main = 0..0;
        subs.clear();
        *problem = None;
    }

    /// Nothing learnt yet (no buffer allocated).
    fn blank(version: Version) -> Analysis {
        Analysis {
            version,
            instructions: Vec::new(),
            offsets: Vec::new(),
            declarations: Vec::new(),
            samplers: [None; regs::MAX_SAMPLERS],
            float_defs: Vec::new(),
            int_defs: Vec::new(),
            bool_defs: Vec::new(),
            used: RegSet::default(),
            written: RegSet::default(),
            max_const: None,
            reads_int: false,
            reads_bool: false,
            has_flow: false,
            has_calls: false,
            writes_depth: false,
            discards: false,
            max_depth: 0,
            main: 0..0,
            subs: Vec::new(),
            problem: None,
        }
    }

    /// The walk over `shader`, copying out its instructions and their offsets.
    fn fill(&mut self, shader: &Shader) {
        let n = shader.items.len();
        self.instructions.reserve(n);
        self.offsets.reserve(n + 1);
        self.walk(shader);
    }

    /// The declared type of sampler `s#` (`None`: not declared, or an undefined type).
    pub fn sampler_type(&self, num: u16) -> Option<SamplerType> {
        self.samplers
            .get(num as usize)
            .copied()
            .flatten()
            .and_then(DeclToken::sampler_type)
    }

    /// Whether sampler `s#` is declared.
    pub fn sampler_declared(&self, num: u16) -> bool {
        self.samplers.get(num as usize).is_some_and(Option::is_some)
    }

    /// The `def` of float constant `c#`, if any.
    pub fn float_def(&self, num: u16) -> Option<[u32; 4]> {
        find(&self.float_defs, num)
    }

    /// The `defi` of `i#`, if any.
    pub fn int_def(&self, num: u16) -> Option<[i32; 4]> {
        find(&self.int_defs, num)
    }

    /// The `defb` of `b#`, if any.
    pub fn bool_def(&self, num: u16) -> Option<bool> {
        find(&self.bool_defs, num)
    }

    /// The input declarations (`v#`, `t#`) as varyings, with the usage each gives or
    /// implies ([`Declaration::usage_or_implied`]), by register type.
    pub fn inputs(&self) -> impl Iterator<Item = (RegisterType, Varying)> + '_ {
        self.declarations
            .iter()
            .filter(|d| matches!(d.kind, RegisterType::Input | RegisterType::AddrOrTexture))
            .map(|d| {
                let (usage, index) = d.usage_or_implied();
                let v = Varying {
                    num: d.num,
                    usage,
                    index,
                    mask: d.mask,
                    centroid: d.centroid,
                };
                (d.kind, v)
            })
    }

    /// The vs_3_0 output declarations `dcl_usage o#` with a defined usage, as varyings.
    pub fn outputs(&self) -> impl Iterator<Item = Varying> + '_ {
        let vertex = self.version.is_vertex();
        self.declarations.iter().filter_map(move |d| {
            let usage = d
                .decl
                .usage_kind()
                .filter(|_| vertex && d.kind == RegisterType::Output)?;
            Some(Varying {
                num: d.num,
                usage,
                index: d.decl.usage_index(),
                mask: d.mask,
                centroid: false,
            })
        })
    }

    fn problem(&mut self, i: usize, p: Problem) {
        if self.problem.is_none() {
            self.problem = Some((i, p));
        }
    }

    /// Notes one register operand of instruction `i`.
    #[inline]
    fn note(&mut self, i: usize, kind: RegisterType, num: u16) {
        match kind {
            RegisterType::Const
            | RegisterType::Const2
            | RegisterType::Const3
            | RegisterType::Const4 => {
                let n = regs::float_constant_index(kind, num);
                self.max_const = Some(self.max_const.map_or(n, |m| m.max(n)));
            }
            RegisterType::ConstInt => self.reads_int = true,
            RegisterType::ConstBool => self.reads_bool = true,
            RegisterType::Sampler | RegisterType::Label => {}
            RegisterType::Temp
            | RegisterType::Input
            | RegisterType::AddrOrTexture
            | RegisterType::RastOut
            | RegisterType::AttrOut
            | RegisterType::Output
            | RegisterType::ColorOut
            | RegisterType::DepthOut
            | RegisterType::Loop
            | RegisterType::TempFloat16
            | RegisterType::MiscType
            | RegisterType::Predicate => {
                if num >= REG_SET_LIMIT {
                    self.problem(i, Problem::Register(kind, num));
                }
                self.used.insert(kind, num);
            }
        }
    }

    /// The walk, one pass over the items: each instruction copied out with its DWORD
    /// offset (recomputed from its operands, comments counted), then noted.
    fn walk(&mut self, shader: &Shader) {
        let v = self.version;
        let mut w = Walk::new(v);
        let mut at = 1u32;
        for item in &shader.items {
            let x = match item {
                Item::Instruction(x) => x,
                Item::Comment(c) => {
                    at = at.saturating_add(1 + c.len() as u32);
                    continue;
                }
            };
            let layout = x.layout(v);
            self.step(&mut w, at, x, layout);
            at = at.saturating_add(1 + x.operand_len_in(layout, v) as u32);
        }
        self.end(w, at);
    }

    /// `tokens`' analysis in place of this one, decoded straight into it (no [`Shader`]
    /// in between: each instruction is decoded once and copied once, comments are
    /// skipped where they lie), its buffers kept as [`Analysis::refill`] keeps them. The
    /// result is `Analysis::new(&Shader::decode(tokens)?)`'s; DWORDs after the end token
    /// are ignored, as [`Shader::decode`] ignores them. After an error the analysis is
    /// not the shader's (refill it again before reading it).
    pub fn refill_tokens(&mut self, tokens: &[u32]) -> Result<(), DecodeError> {
        let mut d = Decoder::new(tokens)?;
        let v = d.version();
        self.reset(v);
        let mut w = Walk::new(v);
        let mut ins = Instruction::new(Opcode::Nop);
        while let Some((at, step)) = d.next_into(&mut ins)? {
            if let Step::Instruction = step {
                // As `Shader::decode` leaves them: unused source slots `EMPTY`.
                for s in &mut ins.srcs[ins.src_count as usize..] {
                    *s = SrcParam::EMPTY;
                }
                let layout = ins.opcode.layout(v);
                self.step(&mut w, at as u32, &ins, layout);
            }
        }
        // The decoder stands after the end token.
        self.end(w, d.offset() as u32 - 1);
        Ok(())
    }

    /// One instruction at DWORD offset `at`: copied out, its block structure and
    /// operands noted. Long by design: one arm per opcode role over the analysis being
    /// built.
    #[inline(always)]
    fn step(&mut self, w: &mut Walk, at: u32, x: &Instruction, layout: Layout) {
        let i = self.instructions.len();
        self.instructions.push(*x);
        self.offsets.push(at);
        match x.opcode.role() {
            Role::Declaration => {
                self.declaration(i, x);
                return;
            }
            Role::Marker | Role::Phase => return,
            // Blocks, breaks, calls and labels: only flow control needs the block
            // bookkeeping (one match on the role for the rest).
            Role::Flow(_) => self.flow(w, i, x),
            Role::Compute => {}
        }
        self.operands(i, x, layout, w.ps1x);
    }

    /// The block structure and subroutines of a flow-control instruction `i`.
    fn flow(&mut self, w: &mut Walk, i: usize, x: &Instruction) {
        let op = x.opcode;
        match op.block() {
            Block::Open => {
                self.has_flow = true;
                w.depth += 1;
                self.max_depth = self.max_depth.max(w.depth);
            }
            Block::Close => match w.depth.checked_sub(1) {
                Some(d) => w.depth = d,
                None => self.problem(i, Problem::UnbalancedEnd),
            },
            Block::Else | Block::None => {}
        }
        match op {
            Opcode::Break | Opcode::BreakC | Opcode::BreakP => self.has_flow = true,
            Opcode::Call | Opcode::CallNz => {
                self.has_flow = true;
                self.has_calls = true;
            }
            Opcode::Label => {
                self.has_flow = true;
                self.has_calls = true;
                if w.depth != 0 {
                    self.problem(i, Problem::LabelInBlock);
                }
                if let Some((l, start)) = w.cur_label.take() {
                    self.subs.push((l, start..i));
                } else {
                    w.main_end = Some(i);
                }
                w.cur_label = Some((x.srcs[0].reg.num, i + 1));
            }
            _ => {}
        }
    }

    /// After the last instruction (the end token at DWORD offset `at`): the main
    /// program's range, the last subroutine, the definitions sorted.
    fn end(&mut self, w: Walk, at: u32) {
        self.offsets.push(at);
        let count = self.instructions.len();
        let main_end = w.main_end.unwrap_or(count);
        if w.depth != 0 {
            self.problem(count, Problem::Unclosed);
        }
        if let Some((l, start)) = w.cur_label {
            self.subs.push((l, start..count));
        }
        self.main = 0..main_end;
        if w.ps1x {
            self.used.insert(RegisterType::Temp, 0);
        }
        if self.writes_depth {
            self.used.insert(RegisterType::DepthOut, 0);
            self.written.insert(RegisterType::DepthOut, 0);
        }
        last_defs(&mut self.float_defs);
        last_defs(&mut self.int_defs);
        last_defs(&mut self.bool_defs);
    }

    /// A `dcl`, `def`, `defi` or `defb`.
    fn declaration(&mut self, i: usize, x: &Instruction) {
        let r = x.dst.reg;
        match x.opcode {
            Opcode::Dcl => {
                self.declarations.push(Declaration {
                    kind: r.kind,
                    num: r.num,
                    decl: x.decl,
                    mask: x.dst.mask,
                    centroid: x.dst.centroid(),
                });
                match r.kind {
                    RegisterType::Sampler => match self.samplers.get_mut(r.num as usize) {
                        Some(s) => *s = Some(x.decl),
                        None => self.problem(i, Problem::Register(r.kind, r.num)),
                    },
                    RegisterType::Output => {}
                    _ => self.note(i, r.kind, r.num),
                }
            }
            Opcode::Def => self.float_defs.push((r.num, x.imm)),
            Opcode::DefI => self.int_defs.push((r.num, x.imm.map(|v| v as i32))),
            Opcode::DefB => self.bool_defs.push((r.num, x.imm[0] != 0)),
            _ => {}
        }
    }

    /// The operands of an executable instruction.
    fn operands(&mut self, i: usize, x: &Instruction, layout: Layout, ps1x: bool) {
        let op = x.opcode;
        for s in x.src() {
            self.note(i, s.reg.kind, s.reg.num);
            if let Some(r) = s.rel {
                self.note(i, r.reg.kind, r.reg.num);
            }
        }
        if let Some(p) = &x.predicate {
            self.note(i, p.reg.kind, p.reg.num);
        }
        let d = x.dst.reg;
        match op {
            // These name a register they read, not one they write.
            Opcode::TexKill => {
                self.discards = true;
                self.note(i, d.kind, d.num);
            }
            Opcode::TexDepth => {
                self.writes_depth = true;
                self.note(i, d.kind, d.num);
            }
            _ if layout.dst => {
                self.note(i, d.kind, d.num);
                if let Some(r) = x.dst.rel {
                    self.note(i, r.reg.kind, r.reg.num);
                }
                self.written.insert(d.kind, d.num);
                if d.kind == RegisterType::DepthOut {
                    self.writes_depth = true;
                }
            }
            _ => {}
        }
        match op {
            Opcode::TexM3x2Depth => self.writes_depth = true,
            Opcode::Loop => {
                self.used.insert(RegisterType::Loop, 0);
                self.written.insert(RegisterType::Loop, 0);
            }
            _ => {}
        }
        // ps_1_x texture instructions read their stage's texture coordinate.
        if ps1x && op.is_ps1x_texture_op() {
            self.note(i, RegisterType::AddrOrTexture, d.num);
        }
    }
}

/// The walk's state from one instruction to the next.
struct Walk {
    /// The open blocks.
    depth: usize,
    /// The first `label`'s index (the main program's end).
    main_end: Option<usize>,
    /// The subroutine being walked: its label number and first instruction.
    cur_label: Option<(u16, usize)>,
    ps1x: bool,
}

impl Walk {
    fn new(v: Version) -> Walk {
        Walk {
            depth: 0,
            main_end: None,
            cur_label: None,
            ps1x: v.is_ps_1_x(),
        }
    }
}

/// Binary search in a sorted definition list.
fn find<V: Copy>(defs: &[(u16, V)], num: u16) -> Option<V> {
    defs.binary_search_by_key(&num, |e| e.0)
        .ok()
        .map(|k| defs[k].1)
}

/// Sorts definitions by register, keeping the last definition of each (linear in the
/// number of definitions, whatever the input).
fn last_defs<V: Copy>(v: &mut Vec<(u16, V)>) {
    v.reverse();
    v.sort_by_key(|e| e.0);
    v.dedup_by_key(|e| e.0);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn analyse(src: &str) -> Analysis {
        let shader = crate::asm::assemble(src, &crate::asm::Options::default()).expect("assembles");
        Analysis::new(&shader)
    }

    /// A refilled analysis is the new one, whatever the shader before it left behind
    /// (definitions, subroutines, a problem, another version).
    #[test]
    fn refill_is_new() {
        let texts = [
            "vs_3_0\ndcl_position v0\ndcl_position o0\ndef c4, 1, 2, 3, 4\ndefi i0, 2, 0, 0, 0\n\
             defb b0, true\nloop aL, i0\nadd r0, v0, c4\nendloop\ncall l1\nmov o0, r0\nret\n\
             label l1\nmov r1, c4\nret\n",
            "ps_2_0\ndcl t0\ndcl_2d s0\ntexld r0, t0, s0\nmov oC0, r0\n",
            "vs_2_0\nif b0\nmov oPos, c0\n",
            "ps_1_4\ntexld r0, t0\nphase\nmov r0, r0\n",
        ];
        let o = crate::asm::Options {
            raw: true,
            ..Default::default()
        };
        let shaders: Vec<Shader> = texts
            .iter()
            .map(|t| crate::asm::assemble(t, &o).expect("assembles"))
            .collect();
        for before in &shaders {
            for after in &shaders {
                let mut a = Analysis::new(before);
                a.refill(after);
                assert_eq!(format!("{a:?}"), format!("{:?}", Analysis::new(after)));
            }
        }
    }

    /// The analysis decoded straight from tokens is the one of the decoded shader, its
    /// offsets counting comments, whatever the analysis refilled held before; bytes that
    /// do not decode are the decoder's error.
    #[test]
    fn refill_tokens_is_new_of_the_decoded_shader() {
        let texts = [
            "vs_3_0\ndcl_position v0\ndcl_position o0\ndef c4, 1, 2, 3, 4\nloop aL, i0\n\
             add r0, v0, c4\nendloop\ncall l1\nmov o0, r0\nret\nlabel l1\nmov r1, c4\nret\n",
            "ps_2_0\ndcl t0\ndcl_2d s0\ntexld r0, t0, s0\nmov oC0, r0\n",
            "vs_2_0\nif b0\nmov oPos, c0\n",
            "ps_1_4\ntexld r0, t1\nphase\ntexdepth r5\n",
        ];
        let o = crate::asm::Options {
            raw: true,
            ..Default::default()
        };
        let mut a = Analysis::new(&Shader::new(Version::pixel(3, 0)));
        for t in texts {
            let shader = crate::asm::assemble(t, &o).expect("assembles");
            let mut tokens = shader.encode();
            // A comment before the first instruction and DWORDs after the end token.
            tokens.splice(1..1, [0x0002_FFFE, 7, 8]);
            tokens.push(0x1234_5678);
            let decoded = Shader::decode(&tokens).expect("decodes");
            a.refill_tokens(&tokens).expect("decodes");
            assert_eq!(format!("{a:?}"), format!("{:?}", Analysis::new(&decoded)));
            assert_eq!(a.offsets[0], 4, "{t}");
        }
        let e = a.refill_tokens(&[0xFFFF_0200, 0x0200_0001]).unwrap_err();
        assert_eq!(e, Shader::decode(&[0xFFFF_0200, 0x0200_0001]).unwrap_err());
    }

    /// Declarations, definitions (the last of each register wins), registers read and
    /// written, constants named, in a vs_3_0 shader written after the documented
    /// `dcl_usage`, `def`/`defi`/`defb` and `loop`/`rep` forms.
    #[test]
    fn records_declarations_definitions_and_registers() {
        let a = analyse(
            "vs_3_0\n\
             dcl_position v0\n\
             dcl_texcoord1 v3\n\
             dcl_position o0\n\
             dcl_texcoord2 o5.xy\n\
             dcl_2d s1\n\
             def c4, 1, 2, 3, 4\n\
             def c4, 5, 6, 7, 8\n\
             defi i0, 3, 0, 1, 0\n\
             defb b2, true\n\
             mov r0, c[a0.x + 10]\n\
             loop aL, i0\n\
             rep i0\n\
             add r1, r0, v3\n\
             endrep\n\
             endloop\n\
             if b2\n\
             texldl r2, r1, s1\n\
             endif\n\
             mov o0, v0\n\
             mov o5.xy, r2\n",
        );
        assert_eq!(a.declarations.len(), 5);
        let outs: Vec<(u16, u8)> = a.outputs().map(|d| (d.num, d.mask)).collect();
        assert_eq!(outs, [(0, 0xF), (5, 0b0011)]);
        let ins: Vec<(DeclUsage, u8)> = a.inputs().map(|(_, d)| (d.usage, d.index)).collect();
        assert_eq!(ins, [(DeclUsage::Position, 0), (DeclUsage::TexCoord, 1)]);
        assert_eq!(a.sampler_type(1), Some(SamplerType::Tex2D));
        assert!(!a.sampler_declared(0));
        assert_eq!(a.float_def(4), Some([5f32, 6., 7., 8.].map(f32::to_bits)));
        assert_eq!(a.float_defs.len(), 1);
        assert_eq!(a.int_def(0), Some([3, 0, 1, 0]));
        assert_eq!(a.bool_def(2), Some(true));
        assert_eq!(a.max_const, Some(10));
        assert!(a.reads_int && a.reads_bool && a.has_flow && !a.has_calls);
        assert_eq!(a.max_depth, 2);
        assert!(a.used.contains(RegisterType::Input, 3));
        assert!(a.used.contains(RegisterType::Loop, 0));
        assert!(a.written.contains(RegisterType::Output, 5));
        assert!(!a.written.contains(RegisterType::Input, 0));
        assert!(a.used.contains(RegisterType::AddrOrTexture, 0));
        assert_eq!(a.problem, None);
        // The offsets: version token 0, the end token last.
        assert_eq!(a.offsets[0], 1);
        assert_eq!(a.offsets.len(), a.instructions.len() + 1);
    }

    /// `label` splits subroutines off the main program; `texkill` and `texdepth` read
    /// the register they name; ps_1_x texture instructions read their stage.
    #[test]
    fn records_subroutines_and_pixel_facts() {
        let a = analyse(
            "ps_2_x\n\
             call l1\n\
             mov oC0, r0\n\
             ret\n\
             label l1\n\
             mov r0, c0\n\
             texkill r0\n\
             ret\n",
        );
        assert_eq!(a.main, 0..3);
        assert_eq!(a.subs, [(1, 4..7)]);
        assert!(a.has_calls && a.discards && !a.writes_depth);
        assert!(!a.written.contains(RegisterType::Temp, 1));
        let a = analyse("ps_1_4\ntexld r0, t1\nphase\ntexdepth r5\n");
        assert!(a.writes_depth);
        assert!(a.used.contains(RegisterType::Temp, 5));
        assert!(!a.written.contains(RegisterType::Temp, 5));
        assert!(a.written.contains(RegisterType::DepthOut, 0));
        let a = analyse("ps_1_3\ntex t2\ntexbem t3, t2\nmov r0, t3\n");
        assert!(a.used.contains(RegisterType::AddrOrTexture, 3));
        assert!(a.used.contains(RegisterType::Temp, 0));
    }

    /// Unbalanced blocks are recorded at their instruction, the first problem kept.
    #[test]
    fn records_the_first_problem() {
        let mut shader = Shader::new(Version::vertex(2, 0));
        for op in [Opcode::Mov, Opcode::EndRep, Opcode::Rep, Opcode::End] {
            let mut x = Instruction::new(op);
            if op == Opcode::Rep {
                x.push_src(crate::ir::SrcParam::new(crate::ir::Register::new(
                    RegisterType::ConstInt,
                    0,
                )));
            }
            shader.items.push(Item::Instruction(x));
        }
        let a = Analysis::new(&shader);
        assert_eq!(a.problem, Some((1, Problem::UnbalancedEnd)));
        shader.items.remove(1);
        let a = Analysis::new(&shader);
        assert_eq!(a.problem, Some((3, Problem::Unclosed)));
        assert_eq!(a.problem.map(|p| p.1.why()), Some("unclosed block"));
    }

    /// One role per opcode; the validator's groups are read from it.
    #[test]
    fn roles_partition_the_opcodes() {
        for op in Opcode::all() {
            let r = op.role();
            assert_eq!(op.is_declaration(), r == Role::Declaration, "{op:?}");
            assert_eq!(op.is_flow(), matches!(r, Role::Flow(_)), "{op:?}");
            assert_eq!(
                op.is_marker(),
                matches!(r, Role::Marker | Role::Phase),
                "{op:?}"
            );
            if r == Role::Declaration || r == Role::Phase {
                assert_eq!(op.slots(Version::pixel(3, 0)), 0, "{op:?} takes no slot");
            }
        }
    }
}
