//! The seed games' stacking rules, stated in muster's rules language, against stacks taken
//! from the rulebooks' own wording; placement forms; solved setups that pass the checker.

use muster_check::{check_position, solve, validate_scenario};
use muster_model::{FindingKind, Game};
use muster_rules::{Category, PlacedUnit, Position, check_stacking};

use crate::util::{corpus, seeds};

fn game<'a>(games: &'a [Game], id: &str) -> &'a Game {
    games.iter().find(|g| g.id == id).unwrap()
}

fn unit(
    id: &str,
    side: &str,
    category: Category,
    size: &str,
    steps: u8,
    formation: Option<&str>,
) -> PlacedUnit {
    PlacedUnit {
        id: id.into(),
        name: id.into(),
        side: side.into(),
        category,
        unit_type: "infantry".into(),
        size: size.into(),
        steps,
        formation: formation.map(String::from),
        location: "h".into(),
        values: Default::default(),
        terrain: vec![],
    }
}

fn check(g: &Game, units: Vec<PlacedUnit>) -> Vec<String> {
    check_stacking(&muster_check::solve::ruleset(g), &Position { units })
        .into_iter()
        .map(|f| f.rule)
        .collect()
}

#[test]
fn scs_4_3_three_units_hqs_count_supply_markers_and_rommel_do_not() {
    let loaded = seeds();
    let g = game(&loaded.games, "gazala-scs");
    let c = Category::Combat;
    let three = vec![
        unit("a", "axis", c, "battalion", 2, None),
        unit("b", "axis", c, "battalion", 2, None),
        unit("hq", "axis", Category::Hq, "", 1, None),
    ];
    let mut legal = three.clone();
    legal.push(unit("su", "axis", Category::Supply, "", 1, None));
    legal.push(unit("su2", "axis", Category::Marker, "", 1, None));
    legal.push(unit("rommel", "axis", Category::Leader, "", 1, None));
    assert!(
        check(g, legal).is_empty(),
        "supply units, markers and Rommel do not count (4.3, 14.6.A)"
    );
    let mut four = three;
    four.push(unit("d", "axis", c, "company", 1, None));
    assert_eq!(check(g, four), ["4.3"], "HQs count as units: four units overstack");
}

#[test]
fn gazala_1942_5_1_brigades_regiments_and_headquarters() {
    let loaded = seeds();
    let g = game(&loaded.games, "gazala-1942");
    let c = Category::Combat;
    let bn = |i: usize| unit(&format!("bn{i}"), "axis", c, "battalion", 2, None);
    // "No more than 5 units ... of which no more than 1 may be a brigade or regiment."
    let mut five: Vec<PlacedUnit> = (0..4).map(bn).collect();
    five.push(unit("rgt", "axis", c, "regiment", 2, Some("ariete")));
    assert!(check(g, five.clone()).is_empty());
    five.push(bn(9));
    assert_eq!(check(g, five), ["5.1"]);
    // "2 regiments or brigades of the same formation and one other battalion-size unit".
    let same = vec![
        unit("r1", "axis", c, "regiment", 2, Some("ariete")),
        unit("r2", "axis", c, "regiment", 2, Some("ariete")),
        bn(1),
    ];
    assert!(check(g, same.clone()).is_empty());
    let mut other = same.clone();
    other[1].formation = Some("trieste".into());
    assert_eq!(check(g, other), ["5.1"], "two regiments of different formations");
    let mut two_bn = same;
    two_bn.push(bn(2));
    assert_eq!(check(g, two_bn), ["5.1"], "only one other battalion with two regiments");
    // "one headquarters may be present ... Any additional headquarters is treated as a battalion".
    let mut hqs: Vec<PlacedUnit> = (0..4).map(bn).collect();
    hqs.push(unit("hq1", "axis", Category::Hq, "", 1, None));
    hqs.push(unit("hq2", "axis", Category::Hq, "", 1, None));
    assert!(check(g, hqs.clone()).is_empty());
    hqs.push(unit("hq3", "axis", Category::Hq, "", 1, None));
    assert_eq!(check(g, hqs), ["5.1"]);
}

#[test]
fn gazala_line_1942_1_2_and_8_3() {
    let loaded = seeds();
    let g = game(&loaded.games, "gazala-line-1942");
    let c = Category::Combat;
    let legal = vec![
        unit("b1", "axis", c, "brigade", 2, None),
        unit("b2", "axis", c, "brigade", 2, None),
        unit("at", "axis", c, "", 1, None),
        unit("rommel", "axis", Category::Leader, "", 1, None),
    ];
    assert!(check(g, legal).is_empty(), "two brigades, one 1-step unit, Rommel free");
    let three = vec![
        unit("b1", "axis", c, "brigade", 2, None),
        unit("b2", "axis", c, "brigade", 2, None),
        unit("b3", "axis", c, "brigade", 2, None),
    ];
    assert_eq!(check(g, three), ["1.2"]);
    let opposing = vec![
        unit("b1", "axis", c, "brigade", 2, None),
        unit("b2", "allied", c, "brigade", 2, None),
    ];
    assert_eq!(check(g, opposing), ["1.2"], "opposing units may never stack");
}

