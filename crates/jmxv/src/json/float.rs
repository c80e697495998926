//! One `f32` in JSON, bit-exact both ways.
//!
//! A finite value is written as the shortest decimal that reads back to the same `f32`
//! (serde_json's float formatter), so `1920.0` stays `1920.0` and `-0.0` stays `-0.0`. JSON has
//! no NaN or infinity, so those are strings: `"inf"`, `"-inf"` and `"nan:7fc00001"` (the eight
//! hex digits of the bits, because the files hold NaNs with payloads that must come back).
//!
//! Reading parses the decimal text straight to the nearest `f32`. Through `f64`, as serde_json
//! reads numbers, some decimals would round twice: `7.038531e-26`, the shortest decimal of the
//! `f32` with bits `15ae43fd`, lands exactly on the midpoint between two `f32` as an `f64` and
//! would come back one bit off. The number's text reaches this module verbatim (see
//! [`super::read::Scalar`]), and `f32::from_str` rounds once, correctly.

use super::read::{describe, Item, Scalar};
use crate::F32;
use serde::de::{Deserializer, Error as _};
use serde::{Deserialize, Serialize, Serializer};

/// A float that serialises bit-exact: a finite value as the shortest decimal that reads back to
/// the same `f32` (`1920.0`, `-0.0`, `1e-45`), infinities as `"inf"` and `"-inf"`, and NaN as
/// `"nan:XXXXXXXX"` with the eight hex digits of its bits, so that every payload survives.
///
/// The documents read these spellings back to the same bits, parsing the decimal straight to the
/// nearest `f32`.
///
/// ```
/// use jmxv::{json::Float, F32};
///
/// assert_eq!(serde_json::to_string(&Float(F32::from(-0.0)))?, "-0.0");
/// assert_eq!(serde_json::to_string(&Float(F32::from_bits(0x7fc0_0001)))?, r#""nan:7fc00001""#);
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Float(pub F32);

impl Serialize for Float {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let value = self.0.get();
        if value.is_finite() {
            s.serialize_f32(value)
        } else if value.is_nan() {
            s.collect_str(&format_args!("nan:{:08x}", self.0.to_bits()))
        } else if value > 0.0 {
            s.serialize_str("inf")
        } else {
            s.serialize_str("-inf")
        }
    }
}

/// What a float field accepts, for error messages.
pub(crate) const EXPECTED: &str = r#"a number, "inf", "-inf" or "nan:XXXXXXXX""#;

/// Why a JSON value is not a float.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum FloatError {
    /// Not a number nor one of the accepted strings.
    NotAFloat,
    /// A finite number too large for `f32`.
    OutOfRange,
    /// `nan:` followed by bits that are not a NaN.
    NotNan,
}

/// The float a JSON value stands for.
pub(crate) fn from_scalar(value: &Scalar<'_>) -> Result<F32, FloatError> {
    match value {
        Scalar::Number(text) => from_number(text),
        Scalar::String(s) => from_str(s),
        _ => Err(FloatError::NotAFloat),
    }
}

/// The float a JSON number stands for; `text` follows the JSON number grammar.
pub(crate) fn from_number(text: &str) -> Result<F32, FloatError> {
    // `f32::from_str` accepts the whole JSON number grammar and rounds correctly, once.
    let float: f32 = text.parse().map_err(|_| FloatError::NotAFloat)?;
    if float.is_infinite() {
        // A finite decimal must not turn into infinity silently: that is a different value,
        // and the file would not round-trip.
        return Err(FloatError::OutOfRange);
    }
    Ok(F32::from(float))
}

fn from_str(s: &str) -> Result<F32, FloatError> {
    match s {
        "inf" => return Ok(F32::from(f32::INFINITY)),
        "-inf" => return Ok(F32::from(f32::NEG_INFINITY)),
        _ => {}
    }
    let hex = s.strip_prefix("nan:").ok_or(FloatError::NotAFloat)?;
    if hex.len() != 8 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(FloatError::NotAFloat);
    }
    let bits = u32::from_str_radix(hex, 16).map_err(|_| FloatError::NotAFloat)?;
    let float = F32::from_bits(bits);
    if !float.get().is_nan() {
        // `nan:3f800000` would be 1.0 written in a way that hides it; only NaN needs bits.
        return Err(FloatError::NotNan);
    }
    Ok(float)
}

