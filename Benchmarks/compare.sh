#!/usr/bin/env bash
# The comparison of issue 5, one command: swift-keyring against the tools users
# would pick instead, on one machine in one run, inside a private Secret Service.
#
#   bash Benchmarks/compare.sh [--count N] [--large-count N] [--cli-runs N] [--instruction-count N]
#       [--start-rounds N] [--start-only] [--no-write]
#
# Workload: store N records, look each up, remove them all (N = 1,000 unless
# given), against
#   - swift-keyring's SecretServiceStore and EncryptedFileStore (keyring-compare, release build),
#   - libsecret from C (Compare/libsecret-bench.c), the floor,
#   - Python keyring's SecretService backend (Debian's python3-keyring, /usr/bin/python3),
#   - libsecret's own file backend (the same C program with SECRET_BACKEND=file),
#   - the etcd fleet store on a private 3-node loopback cluster, against a range round trip,
#   - a two-store keyring (the file local, etcd shared): device-only lookups against the file
#     alone, synced lookups against etcd alone,
# plus file-store lookups and peak memory at --large-count records (100,000), and
# `swift-keyring get` against `secret-tool lookup` (and, on etcd, `etcdctl get`) as whole
# processes (hyperfine; also `get --backend kernel` and `get` on a passphrase file after
# `unlock`, each against the encrypted file with a key file), and the client's instructions
# per lookup against C's (callgrind; each
# program looks up N records and 1 record, and the difference over N - 1 leaves out the
# process start, the connection and the session: --instruction-count N, 100 unless given).
# Issue 27's start targets (Compare/start-targets.sh): `swift-keyring --version` and a `get`
# on the encrypted file against an empty Swift program built the same way in the same run,
# `get` on the Secret Service against `secret-tool lookup`, and `git credential fill` through
# git-credential-swift-keyring against git-credential-libsecret (built here from the source
# Debian's git ships), in --start-rounds N interleaved rounds (60 unless given); --start-only
# runs these alone (nothing written).
# Also `swift-keyring get`'s peak resident memory (Compare/peak-memory.sh). Prints the tables
# and writes them, with the machine, date and command, into Benchmarks/BENCHMARKS.md (the
# hand-written analysis there is kept), and the side-by-side chart beside it
# (Benchmarks/compare-chart.svg, drawn by Compare/chart.py).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)

count=1000
large_count=100000
cli_runs=50
instruction_count=100
start_rounds=60
start_only=0
write=1
# Every tool run is bounded: a stuck D-Bus call fails the run instead of hanging it.
step_timeout=${SWIFT_KEYRING_COMPARE_STEP_TIMEOUT:-3600}

while [ $# -gt 0 ]; do
    case "$1" in
        --count) count=$2; shift 2 ;;
        --large-count) large_count=$2; shift 2 ;;
        --cli-runs) cli_runs=$2; shift 2 ;;
        --instruction-count) instruction_count=$2; shift 2 ;;
        --start-rounds) start_rounds=$2; shift 2 ;;
        --start-only) start_only=1; write=0; shift ;;
        --no-write) write=0; shift ;;
        -h|--help) sed -n '2,33p' "$0"; exit 0 ;;
        *) echo "$0: unknown argument $1 (try --help)" >&2; exit 64 ;;
    esac
done

work=${SWIFT_KEYRING_COMPARE_WORK:-}

