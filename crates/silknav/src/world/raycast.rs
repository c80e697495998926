//! Line of sight: the first wall a segment crosses, exactly.
//!
//! [`World::raycast`] answers whether a segment from a point of the walkable ground is clear,
//! and if not, the first point where it is blocked and what blocks it ([`RayHit`]).
//!
//! # Rule
//! The walkable ground is the union of the closed open tiles of the loaded regions. A segment
//! is **blocked** at the first point where
//! 1. it leaves the walkable ground (into a blocked tile or a missing region, or along the
//!    seam between two blocked tiles);
//! 2. it properly crosses a wall: a terrain edge with `flag & 3 != 0` or the siege bit 0x80;
//! 3. it passes through a grid vertex with walls on both its sides, squeezing between two
//!    blocked tiles that meet only at a corner. A wall here is a wall edge or a tile side
//!    between walkable and non-walkable ground, so the world's border is one.
//!
//! Touching a wall (ending on it) or running along it is not crossing it. In the game data the
//! walls are exactly the sides between walkable and blocked ground, so rules 1 and 2 agree.
//!
//! ## Objects
//! With objects loaded, line of sight is the server's movement walk with its object checks on
//! (as `IsLineOfSight` runs it), decided on the segment itself instead of after the 0.2-unit
//! nudges ([`crate::world::movement`]). The segment starts on the [`super::Surface`] asked
//! and is on one surface at a time:
//! - **On the terrain** the rules above apply. Entering each terrain cell, the objects it lists
//!   (each by its record in that cell's region) are probed along the rest of the segment. The
//!   outline edge met first is taken wherever it lies, even beyond a terrain wall; bridge
//!   sides (0x10) are passed under. An edge met at the segment's start counts; one met exactly
//!   where a cell begins belongs to the cell before. Flag 0x01 refuses entry (blocked); else the
//!   walker is on the edge's cell, or, when the segment heads away from it, straight back over
//!   the same edge by the leaving rules. Outline edges are met in either direction.
//! - **On an object triangle** only the mesh counts: the segment leaves through the first of
//!   the triangle's first three edges whose far side it ends on; a side without one is never
//!   crossed. An internal edge (0x04) leads on unless 0x02 blocks A → B, 0x01 blocks B → A, or
//!   no cell is beyond. Any other edge leaves the object: refused with 0x12; over a link edge
//!   (0x08) onto the object the link row names, in the linked edge's cell (blocked with no
//!   row); else onto the terrain, which must be walkable there. The next probe skips the edge
//!   just stepped off over.
//! - **Siege edges** (0x80) block sight only between two points on the terrain, on meshes
//!   without the siege option (nav flag 8), as `IsLineOfSight` answers.
//! - **Legs**: each entry and exit starts a leg; a segment needing more than seven is blocked
//!   where the eighth would start.
//!
//! A hit on an object edge names it in [`RayHit::object_edge`] ([`RayHit::edge`] is `None`).
//! [`crate::LoadOptions::terrain_only`] worlds give the terrain answers exactly.
//!
//! # Method
//! The segment is walked tile by tile across regions. Every decision is an exact orientation
//! test ([`crate::geometry`]) on coordinates relative to the start region's corner, where f32
//! positions and the 20-unit grid are exact in f64: rays through tile corners and along tile
//! sides are decided exactly, never by a tolerance. Object decisions are exact for the segment
//! turned into the object's frame in double; back on the terrain, the walk goes on from the
//! crossing point computed in double.
//!
//! # Cost
//! O(tiles crossed + objects probed + triangles crossed). Benches: `raycast_*` of
//! `crates/silknav-bench/benches/queries.rs`. More in `docs/design/movement.md`.
//!
//! # Limits
//! - A point within about 1e-12 units of an object's side may fall either way.
//! - The server answers "visible" for a siege crossing from or to an object even when the walk
//!   is blocked later in the leg; silknav reports the later block.
//! - The server's early end where the goal is within 5 units decides nothing about sight and
//!   is not reproduced.

use super::position::Position;
use super::region::{EdgeId, Region};
use super::{Surface, World};
use crate::geometry::orient;
use crate::geometry::REGION_SIZE;
use crate::geometry::TILE;
use crate::objects::mesh::{flag as mesh_flag, EdgeKey, ServerMesh};
use crate::objects::walk::{cell_side, first_outline_crossing, triangle_exit, Frame};
use crate::objects::{walk::ObjectEdgeRef, ObjectCellRef};
use jmxv::nvm::{EDGE_BLOCKED, EDGE_SIEGE, HEIGHTS_PER_SIDE, TILES_PER_SIDE};
use jmxv::RegionId;
use std::fmt;

const N: i64 = TILES_PER_SIDE as i64;

/// Where a segment is blocked.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RayHit {
    /// The point where the segment meets the wall.
    pub point: Position,
    /// How far along the segment, from 0 (start) to 1 (end).
    pub t: f64,
    /// The wall edge and the region whose file holds it; `None` when the segment leaves the
    /// walkable ground where no wall edge is stored (a missing neighbour region, or a file
    /// that lacks the wall).
    pub edge: Option<(RegionId, EdgeId)>,
    /// The object edge that blocked the segment, when it was one (then [`RayHit::edge`] is
    /// `None`).
    pub object_edge: Option<ObjectEdgeRef>,
    /// In a dungeon, the collision circle that blocked the segment, by its index in
    /// [`crate::world::dungeon::Dungeon::collision_circles`] (then both edges are `None`).
    pub circle: Option<usize>,
    /// Unit normal of the wall, facing the segment's start. At a squeeze between two corners
    /// it points back along the segment.
    pub normal: [f32; 2],
}

/// A segment that cannot be cast.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum RayError {
    /// The start is not on walkable ground of a loaded region (or is not finite).
    StartNotWalkable,
    /// The end is not a finite position of the terrain id space.
    BadEnd,
}

