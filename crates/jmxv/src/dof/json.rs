//! The lossless JSON form of a dungeon file (feature `serde`): every value of the model, in a
//! document that reads back to the same model and so to the same bytes.
//!
//! Top-level keys, always in this order: `signature` (`"JMXVDOF 0101"`), `reserved_offsets`
//! (the two header words no reader follows), `info`, `box0`, `box1` (`min`, `max`),
//! `block_layout` (`"standard"` or `"legacy"`), `blocks`, `grid_size` (width, height, length),
//! `grid_voxels` (`id`, `blocks`), `links` (one array of block indices per entry), `labels`
//! (`null`, or `rooms` and `floors`), `groups` (`name`, `flag`, `blocks`), `order` (the sections
//! in file order: `section` and the unclaimed bytes before it, `gap_before`) and `trailing`.
//! There are no offsets: the file's are derived from `order` when it is written. Every record
//! has every field, named as in the model; an absent optional group is `null` (a block's
//! `extra`, its fog's `height`, an object's `water_colour`). Strings and unclaimed bytes are
//! lower-case hex (the game's text is CP949); integers are exactly as stored; floats follow
//! [`Float`]. Reading is strict, as for the other formats ([`crate::bms::json`]): every key is
//! required, unknown and repeated keys are errors, fixed arrays have their length checked, and
//! every error names the JSON path of the bad value ([`JsonError`]). A document whose model
//! would not write ([`DungeonFile::check_writable`]) is refused at the path the check names.
//!
//! # Text layout
//! Compact JSON broken into lines: one top-level key per line; in `blocks`, each block's fields
//! on a line, then its objects and its lights one per line; one voxel, link list, group and
//! placement per line. Any JSON formatting reads back the same.
//!
//! # Example
//! ```
//! use jmxv::dof::{json, Block, DungeonFile};
//!
//! let mut dungeon = DungeonFile::default();
//! dungeon.blocks.push(Block { path: b"room.bsr".to_vec(), yaw: jmxv::F32::from(-0.0), ..Block::default() });
//! dungeon.links.push(Vec::new());
//! let text = json::to_string(&dungeon)?;
//! assert!(text.starts_with("{\n\"signature\":\"JMXVDOF 0101\",\n"));
//! assert!(text.contains("\n{\"path\":\"726f6f6d2e627372\",\"name\":\"\",\"unknown0\":0,"));
//! assert!(text.contains("\"yaw\":-0.0,"));
//! assert_eq!(json::from_str(&text)?.to_vec()?, dungeon.to_vec()?);
//!
//! let error = json::from_str(&text.replace("\"room_index\":0", "\"room_index\":\"x\"")).unwrap_err();
//! assert_eq!(
//!     error.to_string(),
//!     "blocks[0].room_index: expected an integer -2147483648..=2147483647, found \"x\""
//! );
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use super::model::*;
use crate::json::read::{
    document, expected, read, record, required, to_hex, utf8, writable, HexBytes, Item, Keys,
    Scalar, Structure,
};
use crate::json::write::{checked_string, checked_writer, Lines};
use crate::json::{Float, JsonError};
use crate::{WriteError, F32};
use serde::de::{self, Deserializer, MapAccess, Visitor};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::io::{self, Write};
use std::marker::PhantomData;

/// Reads the JSON form of a dungeon file.
///
/// The result can always be written ([`DungeonFile::check_writable`] is part of reading).
///
/// # Errors
/// Text that is not JSON (with its line and column), or JSON that does not describe a dungeon
/// file that writes (with the path of the offending value).
pub fn from_str(text: &str) -> Result<DungeonFile, JsonError> {
    writable(
        document::<DocumentShape>(text)?.0,
        DungeonFile::check_writable,
        str::to_owned,
    )
}

/// Reads the JSON form of a dungeon file from bytes, which must be UTF-8.
///
/// # Errors
/// As [`from_str`], and text that is not UTF-8 (with the line and column of the first bad byte).
pub fn from_slice(bytes: &[u8]) -> Result<DungeonFile, JsonError> {
    from_str(utf8(bytes)?)
}

