//! The four seed games load, and hold what their rulebooks print, counted by hand.

use std::collections::BTreeMap;

use muster_model::notation::{LocationExpr, parse_location};
use muster_model::{Game, PlacementKind, Severity};

use crate::util::seeds;

fn game<'a>(games: &'a [Game], id: &str) -> &'a Game {
    games.iter().find(|g| g.id == id).unwrap_or_else(|| panic!("game {id} loads"))
}

fn units_by_section(g: &Game) -> BTreeMap<String, usize> {
    let mut m = BTreeMap::new();
    for u in &g.units {
        *m.entry(u.section.clone().unwrap_or_default()).or_default() += 1;
    }
    m
}

fn placements(g: &Game, scenario: &str, kind: fn(&PlacementKind) -> bool) -> usize {
    g.placements(scenario).iter().filter(|p| kind(&p.kind)).count()
}

fn setup(k: &PlacementKind) -> bool {
    *k == PlacementKind::Setup
}
fn reinforcement(k: &PlacementKind) -> bool {
    *k == PlacementKind::Reinforcement
}
fn group(k: &PlacementKind) -> bool {
    matches!(k, PlacementKind::Group(_))
}

#[test]
fn all_four_seed_games_load_without_errors() {
    let loaded = seeds();
    let errors: Vec<String> = loaded
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .map(|d| loaded.sources.render(d))
        .collect();
    assert!(errors.is_empty(), "{}", errors.join("\n"));
    let ids: Vec<&str> = loaded.games.iter().map(|g| g.id.as_str()).collect();
    assert_eq!(
        ids,
        [
            "dance-of-war",
            "example-oasis",
            "gazala-1942",
            "gazala-line-1942",
            "gazala-scs"
        ]
    );
}

#[test]
fn gazala_scs_manifest_and_scenarios_match_the_rulebook() {
    let loaded = seeds();
    let g = game(&loaded.games, "gazala-scs");
    let by = units_by_section(g);
    // Counted in 16.0, section by section (entries separated by semicolons).
    let expected = [
        ("16.1.1", 13),
        ("16.1.2", 5),
        ("16.1.3", 11),
        ("16.1.3.1", 3),
        ("16.1.3.2", 3),
        ("16.1.3.3", 3),
        ("16.1.4", 10),
        ("16.1.4.1", 3),
        ("16.1.4.2", 3),
        ("16.1.4.3", 4),
        ("16.1.5", 7),
        ("16.1.5.1", 4),
        ("16.1.5.2", 4),
        ("16.1.5.3", 4),
        ("16.1.6", 4),
        ("16.1.6.1", 6),
        ("16.1.6.2", 5),
        ("16.1.6.3", 4),
        ("16.1.7", 5),
        ("16.1.7.1", 4),
        ("16.1.7.2", 5),
        ("16.1.7.3", 4),
        ("16.1.7.4", 11),
        ("16.1.8", 1),
        ("16.1.8.1", 7),
        ("16.1.8.2", 4),
        ("16.1.9", 3),
        ("16.1.9.1", 3),
        ("16.1.9.2", 3),
        ("16.1.9.3", 4),
        ("16.1.10", 1),
        ("16.1.10.1", 5),
        ("16.1.10.2", 4),
        ("16.1.10.3", 4),
        ("16.2.1", 24),
        ("16.2.2", 9),
        ("16.2.3", 9),
        ("16.2.3.1", 15),
        ("16.2.3.2", 11),
        ("16.2.4", 4),
        ("16.2.4.1", 14),
        ("16.2.4.2", 10),
        ("16.2.4.3", 7),
        ("16.2.5", 3),
        ("16.2.5.1", 18),
        ("16.2.5.2", 17),
        ("16.2.6", 1),
        ("16.2.6.1", 13),
        ("16.2.6.2", 12),
        ("16.2.6.3", 7),
    ];
    for (section, n) in expected {
        assert_eq!(by.get(section).copied(), Some(n), "units of {section}");
    }
    assert_eq!(g.units.len(), 338);
    // 16.1 headings: 10 top-level groups and 24 brigades; 16.2: 6 top-level groups and 10 below.
    assert_eq!(g.formations.len(), 50);
    // 0.8.5 lists nine markers.
    assert_eq!(g.markers.len(), 9);
    assert_eq!(g.scenarios.len(), 5, "15.3 to 15.7");
    // Table rows: 15.3.3 + 15.3.4; 15.4.3 + 15.4.4; 15.5.2.1 + 15.5.3.1; 15.6.3.1 + 15.6.4.1;
    // 15.7.3 + 15.7.4.
    assert_eq!(placements(g, "fall-of-bir-hacheim", setup), 1 + 2);
    assert_eq!(placements(g, "cauldron-and-knightsbridge", setup), 4 + 9);
    assert_eq!(placements(g, "full-campaign", setup), 10 + 8);
    assert_eq!(placements(g, "main-event", setup), 8 + 10);
    assert_eq!(placements(g, "british-collapse", setup), 10 + 8);
    // 15.5.2.4 has 3 rows, 15.5.3.4 has 2; 15.6.3.4 has 2, 15.6.4.5 has 2.
    assert_eq!(placements(g, "full-campaign", reinforcement), 3 + 2);
    assert_eq!(placements(g, "main-event", reinforcement), 2 + 2);
    // Emergency groups, special reserve and dead pools: 15.5.2.2, 15.5.2.3, 15.5.3.2, 15.5.3.3;
    // 15.6.3.2, 15.6.3.3, 15.6.4.2, 15.6.4.3, 15.6.4.4.
    assert_eq!(placements(g, "full-campaign", group), 4);
    assert_eq!(placements(g, "main-event", group), 5);
    // 0.7: five Commonwealth and three Axis nationalities with colours.
    assert_eq!(g.meta.nationalities.iter().filter(|n| n.colour.is_some()).count(), 8);
}

