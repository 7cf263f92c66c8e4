//! The effect assembler: the listing `dis X.fxo` prints (fxc `/Fc`'s effect listing:
//! shader parameters, then every technique and pass with its embedded `asm { … }`
//! shaders and their preshader blocks) back to an `fx_2_0` effect.
//!
//! What the listing carries: technique and pass names, which shader each pass binds,
//! every shader's instructions, its constant-table header (without default values)
//! and its preshader. What it does not carry: parameters other than shaders, their
//! defaults and annotations, render and sampler states, expressions, and the
//! constant tables' default values and layout. So an effect is reassembled against
//! its original ([`assemble_effect`] with `original`: `asm --fx-from ORIGINAL`): each
//! listed shader is assembled from its text and replaces the bytes of the object it
//! was listed from; a shader whose header (or preshader block) reads as the original's
//! keeps the original's `CTAB` (or `PRES`) comment, an edited one gets a table rebuilt
//! from the header (or a preshader assembled from the block). Unedited,
//! `asm(dis(X)) == X` byte for byte; an edit that changes a shader's size moves the
//! object data after it (the effect's object and resource blobs are sized and
//! sequential, at its end; nothing else points into them).
//!
//! Without an original the listing alone gives a new effect (the techniques, passes and
//! shaders it lists, float parameters for the shaders' constants with zero defaults):
//! valid and drawable, not the shipped bytes.

use std::collections::BTreeMap;

use super::listing::shader_listing;
use super::preshader::{comments_of, FOURCC_PRES};
use super::states::StateClass;
use super::write::{EffectBuilder, PassSpec, StateSpec};
use super::{state_info, to_words, Effect, ParameterClass, Value};
use crate::asm::{self, ctab_header};
use crate::diag::{Diagnostic, Diagnostics};
use crate::{Item, Shader};

/// One `asm { … }` block of the listing: the 1-based line of its first text line,
/// its text (indentation removed) and how many columns were removed.
#[derive(Clone, Debug)]
struct Block {
    line: u32,
    indent: u32,
    text: String,
}

/// A pass as listed.
#[derive(Clone, Debug, Default)]
struct ListedPass {
    name: String,
    vertex: Option<Block>,
    pixel: Option<Block>,
}

/// The listing's structure.
#[derive(Clone, Debug, Default)]
struct Listing {
    /// Shader parameters: name, pixel?, elements (one block each; `None`: not an array).
    parameters: Vec<(String, bool, Vec<Block>, bool)>,
    techniques: Vec<(String, Vec<ListedPass>)>,
}

/// Whether `text` is an effect listing (what `dis X.fxo` prints): a `technique` block
/// or a shader parameter's `asm {` at the top level.
pub fn is_effect_listing(text: &str) -> bool {
    text.lines().any(|l| {
        let t = l.trim_end();
        t.starts_with("technique ")
            || t == "//listing of all techniques and passes with embedded asm listings"
            || ((t.starts_with("vertexshader ") || t.starts_with("pixelshader "))
                && t.ends_with('='))
    })
}

struct Lines<'t> {
    lines: Vec<&'t str>,
    at: usize,
    file: String,
}

impl<'t> Lines<'t> {
    fn err(&self, line: usize, col: u32, what: impl Into<String>) -> Diagnostics {
        let src = self.lines.get(line).copied().unwrap_or("");
        Diagnostics(vec![Diagnostic::error(
            &self.file,
            line as u32 + 1,
            col.max(1),
            src.trim().chars().count().max(1) as u32,
            what,
            src,
        )])
    }

    /// The next line that is not blank (its index and trimmed text).
    fn next_nonblank(&mut self) -> Option<(usize, &'t str)> {
        while self.at < self.lines.len() {
            let i = self.at;
            self.at += 1;
            let t = self.lines[i].trim();
            if !t.is_empty() {
                return Some((i, t));
            }
        }
        None
    }

