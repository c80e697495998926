//! The dungeons of generated worlds: a `JMXVDOF` layout, its blocks' meshes, its
//! `AINavData` routes, and the `dungeoninfo.txt` row that names it.
//!
//! A dungeon is floors of square blocks, [`BLOCK_SIZE`] units a side, on a grid of slots.
//! Each floor is a maze over its slots (a random spanning tree, then a few more openings, so
//! that some ways loop), and a ramp of stairs joins each floor to the one above: it takes a
//! slot of the lower floor, rises [`FLOOR_RISE`] along +x, and its top leads into the next
//! slot of the upper floor (the slot over the ramp is left empty). Everything is a function
//! of the seed, so the same seed gives the same bytes.
//!
//! - **Blocks** are five shapes by their openings (a dead end, a corridor, a corner, a
//!   junction of three, a crossing of four), placed with the yaw that turns the shape's
//!   openings to the maze's, and the stairs. Their meshes are grids of 20-unit quads wound as
//!   the game's are ([`super::meshes`]); the outline's middle 40 units of a side with an
//!   opening are link edges (0x08), the rest walls (0x03). Each block's path is a `.bsr`
//!   naming its `.bms`, as in the game.
//! - **Links.** Two blocks that share an opening have link edges whose ends meet within a
//!   float's rounding: the server links them at load (`docs/format.md`, JMXVDOF).
//! - **Rooms** are the dead ends, junctions and crossings: they have names (the `.dof`'s
//!   labels) and four collision pillars ([`PILLAR_RADIUS`]) off the middle, which leave every
//!   opening passable. Corridors and stairs have neither.
//! - **The voxel grid** lists each block in every 200-unit voxel its placed box meets; the
//!   connected, visible and link lists are the blocks that share an opening.
//! - **Routes** (`AINavData`): per block the next edge from each cell toward each other cell
//!   (a breadth-first search over the block's inline edges, edges numbered outline first,
//!   then inline), its links (each link edge's cell, the block beyond and that block's
//!   edge), the sub-goal cell from each block toward each other (the cell of the first link
//!   on a fewest-blocks way), and each edge's centre in the dungeon's frame.

use crate::rng::SplitMix64;
use jmxv::ainav::{AiNavData, BlockLink, NextEdge, RouteBlock, SquareTable, NO_CELL, NO_EDGE};
use jmxv::bms::{NavSection, ObjectMesh, Version};
use jmxv::dof::{
    self, BoundingBox, DungeonFile, Fog, Group, Labels, Voxel, VoxelGrid, NO_ROOM,
    OBJECT_COLLISION, VOXEL_SIZE,
};
use jmxv::ifo::dungeon::DungeonRow;
use jmxv::res::{ResourceFile, ResourceKind};
use jmxv::{RegionId, F32};
use std::collections::{BTreeMap, BTreeSet, VecDeque};

/// The side of a block, world units.
pub const BLOCK_SIZE: f32 = 80.0;
/// How far each floor lies above the one below.
pub const FLOOR_RISE: f32 = 60.0;
/// The radius of a room's collision pillars.
pub const PILLAR_RADIUS: f32 = 4.0;
/// How far a pillar's centre lies from the block's middle, along x and z.
const PILLAR_OFFSET: f32 = 24.0;
/// Units per quad of a block's mesh.
const QUAD: f32 = 20.0;
/// The folder of the block meshes and resources, as paths spell it.
const BLOCK_FOLDER: &str = "res\\dungeon\\gen\\";

/// A slot of a floor: x and z, counted from the south-west.
type Slot = (i32, i32);

/// The sides of a block, in the order a quarter turn of yaw moves them along.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Side {
    South,
    East,
    North,
    West,
}

impl Side {
    const ALL: [Side; 4] = [Side::South, Side::East, Side::North, Side::West];

    /// The unit step of a slot across this side: (x, z).
    fn step(self) -> (i32, i32) {
        match self {
            Side::South => (0, -1),
            Side::East => (1, 0),
            Side::North => (0, 1),
            Side::West => (-1, 0),
        }
    }

    fn bit(self) -> u8 {
        1 << self as u8
    }

    fn opposite(self) -> Side {
        Side::ALL[(self as usize + 2) % 4]
    }
}

