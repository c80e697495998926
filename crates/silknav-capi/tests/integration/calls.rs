//! The C API called as C calls it, through raw pointers: answers equal the library's
//! (`silknav::query`), batches equal single calls, failures give their status and the
//! command line's message, and bad pointers are refused. (`examples/c/query.c`, built by CI,
//! checks the answers against the command line's from C itself.)

use silknav::files::Overwrite;
use silknav::query::{self, PointQuery, SegmentQuery};
use silknav::world::movement::{DistanceGuard, MoveOptions, MoveStop};
use silknav::worldgen::{generate, GenOptions, DEFAULT_ORIGIN};
use silknav::{PathOptions, PathScratch, Surface};
use silknav_capi::*;
use silknav_testkit::rng::SplitMix64;
use std::ffi::{CStr, CString};
use std::path::Path;
use std::ptr;
use std::sync::OnceLock;

/// A generated 2×2 data root with objects, written once for all tests.
fn world_dir() -> &'static Path {
    static DIR: OnceLock<tempfile::TempDir> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        generate(&GenOptions {
            seed: 2,
            width: 2,
            height: 2,
            origin: DEFAULT_ORIGIN,
            ..GenOptions::default()
        })
        .unwrap()
        .into_files()
        .write_data_root(dir.path(), Overwrite::Refuse)
        .unwrap();
        dir
    })
    .path()
}

fn c_path(path: &Path) -> CString {
    CString::new(path.to_str().unwrap()).unwrap()
}

/// A world handle and the same world loaded by the library, freed on drop.
struct Loaded {
    handle: *mut silknav_world,
    world: silknav::World,
    paths: silknav::PathIndex,
}

impl Loaded {
    fn new() -> Loaded {
        let mut handle = ptr::null_mut();
        // SAFETY: a valid C string and out pointer.
        let status = unsafe { silknav_world_load(c_path(world_dir()).as_ptr(), 0, &mut handle) };
        assert_eq!(status, SILKNAV_OK, "{:?}", last_message());
        assert!(!handle.is_null());
        let world = silknav::World::load(world_dir()).unwrap();
        let paths = silknav::PathIndex::build(&world);
        Loaded {
            handle,
            world,
            paths,
        }
    }
}

impl Drop for Loaded {
    fn drop(&mut self) {
        // SAFETY: the handle is live and freed once.
        unsafe { silknav_world_free(self.handle) };
    }
}

/// A result without a path, as C would zero one.
fn empty_path() -> silknav_path {
    silknav_path {
        reason: SILKNAV_REASON_NONE,
        length: 0.0,
        exact_length: 0.0,
        count: 0,
        waypoints: ptr::null_mut(),
    }
}

fn last_message() -> Option<String> {
    let message = silknav_last_error_message();
    (!message.is_null()).then(|| {
        // SAFETY: a C string valid until the next failure on this thread.
        unsafe { CStr::from_ptr(message) }
            .to_str()
            .unwrap()
            .to_owned()
    })
}

fn word(reason: silknav_reason) -> &'static str {
    // SAFETY: silknav_reason_word returns a static C string.
    unsafe { CStr::from_ptr(silknav_reason_word(reason)) }
        .to_str()
        .unwrap()
}

/// Points over the world and around it, some outside the id space.
fn points(n: usize, seed: u64) -> Vec<[f64; 2]> {
    let (x0, z0) = (
        f64::from(DEFAULT_ORIGIN.0) * 1920.0,
        f64::from(DEFAULT_ORIGIN.1) * 1920.0,
    );
    let mut rng = SplitMix64::new(seed);
    let mut out: Vec<[f64; 2]> = (0..n)
        .map(|_| {
            [
                x0 - 50.0 + rng.unit() * 3940.0,
                z0 - 50.0 + rng.unit() * 3940.0,
            ]
        })
        .collect();
    out.push([-3.0, 7.0]);
    out
}

#[test]
fn cells_and_heights_equal_the_librarys() {
    let w = Loaded::new();
    let (mut yes, mut objects) = (0, 0);
    for p in points(3000, 1) {
        for y in [None, Some(35.0f32)] {
            let mut cell = silknav_cell_result::default();
            let mut height = 0.0f32;
            // SAFETY: a live handle and valid out pointers.
            let (cs, hs) = unsafe {
                match y {
                    None => (
                        silknav_cell(w.handle, p[0], p[1], &mut cell),
                        silknav_height(w.handle, p[0], p[1], &mut height),
                    ),
                    Some(y) => (
                        silknav_cell_y(w.handle, p[0], p[1], y, &mut cell),
                        silknav_height_y(w.handle, p[0], p[1], y, &mut height),
                    ),
                }
            };
            let want = query::cell(
                &w.world,
                PointQuery {
                    y,
                    ..PointQuery::new(p[0], p[1])
                },
            );
            assert_eq!(
                cs,
                if want.is_some() {
                    SILKNAV_OK
                } else {
                    SILKNAV_NO
                }
            );
            assert_eq!(
                cell,
                want.map(silknav_cell_result::from).unwrap_or_default()
            );
            if let Some(c) = want {
                assert_eq!((cell.region, cell.cell), (c.region.0, c.cell));
                assert_eq!(cell.on_object, c.object.is_some());
                objects += usize::from(cell.on_object);
            }
            match query::height(
                &w.world,
                PointQuery {
                    y,
                    ..PointQuery::new(p[0], p[1])
                },
            ) {
                Some(h) => {
                    assert_eq!((hs, height.to_bits()), (SILKNAV_OK, h.to_bits()));
                    yes += 1;
                }
                None => assert!(hs == SILKNAV_NO && height.is_nan()),
            }
        }
    }
    assert!(
        yes > 5000 && objects > 0,
        "{yes} heights, {objects} object cells"
    );
}

