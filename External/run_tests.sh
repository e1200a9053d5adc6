#!/usr/bin/env bash
# Sets up, builds and runs every test: the GoogleTest suites, the golden tests
# (Test/runtests) and the corpus-wide checks, all through ctest.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bash "$root/External/build.sh"
cd "$root/build"
ctest -j "$(nproc)" --output-on-failure --timeout 1500
