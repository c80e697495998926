//! What the lines of the text tables share: line breaks, the blanks between fields, numbers,
//! quoted strings. The table around the lines is [`super::table`].
//!
//! Every choice a writer can make when spelling a line (how many digits, which case of hex, how
//! many blanks, which line break) is kept in the model, so a file writes back exactly as it was
//! read. Whatever this grammar cannot keep is refused when reading, with its offset.

use crate::bytes::Place;
use crate::error::{describe_bytes, Error, WriteError};

/// The most digits or blanks in one field: their number is kept in a `u8`.
const MAX_RUN: usize = u8::MAX as usize;

/// How a line ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum LineEnding {
    /// `\n`, what the game's files use.
    #[default]
    Lf,
    /// `\r\n`.
    CrLf,
    /// No line break: the last line of a file that does not end with one.
    None,
}

impl LineEnding {
    /// The bytes of the line break.
    pub const fn as_bytes(self) -> &'static [u8] {
        match self {
            LineEnding::Lf => b"\n",
            LineEnding::CrLf => b"\r\n",
            LineEnding::None => b"",
        }
    }
}

/// A run of blanks between two fields or at the end of a line: only spaces, or only tabs.
///
/// The fields are private so that every value is spelled one way: an empty run is always
/// [`Gap::NONE`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Gap {
    byte: u8,
    len: u8,
}

impl Gap {
    /// One space, what the game's files put between fields.
    pub const SPACE: Gap = Gap { byte: b' ', len: 1 };
    /// Nothing, what the game's files put at the end of a line.
    pub const NONE: Gap = Gap { byte: b' ', len: 0 };

    /// `len` spaces.
    pub const fn spaces(len: u8) -> Gap {
        Gap { byte: b' ', len }
    }

    /// `len` tabs.
    pub const fn tabs(len: u8) -> Gap {
        if len == 0 {
            Gap::NONE
        } else {
            Gap { byte: b'\t', len }
        }
    }

    /// Number of blanks.
    pub const fn len(self) -> usize {
        self.len as usize
    }

    /// Whether the run is empty.
    pub const fn is_empty(self) -> bool {
        self.len == 0
    }

    /// Whether the run is made of tabs.
    pub const fn is_tabs(self) -> bool {
        self.byte == b'\t'
    }

    pub(crate) fn write(self, out: &mut Vec<u8>) {
        out.resize(out.len() + self.len(), self.byte);
    }
}

/// How a numeric field is spelled. Widths are minimums: a value with more digits is written in
/// full.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum NumberFormat {
    /// `0x`, then hex digits zero-padded to `width`. The game writes 8 lower-case digits.
    Hex {
        /// Digits, zero-padded.
        width: u8,
        /// Upper-case digits `A`–`F`.
        upper: bool,
        /// `0X` instead of `0x`.
        upper_prefix: bool,
    },
    /// Decimal digits zero-padded to `width`. Not the game's spelling, but readable.
    Decimal {
        /// Digits, zero-padded.
        width: u8,
    },
}

impl NumberFormat {
    /// The game's spelling of flags and tile types: `0x` and 8 lower-case hex digits.
    pub const GAME: NumberFormat = NumberFormat::Hex {
        width: 8,
        upper: false,
        upper_prefix: false,
    };

    /// Whether the number is written in hex.
    pub const fn is_hex(self) -> bool {
        matches!(self, NumberFormat::Hex { .. })
    }

    pub(crate) fn encoded_len(self, value: u32) -> usize {
        match self {
            NumberFormat::Hex { width, .. } => 2 + usize::from(width).max(hex_len(value)),
            NumberFormat::Decimal { width } => usize::from(width).max(decimal_len(value)),
        }
    }

    pub(crate) fn write(self, value: u32, out: &mut Vec<u8>) {
        match self {
            NumberFormat::Hex {
                width,
                upper,
                upper_prefix,
            } => {
                out.extend_from_slice(if upper_prefix { b"0X" } else { b"0x" });
                write_digits(out, value, 16, width, upper);
            }
            NumberFormat::Decimal { width } => write_digits(out, value, 10, width, false),
        }
    }

