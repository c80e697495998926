//! The batch forms: arrays of queries answered on all cores (`silknav::query`'s batches).

use crate::error::{guard, silknav_status, Failure, SILKNAV_OK};
use crate::pointers;
use crate::query::{path_options, silknav_path, silknav_path_options};
use crate::world::silknav_world;
use silknav::query::{self, PointQuery, SegmentQuery};

/// The world of a handle that is not a dungeon's (`silknav_world_dungeon`): the batch forms
/// take the terrain's coordinates only.
///
/// # Safety
/// `world` is NULL or a live handle.
unsafe fn terrain_world<'a>(world: *const silknav_world) -> Result<&'a silknav::World, Failure> {
    // SAFETY: the caller's promise on `world`.
    let w = unsafe { pointers::shared(world, "world") }?;
    match w.dungeon {
        None => Ok(w.nav.world()),
        Some(id) => Err(Failure::argument(format!(
            "world: the handle of dungeon {id}; the batch forms take the terrain's handle \
             (ask one query at a time in a dungeon)"
        ))),
    }
}

/// The terrain heights of `n` points on all cores: `xz` holds `2 * n` doubles (x0, z0, x1,
/// z1, ...), `out` receives `n` floats, `out[i]` what `silknav_height` answers for point
/// `i`, or NaN where it answers `SILKNAV_NO`. Returns `SILKNAV_OK`, or an error for a bad
/// argument (then `out` is unchanged).
///
/// # Safety
/// `world` is NULL or a live handle; for `n` > 0, `xz` is NULL or points to `2 * n` doubles
/// and `out` is NULL or points to `n` writable floats, not overlapping.
#[no_mangle]
pub unsafe extern "C" fn silknav_heights(
    world: *const silknav_world,
    xz: *const f64,
    n: usize,
    out: *mut f32,
) -> silknav_status {
    // SAFETY: the caller's promises, passed on.
    unsafe {
        batch_heights(world, xz, n, out, "xz", |p: &[f64; 2]| {
            PointQuery::new(p[0], p[1])
        })
    }
}

/// `silknav_heights` with a reference height per point: `xzy` holds `3 * n` doubles (x, z,
/// y for each point), `out[i]` what `silknav_height_y` answers for point `i` (y taken as a
/// float), or NaN.
///
/// # Safety
/// As for `silknav_heights`, with `3 * n` doubles at `xzy`.
#[no_mangle]
pub unsafe extern "C" fn silknav_heights_y(
    world: *const silknav_world,
    xzy: *const f64,
    n: usize,
    out: *mut f32,
) -> silknav_status {
    // SAFETY: the caller's promises, passed on.
    unsafe {
        batch_heights(world, xzy, n, out, "xzy", |p: &[f64; 3]| PointQuery {
            y: Some(p[2] as f32),
            ..PointQuery::new(p[0], p[1])
        })
    }
}

/// The height calls' common body: `N` doubles per point at `points` (the argument `name`),
/// each row the query `row_query` makes of it, answered by [`query::heights`] into `out`
/// (NaN for none).
///
/// # Safety
/// As for `silknav_heights`, with `N * n` doubles at `points`.
unsafe fn batch_heights<const N: usize>(
    world: *const silknav_world,
    points: *const f64,
    n: usize,
    out: *mut f32,
    name: &str,
    row_query: fn(&[f64; N]) -> PointQuery,
) -> silknav_status {
    guard(|| {
        // SAFETY: the caller's promise on `world`.
        let world = unsafe { terrain_world(world) }?;
        // SAFETY: the caller's promise on `points`: `n` rows of `N` doubles, the layout of
        // `[f64; N]` (size 8·N, alignment of f64).
        let rows = unsafe { pointers::array(points.cast::<[f64; N]>(), n, name) }?;
        // SAFETY: the caller's promise on `out`.
        let out = unsafe { pointers::array_mut(out, n, "out") }?;
        let queries: Vec<PointQuery> = rows.iter().map(row_query).collect();
        let mut heights = vec![None; n];
        query::heights(world, &queries, &mut heights);
        for (slot, h) in out.iter_mut().zip(heights) {
            *slot = h.unwrap_or(f32::NAN);
        }
        Ok(SILKNAV_OK)
    })
}

/// The shortest paths of `n` segments on all cores: `segments` holds `4 * n` doubles (x1,
/// z1, x2, z2 for each), `budget` as for `silknav_path_find` (negative: no limit), and
/// `out[i]` receives what `silknav_path_find` answers for segment `i` (its `reason` says
/// whether a path was found). Returns `SILKNAV_OK` when every segment was answered; each
/// `out[i]` must then be freed with `silknav_path_free`. On an error `out` is unchanged.
///
/// # Safety
/// `world` is NULL or a live handle; for `n` > 0, `segments` is NULL or points to `4 * n`
/// doubles and `out` is NULL or points to `n` writable `silknav_path`s (overwritten without
/// being freed).
#[no_mangle]
pub unsafe extern "C" fn silknav_paths(
    world: *const silknav_world,
    segments: *const f64,
    n: usize,
    budget: i64,
    out: *mut silknav_path,
) -> silknav_status {
    // SAFETY: the caller's promises, passed on; no options is the default.
    unsafe { silknav_paths_with(world, segments, n, budget, std::ptr::null(), out) }
}

