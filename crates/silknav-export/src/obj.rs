//! The Wavefront OBJ writer: one `o` per group, 1-based indices counted over the file.

use crate::model::{Model, Primitive};
use std::fmt::Write;

/// The model as OBJ text.
pub fn write(model: &Model) -> String {
    let mut out = String::new();
    // Writing into a String cannot fail.
    let _ = writeln!(out, "# silknav-export {}", env!("CARGO_PKG_VERSION"));
    let _ = writeln!(
        out,
        "# origin {} {}: game (x, y, z) = (origin x + X, Y, origin z - Z); x east, y up, -z north",
        model.origin[0], model.origin[1]
    );
    let mut base = 1u64;
    for group in &model.groups {
        let _ = writeln!(out, "o {}", group.name.replace(' ', "_"));
        for p in &group.positions {
            let _ = writeln!(out, "v {} {} {}", p[0], p[1], p[2]);
        }
        match &group.primitive {
            Primitive::Triangles(indices) => {
                for t in indices.chunks_exact(3) {
                    let i = |k: usize| base + u64::from(t[k]);
                    let _ = writeln!(out, "f {} {} {}", i(0), i(1), i(2));
                }
            }
            Primitive::Lines(indices) => {
                for l in indices.chunks_exact(2) {
                    let _ = writeln!(
                        out,
                        "l {} {}",
                        base + u64::from(l[0]),
                        base + u64::from(l[1])
                    );
                }
            }
        }
        base += group.positions.len() as u64;
    }
    out
}
