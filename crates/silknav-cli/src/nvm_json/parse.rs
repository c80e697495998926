//! A strict JSON parser (RFC 8259) into a tree that keeps every number as the text written.
//!
//! serde_json's `Value` stores numbers as `f64`, and reading a decimal into `f64` and then into
//! `f32` rounds twice: `7.038531e-26`, the shortest decimal of the `f32` with bits `15ae43fd`,
//! lands exactly on the midpoint between two `f32` as an `f64` and comes back one bit off. Parsing
//! the text straight to `f32` rounds once and is exact. Keeping the text also lets errors quote a
//! value as written (`1.0` where an integer belongs), and this parser rejects duplicate keys,
//! which `Value` would resolve silently by keeping the last.

use super::JsonError;
use std::borrow::Cow;
use std::collections::HashSet;

/// A parsed JSON value. Strings borrow from the text unless they hold escapes.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Json<'t> {
    Null,
    Bool(bool),
    /// The number exactly as written, checked against the JSON grammar.
    Number(&'t str),
    String(Cow<'t, str>),
    Array(Vec<Json<'t>>),
    /// Members in document order; keys are unique.
    Object(Vec<(Cow<'t, str>, Json<'t>)>),
}

/// Arrays and objects nested deeper than this are refused, so that hostile input cannot
/// overflow the stack of the recursive descent (serde_json has the same limit).
const MAX_DEPTH: usize = 128;

/// Objects with more members than this check for duplicate keys through a hash set; smaller
/// ones (every object of a dump) compare keys pairwise, which is faster at that size.
const PAIRWISE_KEYS: usize = 16;

/// Parses a whole document.
///
/// # Errors
/// Text that is not UTF-8 or not JSON, or an object with a repeated key, with the line and
/// column: `line 2 column 11: expected a value, found 's'`.
pub(super) fn parse(bytes: &[u8]) -> Result<Json<'_>> {
    let text = std::str::from_utf8(bytes).map_err(|e| {
        let at = Parser::new(std::str::from_utf8(&bytes[..e.valid_up_to()]).unwrap_or(""));
        at.error_at(e.valid_up_to(), "the text is not UTF-8")
    })?;
    let mut p = Parser::new(text);
    p.skip_space();
    let value = p.value(0)?;
    p.skip_space();
    if p.pos < p.bytes.len() {
        return Err(p.error(format_args!(
            "expected the end of the document, found {}",
            p.found()
        )));
    }
    Ok(value)
}

struct Parser<'t> {
    text: &'t str,
    bytes: &'t [u8],
    pos: usize,
}

type Result<T> = std::result::Result<T, JsonError>;

