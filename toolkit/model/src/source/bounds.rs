//! What the loader accepts of a value it bounds or patterns, stated once: the loader checks
//! each pattern and range here while it reads a file, and the JSON Schema of every field
//! that carries one states the same pattern or range, so the schema and the loader agree.
//!
//! Patterns use the syntax both the `regex` crate and ECMA-262 (JSON Schema's dialect)
//! read the same way. Integer ranges are checked while deserializing, so an out-of-range
//! value is reported at its own line and column like any other malformed value.

use std::borrow::Cow;
use std::sync::LazyLock;

use regex::Regex;
use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::{Deserialize, Deserializer, de};

use crate::Spanned;

/// An id: lowercase letters and digits in words joined by single dashes (`gazala-scs`).
pub const ID: &str = r"^[a-z0-9]+(?:-[a-z0-9]+)*$";

/// A colour muster draws: `#rrggbb`.
pub const RGB: &str = r"^#[0-9a-fA-F]{6}$";

/// A module version: three numbers, `major.minor.patch` (`1.0.0`), as VASSAL's Game
/// Library accepts them.
pub const MODULE_VERSION: &str =
    r"^(?:0|[1-9][0-9]{0,8})\.(?:0|[1-9][0-9]{0,8})\.(?:0|[1-9][0-9]{0,8})$";

/// Printed text that names or titles something: at least one character that is not a
/// space (an empty name leaves a side, a map or a counter nameless in every output).
pub const TEXT: &str = r"\S";

/// The months of a turn track of days, with their lengths (no 29 February).
pub const MONTHS: [(&str, u32); 12] = [
    ("January", 31),
    ("February", 28),
    ("March", 31),
    ("April", 30),
    ("May", 31),
    ("June", 30),
    ("July", 31),
    ("August", 31),
    ("September", 30),
    ("October", 31),
    ("November", 30),
    ("December", 31),
];

/// A day of a turn track as printed: the day of the month without a leading zero, a space
/// and the month's English name (`23 May`), a day the month has.
pub fn day_pattern() -> String {
    let alternatives: Vec<String> = [31, 30, 28]
        .iter()
        .map(|&len| {
            let months: Vec<&str> =
                MONTHS.iter().filter(|(_, l)| *l == len).map(|(m, _)| *m).collect();
            let days = match len {
                31 => "[1-9]|[12][0-9]|3[01]",
                30 => "[1-9]|[12][0-9]|30",
                _ => "[1-9]|1[0-9]|2[0-8]",
            };
            format!("(?:{days}) (?:{})", months.join("|"))
        })
        .collect();
    format!("^(?:{})$", alternatives.join("|"))
}

fn compiled(pattern: &str) -> Regex {
    Regex::new(pattern).unwrap_or_else(|e| unreachable!("muster's own pattern: {e}"))
}

static ID_RE: LazyLock<Regex> = LazyLock::new(|| compiled(ID));
static RGB_RE: LazyLock<Regex> = LazyLock::new(|| compiled(RGB));
static VERSION_RE: LazyLock<Regex> = LazyLock::new(|| compiled(MODULE_VERSION));
static DAY_RE: LazyLock<Regex> = LazyLock::new(|| compiled(&day_pattern()));
static TEXT_RE: LazyLock<Regex> = LazyLock::new(|| compiled(TEXT));

/// Whether `s` is an id ([`ID`]).
pub fn is_id(s: &str) -> bool {
    ID_RE.is_match(s)
}

/// Whether `s` is a colour ([`RGB`]).
pub fn is_rgb(s: &str) -> bool {
    RGB_RE.is_match(s)
}

/// Whether `s` can be a module version ([`MODULE_VERSION`]).
pub fn is_module_version(s: &str) -> bool {
    VERSION_RE.is_match(s)
}

/// Whether `s` is a day of a turn track ([`day_pattern`]).
pub fn is_day(s: &str) -> bool {
    DAY_RE.is_match(s)
}

/// Whether `s` can name or title something ([`TEXT`]).
pub fn is_text(s: &str) -> bool {
    TEXT_RE.is_match(s)
}

/// Why a name or title that is empty or only spaces is refused.
pub const EMPTY_TEXT: &str = "the text is empty: expected it as printed, with at least one character that is not a space";

/// Reads a name or title and refuses one that is empty or only spaces ([`TEXT`]), at the
/// value's own place.
pub fn text<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    let s = String::deserialize(d)?;
    if is_text(&s) { Ok(s) } else { Err(de::Error::custom(EMPTY_TEXT)) }
}

/// [`text`] for a name whose place the loader keeps.
pub fn spanned_text<'de, D: Deserializer<'de>>(
    d: D,
) -> Result<Spanned<String>, D::Error> {
    let s = Spanned::<String>::deserialize(d)?;
    if is_text(&s.v) { Ok(s) } else { Err(de::Error::custom(EMPTY_TEXT)) }
}

/// Reads an integer and refuses it outside `MIN..=MAX`, at the value's own place.
pub fn int<'de, D, T, const MIN: u64, const MAX: u64>(d: D) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de> + Copy + Into<u64>,
{
    let v = T::deserialize(d)?;
    let n: u64 = v.into();
    if (MIN..=MAX).contains(&n) {
        Ok(v)
    } else {
        Err(de::Error::custom(format!("{n} is out of range: expected {MIN} to {MAX}")))
    }
}