    fn expect(&mut self, want: &str, context: &str) -> Result<usize, Diagnostics> {
        let mut next = self.next_nonblank();
        while let Some((_, t)) = next {
            if !t.starts_with("//") {
                break;
            }
            next = self.next_nonblank();
        }
        match next {
            Some((i, t)) if t == want => Ok(i),
            Some((i, t)) => Err(self.err(
                i,
                col_of(self.lines[i]),
                format!("expected `{want}` {context}, found `{t}`"),
            )),
            None => Err(self.err(
                self.lines.len().saturating_sub(1),
                1,
                format!("expected `{want}` {context}, found the end of the listing"),
            )),
        }
    }

    /// The body of an `asm {` block whose opening line was just read: every line up to
    /// the closing `}` (a line that starts with `}` outside a comment), dedented by
    /// the indentation of `indent_of`.
    fn block(&mut self, open: usize) -> Result<(Block, &'t str), Diagnostics> {
        let indent = self.lines[open].len() - self.lines[open].trim_start().len();
        let start = self.at;
        while self.at < self.lines.len() {
            let i = self.at;
            self.at += 1;
            let t = self.lines[i].trim_start();
            if t.starts_with('}') {
                let mut text = String::new();
                for l in &self.lines[start..i] {
                    let lead = l.len() - l.trim_start().len();
                    text.push_str(&l[lead.min(indent)..]);
                    text.push('\n');
                }
                return Ok((
                    Block {
                        line: start as u32 + 1,
                        indent: indent as u32,
                        text,
                    },
                    t,
                ));
            }
        }
        Err(self.err(
            open,
            col_of(self.lines[open]),
            "`asm {` block is never closed",
        ))
    }
}

fn col_of(l: &str) -> u32 {
    (l.len() - l.trim_start().len()) as u32 + 1
}

fn parse_listing(text: &str, file: &str) -> Result<Listing, Diagnostics> {
    let mut l = Lines {
        lines: text.split('\n').map(|l| l.trim_end_matches('\r')).collect(),
        at: 0,
        file: file.to_string(),
    };
    let mut out = Listing::default();
    while let Some((i, t)) = l.next_nonblank() {
        if t.starts_with("//") {
            continue;
        }
        let kind = t
            .strip_prefix("vertexshader ")
            .map(|r| (false, r))
            .or_else(|| t.strip_prefix("pixelshader ").map(|r| (true, r)));
        if let Some((pixel, rest)) = kind {
            let Some(decl) = rest.strip_suffix('=').map(str::trim) else {
                return Err(l.err(i, col_of(l.lines[i]), "expected `NAME =` or `NAME[N] =`"));
            };
            if let Some((name, n)) = decl.strip_suffix(']').and_then(|d| d.split_once('[')) {
                let n: usize = n.trim().parse().map_err(|_| {
                    l.err(
                        i,
                        col_of(l.lines[i]),
                        format!("array size `{n}` is not a number"),
                    )
                })?;
                l.expect("{", &format!("after `{name}[{n}] =`"))?;
                let mut blocks = Vec::with_capacity(n.min(1024));
                for k in 0..n {
                    let open = l.expect("asm {", &format!("for element {k} of {name}"))?;
                    let (b, _) = l.block(open)?;
                    blocks.push(b);
                }
                out.parameters
                    .push((name.trim().to_string(), pixel, blocks, true));
            } else {
                let open = l.expect("asm {", &format!("after `{decl} =`"))?;
                let (b, _) = l.block(open)?;
                out.parameters
                    .push((decl.to_string(), pixel, vec![b], false));
            }
            continue;
        }
        if let Some(name) = t.strip_prefix("technique") {
            let name = name.trim().to_string();
            l.expect("{", &format!("after `technique {name}`"))?;
            let mut passes = Vec::new();
            loop {
                let Some((j, u)) = l.next_nonblank() else {
                    return Err(l.err(i, 1, format!("technique {name} is never closed")));
                };
                if u == "}" {
                    break;
                }
                let Some(pname) = u.strip_prefix("pass") else {
                    return Err(l.err(
                        j,
                        col_of(l.lines[j]),
                        format!("expected `pass NAME` or `}}`, found `{u}`"),
                    ));
                };
                let mut pass = ListedPass {
                    name: pname.trim().to_string(),
                    ..Default::default()
                };
                l.expect("{", &format!("after `pass {}`", pass.name))?;
                loop {
                    let Some((k, v)) = l.next_nonblank() else {
                        return Err(l.err(j, 1, format!("pass {} is never closed", pass.name)));
                    };
                    match v {
                        "}" => break,
                        "//No embedded vertex shader" | "//No embedded pixel shader" => {}
                        "vertexshader =" | "pixelshader =" => {
                            let open = l.expect("asm {", &format!("after `{v}`"))?;
                            let (b, _) = l.block(open)?;
                            if v.starts_with('v') {
                                pass.vertex = Some(b);
                            } else {
                                pass.pixel = Some(b);
                            }
                        }
                        _ if v.starts_with("//") => {}
                        _ => {
                            return Err(l.err(
                                k,
                                col_of(l.lines[k]),
                                format!(
                                    "expected `vertexshader =`, `pixelshader =` or `}}` in pass {}, found `{v}`",
                                    pass.name
                                ),
                            ))
                        }
                    }
                }
                passes.push(pass);
            }
            out.techniques.push((name, passes));
            continue;
        }
        return Err(l.err(
            i,
            col_of(l.lines[i]),
            format!(
                "expected `technique NAME`, `vertexshader NAME =` or `pixelshader NAME =`, found `{t}`"
            ),
        ));
    }
    Ok(out)
}

