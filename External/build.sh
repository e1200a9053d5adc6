#!/usr/bin/env bash
# Installs the dependencies (External/setup.py) and builds Glint into ./build (every
# target, or only the targets given as arguments), showing
# one line per step and the build's progress every 10% (the whole build log is kept in
# build/build.log; its end is printed when the build fails). Prints how long it took.
# The corpus suite is configured from GLINT_CORPUS (cmake/GlintCorpus.cmake).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
started=$SECONDS
echo "== 1/3 dependencies (External/setup.py)"
python3 "$root/External/setup.py"
echo "== 2/3 configure (cmake, build type RelWithDebInfo, into build/)"
mkdir -p "$root/build"
if ! cmake -S "$root" -B "$root/build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
     > "$root/build/configure.log" 2>&1; then
  cat "$root/build/configure.log"
  exit 1
fi
grep -E '^-- Corpus suite:' "$root/build/configure.log" | sed 's/^-- /   /'
jobs=$(nproc)
echo "== 3/3 build (ninja -j $jobs; a first build takes minutes, later ones only what changed)"
build_started=$SECONDS
# ninja prints "[done/total] ..." per step: show one line per 10% instead.
set +e
cmake --build "$root/build" -j "$jobs" ${1:+--target "$@"} 2>&1 | tee "$root/build/build.log" | awk '
  match($0, /^\[[0-9]+\/[0-9]+\]/) {
    split(substr($0, 2, RLENGTH - 2), n, "/")
    percent = int(10 * n[1] / n[2]) * 10
    if (percent > shown) {
      shown = percent
      printf "   build: %3d%% (%d of %d steps)\n", percent, n[1], n[2]
      fflush()
    }
  }'
status=${PIPESTATUS[0]}
set -e
if [[ $status != 0 ]]; then
  echo "build failed; the end of build/build.log:"
  tail -n 40 "$root/build/build.log"
  exit "$status"
fi
echo "== built in $((SECONDS - build_started)) s (set-up and build $((SECONDS - started)) s)"
