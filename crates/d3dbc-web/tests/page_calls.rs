//! The calls behind the playground's panels, natively: each input kind the page takes,
//! the findings as the CLI prints them, every translation target, the render and the
//! pixel trace.

use d3dbc_web::{analyze, render, trace, translate, ListingOptions, RenderRequest};

const ASM: &str = "ps_2_0\ndef c0, 0.5, 0.25, 1, 1\ndcl t0.xy\ndcl_2d s0\ntexld r0, t0, s0\nmul r0, r0, c0\nmov oC0, r0\n";

#[test]
fn assembly_input_lists_and_validates() {
    let a = analyze(ASM, &ListingOptions::default());
    assert_eq!(a.kind, "assembly");
    assert_eq!(a.version.as_deref(), Some("ps_2_0"));
    assert!(a.valid && a.findings.is_empty() && a.report.is_empty());
    assert!(a.listing.starts_with("    ps_2_0\n"), "{}", a.listing);
    assert!(a.listing.contains("    texld r0, t0, s0\n"));
    assert!(a.pixel);
    assert_eq!(a.samplers.len(), 1);
    // The hex is the assembled bytecode, little-endian bytes: version token first.
    assert!(a.hex.starts_with("0002ffff"), "{}", a.hex);
}

#[test]
fn hex_and_header_input_read_like_dis() {
    let a = analyze(ASM, &ListingOptions::default());
    let dwords: Vec<String> = a
        .hex
        .as_bytes()
        .chunks(8)
        .map(|c| {
            let s = std::str::from_utf8(c).unwrap();
            let b: Vec<u8> = (0..4)
                .map(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16).unwrap())
                .collect();
            format!("0x{:08x}", u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        })
        .collect();
    let from_hex = analyze(&dwords.join(", "), &ListingOptions::default());
    assert_eq!(from_hex.kind, "bytecode");
    assert_eq!(from_hex.listing, a.listing);
    let header = format!("const DWORD g_ps[] = {{ {} }};", dwords.join(", "));
    assert_eq!(
        analyze(&header, &ListingOptions::default()).listing,
        a.listing
    );
    let with_offsets = analyze(
        &a.hex,
        &ListingOptions {
            offsets: true,
            tokens: true,
        },
    );
    assert!(
        with_offsets.listing.contains("// +0"),
        "{}",
        with_offsets.listing
    );
}

#[test]
fn errors_carry_code_position_and_caret() {
    let a = analyze("ps_2_0\nmov oC0, r5\n", &ListingOptions::default());
    assert!(!a.valid);
    let f = &a.findings[0];
    assert_eq!(
        (f.severity, f.code.as_deref(), f.at.as_str()),
        ("error", Some("E0204"), "2:10")
    );
    assert!(
        f.text
            .starts_with("input:2:10: error[E0204]: `mov oC0, r5`"),
        "{}",
        f.text
    );
    assert!(f.text.ends_with('^'), "{}", f.text);
    assert_eq!(a.report, f.text);
    // A syntax error: no shader, the assembler's message at its line and column.
    let s = analyze("ps_2_0\nfoo r0, r1\n", &ListingOptions::default());
    assert_eq!(s.kind, "none");
    assert!(
        s.findings[0].text.starts_with("input:2:1: error"),
        "{}",
        s.findings[0].text
    );
    // Nothing at all.
    assert_eq!(
        analyze("", &ListingOptions::default()).findings[0].message,
        "empty input"
    );
}

#[test]
fn every_target_translates() {
    let a = analyze(ASM, &ListingOptions::default());
    for (target, needle) in [
        ("spirv", "OpEntryPoint Fragment"),
        ("wgsl", "@fragment"),
        ("glsl", "void main()"),
        ("msl", "fragment"),
        ("hlsl", "main"),
    ] {
        let t = translate(&a.hex, target).unwrap_or_else(|e| panic!("{target}: {e}"));
        assert!(t.text.contains(needle), "{target}: {}", t.text);
        assert!(t.interface.contains("\"stage\""), "{}", t.interface);
    }
    assert!(translate(&a.hex, "dxil")
        .unwrap_err()
        .contains("unknown target"));
    let bad = analyze("ps_2_0\nmov oC0, r5\n", &ListingOptions::default());
    assert!(translate(&bad.hex, "wgsl").unwrap_err().contains("E0204"));
}

