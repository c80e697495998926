//! `silknav.World`: a loaded world and its queries, in world coordinates.

use crate::answers::{Cell, Hit, Move, Path, Snap};
use crate::batch::{self, PathBatch};
use crate::errors;
use numpy::{AllowTypeChange, PyArray1, PyArrayLike2};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use silknav::files::{LoadError, WorldSource};
use silknav::pk2_archive::Key;
use silknav::query::{self, PointQuery, SegmentQuery};
use silknav::world::movement::{DistanceGuard, MoveOptions};
use silknav::{LoadOptions, PathOptions, PathScratch, Surface};

/// A world of regions in memory, loaded once and queried from any thread.
///
/// Coordinates are world coordinates: `x = region_x * 1920 + local_x`, `z = region_z * 1920
/// + local_z`. Every answer is the one the `silknav` command line gives for the same query.
/// Long work (loading, paths, batches) releases the GIL and runs on all cores.
#[pyclass(module = "silknav", name = "World", frozen)]
pub struct PyWorld {
    /// The world and its path index (read from the world's index file when it is there and
    /// fresh, else built on the first path query).
    nav: silknav::Navigator,
    /// The folder as given, for `repr`.
    path: std::path::PathBuf,
}

#[pymethods]
impl PyWorld {
    /// Loads a world: a folder (the data root, holding `navmesh/` and `res/`, or its navmesh
    /// folder), the client's PK2 archive (`Data.pk2`, read in place), or a folder inside one
    /// (`Data.pk2:navmesh`); `pk2_key` is a private server's archive key (default: the
    /// official clients'). Every `nv_XXXX.nvm` of a region `mapinfo.mfo` enables, in parallel, and with
    /// `objects=True` the buildings, gates and bridges the regions list (their meshes found
    /// under the data root). What loading left out is in `warnings`.
    ///
    /// Raises `FormatError` for a malformed file (with its `.offset`, `.section` and `.path`),
    /// `LoadError` for a folder that cannot be read, two files for one region, or a folder
    /// from which no region loads; the messages are the command line's.
    #[staticmethod]
    #[pyo3(signature = (path, *, objects = true, pk2_key = None))]
    fn load(
        py: Python<'_>,
        path: std::path::PathBuf,
        objects: bool,
        pk2_key: Option<&str>,
    ) -> PyResult<PyWorld> {
        let options = if objects {
            LoadOptions::default()
        } else {
            LoadOptions::terrain_only()
        };
        let key = match pk2_key {
            None => Key::default(),
            Some(k) => Key::new(k.as_bytes())
                .map_err(|e| PyValueError::new_err(format!("pk2_key: {e}")))?,
        };
        let loaded = py.detach(|| {
            let source = WorldSource::open_with_key(&path, &key)?;
            let nav =
                silknav::Navigator::load_source(&source, &options, silknav::PathIndexUse::IfValid)?;
            if nav.world().regions().len() == 0 {
                return Err(LoadError::NoRegion { dir: path.clone() });
            }
            Ok(nav)
        });
        match loaded {
            Ok(nav) => Ok(PyWorld { nav, path }),
            Err(e) => Err(errors::load_error(py, e)),
        }
    }

    /// The loaded regions, ascending, each as four lower-case hex digits (`"4181"`).
    #[getter]
    fn regions(&self) -> Vec<String> {
        self.nav.world().regions().map(|r| r.to_string()).collect()
    }

