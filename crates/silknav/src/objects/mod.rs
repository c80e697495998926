//! Objects in the world: the instances of buildings, gates and bridges the regions list, each
//! with its own navmesh (the navigation section of a `.bms`), placed as the game server places
//! them.
//!
//! - [`resolve`]: from an `object.ifo` path to the `.bms` under the data root.
//! - Instances are identified by [`InstanceKey`] `(owner region << 16) | uid`: an instance
//!   owned by another region is listed in every region its footprint touches, and the world
//!   lists it once ([`crate::World::object_instances`]: the owner's record when the owner is
//!   loaded, else the first region's in id order).
//! - The server places each region's records on their own: every record of a region's object
//!   list gets a local-to-world matrix (a rotation about +Y by its yaw, its position as the
//!   translation, in f32) and the server's float inverse of it, built from that record's own
//!   position in that region's frame. The queries use the record of the region a point is in,
//!   as the server does, so an instance listed in two regions answers in each region with
//!   that region's record, in the server's float arithmetic.
//! - A region's terrain cells list the objects over them (`cells[].objects`); the server looks
//!   for objects under a point only in the list of the cell of the point's tile, open or
//!   closed, and so do the queries ([`crate::world`]).
//! - An object's mesh is held as the server holds it: heights come from each
//!   triangle's float plane, containment from the server's float test, in the object's frame
//!   after the server's float world-to-local transform; so heights are the server's to the bit.
//!   A mesh the server's loader refuses (an index out of range) is not placed, with a finding.

mod load;
pub(crate) mod mesh;
pub mod resolve;
pub mod walk;

pub use load::ObjectFinding;
pub(crate) use load::{load_objects, RegionObjects};
pub use walk::{ObjectEdgeKind, ObjectEdgeRef};

use crate::geometry::orient;
use crate::world::server_arith::{self as arith, Matrix};
use jmxv::bms::ObjectMesh;
use jmxv::RegionId;
use mesh::ServerMesh;

/// An instance's identity: `(owner region << 16) | uid`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct InstanceKey(pub u32);

impl InstanceKey {
    /// The key of the instance `uid` owned by `owner`.
    pub const fn new(owner: RegionId, uid: u16) -> InstanceKey {
        InstanceKey(((owner.0 as u32) << 16) | uid as u32)
    }

    /// The region that owns the instance.
    pub const fn owner(self) -> RegionId {
        RegionId((self.0 >> 16) as u16)
    }

    /// The instance id within its owner region.
    pub const fn uid(self) -> u16 {
        self.0 as u16
    }
}

impl std::fmt::Display for InstanceKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}", self.owner(), self.uid())
    }
}

/// A triangle of an object instance: which instance, which cell of its mesh.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ObjectCellRef {
    /// The instance.
    pub instance: InstanceKey,
    /// Index into the mesh's cells (triangles).
    pub cell: u16,
}

/// An object's navmesh as the queries need it: the server's form, and the usable triangles
/// with their cell indices.
#[derive(Debug, Clone)]
pub(crate) struct PreparedMesh {
    pub(crate) server: ServerMesh,
    triangles: Vec<(u16, [[f32; 3]; 3])>,
}

impl PreparedMesh {
    /// The mesh as the server loads it, with its usable triangles; `Err` with the reason when
    /// it has no navigation section or the server's loader refuses it.
    pub fn new(mesh: &ObjectMesh) -> Result<PreparedMesh, String> {
        let Some(nav) = &mesh.nav else {
            return Err("the mesh has no navigation section".to_owned());
        };
        let server = ServerMesh::new(nav, mesh.header.nav_flags)?;
        let mut triangles = Vec::with_capacity(nav.cells.len());
        for (i, cell) in nav.cells.iter().enumerate() {
            let v = cell
                .vertices
                .map(|k| nav.vertices.get(usize::from(k)).map(|v| v.position));
            let usable = i <= usize::from(u16::MAX)
                && v.iter()
                    .all(|p| p.is_some_and(|p| p.iter().all(|c| c.get().is_finite())));
            if !usable {
                continue;
            }
            let v = v.map(|p| p.expect("checked").map(|c| c.get()));
            if orient(xz(v[0]), xz(v[1]), xz(v[2])) == 0.0 {
                continue;
            }
            triangles.push((i as u16, v));
        }
        Ok(PreparedMesh { server, triangles })
    }
}

