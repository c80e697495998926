//! The renderer seen from outside: PNG output, colours where the data says, sizes, errors.

use jmxv::nvm::{NavMesh, Object, PLANE_ICE, PLANE_WATER};
use jmxv::{RegionId, F32};
use silknav_render::{
    palette, render, render_with_overlay, Colour, Overlay, Picture, Pin, RenderError,
    RenderOptions, PATH_COLOURS,
};
use silknav_testkit::{open_region, region_from_mask};
use std::collections::BTreeMap;

const R: RegionId = RegionId::new(0x4e, 0x69);

fn world_of(meshes: impl IntoIterator<Item = (RegionId, NavMesh)>) -> BTreeMap<RegionId, NavMesh> {
    meshes.into_iter().collect()
}

/// World position of local point (x, z) of region `r`.
fn at(r: RegionId, x: f64, z: f64) -> [f64; 2] {
    [f64::from(r.x()) * 1920.0 + x, f64::from(r.z()) * 1920.0 + z]
}

fn pixel_at(p: &Picture, world: [f64; 2]) -> Colour {
    let [x, y] = p.world_to_pixel(world);
    let [r, g, b, a] = p.pixel(x.floor() as u32, y.floor() as u32).expect("inside");
    assert_eq!(a, 255);
    Colour::rgb(r, g, b)
}

fn count(p: &Picture, area: silknav_render::Area, colour: Colour) -> usize {
    (area.y..area.y + area.height)
        .flat_map(|y| (area.x..area.x + area.width).map(move |x| (x, y)))
        .filter(|&(x, y)| p.pixel(x, y) == Some(colour.to_rgba()))
        .count()
}

fn luminance(c: Colour) -> u32 {
    (u32::from(c.r) * 3 + u32::from(c.g) * 6 + u32::from(c.b)) / 10
}

/// A region with a blocked 10×10-tile square at tiles 40..50 and a blocked strip along the
/// north edge (tiles z 90..96, x 0..20).
fn blocked_square() -> NavMesh {
    region_from_mask(R, |tx, tz| {
        ((40..50).contains(&tx) && (40..50).contains(&tz)) || (tz >= 90 && tx < 20)
    })
}

fn scaled(scale: f32) -> RenderOptions {
    RenderOptions {
        scale: Some(scale),
        ..RenderOptions::default()
    }
}

mod png {
    use super::*;

    #[test]
    fn encodes_a_png_with_the_picture_size_and_pixels() {
        let picture = render(&world_of([(R, blocked_square())]), &scaled(2.0)).unwrap();
        let png = picture.encode_png();
        assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
        assert_eq!(&png[12..16], b"IHDR");
        let width = u32::from_be_bytes(png[16..20].try_into().unwrap());
        let height = u32::from_be_bytes(png[20..24].try_into().unwrap());
        assert_eq!((width, height), (picture.width(), picture.height()));
        let decoded = tiny_skia::Pixmap::decode_png(&png).expect("decodes");
        assert_eq!(decoded.data(), picture.rgba(), "lossless");
    }

    #[test]
    fn saves_to_a_file_through_the_library_writer_and_reports_io_errors() {
        use silknav::files::{write_atomic, Overwrite, WriteFileError};
        let picture = render(&world_of([(R, open_region(R))]), &scaled(1.0)).unwrap();
        let dir = std::env::temp_dir().join(format!("silknav-render-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("one.png");
        write_atomic(&path, &picture.encode_png(), Overwrite::Refuse).unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), picture.encode_png());
        std::fs::remove_dir_all(&dir).unwrap();
        let err = write_atomic(
            &dir.join("missing-dir").join("x.png"),
            &picture.encode_png(),
            Overwrite::Refuse,
        )
        .unwrap_err();
        assert!(matches!(err, WriteFileError::Io { .. }), "{err}");
    }
}

mod pixels {
    use super::*;

