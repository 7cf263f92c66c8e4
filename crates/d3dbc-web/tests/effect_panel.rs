//! The render panel on effects: the pickers' and parameter editor's content
//! (`effect_info`), a pass chosen and parameters set as `d3dbc render --technique
//! --pass --set` takes them, and the empty-picture warning shown under the canvas.

use d3dbc_web::{analyze, effect_info, render, RenderRequest};

fn hex_text(path: &str) -> String {
    let b = std::fs::read(format!("{}/../../{path}", env!("CARGO_MANIFEST_DIR"))).unwrap();
    b.chunks(4)
        .map(|c| format!("0x{:08x}, ", u32::from_le_bytes([c[0], c[1], c[2], c[3]])))
        .collect()
}

#[test]
fn pickers_editor_and_warning() {
    let a = analyze(&hex_text("examples/tint.fxo"), &Default::default());
    let info = effect_info(&a.hex).unwrap();
    assert_eq!(
        info.techniques,
        vec![("Tint".to_string(), vec!["P0".to_string()])]
    );
    assert_eq!(
        info.parameters,
        vec![("tint".into(), "float4".into(), "1, 0.5, 0.25, 1".into())]
    );
    let req = |set: &[&str], pass: Option<&str>| RenderRequest {
        set: set.iter().map(|s| s.to_string()).collect(),
        pass: pass.map(str::to_string),
        ..Default::default()
    };
    let img = render(&a.hex, &req(&["tint=1,1,1,1"], Some("P0"))).unwrap();
    assert!(img.warning.is_none());
    let e = render(&a.hex, &req(&["tint=1,1"], None)).unwrap_err();
    assert!(e.contains("takes 4 values"), "{e}");
    let e = render(&a.hex, &req(&[], Some("P9"))).unwrap_err();
    assert!(e.contains("technique Tint has 1 pass: P0 (0)"), "{e}");

    let a = analyze(
        &hex_text("crates/d3dbc/tests/data/effects/SpriteEffect.fxb"),
        &Default::default(),
    );
    let info = effect_info(&a.hex).unwrap();
    assert!(info
        .parameters
        .iter()
        .any(|(n, t, _)| n == "MatrixTransform" && t == "float4x4"));
    let w = render(&a.hex, &req(&[], None)).unwrap().warning.unwrap();
    assert!(
        w.starts_with("the picture is empty (only the clear colour): every vertex is clipped")
            && w.contains("--set MatrixTransform=identity"),
        "{w}"
    );
    let img = render(&a.hex, &req(&["MatrixTransform=identity"], None)).unwrap();
    assert!(img.warning.is_none());
    assert!(effect_info(&analyze("ps_2_0\nmov oC0, c0\n", &Default::default()).hex).is_err());
}

/// A dropped `.xnb` (the page shows it as DWORD hex) reads as the effect inside.
#[test]
fn a_dropped_xnb_reads_as_its_effect() {
    let a = analyze(
        &hex_text("crates/d3dbc/tests/data/effects/ExampleEffect.xnb"),
        &Default::default(),
    );
    assert_eq!(a.kind, "effect");
    assert!(a.listing.contains("technique Technique1"), "{}", a.listing);
    assert!(effect_info(&a.hex).is_ok());
}