/// A search budget that some of the test's paths exceed.
const BUDGET: usize = 10;

#[test]
fn line_of_sight_moves_and_paths_equal_the_librarys() {
    let w = Loaded::new();
    let ends = points(600, 2);
    let mut kinds = std::collections::BTreeSet::new();
    let mut scratch = PathScratch::with_budget(BUDGET);
    let mut segments: Vec<[f64; 4]> = ends
        .chunks_exact(2)
        .map(|p| [p[0][0], p[0][1], p[1][0], p[1][1]])
        .collect();
    // From open ground to outside the id space.
    let open = ends
        .iter()
        .find(|p| {
            query::cell(&w.world, PointQuery::new(p[0], p[1])).is_some_and(|c| c.object.is_none())
        })
        .unwrap();
    segments.push([open[0], open[1], -3.0, 7.0]);
    for s in segments {
        let mut hit = silknav_hit::default();
        // SAFETY: a live handle and a valid out pointer.
        let status = unsafe { silknav_raycast(w.handle, s[0], s[1], s[2], s[3], &mut hit) };
        match query::los(&w.world, seg(s)) {
            Ok(None) => assert_eq!(status, SILKNAV_OK),
            Ok(Some(h)) => {
                assert_eq!((status, hit.reason), (SILKNAV_NO, SILKNAV_REASON_NONE));
                assert_eq!(
                    (hit.x, hit.z, hit.t),
                    (h.point.world_x(), h.point.world_z(), h.t)
                );
                assert_eq!(hit.normal, h.normal);
                kinds.insert("blocked");
            }
            Err(e) => {
                assert_eq!((status, word(hit.reason)), (SILKNAV_NO, e.word()));
                kinds.insert(e.word());
            }
        }

        let mut walk = silknav_move_result::default();
        // SAFETY: a live handle and a valid out pointer.
        let status = unsafe { silknav_move(w.handle, s[0], s[1], s[2], s[3], &mut walk) };
        match query::move_along(&w.world, seg(s), &MoveOptions::default()) {
            Ok(m) => {
                assert_eq!((status, walk.reason), (SILKNAV_OK, SILKNAV_REASON_NONE));
                assert_eq!(
                    (walk.x, walk.z),
                    (m.position.world_x(), m.position.world_z())
                );
                assert_eq!(walk.height.to_bits(), m.height.to_bits());
                assert_eq!(walk.cell, silknav_cell_result::from(m.cell));
                kinds.insert(m.stop.word());
            }
            Err(e) => assert_eq!((status, word(walk.reason)), (SILKNAV_NO, e.word())),
        }
        // The options, against the library's: a start height, the guard, no object checks.
        for (flags, guard, checks) in [
            (SILKNAV_MOVE_GUARD_SYMMETRIC, DistanceGuard::Symmetric, true),
            (
                SILKNAV_MOVE_GUARD_OFF | SILKNAV_MOVE_NO_OBJECT_CHECKS,
                DistanceGuard::Off,
                false,
            ),
        ] {
            let mut with = silknav_move_result::default();
            // SAFETY: a live handle and a valid out pointer.
            let status = unsafe {
                silknav_move_with(w.handle, s[0], s[1], s[2], s[3], 30.0, flags, &mut with)
            };
            let options = MoveOptions::new()
                .with_guard(guard)
                .with_object_checks(checks);
            let q = SegmentQuery {
                y: Some(30.0),
                ..seg(s)
            };
            match query::move_along(&w.world, q, &options) {
                Ok(m) => {
                    assert_eq!(status, SILKNAV_OK);
                    assert_eq!(
                        (with.x, with.z),
                        (m.position.world_x(), m.position.world_z())
                    );
                    assert_eq!(with.cell, silknav_cell_result::from(m.cell));
                    if let MoveStop::ObjectWall { edge } = m.stop {
                        assert_eq!(with.stop, SILKNAV_STOP_OBJECT_WALL);
                        assert_eq!(
                            (with.object_edge.uid, with.object_edge.index),
                            (edge.instance.uid(), edge.edge)
                        );
                        kinds.insert("object-wall");
                    }
                }
                Err(e) => assert_eq!((status, word(with.reason)), (SILKNAV_NO, e.word())),
            }
        }
        // The nearest walkable point of the segment's end, which a walk starts from.
        let mut snap = silknav_snap_result::default();
        // SAFETY: a live handle and a valid out pointer.
        let status = unsafe { silknav_snap(w.handle, s[2], s[3], 50.0, &mut snap) };
        match query::snap(&w.world, PointQuery::new(s[2], s[3]), 50.0) {
            Some(p) => {
                assert_eq!(status, SILKNAV_OK);
                assert_eq!(
                    (snap.x, snap.z, snap.distance),
                    (p.position.world_x(), p.position.world_z(), p.distance)
                );
                assert_eq!(snap.cell, silknav_cell_result::from(p.cell));
                kinds.insert("snapped");
            }
            None => assert_eq!(status, SILKNAV_NO),
        }

        // The exact optimum: its length is the walkable path's exact length.
        let mut exact = empty_path();
        let options = silknav_path_options {
            flags: SILKNAV_PATH_EXACT,
            ..Default::default()
        };
        // SAFETY: a live handle, readable options and a writable silknav_path.
        let status = unsafe {
            silknav_path_find_with(w.handle, s[0], s[1], s[2], s[3], -1, &options, &mut exact)
        };
        let expected = query::path(
            &w.world,
            &w.paths,
            seg(s),
            &PathOptions::exact(),
            &mut PathScratch::new(),
        );
        match &expected {
            Ok(p) => {
                assert_eq!(
                    (status, exact.length, exact.exact_length),
                    (SILKNAV_OK, p.length, p.length)
                );
                assert_eq!(exact.count, p.waypoints.len());
                kinds.insert("exact");
            }
            Err(e) => assert_eq!((status, word(exact.reason)), (SILKNAV_NO, e.word())),
        }
        // SAFETY: filled by silknav_path_find_with.
        unsafe { silknav_path_free(&mut exact) };

        let mut path = silknav_path {
            reason: -7,
            length: -1.0,
            exact_length: -1.0,
            count: 99,
            waypoints: ptr::null_mut(),
        };
        // SAFETY: a live handle and a writable silknav_path.
        let status = unsafe {
            silknav_path_find(w.handle, s[0], s[1], s[2], s[3], BUDGET as i64, &mut path)
        };
        match query::path(
            &w.world,
            &w.paths,
            seg(s),
            &PathOptions::default(),
            &mut scratch,
        ) {
            Ok(p) => {
                assert_eq!(
                    (status, path.reason, path.length, path.exact_length),
                    (SILKNAV_OK, 0, p.length, p.exact_length)
                );
                assert_eq!(path.count, p.waypoints.len());
                // SAFETY: silknav filled `2 * count` doubles.
                let flat = unsafe { std::slice::from_raw_parts(path.waypoints, 2 * path.count) };
                for (pair, w) in flat.chunks_exact(2).zip(&p.waypoints) {
                    assert_eq!(pair, [w.world_x(), w.world_z()]);
                }
                // The waypoints' heights: the library's, NaN for none.
                let mut heights = vec![-1.0f32; path.count];
                // SAFETY: a live handle, a filled path and `count` writable floats.
                let status = unsafe { silknav_path_heights(w.handle, &path, heights.as_mut_ptr()) };
                assert_eq!(status, SILKNAV_OK);
                let expected: Vec<u32> = w
                    .world
                    .path_heights(&p, Surface::Highest)
                    .iter()
                    .map(|h| h.unwrap_or(f32::NAN).to_bits())
                    .collect();
                assert_eq!(
                    heights.iter().map(|h| h.to_bits()).collect::<Vec<_>>(),
                    expected
                );
                kinds.insert("path");
            }
            Err(e) => {
                assert_eq!((status, word(path.reason)), (SILKNAV_NO, e.word()));
                assert!(path.waypoints.is_null() && path.count == 0);
                // SAFETY: a live handle and a result without a path (nothing is written).
                let status = unsafe { silknav_path_heights(w.handle, &path, ptr::null_mut()) };
                assert_eq!(status, SILKNAV_NO);
                kinds.insert(e.word());
            }
        }
        // SAFETY: filled by silknav_path_find; freed once, and again to show that is harmless.
        unsafe {
            silknav_path_free(&mut path);
        }
        assert!(path.waypoints.is_null() && path.count == 0);
        // SAFETY: an emptied result.
        unsafe { silknav_path_free(&mut path) };
    }
    for kind in [
        "blocked",
        "bad-end",
        "arrived",
        "wall",
        "path",
        "goal-blocked",
        "budget-exceeded",
        "snapped",
        "exact",
    ] {
        assert!(kinds.contains(kind), "{kind} not seen: {kinds:?}");
    }
}

