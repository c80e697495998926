//! The C API of silknav: a world loaded behind an opaque handle and the game server's
//! queries on it, for programs in C, C++, C# (P/Invoke) and anything else that calls C.
//!
//! The header is `include/silknav.h`, generated from this crate by cbindgen and committed; a
//! test (`tests/integration/header.rs`) fails when it differs from what cbindgen generates now
//! (`SILKNAV_BLESS=1 cargo test -p silknav-capi --test integration header` rewrites it). The library is
//! built as `libsilknav_capi.a` and `libsilknav_capi.so` (`cargo build --release -p silknav-capi`).
//!
//! ```c
//! silknav_world *world;
//! if (silknav_world_load("Data", 0, &world) != SILKNAV_OK) {
//!     fprintf(stderr, "%s\n", silknav_last_error_message());
//!     return 2;
//! }
//! float h;
//! if (silknav_height(world, 248550.0, 125870.0, &h) == SILKNAV_OK) printf("%g\n", h);
//! silknav_world_free(world);
//! ```
//!
//! # Conventions
//! - **Handles.** `silknav_world_load` makes a `silknav_world *`; `silknav_world_free` frees
//!   it. A world is immutable: any number of threads may query one handle at once.
//! - **Status codes.** Every call that can fail returns a `silknav_status`: `SILKNAV_OK` (0)
//!   when the answer is yes, `SILKNAV_NO` (1) when it is no (no cell, a blocked line of sight,
//!   no path: the result's `reason` says why), a negative `SILKNAV_ERROR_*` when the call
//!   failed. These mirror the command line's exit codes 0, 1 and 2.
//! - **Last error.** After a failure, `silknav_last_error_message()` is its one-line message
//!   (the command line's), `silknav_last_error_offset()` and `silknav_last_error_section()`
//!   locate a malformed file's problem. They are per thread, owned by silknav, and valid
//!   until the next failure on that thread.
//! - **No panics across the boundary.** Every entry point runs inside `catch_unwind`; a panic
//!   (a bug) becomes `SILKNAV_ERROR_PANIC` with its message.
//! - **Pointers are checked**: NULL where a pointer is needed is `SILKNAV_ERROR_NULL`,
//!   misalignment and array lengths beyond memory `SILKNAV_ERROR_ARGUMENT`. What cannot be
//!   checked (that memory is live and of the right size) is each function's `# Safety`.
//! - **Ownership.** Results are written into structs the caller provides. The one buffer
//!   silknav allocates for the caller is a path's `waypoints` (`silknav_path_find`,
//!   `silknav_paths`), freed by `silknav_path_free`. Strings returned by `silknav_reason_word`
//!   are static; those of `silknav_last_error_*` belong to silknav.
//! - **Coordinates** are world coordinates, `x = region_x·1920 + local_x` and likewise `z`,
//!   as doubles; answers are exactly the command line's (`silknav::query`).
//!
//! # Unsafe code
//! The workspace denies unsafe code; this crate cannot be written without it, so it allows
//! it (below, at the crate root): turning C pointers into references and slices (the module `pointers`, where every
//! check is made), and the handle and waypoint allocations given to C and taken back. Every
//! unsafe block says why it is sound in a `// SAFETY:` comment (clippy's
//! `undocumented_unsafe_blocks` is denied), with one unsafe operation per block.

#![allow(unsafe_code)]
#![deny(clippy::multiple_unsafe_ops_per_block)]

pub mod batch;
pub mod error;
mod pointers;
pub mod query;
pub mod world;

pub use batch::{
    silknav_heights, silknav_heights_y, silknav_paths, silknav_paths_with, silknav_paths_y,
};
pub use error::*;
pub use query::*;
pub use world::*;
