//! Printed hex numbering: how a rulebook names a cell (`A29.17`, `2403`, `20.26`).

use std::fmt;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::Cell;

/// Which way printed column numbers grow.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum ColumnDirection {
    /// The leftmost column has the first number.
    LeftToRight,
    /// The rightmost column has the first number.
    RightToLeft,
}

/// Which way printed row numbers grow.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum RowDirection {
    /// The top row has the first number.
    TopToBottom,
    /// The bottom row has the first number.
    BottomToTop,
}

/// Which number is printed first.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum Order {
    /// Column number, then row number (`29.17`: column 29, row 17).
    #[default]
    ColumnRow,
    /// Row number, then column number.
    RowColumn,
}

/// How one axis is numbered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AxisNumbering<D> {
    /// The number of the first line (the first-hex offset). Default: 1.
    #[serde(default = "one")]
    pub first: u32,
    /// Minimum printed width, 1 to 4; shorter numbers get leading zeros. Without a
    /// separator it is the exact width, and must hold the axis's last number. Default: 2.
    #[serde(default = "two")]
    #[schemars(range(min = 1, max = 4))]
    pub digits: u8,
    /// Which way the numbers grow.
    pub direction: D,
    /// The axis is printed in letters, not digits: `A` for number 1, `B` for 2, … `Z` for
    /// 26, then `AA`, `BB`, … as VASSAL's alphabetic numbering writes them (`F13`: row F).
    /// `digits` is then unused. Default: digits.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub letters: bool,
}

impl<D> AxisNumbering<D> {
    /// How number `n` of this axis is printed: in letters, or in digits with leading zeros
    /// to `digits` (`07`).
    pub fn print(&self, n: u32) -> String {
        let mut out = String::new();
        self.write(n, &mut out);
        out
    }

    /// Appends how number `n` of this axis is printed to `out`.
    fn write(&self, n: u32, out: &mut String) {
        if self.letters {
            out.push_str(&letters_of(n));
        } else {
            use std::fmt::Write;
            let _ = write!(out, "{n:0w$}", w = usize::from(self.digits));
        }
    }
}

/// The letters of number `n` (from 1) on a lettered axis: `A`, …, `Z`, `AA`, `BB`, ….
pub fn letters_of(n: u32) -> String {
    let k = n.saturating_sub(1);
    let letter = char::from(b'A' + (k % 26) as u8);
    std::iter::repeat_n(letter, (k / 26) as usize + 1).collect()
}

/// The number (from 1) a run of one repeated capital letter writes (`F` → 6, `BB` → 28).
fn number_of_letters(s: &str) -> Option<u32> {
    let first = s.chars().next()?;
    if !first.is_ascii_uppercase() || s.len() > 8 || s.chars().any(|c| c != first) {
        return None;
    }
    let repeats = u32::try_from(s.len()).ok()?;
    Some((repeats - 1) * 26 + u32::from(first as u8 - b'A') + 1)
}

fn one() -> u32 {
    1
}
fn two() -> u8 {
    2
}

/// A numbering scheme, declared in map data rather than coded per game.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Numbering {
    /// Text printed before the numbers, such as the map letter `A`. Default: none.
    #[serde(default)]
    pub prefix: String,
    /// How columns are numbered.
    pub column: AxisNumbering<ColumnDirection>,
    /// How rows are numbered.
    pub row: AxisNumbering<RowDirection>,
    /// Text between the two numbers (`.` in `29.17`); empty for `2403`. Default: none.
    #[serde(default)]
    pub separator: String,
    /// Which number comes first. Default: column-row.
    #[serde(default)]
    pub order: Order,
}

/// The two printed numbers of a hex on one sheet.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SheetNumber {
    /// Printed column number.
    pub column: u32,
    /// Printed row number.
    pub row: u32,
}

/// Why a label does not name a hex.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LabelError {
    /// The label does not have the printed form; `expected` shows one that does.
    Malformed {
        /// The label as given.
        label: String,
        /// What was expected, in words with an example.
        expected: String,
    },
    /// The label has the right form but its numbers lie off the sheet.
    OffMap {
        /// The label as given.
        label: String,
        /// The sheet it was read against.
        sheet: String,
        /// Which number is out of range, and the range.
        reason: String,
    },
}

