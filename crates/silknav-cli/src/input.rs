//! Reading inputs: worlds (folders and PK2 archives, through the library's one way to open
//! them, [`WorldSource`]), the game's single files (navmeshes, object meshes, dungeons, their
//! routes and their list, told apart by signature or name, a navmesh with its region from the
//! file name; on disk or inside an archive: [`read_game_file`]), and JSON documents
//! ([`json_kind`]).

use anyhow::{anyhow, Context};
use jmxv::ainav::{self, AiNavData};
use jmxv::bms::{ObjectMesh, SIGNATURE_PREFIX as BMS_SIGNATURE_PREFIX};
use jmxv::dof::{DungeonFile, SIGNATURE_PREFIX as DOF_SIGNATURE_PREFIX};
use jmxv::ifo::DungeonInfo;
use jmxv::nvm::{NavMesh, ParseOptions};
use jmxv::RegionId;
use serde::de::IgnoredAny;
use silknav::files::{WorldOrFile, WorldSource};
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

/// The world a command reads: its path on the command line, and the key of its archive.
#[derive(Debug, clap::Args)]
pub struct WorldArg {
    /// The world: a folder (the data root or its navmesh folder), a PK2 archive (Data.pk2), or
    /// a folder in one (Data.pk2:navmesh); its nv_XXXX.nvm files that mapinfo.mfo enables
    #[arg(value_name = "WORLD")]
    pub path: PathBuf,
    #[command(flatten)]
    pub key: KeyArgs,
}

