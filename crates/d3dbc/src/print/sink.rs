//! Output: where listing text goes ([`Sink`]), the stack block a whole listing is
//! gathered in (`Buffered`) and the register-held line each instruction is written
//! through (`Line`), with the slow path for a line that does not fit.

use super::float::SPACES;
/// Where listing text goes: a `String` (the public single-operand helpers), or the
/// [`Buffered`] writer of a whole listing.
pub(super) trait Sink {
    fn push_str(&mut self, s: &str);
    fn push(&mut self, c: char);
    /// Bytes written so far (for column arithmetic).
    fn len(&self) -> usize;
    /// ASCII bytes (digits) gathered on the stack.
    fn push_ascii(&mut self, b: &[u8]) {
        for &c in b {
            self.push(c as char);
        }
    }
    /// The first `n` bytes of `b` (ASCII), which a [`Line`] copies as one `N`-byte piece.
    fn push_fixed<const N: usize>(&mut self, b: &[u8; N], n: usize) {
        self.push_ascii(&b[..n]);
    }
    /// `n` spaces.
    fn push_spaces(&mut self, mut n: usize) {
        while n > SPACES.len() {
            self.push_str(SPACES);
            n -= SPACES.len();
        }
        self.push_str(&SPACES[..n]);
    }
    /// CTAB text with its control characters written as `?` (see [`push_text`]).
    fn push_escaped(&mut self, s: &str) {
        for c in s.chars() {
            self.push(if c.is_ascii_control() { '?' } else { c });
        }
    }
}

impl Sink for String {
    #[inline]
    fn push_str(&mut self, s: &str) {
        String::push_str(self, s)
    }
    #[inline]
    fn push(&mut self, c: char) {
        String::push(self, c)
    }
    #[inline]
    fn len(&self) -> usize {
        String::len(self)
    }
}

/// Bytes gathered on the stack per block of a listing.
pub(super) const BUFFERED: usize = 2048;

/// Room a line written through [`Line`] is given: longer than any instruction line
/// (an operand is at most ~30 bytes); a longer one is written again the slow way.
const LINE: usize = 256;

/// The listing writer: text gathered in a stack buffer and appended to the output
/// `String` a block at a time. Pushing into a `String` one short piece at a time costs a
/// capacity check and a reload of its length per piece and a `memcpy` call per string;
/// here a piece is a bounds check and a small copy. Only whole `&str`s and ASCII bytes
/// are pushed, so a block never splits a character and is valid UTF-8 (asserted in
/// debug builds when flushed).
pub(super) struct Buffered<'o> {
    out: &'o mut String,
    buf: [u8; BUFFERED],
    len: usize,
}

impl<'o> Buffered<'o> {
    pub(super) fn new(out: &'o mut String) -> Self {
        Buffered {
            out,
            buf: [0; BUFFERED],
            len: 0,
        }
    }

    /// Appends the gathered bytes to the output.
    #[cold]
    pub(super) fn flush(&mut self) {
        let bytes = &self.buf[..self.len];
        debug_assert!(
            std::str::from_utf8(bytes).is_ok(),
            "a block splits a character"
        );
        // SAFETY: only whole `&str`s, whole encoded `char`s and ASCII bytes are ever
        // written into the block (`bytes`, `push*`, and a `Line`, whose pieces are the
        // same and whose text is kept only when the whole line fit), so the block is
        // valid UTF-8 and appending it keeps the `String` valid. Measured reason: checking
        // it again cost 4% of `print_tokens` (`core::str::from_utf8` in the peers bench
        // profile), the whole listing being checked once more per block.
        unsafe { self.out.as_mut_vec() }.extend_from_slice(bytes);
        self.len = 0;
    }

    #[inline(always)]
    pub(super) fn bytes(&mut self, b: &[u8]) {
        let n = b.len();
        if n > BUFFERED - self.len {
            self.flush();
            if n > BUFFERED {
                self.out.push_str(&String::from_utf8_lossy(b));
                return;
            }
        }
        copy_piece(&mut self.buf[self.len..self.len + n], b);
        self.len += n;
    }
}

