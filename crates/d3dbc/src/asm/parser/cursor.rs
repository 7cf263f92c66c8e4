//! The byte cursor over one line of assembly, and comments cut off a line.

/// A byte cursor over one line (comment already cut off).
pub(super) struct Cur<'a> {
    pub(super) s: &'a [u8],
    pub(super) pos: usize,
}

impl<'a> Cur<'a> {
    pub(super) fn ws(&mut self) {
        while self.pos < self.s.len()
            && matches!(self.s[self.pos], b' ' | b'\t' | b'\r' | 0x0B | 0x0C)
        {
            self.pos += 1;
        }
    }
    pub(super) fn peek(&self) -> Option<u8> {
        self.s.get(self.pos).copied()
    }
    pub(super) fn eat(&mut self, c: u8) -> bool {
        if self.peek() == Some(c) {
            self.pos += 1;
            true
        } else {
            false
        }
    }
    pub(super) fn at_end(&self) -> bool {
        self.pos >= self.s.len()
    }
    /// `[A-Za-z0-9_]*` from the cursor.
    pub(super) fn word(&mut self) -> (usize, usize) {
        let start = self.pos;
        while self.pos < self.s.len()
            && (self.s[self.pos].is_ascii_alphanumeric() || self.s[self.pos] == b'_')
        {
            self.pos += 1;
        }
        (start, self.pos)
    }
    pub(super) fn take_while(&mut self, f: impl Fn(u8) -> bool) -> (usize, usize) {
        let start = self.pos;
        while self.pos < self.s.len() && f(self.s[self.pos]) {
            self.pos += 1;
        }
        (start, self.pos)
    }
}

/// Cuts a `//` or `;` comment off a line.
pub(super) fn strip_comment(line: &str) -> &str {
    let b = line.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b';' => return &line[..i],
            b'/' if b.get(i + 1) == Some(&b'/') => return &line[..i],
            _ => i += 1,
        }
    }
    line
}

pub(super) fn eq_ic(a: &[u8], b: &str) -> bool {
    a.eq_ignore_ascii_case(b.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_are_cut() {
        assert_eq!(strip_comment("mov r0, r1 // x"), "mov r0, r1 ");
        assert_eq!(strip_comment("; all"), "");
        assert_eq!(strip_comment("a / b"), "a / b");
    }
}