#[test]
fn gazala_1942_units_and_scenarios_match_the_rulebook() {
    let loaded = seeds();
    let g = game(&loaded.games, "gazala-1942");
    let by = units_by_section(g);
    // 13.12: XXI Corps 9, X Corps 6, XX Corps 11, Afrika Korps 20 and 7 stacked with it.
    // 13.16: 1 SA 4, 50th 4, 2 SA 6 (6/2 and 9/5 twice each), 5 Indian 3 (11 from 13.34),
    // 1 Armoured 10, 7 Armoured 9, independents 11. 13.18: 5 reinforcements (its
    // "11 Indian (I)" is 13.34's "11 (I)"). 10.4: Heckler.
    assert_eq!(by.get("13.12").copied(), Some(9 + 6 + 11 + 20 + 7));
    assert_eq!(by.get("13.16").copied(), Some(4 + 4 + 6 + 3 + 10 + 9 + 11));
    assert_eq!(by.get("13.18").copied(), Some(5));
    assert_eq!(by.get("10.4").copied(), Some(1));
    assert_eq!(g.units.len(), 106);
    assert_eq!(g.scenarios.len(), 3, "13.1 to 13.3");
    // 13.12: 4 + 4 + 2 + 6 lines; 13.16: 4 + 4 + 6 + 1 + 4 + 6 + 10 lines.
    assert_eq!(placements(g, "preliminary-phase", setup), 16 + 35);
    // 13.32: 4 + 4 + 2 + 5 lines; 13.34: 4 + 4 + 4 + 1 + 1 + 1 + 3 lines.
    assert_eq!(placements(g, "british-strike-first", setup), 15 + 18);
    // 13.22: "Identical to the previous scenario."
    assert_eq!(
        g.scenarios
            .iter()
            .find(|s| s.id.v == "operation-aida")
            .unwrap()
            .setup_from
            .as_ref()
            .unwrap()
            .v,
        "preliminary-phase"
    );
    // 13.14 + 13.18; 13.24 + 13.26; 13.33 + 13.35.
    assert_eq!(placements(g, "preliminary-phase", reinforcement), 1 + 4);
    assert_eq!(placements(g, "operation-aida", reinforcement), 3 + 5);
    assert_eq!(placements(g, "british-strike-first", reinforcement), 4 + 3);
    // The printed strengths ride with the units: 13.16 prints 6/2 as [4-1-7] and [2-1-7].
    let printed: Vec<String> = g
        .placements("preliminary-phase")
        .iter()
        .flat_map(|p| p.units.items.iter())
        .filter(|i| i.name == "6/2")
        .filter_map(|i| i.strength.clone())
        .collect();
    assert_eq!(printed, ["4-1-7", "2-1-7"]);
}

#[test]
fn gazala_line_1942_records_the_setup_it_does_not_print() {
    let loaded = seeds();
    let g = game(&loaded.games, "gazala-line-1942");
    // Named in 3.1 (66/Trieste, 11/Trieste, 1/33 AT), 5.0 (SV288/90), 8.3 (General Rommel)
    // and the counter key's four samples; 7.0's air/artillery marker is a marker.
    assert_eq!(g.units.len(), 3 + 1 + 1 + 4);
    assert!(g.board.is_none(), "the text prints no hex grid");
    let s = &g.scenarios[0];
    assert!(s.incomplete.as_ref().is_some_and(|t| t.v.contains("shown on the map")));
    assert!(g.placements(&s.id.v).is_empty());
}