    /// The same spelling with the choices that change nothing for `value` made one way: a
    /// width narrower than the value, or upper case for digits without letters.
    fn normalized(self, value: u32) -> NumberFormat {
        match self {
            NumberFormat::Hex {
                width,
                upper,
                upper_prefix,
            } => NumberFormat::Hex {
                width: width.max(hex_len(value) as u8),
                upper: upper && has_hex_letters(value),
                upper_prefix,
            },
            NumberFormat::Decimal { width } => NumberFormat::Decimal {
                width: width.max(decimal_len(value) as u8),
            },
        }
    }
}

/// How an entry line is spelled around its values: the index, one number (flags or tile type),
/// then `GAPS` blanks between the fields, the blanks at the end and the line break.
///
/// Equality of entries compares this only through what it writes (see [`LineFormat::normalized`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct LineFormat<const GAPS: usize> {
    /// Digits of the index, zero-padded; the game writes 5.
    pub index_width: u8,
    /// Spelling of the number after the index.
    pub number: NumberFormat,
    /// Blanks between the fields, in line order; each holds at least one blank.
    pub gaps: [Gap; GAPS],
    /// Blanks after the last field; empty in the game's files.
    pub tail: Gap,
    /// The line break.
    pub ending: LineEnding,
}

impl<const GAPS: usize> LineFormat<GAPS> {
    /// The game's spelling: a 5-digit index, `0x` and 8 lower-case hex digits, single spaces,
    /// nothing at the end, `\n`.
    pub const GAME: LineFormat<GAPS> = LineFormat {
        index_width: 5,
        number: NumberFormat::GAME,
        gaps: [Gap::SPACE; GAPS],
        tail: Gap::NONE,
        ending: LineEnding::Lf,
    };

    /// The same spelling with every choice that changes nothing for these values made one
    /// way, so that two formats are equal exactly when they write the same bytes.
    pub fn normalized(self, index: u32, number: u32) -> LineFormat<GAPS> {
        LineFormat {
            index_width: self.index_width.max(decimal_len(index) as u8),
            number: self.number.normalized(number),
            ..self
        }
    }

    /// Whether the line is spelled as the game spells it, line break aside.
    pub fn is_game_spelling(self, index: u32, number: u32) -> bool {
        let mine = LineFormat {
            ending: LineEnding::Lf,
            ..self.normalized(index, number)
        };
        mine == LineFormat::GAME.normalized(index, number)
    }

    pub(crate) fn index_len(self, index: u32) -> usize {
        usize::from(self.index_width).max(decimal_len(index))
    }

    pub(crate) fn write_index(self, index: u32, out: &mut Vec<u8>) {
        write_digits(out, index, 10, self.index_width, false);
    }

    /// Bytes of a line with this index and number that are not its text fields: the two
    /// numbers, every blank and the line break.
    pub(crate) fn encoded_len(self, index: u32, number: u32) -> usize {
        self.index_len(index)
            + self.number.encoded_len(number)
            + self.gaps.iter().map(|g| g.len()).sum::<usize>()
            + self.tail.len()
            + self.ending.as_bytes().len()
    }

    /// Writes the end of a line: the blanks after the last field, then the line break.
    pub(crate) fn write_end(self, out: &mut Vec<u8>) {
        self.tail.write(out);
        out.extend_from_slice(self.ending.as_bytes());
    }

    /// Checks what the type cannot: that no blank between fields is empty.
    pub(crate) fn check(self, place: Place) -> Result<(), WriteError> {
        if self.gaps.iter().any(|g| g.is_empty()) {
            return Err(WriteError::new(
                place,
                "the blanks between two fields cannot be empty",
            ));
        }
        Ok(())
    }
}

impl<const GAPS: usize> Default for LineFormat<GAPS> {
    fn default() -> LineFormat<GAPS> {
        LineFormat::GAME
    }
}

/// Digits of `value` in decimal.
pub(crate) fn decimal_len(value: u32) -> usize {
    value.checked_ilog10().map_or(1, |l| l as usize + 1)
}

/// Digits of `value` in hex.
fn hex_len(value: u32) -> usize {
    value.checked_ilog2().map_or(1, |l| l as usize / 4 + 1)
}

fn has_hex_letters(mut value: u32) -> bool {
    while value != 0 {
        if value & 0xf >= 10 {
            return true;
        }
        value >>= 4;
    }
    false
}

