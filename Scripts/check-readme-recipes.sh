#!/usr/bin/env bash
# Runs the README's recipes for a server, a container, a Kubernetes pod and git in CI ("On a
# server, in CI or in a container") as written, the way a container meets them: `env -i` with
# PATH and the recipe's own variables only, no HOME, no session bus, in a private mount namespace
# whose /var/lib and /run are empty tmpfs. What a recipe leaves to another program is done as that
# program does it: the container's mounts as `docker run -v` makes them (a file bound read-only,
# a volume's top 0755), the Secret volume as the kubelet lays it out (`key -> ..data/key`,
# `..data -> ..TIMESTAMP/`, root's folders, `defaultMode: 0400`), an `emptyDir` 0777; the clone's
# server is not there, so the git recipe stops after `git credential approve` and reads the token
# back with `git credential fill`. Needs root (unshare) and the built tools:
#   bash Scripts/check-readme-recipes.sh [BIN_FOLDER]      # default: swift build --show-bin-path
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(cd "${1:-$(swift build --show-bin-path)}" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 - README.md "$work" <<'PYTHON'
import sys
readme, work = sys.argv[1], sys.argv[2]
text = open(readme, encoding="utf-8").read()
section = text.split("## On a server, in CI or in a container", 1)[1].split("\n## ", 1)[0]
blocks = [part.split("```", 1)[0] for part in section.split("```sh\n")[1:]]
assert len(blocks) == 3, f"expected the server, container and git blocks, found {len(blocks)}"
for name, block in zip(["server", "container", "git"], blocks):
    open(f"{work}/{name}.sh", "w").write(block)
PYTHON
mkdir -p "$work/bin"
cp "$bin/swift-keyring" "$bin/git-credential-swift-keyring" "$work/bin/"
path="$work/bin:/usr/local/bin:/usr/bin:/bin"

unshare --mount --propagation private bash -euo pipefail -s "$work" "$path" <<'INSIDE'
work=$1 path=$2
mount -t tmpfs -o mode=755 tmpfs /var/lib
mount -t tmpfs -o mode=755 tmpfs /run
token=recipe-token-$RANDOM$RANDOM

echo "== server"
out=$(env -i PATH="$path" DEPLOY_TOKEN="$token" bash -euo pipefail "$work/server.sh")
[ "$out" = "$token" ] || { echo "server: got '$out'"; exit 1; }
stat -c '%a %n' /var/lib/worker /var/lib/worker/keyring.key /var/lib/worker/keyring.skr

echo "== container (docker run's mounts made by hand)"
rm -rf /var/lib/worker && mkdir -m 755 /var/lib/worker
(umask 077; head -c 32 /dev/urandom > "$work/keyring.key")
mkdir -m 755 /run/secrets && touch /run/secrets/keyring_key
mount --bind "$work/keyring.key" /run/secrets/keyring_key && mount -o remount,bind,ro /run/secrets/keyring_key
command=$(sed -n 's/.* IMAGE //p' "$work/container.sh")
variables=$(grep -o -- '-e [A-Z_]*=[^ ]*' "$work/container.sh" | sed 's/^-e //')
printf %s "$token" | env -i PATH="$path" $variables swift-keyring set ci --username bot --url https://git.example.com
env -i PATH="$path" $variables $command
[ "$(env -i PATH="$path" $variables swift-keyring get ci)" = "$token" ]

echo "== Kubernetes pod (the kubelet's Secret volume made by hand)"
rm -rf /var/lib/worker && mkdir -m 777 /var/lib/worker
volume=/run/secrets/worker-keyring
mkdir -m 755 -p "$volume/..2026_12_02_02_45_00.123456789"
install -m 400 "$work/keyring.key" "$volume/..2026_12_02_02_45_00.123456789/key"
ln -s ..2026_12_02_02_45_00.123456789 "$volume/..data"
ln -s ..data/key "$volume/key"
pod=(SWIFT_KEYRING_BACKEND=file SWIFT_KEYRING_KEY_FILE=/var/run/secrets/worker-keyring/key
    SWIFT_KEYRING_FILE=/var/lib/worker/swift-keyring/keyring.skr)
printf %s "$token" | env -i PATH="$path" "${pod[@]}" swift-keyring set ci --username bot --url https://git.example.com
[ "$(env -i PATH="$path" "${pod[@]}" swift-keyring get ci)" = "$token" ]

echo "== git in CI (up to git credential approve, then fill)"
sed '/^git clone/d' "$work/git.sh" > "$work/git-approve.sh"
printf 'protocol=https\nhost=git.example.com\nusername=ci\n\n' > "$work/fill"
filled=$(env -i PATH="$path" CI_TOKEN="$token" \
    bash -euo pipefail -c ". '$work/git-approve.sh'; git credential fill < '$work/fill'")
grep -qx "password=$token" <<<"$filled" || { echo "git: fill gave no token"; exit 1; }
echo "all recipes ran as written"
INSIDE
