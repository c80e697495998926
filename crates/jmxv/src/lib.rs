//! Byte-exact readers and writers for the navigation files of Silkroad Online.
//!
//! Every reader takes a byte slice, never panics, and refuses to allocate more than the input
//! could fill; every writer gives back exactly the bytes that were read.
//!
//! | module | file | what it holds |
//! |---|---|---|
//! | [`nvm`] | `nv_XXXX.nvm` (`JMXVNVM 1000`) | a region's terrain navmesh: cells, edges, tiles, heights |
//! | [`mfo`] | `mapinfo.mfo` (`JMXVMFO 1000`) | which regions exist: one bit per region id |
//! | [`ifo::object`] | `object.ifo` (`JMXVOBJI1000`) | the resources navmesh objects name by `object_id` |
//! | [`ifo::tile2d`] | `tile2d.ifo` (`JMXV2DTI1001`) | the textures navmesh tiles name by `texture_id` |
//! | [`bms`] | `*.bms` (`JMXVBMS 0110`, `0109`) | an object's mesh: its navigation section (triangles, outline and inline edges, events, outline grid); the render mesh kept as bytes |
//! | [`dof`] | `*.dof` (`JMXVDOF 0101`) | a dungeon: its blocks (placed object meshes, their neighbours, objects and lights), the voxel grid that finds the blocks under a point, block links, room and floor names, groups |
//! | `json` | (feature `serde`) | the lossless JSON documents' shared pieces; `nvm::json` is the navmesh's, `bms::json` the object mesh's, `dof::json` the dungeon's, `ainav::json` the dungeon routes' |
//! | [`res`] | `*.bsr` (`JMXVRES 0109`), `*.cpd` (`JMXVCPD 0101`) | the path of the collision mesh (`.bsr`) or collision resource (`.cpd`); the rest kept as bytes |
//! | [`ifo::dungeon`] | `dungeoninfo.txt` (CP949 text) | the dungeons the server loads: service flag, dungeon id (region `0x8000 \| id`), `.dof` path |
//! | [`ainav`] | `AINavData_XXXXX.dat` | a dungeon's monster routes: per block the next edge toward each cell, per block pair a sub-goal cell, the blocks' links and edge centres |
//!
//! Positions inside a file are region-local: `[0, 1920)` on x and z. [`RegionId`] names regions
//! and their file names.
//!
//! ```
//! use jmxv::{nvm::NavMesh, RegionId};
//!
//! let region = RegionId::from_file_name("nv_694e.nvm").unwrap();
//! assert_eq!((region.x(), region.z()), (78, 105));
//! let mesh = NavMesh::parse(&NavMesh::default().to_vec()?)?;
//! assert_eq!(mesh.cells.len(), 1);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Features
//!
//! | feature | default | what it adds |
//! |---|---|---|
//! | `serde` | no | the lossless JSON form of the files, on serde and serde_json: `nvm::json` for navmeshes and `bms::json` for object meshes (what `silknav dump` writes and `silknav pack` reads), `dof::json` for dungeons, `ainav::json` for dungeon routes, and the pieces every format's document shares in `json` |
//!
//! With `serde`, a navmesh goes to JSON and back to the same bytes, NaN payloads and `-0.0`
//! included, and a broken document is refused with the JSON path of what is wrong:
//!
//! ```
//! # #[cfg(feature = "serde")] {
//! use jmxv::nvm::{json, NavMesh};
//!
//! let bytes = NavMesh::default().to_vec()?;
//! let text = json::to_string(&NavMesh::parse(&bytes)?)?; // dump
//! assert!(text.starts_with("{\n\"signature\":\"JMXVNVM 1000\",\n"));
//! assert_eq!(json::from_str(&text)?.to_vec()?, bytes); // pack
//!
//! let edited = text.replace("\"open_cell_count\":1", "\"open_cell_count\":-1");
//! assert_eq!(
//!     json::from_str(&edited).unwrap_err().to_string(),
//!     "open_cell_count: expected an integer 0..=4294967295, found -1"
//! );
//! # }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod ainav;
pub mod bms;
mod bytes;
pub mod dof;
mod error;
mod float;
pub mod ifo;
#[cfg(feature = "serde")]
pub mod json;
pub mod lint;
pub mod mfo;
pub mod nvm;
mod region;
pub mod res;

pub use error::{Error, ErrorKind, ReadError, WriteError};
pub use float::F32;
pub use region::RegionId;
