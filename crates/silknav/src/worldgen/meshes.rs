//! The object meshes of generated worlds: each `.bms` of the catalog built from its class and
//! size, as a navigation section only ([`ObjectMesh::from_nav`]).
//!
//! Every walkable mesh is a grid of quads in the object's own frame, centred on its origin,
//! two triangles per quad, wound clockwise seen from above (x east, z north), as the server's
//! point classification expects. Edges used by one triangle are outline edges, edges shared by
//! two are inline edges; each vertex's direction byte points away from the mesh's centre (the
//! direction the server pushes a blocked walker along, off the mesh). The flags follow NOTES
//! §10 and the server's walk ([`crate::world::movement`]), which stays on a mesh only across
//! edges with the internal bit 0x04:
//!
//! | class | cells | outline edges | inline edges |
//! |---|---|---|---|
//! | building | the floor at y 0 | walls 0x03, a doorway (0x00) one tile wide in the middle of the −z side | 0x04 |
//! | gate | the passage through the wall, x across it | sides 0x03 (against the fortress wall), both ends 0x00 | 0x84 (siege) across the middle (z 0), else 0x04 |
//! | bridge | half a span along x, rising 30 units from its outer end (−x) to its inner end (+x) | sides 0x10 (underpass: the deck cannot be left, ground below passes), the outer end 0x00, the inner end 0x08 (a link to the other half's inner end) | 0x04 |
//! | stairs | a ramp along x rising 40 units to a landing | the foot (−x) 0x00, everything else 0x03 | 0x04 |
//!
//! A bridge is two halves placed inner end to inner end, the second turned half a turn, their
//! link rows naming each other's link edge. Props (trees, rocks) have no
//! navigation section.

use super::catalog::{ObjectClass, ObjectResource};
use jmxv::bms::{
    Header, NavCell, NavEdge, NavSection, NavVertex, ObjectMesh, OutlineGrid, Version,
    GRID_TILE_SIZE, HEADER_LEN, NO_CELL,
};
use jmxv::nvm::TILE_SIZE as TILE;
use jmxv::F32;
use std::collections::BTreeMap;

/// A wall: blocks entering (0x01) and leaving (0x02).
pub(crate) const EDGE_WALL: u8 = 0x03;
/// A passable edge: a doorway, a gate's end, the foot of the stairs.
pub(crate) const EDGE_OPEN: u8 = 0x00;
/// A link to terrain or to another object's edge.
pub(crate) const EDGE_LINK: u8 = 0x08;
/// An underpass edge: refused when leaving the deck, skipped when entering from outside.
pub const EDGE_UNDERPASS: u8 = 0x10;
/// A siege gate: blocks line of sight.
pub const EDGE_SIEGE: u8 = 0x80;
/// An edge between two cells of the mesh: the server's walk stays on the mesh across it.
pub const EDGE_INTERNAL: u8 = 0x04;

/// How high a bridge's deck rises at its middle.
const BRIDGE_ARCH: f32 = 30.0;
/// How high the stairs climb from their foot to the landing.
pub(crate) const STAIRS_RISE: f32 = 40.0;

/// The mesh file of a catalog entry.
pub fn object_mesh(resource: &ObjectResource) -> ObjectMesh {
    match nav_section(resource) {
        Some(nav) => ObjectMesh::from_nav(Version::V0110, 0, nav),
        None => {
            // The same empty render part as `from_nav`, without a navigation section.
            let mut mesh = ObjectMesh::from_nav(Version::V0110, 0, NavSection::default());
            mesh.nav = None;
            mesh.header = Header {
                sub_prim_count: 1,
                ..Header::default()
            };
            debug_assert_eq!(mesh.nav_position(), HEADER_LEN + 12);
            mesh
        }
    }
}