    #[test]
    fn blocked_ground_is_dark_and_open_ground_is_not() {
        let picture = render(&world_of([(R, blocked_square())]), &scaled(8.0)).unwrap();
        let blocked = pixel_at(&picture, at(R, 45.0 * 20.0 + 10.0, 45.0 * 20.0 + 10.0));
        let open = pixel_at(&picture, at(R, 10.0 * 20.0 + 10.0, 10.0 * 20.0 + 10.0));
        assert!(luminance(blocked) < 60, "blocked {blocked:?}");
        assert!(luminance(open) > 110, "open {open:?}");
    }

    #[test]
    fn north_is_up() {
        let picture = render(&world_of([(R, blocked_square())]), &scaled(4.0)).unwrap();
        let map = picture.map_area();
        // The blocked strip lies along the north edge (large z), so near the top of the map.
        let [r, g, b, _] = picture.pixel(map.x + 20, map.y + 6).unwrap();
        assert!(
            luminance(Colour::rgb(r, g, b)) < 60,
            "top-left is the blocked strip"
        );
        let [r, g, b, _] = picture.pixel(map.x + 20, map.y + map.height - 20).unwrap();
        assert!(luminance(Colour::rgb(r, g, b)) > 110, "bottom-left is open");
    }

    #[test]
    fn walls_have_the_wall_colour() {
        let picture = render(&world_of([(R, blocked_square())]), &scaled(8.0)).unwrap();
        // The square's west side is a wall at x = 800, z 800..1000.
        assert_eq!(pixel_at(&picture, at(R, 800.0, 900.0)), palette::WALL);
        let mut options = scaled(8.0);
        options.layers.walls = false;
        let without = render(&world_of([(R, blocked_square())]), &options).unwrap();
        assert_ne!(pixel_at(&without, at(R, 800.0, 900.0)), palette::WALL);
    }

    #[test]
    fn legend_and_title_are_drawn_and_can_be_left_out() {
        let world = world_of([(R, blocked_square())]);
        let picture = render(&world, &scaled(4.0)).unwrap();
        let legend = picture.legend_area().expect("a legend");
        let map = picture.map_area();
        assert!(legend.x >= map.x + map.width, "beside the map");
        assert!(count(&picture, legend, palette::WALL) > 20, "wall swatch");
        assert!(
            count(&picture, legend, palette::BLOCKED) > 20,
            "blocked swatch"
        );
        assert!(count(&picture, legend, palette::INK) > 200, "text");
        assert!(map.y > 20, "room for the title above the map");

        let mut options = scaled(4.0);
        options.layers.legend = false;
        options.layers.title = false;
        let bare = render(&world, &options).unwrap();
        assert_eq!(bare.legend_area(), None);
        assert!(bare.width() < picture.width() && bare.height() < picture.height());
        assert_eq!(bare.map_area().width, map.width, "the map keeps its scale");
    }

    #[test]
    fn water_is_blue_and_ice_is_pale_where_the_ground_is_below_the_plane() {
        let mut mesh = open_region(R);
        // Plane (0, 0) water 10 units above the flat ground; plane (1, 0) ice; plane (2, 0)
        // water below the ground, which shows nothing.
        mesh.planes.types[0] = PLANE_WATER;
        mesh.planes.heights[0] = F32::from(10.0);
        mesh.planes.types[1] = PLANE_ICE | PLANE_WATER;
        mesh.planes.heights[1] = F32::from(10.0);
        mesh.planes.types[2] = PLANE_WATER;
        mesh.planes.heights[2] = F32::from(-10.0);
        let picture = render(&world_of([(R, mesh)]), &scaled(4.0)).unwrap();
        let water = pixel_at(&picture, at(R, 150.0, 150.0));
        assert!(
            water.b > water.r + 60 && water.b > water.g + 30,
            "water {water:?}"
        );
        let ice = pixel_at(&picture, at(R, 470.0, 150.0));
        assert!(ice.r > 170 && ice.g > 200 && ice.b > 200, "ice {ice:?}");
        let dry = pixel_at(&picture, at(R, 790.0, 150.0));
        assert!(
            dry.g > dry.b,
            "ground above its plane is not water: {dry:?}"
        );
    }

