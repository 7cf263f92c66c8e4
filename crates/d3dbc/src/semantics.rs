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

/// What float32 arithmetic does with subnormal (denormal) values.
///
/// Direct3D 9 states no rule. What Windows displays comes from the hardware D3D9 runs
/// on today: D3D10-class and later GPUs, whose drivers run D3D9 shaders (and D3D9On12,
/// which translates them to DXIL, whose float32 default for shader model 6 is
/// `denorm=ftz`) with the D3D10+ functional specification's float32 rules: subnormals
/// are flushed (sign kept) on the input and the output of every arithmetic operation,
/// and preserved by data movement that does not compute (`mov`). DXVK's D3D9 front end
/// (dxbc-spirv's `sm3` converter, `emitFloatModes`) requests exactly that:
/// `DenormFlushToZero` for 32-bit floats, round to nearest even, where the device can.
///
/// Under [`Denormals::FlushToZero`] the CPU executor flushes:
/// - every source operand of an arithmetic instruction, after its modifier (the
///   comparisons `slt`, `sge`, `setp`, `if_comp`, `break_comp` and the condition of
///   `cmp`/`cnd` included; `min`/`max` too), and texture coordinates;
/// - every result of an arithmetic instruction (transcendentals included), before the
///   destination modifiers;
///
/// and never: `mov` (its source modifiers are sign operations, not arithmetic), the
/// operands `cmp`/`cnd` select, `mova` (its rounding makes a subnormal 0 either way),
/// constants and inputs until arithmetic reads them, and texture results.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Denormals {
    /// Flushed to a zero of the same sign on arithmetic input and output, preserved by
    /// moves (D3D10+ hardware, DXVK, D3D9On12). The default.
    #[default]
    FlushToZero,
    /// Kept everywhere (IEEE 754's gradual underflow; what a plain CPU computes).
    Preserve,
}

/// Device-dependent semantics shared by the CPU executor and the translator.
///
/// ```
/// let s = d3dbc::Semantics::default();
/// assert_eq!(s.mul_zero, d3dbc::MulZero::Strict);
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
    /// The subnormal rule. Default [`Denormals::FlushToZero`].
    pub denormals: Denormals,
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
            denormals: Denormals::FlushToZero,
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

    /// `x` under [`Semantics::denormals`] where arithmetic reads or writes it: a
    /// subnormal becomes a zero of its sign under [`Denormals::FlushToZero`].
    #[inline(always)]
    pub fn flush(&self, x: f32) -> f32 {
        match self.denormals {
            Denormals::FlushToZero => flush_subnormal(x),
            Denormals::Preserve => x,
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

/// The precision Direct3D 9 documents for an approximated instruction's result, in
/// ulps of the float32 result (and, for `sincos`, of its argument).
///
/// From Microsoft's documentation: `exp`/`log` "at least 21 bits" (4 ulps of a 24-bit
/// significand); `pow` "at least 15 bits" (256 ulps); `expp`/`logp` "at least 10 bits"
/// (8192 ulps); `rcp` "1.0/(2^22) absolute error over (1.0, 2.0)" and `rsq` the same over
/// (1.0, 4.0): results in (0.5, 1), 4 ulps (`nrm` scales by an `rsq`: 4 ulps of the
/// scale); `lit`'s `z` "a `logp`/`expp` combination". `sincos` has no documented bound
/// (D3D10+ allows 0.0008 absolute over ±100π): GPUs reduce the argument in float32, so
/// its error scales with the argument; here 4 ulps of the result plus 4 ulps of the
/// argument. The CPU executor computes every one of these correctly rounded or within
/// 1 ulp (Rust's `f32` `exp2`, `log2`, `sin`, `cos`, `sqrt` and IEEE division); a GPU
/// may use the whole documented error.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Precision {
    /// Allowed error in ulps of the result.
    pub result_ulps: u32,
    /// Allowed error in ulps of the (scalar) argument, added to the result's.
    pub argument_ulps: u32,
}

impl Precision {
    /// The documented precision of `op`'s result; `None` for an instruction computed
    /// exactly (every other arithmetic instruction: IEEE float32 operations).
    pub fn of(op: crate::opcode::Opcode) -> Option<Precision> {
        use crate::opcode::Opcode::*;
        let (result_ulps, argument_ulps) = match op {
            Exp | Log | Rcp | Rsq | Nrm => (4, 0),
            Pow => (256, 0),
            ExpP | LogP | Lit => (8192, 0),
            SinCos => (4, 4),
            _ => return None,
        };
        Some(Precision {
            result_ulps,
            argument_ulps,
        })
    }

    /// `result` moved by `t` times the allowed error (`t = 1`: all of it towards
    /// `+inf`; `t = -1`: towards `-inf`); `result` itself for `t == 0` or a non-finite
    /// value.
    pub fn nudge(&self, result: f32, argument: f32, t: f32) -> f32 {
        if t == 0.0 || !result.is_finite() {
            return result;
        }
        let ulp = |x: f32| {
            let a = x.abs();
            if a.is_finite() {
                (f32::from_bits(a.to_bits() + 1) - a).max(f32::from_bits(1))
            } else {
                0.0
            }
        };
        let e = self.result_ulps as f32 * ulp(result) + self.argument_ulps as f32 * ulp(argument);
        result + t * e
    }
}

/// `x` with a subnormal replaced by a zero of its sign (written without a branch, so
/// lane loops over it vectorise).
#[inline(always)]
pub fn flush_subnormal(x: f32) -> f32 {
    if x.abs() < f32::MIN_POSITIVE {
        0.0f32.copysign(x)
    } else {
        x
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

    #[test]
    fn subnormals_flush_to_a_zero_of_their_sign() {
        let s = Semantics::default();
        let tiny = f32::from_bits(1);
        assert_eq!(s.flush(tiny).to_bits(), 0);
        assert_eq!(s.flush(-tiny).to_bits(), 0x8000_0000);
        assert_eq!(s.flush(f32::MIN_POSITIVE), f32::MIN_POSITIVE);
        assert_eq!(s.flush(2f32.powi(-128)), 0.0);
        assert!(s.flush(f32::NAN).is_nan());
        assert_eq!(s.flush(f32::INFINITY), f32::INFINITY);
        let keep = Semantics {
            denormals: Denormals::Preserve,
            ..s
        };
        assert_eq!(keep.flush(tiny).to_bits(), 1);
    }

    #[test]
    fn documented_precision_moves_results_by_ulps() {
        use crate::opcode::Opcode;
        let exp = Precision::of(Opcode::Exp).unwrap();
        assert_eq!(exp.nudge(1.0, 0.0, 1.0).to_bits(), 1.0f32.to_bits() + 4);
        assert_eq!(exp.nudge(1.0, 0.0, -1.0), 1.0 - 4.0 * f32::EPSILON);
        assert_eq!(exp.nudge(1.0, 0.0, 0.0), 1.0);
        assert_eq!(Precision::of(Opcode::Pow).unwrap().result_ulps, 256);
        assert_eq!(Precision::of(Opcode::Add), None);
        let sc = Precision::of(Opcode::SinCos).unwrap();
        // The argument's ulps dominate for a large argument.
        assert!(sc.nudge(0.5, 4096.0, 1.0) - 0.5 >= 4.0 * 4096.0 * f32::EPSILON);
    }
}
