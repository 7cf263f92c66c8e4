//! Whatever a visitor pastes into the playground: arbitrary text → `analyze` (input
//! detection, assembly, listing, findings), and for a shader the validator accepts,
//! `translate` to WGSL, a small `render` and a `trace` of one pixel. Nothing may panic
//! or hang; errors are values.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let a = d3dbc_web::analyze(text, &d3dbc_web::ListingOptions { offsets: true, tokens: true });
    if a.hex.is_empty() || !a.valid {
        return;
    }
    let _ = d3dbc_web::translate(&a.hex, "wgsl");
    let req = d3dbc_web::RenderRequest { width: 4, height: 4, ..Default::default() };
    if let Ok(img) = d3dbc_web::render(&a.hex, &req) {
        assert_eq!(img.rgba.len(), 4 * 4 * 4);
    }
    let _ = d3dbc_web::trace(&a.hex, &req, 1, 2);
});