    #[test]
    fn higher_ground_is_tinted_lighter() {
        let mut mesh = open_region(R);
        for (i, h) in mesh.heights.iter_mut().enumerate() {
            // Rising steadily to the east, so the relief shading is the same everywhere.
            *h = F32::from((i % 97) as f32 * 5.0);
        }
        let mut options = scaled(4.0);
        options.layers.cell_outlines = false;
        let picture = render(&world_of([(R, mesh)]), &options).unwrap();
        let west = pixel_at(&picture, at(R, 30.0, 1000.0));
        let east = pixel_at(&picture, at(R, 1890.0, 1000.0));
        assert!(
            west.g > west.r && west.g > west.b,
            "low ground is green: {west:?}"
        );
        assert!(
            luminance(east) > luminance(west) + 60,
            "peaks are white: {east:?}"
        );
    }
}

mod objects {
    use super::*;

    const A: RegionId = RegionId::new(10, 20);
    const B: RegionId = RegionId::new(11, 20);

    fn object(owner: RegionId, uid: u16, x: f32, z: f32) -> Object {
        Object {
            position: [F32::from(x), F32::ZERO, F32::from(z)],
            uid,
            region_id: owner.0,
            ..Object::default()
        }
    }

    /// A owns an instance straddling its east border; B lists it too, with B's local
    /// position. B also lists an instance owned by C, a region not in the world.
    fn world() -> BTreeMap<RegionId, NavMesh> {
        let mut a = open_region(A);
        let mut b = open_region(B);
        a.objects.push(object(A, 7, 1910.0, 500.0));
        b.objects.push(object(A, 7, -10.0, 500.0));
        b.objects
            .push(object(RegionId::new(12, 20), 1, 1000.0, 1000.0));
        world_of([(A, a), (B, b)])
    }

    #[test]
    fn each_instance_is_drawn_once_filled_by_its_owner_hollow_when_the_owner_is_away() {
        let picture = render(&world(), &scaled(8.0)).unwrap();
        let map = picture.map_area();
        assert_eq!(pixel_at(&picture, at(A, 1910.0, 500.0)), palette::OBJECT);
        let filled = count(&picture, map, palette::OBJECT);
        assert_eq!(
            filled, 81,
            "one 9×9 marker: the copy in B's list is not drawn again"
        );
        assert!(
            count(&picture, map, palette::OBJECT_FOREIGN) > 0,
            "C's instance is hollow"
        );

        let alone = RenderOptions {
            region: Some(B),
            ..scaled(8.0)
        };
        let b_only = render(&world(), &alone).unwrap();
        let map = b_only.map_area();
        assert_eq!(
            count(&b_only, map, palette::OBJECT),
            0,
            "A is not drawn, so no filled marker"
        );
        assert!(count(&b_only, map, palette::OBJECT_FOREIGN) > 0);
    }
}

mod options {
    use super::*;

    #[test]
    fn automatic_scale_depends_on_the_world_size() {
        let one = render(&world_of([(R, open_region(R))]), &RenderOptions::default()).unwrap();
        assert_eq!(one.scale(), 8.0);
        assert_eq!(one.map_area().width, 96 * 8);
        let meshes = (0..4).flat_map(|z| (0..4).map(move |x| RegionId::new(100 + x, 30 + z)));
        let world = world_of(meshes.map(|r| (r, NavMesh::default())));
        let four = render(&world, &RenderOptions::default()).unwrap();
        assert_eq!(four.scale(), 4.0);
        assert_eq!(four.map_area().width, 4 * 96 * 4);
    }

    #[test]
    fn big_worlds_are_shrunk_to_the_size_limit() {
        let meshes = (0..12).flat_map(|z| (0..20).map(move |x| RegionId::new(100 + x, 30 + z)));
        let world = world_of(meshes.map(|r| (r, NavMesh::default())));
        let options = RenderOptions {
            max_size: 1200,
            ..RenderOptions::default()
        };
        let picture = render(&world, &options).unwrap();
        assert!(picture.width() <= 1200 && picture.height() <= 1200);
        assert!(picture.width() > 1100, "uses the room: {}", picture.width());
        assert!(picture.scale() < 1.0);
    }