#[test]
fn batches_equal_single_calls() {
    let w = Loaded::new();
    let pts = points(10_000, 3);
    let flat: Vec<f64> = pts.iter().flatten().copied().collect();
    let mut out = vec![0.0f32; pts.len()];
    // SAFETY: 2n doubles in, n floats out.
    let status = unsafe { silknav_heights(w.handle, flat.as_ptr(), pts.len(), out.as_mut_ptr()) };
    assert_eq!(status, SILKNAV_OK);
    for (p, h) in pts.iter().zip(&out) {
        let mut one = 0.0f32;
        // SAFETY: a live handle and a valid out pointer.
        unsafe { silknav_height(w.handle, p[0], p[1], &mut one) };
        assert_eq!(h.to_bits(), one.to_bits(), "{p:?}");
    }
    let flat3: Vec<f64> = pts.iter().flat_map(|p| [p[0], p[1], 40.0]).collect();
    // SAFETY: 3n doubles in, n floats out.
    let status =
        unsafe { silknav_heights_y(w.handle, flat3.as_ptr(), pts.len(), out.as_mut_ptr()) };
    assert_eq!(status, SILKNAV_OK);
    for (p, h) in pts.iter().zip(&out) {
        let mut one = 0.0f32;
        // SAFETY: a live handle and a valid out pointer.
        unsafe { silknav_height_y(w.handle, p[0], p[1], 40.0, &mut one) };
        assert_eq!(h.to_bits(), one.to_bits(), "{p:?}");
    }

    let segments: Vec<f64> = pts[..200].iter().flatten().copied().collect();
    let n = segments.len() / 4;
    let mut paths: Vec<silknav_path> = (0..n).map(|_| empty_path()).collect();
    // SAFETY: 4n doubles in, n writable results.
    let status = unsafe { silknav_paths(w.handle, segments.as_ptr(), n, -1, paths.as_mut_ptr()) };
    assert_eq!(status, SILKNAV_OK);
    let mut found = 0;
    for (s, batch) in segments.chunks_exact(4).zip(&mut paths) {
        let mut one = empty_path();
        // SAFETY: a live handle and a writable result.
        let status = unsafe { silknav_path_find(w.handle, s[0], s[1], s[2], s[3], -1, &mut one) };
        assert_eq!(
            (batch.reason, batch.length, batch.count),
            (one.reason, one.length, one.count)
        );
        assert_eq!(status == SILKNAV_OK, batch.reason == SILKNAV_REASON_NONE);
        if batch.count > 0 {
            // SAFETY: both hold `2 * count` doubles.
            let (a, b) = unsafe {
                (
                    std::slice::from_raw_parts(batch.waypoints, 2 * batch.count),
                    std::slice::from_raw_parts(one.waypoints, 2 * one.count),
                )
            };
            assert_eq!(a, b);
            found += 1;
        }
        // SAFETY: both filled by silknav, freed once.
        unsafe {
            silknav_path_free(batch);
            silknav_path_free(&mut one);
        }
    }
    assert!(found > 0 && found < n, "{found} of {n}");
}

