//! Usage errors exit 2; help and version exit 0.

use crate::support::*;

#[test]
fn usage_errors_exit_2() {
    let dir = temp();
    std::fs::write(dir.path().join("in.json"), "{}").unwrap();
    for args in [
        &[][..],
        &["frobnicate"],
        &["info"],
        &["lint"],
        &["dump"],
        &["dump", "a.nvm", "--force"], // --force without -o
        &["pack", "in.json"],          // no -o
        &["info", "--bogus", "a.nvm"],
        &["dump", "a.nvm", "b.nvm"],
    ] {
        let run = silknav(dir.path(), args);
        assert_eq!(run.code, 2, "{args:?}: {}", run.stderr);
        assert!(run.stderr.contains("Usage"), "{args:?}: {}", run.stderr);
        assert!(run.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn help_and_version_exit_0() {
    let dir = temp();
    for args in [
        &["--help"][..],
        &["help"],
        &["dump", "--help"],
        &["lint", "-h"],
    ] {
        let run = silknav(dir.path(), args);
        assert_eq!(run.code, 0, "{args:?}");
        assert!(
            run.stdout.contains("Usage: silknav"),
            "{args:?}: {}",
            run.stdout
        );
    }
    let version = silknav(dir.path(), &["--version"]);
    assert_eq!(version.code, 0);
    assert_eq!(
        version.stdout,
        format!("silknav {}\n", env!("CARGO_PKG_VERSION"))
    );
}
