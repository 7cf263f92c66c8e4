//! The assembler never panics or hangs on arbitrary input, and reports errors with
//! locations inside the text.

use d3dbc::asm;
use proptest::prelude::*;

const WORDS: &[&str] = &[
    "vs_1_1",
    "ps_1_4",
    "vs_2_0",
    "ps_2_x",
    "vs_3_0",
    "ps_3_0",
    "ps.1.1",
    "mov",
    "add_sat",
    "texld",
    "dcl_2d",
    "dcl_texcoord1_pp",
    "def",
    "defi",
    "defb",
    "if_gt",
    "setp_le",
    "(p0)",
    "(!p0.x)",
    "+",
    "r0",
    "c[a0.x + 5]",
    "v[aL]",
    "o[a0.x]",
    "c5[a0.x]",
    "-r1_bx2.a",
    "1 - r0",
    "r1_abs",
    "!b0",
    "t0",
    "s0",
    "oC0",
    "oPos",
    "vFace",
    ".xyzw",
    ".rgba",
    ",",
    ", ",
    "1.5",
    "-1",
    "true",
    "[",
    "]",
    "_x2",
    "//c",
    ";c",
    "\n",
    "\r\n",
    "\t",
    " ",
    "é",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn random_tokens_never_panic(idx in proptest::collection::vec(0..WORDS.len(), 0..40)) {
        let text: String = idx.iter().map(|&i| WORDS[i]).collect::<Vec<_>>().join(" ");
        if let Err(e) = asm::parse(&text, "fuzz.asm") {
            let lines = text.split('\n').count() as u32;
            for d in &e.0 {
                prop_assert!(d.line >= 1 && d.line <= lines, "{d}");
                prop_assert!(d.col >= 1);
            }
        }
    }

    #[test]
    fn random_bytes_never_panic(s in "\\PC{0,200}") {
        let _ = asm::parse(&s, "fuzz.asm");
        let _ = asm::parse(&format!("ps_3_0\n{s}"), "fuzz.asm");
        let _ = asm::parse(&format!("vs_1_1\n{s}"), "fuzz.asm");
    }
}