#[test]
fn load_failures_carry_the_command_lines_message() {
    let dir = tempfile::tempdir().unwrap();
    let mut handle = ptr::NonNull::<silknav_world>::dangling().as_ptr();

    // A malformed file: its offset and section.
    let navmesh = dir.path().join("navmesh");
    std::fs::create_dir(&navmesh).unwrap();
    let good = std::fs::read(world_dir().join("navmesh").join("nv_4080.nvm")).unwrap();
    std::fs::write(navmesh.join("nv_4080.nvm"), &good[..200]).unwrap();
    // SAFETY: a valid C string and out pointer.
    let status = unsafe { silknav_world_load(c_path(dir.path()).as_ptr(), 0, &mut handle) };
    assert_eq!(status, SILKNAV_ERROR_FORMAT);
    assert!(handle.is_null(), "*out is NULL on failure");
    let expected = silknav::error_line(&silknav::World::load(dir.path()).unwrap_err());
    assert_eq!(last_message().as_deref(), Some(expected.as_str()));
    let format = jmxv::nvm::NavMesh::parse(&good[..200]).unwrap_err();
    assert_eq!(silknav_last_error_offset(), format.offset() as i64);
    // SAFETY: a C string owned by silknav, read before the next failure.
    let section = unsafe { CStr::from_ptr(silknav_last_error_section()) };
    assert_eq!(section.to_str().unwrap(), format.section());
    assert!(expected.contains(&format!("offset {}", format.offset())));
    assert_eq!(silknav_last_error_status(), SILKNAV_ERROR_FORMAT);

    // A folder from which no region loads.
    std::fs::remove_file(navmesh.join("nv_4080.nvm")).unwrap();
    // SAFETY: as above.
    let status = unsafe { silknav_world_load(c_path(&navmesh).as_ptr(), 0, &mut handle) };
    assert_eq!(status, SILKNAV_ERROR_LOAD);
    assert_eq!(
        last_message().unwrap(),
        format!(
            "{}: no region loaded (no nv_XXXX.nvm file here, or none that mapinfo.mfo enables)",
            navmesh.display()
        )
    );
    assert_eq!(silknav_last_error_offset(), -1);
    assert!(silknav_last_error_section().is_null());

    // A folder that does not exist.
    let missing = dir.path().join("missing");
    // SAFETY: as above.
    let status = unsafe { silknav_world_load(c_path(&missing).as_ptr(), 0, &mut handle) };
    assert_eq!(status, SILKNAV_ERROR_LOAD);
    assert!(last_message()
        .unwrap()
        .starts_with(&format!("{}: ", missing.display())));
}

