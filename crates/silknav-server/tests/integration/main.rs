//! The server over real sockets on loopback: its answers, its limits, and the viewer in a
//! real headless browser.

mod api;
mod browser;
mod demo_world;
mod limits;
mod support;
