//! Two shapes fuzzing found the validator accepting and the runtime's rules reject: a
//! second `else` for one `if` (E0501, at the second `else`), and one input or output
//! semantic declared twice in `ps_3_0`/`vs_3_0` (E0403, at the second `dcl`). Each is
//! reported once, at the DWORD offset of the offending instruction, and the valid
//! neighbours (one `else`; one register split among semantics by disjoint masks) stay
//! valid.

use d3dbc::validate::{validate, Finding};
use d3dbc::Severity;
use d3dbc::{asm, Shader};

/// Assembles without validating (the validator is what is under test).
fn shader(text: &str) -> Shader {
    let opts = asm::Options {
        no_validate: true,
        ..Default::default()
    };
    asm::assemble(text, &opts).unwrap_or_else(|e| panic!("{text}: {e:?}"))
}

fn errors(s: &Shader) -> Vec<Finding> {
    validate(s)
        .into_iter()
        .filter(|f| f.severity == Severity::Error)
        .collect()
}

/// The DWORD offset of the `n`th instruction with opcode `op` (0-based).
fn offset_of(s: &Shader, op: d3dbc::Opcode, n: usize) -> usize {
    let a = d3dbc::Analysis::new(s);
    let i = a
        .instructions
        .iter()
        .enumerate()
        .filter(|(_, ins)| ins.opcode == op)
        .nth(n)
        .map(|(i, _)| i)
        .unwrap();
    a.offsets[i] as usize
}

#[test]
fn a_second_else_is_a_flow_error_at_its_offset() {
    for (version, cond) in [("ps_3_0", "b0"), ("vs_2_0", "b3"), ("ps_2_x", "b1")] {
        let s = shader(&format!(
            "{version}\ndef c0, 1, 0, 0, 1\nif {cond}\nmov r0, c0\nelse\nmov r0, c0.y\nelse\nmov r0, c0.z\nendif\nmov {}, r0\n",
            if version.starts_with("ps") { "oC0" } else { "oPos" }
        ));
        let e = errors(&s);
        assert_eq!(e.len(), 1, "{version}: {e:?}");
        assert_eq!(e[0].code, "E0501", "{version}: {e:?}");
        assert_eq!(
            e[0].offset,
            offset_of(&s, d3dbc::Opcode::Else, 1),
            "{version}"
        );
        assert!(e[0].message.contains("second else"), "{}", e[0].message);
    }
}

#[test]
fn a_second_else_in_a_nested_if_and_dynamic_if() {
    let s = shader(
        "ps_3_0\ndcl_texcoord0 v0\ndef c0, 1, 0, 0, 1\nif b0\nif_gt v0.x, c0.y\nmov r0, c0\nelse\nmov r0, c0.y\nelse\nmov r0, c0.z\nendif\nelse\nmov r0, c0.w\nendif\nmov oC0, r0\n",
    );
    let e = errors(&s);
    assert_eq!(e.len(), 1, "{e:?}");
    assert_eq!(e[0].code, "E0501");
    assert_eq!(e[0].offset, offset_of(&s, d3dbc::Opcode::Else, 1));
}

#[test]
fn one_else_per_if_stays_valid() {
    let s = shader(
        "ps_3_0\ndcl_texcoord0 v0\ndef c0, 1, 0, 0, 1\nif b0\nif_gt v0.x, c0.y\nmov r0, c0\nelse\nmov r0, c0.y\nendif\nelse\nmov r0, c0.w\nendif\nmov oC0, r0\n",
    );
    assert!(errors(&s).is_empty(), "{:?}", errors(&s));
}

#[test]
fn the_fuzzed_ps_3_0_input_semantic_on_two_registers_is_rejected() {
    // The shape fuzzing found (direct SPIR-V: two inputs at one location).
    let s = shader(
        "ps_3_0\ndcl_texcoord2_centroid v0\ndcl_texcoord2_centroid v2.xzw\nadd r0, v0, v2\nmov oC0, r0\n",
    );
    let e = errors(&s);
    assert_eq!(e.len(), 1, "{e:?}");
    assert_eq!(e[0].code, "E0403");
    assert_eq!(e[0].offset, offset_of(&s, d3dbc::Opcode::Dcl, 1));
    assert!(e[0].message.contains("texcoord2"), "{}", e[0].message);
}

#[test]
fn a_semantic_declared_twice_is_rejected_for_every_signature() {
    // (listing, which dcl is the second declaration of the semantic)
    for (text, second) in [
        // ps_3_0 inputs: another register, the same register's other components.
        ("ps_3_0\ndcl_color0 v1\ndcl_color0 v3\nmov oC0, v1\n", 1),
        ("ps_3_0\ndcl_texcoord0 v0.xy\ndcl_texcoord0 v0.zw\nmov oC0, v0\n", 1),
        // vs_3_0 outputs.
        (
            "vs_3_0\ndcl_position v0\ndcl_position o0\ndcl_texcoord1 o1\ndcl_texcoord1 o2\nmov o0, v0\nmov o1, v0\nmov o2, v0\n",
            3,
        ),
        // vs inputs (as before).
        ("vs_3_0\ndcl_position v0\ndcl_position v1\ndcl_position o0\nmov o0, v0\n", 1),
        ("vs_2_0\ndcl_normal v0\ndcl_normal v1\nmov oPos, v0\n", 1),
    ] {
        let s = shader(text);
        let e = errors(&s);
        assert_eq!(e.len(), 1, "{text}: {e:?}");
        assert_eq!(e[0].code, "E0403", "{text}");
        assert_eq!(e[0].offset, offset_of(&s, d3dbc::Opcode::Dcl, second), "{text}");
        assert!(e[0].message.contains("declared twice"), "{}", e[0].message);
    }
}

#[test]
fn one_register_split_among_semantics_stays_valid() {
    // The documentation's own ps_3_0 example and its vs_3_0 counterpart.
    for text in [
        "ps_3_0\ndcl_normal v0.xyz\ndcl_blendweight v0.w\ndcl_texcoord1 v1.y\ndcl_texcoord0 v1.zw\nadd r0, v0, v1\nmov oC0, r0\n",
        "vs_3_0\ndcl_position v0\ndcl_position o0\ndcl_texcoord0 o1.xy\ndcl_texcoord1 o1.zw\nmov o0, v0\nmov o1, v0\n",
    ] {
        let s = shader(text);
        assert!(errors(&s).is_empty(), "{text}: {:?}", errors(&s));
    }
}
