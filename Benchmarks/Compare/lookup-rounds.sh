#!/usr/bin/env bash
# Secret Service lookups side by side in one daemon, in alternating rounds, for
# steadier ratios than compare.sh's single pass (BENCHMARKS.md, issue 14). Run it
# inside a private Secret Service, with the programs compare.sh builds:
#
#   bash Scripts/with-secret-service.sh bash Benchmarks/Compare/lookup-rounds.sh \
#       KEYRING-COMPARE LIBSECRET-BENCH [COUNT] [ROUNDS]
#
# COUNT records (300 unless given) are stored once for each program. Each round
# then runs, one process after the other: keyring-compare's `lookup` (the first
# lookup of each record in the process), `lookup-again` and `lookup-password-again`
# (each record looked up once untimed, then timed: answered from memory on
# gnome-keyring); keyring-compare's `lookup-password` in a process of its own (the
# first `password(forKey:)` of each record); libsecret-bench's `lookup` and `lookup-again`; and Python
# keyring's lookups (SWIFT_KEYRING_ROUNDS_PYTHON=0 leaves Python out: its store and remove
# of COUNT records take most of a round). Prints the median over rounds of each figure
# (µs per lookup) and the ratios the issue's goals name: the ratio of the medians, then
# the median and range of the ratios within each round.
set -euo pipefail
compare=$1 csecret=$2 count=${3:-300} rounds=${4:-10}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/swift-keyring-lookup-rounds.XXXXXX")
trap 'rm -rf "$work"' EXIT
run_id=$(od -An -N4 -tx1 /dev/urandom | tr -d ' \n')
export SWIFT_KEYRING_COMPARE_SERVICE="rounds.swift.$run_id"
"$compare" secret-service "$count" store >/dev/null
"$csecret" "$count" "rounds.c.$run_id" store >/dev/null
python_service="rounds.py.$run_id"
for round in $(seq "$rounds"); do
    "$compare" secret-service "$count" lookup lookup-again lookup-password-again | sed 's/^/swift\t/' >>"$work/results"
    "$compare" secret-service "$count" lookup-password | sed 's/^/swift\t/' >>"$work/results"
    "$csecret" "$count" "rounds.c.$run_id" lookup lookup-again | sed 's/^/c\t/' >>"$work/results"
    # Python's workload stores, looks up and removes; only its lookups are kept.
    [ "${SWIFT_KEYRING_ROUNDS_PYTHON:-1}" = 0 ] ||
    /usr/bin/python3 "$here/python-keyring-bench.py" "$count" "$python_service" | grep '^lookup' | sed 's/^/python\t/' \
        >>"$work/results"
    echo "round $round of $rounds done" >&2
done
"$csecret" "$count" "rounds.c.$run_id" remove >/dev/null
"$compare" secret-service "$count" removeall >/dev/null
/usr/bin/python3 - "$work/results" "$count" "$rounds" <<'PY'
import collections, statistics, sys
values = collections.defaultdict(list)
for line in open(sys.argv[1]):
    tool, phase, _, micros = line.rstrip("\n").split("\t")
    values[(tool, phase)].append(float(micros))
# Each phase prints one line a round, so the n-th value of each is the n-th round's.
median = {key: statistics.median(v) for key, v in values.items()}
print(f"µs per lookup, median of {sys.argv[3]} rounds, {sys.argv[2]} records each")
for (tool, phase), value in sorted(median.items()):
    print(f"  {tool:7} {phase:22} {value:10.1f}")
def ratio(name, a, b):
    if a in median and b in median:
        rounds = sorted(x / y for x, y in zip(values[a], values[b]))
        print(f"  {name:58} {median[a] / median[b]:.2f}x   per round {statistics.median(rounds):.2f}x"
              f" ({rounds[0]:.2f}-{rounds[-1]:.2f})")
print("ratios")
ratio("credentials(forKey:) first lookup vs C", ("swift", "lookup"), ("c", "lookup"))
ratio("password(forKey:) first lookup vs C", ("swift", "lookup-password"), ("c", "lookup"))
ratio("credentials(forKey:) looked up again vs C", ("swift", "lookup-again"), ("c", "lookup-again"))
ratio("password(forKey:) looked up again vs C", ("swift", "lookup-password-again"), ("c", "lookup-again"))
ratio("Python keyring lookup vs credentials(forKey:) first lookup", ("python", "lookup"), ("swift", "lookup"))
ratio("Python keyring lookup vs credentials(forKey:) again", ("python", "lookup"), ("swift", "lookup-again"))
PY
