#!/usr/bin/env bash
# Builds the DocC documentation of SwiftKeyring, KeyringSession, KeyringAuthentication,
# KeyringValidation, KeyringEtcd and KeyringTestKit, failing on any warning (an
# unresolved symbol link, a missing article). SWIFT_KEYRING_DOCS
# adds swift-docc-plugin to the package for this build only (see Package.swift).
# The archives land in .build/plugins/Swift-DocC/outputs/.
set -euo pipefail
cd "$(dirname "$0")/.."
bash Scripts/setup.sh
SWIFT_KEYRING_DOCS=1 swift package --disable-sandbox generate-documentation \
    --target SwiftKeyring --target KeyringSession --target KeyringAuthentication \
    --target KeyringValidation --target KeyringEtcd --target KeyringTestKit --warnings-as-errors "$@"
