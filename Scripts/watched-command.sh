# Sourced by Scripts/with-secret-service.sh, with-keepassxc.sh and with-kwallet.sh: runs the command under
# test beside a daemon that may die, so that the run ends rather than hangs.

# Runs COMMAND… in a process group of its own while the daemon DAEMON_PID lives, and sets
# `status` to the command's exit status. A daemon that dies mid-run can leave a client
# waiting on a prompt that will never complete, so once it is gone the command gets two
# minutes to finish failing, then its whole group is stopped. DAEMON_NAME is for the message.
run_watched_command() {
    local daemon_name=$1 daemon_pid=$2
    shift 2
    status=0
    setsid "$@" &
    local command=$!
    while kill -0 "$command" 2>/dev/null && kill -0 "$daemon_pid" 2>/dev/null; do
        sleep 0.5
    done
    if kill -0 "$command" 2>/dev/null; then
        echo "$0: $daemon_name exited while the command ran; the command has two minutes to finish" >&2
        for _ in $(seq 1 240); do
            kill -0 "$command" 2>/dev/null || break
            sleep 0.5
        done
        if kill -0 "$command" 2>/dev/null; then
            echo "$0: the command was still running two minutes after $daemon_name died; stopping it" >&2
            kill -TERM -- "-$command" 2>/dev/null || true
            sleep 2
            kill -KILL -- "-$command" 2>/dev/null || true
        fi
    fi
    wait "$command" || status=$?
}
