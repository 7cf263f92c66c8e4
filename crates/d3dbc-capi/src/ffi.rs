//! The boundary's plumbing, shared by every entry point: panics caught and turned into
//! [`d3dbc_result::D3DBC_ERROR_INTERNAL`], pointer arguments checked, messages handed
//! to C, and the one ownership scheme of returned structs ([`give`]/[`take`]).

use std::ffi::{c_char, c_int, CStr, CString};
use std::panic::{catch_unwind, AssertUnwindSafe};

use crate::d3dbc_result;

/// Why a call failed: its result code and the message for the caller.
#[derive(Debug)]
pub struct Failure {
    /// The code returned.
    pub code: d3dbc_result,
    /// What went wrong, where and why.
    pub message: String,
}

impl Failure {
    /// [`d3dbc_result::D3DBC_ERROR_INVALID_ARGUMENT`] with `message`.
    pub fn argument(message: impl Into<String>) -> Failure {
        Failure {
            code: d3dbc_result::D3DBC_ERROR_INVALID_ARGUMENT,
            message: message.into(),
        }
    }

    /// [`d3dbc_result::D3DBC_ERROR`] with `message`.
    pub fn input(message: impl Into<String>) -> Failure {
        Failure {
            code: d3dbc_result::D3DBC_ERROR,
            message: message.into(),
        }
    }

    /// [`d3dbc_result::D3DBC_ERROR_NOT_IMPLEMENTED`] with `message`.
    pub fn unsupported(message: impl Into<String>) -> Failure {
        Failure {
            code: d3dbc_result::D3DBC_ERROR_NOT_IMPLEMENTED,
            message: message.into(),
        }
    }
}

/// Runs the body of an entry point: its `Ok` text (warnings, possibly empty) or its
/// failure goes to `*messages` when `messages` is not NULL; a panic is caught and
/// reported as an internal error, never unwinding into C.
pub fn guard(
    function: &str,
    messages: *mut *mut c_char,
    body: impl FnOnce() -> Result<String, Failure>,
) -> c_int {
    if !messages.is_null() {
        // SAFETY: checked non-NULL; the caller passes a writable `char *` slot.
        unsafe { *messages = std::ptr::null_mut() };
    }
    let (code, text) = match catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok(text)) => (d3dbc_result::D3DBC_OK, text),
        Ok(Err(f)) => (f.code, f.message),
        Err(panic) => (
            d3dbc_result::D3DBC_ERROR_INTERNAL,
            format!("{function}: internal error: {}", panic_text(&panic)),
        ),
    };
    if !messages.is_null() && !text.is_empty() {
        // SAFETY: as above.
        unsafe { *messages = c_string(&text).into_raw() };
    }
    code as c_int
}

/// Runs a body that reports through its return value only (no messages slot):
/// `fallback` when it panics.
pub fn quiet<T>(fallback: T, body: impl FnOnce() -> T) -> T {
    catch_unwind(AssertUnwindSafe(body)).unwrap_or(fallback)
}

fn panic_text(p: &Box<dyn std::any::Any + Send>) -> String {
    if let Some(s) = p.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = p.downcast_ref::<String>() {
        s.clone()
    } else {
        "a panic".into()
    }
}

/// `text` as a C string; an interior NUL (never in the library's messages, possible in
/// a name read from an input) is written `\0`.
pub fn c_string(text: &str) -> CString {
    CString::new(text.replace('\0', "\\0")).unwrap_or_default()
}

/// The C strings a returned struct points into: [`Strings::add`] keeps a copy and
/// gives its pointer, valid while the `Strings` lives.
#[derive(Default)]
pub struct Strings(Vec<CString>);

impl Strings {
    /// A pointer to a kept copy of `text` (see [`c_string`]).
    pub fn add(&mut self, text: &str) -> *const c_char {
        let c = c_string(text);
        let p = c.as_ptr();
        self.0.push(c);
        p
    }
}

/// `size` bytes at `data`: an error naming `what` for NULL with a non-zero size or a
/// size no allocation can have.
///
/// # Safety
/// `data` must point to `size` readable bytes that stay unchanged during the call.
pub unsafe fn bytes<'a>(data: *const u8, size: usize, what: &str) -> Result<&'a [u8], Failure> {
    if size == 0 {
        return Ok(&[]);
    }
    if data.is_null() {
        return Err(Failure::argument(format!(
            "{what}: NULL data with size {size}"
        )));
    }
    if size > isize::MAX as usize {
        return Err(Failure::argument(format!("{what}: size {size} too large")));
    }
    // SAFETY: non-NULL, size checked; the caller guarantees `size` readable bytes.
    Ok(unsafe { std::slice::from_raw_parts(data, size) })
}

/// `count` elements at `data` (NULL allowed for 0).
///
/// # Safety
/// `data` must point to `count` valid `T`s that stay unchanged during the call.
pub unsafe fn slice<'a, T>(data: *const T, count: usize, what: &str) -> Result<&'a [T], Failure> {
    if count == 0 {
        return Ok(&[]);
    }
    if data.is_null() {
        return Err(Failure::argument(format!(
            "{what}: NULL with count {count}"
        )));
    }
    if count > isize::MAX as usize / std::mem::size_of::<T>().max(1) {
        return Err(Failure::argument(format!(
            "{what}: count {count} too large"
        )));
    }
    // SAFETY: non-NULL, count checked; the caller guarantees `count` elements.
    Ok(unsafe { std::slice::from_raw_parts(data, count) })
}

/// The UTF-8 string at `p`, which must not be NULL.
///
/// # Safety
/// `p` must be NULL or point to a NUL-terminated string.
pub unsafe fn str_arg<'a>(p: *const c_char, what: &str) -> Result<&'a str, Failure> {
    if p.is_null() {
        return Err(Failure::argument(format!("{what}: NULL")));
    }
    // SAFETY: non-NULL and NUL-terminated per the caller.
    unsafe { CStr::from_ptr(p) }
        .to_str()
        .map_err(|e| Failure::argument(format!("{what}: not UTF-8 ({e})")))
}

/// Checks an out-pointer: an error naming `what` when it is NULL.
pub fn out_arg<T>(p: *mut T, what: &str) -> Result<(), Failure> {
    if p.is_null() {
        Err(Failure::argument(format!("{what}: NULL")))
    } else {
        Ok(())
    }
}

/// A returned struct and what its pointers point into, in one allocation: C sees a
/// pointer to `public`, the first field, which is the allocation's address.
#[repr(C)]
struct Owned<T, K> {
    public: T,
    keep: K,
}

/// Hands `public` to C, keeping `keep` (the strings and arrays `public` points into)
/// alive until [`take`].
pub fn give<T, K>(public: T, keep: K) -> *mut T {
    Box::into_raw(Box::new(Owned { public, keep })).cast::<T>()
}

/// Frees what [`give`] handed out (NULL is ignored).
///
/// # Safety
/// `p` must be NULL or a pointer [`give`] returned with the same `T` and `K`, not freed
/// yet.
pub unsafe fn take<T, K>(p: *mut T) {
    if !p.is_null() {
        // SAFETY: `give` made `p` from a `Box<Owned<T, K>>` whose first field is at
        // its address (`repr(C)`).
        drop(unsafe { Box::from_raw(p.cast::<Owned<T, K>>()) });
    }
}

/// The number of `T` in `v` and a pointer to them (NULL when empty), for a struct
/// that keeps `v` alive.
pub fn array<T>(v: &[T]) -> (*const T, usize) {
    if v.is_empty() {
        (std::ptr::null(), 0)
    } else {
        (v.as_ptr(), v.len())
    }
}