    #[test]
    fn bad_options_are_errors() {
        let world = world_of([(R, open_region(R))]);
        let other = RegionId::new(1, 2);
        let err = render(
            &world,
            &RenderOptions {
                region: Some(other),
                ..Default::default()
            },
        );
        assert!(matches!(err, Err(RenderError::RegionNotInWorld(r)) if r == other));
        assert!(matches!(
            render(&BTreeMap::new(), &Default::default()),
            Err(RenderError::NoRegions)
        ));
        for bad in [0.0, -2.0, f32::NAN] {
            assert!(matches!(
                render(&world, &scaled(bad)),
                Err(RenderError::BadScale(_))
            ));
        }
        let err = render(&world, &scaled(1000.0)).unwrap_err();
        assert!(matches!(err, RenderError::TooLarge { .. }), "{err}");
        let tiny = RenderOptions {
            max_size: 40,
            ..Default::default()
        };
        assert!(matches!(
            render(&world, &tiny),
            Err(RenderError::MaxSizeTooSmall { .. })
        ));
    }

    #[test]
    fn dungeons_are_left_off_the_world_map() {
        let dungeon = RegionId(0x8000 | 0x0102);
        let world = world_of([(R, open_region(R)), (dungeon, open_region(dungeon))]);
        let picture = render(&world, &scaled(1.0)).unwrap();
        assert_eq!(picture.map_area().width, 96, "only the terrain region");
        let alone = RenderOptions {
            region: Some(dungeon),
            ..scaled(1.0)
        };
        assert_eq!(render(&world, &alone).unwrap().map_area().width, 96);
    }

    #[test]
    fn wild_values_in_a_file_draw_without_panicking() {
        let mut mesh = blocked_square();
        mesh.heights[5] = F32::from(f32::NAN);
        mesh.heights[6] = F32::from(f32::INFINITY);
        mesh.heights[7] = F32::from(-3e38);
        mesh.tiles[0].cell_index = 0xFFFF_FFFF;
        mesh.open_cell_count = 1_000_000;
        mesh.planes.types[0] = 0xFF;
        mesh.planes.heights[0] = F32::from(f32::NAN);
        let wild = [f32::NAN, f32::INFINITY, -1e30, 1e30];
        for (i, &v) in wild.iter().enumerate() {
            mesh.internal_edges[i].a = [F32::from(v), F32::from(5.0)];
            mesh.internal_edges[i].flag = 0x02;
            mesh.global_edges.push(jmxv::nvm::GlobalEdge {
                a: [F32::from(v), F32::ZERO],
                b: [F32::from(-v), F32::from(v)],
                ..Default::default()
            });
            mesh.objects.push(Object {
                position: [F32::from(v), F32::from(v), F32::from(-v)],
                region_id: R.0,
                uid: i as u16,
                ..Object::default()
            });
        }
        let picture = render(&world_of([(R, mesh)]), &scaled(2.0)).unwrap();
        assert!(picture.width() > 192 && picture.height() > 192);
        let blocked = pixel_at(&picture, at(R, 45.0 * 20.0 + 10.0, 45.0 * 20.0 + 10.0));
        assert!(
            luminance(blocked) < 60,
            "the sane parts still draw: {blocked:?}"
        );
    }

    #[test]
    fn holes_in_the_world_are_hatched() {
        let (a, b) = (RegionId::new(50, 50), RegionId::new(51, 51));
        let world = world_of([(a, open_region(a)), (b, open_region(b))]);
        let picture = render(&world, &scaled(2.0)).unwrap();
        let hole = pixel_at(&picture, at(RegionId::new(51, 50), 960.0, 960.0));
        assert!(
            hole == palette::MISSING || hole == palette::MISSING_HATCH,
            "{hole:?}"
        );
        assert!(count(&picture, picture.legend_area().unwrap(), palette::MISSING) > 0);
    }
}

mod overlay {
    use super::*;

