#!/usr/bin/env bash
# Checks that the Swift code keeps the house style written in .swift-format.
# `swift format format --in-place --recursive <folder>` puts a file right.
set -euo pipefail
cd "$(dirname "$0")/.."
swift format lint --strict --recursive Sources Tests Benchmarks/Benchmarks Benchmarks/Sources