/// The shapes of blocks, by their openings before any turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Shape {
    /// South.
    DeadEnd,
    /// South and north.
    Corridor,
    /// South and east.
    Corner,
    /// South, east and north.
    Junction,
    /// All four.
    Crossing,
    /// A ramp rising along +x, open at west (bottom) and east (top).
    Stairs,
}

impl Shape {
    const ROOMS_AND_CORRIDORS: [Shape; 5] = [
        Shape::DeadEnd,
        Shape::Corridor,
        Shape::Corner,
        Shape::Junction,
        Shape::Crossing,
    ];

    fn name(self) -> &'static str {
        match self {
            Shape::DeadEnd => "dead_end",
            Shape::Corridor => "corridor",
            Shape::Corner => "corner",
            Shape::Junction => "junction",
            Shape::Crossing => "crossing",
            Shape::Stairs => "stairs",
        }
    }

    /// The openings as side bits, before any turn.
    fn openings(self) -> u8 {
        match self {
            Shape::DeadEnd => Side::South.bit(),
            Shape::Corridor => Side::South.bit() | Side::North.bit(),
            Shape::Corner => Side::South.bit() | Side::East.bit(),
            Shape::Junction => Side::South.bit() | Side::East.bit() | Side::North.bit(),
            Shape::Crossing => 0b1111,
            Shape::Stairs => Side::West.bit() | Side::East.bit(),
        }
    }

    fn is_room(self) -> bool {
        matches!(self, Shape::DeadEnd | Shape::Junction | Shape::Crossing)
    }

    /// The `.bms` path.
    fn mesh_path(self) -> String {
        format!("{BLOCK_FOLDER}{}.bms", self.name())
    }

    /// The `.bsr` path a `.dof` names.
    fn resource_path(self) -> String {
        format!("{BLOCK_FOLDER}{}.bsr", self.name())
    }
}

/// The openings `bits` turned by `quarters` quarter turns: a side moves to the next in
/// [`Side::ALL`] with each.
fn turn(bits: u8, quarters: u8) -> u8 {
    let q = quarters % 4;
    ((bits << q) | (bits >> (4 - q))) & 0b1111
}

/// The shape and quarter turns whose openings are `bits`.
fn shape_of(bits: u8) -> (Shape, u8) {
    for shape in Shape::ROOMS_AND_CORRIDORS {
        for quarters in 0..4 {
            if turn(shape.openings(), quarters) == bits {
                return (shape, quarters);
            }
        }
    }
    unreachable!("every non-empty set of openings is a turned shape: {bits:#06b}")
}

/// The navigation mesh of a shape: a grid of quads over the block, level, or rising along +x
/// for the stairs.
fn block_nav(shape: Shape) -> NavSection {
    let h = BLOCK_SIZE / 2.0;
    let n = (BLOCK_SIZE / QUAD) as usize;
    let xs: Vec<f32> = (0..=n).map(|i| -h + QUAD * i as f32).collect();
    let openings = shape.openings();
    let on = |a: f32, b: f32| (a - b).abs() < 1e-3;
    let rise = if shape == Shape::Stairs {
        FLOOR_RISE
    } else {
        0.0
    };
    super::meshes::build(
        &xs,
        &xs,
        |x, _| rise * (x + h) / BLOCK_SIZE,
        |a, b| {
            let side = if on(a[1], -h) && on(b[1], -h) {
                Side::South
            } else if on(a[0], h) && on(b[0], h) {
                Side::East
            } else if on(a[1], h) && on(b[1], h) {
                Side::North
            } else {
                Side::West
            };
            let middle = a[0].abs().max(b[0].abs()) <= h / 2.0 + 1e-3
                && matches!(side, Side::South | Side::North)
                || a[1].abs().max(b[1].abs()) <= h / 2.0 + 1e-3
                    && matches!(side, Side::East | Side::West);
            if openings & side.bit() != 0 && middle {
                super::meshes::EDGE_LINK
            } else {
                super::meshes::EDGE_WALL
            }
        },
        |_, _| super::meshes::EDGE_INTERNAL,
    )
}

/// A generated dungeon.
#[derive(Debug, Clone, PartialEq)]
pub struct GeneratedDungeon {
    /// Its id in `dungeoninfo.txt` (region `0x8000 | id`).
    pub id: u16,
    /// The path of its `.dof`, as `dungeoninfo.txt` spells it.
    pub path: String,
    /// Its layout.
    pub layout: DungeonFile,
    /// Its routes.
    pub routes: AiNavData,
}