/// The message for a value that is not a float.
pub(crate) fn message(error: FloatError, value: &Scalar<'_>) -> String {
    match error {
        FloatError::NotAFloat => format!("expected {EXPECTED}, found {}", describe(value)),
        FloatError::OutOfRange => format!(
            "{} is beyond the f32 range (write \"inf\" or \"-inf\" for infinity)",
            describe(value)
        ),
        FloatError::NotNan => format!(
            "{} is not a NaN (write the number instead)",
            describe(value)
        ),
    }
}

impl<'de> Item<'de> for F32 {
    const WHAT: &'static str = "numbers";

    fn read<D: Deserializer<'de>>(d: D) -> Result<F32, D::Error> {
        let value = Scalar::deserialize(d)?;
        from_scalar(&value).map_err(|e| D::Error::custom(message(e, &value)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(bits: u32) -> String {
        serde_json::to_string(&Float(F32::from_bits(bits))).unwrap()
    }

    fn scalar(text: &str) -> Scalar<'_> {
        serde_json::from_str(text).unwrap_or_else(|e| panic!("{text}: {e}"))
    }

    fn back(text: &str) -> u32 {
        match from_scalar(&scalar(text)) {
            Ok(f) => f.to_bits(),
            Err(_) => panic!("{text} did not read back"),
        }
    }

    #[test]
    fn special_values_have_fixed_spellings() {
        assert_eq!(text((-0.0f32).to_bits()), "-0.0");
        assert_eq!(back("-0.0"), 0x8000_0000);
        assert_eq!(text(0), "0.0");
        assert_eq!(back("0.0"), 0);
        assert_eq!(text(1920.0f32.to_bits()), "1920.0");
        assert_eq!(text(0x7fc0_0001), r#""nan:7fc00001""#);
        assert_eq!(text(0xffff_ffff), r#""nan:ffffffff""#);
        assert_eq!(text(0x7f80_0001), r#""nan:7f800001""#);
        assert_eq!(text(f32::INFINITY.to_bits()), r#""inf""#);
        assert_eq!(text(f32::NEG_INFINITY.to_bits()), r#""-inf""#);
        for bits in [
            0x7fc0_0001,
            0xffff_ffff,
            0x7f80_0001,
            0x7f80_0000,
            0xff80_0000,
        ] {
            assert_eq!(back(&text(bits)), bits);
        }
        assert_eq!(back(r#""nan:7FC00001""#), 0x7fc0_0001);
        // Escapes in the string are decoded before the spelling is checked.
        assert_eq!(back(r#""\u0069nf""#), f32::INFINITY.to_bits());
    }

    #[test]
    fn shortest_decimals_for_ordinary_and_subnormal_values() {
        assert_eq!(text(0.1f32.to_bits()), "0.1");
        assert_eq!(text(1), "1e-45"); // the smallest subnormal
        assert_eq!(back("1e-45"), 1);
        assert_eq!(back(&text(0x007f_ffff)), 0x007f_ffff); // the largest subnormal
        assert_eq!(back(&text(0x8000_0001)), 0x8000_0001);
        assert_eq!(back(&text(f32::MAX.to_bits())), f32::MAX.to_bits());
        assert_eq!(
            back(&text(f32::MIN_POSITIVE.to_bits())),
            f32::MIN_POSITIVE.to_bits()
        );
        // Integers and long decimals written by hand are accepted and rounded to nearest.
        assert_eq!(back("1920"), 1920.0f32.to_bits());
        assert_eq!(back("0.100000001490116119384765625"), 0.1f32.to_bits());
        assert_eq!(back("1E+3"), 1000.0f32.to_bits());
        // Through f64 this one would round twice and come back as 15ae43fe.
        assert_eq!(text(0x15ae_43fd), "7.038531e-26");
        assert_eq!(back("7.038531e-26"), 0x15ae_43fd);
        assert_eq!(
            (7.038531e-26f64 as f32).to_bits(),
            0x15ae_43fe,
            "the double rounding this module avoids"
        );
    }

    #[test]
    fn rejects_what_is_not_a_float() {
        for bad in [
            "true",
            "null",
            "[]",
            r#""nan""#,
            r#""nan:7fc0001""#,
            r#""Inf""#,
            r#""1.5""#,
            "{}",
        ] {
            assert_eq!(
                from_scalar(&scalar(bad)),
                Err(FloatError::NotAFloat),
                "{bad}"
            );
        }
        assert_eq!(from_number("1e39"), Err(FloatError::OutOfRange));
        assert_eq!(from_number("-3.5e38"), Err(FloatError::OutOfRange));
        assert_eq!(
            from_scalar(&scalar(r#""nan:3f800000""#)),
            Err(FloatError::NotNan)
        );
    }

    /// The bit patterns whose text is easiest to get wrong.
    const EDGES: &[u32] = &[
        0x0000_0000, // +0
        0x8000_0000, // -0
        0x0000_0001, // smallest subnormal
        0x8000_0001,
        0x007f_ffff, // largest subnormal
        0x807f_ffff,
        0x0080_0000, // f32::MIN_POSITIVE
        0x7f7f_ffff, // f32::MAX
        0xff7f_ffff, // f32::MIN
        0x7f80_0000, // inf
        0xff80_0000, // -inf
        0x7fc0_0000, // the quiet NaN
        0x7fc0_0001, // quiet with a payload
        0x7f80_0001, // signalling, smallest payload
        0x7fbf_ffff, // signalling, largest payload
        0xffc0_0000, // negative quiet
        0xff80_0001, // negative signalling
        0xffff_ffff, // every bit
        0x15ae_43fd, // 7.038531e-26: its shortest decimal double-rounds through f64
        0x3dcc_cccd, // 0.1
        0x4b00_0000, // 2^23: integers stop having fractions
        0x4b7f_ffff,
    ];

    /// Checks that `bits` writes and reads back bit-exact, reusing `buf`.
    fn check(bits: u32, buf: &mut Vec<u8>) {
        let float = F32::from_bits(bits);
        buf.clear();
        serde_json::to_writer(&mut *buf, &Float(float)).unwrap();
        let written = std::str::from_utf8(buf).unwrap();
        let got = if float.get().is_finite() {
            // The number reader without the JSON around it, so that the sweep stays fast.
            from_number(written)
        } else {
            from_scalar(&scalar(written))
        };
        assert_eq!(
            got.map(F32::to_bits),
            Ok(bits),
            "{bits:08x} written as {written}"
        );
    }

    /// Every `step`-th bit pattern and its neighbour write and read back bit-exact.
    fn sweep(step: u64) {
        let mut buf = Vec::with_capacity(32);
        let mut bits: u64 = 0;
        while bits <= u64::from(u32::MAX) {
            // The neighbour too when sampling, so that both parities of the last mantissa bit
            // (which decides ties) are covered.
            let neighbour = if step > 1 { 2 } else { 1 };
            for b in (bits..bits + neighbour).filter(|&b| b <= u64::from(u32::MAX)) {
                check(b as u32, &mut buf);
            }
            bits += step;
        }
    }

    #[test]
    fn edge_cases_round_trip() {
        let mut buf = Vec::new();
        for &bits in EDGES {
            check(bits, &mut buf);
            check(bits ^ 1, &mut buf); // and the neighbour with the other last bit
        }
    }

    #[test]
    fn every_f32_sampled_round_trips() {
        // A prime step visits every exponent and many mantissa patterns in a fraction of a second.
        sweep(65_521);
    }

    #[test]
    fn every_4099th_f32_round_trips() {
        // About two million patterns (with neighbours): every exponent with a thousand
        // mantissas each, in a few seconds of a debug build. The full sweep is below.
        sweep(4_099);
    }

    #[test]
    #[ignore = "all 2^32 bit patterns: about 5 minutes in release mode (cargo test --release -- --ignored)"]
    fn every_f32_round_trips() {
        sweep(1);
    }
}
