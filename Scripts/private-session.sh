# Sourced by Scripts/with-secret-service.sh and Scripts/with-keepassxc.sh: the
# throwaway home a private Secret Service runs in, so neither touches the
# caller's own keyring, settings or runtime folder.

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
