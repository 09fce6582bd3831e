#!/usr/bin/env bash
# Runs a command inside a private Secret Service served by KWallet (kwalletd5):
# a new D-Bus session bus that activates nothing (dbus-run-session), a throwaway
# HOME, and kwalletd5 running headless on a throwaway wallet, opened without a
# dialog the way pam_kwallet5 opens it at login. Nothing touches the caller's
# own wallet or keyring.
#
#   Scripts/with-kwallet.sh swift test --filter 'Store conformance'
#
# Exits with the command's status. When kwalletd5 cannot start, it says why and
# exits 70, so CI fails rather than running without it. When kwalletd5 dies
# during the command, it prints its last words and exits 75, even when the
# command passed.
set -euo pipefail

if [ $# -eq 0 ]; then
    echo "usage: $0 COMMAND [ARG…]" >&2
    exit 64
fi

if [ "${SWIFT_KEYRING_INSIDE_PRIVATE_SESSION:-}" != "1" ]; then
    for tool in dbus-run-session dbus-send kwalletd5 python3; do
        if ! command -v "$tool" >/dev/null; then
            echo "$0: $tool is missing; run Scripts/setup.sh first" >&2
            exit 70
        fi
    done
    . "$(dirname "$0")/private-session.sh"
    # A session bus that activates nothing (see write_quiet_bus_config): Debian ships
    # no activation file for org.freedesktop.secrets with kwalletd5, but gnome-keyring's
    # would start it in KWallet's place.
    run_in_quiet_private_session kwallet "$0" "$@"
fi

fail() {
    [ -n "${daemon:-}" ] && kill -9 "$daemon" 2>/dev/null
    echo "$0: kwalletd5 did not start as an open Secret Service: $1" >&2
    [ -s "${daemon_log:-}" ] && { echo "its log:" >&2; grep -v '^$' "$daemon_log" | tail -n 20 >&2; }
    exit 70
}

# Inside the private bus. Headless: Qt draws off screen. The wallet is enabled,
# opened at login without asking, and never closed for being idle (a closed
# wallet would ask for its password in a dialog nobody sees).
export QT_QPA_PLATFORM=offscreen
mkdir -p "$XDG_CONFIG_HOME"
cat >"$XDG_CONFIG_HOME/kwalletrc" <<'INI'
[Wallet]
Enabled=true
First Use=false
Prompt on Open=false
Close When Idle=false
Leave Open=true
Default Wallet=kdewallet

[org.freedesktop.secrets]
apiEnabled=true
INI

# kwalletd5 --pam-login HASHFD ENVFD, as pam_kwallet5 starts it: the wallet's key
# (56 bytes: PBKDF2-HMAC-SHA512 of the password over the wallet's salt file, as
# pam_kwallet5 derives it) on a pipe, and the session's environment on a
# listening AF_UNIX socket, one NAME=value line per variable on the connection
# it accepts. Both are written before kwalletd5 runs (a pipe and a listen queue
# hold them), then this process becomes kwalletd5, so its pid is the daemon's.
# The password comes from the environment, never an argument, and is not passed on.
launch='
import hashlib, os, socket
password = os.environ.pop("SWIFT_KEYRING_TEST_KEYRING_PASSWORD").encode()
folder = os.path.join(os.environ["XDG_DATA_HOME"], "kwalletd")
os.makedirs(folder, mode=0o700, exist_ok=True)
salt_path = os.path.join(folder, "kdewallet.salt")
if not os.path.exists(salt_path):
    with open(os.open(salt_path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "wb") as salt_file:
        salt_file.write(os.urandom(56))
with open(salt_path, "rb") as salt_file:
    salt = salt_file.read()
key = hashlib.pbkdf2_hmac("sha512", password, salt, 50000, 56)
read_end, write_end = os.pipe()
os.write(write_end, key)
os.close(write_end)
path = os.path.join(os.environ["XDG_RUNTIME_DIR"], "kwallet5.socket")
if os.path.exists(path):
    os.unlink(path)
listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
listener.bind(path)
listener.listen(1)
sender = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
sender.connect(path)
sender.sendall(("DBUS_SESSION_BUS_ADDRESS=" + os.environ["DBUS_SESSION_BUS_ADDRESS"] + "\n").encode())
sender.close()
os.set_inheritable(read_end, True)
os.set_inheritable(listener.fileno(), True)
os.environ["PAM_KWALLET5_LOGIN"] = "1"
os.execvp("kwalletd5", ["kwalletd5", "--pam-login", str(read_end), str(listener.fileno())])
'

daemon_log="$HOME/kwalletd5.log"
. "$(dirname "$0")/secret-service-ready.sh"

# Starts kwalletd5 on the wallet in the background; its pid in $daemon. It runs in
# the throwaway HOME with core dumps on, so that a death leaves a core there for
# the backtrace below (where the kernel writes cores into the working directory).
start_kwalletd() {
    (
        cd "$HOME"
        ulimit -c unlimited 2>/dev/null || true
        SWIFT_KEYRING_TEST_KEYRING_PASSWORD=$password exec python3 -c "$launch"
    ) </dev/null >>"$daemon_log" 2>&1 &
    daemon=$!
}

# Prints the backtrace of every thread in kwalletd5's core, when it left one and gdb is here.
print_backtrace() {
    local core
    core=$(find "$HOME" -maxdepth 1 -name 'core*' -type f 2>/dev/null | head -n 1)
    if [ -z "$core" ] || ! command -v gdb >/dev/null; then
        echo "(no core file of kwalletd5 in its folder, or no gdb: no backtrace)" >&2
        return
    fi
    echo "kwalletd5's backtrace, from $core:" >&2
    gdb -batch -nx -ex 'thread apply all bt' "$(command -v kwalletd5)" "$core" 2>&1 | grep -v '^\[New LWP' >&2 || true
}

# Stops kwalletd5 and waits for it to end, within three seconds, then kills it.
stop_kwalletd() {
    kill "$daemon" 2>/dev/null || true
    for _ in $(seq 1 30); do
        kill -0 "$daemon" 2>/dev/null || break
        sleep 0.1
    done
    kill -9 "$daemon" 2>/dev/null || true
    wait "$daemon" 2>/dev/null || true
}

# Unlocks the default collection: Service.Unlock, then the prompt it returns is shown
# (it completes without a dialog on an open wallet), then Locked is read until false.
unlock_collection() {
    local collection reply prompt
    collection=$(dbus-send --session --print-reply --dest=org.freedesktop.secrets /org/freedesktop/secrets \
        org.freedesktop.Secret.Service.ReadAlias string:default | sed -n 's/^ *object path "\(.*\)"$/\1/p')
    [ -n "$collection" ] || return 1
    reply=$(dbus-send --session --print-reply --dest=org.freedesktop.secrets /org/freedesktop/secrets \
        org.freedesktop.Secret.Service.Unlock "array:objpath:$collection") || return 1
    prompt=$(printf '%s\n' "$reply" | sed -n 's/^ *object path "\(\/org\/freedesktop\/secrets\/prompt\/[^"]*\)"$/\1/p')
    if [ -n "$prompt" ]; then
        dbus-send --session --print-reply --dest=org.freedesktop.secrets "$prompt" \
            org.freedesktop.Secret.Prompt.Prompt string: >/dev/null || return 1
    fi
    wait_for_unlocked_default_collection 100
}

password=$SWIFT_KEYRING_TEST_KEYRING_PASSWORD
unset SWIFT_KEYRING_TEST_KEYRING_PASSWORD
# kwalletd5 outlives its session bus (seen here: three left running after their
# dbus-run-session ended), so whatever ends this script ends it too.
trap 'kill -9 "${daemon:-}" 2>/dev/null || true' EXIT

# A new wallet serves nothing on its first start: kwalletd5 creates it, owns the
# name, and then waits on a dialog nobody sees. Stopped and started again on the
# same files, it opens the wallet and serves the Secret Service.
start_kwalletd
wait_for_secret_service_name "$daemon" 200 || fail "its first start (creating the wallet) never took the name org.freedesktop.secrets"
wallet_file="$XDG_DATA_HOME/kwalletd/kdewallet.kwl"
for _ in $(seq 1 200); do
    [ -s "$wallet_file" ] && break
    kill -0 "$daemon" 2>/dev/null || fail "it exited on its first start, before writing the new wallet"
    sleep 0.1
done
[ -s "$wallet_file" ] || fail "its first start never wrote the new wallet ($wallet_file)"
stop_kwalletd
echo "--- second start ---" >>"$daemon_log"
start_kwalletd
unset password
wait_for_secret_service_name "$daemon" 200 || fail "it never took the name org.freedesktop.secrets"
wait_for_default_collection 200 || fail "the default alias never named a collection"
# Its collection reads as locked until a client asks to unlock it, even with the
# wallet open; that unlock needs no person (the prompt opens an open wallet). It is
# done here, as a desktop's first client does it, unless SWIFT_KEYRING_KWALLET_LOCKED=1
# asks for the collection as pam_kwallet5 leaves it at login (CLIKWalletLoginTests):
# of clients unlocking at once, kwalletd5 5.103 loses all prompts but one, and
# secret-tool, which the suites use to plant items, then fails.
if [ "${SWIFT_KEYRING_KWALLET_LOCKED:-}" != "1" ]; then
    unlock_collection || fail "its collection did not unlock"
fi

export SWIFT_KEYRING_PRIVATE_SECRET_SERVICE=1
export SWIFT_KEYRING_TEST_DAEMON=kwallet
# Watched: a kwalletd5 that dies mid-run stops the command two minutes later.
. "$(dirname "$0")/watched-command.sh"
run_watched_command kwalletd5 "$daemon" "$@"
if ! kill -0 "$daemon" 2>/dev/null; then
    # A daemon that died mid-run is a failure even when the command passed: nothing
    # restarts it here, but its death is ours until a backtrace proves otherwise.
    wait "$daemon" || daemon_status=$?
    echo "$0: kwalletd5 exited during the run (status ${daemon_status:-0}); the end of its log:" >&2
    grep -v '^$' "$daemon_log" | tail -n 20 >&2 || true
    print_backtrace
    status=75
else
    stop_kwalletd
fi
exit "$status"
