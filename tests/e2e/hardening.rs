//! Builds that are killed part-way or fail at a stage leave no partial output that looks
//! complete, and keep what the previous build wrote.

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use muster_package::archive::Archive;

use crate::util::{copy_tree, files_under, muster, root};

const BUILD: [&str; 8] =
    ["build", "--quiet", "--map-dpi", "60", "--dpi", "60", "--sheet-dpi", "30"];

/// Every file under `dir`, relative path → bytes.
fn files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    files_under(dir)
        .into_iter()
        .map(|p| {
            let rel = p.strip_prefix(dir).unwrap().display().to_string();
            let bytes = std::fs::read(&p).unwrap();
            (rel, bytes)
        })
        .collect()
}

/// Whatever a build left: complete files under their real names, and at most temporary
/// files that do not look like outputs.
fn assert_nothing_partial(dir: &Path) {
    for (name, bytes) in files(dir) {
        let base = name.rsplit('/').next().unwrap();
        if base.starts_with(".muster-") && base.ends_with(".tmp") {
            continue;
        }
        if name.starts_with("sources") {
            continue;
        }
        if name.ends_with(".vmod") || name.ends_with(".vsav") {
            let mut a = Archive::open(bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
            if name.ends_with(".vmod") {
                assert!(a.read("buildFile.xml").is_ok(), "{name}");
            }
        } else if name.ends_with(".png") {
            assert!(bytes.ends_with(&[0xAE, 0x42, 0x60, 0x82]), "{name} is cut short");
        } else if name.ends_with(".json") {
            serde_json::from_slice::<serde_json::Value>(&bytes)
                .unwrap_or_else(|e| panic!("{name}: {e}"));
        } else if name.ends_with(".pdf") {
            assert!(bytes.windows(5).any(|w| w == b"%%EOF"), "{name} is cut short");
        }
    }
}

#[test]
fn a_build_killed_part_way_leaves_no_partial_output() {
    let tmp = tempfile::tempdir().unwrap();
    copy_tree(&root().join("sources/gazala-scs"), &tmp.path().join("sources/gazala-scs"));
    copy_tree(
        &root().join("sources/gazala-1942"),
        &tmp.path().join("sources/gazala-1942"),
    );
    // Kill at several points of the first build, then of a rebuild over complete outputs.
    for delay in [150, 400, 900, 1600, 2600] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_muster"))
            .args(BUILD)
            .current_dir(tmp.path())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(delay));
        let _ = child.kill();
        let _ = child.wait();
        assert_nothing_partial(tmp.path());
    }
    let out = muster(tmp.path(), &BUILD);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_nothing_partial(tmp.path());
    assert!(tmp.path().join("dist/gazala-scs.vmod").is_file());
}

#[test]
fn a_build_that_fails_at_a_stage_says_where_and_keeps_the_previous_outputs() {
    let tmp = tempfile::tempdir().unwrap();
    copy_tree(
        &root().join("sources/example-oasis"),
        &tmp.path().join("sources/example-oasis"),
    );
    let out = muster(tmp.path(), &BUILD);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let counters = files(&tmp.path().join("counters"));
    let module = std::fs::read(tmp.path().join("dist/example-oasis.vmod")).unwrap();
    // A changed counter would change the counter images and the module, but the map stage
    // cannot stage its image: a folder stands at its path. The stages beside it and before
    // it have staged theirs, and none of them is put in place.
    let manifest = tmp.path().join("sources/example-oasis/counters.yaml");
    let text = std::fs::read_to_string(&manifest).unwrap();
    let changed = text.replacen("{movement: 8}", "{movement: 9}", 1);
    assert_ne!(text, changed);
    std::fs::write(&manifest, changed).unwrap();
    let png = tmp.path().join("maps/example-oasis/oasis.png");
    std::fs::remove_file(&png).unwrap();
    std::fs::create_dir(&png).unwrap();
    std::fs::write(png.join("keep"), b"x").unwrap();
    let out = muster(tmp.path(), &BUILD);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("oasis.png"), "{err}");
    assert!(err.contains("a folder stands at its path"), "{err}");
    assert_eq!(files(&tmp.path().join("counters")), counters, "no counter image changed");
    assert_eq!(
        std::fs::read(tmp.path().join("dist/example-oasis.vmod")).unwrap(),
        module
    );
    assert_nothing_partial(tmp.path());
}