/// The JSON form of `dungeon` (see the [module docs](self)).
///
/// # Errors
/// A [`WriteError`] when the dungeon cannot be written as a file
/// ([`DungeonFile::check_writable`]); its JSON would not read back.
pub fn to_string(dungeon: &DungeonFile) -> Result<String, WriteError> {
    checked_string(
        dungeon.check_writable(),
        || dungeon.encoded_len() * 3,
        |out| write(dungeon, out),
    )
}

/// Writes the JSON form of `dungeon` to a stream.
///
/// # Errors
/// An [`io::Error`] from the stream, or one of kind `InvalidInput` wrapping a [`WriteError`]
/// when the dungeon cannot be written ([`to_string`]).
pub fn to_writer(dungeon: &DungeonFile, out: impl Write) -> io::Result<()> {
    checked_writer(dungeon.check_writable(), out, |out| write(dungeon, out))
}

// ---------------------------------------------------------------------------------------------
// Writing: the model → JSON text, in the order of the keys.

fn write(d: &DungeonFile, out: &mut impl Write) -> io::Result<()> {
    let mut doc = Lines::start(out)?;
    // The signature is printable ASCII, so the lossy conversion never replaces anything.
    doc.key("signature", &String::from_utf8_lossy(SIGNATURE))?;
    doc.key("reserved_offsets", &d.reserved_offsets)?;
    doc.key("info", &InfoJson::from(&d.info))?;
    doc.key("box0", &BoxJson::from(&d.box0))?;
    doc.key("box1", &BoxJson::from(&d.box1))?;
    doc.key("block_layout", d.block_layout.name())?;
    doc.key("blocks", &*blocks_text(&d.blocks)?)?;
    doc.key("grid_size", &d.grid.size)?;
    doc.list("grid_voxels", 1, d.grid.voxels.iter().map(VoxelJson::from))?;
    doc.list("links", 1, d.links.iter())?;
    doc.key("labels", &d.labels.as_ref().map(LabelsJson::from))?;
    doc.list("groups", 1, d.groups.iter().map(GroupJson::from))?;
    doc.list("order", 1, d.order.iter().map(PlacementJson::from))?;
    doc.key("trailing", &to_hex(&d.trailing))?;
    doc.end()
}

/// The `blocks` array as text: a block's fields on one line, then its objects and its lights
/// one per line.
fn blocks_text(blocks: &[Block]) -> io::Result<Box<serde_json::value::RawValue>> {
    fn lines<T: Serialize>(s: &mut String, items: impl Iterator<Item = T>) -> io::Result<()> {
        s.push('[');
        let mut any = false;
        for (i, item) in items.enumerate() {
            s.push_str(if i == 0 { "\n" } else { ",\n" });
            s.push_str(&serde_json::to_string(&item)?);
            any = true;
        }
        s.push_str(if any { "\n]" } else { "]" });
        Ok(())
    }
    let mut s = String::from("[");
    for (i, b) in blocks.iter().enumerate() {
        s.push_str(if i == 0 { "\n" } else { ",\n" });
        let head = serde_json::to_string(&BlockJson::from(b))?;
        // The head is an object; the two lists go in before its closing brace.
        s.push_str(&head[..head.len() - 1]);
        s.push_str(",\"objects\":");
        lines(&mut s, b.objects.iter().map(ObjectJson::from))?;
        s.push_str(",\"lights\":");
        lines(&mut s, b.lights.iter().map(LightJson::from))?;
        s.push('}');
    }
    s.push_str(if blocks.is_empty() { "]" } else { "\n]" });
    serde_json::value::RawValue::from_string(s).map_err(io::Error::other)
}

fn floats<const N: usize>(values: &[F32; N]) -> [Float; N] {
    values.map(Float)
}

