//! Hostile inputs: the readers of saves and modules on inputs shaped to make them slow
//! (one piece of very many traits, very many notes, very many pieces on very many boards),
//! each at a size and at four times that size. Reading grows linearly when the larger
//! takes less than [`BOUND`] times as long as the smaller (quadratic reading takes about
//! sixteen times).

use std::time::Instant;

use muster_package::archive::{Archive, write_zip};
use muster_package::hostile;
use muster_package::listing::listing;
use muster_package::read::read_module;
use muster_package::vassal::save::parse_stream;
use serde_json::{Value, json};

use crate::error::{Error, ErrorKind, Result};

/// The most the time of a reading may grow when its input grows four times.
pub const BOUND: f64 = 8.0;

/// How many times each size is read; the best time counts.
const RUNS: usize = 3;

/// One hostile input: its name, what its size counts, the size read first, and how to make
/// and read it.
struct Case {
    name: &'static str,
    unit: &'static str,
    size: usize,
    input: fn(usize) -> Result<Input>,
}

/// An input to read: a save's command stream, with the module it is read against.
struct Input {
    stream: String,
    module: Option<Vec<u8>>,
}

fn stream_only(stream: String) -> Result<Input> {
    Ok(Input { stream, module: None })
}

fn on_boards(pieces: usize) -> Result<Input> {
    let boards = pieces * 10;
    let files =
        [("buildFile.xml".to_string(), hostile::board_module(boards).into_bytes())];
    let module = write_zip(&files.into()).map_err(package_error)?;
    Ok(Input { stream: hostile::pieces_on_boards(pieces, boards), module: Some(module) })
}

fn package_error(e: impl std::fmt::Display) -> Error {
    Error::new(ErrorKind::Package, format!("hostile input: {e}"))
}

/// The cases, at the sizes first reported slow.
const CASES: [Case; 3] = [
    Case {
        name: "one piece of many traits",
        unit: "traits",
        size: 20_000,
        input: |n| stream_only(hostile::many_traits(n)),
    },
    Case {
        name: "many notes",
        unit: "notes",
        size: 25_000,
        input: |n| stream_only(hostile::many_facts(n)),
    },
    Case {
        name: "many pieces on ten times as many boards",
        unit: "pieces",
        size: 400,
        input: on_boards,
    },
];

/// Reads `input` as `muster pieces` does: the module, the save, its listing.
fn read(input: &Input) -> Result<usize> {
    let module = match &input.module {
        Some(bytes) => {
            let mut archive = Archive::open(bytes.clone()).map_err(package_error)?;
            Some(read_module(&mut archive).map_err(package_error)?)
        }
        None => None,
    };
    let saved = parse_stream(&input.stream).map_err(package_error)?;
    let listed = listing(&saved, module.as_ref());
    Ok(listed.pieces.len() + listed.facts.len())
}

/// The best time of reading the input of `case` at `size`, and its bytes.
fn timed(case: &Case, size: usize) -> Result<(f64, usize)> {
    let input = (case.input)(size)?;
    let bytes = input.stream.len() + input.module.as_ref().map_or(0, Vec::len);
    let mut best = f64::MAX;
    for _ in 0..RUNS {
        let t = Instant::now();
        std::hint::black_box(read(&input)?);
        best = best.min(t.elapsed().as_secs_f64());
    }
    Ok((best, bytes))
}

/// Every case at `scale` times its size and at four times that: the seconds and bytes of
/// each, their ratio and whether it is within [`BOUND`].
pub fn measure(scale: f64) -> Result<Value> {
    let mut cases = Vec::new();
    for case in &CASES {
        let size = ((case.size as f64 * scale) as usize).max(1);
        let (small, small_bytes) = timed(case, size)?;
        let (large, large_bytes) = timed(case, 4 * size)?;
        let ratio = if small > 0.0 { large / small } else { 0.0 };
        cases.push(json!({
            "input": case.name,
            "unit": case.unit,
            "small": {"size": size, "bytes": small_bytes, "seconds": small},
            "large": {"size": 4 * size, "bytes": large_bytes, "seconds": large},
            "ratio": ratio,
            "bound": BOUND,
            "linear": ratio < BOUND,
        }));
    }
    let linear = cases.iter().all(|c| c["linear"] == true);
    Ok(json!({"cases": cases, "linear": linear}))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_case_is_read_at_both_sizes() {
        let figures = measure(0.01).expect("reads");
        let cases = figures["cases"].as_array().expect("cases");
        assert_eq!(cases.len(), CASES.len());
        for c in cases {
            let (small, large) = (&c["small"], &c["large"]);
            assert_eq!(
                large["size"].as_u64(),
                small["size"].as_u64().map(|s| 4 * s),
                "{c}"
            );
            assert!(large["bytes"].as_u64() > small["bytes"].as_u64(), "{c}");
            assert_eq!(c["bound"], BOUND);
        }
        // What is read is what the input holds.
        let input = on_boards(3).expect("made");
        assert_eq!(read(&input).expect("reads"), 3 + 1, "3 pieces and the boards");
        let notes = stream_only(hostile::many_facts(5)).expect("made");
        assert_eq!(read(&notes).expect("reads"), 5);
    }
}
