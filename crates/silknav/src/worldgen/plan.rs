//! Terrain, features and objects of each region, and their rasterisation into builder input.

use super::catalog::{object_ids, texture_ids, Ground, ObjectClass, OBJECTS};
use super::meshes;
use super::noise::fbm;
use super::Landscape;
use crate::build::{PlacedObject, RegionInput, TileRect};
use crate::geometry::TILE;
use crate::rng::SplitMix64;
use jmxv::nvm::{Link, Object, PLANES_PER_SIDE, PLANE_ICE, PLANE_WATER, TILES_PER_SIDE};
use jmxv::{RegionId, F32};
use std::collections::BTreeMap;

/// Tiles per region side, as a signed world-tile step.
const N: i32 = TILES_PER_SIDE as i32;
/// Tiles per plane side (320 units).
const PLANE_TILES: i32 = 16;
/// Lakes are the tiles lying wholly below this height.
const WATER_LEVEL: f64 = -150.0;
/// A tile whose corners differ by more than this is a cliff (about 55° over 20 units).
const CLIFF_STEP: f64 = 28.0;

/// The height field and the other pure functions of world position.
pub(crate) struct Terrain {
    seed: u64,
    landscape: Landscape,
}

impl Terrain {
    pub fn new(seed: u64, landscape: Landscape) -> Terrain {
        Terrain { seed, landscape }
    }

    /// Ground height at world position (x, z) in units.
    pub fn height(&self, x: f64, z: f64) -> f64 {
        let s = self.seed;
        let hills = 360.0 * fbm(s, x / 9000.0, z / 9000.0, 4);
        let detail = 45.0 * fbm(s ^ 0x11, x / 1300.0, z / 1300.0, 4);
        if self.landscape == Landscape::Open {
            // Open ground: the same hills and lakes, no badlands and no terraces, so no
            // cliffs break it up.
            return hills + detail;
        }
        // Badlands: where this mask is high, short steep bumps break the ground into many
        // small cliffs, as in the game's rocky regions (their files are the largest).
        let rugged = fbm(s ^ 0x44, x / 6000.0, z / 6000.0, 2);
        let bumps = if rugged > 0.2 {
            ((rugged - 0.2) / 0.15).min(1.0) * 70.0 * fbm(s ^ 0x55, x / 180.0, z / 180.0, 3)
        } else {
            0.0
        };
        let h = hills + detail + bumps;
        // Plateaus: where this mask is high the ground is cut into terraces; the short steep
        // part of each step becomes a cliff.
        let mask = fbm(s ^ 0x22, x / 5000.0, z / 5000.0, 3);
        if mask > 0.15 {
            let step = 95.0;
            let (level, frac) = ((h / step).floor(), (h / step).fract());
            let rise = ((frac - 0.8) / 0.2).clamp(0.0, 1.0);
            let terraced = step * (level + rise);
            let blend = ((mask - 0.15) / 0.1).clamp(0.0, 1.0);
            h + (terraced - h) * blend
        } else {
            h
        }
    }

    /// Height of world vertex (vx, vz), a vertex every tile.
    fn vertex(&self, vx: i32, vz: i32) -> f64 {
        self.height(f64::from(vx) * TILE, f64::from(vz) * TILE)
    }

    /// Lowest and highest corner of world tile (tx, tz).
    fn tile_range(&self, tx: i32, tz: i32) -> (f64, f64) {
        let c = [
            self.vertex(tx, tz),
            self.vertex(tx + 1, tz),
            self.vertex(tx, tz + 1),
            self.vertex(tx + 1, tz + 1),
        ];
        let lo = c.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = c.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        (lo, hi)
    }

    fn is_cliff(&self, tx: i32, tz: i32) -> bool {
        let (lo, hi) = self.tile_range(tx, tz);
        hi - lo > CLIFF_STEP
    }

    fn is_lake(&self, tx: i32, tz: i32) -> bool {
        self.tile_range(tx, tz).1 < WATER_LEVEL
    }

    /// Whether the lakes of the plane containing world tile (tx, tz) are frozen.
    fn is_frozen(&self, tx: i32, tz: i32) -> bool {
        let (px, pz) = (tx.div_euclid(PLANE_TILES), tz.div_euclid(PLANE_TILES));
        fbm(
            self.seed ^ 0x33,
            f64::from(px) / 7.0,
            f64::from(pz) / 7.0,
            2,
        ) > 0.25
    }

