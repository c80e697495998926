//! Loading the objects of a world's regions: dedup, resolution of each distinct mesh once (in
//! parallel), placement, and the findings of what could not be placed.

use super::resolve::{ObjectProblem, ObjectResolver};
use super::{Instance, InstanceKey, Objects, PreparedMesh};
use crate::world::{LoadFinding, LoadFindingKind};
use jmxv::ifo::ObjectIfo;
use jmxv::nvm::Object;
use jmxv::RegionId;
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::path::PathBuf;

/// An instance that loading could not place: which one, where it is listed, why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ObjectFinding {
    /// The instance.
    pub instance: InstanceKey,
    /// Its object id (the `object.ifo` line).
    pub object_id: u32,
    /// Its `object.ifo` path as stored; empty when the id has no line.
    pub ifo_path: Vec<u8>,
    /// What went wrong.
    pub problem: ObjectProblem,
}

impl std::fmt::Display for ObjectFinding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "object instance {} (object id {}",
            self.instance, self.object_id
        )?;
        if !self.ifo_path.is_empty() {
            write!(f, ", {:?}", String::from_utf8_lossy(&self.ifo_path))?;
        }
        write!(f, "): {}; not placed", self.problem)
    }
}

/// A distinct object id's mesh, or the stored path and what was wrong.
type Resolved = Result<PreparedMesh, (Vec<u8>, ObjectProblem)>;

/// One region's object records, with the file they came from.
pub(crate) struct RegionObjects {
    pub region: RegionId,
    pub path: PathBuf,
    pub objects: Vec<Object>,
}

/// Places the instances of these regions (ascending) over the world's regions.
pub(crate) fn load_objects(
    records: &[RegionObjects],
    regions: &[RegionId],
    ifo: Option<&ObjectIfo>,
    resolver: &ObjectResolver,
) -> (Objects, Vec<LoadFinding>) {
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
    let mut ids: Vec<u32> = kept
        .values()
        .map(|&(r, o)| records[r].objects[o].object_id)
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
                    Some(entry) => resolver
                        .load_mesh(&entry.path)
                        .map(|(mesh, _)| PreparedMesh::new(&mesh).0)
                        .map_err(|e| (e.path, e.problem)),
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
    let mut instances = Vec::with_capacity(kept.len());
    let mut findings = Vec::new();
    for (key, (r, o)) in kept {
        let (rec, object) = (&records[r], &records[r].objects[o]);
        let finding = |ifo_path: Vec<u8>, problem| LoadFinding {
            region: rec.region,
            path: rec.path.clone(),
            kind: LoadFindingKind::Object(ObjectFinding {
                instance: key,
                object_id: object.object_id,
                ifo_path,
                problem,
            }),
        };
        match &mesh_of[&object.object_id] {
            Err((path, problem)) => findings.push(finding(path.clone(), problem.clone())),
            Ok(mesh) => {
                let position = object.position.map(|c| c.get());
                let yaw = object.yaw.get();
                if position.iter().chain([&yaw]).all(|v| v.is_finite()) {
                    instances.push(Instance::new(
                        key,
                        rec.region,
                        object.object_id,
                        *mesh,
                        position,
                        yaw,
                    ));
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
    (Objects::new(meshes, instances, regions), findings)
}
