//! Device-dependent semantics: the one options struct that the CPU executor
//! (`d3dbc-exec`) and the translator (`d3dbc-naga`) both read.
//!
//! Direct3D 9 leaves some results to the hardware: `rcp(0)`, `log(0)`, the range of
//! ps_1_x arithmetic, how `mova` breaks ties, whether `0 · x` is 0 when `x` is inf or NaN.
//! Real drivers disagree (see `../shared/design/semantics.md`), so each such choice is a
//! field here with a documented default that matches most D3D9 hardware. Nothing else in
//! the workspace hard-codes one of these choices.

/// How a multiplication inside the ops D3D9 hardware computes with "0 · anything = 0"
/// behaves (mul, mad, dp2add, dp3, dp4, m#x#, lrp, crs, dst.y, nrm, pow, lit, bem/texbem/
/// texbeml, texm3x*, texdp3*, texm3x3spec, clip-plane dots and fog). Source modifiers and
/// destination shifts are never affected.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum MulZero {
    /// Plain IEEE-754 multiplication: `0 · inf = NaN`.
    Ieee,
    /// `a · b` is computed as `(b == 0 ? 0 : a) · (a == 0 ? 0 : b)`: exactly 0 whenever
    /// either factor is ±0, whatever the other is (inf and NaN included). What every
    /// D3D9-era device does; the default.
    #[default]
    Strict,
    /// Both factors are clamped to ±`f32::MAX` before the multiply, so `0 · inf = 0`
    /// but `0 · NaN` stays NaN. Cheaper on GPUs than [`MulZero::Strict`] (DXVK's
    /// "enabled" float emulation); the CPU executor treats it as `Strict` for finite and
    /// infinite factors.
    Fast,
}

/// What `rcp`, `rsq` (and `nrm` of a zero-length vector's scale) return for an input of 0.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum ReciprocalOfZero {
    /// `±inf` (NVIDIA, AMD; the documentation's text). The default.
    #[default]
    Infinity,
    /// `±f32::MAX` (Intel; the documentation's pseudocode).
    FltMax,
}

/// What `log`/`logp` return for an input of 0.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum LogOfZero {
    /// `-f32::MAX` (AMD, Intel; the documentation). The default.
    #[default]
    NegFltMax,
    /// `-inf` (NVIDIA: no clamp).
    NegInfinity,
}

/// How `mova` (vs_2_0 and later) rounds a value exactly halfway between two integers.
/// (vs_1_1 `mov a0, …` always floors: every driver agrees.)
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum MovaTies {
    /// Away from zero (`1.5 → 2`, `-1.5 → -2`, `0.5 → 1`; wined3d, MojoShader).
    AwayFromZero,
    /// To even (`0.5 → 0`, `1.5 → 2`, `2.5 → 2`, `-0.5 → -0`): what Windows does, the
    /// "rounding to nearest" of Microsoft's driver documentation of `D3DSIO_MOVA`
    /// (IEEE 754's default rounding); dxbc-spirv, DXVK's current D3D9 front end. The
    /// default.
    #[default]
    ToEven,
    /// Half up, `floor(x + 0.5)` (`-1.5 → -1`; DXVK's older front end).
    HalfUp,
}

/// Device-dependent semantics shared by the CPU executor and the translator.
///
/// ```
/// let s = d3dbc::semantics::Semantics::default();
/// assert_eq!(s.mul_zero, d3dbc::semantics::MulZero::Strict);
/// assert_eq!(s.ps1x_max_value, 8.0);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(default, deny_unknown_fields))]
pub struct Semantics {
    /// The `0 · x = 0` rule. Default [`MulZero::Strict`].
    pub mul_zero: MulZero,
    /// `rcp(0)`, `rsq(0)`. Default [`ReciprocalOfZero::Infinity`].
    pub rcp_zero: ReciprocalOfZero,
    /// `log(0)`, `logp(0)`. Default [`LogOfZero::NegFltMax`].
    pub log_zero: LogOfZero,
    /// `D3DCAPS9.PixelShader1xMaxValue`: ps_1_x arithmetic results and constants are
    /// clamped to ±this value. Default 8.0 (the value D3D9-era hardware of the ps_1_4
    /// generation reports); at least 1.
    pub ps1x_max_value: f32,
    /// ps_1_x float constants are clamped to [−1, 1] when read (what the runtime does
    /// on every device). Default true.
    pub ps1x_clamp_constants: bool,
    /// The ps_1_x colour output (`r0` at the end of the shader) is saturated to [0, 1]
    /// before it reaches the output merger. Device-dependent: ps_1_x hardware computed
    /// in fixed point and could only bind UNORM targets, so the clamp was never
    /// visible there; on later hardware running ps_1_x into a float target, a driver
    /// may pass the full ±[`Semantics::ps1x_max_value`] range through. Default true
    /// (what the fixed-point pipeline gives). Only float render targets can tell.
    pub ps1x_saturate_output: bool,
    /// `mova` tie rule. Default [`MovaTies::ToEven`] (Windows).
    pub mova_ties: MovaTies,
    /// `mad` as one fused multiply-add (one rounding) instead of a multiply then an add.
    /// Default false (D3D9 hardware rounds twice).
    pub fused_mad: bool,
}

