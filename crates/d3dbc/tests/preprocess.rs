//! The preprocessor: one test per feature and per error (exact message and location),
//! limits against hostile input, Wine's preprocessor cases with the defines and include
//! handler its tests use, and pass-through of the real listings in the corpus.

mod common;

use std::time::{Duration, Instant};

use d3dbc::asm::preprocess::{preprocess, LineOrigin, Options, Output};

fn opts() -> Options {
    Options {
        file_name: "t.asm".into(),
        ..Options::default()
    }
}

fn pp(text: &str) -> Output {
    pp_with(text, &opts())
}

fn pp_with(text: &str, o: &Options) -> Output {
    match preprocess(text, o) {
        Ok(out) => {
            assert_eq!(out.lines.len(), out.text.lines().count(), "line map length");
            out
        }
        Err(e) => panic!("unexpected errors:\n{e}"),
    }
}

/// The first line (`file:line:col: error: message`) of each diagnostic.
fn errors(text: &str) -> Vec<String> {
    errors_with(text, &opts())
}

fn errors_with(text: &str, o: &Options) -> Vec<String> {
    match preprocess(text, o) {
        Ok(out) => panic!("expected an error, got:\n{}", out.text),
        Err(e) => {
            e.0.iter()
                .map(|d| d.to_string().lines().next().unwrap().to_string())
                .collect()
        }
    }
}

fn origin(file: &str, line: u32) -> LineOrigin {
    LineOrigin {
        file: file.into(),
        line,
    }
}

