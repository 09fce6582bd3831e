#!/usr/bin/env bash
# A 3-node etcd cluster on loopback, for the etcd store's tests and for trying the fleet store by hand.
#
#   etcd-cluster.sh start DIR          start three members with their data under DIR; prints the client endpoints
#   etcd-cluster.sh start-node DIR N   start member N (1-3) again on its own data, after it was killed
#   etcd-cluster.sh stop DIR           stop every member this script started under DIR
#
# DIR gets endpoints (the comma-separated client URLs), nN.pid, nN.client (its client URL) and nN.log.
# Ports are picked free on 127.0.0.1 each start; nothing listens beyond loopback.
# With ETCD_CLUSTER_TLS=FOLDER (holding ca.pem, server.pem and server-key.pem, the server's
# certificate for IP 127.0.0.1), clients speak https and must present a certificate signed by ca.pem.
set -euo pipefail

command=${1:?usage: etcd-cluster.sh start|start-node|stop DIR [N]}
dir=${2:?usage: etcd-cluster.sh start|start-node|stop DIR [N]}

port_is_free() {
    ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

# Six free ports: a client and a peer port for each member.
pick_ports() {
    local port=$((20000 + RANDOM % 30000)) found=()
    while [ ${#found[@]} -lt 6 ]; do
        if port_is_free "$port"; then found+=("$port"); fi
        port=$((port + 1))
    done
    echo "${found[@]}"
}

start_node() {
    local n=$1
    local args
    args=$(cat "$dir/n$n.args")
    # The member must hold none of our caller's descriptors: a program that ran this
    # script (Foundation's Process, for one) may wait for them to close before it sees us exit.
    (
        for fd in /proc/$BASHPID/fd/*; do
            fd=${fd##*/}
            if [ "$fd" -gt 2 ]; then eval "exec $fd>&-" 2>/dev/null || true; fi
        done
        # shellcheck disable=SC2086
        exec etcd $args </dev/null >>"$dir/n$n.log" 2>&1
    ) &
    echo $! >"$dir/n$n.pid"
}

tls=${ETCD_CLUSTER_TLS:-}
scheme=http
client_tls=() etcdctl_tls=()
if [ -n "$tls" ]; then
    scheme=https
    client_tls=(--cert-file "$tls/server.pem" --key-file "$tls/server-key.pem" --trusted-ca-file "$tls/ca.pem" --client-cert-auth)
    etcdctl_tls=(--cacert "$tls/ca.pem" --cert "$tls/server.pem" --key "$tls/server-key.pem")
fi

# Waits until the members answer a health check: at most 30 s, and not at all once one has died.
wait_healthy() {
    local endpoints=$1
    shift
    local deadline=$((SECONDS + 30))
    while [ $SECONDS -lt $deadline ]; do
        if ETCDCTL_API=3 etcdctl --endpoints="$endpoints" "${etcdctl_tls[@]}" --dial-timeout=1s --command-timeout=2s endpoint health >/dev/null 2>&1; then
            return 0
        fi
        for n in "$@"; do
            kill -0 "$(cat "$dir/n$n.pid")" 2>/dev/null || return 1
        done
        sleep 0.2
    done
    return 1
}

case "$command" in
start)
    command -v etcd >/dev/null || { echo "etcd-cluster.sh: etcd is not installed (Scripts/setup.sh installs etcd-server)" >&2; exit 1; }
    mkdir -p "$dir"
    # One start at a time on this machine, so two clusters never pick the same free ports;
    # and a start whose member could not bind (a port taken meanwhile) is tried again on new ones.
    exec 9>"${TMPDIR:-/tmp}/swift-keyring-etcd-cluster.lock"
    flock -w 120 9 || { echo "etcd-cluster.sh: another cluster start holds the lock" >&2; exit 1; }
    for attempt in 1 2 3; do
        read -r -a ports <<<"$(pick_ports)"
        cluster="" endpoints=""
        for n in 1 2 3; do
            cluster+="${cluster:+,}n$n=http://127.0.0.1:${ports[$((2 * n - 1))]}"
            endpoints+="${endpoints:+,}$scheme://127.0.0.1:${ports[$((2 * n - 2))]}"
        done
        token="swift-keyring-$$-$RANDOM"
        for n in 1 2 3; do
            client="$scheme://127.0.0.1:${ports[$((2 * n - 2))]}"
            peer="http://127.0.0.1:${ports[$((2 * n - 1))]}"
            echo "$client" >"$dir/n$n.client"
            echo "--name n$n --data-dir $dir/n$n.data --listen-client-urls $client --advertise-client-urls $client" \
                "--listen-peer-urls $peer --initial-advertise-peer-urls $peer --initial-cluster $cluster" \
                "--initial-cluster-state new --initial-cluster-token $token --log-level error ${client_tls[*]}" >"$dir/n$n.args"
            start_node "$n"
        done
        echo "$endpoints" >"$dir/endpoints"
        if wait_healthy "$endpoints" 1 2 3; then
            echo "$endpoints"
            exit 0
        fi
        echo "etcd-cluster.sh: the cluster in $dir did not become healthy (attempt $attempt); its logs:" >&2
        tail -n 5 "$dir"/n*.log >&2 || true
        "$0" stop "$dir"
        rm -rf "$dir"/n*.data
    done
    exit 1
    ;;
start-node)
    n=${3:?usage: etcd-cluster.sh start-node DIR N}
    start_node "$n"
    wait_healthy "$(cat "$dir/n$n.client")" "$n" || { echo "etcd-cluster.sh: member $n did not come back" >&2; exit 1; }
    ;;
stop)
    for file in "$dir"/n*.pid; do
        [ -e "$file" ] || continue
        pid=$(cat "$file")
        # Only a process that is still an etcd we started: a reused PID is left alone.
        if [ -r "/proc/$pid/cmdline" ] && tr '\0' ' ' <"/proc/$pid/cmdline" | grep -q -- "--data-dir $dir/"; then
            kill -KILL "$pid" 2>/dev/null || true
        fi
        rm -f "$file"
    done
    ;;
*)
    echo "etcd-cluster.sh: unknown command $command" >&2
    exit 64
    ;;
esac
