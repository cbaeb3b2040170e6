//! Printed words: how two compare as a reader would ([`normalise`], and whether one
//! abbreviates the other), which resolving builds on; and printed words against the
//! manifest: once a setup's unit is resolved to a counter, the size and type words it
//! prints are compared with the counter's, word for word, through the abbreviation tables
//! the rulebook itself prints (`abbreviations` in `game.yaml`).
//!
//! The game's vocabulary folds words together (`Fld Arty`, `Hvy Arty` and `Arty` are all
//! artillery) so that a unit can be found; it never makes two printed words equal here.

use muster_model::notation::{NameParts, parse_name};
use muster_model::{Game, Unit};
use muster_rules::Category;

/// Lowercases, drops ordinal suffixes (`1st` → `1`) and punctuation other than `/`, and
/// folds spaces, so that printed names compare as a reader would.
pub fn normalise(s: &str) -> String {
    let mut words = Vec::new();
    for w in s.split(|c: char| c.is_whitespace() || c == ',' || c == '.') {
        if w.is_empty() {
            continue;
        }
        let lw = w.to_lowercase();
        let digits = lw.trim_end_matches(|c: char| c.is_ascii_alphabetic());
        let suffix = &lw[digits.len()..];
        let w = if !digits.is_empty()
            && digits.chars().all(|c| c.is_ascii_digit())
            && matches!(suffix, "st" | "nd" | "rd" | "th")
        {
            digits.to_string()
        } else {
            lw
        };
        words.push(w);
    }
    words.join(" ")
}

/// Does word `a` abbreviate word `b`: equal, a prefix, or its letters in order starting
/// with the same letter (`mtr` in `motorized`, `divs` in `division`)?
pub(crate) fn abbreviates(a: &str, b: &str) -> bool {
    if a == b || (!a.is_empty() && b.starts_with(a)) {
        return true;
    }
    let mut bc = b.chars();
    let (Some(a0), Some(b0)) = (a.chars().next(), b.chars().next()) else { return false };
    if a0 != b0 || a.chars().any(|c| c.is_ascii_digit()) {
        return false;
    }
    a.chars().all(|c| bc.any(|d| d == c))
}

/// One way a printed unit differs from its counter's printed name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Observation {
    /// Other type words (`Fld Arty` for `Arty`, `PG` for `Inf`); `from_label` when the
    /// words are a list label's (`Inf Bns: 3 Yeo`), `same_type` when the vocabulary reads
    /// both as one type.
    Type { printed: String, manifest: String, from_label: bool, same_type: bool },
    /// Another size word (`Bn` for `Battery`, `Co` for `Battery`).
    Size { printed: String, manifest: String, from_label: bool, same_size: bool },
    /// Type words that abbreviate the counter's, in no table the rulebook prints (`Eng`
    /// for `Engineer`): a habit when the rulebook does it for several counters.
    Abbreviation { printed: String, manifest: String },
    /// An HQ printed without words of its designation (`Brescia HQ` for `Brescia Inf Div
    /// HQ`): a habit when the rulebook does it for several formations.
    ShortForm { dropped: String },
    /// A word of the designation spelt otherwise (`Sabratha` for `Sbrtha`).
    Designation { printed: String, manifest: String },
}

