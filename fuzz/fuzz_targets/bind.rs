//! What a Python or JavaScript caller hands the packages (`d3dbc-bind`): arbitrary
//! bytes → `Shader::from_bytes` (every container), then the listing, instructions,
//! constants and findings; the same bytes as an effect with a values and pass choice
//! from the head; as assembly text; as the JSON of run and render requests; and `rip`.
//! Nothing may panic or hang; every failure is an `Error` value.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = d3dbc_bind::rip(data);
    if let Ok((sh, _)) = d3dbc_bind::Shader::from_bytes(data) {
        let _ = sh.disassemble(true, true);
        let _ = sh.instructions_json();
        let _ = sh.constants_json();
        if sh.findings().is_empty() {
            let _ = sh.run(&d3dbc_bind::RunRequest::default());
            if sh.is_pixel() {
                let req = d3dbc_bind::RenderRequest { width: 4, height: 4, ..Default::default() };
                let _ = sh.render(&req, None);
            }
        }
    }
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = d3dbc_bind::RunRequest::from_json(text);
        let _ = d3dbc_bind::RenderRequest::from_json(text);
        let _ = d3dbc_bind::AsmRequest::from_json(text);
        if let Ok((sh, _)) = d3dbc_bind::assemble(text, &Default::default()) {
            let _ = sh.disassemble(false, false);
        }
    }
    if data.len() > 4 {
        let (head, body) = data.split_at(4);
        if let Ok(e) = d3dbc_bind::Effect::with_values(body.to_vec(), "") {
            let _ = e.techniques_json();
            let _ = e.parameters_json();
            let pick = |b: u8| d3dbc_bind::Pick::Index(usize::from(b % 4));
            if let Ok((vs, ps)) = e.pass_shaders(&pick(head[0]), &pick(head[1])) {
                for s in [vs, ps].into_iter().flatten() {
                    let _ = s.run(&d3dbc_bind::RunRequest { validate: false, ..Default::default() });
                }
            }
        }
    }
});
