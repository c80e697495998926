//! JSON text → [`NavMesh`], section by section in file order (mirrors `write.rs`).
//!
//! The document is parsed into a [`Json`] tree first (numbers kept as text, see
//! [`super::parse`]) and then walked by hand: a derived `Deserialize` would report a line and
//! column, while a person editing a dump wants to hear `cells[3].min[1]`, and the walk also
//! checks what the types cannot say (fixed lengths, keys that depend on the layout).

use super::float::{self, FloatError};
use super::parse::{self, Json};
use super::path::Path;
use super::write::is_printable;
use super::JsonError;
use jmxv::nvm::{
    boxed_array, Cell, GlobalEdge, InternalEdge, Layout, Link, NavMesh, Object, Planes, Tile,
    HEIGHT_COUNT, PLANE_COUNT, TILE_COUNT,
};
use jmxv::F32;
use std::borrow::Cow;

type Result<T> = std::result::Result<T, JsonError>;

/// Reads the JSON form of a navmesh (see the [module docs](super)).
///
/// The result can always be written: the counts that the file stores in fixed widths are
/// checked too ([`NavMesh::check_writable`]).
///
/// # Errors
/// Text that is not JSON (with its line and column), or JSON that does not describe a navmesh
/// (with the path of the offending value).
pub fn from_slice(bytes: &[u8]) -> Result<NavMesh> {
    let value = parse::parse(bytes)?;
    let mesh = mesh(&value)?;
    // WriteError names its section like a JSON path already (`cells[4].objects`).
    mesh.check_writable().map_err(|e| JsonError::new("", e))?;
    Ok(mesh)
}

const TOP_KEYS: [&str; 13] = [
    "signature",
    "signature_hex",
    "layout",
    "objects",
    "open_cell_count",
    "cells",
    "global_edges",
    "internal_edges",
    "tiles",
    "heights",
    "plane_types",
    "plane_heights",
    "trailing",
];

fn mesh(value: &Json<'_>) -> Result<NavMesh> {
    let root = Path::ROOT;
    let top = Obj::new(value, &root)?;
    let layout = layout(top.get("layout")?, &root.key("layout"))?;
    for key in ["plane_types", "plane_heights"] {
        if !layout.has_planes() && top.contains(key) {
            return Err(not_stored(&root.key(key), layout));
        }
    }
    top.only(&TOP_KEYS)?;

    let signature = signature(&top)?;
    let objects = list(top.get("objects")?, &root.key("objects"), object)?;
    let open_cell_count = uint(top.get("open_cell_count")?, &root.key("open_cell_count"))?;
    let cells = list(top.get("cells")?, &root.key("cells"), cell)?;
    let global_edges = list(
        top.get("global_edges")?,
        &root.key("global_edges"),
        global_edge,
    )?;
    let internal_edges = list(
        top.get("internal_edges")?,
        &root.key("internal_edges"),
        internal_edge,
    )?;
    let tiles = tiles(top.get("tiles")?, &root.key("tiles"), layout)?;
    let heights = float_array::<HEIGHT_COUNT>(top.get("heights")?, &root.key("heights"))?;
    let planes = if layout.has_planes() {
        let types_path = root.key("plane_types");
        let types = fixed(
            top.get("plane_types")?,
            &types_path,
            PLANE_COUNT,
            "integers",
        )?;
        let mut planes = Planes::default();
        for (i, (slot, v)) in planes.types.iter_mut().zip(types).enumerate() {
            *slot = uint(v, &types_path.index(i))?;
        }
        let heights_path = root.key("plane_heights");
        let heights = float_array::<PLANE_COUNT>(top.get("plane_heights")?, &heights_path)?;
        planes.heights.copy_from_slice(&heights[..]);
        planes
    } else {
        Planes::default()
    };
    let trailing_path = root.key("trailing");
    let trailing = hex(top.get("trailing")?, &trailing_path, None)?;
    if layout != Layout::Standard && !trailing.is_empty() {
        return Err(JsonError::new(
            trailing_path,
            format_args!(
                "layout {} cannot carry trailing bytes (the file would read back as another \
                 layout)",
                layout.name()
            ),
        ));
    }
    Ok(NavMesh {
        signature,
        objects,
        open_cell_count,
        cells,
        global_edges,
        internal_edges,
        layout,
        tiles,
        heights,
        planes,
        trailing,
    })
}

