//! The visibility scan against line of sight, corner by corner.

use super::index::{direction_class, vertex_point, PathIndex, NONE};
use super::visibility::{scan, sees, Cone, ScanScratch};
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
                                p.side(),
                                p.line,
                                p.lo,
                                p.hi,
                                p.to
                            );
                        }
                        for p in index.portals_of(i as u32) {
                            eprintln!(
                                "    portal {:?} line {} {}..{} to {}",
                                p.side(),
                                p.line,
                                p.lo,
                                p.hi,
                                p.to
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

/// Per corner the corners it has edges to, and per rectangle the (corner, cone) records of how
/// corners see it.
type PlainGraph = (Vec<Vec<u32>>, Vec<Vec<(u32, Cone)>>);

/// The graph as first built, the plain way: every corner scans every direction and keeps the
/// corners it sees in directions taut at both ends; and the "seen by" records of those scans.
fn graph_by_full_scans(index: &PathIndex) -> PlainGraph {
    let mut edges = vec![Vec::new(); index.corners.len()];
    let mut seen = vec![Vec::new(); index.rects.len()];
    let mut stack = ScanScratch::default();
    for (c, corner) in index.corners.iter().enumerate() {
        let p = corner.point();
        let roots: Vec<u32> = index.corner_roots[c]
            .iter()
            .copied()
            .filter(|&r| r != NONE)
            .collect();
        scan(index, p, &roots, &mut stack, |rect, cone| {
            seen[rect as usize].push((
                c as u32,
                cone.copied().unwrap_or(Cone { right: p, left: p }),
            ));
            for other in index.corners_of(rect) {
                let q = other.point();
                let Some(class) = direction_class(p, q) else {
                    continue;
                };
                if corner.taut_mask & (1 << class) != 0
                    && other.taut_mask & (1 << ((class + 4) % 8)) != 0
                    && cone.map_or(true, |k| k.holds(p, q))
                {
                    edges[c].push(other.id);
                }
            }
            false
        });
        edges[c].sort_unstable();
        edges[c].dedup();
    }
    (edges, seen)
}

/// The corners that see `s` from a taut direction by a rectangle's records.
fn seeing(index: &PathIndex, records: impl Iterator<Item = (u32, Cone)>, s: [f64; 2]) -> Vec<u32> {
    let mut out: Vec<u32> = records
        .filter(|(c, cone)| {
            let corner = &index.corners[*c as usize];
            let p = corner.point();
            direction_class(p, s).is_some_and(|k| corner.taut_mask & (1 << k) != 0)
                && cone.holds(p, s)
        })
        .map(|(c, _)| c)
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// The fast build (half the directions per corner, each edge found once, in parallel) against
/// the plain one: the same edges at every corner, and from every sample point of every
/// rectangle the same corners in sight by the records.
fn check_graph(name: &str, world: &World) {
    let index = world.path_index();
    assert!(index.has_seen_by(), "{name}: records kept");
    let (edges, seen) = graph_by_full_scans(index);
    for (c, want) in edges.iter().enumerate() {
        let got: Vec<u32> = index.edges_of(c as u32).iter().map(|e| e.to).collect();
        assert_eq!(&got, want, "{name}: corner {c}");
        for e in index.edges_of(c as u32) {
            let to = &index.corners[e.to as usize];
            assert_eq!((i32::from(e.gx), i32::from(e.gz)), (to.gx, to.gz));
        }
    }
    let mut rng = crate::rng::SplitMix64::new(11);
    let mut compared = 0;
    for (r, rect) in index.rects.iter().enumerate() {
        let mut samples = vec![
            vertex_point(rect.x0, rect.z0),
            vertex_point(rect.x1, rect.z1),
            vertex_point(rect.x0, rect.z1),
            vertex_point(rect.x1, rect.z0),
        ];
        for _ in 0..3 {
            let mut along = |a: i32, b: i32| {
                let t = (rng.next_u64() % 1024) as f64 / 1024.0;
                (f64::from(a) + t * f64::from(b - a)) * 20.0
            };
            samples.push([along(rect.x0, rect.x1), along(rect.z0, rect.z1)]);
        }
        for s in samples {
            let want = seeing(index, seen[r].iter().copied(), s);
            let got = seeing(
                index,
                index.seen_by(r as u32).iter().map(|k| (k.corner, k.cone())),
                s,
            );
            assert_eq!(got, want, "{name}: rect {r} point {s:?}");
            compared += usize::from(!want.is_empty());
        }
    }
    assert!(compared > 100, "{name}: only {compared} points see corners");
}

#[test]
fn the_graph_equals_the_one_of_full_scans() {
    let region = silknav_testkit::TEST_REGION;
    let mesh = silknav_testkit::realistic_region(7);
    check_graph("realistic", &World::from_navmeshes([(region, &mesh)]));
    let mut walls = silknav_testkit::region_from_mask(region, |x, z| {
        (x * 7 + z * 3) % 13 == 0 || (30..34).contains(&x) && (30..60).contains(&z)
    });
    for (k, e) in walls
        .internal_edges
        .iter_mut()
        .filter(|e| e.flag & EDGE_BLOCKED == 0 && e.cell[1] != u16::MAX)
        .enumerate()
    {
        if k % 3 == 0 {
            e.flag |= EDGE_BLOCKED;
        }
    }
    check_graph("thin walls", &World::from_navmeshes([(region, &walls)]));
    let generated = crate::worldgen::generate(&crate::worldgen::GenOptions {
        seed: 2,
        width: 2,
        height: 2,
        origin: (40, 30),
        ..Default::default()
    })
    .unwrap();
    check_graph(
        "generated 2×2",
        &World::from_navmeshes(generated.regions.iter().map(|(r, m)| (*r, m))),
    );
}
