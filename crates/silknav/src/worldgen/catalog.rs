//! The object and texture tables of generated worlds (their `object.ifo` and `tile2d.ifo`).
//!
//! Paths follow the game's conventions (backslashes, `res\` roots, `.bsr` for buildings with
//! collision, `.bms` for plain meshes) but name no real asset.

/// What a generated object is, which decides where it stands and how big it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ObjectClass {
    /// A house or shop: blocks the tiles under it.
    Building,
    /// A tree or rock: stands on open ground, blocks nothing.
    Prop,
    /// A fortress gate: linked to its partner gate.
    Gate,
}

/// One row of the generated `object.ifo`.
#[derive(Debug, Clone, Copy)]
pub struct ObjectResource {
    /// The resource path as the game writes it.
    pub path: &'static str,
    /// What kind of object it is.
    pub class: ObjectClass,
}

/// The generated `object.ifo`, in index order.
pub const OBJECTS: &[ObjectResource] = &[
    res(
        "res\\bldg\\china\\jangan\\ch_house_a01.bsr",
        ObjectClass::Building,
    ),
    res(
        "res\\bldg\\china\\jangan\\ch_house_a02.bsr",
        ObjectClass::Building,
    ),
    res(
        "res\\bldg\\china\\jangan\\ch_house_b01.bsr",
        ObjectClass::Building,
    ),
    res(
        "res\\bldg\\china\\jangan\\ch_shop_weapon.bsr",
        ObjectClass::Building,
    ),
    res(
        "res\\bldg\\china\\jangan\\ch_shop_armor.bsr",
        ObjectClass::Building,
    ),
    res(
        "res\\bldg\\china\\jangan\\ch_tower_a01.bsr",
        ObjectClass::Building,
    ),
    res(
        "res\\bldg\\oasis\\kotan\\ot_house_a01.bsr",
        ObjectClass::Building,
    ),
    res(
        "res\\bldg\\oasis\\kotan\\ot_house_b01.bsr",
        ObjectClass::Building,
    ),
    res(
        "res\\bldg\\oasis\\kotan\\ot_stable.bsr",
        ObjectClass::Building,
    ),
    res(
        "res\\bldg\\europe\\constantinople\\eu_house_a01.bsr",
        ObjectClass::Building,
    ),
    res(
        "res\\bldg\\europe\\constantinople\\eu_church.bsr",
        ObjectClass::Building,
    ),
    res(
        "res\\bldg\\china\\fortress\\ch_gate_left.bsr",
        ObjectClass::Gate,
    ),
    res(
        "res\\bldg\\china\\fortress\\ch_gate_right.bsr",
        ObjectClass::Gate,
    ),
    res("res\\nature\\tree\\ch_pine_a01.bms", ObjectClass::Prop),
    res("res\\nature\\tree\\ch_pine_a02.bms", ObjectClass::Prop),
    res("res\\nature\\tree\\ch_willow_a01.bms", ObjectClass::Prop),
    res("res\\nature\\tree\\ot_palm_a01.bms", ObjectClass::Prop),
    res("res\\nature\\rock\\rock_grey_a01.bms", ObjectClass::Prop),
    res("res\\nature\\rock\\rock_grey_b01.bms", ObjectClass::Prop),
    res("res\\nature\\rock\\rock_sand_a01.bms", ObjectClass::Prop),
    res("res\\nature\\bush\\bush_a01.bms", ObjectClass::Prop),
    res("res\\nature\\bush\\bush_b01.bms", ObjectClass::Prop),
    res("res\\obj\\common\\well_a01.cpd", ObjectClass::Prop),
    res("res\\obj\\common\\lamp_post_a01.dof", ObjectClass::Prop),
];

const fn res(path: &'static str, class: ObjectClass) -> ObjectResource {
    ObjectResource { path, class }
}

/// Object ids of one class.
pub fn object_ids(class: ObjectClass) -> impl Iterator<Item = u32> {
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
pub const TEXTURES: &[(Ground, &str)] = &[
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
