#!/usr/bin/env bash
# Builds one of the small C programs the tests start (not SwiftPM targets: only
# the tests need them), with cc and pkg-config, when the binary is missing or
# older than its source, and prints the binary's path.
#   build-c-test-program.sh SOURCE PKG-CONFIG-MODULE OUT-FOLDER
set -euo pipefail
source=$1
module=$2
out=$3
mkdir -p "$out"
binary="$out/$(basename "$source" .c)"
if [ ! -x "$binary" ] || [ "$source" -nt "$binary" ]; then
    # A name of this process's own: tests building at once do not share a half-written file.
    temporary="$binary.$$.tmp"
    # shellcheck disable=SC2046 # pkg-config prints several words on purpose
    cc -std=gnu11 -O1 -Wall -Werror -o "$temporary" "$source" $(pkg-config --cflags --libs "$module")
    mv "$temporary" "$binary"
fi
echo "$binary"
