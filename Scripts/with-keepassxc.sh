#!/usr/bin/env bash
# Runs a command inside a private Secret Service served by KeePassXC: a new
# D-Bus session bus (dbus-run-session), a throwaway HOME, and KeePassXC running
# headless on a throwaway database whose root group is exposed as the default
# collection, unlocked from standard input. Nothing touches the caller's own
# keyring or KeePassXC.
#
#   Scripts/with-keepassxc.sh swift test --filter 'Store conformance'
#
# Exits with the command's status. When KeePassXC cannot start, it says why and
# exits 70, so CI fails rather than running without it. When KeePassXC dies
# during the command, it prints its last words and the backtrace of its core,
# and exits 75, even when the command passed: a death is our failure until a
# backtrace proves otherwise, and the command is never run again.
set -euo pipefail

if [ $# -eq 0 ]; then
    echo "usage: $0 COMMAND [ARG…]" >&2
    exit 64
fi

if [ "${SWIFT_KEYRING_INSIDE_PRIVATE_SESSION:-}" != "1" ]; then
    for tool in dbus-run-session dbus-send keepassxc keepassxc-cli python3; do
        if ! command -v "$tool" >/dev/null; then
            echo "$0: $tool is missing; run Scripts/setup.sh first" >&2
            exit 70
        fi
    done
    . "$(dirname "$0")/private-session.sh"
    # A session bus that activates nothing (see write_quiet_bus_config).
    run_in_quiet_private_session keepassxc "$0" "$@"
fi

fail() {
    [ -n "${daemon:-}" ] && kill -9 "$daemon" 2>/dev/null
    echo "$0: KeePassXC did not start as an unlocked Secret Service: $1" >&2
    [ -s "${daemon_log:-}" ] && { echo "its log:" >&2; tail -n 20 "$daemon_log" >&2; }
    exit 70
}

# Inside the private bus. Headless: Qt draws off screen, and nothing may wait
# for a person: no notification, no tray icon, no confirmation before an item
# is read or deleted. (A confirmation dialog nobody sees would hang the call.)
# No saving after every change: KeePassXC 2.7.4 writes the database on a pool
# thread while D-Bus calls go on changing entries, and under many concurrent
# writes (the 16-thread conformance test) it crashed in QUuid::toRfc4122 on
# that thread, 3 runs of 3. The database is thrown away anyway. The other crash
# our clients met, two Deletes of one item racing (Collection::doDeleteEntry), is
# kept away by SecretServiceWriteLock; no death was seen in 48 lifetimes of 8 tool
# loops for 30 s each (issue 34), so a death now fails the run, with its backtrace.
export QT_QPA_PLATFORM=offscreen
mkdir -p "$XDG_CONFIG_HOME/keepassxc" "$HOME/db"
cat >"$XDG_CONFIG_HOME/keepassxc/keepassxc.ini" <<'INI'
[General]
ConfigVersion=2
SingleInstance=false
RememberLastDatabases=false
RememberLastKeyFiles=false
UpdateCheckMessageShown=true
AutoSaveAfterEveryChange=false
AutoSaveOnExit=false
AutoSaveNonDataChanges=false

[GUI]
ShowTrayIcon=false
CheckForUpdates=false

[FdoSecrets]
Enabled=true
ShowNotification=false
ConfirmAccessItem=false
ConfirmDeleteItem=false
INI

# The database password is only for this throwaway database; it goes through
# pipes, never arguments, and never leaves this process tree.
password=$SWIFT_KEYRING_TEST_KEYRING_PASSWORD
unset SWIFT_KEYRING_TEST_KEYRING_PASSWORD
plain="$HOME/db/plain.kdbx"
database="$HOME/db/secrets.kdbx"
export_xml="$HOME/db/export.xml"
cli_log="$HOME/db/cli.log"
# -t 100 (the least it takes): a fast key derivation; the database lives as long as this run.
printf '%s\n%s\n' "$password" "$password" | keepassxc-cli db-create -q -p -t 100 "$plain" >"$cli_log" 2>&1 \
    || fail "keepassxc-cli db-create failed: $(tail -n 3 "$cli_log")"
printf '%s\n' "$password" | keepassxc-cli export -q -f xml "$plain" >"$export_xml" 2>>"$cli_log" \
    || fail "keepassxc-cli export failed: $(tail -n 3 "$cli_log")"

# KeePassXC serves a database's group as a collection (the first one becomes
# the default alias) when the database's custom data names the group's UUID,
# in braces, under FDO_SECRETS_EXPOSED_GROUP. The export writes UUIDs in base64.
python3 - "$export_xml" <<'PY' || fail "could not expose the root group in the exported XML"
import base64, sys, uuid
import xml.etree.ElementTree as ET

path = sys.argv[1]
tree = ET.parse(path)
root = tree.getroot()
group = root.find("./Root/Group/UUID")
meta = root.find("./Meta")
if group is None or meta is None:
    sys.exit("no root group or no Meta in the export")
exposed = "{" + str(uuid.UUID(bytes=base64.b64decode(group.text))) + "}"
custom = meta.find("CustomData")
if custom is None:
    custom = ET.SubElement(meta, "CustomData")
item = ET.SubElement(custom, "Item")
ET.SubElement(item, "Key").text = "FDO_SECRETS_EXPOSED_GROUP"
ET.SubElement(item, "Value").text = exposed
tree.write(path, encoding="UTF-8", xml_declaration=True)
PY
printf '%s\n%s\n' "$password" "$password" | keepassxc-cli import -q -p -t 100 "$export_xml" "$database" >>"$cli_log" 2>&1 \
    || fail "keepassxc-cli import failed: $(tail -n 3 "$cli_log")"
rm -f "$plain" "$export_xml"

daemon_log="$HOME/keepassxc.log"
# Cores on, in the throwaway HOME (where the kernel writes them): KeePassXC switches its
# own off at start, which keep-cores.c (preloaded) undoes, so a death leaves a backtrace.
keep_cores="$HOME/keep-cores.so"
preload=""
if cc -shared -fPIC -O2 -o "$keep_cores" "$(dirname "$0")/keepassxc/keep-cores.c" -ldl 2>>"$cli_log"; then
    preload=$keep_cores
else
    echo "$0: keepassxc/keep-cores.c did not build (see $cli_log): a death will leave no core" >&2
fi
# The subshell is the pipeline's last part, so $! is its pid, and it becomes keepassxc's.
printf '%s\n' "$password" | (
    cd "$HOME"
    ulimit -c unlimited 2>/dev/null || true
    LD_PRELOAD=$preload exec keepassxc --pw-stdin "$database"
) >"$daemon_log" 2>&1 &
daemon=$!
unset password

. "$(dirname "$0")/secret-service-ready.sh"
wait_for_secret_service_name "$daemon" 200 || fail "it never took the name org.freedesktop.secrets"
wait_for_unlocked_default_collection 200 || fail "its default collection never answered unlocked"

export SWIFT_KEYRING_PRIVATE_SECRET_SERVICE=1
export SWIFT_KEYRING_TEST_DAEMON=keepassxc
# Watched: a KeePassXC that dies mid-run stops the command two minutes later.
. "$(dirname "$0")/watched-command.sh"
run_watched_command KeePassXC "$daemon" "$@"
if ! kill -0 "$daemon" 2>/dev/null; then
    wait "$daemon" || daemon_status=$?
    echo "$0: keepassxc exited during the run (status ${daemon_status:-0}); the end of its log:" >&2
    grep -v '^$' "$daemon_log" | tail -n 20 >&2 || true
    core=$(find "$HOME" -maxdepth 1 -name 'core*' -type f 2>/dev/null | head -n 1)
    if [ -n "$core" ] && command -v gdb >/dev/null; then
        echo "keepassxc's backtrace, from $core:" >&2
        gdb -batch -nx -ex 'thread apply all bt' "$(command -v keepassxc)" "$core" 2>&1 | grep -v '^\[New LWP' >&2 || true
    else
        echo "(no core file of keepassxc in its folder, or no gdb: no backtrace)" >&2
    fi
    # Whatever the command said: its later tests may have passed without the daemon
    # (or failed for it), and a death during a passing run must fail the run too.
    status=75
else
    # KeePassXC may ignore SIGTERM while a dialog nobody sees is open; it gets
    # three seconds, then SIGKILL, so the run always ends.
    kill "$daemon" 2>/dev/null || true
    for _ in $(seq 1 30); do
        kill -0 "$daemon" 2>/dev/null || break
        sleep 0.1
    done
    kill -9 "$daemon" 2>/dev/null || true
    wait "$daemon" 2>/dev/null || true
fi
exit "$status"
