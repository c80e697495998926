//! The single-file lint: valid meshes lint clean, and every code is made by a mesh that has
//! exactly that problem.

use jmxv::nvm::lint::{
    lint, lint_with, LintOptions, Report, Severity, CODES, DIRECTION_CONVENTIONS, MAX_PER_CODE,
};
use jmxv::nvm::{
    Cell, GlobalEdge, InternalEdge, Layout, Link, NavMesh, Object, Tile, EDGE_BLOCK_SRC_TO_DST,
    EDGE_GLOBAL, EDGE_INTERNAL, NONE_U16, NO_DIRECTION, TILES_PER_SIDE, TILE_BLOCKED,
};
use jmxv::{RegionId, F32};
use std::collections::BTreeSet;

/// The region the test meshes describe (x 78, z 105).
const REGION: RegionId = RegionId::new(0x4e, 0x69);

/// What the region border is made of in a built mesh.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Border {
    /// Global edges to the four neighbours (as in the game's enabled regions).
    Global,
    /// Walls (blocked internal edges), as around an island region.
    Walls,
}

/// Side numbers as in the lint's direction report: −z, −x, +z, +x.
const SIDES: [(usize, bool); 4] = [(1, false), (0, false), (1, true), (0, true)];

/// The direction byte naming `side` under a named convention.
fn dir_for(convention: &str, side: usize) -> u8 {
    let (_, sides) = DIRECTION_CONVENTIONS
        .iter()
        .find(|(name, _)| *name == convention)
        .expect("a known convention");
    sides
        .iter()
        .position(|&s| s == side)
        .expect("every side is named") as u8
}

/// A valid mesh from cell rectangles `[x0, z0, x1, z1]` in units (20-aligned): open cells
/// first, then closed ones; tiles pointing to their cell; one edge per run of a cell side with
/// the same thing across it: a passage between two open cells, a wall between an open cell
/// and a closed one, and a global edge or a wall on the region border.
fn build(open: &[[u32; 4]], closed: &[[u32; 4]], border: Border, convention: &str) -> NavMesh {
    let mut mesh = NavMesh::default();
    let rects: Vec<[u32; 4]> = open.iter().chain(closed).copied().collect();
    mesh.open_cell_count = open.len() as u32;
    mesh.cells = rects
        .iter()
        .map(|r| Cell {
            min: [F32::from(r[0] as f32), F32::from(r[1] as f32)],
            max: [F32::from(r[2] as f32), F32::from(r[3] as f32)],
            objects: Vec::new(),
        })
        .collect();
    let mut filled = vec![false; mesh.tiles.len()];
    for (c, r) in rects.iter().enumerate() {
        for tz in r[1] / 20..r[3] / 20 {
            for tx in r[0] / 20..r[2] / 20 {
                let t = tz as usize * TILES_PER_SIDE + tx as usize;
                assert!(!filled[t], "test rectangles overlap at tile {t}");
                filled[t] = true;
                let flag = if c < open.len() { 0 } else { TILE_BLOCKED };
                mesh.tiles[t] = Tile {
                    cell_index: c as u32,
                    flag,
                    texture_id: 0,
                };
            }
        }
    }
    assert!(
        filled.iter().all(|&f| f),
        "test rectangles do not cover the region"
    );

    let cell_at = |tx: i64, tz: i64| -> Option<usize> {
        let inside = (0..96).contains(&tx) && (0..96).contains(&tz);
        inside.then(|| mesh.tiles[tz as usize * TILES_PER_SIDE + tx as usize].cell() as usize)
    };
    let mut global = Vec::new();
    let mut internal = Vec::new();
    for (c, r) in rects.iter().enumerate().take(open.len()) {
        for (side, &(fixed_axis, at_max)) in SIDES.iter().enumerate() {
            let run_axis = 1 - fixed_axis;
            let fixed = if at_max {
                r[fixed_axis + 2]
            } else {
                r[fixed_axis]
            };
            // The tile row just across this side.
            let across = if at_max {
                i64::from(fixed / 20)
            } else {
                i64::from(fixed / 20) - 1
            };
            let (lo, hi) = (r[run_axis] / 20, r[run_axis + 2] / 20);
            let mut start = lo;
            for step in lo..=hi {
                let neighbour_of = |s: u32| {
                    let (tx, tz) = if fixed_axis == 1 {
                        (i64::from(s), across)
                    } else {
                        (across, i64::from(s))
                    };
                    cell_at(tx, tz)
                };
                if step < hi && neighbour_of(step) == neighbour_of(start) {
                    continue;
                }
                let neighbour = neighbour_of(start);
                let point = |run: u32| {
                    let mut p = [F32::ZERO; 2];
                    p[fixed_axis] = F32::from(fixed as f32);
                    p[run_axis] = F32::from((run * 20) as f32);
                    p
                };
                let (a, b) = (point(start), point(step));
                let opposite = (side + 2) % 4;
                let dir_a = dir_for(convention, side);
                let wall = InternalEdge {
                    a,
                    b,
                    flag: EDGE_BLOCK_SRC_TO_DST,
                    dir: [dir_a, NO_DIRECTION],
                    cell: [c as u16, NONE_U16],
                };
                match neighbour {
                    None if border == Border::Walls => internal.push(wall),
                    None => global.push(GlobalEdge {
                        a,
                        b,
                        flag: EDGE_GLOBAL,
                        dir: [dir_a, dir_for(convention, opposite)],
                        // The neighbour's cell list is not known here; any index will do.
                        cell: [c as u16, 0],
                        region: [REGION.0, neighbour_region(side).0],
                    }),
                    Some(n) if n >= open.len() => internal.push(wall),
                    // Each passage once, from the lower-numbered cell.
                    Some(n) if n > c => internal.push(InternalEdge {
                        a,
                        b,
                        flag: EDGE_INTERNAL,
                        dir: [dir_a, dir_for(convention, opposite)],
                        cell: [c as u16, n as u16],
                    }),
                    Some(_) => {}
                }
                start = step;
            }
        }
    }
    mesh.global_edges = global;
    mesh.internal_edges = internal;
    mesh
}

