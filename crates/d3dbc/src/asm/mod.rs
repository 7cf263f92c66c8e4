//! The assembler: Microsoft's assembly text → IR → the exact bytes Microsoft's assembler
//! (D3DXAssembleShader / D3DAssemble / vsa / psa) produces. The preprocessor runs first.
//!
//! [`parse`] turns (preprocessed) text into an [`Assembled`]: the [`Shader`] plus, for
//! every item, where it came from ([`ItemSource`]), so that later checks (the validator)
//! can report findings at `file:line:col`. [`assemble`] is the one-call entry point.
//!
//! Implicit rules of Microsoft's assembler, as the Windows-verified oracle shows them:
//! - a destination without a mask gets the full mask `.xyzw`, whatever the register
//!   (`oFog`, `oPts`, `a0`, samplers in `dcl`);
//! - a source without a swizzle gets `.xyzw`; a swizzle of 1–3 components repeats its
//!   last component (`.x` → `.xxxx`, `.xy` → `.xyyy`); `rgba` and `xyzw` letters mix;
//! - a relative address token (SM2+) carries the address register's swizzle the same
//!   way (`a0.y` → `.yyyy`, bare `a0`/`aL` → `.xyzw`); in vs_1_x the address is implicit
//!   (`a0.x` only) and only the operand's relative bit is set;
//! - `c4[2]`, `c[2 + 10 + 12]` fold to a plain register; `c[a0.x + 5]`, `c5[a0.x]`,
//!   `c[5 + a0.x]` are the same operand (offsets add up, `-` is rejected);
//! - SM1 instruction tokens carry no length; SM2+ ones carry the operand DWORD count;
//! - a predicate `(p0)`/`(!p0.x)` sets bit 28 and its source token goes right after the
//!   destination, before the sources;
//! - no comment tokens are emitted;
//! - `dcl` in ps_2_x without a usage gives the token `0x80000000`; `dcl s#` in a pixel
//!   shader without a texture type gives type 0; `dcl_pp`/`dcl_centroid` set the
//!   destination's result-modifier bits;
//! - `sub` stays `D3DSIO_SUB` only in ps_1_x; in vertex shaders and ps_2_0+ it is written
//!   as `add` with the second source's negation toggled (`sub r0, r1, r2` →
//!   `add r0, r1, -r2`);
//! - `texldp`/`texldb` are `texld` with controls 1/2; `if_gt`, `break_ne` select the
//!   comparison opcodes; `setp_xx` carries the comparison in the controls.

pub mod ctab_header;
pub mod preprocess;

mod parser;
mod regs;

use crate::diag::{Diagnostic, Diagnostics};
use crate::ir::Shader;

/// Assembler settings.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// File name used in diagnostics.
    pub file_name: String,
    /// `-D NAME[=VALUE]` predefined macros.
    pub defines: Vec<(String, Option<String>)>,
    /// `-I DIR` include directories, searched after the including file's directory.
    pub include_dirs: Vec<std::path::PathBuf>,
    /// Skip the validator: D3DAssemble's `D3DCOMPILE_SKIP_VALIDATION` (`asm
    /// --no-validate`). The assembler's own grammar still holds, as it does for
    /// Microsoft's: which register files, modifiers, `dcl` forms and instructions exist
    /// in the version (see [`crate::opcode::modifiers`], [`crate::regs::file`],
    /// [`crate::opcode::Opcode::is_legal`]). `vs_1_1 mov r0, s0` or `ps_3_0 add_x4 r0,
    /// r0, r1` are errors here too.
    pub no_validate: bool,
    /// Raw mode (`asm --raw`): accept whatever the token format can encode, even where
    /// the version's grammar lacks it (`r36` in vs_2_0, co-issue in ps_3_0, `_x4` in
    /// vs_2_0), and skip the validator, so that everything the printer writes
    /// reassembles to the same tokens — runtime-invalid streams included. Not what
    /// Microsoft's assembler accepts; one more difference follows: outside ps_1_x, `sub`
    /// stays a `sub` token instead of becoming `add` with the second source negated.
    pub raw: bool,
}

/// A column range within one source line (1-based column, length in characters).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Span {
    /// 1-based column.
    pub col: u32,
    /// Length in characters (at least 1).
    pub len: u32,
}