impl RayError {
    /// One word for command lines: `start-blocked`, `bad-end`.
    pub const fn word(self) -> &'static str {
        match self {
            RayError::StartNotWalkable => "start-blocked",
            RayError::BadEnd => "bad-end",
        }
    }
}

impl fmt::Display for RayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            RayError::StartNotWalkable => "the start is not on walkable ground",
            RayError::BadEnd => "the end is not a finite position",
        })
    }
}

impl std::error::Error for RayError {}

impl World {
    /// The first point where the segment `from → to` is blocked, or `None` when it is clear,
    /// starting on `surface` at `from` (with [`Surface::Terrain`], on the terrain under any
    /// object). See the [module docs](crate::world::raycast) for the exact rules.
    ///
    /// # Errors
    /// [`RayError::StartNotWalkable`] when `from` is on neither an object nor walkable ground.
    pub fn raycast(
        &self,
        from: Position,
        to: Position,
        surface: Surface,
    ) -> Result<Option<RayHit>, RayError> {
        let start = match surface {
            Surface::Terrain if !from.region.is_dungeon() => None,
            Surface::Object(c) => Some(c),
            _ => self.cell_at(from, surface).and_then(|c| c.object),
        };
        self.raycast_on(from, start, to)
    }

    /// [`World::raycast`] starting on a given surface: the object triangle `start` (which
    /// should contain `from`), or the terrain with `None`.
    ///
    /// # Errors
    /// As for [`World::raycast`]; [`RayError::StartNotWalkable`] too when `start` names no
    /// loaded instance's triangle.
    pub(crate) fn raycast_on(
        &self,
        from: Position,
        start: Option<ObjectCellRef>,
        to: Position,
    ) -> Result<Option<RayHit>, RayError> {
        if from.region.is_dungeon() {
            let dungeon = self
                .dungeon(from.region)
                .ok_or(RayError::StartNotWalkable)?;
            return dungeon.raycast(from, None, start, to);
        }
        if start.is_none() && self.objects.is_empty() {
            let (grid, ray) = self.segment(from, to)?;
            return Ok(walk(&grid, &ray).map(|event| grid.hit(&ray, event)));
        }
        Ok(self.surface_walk(from, start, to, true)?.err())
    }

    /// Whether the segment `from → to` is clear starting on the surface `start` (as for
    /// [`World::raycast_on`]), and if so the surface it ends on: the object triangle, or the
    /// terrain (`None`).
    pub(crate) fn sight_arrival(
        &self,
        from: Position,
        start: Option<ObjectCellRef>,
        to: Position,
    ) -> Result<Option<Option<ObjectCellRef>>, RayError> {
        if start.is_none() && self.objects.is_empty() {
            let (grid, ray) = self.segment(from, to)?;
            return Ok(walk(&grid, &ray).is_none().then_some(None));
        }
        Ok(self.surface_walk(from, start, to, true)?.ok())
    }

    /// The object triangles the line of sight from `from` on `start` to `to` walks over, in
    /// order, given to `visit` (collision circles aside): [`World::sight_arrival`]'s walk.
    pub(crate) fn sight_cells(
        &self,
        from: Position,
        start: Option<ObjectCellRef>,
        to: Position,
        visit: &mut impl FnMut(ObjectCellRef),
    ) -> Result<Result<Option<ObjectCellRef>, RayHit>, RayError> {
        self.objects_walk(from, start, to, true, visit)
    }

    /// Whether `pos` lies on `surface`: on the walkable terrain's closure (`None`: a corner
    /// of open ground too), or inside the object triangle named (as the instance's record in
    /// `pos`'s region places it).
    pub(crate) fn stands_on(&self, pos: Position, surface: Option<ObjectCellRef>) -> bool {
        let Some(c) = surface else {
            return self.segment(pos, pos).is_ok();
        };
        let Some(pos) = pos.normalized() else {
            return false;
        };
        let Some(slot) = self.region_slot(pos.region) else {
            return false;
        };
        self.placed_instance(slot, c)
            .is_some_and(|(_, p)| self.placement_holds(p, pos, c))
    }

    /// The entry of region slot `slot`'s object list that places `c`'s instance, and its
    /// placement.
    pub(crate) fn placed_instance(
        &self,
        slot: usize,
        c: ObjectCellRef,
    ) -> Option<(u16, &crate::objects::Placement)> {
        let list = self.objects.region_list(slot);
        let (index, p) = list
            .iter()
            .enumerate()
            .find_map(|(k, p)| p.as_ref().filter(|p| p.key == c.instance).map(|p| (k, p)))?;
        Some((u16::try_from(index).ok()?, p))
    }

    /// Whether triangle `c.cell` of placement `p` holds the normalised point `pos`, by the
    /// server's float test.
    pub(crate) fn placement_holds(
        &self,
        p: &crate::objects::Placement,
        pos: Position,
        c: ObjectCellRef,
    ) -> bool {
        let mesh = self.objects.server_mesh(p);
        let local = crate::geometry::server_arith::transform(&p.to_local, [pos.x, 0.0, pos.z]);
        let mut inside = false;
        mesh.for_each_inside(local[0], local[2], |tri, _| {
            inside |= tri == u32::from(c.cell);
        });
        inside
    }

    /// Whether the segment `from → to` is clear from `surface` ([`World::raycast`] finds
    /// nothing).
    ///
    /// # Errors
    /// As for [`World::raycast`].
    pub fn line_of_sight(
        &self,
        from: Position,
        to: Position,
        surface: Surface,
    ) -> Result<bool, RayError> {
        if self.objects.is_empty() && !from.region.is_dungeon() {
            // The walk alone: where and by which edge it is blocked is not asked for.
            return self.terrain_line_of_sight(from, to);
        }
        Ok(self.raycast(from, to, surface)?.is_none())
    }