    /// Whether a building could stand on these world tiles.
    fn is_buildable(&self, rect: WorldRect) -> bool {
        (rect.z0..rect.z1)
            .all(|z| (rect.x0..rect.x1).all(|x| !self.is_cliff(x, z) && !self.is_lake(x, z)))
    }
}

/// A rectangle of world tiles, half-open.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct WorldRect {
    x0: i32,
    z0: i32,
    x1: i32,
    z1: i32,
}

impl WorldRect {
    /// The rectangle of `width` × `depth` tiles whose low corner is tile (`x`, `z`).
    fn sized(x: i32, z: i32, width: i32, depth: i32) -> WorldRect {
        WorldRect {
            x0: x,
            z0: z,
            x1: x + width,
            z1: z + depth,
        }
    }

    fn contains(self, x: i32, z: i32) -> bool {
        (self.x0..self.x1).contains(&x) && (self.z0..self.z1).contains(&z)
    }

    /// The part of the rectangle in `region`, in its tiles; a rectangle that only touches the
    /// region's border clips to an empty rectangle on that border.
    fn clip_to(self, region: RegionId) -> Option<TileRect> {
        let (ox, oz) = origin_tiles(region);
        let x0 = (self.x0 - ox).max(0);
        let z0 = (self.z0 - oz).max(0);
        let x1 = (self.x1 - ox).min(N);
        let z1 = (self.z1 - oz).min(N);
        (x0 <= x1 && z0 <= z1).then_some(TileRect {
            x0: x0 as u8,
            z0: z0 as u8,
            x1: x1 as u8,
            z1: z1 as u8,
        })
    }

    /// The regions the rectangle touches: those it reaches into, and those whose border it
    /// lies on (a walker crossing that border steps into it).
    fn touched_regions(self) -> impl Iterator<Item = RegionId> {
        let (rx0, rx1) = ((self.x0 - 1).div_euclid(N), self.x1.div_euclid(N));
        let (rz0, rz1) = ((self.z0 - 1).div_euclid(N), self.z1.div_euclid(N));
        (rz0..=rz1)
            .filter(|z| (0..128).contains(z))
            .flat_map(move |z| {
                (rx0..=rx1)
                    .filter(|x| (0..256).contains(x))
                    .map(move |x| RegionId::new(x as u8, z as u8))
            })
    }

    fn regions(self) -> impl Iterator<Item = RegionId> {
        let (rx0, rx1) = (self.x0.div_euclid(N), (self.x1 - 1).div_euclid(N));
        let (rz0, rz1) = (self.z0.div_euclid(N), (self.z1 - 1).div_euclid(N));
        (rz0..=rz1).flat_map(move |z| (rx0..=rx1).map(move |x| RegionId::new(x as u8, z as u8)))
    }
}

/// World tile of a region's south-west corner.
fn origin_tiles(region: RegionId) -> (i32, i32) {
    (i32::from(region.x()) * N, i32::from(region.z()) * N)
}

/// An object this region owns.
#[derive(Debug, Clone)]
struct PlannedObject {
    object_id: u32,
    /// World position in units.
    x: f64,
    z: f64,
    yaw: f32,
    footprint: WorldRect,
    /// A building, gate, bridge or stairs: trodden ground under it.
    structure: bool,
    owner: RegionId,
    uid: u16,
    /// (uid of the partner, the partner's edge, this object's edge).
    links: Vec<(u16, u16, u16)>,
    /// Its height, when not the ground's at (x, z) (a bridge over a lake stands at its
    /// banks' height).
    y: Option<f64>,
}

/// A rock mass: a ragged blob around (cx, cz) of radius about `r` tiles, with a corridor of
/// `corridor_width` tiles winding through it.
#[derive(Debug, Clone)]
struct Rock {
    cx: i32,
    cz: i32,
    r: i32,
    corridor_along_x: bool,
    corridor_width: i32,
    seed: u64,
}

