#!/usr/bin/env bash
# Checks that the Swift code keeps the house style written in .swift-format, and that
# CLibSecret's declarations still match the real libsecret and GLib headers.
# `swift format format --in-place --recursive <folder>` puts a file right.
set -euo pipefail
cd "$(dirname "$0")/.."
swift format lint --strict --recursive Sources Tests Benchmarks/Benchmarks Benchmarks/Sources
# CLibSecret declares libsecret and GLib itself (they are loaded on first use): hold it against the real headers.
bash Scripts/check-vendored-declarations.sh
