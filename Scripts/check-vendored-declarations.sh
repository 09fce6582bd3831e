#!/usr/bin/env bash
# Checks that Sources/CLibSecret's declarations are the real headers' (libsecret-1-dev):
# every prototype of CLibSecretFunctions.h compiled after the real one (a difference is a
# "conflicting types" error), and every mirrored constant, struct size and field offset
# compared (Scripts/vendored-declarations/checked.h lists them).
set -euo pipefail
cd "$(dirname "$0")/.."
folder=Scripts/vendored-declarations
include=Sources/CLibSecret/include
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
compiler=${CC:-cc}
# shellcheck disable=SC2046 # pkg-config's flags are words
"$compiler" -std=c11 -Wall -Werror -I "$include" $(pkg-config --cflags libsecret-1) \
    "$folder/real.c" -o "$work/real"
"$work/real" > "$work/expected.h"
"$compiler" -std=c11 -Wall -Werror -fsyntax-only -I "$include" -I "$work" \
    "$folder/vendored.c"
echo "CLibSecret's declarations match the installed libsecret and GLib headers."
