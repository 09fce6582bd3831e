#!/usr/bin/env bash
# Peak memory (maximum resident set, /usr/bin/time's %M) and wall time of one `swift-keyring get`
# on the etcd store when the "cluster" answers with a small body, a 1 GiB body, a body that ends
# only when the connection does, or an endless chunked body: issue 26, point 9.
#
#   bash Scripts/etcd-answer-memory.sh [path/to/swift-keyring]     (default: .build/debug/swift-keyring)
#
# The fake member is a few lines of Python on 127.0.0.1 that answers every POST the same way;
# the tool's first request (reading the keyring header) gets that answer. Nothing else is needed:
# no etcd, no secret beyond a throwaway key file. Prints one line per case.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
tool=${1:-$here/.build/debug/swift-keyring}
[ -x "$tool" ] || { echo "etcd-answer-memory.sh: no tool at $tool (swift build first)" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "etcd-answer-memory.sh: needs GNU time at /usr/bin/time" >&2; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/etcd-answer-memory.XXXXXX")
server_pid=""
cleanup() {
    if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT
head -c 32 /dev/urandom >"$work/key" && chmod 600 "$work/key"

cat >"$work/member.py" <<'EOF'
import http.server, socketserver, sys

mode = sys.argv[1]
chunk = b"a" * 65536

class Member(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length", "0")))
        try:
            if mode == "small":
                body = b'{"header":{"cluster_id":"1","revision":"1"}}'
                self.send_response(200)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
            elif mode == "huge":
                self.send_response(200)
                self.send_header("Content-Length", str(1 << 30))
                self.end_headers()
                for _ in range((1 << 30) // len(chunk)):
                    self.wfile.write(chunk)
            elif mode == "unbounded":
                # Neither a length nor chunks: the body ends when the connection does.
                self.send_response(200)
                self.send_header("Connection", "close")
                self.end_headers()
                for _ in range((4 << 30) // len(chunk)):
                    self.wfile.write(chunk)
            else:
                self.send_response(200)
                self.send_header("Transfer-Encoding", "chunked")
                self.end_headers()
                for _ in range((4 << 30) // len(chunk)):
                    self.wfile.write(b"10000\r\n" + chunk + b"\r\n")
        except (BrokenPipeError, ConnectionResetError):
            pass
        self.close_connection = True

class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True

server = Server(("127.0.0.1", 0), Member)
print(server.server_address[1], flush=True)
server.serve_forever()
EOF

printf '%-10s %12s %9s  %s\n' "answer" "peak RSS" "wall" "what the tool said"
for mode in small huge unbounded chunked; do
    python3 "$work/member.py" "$mode" >"$work/port" &
    server_pid=$!
    while [ ! -s "$work/port" ]; do sleep 0.05; done
    port=$(cat "$work/port")
    status=0
    env -i PATH="$PATH" HOME="$work/home" SWIFT_KEYRING_BACKEND=etcd \
        SWIFT_KEYRING_ETCD_ENDPOINTS="http://127.0.0.1:$port" SWIFT_KEYRING_KEY_FILE="$work/key" \
        SWIFT_KEYRING_ETCD_STATE_DIR="$work/state" \
        /usr/bin/time -f '%M %e' -o "$work/time" "$tool" get registry --service com.example.memory \
        >/dev/null 2>"$work/stderr" || status=$?
    read -r kib seconds < <(tail -n 1 "$work/time")
    printf '%-10s %9s KiB %8ss  exit %s: %s\n' "$mode" "$kib" "$seconds" "$status" "$(head -c 200 "$work/stderr")"
    kill "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
    server_pid=""
    rm -f "$work/port"
done
