#!/usr/bin/env bash
# Writes docs/man/swift-keyring.1 from the tool's own argument parser with
# swift-argument-parser's generate-manual (the tool behind its GenerateManual plugin), so
# the page lists exactly the subcommands and options the tool accepts. Run it after
# changing a command's options or help, and commit the page: `man ./docs/man/swift-keyring.1`.
#
# Why not `swift package generate-manual`: the plugin runs the generator on every
# executable that depends on ArgumentParser, even through another module, and
# git-credential-swift-keyring (which speaks git's protocol, not ArgumentParser's) makes
# it stop before it reaches swift-keyring. So this builds the plugin's generator from the
# resolved swift-argument-parser and runs it on swift-keyring alone.
#
# The generator's page is then finished here (Scripts/manual-sections.py): its blank lines become
# paragraphs and its indented examples literal blocks (man printed an "Empty input line" warning
# for each, and wrapped or mangled the examples), and the sections a person looks for are added:
# ENVIRONMENT (every SWIFT_KEYRING_* variable the sources read; the script fails when one is
# missing), FILES, EXIT STATUS (every status of ExitStatus.swift) and SEE ALSO, as git's and
# secret-tool's pages have them. Check: MANWIDTH=80 man --warnings -l docs/man/swift-keyring.1.
#
# The page's date is that of the last commit to the tool's sources, so running this again
# on unchanged sources changes nothing. Arguments go to the generator (`--multi-page`, …).
set -euo pipefail
cd "$(dirname "$0")/.."
bash Scripts/setup.sh
swift package resolve
swift build --product swift-keyring
swift build --package-path .build/checkouts/swift-argument-parser --scratch-path .build/generate-manual \
    --product generate-manual
date=$(git log -1 --format=%cs -- Sources/swift-keyring Sources/KeyringCommandLine 2>/dev/null || true)
[ -n "$date" ] || date=$(date +%F)
mkdir -p docs/man
.build/generate-manual/debug/generate-manual "$(swift build --show-bin-path)/swift-keyring" \
    --date "$date" --output-directory docs/man "$@"
python3 Scripts/manual-sections.py docs/man/swift-keyring.1
echo "Wrote docs/man/swift-keyring.1"
