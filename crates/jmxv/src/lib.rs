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
//! | [`res`] | `*.bsr` (`JMXVRES 0109`), `*.cpd` (`JMXVCPD 0101`) | the path of the collision mesh (`.bsr`) or collision resource (`.cpd`); the rest kept as bytes |
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

pub mod bms;
mod bytes;
mod error;
mod float;
pub mod ifo;
pub mod lint;
pub mod mfo;
pub mod nvm;
mod region;
pub mod res;

pub use error::{Error, ErrorKind, ReadError, WriteError};
pub use float::F32;
pub use region::RegionId;
