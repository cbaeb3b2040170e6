//! Running a module's own embedded checker (`rules/checker.wasm`) in a WebAssembly
//! interpreter, so a module keeps checking by its own rules whatever muster is installed.

use muster_rules::Standing;
use muster_rules::embedded::{PieceAt, Report, Request, RulesetDoc};
use muster_vassal::listing::{Holder, Listing};
use wasmi::{Instance, Linker, Memory, Module, Store, StoreLimits, TypedFunc};

use crate::sandbox;
pub use crate::sandbox::CheckerError;

fn err(what: &str) -> impl Fn(wasmi::Error) -> CheckerError + '_ {
    move |e| sandbox::explain(what, &e)
}

/// The checker's request for a saved game: every piece that carries a counter's id, where
/// it is (a hex of the board, a box or another place on a map, a deck, no map) and its
/// category; the turn the first turn tracker shows; and the whole game, so counters of the
/// setup that are not there are missing.
pub fn request(listing: &Listing, doc: &RulesetDoc, scenario: Option<&str>) -> Request {
    let pieces = listing
        .pieces
        .iter()
        .filter_map(|p| {
            let unit = p.unit_id.clone()?;
            let location =
                p.location.clone().or_else(|| p.map.clone()).unwrap_or_default();
            let standing = match (p.holder, &p.map) {
                (Holder::Deck, _) => Standing::Deck,
                (_, None) => Standing::Nowhere,
                _ if doc.hexes.contains(&location) => Standing::Hex,
                _ => Standing::Box,
            };
            let location =
                p.deck.clone().filter(|_| standing == Standing::Deck).unwrap_or(location);
            Some(PieceAt {
                unit,
                location,
                standing,
                category: p.category.clone(),
                piece: Some(p.id.clone()),
                strength: p.strength.clone(),
            })
        })
        .collect();
    let turn =
        listing.turns.first().and_then(|t| t.levels.first()).map(|l| l.value.clone());
    Request { scenario: scenario.map(str::to_string), pieces, turn, complete: true }
}

/// The interface versions muster can talk to: 2 (pieces anywhere, with their category,
/// the turn, the whole game) and 1 (counters on hexes only).
pub const INTERFACES: [u32; 2] = [1, 2];

/// A loaded embedded checker with its ruleset.
pub struct EmbeddedChecker {
    version: u32,
    store: Store<StoreLimits>,
    memory: Memory,
    input: TypedFunc<u32, u32>,
    check: TypedFunc<(), u32>,
    out_ptr: TypedFunc<(), u32>,
    out_len: TypedFunc<(), u32>,
}

impl EmbeddedChecker {
    /// Instantiates `wasm` (which must import nothing) in the box of [`sandbox`] and loads
    /// `ruleset` into it.
    pub fn new(wasm: &[u8], ruleset: &[u8]) -> Result<EmbeddedChecker, CheckerError> {
        let engine = sandbox::engine();
        let module = Module::new(&engine, wasm).map_err(|e| sandbox::refused(&e))?;
        let mut store = sandbox::store(&engine)?;
        let linker = Linker::<StoreLimits>::new(&engine);
        let instance: Instance =
            linker.instantiate_and_start(&mut store, &module).map_err(err("start"))?;
        let memory = instance.get_memory(&store, "memory").ok_or_else(|| {
            CheckerError("the embedded checker exports no memory".into())
        })?;
        let func =
            |name: &str| CheckerError(format!("the embedded checker has no `{name}`"));
        let version: TypedFunc<(), u32> = instance
            .get_typed_func(&store, "muster_version")
            .map_err(|_| func("muster_version"))?;
        let v = version.call(&mut store, ()).map_err(err("answer"))?;
        if !INTERFACES.contains(&v) {
            return Err(CheckerError(format!(
                "the embedded checker speaks interface {v}; this muster reads interfaces 1 and 2"
            )));
        }
        let mut me = EmbeddedChecker {
            version: v,
            input: instance
                .get_typed_func(&store, "muster_input")
                .map_err(|_| func("muster_input"))?,
            check: instance
                .get_typed_func(&store, "muster_check")
                .map_err(|_| func("muster_check"))?,
            out_ptr: instance
                .get_typed_func(&store, "muster_output_ptr")
                .map_err(|_| func("muster_output_ptr"))?,
            out_len: instance
                .get_typed_func(&store, "muster_output_len")
                .map_err(|_| func("muster_output_len"))?,
            memory,
            store,
        };
        let load: TypedFunc<(), u32> = instance
            .get_typed_func(&me.store, "muster_load")
            .map_err(|_| func("muster_load"))?;
        me.send(ruleset)?;
        let status = load.call(&mut me.store, ()).map_err(err("load the ruleset"))?;
        let answer = me.output()?;
        if status != 0 {
            return Err(CheckerError(format!(
                "the embedded checker refused the ruleset: {answer}"
            )));
        }
        Ok(me)
    }

