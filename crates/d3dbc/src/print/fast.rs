//! The token printer: [`super::print_tokens`]' fast path, which prints a plain listing
//! (no offsets or tokens) straight from the DWORDs, one instruction line per pass over
//! its tokens, without decoding into an [`Instruction`](crate::ir::Instruction) first.
//!
//! What it prints comes from tables built once from the facts the decoding printer
//! reads: per listing class (the version's layouts and mnemonics, the footer's slot
//! model) each opcode's mnemonic, operand layout, footer slots and block role from
//! `crate::opcode`; register spellings from `crate::regs`; source-modifier prefixes
//! and suffixes and result-modifier suffixes from the `instruction` module's writers,
//! which also print the rare forms (named registers, relative addresses, `dcl` suffixes,
//! `def` values) for both printers.
//!
//! It accepts a subset of what the decoder accepts: a token the decoder would reject (or
//! question), a constant table after an instruction or a line too long for the line
//! buffer makes it give up (`None`), and the caller prints with the decoding printer,
//! which reports the error. So whatever it prints, the decoding printer prints the same
//! (`tests/print_corpus.rs` compares the two over the corpus and mutated streams, the
//! `decode` fuzz target over arbitrary input).

use std::sync::LazyLock;

use super::ctab::write_ctab_payload;
use super::instruction::{
    src_prefix, texld_suffixed, write_controls, write_dcl_suffix, write_immediates, write_register,
    write_rel, write_result_modifiers, write_swizzle, MASKS,
};
use super::sink::{Buffered, Sink};
use super::{write_footer, write_version, PrintOptions};
use crate::ctab::Ctab;
use crate::ir::{DeclToken, DstParam, Register, RelAddr};
use crate::opcode::{Block, Opcode, SlotModel, OPCODES};
use crate::token::END_TOKEN;
use crate::token::{instruction as it, param_register_type_bits, RegisterType, SrcModifier};
use crate::version::Version;

/// How an opcode's line is laid out.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Form {
    /// Not an opcode the decoder accepts (the slow path reports it).
    Invalid,
    /// Mnemonic, controls, result modifiers, destination and sources.
    Plain,
    /// `dcl_usage dst`.
    Dcl,
    /// `def`/`defi`/`defb`: register and immediates.
    Def,
}

/// One opcode in one listing class.
#[derive(Clone, Copy)]
struct Op {
    name: [u8; 16],
    len: u8,
    form: Form,
    opcode: Opcode,
    dst: bool,
    srcs: u8,
    imms: u8,
    /// Operand DWORDs besides relative-address tokens and the predicate.
    base: u8,
    texld: bool,
    comparison: bool,
    /// Footer slots this instruction adds, by [`slot_index`]: texture slots in the high
    /// 32 bits, arithmetic slots in the low (zero when co-issued).
    slots: [u64; 4],
    block: Block,
}

const INVALID: Op = Op {
    name: [0; 16],
    len: 0,
    form: Form::Invalid,
    opcode: Opcode::Nop,
    dst: false,
    srcs: 0,
    imms: 0,
    base: 0,
    texld: false,
    comparison: false,
    slots: [0; 4],
    block: Block::None,
};

/// Opcode rows per class: codes 0–96, then `phase`.
const OPS: usize = 98;
const PHASE: usize = 97;

/// A register file in one register class: its name when every register is a name and
/// a number (`r5`, `oT3`, `c2050`); otherwise the IR printer's `write_register` spells it.
#[derive(Clone, Copy)]
struct Reg {
    name: [u8; 8],
    len: u8,
    add: u16,
    numbered: bool,
    kind: Option<RegisterType>,
}

/// A source modifier's text before and after the register.
#[derive(Clone, Copy)]
struct Mod {
    valid: bool,
    prefix: [u8; 8],
    prefix_len: u8,
    suffix: [u8; 8],
    suffix_len: u8,
}

struct Tables {
    ops: [[Op; OPS]; 7],
    regs: [[Reg; 32]; 3],
    mods: [Mod; 16],
    /// Result-modifier suffixes by shift (bits 24–27) × modifiers (bits 20–22).
    results: [([u8; 24], u8); 128],
}

/// The versions standing for each opcode class ([`op_class`]): what an opcode's layout,
/// mnemonic and footer slots depend on.
const OP_CLASSES: [(Version, SlotModel); 7] = [
    (Version::vertex(1, 1), SlotModel::Hlsl),
    (Version::pixel(1, 3), SlotModel::Hlsl),
    (Version::pixel(1, 4), SlotModel::Hlsl),
    (Version::vertex(2, 0), SlotModel::Hlsl),
    (Version::vertex(2, 0), SlotModel::D3dx9Legacy),
    (Version::vertex(3, 0), SlotModel::Hlsl),
    (Version::vertex(3, 0), SlotModel::D3dx9Legacy),
];

