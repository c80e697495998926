//! Builders of valid and deliberately broken navmesh files, for tests and benches.