#[test]
fn bad_pointers_and_arguments_are_refused() {
    let w = Loaded::new();
    let mut handle = ptr::null_mut();
    // SAFETY: NULL is what is being tested; the other pointers are valid.
    unsafe {
        assert_eq!(
            silknav_world_load(ptr::null(), 0, &mut handle),
            SILKNAV_ERROR_NULL
        );
        assert_eq!(last_message().unwrap(), "path is NULL");
        assert_eq!(
            silknav_world_load(c"x".as_ptr(), 0, ptr::null_mut()),
            SILKNAV_ERROR_NULL
        );
        let not_utf8 = CString::new(vec![b'w', 0xff]).unwrap();
        assert_eq!(
            silknav_world_load(not_utf8.as_ptr(), 0, &mut handle),
            SILKNAV_ERROR_ARGUMENT
        );
        assert_eq!(last_message().unwrap(), "path is not UTF-8");

        let mut h = 0.0f32;
        assert_eq!(
            silknav_height(ptr::null(), 1.0, 1.0, &mut h),
            SILKNAV_ERROR_NULL
        );
        assert_eq!(
            silknav_height(w.handle, 1.0, 1.0, ptr::null_mut()),
            SILKNAV_ERROR_NULL
        );
        assert_eq!(last_message().unwrap(), "out is NULL");
        let mut cell = silknav_cell_result::default();
        assert_eq!(
            silknav_cell(ptr::null(), 1.0, 1.0, &mut cell),
            SILKNAV_ERROR_NULL
        );
        assert_eq!(
            silknav_path_find(w.handle, 0.0, 0.0, 1.0, 1.0, -1, ptr::null_mut()),
            SILKNAV_ERROR_NULL
        );

        // Move flags that mean nothing, or two guards at once; a snap distance that is none.
        let mut walk = silknav_move_result::default();
        for (flags, message) in [(8, "unknown bits 0x8"), (3, "together")] {
            assert_eq!(
                silknav_move_with(w.handle, 0.0, 0.0, 1.0, 1.0, f32::NAN, flags, &mut walk),
                SILKNAV_ERROR_ARGUMENT
            );
            assert!(last_message().unwrap().contains(message));
        }
        // Path options out of range.
        let mut path = empty_path();
        for (flags, clearance, radius, start_y, message) in [
            (8, 0.0, 0.0, 0.0, "unknown bits 0x8"),
            (SILKNAV_PATH_START_Y, 0.0, 0.0, f32::NAN, "options.start_y"),
            (
                SILKNAV_PATH_START_Y,
                0.0,
                0.0,
                f32::INFINITY,
                "options.start_y",
            ),
            (0, 10.0, 0.0, 0.0, "less than 10"),
            (0, -1.0, 0.0, 0.0, "less than 10"),
            (SILKNAV_PATH_EXACT, 1.0, 0.0, 0.0, "no clearance"),
            (0, 0.0, -1.0, 0.0, "options.radius"),
            (0, 0.0, 1e-9, 0.0, "options.radius"),
            (SILKNAV_PATH_EXACT, 0.0, 961.0, 0.0, "options.radius"),
        ] {
            let options = silknav_path_options {
                flags,
                clearance,
                radius,
                start_y,
            };
            assert_eq!(
                silknav_path_find_with(w.handle, 0.0, 0.0, 1.0, 1.0, -1, &options, &mut path),
                SILKNAV_ERROR_ARGUMENT
            );
            assert!(last_message().unwrap().contains(message));
        }
        let mut snap = silknav_snap_result::default();
        for d in [-1.0, f64::NAN, f64::INFINITY] {
            assert_eq!(
                silknav_snap(w.handle, 1.0, 1.0, d, &mut snap),
                SILKNAV_ERROR_ARGUMENT
            );
            assert!(last_message().unwrap().starts_with("max_distance: "));
        }
        assert_eq!(
            silknav_snap_y(w.handle, 1.0, 1.0, 0.0, 5.0, ptr::null_mut()),
            SILKNAV_ERROR_NULL
        );

        // Arrays: NULL with elements, misaligned, too long; empty is fine with any pointer.
        let mut out = [0.0f32; 4];
        assert_eq!(
            silknav_heights(w.handle, ptr::null(), 2, out.as_mut_ptr()),
            SILKNAV_ERROR_NULL
        );
        assert_eq!(
            silknav_heights(w.handle, ptr::null(), 0, ptr::null_mut()),
            SILKNAV_OK
        );
        let buffer = [0u64; 9];
        let misaligned = buffer.as_ptr().cast::<u8>().add(1).cast::<f64>();
        assert_eq!(
            silknav_heights(w.handle, misaligned, 2, out.as_mut_ptr()),
            SILKNAV_ERROR_ARGUMENT
        );
        assert_eq!(last_message().unwrap(), "xz is not aligned");
        let xz = [0.0f64; 8];
        assert_eq!(
            silknav_heights(w.handle, xz.as_ptr(), usize::MAX / 4, out.as_mut_ptr()),
            SILKNAV_ERROR_ARGUMENT
        );
        assert!(last_message().unwrap().contains("do not fit in memory"));

        // Free functions take NULL.
        silknav_world_free(ptr::null_mut());
        silknav_path_free(ptr::null_mut());
        assert_eq!(silknav_world_region_count(ptr::null()), 0);
    }
}

