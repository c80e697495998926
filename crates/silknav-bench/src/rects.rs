//! The walkable rectangles of a world as one polygon mesh: the input a polygon-mesh path finder
//! (polyanya, in the paths bench) needs to search exactly the ground the world has.
//!
//! - [`open_rects`]: every open cell of every region, in integer map-local units (world units
//!   minus the origin region's corner), each with the cell it came from.
//! - [`RectMesh::new`]: those rectangles as polygons whose vertices are rectangle corners, with
//!   every corner that lies on another rectangle's side inserted into that side (a
//!   T-junction), so that neighbouring polygons share their vertices exactly; polygons are
//!   counter-clockwise with x east and z north, and each vertex lists the polygons around it
//!   counter-clockwise, [`OUTSIDE`] where no polygon is.
//! - [`grid_rects`]: the rectangles `shared/bench/ANCHORS.md` measured polyanya on, for
//!   reference: greedy runs over a whole grid map, with no region borders or size limit.
//! - [`RectMesh::components`]: which rectangles are connected through shared sides (a path
//!   never squeezes through a point where two rectangles only touch diagonally).
//!
//! Integer coordinates keep every test exact: cell sides are multiples of 20 units, so the
//! map-local values are small integers that f32 holds exactly too.

use silknav::geometry::REGION_SIZE;
use silknav::jmxv::nvm::{NavMesh, TILES_PER_SIDE};
use silknav::jmxv::RegionId;
use silknav::movingai::GridMap;
use silknav::CellRef;
use std::collections::{BTreeMap, HashMap};

/// The marker of "no polygon" in a vertex's neighbour list (polyanya's convention).
pub const OUTSIDE: u32 = u32::MAX;

/// An axis-aligned rectangle `[min, max]` in map-local units.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Rect {
    /// South-west corner (x, z).
    pub min: [i64; 2],
    /// North-east corner (x, z).
    pub max: [i64; 2],
}

impl Rect {
    /// Area in square units.
    pub fn area(self) -> i64 {
        (self.max[0] - self.min[0]) * (self.max[1] - self.min[1])
    }
}

/// The open cells of every region as rectangles in map-local units (world units minus the
/// corner of region `origin`), with the cell each came from, regions in id order and cells in
/// file order.
///
/// # Panics
/// When a region's files do not describe its walkable ground as whole open cells: a cell
/// corner off the 20-unit lattice, or open cells whose area differs from the walkable tiles
/// (the world would then walk ground the rectangles do not cover, and a comparison on them
/// would be meaningless). Files from the builder (generated worlds, Moving AI imports) always
/// pass.
pub fn open_rects(meshes: &BTreeMap<RegionId, NavMesh>, origin: RegionId) -> Vec<(Rect, CellRef)> {
    let size = REGION_SIZE as i64;
    let mut out = Vec::new();
    for (&region, mesh) in meshes {
        let base = [
            (i64::from(region.x()) - i64::from(origin.x())) * size,
            (i64::from(region.z()) - i64::from(origin.z())) * size,
        ];
        let open = mesh.open_cell_count as usize;
        let mut area = 0;
        for (i, cell) in mesh.cells.iter().take(open).enumerate() {
            let exact = |v: f32| {
                assert!(
                    v.fract() == 0.0 && (v as i64) % 20 == 0,
                    "{region:?} cell {i}: side {v} is off the tile lattice"
                );
                v as i64
            };
            let rect = Rect {
                min: [
                    base[0] + exact(cell.min[0].get()),
                    base[1] + exact(cell.min[1].get()),
                ],
                max: [
                    base[0] + exact(cell.max[0].get()),
                    base[1] + exact(cell.max[1].get()),
                ],
            };
            area += rect.area();
            out.push((
                rect,
                CellRef {
                    region,
                    cell: i as u16,
                    object: None,
                },
            ));
        }
        let walkable = mesh
            .tiles
            .iter()
            .filter(|t| !t.is_blocked() && u32::from(t.cell()) < mesh.open_cell_count)
            .count() as i64;
        assert_eq!(
            area,
            walkable * 400,
            "{region:?}: open cells cover {area} square units, walkable tiles {walkable} (of {})",
            TILES_PER_SIDE * TILES_PER_SIDE
        );
    }
    out
}

/// A grid map's open cells as greedy maximal rectangles over the whole map, in map-local units
/// (20 per cell): scanning row-major, each rectangle takes the longest run along x from the
/// first uncovered open cell, then as many whole rows along +y as match. Unlike the world's
/// cells they cross region borders and have no size limit, so a map has fewer of them.
pub fn grid_rects(grid: &GridMap) -> Vec<Rect> {
    let (w, h) = (grid.width, grid.height);
    let mut used = vec![false; w * h];
    let free = |used: &[bool], x: usize, y: usize| grid.is_open(x, y) && !used[y * w + x];
    let mut rects = Vec::new();
    for y in 0..h {
        for x in 0..w {
            if !free(&used, x, y) {
                continue;
            }
            let mut x1 = x + 1;
            while x1 < w && free(&used, x1, y) {
                x1 += 1;
            }
            let mut y1 = y + 1;
            while y1 < h && (x..x1).all(|xx| free(&used, xx, y1)) {
                y1 += 1;
            }
            for row in y..y1 {
                used[row * w + x..row * w + x1].fill(true);
            }
            let cell = |v: usize| v as i64 * 20;
            rects.push(Rect {
                min: [cell(x), cell(y)],
                max: [cell(x1), cell(y1)],
            });
        }
    }
    rects
}