impl Default for Semantics {
    fn default() -> Self {
        Semantics {
            mul_zero: MulZero::Strict,
            rcp_zero: ReciprocalOfZero::Infinity,
            log_zero: LogOfZero::NegFltMax,
            ps1x_max_value: 8.0,
            ps1x_clamp_constants: true,
            ps1x_saturate_output: true,
            mova_ties: MovaTies::ToEven,
            fused_mad: false,
        }
    }
}

impl Semantics {
    /// `a · b` under [`Semantics::mul_zero`], for the ops that follow the rule.
    #[inline]
    pub fn mul(&self, a: f32, b: f32) -> f32 {
        match self.mul_zero {
            MulZero::Ieee => a * b,
            MulZero::Strict | MulZero::Fast => {
                if a == 0.0 || b == 0.0 {
                    // The sign of the zero follows IEEE for finite factors.
                    let a = if b == 0.0 && !a.is_finite() { 0.0 } else { a };
                    let b = if a == 0.0 && !b.is_finite() { 0.0 } else { b };
                    a * b
                } else {
                    a * b
                }
            }
        }
    }

    /// `1 / x` under [`Semantics::rcp_zero`] (`rcp(1)` is exactly 1).
    #[inline]
    pub fn rcp(&self, x: f32) -> f32 {
        if x == 0.0 {
            let big = match self.rcp_zero {
                ReciprocalOfZero::Infinity => f32::INFINITY,
                ReciprocalOfZero::FltMax => f32::MAX,
            };
            big.copysign(x)
        } else {
            1.0 / x
        }
    }

    /// `1 / sqrt(|x|)` under [`Semantics::rcp_zero`].
    #[inline]
    pub fn rsq(&self, x: f32) -> f32 {
        let a = x.abs();
        if a == 0.0 {
            match self.rcp_zero {
                ReciprocalOfZero::Infinity => f32::INFINITY,
                ReciprocalOfZero::FltMax => f32::MAX,
            }
        } else {
            1.0 / a.sqrt()
        }
    }

    /// `log2(|x|)` under [`Semantics::log_zero`].
    #[inline]
    pub fn log2(&self, x: f32) -> f32 {
        let a = x.abs();
        if a == 0.0 {
            match self.log_zero {
                LogOfZero::NegFltMax => -f32::MAX,
                LogOfZero::NegInfinity => f32::NEG_INFINITY,
            }
        } else {
            a.log2()
        }
    }

    /// The address-register value `mova` writes for `x` under [`Semantics::mova_ties`].
    #[inline]
    pub fn mova_round(&self, x: f32) -> f32 {
        match self.mova_ties {
            MovaTies::AwayFromZero => x.round(),
            MovaTies::ToEven => x.round_ties_even(),
            MovaTies::HalfUp => (x + 0.5).floor(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zero_times_anything() {
        let s = Semantics::default();
        assert_eq!(s.mul(0.0, f32::INFINITY), 0.0);
        assert_eq!(s.mul(f32::NAN, 0.0), 0.0);
        assert_eq!(s.mul(2.0, 3.0), 6.0);
        let ieee = Semantics {
            mul_zero: MulZero::Ieee,
            ..s
        };
        assert!(ieee.mul(0.0, f32::INFINITY).is_nan());
    }

    #[test]
    fn reciprocal_log_and_mova() {
        let s = Semantics::default();
        assert_eq!(s.rcp(0.0), f32::INFINITY);
        assert_eq!(s.rcp(-0.0), f32::NEG_INFINITY);
        assert_eq!(s.rcp(1.0), 1.0);
        assert_eq!(s.rsq(-4.0), 0.5);
        assert_eq!(s.log2(0.0), -f32::MAX);
        assert_eq!(s.log2(-8.0), 3.0);
        assert_eq!(s.mova_round(-1.5), -2.0);
        assert_eq!(s.mova_round(2.5), 2.0);
        assert_eq!(s.mova_round(0.5), 0.0);
        let away = Semantics {
            mova_ties: MovaTies::AwayFromZero,
            ..s
        };
        assert_eq!(away.mova_round(2.5), 3.0);
        let fm = Semantics {
            rcp_zero: ReciprocalOfZero::FltMax,
            ..s
        };
        assert_eq!(fm.rsq(0.0), f32::MAX);
    }
}