fn layout(value: &Json<'_>, path: &Path) -> Result<Layout> {
    const EXPECTED: &str = r#""standard", "tiles4" or "tiles4-noplanes""#;
    match value {
        Json::String(name) => {
            Layout::from_name(name).ok_or_else(|| expected(path, EXPECTED, value))
        }
        _ => Err(expected(path, EXPECTED, value)),
    }
}

fn signature(top: &Obj<'_, '_>) -> Result<[u8; 12]> {
    let (text, hex_digits) = (top.get("signature").ok(), top.get("signature_hex").ok());
    let bytes = match (text, hex_digits) {
        (Some(_), Some(_)) => {
            return Err(JsonError::new(
                top.path.key("signature_hex"),
                r#"give either "signature" or "signature_hex", not both"#,
            ))
        }
        (None, None) => {
            return Err(JsonError::new(
                top.path,
                r#"missing key "signature" (or "signature_hex")"#,
            ))
        }
        (Some(value), None) => {
            let path = top.path.key("signature");
            match value {
                Json::String(s) if s.len() == 12 && is_printable(s.as_bytes()) => {
                    s.as_bytes().to_vec()
                }
                _ => {
                    return Err(expected(
                        &path,
                        "a string of 12 printable ASCII characters (other bytes go in \
                         \"signature_hex\")",
                        value,
                    ))
                }
            }
        }
        (None, Some(value)) => hex(value, &top.path.key("signature_hex"), Some(12))?,
    };
    Ok(bytes
        .try_into()
        .unwrap_or_else(|_| unreachable!("checked to be 12 bytes above")))
}

fn object(value: &Json<'_>, path: &Path) -> Result<Object> {
    let o = Obj::new(value, path)?;
    o.only(&[
        "object_id",
        "position",
        "type",
        "yaw",
        "uid",
        "short0",
        "is_big",
        "is_struct",
        "region_id",
        "links",
    ])?;
    Ok(Object {
        object_id: o.uint("object_id")?,
        position: float_array::<3>(o.get("position")?, &path.key("position")).map(|b| *b)?,
        kind: o.uint("type")?,
        yaw: float(o.get("yaw")?, &path.key("yaw"))?,
        uid: o.uint("uid")?,
        short0: o.uint("short0")?,
        is_big: o.uint("is_big")?,
        is_struct: o.uint("is_struct")?,
        region_id: o.uint("region_id")?,
        links: list(o.get("links")?, &path.key("links"), link)?,
    })
}

fn link(value: &Json<'_>, path: &Path) -> Result<Link> {
    let o = Obj::new(value, path)?;
    o.only(&["link_object", "link_edge", "edge"])?;
    Ok(Link {
        link_object: o.uint("link_object")?,
        link_edge: o.uint("link_edge")?,
        edge: o.uint("edge")?,
    })
}

fn cell(value: &Json<'_>, path: &Path) -> Result<Cell> {
    let o = Obj::new(value, path)?;
    o.only(&["min", "max", "objects"])?;
    Ok(Cell {
        min: o.floats("min")?,
        max: o.floats("max")?,
        objects: list(o.get("objects")?, &path.key("objects"), uint)?,
    })
}

fn global_edge(value: &Json<'_>, path: &Path) -> Result<GlobalEdge> {
    let o = Obj::new(value, path)?;
    o.only(&["a", "b", "flag", "dir", "cell", "region"])?;
    Ok(GlobalEdge {
        a: o.floats("a")?,
        b: o.floats("b")?,
        flag: o.uint("flag")?,
        dir: o.uints("dir")?,
        cell: o.uints("cell")?,
        region: o.uints("region")?,
    })
}

fn internal_edge(value: &Json<'_>, path: &Path) -> Result<InternalEdge> {
    let o = Obj::new(value, path)?;
    o.only(&["a", "b", "flag", "dir", "cell"])?;
    Ok(InternalEdge {
        a: o.floats("a")?,
        b: o.floats("b")?,
        flag: o.uint("flag")?,
        dir: o.uints("dir")?,
        cell: o.uints("cell")?,
    })
}