/// Rectangles as a polygon mesh with T-junctions (see the module docs).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RectMesh {
    /// Vertex coordinates (x, z).
    pub vertices: Vec<[i64; 2]>,
    /// Per rectangle, in input order, its vertices counter-clockwise from the south-west
    /// corner: the corners and every vertex lying on a side.
    pub polygons: Vec<Vec<u32>>,
    /// Per vertex, the polygons around it counter-clockwise, starting from the south-east,
    /// each run of the same polygon once (also across the wrap) and [`OUTSIDE`] for a gap;
    /// a vertex inside the walkable ground lists no [`OUTSIDE`].
    pub neighbours: Vec<Vec<u32>>,
    /// Per vertex, the polygon in each quadrant: south-east, north-east, north-west,
    /// south-west (the order of `neighbours`).
    quadrants: Vec<[u32; 4]>,
}

impl RectMesh {
    /// The mesh of `rects`.
    ///
    /// # Panics
    /// When a rectangle is empty, or two overlap around a vertex of either (the inputs are
    /// a tiling; this catches a broken one, not every overlap).
    pub fn new(rects: &[Rect]) -> RectMesh {
        let mut index: HashMap<[i64; 2], u32> = HashMap::with_capacity(rects.len() * 2);
        let mut vertices = Vec::with_capacity(rects.len() * 2);
        for r in rects {
            assert!(
                r.min[0] < r.max[0] && r.min[1] < r.max[1],
                "empty rectangle {r:?}"
            );
            for corner in corners(*r) {
                index.entry(corner).or_insert_with(|| {
                    vertices.push(corner);
                    vertices.len() as u32 - 1
                });
            }
        }
        // Vertices by line, sorted along it, to find those strictly inside a side.
        let mut by_x: HashMap<i64, Vec<(i64, u32)>> = HashMap::new();
        let mut by_z: HashMap<i64, Vec<(i64, u32)>> = HashMap::new();
        for (i, v) in vertices.iter().enumerate() {
            by_x.entry(v[0]).or_default().push((v[1], i as u32));
            by_z.entry(v[1]).or_default().push((v[0], i as u32));
        }
        for line in by_x.values_mut().chain(by_z.values_mut()) {
            line.sort_unstable();
        }
        let inside = |lines: &HashMap<i64, Vec<(i64, u32)>>, at: i64, lo: i64, hi: i64| {
            let line = lines.get(&at).map_or(&[][..], Vec::as_slice);
            let start = line.partition_point(|&(c, _)| c <= lo);
            let end = line.partition_point(|&(c, _)| c < hi);
            line[start..end]
                .iter()
                .map(|&(_, v)| v)
                .collect::<Vec<u32>>()
        };
        let mut polygons = Vec::with_capacity(rects.len());
        for r in rects {
            let [sw, se, ne, nw] = corners(*r).map(|c| index[&c]);
            let mut polygon = vec![sw];
            polygon.extend(inside(&by_z, r.min[1], r.min[0], r.max[0]));
            polygon.push(se);
            polygon.extend(inside(&by_x, r.max[0], r.min[1], r.max[1]));
            polygon.push(ne);
            polygon.extend(
                inside(&by_z, r.max[1], r.min[0], r.max[0])
                    .into_iter()
                    .rev(),
            );
            polygon.push(nw);
            polygon.extend(
                inside(&by_x, r.min[0], r.min[1], r.max[1])
                    .into_iter()
                    .rev(),
            );
            polygons.push(polygon);
        }
        let mut quadrants = vec![[OUTSIDE; 4]; vertices.len()];
        for (p, (r, polygon)) in rects.iter().zip(&polygons).enumerate() {
            for &v in polygon {
                let [x, z] = vertices[v as usize];
                let (west, east) = (r.min[0] < x, x < r.max[0]);
                let (south, north) = (r.min[1] < z, z < r.max[1]);
                for (q, covered) in [east && south, east && north, west && north, west && south]
                    .into_iter()
                    .enumerate()
                {
                    if covered {
                        let slot = &mut quadrants[v as usize][q];
                        assert_eq!(
                            *slot, OUTSIDE,
                            "rectangles {} and {p} overlap at {:?}",
                            *slot, vertices[v as usize]
                        );
                        *slot = p as u32;
                    }
                }
            }
        }
        let neighbours = quadrants.iter().map(|q| ring(*q)).collect();
        RectMesh {
            vertices,
            polygons,
            neighbours,
            quadrants,
        }
    }

