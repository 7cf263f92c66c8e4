//! Render-state values that act around the shaders and that both the CPU executor
//! (`d3dbc-exec`) and the translator (`d3dbc-naga`) read: one definition, so a `Draw`
//! and a translation option spell the same state the same way.

/// `D3DCMPFUNC`: the comparison of the alpha test, the depth test and the stencil test.
///
/// Serialized in snake case (`"less_equal"`); Direct3D's upper-case spelling without the
/// prefix (`"LESSEQUAL"`) is accepted on input too.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum CompareFunc {
    /// `D3DCMP_NEVER`: never passes.
    #[cfg_attr(feature = "serde", serde(alias = "NEVER"))]
    Never,
    /// `D3DCMP_LESS`: `a < b`.
    #[cfg_attr(feature = "serde", serde(alias = "LESS"))]
    Less,
    /// `D3DCMP_EQUAL`: `a == b`.
    #[cfg_attr(feature = "serde", serde(alias = "EQUAL"))]
    Equal,
    /// `D3DCMP_LESSEQUAL`: `a <= b`.
    #[cfg_attr(feature = "serde", serde(alias = "LESSEQUAL"))]
    LessEqual,
    /// `D3DCMP_GREATER`: `a > b`.
    #[cfg_attr(feature = "serde", serde(alias = "GREATER"))]
    Greater,
    /// `D3DCMP_NOTEQUAL`: `a != b`.
    #[cfg_attr(feature = "serde", serde(alias = "NOTEQUAL"))]
    NotEqual,
    /// `D3DCMP_GREATEREQUAL`: `a >= b`.
    #[cfg_attr(feature = "serde", serde(alias = "GREATEREQUAL"))]
    GreaterEqual,
    /// `D3DCMP_ALWAYS`: always passes (the default).
    #[default]
    #[cfg_attr(feature = "serde", serde(alias = "ALWAYS"))]
    Always,
}

impl CompareFunc {
    /// `a FUNC b`, with IEEE comparisons (a NaN fails every test but `NotEqual` and `Always`).
    #[inline]
    pub fn test<T: PartialOrd>(self, a: T, b: T) -> bool {
        match self {
            CompareFunc::Never => false,
            CompareFunc::Less => a < b,
            CompareFunc::Equal => a == b,
            CompareFunc::LessEqual => a <= b,
            CompareFunc::Greater => a > b,
            CompareFunc::NotEqual => a != b,
            CompareFunc::GreaterEqual => a >= b,
            CompareFunc::Always => true,
        }
    }

    /// The `D3DCMPFUNC` value (1 = `NEVER` … 8 = `ALWAYS`).
    pub fn from_d3d(v: u32) -> Option<CompareFunc> {
        use CompareFunc::*;
        Some(match v {
            1 => Never,
            2 => Less,
            3 => Equal,
            4 => LessEqual,
            5 => Greater,
            6 => NotEqual,
            7 => GreaterEqual,
            8 => Always,
            _ => return None,
        })
    }
}

#[cfg(all(test, feature = "serde"))]
mod tests {
    use super::CompareFunc;

    #[test]
    fn both_spellings_parse() {
        let a: CompareFunc = serde_json::from_str("\"less_equal\"").unwrap();
        let b: CompareFunc = serde_json::from_str("\"LESSEQUAL\"").unwrap();
        assert_eq!((a, b), (CompareFunc::LessEqual, CompareFunc::LessEqual));
        assert_eq!(serde_json::to_string(&a).unwrap(), "\"less_equal\"");
        assert!(CompareFunc::GreaterEqual.test(1.0, 1.0));
        assert!(!CompareFunc::Less.test(f32::NAN, 1.0));
        assert_eq!(CompareFunc::from_d3d(4), Some(CompareFunc::LessEqual));
    }
}
