//! The print sheets as a print shop's preflight reads them, with readers muster does not
//! share code with: qpdf (`--check`, `--json`) for the PDF/X-4 structure (output intent
//! and its ICC profile, the PDF/X version in the information dictionary, the XMP
//! metadata, trim and bleed boxes on every page), and Ghostscript for drawing every page
//! without a word on its error stream.
//!
//! `.ci/run` installs both and sets `MUSTER_REQUIRE_QPDF` and `MUSTER_REQUIRE_GHOSTSCRIPT`,
//! which turn a missing tool into a failure.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

use crate::util::{copy_tree, rgba, root};

/// 1/8 inch in points: the least bleed a print shop asks for.
const EIGHTH_INCH_PT: f64 = 9.0;

/// Whether `tool` runs (and, when `require` is set, fails if it does not).
fn tool(tool: &str, version: &str, require: &str, package: &str) -> bool {
    let found = Command::new(tool).arg(version).output().is_ok();
    assert!(
        found || std::env::var_os(require).is_none(),
        "{require} is set but {tool} ({package}) is not installed"
    );
    if !found {
        eprintln!("no {tool}: .ci/run installs {package}");
    }
    found
}

/// Builds the example game in a folder of its own, with `SOURCE_DATE_EPOCH` as given and
/// `options` besides the low resolutions, and returns the folder.
fn build(name: &str, date: Option<&str>, options: &[&str]) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("print").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    copy_tree(&root().join("sources/example-oasis"), &dir.join("sources/example-oasis"));
    let mut command = Command::new(env!("CARGO_BIN_EXE_muster"));
    command
        .args(["build", "--quiet", "--map-dpi", "20", "--dpi", "20", "--sheet-dpi", "10"])
        .args(options)
        .current_dir(&dir)
        .env("NO_COLOR", "1")
        .env_remove("SOURCE_DATE_EPOCH");
    if let Some(date) = date {
        command.env("SOURCE_DATE_EPOCH", date);
    }
    let out = command.output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    dir
}

/// The print sheets of a build.
fn sheets(dir: &Path) -> PathBuf {
    dir.join("counters/example-oasis/sheets.pdf")
}

/// The map PDFs of a build, by name.
fn map_pdfs(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir.join("maps/example-oasis"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "pdf"))
        .collect();
    out.sort();
    out
}

fn run(program: &str, args: &[&str], pdf: &Path) -> Output {
    Command::new(program).args(args).arg(pdf).output().unwrap()
}

/// The object `reference` (`"N 0 R"`) of qpdf's JSON.
fn object<'a>(json: &'a Value, reference: &str) -> &'a Value {
    let objects = &json["qpdf"][1];
    let object = &objects[format!("obj:{reference}")];
    assert!(!object.is_null(), "no object {reference}");
    object
}

/// A rectangle of qpdf's JSON as left, bottom, right, top.
fn rect(v: &Value) -> [f64; 4] {
    let a: Vec<f64> = v.as_array().unwrap().iter().map(|n| n.as_f64().unwrap()).collect();
    [a[0].min(a[2]), a[1].min(a[3]), a[0].max(a[2]), a[1].max(a[3])]
}

/// Whether `inner` lies inside `outer`, each side at least `margin` in.
fn inside(inner: [f64; 4], outer: [f64; 4], margin: f64) -> bool {
    let e = 1e-3;
    inner[0] >= outer[0] + margin - e
        && inner[1] >= outer[1] + margin - e
        && inner[2] <= outer[2] - margin + e
        && inner[3] <= outer[3] - margin + e
}

/// A string of qpdf's JSON (`u:` text) without its prefix.
fn text(v: &Value) -> &str {
    let s = v.as_str().unwrap_or_default();
    s.strip_prefix("u:").unwrap_or(s)
}

