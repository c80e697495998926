//! One `f32` in JSON, bit-exact both ways.
//!
//! A finite value is written as the shortest decimal that reads back to the same `f32`
//! (serde_json's float formatter), so `1920.0` stays `1920.0` and `-0.0` stays `-0.0`. JSON has
//! no NaN or infinity, so those are strings: `"inf"`, `"-inf"` and `"nan:7fc00001"` (the eight
//! hex digits of the bits, because the files hold NaNs with payloads that must come back).
//!
//! Reading parses the decimal text straight to the nearest `f32` (see [`super::parse`] for why
//! not through `f64`), so every value reads back bit-exact; the `every_f32_*` tests check that
//! over all bit patterns.

use super::parse::Json;
use jmxv::F32;
use serde::{Serialize, Serializer};

/// A float serialised as described in the module docs (the query commands write heights so).
#[derive(Clone, Copy)]
pub(crate) struct Float(pub F32);

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
pub(super) const EXPECTED: &str = r#"a number, "inf", "-inf" or "nan:XXXXXXXX""#;

/// Why a JSON value is not a float.
pub(super) enum FloatError {
    /// Not a number nor one of the accepted strings.
    NotAFloat,
    /// A finite number too large for `f32`.
    OutOfRange,
    /// `nan:` followed by bits that are not a NaN.
    NotNan,
}

/// The float a JSON value stands for.
pub(super) fn from_value(value: &Json<'_>) -> Result<F32, FloatError> {
    match value {
        Json::Number(text) => {
            // The parser checked the JSON number grammar, which `f32::from_str` accepts whole;
            // it rounds correctly, once.
            let float: f32 = text.parse().map_err(|_| FloatError::NotAFloat)?;
            if float.is_infinite() {
                // A finite decimal must not turn into infinity silently: that is a different
                // value, and the file would not round-trip.
                return Err(FloatError::OutOfRange);
            }
            Ok(F32::from(float))
        }
        Json::String(s) => from_str(s),
        _ => Err(FloatError::NotAFloat),
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    fn text(bits: u32) -> String {
        serde_json::to_string(&Float(F32::from_bits(bits))).unwrap()
    }

    fn back(text: &str) -> u32 {
        let value = super::super::parse::parse(text.as_bytes()).unwrap();
        match from_value(&value) {
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
        ] {
            let value = super::super::parse::parse(bad.as_bytes()).unwrap();
            assert!(
                matches!(from_value(&value), Err(FloatError::NotAFloat)),
                "{bad}"
            );
        }
        assert!(matches!(
            from_value(&Json::Number("1e39")),
            Err(FloatError::OutOfRange)
        ));
        assert!(matches!(
            from_value(&Json::Number("-3.5e38")),
            Err(FloatError::OutOfRange)
        ));
        let one = Json::String(r#"nan:3f800000"#.into());
        assert!(matches!(from_value(&one), Err(FloatError::NotNan)));
    }

    /// Every `step`-th bit pattern writes and reads back bit-exact.
    fn sweep(step: u64) {
        let mut buf = Vec::with_capacity(32);
        let mut bits: u64 = 0;
        while bits <= u64::from(u32::MAX) {
            // The neighbour too when sampling, so that both parities of the last mantissa bit
            // (which decides ties) are covered.
            let neighbour = if step > 1 { 2 } else { 1 };
            for b in (bits..bits + neighbour).map(|b| b as u32) {
                let float = F32::from_bits(b);
                if !float.get().is_finite() {
                    assert_eq!(back(&text(b)), b);
                    continue;
                }
                // The same writer and number reader as `text` and `back`, without the
                // allocations, so that the exhaustive run takes minutes rather than an hour.
                buf.clear();
                serde_json::to_writer(&mut buf, &Float(float)).unwrap();
                let written = std::str::from_utf8(&buf).unwrap();
                let got = match from_value(&Json::Number(written)) {
                    Ok(f) => f.to_bits(),
                    Err(_) => panic!("{written} did not read back"),
                };
                assert_eq!(got, b, "bits {b:08x} written as {written}");
            }
            bits += step;
        }
    }

    #[test]
    fn every_f32_sampled_round_trips() {
        // A prime step visits every exponent and many mantissa patterns in a fraction of a second.
        sweep(65_521);
    }

    #[test]
    #[ignore = "all 2^32 bit patterns: about 5 minutes in release mode (cargo test --release -- --ignored)"]
    fn every_f32_round_trips() {
        sweep(1);
    }
}
