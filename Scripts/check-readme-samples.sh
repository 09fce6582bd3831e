#!/usr/bin/env bash
# Compiles every ```swift block of README.md in a throwaway package that depends on this
# one by the README's own `.package(path: "../swift-keyring")` line, so what a reader copies
# compiles as written. A block is the body of a throwing function unless an HTML comment on
# the line before it says otherwise (docs/TESTING.md lists the conventions): `sample: async`,
# `sample: top-level`, `sample: manifest`. Imports are lifted to the top of the block's file.
# The package lives in .build/readme-samples, so a second run rebuilds only what changed.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
work=$root/.build/readme-samples
mkdir -p "$work/app"
rm -rf "$work/app/Sources"
mkdir -p "$work/app/Sources/ReadmeSamples"
# The README's path names the folder "swift-keyring" beside the app, whatever this clone's folder is called.
ln -sfn "$root" "$work/swift-keyring"

python3 - "$root/README.md" "$work/app" <<'PYTHON'
import re
import sys

readme, app = sys.argv[1], sys.argv[2]
lines = open(readme, encoding="utf-8").read().split("\n")
libraries = ["SwiftKeyring", "KeyringSession", "KeyringAuthentication", "KeyringEtcd",
             "KeyringValidation", "KeyringTestKit"]
blocks = []  # (first line number, kind, lines)
index = 0
while index < len(lines):
    if lines[index].strip() == "```swift":
        kind = "function"
        before = lines[index - 1].strip() if index > 0 else ""
        found = re.fullmatch(r"<!-- sample: ([a-z-]+) -->", before)
        if found:
            kind = found.group(1)
            if kind not in ("async", "top-level", "manifest"):
                sys.exit(f"README.md:{index}: unknown sample convention '{kind}'")
        end = index + 1
        while end < len(lines) and lines[end].strip() != "```":
            end += 1
        if end == len(lines):
            sys.exit(f"README.md:{index + 1}: a swift block that never ends")
        blocks.append((index + 2, kind, lines[index + 1:end]))
        index = end
    index += 1

if not blocks:
    sys.exit("README.md has no swift block: nothing was checked")

packages, products = [], []
count = 0
for first, kind, body in blocks:
    if kind == "manifest":
        for line in body:
            code = re.sub(r"(^|\s)//.*$", "", line).strip()
            if code.startswith(".package("):
                packages.append(code.rstrip(","))
            elif code.startswith(".product("):
                products.append(code.rstrip(","))
            elif code:
                sys.exit(f"README.md:{first}: a manifest sample line is neither .package nor .product: {line}")
        continue
    count += 1
    imports = [line for line in body if re.match(r"\s*import \w+", line)]
    rest = [line for line in body if line not in imports]
    for line in imports:
        module = line.split()[1]
        if module in libraries and not any(f'"{module}"' in p for p in products):
            products.append(f'.product(name: "{module}", package: "swift-keyring")')
    text = [f"// README.md, the block that starts at line {first}", *imports, ""]
    if kind == "top-level":
        text += rest
    else:
        effect = "async throws" if kind == "async" else "throws"
        text += [f"func readmeSample{count}() {effect} {{", *("    " + line for line in rest), "}"]
    with open(f"{app}/Sources/ReadmeSamples/Sample{count}.swift", "w", encoding="utf-8") as file:
        file.write("\n".join(text) + "\n")

if not packages:
    sys.exit("README.md has no manifest sample with a .package line")
package_lines = ",\n        ".join(packages)
product_lines = ",\n                ".join(products)
manifest = f"""// swift-tools-version:6.0
// Written by Scripts/check-readme-samples.sh from README.md's manifest sample.
import PackageDescription

let package = Package(
    name: "ReadmeSamples",
    dependencies: [
        {package_lines},
    ],
    targets: [
        .target(
            name: "ReadmeSamples",
            dependencies: [
                {product_lines},
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)
"""
open(f"{app}/Package.swift", "w", encoding="utf-8").write(manifest)
print(f"README.md: {count} Swift samples and the manifest sample, written to {app}")
PYTHON

cd "$work/app"
swift build
echo "Every Swift sample of README.md compiles."
