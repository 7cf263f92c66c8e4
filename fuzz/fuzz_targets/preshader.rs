//! Arbitrary DWORDs → the preshader reader (`PRES`/`CLIT`/`FXLC`), its listing and a run
//! of the evaluator with the first bytes as input values. Nothing may panic, hang or
//! allocate without bound.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let words: Vec<u32> = data
        .chunks_exact(4)
        .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
        .collect();
    // As a preshader token stream, and as a shader carrying one in `PRES`.
    let pres = d3dbc::fx::preshader::find_pres(&words).unwrap_or(&words);
    if let Ok(p) = d3dbc::fx::Preshader::parse(pres) {
        let mut text = String::new();
        p.write_listing(&mut text);
        let mut regs = p.registers();
        for (i, slot) in regs.tables[1].iter_mut().enumerate() {
            *slot = f64::from(f32::from_bits(words.get(i).copied().unwrap_or(0)));
        }
        p.run(&mut regs);
        let _ = regs.outputs();
    }
});
