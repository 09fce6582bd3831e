#!/usr/bin/env bash
# CI's benchmark smoke pass, so the benchmarks never rot: builds the Benchmarks
# package, runs every package-benchmark suite at a tiny size with a few
# iterations, and the comparison (Benchmarks/compare.sh, issue 27's start targets
# included, 3 rounds) at a tiny N without
# writing BENCHMARKS.md. Fails when anything fails to build or a benchmark
# gets a wrong answer; the figures it prints mean nothing.
#
#   bash Scripts/benchmark-smoke.sh
#
# The full runs are `bash Benchmarks/compare.sh` and, inside the private Secret
# Service, `swift package benchmark` in Benchmarks/ (see Benchmarks/BENCHMARKS.md).
set -euo pipefail
cd "$(dirname "$0")/.."
bash Scripts/setup.sh

scratch=$(mktemp -d "${TMPDIR:-/tmp}/swift-keyring-bench-smoke.XXXXXX")
trap 'rm -rf "$scratch"' EXIT

export SWIFT_KEYRING_BENCH_SIZES=10
export SWIFT_KEYRING_BENCH_SS_SIZES=10
export SWIFT_KEYRING_BENCH_LARGE_SIZES=100
export SWIFT_KEYRING_BENCH_MAX_SECONDS=0.2
export SWIFT_KEYRING_BENCH_MAX_ITERATIONS=3
export SWIFT_KEYRING_BENCH_DIR="$scratch/files"

# The bounds below only stop a hang: each includes a release build, and on a
# loaded 2-core machine (a CPU hog on both cores and four builds beside it) the
# Benchmarks package's build alone took 543 s, so a 900 s bound failed CI with
# exit 124 before a benchmark ran. Unloaded, both steps together take ~10 minutes.
hang_bound=2700

echo "== benchmark suites (smoke sizes)" >&2
log="$scratch/suites.log"
(cd Benchmarks && bash ../Scripts/with-secret-service.sh \
    timeout "$hang_bound" swift package benchmark --no-progress --time-units microseconds) 2>&1 | tee "$log"
# package-benchmark 1.38 prints a failed setup or benchmark but still exits 0.
if grep -E -q "setup failed|teardown failed| failed with |failed during runtime|Process failed" "$log"; then
    echo "$0: a benchmark failed (see above)" >&2
    exit 1
fi

echo "== comparison (smoke size, BENCHMARKS.md untouched)" >&2
timeout "$hang_bound" bash Benchmarks/compare.sh --count 5 --large-count 100 --cli-runs 3 --instruction-count 3 --start-rounds 3 --no-write