    #[test]
    fn paths_and_pins_are_drawn_over_the_map() {
        let world = world_of([(R, open_region(R))]);
        let overlay = Overlay {
            paths: vec![vec![
                at(R, 200.0, 200.0),
                at(R, 1000.0, 200.0),
                at(R, 1000.0, 1500.0),
            ]],
            points: vec![Pin {
                at: at(R, 1500.0, 1500.0),
                colour: Colour::YELLOW,
                label: "here".into(),
            }],
        };
        let picture = render_with_overlay(&world, &scaled(4.0), &overlay).unwrap();
        assert_eq!(
            pixel_at(&picture, at(R, 600.0, 200.0)),
            PATH_COLOURS[0],
            "on the line"
        );
        assert_eq!(pixel_at(&picture, at(R, 1000.0, 900.0)), PATH_COLOURS[0]);
        assert_eq!(
            pixel_at(&picture, at(R, 200.0, 200.0)),
            Colour::GREEN,
            "start"
        );
        assert_eq!(
            pixel_at(&picture, at(R, 1000.0, 1500.0)),
            Colour::RED,
            "goal centre"
        );
        assert_eq!(
            pixel_at(&picture, at(R, 1500.0, 1500.0)),
            Colour::YELLOW,
            "pin"
        );
        let plain = render(&world, &scaled(4.0)).unwrap();
        assert_ne!(pixel_at(&plain, at(R, 600.0, 200.0)), PATH_COLOURS[0]);
        assert!(
            picture.legend_area().unwrap().height > plain.legend_area().unwrap().height,
            "path entries"
        );
    }

    #[test]
    fn overlay_outside_the_map_is_clipped() {
        let world = world_of([(R, open_region(R))]);
        let far = [1e12, -1e12];
        let overlay = Overlay {
            paths: vec![vec![at(R, 960.0, 960.0), far], vec![], vec![far]],
            points: vec![Pin {
                at: far,
                colour: Colour::YELLOW,
                label: "far".into(),
            }],
        };
        let picture = render_with_overlay(&world, &scaled(2.0), &overlay).unwrap();
        let legend = picture.legend_area().unwrap();
        let title_row = silknav_render::Area {
            x: 0,
            y: 0,
            width: picture.width(),
            height: picture.map_area().y - 1,
        };
        assert_eq!(count(&picture, title_row, PATH_COLOURS[0]), 0);
        assert_eq!(count(&picture, legend, Colour::YELLOW), 0);
        assert_eq!(
            pixel_at(&picture, at(R, 1300.0, 620.0)),
            PATH_COLOURS[0],
            "the part on the map"
        );
    }
}

mod generated {
    use super::*;
    use silknav::worldgen::{generate, GenOptions};

    #[test]
    fn a_generated_world_renders_with_every_kind_of_mark() {
        let world = generate(&GenOptions::default()).unwrap();
        let picture = render(&world.regions, &RenderOptions::default()).unwrap();
        assert!(picture.width() <= 4096 && picture.height() <= 4096);
        let map = picture.map_area();
        assert_eq!(map.width, 2 * 96 * 8);
        assert!(count(&picture, map, palette::WALL) > 1000);
        assert!(count(&picture, map, palette::REGION_BORDER) > 500);
        assert!(count(&picture, map, palette::OBJECT) > 100);
    }
}

mod tiles {
    use super::*;
    use silknav::worldgen::{generate, GenOptions};
    use silknav_render::{Layers, RegionRect};

    /// The layers a tile shows: all but the region borders (a viewer draws those over the
    /// tiles), the title and the legend.
    fn tile_layers() -> Layers {
        Layers {
            region_borders: false,
            title: false,
            legend: false,
            ..Layers::default()
        }
    }