/// The row of [`OP_CLASSES`] for `v` and `model`: vs_1_x, ps_1_0–1_3 and ps_1_4 (whose
/// footers ignore the model), then 2.x and 3.x per model.
fn op_class(v: Version, model: SlotModel) -> usize {
    let legacy = usize::from(model == SlotModel::D3dx9Legacy);
    match v.major {
        1 if v.is_vertex() => 0,
        1 if v.minor < 4 => 1,
        1 => 2,
        2 => 3 + legacy,
        _ => 5 + legacy,
    }
}

/// The versions standing for each register class ([`reg_class`]), as `regs::numbered`
/// tells them apart.
const REG_CLASSES: [Version; 3] = [
    Version::pixel(3, 0),
    Version::vertex(2, 0),
    Version::vertex(3, 0),
];

fn reg_class(v: Version) -> usize {
    if v.is_pixel() {
        0
    } else if v.major < 3 {
        1
    } else {
        2
    }
}

fn fixed<const N: usize>(s: &str) -> ([u8; N], u8) {
    let mut b = [0; N];
    b[..s.len()].copy_from_slice(s.as_bytes());
    (b, s.len() as u8)
}

fn op(opcode: Opcode, version: Version, model: SlotModel) -> Op {
    let layout = opcode.layout(version);
    let (name, len) = fixed(opcode.mnemonic(version));
    let (texture, arithmetic) = opcode.footer_slots(version, model);
    let form = match opcode {
        Opcode::Dcl => Form::Dcl,
        Opcode::Def | Opcode::DefI | Opcode::DefB => Form::Def,
        _ => Form::Plain,
    };
    Op {
        name,
        len,
        form,
        opcode,
        dst: layout.dst,
        srcs: layout.srcs,
        imms: layout.imms,
        base: u8::from(layout.decl) + u8::from(layout.dst) + layout.imms + layout.srcs,
        texld: texld_suffixed(opcode, version),
        comparison: opcode.has_comparison(),
        slots: std::array::from_fn(|i| {
            // As `Printer::instruction` counts: a predicated instruction costs one more,
            // a co-issued one nothing.
            let (predicated, coissue) = (i & 1 != 0, i & 2 != 0);
            let (t, a) = (texture as u64, arithmetic as u64);
            let extra = u64::from(predicated && t + a > 0);
            match (coissue, a > 0) {
                (true, _) => 0,
                (false, true) => (t << 32) | (a + extra),
                (false, false) => (t + extra) << 32,
            }
        }),
        block: opcode.block(),
    }
}

static TABLES: LazyLock<Box<Tables>> = LazyLock::new(|| {
    let mut ops = [[INVALID; OPS]; 7];
    for (row, &(version, model)) in ops.iter_mut().zip(&OP_CLASSES) {
        for info in OPCODES {
            let at = match info.opcode {
                Opcode::Reserved0 | Opcode::Comment | Opcode::End => continue,
                Opcode::Phase => PHASE,
                o => o.code() as usize,
            };
            row[at] = op(info.opcode, version, model);
        }
    }
    let mut regs = [[Reg {
        name: [0; 8],
        len: 0,
        add: 0,
        numbered: false,
        kind: None,
    }; 32]; 3];
    for (row, &version) in regs.iter_mut().zip(&REG_CLASSES) {
        for (bits, r) in row.iter_mut().enumerate() {
            r.kind = RegisterType::from_u8(bits as u8);
            if let Some(e) = r.kind.and_then(|k| crate::regs::numbered(k, version)) {
                (r.name, r.len, r.add, r.numbered) = (e.name, e.len, e.add, true);
            }
        }
    }
    let mods = std::array::from_fn(|m| {
        let modifier = SrcModifier::from_u8(m as u8);
        let m = modifier.unwrap_or_default();
        let (prefix, prefix_len) = fixed(src_prefix(m));
        let (suffix, suffix_len) = fixed(m.suffix());
        Mod {
            valid: modifier.is_some(),
            prefix,
            prefix_len,
            suffix,
            suffix_len,
        }
    });
    let results = std::array::from_fn(|i| {
        let mut d = DstParam::new(Register::new(RegisterType::Temp, 0), 0xF);
        d.modifiers = (i & 7) as u8;
        d.shift = (i >> 3) as u8;
        let mut s = String::new();
        write_result_modifiers(&d, &mut s);
        fixed(&s)
    });
    Box::new(Tables {
        ops,
        regs,
        mods,
        results,
    })
});

