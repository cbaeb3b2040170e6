//! Stable piece ids (VASSAL's gpids).
//!
//! VASSAL's Refresh Counters and Refresh Predefined Setups match a saved piece to its
//! palette slot by gpid, so a counter must keep its gpid from one version of a module to
//! the next. muster derives each gpid from the counter's id alone (FNV-1a over a key such
//! as `counter:<id>`), never from its place in the manifest: inserting, removing or
//! reordering counters leaves every other counter's gpid as it was.
//!
//! The ids lie in `1..=GPID_RANGE`, far below `i32::MAX`, so `nextPieceSlotId` (one more
//! than the largest) and the ids VASSAL's editor hands out after it stay valid integers.
//! Two keys that hash alike are an error, never a silent renumbering: as the earlier
//! manifest had no such pair, the counter just added is the one to give another id.

use std::collections::BTreeMap;

use super::PackageError;

/// gpids are drawn from `1..=GPID_RANGE`.
pub const GPID_RANGE: u64 = 1_000_000_000;

/// The gpid of the piece with stable key `key`.
pub fn gpid(key: &str) -> u32 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in key.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    u32::try_from(1 + h % GPID_RANGE).unwrap_or(1)
}

/// The key of a manifest counter or marker.
pub fn counter_key(id: &str) -> String {
    format!("counter:{id}")
}

/// The key of copy `copy` (from 1) of marker `id` in deck `deck`.
pub fn deck_key(deck: &str, id: &str, copy: u32) -> String {
    format!("deck:{deck}:{id}:{copy}")
}

/// The key of a generated piece (a chit or a card) with id `id`.
pub fn generated_key(id: &str) -> String {
    format!("piece:{id}")
}

/// Checks that no two pieces share a gpid: `(gpid, what)` for every piece.
pub fn check_unique<'a>(
    ids: impl IntoIterator<Item = (u32, &'a str)>,
) -> Result<(), PackageError> {
    let mut seen: BTreeMap<u32, &str> = BTreeMap::new();
    for (g, what) in ids {
        if let Some(other) = seen.insert(g, what) {
            return Err(PackageError(format!(
                "{other} and {what} get the same piece id {g}; give the one you added another id"
            )));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_fixed_functions_of_the_key() {
        // These values are part of every published module: they must never change.
        assert_eq!(gpid("counter:a"), 214_138_863);
        assert_ne!(gpid("counter:a"), gpid("counter:b"));
        assert_eq!(gpid(""), 1 + (0xcbf2_9ce4_8422_2325_u64 % GPID_RANGE) as u32);
        for k in ["counter:x", "deck:Cup:m:1", "piece:card-as"] {
            let g = u64::from(gpid(k));
            assert!((1..=GPID_RANGE).contains(&g));
        }
    }

    #[test]
    fn shared_ids_are_refused_with_both_names() {
        assert!(check_unique([(1, "a"), (2, "b")]).is_ok());
        let err = check_unique([(1, "a"), (2, "b"), (1, "c")]).unwrap_err();
        assert!(err.0.contains("a and c") && err.0.contains(" 1;"), "{err}");
    }
}
