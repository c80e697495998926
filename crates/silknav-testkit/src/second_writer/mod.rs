//! Second writers of the formats: each written from the layout alone (the spec page, or
//! `docs/format.md`) and sharing no code with `jmxv`, so that tests check that jmxv reads what
//! another implementation writes.
//!
//! - [`nvm`]: `JMXVNVM 1000` terrain navmeshes, in every layout the spec allows.
//! - [`bms`]: `JMXVBMS` object meshes, and the building, bridge and gate meshes the world
//!   generator places.
//! - [`ainav`]: `AINavData` dungeon route files.
//! - [`dof`]: `JMXVDOF` dungeon files, and a temple, a legacy cave and seeded odd files.

pub mod ainav;
pub mod bms;
pub mod dof;
pub mod nvm;
