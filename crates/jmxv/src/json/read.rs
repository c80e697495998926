//! Strict reading of JSON documents on serde: the pieces every format's document is made of.
//!
//! A document is read in one pass by hand-written visitors rather than derived ones, because the
//! messages are for a person editing a dump: `expected an integer 0..=255, found 300`, `unknown
//! key (expected one of min, max, objects)`, `expected an array of 9409 numbers, found an array
//! of 9408`, with serde_path_to_error adding the path of the value. Scalars are read as
//! [`Scalar`]s, which keep numbers as written.

use super::error::{end_of, JsonError};
use crate::WriteError;
use serde::de::{
    self, DeserializeSeed, Deserializer, Error as _, IgnoredAny, MapAccess, SeqAccess, Visitor,
};
use serde::Deserialize;
use serde_json::value::RawValue;
use std::borrow::Cow;
use std::fmt;
use std::marker::PhantomData;
use std::str::FromStr;

/// A JSON value where a scalar belongs: numbers exactly as written, strings decoded, and a
/// summary of anything else (for the message that refuses it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Scalar<'de> {
    /// The number's text, which serde_json checked against the JSON grammar.
    Number(&'de str),
    String(Cow<'de, str>),
    Bool(bool),
    Null,
    /// An array, with its length.
    Array(usize),
    Object,
}

impl<'de> Deserialize<'de> for Scalar<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Scalar<'de>, D::Error> {
        // The raw text is the only way past serde_json's number parsing, which goes through
        // f64 (see `float`). Scalars are small, so capturing their text costs little.
        let raw = <&'de RawValue>::deserialize(d)?.get();
        Ok(match raw.as_bytes().first() {
            Some(b'"') => match raw.get(1..raw.len() - 1) {
                Some(inner) if !inner.contains('\\') => Scalar::String(Cow::Borrowed(inner)),
                _ => Scalar::String(Cow::Owned(
                    serde_json::from_str::<String>(raw).map_err(D::Error::custom)?,
                )),
            },
            Some(b'[') => Scalar::Array(
                serde_json::from_str::<Vec<IgnoredAny>>(raw)
                    .map_err(D::Error::custom)?
                    .len(),
            ),
            Some(b'{') => Scalar::Object,
            Some(b't') => Scalar::Bool(true),
            Some(b'f') => Scalar::Bool(false),
            Some(b'n') => Scalar::Null,
            _ => Scalar::Number(raw),
        })
    }
}

/// A short description of a value for error messages (a whole height map would not help).
pub(crate) fn describe(value: &Scalar<'_>) -> String {
    match value {
        Scalar::Null => "null".to_owned(),
        Scalar::Bool(b) => b.to_string(),
        Scalar::Number(text) => (*text).to_owned(),
        Scalar::String(s) => describe_str(s),
        Scalar::Array(n) => format!("an array of {n}"),
        Scalar::Object => "an object".to_owned(),
    }
}

fn describe_str(s: &str) -> String {
    let head: String = s.chars().take(40).collect();
    let quoted = serde_json::to_string(&head).unwrap_or_default();
    if head.len() < s.len() {
        format!("{quoted}…")
    } else {
        quoted
    }
}

/// The error `expected {what}, found {value}`.
pub(crate) fn expected<E: de::Error>(what: impl fmt::Display, found: &Scalar<'_>) -> E {
    E::custom(format_args!("expected {what}, found {}", describe(found)))
}

/// A value of a document read through its own function: numbers, records, whatever an array
/// holds. (`Deserialize` with a message of this crate's making.)
pub(crate) trait Item<'de>: Sized {
    /// What an array of these holds, for messages (`an array of 36 numbers`).
    const WHAT: &'static str;

    /// Reads one value.
    fn read<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error>;
}

/// [`Item::read`] as a seed, for `next_value_seed` and `next_element_seed`.
pub(crate) struct Read<T>(PhantomData<T>);

