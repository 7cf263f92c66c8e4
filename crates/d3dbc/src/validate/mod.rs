//! The validator: the rules the D3D9 runtime applies before a driver sees a shader,
//! per shader version, each finding with a stable code, DWORD offset and reason.
//!
//! [`validate`] walks the IR once, in stream order (SM2 shaders with subroutines twice,
//! see below), keeping only small fixed tables (written-register masks, declared
//! registers, a flow-control stack, slot counters), so its cost is linear in the shader
//! and it allocates and formats nothing unless it makes a finding. The facts that depend
//! only on the version and the opcode (legality, layout, slots, which register types,
//! numbers, modifiers and swizzles each operand may have, which result modifiers are
//! allowed) are tabled once per version, from the same rule functions the full checks
//! use; the common instruction is then checked with a few bit tests, and the full rule
//! code runs only where a table says a rule might fire. Every rule has a row in
//! [`rules()`] (code, family, versions, summary, the Microsoft documentation page it
//! comes from); `docs/validation.md` is written from that table.
//!
//! Where a limit depends on device caps (`_x` models, `vs_3_0` slot counts, constant
//! counts of `vs_1_1`), the documented maximum is used, so that anything some D3D9
//! device accepts validates clean here. `_sw` models get their larger software limits.

use crate::diag::Severity;
use std::sync::OnceLock;

use crate::ir::{DstParam, Instruction, Item, Register, Shader, SrcParam};
use crate::opcode::{Layout, Opcode, SlotClass, OPCODES};
use crate::token::{result_modifier, RegisterType, SamplerType, SrcModifier};
use crate::version::{ShaderKind, Version, MINOR_SW};

/// One rule violation.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Finding {
    /// The rule broken.
    pub rule: Rule,
    /// Stable rule code (`E0203`), a row of [`rules()`] (`rule.code()`).
    pub code: &'static str,
    /// Error (the runtime rejects the shader) or warning.
    pub severity: Severity,
    /// Index into `shader.items` of the offending instruction (for whole-shader
    /// findings, the last item, or 0 for an empty shader).
    pub item: usize,
    /// DWORD offset of the instruction token (the version token is offset 0).
    pub offset: usize,
    /// The operand the finding is about, numbered as the listing writes them: the
    /// destination first (when the instruction has one), then the sources (`mov oC0,
    /// r7`: `r7` is operand 1). `None`: the instruction as a whole.
    pub operand: Option<usize>,
    /// One line: what is wrong, and the rule's documentation page in brackets.
    pub message: String,
}

/// `State::operand` when no operand is being checked.
const NO_OPERAND: u8 = u8::MAX;

mod counts;
mod decl;
mod flow;
mod operands;
mod ps1;
mod rules;
mod tables;

pub use rules::{rules, Rule, RuleInfo};
use tables::*;

// ---------------------------------------------------------------------------------------
// The pass.
// ---------------------------------------------------------------------------------------

#[derive(Clone, Copy, PartialEq, Eq)]
enum Block {
    IfBool,
    IfDyn,
    /// An `if` block past its `else` (a second `else` is an error).
    ElseBool,
    ElseDyn,
    Loop,
    Rep,
}

const MAX_STACK: usize = 64;

