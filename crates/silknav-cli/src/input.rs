//! Reading inputs: navmesh files (with their region from the file name), JSON documents, and
//! folders of navmesh files.

use anyhow::Context;
use jmxv::nvm::{NavMesh, ParseOptions};
use jmxv::RegionId;
use std::io::Read;
use std::path::{Path, PathBuf};

/// Options of the commands that parse navmesh files.
#[derive(Debug, Clone, Copy, clap::Args)]
pub struct ParseArgs {
    /// Accept any 12 signature bytes, not only "JMXVNVM 1000" (the game never checks them)
    #[arg(long)]
    pub any_signature: bool,
}

impl ParseArgs {
    fn options(self) -> ParseOptions {
        if self.any_signature {
            ParseOptions::any_signature()
        } else {
            ParseOptions::default()
        }
    }
}

/// A parsed navmesh file.
pub struct NvmFile {
    /// The path as given (or as found in a folder).
    pub path: PathBuf,
    /// Its contents.
    pub mesh: NavMesh,
    /// Its size in bytes.
    pub size: usize,
}

/// Reads and parses a navmesh file.
///
/// # Errors
/// The file cannot be read or is malformed; the message starts with the path, so it reads
/// `FILE: offset N (0x..): SECTION: what`.
pub fn read_nvm(path: &Path, parse: ParseArgs) -> anyhow::Result<NvmFile> {
    let bytes = read(path)?;
    let mesh =
        NavMesh::parse_with(&bytes, parse.options()).with_context(|| path.display().to_string())?;
    Ok(NvmFile {
        path: path.to_owned(),
        mesh,
        size: bytes.len(),
    })
}

/// The whole of a file, or of standard input for `-`.
///
/// # Errors
/// The I/O error, after the path.
pub fn read(path: &Path) -> anyhow::Result<Vec<u8>> {
    let bytes = if path.as_os_str() == "-" {
        let mut bytes = Vec::new();
        std::io::stdin()
            .lock()
            .read_to_end(&mut bytes)
            .map(|_| bytes)
    } else {
        std::fs::read(path)
    };
    bytes.with_context(|| path.display().to_string())
}

/// The region a navmesh file describes, by its name `nv_XXXX.nvm` (any case).
pub fn region_of(path: &Path) -> Option<RegionId> {
    path.file_name()
        .and_then(|name| name.to_str())
        .and_then(RegionId::from_file_name)
}

/// The region as shown in reports: its four hex digits, as in the file name.
pub fn region_name(region: Option<RegionId>) -> Option<String> {
    region.map(|r| r.to_string())
}

/// The navmesh files a path names: the file itself, or for a folder every `*.nvm` file directly
/// inside it (any case, not recursive, sorted by name so that reports are reproducible).
///
/// A game `navmesh` folder keeps all its `nv_*.nvm` side by side, so one level is all it needs;
/// not descending also keeps a lint of one folder from wandering into backups below it.
///
/// # Errors
/// The folder cannot be listed, or holds no `*.nvm` file (which is almost always a wrong path).
pub fn nvm_files(path: &Path) -> anyhow::Result<Vec<PathBuf>> {
    if !path.is_dir() {
        return Ok(vec![path.to_owned()]);
    }
    let context = || path.display().to_string();
    let mut files = Vec::new();
    for entry in std::fs::read_dir(path).with_context(context)? {
        let entry = entry.with_context(context)?;
        let file = entry.path();
        if has_nvm_extension(&entry.file_name()) && file.is_file() {
            files.push(file);
        }
    }
    if files.is_empty() {
        anyhow::bail!("{}: no *.nvm file in this folder", path.display());
    }
    files.sort();
    Ok(files)
}

fn has_nvm_extension(name: &std::ffi::OsStr) -> bool {
    let bytes = name.as_encoded_bytes();
    bytes.len() > 4 && bytes[bytes.len() - 4..].eq_ignore_ascii_case(b".nvm")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn regions_from_file_names() {
        assert_eq!(
            region_of(Path::new("a/b/NV_694E.NVM")),
            Some(RegionId(0x694e))
        );
        assert_eq!(region_of(Path::new("copy of nv_694e.nvm")), None);
        assert_eq!(
            region_name(region_of(Path::new("nv_0a0b.nvm"))).as_deref(),
            Some("0a0b")
        );
    }

    #[test]
    fn extension_any_case() {
        assert!(has_nvm_extension("nv_694e.NvM".as_ref()));
        assert!(!has_nvm_extension(".nvm".as_ref()));
        assert!(!has_nvm_extension("nv_694e.nvm.bak".as_ref()));
    }
}