impl Rock {
    fn blocks(&self, x: i32, z: i32) -> bool {
        let (dx, dz) = (f64::from(x - self.cx), f64::from(z - self.cz));
        let r = f64::from(self.r);
        if dx.abs() > 1.5 * r || dz.abs() > 1.5 * r {
            return false;
        }
        // The outline wobbles with the direction, so the mass is no circle.
        let angle = dz.atan2(dx);
        let reach = r
            * (0.8
                + 0.45
                    * fbm(
                        self.seed,
                        angle.cos() * 1.5 + 5.0,
                        angle.sin() * 1.5 + 5.0,
                        3,
                    ));
        if dx.hypot(dz) > reach {
            return false;
        }
        // The corridor's centre line drifts sideways as it goes.
        let (along, across) = if self.corridor_along_x {
            (dx, dz)
        } else {
            (dz, dx)
        };
        let centre = 4.0 * fbm(self.seed ^ 0x77, along / 9.0, 0.5, 2);
        (across - centre).abs() >= f64::from(self.corridor_width) / 2.0 + 0.25
    }
}

/// What a region adds on top of its terrain.
#[derive(Debug, Clone, Default)]
pub(crate) struct RegionPlan {
    walls: Vec<WorldRect>,
    rocks: Vec<Rock>,
    /// Single blocked tiles of open landscapes' boulders.
    boulders: Vec<WorldRect>,
    objects: Vec<PlannedObject>,
}