# Inside the private Secret Service (see the end of this file): measure, append to $work/results.tsv.
if [ "${SWIFT_KEYRING_COMPARE_INSIDE:-}" = "1" ]; then
    results="$work/results.tsv"
    compare="$SWIFT_KEYRING_COMPARE_BIN"
    csecret="$work/libsecret-bench"
    run_id=$(od -An -N4 -tx1 /dev/urandom | tr -d ' \n')

    # measure TOOL BACKEND COMMAND…: the command prints PHASE<TAB>COUNT<TAB>VALUE lines.
    measure() {
        local tool=$1 backend=$2
        shift 2
        echo "  $tool on $backend …" >&2
        timeout "$step_timeout" "$@" | while IFS= read -r line; do
            printf '%s\t%s\t%s\n' "$tool" "$backend" "$line" | tee -a "$results" >&2
        done
    }

    echo "Start (issue 27): whole processes, $start_rounds interleaved rounds" >&2
    timeout "$step_timeout" bash "$here/Compare/start-targets.sh" "$SWIFT_KEYRING_COMPARE_CLI" \
        "$SWIFT_KEYRING_COMPARE_HELPER" "$SWIFT_KEYRING_COMPARE_EMPTY" "$work/git-credential-libsecret" "$start_rounds" |
        while IFS=$'\t' read -r kind name value; do
            printf 'start\t%s\t%s\t0\t%s\n' "$kind" "$name" "$value" | tee -a "$results" >&2
        done
    timeout "$step_timeout" bash "$here/Compare/docker-helper.sh" "$(dirname "$SWIFT_KEYRING_COMPARE_CLI")/docker-credential-swift-keyring" "$SWIFT_KEYRING_COMPARE_CLI" "$start_rounds" >&2
    [ "${SWIFT_KEYRING_COMPARE_START_ONLY:-0}" = 1 ] && exit 0

    echo "Secret Service, N = $count" >&2
    measure swift-keyring secret-service "$compare" secret-service "$count" \
        store lookup lookup-again lookup-password-again removeall
    # libsecret's own clear-all (secret_password_clearv_sync on {tag, service}) fails with
    # "Timeout was reached" at 1,000 items (BENCHMARKS.md), so the floor removes record by record.
    measure libsecret-c secret-service "$csecret" "$count" "compare.c.$run_id" store lookup lookup-again remove
    measure python-keyring secret-service /usr/bin/python3 "$here/Compare/python-keyring-bench.py" "$count" "compare.py.$run_id"

    echo "Client instructions per Secret Service lookup (callgrind), N = $instruction_count" >&2
    # Benchmarks/Compare/lookup-instructions.sh measures it (alone, it serves a change to the lookup).
    timeout "$step_timeout" bash "$here/Compare/lookup-instructions.sh" "$compare" "$csecret" "$instruction_count" |
        while IFS=$'\t' read -r tool phase per_lookup; do
            printf '%s\tsecret-service\tinstructions-%s\t%s\t%s\n' "$tool" "$phase" "$instruction_count" "$per_lookup" |
                tee -a "$results" >&2
        done

    echo "Encrypted file, N = $count" >&2
    file_folder="$work/files"
    mkdir -p "$file_folder"
    chmod 700 "$file_folder"
    SWIFT_KEYRING_BENCH_DIR="$file_folder/ours" measure swift-keyring file "$compare" file "$count" store lookup removeall
    # The large file is filled with one write (an import), then read by this process and by a new one.
    SWIFT_KEYRING_BENCH_DIR="$file_folder/ours-large" SWIFT_KEYRING_COMPARE_SERVICE="compare.large" \
        measure swift-keyring file "$compare" file "$large_count" bulk-store lookup memory
    SWIFT_KEYRING_BENCH_DIR="$file_folder/ours-large" SWIFT_KEYRING_COMPARE_SERVICE="compare.large" \
        measure swift-keyring file-reopened "$compare" file "$large_count" lookup memory
    # libsecret's test hooks: a file of our choosing, unlocked with this throwaway password.
    SECRET_BACKEND=file SECRET_FILE_TEST_PATH="$file_folder/libsecret.keyring" \
        SECRET_FILE_TEST_PASSWORD="throwaway-$run_id" \
        measure libsecret-c file "$csecret" "$count" "compare.cfile.$run_id" store lookup removeall

    echo "etcd (3 members on loopback), N = $count" >&2
    etcd_dir="$work/etcd"
    trap 'bash "$root/Scripts/etcd-cluster.sh" stop "$etcd_dir"' EXIT
    etcd_endpoints=$(bash "$root/Scripts/etcd-cluster.sh" start "$etcd_dir")
    # lookup-absent is the floor: one linearizable range round trip through the same client, nothing to decrypt.
    SWIFT_KEYRING_ETCD_ENDPOINTS="$etcd_endpoints" SWIFT_KEYRING_BENCH_DIR="$file_folder/etcd" \
        measure swift-keyring etcd "$compare" etcd "$count" store lookup lookup-absent removeall
    # Issue 23, a two-store keyring (the file local, etcd shared): device-only lookups against the
    # file's above (no round trip), synced lookups (a local miss, then etcd) against etcd's.
    SWIFT_KEYRING_ETCD_ENDPOINTS="$etcd_endpoints" SWIFT_KEYRING_COMPARE_SYNC_STORE=etcd \
        SWIFT_KEYRING_BENCH_DIR="$file_folder/two-store-device" \
        measure swift-keyring file+etcd-device "$compare" file "$count" store lookup removeall
    SWIFT_KEYRING_ETCD_ENDPOINTS="$etcd_endpoints" SWIFT_KEYRING_COMPARE_SYNC_STORE=etcd \
        SWIFT_KEYRING_BENCH_DIR="$file_folder/two-store-synced" \
        measure swift-keyring file+etcd-synced "$compare" file "$count" store-synced lookup removeall

    echo "Whole processes: swift-keyring get --backend etcd against etcdctl get, $cli_runs runs each" >&2
    (
        export SWIFT_KEYRING_ETCD_ENDPOINTS="$etcd_endpoints" SWIFT_KEYRING_KEY_FILE="$file_folder/etcd/bench.key"
        export SWIFT_KEYRING_ETCD_PREFIX="compare-cli-$run_id/" ETCDCTL_API=3
        printf 'not-a-secret' | "$SWIFT_KEYRING_COMPARE_CLI" set account-0 --service "compare.cli.$run_id" --backend etcd \
            --username bench --url https://example.com >&2
        etcdctl --endpoints="$etcd_endpoints" put "compare-plain-$run_id" value >/dev/null
        timeout "$step_timeout" hyperfine -N --style none --warmup 3 --runs "$cli_runs" --export-json "$work/processes-etcd.json" \
            -n swift-keyring-get-etcd "$SWIFT_KEYRING_COMPARE_CLI get account-0 --service compare.cli.$run_id --backend etcd" \
            -n etcdctl-get "etcdctl --endpoints=${etcd_endpoints%%,*} get compare-plain-$run_id" >&2
    )
    /usr/bin/python3 - "$work/processes-etcd.json" >>"$results" <<'EOF'
