//! Whole `object.ifo` files as they come: parsing never panics, and a file that parses writes
//! back as exactly the same bytes and reads back as an equal model.
//!
//! Inputs starting with the byte 0xff get the signature line `JMXVOBJI1000\n` in its place, so
//! the fuzzer need not find it to reach the entry lines (see [`silknav_fuzz::ifo_table`]).

#![no_main]

use jmxv::ifo::ObjectEntry;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| silknav_fuzz::ifo_table::<ObjectEntry>(data));
