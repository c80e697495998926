//! What is being drawn: the map of regions, which of them are drawn, and the layout.

use crate::frame::Frame;
use crate::terrain::HeightRange;
use jmxv::nvm::NavMesh;
use jmxv::RegionId;
use std::collections::BTreeMap;

/// The regions of one picture and the facts every pass needs.
pub(crate) struct Scene<'a> {
    /// Every region given, drawn or not (neighbours of a drawn region smooth its shading).
    pub meshes: &'a BTreeMap<RegionId, NavMesh>,
    /// The drawn regions by their (x, z) place in the world.
    pub drawn: BTreeMap<(i32, i32), RegionId>,
    pub frame: Frame,
    pub heights: HeightRange,
}

impl<'a> Scene<'a> {
    /// The mesh of any given region.
    pub fn mesh(&self, region: RegionId) -> Option<&'a NavMesh> {
        self.meshes.get(&region)
    }

    /// The mesh drawn at the place of `region`, if that place is drawn.
    pub fn drawn_mesh(&self, region: RegionId) -> Option<&'a NavMesh> {
        let id = self
            .drawn
            .get(&(i32::from(region.x()), i32::from(region.z())))?;
        self.meshes.get(id)
    }

    /// The drawn regions and their meshes, in id order.
    pub fn drawn(&self) -> impl Iterator<Item = (RegionId, &'a NavMesh)> + '_ {
        self.drawn
            .values()
            .filter_map(|&r| self.meshes.get(&r).map(|m| (r, m)))
    }
}