struct State<'a> {
    v: Version,
    // Per-version tables.
    ctx: &'a Ctx,
    out: Vec<Finding>,
    item: usize,
    offset: usize,
    // The operand being checked (`Finding::operand`), or NO_OPERAND.
    operand: u8,
    // Written component masks of temps (read-before-write).
    temp_written: [u8; 32],
    tex_loaded: u8,
    // Dependent-read level of each temp (ps_2_0), 0 = not from a texture read.
    dep_level: [u8; 32],
    // Declarations: masks per register.
    dcl_input: [u8; 16],
    dcl_output: [u8; 16],
    dcl_tex: [u8; 8],
    dcl_sampler: u32,
    dcl_misc: u8,
    // Per register type, bit n (n < 32): reading register n raises neither E0204 (a
    // temp never written) nor E0401 (not declared); the reads' view of `temp_written`
    // and the dcl tables.
    quiet_read: [u32; 20],
    // Semantics already declared: (is_output, usage, index) packed as bits.
    sem_in: [u16; 14],
    sem_out: [u16; 14],
    seen_exec: bool,
    // Flow control.
    stack: [Block; MAX_STACK],
    depth: usize,
    loops: u32,
    statics: u32,
    dynamics: u32,
    static_flow_count: u32,
    labels_defined: [u64; 32],
    labels_called: [u64; 32],
    any_call: bool,
    // A label instruction was met (SM2: rerun with the subroutines' writes).
    label_seen: bool,
    main_ended: bool,
    in_sub: bool,
    // ps_1_x.
    seen_arith: bool,
    phase_seen: bool,
    pad_expect: Option<(Opcode, u16, u16, u8)>, // (pad opcode, next dst, src, remaining)
    prev_arith: Option<(u8, bool)>,             // (dst mask, was co-issued)
    // Counts.
    slots: u32,
    arith: u32,
    tex: u32,
    last_item: usize,
    last_offset: usize,
}

/// An instruction's mnemonic, looked up only when a message is actually formatted.
#[derive(Clone, Copy)]
struct Mn(Opcode, Version);

impl std::fmt::Display for Mn {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.0.mnemonic(self.1))
    }
}

/// Validates a shader against the D3D9 runtime's rules for its version.
///
/// Returns every finding in stream order (whole-shader findings last); an empty vector
/// means the runtime accepts the shader.
pub fn validate(shader: &Shader) -> Vec<Finding> {
    let v = shader.version;
    let owned;
    let ctx = match Ctx::cached(v) {
        Some(c) => c,
        None => {
            owned = Ctx::new(v);
            &owned
        }
    };
    let mut s = State::new(v, ctx);
    s.run(shader);
    // Subroutines follow the main program in the stream, so a temp a subroutine writes
    // may be read lexically earlier (after the call). With labels present, every temp
    // written from the first label on counts as written from the start. Only SM2 reads
    // these masks before writing them (E0204 stops at 3.0; the ps_2_0 dependent-read
    // rule), and labels are rare: when the pass met one, it runs again with the masks
    // preset.
    if v.major == 2 && s.label_seen {
        s = State::new(v, ctx);
        s.subroutine_writes(shader);
        s.run(shader);
    }
    s.finish();
    s.out
}