/// The region across side `side` (−z, −x, +z, +x) of [`REGION`].
fn neighbour_region(side: usize) -> RegionId {
    let (x, z) = (REGION.x(), REGION.z());
    match side {
        0 => RegionId::new(x, z - 1),
        1 => RegionId::new(x - 1, z),
        2 => RegionId::new(x, z + 1),
        _ => RegionId::new(x + 1, z),
    }
}

const QUAD: [[u32; 4]; 4] = [
    [0, 0, 960, 960],
    [960, 0, 1920, 960],
    [0, 960, 960, 1920],
    [960, 960, 1920, 1920],
];

/// Four open 960×960 cells, passages between them, global edges on the border, and two
/// objects over cell 0 linked to each other.
fn valid() -> NavMesh {
    let mut mesh = build(&QUAD, &[], Border::Global, "spec");
    let object = |x: f32, edge: u16, other: u16, other_edge: u16| Object {
        object_id: 7,
        position: [F32::from(x), F32::from(10.0), F32::from(100.0)],
        kind: 0xFFFF,
        yaw: F32::from(1.5),
        uid: other + 1,
        region_id: REGION.0,
        links: vec![Link {
            link_object: other,
            link_edge: other_edge,
            edge,
        }],
        ..Object::default()
    };
    mesh.objects = vec![object(100.0, 3, 1, 5), object(200.0, 5, 0, 3)];
    mesh.objects[0].links.push(Link {
        link_object: NONE_U16,
        link_edge: 9,
        edge: 4,
    });
    mesh.cells[0].objects = vec![0, 1];
    mesh
}

/// Three open cells and a closed one in the +x +z quarter, walls on the region border.
fn with_closed() -> NavMesh {
    build(&QUAD[..3], &QUAD[3..], Border::Walls, "spec")
}

/// Index of the first internal edge matching `pred`.
fn internal(mesh: &NavMesh, pred: impl Fn(&InternalEdge) -> bool) -> usize {
    mesh.internal_edges
        .iter()
        .position(pred)
        .expect("the test mesh has such an edge")
}

/// Index of the passage between cells 0 and 1 (at x = 960, z 0..960).
fn passage_0_1(mesh: &NavMesh) -> usize {
    internal(mesh, |e| e.cell == [0, 1])
}

/// Index of the global edge on the −z side of cell 0.
fn global_south_of_0(mesh: &NavMesh) -> usize {
    mesh.global_edges
        .iter()
        .position(|e| e.cell[0] == 0 && e.a[1] == F32::ZERO && e.b[1] == F32::ZERO)
        .expect("cell 0 has a global edge on z = 0")
}

fn codes(report: &Report) -> BTreeSet<&'static str> {
    report.findings.iter().map(|f| f.code).collect()
}

fn listing(report: &Report) -> String {
    report.findings.iter().map(|f| format!("\n  {f}")).collect()
}

fn nan() -> F32 {
    F32::from(f32::NAN)
}

// ---- valid meshes: no false positives ----

