//! The Python module `silknav._silknav`, which the package `silknav` re-exports: PyO3
//! wrappers over the `silknav` and `jmxv` crates, with no query logic of their own.
//!
//! - [`world`]: `World`, its queries in world coordinates and its batch forms;
//! - [`batch`]: the batch forms over numpy arrays, answered on all cores without the GIL;
//! - [`answers`]: the answers as Python objects (`Cell`, `Hit`, `Move`, `Snap`, `Path`);
//! - [`navmesh`]: `silknav.jmxv.NavMesh`, navmesh files byte for byte and as dicts;
//! - [`errors`]: the exception classes and the command line's messages.

mod answers;
mod batch;
mod errors;
mod navmesh;
mod world;

use pyo3::prelude::*;

#[pymodule]
fn _silknav(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<world::PyWorld>()?;
    m.add_class::<answers::Cell>()?;
    m.add_class::<answers::ObjectCell>()?;
    m.add_class::<answers::Edge>()?;
    m.add_class::<answers::ObjectEdge>()?;
    m.add_class::<answers::Hit>()?;
    m.add_class::<answers::Move>()?;
    m.add_class::<answers::Snap>()?;
    m.add_class::<answers::Path>()?;
    m.add_class::<batch::PathBatch>()?;
    m.add_class::<navmesh::PyNavMesh>()?;
    m.add("PATH_STATUS", batch::PATH_STATUS.to_vec())?;
    m.add("DEFAULT_CLEARANCE", silknav::DEFAULT_CLEARANCE)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    errors::register(m)
}
