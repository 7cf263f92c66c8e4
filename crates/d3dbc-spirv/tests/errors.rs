//! What the emitter refuses, and how it says so: flow-control faults and out-of-range
//! registers come back as typed errors naming the DWORD offset of the instruction (the
//! version token is DWORD 0), never as a panic or as SPIR-V that would not validate.
//! The shaders are assembled from text the validator would reject; the emitter is run
//! on them directly.

use d3dbc::ir::{Instruction, Item};
use d3dbc::{Opcode, Register, RegisterType, Shader, Version};
use d3dbc_spirv::Error;

fn asm(text: &str) -> Shader {
    d3dbc::asm::assemble(text, &Default::default()).expect("assembles")
}

fn emit(s: &Shader) -> Result<Vec<u32>, Error> {
    d3dbc_spirv::emit(s, &Default::default())
}

/// A shader of `version` from raw instructions (bypassing the assembler's checks).
fn raw(version: Version, ins: Vec<Instruction>) -> Shader {
    Shader {
        version,
        items: ins.into_iter().map(Item::Instruction).collect(),
    }
}

#[test]
fn an_endif_without_if_is_a_flow_error_at_its_offset() {
    let vs = Version::vertex(3, 0);
    let mut ins = vec![
        Instruction::new(Opcode::Nop),
        Instruction::new(Opcode::EndIf),
    ];
    ins[0].opcode = Opcode::Nop;
    let e = emit(&raw(vs, ins)).unwrap_err();
    // nop at DWORD 1 (one token), endif at DWORD 2.
    assert_eq!(
        e,
        Error::Flow {
            offset: 2,
            why: "unbalanced end of block"
        },
        "{e}"
    );
    // Offsets print as every message of the toolkit prints them.
    assert!(e.to_string().starts_with("+0002: "), "{e}");
}

#[test]
fn an_unclosed_loop_is_a_flow_error_after_the_last_instruction() {
    let mut rep = Instruction::new(Opcode::Rep);
    rep.push_src(d3dbc::SrcParam::new(Register::new(
        RegisterType::ConstInt,
        0,
    )));
    let s = raw(
        Version::vertex(3, 0),
        vec![rep, Instruction::new(Opcode::Nop)],
    );
    let e = emit(&s).unwrap_err();
    assert!(
        matches!(
            e,
            Error::Flow {
                why: "unclosed block",
                ..
            }
        ),
        "{e}"
    );
}

#[test]
fn a_break_outside_a_loop_and_recursion_are_refused() {
    let vs = Version::vertex(3, 0);
    let e = emit(&raw(vs, vec![Instruction::new(Opcode::Break)])).unwrap_err();
    assert_eq!(
        e,
        Error::Flow {
            offset: 1,
            why: "break outside a loop"
        }
    );
    let call = |l: u16| {
        let mut c = Instruction::new(Opcode::Call);
        c.push_src(d3dbc::SrcParam::new(Register::new(RegisterType::Label, l)));
        c
    };
    let mut label = Instruction::new(Opcode::Label);
    label.push_src(d3dbc::SrcParam::new(Register::new(RegisterType::Label, 0)));
    let ins = vec![
        call(0),
        Instruction::new(Opcode::Ret),
        label,
        call(0),
        Instruction::new(Opcode::Ret),
    ];
    let e = emit(&raw(vs, ins)).unwrap_err();
    assert!(
        matches!(
            e,
            Error::Flow {
                why: "recursive call",
                ..
            }
        ),
        "{e}"
    );
    let e = emit(&raw(vs, vec![call(7)])).unwrap_err();
    assert!(
        matches!(
            e,
            Error::Flow {
                why: "call of an undefined label",
                ..
            }
        ),
        "{e}"
    );
}

#[test]
fn a_register_number_beyond_every_model_is_refused() {
    let ps = Version::pixel(3, 0);
    let mut mov = Instruction::new(Opcode::Mov);
    mov.dst.reg = Register::new(RegisterType::Temp, 200);
    mov.dst.mask = 15;
    mov.push_src(d3dbc::SrcParam::new(Register::new(RegisterType::Temp, 0)));
    let e = emit(&raw(ps, vec![mov])).unwrap_err();
    assert!(
        matches!(
            e,
            Error::Register {
                offset: 1,
                kind: RegisterType::Temp,
                num: 200
            }
        ),
        "{e}"
    );
}

#[test]
fn link_takes_a_vertex_then_a_pixel_shader() {
    let vs = asm("vs_2_0\ndcl_position v0\nmov oPos, v0\n");
    let ps = asm("ps_2_0\ndcl t0\nmov oC0, t0\n");
    let f = d3dbc_spirv::EmitFlags::default();
    let o = Default::default();
    assert!(d3dbc_spirv::link(&vs, &ps, &o, f).is_ok());
    assert!(matches!(
        d3dbc_spirv::link(&ps, &vs, &o, f),
        Err(Error::Link(_))
    ));
}
