//! Archives for tests: a folder packed the way the client stores it, and archives damaged in
//! the ways a reader must survive, each at a known record.

use pk2_archive::{folder_files, pack, Archive, Key, ENTRY_LEN};
use std::path::Path;

/// Every file below `dir` packed into an archive with the official clients' key (a data root
/// becomes an archive with `navmesh/` and `res/` at its root).
pub fn pack_folder(dir: &Path) -> Vec<u8> {
    pack(
        folder_files(dir).expect("the folder is readable"),
        &Key::default(),
    )
    .expect("the folder packs")
}

/// The byte offset of the record of the entry at `path`.
pub fn record_of(archive: &[u8], path: &str) -> u64 {
    let opened = Archive::from_bytes(archive.to_vec(), &Key::default()).expect("an archive");
    opened.entry(path).expect("the entry exists").offset()
}

/// Decrypts the 128-byte record at `offset`, lets `edit` change it, encrypts it again.
/// (Records sit at multiples of 8 bytes from their block's start, so one decrypts alone.)
pub fn edit_record(archive: &mut [u8], offset: u64, edit: impl FnOnce(&mut [u8])) {
    let key = Key::default();
    let record = &mut archive[offset as usize..][..ENTRY_LEN];
    key.decrypt(record);
    edit(record);
    key.encrypt(record);
}

/// The directory at `dir` made to point at the root's block, which the walk has read already:
/// a loop, reported at `dir`'s record.
pub fn with_loop(archive: &[u8], dir: &str) -> Vec<u8> {
    let mut bytes = archive.to_vec();
    let at = record_of(&bytes, dir);
    edit_record(&mut bytes, at, |r| {
        r[106..114].copy_from_slice(&pk2_archive::HEADER_LEN.to_le_bytes());
    });
    bytes
}

/// The directory at `dir` made to point past the archive's end, reported at its record.
pub fn with_block_outside(archive: &[u8], dir: &str) -> Vec<u8> {
    let mut bytes = archive.to_vec();
    let at = record_of(&bytes, dir);
    let past = bytes.len() as u64 + 4096;
    edit_record(&mut bytes, at, |r| {
        r[106..114].copy_from_slice(&past.to_le_bytes())
    });
    bytes
}

/// The file at `path` renamed to `name` (another entry's name in its folder, in any case):
/// two entries with one name, reported at the renamed record.
pub fn with_duplicate(archive: &[u8], path: &str, name: &str) -> Vec<u8> {
    let mut bytes = archive.to_vec();
    let at = record_of(&bytes, path);
    edit_record(&mut bytes, at, |r| {
        r[1..82].fill(0);
        r[1..1 + name.len()].copy_from_slice(name.as_bytes());
    });
    bytes
}
