//! The playground page in a real browser: serves `target/web` (built by `cargo xtask
//! web`) on 127.0.0.1, opens links in headless Chromium (Debian's `chromium`), and
//! checks every panel against the same calls made natively: the listing, the findings
//! (an assembly error with its code and position), the translation, and a rendered
//! canvas whose pixels hash to what `d3dbc_web::render` (the code behind `d3dbc
//! render`) gives here.
//!
//! Without the built site or a Chromium the test says so and skips; under `CI=true` it
//! fails instead (`.ci/run` builds the site and installs Chromium first).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

fn ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true" || v == "1")
}

fn skip_or_fail(why: &str) {
    if ci() {
        panic!("{why}; CI=true forbids skipping");
    }
    eprintln!("SKIPPED: {why}");
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

fn chromium() -> Option<PathBuf> {
    for name in ["chromium", "chromium-browser", "google-chrome"] {
        if let Ok(out) = Command::new("which").arg(name).output() {
            if out.status.success() {
                return Some(PathBuf::from(String::from_utf8_lossy(&out.stdout).trim()));
            }
        }
    }
    None
}

/// A static file server on 127.0.0.1 for the test's lifetime.
struct Server {
    port: u16,
    stop: Arc<AtomicBool>,
}

impl Server {
    fn start(dir: PathBuf) -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1");
        listener.set_nonblocking(true).unwrap();
        let port = listener.local_addr().unwrap().port();
        let stop = Arc::new(AtomicBool::new(false));
        let flag = stop.clone();
        std::thread::spawn(move || {
            let started = Instant::now();
            // Bounded: the server ends with the test, or after ten minutes at most.
            while !flag.load(Ordering::Relaxed) && started.elapsed() < Duration::from_secs(600) {
                match listener.accept() {
                    Ok((s, _)) => {
                        let dir = dir.clone();
                        std::thread::spawn(move || serve(s, &dir));
                    }
                    Err(_) => std::thread::sleep(Duration::from_millis(5)),
                }
            }
        });
        Server { port, stop }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

fn serve(stream: TcpStream, dir: &Path) {
    let _ = stream.set_nonblocking(false);
    let _ = stream.set_read_timeout(Some(Duration::from_secs(10)));
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut line = String::new();
    if reader.read_line(&mut line).is_err() {
        return;
    }
    // Skip the headers.
    let mut h = String::new();
    while reader.read_line(&mut h).is_ok_and(|n| n > 2) {
        h.clear();
    }
    let path = line.split_whitespace().nth(1).unwrap_or("/");
    let path = path.split(['?', '#']).next().unwrap_or("/");
    let rel = if path == "/" {
        "index.html"
    } else {
        path.trim_start_matches('/')
    };
    let mut stream = stream;
    if rel.contains("..") {
        let _ = stream.write_all(b"HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n");
        return;
    }
    match std::fs::read(dir.join(rel)) {
        Ok(body) => {
            let ty = match rel.rsplit('.').next() {
                Some("html") => "text/html; charset=utf-8",
                Some("js") => "text/javascript",
                Some("css") => "text/css",
                Some("wasm") => "application/wasm",
                _ => "application/octet-stream",
            };
            let head = format!(
                "HTTP/1.1 200 OK\r\nContent-Type: {ty}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                body.len()
            );
            let _ = stream.write_all(head.as_bytes());
            let _ = stream.write_all(&body);
        }
        Err(_) => {
            let _ = stream.write_all(
                b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
            );
        }
    }
}

/// The page's DOM after its scripts ran, as headless Chromium dumps it.
fn dump_dom(chromium: &Path, url: &str) -> String {
    let profile = std::env::temp_dir().join(format!("d3dbc-web-test-{}", std::process::id()));
    let mut child = Command::new(chromium)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--virtual-time-budget=30000",
            "--dump-dom",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg(url)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start chromium");
    let mut out = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = out.read_to_string(&mut s);
        s
    });
    let started = Instant::now();
    loop {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        if started.elapsed() > Duration::from_secs(120) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("chromium did not finish within 120 s on {url}");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let _ = std::fs::remove_dir_all(&profile);
    reader.join().unwrap()
}

fn unescape(s: &str) -> String {
    s.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
}

/// The text inside the element with `id` (no nested markup expected).
fn element_text(dom: &str, tag: &str, id: &str) -> String {
    let open = format!("<{tag} id=\"{id}\"");
    let start = dom
        .find(&open)
        .unwrap_or_else(|| panic!("no #{id} in the page"));
    let body = &dom[start..];
    let gt = body.find('>').unwrap() + 1;
    let end = body.find(&format!("</{tag}>")).unwrap();
    unescape(&body[gt..end])
}

/// An attribute of the element with `id`.
fn attribute(dom: &str, id: &str, name: &str) -> Option<String> {
    let start = dom.find(&format!("id=\"{id}\""))?;
    let tag_start = dom[..start].rfind('<')?;
    let tag = &dom[tag_start..tag_start + dom[tag_start..].find('>')?];
    let key = format!(" {name}=\"");
    let at = tag.find(&key)? + key.len();
    Some(unescape(&tag[at..at + tag[at..].find('"')?]))
}

fn b64url(bytes: &[u8]) -> String {
    const A: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    let mut s = String::new();
    for c in bytes.chunks(3) {
        let n = (c[0] as u32) << 16
            | (*c.get(1).unwrap_or(&0) as u32) << 8
            | *c.get(2).unwrap_or(&0) as u32;
        for k in 0..=c.len() {
            s.push(A[(n >> (18 - 6 * k)) as usize & 63] as char);
        }
    }
    s
}

fn fnv1a(bytes: &[u8]) -> String {
    let mut h: u32 = 0x811c9dc5;
    for &b in bytes {
        h ^= b as u32;
        h = h.wrapping_mul(0x01000193);
    }
    format!("{h:08x}")
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[test]
fn playground_panels_in_headless_chromium() {
    let site = root().join("target/web");
    if !site.join("index.html").exists() || !site.join("pkg/d3dbc_web_bg.wasm").exists() {
        return skip_or_fail(&format!(
            "the playground is not built at {} (run `cargo xtask web`)",
            site.display()
        ));
    }
    let Some(chromium) = chromium() else {
        return skip_or_fail("no chromium on PATH (apt-get install chromium)");
    };
    let server = Server::start(site);
    let base = format!("http://127.0.0.1:{}/index.html", server.port);

    // 1. A bytecode link: every panel filled without a click.
    let pso = std::fs::read(root().join("examples/textured.pso")).unwrap();
    let dom = dump_dom(&chromium, &format!("{base}#hex={}&target=wgsl", hex(&pso)));
    assert!(
        dom.contains("data-state=\"ready\""),
        "the page did not finish: {}",
        &dom[..dom.len().min(2000)]
    );
    // The page shows dropped or linked bytecode as DWORD hex text; so does this.
    let pso_text: String = pso
        .chunks(4)
        .map(|c| format!("0x{:08x}, ", u32::from_le_bytes([c[0], c[1], c[2], c[3]])))
        .collect();
    let native = d3dbc_web::analyze(&pso_text, &Default::default());
    if let Some(at) = dom.find("data-ready-ms=\"") {
        let ms = &dom[at + 15..];
        eprintln!(
            "page ready (every panel filled) after {} ms",
            &ms[..ms.find('"').unwrap_or(0)]
        );
    }
    assert!(!native.listing.is_empty());
    assert_eq!(
        element_text(&dom, "pre", "listing"),
        native.listing,
        "listing panel"
    );
    assert!(
        element_text(&dom, "div", "findings").contains("no findings"),
        "findings panel"
    );
    let wgsl = d3dbc_web::translate(&native.hex, "wgsl").unwrap();
    assert_eq!(
        element_text(&dom, "pre", "translation"),
        wgsl.text,
        "translation panel"
    );
    assert!(wgsl.text.contains("@fragment"));
    let img = d3dbc_web::render(
        &native.hex,
        &d3dbc_web::RenderRequest {
            width: 256,
            height: 256,
            ..Default::default()
        },
    )
    .unwrap();
    assert_eq!(
        attribute(&dom, "canvas", "data-nonblank").as_deref(),
        Some("true"),
        "blank canvas"
    );
    assert_eq!(
        attribute(&dom, "canvas", "data-hash"),
        Some(fnv1a(&img.rgba)),
        "the canvas differs from d3dbc_web::render (what `d3dbc render` draws)"
    );

    // 2. An assembly link: the listing of what it assembles to, SPIR-V disassembly.
    let asm = std::fs::read_to_string(root().join("examples/textured.asm")).unwrap();
    let dom = dump_dom(
        &chromium,
        &format!("{base}#asm={}&target=spirv", b64url(asm.as_bytes())),
    );
    let native = d3dbc_web::analyze(&asm, &Default::default());
    assert_eq!(native.kind, "assembly");
    assert_eq!(
        element_text(&dom, "pre", "listing"),
        native.listing,
        "listing of assembly"
    );
    let spirv = element_text(&dom, "pre", "translation");
    assert!(
        spirv.contains("OpEntryPoint Fragment"),
        "SPIR-V panel: {spirv}"
    );
    assert!(
        attribute(&dom, "canvas", "data-hash").is_some(),
        "assembly link renders too"
    );

    // 3. An assembly error: its code and line:col, with the caret, as the CLI prints it.
    let bad = "ps_2_0\nmov oC0, r5\n";
    let dom = dump_dom(&chromium, &format!("{base}#asm={}", b64url(bad.as_bytes())));
    let native = d3dbc_web::analyze(bad, &Default::default());
    let f = &native.findings[0];
    assert_eq!(f.code.as_deref(), Some("E0204"));
    assert_eq!(f.at, "2:10");
    let findings = element_text(&dom, "div", "findings");
    assert!(dom.contains("data-code=\"E0204\""), "{findings}");
    assert!(
        findings.contains(&f.text),
        "findings panel: {findings}\nexpected: {}",
        f.text
    );
    assert!(
        f.text.contains("input:2:10: error[E0204]") && f.text.contains('^'),
        "{}",
        f.text
    );

    // 4. An effect link: fxc's effect listing, its first pass drawn.
    let fxo = std::fs::read(root().join("examples/tint.fxo")).unwrap();
    let dom = dump_dom(&chromium, &format!("{base}#hex={}&target=glsl", hex(&fxo)));
    let fx_text: String = fxo
        .chunks(4)
        .map(|c| format!("0x{:08x}, ", u32::from_le_bytes([c[0], c[1], c[2], c[3]])))
        .collect();
    let native = d3dbc_web::analyze(&fx_text, &Default::default());
    assert_eq!(native.kind, "effect");
    assert_eq!(
        element_text(&dom, "pre", "listing"),
        native.listing,
        "effect listing"
    );
    let img = d3dbc_web::render(
        &native.hex,
        &d3dbc_web::RenderRequest {
            width: 256,
            height: 256,
            ..Default::default()
        },
    )
    .unwrap();
    assert_eq!(
        attribute(&dom, "canvas", "data-hash"),
        Some(fnv1a(&img.rgba)),
        "effect render"
    );

    // 5. A shipped effect (FNA's SpriteEffect): drawn with its defaults the picture is
    // empty and the page says why under the canvas, as `d3dbc render` does; the
    // parameter editor holds its matrix, and a link setting it (`&set=…`) draws the
    // picture `render --set MatrixTransform=identity` draws.
    let fxb =
        std::fs::read(root().join("crates/d3dbc/tests/data/effects/SpriteEffect.fxb")).unwrap();
    let fxb_text: String = fxb
        .chunks(4)
        .map(|c| format!("0x{:08x}, ", u32::from_le_bytes([c[0], c[1], c[2], c[3]])))
        .collect();
    let native = d3dbc_web::analyze(&fxb_text, &Default::default());
    let req = |set: Vec<String>| d3dbc_web::RenderRequest {
        width: 256,
        height: 256,
        set,
        ..Default::default()
    };
    let empty = d3dbc_web::render(&native.hex, &req(Vec::new())).unwrap();
    let why = empty.warning.expect("the defaults draw nothing");
    assert!(why.contains("MatrixTransform"), "{why}");
    let dom = dump_dom(&chromium, &format!("{base}#hex={}", hex(&fxb)));
    assert_eq!(
        element_text(&dom, "p", "render-warning"),
        why,
        "empty-picture warning"
    );
    assert!(
        dom.contains("data-param=\"MatrixTransform\""),
        "the parameter editor lists the matrix"
    );
    let dom = dump_dom(
        &chromium,
        &format!(
            "{base}#hex={}&technique=0&pass=0&set=MatrixTransform%3Didentity",
            hex(&fxb)
        ),
    );
    let drawn =
        d3dbc_web::render(&native.hex, &req(vec!["MatrixTransform=identity".into()])).unwrap();
    assert!(drawn.warning.is_none());
    assert_eq!(
        attribute(&dom, "canvas", "data-hash"),
        Some(fnv1a(&drawn.rgba)),
        "effect render with a parameter set"
    );
    assert_eq!(element_text(&dom, "p", "render-warning"), "");
    drop(server);
}
