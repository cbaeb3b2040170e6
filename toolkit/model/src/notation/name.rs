//! Printed unit names: `1 TS Inf Bn` is designation `1 TS`, type `Inf`, size `Bn`.

use serde::Serialize;

/// The words a game uses for unit types and sizes.
#[derive(Debug, Clone, Default)]
pub struct Vocabulary {
    /// (printed words, type id), e.g. (`Fld Arty`, `artillery`).
    pub types: Vec<(String, String)>,
    /// (printed word, size id), e.g. (`Bn`, `battalion`).
    pub sizes: Vec<(String, String)>,
}

/// A printed unit name split into its parts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct NameParts {
    /// What is left once type and size words are taken off (`1 TS`).
    pub designation: String,
    /// The type id the name states, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unit_type: Option<String>,
    /// The printed type words (`Inf`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub type_words: Option<String>,
    /// The size id the name states, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub size: Option<String>,
    /// The printed size word (`Bn`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub size_word: Option<String>,
}

/// Splits a printed name into designation, type and size using the game's vocabulary:
/// an optional size word at the end, and before it the longest printed type phrase.
/// The designation keeps at least one word unless a size word was found (`AA Bn`).
pub fn parse_name(name: &str, vocab: &Vocabulary) -> NameParts {
    let words: Vec<&str> = name.split_whitespace().collect();
    let mut end = words.len();
    let mut size = None;
    let mut size_word = None;
    if end > 1
        && let Some((w, id)) =
            vocab.sizes.iter().find(|(w, _)| w.eq_ignore_ascii_case(words[end - 1]))
    {
        size = Some(id.clone());
        size_word = Some(w.clone());
        end -= 1;
    }
    let mut unit_type = None;
    let mut type_words = None;
    let mut best = 0;
    // A name may be all type and size (`AA Bn`), but never all type (`HQ`).
    let room = if size.is_some() { end } else { end.saturating_sub(1) };
    for (w, id) in &vocab.types {
        let phrase: Vec<&str> = w.split_whitespace().collect();
        let n = phrase.len();
        if n == 0 || n > room || n <= best {
            continue;
        }
        let tail = &words[end - n..end];
        if tail.iter().zip(&phrase).all(|(a, b)| a.eq_ignore_ascii_case(b)) {
            best = n;
            unit_type = Some(id.clone());
            type_words = Some(tail.join(" "));
        }
    }
    end -= best;
    NameParts {
        designation: words[..end].join(" "),
        unit_type,
        type_words,
        size,
        size_word,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vocab() -> Vocabulary {
        let t = |w: &str, id: &str| (w.to_string(), id.to_string());
        Vocabulary {
            types: vec![
                t("Inf", "infantry"),
                t("Arm", "armor"),
                t("Arm Car", "armored-car"),
                t("Arty", "artillery"),
                t("Fld Arty", "artillery"),
                t("HQ", "hq"),
                t("AT", "antitank"),
            ],
            sizes: vec![t("Bn", "battalion"), t("Bde", "brigade"), t("Co", "company")],
        }
    }

    #[test]
    fn designation_type_size() {
        let p = parse_name("1 TS Inf Bn", &vocab());
        assert_eq!(p.designation, "1 TS");
        assert_eq!(p.unit_type.as_deref(), Some("infantry"));
        assert_eq!(p.size.as_deref(), Some("battalion"));
    }

    #[test]
    fn longest_type_phrase_wins() {
        let p = parse_name("22 NA Arm Car Co", &vocab());
        assert_eq!(p.designation, "22 NA");
        assert_eq!(p.unit_type.as_deref(), Some("armored-car"));
        let p = parse_name("124 Fld Arty Bn", &vocab());
        assert_eq!(p.type_words.as_deref(), Some("Fld Arty"));
    }

    #[test]
    fn a_misprinted_size_is_read_as_printed() {
        // SCS 16.1.6.2 prints "3 Yeo Arm Bde" among battalions: muster reads a brigade.
        let p = parse_name("3 Yeo Arm Bde", &vocab());
        assert_eq!(p.size.as_deref(), Some("brigade"));
    }

    #[test]
    fn names_without_vocabulary_stay_whole() {
        assert_eq!(parse_name("Rommel", &vocab()).designation, "Rommel");
        assert_eq!(parse_name("HQ", &vocab()).designation, "HQ");
        assert_eq!(parse_name("I/19", &vocab()).designation, "I/19");
        let p = parse_name("AT Bn", &vocab());
        assert_eq!(
            (p.designation.as_str(), p.unit_type.as_deref()),
            ("", Some("antitank"))
        );
    }
}
