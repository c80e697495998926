//! Shared helpers of the benchmarks: where criterion keeps its estimates, how the ratios to the
//! physical floor are read and printed, and the inputs several benches share.
//!
//! - [`cache`]: generated worlds kept on disk between runs, under `<target>/bench-worlds/`.
//! - [`memory`]: resident memory from `/proc/self/status` and heap bytes from a counting
//!   allocator.
//! - [`queries`]: seeded query sets over a world (points, walkable points, segments), and
//!   a batch of walks counted by how they ended.
//! - [`town`]: the objects bench's world with objects and its queries.
//! - [`record`]: the date, the machine and atomic writes, for results committed from a run.
//! - [`rects`]: a world's walkable rectangles as a polygon mesh with T-junctions, the input of
//!   the paths bench's competitors.
//! - [`polys`]: those rectangles cut into small convex polygons with their neighbours, the
//!   input Detour takes.
//!
//! Everything printed goes through [`duration`], [`Ratio`] and [`verdict`], so every bench
//! reports in the same words.

pub mod cache;
pub mod memory;
pub mod polys;
pub mod queries;
pub mod record;
pub mod rects;
pub mod town;

use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// The folder criterion saves its results in, found the way criterion finds it:
/// `$CRITERION_HOME`, else `$CARGO_TARGET_DIR/criterion`, else the target directory that
/// `cargo metadata` names, else `target/criterion`.
pub fn criterion_home() -> PathBuf {
    if let Some(home) = std::env::var_os("CRITERION_HOME") {
        return PathBuf::from(home);
    }
    target_dir().join("criterion")
}

/// The build's target directory: `$CARGO_TARGET_DIR`, else the one `cargo metadata` names,
/// else `target`. Cargo runs benches from the package's folder, so a relative `target` is the
/// last resort, not the default.
pub fn target_dir() -> PathBuf {
    if let Some(target) = std::env::var_os("CARGO_TARGET_DIR") {
        return PathBuf::from(target);
    }
    cargo_metadata_target_dir().unwrap_or_else(|| PathBuf::from("target"))
}

/// Whether this process was started by `cargo bench` (criterion's measuring mode) rather than
/// by `cargo test --benches`, which runs each bench once as a smoke test; benches use it to
/// skip minutes of input preparation that a smoke test does not need.
pub fn is_bench_run() -> bool {
    std::env::args().any(|arg| arg == "--bench")
}

fn cargo_metadata_target_dir() -> Option<PathBuf> {
    let cargo = std::env::var_os("CARGO")?;
    let output = std::process::Command::new(cargo)
        .args(["metadata", "--format-version", "1", "--no-deps"])
        .output()
        .ok()?;
    let metadata: serde_json::Value = serde_json::from_slice(&output.stdout).ok()?;
    metadata
        .get("target_directory")?
        .as_str()
        .map(PathBuf::from)
}

/// The median point estimate in nanoseconds of one benchmark (`<group dir>/<function>`), if
/// criterion wrote it at or after `since`.
pub fn median_ns_since(function_dir: &Path, since: SystemTime) -> Option<f64> {
    let path = function_dir.join("new").join("estimates.json");
    let modified = std::fs::metadata(&path).and_then(|m| m.modified()).ok()?;
    if modified < since {
        return None;
    }
    let estimates: serde_json::Value = serde_json::from_slice(&std::fs::read(&path).ok()?).ok()?;
    estimates.get("median")?.get("point_estimate")?.as_f64()
}

/// One operation's median against the floor's.
#[derive(Debug, Clone, PartialEq)]
pub struct Ratio {
    /// The operation.
    pub name: String,
    /// Its median, in nanoseconds.
    pub median_ns: f64,
    /// The floor's median, in nanoseconds.
    pub floor_ns: f64,
    /// What the floor is, as printed after the ratio (`copy`, `random read`).
    pub floor_name: String,
}

impl Ratio {
    /// The ratio of `median_ns` to `floor_ns`, named; the floor is called `copy` until
    /// [`Ratio::against`] names it.
    pub fn new(name: &str, median_ns: f64, floor_ns: f64) -> Ratio {
        Ratio {
            name: name.to_string(),
            median_ns,
            floor_ns,
            floor_name: "copy".to_string(),
        }
    }