/// The navigation section of a catalog entry; `None` for props.
pub(crate) fn nav_section(resource: &ObjectResource) -> Option<NavSection> {
    let (w, d) = resource.size;
    let (hx, hz) = (f32::from(w) * TILE / 2.0, f32::from(d) * TILE / 2.0);
    let on = |a: f32, b: f32| (a - b).abs() < 1e-3;
    Some(match resource.class {
        ObjectClass::Prop => return None,
        ObjectClass::Building => {
            let door = TILE / 2.0;
            let xs = [-hx, -door, door, hx];
            build(
                &xs,
                &[-hz, hz],
                |_, _| 0.0,
                |a, b| {
                    let doorway =
                        on(a[1], -hz) && on(b[1], -hz) && a[0].abs() <= door && b[0].abs() <= door;
                    if doorway {
                        EDGE_OPEN
                    } else {
                        EDGE_WALL
                    }
                },
                |_, _| EDGE_INTERNAL,
            )
        }
        ObjectClass::Gate => build(
            &[-hx, 0.0, hx],
            &[-hz, 0.0, hz],
            |_, _| 0.0,
            |a, b| if on(a[0], b[0]) { EDGE_WALL } else { EDGE_OPEN },
            |a, b| {
                if on(a[1], 0.0) && on(b[1], 0.0) {
                    EDGE_SIEGE | EDGE_INTERNAL
                } else {
                    EDGE_INTERNAL
                }
            },
        ),
        ObjectClass::Bridge => {
            let xs = steps(-hx, hx, usize::from(w).max(2));
            // The whole bridge is twice as long, its middle at this half's inner end.
            build(
                &xs,
                &[-hz, hz],
                |x, _| {
                    let from_middle = (hx - x) / (2.0 * hx);
                    BRIDGE_ARCH * (1.0 - from_middle * from_middle)
                },
                |a, b| {
                    if on(a[0], -hx) && on(b[0], -hx) {
                        EDGE_OPEN
                    } else if on(a[0], b[0]) {
                        EDGE_LINK
                    } else {
                        EDGE_UNDERPASS
                    }
                },
                |_, _| EDGE_INTERNAL,
            )
        }
        ObjectClass::Stairs => {
            // The ramp takes all but the last tile; the landing is flat.
            let top = hx - TILE;
            let xs = steps(-hx, top, usize::from(w).saturating_sub(1).max(1))
                .into_iter()
                .chain([hx])
                .collect::<Vec<_>>();
            build(
                &xs,
                &[-hz, hz],
                |x, _| STAIRS_RISE * ((x + hx) / (top + hx)).min(1.0),
                |a, b| {
                    if on(a[0], -hx) && on(b[0], -hx) {
                        EDGE_OPEN
                    } else {
                        EDGE_WALL
                    }
                },
                |_, _| EDGE_INTERNAL,
            )
        }
    })
}

/// The direction byte pointing from the mesh's centre toward (x, z): direction `k` is
/// `(cos a, −sin a)` with `a = k · 2π / 256`.
fn outward(x: f32, z: f32) -> u8 {
    if x == 0.0 && z == 0.0 {
        return 0;
    }
    let angle = f64::from(-z).atan2(f64::from(x));
    (angle / std::f64::consts::TAU * 256.0)
        .round()
        .rem_euclid(256.0) as u8
}

/// The outline edge of a bridge half that links to the other half: its inner end.
pub(crate) fn bridge_link_edge(resource: &ObjectResource) -> u16 {
    let nav = nav_section(resource).expect("bridges have a mesh");
    nav.outline_edges
        .iter()
        .position(|e| e.flag == EDGE_LINK)
        .expect("a bridge half has a link edge") as u16
}

/// `n` equal steps from `lo` to `hi`: `n + 1` values.
fn steps(lo: f32, hi: f32, n: usize) -> Vec<f32> {
    (0..=n)
        .map(|i| lo + (hi - lo) * i as f32 / n as f32)
        .collect()
}

