//! Shared helpers of the benchmarks: where criterion keeps its estimates, and how the ratios
//! to the physical floor are read and printed.

use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// The folder criterion saves its results in, found the way criterion finds it:
/// `$CRITERION_HOME`, else `$CARGO_TARGET_DIR/criterion`, else the target directory that
/// `cargo metadata` names, else `target/criterion`.
pub fn criterion_home() -> PathBuf {
    if let Some(home) = std::env::var_os("CRITERION_HOME") {
        return PathBuf::from(home);
    }
    if let Some(target) = std::env::var_os("CARGO_TARGET_DIR") {
        return PathBuf::from(target).join("criterion");
    }
    cargo_metadata_target_dir()
        .map(|dir| dir.join("criterion"))
        .unwrap_or_else(|| PathBuf::from("target/criterion"))
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
}

impl Ratio {
    /// The ratio of `median_ns` to `floor_ns`, named.
    pub fn new(name: &str, median_ns: f64, floor_ns: f64) -> Ratio {
        Ratio {
            name: name.to_string(),
            median_ns,
            floor_ns,
        }
    }

    /// How many times the floor the operation takes.
    pub fn times(&self) -> f64 {
        self.median_ns / self.floor_ns
    }

    /// `parse: 2.10× copy (median 31.2 µs vs 14.8 µs)`, and whether it meets `target`.
    pub fn line(&self, target: Option<f64>) -> String {
        let verdict = match target {
            Some(t) if self.times() <= t => format!(", target ≤ {t}×: met"),
            Some(t) => format!(", target ≤ {t}×: MISSED"),
            None => String::new(),
        };
        format!(
            "{}: {:.2}× copy (median {} vs {}){verdict}",
            self.name,
            self.times(),
            micros(self.median_ns),
            micros(self.floor_ns)
        )
    }
}

fn micros(ns: f64) -> String {
    format!("{:.1} µs", ns / 1000.0)
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
