//! One allocation per answer: everything a `MOJOSHADER_parseData` or
//! `MOJOSHADER_preshader` points to (arrays, names, the output) lives in a single block
//! obtained from the caller's `MOJOSHADER_malloc` (or the C library's `malloc` when the
//! caller passes NULL, as MojoShader does), so the matching free function releases it
//! with one call to the caller's `MOJOSHADER_free`.
//!
//! An answer is written twice through the same code: first with a measuring [`Arena`]
//! (no memory, only the size adds up), then into the block of that size.

use std::ffi::{c_char, c_void};

use crate::types::{MOJOSHADER_free, MOJOSHADER_malloc};

extern "C" {
    fn malloc(size: usize) -> *mut c_void;
    fn free(ptr: *mut c_void);
}

/// The caller's allocator (or the C library's).
#[derive(Clone, Copy)]
pub struct Allocator {
    pub m: MOJOSHADER_malloc,
    pub f: MOJOSHADER_free,
    pub d: *mut c_void,
}

impl Allocator {
    /// `bytes` from the caller's `malloc` (NULL when it fails or `bytes` does not fit an
    /// `int`, MojoShader's allocator argument).
    pub fn alloc(&self, bytes: usize) -> *mut u8 {
        let Ok(n) = i32::try_from(bytes.max(1)) else {
            return std::ptr::null_mut();
        };
        match self.m {
            // SAFETY: the caller's allocator, called as MojoShader calls it.
            Some(m) => unsafe { m(n, self.d) as *mut u8 },
            // SAFETY: the C library's malloc.
            None => unsafe { malloc(n as usize) as *mut u8 },
        }
    }

    /// Releases what [`Allocator::alloc`] returned.
    pub fn release(&self, p: *mut c_void) {
        if p.is_null() {
            return;
        }
        match self.f {
            // SAFETY: `p` came from the matching malloc.
            Some(f) => unsafe { f(p, self.d) },
            // SAFETY: `p` came from the C library's malloc.
            None => unsafe { free(p) },
        }
    }
}

/// A bump writer over one block, or a measurer when the block is absent.
pub struct Arena {
    base: *mut u8,
    used: usize,
}

impl Arena {
    /// Measures.
    pub fn measure() -> Arena {
        Arena {
            base: std::ptr::null_mut(),
            used: 0,
        }
    }

    /// Writes into `base`, at least [`Arena::size`] bytes of the measuring pass.
    pub fn new(base: *mut u8) -> Arena {
        Arena { base, used: 0 }
    }

    /// Whether this is the writing pass (not the measuring one).
    pub fn writing(&self) -> bool {
        !self.base.is_null()
    }

    /// Bytes used so far.
    pub fn size(&self) -> usize {
        self.used
    }

    fn reserve(&mut self, bytes: usize, align: usize) -> *mut u8 {
        self.used = self.used.next_multiple_of(align);
        let at = self.used;
        self.used += bytes;
        if self.base.is_null() {
            // A placeholder: never read in the measuring pass.
            std::ptr::without_provenance_mut(at.max(align))
        } else {
            // SAFETY: the block holds the measured size; `at + bytes` is within it.
            unsafe { self.base.add(at) }
        }
    }

    /// A copy of `items` (NULL when empty, as MojoShader leaves empty arrays).
    pub fn slice<T: Copy>(&mut self, items: &[T]) -> *mut T {
        if items.is_empty() {
            return std::ptr::null_mut();
        }
        let p = self.reserve(std::mem::size_of_val(items), std::mem::align_of::<T>()) as *mut T;
        if !self.base.is_null() {
            // SAFETY: `p` is aligned and has room for `items.len()` values.
            unsafe { std::ptr::copy_nonoverlapping(items.as_ptr(), p, items.len()) };
        }
        p
    }

    /// Room for `n` values of `T` (NULL when `n` is 0, as MojoShader leaves empty
    /// arrays), filled with [`Arena::put`].
    pub fn array<T>(&mut self, n: usize) -> *mut T {
        if n == 0 {
            return std::ptr::null_mut();
        }
        self.reserve(n * std::mem::size_of::<T>(), std::mem::align_of::<T>()) as *mut T
    }

    /// Fills element `i` of what [`Arena::array`] reserved.
    pub fn put<T>(&mut self, p: *mut T, i: usize, value: T) {
        if !self.base.is_null() {
            // SAFETY: `p` came from `array` on this block with more than `i` elements.
            unsafe { p.add(i).write(value) };
        }
    }

    /// Raw bytes as they are (no NUL added).
    pub fn bytes(&mut self, bytes: &[u8]) -> *const c_char {
        let p = self.reserve(bytes.len(), 1);
        if !self.base.is_null() {
            // SAFETY: room for the bytes.
            unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), p, bytes.len()) };
        }
        p as *const c_char
    }

    /// Room for one `T`, filled later with [`Arena::set`].
    pub fn place<T>(&mut self) -> *mut T {
        self.reserve(std::mem::size_of::<T>(), std::mem::align_of::<T>()) as *mut T
    }

    /// Fills what [`Arena::place`] reserved.
    pub fn set<T>(&mut self, p: *mut T, value: T) {
        if !self.base.is_null() {
            // SAFETY: `p` came from `place` on this block.
            unsafe { p.write(value) };
        }
    }

    /// One value.
    pub fn one<T: Copy>(&mut self, item: T) -> *mut T {
        self.slice(std::slice::from_ref(&item))
    }

    /// Raw bytes with a NUL after them.
    pub fn bytes_z(&mut self, bytes: &[u8]) -> *const c_char {
        let p = self.reserve(bytes.len() + 1, 1);
        if !self.base.is_null() {
            // SAFETY: room for the bytes and the NUL.
            unsafe {
                std::ptr::copy_nonoverlapping(bytes.as_ptr(), p, bytes.len());
                *p.add(bytes.len()) = 0;
            }
        }
        p as *const c_char
    }

    /// Byte runs one after the other, then a NUL.
    pub fn parts_z(&mut self, parts: &[&[u8]]) -> *const c_char {
        let len: usize = parts.iter().map(|p| p.len()).sum();
        let p = self.reserve(len + 1, 4);
        if !self.base.is_null() {
            let mut at = 0;
            for part in parts {
                // SAFETY: room for every part and the NUL.
                unsafe { std::ptr::copy_nonoverlapping(part.as_ptr(), p.add(at), part.len()) };
                at += part.len();
            }
            // SAFETY: as above.
            unsafe { *p.add(len) = 0 };
        }
        p as *const c_char
    }

    /// A NUL-terminated copy of `s` (interior NULs end it early, as C reads it).
    pub fn str(&mut self, s: &str) -> *const c_char {
        let s = s.split('\0').next().unwrap_or("");
        self.bytes_z(s.as_bytes())
    }
}

/// Runs `write` once to measure and once into a block from `alloc`; the block (the
/// first value written is at its start) or NULL when allocation failed.
pub fn build<T>(alloc: &Allocator, mut write: impl FnMut(&mut Arena) -> *mut T) -> *mut T {
    let mut m = Arena::measure();
    write(&mut m);
    let base = alloc.alloc(m.size());
    if base.is_null() {
        return std::ptr::null_mut();
    }
    let mut a = Arena::new(base);
    let p = write(&mut a);
    debug_assert_eq!(p as *mut u8, base);
    debug_assert!(a.size() <= m.size());
    p
}