#[test]
fn dance_of_war_units_and_setup_match_the_rulebook() {
    let loaded = seeds();
    let g = game(&loaded.games, "dance-of-war");
    // 3.5.2 names 12 Allied, 6 German and 5 Italian independent units.
    let independent = |f: &str| {
        g.units
            .iter()
            .filter(|u| {
                u.formation.as_deref() == Some(f) && u.section.as_deref() == Some("3.5.2")
            })
            .count()
    };
    assert_eq!(independent("allied-independent"), 12);
    assert_eq!(independent("german-independent"), 6);
    assert_eq!(independent("italian-independent"), 5);
    // 15.1 has 11 rows and 15.2 has 11 rows; 15.3 has 9 rows.
    assert_eq!(placements(g, "campaign", setup), 11 + 11);
    assert_eq!(placements(g, "campaign", reinforcement), 9);
    // 14.3.1 states nineteen victory locations; the table stops after six, and 16.1.3 and
    // 16.1.4 name seven more (16.1.2's El Alamein is no victory location).
    let vp = g.maps[0]
        .features
        .iter()
        .filter(|f| f.kind == muster_model::source::FeatureKind::VictoryHex)
        .count();
    assert_eq!(vp, 6 + 7);
    let reduced: usize = g
        .placements("campaign")
        .iter()
        .flat_map(|p| &p.units.items)
        .filter(|i| i.reduced)
        .count();
    // Units marked (r) in 15.1 (10 HUSS, 9 LAN, four of 22 Armd Bde) and 15.2 (MARCKS, 1/8 Pz,
    // 1/5 Pz, 8/9/10M, COM/12 BERS, 2/65, 1 M, 32E), and 15.3 (1 + 2/86, 1/4 ESSEX, 1 + 2/85, COMP GD).
    assert_eq!(reduced, 6 + 8 + 4);
}

/// Printed hex labels that do not name a hex of their map, with the reason.
const KNOWN_BAD_LABELS: &[(&str, &str, &str)] = &[(
    "gazala-1942",
    "134",
    "11.11 prints 'hex 134': three digits, where four-digit labels need 0134",
)];

#[test]
fn every_printed_hex_label_parses_and_lies_on_its_map_or_is_listed() {
    let loaded = seeds();
    let mut bad = Vec::new();
    for g in &loaded.games {
        let Some(board) = &g.board else { continue };
        let mut labels: Vec<String> = Vec::new();
        for p in g.parsed.iter().flat_map(|s| &s.placements) {
            if let Some(expr) = &p.location {
                if let LocationExpr::Unparsed { text } = expr {
                    bad.push((g.id.clone(), text.clone()));
                }
                labels.extend(expr.hexes().iter().map(|h| h.label.clone()));
            }
        }
        let is_label = |w: &str| {
            w.chars().next().is_some_and(|c| c.is_ascii_alphanumeric())
                && w.chars().any(|c| c.is_ascii_digit())
        };
        for m in &g.maps {
            for f in &m.features {
                labels.extend(f.hexes.iter().map(|h| h.v.clone()));
                if let Some(loc) = &f.location {
                    labels.extend(
                        parse_location(&loc.v, &is_label)
                            .hexes()
                            .iter()
                            .map(|h| h.label.clone()),
                    );
                }
            }
        }
        assert!(!labels.is_empty(), "{} names hexes", g.id);
        for l in labels {
            if board.parse(&l).is_err() {
                bad.push((g.id.clone(), l));
            }
        }
    }
    let mut expected: Vec<(String, String)> =
        KNOWN_BAD_LABELS.iter().map(|(g, l, _)| (g.to_string(), l.to_string())).collect();
    bad.sort();
    bad.dedup();
    expected.sort();
    assert_eq!(bad, expected);
}

#[test]
fn scs_worked_example_w_i_4_counts_four_or_fewer_hexes() {
    // 0.4.5.A: "w/i 4 means a unit could setup in any hex that is four or less hexes from the hex given".
    let loaded = seeds();
    let g = game(&loaded.games, "gazala-scs");
    let board = g.board.as_ref().unwrap();
    let centre = board.parse("A29.17").unwrap();
    let region = board.within(centre, 4);
    assert_eq!(region.len(), 61);
    assert!(region.iter().all(|c| board.distance(centre, *c) <= 4));
    // The maps join: B30.35 lies next to A30.01 (15.4.2's area runs from Axx.15 to Bxx.20).
    assert_eq!(
        board.distance(board.parse("A30.01").unwrap(), board.parse("B30.35").unwrap()),
        1
    );
}

/// Every printed item of a scenario with what it resolves to, as the solver sees them.
fn resolved(g: &Game, scenario: &str) -> Vec<(String, muster_check::Resolution)> {
    let solution = muster_check::solve(g, scenario);
    let ps = muster_check::solve::placements(g, scenario);
    solution
        .resolutions
        .into_iter()
        .enumerate()
        .flat_map(|(k, res)| {
            let section = ps[k].section.clone();
            res.into_iter().map(move |r| (section.clone(), r))
        })
        .collect()
}

fn unit_id(r: &muster_check::Resolution) -> Option<&str> {
    match &r.to {
        muster_check::Resolved::Unit {
            id,
            differs_from: None,
            listed_under: None,
            other_side: None,
            by_type: None,
        } => Some(id),
        _ => None,
    }
}