#[test]
fn valid_meshes_lint_clean() {
    for (name, mesh) in [
        ("valid", valid()),
        ("with_closed", with_closed()),
        ("quad with walls", build(&QUAD, &[], Border::Walls, "nesw")),
    ] {
        let report = lint(&mesh, Some(REGION));
        assert!(report.findings.is_empty(), "{name}:{}", listing(&report));
        assert!(!report.has_errors());
        assert!(
            report.directions.measured() > 0,
            "{name}: no direction counted"
        );
    }
    // The region is optional: global edges are then checked against their own region[0].
    let report = lint(&valid(), None);
    assert!(report.findings.is_empty(), "{}", listing(&report));
}

#[test]
fn the_test_meshes_round_trip_through_bytes() {
    // The lint is about files: make sure the test meshes are ones the writer accepts.
    for mesh in [valid(), with_closed()] {
        let back = NavMesh::parse(&mesh.to_vec().expect("writable")).expect("parses");
        assert_eq!(back, mesh);
    }
}

/// A small deterministic generator (xorshift64*), so the random meshes are the same each run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// Splits a rectangle (in tiles) until every piece is at most 48 tiles on a side, sometimes
/// further, at random tile lines.
fn guillotine(rng: &mut Rng, r: [u32; 4], out: &mut Vec<[u32; 4]>) {
    let (w, h) = (r[2] - r[0], r[3] - r[1]);
    let must = w > 48 || h > 48;
    if !must && (w.max(h) < 2 || rng.below(3) == 0) {
        out.push(r);
        return;
    }
    let along_x = if w > 48 || h > 48 {
        w >= h
    } else {
        rng.below(2) == 0 && w >= 2 || h < 2
    };
    let (lo, len) = if along_x { (r[0], w) } else { (r[1], h) };
    let cut = lo + 1 + rng.below(u64::from(len - 1)) as u32;
    let (mut a, mut b) = (r, r);
    if along_x {
        a[2] = cut;
        b[0] = cut;
    } else {
        a[3] = cut;
        b[1] = cut;
    }
    guillotine(rng, a, out);
    guillotine(rng, b, out);
}

#[test]
fn random_partitions_lint_clean() {
    // Edges with T-junctions, runs along partial sides and many small cells: the builder and
    // the lint must agree on every one of them.
    let mut measured = 0;
    for seed in 1..=40u64 {
        let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15));
        let mut pieces = Vec::new();
        guillotine(&mut rng, [0, 0, 96, 96], &mut pieces);
        let (mut open, mut closed) = (Vec::new(), Vec::new());
        for p in pieces {
            let units = [p[0] * 20, p[1] * 20, p[2] * 20, p[3] * 20];
            if rng.below(4) == 0 {
                closed.push(units);
            } else {
                open.push(units);
            }
        }
        let border = if seed % 2 == 0 {
            Border::Global
        } else {
            Border::Walls
        };
        let convention = DIRECTION_CONVENTIONS[seed as usize % 3].0;
        let mesh = build(&open, &closed, border, convention);
        let report = lint(&mesh, Some(REGION));
        assert!(
            report.findings.is_empty(),
            "seed {seed}:{}",
            listing(&report)
        );
        assert!(
            report.directions.matching.contains(&convention),
            "seed {seed}"
        );
        measured += report.directions.measured();
    }
    assert!(measured > 1000, "only {measured} direction bytes measured");
}

#[test]
fn default_mesh_has_only_the_large_cell_warning() {
    // One 1920×1920 cell: the server would load it, but no game cell is larger than 960.
    let report = lint(&NavMesh::default(), Some(REGION));
    assert_eq!(report.findings.len(), 1, "{}", listing(&report));
    let finding = &report.findings[0];
    assert_eq!(
        (finding.code, finding.location.as_str()),
        ("W009", "cells[0]")
    );
    assert_eq!(finding.severity, Severity::Warning);
    assert!(
        finding.message.contains("1920 x 1920"),
        "{}",
        finding.message
    );
    assert!(!report.has_errors());
}

// ---- every code ----

/// One broken mesh: the code it must produce, where, and every other code it may produce
/// (exactly: a code not listed is a false positive).
struct Case {
    name: &'static str,
    code: &'static str,
    location: &'static str,
    also: &'static [&'static str],
    region: Option<RegionId>,
    make: fn() -> NavMesh,
}

const fn case(
    name: &'static str,
    code: &'static str,
    location: &'static str,
    also: &'static [&'static str],
    make: fn() -> NavMesh,
) -> Case {
    Case {
        name,
        code,
        location,
        also,
        region: Some(REGION),
        make,
    }
}

