//! Navigation over Silkroad Online worlds, built on the [`jmxv`] file formats.
//!
//! This crate will hold the world of regions in memory and its queries (cell lookup, height,
//! movement, line of sight, paths). It re-exports the format crate so that users need one
//! dependency.

pub use jmxv;
