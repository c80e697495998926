//! The demo's world, written to a folder: shared by the tests and the load example, which
//! includes this file.

use silknav::files::Overwrite;
use silknav::worldgen::{generate, GenOptions};
use std::path::Path;

/// Writes the demo's world (3×3 regions, seed 1) as a data root at `root`, replacing no file
/// that is there; the error says what could not be generated or written.
pub fn write_demo_world(root: &Path) -> Result<(), Box<dyn std::error::Error>> {
    let options = GenOptions {
        seed: 1,
        width: 3,
        height: 3,
        ..GenOptions::default()
    };
    generate(&options)?
        .into_files()
        .write_data_root(root, Overwrite::Refuse)?;
    Ok(())
}