    fn send(&mut self, bytes: &[u8]) -> Result<(), CheckerError> {
        let len = u32::try_from(bytes.len())
            .map_err(|_| CheckerError("the input is too large for the checker".into()))?;
        let ptr = self.input.call(&mut self.store, len).map_err(err("take input"))?;
        self.memory
            .write(&mut self.store, ptr as usize, bytes)
            .map_err(|e| CheckerError(format!("cannot write the checker's input ({e})")))
    }

    fn output(&mut self) -> Result<String, CheckerError> {
        let ptr = self.out_ptr.call(&mut self.store, ()).map_err(err("answer"))?;
        let len = self.out_len.call(&mut self.store, ()).map_err(err("answer"))?;
        let end = u64::from(ptr) + u64::from(len);
        if end > self.memory.data_size(&self.store) as u64 {
            return Err(CheckerError(format!(
                "the checker's answer ({len} bytes at {ptr}) lies outside its memory"
            )));
        }
        let mut buf = vec![0u8; len as usize];
        self.memory.read(&self.store, ptr as usize, &mut buf).map_err(|e| {
            CheckerError(format!("cannot read the checker's answer ({e})"))
        })?;
        String::from_utf8(buf)
            .map_err(|_| CheckerError("the checker's answer is not UTF-8".into()))
    }

    /// The interface version the checker speaks.
    pub fn version(&self) -> u32 {
        self.version
    }

