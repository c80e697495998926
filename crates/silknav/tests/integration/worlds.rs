//! Generated worlds: valid, game-like, reproducible; world lint catches broken ones.

use crate::invariants::violations;
use jmxv::nvm::lint::Severity;
use jmxv::RegionId;
use silknav::files::{Overwrite, WorldFiles, WriteFileError};
use silknav::lint::lint_world;
use silknav::worldgen::{generate, GenOptions, Landscape};

use crate::generated_files;

fn codes(files: &WorldFiles) -> Vec<&'static str> {
    let report = lint_world(files);
    report
        .all()
        .filter(|(_, f)| f.severity == Severity::Error)
        .map(|(_, f)| f.code)
        .collect()
}

#[test]
fn generated_worlds_satisfy_every_invariant_and_lint_clean() {
    for (seed, w, h) in [(1, 2, 2), (2, 3, 1), (3, 1, 3), (4, 3, 3), (99, 1, 1)] {
        let files = generated_files(seed, w, h);
        assert_eq!(files.navmeshes.len(), usize::from(w) * usize::from(h));
        let problems = violations(&files.navmeshes);
        assert!(
            problems.is_empty(),
            "seed {seed} {w}x{h}: {:#?}",
            &problems[..problems.len().min(10)]
        );
        let report = lint_world(&files);
        let findings: Vec<String> = report
            .all()
            .map(|(file, f)| format!("{file}: {f}"))
            .collect();
        assert!(findings.is_empty(), "seed {seed} {w}x{h}: {findings:#?}");
    }
}

#[test]
fn same_seed_same_bytes_and_other_seeds_differ() {
    let a = generated_files(7, 2, 2).to_files().unwrap();
    let b = generated_files(7, 2, 2).to_files().unwrap();
    assert_eq!(a, b);
    let c = generated_files(8, 2, 2).to_files().unwrap();
    assert_ne!(a, c);
}

#[test]
fn generated_files_are_game_sized_and_varied() {
    let files = generated_files(3, 4, 4);
    let mut sizes = Vec::new();
    for mesh in files.navmeshes.values() {
        let len = mesh.to_vec().unwrap().len();
        assert!((110_000..=250_000).contains(&len), "{len} bytes");
        sizes.push(len);
    }
    sizes.sort();
    // Not all alike: flat and broken ground give different sizes.
    assert!(sizes[sizes.len() - 1] - sizes[0] > 5_000, "{sizes:?}");
    let meshes: Vec<_> = files.navmeshes.values().collect();
    assert!(
        meshes
            .iter()
            .any(|m| m.objects.iter().any(|o| !o.links.is_empty())),
        "some linked objects"
    );
    assert!(
        meshes
            .iter()
            .any(|m| m.planes.types.iter().any(|&t| t & 2 != 0)),
        "some ice"
    );
    assert!(
        meshes.iter().any(|m| m.planes.types.contains(&1)),
        "some open water"
    );
    let foreign = meshes
        .iter()
        .flat_map(|m| m.objects.iter().map(move |o| (o.region_id, m)))
        .filter(|(owner, _)| files.navmeshes.keys().all(|r| r.0 != *owner))
        .count();
    assert_eq!(foreign, 0, "every owner is part of the world");
    let shared = files
        .navmeshes
        .iter()
        .flat_map(|(r, m)| m.objects.iter().filter(move |o| o.region_id != r.0))
        .count();
    assert!(shared > 0, "some objects are listed by a neighbour");
}