/// A grid of quads over `xs` × `zs` with heights `y(x, z)`, two triangles per quad, its
/// outline and inline edges flagged by `outline(a, b)` and `inline(a, b)` (endpoints as
/// `[x, z]`), and the outline grid.
pub(super) fn build(
    xs: &[f32],
    zs: &[f32],
    y: impl Fn(f32, f32) -> f32,
    outline: impl Fn([f32; 2], [f32; 2]) -> u8,
    inline: impl Fn([f32; 2], [f32; 2]) -> u8,
) -> NavSection {
    let (nx, nz) = (xs.len(), zs.len());
    let vertex = |i: usize, j: usize| (j * nx + i) as u16;
    let vertices: Vec<NavVertex> = zs
        .iter()
        .flat_map(|&z| xs.iter().map(move |&x| (x, z)))
        .map(|(x, z)| NavVertex {
            position: [F32::from(x), F32::from(y(x, z)), F32::from(z)],
            normal: outward(x, z),
        })
        .collect();
    let mut cells = Vec::new();
    for j in 0..nz - 1 {
        for i in 0..nx - 1 {
            let (a, b, c, d) = (
                vertex(i, j),
                vertex(i + 1, j),
                vertex(i + 1, j + 1),
                vertex(i, j + 1),
            );
            // Clockwise seen from above: a → c → b and a → d → c.
            for tri in [[a, c, b], [a, d, c]] {
                cells.push(NavCell {
                    vertices: tri,
                    flag: 0,
                    event: 0,
                });
            }
        }
    }
    // Each undirected edge with the cells that use it, in order of first use.
    let mut sides: BTreeMap<(u16, u16), (usize, Vec<u16>)> = BTreeMap::new();
    for (c, cell) in cells.iter().enumerate() {
        for k in 0..3 {
            let (p, q) = (cell.vertices[k], cell.vertices[(k + 1) % 3]);
            let next = sides.len();
            let entry = sides
                .entry((p.min(q), p.max(q)))
                .or_insert((next, Vec::new()));
            entry.1.push(c as u16);
        }
    }
    let mut ordered: Vec<((u16, u16), Vec<u16>)> = Vec::with_capacity(sides.len());
    let mut by_first: Vec<_> = sides.into_iter().collect();
    by_first.sort_by_key(|(_, (first, _))| *first);
    ordered.extend(by_first.into_iter().map(|(k, (_, cells))| (k, cells)));
    let xz = |v: u16| {
        let p = vertices[usize::from(v)].position;
        [p[0].get(), p[2].get()]
    };
    let (mut outline_edges, mut inline_edges) = (Vec::new(), Vec::new());
    for ((p, q), users) in ordered {
        if let [a, b] = users[..] {
            inline_edges.push(NavEdge {
                vertices: [p, q],
                cells: [a, b],
                flag: inline(xz(p), xz(q)),
                event: 0,
            });
        } else {
            outline_edges.push(NavEdge {
                vertices: [p, q],
                cells: [users[0], NO_CELL],
                flag: outline(xz(p), xz(q)),
                event: 0,
            });
        }
    }
    let grid = outline_grid(&outline_edges, xz, (xs[0], zs[0]), (xs[nx - 1], zs[nz - 1]));
    NavSection {
        vertices,
        cells,
        outline_edges,
        inline_edges,
        event_names: Vec::new(),
        grid,
    }
}

