//! Running the binary, and navmesh files with odd values in every layout.

use jmxv::nvm::{Cell, GlobalEdge, InternalEdge, Layout, Link, NavMesh, Object, Tile};
use jmxv::F32;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// What a run of the binary left behind.
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    /// The single line of standard error; fails when there is not exactly one.
    pub fn error_line(&self) -> &str {
        let lines: Vec<&str> = self.stderr.lines().collect();
        assert_eq!(
            lines.len(),
            1,
            "expected one line on stderr, got {:?}",
            self.stderr
        );
        assert!(!self.stderr.contains("panicked"), "{}", self.stderr);
        lines[0]
    }
}

/// Runs `silknav` with these arguments in `dir`.
pub fn silknav(dir: &Path, args: &[&str]) -> Run {
    silknav_with_stdin(dir, args, &[])
}

/// Runs `silknav` with these arguments in `dir`, feeding `stdin`.
pub fn silknav_with_stdin(dir: &Path, args: &[&str], stdin: &[u8]) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_silknav"))
        .args(args)
        .current_dir(dir)
        .env("RUST_BACKTRACE", "1") // a panic would show its backtrace, and fail the test
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    // Feed stdin from another thread while this one collects the output: a batch answers as
    // it reads, so a large batch fills the output pipe before its input is all written.
    let mut input = child.stdin.take().expect("piped");
    let out = std::thread::scope(|scope| {
        scope.spawn(move || {
            // Ignore a write error: a command that does not read stdin may exit before we
            // finish.
            let _ = input.write_all(stdin);
        });
        child.wait_with_output().expect("the binary ends")
    });
    Run {
        code: out.status.code().expect("exited, not killed"),
        stdout: String::from_utf8(out.stdout).expect("UTF-8 stdout"),
        stderr: String::from_utf8(out.stderr).expect("UTF-8 stderr"),
    }
}

/// A fresh temporary folder.
pub fn temp() -> tempfile::TempDir {
    tempfile::tempdir().expect("a temporary folder")
}

/// Writes `mesh` as `dir/name` and returns the path.
pub fn write_nvm(dir: &Path, name: &str, mesh: &NavMesh) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, mesh.to_vec().expect("test meshes are writable")).unwrap();
    path
}

/// The names of the files in `dir`, sorted.
pub fn names_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// Runs `silknav gen --out NAME --seed SEED --size SIZE` in `dir` and returns the folder.
pub fn gen_world(dir: &Path, name: &str, seed: u64, size: &str) -> PathBuf {
    let run = silknav(
        dir,
        &[
            "gen",
            "--out",
            name,
            "--seed",
            &seed.to_string(),
            "--size",
            size,
        ],
    );
    assert_eq!(run.code, 0, "gen: {}{}", run.stdout, run.stderr);
    dir.join(name)
}

/// The width and height of a PNG, after checking its signature and that the first chunk is
/// IHDR.
pub fn png_size(bytes: &[u8]) -> (u32, u32) {
    assert!(
        bytes.len() > 24,
        "too short for a PNG: {} bytes",
        bytes.len()
    );
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n", "PNG signature");
    assert_eq!(&bytes[12..16], b"IHDR", "first chunk");
    let be = |at: usize| u32::from_be_bytes(bytes[at..at + 4].try_into().unwrap());
    (be(16), be(20))
}

/// Every file in `dir` (not below), by name, with its bytes.
pub fn files_in(dir: &Path) -> Vec<(String, Vec<u8>)> {
    names_in(dir)
        .into_iter()
        .map(|name| {
            let bytes = std::fs::read(dir.join(&name)).unwrap();
            (name, bytes)
        })
        .collect()
}

/// A fixed pseudo-random sequence of 32-bit patterns (xorshift), so that the height map holds
/// every kind of float: NaNs with payloads, infinities, subnormals, both zeros.
pub fn bit_patterns(seed: u32) -> impl Iterator<Item = u32> {
    let mut x = seed.max(1);
    std::iter::repeat_with(move || {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        x
    })
}

