//! The objects of generated worlds: real meshes of each kind, placed where the regions say,
//! written into a data root and read back, and world lint's object checks.

use jmxv::bms::{NavSection, ObjectMesh};
use jmxv::nvm::lint::Severity;
use jmxv::nvm::{NavMesh, Object, TILES_PER_SIDE};
use jmxv::RegionId;
use silknav::files::{Overwrite, WorldFiles, WriteFileError};
use silknav::lint::lint_world;
use silknav::worldgen::catalog::{texture_ids, Ground, ObjectClass, OBJECTS};
use silknav::worldgen::{generate, GenOptions, Landscape, DEFAULT_ORIGIN};

use crate::generated_files;

/// The navigation section of an instance's mesh.
fn nav_of<'a>(files: &'a WorldFiles, o: &Object) -> Option<&'a NavSection> {
    let entry = files.object_ifo.as_ref()?.get(o.object_id)?;
    let name = std::str::from_utf8(&entry.path).ok()?;
    files.object_files.get(name)?.nav.as_ref()
}

fn class_of(o: &Object) -> ObjectClass {
    OBJECTS[o.object_id as usize].class
}

/// Every instance once, from its owner's listing.
fn owned(files: &WorldFiles) -> impl Iterator<Item = (RegionId, &Object)> {
    files.navmeshes.iter().flat_map(|(&r, m)| {
        m.objects
            .iter()
            .filter(move |o| o.region_id == r.0)
            .map(move |o| (r, o))
    })
}

#[test]
fn generated_worlds_hold_every_object_kind_with_its_edges() {
    let files = generated_files(4, 3, 3);
    let (mut doorways, mut gates, mut bridges, mut stairs) = (0, 0, 0, 0);
    for (_, o) in owned(&files) {
        let nav = nav_of(&files, o);
        let outline = |flag: u8| {
            nav.map_or(0, |n| {
                n.outline_edges.iter().filter(|e| e.flag == flag).count()
            })
        };
        match class_of(o) {
            ObjectClass::Building => {
                assert_eq!(outline(0x00), 1, "one doorway edge");
                assert!(outline(0x03) >= 4, "walls");
                assert!(!nav.unwrap().inline_edges.is_empty());
                doorways += 1;
            }
            ObjectClass::Gate => {
                let siege = nav
                    .unwrap()
                    .inline_edges
                    .iter()
                    .filter(|e| e.flag & 0x80 != 0)
                    .count();
                assert!(siege > 0, "a siege edge across the gate");
                assert_eq!(o.links.len(), 1, "gates are linked in pairs");
                gates += 1;
            }
            ObjectClass::Bridge => {
                assert_eq!(outline(0x08), 1, "a link edge at the inner end");
                assert_eq!(outline(0x00), 1, "an open outer end");
                assert!(outline(0x10) >= 2, "underpass sides");
                assert_eq!(o.links.len(), 1, "bridge halves are linked in pairs");
                bridges += 1;
            }
            ObjectClass::Stairs => {
                let ys: Vec<f32> = nav
                    .unwrap()
                    .vertices
                    .iter()
                    .map(|v| v.position[1].get())
                    .collect();
                let (lo, hi) = (
                    ys.iter().copied().fold(f32::MAX, f32::min),
                    ys.iter().copied().fold(f32::MIN, f32::max),
                );
                assert!(hi - lo >= 20.0, "the stairs climb: {lo}..{hi}");
                stairs += 1;
            }
            ObjectClass::Prop => assert!(nav.is_none(), "props have no navigation mesh"),
        }
    }
    println!("buildings {doorways}, gates {gates}, bridges {bridges}, stairs {stairs}");
    assert!(doorways >= 9, "buildings with doorways: {doorways}");
    assert!(gates >= 2 && gates % 2 == 0, "gates come in pairs: {gates}");
    assert!(bridges >= 4 && bridges % 2 == 0, "bridge halves: {bridges}");
    assert!(stairs >= 3, "stairs: {stairs}");
}

