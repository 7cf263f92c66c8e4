//! Instructions: one instruction line as Microsoft prints it (predicate, co-issue,
//! mnemonic and modifiers, `dcl`/`def` forms) and its operands (registers, write masks,
//! swizzles, source modifiers, relative addressing).

use super::float::{push_f32, push_i32, push_u32};
use super::sink::Sink;
use crate::ir::{DeclToken, DstParam, Instruction, RelAddr, SrcParam, MASK_ALL};
use crate::ir::{Register, SWIZZLE_IDENTITY};
use crate::opcode::Opcode;
use crate::token::{texld_controls, Comparison, RegisterType, SrcModifier};
use crate::version::Version;
/// Appends one instruction as Microsoft prints it, without indentation or newline:
/// predicate, co-issue `+`, mnemonic with comparison / `texldp` / result modifiers, and
/// operands (e.g. `(!p0.x) add_sat r0.xy, -r1_abs, c2.x`).
pub fn print_instruction(ins: &Instruction, version: Version, out: &mut String) {
    write_instruction(ins, version, out);
}

pub(super) fn write_instruction(ins: &Instruction, version: Version, out: &mut impl Sink) {
    if ins.coissue {
        out.push_str("+ ");
    }
    if let Some(p) = &ins.predicate {
        out.push('(');
        write_src(p, version, out);
        out.push_str(") ");
    }
    let layout = ins.opcode.layout(version);
    match ins.opcode {
        Opcode::Dcl => return write_dcl(ins, version, out),
        Opcode::Def | Opcode::DefI | Opcode::DefB => {
            out.push_str(ins.opcode.mnemonic(version));
            out.push(' ');
            write_dst_reg(&ins.dst, version, out);
            write_immediates(ins.opcode, &ins.imm[..layout.imms as usize], out);
            return;
        }
        _ => {}
    }
    out.push_str(ins.opcode.mnemonic(version));
    write_controls(
        texld_suffixed(ins.opcode, version),
        ins.opcode.has_comparison(),
        ins.controls,
        out,
    );
    if layout.dst {
        write_result_modifiers(&ins.dst, out);
    }
    let mut sep = " ";
    if layout.dst {
        out.push_str(sep);
        write_dst(&ins.dst, version, out);
        sep = ", ";
    }
    for s in ins.src() {
        out.push_str(sep);
        write_src(s, version, out);
        sep = ", ";
    }
}

/// The immediates of `def` (`, 0.5, 1, …` as `%.9g`), `defi` (decimal) and `defb`
/// (`, true`), after the register.
#[inline(always)]
pub(super) fn write_immediates(opcode: Opcode, imm: &[u32], out: &mut impl Sink) {
    match opcode {
        Opcode::DefB => {
            let set = imm.first().is_some_and(|&v| v != 0);
            out.push_str(if set { ", true" } else { ", false" });
        }
        Opcode::DefI => {
            for &v in imm {
                out.push_str(", ");
                push_i32(out, v as i32);
            }
        }
        _ => {
            for &v in imm {
                out.push_str(", ");
                push_f32(out, f32::from_bits(v));
            }
        }
    }
}

/// Whether the controls field suffixes `opcode`'s mnemonic with `p`/`b` in `version`
/// (`texldp`, `texldb`: 2.0 and later).
pub(super) fn texld_suffixed(opcode: Opcode, version: Version) -> bool {
    opcode == Opcode::Tex && version.major >= 2
}

/// What the controls field adds to a mnemonic: `p`/`b` of `texldp`/`texldb` (`texld`,
/// [`texld_suffixed`]), a comparison (`_gt`) where the opcode has one.
#[inline(always)]
pub(super) fn write_controls(texld: bool, comparison: bool, controls: u8, out: &mut impl Sink) {
    if texld {
        match controls {
            texld_controls::PROJECT => out.push('p'),
            texld_controls::BIAS => out.push('b'),
            _ => {}
        }
    }
    if comparison {
        if let Some(c) = Comparison::from_u8(controls & 7) {
            out.push('_');
            out.push_str(c.suffix());
        }
    }
}

#[inline(always)]
pub(super) fn write_result_modifiers(d: &DstParam, out: &mut impl Sink) {
    out.push_str(match d.shift & 0xF {
        1 => "_x2",
        2 => "_x4",
        3 => "_x8",
        15 => "_d2",
        14 => "_d4",
        13 => "_d8",
        _ => "",
    });
    if d.saturate() {
        out.push_str("_sat");
    }
    if d.partial_precision() {
        out.push_str("_pp");
    }
    if d.centroid() {
        out.push_str("_centroid");
    }
}