/// A shader block split at its preshader: the preshader part (its header and
/// instructions up to `// approximately N instructions used`) and the shader part.
fn split_preshader(text: &str) -> (Option<String>, String) {
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let Some(p) = lines.iter().position(|l| l.trim() == "preshader") else {
        return (None, text.to_string());
    };
    let end = lines[p..]
        .iter()
        .position(|l| l.trim_start().starts_with("// approximately"))
        .map_or(lines.len(), |e| p + e + 1);
    (Some(lines[..end].concat()), lines[end..].concat())
}

/// The comment payloads (FourCC first) before a shader's first instruction.
fn leading_comments(tokens: &[u32]) -> Vec<Vec<u32>> {
    comments_of(tokens).map(<[u32]>::to_vec).collect()
}

/// Assembles one listed shader. `original`: the bytes it was listed from, whose
/// comments it keeps where the header and preshader text are the original's.
fn assemble_block(
    b: &Block,
    file: &str,
    original: Option<&[u8]>,
    options: &asm::Options,
) -> Result<Vec<u32>, Diagnostics> {
    let relocate = |mut d: Diagnostics| {
        for x in &mut d.0 {
            x.line += b.line - 1;
            x.col += b.indent;
        }
        d
    };
    let (pres_text, shader_text) = split_preshader(&b.text);
    // A block of comments only (`// shader does not decode: … empty input`, an array
    // element without code) is an empty object.
    if pres_text.is_none()
        && shader_text
            .lines()
            .all(|l| l.trim().is_empty() || l.trim_start().starts_with("//"))
    {
        return Ok(Vec::new());
    }
    let opts = asm::Options {
        file_name: file.to_string(),
        ..options.clone()
    };
    // Line numbers of the shader part: after the preshader's lines.
    let pres_lines = pres_text.as_deref().map_or(0, |p| p.matches('\n').count());
    let shader = asm::assemble(&shader_text, &opts).map_err(|d| {
        let mut d = relocate(d);
        for x in &mut d.0 {
            x.line += pres_lines as u32;
        }
        d
    })?;
    let original_tokens = original.map(to_words);
    let original_text = original.map(shader_listing);
    let (orig_pres, orig_shader) = original_text
        .as_deref()
        .map(split_preshader)
        .unwrap_or((None, String::new()));
    let header = |t: &str| -> String {
        t.lines()
            .take_while(|l| l.trim_start().starts_with("//") || l.trim().is_empty())
            .collect::<Vec<_>>()
            .join("\n")
    };
    // `dis` of a plain shader prints the table's default values, the effect listing
    // does not: either reads as the original's header.
    let with_defaults = original_tokens.as_deref().map(|t| {
        let mut s = String::new();
        let _ = crate::print::print_tokens(t, &crate::PrintOptions::default(), &mut s);
        s
    });
    let keep_ctab = original.is_some()
        && (header(&shader_text) == header(&orig_shader)
            || with_defaults.is_some_and(|w| header(&shader_text) == header(&w)));
    let keep_pres = original.is_some() && pres_text == orig_pres;
    let mut comments: Vec<Vec<u32>> = Vec::new();
    let orig_comments = original_tokens
        .as_deref()
        .map(leading_comments)
        .unwrap_or_default();
    let rebuilt_ctab = if keep_ctab {
        None
    } else {
        ctab_header::ctab_from_listing(&shader_text, file)
            .map_err(|d| relocate(Diagnostics(vec![d])))?
            .map(|c| c.encode())
    };
    let rebuilt_pres = match (&pres_text, keep_pres) {
        (Some(p), false) => {
            let orig = original_tokens
                .as_deref()
                .and_then(super::preshader::find_pres)
                .and_then(|t| super::preshader::Preshader::parse(t).ok());
            Some(
                super::preshader_asm::assemble_preshader_with(p, file, orig.as_ref())
                    .map_err(relocate)?,
            )
        }
        _ => None,
    };
    if original.is_some() {
        let mut had_ctab = false;
        let mut had_pres = false;
        for c in &orig_comments {
            if crate::ctab::Ctab::is_ctab(c) {
                had_ctab = true;
                if keep_ctab {
                    comments.push(c.clone());
                } else if let Some(r) = &rebuilt_ctab {
                    comments.push(r.clone());
                }
            } else if c.first() == Some(&FOURCC_PRES) {
                had_pres = true;
                if keep_pres {
                    comments.push(c.clone());
                } else if let Some(r) = &rebuilt_pres {
                    comments.push(r.clone());
                }
            } else {
                comments.push(c.clone());
            }
        }
        if !had_ctab {
            if let Some(r) = rebuilt_ctab {
                comments.insert(0, r);
            }
        }
        if !had_pres {
            if let Some(r) = rebuilt_pres {
                let at = usize::from(
                    comments
                        .first()
                        .is_some_and(|c| crate::ctab::Ctab::is_ctab(c)),
                );
                comments.insert(at, r);
            }
        }
    } else {
        comments.extend(rebuilt_ctab);
        comments.extend(rebuilt_pres);
    }
    let mut items: Vec<Item> = comments.into_iter().map(Item::Comment).collect();
    items.extend(
        shader
            .items
            .into_iter()
            .filter(|i| !matches!(i, Item::Comment(_))),
    );
    Ok(Shader { items, ..shader }.encode())
}

