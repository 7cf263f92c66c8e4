//! The encoder: turns the IR back into the exact DWORD token stream
//! (`encode(decode(x)) == x` for every valid stream, comments included).

use crate::ir::{DstParam, Instruction, Item, RelAddr, Shader, SrcParam};
use crate::opcode::Opcode;
use crate::token::{comment_token, instruction as it, register_type_to_bits, END_TOKEN};
use crate::version::Version;

fn rel_token(rel: RelAddr) -> u32 {
    0x8000_0000
        | register_type_to_bits(rel.reg.kind)
        | (rel.reg.num as u32 & 0x7FF)
        | ((rel.swizzle as u32) << 16)
}

/// Encodes a destination parameter (and its relative-address token in SM2+).
pub fn encode_dst(d: &DstParam, version: Version, out: &mut Vec<u32>) {
    let t = 0x8000_0000
        | register_type_to_bits(d.reg.kind)
        | (d.reg.num as u32 & 0x7FF)
        | (u32::from(d.rel.is_some()) << 13)
        | ((d.mask as u32 & 0xF) << 16)
        | ((d.modifiers as u32 & 0x7) << 20)
        | ((d.shift as u32 & 0xF) << 24);
    out.push(t);
    if let (Some(rel), true) = (d.rel, version.has_relative_token()) {
        out.push(rel_token(rel));
    }
}

/// Encodes a source parameter (and its relative-address token in SM2+).
pub fn encode_src(s: &SrcParam, version: Version, out: &mut Vec<u32>) {
    let t = 0x8000_0000
        | register_type_to_bits(s.reg.kind)
        | (s.reg.num as u32 & 0x7FF)
        | (u32::from(s.rel.is_some()) << 13)
        | ((s.swizzle as u32) << 16)
        | ((s.modifier as u32) << 24);
    out.push(t);
    if let (Some(rel), true) = (s.rel, version.has_relative_token()) {
        out.push(rel_token(rel));
    }
}

/// Encodes one instruction, appending its tokens to `out`.
pub fn encode_instruction(ins: &Instruction, version: Version, out: &mut Vec<u32>) {
    if ins.opcode == Opcode::Phase {
        out.push(0xFFFD);
        return;
    }
    let mut token = ins.opcode.code() as u32 | ((ins.controls as u32) << it::CONTROLS_SHIFT);
    if version.has_length_field() {
        token |= ((ins.operand_len(version) as u32) & 0xF) << it::LENGTH_SHIFT;
    }
    if ins.predicate.is_some() {
        token |= it::PREDICATED;
    }
    if ins.coissue {
        token |= it::COISSUE;
    }
    out.push(token);
    let layout = ins.opcode.layout(version);
    if layout.decl {
        out.push(ins.decl.0);
    }
    if layout.dst {
        encode_dst(&ins.dst, version, out);
    }
    // The predicate token sits between the destination and the sources.
    if let Some(p) = &ins.predicate {
        encode_src(p, version, out);
    }
    out.extend_from_slice(&ins.imm[..layout.imms as usize]);
    for s in ins.src() {
        encode_src(s, version, out);
    }
}

/// Encodes a comment block (token + payload). Payloads longer than the 15-bit length
/// field are split into several comment tokens.
pub fn encode_comment(payload: &[u32], out: &mut Vec<u32>) {
    if payload.is_empty() {
        out.push(comment_token(0));
    }
    for chunk in payload.chunks(crate::token::MAX_COMMENT_LEN) {
        out.push(comment_token(chunk.len() as u32));
        out.extend_from_slice(chunk);
    }
}

impl Shader {
    /// Encodes the whole shader: version token, items, end token.
    pub fn encode(&self) -> Vec<u32> {
        let mut out = Vec::with_capacity(2 + self.items.len() * 4);
        self.encode_into(&mut out);
        out
    }

    /// Appends the encoded shader to `out`.
    pub fn encode_into(&self, out: &mut Vec<u32>) {
        out.push(self.version.token());
        for item in &self.items {
            match item {
                Item::Instruction(ins) => encode_instruction(ins, self.version, out),
                Item::Comment(c) => encode_comment(c, out),
            }
        }
        out.push(END_TOKEN);
    }

    /// Encodes to little-endian bytes.
    pub fn encode_bytes(&self) -> Vec<u8> {
        self.encode().iter().flat_map(|t| t.to_le_bytes()).collect()
    }
}
