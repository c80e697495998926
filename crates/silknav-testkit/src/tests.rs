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

/// An error that repeats its source's text, as a wrapper should not.
#[derive(Debug)]
struct Repeating(std::io::Error);

impl std::fmt::Display for Repeating {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "saving: {}", self.0)
    }
}

impl std::error::Error for Repeating {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.0)
    }
}

#[test]
fn error_chain_lists_each_text() {
    let io = std::io::Error::other("disk full");
    assert_eq!(crate::error_chain(&io), ["disk full"]);
}

#[test]
#[should_panic(expected = "repeats its source")]
fn error_chain_refuses_a_repeated_text() {
    crate::error_chain(&Repeating(std::io::Error::other("disk full")));
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
