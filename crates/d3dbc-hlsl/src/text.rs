//! Spelling HLSL values: float literals that read back as the same bits, vector
//! constructors, swizzle letters, and an expression with its precedence so that
//! operands are parenthesised only where HLSL needs it.

use std::fmt::Write;

/// Binding strength of an expression's outermost operator, weakest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Prec {
    /// `a ? b : c`.
    Select,
    /// `a < b`, `a == b`.
    Compare,
    /// `a + b`, `a - b`.
    Add,
    /// `a * b`, `a / b`.
    Mul,
    /// `-a`, `!a`.
    Unary,
    /// Names, calls, constructors, member and index access, literals.
    Atom,
}

/// An HLSL expression of `width` components (1–4).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Expr {
    pub text: String,
    pub prec: Prec,
    pub width: u8,
}

impl Expr {
    pub fn atom(text: impl Into<String>, width: u8) -> Expr {
        Expr {
            text: text.into(),
            prec: Prec::Atom,
            width,
        }
    }

    pub fn new(text: impl Into<String>, prec: Prec, width: u8) -> Expr {
        Expr {
            text: text.into(),
            prec,
            width,
        }
    }

    /// The text, parenthesised when its operator binds more loosely than `at`.
    pub fn at(&self, at: Prec) -> String {
        if self.prec < at {
            format!("({})", self.text)
        } else {
            self.text.clone()
        }
    }

    /// The text as the right operand of a left-associative operator of precedence
    /// `at` (`a - (b + c)`).
    pub fn right_of(&self, at: Prec) -> String {
        if self.prec <= at {
            format!("({})", self.text)
        } else {
            self.text.clone()
        }
    }
}

/// The HLSL vector type of `width` floats.
pub(crate) fn float_type(width: u8) -> &'static str {
    match width {
        1 => "float",
        2 => "float2",
        3 => "float3",
        _ => "float4",
    }
}

/// Component letters `x`, `y`, `z`, `w`.
pub(crate) const XYZW: [char; 4] = ['x', 'y', 'z', 'w'];

/// The letters of components `comps` (`[0, 1]` → `xy`).
pub(crate) fn letters(comps: &[u8]) -> String {
    comps.iter().map(|&c| XYZW[c as usize & 3]).collect()
}

/// The components of a write mask, in order.
pub(crate) fn mask_comps(mask: u8) -> Vec<u8> {
    (0..4).filter(|c| mask & (1 << c) != 0).collect()
}

/// A float literal that an HLSL compiler reads back as exactly `x`: the shortest
/// decimal that rounds to the same `f32`, in exponent form outside `[1e-4, 1e7)`.
/// Infinities are spelt as an overflowing literal (`1e39` reads as `+inf` in `f32`);
/// NaN, which no literal spells, as `0` after a comment at the call site (never reached:
/// [`nonfinite`] callers test first).
pub(crate) fn float(x: f32) -> String {
    if x.is_nan() {
        return "0".into();
    }
    if x.is_infinite() {
        return if x > 0.0 {
            "1e39".into()
        } else {
            "-1e39".into()
        };
    }
    if x == 0.0 {
        return if x.is_sign_negative() {
            "-0.0".into()
        } else {
            "0".into()
        };
    }
    let a = x.abs();
    let mut s = String::new();
    if (1e-4..1e7).contains(&a) {
        let _ = write!(s, "{x}");
    } else {
        let _ = write!(s, "{x:e}");
    }
    s
}

/// A vector (or scalar) of literals: `0.5`, `float2(1, 0)`; a splat of one value
/// collapses to the scalar when `splat_ok`.
pub(crate) fn literal_vector(v: &[f32]) -> Expr {
    if v.len() == 1 {
        let t = float(v[0]);
        let prec = if t.starts_with('-') {
            Prec::Unary
        } else {
            Prec::Atom
        };
        return Expr::new(t, prec, 1);
    }
    let parts: Vec<String> = v.iter().map(|&x| float(x)).collect();
    Expr::atom(
        format!("{}({})", float_type(v.len() as u8), parts.join(", ")),
        v.len() as u8,
    )
}

