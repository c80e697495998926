//! Colours: the type, the picture's palette in one place, and the height tint.

/// An opaque sRGB colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Colour {
    /// Red, 0..=255.
    pub r: u8,
    /// Green, 0..=255.
    pub g: u8,
    /// Blue, 0..=255.
    pub b: u8,
}

impl Colour {
    /// The colour with these components.
    pub const fn rgb(r: u8, g: u8, b: u8) -> Colour {
        Colour { r, g, b }
    }

    /// The colour as `[r, g, b, 255]`, the byte order of [`crate::Picture::pixel`].
    pub const fn to_rgba(self) -> [u8; 4] {
        [self.r, self.g, self.b, 255]
    }

    /// This colour moved `t` of the way towards `other` (0 = self, 1 = other).
    pub fn mix(self, other: Colour, t: f32) -> Colour {
        let t = t.clamp(0.0, 1.0);
        let lerp = |a: u8, b: u8| (f32::from(a) + (f32::from(b) - f32::from(a)) * t).round() as u8;
        Colour::rgb(
            lerp(self.r, other.r),
            lerp(self.g, other.g),
            lerp(self.b, other.b),
        )
    }

    /// Each component multiplied by `factor`, saturating at 255.
    pub fn scaled(self, factor: f32) -> Colour {
        let f = |c: u8| (f32::from(c) * factor).round().clamp(0.0, 255.0) as u8;
        Colour::rgb(f(self.r), f(self.g), f(self.b))
    }

    /// Black.
    pub const BLACK: Colour = Colour::rgb(0, 0, 0);
    /// White.
    pub const WHITE: Colour = Colour::rgb(255, 255, 255);
    /// A cyan that stands out on every ground colour; the first overlay path.
    pub const CYAN: Colour = Colour::rgb(0, 229, 255);
    /// A yellow for overlay points.
    pub const YELLOW: Colour = Colour::rgb(255, 221, 0);
    /// A pink for overlay paths.
    pub const PINK: Colour = Colour::rgb(255, 105, 200);
    /// A yellow-green for overlay paths, lighter and yellower than the start marker's green.
    pub const LIME: Colour = Colour::rgb(190, 255, 40);
    /// A blue-violet for overlay paths, bluer than the magenta of region borders.
    pub const VIOLET: Colour = Colour::rgb(160, 120, 255);
    /// A bright green, the colour of path starts.
    pub const GREEN: Colour = Colour::rgb(40, 220, 60);
    /// A bright red, the colour of path goals.
    pub const RED: Colour = Colour::rgb(255, 40, 40);
}

/// The colours of the picture. Chosen so that every class stays apart from the height tint:
/// the tint is green, tan, brown and white, so walkability uses darkness, walls use a saturated
/// red-orange, borders a magenta, water blue.
pub mod palette {
    use super::Colour;

    /// Background of the picture outside the map, and of the legend.
    pub const PAPER: Colour = Colour::rgb(246, 244, 238);
    /// Text and frames.
    pub const INK: Colour = Colour::rgb(28, 28, 32);
    /// Secondary text.
    pub const INK_SOFT: Colour = Colour::rgb(96, 96, 104);
    /// Blocked tiles and closed cells, before relief shading.
    pub const BLOCKED: Colour = Colour::rgb(44, 42, 46);
    /// Regions inside the world's bounding box that have no file.
    pub const MISSING: Colour = Colour::rgb(150, 150, 156);
    /// Hatching over missing regions.
    pub const MISSING_HATCH: Colour = Colour::rgb(128, 128, 134);
    /// Walls: internal edges with a blocking flag.
    pub const WALL: Colour = Colour::rgb(255, 72, 24);
    /// Region borders.
    pub const REGION_BORDER: Colour = Colour::rgb(236, 60, 236);
    /// Global edges: where the border can be crossed.
    pub const GLOBAL_EDGE: Colour = Colour::rgb(255, 190, 255);
    /// Objects owned by a region in the picture.
    pub const OBJECT: Colour = Colour::rgb(255, 214, 10);
    /// Outline of object markers, for contrast on light ground.
    pub const OBJECT_EDGE: Colour = Colour::rgb(20, 20, 20);
    /// Objects owned by a region outside the picture.
    pub const OBJECT_FOREIGN: Colour = Colour::rgb(80, 220, 255);
    /// Floors and decks of object meshes.
    pub const OBJECT_FLOOR: Colour = Colour::rgb(244, 240, 232);
    /// Object mesh walls: outline edges that refuse entering or leaving.
    pub const OBJECT_WALL: Colour = Colour::rgb(120, 40, 20);
    /// Doorways: passable outline edges of object meshes.
    pub const OBJECT_DOORWAY: Colour = Colour::rgb(40, 200, 90);
    /// Link edges of object meshes (to the terrain or another object).
    pub const OBJECT_LINK: Colour = Colour::rgb(0, 150, 255);
    /// Underpass sides of object meshes (bridges).
    pub const OBJECT_UNDERPASS: Colour = Colour::rgb(110, 110, 120);
    /// Siege gate lines across object meshes.
    pub const OBJECT_SIEGE: Colour = Colour::rgb(200, 0, 120);
    /// A dungeon object's collision circle.
    pub const COLLISION: Colour = Colour::rgb(255, 160, 0);
    /// Open water.
    pub const WATER: Colour = Colour::rgb(52, 116, 214);
    /// Water over blocked tiles (too deep to walk).
    pub const WATER_BLOCKED: Colour = Colour::rgb(28, 64, 140);
    /// Ice.
    pub const ICE: Colour = Colour::rgb(200, 244, 255);
}

/// Stops of the height tint, from lowest (0) to highest (1): lowland green, upland tan,
/// mountain brown, rock grey, snow white, as on a physical map.
const TINT: [(f32, Colour); 6] = [
    (0.00, Colour::rgb(58, 118, 58)),
    (0.35, Colour::rgb(136, 176, 88)),
    (0.56, Colour::rgb(208, 198, 126)),
    (0.74, Colour::rgb(166, 124, 78)),
    (0.89, Colour::rgb(140, 126, 112)),
    (1.00, Colour::rgb(248, 248, 248)),
];

/// The tint of relative height `t` (0 = lowest, 1 = highest in the picture).
pub fn height_tint(t: f32) -> Colour {
    let t = if t.is_nan() { 0.5 } else { t.clamp(0.0, 1.0) };
    for pair in TINT.windows(2) {
        let ((t0, c0), (t1, c1)) = (pair[0], pair[1]);
        if t <= t1 {
            return c0.mix(c1, (t - t0) / (t1 - t0));
        }
    }
    TINT[TINT.len() - 1].1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tint_runs_from_green_to_white() {
        let low = height_tint(0.0);
        assert!(
            low.g > low.r && low.g > low.b,
            "low ground is green: {low:?}"
        );
        assert_eq!(height_tint(1.0), Colour::rgb(248, 248, 248));
        assert_eq!(height_tint(f32::NAN), height_tint(0.5));
        assert_eq!(height_tint(-3.0), low);
    }

    #[test]
    fn mix_and_scale() {
        assert_eq!(
            Colour::BLACK.mix(Colour::WHITE, 0.5),
            Colour::rgb(128, 128, 128)
        );
        assert_eq!(Colour::rgb(200, 10, 0).scaled(2.0), Colour::rgb(255, 20, 0));
    }
}
