#!/usr/bin/env bash
# Runs every fuzz target for a bounded time; a crash fails the run and leaves its input
# under fuzz/artifacts/<target>/ (turn it into a regression test).
#   bash fuzz/run.sh SECONDS_PER_TARGET DIST
# The targets are cargo-fuzz targets (`cargo fuzz run yaml` works too); this script builds
# them with the same coverage instrumentation cargo-fuzz uses (without a sanitizer), so it
# needs no nightly compiler and no cargo-fuzz install.
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-30}
bash fuzz/seed.sh "$PWD/${2:-dist}"
export RUSTFLAGS="-Cpasses=sancov-module -Cllvm-args=-sanitizer-coverage-level=4 \
-Cllvm-args=-sanitizer-coverage-inline-8bit-counters -Cllvm-args=-sanitizer-coverage-pc-table \
-Cllvm-args=-sanitizer-coverage-trace-compares --cfg fuzzing -Cdebug-assertions -Coverflow-checks"
# A bounded smoke run: a light optimisation builds faster than it fuzzes slower.
export CARGO_PROFILE_RELEASE_OPT_LEVEL=${FUZZ_OPT_LEVEL:-1} CARGO_PROFILE_RELEASE_DEBUG=0
# With an explicit --target the flags reach the targets but not build scripts.
host=$(rustc -vV | sed -n 's/^host: //p')
cargo build --quiet --release --locked --manifest-path fuzz/Cargo.toml --target-dir fuzz/target/plain --target "$host"
mkdir -p fuzz/artifacts
for t in yaml notation hex_label piece saved_game; do
  echo "== fuzz $t for ${secs}s"
  mkdir -p "fuzz/artifacts/$t"
  "fuzz/target/plain/$host/release/$t" "fuzz/corpus/$t" -artifact_prefix="fuzz/artifacts/$t/" \
    -max_total_time="$secs" -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 2>&1 |
    grep -E "stat::number_of_executed_units|ERROR|panicked|SUMMARY" || true
  if ls "fuzz/artifacts/$t"/crash-* "fuzz/artifacts/$t"/timeout-* "fuzz/artifacts/$t"/oom-* >/dev/null 2>&1; then
    echo "fuzz target $t failed; inputs in fuzz/artifacts/$t/" >&2
    exit 1
  fi
done
