//! `face/mojoshader.h`, d3dbc's own MojoShader header, lays everything out as MojoShader
//! 6333f74's header does: a C program generated from our header's declarations prints
//! the size of every struct and union, the offset of every field and the value of
//! every enumeration constant; built once against MojoShader's header (from `cargo xtask
//! peers --fetch-only`) and once against ours, it must print the same lines. Without
//! MojoShader's sources the test says it has nothing to compare (under `CI=true` it
//! fails).

use std::path::{Path, PathBuf};
use std::process::Command;

/// What the program prints: `(kind, C expression)` for every struct size, field offset
/// and enumeration constant the header declares.
fn probes(header: &str) -> Vec<String> {
    let mut out = Vec::new();
    // The aggregate being read (`struct X` / `union X`), and the brace depth inside it.
    let mut current: Option<String> = None;
    let mut depth = 0i32;
    let mut in_enum = false;
    for raw in header.lines() {
        let line = raw.trim();
        if line.starts_with("typedef enum") {
            in_enum = true;
            continue;
        }
        if in_enum {
            if line.starts_with('}') {
                in_enum = false;
            } else if let Some(name) = line
                .split([' ', ',', '='])
                .next()
                .filter(|n| n.starts_with("MOJOSHADER_"))
            {
                out.push(format!("(long long) {name}"));
            }
            continue;
        }
        if current.is_none() {
            for kw in ["struct", "union"] {
                let decl = line
                    .strip_prefix("typedef ")
                    .unwrap_or(line)
                    .strip_prefix(kw)
                    .map(str::trim);
                if let Some(tag) = decl.filter(|t| {
                    !t.is_empty() && !t.contains(' ') && !t.ends_with(';') && !t.contains('*')
                }) {
                    current = Some(format!("{kw} {tag}"));
                    depth = 0;
                }
            }
            continue;
        }
        let agg = current.clone().unwrap();
        if line == "{" {
            depth += 1;
            continue;
        }
        if line.starts_with('}') {
            depth -= 1;
            if depth == 0 {
                out.push(format!("sizeof({agg})"));
                current = None;
            } else if let Some(member) = line
                .trim_start_matches('}')
                .trim()
                .strip_suffix(';')
                .filter(|m| !m.is_empty())
            {
                // A named nested union (`} value;`).
                out.push(format!("offsetof({agg}, {member})"));
            }
            continue;
        }
        if line.starts_with("MOJOSHADERNAMELESS") || line.starts_with("union") {
            continue;
        }
        // A field: `type name;`, `type *name;`, `type name[4];`, at the aggregate's
        // level or in a nameless union (offsetof reaches its members); fields of a
        // named nested union are covered by the union's own offset.
        if let Some(decl) = line.strip_suffix(';') {
            let named_union_member = depth > 1 && !nameless_above(header, raw);
            if named_union_member {
                continue;
            }
            let name = decl
                .rsplit([' ', '*'])
                .next()
                .unwrap_or("")
                .split('[')
                .next()
                .unwrap_or("");
            if !name.is_empty() {
                out.push(format!("offsetof({agg}, {name})"));
            }
        }
    }
    out
}

/// Whether the union enclosing header line `line` is nameless (opened after a
/// `MOJOSHADERNAMELESS union` line).
fn nameless_above(header: &str, line: &str) -> bool {
    let pos = header.find(line).unwrap_or(0);
    let before = &header[..pos];
    let open = before.rfind("union").unwrap_or(0);
    before[..open].trim_end().ends_with("MOJOSHADERNAMELESS")
}

fn compile_and_run(probes: &[String], include: &Path, tmp: &Path, name: &str) -> String {
    let mut c = String::from(
        "#include <stdio.h>\n#include <stddef.h>\n#include \"mojoshader.h\"\nint main(void)\n{\n",
    );
    for p in probes {
        c.push_str(&format!(
            "    printf(\"%s = %lld\\n\", {:?}, (long long) ({p}));\n",
            p
        ));
    }
    c.push_str("    return 0;\n}\n");
    let src = tmp.join(format!("{name}.c"));
    std::fs::write(&src, c).unwrap();
    let exe = tmp.join(name);
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".into());
    let st = Command::new(&cc)
        .args([
            "-std=c99",
            "-Wall",
            "-Werror",
            "-DMOJOSHADER_EFFECT_SUPPORT",
        ])
        .arg("-I")
        .arg(include)
        .arg(&src)
        .arg("-o")
        .arg(&exe)
        .status()
        .unwrap();
    assert!(st.success(), "{cc} failed against {}", include.display());
    let out = Command::new(&exe).output().unwrap();
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn face_header_lays_out_as_mojoshaders() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let theirs = std::env::var_os("D3DBC_MOJOSHADER_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| dir.join("../../target/peers/MojoShader"));
    if !theirs.join("mojoshader.h").is_file() {
        let ci = std::env::var("CI").is_ok_and(|v| v == "true" || v == "1");
        assert!(
            !ci,
            "MojoShader's header not at {} (cargo xtask peers --fetch-only)",
            theirs.display()
        );
        eprintln!(
            "SKIPPED: MojoShader's header not at {} (cargo xtask peers --fetch-only)",
            theirs.display()
        );
        return;
    }
    let ours = dir.join("face");
    let header = std::fs::read_to_string(ours.join("mojoshader.h")).unwrap();
    let p = probes(&header);
    assert!(
        p.len() > 400,
        "only {} probes read from the header",
        p.len()
    );
    for must in [
        "sizeof(struct MOJOSHADER_parseData)",
        "offsetof(struct MOJOSHADER_constant, value)",
        "offsetof(struct MOJOSHADER_effectValue, valuesSS)",
        "offsetof(struct MOJOSHADER_effect, ctx)",
        "(long long) MOJOSHADER_RS_PIXELSHADER",
    ] {
        assert!(p.iter().any(|x| x == must), "{must} not probed");
    }
    let tmp = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("mojoshader_layout");
    std::fs::create_dir_all(&tmp).unwrap();
    let a = compile_and_run(&p, &theirs, &tmp, "mojoshader");
    let b = compile_and_run(&p, &ours, &tmp, "face");
    let differ: Vec<_> = a
        .lines()
        .zip(b.lines())
        .filter(|(x, y)| x != y)
        .map(|(x, y)| format!("MojoShader {x}, face {y}"))
        .collect();
    assert!(differ.is_empty(), "{}", differ.join("\n"));
    assert_eq!(a.lines().count(), p.len());
    eprintln!("{} sizes, offsets and enumeration values agree", p.len());
}
