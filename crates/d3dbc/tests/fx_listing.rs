//! Effect listings: every fx_2_0 effect of `fxc_effects.jsonl` must list byte for byte
//! as fxc 10.1 listed it (`listing`), and every Wine test effect must list with every
//! technique, pass and embedded shader.

mod common;

use d3dbc::fx::Effect;

fn bytes(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

#[test]
fn fxc_effect_listings_are_byte_identical() {
    let Some(records) = common::records("fxc_effects.jsonl") else {
        return;
    };
    let mut same = 0;
    let mut failures = Vec::new();
    for r in &records {
        let data = bytes(&common::dwords(&r["dwords"]));
        let effect = Effect::parse(&data).unwrap_or_else(|e| panic!("{}: {e}", common::label(r)));
        let got = effect.listing();
        let want = r["listing"].as_str().unwrap().replace("\r\n", "\n");
        if got == want {
            same += 1;
        } else {
            if let Ok(dir) = std::env::var("FX_DUMP") {
                let stem = common::label(r).replace(['/', ':', ' '], "_");
                std::fs::write(format!("{dir}/{stem}.got"), &got).unwrap();
                std::fs::write(format!("{dir}/{stem}.want"), &want).unwrap();
            }
            failures.push(common::label(r));
        }
    }
    eprintln!("{same}/{} effect listings byte-identical", records.len());
    assert!(failures.is_empty(), "listings differ: {failures:#?}");
}

#[test]
fn wine_effects_list_every_technique_pass_and_shader() {
    let Some(records) = common::records("wine_fx.jsonl") else {
        return;
    };
    let mut shaders = 0;
    for r in &records {
        let data = bytes(&common::dwords(&r["dwords"]));
        let effect = Effect::parse(&data).unwrap_or_else(|e| panic!("{}: {e}", common::label(r)));
        let listing = effect.listing();
        for t in &effect.techniques {
            assert!(
                listing.contains(&format!("technique {}\n{{\n", t.name)),
                "{}: technique {} not listed",
                common::label(r),
                t.name
            );
            for p in &t.passes {
                assert!(listing.contains(&format!("    pass {}\n", p.name)));
            }
        }
        // Every shader a pass sets directly (not a NULL shader) is listed with its code.
        for t in &effect.techniques {
            for p in &t.passes {
                for s in &p.states {
                    if let Some(code) = effect.state_shader(s) {
                        let body = d3dbc::fx::listing::shader_listing(code);
                        let first = body
                            .lines()
                            .find(|l| l.contains("_"))
                            .unwrap_or_default()
                            .trim()
                            .to_string();
                        assert!(listing.contains(&first), "{}: {first}", common::label(r));
                        shaders += 1;
                    }
                }
            }
        }
    }
    eprintln!(
        "{} Wine effects listed, {shaders} pass shaders",
        records.len()
    );
    assert_eq!(records.len(), 15);
}
