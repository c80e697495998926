//! The glTF 2.0 binary writer: a JSON chunk and a binary chunk, as the specification lays
//! them out (`glTF` header, 4-byte alignment, `JSON` then `BIN\0`).

use crate::model::{GroupKind, Model, Primitive};
use serde_json::{json, Value};

/// glTF's component type of `f32` and `u32`, and its buffer view targets.
const FLOAT: u32 = 5126;
const UNSIGNED_INT: u32 = 5125;
const ARRAY_BUFFER: u32 = 34962;
const ELEMENT_ARRAY_BUFFER: u32 = 34963;
/// Primitive modes.
const LINES: u32 = 1;
const TRIANGLES: u32 = 4;

const KINDS: [GroupKind; 6] = [
    GroupKind::Terrain,
    GroupKind::Water,
    GroupKind::Ice,
    GroupKind::Walls,
    GroupKind::Cells,
    GroupKind::Objects,
];

/// Base colour (linear RGBA), whether blended, whether double-sided.
fn material(kind: GroupKind) -> Value {
    let (colour, blend, double): ([f32; 4], bool, bool) = match kind {
        GroupKind::Terrain => ([0.45, 0.52, 0.32, 1.0], false, false),
        GroupKind::Water => ([0.12, 0.3, 0.75, 0.6], true, true),
        GroupKind::Ice => ([0.75, 0.92, 1.0, 0.8], true, true),
        GroupKind::Walls => ([1.0, 0.25, 0.05, 1.0], false, true),
        GroupKind::Cells => ([0.05, 0.05, 0.06, 1.0], false, false),
        GroupKind::Objects => ([0.92, 0.88, 0.8, 1.0], false, true),
    };
    json!({
        "name": kind.word(),
        "pbrMetallicRoughness": {"baseColorFactor": colour, "metallicFactor": 0.0, "roughnessFactor": 1.0},
        "alphaMode": if blend { "BLEND" } else { "OPAQUE" },
        "doubleSided": double,
    })
}

/// The model as a `.glb` file.
pub fn write(model: &Model) -> Vec<u8> {
    let mut bin: Vec<u8> = Vec::new();
    let mut views = Vec::new();
    let mut accessors = Vec::new();
    let mut meshes = Vec::new();
    let mut group_nodes = Vec::new();
    for group in &model.groups {
        // Positions, with their bounds (required of POSITION accessors).
        let mut lo = [f32::INFINITY; 3];
        let mut hi = [f32::NEG_INFINITY; 3];
        let start = bin.len();
        for p in &group.positions {
            for k in 0..3 {
                lo[k] = lo[k].min(p[k]);
                hi[k] = hi[k].max(p[k]);
                bin.extend_from_slice(&p[k].to_le_bytes());
            }
        }
        views.push(json!({"buffer": 0, "byteOffset": start, "byteLength": bin.len() - start, "target": ARRAY_BUFFER}));
        accessors.push(json!({
            "bufferView": views.len() - 1, "componentType": FLOAT, "count": group.positions.len(),
            "type": "VEC3", "min": lo, "max": hi,
        }));
        let position = accessors.len() - 1;
        let (indices, mode) = match &group.primitive {
            Primitive::Triangles(i) => (i, TRIANGLES),
            Primitive::Lines(i) => (i, LINES),
        };
        let start = bin.len();
        for i in indices {
            bin.extend_from_slice(&i.to_le_bytes());
        }
        views.push(json!({"buffer": 0, "byteOffset": start, "byteLength": bin.len() - start, "target": ELEMENT_ARRAY_BUFFER}));
        accessors.push(json!({
            "bufferView": views.len() - 1, "componentType": UNSIGNED_INT, "count": indices.len(), "type": "SCALAR",
        }));
        let material = KINDS.iter().position(|&k| k == group.kind).unwrap_or(0);
        meshes.push(json!({
            "name": group.name,
            "primitives": [{"attributes": {"POSITION": position}, "indices": accessors.len() - 1, "mode": mode, "material": material}],
        }));
        group_nodes.push((
            group.kind,
            json!({"name": group.name, "mesh": meshes.len() - 1}),
        ));
    }
    // Nodes: the root, then one per kind, then the groups.
    let first_group = 1 + KINDS.len();
    let mut nodes = vec![json!({
        "name": "silknav world",
        "children": (1..first_group).collect::<Vec<_>>(),
        "extras": {"origin": model.origin, "axes": "x east, y up, -z north (game z); game (x, y, z) = (origin x + X, Y, origin z - Z)"},
    })];
    for kind in KINDS {
        let children: Vec<usize> = group_nodes
            .iter()
            .enumerate()
            .filter(|(_, (k, _))| *k == kind)
            .map(|(i, _)| first_group + i)
            .collect();
        let name = if kind == GroupKind::Objects {
            "objects"
        } else {
            kind.word()
        };
        nodes.push(json!({"name": name, "children": children}));
    }
    nodes.extend(group_nodes.into_iter().map(|(_, n)| n));
    let document = json!({
        "asset": {"version": "2.0", "generator": concat!("silknav-export ", env!("CARGO_PKG_VERSION"))},
        "scene": 0,
        "scenes": [{"name": "world", "nodes": [0]}],
        "nodes": nodes,
        "meshes": meshes,
        "materials": KINDS.map(material),
        "accessors": accessors,
        "bufferViews": views,
        "buffers": [{"byteLength": bin.len()}],
    });
    // Serializing a `Value` cannot fail.
    let mut text = serde_json::to_vec(&document).unwrap_or_default();
    while text.len() % 4 != 0 {
        text.push(b' ');
    }
    while bin.len() % 4 != 0 {
        bin.push(0);
    }
    let total = 12 + 8 + text.len() + 8 + bin.len();
    let mut out = Vec::with_capacity(total);
    out.extend_from_slice(b"glTF");
    out.extend_from_slice(&2u32.to_le_bytes());
    out.extend_from_slice(&(total as u32).to_le_bytes());
    out.extend_from_slice(&(text.len() as u32).to_le_bytes());
    out.extend_from_slice(b"JSON");
    out.extend_from_slice(&text);
    out.extend_from_slice(&(bin.len() as u32).to_le_bytes());
    out.extend_from_slice(b"BIN\0");
    out.extend_from_slice(&bin);
    out
}