    /// The same ratio with the floor called `floor_name`.
    pub fn against(self, floor_name: &str) -> Ratio {
        Ratio {
            floor_name: floor_name.to_string(),
            ..self
        }
    }

    /// How many times the floor the operation takes.
    pub fn times(&self) -> f64 {
        self.median_ns / self.floor_ns
    }

    /// `parse: 2.10× copy (median 31.2 µs vs 14.8 µs)`, and whether it meets `target`.
    pub fn line(&self, target: Option<f64>) -> String {
        let verdict = match target {
            Some(t) => format!(", target ≤ {t}×: {}", verdict(self.times() <= t)),
            None => String::new(),
        };
        format!(
            "{}: {:.2}× {} (median {} vs {}){verdict}",
            self.name,
            self.times(),
            self.floor_name,
            duration(self.median_ns),
            duration(self.floor_ns)
        )
    }
}

/// A duration in the unit that keeps it readable: `4.37 ns`, `812.0 ns`, `31.2 µs`, `4.1 ms`,
/// `1.93 s`. Single-digit nanoseconds keep two decimals, since per-query medians live there.
pub fn duration(ns: f64) -> String {
    if ns < 10.0 {
        format!("{ns:.2} ns")
    } else if ns < 1e3 {
        format!("{ns:.1} ns")
    } else if ns < 1e6 {
        format!("{:.1} µs", ns / 1e3)
    } else if ns < 1e9 {
        format!("{:.1} ms", ns / 1e6)
    } else {
        format!("{:.2} s", ns / 1e9)
    }
}

/// How a target fared, in the word every bench prints: `met` or `MISSED` (loud, to be found
/// in a long log).
pub fn verdict(met: bool) -> &'static str {
    if met {
        "met"
    } else {
        "MISSED"
    }
}

/// `count` things done in `ns` nanoseconds, per second.
pub fn per_second(count: usize, ns: f64) -> f64 {
    count as f64 / (ns / 1e9)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratio_lines() {
        let r = Ratio::new("parse", 31_200.0, 14_800.0);
        assert_eq!(
            r.line(Some(3.0)),
            "parse: 2.11× copy (median 31.2 µs vs 14.8 µs), target ≤ 3×: met"
        );
        assert!(Ratio::new("write", 50_000.0, 10_000.0)
            .line(Some(3.0))
            .ends_with("MISSED"));
        assert_eq!(
            Ratio::new("copy", 1_000.0, 2_000.0).line(None),
            "copy: 0.50× copy (median 1.0 µs vs 2.0 µs)"
        );
        assert_eq!(
            Ratio::new("cell_at", 6.5, 2.6)
                .against("random read")
                .line(None),
            "cell_at: 2.50× random read (median 6.50 ns vs 2.60 ns)"
        );
    }

    #[test]
    fn durations_and_rates() {
        let shown: Vec<String> = [4.371, 812.0, 31_200.0, 4.1e6, 1.934e9]
            .into_iter()
            .map(duration)
            .collect();
        assert_eq!(
            shown,
            ["4.37 ns", "812.0 ns", "31.2 µs", "4.1 ms", "1.93 s"]
        );
        assert_eq!(per_second(256, 0.5e9), 512.0);
        assert_eq!((verdict(true), verdict(false)), ("met", "MISSED"));
    }

    #[test]
    fn reads_fresh_medians_only() {
        let dir = std::env::temp_dir().join(format!("silknav-bench-test-{}", std::process::id()));
        let new = dir.join("f").join("new");
        std::fs::create_dir_all(&new).unwrap();
        let before = SystemTime::now() - std::time::Duration::from_secs(60);
        std::fs::write(
            new.join("estimates.json"),
            r#"{"median":{"point_estimate":1234.5}}"#,
        )
        .unwrap();
        assert_eq!(median_ns_since(&dir.join("f"), before), Some(1234.5));
        let later = SystemTime::now() + std::time::Duration::from_secs(60);
        assert_eq!(median_ns_since(&dir.join("f"), later), None);
        assert_eq!(median_ns_since(&dir.join("missing"), before), None);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
