//! Units printed in setup cells are read exactly as printed: manifest names that carry a
//! parenthesis read whole, selectors and marks honoured wherever they stand, formation
//! headings resolved within their side, and no printed token left unread and unreported.

use std::path::Path;

use muster_check::{Resolved, Solution, validate_solved};
use muster_model::{Game, PlacementKind};

use crate::util::{copy_tree, corpus, muster, root, seeds};

/// A small Napoleonic game: three sides each with an `I Corps` and `II Corps`, corps
/// counters printed with their commander (`I Corps (d'Erlon)`), two `II Corps (Hill)`
/// counters told apart by their note, an HQ whose name is a commander's, and a mark for
/// the corps' back side. `remarks` lists the commanders as remarks of the notation.
const GAME: &str = r##"id: example-oasis
title: Corps (test)
rulebook: none (test data)
sides:
  - {id: north, name: Anglo-Allied}
  - {id: east, name: Prussian}
  - {id: south, name: French}
nationalities:
  - {id: british, name: British, side: north, rgb: "#b33030"}
  - {id: prussia, name: Prussia, side: east, rgb: "#303030"}
  - {id: france, name: France, side: south, rgb: "#3050b3"}
unit_sizes:
  - {id: brigade, name: Brigade, symbol: X, printed: [Bde]}
  - {id: division, name: Division, symbol: XX, printed: [Div]}
  - {id: corps, name: Corps, symbol: XXX, printed: [Corps]}
unit_types:
  - {id: infantry, name: Infantry, symbol: infantry, category: combat, printed: [Inf]}
  - {id: cavalry, name: Cavalry, symbol: armor, category: combat, printed: [Cav]}
  - {id: headquarters, name: Headquarters, symbol: headquarters, category: hq, printed: [HQ]}
values:
  - {id: strength, name: Strength}
terrain:
  - {id: clear, name: Clear, rgb: "#efe6c8"}
  - {id: sea, name: Sea, rgb: "#9cc3e0", symbol: waves}
  - {id: rough, name: Rough, rgb: "#d8c49a", symbol: rough}
  - {id: hills, name: Hills, rgb: "#c2a878", symbol: hills}
  - {id: sand, name: Sand sea, rgb: "#f2dfa0", symbol: sand}
  - {id: marsh, name: Salt marsh, rgb: "#b9c9b0", symbol: marsh}
  - {id: oasis, name: Oasis, rgb: "#9cc48a", symbol: palms}
  - {id: town, name: Town, rgb: "#c9c1b6", symbol: town}
notation:
  reduced_marks: [in Battle Formation]
  REMARKS
board:
  grid: {orientation: pointy-top, stagger: even}
  sheets:
    - {map: oasis}
dice: {count: 1, sides: 6, section: "T"}
play:
  turns: {count: 4, section: "T"}
"##;

const OOB: &str = r##"formations:
  - id: aa
    printed: Anglo-Allied Army
    side: north
    nationality: british
    subordinates:
      - {id: aa-1, printed: I Corps}
      - {id: aa-2, printed: II Corps}
  - id: pr
    printed: Prussian Army
    side: east
    nationality: prussia
    subordinates:
      - {id: pr-1, printed: I Corps}
      - {id: pr-2, printed: II Corps}
  - id: fr
    printed: Armee du Nord
    side: south
    nationality: france
    subordinates:
      - {id: fr-1, printed: I Corps}
      - {id: fr-cav, printed: Reserve Cavalry Corps}
      - {id: fr-wing, printed: Right Wing, hq: Grouchy HQ}
"##;