#[test]
fn every_generated_mesh_round_trips_byte_exactly_and_lints_clean() {
    let files = generated_files(1, 2, 2);
    assert_eq!(files.object_files.len(), OBJECTS.len());
    for (name, mesh) in &files.object_files {
        let bytes = mesh.to_vec().unwrap();
        let back = ObjectMesh::parse(&bytes).unwrap();
        assert_eq!(&back, mesh, "{name}");
        assert_eq!(back.to_vec().unwrap(), bytes, "{name}");
        let findings = jmxv::bms::lint::lint(mesh);
        assert!(findings.is_empty(), "{name}: {findings:?}");
    }
    // Every entry of object.ifo has its file, under res\.
    for entry in &files.object_ifo.as_ref().unwrap().entries {
        let name = std::str::from_utf8(&entry.path).unwrap();
        assert!(
            name.starts_with("res\\") && files.object_files.contains_key(name),
            "{name}"
        );
    }
}

#[test]
fn object_meshes_lie_on_the_ground_their_region_marks() {
    let files = generated_files(4, 3, 3);
    let dirt: Vec<u16> = texture_ids(Ground::Dirt).collect();
    let n = TILES_PER_SIDE as i64;
    let mut checked = 0;
    for (&region, mesh) in &files.navmeshes {
        for o in &mesh.objects {
            let Some(nav) = nav_of(&files, o) else {
                continue;
            };
            let (sin, cos) = f64::from(o.yaw.get()).sin_cos();
            let (px, pz) = (
                f64::from(o.position[0].get()),
                f64::from(o.position[2].get()),
            );
            // NOTES §8: rotate about +y by the yaw, then translate.
            let (mut lo, mut hi) = ([f64::MAX; 2], [f64::MIN; 2]);
            for v in &nav.vertices {
                let (x, z) = (
                    f64::from(v.position[0].get()),
                    f64::from(v.position[2].get()),
                );
                let w = [x * cos - z * sin + px, x * sin + z * cos + pz];
                for k in 0..2 {
                    lo[k] = lo[k].min(w[k]);
                    hi[k] = hi[k].max(w[k]);
                }
            }
            for v in lo.iter().chain(&hi) {
                let off = (v / 20.0 - (v / 20.0).round()).abs();
                assert!(
                    off < 1e-3,
                    "{region}: footprint corner {v} is on the tile grid"
                );
            }
            let tile = |v: f64| ((v / 20.0).round() as i64).clamp(0, n);
            let (tx0, tx1, tz0, tz1) = (tile(lo[0]), tile(hi[0]), tile(lo[1]), tile(hi[1]));
            // A footprint may only touch the region's border: a walker crossing that border
            // must meet the object in this region's cells.
            assert!(
                tx0 <= tx1 && tz0 <= tz1,
                "{region}: footprint reaches into or touches its region"
            );
            for tz in tz0..tz1 {
                for tx in tx0..tx1 {
                    let t = &mesh.tiles[(tz * n + tx) as usize];
                    assert!(
                        dirt.contains(&t.texture_id),
                        "{region}: tile ({tx}, {tz}) under an object is trodden ground"
                    );
                    if class_of(o) != ObjectClass::Gate {
                        assert!(
                            !t.is_blocked(),
                            "{region}: ground under an object stays open"
                        );
                    }
                }
            }
            checked += 1;
        }
    }
    assert!(checked > 20, "{checked} placed meshes");
}