impl<'a> State<'a> {
    fn new(v: Version, ctx: &'a Ctx) -> State<'a> {
        State {
            v,
            ctx,
            out: Vec::new(),
            item: 0,
            offset: 1,
            operand: NO_OPERAND,
            temp_written: [0; 32],
            tex_loaded: 0,
            dep_level: [0; 32],
            dcl_input: [0; 16],
            dcl_output: [0; 16],
            dcl_tex: [0; 8],
            dcl_sampler: 0,
            dcl_misc: 0,
            quiet_read: ctx.quiet_read,
            sem_in: [0; 14],
            sem_out: [0; 14],
            seen_exec: false,
            stack: [Block::IfBool; MAX_STACK],
            depth: 0,
            loops: 0,
            statics: 0,
            dynamics: 0,
            static_flow_count: 0,
            labels_defined: [0; 32],
            labels_called: [0; 32],
            any_call: false,
            label_seen: false,
            main_ended: false,
            in_sub: false,
            seen_arith: false,
            phase_seen: false,
            pad_expect: None,
            prev_arith: None,
            slots: 0,
            arith: 0,
            tex: 0,
            last_item: 0,
            last_offset: 1,
        }
    }

    /// Marks every temp written from the first label on as written.
    fn subroutine_writes(&mut self, shader: &Shader) {
        let first_label = shader
            .items
            .iter()
            .position(|item| matches!(item, Item::Instruction(ins) if ins.opcode == Opcode::Label));
        if let Some(first) = first_label {
            for item in &shader.items[first..] {
                if let Item::Instruction(ins) = item {
                    if ins.dst.reg.kind == RegisterType::Temp
                        && ins.dst.reg.num < 32
                        && self.ctx.ops[ins.opcode.row()].layout.dst
                    {
                        let n = ins.dst.reg.num as usize;
                        self.temp_written[n] |= ins.dst.mask;
                        self.temp_now_written(n);
                    }
                }
            }
        }
    }

    /// The pass over the items (whole-shader findings are left to [`State::finish`]).
    fn run(&mut self, shader: &Shader) {
        let ctx = self.ctx;
        let (mut last_item, mut last_offset) = (self.last_item, self.last_offset);
        for (i, item) in shader.items.iter().enumerate() {
            match item {
                Item::Comment(c) => {
                    self.offset += 1 + c.len();
                }
                Item::Instruction(ins) => {
                    self.item = i;
                    last_item = i;
                    last_offset = self.offset;
                    let f = &ctx.ops[ins.opcode.row()];
                    let len = self.instruction(ins, f);
                    self.offset += 1 + len;
                }
            }
        }
        self.last_item = last_item;
        self.last_offset = last_offset;
    }
}

impl State<'_> {
    #[cold]
    #[inline(never)]
    fn finding(&mut self, severity: Severity, rule: Rule, msg: std::fmt::Arguments<'_>) {
        use std::fmt::Write;
        let source = rule.info().source;
        let mut message = String::with_capacity(112 + source.len());
        let _ = message.write_fmt(msg);
        message.push_str(" [");
        message.push_str(source);
        message.push(']');
        self.out.push(Finding {
            rule,
            code: rule.code(),
            severity,
            item: self.item,
            offset: self.offset,
            operand: (self.operand != NO_OPERAND).then_some(self.operand as usize),
            message,
        });
    }

    #[cold]
    #[inline(never)]
    fn err(&mut self, rule: Rule, msg: std::fmt::Arguments<'_>) {
        self.finding(Severity::Error, rule, msg);
    }

    #[cold]
    #[inline(never)]
    fn warn(&mut self, rule: Rule, msg: std::fmt::Arguments<'_>) {
        self.finding(Severity::Warning, rule, msg);
    }

    #[inline]
    fn file(&self, t: RegisterType) -> Option<RegFile> {
        self.ctx.files[t as usize]
    }

    /// `r` as the listing spells it (for messages).
    fn name(&self, r: Register) -> RegName {
        RegName(self.v, r)
    }

    /// One instruction. Plain instructions (no declaration, flow control, co-issue,
    /// predicate, controls or instruction-specific rule; not after the main `ret`) take
    /// the short path; everything else [`State::instruction_full`].
    /// Returns the instruction's operand length (as [`Instruction::operand_len`]).
    #[inline]
    fn instruction(&mut self, ins: &Instruction, f: &OpFacts) -> usize {
        let c = ins.controls;
        let plain = f.plain
            & (c.wrapping_sub(f.ctrl.0) <= f.ctrl.1 - f.ctrl.0)
            & !ins.coissue
            & ins.predicate.is_none()
            & !self.main_ended;
        if !plain {
            self.instruction_full(ins, f);
            return operand_len(ins, f.layout, self.ctx.rel_tok);
        }
        if f.flags & flag::NOT_EXEC == 0 {
            self.seen_exec = true;
        }
        if self.ctx.ps1 {
            self.ps1(ins, f.class);
        }
        let mut reads_rel_al = false;
        let mut rels = 0;
        let first_src = u8::from(f.layout.dst);
        for (k, src) in ins.src().iter().enumerate() {
            self.operand = first_src + k as u8;
            match src.rel {
                None => self.check_src(ins, f, k, src),
                Some(rel) => {
                    rels += 1;
                    reads_rel_al |= rel.reg.kind == RegisterType::Loop;
                    self.check_src_full(ins, f, k, src);
                }
            }
        }
        if f.layout.dst {
            self.operand = 0;
            match ins.dst.rel {
                None => self.check_dst(ins, f, &ins.dst),
                Some(rel) => {
                    rels += 1;
                    reads_rel_al |= rel.reg.kind == RegisterType::Loop;
                    self.check_dst_full(ins, f, &ins.dst);
                }
            }
        }
        self.operand = NO_OPERAND;
        if reads_rel_al && self.loops == 0 {
            self.err(Rule::E0207, format_args!("aL is used outside a loop"));
        }
        if f.texld_mask && ins.dst.mask != 0xF {
            self.specific(ins);
        }
        if self.ctx.ps20 {
            self.dependent_reads(ins, f.class);
        }
        self.mark_written(ins, f);
        self.count(ins, f);
        // No predicate here; relative-address tokens only from SM2 on.
        let l = f.layout;
        usize::from(l.decl)
            + l.imms as usize
            + usize::from(l.dst)
            + ins.src().len()
            + if self.ctx.rel_tok { rels } else { 0 }
    }