#[test]
fn dance_of_war_6_0_and_6_3() {
    let loaded = seeds();
    let g = game(&loaded.games, "dance-of-war");
    let c = Category::Combat;
    let legal = vec![
        unit("a", "axis", c, "", 2, None),
        unit("b", "axis", c, "", 2, None),
        unit("hq", "axis", Category::Hq, "", 1, None),
        unit("pin", "axis", Category::Marker, "", 1, None),
    ];
    assert!(
        check(g, legal).is_empty(),
        "two combat units and one HQ; markers never count"
    );
    let hq_with_hq = vec![
        unit("hq1", "axis", Category::Hq, "", 1, None),
        unit("hq2", "axis", Category::Hq, "", 1, None),
    ];
    assert_eq!(check(g, hq_with_hq), ["6.0"], "an HQ may not be stacked with another HQ");
    let three = vec![
        unit("a", "axis", c, "", 2, None),
        unit("b", "axis", c, "", 2, None),
        unit("c", "axis", c, "", 2, None),
    ];
    assert_eq!(check(g, three), ["6.0"]);
    let opposing =
        vec![unit("a", "axis", c, "", 2, None), unit("b", "allied", c, "", 2, None)];
    assert_eq!(check(g, opposing), ["6.3"]);
}

#[test]
fn solved_setups_pass_the_checker_and_stay_where_their_lines_allow() {
    let loaded = seeds();
    let mut solved = 0;
    for g in &loaded.games {
        for s in &g.scenarios {
            let solution = solve(g, &s.id.v);
            let position = Position {
                units: solution
                    .units
                    .iter()
                    .enumerate()
                    .filter_map(|(k, u)| {
                        u.hex
                            .as_ref()
                            .and_then(|h| muster_check::solve::placed(g, &u.unit, k, h))
                    })
                    .collect(),
            };
            let findings = check_position(g, &s.id.v, &position);
            assert!(findings.is_empty(), "{} {}: {:?}", g.id, s.id.v, findings);
            solved += position.units.len();
            // Deterministic: solving twice gives the same position.
            let again = solve(g, &s.id.v);
            let a: Vec<_> =
                solution.units.iter().map(|u| (&u.unit, &u.hex, &u.holding)).collect();
            let b: Vec<_> =
                again.units.iter().map(|u| (&u.unit, &u.hex, &u.holding)).collect();
            assert_eq!(a, b);
        }
    }
    assert!(solved > 400, "{solved} units placed on maps");
}

#[test]
fn printed_forms_resolve_to_the_right_hexes() {
    let loaded = seeds();
    let g = game(&loaded.games, "gazala-1942");
    let s = solve(g, "preliminary-phase");
    let board = g.board.as_ref().unwrap();
    let at = |name: &str| {
        s.units.iter().find(|u| u.name == name).and_then(|u| u.hex.clone()).unwrap()
    };
    // "Hex 2403: XXI (H)".
    assert_eq!(at("XXI (H)"), "2403");
    // "Within 1 hex of hex 2804: 200 (I), 361 (I)".
    let c = board.parse(&at("200 (I)")).unwrap();
    assert!(board.distance(c, board.parse("2804").unwrap()) <= 1);
    // "Stacked with any Afrika Korps unit: ... Rommel (H)".
    let rommel = at("Rommel (H)");
    let ak = muster_check::resolve::descendants(g, "afrika-korps");
    assert!(s.units.iter().any(|u| {
        u.hex.as_deref() == Some(&rommel)
            && g.unit(&u.unit)
                .and_then(|x| x.formation.clone())
                .is_some_and(|f| ak.contains(&f))
    }));
    // 13.16 "6/2 (I) [4-1-7]" is the reduced brigade; "[2-1-7]" the battalion.
    let sixes: Vec<_> = s
        .units
        .iter()
        .filter(|u| u.name == "6/2 (I)")
        .map(|u| (u.unit.as_str(), u.reduced))
        .collect();
    assert_eq!(sixes, [("2-sa-div-6-2-bde", true), ("2-sa-div-6-2-bn", false)]);
    // Dance of War: "Radius 1 hex from 25.23" and "(r)".
    let d = game(&loaded.games, "dance-of-war");
    let s = solve(d, "campaign");
    let b = d.board.as_ref().unwrap();
    let u = s.units.iter().find(|u| u.name == "1 TS/1 SA").unwrap();
    assert!(
        b.distance(b.parse(u.hex.as_ref().unwrap()).unwrap(), b.parse("25.23").unwrap())
            <= 1
    );
    assert!(s.units.iter().find(|u| u.name == "10 HUSS/2").unwrap().reduced);
    // Reinforcements wait in boxes named by turn and area.
    assert!(
        s.units
            .iter()
            .any(|u| u.holding.as_deref() == Some("Reinforcements: turn 2 GER"))
    );
}