/// What `validate` reports for a resolved unit, one scenario at a time: the first type or
/// size difference, else a designation spelt otherwise, else a loose match its words do
/// not explain. HQ short forms and abbreviations are habits the errata checker weighs over
/// the whole game, so they are not reported here.
pub(crate) fn warning(
    game: &Game,
    name: &str,
    label: Option<&str>,
    unit: &Unit,
    loosely: bool,
) -> Option<(muster_model::FindingKind, String)> {
    use muster_model::FindingKind;
    let found = compare(game, name, label, unit);
    let printed = &unit.printed.v;
    for o in &found {
        match o {
            Observation::Type { printed: p, manifest: m, .. } => {
                return Some((
                    FindingKind::TypeDiffers,
                    format!(
                        "`{name}` is printed as `{p}`; the manifest prints `{printed}` as `{m}`"
                    ),
                ));
            }
            Observation::Size { printed: p, manifest: m, .. } => {
                return Some((
                    FindingKind::SizeDiffers,
                    format!(
                        "`{name}` is printed as `{p}`; the manifest prints `{printed}` as `{m}`"
                    ),
                ));
            }
            _ => {}
        }
    }
    if let Some(Observation::Designation { printed: p, manifest: m }) =
        found.iter().find(|o| matches!(o, Observation::Designation { .. }))
    {
        return Some((
            FindingKind::NameDiffers,
            format!(
                "`{name}` prints `{p}` where the manifest prints `{m}` (`{printed}`)"
            ),
        ));
    }
    (loosely && found.is_empty()).then(|| {
        (
            FindingKind::NameDiffers,
            format!("`{name}` is printed `{printed}` in the manifest"),
        )
    })
}

/// The words of a printed name: its own, and its list label's.
struct PrintedWords {
    designation: Vec<String>,
    type_words: Option<String>,
    type_id: Option<String>,
    type_from_label: bool,
    size_word: Option<String>,
    size_id: Option<String>,
    size_from_label: bool,
    /// The label's type, when the name states its own (`Inf Bns: 15 Shu HQ`).
    label_type: Option<(String, String)>,
}

/// Every difference between a printed unit (`name` under `label`) and the counter it was
/// resolved to, in the order type, size, designation. A unit printed, with no list label,
/// exactly as its counter is printed differs from it in nothing, and is not read again.
pub(crate) fn compare(
    game: &Game,
    name: &str,
    label: Option<&str>,
    unit: &Unit,
) -> Vec<Observation> {
    if label.is_none() && name == unit.printed.v {
        return Vec::new();
    }
    compare_words(game, name, label, unit)
}

/// [`compare`], word for word.
fn compare_words(
    game: &Game,
    name: &str,
    label: Option<&str>,
    unit: &Unit,
) -> Vec<Observation> {
    let p = printed_words(game, name, label);
    let m = &unit.name;
    let mut out = Vec::new();
    if let (Some(pt), Some(mt)) = (&p.type_words, &m.type_words) {
        out.extend(compare_types(game, pt, mt, p.type_from_label, &p.type_id, unit));
    } else if let (Some(pt), None, Some(pid), Some(mid)) =
        (&p.type_words, &m.type_words, &p.type_id, &unit.unit_type)
        && pid != mid
    {
        out.push(Observation::Type {
            printed: pt.clone(),
            manifest: type_name(game, mid),
            from_label: p.type_from_label,
            same_type: false,
        });
    }
    // An HQ listed under a label of combat units.
    if let Some((words, id)) = &p.label_type
        && unit.category == Category::Hq
        && category(game, id) != Some(Category::Hq)
    {
        out.push(Observation::Type {
            printed: words.clone(),
            manifest: m.type_words.clone().unwrap_or_else(|| "HQ".into()),
            from_label: true,
            same_type: false,
        });
    }
    if let (Some(ps), Some(ms)) = (&p.size_word, &m.size_word)
        && !same_word(game, ps, ms)
    {
        out.push(Observation::Size {
            printed: ps.clone(),
            manifest: ms.clone(),
            from_label: p.size_from_label,
            same_size: p.size_id.is_some() && p.size_id == unit.size,
        });
    }
    out.extend(compare_designations(game, &p.designation, m, unit));
    out
}

