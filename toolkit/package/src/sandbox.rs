//! The box a module's rules checker runs in: the WebAssembly features it may use, the
//! memory and table space it may take, and how long it may run, with an error that names
//! the limit it reached.

use wasmi::TrapCode;
use wasmi::errors::{ErrorKind, InstantiationError, MemoryError, TableError};
use wasmi::{Config, Engine, Store, StoreLimits, StoreLimitsBuilder};

/// Why the embedded checker could not run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckerError(pub String);

impl std::fmt::Display for CheckerError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for CheckerError {}

/// The most linear memory the checker may have, in bytes (64 MiB). muster's own checker
/// takes a few MiB on the largest seed game.
pub const MEMORY_LIMIT: usize = 64 << 20;

/// The most elements the checker's one table (of functions it calls indirectly) may have.
pub const TABLE_LIMIT: usize = 65_536;

/// The steps (wasmi fuel, about one per instruction) one call may take before it is stopped:
/// about a second or two of the interpreter's work, far above what muster's own checker takes
/// on the largest seed game.
pub const FUEL: u64 = 500_000_000;

/// The engine the checker runs on: fuel counted, and only the WebAssembly features that a
/// `wasm32-unknown-unknown` build of muster's checker uses. 64-bit and multiple memories,
/// SIMD, tail calls, wide arithmetic, extended constants and custom page sizes are refused
/// when the module is loaded.
pub fn engine() -> Engine {
    let mut config = Config::default();
    config
        .consume_fuel(true)
        .wasm_memory64(false)
        .wasm_multi_memory(false)
        .wasm_tail_call(false)
        .wasm_extended_const(false)
        .wasm_custom_page_sizes(false)
        .wasm_wide_arithmetic(false);
    Engine::new(&config)
}

/// A store on `engine` that holds the checker to [`MEMORY_LIMIT`], [`TABLE_LIMIT`], one
/// instance, one memory and one table, and to [`FUEL`] steps until it is refuelled.
pub fn store(engine: &Engine) -> Result<Store<StoreLimits>, CheckerError> {
    let limits = StoreLimitsBuilder::new()
        .memory_size(MEMORY_LIMIT)
        .table_elements(TABLE_LIMIT)
        .instances(1)
        .memories(1)
        .tables(1)
        .trap_on_grow_failure(true)
        .build();
    let mut store = Store::new(engine, limits);
    store.limiter(|limits| limits);
    refuel(&mut store)?;
    Ok(store)
}

/// Gives the checker a fresh [`FUEL`] for its next call.
pub fn refuel(store: &mut Store<StoreLimits>) -> Result<(), CheckerError> {
    store
        .set_fuel(FUEL)
        .map_err(|e| CheckerError(format!("cannot fuel the checker ({e})")))
}

/// The error a user sees when the checker could not `what` (load, start, check…): which
/// limit of the box it reached, if it reached one.
pub fn explain(what: &str, e: &wasmi::Error) -> CheckerError {
    let text = e.to_string();
    let message = if e.as_trap_code() == Some(TrapCode::OutOfFuel) {
        format!(
            "the module's rules checker ran longer than {FUEL} steps and was stopped (while trying to {what})"
        )
    } else if over_limit(e) {
        format!(
            "the module's rules checker asked for more than {} MiB of memory or {TABLE_LIMIT} table entries, the most muster gives it (while trying to {what}: {text})",
            MEMORY_LIMIT >> 20
        )
    } else {
        format!("the module's rules checker failed to {what} ({text})")
    };
    CheckerError(message)
}

/// Whether `e` is the store's limiter refusing memory, table space or another instance.
fn over_limit(e: &wasmi::Error) -> bool {
    matches!(
        e.kind(),
        ErrorKind::TrapCode(TrapCode::GrowthOperationLimited)
            | ErrorKind::Memory(MemoryError::ResourceLimiterDeniedAllocation)
            | ErrorKind::Table(TableError::ResourceLimiterDeniedAllocation)
            | ErrorKind::Instantiation(
                InstantiationError::TooManyInstances
                    | InstantiationError::TooManyTables
                    | InstantiationError::TooManyMemories
                    | InstantiationError::FailedToInstantiateMemory(
                        MemoryError::ResourceLimiterDeniedAllocation
                    )
                    | InstantiationError::FailedToInstantiateTable(
                        TableError::ResourceLimiterDeniedAllocation
                    )
            )
    )
}

/// The error for a checker refused when it is loaded: not WebAssembly, or WebAssembly that
/// uses a feature the box does not allow.
pub fn refused(e: &wasmi::Error) -> CheckerError {
    CheckerError(format!(
        "the module's rules checker cannot be loaded ({e}); muster runs checkers built for wasm32 with one 32-bit memory, without memory64, multiple memories, SIMD or tail calls"
    ))
}
