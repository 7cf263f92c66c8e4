//! Expression helpers: building HLSL expressions from operands (modifiers, splats,
//! selections, calls, binary operators) and the opcode and comparison tables.

use d3dbc::ir::SrcParam;
use d3dbc::opcode::Opcode;
use d3dbc::token::{Comparison, RegisterType, SrcModifier};

use crate::interface::{sel_text, Part, Sel};
use crate::text::{construct, float_type, letters, Expr, Prec};

impl Expr {
    /// This expression as `n` components (a scalar is cast to a splat).
    pub fn splat(self, n: u8) -> Expr {
        if self.width == n || n == 1 {
            self
        } else if self.width == 1 {
            Expr::atom(format!("({}){}", float_type(n), self.at(Prec::Unary)), n)
        } else {
            self
        }
    }
}

pub(super) fn is_const(s: &SrcParam) -> bool {
    matches!(
        s.reg.kind,
        RegisterType::Const | RegisterType::Const2 | RegisterType::Const3 | RegisterType::Const4
    )
}

/// The modifier's arithmetic on a literal, as the executor computes it.
pub(super) fn modifier_value(m: SrcModifier, x: f32) -> f32 {
    m.apply(x)
}

/// ps_1_4 `_dz`/`_dw`: the coordinate divided by its z or w (0 where that is 0).
pub(super) fn projected(c: &Expr, m: SrcModifier) -> Expr {
    let a = c.at(Prec::Atom);
    match m {
        SrcModifier::Dz => Expr::new(format!("{a} * ({a}.z == 0 ? 0 : 1 / {a}.z)"), Prec::Mul, 4),
        SrcModifier::Dw => Expr::new(format!("{a} * ({a}.w == 0 ? 0 : 1 / {a}.w)"), Prec::Mul, 4),
        _ => c.clone(),
    }
}

/// Groups component reads into `base.sel` runs and builds the vector.
pub(super) fn group(parts: Vec<Part>) -> Expr {
    let mut runs: Vec<(String, u8, Vec<Sel>)> = Vec::new();
    for p in parts {
        match runs.last_mut() {
            Some((b, _, sels))
                if *b == p.base
                    && std::mem::discriminant(&sels[0]) == std::mem::discriminant(&p.sel)
                    && sels.len() < 4 =>
            {
                sels.push(p.sel)
            }
            _ => runs.push((p.base, p.base_width, vec![p.sel])),
        }
    }
    let exprs: Vec<Expr> = runs
        .into_iter()
        .map(|(base, width, sels)| {
            let identity = sels.len() as u8 == width
                && sels
                    .iter()
                    .enumerate()
                    .all(|(i, s)| *s == Sel::Comp(i as u8));
            let n = sels.len() as u8;
            if identity {
                Expr::atom(base, n)
            } else if width == 1 && sels.iter().all(|s| *s == Sel::Comp(0)) && n == 1 {
                Expr::atom(base, 1)
            } else {
                Expr::atom(format!("{base}.{}", sel_text(&sels)), n)
            }
        })
        .collect();
    construct(exprs)
}

