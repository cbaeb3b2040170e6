//! The release a module is: its version, its date and what it holds, kept beside it as
//! `dist/<game>/release.json`, so that a later build can tell a module whose content
//! changed while its version did not.
//!
//! VASSAL and its players know a module by its version: a module that changes under an
//! unchanged version leaves players unable to tell the new one from theirs. The record
//! stays the first build of a version's: while the version is unchanged its date is kept
//! (a rebuild stays byte-identical) and its content is what later builds are compared
//! with, so the finding stands until the version changes.

use std::path::{Path, PathBuf};

use muster_model::{FindingKind, Game};

pub use crate::report::Release;
use crate::report::{Attention, ModuleReport};

/// Where a game's release record lies under the output folder `out`.
pub fn record_path(out: &Path, game: &str) -> PathBuf {
    out.join("dist").join(game).join("release.json")
}

/// The release the last build of `game` recorded under `out`, if it recorded one that
/// still reads.
pub fn last(out: &Path, game: &str) -> Option<Release> {
    let bytes = std::fs::read(record_path(out, game)).ok()?;
    serde_json::from_slice(&bytes).ok()
}

/// The date of the release of `version`: the last release's when it had the same version,
/// else the day of `source_date` (seconds since 1970, from `SOURCE_DATE_EPOCH`, as
/// reproducible builds use it) when it is given, else today (UTC).
pub fn date(last: Option<&Release>, version: &str, source_date: Option<u64>) -> String {
    if let Some(last) = last.filter(|l| l.version == version) {
        return last.date.clone();
    }
    let seconds = source_date.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs())
    });
    day_of(seconds)
}

/// What a build records, and whether its module changed under the last release's version.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settled {
    /// The record to keep: the last one while the version is unchanged, else this build's.
    pub record: Release,
    /// The last release, when this build's module holds something else under its version.
    pub changed_under: Option<Release>,
}

/// Compares this build's module (`version`, `date`, `content`) with the `last` release.
pub fn settle(
    last: Option<Release>,
    version: &str,
    date: &str,
    content: &str,
) -> Settled {
    let this =
        Release { version: version.into(), date: date.into(), content: content.into() };
    match last {
        Some(last) if last.version == version && last.content != content => {
            Settled { record: last.clone(), changed_under: Some(last) }
        }
        Some(last) if last.version == version => {
            Settled { record: last, changed_under: None }
        }
        _ => Settled { record: this, changed_under: None },
    }
}

/// The finding of a module that holds something else than the release recorded under its
/// version, at the version in `game.yaml` (or at `game.yaml` when it gives none).
pub fn finding(
    game: &Game,
    module: &ModuleReport,
    sources: &muster_model::Sources,
) -> Option<Attention> {
    let last = module.changed_under.as_ref()?;
    let version = &game.meta.module.version;
    let (file, line, column) = if version.span.is_detached() {
        (game.dir.join("game.yaml").display().to_string(), 1, 1)
    } else {
        let s = version.span;
        (sources.path(s.file).display().to_string(), s.line, s.column)
    };
    let next = next_patch(&last.version)
        .map(|v| format!("; give it a new version, such as {v}"))
        .unwrap_or_default();
    Some(Attention {
        kind: FindingKind::VersionUnchanged,
        severity: FindingKind::VersionUnchanged.severity(),
        file: Some(file),
        line,
        column,
        scenario: None,
        message: format!(
            "the module changed since version {v} was first built on {d}, but its version \
             is still {v}: players could not tell it from the {v} they have{next}",
            v = last.version,
            d = last.date,
        ),
    })
}

/// The next version after `version` that says the change is a fix (`1.0.0` → `1.0.1`),
/// when it has three numbers.
pub fn next_patch(version: &str) -> Option<String> {
    let mut parts = version.split('.');
    let (major, minor, patch) = (parts.next()?, parts.next()?, parts.next()?);
    if parts.next().is_some() {
        return None;
    }
    let patch: u64 = patch.parse().ok()?;
    Some(format!("{major}.{minor}.{}", patch.checked_add(1)?))
}

/// The day (`YYYY-MM-DD`, UTC) of a moment given in seconds since 1970.
pub fn day_of(seconds: u64) -> String {
    let (year, month, day, ..) = muster_render::pdfx::civil(seconds);
    format!("{year:04}-{month:02}-{day:02}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn release(version: &str, content: &str) -> Release {
        Release {
            version: version.into(),
            date: "2026-01-02".into(),
            content: content.into(),
        }
    }

    #[test]
    fn days_are_civil_dates() {
        assert_eq!(day_of(0), "1970-01-01");
        assert_eq!(day_of(86_399), "1970-01-01");
        assert_eq!(day_of(951_782_400), "2000-02-29");
        assert_eq!(day_of(1_796_601_600), "2026-12-07");
    }

    #[test]
    fn a_version_keeps_the_date_it_was_first_built() {
        let last = release("1.0.0", "a");
        assert_eq!(date(Some(&last), "1.0.0", Some(0)), "2026-01-02");
        assert_eq!(date(Some(&last), "1.0.1", Some(0)), "1970-01-01");
        assert_ne!(date(Some(&last), "1.0.1", None), "2026-01-02");
    }

    #[test]
    fn content_changed_under_the_same_version_is_told_until_the_version_changes() {
        let first = settle(None, "1.0.0", "2026-01-02", "a");
        assert_eq!(first.record, release("1.0.0", "a"));
        assert_eq!(first.changed_under, None);
        let same = settle(Some(first.record.clone()), "1.0.0", "2026-01-02", "a");
        assert_eq!(same.changed_under, None);
        let changed = settle(Some(first.record.clone()), "1.0.0", "2026-01-02", "b");
        assert_eq!(changed.changed_under, Some(release("1.0.0", "a")));
        // The record stays the release's, so a second build of the change is told too.
        assert_eq!(changed.record, release("1.0.0", "a"));
        let bumped = settle(Some(changed.record), "1.0.1", "2026-03-04", "b");
        assert_eq!(bumped.changed_under, None);
        assert_eq!(bumped.record.version, "1.0.1");
        assert_eq!(bumped.record.date, "2026-03-04");
    }

    #[test]
    fn the_next_patch_of_three_numbers() {
        assert_eq!(next_patch("1.0.0").as_deref(), Some("1.0.1"));
        assert_eq!(next_patch("2.3.9").as_deref(), Some("2.3.10"));
        assert_eq!(next_patch("2.3"), None);
        assert_eq!(next_patch("2.3.x"), None);
    }
}
