#!/usr/bin/env bash
# Runs a command inside a private Secret Service: a new D-Bus session bus
# (dbus-run-session), a throwaway HOME, and a gnome-keyring-daemon whose login
# keyring is created and unlocked from standard input. Nothing touches the
# caller's own keyring.
#
# The daemon's unlock prompts go to a mock prompter (Tests/MockPrompter, built
# by Scripts/build-mock-prompter.sh) that never answers, in place of a desktop's
# prompter; the command finds the prompter's binary in SWIFT_KEYRING_MOCK_PROMPTER,
# for the prompt tests that start their own daemon with scripted answers.
#
#   Scripts/with-secret-service.sh swift test
#   SWIFT_KEYRING_TEST_BUS=dbus-broker Scripts/with-secret-service.sh swift test   # the bus is dbus-broker
#
# Exits with the command's status. When the daemon cannot start, it says why
# and exits 70, so CI fails rather than running without it. When the daemon
# dies during the command, it prints the daemon's last words and exits 75,
# even when the command passed: the bus starts a new daemon on the next call,
# so tests after a crash can pass and hide it. A command still running two
# minutes after the daemon died is stopped (Scripts/watched-command.sh).
set -euo pipefail

if [ $# -eq 0 ]; then
    echo "usage: $0 COMMAND [ARG…]" >&2
    exit 64
fi

if [ "${SWIFT_KEYRING_INSIDE_PRIVATE_SESSION:-}" != "1" ]; then
    for tool in dbus-run-session dbus-update-activation-environment gnome-keyring-daemon cc pkg-config; do
        if ! command -v "$tool" >/dev/null; then
            echo "$0: $tool is missing; run Scripts/setup.sh first" >&2
            exit 70
        fi
    done
    if ! mock_prompter=$(bash "$(dirname "$0")/build-mock-prompter.sh"); then
        echo "$0: the mock prompter did not build (it needs libgcr-3-dev); run Scripts/setup.sh first" >&2
        exit 70
    fi
    throwaway=$(mktemp -d "${TMPDIR:-/tmp}/swift-keyring-home.XXXXXX")
    trap 'rm -rf "$throwaway"' EXIT
    . "$(dirname "$0")/private-session.sh"
    prepare_private_session "$throwaway"
    # The project's own folder stays the working directory; only HOME and the XDG folders move.
    status=0
    if [ "${SWIFT_KEYRING_TEST_BUS:-dbus-daemon}" = dbus-broker ]; then
        . "$(dirname "$0")/dbus-broker-session.sh"
        run_on_dbus_broker "$throwaway" env "${private_session_env[@]}" SWIFT_KEYRING_MOCK_PROMPTER="$mock_prompter" \
            "$0" "$@" || status=$?
    else
        env "${private_session_env[@]}" SWIFT_KEYRING_MOCK_PROMPTER="$mock_prompter" \
            dbus-run-session -- "$0" "$@" || status=$?
    fi
    exit $status
fi

# Inside the private bus: the prompter first, so the daemon knows where to send
# prompts. A daemon that D-Bus activation starts later (after a crash) does not
# inherit this shell's environment, so the bus's activation environment gets
# the name too.
prompter_log="$HOME/mock-prompter.log"
"$SWIFT_KEYRING_MOCK_PROMPTER" 0 </dev/null >"$prompter_log" 2>&1 &
prompter=$!
trap 'kill "$prompter" 2>/dev/null || true' EXIT
for _ in $(seq 1 100); do
    GNOME_KEYRING_TEST_PROMPTER=$(grep -m1 '^:' "$prompter_log" || true)
    [ -n "$GNOME_KEYRING_TEST_PROMPTER" ] && break
    kill -0 "$prompter" 2>/dev/null || break
    sleep 0.1
done
if [ -z "$GNOME_KEYRING_TEST_PROMPTER" ]; then
    echo "$0: the mock prompter did not start; its output:" >&2
    cat "$prompter_log" >&2 || true
    exit 70
fi
export GNOME_KEYRING_TEST_PROMPTER
if ! dbus-update-activation-environment GNOME_KEYRING_TEST_PROMPTER; then
    echo "$0: could not pass the prompter's name to the bus's activation environment" >&2
    exit 70
fi

# Then the daemon, unlocked from stdin.
# The password is only for this throwaway keyring; it never leaves this process tree.
# --foreground rather than --daemonize: a daemonized gnome-keyring sends its
# messages to syslog, where a container has nobody listening, and if it aborts
# mid-run its last words are what tells us why.
daemon_log="$HOME/gnome-keyring.log"
printf '%s' "$SWIFT_KEYRING_TEST_KEYRING_PASSWORD" \
    | gnome-keyring-daemon --foreground --unlock --components=secrets >/dev/null 2>"$daemon_log" &
daemon=$!

# The first tests must not race the daemon's set-up.
. "$(dirname "$0")/secret-service-ready.sh"
if ! wait_for_secret_service_name "$daemon" 100 || ! wait_for_unlocked_default_collection 100; then
    echo "$0: gnome-keyring-daemon did not start with an unlocked login keyring; its log:" >&2
    cat "$daemon_log" >&2 || true
    exit 70
fi
unset SWIFT_KEYRING_TEST_KEYRING_PASSWORD
export SWIFT_KEYRING_PRIVATE_SECRET_SERVICE=1
# The command runs beside a watch on the daemon: once it dies, the bus starts a new one whose
# login keyring is locked, and every later call waits out an unlock prompt nobody answers
# (two minutes each, an hour or more for a whole pass), so the command is stopped instead.
. "$(dirname "$0")/watched-command.sh"
run_watched_command gnome-keyring-daemon "$daemon" "$@"
. "$(dirname "$0")/activated-portals.sh"
stop_activated_portals
if ! kill -0 "$daemon" 2>/dev/null; then
    # A daemon that died mid-run turns every later Secret Service call into a
    # failure; say so plainly rather than leave it to be guessed from them.
    wait "$daemon" || daemon_status=$?
    echo "$0: gnome-keyring-daemon exited during the run (status ${daemon_status:-0}); the end of its log:" >&2
    grep -v "already registered" "$daemon_log" | grep -v '^$' | tail -n 20 >&2 || true
    status=75
else
    kill "$daemon" 2>/dev/null || true
fi
exit "$status"