/// The outline grid from `lo` to `hi`: each edge listed in every tile its bounding box
/// touches, which includes every tile the server looks it up in.
fn outline_grid(
    edges: &[NavEdge],
    xz: impl Fn(u16) -> [f32; 2],
    lo: (f32, f32),
    hi: (f32, f32),
) -> OutlineGrid {
    let span = |a: f32, b: f32| ((b - a) / GRID_TILE_SIZE).floor() as i32 + 1;
    let (width, height) = (span(lo.0, hi.0), span(lo.1, hi.1));
    let mut tiles = vec![Vec::new(); (width * height) as usize];
    let tile = |v: f32, o: f32, n: i32| (((v - o) / GRID_TILE_SIZE).floor() as i32).clamp(0, n - 1);
    for (e, edge) in edges.iter().enumerate() {
        let (a, b) = (xz(edge.vertices[0]), xz(edge.vertices[1]));
        let (x0, x1) = (
            tile(a[0].min(b[0]), lo.0, width),
            tile(a[0].max(b[0]), lo.0, width),
        );
        let (z0, z1) = (
            tile(a[1].min(b[1]), lo.1, height),
            tile(a[1].max(b[1]), lo.1, height),
        );
        for z in z0..=z1 {
            for x in x0..=x1 {
                tiles[(z * width + x) as usize].push(e as u16);
            }
        }
    }
    OutlineGrid {
        origin: [F32::from(lo.0), F32::from(lo.1)],
        width,
        height,
        tiles,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::worldgen::catalog::OBJECTS;

    #[test]
    fn every_catalog_mesh_round_trips_and_lints_clean() {
        for resource in OBJECTS {
            let mesh = object_mesh(resource);
            let bytes = mesh.to_vec().unwrap();
            assert_eq!(
                jmxv::bms::ObjectMesh::parse(&bytes).unwrap(),
                mesh,
                "{}",
                resource.path
            );
            let findings = jmxv::bms::lint::lint(&mesh);
            assert!(findings.is_empty(), "{}: {findings:?}", resource.path);
            assert_eq!(mesh.nav.is_some(), resource.class != ObjectClass::Prop);
        }
    }

    #[test]
    fn each_class_has_its_edges() {
        let count = |nav: &NavSection, outline: bool, flag: u8| {
            let list = if outline {
                &nav.outline_edges
            } else {
                &nav.inline_edges
            };
            list.iter().filter(|e| e.flag == flag).count()
        };
        let of = |class| {
            let r = OBJECTS.iter().find(|r| r.class == class).unwrap();
            (r.size, nav_section(r).unwrap())
        };
        let (_, house) = of(ObjectClass::Building);
        assert_eq!(count(&house, true, EDGE_OPEN), 1, "one doorway edge");
        assert!(count(&house, true, EDGE_WALL) >= 4);
        assert!(!house.inline_edges.is_empty());
        let (_, gate) = of(ObjectClass::Gate);
        assert_eq!(
            count(&gate, false, EDGE_SIEGE | EDGE_INTERNAL),
            2,
            "the siege line across both halves"
        );
        assert_eq!(count(&gate, true, EDGE_WALL), 4);
        assert_eq!(count(&gate, true, EDGE_OPEN), 4);
        let (_, bridge) = of(ObjectClass::Bridge);
        assert_eq!(count(&bridge, true, EDGE_LINK), 1, "the inner end links");
        assert_eq!(count(&bridge, true, EDGE_OPEN), 1, "the outer end is open");
        assert!(count(&bridge, true, EDGE_UNDERPASS) >= 4);
        let (_, stairs) = of(ObjectClass::Stairs);
        let heights: Vec<f32> = stairs
            .vertices
            .iter()
            .map(|v| v.position[1].get())
            .collect();
        assert_eq!(heights.iter().copied().fold(f32::MAX, f32::min), 0.0);
        assert_eq!(
            heights.iter().copied().fold(f32::MIN, f32::max),
            STAIRS_RISE
        );
        assert_eq!(count(&stairs, true, EDGE_OPEN), 1, "the foot");
        for nav in [&house, &gate, &bridge, &stairs] {
            assert!(nav.inline_edges.iter().all(|e| e.flag & EDGE_INTERNAL != 0));
            // Clockwise seen from above.
            for c in &nav.cells {
                let p = c.vertices.map(|k| {
                    let v = nav.vertices[usize::from(k)].position;
                    (f64::from(v[0].get()), f64::from(v[2].get()))
                });
                let cross =
                    (p[1].0 - p[0].0) * (p[2].1 - p[0].1) - (p[1].1 - p[0].1) * (p[2].0 - p[0].0);
                assert!(cross < 0.0);
            }
        }
        assert_eq!(outward(1.0, 0.0), 0);
        assert_eq!(outward(0.0, -1.0), 64);
        assert_eq!(outward(-1.0, 0.0), 128);
    }
}
