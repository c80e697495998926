//! Polyanya on the world's own rectangles, built as `shared/bench/ANCHORS.md` prescribes:
//! vertices are rectangle corners, corners lying on another rectangle's side are inserted into
//! it (T-junctions), polygons are counter-clockwise, each vertex lists its polygons
//! counter-clockwise with `u32::MAX` for outside; then `Mesh::new`,
//! `reorder_neighbors_ccw_and_fix_corners`, `update_is_one_way` and `bake`.
//!
//! Coordinates are map-local world units (world units minus the origin region's corner), as
//! the anchors ask. The same meshes in tile units (÷20), where every cross product of vertex
//! differences is exact in f32, gave the same lengths on every query of every set, so
//! polyanya's f32 arithmetic does not decide the comparison.

use glam::Vec2;
use polyanya::{Mesh, Polygon, Vertex};
use silknav_bench::rects::RectMesh;
use std::time::{Duration, Instant};

/// A baked polyanya mesh and what building it took.
pub struct Competitor {
    pub mesh: Mesh,
    pub polygons: usize,
    pub vertices: usize,
    pub build_time: Duration,
}

impl Competitor {
    /// Polyanya's mesh of `rects` (whose coordinates are map-local units).
    pub fn new(rects: &RectMesh) -> Competitor {
        let started = Instant::now();
        let vertices: Vec<Vertex> = rects
            .vertices
            .iter()
            .zip(&rects.neighbours)
            .map(|(v, around)| Vertex::new(point([v[0] as f64, v[1] as f64]), around.clone()))
            .collect();
        let polygons: Vec<Polygon> = rects
            .polygons
            .iter()
            .map(|p| Polygon::new(p.clone(), false))
            .collect();
        let (n_vertices, n_polygons) = (vertices.len(), polygons.len());
        let mut mesh = Mesh::new(vertices, polygons).expect("a valid polyanya mesh");
        mesh.reorder_neighbors_ccw_and_fix_corners();
        mesh.update_is_one_way();
        mesh.bake();
        Competitor {
            mesh,
            polygons: n_polygons,
            vertices: n_vertices,
            build_time: started.elapsed(),
        }
    }

    /// The shortest path's length in map-local units between map-local points, `None` when
    /// polyanya finds none.
    #[inline]
    pub fn length(&self, from: [f64; 2], to: [f64; 2]) -> Option<f64> {
        self.mesh
            .path(point(from), point(to))
            .map(|path| f64::from(path.length))
    }
}

/// A map-local point as polyanya's f32 point: exact for the lattice points and the
/// 1.25-unit points the bench queries (the maps span at most 61,440 units).
#[inline]
fn point(p: [f64; 2]) -> Vec2 {
    Vec2::new(p[0] as f32, p[1] as f32)
}
