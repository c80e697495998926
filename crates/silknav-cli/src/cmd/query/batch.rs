//! Queries from standard input: one per line, answers one per line, in order.
//!
//! A line holds the query's numbers separated by blanks; `#` starts a comment that runs to the
//! end of the line, and a line that is blank or only a comment is no query (it gets no answer
//! line). A malformed line gets the answer `error: line N: what`, so that answers stay in step
//! with queries, and makes the command exit with 2 at the end.
//!
//! Answers are buffered. The buffer is flushed whenever reading more input might wait, so a
//! program that writes one query and waits for its answer (a coprocess) never deadlocks, while
//! a file of a million queries is answered with a few large writes. On a terminal, every answer
//! is flushed at once.

use crate::values;
use std::io::{self, BufRead, Read, Write};

/// The most numbers a query takes.
pub const MAX_NUMBERS: usize = 5;

/// Lines of an input, read so that pending answers are flushed before any read that could
/// wait.
pub struct Lines<R> {
    input: io::BufReader<R>,
    line: Vec<u8>,
    number: usize,
}

impl<R: Read> Lines<R> {
    /// Reads lines from `input`, 64 KiB at a time.
    pub fn new(input: R) -> Lines<R> {
        Lines::with_capacity(1 << 16, input)
    }

    fn with_capacity(capacity: usize, input: R) -> Lines<R> {
        Lines {
            input: io::BufReader::with_capacity(capacity, input),
            line: Vec::new(),
            number: 0,
        }
    }

    /// The next line (without its line break) and its 1-based number, or `None` at the end.
    /// `pending` is flushed first whenever the next read could wait for more input.
    ///
    /// # Errors
    /// Reading the input, or flushing `pending`.
    pub fn next(&mut self, pending: &mut impl Write) -> Result<Option<(usize, &[u8])>, BatchError> {
        self.line.clear();
        loop {
            // `fill_buf` reads (and so may wait) only when nothing is buffered.
            if self.input.buffer().is_empty() {
                pending.flush().map_err(BatchError::Output)?;
            }
            let available = self.input.fill_buf().map_err(BatchError::Input)?;
            if available.is_empty() {
                if self.line.is_empty() {
                    return Ok(None);
                }
                break;
            }
            match available.iter().position(|&b| b == b'\n') {
                Some(end) => {
                    self.line.extend_from_slice(&available[..end]);
                    self.input.consume(end + 1);
                    break;
                }
                None => {
                    let all = available.len();
                    self.line.extend_from_slice(available);
                    self.input.consume(all);
                }
            }
        }
        self.number += 1;
        let line = self.line.strip_suffix(b"\r").unwrap_or(&self.line);
        Ok(Some((self.number, line)))
    }
}

/// A failure of the batch loop's own I/O.
#[derive(Debug)]
pub enum BatchError {
    /// Reading the queries failed.
    Input(io::Error),
    /// Flushing the answers failed (a closed pipe, a full disk).
    Output(io::Error),
}

impl BatchError {
    /// The error, labelled with the stream it happened on.
    pub fn into_anyhow(self) -> anyhow::Error {
        match self {
            BatchError::Input(e) => anyhow::Error::new(e).context("standard input"),
            BatchError::Output(e) => anyhow::Error::new(e).context(crate::output::STDOUT),
        }
    }
}

/// [`parse_range`] for a query of exactly `want` numbers.
#[cfg(test)]
pub fn parse(line: &[u8], want: usize) -> Result<Option<([f64; MAX_NUMBERS], usize)>, String> {
    parse_range(line, want, want)
}

/// The numbers of one query line of `min` to `max` numbers: `None` for a blank or
/// comment-only line, an error message for a malformed one.
///
/// # Errors
/// A word that is not a finite number, too few or too many numbers, or text that is not
/// UTF-8.
pub fn parse_range(
    line: &[u8],
    min: usize,
    max: usize,
) -> Result<Option<([f64; MAX_NUMBERS], usize)>, String> {
    let code = match line.iter().position(|&b| b == b'#') {
        Some(comment) => &line[..comment],
        None => line,
    };
    let text = std::str::from_utf8(code).map_err(|_| "not UTF-8 text".to_owned())?;
    let mut numbers = [0.0; MAX_NUMBERS];
    let mut count = 0;
    for word in text.split_ascii_whitespace() {
        if count < MAX_NUMBERS {
            numbers[count] = values::coordinate(word)?;
        }
        count += 1;
    }
    match count {
        0 => Ok(None),
        n if (min..=max).contains(&n) => Ok(Some((numbers, n))),
        n if min == max => Err(format!("expected {min} numbers, found {n}")),
        n => Err(format!("expected {min} to {max} numbers, found {n}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_with_and_without_breaks() {
        let mut lines = Lines::new(&b"1 2\r\n\n# c\n3 4"[..]);
        let mut sink = Vec::new();
        let mut seen = Vec::new();
        while let Some((n, line)) = lines.next(&mut sink).unwrap() {
            seen.push((n, line.to_vec()));
        }
        let expected: Vec<(usize, Vec<u8>)> = vec![
            (1, b"1 2".to_vec()),
            (2, b"".to_vec()),
            (3, b"# c".to_vec()),
            (4, b"3 4".to_vec()),
        ];
        assert_eq!(seen, expected);
    }

    #[test]
    fn pending_answers_are_flushed_before_a_read_that_could_wait() {
        /// Counts flushes.
        struct Flushes(usize);
        impl Write for Flushes {
            fn write(&mut self, b: &[u8]) -> io::Result<usize> {
                Ok(b.len())
            }
            fn flush(&mut self) -> io::Result<()> {
                self.0 += 1;
                Ok(())
            }
        }
        // A two-byte buffer: the reader must refill (and so flush) within every line.
        let mut lines = Lines::with_capacity(2, &b"1 2\n3 4\n"[..]);
        let mut out = Flushes(0);
        lines.next(&mut out).unwrap();
        let after_one = out.0;
        assert!(after_one >= 1);
        lines.next(&mut out).unwrap();
        assert!(out.0 > after_one);
    }

    #[test]
    fn numbers_comments_and_malformed_lines() {
        assert_eq!(parse(b"  ", 2), Ok(None));
        assert_eq!(parse(b"# only a comment", 2), Ok(None));
        let (numbers, n) = parse(b"1.5 -2 # a note", 2).unwrap().unwrap();
        assert_eq!((numbers[0], numbers[1], n), (1.5, -2.0, 2));
        assert_eq!(
            parse(b"1 2 3", 2),
            Err("expected 2 numbers, found 3".to_owned())
        );
        assert_eq!(
            parse(b"1 x", 2),
            Err("expected a finite number, found \"x\"".to_owned())
        );
        assert_eq!(
            parse(b"1 2 3 4 5 6", 4).unwrap_err(),
            "expected 4 numbers, found 6"
        );
        assert_eq!(parse(b"\xff 1", 2).unwrap_err(), "not UTF-8 text");
        assert_eq!(parse_range(b"1 2", 2, 3).unwrap().unwrap().1, 2);
        let (numbers, n) = parse_range(b"1 2 -3.5", 2, 3).unwrap().unwrap();
        assert_eq!((numbers[2], n), (-3.5, 3));
        assert_eq!(
            parse_range(b"1 2 3 4", 2, 3).unwrap_err(),
            "expected 2 to 3 numbers, found 4"
        );
    }
}
