//! The preshader assembler: the block `dis` prints before a shader that carries a
//! D3DX preshader (its constant-table header, `preshader`, the FXLC instructions,
//! `// approximately N instructions used`) back to the shader's `PRES` comment:
//! version, `CTAB` (the effect parameters it reads, rebuilt from the header),
//! `PRSI` (the output registers), `CLIT` (the `f64` literals) and `FXLC` (the code).
//!
//! The listing prints literals by value, not where they sit in the `CLIT` table, and
//! fxc orders that table by where each literal appears in the HLSL source. Given the
//! original preshader ([`assemble_preshader_with`]), every literal is looked up in the
//! original table, which is kept when all are found: an unedited block is
//! byte-identical. Without one (or with a literal the original lacks), the table is laid
//! out as fxc lays it out, minus the source order: zeros over the input registers,
//! then the broadcast scalars packed four to a register in order of first use, then
//! each vector literal in its own register.

use super::preshader::{
    fmt_g, Preshader, Table, FOURCC_CLIT, FOURCC_FXLC, FOURCC_PRES, FOURCC_PRSI, OPS,
};
use crate::asm::ctab_header;
use crate::diag::{Diagnostic, Diagnostics};

/// The version token fxc gives preshaders (`FX` 2.1).
pub const PRESHADER_VERSION: u32 = 0x4658_0201;

/// An operand as written.
enum Src {
    Reg {
        table: Table,
        offset: u32,
        n: u32,
        index: Option<(Table, u32)>,
    },
    Lit(Vec<f64>),
}

fn err(file: &str, line: u32, src: &str, what: impl Into<String>) -> Diagnostics {
    let col = (src.len() - src.trim_start().len()) as u32 + 1;
    Diagnostics(vec![Diagnostic::error(
        file,
        line,
        col,
        src.trim().chars().count().max(1) as u32,
        what,
        src,
    )])
}

fn component(c: char) -> Option<u32> {
    "xyzw".find(c).map(|i| i as u32)
}

/// `c12`, `r0.xy`, `c0[c10.x]`, `(1, 2, 3, 4)`; `output`: `c`/`b`/`i` are outputs.
fn parse_operand(s: &str, output: bool) -> Result<Src, String> {
    let s = s.trim();
    if let Some(inner) = s.strip_prefix('(').and_then(|r| r.strip_suffix(')')) {
        let v = inner
            .split(',')
            .map(|x| parse_g(x.trim()).ok_or_else(|| format!("bad literal `{}`", x.trim())))
            .collect::<Result<Vec<f64>, String>>()?;
        return Ok(Src::Lit(v));
    }
    let (reg, mask) = match s.rsplit_once('.') {
        Some((r, m)) if !r.ends_with('[') && m.chars().all(|c| component(c).is_some()) => {
            (r, Some(m))
        }
        _ => (s, None),
    };
    let (base, index) = match reg.split_once('[') {
        Some((b, rest)) => {
            let inner = rest
                .strip_suffix(']')
                .ok_or_else(|| format!("`{s}`: unclosed `[`"))?;
            let (ir, ic) = inner
                .split_once('.')
                .ok_or_else(|| format!("`{s}`: the index register needs one component"))?;
            let (t, n) = register(ir, false)?;
            let c = ic
                .chars()
                .next()
                .and_then(component)
                .filter(|_| ic.len() == 1)
                .ok_or_else(|| format!("`{s}`: the index register needs one component"))?;
            (b, Some((t, n * 4 + c)))
        }
        None => (reg, None),
    };
    let (table, n) = register(base, output)?;
    let (first, count) = match mask {
        None => (0, 4),
        Some(m) => {
            let cs: Vec<u32> = m.chars().filter_map(component).collect();
            // The printer writes consecutive components from the first (wrapping).
            for (i, c) in cs.iter().enumerate() {
                if *c != (cs[0] + i as u32) % 4 {
                    return Err(format!(
                        "`{s}`: preshader operands read consecutive components (.x, .yz, .wx…)"
                    ));
                }
            }
            (cs[0], cs.len() as u32)
        }
    };
    Ok(Src::Reg {
        table,
        offset: n * 4 + first,
        n: count,
        index,
    })
}

