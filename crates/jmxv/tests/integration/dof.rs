//! `JMXVDOF 0101` dungeons: files written by the test kit's independent writer decode to
//! exactly its values and write back byte for byte, in both block layouts, with sections in any
//! order, filler between them and trailing bytes; round trips both ways over generated files
//! and models; edited models move their sections; truncated, mutated and broken input never
//! panics and names where it stopped; counts cannot make the reader allocate beyond the input;
//! each lint code fires on the mistake it names and on nothing else; the JSON form round-trips
//! and names the path of what is wrong.
//!
//! What a parse allocates is measured with [`allocated_by`](crate::allocated_by).

use jmxv::dof::lint::{lint, CODES};
use jmxv::dof::{
    voxel_id, Block, BlockLayout, BlockObject, BoundingBox, DungeonFile, Fog, Group, Info, Labels,
    Light, Placement, SectionKind, Voxel, VoxelGrid, HEADER_LEN, OBJECT_WATER,
};
use jmxv::{Error, ErrorKind, F32};
use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::select;
use silknav_testkit::rng::SplitMix64;
use silknav_testkit::second_writer::{
    self,
    dof::{SpecBlock, SpecDungeon, SpecGroup, SpecLight, SpecObject, SpecSection},
};

fn parse(bytes: &[u8], what: &str) -> DungeonFile {
    DungeonFile::parse(bytes).unwrap_or_else(|e| panic!("{what}: {e}"))
}

fn temple() -> DungeonFile {
    parse(&second_writer::dof::temple().to_bytes(), "temple")
}

/// The first part of every section name the reader may put in an error.
const SECTION_ROOTS: [&str; 22] = [
    "signature",
    "header",
    "info",
    "boxes",
    "box0",
    "box1",
    "block_count",
    "blocks",
    "grid",
    "grid_size",
    "grid_voxel_count",
    "grid_voxels",
    "link_count",
    "links",
    "labels",
    "group_count",
    "groups",
    "labels.room_count",
    "labels.rooms",
    "labels.floor_count",
    "labels.floors",
    "info.name",
];

fn check_error(e: &Error, len: usize, what: &str) {
    crate::check_error_place(e, len, what, |section| {
        let root = section.split(['[', '.']).next().unwrap_or_default();
        SECTION_ROOTS.contains(&root)
    });
}

fn f32s<const N: usize>(values: &[F32; N]) -> [u32; N] {
    values.map(F32::to_bits)
}

/// jmxv's block in the independent writer's terms.
fn as_spec(b: &Block) -> SpecBlock {
    let bb = &b.bounding_box;
    SpecBlock {
        path: b.path.clone(),
        name: b.name.clone(),
        unknown0: b.unknown0,
        position: f32s(&b.position),
        yaw: b.yaw.to_bits(),
        is_entrance: b.is_entrance,
        bounding_box: [f32s(&bb.min), f32s(&bb.max)].concat().try_into().unwrap(),
        unknown1: b.unknown1,
        fog_colour: b.fog.colour,
        fog: f32s(&[b.fog.near, b.fog.far, b.fog.intensity]),
        height_fog: b.fog.height.as_ref().map(f32s),
        extra: b.extra.map(|e| {
            (
                [f32s(&e.vector0), f32s(&e.vector1)]
                    .concat()
                    .try_into()
                    .unwrap(),
                e.value,
            )
        }),
        unknown_string: b.unknown_string.clone(),
        room: b.room_index,
        floor: b.floor_index,
        connected: b.connected.clone(),
        visible: b.visible.clone(),
        collision_count: b.collision_object_count,
        objects: b
            .objects
            .iter()
            .map(|o| {
                assert_eq!(o.water_colour.is_some(), o.flag & OBJECT_WATER != 0);
                SpecObject {
                    name: o.name.clone(),
                    path: o.path.clone(),
                    transform: [f32s(&o.position), f32s(&o.rotation), f32s(&o.scale)]
                        .concat()
                        .try_into()
                        .unwrap(),
                    flag: o.flag,
                    unknown: o.unknown,
                    radius_squared: o.radius_squared.to_bits(),
                    water_colour: o.water_colour.unwrap_or(0),
                }
            })
            .collect(),
        lights: b
            .lights
            .iter()
            .map(|l| SpecLight {
                name: l.name.clone(),
                floats: [
                    f32s(&l.position),
                    f32s(&l.diffuse),
                    f32s(&l.ambient),
                    f32s(&l.specular),
                    f32s(&l.attenuation),
                ]
                .concat()
                .try_into()
                .unwrap(),
            })
            .collect(),
    }
}

/// The independent writer's blocks with what it does not write zeroed: the water colour of
/// objects without the water bit.
fn written_blocks(spec: &SpecDungeon) -> Vec<SpecBlock> {
    let mut blocks = spec.blocks.clone();
    for o in blocks.iter_mut().flat_map(|b| b.objects.iter_mut()) {
        if o.flag & 4 == 0 {
            o.water_colour = 0;
        }
    }
    blocks
}

fn kind(s: SpecSection) -> SectionKind {
    match s {
        SpecSection::Boxes => SectionKind::Boxes,
        SpecSection::Blocks => SectionKind::Blocks,
        SpecSection::Grid => SectionKind::Grid,
        SpecSection::Links => SectionKind::Links,
        SpecSection::Labels => SectionKind::Labels,
        SpecSection::Groups => SectionKind::Groups,
    }
}

mod independent {
    use super::*;

    /// jmxv's model holds exactly what the independent writer wrote, where it wrote it.
    pub(super) fn check(spec: &SpecDungeon, what: &str) -> DungeonFile {
        let (bytes, layout) = spec.to_bytes_with_layout();
        let d = parse(&bytes, what);
        assert!(d.to_vec().unwrap() == bytes, "{what}: byte-identical write");
        assert_eq!(d.encoded_len(), bytes.len(), "{what}");
        assert_eq!(d.offsets().unwrap(), layout.offsets, "{what}: the header");
        let i = &d.info;
        assert_eq!(
            (i.object_type, i.category, &i.name),
            (spec.info.object_type, spec.info.category, &spec.info.name),
            "{what}"
        );
        assert_eq!([i.unknown0, i.unknown1], spec.info.unknown, "{what}");
        assert_eq!(i.region_id, spec.info.region_id, "{what}");
        assert_eq!(d.reserved_offsets, spec.reserved_offsets, "{what}");
        for (b, spec_box) in [d.box0, d.box1].iter().zip(spec.boxes) {
            assert_eq!([f32s(&b.min), f32s(&b.max)].concat(), spec_box, "{what}");
        }
        let layout_expected = if spec.legacy {
            BlockLayout::Legacy
        } else {
            BlockLayout::Standard
        };
        assert_eq!(d.block_layout, layout_expected, "{what}");
        let blocks: Vec<SpecBlock> = d.blocks.iter().map(as_spec).collect();
        assert_eq!(blocks, written_blocks(spec), "{what}: blocks");
        assert_eq!(d.grid.size, spec.grid_size, "{what}");
        let voxels: Vec<(u32, Vec<u32>)> = d
            .grid
            .voxels
            .iter()
            .map(|v| (v.id, v.blocks.clone()))
            .collect();
        assert_eq!(voxels, spec.voxels, "{what}: voxels");
        assert_eq!(d.links, spec.links, "{what}: links");
        assert_eq!(
            d.labels
                .as_ref()
                .map(|l| (l.rooms.clone(), l.floors.clone())),
            spec.labels,
            "{what}: labels"
        );
        let groups: Vec<SpecGroup> = d
            .groups
            .iter()
            .map(|g| SpecGroup {
                name: g.name.clone(),
                flag: g.flag,
                blocks: g.blocks.clone(),
            })
            .collect();
        assert_eq!(groups, spec.groups, "{what}: groups");
        let written: Vec<(SectionKind, Vec<u8>)> = spec
            .sections
            .iter()
            .filter(|(s, _)| *s != SpecSection::Labels || spec.labels.is_some())
            .map(|(s, filler)| (kind(*s), filler.clone()))
            .collect();
        let order: Vec<(SectionKind, Vec<u8>)> = d
            .order
            .iter()
            .map(|p| (p.section, p.gap_before.clone()))
            .collect();
        assert_eq!(order, written, "{what}: order and gaps");
        assert_eq!(d.trailing, spec.trailing, "{what}: trailing");
        // The model's placement is the writer's.
        let starts: Vec<(SectionKind, usize)> = layout
            .sections
            .iter()
            .map(|&(s, start, _)| (kind(s), start))
            .collect();
        for (section, start) in starts {
            let offset = d.offsets().unwrap()[section.offset_index()];
            assert_eq!(offset as usize, start, "{what}: {section:?}");
        }
        d
    }

