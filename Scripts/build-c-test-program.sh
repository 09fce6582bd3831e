#!/usr/bin/env bash
# Builds one of the small C programs the tests start (not SwiftPM targets: only
# the tests need them), with cc and pkg-config, when the binary is missing or
# older than its source, and prints the binary's path. A module of `-` is none: the
# program needs only libc and the kernel's headers.
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
    flags=""
    if [ "$module" != "-" ]; then flags=$(pkg-config --cflags --libs "$module"); fi
    # shellcheck disable=SC2086 # pkg-config prints several words on purpose
    cc -std=gnu11 -O1 -Wall -Werror -o "$temporary" "$source" $flags
    mv "$temporary" "$binary"
fi
echo "$binary"