impl fmt::Display for LabelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LabelError::Malformed { label, expected } => {
                write!(f, "hex label `{label}` does not parse (expected {expected})")
            }
            LabelError::OffMap { label, sheet, reason } => {
                write!(f, "hex `{label}` lies off map {sheet} ({reason})")
            }
        }
    }
}

impl std::error::Error for LabelError {}

/// The most digits a printed hex number may be padded to: a sheet has at most a few
/// thousand columns and rows.
pub const MAX_DIGITS: u8 = 4;

/// Why a numbering scheme cannot label a sheet's hexes so that each label reads back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NumberingError {
    /// An axis pads its numbers to a width no printed map uses.
    Digits {
        /// `column` or `row`.
        axis: &'static str,
        /// The width asked for.
        digits: u8,
    },
    /// Without a separator, an axis's numbers grow wider than the digits it declares,
    /// so a label cannot be split back into its two numbers.
    RunTogether {
        /// `column` or `row`.
        axis: &'static str,
        /// The axis's last number on the sheet.
        last: u64,
        /// The digits that number takes.
        needed: usize,
        /// The digits declared.
        digits: u8,
    },
    /// Both axes are lettered and nothing separates them: `AB` could be either.
    BothLettered,
}

impl NumberingError {
    /// What a numbering that works looks like, for the finding's `expected`.
    pub fn expected(&self) -> String {
        match self {
            NumberingError::Digits { .. } => {
                format!("`digits` between 1 and {MAX_DIGITS}")
            }
            NumberingError::RunTogether { axis, needed, .. } => format!(
                "`digits: {needed}` for the {axis} numbers, or a `separator` between the two numbers"
            ),
            NumberingError::BothLettered => {
                "one lettered axis, or a `separator` between the two".into()
            }
        }
    }
}

impl fmt::Display for NumberingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NumberingError::Digits { axis, digits } => {
                write!(f, "its {axis} numbers are padded to {digits} digits")
            }
            NumberingError::RunTogether { axis, last, needed, digits } => write!(
                f,
                "its {axis} numbers run to {last}, which takes {needed} digits, but it \
                 declares {digits} and no separator: its labels run together"
            ),
            NumberingError::BothLettered => {
                write!(f, "both its axes are letters with no separator between them")
            }
        }
    }
}

impl std::error::Error for NumberingError {}

impl Numbering {
    /// The Standard Combat Series form: map letter, column left to right without padding,
    /// a dot, row bottom to top with two digits (`A29.17`).
    pub fn scs(prefix: &str) -> Numbering {
        Numbering {
            prefix: prefix.to_string(),
            column: AxisNumbering {
                first: 1,
                digits: 1,
                direction: ColumnDirection::LeftToRight,
                letters: false,
            },
            row: AxisNumbering {
                first: 1,
                digits: 2,
                direction: RowDirection::BottomToTop,
                letters: false,
            },
            separator: ".".into(),
            order: Order::ColumnRow,
        }
    }

    /// Whether every hex of a sheet of `cols` by `rows` gets a label that reads back as
    /// its numbers: each axis padded to 1 to [`MAX_DIGITS`] digits and, without a
    /// separator, each axis's numbers no wider than its digits.
    pub fn check(&self, cols: u32, rows: u32) -> Result<(), NumberingError> {
        let axes = [
            ("column", self.column.digits, self.column.first, cols),
            ("row", self.row.digits, self.row.first, rows),
        ];
        for (axis, digits, _, _) in axes {
            if !(1..=MAX_DIGITS).contains(&digits) {
                return Err(NumberingError::Digits { axis, digits });
            }
        }
        if self.column.letters && self.row.letters && self.separator.is_empty() {
            return Err(NumberingError::BothLettered);
        }
        if self.separator.is_empty() && !self.column.letters && !self.row.letters {
            for (axis, digits, first, count) in axes {
                let last = (u64::from(first) + u64::from(count)).saturating_sub(1);
                let needed = last.to_string().len();
                if needed > usize::from(digits) {
                    return Err(NumberingError::RunTogether {
                        axis,
                        last,
                        needed,
                        digits,
                    });
                }
            }
        }
        Ok(())
    }

