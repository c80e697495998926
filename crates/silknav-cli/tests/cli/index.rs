//! `silknav index`: the path index written next to the world, used by `silknav path`, refused
//! when stale or damaged with a one-line warning, never replaced without `--force`.

use crate::support::*;

/// A generated 2×2 world in `DIR/w`, and the path its index file takes.
fn world() -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = temp();
    let run = silknav(
        dir.path(),
        &["gen", "--out", "w", "--size", "2x2", "--seed", "3"],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let index = dir.path().join("w/navmesh/silknav.index");
    (dir, index)
}

/// Paths between points of the 2×2 world, as `silknav path` answers them in a batch.
const QUERIES: &str =
    "245930 125470 247350 126050\n246100 126000 248900 124100\n245800 123000 249300 126500\n";

#[test]
fn index_writes_the_file_that_path_then_uses_with_the_same_answers() {
    let (dir, index) = world();
    let without = silknav_with_stdin(dir.path(), &["path", "w"], QUERIES.as_bytes());
    assert_eq!(without.code, 0, "{}", without.stderr);

    let run = silknav(dir.path(), &["index", "w"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(index.exists());
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines.len(), 2, "{}", run.stdout);
    assert!(
        lines[0].starts_with("w/navmesh/silknav.index: 4 regions, ")
            && lines[0].ends_with(" MB")
            // Small enough for a corner table (bigger worlds get landmarks).
            && lines[0].contains(" seen-by records, a corner table; "),
        "{}",
        lines[0]
    );
    assert!(
        lines[1].starts_with("built in ") && lines[1].contains("index "),
        "{}",
        lines[1]
    );

    let with = silknav_with_stdin(dir.path(), &["path", "w"], QUERIES.as_bytes());
    assert_eq!(with.code, 0, "{}", with.stderr);
    assert_eq!(with.stdout, without.stdout);
    assert!(!with.stderr.contains("indexing"), "{}", with.stderr);

    // The navmesh folder names the same world and the same file.
    let check = silknav(dir.path(), &["index", "--check", "w/navmesh"]);
    assert_eq!(check.code, 0, "{}", check.stderr);
    assert!(
        check
            .stdout
            .starts_with("w/navmesh/silknav.index: valid: 4 regions"),
        "{}",
        check.stdout
    );
}

#[test]
fn an_existing_index_is_replaced_only_with_force() {
    let (dir, index) = world();
    assert_eq!(silknav(dir.path(), &["index", "w"]).code, 0);
    let before = std::fs::read(&index).unwrap();
    let run = silknav(dir.path(), &["index", "w"]);
    assert_eq!(run.code, 2);
    assert_eq!(
        run.error_line(),
        "w/navmesh/silknav.index: already exists (use --force to replace it)"
    );
    assert_eq!(std::fs::read(&index).unwrap(), before);
    let run = silknav(dir.path(), &["index", "w", "--force"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
}

#[test]
fn a_stale_or_damaged_index_is_warned_about_and_not_used() {
    let (dir, index) = world();
    assert_eq!(silknav(dir.path(), &["index", "w"]).code, 0);

    // Another navmesh in place of one: the index is stale.
    let navmesh = dir.path().join("w/navmesh");
    std::fs::copy(navmesh.join("nv_4081.nvm"), navmesh.join("nv_4080.nvm")).unwrap();
    let stale = silknav_with_stdin(dir.path(), &["path", "w"], QUERIES.as_bytes());
    assert_eq!(stale.code, 0, "{}", stale.stderr);
    let warning = stale
        .stderr
        .lines()
        .find(|l| l.contains("silknav.index"))
        .expect("a warning about the index");
    assert!(
        warning.starts_with("warning: w/navmesh/silknav.index: stale: built from other navmeshes")
            && warning.ends_with("not used, paths build the index in memory (`silknav index w --force` writes it again)"),
        "{warning}"
    );
    let check = silknav(dir.path(), &["index", "--check", "w"]);
    assert_eq!(check.code, 1);
    assert!(check.stdout.contains("stale"), "{}", check.stdout);
    // Rewritten, it answers as a fresh build of the changed world does.
    assert_eq!(silknav(dir.path(), &["index", "w", "--force"]).code, 0);
    let rebuilt = silknav_with_stdin(dir.path(), &["path", "w"], QUERIES.as_bytes());
    assert!(
        !rebuilt.stderr.contains("silknav.index"),
        "{}",
        rebuilt.stderr
    );
    assert_eq!(rebuilt.stdout, stale.stdout);

    // A damaged byte: the checksum says so, with its offset.
    let mut bytes = std::fs::read(&index).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 1;
    std::fs::write(&index, &bytes).unwrap();
    let damaged = silknav_with_stdin(dir.path(), &["path", "w"], QUERIES.as_bytes());
    assert_eq!(damaged.stdout, rebuilt.stdout);
    assert!(
        damaged
            .stderr
            .contains("warning: w/navmesh/silknav.index: offset 24 (0x18): header.checksum: "),
        "{}",
        damaged.stderr
    );
    // Commands without paths do not read it, so they do not warn.
    let cell = silknav(dir.path(), &["cell", "w", "245930", "125470"]);
    assert!(!cell.stderr.contains("silknav.index"), "{}", cell.stderr);
}

#[test]
fn an_archive_keeps_its_index_beside_it_and_path_uses_it() {
    let (dir, _) = world();
    let run = silknav(dir.path(), &["pk2", "pack", "w", "-o", "Data.pk2"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let archive = std::fs::read(dir.path().join("Data.pk2")).unwrap();
    let without = silknav_with_stdin(dir.path(), &["path", "Data.pk2"], QUERIES.as_bytes());
    assert_eq!(without.code, 0, "{}", without.stderr);

    let run = silknav(dir.path(), &["index", "Data.pk2"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout
            .starts_with("Data.pk2.silknav.index: 4 regions, "),
        "{}",
        run.stdout
    );
    assert!(dir.path().join("Data.pk2.silknav.index").exists());
    assert_eq!(
        std::fs::read(dir.path().join("Data.pk2")).unwrap(),
        archive,
        "the archive is never written"
    );
    let with = silknav_with_stdin(dir.path(), &["path", "Data.pk2"], QUERIES.as_bytes());
    assert_eq!(with.code, 0, "{}", with.stderr);
    assert_eq!(with.stdout, without.stdout);
    assert!(!with.stderr.contains("indexing"), "{}", with.stderr);
    // The folder inside the archive is the same world, with the same file.
    let check = silknav(dir.path(), &["index", "--check", "Data.pk2:navmesh"]);
    assert_eq!(check.code, 0, "{}", check.stderr);
}

#[test]
fn check_says_when_a_valid_index_has_no_landmarks() {
    // 3×3 regions: too many corners for a corner table, so the index keeps landmarks.
    let dir = temp();
    let run = silknav(
        dir.path(),
        &["gen", "--out", "w", "--size", "3x3", "--seed", "1"],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let run = silknav(dir.path(), &["index", "w"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.contains(" seen-by records, landmarks; "),
        "{}",
        run.stdout
    );
    let check = silknav(dir.path(), &["index", "--check", "w"]);
    assert_eq!(check.code, 0, "{}", check.stderr);
    assert!(!check.stdout.contains("landmarks"), "{}", check.stdout);
    let paths = silknav_with_stdin(dir.path(), &["path", "w", "--exact"], QUERIES.as_bytes());
    assert_eq!(paths.code, 0, "{}", paths.stderr);
    // Paths that turn: the search ran (a length and more than two points).
    let turning = paths.stdout.lines().filter(|l| l.split(' ').count() > 5);
    assert!(turning.count() >= 2, "{}", paths.stdout);

    // An index from before landmarks were kept: no `landmrks` section (here renamed to a
    // name readers skip), the checksum made again.
    let index = dir.path().join("w/navmesh/silknav.index");
    let mut bytes = std::fs::read(&index).unwrap();
    let sections = u32::from_le_bytes(bytes[48..52].try_into().unwrap()) as usize;
    let slot = (0..sections)
        .find(|i| bytes[64 + 32 * i..64 + 32 * i + 8] == *b"landmrks")
        .expect("a landmrks section");
    bytes[64 + 32 * slot + 7] = b'x';
    let sum = xxhash_rust::xxh3::xxh3_64(&bytes[32..]);
    bytes[24..32].copy_from_slice(&sum.to_le_bytes());
    std::fs::write(&index, &bytes).unwrap();
    let check = silknav(dir.path(), &["index", "--check", "w"]);
    assert_eq!(check.code, 0, "{}", check.stderr);
    assert!(
        check.stdout.trim_end().ends_with(
            "; no landmarks, so long paths search more (`silknav index w --force` adds them)"
        ),
        "{}",
        check.stdout
    );
    // Still used, with the same answers.
    let older = silknav_with_stdin(dir.path(), &["path", "w", "--exact"], QUERIES.as_bytes());
    assert_eq!(older.stdout, paths.stdout);
    assert!(!older.stderr.contains("silknav.index"), "{}", older.stderr);
}
