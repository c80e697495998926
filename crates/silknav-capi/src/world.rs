//! The world handle: loading, freeing, and what it holds.

use crate::error::{
    guard, guard_void, silknav_status, Failure, SILKNAV_ERROR_FORMAT, SILKNAV_ERROR_LOAD,
    SILKNAV_NO, SILKNAV_OK,
};
use crate::pointers;
use silknav::files::{LoadError, WorldSource};
use silknav::jmxv::RegionId;
use silknav::pk2_archive::Key;
use silknav::{LoadOptions, Navigator, PathIndexUse};
use std::ffi::c_char;
use std::sync::Arc;

/// A loaded world: opaque, made by `silknav_world_load`, freed by `silknav_world_free`.
/// Immutable once loaded, so any number of threads may query one handle at once. A handle
/// made by `silknav_world_dungeon` is the same world seen from inside one of its dungeons.
#[allow(non_camel_case_types)]
pub struct silknav_world {
    /// The world and its path index (read from the index file beside the world when it is
    /// there and fresh, else built on the first path query), shared by the handles of its
    /// dungeons.
    pub(crate) nav: Arc<Navigator>,
    /// The dungeon whose own coordinates the handle's queries take, or `None` for the
    /// terrain's.
    pub(crate) dungeon: Option<u16>,
}

/// `silknav_world_load` flag: leave out the objects (buildings, gates, bridges), as the
/// command line's `--terrain-only`.
pub const SILKNAV_LOAD_TERRAIN_ONLY: u32 = 1;

/// A load error as a failure: the command line's message, and for a malformed file its
/// offset and section.
fn load_failure(e: &LoadError) -> Failure {
    let message = silknav::error_line(e);
    match e {
        LoadError::File(file) => match &file.error {
            jmxv::ReadError::Format(format) => Failure {
                status: SILKNAV_ERROR_FORMAT,
                message,
                format: Some((format.offset() as u64, format.section().to_owned())),
            },
            _ => Failure::new(SILKNAV_ERROR_LOAD, message),
        },
        _ => Failure::new(SILKNAV_ERROR_LOAD, message),
    }
}

/// Loads a world: a folder (the data root, holding `navmesh/` and `res/`, or its navmesh
/// folder), the client's PK2 archive (`Data.pk2`, read in place, with the official clients'
/// key; `silknav_world_load_key` for another) or a folder inside one (`Data.pk2:navmesh`),
/// as the command line's query commands do. Every `nv_XXXX.nvm` of a region `mapinfo.mfo`
/// enables is read, in parallel on all cores, and with them the object instances the regions
/// list (unless `flags` has `SILKNAV_LOAD_TERRAIN_ONLY`).
///
/// On success `*out` is a new handle, which the caller owns and frees with
/// `silknav_world_free`. On failure `*out` is set to NULL and the status is
/// `SILKNAV_ERROR_LOAD` (unreadable folder or file, two files for one region, no region
/// loaded) or `SILKNAV_ERROR_FORMAT` (a malformed file: see `silknav_last_error_offset`).
///
/// # Safety
/// `path` is NULL or a NUL-terminated string; `out` is NULL or points to writable memory
/// for one pointer.
#[no_mangle]
pub unsafe extern "C" fn silknav_world_load(
    path: *const c_char,
    flags: u32,
    out: *mut *mut silknav_world,
) -> silknav_status {
    // SAFETY: the caller's promises, passed on; NULL is the default key.
    unsafe { silknav_world_load_key(path, std::ptr::null(), flags, out) }
}

/// `silknav_world_load` of an archive encrypted with `key` (a private server's, as the
/// command line's `--pk2-key`: 4 to 56 bytes, NUL-terminated); `key` NULL for the official
/// clients'. `SILKNAV_ERROR_ARGUMENT` for a key that is no key; an archive that does not open
/// with it is `SILKNAV_ERROR_LOAD`, with the command line's message.
///
/// # Safety
/// As for `silknav_world_load`; `key` is NULL or a NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn silknav_world_load_key(
    path: *const c_char,
    key: *const c_char,
    flags: u32,
    out: *mut *mut silknav_world,
) -> silknav_status {
    guard(|| {
        // SAFETY: the caller's promise on `out`.
        let out = unsafe { pointers::exclusive(out, "out") }?;
        *out = std::ptr::null_mut();
        // SAFETY: the caller's promise on `path`.
        let path = unsafe { pointers::utf8(path, "path") }?;
        let key = if key.is_null() {
            Key::default()
        } else {
            // SAFETY: the caller's promise on `key`.
            let text = unsafe { std::ffi::CStr::from_ptr(key) };
            Key::new(text.to_bytes()).map_err(|e| Failure::argument(format!("key: {e}")))?
        };
        let options = if flags & SILKNAV_LOAD_TERRAIN_ONLY != 0 {
            LoadOptions::terrain_only()
        } else {
            LoadOptions::default()
        };
        let source = WorldSource::open_with_key(path, &key).map_err(|e| load_failure(&e))?;
        let nav = Navigator::load_source(&source, &options, PathIndexUse::IfValid)
            .map_err(|e| load_failure(&e))?;
        if nav.world().regions().len() == 0 {
            return Err(load_failure(&LoadError::NoRegion { dir: path.into() }));
        }
        *out = Box::into_raw(Box::new(silknav_world {
            nav: Arc::new(nav),
            dungeon: None,
        }));
        Ok(SILKNAV_OK)
    })
}

