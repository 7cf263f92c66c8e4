//! Arbitrary bytes → decode → validate → `d3dbc_hlsl::decompile`. A validator-accepted
//! shader must decompile without panicking, to HLSL whose brackets balance, whose first
//! line names its profile and that names no register it does not declare; where an
//! HLSL compiler is configured (`D3DBC_VKD3D_COMPILER`), the text must also parse: the
//! compiler may refuse what it cannot compile (run-time loops) but never report a syntax
//! error or an undeclared name.
#![no_main]

use libfuzzer_sys::fuzz_target;

mod common;

fuzz_target!(|data: &[u8]| {
    let Some((_, _, shader)) = common::valid_shader(data, 0) else {
        return;
    };
    let d = match d3dbc_hlsl::decompile(&shader) {
        Ok(d) => d,
        Err(e) => {
            // A refusal must say where and what.
            assert!(e.to_string().starts_with('+'), "{e}");
            return;
        }
    };
    assert!(d.hlsl.starts_with("// compile: -T "), "{}", d.hlsl);
    let mut depth = [0i32; 3];
    for c in d.hlsl.chars() {
        match c {
            '(' => depth[0] += 1,
            ')' => depth[0] -= 1,
            '{' => depth[1] += 1,
            '}' => depth[1] -= 1,
            '[' => depth[2] += 1,
            ']' => depth[2] -= 1,
            _ => {}
        }
        assert!(depth.iter().all(|&x| x >= 0), "{}", d.hlsl);
    }
    assert_eq!(depth, [0, 0, 0], "{}", d.hlsl);
    if let Some(c) = std::env::var_os("D3DBC_VKD3D_COMPILER") {
        let c = d3dbc_hlsl::Compiler::new(c);
        if let Err(d3dbc_hlsl::CompileError::Rejected { message }) = d3dbc_hlsl::compile(&c, &d) {
            for bad in ["syntax error", "not declared", "Undefined", "E5005", "E5000"] {
                assert!(
                    !message.contains(bad),
                    "{message}\n{}\n{}",
                    d.hlsl,
                    d3dbc::print::to_string(&shader)
                );
            }
        }
    }
});
