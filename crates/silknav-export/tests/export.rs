//! Exports read back by independent readers (the `gltf` crate, `tobj`): heights on the mesh
//! are the world's `height_at`, walls stand on the ground, objects lie where the queries place
//! them, `--region` keeps one region.

use silknav::files::{Overwrite, WorldFiles};
use silknav::worldgen::{generate, GenOptions};
use silknav::{Position, Surface, World};
use silknav_export::{build, ExportOptions, Model};
use silknav_testkit::rng::SplitMix64;
use std::collections::HashMap;
use std::path::Path;

/// A world written to a folder and loaded back: the files and the world.
fn world_at(root: &Path) -> (World, WorldFiles) {
    (
        World::load(root).unwrap(),
        WorldFiles::read_dir(root).unwrap(),
    )
}

/// A generated 3×3 world at the default origin (seed 1 is the demo's; seed 2 has water and
/// ice).
fn generated(seed: u64) -> (tempfile::TempDir, World, WorldFiles) {
    let dir = tempfile::tempdir().unwrap();
    let options = GenOptions {
        seed,
        width: 3,
        height: 3,
        ..GenOptions::default()
    };
    let root = dir.path().join("demo");
    generate(&options)
        .unwrap()
        .into_files()
        .write_data_root(&root, Overwrite::Refuse)
        .unwrap();
    let (world, files) = world_at(&root);
    (dir, world, files)
}

/// Triangles in game coordinates (x, y, z), read back from a model file, with a grid of
/// 20-unit buckets to find those over a point.
#[derive(Default)]
struct ModelSurface {
    triangles: Vec<[[f64; 3]; 3]>,
    buckets: HashMap<(i64, i64), Vec<usize>>,
}

impl ModelSurface {
    fn add(&mut self, t: [[f64; 3]; 3]) {
        let i = self.triangles.len();
        self.triangles.push(t);
        let lo = |k: usize| t.iter().map(|v| v[k]).fold(f64::INFINITY, f64::min);
        let hi = |k: usize| t.iter().map(|v| v[k]).fold(f64::NEG_INFINITY, f64::max);
        for bx in (lo(0) / 20.0).floor() as i64..=(hi(0) / 20.0).floor() as i64 {
            for bz in (lo(2) / 20.0).floor() as i64..=(hi(2) / 20.0).floor() as i64 {
                self.buckets.entry((bx, bz)).or_default().push(i);
            }
        }
    }

    /// The height of the surface over (x, z): the plane of a triangle holding the point.
    fn height(&self, x: f64, z: f64) -> Option<f64> {
        let bucket = self
            .buckets
            .get(&((x / 20.0).floor() as i64, (z / 20.0).floor() as i64))?;
        bucket.iter().find_map(|&i| {
            let [a, b, c] = self.triangles[i];
            let det = (b[0] - a[0]) * (c[2] - a[2]) - (c[0] - a[0]) * (b[2] - a[2]);
            if det == 0.0 {
                return None;
            }
            let s = ((x - a[0]) * (c[2] - a[2]) - (c[0] - a[0]) * (z - a[2])) / det;
            let t = ((b[0] - a[0]) * (z - a[2]) - (x - a[0]) * (b[2] - a[2])) / det;
            let inside = s >= -1e-12 && t >= -1e-12 && s + t <= 1.0 + 1e-12;
            inside.then(|| a[1] + s * (b[1] - a[1]) + t * (c[1] - a[1]))
        })
    }
}

/// The model's groups by name prefix, as game-coordinate triangle surfaces: from a GLB read
/// with the `gltf` crate.
fn glb_surfaces(glb: &[u8]) -> (HashMap<String, ModelSurface>, [f64; 2], gltf::Document) {
    let (document, buffers, _) = gltf::import_slice(glb).expect("a valid glTF");
    let root = document.nodes().next().unwrap();
    let origin = root.extras().as_ref().expect("the origin in extras").get();
    let extras: serde_json::Value = serde_json::from_str(origin).unwrap();
    let origin = [
        extras["origin"][0].as_f64().unwrap(),
        extras["origin"][1].as_f64().unwrap(),
    ];
    let mut surfaces: HashMap<String, ModelSurface> = HashMap::new();
    for mesh in document.meshes() {
        let kind = mesh.name().unwrap().split(' ').next().unwrap().to_owned();
        for primitive in mesh.primitives() {
            if primitive.mode() != gltf::mesh::Mode::Triangles {
                continue;
            }
            let reader = primitive.reader(|b| Some(&buffers[b.index()]));
            let positions: Vec<[f32; 3]> = reader.read_positions().unwrap().collect();
            let indices: Vec<u32> = reader.read_indices().unwrap().into_u32().collect();
            let surface = surfaces.entry(kind.clone()).or_default();
            for t in indices.chunks_exact(3) {
                surface.add(
                    t.iter()
                        .map(|&i| game(positions[i as usize], origin))
                        .collect::<Vec<_>>()
                        .try_into()
                        .unwrap(),
                );
            }
        }
    }
    (surfaces, origin, document)
}

