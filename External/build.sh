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
# -O2 with line tables (-g1): file, line and function in backtraces, valgrind and
# sanitizer reports, which is all the tests read; full -g makes the first build about a
# third slower (integer_range_analysis.cpp: 5.9 s with -g, 3.9 s with -g1).
line_tables="-O2 -g1 -DNDEBUG"
if ! cmake -S "$root" -B "$root/build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
     "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=$line_tables" "-DCMAKE_C_FLAGS_RELWITHDEBINFO=$line_tables" \
     > "$root/build/configure.log" 2>&1; then
  cat "$root/build/configure.log"
  exit 1
fi
grep -E '^-- Corpus suite:' "$root/build/configure.log" | sed 's/^-- /   /'
jobs=$(nproc)
echo "== 3/3 build (ninja -j $jobs; a first build takes minutes, later ones only what changed)"
build_started=$SECONDS
# ninja prints "[done/total] ..." per step: show one line per 10% instead, as it happens.
show_progress() {
  local line shown=0 percent
  while IFS= read -r line; do
    [[ $line =~ ^\[([0-9]+)/([0-9]+)\] ]] || continue
    percent=$((BASH_REMATCH[1] * 10 / BASH_REMATCH[2] * 10))
    ((percent > shown)) || continue
    shown=$percent
    printf '   build: %3d%% (%d of %d steps, %d s)\n' "$percent" "${BASH_REMATCH[1]}" \
      "${BASH_REMATCH[2]}" $((SECONDS - build_started))
  done
}
set +e
cmake --build "$root/build" -j "$jobs" ${1:+--target "$@"} 2>&1 | tee "$root/build/build.log" | show_progress
status=${PIPESTATUS[0]}
set -e
if [[ $status != 0 ]]; then
  echo "build failed; the end of build/build.log:"
  tail -n 40 "$root/build/build.log"
  exit "$status"
fi
echo "== built in $((SECONDS - build_started)) s (set-up and build $((SECONDS - started)) s)"