    #[test]
    fn realistic_dungeons_decode_exactly() {
        for (what, spec) in second_writer::dof::dungeons() {
            let d = check(&spec, what);
            let codes: Vec<&str> = lint(&d).iter().map(|f| f.code).collect();
            let expected: &[&str] = match what {
                "temple" => &[],
                "legacy_cave" => &["D019"],
                // Both reserved offsets, three fillers and the trailing bytes.
                _ => &["D017", "D017", "D018", "D018", "D018", "D018"],
            };
            assert_eq!(codes, expected, "{what}: {:#?}", lint(&d));
        }
    }

    #[test]
    fn the_temple_has_its_parts() {
        let d = temple();
        assert_eq!(d.blocks.len(), 4);
        let hall = &d.blocks[0];
        assert_eq!(hall.is_entrance, 1);
        assert_eq!(
            hall.fog.height,
            Some([1.0, 50.0, 0.5, 200.0].map(F32::from))
        );
        assert_eq!(hall.objects[1].radius_squared.get(), 625.0);
        assert_eq!(hall.collision_object_count, 1);
        let corridor = &d.blocks[1];
        assert_eq!(corridor.extra.map(|e| e.value), Some(7));
        assert_eq!(d.blocks[2].room_index, -1);
        let chamber = &d.blocks[3];
        assert_eq!(chamber.name, [0xB9, 0xE6], "CP949 kept as bytes");
        assert_eq!(chamber.objects[0].water_colour, Some(0xFF30_60A0));
        assert_eq!(chamber.lights[0].attenuation[0].get(), 1.0);
        let labels = d.labels.as_ref().expect("labels");
        assert_eq!(labels.floors, [b"B1".to_vec(), b"B2".to_vec()]);
        assert_eq!(d.grid.size, [8, 2, 4]);
        // The stair's upper voxel: x 4, y 1, z 1.
        assert_eq!(d.grid.voxels[7].coordinates(), [4, 1, 1]);
        assert_eq!(d.grid.voxels[7].blocks, [2, 3]);
        assert_eq!(d.info.region_id, 0x8010);
        assert_eq!(d.box0.min.map(F32::get), [-400.0, -100.0, -400.0]);
    }

    #[test]
    fn the_legacy_cave_has_one_flag_byte_per_block() {
        let spec = second_writer::dof::legacy_cave();
        let d = check(&spec, "cave");
        assert_eq!(d.block_layout, BlockLayout::Legacy);
        assert!(d.labels.is_none());
        assert_eq!(d.offsets().unwrap()[4], 0, "no labels: label offset 0");
        assert_eq!(d.blocks[1].extra.map(|e| e.value), Some(0xAB));
        // The same blocks in the standard layout take one byte more each.
        let mut standard = spec.clone();
        standard.legacy = false;
        let (a, b) = (spec.to_bytes(), standard.to_bytes());
        assert_eq!(b.len(), a.len() + 2);
        let s = check(&standard, "cave, standard");
        assert_eq!(s.blocks, d.blocks);
    }

    #[test]
    fn sections_in_any_order_with_filler_and_trailing_bytes() {
        let d = check(&second_writer::dof::shuffled_temple(), "shuffled");
        let order: Vec<SectionKind> = d.order.iter().map(|p| p.section).collect();
        assert_eq!(
            order,
            [
                SectionKind::Groups,
                SectionKind::Grid,
                SectionKind::Labels,
                SectionKind::Blocks,
                SectionKind::Boxes,
                SectionKind::Links,
            ]
        );
        assert_eq!(d.order[0].gap_before, [0xEE; 3]);
        assert_eq!(d.reserved_offsets, [7, 0xFFFF_FFFF]);
        // The same sections as the temple's, wherever they lie.
        let t = temple();
        assert_eq!(
            (&d.blocks, &d.grid, &d.links, &d.labels, &d.groups),
            (&t.blocks, &t.grid, &t.links, &t.labels, &t.groups)
        );
    }

    #[test]
    fn odd_values_decode_exactly() {
        let mut legacy = 0;
        for seed in 0..300 {
            let spec = second_writer::dof::odd(seed);
            legacy += usize::from(spec.legacy);
            check(&spec, &format!("odd({seed})"));
        }
        assert!(legacy > 50, "{legacy} legacy files");
    }

    #[test]
    fn odd_floats_keep_their_bits() {
        let mut spec = second_writer::dof::temple();
        let odd = second_writer::ODD_FLOATS;
        spec.blocks[0].position = [odd[0], odd[1], odd[2]];
        spec.blocks[1].yaw = odd[2];
        spec.blocks[2].objects = vec![SpecObject {
            name: Vec::new(),
            path: b"x".to_vec(),
            transform: [odd[3], odd[4], odd[5], 0x8000_0000, 0, 0, 0, 0, 0],
            flag: 2,
            unknown: 0,
            radius_squared: odd[0],
            water_colour: 0,
        }];
        spec.boxes[1] = [odd[0], odd[1], odd[2], odd[3], odd[4], odd[5]];
        let d = check(&spec, "odd floats");
        assert_eq!(d.blocks[0].position[0].to_bits(), 0x7fc0_0001);
        assert_eq!(d.blocks[1].yaw, F32::from(-0.0));
    }
}

mod roundtrip {
    use super::*;

    const ODD_BITS: [u32; 6] = second_writer::ODD_FLOATS;

    fn float() -> impl Strategy<Value = F32> {
        prop_oneof![select(ODD_BITS.to_vec()), any::<u32>()].prop_map(F32::from_bits)
    }