fn squash(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

// ---------------------------------------------------------------- pass-through

#[test]
fn text_without_directives_is_unchanged() {
    let t =
        "vs.1.1\r\n//some comments\r\n//other comments\n; yet another comment\r\nadd r0, r0, r1\n";
    let out = pp(t);
    assert_eq!(out.text, t);
    assert_eq!(out.lines.len(), 5);
    assert_eq!(out.lines[4], origin("t.asm", 5));
    // No trailing newline, tabs, apostrophes, lone quotes, block comments.
    let t = "\tvs_3_0 // DarkStarSword's tool\n; ' comment\n; \" comment\nmov r0, v0 /* it's */ // \"x\nmov 0, v0";
    assert_eq!(pp(t).text, t);
    assert_eq!(pp("").lines.len(), 0);
}

#[test]
fn macros_are_not_expanded_in_comments() {
    let t = "#define r0 r1\nmov r0, v0 ; r0\n// r0\nmov r0 /* r0 */, r0 // r0\n/* r0\nr0 */ r0\n";
    let out = pp(t);
    assert_eq!(
        out.text,
        "\nmov r1, v0 ; r0\n// r0\nmov r1 /* r0 */, r1 // r0\n/* r0\nr0 */ r1\n"
    );
}

#[test]
fn directives_inside_block_comments_are_text() {
    let t = "/*\n#define X 1\n*/\nX\n";
    assert_eq!(pp(t).text, t);
    // A block comment opened on a directive line stays open in the output.
    let out = pp("#define X r0 /* a\nX */ X\n");
    assert_eq!(out.text, "/* a\nX */ r0\n");
}

// ---------------------------------------------------------------- #define

#[test]
fn object_like_macro() {
    let out = pp("#define REG r0\nmov REG, v0\nmov REG.x, REG\n");
    assert_eq!(out.text, "\nmov r0, v0\nmov r0.x, r0\n");
    assert_eq!(
        out.lines,
        vec![origin("t.asm", 1), origin("t.asm", 2), origin("t.asm", 3)]
    );
}

#[test]
fn wine_preproc_continuation() {
    // Wine's preproc_test shader 2: the continued #define feeds a relative address.
    let out = pp("#define REG 1 + 2 +\\\n3 + 4\nvs.1.1\nmov r0, c0[ REG ]\n");
    assert_eq!(out.text, "\n\nvs.1.1\nmov r0, c0[ 1 + 2 +3 + 4 ]\n");
    assert_eq!(out.lines[3], origin("t.asm", 4));
}

#[test]
fn continuation_in_text_line() {
    let out = pp("mov r0,\\\n v0\nnop\n");
    assert_eq!(out.text, "mov r0, v0\n\nnop\n");
    assert_eq!(out.lines[2], origin("t.asm", 3));
}

#[test]
fn function_like_macro() {
    let out = pp("#define MAD(d, a, b, c) mad d, a, b, c\nMAD(r0, r1.x, -r2, c0[a0.x + 1])\n");
    assert_eq!(out.text, "\nmad r0, r1.x, -r2, c0[a0.x + 1]\n");
    // Without `(` the name is left alone; `F (x)` in a definition is object-like.
    let out = pp("#define F(x) x\n#define G (y)\nF + G\n");
    assert_eq!(out.text, "\n\nF + (y)\n");
    // Empty arguments and zero parameters.
    let out = pp("#define Z() nop\n#define E(a, b) [a|b]\nZ()\nE(,)\nE( , x )\n");
    assert_eq!(out.text, "\n\nnop\n[|]\n[|x]\n");
    // Nested parentheses and commas inside them.
    let out = pp("#define F(a, b) a|b\nF((1, 2), (3))\n");
    assert_eq!(out.text, "\n(1, 2)|(3)\n");
    // `;` starts a comment in definitions too.
    let out = pp("#define F(a, b) a ; b\nF(1, 2)\n");
    assert_eq!(out.text, "\n1\n");
}

#[test]
fn invocation_across_lines() {
    let out = pp("#define F(a, b) a + b\nF(1,\n  2) x\nF\n(3, 4)\nnop\n");
    assert_eq!(out.text, "\n1 + 2 x\n\n3 + 4\n\nnop\n");
    assert_eq!(out.lines[5], origin("t.asm", 6));
    // A next line that does not start with `(` is left alone.
    let out = pp("#define F(a) a\nF\nmov r0, v0\n");
    assert_eq!(out.text, "\nF\nmov r0, v0\n");
}

#[test]
fn stringize_and_paste() {
    let out = pp(concat!(
        "#define REG(n) r##n\n",
        "#define S(x) #x\n",
        "#define CAT(a, b) a ## b\n",
        "#define V(...) __VA_ARGS__\n",
        "mov REG(0), REG(1)\n",
        "S( a  +  \"q\\n\" )\n",
        "CAT(c, 12).x CAT(, r3) CAT(r4,) CAT(,)|\n",
        "V(1, 2 ,3)\n",
    ));
    assert_eq!(
        out.text,
        "\n\n\n\nmov r0, r1\n\"a + \\\"q\\\\n\\\"\"\nc12.x r3 r4|\n1, 2, 3\n"
    );
}

#[test]
fn recursion_guard() {
    let out = pp("#define A B\n#define B A\nA B\n#define r0 r0.x\nmov r0, v0\n");
    assert_eq!(out.text, "\n\nA B\n\nmov r0.x, v0\n");
    // The example of C99 6.10.3.5 (without `;`, which starts an asm comment).
    let t = concat!(
        "#define x 3\n",
        "#define f(a) f(x * (a))\n",
        "#undef x\n",
        "#define x 2\n",
        "#define g f\n",
        "#define z z[0]\n",
        "#define h g(~\n",
        "#define m(a) a(w)\n",
        "#define w 0,1\n",
        "#define t(a) a\n",
        "#define p() int\n",
        "#define q(x) x\n",
        "#define r(x,y) x ## y\n",
        "#define str(x) # x\n",
        "f(y+1) + f(f(z)) % t(t(g)(0) + t)(1)\n",
        "g(x+(3,4)-w) | h 5) & m\n",
        "(f)^m(m)\n",
        "p() i[q()] = { q(1), r(2,3), r(4,), r(,5), r(,) }\n",
        "char c[2][6] = { str(hello), str() }\n",
    );
    let out = pp(t);
    let lines: Vec<String> = out.text.lines().skip(14).map(squash).collect();
    let want = [
        "f(2 * (y+1)) + f(2 * (f(2 * (z[0])))) % f(2 * (0)) + t(1)",
        "f(2 * (2+(3,4)-0,1)) | f(2 * (~ 5)) & f(2 * (0,1))^m(0,1)",
        "",
        "int i[] = { 1, 23, 4, 5, }",
        "char c[2][6] = { \"hello\", \"\" }",
    ];
    let strip = |s: &str| s.replace(' ', "");
    assert_eq!(lines.len(), want.len());
    for (got, want) in lines.iter().zip(want) {
        assert_eq!(strip(got), strip(want), "{got}");
    }
}

#[test]
fn undef_and_redefine() {
    let out = pp("#define X 1\nX\n#undef X\nX\n#define X 2\nX\n#undef NOT_DEFINED\n");
    assert_eq!(out.text, "\n1\n\nX\n\n2\n\n");
}

#[test]
fn builtin_line_and_file() {
    let out = pp("nop\n__LINE__ __FILE__\n#line 10 \"a\\\\b.vsh\"\n__LINE__ __FILE__\n");
    assert_eq!(out.text, "nop\n2 \"t.asm\"\n\n10 \"a\\\\b.vsh\"\n");
}

// ---------------------------------------------------------------- conditionals

#[test]
fn conditionals() {
    let t = concat!(
        "#define A 2\n",
        "#if A == 2 && defined(A) && defined A && !defined B\n",
        "yes1\n",
        "#else\n",
        "no1\n",
        "#endif\n",
        "#ifdef B\n",
        "no2\n",
        "#elif A > 1\n",
        "yes2\n",
        "#elif 1/0\n",
        "no3\n",
        "#else\n",
        "no4\n",
        "#endif\n",
        "#ifndef B\n",
        "#if 0\n",
        "#bogus directive in a skipped group\n",
        "#if 1/0\n",
        "#endif\n",
        "#else\n",
        "yes3\n",
        "#endif\n",
        "#endif\n",
    );
    let out = pp(t);
    let kept: Vec<&str> = out.text.lines().filter(|l| !l.is_empty()).collect();
    assert_eq!(kept, ["yes1", "yes2", "yes3"]);
    assert_eq!(out.lines.len(), 24);
    assert_eq!(out.text.lines().nth(21), Some("yes3"));
}

#[test]
fn expressions() {
    let cases: &[(&str, bool)] = &[
        ("1 + 2 * 3 == 7", true),
        ("(1 + 2) * 3 == 9", true),
        ("0x1F == 31 && 017 == 15 && 10u == 10UL", true),
        ("-1 < 0", true),
        ("-1 < 0u", false),
        ("~0 == -1", true),
        ("7 / 2 == 3 && -7 / 2 == -3 && -7 % 2 == -1", true),
        ("1 << 4 == 16 && -16 >> 2 == -4", true),
        ("(1 ? 2 : 3) == 2 && (0 ? 2 : 3) == 3", true),
        ("0 && 1 / 0", false),
        ("1 || 1 % 0", true),
        ("1 ? 1 : 1 / 0", true),
        ("UNDEFINED_NAME", false),
        ("UNDEFINED_NAME + 1", true),
        ("(2 > 1) + (1 >= 1) + (1 <= 0) + (3 != 3) == 2", true),
        ("(6 & 3) == 2 && (6 | 3) == 7 && (6 ^ 3) == 5", true),
        ("!0 && !!5 && +1", true),
        ("0x7fffffffffffffff + 1 < 0", true),
        ("18446744073709551615 == -1", true),
        ("(1, 0)", false),
    ];
    for (e, want) in cases {
        let out = pp(&format!("#if {e}\nT\n#else\nF\n#endif\n"));
        let got = out.text.contains('T');
        assert_eq!(got, *want, "#if {e}");
    }
}

// ---------------------------------------------------------------- #line, #pragma

#[test]
fn line_directive() {
    // Wine's preproc_test shader 1.
    let out = pp("#line 1 \"vertex.vsh\"\nvs.1.1\n");
    assert_eq!(out.text, "\nvs.1.1\n");
    assert_eq!(out.lines, vec![origin("t.asm", 1), origin("vertex.vsh", 1)]);
    let out = pp("a\n#line 100\nb\nc\n");
    assert_eq!(out.lines[2], origin("t.asm", 100));
    assert_eq!(out.lines[3], origin("t.asm", 101));
    // Diagnostics use the renumbered position.
    assert_eq!(
        errors("#line 20 \"x.vsh\"\n\n#error here"),
        ["x.vsh:21:1: error: #error here"]
    );
}

#[test]
fn pragma_is_ignored() {
    let out = pp("#pragma warning(disable: 1234)\n#pragma\nnop\n");
    assert_eq!(out.text, "\n\nnop\n");
}

// ---------------------------------------------------------------- #include

/// Wine's testD3DInclude_open, as an include handler.
fn wine_include_handler() -> Options {
    let handler = |name: &str, parent: &str| -> Option<(String, String)> {
        let text = match name {
            "incl.vsh" | "includes/incl.vsh" => "#define REGISTER r0\nvs.1.1\n",
            "incl2.vsh" => "#include \"incl3.vsh\"\n",
            "incl3.vsh" => {
                assert!(
                    parent == "incl2.vsh" || parent == "incl4.vsh",
                    "parent {parent}"
                );
                "vs.1.1\n"
            }
            "incl4.vsh" => "#include <incl3.vsh>\n",
            _ => return None,
        };
        Some((name.to_string(), text.to_string()))
    };
    Options {
        file_name: "t.asm".into(),
        defines: vec![
            ("DEF1".into(), Some("10 + 15".into())),
            ("DEF2".into(), Some("r0".into())),
        ],
        include: Some(Box::new(handler)),
        ..Options::default()
    }
}

#[test]
fn include_with_handler() {
    let o = wine_include_handler();
    let out = pp_with("#include \"incl.vsh\"\nmov REGISTER, v0\n", &o);
    assert_eq!(out.text, "\nvs.1.1\nmov r0, v0\n");
    assert_eq!(
        out.lines,
        vec![
            origin("incl.vsh", 1),
            origin("incl.vsh", 2),
            origin("t.asm", 2)
        ]
    );
    let out = pp_with("#include \"incl2.vsh\"\nmov r0, v0\n", &o);
    assert_eq!(out.text, "vs.1.1\nmov r0, v0\n");
    assert_eq!(out.lines[0], origin("incl3.vsh", 1));
    assert_eq!(
        errors_with("nop\n  #include \"missing.vsh\" // x\n", &o),
        ["t.asm:2:12: error: cannot open include file \"missing.vsh\""]
    );
}

#[test]
fn include_of_file_without_final_newline() {
    let handler = |_: &str, _: &str| Some(("a.inc".to_string(), "nop".to_string()));
    let o = Options {
        include: Some(Box::new(handler)),
        ..opts()
    };
    let out = pp_with("#include \"a.inc\"\nmov r0, v0\n", &o);
    assert_eq!(out.text, "nop\nmov r0, v0\n");
}

#[test]
fn include_from_file_system() {
    let dir = std::env::temp_dir().join(format!("d3dbc-pp-{}", std::process::id()));
    let sub = dir.join("sub");
    let sys = dir.join("sys");
    std::fs::create_dir_all(&sub).unwrap();
    std::fs::create_dir_all(&sys).unwrap();
    std::fs::write(sub.join("a.inc"), "#include \"b.inc\"\n").unwrap();
    std::fs::write(sub.join("b.inc"), "#pragma once\nmov r1, v1\n").unwrap();
    std::fs::write(sys.join("c.inc"), "#define C c7\n").unwrap();
    std::fs::write(dir.join("only_local.inc"), "nop\n").unwrap();
    let main = dir.join("main.vsh");
    let o = Options {
        file_name: main.to_string_lossy().into_owned(),
        include_dirs: vec![sys.clone()],
        ..Options::default()
    };
    let out = pp_with(
        "#include \"sub/a.inc\"\n#include \"sub/b.inc\"\n#include <c.inc>\n#include \"c.inc\"\nmov r0, C\n",
        &o,
    );
    assert_eq!(out.text, "\nmov r1, v1\n\n\nmov r0, c7\n");
    // Backslash separators (Windows listings) resolve too.
    let out = pp_with("#include \"sub\\a.inc\"\n", &o);
    assert_eq!(out.text, "\nmov r1, v1\n");
    let b = sub.join("b.inc").to_string_lossy().into_owned();
    assert_eq!(out.lines[1], origin(&b, 2));
    // `<…>` does not search the including file's directory.
    let e = errors_with("#include <only_local.inc>\n", &o);
    assert_eq!(
        e,
        [format!(
            "{}:1:10: error: cannot open include file \"only_local.inc\"",
            main.to_string_lossy()
        )]
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn computed_include() {
    let o = wine_include_handler();
    let out = pp_with("#define F \"incl.vsh\"\n#include F\nmov REGISTER, v0\n", &o);
    assert_eq!(out.text, "\n\nvs.1.1\nmov r0, v0\n");
}

#[test]
fn command_line_defines() {
    let mut o = wine_include_handler();
    o.defines.push(("ONE".into(), None));
    o.defines.push(("SQ(x)".into(), Some("x * x".into())));
    let out = pp_with(
        "mov DEF2, v0\n#if DEF1 == 25 && ONE && SQ(3) == 9\nok\n#endif\n",
        &o,
    );
    assert_eq!(out.text, "mov r0, v0\n\nok\n\n");
    o.defines.push(("1BAD".into(), None));
    assert_eq!(
        errors_with("nop\n", &o),
        ["<command line>:5:9: error: macro names must be identifiers"]
    );
}

// ---------------------------------------------------------------- errors

#[test]
fn error_directive() {
    assert_eq!(
        errors("nop\n#error stop  here \nnop\n"),
        ["t.asm:2:1: error: #error stop  here"]
    );
    assert_eq!(errors("  # error\n"), ["t.asm:1:3: error: #error"]);
}

#[test]
fn directive_errors() {
    let cases: &[(&str, &str)] = &[
        (
            "#foo bar\n",
            "t.asm:1:1: error: invalid preprocessing directive #foo",
        ),
        (
            "#5\n",
            "t.asm:1:1: error: invalid preprocessing directive #5",
        ),
        ("#endif\n", "t.asm:1:1: error: #endif without #if"),
        ("#else\n", "t.asm:1:1: error: #else without #if"),
        ("#elif 1\n", "t.asm:1:1: error: #elif without #if"),
        (
            "#if 1\n#else\n#else\n#endif\n",
            "t.asm:3:1: error: #else after #else",
        ),
        (
            "#if 1\n#else\n#elif 1\n#endif\n",
            "t.asm:3:1: error: #elif after #else",
        ),
        ("nop\n  #if 1\nnop\n", "t.asm:2:3: error: unterminated #if"),
        ("#ifdef X\n", "t.asm:1:1: error: unterminated #ifdef"),
        (
            "#ifdef\n#endif\n",
            "t.asm:1:1: error: no macro name given in #ifdef directive",
        ),
        (
            "#ifndef 3\n#endif\n",
            "t.asm:1:9: error: macro names must be identifiers",
        ),
        (
            "#define\n",
            "t.asm:1:1: error: no macro name given in #define directive",
        ),
        (
            "#define 3 x\n",
            "t.asm:1:9: error: macro names must be identifiers",
        ),
        (
            "#define defined\n",
            "t.asm:1:9: error: \"defined\" cannot be used as a macro name",
        ),
        (
            "#define F(a, a) a\n",
            "t.asm:1:14: error: duplicate macro parameter \"a\"",
        ),
        (
            "#define F(a\n",
            "t.asm:1:11: error: missing ')' in macro parameter list",
        ),
        (
            "#define F(a b) a\n",
            "t.asm:1:13: error: expected ',' or ')' in macro parameter list, found \"b\"",
        ),
        (
            "#define F(1) a\n",
            "t.asm:1:11: error: expected parameter name, found \"1\"",
        ),
        (
            "#define F(a) #b\n",
            "t.asm:1:14: error: '#' is not followed by a macro parameter",
        ),
        (
            "#define F(a) ## a\n",
            "t.asm:1:14: error: '##' cannot appear at either end of a macro expansion",
        ),
        (
            "#define F a ##\n",
            "t.asm:1:13: error: '##' cannot appear at either end of a macro expansion",
        ),
        (
            "#undef\n",
            "t.asm:1:1: error: no macro name given in #undef directive",
        ),
        (
            "#include\n",
            "t.asm:1:1: error: #include expects \"FILENAME\" or <FILENAME>",
        ),
        (
            "#include foo\n",
            "t.asm:1:1: error: #include expects \"FILENAME\" or <FILENAME>",
        ),
        (
            "#include \"\"\n",
            "t.asm:1:10: error: empty filename in #include",
        ),
        (
            "#line x\n",
            "t.asm:1:7: error: \"x\" after #line is not a positive integer",
        ),
        (
            "#line 5 x\n",
            "t.asm:1:9: error: invalid filename \"x\" in #line",
        ),
        (
            "#line\n",
            "t.asm:1:1: error: #line directive requires a line number",
        ),
    ];
    for (text, want) in cases {
        assert_eq!(errors(text), [*want], "{text:?}");
    }
}

#[test]
fn expression_errors() {
    let cases: &[(&str, &str)] = &[
        (
            "#if 1 / 0\n#endif\n",
            "t.asm:1:7: error: division by zero in #if",
        ),
        (
            "#if 1 % (2 - 2)\n#endif\n",
            "t.asm:1:7: error: division by zero in #if",
        ),
        (
            "#if 0\n#elif 4/0\n#endif\n",
            "t.asm:2:8: error: division by zero in #if",
        ),
        ("#if\n#endif\n", "t.asm:1:1: error: #if with no expression"),
        (
            "#if 0\n#elif\n#endif\n",
            "t.asm:2:1: error: #elif with no expression",
        ),
        (
            "#if (1\n#endif\n",
            "t.asm:1:5: error: missing ')' in expression",
        ),
        (
            "#if 1)\n#endif\n",
            "t.asm:1:6: error: missing '(' in expression",
        ),
        (
            "#if ()\n#endif\n",
            "t.asm:1:5: error: missing expression between '(' and ')'",
        ),
        (
            "#if 1 2\n#endif\n",
            "t.asm:1:7: error: missing binary operator before token \"2\"",
        ),
        (
            "#if 1 +\n#endif\n",
            "t.asm:1:7: error: operator '+' has no right operand",
        ),
        (
            "#if * 1\n#endif\n",
            "t.asm:1:5: error: operator '*' has no left operand",
        ),
        (
            "#if 1 ? 2\n#endif\n",
            "t.asm:1:7: error: '?' without following ':'",
        ),
        (
            "#if 1 : 2\n#endif\n",
            "t.asm:1:7: error: ':' without preceding '?'",
        ),
        (
            "#if 1.5\n#endif\n",
            "t.asm:1:5: error: floating constant in preprocessor expression",
        ),
        (
            "#if 08\n#endif\n",
            "t.asm:1:5: error: invalid digit \"8\" in octal constant",
        ),
        (
            "#if 12abc\n#endif\n",
            "t.asm:1:5: error: invalid suffix \"abc\" on integer constant",
        ),
        (
            "#if 99999999999999999999\n#endif\n",
            "t.asm:1:5: error: integer constant is too large for its type",
        ),
        (
            "#if \"s\"\n#endif\n",
            "t.asm:1:5: error: token \"\"s\"\" is not valid in preprocessor expressions",
        ),
        (
            "#if defined\n#endif\n",
            "t.asm:1:5: error: operator \"defined\" requires an identifier",
        ),
        (
            "#if defined(X\n#endif\n",
            "t.asm:1:13: error: missing ')' after \"defined\"",
        ),
    ];
    for (text, want) in cases {
        assert_eq!(errors(text), [*want], "{text:?}");
    }
}

#[test]
fn expansion_errors() {
    assert_eq!(
        errors("#define F(a, b) a\nmov F(1), r0\n"),
        ["t.asm:2:5: error: macro \"F\" requires 2 arguments, but only 1 given"]
    );
    assert_eq!(
        errors("#define F(a) a\nmov F(1, 2), r0\n"),
        ["t.asm:2:5: error: macro \"F\" passed 2 arguments, but takes just 1"]
    );
    assert_eq!(
        errors("#define F(a) a\nmov F(1, r0\n"),
        ["t.asm:2:5: error: unterminated argument list invoking macro \"F\""]
    );
    // Stops at a directive line.
    assert_eq!(
        errors("#define F(a) a\nF(1,\n#define X\n)\n"),
        ["t.asm:2:1: error: unterminated argument list invoking macro \"F\""]
    );
}

#[test]
fn diagnostics_show_the_source_line_and_caret() {
    let e = preprocess("nop\n\t#if 2 / 0\n#endif\n", &opts()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "t.asm:2:8: error: division by zero in #if\n   #if 2 / 0\n         ^"
    );
    // Columns count characters, and continuation lines are located on their own line.
    let e = errors("#if 1 + \\\n  (2 / 0)\n#endif\n");
    assert_eq!(e, ["t.asm:2:6: error: division by zero in #if"]);
    let e = errors("// é\n#define é 1\n");
    assert_eq!(e, ["t.asm:2:9: error: macro names must be identifiers"]);
}

#[test]
fn several_errors_are_reported() {
    let e = errors("#error one\n#foo\n#error two\n");
    assert_eq!(
        e,
        [
            "t.asm:1:1: error: #error one",
            "t.asm:2:1: error: invalid preprocessing directive #foo",
            "t.asm:3:1: error: #error two",
        ]
    );
    // Bounded.
    let many = "#foo\n".repeat(10_000);
    assert_eq!(errors(&many).len(), 100);
}

// ---------------------------------------------------------------- limits

fn assert_fast(start: Instant) {
    assert!(
        start.elapsed() < Duration::from_secs(20),
        "took {:?}",
        start.elapsed()
    );
}

#[test]
fn exponential_macro_is_an_error() {
    let mut t = String::from("#define A0 x x\n");
    for i in 1..64 {
        t.push_str(&format!("#define A{i} A{} A{}\n", i - 1, i - 1));
    }
    t.push_str("A63\n");
    let start = Instant::now();
    let e = errors(&t);
    assert_fast(start);
    assert_eq!(
        e,
        ["t.asm:65:1: error: macro expansion too large (more than 65536 tokens)"]
    );
}

#[test]
fn exponential_arguments_are_an_error() {
    let mut t = String::from("#define D(x) x x\n");
    t.push_str(&"D(".repeat(60));
    t.push('1');
    t.push_str(&")".repeat(60));
    t.push('\n');
    let start = Instant::now();
    let e = errors(&t);
    assert_fast(start);
    assert_eq!(e.len(), 1);
    assert!(e[0].starts_with("t.asm:2:"), "{e:?}");
    assert!(e[0].contains("macro expansion too large"), "{e:?}");
}

#[test]
fn many_lines_of_costly_expansion_hit_the_work_limit() {
    let mut t = String::from("#define A0 x x x x x x x x\n");
    for i in 1..5 {
        t.push_str(&format!(
            "#define A{i} A{0} A{0} A{0} A{0} A{0} A{0} A{0} A{0}\n",
            i - 1
        ));
    }
    // Each line expands to 32768 tokens; 5000 lines exceed the global budget.
    t.push_str(&"A4\n".repeat(5000));
    let start = Instant::now();
    let e = errors(&t);
    assert_fast(start);
    assert_eq!(e.len(), 1);
    assert!(e[0].contains("work limit"), "{e:?}");
}

#[test]
fn deep_nesting_is_an_error_not_a_crash() {
    let deep_args = format!(
        "#define F(x) x\n{}1{}\n",
        "F(".repeat(5000),
        ")".repeat(5000)
    );
    let e = errors(&deep_args);
    // Located at the invocation that is one level too deep.
    assert_eq!(
        e,
        ["t.asm:2:401: error: macro invocations nested too deeply"]
    );
    let deep_parens = format!(
        "#if {}1{}\n#endif\n",
        "(".repeat(100_000),
        ")".repeat(100_000)
    );
    let e = errors(&deep_parens);
    assert_eq!(e.len(), 1);
    assert!(
        e[0].ends_with("error: expression nested too deeply"),
        "{e:?}"
    );
    let deep_unary = format!("#if {}1\n#endif\n", "-".repeat(100_000));
    assert!(errors(&deep_unary)[0].ends_with("error: expression nested too deeply"));
}

#[test]
fn recursive_include_stops() {
    let handler = |name: &str, _: &str| {
        Some((
            name.to_string(),
            format!("nop\n#include \"{name}\"\n#include \"{name}\"\n"),
        ))
    };
    let o = Options {
        include: Some(Box::new(handler)),
        ..opts()
    };
    let start = Instant::now();
    let e = errors_with("#include \"self.inc\"\n", &o);
    assert_fast(start);
    assert_eq!(
        e,
        ["self.inc:2:1: error: #include nested too deeply (more than 64 levels)"]
    );
}

#[test]
fn include_fan_out_is_bounded() {
    // Each file includes the next one twice, guarded only by depth: 2^30 inclusions.
    let handler = |name: &str, _: &str| {
        let n: u32 = name.trim_end_matches(".inc").parse().unwrap();
        let body = if n < 30 {
            format!("#include \"{0}.inc\"\n#include \"{0}.inc\"\n", n + 1)
        } else {
            "nop\n".to_string()
        };
        Some((name.to_string(), body))
    };
    let o = Options {
        include: Some(Box::new(handler)),
        ..opts()
    };
    let start = Instant::now();
    let e = errors_with("#include \"0.inc\"\n", &o);
    assert_fast(start);
    assert_eq!(e.len(), 1);
    assert!(
        e[0].ends_with("error: too many #include directives (more than 4096)"),
        "{e:?}"
    );
}

// ---------------------------------------------------------------- corpus

/// Wine's asm.c preprocessor cases (group `preproc`, and the API snippets that need
/// Wine's defines and include handler): each preprocesses to the code the assembler
/// must see. (`incl2.vsh`/`incl4.vsh` do not define `REGISTER`: Wine only runs
/// D3DPreprocess on those.)
#[test]
fn wine_preprocessor_records() {
    let Some(recs) = common::records("wine_asm.jsonl") else {
        return;
    };
    let want: &[(&str, &[&str])] = &[
        ("vs.1.1\r\n//some comments", &["vs.1.1", "add r0, r0, r1"]),
        ("#line 1 \"vertex.vsh\"", &["vs.1.1"]),
        ("#define REG", &["vs.1.1", "mov r0, c0[ 1 + 2 +3 + 4 ]"]),
        ("vs.1.1\nmov DEF2", &["vs.1.1", "mov r0, v0"]),
        ("vs.1.1\n; ' comment", &["vs.1.1", "mov 0, v0"]),
        ("#include \"incl.vsh\"", &["vs.1.1", "mov r0, v0"]),
        ("#include \"incl2.vsh\"", &["vs.1.1", "mov REGISTER, v0"]),
        ("#include <incl.vsh>", &["vs.1.1", "mov r0, v0"]),
        ("#include <incl4.vsh>", &["vs.1.1", "mov REGISTER, v0"]),
        ("#include \"includes/incl.vsh\"", &["vs.1.1", "mov r0, v0"]),
    ];
    let o = wine_include_handler();
    let mut checked = 0;
    let mut failures = Vec::new();
    for r in &recs {
        let group = r["group"].as_str().unwrap_or("");
        let api = r.get("expected").is_none_or(|e| e.is_null()) && r["expect_fail"] != true;
        if group != "preproc" && !api {
            continue;
        }
        checked += 1;
        let text = r["text"].as_str().unwrap();
        let Some((_, expected)) = want.iter().find(|(p, _)| text.starts_with(p)) else {
            failures.push(format!("{}: no expectation for {text:?}", common::label(r)));
            continue;
        };
        match preprocess(text, &o) {
            Ok(out) => {
                let code: Vec<&str> = out
                    .text
                    .lines()
                    .map(|l| {
                        l.split(';')
                            .next()
                            .unwrap()
                            .split("//")
                            .next()
                            .unwrap()
                            .trim()
                    })
                    .filter(|l| !l.is_empty())
                    .collect();
                if code != *expected {
                    failures.push(format!("{}: {code:?}", common::label(r)));
                }
            }
            Err(e) => failures.push(format!("{}: {e}", common::label(r))),
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
    assert_eq!(checked, 12, "3 preproc records + 9 API snippets");
}

/// Every Wine record without directives passes through unchanged, and the rest
/// preprocess without errors.
#[test]
fn wine_records_pass_through() {
    let Some(recs) = common::records("wine_asm.jsonl") else {
        return;
    };
    let o = wine_include_handler();
    let (mut same, mut with_directives) = (0, 0);
    for r in &recs {
        let text = r["text"].as_str().unwrap();
        let out = preprocess(text, &o).unwrap_or_else(|e| panic!("{}: {e}", common::label(r)));
        if text.lines().any(|l| l.trim_start().starts_with('#')) {
            with_directives += 1;
        } else if !text.contains("DEF") && !text.contains("REGISTER") {
            assert_eq!(out.text, text, "{}", common::label(r));
            same += 1;
        }
    }
    assert_eq!(with_directives, 8);
    assert_eq!(same + with_directives + 2, recs.len());
}

/// Real listings (hand-edited game shaders and Microsoft's own output) pass through the
/// preprocessor unchanged, with a true line map.
#[test]
fn corpus_listings_pass_through_unchanged() {
    for file in ["helix_asm.jsonl", "oblivion_disasm.jsonl"] {
        let Some(recs) = common::records(file) else {
            return;
        };
        let mut same = 0;
        let mut failures = Vec::new();
        for r in &recs {
            let text = r["text"].as_str().unwrap();
            let o = Options {
                file_name: "s.asm".into(),
                ..Options::default()
            };
            match preprocess(text, &o) {
                Ok(out) => {
                    let n = text.lines().count();
                    let map_ok = out.lines.len() == n
                        && out
                            .lines
                            .iter()
                            .enumerate()
                            .all(|(i, l)| l.line as usize == i + 1);
                    if out.text == text && map_ok {
                        same += 1;
                    } else {
                        failures.push(common::label(r));
                    }
                }
                Err(e) => failures.push(format!("{}: {e}", common::label(r))),
            }
        }
        eprintln!("{file}: {same}/{} unchanged", recs.len());
        assert!(
            failures.is_empty(),
            "{file}: {} changed: {:#?}",
            failures.len(),
            &failures[..failures.len().min(10)]
        );
        assert_eq!(same, recs.len());
    }
}

#[test]
fn huge_tokens_hit_the_output_limit() {
    // 64 KiB tokens, 2^13 of them per line: 512 MiB if nothing stopped it.
    let big = "x".repeat(1 << 16);
    let mut t = format!("#define A0 {big} {big}\n");
    for i in 1..13 {
        t.push_str(&format!("#define A{i} A{0} A{0}\n", i - 1));
    }
    t.push_str("A12\n");
    let start = Instant::now();
    let e = errors(&t);
    assert_fast(start);
    assert_eq!(
        e,
        ["t.asm:14:1: error: preprocessed output exceeds 67108864 bytes"]
    );
}

#[test]
fn empty_include_and_line_map() {
    let handler = |name: &str, _: &str| Some((name.to_string(), String::new()));
    let o = Options {
        include: Some(Box::new(handler)),
        ..opts()
    };
    let out = pp_with("nop\n#include \"empty\"\nmov r0, v0\n", &o);
    assert_eq!(out.text, "nop\nmov r0, v0\n");
    assert_eq!(out.lines, vec![origin("t.asm", 1), origin("t.asm", 3)]);
    // Conditionals must close in the file that opens them.
    let handler = |name: &str, _: &str| Some((name.to_string(), "#if 1\n".to_string()));
    let o = Options {
        include: Some(Box::new(handler)),
        ..opts()
    };
    assert_eq!(
        errors_with("#include \"open.inc\"\n#endif\n", &o),
        [
            "open.inc:1:1: error: unterminated #if",
            "t.asm:2:1: error: #endif without #if"
        ]
    );
}

#[test]
fn options_debug() {
    let o = wine_include_handler();
    let d = format!("{o:?}");
    assert!(d.contains("DEF1") && d.contains("<handler>"), "{d}");
}

mod fuzz {
    use super::*;
    use proptest::prelude::*;

    const PIECES: &[&str] = &[
        "#define ",
        "#undef ",
        "#if ",
        "#ifdef ",
        "#elif ",
        "#else",
        "#endif",
        "#include ",
        "#line ",
        "#error ",
        "#pragma ",
        "# ",
        "A",
        "B",
        "F",
        "(",
        ")",
        ",",
        "##",
        "#",
        "\"",
        "'",
        "<",
        ">",
        "x.inc",
        "1",
        "0x",
        "/",
        "*",
        "/*",
        "*/",
        "//",
        ";",
        "\\",
        "\n",
        "\r\n",
        " ",
        "\t",
        "defined",
        "?",
        ":",
        "-",
        "&&",
        "||",
        "...",
        "__VA_ARGS__",
        "é",
        "r0",
    ];

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]
        /// Arbitrary fragments never panic, and a success has a complete line map.
        #[test]
        fn never_panics(idx in proptest::collection::vec(0..PIECES.len(), 0..60)) {
            let text: String = idx.iter().map(|&i| PIECES[i]).collect();
            let handler = |name: &str, _: &str| {
                Some((name.to_string(), "#define A F(\n#if 1\nr0 A\n#endif\n".to_string()))
            };
            let o = Options { include: Some(Box::new(handler)), ..opts() };
            match preprocess(&text, &o) {
                Ok(out) => prop_assert_eq!(out.lines.len(), out.text.lines().count()),
                Err(e) => prop_assert!(!e.0.is_empty()),
            }
        }
    }
}

/// The pass-through fast path (no defines, no `#`, `\`, `__`) must give exactly what
/// the full preprocessor gives. A predefined macro nobody uses forces the full run.
#[test]
fn fast_path_agrees_with_the_full_run() {
    let mut compared = 0;
    for file in ["helix_asm.jsonl", "oblivion_disasm.jsonl", "wine_asm.jsonl"] {
        let Some(recs) = common::records(file) else {
            return;
        };
        for r in &recs {
            let text = r["text"].as_str().unwrap();
            let fast = preprocess(
                text,
                &Options {
                    file_name: "t.asm".into(),
                    ..Default::default()
                },
            );
            let full = preprocess(
                text,
                &Options {
                    file_name: "t.asm".into(),
                    defines: vec![("D3DBC_UNUSED_PROBE_MACRO".into(), None)],
                    ..Default::default()
                },
            );
            match (fast, full) {
                (Ok(a), Ok(b)) => assert_eq!(a, b, "{}", common::label(r)),
                (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string()),
                (a, b) => panic!(
                    "{}: fast {:?} vs full {:?}",
                    common::label(r),
                    a.is_ok(),
                    b.is_ok()
                ),
            }
            compared += 1;
        }
    }
    // Edge cases of line structure.
    for text in [
        "",
        "\n",
        "a",
        "a\n",
        "a\r\nb",
        "a\r\n\r\n",
        "a\n\nb\n\n",
        "x\ry\n",
        "mov r0, v0 // c'mt\n",
    ] {
        let fast = preprocess(
            text,
            &Options {
                file_name: "t.asm".into(),
                ..Default::default()
            },
        )
        .unwrap();
        let full = preprocess(
            text,
            &Options {
                file_name: "t.asm".into(),
                defines: vec![("UNUSED_PROBE".into(), None)],
                ..Default::default()
            },
        )
        .unwrap();
        assert_eq!(fast, full, "{text:?}");
    }
    eprintln!("fast path agrees with the full preprocessor on {compared} corpus texts");
    assert!(compared > 4000);
}
