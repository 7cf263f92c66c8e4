//! The zero-copy decoder: walks a `&[u32]` token stream and yields [`Event`]s
//! (instructions as fixed-size values, comments as borrowed slices) without allocating.
//!
//! [`Shader::decode`] collects the events into the owned IR.

use std::borrow::Cow;

use crate::ir::{DeclToken, DstParam, Instruction, Item, Register, RelAddr, Shader, SrcParam};
use crate::opcode::Opcode;
use crate::token::{instruction as it, param_register_type_bits, RegisterType, SrcModifier};
use crate::version::Version;

/// What went wrong while decoding, and where.
///
/// Displayed with the offset in hex as `dis --offsets` prints it (`DWORD +01b7
/// (0x00000031): unknown opcode …`); when the stream ended there, no token is quoted
/// (`end of input after 1 DWORD: …`).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct DecodeError {
    /// Offset in DWORDs from the start of the stream (the version token is offset 0).
    pub offset: usize,
    /// The token at that offset (0 when the stream ended there).
    pub token: u32,
    /// The problem.
    pub kind: DecodeErrorKind,
}

impl DecodeError {
    /// True when the error is about the stream ending (no token at [`Self::offset`]).
    pub fn at_end(&self) -> bool {
        matches!(
            self.kind,
            DecodeErrorKind::Empty
                | DecodeErrorKind::MissingEnd
                | DecodeErrorKind::Truncated { .. }
                | DecodeErrorKind::ByteLength(_)
        )
    }
}

impl std::fmt::Display for DecodeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.at_end() {
            let s = if self.offset == 1 { "" } else { "S" };
            write!(
                f,
                "end of input after {} DWORD{s}: {}",
                self.offset, self.kind
            )
        } else {
            write!(
                f,
                "DWORD +{:04x} (0x{:08x}): {}",
                self.offset, self.token, self.kind
            )
        }
    }
}

impl std::error::Error for DecodeError {}

/// The kinds of decoding failure.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum DecodeErrorKind {
    /// Input bytes are not a whole number of DWORDs.
    #[error("input is {0} bytes, not a multiple of 4")]
    ByteLength(usize),
    /// Empty input.
    #[error("empty input: no version token")]
    Empty,
    /// The first token is not a D3D9 vs/ps version.
    #[error("not a D3D9 shader version token (expected 0xFFFEmmnn for vs or 0xFFFFmmnn for ps, models 1.0-3.0)")]
    BadVersion,
    /// The stream ended before the end token.
    #[error("stream ends without an end token (0x0000FFFF)")]
    MissingEnd,
    /// The stream ended inside an instruction.
    #[error("truncated: the stream ends where a {what} token should be")]
    Truncated {
        /// What was being read.
        what: &'static str,
    },
    /// A comment token's length runs past the end of the stream.
    #[error("comment declares {declared} DWORDs but only {available} remain")]
    CommentOverrun {
        /// Declared payload length.
        declared: usize,
        /// DWORDs actually present.
        available: usize,
    },
    /// Opcode not in `D3DSHADER_INSTRUCTION_OPCODE_TYPE`.
    #[error("unknown opcode {0} (0x{0:04x})")]
    UnknownOpcode(u16),
    /// Reserved bits set in an instruction token.
    #[error("reserved bits set in instruction token (mask 0x{0:08x})")]
    ReservedInstructionBits(u32),
    /// SM2+ length field disagrees with the operands the opcode takes.
    #[error("length field says {declared} DWORD(s) but {opcode} takes {actual}")]
    LengthMismatch {
        /// The mnemonic.
        opcode: &'static str,
        /// Value of bits 24–27.
        declared: usize,
        /// Tokens the operands actually occupy.
        actual: usize,
    },
    /// A parameter token without bit 31 set.
    #[error("{0} parameter token lacks bit 31 (every parameter token has it set)")]
    NotAParameter(&'static str),
    /// A register type value outside `D3DSHADER_PARAM_REGISTER_TYPE`.
    #[error("invalid register type {0}")]
    BadRegisterType(u8),
    /// Reserved bits set in a parameter token.
    #[error("reserved bits set in {what} parameter token (mask 0x{mask:08x})")]
    ReservedParamBits {
        /// Which kind of parameter.
        what: &'static str,
        /// The offending bits.
        mask: u32,
    },
    /// A source modifier value outside `D3DSHADER_PARAM_SRCMOD_TYPE`.
    #[error("invalid source modifier {0}")]
    BadSrcModifier(u8),
    /// The `dcl` token has bit 31 clear or reserved bits set.
    #[error("malformed dcl token (bit 31 must be set, bits 5-15 and 20-26 zero)")]
    BadDeclToken,
    /// A `phase`, `comment` or `end` code with stray bits.
    #[error("malformed {0} token")]
    BadSpecialToken(&'static str),
}

/// One element of the token stream.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Event<'a> {
    /// An instruction (fixed-size value, no allocation).
    Instruction(Instruction),
    /// A comment block's payload, borrowed from the input.
    Comment(&'a [u32]),
}

/// Converts little-endian bytes into DWORDs: borrowed when the slice is 4-byte aligned
/// on a little-endian host, copied otherwise.
pub fn tokens_from_bytes(bytes: &[u8]) -> Result<Cow<'_, [u32]>, DecodeError> {
    if !bytes.len().is_multiple_of(4) {
        return Err(DecodeError {
            offset: bytes.len() / 4,
            token: 0,
            kind: DecodeErrorKind::ByteLength(bytes.len()),
        });
    }
    #[cfg(target_endian = "little")]
    if let Ok(words) = bytemuck::try_cast_slice::<u8, u32>(bytes) {
        return Ok(Cow::Borrowed(words));
    }
    Ok(Cow::Owned(
        bytes
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect(),
    ))
}

