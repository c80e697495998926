//! Runs the real `silknav` binary on files written to temporary folders.

mod support;

mod dump_pack;
mod info;
mod lint;
mod malformed;
mod testkit;
mod usage;