impl GeneratedDungeon {
    /// The dungeon's region id, `0x8000 | id`.
    pub fn region(&self) -> RegionId {
        RegionId(0x8000 | self.id)
    }

    /// The `dungeoninfo.txt` row that names it, served.
    pub fn row(&self) -> DungeonRow {
        DungeonRow::new(Some(1), u32::from(self.id), self.path.as_bytes())
    }
}

/// The block meshes and their resources every generated dungeon uses, by path.
pub(crate) fn block_files() -> (BTreeMap<String, ObjectMesh>, BTreeMap<String, ResourceFile>) {
    let mut meshes = BTreeMap::new();
    let mut resources = BTreeMap::new();
    for shape in Shape::ROOMS_AND_CORRIDORS
        .into_iter()
        .chain([Shape::Stairs])
    {
        meshes.insert(
            shape.mesh_path(),
            ObjectMesh::from_nav(Version::V0110, 0, block_nav(shape)),
        );
        resources.insert(
            shape.resource_path(),
            ResourceFile::minimal(ResourceKind::Resource, shape.mesh_path().as_bytes()),
        );
    }
    (meshes, resources)
}

/// The size of a dungeon: floors of `side × side` slots.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DungeonSize {
    /// Floors, one above the other.
    pub floors: u8,
    /// Slots along x and along z of each floor; at least 3, so that stairs fit.
    pub side: u8,
}

/// One block of the plan: where it stands and how it is turned.
struct PlannedBlock {
    floor: u8,
    slot: (i32, i32),
    shape: Shape,
    quarters: u8,
    /// The sides with an opening, after the turn.
    openings: u8,
}

/// Generates the dungeon `id` of `size` from `seed`, named `name` (its folder and file).
///
/// # Panics
/// When `size` has no floor or fewer than 3 slots a side.
pub(crate) fn generate_dungeon(
    seed: u64,
    id: u16,
    name: &str,
    size: DungeonSize,
) -> GeneratedDungeon {
    assert!(size.floors >= 1 && size.side >= 3, "{size:?}");
    let mut rng = SplitMix64::new(seed ^ (u64::from(id) << 32) ^ 0xD0F);
    let side = i32::from(size.side);
    // The stairs of each floor but the top: a slot of the lower floor whose west and east
    // neighbours exist; the slot above it stays empty.
    // Each floor's stairs keep clear of the floor below's: not on the slot over its ramp, not
    // with the foot's neighbour there, and not where its top lands.
    let mut stairs: Vec<(i32, i32)> = Vec::new();
    for _ in 1..size.floors {
        loop {
            let s = (
                rng.range(1, size.side as u32 - 1) as i32,
                rng.range(0, size.side as u32) as i32,
            );
            let clear = stairs
                .last()
                .is_none_or(|&p| s != p && (s.0 - 1, s.1) != p && (p.0 + 1, p.1) != s);
            if clear {
                stairs.push(s);
                break;
            }
        }
    }
    let mut blocks: Vec<PlannedBlock> = Vec::new();
    // Openings by (floor, slot), as side bits.
    let mut open: BTreeMap<(u8, (i32, i32)), u8> = BTreeMap::new();
    for floor in 0..size.floors {
        let taken_by_stairs = stairs.get(usize::from(floor)).copied();
        let under_stairs = floor
            .checked_sub(1)
            .and_then(|f| stairs.get(usize::from(f)).copied());
        let slots: BTreeSet<(i32, i32)> = (0..side)
            .flat_map(|x| (0..side).map(move |z| (x, z)))
            .filter(|&s| Some(s) != taken_by_stairs && Some(s) != under_stairs)
            .collect();
        for (a, b, s) in maze(&slots, &mut rng) {
            *open.entry((floor, a)).or_default() |= s.bit();
            *open.entry((floor, b)).or_default() |= s.opposite().bit();
        }
        if let Some((x, z)) = taken_by_stairs {
            // The foot opens west on this floor, the top east on the floor above.
            *open.entry((floor, (x - 1, z))).or_default() |= Side::East.bit();
            *open.entry((floor + 1, (x + 1, z))).or_default() |= Side::West.bit();
        }
    }
    for floor in 0..size.floors {
        for x in 0..side {
            for z in 0..side {
                if stairs.get(usize::from(floor)) == Some(&(x, z)) {
                    blocks.push(PlannedBlock {
                        floor,
                        slot: (x, z),
                        shape: Shape::Stairs,
                        quarters: 0,
                        openings: Shape::Stairs.openings(),
                    });
                } else if let Some(&bits) = open.get(&(floor, (x, z))) {
                    let (shape, quarters) = shape_of(bits);
                    blocks.push(PlannedBlock {
                        floor,
                        slot: (x, z),
                        shape,
                        quarters,
                        openings: bits,
                    });
                }
            }
        }
    }
    let meshes: BTreeMap<Shape, NavSection> = Shape::ROOMS_AND_CORRIDORS
        .into_iter()
        .chain([Shape::Stairs])
        .map(|s| (s, block_nav(s)))
        .collect();
    let layout = layout_of(id, size, &blocks, &meshes);
    let routes = routes_of(RegionId(0x8000 | id), &layout, &blocks, &meshes);
    GeneratedDungeon {
        id,
        path: format!("dungeon\\{name}\\{name}.dof"),
        layout,
        routes,
    }
}

