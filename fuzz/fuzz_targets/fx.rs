//! Arbitrary bytes → the effect parser, its listing, every pass applied with default
//! values, and name resolution (`name`, `name[0]`, `name@annotation`, `name@annotation[0]`
//! of every parameter and annotation). Nothing may panic, hang or allocate without bound; an error names a byte
//! offset inside the input (or just past it).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    match d3dbc::fx::Effect::parse(data) {
        Ok(effect) => {
            let _ = effect.listing();
            for p in &effect.parameters {
                let name = &p.ty.name;
                let _ = effect.resolve(name.as_ref());
                let _ = effect.resolve(&format!("{name}[0]"));
                for a in &p.annotations {
                    let _ = effect.resolve(&format!("{name}@{}", a.ty.name));
                    let _ = effect.resolve(&format!("{name}@{}[0]", a.ty.name));
                }
            }
            let values = d3dbc::fx::apply::Values::default();
            for (t, tech) in effect.techniques.iter().enumerate() {
                for p in 0..tech.passes.len() {
                    let _ = effect.apply_pass(t, p, &values);
                }
            }
        }
        Err(e) => assert!(e.offset <= data.len() + 8, "{e}"),
    }
});
