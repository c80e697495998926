//! Silkroad Online's PK2 archives (`Data.pk2`, `Media.pk2`): open, list, read, and pack.
//!
//! An archive is a 256-byte header, then directory blocks of 20 entries of 128 bytes each
//! (Blowfish-encrypted with the archive's key), and the files' bytes, stored plain. The root
//! directory's first block is at offset 256; a directory entry points at its children's first
//! block, and the last entry of a block points at the next block of the same directory.
//!
//! [`Archive::open`] walks the whole directory tree once, guarded: every block is visited at
//! most once (a loop is an error, not a hang), every block and every file lies inside the
//! archive, names are unique in their directory (in any case) and safe to extract (no `..`,
//! no separators, no drive letters). File bytes are read only when asked for
//! ([`Archive::read`]), so opening a 2 GB `Data.pk2` reads its directory and nothing else;
//! reads are positional ([`ReadAt`]), so threads read files of one archive at once.
//!
//! ```
//! use pk2_archive::{pack, Archive, Key};
//! let bytes = pack(
//!     [("navmesh/mapinfo.mfo", b"JMXVMFO 1000".to_vec())],
//!     &Key::default(),
//! )
//! .unwrap();
//! let archive = Archive::from_bytes(bytes, &Key::default()).unwrap();
//! assert_eq!(archive.read("Navmesh\\MapInfo.mfo").unwrap(), b"JMXVMFO 1000");
//! ```
//!
//! The main types: [`Archive`] (the read side), [`Entry`] (a file or directory in it),
//! [`pack`] (the write side), [`Key`], [`ReadAt`] (where an archive's bytes come from) and
//! [`Pk2Error`].

mod error;
mod name;
mod read;
mod source;
mod write;

pub use error::{ErrorKind, Pk2Error};
pub use name::{is_safe_name, normalize_bytes, normalize_path};
pub use read::{Archive, Entry, EntryKind};
pub use source::ReadAt;
pub use write::{folder_files, pack, plain_header, FolderError, PackError};

/// The first bytes of every archive: its signature (NUL-padded to 30 bytes in the header).
pub const SIGNATURE: &[u8] = b"JoyMax File Manager!\n";

/// The key of the official clients, public since the first private servers.
pub const DEFAULT_KEY: &[u8] = b"169841";

/// The size of the header at the start of every archive.
pub const HEADER_LEN: u64 = 256;
/// The size of one directory entry.
pub const ENTRY_LEN: usize = 128;
/// Entries per directory block.
pub const ENTRIES_PER_BLOCK: usize = 20;
/// The size of one directory block.
pub const BLOCK_LEN: usize = ENTRY_LEN * ENTRIES_PER_BLOCK;

/// The Blowfish key an archive's directory blocks are encrypted with.
pub struct Key {
    cipher: pk2::blowfish::Blowfish,
}

impl Key {
    /// The cipher for a key as the client spells it (`169841` for the official clients).
    ///
    /// # Errors
    /// [`ErrorKind::InvalidKey`] for a key shorter than 4 or longer than 56 bytes.
    pub fn new(key: &[u8]) -> Result<Key, Pk2Error> {
        let cipher = pk2::blowfish::Blowfish::new(key)
            .map_err(|_| Pk2Error::new(0, "", ErrorKind::InvalidKey { len: key.len() }))?;
        Ok(Key { cipher })
    }

    /// Encrypts whole 8-byte blocks of `data` in place (a trailing partial block is left).
    pub fn encrypt(&self, data: &mut [u8]) {
        self.cipher.encrypt(data);
    }

    /// Decrypts whole 8-byte blocks of `data` in place (a trailing partial block is left).
    pub fn decrypt(&self, data: &mut [u8]) {
        self.cipher.decrypt(data);
    }

    fn cipher(&self) -> &pk2::blowfish::Blowfish {
        &self.cipher
    }
}

impl Default for Key {
    /// The official clients' key, [`DEFAULT_KEY`].
    fn default() -> Key {
        // The default key has a valid length, so this cannot fail.
        match Key::new(DEFAULT_KEY) {
            Ok(key) => key,
            Err(_) => unreachable!("the default key is 6 bytes"),
        }
    }
}

impl std::fmt::Debug for Key {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Key(..)")
    }
}