#[test]
fn the_world_lists_its_regions_and_objects() {
    let w = Loaded::new();
    // SAFETY: a live handle; arrays of the sizes given.
    unsafe {
        assert_eq!(silknav_world_region_count(w.handle), 4);
        let mut regions = [0u16; 2];
        assert_eq!(silknav_world_regions(w.handle, regions.as_mut_ptr(), 2), 4);
        assert_eq!(regions, [0x4080, 0x4081]);
        let mut all = [0u16; 8];
        assert_eq!(silknav_world_regions(w.handle, all.as_mut_ptr(), 8), 4);
        assert_eq!(all[..4], [0x4080, 0x4081, 0x4180, 0x4181]);
        assert_eq!(
            silknav_world_object_count(w.handle),
            w.world.object_instances().len()
        );
        assert_eq!(silknav_world_prepare_paths(w.handle), SILKNAV_OK);
    }
    let mut terrain = ptr::null_mut();
    // SAFETY: valid C string and out pointer; the handle is freed once.
    unsafe {
        let path = c_path(world_dir());
        assert_eq!(
            silknav_world_load(path.as_ptr(), SILKNAV_LOAD_TERRAIN_ONLY, &mut terrain),
            SILKNAV_OK
        );
        assert_eq!(silknav_world_object_count(terrain), 0);
        silknav_world_free(terrain);
    }
    assert_eq!(word(SILKNAV_REASON_UNREACHABLE), "unreachable");
    assert_eq!(word(SILKNAV_REASON_NONE), "");
    assert_eq!(word(12345), "other");
    assert_eq!(word(-1), "other");
}

fn seg(s: [f64; 4]) -> SegmentQuery {
    SegmentQuery::new(s[0], s[1], s[2], s[3])
}

#[test]
fn archives_load_in_place_with_their_key() {
    let folder = Loaded::new();
    let dir = tempfile::tempdir().unwrap();
    let files = silknav::pk2_archive::folder_files(world_dir()).unwrap();
    let key = silknav::pk2_archive::Key::new(b"my-server").unwrap();
    let archive = dir.path().join("Data.pk2");
    std::fs::write(&archive, silknav::pk2_archive::pack(files, &key).unwrap()).unwrap();
    let path = c_path(&archive);
    let mut handle = ptr::null_mut();
    // SAFETY: valid strings and out pointer; the handle is freed below.
    unsafe {
        assert_eq!(
            silknav_world_load(path.as_ptr(), 0, &mut handle),
            SILKNAV_ERROR_LOAD
        );
        assert!(last_message().unwrap().contains("key"));
        assert_eq!(
            silknav_world_load_key(path.as_ptr(), c"abc".as_ptr(), 0, &mut handle),
            SILKNAV_ERROR_ARGUMENT
        );
        assert!(last_message().unwrap().starts_with("key: "));
        assert_eq!(
            silknav_world_load_key(path.as_ptr(), c"my-server".as_ptr(), 0, &mut handle),
            SILKNAV_OK
        );
    }
    let mut answered = 0;
    for [x, z] in points(400, 31) {
        let (mut a, mut b) = (
            silknav_cell_result::default(),
            silknav_cell_result::default(),
        );
        // SAFETY: live handles and valid out pointers.
        let (sa, sb) = unsafe {
            (
                silknav_cell(handle, x, z, &mut a),
                silknav_cell(folder.handle, x, z, &mut b),
            )
        };
        assert_eq!((sa, a), (sb, b), "{x} {z}");
        answered += usize::from(sa == SILKNAV_OK);
    }
    assert!(answered > 100);
    // SAFETY: the handle loaded above, freed once.
    unsafe { silknav_world_free(handle) };
}

