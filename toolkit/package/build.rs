//! Builds the embedded rules checker (`muster-checker`) for `wasm32-unknown-unknown`, so
//! that every module muster writes carries the same rules code as `rules/checker.wasm`.

use std::path::PathBuf;
use std::process::Command;

fn main() {
    let manifest =
        PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let workspace = manifest.join("../..").canonicalize().expect("workspace root");
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets it"));
    for dir in ["toolkit/checker", "toolkit/rules", "Cargo.lock"] {
        println!("cargo:rerun-if-changed={}", workspace.join(dir).display());
    }
    let target_dir = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace.join("target"))
        .join("checker-wasm");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let status = Command::new(cargo)
        .current_dir(&workspace)
        .args(["build", "--quiet", "--locked", "--release", "-p", "muster-checker"])
        .args(["--target", "wasm32-unknown-unknown", "--target-dir"])
        .arg(&target_dir)
        // The checker is built plainly, whatever wraps this build (clippy, coverage).
        .env_remove("RUSTC_WORKSPACE_WRAPPER")
        .env_remove("RUSTFLAGS")
        .env(
            "CARGO_ENCODED_RUSTFLAGS",
            format!("--remap-path-prefix={}=muster", workspace.display()),
        )
        .env("CARGO_PROFILE_RELEASE_OPT_LEVEL", "s")
        .env("CARGO_PROFILE_RELEASE_LTO", "true")
        .env("CARGO_PROFILE_RELEASE_CODEGEN_UNITS", "1")
        .env("CARGO_PROFILE_RELEASE_PANIC", "abort")
        .env("CARGO_PROFILE_RELEASE_STRIP", "true")
        .env("CARGO_PROFILE_RELEASE_DEBUG", "false")
        .status()
        .expect("cargo runs");
    assert!(
        status.success(),
        "building the embedded checker for WebAssembly failed; \
         install the target with `rustup target add wasm32-unknown-unknown`"
    );
    let wasm = target_dir.join("wasm32-unknown-unknown/release/muster_checker.wasm");
    std::fs::copy(&wasm, out.join("checker.wasm")).expect("copy the checker");
}