    /// [`World::line_of_sight`] over the terrain alone, objects ignored (the ground paths use).
    pub(crate) fn terrain_line_of_sight(
        &self,
        from: Position,
        to: Position,
    ) -> Result<bool, RayError> {
        let (grid, ray) = self.segment(from, to)?;
        Ok(walk(&grid, &ray).is_none())
    }

    /// The walk over terrain and object cells by the server's rules, exactly (see the module
    /// docs): the terrain pieces by the tile walk, probing the objects each cell lists as the
    /// walk enters it; the object pieces triangle by triangle.
    ///
    /// Then, on a dungeon's ground, the collision circles ([`super::circles`]): the first one
    /// the segment enters before the walk's end or hit blocks it there.
    fn surface_walk(
        &self,
        from: Position,
        start: Option<ObjectCellRef>,
        to: Position,
        sight: bool,
    ) -> Result<Result<Option<ObjectCellRef>, RayHit>, RayError> {
        let walked = self.objects_walk(from, start, to, sight, &mut |_| {})?;
        if self.circles.is_empty() {
            return Ok(walked);
        }
        let t_end = walked.as_ref().map_or_else(|h| h.t, |_| 1.0);
        let Some((t, index)) = super::circles::first(&self.circles, from, to, t_end) else {
            return Ok(walked);
        };
        let point = super::circles::along(from, to, t).ok_or(RayError::BadEnd)?;
        let c = &self.circles[index];
        let (nx, nz) = (point.world_x() - c.centre[0], point.world_z() - c.centre[1]);
        let length = nx.hypot(nz);
        let normal = if length > 0.0 {
            [(nx / length) as f32, (nz / length) as f32]
        } else {
            let (dx, dz) = (from.world_x() - to.world_x(), from.world_z() - to.world_z());
            back(-dx, -dz, dx.hypot(dz))
        };
        Ok(Err(RayHit {
            point,
            t,
            edge: None,
            object_edge: None,
            circle: Some(index),
            normal,
        }))
    }

