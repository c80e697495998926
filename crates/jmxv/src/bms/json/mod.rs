//! The lossless JSON form of an object mesh (feature `serde`): what `silknav dump` writes for a
//! `.bms` file and `silknav pack` reads. `docs/cli.md` has the field table; this is the contract
//! in short.
//!
//! Top-level keys, always in this order: `signature` (`"JMXVBMS 0110"` or `"JMXVBMS 0109"`),
//! `header` (the ten `offsets` and the five fields after them), `before_nav` (hex); when the
//! file has a navigation section, `vertices`, `cells`, `outline_edges`, `inline_edges`,
//! `event_names` (hex strings), `grid` (`origin`, `width`, `height`) and `grid_tiles` (one
//! array of outline-edge indices per tile); then `after_nav` (hex). The navigation keys come all
//! together or not at all. Every record has every field, `event` included (0 where the nav
//! flags store none). Integers are exactly as stored; floats follow
//! [`Float`](crate::json::Float). Reading is strict, as for navmeshes
//! ([`crate::nvm::json`]): every key is required, unknown and repeated keys are errors, fixed
//! arrays have their length checked, and every error names the JSON path of the bad value
//! ([`JsonError`]).
//!
//! # Text layout
//! Compact JSON broken into lines: one top-level key per line, one record per line in the
//! lists of vertices, cells and edges, one name per line, one tile per line. Any JSON
//! formatting reads back the same.
//!
//! # Example
//! ```
//! use jmxv::bms::{json, NavSection, NavVertex, ObjectMesh, Version, NAV_CELL_EVENTS};
//!
//! let mut nav = NavSection::default();
//! nav.vertices.push(NavVertex { position: [jmxv::F32::from(-0.0); 3], normal: 7 });
//! let mesh = ObjectMesh::from_nav(Version::V0110, NAV_CELL_EVENTS, nav);
//! let text = json::to_string(&mesh)?;
//! assert!(text.starts_with("{\n\"signature\":\"JMXVBMS 0110\",\n\"header\":{\"offsets\":"));
//! assert!(text.contains("\n{\"position\":[-0.0,-0.0,-0.0],\"normal\":7}\n"));
//!
//! let back = json::from_str(&text)?;
//! assert_eq!(back.to_vec()?, mesh.to_vec()?);
//!
//! let error = json::from_str(&text.replace("\"normal\":7", "\"normal\":700")).unwrap_err();
//! assert_eq!(error.to_string(), "vertices[0].normal: expected an integer 0..=255, found 700");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod read;
mod write;

use super::ObjectMesh;
use crate::json::read::{document, utf8, writable};
use crate::json::write::{checked_string, checked_writer};
use crate::json::JsonError;
use crate::WriteError;
use std::io::{self, Write};

/// Reads the JSON form of an object mesh.
///
/// The result can always be written ([`ObjectMesh::check_writable`] is part of reading).
///
/// # Errors
/// Text that is not JSON (with its line and column), or JSON that does not describe an object
/// mesh (with the path of the offending value).
pub fn from_str(text: &str) -> Result<ObjectMesh, JsonError> {
    // WriteError names its sections like JSON paths already, except the grid's tiles, which
    // the document keeps under a key of their own.
    let path_of = |section: &str| match section.strip_prefix("grid.tiles") {
        Some(rest) => format!("grid_tiles{rest}"),
        None => section.to_owned(),
    };
    writable(
        document::<read::DocumentShape>(text)?.0,
        ObjectMesh::check_writable,
        path_of,
    )
}

/// Reads the JSON form of an object mesh from bytes, which must be UTF-8.
///
/// # Errors
/// As [`from_str`], and text that is not UTF-8 (with the line and column of the first bad byte).
pub fn from_slice(bytes: &[u8]) -> Result<ObjectMesh, JsonError> {
    from_str(utf8(bytes)?)
}

/// The JSON form of `mesh` (see the [module docs](self)).
///
/// # Errors
/// A [`WriteError`] when the mesh cannot be written as a file ([`ObjectMesh::check_writable`]);
/// its JSON would not read back.
pub fn to_string(mesh: &ObjectMesh) -> Result<String, WriteError> {
    checked_string(
        mesh.check_writable(),
        || mesh.encoded_len() * 4,
        |out| write::write(mesh, out),
    )
}

/// Writes the JSON form of `mesh` to a stream.
///
/// # Errors
/// An [`io::Error`] from the stream, or one of kind `InvalidInput` wrapping a [`WriteError`]
/// when the mesh cannot be written ([`to_string`]).
pub fn to_writer(mesh: &ObjectMesh, out: impl Write) -> io::Result<()> {
    checked_writer(mesh.check_writable(), out, |out| write::write(mesh, out))
}
