#!/usr/bin/env bash
# The README's test command: installs what is missing, then runs the whole
# suite inside a private Secret Service (see Scripts/with-secret-service.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
bash Scripts/setup.sh
swift build --build-tests
bash Scripts/with-secret-service.sh swift test --skip-build "$@"
