//! JSON paths for error messages (`cells[3].min[1]`), built on the stack as the reader descends
//! and formatted only when an error is made: a dump has some 20,000 values, and formatting a
//! path for each would cost more than reading them.

use std::fmt;

#[derive(Clone, Copy)]
enum Step<'a> {
    Root,
    Key(&'a str),
    Index(usize),
}

/// Where a value sits in the document: a chain of steps back to the root.
#[derive(Clone, Copy)]
pub(super) struct Path<'a> {
    step: Step<'a>,
    parent: Option<&'a Path<'a>>,
}

impl<'a> Path<'a> {
    /// The whole document.
    pub const ROOT: Path<'static> = Path {
        step: Step::Root,
        parent: None,
    };

    /// The value under `key` of the object at this path.
    pub fn key(&'a self, key: &'a str) -> Path<'a> {
        Path {
            step: Step::Key(key),
            parent: Some(self),
        }
    }

    /// The element `index` of the array at this path.
    pub fn index(&'a self, index: usize) -> Path<'a> {
        Path {
            step: Step::Index(index),
            parent: Some(self),
        }
    }
}

impl fmt::Display for Path<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut steps = Vec::new();
        let mut at = Some(self);
        while let Some(path) = at {
            steps.push(path.step);
            at = path.parent;
        }
        let mut first = true;
        for step in steps.iter().rev() {
            match step {
                Step::Root => continue,
                Step::Key(key) if first => f.write_str(key)?,
                Step::Key(key) => write!(f, ".{key}")?,
                Step::Index(i) => write!(f, "[{i}]")?,
            }
            first = false;
        }
        if first {
            // Errors about the document as a whole.
            f.write_str("top level")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_like_the_dump() {
        let root = Path::ROOT;
        assert_eq!(root.to_string(), "top level");
        let cells = root.key("cells");
        let cell = cells.index(3);
        let min = cell.key("min");
        assert_eq!(min.index(1).to_string(), "cells[3].min[1]");
        assert_eq!(root.key("heights").index(9408).to_string(), "heights[9408]");
    }
}