/// A handle of the same world whose queries are inside dungeon `id` (its id in
/// `dungeoninfo.txt`, region `0x8000 | id`), in the dungeon's own coordinates, as the command
/// line's `--dungeon ID`: `SILKNAV_OK` with `*out` set, or `SILKNAV_NO` (and `*out` NULL)
/// when the world has no such dungeon loaded. Every single query takes it; the batch forms
/// refuse it. Free it with `silknav_world_free`, before or after the world's own handle.
///
/// # Safety
/// `world` is NULL or a live handle; `out` is NULL or points to a writable pointer.
#[no_mangle]
pub unsafe extern "C" fn silknav_world_dungeon(
    world: *const silknav_world,
    id: u16,
    out: *mut *mut silknav_world,
) -> silknav_status {
    guard(|| {
        // SAFETY: the caller's promise on `out`.
        let out = unsafe { pointers::exclusive(out, "out") }?;
        *out = std::ptr::null_mut();
        // SAFETY: the caller's promise on `world`.
        let w = unsafe { pointers::shared(world, "world") }?;
        if id >= 0x8000 || w.nav.world().dungeon(RegionId(0x8000 | id)).is_none() {
            return Ok(SILKNAV_NO);
        }
        *out = Box::into_raw(Box::new(silknav_world {
            nav: Arc::clone(&w.nav),
            dungeon: Some(id),
        }));
        Ok(SILKNAV_OK)
    })
}

/// Writes up to `capacity` ids of the world's loaded dungeons (ascending) to `ids` and
/// returns how many it has (call again with a larger array when that is more), or 0 for a
/// NULL handle.
///
/// # Safety
/// `world` is NULL or a live handle; `ids` is NULL (with `capacity` 0) or points to
/// `capacity` writable `uint16_t`s.
#[no_mangle]
pub unsafe extern "C" fn silknav_world_dungeons(
    world: *const silknav_world,
    ids: *mut u16,
    capacity: usize,
) -> usize {
    // SAFETY: the caller's promise on `world`.
    let Ok(w) = (unsafe { pointers::shared(world, "world") }) else {
        return 0;
    };
    // SAFETY: the caller's promise on `ids`.
    if let Ok(out) = unsafe { pointers::array_mut(ids, capacity, "ids") } {
        for (slot, d) in out.iter_mut().zip(w.nav.world().dungeons()) {
            *slot = d.region().0 & 0x7FFF;
        }
    }
    w.nav.world().dungeons().len()
}

/// Frees a world made by `silknav_world_load`. NULL is allowed and does nothing. The handle
/// must not be used afterwards, nor freed twice.
///
/// # Safety
/// `world` is NULL or a handle from `silknav_world_load` not freed yet, which no other
/// thread is using.
#[no_mangle]
pub unsafe extern "C" fn silknav_world_free(world: *mut silknav_world) {
    guard_void(|| {
        if !world.is_null() {
            // SAFETY: a handle from `silknav_world_load` (a leaked Box), freed once, by the
            // caller's promise.
            drop(unsafe { Box::from_raw(world) });
        }
    });
}

/// The number of regions loaded, or 0 for a NULL handle.
///
/// # Safety
/// `world` is NULL or a live handle.
#[no_mangle]
pub unsafe extern "C" fn silknav_world_region_count(world: *const silknav_world) -> usize {
    // SAFETY: the caller's promise on `world`.
    match unsafe { pointers::shared(world, "world") } {
        Ok(w) => w.nav.world().regions().len(),
        Err(_) => 0,
    }
}

/// Writes up to `capacity` region ids (ascending, as the `u16` of `nv_XXXX.nvm`) to
/// `regions` and returns how many the world has (which may be more than `capacity`: call
/// again with a larger array), or 0 for a NULL handle.
///
/// # Safety
/// `world` is NULL or a live handle; `regions` is NULL or points to `capacity` writable
/// `uint16_t`s.
#[no_mangle]
pub unsafe extern "C" fn silknav_world_regions(
    world: *const silknav_world,
    regions: *mut u16,
    capacity: usize,
) -> usize {
    // SAFETY: the caller's promise on `world`.
    let Ok(w) = (unsafe { pointers::shared(world, "world") }) else {
        return 0;
    };
    // SAFETY: the caller's promise on `regions` and `capacity`.
    if let Ok(out) = unsafe { pointers::array_mut(regions, capacity, "regions") } {
        for (slot, region) in out.iter_mut().zip(w.nav.world().regions()) {
            *slot = region.0;
        }
    }
    w.nav.world().regions().len()
}

/// The number of object instances placed (buildings, gates, bridges), or 0 for a NULL
/// handle.
///
/// # Safety
/// `world` is NULL or a live handle.
#[no_mangle]
pub unsafe extern "C" fn silknav_world_object_count(world: *const silknav_world) -> usize {
    // SAFETY: the caller's promise on `world`.
    match unsafe { pointers::shared(world, "world") } {
        Ok(w) => w.nav.world().object_instances().len(),
        Err(_) => 0,
    }
}

/// Builds the world's path index now, on all cores, if it has none yet; otherwise the first
/// path query builds it. Call it once after loading so that no query pays for it.
///
/// # Safety
/// `world` is NULL or a live handle.
#[no_mangle]
pub unsafe extern "C" fn silknav_world_prepare_paths(
    world: *const silknav_world,
) -> silknav_status {
    guard(|| {
        // SAFETY: the caller's promise on `world`.
        let w = unsafe { pointers::shared(world, "world") }?;
        w.nav.paths();
        Ok(SILKNAV_OK)
    })
}