    /// [`World::surface_walk`] without the collision circles.
    fn objects_walk(
        &self,
        from: Position,
        start: Option<ObjectCellRef>,
        to: Position,
        sight: bool,
        visit: &mut impl FnMut(ObjectCellRef),
    ) -> Result<Result<Option<ObjectCellRef>, RayHit>, RayError> {
        let from = from.normalized().ok_or(RayError::StartNotWalkable)?;
        if !to.x.is_finite() || !to.z.is_finite() {
            return Err(RayError::BadEnd);
        }
        let origin = from.region;
        let grid = Grid {
            world: self,
            origin,
        };
        let (ex, ez) = to.in_frame_of(origin);
        let size = f64::from(REGION_SIZE);
        let corner = [f64::from(origin.x()) * size, f64::from(origin.z()) * size];
        let whole = Ray {
            x0: f64::from(from.x),
            z0: f64::from(from.z),
            x1: f64::from(ex),
            z1: f64::from(ez),
        };
        // World units of the point at `t` along the segment.
        let at = |t: f64| {
            [
                corner[0] + whole.x0 + t * whole.dx(),
                corner[1] + whole.z0 + t * whole.dz(),
            ]
        };
        let end = at(1.0);
        let mut surface = match start {
            None => WalkSurface::Terrain,
            Some(c) => {
                let slot = self.region_slot(origin).ok_or(RayError::StartNotWalkable)?;
                let index = self
                    .objects
                    .region_list(slot)
                    .iter()
                    .position(|p| p.as_ref().is_some_and(|p| p.key == c.instance))
                    .ok_or(RayError::StartNotWalkable)?;
                WalkSurface::Object {
                    slot,
                    index: index as u16,
                    tri: u32::from(c.cell),
                    previous: None,
                }
            }
        };
        // Siege edges block sight between two points on the terrain (see the module docs).
        let ends_on_terrain = start.is_none() && self.highest_cell_at(to).is_none_or_terrain();
        let mut t = 0.0;
        let mut inclusive = true;
        let mut legs = 1;
        // The object edge the walk just stepped off over: a straight segment crosses it once,
        // so the next probe does not meet it again (the server pushes the walker off it).
        let mut left_over: Option<(usize, u16, u32)> = None;
        let blocked_at = |t: f64, edge: Option<ObjectEdgeRef>, direction: [f64; 2]| {
            Ok(Err(object_hit(&whole, origin, t, edge, direction)))
        };
        for _ in 0..MAX_SURFACE_STEPS {
            let step = match surface {
                WalkSurface::Terrain => {
                    let p = at(t);
                    let (px, pz) = (p[0] - corner[0], p[1] - corner[1]);
                    if !grid.in_walkable_closure(px, pz) {
                        if t == 0.0 {
                            return Err(RayError::StartNotWalkable);
                        }
                        return blocked_at(t, None, [0.0, 0.0]);
                    }
                    let piece = Ray {
                        x0: px,
                        z0: pz,
                        x1: whole.x1,
                        z1: whole.z1,
                    };
                    let mut last_cell = None;
                    let mut entry: Option<Entry> = None;
                    let walked = walk_visiting(&grid, &piece, &mut |tx, tz, u| {
                        let Some((slot, region, lx, lz)) = grid.locate_slot(tx, tz) else {
                            return false;
                        };
                        let cell = region.raw_tile_cell(lz * TILES_PER_SIDE + lx);
                        if last_cell == Some((slot, cell)) {
                            return false;
                        }
                        last_cell = Some((slot, cell));
                        let t_enter = t + u * (1.0 - t);
                        entry = self.probe_cell(
                            slot,
                            cell,
                            at(t_enter),
                            end,
                            t_enter,
                            inclusive && u == 0.0,
                            left_over,
                        );
                        entry.is_some()
                    });
                    match walked {
                        Walked::Clear => return Ok(Ok(None)),
                        Walked::Blocked(event) => {
                            let mut hit = grid.hit(&piece, event);
                            hit.t = t + hit.t * (1.0 - t);
                            return Ok(Err(hit));
                        }
                        Walked::Stopped => {
                            let e = entry.expect("the walk stops at an entry");
                            let Some(p) = self.objects.placement(e.slot, e.index) else {
                                return blocked_at(e.t, None, [0.0, 0.0]);
                            };
                            let mesh = self.objects.server_mesh(p);
                            let frame = Frame::new(self.regions[e.slot].id, p);
                            let key = EdgeKey {
                                group: 0,
                                index: e.edge,
                            };
                            let edge = mesh.edge(key);
                            let object_edge = Some(ObjectEdgeRef::of(p.key, key));
                            let [a, b] = mesh.edge_xz(key);
                            let direction = frame.direction_to_world([b[0] - a[0], b[1] - a[1]]);
                            legs += 1;
                            if legs > MAX_LEGS
                                || edge.flag & mesh_flag::BLOCK_B_TO_A != 0
                                || siege_blocks(sight, ends_on_terrain, mesh, edge.flag)
                            {
                                return blocked_at(e.t, object_edge, direction);
                            }
                            t = e.t;
                            // Onto the edge's cell, or straight back out over the same edge
                            // when the segment goes on away from that cell.
                            let tri = edge.cell_a;
                            if cell_side(mesh, key, tri, frame.local(end)) > 0 {
                                Step::Onto(WalkSurface::Object {
                                    slot: e.slot,
                                    index: e.index,
                                    tri,
                                    previous: Some(key),
                                })
                            } else {
                                Step::Leave {
                                    slot: e.slot,
                                    index: e.index,
                                    tri,
                                    key,
                                }
                            }
                        }
                    }
                }
                WalkSurface::Object {
                    slot,
                    index,
                    tri,
                    previous,
                } => {
                    let Some(p) = self.objects.placement(slot, index) else {
                        return Err(RayError::StartNotWalkable);
                    };
                    let mesh = self.objects.server_mesh(p);
                    if !mesh.has_tri(tri) {
                        return Err(RayError::StartNotWalkable);
                    }
                    visit(ObjectCellRef {
                        instance: p.key,
                        cell: tri as u16,
                    });
                    let frame = Frame::new(self.regions[slot].id, p);
                    let (q0, q1) = (frame.local(at(t)), frame.local(end));
                    let Some((s, key)) = triangle_exit(mesh, tri, previous, q0, q1) else {
                        return Ok(Ok(Some(ObjectCellRef {
                            instance: p.key,
                            cell: tri as u16,
                        })));
                    };
                    t += s * (1.0 - t);
                    Step::Leave {
                        slot,
                        index,
                        tri,
                        key,
                    }
                }
            };
            surface = match step {
                Step::Onto(next) => next,
                Step::Leave {
                    slot,
                    index,
                    tri,
                    key,
                } => {
                    let p = self
                        .objects
                        .placement(slot, index)
                        .expect("walked on a placed object");
                    let mesh = self.objects.server_mesh(p);
                    let frame = Frame::new(self.regions[slot].id, p);
                    let edge = *mesh.edge(key);
                    let object_edge = Some(ObjectEdgeRef::of(p.key, key));
                    let [a, b] = mesh.edge_xz(key);
                    let direction = frame.direction_to_world([b[0] - a[0], b[1] - a[1]]);
                    let blocked = |t| blocked_at(t, object_edge, direction);
                    if siege_blocks(sight, ends_on_terrain, mesh, edge.flag) {
                        return blocked(t);
                    }
                    if edge.flag & mesh_flag::INTERNAL == 0 {
                        // Off the object: refused, over a link onto the linked object, or
                        // down onto the terrain.
                        if edge.flag & mesh_flag::NO_EXIT != 0 {
                            return blocked(t);
                        }
                        legs += 1;
                        if legs > MAX_LEGS {
                            return blocked(t);
                        }
                        let linked = if edge.flag & mesh_flag::LINK != 0 {
                            let row = (key.group == 0)
                                .then(|| p.links.iter().find(|l| u32::from(l[2]) == key.index))
                                .flatten();
                            let Some(&[other, other_edge, _]) = row else {
                                return blocked(t);
                            };
                            let Some(o) = self.objects.placement(slot, other) else {
                                return blocked(t);
                            };
                            let omesh = self.objects.server_mesh(o);
                            let okey = EdgeKey {
                                group: 0,
                                index: u32::from(other_edge),
                            };
                            // Where the linked edge does not exist, the server puts the
                            // walker down on the terrain.
                            (usize::from(other_edge) < omesh.outline_count()).then(|| {
                                WalkSurface::Object {
                                    slot,
                                    index: other,
                                    tri: omesh.edge(okey).cell_a,
                                    previous: Some(okey),
                                }
                            })
                        } else {
                            None
                        };
                        match linked {
                            Some(surface) => surface,
                            None => {
                                if !self.walkable_at(&grid, at(t), corner) {
                                    return blocked(t);
                                }
                                inclusive = false;
                                left_over = (key.group == 0).then_some((slot, index, key.index));
                                WalkSurface::Terrain
                            }
                        }
                    } else {
                        let Some(next) = mesh.across(key, tri) else {
                            return blocked(t);
                        };
                        let forward_blocked =
                            edge.flag & mesh_flag::BLOCK_A_TO_B != 0 && edge.cell_a == tri;
                        let backward_blocked =
                            edge.flag & mesh_flag::BLOCK_B_TO_A != 0 && edge.cell_b == Some(tri);
                        if forward_blocked || backward_blocked {
                            return blocked(t);
                        }
                        WalkSurface::Object {
                            slot,
                            index,
                            tri: next,
                            previous: Some(key),
                        }
                    }
                }
            };
        }
        blocked_at(t, None, [0.0, 0.0])
    }

