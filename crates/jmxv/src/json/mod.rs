//! The pieces the lossless JSON documents of the formats share (feature `serde`).
//!
//! Each format's document lives with the format ([`crate::nvm::json`] for navmeshes,
//! [`crate::bms::json`] for object meshes) and is built from the same parts: [`Float`] for
//! bit-exact floats, [`JsonError`] naming the JSON path of a bad value, and strict readers of
//! integers, hex strings, fixed-length arrays and records.
//!
//! The documents are written with serde_json and read by hand-written serde visitors under
//! serde_path_to_error. Numbers reach the readers as the text that was written (serde_json's
//! `RawValue`), so a float is parsed straight from its decimals and never rounded through `f64`.
//! Reading is strict: repeated and unknown keys are errors, and so is a value of the wrong
//! type, quoted in the message.

mod error;
mod float;
pub(crate) mod read;
pub(crate) mod write;

pub use error::JsonError;
pub use float::Float;