/// Where one item of the assembled shader came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ItemSource {
    /// Index into [`Assembled::files`].
    pub file: u32,
    /// 1-based line in that file.
    pub line: u32,
    /// 0-based line in the parsed (preprocessed) text.
    pub text_line: u32,
    /// The instruction name with its modifiers.
    pub mnemonic: Span,
    /// The predicate `(p0)`, if any.
    pub predicate: Option<Span>,
    /// Operands in source order: the destination first (when the instruction has one),
    /// then `def` values, then sources.
    pub operands: [Span; 6],
    /// Number of meaningful entries of `operands`.
    pub operand_count: u8,
}

/// The result of parsing: the shader and the source of each of its items.
#[derive(Clone, Debug)]
pub struct Assembled {
    /// The shader.
    pub shader: Shader,
    /// One entry per `shader.items` entry, same order.
    pub sources: Vec<ItemSource>,
    /// File names referred to by [`ItemSource::file`].
    pub files: Vec<String>,
    /// The parsed text (for source lines in diagnostics).
    text: String,
}

impl Assembled {
    /// The file name of an item's source.
    pub fn file(&self, src: &ItemSource) -> &str {
        self.files
            .get(src.file as usize)
            .map(String::as_str)
            .unwrap_or("")
    }

    /// The source line an item came from.
    pub fn source_line(&self, src: &ItemSource) -> &str {
        let line = self
            .text
            .split('\n')
            .nth(src.text_line as usize)
            .unwrap_or("");
        line.strip_suffix('\r').unwrap_or(line)
    }

    /// An error diagnostic located at item `item`: at operand `operand` (index into
    /// [`ItemSource::operands`]) when given, else at the instruction name.
    pub fn error_at(
        &self,
        item: usize,
        operand: Option<usize>,
        message: impl Into<String>,
    ) -> Diagnostic {
        let Some(src) = self.sources.get(item) else {
            return Diagnostic::error("", 0, 0, 1, message, "");
        };
        let sp = operand
            .filter(|&i| i < src.operand_count as usize)
            .map_or(src.mnemonic, |i| src.operands[i]);
        Diagnostic::error(
            self.file(src),
            src.line,
            sp.col,
            sp.len,
            message,
            self.source_line(src),
        )
    }
}

/// Parses already-preprocessed assembly text. Diagnostics name `file_name` and the
/// text's own line numbers.
pub fn parse(text: &str, file_name: &str) -> Result<Assembled, Diagnostics> {
    parser::Parser::new(text).run(file_name, &|_| None)
}

/// Parses preprocessed text whose lines come from elsewhere: `origin(i)` gives the file
/// and 1-based line of 0-based text line `i` (the preprocessor's line map); lines it
/// returns `None` for are attributed to `file_name`, line `i + 1`.
pub fn parse_mapped<'m>(
    text: &str,
    file_name: &str,
    origin: &dyn Fn(usize) -> Option<(&'m str, u32)>,
) -> Result<Assembled, Diagnostics> {
    parser::Parser::new(text).run(file_name, origin)
}

/// Preprocesses and parses text, keeping each item's source location.
pub fn assemble_with_sources(text: &str, options: &Options) -> Result<Assembled, Diagnostics> {
    let name = if options.file_name.is_empty() {
        "<input>"
    } else {
        options.file_name.as_str()
    };
    let pp = preprocess::preprocess(
        text,
        &preprocess::Options {
            file_name: name.to_string(),
            defines: options.defines.clone(),
            include_dirs: options.include_dirs.clone(),
            include: None,
        },
    )?;
    let assembled = parser::Parser::new(&pp.text)
        .raw(options.raw)
        .run(name, &|i| pp.lines.get(i).map(|o| (&*o.file, o.line)))?;
    if options.no_validate || options.raw {
        return Ok(assembled);
    }
    // The runtime's rules, reported at the instruction that breaks them.
    let diags: Vec<Diagnostic> = crate::validate::validate(&assembled.shader)
        .into_iter()
        .filter(|f| f.severity == crate::diag::Severity::Error)
        .map(|f| {
            let mut d = assembled.error_at(f.item, f.operand, f.message);
            d.code = Some(f.code);
            d
        })
        .collect();
    if diags.is_empty() {
        Ok(assembled)
    } else {
        Err(Diagnostics(diags))
    }
}

