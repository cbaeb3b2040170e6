//! Reading the files a game's YAML names besides itself: counter templates, counter art
//! and sheets of it, and painted map images; each checked against the model, with every
//! problem at the line and column of the reference (or inside the SVG it names).

use std::collections::BTreeMap;
use std::fs;
use std::path::{Component, Path};
use std::sync::Arc;

use muster_hex::pixel::{Layout, fit_layout};
use muster_hex::{Board, Cell, Sheet};

use crate::art::{self, CutFace, FaceArt, RasterArt};
use crate::assets::MAX_ASSET_BYTES;
use crate::diag::{Diagnostic, Sources, suggest};
use crate::game::{Game, MapArt, Unit};
use crate::input::read_inside;
use crate::source::{ArtSheet, CounterEntry, FaceFiles};
use crate::span::{Span, Spanned};
use crate::template::{self, Template};

/// What a file named in the YAML turned out to be.
enum Asset {
    Raster(Arc<RasterArt>),
    Svg(Arc<Template>),
}

/// Files read so far, by path, so that a file named twice is read once.
struct Reader<'a> {
    dir: &'a Path,
    sources: &'a mut Sources,
    values: Vec<String>,
    read: BTreeMap<String, Option<Asset>>,
    templates: usize,
    errors: Vec<Diagnostic>,
}

impl Clone for Asset {
    fn clone(&self) -> Self {
        match self {
            Asset::Raster(r) => Asset::Raster(r.clone()),
            Asset::Svg(t) => Asset::Svg(t.clone()),
        }
    }
}

impl Reader<'_> {
    /// The file a YAML value names, read and parsed; `None` (with an error) when it
    /// cannot be used.
    fn asset(&mut self, name: &Spanned<String>) -> Option<Asset> {
        if let Some(done) = self.read.get(&name.v) {
            return done.clone();
        }
        let asset = self.load(name);
        self.read.insert(name.v.clone(), asset.clone());
        asset
    }

    fn load(&mut self, name: &Spanned<String>) -> Option<Asset> {
        let rel = Path::new(&name.v);
        if name.v.is_empty()
            || rel.is_absolute()
            || rel.components().any(|c| !matches!(c, Component::Normal(_)))
        {
            self.errors.push(
                Diagnostic::error(
                    name.span,
                    format!("`{}` is not a path inside the game's folder", name.v),
                )
                .with_expected("a relative path such as `art/unit.svg`"),
            );
            return None;
        }
        let path = self.dir.join(rel);
        let fail = |e: String| {
            Diagnostic::error(name.span, format!("failed to read `{}` ({e})", name.v))
        };
        let bytes = match read_inside(self.dir, &path, MAX_ASSET_BYTES) {
            Ok(b) => b,
            Err(e) => {
                let d = e.at(name.span, format_args!("`{}`", name.v));
                let hint = if e.is_missing() { self.nearby(rel) } else { None };
                self.errors.push(d.with_suggestion(hint));
                return None;
            }
        };
        if art::sniff(&bytes).is_some() {
            return match art::decode(&name.v, bytes) {
                Ok(r) => Some(Asset::Raster(Arc::new(r))),
                Err(e) => {
                    let expected = match e {
                        art::ImageError::Size(..) => {
                            "the image at a smaller size (a counter side rarely needs more than 2,000 pixels a side)"
                        }
                        _ => "a PNG, JPEG or SVG file",
                    };
                    self.errors.push(fail(e.to_string()).with_expected(expected));
                    None
                }
            };
        }
        let Ok(text) = String::from_utf8(bytes) else {
            self.errors.push(
                fail(art::ImageError::UnknownFormat.to_string())
                    .with_expected("a PNG, JPEG or SVG file"),
            );
            return None;
        };
        let file = self.sources.add(path, text);
        let text = self.sources.get(file).map(|f| f.text.clone()).unwrap_or_default();
        let tag = format!("t{}", self.templates);
        self.templates += 1;
        match template::parse(file, &text, &name.v, &tag) {
            Ok(t) => {
                let values: Vec<&str> = self.values.iter().map(String::as_str).collect();
                let problems = template::check(&t, &values);
                if problems.is_empty() {
                    Some(Asset::Svg(Arc::new(t)))
                } else {
                    self.errors.extend(problems);
                    None
                }
            }
            Err(e) => {
                self.errors.extend(e);
                None
            }
        }
    }

    /// A file beside the one named that it may have meant.
    fn nearby(&self, rel: &Path) -> Option<String> {
        let folder = rel.parent().unwrap_or(Path::new(""));
        let names: Vec<String> = fs::read_dir(self.dir.join(folder))
            .ok()?
            .filter_map(Result::ok)
            .map(|e| folder.join(e.file_name()).to_string_lossy().into_owned())
            .collect();
        suggest(&rel.to_string_lossy(), names.iter().map(String::as_str))
    }

    fn raster(&mut self, name: &Spanned<String>, what: &str) -> Option<Arc<RasterArt>> {
        match self.asset(name)? {
            Asset::Raster(r) => Some(r),
            Asset::Svg(_) => {
                self.errors.push(
                    Diagnostic::error(
                        name.span,
                        format!("`{}` is SVG; {what} must be a raster image", name.v),
                    )
                    .with_expected("a PNG or JPEG file"),
                );
                None
            }
        }
    }
}