    /// The objects the cell `cell` of the region in `slot` lists, probed for the outline edge
    /// the segment from `w0` to `w1` (world units; `w0` at `t0` of the whole segment) meets
    /// first; the nearest of them, the earlier in the list on a tie.
    #[allow(clippy::too_many_arguments)]
    fn probe_cell(
        &self,
        slot: usize,
        cell: u16,
        w0: [f64; 2],
        w1: [f64; 2],
        t0: f64,
        inclusive: bool,
        skip: Option<(usize, u16, u32)>,
    ) -> Option<Entry> {
        let region = &self.regions[slot];
        let mut best: Option<Entry> = None;
        for &k in region.objects_of_cell(cell) {
            let Some(p) = self.objects.placement(slot, k) else {
                continue;
            };
            let mesh = self.objects.server_mesh(p);
            let frame = Frame::new(region.id, p);
            let skip = skip.and_then(|(s, i, e)| (s == slot && i == k).then_some(e));
            if let Some((s, edge)) =
                first_outline_crossing(mesh, frame.local(w0), frame.local(w1), inclusive, skip)
            {
                let t = t0 + s * (1.0 - t0);
                if best.map_or(true, |b| t < b.t) {
                    best = Some(Entry {
                        slot,
                        index: k,
                        edge,
                        t,
                    });
                }
            }
        }
        best
    }

    /// Whether the tile under a world point is walkable.
    fn walkable_at(&self, grid: &Grid<'_>, w: [f64; 2], corner: [f64; 2]) -> bool {
        let (tx, _) = cell_coordinate(w[0] - corner[0]);
        let (tz, _) = cell_coordinate(w[1] - corner[1]);
        grid.open(tx, tz)
    }

    /// The grid and the segment in the start region's frame, for a walk.
    fn segment(&self, from: Position, to: Position) -> Result<(Grid<'_>, Ray), RayError> {
        let from = from.normalized().ok_or(RayError::StartNotWalkable)?;
        if !to.x.is_finite() || !to.z.is_finite() {
            return Err(RayError::BadEnd);
        }
        let grid = Grid {
            world: self,
            origin: from.region,
        };
        let (ex, ez) = to.in_frame_of(from.region);
        let ray = Ray {
            x0: f64::from(from.x),
            z0: f64::from(from.z),
            x1: f64::from(ex),
            z1: f64::from(ez),
        };
        if !grid.in_walkable_closure(ray.x0, ray.z0) {
            return Err(RayError::StartNotWalkable);
        }
        Ok((grid, ray))
    }
}

/// How many times a walk may change surface (terrain, object cell) before it is given up as
/// blocked: far more than any real segment needs, a guard against malformed meshes.
const MAX_SURFACE_STEPS: usize = 1 << 16;

/// The server's bound on a move's legs (each entering or leaving an object starts one).
const MAX_LEGS: u32 = 7;

/// Where the line-of-sight walk is.
#[derive(Debug, Clone, Copy)]
enum WalkSurface {
    Terrain,
    /// On triangle `tri` of entry `index` of the object list of the region in `slot`, having
    /// come over `previous`.
    Object {
        slot: usize,
        index: u16,
        tri: u32,
        previous: Option<EdgeKey>,
    },
}

/// What the walk does next.
enum Step {
    /// Goes on on this surface.
    Onto(WalkSurface),
    /// Crosses edge `key` of triangle `tri` of an object, by the object's rules.
    Leave {
        slot: usize,
        index: u16,
        tri: u32,
        key: EdgeKey,
    },
}

/// An outline edge a terrain walk meets: the object (list entry of the region in `slot`), the
/// edge, and where along the whole segment.
#[derive(Debug, Clone, Copy)]
struct Entry {
    slot: usize,
    index: u16,
    edge: u32,
    t: f64,
}

/// Whether a siege edge (flag 0x80) blocks sight: on a mesh without the siege option (nav flag
/// 8), between two points on the terrain.
fn siege_blocks(sight: bool, ends_on_terrain: bool, mesh: &ServerMesh, flag: u8) -> bool {
    sight && ends_on_terrain && flag & mesh_flag::SIEGE != 0 && mesh.options & 8 == 0
}

/// Whether a cell answer is none or a terrain cell.
trait TerrainOrNone {
    fn is_none_or_terrain(&self) -> bool;
}

impl TerrainOrNone for Option<super::CellRef> {
    fn is_none_or_terrain(&self) -> bool {
        self.map_or(true, |c| c.object.is_none())
    }
}

/// A hit on an object edge at `t` along the whole segment `ray`.
fn object_hit(
    ray: &Ray,
    origin: RegionId,
    t: f64,
    edge: Option<ObjectEdgeRef>,
    direction: [f64; 2],
) -> RayHit {
    let (x, z) = (ray.x0 + t * ray.dx(), ray.z0 + t * ray.dz());
    let size = f64::from(REGION_SIZE);
    let point = Position::from_world(
        f64::from(origin.x()) * size + x,
        f64::from(origin.z()) * size + z,
    )
    .unwrap_or(Position::new(origin, x as f32, z as f32));
    // The edge's normal, turned to face the segment's start.
    let length = direction[0].hypot(direction[1]);
    let normal = if length > 0.0 {
        let n = [-direction[1] / length, direction[0] / length];
        if n[0] * ray.dx() + n[1] * ray.dz() > 0.0 {
            [-n[0] as f32, -n[1] as f32]
        } else {
            [n[0] as f32, n[1] as f32]
        }
    } else {
        back(ray.dx(), ray.dz(), ray.dx().hypot(ray.dz()))
    };
    RayHit {
        point,
        t: t.clamp(0.0, 1.0),
        edge: None,
        object_edge: edge,
        circle: None,
        normal,
    }
}

/// The segment, in the start region's frame.
struct Ray {
    x0: f64,
    z0: f64,
    x1: f64,
    z1: f64,
}

impl Ray {
    fn dx(&self) -> f64 {
        self.x1 - self.x0
    }