/// What every operand of one listing reads.
struct Ctx<'t> {
    version: Version,
    regs: &'t [Reg; 32],
    mods: &'t [Mod; 16],
    results: &'t [([u8; 24], u8); 128],
    rel_token: bool,
}

/// Prints the listing of `tokens` as `print_stream` would, or `None` where it leaves
/// that to the decoding printer (the caller discards what was written).
pub(super) fn print_fast(tokens: &[u32], options: &PrintOptions, out: &mut Buffered) -> Option<()> {
    let tables: &Tables = &TABLES;
    let version = Version::from_token(*tokens.first()?)?;
    let cx = Ctx {
        version,
        regs: &tables.regs[reg_class(version)],
        mods: &tables.mods,
        results: &tables.results,
        rel_token: version.has_relative_token(),
    };
    let sm2 = version.has_length_field();
    let reserved = if sm2 {
        it::RESERVED_29 | it::BIT31
    } else {
        it::RESERVED_29 | it::BIT31 | 0x0F00_0000
    };
    let mut model = SlotModel::Hlsl;
    let mut ctab_seen = false;
    // Set at the first instruction, when the version line is printed.
    let mut ops: Option<&[Op; OPS]> = None;
    let mut depth = 0usize;
    // Texture slots in the high 32 bits, arithmetic in the low (see `Op::slots`).
    let mut slots = 0u64;
    let mut pos = 1;
    loop {
        let token = *tokens.get(pos)?;
        let code = token & it::OPCODE_MASK;
        if code == 0xFFFE {
            if token & it::BIT31 != 0 {
                return None;
            }
            let len = ((token >> 16) & 0x7FFF) as usize;
            let c = tokens.get(pos + 1..pos + 1 + len)?;
            pos += 1 + len;
            if !ctab_seen && Ctab::is_ctab(c) {
                ctab_seen = true;
                if ops.is_some() {
                    return None;
                }
                if let Some(m) = write_ctab_payload(c, options.ctab_defaults, out) {
                    model = m;
                }
            }
            continue;
        }
        if code == 0xFFFF {
            if token != END_TOKEN {
                return None;
            }
            break;
        }
        let table = match ops {
            Some(t) => t,
            None => {
                write_version_line(version, out);
                let model = options.slot_model.unwrap_or(model);
                *ops.insert(&tables.ops[op_class(version, model)])
            }
        };
        let row = match code {
            0..=96 => code as usize,
            _ if token == 0xFFFD => PHASE,
            _ => return None,
        };
        let op = &table[row];
        if op.form == Form::Invalid || token & reserved != 0 {
            return None;
        }
        let predicated = token & it::PREDICATED != 0;
        let len = if sm2 {
            ((token >> it::LENGTH_SHIFT) & 0xF) as usize
        } else {
            op.base as usize + usize::from(predicated)
        };
        let operands = tokens.get(pos + 1..pos + 1 + len)?;
        pos += 1 + len;
        if matches!(op.block, Block::Close | Block::Else) {
            depth = depth.saturating_sub(1);
        }
        let coissue = token & it::COISSUE != 0;
        let indent = if coissue { 2 } else { 4 + 2 * depth };
        // `Buffered::line` spelled out: no closure to carry the arguments.
        let mut line = out.begin_line();
        let used = write_line(&cx, op, token, operands, indent, &mut line);
        let used = match line.end() {
            Some(len) => {
                out.end_line(len);
                used
            }
            None => write_line_slow(&cx, op, token, operands, indent, out),
        };
        if used? != len {
            return None;
        }
        if matches!(op.block, Block::Open | Block::Else) {
            depth += 1;
        }
        slots = slots.wrapping_add(op.slots[slot_index(token)]);
    }
    if ops.is_none() {
        write_version_line(version, out);
    }
    write_footer((slots >> 32) as u32, slots as u32, out);
    Some(())
}

/// The row of [`Op::slots`] for an instruction token: predicated (bit 28), co-issued
/// (bit 30).
#[inline(always)]
fn slot_index(token: u32) -> usize {
    (((token >> 28) & 1) | ((token >> 29) & 2)) as usize
}

fn write_version_line(version: Version, out: &mut Buffered) {
    out.push_str("    ");
    write_version(version, out);
    out.push('\n');
}

