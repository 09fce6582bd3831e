#!/usr/bin/env bash
# Runs COMMAND with a private 3-node etcd cluster on loopback, then stops it and removes its data.
#
#   bash Scripts/with-etcd.sh swift test --skip-build --filter KeyringEtcdTests
#
# COMMAND sees SWIFT_KEYRING_TEST_ETCD_ENDPOINTS (the members' client URLs) and
# SWIFT_KEYRING_TEST_ETCD_ROOT (a folder where tests start clusters of their own to break;
# whatever they leave running there is stopped here too). Fails when the cluster cannot start.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(mktemp -d "${TMPDIR:-/tmp}/swift-keyring-etcd.XXXXXX")

cleanup() {
    for cluster in "$root"/*/; do
        [ -d "$cluster" ] && bash "$here/etcd-cluster.sh" stop "${cluster%/}" || true
    done
    rm -rf "$root"
}
trap cleanup EXIT

endpoints=$(bash "$here/etcd-cluster.sh" start "$root/shared")
export SWIFT_KEYRING_TEST_ETCD_ENDPOINTS="$endpoints"
export SWIFT_KEYRING_TEST_ETCD_ROOT="$root"
echo "with-etcd.sh: a 3-node etcd cluster at $endpoints" >&2
status=0
"$@" || status=$?
exit $status
