//! Numbers: hex, integers and C's `%g` with the Microsoft C runtime's three-digit
//! exponent, formatted on the stack.

use std::fmt::Write as _;

use super::sink::Sink;
/// `v` in lower-case hex, zero-padded to `width` digits.
pub(super) fn push_hex(out: &mut impl Sink, v: u32, width: usize) {
    let mut buf = [0u8; 8];
    let digits = (32 - v.leading_zeros()).div_ceil(4).max(1) as usize;
    let n = digits.max(width.min(8));
    for (i, b) in buf[..n].iter_mut().rev().enumerate() {
        *b = b"0123456789abcdef"[((v >> (4 * i)) & 0xF) as usize];
    }
    out.push_ascii(&buf[..n]);
}

pub(super) const SPACES: &str = "                                                                ";

#[inline(always)]
pub(super) fn push_spaces(out: &mut impl Sink, n: usize) {
    out.push_spaces(n);
}

pub(super) fn push_repeat(out: &mut impl Sink, c: char, n: usize) {
    // The CTAB's rule under `Name` (`------------`): 32 bytes a piece.
    if c == '-' {
        const DASHES: &str = "--------------------------------";
        let mut n = n;
        while n > DASHES.len() {
            out.push_str(DASHES);
            n -= DASHES.len();
        }
        out.push_str(&DASHES[..n]);
        return;
    }
    for _ in 0..n {
        out.push(c);
    }
}

/// The decimal digits of `v`, written at the end of `buf`.
pub(super) fn digits(mut v: u32, buf: &mut [u8; 10]) -> &[u8] {
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (v % 10) as u8;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    &buf[i..]
}

/// `v` in decimal. Below 100 (most register numbers and counts) without a branch on the
/// number of digits, which the branch predictor misses as often as register numbers
/// cross 10: the digits from a table, left-aligned, written as one two-byte piece of
/// which one or two count.
#[inline(always)]
pub(super) fn push_u32(out: &mut impl Sink, v: u32) {
    if v < 100 {
        out.push_fixed(&TWO_DIGITS[v as usize], 1 + usize::from(v >= 10));
        return;
    }
    out.push_ascii(digits(v, &mut [0u8; 10]));
}

/// The numbers below 100 in decimal, left-aligned (`b"7 "`, `b"42"`): the digits and
/// the padding of a left-aligned column.
pub(super) static TWO_DIGITS: [[u8; 2]; 100] = {
    let mut t = [[b' '; 2]; 100];
    let mut v = 0;
    while v < 100 {
        t[v] = if v < 10 {
            [b'0' + v as u8, b' ']
        } else {
            [b'0' + (v / 10) as u8, b'0' + (v % 10) as u8]
        };
        v += 1;
    }
    t
};

pub(super) fn push_i32(out: &mut impl Sink, v: i32) {
    if v < 0 {
        out.push('-');
    }
    push_u32(out, v.unsigned_abs());
}

/// A fixed-size stack buffer implementing `fmt::Write`.
struct StackBuf {
    buf: [u8; 160],
    len: usize,
}

impl StackBuf {
    pub(super) fn new() -> Self {
        StackBuf {
            buf: [0; 160],
            len: 0,
        }
    }
    pub(super) fn as_str(&self) -> &str {
        std::str::from_utf8(&self.buf[..self.len]).unwrap_or("")
    }
}

impl std::fmt::Write for StackBuf {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        let b = s.as_bytes();
        let end = self.len + b.len();
        if end > self.buf.len() {
            return Err(std::fmt::Error);
        }
        self.buf[self.len..end].copy_from_slice(b);
        self.len = end;
        Ok(())
    }
}

/// `%.9g` as Microsoft's C runtime prints it (the `def` immediates).
pub(super) fn push_f32(out: &mut impl Sink, v: f32) {
    // Small integers are by far the most common immediates.
    if integral_below(v.abs(), 1e9) && !(v == 0.0 && v.is_sign_negative()) {
        push_i32(out, v as i32);
        return;
    }
    if push_short_dyadic(out, v) {
        return;
    }
    push_float_g(out, v, 9);
}

