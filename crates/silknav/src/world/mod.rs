//! A world of regions in memory and the game server's queries on it.
//!
//! [`World`] is immutable and `Send + Sync`: load it once, then query it from any number of
//! threads. Positions are region-local ([`Position`]), as in the game.
//!
//! | query | answers | semantics |
//! |---|---|---|
//! | [`World::cell_at`] | the cell under a point | on the [`Surface`] asked: the terrain's tile, the highest object triangle its tile's cell lists, or the server's `FindNavCell` choice nearest a height |
//! | [`World::height_at`] | the height there | the terrain's `FindHeight`, or `FindNavCell`'s, bit for bit |
//! | [`World::surface_at`] | both at once | as the two above |
//! | [`World::raycast`] | the first wall a segment crosses | exact, across cells, regions and object meshes ([`raycast`]) |
//! | [`World::line_of_sight`] | whether a segment is clear | as [`World::raycast`] |
//! | [`World::move_along`] | where a walk stops | the server's movement query, bit for bit, objects included ([`movement`]) |
//! | [`World::nearest_walkable`] | the walkable point nearest a point | the closest f32 point [`World::cell_at`] answers ([`snap`]) |
//!
//! Every query takes the [`Surface`] it stands on, where floors lie over one another:
//! [`Surface::Terrain`], [`Surface::Highest`] (the highest floor, as the server's walk starts
//! without a height), [`Surface::Near`] a reference height, or one [`Surface::Object`]
//! triangle.
//!
//! # Objects
//!
//! Buildings, gates and bridges have navmeshes of their own ([`crate::objects`]). As in the game
//! server, a point sees only the objects listed by the cell of its tile (open or closed), each
//! placed by the record of the point's region, and an object contains the point when the
//! server's float test says so:
//! - on [`Surface::Highest`], the highest of those object triangles wins
//!   over the terrain, and over a blocked tile (on a tie, the earlier object in the cell's list,
//!   then the lower triangle index);
//! - on [`Surface::Near`] a reference height `y`, the server's
//!   `FindNavCell` decides: it starts from the terrain (its `FindHeight` height, a blocked tile
//!   included), then asks each listed object in the list's order for its triangle nearest in
//!   height to the point's y — `y` for the first object that has one, then, as the server's
//!   code does, the height the previous object found — and keeps the candidate closest to `y`
//!   (the earlier on a tie, so the terrain before any object). The answer's height is formed
//!   as the server forms it, `(h − y) + y` in f32. When the terrain wins on a blocked tile
//!   there is no cell. On a bridge, a `y` near the deck answers the deck, a `y` near the ground
//!   below answers the ground.
//!
//! Line of sight walks over the terrain and object cells by the rules in [`raycast`]; movement
//! follows the server ([`movement`]); paths are found by [`crate::path`].

pub(crate) mod circles;
pub mod dungeon;
pub(crate) mod height;
mod load;
pub mod movement;
mod position;
pub mod raycast;
pub(crate) mod region;

pub mod snap;

pub use load::{LoadFinding, LoadFindingKind, LoadOptions, LoadReport};
pub use position::Position;
pub use region::EdgeId;

use crate::geometry::REGION_SIZE;

use crate::geometry::server_arith;
use crate::objects::{InstanceKey, ObjectCellRef, SquareAnswer};
use jmxv::nvm::TILES_PER_SIDE;
use jmxv::RegionId;
use region::Region;
use std::path::PathBuf;