#[derive(Serialize)]
struct InfoJson {
    object_type: i16,
    category: i16,
    name: String,
    unknown0: u32,
    unknown1: u32,
    region_id: u16,
}

impl From<&Info> for InfoJson {
    fn from(i: &Info) -> InfoJson {
        InfoJson {
            object_type: i.object_type,
            category: i.category,
            name: to_hex(&i.name),
            unknown0: i.unknown0,
            unknown1: i.unknown1,
            region_id: i.region_id,
        }
    }
}

#[derive(Serialize)]
struct BoxJson {
    min: [Float; 3],
    max: [Float; 3],
}

impl From<&BoundingBox> for BoxJson {
    fn from(b: &BoundingBox) -> BoxJson {
        BoxJson {
            min: floats(&b.min),
            max: floats(&b.max),
        }
    }
}

/// A block without its objects and lights, which [`blocks_text`] puts on lines of their own.
#[derive(Serialize)]
struct BlockJson<'a> {
    path: String,
    name: String,
    unknown0: u32,
    position: [Float; 3],
    yaw: Float,
    is_entrance: u32,
    bounding_box: BoxJson,
    unknown1: u32,
    fog: FogJson,
    extra: Option<ExtraJson>,
    unknown_string: String,
    room_index: i32,
    floor_index: u32,
    connected: &'a [u32],
    visible: &'a [u32],
    collision_object_count: u32,
}

impl<'a> From<&'a Block> for BlockJson<'a> {
    fn from(b: &'a Block) -> BlockJson<'a> {
        BlockJson {
            path: to_hex(&b.path),
            name: to_hex(&b.name),
            unknown0: b.unknown0,
            position: floats(&b.position),
            yaw: Float(b.yaw),
            is_entrance: b.is_entrance,
            bounding_box: BoxJson::from(&b.bounding_box),
            unknown1: b.unknown1,
            fog: FogJson {
                colour: b.fog.colour,
                near: Float(b.fog.near),
                far: Float(b.fog.far),
                intensity: Float(b.fog.intensity),
                height: b.fog.height.as_ref().map(floats),
            },
            extra: b.extra.as_ref().map(|e| ExtraJson {
                vector0: floats(&e.vector0),
                vector1: floats(&e.vector1),
                value: e.value,
            }),
            unknown_string: to_hex(&b.unknown_string),
            room_index: b.room_index,
            floor_index: b.floor_index,
            connected: &b.connected,
            visible: &b.visible,
            collision_object_count: b.collision_object_count,
        }
    }
}

#[derive(Serialize)]
struct FogJson {
    colour: u32,
    near: Float,
    far: Float,
    intensity: Float,
    height: Option<[Float; 4]>,
}

#[derive(Serialize)]
struct ExtraJson {
    vector0: [Float; 3],
    vector1: [Float; 3],
    value: u32,
}

#[derive(Serialize)]
struct ObjectJson {
    name: String,
    path: String,
    position: [Float; 3],
    rotation: [Float; 3],
    scale: [Float; 3],
    flag: u32,
    unknown: u32,
    radius_squared: Float,
    water_colour: Option<u32>,
}

impl From<&BlockObject> for ObjectJson {
    fn from(o: &BlockObject) -> ObjectJson {
        ObjectJson {
            name: to_hex(&o.name),
            path: to_hex(&o.path),
            position: floats(&o.position),
            rotation: floats(&o.rotation),
            scale: floats(&o.scale),
            flag: o.flag,
            unknown: o.unknown,
            radius_squared: Float(o.radius_squared),
            water_colour: o.water_colour,
        }
    }
}

#[derive(Serialize)]
struct LightJson {
    name: String,
    position: [Float; 3],
    diffuse: [Float; 3],
    ambient: [Float; 3],
    specular: [Float; 3],
    attenuation: [Float; 3],
}

