#!/usr/bin/env bash
# Runs COMMAND with a private container registry on loopback (Debian's docker-registry 2.8):
# TLS with a throwaway self-signed certificate for 127.0.0.1, htpasswd logins, a free port.
# Stops it and removes its folder afterwards.
#
#   bash Scripts/with-secret-service.sh bash Scripts/with-registry.sh swift test --skip-build --filter CLITests.DockerRegistry
#
# COMMAND sees SWIFT_KEYRING_TEST_REGISTRY (host:port, the server string the clients send),
# SWIFT_KEYRING_TEST_REGISTRY_USER and SWIFT_KEYRING_TEST_REGISTRY_PASSWORD (a login made for this
# run only), and SWIFT_KEYRING_TEST_REGISTRY_ROOT (a folder tests may use for throwaway files).
# When the registry cannot start, it says why and exits 70, so CI fails rather than skipping.
set -euo pipefail

if [ $# -eq 0 ]; then
    echo "usage: $0 COMMAND [ARG…]" >&2
    exit 64
fi
for tool in docker-registry htpasswd openssl curl python3; do
    if ! command -v "$tool" >/dev/null; then
        echo "$0: $tool is missing; run Scripts/setup.sh first" >&2
        exit 70
    fi
done

# Any step of the set-up that fails is the registry not starting: 70, never another status.
trap 'echo "$0: setting up the registry failed (line $LINENO)" >&2; exit 70' ERR
root=$(mktemp -d "${TMPDIR:-/tmp}/swift-keyring-registry.XXXXXX")
registry_pid=
cleanup() {
    if [ -n "$registry_pid" ]; then
        kill "$registry_pid" 2>/dev/null || true
        wait "$registry_pid" 2>/dev/null || true
    fi
    rm -rf "$root"
}
trap cleanup EXIT

user=alice
password=$(head -c 18 /dev/urandom | base64 | tr -d '/+=')
htpasswd -Bbn "$user" "$password" >"$root/htpasswd" 2>/dev/null
openssl req -x509 -newkey rsa:2048 -nodes -keyout "$root/key.pem" -out "$root/cert.pem" -days 2 \
    -subj /CN=127.0.0.1 -addext subjectAltName=IP:127.0.0.1 2>/dev/null

# A port nobody listens on now; the registry binds it a moment later, and a lost race fails the start below.
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
mkdir -p "$root/data"
cat >"$root/config.yml" <<YML
version: 0.1
log: {level: warn}
storage: {filesystem: {rootdirectory: $root/data}}
http: {addr: 127.0.0.1:$port, tls: {certificate: $root/cert.pem, key: $root/key.pem}}
auth: {htpasswd: {realm: swift-keyring-test, path: $root/htpasswd}}
YML
docker-registry serve "$root/config.yml" >"$root/registry.log" 2>&1 &
registry_pid=$!

# Up when /v2/ asks for a login (401) and lets the login in (200): both, so a stranger on the port is not taken for it.
ready=
for _ in $(seq 1 100); do
    if ! kill -0 "$registry_pid" 2>/dev/null; then break; fi
    anonymous=$(curl -sk -o /dev/null -w '%{http_code}' "https://127.0.0.1:$port/v2/" || true)
    if [ "$anonymous" = 401 ]; then
        logged_in=$(curl -sk -o /dev/null -w '%{http_code}' -u "$user:$password" "https://127.0.0.1:$port/v2/" || true)
        if [ "$logged_in" = 200 ]; then ready=1; break; fi
    fi
    sleep 0.1
done
if [ -z "$ready" ]; then
    echo "$0: docker-registry did not start on 127.0.0.1:$port; its log:" >&2
    sed 's/^/    /' "$root/registry.log" >&2 || true
    exit 70
fi

trap - ERR
export SWIFT_KEYRING_TEST_REGISTRY="127.0.0.1:$port"
export SWIFT_KEYRING_TEST_REGISTRY_USER="$user"
export SWIFT_KEYRING_TEST_REGISTRY_PASSWORD="$password"
export SWIFT_KEYRING_TEST_REGISTRY_ROOT="$root"
echo "with-registry.sh: docker-registry at https://127.0.0.1:$port (htpasswd, a throwaway certificate)" >&2
status=0
"$@" || status=$?
if ! kill -0 "$registry_pid" 2>/dev/null; then
    echo "$0: docker-registry died during the command; its log:" >&2
    sed 's/^/    /' "$root/registry.log" >&2 || true
    [ "$status" -ne 0 ] || status=75
fi
exit $status
