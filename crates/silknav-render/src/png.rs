//! A small PNG writer: 8-bit RGB, one zlib stream of dynamic-Huffman deflate blocks.
//!
//! tiny-skia can write PNGs, but it always asks its encoder for the fastest setting, which
//! leaves these pictures three to seven times larger than they need to be (measured on
//! rendered worlds: a 2×2 world at two pixels per tile is 395 KB from tiny-skia and about
//! 100 KB fully compressed). A map with a legend is mostly runs and repeated patterns, which
//! LZ77 with Huffman coding squeezes well, so this module does that, written from the PNG,
//! zlib and deflate specifications (RFC 1950, RFC 1951). Correctness is checked by decoding
//! the output with tiny-skia's (independent) decoder.

/// Matches are searched in a 32 KiB window, the largest deflate allows.
const WINDOW: usize = 1 << 15;
const MIN_MATCH: usize = 3;
const MAX_MATCH: usize = 258;
const HASH_BITS: u32 = 15;
/// How many earlier positions with the same hash are tried per match. Pictures repeat over
/// short distances (a row above, a tile to the left), so a short chain finds nearly every
/// match a long one would, at a fraction of the time.
const MAX_CHAIN: usize = 48;
/// A match this long is taken without looking for a longer one at the next byte.
const GOOD_ENOUGH: usize = 32;
/// Symbols per deflate block: each block gets Huffman codes fitted to its own statistics.
const BLOCK_SYMBOLS: usize = 1 << 16;
/// IDAT chunks are cut at this size, which every decoder handles.
const IDAT_CHUNK: usize = 1 << 18;

/// PNG bytes of an opaque picture given as RGBA rows (alpha is dropped).
pub(crate) fn encode_rgb(width: u32, height: u32, rgba: &[u8]) -> Vec<u8> {
    let filtered = filter_rows(width as usize, height as usize, rgba);
    let zlib = zlib(&filtered);
    let mut out = Vec::with_capacity(zlib.len() + 128);
    out.extend_from_slice(b"\x89PNG\r\n\x1a\n");
    let mut ihdr = Vec::with_capacity(13);
    ihdr.extend_from_slice(&width.to_be_bytes());
    ihdr.extend_from_slice(&height.to_be_bytes());
    // Bit depth 8, colour type 2 (RGB), deflate, adaptive filtering, no interlace.
    ihdr.extend_from_slice(&[8, 2, 0, 0, 0]);
    chunk(&mut out, b"IHDR", &ihdr);
    for part in zlib.chunks(IDAT_CHUNK) {
        chunk(&mut out, b"IDAT", part);
    }
    chunk(&mut out, b"IEND", &[]);
    out
}

fn chunk(out: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
    out.extend_from_slice(&(data.len() as u32).to_be_bytes());
    let start = out.len();
    out.extend_from_slice(kind);
    out.extend_from_slice(data);
    let crc = crc32(&out[start..]);
    out.extend_from_slice(&crc.to_be_bytes());
}

fn crc32(bytes: &[u8]) -> u32 {
    static TABLE: std::sync::OnceLock<[u32; 256]> = std::sync::OnceLock::new();
    let table = TABLE.get_or_init(|| {
        let mut t = [0u32; 256];
        for (n, entry) in t.iter_mut().enumerate() {
            let mut c = n as u32;
            for _ in 0..8 {
                c = if c & 1 != 0 {
                    0xEDB8_8320 ^ (c >> 1)
                } else {
                    c >> 1
                };
            }
            *entry = c;
        }
        t
    });
    !bytes.iter().fold(!0u32, |c, &b| {
        table[((c ^ u32::from(b)) & 0xFF) as usize] ^ (c >> 8)
    })
}

fn adler32(bytes: &[u8]) -> u32 {
    const MOD: u32 = 65_521;
    let (mut a, mut b) = (1u32, 0u32);
    // 5552 is the longest run whose sums cannot overflow u32 before the reduction.
    for block in bytes.chunks(5552) {
        for &byte in block {
            a += u32::from(byte);
            b += a;
        }
        a %= MOD;
        b %= MOD;
    }
    (b << 16) | a
}

