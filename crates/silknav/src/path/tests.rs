//! The visibility scan against line of sight, corner by corner.

use super::index::{direction_class, NONE};
use super::visibility::{sees, ScanScratch};
use crate::{Position, World};
use jmxv::nvm::EDGE_BLOCKED;

/// Every corner pair within 30 tiles: the scan sees the other corner (in a direction taut at
/// the first) exactly when line of sight says the segment is clear.
fn check(name: &str, world: &World) {
    let index = world.path_index();
    assert!(!index.corners.is_empty());
    let mut stack = ScanScratch::default();
    let mut compared = 0;
    for (c, corner) in index.corners.iter().enumerate() {
        let p = corner.point();
        let roots: Vec<u32> = index.corner_roots[c]
            .iter()
            .copied()
            .filter(|&r| r != NONE)
            .collect();
        let mut seen = vec![false; index.corners.len()];
        sees(index, p, &roots, None, &mut stack, |d, cone| {
            if cone.map_or(true, |k| k.holds(p, d.point())) {
                seen[d.id as usize] = true;
            }
        });
        for (d, other) in index.corners.iter().enumerate() {
            if d == c || (other.gx - corner.gx).abs() > 30 || (other.gz - corner.gz).abs() > 30 {
                continue;
            }
            let q = other.point();
            let Some(class) = direction_class(p, q) else {
                continue;
            };
            if corner.taut_mask & (1 << class) == 0 {
                continue;
            }
            let (a, b) = (
                Position::from_world(p[0], p[1]).unwrap(),
                Position::from_world(q[0], q[1]).unwrap(),
            );
            if world.line_of_sight(a, b) != Ok(seen[d]) && std::env::var("SCAN_DEBUG").is_ok() {
                eprintln!(
                    "corner arc {:?} mask {:b} roots {:?}",
                    corner.arc, corner.taut_mask, index.corner_roots[c]
                );
                for (i, r) in index.rects.iter().enumerate() {
                    let near = |g: i32, lo: i32, hi: i32| lo <= g + 8 && hi >= g - 8;
                    if near(corner.gx, r.x0, r.x1) && near(corner.gz, r.z0, r.z1) {
                        eprintln!("rect {i} x {}..{} z {}..{}", r.x0, r.x1, r.z0, r.z1);
                        for p in index.contacts_of(i as u32) {
                            eprintln!(
                                "    contact {:?} line {} {}..{} to {}",
                                p.side, p.line, p.lo, p.hi, p.to
                            );
                        }
                        for p in index.portals_of(i as u32) {
                            eprintln!(
                                "    portal {:?} line {} {}..{} to {}",
                                p.side, p.line, p.lo, p.hi, p.to
                            );
                        }
                    }
                }
            }
            assert_eq!(
                world.line_of_sight(a, b),
                Ok(seen[d]),
                "{name}: corner ({}, {}) → ({}, {})",
                corner.gx,
                corner.gz,
                other.gx,
                other.gz
            );
            compared += 1;
        }
    }
    assert!(compared > 1000, "only {compared} pairs");
}

#[test]
fn scan_sees_what_line_of_sight_sees() {
    let region = silknav_testkit::TEST_REGION;
    let mesh = silknav_testkit::realistic_region(7);
    check("realistic", &World::from_navmeshes([(region, &mesh)]));
}

#[test]
fn scan_sees_what_line_of_sight_sees_with_thin_walls() {
    let region = silknav_testkit::TEST_REGION;
    for (modulus, every) in [(29, 3), (13, 2), (41, 4), (17, 5)] {
        let mut mesh = silknav_testkit::region_from_mask(region, |x, z| {
            (x * 7 + z * 3) % modulus == 0 || (30..34).contains(&x) && (30..60).contains(&z)
        });
        // Some passable edges between two cells become walls.
        for (k, e) in mesh
            .internal_edges
            .iter_mut()
            .filter(|e| e.flag & EDGE_BLOCKED == 0 && e.cell[1] != u16::MAX)
            .enumerate()
        {
            if k % every == 0 {
                e.flag |= EDGE_BLOCKED;
            }
        }
        check(
            &format!("mask {modulus}, walls {every}"),
            &World::from_navmeshes([(region, &mesh)]),
        );
    }
}

#[test]
fn index_stats_are_the_first_build_and_its_time() {
    let mesh = silknav_testkit::realistic_region(7);
    let world = World::from_navmeshes([(silknav_testkit::TEST_REGION, &mesh)]);
    let first = world.prepare_paths();
    assert!(
        first.corners > 0 && first.rects > 0 && first.edges > 0,
        "{first:?}"
    );
    assert!(first.build_time > std::time::Duration::ZERO, "{first:?}");
    // Built once: asking again reports the same index and the same build.
    assert_eq!(world.prepare_paths(), first);
}
