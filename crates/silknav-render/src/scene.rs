//! What is being drawn: the map of regions, which of them are drawn, and the layout.

use crate::frame::{Extent, Frame};
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
    /// Regions around a drawn area ([`crate::RenderOptions::area`]) whose walls and objects
    /// reach into it: drawn clipped to the map, so that tiles meet without seams.
    pub ring: Vec<RegionId>,
    /// The rectangle of regions the map covers.
    pub extent: Extent,
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

    /// The world box `[x0, z0, x1, z1]` of the drawn regions and the ring around them.
    pub fn world_box(&self) -> Option<[f64; 4]> {
        const SIZE: f64 = 1920.0;
        self.featured()
            .map(|(r, _)| {
                let (x, z) = (f64::from(r.x()) * SIZE, f64::from(r.z()) * SIZE);
                [x, z, x + SIZE, z + SIZE]
            })
            .reduce(|a, b| {
                [
                    a[0].min(b[0]),
                    a[1].min(b[1]),
                    a[2].max(b[2]),
                    a[3].max(b[3]),
                ]
            })
    }

    /// The drawn regions and the ring around them, with their meshes: whose walls and
    /// objects are drawn (clipped to the map).
    pub fn featured(&self) -> impl Iterator<Item = (RegionId, &'a NavMesh)> + '_ {
        self.drawn().chain(
            self.ring
                .iter()
                .filter_map(|&r| self.meshes.get(&r).map(|m| (r, m))),
        )
    }

    /// The drawn regions and their meshes, in id order.
    pub fn drawn(&self) -> impl Iterator<Item = (RegionId, &'a NavMesh)> + '_ {
        self.drawn
            .values()
            .filter_map(|&r| self.meshes.get(&r).map(|m| (r, m)))
    }
}
