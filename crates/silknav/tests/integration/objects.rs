//! Worlds with objects: the files found through `object.ifo` (any case, `.bsr` and `.cpd`
//! followed), instances deduplicated, broken references reported, and `cell_at` and
//! `height_at` on every surface checked against a brute-force oracle over every triangle of every
//! instance.

use silknav::files::resolve::{ObjectProblem, ObjectResolver};
use silknav::files::WorldSource;
use silknav::objects::InstanceKey;
use silknav::world::movement::MoveStop;
use silknav::{LoadFindingKind, LoadOptions, MoveOptions, Position, Surface, World};
use silknav_testkit::object_world::{ids, write_object_world, ObjectWorld, EAST, WEST};
use silknav_testkit::oracle::objects::{
    agree, clear_start, length, library_ray, oracle_ray, ObjectOracle, OracleRay, Placed,
};
use silknav_testkit::oracle::server::ServerOracle;
use silknav_testkit::rng::SplitMix64;
use std::collections::BTreeMap;

fn world() -> (tempfile::TempDir, ObjectWorld, World) {
    let dir = tempfile::tempdir().unwrap();
    let files = write_object_world(dir.path());
    let world = World::load(dir.path()).unwrap();
    (dir, files, world)
}

/// The world at `dir` loaded without its objects.
fn terrain_of(dir: &std::path::Path) -> World {
    let source = WorldSource::open(dir).unwrap();
    World::load_source(&source, &LoadOptions::terrain_only()).unwrap()
}

/// The brute-force oracle over the files of the world.
fn oracle(files: &ObjectWorld) -> ObjectOracle {
    ObjectOracle::new(&files.navmeshes, &files.meshes)
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
fn cell_and_height_agree_with_the_servers_second_port_to_the_bit() {
    let (_dir, files, world) = world();
    let placed = oracle(&files).placed;
    assert_eq!(placed.len(), 7);
    let server = ServerOracle::new(&files.navmeshes, &files.meshes);
    let pts = points(&placed, 6000, 0x0b1ec7);
    let mut rng = SplitMix64::new(7);
    let (mut on_objects, mut ground_won, mut object_won) = (0, 0, 0);
    for &pos in &pts {
        // No reference: the highest object triangle of those the cell lists, else the
        // terrain cell.
        let expect = server.cell_at(pos).map(|(c, _)| c);
        let got = world.cell_at(pos, Surface::Highest);
        assert_eq!(got, expect, "{pos}");
        if got.is_some_and(|c| c.object.is_some()) {
            on_objects += 1;
        } else {
            assert_eq!(got, world.cell_at(pos, Surface::Terrain), "{pos}");
        }
        // With reference heights: the server's FindNavCell, height to the bit.
        let ground = world.height_at(pos, Surface::Terrain).unwrap();
        for y in [
            ground,
            ground + 3.0,
            43.0,
            62.0,
            (rng.unit() * 80.0 - 5.0) as f32,
        ] {
            let want = server.surface_at_y(pos, y);
            let got = world.surface_at(pos, Surface::Near(y));
            assert_eq!(
                got.map(|(c, h)| (c, h.to_bits())),
                want.map(|(c, h)| (c, h.to_bits())),
                "{pos} y {y}"
            );
            match got {
                Some((Some(c), _)) if c.object.is_some() => object_won += 1,
                _ => ground_won += 1,
            }
        }
        assert_eq!(world.height_at(pos, Surface::Terrain), Some(ground));
    }
    assert!(on_objects > 2000, "{on_objects} points on objects");
    assert!(
        ground_won > 1000 && object_won > 1000,
        "{ground_won} {object_won}"
    );
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
    let hit = world
        .cell_at(in_west, Surface::Highest)
        .and_then(|c| c.object);
    assert_eq!(hit.map(|h| h.instance), Some(InstanceKey::new(EAST, 1)));
}

#[test]
fn broken_references_are_findings_naming_instance_region_and_path() {
    let (_dir, _files, world) = world();
    let objects: Vec<_> = world
        .load_report()
        .findings_where(|k| matches!(k, LoadFindingKind::ObjectNotPlaced { .. }))
        .collect();
    assert_eq!(objects.len(), 4, "{objects:#?}");
    let mut by_id = BTreeMap::new();
    for f in &objects {
        let LoadFindingKind::ObjectNotPlaced {
            instance,
            object_id,
            ifo_path,
            problem,
        } = &f.kind
        else {
            unreachable!()
        };
        assert_eq!(f.region, WEST);
        assert!(f.path.ends_with(WEST.file_name()), "{}", f.path.display());
        assert_eq!(instance.owner(), WEST);
        by_id.insert(
            *object_id,
            (*instance, ifo_path.clone(), problem.clone(), f.to_string()),
        );
    }
    let (_, _, tree, text) = &by_id[&ids::TREE];
    assert!(
        matches!(tree, ObjectProblem::NoNavSection { file } if file.ends_with("res/tree/tree01.bms"))
    );
    assert!(text.contains("uid") || text.contains(":6"), "{text}");
    let (instance, _, missing, text) = &by_id[&ids::MISSING];
    assert!(
        matches!(missing, ObjectProblem::NotFound { component, .. } if component == b"gone.bms")
    );
    assert!(text.contains("gone.bms"), "{text}");
    assert_eq!(*instance, InstanceKey::new(WEST, 7));
    let (_, _, dungeon, _) = &by_id[&ids::DUNGEON];
    assert!(matches!(dungeon, ObjectProblem::Dungeon { .. }));
    let (_, ifo_path, unlisted, text) = &by_id[&ids::UNLISTED];
    assert_eq!(*unlisted, ObjectProblem::NotInObjectIfo);
    assert!(ifo_path.is_empty() && text.contains("99"), "{text}");
}

#[test]
fn terrain_only_worlds_have_no_objects() {
    let dir = tempfile::tempdir().unwrap();
    write_object_world(dir.path());
    let world = terrain_of(dir.path());
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
        assert_eq!(
            world.cell_at(p, Surface::Highest),
            full.cell_at(p, Surface::Terrain)
        );
        // The server's FindNavCell gives (ground − y) + y, in f32.
        let ground = full.height_at(p, Surface::Terrain).unwrap();
        assert_eq!(
            world.height_at(p, Surface::Near(60.0)),
            Some((ground - 60.0) + 60.0)
        );
    }
}