/// Reads and checks every template, art file, sheet of art and map image the game's YAML
/// names, and attaches them to the game. Returns the errors found.
pub(crate) fn attach(game: &mut Game, sources: &mut Sources) -> Vec<Diagnostic> {
    let dir = game.dir.clone();
    let values = game.meta.values.iter().map(|v| v.id.v.clone()).collect();
    let mut r = Reader {
        dir: &dir,
        sources,
        values,
        read: BTreeMap::new(),
        templates: 0,
        errors: Vec::new(),
    };

    // Templates.
    let mut templates = Vec::new();
    for t in &game.meta.counter_style.templates {
        match r.asset(&t.file) {
            Some(Asset::Svg(svg)) => {
                let drawn = template::fields(&svg);
                for s in &t.fields {
                    if !drawn.contains(&s.field.v) {
                        r.errors.push(
                            Diagnostic::error(
                                s.field.span,
                                format!(
                                    "template `{}` has no field `{}`",
                                    t.file.v, s.field.v
                                ),
                            )
                            .with_expected(format!("one of {}", drawn.join(", ")))
                            .with_suggestion(suggest(
                                &s.field.v,
                                drawn.iter().map(String::as_str),
                            )),
                        );
                    }
                }
                templates.push(svg);
            }
            Some(Asset::Raster(_)) => r.errors.push(
                Diagnostic::error(
                    t.file.span,
                    format!("`{}` is a raster image, not a template", t.file.v),
                )
                .with_expected("an SVG file"),
            ),
            None => {}
        }
    }
    let known_fields: Vec<&str> = template::TEXT_FIELDS
        .iter()
        .copied()
        .chain(game.meta.values.iter().map(|v| v.id.v.as_str()))
        .collect();
    for s in &game.meta.counter_style.fields {
        if !known_fields.contains(&s.field.v.as_str()) {
            r.errors.push(
                Diagnostic::error(
                    s.field.span,
                    format!("`{}` is not a counter field", s.field.v),
                )
                .with_expected(format!("one of {}", known_fields.join(", ")))
                .with_suggestion(suggest(&s.field.v, known_fields.iter().copied())),
            );
        }
    }
    for s in game
        .meta
        .counter_style
        .fields
        .iter()
        .chain(game.meta.counter_style.templates.iter().flat_map(|t| &t.fields))
    {
        check_field_style(s, &mut r.errors);
    }

    // Counter art named per side.
    let mut named: BTreeMap<(String, usize), Span> = BTreeMap::new();
    let entries: Vec<Option<&FaceFiles>> = game
        .counters
        .groups
        .iter()
        .flat_map(|g| g.counters.iter())
        .map(|c| match &c.v {
            CounterEntry::Full(d) => d.art.as_ref(),
            CounterEntry::Name(_) => None,
        })
        .chain(game.counters.markers.iter().map(|m| m.art.as_ref()))
        .collect();
    let mut art: Vec<[Option<FaceArt>; 2]> = vec![[None, None]; entries.len()];
    let units: Vec<&Unit> = game.units.iter().chain(&game.markers).collect();
    for (k, files) in entries.iter().enumerate() {
        let Some(files) = files else { continue };
        for (face, file) in [(0, &files.front), (1, &files.back)] {
            let Some(file) = file else { continue };
            if face == 1 && units.get(k).is_some_and(|u| !has_back(u)) {
                r.errors.push(
                    Diagnostic::error(
                        file.span,
                        format!(
                            "`{}` has no back to show `{}`",
                            units[k].printed.v, file.v
                        ),
                    )
                    .with_hint(
                        "a one-step or single-sided counter is printed on its front only",
                    ),
                );
                continue;
            }
            art[k][face] = match r.asset(file) {
                Some(Asset::Raster(img)) => Some(FaceArt::Raster(img)),
                Some(Asset::Svg(t)) => Some(FaceArt::Svg(t)),
                None => None,
            };
            if let Some(u) = units.get(k) {
                named.insert((u.id.clone(), face), file.span);
            }
        }
    }

    // Sheets of art.
    let ids: Vec<&str> = units.iter().map(|u| u.id.as_str()).collect();
    for sheet in &game.counters.art_sheets {
        cut_sheet(&mut r, sheet, &ids, &units, &mut named, &mut art);
    }
    drop(units);
    for (u, a) in game.units.iter_mut().chain(game.markers.iter_mut()).zip(art) {
        u.art = a;
    }
    game.templates = templates;

    // Painted maps.
    let mut map_art = Vec::new();
    for m in &game.maps {
        map_art.push(m.image.as_ref().and_then(|image| {
            let raster = r.raster(&image.file, "a painted map")?;
            fit_map(game, m, image, raster, &mut r.errors)
        }));
    }
    game.map_art = map_art;
    let Reader { errors, .. } = r;
    errors
}