/// Floats that a careless writer would change.
pub const ODD_FLOATS: [u32; 10] = [
    0x8000_0000, // -0.0
    0x0000_0001, // smallest subnormal
    0x807f_ffff, // largest negative subnormal
    0x7fc0_0001, // quiet NaN with a payload
    0xff80_0001, // signalling NaN, sign set
    0x7f80_0000, // +inf
    0xff80_0000, // -inf
    0x7f7f_ffff, // f32::MAX
    0x3dcc_cccd, // 0.1
    0x4120_0001, // 10.000001
];

fn f(bits: u32) -> F32 {
    F32::from_bits(bits)
}

/// A standard-layout mesh with odd values everywhere: NaN payloads, -0.0, infinities,
/// subnormals, "booleans" of 7, direction bytes 0x80, tile cell indices with high bits set,
/// counts that disagree, and trailing bytes.
pub fn odd_standard() -> NavMesh {
    let objects = vec![
        Object {
            object_id: 0xdead_beef,
            position: [f(0x7fc0_0001), f(0x8000_0000), f(1)],
            kind: 0xffff,
            yaw: f(0x7f80_0000),
            uid: 7,
            short0: 0x8001,
            is_big: 7,
            is_struct: 255,
            region_id: 0x694e,
            links: vec![
                Link {
                    link_object: 0xffff,
                    link_edge: 3,
                    edge: 0xffff,
                },
                Link {
                    link_object: 1,
                    link_edge: 0,
                    edge: 2,
                },
            ],
        },
        Object {
            object_id: 1,
            position: [F32::from(1919.99); 3],
            ..Object::default()
        },
    ];
    let mut mesh = NavMesh {
        objects,
        open_cell_count: 5, // more than there are cells: kept verbatim
        trailing: vec![0, 1, 0x7f, 0x80, 0xff, b'{'],
        ..NavMesh::default()
    };
    mesh.cells.push(Cell {
        min: [f(0x8000_0000), f(0x8000_0001)],
        max: [f(0xff80_0000), f(0xffff_ffff)],
        objects: vec![0, 1, 0xffff],
    });
    mesh.global_edges.push(GlobalEdge {
        a: [f(0x7f7f_ffff), f(0x0000_0001)],
        b: [F32::from(1920.0), F32::from(0.0)],
        flag: 0x80,
        dir: [0x80, 0xff],
        cell: [0, 0xffff],
        region: [0x694e, 0xffff],
    });
    mesh.internal_edges.push(InternalEdge {
        a: [F32::from(20.0), F32::from(0.1)],
        b: [f(0x7fff_ffff), f(0x807f_ffff)],
        flag: 0xff,
        dir: [0x80, 3],
        cell: [1, 0xffff],
    });
    for (i, tile) in mesh.tiles.iter_mut().enumerate() {
        *tile = Tile {
            cell_index: (i as u32 % 2) | 0xdead_0000,
            flag: (i as u16).wrapping_mul(7),
            texture_id: 0xffff - i as u16,
        };
    }
    fill_floats(&mut mesh.heights[..], 1);
    for (i, t) in mesh.planes.types.iter_mut().enumerate() {
        *t = (i as u8).wrapping_mul(37);
    }
    fill_floats(&mut mesh.planes.heights, 2);
    mesh
}

/// [`odd_standard`] in the legacy layout with 4-byte tiles and plane maps.
pub fn odd_tiles4() -> NavMesh {
    let mut mesh = odd_standard();
    mesh.layout = Layout::Tiles4;
    for tile in mesh.tiles.iter_mut() {
        tile.flag = 0;
        tile.texture_id = 0;
    }
    mesh.trailing.clear();
    mesh
}

/// [`odd_standard`] in the legacy layout with 4-byte tiles and no plane maps.
pub fn odd_noplanes() -> NavMesh {
    let mut mesh = odd_tiles4();
    mesh.layout = Layout::Tiles4NoPlanes;
    mesh.planes = Default::default();
    mesh
}

/// [`odd_standard`] with a signature that is neither the right one nor printable.
pub fn odd_signature() -> NavMesh {
    let mut mesh = odd_standard();
    mesh.signature = *b"\xffJMXVNVM\x00100";
    mesh
}

fn fill_floats(out: &mut [F32], seed: u32) {
    let odd = ODD_FLOATS.into_iter();
    for (slot, bits) in out.iter_mut().zip(odd.chain(bit_patterns(seed))) {
        *slot = F32::from_bits(bits);
    }
}
