//! Runs the real `silknav` binary on files written to temporary folders.

mod support;

mod archive_worlds;
mod bms;
mod corpus;
mod demo;
mod dump_pack;
mod dungeon_files;
mod dungeon_queries;
mod generate;
mod import;
mod index;
mod info;
mod lint;
mod malformed;
mod path;
mod pk2;
mod query;
mod render;
mod serve;
mod testkit;
mod usage;