    fn f3() -> impl Strategy<Value = [F32; 3]> {
        proptest::array::uniform3(float())
    }

    fn bytes(max: usize) -> impl Strategy<Value = Vec<u8>> {
        vec(any::<u8>(), 0..max)
    }

    fn indices() -> impl Strategy<Value = Vec<u32>> {
        vec(prop_oneof![0..6u32, any::<u32>()], 0..4)
    }

    fn bounding_box() -> impl Strategy<Value = BoundingBox> {
        (f3(), f3()).prop_map(|(min, max)| BoundingBox { min, max })
    }

    fn object() -> impl Strategy<Value = BlockObject> {
        (
            (bytes(6), bytes(8)),
            (f3(), f3(), f3()),
            prop_oneof![Just(0u32), Just(2), Just(4), any::<u32>()],
            any::<u32>(),
            float(),
            any::<u32>(),
        )
            .prop_map(
                |((name, path), (position, rotation, scale), flag, unknown, r2, colour)| {
                    BlockObject {
                        name,
                        path,
                        position,
                        rotation,
                        scale,
                        flag,
                        unknown,
                        radius_squared: r2,
                        water_colour: (flag & OBJECT_WATER != 0).then_some(colour),
                    }
                },
            )
    }

    fn light() -> impl Strategy<Value = Light> {
        (bytes(6), f3(), f3(), f3(), f3(), f3()).prop_map(
            |(name, position, diffuse, ambient, specular, attenuation)| Light {
                name,
                position,
                diffuse,
                ambient,
                specular,
                attenuation,
            },
        )
    }

    fn block(legacy: bool) -> impl Strategy<Value = Block> {
        let height = if legacy {
            Just(None).boxed()
        } else {
            proptest::option::of(proptest::array::uniform4(float())).boxed()
        };
        (
            (
                bytes(10),
                bytes(6),
                any::<u32>(),
                f3(),
                float(),
                any::<u32>(),
            ),
            (bounding_box(), any::<u32>(), any::<u32>(), f3(), height),
            proptest::option::of((f3(), f3(), any::<u32>())),
            (bytes(4), any::<i32>(), any::<u32>(), indices(), indices()),
            (any::<u32>(), vec(object(), 0..3), vec(light(), 0..3)),
        )
            .prop_map(
                |(
                    (path, name, unknown0, position, yaw, is_entrance),
                    (bounding_box, unknown1, colour, fog, height),
                    extra,
                    (unknown_string, room_index, floor_index, connected, visible),
                    (collision_object_count, objects, lights),
                )| Block {
                    path,
                    name,
                    unknown0,
                    position,
                    yaw,
                    is_entrance,
                    bounding_box,
                    unknown1,
                    fog: Fog {
                        colour,
                        near: fog[0],
                        far: fog[1],
                        intensity: fog[2],
                        height,
                    },
                    extra: extra.map(|(vector0, vector1, value)| jmxv::dof::BlockExtra {
                        vector0,
                        vector1,
                        value,
                    }),
                    unknown_string,
                    room_index,
                    floor_index,
                    connected,
                    visible,
                    collision_object_count,
                    objects,
                    lights,
                },
            )
    }

    /// Models with odd values in both layouts, sections in any order with unclaimed bytes
    /// between them (none right after legacy blocks, which the layout forbids).
    pub(super) fn model() -> impl Strategy<Value = DungeonFile> {
        any::<bool>().prop_flat_map(|legacy| {
            (
                (
                    any::<(i16, i16)>(),
                    bytes(8),
                    any::<(u32, u32, u16)>(),
                    any::<[u32; 2]>(),
                ),
                (bounding_box(), bounding_box()),
                vec(block(legacy), 0..3),
                (
                    any::<[u32; 3]>(),
                    vec((any::<u32>(), indices()), 0..4),
                    vec(indices(), 0..4),
                ),
                proptest::option::of((vec(bytes(5), 0..3), vec(bytes(5), 0..3))),
                vec((bytes(5), any::<u32>(), indices()), 0..3),
                Just(SectionKind::ALL.to_vec()).prop_shuffle(),
                (vec(bytes(4), 6), bytes(5)),
            )
                .prop_map(
                    move |(
                        (types, name, (u0, u1, region), reserved),
                        (box0, box1),
                        blocks,
                        (size, voxels, links),
                        labels,
                        groups,
                        sections,
                        (gaps, trailing),
                    )| {
                        let labels = labels.map(|(rooms, floors)| Labels { rooms, floors });
                        let order = sections
                            .into_iter()
                            .filter(|&s| s != SectionKind::Labels || labels.is_some())
                            .zip(gaps)
                            .map(|(section, gap_before)| Placement {
                                section,
                                gap_before,
                            })
                            .collect();
                        let mut d = DungeonFile {
                            info: Info {
                                object_type: types.0,
                                category: types.1,
                                name,
                                unknown0: u0,
                                unknown1: u1,
                                region_id: region,
                            },
                            reserved_offsets: reserved,
                            box0,
                            box1,
                            block_layout: if legacy {
                                BlockLayout::Legacy
                            } else {
                                BlockLayout::Standard
                            },
                            blocks,
                            grid: VoxelGrid {
                                size,
                                voxels: voxels
                                    .into_iter()
                                    .map(|(id, blocks)| Voxel { id, blocks })
                                    .collect(),
                            },
                            links,
                            labels,
                            groups: groups
                                .into_iter()
                                .map(|(name, flag, blocks)| Group { name, flag, blocks })
                                .collect(),
                            order,
                            trailing,
                        };
                        if legacy {
                            clear_after_blocks(&mut d);
                        }
                        d
                    },
                )
        })
    }

