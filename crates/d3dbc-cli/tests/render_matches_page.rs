//! The playground page draws what `d3dbc render` draws: the same scene, defaults and
//! constants, pixel for pixel (the page's canvas is checked against
//! `d3dbc_web::render` in a real browser by `xtask/tests/browser.rs`).

mod common;

use common::{example, run};

fn png_rgba(path: &std::path::Path) -> (u32, u32, Vec<u8>) {
    let dec = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(path).unwrap()));
    let mut r = dec.read_info().unwrap();
    let mut buf = vec![0; r.output_buffer_size()];
    let info = r.next_frame(&mut buf).unwrap();
    buf.truncate(info.buffer_size());
    (info.width, info.height, buf)
}

#[test]
fn render_and_the_page_draw_the_same_pixels() {
    let dir = std::env::temp_dir().join(format!("d3dbc-render-page-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("textured.png");
    let pso = example("textured.pso");
    let o = run(
        &[
            "render",
            pso.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
            "--size",
            "96x96",
        ],
        None,
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let (w, h, cli) = png_rgba(&out);
    let hex: String = std::fs::read(&pso)
        .unwrap()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    let page = d3dbc_web::render(
        &hex,
        &d3dbc_web::RenderRequest {
            width: 96,
            height: 96,
            ..Default::default()
        },
    )
    .unwrap();
    assert_eq!((w, h), (page.width, page.height));
    assert!(
        cli == page.rgba,
        "the page's picture differs from `d3dbc render`'s"
    );
    // Not a blank picture: the checkerboard shows through the tint.
    assert!(cli.chunks(4).any(|p| p != &cli[..4]));
    let _ = std::fs::remove_dir_all(&dir);
}