    /// What loading left out or could not use, one line each, as the command line warns
    /// about it: regions without a file, files not enabled, dungeons, object instances that
    /// could not be placed, damaged parts of files.
    #[getter]
    fn warnings(&self) -> Vec<String> {
        self.nav
            .world()
            .load_report()
            .findings
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    /// The number of object instances placed (buildings, gates, bridges).
    #[getter]
    fn object_count(&self) -> usize {
        self.nav.world().object_instances().len()
    }

    /// The cell under (x, z), or None on a blocked tile without an object or outside the
    /// loaded regions. Without `y` the highest object triangle wins over the terrain; with
    /// it, the object floor or ground whose height is closest to `y`. With `dungeon` (its id
    /// in dungeoninfo.txt), (x, z) are that dungeon's own coordinates, as every query's are.
    #[pyo3(signature = (x, z, y = None, *, dungeon = None))]
    fn cell(&self, x: f64, z: f64, y: Option<f32>, dungeon: Option<u16>) -> Option<Cell> {
        query::cell(self.nav.world(), PointQuery { x, z, y, dungeon }).map(Cell::from)
    }

    /// The ground height at (x, z) as the game server computes it, or None outside the
    /// loaded regions (blocked tiles have a height too). Without `y` the terrain's height,
    /// even under an object; with it, the height of the object floor or ground nearest `y`.
    #[pyo3(signature = (x, z, y = None, *, dungeon = None))]
    fn height(&self, x: f64, z: f64, y: Option<f32>, dungeon: Option<u16>) -> Option<f32> {
        query::height(self.nav.world(), PointQuery { x, z, y, dungeon })
    }

    /// The first point where the segment from (x1, z1) to (x2, z2) is blocked, or None when
    /// the line of sight is clear. It starts on the surface `cell` picks for the start (with
    /// `y`, the one nearest `y`).
    ///
    /// Raises `QueryError` (`.reason` `"start-blocked"` or `"bad-end"`) when the segment
    /// cannot be cast.
    #[pyo3(signature = (x1, z1, x2, z2, y = None, *, dungeon = None))]
    #[allow(clippy::too_many_arguments)]
    fn raycast(
        &self,
        py: Python<'_>,
        x1: f64,
        z1: f64,
        x2: f64,
        z2: f64,
        y: Option<f32>,
        dungeon: Option<u16>,
    ) -> PyResult<Option<Hit>> {
        let segment = SegmentQuery {
            y,
            dungeon,
            ..SegmentQuery::new(x1, z1, x2, z2)
        };
        query::los(self.nav.world(), segment)
            .map(|hit| hit.map(Hit::from))
            .map_err(|e| errors::ray_error(py, e))
    }

    /// Whether the line of sight from (x1, z1) to (x2, z2) is clear: `raycast(...) is None`.
    ///
    /// Raises `QueryError` as `raycast` does.
    #[pyo3(signature = (x1, z1, x2, z2, y = None, *, dungeon = None))]
    #[allow(clippy::too_many_arguments)]
    fn los(
        &self,
        py: Python<'_>,
        x1: f64,
        z1: f64,
        x2: f64,
        z2: f64,
        y: Option<f32>,
        dungeon: Option<u16>,
    ) -> PyResult<bool> {
        Ok(self.raycast(py, x1, z1, x2, z2, y, dungeon)?.is_none())
    }

    /// Walks from (x1, z1) toward (x2, z2) cell by cell, as the game server's movement does,
    /// and says where and why the walk stops (`"arrived"`, `"wall"`, `"no-edge"`,
    /// `"object-wall"`, `"transition"`, `"looped"`). As `silknav move`: `y` starts the walk on
    /// the surface nearest that height; `guard` is the server's refusal of far goals
    /// (`"one-sided"`, the server's, `"symmetric"` or `"off"`); `object_checks=False` walks
    /// as the server's movement flag 0 (objects refuse no entry and no exit).
    ///
    /// Raises `QueryError` (`.reason` `"start-blocked"`, `"too-far"`, `"off-mesh"`,
    /// `"missing-region"` with `.region`, `"step-limit"` or `"object-refused"`) when the walk
    /// fails, `ValueError` for an unknown guard.
    #[pyo3(name = "move", signature = (x1, z1, x2, z2, y = None, *, guard = "one-sided", object_checks = true, dungeon = None))]
    #[allow(clippy::too_many_arguments)]
    fn move_along(
        &self,
        py: Python<'_>,
        x1: f64,
        z1: f64,
        x2: f64,
        z2: f64,
        y: Option<f32>,
        guard: &str,
        object_checks: bool,
        dungeon: Option<u16>,
    ) -> PyResult<Move> {
        let guard = match guard {
            "one-sided" => DistanceGuard::OneSided,
            "symmetric" => DistanceGuard::Symmetric,
            "off" => DistanceGuard::Off,
            other => {
                return Err(PyValueError::new_err(format!(
                    "guard: expected 'one-sided', 'symmetric' or 'off', found {other:?}"
                )))
            }
        };
        let options = MoveOptions::new()
            .with_guard(guard)
            .with_object_checks(object_checks);
        let segment = SegmentQuery {
            y,
            dungeon,
            ..SegmentQuery::new(x1, z1, x2, z2)
        };
        query::move_along(self.nav.world(), segment, &options)
            .map(Move::from)
            .map_err(|e| errors::move_error(py, e))
    }

    /// The walkable point nearest (x, z) within `max_distance` units, or None when nothing
    /// walkable is that close; as `silknav snap`. Walkable is what `cell` answers (with `y`,
    /// what `cell(x, z, y)` answers); a walk (`move`) starts from the point.
    ///
    /// Raises `ValueError` when `max_distance` is negative or not finite.
    #[pyo3(signature = (x, z, y = None, *, max_distance = 100.0, dungeon = None))]
    fn snap(
        &self,
        x: f64,
        z: f64,
        y: Option<f32>,
        max_distance: f64,
        dungeon: Option<u16>,
    ) -> PyResult<Option<Snap>> {
        if !(max_distance.is_finite() && max_distance >= 0.0) {
            return Err(PyValueError::new_err(format!(
                "max_distance: expected a finite distance, 0 or more, found {max_distance}"
            )));
        }
        let point = PointQuery { x, z, y, dungeon };
        Ok(query::snap(self.nav.world(), point, max_distance).map(Snap::from))
    }

    /// The shortest path from (x1, z1) to (x2, z2) over the walkable ground, across regions,
    /// as `silknav path`: walkable by default (every leg of it is walked to its end by
    /// `move`; its turning points lie `clearance` units off the corners, default
    /// `silknav.DEFAULT_CLEARANCE`), or with `exact=True` the exact optimum, whose waypoints
    /// sit on the corners of blocked ground; with `objects=True`, in a world with objects, the
    /// path through and round them (the exact one with `exact=True`, else that path made
    /// walkable), as `silknav path --objects`: far slower; `radius` is the walker's (the path
    /// keeps at least
    /// that far from every wall and blocked tile). `budget` limits the search to that many
    /// corner expansions. The first call builds the world's path index (see `prepare_paths`).
    ///
    /// Raises `QueryError` (`.reason` `"start-blocked"`, `"goal-blocked"`, `"unreachable"`,
    /// `"budget-exceeded"` or `"not-walkable"`) when there is no path, `ValueError` for a
    /// clearance out of range (more than 0, less than 10) or given with `exact=True`.
    ///
    /// `y` is the walker's height at the start, as `move`'s: the path starts on the surface
    /// nearest it (under a bridge's deck rather than on it), as `silknav path --y`; it decides
    /// where `objects=True` starts, and `path_heights(path, y)` starts there.
    #[pyo3(signature = (x1, z1, x2, z2, y = None, *, budget = None, exact = false, objects = false, clearance = None, radius = 0.0, dungeon = None))]
    #[allow(clippy::too_many_arguments)]
    fn path(
        &self,
        py: Python<'_>,
        x1: f64,
        z1: f64,
        x2: f64,
        z2: f64,
        y: Option<f32>,
        budget: Option<usize>,
        exact: bool,
        objects: bool,
        clearance: Option<f64>,
        radius: f64,
        dungeon: Option<u16>,
    ) -> PyResult<Path> {
        let options = path_options(exact, objects, clearance, radius)?;
        let found = py.detach(|| {
            let mut scratch = budget.map_or_else(PathScratch::new, PathScratch::with_budget);
            let q = SegmentQuery {
                y,
                dungeon,
                ..SegmentQuery::new(x1, z1, x2, z2)
            };
            query::path(
                self.nav.world(),
                self.nav.paths(),
                q,
                &options,
                &mut scratch,
            )
        });
        found
            .map(|p| Path::from(&p))
            .map_err(|e| errors::path_error(py, e))
    }

    /// The cells a path passes through, in order, each once per visit (a leg that runs
    /// exactly along a tile side counts the tile on its left): the `cells` of the command
    /// line's JSON answer. In a dungeon, the block triangles each leg's line of sight walks
    /// over, from the cell nearest the height the walker reaches the leg's start at; `y`,
    /// the walker's height at the start, picks the floor the path starts on.
    #[pyo3(signature = (path, y = None))]
    fn path_cells(&self, py: Python<'_>, path: &Path, y: Option<f32>) -> PyResult<Vec<Cell>> {
        let path = world_path(path)?;
        let cells = py.detach(|| self.nav.world().path_cells(&path, Surface::from(y)));
        Ok(cells.into_iter().map(Cell::from).collect())
    }

    /// The height of each waypoint of a path as a walker who walks its legs one by one with
    /// `move`, each from the height the one before arrived at (`y=`), stands there: the
    /// start at the height a walk starts at without one, every other waypoint at the height
    /// the walk of the leg before it arrives at (None where there is none): the `heights` of
    /// the command line's JSON answer. With `y`, the walker's height at the start (the `y`
    /// the path was asked with), the start is at the surface there nearest it.
    #[pyo3(signature = (path, y = None))]
    fn path_heights(
        &self,
        py: Python<'_>,
        path: &Path,
        y: Option<f32>,
    ) -> PyResult<Vec<Option<f32>>> {
        let path = world_path(path)?;
        Ok(py.detach(|| self.nav.world().path_heights(&path, Surface::from(y))))
    }

    /// Builds the world's path index now, if it has none yet (otherwise the first path
    /// query builds it), and says what it holds: `rects`, `corners`, `edges`, `heap_bytes`,
    /// `build_seconds`, and whether it has a corner table (`corner_table`, small worlds) or
    /// landmarks (`landmarks`, the others).
    fn prepare_paths<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let stats = py.detach(|| self.nav.paths().stats());
        let out = PyDict::new(py);
        out.set_item("rects", stats.rects)?;
        out.set_item("corners", stats.corners)?;
        out.set_item("edges", stats.edges)?;
        out.set_item("heap_bytes", stats.heap_bytes)?;
        out.set_item("build_seconds", stats.build_time.as_secs_f64())?;
        out.set_item("corner_table", stats.corner_table)?;
        out.set_item("landmarks", stats.landmarks)?;
        Ok(out)
    }

