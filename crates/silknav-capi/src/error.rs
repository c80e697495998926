//! Status codes, the thread-local last error, and the guard every entry point runs in: no
//! panic crosses the boundary.

use std::cell::RefCell;
use std::ffi::{c_char, CString};
use std::panic::{catch_unwind, AssertUnwindSafe};

/// What a call returns: `SILKNAV_OK` (0) or `SILKNAV_NO` (1) when it answered, a negative
/// `SILKNAV_ERROR_*` when it failed (then `silknav_last_error_message` says why). The codes
/// mirror the command line's exit codes: 0 yes, 1 the answer is no, errors for 2.
#[allow(non_camel_case_types)]
pub type silknav_status = i32;

/// The call answered, and the answer is "yes": a cell, a height, a clear line of sight, a
/// walk that was made, a path.
pub const SILKNAV_OK: silknav_status = 0;
/// The call answered, and the answer is "no": no cell or height there, a blocked line of
/// sight, a walk or path that cannot be made. The result's `reason` says why, where there is
/// more than one way to say no.
pub const SILKNAV_NO: silknav_status = 1;
/// A pointer the call needs was NULL.
pub const SILKNAV_ERROR_NULL: silknav_status = -1;
/// An argument is unusable: a path that is not UTF-8, a misaligned array, a count whose
/// array would not fit in memory.
pub const SILKNAV_ERROR_ARGUMENT: silknav_status = -2;
/// A world cannot be loaded: a folder or file that cannot be read, two files for one region,
/// a folder from which no region loads.
pub const SILKNAV_ERROR_LOAD: silknav_status = -3;
/// A file is malformed: `silknav_last_error_offset` and `silknav_last_error_section` say
/// where.
pub const SILKNAV_ERROR_FORMAT: silknav_status = -4;
/// A bug inside silknav (a panic), caught at the boundary; the message says what it was.
/// Please report it.
pub const SILKNAV_ERROR_PANIC: silknav_status = -5;

/// A failure, as it is kept for `silknav_last_error_*`.
pub(crate) struct Failure {
    pub status: silknav_status,
    pub message: String,
    /// For a malformed file: the byte offset and the section.
    pub format: Option<(u64, String)>,
}

impl Failure {
    /// A failure with a message and no location.
    pub fn new(status: silknav_status, message: impl Into<String>) -> Failure {
        Failure {
            status,
            message: message.into(),
            format: None,
        }
    }

    /// A NULL pointer for the argument `name`.
    pub fn null(name: &str) -> Failure {
        Failure::new(SILKNAV_ERROR_NULL, format!("{name} is NULL"))
    }

    /// An unusable argument.
    pub fn argument(message: impl Into<String>) -> Failure {
        Failure::new(SILKNAV_ERROR_ARGUMENT, message)
    }
}

/// The last failure of this thread, in the form C reads it.
struct LastError {
    status: silknav_status,
    message: CString,
    /// The byte offset of a malformed file's problem, or -1.
    offset: i64,
    section: Option<CString>,
}

thread_local! {
    static LAST_ERROR: RefCell<Option<LastError>> = const { RefCell::new(None) };
}

/// Text as a C string: a NUL inside (an odd file name) becomes `?`.
fn c_string(text: &str) -> CString {
    CString::new(text.replace('\0', "?")).unwrap_or_default()
}

fn remember(failure: &Failure) {
    let last = LastError {
        status: failure.status,
        message: c_string(&failure.message),
        offset: failure
            .format
            .as_ref()
            .map_or(-1, |(offset, _)| i64::try_from(*offset).unwrap_or(i64::MAX)),
        section: failure.format.as_ref().map(|(_, s)| c_string(s)),
    };
    LAST_ERROR.with(|cell| *cell.borrow_mut() = Some(last));
}

/// The text of a panic's payload.
fn panic_text(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_owned()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "a panic without a message".to_owned()
    }
}