    /// Removes the unclaimed bytes right after the block section.
    fn clear_after_blocks(d: &mut DungeonFile) {
        let k = d
            .order
            .iter()
            .position(|p| p.section == SectionKind::Blocks)
            .expect("placed");
        match d.order.get_mut(k + 1) {
            Some(next) => next.gap_before.clear(),
            None => d.trailing.clear(),
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        #[test]
        fn model_bytes_model(d in model()) {
            let bytes = match d.to_vec() {
                Ok(bytes) => bytes,
                Err(e) => {
                    // Only blocks that would read back in the other layout are refused.
                    prop_assert_eq!(e.section(), "blocks", "{}", e);
                    return Ok(());
                }
            };
            crate::reads_back_as_written(&d, bytes)?;
        }

        #[test]
        fn bytes_model_bytes(seed in any::<u64>()) {
            crate::writes_back::<DungeonFile>(&second_writer::dof::odd(seed).to_bytes())?;
        }
    }

    #[test]
    fn default_writes_and_lints_clean() {
        let d = DungeonFile::default();
        let bytes = d.to_vec().unwrap();
        assert_eq!(&bytes[..12], b"JMXVDOF 0101");
        assert_eq!(parse(&bytes, "default"), d);
        assert_eq!(lint(&d), vec![]);
        // Header, info with "Noname", boxes, and four empty sections.
        assert_eq!(bytes.len(), HEADER_LEN + 18 + 6 + 48 + 4 + 16 + 4 + 4);
    }

    #[test]
    fn edits_move_the_sections_after_them() {
        let spec = second_writer::dof::shuffled_temple();
        let mut d = parse(&spec.to_bytes(), "shuffled");
        let before = d.offsets().unwrap();
        d.blocks[0].lights.push(Light {
            name: b"new".to_vec(),
            ..Light::default()
        });
        d.labels.as_mut().unwrap().rooms[0].truncate(4);
        let after = d.offsets().unwrap();
        let grown = 4 + 3 + 60;
        let shrunk = "Hall of Entry".len() - 4;
        // Groups and grid come before the labels; blocks after them; boxes and links after
        // the blocks.
        for (section, shift) in [
            (SectionKind::Groups, 0),
            (SectionKind::Grid, 0),
            (SectionKind::Labels, 0),
            (SectionKind::Blocks, -(shrunk as i64)),
            (SectionKind::Boxes, grown as i64 - shrunk as i64),
            (SectionKind::Links, grown as i64 - shrunk as i64),
        ] {
            let i = section.offset_index();
            assert_eq!(
                i64::from(after[i]) - i64::from(before[i]),
                shift,
                "{section:?}"
            );
        }
        assert_eq!(after[5..7], [7, 0xFFFF_FFFF], "the reserved offsets stay");
        let bytes = d.to_vec().unwrap();
        let back = parse(&bytes, "edited");
        assert_eq!(back, d);
        assert_eq!(back.order[0].gap_before, [0xEE; 3], "unclaimed bytes kept");
        assert_eq!(back.trailing, spec.trailing);
    }

    #[test]
    fn the_writer_refuses_what_would_not_read_back() {
        let d = temple();
        let refused = |m: &DungeonFile| {
            let e = m.to_vec().expect_err("refused");
            assert_eq!(m.check_writable().unwrap_err(), e);
            e.to_string()
        };

        let mut m = d.clone();
        m.order.remove(1);
        assert_eq!(refused(&m), "order: the blocks section is not placed");

        let mut m = d.clone();
        m.order.push(Placement::new(SectionKind::Grid));
        assert_eq!(
            refused(&m),
            "order[6].section: the grid section is placed twice (first at order[2])"
        );

        let mut m = d.clone();
        m.labels = None;
        assert_eq!(
            refused(&m),
            "order[4].section: the labels section is placed, but the dungeon has no labels"
        );
        m.order.remove(4);
        m.labels = Some(Labels::default());
        assert_eq!(
            refused(&m),
            "labels: the dungeon has labels, but order does not place the labels section"
        );

        let mut m = d.clone();
        m.blocks[3].objects[0].water_colour = None;
        assert!(refused(&m)
            .starts_with("blocks[3].objects[0].water_colour: flag 0x4 has the water bit (0x4)"));
        let mut m = d.clone();
        m.blocks[0].objects[0].water_colour = Some(1);
        assert!(refused(&m)
            .starts_with("blocks[0].objects[0].water_colour: flag 0x0 has no water bit (0x4)"));

        let mut m = d.clone();
        m.block_layout = BlockLayout::Legacy;
        assert!(refused(&m).starts_with("blocks[0].fog.height: the legacy block layout"));
        m.blocks[0].fog.height = None;
        m.order[2].gap_before = vec![0];
        assert!(refused(&m).starts_with("order[2].gap_before: the legacy block layout"));
        m.order[2].gap_before.clear();
        m.order.swap(1, 5);
        m.trailing = vec![1];
        assert!(refused(&m).starts_with("trailing: the legacy block layout"));
        m.trailing.clear();
        let bytes = m.to_vec().expect("legacy, blocks last, nothing after them");
        assert_eq!(parse(&bytes, "legacy temple"), m);

        let m = DungeonFile {
            block_layout: BlockLayout::Legacy,
            ..DungeonFile::default()
        };
        assert_eq!(
            refused(&m),
            "blocks: without blocks the two layouts are the same bytes, which read back as the \
             standard layout"
        );

        let mut m = d.clone();
        m.blocks[0].fog.height = None;
        m.block_layout = BlockLayout::Legacy;
        assert!(m.write_to(Vec::new()).is_ok());
        m.blocks[0].fog.height = Some([F32::ZERO; 4]);
        let err = m.write_to(Vec::new()).expect_err("refused");
        assert_eq!(err.kind(), std::io::ErrorKind::InvalidInput);
        let mut out = Vec::new();
        d.write_to(&mut out).unwrap();
        assert_eq!(out, d.to_vec().unwrap());
        assert_eq!(DungeonFile::read_from(out.as_slice()).unwrap(), d);
    }

    /// A legacy block whose bytes also read as one standard block ending at the same place:
    /// the standard reading sees the extra byte 2 (the legacy string's length) and a group
    /// that covers the legacy fields, then a 256-byte string that covers the light's name, and
    /// takes its last seven words, all 0, from the light's floats.
    fn ambiguous_block() -> Block {
        Block {
            path: b"dungeon\\x.bsr".to_vec(),
            unknown_string: vec![0x41, 0x42],
            collision_object_count: 0,
            lights: vec![Light {
                name: vec![b'n'; 219],
                ..Light::default()
            }],
            ..Block::default()
        }
    }

    #[test]
    fn blocks_that_read_in_both_layouts_are_standard() {
        let mut m = DungeonFile {
            block_layout: BlockLayout::Legacy,
            blocks: vec![ambiguous_block()],
            links: vec![Vec::new()],
            ..DungeonFile::default()
        };
        let e = m.to_vec().expect_err("ambiguous");
        assert_eq!(e.section(), "blocks");
        assert!(
            e.to_string()
                .contains("legacy blocks would read back as standard ones"),
            "{e}"
        );
        // The same bytes from the independent writer read as standard blocks, and still
        // write back as they were.
        let mut spec = second_writer::dof::legacy_cave();
        let b = as_spec(&m.blocks[0]);
        spec.blocks = vec![b];
        spec.links = vec![Vec::new()];
        let bytes = spec.to_bytes();
        let d = parse(&bytes, "ambiguous");
        assert_eq!(d.block_layout, BlockLayout::Standard);
        assert!(d.blocks[0].extra.is_some());
        assert_eq!(d.blocks[0].unknown_string.len(), 256);
        assert!(d.to_vec().unwrap() == bytes);
        // Unclaimed bytes after them would make the legacy blocks unrecognisable anyway.
        m.order[2].gap_before = vec![0];
        assert_eq!(
            m.to_vec().unwrap_err().section(),
            "order[2].gap_before",
            "no unclaimed bytes after legacy blocks"
        );
    }

    #[test]
    fn standard_blocks_before_unclaimed_bytes_that_read_as_legacy_are_refused() {
        // The ambiguous block with a longer, zeroed light name: the standard reading of its
        // bytes still ends 318 bytes after the fog, the legacy reading 100 bytes later.
        let mut block = ambiguous_block();
        block.lights[0].name = vec![0; 319];
        let legacy = DungeonFile {
            block_layout: BlockLayout::Legacy,
            blocks: vec![block.clone()],
            links: vec![Vec::new()],
            ..DungeonFile::default()
        };
        let bytes = legacy.to_vec().expect("reads back as legacy");
        assert_eq!(parse(&bytes, "legacy").block_layout, BlockLayout::Legacy);
        // The same bytes as a standard block and 100 unclaimed bytes before the grid.
        let blocks_at = legacy.offsets().unwrap()[SectionKind::Blocks.offset_index()] as usize;
        let p = blocks_at + 4 + 4 + block.path.len() + 4 + 68;
        let f = |at: usize| F32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
        let mut standard = legacy.clone();
        standard.block_layout = BlockLayout::Standard;
        standard.blocks[0] = Block {
            path: block.path.clone(),
            extra: Some(jmxv::dof::BlockExtra {
                vector0: [f(p + 2), f(p + 6), f(p + 10)],
                vector1: [f(p + 14), f(p + 18), f(p + 22)],
                value: u32::from_le_bytes(bytes[p + 26..p + 30].try_into().unwrap()),
            }),
            unknown_string: bytes[p + 34..p + 290].to_vec(),
            ..Block::default()
        };
        assert_eq!(standard.order[2].section, SectionKind::Grid);
        standard.order[2].gap_before = bytes[p + 318..p + 418].to_vec();
        assert_eq!(standard.encoded_len(), bytes.len());
        let e = standard.to_vec().expect_err("would read back as legacy");
        assert_eq!(
            e.to_string(),
            "blocks: these standard blocks would read back as legacy ones: their records also \
             end where the next section starts in that layout"
        );
        // Without the unclaimed bytes they are simply standard blocks.
        standard.order[2].gap_before.clear();
        let bytes = standard.to_vec().unwrap();
        assert_eq!(parse(&bytes, "standard"), standard);
    }
}

mod robustness {
    use super::*;

