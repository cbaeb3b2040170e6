//! The user guide: every page of the book is in its summary, every relative link of the
//! book and of the repository's documents reaches a file and, with a `#fragment`, a heading
//! of it; every command has its page; the README stays a short front page.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

use crate::util::{files_under, muster, root};

/// The book's source folder.
fn book() -> PathBuf {
    root().join("docs/book/src")
}

/// The Markdown documents whose links are checked: the book and the repository's own.
fn documents() -> Vec<PathBuf> {
    let root = root();
    let mut docs: Vec<PathBuf> = files_under(&book())
        .into_iter()
        .chain(files_under(&root.join("docs/dev")))
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    for top in ["README.md", "CONTRIBUTING.md", "CHANGELOG.md", "tests/README.md"] {
        docs.push(root.join(top));
    }
    docs
}

/// The targets of the inline links `[text](target)` and images of a Markdown text, outside
/// code blocks and code spans.
fn links(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        let mut in_code = false;
        let bytes = line.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            match bytes[i] {
                b'`' => in_code = !in_code,
                b']' if !in_code && bytes.get(i + 1) == Some(&b'(') => {
                    if let Some(end) = line[i + 2..].find(')') {
                        out.push(line[i + 2..i + 2 + end].to_string());
                        i += 2 + end;
                    }
                }
                _ => {}
            }
            i += 1;
        }
    }
    out
}

/// The anchors mdBook and GitHub give a page's headings: lowercase, punctuation dropped but
/// `-` and `_`, spaces as dashes.
fn anchors(text: &str) -> BTreeSet<String> {
    let mut fenced = false;
    let mut out = BTreeSet::new();
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        }
        if fenced || !line.starts_with('#') {
            continue;
        }
        let title = line.trim_start_matches('#').trim();
        let slug: String = title
            .to_lowercase()
            .chars()
            .filter_map(|c| match c {
                ' ' => Some('-'),
                c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
                _ => None,
            })
            .collect();
        out.insert(slug);
    }
    out
}

/// Where a link from `doc` leads, or `None` for a link off the repository.
fn resolve(doc: &Path, target: &str) -> Option<(PathBuf, Option<String>)> {
    if target.contains("://") || target.starts_with("mailto:") {
        return None;
    }
    let (path, fragment) = match target.split_once('#') {
        Some((p, f)) => (p, Some(f.to_string())),
        None => (target, None),
    };
    let file = if path.is_empty() {
        doc.to_path_buf()
    } else {
        doc.parent().expect("a document's folder").join(path)
    };
    Some((file, fragment))
}

#[test]
fn every_link_of_the_book_and_the_documents_reaches_a_file_and_a_heading() {
    let mut broken = Vec::new();
    let mut checked = 0;
    for doc in documents() {
        let text = fs::read_to_string(&doc).expect("a document");
        for target in links(&text) {
            let Some((file, fragment)) = resolve(&doc, &target) else {
                continue;
            };
            checked += 1;
            let Ok(found) = file.canonicalize() else {
                broken.push(format!("{}: `{target}` reaches no file", doc.display()));
                continue;
            };
            if !found.starts_with(root()) {
                broken
                    .push(format!("{}: `{target}` leaves the repository", doc.display()));
            }
            if let Some(fragment) = fragment {
                let page = fs::read_to_string(&found).unwrap_or_default();
                if !anchors(&page).contains(&fragment) {
                    broken.push(format!(
                        "{}: `{target}`: {} has no heading `#{fragment}`",
                        doc.display(),
                        found.display()
                    ));
                }
            }
        }
    }
    assert!(checked > 100, "only {checked} links found: the link reader is broken");
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn the_link_reader_finds_links_and_headings_as_written() {
    let text = "# A `muster` page\n\nSee [b](b.md#what-a-build-found) and `[x](no.md)`.\n\
                ```\n[y](code.md)\n```\n## What a build found\n";
    assert_eq!(links(text), ["b.md#what-a-build-found"]);
    let found = anchors(text);
    assert!(found.contains("a-muster-page"), "{found:?}");
    assert!(found.contains("what-a-build-found"), "{found:?}");
}

#[test]
fn every_page_of_the_book_is_in_its_summary() {
    let summary = fs::read_to_string(book().join("SUMMARY.md")).expect("SUMMARY.md");
    let listed: BTreeSet<PathBuf> =
        links(&summary).iter().map(|l| book().join(l)).collect();
    for page in files_under(&book()) {
        if page.extension().is_some_and(|e| e == "md") && !page.ends_with("SUMMARY.md") {
            assert!(listed.contains(&page), "{} is not in SUMMARY.md", page.display());
        }
    }
}

#[test]
fn every_command_has_its_page() {
    let tmp = tempfile::tempdir().expect("a temporary folder");
    let help = muster(tmp.path(), &["--help"]);
    let text = String::from_utf8_lossy(&help.stdout);
    let commands: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|c| *c != "help")
        .collect();
    assert!(commands.len() >= 10, "commands read from --help: {commands:?}");
    for command in commands {
        let page = book().join(format!("commands/{command}.md"));
        let text = fs::read_to_string(&page).unwrap_or_default();
        assert!(
            text.starts_with(&format!("# muster {command}")),
            "{} must be the page of `muster {command}`",
            page.display()
        );
    }
}

#[test]
fn the_readme_is_a_short_front_page_with_the_two_set_up_commands() {
    let readme = fs::read_to_string(root().join("README.md")).expect("README.md");
    assert!(
        readme.lines().count() < 300,
        "README.md has {} lines",
        readme.lines().count()
    );
    assert!(readme.contains("cargo run --release -- build"));
    assert!(readme.contains("bash .ci/run"));
}
