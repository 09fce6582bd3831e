#!/usr/bin/env bash
# Issue 37 by hand: fresh `swift-keyring` processes on a two-store keyring (the encrypted
# file local, etcd shared), timed with the cluster whole and then with 2 of its 3 members
# killed. Device-only calls should answer at once; synced ones fail (69) at etcd's bound.
#
#   bash Benchmarks/Compare/sync-quorum-processes.sh [TOOL]     (TOOL: .build/debug/swift-keyring unless given)
set -u
cd "$(dirname "$0")/../.."
tool=$(realpath "${1:-.build/debug/swift-keyring}")
dir=$(mktemp -d /tmp/sync-quorum.XXXXXX)
trap 'bash Scripts/etcd-cluster.sh stop "$dir/cluster" >/dev/null 2>&1; rm -rf "$dir"' EXIT
endpoints=$(bash Scripts/etcd-cluster.sh start "$dir/cluster")
head -c 32 /dev/urandom >"$dir/key" && chmod 600 "$dir/key"
export HOME=$dir/home && mkdir -m 700 "$HOME"
export SWIFT_KEYRING_BACKEND=file SWIFT_KEYRING_FILE=$HOME/keyring.skr SWIFT_KEYRING_KEY_FILE=$dir/key \
    SWIFT_KEYRING_SYNC_STORE=etcd SWIFT_KEYRING_ETCD_ENDPOINTS=$endpoints SWIFT_KEYRING_ETCD_PREFIX=quorum/ \
    SWIFT_KEYRING_ETCD_STATE_DIR=$HOME

timed() {
    local label=$1 start end status
    shift
    start=$(date +%s.%N)
    "$@" >/dev/null 2>&1
    status=$?
    end=$(date +%s.%N)
    printf '%-34s exit %3d  %6.3f s\n' "$label" "$status" "$(echo "$end - $start" | bc)"
}
set_record() { printf 'pw' | "$tool" set "$@" --username u --url https://example.com; }

set_record laptop >/dev/null && set_record fleet --sync >/dev/null
echo "cluster whole:"
timed "get laptop (device-only)" "$tool" get laptop
timed "set laptop (device-only)" set_record laptop
timed "get fleet (synced)" "$tool" get fleet
kill -9 "$(cat "$dir/cluster/n2.pid")" "$(cat "$dir/cluster/n3.pid")"
sleep 1
echo "members 2 and 3 killed:"
for run in 1 2 3; do timed "get laptop (device-only)" "$tool" get laptop; done
for run in 1 2 3; do timed "set newlocal$run (device-only)" set_record "newlocal$run"; done
timed "get fleet (synced)" "$tool" get fleet
timed "set late --sync" set_record late --sync
timed "list" "$tool" list
timed "list --place local" "$tool" list --place local
timed "doctor" "$tool" doctor
"$tool" doctor | grep -E '^(local|shared) store:'
