//! The object and texture tables of generated worlds (their `object.ifo` and `tile2d.ifo`).
//!
//! Paths follow the game's conventions (backslashes, `res\` roots) but name no real asset.
//! Every object is a `.bms` mesh file, written beside the navmesh folder in the data root.

/// What a generated object is, which decides where it stands, how big it is and its mesh
/// ([`super::meshes`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ObjectClass {
    /// A house or shop: walls around a floor, entered through one doorway.
    Building,
    /// A tree or rock: stands on open ground, has no navigation mesh.
    Prop,
    /// A fortress gate filling a gap of the wall, its middle a siege edge; gates are linked in
    /// pairs.
    Gate,
    /// A bridge over walkable ground: a deck whose ends link to the terrain and whose sides
    /// let walkers below pass.
    Bridge,
    /// Stairs from the ground up to a landing.
    Stairs,
}

/// One row of the generated `object.ifo`.
#[derive(Debug, Clone, Copy)]
pub struct ObjectResource {
    /// The resource path as the game writes it.
    pub path: &'static str,
    /// What kind of object it is.
    pub class: ObjectClass,
    /// Its size in tiles along its own x and z (before its yaw turns it).
    pub size: (u8, u8),
}

/// The generated `object.ifo`, in index order.
pub const OBJECTS: &[ObjectResource] = &[
    res(
        "res\\bldg\\china\\jangan\\ch_house_a01.bms",
        ObjectClass::Building,
        (2, 2),
    ),
    res(
        "res\\bldg\\china\\jangan\\ch_house_a02.bms",
        ObjectClass::Building,
        (3, 2),
    ),
    res(
        "res\\bldg\\china\\jangan\\ch_house_b01.bms",
        ObjectClass::Building,
        (3, 3),
    ),
    res(
        "res\\bldg\\china\\jangan\\ch_shop_weapon.bms",
        ObjectClass::Building,
        (4, 3),
    ),
    res(
        "res\\bldg\\china\\jangan\\ch_shop_armor.bms",
        ObjectClass::Building,
        (4, 4),
    ),
    res(
        "res\\bldg\\china\\jangan\\ch_tower_a01.bms",
        ObjectClass::Building,
        (2, 3),
    ),
    res(
        "res\\bldg\\oasis\\kotan\\ot_house_a01.bms",
        ObjectClass::Building,
        (3, 2),
    ),
    res(
        "res\\bldg\\oasis\\kotan\\ot_house_b01.bms",
        ObjectClass::Building,
        (2, 2),
    ),
    res(
        "res\\bldg\\oasis\\kotan\\ot_stable.bms",
        ObjectClass::Building,
        (5, 3),
    ),
    res(
        "res\\bldg\\europe\\constantinople\\eu_house_a01.bms",
        ObjectClass::Building,
        (3, 3),
    ),
    res(
        "res\\bldg\\europe\\constantinople\\eu_church.bms",
        ObjectClass::Building,
        (5, 4),
    ),
    res(
        "res\\bldg\\china\\fortress\\ch_gate_wide.bms",
        ObjectClass::Gate,
        (3, 1),
    ),
    res(
        "res\\bldg\\china\\fortress\\ch_gate_narrow.bms",
        ObjectClass::Gate,
        (1, 1),
    ),
    res(
        "res\\bldg\\china\\bridge\\ch_bridge_wood_a01.bms",
        ObjectClass::Bridge,
        (8, 2),
    ),
    res(
        "res\\bldg\\china\\bridge\\ch_bridge_stone_a01.bms",
        ObjectClass::Bridge,
        (12, 3),
    ),
    res(
        "res\\bldg\\china\\jangan\\ch_stairs_a01.bms",
        ObjectClass::Stairs,
        (5, 2),
    ),
    res(
        "res\\nature\\tree\\ch_pine_a01.bms",
        ObjectClass::Prop,
        (1, 1),
    ),
    res(
        "res\\nature\\tree\\ch_pine_a02.bms",
        ObjectClass::Prop,
        (1, 1),
    ),
    res(
        "res\\nature\\tree\\ch_willow_a01.bms",
        ObjectClass::Prop,
        (1, 1),
    ),
    res(
        "res\\nature\\tree\\ot_palm_a01.bms",
        ObjectClass::Prop,
        (1, 1),
    ),
    res(
        "res\\nature\\rock\\rock_grey_a01.bms",
        ObjectClass::Prop,
        (1, 1),
    ),
    res(
        "res\\nature\\rock\\rock_grey_b01.bms",
        ObjectClass::Prop,
        (1, 1),
    ),
    res(
        "res\\nature\\rock\\rock_sand_a01.bms",
        ObjectClass::Prop,
        (1, 1),
    ),
    res("res\\nature\\bush\\bush_a01.bms", ObjectClass::Prop, (1, 1)),
    res("res\\nature\\bush\\bush_b01.bms", ObjectClass::Prop, (1, 1)),
    res("res\\obj\\common\\well_a01.bms", ObjectClass::Prop, (1, 1)),
    res(
        "res\\obj\\common\\lamp_post_a01.bms",
        ObjectClass::Prop,
        (1, 1),
    ),
];

const fn res(path: &'static str, class: ObjectClass, size: (u8, u8)) -> ObjectResource {
    ObjectResource { path, class, size }
}

/// Object ids of one class.
pub(crate) fn object_ids(class: ObjectClass) -> impl Iterator<Item = u32> {
    OBJECTS
        .iter()
        .enumerate()
        .filter(move |(_, o)| o.class == class)
        .map(|(i, _)| i as u32)
}

/// What a tile's ground is, which picks its texture (and the colour in pictures).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ground {
    /// Open grassland.
    Grass,
    /// Cliffs and rock masses.
    Rock,
    /// Lake shores and beds.
    Sand,
    /// High ground.
    Snow,
    /// Trodden ground in villages and fortresses.
    Dirt,
}

/// The generated `tile2d.ifo`: (ground, texture file), in index order.
pub(crate) const TEXTURES: &[(Ground, &str)] = &[
    (Ground::Grass, "china\\grass_a01.ddj"),
    (Ground::Grass, "china\\grass_a02.ddj"),
    (Ground::Grass, "china\\grass_b01.ddj"),
    (Ground::Grass, "china\\grass_flower_a01.ddj"),
    (Ground::Rock, "china\\rock_a01.ddj"),
    (Ground::Rock, "china\\rock_a02.ddj"),
    (Ground::Rock, "china\\cliff_a01.ddj"),
    (Ground::Sand, "oasis\\sand_a01.ddj"),
    (Ground::Sand, "oasis\\sand_b01.ddj"),
    (Ground::Snow, "china\\snow_a01.ddj"),
    (Ground::Snow, "china\\snow_ice_a01.ddj"),
    (Ground::Dirt, "china\\dirt_a01.ddj"),
    (Ground::Dirt, "china\\road_stone_a01.ddj"),
];

impl Ground {
    /// The `tile2d.ifo` tile type of this ground (the material the client plays sounds for).
    pub const fn tile_kind(self) -> u32 {
        match self {
            Ground::Dirt => 0,
            Ground::Sand => 1,
            Ground::Rock => 3,
            Ground::Snow => 9,
            Ground::Grass => 10,
        }
    }
}

/// Texture ids of one ground kind.
pub fn texture_ids(ground: Ground) -> impl Iterator<Item = u16> {
    TEXTURES
        .iter()
        .enumerate()
        .filter(move |(_, t)| t.0 == ground)
        .map(|(i, _)| i as u16)
}
