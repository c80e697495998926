//! The world's queries at dungeon positions: cells, heights, line of sight, movement and
//! snapping, answered in the dungeon's frame.
//!
//! A dungeon position is `Position { region: 0x8000 | id, x, z }` with dungeon-local x and z
//! ([`crate::world::Position`]). A dungeon's cell is answered as a [`CellRef`] whose region is
//! the dungeon's, whose `cell` is the block's index, and whose object is the block (instance
//! `dungeon region : block index`) and the triangle of its mesh.
//!
//! Each walk starts on the cell [`Dungeon::cell_at`] picks (the server's voxel lookup; with
//! no reference height, the highest), walks the dungeon's ground ([`super::ground`]: the
//! blocks as object floors, joined by the links made at load) by the world's own rules
//! ([`crate::world::raycast`], [`crate::world::movement`]), which meet its collision circles
//! too ([`crate::world::circles`]).
//!
//! A walk never leaves its dungeon: the ground has no walkable terrain, so a segment that
//! leaves the blocks other than over a link is blocked at the block's edge, and a goal in
//! another dungeon or on the terrain is refused.

use super::{Dungeon, DungeonCell};
use crate::objects::{walk::ObjectEdgeRef, InstanceKey, ObjectCellRef};
use crate::world::movement::{MoveError, MoveOptions, MoveOutcome, MoveStop};
use crate::world::raycast::{RayError, RayHit};
use crate::world::snap::Snap;
use crate::world::{CellRef, Position, Surface};

impl Dungeon {
    /// The ground position of a dungeon position's x, z; `None` outside the ground's id
    /// space or for a non-finite coordinate.
    pub(crate) fn ground_position(&self, x: f32, z: f32) -> Option<Position> {
        Position::from_world(f64::from(x) + self.shift[0], f64::from(z) + self.shift[1])
    }

    /// The dungeon position of a ground position.
    pub(crate) fn dungeon_position(&self, p: Position) -> Position {
        Position::new(
            self.region,
            (p.world_x() - self.shift[0]) as f32,
            (p.world_z() - self.shift[1]) as f32,
        )
    }

    /// The dungeon's blocks as a world of object floors only ([`super::ground`]).
    pub(crate) fn ground(&self) -> &crate::World {
        &self.ground
    }

    /// The ground's surface of a dungeon cell.
    fn ground_surface(&self, c: &DungeonCell) -> ObjectCellRef {
        ObjectCellRef {
            instance: self.instances[c.block as usize],
            cell: c.cell as u16,
        }
    }

    /// The dungeon's cell of a ground object triangle.
    fn dungeon_surface_of(&self, o: ObjectCellRef) -> ObjectCellRef {
        ObjectCellRef {
            instance: InstanceKey::new(self.region, o.instance.uid()),
            cell: o.cell,
        }
    }

    /// A dungeon cell as the world answers cells ([module docs](self)).
    pub(crate) fn cell_ref(&self, c: DungeonCell) -> CellRef {
        CellRef {
            region: self.region,
            cell: c.block as u16,
            object: Some(ObjectCellRef {
                instance: InstanceKey::new(self.region, c.block as u16),
                cell: c.cell as u16,
            }),
        }
    }

    /// The dungeon's edge of a ground object edge.
    fn dungeon_edge_of(&self, e: ObjectEdgeRef) -> ObjectEdgeRef {
        ObjectEdgeRef {
            instance: InstanceKey::new(self.region, e.instance.uid()),
            ..e
        }
    }

    /// The cell under `pos`: the one nearest `y` ([`Dungeon::cell_at`]), or with no `y` the
    /// highest.
    pub(crate) fn surface(&self, pos: Position, y: Option<f32>) -> Option<DungeonCell> {
        match y {
            Some(y) => self.cell_at([pos.x, y, pos.z]),
            None => self.highest_cell_at(pos.x, pos.z),
        }
    }

    /// [`crate::World::raycast_on`] at a dungeon position: from the cell `start` names, or
    /// the one [`Dungeon::surface`] picks at `y`.
    pub(crate) fn raycast(
        &self,
        from: Position,
        y: Option<f32>,
        start: Option<ObjectCellRef>,
        to: Position,
    ) -> Result<Option<RayHit>, RayError> {
        let start = match start {
            Some(c) if c.instance.owner() == self.region => DungeonCell {
                block: u32::from(c.instance.uid()),
                cell: u32::from(c.cell),
                height: 0.0,
            },
            Some(_) => return Err(RayError::StartNotWalkable),
            None => self.surface(from, y).ok_or(RayError::StartNotWalkable)?,
        };
        if start.block as usize >= self.instances.len() {
            return Err(RayError::StartNotWalkable);
        }
        if to.region != self.region || !(to.x.is_finite() && to.z.is_finite()) {
            return Err(RayError::BadEnd);
        }
        let a = self
            .ground_position(from.x, from.z)
            .ok_or(RayError::StartNotWalkable)?;
        let b = self.ground_position(to.x, to.z).ok_or(RayError::BadEnd)?;
        let hit = self
            .ground
            .raycast_on(a, Some(self.ground_surface(&start)), b)?;
        Ok(hit.map(|h| RayHit {
            point: self.dungeon_position(h.point),
            object_edge: h.object_edge.map(|e| self.dungeon_edge_of(e)),
            edge: None,
            ..h
        }))
    }

