#!/usr/bin/env bash
# Peak resident memory of one whole process, in bytes: the figure issue 43 holds `get` to.
#
#   bash Benchmarks/Compare/peak-memory.sh COMMAND [ARGUMENT…]
#
# GNU time's "maximum resident set size" (%M, the kernel's ru_maxrss; /proc's VmHWM at exit),
# standard input, output and error on /dev/null. The spawner is GNU time, under 1 MB, not a
# script interpreter: Linux carries the spawner's own peak across fork and exec into the child's
# figure. A command that exits with anything but 0 gives no figure and fails the script. Point
# it at a hostile bus as at an ordinary daemon: the environment (DBUS_SESSION_BUS_ADDRESS)
# says which bus the command talks to.
set -euo pipefail
[ $# -gt 0 ] || { echo "usage: $0 COMMAND [ARGUMENT…]" >&2; exit 64; }
report=$(mktemp "${TMPDIR:-/tmp}/swift-keyring-peak.XXXXXX")
trap 'rm -f "$report"' EXIT
status=0
/usr/bin/time -f %M -o "$report" "$@" </dev/null >/dev/null 2>&1 || status=$?
[ "$status" = 0 ] || { echo "$0: $* exited with $status" >&2; exit 1; }
echo $(($(tail -n1 "$report") * 1024))
