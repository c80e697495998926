//! Worlds with objects: the files found through `object.ifo` (any case, `.bsr` and `.cpd`
//! followed), instances deduplicated, broken references reported, and `cell_at`, `cell_at_y`
//! and `height_at_y` checked against a brute-force oracle over every triangle of every
//! instance.

use jmxv::bms::ObjectMesh;
use jmxv::RegionId;
use silknav::geometry::orient;
use silknav::objects::resolve::{ObjectProblem, ObjectResolver};
use silknav::objects::{InstanceKey, ObjectCellRef};
use silknav::{LoadFindingKind, LoadOptions, Position, World};
use silknav_testkit::object_world::{ids, write_object_world, ObjectWorld, EAST, WEST};
use silknav_testkit::rng::SplitMix64;
use std::collections::BTreeMap;

fn world() -> (tempfile::TempDir, ObjectWorld, World) {
    let dir = tempfile::tempdir().unwrap();
    let files = write_object_world(dir.path());
    let world = World::load(dir.path()).unwrap();
    (dir, files, world)
}

/// An instance as the oracle places it, from the files alone.
struct Placed {
    key: InstanceKey,
    frame: RegionId,
    position: [f32; 3],
    yaw: f32,
    mesh: ObjectMesh,
}

/// Every placeable instance, one per key: the owner's record when the owner lists it.
fn placed(files: &ObjectWorld) -> Vec<Placed> {
    let mut out: BTreeMap<InstanceKey, Placed> = BTreeMap::new();
    for (&region, nvm) in &files.navmeshes {
        for o in &nvm.objects {
            let Some(mesh) = files.meshes.get(&o.object_id) else {
                continue;
            };
            let key = InstanceKey::new(RegionId(o.region_id), o.uid);
            let p = Placed {
                key,
                frame: region,
                position: o.position.map(|c| c.get()),
                yaw: o.yaw.get(),
                mesh: mesh.clone(),
            };
            match out.get(&key) {
                Some(old) if old.frame == key.owner() || region != key.owner() => {}
                _ => {
                    out.insert(key, p);
                }
            }
        }
    }
    out.into_values().collect()
}

/// Every (object cell, height) containing the point, by plain arithmetic over everything.
fn oracle_hits(placed: &[Placed], pos: Position) -> Vec<(ObjectCellRef, f32)> {
    let mut hits = Vec::new();
    for p in placed {
        let (c, s) = (f64::from(p.yaw).cos(), f64::from(p.yaw).sin());
        let dx = f64::from(i32::from(pos.region.x()) - i32::from(p.frame.x())) * 1920.0
            + f64::from(pos.x)
            - f64::from(p.position[0]);
        let dz = f64::from(i32::from(pos.region.z()) - i32::from(p.frame.z())) * 1920.0
            + f64::from(pos.z)
            - f64::from(p.position[2]);
        let q = [dx * c + dz * s, dz * c - dx * s];
        let nav = p.mesh.nav.as_ref().unwrap();
        for (i, cell) in nav.cells.iter().enumerate() {
            let v = cell
                .vertices
                .map(|k| nav.vertices[usize::from(k)].position.map(|f| f.get()));
            let [a, b, cc] = v.map(|v| [f64::from(v[0]), f64::from(v[2])]);
            let d = orient(a, b, cc);
            let w = [orient(b, cc, q), orient(cc, a, q), orient(a, b, q)];
            let inside = if d > 0.0 {
                w.iter().all(|&x| x >= 0.0)
            } else {
                w.iter().all(|&x| x <= 0.0)
            };
            if d == 0.0 || !inside {
                continue;
            }
            let e1 = [b[0] - a[0], b[1] - a[1]];
            let e2 = [cc[0] - a[0], cc[1] - a[1]];
            let r = [q[0] - a[0], q[1] - a[1]];
            let det = e1[0] * e2[1] - e1[1] * e2[0];
            let s1 = (r[0] * e2[1] - r[1] * e2[0]) / det;
            let t1 = (e1[0] * r[1] - e1[1] * r[0]) / det;
            let y = [v[0][1], v[1][1], v[2][1]].map(f64::from);
            let h =
                (y[0] + s1 * (y[1] - y[0]) + t1 * (y[2] - y[0]) + f64::from(p.position[1])) as f32;
            hits.push((
                ObjectCellRef {
                    instance: p.key,
                    cell: i as u16,
                },
                h,
            ));
        }
    }
    hits
}

