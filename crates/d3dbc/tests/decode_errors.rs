//! Bad input gives a clean error naming the DWORD offset and the problem; random valid
//! IR survives encode → decode unchanged (property test).

use d3dbc::ir::{DeclToken, DstParam, Instruction, Item, Register, RelAddr, SrcParam};
use d3dbc::token::{RegisterType, SrcModifier};
use d3dbc::{DecodeErrorKind, Opcode, Shader, Version};
use proptest::prelude::*;

fn err(tokens: &[u32]) -> (usize, DecodeErrorKind) {
    let e = Shader::decode(tokens).unwrap_err();
    (e.offset, e.kind)
}

#[test]
fn errors_name_offset_and_problem() {
    assert_eq!(err(&[]), (0, DecodeErrorKind::Empty));
    assert_eq!(err(&[0x4658_0200]), (0, DecodeErrorKind::BadVersion));
    assert_eq!(
        err(&[0xFFFE_0101, 0x0000_0001]).1,
        DecodeErrorKind::Truncated {
            what: "destination"
        }
    );
    assert_eq!(err(&[0xFFFE_0101]), (1, DecodeErrorKind::MissingEnd));
    assert_eq!(
        err(&[0xFFFE_0200, 0x0000_0031, 0xFFFF]),
        (1, DecodeErrorKind::UnknownOpcode(0x31))
    );
    assert_eq!(
        err(&[0xFFFE_0200, 0x0000_004B, 0xFFFF]),
        (1, DecodeErrorKind::UnknownOpcode(75))
    );
    // Length field 3 for a two-operand mov.
    let (off, kind) = err(&[
        0xFFFE_0200,
        0x0300_0001,
        0x800F_0000,
        0x90E4_0000,
        0x90E4_0000,
        0xFFFF,
    ]);
    assert_eq!(off, 1);
    assert!(matches!(
        kind,
        DecodeErrorKind::LengthMismatch {
            declared: 3,
            actual: 2,
            ..
        }
    ));
    // Reserved bit 29 in an instruction token.
    assert_eq!(
        err(&[0xFFFE_0200, 0x2200_0001, 0x800F_0000, 0x90E4_0000, 0xFFFF]).1,
        DecodeErrorKind::ReservedInstructionBits(1 << 29)
    );
    // SM1 has no length field: bits 24-27 are reserved there.
    assert!(matches!(
        err(&[0xFFFE_0101, 0x0200_0001, 0x800F_0000, 0x90E4_0000, 0xFFFF]).1,
        DecodeErrorKind::ReservedInstructionBits(_)
    ));
    // Parameter without bit 31.
    assert_eq!(
        err(&[0xFFFE_0101, 0x0000_0001, 0x000F_0000, 0x90E4_0000, 0xFFFF]),
        (2, DecodeErrorKind::NotAParameter("destination"))
    );
    // Register type 31.
    assert_eq!(
        err(&[0xFFFE_0101, 0x0000_0001, 0xF00F_1800, 0x90E4_0000, 0xFFFF]),
        (2, DecodeErrorKind::BadRegisterType(31))
    );
    // Source modifier 14.
    assert_eq!(
        err(&[0xFFFE_0101, 0x0000_0001, 0x800F_0000, 0x9EE4_0000, 0xFFFF]),
        (3, DecodeErrorKind::BadSrcModifier(14))
    );
    // Reserved bits 14-15 of a source.
    assert!(matches!(
        err(&[0xFFFE_0101, 0x0000_0001, 0x800F_0000, 0x90E4_4000, 0xFFFF]),
        (3, DecodeErrorKind::ReservedParamBits { .. })
    ));
    // Comment longer than the data.
    assert_eq!(
        err(&[0xFFFE_0200, 0x0005_FFFE, 1, 2]),
        (
            1,
            DecodeErrorKind::CommentOverrun {
                declared: 5,
                available: 2
            }
        )
    );
    // Relative-address token missing at the end of the stream.
    assert_eq!(
        err(&[0xFFFE_0200, 0x0300_0001, 0x800F_0000, 0xA0E4_2000]).1,
        DecodeErrorKind::Truncated {
            what: "relative-address"
        }
    );
    // Malformed dcl token.
    assert_eq!(
        err(&[0xFFFE_0200, 0x0200_001F, 0x0000_0000, 0x900F_0000, 0xFFFF]),
        (2, DecodeErrorKind::BadDeclToken)
    );
    // Messages carry the offset and the token.
    let e = Shader::decode(&[0xFFFE_0200, 0x0000_0031, 0xFFFF]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "DWORD +0001 (0x00000031): unknown opcode 49 (0x0031)"
    );
    // A stream that ends early quotes no token it does not have.
    let e = Shader::decode(&[0xFFFE_0200]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "end of input after 1 DWORD: stream ends without an end token (0x0000FFFF)"
    );
}

