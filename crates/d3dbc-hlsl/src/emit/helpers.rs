//! The helper functions the output may need, written once each above `main`.

use crate::text;

/// Helper functions the output may need, written once each above `main`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Helper {
    /// `mova`: round half away from zero.
    Mova,
    /// `lit`.
    Lit,
    /// vs_1_x `logp`.
    LogP,
    /// ps_1_x arithmetic range.
    Ps1Range,
    /// `sin` for shader model 3 targets.
    Sin,
}

impl Helper {
    fn text(self, max: f32) -> String {
        match self {
            Helper::Mova => "// mova: D3D9 rounds to the nearest integer, halves away from zero\n\
                 float d3d_round(float x)\n{\n    return sign(x) * floor(abs(x) + 0.5);\n}\n\n\
                 float4 d3d_round(float4 x)\n{\n    return sign(x) * floor(abs(x) + 0.5);\n}\n"
                .into(),
            Helper::Lit => {
                "// lit: D3D9's lighting coefficients (the power clamped to +-127.9961)\n\
                 float4 d3d_lit(float4 s)\n{\n    float p = clamp(s.w, -127.9961, 127.9961);\n    \
                 float spec = (s.x > 0 && s.y > 0) ? exp2(p * log2(s.y)) : 0;\n    \
                 return float4(1, s.x > 0 ? s.x : 0, spec, 1);\n}\n"
                    .into()
            }
            Helper::LogP => "// logp (vs_1_x): exponent, mantissa and log2 of |x|\n\
                 float4 d3d_logp(float x)\n{\n    float a = abs(x);\n    float l = log2(a);\n    \
                 float e = floor(l);\n    return float4(e, a / exp2(e), l, 1);\n}\n"
                .into(),
            Helper::Ps1Range => {
                let m = text::float(max);
                let mut t = format!("// ps_1_x arithmetic: every result is held in [-{m}, {m}]\n");
                for ty in ["float", "float2", "float3", "float4"] {
                    t.push_str(&format!(
                        "{ty} ps1x({ty} x)\n{{\n    return clamp(x, -{m}, {m});\n}}\n"
                    ));
                }
                t
            }
            Helper::Sin => {
                "// sin: vkd3d-compiler 1.17 writes sin() in shader model 3 with an empty\n\
                 // write mask; cos(x - pi/2) is the same value\n\
                 float d3d_sin(float x)\n{\n    return cos(x - 1.57079637);\n}\n"
                    .into()
            }
        }
    }
}

pub(crate) fn helper_text(h: Helper, max: f32) -> String {
    h.text(max)
}