/// [`write_line`] straight into the block, for a line too long for a [`Line`] (no
/// instruction line is; out of the loop's code).
#[cold]
#[inline(never)]
fn write_line_slow(
    cx: &Ctx,
    op: &Op,
    token: u32,
    operands: &[u32],
    indent: usize,
    out: &mut Buffered,
) -> Option<usize> {
    write_line(cx, op, token, operands, indent, out)
}

/// One instruction line with its newline; the operand DWORDs it read, or `None` where
/// the decoder would object.
#[inline(always)]
fn write_line<S: Sink>(
    cx: &Ctx,
    op: &Op,
    token: u32,
    operands: &[u32],
    indent: usize,
    out: &mut S,
) -> Option<usize> {
    out.push_spaces(indent);
    if token & it::COISSUE != 0 {
        out.push_str("+ ");
    }
    let mut i = 0;
    let mut decl = 0;
    if op.form == Form::Dcl {
        decl = *operands.first()?;
        if decl & 0x8000_0000 == 0 || decl & 0x07F0_FFE0 != 0 {
            return None;
        }
        i = 1;
    }
    let dst_at = i;
    let dst = if op.dst {
        let t = *operands.get(i)?;
        i += 1 + usize::from(t & REL != 0 && cx.rel_token);
        t
    } else {
        0
    };
    // The predicate token follows the destination; it prints first.
    if token & it::PREDICATED != 0 {
        i = write_predicate(cx, operands, i, out)?;
    }
    match op.form {
        Form::Plain => {
            out.push_fixed(&op.name, op.len as usize);
            let controls = ((token >> it::CONTROLS_SHIFT) & 0xFF) as u8;
            if op.texld || op.comparison {
                write_controls(op.texld, op.comparison, controls, out);
            }
            if op.dst {
                if dst & 0x0F70_0000 != 0 {
                    let (text, n) = result_suffix(cx, dst);
                    out.push_fixed(text, n);
                }
                out.push(' ');
                write_dst(cx, operands, dst_at, true, out)?;
            }
            // A space before the first source where there is no destination.
            let mut sep = if op.dst { 2 } else { 1 };
            for _ in 0..op.srcs {
                i = next_src(cx, operands, i, sep, out)?;
                sep = 2;
            }
        }
        Form::Dcl => write_dcl(cx, decl, dst, operands, dst_at, out)?,
        Form::Def => i = write_def(cx, op, operands, dst_at, i, out)?,
        Form::Invalid => return None,
    }
    out.push('\n');
    Some(i)
}

// The rarer parts of a line, out of the loop's code (a few lines a listing): what the
// loop runs for every instruction stays small in the instruction cache.

/// `(p0.x) `: the predicate source at `operands[i]`; the index after it.
#[inline(never)]
fn write_predicate<S: Sink>(cx: &Ctx, operands: &[u32], i: usize, out: &mut S) -> Option<usize> {
    out.push('(');
    let i = src(cx, operands, i, out)?;
    out.push_str(") ");
    Some(i)
}

/// `dcl_usage dst` after the indent: the declaration token `decl`, the destination
/// token `dst` at `operands[dst_at]`.
#[inline(never)]
fn write_dcl<S: Sink>(
    cx: &Ctx,
    decl: u32,
    dst: u32,
    operands: &[u32],
    dst_at: usize,
    out: &mut S,
) -> Option<()> {
    let kind = cx.regs[param_register_type_bits(dst) as usize].kind?;
    out.push_str("dcl");
    write_dcl_suffix(DeclToken(decl), kind, cx.version, out);
    let (text, n) = result_suffix(cx, dst);
    out.push_fixed(text, n);
    out.push(' ');
    write_dst(cx, operands, dst_at, true, out)
}

/// `def c0, 1, 2, 3, 4` after the indent, the immediates from `operands[i]`; the index
/// after them.
#[inline(never)]
fn write_def<S: Sink>(
    cx: &Ctx,
    op: &Op,
    operands: &[u32],
    dst_at: usize,
    i: usize,
    out: &mut S,
) -> Option<usize> {
    out.push_fixed(&op.name, op.len as usize);
    out.push(' ');
    write_dst(cx, operands, dst_at, false, out)?;
    let imm = operands.get(i..i + op.imms as usize)?;
    write_immediates(op.opcode, imm, out);
    Some(i + imm.len())
}

/// The result-modifier suffix of a destination token (`_sat`, `_x2`) and its length.
#[inline(always)]
fn result_suffix<'t>(cx: &Ctx<'t>, dst: u32) -> (&'t [u8; 24], usize) {
    let (text, n) = &cx.results[(((dst >> 21) & 0x78) | ((dst >> 20) & 7)) as usize];
    (text, usize::from(*n))
}

