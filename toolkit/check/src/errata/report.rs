//! The finished report: acknowledged errata marked, one finding per erratum however often
//! it is printed, most certain first.

use std::collections::BTreeMap;

use muster_model::Game;

use super::{Erratum, Place};
use crate::words::normalise;

/// Marks the acknowledged findings, merges the ones that are one erratum and sorts the
/// list: certain before likely before possible, then errors, warnings and information,
/// then kind and place.
pub(crate) fn finish(game: &Game, mut out: Vec<Erratum>) -> Vec<Erratum> {
    for f in &mut out {
        if let Some(note) = crate::validate::acknowledged(game, f.kind, &f.subject) {
            f.known = true;
            f.known_note = (!note.is_empty()).then_some(note);
        }
    }
    out.sort_by_key(place_order);
    let mut merged: Vec<Erratum> = Vec::new();
    let mut index: BTreeMap<(muster_model::FindingKind, String), usize> = BTreeMap::new();
    for e in out {
        let key = (e.kind, erratum_key(&e));
        match index.get(&key) {
            Some(&k) => absorb(&mut merged[k], &e),
            None => {
                index.insert(key, merged.len());
                merged.push(e);
            }
        }
    }
    merged.sort_by(|a, b| {
        (a.certainty, a.rank(), a.kind, place_order(a)).cmp(&(
            b.certainty,
            b.rank(),
            b.kind,
            place_order(b),
        ))
    });
    merged
}

/// Where a finding is, for a stable order.
fn place_order(e: &Erratum) -> (muster_model::FileId, u32, u32, String) {
    (e.span.file, e.span.line, e.span.column, e.message.clone())
}

/// What makes two findings one erratum: the printed text read as a reader would (case,
/// ordinals and a plural size word aside), what the rest of the rulebook says and the
/// counter suggested; findings that name no expectation also keep their message.
fn erratum_key(e: &Erratum) -> String {
    if let Some(k) = &e.key {
        return k.clone();
    }
    let subject: Vec<String> = normalise(&e.subject)
        .split(' ')
        .map(|w| match w.strip_suffix('s') {
            Some(stem) if stem.len() >= 2 && w.len() <= 5 => stem.to_string(),
            _ => w.to_string(),
        })
        .collect();
    let suggestion = e
        .suggestion
        .as_deref()
        .map(|s| s.split("; similarity").next().unwrap_or(s).to_string());
    let specific = if e.expected.is_none() && suggestion.is_none() {
        e.message.clone()
    } else {
        String::new()
    };
    format!(
        "{}\u{1f}{}\u{1f}{}\u{1f}{}",
        subject.join(" "),
        e.expected.as_deref().unwrap_or_default(),
        suggestion.unwrap_or_default(),
        specific
    )
}

/// Adds `other`'s place to `into`, once; an acknowledgement of either covers both.
fn absorb(into: &mut Erratum, other: &Erratum) {
    let place = Place {
        span: other.span,
        scenario: other.scenario.clone(),
        section: other.section.clone(),
    };
    let same_place = |p: &Place| p.span == place.span;
    if other.span != into.span && !into.also.iter().any(same_place) {
        into.also.push(place);
    }
    for p in &other.also {
        if p.span != into.span && !into.also.iter().any(|q| q.span == p.span) {
            into.also.push(p.clone());
        }
    }
    into.known |= other.known;
    if into.known_note.is_none() {
        into.known_note = other.known_note.clone();
    }
    into.certainty = into.certainty.min(other.certainty);
    into.also.sort();
}