/// `%.9g` of a value with at most ten fraction bits whose exact decimal expansion has
/// at most nine significant digits (`0.5`, `-0.375`, `1.0009765625` has eleven and is
/// left out): printed exactly, in the fixed notation `%g` chooses for them (their
/// exponent lies in -4..9). `false`, with nothing written, for every other value.
#[inline]
fn push_short_dyadic(out: &mut impl Sink, v: f32) -> bool {
    let a = v.abs();
    // Multiplying by 2^10 is exact; whole and below 2^40 (so `a` < 2^30 < 10^9).
    let scaled = a * 1024.0;
    if !(a >= 1.0 / 1024.0 && integral_below(scaled, (1u64 << 40) as f64)) {
        return false;
    }
    let m = scaled as u64;
    let int = m >> 10;
    // The fraction's ten decimal digits: (m mod 2^10) / 2^10 = f · 5^10 / 10^10.
    let frac = (m & 1023) * 9_765_625;
    if frac == 0 {
        return false;
    }
    let mut tz = 0;
    let mut f = frac;
    while f.is_multiple_of(10) {
        f /= 10;
        tz += 1;
    }
    let frac_len = 10 - tz;
    let int_digits = if int == 0 { 0 } else { int.ilog10() + 1 };
    // Significant digits: the integer part's and the fraction's; without an integer
    // part, the fraction's from its first non-zero digit.
    let significant = if int == 0 {
        f.ilog10() + 1
    } else {
        int_digits + frac_len
    };
    if significant > 9 {
        return false;
    }
    if v.is_sign_negative() {
        out.push('-');
    }
    push_u32(out, int as u32);
    out.push('.');
    let mut buf = [b'0'; 10];
    let mut d = f;
    for i in (0..frac_len as usize).rev() {
        buf[i] = b'0' + (d % 10) as u8;
        d /= 10;
    }
    out.push_ascii(&buf[..frac_len as usize]);
    true
}

/// `a` (not negative) is a whole number below `limit` (at most 2^63); without
/// `f32::trunc`, a library call on x86-64 before SSE4.1.
#[inline(always)]
fn integral_below(a: f32, limit: f64) -> bool {
    (a as f64) < limit && (a as i64) as f32 == a
}

/// C's `%.{precision}g` with the MSVC runtime's three-digit exponent and its spellings
/// of infinities and NaNs.
pub(super) fn push_float_g(out: &mut impl Sink, v: f32, precision: usize) {
    if v.is_nan() {
        out.push_str(if v.is_sign_negative() {
            "-1.#IND"
        } else {
            "1.#QNAN"
        });
        return;
    }
    if v.is_infinite() {
        out.push_str(if v < 0.0 { "-1.#INF" } else { "1.#INF" });
        return;
    }
    if v == 0.0 {
        out.push_str(if v.is_sign_negative() { "-0" } else { "0" });
        return;
    }
    let p = precision.clamp(1, 17) as i32;
    // Integers below 10^p print as plain digits (`%g` chooses the fixed notation).
    if integral_below(v.abs(), POW10[p as usize]) {
        if v.is_sign_negative() {
            out.push('-');
        }
        push_u32(out, v.abs() as u32);
        return;
    }
    let x = (v as f64).abs();
    let (digits, exp) = significant_digits(x, p);
    let mut buf = [0u8; 20];
    let mut d = digits;
    for i in (0..p as usize).rev() {
        buf[i] = b'0' + (d % 10) as u8;
        d /= 10;
    }
    let digits = &buf[..p as usize];
    // Significant digits without trailing zeros (at least one).
    let keep = digits.iter().rposition(|&c| c != b'0').map_or(1, |i| i + 1);
    if v.is_sign_negative() {
        out.push('-');
    }
    if exp < -4 || exp >= p {
        out.push_ascii(&digits[..1]);
        if keep > 1 {
            out.push('.');
            out.push_ascii(&digits[1..keep]);
        }
        out.push('e');
        out.push(if exp < 0 { '-' } else { '+' });
        let e = exp.unsigned_abs();
        if e < 100 {
            out.push('0');
        }
        if e < 10 {
            out.push('0');
        }
        push_u32(out, e);
    } else if exp >= 0 {
        let int_len = exp as usize + 1;
        out.push_ascii(&digits[..int_len]);
        if keep > int_len {
            out.push('.');
            out.push_ascii(&digits[int_len..keep]);
        }
    } else {
        out.push_str("0.");
        push_spaces_as(out, '0', (-exp - 1) as usize);
        out.push_ascii(&digits[..keep]);
    }
}

fn push_spaces_as(out: &mut impl Sink, c: char, n: usize) {
    push_repeat(out, c, n);
}

/// Powers of ten as `f64` (exact up to 1e22, correctly rounded beyond).
static POW10: [f64; 64] = {
    let mut t = [1.0f64; 64];
    let mut i = 1;
    while i < 64 {
        t[i] = t[i - 1] * 10.0;
        i += 1;
    }
    t
};