/// A streaming decoder over a token slice. Iterate it for [`Event`]s with their DWORD
/// offsets; iteration stops after the end token, or at the first error.
#[derive(Clone, Debug)]
pub struct Decoder<'a> {
    tokens: &'a [u32],
    pos: usize,
    version: Version,
    done: bool,
}

impl<'a> Decoder<'a> {
    /// Reads the version token.
    pub fn new(tokens: &'a [u32]) -> Result<Self, DecodeError> {
        let first = *tokens.first().ok_or(DecodeError {
            offset: 0,
            token: 0,
            kind: DecodeErrorKind::Empty,
        })?;
        let version = Version::from_token(first).ok_or(DecodeError {
            offset: 0,
            token: first,
            kind: DecodeErrorKind::BadVersion,
        })?;
        Ok(Decoder {
            tokens,
            pos: 1,
            version,
            done: false,
        })
    }

    /// The shader version.
    pub fn version(&self) -> Version {
        self.version
    }

    /// DWORD offset of the next token to be read.
    pub fn offset(&self) -> usize {
        self.pos
    }

    /// After the end token: the DWORDs that follow it (normally none).
    pub fn remainder(&self) -> &'a [u32] {
        &self.tokens[self.pos.min(self.tokens.len())..]
    }

    fn err(&self, offset: usize, kind: DecodeErrorKind) -> DecodeError {
        DecodeError {
            offset,
            token: self.tokens.get(offset).copied().unwrap_or(0),
            kind,
        }
    }

    #[inline]
    fn take(&mut self, what: &'static str) -> Result<u32, DecodeError> {
        if self.pos >= self.tokens.len() {
            return Err(self.err(self.pos, DecodeErrorKind::Truncated { what }));
        }
        let t = self.tokens[self.pos];
        self.pos += 1;
        Ok(t)
    }

    #[inline]
    fn register(&self, token: u32, at: usize) -> Result<Register, DecodeError> {
        let bits = param_register_type_bits(token);
        let kind = RegisterType::from_u8(bits)
            .ok_or_else(|| self.err(at, DecodeErrorKind::BadRegisterType(bits)))?;
        Ok(Register {
            kind,
            num: (token & 0x7FF) as u16,
        })
    }

    #[inline]
    fn rel_token(&mut self) -> Result<RelAddr, DecodeError> {
        let at = self.pos;
        let t = self.take("relative-address")?;
        if t & 0x8000_0000 == 0 {
            return Err(self.err(at, DecodeErrorKind::NotAParameter("relative-address")));
        }
        // Only register number, type and swizzle are meaningful.
        let reserved = t & 0x0F00_E000;
        if reserved != 0 {
            return Err(self.err(
                at,
                DecodeErrorKind::ReservedParamBits {
                    what: "relative-address",
                    mask: reserved,
                },
            ));
        }
        Ok(RelAddr {
            reg: self.register(t, at)?,
            swizzle: ((t >> 16) & 0xFF) as u8,
        })
    }

    /// Reads a destination or source parameter token: checks bit 31 and the reserved
    /// bits, decodes the register, and reads the relative-address token (SM2+) when the
    /// relative bit is set. Returns the token, its offset, register and addressing.
    #[inline]
    fn param(
        &mut self,
        what: &'static str,
        reserved_mask: u32,
    ) -> Result<(u32, usize, Register, Option<RelAddr>), DecodeError> {
        let at = self.pos;
        let t = self.take(what)?;
        if t & 0x8000_0000 == 0 {
            return Err(self.err(at, DecodeErrorKind::NotAParameter(what)));
        }
        let reserved = t & reserved_mask;
        if reserved != 0 {
            return Err(self.err(
                at,
                DecodeErrorKind::ReservedParamBits {
                    what,
                    mask: reserved,
                },
            ));
        }
        let reg = self.register(t, at)?;
        let rel = if t & (1 << 13) == 0 {
            None
        } else if self.version.has_relative_token() {
            Some(self.rel_token()?)
        } else {
            Some(RelAddr::A0_X)
        };
        Ok((t, at, reg, rel))
    }

    #[inline]
    fn dst(&mut self) -> Result<DstParam, DecodeError> {
        let (t, _, reg, rel) = self.param("destination", 0x0080_C000)?;
        Ok(DstParam {
            reg,
            rel,
            mask: ((t >> 16) & 0xF) as u8,
            modifiers: ((t >> 20) & 0x7) as u8,
            shift: ((t >> 24) & 0xF) as u8,
        })
    }

    #[inline]
    fn src(&mut self) -> Result<SrcParam, DecodeError> {
        let (t, at, reg, rel) = self.param("source", 0x0000_C000)?;
        let m = ((t >> 24) & 0xF) as u8;
        let modifier = SrcModifier::from_u8(m)
            .ok_or_else(|| self.err(at, DecodeErrorKind::BadSrcModifier(m)))?;
        Ok(SrcParam {
            reg,
            rel,
            swizzle: ((t >> 16) & 0xFF) as u8,
            modifier,
        })
    }

    // Always inlined into `next_into`, itself inlined into the printer's loop: left as
    // a call, decoding cost 2 million more instructions of the peers bench's 63 million.
    #[inline(always)]
    fn instruction(
        &mut self,
        at: usize,
        token: u32,
        opcode: Opcode,
        ins: &mut Instruction,
    ) -> Result<(), DecodeError> {
        let reserved = token & (it::RESERVED_29 | it::BIT31);
        let sm2 = self.version.has_length_field();
        let reserved = if sm2 {
            reserved
        } else {
            reserved | (token & 0x0F00_0000)
        };
        if reserved != 0 {
            return Err(self.err(at, DecodeErrorKind::ReservedInstructionBits(reserved)));
        }
        // Field by field rather than `*ins = Instruction::new(opcode)`: that builds the
        // 100-byte value on the stack and copies it, whose wide loads of just-stored
        // narrow fields stall (store forwarding fails); the same value results.
        ins.opcode = opcode;
        ins.controls = ((token >> it::CONTROLS_SHIFT) & 0xFF) as u8;
        ins.coissue = token & it::COISSUE != 0;
        ins.predicate = None;
        ins.decl = DeclToken(0);
        ins.imm = [0; 4];
        // The table says what follows; in SM2+ the length field must agree.
        let declared = ((token >> it::LENGTH_SHIFT) & 0xF) as usize;
        let layout = opcode.layout(self.version);
        if layout.decl {
            let dt = self.take("dcl")?;
            if dt & 0x8000_0000 == 0 || dt & 0x07F0_FFE0 != 0 {
                return Err(self.err(self.pos - 1, DecodeErrorKind::BadDeclToken));
            }
            ins.decl = DeclToken(dt);
        }
        ins.dst = if layout.dst {
            self.dst()?
        } else {
            Instruction::new(opcode).dst
        };
        // The predicate token follows the destination and precedes the sources
        // (`(p0) add r2, r2, r3` is add, r2, p0, r2, r3).
        if token & it::PREDICATED != 0 {
            ins.predicate = Some(self.src()?);
        }
        for i in 0..layout.imms as usize {
            ins.imm[i] = self.take("immediate")?;
        }
        // Each source straight into its slot and the count stored once (`push_src` read
        // the count back through `ins` and stored it again per source). After an error
        // the instruction is not returned.
        for slot in &mut ins.srcs[..layout.srcs as usize] {
            *slot = self.src()?;
        }
        ins.src_count = layout.srcs;
        if sm2 {
            let actual = self.pos - at - 1;
            if actual != declared {
                return Err(self.err(
                    at,
                    DecodeErrorKind::LengthMismatch {
                        opcode: opcode.mnemonic(self.version),
                        declared,
                        actual,
                    },
                ));
            }
        }
        Ok(())
    }

    /// Decodes the next event, with the DWORD offset of its first token.
    /// Returns `Ok(None)` after the end token.
    #[inline]
    pub fn next_event(&mut self) -> Result<Option<(usize, Event<'a>)>, DecodeError> {
        let mut ins = Instruction::new(Opcode::Nop);
        Ok(match self.next_into(&mut ins)? {
            None => None,
            Some((at, Step::Instruction)) => Some((at, Event::Instruction(ins))),
            Some((at, Step::Comment(c))) => Some((at, Event::Comment(c))),
        })
    }

    /// [`Decoder::next_event`] decoding an instruction into `ins` (which the caller
    /// keeps from one instruction to the next) rather than returning it by value: the
    /// streaming printer's path, without moving a 100-byte value through each layer.
    /// Source slots past `src_count` keep what they held. Always inlined: the printer's
    /// loop (`print_tokens`) calls it once per instruction, and as a call it cost 3% of
    /// `print_tokens`' instructions (callgrind, peers bench) once the printer moved to
    /// its own modules.
    #[inline(always)]
    pub(crate) fn next_into(
        &mut self,
        ins: &mut Instruction,
    ) -> Result<Option<(usize, Step<'a>)>, DecodeError> {
        if self.done {
            return Ok(None);
        }
        let at = self.pos;
        let Some(&token) = self.tokens.get(at) else {
            self.done = true;
            return Err(self.err(at, DecodeErrorKind::MissingEnd));
        };
        self.pos += 1;
        let code = (token & it::OPCODE_MASK) as u16;
        match code {
            0xFFFF => {
                if token != crate::token::END_TOKEN {
                    return Err(self.err(at, DecodeErrorKind::BadSpecialToken("end")));
                }
                self.done = true;
                Ok(None)
            }
            0xFFFE => {
                if token & it::BIT31 != 0 {
                    return Err(self.err(at, DecodeErrorKind::BadSpecialToken("comment")));
                }
                let len = ((token >> 16) & 0x7FFF) as usize;
                let available = self.tokens.len() - self.pos;
                if len > available {
                    return Err(self.err(
                        at,
                        DecodeErrorKind::CommentOverrun {
                            declared: len,
                            available,
                        },
                    ));
                }
                let data = &self.tokens[self.pos..self.pos + len];
                self.pos += len;
                Ok(Some((at, Step::Comment(data))))
            }
            _ => {
                let opcode = Opcode::from_code(code)
                    .filter(|o| !matches!(o, Opcode::Reserved0))
                    .ok_or_else(|| self.err(at, DecodeErrorKind::UnknownOpcode(code)))?;
                if opcode == Opcode::Phase && token != 0xFFFD {
                    return Err(self.err(at, DecodeErrorKind::BadSpecialToken("phase")));
                }
                self.instruction(at, token, opcode, ins)?;
                Ok(Some((at, Step::Instruction)))
            }
        }
    }
}