/// The next [`World::stamp`]: worlds are numbered as they are made.
fn next_stamp() -> u64 {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

/// Regions are looked up by id through a table over the 15-bit terrain id space.
const NO_REGION: u32 = u32::MAX;

/// A loaded world.
#[derive(Debug, Clone)]
pub struct World {
    regions: Vec<Region>,
    index: Box<[u32]>,
    report: LoadReport,
    /// The placed object instances and their index.
    pub(crate) objects: crate::objects::Objects,
    /// This world's number in the process, so that a path index answers only for the world
    /// it was made for ([`crate::path::PathIndex`]); a clone keeps it, being the same world.
    pub(crate) stamp: u64,
    /// The digest of the inputs the path index depends on ([`World::inputs_digest`]).
    pub(crate) inputs: Option<crate::files::InputsDigest>,
    /// Whether this is a dungeon's ground ([`dungeon`]), whose regions the server does not
    /// have: a walk that steps over a link and leaves a region in one leg goes on
    /// ([`movement`]).
    pub(crate) is_dungeon_ground: bool,
    /// The dungeons, ascending by region.
    pub(crate) dungeons: std::sync::Arc<Vec<dungeon::Dungeon>>,
    /// The collision circles of a dungeon's ground ([`circles`]); none elsewhere.
    pub(crate) circles: Vec<circles::Circle>,
}

/// Which surface a query stands on, where floors lie over one another (a bridge's deck over
/// the ground, a building's upper floor, a dungeon's floors).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
#[non_exhaustive]
pub enum Surface {
    /// The terrain alone, objects ignored: its cell, and its height by the server's
    /// `FindHeight`. In a dungeon, which has no terrain, its highest floor.
    Terrain,
    /// The highest surface: the highest object triangle its tile's cell lists, else the
    /// terrain (the default; where a walk starts without a reference height).
    #[default]
    Highest,
    /// The surface nearest the reference height `y`, as the server's `FindNavCell` picks it.
    Near(f32),
    /// One object triangle, as a walker that knows its cell carries it (the server's walker
    /// does; [`World::path_surfaces`] gives each waypoint's). A point outside that triangle
    /// is on no surface. Not in a dungeon.
    Object(ObjectCellRef),
}

impl From<Option<f32>> for Surface {
    /// [`Surface::Near`] the height when there is one, else [`Surface::Highest`].
    fn from(y: Option<f32>) -> Surface {
        y.map_or(Surface::Highest, Surface::Near)
    }
}

impl Surface {
    /// The reference height: `y` for [`Surface::Near`], `None` otherwise.
    pub fn reference_height(self) -> Option<f32> {
        match self {
            Surface::Near(y) => Some(y),
            _ => None,
        }
    }
}

/// A cell of the world: the region and the cell's index in that region's file, and the object
/// triangle when the point is on an object.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct CellRef {
    /// The region the point is in.
    pub region: RegionId,
    /// Index into the region's cells: the terrain cell under the point (for a point on an
    /// object, the cell of its tile, open or closed, whose object list the server consults).
    pub cell: u16,
    /// The object triangle the point is on; `None` on the terrain.
    pub object: Option<ObjectCellRef>,
}

/// A point resolved onto a surface by the server's rules: the region's slot, the point, the
/// cell of its tile as stored, the object triangle chosen (entry of the region's object list,
/// triangle), the height, and whether there is a cell at all.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Resolved {
    pub slot: usize,
    pub pos: Position,
    pub quad: u16,
    pub object: Option<(u16, u32)>,
    pub y: f32,
    pub has_cell: bool,
}

/// A placed object instance, as [`World::object_instances`] lists it.
#[derive(Debug, Clone, Copy)]
pub struct ObjectInstance<'w> {
    world: &'w World,
    index: usize,
}

impl<'w> ObjectInstance<'w> {
    fn inner(&self) -> &'w crate::objects::Instance {
        &self.world.objects.instances()[self.index]
    }

    /// Its identity.
    pub fn key(&self) -> InstanceKey {
        self.inner().key
    }

    /// Its object id (the `object.ifo` line).
    pub fn object_id(&self) -> u32 {
        self.inner().object_id
    }

    /// The region whose record was kept: [`ObjectInstance::position`] is local to it.
    pub fn frame_region(&self) -> RegionId {
        self.inner().frame
    }

    /// The translation, local to [`ObjectInstance::frame_region`].
    pub fn position(&self) -> [f32; 3] {
        self.inner().position
    }

    /// The rotation about +Y, in radians.
    pub fn yaw(&self) -> f32 {
        self.inner().yaw
    }

    /// An object-local vertex placed as the queries place it: through the server's float
    /// local-to-world matrix of the kept record (turned by the yaw about +Y, then moved by the
    /// position), x and z local to [`ObjectInstance::frame_region`].
    pub fn place(&self, v: [f32; 3]) -> [f64; 3] {
        let inner = self.inner();
        let m = server_arith::local_to_world(inner.yaw, inner.position);
        server_arith::transform(&m, v).map(f64::from)
    }

    /// The mesh's usable triangles, object-local: (cell index, three vertices x, y, z).
    pub fn triangles(&self) -> impl ExactSizeIterator<Item = (u16, [[f32; 3]; 3])> + 'w {
        self.world.objects.triangles(self.inner()).iter().copied()
    }
}

