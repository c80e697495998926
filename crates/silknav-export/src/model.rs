//! The model: groups of vertices and triangles or lines, built from a world.

use jmxv::nvm::{
    NavMesh, EDGE_BLOCKED, HEIGHTS_PER_SIDE, PLANES_PER_SIDE, PLANE_ICE, PLANE_WATER,
    TILES_PER_SIDE,
};
use jmxv::RegionId;
use silknav::geometry::TILE;
use silknav::{Position, Surface, World};
use std::collections::BTreeMap;
use std::fmt;

/// How tall a wall is drawn, in world units: one tile.
pub const WALL_HEIGHT: f32 = 20.0;

const REGION: f64 = 1920.0;
const PLANE: f64 = 320.0;

/// What to export.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ExportOptions {
    /// Only this region (and the objects it owns); `None`: every loaded region.
    pub region: Option<RegionId>,
}

/// Why nothing was exported.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ExportError {
    /// The world has no region with a navmesh.
    NoRegions,
    /// The region asked for is not loaded.
    RegionNotInWorld(RegionId),
    /// The dungeon asked for (its region) is not loaded.
    DungeonNotInWorld(RegionId),
}

impl fmt::Display for ExportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExportError::NoRegions => f.write_str("the world has no region to export"),
            ExportError::RegionNotInWorld(r) => write!(f, "region {r} is not in the world"),
            ExportError::DungeonNotInWorld(r) => write!(f, "dungeon {r} is not loaded"),
        }
    }
}

impl std::error::Error for ExportError {}

/// What a group holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum GroupKind {
    /// The ground.
    Terrain,
    /// Water planes.
    Water,
    /// Ice planes.
    Ice,
    /// Walls.
    Walls,
    /// Cell outlines.
    Cells,
    /// An object instance's navmesh.
    Objects,
}

impl GroupKind {
    /// The word groups of this kind are named with, and their parent node in glTF.
    pub fn word(self) -> &'static str {
        match self {
            GroupKind::Terrain => "terrain",
            GroupKind::Water => "water",
            GroupKind::Ice => "ice",
            GroupKind::Walls => "walls",
            GroupKind::Cells => "cells",
            GroupKind::Objects => "object",
        }
    }
}

/// How a group's vertices are joined.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Primitive {
    /// Triangles: three indices each, counter-clockwise seen from the side they face.
    Triangles(Vec<u32>),
    /// Line segments: two indices each.
    Lines(Vec<u32>),
}

/// A named part of the model.
#[derive(Debug, Clone, PartialEq)]
pub struct Group {
    /// `terrain 4080`, `object 4080:3`.
    pub name: String,
    /// What it holds.
    pub kind: GroupKind,
    /// Vertices, in the model's frame.
    pub positions: Vec<[f32; 3]>,
    /// How they are joined.
    pub primitive: Primitive,
}

/// A world as groups of geometry.
#[derive(Debug, Clone, PartialEq)]
pub struct Model {
    /// World x and z of the model's origin: the south-west corner of the exported regions.
    pub origin: [f64; 2],
    /// The groups, terrain first, in region order.
    pub groups: Vec<Group>,
}

/// The model's frame: a game point relative to the origin, with north along -Z.
struct Frame {
    origin: [f64; 2],
}

impl Frame {
    /// A region-local game point in the model's frame. A coordinate that is not finite
    /// (damaged files hold such heights) becomes 0: model formats take finite numbers only.
    fn point(&self, region: RegionId, x: f64, y: f64, z: f64) -> [f32; 3] {
        let wx = f64::from(region.x()) * REGION + x - self.origin[0];
        let wz = f64::from(region.z()) * REGION + z - self.origin[1];
        [wx as f32, y as f32, -wz as f32].map(|v| if v.is_finite() { v } else { 0.0 })
    }
}

