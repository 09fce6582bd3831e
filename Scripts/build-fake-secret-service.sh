#!/usr/bin/env bash
# Builds the fake Secret Service the misbehaving-daemon tests start
# (Tests/FakeSecretService) into .build/fake-secret-service/ (or the folder
# given), and prints the binary's path.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
exec bash "$root/Scripts/build-c-test-program.sh" "$root/Tests/FakeSecretService/fake-secret-service.c" gio-2.0 \
    "${1:-$root/.build/fake-secret-service}"
