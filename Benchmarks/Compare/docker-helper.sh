#!/usr/bin/env bash
# Issue 45's numbers: `docker-credential-swift-keyring get` as a whole process, in interleaved
# rounds (medians, Compare/process-rounds.py), against
#   - `docker-credential-secretservice get` (Debian's golang-docker-credential-helpers) on the
#     same Secret Service, each reading the login it stored (goal: ≤ 0.6×), and
#   - `swift-keyring get` on the encrypted file opened with a key file, the same file and key
#     (goal: within 1.1×).
#
#   bash Benchmarks/Compare/docker-helper.sh HELPER TOOL [ROUNDS]
#
# HELPER and TOOL are `docker-credential-swift-keyring` and `swift-keyring` as the README builds
# them (Scripts/build-release.sh; HELPER is built when missing). Runs inside a Secret Service (Scripts/with-secret-service.sh;
# compare.sh calls it there). Prints docker<TAB>NAME<TAB>MEDIAN-µs lines, then the two ratios.
set -euo pipefail
helper=$1 tool=$2 rounds=${3:-60}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
# compare.sh builds the tool and git's helper; this one is built beside them when missing
# (HELPER in SCRATCH/TRIPLE/release, as build-release.sh --scratch-path SCRATCH puts it).
if [ ! -x "$helper" ]; then
    (cd "$root" && bash Scripts/build-release.sh --scratch-path "$(dirname "$(dirname "$(dirname "$helper")")")" \
        --product docker-credential-swift-keyring >&2)
fi
reference=$(command -v docker-credential-secretservice) || {
    echo "$0: docker-credential-secretservice is missing (golang-docker-credential-helpers)" >&2
    exit 1
}
work=$(mktemp -d "${TMPDIR:-/tmp}/swift-keyring-docker.XXXXXX")
trap 'rm -rf "$work"' EXIT
chmod 700 "$work"
run_id=$(od -An -N4 -tx1 /dev/urandom | tr -d ' \n')

# One login per store, the same server string: each helper keeps its own item.
server="bench-$run_id.example.com:5000"
printf '%s' "$server" >"$work/server.txt"
login="{\"ServerURL\":\"$server\",\"Username\":\"bench\",\"Secret\":\"docker-bench-value\"}"
head -c 32 /dev/urandom >"$work/key"
chmod 600 "$work/key"
file_env=(SWIFT_KEYRING_BACKEND=file SWIFT_KEYRING_FILE="$work/files/keyring.skr" SWIFT_KEYRING_KEY_FILE="$work/key")
printf '%s' "$login" | env SWIFT_KEYRING_BACKEND=secret-service "$helper" store
printf '%s' "$login" | "$reference" store
printf '%s' "$login" | env "${file_env[@]}" "$helper" store
# The tool's own record in the same file (its service and key, so the tool's get finds it as a person's).
printf 'docker-bench-value' | env "${file_env[@]}" "$tool" set account-0 --service bench.file \
    --username bench --url https://example.com
trap '(env SWIFT_KEYRING_BACKEND=secret-service "$helper" erase; "$reference" erase) <"$work/server.txt" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT

# Each command once, checking its answer: a timed run that answers wrongly would time nothing useful.
expect() {
    local got
    got=$("$@" <"$work/server.txt" 2>&1) || { echo "$0: failed: $* → $got" >&2; exit 1; }
    case "$got" in *docker-bench-value*) ;; *) echo "$0: $* did not answer the login" >&2; exit 1 ;; esac
}
expect env SWIFT_KEYRING_BACKEND=secret-service "$helper" get
expect "$reference" get
expect env "${file_env[@]}" "$helper" get
expect env "${file_env[@]}" "$tool" get account-0 --service bench.file

/usr/bin/python3 - "$work/spec.json" <<EOF
import json, sys
file_env = {"SWIFT_KEYRING_BACKEND": "file", "SWIFT_KEYRING_FILE": "$work/files/keyring.skr",
            "SWIFT_KEYRING_KEY_FILE": "$work/key"}
spec = [
    {"name": "docker-get-secret-service", "argv": ["$helper", "get"], "stdin": "$work/server.txt",
     "env": {"SWIFT_KEYRING_BACKEND": "secret-service"}},
    {"name": "docker-secretservice-get", "argv": ["$reference", "get"], "stdin": "$work/server.txt", "env": {}},
    {"name": "docker-get-file", "argv": ["$helper", "get"], "stdin": "$work/server.txt", "env": file_env},
    {"name": "tool-get-file", "argv": ["$tool", "get", "account-0", "--service", "bench.file"], "stdin": None,
     "env": file_env},
]
json.dump(spec, open(sys.argv[1], "w"))
EOF
echo "  docker helper: $rounds interleaved rounds …" >&2
/usr/bin/python3 "$here/process-rounds.py" "$work/spec.json" "$rounds" >"$work/times.tsv"
while IFS=$'\t' read -r name runs median least; do
    printf 'docker\t%s\t%s\n' "$name" "$median"
    echo "  $name: median $median µs, least $least µs, $runs runs" >&2
done <"$work/times.tsv"
awk -F'\t' '{ m[$1] = $3 } END {
    printf "  docker get / docker-credential-secretservice get (Secret Service): %.2fx (goal <= 0.6x)\n",
        m["docker-get-secret-service"] / m["docker-secretservice-get"]
    printf "  docker get / swift-keyring get (file, key file): %.2fx (goal <= 1.1x)\n",
        m["docker-get-file"] / m["tool-get-file"]
}' "$work/times.tsv" >&2