#[test]
fn render_and_trace_agree() {
    let a = analyze(ASM, &ListingOptions::default());
    let req = RenderRequest {
        width: 32,
        height: 32,
        ..Default::default()
    };
    let img = render(&a.hex, &req).unwrap();
    assert_eq!(
        (img.width, img.height, img.rgba.len()),
        (32, 32, 32 * 32 * 4)
    );
    // The checkerboard in s0 scaled by c0 = (0.5, 0.25, 1, 1): red and green differ.
    let px = |x: usize, y: usize| &img.rgba[(y * 32 + x) * 4..(y * 32 + x) * 4 + 4];
    assert_ne!(px(3, 3)[0], px(3, 3)[1]);
    assert_eq!(px(3, 3)[3], 255);
    // The trace at a pixel ends with that pixel's value as rendered.
    let lines = trace(&a.hex, &req, 3, 3).unwrap();
    assert!(
        lines.iter().any(|l| l.starts_with("texld r0, t0, s0")),
        "{lines:?}"
    );
    let last = lines.last().unwrap();
    let q = |v: f32| (v.clamp(0.0, 1.0) * 255.0).round() as u8;
    let vals: Vec<f32> = last
        .rsplit_once(" = ")
        .unwrap()
        .1
        .trim_matches(['(', ')'])
        .split(", ")
        .map(|v| v.parse().unwrap())
        .collect();
    assert_eq!(
        vals.iter().map(|v| q(*v)).collect::<Vec<_>>(),
        px(3, 3),
        "{last}"
    );
    // Constants set by the page change the picture (a `def` would win over them, as
    // on D3D9, so this shader reads c1 without one).
    let b = analyze(
        &ASM.replace("mul r0, r0, c0", "mul r0, r0, c1"),
        &ListingOptions::default(),
    );
    let mut red = req.clone();
    red.constants.insert("c1".into(), [1.0, 0.0, 0.0, 1.0]);
    let r = render(&b.hex, &red).unwrap();
    let p = &r.rgba[(3 * 32 + 3) * 4..(3 * 32 + 3) * 4 + 4];
    assert!(p[0] > 0 && p[1] == 0 && p[2] == 0, "{p:?}");
    assert!(trace(&a.hex, &req, 40, 0).is_err());
    assert!(render(&a.hex, &RenderRequest { width: 0, ..req }).is_err());
}

#[test]
fn vertex_shaders_list_but_do_not_render() {
    let a = analyze(
        "vs_2_0\ndcl_position v0\nmov oPos, v0\n",
        &ListingOptions::default(),
    );
    assert!(a.valid && !a.pixel);
    assert!(render(&a.hex, &RenderRequest::default())
        .unwrap_err()
        .contains("pixel shaders"));
    assert!(translate(&a.hex, "wgsl").unwrap().text.contains("@vertex"));
}

#[test]
fn effects_list_translate_and_render_their_first_pass() {
    let bytes = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../examples/tint.fxo"
    ))
    .unwrap();
    let text: Vec<String> = bytes
        .chunks(4)
        .map(|c| format!("0x{:08x}", u32::from_le_bytes([c[0], c[1], c[2], c[3]])))
        .collect();
    let a = analyze(&text.join(", "), &ListingOptions::default());
    assert_eq!((a.kind, a.version.as_deref()), ("effect", Some("fx_2_0")));
    let e = d3dbc::fx::Effect::parse(&bytes).unwrap();
    assert_eq!(a.listing, e.listing());
    assert!(a.valid && a.pixel, "{:?}", a.findings);
    assert!(translate(&a.hex, "wgsl")
        .unwrap()
        .text
        .contains("@fragment"));
    let req = RenderRequest {
        width: 16,
        height: 16,
        ..Default::default()
    };
    let img = render(&a.hex, &req).unwrap();
    assert!(
        img.rgba.chunks(4).any(|p| p != &img.rgba[..4]),
        "blank effect render"
    );
    assert!(trace(&a.hex, &req, 5, 5).unwrap().len() > 1);
}

#[test]
fn decompiled_panel_shows_hlsl_that_names_its_profile() {
    let a = analyze(ASM, &ListingOptions::default());
    let d = d3dbc_web::decompile(&a.hex).unwrap();
    assert_eq!(d.profile, "ps_2_0");
    assert!(
        d.text.starts_with("// compile: -T ps_2_0 -E main\n"),
        "{}",
        d.text
    );
    assert!(d.text.contains("tex2D(s0, i.texcoord0.xy)"), "{}", d.text);
    assert!(d3dbc_web::decompile("zz").is_err());
}
