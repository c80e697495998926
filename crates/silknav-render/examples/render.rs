//! Generates a world and draws it: a quick way to look at the renderer and the generator.
//!
//! ```text
//! cargo run --release -p silknav-render --example render -- \
//!     --seed 1 --size 4x4 [--region 4081] [--scale 4] [--max-size 4096] [--path] \
//!     [--crop x,y,w,h] [--without relief,tint,outlines,walls,borders,objects,water,title,legend]
//!     --out world.png
//! ```

use silknav::files::{write_atomic, Overwrite};
use silknav::worldgen::{generate, GenOptions, Landscape, DEFAULT_ORIGIN};
use silknav_render::{render_with_overlay, Colour, Overlay, Pin, RenderOptions};
use std::time::Instant;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut world_options = GenOptions {
        seed: 1,
        width: 2,
        height: 2,
        origin: DEFAULT_ORIGIN,
        landscape: Landscape::Rugged,
    };
    let mut options = RenderOptions::default();
    let mut out = String::from("world.png");
    let mut with_path = false;
    let mut crop: Option<Vec<u32>> = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = || args.next().ok_or_else(|| format!("{arg} needs a value"));
        match arg.as_str() {
            "--seed" => world_options.seed = value()?.parse()?,
            "--size" => {
                let v = value()?;
                let (w, h) = v.split_once('x').ok_or("--size is WxH")?;
                (world_options.width, world_options.height) = (w.parse()?, h.parse()?);
            }
            "--region" => {
                options.region = Some(jmxv::RegionId(u16::from_str_radix(&value()?, 16)?))
            }
            "--scale" => options.scale = Some(value()?.parse()?),
            "--max-size" => options.max_size = value()?.parse()?,
            "--path" => with_path = true,
            "--without" => {
                for layer in value()?.split(',') {
                    let l = &mut options.layers;
                    match layer {
                        "relief" => l.relief = false,
                        "tint" => l.tint = false,
                        "outlines" => l.cell_outlines = false,
                        "walls" => l.walls = false,
                        "borders" => l.region_borders = false,
                        "objects" => l.objects = false,
                        "water" => l.water = false,
                        "title" => l.title = false,
                        "legend" => l.legend = false,
                        other => return Err(format!("unknown layer {other}").into()),
                    }
                }
            }
            "--crop" => {
                crop = Some(
                    value()?
                        .split(',')
                        .map(str::parse)
                        .collect::<Result<_, _>>()?,
                )
            }
            "--out" => out = value()?,
            other => return Err(format!("unknown argument {other}").into()),
        }
    }
    let t = Instant::now();
    let world = generate(&world_options)?;
    let generated = t.elapsed();
    let mut overlay = Overlay::default();
    if with_path {
        // A made-up zigzag across the world, to look at the overlay style.
        let (x0, z0) = (
            f64::from(world_options.origin.0) * 1920.0,
            f64::from(world_options.origin.1) * 1920.0,
        );
        let (w, h) = (
            f64::from(world_options.width) * 1920.0,
            f64::from(world_options.height) * 1920.0,
        );
        overlay.paths.push(vec![
            [x0 + 0.1 * w, z0 + 0.15 * h],
            [x0 + 0.4 * w, z0 + 0.3 * h],
            [x0 + 0.45 * w, z0 + 0.7 * h],
            [x0 + 0.85 * w, z0 + 0.85 * h],
        ]);
        overlay.points.push(Pin {
            at: [x0 + 0.6 * w, z0 + 0.4 * h],
            colour: Colour::YELLOW,
            label: "waypoint".into(),
        });
    }
    let t = Instant::now();
    let picture = render_with_overlay(&world.regions, &options, &overlay)?;
    let rendered = t.elapsed();
    let t = Instant::now();
    let png = picture.encode_png();
    let encoded = t.elapsed();
    write_atomic(out.as_ref(), &png, Overwrite::Replace)?;
    if let Some(c) = crop {
        // A piece at full resolution, for looking at details of a big picture.
        let full = tiny_skia::Pixmap::decode_png(&png)?;
        let rect = tiny_skia::IntRect::from_xywh(c[0] as i32, c[1] as i32, c[2], c[3])
            .ok_or("bad crop")?;
        let piece = full.clone_rect(rect).ok_or("crop outside the picture")?;
        let crop_path = format!("{out}.crop.png");
        write_atomic(crop_path.as_ref(), &piece.encode_png()?, Overwrite::Replace)?;
    }
    println!(
        "{out}: {}×{} px, {} bytes, scale {:.2}; generate {generated:.2?}, render {rendered:.2?}, encode {encoded:.2?}",
        picture.width(),
        picture.height(),
        png.len(),
        picture.scale()
    );
    Ok(())
}
