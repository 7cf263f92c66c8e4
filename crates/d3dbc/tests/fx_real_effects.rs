//! Effects as games ship them (`tests/data/effects`: FNA's six stock `.fxb`,
//! tModLoader's ExampleMod `.xnb`): every one parses, lists, and reassembles from its
//! listing to the same bytes (`asm --fx-from`); every pass applies with decodable
//! shaders; the listing alone builds an effect that parses back. The `.xnb` reader
//! unwraps them uncompressed, LZ4-compressed (built here with `lz4_flex`) and
//! LZX-compressed (a shipped texture, refused as not an effect after decompressing),
//! and no truncation of any of them panics.

use std::path::PathBuf;

use d3dbc::fx::asm::assemble_effect;
use d3dbc::fx::{apply::Values, Effect};
use d3dbc::input::xnb::{effect_of, Xnb};

fn data() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/effects")
}

/// Every effect of the data folder: name and effect bytes (unwrapped from `.xnb`).
fn effects() -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let mut names: Vec<_> = std::fs::read_dir(data())
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    names.sort();
    for p in names {
        let bytes = std::fs::read(&p).unwrap();
        let name = p.file_name().unwrap().to_string_lossy().into_owned();
        match p.extension().and_then(|e| e.to_str()) {
            Some("fxb") => out.push((name, bytes)),
            Some("xnb") => {
                if let Ok(fx) = effect_of(&bytes).unwrap() {
                    out.push((name, fx));
                }
            }
            _ => {}
        }
    }
    out
}

#[test]
fn shipped_effects_reassemble_byte_for_byte() {
    let all = effects();
    assert_eq!(all.len(), 8, "6 FNA stock effects and 2 tModLoader effects");
    for (name, fx) in &all {
        let e = Effect::parse(fx).unwrap_or_else(|err| panic!("{name}: {err}"));
        let listing = e.listing();
        let again = assemble_effect(&listing, name, Some(fx), &Default::default())
            .unwrap_or_else(|d| panic!("{name}: {d}"));
        assert!(again == *fx, "{name}: asm(dis(X)) differs");
        let alone = assemble_effect(&listing, name, None, &Default::default())
            .unwrap_or_else(|d| panic!("{name}: {d}"));
        let f = Effect::parse(&alone).unwrap_or_else(|err| panic!("{name}: {err}"));
        assert_eq!(f.techniques.len(), e.techniques.len(), "{name}");
        for (t, tech) in e.techniques.iter().enumerate() {
            for p in 0..tech.passes.len() {
                let s = e
                    .pass_shaders(t, p, &Values::default())
                    .unwrap_or_else(|err| panic!("{name} {}/{p}: {err}", tech.name));
                assert!(s.vertex.is_some() || s.pixel.is_some(), "{name}");
            }
        }
    }
}

#[test]
fn xnb_containers_unwrap_compressed_or_not() {
    let raw = std::fs::read(data().join("ExampleEffect.xnb")).unwrap();
    let x = Xnb::parse(&raw).unwrap();
    assert_eq!((x.platform, x.version, x.flags), (b'w', 5, 0));
    assert!(x
        .reader
        .starts_with("Microsoft.Xna.Framework.Content.EffectReader"));
    let fx = x.effect().unwrap().to_vec();
    assert_eq!(
        u32::from_le_bytes([fx[0], fx[1], fx[2], fx[3]]),
        d3dbc::fx::XNA_WRAPPER
    );
    // The same content LZ4-compressed, as MonoGame writes it (flag 0x40).
    let content = &raw[10..];
    let packed = lz4_flex::block::compress(content);
    let mut lz4 = b"XNBw\x05\x40".to_vec();
    lz4.extend_from_slice(&((14 + packed.len()) as u32).to_le_bytes());
    lz4.extend_from_slice(&(content.len() as u32).to_le_bytes());
    lz4.extend_from_slice(&packed);
    assert_eq!(effect_of(&lz4).unwrap().unwrap(), fx);
    // LZX (flag 0x80): a shipped texture decompresses, then is not an effect.
    let tex = std::fs::read(data().join("tModLoader-Logo-texture.xnb")).unwrap();
    let t = Xnb::parse(&tex).unwrap();
    assert_eq!(t.flags & 0x80, 0x80);
    assert!(t.reader.contains("Texture2DReader"), "{}", t.reader);
    let e = effect_of(&tex).unwrap().unwrap_err();
    assert!(e.what.contains("not an effect (EffectReader)"), "{e}");
    // Truncated and corrupted files: errors, never panics.
    for f in [&raw, &lz4, &tex] {
        for n in 0..f.len() {
            let _ = effect_of(&f[..n]);
        }
        for i in (0..f.len()).step_by(7) {
            let mut g = f.clone();
            g[i] ^= 0x5A;
            let _ = effect_of(&g);
        }
    }
}