    #[inline(never)]
    fn instruction_full(&mut self, ins: &Instruction, f: &OpFacts) {
        let v = self.v;
        let op = ins.opcode;
        self.label_seen |= op == Opcode::Label;
        let mn = Mn(op, v);
        if !f.legal {
            self.err(
                Rule::E0101,
                format_args!("{mn} is not an instruction of {v}"),
            );
            return;
        }
        let layout = f.layout;
        let is_decl = f.flags & flag::DECL != 0;
        let class = f.class;

        // Declarations precede executable instructions.
        if is_decl {
            if self.seen_exec {
                self.err(
                    Rule::E0405,
                    format_args!("{mn} after the first executable instruction"),
                );
            }
        } else if f.flags & flag::NOT_EXEC == 0 {
            self.seen_exec = true;
        }

        if ins.controls < f.ctrl.0 || ins.controls > f.ctrl.1 {
            self.check_controls(ins);
        }
        if ins.coissue || ins.predicate.is_some() {
            self.check_coissue_predicate(ins, class);
        }

        match op {
            _ if !is_decl => {}
            Opcode::Dcl => {
                self.dcl(ins);
                return;
            }
            Opcode::Def | Opcode::DefI | Opcode::DefB => {
                let want = match op {
                    Opcode::Def => RegisterType::Const,
                    Opcode::DefI => RegisterType::ConstInt,
                    _ => RegisterType::ConstBool,
                };
                let r = ins.dst.reg;
                if r.kind != want && !(op == Opcode::Def && is_const_float(r.kind)) {
                    self.err(
                        Rule::E0104,
                        format_args!(
                            "{mn} must define a {} register, not {}",
                            match want {
                                RegisterType::Const => "c#",
                                RegisterType::ConstInt => "i#",
                                _ => "b#",
                            },
                            self.name(r)
                        ),
                    );
                } else {
                    self.check_index(r, false);
                }
                self.def_dst_plain(ins);
                return;
            }
            _ => {}
        }

        // Subroutine structure: after the main program's ret, only labelled code.
        if self.main_ended && !self.in_sub && op != Opcode::Label {
            self.err(
                Rule::E0506,
                format_args!(
                    "{mn} after the main program's ret is not inside a labelled subroutine"
                ),
            );
            self.in_sub = true;
        }

        if f.flags & flag::FLOW != 0 {
            self.flow(ins);
        }
        if self.ctx.ps1 {
            self.ps1(ins, class);
        }

        // Operands.
        let mut reads_rel_al = false;
        let first_src = u8::from(layout.dst);
        for (k, src) in ins.src().iter().enumerate() {
            self.operand = first_src + k as u8;
            self.check_src(ins, f, k, src);
            if src.rel.is_some_and(|r| r.reg.kind == RegisterType::Loop) {
                reads_rel_al = true;
            }
        }
        self.operand = NO_OPERAND;
        if let Some(p) = &ins.predicate {
            if p.reg.kind != RegisterType::Predicate {
                self.err(
                    Rule::E0104,
                    format_args!("the predicate of {mn} must be p0, not {}", self.name(p.reg)),
                );
            }
            if !matches!(p.modifier, SrcModifier::None | SrcModifier::Not) {
                self.err(
                    Rule::E0301,
                    format_args!("the predicate of {mn} takes only the ! modifier"),
                );
            }
        }
        if layout.dst {
            self.operand = 0;
            if op == Opcode::TexKill {
                // texkill's operand is read, not written.
                let as_src = SrcParam {
                    reg: ins.dst.reg,
                    rel: ins.dst.rel,
                    swizzle: crate::ir::SWIZZLE_IDENTITY,
                    modifier: SrcModifier::None,
                };
                self.check_index(ins.dst.reg, false);
                self.check_read(ins, &as_src);
                self.check_dst_mods(ins, &ins.dst);
            } else {
                self.check_dst(ins, f, &ins.dst);
            }
            if ins
                .dst
                .rel
                .is_some_and(|r| r.reg.kind == RegisterType::Loop)
            {
                reads_rel_al = true;
            }
            self.operand = NO_OPERAND;
        }
        if reads_rel_al && self.loops == 0 {
            self.err(Rule::E0207, format_args!("aL is used outside a loop"));
        }
        if f.flags & (flag::SPECIFIC | flag::TEXLD) != 0 {
            self.specific(ins);
        }
        if self.ctx.ps20 {
            self.dependent_reads(ins, f.class);
        }
        self.mark_written(ins, f);
        self.count(ins, f);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rule_codes_are_unique_and_sorted() {
        let r = rules();
        for w in r.windows(2) {
            assert!(w[0].code < w[1].code, "{} / {}", w[0].code, w[1].code);
        }
    }

    fn codes(tokens: &[u32]) -> Vec<&'static str> {
        validate(&Shader::decode(tokens).unwrap())
            .iter()
            .map(|f| f.code)
            .collect()
    }