/// A model vertex back in game coordinates.
fn game(p: [f32; 3], origin: [f64; 2]) -> [f64; 3] {
    [
        origin[0] + f64::from(p[0]),
        f64::from(p[1]),
        origin[1] - f64::from(p[2]),
    ]
}

/// The same from an OBJ read with `tobj`.
fn obj_surfaces(text: &str, origin: [f64; 2]) -> HashMap<String, ModelSurface> {
    let (models, _) = tobj::load_obj_buf(
        &mut text.as_bytes(),
        &tobj::LoadOptions {
            triangulate: false,
            single_index: true,
            ..Default::default()
        },
        |_| Err(tobj::LoadError::OpenFileFailed),
    )
    .expect("valid OBJ");
    let mut surfaces: HashMap<String, ModelSurface> = HashMap::new();
    for m in models {
        let kind = m.name.split('_').next().unwrap().to_owned();
        let p = &m.mesh.positions;
        let v = |i: u32| {
            game(
                [
                    p[3 * i as usize],
                    p[3 * i as usize + 1],
                    p[3 * i as usize + 2],
                ],
                origin,
            )
        };
        let surface = surfaces.entry(kind).or_default();
        for t in m.mesh.indices.chunks_exact(3) {
            surface.add([v(t[0]), v(t[1]), v(t[2])]);
        }
    }
    surfaces
}

/// The height the model says at (x, z): the terrain, raised to an ice plane above it, as the
/// server's rule has it.
fn model_height(surfaces: &HashMap<String, ModelSurface>, x: f64, z: f64) -> Option<f64> {
    let ground = surfaces["terrain"].height(x, z)?;
    let ice = surfaces.get("ice").and_then(|s| s.height(x, z));
    Some(match ice {
        Some(ice) if !(ice <= ground) => ice,
        _ => ground,
    })
}

/// Checks 1,000 random points of the world's box: the model's height is `height_at`'s.
fn check_heights(world: &World, surfaces: &HashMap<String, ModelSurface>, bx: [f64; 4]) -> f64 {
    let mut rng = SplitMix64::new(42);
    let mut worst: f64 = 0.0;
    for _ in 0..1000 {
        let x = bx[0] + rng.unit() * (bx[2] - bx[0]);
        let z = bx[1] + rng.unit() * (bx[3] - bx[1]);
        // The world answers at the f32 region-local position the point rounds to: the model
        // is read at that very point.
        let p = Position::from_world(x, z).unwrap();
        let (x, z) = (p.world_x(), p.world_z());
        let expected = world.height_at(p, Surface::Terrain);
        let got = model_height(surfaces, x, z);
        let (Some(e), Some(g)) = (expected, got) else {
            panic!("at {x} {z}: world {expected:?}, model {got:?}");
        };
        let error = (f64::from(e) - g).abs();
        // The mesh holds the very f32 heights of the file; what is left is the rounding of
        // two ways to interpolate one plane (the server's in double with an f32 fraction,
        // rounded to f32 at the end): a few units in the last place of the height.
        let ulp = f64::from(e.abs().max(1.0)) * f64::from(f32::EPSILON);
        assert!(error <= 8.0 * ulp, "at {x} {z}: world {e}, model {g}");
        worst = worst.max(error);
    }
    worst
}

#[test]
fn heights_read_back_from_glb_and_obj_are_the_worlds() {
    let (_dir, world, files) = generated(2);
    let model = build(&world, &files.navmeshes, &ExportOptions::default()).unwrap();
    let bx = [245_760.0, 122_880.0, 251_520.0, 128_640.0];
    let glb = model.to_glb();
    let (surfaces, origin, document) = glb_surfaces(&glb);
    assert_eq!(origin, [245_760.0, 122_880.0]);
    assert!(
        surfaces.contains_key("ice") && surfaces.contains_key("water"),
        "seed 2 has both planes"
    );
    let worst = check_heights(&world, &surfaces, bx);
    println!("glb: largest height difference {worst:e}");
    let kinds: Vec<&str> = document
        .nodes()
        .next()
        .unwrap()
        .children()
        .map(|n| n.name().unwrap())
        .collect();
    assert_eq!(
        kinds,
        ["terrain", "water", "ice", "walls", "cells", "objects"]
    );
    let terrain = document
        .nodes()
        .find(|n| n.name() == Some("terrain"))
        .unwrap();
    assert_eq!(terrain.children().count(), 9);
    let cells = document
        .nodes()
        .find(|n| n.name() == Some("cells"))
        .unwrap();
    let lines = cells
        .children()
        .flat_map(|n| n.mesh().unwrap().primitives().collect::<Vec<_>>());
    assert!(lines
        .into_iter()
        .all(|p| p.mode() == gltf::mesh::Mode::Lines));

    let obj = model.to_obj();
    let from_obj = obj_surfaces(&obj, origin);
    let worst = check_heights(&world, &from_obj, bx);
    println!("obj: largest height difference {worst:e}");
}

