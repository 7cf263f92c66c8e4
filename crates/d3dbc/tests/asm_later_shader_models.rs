//! A shader model 4+ listing in assembly input (Unity "level 9" dumps hold an SM2
//! listing followed by a `vs_4_0`/`ps_4_0` one): one clear error at its version
//! statement, not one per line of it.

use d3dbc::asm::{assemble, Options};

#[test]
fn an_sm4_listing_after_an_sm2_one_is_one_clear_error() {
    let text = "vs_2_0\ndcl_position v0\nmov oPos, v0\n\nvs_4_0\ndcl_input v0.xyzw\n\
                dcl_output_siv o0.xyzw, position\nmov o0.xyzw, v0.xyzw\nret\n";
    let d = assemble(text, &Options::default()).unwrap_err();
    assert_eq!(d.0.len(), 1, "{d}");
    let e = &d.0[0];
    assert_eq!((e.line, e.col), (5, 1));
    assert!(
        e.message
            .contains("a shader model 4 listing starts here (`vs_4_0`)"),
        "{}",
        e.message
    );
}

#[test]
fn an_sm4_listing_alone_names_its_model() {
    for (text, model) in [("ps_4_0\nmov o0, v0\n", "4"), ("  cs_5_0\n", "5")] {
        let d = assemble(text, &Options::default()).unwrap_err();
        assert_eq!(d.0.len(), 1, "{d}");
        assert!(
            d.0[0]
                .message
                .contains(&format!("shader model {model} listing")),
            "{}",
            d.0[0].message
        );
    }
}

#[test]
fn d3d9_names_that_look_alike_are_untouched() {
    // `ps_1_4` and friends stay ordinary version statements; `vs_2_x` too.
    for text in ["ps_1_4\nmov r0, v0\n", "vs_2_x\nmov oPos, v0\n"] {
        let r = assemble(text, &Options::default());
        assert!(
            r.as_ref()
                .map_or_else(|d| !d.to_string().contains("shader model"), |_| true),
            "{text}: {r:?}"
        );
    }
}
