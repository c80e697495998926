//! A bounds-checked little-endian cursor shared by the binary readers.

use crate::error::{Error, ErrorKind};
use crate::float::F32;
use std::fmt;

/// Where the reader is, for error messages: `cells[12].objects`, `objects[3].links[1]`.
///
/// Kept as a few words and formatted only when an error is made, so that setting it per record
/// costs nothing measurable. Nominally `pub` for the sealed text table rows; this module is
/// private.
#[derive(Clone, Copy, Debug)]
pub struct Place {
    pub list: &'static str,
    pub index: Option<usize>,
    pub field: &'static str,
    pub sub_index: Option<usize>,
}

impl Place {
    pub const fn section(list: &'static str) -> Place {
        Place {
            list,
            index: None,
            field: "",
            sub_index: None,
        }
    }

    pub const fn item(list: &'static str, index: usize, field: &'static str) -> Place {
        Place {
            list,
            index: Some(index),
            field,
            sub_index: None,
        }
    }
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.list)?;
        if let Some(i) = self.index {
            write!(f, "[{i}]")?;
        }
        if !self.field.is_empty() {
            write!(f, ".{}", self.field)?;
        }
        if let Some(i) = self.sub_index {
            write!(f, "[{i}]")?;
        }
        Ok(())
    }
}

/// Reads little-endian values from a byte slice, never past its end.
#[derive(Clone)]
pub(crate) struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
    pub place: Place,
}

impl<'a> Reader<'a> {
    pub fn new(bytes: &'a [u8]) -> Reader<'a> {
        Reader {
            bytes,
            pos: 0,
            place: Place::section(""),
        }
    }

    pub fn left(&self) -> usize {
        self.bytes.len() - self.pos
    }

    pub fn error(&self, kind: ErrorKind) -> Error {
        Error::new(self.pos, self.place, kind)
    }

    pub fn take(&mut self, n: usize) -> Result<&'a [u8], Error> {
        if n > self.left() {
            return Err(self.error(ErrorKind::UnexpectedEnd {
                needed: n,
                left: self.left(),
            }));
        }
        let slice = &self.bytes[self.pos..self.pos + n];
        self.pos += n;
        Ok(slice)
    }

    pub fn array<const N: usize>(&mut self) -> Result<[u8; N], Error> {
        let slice = self.take(N)?;
        let mut out = [0; N];
        out.copy_from_slice(slice);
        Ok(out)
    }

    /// The bytes not read yet, without consuming them.
    pub fn rest_peek(&self) -> &'a [u8] {
        &self.bytes[self.pos..]
    }

    pub fn rest(&mut self) -> &'a [u8] {
        let slice = &self.bytes[self.pos..];
        self.pos = self.bytes.len();
        slice
    }

    pub fn u16(&mut self) -> Result<u16, Error> {
        self.array().map(u16::from_le_bytes)
    }

    pub fn u32(&mut self) -> Result<u32, Error> {
        self.array().map(u32::from_le_bytes)
    }

    /// A count of records, checked against the bytes left so that a corrupt count cannot make
    /// the caller allocate more than the input could ever fill.
    pub fn count(&mut self, count: u64, min_record_len: usize) -> Result<usize, Error> {
        let left = self.left() as u64;
        match count.checked_mul(min_record_len as u64) {
            Some(needed) if needed <= left => Ok(count as usize),
            _ => Err(self.error(ErrorKind::CountTooLarge {
                count,
                min_record_len,
                left: self.left(),
            })),
        }
    }

    /// A section's u32 count: read in section `count_name`, then checked as [`Reader::count`]
    /// against the bytes left, with the place set to the section `name` whose records follow.
    pub fn section_count(
        &mut self,
        count_name: &'static str,
        name: &'static str,
        min_record_len: usize,
    ) -> Result<usize, Error> {
        self.place = Place::section(count_name);
        let stored = self.u32()?;
        self.place = Place::section(name);
        self.count(stored.into(), min_record_len)
    }
}

/// Little-endian decoding of fixed-size fields inside an already bounds-checked record.
pub(crate) fn u16_at(bytes: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([bytes[at], bytes[at + 1]])
}

pub(crate) fn u32_at(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
}

pub(crate) fn f32_at(bytes: &[u8], at: usize) -> F32 {
    F32::from_bits(u32_at(bytes, at))
}