/// The seed that reads a `T`.
pub(crate) fn read<T>() -> Read<T> {
    Read(PhantomData)
}

impl<'de, T: Item<'de>> DeserializeSeed<'de> for Read<T> {
    type Value = T;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<T, D::Error> {
        T::read(d)
    }
}

/// The unsigned integer types of the formats.
pub(crate) trait Uint: TryFrom<u64> + Copy {
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

/// The integer a JSON value stands for: plain digits within the type's range, nothing else
/// (`1.0`, `true` and `-1` are refused).
pub(crate) fn uint<T: Uint>(value: &Scalar<'_>) -> Option<T> {
    match value {
        // The grammar allows no leading zeros, so digits alone are a plain decimal integer.
        Scalar::Number(text) if text.bytes().all(|b| b.is_ascii_digit()) => {
            text.parse::<u64>().ok().and_then(|n| T::try_from(n).ok())
        }
        _ => None,
    }
}

macro_rules! uint_item {
    ($($t:ty),*) => {$(
        impl<'de> Item<'de> for $t {
            const WHAT: &'static str = "integers";

            fn read<D: Deserializer<'de>>(d: D) -> Result<$t, D::Error> {
                let value = Scalar::deserialize(d)?;
                uint(&value).ok_or_else(|| {
                    expected(format_args!("an integer 0..={}", <$t as Uint>::MAX), &value)
                })
            }
        }
    )*};
}

uint_item!(u8, u16, u32);

/// The signed integer a JSON value stands for: an optional minus and digits within the type's
/// range, nothing else (`1.0`, `1e3` and `true` are refused).
fn int<T: FromStr>(value: &Scalar<'_>) -> Option<T> {
    match value {
        // An optional minus and digits: a plain decimal integer (no fraction, no exponent).
        Scalar::Number(text)
            if text
                .strip_prefix('-')
                .unwrap_or(text)
                .bytes()
                .all(|b| b.is_ascii_digit()) =>
        {
            text.parse::<T>().ok()
        }
        _ => None,
    }
}

/// Implements [`Item`] for signed integer types, each read through [`int`].
macro_rules! int_item {
    ($($t:ty),*) => {$(
        impl<'de> Item<'de> for $t {
            const WHAT: &'static str = "integers";

            fn read<D: Deserializer<'de>>(d: D) -> Result<$t, D::Error> {
                let value = Scalar::deserialize(d)?;
                int(&value).ok_or_else(|| {
                    expected(format_args!("an integer {}..={}", <$t>::MIN, <$t>::MAX), &value)
                })
            }
        }
    )*};
}

int_item!(i16, i32);

/// Bytes from a string of hex digits, two per byte (`len` bytes when given).
pub(crate) fn hex(value: &Scalar<'_>, len: Option<usize>) -> Result<Vec<u8>, String> {
    let what = match len {
        Some(n) => format!("a string of {} hex digits", 2 * n),
        None => "a string of hex digits (two per byte)".to_owned(),
    };
    let refuse = || format!("expected {what}, found {}", describe(value));
    let Scalar::String(digits) = value else {
        return Err(refuse());
    };
    let ok = digits.len() % 2 == 0
        && digits.bytes().all(|b| b.is_ascii_hexdigit())
        && len.map_or(true, |n| digits.len() == 2 * n);
    if !ok {
        return Err(refuse());
    }
    digits
        .as_bytes()
        .chunks_exact(2)
        .map(|pair| {
            std::str::from_utf8(pair)
                .ok()
                .and_then(|text| u8::from_str_radix(text, 16).ok())
                .ok_or_else(refuse)
        })
        .collect()
}

/// Bytes written as a string of hex digits of any length, read through [`hex`].
pub(crate) struct HexBytes(pub(crate) Vec<u8>);

impl<'de> Item<'de> for HexBytes {
    const WHAT: &'static str = "strings";

