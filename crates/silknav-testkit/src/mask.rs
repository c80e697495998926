//! Valid single-region files from a mask of blocked tiles.

use crate::rng::SplitMix64;
use jmxv::nvm::{Link, NavMesh, Object, PLANE_COUNT, PLANE_ICE, PLANE_WATER, TILE_COUNT};
use jmxv::{RegionId, F32};
use silknav::build::{build_region, PlacedObject, RegionInput, TileRect};

/// A region whose tiles are all open: four 960×960 cells, walls on the region border.
pub fn open_region(region: RegionId) -> NavMesh {
    region_from_mask(region, |_, _| false)
}

/// A valid region with the tiles where `blocked(tx, tz)` holds blocked, flat, no objects.
pub fn region_from_mask(region: RegionId, blocked: impl Fn(usize, usize) -> bool) -> NavMesh {
    let mut input = RegionInput::open(region);
    for (t, b) in input.blocked.iter_mut().enumerate() {
        *b = blocked(t % 96, t / 96);
    }
    build_region(&input)
}

/// A game-like region of about 100 cells, 300 edges and 20 objects, the same for the same seed:
/// blocked discs, boxes and a wall, rolling heights, textures, a water and an ice plane, and
/// objects with reciprocal links, and global edges toward open neighbours. It lints clean.
pub fn realistic_region(seed: u64) -> NavMesh {
    let mut rng = SplitMix64::new(seed);
    let region = crate::TEST_REGION;
    let mut input = RegionInput::open(region);

    let mut shapes = Vec::new();
    for _ in 0..7 {
        let (cx, cz, r) = (
            rng.range(8, 88) as i32,
            rng.range(8, 88) as i32,
            rng.range(3, 9) as i32,
        );
        shapes.push((cx, cz, r, rng.chance(0.5)));
    }
    let wall_z = rng.range(20, 76) as usize;
    for (t, b) in input.blocked.iter_mut().enumerate() {
        let (tx, tz) = ((t % 96) as i32, (t / 96) as i32);
        let in_shape = shapes.iter().any(|&(cx, cz, r, disc)| {
            let (dx, dz) = (tx - cx, tz - cz);
            if disc {
                dx * dx + dz * dz <= r * r
            } else {
                dx.abs() <= r && dz.abs() <= r / 2
            }
        });
        // A wall across the region with two gaps, like a fortress wall with gates.
        let in_wall = tz as usize == wall_z && !(30..34).contains(&tx) && !(70..73).contains(&tx);
        *b = in_shape || in_wall;
    }

    let (fx, fz, amp) = (0.5 + rng.unit(), 0.5 + rng.unit(), 40.0 + 80.0 * rng.unit());
    for (v, h) in input.heights.iter_mut().enumerate() {
        let (x, z) = ((v % 97) as f64 / 97.0, (v / 97) as f64 / 97.0);
        let value =
            amp * ((x * fx * 6.3).sin() + (z * fz * 6.3).cos()) + 10.0 * (x * z * 20.0).sin();
        *h = value as f32;
    }
    for t in input.textures.iter_mut() {
        *t = rng.range(0, 12) as u16;
    }
    let water = rng.range(0, PLANE_COUNT as u32) as usize;
    input.planes.types[water] = PLANE_WATER;
    input.planes.heights[water] = F32::from(-20.0);
    let ice = (water + 7) % PLANE_COUNT;
    input.planes.types[ice] = PLANE_ICE;
    input.planes.heights[ice] = F32::from(5.0);

    for k in 0..20u16 {
        let (tx, tz, size) = (
            rng.range(0, 92) as u8,
            rng.range(0, 92) as u8,
            rng.range(1, 5) as u8,
        );
        let yaw = (rng.unit() * std::f64::consts::TAU) as f32;
        input.objects.push(PlacedObject {
            object: Object {
                object_id: rng.range(0, 500),
                position: [
                    F32::from(f32::from(tx) * 20.0 + f32::from(size) * 10.0),
                    F32::from(rng.unit() as f32 * 50.0),
                    F32::from(f32::from(tz) * 20.0 + f32::from(size) * 10.0),
                ],
                kind: if k % 3 == 0 { 0 } else { 0xFFFF },
                yaw: F32::from(yaw),
                uid: k + 1,
                short0: 0,
                is_big: u8::from(size >= 4),
                is_struct: u8::from(k % 5 == 0),
                region_id: region.0,
                links: Vec::new(),
            },
            footprint: TileRect {
                x0: tx,
                z0: tz,
                x1: tx + size,
                z1: tz + size,
            },
        });
    }
    // Reciprocal links between pairs of neighbouring objects, as bridges and gates have.
    for (a, b) in [(0u16, 1u16), (2, 3), (4, 5)] {
        let (ea, eb) = (rng.range(0, 8) as u16, rng.range(0, 8) as u16);
        input.objects[usize::from(a)].object.links.push(Link {
            link_object: b,
            link_edge: eb,
            edge: ea,
        });
        input.objects[usize::from(b)].object.links.push(Link {
            link_object: a,
            link_edge: ea,
            edge: eb,
        });
    }
    debug_assert_eq!(input.blocked.len(), TILE_COUNT);
    // Open neighbours on all sides make the border segments global edges, as in the middle
    // of the game's world, instead of walls.
    let mut inputs = vec![input];
    for (dx, dz) in [
        (-1i16, -1i16),
        (0, -1),
        (1, -1),
        (-1, 0),
        (1, 0),
        (-1, 1),
        (0, 1),
        (1, 1),
    ] {
        let x = (i16::from(region.x()) + dx) as u8;
        let z = (i16::from(region.z()) + dz) as u8;
        inputs.push(RegionInput::open(RegionId::new(x, z)));
    }
    silknav::build::build_world(&inputs)
        .remove(&region)
        .expect("the centre region")
}