/// `floatN(a, b, …)` from expressions of total width `width`, or the one expression
/// when there is a single part of that width.
pub(crate) fn construct(parts: Vec<Expr>) -> Expr {
    let width: u8 = parts.iter().map(|p| p.width).sum();
    if parts.len() == 1 {
        return parts
            .into_iter()
            .next()
            .unwrap_or_else(|| Expr::atom("0", 1));
    }
    let inner: Vec<String> = parts.iter().map(|p| p.text.clone()).collect();
    Expr::atom(
        format!("{}({})", float_type(width), inner.join(", ")),
        width,
    )
}

/// Whether `name` is a usable HLSL identifier (and not a keyword this crate's output
/// could collide with).
pub(crate) fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    let Some(first) = chars.next() else {
        return false;
    };
    (first.is_ascii_alphabetic() || first == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !RESERVED.contains(&name)
}

/// Words an identifier must not be: HLSL keywords and type names, and the names this
/// crate gives its own variables and helpers.
const RESERVED: &[&str] = &[
    "main",
    "i",
    "o",
    "in",
    "out",
    "inout",
    "uniform",
    "static",
    "const",
    "float",
    "float2",
    "float3",
    "float4",
    "half",
    "int",
    "int4",
    "bool",
    "bool4",
    "sampler",
    "sampler1D",
    "sampler2D",
    "sampler3D",
    "samplerCUBE",
    "texture",
    "struct",
    "return",
    "if",
    "else",
    "for",
    "while",
    "do",
    "break",
    "continue",
    "discard",
    "true",
    "false",
    "register",
    "matrix",
    "vector",
    "row_major",
    "column_major",
    "a0",
    "aL",
    "p0",
    "VS_INPUT",
    "VS_OUTPUT",
    "PS_INPUT",
    "PS_OUTPUT",
    "r0",
    "r1",
    "r2",
    "r3",
    "r4",
    "r5",
    "r6",
    "r7",
    "r8",
    "r9",
    "r10",
    "r11",
    "r12",
    "r13",
    "r14",
    "r15",
    "r16",
    "r17",
    "r18",
    "r19",
    "r20",
    "r21",
    "r22",
    "r23",
    "r24",
    "r25",
    "r26",
    "r27",
    "r28",
    "r29",
    "r30",
    "r31",
    "t0",
    "t1",
    "t2",
    "t3",
    "t4",
    "t5",
    "t6",
    "t7",
    "t8",
    "t9",
    "lit",
    "dst",
    "dot",
    "mul",
    "line",
    "point",
    "triangle",
    "m3",
    "e",
    "shared",
    "volatile",
    "inline",
    "sample",
    "pass",
    "technique",
    "compile",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals_read_back_exactly() {
        for x in [
            0.5f32,
            1.0,
            -2.0,
            0.1,
            1.0 / 3.0,
            1e-8,
            3.4e38,
            12345678.0,
            -0.0,
        ] {
            let s = float(x);
            let back: f32 = s.parse().unwrap();
            assert_eq!(back.to_bits(), x.to_bits(), "{x} spelt {s}");
        }
        assert_eq!(float(f32::INFINITY), "1e39");
        assert_eq!(literal_vector(&[1.0, 0.0]).text, "float2(1, 0)");
    }

    #[test]
    fn parentheses_follow_precedence() {
        let sum = Expr::new("a + b", Prec::Add, 1);
        assert_eq!(sum.at(Prec::Mul), "(a + b)");
        assert_eq!(sum.at(Prec::Add), "a + b");
        assert_eq!(sum.right_of(Prec::Add), "(a + b)");
        assert!(is_identifier("World_View"));
        assert!(!is_identifier("$g"));
        assert!(!is_identifier("main"));
    }
}
