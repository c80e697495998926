//! Memory figures: the kernel's view of resident memory, and heap bytes from a counting
//! allocator.
//!
//! A bench that wants heap bytes installs the counting allocator itself (a global allocator
//! belongs to the binary, and `nvm.rs` should not pay for one):
//!
//! ```ignore
//! use stats_alloc::{StatsAlloc, INSTRUMENTED_SYSTEM};
//! #[global_allocator]
//! static ALLOCATOR: &StatsAlloc<std::alloc::System> = &INSTRUMENTED_SYSTEM;
//! ```

use stats_alloc::{Region, StatsAlloc};
use std::alloc::System;

/// A `kB` field of `/proc/self/status` (`VmHWM`: peak resident set; `VmRSS`: current), in KiB;
/// `None` where there is no such file (not Linux) or no such field.
pub fn status_kib(field: &str) -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    status.lines().find_map(|line| {
        let rest = line.strip_prefix(field)?.strip_prefix(':')?;
        rest.trim().strip_suffix("kB")?.trim().parse().ok()
    })
}

/// Runs `f` and returns its result with the heap bytes allocated and not freed while it ran:
/// for a function that builds a value, the heap the value holds (plus whatever `f` leaked or
/// cached, which a well-behaved builder does not).
///
/// The counter is process-wide, so threads that `f` spawns are counted (as a parallel loader
/// needs) and so is anything other threads do meanwhile; call it with the process quiet.
pub fn heap_held_by<T>(allocator: &'static StatsAlloc<System>, f: impl FnOnce() -> T) -> (T, i64) {
    let region = Region::new(allocator);
    let value = f();
    let change = region.change();
    let held = change.bytes_allocated as i64 - change.bytes_deallocated as i64
        + change.bytes_reallocated as i64;
    (value, held)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_resident_memory_on_linux() {
        if cfg!(target_os = "linux") {
            let (rss, peak) = (status_kib("VmRSS").unwrap(), status_kib("VmHWM").unwrap());
            assert!(rss > 0 && peak >= rss, "{rss} {peak}");
        }
        assert_eq!(status_kib("NoSuchField"), None);
    }
}