/// qpdf's JSON of `pdf`: its pages and objects.
fn qpdf_json(pdf: &Path) -> Value {
    let out = run("qpdf", &["--json=2", "--json-key=pages", "--json-key=qpdf"], pdf);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

/// The dictionary of each page of qpdf's JSON.
fn page_dicts(json: &Value) -> Vec<&Value> {
    let pages = json["pages"].as_array().unwrap();
    pages.iter().map(|p| &object(json, p["object"].as_str().unwrap())["value"]).collect()
}

/// The page's MediaBox, BleedBox and TrimBox.
fn boxes(page: &Value) -> [[f64; 4]; 3] {
    [rect(&page["/MediaBox"]), rect(&page["/BleedBox"]), rect(&page["/TrimBox"])]
}

/// Checks the PDF/X-4 structure of `pdf`, of `min_pages` pages or more, as qpdf reads it;
/// returns the XMP packet.
fn check_structure(pdf: &Path, min_pages: usize) -> String {
    let out = run("qpdf", &["--check"], pdf);
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success() && out.stderr.is_empty(), "qpdf --check: {said}");
    assert!(said.contains("No syntax or stream encoding errors"), "{said}");
    let json = qpdf_json(pdf);
    let trailer = &json["qpdf"][1]["trailer"]["value"];
    let catalog = &object(&json, trailer["/Root"].as_str().unwrap())["value"];
    let info = &object(&json, trailer["/Info"].as_str().unwrap())["value"];
    // The information dictionary.
    assert_eq!(text(&info["/GTS_PDFXVersion"]), "PDF/X-4", "{info}");
    assert!(text(&info["/Title"]).contains("Oasis"), "{info}");
    for key in ["/Creator", "/Producer", "/CreationDate", "/ModDate"] {
        assert!(!text(&info[key]).is_empty(), "no {key} in {info}");
    }
    assert_eq!(info["/Trapped"], "/False");
    // The output intent and its profile.
    let intents = catalog["/OutputIntents"].as_array().unwrap();
    assert_eq!(intents.len(), 1, "{catalog}");
    let intent = &intents[0];
    assert_eq!(intent["/S"], "/GTS_PDFX");
    assert_eq!(text(&intent["/OutputConditionIdentifier"]), "sRGB IEC61966-2.1");
    let profile = object(&json, intent["/DestOutputProfile"].as_str().unwrap());
    assert_eq!(profile["stream"]["dict"]["/N"], 3, "{profile}");
    // The metadata stream, read raw by qpdf.
    let metadata = catalog["/Metadata"].as_str().unwrap();
    assert_eq!(object(&json, metadata)["stream"]["dict"]["/Subtype"], "/XML");
    let number = metadata.split(' ').next().unwrap();
    let out =
        run("qpdf", &[&format!("--show-object={number}"), "--filtered-stream-data"], pdf);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let xmp = String::from_utf8(out.stdout).unwrap();
    // Every page: TrimBox inside BleedBox inside MediaBox, the bleed 1/8 inch or more.
    let pages = page_dicts(&json);
    assert!(pages.len() >= min_pages, "{} pages", pages.len());
    for (i, dict) in pages.iter().enumerate() {
        let [media, bleed, trim] = boxes(dict);
        assert!(inside(bleed, media, 0.0), "page {}: {bleed:?} not in {media:?}", i + 1);
        assert!(
            inside(trim, bleed, EIGHTH_INCH_PT),
            "page {}: {trim:?} not 1/8 inch inside {bleed:?}",
            i + 1
        );
    }
    xmp
}

/// Checks that the XMP packet parses and says what the information dictionary says.
fn check_xmp(xmp: &str, date: &str) {
    let doc = roxmltree::Document::parse(xmp).unwrap();
    let value = |name: &str| {
        doc.descendants()
            .find(|n| n.tag_name().name() == name)
            .and_then(|n| n.text())
            .unwrap_or_else(|| panic!("no {name} in the XMP"))
            .to_string()
    };
    assert_eq!(value("GTS_PDFXVersion"), "PDF/X-4");
    assert_eq!(value("CreateDate"), date);
    assert_eq!(value("ModifyDate"), date);
    assert_eq!(value("Trapped"), "False");
    assert!(value("li").contains("Oasis"));
}

