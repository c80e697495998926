//! Detour (recastnavigation 1.x, through `recastnavigation-sys`) on the same rectangles, as
//! `shared/bench/ANCHORS.md` measured it: the rectangles cut into convex polygons of at most
//! six vertices ([`ConvexPolys`]), one tile, then `findNearestPoly` for both ends, `findPath`
//! and `findStraightPath`. Its path is the funnel through the corridor A* picks between
//! polygon edge midpoints, so it is only approximately shortest: the bench times it and reports
//! how much longer its answers are than the optimum.
//!
//! Coordinates are map-local world units in Detour's x and z (y is 0); vertices are stored as
//! 16-bit multiples of the 20-unit cell size, so a mesh spans at most 65,535 tiles a side and
//! 65,535 vertices (a larger one is refused, and its set runs without Detour).
//!
//! This module is the one place of the workspace that calls C++ through raw pointers; every
//! `unsafe` block says what it relies on.
#![allow(unsafe_code)]

use recastnavigation_sys::{
    dtAllocNavMesh, dtAllocNavMeshQuery, dtCreateNavMeshData, dtFree, dtFreeNavMesh,
    dtFreeNavMeshQuery, dtNavMesh, dtNavMeshCreateParams, dtNavMeshQuery,
    dtNavMeshQuery_findNearestPoly, dtNavMeshQuery_findPath, dtNavMeshQuery_findStraightPath,
    dtNavMeshQuery_init, dtNavMesh_init1, dtPolyRef, dtQueryFilter, dtQueryFilter_dtQueryFilter,
    dtTileFlags_DT_TILE_FREE_DATA, DT_FAILURE, DT_PARTIAL_RESULT, DT_VERTS_PER_POLYGON,
};
use silknav_bench::polys::{ConvexPolys, NO_NEIGHBOUR};
use silknav_bench::rects::RectMesh;
use std::mem::MaybeUninit;
use std::time::{Duration, Instant};

/// Units per stored vertex step: the tile size, which every rectangle corner is a multiple of.
const CELL_SIZE: f32 = 20.0;
/// Detour's "no neighbour" in a polygon's neighbour list.
const MESH_NULL: u16 = 0xffff;
/// Search nodes: Detour's maximum.
const MAX_NODES: i32 = 65_535;
/// Polygons a corridor and points a straight path may hold: more than any mesh here has.
const MAX_PATH: usize = 1 << 16;

/// A Detour mesh and query over one tile, with the buffers a query fills.
pub struct Detour {
    mesh: *mut dtNavMesh,
    query: *mut dtNavMeshQuery,
    filter: Box<dtQueryFilter>,
    corridor: Vec<dtPolyRef>,
    straight: Vec<f32>,
    polygons: usize,
    vertices: usize,
    build_time: Duration,
}

