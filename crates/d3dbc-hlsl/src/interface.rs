//! The shader's interface in HLSL: the input and output structs (one field per
//! semantic, fields named after it), and the uniforms, declared from the constant
//! table with their names, types and explicit registers (or, without one, named after
//! their registers), plus how every constant register component is read back through
//! them.

use std::collections::BTreeMap;
use std::fmt::Write;

use d3dbc::ctab::{Constant, ParameterClass, ParameterType, RegisterSet};
use d3dbc::token::{DeclUsage, RegisterType, SamplerType};
use d3dbc::Analysis;
use d3dbc::{Ctab, Shader, Version};

use crate::text::{is_identifier, XYZW};

/// One member of the input or output struct.
#[derive(Clone, Debug)]
pub(crate) struct Field {
    /// Member name (`texcoord0`).
    pub name: String,
    /// HLSL type (`float4`, `float2`, `float`).
    pub ty: &'static str,
    /// Semantic (`TEXCOORD0`).
    pub semantic: String,
    /// The register it stands for and the components it covers.
    pub reg: (RegisterType, u16),
    pub mask: u8,
    /// Components of the field: 4 for `float4`, 2 for `vPos`, 1 for scalars.
    pub width: u8,
}

/// The semantic of a usage and index (`TEXCOORD3`, `POSITION`, `COLOR0`).
pub(crate) fn semantic(usage: DeclUsage, index: u8) -> String {
    let base = usage.name().to_ascii_uppercase();
    match usage {
        DeclUsage::TexCoord | DeclUsage::Color => format!("{base}{index}"),
        _ if index == 0 => base,
        _ => format!("{base}{index}"),
    }
}

/// A field name for a semantic (`texcoord3`, `position`, `color0`).
pub(crate) fn field_name(usage: DeclUsage, index: u8) -> String {
    let base = usage.name();
    match usage {
        DeclUsage::TexCoord | DeclUsage::Color => format!("{base}{index}"),
        _ if index == 0 => base.to_string(),
        _ => format!("{base}{index}"),
    }
}

/// How one float constant register is read.
#[derive(Clone, Debug)]
pub(crate) enum RegAccess {
    /// A vector of `width` components: `name`, `name[3]`, `M[2]` (a row of a
    /// row-major matrix).
    Vector { expr: String, width: u8 },
    /// Column `col` of a column-major matrix with `rows` rows: component `c` is
    /// `expr._m{c}{col}`.
    Column { expr: String, col: u8, rows: u8 },
}

/// One component a source reads: the expression it comes from and how to select it.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Part {
    /// The vector or matrix expression.
    pub base: String,
    /// Its width (vectors), to drop an identity selection.
    pub base_width: u8,
    /// `x`…`w`, or a matrix element `_m{r}{c}`.
    pub sel: Sel,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Sel {
    Comp(u8),
    Elem(u8, u8),
}

/// A matrix constant (or one element of a matrix array) and the registers it holds.
#[derive(Clone, Debug)]
pub(crate) struct Matrix {
    /// The expression (`World`, `Bones[3]`).
    pub expr: String,
    pub base: u16,
    /// Registers: rows (row-major) or columns (column-major).
    pub regs: u16,
    pub row_major: bool,
    pub rows: u8,
    pub cols: u8,
}

/// A relatively addressed float4 array: registers `base..base+count` named `name`.
#[derive(Clone, Debug)]
pub(crate) struct RelArray {
    pub name: String,
    pub base: u16,
    pub count: u16,
}

/// Everything declared outside `main`.
#[derive(Debug, Default)]
pub(crate) struct Uniforms {
    /// Declarations, one per line.
    pub decls: String,
    pub floats: BTreeMap<u16, RegAccess>,
    pub rel: Vec<RelArray>,
    pub ints: BTreeMap<u16, String>,
    pub bools: BTreeMap<u16, String>,
    pub samplers: BTreeMap<u16, (String, SamplerType)>,
    pub matrices: Vec<Matrix>,
    /// Names taken.
    pub names: Vec<String>,
}

/// What the body reads from the constant files (found before declaring them).
#[derive(Debug, Default)]
pub(crate) struct ConstReads {
    /// Float registers read directly: components (bit mask).
    pub direct: BTreeMap<u16, u8>,
    /// Float registers named as the base of a relative read.
    pub rel: Vec<u16>,
    /// Registers a relative read reaches inside a loop of known range.
    pub rel_extent: Vec<u16>,
    pub ints: Vec<u16>,
    pub bools: Vec<u16>,
    /// Samplers used, with the type the instruction needs when no `dcl` says.
    pub samplers: BTreeMap<u16, SamplerType>,
}

