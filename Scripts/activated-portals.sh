# Sourced by Scripts/with-secret-service.sh: ends the portal processes its private bus
# started by D-Bus activation. A call in a sandbox (libsecret's, or ours with SNAP_NAME
# set) asks for org.freedesktop.portal.Desktop, and xdg-desktop-portal then asks for the
# document portal and the permission store; all three would outlive the command, and the
# document portal's mount in $XDG_RUNTIME_DIR/doc keeps the throwaway home from being
# removed. The portal tests start a portal of their own on a bus that activates nothing.

# Sends SIGTERM to whichever of the three has an owner on the session bus, found by the
# process id the bus reports, and waits up to 5 s for them to exit.
stop_activated_portals() {
    local name pid pids=()
    for name in org.freedesktop.portal.Desktop org.freedesktop.portal.Documents org.freedesktop.impl.portal.PermissionStore; do
        pid=$(dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \
            org.freedesktop.DBus.GetConnectionUnixProcessID "string:$name" 2>/dev/null | awk '/uint32/ { print $2 }' || true)
        if [ -n "$pid" ]; then pids+=("$pid"); fi
    done
    if [ ${#pids[@]} -eq 0 ]; then return 0; fi
    kill "${pids[@]}" 2>/dev/null || true
    for _ in $(seq 1 50); do
        # kill -0 succeeds while any of them is left.
        kill -0 "${pids[@]}" 2>/dev/null || return 0
        sleep 0.1
    done
    echo "$0: portal processes ${pids[*]} did not exit on SIGTERM" >&2
}