/// What [`Decoder::next_into`] read: an instruction (written to the caller's value) or
/// a comment block.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Step<'a> {
    Instruction,
    Comment(&'a [u32]),
}

impl<'a> Iterator for Decoder<'a> {
    type Item = Result<(usize, Event<'a>), DecodeError>;

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        match self.next_event() {
            Ok(Some(e)) => Some(Ok(e)),
            Ok(None) => None,
            Err(e) => {
                self.done = true;
                Some(Err(e))
            }
        }
    }
}

impl Shader {
    /// Decodes a whole token stream (up to and including its end token) into the IR.
    /// DWORDs after the end token are ignored; [`Decoder::remainder`] exposes them.
    pub fn decode(tokens: &[u32]) -> Result<Shader, DecodeError> {
        Shader::decode_prefix(tokens).map(|(shader, _)| shader)
    }

    /// Decodes the first shader of a stream and says where it ended: the DWORD count up
    /// to and including its end token. Tokens after it (a second shader, padding) are
    /// left to the caller, who may warn about them or decode them in turn.
    ///
    /// ```
    /// let two = [0xFFFE0101, 0x0000FFFF, 0xFFFF0101, 0x0000FFFF];
    /// let (vs, used) = d3dbc::Shader::decode_prefix(&two).unwrap();
    /// assert_eq!((vs.version.to_string().as_str(), used), ("vs_1_1", 2));
    /// let (ps, _) = d3dbc::Shader::decode_prefix(&two[used..]).unwrap();
    /// assert!(ps.version.is_pixel());
    /// ```
    pub fn decode_prefix(tokens: &[u32]) -> Result<(Shader, usize), DecodeError> {
        let mut d = Decoder::new(tokens)?;
        let mut items = Vec::with_capacity(tokens.len() / 4);
        let mut ins = Instruction::new(Opcode::Nop);
        while let Some((_, step)) = d.next_into(&mut ins)? {
            items.push(match step {
                Step::Instruction => {
                    // The IR's unused source slots are `EMPTY` (instructions compare
                    // equal by value); `next_into` leaves them as they were.
                    for s in &mut ins.srcs[ins.src_count as usize..] {
                        *s = SrcParam::EMPTY;
                    }
                    Item::Instruction(ins)
                }
                Step::Comment(c) => Item::Comment(c.to_vec()),
            });
        }
        let used = d.offset().min(tokens.len());
        Ok((
            Shader {
                version: d.version(),
                items,
            },
            used,
        ))
    }

    /// Decodes little-endian bytes.
    pub fn decode_bytes(bytes: &[u8]) -> Result<Shader, DecodeError> {
        Shader::decode(&tokens_from_bytes(bytes)?)
    }
}