impl World {
    /// The world of prepared regions (ascending, unique, no dungeons: the loaders see to
    /// that), each with the path its findings name; their problems join the report.
    fn assemble(regions: Vec<(Region, PathBuf)>, mut report: LoadReport) -> World {
        debug_assert!(regions.windows(2).all(|w| w[0].0.id < w[1].0.id));
        debug_assert!(regions.iter().all(|(r, _)| !r.id.is_dungeon()));
        let mut index = vec![NO_REGION; 1 << 15].into_boxed_slice();
        let mut kept = Vec::with_capacity(regions.len());
        for (i, (mut r, path)) in regions.into_iter().enumerate() {
            index[usize::from(r.id.0)] = i as u32;
            report
                .findings
                .extend(
                    std::mem::take(&mut r.issues)
                        .into_iter()
                        .map(|kind| LoadFinding {
                            region: r.id,
                            path: path.clone(),
                            kind,
                        }),
                );
            kept.push(r);
        }
        World {
            regions: kept,
            index,
            report,
            objects: crate::objects::Objects::default(),
            stamp: next_stamp(),
            inputs: None,
            is_dungeon_ground: false,
            dungeons: std::sync::Arc::default(),
            circles: Vec::new(),
        }
    }

    /// Heap bytes the world's query data holds: regions and objects (a path index is a value
    /// of its own: [`crate::PathIndexStats::heap_bytes`]).
    pub fn heap_bytes(&self) -> usize {
        self.regions.capacity() * std::mem::size_of::<Region>()
            + self.regions.iter().map(Region::heap_bytes).sum::<usize>()
            + self.index.len() * 4
            + self.objects.heap_bytes()
    }

    /// The digest of the inputs a path index of this world depends on: its regions and the
    /// bytes of their navmesh files (for a world made from navmeshes in memory, the bytes they
    /// are written as, which are those they were read from). `None` when a navmesh cannot be
    /// written.
    pub fn inputs_digest(&self) -> Option<crate::files::InputsDigest> {
        self.inputs
    }

    /// What loading reported.
    pub fn load_report(&self) -> &LoadReport {
        &self.report
    }