/// [`int`] for a field that may be left out (with `#[serde(default)]`).
pub fn opt_int<'de, D, T, const MIN: u64, const MAX: u64>(
    d: D,
) -> Result<Option<T>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de> + Copy + Into<u64>,
{
    int::<D, T, MIN, MAX>(d).map(Some)
}

/// The largest turn, either way, of a grid in an image: a whole turn, in degrees.
pub const MAX_TURN_DEG: f64 = 360.0;

/// Reads how far a grid is turned, in degrees, and refuses a number beyond a whole turn
/// either way ([`MAX_TURN_DEG`]), at the value's own place.
pub fn degrees<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
    let v = f64::deserialize(d)?;
    if (-MAX_TURN_DEG..=MAX_TURN_DEG).contains(&v) {
        Ok(v)
    } else {
        Err(de::Error::custom(format!(
            "a turn of {v:?} degrees is out of range: expected -{MAX_TURN_DEG} to {MAX_TURN_DEG}"
        )))
    }
}

/// [`degrees`] for a field that may be left out (with `#[serde(default)]`).
pub fn opt_degrees<'de, D: Deserializer<'de>>(d: D) -> Result<Option<f64>, D::Error> {
    degrees(d).map(Some)
}

/// A schema-only type for a string that must match a pattern.
macro_rules! pattern_schema {
    ($(#[$doc:meta])* $ty:ident, $name:literal, $pattern:expr, $description:literal) => {
        $(#[$doc])*
        pub struct $ty;

        impl JsonSchema for $ty {
            fn schema_name() -> Cow<'static, str> {
                $name.into()
            }
            fn json_schema(_: &mut SchemaGenerator) -> Schema {
                json_schema!({ "type": "string", "pattern": $pattern, "description": $description })
            }
        }
    };
}

pattern_schema!(
    /// Schema of an id ([`ID`]).
    IdSchema,
    "Id",
    ID,
    "lowercase letters and digits, words joined by single dashes"
);
pattern_schema!(
    /// Schema of a name or title as printed ([`TEXT`]).
    TextSchema,
    "Text",
    TEXT,
    "text as printed: not empty, and not only spaces"
);
pattern_schema!(
    /// Schema of a colour ([`RGB`]).
    RgbSchema,
    "Rgb",
    RGB,
    "a colour, `#rrggbb`"
);
pattern_schema!(
    /// Schema of a module version ([`MODULE_VERSION`]).
    ModuleVersionSchema,
    "ModuleVersion",
    MODULE_VERSION,
    "a version of three numbers, `major.minor.patch`, such as `1.0.0` or `2.1.3`"
);
pattern_schema!(
    /// Schema of a day of a turn track ([`day_pattern`]).
    DaySchema,
    "Day",
    day_pattern(),
    "a day and an English month name, such as `23 May`"
);

/// Schema of a unit symbol: one of the symbols muster draws (`symbols::KNOWN`).
pub struct SymbolSchema;

impl JsonSchema for SymbolSchema {
    fn schema_name() -> Cow<'static, str> {
        "UnitSymbol".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "type": "string",
            "enum": crate::symbols::KNOWN,
            "description": "the NATO symbol muster draws for the type",
        })
    }
}

/// Schema of a hexside direction: a compass direction of either grid orientation (which
/// of them a map may use follows from `board.grid` in `game.yaml`, which the loader
/// checks).
pub struct DirectionSchema;

impl JsonSchema for DirectionSchema {
    fn schema_name() -> Cow<'static, str> {
        "HexsideDirection".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        use muster_hex::{Direction, Orientation};
        let mut names: Vec<&str> = [Orientation::FlatTop, Orientation::PointyTop]
            .iter()
            .flat_map(|&o| Direction::ALL.iter().map(move |d| d.name(o)))
            .collect();
        names.sort_unstable();
        names.dedup();
        json_schema!({
            "type": "string",
            "enum": names,
            "description": "a compass direction from the hex",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_words_joined_by_single_dashes() {
        for ok in ["a", "gazala-scs", "1-div", "x9"] {
            assert!(is_id(ok), "{ok}");
        }
        for bad in ["", "-a", "a-", "a--b", "A", "a b", "a_b", "é"] {
            assert!(!is_id(bad), "{bad}");
        }
    }

    #[test]
    fn versions_are_three_numbers() {
        for ok in ["1.0.0", "2.1.3", "0.0.1", "10.20.300"] {
            assert!(is_module_version(ok), "{ok}");
        }
        for bad in [
            "",
            "  ",
            "1.0",
            "1",
            "v1.0.0",
            " 1.0.0",
            "1.0.0 ",
            "01.0.0",
            "1.0.0.0",
            "1.0.0-beta",
            "1.0.0\\",
            "1\n2",
        ] {
            assert!(!is_module_version(bad), "{bad:?}");
        }
    }

    #[test]
    fn days_are_days_their_month_has() {
        for ok in ["23 May", "1 January", "31 December", "28 February", "30 June"] {
            assert!(is_day(ok), "{ok}");
        }
        for bad in
            ["31 June", "29 February", "0 May", "05 May", "May 23", "23 may", "23  May"]
        {
            assert!(!is_day(bad), "{bad}");
        }
    }

    #[test]
    fn colours_are_six_hex_digits() {
        assert!(is_rgb("#8b4513") && is_rgb("#FFFFFF"));
        assert!(!is_rgb("blue") && !is_rgb("#fff") && !is_rgb("8b4513"));
    }
}
