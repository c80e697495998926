//! Navigation over Silkroad Online worlds, built on the [`jmxv`] file formats.
//!
//! - [`build`]: valid navmesh files from tile masks (the back end of world generation and
//!   imports).
//! - [`files`]: the files of a world folder, read and written together.
//! - [`gen`]: synthetic game-like worlds.
//! - [`lint`]: world lint, the checks that need several files.
//! - [`movingai`]: Moving AI grid benchmark maps as worlds.
//! - [`rng`]: the seeded generator that makes generated worlds reproducible.
//!
//! The world of regions in memory and its queries (cell lookup, height, movement, line of
//! sight, paths) come next. The format crate is re-exported so that users need one dependency.

pub mod build;
pub mod files;
pub mod gen;
pub mod lint;
pub mod movingai;
pub mod rng;

pub use jmxv;
