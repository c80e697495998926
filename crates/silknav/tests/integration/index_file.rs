//! The path index file: written by `PathIndex::write`, used by `Navigator::load_source`, and
//! every way a file can be wrong refused with its offset and what is wrong.

use silknav::files::WorldSource;
use silknav::files::{index_file_in, IndexFileError, FORMAT_VERSION};
use silknav::files::{Overwrite, WorldLocation};
use silknav::path::PathIndexFile;
use silknav::worldgen::{generate, GenOptions};
use silknav::{
    LoadOptions, Navigator, PathIndex, PathIndexFound, PathIndexUse, PathOptions, PathScratch,
    Position, Surface, World, WorldPath,
};
use std::path::{Path, PathBuf};

/// A generated 2×2 world written as a data root, and where its index file goes.
fn world_folder(seed: u64) -> (tempfile::TempDir, PathBuf) {
    world_folder_of(seed, 2)
}

/// A generated `side`×`side` world written as a data root, and where its index file goes.
fn world_folder_of(seed: u64, side: u8) -> (tempfile::TempDir, PathBuf) {
    let root = tempfile::tempdir().unwrap();
    crate::generated_files(seed, side, side)
        .write_data_root(root.path(), Overwrite::Refuse)
        .unwrap();
    let index = index_file_in(&WorldLocation::find(root.path()));
    (root, index)
}

fn terrain(dir: &Path, use_index: PathIndexUse) -> Navigator {
    load_terrain(dir, use_index).unwrap()
}

fn load_terrain(
    dir: &Path,
    use_index: PathIndexUse,
) -> Result<Navigator, silknav::files::LoadError> {
    let source = WorldSource::open(dir)?;
    Navigator::load_source(&source, &LoadOptions::terrain_only(), use_index)
}

/// Seeded pairs of walkable points of the world.
fn queries(world: &World, n: usize) -> Vec<(Position, Position)> {
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let regions: Vec<_> = world.regions().collect();
    let mut walkable = || loop {
        let r = regions[(next() % regions.len() as u64) as usize];
        let p = Position::new(r, (next() % 1920) as f32, (next() % 1920) as f32);
        if world.cell_at(p, Surface::Terrain).is_some() {
            return p;
        }
    };
    (0..n).map(|_| (walkable(), walkable())).collect()
}

/// The default (walkable) paths' answers.
fn answers(
    world: &Navigator,
    queries: &[(Position, Position)],
) -> Vec<Result<WorldPath, silknav::PathError>> {
    answers_with(world, queries, &PathOptions::default())
}

/// Answers of paths with `options`.
fn answers_with(
    world: &Navigator,
    queries: &[(Position, Position)],
    options: &PathOptions,
) -> Vec<Result<WorldPath, silknav::PathError>> {
    let mut scratch = PathScratch::new();
    queries
        .iter()
        .map(|&(a, b)| world.find_path(a, b, options, &mut scratch))
        .collect()
}

/// The header fields a file's build time and checksum live in, which differ between two
/// writes of the same index.
fn without_time(mut bytes: Vec<u8>) -> Vec<u8> {
    bytes[24..32].fill(0);
    bytes[56..64].fill(0);
    bytes
}

#[test]
fn built_in_parallel_loaded_from_the_file_and_built_on_one_thread_answer_the_same() {
    let (root, index) = world_folder(3);
    let pool = |n| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build()
            .unwrap()
    };
    let parallel = pool(4).install(|| terrain(root.path(), PathIndexUse::Skip));
    assert!(!parallel.has_paths());
    let bytes = pool(4).install(|| parallel.paths().write(&index, Overwrite::Refuse).unwrap());
    assert_eq!(std::fs::metadata(&index).unwrap().len(), bytes);

    let loaded = terrain(root.path(), PathIndexUse::IfValid);
    assert_eq!(*loaded.index_file(), PathIndexFound::Used(index.clone()));
    assert!(loaded.has_paths(), "the index comes with the world");
    let stats = loaded.paths().stats();
    assert!(stats.load_time.is_some(), "{stats:?}");
    assert_eq!(stats.edges, parallel.paths().stats().edges);
    // The corner table is made again on reading (it is not in the file).
    assert!(stats.corner_table, "{stats:?}");
    assert!(parallel.paths().stats().corner_table);

    let single = pool(1).install(|| {
        let world = terrain(root.path(), PathIndexUse::Skip);
        world.paths().stats();
        world
    });
    let one_thread_file = root.path().join("one-thread.index");
    single
        .paths()
        .write(&one_thread_file, Overwrite::Refuse)
        .unwrap();
    assert_eq!(
        without_time(std::fs::read(&index).unwrap()),
        without_time(std::fs::read(&one_thread_file).unwrap()),
        "the same index, byte for byte"
    );

    let queries = queries(parallel.world(), 300);
    let want = answers(&parallel, &queries);
    assert!(want.iter().filter(|a| a.is_ok()).count() > 150);
    assert_eq!(answers(&loaded, &queries), want);
    assert_eq!(answers(&single, &queries), want);
}

