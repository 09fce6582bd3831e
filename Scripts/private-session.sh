# Sourced by Scripts/with-secret-service.sh, Scripts/with-keepassxc.sh and
# Scripts/with-kwallet.sh: the throwaway home a private Secret Service runs in,
# so none touches the caller's own keyring, settings or runtime folder.

# Makes THROWAWAY's home and runtime folders and sets the array private_session_env
# to the variables the private bus session starts with: HOME and every XDG folder
# inside THROWAWAY, the marker that the command runs inside, and a throwaway
# password for the daemon's keyring.
prepare_private_session() {
    local throwaway=$1
    mkdir -p "$throwaway/home" "$throwaway/runtime"
    chmod 700 "$throwaway/runtime"
    private_session_env=(
        HOME="$throwaway/home"
        XDG_RUNTIME_DIR="$throwaway/runtime"
        XDG_DATA_HOME="$throwaway/home/.local/share"
        XDG_CONFIG_HOME="$throwaway/home/.config"
        XDG_CACHE_HOME="$throwaway/home/.cache"
        XDG_STATE_HOME="$throwaway/home/.local/state"
        SWIFT_KEYRING_INSIDE_PRIVATE_SESSION=1
        SWIFT_KEYRING_TEST_KEYRING_PASSWORD="throwaway-$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')"
    )
}

# Writes to FILE a session bus configuration that activates nothing, for
# dbus-run-session --config-file. A bus for one daemon under test must not start
# another: with no service folders, a call to org.freedesktop.secrets after the
# daemon died fails, rather than starting gnome-keyring in its place (or, with
# xdg-desktop-portal installed, the portal starting it at the daemon's own start,
# two daemons racing for the name) and the tests going on against the wrong one.
write_quiet_bus_config() {
    cat >"$1" <<'CONF'
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <keep_umask/>
  <listen>unix:tmpdir=/tmp</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
CONF
}

# Runs COMMAND… (the calling script again, with its arguments) inside a new private
# session on a bus that activates nothing, with a throwaway home named after NAME that is
# removed at exit, and exits with the command's status: the start of with-keepassxc.sh
# and with-kwallet.sh, whose daemons must be the only Secret Service on their bus.
run_in_quiet_private_session() {
    local name=$1
    shift
    throwaway=$(mktemp -d "${TMPDIR:-/tmp}/swift-keyring-$name.XXXXXX")
    trap 'rm -rf "$throwaway"' EXIT
    prepare_private_session "$throwaway"
    write_quiet_bus_config "$throwaway/session.conf"
    local status=0
    env "${private_session_env[@]}" \
        dbus-run-session --config-file="$throwaway/session.conf" -- "$@" || status=$?
    exit $status
}
