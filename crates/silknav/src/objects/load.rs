//! Loading the objects of a world's regions: dedup, resolution of each distinct mesh once (in
//! parallel), placement of every region's records, and the findings of what could not be
//! placed.

use super::{Instance, InstanceKey, Objects, Placement, PreparedMesh};
use crate::files::resolve::{ObjectProblem, ResolveError};
use crate::geometry::server_arith;
use jmxv::bms::ObjectMesh;
use jmxv::ifo::ObjectIfo;
use jmxv::nvm::Object;
use jmxv::RegionId;
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::path::PathBuf;

/// An instance that loading could not place; loading reports it as
/// [`crate::world::LoadFindingKind::ObjectNotPlaced`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ObjectFinding {
    pub instance: InstanceKey,
    pub object_id: u32,
    pub ifo_path: Vec<u8>,
    pub problem: ObjectProblem,
}

/// A distinct object id's mesh, or the stored path and what was wrong.
type Resolved = Result<PreparedMesh, (Vec<u8>, ObjectProblem)>;

/// An instance loading could not place, with the region and the file that list it.
pub(crate) struct Unplaced {
    pub region: RegionId,
    pub path: PathBuf,
    pub finding: ObjectFinding,
}

/// One region's object records, with the file they came from.
pub(crate) struct RegionObjects {
    pub region: RegionId,
    pub path: PathBuf,
    pub objects: Vec<Object>,
}

/// Reads the mesh an `object.ifo` path names, and the file it came from
/// ([`crate::files::resolve::ObjectResolver::load_mesh`], or meshes already in memory).
pub(crate) type MeshLoader<'a> =
    dyn Fn(&[u8]) -> Result<(ObjectMesh, PathBuf), ResolveError> + Sync + 'a;

/// Places the instances of these regions (ascending) over the world's regions.
pub(crate) fn load_objects(
    records: &[RegionObjects],
    regions: &[RegionId],
    ifo: Option<&ObjectIfo>,
    load_mesh: &MeshLoader<'_>,
) -> (Objects, Vec<Unplaced>) {
    // Dedup: the owner's record when its file is loaded, else the first listing.
    let mut kept: BTreeMap<InstanceKey, (usize, usize)> = BTreeMap::new();
    for (r, rec) in records.iter().enumerate() {
        for (o, object) in rec.objects.iter().enumerate() {
            let key = InstanceKey::new(RegionId(object.region_id), object.uid);
            let entry = kept.entry(key).or_insert((r, o));
            if records[entry.0].region != key.owner() && rec.region == key.owner() {
                *entry = (r, o);
            }
        }
    }
    // Every record is placed on its own (the server's way), so every id any record names is
    // resolved, once.
    let mut ids: Vec<u32> = records
        .iter()
        .flat_map(|r| r.objects.iter().map(|o| o.object_id))
        .collect();
    ids.sort_unstable();
    ids.dedup();
    let resolved: Vec<(u32, Resolved)> = ids
        .par_iter()
        .map(|&id| {
            let result = match ifo {
                None => Err((Vec::new(), ObjectProblem::NoObjectIfo)),
                Some(ifo) => match ifo.get(id) {
                    None => Err((Vec::new(), ObjectProblem::NotInObjectIfo)),
                    Some(entry) => match load_mesh(&entry.path) {
                        Err(e) => Err((e.path, e.problem)),
                        Ok((mesh, file)) => match PreparedMesh::new(&mesh) {
                            Ok(prepared) => Ok(prepared),
                            Err(_) if mesh.nav.is_none() => {
                                Err((entry.path.clone(), ObjectProblem::NoNavSection { file }))
                            }
                            Err(reason) => {
                                Err((entry.path.clone(), ObjectProblem::Refused { file, reason }))
                            }
                        },
                    },
                },
            };
            (id, result)
        })
        .collect();
    let mut meshes = Vec::new();
    let mut mesh_of: BTreeMap<u32, Result<u32, (Vec<u8>, ObjectProblem)>> = BTreeMap::new();
    for (id, result) in resolved {
        let slot = result.map(|mesh| {
            meshes.push(mesh);
            (meshes.len() - 1) as u32
        });
        mesh_of.insert(id, slot);
    }
    let finite = |o: &Object| {
        o.position
            .iter()
            .chain([&o.yaw])
            .all(|v| v.get().is_finite())
    };
    let mut instances = Vec::with_capacity(kept.len());
    let mut findings = Vec::new();
    for (key, (r, o)) in kept {
        let (rec, object) = (&records[r], &records[r].objects[o]);
        let finding = |ifo_path: Vec<u8>, problem| Unplaced {
            region: rec.region,
            path: rec.path.clone(),
            finding: ObjectFinding {
                instance: key,
                object_id: object.object_id,
                ifo_path,
                problem,
            },
        };
        match &mesh_of[&object.object_id] {
            Err((path, problem)) => findings.push(finding(path.clone(), problem.clone())),
            Ok(mesh) => {
                if finite(object) {
                    instances.push(Instance {
                        key,
                        frame: rec.region,
                        object_id: object.object_id,
                        mesh: *mesh,
                        position: object.position.map(|c| c.get()),
                        yaw: object.yaw.get(),
                    });
                } else {
                    let path = ifo
                        .and_then(|ifo| ifo.get(object.object_id))
                        .map(|e| e.path.clone())
                        .unwrap_or_default();
                    findings.push(finding(path, ObjectProblem::NonFinitePlacement));
                }
            }
        }
    }
    // Each loaded region's list, by file index; an entry is placed when its key's instance is
    // and its own id has a mesh.
    let mut placements = vec![Vec::new(); regions.len()];
    for rec in records {
        let Ok(slot) = regions.binary_search(&rec.region) else {
            continue;
        };
        placements[slot] = rec
            .objects
            .iter()
            .map(|object| {
                let key = InstanceKey::new(RegionId(object.region_id), object.uid);
                instances.binary_search_by_key(&key, |i| i.key).ok()?;
                let mesh = *mesh_of.get(&object.object_id)?.as_ref().ok()?;
                if !finite(object) {
                    return None;
                }
                let to_world = server_arith::local_to_world(
                    object.yaw.get(),
                    object.position.map(|c| c.get()),
                );
                let bounds = Placement::bounds_of(&meshes[mesh as usize].server, &to_world);
                Some(Placement {
                    key,
                    mesh,
                    bounds,
                    yaw_cos_sin: {
                        let yaw = f64::from(object.yaw.get());
                        [yaw.cos(), yaw.sin()]
                    },
                    position: object.position.map(|c| c.get()),
                    to_local: server_arith::inverse_affine(&to_world),
                    to_world,
                    links: object
                        .links
                        .iter()
                        .map(|l| [l.link_object, l.link_edge, l.edge])
                        .collect(),
                })
            })
            .collect();
    }
    (Objects::new(meshes, instances, placements), findings)
}