    /// The heights of many points at once, on all cores with the GIL released: `points` is
    /// an N×2 array of `(x, z)` (terrain heights, as `height(x, z)`) or N×3 of `(x, z, y)`
    /// (as `height(x, z, y)`). Returns N float32 heights, NaN where `height` answers None.
    fn heights<'py>(
        &self,
        py: Python<'py>,
        points: PyArrayLike2<'py, f64, AllowTypeChange>,
    ) -> PyResult<Bound<'py, PyArray1<f32>>> {
        batch::heights(py, self.nav.world(), &points)
    }

    /// The shortest paths of many segments at once, on all cores with the GIL released:
    /// `segments` is an N×4 array of `(x1, z1, x2, z2)`, or N×5 of `(x1, z1, x2, z2, y)` with
    /// the walker's height at each start (as `path`'s `y`; NaN for none); `budget`, `exact`,
    /// `objects`, `clearance` and `radius` as for `path`. Element `i` of the answer is what
    /// `path` answers for row `i`.
    #[pyo3(signature = (segments, *, budget = None, exact = false, objects = false, clearance = None, radius = 0.0))]
    #[allow(clippy::too_many_arguments)]
    fn paths<'py>(
        &self,
        py: Python<'py>,
        segments: PyArrayLike2<'py, f64, AllowTypeChange>,
        budget: Option<usize>,
        exact: bool,
        objects: bool,
        clearance: Option<f64>,
        radius: f64,
    ) -> PyResult<PathBatch> {
        let options = path_options(exact, objects, clearance, radius)?;
        batch::paths(
            py,
            self.nav.world(),
            self.nav.paths(),
            &segments,
            budget,
            &options,
        )
    }

    fn __repr__(&self) -> String {
        format!(
            "World('{}', regions={}, objects={})",
            self.path.display(),
            self.nav.world().regions().len(),
            self.nav.world().object_instances().len()
        )
    }
}

