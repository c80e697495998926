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
    // Lower-casing ASCII bytes and joining at ASCII separators keeps UTF-8 valid.
    normalize_bytes(path.as_bytes()).map(|key| String::from_utf8_lossy(&key).into_owned())
}

/// [`normalize_path`] for a path given as bytes (names stored in CP949 are not UTF-8).
pub fn normalize_bytes(path: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(path.len());
    for part in path.split(|&b| b == b'/' || b == b'\\') {
        match part {
            b"" | b"." => continue,
            b".." => return None,
            _ => {
                if !out.is_empty() {
                    out.push(b'/');
                }
                out.extend(part.iter().map(u8::to_ascii_lowercase));
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
        assert_eq!(
            normalize_bytes(b"Res\\\xb0\xa1A.bms").as_deref(),
            Some(&b"res/\xb0\xa1a.bms"[..]),
            "bytes outside ASCII are kept as stored"
        );
    }
}
