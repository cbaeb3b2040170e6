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

use crate::util::{copy_tree, root};

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

/// Builds the example game in a folder of its own, with `SOURCE_DATE_EPOCH` as given,
/// and returns the path of its sheets.
fn build(name: &str, date: Option<&str>) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("print").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    copy_tree(&root().join("sources/example-oasis"), &dir.join("sources/example-oasis"));
    let mut command = Command::new(env!("CARGO_BIN_EXE_muster"));
    command
        .args(["build", "--quiet", "--map-dpi", "20", "--dpi", "20", "--sheet-dpi", "10"])
        .current_dir(&dir)
        .env("NO_COLOR", "1")
        .env_remove("SOURCE_DATE_EPOCH");
    if let Some(date) = date {
        command.env("SOURCE_DATE_EPOCH", date);
    }
    let out = command.output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    dir.join("counters/example-oasis/sheets.pdf")
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

/// Checks the PDF/X-4 structure of `pdf` as qpdf reads it; returns the XMP packet.
fn check_structure(pdf: &Path) -> String {
    let out = run("qpdf", &["--check"], pdf);
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success() && out.stderr.is_empty(), "qpdf --check: {said}");
    assert!(said.contains("No syntax or stream encoding errors"), "{said}");
    let out = run("qpdf", &["--json=2", "--json-key=pages", "--json-key=qpdf"], pdf);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let json: Value = serde_json::from_slice(&out.stdout).unwrap();
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
    let pages = json["pages"].as_array().unwrap();
    assert!(pages.len() >= 2, "{} pages", pages.len());
    for (i, page) in pages.iter().enumerate() {
        let dict = &object(&json, page["object"].as_str().unwrap())["value"];
        let (media, bleed, trim) =
            (rect(&dict["/MediaBox"]), rect(&dict["/BleedBox"]), rect(&dict["/TrimBox"]));
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
    let fixed = build("fixed", None);
    let dated = build("dated", Some("1709210096"));
    if qpdf {
        check_xmp(&check_structure(&fixed), "1980-01-01T00:00:00+00:00");
        check_xmp(&check_structure(&dated), "2024-02-29T12:34:56+00:00");
    }
    if gs {
        check_drawing(&fixed);
    }
    // The same inputs give the same bytes.
    let again = build("again", Some("1709210096"));
    assert_eq!(std::fs::read(&dated).unwrap(), std::fs::read(&again).unwrap());
}