/// Writes `value` zero-padded to `width` digits, without the allocation `format!` would make
/// for every number of a large table.
pub(crate) fn write_digits(out: &mut Vec<u8>, mut value: u32, radix: u32, width: u8, upper: bool) {
    let letters = if upper { b'A' } else { b'a' };
    let mut digits = [0u8; 32];
    let mut n = 0;
    loop {
        let d = (value % radix) as u8;
        digits[n] = if d < 10 { b'0' + d } else { letters + d - 10 };
        n += 1;
        value /= radix;
        if value == 0 {
            break;
        }
    }
    out.resize(out.len() + usize::from(width).saturating_sub(n), b'0');
    out.extend(digits[..n].iter().rev());
}

/// Whether a line holds nothing but blanks (any mix): such lines may end a file.
pub(crate) fn is_blank(content: &[u8]) -> bool {
    content.iter().all(|&b| b == b' ' || b == b'\t')
}

/// One line of the input, without its line break.
#[derive(Clone, Copy)]
pub(crate) struct Line<'a> {
    /// Offset of the line's first byte in the input.
    pub start: usize,
    pub content: &'a [u8],
    pub ending: LineEnding,
}

/// Splits the input into lines at `\n`; a `\r` just before it belongs to the line break.
#[derive(Clone)]
pub(crate) struct Lines<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Lines<'a> {
    pub fn new(bytes: &'a [u8]) -> Lines<'a> {
        Lines { bytes, pos: 0 }
    }
}

impl<'a> Iterator for Lines<'a> {
    type Item = Line<'a>;

    fn next(&mut self) -> Option<Line<'a>> {
        let rest = self.bytes.get(self.pos..).filter(|r| !r.is_empty())?;
        let start = self.pos;
        let (content, ending, len) = match rest.iter().position(|&b| b == b'\n') {
            Some(i) if i > 0 && rest[i - 1] == b'\r' => (&rest[..i - 1], LineEnding::CrLf, i + 1),
            Some(i) => (&rest[..i], LineEnding::Lf, i + 1),
            None => (rest, LineEnding::None, rest.len()),
        };
        self.pos += len;
        Some(Line {
            start,
            content,
            ending,
        })
    }
}

/// The first two fields of a `.ifo` entry line as read, each with its spelling and the blanks
/// after it: the index, then the number (an object's flags, a tile's kind).
pub(crate) struct LineHead {
    /// The index.
    pub(crate) index: u32,
    /// Digits of the index as stored.
    pub(crate) index_width: u8,
    /// The number after the index.
    pub(crate) number: u32,
    /// How the number is spelled.
    pub(crate) number_format: NumberFormat,
    /// The blanks after the index and after the number.
    pub(crate) gaps: [Gap; 2],
}

/// A cursor over the fields of one line.
pub struct Fields<'a> {
    line: &'a [u8],
    pos: usize,
    start: usize,
    pub ending: LineEnding,
    pub place: Place,
}

impl<'a> Fields<'a> {
    pub(crate) fn new(line: Line<'a>, place: Place) -> Fields<'a> {
        Fields {
            line: line.content,
            pos: 0,
            start: line.start,
            ending: line.ending,
            place,
        }
    }

    fn rest(&self) -> &'a [u8] {
        &self.line[self.pos..]
    }

    /// Reads the first two fields of a `.ifo` entry line, each followed by its blanks: the
    /// index (field `index`), then the number (field `number_field`).
    pub(crate) fn line_head(&mut self, number_field: &'static str) -> Result<LineHead, Error> {
        self.place.field = "index";
        let (index, index_width) = self.decimal()?;
        let gap0 = self.gap()?;
        self.place.field = number_field;
        let (number, number_format) = self.number()?;
        let gap1 = self.gap()?;
        Ok(LineHead {
            index,
            index_width,
            number,
            number_format,
            gaps: [gap0, gap1],
        })
    }

    pub fn peek(&self) -> Option<u8> {
        self.rest().first().copied()
    }