impl Uniforms {
    /// Declares the constant table's constants (and the registers it leaves out that
    /// the body reads), recording how each register is read.
    pub fn declare(
        shader: &Shader,
        a: &Analysis,
        ctab: Option<&Ctab>,
        reads: &ConstReads,
    ) -> Uniforms {
        let mut u = Uniforms::default();
        let version = shader.version;
        let empty = Vec::new();
        let constants = ctab.map_or(&empty, |t| &t.constants);
        let defined_f = |n: u16| a.float_def(n).is_some();
        for k in constants {
            u.ctab_constant(k, a, reads, version);
        }
        let _ = defined_f;
        // Relative reads of the shader's own `def`s (an HLSL `static const` array the
        // compiler placed in constant registers): the same table, static.
        for &b in &reads.rel {
            if a.float_def(b).is_none() || u.rel.iter().any(|r| r.base <= b && b < r.base + r.count)
            {
                continue;
            }
            let mut start = b;
            while start > 0 && a.float_def(start - 1).is_some() {
                start -= 1;
            }
            let mut end = b;
            while a.float_def(end + 1).is_some() {
                end += 1;
            }
            let rows: Vec<String> = (start..=end)
                .filter_map(|r| a.float_def(r))
                .map(|d| crate::text::literal_vector(&d.map(f32::from_bits)).text)
                .collect();
            let name = u.unique(&format!("c{start}_table"));
            let _ = writeln!(
                u.decls,
                "static const float4 {name}[{}] = {{ {} }}; // def c{start}-c{end}, indexed at run time",
                rows.len(),
                rows.join(", ")
            );
            u.rel.push(RelArray {
                name,
                base: start,
                count: end - start + 1,
            });
        }
        // Registers without a constant-table entry.
        let rel_bases: Vec<u16> = reads
            .rel
            .iter()
            .copied()
            // A base past a named array still reads through it (the index reaches on).
            .filter(|b| a.float_def(*b).is_none() && !u.rel.iter().any(|r| r.base <= *b))
            .collect();
        if !rel_bases.is_empty() {
            // One array over the whole file below the highest register named: relative
            // reads index it from c0, direct reads too.
            let top = reads
                .direct
                .keys()
                .chain(rel_bases.iter())
                .chain(reads.rel_extent.iter())
                .copied()
                .max()
                .unwrap_or(0);
            // Past the registers named, up to the file's end less room for the
            // compiler's own literals: an index the original reads there reads the same.
            let file = d3dbc::regs::float_constant_file(
                Version {
                    minor: if version.is_software() {
                        0
                    } else {
                        version.minor
                    },
                    ..version
                },
                None,
            ) as u16;
            let count = (top + 1).max(file.saturating_sub(32));
            let name = u.unique("c");
            let _ = writeln!(
                u.decls,
                "float4 {name}[{count}] : register(c0); // the constant file, indexed at run time"
            );
            let defs: Vec<String> = a
                .float_defs
                .iter()
                .filter(|(r, _)| *r < count)
                .map(|(r, _)| format!("c{r}"))
                .collect();
            if !defs.is_empty() {
                let _ = writeln!(
                    u.decls,
                    "// {} hold the original's own def values: upload them with the rest",
                    defs.join(", ")
                );
            }
            for r in 0..count {
                u.floats.entry(r).or_insert(RegAccess::Vector {
                    expr: format!("{name}[{r}]"),
                    width: 4,
                });
            }
            u.rel.push(RelArray {
                name,
                base: 0,
                count,
            });
        }
        for (&r, _) in reads.direct.iter() {
            if u.floats.contains_key(&r) || a.float_def(r).is_some() {
                continue;
            }
            let name = u.unique(&format!("c{r}"));
            let _ = writeln!(u.decls, "float4 {name} : register(c{r});");
            u.floats.insert(
                r,
                RegAccess::Vector {
                    expr: name,
                    width: 4,
                },
            );
        }
        for &r in &reads.ints {
            if u.ints.contains_key(&r) || a.int_def(r).is_some() {
                continue;
            }
            let name = u.unique(&format!("i{r}"));
            let _ = writeln!(u.decls, "int4 {name} : register(i{r});");
            u.ints.insert(r, name);
        }
        for &r in &reads.bools {
            if u.bools.contains_key(&r) || a.bool_def(r).is_some() {
                continue;
            }
            let name = u.unique(&format!("b{r}"));
            let _ = writeln!(u.decls, "bool {name} : register(b{r});");
            u.bools.insert(r, name);
        }
        for (&s, &ty) in &reads.samplers {
            if u.samplers.contains_key(&s) {
                continue;
            }
            let ty = a
                .sampler_type(s)
                .filter(|t| *t != SamplerType::Unknown)
                .unwrap_or(ty);
            let name = u.unique(&format!("s{s}"));
            let _ = writeln!(u.decls, "{} {name} : register(s{s});", sampler_type(ty));
            u.samplers.insert(s, (name, ty));
        }
        u
    }