    fn read<D: Deserializer<'de>>(d: D) -> Result<HexBytes, D::Error> {
        let value = Scalar::deserialize(d)?;
        hex(&value, None).map(HexBytes).map_err(D::Error::custom)
    }
}

/// Lower-case hex digits of `bytes`, as [`hex`] reads them.
pub(crate) fn to_hex(bytes: &[u8]) -> String {
    use std::fmt::Write as _;
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        let _ = write!(s, "{b:02x}");
    }
    s
}

/// What a structured value (an object or an array) does with what it is given; everything
/// else is refused as `expected {EXPECTED}, found …` by [`structured`].
pub(crate) trait Structure<'de>: Sized {
    type Value;
    /// What the value must be (`an object`).
    const EXPECTED: &'static str;

    /// Reads an object; refused unless overridden.
    fn object<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Err(expected(Self::EXPECTED, &Scalar::Object))
    }

    /// Reads an array; refused unless overridden.
    fn array<A: SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
        let n = count(seq, 0)?;
        Err(expected(Self::EXPECTED, &Scalar::Array(n)))
    }
}

/// The number of elements left in `seq`, plus `done` already read.
pub(crate) fn count<'de, A: SeqAccess<'de>>(mut seq: A, done: usize) -> Result<usize, A::Error> {
    let mut n = done;
    while seq.next_element::<IgnoredAny>()?.is_some() {
        n += 1;
    }
    Ok(n)
}

/// Reads a structured value with `structure`, refusing scalars with a message that quotes them.
pub(crate) fn structured<'de, D: Deserializer<'de>, S: Structure<'de>>(
    d: D,
    structure: S,
) -> Result<S::Value, D::Error> {
    d.deserialize_any(Strict(structure))
}

struct Strict<S>(S);

impl<'de, S: Structure<'de>> Visitor<'de> for Strict<S> {
    type Value = S::Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(S::EXPECTED)
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<S::Value, E> {
        Err(expected(S::EXPECTED, &Scalar::Bool(v)))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<S::Value, E> {
        Err(expected(S::EXPECTED, &Scalar::Number(&v.to_string())))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<S::Value, E> {
        Err(expected(S::EXPECTED, &Scalar::Number(&v.to_string())))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<S::Value, E> {
        // The text is gone by now; `{:?}` is its shortest spelling, with the `.0` of JSON.
        Err(expected(S::EXPECTED, &Scalar::Number(&format!("{v:?}"))))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<S::Value, E> {
        Err(expected(S::EXPECTED, &Scalar::String(Cow::Borrowed(v))))
    }

    fn visit_unit<E: de::Error>(self) -> Result<S::Value, E> {
        Err(expected(S::EXPECTED, &Scalar::Null))
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<S::Value, A::Error> {
        self.0.object(map)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<S::Value, A::Error> {
        self.0.array(seq)
    }
}

/// An array of any length.
pub(crate) struct List<T>(PhantomData<T>);

impl<'de, T: Item<'de>> Structure<'de> for List<T> {
    type Value = Vec<T>;
    const EXPECTED: &'static str = "an array";

    fn array<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<T>, A::Error> {
        // The hint is the parser's guess; the elements themselves bound the growth.
        let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(4096));
        while let Some(item) = seq.next_element_seed(read::<T>())? {
            out.push(item);
        }
        Ok(out)
    }
}

impl<'de, T: Item<'de>> Item<'de> for Vec<T> {
    const WHAT: &'static str = "arrays";

    fn read<D: Deserializer<'de>>(d: D) -> Result<Vec<T>, D::Error> {
        structured(d, List(PhantomData))
    }
}

/// An array of exactly as many elements as `slots` holds, read into them.
pub(crate) struct Fixed<'s, T> {
    pub slots: &'s mut [T],
}

impl<'de, T: Item<'de>> Structure<'de> for Fixed<'_, T> {
    type Value = ();
    const EXPECTED: &'static str = "an array";