const CASES: &[Case] = &[
    case("signature", "E001", "signature", &[], || {
        let mut m = valid();
        m.signature[11] = b'1';
        m
    }),
    case(
        "object position NaN",
        "E002",
        "objects[1].position[1]",
        &[],
        || {
            let mut m = valid();
            m.objects[1].position[1] = nan();
            m
        },
    ),
    case("object yaw infinite", "E002", "objects[0].yaw", &[], || {
        let mut m = valid();
        m.objects[0].yaw = F32::from(f32::INFINITY);
        m
    }),
    case("cell bound NaN", "E002", "cells[2].min[0]", &[], || {
        let mut m = valid();
        m.cells[2].min[0] = nan();
        m
    }),
    case(
        "global edge NaN",
        "E002",
        "global_edges[0].a[0]",
        &[],
        || {
            let mut m = valid();
            m.global_edges[0].a[0] = nan();
            m
        },
    ),
    case(
        "internal edge NaN",
        "E002",
        "internal_edges[0].b[1]",
        &[],
        || {
            let mut m = valid();
            m.internal_edges[0].b[1] = F32::from(f32::NEG_INFINITY);
            m
        },
    ),
    case("height NaN", "E002", "heights[100]", &[], || {
        let mut m = valid();
        m.heights[100] = nan();
        m
    }),
    case("plane height NaN", "E002", "planes.heights[3]", &[], || {
        let mut m = valid();
        m.planes.heights[3] = nan();
        m
    }),
    case(
        "cell object index",
        "E003",
        "cells[0].objects[2]",
        &[],
        || {
            let mut m = valid();
            m.cells[0].objects.push(2);
            m
        },
    ),
    case("open cell count", "E004", "open_cell_count", &[], || {
        let mut m = valid();
        m.open_cell_count = 5;
        m
    }),
    // Cell 0 ends at 950: the passage and the +z edge of cell 0 no longer lie on its sides.
    case(
        "cell not aligned",
        "E005",
        "cells[0].max[0]",
        &["E016"],
        || {
            let mut m = valid();
            m.cells[0].max[0] = F32::from(950.0);
            m
        },
    ),
    case("cell empty", "E006", "cells[0]", &["E016"], || {
        let mut m = valid();
        m.cells[0].min[0] = F32::from(960.0);
        m
    }),
    // Wider than 960 too, and the edges on its +x side at 1920 are off its new side.
    case(
        "cell outside",
        "E007",
        "cells[1].max[0]",
        &["E016", "W009"],
        || {
            let mut m = valid();
            m.cells[1].max[0] = F32::from(1940.0);
            m
        },
    ),
    // A closed cell no tile points to; its rectangle lies inside cell 0.
    case("cell without tiles", "E008", "cells[4]", &["E010"], || {
        let mut m = valid();
        m.cells.push(Cell {
            min: [F32::ZERO; 2],
            max: [F32::from(20.0); 2],
            objects: vec![],
        });
        m
    }),
    case(
        "foreign tile in cell",
        "E009",
        "cells[0]",
        &["E023"],
        || {
            let mut m = valid();
            m.tiles[0].cell_index = 1;
            m
        },
    ),
    // Cell 1 starts one tile early, over cell 0's last column; the passage at x = 960 is then
    // inside cell 1, not on its side.
    case(
        "cells overlap",
        "E010",
        "cells[1]",
        &["E017", "W009"],
        || {
            let mut m = valid();
            m.cells[1].min[0] = F32::from(940.0);
            m
        },
    ),
    case(
        "edge cell[0]",
        "E011",
        "internal_edges[0].cell[0]",
        &[],
        || {
            let mut m = valid();
            m.internal_edges[0].cell[0] = 99;
            m
        },
    ),
    case(
        "global edge cell[0]",
        "E011",
        "global_edges[2].cell[0]",
        &[],
        || {
            let mut m = valid();
            m.global_edges[2].cell[0] = NONE_U16;
            m
        },
    ),
    case(
        "passage cell[1]",
        "E012",
        "internal_edges[1].cell[1]",
        &[],
        || {
            let mut m = valid();
            let i = passage_0_1(&m);
            assert_eq!(
                i, 1,
                "cell 0's passages: +z (to cell 2), then +x (to cell 1)"
            );
            m.internal_edges[i].cell[1] = NONE_U16;
            m
        },
    ),
    case(
        "direction byte",
        "E013",
        "internal_edges[0].dir[0]",
        &[],
        || {
            let mut m = valid();
            m.internal_edges[0].dir[0] = 7;
            m
        },
    ),
    case(
        "global direction byte",
        "E013",
        "global_edges[1].dir[1]",
        &[],
        || {
            let mut m = valid();
            m.global_edges[1].dir[1] = 4;
            m
        },
    ),
    case("zero-length edge", "E014", "internal_edges[0]", &[], || {
        let mut m = valid();
        m.internal_edges[0].b = m.internal_edges[0].a;
        m
    }),
    case("diagonal edge", "E015", "internal_edges[0]", &[], || {
        let mut m = valid();
        // The passage from (0, 960) to (960, 960), its end moved off the line.
        m.internal_edges[0].b = [F32::from(960.0), F32::from(980.0)];
        m
    }),
    // The wall on the −z border of cell 0, said to belong to cell 3.
    case("edge off cell[0]", "E016", "internal_edges[0]", &[], || {
        let mut m = build(&QUAD, &[], Border::Walls, "spec");
        let i = internal(&m, |e| e.cell == [0, NONE_U16] && e.a[1] == F32::ZERO);
        assert_eq!(i, 0);
        m.internal_edges[i].cell[0] = 3;
        m
    }),
    case(
        "global edge off cell[0]",
        "E016",
        "global_edges[0]",
        &[],
        || {
            let mut m = valid();
            let i = global_south_of_0(&m);
            assert_eq!(i, 0);
            m.global_edges[i].cell[0] = 1;
            m
        },
    ),
    case(
        "passage off cell[1]",
        "E017",
        "internal_edges[1]",
        &[],
        || {
            let mut m = valid();
            let i = passage_0_1(&m);
            m.internal_edges[i].cell[1] = 3;
            m
        },
    ),
    case(
        "passage not shared",
        "E018",
        "internal_edges[1]",
        &[],
        || {
            let mut m = valid();
            let i = passage_0_1(&m);
            m.internal_edges[i].cell[1] = 0;
            m
        },
    ),
    // Moved from z = 0 to z = 960: still on a side of cell 0, but not on the border.
    case(
        "global edge off border",
        "E019",
        "global_edges[0]",
        &[],
        || {
            let mut m = valid();
            let i = global_south_of_0(&m);
            m.global_edges[i].a[1] = F32::from(960.0);
            m.global_edges[i].b[1] = F32::from(960.0);
            m
        },
    ),
    case(
        "global region[0]",
        "E020",
        "global_edges[3].region[0]",
        &[],
        || {
            let mut m = valid();
            m.global_edges[3].region[0] = RegionId::new(1, 2).0;
            m
        },
    ),
    case(
        "global region[1]",
        "E021",
        "global_edges[0].region[1]",
        &[],
        || {
            let mut m = valid();
            m.global_edges[0].region[1] = REGION.0;
            m
        },
    ),
    case(
        "tile cell index",
        "E022",
        "tiles[5].cell_index",
        &["E009"],
        || {
            let mut m = valid();
            m.tiles[5].cell_index = 9;
            m
        },
    ),
    // Tile (47, 0) of cell 0 pointing to cell 1, which does not contain it.
    case(
        "tile outside its cell",
        "E023",
        "tiles[47]",
        &["E009"],
        || {
            let mut m = valid();
            m.tiles[47].cell_index = 1;
            m
        },
    ),
    case(
        "blocked tile in open cell",
        "E024",
        "tiles[0].flag",
        &[],
        || {
            let mut m = valid();
            m.tiles[0].flag = TILE_BLOCKED;
            m
        },
    ),
    case(
        "open tile in closed cell",
        "E024",
        "tiles[9215].flag",
        &[],
        || {
            let mut m = with_closed();
            m.tiles[9215].flag = 0;
            m
        },
    ),
    // Object 1's link back to object 0 is then unanswered too.
    case(
        "link object",
        "E025",
        "objects[0].links[0].link_object",
        &["E026"],
        || {
            let mut m = valid();
            m.objects[0].links[0].link_object = 7;
            m
        },
    ),
    case(
        "link not reciprocal",
        "E026",
        "objects[0].links[0]",
        &[],
        || {
            let mut m = valid();
            m.objects[1].links[0].edge = 6;
            m
        },
    ),
    case("legacy layout", "W001", "layout", &[], || {
        let mut m = with_closed();
        m.layout = Layout::Tiles4;
        // Legacy tiles store no flags: the closed cell's tiles read back as 0 and that is fine.
        for t in m.tiles.iter_mut() {
            t.flag = 0;
        }
        m
    }),
    case("trailing bytes", "W002", "trailing", &[], || {
        let mut m = valid();
        m.trailing = vec![1, 2, 3];
        m
    }),
    case("boolean", "W003", "objects[0].is_big", &[], || {
        let mut m = valid();
        m.objects[0].is_big = 2;
        m.objects[1].is_struct = 1;
        m
    }),
    case("plane type", "W004", "planes.types[7]", &[], || {
        let mut m = valid();
        m.planes.types[7] = 4;
        m.planes.types[8] = 3;
        m
    }),
    case("tile high bits", "W005", "tiles[0].cell_index", &[], || {
        let mut m = valid();
        m.tiles[0].cell_index |= 0x0001_0000;
        m
    }),
    case(
        "wall with cell[1]",
        "W006",
        "internal_edges[0].cell[1]",
        &[],
        || {
            let mut m = with_closed();
            let i = internal(&m, |e| e.flag == EDGE_BLOCK_SRC_TO_DST);
            assert_eq!(i, 0, "cell 0's −z border wall comes first");
            m.internal_edges[i].cell[1] = 3;
            m
        },
    ),
    case(
        "internal flag",
        "W007",
        "internal_edges[0].flag",
        &[],
        || {
            let mut m = valid();
            m.internal_edges[0].flag = EDGE_INTERNAL | EDGE_GLOBAL;
            m
        },
    ),
    case(
        "blocked global edge",
        "W008",
        "global_edges[0].flag",
        &[],
        || {
            let mut m = valid();
            m.global_edges[0].flag |= EDGE_BLOCK_SRC_TO_DST;
            m
        },
    ),
    case("large cell", "W009", "cells[0]", &[], NavMesh::default),
];

