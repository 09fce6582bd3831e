#!/usr/bin/env bash
# Builds the mock unlock prompter the prompt tests run (Tests/MockPrompter), with
# cc and pkg-config, into .build/mock-prompter/ (or the folder given), and prints
# the binary's path. It is not a SwiftPM target, so library users never need gcr.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="${1:-$root/.build/mock-prompter}"
mkdir -p "$out"
source="$root/Tests/MockPrompter/mock-prompter.c"
binary="$out/mock-prompter"
if [ ! -x "$binary" ] || [ "$source" -nt "$binary" ]; then
    # shellcheck disable=SC2046 # pkg-config prints several words on purpose
    cc -std=gnu11 -O1 -Wall -Werror -o "$binary.tmp" "$source" $(pkg-config --cflags --libs gcr-base-3)
    mv "$binary.tmp" "$binary"
fi
echo "$binary"