/// The object id of bytes `code` in `e` (by position in the input).
fn object_id(e: &Effect, code: &[u8]) -> Option<u32> {
    e.objects
        .iter()
        .position(|o| o.as_ptr() == code.as_ptr() && o.len() == code.len())
        .map(|i| i as u32)
}

/// Where [`Effect::listing`] took each listed shader from, in listing order: the
/// object ids of shader parameters (arrays element by element) and of every pass's
/// vertex and pixel shader (`None`: not listed).
/// Object ids of the listed shader parameters (elements in order; `None`: no object).
type ParamObjects = Vec<Vec<Option<u32>>>;
/// Object ids of each technique's passes' vertex and pixel shaders.
type PassObjects = Vec<Vec<[Option<u32>; 2]>>;

fn listed_objects(e: &Effect) -> (ParamObjects, PassObjects) {
    let mut params = Vec::new();
    for p in &e.parameters {
        if !p.ty.is_shader() || p.ty.class != ParameterClass::Object {
            continue;
        }
        match &p.value {
            Value::Object(id) if !e.object(*id).is_empty() => params.push(vec![Some(*id)]),
            Value::Array(items) => {
                let ids: Vec<Option<u32>> = items
                    .iter()
                    .map(|v| match v {
                        Value::Object(id) => Some(*id),
                        _ => None,
                    })
                    .collect();
                if ids
                    .iter()
                    .any(|id| id.is_some_and(|i| !e.object(i).is_empty()))
                {
                    params.push(ids);
                }
            }
            _ => {}
        }
    }
    let techniques = e
        .techniques
        .iter()
        .map(|t| {
            t.passes
                .iter()
                .map(|pass| {
                    [StateClass::VertexShader, StateClass::PixelShader].map(|class| {
                        pass.states
                            .iter()
                            .filter(|s| state_info(s.operation).map(|i| i.class) == Some(class))
                            .find_map(|s| e.state_shader(s))
                            .and_then(|code| object_id(e, code))
                    })
                })
                .collect()
        })
        .collect();
    (params, techniques)
}