fn has_back(u: &Unit) -> bool {
    !(u.single_sided
        || u.steps == Some(1)
        || (u.category == muster_rules::Category::Marker && u.back_text.is_none()))
}

fn check_field_style(s: &crate::source::FieldStyle, errors: &mut Vec<Diagnostic>) {
    for (what, v) in [
        ("size", &s.size),
        ("fit_width", &s.fit_width),
        ("fit_height", &s.fit_height),
        ("min_size", &s.min_size),
    ] {
        if let Some(v) = v
            && !(v.v.is_finite() && v.v > 0.0)
        {
            errors.push(
                Diagnostic::error(
                    v.span,
                    format!("`{what}: {}` is not a usable length", v.v),
                )
                .with_expected("a positive length in the template's units"),
            );
        }
    }
    if let Some(l) = &s.lines
        && !(1..=3).contains(&l.v)
    {
        errors.push(
            Diagnostic::error(l.span, format!("`lines: {}` is not 1, 2 or 3", l.v))
                .with_expected("1, 2 or 3"),
        );
    }
}

/// Cuts one sheet of art into the faces of the counters its cells name.
fn cut_sheet(
    r: &mut Reader,
    sheet: &ArtSheet,
    ids: &[&str],
    units: &[&Unit],
    named: &mut BTreeMap<(String, usize), Span>,
    art: &mut [[Option<FaceArt>; 2]],
) {
    let [cw, ch] = sheet.cell.v;
    let [gx, gy] = sheet.gutter;
    if !(cw > 0.0
        && ch > 0.0
        && cw.is_finite()
        && ch.is_finite()
        && gx.is_finite()
        && gy.is_finite()
        && gx >= 0.0
        && gy >= 0.0
        && sheet.rotation.is_finite())
    {
        r.errors.push(
            Diagnostic::error(
                sheet.cell.span,
                "the cells of a sheet of art need a positive size",
            )
            .with_expected(
                "`cell: [width, height]` in pixels, and gutters of zero or more",
            ),
        );
        return;
    }
    let Some(front) = r.raster(&sheet.file, "a sheet of art") else { return };
    let back = sheet
        .back
        .as_ref()
        .and_then(|b| r.raster(&b.file, "a sheet of art").map(|img| (b, img)));
    let columns = sheet.rows.iter().map(Vec::len).max().unwrap_or(0);
    let grid_w = columns as f64 * cw + columns.saturating_sub(1) as f64 * gx;
    let (s, c) = art::sin_cos_deg(sheet.rotation);
    let [ox, oy] = sheet.origin.v;
    for (row, cells) in sheet.rows.iter().enumerate() {
        for (col, cell) in cells.iter().enumerate() {
            let Some(id) = cell else { continue };
            let Some(k) = ids.iter().position(|x| *x == id.v) else {
                r.errors.push(
                    Diagnostic::error(
                        id.span,
                        format!(
                            "cell (row {}, column {}) names no counter `{}`",
                            row + 1,
                            col + 1,
                            id.v
                        ),
                    )
                    .with_expected("a counter id, as `muster inspect` lists them")
                    .with_suggestion(suggest(&id.v, ids.iter().copied())),
                );
                continue;
            };
            let (u, v) = (col as f64 * (cw + gx), row as f64 * (ch + gy));
            let corner = (ox + u * c - v * s, oy + u * s + v * c);
            let mut faces =
                vec![(0, CutFace::new(front.clone(), corner, (cw, ch), sheet.rotation))];
            if let Some((b, img)) = &back
                && has_back(units[k])
            {
                let mirrored_col = if b.mirrored { columns - 1 - col } else { col };
                let rotation = b.rotation.unwrap_or(if b.mirrored {
                    -sheet.rotation
                } else {
                    sheet.rotation
                });
                let (bs, bc) = art::sin_cos_deg(rotation);
                let [bx, by] = match &b.origin {
                    Some(o) => o.v,
                    None if b.mirrored => {
                        [f64::from(img.width) - (ox + grid_w * c), oy + grid_w * s]
                    }
                    None => [ox, oy],
                };
                let (u, v) = (mirrored_col as f64 * (cw + gx), v);
                let corner = (bx + u * bc - v * bs, by + u * bs + v * bc);
                faces.push((1, CutFace::new(img.clone(), corner, (cw, ch), rotation)));
            }
            for (face, cut) in faces {
                let (w, h) = (f64::from(cut.sheet.width), f64::from(cut.sheet.height));
                let outside = cut
                    .corners()
                    .iter()
                    .any(|&(x, y)| x < -0.5 || y < -0.5 || x > w + 0.5 || y > h + 0.5);
                if outside {
                    r.errors.push(
                        Diagnostic::error(
                            id.span,
                            format!(
                                "cell (row {}, column {}) of `{}` reaches beyond the image `{}` ({} by {} pixels)",
                                row + 1,
                                col + 1,
                                id.v,
                                cut.sheet.origin,
                                cut.sheet.width,
                                cut.sheet.height
                            ),
                        )
                        .with_hint("check the sheet's `origin`, `cell`, `gutter` and `rotation`"),
                    );
                    continue;
                }
                if let Some(first) = named.get(&(id.v.clone(), face)) {
                    r.errors.push(
                        Diagnostic::error(
                            id.span,
                            format!(
                                "the {} of `{}` is named twice",
                                if face == 0 { "front" } else { "back" },
                                id.v
                            ),
                        )
                        .with_hint(format!("first named at line {}", first.line)),
                    );
                    continue;
                }
                named.insert((id.v.clone(), face), id.span);
                art[k][face] = Some(FaceArt::Cut(Arc::new(cut)));
            }
        }
    }
}

