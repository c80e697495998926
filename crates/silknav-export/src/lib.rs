//! Silkroad Online navmesh worlds as 3-D models, for map makers' tools: glTF 2.0 binary
//! ([`Model::to_glb`]) and Wavefront OBJ ([`Model::to_obj`]).
//!
//! [`build`] turns a world's navmeshes (and the [`silknav::World`] loaded from them, for its placed
//! objects) into a [`Model`] of named groups:
//!
//! | group | what | as |
//! |---|---|---|
//! | `terrain RRRR` | the region's ground | the game's own triangles: two per 20-unit tile, split along the diagonal `FindHeight` uses (by the parity of the tile), so heights read from the mesh are the server's |
//! | `water RRRR`, `ice RRRR` | the region's water and ice planes | one flat quad per 320-unit plane, at its height |
//! | `walls RRRR` | blocked internal edges | thin vertical quads from the ground up [`WALL_HEIGHT`] units |
//! | `cells RRRR` | the open cells | their outlines as lines draped over the ground, a vertex every 20 units |
//! | `object OOOO:UID` | an object instance's navmesh | its triangles placed by the instance's yaw and position, as the queries place them |
//!
//! [`build_dungeon`] turns one dungeon into a model of its blocks (`block B`), in the
//! dungeon's own frame.
//!
//! Coordinates: x east and y up as in the game, and game z (north) along -Z, so that the
//! right-handed glTF frame shows the world unmirrored; the origin is the south-west corner of
//! the exported regions ([`Model::origin`], also written into the files), so that vertices
//! stay small and exact in `f32`. A game point (x, y, z) is at
//! `(x - origin_x, y, -(z - origin_z))`.

mod glb;
mod model;
mod obj;

pub use model::{
    build, build_dungeon, ExportError, ExportOptions, Group, GroupKind, Model, Primitive,
    WALL_HEIGHT,
};
