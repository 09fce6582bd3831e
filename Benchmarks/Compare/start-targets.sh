#!/usr/bin/env bash
# Issue 27's targets: what a whole `swift-keyring` process or git credential helper costs,
# against the program a person would otherwise run, in interleaved rounds (medians). Run it
# inside a private Secret Service, with the programs compare.sh builds:
#
#   bash Scripts/with-secret-service.sh bash Benchmarks/Compare/start-targets.sh \
#       TOOL HELPER EMPTY GIT-CREDENTIAL-LIBSECRET [ROUNDS [OLD-TOOL OLD-HELPER]]
#
# TOOL and HELPER are `swift-keyring` and `git-credential-swift-keyring` as the README builds
# them (Scripts/build-release.sh); EMPTY is `print("0")` built the same way; ROUNDS is 60
# unless given. The pairs:
#   - `swift-keyring --version` against EMPTY;
#   - `swift-keyring get` on the encrypted file, opened with a key file, against EMPTY;
#   - `swift-keyring get` on the Secret Service (no --backend: the store chosen as for a
#     person at a desktop) against `secret-tool lookup` of the same item; also timed with
#     --backend secret-service (`get-secret-service-forced`), which skips the selection's probe;
#   - `git credential fill` through HELPER against the same through git-credential-libsecret,
#     each having stored its own credential in the same daemon.
# Then the instructions of `--version`, EMPTY and the file `get`, whole process (callgrind), of
# SWIFT_KEYRING_START_EMPTY_PLAIN when set (EMPTY as plain `--static-swift-stdlib` links it), and
# the peak resident memory of the Secret Service `get` (Compare/peak-memory.sh). With OLD-TOOL and
# OLD-HELPER (an earlier build), their runs join the same rounds, named `old-…`, for
# before/after figures measured under the same load.
# Prints RESULT<TAB>NAME<TAB>VALUE lines: `time` NAME median-µs, `instructions` NAME count,
# `peak-bytes` NAME bytes.
set -euo pipefail
tool=$1 helper=$2 empty=$3 libsecret_helper=$4 rounds=${5:-60} old_tool=${6:-} old_helper=${7:-}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/swift-keyring-start.XXXXXX")
trap 'rm -rf "$work"' EXIT
chmod 700 "$work"
run_id=$(od -An -N4 -tx1 /dev/urandom | tr -d ' \n')

# The encrypted file, opened with a raw key (no Argon2id), one record in it.
head -c 32 /dev/urandom >"$work/key"
chmod 600 "$work/key"
file="$work/files/keyring.skr"
printf 'start-file-value' | SWIFT_KEYRING_KEY_FILE="$work/key" "$tool" set account-0 --service start.file \
    --backend file --file "$file" --username bench --url https://example.com
# The Secret Service item both read: written by the tool, found by secret-tool through its attributes.
service="start.ss.$run_id"
printf 'start-ss-value' | "$tool" set account-0 --service "$service" --backend secret-service \
    --username bench --url https://example.com
# git: a home of its own, no system or global configuration, never a terminal prompt.
mkdir -p "$work/home"
git_env=(HOME="$work/home" GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null GIT_TERMINAL_PROMPT=0)
printf 'protocol=https\nhost=start.example.com\nusername=bench\npassword=start-git-value\n\n' >"$work/approve.txt"
printf 'protocol=https\nhost=start.example.com\n\n' >"$work/fill.txt"
for which in "$helper" "$libsecret_helper"; do
    env "${git_env[@]}" git -c credential.helper= -c credential.helper="$which" credential approve <"$work/approve.txt"
done

# Each command once, checking its answer: a timed run that answers wrongly would time nothing useful.
expect() {
    local want=$1 got
    shift
    got=$("$@" 2>&1) || { echo "$0: failed: $* → $got" >&2; exit 1; }
    case "$got" in *"$want"*) ;; *) echo "$0: $* printed '$got', not '$want'" >&2; exit 1 ;; esac
}
expect 0 "$empty"
expect 0.1 "$tool" --version
expect start-file-value env SWIFT_KEYRING_KEY_FILE="$work/key" "$tool" get account-0 --service start.file --backend file --file "$file"
expect start-ss-value "$tool" get account-0 --service "$service"
expect start-ss-value secret-tool lookup tag swift-keyring service "$service" key account-0 kind credentials
for which in "$helper" "$libsecret_helper"; do
    expect password=start-git-value env "${git_env[@]}" \
        sh -c 'exec git -c credential.helper= -c credential.helper="$1" credential fill <"$2"' sh "$which" "$work/fill.txt"
