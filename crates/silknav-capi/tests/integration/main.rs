//! Integration tests of the C API, as one test binary: the calls as C makes them
//! ([`calls`]) and the committed header ([`header`]).

// The tests call the C API as a C program does, through raw pointers; each unsafe block says
// why its calls are sound.
#![allow(unsafe_code)]

mod calls;
mod header;
