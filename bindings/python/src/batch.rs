//! The batch forms: numpy arrays in and out, the queries answered by the library's batches
//! (`silknav::query`) on all cores while the GIL is released.

use crate::answers::{xz, Path};
use numpy::ndarray::Array2;
use numpy::{
    AllowTypeChange, IntoPyArray, PyArray1, PyArray2, PyArrayLike2, PyArrayMethods,
    PyUntypedArrayMethods,
};
use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::prelude::*;
use silknav::query::{self, PointQuery, SegmentQuery};
use silknav::{PathError, PathOptions};
use std::borrow::Cow;

/// The words of the path statuses, by code: `PathBatch.status[i]` indexes this.
pub const PATH_STATUS: [&str; 6] = [
    "found",
    "start-blocked",
    "goal-blocked",
    "unreachable",
    "budget-exceeded",
    "not-walkable",
];

/// The status code of a path answer (an index into [`PATH_STATUS`]).
fn status_code(path: &Result<silknav::WorldPath, PathError>) -> u8 {
    match path {
        Ok(_) => 0,
        Err(e) => PATH_STATUS
            .iter()
            .position(|w| *w == e.word())
            .map_or(u8::MAX, |i| i as u8),
    }
}

/// The rows of an N×`W` array of f64, borrowed when the array is C-contiguous, else copied.
fn rows<'a, const W: usize>(
    array: &'a PyArrayLike2<'_, f64, AllowTypeChange>,
    what: &str,
) -> PyResult<Cow<'a, [[f64; W]]>> {
    let shape = array.shape();
    if shape[1] != W {
        return Err(PyValueError::new_err(format!(
            "{what}: expected an N×{W} array, found {}×{}",
            shape[0], shape[1]
        )));
    }
    // `as_slice` accepts Fortran order too, whose rows are not consecutive: only a C-ordered
    // array is read in place.
    let in_place = if array.is_c_contiguous() {
        array.as_slice().ok()
    } else {
        None
    };
    Ok(match in_place {
        Some(flat) => Cow::Borrowed(flat.as_chunks::<W>().0),
        None => Cow::Owned(
            array
                .as_array()
                .rows()
                .into_iter()
                .map(|row| std::array::from_fn(|i| row[i]))
                .collect(),
        ),
    })
}

/// `World.heights`: N×2 `(x, z)` or N×3 `(x, z, y)` points, N float32 heights (NaN for
/// none).
pub fn heights<'py>(
    py: Python<'py>,
    world: &silknav::World,
    points: &PyArrayLike2<'py, f64, AllowTypeChange>,
) -> PyResult<Bound<'py, PyArray1<f32>>> {
    let queries: Vec<PointQuery> = match points.shape()[1] {
        3 => rows::<3>(points, "points")?
            .iter()
            .map(|p| PointQuery {
                y: Some(p[2] as f32),
                ..PointQuery::new(p[0], p[1])
            })
            .collect(),
        _ => rows::<2>(points, "points")?
            .iter()
            .map(|p| PointQuery::new(p[0], p[1]))
            .collect(),
    };
    let answers = py.detach(|| {
        let mut out = vec![None; queries.len()];
        query::heights(world, &queries, &mut out);
        nan_for_none(&out)
    });
    Ok(answers.into_pyarray(py))
}

fn nan_for_none(heights: &[Option<f32>]) -> Vec<f32> {
    heights.iter().map(|h| h.unwrap_or(f32::NAN)).collect()
}

/// The answers of `World.paths`: one per segment, as numpy arrays.
///
/// `status[i]` is 0 when a path was found, else why not (an index into
/// `silknav.PATH_STATUS`: 1 start-blocked, 2 goal-blocked, 3 unreachable, 4 budget-exceeded,
/// 5 not-walkable); `length[i]` its length (NaN without a path), `exact_length[i]` the exact
/// optimum's; the waypoints of path `i` are the rows
/// `offsets[i]:offsets[i + 1]` of `waypoints` (M×2, world x and z). `batch[i]` is the `Path`
/// that `World.path` returns for segment `i`, or None; `batch.reason(i)` the word.
#[pyclass(module = "silknav", frozen)]
pub struct PathBatch {
    /// The number of segments.
    len: usize,
    status: Py<PyArray1<u8>>,
    length: Py<PyArray1<f64>>,
    exact_length: Py<PyArray1<f64>>,
    /// Whether the paths are exact optima (else walkable).
    exact: bool,
    offsets: Py<PyArray1<i64>>,
    waypoints: Py<PyArray2<f64>>,
}

/// The flat answers, built without the GIL.
struct Flat {
    status: Vec<u8>,
    length: Vec<f64>,
    exact_length: Vec<f64>,
    offsets: Vec<i64>,
    waypoints: Vec<f64>,
}

impl Flat {
    fn new(paths: &[Result<silknav::WorldPath, PathError>]) -> Flat {
        let points: usize = paths
            .iter()
            .map(|p| p.as_ref().map_or(0, |p| p.waypoints.len()))
            .sum();
        let mut flat = Flat {
            status: Vec::with_capacity(paths.len()),
            length: Vec::with_capacity(paths.len()),
            exact_length: Vec::with_capacity(paths.len()),
            offsets: Vec::with_capacity(paths.len() + 1),
            waypoints: Vec::with_capacity(points * 2),
        };
        flat.offsets.push(0);
        for path in paths {
            flat.status.push(status_code(path));
            match path {
                Ok(p) => {
                    flat.length.push(p.length);
                    flat.exact_length.push(p.exact_length);
                    for &w in &p.waypoints {
                        let (x, z) = xz(w);
                        flat.waypoints.extend([x, z]);
                    }
                }
                Err(_) => {
                    flat.length.push(f64::NAN);
                    flat.exact_length.push(f64::NAN);
                }
            }
            flat.offsets.push((flat.waypoints.len() / 2) as i64);
        }
        flat
    }
}

