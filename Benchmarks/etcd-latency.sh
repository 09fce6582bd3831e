#!/usr/bin/env bash
# The etcd fleet store's latency on a private 3-node cluster on loopback:
#
#   bash Benchmarks/etcd-latency.sh [N]      (N records, 1,000 unless given)
#
# Prints µs/op for store and lookup through EtcdStore, for a range of an absent key
# through the same client (one round trip, nothing to decrypt: the floor), and for a raw
# /v3/kv/range through URLSession; then `swift-keyring get` against `etcdctl get` as
# whole processes (hyperfine, when installed).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
count=${1:-1000}
swift build -c release --package-path "$here/EtcdLatency" >&2
swift build -c release --package-path "$here/.." --product swift-keyring >&2
export ETCD_LATENCY_BIN="$here/EtcdLatency/.build/release/etcd-latency"
export SWIFT_KEYRING_CLI_BIN="$here/../.build/release/swift-keyring"
export ETCD_LATENCY_COUNT=$count
bash "$here/../Scripts/with-etcd.sh" bash -c '
    set -euo pipefail
    "$ETCD_LATENCY_BIN" "$SWIFT_KEYRING_TEST_ETCD_ENDPOINTS" "$ETCD_LATENCY_COUNT"
    command -v hyperfine >/dev/null || exit 0
    key=$(mktemp) && head -c 32 /dev/urandom >"$key" && chmod 600 "$key"
    export SWIFT_KEYRING_BACKEND=etcd SWIFT_KEYRING_ETCD_ENDPOINTS=$SWIFT_KEYRING_TEST_ETCD_ENDPOINTS SWIFT_KEYRING_KEY_FILE=$key ETCDCTL_API=3
    printf pw | "$SWIFT_KEYRING_CLI_BIN" set bench --username u --url https://example.com
    etcdctl --endpoints="$SWIFT_KEYRING_TEST_ETCD_ENDPOINTS" put plain value >/dev/null
    hyperfine -N -w 3 -r 30 "$SWIFT_KEYRING_CLI_BIN get bench" "etcdctl --endpoints=${SWIFT_KEYRING_TEST_ETCD_ENDPOINTS%%,*} get plain"
    rm -f "$key"
'