#[test]
fn a_data_root_round_trips_and_is_refused_all_or_nothing() {
    let files = generated_files(5, 2, 1);
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("Data");
    files.write_data_root(&root, Overwrite::Refuse).unwrap();
    assert!(root.join("navmesh").join("nv_4080.nvm").is_file());
    assert!(root.join("res").join("bldg").is_dir());
    assert_eq!(WorldFiles::read_data_root(&root).unwrap(), files);
    // The navmesh folder names the same world, objects found above it.
    assert_eq!(WorldFiles::read_dir(root.join("navmesh")).unwrap(), files);

    // One existing object file refuses the whole write before anything is written.
    let (name, _) = files.object_files.iter().next().unwrap();
    let victim = root.join(name.replace('\\', "/"));
    std::fs::write(&victim, b"mine").unwrap();
    std::fs::remove_file(root.join("navmesh").join("nv_4080.nvm")).unwrap();
    let refused = files.write_data_root(&root, Overwrite::Refuse).unwrap_err();
    assert!(
        matches!(&refused, WriteFileError::Exists { path } if path.starts_with(&root)),
        "{refused}"
    );
    assert!(
        !root.join("navmesh").join("nv_4080.nvm").exists(),
        "nothing written"
    );
    assert_eq!(std::fs::read(&victim).unwrap(), b"mine");
    files.write_data_root(&root, Overwrite::Replace).unwrap();
    assert_eq!(WorldFiles::read_data_root(&root).unwrap(), files);

    // Object paths resolve in any case; a missing file is left out, not an error.
    let upper = victim.with_file_name(victim.file_name().unwrap().to_str().unwrap().to_uppercase());
    std::fs::rename(&victim, &upper).unwrap();
    let folder = victim.parent().unwrap();
    std::fs::rename(folder, folder.with_file_name("Moved")).unwrap();
    let moved = folder.with_file_name("Moved");
    let folder_name = folder.file_name().unwrap().to_str().unwrap().to_uppercase();
    std::fs::rename(&moved, moved.with_file_name(&folder_name)).unwrap();
    assert_eq!(WorldFiles::read_data_root(&root).unwrap(), files);
    std::fs::remove_file(
        moved
            .with_file_name(&folder_name)
            .join(upper.file_name().unwrap()),
    )
    .unwrap();
    let back = WorldFiles::read_data_root(&root).unwrap();
    assert!(!back.object_files.contains_key(name));
    assert_eq!(back.object_files.len(), files.object_files.len() - 1);
    assert_eq!(back.navmeshes, files.navmeshes);
}

#[test]
fn object_paths_that_leave_the_data_root_are_refused() {
    let mut files = generated_files(5, 1, 1);
    files
        .object_files
        .insert("res\\..\\..\\escape.bms".into(), ObjectMesh::default());
    let dir = tempfile::tempdir().unwrap();
    let err = files
        .write_data_root(dir.path(), Overwrite::Refuse)
        .unwrap_err();
    assert!(
        matches!(&err, WriteFileError::Io { source, .. } if source.kind() == std::io::ErrorKind::InvalidInput),
        "{err}"
    );
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        0,
        "nothing written"
    );
}

fn errors(files: &WorldFiles) -> Vec<(String, &'static str)> {
    lint_world(files)
        .all()
        .filter(|(_, f)| f.severity == Severity::Error)
        .map(|(file, f)| (file, f.code))
        .collect()
}

#[test]
fn lint_finds_missing_object_files() {
    let base = generated_files(11, 2, 2);
    assert!(errors(&base).is_empty());
    let used = base.navmeshes.values().next().unwrap().objects[0].object_id;
    let path = std::str::from_utf8(&base.object_ifo.as_ref().unwrap().get(used).unwrap().path)
        .unwrap()
        .to_owned();
    let mut broken = base.clone();
    broken.object_files.remove(&path);
    assert_eq!(errors(&broken), [("object.ifo".to_owned(), "X012")]);
    let report = lint_world(&broken);
    let (_, x012) = report.all().find(|(_, f)| f.code == "X012").unwrap();
    assert!(
        x012.message.starts_with(&format!("{path}: no such file")),
        "{}",
        x012.message
    );

    // An entry no instance uses needs no file (in the first small world that leaves one
    // unused).
    let unused_in = |files: &WorldFiles| {
        OBJECTS
            .iter()
            .enumerate()
            .find(|(i, _)| {
                files
                    .navmeshes
                    .values()
                    .all(|m| m.objects.iter().all(|o| o.object_id as usize != *i))
            })
            .map(|(_, r)| r.path)
    };
    let (base, unused) = (11..40)
        .find_map(|seed| {
            let files = generated_files(seed, 1, 1);
            let unused = unused_in(&files)?;
            Some((files, unused))
        })
        .expect("a world with an unused catalog entry");
    let mut spare = base.clone();
    spare.object_files.remove(unused);
    assert!(errors(&spare).is_empty());
}