#[test]
fn an_index_file_is_not_replaced_without_overwrite() {
    let (root, index) = world_folder(1);
    let world = terrain(root.path(), PathIndexUse::Skip);
    world.paths().write(&index, Overwrite::Refuse).unwrap();
    let before = std::fs::read(&index).unwrap();
    let err = world.paths().write(&index, Overwrite::Refuse).unwrap_err();
    assert!(
        matches!(err, silknav::files::WriteFileError::Exists { .. }),
        "{err}"
    );
    assert_eq!(std::fs::read(&index).unwrap(), before);
    world.paths().write(&index, Overwrite::Replace).unwrap();
}

/// A loaded index views the file's bytes in place (mapped, on Unix): replacing the file the
/// way `write_path_index` does (a new file renamed over the old one) leaves a world that uses
/// it answering as it did.
#[test]
fn replacing_an_index_file_leaves_a_world_that_uses_it_as_it_was() {
    let (root, index) = world_folder(6);
    let world = terrain(root.path(), PathIndexUse::Skip);
    world.paths().write(&index, Overwrite::Refuse).unwrap();
    let loaded = terrain(root.path(), PathIndexUse::IfValid);
    assert_eq!(*loaded.index_file(), PathIndexFound::Used(index.clone()));
    let queries = queries(world.world(), 200);
    let want = answers(&world, &queries);
    assert!(want.iter().filter(|a| a.is_ok()).count() > 100);

    // Another world's index, other bytes, takes the file's place.
    let (other_root, _) = world_folder(7);
    let before = std::fs::read(&index).unwrap();
    terrain(other_root.path(), PathIndexUse::Skip)
        .paths()
        .write(&index, Overwrite::Replace)
        .unwrap();
    assert_ne!(std::fs::read(&index).unwrap(), before);
    assert_eq!(answers(&loaded, &queries), want);
    assert!(
        matches!(
            terrain(root.path(), PathIndexUse::IfValid).index_file(),
            PathIndexFound::Unusable { stale: true, .. }
        ),
        "the new file is another world's"
    );
}

/// Writes the world's index, then damages the file with `damage` and loads the world again:
/// the file is reported unusable (and required, the load fails) with the error `check`
/// accepts.
fn refused(damage: impl FnOnce(&mut Vec<u8>), check: impl Fn(&IndexFileError) -> bool) {
    refused_in(world_folder(2), damage, check)
}

/// [`refused`] on the world of `folder`.
fn refused_in(
    folder: (tempfile::TempDir, PathBuf),
    damage: impl FnOnce(&mut Vec<u8>),
    check: impl Fn(&IndexFileError) -> bool,
) {
    let (root, index) = folder;
    terrain(root.path(), PathIndexUse::Skip)
        .paths()
        .write(&index, Overwrite::Refuse)
        .unwrap();
    let mut bytes = std::fs::read(&index).unwrap();
    damage(&mut bytes);
    std::fs::write(&index, &bytes).unwrap();

    let err = PathIndexFile::read(&index).unwrap_err();
    assert!(check(&err.error), "{err}");
    let text = err.to_string();
    assert!(text.starts_with(&index.display().to_string()), "{text}");

    let world = terrain(root.path(), PathIndexUse::IfValid);
    let PathIndexFound::Unusable { path, reason, .. } = &world.index_file() else {
        panic!("{:?}", world.index_file());
    };
    assert_eq!(path, &index);
    assert_eq!(reason, &err.error.to_string());
    assert!(
        world.world().load_report().is_clean(),
        "the world itself loads clean"
    );
    assert!(!world.has_paths(), "a refused file is not used");
    let err = load_terrain(root.path(), PathIndexUse::Require).unwrap_err();
    assert!(
        matches!(err, silknav::files::LoadError::PathIndex(_)),
        "{err}"
    );
}

