#!/usr/bin/env bash
# Runs git's own test of external credential helpers (t/t0303-credential-external.sh with
# t/lib-credential.sh) against the built git-credential-swift-keyring, on the encrypted file,
# the Secret Service (a private one, Scripts/with-secret-service.sh) and etcd (a private
# cluster, Scripts/with-etcd.sh). git's test suite is not in Debian's package: give a git
# source tree (e.g. a checkout of github.com/git/git at v2.55.0); it is built there first,
# without the parts these tests do not use, unless already built.
#
#   swift build --product git-credential-swift-keyring
#   bash Scripts/git-credential-t0303.sh /path/to/git [file|secret-service|etcd …]
#
# Exits non-zero when any store's run fails.
set -euo pipefail
if [ $# -lt 1 ] || [ ! -f "$1/t/t0303-credential-external.sh" ]; then
    echo "usage: $0 GIT-SOURCE-DIR [file|secret-service|etcd …]" >&2
    exit 64
fi
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
source_dir=$(cd "$1" && pwd)
shift
stores=("$@")
[ ${#stores[@]} -gt 0 ] || stores=(file secret-service etcd)
bin=$(cd "$root" && swift build --show-bin-path)
[ -x "$bin/git-credential-swift-keyring" ] || { echo "$0: build the helper first (swift build)" >&2; exit 70; }

if [ ! -x "$source_dir/git" ] || [ ! -x "$source_dir/t/helper/test-tool" ]; then
    make -C "$source_dir" -j"$(nproc)" NO_RUST=YesPlease NO_CURL=1 NO_OPENSSL=1 NO_EXPAT=1 NO_GETTEXT=1 \
        NO_PERL=1 NO_PYTHON=1 NO_TCLTK=1 all >&2
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/swift-keyring-t0303.XXXXXX")
trap 'rm -rf "$work"' EXIT
chmod 700 "$work"
head -c 32 /dev/urandom >"$work/key"
chmod 600 "$work/key"

status=0
for store in "${stores[@]}"; do
    echo "== t0303 on $store" >&2
    # The helper is found on PATH as git finds it for credential.helper=swift-keyring.
    env=(PATH="$bin:$PATH" GIT_TEST_CREDENTIAL_HELPER=swift-keyring SWIFT_KEYRING_BACKEND="$store")
    case "$store" in
        file)
            (cd "$source_dir/t" && env "${env[@]}" SWIFT_KEYRING_FILE="$work/file/keyring.skr" \
                SWIFT_KEYRING_KEY_FILE="$work/key" ./t0303-credential-external.sh) || status=1 ;;
        secret-service)
            (cd "$source_dir/t" && env "${env[@]}" bash "$here/with-secret-service.sh" \
                ./t0303-credential-external.sh) || status=1 ;;
        etcd)
            (cd "$source_dir/t" && env "${env[@]}" SWIFT_KEYRING_KEY_FILE="$work/key" SWIFT_KEYRING_ETCD_PREFIX=t0303/ \
                bash "$here/with-etcd.sh" bash -c \
                'SWIFT_KEYRING_ETCD_ENDPOINTS=$SWIFT_KEYRING_TEST_ETCD_ENDPOINTS exec ./t0303-credential-external.sh') ||
                status=1 ;;
        *) echo "$0: unknown store $store" >&2; exit 64 ;;
    esac
done
exit $status
