//! The object files of a data root: `object.ifo` paths (`res\bldg\house01.bms`, backslashes,
//! any case) turned into paths on disk.

use std::path::{Path, PathBuf};

/// The path components of an `object.ifo` path, split at `\` and `/`; `None` for a path that
/// could leave the data root or names nothing (empty, absolute, a drive, `.` or `..`).
pub(crate) fn components(ifo_path: &str) -> Option<Vec<&str>> {
    let parts: Vec<&str> = ifo_path.split(['\\', '/']).collect();
    let safe = |p: &&str| !p.is_empty() && *p != "." && *p != ".." && !p.contains(':');
    parts.iter().all(safe).then_some(parts)
}

/// Where silknav writes the file of an `object.ifo` path under `root`: each component as
/// spelt, joined with the platform's separator.
pub(crate) fn write_path(root: &Path, ifo_path: &str) -> Option<PathBuf> {
    components(ifo_path).map(|parts| parts.iter().fold(root.to_path_buf(), |p, c| p.join(c)))
}

/// The file an `object.ifo` path names under a data root, each component matched in any case
/// (an exact match first), as the game's archive does; `None` when no file matches.
pub fn resolve_object_path(data_root: &Path, ifo_path: &str) -> Option<PathBuf> {
    let parts = components(ifo_path)?;
    let mut at = data_root.to_path_buf();
    for part in parts {
        let exact = at.join(part);
        if exact.exists() {
            at = exact;
            continue;
        }
        let found = std::fs::read_dir(&at)
            .ok()?
            .filter_map(Result::ok)
            .find(|e| {
                e.file_name()
                    .to_str()
                    .is_some_and(|n| n.eq_ignore_ascii_case(part))
            })?;
        at = found.path();
    }
    at.is_file().then_some(at)
}

/// Whether silknav reads the file of this `object.ifo` path: object meshes (`.bms`, any case).
/// `.bsr`, `.cpd` and `.dof` files are not read yet.
pub fn is_object_mesh_path(ifo_path: &str) -> bool {
    ifo_path
        .rsplit_once('.')
        .is_some_and(|(_, ext)| ext.eq_ignore_ascii_case("bms"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unsafe_paths_have_no_components() {
        assert_eq!(
            components("res\\bldg/a.bms"),
            Some(vec!["res", "bldg", "a.bms"])
        );
        for bad in [
            "",
            "\\res\\a.bms",
            "res\\..\\a.bms",
            "c:\\a.bms",
            "res\\\\a.bms",
            "./a",
        ] {
            assert_eq!(components(bad), None, "{bad}");
        }
        assert!(is_object_mesh_path("res\\A.BMS"));
        assert!(!is_object_mesh_path("res\\a.bsr"));
    }

    #[test]
    fn paths_resolve_in_any_case() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("Res").join("Bldg")).unwrap();
        std::fs::write(dir.path().join("Res").join("Bldg").join("House.bms"), b"x").unwrap();
        let found = resolve_object_path(dir.path(), "res\\BLDG\\house.BMS").unwrap();
        assert_eq!(found, dir.path().join("Res").join("Bldg").join("House.bms"));
        assert_eq!(
            resolve_object_path(dir.path(), "res\\bldg\\other.bms"),
            None
        );
        assert_eq!(
            resolve_object_path(dir.path(), "res\\bldg"),
            None,
            "a folder is no file"
        );
    }
}
