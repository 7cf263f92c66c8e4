//! The one input reader over the containers engines ship shaders in: bgfx shader
//! binaries of every layout bgfx has written (`tests/data/bgfx`, from bgfx's own
//! history), the formats d3dbc names but does not read, and files that hold shaders
//! somewhere inside. Every truncation of every bgfx sample is an error, never a panic.

use d3dbc::input::{self, bgfx, Container, InputError};
use d3dbc::Shader;

fn samples() -> Vec<(String, Vec<u8>)> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/bgfx");
    let mut v: Vec<(String, Vec<u8>)> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "bin"))
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read(&p).unwrap())
        })
        .collect();
    v.sort();
    v
}

#[test]
fn every_bgfx_layout_reads_to_valid_bytecode() {
    let samples = samples();
    assert_eq!(samples.len(), 14);
    let mut versions = std::collections::BTreeSet::new();
    for (name, bytes) in &samples {
        let found = input::read_any(bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(found.len(), 1, "{name}");
        let Some(Container::Bgfx(b)) = &found[0].container else {
            panic!("{name}: no bgfx container");
        };
        versions.insert(b.version);
        let shader = Shader::decode(&found[0].tokens).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(
            d3dbc::validate::validate(&shader).is_empty(),
            "{name}: invalid"
        );
        // The stage the header names is the shader's kind.
        let vertex = found[0].tokens[0] >> 16 == 0xFFFE;
        assert_eq!(b.stage == bgfx::Stage::Vertex, vertex, "{name}");
        assert_eq!(
            name.contains("_vs_"),
            vertex,
            "{name}: file name and stage disagree"
        );
        // Uniform names are printable and every uniform the table lists the CTAB lists
        // (bgfx builds its table from the constant table, dropping a leading `$`).
        let ctab = shader.ctab().map(|c| c.unwrap());
        for u in &b.uniforms {
            assert!(
                u.name.bytes().all(|c| c.is_ascii_graphic()),
                "{name}: {u:?}"
            );
            if let Some(ctab) = &ctab {
                assert!(
                    ctab.constants
                        .iter()
                        .any(|c| c.name.trim_start_matches('$') == u.name),
                    "{name}: {} not in the CTAB",
                    u.name
                );
            }
        }
        // The listing `dis` prints starts with the container's comment.
        let comment = found[0].container.as_ref().unwrap().comment();
        assert!(comment.starts_with("// bgfx "), "{comment}");
        assert_eq!(
            comment.lines().count(),
            1 + usize::from(!b.uniforms.is_empty()) + b.uniforms.len()
        );
    }
    let want: std::collections::BTreeSet<Option<u8>> = [
        None,
        Some(0),
        Some(1),
        Some(2),
        Some(3),
        Some(4),
        Some(5),
        Some(6),
        Some(9),
        Some(11),
    ]
    .into_iter()
    .collect();
    assert_eq!(versions, want);
}

#[test]
fn truncated_and_damaged_bgfx_binaries_fail_cleanly() {
    for (name, bytes) in samples() {
        for len in 0..bytes.len() {
            let _ = input::read_any(&bytes[..len]);
        }
        // Damaged counts and sizes: an error naming the byte, never a huge allocation.
        let mut b = bytes.clone();
        if b[..3] == *b"VSH" || b[..3] == *b"FSH" {
            // The uniform count (at 8 after one hash, 12 after two) and what follows.
            b[8..14].fill(0xFF);
            match input::read_any(&b) {
                Err(InputError::Bgfx(m)) => assert!(m.contains("byte"), "{name}: {m}"),
                other => panic!("{name}: {other:?}"),
            }
        }
    }
}

#[test]
fn another_renderers_bgfx_binary_is_named() {
    // VSH version 11, no uniforms, then DXBC code (what `shaderc -p vs_5_0` writes).
    let mut b = b"VSH\x0b".to_vec();
    b.extend_from_slice(&[0; 8]); // hashes
    b.extend_from_slice(&0u16.to_le_bytes());
    let code = b"DXBC0123456789abcdef";
    b.extend_from_slice(&(code.len() as u32).to_le_bytes());
    b.extend_from_slice(code);
    b.extend_from_slice(&[0, 0]);
    let e = input::read_any(&b).unwrap_err().to_string();
    assert!(e.contains("another renderer") && e.contains("DXBC"), "{e}");
    assert!(e.contains("shaders/dx9"), "{e}");
}

#[test]
fn other_formats_get_one_line_naming_them() {
    let cases: [(&[u8], &str); 4] = [
        (b"DXBC\x11\x22\x33\x44\x55\x66\x77\x88", "this is a DXBC container"),
        (&[0x03, 0x02, 0x23, 0x07, 0, 0, 1, 0, 0, 0, 0, 0], "this is a SPIR-V module"),
        (
            b"sampler2D tex;\nfloat4 main(float2 uv : TEXCOORD0) : COLOR\n{ return tex2D(tex, uv); }\n",
            "this is HLSL source",
        ),
        (b"#version 330\nvoid main() { gl_FragColor = vec4(1.0); }\n", "this is GLSL source"),
    ];
    for (bytes, want) in cases {
        let e = input::read_any(bytes).unwrap_err().to_string();
        assert!(e.starts_with(want), "{want}: {e}");
    }
}

#[test]
fn a_file_with_shaders_inside_says_how_to_get_them() {
    let vs: [u32; 5] = [0xFFFE0101, 0x00000001, 0xC00F0000, 0x90E40000, 0x0000FFFF];
    let mut b = b"MZ\x90\x00 some executable".to_vec();
    for _ in 0..2 {
        b.extend_from_slice(&[0x13; 7]);
        b.extend(vs.iter().flat_map(|t| t.to_le_bytes()));
    }
    let e = input::read_any(&b).unwrap_err().to_string();
    assert_eq!(
        e,
        "no shader at offset 0; `d3dbc rip FILE` finds 2 shaders inside"
    );
    // Nothing inside: the plain answer.
    assert_eq!(input::read_any(&[0x13; 64]), Err(InputError::Unrecognized));
}