/// The oracle's order of preference: returns the best hit by `key` (larger is better), ties
/// to the higher when `higher_first`, then the smaller instance and cell.
fn best<K: PartialOrd>(
    hits: &[(ObjectCellRef, f32)],
    higher_first: bool,
    key: impl Fn(&(ObjectCellRef, f32)) -> K,
) -> Option<(ObjectCellRef, f32)> {
    let mut best: Option<(ObjectCellRef, f32)> = None;
    for h in hits {
        let better = match &best {
            None => true,
            Some(b) => {
                let (kh, kb) = (key(h), key(b));
                let order = (h.0.instance, h.0.cell) < (b.0.instance, b.0.cell);
                kh > kb
                    || (kh == kb && higher_first && h.1 > b.1)
                    || (kh == kb && (!higher_first || h.1 == b.1) && order)
            }
        };
        if better {
            best = Some(*h);
        }
    }
    best
}

/// Test points: random ones, and the placed vertices and edge midpoints of every instance.
fn points(placed: &[Placed], n: usize, seed: u64) -> Vec<Position> {
    let mut rng = SplitMix64::new(seed);
    let mut out = Vec::new();
    let regions = [WEST, EAST];
    for _ in 0..n {
        let r = regions[rng.range(0, 2) as usize];
        let (x, z) = (rng.unit() * 1920.0, rng.unit() * 1920.0);
        out.extend(Position::from_world(
            f64::from(r.x()) * 1920.0 + x,
            f64::from(r.z()) * 1920.0 + z,
        ));
    }
    for p in placed {
        let (c, s) = (f64::from(p.yaw).cos(), f64::from(p.yaw).sin());
        let nav = p.mesh.nav.as_ref().unwrap();
        let (xs, zs): (Vec<f64>, Vec<f64>) = nav
            .vertices
            .iter()
            .map(|v| {
                (
                    f64::from(v.position[0].get()),
                    f64::from(v.position[2].get()),
                )
            })
            .unzip();
        let lo = [
            xs.iter().copied().fold(f64::MAX, f64::min),
            zs.iter().copied().fold(f64::MAX, f64::min),
        ];
        let hi = [
            xs.iter().copied().fold(f64::MIN, f64::max),
            zs.iter().copied().fold(f64::MIN, f64::max),
        ];
        let place = |x: f64, z: f64| {
            Position::from_world(
                f64::from(p.frame.x()) * 1920.0 + x * c - z * s + f64::from(p.position[0]),
                f64::from(p.frame.z()) * 1920.0 + x * s + z * c + f64::from(p.position[2]),
            )
        };
        for _ in 0..n / 20 {
            let x = lo[0] - 10.0 + rng.unit() * (hi[0] - lo[0] + 20.0);
            let z = lo[1] - 10.0 + rng.unit() * (hi[1] - lo[1] + 20.0);
            out.extend(place(x, z));
        }
        for v in &nav.vertices {
            out.extend(place(
                f64::from(v.position[0].get()),
                f64::from(v.position[2].get()),
            ));
        }
        for e in nav.outline_edges.iter().chain(&nav.inline_edges) {
            let [a, b] = e.vertices.map(|k| nav.vertices[usize::from(k)].position);
            for t in [0.5, 0.25] {
                let x = f64::from(a[0].get()) * (1.0 - t) + f64::from(b[0].get()) * t;
                let z = f64::from(a[2].get()) * (1.0 - t) + f64::from(b[2].get()) * t;
                out.extend(place(x, z));
            }
        }
    }
    out
}

