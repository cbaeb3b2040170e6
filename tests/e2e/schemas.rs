//! The JSON Schemas under `schemas/` are current, every source file points at its schema,
//! and every source file validates against it.

use std::fs;
use std::path::{Path, PathBuf};

use crate::util::root;

fn yaml_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        // A corpus game's `test/` folder holds the test's own files, not muster's.
        if p.is_dir() && p.file_name().is_some_and(|n| n == "test") {
            continue;
        }
        if p.is_dir() {
            yaml_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "yaml") {
            out.push(p);
        }
    }
}

fn schema_of(path: &Path) -> &'static str {
    let parent = path.parent().unwrap().file_name().unwrap().to_string_lossy();
    match (parent.as_ref(), path.file_name().unwrap().to_string_lossy().as_ref()) {
        ("maps", _) => "map.schema.json",
        ("scenarios", _) => "scenario.schema.json",
        (_, "game.yaml") => "game.schema.json",
        (_, "oob.yaml") => "oob.schema.json",
        (_, "counters.yaml") => "counters.schema.json",
        (_, "rules.yaml") => "rules.schema.json",
        (_, "errata.yaml") => "errata.schema.json",
        (_, other) => panic!("unexpected source file {other}"),
    }
}

#[test]
fn committed_schemas_are_current() {
    for (name, schema) in muster_model::schemas() {
        let mut want = serde_json::to_string_pretty(&schema).unwrap();
        want.push('\n');
        let have =
            fs::read_to_string(root().join("schemas").join(name)).unwrap_or_default();
        assert!(
            have == want,
            "schemas/{name} is stale: run `cargo run -- schema --write schemas`"
        );
    }
}

#[test]
fn every_source_file_names_its_schema_and_validates_against_it() {
    let mut files = Vec::new();
    yaml_files(&root().join("sources"), &mut files);
    assert!(files.len() >= 25);
    let seeds = files.len();
    yaml_files(&root().join("tests/games"), &mut files);
    assert!(files.len() >= seeds + 20, "the corpus games too");
    assert_files_validate(&files);
}

/// Every YAML file under `dir` names its schema in a modeline and validates against it.
pub fn assert_game_validates(dir: &Path) {
    let mut files = Vec::new();
    yaml_files(dir, &mut files);
    assert!(!files.is_empty(), "no YAML under {}", dir.display());
    assert_files_validate(&files);
}

/// Each file names its schema (a modeline pointing at `schemas/`) and validates against
/// the committed schema.
fn assert_files_validate(files: &[PathBuf]) {
    for f in files {
        let text = fs::read_to_string(f).unwrap();
        let schema_name = schema_of(f);
        let modeline =
            text.lines().find(|l| l.starts_with("# yaml-language-server: $schema="));
        let modeline =
            modeline.unwrap_or_else(|| panic!("{} has no schema modeline", f.display()));
        let target = f
            .parent()
            .unwrap()
            .join(modeline.trim_start_matches("# yaml-language-server: $schema="));
        assert_eq!(
            target.file_name().unwrap().to_string_lossy(),
            schema_name,
            "{}",
            f.display()
        );
        assert!(
            target.canonicalize().is_ok(),
            "{} points at a missing schema",
            f.display()
        );
        let schema: serde_json::Value = serde_json::from_str(
            &fs::read_to_string(root().join("schemas").join(schema_name)).unwrap(),
        )
        .unwrap();
        let instance = read_yaml(&text).unwrap();
        let validator = jsonschema::validator_for(&schema).unwrap();
        let errors: Vec<String> = validator
            .iter_errors(&instance)
            .map(|e| format!("{} at {}", e, e.instance_path()))
            .collect();
        assert!(errors.is_empty(), "{}: {}", f.display(), errors.join("; "));
    }
}

/// Cases of the bad-input corpus that no JSON Schema of one file can refuse, and why: the
/// loader refuses them (`bad_input.rs`), the schema accepts them.
const BEYOND_THE_SCHEMA: &[(&str, &str)] = &[
    ("alias-bomb", "the YAML reader refuses it before any schema applies"),
    ("deep-mapping", "the YAML reader refuses it before any schema applies"),
    ("deep-nesting", "the YAML reader refuses it before any schema applies"),
    ("yaml-syntax", "the YAML reader refuses it before any schema applies"),
    (
        "duplicate-key",
        "a JSON object has no duplicate keys; the YAML reader refuses them",
    ),
    ("assumed-unknown-field", "the fields `assumed` may name are those its entry gives"),
    ("bad-hex-label", "a label's form follows the map's own numbering scheme"),
    ("bad-hexside", "which directions a map may use follows `board.grid` in game.yaml"),
    ("dangling-formation", "a reference to an id declared in another file"),
    ("dangling-map", "a reference to a map file"),
    ("dangling-side", "a reference to an id declared in another file"),
    ("rules-unknown-size", "a reference to an id declared in another file"),
    ("unknown-value", "a reference to an id declared in another file"),
    (
        "duplicate-id",
        "ids are unique across entries (counter ids come from printed names)",
    ),
    ("game-id-mismatch", "the id must equal the name of the game's folder"),
    (
        "duplicate-side-name",
        "names are unique across entries (a module's sides go by name)",
    ),
    ("linked-art-image", "what an art file holds is no YAML a schema reads"),
    (
        "numbering-runs-together",
        "whether a numbering's digits hold its numbers follows the map's size",
    ),
    ("off-map-hex", "whether a hex lies on the map follows the map's size"),
    (
        "structured-location-off-map",
        "whether a hex lies on the map follows the map's size",
    ),
];