const COUNTERS: &str = r##"groups:
  - formation: aa-1
    counters:
      - {printed: I Corps (Orange), steps: 2, front: {strength: 6}, back: {strength: 3}}
  - formation: aa-2
    counters:
      - {printed: II Corps (Hill), id: hill-two-star, note: two star, steps: 2, front: {strength: 6}, back: {strength: 3}}
      - {printed: II Corps (Hill), id: hill-one-star, note: one star, steps: 2, front: {strength: 4}, back: {strength: 2}}
      - {printed: McClennan Bde, size: brigade}
  - formation: pr-1
    counters:
      - {printed: I Corps (Ziethen), steps: 2, front: {strength: 7}, back: {strength: 3}}
      - {printed: Gneisenau HQ}
  - formation: pr-2
    counters:
      - {printed: II Corps (Pirch), steps: 2, front: {strength: 6}, back: {strength: 3}}
  - formation: fr-1
    counters:
      - {printed: I Corps (d'Erlon), steps: 2, front: {strength: 8}, back: {strength: 4}}
  - formation: fr-cav
    counters:
      - {printed: Res Cav Corps (Grouchy), steps: 2, front: {strength: 5}, back: {strength: 2}}
      - {printed: XXIV, steps: 2, front: {strength: 5}, back: {strength: 2}}
  - formation: fr-wing
    counters:
      - {printed: Grouchy HQ}
markers:
  - {printed: Game Turn, section: "T"}
"##;

const SCENARIO: &str = r##"id: meeting
title: Corps (test)
section: "T.1"
setup:
  - side: east
    section: "T.2"
    heading: I Corps
    placements:
      - {location: "05.05", units: "I Corps (Ziethen) (in Battle Formation)"}
  - side: east
    section: "T.3"
    heading: II Corps
    placements:
      - {location: "05.06", units: "II Corps (Pirch)"}
  - side: north
    section: "T.4"
    heading: II Corps
    placements:
      - {location: "08.05", units: "II Corps (Hill) [one star]"}
      - {location: "08.06", units: "II Corps [two star] (Hill)"}
  - side: north
    section: "T.5"
    heading: I Corps
    placements:
      - {location: "08.07", units: "I Corps (Orange)"}
  - side: south
    section: "T.6"
    heading: I Corps
    placements:
      - {location: "03.05", units: "I Corps (d'Erlon)"}
  - side: south
    section: "T.7"
    placements:
      - {location: "03.06", units: "Res Cav Corps (Grouchy)"}
      - {location: "03.07", units: "Grouchy HQ"}
      - {location: "02.07", units: "one XXIV"}
"##;

/// Writes the corps game under `dir/sources/example-oasis` (the example's maps and art,
/// this game's data), with the commanders listed as remarks when `remarks` is set, and
/// with `extra` placements appended to the French block.
fn corps_game(dir: &Path, remarks: bool, extra: &str) {
    let game = dir.join("sources/example-oasis");
    copy_tree(&root().join("sources/example-oasis/maps"), &game.join("maps"));
    copy_tree(&root().join("sources/example-oasis/art"), &game.join("art"));
    let remarks_line = if remarks {
        "remarks: [Orange, Hill, Pirch, Ziethen, \"d'Erlon\", Grouchy]"
    } else {
        ""
    };
    let write = |name: &str, text: &str| {
        let path = game.join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    write("game.yaml", &GAME.replace("REMARKS", remarks_line));
    write("oob.yaml", OOB);
    write("counters.yaml", COUNTERS);
    write("scenarios/meeting.yaml", &format!("{SCENARIO}{extra}"));
}

fn load(dir: &Path) -> Game {
    let loaded = muster_model::load(
        &dir.join("sources"),
        &[],
        &muster_model::LoadOptions::default(),
    );
    let errors: Vec<_> = loaded
        .diagnostics
        .iter()
        .filter(|d| d.severity == muster_model::Severity::Error)
        .map(|d| d.message.clone())
        .collect();
    assert!(errors.is_empty(), "{errors:?}");
    loaded.games.into_iter().next().expect("the corps game loads")
}

/// The counter each printed setup unit resolves to, by printed name, and the hex and
/// side it is placed on.
fn placed(
    game: &Game,
    solution: &Solution,
    printed: &str,
) -> Vec<(String, Option<String>, bool)> {
    let placements = muster_check::solve::placements(game, "meeting");
    let mut out = Vec::new();
    for (pi, res) in solution.resolutions.iter().enumerate() {
        for r in res.iter().filter(|r| r.printed == printed) {
            if let Resolved::Unit { id, .. } = &r.to {
                let at = solution
                    .units
                    .iter()
                    .find(|u| u.placement == pi && &u.unit == id)
                    .map(|u| (u.hex.clone(), u.reduced));
                let (hex, reduced) = at.unwrap_or((None, false));
                out.push((id.clone(), hex, reduced));
            }
        }
        let _ = placements[pi];
    }
    out
}

#[test]
fn corps_printed_with_their_commander_resolve_whole() {
    for remarks in [false, true] {
        let dir = tempfile::tempdir().unwrap();
        corps_game(dir.path(), remarks, "");
        let game = load(dir.path());
        let solution = muster_check::solve(&game, "meeting");
        let at = |p: &str| placed(&game, &solution, p);
        let why = format!("remarks: {remarks}");
        // `[one star]` after the parenthesis picks the one-star counter; before it, too.
        assert_eq!(
            at("II Corps (Hill)"),
            [
                ("hill-one-star".to_string(), Some("08.05".to_string()), false),
                ("hill-two-star".to_string(), Some("08.06".to_string()), false)
            ],
            "{why}"
        );
        // The mark after the parenthesis sets the corps up on its back.
        assert_eq!(
            at("I Corps (Ziethen)"),
            [("pr-1-i-corps-ziethen".to_string(), Some("05.05".to_string()), true)],
            "{why}"
        );
        // The cavalry corps, not the HQ of the commander it names.
        assert_eq!(
            at("Res Cav Corps (Grouchy)"),
            [(
                "fr-cav-res-cav-corps-grouchy".to_string(),
                Some("03.06".to_string()),
                false
            )],
            "{why}"
        );
        // The Prussian II Corps is Pirch's, on Pirch's hex.
        assert_eq!(
            at("II Corps (Pirch)"),
            [("pr-2-ii-corps-pirch".to_string(), Some("05.06".to_string()), false)],
            "{why}"
        );
        assert_eq!(
            at("I Corps (d'Erlon)"),
            [("fr-1-i-corps-d-erlon".to_string(), Some("03.05".to_string()), false)],
            "{why}"
        );
        // Nothing of this setup is a finding.
        let findings = validate_solved(&game, "meeting", &solution);
        let setup: Vec<_> = findings
            .iter()
            .filter(|f| f.kind.severity() != muster_model::Severity::Info)
            .map(|f| format!("{:?}: {}", f.kind, f.message))
            .collect();
        assert!(setup.is_empty(), "{why}: {setup:#?}");
    }
}

#[test]
fn a_count_in_words_is_read_or_reported() {
    let dir = tempfile::tempdir().unwrap();
    corps_game(
        dir.path(),
        false,
        "      - {location: \"02.08\", units: \"one unit on each hex marked with a star\"}\n",
    );
    let game = load(dir.path());
    let solution = muster_check::solve(&game, "meeting");
    // `one XXIV` is the XXIV counter.
    assert_eq!(
        placed(&game, &solution, "one XXIV"),
        [("fr-cav-xxiv".to_string(), Some("02.07".to_string()), false)]
    );
    // A row of no counter is reported at its line and column, never dropped.
    let findings = validate_solved(&game, "meeting", &solution);
    let row = findings
        .iter()
        .find(|f| f.subject.starts_with("one unit on each hex"))
        .expect("the row is reported");
    assert_eq!(row.kind, muster_model::FindingKind::UnknownUnit);
    assert!(row.span.line > 0 && row.span.column > 0);
}

#[test]
fn an_unmatched_selector_is_reported_at_its_column() {
    let dir = tempfile::tempdir().unwrap();
    corps_game(
        dir.path(),
        false,
        "      - {location: \"02.06\", units: \"I Corps (d'Erlon) [three star]\"}\n",
    );
    let game = load(dir.path());
    let solution = muster_check::solve(&game, "meeting");
    let findings = validate_solved(&game, "meeting", &solution);
    let f = findings
        .iter()
        .find(|f| f.subject == "[three star]")
        .unwrap_or_else(|| panic!("no finding for the selector: {findings:#?}"));
    let line = SCENARIO.lines().count() as u32 + 1;
    assert_eq!((f.span.line, f.span.column), (line, 55));
    assert!(
        f.message
            .contains("tells apart none of the counters printed `I Corps (d'Erlon)`"),
        "{}",
        f.message
    );
}

#[test]
fn suggestions_are_near_and_formations_named_apart() {
    let dir = tempfile::tempdir().unwrap();
    corps_game(
        dir.path(),
        false,
        concat!(
            "  - side: east\n    section: \"T.8\"\n    heading: I Corps\n    placements:\n",
            "      - {location: \"06.06\", units: \"Gniesenau, Kellermann\"}\n",
            "      - {location: \"06.07\", units: \"I Corps (d'Erlon)\"}\n",
        ),
    );
    let game = load(dir.path());
    let solution = muster_check::solve(&game, "meeting");
    let findings = validate_solved(&game, "meeting", &solution);
    let message = |subject: &str| {
        let f = findings.iter().find(|f| f.subject == subject);
        f.unwrap_or_else(|| panic!("{subject} is not reported: {findings:#?}"))
            .message
            .clone()
    };
    // A near name is suggested; nothing is offered for a name like no counter of the side.
    assert!(message("Gniesenau").contains("did you mean `Gneisenau HQ`?"));
    let far = message("Kellermann");
    assert_eq!(far, "`Kellermann` names no counter of the manifest", "{far}");
    // Errata say where each formation is, never one name twice.
    let errata = muster_check::errata(&game);
    let other: Vec<_> = errata
        .iter()
        .filter(|e| e.kind == muster_model::FindingKind::OtherFormation)
        .map(|e| e.message.clone())
        .collect();
    assert_eq!(other.len(), 1, "{other:#?}");
    assert!(
        other[0].contains("listed under I Corps (Prussian Army)")
            && other[0].contains("places it in I Corps (Armee du Nord)"),
        "{}",
        other[0]
    );
}

/// The byte ranges of `cell` no resolution read or reported: every character but spaces
/// and separators must be in one.
fn unread(cell: &str, covered: &[std::ops::Range<usize>]) -> Vec<String> {
    let mut seen = vec![false; cell.len()];
    for r in covered {
        for b in r.clone().filter(|&b| b < cell.len()) {
            seen[b] = true;
        }
    }
    let mut out = Vec::new();
    let mut token = String::new();
    for (k, c) in cell.char_indices() {
        let separator = c.is_whitespace()
            || c == ','
            || c == ';'
            || (c == '-' && cell[k + 1..].starts_with(' ') && cell[..k].ends_with(' '));
        if !separator && !seen[k] {
            token.push(c);
        } else if !token.is_empty() {
            out.push(std::mem::take(&mut token));
        }
    }
    if !token.is_empty() {
        out.push(token);
    }
    out
}

/// Every setup cell of `game`: the tokens no resolution read and no finding names.
fn unread_tokens(game: &Game) -> Vec<String> {
    let mut out = Vec::new();
    for s in &game.scenarios {
        let solution = muster_check::solve(game, &s.id.v);
        let findings = validate_solved(game, &s.id.v, &solution);
        let reported =
            |span: &muster_model::Span| findings.iter().any(|f| f.span == *span);
        let placements = muster_check::solve::placements(game, &s.id.v);
        for (pi, p) in placements.iter().enumerate() {
            if p.kind != PlacementKind::Setup {
                continue;
            }
            // A location read as no place at all is a finding where it is printed (a row
            // with no units places nothing: errata's `no-units` names it).
            if let (
                Some(Some(muster_check::region::Region::Unresolved { .. })),
                Some(text),
            ) = (solution.regions.get(pi), &p.location_text)
                && !p.units.items.is_empty()
                && !findings.iter().any(|f| f.span.line == text.span.line)
            {
                out.push(format!(
                    "{} {} line {}: location `{}` unread and unreported",
                    game.id, s.id.v, text.span.line, text.v
                ));
            }
            for (c, cell) in p.units.printed.iter().enumerate() {
                let mut covered = Vec::new();
                for r in solution.resolutions[pi].iter().filter(|r| r.cell == c) {
                    let read = match &r.to {
                        Resolved::Unit { .. } | Resolved::Formation { .. } => true,
                        Resolved::NotACounter => true,
                        Resolved::Unknown { .. } | Resolved::UnknownMark { .. } => {
                            reported(&r.span)
                        }
                    };
                    if let Some((_, span)) = &r.unmatched_selector {
                        assert!(
                            reported(span),
                            "{}: `{}`'s selector unreported",
                            game.id,
                            r.printed
                        );
                    }
                    if read {
                        covered.extend(r.read.iter().cloned());
                    }
                }
                for t in unread(&cell.v, &covered) {
                    out.push(format!(
                        "{} {} line {}: `{t}` in `{}`",
                        game.id, s.id.v, cell.span.line, cell.v
                    ));
                }
            }
        }
    }
    out
}

#[test]
fn every_printed_token_is_read_or_reported() {
    let (loaded, corpus) = (seeds(), corpus());
    assert!(loaded.games.len() >= 4 && corpus.games.len() >= 4);
    let mut unread = Vec::new();
    for game in loaded.games.iter().chain(&corpus.games) {
        unread.extend(unread_tokens(game));
    }
    let dir = tempfile::tempdir().unwrap();
    corps_game(
        dir.path(),
        true,
        concat!(
            "      - {location: \"02.08\", units: \"one unit on each hex marked with a star\"}\n",
            "      - {location: \"02.06\", units: \"I Corps (d'Erlon) [three star], Foo (Bar) [baz] (qux)\"}\n",
        ),
    );
    unread.extend(unread_tokens(&load(dir.path())));
    assert!(unread.is_empty(), "{unread:#?}");
}

#[test]
fn validate_and_errata_report_the_same_unknown_units() {
    let dir = tempfile::tempdir().unwrap();
    corps_game(
        dir.path(),
        false,
        concat!(
            "  - side: north\n    section: \"T.9\"\n    heading: II Corps\n    placements:\n",
            "      - {location: \"09.08\", units: \"Kellermann, McClennan Div\"}\n",
        ),
    );
    let run = |cmd: &str| {
        let out = muster(dir.path(), &[cmd, "--format", "json"]);
        String::from_utf8_lossy(&out.stdout).to_string()
    };
    let validate = run("validate");
    let errata = run("errata");
    for text in [&validate, &errata] {
        assert!(text.contains("Kellermann"), "{text}");
        assert!(text.contains("size-differs"), "{text}");
    }
}

#[test]
fn an_hq_naming_no_counter_and_a_contradicting_size_are_reported_where_printed() {
    let dir = tempfile::tempdir().unwrap();
    corps_game(
        dir.path(),
        false,
        concat!(
            "  - side: north\n    section: \"T.9\"\n    heading: II Corps\n    placements:\n",
            "      - {location: \"09.08\", units: \"McClennan Div\"}\n",
        ),
    );
    let oob = dir.path().join("sources/example-oasis/oob.yaml");
    let text =
        std::fs::read_to_string(&oob).unwrap().replace("hq: Grouchy HQ", "hq: Grnt");
    std::fs::write(&oob, text).unwrap();
    let game = load(dir.path());
    let errata = muster_check::errata(&game);
    let hq = errata.iter().find(|e| e.subject == "Grnt").expect("the hq is reported");
    assert_eq!(hq.kind, muster_model::FindingKind::UnknownUnit);
    assert_eq!((hq.span.line, hq.span.column), (23, 48), "{}", hq.message);
    assert!(
        hq.message.starts_with("`hq: Grnt` of Right Wing names no counter"),
        "{}",
        hq.message
    );
    let solution = muster_check::solve(&game, "meeting");
    let findings = validate_solved(&game, "meeting", &solution);
    let size = findings
        .iter()
        .find(|f| f.kind == muster_model::FindingKind::SizeDiffers)
        .expect("the size is reported");
    assert_eq!(size.subject, "McClennan Div");
    let line = SCENARIO.lines().count() as u32 + 5;
    assert_eq!((size.span.line, size.span.column), (line, 37));
}