    /// Prints the label of sheet numbers.
    pub fn format(&self, n: SheetNumber) -> String {
        // One allocation: labels are written for every hex a setup or a module names.
        let (wa, wb) = (usize::from(self.column.digits), usize::from(self.row.digits));
        let mut label =
            String::with_capacity(self.prefix.len() + self.separator.len() + wa + wb + 2);
        label.push_str(&self.prefix);
        match self.order {
            Order::ColumnRow => {
                self.column.write(n.column, &mut label);
                label.push_str(&self.separator);
                self.row.write(n.row, &mut label);
            }
            Order::RowColumn => {
                self.row.write(n.row, &mut label);
                label.push_str(&self.separator);
                self.column.write(n.column, &mut label);
            }
        }
        label
    }

    /// Does this label start with this scheme's prefix?
    pub fn claims(&self, label: &str) -> bool {
        label.starts_with(&self.prefix)
    }

    /// An example label and a description of the form, for error messages.
    pub fn describe(&self) -> String {
        // Without a separator the widths are exact: numbers that fit them.
        let exact = self.separator.is_empty();
        let fit = |n: u32, digits: u8| if exact && digits < 2 { n % 10 } else { n };
        let example = self.format(SheetNumber {
            column: fit(29, self.column.digits),
            row: fit(17, self.row.digits),
        });
        if self.separator.is_empty() {
            let (a, b) = match self.order {
                Order::ColumnRow => (self.column.digits, self.row.digits),
                Order::RowColumn => (self.row.digits, self.column.digits),
            };
            format!("{} digits, {a} then {b}, as in `{example}`", a + b)
        } else {
            format!("a label like `{example}`")
        }
    }

    /// Reads the printed numbers from a label, checking only its form.
    pub fn parse_numbers(&self, label: &str) -> Result<SheetNumber, LabelError> {
        let malformed = || LabelError::Malformed {
            label: label.to_string(),
            expected: self.describe(),
        };
        let rest = label.strip_prefix(self.prefix.as_str()).ok_or_else(malformed)?;
        let (la, lb) = match self.order {
            Order::ColumnRow => (self.column.letters, self.row.letters),
            Order::RowColumn => (self.row.letters, self.column.letters),
        };
        let (a, b) = if self.separator.is_empty() && (la || lb) {
            // Letters then digits, or digits then letters: split where the kind changes.
            let at = rest
                .char_indices()
                .find(|(_, c)| c.is_ascii_digit() == la)
                .map_or(rest.len(), |(i, _)| i);
            rest.split_at(at)
        } else if self.separator.is_empty() {
            let (wa, wb) = match self.order {
                Order::ColumnRow => (self.column.digits, self.row.digits),
                Order::RowColumn => (self.row.digits, self.column.digits),
            };
            if rest.len() != usize::from(wa) + usize::from(wb) || !rest.is_ascii() {
                return Err(malformed());
            }
            rest.split_at(usize::from(wa))
        } else {
            rest.split_once(self.separator.as_str()).ok_or_else(malformed)?
        };
        let num = |s: &str| -> Option<u32> {
            if s.is_empty() || s.len() > 6 || !s.bytes().all(|b| b.is_ascii_digit()) {
                None
            } else {
                s.parse().ok()
            }
        };
        let read = |s: &str, letters: bool| {
            if letters { number_of_letters(s) } else { num(s) }
        };
        let (a, b) =
            (read(a, la).ok_or_else(malformed)?, read(b, lb).ok_or_else(malformed)?);
        Ok(match self.order {
            Order::ColumnRow => SheetNumber { column: a, row: b },
            Order::RowColumn => SheetNumber { column: b, row: a },
        })
    }

    /// The printed numbers of a sheet-local cell on a sheet of `cols` by `rows`.
    pub fn numbers_of(&self, local: Cell, cols: u32, rows: u32) -> SheetNumber {
        let col = local.col as u32;
        let row = local.row as u32;
        let column = match self.column.direction {
            ColumnDirection::LeftToRight => self.column.first + col,
            ColumnDirection::RightToLeft => self.column.first + (cols - 1 - col),
        };
        let row = match self.row.direction {
            RowDirection::TopToBottom => self.row.first + row,
            RowDirection::BottomToTop => self.row.first + (rows - 1 - row),
        };
        SheetNumber { column, row }
    }

