//! The commands on the test kit's game-like regions (which lint clean by construction).

use crate::support::*;
use silknav_testkit::{realistic_region, TEST_REGION};

#[test]
fn game_like_regions_lint_clean_and_round_trip() {
    let dir = temp();
    let name = TEST_REGION.file_name();
    for seed in [1, 2, 3] {
        let mesh = realistic_region(seed);
        let original = write_nvm(dir.path(), &name, &mesh);

        let lint = silknav(dir.path(), &["lint", &name]);
        assert_eq!(lint.code, 0, "seed {seed}: {}", lint.stdout);
        assert!(
            lint.stdout.starts_with(&format!(
                "{name}: 0 errors, 0 warnings; region 694e; directions: "
            )),
            "{}",
            lint.stdout
        );

        let dump = silknav(dir.path(), &["dump", &name, "-o", "d.json", "--force"]);
        assert_eq!(dump.code, 0, "{}", dump.stderr);
        let pack = silknav(dir.path(), &["pack", "d.json", "-o", "p.nvm", "--force"]);
        assert_eq!(pack.code, 0, "{}", pack.stderr);
        assert_eq!(
            std::fs::read(dir.path().join("p.nvm")).unwrap(),
            std::fs::read(&original).unwrap()
        );

        let info = silknav(dir.path(), &["info", &name]);
        let expected = format!(
            "{name}: layout=standard region=694e objects={} cells={} open_cells={} ",
            mesh.objects.len(),
            mesh.cells.len(),
            mesh.open_cell_count
        );
        assert!(info.stdout.starts_with(&expected), "{}", info.stdout);
    }
}

/// Files written by another implementation of the spec (the test kit's independent writer),
/// in all three layouts and with odd values, come back byte-identical through dump and pack.
#[test]
fn files_of_an_independent_writer_survive_dump_and_pack() {
    use silknav_testkit::second_writer::nvm::SpecFile;
    let dir = temp();
    for seed in 0..6 {
        for layout in 0..3 {
            let bytes = SpecFile::random(seed, layout).to_bytes();
            std::fs::write(dir.path().join("in.nvm"), &bytes).unwrap();
            let dump = silknav(dir.path(), &["dump", "in.nvm", "-o", "in.json", "--force"]);
            assert_eq!(dump.code, 0, "seed {seed} layout {layout}: {}", dump.stderr);
            let pack = silknav(dir.path(), &["pack", "in.json", "-o", "out.nvm", "--force"]);
            assert_eq!(pack.code, 0, "seed {seed} layout {layout}: {}", pack.stderr);
            assert!(
                std::fs::read(dir.path().join("out.nvm")).unwrap() == bytes,
                "seed {seed} layout {layout}"
            );
        }
    }
}