    #[test]
    fn offsets_count_comments_and_operands() {
        // vs_2_0; comment(2); dcl_position v0; mov r0, c300 (warning); mov oPos, r5 (E0204)
        let tokens = [
            0xFFFE0200, 0x0002FFFE, 0, 0, 0x0200001F, 0x80000000, 0x900F0000, 0x02000001,
            0x800F0000, 0xA0E4012C, 0x02000001, 0xC00F0000, 0x80E40005, 0x0000FFFF,
        ];
        let f = validate(&Shader::decode(&tokens).unwrap());
        assert_eq!(f.len(), 2, "{f:?}");
        assert_eq!((f[0].code, f[0].item, f[0].offset), ("E0208", 2, 7));
        assert_eq!(f[0].severity, Severity::Warning);
        assert_eq!((f[1].code, f[1].item, f[1].offset), ("E0204", 3, 10));
        assert!(f[1].message.contains("r5") && f[1].message.contains("Temporary Register"));
    }

    #[test]
    fn subroutine_writes_count_before_the_call() {
        // vs_2_0; call l0; mov oPos, r0; ret; label l0; mov r0, c0; ret
        let tokens = [
            0xFFFE0200, 0x01000019, 0xA0E41000, 0x02000001, 0xC00F0000, 0x80E40000, 0x0000001C,
            0x0100001E, 0xA0E41000, 0x02000001, 0x800F0000, 0xA0E40000, 0x0000001C, 0x0000FFFF,
        ];
        assert_eq!(codes(&tokens), Vec::<&str>::new());
        // Without the label: call to an undefined label.
        let bad = [0xFFFE0200, 0x01000019, 0xA0E41000, 0x0000FFFF];
        assert_eq!(codes(&bad), vec!["E0506"]);
    }