/// Assembles an effect listing. With `original` (the effect's bytes, `asm --fx-from`)
/// the result is the original with every listed shader replaced by its assembled text
/// (byte-identical when nothing was edited); without, a new effect from what the
/// listing carries. Errors are located at `file:line:col` of the listing.
pub fn assemble_effect(
    text: &str,
    file: &str,
    original: Option<&[u8]>,
    options: &asm::Options,
) -> Result<Vec<u8>, Diagnostics> {
    let listing = parse_listing(text, file)?;
    let whole = |what: String| {
        Diagnostics(vec![Diagnostic::error(
            file,
            1,
            1,
            1,
            what,
            text.lines().next().unwrap_or(""),
        )])
    };
    let Some(orig) = original else {
        return build_new(&listing, file, options);
    };
    let e = Effect::parse(orig).map_err(|x| whole(format!("--fx-from: {x}")))?;
    let (params, techniques) = listed_objects(&e);
    // Listed blocks and the objects they came from, in listing order.
    let mut pairs: Vec<(&Block, u32)> = Vec::new();
    if listing.parameters.len() != params.len() {
        return Err(whole(format!(
            "the listing has {} shader parameters, the original effect {}",
            listing.parameters.len(),
            params.len()
        )));
    }
    for ((name, _, blocks, _), ids) in listing.parameters.iter().zip(&params) {
        if blocks.len() != ids.len() {
            return Err(whole(format!(
                "parameter {name}: {} shaders listed, the original has {}",
                blocks.len(),
                ids.len()
            )));
        }
        for (b, id) in blocks.iter().zip(ids) {
            if let Some(id) = id {
                pairs.push((b, *id));
            }
        }
    }
    if listing.techniques.len() != techniques.len()
        || listing
            .techniques
            .iter()
            .zip(&techniques)
            .any(|((_, p), q)| p.len() != q.len())
    {
        return Err(whole(
            "the listing's techniques and passes are not the original effect's".into(),
        ));
    }
    for ((tname, passes), ids) in listing.techniques.iter().zip(&techniques) {
        for (pass, [vs, ps]) in passes.iter().zip(ids) {
            for (b, id, kind) in [(&pass.vertex, vs, "vertex"), (&pass.pixel, ps, "pixel")] {
                match (b, id) {
                    (Some(b), Some(id)) => pairs.push((b, *id)),
                    (None, None) => {}
                    (Some(b), None) => {
                        return Err(Diagnostics(vec![Diagnostic::error(
                            file,
                            b.line,
                            1,
                            1,
                            format!(
                                "technique {tname} pass {}: the original pass has no {kind} shader to replace",
                                pass.name
                            ),
                            "",
                        )]))
                    }
                    (None, Some(_)) => {
                        return Err(whole(format!(
                            "technique {tname} pass {}: the listing drops the pass's {kind} shader",
                            pass.name
                        )))
                    }
                }
            }
        }
    }
    let mut replaced: BTreeMap<u32, (Vec<u32>, u32)> = BTreeMap::new();
    for (b, id) in pairs {
        let tokens = assemble_block(b, file, Some(e.object(id)), options)?;
        if let Some((prev, line)) = replaced.get(&id) {
            if *prev != tokens {
                return Err(Diagnostics(vec![Diagnostic::error(
                    file,
                    b.line,
                    1,
                    1,
                    format!(
                        "this shader is listed again from line {line} (a pass binding a shader parameter) and the two copies differ: edit both alike"
                    ),
                    "",
                )]));
            }
            continue;
        }
        replaced.insert(id, (tokens, b.line));
    }
    Ok(splice(orig, &e, &replaced))
}