    fn files() -> Vec<(String, Vec<u8>)> {
        let mut files: Vec<(String, Vec<u8>)> = second_writer::dof::dungeons()
            .into_iter()
            .map(|(what, spec)| (what.to_owned(), spec.to_bytes()))
            .collect();
        for seed in [1, 7, 42] {
            files.push((
                format!("odd({seed})"),
                second_writer::dof::odd(seed).to_bytes(),
            ));
        }
        files
    }

    #[test]
    fn truncation_at_every_offset() {
        let mut errors = 0;
        for (what, bytes) in files() {
            let parsed = parse(&bytes, &what);
            let claimed = bytes.len() - parsed.trailing.len();
            for len in 0..bytes.len() {
                let cut = &bytes[..len];
                match crate::parse_and_write_back::<DungeonFile>(
                    cut,
                    &format!("{what} cut at {len}"),
                ) {
                    Ok(_) => {
                        assert!(
                            len >= claimed,
                            "{what}: a cut at {len} inside the sections parsed"
                        );
                    }
                    Err(e) => {
                        check_error(&e, len, &what);
                        errors += 1;
                    }
                }
            }
        }
        assert!(errors > 3000, "{errors} cuts failed");
    }

    #[test]
    fn the_section_of_a_cut_is_named() {
        let (bytes, layout) = second_writer::dof::temple().to_bytes_with_layout();
        let section = |len: usize| {
            DungeonFile::parse(&bytes[..len])
                .expect_err("a cut")
                .section()
                .to_owned()
        };
        assert_eq!(section(5), "signature");
        assert_eq!(section(20), "header");
        assert_eq!(section(HEADER_LEN + 3), "info");
        assert_eq!(section(HEADER_LEN + 9), "info.name");
        // Every section lies before the end: a cut before the groups names their offset.
        let groups = layout.offsets[3] as usize;
        assert_eq!(section(groups - 1), "header.group_offset");
        assert_eq!(section(groups + 2), "group_count");
        // Inside the last group's block list.
        assert_eq!(section(bytes.len() - 1), "groups[1].blocks");
        // With the blocks last, a cut inside the chamber's light names the light's field:
        // the standard reading gets there, the legacy one stops at the hall's height-fog byte.
        let mut spec = second_writer::dof::temple();
        let blocks = spec.sections.remove(1);
        spec.sections.push(blocks);
        let (bytes, layout) = spec.to_bytes_with_layout();
        let name_at = layout
            .counts
            .iter()
            .find(|(what, _)| what == "blocks[3].lights[0].name")
            .map(|c| c.1)
            .unwrap();
        // The name, four floats of three, and two bytes of the attenuation: enough for the
        // light count's check (64 bytes), not for the light.
        let attenuation_at = name_at + 4 + b"chamber_light".len() + 48;
        let e = DungeonFile::parse(&bytes[..attenuation_at + 2]).unwrap_err();
        assert_eq!(e.section(), "blocks[3].lights[0].attenuation", "{e}");
        assert_eq!(e.offset(), attenuation_at, "{e}");
    }

    /// Overwrites the u32 at `at` with `value`.
    fn with_u32(bytes: &[u8], at: usize, value: u32) -> Vec<u8> {
        let mut out = bytes.to_vec();
        out[at..at + 4].copy_from_slice(&value.to_le_bytes());
        out
    }

    #[test]
    fn oversized_counts_fail_before_allocating() {
        let mut checked = 0;
        for (what, spec) in second_writer::dof::dungeons() {
            let (bytes, layout) = spec.to_bytes_with_layout();
            for (field, at) in &layout.counts {
                for count in [u32::MAX, 1 << 24] {
                    let broken = with_u32(&bytes, *at, count);
                    let e = crate::oversized_count_error::<DungeonFile>(
                        &broken,
                        &format!("{what} {field}"),
                    );
                    if spec.legacy && field.starts_with("blocks[") {
                        // Neither layout reads these blocks; the error is the one found
                        // further in, which may be the standard reading's.
                        assert!(e.section().starts_with("blocks["), "{what}: {e}");
                    } else {
                        assert_eq!(e.section(), field, "{what}: {e}");
                        assert_eq!(e.offset(), at + 4, "{what}: {e}");
                        assert!(
                            matches!(e.kind(), ErrorKind::CountTooLarge { count: c, .. } if *c == u64::from(count)),
                            "{what}: {e}"
                        );
                    }
                    checked += 1;
                }
            }
        }
        assert!(checked > 150, "{checked} counts");
    }

    #[test]
    fn allocation_is_bounded_by_the_input() {
        // The worst cases per input byte: empty lists and names (4 bytes on disk, a 24-byte
        // vector in the model), voxels without blocks, blocks without anything.
        let n = 20_000;
        let d = DungeonFile {
            blocks: vec![Block::default(); n / 10],
            grid: VoxelGrid {
                size: [1, 1, 1],
                voxels: vec![Voxel::default(); n],
            },
            links: vec![Vec::new(); n],
            labels: Some(Labels {
                rooms: vec![Vec::new(); n],
                floors: vec![Vec::new(); n],
            }),
            groups: vec![Group::default(); n],
            order: SectionKind::ALL.map(Placement::new).to_vec(),
            ..DungeonFile::default()
        };
        let bytes = d.to_vec().unwrap();
        let allocated = crate::allocation_within::<DungeonFile>(&bytes, 7);
        // And it is the records that cost, not a copy per byte: well above one copy.
        assert!(allocated > 2 * bytes.len(), "{allocated}");
    }