fn xz(v: [f32; 3]) -> [f64; 2] {
    [f64::from(v[0]), f64::from(v[2])]
}

/// A placed instance.
#[derive(Debug, Clone)]
pub(crate) struct Instance {
    pub key: InstanceKey,
    /// The region whose record was kept: position and yaw are in its frame.
    pub frame: RegionId,
    pub object_id: u32,
    pub mesh: u32,
    pub position: [f32; 3],
    pub yaw: f32,
}

/// A record of a region's object list as the server places it: the instance its key names,
/// and the matrices built from this record's own position and yaw (an instance listed in two
/// regions has a placement in each, in each region's frame).
#[derive(Debug, Clone)]
pub(crate) struct Placement {
    pub key: InstanceKey,
    pub mesh: u32,
    pub to_world: Matrix,
    pub to_local: Matrix,
    /// The record's yaw and position (for line of sight's placement in double).
    pub yaw: f32,
    pub position: [f32; 3],
    /// The record's link rows: (object index in this region's list, edge of that object,
    /// edge of this one).
    pub links: Vec<[u16; 3]>,
}

/// Every placed instance, the meshes they share, and each region's object list.
#[derive(Debug, Clone, Default)]
pub(crate) struct Objects {
    meshes: Vec<PreparedMesh>,
    instances: Vec<Instance>,
    /// Per region slot of the world, its file's object list: `None` where an entry could
    /// not be placed.
    placements: Vec<Vec<Option<Placement>>>,
}

impl Objects {
    /// Places instances (sorted by key, unique) and each region's object list (`placements`,
    /// one list per region of the world, in slot order).
    pub fn new(
        meshes: Vec<PreparedMesh>,
        instances: Vec<Instance>,
        placements: Vec<Vec<Option<Placement>>>,
    ) -> Objects {
        Objects {
            meshes,
            instances,
            placements,
        }
    }

    /// Whether there are no instances.
    pub fn is_empty(&self) -> bool {
        self.instances.is_empty()
    }

    /// The placed instances, by key.
    pub fn instances(&self) -> &[Instance] {
        &self.instances
    }

    /// The usable triangles of an instance's mesh.
    pub fn triangles(&self, inst: &Instance) -> &[(u16, [[f32; 3]; 3])] {
        &self.meshes[inst.mesh as usize].triangles
    }

    /// The object list of the region in `slot`: its placements by file index.
    #[inline]
    pub fn region_list(&self, slot: usize) -> &[Option<Placement>] {
        self.placements.get(slot).map_or(&[], Vec::as_slice)
    }

    /// Entry `index` of the object list of the region in `slot`, when it was placed.
    #[inline]
    pub fn placement(&self, slot: usize, index: u16) -> Option<&Placement> {
        self.region_list(slot).get(usize::from(index))?.as_ref()
    }

    /// The server's mesh of a placement.
    #[inline]
    pub fn server_mesh(&self, p: &Placement) -> &ServerMesh {
        &self.meshes[p.mesh as usize].server
    }
}

/// The server's `NavObj_FindCell`: the triangle of a placement nearest in height to the
/// point's y (region-local x, y, z), and the point's new y (the triangle's height taken back
/// into the region's frame).
#[inline]
pub(crate) fn placement_find_cell(
    mesh: &ServerMesh,
    p: &Placement,
    pos: [f32; 3],
) -> Option<(u32, f32)> {
    let local = arith::transform(&p.to_local, pos);
    let (tri, y) = mesh.find_cell(local)?;
    let world = arith::transform(&p.to_world, [local[0], y, local[2]]);
    Some((tri, world[1]))
}