/// What precedes a source: a space (the first, without a destination), or `, `.
const SEPARATORS: [[u8; 2]; 2] = [*b"  ", *b", "];

/// The relative-addressing bit of a parameter token.
const REL: u32 = 1 << 13;

/// The register of a parameter token.
#[inline(always)]
fn write_reg(cx: &Ctx, t: u32, out: &mut impl Sink) -> Option<()> {
    let r = &cx.regs[param_register_type_bits(t) as usize];
    if r.numbered {
        out.push_fixed(&r.name, r.len as usize);
        super::float::push_u32(out, (t & 0x7FF) + u32::from(r.add));
    } else {
        let reg = Register::new(r.kind?, (t & 0x7FF) as u16);
        write_register(reg, cx.version, out);
    }
    Some(())
}

/// The relative address after a register (its token at `operands[i]` from 2.0 on, the
/// implicit `a0.x` before); the index after it.
#[inline(never)]
fn write_relative(cx: &Ctx, operands: &[u32], i: usize, out: &mut impl Sink) -> Option<usize> {
    if !cx.rel_token {
        write_rel(RelAddr::A0_X, cx.version, out);
        return Some(i);
    }
    let t = *operands.get(i)?;
    if t & 0x8F00_E000 != 0x8000_0000 {
        return None;
    }
    let swizzle = ((t >> 16) & 0xFF) as u8;
    // `[a0.x]`: a numbered register with a replicate swizzle, from the register table.
    let r = &cx.regs[param_register_type_bits(t) as usize];
    if r.numbered && swizzle == (swizzle & 3) * 0x55 {
        out.push('[');
        out.push_fixed(&r.name, r.len as usize);
        super::float::push_u32(out, (t & 0x7FF) + u32::from(r.add));
        out.push_fixed(&REL_COMPONENTS[usize::from(swizzle & 3)], 3);
        return Some(i + 1);
    }
    let kind = r.kind?;
    let rel = RelAddr {
        reg: Register::new(kind, (t & 0x7FF) as u16),
        swizzle,
    };
    write_rel(rel, cx.version, out);
    Some(i + 1)
}

/// The component and closing bracket of a relative address (`.x]`).
const REL_COMPONENTS: [[u8; 3]; 4] = [*b".x]", *b".y]", *b".z]", *b".w]"];

/// The destination at `operands[at]`: register, relative address and (with `mask`) the
/// write mask.
#[inline(always)]
fn write_dst(cx: &Ctx, operands: &[u32], at: usize, mask: bool, out: &mut impl Sink) -> Option<()> {
    let t = *operands.get(at)?;
    if t & (0x8000_0000 | 0x0080_C000) != 0x8000_0000 {
        return None;
    }
    write_reg(cx, t, out)?;
    if t & REL != 0 {
        write_relative(cx, operands, at + 1, out)?;
    }
    if mask {
        let (text, n) = &MASKS[((t >> 16) & 0xF) as usize];
        out.push_fixed(text, *n as usize);
    }
    Some(())
}

/// A separator of `sep` bytes (see [`SEPARATORS`]) and the source at `operands[i]`; the
/// index after it.
#[inline(always)]
fn next_src(
    cx: &Ctx,
    operands: &[u32],
    i: usize,
    sep: usize,
    out: &mut impl Sink,
) -> Option<usize> {
    out.push_fixed(&SEPARATORS[sep - 1], sep);
    src(cx, operands, i, out)
}

/// The source at `operands[i]`; the index after it (and its relative-address token).
#[inline(always)]
fn src(cx: &Ctx, operands: &[u32], i: usize, out: &mut impl Sink) -> Option<usize> {
    let t = *operands.get(i)?;
    let mut i = i + 1;
    if t & (0x8000_0000 | 0x0000_C000) != 0x8000_0000 {
        return None;
    }
    // Most sources have no modifier: no prefix or suffix to copy.
    if t & 0x0F00_0000 == 0 {
        write_reg(cx, t, out)?;
    } else {
        let m = &cx.mods[((t >> 24) & 0xF) as usize];
        if !m.valid {
            return None;
        }
        out.push_fixed(&m.prefix, m.prefix_len as usize);
        write_reg(cx, t, out)?;
        out.push_fixed(&m.suffix, m.suffix_len as usize);
    }
    if t & REL != 0 {
        i = write_relative(cx, operands, i, out)?;
    }
    write_swizzle(((t >> 16) & 0xFF) as u8, out);
    Some(i)
}
