#!/usr/bin/env bash
# Installs the dependencies (External/setup.py) and builds Glint into ./build.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
python3 "$root/External/setup.py"
cmake -S "$root" -B "$root/build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$root/build" -j "$(nproc)"
