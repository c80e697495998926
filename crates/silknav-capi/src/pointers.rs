//! The checks every pointer from C passes before it is used: not NULL, aligned, and for
//! arrays a length whose bytes fit in memory. What no check can see (that a non-NULL pointer
//! points at live memory of the right type) is the caller's promise, stated on each entry
//! point's `# Safety`.

use crate::error::Failure;
use std::ffi::{c_char, CStr};

/// A shared reference to `*ptr`.
///
/// # Safety
/// `ptr` is NULL or points to a live, initialised `T` that nothing writes to during `'a`.
pub(crate) unsafe fn shared<'a, T>(ptr: *const T, name: &str) -> Result<&'a T, Failure> {
    if !ptr.is_aligned() {
        return Err(Failure::argument(format!("{name} is not aligned")));
    }
    // SAFETY: aligned, and by the caller's promise NULL (refused here) or a live `T`.
    unsafe { ptr.as_ref() }.ok_or_else(|| Failure::null(name))
}

/// An exclusive reference to `*ptr`, for writing an answer.
///
/// # Safety
/// `ptr` is NULL or points to memory valid for writes of a `T` (initialised: it is
/// overwritten, not read) that nothing else uses during `'a`.
pub(crate) unsafe fn exclusive<'a, T>(ptr: *mut T, name: &str) -> Result<&'a mut T, Failure> {
    if !ptr.is_aligned() {
        return Err(Failure::argument(format!("{name} is not aligned")));
    }
    // SAFETY: aligned, and by the caller's promise NULL (refused here) or a `T` no one else
    // uses.
    unsafe { ptr.as_mut() }.ok_or_else(|| Failure::null(name))
}

/// Checks an array's pointer and length: NULL only for an empty array, aligned, and its
/// bytes within `isize::MAX` as slices require.
fn check_array<T>(ptr: *const T, len: usize, name: &str) -> Result<(), Failure> {
    if len > 0 && ptr.is_null() {
        return Err(Failure::null(name));
    }
    if !ptr.is_aligned() {
        return Err(Failure::argument(format!("{name} is not aligned")));
    }
    let fits = len
        .checked_mul(std::mem::size_of::<T>())
        .is_some_and(|bytes| bytes <= isize::MAX as usize);
    if !fits {
        return Err(Failure::argument(format!(
            "{name}: {len} elements do not fit in memory"
        )));
    }
    Ok(())
}

/// `len` elements at `ptr` as a slice (empty for `len` 0, whatever `ptr` is).
///
/// # Safety
/// For `len` > 0, `ptr` is NULL or points to `len` live, initialised `T`s that nothing
/// writes to during `'a`.
pub(crate) unsafe fn array<'a, T>(
    ptr: *const T,
    len: usize,
    name: &str,
) -> Result<&'a [T], Failure> {
    check_array(ptr, len, name)?;
    if len == 0 {
        return Ok(&[]);
    }
    // SAFETY: non-NULL and aligned (checked), `len` elements within isize::MAX bytes
    // (checked), live and unaliased by the caller's promise.
    Ok(unsafe { std::slice::from_raw_parts(ptr, len) })
}

/// `len` elements at `ptr` as a slice to write answers into.
///
/// # Safety
/// For `len` > 0, `ptr` is NULL or points to memory valid for writes of `len` initialised
/// `T`s that nothing else uses during `'a`.
pub(crate) unsafe fn array_mut<'a, T>(
    ptr: *mut T,
    len: usize,
    name: &str,
) -> Result<&'a mut [T], Failure> {
    check_array(ptr, len, name)?;
    if len == 0 {
        return Ok(&mut []);
    }
    // SAFETY: non-NULL and aligned (checked), `len` elements within isize::MAX bytes
    // (checked), writable and used by no one else by the caller's promise.
    Ok(unsafe { std::slice::from_raw_parts_mut(ptr, len) })
}

/// A NUL-terminated UTF-8 string.
///
/// # Safety
/// `ptr` is NULL or points to a NUL-terminated string that nothing writes to during `'a`.
pub(crate) unsafe fn utf8<'a>(ptr: *const c_char, name: &str) -> Result<&'a str, Failure> {
    if ptr.is_null() {
        return Err(Failure::null(name));
    }
    // SAFETY: non-NULL, and NUL-terminated and unchanging by the caller's promise.
    let text = unsafe { CStr::from_ptr(ptr) };
    text.to_str()
        .map_err(|_| Failure::argument(format!("{name} is not UTF-8")))
}