/// The `p` significant decimal digits of `x` (> 0, finite), rounded as C's `printf`
/// rounds the exact binary value, and the decimal exponent of the first digit.
///
/// Fast path: one scaling in `f64` (relative error below 1e-15, far finer than the
/// 1e-9 granularity of nine digits); when the scaled value lies too close to a rounding
/// boundary for that to be certain, the exact formatter of the standard library decides.
pub(super) fn significant_digits(x: f64, p: i32) -> (u64, i32) {
    // floor(log10(x)) from the binary exponent (log10(2) ≈ 78913 / 2^18), possibly one
    // too high or low: the loop below corrects it.
    let e2 = ((x.to_bits() >> 52) & 0x7FF) as i32 - 1023;
    let mut exp = (e2 * 78913) >> 18;
    let lo = POW10[(p - 1) as usize];
    let hi = POW10[p as usize];
    for _ in 0..3 {
        let k = p - 1 - exp;
        let scaled = if k >= 0 {
            x * POW10[k.min(63) as usize]
        } else {
            x / POW10[(-k).min(63) as usize]
        };
        if scaled < lo {
            exp -= 1;
            continue;
        }
        if scaled >= hi {
            exp += 1;
            continue;
        }
        // `floor` and `round` without their library calls: `scaled` is below 1e17.
        let floor = scaled as u64;
        let frac = scaled - floor as f64;
        if (frac - 0.5).abs() < 1e-6 {
            break;
        }
        let r = (floor + u64::from(frac > 0.5)) as f64;
        if r >= hi {
            return (lo as u64, exp + 1);
        }
        return (r as u64, exp);
    }
    exact_significant_digits(x, p)
}

/// The slow, exact path of [`significant_digits`]: rounds the exact decimal expansion
/// half away from zero, as the Microsoft C runtime does (`-0.0001220703125` prints as
/// `-0.000122070313`, where round-half-even would give `…312`).
pub(super) fn exact_significant_digits(x: f64, p: i32) -> (u64, i32) {
    // 120 significant digits hold the exact expansion of every f32 widened to f64.
    let mut sci = StackBuf::new();
    let _ = write!(sci, "{:.119e}", x);
    let s = sci.as_str();
    let (mantissa, exp) = s.split_once('e').unwrap_or((s, "0"));
    let mut exp: i32 = exp.parse().unwrap_or(0);
    let mut digits = mantissa.bytes().filter(u8::is_ascii_digit);
    let mut value = 0u64;
    for _ in 0..p {
        value = value * 10 + digits.next().map_or(0, |c| (c - b'0') as u64);
    }
    if digits.next().is_some_and(|c| c >= b'5') {
        value += 1;
        if value == 10u64.pow(p as u32) {
            value /= 10;
            exp += 1;
        }
    }
    (value, exp)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn g9(v: f32) -> String {
        let mut s = String::new();
        push_f32(&mut s, v);
        s
    }

    #[test]
    fn floats_like_msvc() {
        assert_eq!(g9(0.05), "0.0500000007");
        assert_eq!(g9(0.21), "0.209999993");
        assert_eq!(g9(255.0), "255");
        assert_eq!(g9(-0.0), "-0");
        assert_eq!(g9(0.5), "0.5");
        assert_eq!(g9(-1e-6), "-9.99999997e-007");
        assert_eq!(g9(1e-4), "9.99999975e-005");
        assert_eq!(g9(65504.0), "65504");
        assert_eq!(g9(31.622776), "31.622776");
        assert_eq!(g9(f32::from_bits(0x3b2a_aaab)), "0.00260416674");
        assert_eq!(g9(f32::from_bits(0xb5d0_0d01)), "-1.55009923e-006");
        assert_eq!(g9(1e10), "1e+010");
        // Exact ties round half away from zero (Microsoft's C runtime), not to even.
        assert_eq!(g9(-(2f32.powi(-13))), "-0.000122070313");
        assert_eq!(g9(2f32.powi(-13)), "0.000122070313");
        let mut s = String::new();
        push_float_g(&mut s, 0.0222222, 6);
        assert_eq!(s, "0.0222222");
    }

    /// The short-dyadic path prints what the general `%.9g` path prints: every value
    /// with ten fraction bits below 1024, a stride of larger ones up to 2^30, negations.
    #[test]
    fn short_dyadics_print_as_g9() {
        let mut taken = 0;
        let small = (1u64..1 << 20).map(|m| m as f32 / 1024.0);
        let large = (0u64..1 << 16).map(|k| (k * 16_769_023) as f32 / 1024.0);
        for v in small
            .chain(large)
            .chain([f32::MIN_POSITIVE, 1e-3, 1e9, 3e9])
        {
            for v in [v, -v] {
                let mut fast = String::new();
                if push_short_dyadic(&mut fast, v) {
                    taken += 1;
                    let mut general = String::new();
                    push_float_g(&mut general, v, 9);
                    assert_eq!(fast, general, "{v:e}");
                } else {
                    assert!(fast.is_empty());
                }
            }
        }
        assert!(taken > 100_000, "{taken}");
    }

    #[test]
    fn fast_float_digits_agree_with_exact() {
        // Walk f32 bit patterns across the whole range.
        let mut bits = 1u32;
        while bits < 0x7f80_0000 {
            let x = f32::from_bits(bits) as f64;
            for p in [6, 9] {
                assert_eq!(
                    significant_digits(x, p),
                    exact_significant_digits(x, p),
                    "{bits:#x} p={p}"
                );
            }
            bits = bits.wrapping_add(0x0001_0f3b);
        }
        assert_eq!(significant_digits(1e8, 9), (100_000_000, 8));
        assert_eq!(significant_digits(999_999_999.6, 9), (100_000_000, 9));
    }
}