#[test]
fn scs_printed_notation_reads_as_the_rulebook_means_it() {
    let loaded = seeds();
    let g = game(&loaded.games, "gazala-scs");
    // 15.5.3.3 "(or with any of the above): KG Hecker Comm Bn": KG Hecker, qualified, in
    // the special reserve box of the solved setup.
    let hecker: Vec<_> = g
        .placements("full-campaign")
        .iter()
        .filter(|p| p.section == "15.5.3.3")
        .flat_map(|p| &p.units.items)
        .collect();
    assert_eq!(hecker.len(), 1);
    assert_eq!(hecker[0].name, "KG Hecker Comm Bn");
    assert_eq!(hecker[0].qualifier.as_deref(), Some("or with any of the above"));
    let solution = muster_check::solve(g, "full-campaign");
    let placed: Vec<_> =
        solution.units.iter().filter(|u| u.name == "KG Hecker Commando Bn").collect();
    assert_eq!(placed.len(), 1, "KG Hecker is in the solved setup");
    assert_eq!(placed[0].holding.as_deref(), Some("In Special Reserve"));

    // 15.7.3 "1 SA Div (4 Fld, 5 Fld, 7 Fld Arty Bn)": three Fld Arty Bns of the 1st SA
    // Division, found as printed (no name differs).
    let collapse = resolved(g, "british-collapse");
    for n in ["4 Fld", "5 Fld", "7 Fld Arty Bn"] {
        let (_, r) =
            collapse.iter().find(|(s, r)| s == "15.7.3" && r.printed == n).unwrap();
        let want = format!("1-sa-div-{}-fld-arty-bn", &n[..1]);
        assert_eq!(unit_id(r), Some(want.as_str()), "{n}");
    }

    // 15.6.3.2 "Cstl Arty Bns 523, 528, 529, 532; ...; Arty Bns II/115, 408 Hvy": labels
    // without a colon.
    let main = resolved(g, "main-event");
    let group: Vec<&str> = main
        .iter()
        .filter(|(s, _)| s == "15.6.3.2")
        .filter_map(|(_, r)| unit_id(r))
        .collect();
    for id in [
        "axis-independent-german-523-coastal-arty-bn",
        "axis-independent-german-532-coastal-arty-bn",
        "axis-independent-german-ii-115-arty-bn",
        "axis-independent-german-408-hvy-arty-bn",
    ] {
        assert!(group.contains(&id), "{id} in {group:?}");
    }

    // 15.6.3.1 "…, 4 SU": four supply units, like 15.5.3.1's "4 x SU".
    let (_, su) = main
        .iter()
        .find(|(s, r)| s == "15.6.3.1" && r.count == 4)
        .expect("4 SU is a count");
    assert_eq!(su.printed, "SU");
    assert_eq!(unit_id(su), Some("marker-supply-unit"));
}

#[test]
fn no_seed_unit_list_is_left_unparsed() {
    let loaded = seeds();
    let mut unparsed = Vec::new();
    for g in &loaded.games {
        for p in g.parsed.iter().flat_map(|s| &s.placements) {
            for item in p.units.items.iter().flat_map(|i| i.walk()) {
                if item.unparsed {
                    unparsed.push((g.id.clone(), item.name.clone()));
                }
                // A unit's name never keeps notation punctuation.
                assert!(!item.name.contains([':', '(', ')', '[', ']']), "{}", item.name);
            }
        }
    }
    assert!(unparsed.is_empty(), "{unparsed:?}");
}

#[test]
fn scs_nationality_marks_of_the_manifest_are_read() {
    // 16.1.3 and 16.1.4 mark British units of the South African divisions "(Brit)"; 0.7
    // and game.yaml declare the mark.
    let loaded = seeds();
    let g = game(&loaded.games, "gazala-scs");
    for printed in [
        "7 RTR Arm Bn (Brit)",
        "42 RTR Arm Bn (Brit)",
        "67 Med Arty Bn (Brit)",
        "68 Med Arty Bn (Brit)",
    ] {
        let u = g.units.iter().find(|u| u.printed.v == printed).unwrap();
        assert_eq!(u.nationality.as_deref(), Some("britain"), "{printed}");
    }
    // Their neighbours without the mark stay South African.
    let u = g.units.iter().find(|u| u.printed.v == "1 SA AT Bn").unwrap();
    assert_eq!(u.nationality.as_deref(), Some("south-africa"));
}

fn scenario<'a>(g: &'a Game, id: &str) -> &'a muster_model::source::ScenarioFile {
    g.scenarios.iter().find(|s| s.id.v == id).unwrap_or_else(|| panic!("scenario {id}"))
}

fn errata_of<'a>(
    list: &'a [muster_check::Erratum],
    kind: &str,
    scenario: &str,
) -> Vec<&'a muster_check::Erratum> {
    list.iter()
        .filter(|e| e.kind.as_str() == kind && e.scenario.as_deref() == Some(scenario))
        .collect()
}