impl From<&Light> for LightJson {
    fn from(l: &Light) -> LightJson {
        LightJson {
            name: to_hex(&l.name),
            position: floats(&l.position),
            diffuse: floats(&l.diffuse),
            ambient: floats(&l.ambient),
            specular: floats(&l.specular),
            attenuation: floats(&l.attenuation),
        }
    }
}

#[derive(Serialize)]
struct VoxelJson<'a> {
    id: u32,
    blocks: &'a [u32],
}

impl<'a> From<&'a Voxel> for VoxelJson<'a> {
    fn from(v: &'a Voxel) -> VoxelJson<'a> {
        VoxelJson {
            id: v.id,
            blocks: &v.blocks,
        }
    }
}

#[derive(Serialize)]
struct LabelsJson {
    rooms: Vec<String>,
    floors: Vec<String>,
}

impl From<&Labels> for LabelsJson {
    fn from(l: &Labels) -> LabelsJson {
        LabelsJson {
            rooms: l.rooms.iter().map(|n| to_hex(n)).collect(),
            floors: l.floors.iter().map(|n| to_hex(n)).collect(),
        }
    }
}

#[derive(Serialize)]
struct GroupJson<'a> {
    name: String,
    flag: u32,
    blocks: &'a [u32],
}

impl<'a> From<&'a Group> for GroupJson<'a> {
    fn from(g: &'a Group) -> GroupJson<'a> {
        GroupJson {
            name: to_hex(&g.name),
            flag: g.flag,
            blocks: &g.blocks,
        }
    }
}

#[derive(Serialize)]
struct PlacementJson {
    section: &'static str,
    gap_before: String,
}

