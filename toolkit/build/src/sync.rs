//! Shared state between worker threads.

use std::sync::{Mutex, MutexGuard, PoisonError};

/// Locks a mutex, taking over a poisoned one (a panicking worker leaves plain data).
pub(crate) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}
