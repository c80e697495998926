//! `silknav.jmxv.NavMesh`: a navmesh file (`nv_XXXX.nvm`) read and written byte for byte,
//! and its lossless JSON form as Python dicts.

use crate::errors;
use jmxv::nvm::{self, NavMesh as RustNavMesh, HEIGHTS_PER_SIDE, PLANES_PER_SIDE, TILES_PER_SIDE};
use numpy::ndarray::Array2;
use numpy::{IntoPyArray, PyArray2};
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use silknav::files::{write_atomic, Overwrite};

/// A navmesh file (`JMXVNVM 1000`, any of its three layouts), every value kept verbatim:
/// `to_bytes()` gives back exactly the bytes it was read from.
///
/// Its contents are readable as numpy grids (`heights`, `tile_cells`, …) and, whole, as the
/// lossless JSON form of `silknav dump` (`to_dict()`, `to_json()`); to edit it, change the
/// dict and read it back with `NavMesh.from_dict`.
#[pyclass(module = "silknav.jmxv", name = "NavMesh", frozen, eq)]
#[derive(PartialEq)]
pub struct PyNavMesh {
    mesh: RustNavMesh,
}

/// A grid of `side`×`side` values as a numpy array.
fn grid<'py, T: numpy::Element>(
    py: Python<'py>,
    side: usize,
    values: impl Iterator<Item = T>,
) -> Bound<'py, PyArray2<T>> {
    let values: Vec<T> = values.collect();
    Array2::from_shape_vec((side, side), values)
        .unwrap_or_else(|_| unreachable!("the model's grids have side × side values"))
        .into_pyarray(py)
}

#[pymethods]
impl PyNavMesh {
    /// Parses the bytes of a navmesh file.
    ///
    /// Raises `FormatError` (with `.offset` and `.section`) for malformed bytes.
    #[staticmethod]
    fn parse(py: Python<'_>, data: &[u8]) -> PyResult<PyNavMesh> {
        RustNavMesh::parse(data)
            .map(|mesh| PyNavMesh { mesh })
            .map_err(|e| errors::format_error(py, e.to_string(), &e, None))
    }

    /// Reads and parses a navmesh file.
    ///
    /// Raises `FormatError` for malformed bytes and `LoadError` for a file that cannot be
    /// read, with the command line's message (`nv_694e.nvm: offset 47 (0x2f): ...`).
    #[staticmethod]
    fn read(py: Python<'_>, path: std::path::PathBuf) -> PyResult<PyNavMesh> {
        match py.detach(|| RustNavMesh::from_path(&path)) {
            Ok(mesh) => Ok(PyNavMesh { mesh }),
            Err(e) => Err(errors::read_error(py, &path, e)),
        }
    }

    /// Reads the JSON form of a navmesh (what `silknav dump` writes).
    ///
    /// Raises `JsonError` naming the JSON path of a bad value, or the line and column of a
    /// syntax error.
    #[staticmethod]
    fn from_json(py: Python<'_>, text: &str) -> PyResult<PyNavMesh> {
        nvm::json::from_str(text)
            .map(|mesh| PyNavMesh { mesh })
            .map_err(|e| errors::json_error(py, &e))
    }

    /// Reads the JSON form of a navmesh given as Python values (a dict as `to_dict` returns
    /// it, edited or not).
    ///
    /// Raises `JsonError` as `from_json` does.
    #[staticmethod]
    fn from_dict(py: Python<'_>, document: &Bound<'_, PyAny>) -> PyResult<PyNavMesh> {
        // Python's own encoder writes floats as the shortest decimal that reads back to the
        // same double, so every f32 of the form survives; NaN and infinities must be the
        // form's strings ("nan:7fc00000", "inf"), as `allow_nan=False` insists.
        let kwargs = pyo3::types::PyDict::new(py);
        kwargs.set_item("allow_nan", false)?;
        let text: String = py
            .import("json")?
            .call_method("dumps", (document,), Some(&kwargs))?
            .extract()?;
        PyNavMesh::from_json(py, &text)
    }