/// Decides the features and objects of one region. Fortresses and rock masses stay inside it;
/// buildings may cross into a neighbour that is part of the world.
pub(crate) fn plan_region(terrain: &Terrain, region: RegionId, world: &[RegionId]) -> RegionPlan {
    let mut rng = SplitMix64::new(terrain.seed ^ (u64::from(region.0) << 32) ^ 0x5eed);
    let (ox, oz) = origin_tiles(region);
    let mut plan = RegionPlan::default();
    let mut uid = 0u16;
    let mut next_uid = || {
        uid += 1;
        uid
    };

    let open = terrain.landscape == Landscape::Open;
    // The rugged stream decides a fortress first; open ground keeps only a third of them.
    if rng.chance(0.35) && (!open || rng.chance(0.33)) {
        // A fortress: a ring of one-tile walls; gates are gaps flanked by linked gate objects.
        let (w, h) = (rng.range(18, 40) as i32, rng.range(18, 40) as i32);
        let (x0, z0) = (
            ox + rng.range(4, (N - w - 4) as u32) as i32,
            oz + rng.range(4, (N - h - 4) as u32) as i32,
        );
        let (x1, z1) = (x0 + w, z0 + h);
        let gated = rng.chance(0.75);
        let gate_at = x0 + w / 2 - 1;
        let south_gap = x0 + w / 3;
        let wall = |x0, z0, x1, z1| WorldRect { x0, z0, x1, z1 };
        plan.walls.push(wall(x0, z0, x1, z0 + 1));
        plan.walls.push(wall(x0, z0, x0 + 1, z1));
        plan.walls.push(wall(x1 - 1, z0, x1, z1));
        if gated {
            // The north wall has a three-tile gate; the south wall a second, narrow one.
            plan.walls.push(wall(x0, z1 - 1, gate_at, z1));
            plan.walls.push(wall(gate_at + 3, z1 - 1, x1, z1));
            plan.walls.retain(|r| !(r.z0 == z0 && r.z1 == z0 + 1));
            plan.walls.push(wall(x0, z0, south_gap, z0 + 1));
            plan.walls.push(wall(south_gap + 1, z0, x1, z0 + 1));
            let mut gates = Vec::new();
            let ids: Vec<u32> = object_ids(ObjectClass::Gate).collect();
            // The wide gate fills the north gap, the narrow one the south gap.
            for (gx, gw, gz, id) in [(gate_at, 3, z1 - 1, ids[0]), (south_gap, 1, z0, ids[1])] {
                let footprint = WorldRect::sized(gx, gz, gw, 1);
                let (x, z) = centre(footprint);
                gates.push(PlannedObject {
                    object_id: id,
                    x,
                    z,
                    yaw: 0.0,
                    footprint,
                    structure: true,
                    owner: region,
                    uid: next_uid(),
                    links: Vec::new(),
                    y: None,
                });
            }
            // Each gate links one of its open ends to one of the other's.
            let open_end = |id: u32, pick: u32| {
                let nav = meshes::nav_section(&OBJECTS[id as usize]).expect("gates have a mesh");
                let open: Vec<u16> = (0..nav.outline_edges.len() as u16)
                    .filter(|&e| nav.outline_edges[usize::from(e)].flag == meshes::EDGE_OPEN)
                    .collect();
                open[pick as usize % open.len()]
            };
            let ea = open_end(gates[0].object_id, rng.range(0, 4));
            let eb = open_end(gates[1].object_id, rng.range(0, 4));
            let (ua, ub) = (gates[0].uid, gates[1].uid);
            gates[0].links.push((ub, eb, ea));
            gates[1].links.push((ua, ea, eb));
            plan.objects.extend(gates);
        } else {
            plan.walls.push(wall(x0, z1 - 1, x1, z1));
        }
        for _ in 0..rng.range(2, 6) {
            let (object_id, yaw, bw, bh) = pick(&mut rng, ObjectClass::Building);
            let fx = rng.range((x0 + 2) as u32, (x1 - bw - 2).max(x0 + 3) as u32) as i32;
            let fz = rng.range((z0 + 2) as u32, (z1 - bh - 2).max(z0 + 3) as u32) as i32;
            let footprint = WorldRect::sized(fx, fz, bw, bh);
            if terrain.is_buildable(footprint) && !overlaps_any(&plan, footprint) {
                plan.objects
                    .push(structure(object_id, yaw, footprint, region, next_uid()));
            }
        }
    }

    if rng.chance(0.3) && !open {
        // A rock mass of ragged outline with a thin, winding corridor through it.
        let r = rng.range(7, 15) as i32;
        let (cx, cz) = (
            ox + rng.range(r as u32 + 4, (N - r - 4) as u32) as i32,
            oz + rng.range(r as u32 + 4, (N - r - 4) as u32) as i32,
        );
        plan.rocks.push(Rock {
            cx,
            cz,
            r,
            corridor_along_x: rng.chance(0.5),
            corridor_width: rng.range(1, 3) as i32,
            seed: rng.next_u64(),
        });
    }

    // A village: buildings on open ground; some straddle a region border.
    for _ in 0..rng.range(2, 9) {
        let (object_id, yaw, bw, bh) = pick(&mut rng, ObjectClass::Building);
        let on_border = rng.chance(0.2);
        let fx = if on_border && rng.chance(0.5) {
            ox + N - bw / 2 - 1
        } else {
            ox + rng.range(1, (N - bw - 1) as u32) as i32
        };
        let fz = if on_border && fx < ox + N - bw {
            oz + N - bh / 2 - 1
        } else {
            oz + rng.range(1, (N - bh - 1) as u32) as i32
        };
        let footprint = WorldRect::sized(fx, fz, bw, bh);
        let inside_world = footprint.regions().all(|r| world.contains(&r));
        if inside_world && terrain.is_buildable(footprint) && !overlaps_any(&plan, footprint) {
            plan.objects
                .push(structure(object_id, yaw, footprint, region, next_uid()));
        }
    }

    // A bridge over walkable ground: two halves meeting at their inner ends, the second
    // turned half a turn, each linking its inner end to the other's; a few tries, inside the
    // region, on ground a building could stand on.
    for _ in 0..6 {
        let (object_id, yaw, bw, bh) = pick(&mut rng, ObjectClass::Bridge);
        let turn = (yaw / std::f32::consts::FRAC_PI_2).round() as u32;
        let (uw, uh) = if turn % 2 == 0 {
            (2 * bw, bh)
        } else {
            (bw, 2 * bh)
        };
        let fx = ox + rng.range(2, (N - uw - 2) as u32) as i32;
        let fz = oz + rng.range(2, (N - uh - 2) as u32) as i32;
        let whole = WorldRect::sized(fx, fz, uw, uh);
        if !terrain.is_buildable(whole) || overlaps_any(&plan, whole) {
            continue;
        }
        let uids = (next_uid(), next_uid());
        plan.objects
            .extend(bridge_halves(object_id, turn, whole, region, uids, None));
        break;
    }

    // Stairs up to a landing, inside the region; a few tries, on ground a building could
    // stand on.
    for _ in 0..6 {
        let (object_id, yaw, bw, bh) = pick(&mut rng, ObjectClass::Stairs);
        let fx = ox + rng.range(2, (N - bw - 2) as u32) as i32;
        let fz = oz + rng.range(2, (N - bh - 2) as u32) as i32;
        let footprint = WorldRect::sized(fx, fz, bw, bh);
        if terrain.is_buildable(footprint) && !overlaps_any(&plan, footprint) {
            plan.objects
                .push(structure(object_id, yaw, footprint, region, next_uid()));
            break;
        }
    }

    // Trees and rocks: they stand on open ground and block nothing.
    let props: Vec<u32> = object_ids(ObjectClass::Prop).collect();
    for _ in 0..rng.range(4, 16) {
        let (tx, tz) = (
            ox + rng.range(0, N as u32) as i32,
            oz + rng.range(0, N as u32) as i32,
        );
        let footprint = WorldRect::sized(tx, tz, 1, 1);
        if terrain.is_buildable(footprint) && !overlaps_any(&plan, footprint) {
            let (x, z) = centre(footprint);
            plan.objects.push(PlannedObject {
                object_id: props[rng.range(0, props.len() as u32) as usize],
                x: x + rng.unit() * 8.0 - 4.0,
                z: z + rng.unit() * 8.0 - 4.0,
                yaw: (rng.unit() * std::f64::consts::TAU) as f32,
                footprint,
                structure: false,
                owner: region,
                uid: next_uid(),
                links: Vec::new(),
                y: None,
            });
        }
    }

    // What the rugged plan above did not need: its own random stream, so that adding these
    // left every world generated before they existed as it was.
    let mut extra = SplitMix64::new(terrain.seed ^ (u64::from(region.0) << 32) ^ 0xb41d6e);
    if let Some((object_id, turn, whole, y)) = water_bridge(terrain, region, &plan, &mut extra) {
        let uids = (next_uid(), next_uid());
        plan.objects
            .extend(bridge_halves(object_id, turn, whole, region, uids, Some(y)));
    }
    if terrain.landscape == Landscape::Open {
        plan.boulders = boulders(terrain, region, &plan, &mut extra);
    }
    plan
}

