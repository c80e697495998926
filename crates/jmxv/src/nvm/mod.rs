//! `JMXVNVM 1000`: the terrain navmesh of one 1920×1920 region (`nv_XXXX.nvm`).
//!
//! [`NavMesh::parse`] reads all three layouts found in the game data into a model that keeps
//! every value verbatim, and [`NavMesh::to_vec`] writes it back: for every input that parses,
//! writing gives the same bytes; for every model that writes, parsing gives the same model.
//!
//! With the `serde` feature, `json` holds the lossless JSON form of a navmesh (what `silknav
//! dump` writes and `silknav pack` reads).
//!
//! # Layouts
//! The sections up to the internal edges are the same in every file. What follows them is told
//! apart by its length:
//!
//! | layout | tiles | plane maps | tail bytes |
//! |---|---|---|---|
//! | [`Layout::Standard`] | 8 bytes: cell, flag, texture | yes | 111,544, then any trailing bytes |
//! | [`Layout::Tiles4`] | 4 bytes: cell | yes | exactly 74,680 |
//! | [`Layout::Tiles4NoPlanes`] | 4 bytes: cell | no | exactly 74,500 |
//!
//! Legacy files must match their length exactly; otherwise a truncated standard file could not
//! be told from a legacy file with trailing bytes, and the game data has none of the latter.
//!
//! # Example
//! ```
//! use jmxv::nvm::NavMesh;
//!
//! let mesh = NavMesh::default(); // one open cell over the whole region
//! let bytes = mesh.to_vec()?;
//! assert_eq!(bytes.len(), 111_591);
//! let back = NavMesh::parse(&bytes)?;
//! assert_eq!(back, mesh);
//! assert_eq!(back.to_vec()?, bytes);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#[cfg(feature = "serde")]
pub mod json;
pub mod lint;
mod model;
mod read;
mod write;

pub use model::*;
pub use read::ParseOptions;
