//! Worlds opened from any archive: opening it as a world (at its root and at `navmesh`),
//! reading the world's files, loading it with its objects and the corpus report never panic
//! or hang, and what they find stays within what the archive lists.
//!
//! The input is framed as `pk2_read`'s: an odd first byte puts a plain (unencrypted) header in
//! front of the rest, so that the directory entries (names, positions, sizes) are fuzzed in
//! the clear; an even one takes the rest as a whole archive, encrypted with the default key.

#![no_main]

use libfuzzer_sys::fuzz_target;
use silknav::files::{WorldFiles, WorldSource};
use silknav::pk2_archive::{plain_header, Key};
use silknav::{LoadOptions, World};

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let bytes = if mode & 1 == 1 {
        [&plain_header()[..], rest].concat()
    } else {
        rest.to_vec()
    };
    for inner in ["", "navmesh"] {
        let Ok(source) =
            WorldSource::archive_bytes(bytes.clone(), "fuzz.pk2", inner, &Key::default())
        else {
            continue;
        };
        let navmeshes = source.listing().navmeshes().count();
        if let Ok(files) = WorldFiles::read(&source) {
            assert!(files.navmeshes.len() <= navmeshes);
        }
        if let Ok(world) = World::load_source(&source, &LoadOptions::default()) {
            assert!(world.regions().len() <= navmeshes);
        }
        let listed = source.files().expect("an archive's folders always list");
        let corpus = silknav::corpus::scan(&source).expect("an archive's folders always list");
        assert_eq!(corpus.files as usize, listed.len());
        assert!(corpus.unreadable.len() as u64 <= corpus.read);
    }
});