impl Detour {
    /// Detour's mesh of `rects` (map-local units), or why Detour does not run on it.
    pub fn new(rects: &RectMesh) -> Result<Detour, &'static str> {
        Self::build(rects).ok_or("too large for one Detour tile: Detour not run")
    }

    /// What the run prints of the mesh: its size and build time.
    pub fn describe(&self) -> String {
        format!(
            "Detour's mesh: {} convex polygons over {} vertices, built in {:.2} s",
            self.polygons,
            self.vertices,
            self.build_time.as_secs_f64()
        )
    }

    fn build(rects: &RectMesh) -> Option<Detour> {
        let started = Instant::now();
        let nvp = DT_VERTS_PER_POLYGON as usize;
        let polys = ConvexPolys::new(rects, nvp);
        if rects.vertices.len() >= usize::from(MESH_NULL) || polys.polygons.len() >= 1 << 16 {
            return None;
        }
        let step = |c: i64| u16::try_from(c / CELL_SIZE as i64).ok();
        let mut verts = Vec::with_capacity(rects.vertices.len() * 3);
        let mut max = [0f32; 2];
        for v in &rects.vertices {
            verts.extend([step(v[0])?, 0, step(v[1])?]);
            max = [max[0].max(v[0] as f32), max[1].max(v[1] as f32)];
        }
        // Detour's polygons run the other way round than ours (clockwise seen from +y with x
        // east and z north), so each is stored reversed, with its neighbours to match.
        let mut data = Vec::with_capacity(polys.polygons.len() * nvp * 2);
        for (polygon, across) in polys.polygons.iter().zip(&polys.neighbours) {
            let n = polygon.len();
            let mut record = [MESH_NULL; 2 * DT_VERTS_PER_POLYGON as usize];
            for k in 0..n {
                record[k] = polygon[n - 1 - k] as u16;
                // Reversed edge k runs from our vertex n−1−k to n−2−k: our edge n−2−k.
                let edge = (2 * n - 2 - k) % n;
                let other = across[edge];
                record[nvp + k] = if other == NO_NEIGHBOUR {
                    MESH_NULL
                } else {
                    other as u16
                };
            }
            data.extend(record);
        }
        let flags = vec![1u16; polys.polygons.len()];
        let areas = vec![0u8; polys.polygons.len()];
        // SAFETY: dtNavMeshCreateParams is a plain C struct of pointers and numbers, for which
        // all-zero is the documented "unset" state (null detail meshes and off-mesh
        // connections are allowed and built from the polygons).
        let mut params: dtNavMeshCreateParams = unsafe { MaybeUninit::zeroed().assume_init() };
        params.verts = verts.as_ptr();
        params.vertCount = rects.vertices.len() as i32;
        params.polys = data.as_ptr();
        params.polyFlags = flags.as_ptr();
        params.polyAreas = areas.as_ptr();
        params.polyCount = polys.polygons.len() as i32;
        params.nvp = nvp as i32;
        params.bmin = [0.0, -1.0, 0.0];
        params.bmax = [max[0], 1.0, max[1]];
        params.cs = CELL_SIZE;
        params.ch = 1.0;
        params.walkableHeight = 2.0;
        params.walkableRadius = 0.0;
        params.walkableClimb = 1.0;
        params.buildBvTree = true;
        let mut out: *mut u8 = std::ptr::null_mut();
        let mut size = 0;
        // SAFETY: every pointer in `params` points into a vector alive until this call returns,
        // with the lengths the counts give; Detour copies what it keeps into `out`.
        if !unsafe { dtCreateNavMeshData(&mut params, &mut out, &mut size) } {
            return None;
        }
        // SAFETY: allocation functions without preconditions; null is checked below.
        let (mesh, query) = unsafe { (dtAllocNavMesh(), dtAllocNavMeshQuery()) };
        assert!(
            !mesh.is_null() && !query.is_null(),
            "Detour allocation failed"
        );
        // SAFETY: `mesh` is a fresh navmesh; `out`/`size` are the tile Detour just built. On
        // success the mesh owns it (DT_TILE_FREE_DATA); on failure it stays ours.
        let status =
            unsafe { dtNavMesh_init1(mesh, out, size, dtTileFlags_DT_TILE_FREE_DATA as i32) };
        if status & DT_FAILURE != 0 {
            // SAFETY: the tile data was not taken; both objects are ours to free.
            unsafe {
                dtFree(out.cast());
                dtFreeNavMesh(mesh);
                dtFreeNavMeshQuery(query);
            }
            return None;
        }
        // SAFETY: `query` is fresh and `mesh` initialised; the query keeps a pointer to the
        // mesh, which lives as long as `self`.
        let status = unsafe { dtNavMeshQuery_init(query, mesh, MAX_NODES) };
        assert!(status & DT_FAILURE == 0, "Detour query init failed");
        let mut filter = Box::new(MaybeUninit::<dtQueryFilter>::uninit());
        // SAFETY: the constructor initialises the whole filter (include all flags, unit area
        // costs) in place.
        let filter = unsafe {
            dtQueryFilter_dtQueryFilter(filter.as_mut_ptr());
            Box::from_raw(Box::into_raw(filter).cast::<dtQueryFilter>())
        };
        Some(Detour {
            mesh,
            query,
            filter,
            corridor: vec![0; MAX_PATH],
            straight: vec![0.0; MAX_PATH * 3],
            polygons: polys.polygons.len(),
            vertices: rects.vertices.len(),
            build_time: started.elapsed(),
        })
    }

    /// The length of Detour's path between map-local points, `None` when it finds no complete
    /// path (an end off the mesh, or a corridor that stops short of the goal).
    #[inline]
    pub fn length(&mut self, from: [f64; 2], to: [f64; 2]) -> Option<f64> {
        let (start, end) = (point(from), point(to));
        let start_ref = self.nearest(&start)?;
        let end_ref = self.nearest(&end)?;
        let mut count = 0;
        // SAFETY: the query is initialised; the points are 3 floats; the corridor buffer holds
        // MAX_PATH references, the count Detour is given.
        let status = unsafe {
            dtNavMeshQuery_findPath(
                self.query,
                start_ref,
                end_ref,
                start.as_ptr(),
                end.as_ptr(),
                &*self.filter,
                self.corridor.as_mut_ptr(),
                &mut count,
                MAX_PATH as i32,
            )
        };
        if status & DT_FAILURE != 0 || status & DT_PARTIAL_RESULT != 0 || count == 0 {
            return None;
        }
        let mut points = 0;
        // SAFETY: the corridor holds `count` references Detour just wrote; the straight-path
        // buffer holds MAX_PATH points of 3 floats; flags and refs are optional (null).
        let status = unsafe {
            dtNavMeshQuery_findStraightPath(
                self.query,
                start.as_ptr(),
                end.as_ptr(),
                self.corridor.as_ptr(),
                count,
                self.straight.as_mut_ptr(),
                std::ptr::null_mut(),
                std::ptr::null_mut(),
                &mut points,
                MAX_PATH as i32,
                0,
            )
        };
        if status & DT_FAILURE != 0 || points == 0 {
            return None;
        }
        let p = &self.straight[..points as usize * 3];
        Some(
            p.chunks_exact(3)
                .zip(p.chunks_exact(3).skip(1))
                .map(|(a, b)| f64::from(b[0] - a[0]).hypot(f64::from(b[2] - a[2])))
                .sum(),
        )
    }

    /// The polygon under a point (Detour's nearest within a tenth of a unit).
    fn nearest(&self, p: &[f32; 3]) -> Option<dtPolyRef> {
        let extents = [0.1f32, 1.0, 0.1];
        let mut found: dtPolyRef = 0;
        let mut nearest = [0f32; 3];
        // SAFETY: the query is initialised; every pointer is to a local of the size Detour
        // reads or writes (3 floats, one reference).
        let status = unsafe {
            dtNavMeshQuery_findNearestPoly(
                self.query,
                p.as_ptr(),
                extents.as_ptr(),
                &*self.filter,
                &mut found,
                nearest.as_mut_ptr(),
            )
        };
        (status & DT_FAILURE == 0 && found != 0).then_some(found)
    }
}

impl Drop for Detour {
    fn drop(&mut self) {
        // SAFETY: both were allocated by Detour in `new` and are freed once, the query (which
        // points into the mesh) first.
        unsafe {
            dtFreeNavMeshQuery(self.query);
            dtFreeNavMesh(self.mesh);
        }
    }
}

/// A map-local point as Detour's (x, y, z).
#[inline]
fn point(p: [f64; 2]) -> [f32; 3] {
    [p[0] as f32, 0.0, p[1] as f32]
}
