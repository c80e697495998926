//! An independent check of the invariants the game data shows (NOTES.md §11), written
//! without the crate's lint so that the two can catch each other's mistakes.

use jmxv::nvm::NavMesh;
use jmxv::RegionId;
use std::collections::{BTreeMap, HashSet};

/// Every invariant violated by a world, as readable strings (empty when all hold).
pub fn violations(world: &BTreeMap<RegionId, NavMesh>) -> Vec<String> {
    let mut out = Vec::new();
    for (&region, mesh) in world {
        let name = region.file_name();
        let cells = mesh.cells.len();
        let open = mesh.open_cell_count as usize;
        if open > cells {
            out.push(format!("{name}: open cell count {open} > {cells}"));
        }
        let mut tiles_of_cell = vec![0usize; cells];
        for (t, tile) in mesh.tiles.iter().enumerate() {
            let (tx, tz) = (t % 96, t / 96);
            let c = tile.cell_index as usize;
            if c >= cells {
                out.push(format!("{name}: tile {t} has no cell"));
                continue;
            }
            tiles_of_cell[c] += 1;
            let cell = &mesh.cells[c];
            let (x, z) = (tx as f32 * 20.0, tz as f32 * 20.0);
            if !(cell.min[0].get() <= x
                && x < cell.max[0].get()
                && cell.min[1].get() <= z
                && z < cell.max[1].get())
            {
                out.push(format!("{name}: tile {t} outside its cell {c}"));
            }
            if tile.is_blocked() != (c >= open) {
                out.push(format!(
                    "{name}: tile {t} blocked = {} in cell {c} (open cells: {open})",
                    tile.is_blocked()
                ));
            }
        }
        for (c, cell) in mesh.cells.iter().enumerate() {
            let b = [
                cell.min[0].get(),
                cell.min[1].get(),
                cell.max[0].get(),
                cell.max[1].get(),
            ];
            if b.iter()
                .any(|v| v % 20.0 != 0.0 || !(0.0..=1920.0).contains(v))
                || b[0] >= b[2]
                || b[1] >= b[3]
            {
                out.push(format!("{name}: cell {c} bounds {b:?}"));
                continue;
            }
            let area_tiles = ((b[2] - b[0]) / 20.0 * (b[3] - b[1]) / 20.0) as usize;
            if area_tiles != tiles_of_cell[c] {
                out.push(format!(
                    "{name}: cell {c} covers {area_tiles} tiles but {} point to it",
                    tiles_of_cell[c]
                ));
            }
            if b[2] - b[0] > 960.0 || b[3] - b[1] > 960.0 {
                out.push(format!("{name}: cell {c} larger than 960"));
            }
            if cell
                .objects
                .iter()
                .any(|&o| usize::from(o) >= mesh.objects.len())
            {
                out.push(format!("{name}: cell {c} lists a missing object"));
            }
        }
        for (i, e) in mesh.internal_edges.iter().enumerate() {
            if e.flag != 0x02 && e.flag != 0x04 {
                out.push(format!("{name}: internal edge {i} flag {:#04x}", e.flag));
            }
            if e.flag == 0x02 && e.cell[1] != 0xFFFF {
                out.push(format!("{name}: wall {i} has a cell on side B"));
            }
            if e.flag == 0x04 && (usize::from(e.cell[1]) >= open || usize::from(e.cell[0]) >= open)
            {
                out.push(format!(
                    "{name}: passage {i} between {:?}, not two open cells",
                    e.cell
                ));
            }
        }
        for (i, e) in mesh.global_edges.iter().enumerate() {
            if e.region[0] != region.0 {
                out.push(format!(
                    "{name}: global edge {i} region[0] {:04x}",
                    e.region[0]
                ));
            }
            if e.flag & 3 != 0 {
                out.push(format!("{name}: global edge {i} is blocked"));
            }
            let other = RegionId(e.region[1]);
            let Some(neighbour) = world.get(&other) else {
                out.push(format!("{name}: global edge {i} to missing region {other}"));
                continue;
            };
            let shift = |p: [jmxv::F32; 2]| {
                let dx = (f32::from(region.x()) - f32::from(other.x())) * 1920.0;
                let dz = (f32::from(region.z()) - f32::from(other.z())) * 1920.0;
                [p[0].get() + dx, p[1].get() + dz]
            };
            let (a, b) = (shift(e.a), shift(e.b));
            let twin = neighbour.global_edges.iter().any(|t| {
                let (ta, tb) = ([t.a[0].get(), t.a[1].get()], [t.b[0].get(), t.b[1].get()]);
                t.region == [other.0, region.0]
                    && t.cell == [e.cell[1], e.cell[0]]
                    && ((ta == a && tb == b) || (ta == b && tb == a))
            });
            if !twin {
                out.push(format!(
                    "{name}: global edge {i} has no twin in {}",
                    other.file_name()
                ));
            }
        }
        out.extend(uncovered_sides(&name, mesh));
        let links: HashSet<(usize, u16, u16, u16)> = mesh
            .objects
            .iter()
            .enumerate()
            .flat_map(|(i, o)| {
                o.links
                    .iter()
                    .map(move |l| (i, l.link_object, l.link_edge, l.edge))
            })
            .collect();
        for &(i, other, link_edge, edge) in &links {
            if other != 0xFFFF && !links.contains(&(usize::from(other), i as u16, edge, link_edge))
            {
                out.push(format!(
                    "{name}: link of object {i} to {other} is not reciprocal"
                ));
            }
        }
    }
    out
}

