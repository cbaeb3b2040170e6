//! The Rust version the workspace declares (`rust-version`) is one every dependency in
//! `Cargo.lock` builds with: no dependency asks for a newer one. (Clippy's
//! `incompatible_msrv` lint, run with `-D warnings`, checks muster's own code against it.)

use std::process::Command;

use crate::util::root;

fn version(text: &str) -> Vec<u32> {
    text.split('.').map(|p| p.parse().unwrap_or(0)).collect()
}

#[test]
fn no_dependency_needs_a_newer_rust_than_the_workspace_declares() {
    let out = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .current_dir(root())
        .args(["metadata", "--format-version", "1", "--locked", "--offline"])
        .output()
        .expect("cargo runs");
    assert!(
        out.status.success(),
        "{} (`cargo fetch --locked` downloads every platform's dependencies)",
        String::from_utf8_lossy(&out.stderr)
    );
    let meta: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let packages = meta["packages"].as_array().unwrap();
    let declared = packages
        .iter()
        .find(|p| p["name"] == "muster-cli")
        .and_then(|p| p["rust_version"].as_str())
        .map(version)
        .expect("muster-cli declares a rust-version");
    let newer: Vec<String> = packages
        .iter()
        .filter_map(|p| {
            let wants = version(p["rust_version"].as_str()?);
            (wants > declared)
                .then(|| format!("{} {} wants {:?}", p["name"], p["version"], wants))
        })
        .collect();
    assert!(newer.is_empty(), "rust-version {declared:?} is too old: {newer:?}");
    assert!(packages.len() > 50, "the whole dependency graph is read");
}