/// The two halves of a bridge over `whole`, turned `turn` quarter turns: the first at the end
/// its inner end (its own +x) faces away from, the second beside it turned half a turn more,
/// each linking its inner end to the other's.
fn bridge_halves(
    object_id: u32,
    turn: u32,
    whole: WorldRect,
    owner: RegionId,
    uids: (u16, u16),
    y: Option<f64>,
) -> [PlannedObject; 2] {
    let (sx, sz): (i32, i32) = [(1, 0), (0, 1), (-1, 0), (0, -1)][(turn % 4) as usize];
    let (bw, bh) = if sx != 0 {
        ((whole.x1 - whole.x0) / 2, whole.z1 - whole.z0)
    } else {
        (whole.x1 - whole.x0, (whole.z1 - whole.z0) / 2)
    };
    let first = WorldRect {
        x0: if sx < 0 { whole.x0 + bw } else { whole.x0 },
        z0: if sz < 0 { whole.z0 + bh } else { whole.z0 },
        x1: if sx < 0 { whole.x1 } else { whole.x0 + bw },
        z1: if sz < 0 { whole.z1 } else { whole.z0 + bh },
    };
    let second = WorldRect {
        x0: first.x0 + sx * bw,
        z0: first.z0 + sz * bh,
        x1: first.x1 + sx * bw,
        z1: first.z1 + sz * bh,
    };
    let yaw = turn as f32 * std::f32::consts::FRAC_PI_2;
    let link = meshes::bridge_link_edge(&OBJECTS[object_id as usize]);
    let mut a = structure(object_id, yaw, first, owner, uids.0);
    let mut b = structure(object_id, yaw + std::f32::consts::PI, second, owner, uids.1);
    a.links.push((b.uid, link, link));
    b.links.push((a.uid, link, link));
    a.y = y;
    b.y = y;
    [a, b]
}