    /// An error at the cursor: `expected`, and what the rest of the line holds.
    pub fn invalid(&self, expected: impl Into<String>) -> Error {
        let rest = self.rest();
        let found = if rest.is_empty() {
            "the end of the line".to_string()
        } else {
            let shown = &rest[..rest.len().min(24)];
            let more = if shown.len() < rest.len() { "…" } else { "" };
            format!("{}{more}", describe_bytes(shown))
        };
        Error::invalid(self.start + self.pos, self.place, expected, found)
    }

    fn invalid_at(&mut self, pos: usize, expected: &str) -> Error {
        self.pos = pos;
        self.invalid(expected)
    }

    fn run(&mut self, keep: impl Fn(u8) -> bool) -> &'a [u8] {
        let rest = self.rest();
        let len = rest.iter().position(|&b| !keep(b)).unwrap_or(rest.len());
        self.pos += len;
        &rest[..len]
    }

    /// Decimal digits, any number of leading zeros: the value and the digit count.
    pub fn decimal(&mut self) -> Result<(u32, u8), Error> {
        let start = self.pos;
        let digits = self.run(|b| b.is_ascii_digit());
        if digits.is_empty() {
            return Err(self.invalid("decimal digits"));
        }
        if digits.len() > MAX_RUN {
            return Err(self.invalid_at(start, "at most 255 digits"));
        }
        match parse_digits(digits, 10) {
            Some(value) => Ok((value, digits.len() as u8)),
            None => Err(self.invalid_at(start, "a number below 2^32")),
        }
    }

    /// Decimal digits without leading zeros, so that the value alone says how it is spelled.
    pub fn plain_decimal(&mut self) -> Result<u32, Error> {
        let start = self.pos;
        let (value, width) = self.decimal()?;
        if usize::from(width) != decimal_len(value) {
            return Err(self.invalid_at(start, "a number without leading zeros"));
        }
        Ok(value)
    }

    /// A number in hex (`0x…`) or, failing the prefix, in decimal.
    pub fn number(&mut self) -> Result<(u32, NumberFormat), Error> {
        let start = self.pos;
        let rest = self.rest();
        if !(rest.len() >= 2 && rest[0] == b'0' && (rest[1] == b'x' || rest[1] == b'X')) {
            let (value, width) = self.decimal()?;
            return Ok((value, NumberFormat::Decimal { width }));
        }
        let upper_prefix = rest[1] == b'X';
        self.pos += 2;
        let digits = self.run(|b| b.is_ascii_hexdigit());
        if digits.is_empty() {
            return Err(self.invalid("hex digits after 0x"));
        }
        if digits.len() > MAX_RUN {
            return Err(self.invalid_at(start, "at most 255 hex digits"));
        }
        let upper = digits.iter().any(u8::is_ascii_uppercase);
        // One case flag per number cannot spell `0xaB`.
        if upper && digits.iter().any(u8::is_ascii_lowercase) {
            return Err(self.invalid_at(start, "hex digits all in one case"));
        }
        let Some(value) = parse_digits(digits, 16) else {
            return Err(self.invalid_at(start, "a number below 2^32"));
        };
        let width = digits.len() as u8;
        Ok((
            value,
            NumberFormat::Hex {
                width,
                upper,
                upper_prefix,
            },
        ))
    }

    /// Zero or more blanks, all spaces or all tabs.
    pub fn blanks(&mut self) -> Result<Gap, Error> {
        let start = self.pos;
        let byte = match self.peek() {
            Some(b @ (b' ' | b'\t')) => b,
            _ => return Ok(Gap::NONE),
        };
        let len = self.run(|b| b == byte).len();
        if matches!(self.peek(), Some(b' ' | b'\t')) {
            return Err(self.invalid_at(start, "blanks of one kind (spaces or tabs, not both)"));
        }
        if len > MAX_RUN {
            return Err(self.invalid_at(start, "at most 255 blanks"));
        }
        Ok(Gap {
            byte,
            len: len as u8,
        })
    }

    /// At least one blank.
    pub fn gap(&mut self) -> Result<Gap, Error> {
        let gap = self.blanks()?;
        if gap.is_empty() {
            return Err(self.invalid("a space"));
        }
        Ok(gap)
    }

    /// A string in double quotes, which cannot itself hold a double quote.
    pub fn quoted(&mut self) -> Result<&'a [u8], Error> {
        if self.peek() != Some(b'"') {
            return Err(self.invalid("an opening quote"));
        }
        let inside = &self.rest()[1..];
        let Some(len) = inside.iter().position(|&b| b == b'"') else {
            return Err(self.invalid("a closing quote on the same line"));
        };
        self.pos += len + 2;
        Ok(&inside[..len])
    }

    /// The byte `byte`, described as `what` when missing.
    pub fn byte(&mut self, byte: u8, what: &str) -> Result<(), Error> {
        if self.peek() != Some(byte) {
            return Err(self.invalid(what));
        }
        self.pos += 1;
        Ok(())
    }

    /// Nothing left on the line.
    pub fn end(&self) -> Result<(), Error> {
        if self.pos != self.line.len() {
            return Err(self.invalid("the end of the line"));
        }
        Ok(())
    }
}