#[test]
fn scs_scenarios_record_where_the_printed_setups_stop_short() {
    let loaded = seeds();
    let g = game(&loaded.games, "gazala-scs");
    let errata = muster_check::errata(g);
    // 15.5.3.1 names none of the Axis mobile formations.
    let full = scenario(g, "full-campaign").incomplete.as_ref().unwrap();
    for name in [
        "Rommel",
        "PzGrp Army HQ",
        "DAK Corps HQ",
        "15th Pz",
        "21st Pz",
        "90th Le",
        "Ariete",
        "20th It Corps",
        "5.2.G",
    ] {
        assert!(full.v.contains(name), "{name}");
    }
    // 15.6: no DAK or Ariete though the dead pool lists their units; the 10 Ind Bde is
    // released and never placed.
    let main = scenario(g, "main-event").incomplete.as_ref().unwrap();
    for name in [
        "Deutsches Afrika Korps",
        "Ariete",
        "551 AG Bn",
        "II/8 Pz Bn",
        "10 Ind Bde units have been released",
        "A54.02",
    ] {
        assert!(main.v.contains(name), "{name}");
    }
    for sid in ["full-campaign", "main-event"] {
        let found = errata_of(&errata, "incomplete", sid);
        assert_eq!(found.len(), 1, "{sid}");
        assert_eq!(found[0].severity(), muster_model::Severity::Info);
        assert!(!found[0].span.is_detached(), "the finding points at the data");
    }
    // 15.7.5.B asks the CW to exit 35 or more units; 15.7.3 sets up 33 and 1 x SU.
    let exits = errata_of(&errata, "count-mismatch", "british-collapse");
    assert_eq!(exits.len(), 1);
    assert_eq!(
        exits[0].severity(),
        muster_model::Severity::Warning,
        "the setup is complete: a real contradiction"
    );
    assert_eq!(exits[0].expected.as_deref(), Some("at least 35"));
    assert!(exits[0].message.ends_with("the lists give 34"), "{}", exits[0].message);
    // 15.7.5.C stops mid-sentence, and the data says so.
    let collapse = scenario(g, "british-collapse");
    assert!(collapse.victory.iter().any(
        |v| v.v == "C. If both players fulfill their conditions or if neither does."
    ));
    assert!(
        collapse.notes.iter().any(|n| n.v.contains("15.7.5.C is printed unfinished"))
    );
}

#[test]
fn scs_general_scenario_rules_are_in_the_data() {
    let loaded = seeds();
    let g = game(&loaded.games, "gazala-scs");
    // 15.1.1.C applies to every scenario.
    for s in &g.scenarios {
        assert!(
            s.special_rules
                .iter()
                .any(|r| r.starts_with("15.1.1.C: No unit can set up in Reserve.")),
            "{}",
            s.id.v
        );
    }
    // 15.2's Turn 1 rules belong to the scenario that starts on Turn 1.
    let full = scenario(g, "full-campaign");
    assert_eq!(full.first_turn.as_ref().map(|t| t.v.as_str()), Some("Turn 1"));
    for r in ["15.2.A", "15.2.B", "15.2.C", "15.2.D"] {
        assert!(full.special_rules.iter().any(|x| x.starts_with(r)), "{r}");
    }
    // The victory points of 15.1.2 decide the two campaigns, which print no victory section.
    for sid in ["full-campaign", "main-event"] {
        let s = scenario(g, sid);
        for r in ["15.1.2.1", "15.1.2.2", "15.1.2.3"] {
            assert!(s.victory.iter().any(|v| v.starts_with(r)), "{sid} {r}");
        }
        let t = s.tables.iter().find(|t| t.section == "15.1.2.3").unwrap();
        assert_eq!(t.columns, ["VP Differential", "Victory Level"]);
        assert_eq!(t.rows.len(), 5);
        assert_eq!(t.rows[2].v, ["-1 to 1", "Draw"]);
        assert!(
            s.stated_counts.iter().any(|c| c.what == "victory-hexes" && c.count == 15)
        );
    }
    // 15.3.5's table keeps its header as a header, one row per printed row.
    let bir = scenario(g, "fall-of-bir-hacheim");
    let t = bir.tables.iter().find(|t| t.section == "15.3.5").unwrap();
    assert_eq!(t.columns, ["Game Ends on Turn", "Victory Level"]);
    let first: Vec<&str> = t.rows.iter().map(|r| r[0].as_str()).collect();
    assert_eq!(first, ["≤ 14", "15", "16", "17", "18+"]);
    assert!(!bir.victory.iter().any(|v| v.contains("Victory Level")));
    // 15.4.1.C: two supply units for the Allies and one for the Axis, each turn.
    let cauldron = resolved(g, "cauldron-and-knightsbridge");
    let su: Vec<(u32, Option<&str>)> = cauldron
        .iter()
        .filter(|(s, _)| s == "15.4.1.C")
        .map(|(_, r)| (r.count, unit_id(r)))
        .collect();
    assert_eq!(su, [(2, Some("marker-supply-unit")), (1, Some("marker-supply-unit"))]);
}