/// Fits the board's grid to a painted map's reference hexes and checks the fit.
fn fit_map(
    game: &Game,
    m: &crate::source::MapFile,
    image: &crate::source::MapImage,
    raster: Arc<RasterArt>,
    errors: &mut Vec<Diagnostic>,
) -> Option<Arc<MapArt>> {
    let board = game.board.as_ref()?;
    let sheet = board.sheets().iter().find(|s| s.id == m.id.v)?;
    let dpi = map_dpi(m, image, &raster, errors)?;
    let (points, spans) = reference_points(board, sheet, m, image, &raster, errors)?;
    let (layout, misses) = fitted_grid(board, &points, &spans, image, errors)?;
    let fitted_in = layout.hex_size / dpi;
    if (fitted_in - m.hex_size_in.v).abs() > m.hex_size_in.v * 0.02 {
        errors.push(
            Diagnostic::error(
                m.hex_size_in.span,
                format!(
                    "the hexes of `{}` are {fitted_in:.3} inches across at {dpi:.1} dpi, not {}",
                    image.file.v, m.hex_size_in.v
                ),
            )
            .with_hint(format!("write `hex_size_in: {fitted_in:.3}`, or check the reference hexes")),
        );
        return None;
    }
    Some(Arc::new(MapArt {
        image: raster,
        dpi,
        layout_px: Layout { origin: layout.origin, ..layout },
        misses_px: misses,
        draw: image.draw.clone(),
    }))
}

/// The resolution of a painted map's image: its `dpi:`, else its width over the map's
/// printed width; none (and said why) when that is no resolution, is not known, or
/// does not give the printed size.
fn map_dpi(
    m: &crate::source::MapFile,
    image: &crate::source::MapImage,
    raster: &RasterArt,
    errors: &mut Vec<Diagnostic>,
) -> Option<f64> {
    let (w, h) = (f64::from(raster.width), f64::from(raster.height));
    let dpi = match (&image.dpi, &m.size) {
        (Some(d), _) if !(d.v.is_finite() && d.v > 0.0) => {
            errors.push(
                Diagnostic::error(d.span, format!("`dpi: {}` is not a resolution", d.v))
                    .with_expected("pixels per inch, above 0"),
            );
            return None;
        }
        (Some(d), Some(size)) => {
            let printed = w / d.v;
            if (printed - size.width_in).abs() > size.width_in * 0.01 {
                errors.push(
                    Diagnostic::error(
                        d.span,
                        format!(
                            "`{}` is {printed:.2} inches wide at {} dpi, but map `{}` is printed {} inches wide",
                            image.file.v, d.v, m.id.v, size.width_in
                        ),
                    )
                    .with_hint(format!("its width gives {:.1} dpi", w / size.width_in)),
                );
                return None;
            }
            d.v
        }
        (Some(d), None) => d.v,
        (None, Some(size)) => w / size.width_in,
        (None, None) => {
            errors.push(
                Diagnostic::error(
                    image.file.span,
                    format!("the resolution of `{}` is not known", image.file.v),
                )
                .with_expected("`dpi:` under `image`, or the map's printed `size`"),
            );
            return None;
        }
    };
    if let Some(size) = &m.size {
        let tall = h / dpi;
        if (tall - size.height_in).abs() > size.height_in * 0.01 {
            errors.push(Diagnostic::error(
                image.file.span,
                format!(
                    "`{}` is {tall:.2} inches tall at {dpi:.1} dpi, but map `{}` is printed {} inches tall",
                    image.file.v, m.id.v, size.height_in
                ),
            ));
            return None;
        }
    }
    Some(dpi)
}