fn tiles(value: &Json<'_>, path: &Path, layout: Layout) -> Result<Box<[Tile; TILE_COUNT]>> {
    let values = fixed(value, path, TILE_COUNT, "tiles")?;
    let mut tiles = boxed_array(Tile::default());
    for (i, (tile, v)) in tiles.iter_mut().zip(values).enumerate() {
        let tile_path = path.index(i);
        let o = Obj::new(v, &tile_path)?;
        if layout.has_tile_flags() {
            o.only(&["cell", "flag", "texture"])?;
            *tile = Tile {
                cell_index: o.uint("cell")?,
                flag: o.uint("flag")?,
                texture_id: o.uint("texture")?,
            };
        } else {
            for key in ["flag", "texture"] {
                if o.contains(key) {
                    return Err(not_stored(&tile_path.key(key), layout));
                }
            }
            o.only(&["cell"])?;
            tile.cell_index = o.uint("cell")?;
        }
    }
    Ok(tiles)
}

/// A JSON object being read, with its path.
struct Obj<'v, 'p> {
    members: &'v [(Cow<'v, str>, Json<'v>)],
    path: &'p Path<'p>,
}

impl<'v, 'p> Obj<'v, 'p> {
    fn new(value: &'v Json<'v>, path: &'p Path<'p>) -> Result<Obj<'v, 'p>> {
        match value {
            Json::Object(members) => Ok(Obj { members, path }),
            _ => Err(expected(path, "an object", value)),
        }
    }

    fn contains(&self, key: &str) -> bool {
        self.members.iter().any(|(k, _)| k == key)
    }

    fn get(&self, key: &str) -> Result<&'v Json<'v>> {
        self.members
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v)
            .ok_or_else(|| JsonError::new(self.path, format_args!("missing key \"{key}\"")))
    }

    /// Refuses keys outside `known`: a misspelt key would otherwise be dropped silently.
    fn only(&self, known: &[&str]) -> Result<()> {
        match self
            .members
            .iter()
            .map(|(k, _)| k)
            .find(|k| !known.contains(&k.as_ref()))
        {
            None => Ok(()),
            Some(key) => Err(JsonError::new(
                self.path.key(key),
                format_args!("unknown key (expected one of {})", known.join(", ")),
            )),
        }
    }

    fn uint<T: Uint>(&self, key: &str) -> Result<T> {
        uint(self.get(key)?, &self.path.key(key))
    }

    fn uints<T: Uint, const N: usize>(&self, key: &str) -> Result<[T; N]> {
        let path = self.path.key(key);
        let values = fixed(self.get(key)?, &path, N, "integers")?;
        let mut out = [T::default(); N];
        for (i, (slot, v)) in out.iter_mut().zip(values).enumerate() {
            *slot = uint(v, &path.index(i))?;
        }
        Ok(out)
    }

    fn floats<const N: usize>(&self, key: &str) -> Result<[F32; N]> {
        float_array::<N>(self.get(key)?, &self.path.key(key)).map(|b| *b)
    }
}

/// The unsigned integer types of the format.
trait Uint: TryFrom<u64> + Copy + Default {
    const MAX: u64;
}

impl Uint for u8 {
    const MAX: u64 = u8::MAX as u64;
}

impl Uint for u16 {
    const MAX: u64 = u16::MAX as u64;
}

impl Uint for u32 {
    const MAX: u64 = u32::MAX as u64;
}

fn uint<T: Uint>(value: &Json<'_>, path: &Path) -> Result<T> {
    let digits = match value {
        // The grammar allows no leading zeros, so digits alone are a plain decimal integer.
        Json::Number(text) if text.bytes().all(|b| b.is_ascii_digit()) => Some(*text),
        _ => None,
    };
    digits
        .and_then(|d| d.parse::<u64>().ok())
        .and_then(|n| T::try_from(n).ok())
        .ok_or_else(|| expected(path, format_args!("an integer 0..={}", T::MAX), value))
}

fn float(value: &Json<'_>, path: &Path) -> Result<F32> {
    float::from_value(value).map_err(|e| match e {
        FloatError::NotAFloat => expected(path, float::EXPECTED, value),
        FloatError::OutOfRange => JsonError::new(
            path,
            format_args!(
                "{} is beyond the f32 range (write \"inf\" or \"-inf\" for infinity)",
                describe(value)
            ),
        ),
        FloatError::NotNan => JsonError::new(
            path,
            format_args!(
                "{} is not a NaN (write the number instead)",
                describe(value)
            ),
        ),
    })
}

