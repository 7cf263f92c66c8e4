//! `rip`: shaders and effects planted at arbitrary (unaligned) offsets in random bytes
//! are all found — offset, kind, size, CRC-32 — and nothing else is; pure random data
//! gives no finds.

mod common;

use d3dbc::rip::{crc32, scan, Kind};

fn bytes(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

fn random_bytes(rng: &mut common::Rng, n: usize) -> Vec<u8> {
    let mut v = Vec::with_capacity(n + 8);
    while v.len() < n {
        v.extend_from_slice(&rng.next().to_le_bytes());
    }
    v.truncate(n);
    v
}

#[test]
fn random_data_has_no_finds() {
    let mut rng = common::Rng(0xDEAD_BEEF_1234_5678);
    let data = random_bytes(&mut rng, 32 << 20);
    let finds = scan(&data);
    assert!(finds.is_empty(), "{finds:?}");
    // Low-entropy data: runs of 0xFF and 0x00 with version-like bytes sprinkled in.
    let mut data = vec![0u8; 1 << 20];
    for (i, b) in data.iter_mut().enumerate() {
        *b = match i % 7 {
            0 => 0xFF,
            1 => 0xFE,
            2 => 0x02,
            _ => 0,
        };
    }
    assert!(scan(&data).is_empty());
}

#[test]
fn planted_shaders_and_effects_are_found_exactly() {
    let Some(shaders) = common::records("binaries.jsonl") else {
        return;
    };
    let Some(effects) = common::records("fxc_effects.jsonl") else {
        return;
    };
    let mut rng = common::Rng(0x0123_4567_89AB_CDEF);
    let mut data = Vec::new();
    let mut planted = Vec::new();
    let items: Vec<(Vec<u8>, bool)> = shaders
        .iter()
        .map(|r| (bytes(&common::dwords(&r["dwords"])), false))
        .chain(
            effects
                .iter()
                .map(|r| (bytes(&common::dwords(&r["dwords"])), true)),
        )
        .collect();
    for (item, is_effect) in &items {
        let gap = 1 + rng.below(5000);
        data.extend(random_bytes(&mut rng, gap));
        let kind = if *is_effect {
            Kind::Effect
        } else if item[2] == 0xFE {
            Kind::VertexShader
        } else {
            Kind::PixelShader
        };
        planted.push((data.len(), item.len(), kind, crc32(item)));
        data.extend_from_slice(item);
    }
    data.extend(random_bytes(&mut rng, 777));
    let finds = scan(&data);
    let got: Vec<_> = finds
        .iter()
        .map(|f| (f.offset, f.size, f.kind, f.crc32))
        .collect();
    eprintln!(
        "{} planted ({} shaders, {} effects) in {} bytes, {} found",
        planted.len(),
        shaders.len(),
        effects.len(),
        data.len(),
        got.len()
    );
    for p in &planted {
        assert!(got.contains(p), "planted {p:?} not found exactly");
    }
    assert_eq!(
        got.len(),
        planted.len(),
        "extra finds: {:?}",
        got.iter()
            .filter(|g| !planted.contains(g))
            .collect::<Vec<_>>()
    );
}