/// `orig` with the data of objects `replaced` swapped (each blob's size DWORD and
/// padding rewritten; what follows moves).
fn splice(orig: &[u8], e: &Effect, replaced: &BTreeMap<u32, (Vec<u32>, u32)>) -> Vec<u8> {
    let mut edits: Vec<(usize, usize, Vec<u8>)> = replaced
        .iter()
        .filter_map(|(id, (tokens, _))| {
            let old = e.object(*id);
            let at = (old.as_ptr() as usize).checked_sub(orig.as_ptr() as usize)?;
            let bytes: Vec<u8> = tokens.iter().flat_map(|t| t.to_le_bytes()).collect();
            (bytes.as_slice() != old).then_some((at, old.len(), bytes))
        })
        .collect();
    edits.sort_by_key(|x| x.0);
    let mut out = Vec::with_capacity(orig.len());
    let mut from = 0;
    for (at, len, bytes) in edits {
        // The size DWORD before the data, the data padded to 4 bytes.
        out.extend_from_slice(&orig[from..at - 4]);
        out.extend_from_slice(&(bytes.len() as u32).to_le_bytes());
        out.extend_from_slice(&bytes);
        while out.len() % 4 != 0 {
            out.push(0);
        }
        from = at + len.div_ceil(4) * 4;
    }
    out.extend_from_slice(&orig[from.min(orig.len())..]);
    out
}

/// A new effect from the listing alone: its techniques, passes and shaders, shader
/// arrays, and a zero float4 parameter per float constant the shaders' tables name.
fn build_new(l: &Listing, file: &str, options: &asm::Options) -> Result<Vec<u8>, Diagnostics> {
    let mut b = EffectBuilder::new();
    let mut seen: Vec<String> = Vec::new();
    let mut add_params = |b: EffectBuilder, tokens: &[u32]| -> EffectBuilder {
        let mut b = b;
        if let Some(view) = comments_of(tokens)
            .find(|c| crate::ctab::Ctab::is_ctab(c))
            .and_then(|c| crate::ctab::CtabView::parse(c).ok())
        {
            for k in view.constants() {
                if k.register_set == crate::ctab::RegisterSet::Float4
                    && !seen.iter().any(|s| *s == k.name)
                {
                    seen.push(k.name.to_string());
                    b = b.float_parameter(&k.name, &[0.0; 4]);
                }
            }
        }
        b
    };
    for (name, _, blocks, array) in &l.parameters {
        let mut code = Vec::new();
        for blk in blocks {
            let t = assemble_block(blk, file, None, options)?;
            b = add_params(b, &t);
            code.push(t);
        }
        // The builder writes shader parameters as arrays (a single one: one element).
        let _ = array;
        b = b.shader_array_parameter(name, code);
    }
    for (tname, passes) in &l.techniques {
        let mut specs = Vec::new();
        for p in passes {
            let mut spec = PassSpec::new(&p.name);
            for (blk, state) in [(&p.vertex, "VertexShader"), (&p.pixel, "PixelShader")] {
                if let Some(blk) = blk {
                    let t = assemble_block(blk, file, None, options)?;
                    b = add_params(b, &t);
                    spec = spec.state(state, 0, StateSpec::Shader(t));
                }
            }
            specs.push(spec);
        }
        b = b.technique(tname, specs);
    }
    Ok(b.build())
}

/// Whether a shader listing carries a preshader block (a `preshader` line before its
/// version statement), as `dis` prints a shader with a `PRES` comment.
pub fn has_preshader(text: &str) -> bool {
    text.lines().any(|l| l.trim() == "preshader")
}

/// Assembles one shader listing that may carry a preshader block: the shader's
/// instructions, its `CTAB` from the header, its `PRES` from the preshader block
/// ([`super::preshader_asm`]), in the order fxc writes them (version, `CTAB`, `PRES`,
/// code). With `original` (the shader's bytes, `asm --ctab-from`), the original's
/// `CTAB` and `PRES` are kept where the header and preshader block read as theirs, and
/// an edited preshader keeps the original's literal table where it can.
pub fn assemble_shader_listing(
    text: &str,
    file: &str,
    original: Option<&[u8]>,
    options: &asm::Options,
) -> Result<Vec<u32>, Diagnostics> {
    let b = Block {
        line: 1,
        indent: 0,
        text: text.to_string(),
    };
    assemble_block(&b, file, original, options)
}