#[test]
fn floors_bridges_and_the_ground_below() {
    let (_dir, _files, world) = world();
    let local = |x: f32, z: f32| Position::new(WEST, x, z);
    // House 1 (floor y 2 + 5) stands on blocked tiles; house 2 (floor 62) is above it.
    let p = local(300.0, 300.0);
    assert_eq!(world.cell_at(p, Surface::Terrain), None);
    let top = world.cell_at(p, Surface::Highest).unwrap().object.unwrap();
    assert_eq!(top.instance, InstanceKey::new(WEST, 2));
    let low = world
        .cell_at(p, Surface::Near(8.0))
        .unwrap()
        .object
        .unwrap();
    assert_eq!(low.instance, InstanceKey::new(WEST, 1));
    assert_eq!(world.height_at(p, Surface::Near(8.0)), Some(7.0));
    assert_eq!(world.height_at(p, Surface::Near(70.0)), Some(62.0));
    // Bridge 4 at (1200, 1200), yaw 1.9: its middle is 300 units along its axis.
    let (c, s) = (1.9f64.cos(), 1.9f64.sin());
    let mid = local(
        (1200.0 + 300.0 * c - 40.0 * s) as f32,
        (1200.0 + 300.0 * s + 40.0 * c) as f32,
    );
    let deck = world.height_at(mid, Surface::Near(44.0)).unwrap();
    assert!((45.9..=46.0).contains(&deck), "{deck}");
    let ground = world.height_at(mid, Surface::Terrain).unwrap();
    assert!(ground < 13.0);
    assert_eq!(
        world.height_at(mid, Surface::Near(ground)),
        Some((ground - ground) + ground)
    );
    assert_eq!(
        world
            .cell_at(mid, Surface::Near(ground))
            .and_then(|c| c.object),
        None
    );
    assert!(world
        .cell_at(mid, Surface::Highest)
        .unwrap()
        .object
        .is_some());
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

/// A point given in an instance's own frame.
fn at(oracle: &ObjectOracle, key: InstanceKey, x: f64, z: f64) -> Position {
    let p = oracle.placed.iter().find(|p| p.key == key).unwrap();
    let w = p.to_world(x, z);
    Position::from_world(w[0], w[1]).unwrap()
}

#[test]
fn line_of_sight_agrees_with_the_brute_force_oracle() {
    let (dir, files, world) = world();
    let terrain = terrain_of(dir.path());
    let oracle = oracle(&files);
    let pts = points(&oracle.placed, 3000, 0x5eed);
    let mut rng = SplitMix64::new(11);
    let (mut checked, mut by_objects, mut clear, mut through_objects) = (0, 0, 0, 0);
    for (k, &from) in pts.iter().enumerate() {
        // Ends near the start (to cross a few edges) and far (to cross several objects).
        let reach = if k % 3 == 0 { 900.0 } else { 250.0 };
        let to = Position::from_world(
            from.world_x() + (rng.unit() * 2.0 - 1.0) * reach,
            from.world_z() + (rng.unit() * 2.0 - 1.0) * reach,
        );
        let Some(to) = to else { continue };
        let start = world.cell_at(from, Surface::Highest).and_then(|c| c.object);
        if !clear_start(&oracle, from, start) {
            continue;
        }
        let (got, want) = (
            library_ray(&world, from, Surface::Highest, to),
            oracle_ray(&oracle, &world, &terrain, from, start, to),
        );
        assert!(
            agree(got, want, length(from, to)),
            "{from} → {to}: library {got:?}, oracle {want:?}"
        );
        assert_eq!(
            world.line_of_sight(from, to, Surface::Highest).ok(),
            match want {
                OracleRay::StartNotWalkable => None,
                r => Some(r == OracleRay::Clear),
            },
            "{from} → {to}"
        );
        // The same from the ground below, by reference height.
        let ground = world.height_at(from, Surface::Terrain).unwrap();
        let low = world
            .cell_at(from, Surface::Near(ground))
            .and_then(|c| c.object);
        if !clear_start(&oracle, from, low) {
            continue;
        }
        let want_low = oracle_ray(&oracle, &world, &terrain, from, low, to);
        let got_low = library_ray(&world, from, Surface::Near(ground), to);
        assert!(
            agree(got_low, want_low, length(from, to)),
            "{from} y {ground} → {to}: {got_low:?}, {want_low:?}"
        );
        checked += 1;
        match want {
            OracleRay::Blocked { edge: Some(_), .. } => by_objects += 1,
            OracleRay::Clear => clear += 1,
            _ => {}
        }
        let terrain_answer = terrain
            .raycast(from, to, Surface::Highest)
            .ok()
            .flatten()
            .map(|h| h.t);
        if want == OracleRay::Clear && (start.is_some() || terrain_answer.is_some()) {
            through_objects += 1;
        }
    }
    assert!(checked > 3000, "{checked}");
    assert!(by_objects > 500, "{by_objects} blocked by object edges");
    assert!(clear > 500, "{clear} clear");
    assert!(
        through_objects > 100,
        "{through_objects} clear only over objects"
    );
}

#[test]
fn targeted_rays_through_doorways_walls_vertices_bridges_and_gates() {
    use silknav::objects::walk::{ObjectEdgeKind, ObjectEdgeRef};
    let (dir, files, world) = world();
    let terrain = terrain_of(dir.path());
    let oracle = oracle(&files);
    let house = InstanceKey::new(WEST, 1);
    let bridge = InstanceKey::new(WEST, 4);
    let gate = InstanceKey::new(WEST, 5);
    let edge = |instance, kind, edge| {
        Some(ObjectEdgeRef {
            instance,
            kind,
            edge,
        })
    };
    let p = |x: f32, z: f32| Position::new(WEST, x, z);
    // (name, from, reference height, to, expected object edge or clear)
    type Case = (
        &'static str,
        Position,
        Option<f32>,
        Position,
        Option<Option<ObjectEdgeRef>>,
    );
    let cases: Vec<Case> = vec![
        // The house (yaw 0) spans x 240..640, z 240..540; its doorway is x 400..480 at z 240,
        // over the blocked terrain square x, z 240..360.
        (
            "in through the doorway",
            p(440.0, 200.0),
            None,
            p(440.0, 400.0),
            None,
        ),
        (
            "into the south wall",
            p(300.0, 200.0),
            None,
            p(300.0, 400.0),
            Some(edge(house, ObjectEdgeKind::Outline, 0)),
        ),
        (
            "out through the doorway from the floor",
            p(440.0, 300.0),
            Some(7.0),
            p(440.0, 200.0),
            None,
        ),
        (
            "from the floor into the north wall",
            p(440.0, 300.0),
            Some(7.0),
            p(440.0, 600.0),
            Some(edge(house, ObjectEdgeKind::Outline, 4)),
        ),
        (
            "through the wall corner",
            p(200.0, 200.0),
            None,
            p(280.0, 280.0),
            Some(edge(house, ObjectEdgeKind::Outline, 0)),
        ),
        (
            "through the vertex of doorway and wall",
            p(360.0, 200.0),
            None,
            p(440.0, 280.0),
            Some(edge(house, ObjectEdgeKind::Outline, 0)),
        ),
        (
            "along the south wall outside",
            p(200.0, 239.0),
            None,
            p(700.0, 239.0),
            None,
        ),
        // The bridge deck: local x 0..600, z 0..80; plain ends at x 0 and 600, sides 0x10.
        (
            "under the bridge",
            at(&oracle, bridge, 300.0, -40.0),
            None,
            at(&oracle, bridge, 300.0, 120.0),
            None,
        ),
        (
            "onto the bridge end",
            at(&oracle, bridge, -30.0, 40.0),
            None,
            at(&oracle, bridge, 300.0, 40.0),
            None,
        ),
        (
            "off the deck's side",
            at(&oracle, bridge, 250.0, 60.0),
            None,
            at(&oracle, bridge, 250.0, 120.0),
            Some(edge(bridge, ObjectEdgeKind::Outline, 3)),
        ),
        (
            "along the deck and off its far end onto the ground",
            at(&oracle, bridge, 250.0, 60.0),
            None,
            at(&oracle, bridge, 700.0, 60.0),
            None,
        ),
        // The gate: outer half local x 0..100, inner 100..200, siege edge between.
        (
            "into the gate passage",
            at(&oracle, gate, -30.0, 50.0),
            None,
            at(&oracle, gate, 50.0, 50.0),
            None,
        ),
        (
            // Across the siege edge (0x84) on the gate's floor: a sight line that ends on an
            // object sees across a siege edge, as the server answers it.
            "through the gate and across its siege edge",
            at(&oracle, gate, -30.0, 50.0),
            None,
            at(&oracle, gate, 150.0, 50.0),
            None,
        ),
        (
            "into the gate's side wall",
            at(&oracle, gate, 50.0, -30.0),
            None,
            at(&oracle, gate, 50.0, 50.0),
            Some(edge(gate, ObjectEdgeKind::Outline, 0)),
        ),
    ];
    for (name, from, y, to, expect) in cases {
        let surface = Surface::from(y);
        let start = world.cell_at(from, surface).and_then(|c| c.object);
        let hit = world
            .raycast(from, to, surface)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        match expect {
            None => assert_eq!(hit, None, "{name}"),
            Some(e) => {
                let hit = hit.unwrap_or_else(|| panic!("{name}: clear"));
                assert_eq!(hit.object_edge, e, "{name}: {hit:?}");
                if e.is_some() {
                    assert_eq!(hit.edge, None, "{name}");
                }
            }
        }
        let want = oracle_ray(&oracle, &world, &terrain, from, start, to);
        let got = library_ray(&world, from, surface, to);
        assert!(
            agree(got, want, length(from, to)),
            "{name}: library {got:?}, oracle {want:?}"
        );
    }
    // The wall corner is met half way.
    let hit = world
        .raycast(p(200.0, 200.0), p(280.0, 280.0), Surface::Highest)
        .unwrap()
        .unwrap();
    assert_eq!(hit.t, 0.5);
    assert_eq!((hit.point.x, hit.point.z), (240.0, 240.0));
    // Siege gates block sight only: the passage itself is walkable ground of the gate.
    assert!(world
        .line_of_sight(
            at(&oracle, gate, 150.0, 50.0),
            at(&oracle, gate, 180.0, 60.0),
            Surface::Highest
        )
        .unwrap());
}

#[test]
fn terrain_only_rays_are_todays_answers() {
    let (dir, files, _world) = world();
    let terrain = terrain_of(dir.path());
    let bare = World::from_navmeshes(files.navmeshes.iter().map(|(r, m)| (*r, m)));
    let oracle = oracle(&files);
    let mut rng = SplitMix64::new(3);
    for from in points(&oracle.placed, 1500, 0x7e44) {
        let to = Position::from_world(
            from.world_x() + (rng.unit() * 2.0 - 1.0) * 600.0,
            from.world_z() + (rng.unit() * 2.0 - 1.0) * 600.0,
        );
        let Some(to) = to else { continue };
        assert_eq!(
            terrain.raycast(from, to, Surface::Highest),
            bare.raycast(from, to, Surface::Highest),
            "{from} → {to}"
        );
        assert_eq!(
            terrain.line_of_sight(from, to, Surface::Highest),
            bare.line_of_sight(from, to, Surface::Highest)
        );
        assert_eq!(
            terrain.raycast(from, to, Surface::Near(60.0)),
            bare.raycast(from, to, Surface::Highest)
        );
    }
}

#[test]
fn line_of_sight_on_generated_worlds_agrees_with_the_brute_force_oracle() {
    let (dir, files, world) = crate::written_world(4, 3, 3);
    let terrain = terrain_of(dir.path());
    let meshes = crate::meshes_by_id(&files);
    let oracle = ObjectOracle::new(&files.navmeshes, &meshes);
    assert_eq!(oracle.placed.len(), world.object_instances().len());
    let pts = points(&oracle.placed, 2000, 0x9e4);
    let mut rng = SplitMix64::new(23);
    let (mut checked, mut by_objects, mut on_objects) = (0, 0, 0);
    for from in pts {
        let reach = 200.0;
        let Some(to) = Position::from_world(
            from.world_x() + (rng.unit() * 2.0 - 1.0) * reach,
            from.world_z() + (rng.unit() * 2.0 - 1.0) * reach,
        ) else {
            continue;
        };
        let start = world.cell_at(from, Surface::Highest).and_then(|c| c.object);
        if !clear_start(&oracle, from, start) {
            continue;
        }
        on_objects += usize::from(start.is_some());
        let got = library_ray(&world, from, Surface::Highest, to);
        let want = oracle_ray(&oracle, &world, &terrain, from, start, to);
        assert!(
            agree(got, want, length(from, to)),
            "{from} → {to}: library {got:?}, oracle {want:?}"
        );
        by_objects += usize::from(matches!(want, OracleRay::Blocked { edge: Some(_), .. }));
        checked += 1;
    }
    assert!(checked > 1000, "{checked}");
    assert!(on_objects > 300, "{on_objects} starts on objects");
    assert!(by_objects > 100, "{by_objects} blocked by object edges");
}

#[test]
fn siege_gates_block_sight_between_terrain_points_and_let_walkers_through() {
    use silknav::world::movement::MoveStop;

    let (_dir, files, world) = crate::written_world(4, 3, 3);
    let ifo = files.object_ifo.as_ref().unwrap();
    let mut checked = 0;
    for gate in world.object_instances().filter(|i| {
        ifo.get(i.object_id())
            .is_some_and(|e| String::from_utf8_lossy(&e.path).contains("gate"))
    }) {
        // The passage runs along the gate's own z, the siege line across it at z 0.
        let hz = gate
            .triangles()
            .flat_map(|(_, v)| v.map(|p| f64::from(p[2])))
            .fold(f64::MIN, f64::max);
        let (c, s) = (f64::from(gate.yaw()).cos(), f64::from(gate.yaw()).sin());
        let (r, p) = (gate.frame_region(), gate.position());
        let at = |z: f64| {
            Position::from_world(
                f64::from(r.x()) * 1920.0 - z * s + f64::from(p[0]),
                f64::from(r.z()) * 1920.0 + z * c + f64::from(p[2]),
            )
            .unwrap()
        };
        let (outside_a, outside_b) = (at(-hz - 15.0), at(hz + 15.0));
        if world
            .cell_at(outside_a, Surface::Highest)
            .is_none_or_object()
            || world
                .cell_at(outside_b, Surface::Highest)
                .is_none_or_object()
        {
            continue;
        }
        let hit = world
            .raycast(outside_a, outside_b, Surface::Highest)
            .unwrap()
            .expect("blocked");
        let edge = hit.object_edge.expect("by the gate");
        assert_eq!(edge.instance, gate.key());
        // The walk passes the siege line.
        let m = world
            .move_along(outside_a, outside_b, &MoveOptions::default())
            .unwrap();
        assert_eq!(m.stop, MoveStop::Arrived, "{m:?}");
        // From inside the passage, sight is not blocked by the siege line.
        assert!(world
            .line_of_sight(at(hz / 2.0), at(-hz / 2.0), Surface::Highest)
            .unwrap());
        checked += 1;
    }
    assert!(checked >= 2, "{checked} gates");
}

trait NoneOrObject {
    fn is_none_or_object(&self) -> bool;
}

impl NoneOrObject for Option<silknav::CellRef> {
    fn is_none_or_object(&self) -> bool {
        self.map_or(true, |c| c.object.is_some())
    }
}

/// A path that passes under a bridge deck keeps the ground's height there: each leg is walked
/// from the height the one before arrived at, as the server keeps a walker's height, so the
/// leg that starts under the deck starts on the ground, not on the deck above.
#[test]
fn path_heights_stay_on_the_ground_under_a_bridge() {
    let (_dir, _files, world) = world();
    let local = |x: f64, z: f64| Position::new(WEST, x as f32, z as f32);
    // Bridge 4 at (1200, 1200), yaw 1.9: across its middle, from one side to the other.
    let (c, s) = (1.9f64.cos(), 1.9f64.sin());
    let (mx, mz) = (1200.0 + 300.0 * c - 40.0 * s, 1200.0 + 300.0 * s + 40.0 * c);
    let mid = local(mx, mz);
    let side = |t: f64| local(mx - t * s, mz + t * c);
    let (a, b) = (side(-120.0), side(120.0));
    assert!(
        world
            .cell_at(mid, Surface::Highest)
            .unwrap()
            .object
            .is_some(),
        "the deck is over mid"
    );
    for p in [a, b] {
        assert!(
            world.cell_at(p, Surface::Highest).unwrap().object.is_none(),
            "{p} is off the bridge"
        );
    }
    let path = silknav::WorldPath {
        waypoints: vec![a, mid, b],
        length: 240.0,
        exact_length: 240.0,
        exact: false,
    };
    let heights = world.path_heights(&path, Surface::Highest);
    let ground: Vec<f32> = path
        .waypoints
        .iter()
        .map(|&p| world.height_at(p, Surface::Terrain).unwrap())
        .collect();
    assert_eq!(heights, ground.iter().map(|&g| Some(g)).collect::<Vec<_>>());
    // Each leg, started at the height before, arrives; the deck is far above.
    for (k, leg) in path.waypoints.windows(2).enumerate() {
        let walk = world
            .move_along(
                leg[0],
                leg[1],
                &MoveOptions::new().with_start(Surface::Near(ground[k])),
            )
            .unwrap();
        assert_eq!(walk.stop, MoveStop::Arrived, "leg {k}");
        assert!(walk.cell.object.is_none(), "leg {k} walks on the ground");
    }
    let deck = world.height_at(mid, Surface::Highest).unwrap();
    assert!(
        deck > ground[1] + 30.0,
        "a walk from mid without a height starts on the deck"
    );
    // By line of sight too: the path's surfaces are the ground's, all the way under.
    assert_eq!(
        world.path_surfaces(&path, Surface::Highest),
        Some(vec![None; 3])
    );
    // From the deck's north triangle (20 units north of mid, which lies on the segment's
    // diagonal, an inline edge without the internal bit: crossing it leaves the deck), the
    // side is an underpass edge: no leg off it; from the ground there, the same leg is clear.
    let north = side(20.0);
    let off = silknav::WorldPath {
        waypoints: vec![north, b],
        ..path.clone()
    };
    assert!(
        world
            .cell_at(north, Surface::Highest)
            .unwrap()
            .object
            .is_some(),
        "on the deck"
    );
    assert_eq!(
        world.path_surfaces(&off, Surface::Highest),
        None,
        "off the deck's side"
    );
    let below = world.height_at(north, Surface::Near(ground[1])).unwrap();
    assert_eq!(
        world.path_surfaces(&off, Surface::Near(below)),
        Some(vec![None, None]),
        "under the deck"
    );
}

/// Every query on each `Surface` answers as its definition says: the terrain as a world
/// loaded without objects answers it, the highest as a walk without a height starts, one
/// object triangle as the highest when it is that triangle (and nothing off it), and
/// `surface_at` as `cell_at` and `height_at` together.
#[test]
fn every_surface_answers_by_its_definition() {
    let (dir, files, world) = world();
    let terrain = terrain_of(dir.path());
    let oracle = oracle(&files);
    let pts = points(&oracle.placed, 2000, 0x5afe);
    let (mut on_objects, mut under_objects, mut off_triangle) = (0, 0, 0);
    for (k, &p) in pts.iter().enumerate() {
        // The terrain alone: what the world without objects answers on its highest surface.
        assert_eq!(
            world.cell_at(p, Surface::Terrain),
            terrain.cell_at(p, Surface::Highest),
            "{p}"
        );
        assert_eq!(
            world.height_at(p, Surface::Terrain),
            terrain.height_at(p, Surface::Terrain),
            "{p}"
        );
        let ground = world.height_at(p, Surface::Terrain);
        let highest = world.cell_at(p, Surface::Highest);
        // The highest surface is where a walk without a height starts.
        let walk = world.move_along(p, p, &MoveOptions::default());
        assert_eq!(
            world.height_at(p, Surface::Highest),
            walk.as_ref().ok().map(|m| m.height),
            "{p}"
        );
        let mut surfaces = vec![Surface::Terrain, Surface::Highest];
        surfaces.extend(ground.map(|y| Surface::Near(y + 3.0)));
        if let Some(c) = highest.and_then(|c| c.object) {
            on_objects += 1;
            let on = Surface::Object(c);
            surfaces.push(on);
            assert_eq!(world.cell_at(p, on), highest, "{p}");
            assert_eq!(
                world.height_at(p, on),
                world.height_at(p, Surface::Highest),
                "{p}"
            );
            let to = pts[(k * 7 + 3) % pts.len()];
            assert_eq!(
                world.raycast(p, to, on),
                world.raycast(p, to, Surface::Highest),
                "{p} → {to}"
            );
            assert_eq!(
                world.move_along(p, to, &MoveOptions::new().with_start(on)),
                world.move_along(p, to, &MoveOptions::default()),
                "{p} → {to}"
            );
            // Under the deck, on the terrain: the walk starts at the ground's height.
            if let (Some(cell), Some(y)) = (world.cell_at(p, Surface::Terrain), ground) {
                under_objects += 1;
                let from_ground = world
                    .move_along(p, p, &MoveOptions::new().with_start(Surface::Terrain))
                    .unwrap();
                assert_eq!((from_ground.cell, from_ground.height), (cell, y), "{p}");
            }
            // Elsewhere, the triangle answers exactly where it contains the point.
            for q in [
                p,
                pts[(k * 13 + 5) % pts.len()],
                pts[(k * 31 + 1) % pts.len()],
            ] {
                // Within 1e-4 of a side, the server's f32 placement decides, not exact
                // containment.
                if oracle.near_a_side(q, 1e-4) {
                    continue;
                }
                let inside = oracle.hits(q).iter().any(|&(hit, _)| hit == c);
                assert_eq!(
                    world.cell_at(q, on).is_some(),
                    inside,
                    "{q} ({}) on {c:?}: {:?}, highest {:?}",
                    q.region,
                    oracle.hits(q),
                    world.cell_at(q, Surface::Highest)
                );
                assert_eq!(world.height_at(q, on).is_some(), inside, "{q} on {c:?}");
                off_triangle += usize::from(!inside);
            }
        }
        for surface in surfaces {
            let both = world.surface_at(p, surface);
            let height = world.height_at(p, surface);
            assert_eq!(
                both,
                height.map(|h| (world.cell_at(p, surface), h)),
                "{p} on {surface:?}"
            );
        }
    }
    assert!(on_objects > 200, "{on_objects} points on objects");
    assert!(under_objects > 0, "{under_objects} points over open ground");
    assert!(off_triangle > 50, "{off_triangle} points off the triangle");
}