/// Draws every page with Ghostscript; nothing may be said on either stream.
fn check_drawing(pdf: &Path) {
    let out =
        run("gs", &["-q", "-dNOPAUSE", "-dBATCH", "-dSAFER", "-sDEVICE=nullpage"], pdf);
    let (said, warned) =
        (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(
        out.status.success() && said.trim().is_empty() && warned.trim().is_empty(),
        "Ghostscript: {said}{warned}"
    );
}

#[test]
fn the_sheets_are_pdf_x_4_with_bleed_and_draw_without_errors() {
    let qpdf = tool("qpdf", "--version", "MUSTER_REQUIRE_QPDF", "qpdf");
    let gs = tool("gs", "--version", "MUSTER_REQUIRE_GHOSTSCRIPT", "ghostscript");
    if !qpdf && !gs {
        return;
    }
    let fixed = build("fixed", None, &[]);
    let dated = build("dated", Some("1709210096"), &[]);
    let maps = map_pdfs(&fixed);
    assert!(!maps.is_empty(), "no map PDF");
    if qpdf {
        check_xmp(&check_structure(&sheets(&fixed), 2), "1980-01-01T00:00:00+00:00");
        check_xmp(&check_structure(&sheets(&dated), 2), "2024-02-29T12:34:56+00:00");
        for map in &maps {
            check_xmp(&check_structure(map, 1), "1980-01-01T00:00:00+00:00");
            check_map_page(map);
        }
    }
    if gs {
        check_drawing(&sheets(&fixed));
        for map in &maps {
            check_drawing(map);
            check_map_bleed(map);
        }
    }
    // The same inputs give the same bytes.
    let again = build("again", Some("1709210096"), &[]);
    assert_eq!(
        std::fs::read(sheets(&dated)).unwrap(),
        std::fs::read(sheets(&again)).unwrap()
    );
    for (a, b) in map_pdfs(&dated).iter().zip(&map_pdfs(&again)) {
        assert_eq!(
            std::fs::read(a).unwrap(),
            std::fs::read(b).unwrap(),
            "{}",
            a.display()
        );
    }
    assert_eq!(map_pdfs(&dated).len(), maps.len());
}

/// Draws a map's page with Ghostscript and checks that its edge (the bleed) is the
/// map's art, not white paper.
fn check_map_bleed(pdf: &Path) {
    let png = pdf.with_extension("gs.png");
    let out = Command::new("gs")
        .args(["-q", "-dNOPAUSE", "-dBATCH", "-dSAFER", "-sDEVICE=png16m", "-r16"])
        .arg(format!("-sOutputFile={}", png.display()))
        .arg(pdf)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let image = rgba(&png);
    // 14 by 8.5 inches and 1/8 inch around them, at 16 dpi: whole pixels, so that none
    // on the edge lies partly off the page.
    if pdf.ends_with("oasis.pdf") {
        assert_eq!((image.0, image.1), (228, 140));
    }
    let white = ring(&image).iter().filter(|p| p[..3].iter().all(|&c| c >= 245)).count();
    assert_eq!(white, 0, "{}: white pixels at the edge of the bleed", pdf.display());
}

/// Checks a map's one page: the page its bleed box, the trim box the sheet 1/8 inch (the
/// default bleed) inside it on every side, and the sheet's printed size (14 by 8.5 inches
/// for the example map).
fn check_map_page(pdf: &Path) {
    let json = qpdf_json(pdf);
    let pages = page_dicts(&json);
    assert_eq!(pages.len(), 1);
    let [media, bleed, trim] = boxes(pages[0]);
    let close =
        |a: [f64; 4], b: [f64; 4]| a.iter().zip(&b).all(|(x, y)| (x - y).abs() < 0.01);
    assert!(close(media, bleed), "{media:?} {bleed:?}");
    let e = EIGHTH_INCH_PT;
    let grown = [trim[0] - e, trim[1] - e, trim[2] + e, trim[3] + e];
    assert!(close(grown, bleed), "{}: trim {trim:?}, bleed {bleed:?}", pdf.display());
    if pdf.ends_with("oasis.pdf") {
        assert!(close(
            [0.0, 0.0, 14.0 * 72.0, 8.5 * 72.0],
            [0.0, 0.0, trim[2] - trim[0], trim[3] - trim[1]]
        ));
    }
}

/// The page's resource `name` in `category`, its reference followed.
fn resource<'a>(
    json: &'a Value,
    page: &'a Value,
    category: &str,
    name: &str,
) -> &'a Value {
    let mut resources = &page["/Resources"];
    if let Some(r) = resources.as_str() {
        resources = &object(json, r)["value"];
    }
    let mut dict = &resources[category];
    if let Some(r) = dict.as_str() {
        dict = &object(json, r)["value"];
    }
    match dict[name].as_str() {
        Some(r) if r.ends_with(" R") => &object(json, r)["value"],
        _ => &dict[name],
    }
}

