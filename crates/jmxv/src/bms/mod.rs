//! `JMXVBMS 0110` and `0109`: an object's mesh (`.bms`), of which silknav reads the
//! navigation section — the walkable triangles of a building, gate or bridge, in the object's
//! own frame.
//!
//! [`ObjectMesh::parse`] reads the header and the navigation section into a model that keeps
//! every value verbatim, and keeps every other byte (the render mesh's strings, vertices,
//! faces, bones, cloth, bounding box, portals, and whatever follows) as raw bytes before and
//! after the navigation section. [`ObjectMesh::to_vec`] writes it back: for every input that
//! parses, writing gives the same bytes; for every model that writes, parsing gives the same
//! model.
//!
//! # Layout
//! | bytes | what |
//! |---|---|
//! | 0..12 | signature `JMXVBMS 0110` or `JMXVBMS 0109` |
//! | 12..52 | ten u32 section offsets; the eighth (at 0x28) is the navigation section's, 0 = none |
//! | 52..72 | u32 unknown, u32 nav flags (at 0x38), u32 sub-primitive count, u32 vertex flags, u32 unknown |
//! | 72..nav | [`ObjectMesh::before_nav`]: raw |
//! | nav.. | the navigation section ([`NavSection`]), its length given by its own counts |
//! | ..end | [`ObjectMesh::after_nav`]: raw |
//!
//! The navigation section: a u32 count and 13-byte vertices (f32 x, y, z, u8 normal); a u32
//! count and cells (u16 × 3 vertices, u16 flag, u8 event with nav flag 2); a u32 count and
//! outline edges, then a u32 count and inline edges (u16 × 2 vertices, u16 × 2 cells with
//! 0xFFFF for none, u8 flag, u8 event with nav flag 1); with nav flag 4 a u32 count and event
//! names (u32 length, bytes); the outline grid (f32 origin x, z, i32 width, height, u32 tile
//! count, per tile a u32 count and u16 outline-edge indices). `docs/format.md` has the sources
//! and the decisions.
//!
//! # Example
//! ```
//! use jmxv::bms::{NavSection, ObjectMesh, Version, NAV_CELL_EVENTS};
//!
//! let mesh = ObjectMesh::from_nav(Version::V0110, NAV_CELL_EVENTS, NavSection::default());
//! let bytes = mesh.to_vec()?;
//! assert_eq!(bytes.len(), mesh.encoded_len());
//! let back = ObjectMesh::parse(&bytes)?;
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