/// A bridge across a lake of the region (two halves, as [`bridge_halves`] places them): its
/// deck's two end rows on dry, buildable ground, lake under at least half of the rows between,
/// and nothing else in its way; at the height of its higher bank (never below the water).
/// Every fitting place of every bridge and turn is found on the region's tile mask, and one is
/// picked: (object id, quarter turns, the whole deck's rectangle, its height); `None` when no
/// lake is near or none fits.
fn water_bridge(
    terrain: &Terrain,
    region: RegionId,
    plan: &RegionPlan,
    rng: &mut SplitMix64,
) -> Option<(u32, u32, WorldRect, f64)> {
    let (ox, oz) = origin_tiles(region);
    // Most regions have no lake: a coarse look at the heights decides that cheaply.
    let near_water = (0..=12).any(|j| {
        (0..=12).any(|i| {
            let (x, z) = (ox + i * 8, oz + j * 8);
            terrain.vertex(x, z) < WATER_LEVEL + 60.0
        })
    });
    if !near_water {
        return None;
    }
    // The region's heights once, then its lake and dry tiles.
    let w = (N + 1) as usize;
    let mut grid = vec![0.0f64; w * w];
    for vz in 0..=N {
        for vx in 0..=N {
            grid[vz as usize * w + vx as usize] = terrain.vertex(ox + vx, oz + vz);
        }
    }
    let range = |x: i32, z: i32| {
        let v = z as usize * w + x as usize;
        let c = [grid[v], grid[v + 1], grid[v + w], grid[v + w + 1]];
        (
            c.iter().copied().fold(f64::INFINITY, f64::min),
            c.iter().copied().fold(f64::NEG_INFINITY, f64::max),
        )
    };
    let lake = |x: i32, z: i32| range(x, z).1 < WATER_LEVEL;
    let dry = |x: i32, z: i32| {
        let (lo, hi) = range(x, z);
        hi >= WATER_LEVEL && hi - lo <= CLIFF_STEP
    };
    let mut fits = Vec::new();
    for object_id in object_ids(ObjectClass::Bridge) {
        let (w, d) = OBJECTS[object_id as usize].size;
        // The catalog's mesh is half a bridge: two of them make the deck.
        let (length, rows) = (2 * i32::from(w), i32::from(d));
        for turn in 0..4u32 {
            let along_x = turn % 2 == 0;
            let (bw, bh) = if along_x {
                (length, rows)
            } else {
                (rows, length)
            };
            for fz in 2..N - bh - 2 {
                for fx in 2..N - bw - 2 {
                    let tile = |i: i32, j: i32| {
                        if along_x {
                            (fx + i, fz + j)
                        } else {
                            (fx + j, fz + i)
                        }
                    };
                    let all = |i: i32, test: &dyn Fn(i32, i32) -> bool| {
                        (0..rows).all(|j| {
                            let (x, z) = tile(i, j);
                            test(x, z)
                        })
                    };
                    if !all(0, &dry) || !all(length - 1, &dry) {
                        continue;
                    }
                    let wet = (1..length - 1).filter(|&i| all(i, &lake)).count() as i32;
                    if 2 * wet >= length - 2 {
                        fits.push((object_id, turn, fx, fz, bw, bh));
                    }
                }
            }
        }
    }
    // Places clear of what is planned already, each equally likely.
    fits.retain(|&(_, _, fx, fz, bw, bh)| {
        !overlaps_any(
            plan,
            WorldRect {
                x0: ox + fx,
                z0: oz + fz,
                x1: ox + fx + bw,
                z1: oz + fz + bh,
            },
        )
    });
    if fits.is_empty() {
        return None;
    }
    let (object_id, turn, fx, fz, bw, bh) = fits[rng.range(0, fits.len() as u32) as usize];
    let footprint = WorldRect {
        x0: ox + fx,
        z0: oz + fz,
        x1: ox + fx + bw,
        z1: oz + fz + bh,
    };
    // The ends' ground heights: the middle of the first and the last row of the deck.
    let (cx, cz) = centre(footprint);
    let half = f64::from(bw.max(bh)) * 10.0 - 10.0;
    let bank = |sign: f64| {
        if bw >= bh {
            terrain.height(cx + sign * half, cz)
        } else {
            terrain.height(cx, cz + sign * half)
        }
    };
    let y = bank(-1.0).max(bank(1.0)).max(WATER_LEVEL);
    Some((object_id, turn, footprint, y))
}

/// Scattered boulders of an open region: small ragged clusters of blocked tiles on dry ground,
/// clear of the objects and walls already planned.
fn boulders(
    terrain: &Terrain,
    region: RegionId,
    plan: &RegionPlan,
    rng: &mut SplitMix64,
) -> Vec<WorldRect> {
    let (ox, oz) = origin_tiles(region);
    let mut tiles = Vec::new();
    for _ in 0..rng.range(12, 30) {
        let (cx, cz) = (
            ox + rng.range(2, (N - 2) as u32) as i32,
            oz + rng.range(2, (N - 2) as u32) as i32,
        );
        // A random walk of 1 to 12 steps from the centre, each step one tile.
        let (mut x, mut z) = (cx, cz);
        let mut cluster = vec![(x, z)];
        for _ in 0..rng.range(0, 12) {
            match rng.range(0, 4) {
                0 => x += 1,
                1 => x -= 1,
                2 => z += 1,
                _ => z -= 1,
            }
            cluster.push((x, z));
        }
        let fits = cluster.iter().all(|&(x, z)| {
            let tile = WorldRect::sized(x, z, 1, 1);
            (ox + 1..ox + N - 1).contains(&x)
                && (oz + 1..oz + N - 1).contains(&z)
                && terrain.is_buildable(tile)
                && !overlaps_any(plan, tile)
        });
        if fits {
            tiles.extend(
                cluster
                    .into_iter()
                    .map(|(x, z)| WorldRect::sized(x, z, 1, 1)),
            );
        }
    }
    tiles.sort_by_key(|t| (t.z0, t.x0));
    tiles.dedup();
    tiles
}

