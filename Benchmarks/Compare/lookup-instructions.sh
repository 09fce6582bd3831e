#!/usr/bin/env bash
# compare.sh's callgrind part alone: the client's instructions per Secret Service
# lookup, swift-keyring's against libsecret's C, without the rest of the comparison.
# Run it inside a private Secret Service, with the programs compare.sh builds:
#
#   bash Scripts/with-secret-service.sh bash Benchmarks/Compare/lookup-instructions.sh \
#       KEYRING-COMPARE LIBSECRET-BENCH [N]
#
# Each program looks up N records (100 unless given) and 1 record; the difference over
# N - 1 leaves out the process start, the connection and the session. Prints
# PROGRAM<TAB>PHASE<TAB>INSTRUCTIONS-PER-LOOKUP lines.
set -euo pipefail
compare=$1 csecret=$2 count=${3:-100}
work=$(mktemp -d "${TMPDIR:-/tmp}/swift-keyring-lookup-instructions.XXXXXX")
trap 'rm -rf "$work"' EXIT
run_id=$(od -An -N4 -tx1 /dev/urandom | tr -d ' \n')

# callgrind_count COMMAND…: the instructions COMMAND ran, the whole process; a run that
# gives no count fails the script, rather than print a figure made of nothing.
callgrind_count() {
    local collected
    collected=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null |
        sed -n 's/.*Collected : \([0-9]*\).*/\1/p')
    if [ -z "$collected" ]; then
        echo "$0: callgrind gave no count for $*" >&2
        return 1
    fi
    echo "$collected"
}
# A stripped copy: valgrind 3.19 gives up on the debug information of Swift 6.3's binaries.
stripped="$work/keyring-compare.stripped"
strip -o "$stripped" "$compare"
export SWIFT_KEYRING_COMPARE_SERVICE="lookup.ir.$run_id"
"$compare" secret-service "$count" store >/dev/null
for phase in lookup lookup-password; do
    first=$(callgrind_count "$stripped" secret-service "$count" "$phase")
    one=$(callgrind_count "$stripped" secret-service 1 "$phase")
    printf 'swift-keyring\t%s\t%s\n' "$phase" "$(( (first - one) / (count - 1) ))"
    # Looked up again: an untimed pass then a second one, less the run with the first pass alone.
    both=$(callgrind_count "$stripped" secret-service "$count" "$phase-again")
    printf 'swift-keyring\t%s-again\t%s\n' "$phase" "$(( (both - first) / count ))"
done
"$compare" secret-service "$count" removeall >/dev/null
unset SWIFT_KEYRING_COMPARE_SERVICE
"$csecret" "$count" "lookup.cir.$run_id" store >/dev/null
c_n=$(callgrind_count "$csecret" "$count" "lookup.cir.$run_id" lookup)
c_1=$(callgrind_count "$csecret" 1 "lookup.cir.$run_id" lookup)
printf 'libsecret-c\tlookup\t%s\n' "$(( (c_n - c_1) / (count - 1) ))"
"$csecret" "$count" "lookup.cir.$run_id" remove >/dev/null