    /// The file's bytes.
    ///
    /// Raises `WriteError` for a mesh its layout cannot hold.
    fn to_bytes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        self.mesh
            .to_vec()
            .map(|bytes| PyBytes::new(py, &bytes))
            .map_err(|e| errors::encode_error(py, &e, None))
    }

    fn __bytes__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        self.to_bytes(py)
    }

    /// Writes the file atomically (all of it or nothing); an existing file is replaced only
    /// with `overwrite=True`, else `FileExistsError` is raised.
    ///
    /// Raises `WriteError` for a mesh its layout cannot hold or a file that cannot be written.
    #[pyo3(signature = (path, *, overwrite = false))]
    fn write(&self, py: Python<'_>, path: std::path::PathBuf, overwrite: bool) -> PyResult<()> {
        let bytes = self
            .mesh
            .to_vec()
            .map_err(|e| errors::encode_error(py, &e, Some(&path)))?;
        py.detach(|| write_atomic(&path, &bytes, Overwrite::from_force(overwrite)))
            .map_err(|e| errors::write_file_error(py, e))
    }

    /// The JSON form (`silknav dump`'s text): every stored value, floats that are not finite
    /// as strings (`"inf"`, `"nan:7fc00001"`).
    fn to_json(&self, py: Python<'_>) -> PyResult<String> {
        nvm::json::to_string(&self.mesh).map_err(|e| errors::encode_error(py, &e, None))
    }

    /// The JSON form as Python values: a dict with the keys of `silknav dump` (`layout`,
    /// `objects`, `cells`, `global_edges`, `internal_edges`, `tiles`, `heights`, …).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let text = self.to_json(py)?;
        py.import("json")?.call_method1("loads", (text,))
    }

    /// The layout: `"standard"`, `"tiles4"` or `"tiles4-noplanes"`.
    #[getter]
    fn layout(&self) -> &'static str {
        self.mesh.layout.name()
    }

    /// The 12 signature bytes as stored.
    #[getter]
    fn signature<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &self.mesh.signature)
    }

    /// The stored number of open (walkable) cells; they come first.
    #[getter]
    fn open_cell_count(&self) -> u32 {
        self.mesh.open_cell_count
    }

    /// The number of object instances.
    #[getter]
    fn object_count(&self) -> usize {
        self.mesh.objects.len()
    }

    /// The number of cells.
    #[getter]
    fn cell_count(&self) -> usize {
        self.mesh.cells.len()
    }

    /// The number of edges on the region border.
    #[getter]
    fn global_edge_count(&self) -> usize {
        self.mesh.global_edges.len()
    }

    /// The number of edges between cells.
    #[getter]
    fn internal_edge_count(&self) -> usize {
        self.mesh.internal_edges.len()
    }

    /// The 97×97 height map (float32, row `vz`, column `vx`; a vertex every 20 units).
    #[getter]
    fn heights<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<f32>> {
        grid(
            py,
            HEIGHTS_PER_SIDE,
            self.mesh.heights.iter().map(|h| h.get()),
        )
    }

    /// The 96×96 tiles' cell indices as stored (uint32, row `tz`, column `tx`; the game uses
    /// the low 16 bits).
    #[getter]
    fn tile_cells<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<u32>> {
        grid(
            py,
            TILES_PER_SIDE,
            self.mesh.tiles.iter().map(|t| t.cell_index),
        )
    }

    /// The 96×96 tiles' flags (uint16; bit 0 = blocked; 0 in the legacy layouts).
    #[getter]
    fn tile_flags<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<u16>> {
        grid(py, TILES_PER_SIDE, self.mesh.tiles.iter().map(|t| t.flag))
    }

    /// The 96×96 tiles' texture ids (uint16, indices into `tile2d.ifo`; 0 in the legacy
    /// layouts).
    #[getter]
    fn tile_textures<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<u16>> {
        grid(
            py,
            TILES_PER_SIDE,
            self.mesh.tiles.iter().map(|t| t.texture_id),
        )
    }

    /// The 6×6 plane types (uint8; bit 0 water, bit 1 ice).
    #[getter]
    fn plane_types<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<u8>> {
        grid(py, PLANES_PER_SIDE, self.mesh.planes.types.iter().copied())
    }

    /// The 6×6 plane heights (float32).
    #[getter]
    fn plane_heights<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<f32>> {
        grid(
            py,
            PLANES_PER_SIDE,
            self.mesh.planes.heights.iter().map(|h| h.get()),
        )
    }

    /// The bytes after the last section, kept so that writing gives them back.
    #[getter]
    fn trailing<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &self.mesh.trailing)
    }

    fn __repr__(&self) -> String {
        format!(
            "NavMesh(layout='{}', objects={}, cells={}, global_edges={}, internal_edges={})",
            self.mesh.layout.name(),
            self.mesh.objects.len(),
            self.mesh.cells.len(),
            self.mesh.global_edges.len(),
            self.mesh.internal_edges.len()
        )
    }
}