#[test]
fn scs_values_the_rulebook_does_not_print_are_marked_and_cited_where_printed() {
    let loaded = seeds();
    let g = game(&loaded.games, "gazala-scs");
    let assumed = g.assumptions();
    let has = |entry: &str, field: Option<&str>| {
        assumed.iter().any(|a| a.entry == entry && a.field.as_deref() == field)
    };
    // 0.8.4 prints no KG size and 0.8.1 no AG type; the stagger is not printed.
    assert!(has("unit_sizes[kampfgruppe]", None));
    assert!(has("unit_types[assault-gun]", None));
    assert!(has("board", Some("grid.stagger")));
    assert!(has("board", Some("grid.orientation")));
    assert!(has("counter_style", Some("values")));
    assert!(has("map a", Some("hex_size_in")));
    assert!(has("formations[15-shu-bde]", Some("nationality")));
    // The units those values concern carry the reason.
    let unit = |p: &str| g.units.iter().find(|u| u.printed.v == p).unwrap();
    assert!(unit("KStA Arm Recon KG").assumed.contains_key("size"));
    assert!(unit("551 AG Bn").assumed.contains_key("type"));
    assert!(
        unit("I/200 Inf Bn").assumed.contains_key("nationality"),
        "15th Schützen Bde"
    );
    assert!(unit("Yugo Inf Bn").assumed.contains_key("nationality"));
    assert!(unit("1 TS Inf Bn").assumed.is_empty());
    // Values are cited where the rulebook prints them; 0.8.2 is about exploitation only.
    let values: BTreeMap<&str, &str> = g
        .meta
        .values
        .iter()
        .map(|v| (v.id.v.as_str(), v.section.as_deref().unwrap_or_default()))
        .collect();
    assert_eq!(values["attack"], "2.1.B");
    assert_eq!(values["defense"], "8.2.A");
    assert_eq!(values["movement"], "3.1.1");
    assert_ne!(g.meta.counter_style.section.as_deref(), Some("0.8.2"));
    let reasoning = g.meta.board.as_ref().unwrap().reasoning.as_deref().unwrap();
    assert!(
        reasoning.contains("horizontal dimension")
            && !reasoning.contains("34-inch side (0.4.1.1)")
    );
    // No terrain is prohibited: the Terrain Effects Chart is not printed.
    assert!(g.rules.prohibited_terrain.is_empty());
}