fn write_dcl(ins: &Instruction, version: Version, out: &mut impl Sink) {
    out.push_str("dcl");
    write_dcl_suffix(ins.decl, ins.dst.reg.kind, version, out);
    write_result_modifiers(&ins.dst, out);
    out.push(' ');
    write_dst(&ins.dst, version, out);
}

/// What follows `dcl` for a declaration of a register of type `kind`: the sampler type
/// (`_2d`), or the usage and its index (`_texcoord2`); nothing for `vPos`/`vFace` and
/// the ps_2_x inputs without a usage.
#[inline(always)]
pub(super) fn write_dcl_suffix(
    decl: DeclToken,
    kind: RegisterType,
    version: Version,
    out: &mut impl Sink,
) {
    if kind == RegisterType::Sampler {
        match decl.sampler_type() {
            Some(t) if !t.name().is_empty() => {
                out.push('_');
                out.push_str(t.name());
            }
            Some(_) => {}
            None => {
                out.push_str("_unknown");
                push_u32(out, decl.sampler_type_raw() as u32);
            }
        }
    } else if kind != RegisterType::MiscType
        && !(version.is_pixel()
            && version.major < 3
            && decl.usage_raw() == 0
            && decl.usage_index() == 0)
    {
        out.push('_');
        match decl.usage_kind() {
            Some(u) => out.push_str(u.name()),
            None => {
                out.push_str("usage");
                push_u32(out, decl.usage_raw() as u32);
            }
        }
        let index = decl.usage_index();
        if index != 0 {
            push_u32(out, index as u32);
        }
    }
}

/// The register name without write mask (for `def*`).
#[inline(always)]
fn write_dst_reg(d: &DstParam, version: Version, out: &mut impl Sink) {
    write_register(d.reg, version, out);
    if let Some(rel) = d.rel {
        write_rel(rel, version, out);
    }
}

#[inline(always)]
fn write_dst(d: &DstParam, version: Version, out: &mut impl Sink) {
    write_dst_reg(d, version, out);
    let (text, n) = &MASKS[(d.mask & MASK_ALL) as usize];
    out.push_fixed(text, *n as usize);
}

/// The write-mask suffix of each mask (`.xz`; nothing for the full mask) as 8 bytes and
/// the count that is text.
pub(super) static MASKS: [([u8; 8], u8); 16] = {
    let mut t = [([0u8; 8], 0u8); 16];
    let mut m = 0;
    while m < 15 {
        t[m].0[0] = b'.';
        let mut n = 1;
        let mut i = 0;
        while i < 4 {
            if m & (1 << i) != 0 {
                t[m].0[n] = b"xyzw"[i];
                n += 1;
            }
            i += 1;
        }
        t[m].1 = n as u8;
        m += 1;
    }
    t
};

/// The swizzle suffix of each source swizzle as the listing prints it (nothing for
/// `.xyzw`, one letter when all four agree, else all four: `.x`, `.yzwx`) as 8 bytes
/// and the count that is text.
static SWIZZLES: [([u8; 8], u8); 256] = {
    let mut t = [([0u8; 8], 0u8); 256];
    let mut sw = 0;
    while sw < 256 {
        let c0 = sw & 3;
        if sw != SWIZZLE_IDENTITY as usize {
            t[sw].0[0] = b'.';
            if sw == c0 * 0x55 {
                t[sw].0[1] = b"xyzw"[c0];
                t[sw].1 = 2;
            } else {
                let mut i = 0;
                while i < 4 {
                    t[sw].0[1 + i] = b"xyzw"[(sw >> (2 * i)) & 3];
                    i += 1;
                }
                t[sw].1 = 5;
            }
        }
        sw += 1;
    }
    t
};

#[inline(always)]
fn write_src(s: &SrcParam, version: Version, out: &mut impl Sink) {
    let prefix = src_prefix(s.modifier);
    if !prefix.is_empty() {
        out.push_str(prefix);
    }
    write_register(s.reg, version, out);
    if s.modifier != SrcModifier::None {
        out.push_str(s.modifier.suffix());
    }
    if let Some(rel) = s.rel {
        write_rel(rel, version, out);
    }
    write_swizzle(s.swizzle, out);
}