/// The type words of a printed name and of the counter, word for word.
fn compare_types(
    game: &Game,
    printed: &str,
    manifest: &str,
    from_label: bool,
    printed_id: &Option<String>,
    unit: &Unit,
) -> Vec<Observation> {
    if same_phrase(game, printed, manifest) {
        return vec![];
    }
    let pw: Vec<&str> = printed.split_whitespace().collect();
    let mw: Vec<&str> = manifest.split_whitespace().collect();
    if pw.len() == mw.len() {
        let pairs: Vec<(&str, &str)> =
            pw.iter().copied().zip(mw.iter().copied()).collect();
        let abbreviated = |a: &str, b: &str| {
            let (a, b) = (a.to_lowercase(), b.to_lowercase());
            abbreviates(&a, &b) || abbreviates(&b, &a)
        };
        if pairs.iter().all(|(a, b)| same_word(game, a, b) || abbreviated(a, b)) {
            return pairs
                .into_iter()
                .filter(|(a, b)| !same_word(game, a, b))
                .map(|(a, b)| Observation::Abbreviation {
                    printed: a.to_string(),
                    manifest: b.to_string(),
                })
                .collect();
        }
    }
    vec![Observation::Type {
        printed: printed.to_string(),
        manifest: manifest.to_string(),
        from_label,
        same_type: printed_id.is_some() && *printed_id == unit.unit_type,
    }]
}

/// An HQ's designation printed with words dropped, and designation words spelt
/// otherwise (the same number of words, each abbreviating the other).
fn compare_designations(
    game: &Game,
    printed: &[String],
    m: &NameParts,
    unit: &Unit,
) -> Vec<Observation> {
    let manifest: Vec<String> =
        m.designation.split_whitespace().map(String::from).collect();
    if printed.is_empty() || manifest.is_empty() {
        return vec![];
    }
    // A nationality name printed after the designation (`29/5 Indian`) is not part of it.
    let nationality =
        |w: &str| game.meta.nationalities.iter().any(|n| n.name.eq_ignore_ascii_case(w));
    let printed = match printed.split_last() {
        Some((last, rest))
            if printed.len() == manifest.len() + 1 && nationality(last) =>
        {
            rest
        }
        _ => printed,
    };
    let like = |a: &str, b: &str| {
        let (a, b) = (normalise(a), normalise(b));
        a == b || (!a.is_empty() && (abbreviates(&a, &b) || abbreviates(&b, &a)))
    };
    let mut out = Vec::new();
    let spelt = |a: &str, b: &str, out: &mut Vec<Observation>| {
        if normalise(a) != normalise(b) && !same_word(game, a, b) {
            out.push(Observation::Designation { printed: a.into(), manifest: b.into() });
        }
    };
    if printed.len() == manifest.len() {
        if printed.iter().zip(&manifest).all(|(a, b)| like(a, b)) {
            for (a, b) in printed.iter().zip(&manifest) {
                spelt(a, b, &mut out);
            }
        }
        return out;
    }
    // A shorter HQ designation: its words in order among the counter's, the first equal.
    if unit.category != Category::Hq || printed.len() > manifest.len() {
        return out;
    }
    let mut matched = Vec::new();
    let mut j = 0;
    for a in printed {
        while j < manifest.len() && !like(a, &manifest[j]) {
            j += 1;
        }
        if j == manifest.len() {
            return out;
        }
        matched.push(j);
        j += 1;
    }
    if matched.first() != Some(&0) {
        return out;
    }
    let dropped: Vec<&str> = (0..manifest.len())
        .filter(|k| !matched.contains(k))
        .map(|k| manifest[k].as_str())
        .collect();
    for (a, &k) in printed.iter().zip(&matched) {
        spelt(a, &manifest[k], &mut out);
    }
    out.push(Observation::ShortForm { dropped: dropped.join(" ") });
    out
}