#[test]
fn bytes_need_whole_dwords() {
    assert!(matches!(
        Shader::decode_bytes(&[1, 2, 3]).unwrap_err().kind,
        DecodeErrorKind::ByteLength(3)
    ));
    let ok: Vec<u8> = [0xFFFE_0101u32, 0xFFFF]
        .iter()
        .flat_map(|t| t.to_le_bytes())
        .collect();
    assert_eq!(Shader::decode_bytes(&ok).unwrap().items.len(), 0);
    // Unaligned slices are copied, not rejected.
    let mut shifted = vec![0u8];
    shifted.extend_from_slice(&ok);
    assert_eq!(
        Shader::decode_bytes(&shifted[1..]).unwrap().encode(),
        vec![0xFFFE_0101, 0xFFFF]
    );
}

const VERSIONS: [u32; 13] = [
    0xFFFE_0100,
    0xFFFE_0101,
    0xFFFE_0200,
    0xFFFE_0201,
    0xFFFE_0300,
    0xFFFE_03FF,
    0xFFFF_0101,
    0xFFFF_0102,
    0xFFFF_0103,
    0xFFFF_0104,
    0xFFFF_0200,
    0xFFFF_0201,
    0xFFFF_0300,
];

fn reg() -> impl Strategy<Value = Register> {
    (0u8..20, 0u16..2048).prop_map(|(t, n)| Register::new(RegisterType::from_u8(t).unwrap(), n))
}

fn rel(version: Version) -> impl Strategy<Value = Option<RelAddr>> {
    let sm1 = !version.has_relative_token();
    prop_oneof![
        Just(None),
        (reg(), any::<u8>()).prop_map(move |(r, s)| Some(if sm1 {
            RelAddr::A0_X
        } else {
            RelAddr { reg: r, swizzle: s }
        }))
    ]
}

fn src(version: Version) -> impl Strategy<Value = SrcParam> {
    (reg(), rel(version), any::<u8>(), 0u8..14).prop_map(|(reg, rel, swizzle, m)| SrcParam {
        reg,
        rel,
        swizzle,
        modifier: SrcModifier::from_u8(m).unwrap(),
    })
}

fn dst(version: Version) -> impl Strategy<Value = DstParam> {
    (reg(), rel(version), 0u8..16, 0u8..8, 0u8..16).prop_map(
        |(reg, rel, mask, modifiers, shift)| DstParam {
            reg,
            rel,
            mask,
            modifiers,
            shift,
        },
    )
}

fn instruction(version: Version) -> impl Strategy<Value = Instruction> {
    let opcodes: Vec<Opcode> = Opcode::all()
        .filter(|o| !matches!(o, Opcode::Comment | Opcode::End | Opcode::Reserved0))
        .collect();
    (
        proptest::sample::select(opcodes),
        any::<u8>(),
        any::<bool>(),
        proptest::option::of(src(version)),
        (0u32..32, 0u32..16, 0u32..5),
        dst(version),
        proptest::collection::vec(src(version), 4),
        any::<[u32; 4]>(),
    )
        .prop_map(
            move |(op, controls, coissue, pred, (usage, index, stt), d, srcs, imm)| {
                let mut ins = Instruction::new(op);
                if op == Opcode::Phase {
                    return ins;
                }
                let l = op.layout(version);
                ins.controls = controls;
                ins.coissue = coissue;
                ins.predicate = pred;
                if l.decl {
                    ins.decl = DeclToken(0x8000_0000 | usage | (index << 16) | (stt << 27));
                }
                if l.dst {
                    ins.dst = d;
                }
                for s in srcs.iter().take(l.srcs as usize) {
                    ins.push_src(*s);
                }
                ins.imm[..l.imms as usize].copy_from_slice(&imm[..l.imms as usize]);
                ins
            },
        )
}

fn shader() -> impl Strategy<Value = Shader> {
    proptest::sample::select(VERSIONS.to_vec()).prop_flat_map(|vt| {
        let version = Version::from_token(vt).unwrap();
        let item = prop_oneof![
            4 => instruction(version).prop_map(Item::Instruction),
            1 => proptest::collection::vec(any::<u32>(), 0..20).prop_map(Item::Comment),
        ];
        proptest::collection::vec(item, 0..24).prop_map(move |items| Shader { version, items })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn encode_then_decode_is_identity(s in shader()) {
        let tokens = s.encode();
        let back = Shader::decode(&tokens).expect("encoded IR must decode");
        prop_assert_eq!(&back, &s);
        prop_assert_eq!(back.encode(), tokens);
    }

    #[test]
    fn arbitrary_tokens_never_panic(v in proptest::sample::select(VERSIONS.to_vec()), body in proptest::collection::vec(any::<u32>(), 0..64)) {
        let mut tokens = vec![v];
        tokens.extend(body);
        if let Ok(s) = Shader::decode(&tokens) {
            let enc = s.encode();
            prop_assert_eq!(&tokens[..enc.len()], &enc[..]);
        }
    }
}
