//! Detour when the bench is built without the `detour` feature: there is no Detour to run, so
//! every set reports why and the table leaves Detour's columns empty. The type has no values;
//! its methods exist only so that the bench reads the same either way.

use silknav_bench::rects::RectMesh;

/// No Detour: this type has no values.
pub enum Detour {}

impl Detour {
    /// Why Detour does not run: it was not built.
    pub fn new(_: &RectMesh) -> Result<Detour, &'static str> {
        Err("Detour not built: add `--features detour` (needs cmake and libclang)")
    }

    /// Unreachable: there is no `Detour` to describe.
    pub fn describe(&self) -> String {
        match *self {}
    }

    /// Unreachable: there is no `Detour` to search.
    pub fn length(&mut self, _: [f64; 2], _: [f64; 2]) -> Option<f64> {
        match *self {}
    }
}
