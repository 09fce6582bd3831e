#!/usr/bin/env bash
# Builds the fake Secret Service the misbehaving-daemon tests start
# (Tests/FakeSecretService), with cc and pkg-config, into
# .build/fake-secret-service/ (or the folder given), and prints the binary's
# path. It is not a SwiftPM target: only these tests need it.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="${1:-$root/.build/fake-secret-service}"
mkdir -p "$out"
source="$root/Tests/FakeSecretService/fake-secret-service.c"
binary="$out/fake-secret-service"
if [ ! -x "$binary" ] || [ "$source" -nt "$binary" ]; then
    # A name of this process's own: tests building at once do not share a half-written file.
    temporary="$binary.$$.tmp"
    # shellcheck disable=SC2046 # pkg-config prints several words on purpose
    cc -std=gnu11 -O1 -Wall -Werror -o "$temporary" "$source" $(pkg-config --cflags --libs gio-2.0)
    mv "$temporary" "$binary"
fi
echo "$binary"
