//! [`F32`]: a float kept by its bit pattern.

use std::fmt;

/// An `f32` kept by its exact bit pattern.
///
/// The files hold floats that must come back byte for byte: NaN payloads, `-0.0`, denormals.
/// Comparing by bits makes `parse(write(m)) == m` a meaningful statement even for NaN, which a
/// plain `f32` field could never satisfy.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
#[repr(transparent)]
pub struct F32(u32);

impl F32 {
    /// Positive zero.
    pub const ZERO: F32 = F32(0);

    /// The float with these bits.
    pub const fn from_bits(bits: u32) -> F32 {
        F32(bits)
    }

    /// The stored bits.
    pub const fn to_bits(self) -> u32 {
        self.0
    }

    /// The value as an `f32`.
    pub fn get(self) -> f32 {
        f32::from_bits(self.0)
    }

    /// The stored value, little-endian, as on disk.
    pub const fn to_le_bytes(self) -> [u8; 4] {
        self.0.to_le_bytes()
    }

    /// The float stored in these little-endian bytes.
    pub const fn from_le_bytes(bytes: [u8; 4]) -> F32 {
        F32(u32::from_le_bytes(bytes))
    }
}

impl From<f32> for F32 {
    fn from(value: f32) -> F32 {
        F32(value.to_bits())
    }
}

impl From<F32> for f32 {
    fn from(value: F32) -> f32 {
        value.get()
    }
}

impl fmt::Debug for F32 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let value = self.get();
        if value.is_nan() {
            write!(f, "NaN(0x{:08x})", self.0)
        } else {
            fmt::Debug::fmt(&value, f)
        }
    }
}

impl fmt::Display for F32 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_nan_payload_and_negative_zero() {
        let nan = F32::from_bits(0x7fc0_0001);
        assert_eq!(nan, F32::from_bits(0x7fc0_0001));
        assert!(nan.get().is_nan());
        assert_ne!(F32::from(-0.0), F32::from(0.0));
        assert_eq!(F32::from_le_bytes(nan.to_le_bytes()), nan);
        assert_eq!(format!("{nan:?}"), "NaN(0x7fc00001)");
    }
}
