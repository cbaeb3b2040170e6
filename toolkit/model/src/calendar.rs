//! Days as rulebooks print them on turn tracks (`23 May`), for tracks of one turn a day.

use crate::source::bounds::MONTHS;

/// Parses `23 May` into (month index from 0, day of month).
pub fn parse_day(s: &str) -> Option<(usize, u32)> {
    let (day, month) = s.trim().split_once(' ')?;
    let day: u32 = day.parse().ok()?;
    let m =
        MONTHS.iter().position(|(name, _)| name.eq_ignore_ascii_case(month.trim()))?;
    (1..=MONTHS[m].1).contains(&day).then_some((m, day))
}

/// Every day from `first` to `last` inclusive, written as `23 May`; at most 400 days. A
/// year without 29 February is assumed, as the seed games' years are.
pub fn days(first: &str, last: &str) -> Vec<String> {
    let (Some((mut m, mut d)), Some(end)) = (parse_day(first), parse_day(last)) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    while out.len() < 400 {
        out.push(format!("{d} {}", MONTHS[m].0));
        if (m, d) == end {
            return out;
        }
        d += 1;
        if d > MONTHS[m].1 {
            d = 1;
            m = (m + 1) % 12;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_of_days_cross_months() {
        let d = days("23 May", "22 June");
        assert_eq!(d.len(), 31);
        assert_eq!(d[0], "23 May");
        assert_eq!(d[9], "1 June");
        assert_eq!(d[30], "22 June");
        assert_eq!(parse_day("31 June"), None);
        assert_eq!(parse_day("May 23"), None);
    }
}
