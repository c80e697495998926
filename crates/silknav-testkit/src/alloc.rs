//! Measuring what a parser allocates, for the tests that bound allocation by the input's size.
//! A test binary installs the counting allocator (`#[global_allocator] static ALLOCATOR:
//! &StatsAlloc<System> = &INSTRUMENTED_SYSTEM;`) and passes it here.

use stats_alloc::{Region, StatsAlloc};
use std::alloc::System;
use std::sync::{Mutex, MutexGuard};

/// The allocation counter is process-wide, so a test measuring it must not overlap another.
static SERIAL: Mutex<()> = Mutex::new(());

/// Holds off every other test of the binary that takes it, while the guard lives.
pub fn serial() -> MutexGuard<'static, ()> {
    // A failed test poisons the lock; the others still deserve to run.
    SERIAL
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Bytes allocated while `f` runs (counting growth by `realloc`), the least of three runs.
///
/// The count is an upper bound on the peak. It is process-wide, so the test harness's own
/// bookkeeping on its main thread can add a few hundred bytes to a run; the result is
/// deterministic otherwise, so the least of three runs is the closest to the truth, and it can
/// never be below it.
pub fn allocated_by<T>(allocator: &StatsAlloc<System>, mut f: impl FnMut() -> T) -> usize {
    (0..3)
        .map(|_| {
            let region = Region::new(allocator);
            drop(std::hint::black_box(f()));
            let change = region.change();
            change.bytes_allocated + change.bytes_reallocated.max(0) as usize
        })
        .min()
        .unwrap_or(usize::MAX)
}