/// Assembles text into a shader: preprocess, parse, encode-ready IR.
///
/// It **validates by default**: a shader the D3D9 runtime would reject is an error at
/// the offending line, like a compiler's. `Options { no_validate: true, .. }` skips
/// that (D3DAssemble's `SKIP_VALIDATION`; the assembler's grammar still applies);
/// `raw: true` takes back whatever `dis` prints. The constant table is not part of the text's instructions: see
/// [`ctab_header`] to rebuild it from a listing's header.
///
/// ```
/// use d3dbc::asm::{assemble, Options};
/// let shader = assemble("vs_2_0\ndcl_position v0\nmov oPos, v0\n", &Options::default()).unwrap();
/// assert_eq!(shader.encode()[4..], [0x02000001, 0xc00f0000, 0x90e40000, 0x0000ffff]);
///
/// // r5 is read before it is written: the validator refuses, at the operand's line:column.
/// let err = assemble("ps_2_0\nmov oC0, r5\n", &Options::default()).unwrap_err();
/// assert!(err.to_string().starts_with("<input>:2:10: error[E0204]"));
/// let opts = Options { no_validate: true, ..Default::default() };
/// assert!(assemble("ps_2_0\nmov oC0, r5\n", &opts).is_ok());
///
/// // Skipping validation does not skip the grammar: vs_1_1 has no `s#`...
/// let e = assemble("vs_1_1\nmov r0, s0\n", &opts).unwrap_err();
/// assert!(e.to_string().starts_with("<input>:2:9: error"));
/// // ...but raw mode encodes it (register type 10 in a vs_1_1 stream).
/// let raw = Options { raw: true, ..Default::default() };
/// assert_eq!(assemble("vs_1_1\nmov r0, s0\n", &raw).unwrap().encode()[2..4], [0x800f0000, 0xa0e40800]);
/// ```
pub fn assemble(text: &str, options: &Options) -> Result<Shader, Diagnostics> {
    assemble_with_sources(text, options).map(|a| a.shader)
}

/// One shader listing inside a text that may hold several: a Unity "level 9" dump holds
/// an SM2 listing followed by a `vs_4_0`/`ps_4_0` one, and a dump tool may write a
/// vertex and a pixel listing into one file. See [`listings`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Listing {
    /// 0-based lines of the text this listing covers: the comments and blank lines just
    /// before its version statement (its constant-table header) through the line before
    /// the next listing's.
    pub lines: std::ops::Range<usize>,
    /// 0-based line of its version statement.
    pub version_line: usize,
    /// The version statement as written (`vs_2_0`, `ps_4_0`).
    pub version: String,
    /// Shader model 1–3, which d3dbc assembles; `false` for a later model.
    pub d3d9: bool,
}

impl Listing {
    /// `text` with every line outside this listing emptied: line and column numbers of
    /// diagnostics stay those of the whole text, and only this listing's header is read
    /// by [`ctab_header::ctab_from_listing`].
    pub fn isolate(&self, text: &str) -> String {
        let mut out = String::with_capacity(text.len());
        for (i, line) in text.split('\n').enumerate() {
            if i > 0 {
                out.push('\n');
            }
            if self.lines.contains(&i) {
                out.push_str(line);
            }
        }
        out
    }
}

