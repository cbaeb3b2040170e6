//! The JSON Schemas under `schemas/` are current, every source file points at its schema,
//! and every source file validates against it.

use std::fs;
use std::path::{Path, PathBuf};

use crate::util::root;

fn yaml_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
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
        let instance: serde_json::Value = serde_saphyr::from_str(&text).unwrap();
        let validator = jsonschema::validator_for(&schema).unwrap();
        let errors: Vec<String> = validator
            .iter_errors(&instance)
            .map(|e| format!("{} at {}", e, e.instance_path()))
            .collect();
        assert!(errors.is_empty(), "{}: {}", f.display(), errors.join("; "));
    }
}
