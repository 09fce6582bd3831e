#!/usr/bin/env bash
# Writes Scripts/start-order.txt, the order in which Scripts/build-release.sh has the linker
# lay out the executables: first the functions and `.bss` data the commonest commands touch,
# the commonest command's first (each command's share in name order), so that a short process faults in a few pages of a
# 30 MB program rather than one in every few hundred KB (Benchmarks/BENCHMARKS.md, "the
# tool's start"). Run it inside a private Secret Service, after a change that renames or
# adds much of what a start runs (a list that has aged costs only speed: the linker skips
# names it no longer finds):
#
#   bash Scripts/with-secret-service.sh bash Scripts/start-order.sh
#
# Functions come from callgrind (every function a command ran), data from lackey (every
# `.bss` address it read or wrote; valgrind maps a position-independent executable at
# 0x108000). The linker moves whole input sections: the package's own code is compiled
# with -function-sections (build-release.sh), the toolchain's static libraries as shipped.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
work=$(mktemp -d "${TMPDIR:-/tmp}/swift-keyring-start-order.XXXXXX")
trap 'rm -rf "$work"' EXIT
chmod 700 "$work"
[ -n "${DBUS_SESSION_BUS_ADDRESS:-}" ] || {
    echo "$0: run inside Scripts/with-secret-service.sh" >&2
    exit 1
}

for product in swift-keyring git-credential-swift-keyring; do
    bash Scripts/build-release.sh --scratch-path .build-static --product "$product" >&2
done
# The link map, for which functions share a large section (the toolchain's static libraries
# hold some as one section of up to 1.6 MB): moving one moves all, so those go last.
rm -f .build-static/release/swift-keyring
bash Scripts/build-release.sh --scratch-path .build-static --product swift-keyring \
    -Xlinker "-Map=$work/swift-keyring.map" >&2
bin=$(bash Scripts/build-release.sh --scratch-path .build-static --show-bin-path)
# valgrind 3.19 gives up on the debug information of Swift 6.3's binaries: stripped copies.
tool=$work/swift-keyring helper=$work/git-credential-swift-keyring
strip --strip-debug -o "$tool" "$bin/swift-keyring"
strip --strip-debug -o "$helper" "$bin/git-credential-swift-keyring"

# One record in an encrypted file opened with a key file, one in the Secret Service, and a
# git credential in each.
head -c 32 /dev/urandom >"$work/key"
chmod 600 "$work/key"
file_env=(SWIFT_KEYRING_BACKEND=file SWIFT_KEYRING_FILE="$work/files/keyring.skr" SWIFT_KEYRING_KEY_FILE="$work/key")
service="start.order.$(od -An -N4 -tx1 /dev/urandom | tr -d ' \n')"
printf 'order-value' | env "${file_env[@]}" "$tool" set account --service "$service" --username u --url https://example.com
printf 'order-value' | "$tool" set account --service "$service" --backend secret-service --username u \
    --url https://example.com
printf 'protocol=https\nhost=order.example.com\nusername=u\npassword=order-value\n\n' >"$work/approve.txt"
printf 'protocol=https\nhost=order.example.com\n\n' >"$work/fill.txt"
env "${file_env[@]}" "$helper" store <"$work/approve.txt"
"$helper" store <"$work/approve.txt"
printf 'another-value' >"$work/password.txt"

# The commands, the commonest first: NAME, STDIN, the store (file: the encrypted file above,
# through the environment; auto: store selection, the Secret Service here), the command line.
runs=(
    "version|/dev/null|auto|$tool --version"
    "get-file|/dev/null|file|$tool get account --service $service"
    "get-secret-service|/dev/null|auto|$tool get account --service $service"
    "git-get-file|$work/fill.txt|file|$helper get"
    "git-get-secret-service|$work/fill.txt|auto|$helper get"
    "get-json-file|/dev/null|file|$tool get account --service $service --json"
    "list-file|/dev/null|file|$tool list --service $service"
    "set-file|$work/password.txt|file|$tool set other --service $service --username u --url https://example.com"
    "remove-file|/dev/null|file|$tool remove other --service $service"
    "help|/dev/null|auto|$tool --help"
)
# traced KIND NAME INPUT STORE COMMAND: COMMAND under valgrind's KIND of tool, its output in $work/NAME.KIND.
traced() {
    local kind=$1 name=$2 input=$3 store=$4 command=$5 settings=()
    [ "$store" = auto ] || settings=("${file_env[@]}")
    # Each remove needs its record back.
    [ "$name" != remove-file ] || env "${file_env[@]}" "$tool" set other --service "$service" --username u \
        --url https://example.com <"$work/password.txt"
    local output=(--callgrind-out-file="$work/$name.$kind" --demangle=no)
    [ "$kind" = callgrind ] || output=(--trace-mem=yes --log-file="$work/$name.$kind")
    # shellcheck disable=SC2086 # the command line is split into words on purpose
    env "${settings[@]}" valgrind --tool="$kind" "${output[@]}" $command <"$input" >/dev/null 2>&1
}
for run in "${runs[@]}"; do
    IFS='|' read -r name input store command <<<"$run"
    echo "  $name" >&2
    traced callgrind "$name" "$input" "$store" "$command"
    # Lackey runs a program about 100 times slower: past the Secret Service's one-second probe
    # (store selection would choose the file), so the data order comes from the other commands.
    [ "$store" = auto ] && [ "$name" != version ] && [ "$name" != help ] ||
        traced lackey "$name" "$input" "$store" "$command"
