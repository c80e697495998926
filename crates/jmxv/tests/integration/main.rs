//! Integration tests of `jmxv`: every format read and written through the public API, as one
//! test binary.
//!
//! The binary's global allocator is `allocation-counter`'s, which counts each thread's
//! allocations apart: the tests that bound what a parser allocates ([`allocated_by`]) run
//! beside the others without seeing their allocations.

mod bms;
mod companions;
mod dof;
mod dungeon_tables;
mod independent;
mod json;
mod lint;
mod robustness;
mod roundtrip;

/// The most bytes `f` holds allocated at once on this thread, its result included: an upper
/// bound on what a parse keeps and a lower bound on what it must.
pub fn allocated_by<T>(mut f: impl FnMut() -> T) -> usize {
    let info = allocation_counter::measure(|| drop(std::hint::black_box(f())));
    usize::try_from(info.bytes_max).unwrap_or(usize::MAX)
}