/// `silknav_paths` with options, as `silknav_path_find_with` takes them (NULL: the
/// defaults).
///
/// # Safety
/// As for `silknav_paths`; `options` is NULL or points to a readable
/// `silknav_path_options`.
#[no_mangle]
pub unsafe extern "C" fn silknav_paths_with(
    world: *const silknav_world,
    segments: *const f64,
    n: usize,
    budget: i64,
    options: *const silknav_path_options,
    out: *mut silknav_path,
) -> silknav_status {
    // SAFETY: the caller's promises, passed on.
    unsafe { batch_paths(world, segments, n, budget, options, out, segment_of) }
}

/// The query of a row of `silknav_paths_with`: (x1, z1, x2, z2); every row is good.
fn segment_of(_: usize, s: &[f64; 4]) -> Result<SegmentQuery, Failure> {
    Ok(SegmentQuery::new(s[0], s[1], s[2], s[3]))
}

/// The batch calls' common body: `N` doubles per segment at `segments`, each row `i` the
/// query `row_query(i, row)` makes of it (the first row it refuses, its error is the
/// call's), answered by [`query::paths`].
///
/// # Safety
/// As for `silknav_paths_with`, with `N * n` doubles at `segments`.
unsafe fn batch_paths<const N: usize>(
    world: *const silknav_world,
    segments: *const f64,
    n: usize,
    budget: i64,
    options: *const silknav_path_options,
    out: *mut silknav_path,
    row_query: fn(usize, &[f64; N]) -> Result<SegmentQuery, Failure>,
) -> silknav_status {
    guard(|| {
        // SAFETY: the caller's promise on `world`.
        let nav = &unsafe { pointers::shared(world, "world") }?.nav;
        // SAFETY: the caller's promise on `world`.
        unsafe { terrain_world(world) }?;
        // SAFETY: the caller's promise on `options`.
        let options = unsafe { path_options(options) }?;
        // SAFETY: the caller's promise on `segments`: `n` rows of `N` doubles, the layout of
        // `[f64; N]`.
        let rows = unsafe { pointers::array(segments.cast::<[f64; N]>(), n, "segments") }?;
        let queries = rows
            .iter()
            .enumerate()
            .map(|(i, row)| row_query(i, row))
            .collect::<Result<Vec<SegmentQuery>, Failure>>()?;
        // SAFETY: the caller's promise on `out`; written below without reading it.
        let out = unsafe {
            pointers::array_mut(out.cast::<std::mem::MaybeUninit<silknav_path>>(), n, "out")
        }?;
        let budget = usize::try_from(budget).ok();
        let answers = query::paths(nav.world(), nav.paths(), &queries, budget, &options);
        for (slot, path) in out.iter_mut().zip(answers) {
            slot.write(silknav_path::new(path));
        }
        Ok(SILKNAV_OK)
    })
}

/// `silknav_paths_with` with the walker's height at each start: `segments` holds `5 * n`
/// doubles (x1, z1, x2, z2, y for each; y taken as a float, NaN for none: then the options'
/// `start_y` with `SILKNAV_PATH_START_Y`, else the highest surface), and `out[i]` receives
/// what `silknav_path_find_with` answers for segment `i` with that start height (as
/// `silknav path` answers a batch line of five numbers).
///
/// # Safety
/// As for `silknav_paths_with`, with `5 * n` doubles at `segments`.
#[no_mangle]
pub unsafe extern "C" fn silknav_paths_y(
    world: *const silknav_world,
    segments: *const f64,
    n: usize,
    budget: i64,
    options: *const silknav_path_options,
    out: *mut silknav_path,
) -> silknav_status {
    // SAFETY: the caller's promises, passed on.
    unsafe { batch_paths(world, segments, n, budget, options, out, segment_y_of) }
}

/// The query of row `i` of `silknav_paths_y`: (x1, z1, x2, z2, y), good when its height,
/// taken as a float, is finite or NaN (none).
fn segment_y_of(i: usize, s: &[f64; 5]) -> Result<SegmentQuery, Failure> {
    let y = s[4] as f32;
    if y.is_infinite() {
        return Err(Failure::argument(format!(
            "segments[{i}].y: {}: the height must be a finite number or NaN for none",
            s[4]
        )));
    }
    Ok(SegmentQuery {
        y: (!y.is_nan()).then_some(y),
        ..SegmentQuery::new(s[0], s[1], s[2], s[3])
    })
}