/// Splits assembly text into its listings, one per version statement (of any shader
/// model: later ones are named so that a caller can skip them, as `asm --all` does).
/// Text without a version statement has no listings. Splitting is by lines, before
/// preprocessing: a `#define` in one listing is not seen by the next.
///
/// ```
/// use d3dbc::asm::listings;
/// let text = "// dump\nvs_2_0\nmov oPos, c0\n\n// the D3D11 part\nvs_4_0\nret\n";
/// let found = listings(text);
/// assert_eq!(found.len(), 2);
/// assert_eq!((found[0].version.as_str(), found[0].d3d9, found[0].lines.clone()), ("vs_2_0", true, 0..3));
/// assert_eq!((found[1].version.as_str(), found[1].d3d9, found[1].version_line), ("vs_4_0", false, 5));
/// assert_eq!(found[1].lines.start, 3); // the blank line and comment before it come with it
/// ```
pub fn listings(text: &str) -> Vec<Listing> {
    let lines: Vec<&str> = text.split('\n').collect();
    let mut out: Vec<Listing> = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let Some((word, d3d9)) = parser::version_statement(line) else {
            continue;
        };
        // The comments and blank lines right before a later listing are its header.
        let mut start = i;
        if let Some(prev) = out.last() {
            while start > prev.version_line + 1 && parser::is_blank_or_comment(lines[start - 1]) {
                start -= 1;
            }
        } else {
            start = 0;
        }
        if let Some(prev) = out.last_mut() {
            prev.lines.end = start;
        }
        out.push(Listing {
            lines: start..lines.len(),
            version_line: i,
            version: word.to_string(),
            d3d9,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn asm(text: &str) -> Vec<u32> {
        match parse(text, "t.asm") {
            Ok(a) => a.shader.encode(),
            Err(e) => panic!("{e}"),
        }
    }

    #[test]
    fn basic_forms() {
        assert_eq!(
            asm("vs_2_0\nmov r0, -c0[a0.w+5].x\n"),
            [0xfffe0200, 0x03000001, 0x800f0000, 0xa1002005, 0xb0ff0000, 0xffff]
        );
        assert_eq!(
            asm("ps_1_3\nmov_x4_sat r0.a, -r1_bx2.a\n"),
            [0xffff0103, 0x00000001, 0x82180000, 0x85ff0001, 0xffff]
        );
    }

    #[test]
    fn implicit_rules() {
        // sub outside ps_1_x is add with the second source negated.
        assert_eq!(
            asm("vs_3_0\nsub r0, r1, -r2_abs\n")[1..4],
            [0x03000002, 0x800f0000, 0x80e40001]
        );
        assert_eq!(asm("vs_3_0\nsub r0, r1, -r2_abs\n")[4], 0x8be40002);
        assert_eq!(asm("ps_1_1\nsub r0, r1, c2\n")[1], 0x00000003);
        // def number forms; -0 keeps its sign.
        assert_eq!(
            asm("vs_2_0\ndef c0, -0, 1e-005, 1.0f, .5\n")[3..7],
            [0x80000000, 0x3727c5ac, 0x3f800000, 0x3f000000]
        );
        // Predicate token between destination and sources.
        assert_eq!(
            asm("ps_3_0\n(p0.x) mov r0, c0\n")[1..5],
            [0x13000001, 0x800f0000, 0xb0001000, 0xa0e40000]
        );
        // CRLF, tabs, comments before the version, case of mnemonics.
        assert_eq!(
            asm("; hi\r\n// there\r\n\tvs_1_1 ; c\r\n\tMOV\toPos , V0 // x\r\n"),
            [0xfffe0101, 0x00000001, 0xc00f0000, 0x90e40000, 0xffff]
        );
    }

    /// Every opcode of the table assembles from its mnemonic in every version where the
    /// table says it is legal, and is refused where it is not.
    #[test]
    fn every_table_mnemonic() {
        use crate::opcode::{Opcode, Shape};
        use crate::version::Version;
        let versions = [
            "vs_1_1", "vs_2_0", "vs_2_x", "vs_3_0", "ps_1_1", "ps_1_3", "ps_1_4", "ps_2_0",
            "ps_2_x", "ps_3_0",
        ];
        let mut checked = 0;
        for vname in versions {
            let v: Version = vname.parse().unwrap();
            let ps1 = v.is_ps_1_x();
            for op in Opcode::all() {
                if matches!(op, Opcode::Comment | Opcode::End | Opcode::Reserved0) {
                    continue;
                }
                let mut name = op.mnemonic(v).to_string();
                if op.has_comparison() {
                    name.push_str("_gt");
                }
                let coord = if v.major >= 3 { "v0" } else { "t0" };
                let operands: String = match op {
                    Opcode::Dcl if v.is_vertex() => return_name(&mut name, "dcl_position", "v0"),
                    Opcode::Dcl if v.major == 2 => "v0".into(),
                    Opcode::Dcl => return_name(&mut name, "dcl_texcoord", "v0"),
                    Opcode::Def => "c0, 1, 2, 3, 4".into(),
                    Opcode::DefI => "i0, 1, 2, 3, 4".into(),
                    Opcode::DefB => "b0, true".into(),
                    Opcode::Call | Opcode::Label => "l0".into(),
                    Opcode::CallNz => "l0, b0".into(),
                    Opcode::Loop => "aL, i0".into(),
                    Opcode::Rep => "i0".into(),
                    Opcode::If => "b0".into(),
                    Opcode::IfC | Opcode::BreakC => "r0, r1".into(),
                    Opcode::BreakP => "p0".into(),
                    Opcode::SetP => "p0, r0, r1".into(),
                    Opcode::Mova => "a0.x, r0".into(),
                    Opcode::TexKill => coord.into(),
                    Opcode::Tex | Opcode::TexCoord if v.code() < 0x0104 => "t0".into(),
                    Opcode::Tex | Opcode::TexCoord if v.code() == 0x0104 => "r0, t0".into(),
                    Opcode::Tex => format!("r0, {coord}, s0"),
                    Opcode::TexLdl => "r0, v0, s0".into(),
                    Opcode::TexLdd => format!("r0, {coord}, s0, r1, r2"),
                    Opcode::TexM3x3Spec => "t1, t0, c0".into(),
                    _ if ps1 && op.slot_class() == crate::opcode::SlotClass::Texture => {
                        if op.layout(v).srcs == 0 {
                            "r0".into()
                        } else {
                            "t1, t0".into()
                        }
                    }
                    _ => match op.info().shape {
                        Shape::None => String::new(),
                        _ => {
                            let n = op.layout(v).srcs as usize;
                            let mut o = vec!["r0".to_string()];
                            o.extend((0..n).map(|i| format!("c{i}")));
                            o.join(", ")
                        }
                    },
                };
                let text = format!("{vname}\n{name} {operands}\n");
                let res = parse(&text, "t");
                if op.is_legal(v) {
                    let a = res.unwrap_or_else(|e| panic!("{text}{e}"));
                    let got = a.shader.instructions().next().unwrap().opcode;
                    let want = if op == Opcode::Sub && !ps1 {
                        Opcode::Add
                    } else {
                        op
                    };
                    assert_eq!(got, want, "{text}");
                    checked += 1;
                } else {
                    assert!(res.is_err(), "accepted illegal: {text}");
                }
            }
        }
        assert_eq!(checked, 394);

        fn return_name(name: &mut String, full: &str, operand: &str) -> String {
            *name = full.to_string();
            operand.to_string()
        }
    }

    /// Raw mode takes back whatever the printer writes for shaders the runtime
    /// rejects, token for token; `no_validate` alone refuses each (the grammar).
    #[test]
    fn raw_reassembles_what_dis_prints() {
        let cases: &[&[u32]] = &[
            // r36 in vs_2_0.
            &[0xfffe0200, 0x02000001, 0x800f0024, 0x90e40000, 0xffff],
            // Co-issue in ps_3_0.
            &[
                0xffff0300, 0x02000001, 0x800f0000, 0xa0e40000, 0x42000001, 0x800f0001, 0xa0e40001,
                0xffff,
            ],
            // `_abs` in vs_2_0, `_x4` shift and `_pp` in vs_2_0, `!r1` on a temp.
            &[0xfffe0200, 0x02000001, 0x800f0000, 0x8be40001, 0xffff],
            &[0xfffe0200, 0x02000001, 0x821f0000, 0x90e40000, 0xffff],
            &[0xfffe0200, 0x02000001, 0x800f0000, 0x8de40001, 0xffff],
            // Names printed for numbers past the named registers: `oRast5`, `vMisc3`.
            &[0xfffe0101, 0x00000001, 0xc00f0005, 0x90e40000, 0xffff],
            &[0xffff0300, 0x02000001, 0x800f0000, 0x90e41003, 0xffff],
            // `t0` as the address register (an a0 stream relabelled as a pixel shader).
            &[
                0xffff0200, 0x03000001, 0x800f0000, 0xa0e42000, 0xb0000000, 0xffff,
            ],
            // A modifier before the relative address (`c0_dw[a0.x]`); `aL` swizzled.
            &[0xfffe0101, 0x00000001, 0xd00f0000, 0xace42000, 0xffff],
            &[
                0xfffe0200, 0x0200001b, 0xf0040800, 0xf0e40000, 0x0000001d, 0xffff,
            ],
            // Usage 22 index 3 (`dcl_usage223`), `dcl vFace` in a vertex shader, `_pp` on
            // a ps_2_0 sampler declaration.
            &[0xfffe0300, 0x0200001f, 0x80030016, 0xe00f0000, 0xffff],
            &[0xfffe0300, 0x0200001f, 0x80000000, 0x900f1001, 0xffff],
            &[0xffff0200, 0x0200001f, 0x90000000, 0xa02f0800, 0xffff],
            // A usage in a ps_2_0 `dcl` (`dcl_texcoord v0`, `dcl_color1 t0`).
            &[0xffff0200, 0x0200001f, 0x80000005, 0x900f0000, 0xffff],
            &[0xffff0200, 0x0200001f, 0x8001000a, 0xb00f0000, 0xffff],
            // An empty write mask (`mov oPos., v0`); `_abs` before a relative address
            // with a swizzle after it (`c17_abs[a0.x].w`).
            &[0xfffe0101, 0x00000001, 0xc0000000, 0x90e40000, 0xffff],
            &[
                0xfffe0200, 0x03000001, 0x800f0000, 0xabff2011, 0xb0000000, 0xffff,
            ],
            // `sub` in vs_1_1 (Microsoft's assembler writes `add` with `-c3`).
            &[
                0xfffe0101, 0x00000003, 0x800f0000, 0x80e40000, 0xa0e40003, 0xffff,
            ],
            // `texldp` in vs_2_0.
            &[
                0xfffe0200, 0x03010042, 0x800f0000, 0x90e40000, 0xa0e40800, 0xffff,
            ],
        ];
        let opts = Options {
            raw: true,
            ..Default::default()
        };
        let skip = Options {
            no_validate: true,
            ..Default::default()
        };
        for tokens in cases {
            let shader = crate::Shader::decode(tokens).unwrap();
            let text = crate::print::to_string(&shader);
            assert!(assemble(&text, &Default::default()).is_err(), "{text}");
            // `sub` in vs_1_1 is grammar (Microsoft writes `add`), the rest are not.
            if !text.contains("sub ") {
                assert!(assemble(&text, &skip).is_err(), "grammar: {text}");
            }
            let back = assemble(&text, &opts).unwrap_or_else(|e| panic!("{text}{e}"));
            assert_eq!(back.encode(), *tokens, "{text}");
        }
    }

    #[test]
    fn item_sources() {
        let a = parse(
            "ps_2_0\n\n  dcl_2d s0\n  texld_pp r0, t0, s0 ; x\n",
            "a.psh",
        )
        .unwrap();
        assert_eq!(a.sources.len(), 2);
        let s = a.sources[1];
        assert_eq!(
            (s.line, s.text_line, s.mnemonic),
            (4, 3, Span { col: 3, len: 8 })
        );
        assert_eq!(s.operand_count, 3);
        assert_eq!(s.operands[2], Span { col: 20, len: 2 });
        let d = a.error_at(1, Some(2), "bad sampler");
        assert_eq!(
            d.to_string(),
            "a.psh:4:20: error: bad sampler\n    texld_pp r0, t0, s0 ; x\n                     ^^"
        );
        // A line map from the preprocessor.
        let files = ["main.psh", "inc.h"];
        let map = |i: usize| Some((files[i % 2], 10 + i as u32));
        let e = parse_mapped("ps_2_0\nmov r0, q0\n", "x", &map).unwrap_err();
        assert_eq!(
            (e.0[0].file.as_str(), e.0[0].line, e.0[0].col),
            ("inc.h", 11, 9)
        );
    }

    #[test]
    fn errors_have_locations() {
        let e = parse("vs_1_1\nmov r0, s0\n", "f.vsh").unwrap_err();
        assert_eq!(e.0.len(), 1);
        assert_eq!((e.0[0].line, e.0[0].col), (2, 9));
        let e = parse("vs_1_1\nfoo r0\nmov r0, r1, r2\nvs.1.1\n", "f.vsh").unwrap_err();
        assert_eq!(e.0.len(), 3, "{e}");
        assert_eq!(e.0[2].message, "only one version statement is allowed");
        // Names for numbers past the named registers are known, and out of range.
        let e = parse("vs_1_1\nmov oRast5, v0\n", "f.vsh").unwrap_err();
        assert_eq!(
            e.0[0].message,
            "register `oRast5` does not exist in vs_1_1 (it has 3 of them)"
        );
    }

    #[test]
    fn validator_findings_point_at_the_operand() {
        // r7 read before any write: the caret goes under r7, not the mnemonic.
        let e = assemble("ps_2_0\nmov oC0, r7\n", &Options::default()).unwrap_err();
        assert_eq!(e.0[0].code, Some("E0204"));
        assert_eq!((e.0[0].line, e.0[0].col, e.0[0].len), (2, 10, 2));
        // A destination finding: c0 cannot be written.
        let e = assemble("vs_2_0\ndcl_position v0\nmov c0, v0\n", &Options::default()).unwrap_err();
        assert_eq!((e.0[0].line, e.0[0].col), (3, 5), "{e}");
        // A whole-instruction finding stays at the mnemonic.
        let e = assemble("ps_2_0\nendif\n", &Options::default()).unwrap_err();
        assert_eq!((e.0[0].line, e.0[0].col), (2, 1), "{e}");
    }
}