/// `e` with a source modifier applied.
pub(super) fn apply_modifier(e: Expr, m: SrcModifier, _clamped: bool) -> Expr {
    let w = e.width;
    match m {
        SrcModifier::None | SrcModifier::Not | SrcModifier::Dz | SrcModifier::Dw => e,
        // `-(-x)` is `x` (negation is exact).
        SrcModifier::Neg => match e.text.strip_prefix('-') {
            Some(inner) if e.prec == Prec::Unary => Expr::new(inner, Prec::Unary, w),
            _ => Expr::new(format!("-{}", e.at(Prec::Unary)), Prec::Unary, w),
        },
        SrcModifier::Abs => Expr::atom(format!("abs({})", e.text), w),
        SrcModifier::AbsNeg => Expr::new(format!("-abs({})", e.text), Prec::Unary, w),
        SrcModifier::Bias => Expr::new(format!("{} - 0.5", e.at(Prec::Add)), Prec::Add, w),
        SrcModifier::BiasNeg => Expr::new(format!("-({} - 0.5)", e.at(Prec::Add)), Prec::Unary, w),
        SrcModifier::Sign => Expr::new(format!("2 * ({} - 0.5)", e.at(Prec::Add)), Prec::Mul, w),
        SrcModifier::SignNeg => Expr::new(
            format!("-(2 * ({} - 0.5))", e.at(Prec::Add)),
            Prec::Unary,
            w,
        ),
        SrcModifier::Comp => Expr::new(format!("1 - {}", e.right_of(Prec::Add)), Prec::Add, w),
        SrcModifier::X2 => Expr::new(format!("2 * {}", e.right_of(Prec::Mul)), Prec::Mul, w),
        SrcModifier::X2Neg => {
            Expr::new(format!("-(2 * {})", e.right_of(Prec::Mul)), Prec::Unary, w)
        }
    }
}

/// `abs(x)` unless the source already carries `_abs`.
pub(super) fn abs_of(s: &SrcParam, x: Expr) -> String {
    if s.modifier == SrcModifier::Abs {
        x.text
    } else {
        format!("abs({})", x.text)
    }
}

/// `e` as a scalar when it only repeats one value over `w` components (`(float3)0.5`,
/// `r0.xxxx`): HLSL widens a scalar operand of a binary operator itself.
pub(super) fn scalar_of(e: &Expr, w: u8) -> Option<Expr> {
    if w < 2 || e.width != w {
        return None;
    }
    let cast = format!("({})", float_type(w));
    if let Some(rest) = e.text.strip_prefix(&cast) {
        if !rest.contains(' ') {
            let prec = if rest.starts_with('-') {
                Prec::Unary
            } else {
                Prec::Atom
            };
            return Some(Expr::new(rest, prec, 1));
        }
    }
    let (base, sel) = e.text.rsplit_once('.')?;
    let c = sel.chars().next()?;
    let plain = base
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.' || c == '[' || c == ']');
    if e.prec == Prec::Atom
        && plain
        && sel.len() == w as usize
        && "xyzw".contains(c)
        && sel.chars().all(|x| x == c)
    {
        return Some(Expr::atom(format!("{base}.{c}"), 1));
    }
    None
}

pub(super) fn binary(a: Expr, op: &str, b: Expr, prec: Prec) -> Expr {
    let w = a.width.max(b.width);
    // At most one operand becomes a scalar, so that the result keeps its width.
    let (a, b) = match (scalar_of(&a, w), scalar_of(&b, w)) {
        (None, Some(sb)) => (a, sb),
        (Some(sa), None) => (sa, b),
        _ => (a, b),
    };
    Expr::new(format!("{} {op} {}", a.at(prec), b.right_of(prec)), prec, w)
}

pub(super) fn call(f: &str, args: &[Expr], width: u8) -> Expr {
    let a: Vec<&str> = args.iter().map(|e| e.text.as_str()).collect();
    Expr::atom(format!("{f}({})", a.join(", ")), width)
}

/// Components `comps` of a float4-valued expression.
pub(super) fn select(e: Expr, comps: &[u8]) -> Expr {
    if comps == [0, 1, 2, 3] {
        return e;
    }
    let n = comps.len() as u8;
    Expr::atom(format!("{}.{}", e.at(Prec::Atom), letters(comps)), n)
}

/// A matrix instruction's (vector length, registers read).
pub(super) fn matrix_shape(op: Opcode) -> (u8, u8) {
    op.matrix().map_or((4, 4), |m| (m.columns, m.rows))
}

pub(super) fn comparison(c: Option<Comparison>) -> &'static str {
    match c {
        Some(Comparison::Gt) => ">",
        Some(Comparison::Eq) => "==",
        Some(Comparison::Ge) => ">=",
        Some(Comparison::Lt) => "<",
        Some(Comparison::Ne) => "!=",
        Some(Comparison::Le) => "<=",
        None => "!=",
    }
}
