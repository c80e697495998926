//! The title above the map and the legend beside it.

use crate::colour::{height_tint, palette, Colour};
use crate::features::{draw_marker, Pens};
use crate::font::{draw_text, text_height, text_width};
use crate::frame::{Chrome, Frame};
use crate::overlay::{draw_goal, draw_polyline, draw_start, PATH_COLOURS};
use crate::raster::Canvas;
use crate::terrain::HeightRange;

/// Which classes the picture shows, so the legend lists only those.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct LegendContent {
    pub blocked: bool,
    pub cell_outlines: bool,
    pub walls: bool,
    pub region_borders: bool,
    pub global_edges: bool,
    pub objects: bool,
    pub foreign_objects: bool,
    pub water: bool,
    pub ice: bool,
    /// Some place of the extent has no region.
    pub holes: bool,
    /// The overlay has paths.
    pub paths: bool,
    /// What the placed object meshes show.
    pub object_meshes: crate::objects::Shown,
    /// The map is a dungeon's: its ground is block floors, dark where there is none.
    pub dungeon: bool,
    /// Collision circles are drawn.
    pub circles: bool,
}

#[derive(Debug, Clone, Copy)]
enum Swatch {
    Fill(Colour),
    CellOutline,
    Line(Colour),
    Crossing,
    Object { foreign: bool },
    Path,
    Start,
    Goal,
}

fn entries(c: LegendContent) -> Vec<(Swatch, &'static str)> {
    let all = [
        (!c.dungeon, Swatch::Fill(height_tint(0.3)), "open ground"),
        (c.dungeon, Swatch::Fill(height_tint(0.3)), "block floor"),
        (c.dungeon, Swatch::Fill(palette::BLOCKED), "no floor"),
        (c.blocked, Swatch::Fill(palette::BLOCKED), "blocked"),
        (c.cell_outlines, Swatch::CellOutline, "cell outline"),
        (c.walls, Swatch::Line(palette::WALL), "wall"),
        (
            c.region_borders,
            Swatch::Line(palette::REGION_BORDER),
            "region border",
        ),
        (c.global_edges, Swatch::Crossing, "global edge"),
        (
            c.object_meshes.floor,
            Swatch::Fill(palette::OBJECT_FLOOR),
            "object floor, deck",
        ),
        (
            c.object_meshes.wall,
            Swatch::Line(palette::OBJECT_WALL),
            "object wall",
        ),
        (
            c.object_meshes.doorway,
            Swatch::Line(palette::OBJECT_DOORWAY),
            "doorway",
        ),
        (
            c.object_meshes.link,
            Swatch::Line(palette::OBJECT_LINK),
            "link edge",
        ),
        (
            c.object_meshes.underpass,
            Swatch::Line(palette::OBJECT_UNDERPASS),
            "underpass side",
        ),
        (
            c.object_meshes.siege,
            Swatch::Line(palette::OBJECT_SIEGE),
            "siege gate",
        ),
        (
            c.circles,
            Swatch::Line(palette::COLLISION),
            "collision circle",
        ),
        (c.objects, Swatch::Object { foreign: false }, "object"),
        (
            c.foreign_objects,
            Swatch::Object { foreign: true },
            "object, owner off map",
        ),
        (c.water, Swatch::Fill(palette::WATER), "water"),
        (
            c.water,
            Swatch::Fill(palette::WATER_BLOCKED),
            "water, blocked",
        ),
        (c.ice, Swatch::Fill(palette::ICE), "ice"),
        (c.holes, Swatch::Fill(palette::MISSING), "no region"),
        (c.paths, Swatch::Path, "path"),
        (c.paths, Swatch::Start, "start"),
        (c.paths, Swatch::Goal, "goal"),
    ];
    all.into_iter()
        .filter(|(shown, _, _)| *shown)
        .map(|(_, swatch, label)| (swatch, label))
        .collect()
}

/// Distances inside the legend for one text size, in pixels.
#[derive(Debug, Clone, Copy)]
struct Metrics {
    text: u32,
    pad: u32,
    line: u32,
    swatch_w: u32,
    label_dx: u32,
    bar: u32,
    gap: u32,
}

impl Metrics {
    fn new(text: u32) -> Metrics {
        Metrics {
            text,
            pad: 4 * text,
            line: 12 * text,
            swatch_w: 10 * text,
            label_dx: 13 * text,
            bar: 5 * text,
            gap: 3 * text,
        }
    }
}

const HEADING: &str = "Legend";
const NORTH: &str = "north is up";

/// Height of the title block for a text size.
pub(crate) fn title_height(text: u32) -> u32 {
    text_height(text + 1) + 2 * text + text_height(text) + 4 * text
}