    /// A name not yet taken, from `want`.
    pub fn unique(&mut self, want: &str) -> String {
        let base = if is_identifier(want) {
            want.to_string()
        } else {
            let cleaned: String = want
                .chars()
                .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
                .collect();
            let cleaned = cleaned.trim_matches('_').to_string();
            if is_identifier(&cleaned) {
                cleaned
            } else {
                format!("u_{cleaned}")
            }
        };
        let mut name = base.clone();
        let mut n = 1;
        while self.names.contains(&name) || !is_identifier(&name) {
            name = format!("{base}_{n}");
            n += 1;
        }
        self.names.push(name.clone());
        name
    }

    fn ctab_constant(&mut self, k: &Constant, a: &Analysis, reads: &ConstReads, version: Version) {
        let (start, count) = (k.register_index, k.register_count);
        match k.register_set {
            RegisterSet::Sampler => {
                let ty = (start..start + count.max(1))
                    .find_map(|s| a.sampler_type(s).filter(|t| *t != SamplerType::Unknown))
                    .or_else(|| reads.samplers.get(&start).copied())
                    .unwrap_or(match k.ty.ty {
                        ParameterType::Sampler3D => SamplerType::Volume,
                        ParameterType::SamplerCube => SamplerType::Cube,
                        _ => SamplerType::Tex2D,
                    });
                let name = self.unique(&k.name);
                if count > 1 {
                    // Sampler arrays: one sampler per register, named by element.
                    for e in 0..count {
                        let n = self.unique(&format!("{name}_{e}"));
                        let _ = writeln!(
                            self.decls,
                            "{} {n} : register(s{});",
                            sampler_type(ty),
                            start + e
                        );
                        self.samplers.insert(start + e, (n, ty));
                    }
                } else {
                    let _ = writeln!(
                        self.decls,
                        "{} {name} : register(s{start});",
                        sampler_type(ty)
                    );
                    self.samplers.insert(start, (name, ty));
                }
            }
            RegisterSet::Bool => {
                let name = self.unique(&k.name);
                if count > 1 {
                    let _ = writeln!(self.decls, "bool {name}[{count}] : register(b{start});");
                    for e in 0..count {
                        self.bools.insert(start + e, format!("{name}[{e}]"));
                    }
                } else {
                    let _ = writeln!(self.decls, "bool {name} : register(b{start});");
                    self.bools.insert(start, name);
                }
            }
            RegisterSet::Int4 => {
                let name = self.unique(&k.name);
                if count > 1 {
                    let _ = writeln!(self.decls, "int4 {name}[{count}] : register(i{start});");
                    for e in 0..count {
                        self.ints.insert(start + e, format!("{name}[{e}]"));
                    }
                } else {
                    let _ = writeln!(self.decls, "int4 {name} : register(i{start});");
                    self.ints.insert(start, name);
                }
            }
            RegisterSet::Float4 => self.float_constant(k, a, reads, version),
            RegisterSet::Other(_) => {}
        }
    }