/// The library's path options of `path`'s and `paths`' keywords.
fn path_options(
    exact: bool,
    objects: bool,
    clearance: Option<f64>,
    radius: f64,
) -> PyResult<PathOptions> {
    let options = match clearance {
        None if exact => Ok(PathOptions::exact()),
        None => Ok(PathOptions::new()),
        Some(c) if exact => PathOptions::exact().with_clearance(c),
        Some(c) => PathOptions::new().with_clearance(c),
    };
    options
        .and_then(|options| options.with_objects(objects))
        .and_then(|options| options.with_radius(radius))
        .map_err(|e| PyValueError::new_err(e.to_string()))
}

/// The library's path of a Python `Path`.
fn world_path(path: &Path) -> PyResult<silknav::WorldPath> {
    let waypoints = path
        .waypoints
        .iter()
        .map(|&(x, z)| match path.dungeon {
            None => silknav::Position::from_world(x, z),
            Some(id) => Some(silknav::Position::in_dungeon(id, x as f32, z as f32)),
        })
        .collect::<Option<Vec<_>>>()
        .ok_or_else(|| {
            pyo3::exceptions::PyValueError::new_err("a waypoint lies outside the terrain id space")
        })?;
    Ok(silknav::WorldPath {
        waypoints,
        length: path.length,
        exact_length: path.exact_length,
        exact: path.exact,
    })
}
