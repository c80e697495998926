//! Reading inputs: navmesh and object mesh files (told apart by their signature, a navmesh with
//! its region from the file name), JSON documents, and the files of world folders.

use anyhow::Context;
use jmxv::bms::{ObjectMesh, SIGNATURE_PREFIX as BMS_SIGNATURE_PREFIX};
use jmxv::nvm::{NavMesh, ParseOptions};
use jmxv::RegionId;
use silknav::files::scan_folder;
use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};

/// Options of the commands that parse navmesh files.
#[derive(Debug, Clone, Copy, Default, clap::Args)]
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

/// A parsed object mesh file (`.bms`).
pub struct BmsFile {
    /// The path as given.
    pub path: PathBuf,
    /// Its contents.
    pub mesh: ObjectMesh,
    /// Its size in bytes.
    pub size: usize,
}

/// A file of either kind the commands on single files take.
pub enum MeshFile {
    /// A navmesh (`JMXVNVM`, or any other signature with `--any-signature`).
    Nvm(NvmFile),
    /// An object mesh (`JMXVBMS`).
    Bms(BmsFile),
}

/// Reads and parses a navmesh or an object mesh, told apart by the signature (an object mesh
/// starts with `JMXVBMS `, whatever its name); everything else is read as a navmesh.
///
/// # Errors
/// The file cannot be read or is malformed; the message starts with the path, as
/// [`read_nvm`]'s does.
pub fn read_mesh(path: &Path, parse: ParseArgs) -> anyhow::Result<MeshFile> {
    let bytes = read(path)?;
    let name = || path.display().to_string();
    if bytes.starts_with(BMS_SIGNATURE_PREFIX) {
        let mesh = ObjectMesh::parse(&bytes).with_context(name)?;
        return Ok(MeshFile::Bms(BmsFile {
            path: path.to_owned(),
            mesh,
            size: bytes.len(),
        }));
    }
    let mesh = NavMesh::parse_with(&bytes, parse.options()).with_context(name)?;
    Ok(MeshFile::Nvm(NvmFile {
        path: path.to_owned(),
        mesh,
        size: bytes.len(),
    }))
}

/// Whether a JSON document is the dump of an object mesh rather than of a navmesh: it has the
/// object mesh's `header` key, or a `JMXVBMS` signature and no navmesh `layout`. Text that is
/// not JSON counts as a navmesh, whose reader reports where it stops being JSON.
pub fn is_bms_json(text: &[u8]) -> bool {
    #[derive(serde::Deserialize)]
    struct Probe {
        header: Option<serde::de::IgnoredAny>,
        signature: Option<serde_json::Value>,
        layout: Option<serde::de::IgnoredAny>,
    }
    let Ok(probe) = serde_json::from_slice::<Probe>(text) else {
        return false;
    };
    let bms_signature = probe
        .signature
        .as_ref()
        .and_then(serde_json::Value::as_str)
        .is_some_and(|s| s.as_bytes().starts_with(BMS_SIGNATURE_PREFIX));
    probe.header.is_some() || (bms_signature && probe.layout.is_none())
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

/// The files of a world folder by the names the silknav library gives them (`nv_4080.nvm`,
/// `mapinfo.mfo`: lower case), each with its path as found, which may be spelt in another case:
/// the library's [`scan_folder`], the one listing every loader uses.
///
/// Reports name the files a user has, not the library's spelling of them.
///
/// # Errors
/// The folder cannot be listed, or two of its files differ only in case.
pub fn world_file_paths(dir: &Path) -> anyhow::Result<BTreeMap<String, PathBuf>> {
    let listing = scan_folder(dir)?;
    Ok(listing
        .iter()
        .map(|(file, path)| (file.canonical_name(), path.to_path_buf()))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn object_mesh_documents_are_told_from_navmesh_documents() {
        let bms = jmxv::bms::json::to_string(&ObjectMesh::default()).unwrap();
        let nvm = jmxv::nvm::json::to_string(&NavMesh::default()).unwrap();
        assert!(is_bms_json(bms.as_bytes()));
        assert!(!is_bms_json(nvm.as_bytes()));
        // A navmesh under an object mesh's signature (read with --any-signature) has a layout.
        let renamed = nvm.replacen("JMXVNVM 1000", "JMXVBMS 0110", 1);
        assert!(!is_bms_json(renamed.as_bytes()));
        // An edited object mesh document that lost its header is still one, so that its
        // reader names the missing key.
        let headless: String = bms
            .lines()
            .filter(|l| !l.starts_with("\"header\""))
            .collect();
        assert!(is_bms_json(headless.as_bytes()));
        assert!(!is_bms_json(b"not json"));
    }

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
}
