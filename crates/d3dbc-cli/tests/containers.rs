//! Every verb reads a bgfx shader binary directly (`dis` prints its uniform table as
//! comments first and keeps it in JSON), and names what it cannot read: a D3D10+
//! container gets one line saying so, a file with shaders inside points to `rip`.

mod common;

use std::path::PathBuf;

use common::{run, text, tmpdir};

fn bgfx(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../d3dbc/tests/data/bgfx")
        .join(name)
        .to_str()
        .unwrap()
        .to_string()
}

#[test]
fn every_verb_reads_a_bgfx_binary() {
    let fs = bgfx("v4_vs_pom.bin");
    let ps = bgfx("v11_fs_instancing.bin");
    let dis = run(&["dis", &fs], None);
    assert!(dis.status.success(), "{}", text(&dis.stderr));
    let listing = text(&dis.stdout);
    assert!(
        listing.starts_with("// bgfx VSH version 4, input hash"),
        "{listing}"
    );
    assert!(listing.contains("//   u_viewProj"), "{listing}");
    assert!(listing.contains("\n    vs_3_0\n"), "{listing}");
    // The listing (uniform comments included) assembles back to the same code.
    let asm = run(&["asm", "--format", "hex", "-"], Some(listing.as_bytes()));
    assert!(asm.status.success(), "{}", text(&asm.stderr));
    let json = run(&["dis", "--format", "json", &fs], None);
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    let c = &v[0]["shaders"][0]["container"];
    assert_eq!(c["format"], "bgfx");
    assert_eq!(c["version"], 4);
    assert!(c["uniforms"]
        .as_array()
        .unwrap()
        .iter()
        .any(|u| u["name"] == "u_viewProj"));
    let validate = run(&["validate", "-v", &fs, &ps], None);
    assert!(validate.status.success(), "{}", text(&validate.stdout));
    let dir = tmpdir("bgfx-verbs");
    let out = dir.join("out.wgsl");
    let t = run(
        &[
            "translate",
            &ps,
            "--target",
            "wgsl",
            "-o",
            out.to_str().unwrap(),
        ],
        None,
    );
    assert!(t.status.success(), "{}", text(&t.stderr));
    assert!(std::fs::read_to_string(&out).unwrap().contains("@fragment"));
    let r = run(&["run", &fs], None);
    assert!(r.status.success(), "{}", text(&r.stderr));
    assert!(text(&r.stdout).contains("o0 = ("), "{}", text(&r.stdout));
    let png = dir.join("p.png");
    let r = run(
        &["render", &ps, "-o", png.to_str().unwrap(), "--size", "8x8"],
        None,
    );
    assert!(r.status.success(), "{}", text(&r.stderr));
    assert!(std::fs::read(&png).unwrap().starts_with(b"\x89PNG"));
}

#[test]
fn unread_formats_are_named_and_finds_point_to_rip() {
    let dir = tmpdir("containers-named");
    let dxbc = dir.join("x.cso");
    std::fs::write(
        &dxbc,
        b"DXBC\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c",
    )
    .unwrap();
    let out = run(&["dis", dxbc.to_str().unwrap()], None);
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(
        err.contains("this is a DXBC container (Direct3D 10+"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
    let vs = std::fs::read(common::example("transform.vso")).unwrap();
    let mut blob = b"PAK0 header of some archive".to_vec();
    blob.extend_from_slice(&vs);
    let pak = dir.join("level.pak");
    std::fs::write(&pak, &blob).unwrap();
    for verb in ["dis", "validate", "translate"] {
        let mut args = vec![verb, pak.to_str().unwrap()];
        if verb == "translate" {
            args.extend(["--target", "wgsl"]);
        }
        let out = run(&args, None);
        assert_eq!(out.status.code(), Some(1), "{verb}");
        let all = text(&out.stderr) + &text(&out.stdout);
        assert!(
            all.contains("no shader at offset 0; `d3dbc rip FILE` finds 1 shader inside"),
            "{verb}: {all}"
        );
    }
}