import json, sys
names = {"swift-keyring-get-etcd": ("swift-keyring-cli", "etcd", "get-process"), "etcdctl-get": ("etcdctl", "etcd", "get-process")}
for result in json.load(open(sys.argv[1]))["results"]:
    tool, backend, phase = names[result["command"]]
    print(f"{tool}\t{backend}\t{phase}\t0\t{result['mean'] * 1e6:.3f}")
EOF

    echo "Whole processes: swift-keyring get --backend kernel against --backend file with a key file, $cli_runs runs each" >&2
    (
        export SWIFT_KEYRING_KEY_FILE="$file_folder/kernel-compare.key" SWIFT_KEYRING_FILE="$file_folder/kernel-compare.skr"
        head -c 32 /dev/urandom >"$SWIFT_KEYRING_KEY_FILE"
        chmod 600 "$SWIFT_KEYRING_KEY_FILE"
        for backend in kernel file; do
            printf 'not-a-secret' | "$SWIFT_KEYRING_COMPARE_CLI" set account-0 --service "compare.kernel.$run_id" \
                --backend "$backend" --username bench --url https://example.com >&2
        done
        timeout "$step_timeout" hyperfine -N --style none --warmup 3 --runs "$cli_runs" --export-json "$work/processes-kernel.json" \
            -n swift-keyring-get-kernel "$SWIFT_KEYRING_COMPARE_CLI get account-0 --service compare.kernel.$run_id --backend kernel" \
            -n swift-keyring-get-file "$SWIFT_KEYRING_COMPARE_CLI get account-0 --service compare.kernel.$run_id --backend file" >&2
        # The kernel keeps the record until reboot: it goes with its service's keyring.
        "$SWIFT_KEYRING_COMPARE_CLI" remove-all --yes --service "compare.kernel.$run_id" --backend kernel >&2
    )
    /usr/bin/python3 - "$work/processes-kernel.json" >>"$results" <<'EOF'
