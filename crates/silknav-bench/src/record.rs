//! Recording a run in a committed file: the date, the machine, and a write that never leaves a
//! half-written file behind.

use std::io;
use std::path::Path;
use std::time::{SystemTime, UNIX_EPOCH};

/// The UTC calendar date of `time` as `YYYY-MM-DD` (dates before 1970 print as 1970-01-01).
pub fn utc_date(time: SystemTime) -> String {
    let days = time
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() / 86_400) as i64;
    // Days since 1970-01-01 to the proleptic Gregorian calendar, by 400-year eras of 146,097
    // days counted from 0000-03-01 (so that the leap day ends a year).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z - era * 146_097;
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_from_march = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * month_from_march + 2) / 5 + 1;
    let month = if month_from_march < 10 {
        month_from_march + 3
    } else {
        month_from_march - 9
    };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}

/// The machine in one line: the CPUs this process may use (what `nproc` prints) and the CPU
/// model from `/proc/cpuinfo` (`unknown CPU` where there is none).
pub fn machine() -> String {
    let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
    let model = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|info| cpu_model(&info))
        .unwrap_or_else(|| "unknown CPU".to_string());
    format!("{cpus} CPUs (nproc), {model}")
}

/// The first `model name` of a `/proc/cpuinfo` text.
fn cpu_model(cpuinfo: &str) -> Option<String> {
    cpuinfo.lines().find_map(|line| {
        let (key, value) = line.split_once(':')?;
        (key.trim() == "model name").then(|| value.trim().to_string())
    })
}

/// Writes `text` to `path` through a temporary file beside it and a rename, so that readers
/// see the old file or the new one, never a part.
///
/// # Errors
/// Writing the temporary file or renaming it failed; the temporary file is removed.
pub fn write_atomically(path: &Path, text: &str) -> io::Result<()> {
    let name = path
        .file_name()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "no file name"))?;
    let mut temporary = name.to_os_string();
    temporary.push(format!(".{}.tmp", std::process::id()));
    let temporary = path.with_file_name(temporary);
    let written = std::fs::write(&temporary, text).and_then(|()| std::fs::rename(&temporary, path));
    if written.is_err() {
        let _ = std::fs::remove_file(&temporary);
    }
    written
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn dates_in_utc() {
        let at = |secs: u64| utc_date(UNIX_EPOCH + Duration::from_secs(secs));
        assert_eq!(at(0), "1970-01-01");
        assert_eq!(at(86_399), "1970-01-01");
        assert_eq!(at(951_782_400), "2000-02-29");
        assert_eq!(at(951_868_800), "2000-03-01");
        assert_eq!(at(1_709_164_800), "2024-02-29");
        assert_eq!(at(1_735_689_599), "2024-12-31");
        assert_eq!(at(1_764_633_600), "2025-12-02");
    }

    #[test]
    fn cpu_model_from_cpuinfo() {
        let info = "processor\t: 0\nvendor_id\t: GenuineIntel\nmodel name\t: Example CPU @ 2.00GHz\n\nprocessor\t: 1\nmodel name\t: Example CPU @ 2.00GHz\n";
        assert_eq!(cpu_model(info).as_deref(), Some("Example CPU @ 2.00GHz"));
        assert_eq!(cpu_model("processor\t: 0\n"), None);
        assert!(machine().contains("CPUs (nproc)"));
    }

    #[test]
    fn atomic_writes_replace_the_whole_file() {
        let dir = std::env::temp_dir().join(format!("silknav-record-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("RESULTS.md");
        write_atomically(&path, "a long first version\n").unwrap();
        write_atomically(&path, "second\n").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "second\n");
        let left: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
        assert_eq!(left.len(), 1, "no temporary file is left behind");
        assert!(write_atomically(&dir.join("missing").join("x.md"), "x").is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
