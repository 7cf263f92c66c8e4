//! `include/d3dbc.h` is what cbindgen generates from the crate today: the test
//! regenerates it and fails when the committed header is stale
//! (`D3DBC_BLESS=1 cargo test -p d3dbc-capi --test header` rewrites it).

use std::path::Path;

#[test]
fn committed_header_is_what_cbindgen_generates() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let config = cbindgen::Config::from_file(dir.join("cbindgen.toml")).expect("cbindgen.toml");
    let bindings = cbindgen::Builder::new()
        .with_src(dir.join("src/lib.rs"))
        .with_config(config)
        .generate()
        .expect("cbindgen");
    let mut generated = Vec::new();
    bindings.write(&mut generated);
    let path = dir.join("include/d3dbc.h");
    if std::env::var_os("D3DBC_BLESS").is_some() {
        std::fs::write(&path, &generated).unwrap();
        return;
    }
    let committed = std::fs::read(&path).unwrap_or_default();
    assert!(
        committed == generated,
        "include/d3dbc.h is stale: D3DBC_BLESS=1 cargo test -p d3dbc-capi --test header \
         rewrites it"
    );
}