    #[test]
    fn bad_headers_and_offsets_name_the_offset() {
        let (bytes, layout) = second_writer::dof::temple().to_bytes_with_layout();
        let e = DungeonFile::parse(&[b"JMXVBMS 0110", &bytes[12..]].concat()).unwrap_err();
        assert!(matches!(e.kind(), ErrorKind::BadSignature { .. }), "{e}");
        assert_eq!((e.offset(), e.section()), (0, "signature"));
        let e = DungeonFile::parse(&[b"JMXVDOF 0102", &bytes[12..]].concat()).unwrap_err();
        assert!(matches!(e.kind(), ErrorKind::Invalid { .. }), "{e}");
        assert_eq!(e.section(), "signature");

        let refused = |at: usize, value: u32| {
            let e = DungeonFile::parse(&with_u32(&bytes, at, value)).unwrap_err();
            (e.offset(), e.section().to_owned(), e.to_string())
        };
        // Inside the header.
        let (offset, section, text) = refused(0x0C, 0);
        assert_eq!((offset, section.as_str()), (0x0C, "header.block_offset"));
        assert!(
            text.ends_with("expected an offset of at least 44, the end of the header, found 0"),
            "{text}"
        );
        let (_, section, text) = refused(0x1C, 43);
        assert_eq!(section, "header.label_offset");
        assert!(
            text.contains("0 (no labels) or an offset of at least 44"),
            "{text}"
        );
        // Inside the info.
        let (offset, section, text) = refused(0x28, HEADER_LEN as u32);
        assert_eq!((offset, section.as_str()), (0x28, "header.box_offset"));
        assert!(
            text.contains(&format!(
                "at least {}, where the info ends",
                layout.info_end
            )),
            "{text}"
        );
        // Past the end.
        let (_, section, text) = refused(0x14, bytes.len() as u32 + 1);
        assert_eq!(section, "header.grid_offset");
        assert!(
            text.contains(&format!("inside the file ({} bytes)", bytes.len())),
            "{text}"
        );
        // At the very end: the section is cut at its first count.
        let (offset, section, _) = refused(0x14, bytes.len() as u32);
        assert_eq!((offset, section.as_str()), (bytes.len(), "grid_size"));
        // Shared with another section.
        let (offset, section, text) = refused(0x10, layout.offsets[2]);
        assert_eq!((offset, section.as_str()), (0x10, "header.link_offset"));
        assert!(text.contains("not the grid section's"), "{text}");
        // A section that runs into the next: the links moved 4 bytes into the grid.
        let grid = layout.offsets[2];
        let (offset, section, text) = refused(0x10, grid + 4);
        assert_eq!((offset, section.as_str()), (grid as usize + 4, "grid"));
        assert!(text.contains("where the links section starts"), "{text}");
        // The grid moved 8 bytes into the blocks: the blocks run into it in either layout.
        let blocks = layout.offsets[0];
        let (offset, section, text) = refused(0x14, blocks + 8);
        assert_eq!((offset, section.as_str()), (blocks as usize + 8, "blocks"));
        assert!(text.contains("where the grid section starts"), "{text}");
    }

    #[test]
    fn a_broken_legacy_file_reports_where_the_legacy_reading_stopped() {
        // The standard reading of the cave's blocks stops early, at the first block's unknown
        // string (its length then comes from the wrong bytes); the legacy reading gets to the
        // broken count, and its error is the one reported.
        let (bytes, layout) = second_writer::dof::legacy_cave().to_bytes_with_layout();
        let at = layout
            .counts
            .iter()
            .find(|(what, _)| what == "blocks[1].lights")
            .map(|c| c.1)
            .unwrap();
        let e = DungeonFile::parse(&with_u32(&bytes, at, 1000)).unwrap_err();
        assert_eq!(
            (e.offset(), e.section()),
            (at + 4, "blocks[1].lights"),
            "{e}"
        );
        assert!(
            matches!(e.kind(), ErrorKind::CountTooLarge { count: 1000, .. }),
            "{e}"
        );
    }

    #[test]
    fn flag_bytes_other_than_0_1_2_are_refused_at_the_byte() {
        let spec = second_writer::dof::temple();
        let (bytes, layout) = spec.to_bytes_with_layout();
        // The hall's height-fog byte is the byte after its fog: 76 bytes and two strings into
        // the block.
        let (_, path_at) = layout
            .counts
            .iter()
            .find(|(w, _)| w == "blocks[0].path")
            .cloned()
            .unwrap();
        let hall = &spec.blocks[0];
        let flag_at = path_at + 4 + hall.path.len() + 4 + hall.name.len() + 68;
        assert_eq!(bytes[flag_at], 1);
        let mut broken = bytes.clone();
        broken[flag_at] = 3;
        let e = DungeonFile::parse(&broken).unwrap_err();
        assert_eq!((e.offset(), e.section()), (flag_at, "blocks[0].fog.height"));
        assert!(
            e.to_string()
                .ends_with("expected 0 (no height fog) or 1 (height fog follows), found 3"),
            "{e}"
        );
        // The extra byte comes after the four height-fog floats.
        let extra_at = flag_at + 1 + 16;
        assert_eq!(bytes[extra_at], 0);
        broken = bytes.clone();
        broken[extra_at] = 1;
        let e = DungeonFile::parse(&broken).unwrap_err();
        assert_eq!((e.offset(), e.section()), (extra_at, "blocks[0].extra"));
    }

    #[test]
    fn mutations_that_parse_write_back_exactly() {
        let mut rng = SplitMix64::new(0xd0f_2024);
        let (mut parsed, mut failed) = (0, 0);
        for (what, bytes) in files() {
            for _ in 0..1500 {
                let mut m = bytes.clone();
                crate::mutate(&mut m, &mut rng, 3);
                match crate::parse_mutated::<DungeonFile>(&m, &what) {
                    Ok(d) => {
                        parsed += 1;
                        let _ = lint(&d);
                    }
                    Err(e) => {
                        failed += 1;
                        check_error(&e, m.len(), &what);
                    }
                }
            }
        }
        assert!(
            parsed > 1000 && failed > 1000,
            "{parsed} parsed, {failed} failed"
        );
    }

    /// Every input under `tests/fuzz-regressions/dof/` fails with a clean error or writes back
    /// byte-exact.
    #[test]
    fn fuzz_regressions() {
        let dir = crate::manifest_dir().join("tests/fuzz-regressions/dof");
        let replayed = silknav_testkit::replay_inputs(std::slice::from_ref(&dir), |bytes| {
            match crate::parse_and_write_back::<DungeonFile>(bytes, "regression") {
                Ok(d) => {
                    let _ = lint(&d);
                }
                Err(e) => check_error(&e, bytes.len(), "regression"),
            }
        });
        assert!(replayed > 0, "{} holds no .bin inputs", dir.display());
    }