/// What is wrong with the report for one case, if anything.
fn check_case(case: &Case) -> Option<String> {
    let report = lint(&(case.make)(), case.region);
    let Some(found) = report.findings.iter().find(|f| f.code == case.code) else {
        return Some(format!("no {}", case.code));
    };
    let severity = if case.code.starts_with('E') {
        Severity::Error
    } else {
        Severity::Warning
    };
    let mut expected: BTreeSet<&str> = case.also.iter().copied().collect();
    expected.insert(case.code);
    if found.location != case.location {
        Some(format!(
            "{} at {}, expected at {}",
            case.code, found.location, case.location
        ))
    } else if found.severity != severity || found.message.is_empty() {
        Some(format!("{found} has the wrong severity or no message"))
    } else if codes(&report) != expected {
        Some(format!(
            "codes {:?}, expected {expected:?}:{}",
            codes(&report),
            listing(&report)
        ))
    } else {
        None
    }
}

#[test]
fn every_code_is_made_by_its_case() {
    // All cases run before failing, so one broken check does not hide the others.
    let failures: Vec<String> = CASES
        .iter()
        .filter_map(|case| check_case(case).map(|why| format!("{}: {why}", case.name)))
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} cases failed:\n{}",
        failures.len(),
        CASES.len(),
        failures.join("\n")
    );
}

