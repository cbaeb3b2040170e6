//! Which file of `dist/` a request path names, and what it is served as.

use std::path::{Path, PathBuf};

/// What a request path comes to.
#[derive(Debug, PartialEq, Eq)]
pub enum Lookup {
    /// A file inside a game's `web/` folder, by its resolved path.
    File(PathBuf),
    /// A path that resolves (through a symbolic link) to a file outside the game's `web/`
    /// folder.
    Outside,
    /// Nothing to serve: not a file, not under a game's `web/` folder, or a path that goes
    /// up (`..`), is encoded (`%`) or names a drive or a Windows separator.
    Missing,
}

/// The content type a file is served with, by its extension.
pub fn content_type(path: &Path) -> &'static str {
    match path.extension().and_then(|e| e.to_str()) {
        Some("html") => "text/html; charset=utf-8",
        Some("js") => "text/javascript; charset=utf-8",
        Some("json") => "application/json",
        Some("wasm") => "application/wasm",
        Some("png") => "image/png",
        Some("svg") => "image/svg+xml",
        _ => "application/octet-stream",
    }
}

/// The file under `dist` a request path names, if it is inside a game's `web/` folder once
/// every symbolic link is followed.
pub fn resolve(dist: &Path, path: &str) -> Lookup {
    let path = path.split(['?', '#']).next().unwrap_or_default();
    let parts: Vec<&str> = path.split('/').filter(|p| !p.is_empty()).collect();
    let ok = |p: &&str| {
        *p != ".."
            && *p != "."
            && !p.contains('\\')
            && !p.contains('%')
            && !p.contains(':')
            && !p.contains('\0')
    };
    if parts.len() < 3 || parts[1] != "web" || !parts.iter().all(ok) {
        return Lookup::Missing;
    }
    let file = parts.iter().fold(dist.to_path_buf(), |acc, p| acc.join(p));
    let (Ok(real), Ok(dist)) = (file.canonicalize(), dist.canonicalize()) else {
        return Lookup::Missing;
    };
    if !real.starts_with(dist.join(parts[0]).join("web")) {
        return Lookup::Outside;
    }
    if real.is_file() { Lookup::File(real) } else { Lookup::Missing }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(path: &Path, text: &str) {
        std::fs::create_dir_all(path.parent().unwrap_or(path))
            .unwrap_or_else(|e| panic!("{e}"));
        std::fs::write(path, text).unwrap_or_else(|e| panic!("{e}"));
    }

    #[test]
    fn only_files_inside_a_web_folder_are_served() {
        let tmp = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        write(&tmp.path().join("g/web/index.html"), "x");
        write(&tmp.path().join("g/errata.md"), "x");
        let real = tmp.path().canonicalize().unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            resolve(tmp.path(), "/g/web/index.html?x=1"),
            Lookup::File(real.join("g/web/index.html"))
        );
        for bad in [
            "/g/errata.md",
            "/g/web/../errata.md",
            "/g/web/%2e%2e/errata.md",
            "/g/web/",
            "/",
        ] {
            assert_eq!(resolve(tmp.path(), bad), Lookup::Missing, "{bad}");
        }
    }

    #[cfg(unix)]
    #[test]
    fn a_symbolic_link_out_of_the_web_folder_is_outside() {
        let tmp = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let dist = tmp.path().join("dist");
        write(&dist.join("g/web/index.html"), "x");
        write(&dist.join("h/web/index.html"), "x");
        write(&tmp.path().join("secret.txt"), "secret");
        let web = dist.join("g/web");
        let link = |to: &Path, name: &str| {
            std::os::unix::fs::symlink(to, web.join(name))
                .unwrap_or_else(|e| panic!("{e}"))
        };
        link(&tmp.path().join("secret.txt"), "leak.txt");
        link(tmp.path(), "up");
        link(&dist.join("h/web/index.html"), "other.html");
        link(&web.join("index.html"), "same.html");
        for bad in ["/g/web/leak.txt", "/g/web/up/secret.txt", "/g/web/other.html"] {
            assert_eq!(resolve(&dist, bad), Lookup::Outside, "{bad}");
        }
        assert!(matches!(resolve(&dist, "/g/web/same.html"), Lookup::File(_)));
    }
}