    /// The loaded regions, ascending.
    pub fn regions(&self) -> impl ExactSizeIterator<Item = RegionId> + '_ {
        self.regions.iter().map(|r| r.id)
    }

    /// The id of the region in `slot` (the order of [`World::regions`]).
    pub(crate) fn slot_region(&self, slot: usize) -> RegionId {
        self.regions[slot].id
    }

    /// Whether a region is loaded: a terrain region, or a dungeon (`0x8000 | id`).
    pub fn contains(&self, region: RegionId) -> bool {
        if region.is_dungeon() {
            return self.dungeon(region).is_some();
        }
        self.region(region).is_some()
    }

    /// The loaded dungeon of region `0x8000 | id` ([`dungeon`]).
    pub fn dungeon(&self, region: RegionId) -> Option<&dungeon::Dungeon> {
        let i = self
            .dungeons
            .binary_search_by_key(&region, dungeon::Dungeon::region)
            .ok()?;
        Some(&self.dungeons[i])
    }

    /// The loaded dungeons, ascending by region.
    pub fn dungeons(&self) -> impl ExactSizeIterator<Item = &dungeon::Dungeon> + '_ {
        self.dungeons.iter()
    }

    /// The loaded regions' query data, ascending by id.
    pub(crate) fn region_data(&self) -> &[Region] {
        &self.regions
    }

    /// The position of a loaded region in [`World::region_data`].
    #[inline]
    pub(crate) fn region_slot(&self, id: RegionId) -> Option<usize> {
        let i = *self.index.get(usize::from(id.0))?;
        (i != NO_REGION).then_some(i as usize)
    }

    #[inline]
    pub(crate) fn region(&self, id: RegionId) -> Option<&Region> {
        let i = *self.index.get(usize::from(id.0))?;
        (i != NO_REGION).then(|| &self.regions[i as usize])
    }

    /// The placed object instances, by key.
    pub fn object_instances(&self) -> impl ExactSizeIterator<Item = ObjectInstance<'_>> + '_ {
        (0..self.objects.instances().len()).map(|index| ObjectInstance { world: self, index })
    }

    /// The point in its own region's square, or `None` for a non-finite position.
    #[inline]
    fn normal(pos: Position) -> Option<Position> {
        if (0.0..REGION_SIZE).contains(&pos.x) && (0.0..REGION_SIZE).contains(&pos.z) {
            Some(pos)
        } else {
            pos.normalized()
        }
    }

    /// The open terrain cell under a normalised point.
    #[inline]
    fn tile_cell(&self, region: &Region, pos: Position) -> Option<u16> {
        let cell = region.tile_cell(Self::tile_of(pos));
        (cell != region::NOT_WALKABLE).then_some(cell)
    }

    /// The terrain cell under a point, ignoring objects: the cell of its tile, or `None` on a
    /// blocked tile, in a region that is not loaded, or at a non-finite position.
    ///
    /// Tiles and regions are half-open: a point at local 20 is in the second tile, a point at
    /// local 1920 in the next region.
    #[inline]
    pub(crate) fn terrain_cell_at(&self, pos: Position) -> Option<CellRef> {
        let pos = World::normal(pos)?;
        let region = self.region(pos.region)?;
        self.tile_cell(region, pos).map(|cell| CellRef {
            region: pos.region,
            cell,
            object: None,
        })
    }

    /// The index (`z * 96 + x`) of a normalised point's tile.
    #[inline]
    fn tile_of(pos: Position) -> usize {
        let (tx, tz) = (
            height::tile_index(pos.x) as usize,
            height::tile_index(pos.z) as usize,
        );
        tz * TILES_PER_SIDE + tx
    }

    /// The server's `FindNavCell` at a point and reference height `y`: the terrain of the
    /// point's tile, then each object its cell lists, in the list's order (each asked for its
    /// triangle nearest in height to the point's y — which, as in the server, is the height the
    /// previous object found, once one has found one), the closest to `y` winning and the
    /// earlier on a tie (the terrain first). `None` outside the loaded regions.
    pub(crate) fn find_nav_cell(&self, pos: Position, y: f32) -> Option<Resolved> {
        self.find_nav_cell_with(pos, y, true)
    }

    /// [`World::find_nav_cell`] without the tiles' squares: each object of the tile's list
    /// asked in turn.
    #[cfg(test)]
    pub(crate) fn find_nav_cell_by_lookup(&self, pos: Position, y: f32) -> Option<Resolved> {
        self.find_nav_cell_with(pos, y, false)
    }

    /// [`World::find_nav_cell`], the squares of the point's tile answering where they are
    /// certain when `squares`.
    fn find_nav_cell_with(&self, pos: Position, y: f32, squares: bool) -> Option<Resolved> {
        let pos = World::normal(pos)?;
        let slot = self.region_slot(pos.region)?;
        let region = &self.regions[slot];
        let tile = Self::tile_of(pos);
        let word = region.tiles[tile];
        let (raw, walkable) = (word.cell(), word.is_walkable());
        let ground = height::find_height(region, pos.x, pos.z)?;
        if usize::from(raw) >= region.cells.len() {
            // The server finds no cell and leaves the height as it was.
            return Some(Resolved {
                slot,
                pos,
                quad: raw,
                object: None,
                y,
                has_cell: false,
            });
        }
        let mut best_delta = ground - y;
        let mut best = None;
        let mut probe_y = y;
        let fine = match word.squares() {
            Some(record) if squares => self.objects.fine_in(slot, record, tile, raw, pos.x, pos.z),
            Some(_) => SquareAnswer::Mixed,
            None => SquareAnswer::None,
        };
        // An object's triangle at the height it found, against the best so far.
        let mut consider = |k: u16, tri: u32, found: f32| {
            let delta = found - y;
            if delta.abs() < best_delta.abs() {
                best_delta = delta;
                best = Some((k, tri));
            }
        };
        let entries = match fine {
            // No object finds a triangle here.
            SquareAnswer::None => &[][..],
            // One triangle of one object contains the point, the others none (by the squares'
            // margin, far beyond the rounding of the server's containment test): that object's
            // FindCell finds it, at its plane's height.
            SquareAnswer::Object(square) => {
                let tri = u32::from(square.tri);
                let found = match self.objects.flat_height(slot, &square) {
                    // A floor: the same height at every point, worked out at load.
                    Some(h) => h,
                    None => {
                        let p = self
                            .objects
                            .placement(slot, square.entry)
                            .expect("a square's placement is placed");
                        let mesh = self.objects.server_mesh(p);
                        crate::objects::placement_triangle_height(mesh, p, [pos.x, y, pos.z], tri)
                    }
                };
                consider(square.entry, tri, found);
                &[][..]
            }
            SquareAnswer::Mixed => self.objects.tile_objects(slot, word.squares()),
        };
        // The cell's list without the objects that cannot contain a point of the tile (they
        // would find no triangle and change nothing).
        for &k in entries {
            let Some(p) = self.objects.placement(slot, k) else {
                continue;
            };
            if !p.may_contain(pos.x, pos.z) {
                continue;
            }
            let mesh = self.objects.server_mesh(p);
            if let Some((tri, found)) =
                crate::objects::placement_find_cell(mesh, p, [pos.x, probe_y, pos.z])
            {
                probe_y = found;
                consider(k, tri, found);
            }
        }
        Some(Resolved {
            slot,
            pos,
            quad: raw,
            object: best,
            y: best_delta + y,
            has_cell: best.is_some() || walkable,
        })
    }

    /// The highest object triangle under a normalised point among those its tile's cell
    /// lists (the earlier in the list, then the lower triangle index, on a tie), with its
    /// height; `None` when there is none.
    pub(crate) fn highest_object(&self, pos: Position) -> Option<Resolved> {
        let slot = self.region_slot(pos.region)?;
        let tile = Self::tile_of(pos);
        self.highest_object_in(slot, pos, tile, self.tile_objects(slot, tile))
    }

    /// The entries of the object list of region slot `slot` that may contain a point of tile
    /// `tile` ([`crate::objects::Objects::tile_objects`]), by the tile's word.
    pub(crate) fn tile_objects(&self, slot: usize, tile: usize) -> &[u16] {
        let record = self.regions[slot].tiles[tile].squares();
        self.objects.tile_objects(slot, record)
    }

    /// [`World::highest_object`] in region slot `slot` and tile `tile`, among `objects` (the
    /// tile's [`crate::objects::Objects::tile_objects`]).
    fn highest_object_in(
        &self,
        slot: usize,
        pos: Position,
        tile: usize,
        objects: &[u16],
    ) -> Option<Resolved> {
        if objects.is_empty() {
            return None;
        }
        let region = &self.regions[slot];
        let raw = region.raw_tile_cell(tile);
        let mut best: Option<(u16, u32, f32)> = None;
        // The cell's list without the objects that cannot contain a point of the tile.
        for &k in objects {
            let Some(p) = self.objects.placement(slot, k) else {
                continue;
            };
            if !p.may_contain(pos.x, pos.z) {
                continue;
            }
            let mesh = self.objects.server_mesh(p);
            let local = server_arith::transform(&p.to_local, [pos.x, 0.0, pos.z]);
            mesh.for_each_inside(local[0], local[2], |tri, h| {
                let y = server_arith::transform(&p.to_world, [local[0], h, local[2]])[1];
                if best.map_or(true, |b| y > b.2) {
                    best = Some((k, tri, y));
                }
            });
        }
        let (k, tri, y) = best?;
        Some(Resolved {
            slot,
            pos,
            quad: raw,
            object: Some((k, tri)),
            y,
            has_cell: true,
        })
    }

    /// The cell a resolved point names.
    pub(crate) fn resolved_cell(&self, r: &Resolved) -> Option<CellRef> {
        if !r.has_cell {
            return None;
        }
        Some(CellRef {
            region: r.pos.region,
            cell: r.quad,
            object: r.object.map(|(k, tri)| ObjectCellRef {
                instance: self
                    .objects
                    .placement(r.slot, k)
                    .expect("a resolved object is placed")
                    .key,
                cell: tri as u16,
            }),
        })
    }

    /// The cell under a point: the highest object triangle containing it (of the objects the
    /// cell of its tile lists), else the cell of its tile; `None` on a blocked tile without an
    /// object, in a region that is not loaded, or at a non-finite position. See [the module
    /// docs](self).
    ///
    /// Tiles and regions are half-open: a point at local 20 is in the second tile, a point at
    /// local 1920 in the next region.
    #[inline]
    pub(crate) fn highest_cell_at(&self, pos: Position) -> Option<CellRef> {
        let pos = World::normal(pos)?;
        let Some(slot) = self.region_slot(pos.region) else {
            return self.dungeon_surface(pos, None).map(|(c, _)| c);
        };
        let region = &self.regions[slot];
        let tile = Self::tile_of(pos);
        let word = region.tiles[tile];
        // Most points on objects are answered by the square of their tile they lie in (the
        // tile's word leads to them); the others by the lookup.
        let fine = match word.squares() {
            Some(record) => self
                .objects
                .fine_in(slot, record, tile, word.cell(), pos.x, pos.z),
            None => SquareAnswer::None,
        };
        match fine {
            SquareAnswer::Object(square) => {
                return Some(CellRef {
                    region: pos.region,
                    cell: square.cell,
                    object: Some(ObjectCellRef {
                        instance: square.key,
                        cell: square.tri,
                    }),
                })
            }
            SquareAnswer::Mixed => return self.cell_at_by_lookup(slot, pos, tile),
            SquareAnswer::None => {}
        }
        let cell = word.walkable_cell();
        (cell != region::NOT_WALKABLE).then_some(CellRef {
            region: pos.region,
            cell,
            object: None,
        })
    }

    /// [`World::cell_at`] of a normalised point in region slot `slot` and tile `tile`, by the
    /// lookup of the objects its tile's cell lists, without the tile's squares.
    pub(crate) fn cell_at_by_lookup(
        &self,
        slot: usize,
        pos: Position,
        tile: usize,
    ) -> Option<CellRef> {
        let region = &self.regions[slot];
        let objects = self.tile_objects(slot, tile);
        if !objects.is_empty() {
            if let Some(r) = self.highest_object_in(slot, pos, tile, objects) {
                return self.resolved_cell(&r);
            }
        }
        let cell = region.tile_cell(tile);
        (cell != region::NOT_WALKABLE).then_some(CellRef {
            region: pos.region,
            cell,
            object: None,
        })
    }

    /// The cell under a point at reference height `y`, and the height there, as the server's
    /// `FindNavCell` answers ([module docs](self)): the cell `None` when the terrain wins on a
    /// blocked tile (the height is still given); `None` outside the loaded regions or for a
    /// non-finite `y`.
    pub(crate) fn surface_near(&self, pos: Position, y: f32) -> Option<(Option<CellRef>, f32)> {
        if !y.is_finite() {
            return None;
        }
        if pos.region.is_dungeon() {
            return self
                .dungeon_surface(pos, Some(y))
                .map(|(c, h)| (Some(c), h));
        }
        let r = self.find_nav_cell(pos, y)?;
        Some((self.resolved_cell(&r), r.y))
    }

    /// The cell under a point at reference height `y` ([`World::surface_near`]'s cell).
    pub(crate) fn cell_near(&self, pos: Position, y: f32) -> Option<CellRef> {
        self.surface_near(pos, y).and_then(|(cell, _)| cell)
    }

    /// The height of the surface under a point nearest reference height `y`, as the server's
    /// `FindNavCell` computes it, to the bit ([`World::surface_near`]); `None` outside the
    /// loaded regions or for a non-finite `y`.
    pub(crate) fn height_near(&self, pos: Position, y: f32) -> Option<f32> {
        // Without the cell, which names the object's instance: one read fewer.
        if !y.is_finite() {
            return None;
        }
        if pos.region.is_dungeon() {
            return self.dungeon_surface(pos, Some(y)).map(|(_, h)| h);
        }
        self.find_nav_cell(pos, y).map(|r| r.y)
    }

    /// The ground height at a point, as the server's `FindHeight` computes it: `None` in a
    /// region that is not loaded. Blocked tiles have a height too. The terrain alone; see
    /// [`World::height_near`] for objects. In a dungeon, which has no terrain, the height of
    /// its highest floor there ([`dungeon`]).
    #[inline]
    pub(crate) fn terrain_height_at(&self, pos: Position) -> Option<f32> {
        let pos = World::normal(pos)?;
        let Some(region) = self.region(pos.region) else {
            return self.dungeon_surface(pos, None).map(|(_, h)| h);
        };
        height::find_height(region, pos.x, pos.z)
    }

    /// The cell under a point on `surface`: `None` on a blocked tile without an object (for
    /// [`Surface::Near`], where the terrain wins there), in a region that is not loaded, or at
    /// a non-finite position or height. Tiles and regions are half-open: a point at local 20
    /// is in the second tile, a point at local 1920 in the next region.
    pub fn cell_at(&self, pos: Position, surface: Surface) -> Option<CellRef> {
        match surface {
            Surface::Terrain if !pos.region.is_dungeon() => self.terrain_cell_at(pos),
            Surface::Terrain | Surface::Highest => self.highest_cell_at(pos),
            Surface::Near(y) => self.cell_near(pos, y),
            Surface::Object(c) => self.on_object(pos, c).and_then(|r| self.resolved_cell(&r)),
        }
    }

    /// A point on the object triangle `c`, at the triangle's height there (taken at the
    /// terrain's height as the reference for the placement's transform); `None` when the
    /// triangle does not contain the point or names no loaded instance's triangle.
    pub(crate) fn on_object(&self, pos: Position, c: ObjectCellRef) -> Option<Resolved> {
        let pos = World::normal(pos)?;
        let slot = self.region_slot(pos.region)?;
        let region = &self.regions[slot];
        let (index, p) = self.placed_instance(slot, c)?;
        if !self.placement_holds(p, pos, c) {
            return None;
        }
        let mesh = self.objects.server_mesh(p);
        let ground = height::find_height(region, pos.x, pos.z)?;
        let tri = u32::from(c.cell);
        let y = crate::objects::placement_triangle_height(mesh, p, [pos.x, ground, pos.z], tri);
        Some(Resolved {
            slot,
            pos,
            quad: region.tiles[Self::tile_of(pos)].cell(),
            object: Some((index, tri)),
            y,
            has_cell: true,
        })
    }

    /// The height of `surface` at a point, to the bit as the server computes it: the
    /// terrain's `FindHeight` (blocked tiles have a height too), the highest surface's (where
    /// a walk starts; `None` on a blocked tile without an object), or `FindNavCell`'s height
    /// nearest `y`. `None` outside the loaded regions.
    ///
    /// The terrain's height: each 20×20 tile is two flat triangles whose diagonal alternates
    /// with the tile's parity, and an ice plane above the ground is the ground. The steps
    /// follow the server's arithmetic: the tile index is `trunc(x / 20)` in double, the
    /// fraction inside the tile is rounded to f32, the interpolation runs in double in the
    /// server's order of operations, and the result is rounded to f32.
    pub fn height_at(&self, pos: Position, surface: Surface) -> Option<f32> {
        match surface {
            Surface::Terrain => self.terrain_height_at(pos),
            Surface::Highest => self.start_height_at(pos, None),
            Surface::Near(y) => self.height_near(pos, y),
            Surface::Object(c) => self.on_object(pos, c).map(|r| r.y),
        }
    }

    /// The cell and the height of `surface` at a point ([`World::cell_at`] and
    /// [`World::height_at`] in one lookup): the cell is `None` where the height is known but
    /// no cell is there (a blocked tile); `None` outside the loaded regions.
    pub fn surface_at(&self, pos: Position, surface: Surface) -> Option<(Option<CellRef>, f32)> {
        match surface {
            Surface::Near(y) => self.surface_near(pos, y),
            _ => {
                let height = self.height_at(pos, surface)?;
                Some((self.cell_at(pos, surface), height))
            }
        }
    }

    /// At a dungeon position, the cell [`dungeon::Dungeon::cell_at`] picks at `y` (with no
    /// `y`, the highest) and its height; `None` elsewhere.
    fn dungeon_surface(&self, pos: Position, y: Option<f32>) -> Option<(CellRef, f32)> {
        if !pos.region.is_dungeon() {
            return None;
        }
        let d = self.dungeon(pos.region)?;
        let c = d.surface(pos, y)?;
        Some((d.cell_ref(c), c.height))
    }
}

#[cfg(test)]
mod tests;