#[test]
fn gazala_1942_decides_from_the_text_and_reports_what_it_leaves_contradictory() {
    let loaded = seeds();
    let g = game(&loaded.games, "gazala-1942");
    let errata = muster_check::errata(g);
    let unit = |p: &str| {
        let found: Vec<_> = g.units.iter().filter(|u| u.printed.v == p).collect();
        assert!(!found.is_empty(), "{p}");
        found
    };
    // 10.4: a strip along the east edge, not a circle around 2129.
    let heckler = g.maps[0]
        .features
        .iter()
        .find(|f| f.name.as_deref() == Some("Heckler landing"))
        .unwrap();
    let four = |w: &str| w.len() == 4 && w.bytes().all(|b| b.is_ascii_digit());
    match parse_location(&heckler.location.as_ref().unwrap().v, &four) {
        LocationExpr::NearEdge { distance: 6, edge, farthest: Some(h) } => {
            assert_eq!((edge.as_str(), h.label.as_str()), ("east", "2129"));
        }
        other => panic!("{other:?}"),
    }
    // 13.21 makes 13.11 (ending 5 June) AIDA's rules; 13.24 to 13.27 run to 22 June. Both
    // are kept and the checker reports them.
    let aida = scenario(g, "operation-aida");
    assert_eq!(aida.last_turn.as_ref().map(|t| t.v.as_str()), Some("22 June"));
    assert!(aida.special_rules.iter().any(|r| r.contains("end of the turn of 5 June")));
    let found = errata_of(&errata, "contradiction", "operation-aida");
    assert_eq!(found.len(), 1);
    assert!(found[0].message.contains("13.11") && found[0].message.contains("13.27"));
    assert!(!found[0].span.is_detached());
    // 11 (I) of 13.34 and 11 Indian (I) of 13.18 and 13.26 are one counter.
    assert_eq!(unit("11 (I)").len(), 1);
    assert!(!g.units.iter().any(|u| u.printed.v == "11 Indian (I)"));
    let eleven = |sid: &str| -> Vec<String> {
        resolved(g, sid)
            .iter()
            .filter(|(_, r)| r.printed.starts_with("11"))
            .filter_map(|(_, r)| unit_id(r).map(String::from))
            .collect()
    };
    assert_eq!(eleven("preliminary-phase"), ["5-ind-div-11-i"]);
    assert_eq!(eleven("operation-aida"), ["5-ind-div-11-i"]);
    assert_eq!(eleven("british-strike-first"), ["5-ind-div-11-i"]);
    // 9/5 is set up under the 2nd South African Division in 13.16 and under the 5th Indian
    // in 13.34: filed as 13.16 prints it, 13.34's line reported.
    assert!(unit("9/5 (I)").iter().all(|u| u.formation.as_deref() == Some("2-sa-div")));
    let other = errata_of(&errata, "other-formation", "british-strike-first");
    assert!(other.iter().any(|e| e.subject == "9/5"), "{other:?}");
    // 13.34 prints 3 and 29/5 as Indian.
    for p in ["3 (I)", "29/5 (I)"] {
        assert_eq!(unit(p)[0].nationality.as_deref(), Some("india"), "{p}");
    }
    // Rommel (H): 13.0's code for a headquarters, which 10.2 treats him as.
    let rommel = unit("Rommel (H)")[0];
    assert_eq!(rommel.unit_type.as_deref(), Some("headquarters"));
    assert_eq!(rommel.category, muster_rules::Category::Hq);
    assert!(
        !g.meta.unit_types.iter().any(|t| t.category == muster_rules::Category::Leader)
    );
    // No rule prohibits the sea.
    assert!(g.rules.prohibited_terrain.is_empty());
    // 10.5: the air support counter has two sides; what they show is not printed.
    let air = g.markers.iter().find(|m| m.printed.v == "Air support").unwrap();
    assert!(!air.single_sided && air.assumed.contains_key("back"));
    // 10.3 and 8.13: armored cars have 12 movement points.
    let cars: Vec<_> = g
        .units
        .iter()
        .filter(|u| u.unit_type.as_deref() == Some("armored-car"))
        .collect();
    assert_eq!(cars.len(), 9);
    assert!(
        cars.iter().all(|u| u.front.get("movement").map(String::as_str) == Some("12"))
    );
    // The Command Limits table of 7.1, with its modifiers.
    let t = g.meta.tables.iter().find(|t| t.section == "7.1").unwrap();
    assert_eq!(t.columns, ["Die", "Allied", "Axis"]);
    assert_eq!(t.rows.len(), 7);
    assert_eq!(t.rows[6].v, ["7+", "4", "3"]);
    assert!(t.lines.iter().any(|l| l == "+2 Tobruk (2422 is Axis-controlled)."));
    // 11.11's "hex 134" is checked like any printed label, and reported.
    let bad: Vec<_> = errata
        .iter()
        .filter(|e| e.kind.as_str() == "bad-hex" && e.subject == "134")
        .collect();
    assert_eq!(bad.len(), 1);
    assert_eq!(bad[0].section, "11.11");
    // Nationalities no heading prints are marked.
    assert!(unit("KDG (A)")[0].assumed.contains_key("nationality"));
    assert!(unit("1 French (I)")[0].assumed.is_empty());
}