/// The words a setup prints for a unit: its name read with its list label, as the resolver
/// reads it (`408 Hvy` under `Arty Bns` is a Hvy Arty Bn), unless the name states its own
/// type; a leading type phrase (`Air unit 231`) and a trailing nationality name (`29/5
/// Indian`) are not part of the designation.
fn printed_words(game: &Game, name: &str, label: Option<&str>) -> PrintedWords {
    let vocab = &game.vocabulary;
    let own = parse_name(name, vocab);
    let labelled = own.unit_type.is_none() && label.is_some();
    let full = match label {
        Some(l) if labelled => parse_name(&format!("{name} {l}"), vocab),
        _ => own.clone(),
    };
    let mut designation: Vec<String> =
        full.designation.split_whitespace().map(String::from).collect();
    let (mut type_words, mut type_id) = (full.type_words.clone(), full.unit_type.clone());
    if type_words.is_none() {
        for (w, id) in &vocab.types {
            let phrase: Vec<&str> = w.split_whitespace().collect();
            let n = phrase.len();
            if n < designation.len()
                && designation[..n]
                    .iter()
                    .zip(&phrase)
                    .all(|(a, b)| a.eq_ignore_ascii_case(b))
            {
                type_words = Some(designation[..n].join(" "));
                type_id = Some(id.clone());
                designation.drain(..n);
                break;
            }
        }
    }
    let label_type = match label {
        Some(l) if !labelled => {
            let lp = parse_name(&format!("x {l}"), vocab);
            lp.type_words.zip(lp.unit_type)
        }
        _ => None,
    };
    PrintedWords {
        designation,
        type_from_label: labelled
            && own.type_words.is_none()
            && full.type_words.is_some(),
        type_words,
        type_id,
        size_from_label: labelled && own.size_word.is_none() && full.size_word.is_some(),
        size_word: full.size_word.clone(),
        size_id: full.size.clone(),
        label_type,
    }
}

/// Two printed phrases the rulebook equates: word for word equal, or equal as a whole or
/// word by word through a table it prints.
fn same_phrase(game: &Game, a: &str, b: &str) -> bool {
    if tabled(game, a, b) {
        return true;
    }
    let aw: Vec<&str> = a.split_whitespace().collect();
    let bw: Vec<&str> = b.split_whitespace().collect();
    aw.len() == bw.len() && aw.iter().zip(&bw).all(|(x, y)| same_word(game, x, y))
}

/// Two printed words the rulebook equates: equal but for case or a plural `s` (`Bns` for
/// `Bn`), or an abbreviation and its meaning in a table it prints (`Btry`, "Battery/
/// Batteries", 15.1.3).
pub(crate) fn same_word(game: &Game, a: &str, b: &str) -> bool {
    let plain = |x: &str, y: &str| {
        let (x, y) = (x.to_lowercase(), y.to_lowercase());
        x == y
            || x.strip_suffix('s') == Some(y.as_str())
            || y.strip_suffix('s') == Some(x.as_str())
    };
    plain(a, b) || tabled(game, a, b)
}

/// Is one of `a`, `b` an abbreviation the rulebook prints and the other its meaning (each
/// alternative of `MF/MFH` and of "Minefield/Minefield Hex", singular or plural)?
fn tabled(game: &Game, a: &str, b: &str) -> bool {
    let plain = |x: &str, y: &str| {
        let (x, y) = (x.trim().to_lowercase(), y.trim().to_lowercase());
        x == y
            || x.strip_suffix('s') == Some(y.as_str())
            || y.strip_suffix('s') == Some(x.as_str())
    };
    game.meta.abbreviations.iter().any(|t| {
        let abbrs: Vec<&str> = t.abbr.split('/').collect();
        let meanings: Vec<&str> = t.meaning.split('/').collect();
        let abbr = |x: &str| abbrs.iter().any(|m| plain(m, x));
        let meaning = |x: &str| meanings.iter().any(|m| plain(m, x));
        (abbr(a) && meaning(b)) || (abbr(b) && meaning(a))
    })
}

/// A type's name, for a counter whose printed name states none.
fn type_name(game: &Game, id: &str) -> String {
    game.meta
        .unit_types
        .iter()
        .find(|t| t.id.v == id)
        .map_or_else(|| id.to_string(), |t| t.name.clone())
}