    #[test]
    fn tiles_of_areas_are_the_pixels_of_the_whole_map() {
        let world = generate(&GenOptions::default()).unwrap().regions;
        let range = silknav_render::tint_range(world.values());
        let options = |area| RenderOptions {
            scale: Some(2.0),
            area,
            tint_range: Some(range),
            layers: tile_layers(),
            ..RenderOptions::default()
        };
        let generated = generate(&GenOptions::default()).unwrap();
        let files = generated.into_files();
        let shapes =
            silknav_render::object_shapes(files.object_ifo.as_ref().unwrap(), &files.object_files);
        assert!(!shapes.is_empty());
        let draw = |options: &RenderOptions| {
            silknav_render::render_world(&world, &shapes, options, &Overlay::default())
        };
        let whole = draw(&options(None)).unwrap();
        let map = whole.map_area();
        let (x0, z0) = world.keys().map(|r| (r.x(), r.z())).min().unwrap();
        let mut compared = 0;
        for &r in world.keys() {
            let area = RegionRect {
                x0: r.x(),
                z0: r.z(),
                x1: r.x(),
                z1: r.z(),
            };
            let tile = draw(&options(Some(area))).unwrap();
            let png = tile.encode_map_png();
            let decoded = tiny_skia::Pixmap::decode_png(&png).expect("decodes");
            assert_eq!((decoded.width(), decoded.height()), (192, 192));
            // The tile's column 0 is the region's west edge; its row 0 the north edge.
            let left = map.x + u32::from(r.x() - x0) * 192;
            let top = map.y + map.height - u32::from(r.z() - z0 + 1) * 192;
            for y in 0..192 {
                for x in 0..192 {
                    let p = decoded.pixel(x, y).unwrap();
                    let tile_px = [p.red(), p.green(), p.blue(), p.alpha()];
                    assert_eq!(
                        Some(tile_px),
                        whole.pixel(left + x, top + y),
                        "region {r} pixel {x},{y}"
                    );
                    compared += 1;
                }
            }
        }
        assert_eq!(compared, world.len() * 192 * 192);
    }

    #[test]
    fn an_area_beyond_the_world_is_hatched_and_an_empty_one_is_an_error() {
        let world = world_of([(R, blocked_square())]);
        let area = RegionRect {
            x0: R.x(),
            z0: R.z(),
            x1: R.x() + 1,
            z1: R.z(),
        };
        let options = RenderOptions {
            scale: Some(1.0),
            area: Some(area),
            layers: tile_layers(),
            ..RenderOptions::default()
        };
        let tile = render(&world, &options).unwrap();
        assert_eq!(tile.map_area().width, 192, "the whole area, holes included");
        let east = [f64::from(R.x() + 1) * 1920.0 + 960.0, at(R, 0.0, 960.0)[1]];
        assert_ne!(pixel_at(&tile, east), pixel_at(&tile, at(R, 960.0, 100.0)));
        let nowhere = RegionRect {
            x0: 0,
            z0: 0,
            x1: 1,
            z1: 1,
        };
        let empty = RenderOptions {
            area: Some(nowhere),
            ..options
        };
        assert!(matches!(
            render(&world, &empty),
            Err(RenderError::NoRegions)
        ));
    }
}

mod dungeons {
    use super::*;
    use silknav::files::DungeonFiles;
    use silknav::worldgen::{generate, GenOptions};
    use silknav_render::{render_dungeon, DungeonFloor};

    /// The dungeon files of `gen --seed 5 --size 1x1`: the catacomb (1, three floors) and the
    /// cave (2, two floors).
    fn files() -> DungeonFiles {
        generate(&GenOptions {
            seed: 5,
            width: 1,
            height: 1,
            ..GenOptions::default()
        })
        .unwrap()
        .into_files()
        .dungeons
    }

    const CAVE: RegionId = RegionId(0x8002);