#[test]
fn dance_of_war_settles_the_columns_and_marks_what_it_reads_into_the_text() {
    let loaded = seeds();
    let g = game(&loaded.games, "dance-of-war");
    let errata = muster_check::errata(g);
    let unit = |p: &str| {
        g.units.iter().find(|u| u.printed.v == p).unwrap_or_else(|| panic!("{p}"))
    };
    // 3.5.2's seven named columns are 13.7's seven COLUMN units: no generic counters.
    let columns: Vec<&str> = g
        .units
        .iter()
        .filter(|u| u.unit_type.as_deref() == Some("column"))
        .map(|u| u.printed.v.as_str())
        .collect();
    assert_eq!(
        columns,
        ["Stancol", "Squeak", "Ackol", "Bilcol", "Robcol", "July", "August"]
    );
    assert!(
        g.units
            .iter()
            .all(|u| u.printed.v != "Col." && u.count == 1 || u.printed.v == "x-x-6")
    );
    assert!(columns.iter().all(|c| unit(c).steps == Some(1)));
    // 15.1's three "Col." lines each set up one of them, and say so.
    let by_type = errata_of(&errata, "unit-by-type", "campaign");
    assert_eq!(by_type.len(), 3);
    let placed: Vec<String> = resolved(g, "campaign")
        .iter()
        .filter(|(_, r)| r.printed == "Col.")
        .filter_map(|(_, r)| match &r.to {
            muster_check::Resolved::Unit { id, by_type: Some(t), .. }
                if t == "column" =>
            {
                Some(id.clone())
            }
            _ => None,
        })
        .collect();
    assert_eq!(placed.len(), 3);
    let count = errata_of(&errata, "count-incomplete", "campaign");
    assert!(
        count
            .iter()
            .any(|e| e.message.contains("7 (type:column)")
                && e.message.ends_with("give 3"))
    );
    // 16.1.2 names El Alamein only as an optional criterion.
    let vp = g.maps[0]
        .features
        .iter()
        .filter(|f| f.kind == muster_model::source::FeatureKind::VictoryHex)
        .filter_map(|f| f.name.as_deref())
        .collect::<Vec<_>>();
    assert!(!vp.contains(&"El Alamein"));
    assert!(g.maps[0].features.iter().any(|f| f.name.as_deref() == Some("El Alamein")
        && f.kind == muster_model::source::FeatureKind::Place));
    // Types the text prints only inside names are assumptions, with the words it prints.
    let typed: Vec<&muster_model::Unit> = g
        .units
        .iter()
        .filter(|u| {
            matches!(
                u.unit_type.as_deref(),
                Some(
                    "tank"
                        | "panzergrenadier"
                        | "antiair"
                        | "armored-car"
                        | "bersaglieri"
                )
            )
        })
        .collect();
    assert_eq!(typed.len(), 14);
    assert!(typed.iter().all(|u| u.assumed.contains_key("type")), "every one is marked");
    for t in &g.meta.unit_types {
        assert!(
            !["Panzergrenadier", "Bersaglieri", "Armoured car"]
                .contains(&t.name.as_str()),
            "{}",
            t.name
        );
    }
    // 10.5.1's German 2/361 is a counter; 10.5.2's "1 DUKE/I SA" is kept as printed and
    // found to differ from 15.1's 1 DUKE/1 SA.
    let u = unit("2/361");
    assert_eq!(u.nationality.as_deref(), Some("germany"));
    assert_eq!(u.mobility, Some(muster_model::source::Mobility::Motorized));
    let duke: Vec<_> = errata
        .iter()
        .filter(|e| e.kind.as_str() == "unknown-unit" && e.subject == "1 DUKE/I SA")
        .collect();
    assert_eq!(duke.len(), 1);
    assert_eq!(duke[0].section, "10.5.2");
    assert!(duke[0].suggestion.as_deref().unwrap().starts_with("1 DUKE/1 SA"));
    // Formation memberships the text does not print are marked.
    for p in ["33A", "33P", "3A", "200P", "2/104 PzG", "2/5 Pz", "2/43/24", "9 CAV"] {
        assert!(unit(p).assumed.contains_key("formation"), "{p}");
    }
    for p in ["15 Pz HQ", "1/8 Pz", "90 L HQ", "580A"] {
        assert!(!unit(p).assumed.contains_key("formation"), "{p}");
    }
    // Nationalities by default are marked, or taken from the name and marked.
    assert_eq!(unit("3 SA AC").nationality.as_deref(), Some("south-africa"));
    assert!(unit("3 SA AC").assumed.contains_key("nationality"));
    assert!(unit("1/4 ESSEX").assumed.contains_key("nationality"));
    assert!(unit("8 RTR").assumed.contains_key("nationality"));
    assert!(unit("1 TS/1 SA").assumed.is_empty());
}

#[test]
fn gazala_line_1942_invents_no_label_and_marks_what_the_text_leaves_open() {
    let loaded = seeds();
    let g = game(&loaded.games, "gazala-line-1942");
    let unit = |p: &str| {
        g.units.iter().find(|u| u.printed.v == p).unwrap_or_else(|| panic!("{p}"))
    };
    // No counter, marker or formation carries a name the text does not print.
    let names: Vec<&str> = g
        .units
        .iter()
        .chain(&g.markers)
        .map(|u| u.printed.v.as_str())
        .chain(g.formations.iter().map(|f| f.printed.v.as_str()))
        .collect();
    for invented in [
        "Axis Air/Artillery",
        "Allied Air/Artillery",
        "German units named in the rules",
        "Allied units named in the rules",
    ] {
        assert!(!names.contains(&invented), "{invented}");
    }
    // 7.0's air/artillery marker, as printed.
    let m = g.markers.iter().find(|m| m.printed.v == "air/artillery marker").unwrap();
    assert_eq!(m.side, "axis");
    // The turn marker's back and the turn steps are not printed past "Deck 1".
    let turn = g.markers.iter().find(|m| m.printed.v == "Turn").unwrap();
    assert!(turn.assumed.contains_key("back"));
    assert!(
        g.assumptions()
            .iter()
            .any(|a| a.entry == "play.turns" && a.field.as_deref() == Some("steps"))
    );
    // 3.1 names two German and one Italian AT units without saying which 1/33 AT is.
    assert_eq!(unit("1/33 AT").nationality, None);
    // Trieste's nationality is an assumption; 66/Trieste and 11/Trieste are "armor units".
    for p in ["66/Trieste", "11/Trieste"] {
        assert_eq!(unit(p).unit_type.as_deref(), Some("armor"), "{p}");
        assert!(unit(p).assumed.contains_key("nationality"), "{p}");
    }
    // 8.2 names the Ariete Division.
    let ariete = g.formation("ariete").unwrap();
    assert_eq!(
        (ariete.printed.v.as_str(), ariete.section.as_deref()),
        ("Ariete Division", Some("8.2"))
    );
}
