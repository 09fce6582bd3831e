#!/usr/bin/env bash
# The README's first command: installs what is missing, builds the swift-keyring
# tool, and runs its main job on the embedded default store, the encrypted file,
# in a throwaway folder with a throwaway passphrase: store a credential from a
# pipe, read it, list, remove.
set -euo pipefail
cd "$(dirname "$0")/.."
bash Scripts/setup.sh
swift build --quiet --product swift-keyring
tool="$(swift build --show-bin-path)/swift-keyring"

demo=$(mktemp -d "${TMPDIR:-/tmp}/swift-keyring-demo.XXXXXX")
trap 'rm -rf "$demo"' EXIT
export SWIFT_KEYRING_BACKEND=file
export SWIFT_KEYRING_FILE="$demo/keyring/keyring.skr"
# A passphrase for this throwaway file only; it is never printed.
SWIFT_KEYRING_PASSPHRASE="demo-$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')"
export SWIFT_KEYRING_PASSPHRASE

# Shows each command as a person would type it, then runs it.
run() {
    printf '\n$ swift-keyring %s\n' "$*"
    "$tool" "$@"
}

printf '$ printf %%s "correct horse battery staple" | swift-keyring set github --username alice --url https://github.com --sync\n'
printf '%s' "correct horse battery staple" | "$tool" set github --username alice --url https://github.com --sync
run get github
run get github --json
run list
run doctor
run remove github
run list
printf '\nThe keyring file was %s (mode %s); the demo folder is removed on exit.\n' \
    "$SWIFT_KEYRING_FILE" "$(stat -c %a "$SWIFT_KEYRING_FILE")"