#[test]
fn validation_reports_the_real_overstack_of_13_32_and_the_scs_misprints() {
    let loaded = seeds();
    let g = game(&loaded.games, "gazala-1942");
    let f = validate_scenario(g, "british-strike-first");
    let over: Vec<_> = f.iter().filter(|x| x.kind == FindingKind::Overstack).collect();
    assert_eq!(over.len(), 1);
    assert_eq!(
        (over[0].rule.as_str(), over[0].location.as_str(), over[0].units.len()),
        ("5.1", "0209", 6)
    );
    assert!(over[0].message.contains("6 units where at most 5 may stack"));
    assert_eq!(over[0].span.line, 46);
    let scs = game(&loaded.games, "gazala-scs");
    let f = validate_scenario(scs, "full-campaign");
    let unknown: Vec<&str> = f
        .iter()
        .filter(|x| {
            x.kind == FindingKind::UnknownUnit || x.kind == FindingKind::TypeDiffers
        })
        .map(|x| x.subject.as_str())
        .collect();
    for misprint in ["3/18 Gurk", "57 AT Bn", "4 Ind Div HQ", "8 Army HQ", "Ind Arty Bat"]
    {
        assert!(unknown.contains(&misprint), "{misprint} in {unknown:?}");
    }
    let at = f.iter().find(|x| x.subject == "57 AT Bn").unwrap();
    assert_eq!(
        at.message,
        "`57 AT Bn` is printed as `AT`; the manifest prints `57 AA Bn` as `AA`"
    );
    let gurk = f.iter().find(|x| x.subject == "3/18 Gurk").unwrap();
    assert!(gurk.message.contains("did you mean `3/18 Gar Inf Bn`"), "{}", gurk.message);
    // The span points at the printed unit inside the line.
    assert!(gurk.span.column > 20);
}

#[test]
fn a_planted_overstack_in_a_players_position_is_found() {
    let loaded = seeds();
    let g = game(&loaded.games, "dance-of-war");
    let solution = solve(g, "campaign");
    let mut units: Vec<PlacedUnit> = solution
        .units
        .iter()
        .enumerate()
        .filter_map(|(k, u)| {
            u.hex.as_ref().and_then(|h| muster_check::solve::placed(g, &u.unit, k, h))
        })
        .collect();
    assert!(check_position(g, "campaign", &Position { units: units.clone() }).is_empty());
    // Move three Axis combat units into one hex.
    let axis: Vec<usize> = units
        .iter()
        .enumerate()
        .filter(|(_, u)| u.side == "axis" && u.category == Category::Combat)
        .map(|(k, _)| k)
        .take(3)
        .collect();
    let target = units[axis[0]].location.clone();
    for k in &axis {
        units[*k].location = target.clone();
    }
    let f = check_position(g, "campaign", &Position { units });
    assert!(
        f.iter().any(|x| x.kind == FindingKind::Overstack
            && x.rule == "6.0"
            && x.location == target),
        "{f:?}"
    );
}

#[test]
fn gaines_mill_cwb_12_1_counts_each_batterys_printed_gun_points() {
    let loaded = corpus();
    let g = game(&loaded.games, "gaines-mill-1862");
    // Batteries as the manifest prints them (p. 32): `Resb` of 5 gun points, `Resb (4)` of
    // 4, `6b (2)` of 2; an infantry brigade has none.
    let at = |ids: &[&str]| -> Vec<String> {
        let units: Vec<PlacedUnit> = ids
            .iter()
            .enumerate()
            .map(|(k, id)| muster_check::solve::placed(g, id, k, "A20.20").unwrap())
            .collect();
        check_position(g, "across-the-chickahominy", &Position { units })
            .into_iter()
            .filter(|f| f.kind == FindingKind::Overstack)
            .map(|f| f.message)
            .collect()
    };
    assert_eq!(at(&["resb", "resb"]), Vec::<String>::new(), "5 + 5 = 10 gun points");
    assert_eq!(at(&["resb-4", "resb-4", "6b-2"]), Vec::<String>::new(), "4 + 4 + 2 = 10");
    let over = at(&["resb", "resb-4", "6b-2"]);
    assert_eq!(over.len(), 1, "{over:?}");
    assert!(
        over[0].contains(
            "11 stacking points of units where at most 10 may stack (rule CWB 12.1)"
        ),
        "{over:?}"
    );
}