done

/usr/bin/python3 - "$work" "$tool" "$helper" "${runs[@]%%|*}" >"$work/order.txt" <<'EOF'
import bisect, re, subprocess, sys
work, binaries, names = sys.argv[1], sys.argv[2:4], sys.argv[4:]

def shared():
    """The functions that live in a code section of more than 32 KB (the link map's input sections)."""
    found, inside = set(), False
    for line in open(f'{work}/swift-keyring.map', errors='replace'):
        fields = line.split()
        if len(fields) >= 5 and ':(' in fields[-1]:
            inside = '(.text' in fields[-1] and int(fields[2], 16) > 32 * 1024
        elif inside and len(fields) >= 5:
            found.add(fields[-1])
    return found

programs = {path.rsplit('/', 1)[1] for path in binaries}

def functions(path):
    """The functions of our programs that a callgrind profile ran, in the order it names them."""
    objects, functions, current, found = {}, {}, None, []
    for line in open(path, errors='replace'):
        match = re.match(r'^(c?ob|c?fn)=\((\d+)\)(?: (.*))?$', line.rstrip('\n'))
        if not match:
            continue
        kind, number, name = match.groups()
        table = objects if kind.endswith('ob') else functions
        if name:
            table[number] = name
        if kind == 'ob':
            current = objects.get(number, '').rsplit('/', 1)[-1]
        elif kind == 'fn' and current in programs:
            name = functions.get(number, '')
            # Unnamed code ("0x…") and callgrind's own entries ("(below main)") are no symbols.
            if name and not name.startswith(('0x', '(')):
                found.append(name.split("'")[0])
    return found

def bss(binary):
    """Each .bss symbol of `binary`: (start, end, name), by start."""
    sections = subprocess.run(['readelf', '-SW', binary], capture_output=True, text=True).stdout
    start, size = re.search(r'\]\s+\.bss\s+NOBITS\s+([0-9a-f]+)\s+[0-9a-f]+\s+([0-9a-f]+)', sections).groups()
    low, high = int(start, 16), int(start, 16) + int(size, 16)
    symbols = []
    for line in subprocess.run(['nm', '-n', '-S', binary], capture_output=True, text=True).stdout.splitlines():
        fields = line.split()
        if len(fields) == 4 and fields[2] in 'bB' and low <= int(fields[0], 16) < high:
            symbols.append((int(fields[0], 16), int(fields[0], 16) + max(int(fields[1], 16), 1), fields[3]))
    return symbols

tables = {binary.rsplit('/', 1)[1]: bss(binary) for binary in binaries}

def data(path, symbols):
    """The .bss symbols a lackey trace touched, in the order it touched them."""
    starts, found = [s[0] for s in symbols], []
    for line in open(path, errors='replace'):
        if len(line) < 4 or line[1] not in 'SLM':
            continue
        offset = int(line[3:].split(',')[0], 16) - 0x108000
        index = bisect.bisect_right(starts, offset) - 1
        if index >= 0 and symbols[index][0] <= offset < symbols[index][1]:
            found.append(symbols[index][2])
    return found

big = shared()
order, seen, counts = [], set(), []
for name in names:
    program = 'git-credential-swift-keyring' if name.startswith('git-') else 'swift-keyring'
    text = functions(f'{work}/{name}.callgrind')
    traced = name.endswith('secret-service')
    touched = [] if traced else data(f'{work}/{name}.lackey', tables[program])
    if not text or not (traced or touched):
        sys.exit(f'start-order.sh: {name}: no functions or no .bss data found; is the trace of {program}?')
    counts.append(f'{name} {len(set(text))} functions, {len(set(touched))} .bss symbols')
    # Within one command's share, in name order: callgrind's own order means nothing, and a
    # sorted list changes only where the program did.
    for symbol in sorted(set(text) - seen) + sorted(set(touched) - seen):
        seen.add(symbol)
        order.append(symbol)
print('# Written by Scripts/start-order.sh: the linker lays these out first (build-release.sh).')
print('# ' + '; '.join(counts) + '.')
# Functions in their own sections first, packed; then those that bring a large section with them.
print('\n'.join([symbol for symbol in order if symbol not in big] + [symbol for symbol in order if symbol in big]))
EOF
mv "$work/order.txt" "$root/Scripts/start-order.txt"
echo "$0: $(grep -vc '^#' "$root/Scripts/start-order.txt") symbols in Scripts/start-order.txt" >&2