/// Recomputes the header's checksum, so that damage past it reaches the deeper checks.
fn reseal(bytes: &mut [u8]) {
    let sum = xxhash_rust::xxh3::xxh3_64(&bytes[32..]);
    bytes[24..32].copy_from_slice(&sum.to_le_bytes());
}

/// The (offset, length) of a section, read from the table as `docs/format.md` lays it out.
fn section(bytes: &[u8], name: &str) -> (usize, usize) {
    let count = u32::from_le_bytes(bytes[48..52].try_into().unwrap()) as usize;
    for i in 0..count {
        let entry = &bytes[64 + 32 * i..64 + 32 * (i + 1)];
        let end = entry[..8].iter().position(|&b| b == 0).unwrap_or(8);
        if &entry[..end] == name.as_bytes() {
            let offset = u64::from_le_bytes(entry[8..16].try_into().unwrap());
            let length = u64::from_le_bytes(entry[16..24].try_into().unwrap());
            return (offset as usize, length as usize);
        }
    }
    panic!("no section {name}");
}

#[test]
fn a_damaged_byte_fails_the_checksum() {
    refused(
        |b| {
            let i = b.len() / 2;
            b[i] ^= 0x40;
        },
        |e| matches!(e, IndexFileError::Checksum { .. }) && e.offset() == Some(24),
    );
}

#[test]
fn a_cut_file_is_refused_by_its_length() {
    refused(
        |b| b.truncate(b.len() - 100),
        |e| matches!(e, IndexFileError::Length { header, actual } if header - actual == 100),
    );
    refused(
        |b| b.truncate(40),
        |e| matches!(e, IndexFileError::Malformed { offset: 40, .. }),
    );
}

#[test]
fn another_format_version_is_refused() {
    refused(
        |b| b[8..12].copy_from_slice(&(FORMAT_VERSION + 1).to_le_bytes()),
        |e| matches!(e, IndexFileError::Version { found } if *found == FORMAT_VERSION + 1),
    );
}

#[test]
fn another_byte_order_is_refused() {
    refused(
        |b| b[12..16].copy_from_slice(&0x0102_0304u32.to_be_bytes()),
        |e| {
            matches!(
                e,
                IndexFileError::ByteOrder {
                    found: [1, 2, 3, 4]
                }
            ) && e.offset() == Some(12)
        },
    );
}

#[test]
fn an_empty_file_is_no_index() {
    refused(
        Vec::clear,
        |e| matches!(e, IndexFileError::NotAnIndex { found } if found.is_empty()),
    );
}

#[test]
fn a_file_that_is_no_index_is_refused() {
    refused(
        |b| b[..8].copy_from_slice(b"nv_4080\0"),
        |e| matches!(e, IndexFileError::NotAnIndex { .. }) && e.offset() == Some(0),
    );
}