/// The scanlines, each behind its filter type byte: always 0, no filter.
///
/// Measured on rendered worlds, unfiltered rows compress best: the pictures are flat areas,
/// text, and tile patterns repeated along a row or from the row above, which LZ77 finds as
/// long matches; the predicting filters turn those into noisier residuals. Against the best
/// of the five filters chosen per row by the usual smallest-residual rule, no filter was
/// 20–25 % smaller.
fn filter_rows(width: usize, height: usize, rgba: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity((width * 3 + 1) * height);
    for row in rgba.chunks_exact(width * 4).take(height) {
        out.push(0);
        for px in row.chunks_exact(4) {
            out.extend_from_slice(&px[..3]);
        }
    }
    out
}

/// A zlib stream (RFC 1950) of `data`.
fn zlib(data: &[u8]) -> Vec<u8> {
    // CMF 0x78: deflate with a 32 KiB window; FLG 0x9C makes the header a multiple of 31.
    let mut w = BitWriter {
        out: vec![0x78, 0x9C],
        acc: 0,
        bits: 0,
    };
    deflate(data, &mut w);
    let mut out = w.finish();
    out.extend_from_slice(&adler32(data).to_be_bytes());
    out
}

/// Writes bits least significant first, as deflate packs them.
struct BitWriter {
    out: Vec<u8>,
    acc: u64,
    bits: u32,
}

impl BitWriter {
    fn put(&mut self, value: u32, count: u32) {
        debug_assert!(count <= 32 && (count == 32 || value >> count == 0));
        self.acc |= u64::from(value) << self.bits;
        self.bits += count;
        while self.bits >= 8 {
            self.out.push(self.acc as u8);
            self.acc >>= 8;
            self.bits -= 8;
        }
    }

    fn finish(mut self) -> Vec<u8> {
        if self.bits > 0 {
            self.out.push(self.acc as u8);
        }
        self.out
    }
}

/// One LZ77 symbol: a literal byte, or a match of `len` bytes `dist` back.
#[derive(Debug, Clone, Copy)]
enum Symbol {
    Literal(u8),
    Match { len: u16, dist: u16 },
}

/// Base lengths of length codes 257..=285 (RFC 1951 §3.2.5) and their extra bits.
const LEN_BASE: [u16; 29] = [
    3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131,
    163, 195, 227, 258,
];
const LEN_EXTRA: [u8; 29] = [
    0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
];
/// Base distances of distance codes 0..=29 and their extra bits.
const DIST_BASE: [u16; 30] = [
    1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537,
    2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577,
];
const DIST_EXTRA: [u8; 30] = [
    0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13,
    13,
];
/// The order in which code-length code lengths are stored.
const CLEN_ORDER: [usize; 19] = [
    16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15,
];

fn length_code(len: u16) -> usize {
    LEN_BASE.partition_point(|&b| b <= len) - 1
}

fn dist_code(dist: u16) -> usize {
    DIST_BASE.partition_point(|&b| b <= dist) - 1
}

/// The LZ77 match finder: hash chains over 3-byte prefixes.
struct Matcher<'a> {
    data: &'a [u8],
    /// Latest position with each hash, or `u32::MAX`.
    head: Vec<u32>,
    /// For each position in the window, the previous position with the same hash.
    prev: Vec<u32>,
}