    /// A component id per polygon: polygons share one when a chain of shared sides (of
    /// positive length) joins them; the id is the smallest polygon index of the component.
    pub fn components(&self) -> Vec<u32> {
        let mut parent: Vec<u32> = (0..self.polygons.len() as u32).collect();
        fn find(parent: &mut [u32], mut p: u32) -> u32 {
            while parent[p as usize] != p {
                parent[p as usize] = parent[parent[p as usize] as usize];
                p = parent[p as usize];
            }
            p
        }
        for q in &self.quadrants {
            // Quadrants next to each other around a vertex share the ray between them, so
            // their polygons share a side along it.
            for i in 0..4 {
                let (a, b) = (q[i], q[(i + 1) % 4]);
                if a != OUTSIDE && b != OUTSIDE {
                    let (ra, rb) = (find(&mut parent, a), find(&mut parent, b));
                    let (lo, hi) = (ra.min(rb), ra.max(rb));
                    parent[hi as usize] = lo;
                }
            }
        }
        (0..parent.len() as u32)
            .map(|p| find(&mut parent, p))
            .collect()
    }
}

/// South-west, south-east, north-east, north-west: counter-clockwise.
fn corners(r: Rect) -> [[i64; 2]; 4] {
    [r.min, [r.max[0], r.min[1]], r.max, [r.min[0], r.max[1]]]
}

/// The quadrants' polygons as a counter-clockwise ring, runs collapsed.
fn ring(q: [u32; 4]) -> Vec<u32> {
    let mut out: Vec<u32> = Vec::with_capacity(4);
    for p in q {
        if out.last() != Some(&p) {
            out.push(p);
        }
    }
    while out.len() > 1 && out.first() == out.last() {
        out.pop();
    }
    out
}

/// The rectangle from `(x0, z0)` to `(x1, z1)`, for the tests of the meshes built from
/// rectangles.
#[cfg(test)]
pub(crate) fn rect(x0: i64, z0: i64, x1: i64, z1: i64) -> Rect {
    Rect {
        min: [x0, z0],
        max: [x1, z1],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn t_junctions_are_inserted_and_rings_run_counter_clockwise() {
        // One wide rectangle on top of two narrow ones: the narrow ones' shared corner (1, 1)
        // lies on the wide one's bottom side.
        let mesh = RectMesh::new(&[rect(0, 1, 2, 2), rect(0, 0, 1, 1), rect(1, 0, 2, 1)]);
        let at = |x, z| mesh.vertices.iter().position(|&v| v == [x, z]).unwrap() as u32;
        assert_eq!(
            mesh.polygons[0],
            [at(0, 1), at(1, 1), at(2, 1), at(2, 2), at(0, 2)]
        );
        assert_eq!(mesh.polygons[1], [at(0, 0), at(1, 0), at(1, 1), at(0, 1)]);
        // South-east is polygon 2, north (both quadrants) polygon 0, south-west polygon 1.
        assert_eq!(mesh.neighbours[at(1, 1) as usize], [2, 0, 1]);
        assert_eq!(mesh.neighbours[at(0, 0) as usize], [OUTSIDE, 1]);
        assert_eq!(mesh.neighbours[at(0, 1) as usize], [1, 0, OUTSIDE]);
        assert_eq!(mesh.components(), [0, 0, 0]);
    }

    #[test]
    fn diagonal_touch_is_not_a_connection() {
        let mesh = RectMesh::new(&[rect(0, 0, 1, 1), rect(1, 1, 2, 2), rect(5, 0, 6, 1)]);
        let v = mesh.vertices.iter().position(|&v| v == [1, 1]).unwrap();
        assert_eq!(mesh.neighbours[v], [OUTSIDE, 1, OUTSIDE, 0]);
        assert_eq!(mesh.components(), [0, 1, 2]);
    }

    #[test]
    #[should_panic(expected = "overlap")]
    fn overlaps_are_refused() {
        RectMesh::new(&[rect(0, 0, 2, 2), rect(1, 0, 3, 2)]);
    }

    #[test]
    fn imported_grid_cells_tile_the_open_ground() {
        let text = "type octile\nheight 3\nwidth 4\nmap\n.@..\n....\n..@.\n";
        let grid = GridMap::parse(text).unwrap();
        let greedy = grid_rects(&grid);
        assert_eq!(
            greedy,
            [
                rect(0, 0, 20, 60),
                rect(40, 0, 80, 40),
                rect(20, 20, 40, 60),
                rect(60, 40, 80, 60)
            ]
        );
        let meshes = grid.to_world((10, 20)).unwrap();
        let rects = open_rects(&meshes, RegionId::new(10, 20));
        let area: i64 = rects.iter().map(|(r, _)| r.area()).sum();
        assert_eq!(area, 10 * 400);
        let mesh = RectMesh::new(&rects.iter().map(|(r, _)| *r).collect::<Vec<_>>());
        assert!(mesh.components().iter().all(|&c| c == 0));
    }
}