/// What a source modifier puts before the register: `-`, `1-` (`Comp`), `!` (`Not`) or
/// nothing (the suffixes are [`SrcModifier::suffix`]).
#[inline(always)]
pub(super) fn src_prefix(m: SrcModifier) -> &'static str {
    match m {
        m if m.is_negated() => "-",
        SrcModifier::Comp => "1-",
        SrcModifier::Not => "!",
        _ => "",
    }
}

const COMPONENTS: [char; 4] = ['x', 'y', 'z', 'w'];

#[inline(always)]
pub(super) fn write_swizzle(sw: u8, out: &mut impl Sink) {
    let (text, n) = &SWIZZLES[sw as usize];
    out.push_fixed(text, *n as usize);
}

pub(super) fn write_rel(rel: RelAddr, version: Version, out: &mut impl Sink) {
    out.push('[');
    write_register(rel.reg, version, out);
    if rel.reg.kind != RegisterType::Loop {
        out.push('.');
        if rel.swizzle == (rel.swizzle & 3) * 0x55 {
            out.push(COMPONENTS[rel.component() as usize]);
        } else {
            // Not a replicate (`c0[a0.xyww]`, which Microsoft's assembler keeps as
            // written): all four components, so the listing reassembles exactly.
            for i in 0..4 {
                out.push(COMPONENTS[((rel.swizzle >> (2 * i)) & 3) as usize]);
            }
        }
    }
    out.push(']');
}

#[inline(always)]
pub(super) fn write_register(reg: Register, version: Version, out: &mut impl Sink) {
    if let Some(e) = crate::regs::numbered(reg.kind, version) {
        out.push_fixed(&e.name, e.len as usize);
        push_u32(out, u32::from(reg.num) + u32::from(e.add));
        return;
    }
    let (name, num) = crate::regs::spelling(reg, version);
    // One-letter names (`r`, `v`, `c`, `t`…) as a character: no `memcpy` call.
    match name.as_bytes() {
        [c] => out.push(*c as char),
        _ => out.push_str(name),
    }
    if let Some(n) = num {
        push_u32(out, n);
    }
}

/// Appends a register as `dis` prints it (`r0`, `oPos`, `t1` in a pixel shader, `a0` in a
/// vertex shader, `c2048` for the high constant files, `vFace`).
///
/// ```
/// use d3dbc::{print, Register, RegisterType, Version};
/// let vs: Version = "vs_2_0".parse().unwrap();
/// let ps: Version = "ps_2_0".parse().unwrap();
/// let mut s = String::new();
/// print::write_register_name(Register::new(RegisterType::AddrOrTexture, 0), vs, &mut s);
/// s.push(' ');
/// print::write_register_name(Register::new(RegisterType::AddrOrTexture, 0), ps, &mut s);
/// assert_eq!(s, "a0 t0");
/// ```
pub fn write_register_name(reg: Register, version: Version, out: &mut String) {
    write_register(reg, version, out);
}

/// Appends a destination operand as `dis` prints it: register, relative address and the
/// write mask when partial (`r0.xy`, `o[a0.x]`); result modifiers belong to the mnemonic
/// and are not written.
pub fn write_dst_operand(dst: &DstParam, version: Version, out: &mut String) {
    write_dst(dst, version, out);
}

/// Appends a source operand as `dis` prints it: modifier, register, relative address
/// and swizzle (`-c4[a0.x].yzwx`, `r1_bx2.x`, `1-t0`).
///
/// ```
/// use d3dbc::{print, Register, RegisterType, SrcParam, Swizzle, Version};
/// let v: Version = "vs_2_0".parse().unwrap();
/// let src = SrcParam::new(Register::new(RegisterType::Const, 4)).with_swizzle(Swizzle::X);
/// let mut s = String::new();
/// print::write_src_operand(&src, v, &mut s);
/// assert_eq!(s, "c4.x");
/// ```
pub fn write_src_operand(src: &SrcParam, version: Version, out: &mut String) {
    write_src(src, version, out);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn swizzles() {
        let mut s = String::new();
        write_swizzle(0x00, &mut s);
        write_swizzle(0xFF, &mut s);
        write_swizzle(0xE4, &mut s);
        write_swizzle(0x94, &mut s); // x y y z
        assert_eq!(s, ".x.w.xyyz");
    }
}