#[test]
fn every_code_has_a_case() {
    let listed: BTreeSet<&str> = CODES.iter().map(|(code, _, _)| *code).collect();
    let made: BTreeSet<&str> = CASES.iter().map(|c| c.code).collect();
    assert_eq!(listed, made);
    for (code, severity, description) in CODES {
        assert_eq!(
            code.starts_with('E'),
            *severity == Severity::Error,
            "{code}"
        );
        assert!(!description.is_empty(), "{code}");
    }
}

// ---- particular behaviours ----

#[test]
fn messages_carry_the_values() {
    let mut m = valid();
    m.cells[0].objects.push(42);
    m.internal_edges[0].dir[0] = 9;
    let report = lint(&m, Some(REGION));
    let messages: Vec<&str> = report.findings.iter().map(|f| f.message.as_str()).collect();
    assert!(
        messages
            .iter()
            .any(|s| s.contains("42") && s.contains("2 objects")),
        "{messages:?}"
    );
    assert!(
        messages.iter().any(|s| s.contains("direction 9")),
        "{messages:?}"
    );
}

#[test]
fn region_checks_need_the_file_region() {
    let mut m = valid();
    m.global_edges[3].region[0] = RegionId::new(1, 2).0;
    // Without a file name, region[0] cannot be wrong, but region[1] is then checked against
    // the wrong region[0] it names.
    let report = lint(&m, None);
    assert_eq!(
        codes(&report),
        BTreeSet::from(["E021"]),
        "{}",
        listing(&report)
    );
    assert_eq!(report.findings[0].location, "global_edges[3].region[1]");
    // A file named for another region fails E020 on every global edge.
    let report = lint(&valid(), Some(RegionId::new(3, 4)));
    let e020 = report.findings.iter().filter(|f| f.code == "E020").count();
    assert_eq!(e020, valid().global_edges.len());
}

