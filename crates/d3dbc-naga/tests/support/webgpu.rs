//! Tint inside Chromium: where no `tint` binary is on PATH, the WGSL compiler of Chrome and
//! Dawn still runs in Debian's `chromium` (headless, WebGPU over SwiftShader). A one-shot
//! server on 127.0.0.1 hands the page every WGSL source; the page calls
//! `device.createShaderModule` then `getCompilationInfo()` on each and posts back the
//! errors, which are what a WebGPU user would get from `createShaderModule`.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

/// The page: fetches the count, then each source, compiles them in batches and posts one
/// line per source with errors (`index<TAB>message`), then `done`.
const PAGE: &str = r#"<!doctype html><meta charset="utf-8"><title>tint</title><script>
(async () => {
  const post = (body) => fetch('/result', {method: 'POST', body});
  try {
    if (!navigator.gpu) { await post('fatal\tno navigator.gpu'); return; }
    const adapter = await navigator.gpu.requestAdapter();
    if (!adapter) { await post('fatal\tno WebGPU adapter'); return; }
    const device = await adapter.requestDevice();
    const n = parseInt(await (await fetch('/count')).text());
    const lines = [];
    for (let start = 0; start < n; start += 64) {
      const batch = [];
      for (let i = start; i < Math.min(n, start + 64); i++) {
        batch.push(fetch('/wgsl/' + i).then(r => r.text()).then(async code => {
          const info = await device.createShaderModule({code}).getCompilationInfo();
          const errors = info.messages.filter(m => m.type === 'error')
            .map(m => `${m.lineNum}:${m.linePos}: ${m.message}`.replace(/[\t\n]/g, ' '));
          if (errors.length) lines.push(i + '\t' + errors.join(' | '));
        }));
      }
      await Promise.all(batch);
    }
    lines.push('done');
    await post(lines.join('\n'));
  } catch (e) { await post('fatal\t' + e); }
})();
</script>"#;

/// Chromium's binary, if one is on PATH.
pub fn chromium() -> Option<PathBuf> {
    ["chromium", "chromium-browser", "google-chrome"]
        .iter()
        .map(PathBuf::from)
        .find(|p| Command::new(p).arg("--version").output().is_ok())
}

/// Compiles every file with Tint inside Chromium's WebGPU; returns one message per file
/// that does not compile. `Err` when the browser or its WebGPU adapter is not usable.
pub fn tint_in_chromium(chromium: &Path, files: &[PathBuf]) -> Result<Vec<String>, String> {
    let sources: Arc<Vec<String>> = Arc::new(
        files
            .iter()
            .map(|f| std::fs::read_to_string(f).unwrap_or_default())
            .collect(),
    );
    let listener = TcpListener::bind("127.0.0.1:0").map_err(|e| e.to_string())?;
    listener.set_nonblocking(true).map_err(|e| e.to_string())?;
    let port = listener.local_addr().map_err(|e| e.to_string())?.port();
    let profile = std::env::temp_dir().join(format!("d3dbc-tint-chromium-{}", std::process::id()));
    let mut child = Command::new(chromium)
        .args([
            "--headless",
            "--no-sandbox",
            "--enable-unsafe-webgpu",
            "--use-webgpu-adapter=swiftshader",
            "--enable-features=Vulkan",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            // Keeps the browser running until the result is posted.
            "--remote-debugging-port=0",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg(format!("http://127.0.0.1:{port}/"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("start {}: {e}", chromium.display()))?;
    let (tx, rx) = mpsc::channel::<String>();
    let started = Instant::now();
    // Bounded: a minute per thousand sources, two at least.
    let limit = Duration::from_secs(120 + 60 * sources.len() as u64 / 1000);
    let mut result = None;
    while started.elapsed() < limit {
        if let Ok(body) = rx.try_recv() {
            result = Some(body);
            break;
        }
        match listener.accept() {
            // A thread per connection: Chromium opens speculative connections that
            // send nothing, which must not hold up the others.
            Ok((s, _)) => {
                let (sources, tx) = (sources.clone(), tx.clone());
                std::thread::spawn(move || serve(s, &sources, &tx));
            }
            Err(_) => std::thread::sleep(Duration::from_millis(2)),
        }
    }
    let _ = child.kill();
    let _ = child.wait();
    let _ = std::fs::remove_dir_all(&profile);
    let body = result.ok_or_else(|| format!("chromium posted no result within {limit:?}"))?;
    let mut failures = Vec::new();
    let mut done = false;
    for line in body.lines() {
        let (head, msg) = line.split_once('\t').unwrap_or((line, ""));
        match head {
            "done" => done = true,
            "fatal" => return Err(format!("chromium: {msg}")),
            i => {
                let i: usize = i.parse().map_err(|_| format!("bad result line {line:?}"))?;
                failures.push(format!("{}: tint (chromium): {msg}", files[i].display()));
            }
        }
    }
    if !done {
        return Err("chromium's result is incomplete".into());
    }
    Ok(failures)
}

/// Answers one request: `/` the page, `/count`, `/wgsl/N`, or `POST /result`.
fn serve(stream: TcpStream, sources: &[String], tx: &mpsc::Sender<String>) {
    let _ = stream.set_nonblocking(false);
    let _ = stream.set_read_timeout(Some(Duration::from_secs(10)));
    let mut reader = BufReader::new(match stream.try_clone() {
        Ok(s) => s,
        Err(_) => return,
    });
    let mut request = String::new();
    if reader.read_line(&mut request).is_err() {
        return;
    }
    let mut length = 0usize;
    let mut h = String::new();
    while reader.read_line(&mut h).is_ok_and(|n| n > 2) {
        if let Some(v) = h.to_ascii_lowercase().strip_prefix("content-length:") {
            length = v.trim().parse().unwrap_or(0);
        }
        h.clear();
    }
    let mut parts = request.split_whitespace();
    let (method, path) = (parts.next().unwrap_or(""), parts.next().unwrap_or("/"));
    let (status, ty, body): (&str, &str, Vec<u8>) = match (method, path) {
        ("GET", "/") => (
            "200 OK",
            "text/html; charset=utf-8",
            PAGE.as_bytes().to_vec(),
        ),
        ("GET", "/count") => (
            "200 OK",
            "text/plain",
            sources.len().to_string().into_bytes(),
        ),
        ("GET", p) if p.starts_with("/wgsl/") => {
            match p[6..].parse::<usize>().ok().and_then(|i| sources.get(i)) {
                Some(s) => (
                    "200 OK",
                    "text/plain; charset=utf-8",
                    s.clone().into_bytes(),
                ),
                None => ("404 Not Found", "text/plain", Vec::new()),
            }
        }
        ("POST", "/result") => {
            let mut buf = vec![0u8; length.min(64 << 20)];
            if reader.read_exact(&mut buf).is_ok() {
                let _ = tx.send(String::from_utf8_lossy(&buf).into_owned());
            }
            ("200 OK", "text/plain", Vec::new())
        }
        _ => ("404 Not Found", "text/plain", Vec::new()),
    };
    let mut stream = stream;
    let head = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {ty}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    let _ = stream.write_all(head.as_bytes());
    let _ = stream.write_all(&body);
}
