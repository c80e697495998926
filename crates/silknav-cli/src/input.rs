//! Reading inputs: worlds (folders and PK2 archives, through the library's one way to open
//! them, [`WorldSource`]), navmesh and object mesh files (told apart by their signature, a
//! navmesh with its region from the file name; on disk or inside an archive), and JSON
//! documents.

use anyhow::{anyhow, Context};
use jmxv::bms::{ObjectMesh, SIGNATURE_PREFIX as BMS_SIGNATURE_PREFIX};
use jmxv::nvm::{NavMesh, ParseOptions};
use jmxv::RegionId;
use silknav::files::{Input, WorldSource};
use silknav::pk2_archive::Key;
use std::io::Read;
use std::path::{Path, PathBuf};

/// The option of every command that reads worlds or files, which may be PK2 archives.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct KeyArgs {
    /// The Blowfish key of PK2 archives, as the client spells it (default: the official
    /// clients' key, 169841)
    #[arg(long, value_name = "KEY")]
    pk2_key: Option<String>,
}

impl KeyArgs {
    /// The key asked for, or the official clients'.
    ///
    /// # Errors
    /// A key Blowfish refuses (shorter than 4 or longer than 56 bytes).
    pub fn key(&self) -> anyhow::Result<Key> {
        match &self.pk2_key {
            None => Ok(Key::default()),
            Some(k) => Key::new(k.as_bytes()).context("--pk2-key"),
        }
    }
}

/// Opens the world a command line names: a folder (the data root or its navmesh folder), a
/// PK2 archive, or a folder inside one (`Data.pk2:navmesh`).
///
/// # Errors
/// The library's ([`WorldSource::open_with_key`]): the message names the path, and for a
/// damaged archive the entry and offset.
pub fn open_world(spec: &Path, key: &Key) -> anyhow::Result<WorldSource> {
    WorldSource::open_with_key(spec, key).map_err(|e| anyhow!(e))
}

/// Opens what a command line names: a world, or one file (on disk or inside an archive).
///
/// # Errors
/// As for [`open_world`], and a file that cannot be read.
pub fn open_input(spec: &Path, key: &Key) -> anyhow::Result<Input> {
    Input::open(spec, key).map_err(|e| anyhow!(e))
}

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

/// Reads and parses a navmesh or an object mesh (on disk, `-` for standard input, or inside
/// an archive: `Data.pk2:navmesh/nv_694e.nvm`), told apart by the signature (an object mesh
/// starts with `JMXVBMS `, whatever its name); everything else is read as a navmesh.
///
/// # Errors
/// The file cannot be read, is an archive, or is malformed; the message starts with the path,
/// so it reads `FILE: offset N (0x..): SECTION: what`.
pub fn read_mesh(path: &Path, parse: ParseArgs, key: &Key) -> anyhow::Result<MeshFile> {
    let bytes = read_file(path, key)?;
    parse_mesh(path, &bytes, parse)
}

/// Parses the bytes of a navmesh or object mesh file read from `path`, as [`read_mesh`].
///
/// # Errors
/// As for [`read_mesh`].
pub fn parse_mesh(path: &Path, bytes: &[u8], parse: ParseArgs) -> anyhow::Result<MeshFile> {
    let name = || path.display().to_string();
    if bytes.starts_with(BMS_SIGNATURE_PREFIX) {
        let mesh = ObjectMesh::parse(bytes).with_context(name)?;
        return Ok(MeshFile::Bms(BmsFile {
            path: path.to_owned(),
            mesh,
            size: bytes.len(),
        }));
    }
    let mesh = NavMesh::parse_with(bytes, parse.options()).with_context(name)?;
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

/// The whole of a file (on disk, or inside an archive of the official clients' key:
/// `Data.pk2:navmesh/nv_694e.nvm`), or of standard input for `-`.
///
/// # Errors
/// The I/O error, after the path.
pub fn read(path: &Path) -> anyhow::Result<Vec<u8>> {
    read_file(path, &Key::default())
}

/// [`read`], with the key of archives.
///
/// # Errors
/// The I/O error, after the path; a path that names a world (a folder, an archive) rather
/// than a file.
pub fn read_file(path: &Path, key: &Key) -> anyhow::Result<Vec<u8>> {
    if path.as_os_str() == "-" {
        let mut bytes = Vec::new();
        std::io::stdin()
            .lock()
            .read_to_end(&mut bytes)
            .context("standard input")?;
        return Ok(bytes);
    }
    match open_input(path, key)? {
        Input::File { bytes, .. } => Ok(bytes),
        Input::World(_) => Err(anyhow!(
            "{}: a folder or PK2 archive, not a file (list an archive with `silknav pk2 ls`, \
             and name a file in it as ARCHIVE:PATH, such as Data.pk2:navmesh/nv_694e.nvm)",
            path.display()
        )),
    }
}

/// The region a navmesh file describes, by its name `nv_XXXX.nvm` (any case; inside an
/// archive too: `Data.pk2:nv_694e.nvm`).
pub fn region_of(path: &Path) -> Option<RegionId> {
    let name = path.file_name()?.to_str()?;
    RegionId::from_file_name(name.rsplit(':').next().unwrap_or(name))
}

/// The region as shown in reports: its four hex digits, as in the file name.
pub fn region_name(region: Option<RegionId>) -> Option<String> {
    region.map(|r| r.to_string())
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
            region_of(Path::new("Data.pk2:nv_694e.nvm")),
            Some(RegionId(0x694e))
        );
        assert_eq!(
            region_name(region_of(Path::new("nv_0a0b.nvm"))).as_deref(),
            Some("0a0b")
        );
    }
}
