//! `rip`: shaders and effects planted at arbitrary (unaligned) offsets in random bytes
//! are all found — offset, kind, size, CRC-32 — and nothing else is; pure random data
//! gives no finds.

mod common;
#[path = "../benches/support/sm3.rs"]
mod sm3;

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

/// A `ps_3_0` shader whose constant table holds `n` float4 constants named
/// `name_prefix…` (about 40 bytes a constant), and a comment block of `extra`
/// DWORDs tagged `tag` after it.
fn sized_shader(n: usize, extra: usize, tag: &[u8; 4]) -> Vec<u8> {
    let mut shader = d3dbc::Shader::decode(&sm3::ps_3_0_with_table(n)).unwrap();
    if extra > 0 {
        let mut block = vec![u32::from_le_bytes(*tag)];
        let mut rng = common::Rng(extra as u64);
        block.extend((1..extra).map(|_| rng.next() as u32));
        shader.items.insert(1, d3dbc::Item::Comment(block));
    }
    bytes(&shader.encode())
}

/// Every size class `rip` meets in real files, each planted at an odd offset between
/// random bytes and alone in a file of its own: a tiny vs_1_1, ps_3_0 shaders with
/// 1–4 KiB constant tables (real SM3 tables are this size, and every `rip` miss was
/// one), a 64 KiB comment block, the largest comment the format allows (0x7FFF
/// DWORDs), and a preshader-bearing shader (a `PRES` block before the code, as D3DX
/// effects' shaders carry).
#[test]
fn every_size_class_is_found() {
    let tiny = bytes(&[0xFFFE0101, 0x00000001, 0xC00F0000, 0x90E40000, 0x0000FFFF]);
    let mut classes: Vec<(&str, Vec<u8>)> = vec![
        ("tiny", tiny),
        ("CTAB 1 KiB", sized_shader(26, 0, b"    ")),
        ("CTAB 2 KiB", sized_shader(52, 0, b"    ")),
        ("CTAB 4 KiB", sized_shader(104, 0, b"    ")),
        ("64 KiB comment", sized_shader(8, 16 * 1024, b"DBUG")),
        ("0x7FFF-DWORD comment", sized_shader(8, 0x7FFF, b"DBUG")),
        ("preshader", sized_shader(12, 700, b"PRES")),
    ];
    // Wine's effect test shader with its real preshader, when the corpus is here.
    if let Some(blobs) = common::records("wine_d3d9_blobs.jsonl") {
        for r in &blobs {
            if r["name"].as_str() == Some("test_effect_preshader_effect_blob@dword2133") {
                classes.push((
                    "Wine preshader shader",
                    bytes(&common::dwords(&r["dwords"])),
                ));
            }
        }
    }
    let mut rng = common::Rng(0x05EE_D0F5_12E5);
    for (what, shader) in &classes {
        let kind = if shader[2] == 0xFE {
            Kind::VertexShader
        } else {
            Kind::PixelShader
        };
        let want = |offset| vec![(offset, shader.len(), kind, crc32(shader))];
        let key = |d: &[u8]| -> Vec<_> {
            scan(d)
                .iter()
                .map(|f| (f.offset, f.size, f.kind, f.crc32))
                .collect()
        };
        assert_eq!(key(shader), want(0), "{what}: alone in a file");
        let mut data = random_bytes(&mut rng, 4097);
        data.extend_from_slice(shader);
        data.extend(random_bytes(&mut rng, 333));
        assert_eq!(key(&data), want(4097), "{what}: between random bytes");
        // Cut one DWORD short: no find, and no panic.
        assert!(
            key(&shader[..shader.len() - 4]).is_empty(),
            "{what}: truncated"
        );
    }
}