    /// Checks a position. An interface-1 checker is given only the pieces on hexes, as it
    /// takes every piece for a counter on a hex.
    pub fn check(&mut self, request: &Request) -> Result<Report, CheckerError> {
        let mut request = request.clone();
        if self.version == 1 {
            request.pieces.retain(|p| p.standing == Standing::Hex);
        }
        let json =
            serde_json::to_vec(&request).map_err(|e| CheckerError(e.to_string()))?;
        sandbox::refuel(&mut self.store)?;
        self.send(&json)?;
        let status = self.check.call(&mut self.store, ()).map_err(err("check"))?;
        let answer = self.output()?;
        if status != 0 {
            return Err(CheckerError(format!(
                "the embedded checker refused the position: {answer}"
            )));
        }
        serde_json::from_str(&answer).map_err(|e| {
            CheckerError(format!("the checker's answer is not a report ({e})"))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use muster_rules::embedded::PieceAt;

    #[test]
    fn garbage_is_an_error_not_a_panic() {
        assert!(EmbeddedChecker::new(b"not wasm", b"{}").is_err());
        let e = EmbeddedChecker::new(crate::CHECKER_WASM, b"{\"format\": 1}")
            .err()
            .expect("refused");
        assert!(e.0.contains("refused the ruleset"), "{e}");
    }

    #[test]
    fn an_empty_ruleset_finds_nothing_and_names_unknown_units() {
        let doc = serde_json::json!({
            "format": "muster-ruleset/1", "game": "g", "title": "G",
            "rules": {"stacking": []}, "units": [], "hexes": [], "scenarios": {}
        });
        let mut c = EmbeddedChecker::new(crate::CHECKER_WASM, doc.to_string().as_bytes())
            .expect("loads");
        assert_eq!(c.version(), 2);
        let r = c
            .check(&Request {
                scenario: None,
                pieces: vec![PieceAt::on_hex("x", "0101")],
                turn: None,
                complete: true,
            })
            .expect("checks");
        assert!(r.violations.is_empty());
        assert_eq!(r.unknown_units, vec!["x".to_string()]);
    }

    /// A checker that speaks interface 2, takes its input at address 1024 of `memory` (the
    /// declaration of its memories, the first exported as `memory`) and runs `load` when it
    /// is given the ruleset.
    fn checker(memory: &str, load: &str) -> Vec<u8> {
        let text = format!(
            r#"(module
                {memory}
                (func (export "muster_version") (result i32) (i32.const 2))
                (func (export "muster_input") (param i32) (result i32) (i32.const 1024))
                (func (export "muster_load") (result i32) {load} (i32.const 0))
                (func (export "muster_check") (result i32) (i32.const 0))
                (func (export "muster_output_ptr") (result i32) (i32.const 0))
                (func (export "muster_output_len") (result i32) (i32.const 0)))"#
        );
        wat::parse_str(&text).unwrap_or_else(|e| panic!("{e}"))
    }

    fn refusal(wasm: &[u8]) -> String {
        match EmbeddedChecker::new(wasm, b"{}") {
            Ok(_) => panic!("the checker was let run"),
            Err(e) => e.0,
        }
    }

    #[test]
    fn the_box_itself_lets_a_plain_checker_run() {
        let wasm = checker(r#"(memory (export "memory") 1)"#, "");
        assert!(EmbeddedChecker::new(&wasm, b"{}").is_ok());
    }

    #[test]
    fn a_checker_that_grows_its_memory_past_the_limit_is_stopped() {
        let one = r#"(memory (export "memory") 1)"#;
        let grow = checker(one, "(drop (memory.grow (i32.const 2048)))");
        let e = refusal(&grow);
        assert!(e.contains("more than 64 MiB of memory"), "{e}");
        assert!(e.contains("load the ruleset"), "{e}");
        // Asked for at the start, past the limit, it is not even instantiated.
        let big = checker(r#"(memory (export "memory") 2048)"#, "");
        let e = refusal(&big);
        assert!(e.contains("more than 64 MiB of memory"), "{e}");
    }

    #[test]
    fn a_checker_with_a_64_bit_memory_is_refused_when_loaded() {
        let wasm = checker(
            r#"(memory (export "memory") i64 1)"#,
            "(drop (memory.grow (i64.const 1)))",
        );
        let e = refusal(&wasm);
        assert!(e.contains("cannot be loaded"), "{e}");
        assert!(e.contains("memory64"), "{e}");
    }

    #[test]
    fn a_checker_with_two_memories_is_refused_when_loaded() {
        let wasm = checker(
            r#"(memory (export "memory") 1) (memory $second 1)"#,
            "(drop (memory.grow $second (i32.const 1)))",
        );
        let e = refusal(&wasm);
        assert!(e.contains("cannot be loaded"), "{e}");
        assert!(e.contains("multiple memories"), "{e}");
    }

    #[test]
    fn a_checker_that_loops_forever_is_stopped_after_its_steps() {
        let wasm = checker(r#"(memory (export "memory") 1)"#, "(loop $l (br $l))");
        let e = refusal(&wasm);
        let steps = format!("ran longer than {} steps", sandbox::FUEL);
        assert!(e.contains(&steps), "{e}");
        assert!(e.contains("load the ruleset"), "{e}");
    }

    #[test]
    fn an_answer_outside_the_memory_is_an_error_not_a_huge_buffer() {
        let wasm = wat::parse_str(
            r#"(module
                (memory (export "memory") 1)
                (func (export "muster_version") (result i32) (i32.const 2))
                (func (export "muster_input") (param i32) (result i32) (i32.const 1024))
                (func (export "muster_load") (result i32) (i32.const 1))
                (func (export "muster_check") (result i32) (i32.const 0))
                (func (export "muster_output_ptr") (result i32) (i32.const 0))
                (func (export "muster_output_len") (result i32) (i32.const -1)))"#,
        )
        .unwrap_or_else(|e| panic!("{e}"));
        let e = refusal(&wasm);
        assert!(e.contains("lies outside its memory"), "{e}");
    }
}