/// Builds the model of `navmeshes` (the world's files), with the objects `world` placed
/// (load it from the same files; regions it did not load are left out).
///
/// # Errors
/// [`ExportError::NoRegions`] when nothing is loaded, [`ExportError::RegionNotInWorld`] for
/// a region asked for that is not.
pub fn build(
    world: &World,
    navmeshes: &BTreeMap<RegionId, NavMesh>,
    options: &ExportOptions,
) -> Result<Model, ExportError> {
    let regions: Vec<(RegionId, &NavMesh)> = navmeshes
        .iter()
        .filter(|(r, _)| world.contains(**r))
        .filter(|(r, _)| options.region.map_or(true, |o| o == **r))
        .map(|(&r, m)| (r, m))
        .collect();
    if regions.is_empty() {
        return Err(match options.region {
            Some(r) => ExportError::RegionNotInWorld(r),
            None => ExportError::NoRegions,
        });
    }
    let x0 = regions.iter().map(|(r, _)| r.x()).min().unwrap_or(0);
    let z0 = regions.iter().map(|(r, _)| r.z()).min().unwrap_or(0);
    let frame = Frame {
        origin: [f64::from(x0) * REGION, f64::from(z0) * REGION],
    };
    let mut groups = Vec::new();
    for &(r, mesh) in &regions {
        groups.push(terrain(&frame, r, mesh));
    }
    for &(r, mesh) in &regions {
        groups.extend(planes(&frame, r, mesh, PLANE_WATER, GroupKind::Water));
        groups.extend(planes(&frame, r, mesh, PLANE_ICE, GroupKind::Ice));
    }
    for &(r, mesh) in &regions {
        groups.extend(walls(&frame, world, r, mesh));
    }
    for &(r, mesh) in &regions {
        groups.extend(cells(&frame, world, r, mesh));
    }
    groups.extend(objects(&frame, world, options.region));
    Ok(Model {
        origin: frame.origin,
        groups,
    })
}

/// The ground: a vertex per height sample, two triangles per tile split along the diagonal
/// `FindHeight` uses: (0,0)–(1,1) when the tile's x and z have the same parity, (1,0)–(0,1)
/// otherwise.
fn terrain(frame: &Frame, region: RegionId, mesh: &NavMesh) -> Group {
    let n = HEIGHTS_PER_SIDE;
    let mut positions = Vec::with_capacity(n * n);
    for vz in 0..n {
        for vx in 0..n {
            let h = f64::from(mesh.heights[vz * n + vx].get());
            positions.push(frame.point(region, vx as f64 * TILE, h, vz as f64 * TILE));
        }
    }
    let mut indices = Vec::with_capacity(TILES_PER_SIDE * TILES_PER_SIDE * 6);
    for tz in 0..TILES_PER_SIDE {
        for tx in 0..TILES_PER_SIDE {
            let v = |dx: usize, dz: usize| ((tz + dz) * n + tx + dx) as u32;
            let (v00, v10, v01, v11) = (v(0, 0), v(1, 0), v(0, 1), v(1, 1));
            let triangles = if tx % 2 == tz % 2 {
                [[v00, v01, v11], [v00, v11, v10]]
            } else {
                [[v00, v01, v10], [v10, v01, v11]]
            };
            for t in triangles {
                push_facing_up(&positions, &mut indices, t);
            }
        }
    }
    Group {
        name: format!("terrain {region}"),
        kind: GroupKind::Terrain,
        positions,
        primitive: Primitive::Triangles(indices),
    }
}

/// Appends a triangle wound counter-clockwise seen from above (+Y), so that its front faces
/// up whatever the frame's handedness.
fn push_facing_up(positions: &[[f32; 3]], indices: &mut Vec<u32>, [a, b, c]: [u32; 3]) {
    let p = |i: u32| positions[i as usize];
    let (pa, pb, pc) = (p(a), p(b), p(c));
    // The normal's y is (b - a) × (c - a) projected: z·x − x·z.
    let cross_y = (pb[2] - pa[2]) * (pc[0] - pa[0]) - (pb[0] - pa[0]) * (pc[2] - pa[2]);
    if cross_y >= 0.0 {
        indices.extend([a, b, c]);
    } else {
        indices.extend([a, c, b]);
    }
}

