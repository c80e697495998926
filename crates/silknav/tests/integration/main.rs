//! Integration tests of the silknav crate: generated and imported worlds, world lint.

mod anyangle;
mod archives;
mod corpus;
mod floors;
mod fuzz_objects;
mod fuzz_world;
mod generated_dungeons;
mod generated_objects;
mod index_file;
mod invariants;
mod loading;
mod movingai;
mod objects;
mod paths;
mod queries;
mod radius;
mod server_walk;
mod snap;
mod walkable;
mod world_coordinates;
mod worlds;
