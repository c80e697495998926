//! The object files of a data root: `object.ifo` paths (`res\bldg\house01.bms`, backslashes,
//! any case) turned into paths on disk, by the one resolver of [`crate::files::resolve`].

use crate::files::resolve::components;
use std::path::{Path, PathBuf};

/// Where silknav writes the file of an `object.ifo` path under `root`: each component as
/// spelt ([`components`]), joined with the platform's separator.
pub(crate) fn write_path(root: &Path, ifo_path: &str) -> Option<PathBuf> {
    components(ifo_path.as_bytes())?
        .iter()
        .try_fold(root.to_path_buf(), |p, c| {
            Some(p.join(std::str::from_utf8(c).ok()?))
        })
}

/// Whether silknav reads the file of this `object.ifo` path: object meshes (`.bms`, any case).
/// `.bsr`, `.cpd` and `.dof` files are not read yet.
pub(crate) fn is_object_mesh_path(ifo_path: &str) -> bool {
    ifo_path
        .rsplit_once('.')
        .is_some_and(|(_, ext)| ext.eq_ignore_ascii_case("bms"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_bms_paths_are_object_meshes() {
        assert!(is_object_mesh_path("res\\A.BMS"));
        assert!(!is_object_mesh_path("res\\a.bsr"));
    }

    #[test]
    fn a_written_path_is_found_again_by_the_same_path() {
        let dir = tempfile::tempdir().unwrap();
        let written = write_path(dir.path(), "Res\\Bldg/House.bms").unwrap();
        assert_eq!(
            written,
            dir.path().join("Res").join("Bldg").join("House.bms")
        );
        std::fs::create_dir_all(written.parent().unwrap()).unwrap();
        std::fs::write(&written, b"x").unwrap();
        let resolver = crate::files::resolve::ObjectResolver::new(dir.path());
        assert_eq!(resolver.find(b"res\\bldg\\HOUSE.BMS").ok(), Some(written));
        assert_eq!(write_path(dir.path(), "res\\..\\a.bms"), None);
        assert_eq!(resolver.find(b"res\\..\\a.bms").ok(), None);
    }
}