    /// The seeds under `fuzz/seeds/dof_parse/` are the independent writer's dungeons. Run with
    /// `SILKNAV_BLESS_SEEDS=1` to write them after changing the dungeons.
    #[test]
    fn fuzz_seeds_are_current() {
        let root = crate::manifest_dir().join("../../fuzz/seeds/dof_parse");
        for (what, spec) in second_writer::dof::dungeons() {
            crate::seed_is_current(&root.join(format!("{what}.bin")), &spec.to_bytes());
        }
    }
}

mod lints {
    use super::*;

    /// Breaks the temple with `f` and checks that lint reports exactly `code`, at `location`.
    fn expect(code: &str, location: &str, f: impl FnOnce(&mut DungeonFile)) {
        let mut d = temple();
        assert_eq!(lint(&d), vec![], "the temple starts clean");
        f(&mut d);
        crate::assert_only_finding(&lint(&d), code, location, CODES);
    }

    #[test]
    fn codes_are_listed_in_order() {
        crate::check_code_table('D', CODES, include_str!("../../src/dof/lint.rs"));
    }

    #[test]
    fn d001_connected_block_out_of_range() {
        expect("D001", "blocks[1].connected[2]", |d| {
            d.blocks[1].connected.push(4)
        });
    }

    #[test]
    fn d002_visible_block_out_of_range() {
        expect("D002", "blocks[0].visible[0]", |d| {
            d.blocks[0].visible[0] = 9
        });
    }

    #[test]
    fn d003_one_link_list_per_block() {
        expect("D003", "links", |d| {
            d.links.pop();
        });
        expect("D003", "links", |d| d.links.push(Vec::new()));
    }

    #[test]
    fn d004_link_target_out_of_range() {
        expect("D004", "links[2][0]", |d| d.links[2][0] = 10);
    }

    #[test]
    fn d005_voxel_block_out_of_range() {
        expect("D005", "grid_voxels[3].blocks[1]", |d| {
            d.grid.voxels[3].blocks.push(4)
        });
    }

    #[test]
    fn d006_voxel_outside_the_grid() {
        // The grid is 8 wide (x), 2 high (y), 4 long (z).
        expect("D006", "grid_voxels[0].id", |d| {
            d.grid.voxels[0].id = voxel_id(8, 0, 0)
        });
        expect("D006", "grid_voxels[0].id", |d| {
            d.grid.voxels[0].id = voxel_id(0, 2, 0)
        });
        expect("D006", "grid_voxels[0].id", |d| {
            d.grid.voxels[0].id = voxel_id(0, 0, 4)
        });
        // Inside on every axis: no finding (x 7, y 1, z 3).
        let mut d = temple();
        d.grid.voxels[0].id = voxel_id(7, 1, 3);
        assert_eq!(lint(&d), vec![]);
    }

    #[test]
    fn d007_reserved_voxel_bits() {
        expect("D007", "grid_voxels[4].id", |d| {
            d.grid.voxels[4].id |= 1 << 31
        });
    }

    #[test]
    fn d008_repeated_voxel_id() {
        expect("D008", "grid_voxels[5].id", |d| {
            d.grid.voxels[5].id = d.grid.voxels[2].id
        });
    }

    #[test]
    fn d009_group_block_out_of_range() {
        expect("D009", "groups[1].blocks[1]", |d| {
            d.groups[1].blocks.push(4)
        });
    }

    #[test]
    fn d010_room_index_out_of_range() {
        expect("D010", "blocks[0].room_index", |d| {
            d.blocks[0].room_index = 3
        });
        expect("D010", "blocks[3].room_index", |d| {
            d.blocks[3].room_index = -2
        });
        // -1 is no room; without labels nothing is checked.
        let mut d = temple();
        d.blocks[0].room_index = -1;
        assert_eq!(lint(&d), vec![]);
        d.blocks[0].room_index = 99;
        d.blocks[0].floor_index = 99;
        d.labels = None;
        d.order.retain(|p| p.section != SectionKind::Labels);
        assert_eq!(lint(&d), vec![]);
    }

    #[test]
    fn d011_floor_index_out_of_range() {
        expect("D011", "blocks[3].floor_index", |d| {
            d.blocks[3].floor_index = 2
        });
    }

    #[test]
    fn d012_collision_count_disagrees_with_the_flags() {
        expect("D012", "blocks[0].collision_object_count", |d| {
            d.blocks[0].collision_object_count = 0
        });
        expect("D012", "blocks[0].collision_object_count", |d| {
            d.blocks[0].objects[0].flag = 2
        });
    }

    #[test]
    fn d013_unknown_object_flags() {
        expect("D013", "blocks[0].objects[0].flag", |d| {
            d.blocks[0].objects[0].flag = 0x10
        });
    }

    #[test]
    fn d014_bad_collision_radius() {
        for bad in [-1.0, f32::NAN, f32::INFINITY] {
            expect("D014", "blocks[0].objects[1].radius_squared", |d| {
                d.blocks[0].objects[1].radius_squared = F32::from(bad)
            });
        }
        // Only collision objects have a circle.
        let mut d = temple();
        d.blocks[0].objects[0].radius_squared = F32::from(f32::NAN);
        assert_eq!(lint(&d), vec![]);
    }

    #[test]
    fn d015_empty_block_path() {
        expect("D015", "blocks[2].path", |d| d.blocks[2].path.clear());
    }

    #[test]
    fn d016_non_finite_placement() {
        expect("D016", "blocks[1].position", |d| {
            d.blocks[1].position[2] = F32::from_bits(0x7fc0_0001)
        });
        expect("D016", "blocks[1].yaw", |d| {
            d.blocks[1].yaw = F32::from(f32::NEG_INFINITY)
        });
        expect("D016", "blocks[0].objects[1].position", |d| {
            d.blocks[0].objects[1].position[0] = F32::from(f32::NAN)
        });
        expect("D016", "box0.min", |d| d.box0.min[1] = F32::from(f32::NAN));
    }

    #[test]
    fn d017_reserved_offsets() {
        expect("D017", "reserved_offsets[1]", |d| d.reserved_offsets[1] = 5);
    }

    #[test]
    fn d018_unclaimed_bytes() {
        expect("D018", "order[2].gap_before", |d| {
            d.order[2].gap_before = vec![0]
        });
        expect("D018", "trailing", |d| d.trailing = vec![0; 3]);
    }

    #[test]
    fn d019_legacy_layout() {
        expect("D019", "block_layout", |d| {
            d.blocks[0].fog.height = None;
            d.block_layout = BlockLayout::Legacy;
        });
    }
}

/// The JSON form (`jmxv::dof::json`): both round trips, the text layout, and errors that name
/// the field.
mod json {
    use super::*;
    use jmxv::dof::json;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        #[test]
        fn model_json_model(d in super::roundtrip::model()) {
            let Ok(text) = json::to_string(&d) else {
                // Blocks that would read back in the other layout (see roundtrip).
                prop_assert!(d.to_vec().is_err());
                return Ok(());
            };
            let back = json::from_str(&text).expect("written JSON reads back");
            prop_assert_eq!(&back, &d);
            prop_assert_eq!(json::to_string(&back).unwrap(), text);
        }

        #[test]
        fn bytes_json_bytes(seed in any::<u64>()) {
            let bytes = second_writer::dof::odd(seed).to_bytes();
            let text = json::to_string(&parse(&bytes, "odd")).unwrap();
            prop_assert!(json::from_str(&text).unwrap().to_vec().unwrap() == bytes);
        }
    }