/// A maze over `slots`: a random spanning tree of their grid adjacency (a depth-first walk
/// from the first slot, taking neighbours in random order), plus one in eight of the other
/// adjacencies. Each opening as (slot, neighbour, side of the slot it crosses).
fn maze(slots: &BTreeSet<Slot>, rng: &mut SplitMix64) -> Vec<(Slot, Slot, Side)> {
    let mut out = Vec::new();
    let Some(&first) = slots.iter().next() else {
        return out;
    };
    let mut seen = BTreeSet::from([first]);
    let mut stack = vec![first];
    while let Some(&here) = stack.last() {
        let mut sides = Side::ALL;
        for i in (1..sides.len()).rev() {
            sides.swap(i, rng.range(0, i as u32 + 1) as usize);
        }
        let next = sides.into_iter().find_map(|s| {
            let (dx, dz) = s.step();
            let there = (here.0 + dx, here.1 + dz);
            (slots.contains(&there) && !seen.contains(&there)).then_some((there, s))
        });
        match next {
            Some((there, s)) => {
                seen.insert(there);
                out.push((here, there, s));
                stack.push(there);
            }
            None => {
                stack.pop();
            }
        }
    }
    let tree: BTreeSet<((i32, i32), (i32, i32))> =
        out.iter().flat_map(|&(a, b, _)| [(a, b), (b, a)]).collect();
    for &a in slots {
        for s in [Side::East, Side::North] {
            let (dx, dz) = s.step();
            let b = (a.0 + dx, a.1 + dz);
            if slots.contains(&b) && !tree.contains(&(a, b)) && rng.chance(0.125) {
                out.push((a, b, s));
            }
        }
    }
    out
}

/// Where a block's middle lies in the dungeon's frame: slots centred on the origin, so that
/// the dungeon has negative coordinates too.
fn position_of(block: &PlannedBlock, size: DungeonSize) -> [f32; 3] {
    let centre = f32::from(size.side) / 2.0 - 0.5;
    [
        (block.slot.0 as f32 - centre) * BLOCK_SIZE,
        f32::from(block.floor) * FLOOR_RISE,
        (block.slot.1 as f32 - centre) * BLOCK_SIZE,
    ]
}

/// A block's yaw: its quarter turns, in radians.
fn yaw_of(block: &PlannedBlock) -> f32 {
    f32::from(block.quarters) * std::f32::consts::FRAC_PI_2
}

/// A point of a block's mesh in the dungeon's frame, placed as terrain objects are placed
/// (`silknav::objects`): turned by the yaw, then moved.
fn place(local: [f32; 3], position: [f32; 3], yaw: f32) -> [f32; 3] {
    let (c, s) = (f64::from(yaw).cos(), f64::from(yaw).sin());
    let (x, z) = (f64::from(local[0]), f64::from(local[2]));
    [
        (x * c - z * s + f64::from(position[0])) as f32,
        local[1] + position[1],
        (x * s + z * c + f64::from(position[2])) as f32,
    ]
}

/// The slot beyond a side, on the same floor, or on the floor above through the top of a
/// stairs block (the way back down is [`adjacency`]'s).
fn neighbour(block: &PlannedBlock, side: Side) -> (u8, (i32, i32)) {
    let (dx, dz) = side.step();
    let floor = if block.shape == Shape::Stairs && side == Side::East {
        block.floor + 1
    } else {
        block.floor
    };
    (floor, (block.slot.0 + dx, block.slot.1 + dz))
}