import json, sys
names = {"swift-keyring-get-kernel": "kernel", "swift-keyring-get-file": "file"}
for result in json.load(open(sys.argv[1]))["results"]:
    print(f"swift-keyring-cli\t{names[result['command']]}\tget-process\t0\t{result['mean'] * 1e6:.3f}")
EOF

    echo "Whole processes: swift-keyring get on a passphrase file after unlock, with a key file, and with the passphrase each time" >&2
    (
        unset SWIFT_KEYRING_KEY_FILE SWIFT_KEYRING_PASSPHRASE SWIFT_KEYRING_PASSPHRASE_FILE
        keyed="$file_folder/unlock-keyed.skr" locked="$file_folder/unlock-passphrase.skr" key="$file_folder/unlock.key"
        phrase="$file_folder/unlock.passphrase"
        head -c 32 /dev/urandom >"$key"
        # A throwaway passphrase made here; it is read from a 0600 file, never printed.
        head -c 24 /dev/urandom | base64 >"$phrase"
        chmod 600 "$key" "$phrase"
        for file in "$keyed" "$locked"; do
            source_setting=SWIFT_KEYRING_PASSPHRASE_FILE=$phrase
            [ "$file" = "$keyed" ] && source_setting=SWIFT_KEYRING_KEY_FILE=$key
            printf 'not-a-secret' | env "$source_setting" SWIFT_KEYRING_FILE="$file" "$SWIFT_KEYRING_COMPARE_CLI" \
                set account-0 --service "compare.unlock.$run_id" --backend file --username bench --url https://example.com >&2
        done
        # Every command goes through env, so each pays the same extra exec.
        get="$SWIFT_KEYRING_COMPARE_CLI get account-0 --service compare.unlock.$run_id --backend file"
        # Before unlock: Argon2id in every process (a few runs: each takes a few hundred ms).
        timeout "$step_timeout" hyperfine -N --style none --warmup 1 --runs 5 --export-json "$work/processes-passphrase.json" \
            -n swift-keyring-get-passphrase "env SWIFT_KEYRING_FILE=$locked SWIFT_KEYRING_PASSPHRASE_FILE=$phrase $get" >&2
        SWIFT_KEYRING_FILE="$locked" "$SWIFT_KEYRING_COMPARE_CLI" unlock --backend file --for 1h <"$phrase" >&2
        timeout "$step_timeout" hyperfine -N --style none --warmup 3 --runs "$cli_runs" --export-json "$work/processes-unlock.json" \
            -n swift-keyring-get-unlocked "env SWIFT_KEYRING_FILE=$locked $get" \
            -n swift-keyring-get-key-file "env SWIFT_KEYRING_FILE=$keyed SWIFT_KEYRING_KEY_FILE=$key $get" >&2
        SWIFT_KEYRING_FILE="$locked" "$SWIFT_KEYRING_COMPARE_CLI" lock --backend file >&2
    )
    /usr/bin/python3 - "$work/processes-passphrase.json" "$work/processes-unlock.json" >>"$results" <<'EOF'
import json, sys
names = {"swift-keyring-get-unlocked": "file-unlocked", "swift-keyring-get-key-file": "file-key-file",
         "swift-keyring-get-passphrase": "file-passphrase"}
