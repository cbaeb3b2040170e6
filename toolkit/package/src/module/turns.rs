//! The turn tracker: turns numbered from 1 (or one a day), with the steps inside a turn,
//! that ends at the last printed turn instead of wrapping to the first.
//!
//! VASSAL's turn levels cannot stop: a counter either loops or counts on, and a list always
//! wraps (`CounterTurnLevel.advance`, `ListTurnLevel.advance`). So the counter does not
//! loop, and the tracker carries Turn Global Hotkeys that, after the turn changes, fire
//! its own previous-turn key when it went past the last printed turn (and its next-turn
//! key when it went before turn 1), with a chat line naming the rule. A track whose
//! length the rulebook does not print counts on.

use muster_model::source::TurnTrack;

use super::keys::{TURN_BACK, TURN_FORWARD};
use crate::vassal::encoder::encode;
use crate::vassal::xml::Element;

/// The tracker's name, and the global property that holds the current turn.
pub const TURN_PROPERTY: &str = "Turn";

/// The names of the track's turns when it names them (one a day: `23 May`, …; or by name:
/// `June 15 AM`, …): the list the tracker shows, on which the checker also places printed
/// turns; none for a numbered track.
pub fn day_names(track: &TurnTrack) -> Option<Vec<String>> {
    muster_model::calendar::track_names(track)
}

/// The turn tracker of `track`.
pub fn tracker(track: &TurnTrack) -> Element {
    let days = day_names(track);
    let mut level = match &days {
        Some(days) => Element::new(".module.turn.ListTurnLevel")
            .attr("name", if track.names.is_empty() { "Day" } else { "Turn" })
            .attr("property", TURN_PROPERTY)
            .attr("turnFormat", "$value$")
            .attr("list", encode(days, ','))
            .attr("configFirst", "false")
            .attr("configList", "false"),
        None => Element::new(".module.turn.CounterTurnLevel")
            .attr("name", "Turn")
            .attr("property", TURN_PROPERTY)
            .attr("turnFormat", "Turn $value$")
            .attr("start", 1)
            .attr("incr", 1)
            .attr("loop", "false")
            .attr("loopLimit", -1),
    };
    if !track.steps.is_empty() {
        level = level.child(
            Element::new(".module.turn.ListTurnLevel")
                .attr("name", "Step")
                .attr("property", "TurnStep")
                .attr("turnFormat", "$value$")
                .attr("list", encode(&track.steps, ','))
                .attr("configFirst", "false")
                .attr("configList", "false"),
        );
    }
    let mut tracker = Element::new(".module.turn.TurnTracker")
        .attr("name", TURN_PROPERTY)
        .attr("buttonText", "Turn")
        .attr("tooltip", format!("Turn record track ({})", track.section))
        .attr(
            "turnFormat",
            if track.steps.is_empty() { "$level1$" } else { "$level1$, $level2$" },
        )
        .attr(
            "reportFormat",
            "&lt;$PlayerId$&gt; Turn updated from $oldTurn$ to $newTurn$",
        )
        .attr("lengthStyle", "Maximum")
        .attr("nexthotkey", TURN_FORWARD.encode())
        .attr("prevhotkey", TURN_BACK.encode())
        .child(level);
    for guard in guards(track, days.as_deref()) {
        tracker = tracker.child(guard);
    }
    tracker
}

/// The id VASSAL gives the module's one turn tracker (`UniqueIdManager("TurnTracker")`).
const TRACKER_ID: &str = "TurnTracker0";

/// The restore command of a predefined setup that starts the tracker of `track` at turn
/// `number` (counted from 1 along the track), as `TurnTracker.encode` writes a `SetTurn`:
/// `TURN<id>\t<state>`, the state being the current level, then each level's state
/// (`CounterTurnLevel`: value, sub-level, loop, loop limit; `ListTurnLevel`: index,
/// sub-level, first, active items), each step level at its first step.
pub fn first_turn_restore(track: &TurnTrack, number: u32) -> Option<String> {
    let names = day_names(track);
    let list_state = |current: usize, len: usize| {
        let active = vec!["true"; len];
        vec![current.to_string(), "0".into(), "0".into(), encode(&active, ',')]
    };
    let mut level = match &names {
        Some(names) => {
            let k = usize::try_from(number).ok()?.checked_sub(1)?;
            (k < names.len()).then(|| list_state(k, names.len()))?
        }
        None => vec![number.to_string(), "0".into(), "false".into(), "-1".into()],
    };
    if !track.steps.is_empty() {
        level.push(encode(&list_state(0, track.steps.len()), ';'));
    }
    let state = encode(&["0".to_string(), encode(&level, ';')], '|');
    Some(encode(&[format!("TURN{TRACKER_ID}"), state], '\t'))
}

