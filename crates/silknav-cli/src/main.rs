//! The `silknav` command line.

fn main() {}