/// A YAML document as JSON, with YAML 1.2's booleans as muster and editors read them (`n`
/// is a string); `None` when it does not read.
fn read_yaml(text: &str) -> Option<serde_json::Value> {
    let mut options = serde_saphyr::Options::default();
    options.strict_booleans = true;
    serde_saphyr::from_str_with_options(text, options).ok()
}

/// The errors the committed schemas find in the YAML files of a game folder, or `None`
/// when a file does not read as YAML at all.
fn schema_errors(game: &Path) -> Option<Vec<String>> {
    let mut files = Vec::new();
    yaml_files(game, &mut files);
    let mut errors = Vec::new();
    for f in files {
        let schema: serde_json::Value = serde_json::from_str(
            &fs::read_to_string(root().join("schemas").join(schema_of(&f))).unwrap(),
        )
        .unwrap();
        let text = fs::read_to_string(&f).unwrap();
        let instance = read_yaml(&text)?;
        let validator = jsonschema::validator_for(&schema).unwrap();
        errors.extend(
            validator
                .iter_errors(&instance)
                .map(|e| format!("{}: {e} at {}", f.display(), e.instance_path())),
        );
    }
    Some(errors)
}

#[test]
fn the_schema_refuses_every_bad_input_case_it_can_express() {
    let base = root().join("tests/bad-input/base/mini");
    assert_eq!(schema_errors(&base), Some(Vec::new()), "the corpus's base game is valid");
    let cases = root().join("tests/bad-input/cases");
    let mut names: Vec<String> = fs::read_dir(&cases)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    for (listed, _) in BEYOND_THE_SCHEMA {
        assert!(names.iter().any(|n| n == listed), "{listed} is no case of the corpus");
    }
    let mut wrong = Vec::new();
    let mut refused = 0;
    for name in &names {
        let tmp = tempfile::tempdir().unwrap();
        let game = tmp.path().join("mini");
        crate::util::copy_tree(&base, &game);
        for entry in fs::read_dir(cases.join(name)).unwrap() {
            let p = entry.unwrap().path();
            if p.file_name().unwrap() == "expected.txt" {
                continue;
            }
            if p.is_dir() {
                crate::util::copy_tree(&p, &game.join(p.file_name().unwrap()));
            } else {
                fs::copy(&p, game.join(p.file_name().unwrap())).unwrap();
            }
        }
        let errors = schema_errors(&game).unwrap_or_default();
        let beyond = BEYOND_THE_SCHEMA.iter().find(|(n, _)| n == name);
        match (errors.is_empty(), beyond) {
            (true, None) => wrong.push(format!("{name}: the schema accepts it")),
            (false, Some((_, why))) => wrong.push(format!(
                "{name}: listed as beyond the schema ({why}), but the schema refuses it: {}",
                errors.join("; ")
            )),
            (false, None) => refused += 1,
            (true, Some(_)) => {}
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    assert!(refused >= 16, "the schema refuses {refused} cases");
}

/// Every object a schema describes refuses keys it does not name, as the loader does.
#[test]
fn every_schema_refuses_unknown_keys_everywhere() {
    fn walk(v: &serde_json::Value, path: &str, open: &mut Vec<String>) {
        match v {
            serde_json::Value::Object(m) => {
                if m.contains_key("properties")
                    && m.get("additionalProperties")
                        != Some(&serde_json::Value::Bool(false))
                {
                    open.push(path.to_string());
                }
                for (k, child) in m {
                    walk(child, &format!("{path}/{k}"), open);
                }
            }
            serde_json::Value::Array(a) => {
                for (i, child) in a.iter().enumerate() {
                    walk(child, &format!("{path}/{i}"), open);
                }
            }
            _ => {}
        }
    }
    let mut open = Vec::new();
    for (name, schema) in muster_model::schemas() {
        walk(&serde_json::to_value(&schema).unwrap(), name, &mut open);
    }
    assert!(open.is_empty(), "objects that take any key: {}", open.join(", "));
}