impl<'t> Parser<'t> {
    fn new(text: &'t str) -> Parser<'t> {
        Parser {
            text,
            bytes: text.as_bytes(),
            pos: 0,
        }
    }

    fn error(&self, message: impl std::fmt::Display) -> JsonError {
        self.error_at(self.pos, message)
    }

    fn error_at(&self, pos: usize, message: impl std::fmt::Display) -> JsonError {
        let before = &self.text[..pos.min(self.text.len())];
        let line = before.matches('\n').count() + 1;
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        let column = before[line_start..].chars().count() + 1;
        JsonError::new("", format_args!("line {line} column {column}: {message}"))
    }

    /// What is at the current position, for error messages.
    fn found(&self) -> String {
        match self.text[self.pos..].chars().next() {
            None => "the end of the input".to_owned(),
            Some(c) if c.is_control() => format!("{c:?}"),
            Some(c) => format!("'{c}'"),
        }
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    fn skip_space(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.peek() {
            self.pos += 1;
        }
    }

    fn expect(&mut self, byte: u8, what: &str) -> Result<()> {
        if self.peek() == Some(byte) {
            self.pos += 1;
            Ok(())
        } else {
            Err(self.error(format_args!("expected {what}, found {}", self.found())))
        }
    }

    fn value(&mut self, depth: usize) -> Result<Json<'t>> {
        match self.peek() {
            Some(b'{') => self.object(depth + 1),
            Some(b'[') => self.array(depth + 1),
            Some(b'"') => self.string().map(Json::String),
            Some(b't') => self.literal("true", Json::Bool(true)),
            Some(b'f') => self.literal("false", Json::Bool(false)),
            Some(b'n') => self.literal("null", Json::Null),
            Some(b'-' | b'0'..=b'9') => self.number(),
            _ => Err(self.error(format_args!("expected a value, found {}", self.found()))),
        }
    }

    fn literal(&mut self, word: &str, value: Json<'t>) -> Result<Json<'t>> {
        if self.text[self.pos..].starts_with(word) {
            self.pos += word.len();
            Ok(value)
        } else {
            Err(self.error(format_args!("expected a value, found {}", self.found())))
        }
    }

    fn enter(&self, depth: usize) -> Result<()> {
        if depth > MAX_DEPTH {
            return Err(self.error(format_args!("nested deeper than {MAX_DEPTH} levels")));
        }
        Ok(())
    }

    fn array(&mut self, depth: usize) -> Result<Json<'t>> {
        self.enter(depth)?;
        self.pos += 1; // '['
        let mut items = Vec::new();
        self.skip_space();
        if self.peek() == Some(b']') {
            self.pos += 1;
            return Ok(Json::Array(items));
        }
        loop {
            self.skip_space();
            items.push(self.value(depth)?);
            self.skip_space();
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b']') => {
                    self.pos += 1;
                    return Ok(Json::Array(items));
                }
                _ => {
                    return Err(
                        self.error(format_args!("expected ',' or ']', found {}", self.found()))
                    )
                }
            }
        }
    }

    fn object(&mut self, depth: usize) -> Result<Json<'t>> {
        self.enter(depth)?;
        self.pos += 1; // '{'
        let mut members: Vec<(Cow<'t, str>, Json<'t>)> = Vec::new();
        let mut seen: Option<HashSet<Cow<'t, str>>> = None;
        self.skip_space();
        if self.peek() == Some(b'}') {
            self.pos += 1;
            return Ok(Json::Object(members));
        }
        loop {
            self.skip_space();
            let key_at = self.pos;
            if self.peek() != Some(b'"') {
                return Err(self.error(format_args!(
                    "expected a key in quotes, found {}",
                    self.found()
                )));
            }
            let key = self.string()?;
            let repeated = match &mut seen {
                Some(set) => !set.insert(key.clone()),
                None => members.iter().any(|(k, _)| *k == key),
            };
            if repeated {
                return Err(self.error_at(key_at, format_args!("duplicate key {:?}", key.as_ref())));
            }
            self.skip_space();
            self.expect(b':', "':'")?;
            self.skip_space();
            let value = self.value(depth)?;
            members.push((key, value));
            if seen.is_none() && members.len() > PAIRWISE_KEYS {
                seen = Some(members.iter().map(|(k, _)| k.clone()).collect());
            }
            self.skip_space();
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b'}') => {
                    self.pos += 1;
                    return Ok(Json::Object(members));
                }
                _ => {
                    return Err(
                        self.error(format_args!("expected ',' or '}}', found {}", self.found()))
                    )
                }
            }
        }
    }

    fn string(&mut self) -> Result<Cow<'t, str>> {
        self.pos += 1; // '"'
        let start = self.pos;
        // Fast path: no escapes, borrowed from the text.
        while let Some(b) = self.peek() {
            match b {
                b'"' => {
                    self.pos += 1;
                    return Ok(Cow::Borrowed(&self.text[start..self.pos - 1]));
                }
                b'\\' => break,
                0x00..=0x1f => return Err(self.error("control character in a string (escape it)")),
                _ => self.pos += 1,
            }
        }
        let mut out = String::from(&self.text[start..self.pos]);
        loop {
            let Some(b) = self.peek() else {
                return Err(self.error("unterminated string"));
            };
            match b {
                b'"' => {
                    self.pos += 1;
                    return Ok(Cow::Owned(out));
                }
                b'\\' => {
                    self.pos += 1;
                    out.push(self.escape()?);
                }
                0x00..=0x1f => return Err(self.error("control character in a string (escape it)")),
                _ => {
                    // Copy a whole UTF-8 character; `pos` is always on a character boundary.
                    let c = self.text[self.pos..].chars().next().unwrap_or('\u{fffd}');
                    out.push(c);
                    self.pos += c.len_utf8();
                }
            }
        }
    }

    /// The character an escape after `\` stands for.
    fn escape(&mut self) -> Result<char> {
        let Some(b) = self.peek() else {
            return Err(self.error("unterminated string"));
        };
        self.pos += 1;
        Ok(match b {
            b'"' => '"',
            b'\\' => '\\',
            b'/' => '/',
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'u' => {
                let first = self.hex4()?;
                match first {
                    0xd800..=0xdbff => {
                        // A high surrogate must be followed by an escaped low one.
                        if !self.text[self.pos..].starts_with("\\u") {
                            return Err(self.error("unpaired surrogate in a \\u escape"));
                        }
                        self.pos += 2;
                        let second = self.hex4()?;
                        if !(0xdc00..=0xdfff).contains(&second) {
                            return Err(self.error("unpaired surrogate in a \\u escape"));
                        }
                        let code = 0x10000 + ((first - 0xd800) << 10) + (second - 0xdc00);
                        char::from_u32(code).unwrap_or('\u{fffd}')
                    }
                    0xdc00..=0xdfff => return Err(self.error("unpaired surrogate in a \\u escape")),
                    _ => char::from_u32(first).unwrap_or('\u{fffd}'),
                }
            }
            _ => {
                self.pos -= 1;
                return Err(self.error(format_args!("unknown escape \\{}", self.found())));
            }
        })
    }

    fn hex4(&mut self) -> Result<u32> {
        let digits = self
            .bytes
            .get(self.pos..self.pos + 4)
            .filter(|d| d.iter().all(u8::is_ascii_hexdigit));
        let Some(digits) = digits else {
            return Err(self.error("expected four hex digits after \\u"));
        };
        let text = std::str::from_utf8(digits).unwrap_or("0");
        self.pos += 4;
        Ok(u32::from_str_radix(text, 16).unwrap_or(0))
    }

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, returned as written.
    fn number(&mut self) -> Result<Json<'t>> {
        let start = self.pos;
        if self.peek() == Some(b'-') {
            self.pos += 1;
        }
        match self.peek() {
            Some(b'0') => self.pos += 1,
            Some(b'1'..=b'9') => self.digits(),
            _ => return Err(self.error(format_args!("expected a digit, found {}", self.found()))),
        }
        if self.peek() == Some(b'.') {
            self.pos += 1;
            self.required_digits()?;
        }
        if let Some(b'e' | b'E') = self.peek() {
            self.pos += 1;
            if let Some(b'+' | b'-') = self.peek() {
                self.pos += 1;
            }
            self.required_digits()?;
        }
        Ok(Json::Number(&self.text[start..self.pos]))
    }

    fn digits(&mut self) {
        while let Some(b'0'..=b'9') = self.peek() {
            self.pos += 1;
        }
    }

    fn required_digits(&mut self) -> Result<()> {
        if !matches!(self.peek(), Some(b'0'..=b'9')) {
            return Err(self.error(format_args!("expected a digit, found {}", self.found())));
        }
        self.digits();
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(text: &str) -> Json<'_> {
        parse(text.as_bytes()).unwrap_or_else(|e| panic!("{text}: {e}"))
    }

    fn err(text: &[u8]) -> String {
        parse(text).unwrap_err().to_string()
    }

    #[test]
    fn values() {
        assert_eq!(ok(" null "), Json::Null);
        assert_eq!(
            ok("[true,false]"),
            Json::Array(vec![Json::Bool(true), Json::Bool(false)])
        );
        assert_eq!(ok("-0.0"), Json::Number("-0.0"));
        assert_eq!(ok("1.5E+3"), Json::Number("1.5E+3"));
        assert_eq!(
            ok(r#""a\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00""#),
            Json::String("a\"\\/\u{8}\u{c}\n\r\té😀".into())
        );
        assert_eq!(ok("\"é\""), Json::String("é".into()));
        let inner = Json::Object(vec![("b".into(), Json::Null)]);
        assert_eq!(
            ok(r#"{"a": [1, {"b": null}], "c": "d"}"#),
            Json::Object(vec![
                ("a".into(), Json::Array(vec![Json::Number("1"), inner])),
                ("c".into(), Json::String("d".into())),
            ])
        );
        assert_eq!(ok("{}"), Json::Object(vec![]));
        assert_eq!(ok("[ ]"), Json::Array(vec![]));
    }

    #[test]
    fn errors_have_line_and_column() {
        assert_eq!(
            err(b""),
            "line 1 column 1: expected a value, found the end of the input"
        );
        assert_eq!(
            err(b"{\n\"a\": x"),
            "line 2 column 6: expected a value, found 'x'"
        );
        assert_eq!(
            err(b"{} x"),
            "line 1 column 4: expected the end of the document, found 'x'"
        );
        assert_eq!(
            err(b"[1 2]"),
            "line 1 column 4: expected ',' or ']', found '2'"
        );
        assert_eq!(
            err(b"{\"a\":1 \"b\"}"),
            "line 1 column 8: expected ',' or '}', found '\"'"
        );
        assert_eq!(
            err(b"{1:2}"),
            "line 1 column 2: expected a key in quotes, found '1'"
        );
        assert_eq!(
            err(b"{\"a\" 1}"),
            "line 1 column 6: expected ':', found '1'"
        );
        assert_eq!(
            err(b"{\"a\":1,\"a\":2}"),
            "line 1 column 8: duplicate key \"a\""
        );
        assert_eq!(err(b"\"\xff\""), "line 1 column 2: the text is not UTF-8");
        assert_eq!(
            err(b"\"a\nb\""),
            "line 1 column 3: control character in a string (escape it)"
        );
        assert_eq!(err(b"\"abc"), "line 1 column 5: unterminated string");
        assert_eq!(err(b"\"\\x\""), "line 1 column 3: unknown escape \\'x'");
        assert_eq!(
            err(b"\"\\ud800\""),
            "line 1 column 8: unpaired surrogate in a \\u escape"
        );
        assert_eq!(
            err(b"\"\\u12\""),
            "line 1 column 4: expected four hex digits after \\u"
        );
        assert_eq!(err(b"tru"), "line 1 column 1: expected a value, found 't'");
        for bad in ["01", "1.", ".5", "1e", "-", "+1", "1e+", "NaN", "Infinity"] {
            assert!(parse(bad.as_bytes()).is_err(), "{bad}");
        }
    }

    #[test]
    fn duplicate_keys_are_found_in_large_objects_too() {
        let mut text: String = (0..40).map(|i| format!("\"k{i}\":{i},")).collect();
        text.insert(0, '{');
        text.push_str("\"k3\":0}");
        assert!(err(text.as_bytes()).contains("duplicate key \"k3\""));
    }

    #[test]
    fn deep_nesting_is_refused_not_a_stack_overflow() {
        let deep = "[".repeat(100_000);
        assert!(err(deep.as_bytes()).ends_with("nested deeper than 128 levels"));
        let fine = format!("{}{}", "[".repeat(128), "]".repeat(128));
        assert!(parse(fine.as_bytes()).is_ok());
    }
}
