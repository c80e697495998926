//! Navigation over Silkroad Online worlds, built on the [`jmxv`] file formats.
//!
//! - [`build`]: valid navmesh files from tile masks (the back end of world generation and
//!   imports).
//! - [`files`]: the files of a world folder, read and written together: which file is which
//!   ([`files::scan_folder`]) and the one atomic writer ([`files::write_atomic`]).
//! - [`worldgen`]: synthetic game-like worlds.
//! - [`geometry`]: the exact predicates the queries share.
//! - [`lint`]: world lint, the checks that need several files.
//! - [`movingai`]: Moving AI grid benchmark maps as worlds.
//! - [`path`]: exact any-angle shortest paths across regions.
//! - [`world`]: a world of regions in memory and the game server's queries on it.
//!
//! The format crate is re-exported so that users need one dependency.
//!
//! Parallel work (loading a folder, building the path index) runs on rayon's current thread
//! pool: all cores unless `RAYON_NUM_THREADS` says otherwise, or capped per call by running it
//! inside a pool of your own (`pool.install(|| World::load(dir))`).

pub mod build;
pub mod files;
pub mod geometry;
pub mod lint;
pub mod movingai;
pub mod path;
mod rng;
pub mod world;
pub mod worldgen;

pub use path::{PathError, PathIndexStats, PathScratch, WorldPath};
pub use world::{CellRef, LoadFinding, LoadFindingKind, LoadReport, Position, World};

pub use jmxv;
