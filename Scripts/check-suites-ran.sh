#!/usr/bin/env bash
# Checks that a pass of Scripts/test.sh ran the suites it names: reads the XUnit file
# Swift Testing wrote (`swift test --xunit-output FILE` writes FILE's name with
# `-swift-testing` before `.xml`), and fails when a named suite ran no test, a test
# that was skipped not counting as run. Silent when all is well, so that the run's
# last line stays swift test's own; otherwise it prints, on standard error, each
# named suite's counts, what is wrong, and the run's total.
#
#   Scripts/check-suites-ran.sh RESULTS.xml LABEL [MODULE.SUITE…]
#
# With no suite named, it fails only when the run ran no test at all. A pass whose
# `swift test` died before writing its results fails here too: no file, no tests.
# Exits 0 when every named suite ran, 1 otherwise, 64 on wrong usage.
set -euo pipefail

if [ $# -lt 2 ]; then
    echo "usage: $0 RESULTS.xml LABEL [MODULE.SUITE…]" >&2
    exit 64
fi
results=$1 label=$2
shift 2
if [ ! -s "$results" ]; then
    echo "$0: $label: no test results at $results (swift test ended before writing them)" >&2
    exit 1
fi
python3 - "$results" "$label" "$@" <<'PY'
import sys
import xml.etree.ElementTree as ET

path, label, suites = sys.argv[1], sys.argv[2], sys.argv[3:]
try:
    cases = ET.parse(path).getroot().iter("testcase")
except ET.ParseError as error:
    sys.exit(f"{label}: the test results at {path} cannot be read: {error}")
ran, skipped = {}, {}
for case in cases:
    suite = case.get("classname", "")
    counts = skipped if case.find("skipped") is not None else ran
    counts[suite] = counts.get(suite, 0) + 1
lines, failed = [], False
for suite in suites:
    lines.append(f"{label}: {suite}: {ran.get(suite, 0)} tests ran, {skipped.get(suite, 0)} skipped")
    if ran.get(suite, 0) == 0:
        lines.append(f"{label}: {suite} ran no test: the pass does not test what it names")
        failed = True
total, total_skipped = sum(ran.values()), sum(skipped.values())
lines.append(f"{label}: {total} tests ran, {total_skipped} skipped, in {len(ran)} suites")
if total == 0:
    lines.append(f"{label}: no test ran")
    failed = True
if failed:
    print("\n".join(lines), file=sys.stderr)
sys.exit(1 if failed else 0)
PY