    fn array<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let len = self.slots.len();
        let wrong = |n: usize| {
            expected(
                format_args!("an array of {len} {}", T::WHAT),
                &Scalar::Array(n),
            )
        };
        for (i, slot) in self.slots.iter_mut().enumerate() {
            match seq.next_element_seed(read::<T>())? {
                Some(value) => *slot = value,
                None => return Err(wrong(i)),
            }
        }
        if seq.next_element::<IgnoredAny>()?.is_some() {
            return Err(wrong(count(seq, len + 1)?));
        }
        Ok(())
    }
}

impl<'de, T: Item<'de>> DeserializeSeed<'de> for Fixed<'_, T> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        structured(d, self)
    }
}

impl<'de, T: Item<'de> + Copy + Default, const N: usize> Item<'de> for [T; N] {
    const WHAT: &'static str = "arrays";

    fn read<D: Deserializer<'de>>(d: D) -> Result<[T; N], D::Error> {
        let mut out = [T::default(); N];
        Fixed { slots: &mut out }.deserialize(d)?;
        Ok(out)
    }
}

/// The keys of one kind of object: each known key at most once, no others.
pub(crate) struct Keys {
    known: &'static [&'static str],
    seen: u64,
}

impl Keys {
    /// The keys of an object that may hold `known` (at most 64).
    pub(crate) fn new(known: &'static [&'static str]) -> Keys {
        debug_assert!(known.len() <= 64);
        Keys { known, seen: 0 }
    }

    /// The index in `known` of the next key, or `None` at the end of the object.
    ///
    /// # Errors
    /// An unknown or repeated key, with the key in the error's path.
    pub(crate) fn next<'de, A: MapAccess<'de>>(
        &mut self,
        map: &mut A,
    ) -> Result<Option<usize>, A::Error> {
        match map.next_key_seed(KeySeed(self.known))? {
            None => Ok(None),
            Some(Some(i)) if self.seen & (1 << i) != 0 => {
                Err(refuse(map, "duplicate key (each key may appear once)"))
            }
            Some(Some(i)) => {
                self.seen |= 1 << i;
                Ok(Some(i))
            }
            Some(None) => {
                let message = format!("unknown key (expected one of {})", self.known.join(", "));
                Err(refuse(map, message))
            }
        }
    }
}

/// The value read for `key`, or the error that the object lacks it.
pub(crate) fn required<T, E: de::Error>(key: &str, value: Option<T>) -> Result<T, E> {
    value.ok_or_else(|| E::custom(format_args!("missing key \"{key}\"")))
}

/// Refuses the value of the key just read, so that the error's path ends in that key.
pub(crate) fn refuse<'de, A: MapAccess<'de>>(map: &mut A, message: impl fmt::Display) -> A::Error {
    match map.next_value_seed(Refuse(message)) {
        Err(e) => e,
        Ok(never) => match never {},
    }
}

struct Refuse<M>(M);

enum Never {}

impl<'de, M: fmt::Display> DeserializeSeed<'de> for Refuse<M> {
    type Value = Never;

    fn deserialize<D: Deserializer<'de>>(self, _: D) -> Result<Never, D::Error> {
        Err(D::Error::custom(self.0))
    }
}

/// Reads a key as its index among the known keys (`None` when unknown), without allocating.
struct KeySeed(&'static [&'static str]);

