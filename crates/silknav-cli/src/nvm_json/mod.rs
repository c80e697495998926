//! The JSON form of a navmesh file: lossless, stable, snake_case (`dump` writes it, `pack` reads
//! it back). `docs/cli.md` has the field table; this is the contract in short.
//!
//! Top-level keys, always in this order: `signature` (or `signature_hex` when the 12 bytes are
//! not all printable ASCII), `layout`, `objects`, `open_cell_count`, `cells`, `global_edges`,
//! `internal_edges`, `tiles`, `heights`, `plane_types` and `plane_heights` (absent in
//! `tiles4-noplanes`), `trailing`. Integers are exactly as stored (no booleans); floats follow
//! [`float`]. Reading is strict: every key is required, unknown keys are errors, lengths of the
//! fixed arrays are checked, repeated keys are errors, and every error names the JSON path of
//! the bad value.
//!
//! # Text layout
//! The output is compact JSON broken into lines so that it stays small (three to four times the
//! size of the file; indented, it would be six) and still diffs and greps well: one top-level
//! key per line, one record per line in the lists of objects, cells and edges, and one row per
//! line in the grids (96 tiles, 97 heights, 6 plane values). Any JSON formatting reads back the
//! same.

mod float;
mod parse;
mod path;
mod read;
mod write;

pub(crate) use float::Float;
pub use read::from_slice;
pub use write::write;

use std::fmt;

/// JSON that does not describe a navmesh: where (a JSON path such as `cells[3].min[1]`) and what.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JsonError {
    path: String,
    message: String,
}

impl JsonError {
    fn new(path: impl fmt::Display, message: impl fmt::Display) -> JsonError {
        JsonError {
            path: path.to_string(),
            message: message.to_string(),
        }
    }
}

impl fmt::Display for JsonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            f.write_str(&self.message)
        } else {
            write!(f, "{}: {}", self.path, self.message)
        }
    }
}

impl std::error::Error for JsonError {}

#[cfg(test)]
mod tests {
    use super::*;
    use jmxv::nvm::{Layout, NavMesh};

    fn dump(mesh: &NavMesh) -> String {
        let mut out = Vec::new();
        write(mesh, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn model_to_json_to_model_is_identity_in_every_layout() {
        for layout in Layout::ALL {
            let mut mesh = NavMesh {
                layout,
                ..NavMesh::default()
            };
            mesh.heights[5] = jmxv::F32::from_bits(0x7fc0_0001);
            if layout.has_planes() {
                mesh.planes.types[3] = 3;
            }
            let back = from_slice(dump(&mesh).as_bytes()).unwrap();
            assert_eq!(back, mesh, "{}", layout.name());
        }
    }

    #[test]
    fn one_top_level_key_per_line_in_order() {
        let text = dump(&NavMesh::default());
        let keys: Vec<&str> = text
            .lines()
            .filter_map(|l| l.strip_prefix('"'))
            .filter_map(|l| l.split('"').next())
            .collect();
        assert_eq!(
            keys,
            [
                "signature",
                "layout",
                "objects",
                "open_cell_count",
                "cells",
                "global_edges",
                "internal_edges",
                "tiles",
                "heights",
                "plane_types",
                "plane_heights",
                "trailing"
            ]
        );
        assert!(text.starts_with("{\n\"signature\":\"JMXVNVM 1000\",\n\"layout\":\"standard\",\n"));
        assert!(text.ends_with("\"trailing\":\"\"\n}\n"));
        assert_eq!(
            text.lines().filter(|l| l.starts_with("{\"cell\":")).count(),
            96
        );
        // Braces 2, one-line keys 7, cells 3, tiles 96 + 2, heights 97 + 2, planes 2 × (6 + 2).
        assert_eq!(text.lines().count(), 2 + 7 + 3 + 98 + 99 + 16);
    }
}