/// The Turn Global Hotkeys that keep the tracker within the printed turns.
fn guards(track: &TurnTrack, days: Option<&[String]>) -> Vec<Element> {
    let hotkey = |name: &str, key: &str, matching: String, report: String| {
        Element::new(".module.turn.TurnGlobalHotkey")
            .attr("name", name)
            .attr("hotkey", key)
            .attr("match", matching)
            .attr("reportFormat", report)
    };
    let section = &track.section;
    match (days, track.count) {
        // A list wraps from the last day to the first: going forward onto the first day
        // can only be that wrap. (Going back from the first day wraps to the last one, but
        // a guard for it would fire on the step back this one makes, so there is none.)
        (Some(days), _) => match (days.first(), days.last()) {
            (Some(first), Some(last)) => vec![hotkey(
                "Last turn",
                &TURN_BACK.encode(),
                format!(
                    "{{{TURN_PROPERTY}_command == \"Next\" && {TURN_PROPERTY} == {}}}",
                    super::live_rules::quote(first)
                ),
                format!("{last} is the last turn ({section}): the game is over"),
            )],
            _ => Vec::new(),
        },
        (None, Some(count)) => vec![
            hotkey(
                "Last turn",
                &TURN_BACK.encode(),
                format!("{{{TURN_PROPERTY} > {count}}}"),
                format!("Turn {count} is the last turn ({section}): the game is over"),
            ),
            hotkey(
                "First turn",
                &TURN_FORWARD.encode(),
                format!("{{{TURN_PROPERTY} < 1}}"),
                "Turn 1 is the first turn".to_string(),
            ),
        ],
        // The rulebook does not print the track's length: it counts on from turn 1.
        (None, None) => vec![hotkey(
            "First turn",
            &TURN_FORWARD.encode(),
            format!("{{{TURN_PROPERTY} < 1}}"),
            "Turn 1 is the first turn".to_string(),
        )],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn track(yaml: &str) -> TurnTrack {
        serde_json::from_str(yaml).expect("a turn track")
    }

    #[test]
    fn a_counted_track_stops_at_its_last_turn() {
        let xml = tracker(&track(r#"{"count": 24, "section": "15.5"}"#)).document();
        assert!(xml.contains(r#"loop="false""#), "{xml}");
        assert!(xml.contains("match=\"{Turn &gt; 24}\""), "{xml}");
        assert!(xml.contains("hotkey=\"57344,0,TurnBack\""), "{xml}");
        assert!(xml.contains("Turn 24 is the last turn (15.5)"), "{xml}");
        assert!(xml.contains("prevhotkey=\"57344,0,TurnBack\""), "{xml}");
    }

    #[test]
    fn a_day_track_stops_at_its_last_day_and_an_open_track_counts_on() {
        let days = tracker(&track(
            r#"{"first_day": "23 May", "last_day": "22 June", "section": "2.0"}"#,
        ))
        .document();
        assert!(
            days.contains(
                "Turn_command == &quot;Next&quot; &amp;&amp; Turn == &quot;23 May&quot;"
            ),
            "{days}"
        );
        assert!(days.contains("22 June is the last turn (2.0)"), "{days}");
        let open = tracker(&track(r#"{"section": "1.2.2"}"#)).document();
        assert!(!open.contains("last turn") && open.contains("first turn"), "{open}");
    }

    #[test]
    fn a_setup_starts_the_tracker_at_its_first_turn() {
        use crate::vassal::encoder::decode;
        let counted =
            track(r#"{"count": 10, "steps": ["Deck 1", "Deck 2"], "section": "6.0"}"#);
        let command = first_turn_restore(&counted, 3).expect("turn 3 is on the track");
        let fields = decode(&command, '\t');
        assert_eq!(fields[0], "TURNTurnTracker0");
        let state = decode(&fields[1], '|');
        assert_eq!(state[0], "0", "the top level is current");
        let level = decode(&state[1], ';');
        assert_eq!(level[..4], ["3", "0", "false", "-1"]);
        assert_eq!(
            decode(&level[4], ';'),
            ["0", "0", "0", "true,true"],
            "the first step"
        );
        let named = track(r#"{"names": ["Spring 1862", "Summer 1862"], "section": "2"}"#);
        let level = decode(
            &decode(&decode(&first_turn_restore(&named, 2).unwrap(), '\t')[1], '|')[1],
            ';',
        );
        assert_eq!(level, ["1", "0", "0", "true,true"], "the second name's index");
        assert_eq!(first_turn_restore(&named, 3), None, "past the track");
        assert_eq!(first_turn_restore(&named, 0), None);
    }
}