/// Paths with objects (`SILKNAV_PATH_OBJECTS`, exact with `SILKNAV_PATH_EXACT`, else
/// walkable) from a start height (`SILKNAV_PATH_START_Y`) answer as the library's, under a
/// bridge's deck and on it, and `silknav_path_heights_y` starts the heights on the surface
/// the path started on.
#[test]
fn paths_with_objects_from_a_start_height_equal_the_librarys() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("Data");
    silknav_testkit::object_world::write_object_world(&root);
    let world = silknav::World::load(&root).unwrap();
    let paths = silknav::PathIndex::build(&world);
    let (q, y) = silknav_testkit::object_world::start_under_a_surface(&world)
        .expect("a start under a deck with a path of its own");
    let mut handle = ptr::null_mut();
    // SAFETY: a valid C string and out pointer.
    let status = unsafe { silknav_world_load(c_path(&root).as_ptr(), 0, &mut handle) };
    assert_eq!(status, SILKNAV_OK, "{:?}", last_message());
    // The exact path through objects, and that path made walkable.
    let modes = [
        (
            SILKNAV_PATH_EXACT | SILKNAV_PATH_OBJECTS,
            PathOptions::exact_with_objects(),
        ),
        (
            SILKNAV_PATH_OBJECTS,
            PathOptions::new().with_objects(true).unwrap(),
        ),
    ];
    for (flags, library) in modes {
        let mut lengths = Vec::new();
        for start_y in [Some(y), None] {
            let options = silknav_path_options {
                flags: flags | start_y.map_or(0, |_| SILKNAV_PATH_START_Y),
                start_y: start_y.unwrap_or(0.0),
                ..Default::default()
            };
            let mut path = empty_path();
            // SAFETY: a live handle, readable options and a writable silknav_path.
            let status = unsafe {
                silknav_path_find_with(handle, q[0], q[1], q[2], q[3], -1, &options, &mut path)
            };
            let query = SegmentQuery {
                y: start_y,
                ..seg(q)
            };
            let expected = query::path(&world, &paths, query, &library, &mut PathScratch::new());
            match &expected {
                Ok(p) => {
                    assert_eq!((status, path.length), (SILKNAV_OK, p.length));
                    // SAFETY: `count` points filled by silknav_path_find_with.
                    let flat =
                        unsafe { std::slice::from_raw_parts(path.waypoints, 2 * path.count) };
                    let waypoints: Vec<f64> = p
                        .waypoints
                        .iter()
                        .flat_map(|w| [w.world_x(), w.world_z()])
                        .collect();
                    assert_eq!(flat, &waypoints[..]);
                    let mut heights = vec![0.0f32; path.count];
                    // SAFETY: a live handle, a filled path and `count` writable floats.
                    let status = unsafe {
                        silknav_path_heights_y(
                            handle,
                            &path,
                            start_y.unwrap_or(f32::NAN),
                            heights.as_mut_ptr(),
                        )
                    };
                    assert_eq!(status, SILKNAV_OK);
                    let expected: Vec<f32> = world
                        .path_heights(p, Surface::from(start_y))
                        .iter()
                        .map(|h| h.unwrap_or(f32::NAN))
                        .collect();
                    assert_eq!(
                        heights.iter().map(|h| h.to_bits()).collect::<Vec<_>>(),
                        expected.iter().map(|h| h.to_bits()).collect::<Vec<_>>()
                    );
                }
                Err(e) => assert_eq!((status, word(path.reason)), (SILKNAV_NO, e.word())),
            }
            lengths.push(expected.map(|p| p.length).ok());
            // SAFETY: filled by silknav_path_find_with.
            unsafe { silknav_path_free(&mut path) };
        }
        assert_ne!(lengths[0], lengths[1], "{flags}");

        // The batch with a height per row (NaN for none) answers as the single calls.
        let rows = [
            [q[0], q[1], q[2], q[3], f64::from(y)],
            [q[0], q[1], q[2], q[3], f64::NAN],
        ];
        let options = silknav_path_options {
            flags,
            ..Default::default()
        };
        let mut out = [empty_path(), empty_path()];
        // SAFETY: a live handle, 10 readable doubles, readable options, 2 writable paths.
        let status = unsafe {
            silknav_paths_y(
                handle,
                rows.as_ptr().cast(),
                2,
                -1,
                &options,
                out.as_mut_ptr(),
            )
        };
        assert_eq!(status, SILKNAV_OK, "{:?}", last_message());
        for (path, length) in out.iter_mut().zip(&lengths) {
            assert_eq!(
                Some(path.length).filter(|_| path.count > 0),
                *length,
                "{flags}"
            );
            // SAFETY: filled by silknav_paths_y.
            unsafe { silknav_path_free(path) };
        }
        let infinite = [[q[0], q[1], q[2], q[3], f64::INFINITY]];
        let mut out = [empty_path()];
        // SAFETY: as above, one row.
        let status = unsafe {
            silknav_paths_y(
                handle,
                infinite.as_ptr().cast(),
                1,
                -1,
                &options,
                out.as_mut_ptr(),
            )
        };
        assert_eq!(status, SILKNAV_ERROR_ARGUMENT);
        assert!(last_message().unwrap().contains("segments[0].y"));
    }
    // SAFETY: the handle is live and freed once.
    unsafe { silknav_world_free(handle) };
}