/// Every tile-length piece of an open cell's sides must lie on exactly one edge naming that
/// cell: a passage, a wall or a region-border link.
fn uncovered_sides(name: &str, mesh: &NavMesh) -> Vec<String> {
    // (cell, side key) → how many edges cover it; side key = (vertical?, line, tile along).
    let mut covered: std::collections::HashMap<(u16, bool, u32, u32), u32> =
        std::collections::HashMap::new();
    let mut add = |cells: &[u16], a: [f32; 2], b: [f32; 2]| {
        let vertical = a[0] == b[0];
        let (line, lo, hi) = if vertical {
            (a[0], a[1].min(b[1]), a[1].max(b[1]))
        } else {
            (a[1], a[0].min(b[0]), a[0].max(b[0]))
        };
        let mut k = lo;
        while k < hi {
            for &c in cells {
                *covered
                    .entry((c, vertical, (line / 20.0) as u32, (k / 20.0) as u32))
                    .or_default() += 1;
            }
            k += 20.0;
        }
    };
    for e in &mesh.internal_edges {
        let cells: Vec<u16> = e.cell.iter().copied().filter(|&c| c != 0xFFFF).collect();
        add(
            &cells,
            [e.a[0].get(), e.a[1].get()],
            [e.b[0].get(), e.b[1].get()],
        );
    }
    for e in &mesh.global_edges {
        add(
            &[e.cell[0]],
            [e.a[0].get(), e.a[1].get()],
            [e.b[0].get(), e.b[1].get()],
        );
    }
    let mut out = Vec::new();
    for (c, cell) in mesh
        .cells
        .iter()
        .enumerate()
        .take(mesh.open_cell_count as usize)
    {
        let (x0, z0, x1, z1) = (
            cell.min[0].get(),
            cell.min[1].get(),
            cell.max[0].get(),
            cell.max[1].get(),
        );
        let mut sides = Vec::new();
        let mut k = x0;
        while k < x1 {
            sides.push((false, z0, k));
            sides.push((false, z1, k));
            k += 20.0;
        }
        let mut k = z0;
        while k < z1 {
            sides.push((true, x0, k));
            sides.push((true, x1, k));
            k += 20.0;
        }
        for (vertical, line, along) in sides {
            let n = covered
                .get(&(
                    c as u16,
                    vertical,
                    (line / 20.0) as u32,
                    (along / 20.0) as u32,
                ))
                .copied()
                .unwrap_or(0);
            if n != 1 {
                out.push(format!("{name}: open cell {c}: side piece at line {line} from {along} covered by {n} edges"));
            }
        }
    }
    out
}