fn register(r: &str, output: bool) -> Result<(Table, u32), String> {
    let r = r.trim();
    let (p, n) = r.split_at(r.find(|c: char| c.is_ascii_digit()).unwrap_or(r.len()));
    let n: u32 = n
        .parse()
        .map_err(|_| format!("`{r}`: expected a register (c#, r#, b#, i#, v#)"))?;
    if n >= 1 << 14 {
        return Err(format!("`{r}`: register number out of range"));
    }
    let t = match (p, output) {
        ("c", false) => Table::Input,
        ("c", true) => Table::Output,
        ("b", true) => Table::OutputBool,
        ("i", true) => Table::OutputInt,
        ("r", _) => Table::Temp,
        ("v", _) => Table::V,
        _ => {
            return Err(format!(
                "`{r}`: expected c#, r# or v# (inputs), c#, b#, i# or r# (outputs)"
            ))
        }
    };
    Ok((t, n))
}

/// `%g` text with MSVC's special spellings.
fn parse_g(v: &str) -> Option<f64> {
    match v {
        "1.#INF" => Some(f64::INFINITY),
        "-1.#INF" => Some(f64::NEG_INFINITY),
        "1.#QNAN" => Some(f64::NAN),
        "-1.#IND" | "-1.#QNAN" => Some(-f64::NAN),
        _ => v.parse().ok(),
    }
}

fn table_code(t: Table) -> u32 {
    match t {
        Table::Literal => 1,
        Table::Input => 2,
        Table::V => 3,
        Table::Output => 4,
        Table::OutputBool => 5,
        Table::OutputInt => 6,
        Table::Temp => 7,
    }
}

fn comment(payload: &[u32], out: &mut Vec<u32>) {
    out.push(((payload.len() as u32) << 16) | 0xFFFE);
    out.extend_from_slice(payload);
}

/// Assembles a preshader block (see the module docs) to its `PRES` comment payload
/// (the FourCC first).
pub fn assemble_preshader(text: &str, file: &str) -> Result<Vec<u32>, Diagnostics> {
    assemble_preshader_with(text, file, None)
}

