# Sourced by Scripts/with-secret-service.sh, with-keepassxc.sh and with-kwallet.sh: waiting,
# within a bound, until the daemon each one started serves the Secret Service on
# the session bus. Each check repeats every 0.1 s, at most TRIES times.

# Succeeds once org.freedesktop.secrets has an owner; fails when the daemon
# DAEMON_PID exits first or TRIES run out. NameHasOwner asks the bus, not the
# name: calling the name itself could make D-Bus activation start another daemon.
wait_for_secret_service_name() {
    local daemon=$1 tries=$2
    for _ in $(seq 1 "$tries"); do
        kill -0 "$daemon" 2>/dev/null || return 1
        if dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \
            org.freedesktop.DBus.NameHasOwner string:org.freedesktop.secrets 2>/dev/null | grep -q "boolean true"; then
            return 0
        fi
        sleep 0.1
    done
    return 1
}

# Succeeds once the default collection answers, unlocked. Owning the name is not
# being ready: gnome-keyring is still creating and unlocking the login keyring on
# a new HOME, KeePassXC still opening its database.
wait_for_unlocked_default_collection() {
    local tries=$1
    for _ in $(seq 1 "$tries"); do
        if dbus-send --session --print-reply --dest=org.freedesktop.secrets /org/freedesktop/secrets/aliases/default \
            org.freedesktop.DBus.Properties.Get string:org.freedesktop.Secret.Collection string:Locked 2>/dev/null \
            | grep -q "boolean false"; then
            return 0
        fi
        sleep 0.1
    done
    return 1
}

# Succeeds once the default alias names a collection (Service.ReadAlias answers a
# path other than "/"), locked or not: KWallet's collection stays locked until a
# client unlocks it, which needs no person once the wallet is open.
wait_for_default_collection() {
    local tries=$1
    for _ in $(seq 1 "$tries"); do
        if dbus-send --session --print-reply --dest=org.freedesktop.secrets /org/freedesktop/secrets \
            org.freedesktop.Secret.Service.ReadAlias string:default 2>/dev/null \
            | grep -q 'object path "/org/freedesktop/secrets/collection/'; then
            return 0
        fi
        sleep 0.1
    done
    return 1
}