#[test]
fn broken_reciprocity_is_seen_from_both_sides() {
    let mut m = valid();
    m.objects[1].links[0].edge = 6;
    let report = lint(&m, Some(REGION));
    let at: Vec<&str> = report
        .findings
        .iter()
        .map(|f| f.location.as_str())
        .collect();
    assert_eq!(at, ["objects[0].links[0]", "objects[1].links[0]"]);
    // The row that exists is named, and the one that is missing.
    let message = &report.findings[1].message;
    assert!(
        message.contains("links edge 6 to objects[0] edge 3"),
        "{message}"
    );
    assert!(
        message.contains("{link_object: 1, link_edge: 6, edge: 3}"),
        "{message}"
    );
}

#[test]
fn legacy_files_skip_the_tile_flag_check() {
    let mut m = with_closed();
    m.layout = Layout::Tiles4NoPlanes;
    for t in m.tiles.iter_mut() {
        t.flag = 0;
    }
    let report = lint(&m, Some(REGION));
    assert_eq!(
        codes(&report),
        BTreeSet::from(["W001"]),
        "{}",
        listing(&report)
    );
    assert!(report.findings[0].message.contains("tiles4-noplanes"));
}

#[test]
fn findings_come_in_file_order() {
    let mut m = valid();
    m.signature[0] = b'X';
    m.trailing = vec![0];
    m.tiles[3].cell_index |= 0x0002_0000;
    m.objects[0].is_struct = 5;
    let report = lint(&m, Some(REGION));
    let order: Vec<&str> = report.findings.iter().map(|f| f.code).collect();
    assert_eq!(order, ["E001", "W003", "W005", "W002"]);
}

#[test]
fn repeated_findings_are_capped_with_a_summary() {
    let mut m = valid();
    for t in m.tiles.iter_mut() {
        t.cell_index |= 0x0001_0000;
    }
    let report = lint(&m, Some(REGION));
    let w005: Vec<_> = report
        .findings
        .iter()
        .filter(|f| f.code == "W005")
        .collect();
    assert_eq!(w005.len(), MAX_PER_CODE + 1);
    let summary = w005[MAX_PER_CODE];
    assert_eq!(summary.location, "tiles");
    assert_eq!(summary.severity, Severity::Warning);
    let left_out = m.tiles.len() - MAX_PER_CODE;
    assert!(
        summary.message.contains(&format!("{left_out} more")),
        "{}",
        summary.message
    );
    assert_eq!(
        w005[MAX_PER_CODE - 1].location,
        format!("tiles[{}].cell_index", MAX_PER_CODE - 1)
    );

    let mut all = LintOptions::default();
    all.max_per_code = usize::MAX;
    let report = lint_with(&m, Some(REGION), &all);
    assert_eq!(report.findings.len(), m.tiles.len());
}

#[test]
fn a_whole_wrong_tile_map_stays_cheap_and_capped() {
    // Every tile points to cell 3: each other cell's scan finds foreign tiles, every tile
    // outside cell 3 is outside its cell, and the lint stays within its caps.
    let mut m = valid();
    for t in m.tiles.iter_mut() {
        t.cell_index = 3;
    }
    let report = lint(&m, Some(REGION));
    let e023 = report.findings.iter().filter(|f| f.code == "E023").count();
    assert_eq!(e023, MAX_PER_CODE + 1);
    let e008: Vec<&str> = report
        .findings
        .iter()
        .filter(|f| f.code == "E008")
        .map(|f| f.location.as_str())
        .collect();
    assert_eq!(e008, ["cells[0]", "cells[1]", "cells[2]"]);
    let e009 = report.findings.iter().filter(|f| f.code == "E009").count();
    assert_eq!(e009, 3);
}

#[test]
fn many_overlapping_cells_are_reported_once_each() {
    // 2000 copies of one cell over the whole region: each copy's scan stops at its first tile.
    let mut m = NavMesh::default();
    m.cells = vec![m.cells[0].clone(); 2000];
    m.open_cell_count = 2000;
    let mut all = LintOptions::default();
    all.max_per_code = usize::MAX;
    let report = lint_with(&m, Some(REGION), &all);
    let overlaps = report.findings.iter().filter(|f| f.code == "E010").count();
    assert_eq!(overlaps, 1999);
    assert!(report
        .findings
        .iter()
        .any(|f| f.code == "E010" && f.message.contains("cells[0]")));
}

