# Sourced by Scripts/with-secret-service.sh when SWIFT_KEYRING_TEST_BUS=dbus-broker:
# a private session bus run by dbus-broker rather than dbus-daemon, for the pass
# that runs the Secret Service suites on a second bus implementation (dbus-broker
# drops method returns nobody asked for, which dbus-daemon's session policy
# delivers; ignores eavesdropping; activates nothing without systemd).
#
# Without systemd, dbus-broker-launch needs its listening socket as fd 3 (which
# systemd-socket-activate hands it), a session bus address naming that socket
# (it connects back as a client of "the user bus"), and a journal socket to log
# to. Where none listens at /run/systemd/journal/socket, a throwaway listener is
# bound there for the run and removed after (this needs root, as the tests run).

# Runs COMMAND… with DBUS_SESSION_BUS_ADDRESS on a new dbus-broker inside
# THROWAWAY (a folder of the caller's, with runtime/ in it), then stops the broker.
# Exits 70 when the broker cannot start.
run_on_dbus_broker() {
    local throwaway=$1
    shift
    local socket="$throwaway/broker-bus" journal=/run/systemd/journal/socket journal_listener="" broker status=0
    for tool in dbus-broker-launch systemd-socket-activate python3; do
        if ! command -v "$tool" >/dev/null; then
            echo "$0: $tool is missing; run Scripts/setup.sh first" >&2
            exit 70
        fi
    done
    # A listener of its own only where nobody listens: a journald is left alone, and a socket
    # left behind by an earlier run (its listener gone) is replaced.
    mkdir -p "$(dirname "$journal")"
    python3 -c '
import os, socket, sys
path = sys.argv[1]
probe = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
try:
    probe.connect(path)
    print("taken", flush=True)
    sys.exit(0)
except OSError:
    pass
try:
    os.unlink(path)
except FileNotFoundError:
    pass
listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
listener.bind(path)
print("ready", flush=True)
while True:
    listener.recv(65536)
' "$journal" >"$throwaway/journal.out" 2>&1 &
    journal_listener=$!
    for _ in $(seq 1 50); do
        grep -q 'ready\|taken' "$throwaway/journal.out" 2>/dev/null && break
        sleep 0.1
    done
    grep -q ready "$throwaway/journal.out" 2>/dev/null || journal_listener=""
    systemd-socket-activate -E XDG_RUNTIME_DIR="$throwaway/runtime" -E DBUS_SESSION_BUS_ADDRESS="unix:path=$socket" \
        -l "$socket" dbus-broker-launch --scope user --config-file /usr/share/dbus-1/session.conf \
        >"$throwaway/broker.log" 2>&1 &
    broker=$!
    local answered=no
    for _ in $(seq 1 100); do
        if [ -S "$socket" ] && DBUS_SESSION_BUS_ADDRESS="unix:path=$socket" dbus-send --session --print-reply \
            --reply-timeout=1000 --dest=org.freedesktop.DBus /org/freedesktop/DBus org.freedesktop.DBus.GetId \
            >/dev/null 2>&1; then
            answered=yes
            break
        fi
        kill -0 "$broker" 2>/dev/null || break
        sleep 0.1
    done
    if [ "$answered" != yes ]; then
        echo "$0: dbus-broker did not start; its log:" >&2
        cat "$throwaway/broker.log" >&2 || true
        kill "$broker" 2>/dev/null || true
        [ -z "$journal_listener" ] || { kill "$journal_listener" 2>/dev/null; rm -f "$journal"; }
        exit 70
    fi
    echo "$0: the session bus is dbus-broker ($(dbus-broker --version 2>/dev/null | head -n 1 || echo 'version unknown'))" >&2
    DBUS_SESSION_BUS_ADDRESS="unix:path=$socket" SWIFT_KEYRING_TEST_BUS_IMPLEMENTATION=dbus-broker "$@" || status=$?
    kill "$broker" 2>/dev/null || true
    wait "$broker" 2>/dev/null || true
    if [ -n "$journal_listener" ]; then
        kill "$journal_listener" 2>/dev/null || true
        rm -f "$journal"
    fi
    return "$status"
}