    /// The sheet-local cell named by printed numbers, or why none is.
    pub fn cell_of(
        &self,
        n: SheetNumber,
        cols: u32,
        rows: u32,
        label: &str,
        sheet: &str,
    ) -> Result<Cell, LabelError> {
        let off = |reason: String| LabelError::OffMap {
            label: label.to_string(),
            sheet: sheet.to_string(),
            reason,
        };
        let (c0, c1) = (self.column.first, self.column.first + cols - 1);
        if n.column < c0 || n.column > c1 {
            return Err(off(format!("column {} is outside {c0} to {c1}", n.column)));
        }
        let (r0, r1) = (self.row.first, self.row.first + rows - 1);
        if n.row < r0 || n.row > r1 {
            return Err(off(format!("row {} is outside {r0} to {r1}", n.row)));
        }
        let col = match self.column.direction {
            ColumnDirection::LeftToRight => n.column - c0,
            ColumnDirection::RightToLeft => c1 - n.column,
        };
        let row = match self.row.direction {
            RowDirection::TopToBottom => n.row - r0,
            RowDirection::BottomToTop => r1 - n.row,
        };
        Ok(Cell::new(col as i32, row as i32))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn four_digit() -> Numbering {
        Numbering {
            prefix: String::new(),
            column: AxisNumbering {
                first: 1,
                digits: 2,
                direction: ColumnDirection::LeftToRight,
                letters: false,
            },
            row: AxisNumbering {
                first: 1,
                digits: 2,
                direction: RowDirection::TopToBottom,
                letters: false,
            },
            separator: String::new(),
            order: Order::ColumnRow,
        }
    }

    #[test]
    fn an_axis_prints_its_numbers_as_its_labels_do() {
        let scs = Numbering::scs("A");
        assert_eq!(scs.column.print(7), "7");
        assert_eq!(scs.row.print(5), "05");
        let mut lettered = scs.row;
        lettered.letters = true;
        assert_eq!(lettered.print(6), "F");
        assert_eq!(lettered.print(28), "BB");
        let label = scs.format(SheetNumber { column: 7, row: 15 });
        assert_eq!(label, format!("A{}.{}", scs.column.print(7), scs.row.print(15)));
    }

    #[test]
    fn a_numbering_whose_labels_would_not_read_back_is_refused() {
        // 99 columns by 99 rows fit two digits each without a separator; 100 columns do
        // not, and a first number of 95 makes the tenth column 104.
        assert_eq!(four_digit().check(99, 99), Ok(()));
        assert_eq!(
            four_digit().check(100, 10),
            Err(NumberingError::RunTogether {
                axis: "column",
                last: 100,
                needed: 3,
                digits: 2
            })
        );
        let mut n = four_digit();
        n.row.first = 95;
        let e = n.check(10, 10).unwrap_err();
        assert_eq!(
            e,
            NumberingError::RunTogether { axis: "row", last: 104, needed: 3, digits: 2 }
        );
        assert_eq!(
            e.expected(),
            "`digits: 3` for the row numbers, or a `separator` between the two numbers"
        );
        // With a separator the digits are a least width: wider numbers still read back.
        n.separator = ".".into();
        assert_eq!(n.check(10, 10), Ok(()));
        // No width outside 1 to 4 digits, separator or not.
        for digits in [0, 5, 200] {
            n.column.digits = digits;
            assert_eq!(
                n.check(10, 10),
                Err(NumberingError::Digits { axis: "column", digits })
            );
        }
    }

    #[test]
    fn the_example_of_a_label_has_the_widths_it_describes() {
        let mut n = four_digit();
        n.column.digits = 1;
        assert_eq!(n.describe(), "3 digits, 1 then 2, as in `917`");
        assert_eq!(four_digit().describe(), "4 digits, 2 then 2, as in `2917`");
        // With a separator a width is a least width.
        assert_eq!(Numbering::scs("A").describe(), "a label like `A29.17`");
    }

    #[test]
    fn scs_label_counts_rows_from_the_bottom() {
        let n = Numbering::scs("A");
        let cell =
            n.cell_of(n.parse_numbers("A29.17").unwrap(), 62, 35, "A29.17", "a").unwrap();
        assert_eq!(cell, Cell::new(28, 35 - 17));
        assert_eq!(n.format(n.numbers_of(cell, 62, 35)), "A29.17");
        assert_eq!(n.format(SheetNumber { column: 9, row: 8 }), "A9.08");
    }

    #[test]
    fn four_digit_labels_need_all_four_digits() {
        let n = four_digit();
        assert_eq!(n.parse_numbers("2403").unwrap(), SheetNumber { column: 24, row: 3 });
        let err = n.parse_numbers("134").unwrap_err();
        assert!(err.to_string().contains("4 digits"), "{err}");
        assert!(n.parse_numbers("24a3").is_err());
    }

    #[test]
    fn off_map_says_which_number_and_range() {
        let n = four_digit();
        let num = n.parse_numbers("3005").unwrap();
        let err = n.cell_of(num, 29, 35, "3005", "main").unwrap_err();
        assert_eq!(
            err.to_string(),
            "hex `3005` lies off map main (column 30 is outside 1 to 29)"
        );
    }

    #[test]
    fn descending_axes_and_offsets() {
        let n = Numbering {
            prefix: "X".into(),
            column: AxisNumbering {
                first: 10,
                digits: 2,
                direction: ColumnDirection::RightToLeft,
                letters: false,
            },
            row: AxisNumbering {
                first: 0,
                digits: 3,
                direction: RowDirection::BottomToTop,
                letters: false,
            },
            separator: "-".into(),
            order: Order::RowColumn,
        };
        let label = n.format(n.numbers_of(Cell::new(0, 0), 5, 4));
        assert_eq!(label, "X003-14");
        let back =
            n.cell_of(n.parse_numbers(&label).unwrap(), 5, 4, &label, "x").unwrap();
        assert_eq!(back, Cell::new(0, 0));
    }
}

#[cfg(test)]
mod properties {
    use super::*;
    use proptest::prelude::*;