#[test]
fn files_round_trip_through_a_folder() {
    let files = generated_files(5, 2, 1);
    let dir = std::env::temp_dir().join(format!("silknav-worlds-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    files.write_dir(&dir, Overwrite::Refuse).unwrap();
    let refused = files.write_dir(&dir, Overwrite::Refuse).unwrap_err();
    assert!(
        matches!(&refused, WriteFileError::Exists { path } if path.starts_with(&dir)),
        "refuses to overwrite without being asked: {refused}"
    );
    let back = WorldFiles::read_dir(&dir).unwrap();
    assert_eq!(back.to_files().unwrap(), files.to_files().unwrap());
    files.write_dir(&dir, Overwrite::Replace).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn lint_catches_each_broken_cross_file_invariant() {
    let base = generated_files(11, 2, 2);
    assert!(codes(&base).is_empty());
    let first = *base.navmeshes.keys().next().unwrap();
    let with_global = *base
        .navmeshes
        .iter()
        .find(|(_, m)| !m.global_edges.is_empty())
        .unwrap()
        .0;

    let mut broken = base.clone();
    broken.navmeshes.get_mut(&with_global).unwrap().global_edges[0].a[1] = jmxv::F32::from(7.0);
    assert!(
        codes(&broken).contains(&"X001"),
        "twin: {:?}",
        codes(&broken)
    );

    let mut broken = base.clone();
    let edge = &mut broken.navmeshes.get_mut(&with_global).unwrap().global_edges[0];
    let other = RegionId(edge.region[1]);
    edge.cell[1] = 60_000;
    assert!(codes(&broken).contains(&"X003"), "{:?}", codes(&broken));
    let _ = other;

    let mut broken = base.clone();
    broken.navmeshes.remove(&first);
    let c = codes(&broken);
    assert!(c.contains(&"X004") && c.contains(&"X002"), "{c:?}");
    // Each neighbour has many edges into the missing region; they are capped per file.
    let report = lint_world(&broken);
    let mut per_file = std::collections::HashMap::new();
    for w in report.world.iter().filter(|w| w.finding.code == "X002") {
        *per_file.entry(w.file.clone()).or_insert(0usize) += 1;
    }
    assert!(
        per_file
            .values()
            .all(|&n| n <= silknav::lint::MAX_PER_CODE + 1),
        "{per_file:?}"
    );

    let mut broken = base.clone();
    broken.mapinfo.as_mut().unwrap().set_enabled(first, false);
    assert!(codes(&broken).contains(&"X005"));

    let mut broken = base.clone();
    broken.navmeshes.get_mut(&first).unwrap().objects[0].object_id = 9999;
    assert!(codes(&broken).contains(&"X006"));

    let mut broken = base.clone();
    broken.navmeshes.get_mut(&first).unwrap().tiles[5].texture_id = 500;
    assert!(codes(&broken).contains(&"X007"));

    let mut broken = base.clone();
    broken.navmeshes.get_mut(&first).unwrap().heights[96] = jmxv::F32::from(12345.0);
    let report = lint_world(&broken);
    assert!(report
        .all()
        .any(|(_, f)| f.code == "X008" && f.severity == Severity::Warning));

    // A copy of a neighbour's object that disagrees, and one whose owner forgot it.
    let (region, index) = base
        .navmeshes
        .iter()
        .find_map(|(r, m)| {
            m.objects
                .iter()
                .position(|o| o.region_id != r.0)
                .map(|i| (*r, i))
        })
        .expect("a shared object");
    let mut broken = base.clone();
    broken.navmeshes.get_mut(&region).unwrap().objects[index].yaw = jmxv::F32::from(0.123);
    assert!(codes(&broken).contains(&"X009"));
    let mut broken = base.clone();
    broken.navmeshes.get_mut(&region).unwrap().objects[index].uid = 4000;
    assert!(codes(&broken).contains(&"X010"));

    let mut broken = base.clone();
    broken.object_ifo = None;
    assert!(lint_world(&broken).all().any(|(_, f)| f.code == "X011"));
}

#[test]
fn options_outside_the_id_space_are_refused() {
    assert!(generate(&GenOptions {
        seed: 1,
        width: 0,
        height: 1,
        origin: (0, 0),
        landscape: Landscape::Rugged,
    })
    .is_err());
    assert!(generate(&GenOptions {
        seed: 1,
        width: 2,
        height: 2,
        origin: (255, 0),
        landscape: Landscape::Rugged,
    })
    .is_err());
    assert!(generate(&GenOptions {
        seed: 1,
        width: 1,
        height: 2,
        origin: (0, 127),
        landscape: Landscape::Rugged,
    })
    .is_err());
}
