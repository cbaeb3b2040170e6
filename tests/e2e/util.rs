//! Helpers shared by the end-to-end tests.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The repository root.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .expect("repository root")
}

/// Runs the built `muster` binary with `args` in `dir`.
pub fn muster(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_muster"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .output()
        .expect("muster runs")
}

/// `muster pieces SAVE --module MODULE --format json`, run in `dir`, as JSON; the save
/// and what muster said on standard error in the failure otherwise.
pub fn pieces_json(dir: &Path, save: &Path, module: &Path) -> serde_json::Value {
    let (save_arg, module_arg) = (save.to_str().unwrap(), module.to_str().unwrap());
    let out =
        muster(dir, &["pieces", save_arg, "--module", module_arg, "--format", "json"]);
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "{}: not JSON ({e}): {}",
            save.display(),
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

/// Copies a folder tree.
pub fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("create folder");
    for entry in std::fs::read_dir(from).expect("read folder") {
        let entry = entry.expect("entry");
        let target = to.join(entry.file_name());
        if entry.path().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).expect("copy file");
        }
    }
}

/// Every file under `dir`, sorted; nothing when it is absent.
pub fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else { continue };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// Loads the seed games with the library.
pub fn seeds() -> muster_model::Loaded {
    muster_model::load(
        &root().join("sources"),
        &[],
        &muster_model::LoadOptions::default(),
    )
}

/// Loads the corpus games (`tests/games/`) with the library.
pub fn corpus() -> muster_model::Loaded {
    muster_model::load(
        &root().join("tests/games"),
        &[],
        &muster_model::LoadOptions::default(),
    )
}

/// A PNG image's width, height and RGBA pixels.
pub fn rgba_of(bytes: &[u8]) -> (u32, u32, Vec<u8>) {
    let mut decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    decoder.set_transformations(
        png::Transformations::EXPAND | png::Transformations::STRIP_16,
    );
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    let channels = info.color_type.samples();
    let pixels = buf[..info.buffer_size()]
        .chunks(channels)
        .flat_map(|p| match channels {
            3 => [p[0], p[1], p[2], 255],
            4 => [p[0], p[1], p[2], p[3]],
            _ => [p[0], p[0], p[0], 255],
        })
        .collect();
    (info.width, info.height, pixels)
}

/// The width, height and RGBA pixels of the PNG image at `path`.
pub fn rgba(path: &Path) -> (u32, u32, Vec<u8>) {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    rgba_of(&bytes)
}