#[test]
fn the_die_line_is_a_cut_contour_spot_colour_on_every_page_of_fronts() {
    let qpdf = tool("qpdf", "--version", "MUSTER_REQUIRE_QPDF", "qpdf");
    let gs = tool("gs", "--version", "MUSTER_REQUIRE_GHOSTSCRIPT", "ghostscript");
    if !qpdf && !gs {
        return;
    }
    let dir = build("die-line", None, &["--die-line"]);
    let pdf = sheets(&dir);
    if gs {
        check_drawing(&pdf);
    }
    if !qpdf {
        return;
    }
    check_structure(&pdf, 2);
    // Which pages hold fronts, as the sheet images name them.
    let mut kinds: Vec<String> = std::fs::read_dir(dir.join("counters/example-oasis"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("sheet-") && n.ends_with(".png"))
        .collect();
    kinds.sort();
    let json = qpdf_json(&pdf);
    let pages = page_dicts(&json);
    assert_eq!(pages.len(), kinds.len());
    let trailer = &json["qpdf"][1]["trailer"]["value"];
    let catalog = &object(&json, trailer["/Root"].as_str().unwrap())["value"];
    let layers = catalog["/OCProperties"]["/OCGs"].as_array().unwrap();
    assert_eq!(layers.len(), 1, "{catalog}");
    let layer = layers[0].as_str().unwrap();
    assert_eq!(text(&object(&json, layer)["value"]["/Name"]), "CutContour");
    let mut fronts = 0;
    for (page, kind) in pages.iter().zip(&kinds) {
        let space = resource(&json, page, "/ColorSpace", "/CutContour");
        if !kind.contains("fronts") {
            assert!(space.is_null(), "{kind}: a die line on a page of backs");
            continue;
        }
        fronts += 1;
        let space = space.as_array().unwrap_or_else(|| panic!("{kind}: {space}"));
        assert_eq!(space[0], "/Separation");
        assert_eq!(space[1], "/CutContour");
        assert_eq!(space[2], "/DeviceRGB");
        let state = resource(&json, page, "/ExtGState", "/CutContour");
        assert_eq!(state["/OP"], true, "{state}");
        assert_eq!(state["/op"], true, "{state}");
        assert_eq!(state["/OPM"], 1, "{state}");
        let group = resource(&json, page, "/Properties", "/CutContour");
        assert_eq!(text(&group["/Name"]), "CutContour", "{group}");
        // The last content stream strokes the cut paths in the spot colour, in the layer.
        let contents = page["/Contents"].as_array().unwrap();
        let last = contents.last().unwrap().as_str().unwrap();
        let number = last.split(' ').next().unwrap();
        let out = run(
            "qpdf",
            &[&format!("--show-object={number}"), "--filtered-stream-data"],
            &pdf,
        );
        let drawn = String::from_utf8(out.stdout).unwrap();
        for op in [
            "/OC /CutContour BDC",
            "/CutContour gs",
            "/CutContour CS",
            "1 SCN",
            "0.25 w",
            "\nS\n",
            "EMC",
        ] {
            assert!(drawn.contains(op), "{kind}: no `{op}` in {drawn}");
        }
        assert!(drawn.matches(" l\n").count() >= 4, "{drawn}");
    }
    assert!(fronts >= 1);
}

/// The pixels of the outermost ring of an image.
fn ring((w, h, px): &(u32, u32, Vec<u8>)) -> Vec<[u8; 4]> {
    let at = |x: u32, y: u32| {
        let i = ((y * w + x) * 4) as usize;
        [px[i], px[i + 1], px[i + 2], px[i + 3]]
    };
    let mut out = Vec::new();
    for x in 0..*w {
        out.extend([at(x, 0), at(x, h - 1)]);
    }
    for y in 0..*h {
        out.extend([at(0, y), at(w - 1, y)]);
    }
    out
}

/// The counter fronts of a build, by name.
fn fronts(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir.join("counters/example-oasis"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().ends_with("-front.png"))
        .collect();
    out.sort();
    out
}

#[test]
fn counter_images_take_bleed_on_request_and_the_art_runs_into_it() {
    // At 20 dpi a 5/8 inch counter is 13 pixels (12.5 rounded) and 1/8 inch is 3.
    let cut = build("counter-cut", None, &[]);
    let bled = build("counter-bleed", None, &["--counter-bleed"]);
    let (plain, with) = (fronts(&cut), fronts(&bled));
    assert!(!plain.is_empty());
    assert_eq!(plain.len(), with.len());
    for (p, b) in plain.iter().zip(&with) {
        let (p, b) = (rgba(p), rgba(b));
        assert_eq!((p.0, p.1), (13, 13));
        assert_eq!((b.0, b.1), (13 + 2 * 3, 13 + 2 * 3));
        // The bleed is the counter's art: opaque, and not white.
        for px in ring(&b) {
            assert_eq!(px[3], 255, "a transparent pixel in the bleed");
            assert!(
                px[..3].iter().any(|&c| c < 235),
                "a white pixel in the bleed: {px:?}"
            );
        }
    }
}