fn parse_digits(digits: &[u8], radix: u32) -> Option<u32> {
    digits.iter().try_fold(0u32, |value, &b| {
        let digit = char::from(b).to_digit(radix)?;
        value.checked_mul(radix)?.checked_add(digit)
    })
}

/// One entry line of a table: read, measured, written and checked the same way for every
/// table.
///
/// Nominally `pub` (as are [`Fields`] and [`Place`]) only so that it can seal the public
/// [`Entry`](super::table::Entry): this module is private, so no one outside the crate can
/// name or implement it.
pub trait Row: Sized {
    /// Reads the fields of one line (the cursor's place names the entry).
    fn read(fields: &mut Fields<'_>) -> Result<Self, Error>;
    /// The index, the first field.
    fn index(&self) -> u32;
    fn ending(&self) -> LineEnding;
    /// Bytes of the line, line break included.
    fn encoded_len(&self) -> usize;
    fn write(&self, out: &mut Vec<u8>);
    /// Checks that the line can be written and read back as itself.
    fn check(&self, place: Place) -> Result<(), WriteError>;
}

/// Checks that a quoted field can be written: no quote (it would end the field) and no line
/// break (it would end the line).
pub(crate) fn check_quoted(place: Place, text: &[u8]) -> Result<(), WriteError> {
    if let Some(b) = text.iter().find(|&&b| b == b'"' || b == b'\n') {
        return Err(WriteError::new(
            place,
            format_args!("a quoted field cannot hold the byte 0x{b:02x}"),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spell(value: u32, format: NumberFormat) -> String {
        let mut out = Vec::new();
        format.write(value, &mut out);
        assert_eq!(out.len(), format.encoded_len(value));
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn numbers_are_spelled_with_minimum_widths() {
        assert_eq!(spell(0xab, NumberFormat::GAME), "0x000000ab");
        let upper = NumberFormat::Hex {
            width: 2,
            upper: true,
            upper_prefix: true,
        };
        assert_eq!(spell(0x1abc, upper), "0X1ABC");
        assert_eq!(spell(0, NumberFormat::Decimal { width: 0 }), "0");
        assert_eq!(
            spell(u32::MAX, NumberFormat::Decimal { width: 3 }),
            "4294967295"
        );
        assert_eq!(
            (decimal_len(9), decimal_len(10), hex_len(0xf), hex_len(0x10)),
            (1, 2, 1, 2)
        );
    }

    #[test]
    fn normalizing_keeps_only_what_shows() {
        let upper = NumberFormat::Hex {
            width: 1,
            upper: true,
            upper_prefix: false,
        };
        assert_eq!(
            upper.normalized(0x19),
            NumberFormat::Hex {
                width: 2,
                upper: false,
                upper_prefix: false
            }
        );
        assert_eq!(
            upper.normalized(0x1a),
            NumberFormat::Hex {
                width: 2,
                upper: true,
                upper_prefix: false
            }
        );
    }

    #[test]
    fn lines_split_at_lf_and_keep_cr_with_it() {
        let lines: Vec<_> = Lines::new(b"a\r\nb\n\rc")
            .map(|l| (l.start, l.content, l.ending))
            .collect();
        assert_eq!(
            lines,
            [
                (0, &b"a"[..], LineEnding::CrLf),
                (3, &b"b"[..], LineEnding::Lf),
                (5, &b"\rc"[..], LineEnding::None),
            ]
        );
        assert_eq!(Lines::new(b"").count(), 0);
    }
}