/// The planes of one type as flat quads at their heights; `None` when the region has none.
fn planes(
    frame: &Frame,
    region: RegionId,
    mesh: &NavMesh,
    kind_bit: u8,
    kind: GroupKind,
) -> Option<Group> {
    let mut positions = Vec::new();
    let mut indices = Vec::new();
    for pz in 0..PLANES_PER_SIDE {
        for px in 0..PLANES_PER_SIDE {
            let i = pz * PLANES_PER_SIDE + px;
            if mesh.planes.types[i] & kind_bit == 0 {
                continue;
            }
            let h = f64::from(mesh.planes.heights[i].get());
            let base = positions.len() as u32;
            let (x, z) = (px as f64 * PLANE, pz as f64 * PLANE);
            positions.push(frame.point(region, x, h, z));
            positions.push(frame.point(region, x + PLANE, h, z));
            positions.push(frame.point(region, x, h, z + PLANE));
            positions.push(frame.point(region, x + PLANE, h, z + PLANE));
            push_facing_up(&positions, &mut indices, [base, base + 1, base + 2]);
            push_facing_up(&positions, &mut indices, [base + 1, base + 3, base + 2]);
        }
    }
    (!positions.is_empty()).then(|| Group {
        name: format!("{} {region}", kind.word()),
        kind,
        positions,
        primitive: Primitive::Triangles(indices),
    })
}

/// The ground height at a region-local point (the world's own `height_at`), 0 where it has
/// none. A point on the region's east or north side is taken just inside it (the last f32
/// below 1920), so that walls and cells on the world's outer border stand on their own
/// region's ground rather than on a missing neighbour's.
fn ground(world: &World, region: RegionId, x: f64, z: f64) -> f64 {
    let last = f32::from_bits((REGION as f32).to_bits() - 1);
    let inside = |v: f64| (v as f32).clamp(0.0, last);
    world
        .height_at(
            Position::new(region, inside(x), inside(z)),
            Surface::Terrain,
        )
        .filter(|h| h.is_finite())
        .map_or(0.0, f64::from)
}

/// Blocked internal edges as vertical quads, both faces drawn (the glTF material is
/// double-sided).
fn walls(frame: &Frame, world: &World, region: RegionId, mesh: &NavMesh) -> Option<Group> {
    let mut positions = Vec::new();
    let mut indices = Vec::new();
    for e in mesh
        .internal_edges
        .iter()
        .filter(|e| e.flag & EDGE_BLOCKED != 0)
    {
        let (a, b) = ([e.a[0].get(), e.a[1].get()], [e.b[0].get(), e.b[1].get()]);
        if !a.iter().chain(&b).all(|v| v.is_finite()) {
            continue;
        }
        let (ax, az, bx, bz) = (
            f64::from(a[0]),
            f64::from(a[1]),
            f64::from(b[0]),
            f64::from(b[1]),
        );
        let (ha, hb) = (ground(world, region, ax, az), ground(world, region, bx, bz));
        let top = f64::from(WALL_HEIGHT);
        let base = positions.len() as u32;
        positions.push(frame.point(region, ax, ha, az));
        positions.push(frame.point(region, bx, hb, bz));
        positions.push(frame.point(region, ax, ha + top, az));
        positions.push(frame.point(region, bx, hb + top, bz));
        indices.extend([base, base + 1, base + 3, base, base + 3, base + 2]);
    }
    (!positions.is_empty()).then(|| Group {
        name: format!("walls {region}"),
        kind: GroupKind::Walls,
        positions,
        primitive: Primitive::Triangles(indices),
    })
}

/// The open cells' outlines as lines on the ground, a vertex at every tile side they cross.
fn cells(frame: &Frame, world: &World, region: RegionId, mesh: &NavMesh) -> Option<Group> {
    let mut positions = Vec::new();
    let mut indices = Vec::new();
    let open = (mesh.open_cell_count as usize).min(mesh.cells.len());
    for cell in &mesh.cells[..open] {
        let (lo, hi) = (cell.min, cell.max);
        let (x0, z0, x1, z1) = (
            f64::from(lo[0].get()),
            f64::from(lo[1].get()),
            f64::from(hi[0].get()),
            f64::from(hi[1].get()),
        );
        let sane = |v: f64| v.is_finite() && (0.0..=REGION).contains(&v);
        if ![x0, z0, x1, z1].into_iter().all(sane) || x1 <= x0 || z1 <= z0 {
            continue;
        }
        // Around the rectangle: south edge west to east, east edge, north edge, west edge.
        let mut outline: Vec<[f64; 2]> = Vec::new();
        let steps = |a: f64, b: f64| ((b - a) / TILE).ceil().max(1.0) as usize;
        let (nx, nz) = (steps(x0, x1), steps(z0, z1));
        let lerp = |a: f64, b: f64, i: usize, n: usize| a + (b - a) * i as f64 / n as f64;
        outline.extend((0..nx).map(|i| [lerp(x0, x1, i, nx), z0]));
        outline.extend((0..nz).map(|i| [x1, lerp(z0, z1, i, nz)]));
        outline.extend((0..nx).map(|i| [lerp(x1, x0, i, nx), z1]));
        outline.extend((0..nz).map(|i| [x0, lerp(z1, z0, i, nz)]));
        let base = positions.len() as u32;
        let count = outline.len() as u32;
        for [x, z] in outline {
            positions.push(frame.point(region, x, ground(world, region, x, z), z));
        }
        for i in 0..count {
            indices.extend([base + i, base + (i + 1) % count]);
        }
    }
    (!positions.is_empty()).then(|| Group {
        name: format!("cells {region}"),
        kind: GroupKind::Cells,
        positions,
        primitive: Primitive::Lines(indices),
    })
}

