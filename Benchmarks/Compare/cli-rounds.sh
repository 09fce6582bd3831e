#!/usr/bin/env bash
# Two builds of the tool against secret-tool as whole processes, in alternating
# rounds, for before/after figures (BENCHMARKS.md, issue 14). Run it inside a
# private Secret Service:
#
#   bash Scripts/with-secret-service.sh bash Benchmarks/Compare/cli-rounds.sh OLD-BINARY NEW-BINARY [ROUNDS]
#
# The `get`s name `--backend secret-service`; SWIFT_KEYRING_ROUNDS_AUTO=1 leaves it out, so
# they choose as a user's do (the probe's flight first).
# Each round runs `hyperfine -N --runs 10` of `--version` (old, new, secret-tool)
# and of one lookup (old `get`, new `get`, `secret-tool lookup`) back to back;
# prints the median of the round means of each command and the ratios. Then each
# command once under callgrind: its instructions, whole process (the loader, the
# argument parsing, the D-Bus work and libsecret's session key exchange included).
set -euo pipefail
old=$1 new=$2 rounds=${3:-8}
backend=" --backend secret-service"
[ "${SWIFT_KEYRING_ROUNDS_AUTO:-0}" = 1 ] && backend=""
work=$(mktemp -d "${TMPDIR:-/tmp}/swift-keyring-cli-rounds.XXXXXX")
trap 'rm -rf "$work"' EXIT
# A throwaway password for a throwaway daemon.
printf 'cli-rounds-value' | "$new" set account-0 --service cli.rounds --backend secret-service \
    --username user0 --url https://accounts.example.com/user0
for round in $(seq "$rounds"); do
    # secret-tool --version prints its usage and exits 2: -i keeps it in.
    hyperfine -N -i --style none --warmup 2 --runs 10 --export-json "$work/version-$round.json" \
        -n old-version "$old --version" -n new-version "$new --version" \
        -n secret-tool-version "secret-tool --version" >/dev/null 2>&1
    hyperfine -N --style none --warmup 2 --runs 10 --export-json "$work/get-$round.json" \
        -n old-get "$old get account-0 --service cli.rounds$backend" \
        -n new-get "$new get account-0 --service cli.rounds$backend" \
        -n secret-tool-lookup "secret-tool lookup tag swift-keyring service cli.rounds key account-0 kind credentials" \
        >/dev/null 2>&1
done
/usr/bin/python3 - "$work" <<'PY'
import glob, json, statistics, sys
means = {}
for path in sorted(glob.glob(sys.argv[1] + "/*.json")):
    for result in json.load(open(path))["results"]:
        means.setdefault(result["command"], []).append(result["mean"] * 1000)
median = {name: statistics.median(values) for name, values in means.items()}
for name, values in means.items():
    print(f"{name:20s} {median[name]:7.2f} ms  (median of {len(values)} round means, {min(values):.2f}-{max(values):.2f})")
for which in ("old", "new"):
    print(f"{which} --version / secret-tool --version: {median[which + '-version'] / median['secret-tool-version']:.2f}x")
    print(f"{which} get / secret-tool lookup: {median[which + '-get'] / median['secret-tool-lookup']:.2f}x")
PY
# valgrind 3.19 cannot read the debug information of a Swift binary: it counts a copy without it.
strip --strip-debug -o "$work/old" "$old"
strip --strip-debug -o "$work/new" "$new"
millions() {
    valgrind --tool=callgrind --callgrind-out-file="$work/callgrind.out" "$@" >/dev/null 2>"$work/callgrind.log" || true
    awk '/Collected :/ {printf "%.2f", $NF / 1e6; exit}' "$work/callgrind.log"
}
echo "instructions, whole process (callgrind, millions):"
for which in old new; do
    echo "$which --version $(millions "$work/$which" --version)" \
        "get $(millions "$work/$which" get account-0 --service cli.rounds --backend secret-service)"
done
echo "secret-tool --version $(millions secret-tool --version)" \
    "lookup $(millions secret-tool lookup tag swift-keyring service cli.rounds key account-0 kind credentials)"