#[test]
fn lint_carries_each_meshs_findings_with_its_path() {
    let base = generated_files(11, 2, 2);
    let mut broken = base.clone();
    let (name, mesh) = broken
        .object_files
        .iter_mut()
        .find(|(_, m)| m.nav.is_some())
        .unwrap();
    let name = name.clone();
    mesh.nav.as_mut().unwrap().cells[0].vertices[0] = 9999;
    let found = errors(&broken);
    assert!(found.contains(&(name.clone(), "B001")), "{found:?}");
    assert!(found.iter().all(|(file, _)| *file == name), "{found:?}");
}

#[test]
fn lint_finds_instances_outside_their_region() {
    let base = generated_files(11, 2, 2);
    let (region, owned_at, foreign_at) = base
        .navmeshes
        .iter()
        .find_map(|(r, m)| {
            let own = m.objects.iter().position(|o| o.region_id == r.0)?;
            let other = m.objects.iter().position(|o| o.region_id != r.0)?;
            Some((*r, own, other))
        })
        .expect("a region with an owned and a neighbour-owned instance");
    let file = region.file_name();
    let set = |files: &mut WorldFiles, i: usize, x: f32| {
        let m: &mut NavMesh = files.navmeshes.get_mut(&region).unwrap();
        m.objects[i].position[0] = jmxv::F32::from(x);
    };
    // An owned instance just past its region's edge; a neighbour's may reach one region out.
    let mut broken = base.clone();
    set(&mut broken, owned_at, 1920.5);
    assert!(
        errors(&broken).contains(&(file.clone(), "X013")),
        "{:?}",
        errors(&broken)
    );
    let mut fine = base.clone();
    set(&mut fine, foreign_at, -1900.0);
    assert!(
        !errors(&fine).iter().any(|(_, c)| *c == "X013"),
        "{:?}",
        errors(&fine)
    );
    let mut broken = base.clone();
    set(&mut broken, foreign_at, -1920.5);
    assert!(errors(&broken).contains(&(file.clone(), "X013")));
    let mut broken = base.clone();
    set(&mut broken, owned_at, f32::NAN);
    assert!(errors(&broken).contains(&(file, "X013")));
}

/// The bridge halves of a generated world whose inner end (where the two halves meet, the
/// bridge's middle) stands over a lake: per half, its owner region, the instance, and whether
/// the tile under its outer end is walkable.
fn water_bridges(files: &WorldFiles) -> Vec<(RegionId, Object, bool)> {
    let mut found = Vec::new();
    for (region, o) in owned(files) {
        if class_of(o) != ObjectClass::Bridge {
            continue;
        }
        let nav = nav_of(files, o).expect("bridges have a mesh");
        // The deck runs along its own x; its ends are the extreme x of its vertices.
        let xs = nav.vertices.iter().map(|v| f64::from(v.position[0].get()));
        let (lo, hi) = xs.fold((f64::MAX, f64::MIN), |(a, b), x| (a.min(x), b.max(x)));
        let (sin, cos) = f64::from(o.yaw.get()).sin_cos();
        let place = |x: f64| {
            (
                x * cos + f64::from(o.position[0].get()),
                x * sin + f64::from(o.position[2].get()),
            )
        };
        let tile_open = |(x, z): (f64, f64)| {
            let n = TILES_PER_SIDE as i64;
            let (tx, tz) = ((x / 20.0).floor() as i64, (z / 20.0).floor() as i64);
            assert!(
                (0..n).contains(&tx) && (0..n).contains(&tz),
                "inside its region"
            );
            !files.navmeshes[&region].tiles[(tz * n + tx) as usize].is_blocked()
        };
        // The inner end (its own +x) over blocked ground (a lake), the outer end a little
        // inside the deck over walkable ground.
        if tile_open(place(hi - 5.0)) {
            continue;
        }
        found.push((region, o.clone(), tile_open(place(lo + 5.0))));
    }
    found
}