    fn scheme() -> impl Strategy<Value = (Numbering, u32, u32)> {
        (
            prop::sample::select(vec!["", "A", "Map-"]),
            0u32..20,
            1u8..4,
            any::<bool>(),
            0u32..20,
            1u8..4,
            any::<bool>(),
            prop::sample::select(vec!["", ".", "-"]),
            any::<bool>(),
            1u32..120,
            1u32..120,
        )
            .prop_map(
                |(prefix, cf, cd, cl, rf, rd, rt, sep, order, cols, rows)| {
                    // Labels without a separator need fixed widths wide enough for every number.
                    let width = |first: u32, n: u32, d: u8| {
                        let need = (first + n - 1).to_string().len() as u8;
                        if sep.is_empty() { need.max(d) } else { d }
                    };
                    let numbering = Numbering {
                        prefix: prefix.to_string(),
                        column: AxisNumbering {
                            first: cf,
                            digits: width(cf, cols, cd),
                            direction: if cl {
                                ColumnDirection::LeftToRight
                            } else {
                                ColumnDirection::RightToLeft
                            },
                            letters: false,
                        },
                        row: AxisNumbering {
                            first: rf,
                            digits: width(rf, rows, rd),
                            direction: if rt {
                                RowDirection::TopToBottom
                            } else {
                                RowDirection::BottomToTop
                            },
                            letters: false,
                        },
                        separator: sep.to_string(),
                        order: if order { Order::ColumnRow } else { Order::RowColumn },
                    };
                    (numbering, cols, rows)
                },
            )
    }

    proptest! {
        #[test]
        fn print_then_parse_is_the_identity((n, cols, rows) in scheme(), c in 0u32..120, r in 0u32..120) {
            let cell = Cell::new((c % cols) as i32, (r % rows) as i32);
            let label = n.format(n.numbers_of(cell, cols, rows));
            let back = n.cell_of(n.parse_numbers(&label).unwrap(), cols, rows, &label, "m").unwrap();
            prop_assert_eq!(back, cell, "{}", label);
        }

        #[test]
        fn parsing_arbitrary_text_never_panics(s in "\\PC{0,12}", (n, cols, rows) in scheme()) {
            if let Ok(num) = n.parse_numbers(&s) {
                let _ = n.cell_of(num, cols, rows, &s, "m");
            }
        }
    }
}