impl WorldArg {
    /// The world's files ([`open_world`]).
    ///
    /// # Errors
    /// As for [`open_world`], and a key Blowfish refuses.
    pub fn open(&self) -> anyhow::Result<WorldSource> {
        open_world(&self.path, &self.key.key()?)
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
pub fn open_input(spec: &Path, key: &Key) -> anyhow::Result<WorldOrFile> {
    WorldOrFile::open(spec, key).map_err(|e| anyhow!(e))
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

/// A parsed dungeon file (`.dof`).
pub struct DofFile {
    /// The path as given.
    pub path: PathBuf,
    /// Its contents.
    pub dungeon: DungeonFile,
    /// Its size in bytes.
    pub size: usize,
}

/// A parsed dungeon route file (`AINavData_XXXXX.dat`).
pub struct AiNavFile {
    /// The path as given.
    pub path: PathBuf,
    /// The region its name says (`AINavData_32769.dat`: 0x8001).
    pub name_region: RegionId,
    /// Its contents.
    pub nav: AiNavData,
    /// Its size in bytes.
    pub size: usize,
}

/// A parsed dungeon list (`dungeoninfo.txt`).
pub struct DungeonInfoFile {
    /// The path as given.
    pub path: PathBuf,
    /// Its contents.
    pub info: DungeonInfo,
    /// Its size in bytes.
    pub size: usize,
}

/// One of the game's files that the commands on single files (`info`, `dump`, `lint`) take:
/// the terrain's and the objects' meshes, and the dungeons' files.
pub enum GameFile {
    /// A navmesh (`JMXVNVM`, or any other signature with `--any-signature`).
    Nvm(NvmFile),
    /// An object mesh (`JMXVBMS`).
    Bms(BmsFile),
    /// A dungeon (`JMXVDOF`).
    Dof(DofFile),
    /// A dungeon's monster routes (`AINavData_XXXXX.dat`).
    AiNav(AiNavFile),
    /// The list of dungeons (`dungeoninfo.txt`).
    DungeonInfo(DungeonInfoFile),
}

impl GameFile {
    /// The file's size in bytes.
    pub fn size(&self) -> usize {
        match self {
            GameFile::Nvm(f) => f.size,
            GameFile::Bms(f) => f.size,
            GameFile::Dof(f) => f.size,
            GameFile::AiNav(f) => f.size,
            GameFile::DungeonInfo(f) => f.size,
        }
    }

    /// What the file is, in words, for messages that refuse it.
    pub fn description(&self) -> &'static str {
        match self {
            GameFile::Nvm(_) => "a navmesh",
            GameFile::Bms(_) => "an object mesh (.bms)",
            GameFile::Dof(_) => "a dungeon (.dof)",
            GameFile::AiNav(_) => "a dungeon's monster routes (AINavData)",
            GameFile::DungeonInfo(_) => "the dungeon list (dungeoninfo.txt)",
        }
    }
}

/// Reads and parses one of the game's files (on disk, `-` for standard input, or inside an
/// archive: `Data.pk2:navmesh/nv_694e.nvm`), told apart in this order:
///
/// 1. by the signature, whatever the name: an object mesh starts with `JMXVBMS `, a dungeon
///    with `JMXVDOF `;
/// 2. by the file name, in any case and inside an archive too: `dungeoninfo.txt` is the
///    dungeon list, `AINavData_NNNNN.dat` ([`jmxv::ainav::region_from_file_name`]) a dungeon's
///    routes;
/// 3. everything else is read as a navmesh.
///
/// Standard input has no name, so only the first and the last rule apply to it.
///
/// # Errors
/// The file cannot be read, is an archive, or is malformed; the message starts with the path,
/// so it reads `FILE: offset N (0x..): SECTION: what`.
pub fn read_game_file(path: &Path, parse: ParseArgs, key: &Key) -> anyhow::Result<GameFile> {
    let bytes = read_file(path, key)?;
    parse_game_file(path, &bytes, parse)
}

/// Parses the bytes of one of the game's files read from `path`, told apart as for
/// [`read_game_file`].
///
/// # Errors
/// As for [`read_game_file`].
pub fn parse_game_file(path: &Path, bytes: &[u8], parse: ParseArgs) -> anyhow::Result<GameFile> {
    let name = || path.display().to_string();
    let path_buf = path.to_owned();
    let size = bytes.len();
    if bytes.starts_with(BMS_SIGNATURE_PREFIX) {
        let mesh = ObjectMesh::parse(bytes).with_context(name)?;
        return Ok(GameFile::Bms(BmsFile {
            path: path_buf,
            mesh,
            size,
        }));
    }
    if bytes.starts_with(DOF_SIGNATURE_PREFIX) {
        let dungeon = DungeonFile::parse(bytes).with_context(name)?;
        return Ok(GameFile::Dof(DofFile {
            path: path_buf,
            dungeon,
            size,
        }));
    }
    let file_name = file_name_of(path);
    if file_name.is_some_and(|n| n.eq_ignore_ascii_case(DUNGEON_INFO)) {
        let info = DungeonInfo::parse(bytes).with_context(name)?;
        return Ok(GameFile::DungeonInfo(DungeonInfoFile {
            path: path_buf,
            info,
            size,
        }));
    }
    if let Some(name_region) = file_name.and_then(ainav::region_from_file_name) {
        let nav = AiNavData::parse(bytes).with_context(name)?;
        return Ok(GameFile::AiNav(AiNavFile {
            path: path_buf,
            name_region,
            nav,
            size,
        }));
    }
    let mesh = NavMesh::parse_with(bytes, parse.options()).with_context(name)?;
    Ok(GameFile::Nvm(NvmFile {
        path: path_buf,
        mesh,
        size,
    }))
}

/// The name of the dungeon list, matched in any case.
const DUNGEON_INFO: &str = "dungeoninfo.txt";

/// The kinds of JSON document `pack` reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JsonKind {
    /// A navmesh's ([`jmxv::nvm::json`]).
    Nvm,
    /// An object mesh's ([`jmxv::bms::json`]).
    Bms,
    /// A dungeon's ([`jmxv::dof::json`]).
    Dof,
    /// A dungeon's monster routes ([`jmxv::ainav::json`]).
    AiNav,
}

/// Which file a JSON document is the dump of, by its top-level keys, in this order:
///
/// 1. a `signature` starting with `JMXVBMS ` or `JMXVDOF ` and no navmesh `layout` (a navmesh
///    read with `--any-signature` may carry another format's signature, but has a layout): an
///    object mesh or a dungeon;
/// 2. an object mesh's `header`: an object mesh;
/// 3. a key only a dungeon's document has (`block_layout`, `grid_voxels`, `box0`): a dungeon;
/// 4. a key only a route file's document has (`sub_goals`, `edge_centres`, `centre_region`):
///    dungeon routes;
/// 5. anything else, text that is not JSON included, a navmesh, whose reader reports where it
///    stops being one.
///
/// A document that lost its signature, or one of those keys, is still told apart by the
/// others, so that its own reader names what is missing.
pub fn json_kind(text: &[u8]) -> JsonKind {
    #[derive(serde::Deserialize)]
    struct Probe {
        signature: Option<serde_json::Value>,
        layout: Option<IgnoredAny>,
        header: Option<IgnoredAny>,
        block_layout: Option<IgnoredAny>,
        grid_voxels: Option<IgnoredAny>,
        box0: Option<IgnoredAny>,
        sub_goals: Option<IgnoredAny>,
        edge_centres: Option<IgnoredAny>,
        centre_region: Option<IgnoredAny>,
    }
    let Ok(probe) = serde_json::from_slice::<Probe>(text) else {
        return JsonKind::Nvm;
    };
    let signature = probe
        .signature
        .as_ref()
        .and_then(serde_json::Value::as_str)
        .filter(|_| probe.layout.is_none())
        .map(str::as_bytes);
    if signature.is_some_and(|s| s.starts_with(BMS_SIGNATURE_PREFIX)) {
        JsonKind::Bms
    } else if signature.is_some_and(|s| s.starts_with(DOF_SIGNATURE_PREFIX)) {
        JsonKind::Dof
    } else if probe.header.is_some() {
        JsonKind::Bms
    } else if probe.block_layout.is_some() || probe.grid_voxels.is_some() || probe.box0.is_some() {
        JsonKind::Dof
    } else if probe.sub_goals.is_some()
        || probe.edge_centres.is_some()
        || probe.centre_region.is_some()
    {
        JsonKind::AiNav
    } else {
        JsonKind::Nvm
    }
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
        WorldOrFile::File { bytes, .. } => Ok(bytes),
        WorldOrFile::World(_) => Err(anyhow!(
            "{}: a folder or PK2 archive, not a file (list an archive with `silknav pk2 ls`, \
             and name a file in it as ARCHIVE:PATH, such as Data.pk2:navmesh/nv_694e.nvm)",
            path.display()
        )),
    }
}

