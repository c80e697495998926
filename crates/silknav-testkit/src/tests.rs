//! The builders' own promises: valid, deterministic, game-like sizes.

use super::*;

#[test]
fn realistic_region_has_game_like_counts_and_round_trips() {
    for seed in 0..8 {
        let mesh = realistic_region(seed);
        let bytes = bytes_of(&mesh);
        assert_eq!(NavMesh::parse(&bytes).unwrap(), mesh);
        assert_eq!(realistic_region(seed), mesh, "same seed, same mesh");
        let edges = mesh.global_edges.len() + mesh.internal_edges.len();
        println!(
            "seed {seed}: {} cells, {edges} edges, {} bytes",
            mesh.cells.len(),
            bytes.len()
        );
        assert!(
            (60..=200).contains(&mesh.cells.len()),
            "seed {seed}: {} cells",
            mesh.cells.len()
        );
        assert!((150..=600).contains(&edges), "seed {seed}: {edges} edges");
        assert_eq!(mesh.objects.len(), 20);
    }
}

#[test]
fn open_region_is_four_cells_with_border_walls() {
    let mesh = open_region(TEST_REGION);
    assert_eq!(mesh.cells.len(), 4);
    assert_eq!(mesh.open_cell_count, 4);
    let passages = mesh
        .internal_edges
        .iter()
        .filter(|e| e.flag == 0x04)
        .count();
    let walls = mesh
        .internal_edges
        .iter()
        .filter(|e| e.flag == 0x02)
        .count();
    assert_eq!(passages, 4);
    assert_eq!(walls, 8);
    assert!(mesh.global_edges.is_empty());
}

#[test]
fn sha1_matches_the_fips_180_examples() {
    assert_eq!(sha1::hex(b""), "da39a3ee5e6b4b0d3255bfef95601890afd80709");
    assert_eq!(
        sha1::hex(b"abc"),
        "a9993e364706816aba3e25717850c26c9cd0d89d"
    );
    // Two blocks: the padding does not fit after 56 bytes.
    assert_eq!(
        sha1::hex(b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
        "84983e441c3bd26ebaae4aa1f95129e5e54670f1"
    );
    assert_eq!(
        sha1::hex(&vec![b'a'; 1_000_000]),
        "34aa973cd4c4daa4f61eeb2bdbad27316534016f"
    );
}

#[test]
fn the_movingai_folder_is_found_and_its_table_read() {
    let dir = movingai::data_dir();
    assert!(dir.join("maps/arena.map").is_file(), "{}", dir.display());
    let sources = movingai::sources();
    for name in movingai::MAPS {
        let map = sources.iter().find(|s| s.file == format!("maps/{name}"));
        assert_eq!(map.map(|s| s.queries), Some(None), "{name}");
    }
    let arena = movingai::map("arena.map");
    assert_eq!((arena.width, arena.height), (49, 49));
    assert_eq!(movingai::octile("arena.map").len(), 130);
    assert_eq!(movingai::anyangle("arena.map").len(), 130);
}