/// The placed object instances' navmeshes (those owned by `only`, when given).
fn objects(frame: &Frame, world: &World, only: Option<RegionId>) -> Vec<Group> {
    let mut out = Vec::new();
    for inst in world.object_instances() {
        let key = inst.key();
        if only.is_some_and(|r| r != key.owner()) {
            continue;
        }
        let region = inst.frame_region();
        let mut positions = Vec::new();
        let mut indices = Vec::new();
        for (_, triangle) in inst.triangles() {
            let base = positions.len() as u32;
            for v in triangle {
                let [x, y, z] = inst.place(v);
                positions.push(frame.point(region, x, y, z));
            }
            push_facing_up(&positions, &mut indices, [base, base + 1, base + 2]);
        }
        if positions.is_empty() {
            continue;
        }
        out.push(Group {
            name: format!("object {key} (id {})", inst.object_id()),
            kind: GroupKind::Objects,
            positions,
            primitive: Primitive::Triangles(indices),
        });
    }
    out
}

/// Builds the model of the dungeon of region `0x8000 | id` in `world`: one group per block
/// (`block B`), its triangles placed as the walks place them
/// ([`silknav::world::dungeon::Dungeon::block_triangles`]), in the dungeon's own frame (the
/// origin at the dungeon's 0, 0: a point (x, y, z) at `(x, y, -z)`).
///
/// # Errors
/// [`ExportError::DungeonNotInWorld`] when the world has no such dungeon loaded.
pub fn build_dungeon(world: &World, region: RegionId) -> Result<Model, ExportError> {
    let dungeon = world
        .dungeon(region)
        .ok_or(ExportError::DungeonNotInWorld(region))?;
    let mut groups: Vec<Group> = Vec::new();
    let mut current = None;
    for (block, _, triangle) in dungeon.block_triangles() {
        if current != Some(block) {
            current = Some(block);
            groups.push(Group {
                name: format!("block {block}"),
                kind: GroupKind::Objects,
                positions: Vec::new(),
                primitive: Primitive::Triangles(Vec::new()),
            });
        }
        let group = groups.last_mut().expect("pushed above");
        let base = group.positions.len() as u32;
        for [x, y, z] in triangle {
            group
                .positions
                .push([x as f32, y as f32, -z as f32].map(|v| if v.is_finite() { v } else { 0.0 }));
        }
        if let Primitive::Triangles(indices) = &mut group.primitive {
            push_facing_up(&group.positions, indices, [base, base + 1, base + 2]);
        }
    }
    Ok(Model {
        origin: [0.0, 0.0],
        groups,
    })
}

impl Model {
    /// The model as a glTF 2.0 binary (`.glb`): one node per kind (`terrain`, `water`, `ice`,
    /// `walls`, `cells`, `objects`) under a root, one child node and mesh per group, a
    /// material per kind; the origin in the root's `extras`.
    pub fn to_glb(&self) -> Vec<u8> {
        crate::glb::write(self)
    }

    /// The model as Wavefront OBJ text: one `o` object per group, triangles as `f`, cell
    /// outlines as `l`; the origin in a comment at the top.
    pub fn to_obj(&self) -> String {
        crate::obj::write(self)
    }
}
