//! The files a game ships besides its YAML: the documents under `docs/` (rules in PDF,
//! HTML or plain text, each a Help menu entry of the module) and the chart images that
//! `game.yaml`'s `module.charts` names.

use std::fs;
use std::path::Path;

use crate::diag::Diagnostic;
use crate::finding::FindingKind;
use crate::input::read_inside;
use crate::span::{Span, Spanned};

/// The largest document, image or art file muster reads, in bytes.
pub const MAX_ASSET_BYTES: u64 = 64 * 1024 * 1024;

/// What kind of document a file under `docs/` is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DocumentKind {
    /// A PDF (`.pdf`), opened in the player's PDF viewer.
    Pdf,
    /// An HTML page (`.html`, `.htm`), shown in VASSAL's help window.
    Html,
    /// Plain text (`.txt`), shown in VASSAL's help window.
    Text,
}

/// A document the game ships.
#[derive(Debug, Clone)]
pub struct Document {
    /// Its file name under `docs/`.
    pub file: String,
    /// Its kind.
    pub kind: DocumentKind,
    /// Its bytes.
    pub bytes: Vec<u8>,
}

/// An image the game ships.
#[derive(Debug, Clone)]
pub struct Image {
    /// Its path relative to the game folder, with `/` separators.
    pub path: String,
    /// Its bytes (PNG, JPEG or GIF).
    pub bytes: Vec<u8>,
}

/// File names muster puts into a module unchanged: letters, digits, `.`, `-`, `_`.
fn safe_name(name: &str) -> bool {
    !name.is_empty()
        && !name.starts_with('.')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_'))
}

/// Every document under `dir/docs/`, sorted by name, with errors for those that cannot be
/// shipped and warnings for files of other kinds.
pub fn documents(dir: &Path) -> (Vec<Document>, Vec<Diagnostic>) {
    let mut out = Vec::new();
    let mut problems = Vec::new();
    let docs = dir.join("docs");
    let Ok(entries) = fs::read_dir(&docs) else { return (out, problems) };
    let mut paths: Vec<_> = entries.filter_map(Result::ok).map(|e| e.path()).collect();
    paths.sort();
    for path in paths {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let ext = path.extension().map(|e| e.to_string_lossy().to_ascii_lowercase());
        let kind = match ext.as_deref() {
            Some("pdf") => DocumentKind::Pdf,
            Some("html" | "htm") => DocumentKind::Html,
            Some("txt") => DocumentKind::Text,
            _ => {
                problems.push(
                    Diagnostic::finding(
                        FindingKind::UnreadFile,
                        Span::detached(),
                        format!("{} is not a document muster ships", path.display()),
                    )
                    .with_expected(
                        "a PDF (.pdf), an HTML page (.html, .htm) or plain text (.txt)",
                    ),
                );
                continue;
            }
        };
        if !safe_name(&name) {
            problems.push(
                Diagnostic::error(
                    Span::detached(),
                    format!(
                        "failed to ship {} (its name cannot be a module entry)",
                        path.display()
                    ),
                )
                .with_expected("a file name of letters, digits, `.`, `-` and `_`"),
            );
            continue;
        }
        match read_inside(dir, &path, MAX_ASSET_BYTES) {
            Ok(bytes) if kind == DocumentKind::Pdf && !bytes.starts_with(b"%PDF-") => {
                problems.push(
                    Diagnostic::error(
                        Span::detached(),
                        format!("failed to ship {} (it is not a PDF)", path.display()),
                    )
                    .with_expected("a file starting `%PDF-`"),
                );
            }
            Ok(bytes) => out.push(Document { file: name, kind, bytes }),
            Err(e) => problems.push(e.at(Span::detached(), path.display())),
        }
    }
    (out, problems)
}

