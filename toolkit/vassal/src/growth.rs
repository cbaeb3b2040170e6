//! How a reader's time grows with its input: the tests that hold readers to linear growth
//! compare its time on an input with its time on one four times as large. The inputs are
//! small enough for both sizes to stay in the processor's caches, where time follows work.

use std::time::Instant;

/// How many times each size is read; the best time counts, as the machine's noise is least
/// in it.
const RUNS: usize = 9;

/// How many times the two sizes are compared before the growth is taken as real: work that
/// grows faster than [`BOUND`] does so every time, a busy machine only now and then.
const ATTEMPTS: usize = 3;

/// The most a reader's time may grow when its input grows four times: twice linear, half
/// the sixteen times of quadratic work.
pub const BOUND: f64 = 8.0;

/// The smallest ratio, over up to [`ATTEMPTS`] comparisons, of the best time of `read` on
/// `input(4 * n)` to its best time on `input(n)`: about 4 for linear reading, 16 for
/// quadratic. It stops at the first ratio below [`BOUND`].
pub fn ratio<T>(n: usize, input: impl Fn(usize) -> T, read: impl Fn(&T)) -> f64 {
    let (small, large) = (input(n), input(4 * n));
    let best = |input: &T| {
        (0..RUNS)
            .map(|_| {
                let t = Instant::now();
                read(input);
                t.elapsed().as_secs_f64()
            })
            .fold(f64::MAX, f64::min)
            .max(1e-9)
    };
    let mut lowest = f64::MAX;
    for _ in 0..ATTEMPTS {
        lowest = lowest.min(best(&large) / best(&small));
        if lowest < BOUND {
            break;
        }
    }
    lowest
}