/// An object of a class with a yaw of a quarter turn: (id, yaw, tiles along world x, z).
fn pick(rng: &mut SplitMix64, class: ObjectClass) -> (u32, f32, i32, i32) {
    let ids: Vec<u32> = object_ids(class).collect();
    let id = ids[rng.range(0, ids.len() as u32) as usize];
    let turn = rng.range(0, 4);
    let (w, d) = OBJECTS[id as usize].size;
    let (w, d) = (i32::from(w), i32::from(d));
    // A quarter turn swaps the mesh's extents along world x and z.
    let (along_x, along_z) = if turn % 2 == 1 { (d, w) } else { (w, d) };
    (
        id,
        turn as f32 * std::f32::consts::FRAC_PI_2,
        along_x,
        along_z,
    )
}

fn structure(
    object_id: u32,
    yaw: f32,
    footprint: WorldRect,
    owner: RegionId,
    uid: u16,
) -> PlannedObject {
    let (x, z) = centre(footprint);
    PlannedObject {
        object_id,
        x,
        z,
        yaw,
        footprint,
        structure: true,
        owner,
        uid,
        links: Vec::new(),
        y: None,
    }
}

fn centre(r: WorldRect) -> (f64, f64) {
    (f64::from(r.x0 + r.x1) * 10.0, f64::from(r.z0 + r.z1) * 10.0)
}

fn overlaps_any(plan: &RegionPlan, r: WorldRect) -> bool {
    let grown = WorldRect {
        x0: r.x0 - 1,
        z0: r.z0 - 1,
        x1: r.x1 + 1,
        z1: r.z1 + 1,
    };
    let hit =
        |o: WorldRect| o.x0 < grown.x1 && grown.x0 < o.x1 && o.z0 < grown.z1 && grown.z0 < o.z1;
    plan.objects.iter().any(|o| hit(o.footprint)) || plan.walls.iter().copied().any(hit)
}