/// Size of the legend panel for a text size.
pub(crate) fn panel_size(text: u32, content: LegendContent) -> (u32, u32) {
    let m = Metrics::new(text);
    let list = entries(content);
    let labels = list
        .iter()
        .map(|(_, l)| m.label_dx + text_width(l, text))
        .max()
        .unwrap_or(0);
    let inner = labels.max(text_width(NORTH, text)).max(60 * text);
    let h = m.pad
        + m.line
        + list.len() as u32 * m.line
        + m.gap
        + (m.line + m.bar + m.text + m.line)
        + m.gap
        + (m.bar + m.text + 2 * m.line)
        + m.gap
        + m.line
        + m.pad;
    (inner + 2 * m.pad, h)
}

/// The chrome of a picture with these parts; `titles` are the title and subtitle lines.
pub(crate) fn chrome(
    text: u32,
    titles: Option<(&str, &str)>,
    legend: bool,
    content: LegendContent,
) -> Chrome {
    let (panel_w, panel_h) = if legend {
        panel_size(text, content)
    } else {
        (0, 0)
    };
    Chrome {
        title_h: titles.map_or(0, |_| title_height(text)),
        title_w: titles.map_or(0, |(title, subtitle)| {
            text_width(title, text + 1).max(text_width(subtitle, text))
        }),
        panel_w,
        panel_h,
    }
}

/// Draws the title line and, under it in a softer ink, the subtitle.
pub(crate) fn draw_title(canvas: &mut Canvas, frame: &Frame, title: &str, subtitle: &str) {
    let t = frame.text;
    let (x, y) = (i64::from(frame.title.x), i64::from(frame.title.y));
    draw_text(canvas, x, y, title, t + 1, palette::INK);
    let y2 = y + i64::from(text_height(t + 1) + 2 * t);
    draw_text(canvas, x, y2, subtitle, t, palette::INK_SOFT);
}

/// The longest round distance whose bar fits in `room` pixels at `scale` pixels per tile.
pub(crate) fn scale_bar(scale: f64, room: u32) -> (u32, u32) {
    const UNITS: [u32; 14] = [
        20, 40, 100, 200, 400, 960, 1920, 3840, 9600, 19200, 38400, 96000, 192000, 384000,
    ];
    let px = |units: u32| (f64::from(units) / 20.0 * scale).round() as u32;
    let units = UNITS
        .iter()
        .rev()
        .copied()
        .find(|&u| px(u) <= room)
        .unwrap_or(UNITS[0]);
    (units, px(units).max(1))
}

/// Draws the legend panel.
pub(crate) fn draw_legend(
    canvas: &mut Canvas,
    frame: &Frame,
    content: LegendContent,
    heights: HeightRange,
    pens: Pens,
) {
    let m = Metrics::new(frame.text);
    let t = m.text;
    let p = frame.panel;
    let (x0, y0) = (i64::from(p.x), i64::from(p.y));
    let (x1, y1) = (x0 + i64::from(p.w), y0 + i64::from(p.h));
    canvas.fill_rect(x0, y0, x1, y1, Colour::WHITE, 1.0);
    canvas.stroke_rect(x0, y0, x1, y1, 1, palette::INK_SOFT);
    let left = x0 + i64::from(m.pad);
    let inner = i64::from(p.w - 2 * m.pad);
    let text_dy = i64::from((m.line - text_height(t)) / 2);
    let mut y = y0 + i64::from(m.pad);

    draw_text(canvas, left, y + text_dy, HEADING, t, palette::INK);
    y += i64::from(m.line);
    for (swatch, label) in entries(content) {
        let (sx, sy) = (left, y + i64::from(2 * t));
        let (sw, sh) = (i64::from(m.swatch_w), i64::from(m.line - 4 * t));
        draw_swatch(canvas, swatch, sx, sy, sw, sh, pens);
        draw_text(
            canvas,
            left + i64::from(m.label_dx),
            y + text_dy,
            label,
            t,
            palette::INK,
        );
        y += i64::from(m.line);
    }

    y += i64::from(m.gap);
    draw_text(canvas, left, y + text_dy, "height", t, palette::INK);
    y += i64::from(m.line);
    for i in 0..inner {
        let colour = height_tint(i as f32 / (inner - 1).max(1) as f32);
        canvas.fill_rect(left + i, y, left + i + 1, y + i64::from(m.bar), colour, 1.0);
    }
    y += i64::from(m.bar + t);
    let (lo, hi) = (format!("{:.0}", heights.lo), format!("{:.0}", heights.hi));
    draw_text(canvas, left, y + text_dy, &lo, t, palette::INK_SOFT);
    let hi_x = left + inner - i64::from(text_width(&hi, t));
    draw_text(canvas, hi_x, y + text_dy, &hi, t, palette::INK_SOFT);
    y += i64::from(m.line);

    y += i64::from(m.gap);
    let (units, length) = scale_bar(frame.scale(), inner as u32);
    let length = i64::from(length);
    let bar = i64::from(m.bar);
    // Alternate halves, like a printed scale bar, so its length reads at a glance.
    canvas.fill_rect(left, y, left + length, y + bar, palette::INK, 1.0);
    canvas.fill_rect(
        left + length / 2,
        y + 1,
        left + length - 1,
        y + bar - 1,
        Colour::WHITE,
        1.0,
    );
    y += bar + i64::from(t);
    let label = format!("{units} units");
    draw_text(canvas, left, y + text_dy, &label, t, palette::INK_SOFT);
    y += i64::from(m.line);
    let scale = format!("{} px per tile", decimal(frame.scale()));
    draw_text(canvas, left, y + text_dy, &scale, t, palette::INK_SOFT);
    y += i64::from(m.line);

    y += i64::from(m.gap);
    draw_text(canvas, left, y + text_dy, NORTH, t, palette::INK_SOFT);
    y += i64::from(m.line);
    debug_assert_eq!(y + i64::from(m.pad), y1, "panel_size and draw_legend agree");
}

