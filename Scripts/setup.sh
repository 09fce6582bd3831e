#!/usr/bin/env bash
# Installs the Debian packages swift-keyring needs to build, test and run.
# As root it installs what is missing; otherwise it prints the exact apt-get line and stops.
set -euo pipefail

packages=(libsecret-1-dev libgcrypt20-dev gnome-keyring dbus libsecret-tools pkg-config util-linux)
# The mock unlock prompter of the prompt tests (Scripts/build-mock-prompter.sh), and the seccomp launcher of the
# refused-key-calls tests (Tests/KeyCallFilter, the kernel's headers); never needed by library users.
packages+=(libgcr-3-dev gcc linux-libc-dev)
# KeePassXC: the second Secret Service the tests run against (Scripts/with-keepassxc.sh); python3 edits its database export.
packages+=(keepassxc python3)
# KWallet: the third Secret Service the tests run against (Scripts/with-kwallet.sh); the QCA plugins give its encrypted session.
packages+=(libkf5wallet-bin libqca-qt5-2-plugins)
# dbus-broker: the second bus implementation the Secret Service suites run on (Scripts/dbus-broker-session.sh).
packages+=(dbus-broker)
# gdb: with-kwallet.sh prints a backtrace from the core of a kwalletd5 that died during the tests.
packages+=(gdb)
# The etcd fleet store and KeyringAuthentication's CurlTransport: libcurl (headers to build); for etcd, a 3-node cluster on loopback for its tests (Scripts/with-etcd.sh).
packages+=(etcd-server etcd-client libcurl4-openssl-dev)
# valgrind: compare.sh counts the client's instructions per lookup with callgrind (CI's benchmark smoke pass runs it).
packages+=(valgrind)
# libstdc++-12-dev: Scripts/build-release.sh links its libstdc++.a into the release tools (the toolchain needs the
# package anyway; named so a machine without it fails here, not at the link).
packages+=(libstdc++-12-dev)
# git: the git credential helper's tests drive the real client (credential fill/approve/reject, a clone over HTTP).
packages+=(git)
# xdg-desktop-portal: the Secret portal that keys libsecret's file store in a sandbox; the portal tests start it
# inside the private gnome-keyring session (gnome-keyring ships its backend). Its recommends are not needed.
packages+=(xdg-desktop-portal)
# Container registry logins (docker-credential-swift-keyring): a private registry on loopback with htpasswd logins
# (Scripts/with-registry.sh), the real clients that run the helper (podman login/logout, skopeo), and the reference
# helper the protocol is compared with (docker-credential-secretservice).
packages+=(docker-registry podman skopeo apache2-utils golang-docker-credential-helpers)
# time: the bounded-read tests measure a child's peak memory with /usr/bin/time; man-db and groff-base check
# that the manual page renders with no warning (Tests/CLITests/CLIManualPageTests).
packages+=(time man-db groff-base)
missing=()
for package in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$package")
    fi
done

if [ ${#missing[@]} -eq 0 ]; then
    exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
    echo "swift-keyring needs these Debian packages; install them and run this again:" >&2
    echo "  sudo apt-get install -y ${missing[*]}" >&2
    exit 1
fi

echo "Installing ${missing[*]} …" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
