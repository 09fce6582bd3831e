#!/usr/bin/env bash
# Builds the mock unlock prompter the prompt tests run (Tests/MockPrompter) into
# .build/mock-prompter/ (or the folder given), and prints the binary's path. It
# is not a SwiftPM target, so library users never need gcr.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
exec bash "$root/Scripts/build-c-test-program.sh" "$root/Tests/MockPrompter/mock-prompter.c" gcr-base-3 \
    "${1:-$root/.build/mock-prompter}"
