//! The seeded random numbers of tests and benches: the same inputs on every machine, with no
//! dependency whose stream could change between versions. It is the world generator's own
//! generator ([`silknav::rng`]), so a test can replay what a generated world drew.

pub use silknav::rng::SplitMix64;
