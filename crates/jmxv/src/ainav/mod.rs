//! `AINavData_XXXXX.dat`: a dungeon's precomputed monster routes, which the game server loads
//! from its navmesh folder for every dungeon region (`XXXXX` is the region id `0x8000 | id`
//! in decimal: [`file_name`], [`region_from_file_name`]).
//!
//! A dungeon's ground is the navigation meshes of its blocks; this file tells a monster how to
//! cross them without searching. Per block, a table answers "standing in cell `start`, which
//! edge leads toward cell `goal`?"; per pair of blocks, a table names the cell of the start
//! block to head for to reach the goal block, and each block's links say where that cell leads.
//! A second section holds the centre of every edge of every block.
//!
//! [`AiNavData::parse`] reads every value into a model that keeps it verbatim, bytes between and
//! after the sections included; [`AiNavData::to_vec`] writes it back: for every input that
//! parses, writing gives the same bytes; for every model that writes, parsing gives the same
//! model. Every count is checked against the bytes left before anything is allocated, a
//! block's `cells × cells` entries included, so a corrupt count costs an error, not memory.
//!
//! # Layout
//! Little-endian, packed.
//!
//! | bytes | what |
//! |---|---|
//! | 0 | u8 version, 1 (anything else is refused, as the server does) |
//! | 1..5 | u32 offset of the edge-centre section |
//! | 5..7 | u16 region id ([`AiNavData::region`]) |
//! | 7..11 | u32 block count, then per block ([`RouteBlock`]): u32 index, u32 cell count `n`, u32 edge count, `n × n` × (i16 forward, i16 backward) goal-major, u32 link count, links of 10 bytes (u32 id, u16 cell, u16 block, u16 edge) |
//! | … | `blocks × blocks` i16 sub-goal cells, goal-major; u32 0 |
//! | …offset | [`AiNavData::gap`]: raw (none in the game's files) |
//! | offset.. | u16 region id; u32 block count; per block u32 `k` and `k` × f32 x, y, z; u32 0 |
//! | ..end | [`AiNavData::trailing`]: raw |
//!
//! `docs/format.md` has the sources and the decisions.
//!
//! # Example
//! ```
//! use jmxv::ainav::{self, AiNavData, NextEdge, RouteBlock, SquareTable, NO_EDGE};
//! use jmxv::RegionId;
//!
//! let region = RegionId(0x8001);
//! let block = RouteBlock {
//!     edge_count: 1,
//!     // Two cells joined by edge 0: from either, edge 0 leads to the other.
//!     next_edge: SquareTable::from_fn(2, |goal, start| {
//!         let edge = if goal == start { NO_EDGE } else { 0 };
//!         NextEdge { forward: edge, backward: edge }
//!     }),
//!     ..RouteBlock::default()
//! };
//! let nav = AiNavData {
//!     region,
//!     centre_region: region,
//!     blocks: vec![block],
//!     sub_goals: SquareTable::from_fn(1, |_, _| -1),
//!     edge_centres: vec![vec![[jmxv::F32::from(10.0); 3]]],
//!     ..AiNavData::default()
//! };
//! let bytes = nav.to_vec()?;
//! assert_eq!(bytes.len(), nav.encoded_len());
//! let back = AiNavData::parse(&bytes)?;
//! assert_eq!(back, nav);
//! assert_eq!(back.blocks[0].next_edge.get(1, 0).map(|e| e.forward), Some(0));
//! assert!(ainav::lint::lint(&back).is_empty());
//! assert_eq!(ainav::file_name(back.region), "AINavData_32769.dat");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#[cfg(feature = "serde")]
pub mod json;
pub mod lint;
mod model;
mod read;
mod write;

pub use model::*;