    /// [`crate::World::path_cells`] of a path in this dungeon whose waypoints a walker
    /// reaches at `heights`: each leg walked by line of sight from the cell nearest the
    /// walker's height at its start ([`Dungeon::surface`]), the cells it crosses in order,
    /// then the cell nearest the height at its end (where the sight stops short of it), each
    /// once per visit. A leg whose start has no cell adds nothing.
    pub(crate) fn path_cells(
        &self,
        waypoints: &[Position],
        heights: &[Option<f32>],
    ) -> Vec<CellRef> {
        let mut out: Vec<CellRef> = Vec::new();
        let mut push = |c: CellRef| {
            if out.last() != Some(&c) {
                out.push(c);
            }
        };
        if let [only] = waypoints {
            if let Some(c) = self.surface(*only, heights.first().copied().flatten()) {
                push(self.cell_ref(c));
            }
        }
        for (i, leg) in waypoints.windows(2).enumerate() {
            let y = heights.get(i).copied().flatten();
            let (Some(start), Some(a), Some(b)) = (
                self.surface(leg[0], y),
                self.ground_position(leg[0].x, leg[0].z),
                self.ground_position(leg[1].x, leg[1].z),
            ) else {
                continue;
            };
            if leg[0].region != self.region || leg[1].region != self.region {
                continue;
            }
            let _ = self
                .ground
                .sight_cells(a, Some(self.ground_surface(&start)), b, &mut |o| {
                    let o = self.dungeon_surface_of(o);
                    push(CellRef {
                        region: self.region,
                        cell: o.instance.uid(),
                        object: Some(o),
                    });
                });
            // Where the line of sight stops short (a walk may pass a corner it refuses), the
            // cell the walker reaches the leg's end on.
            let end = heights.get(i + 1).copied().flatten();
            if let Some(c) = self.surface(leg[1], end) {
                push(self.cell_ref(c));
            }
        }
        out
    }

    /// [`crate::World::move_along`] at a dungeon position ([module docs](self)), with the
    /// points of the walk in `trace` when given.
    pub(crate) fn walk(
        &self,
        from: Position,
        to: Position,
        options: &MoveOptions,
        trace: Option<&mut Vec<Position>>,
    ) -> Result<MoveOutcome, MoveError> {
        if options.terrain_only {
            return Err(MoveError::StartNotWalkable); // a dungeon has no terrain
        }
        let start = self
            .surface(from, options.start.reference_height())
            .ok_or(MoveError::StartNotWalkable)?;
        let a = self
            .ground_position(from.x, from.z)
            .ok_or(MoveError::StartNotWalkable)?;
        if to.region != self.region || !(to.x.is_finite() && to.z.is_finite()) {
            return Err(MoveError::OffMesh);
        }
        let b = self.ground_position(to.x, to.z).ok_or(MoveError::OffMesh)?;
        let options = MoveOptions {
            start: Surface::Near(start.height),
            ..*options
        };
        let mut ground_trace = Vec::new();
        let outcome = self.ground.move_traced(a, b, &options, &mut ground_trace)?;
        if let Some(trace) = trace {
            trace.clear();
            trace.extend(ground_trace.iter().map(|&p| self.dungeon_position(p)));
        }
        let cell = outcome.cell.object.ok_or(MoveError::OffMesh)?;
        Ok(MoveOutcome {
            position: self.dungeon_position(outcome.position),
            height: outcome.height,
            cell: CellRef {
                region: self.region,
                cell: cell.instance.uid(),
                object: Some(self.dungeon_surface_of(cell)),
            },
            stop: match outcome.stop {
                MoveStop::ObjectWall { edge } => MoveStop::ObjectWall {
                    edge: self.dungeon_edge_of(edge),
                },
                stop => stop,
            },
        })
    }

    /// [`crate::World::nearest_walkable`] at a dungeon position: the point nearest `pos`
    /// within `max_distance` where [`Dungeon::surface`] finds a cell at `y`.
    pub(crate) fn nearest_walkable(
        &self,
        pos: Position,
        y: Option<f32>,
        max_distance: f64,
    ) -> Option<Snap> {
        // The point in the frame of the ground's region nearest it, outside the id space
        // too: the search measures from the point itself.
        let size = f64::from(crate::geometry::REGION_SIZE);
        let (gx, gz) = (
            f64::from(pos.x) + self.shift[0],
            f64::from(pos.z) + self.shift[1],
        );
        let (rx, rz) = (
            (gx / size).floor().clamp(0.0, 255.0),
            (gz / size).floor().clamp(0.0, 127.0),
        );
        let ground = Position::new(
            jmxv::RegionId::new(rx as u8, rz as u8),
            (gx - rx * size) as f32,
            (gz - rz * size) as f32,
        );
        let snap = self.ground.snap(ground, max_distance, |p| {
            let c = self.surface(self.dungeon_position(p), y)?;
            Some(self.cell_ref(c))
        })?;
        let position = self.dungeon_position(snap.position);
        let cell = self.surface(position, y)?;
        Some(Snap {
            position,
            distance: snap.distance,
            cell: self.cell_ref(cell),
        })
    }
}
