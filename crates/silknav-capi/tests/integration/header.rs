//! The committed header is what cbindgen generates from the crate now, so it never goes
//! stale. `SILKNAV_BLESS=1 cargo test -p silknav-capi --test integration header` rewrites it.

use std::path::Path;

#[test]
fn the_committed_header_is_current() {
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let config = cbindgen::Config::from_file(crate_dir.join("cbindgen.toml")).unwrap();
    let mut generated = Vec::new();
    cbindgen::Builder::new()
        .with_crate(crate_dir)
        .with_config(config)
        .generate()
        .expect("cbindgen reads the crate")
        .write(&mut generated);
    let generated = String::from_utf8(generated).unwrap();
    let committed_path = crate_dir.join("include").join("silknav.h");
    if std::env::var_os("SILKNAV_BLESS").is_some() {
        std::fs::write(&committed_path, &generated).unwrap();
    }
    let committed = std::fs::read_to_string(&committed_path).unwrap_or_default();
    assert!(
        committed == generated,
        "include/silknav.h differs from what cbindgen generates; run \
         `SILKNAV_BLESS=1 cargo test -p silknav-capi --test integration header` and commit the header"
    );
    for name in [
        "silknav_world_load",
        "silknav_world_free",
        "silknav_last_error_message",
        "silknav_path_free",
        "typedef struct silknav_world silknav_world;",
        "#define SILKNAV_ERROR_PANIC -5",
    ] {
        assert!(generated.contains(name), "the header declares {name}");
    }
}