/// The builder input of one region: its tiles, heights, planes and the objects it lists (its
/// own first, then those of neighbours whose footprint reaches into it).
pub(crate) fn rasterise(
    terrain: &Terrain,
    region: RegionId,
    plans: &BTreeMap<RegionId, RegionPlan>,
) -> RegionInput {
    let (ox, oz) = origin_tiles(region);
    let mut input = RegionInput::open(region);
    let nearby: Vec<&RegionPlan> = (-1..=1)
        .flat_map(|dz| (-1..=1).map(move |dx| (dx, dz)))
        .filter_map(|(dx, dz)| {
            let (x, z) = (i32::from(region.x()) + dx, i32::from(region.z()) + dz);
            if !(0..256).contains(&x) || !(0..128).contains(&z) {
                return None;
            }
            plans.get(&RegionId::new(x as u8, z as u8))
        })
        .collect();

    let mut grid = vec![0.0f64; ((N + 1) * (N + 1)) as usize];
    for vz in 0..=N {
        for vx in 0..=N {
            let h = terrain.vertex(ox + vx, oz + vz);
            grid[(vz * (N + 1) + vx) as usize] = h;
            input.heights[(vz * (N + 1) + vx) as usize] = h as f32;
        }
    }

    let mut water = [false; 36];
    let frozen_plane: Vec<bool> = (0..36)
        .map(|p| terrain.is_frozen(ox + (p % 6) * PLANE_TILES, oz + (p / 6) * PLANE_TILES))
        .collect();
    for tz in 0..N {
        for tx in 0..N {
            let (wx, wz) = (ox + tx, oz + tz);
            let t = (tz * N + tx) as usize;
            let plane = ((tz / PLANE_TILES) * PLANES_PER_SIDE as i32 + tx / PLANE_TILES) as usize;
            // The tile's corner heights, from the grid computed once above (the noise is the
            // expensive part of generation).
            let v = (tz * (N + 1) + tx) as usize;
            let w = (N + 1) as usize;
            let corners = [grid[v], grid[v + 1], grid[v + w], grid[v + w + 1]];
            let lo = corners.iter().copied().fold(f64::INFINITY, f64::min);
            let hi = corners.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let lake = hi < WATER_LEVEL;
            water[plane] |= lake;
            let cliff = hi - lo > CLIFF_STEP;
            let wall = nearby
                .iter()
                .any(|p| p.walls.iter().any(|w| w.contains(wx, wz)));
            let rock = nearby.iter().any(|p| {
                p.rocks.iter().any(|r| r.blocks(wx, wz))
                    || p.boulders.iter().any(|b| b.contains(wx, wz))
            });
            // Ground under a structure stays open, as in the game: its mesh's outline decides
            // who enters; the ground is only trodden.
            let structure = nearby.iter().any(|p| {
                p.objects
                    .iter()
                    .any(|o| o.structure && o.footprint.contains(wx, wz))
            });
            let frozen = lake && frozen_plane[plane];
            input.blocked[t] = cliff || (lake && !frozen) || wall || rock;
            let ground = if structure || wall {
                Ground::Dirt
            } else if cliff || rock {
                Ground::Rock
            } else if lake || lo < WATER_LEVEL + 15.0 {
                Ground::Sand
            } else if hi > 200.0 || frozen {
                Ground::Snow
            } else {
                Ground::Grass
            };
            let choices: Vec<u16> = texture_ids(ground).collect();
            input.textures[t] =
                choices[((wx * 31 + wz * 17).rem_euclid(choices.len() as i32)) as usize];
        }
    }
    for (plane, &has_water) in water.iter().enumerate() {
        if has_water {
            let (px, pz) = (
                (plane % PLANES_PER_SIDE) as i32,
                (plane / PLANES_PER_SIDE) as i32,
            );
            let frozen = terrain.is_frozen(ox + px * PLANE_TILES, oz + pz * PLANE_TILES);
            // Frozen lakes: some planes are ice only, some ice over water (type 3), as in the game.
            input.planes.types[plane] = match (frozen, (px + pz) % 2 == 0) {
                (false, _) => PLANE_WATER,
                (true, true) => PLANE_WATER | PLANE_ICE,
                (true, false) => PLANE_ICE,
            };
            input.planes.heights[plane] = F32::from(WATER_LEVEL as f32);
        }
    }

    // Objects: this region's own, then neighbours' whose footprint reaches in or touches the
    // border (the server sees an object only through the cells of the region a walker is in).
    let mut listed: Vec<&PlannedObject> = plans
        .get(&region)
        .map(|p| p.objects.iter().collect())
        .unwrap_or_default();
    for p in &nearby {
        for o in &p.objects {
            if o.owner != region && o.footprint.touched_regions().any(|r| r == region) {
                listed.push(o);
            }
        }
    }
    let index_of =
        |owner: RegionId, uid: u16| listed.iter().position(|o| o.owner == owner && o.uid == uid);
    let (wx0, wz0) = (f64::from(ox) * TILE, f64::from(oz) * TILE);
    for o in &listed {
        let Some(footprint) = o.footprint.clip_to(region) else {
            continue;
        };
        let links = o
            .links
            .iter()
            .map(|&(partner, link_edge, edge)| Link {
                link_object: index_of(o.owner, partner).map_or(u16::MAX, |i| i as u16),
                link_edge,
                edge,
            })
            .collect();
        let area = (o.footprint.x1 - o.footprint.x0) * (o.footprint.z1 - o.footprint.z0);
        input.objects.push(PlacedObject {
            object: Object {
                object_id: o.object_id,
                position: [
                    F32::from((o.x - wx0) as f32),
                    F32::from(o.y.unwrap_or_else(|| terrain.height(o.x, o.z)) as f32),
                    F32::from((o.z - wz0) as f32),
                ],
                kind: 0xFFFF,
                yaw: F32::from(o.yaw),
                uid: o.uid,
                short0: 0,
                is_big: u8::from(area >= 16 || o.footprint.regions().count() > 1),
                is_struct: u8::from(o.structure && area >= 12),
                region_id: o.owner.0,
                links,
            },
            footprint,
        });
    }
    input
}
