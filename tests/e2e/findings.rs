//! One severity model: every finding kind has one severity, and the book's table of kinds
//! states exactly what the code does.

use muster_model::FindingKind;

use crate::util::root;

/// The book's table of finding kinds, as the code has it.
fn table() -> String {
    let mut s = String::from("| kind | severity | what |\n| --- | --- | --- |\n");
    for k in FindingKind::ALL {
        s.push_str(&format!("| `{k}` | {} | {} |\n", k.severity(), k.describe()));
    }
    s
}

#[test]
fn the_book_lists_every_finding_kind_with_its_severity() {
    let page = root().join("docs/book/src/guides/findings.md");
    let text = std::fs::read_to_string(&page).unwrap();
    let want = table();
    assert!(text.contains(&want), "{} must hold this table:\n{want}", page.display());
}

/// A copy of the example game with one unit of its setup misspelt (`2/1 Arm Bm`).
fn misspelt_example() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    crate::util::copy_tree(
        &root().join("sources/example-oasis"),
        &tmp.path().join("sources/example-oasis"),
    );
    let path = tmp.path().join("sources/example-oasis/scenarios/meeting.yaml");
    let text =
        std::fs::read_to_string(&path).unwrap().replace("2/1 Arm Bn", "2/1 Arm Bm");
    std::fs::write(&path, text).unwrap();
    tmp
}

const SMALL: [&str; 7] = ["build", "--map-dpi", "10", "--dpi", "20", "--sheet-dpi", "10"];

#[test]
fn build_lists_the_findings_that_need_attention_and_strict_fails_on_a_warning() {
    let tmp = misspelt_example();
    let out = crate::util::muster(tmp.path(), &SMALL);
    assert_eq!(out.status.code(), Some(0));
    let err = String::from_utf8_lossy(&out.stderr);
    let want = "example-oasis: 1 finding(s) need attention:\n  warning unknown-unit (1):\n    sources/example-oasis/scenarios/meeting.yaml:12:58: [meeting] `2/1 Arm Bm` names no counter of the manifest; the nearest is `2/1 Arm Bn`\n  full report: ./dist/example-oasis/errata.md\n";
    assert!(err.contains(want), "{err}");
    assert!(err.contains("; 1 finding(s) need attention"), "{err}");
    let strict = [&SMALL[..], &["--strict", "--quiet"]].concat();
    let out = crate::util::muster(tmp.path(), &strict);
    assert_eq!(out.status.code(), Some(1));
    // Quiet leaves out the summary, not the problems.
    assert!(
        String::from_utf8_lossy(&out.stderr).starts_with("example-oasis: 1 finding(s)")
    );
    // A warning: validate and errata exit 0, and 1 with --strict.
    for command in ["validate", "errata"] {
        let out = crate::util::muster(tmp.path(), &[command, "--format", "json"]);
        assert_eq!(out.status.code(), Some(0), "{command}");
        let out =
            crate::util::muster(tmp.path(), &[command, "--format", "json", "--strict"]);
        assert_eq!(out.status.code(), Some(1), "{command} --strict");
    }
}

#[test]
fn strict_counts_the_warnings_of_loading_and_skips_acknowledged_findings() {
    let tmp = misspelt_example();
    let game = tmp.path().join("sources/example-oasis");
    std::fs::write(
        game.join("errata.yaml"),
        "known:\n  - {kind: unknown-unit, subject: 2/1 Arm Bm, note: as printed}\n",
    )
    .unwrap();
    let out = crate::util::muster(tmp.path(), &["validate", "--strict"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    // A folder that is not a game is a warning of loading.
    std::fs::create_dir_all(tmp.path().join("sources/notes")).unwrap();
    let out = crate::util::muster(tmp.path(), &["validate", "--strict"]);
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
    let out = crate::util::muster(tmp.path(), &["validate"]);
    assert_eq!(out.status.code(), Some(0));
}

/// The example game with its combat results table's first row short of two cells and its
/// last one cell too long; `stops_short` marks the table incomplete.
fn ragged_example(stops_short: bool) -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    crate::util::copy_tree(
        &root().join("sources/example-oasis"),
        &tmp.path().join("sources/example-oasis"),
    );
    let path = tmp.path().join("sources/example-oasis/game.yaml");
    let mut text = std::fs::read_to_string(&path)
        .unwrap()
        .replace(r#"["1-2", "AR", "DR", "DR"]"#, r#"["1-2", "AR"]"#)
        .replace(r#"["5-6", "DR", "DE", "DE"]"#, r#"["5-6", "DR", "DE", "DE", "DE"]"#);
    if stops_short {
        text = text.replace(
            "    lines: [\"AR: attacker",
            "    incomplete: \"the 1-2 row is cut off after its first column\"\n    lines: [\"AR: attacker",
        );
    }
    std::fs::write(&path, text).unwrap();
    tmp
}

/// The ragged-table findings of a build of `dir`: (line, column, message).
fn ragged_rows(dir: &std::path::Path) -> Vec<(u64, u64, String)> {
    let out = crate::util::muster(dir, &[&SMALL[..], &["--format", "json"]].concat());
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["kind"] == "ragged-table")
        .map(|d| {
            assert!(d["file"].as_str().unwrap().ends_with("example-oasis/game.yaml"));
            (
                d["line"].as_u64().unwrap(),
                d["column"].as_u64().unwrap(),
                d["message"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

#[test]
fn a_table_row_without_a_cell_under_each_column_is_found_where_it_is() {
    let row = |line: u64, n: u32, cells: u32| {
        let message = format!(
            "row {n} of the table `Combat results` (example) has {cells} cells, its header 4"
        );
        (line, 9, message)
    };
    let tmp = ragged_example(false);
    assert_eq!(ragged_rows(tmp.path()), [row(65, 1, 2), row(67, 3, 5)]);
    // A table that says it stops short may have short rows; never a row too long.
    let tmp = ragged_example(true);
    assert_eq!(ragged_rows(tmp.path()), [row(67, 3, 5)]);
}