/// The blocks that share an opening with each block, as indices, ascending.
fn adjacency(blocks: &[PlannedBlock]) -> Vec<Vec<u32>> {
    let index: BTreeMap<(u8, (i32, i32)), u32> = blocks
        .iter()
        .enumerate()
        .map(|(i, b)| ((b.floor, b.slot), i as u32))
        .collect();
    blocks
        .iter()
        .map(|b| {
            let mut out: Vec<u32> = Side::ALL
                .into_iter()
                .filter(|s| b.openings & s.bit() != 0)
                .filter_map(|s| {
                    index.get(&neighbour(b, s)).copied().or_else(|| {
                        // West of the top of a ramp: the stairs, on the floor below.
                        let (_, slot) = neighbour(b, s);
                        let below = index.get(&(b.floor.checked_sub(1)?, slot)).copied()?;
                        (s == Side::West && blocks[below as usize].shape == Shape::Stairs)
                            .then_some(below)
                    })
                })
                .collect();
            out.sort_unstable();
            out.dedup();
            out
        })
        .collect()
}

fn layout_of(
    id: u16,
    size: DungeonSize,
    blocks: &[PlannedBlock],
    meshes: &BTreeMap<Shape, NavSection>,
) -> DungeonFile {
    let f = F32::from;
    let adjacent = adjacency(blocks);
    let mut rooms = Vec::new();
    let mut placed_boxes = Vec::new();
    let mut dof_blocks = Vec::new();
    for (i, b) in blocks.iter().enumerate() {
        let position = position_of(b, size);
        let yaw = yaw_of(b);
        let nav = &meshes[&b.shape];
        let (mut lo, mut hi) = ([f32::MAX; 3], [f32::MIN; 3]);
        for v in &nav.vertices {
            let local = v.position.map(F32::get);
            let w = place(local, position, yaw);
            for k in 0..3 {
                lo[k] = lo[k].min(w[k]);
                hi[k] = hi[k].max(w[k]);
            }
        }
        placed_boxes.push((lo, hi));
        let h = BLOCK_SIZE / 2.0;
        let room_index = if b.shape.is_room() {
            rooms.push(format!("room {}", rooms.len() + 1).into_bytes());
            rooms.len() as i32 - 1
        } else {
            NO_ROOM
        };
        let objects: Vec<dof::BlockObject> = if b.shape.is_room() {
            [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)]
                .into_iter()
                .map(|(sx, sz)| dof::BlockObject {
                    name: b"pillar".to_vec(),
                    path: format!("{BLOCK_FOLDER}pillar.bsr").into_bytes(),
                    position: [f(sx * PILLAR_OFFSET), f(0.0), f(sz * PILLAR_OFFSET)],
                    rotation: [f(0.0); 3],
                    scale: [f(1.0); 3],
                    flag: OBJECT_COLLISION,
                    unknown: 0,
                    radius_squared: f(PILLAR_RADIUS * PILLAR_RADIUS),
                    water_colour: None,
                })
                .collect()
        } else {
            Vec::new()
        };
        dof_blocks.push(dof::Block {
            path: b.shape.resource_path().into_bytes(),
            name: format!("b{}_{}_{}", b.floor + 1, b.slot.0, b.slot.1).into_bytes(),
            unknown0: 0,
            position: position.map(f),
            yaw: f(yaw),
            is_entrance: u32::from(i == 0),
            bounding_box: BoundingBox {
                min: [f(-h), f(0.0), f(-h)],
                max: [
                    f(h),
                    f(if b.shape == Shape::Stairs {
                        FLOOR_RISE
                    } else {
                        0.0
                    }),
                    f(h),
                ],
            },
            unknown1: 0xFF80_8080,
            fog: Fog {
                colour: 0xFF20_2030,
                near: f(100.0),
                far: f(1200.0),
                intensity: f(1.0),
                height: None,
            },
            extra: None,
            unknown_string: Vec::new(),
            room_index,
            floor_index: u32::from(b.floor),
            connected: adjacent[i].clone(),
            visible: adjacent[i].clone(),
            collision_object_count: objects.len() as u32,
            objects,
            lights: Vec::new(),
        });
    }
    let (mut lo, mut hi) = ([f32::MAX; 3], [f32::MIN; 3]);
    for (a, b) in &placed_boxes {
        for k in 0..3 {
            lo[k] = lo[k].min(a[k]);
            hi[k] = hi[k].max(b[k]);
        }
    }
    // The voxels: every voxel a block's placed box meets lists it.
    let voxel = |v: f32, o: f32| ((v - o) / VOXEL_SIZE).floor().max(0.0) as u32;
    let grid_size = [0, 1, 2].map(|k| voxel(hi[k], lo[k]) + 1);
    let mut voxels: BTreeMap<u32, Vec<u32>> = BTreeMap::new();
    for (i, (a, b)) in placed_boxes.iter().enumerate() {
        for x in voxel(a[0], lo[0])..=voxel(b[0], lo[0]) {
            for y in voxel(a[1], lo[1])..=voxel(b[1], lo[1]) {
                for z in voxel(a[2], lo[2])..=voxel(b[2], lo[2]) {
                    voxels
                        .entry(dof::voxel_id(x, y, z))
                        .or_default()
                        .push(i as u32);
                }
            }
        }
    }
    let floor_groups = (0..size.floors)
        .map(|floor| Group {
            name: format!("floor {}", floor + 1).into_bytes(),
            flag: 0,
            blocks: (0..blocks.len() as u32)
                .filter(|&i| blocks[i as usize].floor == floor)
                .collect(),
        })
        .collect();
    let the_box = BoundingBox {
        min: lo.map(f),
        max: hi.map(f),
    };
    DungeonFile {
        info: dof::Info {
            region_id: 0x8000 | id,
            ..dof::Info::default()
        },
        box0: the_box,
        box1: the_box,
        blocks: dof_blocks,
        grid: VoxelGrid {
            size: grid_size,
            voxels: voxels
                .into_iter()
                .map(|(id, blocks)| Voxel { id, blocks })
                .collect(),
        },
        links: adjacent,
        labels: Some(Labels {
            rooms,
            floors: (0..size.floors)
                .map(|floor| format!("B{}", floor + 1).into_bytes())
                .collect(),
        }),
        groups: floor_groups,
        order: dof::SectionKind::ALL
            .into_iter()
            .map(dof::Placement::new)
            .collect(),
        ..DungeonFile::default()
    }
}