/// [`assemble_preshader`] keeping what the listing does not say from `original`
/// (its `CLIT` layout, its `CTAB` where the header reads the same, its version).
pub fn assemble_preshader_with(
    text: &str,
    file: &str,
    original: Option<&Preshader>,
) -> Result<Vec<u32>, Diagnostics> {
    let lines: Vec<&str> = text.split('\n').collect();
    let Some(p) = lines.iter().position(|l| l.trim() == "preshader") else {
        return Err(err(
            file,
            1,
            lines.first().copied().unwrap_or(""),
            "no `preshader` line",
        ));
    };
    // The constant table from the header before `preshader`.
    let header = lines[..p].join("\n");
    let version = original.map_or(PRESHADER_VERSION, |o| o.version);
    let original_header = original.and_then(|o| {
        let mut s = String::new();
        o.write_listing(&mut s);
        s.split("    preshader\n").next().map(str::to_string)
    });
    let ctab = match (original, original_header) {
        (Some(o), Some(h)) if h.trim_end() == header.trim_end() => o.ctab.clone(),
        _ => {
            let fake = format!("{header}\n    vs_2_0\n");
            match ctab_header::ctab_from_listing(&fake, file).map_err(|d| Diagnostics(vec![d]))? {
                Some(mut c) => {
                    c.target = String::new();
                    c.version = version;
                    c.flags = 0x100;
                    Some(c.encode())
                }
                None => None,
            }
        }
    };
    let inputs = ctab
        .as_deref()
        .and_then(|c| crate::ctab::CtabView::parse(c).ok())
        .map_or(0, |v| {
            v.constants()
                .filter(|k| k.register_set == crate::ctab::RegisterSet::Float4)
                .map(|k| u32::from(k.register_index) + u32::from(k.register_count))
                .max()
                .unwrap_or(0)
        });
    // Instructions.
    struct Ins {
        code: u32,
        ninputs: u32,
        components: u32,
        scalar: bool,
        srcs: Vec<Src>,
        dst: Src,
    }
    let mut code = Vec::new();
    for (i, raw) in lines.iter().enumerate().skip(p + 1) {
        let l = raw.split("//").next().unwrap_or("").trim();
        if l.is_empty() {
            if raw.trim_start().starts_with("// approximately") {
                break;
            }
            continue;
        }
        let line = i as u32 + 1;
        let e = |w: String| err(file, line, raw, w);
        let (mn, rest) = l.split_once(char::is_whitespace).unwrap_or((l, ""));
        let mut ops = Vec::new();
        let mut depth = 0;
        let mut cur = String::new();
        for ch in rest.chars() {
            match ch {
                '(' | '[' => depth += 1,
                ')' | ']' => depth -= 1,
                ',' if depth == 0 => {
                    ops.push(std::mem::take(&mut cur));
                    continue;
                }
                _ => {}
            }
            cur.push(ch);
        }
        if !cur.trim().is_empty() {
            ops.push(cur);
        }
        let ninputs = ops.len().saturating_sub(1) as u32;
        let Some(op) = OPS.iter().find(|o| o.name == mn && o.inputs == ninputs) else {
            let names: Vec<&str> = OPS.iter().map(|o| o.name).collect();
            return Err(e(if OPS.iter().any(|o| o.name == mn) {
                format!(
                    "`{mn}` takes {} inputs, {ninputs} given",
                    OPS.iter().find(|o| o.name == mn).map_or(0, |o| o.inputs)
                )
            } else {
                format!(
                    "unknown preshader instruction `{mn}` (known: {})",
                    names.join(", ")
                )
            }));
        };
        let dst = parse_operand(&ops[0], true).map_err(e)?;
        let Src::Reg { n: components, .. } = dst else {
            return Err(e("the output must be a register".into()));
        };
        let srcs = ops[1..]
            .iter()
            .map(|o| parse_operand(o, false))
            .collect::<Result<Vec<Src>, String>>()
            .map_err(e)?;
        // With one component a scalar first input prints the same either way: the
        // original's flag where it has this instruction, else a guess.
        let k = code.len();
        let known = original
            .and_then(|o| o.instructions.get(k))
            .filter(|o| o.op.code == op.code && o.components == components && components == 1)
            .map(|o| o.scalar);
        let scalar = match srcs.first() {
            _ if known.is_some() => known.unwrap_or(false),
            Some(Src::Reg { n, table, .. }) => {
                *n == 1 && (components > 1 || (*table == Table::Temp && op.inputs >= 2))
            }
            Some(Src::Lit(v)) => {
                v.len() == 1 || (components > 1 && v.iter().all(|x| x.to_bits() == v[0].to_bits()))
            }
            None => false,
        };
        code.push(Ins {
            code: op.code,
            ninputs,
            components,
            scalar,
            srcs,
            dst,
        });
    }
    // Literal table: the original's where it holds every literal, else laid out anew.
    let wanted: Vec<(bool, Vec<f64>)> = code
        .iter()
        .flat_map(|ins| {
            ins.srcs
                .iter()
                .enumerate()
                .filter_map(move |(k, s)| match s {
                    Src::Lit(v) => {
                        let scalar = k == 0 && ins.scalar;
                        Some((scalar, if scalar { vec![v[0]] } else { v.clone() }))
                    }
                    _ => None,
                })
        })
        .collect();
    // Literals are listed to 9 significant digits: a table entry matches a listed value
    // when it prints the same.
    let same = |a: &[f64], b: &[f64]| {
        a.len() == b.len()
            && a.iter()
                .zip(b)
                .all(|(x, y)| x.to_bits() == y.to_bits() || fmt_g(*x, 9) == fmt_g(*y, 9))
    };
    let find = |table: &[f64], v: &[f64]| {
        (0..table.len()).find(|&i| table.get(i..i + v.len()).is_some_and(|w| same(w, v)))
    };
    let mut literals: Vec<f64> = original.map(|o| o.literals.clone()).unwrap_or_default();
    if original.is_none() || !wanted.iter().all(|(_, v)| find(&literals, v).is_some()) {
        literals = vec![0.0; (inputs * 4) as usize];
        let mut scalars: Vec<f64> = Vec::new();
        for (s, v) in &wanted {
            if *s && !scalars.iter().any(|x| x.to_bits() == v[0].to_bits()) {
                scalars.push(v[0]);
            }
        }
        for chunk in scalars.chunks(4) {
            let mut r = chunk.to_vec();
            r.resize(4, 0.0);
            literals.extend(r);
        }
        for (s, v) in &wanted {
            if !*s && find(&literals[(inputs * 4) as usize..], v).is_none() {
                let mut r = v.clone();
                r.resize(r.len().div_ceil(4) * 4, 0.0);
                literals.extend(r);
            }
        }
        if literals.len() == (inputs * 4) as usize {
            literals.clear();
        }
    }
    // FXLC.
    let mut fxlc = vec![FOURCC_FXLC, code.len() as u32];
    let mut outputs: Vec<u32> = Vec::new();
    let push = |s: &Src, fxlc: &mut Vec<u32>, literals: &[f64]| match s {
        Src::Lit(v) => {
            let at = find(literals, v).unwrap_or(0) as u32;
            fxlc.extend([0, 1, at]);
        }
        Src::Reg {
            table,
            offset,
            index,
            ..
        } => {
            match index {
                Some((t, o)) => fxlc.extend([1, table_code(*t), *o]),
                None => fxlc.push(0),
            }
            fxlc.extend([table_code(*table), *offset]);
        }
    };
    for ins in &code {
        fxlc.push((u32::from(ins.scalar) << 31) | (ins.code << 20) | ins.components);
        fxlc.push(ins.ninputs);
        for (k, s) in ins.srcs.iter().enumerate() {
            let s2;
            let s = match s {
                Src::Lit(v) if k == 0 && ins.scalar => {
                    s2 = Src::Lit(vec![v[0]]);
                    &s2
                }
                s => s,
            };
            push(s, &mut fxlc, &literals);
        }
        push(&ins.dst, &mut fxlc, &literals);
        if let Src::Reg {
            table: Table::Output,
            offset,
            n,
            ..
        } = ins.dst
        {
            // `dot` and `d3ds_dotswiz` write one component whatever their width.
            let n = if matches!(ins.code, 0x500 | 0x70e) {
                1
            } else {
                n
            };
            outputs.extend(offset / 4..=(offset + n - 1) / 4);
        }
    }
    fxlc.extend([0xF0F0_F0F0, 0x0F0F_0F0F]);
    outputs.sort_unstable();
    outputs.dedup();
    // PRSI: first output register, span, then runs of consecutive registers.
    let mut prsi = vec![FOURCC_PRSI];
    let (first, last) = (
        outputs.first().copied().unwrap_or(0),
        outputs.last().copied().unwrap_or(0),
    );
    let mut runs: Vec<(u32, u32)> = Vec::new();
    for r in &outputs {
        match runs.last_mut() {
            Some((s, n)) if *s + *n == *r => *n += 1,
            _ => runs.push((*r, 1)),
        }
    }
    let span = if outputs.is_empty() {
        0
    } else {
        last - first + 1
    };
    prsi.extend([first, 0, 0, span, 0, 0, runs.len() as u32]);
    for (s, n) in runs {
        prsi.extend([s, n]);
    }
    prsi.extend([0, 0]);
    let mut clit = vec![FOURCC_CLIT, literals.len() as u32];
    for l in &literals {
        let b = l.to_bits();
        clit.extend([b as u32, (b >> 32) as u32]);
    }
    let mut out = vec![FOURCC_PRES, version];
    if let Some(c) = &ctab {
        comment(c, &mut out);
    }
    comment(&prsi, &mut out);
    comment(&clit, &mut out);
    comment(&fxlc, &mut out);
    out.push(0x0000_FFFF);
    Ok(out)
}