    fn dz(&self) -> f64 {
        self.z1 - self.z0
    }

    /// Orientation of grid vertex (gx, gz) against the ray: > 0 on its left.
    fn side_of_vertex(&self, gx: i64, gz: i64) -> f64 {
        orient(
            [self.x0, self.z0],
            [self.x1, self.z1],
            [gx as f64 * TILE, gz as f64 * TILE],
        )
    }
}

/// Where the walk stopped.
#[derive(Debug, Clone, Copy)]
enum Event {
    /// At the start: the segment leaves the walkable ground at once.
    Start,
    /// Crossing the vertical grid line `x = 20·gx` within tile row `tz`.
    Vertical { gx: i64, tz: i64 },
    /// Crossing the horizontal grid line `z = 20·gz` within tile column `tx`.
    Horizontal { gz: i64, tx: i64 },
    /// Passing through grid vertex (gx, gz).
    Vertex { gx: i64, gz: i64 },
}

/// The tile grid of the loaded world, indexed from the corner of `origin` (may be negative).
/// Line of sight uses the start region's corner; path finding uses region (0, 0), so that its
/// tile coordinates are global.
pub(crate) struct Grid<'w> {
    pub world: &'w World,
    pub origin: RegionId,
}

impl<'w> Grid<'w> {
    /// The grid in global tile coordinates (`region · 96 + tile`).
    pub fn global(world: &'w World) -> Grid<'w> {
        Grid {
            world,
            origin: RegionId::new(0, 0),
        }
    }

    /// The loaded region holding tile (tx, tz): its slot in [`World::region_data`], the region
    /// and the tile's local indices.
    #[inline]
    pub fn locate_slot(&self, tx: i64, tz: i64) -> Option<(usize, &'w Region, usize, usize)> {
        let gx = i64::from(self.origin.x()) * N + tx;
        let gz = i64::from(self.origin.z()) * N + tz;
        if !(0..256 * N).contains(&gx) || !(0..128 * N).contains(&gz) {
            return None;
        }
        let slot = self
            .world
            .region_slot(RegionId::new((gx / N) as u8, (gz / N) as u8))?;
        let region = &self.world.region_data()[slot];
        Some((slot, region, (gx % N) as usize, (gz % N) as usize))
    }

    /// The region holding tile (tx, tz) and the tile's local indices.
    #[inline]
    pub fn locate(&self, tx: i64, tz: i64) -> Option<(&'w Region, usize, usize)> {
        self.locate_slot(tx, tz).map(|(_, r, x, z)| (r, x, z))
    }

    #[inline]
    pub fn open(&self, tx: i64, tz: i64) -> bool {
        self.locate(tx, tz)
            .is_some_and(|(r, x, z)| r.is_open_tile(x, z))
    }

    /// Whether a wall edge covers the vertical side at `x = 20·gx`, row `tz`. A side on a
    /// region border belongs to both regions' files; either may hold the wall.
    pub fn wall_edge_vertical(&self, gx: i64, tz: i64) -> bool {
        let n = HEIGHTS_PER_SIDE;
        let east = self
            .locate(gx, tz)
            .is_some_and(|(r, x, z)| r.vertical_walls.get(z * n + x));
        let west = self
            .locate(gx - 1, tz)
            .is_some_and(|(r, x, z)| r.vertical_walls.get(z * n + x + 1));
        east || west
    }

    /// Whether a wall edge covers the horizontal side at `z = 20·gz`, column `tx`.
    pub fn wall_edge_horizontal(&self, gz: i64, tx: i64) -> bool {
        let north = self
            .locate(tx, gz)
            .is_some_and(|(r, x, z)| r.horizontal_walls.get(z * TILES_PER_SIDE + x));
        let south = self
            .locate(tx, gz - 1)
            .is_some_and(|(r, x, z)| r.horizontal_walls.get((z + 1) * TILES_PER_SIDE + x));
        north || south
    }

    /// A wall for sight: a wall edge, or a side between walkable and non-walkable ground.
    pub fn wall_vertical(&self, gx: i64, tz: i64) -> bool {
        self.open(gx - 1, tz) != self.open(gx, tz) || self.wall_edge_vertical(gx, tz)
    }

    pub fn wall_horizontal(&self, gz: i64, tx: i64) -> bool {
        self.open(tx, gz - 1) != self.open(tx, gz) || self.wall_edge_horizontal(gz, tx)
    }

    /// Whether one can pass from tile (tx, tz) across its side towards (dx, dz) (one of the
    /// four unit steps): both tiles walkable and no wall edge between.
    pub fn passable(&self, tx: i64, tz: i64, dx: i64, dz: i64) -> bool {
        let (nx, nz) = (tx + dx, tz + dz);
        if !self.open(tx, tz) || !self.open(nx, nz) {
            return false;
        }
        match (dx, dz) {
            (1, 0) => !self.wall_edge_vertical(nx, tz),
            (-1, 0) => !self.wall_edge_vertical(tx, tz),
            (0, 1) => !self.wall_edge_horizontal(nz, tx),
            (0, -1) => !self.wall_edge_horizontal(tz, tx),
            _ => false,
        }
    }

    /// Whether the point touches a walkable tile (the tiles meeting at a side or corner count).
    fn in_walkable_closure(&self, x: f64, z: f64) -> bool {
        let (tx, on_x) = cell_coordinate(x);
        let (tz, on_z) = cell_coordinate(z);
        let xs: &[i64] = if on_x { &[tx - 1, tx] } else { &[tx] };
        let zs: &[i64] = if on_z { &[tz - 1, tz] } else { &[tz] };
        xs.iter().any(|&x| zs.iter().any(|&z| self.open(x, z)))
    }

    /// Rule 3 at grid vertex (gx, gz): walls on both sides of the ray.
    fn squeezes(&self, ray: &Ray, gx: i64, gz: i64) -> bool {
        // The four sides meeting at the vertex, as (direction from the vertex, is a wall).
        let sides = [
            ((1.0, 0.0), self.wall_horizontal(gz, gx)),
            ((-1.0, 0.0), self.wall_horizontal(gz, gx - 1)),
            ((0.0, 1.0), self.wall_vertical(gx, gz)),
            ((0.0, -1.0), self.wall_vertical(gx, gz - 1)),
        ];
        let (dx, dz) = (ray.dx(), ray.dz());
        let (mut left, mut right) = (false, false);
        for ((ex, ez), wall) in sides {
            if wall {
                // Cross product of the ray direction and the side's direction: exact, since one
                // factor of each product is 0 or ±1.
                let cross = dx * ez - dz * ex;
                left |= cross > 0.0;
                right |= cross < 0.0;
            }
        }
        left && right
    }

    fn hit(&self, ray: &Ray, event: Event) -> RayHit {
        let (dx, dz) = (ray.dx(), ray.dz());
        let length = dx.hypot(dz);
        let (t, x, z, normal, edge) = match event {
            Event::Start => (0.0, ray.x0, ray.z0, back(dx, dz, length), None),
            Event::Vertical { gx, tz } => {
                let x = gx as f64 * TILE;
                let t = (x - ray.x0) / dx;
                (
                    t,
                    x,
                    ray.z0 + t * dz,
                    [-(dx.signum() as f32), 0.0],
                    self.find_wall(gx, tz, true),
                )
            }
            Event::Horizontal { gz, tx } => {
                let z = gz as f64 * TILE;
                let t = (z - ray.z0) / dz;
                (
                    t,
                    ray.x0 + t * dx,
                    z,
                    [0.0, -(dz.signum() as f32)],
                    self.find_wall(gz, tx, false),
                )
            }
            Event::Vertex { gx, gz } => {
                let (x, z) = (gx as f64 * TILE, gz as f64 * TILE);
                let t = if dx.abs() >= dz.abs() {
                    (x - ray.x0) / dx
                } else {
                    (z - ray.z0) / dz
                };
                let edge = [
                    (gx, gz, true),
                    (gx, gz - 1, true),
                    (gz, gx, false),
                    (gz, gx - 1, false),
                ]
                .into_iter()
                .find_map(|(line, along, vertical)| self.find_wall(line, along, vertical));
                (t, x, z, back(dx, dz, length), edge)
            }
        };
        let size = f64::from(REGION_SIZE);
        let world_x = f64::from(self.origin.x()) * size + x;
        let world_z = f64::from(self.origin.z()) * size + z;
        let point = Position::from_world(world_x, world_z).unwrap_or(Position::new(
            self.origin,
            x as f32,
            z as f32,
        ));
        RayHit {
            point,
            t: t.clamp(0.0, 1.0),
            edge,
            object_edge: None,
            circle: None,
            normal,
        }
    }

    /// The wall edge that covers one tile side: on the line `20·line`, at tile `along`.
    fn find_wall(&self, line: i64, along: i64, vertical: bool) -> Option<(RegionId, EdgeId)> {
        // The side can be stored by the region on either side of it.
        let candidates = if vertical {
            [(line, along), (line - 1, along)]
        } else {
            [(along, line), (along, line - 1)]
        };
        for (tx, tz) in candidates {
            let Some((region, lx, lz)) = self.locate(tx, tz) else {
                continue;
            };
            let (local_line, local_along) = if vertical {
                (line - (tx - lx as i64), lz as f64)
            } else {
                (line - (tz - lz as i64), lx as f64)
            };
            let line_pos = local_line as f32 * TILE as f32;
            let (lo, hi) = (local_along * TILE, (local_along + 1.0) * TILE);
            let covers = |e: &super::region::Edge| {
                if e.flag & (EDGE_BLOCKED | EDGE_SIEGE) == 0 {
                    return false;
                }
                let (fixed, a, b) = if vertical { (0, 1, 1) } else { (1, 0, 0) };
                e.a[fixed] == line_pos
                    && e.b[fixed] == line_pos
                    && f64::from(e.a[a].min(e.b[b])) <= lo
                    && f64::from(e.a[a].max(e.b[b])) >= hi
            };
            if let Some(i) = region.internal_edges.iter().position(covers) {
                return Some((region.id, EdgeId::Internal(i as u32)));
            }
            if let Some(i) = region.global_edges.iter().position(covers) {
                return Some((region.id, EdgeId::Global(i as u32)));
            }
        }
        None
    }
}

/// The unit vector pointing back along the ray.
fn back(dx: f64, dz: f64, length: f64) -> [f32; 2] {
    if length > 0.0 {
        [(-dx / length) as f32, (-dz / length) as f32]
    } else {
        [0.0, 0.0]
    }
}

/// The tile index containing coordinate `v` and whether `v` lies exactly on a grid line
/// (then the index is of the tile above/right of the line).
pub(crate) fn cell_coordinate(v: f64) -> (i64, bool) {
    let mut k = (v / TILE).floor() as i64;
    // The division may round across a grid line; the multiplication back is exact.
    if k as f64 * TILE > v {
        k -= 1;
    } else if (k + 1) as f64 * TILE <= v {
        k += 1;
    }
    (k, k as f64 * TILE == v)
}

/// Walks the segment; returns the first blocking event.
fn walk(grid: &Grid<'_>, ray: &Ray) -> Option<Event> {
    match walk_visiting(grid, ray, &mut |_, _, _| false) {
        Walked::Blocked(event) => Some(event),
        Walked::Clear | Walked::Stopped => None,
    }
}

/// How a walk over the tiles ended.
#[derive(Debug, Clone, Copy)]
enum Walked {
    /// The segment is clear.
    Clear,
    /// Blocked by the terrain.
    Blocked(Event),
    /// The visitor stopped it.
    Stopped,
}

/// [`walk`], calling `visit(tx, tz, u)` as the segment enters each walkable tile (the first
/// one too), `u` the parameter along the segment where it enters; the walk stops when `visit`
/// returns true. A segment along a grid line visits the tile on the line's +x or +z side.
fn walk_visiting(
    grid: &Grid<'_>,
    ray: &Ray,
    visit: &mut impl FnMut(i64, i64, f64) -> bool,
) -> Walked {
    let (dx, dz) = (ray.dx(), ray.dz());
    let (mut tx, on_x) = cell_coordinate(ray.x0);
    let (mut tz, on_z) = cell_coordinate(ray.z0);
    if dx == 0.0 && dz == 0.0 {
        return if visit(tx, tz, 0.0) {
            Walked::Stopped
        } else {
            Walked::Clear
        };
    }
    if dx == 0.0 && on_x {
        return walk_along_line::<true>(grid, ray, tx, tz, on_z, visit);
    }
    if dz == 0.0 && on_z {
        return walk_along_line::<false>(grid, ray, tz, tx, on_x, visit);
    }
    // The first tile is the one the segment enters on leaving its start.
    if on_x && dx < 0.0 {
        tx -= 1;
    }
    if on_z && dz < 0.0 {
        tz -= 1;
    }
    if !grid.open(tx, tz) {
        return Walked::Blocked(Event::Start);
    }
    if visit(tx, tz, 0.0) {
        return Walked::Stopped;
    }
    let (sx, sz) = (dx.signum() as i64, dz.signum() as i64);
    loop {
        // The grid lines bounding the current tile ahead of the ray.
        let gx = if sx > 0 { tx + 1 } else { tx };
        let gz = if sz > 0 { tz + 1 } else { tz };
        let (line_x, line_z) = (gx as f64 * TILE, gz as f64 * TILE);
        let ends_before_x = sx == 0 || (sx > 0 && ray.x1 <= line_x) || (sx < 0 && ray.x1 >= line_x);
        let ends_before_z = sz == 0 || (sz > 0 && ray.z1 <= line_z) || (sz < 0 && ray.z1 >= line_z);
        // Which line the ray meets first: decided by the side of the corner it passes.
        let exit = if sx == 0 {
            Exit::Horizontal
        } else if sz == 0 {
            Exit::Vertical
        } else {
            let o = ray.side_of_vertex(gx, gz);
            if o == 0.0 {
                Exit::Corner
            } else if (o > 0.0) == (sx * sz > 0) {
                Exit::Vertical
            } else {
                Exit::Horizontal
            }
        };
        let u = match exit {
            Exit::Vertical | Exit::Corner if sx != 0 => (line_x - ray.x0) / dx,
            _ => (line_z - ray.z0) / dz,
        };
        match exit {
            Exit::Vertical => {
                if ends_before_x {
                    return Walked::Clear;
                }
                let next = tx + sx;
                if grid.wall_edge_vertical(gx, tz) || !grid.open(next, tz) {
                    return Walked::Blocked(Event::Vertical { gx, tz });
                }
                tx = next;
            }
            Exit::Horizontal => {
                if ends_before_z {
                    return Walked::Clear;
                }
                let next = tz + sz;
                if grid.wall_edge_horizontal(gz, tx) || !grid.open(tx, next) {
                    return Walked::Blocked(Event::Horizontal { gz, tx });
                }
                tz = next;
            }
            Exit::Corner => {
                if ends_before_x || ends_before_z {
                    return Walked::Clear;
                }
                if grid.squeezes(ray, gx, gz) || !grid.open(tx + sx, tz + sz) {
                    return Walked::Blocked(Event::Vertex { gx, gz });
                }
                tx += sx;
                tz += sz;
            }
        }
        if visit(tx, tz, u) {
            return Walked::Stopped;
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Exit {
    Vertical,
    Horizontal,
    Corner,
}

/// The segment lies on a grid line: the vertical `x = 20·fixed` when `ALONG_Z` (the walk
/// moves along z from tile row `t`), else the horizontal `z = 20·fixed` (along x from tile
/// column `t`); `on` says the start lies on a grid line across the walk too. It passes the
/// tiles on both sides, and is blocked where it crosses a wall at a vertex or where both sides
/// stop being walkable.
fn walk_along_line<const ALONG_Z: bool>(
    grid: &Grid<'_>,
    ray: &Ray,
    fixed: i64,
    t: i64,
    on: bool,
    visit: &mut impl FnMut(i64, i64, f64) -> bool,
) -> Walked {
    // Tile or vertex coordinates (x, z) from the fixed line and the coordinate along it.
    let xz = |fixed: i64, along: i64| {
        if ALONG_Z {
            (fixed, along)
        } else {
            (along, fixed)
        }
    };
    let (d, start, end) = if ALONG_Z {
        (ray.dz(), ray.z0, ray.z1)
    } else {
        (ray.dx(), ray.x0, ray.x1)
    };
    let step = d.signum() as i64;
    let mut t = if on && step < 0 { t - 1 } else { t };
    let open = |(x, z): (i64, i64)| grid.open(x, z);
    let walkable = |t: i64| open(xz(fixed - 1, t)) || open(xz(fixed, t));
    if !walkable(t) {
        return Walked::Blocked(Event::Start);
    }
    let (x, z) = xz(fixed, t);
    if visit(x, z, 0.0) {
        return Walked::Stopped;
    }
    loop {
        let g = if step > 0 { t + 1 } else { t };
        let line = g as f64 * TILE;
        if (step > 0 && end <= line) || (step < 0 && end >= line) {
            return Walked::Clear;
        }
        t += step;
        let (gx, gz) = xz(fixed, g);
        if grid.squeezes(ray, gx, gz) || !walkable(t) {
            return Walked::Blocked(Event::Vertex { gx, gz });
        }
        let (x, z) = xz(fixed, t);
        if visit(x, z, (line - start) / d) {
            return Walked::Stopped;
        }
    }
}