for path in sys.argv[1:]:
    for result in json.load(open(path))["results"]:
        print(f"swift-keyring-cli\t{names[result['command']]}\tget-process\t0\t{result['mean'] * 1e6:.3f}")
EOF

    echo "Whole processes: swift-keyring get against secret-tool lookup, $cli_runs runs each" >&2
    cli="$SWIFT_KEYRING_COMPARE_CLI"
    # One record, written by the C program with our schema; both commands read it.
    "$csecret" 1 "compare.cli.$run_id" store >/dev/null
    timeout "$step_timeout" hyperfine -N --style none --warmup 3 --runs "$cli_runs" --export-json "$work/processes.json" \
        -n swift-keyring-get "$cli get account-0 --service compare.cli.$run_id --backend secret-service" \
        -n secret-tool-lookup "secret-tool lookup tag swift-keyring service compare.cli.$run_id key account-0 kind credentials" \
        >&2
    /usr/bin/python3 - "$work/processes.json" >>"$results" <<'EOF'
import json, sys
names = {"swift-keyring-get": ("swift-keyring-cli", "get-process"), "secret-tool-lookup": ("secret-tool", "lookup-process")}
for result in json.load(open(sys.argv[1]))["results"]:
    tool, phase = names[result["command"]]
    print(f"{tool}\tsecret-service\t{phase}\t0\t{result['mean'] * 1e6:.3f}")
EOF
    exit 0
fi

# Outside: install, build, then run the part above inside a private Secret Service.
cd "$root"
bash Scripts/setup.sh
# time: GNU time, for the peak memory of `get` (Compare/peak-memory.sh).
extra=(python3-keyring hyperfine libsecret-tools valgrind time)
missing=()
for package in "${extra[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$package")
    fi