fn routes_of(
    region: RegionId,
    layout: &DungeonFile,
    blocks: &[PlannedBlock],
    meshes: &BTreeMap<Shape, NavSection>,
) -> AiNavData {
    // Each block's link edges in the dungeon's frame: (block, outline edge, cell, ends).
    let mut link_ends: Vec<(u32, u16, u16, [[f32; 3]; 2])> = Vec::new();
    for (i, (b, d)) in blocks.iter().zip(&layout.blocks).enumerate() {
        let nav = &meshes[&b.shape];
        let position = d.position.map(F32::get);
        for (e, edge) in nav.outline_edges.iter().enumerate() {
            if edge.flag == super::meshes::EDGE_LINK {
                let ends = edge.vertices.map(|v| {
                    place(
                        nav.vertices[usize::from(v)].position.map(F32::get),
                        position,
                        d.yaw.get(),
                    )
                });
                link_ends.push((i as u32, e as u16, edge.cells[0], ends));
            }
        }
    }
    let meets = |a: [f32; 3], b: [f32; 3]| (0..3).all(|k| (a[k] - b[k]).abs() < 0.01);
    let mut route_blocks = Vec::new();
    let mut centres = Vec::new();
    for (i, (b, d)) in blocks.iter().zip(&layout.blocks).enumerate() {
        let nav = &meshes[&b.shape];
        let outline = nav.outline_edges.len();
        let edges: Vec<&jmxv::bms::NavEdge> =
            nav.outline_edges.iter().chain(&nav.inline_edges).collect();
        let cells = nav.cells.len();
        // Cell adjacency over the inline edges, with the edge's number.
        let mut next: Vec<Vec<(usize, i16)>> = vec![Vec::new(); cells];
        for (k, e) in nav.inline_edges.iter().enumerate() {
            let [a, c] = e.cells.map(usize::from);
            let number = (outline + k) as i16;
            next[a].push((c, number));
            next[c].push((a, number));
        }
        // toward[goal][start]: the edge from start toward goal.
        let mut toward = vec![vec![NO_EDGE; cells]; cells];
        for (goal, row) in toward.iter_mut().enumerate() {
            let mut seen = vec![false; cells];
            seen[goal] = true;
            let mut queue = VecDeque::from([goal]);
            while let Some(c) = queue.pop_front() {
                for &(n, edge) in &next[c] {
                    if !seen[n] {
                        seen[n] = true;
                        row[n] = edge;
                        queue.push_back(n);
                    }
                }
            }
        }
        let next_edge = SquareTable::from_fn(cells as u32, |goal, start| NextEdge {
            forward: toward[goal as usize][start as usize],
            backward: toward[start as usize][goal as usize],
        });
        let links = link_ends
            .iter()
            .filter(|l| l.0 == i as u32)
            .filter_map(|&(_, _, cell, ends)| {
                let other = link_ends.iter().find(|o| {
                    o.0 != i as u32
                        && ((meets(o.3[0], ends[0]) && meets(o.3[1], ends[1]))
                            || (meets(o.3[0], ends[1]) && meets(o.3[1], ends[0])))
                })?;
                Some(BlockLink {
                    id: u32::from(cell),
                    cell,
                    linked_block: other.0 as u16,
                    linked_edge: other.1,
                })
            })
            .collect();
        route_blocks.push(RouteBlock {
            index: i as u32,
            edge_count: edges.len() as u32,
            next_edge,
            links,
        });
        let position = d.position.map(F32::get);
        centres.push(
            edges
                .iter()
                .map(|e| {
                    let [a, c] = e.vertices.map(|v| {
                        place(
                            nav.vertices[usize::from(v)].position.map(F32::get),
                            position,
                            d.yaw.get(),
                        )
                    });
                    [0, 1, 2].map(|k| F32::from((a[k] + c[k]) / 2.0))
                })
                .collect(),
        );
    }
    // sub_goals[goal][start]: the cell of start's first link on a fewest-blocks way to goal.
    let n = blocks.len();
    let mut sub_goals = vec![vec![NO_CELL; n]; n];
    for (goal, row) in sub_goals.iter_mut().enumerate() {
        let mut seen = vec![false; n];
        seen[goal] = true;
        let mut queue = VecDeque::from([goal]);
        while let Some(b) = queue.pop_front() {
            // Blocks with a link into `b` head for that link's cell.
            for (start, rb) in route_blocks.iter().enumerate() {
                if seen[start] {
                    continue;
                }
                if let Some(link) = rb.links.iter().find(|l| usize::from(l.linked_block) == b) {
                    seen[start] = true;
                    row[start] = link.cell as i16;
                    queue.push_back(start);
                }
            }
        }
    }
    AiNavData {
        region,
        centre_region: region,
        blocks: route_blocks,
        sub_goals: SquareTable::from_fn(n as u32, |goal, start| {
            sub_goals[goal as usize][start as usize]
        }),
        edge_centres: centres,
        ..AiNavData::default()
    }
}