/// A number with at most two decimals and no trailing zeros: 2, 2.5, 0.37.
pub(crate) fn decimal(v: f64) -> String {
    let s = format!("{v:.2}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

fn draw_swatch(canvas: &mut Canvas, swatch: Swatch, x: i64, y: i64, w: i64, h: i64, pens: Pens) {
    let (cx, cy) = (x + w / 2, y + h / 2);
    match swatch {
        Swatch::Fill(c) => {
            canvas.fill_rect(x, y, x + w, y + h, c, 1.0);
            canvas.stroke_rect(x, y, x + w, y + h, 1, palette::INK_SOFT);
        }
        Swatch::CellOutline => {
            let ground = height_tint(0.3);
            canvas.fill_rect(x, y, x + w, y + h, ground, 1.0);
            let line = ground.scaled(0.72);
            canvas.fill_rect(cx, y, cx + 1, y + h, line, 1.0);
            canvas.fill_rect(x, cy, x + w, cy + 1, line, 1.0);
            canvas.stroke_rect(x, y, x + w, y + h, 1, palette::INK_SOFT);
        }
        Swatch::Line(c) => {
            let thick = (h / 3).max(2);
            canvas.fill_rect(x, cy - thick / 2, x + w, cy - thick / 2 + thick, c, 1.0);
        }
        Swatch::Crossing => {
            // As on the map: ticks across a border line, on dark ground because the tick
            // colour is pale.
            canvas.fill_rect(x, y, x + w, y + h, palette::BLOCKED, 1.0);
            let border = (pens.border).max(1);
            let c = palette::REGION_BORDER;
            canvas.fill_rect(x, cy, x + w, cy + border, c, 1.0);
            for tx in [x + 1, x + w / 2, x + w - 2] {
                canvas.fill_rect(tx, y + 1, tx + 1, y + h - 1, palette::GLOBAL_EDGE, 1.0);
            }
        }
        Swatch::Object { foreign } => {
            draw_marker(canvas, cx, cy, pens.marker.max((h / 2) | 1), foreign);
        }
        Swatch::Path | Swatch::Start | Swatch::Goal => {
            let r = (h as f32 / 2.5).max(3.0);
            let Some(mut pixmap) = canvas.pixmap() else {
                return;
            };
            let (fx, fy) = (cx as f32 + 0.5, cy as f32 + 0.5);
            match swatch {
                Swatch::Path => {
                    let piece = vec![(x as f32 + 2.0, fy), ((x + w) as f32 - 2.0, fy)];
                    let width = (h / 3).max(3) as f32;
                    draw_polyline(&mut pixmap, &[piece], PATH_COLOURS[0], width, None);
                }
                Swatch::Start => draw_start(&mut pixmap, fx, fy, r, None),
                _ => draw_goal(&mut pixmap, fx, fy, r, None),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scale_bar_picks_the_longest_round_length_that_fits() {
        // Two pixels per tile: a region (1920 units) is 192 pixels.
        assert_eq!(scale_bar(2.0, 200), (1920, 192));
        assert_eq!(scale_bar(2.0, 191), (960, 96));
        assert_eq!(scale_bar(8.0, 250), (400, 160));
        // Too big a scale for any length: the shortest is drawn anyway.
        assert_eq!(scale_bar(500.0, 100), (20, 500));
    }

    #[test]
    fn decimals_lose_trailing_zeros() {
        assert_eq!(decimal(2.0), "2");
        assert_eq!(decimal(2.5), "2.5");
        assert_eq!(decimal(0.3749), "0.37");
        assert_eq!(decimal(10.0), "10");
    }

    #[test]
    fn panel_grows_with_text_and_entries() {
        let (w2, h2) = panel_size(2, LegendContent::default());
        let (w4, h4) = panel_size(4, LegendContent::default());
        assert_eq!((w4, h4), (2 * w2, 2 * h2));
        let more = LegendContent {
            holes: true,
            paths: true,
            ..LegendContent::default()
        };
        let (_, with_paths) = panel_size(2, more);
        assert_eq!(with_paths, h2 + 4 * 24, "four more lines of 24 pixels");
        assert_eq!(
            entries(LegendContent::default()).len(),
            1,
            "only open ground"
        );
    }
}