impl<'de> DeserializeSeed<'de> for KeySeed {
    type Value = Option<usize>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Option<usize>, D::Error> {
        d.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for KeySeed {
    type Value = Option<usize>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a key")
    }

    fn visit_str<E: de::Error>(self, key: &str) -> Result<Option<usize>, E> {
        Ok(self.0.iter().position(|k| *k == key))
    }
}

/// Reads a whole document with serde_json under serde_path_to_error, up to the end of the text:
/// the value that `S`, the format's top-level structure, reads.
///
/// # Errors
/// Text that is not JSON, or whatever `S` refuses, with its path.
pub(crate) fn document<'de, S: Structure<'de> + Default>(
    text: &'de str,
) -> Result<S::Value, JsonError> {
    let mut json = serde_json::Deserializer::from_str(text);
    let value: Top<S, S::Value> = serde_path_to_error::deserialize(&mut json)
        .map_err(|e| JsonError::from_serde(&e.path().to_string(), e.into_inner(), text))?;
    json.end().map_err(|e| JsonError::from_serde("", e, text))?;
    Ok(value.0)
}

/// The value of a whole document, read by its top-level structure `S` (a `Deserialize` for
/// serde_path_to_error).
struct Top<S, V>(V, PhantomData<S>);

impl<'de, S: Structure<'de, Value = V> + Default, V> Deserialize<'de> for Top<S, V> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Top<S, V>, D::Error> {
        structured(d, S::default()).map(|value| Top(value, PhantomData))
    }
}

/// `model` when `check` finds that it writes as a file; otherwise `check`'s [`WriteError`] as a
/// [`JsonError`] at the document path that `path_of` gives for the error's section, with the
/// error's message after its leading `section: `. (A [`WriteError`] names its section like a
/// JSON path already, `cells[4].objects`; `path_of` maps the sections a document keeps
/// elsewhere.)
///
/// # Errors
/// The [`WriteError`] of `check`, at its path in the document.
pub(crate) fn writable<T>(
    model: T,
    check: impl FnOnce(&T) -> Result<(), WriteError>,
    path_of: impl FnOnce(&str) -> String,
) -> Result<T, JsonError> {
    check(&model).map_err(|e| {
        let whole = e.to_string();
        let message = whole
            .strip_prefix(&format!("{}: ", e.section()))
            .unwrap_or(&whole);
        JsonError::at(path_of(e.section()), message)
    })?;
    Ok(model)
}

/// Text from bytes, or the position of the first byte that is not UTF-8.
///
/// # Errors
/// The line and column of the first invalid byte.
pub(crate) fn utf8(bytes: &[u8]) -> Result<&str, super::JsonError> {
    std::str::from_utf8(bytes).map_err(|e| {
        let valid = std::str::from_utf8(&bytes[..e.valid_up_to()]).unwrap_or("");
        let (line, column) = end_of(valid);
        JsonError::syntax(line, column, "the text is not UTF-8")
    })
}

/// Declares how a record is read from an object with the given keys, each required once: a
/// [`Structure`] named `$shape` and the [`Item`] impl of `$t`; `$build` makes the record from
/// the values, bound to the field names.
macro_rules! record {
    ($t:ty, $what:literal, $shape:ident, [$($key:literal => $field:ident: $ft:ty),* $(,)?], $build:expr) => {
        struct $shape;

        impl<'de> $crate::json::read::Structure<'de> for $shape {
            type Value = $t;
            const EXPECTED: &'static str = "an object";

            fn object<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<$t, A::Error> {
                const KEYS: &[&str] = &[$($key),*];
                let mut keys = $crate::json::read::Keys::new(KEYS);
                $(let mut $field: Option<$ft> = None;)*
                while let Some(key) = keys.next(&mut map)? {
                    match KEYS[key] {
                        $($key => {
                            $field = Some(map.next_value_seed($crate::json::read::read::<$ft>())?);
                        })*
                        _ => unreachable!("Keys::next returns indices of KEYS"),
                    }
                }
                $(let $field: $ft = $crate::json::read::required($key, $field)?;)*
                Ok($build)
            }
        }

        impl<'de> $crate::json::read::Item<'de> for $t {
            const WHAT: &'static str = $what;

            fn read<D: serde::de::Deserializer<'de>>(d: D) -> Result<$t, D::Error> {
                $crate::json::read::structured(d, $shape)
            }
        }
    };
}

pub(crate) use record;