done

git_bin=$(command -v git)
/usr/bin/python3 - "$work/spec.json" <<EOF
import json, sys
git_env = {"HOME": "$work/home", "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": "/dev/null", "GIT_TERMINAL_PROMPT": "0"}
fill = ["$git_bin", "-c", "credential.helper="]
spec = [
    {"name": "empty", "argv": ["$empty"]},
    {"name": "version", "argv": ["$tool", "--version"]},
    {"name": "get-file", "argv": ["$tool", "get", "account-0", "--service", "start.file", "--backend", "file", "--file", "$file"],
     "env": {"SWIFT_KEYRING_KEY_FILE": "$work/key"}},
    {"name": "get-secret-service", "argv": ["$tool", "get", "account-0", "--service", "$service"]},
    {"name": "get-secret-service-forced",
     "argv": ["$tool", "get", "account-0", "--service", "$service", "--backend", "secret-service"]},
    {"name": "secret-tool-lookup",
     "argv": ["/usr/bin/secret-tool", "lookup", "tag", "swift-keyring", "service", "$service", "key", "account-0", "kind", "credentials"]},
    {"name": "git-fill-ours", "argv": fill + ["-c", "credential.helper=$helper", "credential", "fill"],
     "stdin": "$work/fill.txt", "env": git_env},
    {"name": "git-fill-libsecret", "argv": fill + ["-c", "credential.helper=$libsecret_helper", "credential", "fill"],
     "stdin": "$work/fill.txt", "env": git_env},
]
# The empty program as a plain swift build --static-swift-stdlib links it: the floor a Swift
# developer's own tool starts from (build-release.sh's floor is lower, libstdc++ linked in).
# (This text is in the shell's here-document: no backquotes, which the shell would run.)
import os
if os.environ.get("SWIFT_KEYRING_START_EMPTY_PLAIN"):
    spec.append({"name": "empty-plain", "argv": [os.environ["SWIFT_KEYRING_START_EMPTY_PLAIN"]]})
old_tool, old_helper = "$old_tool", "$old_helper"
if old_tool and old_helper:
    for command in list(spec):
        if command["name"] in ("version", "get-file", "get-secret-service", "git-fill-ours"):
            old = json.loads(json.dumps(command).replace("$tool", old_tool).replace("$helper", old_helper))
            old["name"] = "old-" + command["name"]
            spec.append(old)
json.dump(spec, open(sys.argv[1], "w"))
EOF
echo "  $rounds interleaved rounds …" >&2
/usr/bin/python3 "$here/process-rounds.py" "$work/spec.json" "$rounds" | while IFS=$'\t' read -r name runs median least; do
    printf 'time\t%s\t%s\n' "$name" "$median"
    echo "  $name: median $median µs, least $least µs, $runs runs" >&2
done

# valgrind 3.19 gives up on the debug information of Swift 6.3's binaries: it counts stripped copies.
strip --strip-debug -o "$work/tool" "$tool"
strip --strip-debug -o "$work/empty" "$empty"
count() {
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null |
        sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
pairs=("version:$work/tool --version" "empty:$work/empty"
    "get-file:$work/tool get account-0 --service start.file --backend file --file $file")
if [ -n "${SWIFT_KEYRING_START_EMPTY_PLAIN:-}" ]; then
    strip --strip-debug -o "$work/empty-plain" "$SWIFT_KEYRING_START_EMPTY_PLAIN"
    pairs+=("empty-plain:$work/empty-plain")
fi
for pair in "${pairs[@]}"; do
    # The key file's setting reaches the tool through valgrind, which counts no program it execs.
    collected=$(SWIFT_KEYRING_KEY_FILE="$work/key" count ${pair#*:})
    [ -n "$collected" ] || { echo "$0: callgrind gave no count for ${pair#*:}" >&2; exit 1; }
    printf 'instructions\t%s\t%s\n' "${pair%%:*}" "$collected"
done

# Peak resident memory of a `get` from the daemon (issue 43's figure; Compare/peak-memory.sh).
printf 'peak-bytes\tget-secret-service\t%s\n' \
    "$(bash "$here/peak-memory.sh" "$tool" get account-0 --service "$service" --backend secret-service)"