impl From<&Placement> for PlacementJson {
    fn from(p: &Placement) -> PlacementJson {
        PlacementJson {
            section: p.section.name(),
            gap_before: to_hex(&p.gap_before),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Reading: JSON text → the model, key by key (mirrors the writing above).

/// The top-level keys, in the order they are written.
const TOP_KEYS: [&str; 14] = [
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
    "trailing",
];

/// The document as read; [`from_str`] checks that it writes.
struct Document(DungeonFile);

/// The top-level keys of the document, read into a [`Document`].
#[derive(Default)]
struct DocumentShape;

impl<'de> Structure<'de> for DocumentShape {
    type Value = Document;
    const EXPECTED: &'static str = "an object";

    fn object<A: MapAccess<'de>>(self, mut map: A) -> Result<Document, A::Error> {
        let mut keys = Keys::new(&TOP_KEYS);
        let mut signature = None;
        let mut reserved_offsets = None;
        let (mut info, mut box0, mut box1) = (None, None, None);
        let (mut block_layout, mut blocks) = (None, None);
        let (mut grid_size, mut grid_voxels) = (None, None);
        let (mut links, mut labels, mut groups) = (None, None, None);
        let (mut order, mut trailing) = (None, None);
        while let Some(key) = keys.next(&mut map)? {
            match key {
                0 => signature = Some(map.next_value_seed(read::<SignatureText>())?),
                1 => reserved_offsets = Some(map.next_value_seed(read::<[u32; 2]>())?),
                2 => info = Some(map.next_value_seed(read::<Info>())?),
                3 => box0 = Some(map.next_value_seed(read::<BoundingBox>())?),
                4 => box1 = Some(map.next_value_seed(read::<BoundingBox>())?),
                5 => block_layout = Some(map.next_value_seed(read::<LayoutName>())?.0),
                6 => blocks = Some(map.next_value_seed(read::<Vec<Block>>())?),
                7 => grid_size = Some(map.next_value_seed(read::<[u32; 3]>())?),
                8 => grid_voxels = Some(map.next_value_seed(read::<Vec<Voxel>>())?),
                9 => links = Some(map.next_value_seed(read::<Vec<Vec<u32>>>())?),
                10 => labels = Some(map.next_value_seed(read::<Nullable<Labels>>())?.0),
                11 => groups = Some(map.next_value_seed(read::<Vec<Group>>())?),
                12 => order = Some(map.next_value_seed(read::<Vec<Placement>>())?),
                _ => trailing = Some(map.next_value_seed(read::<HexBytes>())?.0),
            }
        }
        let _: SignatureText = required(TOP_KEYS[0], signature)?;
        Ok(Document(DungeonFile {
            reserved_offsets: required(TOP_KEYS[1], reserved_offsets)?,
            info: required(TOP_KEYS[2], info)?,
            box0: required(TOP_KEYS[3], box0)?,
            box1: required(TOP_KEYS[4], box1)?,
            block_layout: required(TOP_KEYS[5], block_layout)?,
            blocks: required(TOP_KEYS[6], blocks)?,
            grid: VoxelGrid {
                size: required(TOP_KEYS[7], grid_size)?,
                voxels: required(TOP_KEYS[8], grid_voxels)?,
            },
            links: required(TOP_KEYS[9], links)?,
            labels: required(TOP_KEYS[10], labels)?,
            groups: required(TOP_KEYS[11], groups)?,
            order: required(TOP_KEYS[12], order)?,
            trailing: required(TOP_KEYS[13], trailing)?,
        }))
    }
}

/// The one signature.
struct SignatureText;

impl<'de> Item<'de> for SignatureText {
    const WHAT: &'static str = "signatures";

    fn read<D: Deserializer<'de>>(d: D) -> Result<SignatureText, D::Error> {
        let value = Scalar::deserialize(d)?;
        match &value {
            Scalar::String(s) if s.as_bytes() == SIGNATURE => Ok(SignatureText),
            _ => Err(expected(r#""JMXVDOF 0101""#, &value)),
        }
    }
}

struct LayoutName(BlockLayout);

impl<'de> Item<'de> for LayoutName {
    const WHAT: &'static str = "layouts";

    fn read<D: Deserializer<'de>>(d: D) -> Result<LayoutName, D::Error> {
        let value = Scalar::deserialize(d)?;
        match &value {
            Scalar::String(s) => BlockLayout::ALL.into_iter().find(|l| l.name() == s),
            _ => None,
        }
        .map(LayoutName)
        .ok_or_else(|| expected(r#""standard" or "legacy""#, &value))
    }
}

struct SectionName(SectionKind);

impl<'de> Item<'de> for SectionName {
    const WHAT: &'static str = "sections";

    fn read<D: Deserializer<'de>>(d: D) -> Result<SectionName, D::Error> {
        let value = Scalar::deserialize(d)?;
        match &value {
            Scalar::String(s) => SectionKind::from_name(s),
            _ => None,
        }
        .map(SectionName)
        .ok_or_else(|| {
            expected(
                r#"one of "boxes", "blocks", "grid", "links", "labels", "groups""#,
                &value,
            )
        })
    }
}

/// `null` or a `T`.
struct Nullable<T>(Option<T>);

impl<'de, T: Item<'de>> Item<'de> for Nullable<T> {
    const WHAT: &'static str = "values";

    fn read<D: Deserializer<'de>>(d: D) -> Result<Nullable<T>, D::Error> {
        d.deserialize_option(NullableVisitor(PhantomData))
    }
}

struct NullableVisitor<T>(PhantomData<T>);

impl<'de, T: Item<'de>> Visitor<'de> for NullableVisitor<T> {
    type Value = Nullable<T>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("null or a value")
    }

    fn visit_none<E: de::Error>(self) -> Result<Nullable<T>, E> {
        Ok(Nullable(None))
    }

    fn visit_unit<E: de::Error>(self) -> Result<Nullable<T>, E> {
        Ok(Nullable(None))
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Nullable<T>, D::Error> {
        T::read(d).map(|v| Nullable(Some(v)))
    }
}

record!(Info, "infos", InfoShape, [
    "object_type" => object_type: i16,
    "category" => category: i16,
    "name" => name: HexBytes,
    "unknown0" => unknown0: u32,
    "unknown1" => unknown1: u32,
    "region_id" => region_id: u16,
], Info {
    object_type,
    category,
    name: name.0,
    unknown0,
    unknown1,
    region_id,
});

