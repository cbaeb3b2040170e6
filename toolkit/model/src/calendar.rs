//! Turn tracks as rulebooks print them: one turn a day (`23 May`), or turns by name
//! (`June 15 AM`, `Spring 1862`).

use crate::source::TurnTrack;
use crate::source::bounds::MONTHS;

/// The names of a track's turns, in order: its printed `names`, or one a day from
/// `first_day` to `last_day`; none for a numbered track.
pub fn track_names(track: &TurnTrack) -> Option<Vec<String>> {
    if !track.names.is_empty() {
        return Some(track.names.iter().map(|n| n.v.clone()).collect());
    }
    match (&track.first_day, &track.last_day) {
        (Some(a), Some(b)) => Some(days(&a.v, &b.v)),
        _ => None,
    }
}

/// How many turns the track has: its names, its days, or its printed count.
pub fn track_length(track: &TurnTrack) -> Option<u32> {
    match track_names(track) {
        Some(names) => u32::try_from(names.len()).ok(),
        None => track.count,
    }
}

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
