//! The lossless JSON form of a navmesh (feature `serde`): what `silknav dump` writes and
//! `silknav pack` reads. `docs/cli.md` has the field table; this is the contract in short.
//!
//! Top-level keys, always in this order: `signature` (or `signature_hex` when the 12 bytes are
//! not all printable ASCII), `layout`, `objects`, `open_cell_count`, `cells`, `global_edges`,
//! `internal_edges`, `tiles`, `heights`, `plane_types` and `plane_heights` (absent in
//! `tiles4-noplanes`), `trailing`. Integers are exactly as stored (no booleans); floats follow
//! [`Float`](crate::json::Float). Reading is strict: every key is required, unknown keys are
//! errors, lengths of the fixed arrays are checked, repeated keys are errors, and every error
//! names the JSON path of the bad value ([`JsonError`]).
//!
//! # Text layout
//! The output is compact JSON broken into lines so that it stays small (three to four times the
//! size of the file; indented, it would be six) and still diffs and greps well: one top-level
//! key per line, one record per line in the lists of objects, cells and edges, and one row per
//! line in the grids (96 tiles, 97 heights, 6 plane values). Any JSON formatting reads back the
//! same.
//!
//! # Example
//! ```
//! use jmxv::nvm::{json, NavMesh};
//!
//! let mut mesh = NavMesh::default();
//! mesh.heights[5] = jmxv::F32::from_bits(0x7fc0_0001); // a NaN with a payload
//! let text = json::to_string(&mesh)?;
//! assert!(text.starts_with("{\n\"signature\":\"JMXVNVM 1000\",\n\"layout\":\"standard\",\n"));
//! assert!(text.contains(r#"0.0,0.0,"nan:7fc00001",0.0"#));
//!
//! let back = json::from_str(&text)?;
//! assert_eq!(back.to_vec()?, mesh.to_vec()?);
//!
//! let error = json::from_str(&text.replace("\"min\":[0.0,", "\"min\":[\"abc\",")).unwrap_err();
//! assert_eq!(error.path(), Some("cells[0].min[0]"));
//! assert_eq!(
//!     error.to_string(),
//!     r#"cells[0].min[0]: expected a number, "inf", "-inf" or "nan:XXXXXXXX", found "abc""#
//! );
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod read;
mod write;

use super::NavMesh;
use crate::json::read::{document, utf8, writable};
use crate::json::write::{checked_string, checked_writer};
use crate::json::JsonError;
use crate::WriteError;
use std::io::{self, Write};

/// Reads the JSON form of a navmesh.
///
/// The result can always be written: the counts that the file stores in fixed widths are
/// checked too ([`NavMesh::check_writable`]).
///
/// # Errors
/// Text that is not JSON (with its line and column), or JSON that does not describe a navmesh
/// (with the path of the offending value).
pub fn from_str(text: &str) -> Result<NavMesh, JsonError> {
    let mesh = document::<read::DocumentShape>(text)?.finish()?;
    writable(mesh, NavMesh::check_writable, str::to_owned)
}

/// Reads the JSON form of a navmesh from bytes, which must be UTF-8.
///
/// # Errors
/// As [`from_str`], and text that is not UTF-8 (with the line and column of the first bad byte).
pub fn from_slice(bytes: &[u8]) -> Result<NavMesh, JsonError> {
    from_str(utf8(bytes)?)
}

/// The JSON form of `mesh` (see the [module docs](self)).
///
/// # Errors
/// A [`WriteError`] when the mesh cannot be written as a file ([`NavMesh::check_writable`]);
/// its JSON would not read back.
pub fn to_string(mesh: &NavMesh) -> Result<String, WriteError> {
    // A dump is three to four times the size of the file; reserve that much once.
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
pub fn to_writer(mesh: &NavMesh, out: impl Write) -> io::Result<()> {
    checked_writer(mesh.check_writable(), out, |out| write::write(mesh, out))
}