    /// The per-version tables: every D3D9 version is cached, opcodes outside
    /// [`op_swizzle_rules`] follow the version's swizzle rule, and the swizzle sets fit.
    #[test]
    fn version_tables_are_complete() {
        let mut versions = Vec::new();
        for (major, minor) in [(1, 0), (1, 1), (2, 0), (2, 1), (2, 0xFF), (3, 0), (3, 0xFF)] {
            versions.push(Version::vertex(major, minor));
        }
        for (major, minor) in [(1, 0), (1, 1), (1, 2), (1, 3), (1, 4), (2, 0), (2, 1)] {
            versions.push(Version::pixel(major, minor));
        }
        versions.extend([(2, 0xFF), (3, 0), (3, 0xFF)].map(|(a, b)| Version::pixel(a, b)));
        for v in versions {
            assert!(Ctx::cached(v).is_some(), "{v}");
            let generic = src_swizzles(v, Opcode::Mov, 0);
            let mut sets = vec![[0; 4], generic];
            for row in OPCODES {
                for k in 0..4 {
                    let own = src_swizzles(v, row.opcode, k);
                    if !op_swizzle_rules(row.opcode) {
                        assert_eq!(own, generic, "{v} {:?} source {k}", row.opcode);
                    } else if !sets.contains(&own) {
                        sets.push(own);
                    }
                }
            }
            assert!(
                sets.len() <= SWIZZLE_SETS,
                "{v}: {} swizzle sets",
                sets.len()
            );
        }
    }

    #[test]
    fn every_rule_has_text() {
        for r in rules() {
            assert!(!r.summary.is_empty() && !r.source.is_empty() && !r.versions.is_empty());
            assert_eq!(r.code.len(), 5);
        }
    }

    #[test]
    fn simple_vs_is_valid() {
        let tokens = [0xFFFE0101, 0x00000001, 0xC00F0000, 0x90E40000, 0x0000FFFF];
        let s = Shader::decode(&tokens).unwrap();
        assert!(validate(&s).is_empty());
    }

    /// Fields a listing cannot show are rejected, so whatever validates prints in a form
    /// that reassembles exactly (tests/mutant_roundtrip.rs checks that over thousands of
    /// corpus mutants).
    #[test]
    fn fields_the_listing_cannot_show_are_rejected() {
        // ps_2_0: def c0 with a partial mask, with _sat, with a shift.
        for dst in [0xA007_0000u32, 0xA01F_0000, 0xA10F_0000] {
            let t = [
                0xFFFF0200, 0x05000051, dst, 0, 0, 0, 0, 0x02000001, 0x800F0800, 0xA0E40000,
                0x0000FFFF,
            ];
            let c = codes(&t);
            assert!(
                c.iter().any(|c| matches!(*c, "E0306" | "E0302" | "E0303")),
                "{dst:08x}: {c:?}"
            );
        }
        // vs_2_0: dcl_position v0 with a shift; with an empty mask.
        let t = [0xFFFE0200, 0x0200001F, 0x80000000, 0x910F0000, 0x0000FFFF];
        assert_eq!(codes(&t), ["E0303"]);
        let t = [0xFFFE0200, 0x0200001F, 0x80000000, 0x90000000, 0x0000FFFF];
        assert_eq!(codes(&t), ["E0306"]);
        // vs_2_0: mov r0 with an empty mask.
        let t = [0xFFFE0200, 0x02000001, 0x80000000, 0xA0E40000, 0x0000FFFF];
        assert_eq!(codes(&t), ["E0306"]);
        // ps_3_0: dcl vFace with a usage in its token.
        let t = [
            0xFFFF0300, 0x0200001F, 0x80000001, 0x900F1001, 0x02000001, 0x800F0800, 0xA0E40000,
            0x0000FFFF,
        ];
        assert!(codes(&t).contains(&"E0402"), "{:?}", codes(&t));
        // vs_3_0: c0[aL] whose address token carries a swizzle.
        let t = [
            0xFFFE0300, 0x0200001F, 0x80000000, 0xE00F0000, 0x05000030, 0xF00F0000, 1, 0, 1, 0,
            0x0200001B, 0xF0E40800, 0xF0E40000, 0x03000001, 0xE00F0000, 0xA0E42000, 0xF0000800,
            0x0000001D, 0x0000FFFF,
        ];
        assert!(codes(&t).contains(&"E0206"), "{:?}", codes(&t));
    }
}