// ---- direction bytes ----

#[test]
fn directions_name_the_convention_they_follow() {
    for &(convention, sides) in DIRECTION_CONVENTIONS {
        let mesh = build(&QUAD, &[], Border::Global, convention);
        let report = lint(&mesh, Some(REGION));
        assert!(
            report.findings.is_empty(),
            "{convention}:{}",
            listing(&report)
        );
        let dirs = &report.directions;
        assert_eq!(dirs.matching, [convention]);
        // Every edge is counted once for its cell A, passages once more for cell B.
        let edges = mesh.global_edges.len() + mesh.internal_edges.len();
        let passages = mesh
            .internal_edges
            .iter()
            .filter(|e| e.cell[1] != NONE_U16)
            .count();
        assert_eq!(dirs.counts.iter().flatten().sum::<u32>() as usize, edges);
        assert_eq!(
            dirs.counts_b.iter().flatten().sum::<u32>() as usize,
            passages
        );
        for (d, &side) in sides.iter().enumerate() {
            for s in (0..4).filter(|&s| s != side) {
                assert_eq!(dirs.counts[d][s], 0, "{convention}: dir {d} on side {s}");
                assert_eq!(dirs.counts_b[d][s], 0, "{convention}: dir {d} on side {s}");
            }
            assert!(dirs.counts[d][side] > 0, "{convention}: dir {d} never seen");
        }
    }
}

#[test]
fn z_sides_alone_cannot_tell_spec_from_zxzx() {
    // spec and zxzx agree on 0 and 2 (−z, +z) and differ only on the x sides.
    let mut mesh = build(&QUAD, &[], Border::Walls, "spec");
    mesh.internal_edges.retain(|e| e.a[1] == e.b[1]);
    let report = lint(&mesh, Some(REGION));
    assert!(report.findings.is_empty(), "{}", listing(&report));
    assert_eq!(report.directions.matching, ["spec", "zxzx"]);
}

#[test]
fn one_contrary_edge_matches_no_convention() {
    let mut mesh = build(&QUAD, &[], Border::Global, "nesw");
    let i = passage_0_1(&mesh);
    mesh.internal_edges[i].dir[0] = mesh.internal_edges[i].dir[1];
    let report = lint(&mesh, Some(REGION));
    assert!(report.findings.is_empty(), "{}", listing(&report));
    assert!(report.directions.matching.is_empty());
}

#[test]
fn no_direction_bytes_no_convention() {
    let mut mesh = valid();
    for e in &mut mesh.internal_edges {
        e.dir = [NO_DIRECTION; 2];
    }
    for e in &mut mesh.global_edges {
        e.dir = [NO_DIRECTION; 2];
    }
    let report = lint(&mesh, Some(REGION));
    assert!(report.findings.is_empty(), "{}", listing(&report));
    assert_eq!(report.directions.measured(), 0);
    assert!(report.directions.matching.is_empty());
}

// ---- the test kit's builders ----

#[test]
fn test_kit_regions_lint_clean() {
    use silknav_testkit::{open_region, realistic_region, region_from_mask, TEST_REGION};
    let mut meshes = vec![
        ("open_region".to_owned(), open_region(TEST_REGION)),
        (
            "region_from_mask(ring)".to_owned(),
            region_from_mask(TEST_REGION, |tx, tz| {
                let (dx, dz) = (tx as i32 - 48, tz as i32 - 48);
                (100..400).contains(&(dx * dx + dz * dz))
            }),
        ),
        (
            "region_from_mask(checker)".to_owned(),
            region_from_mask(TEST_REGION, |tx, tz| (tx / 7 + tz / 5) % 2 == 0),
        ),
    ];
    for seed in 1..=5 {
        meshes.push((format!("realistic_region({seed})"), realistic_region(seed)));
    }
    let failures: Vec<String> = meshes
        .iter()
        .filter_map(|(name, mesh)| {
            let report = lint(mesh, Some(TEST_REGION));
            (!report.findings.is_empty()).then(|| format!("{name}:{}", listing(&report)))
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // The realistic regions exercise what the lint checks: closed cells, links, many edges.
    let realistic = &meshes[3].1;
    assert!(realistic.cells.len() > realistic.open_cell_count as usize);
    assert!(realistic.objects.iter().any(|o| !o.links.is_empty()));
    assert!(realistic.internal_edges.len() > 50);
    let directions = lint(realistic, Some(TEST_REGION)).directions;
    assert!(directions.measured() > 50);
    assert_eq!(directions.matching.len(), 1, "{directions:?}");
}