/// An array handed out read-only, so that the batch's answers stay what they were.
fn read_only<'py, T: numpy::Element, D: numpy::ndarray::Dimension>(
    array: Bound<'py, numpy::PyArray<T, D>>,
) -> PyResult<Py<numpy::PyArray<T, D>>> {
    array.call_method1("setflags", (false,))?;
    Ok(array.unbind())
}

/// `World.paths`: N×4 segments, or N×5 with the walker's height at each start (NaN for
/// none), a [`PathBatch`].
pub fn paths(
    py: Python<'_>,
    world: &silknav::World,
    paths: &silknav::PathIndex,
    segments: &PyArrayLike2<'_, f64, AllowTypeChange>,
    budget: Option<usize>,
    options: &PathOptions,
) -> PyResult<PathBatch> {
    let queries: Vec<SegmentQuery> = if segments.shape()[1] == 5 {
        rows::<5>(segments, "segments")?
            .iter()
            .map(|s| SegmentQuery {
                y: (!s[4].is_nan()).then_some(s[4] as f32),
                ..SegmentQuery::new(s[0], s[1], s[2], s[3])
            })
            .collect()
    } else {
        rows::<4>(segments, "segments")?
            .iter()
            .map(|s| SegmentQuery::new(s[0], s[1], s[2], s[3]))
            .collect()
    };
    let len = queries.len();
    let flat = py.detach(|| Flat::new(&query::paths(world, paths, &queries, budget, options)));
    let points = flat.waypoints.len() / 2;
    let waypoints = Array2::from_shape_vec((points, 2), flat.waypoints)
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    Ok(PathBatch {
        len,
        status: read_only(flat.status.into_pyarray(py))?,
        length: read_only(flat.length.into_pyarray(py))?,
        exact_length: read_only(flat.exact_length.into_pyarray(py))?,
        exact: options.is_exact(),
        offsets: read_only(flat.offsets.into_pyarray(py))?,
        waypoints: read_only(waypoints.into_pyarray(py))?,
    })
}

impl PathBatch {
    /// Index `i` of the batch, counting from the end when negative.
    fn index(&self, i: isize) -> PyResult<usize> {
        let n = self.len as isize;
        let at = if i < 0 { i + n } else { i };
        if (0..n).contains(&at) {
            Ok(at as usize)
        } else {
            Err(PyIndexError::new_err("path batch index out of range"))
        }
    }
}

#[pymethods]
impl PathBatch {
    /// Per segment: 0 when a path was found, else the index of the reason in
    /// `silknav.PATH_STATUS`.
    #[getter]
    fn status(&self, py: Python<'_>) -> Py<PyArray1<u8>> {
        self.status.clone_ref(py)
    }

    /// Per segment: the path's length, NaN without a path.
    #[getter]
    fn length(&self, py: Python<'_>) -> Py<PyArray1<f64>> {
        self.length.clone_ref(py)
    }

    /// Per segment: the exact optimum's length (the path's own for exact paths), NaN without
    /// a path.
    #[getter]
    fn exact_length(&self, py: Python<'_>) -> Py<PyArray1<f64>> {
        self.exact_length.clone_ref(py)
    }

    /// N + 1 row offsets into `waypoints`: path `i` is `waypoints[offsets[i]:offsets[i + 1]]`.
    #[getter]
    fn offsets(&self, py: Python<'_>) -> Py<PyArray1<i64>> {
        self.offsets.clone_ref(py)
    }

    /// Every path's waypoints, one after the other: M×2 world `(x, z)`.
    #[getter]
    fn waypoints(&self, py: Python<'_>) -> Py<PyArray2<f64>> {
        self.waypoints.clone_ref(py)
    }

    fn __len__(&self) -> usize {
        self.len
    }

    /// The path of segment `i` as `World.path` returns it, or None when there is none.
    fn __getitem__(&self, py: Python<'_>, i: isize) -> PyResult<Option<Path>> {
        let i = self.index(i)?;
        let status = self.status.bind(py).readonly();
        if status.as_slice()?[i] != 0 {
            return Ok(None);
        }
        let offsets = self.offsets.bind(py).readonly();
        let (from, to) = (
            offsets.as_slice()?[i] as usize,
            offsets.as_slice()?[i + 1] as usize,
        );
        let waypoints = self.waypoints.bind(py).readonly();
        let flat = waypoints.as_slice()?;
        Ok(Some(Path {
            length: self.length.bind(py).readonly().as_slice()?[i],
            exact_length: self.exact_length.bind(py).readonly().as_slice()?[i],
            exact: self.exact,
            waypoints: (from..to).map(|k| (flat[2 * k], flat[2 * k + 1])).collect(),
            dungeon: None,
        }))
    }

    /// Why segment `i` has no path (`"unreachable"`, ...), or None when it has one.
    fn reason(&self, py: Python<'_>, i: isize) -> PyResult<Option<&'static str>> {
        let i = self.index(i)?;
        let code = self.status.bind(py).readonly().as_slice()?[i];
        Ok(match code {
            0 => None,
            c => Some(
                PATH_STATUS
                    .get(usize::from(c))
                    .copied()
                    .unwrap_or("unknown"),
            ),
        })
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let status = self.status.bind(py).readonly();
        let found = status.as_slice()?.iter().filter(|&&s| s == 0).count();
        Ok(format!(
            "PathBatch(<{} segments, {found} paths>)",
            status.as_slice()?.len()
        ))
    }
}
