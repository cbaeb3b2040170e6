//! The chart window: the game's sequence of play and printed tables, drawn by muster from
//! the data as printed, then the charts the publisher provides as images, one tab each.

use muster_model::Game;
use muster_render::chart::{Drawn, sequence_svg, table_svg};

use crate::vassal::xml::Element;

/// The chart window's name (its toolbar button).
pub const CHART_WINDOW: &str = "Charts";

/// What a chart's image is.
#[derive(Debug, Clone)]
pub enum Source {
    /// Drawn by muster; rasterised when the module is built.
    Drawn(Drawn),
    /// An image the publisher provides, shipped as it is.
    Image(Vec<u8>),
}

/// One chart of the window.
#[derive(Debug, Clone)]
pub struct Chart {
    /// Its name as printed.
    pub name: String,
    /// Its rule section, when known.
    pub section: Option<String>,
    /// Its image under `images/`.
    pub file: String,
    /// Where the image comes from.
    pub source: Source,
}

impl Chart {
    /// `name (section)`.
    pub fn label(&self) -> String {
        match &self.section {
            Some(s) => format!("{} ({s})", self.name),
            None => self.name.clone(),
        }
    }
}

fn slug(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
    }
    out.trim_end_matches('-').chars().take(40).collect()
}

/// Every chart of the game, in the window's order: the sequence of play, the printed
/// tables of `game.yaml`, the publisher's images.
pub fn charts(game: &Game) -> Vec<Chart> {
    let mut out: Vec<Chart> = Vec::new();
    let mut add = |name: &str, section: Option<&str>, ext: &str, source: Source| {
        let content = match &source {
            Source::Drawn(d) => super::files::drawing(&d.svg, d.width, d.height),
            Source::Image(bytes) => bytes.clone(),
        };
        let stem = format!("chart-{}-{}", out.len() + 1, slug(name));
        let file = super::files::named_by_content(&stem, ext, &content);
        out.push(Chart {
            name: name.to_string(),
            section: section.map(str::to_string),
            file,
            source,
        });
    };
    if let Some(seq) = &game.meta.sequence_of_play {
        add(&seq.title, Some(&seq.section), "png", Source::Drawn(sequence_svg(seq)));
    }
    for t in &game.meta.tables {
        add(&t.title, Some(&t.section), "png", Source::Drawn(table_svg(t, None)));
    }
    for (def, image) in game.meta.module.charts.iter().zip(&game.chart_images) {
        let ext =
            image.path.rsplit_once('.').map_or("png", |(_, e)| e).to_ascii_lowercase();
        add(&def.name, def.section.as_deref(), &ext, Source::Image(image.bytes.clone()));
    }
    out
}

/// The chart window, with a tab per chart; none when the game has no chart.
pub fn element(charts: &[Chart]) -> Option<Element> {
    if charts.is_empty() {
        return None;
    }
    let mut tabs = Element::new(".widget.TabWidget").attr("entryName", CHART_WINDOW);
    for c in charts {
        tabs = tabs.child(
            Element::new(".widget.Chart")
                .attr("chartName", &c.name)
                .attr("description", c.section.as_deref().unwrap_or_default())
                .attr("fileName", &c.file),
        );
    }
    Some(
        Element::new(".module.ChartWindow")
            .attr("name", CHART_WINDOW)
            .attr("description", "")
            .attr("text", CHART_WINDOW)
            .attr("tooltip", "The game's charts and tables")
            .attr("icon", "")
            .attr("hotkey", "")
            .child(tabs),
    )
}
