//! PNG encoding of rendered pictures.
//!
//! tiny-skia can write PNGs itself, but always with its encoder's fastest setting, which
//! leaves these pictures three to seven times larger than they need to be. Maps with a legend
//! are mostly runs and patterns repeated along a row or from the row above: LZ77 finds those
//! as long matches, while the predicting filters turn them into noisier residuals (measured:
//! no filter is 20–25 % smaller than the best filter per row). So: no filter, best
//! compression.

/// PNG bytes of an opaque picture given as RGBA rows (alpha is dropped).
pub(crate) fn encode_rgb(width: u32, height: u32, rgba: &[u8]) -> Vec<u8> {
    let rgb: Vec<u8> = rgba
        .chunks_exact(4)
        .flat_map(|px| [px[0], px[1], px[2]])
        .collect();
    let mut out = Vec::with_capacity(rgb.len() / 4 + 1024);
    let mut encoder = png::Encoder::new(&mut out, width, height);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_compression(png::Compression::Best);
    encoder.set_filter(png::FilterType::NoFilter);
    encoder.set_adaptive_filter(png::AdaptiveFilterType::NonAdaptive);
    // Writing into memory cannot fail for a picture whose size the renderer already checked.
    let mut writer = encoder
        .write_header()
        .expect("PNG header of a checked size");
    writer
        .write_image_data(&rgb)
        .expect("PNG data of a checked size");
    writer.finish().expect("PNG end");
    out
}
