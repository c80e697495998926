//! Integration tests of the silknav crate: generated and imported worlds, world lint.

mod anyangle;
mod archives;
mod corpus;
mod floors;
mod fuzz_objects;
mod fuzz_world;
mod generated_dungeons;
mod generated_objects;
mod index_file;
mod invariants;
mod loading;
mod movingai;
mod objects;
mod paths;
mod queries;
mod radius;
mod server_walk;
mod snap;
mod walkable;
mod world_coordinates;
mod worlds;

/// The files of the generated world of `seed`, `width`×`height` regions (the other options
/// their defaults: rugged, at the default origin).
fn generated_files(seed: u64, width: u8, height: u8) -> silknav::files::WorldFiles {
    use silknav::worldgen::{generate, GenOptions};
    generate(&GenOptions {
        seed,
        width,
        height,
        ..GenOptions::default()
    })
    .unwrap()
    .into_files()
}

/// The generated world of `seed`, `width`×`height` regions (the other options their
/// defaults), written as a data root into a new temporary folder and loaded from there: the
/// folder (removed when dropped), the files and the world.
fn written_world(
    seed: u64,
    width: u8,
    height: u8,
) -> (
    tempfile::TempDir,
    silknav::files::WorldFiles,
    silknav::World,
) {
    let files = generated_files(seed, width, height);
    let dir = tempfile::tempdir().unwrap();
    files
        .write_data_root(dir.path(), silknav::files::Overwrite::Refuse)
        .unwrap();
    let world = silknav::World::load(dir.path()).unwrap();
    (dir, files, world)
}

/// The object meshes of generated files by object id, as their `object.ifo` names them.
fn meshes_by_id(
    files: &silknav::files::WorldFiles,
) -> std::collections::BTreeMap<u32, jmxv::bms::ObjectMesh> {
    let Some(ifo) = files.object_ifo.as_ref() else {
        return Default::default();
    };
    ifo.entries
        .iter()
        .filter_map(|e| {
            let name = std::str::from_utf8(&e.path).ok()?;
            Some((e.index, files.object_files.get(name)?.clone()))
        })
        .collect()
}