/// The image `path` names (relative to `dir`), or the error at its span.
pub fn image(dir: &Path, path: &Spanned<String>) -> Result<Image, Diagnostic> {
    let rel = path.v.as_str();
    let parts: Vec<&str> = rel.split('/').collect();
    if parts.iter().any(|p| !safe_name(p)) {
        return Err(Diagnostic::error(
            path.span,
            format!("`{rel}` cannot be an image of the module"),
        )
        .with_expected(
            "a path inside the game folder, such as `charts/crt.png`, of letters, digits, `.`, `-` and `_`",
        ));
    }
    let file = parts.iter().fold(dir.to_path_buf(), |p, part| p.join(part));
    let bytes = read_inside(dir, &file, MAX_ASSET_BYTES)
        .map_err(|e| e.at(path.span, file.display()))?;
    let known = bytes.starts_with(b"\x89PNG\r\n\x1a\n")
        || bytes.starts_with(b"\xff\xd8\xff")
        || bytes.starts_with(b"GIF87a")
        || bytes.starts_with(b"GIF89a");
    if !known {
        return Err(Diagnostic::error(
            path.span,
            format!("`{rel}` is not a PNG, JPEG or GIF image"),
        )
        .with_expected("an image VASSAL shows: PNG, JPEG or GIF"));
    }
    Ok(Image { path: rel.to_string(), bytes })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn documents_are_read_by_kind_and_the_rest_reported() {
        let tmp =
            std::env::temp_dir().join(format!("muster-assets-{}", std::process::id()));
        let docs = tmp.join("docs");
        let _ = fs::remove_dir_all(&tmp);
        fs::create_dir_all(&docs).unwrap();
        fs::write(docs.join("rules.pdf"), b"%PDF-1.4\n").unwrap();
        fs::write(docs.join("notes.html"), b"<p>x</p>").unwrap();
        fs::write(docs.join("fake.pdf"), b"not a pdf").unwrap();
        fs::write(docs.join("sheet.docx"), b"x").unwrap();
        fs::write(docs.join("bad name.txt"), b"x").unwrap();
        let (found, problems) = documents(&tmp);
        let names: Vec<&str> = found.iter().map(|d| d.file.as_str()).collect();
        assert_eq!(names, ["notes.html", "rules.pdf"]);
        assert_eq!(found[1].kind, DocumentKind::Pdf);
        let text: Vec<String> = problems.iter().map(|d| d.message.clone()).collect();
        assert_eq!(problems.len(), 3, "{text:?}");
        assert!(text.iter().any(|t| t.contains("fake.pdf") && t.contains("not a PDF")));
        assert!(text.iter().any(|t| t.contains("sheet.docx")));
        assert!(text.iter().any(|t| t.contains("bad name.txt")));

        fs::write(tmp.join("crt.png"), b"\x89PNG\r\n\x1a\nrest").unwrap();
        fs::write(tmp.join("crt.bmp"), b"BM").unwrap();
        let at = |s: &str| Spanned::detached(s.to_string());
        assert!(image(&tmp, &at("crt.png")).is_ok());
        assert!(image(&tmp, &at("crt.bmp")).unwrap_err().message.contains("not a PNG"));
        assert!(image(&tmp, &at("../crt.png")).is_err());
        assert!(
            image(&tmp, &at("missing.png"))
                .unwrap_err()
                .message
                .contains("failed to read")
        );
        let _ = fs::remove_dir_all(&tmp);
    }

    #[cfg(unix)]
    #[test]
    fn documents_come_from_inside_the_game_folder_and_are_regular_files() {
        use std::os::unix::fs::symlink;
        let tmp = tempfile::tempdir().unwrap();
        let game = tmp.path().join("g");
        fs::create_dir_all(game.join("docs")).unwrap();
        fs::create_dir_all(game.join("text")).unwrap();
        fs::write(game.join("text/notes.txt"), b"inside").unwrap();
        fs::write(tmp.path().join("secret.txt"), b"outside").unwrap();
        symlink("../text/notes.txt", game.join("docs/notes.txt")).unwrap();
        symlink("../../secret.txt", game.join("docs/secret.txt")).unwrap();
        let pipe = game.join("docs/pipe.txt");
        rustix::fs::mkfifoat(rustix::fs::CWD, &pipe, rustix::fs::Mode::RUSR).unwrap();
        let (found, problems) = documents(&game);
        let shipped: Vec<(&str, &[u8])> =
            found.iter().map(|d| (d.file.as_str(), d.bytes.as_slice())).collect();
        assert_eq!(shipped, [("notes.txt", b"inside".as_slice())]);
        let text: Vec<String> = problems.iter().map(|d| d.message.clone()).collect();
        assert_eq!(text.len(), 2, "{text:?}");
        assert!(
            text[0].ends_with("pipe.txt (it is a FIFO, not a regular file)"),
            "{text:?}"
        );
        assert!(
            text[1].contains(
                "secret.txt (it is a symbolic link leading outside the game's folder"
            ),
            "{text:?}"
        );

        // A chart reached through a linked folder leading out of the game is refused too.
        fs::write(tmp.path().join("crt.png"), b"\x89PNG\r\n\x1a\nrest").unwrap();
        symlink("..", game.join("charts")).unwrap();
        let at = Spanned::detached("charts/crt.png".to_string());
        let e = image(&game, &at).unwrap_err();
        assert!(e.message.contains("leading outside the game's folder"), "{}", e.message);
    }
}