#[test]
fn a_record_pointing_outside_its_target_is_refused_at_its_offset() {
    // A portal leading to a rectangle that does not exist, with a checksum that matches.
    let at = std::cell::Cell::new(0);
    refused(
        |b| {
            let (offset, length) = section(b, "portals");
            assert!(length >= 20 * 4);
            at.set(offset + 20 * 3);
            b[at.get() + 12..at.get() + 16].copy_from_slice(&u32::MAX.to_le_bytes());
            reseal(b);
        },
        |e| match e {
            IndexFileError::Malformed {
                offset, section, ..
            } => *offset as usize == at.get() && section == "portals[3]",
            _ => false,
        },
    );
    // An edge to a corner that does not exist.
    refused(
        |b| {
            let (offset, _) = section(b, "edges");
            b[offset..offset + 4].copy_from_slice(&u32::MAX.to_le_bytes());
            reseal(b);
        },
        |e| matches!(e, IndexFileError::Malformed { section, .. } if section == "edges[0]"),
    );
    // A tile naming a rectangle past its region's (0xfffe, next to the "not walkable"
    // 0xffff), found among the region's tiles.
    let at = std::cell::Cell::new(0);
    refused(
        |b| {
            let (offset, _) = section(b, "tiles");
            at.set(offset + 2 * 5);
            b[at.get()..at.get() + 2].copy_from_slice(&0xfffeu16.to_le_bytes());
            reseal(b);
        },
        |e| match e {
            IndexFileError::Malformed {
                offset, section, ..
            } => *offset as usize == at.get() && section == "tiles[5]",
            _ => false,
        },
    );
    // An edge to a corner that does not exist, after the first.
    refused(
        |b| {
            let (offset, length) = section(b, "edges");
            assert!(length >= 8 * 100);
            b[offset + 8 * 99..offset + 8 * 99 + 4].copy_from_slice(&5_000_000u32.to_le_bytes());
            reseal(b);
        },
        |e| matches!(e, IndexFileError::Malformed { section, .. } if section == "edges[99]"),
    );
    // A table entry running past the end of the file.
    refused(
        |b| {
            b[64 + 16..64 + 24].copy_from_slice(&u64::MAX.to_le_bytes());
            reseal(b);
        },
        |e| matches!(e, IndexFileError::Malformed { offset: 80, .. }),
    );
}

#[test]
fn an_index_of_other_navmeshes_is_stale() {
    let (root, index) = world_folder(4);
    terrain(root.path(), PathIndexUse::Skip)
        .paths()
        .write(&index, Overwrite::Refuse)
        .unwrap();
    // One navmesh changes by one byte of a height (still a valid file).
    let navmesh = index.parent().unwrap().join("nv_4080.nvm");
    let mut mesh = silknav::jmxv::nvm::NavMesh::parse(&std::fs::read(&navmesh).unwrap()).unwrap();
    mesh.heights[0] = silknav::jmxv::F32::from_bits(mesh.heights[0].to_bits() ^ 1);
    std::fs::write(&navmesh, mesh.to_vec().unwrap()).unwrap();

    let world = terrain(root.path(), PathIndexUse::IfValid);
    match &world.index_file() {
        PathIndexFound::Unusable { stale, reason, .. } => {
            assert!(stale);
            assert!(
                reason.starts_with("stale: built from other navmeshes"),
                "{reason}"
            );
        }
        other => panic!("{other:?}"),
    }
    assert!(!world.has_paths());
    // A file is sound on its own; only the world tells it is stale.
    let file = PathIndexFile::read(&index).unwrap();
    let err = PathIndex::from_file(world.world(), file).unwrap_err();
    assert!(err.is_stale(), "{err}");
    // Written again, it is used.
    world.paths().write(&index, Overwrite::Replace).unwrap();
    let again = terrain(root.path(), PathIndexUse::IfValid);
    assert_eq!(*again.index_file(), PathIndexFound::Used(index));
}

#[test]
fn a_world_without_an_index_file_reports_it_missing_and_skip_does_not_look() {
    let (root, index) = world_folder(5);
    let world = terrain(root.path(), PathIndexUse::IfValid);
    assert_eq!(*world.index_file(), PathIndexFound::Missing(index.clone()));
    assert!(world.world().load_report().is_clean());
    let skipped = terrain(index.parent().unwrap(), PathIndexUse::Skip);
    assert_eq!(*skipped.index_file(), PathIndexFound::NotLookedFor);
    // The data root and the navmesh folder share one index file.
    world.paths().write(&index, Overwrite::Refuse).unwrap();
    let from_navmesh = terrain(index.parent().unwrap(), PathIndexUse::IfValid);
    assert_eq!(*from_navmesh.index_file(), PathIndexFound::Used(index));
}

