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

/// Odd f32 bit patterns the seeded odd files put in float fields: NaN payloads, −0,
/// infinities, subnormals.
pub const ODD_FLOATS: [u32; 6] = [
    0x7fc0_0001,
    0xffa0_1234,
    0x8000_0000,
    0x7f80_0000,
    0x0000_0001,
    0x807f_ffff,
];