/// A fixed-length float array, on the heap because the height map is 37 KB.
fn float_array<const N: usize>(value: &Json<'_>, path: &Path) -> Result<Box<[F32; N]>> {
    let values = fixed(value, path, N, "numbers")?;
    let mut out = boxed_array(F32::ZERO);
    for (i, (slot, v)) in out.iter_mut().zip(values).enumerate() {
        *slot = float(v, &path.index(i))?;
    }
    Ok(out)
}

fn array<'v>(value: &'v Json<'v>, path: &Path) -> Result<&'v [Json<'v>]> {
    match value {
        Json::Array(items) => Ok(items),
        _ => Err(expected(path, "an array", value)),
    }
}

fn fixed<'v>(value: &'v Json<'v>, path: &Path, len: usize, what: &str) -> Result<&'v [Json<'v>]> {
    let values = array(value, path)?;
    if values.len() != len {
        return Err(expected(
            path,
            format_args!("an array of {len} {what}"),
            value,
        ));
    }
    Ok(values)
}

fn list<'v, T>(
    value: &'v Json<'v>,
    path: &Path,
    read: impl Fn(&'v Json<'v>, &Path) -> Result<T>,
) -> Result<Vec<T>> {
    array(value, path)?
        .iter()
        .enumerate()
        .map(|(i, v)| read(v, &path.index(i)))
        .collect()
}

/// Bytes from a string of hex digits (`len` bytes when given).
fn hex(value: &Json<'_>, path: &Path, len: Option<usize>) -> Result<Vec<u8>> {
    let what = match len {
        Some(n) => format!("a string of {} hex digits", 2 * n),
        None => "a string of hex digits (two per byte)".to_owned(),
    };
    let Json::String(digits) = value else {
        return Err(expected(path, &what, value));
    };
    let ok = digits.len() % 2 == 0
        && digits.bytes().all(|b| b.is_ascii_hexdigit())
        && len.map_or(true, |n| digits.len() == 2 * n);
    if !ok {
        return Err(expected(path, &what, value));
    }
    Ok(digits
        .as_bytes()
        .chunks_exact(2)
        .map(|pair| {
            let text = std::str::from_utf8(pair).unwrap_or_else(|_| unreachable!("ASCII digits"));
            u8::from_str_radix(text, 16).unwrap_or_else(|_| unreachable!("checked hex digits"))
        })
        .collect())
}

fn not_stored(path: &Path, layout: Layout) -> JsonError {
    JsonError::new(
        path,
        format_args!("not stored in layout {}; remove this key", layout.name()),
    )
}

fn expected(path: &Path, what: impl std::fmt::Display, found: &Json<'_>) -> JsonError {
    JsonError::new(
        path,
        format_args!("expected {what}, found {}", describe(found)),
    )
}

/// A short description of a value for error messages (a whole height map would not help).
fn describe(value: &Json<'_>) -> String {
    match value {
        Json::Null => "null".to_owned(),
        Json::Bool(b) => b.to_string(),
        Json::Number(text) => (*text).to_owned(),
        Json::String(s) => {
            let head: String = s.chars().take(40).collect();
            let quoted = serde_json::to_string(&head).unwrap_or_default();
            if head.len() < s.len() {
                format!("{quoted}…")
            } else {
                quoted
            }
        }
        Json::Array(a) => format!("an array of {}", a.len()),
        Json::Object(_) => "an object".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error(text: &str) -> String {
        from_slice(text.as_bytes()).unwrap_err().to_string()
    }

    #[test]
    fn errors_name_the_path() {
        assert_eq!(
            error("[]"),
            "top level: expected an object, found an array of 0"
        );
        assert_eq!(
            error("{"),
            "line 1 column 2: expected a key in quotes, found the end of the input"
        );
        assert_eq!(
            error(r#"{"layout":"tiles8"}"#),
            r#"layout: expected "standard", "tiles4" or "tiles4-noplanes", found "tiles8""#
        );
        assert_eq!(
            error(r#"{"layout":"standard"}"#),
            r#"top level: missing key "signature" (or "signature_hex")"#
        );
        assert_eq!(
            error(r#"{"layout":"tiles4-noplanes","plane_types":[]}"#),
            "plane_types: not stored in layout tiles4-noplanes; remove this key"
        );
        assert!(error(r#"{"layout":"standard","heigths":[]}"#).starts_with("heigths: unknown key"));
    }
}