    fn float_constant(&mut self, k: &Constant, a: &Analysis, reads: &ConstReads, _v: Version) {
        let (start, count) = (k.register_index, k.register_count);
        if count == 0 {
            return;
        }
        // A register this shader defines itself (`def`) is not the constant's.
        if (start..start + count).any(|r| a.float_def(r).is_some()) {
            return;
        }
        let ty = &k.ty;
        let float_like = matches!(ty.ty, ParameterType::Float);
        let elements = ty.elements.max(1);
        let (rows, cols) = (ty.rows.clamp(1, 4) as u8, ty.columns.clamp(1, 4) as u8);
        // Registers per element and how component c of element register j is read.
        let layout = match ty.class {
            ParameterClass::Scalar | ParameterClass::Vector if rows == 1 => {
                Some((1u16, Layout::Vector(cols)))
            }
            ParameterClass::MatrixRows => Some((rows as u16, Layout::RowMajor(rows, cols))),
            ParameterClass::MatrixColumns => Some((cols as u16, Layout::ColMajor(rows, cols))),
            _ => None,
        };
        let rel_here = reads.rel.iter().any(|&b| start <= b && b < start + count);
        let natural = layout.filter(|&(per, lay)| {
            if !float_like {
                return false;
            }
            if rel_here && !matches!(lay, Layout::Vector(4)) {
                return false;
            }
            // An array whose last element the table cuts short would reach into the
            // next constant's registers.
            if (elements > 1 || count > per) && count % per != 0 {
                return false;
            }
            // Every component read must exist in the type.
            (start..start + count).all(|r| {
                let m = reads.direct.get(&r).copied().unwrap_or(0);
                let j = ((r - start) % per) as u8;
                let have = match lay {
                    Layout::Vector(w) => (1u8 << w) - 1,
                    Layout::RowMajor(_, c) => {
                        let _ = j;
                        (1u8 << c) - 1
                    }
                    Layout::ColMajor(r, _) => (1u8 << r) - 1,
                };
                m & !have == 0
            })
        });
        let name = self.unique(&k.name);
        match natural {
            Some((per, lay)) => {
                // Registers the constant table gives it may be fewer than the type's
                // size (the compiler allocates what the shader reads): declare what
                // fits, so that no two declarations overlap.
                let whole = (count / per).max(1);
                let partial = count % per;
                let (decl_ty, elems, lay) = if elements > 1 || whole > 1 {
                    let n = if partial > 0 { whole + 1 } else { whole };
                    (type_name(lay, None), Some(n), lay)
                } else if partial > 0 || count < per {
                    // One matrix with fewer registers than its type: keep the rows or
                    // columns that are there.
                    let lay = match lay {
                        Layout::RowMajor(_, c) => Layout::RowMajor(count as u8, c),
                        Layout::ColMajor(r, _) => Layout::ColMajor(r, count as u8),
                        l => l,
                    };
                    (type_name(lay, None), None, lay)
                } else {
                    (type_name(lay, None), None, lay)
                };
                let per = match lay {
                    Layout::Vector(_) => 1,
                    Layout::RowMajor(r, _) => r as u16,
                    Layout::ColMajor(_, c) => c as u16,
                };
                let note = if elems.is_some_and(|n| n * per > count) {
                    format!(" // {count} registers used")
                } else {
                    String::new()
                };
                let _ = match elems {
                    Some(n) => writeln!(
                        self.decls,
                        "{decl_ty} {name}[{n}] : register(c{start});{note}"
                    ),
                    None => writeln!(self.decls, "{decl_ty} {name} : register(c{start});"),
                };
                if let Layout::RowMajor(rr, cc) | Layout::ColMajor(rr, cc) = lay {
                    let row_major = matches!(lay, Layout::RowMajor(..));
                    for e in 0..(count / per) {
                        self.matrices.push(Matrix {
                            expr: match elems {
                                Some(_) => format!("{name}[{e}]"),
                                None => name.clone(),
                            },
                            base: start + e * per,
                            regs: per,
                            row_major,
                            rows: rr,
                            cols: cc,
                        });
                    }
                }
                for r in start..start + count {
                    let e = (r - start) / per;
                    let j = ((r - start) % per) as u8;
                    let base = match elems {
                        Some(_) => format!("{name}[{e}]"),
                        None => name.clone(),
                    };
                    let access = match lay {
                        Layout::Vector(w) => RegAccess::Vector {
                            expr: base,
                            width: w,
                        },
                        Layout::RowMajor(_, c) => RegAccess::Vector {
                            expr: format!("{base}[{j}]"),
                            width: c,
                        },
                        Layout::ColMajor(rw, _) => RegAccess::Column {
                            expr: base,
                            col: j,
                            rows: rw,
                        },
                    };
                    self.floats.insert(r, access);
                }
                if rel_here {
                    self.rel.push(RelArray {
                        name,
                        base: start,
                        count,
                    });
                }
            }
            None => {
                // Declared register by register as float4 (the shader reads it past its
                // type, indexes it at run time, or the type holds no plain floats).
                let what = describe_type(k);
                if count > 1 || rel_here {
                    let _ = writeln!(
                        self.decls,
                        "float4 {name}[{count}] : register(c{start}); // {what} in the constant table"
                    );
                    for r in start..start + count {
                        self.floats.insert(
                            r,
                            RegAccess::Vector {
                                expr: format!("{name}[{}]", r - start),
                                width: 4,
                            },
                        );
                    }
                    if rel_here {
                        self.rel.push(RelArray {
                            name,
                            base: start,
                            count,
                        });
                    }
                } else {
                    let _ = writeln!(
                        self.decls,
                        "float4 {name} : register(c{start}); // {what} in the constant table"
                    );
                    self.floats.insert(
                        start,
                        RegAccess::Vector {
                            expr: name,
                            width: 4,
                        },
                    );
                }
            }
        }
    }