record!(BoundingBox, "boxes", BoxShape, [
    "min" => min: [F32; 3],
    "max" => max: [F32; 3],
], BoundingBox { min, max });

record!(Block, "blocks", BlockShape, [
    "path" => path: HexBytes,
    "name" => name: HexBytes,
    "unknown0" => unknown0: u32,
    "position" => position: [F32; 3],
    "yaw" => yaw: F32,
    "is_entrance" => is_entrance: u32,
    "bounding_box" => bounding_box: BoundingBox,
    "unknown1" => unknown1: u32,
    "fog" => fog: Fog,
    "extra" => extra: Nullable<BlockExtra>,
    "unknown_string" => unknown_string: HexBytes,
    "room_index" => room_index: i32,
    "floor_index" => floor_index: u32,
    "connected" => connected: Vec<u32>,
    "visible" => visible: Vec<u32>,
    "collision_object_count" => collision_object_count: u32,
    "objects" => objects: Vec<BlockObject>,
    "lights" => lights: Vec<Light>,
], Block {
    path: path.0,
    name: name.0,
    unknown0,
    position,
    yaw,
    is_entrance,
    bounding_box,
    unknown1,
    fog,
    extra: extra.0,
    unknown_string: unknown_string.0,
    room_index,
    floor_index,
    connected,
    visible,
    collision_object_count,
    objects,
    lights,
});

record!(Fog, "fogs", FogShape, [
    "colour" => colour: u32,
    "near" => near: F32,
    "far" => far: F32,
    "intensity" => intensity: F32,
    "height" => height: Nullable<[F32; 4]>,
], Fog { colour, near, far, intensity, height: height.0 });

record!(BlockExtra, "extras", ExtraShape, [
    "vector0" => vector0: [F32; 3],
    "vector1" => vector1: [F32; 3],
    "value" => value: u32,
], BlockExtra { vector0, vector1, value });

record!(BlockObject, "objects", ObjectShape, [
    "name" => name: HexBytes,
    "path" => path: HexBytes,
    "position" => position: [F32; 3],
    "rotation" => rotation: [F32; 3],
    "scale" => scale: [F32; 3],
    "flag" => flag: u32,
    "unknown" => unknown: u32,
    "radius_squared" => radius_squared: F32,
    "water_colour" => water_colour: Nullable<u32>,
], BlockObject {
    name: name.0,
    path: path.0,
    position,
    rotation,
    scale,
    flag,
    unknown,
    radius_squared,
    water_colour: water_colour.0,
});

record!(Light, "lights", LightShape, [
    "name" => name: HexBytes,
    "position" => position: [F32; 3],
    "diffuse" => diffuse: [F32; 3],
    "ambient" => ambient: [F32; 3],
    "specular" => specular: [F32; 3],
    "attenuation" => attenuation: [F32; 3],
], Light { name: name.0, position, diffuse, ambient, specular, attenuation });

record!(Voxel, "voxels", VoxelShape, [
    "id" => id: u32,
    "blocks" => blocks: Vec<u32>,
], Voxel { id, blocks });

record!(Labels, "labels", LabelsShape, [
    "rooms" => rooms: Vec<HexBytes>,
    "floors" => floors: Vec<HexBytes>,
], Labels {
    rooms: rooms.into_iter().map(|n| n.0).collect(),
    floors: floors.into_iter().map(|n| n.0).collect(),
});

record!(Group, "groups", GroupShape, [
    "name" => name: HexBytes,
    "flag" => flag: u32,
    "blocks" => blocks: Vec<u32>,
], Group { name: name.0, flag, blocks });

record!(Placement, "placements", PlacementShape, [
    "section" => section: SectionName,
    "gap_before" => gap_before: HexBytes,
], Placement { section: section.0, gap_before: gap_before.0 });