/// The region a navmesh file describes, by its name `nv_XXXX.nvm` (any case; inside an
/// archive too: `Data.pk2:nv_694e.nvm`).
pub fn region_of(path: &Path) -> Option<RegionId> {
    RegionId::from_file_name(file_name_of(path)?)
}

/// The name of the file a path names: after its last `/`, and inside an archive after the
/// `:` and any `\` (`Data.pk2:Dungeon\DungeonInfo.txt` is `DungeonInfo.txt`).
fn file_name_of(path: &Path) -> Option<&str> {
    let name = path.file_name()?.to_str()?;
    name.rsplit(['\\', ':']).next()
}

/// The region as shown in reports: its four hex digits, as in the file name.
pub fn region_name(region: Option<RegionId>) -> Option<String> {
    region.map(|r| r.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn documents_are_told_apart_by_their_keys() {
        let nvm = jmxv::nvm::json::to_string(&NavMesh::default()).unwrap();
        let bms = jmxv::bms::json::to_string(&ObjectMesh::default()).unwrap();
        let dof = jmxv::dof::json::to_string(&DungeonFile::default()).unwrap();
        let ainav = jmxv::ainav::json::to_string(&AiNavData::default()).unwrap();
        assert_eq!(json_kind(nvm.as_bytes()), JsonKind::Nvm);
        assert_eq!(json_kind(bms.as_bytes()), JsonKind::Bms);
        assert_eq!(json_kind(dof.as_bytes()), JsonKind::Dof);
        assert_eq!(json_kind(ainav.as_bytes()), JsonKind::AiNav);
        // A navmesh under another format's signature (read with --any-signature) has a layout.
        for signature in ["JMXVBMS 0110", "JMXVDOF 0101"] {
            let renamed = nvm.replacen("JMXVNVM 1000", signature, 1);
            assert_eq!(json_kind(renamed.as_bytes()), JsonKind::Nvm, "{signature}");
        }
        // An edited document that lost a key is still told apart by the others, so that its
        // reader names the missing key.
        let without = |text: &str, key: &str| -> String {
            let line = format!("\"{key}\"");
            text.lines().filter(|l| !l.starts_with(&line)).collect()
        };
        assert_eq!(json_kind(without(&bms, "header").as_bytes()), JsonKind::Bms);
        assert_eq!(
            json_kind(without(&dof, "signature").as_bytes()),
            JsonKind::Dof
        );
        let headless_dof = without(&without(&dof, "signature"), "block_layout");
        assert_eq!(json_kind(headless_dof.as_bytes()), JsonKind::Dof);
        assert_eq!(
            json_kind(without(&ainav, "sub_goals").as_bytes()),
            JsonKind::AiNav
        );
        assert_eq!(json_kind(b"not json"), JsonKind::Nvm);
        assert_eq!(json_kind(b"[1, 2]"), JsonKind::Nvm);
    }

    #[test]
    fn names_inside_archives() {
        assert_eq!(
            file_name_of(Path::new("a/b/dungeoninfo.txt")),
            Some("dungeoninfo.txt")
        );
        assert_eq!(
            file_name_of(Path::new("Data.pk2:Dungeon\\DungeonInfo.TXT")),
            Some("DungeonInfo.TXT")
        );
        assert_eq!(
            file_name_of(Path::new("Data.pk2:AINavData_32769.dat")),
            Some("AINavData_32769.dat")
        );
        assert_eq!(file_name_of(Path::new("-")), Some("-"));
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