/// The dungeons every generated world has: a catacomb of three floors of 8×8 slots (about
/// 190 blocks) and a cave of two floors of 3×3.
pub fn dungeons(seed: u64) -> Vec<GeneratedDungeon> {
    vec![
        generate_dungeon(seed, 1, "gen_catacomb", DungeonSize { floors: 3, side: 8 }),
        generate_dungeon(seed, 2, "gen_cave", DungeonSize { floors: 2, side: 3 }),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_set_of_openings_is_a_turned_shape() {
        for bits in 1..16u8 {
            let (shape, quarters) = shape_of(bits);
            assert_eq!(turn(shape.openings(), quarters), bits);
        }
        // A quarter turn of yaw takes a local side to the next in Side::ALL: the east side's
        // middle lands north of the block.
        let east = place(
            [BLOCK_SIZE / 2.0, 0.0, 0.0],
            [0.0; 3],
            yaw_of(&PlannedBlock {
                floor: 0,
                slot: (0, 0),
                shape: Shape::Corner,
                quarters: 1,
                openings: 0,
            }),
        );
        assert!(
            east[0].abs() < 1e-4 && (east[2] - BLOCK_SIZE / 2.0).abs() < 1e-4,
            "{east:?}"
        );
    }

    #[test]
    fn the_same_seed_gives_the_same_bytes() {
        let a = dungeons(7);
        let b = dungeons(7);
        let c = dungeons(8);
        for ((x, y), z) in a.iter().zip(&b).zip(&c) {
            assert_eq!(x.layout.to_vec().unwrap(), y.layout.to_vec().unwrap());
            assert_eq!(x.routes.to_vec().unwrap(), y.routes.to_vec().unwrap());
            assert_ne!(x.layout.to_vec().unwrap(), z.layout.to_vec().unwrap());
        }
    }

    #[test]
    fn dungeons_write_back_and_lint_clean() {
        let (meshes, resources) = block_files();
        for (path, mesh) in &meshes {
            assert!(jmxv::bms::lint::lint(mesh).is_empty(), "{path}");
            let bsr = path.replace(".bms", ".bsr");
            assert_eq!(
                resources[&bsr].target_path(),
                Some(path.as_bytes()),
                "{bsr}"
            );
        }
        for d in dungeons(3) {
            let bytes = d.layout.to_vec().unwrap();
            assert_eq!(DungeonFile::parse(&bytes).unwrap(), d.layout);
            assert_eq!(dof::lint::lint(&d.layout), Vec::new(), "{}", d.path);
            let routes = d.routes.to_vec().unwrap();
            assert_eq!(AiNavData::parse(&routes).unwrap(), d.routes);
            assert_eq!(jmxv::ainav::lint::lint(&d.routes), Vec::new(), "{}", d.path);
            let counts: Vec<jmxv::ainav::lint::BlockCounts> = d
                .layout
                .blocks
                .iter()
                .map(|b| {
                    let bsr = String::from_utf8(b.path.clone()).unwrap();
                    let mesh = &meshes[&bsr.replace(".bsr", ".bms")];
                    let nav = mesh.nav.as_ref().unwrap();
                    jmxv::ainav::lint::BlockCounts {
                        cells: nav.cells.len() as u32,
                        edges: (nav.outline_edges.len() + nav.inline_edges.len()) as u32,
                    }
                })
                .collect();
            assert_eq!(
                jmxv::ainav::lint::lint_dungeon(&d.routes, &counts),
                Vec::new(),
                "{}",
                d.path
            );
        }
    }

    /// The catacomb is big enough for the load target (at least 150 blocks on 3 floors), and
    /// every block is reached from the entrance over the links the routes list, floors joined
    /// by stairs; every link edge meets its partner's ends, and rooms' pillars leave the
    /// openings clear.
    #[test]
    fn every_block_is_reached_over_links_and_stairs() {
        for d in dungeons(3) {
            let n = d.layout.blocks.len();
            let floors: BTreeSet<u32> = d.layout.blocks.iter().map(|b| b.floor_index).collect();
            if d.id == 1 {
                assert!(n >= 150 && floors.len() == 3, "{n} blocks on {floors:?}");
                assert!(
                    d.layout.blocks.iter().any(|b| b.yaw.get() != 0.0),
                    "some turned"
                );
                assert!(
                    d.layout.blocks.iter().any(|b| !b.objects.is_empty()),
                    "pillars"
                );
            }
            let mut seen = vec![false; n];
            seen[0] = true;
            let mut queue = VecDeque::from([0usize]);
            while let Some(b) = queue.pop_front() {
                for l in &d.routes.blocks[b].links {
                    let to = usize::from(l.linked_block);
                    // The partner links back.
                    assert!(
                        d.routes.blocks[to]
                            .links
                            .iter()
                            .any(|m| usize::from(m.linked_block) == b),
                        "{} block {b} → {to}",
                        d.path
                    );
                    if !seen[to] {
                        seen[to] = true;
                        queue.push_back(to);
                    }
                }
            }
            assert!(
                seen.iter().all(|&s| s),
                "{}: a block no link reaches",
                d.path
            );
            // Every opening of every block (one per neighbour) is a pair of link edges, each
            // with its partner's ends.
            for (b, rb) in d.routes.blocks.iter().enumerate() {
                let openings = d.layout.links[b].len();
                assert!(openings >= 1, "{} block {b} has no opening", d.path);
                assert_eq!(rb.links.len(), 2 * openings, "{} block {b}", d.path);
            }
            // The sub-goal toward every other block is a cell with a link.
            for goal in 0..n as u32 {
                for start in 0..n as u32 {
                    let cell = *d.routes.sub_goals.get(goal, start).unwrap();
                    if goal == start {
                        assert_eq!(cell, NO_CELL);
                    } else {
                        assert!(
                            d.routes.blocks[start as usize]
                                .links
                                .iter()
                                .any(|l| i32::from(l.cell) == i32::from(cell)),
                            "{} {start} → {goal}: {cell}",
                            d.path
                        );
                    }
                }
            }
        }
    }
}