/// A hex and the pixel of its centre in an image.
type Centre = (Cell, (f64, f64));

/// Each reference hex of a painted map as a cell of its sheet and the pixel of its
/// centre, with the label it is written as; none (and said why) unless every one is a
/// hex of the sheet at a pixel of the image and there are two or more.
fn reference_points<'a>(
    board: &Board,
    sheet: &Sheet,
    m: &crate::source::MapFile,
    image: &'a crate::source::MapImage,
    raster: &RasterArt,
    errors: &mut Vec<Diagnostic>,
) -> Option<(Vec<Centre>, Vec<&'a Spanned<String>>)> {
    let (w, h) = (f64::from(raster.width), f64::from(raster.height));
    let mut points = Vec::new();
    let mut spans = Vec::new();
    for rh in &image.hexes {
        let cell = match board.parse(&rh.hex.v) {
            Ok(c) if sheet.contains(c) => c,
            Ok(_) => {
                errors.push(Diagnostic::error(
                    rh.hex.span,
                    format!("reference hex `{}` is not on map `{}`", rh.hex.v, m.id.v),
                ));
                continue;
            }
            Err(e) => {
                errors.push(Diagnostic::error(
                    rh.hex.span,
                    format!("reference hex `{}` is off the map ({e})", rh.hex.v),
                ));
                continue;
            }
        };
        let [x, y] = rh.at.v;
        if !(x.is_finite()
            && y.is_finite()
            && (0.0..=w).contains(&x)
            && (0.0..=h).contains(&y))
        {
            errors.push(
                Diagnostic::error(
                    rh.at.span,
                    format!(
                        "the centre of `{}` at ({x}, {y}) is not in the image",
                        rh.hex.v
                    ),
                )
                .with_expected(format!(
                    "a pixel inside {} by {}",
                    raster.width, raster.height
                )),
            );
            continue;
        }
        points.push((cell, (x, y)));
        spans.push(&rh.hex);
    }
    if points.len() != image.hexes.len() {
        return None;
    }
    if points.len() < 2 {
        errors.push(
            Diagnostic::error(
                image.file.span,
                format!("the grid of map `{}` needs two or more reference hexes", m.id.v),
            )
            .with_expected(
                "`hexes:` with the pixel centre of two or three hexes far apart",
            ),
        );
        return None;
    }
    Some((points, spans))
}

/// The board's grid fitted to the reference hexes' centres, with how far it misses each;
/// none (and said why) when the hexes are all one or it misses one by more than the
/// image's tolerance.
fn fitted_grid(
    board: &Board,
    points: &[Centre],
    spans: &[&Spanned<String>],
    image: &crate::source::MapImage,
    errors: &mut Vec<Diagnostic>,
) -> Option<(Layout, Vec<f64>)> {
    let Some((layout, misses)) = fit_layout(board.grid(), points) else {
        errors.push(Diagnostic::error(
            image.file.span,
            "the reference hexes are all one hex; no grid can be fitted to them",
        ));
        return None;
    };
    let (worst, miss) = misses
        .iter()
        .copied()
        .enumerate()
        .fold((0, 0.0), |a, (i, d)| if d > a.1 { (i, d) } else { a });
    if !(image.tolerance_px.is_finite() && image.tolerance_px >= 0.0)
        || miss > image.tolerance_px
    {
        errors.push(
            Diagnostic::error(
                spans[worst].span,
                format!(
                    "the grid fitted to the reference hexes misses `{}` by {miss:.2} pixels (tolerance {} pixels)",
                    spans[worst].v, image.tolerance_px
                ),
            )
            .with_hint("check that hex's label and the pixel of its centre"),
        );
        return None;
    }
    Some((layout, misses))
}