    #[test]
    fn a_floor_is_its_blocks_tinted_by_height_on_dark_ground() {
        let files = files();
        let (_, layout) = files.layout_of(CAVE).unwrap();
        let floors: std::collections::BTreeSet<u32> =
            layout.blocks.iter().map(|b| b.floor_index).collect();
        assert!(floors.len() >= 2, "{floors:?}");
        let mut drawn_per_floor = Vec::new();
        for &floor in &floors {
            let f = DungeonFloor::of(&files, CAVE, Some(floor)).unwrap();
            assert_eq!(f.floor, floor);
            assert_eq!(f.floors, floors.iter().copied().collect::<Vec<_>>());
            let on_floor = layout.blocks.iter().filter(|b| b.floor_index == floor);
            assert_eq!(f.map.blocks.len(), on_floor.count());
            let picture = render_dungeon(&f.map, &scaled(8.0), &Overlay::default()).unwrap();
            // Every block's origin (the middle of a generated block) is floor, in the tint;
            // the map's corners (40 units of margin) are the dark "no floor".
            for b in &f.map.blocks {
                let at = [b.position[0] + 3.0, b.position[2] + 3.0];
                let c = pixel_at(&picture, at);
                assert_ne!(c, palette::BLOCKED, "block at {at:?} on floor {floor}");
            }
            let [x0, z0, x1, z1] = picture.map_bounds();
            assert_eq!(pixel_at(&picture, [x0 + 5.0, z0 + 5.0]), palette::BLOCKED);
            assert_eq!(pixel_at(&picture, [x1 - 5.0, z1 - 5.0]), palette::BLOCKED);
            for p in [x0, z0, x1, z1] {
                assert_eq!(p % 20.0, 0.0, "edges on the 20-unit grid: {p}");
            }
            let map = picture.map_area();
            assert_eq!(
                f64::from(map.width),
                (x1 - x0) / 20.0 * 8.0,
                "8 pixels per tile"
            );
            let circles = count(&picture, map, palette::COLLISION);
            assert_eq!(circles > 0, !f.map.circles.is_empty(), "floor {floor}");
            drawn_per_floor.push(picture);
        }
        // The floors sit at different heights, so the same place has a different tint.
        let b = DungeonFloor::of(&files, CAVE, Some(*floors.iter().next().unwrap()))
            .unwrap()
            .map
            .blocks[0];
        let at = [b.position[0] + 3.0, b.position[2] + 3.0];
        let (low, high) = (&drawn_per_floor[0], drawn_per_floor.last().unwrap());
        assert_ne!(pixel_at(low, at), pixel_at(high, at));
    }

    #[test]
    fn the_lowest_floor_is_the_default_and_bad_choices_are_named() {
        let files = files();
        let default = DungeonFloor::of(&files, CAVE, None).unwrap();
        assert_eq!(default.floor, default.floors[0]);
        match DungeonFloor::of(&files, CAVE, Some(99)) {
            Err(e @ RenderError::NoFloor { floor: 99, .. }) => {
                assert!(e.to_string().contains("the floors: 0, 1"), "{e}");
            }
            other => panic!("{other:?}"),
        }
        match DungeonFloor::of(&files, RegionId(0x8009), None) {
            Err(e @ RenderError::NoDungeon { .. }) => {
                assert!(e.to_string().contains("dungeons: 1, 2"), "{e}");
            }
            other => panic!("{other:?}"),
        }
        let mut broken = files.clone();
        broken.meshes.clear();
        assert!(matches!(
            DungeonFloor::of(&broken, CAVE, None),
            Err(RenderError::MissingBlockFile(_))
        ));
        let empty = silknav_render::DungeonMap::default();
        assert!(matches!(
            render_dungeon(&empty, &RenderOptions::default(), &Overlay::default()),
            Err(RenderError::NoBlocks)
        ));
    }

    #[test]
    fn paths_over_a_floor_are_in_the_dungeons_coordinates() {
        let files = files();
        let f = DungeonFloor::of(&files, CAVE, None).unwrap();
        let b = f.map.blocks[0];
        let (a, z) = (
            [b.position[0], b.position[2]],
            [b.position[0] + 160.0, b.position[2]],
        );
        let overlay = Overlay {
            paths: vec![vec![a, z]],
            points: Vec::new(),
        };
        let picture = render_dungeon(&f.map, &scaled(8.0), &overlay).unwrap();
        let mid = [a[0] + 80.0, a[1]];
        assert_eq!(pixel_at(&picture, mid), PATH_COLOURS[0]);
    }
}
