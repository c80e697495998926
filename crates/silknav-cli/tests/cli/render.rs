//! `silknav render`: PNG pictures of world folders and single files.

use crate::support::*;
use jmxv::RegionId;
use silknav::files::WorldFiles;
use silknav_render::{object_shapes, render, render_world, Overlay, RenderOptions};

/// The `W`x`H` and scale a render's stdout line reports.
fn reported(stdout: &str, out: &str) -> ((u32, u32), String) {
    let rest = stdout
        .strip_prefix(&format!("{out}: "))
        .unwrap_or_else(|| panic!("{stdout}"));
    let (size, rest) = rest.split_once(" pixels, scale ").unwrap();
    let (w, h) = size.split_once('x').unwrap();
    let scale = rest.split(' ').next().unwrap().to_owned();
    ((w.parse().unwrap(), h.parse().unwrap()), scale)
}

#[test]
fn a_world_folder_becomes_the_librarys_picture() {
    let dir = temp();
    let w = gen_world(dir.path(), "w", 4, "2x2");
    let run = silknav(dir.path(), &["render", "w", "-o", "w.png"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let png = std::fs::read(dir.path().join("w.png")).unwrap();
    let (size, scale) = reported(&run.stdout, "w.png");
    assert_eq!(png_size(&png), size);
    assert!(scale.parse::<f64>().is_ok_and(|s| s > 0.0), "{scale}");
    assert!(run
        .stdout
        .ends_with(&format!(" per tile, {} bytes\n", png.len())));

    let files = WorldFiles::read_dir(&w).unwrap();
    let shapes = object_shapes(files.object_ifo.as_ref().unwrap(), &files.object_files);
    assert!(!shapes.is_empty(), "the generated world's object meshes");
    let expected = render_world(
        &files.navmeshes,
        &shapes,
        &RenderOptions::default(),
        &Overlay::default(),
    )
    .unwrap();
    assert!(png == expected.encode_png(), "not the library's picture");
}

#[test]
fn one_region_and_a_scale() {
    let dir = temp();
    gen_world(dir.path(), "w", 4, "2x2");
    let whole = silknav(
        dir.path(),
        &["render", "w", "-o", "whole.png", "--scale", "2"],
    );
    assert_eq!(whole.code, 0, "{}", whole.stderr);
    let (whole_size, scale) = reported(&whole.stdout, "whole.png");
    assert_eq!(scale, "2");
    for (id, out) in [("4081", "a.png"), ("nv_4081.nvm", "b.png")] {
        let one = silknav(
            dir.path(),
            &["render", "w", "-o", out, "--region", id, "--scale", "2"],
        );
        assert_eq!(one.code, 0, "{}", one.stderr);
        let (size, _) = reported(&one.stdout, out);
        assert!(
            size.0 < whole_size.0 && size.1 < whole_size.1,
            "{size:?} {whole_size:?}"
        );
        assert_eq!(
            png_size(&std::fs::read(dir.path().join(out)).unwrap()),
            size
        );
    }
    assert_eq!(
        std::fs::read(dir.path().join("a.png")).unwrap(),
        std::fs::read(dir.path().join("b.png")).unwrap()
    );

    let absent = silknav(
        dir.path(),
        &["render", "w", "-o", "c.png", "--region", "4282"],
    );
    assert_eq!(absent.code, 2);
    assert_eq!(
        absent.error_line(),
        "w: region 4282 (nv_4282.nvm) is not in the world"
    );
    let zero = silknav(dir.path(), &["render", "w", "-o", "c.png", "--scale", "0"]);
    assert_eq!(zero.code, 2);
    assert_eq!(
        zero.error_line(),
        "w: scale 0 is not a positive number of pixels per tile"
    );
    assert!(!dir.path().join("c.png").exists());
    for bad in ["40", "nv_40.nvm", "wxyz"] {
        let run = silknav(dir.path(), &["render", "w", "-o", "c.png", "--region", bad]);
        assert_eq!(run.code, 2, "{bad}");
        assert!(
            run.stderr.contains("For more information, try '--help'."),
            "{bad}: {}",
            run.stderr
        );
    }
}

#[test]
fn existing_pictures_are_not_replaced_without_force() {
    let dir = temp();
    gen_world(dir.path(), "w", 4, "1x1");
    std::fs::write(dir.path().join("w.png"), b"mine").unwrap();
    let run = silknav(dir.path(), &["render", "w", "-o", "w.png"]);
    assert_eq!(run.code, 2);
    assert_eq!(
        run.error_line(),
        "w.png: already exists (use --force to replace it)"
    );
    assert_eq!(std::fs::read(dir.path().join("w.png")).unwrap(), b"mine");
    let forced = silknav(dir.path(), &["render", "w", "-o", "w.png", "--force"]);
    assert_eq!(forced.code, 0, "{}", forced.stderr);
    png_size(&std::fs::read(dir.path().join("w.png")).unwrap());
    assert_eq!(
        names_in(dir.path()),
        ["w", "w.png"],
        "no temporary file left"
    );
}

#[test]
fn a_single_file_takes_its_region_from_its_name_or_from_region() {
    let dir = temp();
    let w = gen_world(dir.path(), "w", 4, "1x1");
    let named = silknav(
        dir.path(),
        &["render", "w/navmesh/nv_4080.nvm", "-o", "named.png"],
    );
    assert_eq!(named.code, 0, "{}", named.stderr);
    std::fs::copy(w.join("navmesh/nv_4080.nvm"), dir.path().join("copy.nvm")).unwrap();
    let nameless = silknav(dir.path(), &["render", "copy.nvm", "-o", "x.png"]);
    assert_eq!(nameless.code, 2);
    assert_eq!(
        nameless.error_line(),
        "copy.nvm: the file name does not say the region (nv_XXXX.nvm); name it with --region"
    );
    let told = silknav(
        dir.path(),
        &["render", "copy.nvm", "-o", "told.png", "--region", "4080"],
    );
    assert_eq!(told.code, 0, "{}", told.stderr);
    let named = std::fs::read(dir.path().join("named.png")).unwrap();
    assert!(named == std::fs::read(dir.path().join("told.png")).unwrap());
    let one = WorldFiles::read_dir(&w).unwrap().navmeshes;
    assert_eq!(one.keys().copied().collect::<Vec<_>>(), [RegionId(0x4080)]);
    let expected = render(&one, &RenderOptions::default())
        .unwrap()
        .encode_png();
    assert!(named == expected, "not the library's picture");
}

#[test]
fn export_writes_glb_and_obj_and_refuses_other_extensions() {
    let dir = temp();
    let w = gen_world(dir.path(), "w", 3, "1x1");
    let w = w.to_str().unwrap();
    let run = silknav(dir.path(), &["export", w, "-o", "w.glb"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.starts_with("w.glb: "), "{}", run.stdout);
    let glb = std::fs::read(dir.path().join("w.glb")).unwrap();
    assert_eq!(&glb[..4], b"glTF");
    let run = silknav(
        dir.path(),
        &["export", w, "-o", "w.obj", "--region", "4080"],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let obj = std::fs::read_to_string(dir.path().join("w.obj")).unwrap();
    assert!(obj.contains("\no terrain_4080\n"));
    let again = silknav(dir.path(), &["export", w, "-o", "w.obj"]);
    assert_eq!(again.code, 2);
    assert!(again.error_line().contains("w.obj"), "{}", again.stderr);
    let stl = silknav(dir.path(), &["export", w, "-o", "w.stl"]);
    assert_eq!(stl.code, 2);
    assert!(stl.error_line().contains(".glb"), "{}", stl.stderr);
    let missing = silknav(
        dir.path(),
        &[
            "export",
            w,
            "-o",
            "x.glb",
            "--region",
            "0101",
            "--terrain-only",
        ],
    );
    assert_eq!(missing.code, 2);
    assert!(
        missing
            .error_line()
            .contains("region 0101 is not in the world"),
        "{}",
        missing.stderr
    );
}
