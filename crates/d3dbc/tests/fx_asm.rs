//! The effect assembler against every fxc-written effect of the corpus: `asm(dis(X))`
//! with the original (`--fx-from`) is `X` byte for byte for Wine's 15 test effects and
//! the 32 fxc 10.1 effects, also from fxc's own listing text; every preshader block
//! reassembles to its `PRES` comment given the original's literal table, and the
//! figure without it is measured; the listing alone builds an effect that parses back
//! with the same techniques, passes and shader instructions; an edit that changes a
//! shader's size gives a valid effect whose other objects are unchanged.

mod common;

use d3dbc::fx::asm::assemble_effect;
use d3dbc::fx::listing::shader_listing;
use d3dbc::fx::preshader::{find_pres, Preshader};
use d3dbc::fx::preshader_asm::{assemble_preshader, assemble_preshader_with};
use d3dbc::fx::Effect;

fn bytes(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// A corpus effect: label, bytes, and fxc's own listing where the record has one.
type Record = (String, Vec<u8>, Option<String>);

fn effects() -> Option<Vec<Record>> {
    let mut out = Vec::new();
    for f in ["wine_fx.jsonl", "fxc_effects.jsonl"] {
        for r in common::records(f)? {
            let listing = r["listing"].as_str().map(str::to_string);
            out.push((
                common::label(&r),
                bytes(&common::dwords(&r["dwords"])),
                listing,
            ));
        }
    }
    Some(out)
}

#[test]
fn asm_of_dis_is_the_effect_byte_for_byte() {
    let Some(all) = effects() else { return };
    let mut n = 0;
    for (label, x, fxc_listing) in &all {
        let e = Effect::parse(x).unwrap();
        let text = e.listing();
        let y = assemble_effect(&text, "x.fx.asm", Some(x), &Default::default())
            .unwrap_or_else(|d| panic!("{label}: {d}"));
        assert!(y == *x, "{label}: reassembled effect differs");
        if let Some(l) = fxc_listing {
            let y = assemble_effect(l, "fxc.asm", Some(x), &Default::default())
                .unwrap_or_else(|d| panic!("{label} (fxc's listing): {d}"));
            assert!(y == *x, "{label}: fxc's listing reassembles differently");
        }
        n += 1;
    }
    assert_eq!(n, 47);
}

/// A `PRES` payload without its `CTAB` comment.
fn without_ctab(p: &[u32]) -> Vec<u32> {
    let mut out = p[..2].to_vec();
    let mut at = 2;
    while at < p.len() && p[at] & 0xFFFF == 0xFFFE {
        let n = ((p[at] >> 16) & 0x7FFF) as usize;
        if p.get(at + 1) != Some(&u32::from_le_bytes(*b"CTAB")) {
            out.extend_from_slice(&p[at..(at + 1 + n).min(p.len())]);
        }
        at += 1 + n;
    }
    out.extend_from_slice(&p[at.min(p.len())..]);
    out
}

#[test]
fn preshader_blocks_reassemble() {
    let Some(all) = effects() else { return };
    let (mut total, mut exact_alone, mut code_alone) = (0, 0, 0);
    let mut misses = Vec::new();
    for (label, x, _) in &all {
        let e = Effect::parse(x).unwrap();
        for code in &e.objects {
            let tokens = d3dbc::fx::to_words(code);
            let Some(pres) = find_pres(&tokens) else {
                continue;
            };
            let orig = Preshader::parse(pres).unwrap();
            let text = shader_listing(code);
            let block: String = text
                .split_inclusive('\n')
                .scan(false, |done, l| {
                    if *done {
                        return None;
                    }
                    *done = l.trim_start().starts_with("// approximately");
                    Some(l)
                })
                .collect();
            total += 1;
            let want: Vec<u32> = std::iter::once(u32::from_le_bytes(*b"PRES"))
                .chain(pres.iter().copied())
                .collect();
            let with = assemble_preshader_with(&block, "p", Some(&orig)).unwrap();
            if with != want {
                let at = with.iter().zip(&want).position(|(a, b)| a != b);
                panic!(
                    "{label}: preshader differs with the original's table at {at:?}: {:x?} vs {:x?}\n{block}",
                    &with[at.unwrap_or(0).saturating_sub(4)..(at.unwrap_or(0) + 8).min(with.len())],
                    &want[at.unwrap_or(0).saturating_sub(4)..(at.unwrap_or(0) + 8).min(want.len())]
                );
            }
            let alone = assemble_preshader(&block, "p").unwrap();
            if alone == want {
                exact_alone += 1;
            }
            // Apart from the constant table (rebuilt from its header, which does not
            // carry its byte layout): PRSI, CLIT and FXLC.
            if without_ctab(&alone) == without_ctab(&want) {
                code_alone += 1;
            } else {
                misses.push(label.clone());
            }
        }
    }
    eprintln!(
        "preshaders: {total}; without the original: {exact_alone} byte-identical, \
         {code_alone} identical apart from the CTAB (misses: {misses:?})"
    );
    assert!(total >= 28, "{total}");
    // Measured: the literal order of the rest follows the HLSL source, which the
    // listing does not carry.
    assert!(code_alone >= 17, "{code_alone}");
}

#[test]
fn the_listing_alone_builds_an_equivalent_effect() {
    let Some(all) = effects() else { return };
    for (label, x, _) in &all {
        let e = Effect::parse(x).unwrap();
        let y = assemble_effect(&e.listing(), "x", None, &Default::default())
            .unwrap_or_else(|d| panic!("{label}: {d}"));
        let f = Effect::parse(&y).unwrap_or_else(|err| panic!("{label}: {err}"));
        assert_eq!(f.techniques.len(), e.techniques.len(), "{label}");
        // Every pass lists the same shaders (instructions and headers).
        let strip = |s: String| -> String {
            s.lines()
                .filter(|l| !l.trim_start().starts_with("//") && !l.trim().is_empty())
                .collect::<Vec<_>>()
                .join("\n")
        };
        let (a, b) = (strip(e.listing()), strip(f.listing()));
        let body = |s: &str| {
            s.split("technique")
                .skip(1)
                .collect::<Vec<_>>()
                .join("technique")
        };
        assert_eq!(body(&a), body(&b), "{label}");
    }
}

/// The two preshader-bearing `vs_3_0` shaders of Wine's `test_effect_preshader`
/// (`wine_d3d9_blobs.jsonl`): their listing (as `dis` prints a plain shader: preshader
/// block, then the shader with its table's defaults) reassembles to the same bytes with
/// the original (`asm --ctab-from`), whose constant tables and literal order the
/// listing does not carry.
#[test]
fn wine_preshader_shader_listings_reassemble() {
    let Some(recs) = common::records("wine_d3d9_blobs.jsonl") else {
        return;
    };
    let mut n = 0;
    for r in recs {
        let tokens = common::dwords(&r["dwords"]);
        let Some(pres) = find_pres(&tokens) else {
            continue;
        };
        let mut text = String::new();
        Preshader::parse(pres).unwrap().write_listing(&mut text);
        d3dbc::print::print_tokens(&tokens, &Default::default(), &mut text).unwrap();
        let b = bytes(&tokens);
        let again =
            d3dbc::fx::asm::assemble_shader_listing(&text, "w.vsh", Some(&b), &Default::default())
                .unwrap_or_else(|d| panic!("{}: {d}", common::label(&r)));
        assert!(again == tokens, "{}", common::label(&r));
        n += 1;
    }
    assert_eq!(n, 2);
}