    #[test]
    fn realistic_dungeons_round_trip_byte_for_byte() {
        for (what, spec) in second_writer::dof::dungeons() {
            let bytes = spec.to_bytes();
            let d = parse(&bytes, what);
            let text = json::to_string(&d).unwrap();
            let back = json::from_slice(text.as_bytes()).unwrap();
            assert!(back.to_vec().unwrap() == bytes, "{what} changed");
            // Objects and lights have lines of their own, as do voxels, links, groups and
            // placements.
            let objects: usize = d.blocks.iter().map(|b| b.objects.len()).sum();
            let lights: usize = d.blocks.iter().map(|b| b.lights.len()).sum();
            let object_lines = text
                .lines()
                .filter(|l| l.starts_with("{\"name\":") && l.contains("\"radius_squared\""))
                .count();
            let light_lines = text
                .lines()
                .filter(|l| l.starts_with("{\"name\":") && l.contains("\"diffuse\""))
                .count();
            assert_eq!((object_lines, light_lines), (objects, lights), "{what}");
            let block_lines = text.lines().filter(|l| l.starts_with("{\"path\":")).count();
            assert_eq!(block_lines, d.blocks.len(), "{what}");
            let keys: Vec<&str> = text
                .lines()
                .filter_map(|l| l.strip_prefix('"')?.split('"').next())
                .collect();
            assert_eq!(
                keys,
                [
                    "signature",
                    "reserved_offsets",
                    "info",
                    "box0",
                    "box1",
                    "block_layout",
                    "blocks",
                    "grid_size",
                    "grid_voxels",
                    "links",
                    "labels",
                    "groups",
                    "order",
                    "trailing"
                ],
                "{what}"
            );
        }
    }

    #[test]
    fn odd_floats_and_absent_groups_are_spelled_out() {
        let mut d = temple();
        d.blocks[1].yaw = F32::from_bits(0x7fc0_0001);
        d.box1.max[0] = F32::from(-0.0);
        let text = json::to_string(&d).unwrap();
        assert!(text.contains("\"yaw\":\"nan:7fc00001\""), "{text}");
        assert!(text.contains("\"box1\":{\"min\":[0.0,0.0,0.0],\"max\":[-0.0,0.0,0.0]}"));
        assert!(
            text.contains("\"height\":null"),
            "blocks without height fog"
        );
        assert!(text.contains("\"water_colour\":null"));
        assert!(
            text.contains("\"water_colour\":4281360544"),
            "the pool's colour"
        );
        assert!(text.contains("\n\"block_layout\":\"standard\",\n"));
        assert_eq!(json::from_str(&text).unwrap(), d);
        let cave = parse(&second_writer::dof::legacy_cave().to_bytes(), "cave");
        let text = json::to_string(&cave).unwrap();
        assert!(text.contains("\n\"labels\":null,\n"), "{text}");
        assert!(text.contains("\n\"block_layout\":\"legacy\",\n"));
        assert_eq!(json::from_str(&text).unwrap(), cave);
    }

    fn temple_text() -> String {
        json::to_string(&temple()).unwrap()
    }

    /// The error of the temple's dump with the first `from` replaced by `to`.
    fn error(from: &str, to: &str) -> String {
        let text = temple_text();
        assert!(text.contains(from), "{from} not in {text}");
        json::from_str(&text.replacen(from, to, 1))
            .unwrap_err()
            .to_string()
    }

    #[test]
    fn bad_values_name_their_field() {
        assert_eq!(
            error("\"object_type\":-1", "\"object_type\":40000"),
            "info.object_type: expected an integer -32768..=32767, found 40000"
        );
        assert_eq!(
            error("\"flag\":2,", "\"flag\":-2,"),
            "blocks[0].objects[1].flag: expected an integer 0..=4294967295, found -2"
        );
        assert_eq!(
            error("\"radius_squared\":625.0", "\"radius_squared\":\"abc\""),
            r#"blocks[0].objects[1].radius_squared: expected a number, "inf", "-inf" or "nan:XXXXXXXX", found "abc""#
        );
        assert_eq!(
            error("\"height\":[", "\"height\":[0.0,"),
            "blocks[0].fog.height: expected an array of 4 numbers, found an array of 5"
        );
        assert_eq!(
            error("\"section\":\"grid\"", "\"section\":\"voxels\""),
            r#"order[2].section: expected one of "boxes", "blocks", "grid", "links", "labels", "groups", found "voxels""#
        );
        assert_eq!(
            error("\"standard\"", "\"modern\""),
            r#"block_layout: expected "standard" or "legacy", found "modern""#
        );
        assert_eq!(
            error("JMXVDOF 0101", "JMXVDOF 0100"),
            r#"signature: expected "JMXVDOF 0101", found "JMXVDOF 0100""#
        );
        assert_eq!(
            error("\"visible\":", "\"visibles\":"),
            "blocks[0].visibles: unknown key (expected one of path, name, unknown0, position, yaw, \
             is_entrance, bounding_box, unknown1, fog, extra, unknown_string, room_index, \
             floor_index, connected, visible, collision_object_count, objects, lights)"
        );
        let message = error("\"trailing\":\"", "\"trailing\":\"x");
        assert!(
            message.starts_with("trailing: expected a string of hex digits (two per byte)"),
            "{message}"
        );
        assert_eq!(
            error("\"links\":[", "\"links\":[[1,\"a\"],"),
            "links[0][1]: expected an integer 0..=4294967295, found \"a\""
        );
    }

    #[test]
    fn what_would_not_write_is_refused_at_its_path() {
        assert_eq!(
            error("\"water_colour\":null", "\"water_colour\":5"),
            "blocks[0].objects[0].water_colour: flag 0x0 has no water bit (0x4), so no water \
             colour is stored, but there is one"
        );
        assert_eq!(
            error("\n\"labels\":{", "\n\"labels\":null,\"x\":{"),
            "x: unknown key (expected one of signature, reserved_offsets, info, box0, box1, \
             block_layout, blocks, grid_size, grid_voxels, links, labels, groups, order, trailing)"
        );
        let text = temple_text();
        let start = text.find("\n\"labels\":").unwrap() + 1;
        let end = start + text[start..].find('\n').unwrap();
        let without = format!("{}\"labels\":null,{}", &text[..start], &text[end + 1..]);
        assert_eq!(
            json::from_str(&without).unwrap_err().to_string(),
            "order[4].section: the labels section is placed, but the dungeon has no labels"
        );
        let legacy = text.replace("\"standard\"", "\"legacy\"");
        assert!(json::from_str(&legacy)
            .unwrap_err()
            .to_string()
            .starts_with("blocks[0].fog.height: the legacy block layout"));
        let start = text.find("\n\"order\":").unwrap() + 1;
        let end = start + text[start..].find("\n\"trailing\"").unwrap();
        let cut = format!("{}{}", &text[..start], &text[end + 1..]);
        assert_eq!(
            json::from_str(&cut).unwrap_err().to_string(),
            "top level: missing key \"order\""
        );
    }
}