done
if [ ${#missing[@]} -gt 0 ]; then
    if [ "$(id -u)" -ne 0 ]; then
        echo "$0: the comparison needs: sudo apt-get install -y ${missing[*]}" >&2
        exit 1
    fi
    echo "Installing ${missing[*]} …" >&2
    DEBIAN_FRONTEND=noninteractive apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/swift-keyring-compare.XXXXXX")
trap 'rm -rf "$work"' EXIT

echo "Building (release) …" >&2
compare_bin=""
if [ "$start_only" = 0 ]; then
    cc -O2 -Wall -o "$work/libsecret-bench" "$here/Compare/libsecret-bench.c" $(pkg-config --cflags --libs libsecret-1)
    (cd "$here" && swift build -c release --product keyring-compare >&2)
    compare_bin="$(cd "$here" && swift build -c release --show-bin-path)/keyring-compare"
fi
# Built as the README says, by Scripts/build-release.sh (build flags, never in Package.swift,
# where they would reach every package that depends on this one), in a folder of its own.
release=(bash "$root/Scripts/build-release.sh")
"${release[@]}" --scratch-path .build-static --product swift-keyring >&2
"${release[@]}" --scratch-path .build-static --product git-credential-swift-keyring >&2
# Built here, not left to docker-helper.sh (which builds it only when missing): a helper left
# from an older tree would be timed against this tree's tool.
"${release[@]}" --scratch-path .build-static --product docker-credential-swift-keyring >&2
bin_path=$("${release[@]}" --scratch-path .build-static --show-bin-path)
cli_bin="$bin_path/swift-keyring"
helper_bin="$bin_path/git-credential-swift-keyring"
# The floor of issue 27: an empty Swift program, a package of its own built with the same command.
mkdir -p "$work/empty/Sources/empty"
printf '// swift-tools-version:6.0\nimport PackageDescription\nlet package = Package(name: "empty", targets: [.executableTarget(name: "empty")])\n' \
    >"$work/empty/Package.swift"
printf 'print("0")\n' >"$work/empty/Sources/empty/main.swift"
"${release[@]}" --package-path "$work/empty" >&2
empty_bin="$("${release[@]}" --package-path "$work/empty" --show-bin-path)/empty"
# The same program as `swift build --static-swift-stdlib` links it for anyone: build-release.sh's
# floor is lower (libstdc++ linked in), so the report gives the tool's instructions against both.
plain=(swift build -c release --static-swift-stdlib --package-path "$work/empty" --scratch-path "$work/empty/.build-plain")
"${plain[@]}" >&2
empty_plain_bin="$("${plain[@]}" --show-bin-path)/empty"
# git's own libsecret helper, from the source Debian's git package ships, built as its Makefile does.
libsecret_helper_source=/usr/share/doc/git/contrib/credential/libsecret/git-credential-libsecret.c
if [ ! -f "$libsecret_helper_source" ]; then
    echo "$0: $libsecret_helper_source is missing (Debian's git package ships it; an image that drops /usr/share/doc does not)" >&2
    exit 1
fi
cc -O2 -Wall -o "$work/git-credential-libsecret" "$libsecret_helper_source" $(pkg-config --cflags --libs libsecret-1 glib-2.0)

: >"$work/results.tsv"
started=$(date -u +"%Y-%m-%d %H:%M UTC")
revision=$(git -C "$root" describe --always --dirty 2>/dev/null || echo unknown)
env SWIFT_KEYRING_COMPARE_INSIDE=1 SWIFT_KEYRING_COMPARE_WORK="$work" \
    SWIFT_KEYRING_COMPARE_BIN="$compare_bin" SWIFT_KEYRING_COMPARE_CLI="$cli_bin" \
    SWIFT_KEYRING_COMPARE_HELPER="$helper_bin" SWIFT_KEYRING_COMPARE_EMPTY="$empty_bin" \
    SWIFT_KEYRING_START_EMPTY_PLAIN="$empty_plain_bin" \
    SWIFT_KEYRING_COMPARE_START_ONLY="$start_only" \
    bash Scripts/with-secret-service.sh bash "$here/compare.sh" \
    --count "$count" --large-count "$large_count" --cli-runs "$cli_runs" --instruction-count "$instruction_count" \
    --start-rounds "$start_rounds"

{
    printf 'command\tbash Benchmarks/compare.sh --count %s --large-count %s --cli-runs %s --instruction-count %s --start-rounds %s\n' \
        "$count" "$large_count" "$cli_runs" "$instruction_count" "$start_rounds"
    printf 'date\t%s\n' "$started"
    printf 'revision\t%s\n' "$revision"
    printf 'nproc\t%s\n' "$(nproc)"
    printf 'cpu\t%s\n' "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
    printf 'memory\t%s\n' "$(free -h | awk '/^Mem:/ {print $2}')"
    printf 'os\t%s, kernel %s\n' "$(. /etc/os-release && echo "$PRETTY_NAME")" "$(uname -r)"
    printf 'versions\t%s; libsecret %s; gnome-keyring %s; python3-keyring %s\n' \
        "$(swift --version 2>/dev/null | head -1)" "$(pkg-config --modversion libsecret-1)" \
        "$(dpkg-query -W -f='${Version}' gnome-keyring)" "$(dpkg-query -W -f='${Version}' python3-keyring)"
    printf 'count\t%s\n' "$count"
    printf 'large-count\t%s\n' "$large_count"
    printf 'start-only\t%s\n' "$start_only"
} >"$work/meta.tsv"

if [ "$write" = 1 ]; then
    /usr/bin/python3 "$here/Compare/report.py" "$work/results.tsv" "$work/meta.tsv" "$here/BENCHMARKS.md"
    echo "Written to Benchmarks/BENCHMARKS.md" >&2
else
    # The chart is drawn all the same (the smoke pass so runs its code), into the throwaway folder.
    /usr/bin/python3 "$here/Compare/report.py" "$work/results.tsv" "$work/meta.tsv" --chart "$work/compare-chart.svg"
fi