#[test]
fn cell_and_height_agree_with_the_brute_force_oracle() {
    let (_dir, files, world) = world();
    let placed = placed(&files);
    assert_eq!(placed.len(), 7);
    let pts = points(&placed, 6000, 0x0b1ec7);
    let mut rng = SplitMix64::new(7);
    let (mut on_objects, mut ground_won) = (0, 0);
    for &pos in &pts {
        let hits = oracle_hits(&placed, pos);
        // No reference: the highest object triangle, else the terrain cell.
        let expect = best(&hits, true, |h| h.1).map(|h| h.0);
        let got = world.cell_at(pos);
        assert_eq!(got.and_then(|c| c.object), expect, "{pos}");
        if expect.is_none() {
            assert_eq!(got, world.terrain_cell_at(pos), "{pos}");
        } else {
            on_objects += 1;
        }
        // With reference heights: closest wins, an object on a tie.
        let ground = world.height_at(pos).unwrap();
        for y in [
            ground,
            ground + 3.0,
            43.0,
            62.0,
            (rng.unit() * 80.0 - 5.0) as f32,
        ] {
            let dist = |h: f32| (f64::from(h) - f64::from(y)).abs();
            let object = best(&hits, false, |h| -dist(h.1));
            let (cell, height) = match object {
                Some((o, h)) if dist(h) <= dist(ground) => (Some(o), h),
                _ => (None, ground),
            };
            assert_eq!(world.height_at_y(pos, y), Some(height), "{pos} y {y}");
            let got = world.cell_at_y(pos, y);
            assert_eq!(got.and_then(|c| c.object), cell, "{pos} y {y}");
            if cell.is_none() {
                ground_won += 1;
                assert_eq!(got, world.terrain_cell_at(pos), "{pos} y {y}");
            }
        }
        assert_eq!(world.height_at(pos), Some(ground));
    }
    assert!(on_objects > 2000, "{on_objects} points on objects");
    assert!(ground_won > 1000, "{ground_won}");
}

#[test]
fn instances_are_deduplicated_and_the_owner_record_is_kept() {
    let (_dir, _files, world) = world();
    let keys: Vec<InstanceKey> = world.object_instances().map(|i| i.key()).collect();
    let expected: Vec<InstanceKey> = [(WEST, 1), (WEST, 2), (WEST, 3), (WEST, 4), (WEST, 5)]
        .into_iter()
        .chain([(EAST, 1), (EAST, 2)])
        .map(|(r, u)| InstanceKey::new(r, u))
        .collect();
    assert_eq!(keys, expected);
    let shared = world
        .object_instances()
        .find(|i| i.key() == InstanceKey::new(EAST, 1))
        .unwrap();
    assert_eq!(shared.frame_region(), EAST);
    assert_eq!(shared.position(), [100.0, 0.0, 900.0]);
    assert_eq!(shared.object_id(), ids::BRIDGE);
    assert_eq!(shared.triangles().len(), 6);
    // Its footprint reaches into west, where west's grid finds it.
    let in_west = Position::from_world(
        f64::from(WEST.x()) * 1920.0 + 1900.0,
        f64::from(WEST.z()) * 1920.0 + 900.0 + 40.0 * 3f64.cos() - 0.0,
    )
    .unwrap();
    let hit = world.cell_at(in_west).and_then(|c| c.object);
    assert_eq!(hit.map(|h| h.instance), Some(InstanceKey::new(EAST, 1)));
}

#[test]
fn broken_references_are_findings_naming_instance_region_and_path() {
    let (_dir, _files, world) = world();
    let objects: Vec<_> = world
        .load_report()
        .findings_where(|k| matches!(k, LoadFindingKind::Object(_)))
        .collect();
    assert_eq!(objects.len(), 4, "{objects:#?}");
    let mut by_id = BTreeMap::new();
    for f in &objects {
        let LoadFindingKind::Object(o) = &f.kind else {
            unreachable!()
        };
        assert_eq!(f.region, WEST);
        assert!(f.path.ends_with(WEST.file_name()), "{}", f.path.display());
        assert_eq!(o.instance.owner(), WEST);
        by_id.insert(o.object_id, (o.clone(), f.to_string()));
    }
    let (tree, text) = &by_id[&ids::TREE];
    assert!(
        matches!(&tree.problem, ObjectProblem::NoNavSection { file } if file.ends_with("res/tree/tree01.bms"))
    );
    assert!(text.contains("uid") || text.contains(":6"), "{text}");
    let (missing, text) = &by_id[&ids::MISSING];
    assert!(
        matches!(&missing.problem, ObjectProblem::NotFound { component, .. } if component == b"gone.bms")
    );
    assert!(text.contains("gone.bms"), "{text}");
    assert_eq!(missing.instance, InstanceKey::new(WEST, 7));
    let (dungeon, _) = &by_id[&ids::DUNGEON];
    assert!(matches!(dungeon.problem, ObjectProblem::Dungeon { .. }));
    let (unlisted, text) = &by_id[&ids::UNLISTED];
    assert_eq!(unlisted.problem, ObjectProblem::NotInObjectIfo);
    assert!(
        unlisted.ifo_path.is_empty() && text.contains("99"),
        "{text}"
    );
}