#[test]
fn some_bridges_cross_lakes_from_dry_bank_to_dry_bank() {
    let mut total = 0;
    // Lakes narrow enough to bridge are rare: these seeds have one each.
    for seed in [2, 3] {
        let files = generated_files(seed, 3, 3);
        let found = water_bridges(&files);
        println!("seed {seed}: {} bridge halves over lakes", found.len());
        assert_eq!(found.len() % 2, 0, "seed {seed}: bridges come in halves");
        for (region, o, outer_end_dry) in found {
            assert!(outer_end_dry, "seed {seed} {region:?} uid {}", o.uid);
            assert_eq!(o.links.len(), 1, "the halves link to each other");
            // The deck stands above the water.
            let plane = files.navmeshes[&region].planes.heights[0].get();
            assert!(
                o.position[1].get() >= -150.0,
                "{} vs water {plane}",
                o.position[1].get()
            );
            total += 1;
        }
        assert!(
            errors(&files).is_empty(),
            "seed {seed}: {:?}",
            errors(&files)
        );
    }
    println!("bridge halves over lakes in seeds 2 and 3: {total}");
    assert!(
        total >= 4,
        "bridge halves over lakes in seeds 2 and 3: {total}"
    );
}

#[test]
fn open_landscapes_are_mostly_open_with_many_small_obstacles() {
    let options = |landscape| GenOptions {
        seed: 3,
        width: 2,
        height: 2,
        origin: DEFAULT_ORIGIN,
        landscape,
    };
    let open = generate(&options(Landscape::Open)).unwrap().into_files();
    let rugged = generate(&options(Landscape::Rugged)).unwrap().into_files();
    let blocked = |files: &WorldFiles| -> usize {
        files
            .navmeshes
            .values()
            .map(|m| m.tiles.iter().filter(|t| t.is_blocked()).count())
            .sum()
    };
    let tiles = 4 * TILES_PER_SIDE * TILES_PER_SIDE;
    let (open_blocked, rugged_blocked) = (blocked(&open), blocked(&rugged));
    println!("blocked tiles: open {open_blocked}, rugged {rugged_blocked} of {tiles}");
    assert!(
        open_blocked < rugged_blocked,
        "open is more open than rugged"
    );
    assert!(
        open_blocked * 100 < tiles * 12,
        "at most 12% blocked: {open_blocked}"
    );
    // Scattered obstacles: many separate blocked clusters (4-connected), most of them small.
    let n = TILES_PER_SIDE;
    let mut clusters = Vec::new();
    for mesh in open.navmeshes.values() {
        let mut seen = vec![false; n * n];
        for start in 0..n * n {
            if seen[start] || !mesh.tiles[start].is_blocked() {
                continue;
            }
            let (mut stack, mut size) = (vec![start], 0);
            seen[start] = true;
            while let Some(t) = stack.pop() {
                size += 1;
                let (x, z) = (t % n, t / n);
                let around = [
                    (x > 0).then(|| t - 1),
                    (x + 1 < n).then(|| t + 1),
                    (z > 0).then(|| t - n),
                    (z + 1 < n).then(|| t + n),
                ];
                for u in around.into_iter().flatten() {
                    if !seen[u] && mesh.tiles[u].is_blocked() {
                        seen[u] = true;
                        stack.push(u);
                    }
                }
            }
            clusters.push(size);
        }
    }
    let small = clusters.iter().filter(|&&s| s <= 13).count();
    println!(
        "open: {} blocked clusters, {small} of at most 13 tiles",
        clusters.len()
    );
    assert!(clusters.len() >= 40, "{} clusters", clusters.len());
    assert!(small * 4 >= clusters.len() * 3, "most clusters are small");
    // Still a valid, clean world, and the same bytes again.
    assert!(errors(&open).is_empty(), "{:?}", errors(&open));
    let again = generate(&options(Landscape::Open)).unwrap().into_files();
    assert_eq!(again.to_files().unwrap(), open.to_files().unwrap());
}
