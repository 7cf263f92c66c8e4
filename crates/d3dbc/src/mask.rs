//! Typed write masks and swizzles over the IR's raw bytes, with named constructors and
//! the letters `dis` prints; plus the small editing helpers (mask/swizzle setters,
//! immediate-float setters) a tool needs to change an instruction without bit twiddling.
//!
//! The IR keeps the raw `u8` fields ([`DstParam::mask`], [`SrcParam::swizzle`]) so the
//! decoder stays zero-copy; these types convert both ways losslessly.
//!
//! ```
//! use d3dbc::{Swizzle, WriteMask};
//! assert_eq!(WriteMask::XY.to_string(), "xy");
//! assert_eq!(WriteMask::from_letters("xw"), Some(WriteMask::X | WriteMask::W));
//! assert_eq!(Swizzle::new([1, 2, 3, 0]).to_string(), "yzwx");
//! assert_eq!(Swizzle::from_letters("x"), Some(Swizzle::X)); // replicated like the assembler
//! assert_eq!(Swizzle::IDENTITY.raw(), 0xE4);
//! ```

use std::fmt;

use crate::ir::{DstParam, Instruction, SrcParam, MASK_ALL, SWIZZLE_IDENTITY};

const LETTERS: [char; 4] = ['x', 'y', 'z', 'w'];

fn component(c: char) -> Option<u8> {
    match c {
        'x' | 'r' => Some(0),
        'y' | 'g' => Some(1),
        'z' | 'b' => Some(2),
        'w' | 'a' => Some(3),
        _ => None,
    }
}

/// A destination write mask (bit 0 = x … bit 3 = w).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct WriteMask(u8);

impl WriteMask {
    /// `.x`
    pub const X: WriteMask = WriteMask(1);
    /// `.y`
    pub const Y: WriteMask = WriteMask(2);
    /// `.z`
    pub const Z: WriteMask = WriteMask(4);
    /// `.w`
    pub const W: WriteMask = WriteMask(8);
    /// `.xy`
    pub const XY: WriteMask = WriteMask(3);
    /// `.xyz`
    pub const XYZ: WriteMask = WriteMask(7);
    /// All four components (printed as no mask).
    pub const XYZW: WriteMask = WriteMask(MASK_ALL);
    /// No component (invalid in a real instruction).
    pub const NONE: WriteMask = WriteMask(0);

    /// From the raw 4-bit field (higher bits ignored).
    pub const fn from_bits(bits: u8) -> Self {
        WriteMask(bits & MASK_ALL)
    }

    /// The raw 4-bit field.
    pub const fn bits(self) -> u8 {
        self.0
    }

    /// Parses `xyzw`/`rgba` letters in order (`"xz"`); `None` for other text, repeated
    /// or out-of-order letters, which the assembler refuses too.
    pub fn from_letters(s: &str) -> Option<Self> {
        let mut bits = 0u8;
        let mut last: Option<u8> = None;
        for c in s.chars() {
            let i = component(c)?;
            if last.is_some_and(|l| i <= l) {
                return None;
            }
            last = Some(i);
            bits |= 1 << i;
        }
        (bits != 0).then_some(WriteMask(bits))
    }

    /// True when component `i` (0 = x) is written.
    pub const fn contains(self, i: u8) -> bool {
        i < 4 && self.0 & (1 << i) != 0
    }
}

impl std::ops::BitOr for WriteMask {
    type Output = WriteMask;
    fn bitor(self, rhs: WriteMask) -> WriteMask {
        WriteMask(self.0 | rhs.0)
    }
}

impl fmt::Display for WriteMask {
    /// The letters of the written components (`xyzw` for the full mask).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, c) in LETTERS.iter().enumerate() {
            if self.contains(i as u8) {
                write!(f, "{c}")?;
            }
        }
        Ok(())
    }
}

/// A source swizzle: for each destination component, the source component it reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Swizzle(u8);

impl Default for Swizzle {
    fn default() -> Self {
        Swizzle::IDENTITY
    }
}

impl Swizzle {
    /// `.xyzw` (printed as no swizzle).
    pub const IDENTITY: Swizzle = Swizzle(SWIZZLE_IDENTITY);
    /// `.xxxx` (printed `.x`).
    pub const X: Swizzle = Swizzle(0x00);
    /// `.yyyy`
    pub const Y: Swizzle = Swizzle(0x55);
    /// `.zzzz`
    pub const Z: Swizzle = Swizzle(0xAA);
    /// `.wwww`
    pub const W: Swizzle = Swizzle(0xFF);