#[test]
fn terrain_only_worlds_have_no_objects() {
    let dir = tempfile::tempdir().unwrap();
    write_object_world(dir.path());
    let world = World::load_with(dir.path(), &LoadOptions::terrain_only(), |_, _| {}).unwrap();
    assert_eq!(world.object_instances().len(), 0);
    assert!(world.load_report().is_clean(), "{:?}", world.load_report());
    let full = World::load(dir.path().join("navmesh")).unwrap();
    assert_eq!(
        full.object_instances().len(),
        7,
        "the navmesh folder finds the data root"
    );
    let mut rng = SplitMix64::new(3);
    for _ in 0..2000 {
        let p = Position::new(
            WEST,
            (rng.unit() * 1920.0) as f32,
            (rng.unit() * 1920.0) as f32,
        );
        assert_eq!(world.cell_at(p), full.terrain_cell_at(p));
        assert_eq!(world.height_at_y(p, 60.0), full.height_at(p));
    }
}

#[test]
fn floors_bridges_and_the_ground_below() {
    let (_dir, _files, world) = world();
    let local = |x: f32, z: f32| Position::new(WEST, x, z);
    // House 1 (floor y 2 + 5) stands on blocked tiles; house 2 (floor 62) is above it.
    let p = local(300.0, 300.0);
    assert_eq!(world.terrain_cell_at(p), None);
    let top = world.cell_at(p).unwrap().object.unwrap();
    assert_eq!(top.instance, InstanceKey::new(WEST, 2));
    let low = world.cell_at_y(p, 8.0).unwrap().object.unwrap();
    assert_eq!(low.instance, InstanceKey::new(WEST, 1));
    assert_eq!(world.height_at_y(p, 8.0), Some(7.0));
    assert_eq!(world.height_at_y(p, 70.0), Some(62.0));
    // Bridge 4 at (1200, 1200), yaw 1.9: its middle is 300 units along its axis.
    let (c, s) = (1.9f64.cos(), 1.9f64.sin());
    let mid = local(
        (1200.0 + 300.0 * c - 40.0 * s) as f32,
        (1200.0 + 300.0 * s + 40.0 * c) as f32,
    );
    let deck = world.height_at_y(mid, 44.0).unwrap();
    assert!((45.9..=46.0).contains(&deck), "{deck}");
    let ground = world.height_at(mid).unwrap();
    assert!(ground < 13.0);
    assert_eq!(world.height_at_y(mid, ground), Some(ground));
    assert_eq!(world.cell_at_y(mid, ground).and_then(|c| c.object), None);
    assert!(world.cell_at(mid).unwrap().object.is_some());
}

#[test]
fn the_resolver_matches_any_case_and_follows_chains() {
    let dir = tempfile::tempdir().unwrap();
    write_object_world(dir.path());
    // A .bsr naming itself.
    let looped =
        jmxv::res::ResourceFile::minimal(jmxv::res::ResourceKind::Resource, b"res\\loop.bsr");
    std::fs::write(dir.path().join("res/loop.bsr"), looped.to_vec()).unwrap();
    let resolver = ObjectResolver::new(dir.path());
    let (mesh, file) = resolver.load_mesh(b"rEs\\fOrT\\GATE.cpd").unwrap();
    assert!(
        file.ends_with("prim/mesh/fort_gate.bms"),
        "{}",
        file.display()
    );
    assert_eq!(mesh.nav.unwrap().cells.len(), 4);
    let (_, file) = resolver.load_mesh(b"res/bridge/BRIDGE.BSR").unwrap();
    assert!(file.ends_with("prim/mesh/bridge_span.bms"));
    let e = resolver.load_mesh(b"..\\etc\\passwd.bms").unwrap_err();
    assert!(matches!(e.problem, ObjectProblem::BadPath { .. }));
    assert!(e.to_string().contains("passwd"), "{e}");
    // The loop stops at the chain bound.
    let e = resolver.load_mesh(b"res\\loop.bsr").unwrap_err();
    assert!(
        matches!(e.problem, ObjectProblem::ChainTooLong { .. }),
        "{e}"
    );
    assert_eq!(e.path, b"res\\loop.bsr");
}