    /// Component `comp` of float register `reg`, when declared.
    pub fn float_part(&self, reg: u16, comp: u8) -> Option<Part> {
        Some(match self.floats.get(&reg)? {
            RegAccess::Vector { expr, width } => Part {
                base: expr.clone(),
                base_width: *width,
                sel: Sel::Comp(comp),
            },
            RegAccess::Column { expr, col, rows } => Part {
                base: expr.clone(),
                base_width: *rows,
                sel: Sel::Elem(comp, *col),
            },
        })
    }

    /// The matrix whose registers are exactly `base..base+regs`.
    pub fn matrix(&self, base: u16, regs: u16) -> Option<&Matrix> {
        self.matrices
            .iter()
            .find(|m| m.base == base && m.regs == regs)
    }

    /// The relatively addressed array holding register `base` (else the nearest one
    /// below it, which the index reads on past its end).
    pub fn rel_array(&self, base: u16) -> Option<&RelArray> {
        self.rel
            .iter()
            .find(|r| r.base <= base && base < r.base + r.count)
            .or_else(|| {
                self.rel
                    .iter()
                    .filter(|r| r.base <= base && !r.name.ends_with("_table"))
                    .max_by_key(|r| r.base)
            })
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Layout {
    Vector(u8),
    RowMajor(u8, u8),
    ColMajor(u8, u8),
}

fn type_name(l: Layout, _elements: Option<u16>) -> String {
    match l {
        Layout::Vector(1) => "float".into(),
        Layout::Vector(w) => format!("float{w}"),
        Layout::RowMajor(r, c) => format!("row_major float{r}x{c}"),
        Layout::ColMajor(r, c) => format!("column_major float{r}x{c}"),
    }
}

/// The constant's type as the constant table gives it (`float4x3[20]`, `bool`,
/// `struct Light`).
fn describe_type(k: &Constant) -> String {
    let ty = &k.ty;
    let base = match ty.class {
        ParameterClass::Struct => "struct".to_string(),
        ParameterClass::Scalar => ty.ty.hlsl_name().to_string(),
        ParameterClass::Vector => format!("{}{}", ty.ty.hlsl_name(), ty.columns),
        ParameterClass::MatrixRows => {
            format!("row_major {}{}x{}", ty.ty.hlsl_name(), ty.rows, ty.columns)
        }
        ParameterClass::MatrixColumns => format!("{}{}x{}", ty.ty.hlsl_name(), ty.rows, ty.columns),
        _ => ty.ty.hlsl_name().to_string(),
    };
    if ty.elements > 1 {
        format!("{base}[{}]", ty.elements)
    } else {
        base
    }
}

/// The HLSL sampler type of a `dcl` sampler type.
pub(crate) fn sampler_type(t: SamplerType) -> &'static str {
    match t {
        SamplerType::Cube => "samplerCUBE",
        SamplerType::Volume => "sampler3D",
        _ => "sampler2D",
    }
}

/// Letters of a vector selection.
pub(crate) fn sel_text(sel: &[Sel]) -> String {
    let mut s = String::new();
    for x in sel {
        match *x {
            Sel::Comp(c) => s.push(XYZW[c as usize & 3]),
            Sel::Elem(r, c) => {
                let _ = write!(s, "_m{r}{c}");
            }
        }
    }
    s
}