/// A dungeon's handle answers in the dungeon's own coordinates, as the library answers at
/// dungeon positions; the batch forms refuse it; a dungeon that is not loaded has none.
#[test]
fn a_dungeons_handle_answers_inside_it() {
    let w = Loaded::new();
    let mut ids = [0u16; 4];
    // SAFETY: a live handle and an array of 4.
    let count = unsafe { silknav_world_dungeons(w.handle, ids.as_mut_ptr(), ids.len()) };
    assert_eq!((count, &ids[..2]), (2, &[1u16, 2][..]));
    let mut cave = ptr::null_mut();
    // SAFETY: a live handle and an out pointer.
    let status = unsafe { silknav_world_dungeon(w.handle, 2, &mut cave) };
    assert_eq!(status, SILKNAV_OK);
    let mut none = ptr::null_mut();
    // SAFETY: a live handle and an out pointer.
    let status = unsafe { silknav_world_dungeon(w.handle, 9, &mut none) };
    assert_eq!(status, SILKNAV_NO);
    assert!(none.is_null());
    let (mut cells, mut paths) = (0, 0);
    for i in 0..40 {
        let (x, z) = (-150.0 + 7.3 * f64::from(i), -120.0 + 6.1 * f64::from(i));
        let q = PointQuery {
            y: Some(1.0),
            dungeon: Some(2),
            ..PointQuery::new(x, z)
        };
        let mut cell = silknav_cell_result::default();
        // SAFETY: a live handle and an out pointer.
        let status = unsafe { silknav_cell_y(cave, x, z, 1.0, &mut cell) };
        match query::cell(&w.world, q) {
            Some(c) => {
                cells += 1;
                assert_eq!(status, SILKNAV_OK);
                assert_eq!(cell, silknav_cell_result::from(c));
                assert_eq!(cell.region, 0x8002);
            }
            None => assert_eq!(status, SILKNAV_NO),
        }
        let (x2, z2) = (x + 61.0, z - 13.0);
        let s = SegmentQuery {
            y: Some(1.0),
            dungeon: Some(2),
            ..SegmentQuery::new(x, z, x2, z2)
        };
        let mut walk = silknav_move_result::default();
        // SAFETY: a live handle and an out pointer.
        let status = unsafe { silknav_move_with(cave, x, z, x2, z2, 1.0, 0, &mut walk) };
        match query::move_along(&w.world, s, &MoveOptions::default()) {
            Ok(m) => {
                assert_eq!(status, SILKNAV_OK);
                assert_eq!(
                    (walk.x, walk.z),
                    (m.position.world_x(), m.position.world_z())
                );
            }
            Err(_) => assert_eq!(status, SILKNAV_NO),
        }
        if i % 8 == 0 {
            let mut path = empty_path();
            // SAFETY: a live handle, default options and an out pointer.
            let status =
                unsafe { silknav_path_find_with(cave, x, z, x2, z2, -1, ptr::null(), &mut path) };
            let expected = query::path(
                &w.world,
                &w.paths,
                s,
                &PathOptions::default(),
                &mut PathScratch::new(),
            );
            assert_eq!(status == SILKNAV_OK, expected.is_ok(), "{expected:?}");
            if let Ok(p) = expected {
                paths += 1;
                assert_eq!(path.count, p.waypoints.len());
                let mut heights = vec![0f32; path.count];
                // SAFETY: a live handle, the path found and room for its heights.
                let status = unsafe { silknav_path_heights(cave, &path, heights.as_mut_ptr()) };
                assert_eq!(status, SILKNAV_OK);
                assert!(heights.iter().all(|h| h.is_finite()), "{heights:?}");
            }
            // SAFETY: the path found above, freed once.
            unsafe { silknav_path_free(&mut path) };
        }
    }
    assert!(cells > 5 && paths > 0, "{cells} cells, {paths} paths");
    let mut h = [0f32; 1];
    // SAFETY: a live handle, one point and room for its height.
    let status = unsafe { silknav_heights(cave, [0.0, 0.0].as_ptr(), 1, h.as_mut_ptr()) };
    assert_eq!(status, SILKNAV_ERROR_ARGUMENT);
    assert!(last_message().unwrap().contains("the handle of dungeon 2"));
    // SAFETY: the dungeon's handle, freed once; the world's stays usable.
    unsafe { silknav_world_free(cave) };
    // SAFETY: a live handle.
    assert_eq!(unsafe { silknav_world_region_count(w.handle) }, 4);
}