/// Runs an entry point's body: its status, or its failure remembered and its code returned;
/// a panic is caught and becomes `SILKNAV_ERROR_PANIC`.
pub(crate) fn guard(body: impl FnOnce() -> Result<silknav_status, Failure>) -> silknav_status {
    let outcome = catch_unwind(AssertUnwindSafe(body)).unwrap_or_else(|payload| {
        Err(Failure::new(
            SILKNAV_ERROR_PANIC,
            format!("internal error: {}", panic_text(payload.as_ref())),
        ))
    });
    match outcome {
        Ok(status) => status,
        Err(failure) => {
            remember(&failure);
            failure.status
        }
    }
}

/// Runs a body that returns nothing and cannot fail but for a panic (a free function): the
/// panic is caught and remembered.
pub(crate) fn guard_void(body: impl FnOnce()) {
    guard(|| {
        body();
        Ok(SILKNAV_OK)
    });
}

/// The message of the last failure on the calling thread, one line as the command line
/// prints it (`w/navmesh/nv_4080.nvm: offset 420 (0x1a4): cells[12].objects: unexpected end
/// of input (needed 2 bytes, 1 left)`), or NULL when no call on this thread has failed.
///
/// The string belongs to silknav: it stays valid until the next failing call on this thread.
/// Successful calls leave it alone.
#[no_mangle]
pub extern "C" fn silknav_last_error_message() -> *const c_char {
    LAST_ERROR.with(|cell| {
        cell.borrow()
            .as_ref()
            .map_or(std::ptr::null(), |e| e.message.as_ptr())
    })
}

/// The status code of the last failure on the calling thread, or `SILKNAV_OK` when none.
#[no_mangle]
pub extern "C" fn silknav_last_error_status() -> silknav_status {
    LAST_ERROR.with(|cell| cell.borrow().as_ref().map_or(SILKNAV_OK, |e| e.status))
}

/// For a last failure of `SILKNAV_ERROR_FORMAT`: the byte offset of the problem from the
/// start of the file; otherwise -1.
#[no_mangle]
pub extern "C" fn silknav_last_error_offset() -> i64 {
    LAST_ERROR.with(|cell| cell.borrow().as_ref().map_or(-1, |e| e.offset))
}

/// For a last failure of `SILKNAV_ERROR_FORMAT`: the section being read, named like the JSON
/// keys (`cells[12].objects`); otherwise NULL. Owned by silknav, valid as
/// `silknav_last_error_message` is.
#[no_mangle]
pub extern "C" fn silknav_last_error_section() -> *const c_char {
    LAST_ERROR.with(|cell| {
        cell.borrow()
            .as_ref()
            .and_then(|e| e.section.as_ref())
            .map_or(std::ptr::null(), |s| s.as_ptr())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::CStr;

    fn message() -> String {
        // SAFETY: a C string owned by this thread's last error, read before the next failure.
        unsafe { CStr::from_ptr(silknav_last_error_message()) }
            .to_string_lossy()
            .into_owned()
    }

    #[test]
    fn a_panic_becomes_an_error_and_does_not_cross_the_boundary() {
        assert_eq!(guard(|| panic!("boom")), SILKNAV_ERROR_PANIC);
        assert_eq!(message(), "internal error: boom");
        assert_eq!(silknav_last_error_status(), SILKNAV_ERROR_PANIC);
        assert_eq!(guard(|| panic!("boom at {}", 7)), SILKNAV_ERROR_PANIC);
        assert_eq!(message(), "internal error: boom at 7");
        assert_eq!(guard(|| std::panic::panic_any(5u8)), SILKNAV_ERROR_PANIC);
        assert_eq!(message(), "internal error: a panic without a message");
        guard_void(|| panic!("in a free function"));
        assert_eq!(message(), "internal error: in a free function");
    }

    #[test]
    fn failures_are_per_thread_and_successes_leave_them_alone() {
        guard(|| Err(Failure::argument("first")));
        assert_eq!(message(), "first");
        assert_eq!(guard(|| Ok(SILKNAV_NO)), SILKNAV_NO);
        assert_eq!(message(), "first");
        std::thread::spawn(|| {
            assert!(silknav_last_error_message().is_null());
            assert_eq!(silknav_last_error_offset(), -1);
        })
        .join()
        .unwrap();
        let nul = guard(|| Err(Failure::new(SILKNAV_ERROR_LOAD, "a\0b")));
        assert_eq!((nul, message()), (SILKNAV_ERROR_LOAD, "a?b".to_owned()));
    }
}