/// The category of a unit type.
fn category(game: &Game, id: &str) -> Option<Category> {
    game.meta.unit_types.iter().find(|t| t.id.v == id).map(|t| t.category)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scs() -> Game {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../sources");
        let loaded = muster_model::load(
            &root,
            &["gazala-scs".into()],
            &muster_model::LoadOptions::default(),
        );
        loaded.games.into_iter().next().expect("gazala-scs loads")
    }

    #[test]
    fn a_counter_printed_as_its_own_name_differs_in_nothing() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../sources");
        let loaded =
            muster_model::load(&root, &[], &muster_model::LoadOptions::default());
        assert!(loaded.games.len() >= 4, "the seed games load");
        for g in &loaded.games {
            for u in g.units.iter().chain(&g.markers) {
                let found = compare_words(g, &u.printed.v, None, u);
                assert!(
                    found.is_empty(),
                    "{}: {} against itself: {found:?}",
                    g.id,
                    u.printed.v
                );
            }
        }
    }

    fn unit<'g>(g: &'g Game, printed: &str) -> &'g Unit {
        g.units.iter().find(|u| u.printed.v == printed).expect(printed)
    }

    #[test]
    fn words_equal_through_the_rulebooks_own_tables() {
        let g = scs();
        // 15.1.3: Btry is Battery/Batteries, Comm is Commando, Cstl is Coastal.
        assert!(same_word(&g, "Btry", "Battery") && same_word(&g, "Btrys", "Battery"));
        assert!(same_word(&g, "Comm", "Commando") && same_word(&g, "Bns", "Bn"));
        assert!(!same_word(&g, "Co", "Battery") && !same_word(&g, "Eng", "Engineer"));
        assert!(
            compare(&g, "902 Hvy Arty Btry", None, unit(&g, "902 Hvy Arty Battery"))
                .is_empty()
        );
        assert!(
            compare(&g, "523", Some("Cstl Arty Bns"), unit(&g, "523 Coastal Arty Bn"))
                .is_empty()
        );
    }

    #[test]
    fn other_words_are_differences_whatever_the_vocabulary_folds() {
        let g = scs();
        let diff = |name: &str, label: Option<&str>, counter: &str| {
            compare(&g, name, label, unit(&g, counter))
        };
        assert!(matches!(
            diff("72 Fld Arty Bn", None, "72 Arty Bn")[..],
            [Observation::Type { same_type: true, .. }]
        ));
        assert!(matches!(
            diff("KStA Recon KG", None, "KStA Arm Recon KG")[..],
            [Observation::Type { .. }]
        ));
        assert!(matches!(
            diff("7 Med Arty Co", None, "7 Med Arty Battery")[..],
            [Observation::Size { same_size: true, .. }]
        ));
        assert!(matches!(
            diff("7 Med Arty Bn", None, "7 Med Arty Battery")[..],
            [Observation::Size { same_size: false, .. }]
        ));
        assert!(matches!(
            diff("3 Yeo", Some("Inf Bns"), "3 Yeo Arm Bde")[..],
            [Observation::Type { from_label: true, .. }, Observation::Size { .. }]
        ));
        assert_eq!(
            diff("27 Eng Bn", None, "27 Engineer Bn"),
            [Observation::Abbreviation {
                printed: "Eng".into(),
                manifest: "Engineer".into()
            }]
        );
    }

    #[test]
    fn hq_short_forms_and_spellings_are_told_apart() {
        let g = scs();
        assert_eq!(
            compare(&g, "Brescia HQ", None, unit(&g, "Brescia Inf Div HQ")),
            [Observation::ShortForm { dropped: "Inf Div".into() }]
        );
        assert_eq!(
            compare(&g, "Sabratha HQ", None, unit(&g, "Sbrtha Inf Div HQ")),
            [
                Observation::Designation {
                    printed: "Sabratha".into(),
                    manifest: "Sbrtha".into()
                },
                Observation::ShortForm { dropped: "Inf Div".into() }
            ]
        );
        // An HQ under a label of infantry battalions.
        assert!(matches!(
            compare(&g, "15 Shu HQ", Some("Inf Bns"), unit(&g, "15 Shu Bde HQ"))[..],
            [Observation::Type { from_label: true, .. }, Observation::ShortForm { .. }]
        ));
    }

    #[test]
    fn normalise_drops_ordinals_and_case() {
        assert_eq!(normalise("151th Inf Bde"), "151 inf bde");
        assert_eq!(normalise("3rd SA  Inf Bde"), "3 sa inf bde");
        assert_eq!(normalise("Col."), "col");
        assert_eq!(normalise("1/4 ESSEX"), "1/4 essex");
    }
}