impl<'a> Matcher<'a> {
    fn new(data: &'a [u8]) -> Matcher<'a> {
        Matcher {
            data,
            head: vec![u32::MAX; 1 << HASH_BITS],
            prev: vec![u32::MAX; WINDOW],
        }
    }

    fn hash(&self, i: usize) -> usize {
        let d = self.data;
        let v = u32::from(d[i]) | u32::from(d[i + 1]) << 8 | u32::from(d[i + 2]) << 16;
        (v.wrapping_mul(0x9E37_79B1) >> (32 - HASH_BITS)) as usize
    }

    fn insert(&mut self, i: usize) {
        if i + MIN_MATCH <= self.data.len() {
            let h = self.hash(i);
            self.prev[i % WINDOW] = self.head[h];
            self.head[h] = i as u32;
        }
    }

    /// The longest earlier match of the bytes at `i`: (length, distance), or (0, 0).
    fn longest(&self, i: usize) -> (usize, usize) {
        let d = self.data;
        if i + MIN_MATCH > d.len() {
            return (0, 0);
        }
        let max = MAX_MATCH.min(d.len() - i);
        let (mut best_len, mut best_dist) = (0, 0);
        let mut candidate = self.head[self.hash(i)];
        for _ in 0..MAX_CHAIN {
            if candidate == u32::MAX {
                break;
            }
            let j = candidate as usize;
            if j >= i || i - j >= WINDOW {
                break;
            }
            // Checking the byte that would make the match longer first rejects most
            // candidates at once.
            let probe = best_len.min(max - 1);
            if d[j + probe] == d[i + probe] {
                let len = d[j..j + max]
                    .iter()
                    .zip(&d[i..i + max])
                    .take_while(|(a, b)| a == b)
                    .count();
                if len > best_len {
                    (best_len, best_dist) = (len, i - j);
                    if len == max {
                        break;
                    }
                }
            }
            let next = self.prev[j % WINDOW];
            // Chains run back in time; a slot reused by a newer position ends the chain.
            if next == u32::MAX || next as usize >= j {
                break;
            }
            candidate = next;
        }
        if best_len >= MIN_MATCH {
            (best_len, best_dist)
        } else {
            (0, 0)
        }
    }
}

/// Deflates `data` into `w` as dynamic-Huffman blocks, the last one marked final.
fn deflate(data: &[u8], w: &mut BitWriter) {
    let mut m = Matcher::new(data);
    let mut symbols = Vec::with_capacity(BLOCK_SYMBOLS);
    let mut i = 0;
    while i < data.len() {
        let (mut len, mut dist) = m.longest(i);
        m.insert(i);
        // One step of lazy matching: when the match at the next byte is longer, a literal
        // first and that match is the better deal.
        if (MIN_MATCH..GOOD_ENOUGH).contains(&len) && m.longest(i + 1).0 > len {
            symbols.push(Symbol::Literal(data[i]));
            i += 1;
            (len, dist) = m.longest(i);
            m.insert(i);
        }
        if len >= MIN_MATCH {
            symbols.push(Symbol::Match {
                len: len as u16,
                dist: dist as u16,
            });
            for k in i + 1..i + len {
                m.insert(k);
            }
            i += len;
        } else {
            symbols.push(Symbol::Literal(data[i]));
            i += 1;
        }
        if symbols.len() >= BLOCK_SYMBOLS {
            write_block(&symbols, false, w);
            symbols.clear();
        }
    }
    write_block(&symbols, true, w);
}

/// Canonical Huffman codes for code lengths (RFC 1951 §3.2.2), bit-reversed for writing.
fn canonical_codes(lengths: &[u8]) -> Vec<u32> {
    let mut count = [0u32; 16];
    for &l in lengths {
        count[usize::from(l)] += 1;
    }
    count[0] = 0;
    let mut next = [0u32; 16];
    let mut code = 0u32;
    for bits in 1..16 {
        code = (code + count[bits - 1]) << 1;
        next[bits] = code;
    }
    lengths
        .iter()
        .map(|&l| {
            if l == 0 {
                return 0;
            }
            let c = next[usize::from(l)];
            next[usize::from(l)] += 1;
            c.reverse_bits() >> (32 - u32::from(l))
        })
        .collect()
}

/// Optimal code lengths of at most `limit` bits for these frequencies (package-merge).
///
/// Every alphabet gets at least two codes, so the code is always complete: a lone symbol
/// would otherwise get a one-bit code with one unused value, which some decoders refuse.
fn code_lengths(freq: &[u32], limit: u8) -> Vec<u8> {
    let mut used: Vec<usize> = (0..freq.len()).filter(|&s| freq[s] > 0).collect();
    for filler in 0..freq.len() {
        if used.len() >= 2 {
            break;
        }
        if !used.contains(&filler) {
            used.push(filler);
        }
    }
    used.sort_by_key(|&s| (freq[s].max(1), s));
    let weight = |s: usize| u64::from(freq[s].max(1));

    // Each list item is a leaf or a package of two items of the previous list.
    #[derive(Clone, Copy)]
    enum Item {
        Leaf(usize),
        Package(usize, usize),
    }
    let leaves: Vec<(u64, Item)> = used.iter().map(|&s| (weight(s), Item::Leaf(s))).collect();
    let mut levels: Vec<Vec<(u64, Item)>> = vec![leaves.clone()];
    for _ in 1..limit {
        let last = levels.last().map_or(&[][..], |v| &v[..]);
        let packages: Vec<(u64, Item)> = (0..last.len() / 2)
            .map(|k| {
                (
                    last[2 * k].0 + last[2 * k + 1].0,
                    Item::Package(2 * k, 2 * k + 1),
                )
            })
            .collect();
        let mut merged = Vec::with_capacity(leaves.len() + packages.len());
        let (mut a, mut b) = (0, 0);
        while a < leaves.len() || b < packages.len() {
            // Leaves first on ties, which keeps codes shallower.
            if b >= packages.len() || (a < leaves.len() && leaves[a].0 <= packages[b].0) {
                merged.push(leaves[a]);
                a += 1;
            } else {
                merged.push(packages[b]);
                b += 1;
            }
        }
        levels.push(merged);
    }
    let mut lengths = vec![0u8; freq.len()];
    let mut stack: Vec<(usize, usize)> = Vec::new();
    let top = levels.len() - 1;
    for k in 0..2 * used.len() - 2 {
        stack.push((top, k));
    }
    while let Some((level, k)) = stack.pop() {
        match levels[level][k].1 {
            Item::Leaf(s) => lengths[s] += 1,
            Item::Package(x, y) => {
                stack.push((level - 1, x));
                stack.push((level - 1, y));
            }
        }
    }
    lengths
}

/// Run-length codes of a sequence of code lengths: (symbol 0..=18, extra value).
fn rle_lengths(lengths: &[u8]) -> Vec<(u8, u8)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < lengths.len() {
        let l = lengths[i];
        let run = lengths[i..].iter().take_while(|&&x| x == l).count();
        if l == 0 && run >= 3 {
            let n = run.min(138);
            if n >= 11 {
                out.push((18, (n - 11) as u8));
            } else {
                out.push((17, (n - 3) as u8));
            }
            i += n;
        } else if l != 0 && run >= 4 {
            out.push((l, 0));
            let n = (run - 1).min(6);
            out.push((16, (n - 3) as u8));
            i += 1 + n;
        } else {
            out.push((l, 0));
            i += 1;
        }
    }
    out
}