#[test]
fn worlds_from_memory_have_the_digest_of_their_files() {
    let files = generate(&GenOptions::default()).unwrap().into_files();
    let in_memory = World::from_navmeshes(files.navmeshes.iter().map(|(r, m)| (*r, m)));
    let root = tempfile::tempdir().unwrap();
    files
        .write_data_root(root.path(), Overwrite::Refuse)
        .unwrap();
    let loaded = terrain(root.path(), PathIndexUse::Skip);
    assert!(in_memory.inputs_digest().is_some());
    assert_eq!(in_memory.inputs_digest(), loaded.world().inputs_digest());
    // So an index written from one is used by the other.
    let path = root.path().join("memory.index");
    PathIndex::build(&in_memory)
        .write(&path, Overwrite::Refuse)
        .unwrap();
    let read = PathIndex::read(loaded.world(), &path).unwrap();
    assert!(read.is_for(loaded.world()));
    assert!(
        !read.is_for(&in_memory),
        "an index answers for the world it was read for"
    );
}

/// Answers of exact paths (the search itself, without the walkable rule's corners moved).
fn exact_answers(
    world: &Navigator,
    queries: &[(Position, Position)],
) -> Vec<Result<WorldPath, silknav::PathError>> {
    answers_with(world, queries, &PathOptions::exact())
}

#[test]
fn landmarks_travel_in_the_file_and_a_file_without_them_answers_the_same() {
    // 3×3 regions: too big for a corner table, so the search runs, with landmarks.
    let (root, index) = world_folder_of(1, 3);
    let built = terrain(root.path(), PathIndexUse::Skip);
    let stats = built.paths().stats();
    assert!(!stats.corner_table && stats.landmarks, "{stats:?}");
    built.paths().write(&index, Overwrite::Refuse).unwrap();
    let bytes = std::fs::read(&index).unwrap();
    assert_eq!(section(&bytes, "landmrks").1, stats.corners * 64);

    let queries = queries(built.world(), 200);
    let want = exact_answers(&built, &queries);
    assert!(want.iter().filter(|a| a.is_ok()).count() > 100);
    let loaded = terrain(root.path(), PathIndexUse::IfValid);
    assert_eq!(*loaded.index_file(), PathIndexFound::Used(index.clone()));
    assert!(loaded.paths().stats().landmarks);
    assert_eq!(exact_answers(&loaded, &queries), want);

    // A file written before landmarks were kept: the section is not there (here, renamed to
    // one this version does not know, which readers skip).
    let mut older = bytes.clone();
    let slot = (0..u32::from_le_bytes(older[48..52].try_into().unwrap()) as usize)
        .find(|i| older[64 + 32 * i..64 + 32 * i + 8] == *b"landmrks")
        .expect("a landmrks entry");
    older[64 + 32 * slot + 7] = b'x';
    reseal(&mut older);
    std::fs::write(&index, &older).unwrap();
    let without = terrain(root.path(), PathIndexUse::IfValid);
    assert_eq!(*without.index_file(), PathIndexFound::Used(index.clone()));
    let stats = without.paths().stats();
    assert!(!stats.landmarks && !stats.corner_table, "{stats:?}");
    let got = exact_answers(&without, &queries);
    for ((got, want), q) in got.iter().zip(&want).zip(&queries) {
        match (got, want) {
            (Ok(a), Ok(b)) => assert!(
                (a.length - b.length).abs() <= 1e-9 * b.length.max(1.0),
                "{q:?}: {} vs {}",
                a.length,
                b.length
            ),
            (a, b) => assert_eq!(a.as_ref().err(), b.as_ref().err(), "{q:?}"),
        }
    }
}

#[test]
fn a_landmark_distance_that_is_nan_or_negative_is_refused() {
    for (value, record) in [(f32::NAN, 0), (-1.0, 5)] {
        let at = std::cell::Cell::new(0);
        refused_in(
            world_folder_of(1, 3),
            |b| {
                let (offset, length) = section(b, "landmrks");
                assert!(length >= 64 * (record + 1));
                at.set(offset + 64 * record);
                let column = at.get() + 4 * 3;
                b[column..column + 4].copy_from_slice(&value.to_le_bytes());
                reseal(b);
            },
            |e| match e {
                IndexFileError::Malformed {
                    offset, section, ..
                } => *offset as usize == at.get() && *section == format!("landmrks[{record}]"),
                _ => false,
            },
        );
    }
}
