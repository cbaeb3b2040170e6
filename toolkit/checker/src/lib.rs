//! The embedded rules checker: `muster_rules::embedded` behind a small C-style interface,
//! built for `wasm32-unknown-unknown` and shipped in every module as `rules/checker.wasm`.
//!
//! The interface, all through the module's exported `memory`:
//!
//! 1. `muster_input(len) -> ptr`: reserve `len` bytes for input; write them at `ptr`.
//! 2. `muster_load() -> status`: read the input as `rules/ruleset.json`.
//! 3. `muster_check() -> status`: read the input as a request
//!    (`{"scenario": "…", "turn": "…", "complete": true, "pieces": [{"unit": "…",
//!    "location": "…", "standing": "hex|box|deck|nowhere", "category": "…", "piece": "…"}]}`,
//!    every field but `pieces`, `unit` and `location` optional) and check it against the
//!    loaded ruleset.
//! 4. `muster_output_ptr()`, `muster_output_len()`: the answer as JSON, a report
//!    (`{"violations": […], "unknown_units": […], "unknown_locations": […],
//!    "not_counters": […], "turn": {…}}`) when the status is 0, or `{"error": "…"}` when
//!    it is 1.
//!
//! `muster_version()` returns the interface version, 2. Version 1 read only `scenario`,
//! `unit` and `location` (every piece on a hex, each the counter it names) and answered
//! without `not_counters` and `turn`.

use std::sync::Mutex;

use muster_rules::embedded::{Report, Request, RulesetDoc, check};

static INPUT: Mutex<Vec<u8>> = Mutex::new(Vec::new());
static OUTPUT: Mutex<Vec<u8>> = Mutex::new(Vec::new());
static RULESET: Mutex<Option<RulesetDoc>> = Mutex::new(None);

/// The version of this interface.
pub const VERSION: u32 = 2;

fn set_output(bytes: Vec<u8>) {
    if let Ok(mut out) = OUTPUT.lock() {
        *out = bytes;
    }
}

fn error(message: &str) -> u32 {
    set_output(serde_json::json!({ "error": message }).to_string().into_bytes());
    1
}

fn input() -> Vec<u8> {
    INPUT.lock().map(|i| i.clone()).unwrap_or_default()
}

/// Loads a ruleset document; returns 0, or 1 with an error in the output.
pub fn load(json: &[u8]) -> u32 {
    match serde_json::from_slice::<RulesetDoc>(json) {
        Ok(doc) if doc.format == muster_rules::embedded::FORMAT => {
            if let Ok(mut r) = RULESET.lock() {
                *r = Some(doc);
            }
            set_output(b"{}".to_vec());
            0
        }
        Ok(doc) => error(&format!("unsupported ruleset format {:?}", doc.format)),
        Err(e) => error(&format!("the ruleset is not valid: {e}")),
    }
}

/// Checks a request against the loaded ruleset; returns 0 with a report in the output, or
/// 1 with an error.
pub fn check_request(json: &[u8]) -> u32 {
    let request: Request = match serde_json::from_slice(json) {
        Ok(r) => r,
        Err(e) => return error(&format!("the request is not valid: {e}")),
    };
    let report: Option<Report> =
        RULESET.lock().ok().and_then(|r| r.as_ref().map(|doc| check(doc, &request)));
    match report.map(|r| serde_json::to_vec(&r)) {
        Some(Ok(bytes)) => {
            set_output(bytes);
            0
        }
        Some(Err(e)) => error(&e.to_string()),
        None => error("no ruleset is loaded: call muster_load first"),
    }
}

/// The current output.
pub fn output() -> Vec<u8> {
    OUTPUT.lock().map(|o| o.clone()).unwrap_or_default()
}

/// Reserves `len` bytes of input and returns where to write them.
#[allow(unsafe_code)]
#[unsafe(no_mangle)]
pub extern "C" fn muster_input(len: u32) -> u32 {
    match INPUT.lock() {
        Ok(mut i) => {
            i.clear();
            i.resize(len as usize, 0);
            i.as_mut_ptr() as usize as u32
        }
        Err(_) => 0,
    }
}

/// Loads the input as the ruleset.
#[allow(unsafe_code)]
#[unsafe(no_mangle)]
pub extern "C" fn muster_load() -> u32 {
    load(&input())
}

/// Checks the input as a request.
#[allow(unsafe_code)]
#[unsafe(no_mangle)]
pub extern "C" fn muster_check() -> u32 {
    check_request(&input())
}

/// Where the output starts.
#[allow(unsafe_code)]
#[unsafe(no_mangle)]
pub extern "C" fn muster_output_ptr() -> u32 {
    OUTPUT.lock().map(|o| o.as_ptr() as usize as u32).unwrap_or(0)
}

/// How long the output is.
#[allow(unsafe_code)]
#[unsafe(no_mangle)]
pub extern "C" fn muster_output_len() -> u32 {
    OUTPUT.lock().map(|o| o.len() as u32).unwrap_or(0)
}

/// The interface version.
#[allow(unsafe_code)]
#[unsafe(no_mangle)]
pub extern "C" fn muster_version() -> u32 {
    VERSION
}