    /// From four component indices (0 = x … 3 = w; higher bits ignored).
    pub const fn new(c: [u8; 4]) -> Self {
        Swizzle((c[0] & 3) | (c[1] & 3) << 2 | (c[2] & 3) << 4 | (c[3] & 3) << 6)
    }

    /// From the raw byte of the source token (bits 16–23 shifted down).
    pub const fn from_raw(raw: u8) -> Self {
        Swizzle(raw)
    }

    /// The raw byte.
    pub const fn raw(self) -> u8 {
        self.0
    }

    /// The source component read for destination component `i` (0–3).
    pub const fn get(self, i: u8) -> u8 {
        (self.0 >> (2 * (i & 3))) & 3
    }

    /// Parses 1–4 `xyzw`/`rgba` letters the way the assembler does: a short swizzle
    /// repeats its last letter (`xy` → `xyyy`).
    pub fn from_letters(s: &str) -> Option<Self> {
        let mut c = [0u8; 4];
        let mut n = 0;
        for ch in s.chars() {
            if n == 4 {
                return None;
            }
            c[n] = component(ch)?;
            n += 1;
        }
        if n == 0 {
            return None;
        }
        for i in n..4 {
            c[i] = c[n - 1];
        }
        Some(Swizzle::new(c))
    }
}

impl fmt::Display for Swizzle {
    /// All four letters (`xyzw`, `xxxx`), unambiguous whatever the printer abbreviates.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for i in 0..4 {
            write!(f, "{}", LETTERS[self.get(i) as usize])?;
        }
        Ok(())
    }
}

impl DstParam {
    /// The write mask, typed.
    pub const fn write_mask(&self) -> WriteMask {
        WriteMask::from_bits(self.mask)
    }

    /// Sets the write mask.
    pub fn set_write_mask(&mut self, mask: WriteMask) {
        self.mask = mask.bits();
    }

    /// This destination with another write mask.
    pub const fn with_write_mask(mut self, mask: WriteMask) -> Self {
        self.mask = mask.bits();
        self
    }
}

impl SrcParam {
    /// The swizzle, typed.
    pub const fn swizzle_typed(&self) -> Swizzle {
        Swizzle::from_raw(self.swizzle)
    }

    /// Sets the swizzle.
    pub fn set_swizzle(&mut self, swizzle: Swizzle) {
        self.swizzle = swizzle.raw();
    }

    /// This source with another swizzle.
    pub const fn with_swizzle(mut self, swizzle: Swizzle) -> Self {
        self.swizzle = swizzle.raw();
        self
    }
}

impl Instruction {
    /// Sets the four immediate floats of a `def` (stored as their bit patterns, so
    /// `-0.0` and NaN payloads survive).
    ///
    /// ```
    /// let text = "vs_2_0\ndef c0, 1, 2, 3, 4\nmov oPos, c0\n";
    /// let mut shader = d3dbc::asm::assemble(text, &Default::default()).unwrap();
    /// if let d3dbc::Item::Instruction(def) = &mut shader.items[0] {
    ///     def.set_imm_f32([0.5, 0.0, -0.0, 1.0]);
    ///     def.set_imm_f32_at(3, 2.0);
    /// }
    /// assert!(d3dbc::print::to_string(&shader).contains("def c0, 0.5, 0, -0, 2"));
    /// ```
    pub fn set_imm_f32(&mut self, values: [f32; 4]) {
        self.imm = values.map(f32::to_bits);
    }

    /// Sets immediate float `i` (0–3); out-of-range indices are ignored.
    pub fn set_imm_f32_at(&mut self, i: usize, value: f32) {
        if let Some(slot) = self.imm.get_mut(i) {
            *slot = value.to_bits();
        }
    }

    /// Sets the four immediate integers of a `defi`.
    pub fn set_imm_i32(&mut self, values: [i32; 4]) {
        self.imm = values.map(|v| v as u32);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_and_swizzles_round_trip() {
        for bits in 1..16u8 {
            let m = WriteMask::from_bits(bits);
            assert_eq!(WriteMask::from_letters(&m.to_string()), Some(m));
        }
        for raw in 0..=255u8 {
            let s = Swizzle::from_raw(raw);
            assert_eq!(Swizzle::from_letters(&s.to_string()), Some(s));
        }
        assert_eq!(WriteMask::from_letters("yx"), None);
        assert_eq!(
            Swizzle::from_letters("xy"),
            Some(Swizzle::new([0, 1, 1, 1]))
        );
        assert_eq!(Swizzle::from_letters("rgba"), Some(Swizzle::IDENTITY));
        assert_eq!(Swizzle::from_letters("xyzwx"), None);
    }
}
