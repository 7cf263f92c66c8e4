//! Where the lowering says things happened: every expression lowered from a D3D9
//! instruction carries that instruction's DWORD offset as its naga span, so naga's
//! validation errors name the instruction; flow-control errors carry the offset too.

use d3dbc::asm;
use d3dbc_naga::{lower, validate, Error, TranslateOptions};

fn shader(text: &str) -> d3dbc::Shader {
    let opts = asm::Options {
        no_validate: true,
        ..Default::default()
    };
    asm::assemble(text, &opts).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

/// ps_2_0 with a comment before the instructions: offsets count every token.
/// Tokens: version (0), comment header + 2 DWORDs (1–3), `def c0` (4–9),
/// `mul r0, c0, c0` (10–13), `add r0, r0, c0` (14–17), `mov oC0, r0` (18–20).
const PS: &str = "ps_2_0\ndef c0, 0.5, 0.25, 1, 1\nmul r0, c0, c0\nadd r0, r0, c0\nmov oC0, r0\n";

fn with_comment() -> d3dbc::Shader {
    let mut s = shader(PS);
    s.items
        .insert(0, d3dbc::Item::Comment(vec![0x1234_5678, 0x9abc_def0]));
    s
}

#[test]
fn lowered_expressions_carry_their_instruction_offset() {
    let (module, _) = lower(&with_comment(), &TranslateOptions::default()).unwrap();
    let f = &module.entry_points[0].function;
    let starts: std::collections::BTreeSet<usize> = f
        .expressions
        .iter()
        .filter_map(|(h, _)| f.expressions.get_span(h).to_range().map(|r| r.start))
        .collect();
    // mul and add each produce expressions (the mov only forwards r0's value); nothing
    // claims an offset that is not an instruction's.
    for at in [10, 14] {
        assert!(
            starts.contains(&at),
            "no expression at DWORD offset {at}: {starts:?}"
        );
    }
    assert!(
        starts.iter().all(|s| [4, 10, 14, 18].contains(s)),
        "{starts:?}"
    );
}

#[test]
fn a_validation_error_names_the_instruction() {
    let (mut module, _) = lower(&with_comment(), &TranslateOptions::default()).unwrap();
    // Break the add (offset 14): its result becomes a load through a non-pointer.
    let f = &mut module.entry_points[0].function;
    let (h, operand) = f
        .expressions
        .iter()
        .find_map(|(h, e)| match e {
            naga::Expression::Binary {
                op: naga::BinaryOperator::Add,
                left,
                ..
            } if f.expressions.get_span(h).to_range().map(|r| r.start) == Some(14) => {
                Some((h, *left))
            }
            _ => None,
        })
        .expect("the add at offset 14");
    f.expressions[h] = naga::Expression::Load { pointer: operand };
    let err = validate(&module).expect_err("a broken module");
    let Error::Validation(msg) = err else {
        panic!("{err}")
    };
    assert!(msg.contains("+000e"), "{msg}");
}

#[test]
fn flow_errors_carry_the_dword_offset() {
    // vs_2_0: the comment takes offsets 1–3; `if b0` at 4–5; `endif` missing: the block
    // is still open at the end token; `else` alone is misplaced at its own offset.
    let open = shader("vs_2_0\ndefb b0, true\nif b0\nmov oPos, c0\n");
    let e = lower(&open, &TranslateOptions::default()).unwrap_err();
    let end = open.encode().len() - 1;
    assert!(
        matches!(e, Error::Shader(d3dbc::target::Error::Flow { offset, .. }) if offset as usize == end),
        "{e} (end token at {end})"
    );
    let stray = shader("vs_2_0\nmov oPos, c0\nelse\n");
    let e = lower(&stray, &TranslateOptions::default()).unwrap_err();
    assert!(
        matches!(
            e,
            Error::Shader(d3dbc::target::Error::Flow { offset: 4, .. })
        ),
        "{e}"
    );
}
