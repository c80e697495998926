//! Entry names and paths: what a safe name is, and the one spelling of a path used for lookups.

/// Whether `name` is a plain file or folder name, safe to create inside an extraction folder:
/// not empty, not `.` or `..`, no `/`, `\`, `:` (drive letters, streams), NUL or control bytes.
pub fn is_safe_name(name: &[u8]) -> bool {
    !name.is_empty()
        && name != b"."
        && name != b".."
        && !name
            .iter()
            .any(|&b| b < 0x20 || b == 0x7f || matches!(b, b'/' | b'\\' | b':'))
}

/// The lookup key of a path inside an archive: separators `/` or `\` alike, empty components
/// and `.` dropped, ASCII lower case (the client matches names in any case). `None` for a path
/// with `..` in it.
pub fn normalize_path(path: &str) -> Option<String> {
    let mut out = String::with_capacity(path.len());
    for part in path.split(['/', '\\']) {
        match part {
            "" | "." => continue,
            ".." => return None,
            _ => {
                if !out.is_empty() {
                    out.push('/');
                }
                out.push_str(&part.to_ascii_lowercase());
            }
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unsafe_names_are_refused() {
        for bad in [
            &b""[..],
            b".",
            b"..",
            b"a/b",
            b"a\\b",
            b"C:",
            b"c:x",
            b"a\0",
            b"\x01",
        ] {
            assert!(!is_safe_name(bad), "{bad:?}");
        }
        for good in [&b"nv_694e.nvm"[..], b"..a", b"a..b", b"res"] {
            assert!(is_safe_name(good), "{good:?}");
        }
    }

    #[test]
    fn paths_normalize_to_one_spelling() {
        assert_eq!(
            normalize_path("Navmesh\\NV_694E.nvm").as_deref(),
            Some("navmesh/nv_694e.nvm")
        );
        assert_eq!(
            normalize_path("/./res//a.bms").as_deref(),
            Some("res/a.bms")
        );
        assert_eq!(normalize_path("").as_deref(), Some(""));
        assert_eq!(normalize_path("res/../x"), None);
    }
}