impl Buffered<'_> {
    /// Writes one line's text with `fast` into the block through a [`Line`] (its length
    /// kept in a register rather than reloaded and stored per piece), or with `slow`
    /// straight into `self` in the (unreached) case of a line longer than [`LINE`].
    #[inline(always)]
    pub(super) fn line<R>(
        &mut self,
        fast: impl FnOnce(&mut Line) -> R,
        slow: impl FnOnce(&mut Self) -> R,
    ) -> R {
        let mut line = self.begin_line();
        let r = fast(&mut line);
        match line.end() {
            Some(len) => {
                self.end_line(len);
                r
            }
            None => slow(self),
        }
    }

    /// A [`Line`] at the end of the block, with at least [`LINE`] bytes of room; what it
    /// writes is kept by [`Buffered::end_line`] with the length [`Line::end`] gives
    /// (or, where that is `None`, written again straight into `self`).
    #[inline(always)]
    pub(super) fn begin_line(&mut self) -> Line<'_> {
        if BUFFERED - self.len < LINE {
            self.flush();
        }
        Line {
            buf: &mut self.buf,
            len: self.len,
            base: self.out.len(),
        }
    }

    /// Keeps a line [`Buffered::begin_line`] started, `len` being its [`Line::end`].
    #[inline(always)]
    pub(super) fn end_line(&mut self, len: usize) {
        self.len = len;
    }

    /// A character outside ASCII (CTAB names only).
    #[cold]
    pub(super) fn push_wide(&mut self, c: char) {
        self.bytes(c.encode_utf8(&mut [0; 4]).as_bytes());
    }
}

impl Drop for Buffered<'_> {
    fn drop(&mut self) {
        if self.len > 0 {
            self.flush();
        }
    }
}

impl Sink for Buffered<'_> {
    #[inline(always)]
    fn push_str(&mut self, s: &str) {
        self.bytes(s.as_bytes());
    }
    #[inline(always)]
    fn push(&mut self, c: char) {
        if c.is_ascii() {
            if self.len == BUFFERED {
                self.flush();
            }
            self.buf[self.len] = c as u8;
            self.len += 1;
        } else {
            self.push_wide(c);
        }
    }
    #[inline]
    fn len(&self) -> usize {
        self.out.len() + self.len
    }
    #[inline]
    fn push_ascii(&mut self, b: &[u8]) {
        self.bytes(b);
    }
    #[inline(always)]
    fn push_fixed<const N: usize>(&mut self, b: &[u8; N], n: usize) {
        match self.buf.get_mut(self.len..self.len + N) {
            Some(dst) => {
                dst.copy_from_slice(b);
                self.len += n;
            }
            None => self.bytes(&b[..n]),
        }
    }
}

/// One line written into the block of a [`Buffered`] with a local length: pieces past
/// the block's end are counted but not stored, and the caller writes the line again the
/// slow way when that happened.
pub(super) struct Line<'b> {
    buf: &'b mut [u8; BUFFERED],
    len: usize,
    /// Bytes of the output before the block (for [`Sink::len`]).
    base: usize,
}

impl Line<'_> {
    /// The block's length with this line, or `None` where the line did not fit.
    #[inline(always)]
    pub(super) fn end(self) -> Option<usize> {
        (self.len <= BUFFERED).then_some(self.len)
    }
}

impl Sink for Line<'_> {
    #[inline(always)]
    fn push_str(&mut self, s: &str) {
        self.push_ascii(s.as_bytes());
    }
    #[inline(always)]
    fn push(&mut self, c: char) {
        if c.is_ascii() {
            if let Some(b) = self.buf.get_mut(self.len) {
                *b = c as u8;
            }
            self.len += 1;
        } else {
            self.push_str(c.encode_utf8(&mut [0; 4]));
        }
    }
    #[inline]
    fn len(&self) -> usize {
        self.base + self.len
    }
    #[inline(always)]
    fn push_spaces(&mut self, n: usize) {
        // One fixed-size copy of all the spaces there are, of which `n` count.
        let room = self.buf.get_mut(self.len..self.len + SPACES.len());
        match room {
            Some(dst) if n <= SPACES.len() => dst.copy_from_slice(SPACES.as_bytes()),
            _ => self.len = self.len.max(BUFFERED + 1),
        }
        self.len += n;
    }
    #[inline(always)]
    fn push_fixed<const N: usize>(&mut self, b: &[u8; N], n: usize) {
        match self.buf.get_mut(self.len..self.len + N) {
            Some(dst) => dst.copy_from_slice(b),
            None => self.len = self.len.max(BUFFERED + 1),
        }
        self.len += n;
    }
    #[inline(always)]
    fn push_escaped(&mut self, _: &str) {
        // Rare (a hostile table): past the end, so the line is written the slow way.
        self.len = self.len.max(BUFFERED + 1);
    }
    #[inline(always)]
    fn push_ascii(&mut self, b: &[u8]) {
        let n = b.len();
        let end = self.len + n;
        if let Some(dst) = self.buf.get_mut(self.len..end) {
            copy_piece(dst, b);
        }
        self.len = end;
    }
}

/// Copies `b` into `dst` (the same length). Most pieces are a few bytes of unknown
/// length (register names, modifiers, digits): fixed-size copies instead of a `memcpy`
/// call each.
#[inline(always)]
fn copy_piece(dst: &mut [u8], b: &[u8]) {
    match b.len() {
        1 => dst[0] = b[0],
        2 => dst.copy_from_slice(&b[..2]),
        3 => dst.copy_from_slice(&b[..3]),
        4 => dst.copy_from_slice(&b[..4]),
        _ => dst.copy_from_slice(b),
    }
}
