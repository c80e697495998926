//! Values of command-line options that several commands share: world sizes, region origins,
//! region ids and coordinates. Each is a clap value parser, so that a bad value is a usage error
//! (exit 2) that names the option.

use jmxv::RegionId;

/// `--size WxH`: regions along x and z. Zero passes, so that the generator's own message
/// explains why a world needs regions.
///
/// # Errors
/// Not two whole numbers from 0 to 255 joined by `x`.
pub fn size(text: &str) -> Result<(u8, u8), String> {
    pair(text, 'x').ok_or_else(|| {
        format!("expected WxH such as 3x2, with W and H from 0 to 255, found {text:?}")
    })
}

/// `--origin X,Z`: region coordinates. Values past the id space's z ≤ 127 pass, so that the
/// library's message says how far a world may reach.
///
/// # Errors
/// Not two whole numbers from 0 to 255 joined by `,`.
pub fn origin(text: &str) -> Result<(u8, u8), String> {
    pair(text, ',').ok_or_else(|| {
        format!("expected X,Z such as 128,64, with X and Z from 0 to 255, found {text:?}")
    })
}

fn pair(text: &str, separator: char) -> Option<(u8, u8)> {
    let (a, b) = text.split_once(separator)?;
    let number = |s: &str| -> Option<u8> {
        // `u8::from_str` takes a leading `+`; a size of "+2" is more likely a typo.
        s.bytes()
            .all(|b| b.is_ascii_digit())
            .then(|| s.parse().ok())?
    };
    Some((number(a)?, number(b)?))
}

/// `--region`: four hex digits (`4080`, any case) or a navmesh file name (`nv_4080.nvm`).
///
/// # Errors
/// Neither of those.
pub fn region(text: &str) -> Result<RegionId, String> {
    if let Some(id) = RegionId::from_file_name(text) {
        return Ok(id);
    }
    if text.len() == 4 && text.bytes().all(|b| b.is_ascii_hexdigit()) {
        if let Ok(id) = u16::from_str_radix(text, 16) {
            return Ok(RegionId(id));
        }
    }
    Err(format!(
        "expected a region as 4 hex digits (4080) or a file name (nv_4080.nvm), found {text:?}"
    ))
}

/// A world coordinate: a finite decimal number.
///
/// # Errors
/// Not a number, or `inf`/`nan` (which name no place).
pub fn coordinate(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(v) if v.is_finite() => Ok(v),
        _ => Err(format!("expected a finite number, found {text:?}")),
    }
}

/// A distance in world units: a finite number, 0 or more.
///
/// # Errors
/// Not a number, negative, or `inf`/`nan`.
pub fn distance(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(v) if v.is_finite() && v >= 0.0 => Ok(v),
        _ => Err(format!(
            "expected a finite distance of 0 or more, found {text:?}"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances_are_finite_and_not_negative() {
        assert_eq!(distance("0"), Ok(0.0));
        assert_eq!(distance("12.5"), Ok(12.5));
        for bad in ["-1", "inf", "nan", "x"] {
            assert!(distance(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn sizes_and_origins() {
        assert_eq!(size("3x2"), Ok((3, 2)));
        assert_eq!(size("0x1"), Ok((0, 1)));
        for bad in ["3", "3x", "x3", "256x1", "-1x2", "+2x2", "3 x 2", "3,2"] {
            assert!(size(bad).is_err(), "{bad}");
        }
        assert_eq!(origin("128,64"), Ok((128, 64)));
        assert_eq!(origin("0,200"), Ok((0, 200)));
        assert!(origin("128x64").is_err());
    }

    #[test]
    fn regions_by_hex_or_file_name() {
        assert_eq!(region("4080"), Ok(RegionId(0x4080)));
        assert_eq!(region("694E"), Ok(RegionId(0x694e)));
        assert_eq!(region("nv_694e.nvm"), Ok(RegionId(0x694e)));
        for bad in ["408", "40800", "+408", "zzzz", "nv_4080"] {
            assert!(region(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn coordinates_are_finite() {
        assert_eq!(coordinate("-12.5"), Ok(-12.5));
        assert_eq!(coordinate("1e3"), Ok(1000.0));
        for bad in ["nan", "inf", "-inf", "1,5", ""] {
            assert!(coordinate(bad).is_err(), "{bad}");
        }
    }
}