#[test]
fn walls_stand_on_the_ground_and_objects_lie_where_the_queries_place_them() {
    let (_dir, world, files) = generated(1);
    let model = build(&world, &files.navmeshes, &ExportOptions::default()).unwrap();
    let origin = model.origin;
    let blocked: usize = files
        .navmeshes
        .values()
        .map(|m| {
            m.internal_edges
                .iter()
                .filter(|e| e.flag & jmxv::nvm::EDGE_BLOCKED != 0)
                .count()
        })
        .sum();
    let (surfaces, _, _) = glb_surfaces(&model.to_glb());
    let walls: Vec<_> = model
        .groups
        .iter()
        .filter(|g| g.name.starts_with("walls"))
        .collect();
    let quads: usize = walls.iter().map(|g| g.positions.len() / 4).sum();
    assert_eq!(quads, blocked);
    for g in &walls {
        for quad in g.positions.chunks_exact(4) {
            for k in 0..2 {
                // On the exported ground (on the world's border too, where the world has no
                // height past the edge).
                let [x, y, z] = game(quad[k], origin);
                let h = surfaces["terrain"].height(x, z).unwrap();
                assert!(
                    (h - y).abs() < 1e-2,
                    "wall foot at {x} {z}: {y} on ground {h}"
                );
                let tall = quad[k + 2][1] - quad[k][1];
                assert!((tall - silknav_export::WALL_HEIGHT).abs() < 1e-3, "{tall}");
            }
        }
    }
    // Each object triangle's centre: the world's surface nearest its height is that height.
    let objects: Vec<_> = model
        .groups
        .iter()
        .filter(|g| g.name.starts_with("object"))
        .collect();
    assert_eq!(
        objects.len(),
        world
            .object_instances()
            .filter(|i| i.triangles().len() > 0)
            .count()
    );
    let mut checked = 0;
    for g in &objects {
        for t in g.positions.chunks_exact(3) {
            let c: Vec<[f64; 3]> = t.iter().map(|&p| game(p, origin)).collect();
            let centre = [0, 1, 2].map(|k| (c[0][k] + c[1][k] + c[2][k]) / 3.0);
            let p = Position::from_world(centre[0], centre[2]).unwrap();
            let h = world.height_at(p, Surface::Near(centre[1] as f32)).unwrap();
            assert!(
                (f64::from(h) - centre[1]).abs() < 0.05,
                "{}: {centre:?} vs {h}",
                g.name
            );
            checked += 1;
        }
    }
    assert!(checked > 100, "{checked}");
}

#[test]
fn one_region_alone() {
    let (_dir, world, files) = generated(1);
    let region = jmxv::RegionId::new(129, 65);
    let options = ExportOptions {
        region: Some(region),
    };
    let model: Model = build(&world, &files.navmeshes, &options).unwrap();
    assert_eq!(model.origin, [129.0 * 1920.0, 65.0 * 1920.0]);
    assert!(model
        .groups
        .iter()
        .all(|g| g.kind == silknav_export::GroupKind::Objects || g.name.ends_with("4181")));
    assert!(model
        .groups
        .iter()
        .filter(|g| g.kind == silknav_export::GroupKind::Objects)
        .all(|g| g.name.starts_with("object 4181:")));
    let (surfaces, _, _) = glb_surfaces(&model.to_glb());
    check_heights(
        &world,
        &surfaces,
        [129.0 * 1920.0, 65.0 * 1920.0, 130.0 * 1920.0, 66.0 * 1920.0],
    );
    let missing = ExportOptions {
        region: Some(jmxv::RegionId::new(1, 1)),
    };
    assert_eq!(
        build(&world, &files.navmeshes, &missing).unwrap_err(),
        silknav_export::ExportError::RegionNotInWorld(jmxv::RegionId::new(1, 1))
    );
}