fn write_block(symbols: &[Symbol], last: bool, w: &mut BitWriter) {
    let mut lit_freq = [0u32; 286];
    let mut dist_freq = [0u32; 30];
    for s in symbols {
        match *s {
            Symbol::Literal(b) => lit_freq[usize::from(b)] += 1,
            Symbol::Match { len, dist } => {
                lit_freq[257 + length_code(len)] += 1;
                dist_freq[dist_code(dist)] += 1;
            }
        }
    }
    lit_freq[256] = 1;
    let lit_len = code_lengths(&lit_freq, 15);
    let dist_len = code_lengths(&dist_freq, 15);
    let hlit = lit_len
        .iter()
        .rposition(|&l| l != 0)
        .map_or(257, |p| (p + 1).max(257));
    let hdist = dist_len.iter().rposition(|&l| l != 0).map_or(1, |p| p + 1);
    let mut all = lit_len[..hlit].to_vec();
    all.extend_from_slice(&dist_len[..hdist]);
    let rle = rle_lengths(&all);
    let mut clen_freq = [0u32; 19];
    for &(sym, _) in &rle {
        clen_freq[usize::from(sym)] += 1;
    }
    let clen_len = code_lengths(&clen_freq, 7);
    let clen_code = canonical_codes(&clen_len);
    let hclen = CLEN_ORDER
        .iter()
        .rposition(|&s| clen_len[s] != 0)
        .map_or(4, |p| (p + 1).max(4));

    w.put(u32::from(last), 1);
    w.put(2, 2); // dynamic Huffman
    w.put((hlit - 257) as u32, 5);
    w.put((hdist - 1) as u32, 5);
    w.put((hclen - 4) as u32, 4);
    for &s in &CLEN_ORDER[..hclen] {
        w.put(u32::from(clen_len[s]), 3);
    }
    for &(sym, extra) in &rle {
        let s = usize::from(sym);
        w.put(clen_code[s], u32::from(clen_len[s]));
        match sym {
            16 => w.put(u32::from(extra), 2),
            17 => w.put(u32::from(extra), 3),
            18 => w.put(u32::from(extra), 7),
            _ => {}
        }
    }

    let lit_code = canonical_codes(&lit_len);
    let dist_code_bits = canonical_codes(&dist_len);
    for s in symbols {
        match *s {
            Symbol::Literal(b) => {
                let b = usize::from(b);
                w.put(lit_code[b], u32::from(lit_len[b]));
            }
            Symbol::Match { len, dist } => {
                let lc = length_code(len);
                w.put(lit_code[257 + lc], u32::from(lit_len[257 + lc]));
                w.put(u32::from(len - LEN_BASE[lc]), u32::from(LEN_EXTRA[lc]));
                let dc = dist_code(dist);
                w.put(dist_code_bits[dc], u32::from(dist_len[dc]));
                w.put(u32::from(dist - DIST_BASE[dc]), u32::from(DIST_EXTRA[dc]));
            }
        }
    }
    w.put(lit_code[256], u32::from(lit_len[256]));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode(png: &[u8]) -> tiny_skia::Pixmap {
        tiny_skia::Pixmap::decode_png(png).expect("the PNG decodes")
    }

    fn round_trip(width: u32, height: u32, rgba: &[u8]) -> usize {
        let png = encode_rgb(width, height, rgba);
        let back = decode(&png);
        assert_eq!((back.width(), back.height()), (width, height));
        assert_eq!(back.data(), rgba, "{width}×{height}");
        png.len()
    }

    fn opaque(mut bytes: Vec<u8>) -> Vec<u8> {
        for px in bytes.chunks_exact_mut(4) {
            px[3] = 255;
        }
        bytes
    }

    #[test]
    fn checksums_match_known_values() {
        assert_eq!(crc32(b"IEND"), 0xAE42_6082);
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
        assert_eq!(adler32(b"Wikipedia"), 0x11E6_0398);
        assert_eq!(adler32(&vec![255u8; 100_000]), {
            let (mut a, mut b) = (1u64, 0u64);
            for _ in 0..100_000 {
                a = (a + 255) % 65_521;
                b = (b + a) % 65_521;
            }
            ((b << 16) | a) as u32
        });
    }

    #[test]
    fn flat_and_tiny_pictures_round_trip() {
        round_trip(1, 1, &[10, 20, 30, 255]);
        let flat = opaque(vec![200; 300 * 200 * 4]);
        let size = round_trip(300, 200, &flat);
        assert!(
            size < 2_000,
            "a flat picture compresses to almost nothing: {size}"
        );
    }

    #[test]
    fn noise_and_patterns_round_trip() {
        // Pseudo-random bytes defeat LZ77 and skew Huffman codes to their limits; long
        // periodic patterns exercise long matches and far distances.
        let mut state = 0x1234_5678_u32;
        let noise: Vec<u8> = (0..257 * 131 * 4)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 17;
                state ^= state << 5;
                (state >> 24) as u8
            })
            .collect();
        round_trip(257, 131, &opaque(noise));
        let pattern: Vec<u8> = (0..1000 * 70 * 4)
            .map(|i| ((i / 4) % 97 * 3 + (i / 17_000)) as u8)
            .collect();
        round_trip(1000, 70, &opaque(pattern));
        // A skewed histogram: a few very common values and a long tail, so that package-merge
        // has to cut deep codes down to 15 bits.
        let skewed: Vec<u8> = (0..400 * 400 * 4u32)
            .map(|i| {
                let r = i.wrapping_mul(2_654_435_761).rotate_left(7);
                (r.trailing_zeros() * 9 + (r >> 29)) as u8
            })
            .collect();
        round_trip(400, 400, &opaque(skewed));
    }

    #[test]
    fn code_lengths_respect_their_limit_and_are_complete() {
        // Fibonacci frequencies make an unlimited Huffman code as deep as possible.
        let mut freq = vec![0u32; 40];
        let (mut a, mut b) = (1u32, 1u32);
        for f in freq.iter_mut().take(30) {
            *f = a;
            (a, b) = (b, a.saturating_add(b));
        }
        for limit in [7u8, 15] {
            let lengths = code_lengths(&freq, limit);
            assert!(lengths.iter().all(|&l| l <= limit));
            let kraft: f64 = lengths
                .iter()
                .filter(|&&l| l > 0)
                .map(|&l| 0.5f64.powi(i32::from(l)))
                .sum();
            assert!((kraft - 1.0).abs() < 1e-12, "complete code: {kraft}");
        }
        let lone = code_lengths(&[0, 0, 5, 0], 15);
        assert_eq!(lone.iter().filter(|&&l| l == 1).count(), 2, "{lone:?}");
    }

    #[test]
    fn run_lengths_cover_every_code_length() {
        let lengths: Vec<u8> = [vec![0; 150], vec![5; 9], vec![0; 4], vec![3, 3]].concat();
        let mut expanded = Vec::new();
        for (sym, extra) in rle_lengths(&lengths) {
            match sym {
                16 => {
                    let last = *expanded.last().unwrap();
                    expanded.extend(std::iter::repeat(last).take(usize::from(extra) + 3));
                }
                17 => expanded.extend(std::iter::repeat(0).take(usize::from(extra) + 3)),
                18 => expanded.extend(std::iter::repeat(0).take(usize::from(extra) + 11)),
                l => expanded.push(l),
            }
        }
        assert_eq!(expanded, lengths);
    }
}
