//! Brute-force references for the queries: each written from the documented rules with none of
//! the library's query code, slow and plain, for tests to compare the library's answers with.
//!
//! - [`terrain`]: line of sight and cells on the terrain, in exact integer geometry over every
//!   tile and edge near a segment.
//! - [`objects`]: object-aware line of sight, over every record of every region's object list.
//! - [`server`]: a second port of the game server's cell, height and movement queries
//!   (`FindNavCell`, `QueryMovement`), from the reconstructed server.

pub mod objects;
pub mod server;
pub mod terrain;
