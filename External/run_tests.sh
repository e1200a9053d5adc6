#!/usr/bin/env bash
# The README's test command: sets up, builds and runs every plain test through ctest
# (the GoogleTest suites, the golden tests, the execution tests on lavapipe) and, when a
# corpus is configured (GLINT_CORPUS, docs/CORPUS.md), the corpus suite (ctest label
# `corpus`). Without a corpus the suite is not registered, so it is never counted as
# passed, and the last line says it did not run. The sanitizer job is its own command
# (External/sanitize.sh); .ci/run runs both.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bash "$root/External/build.sh"
started=$SECONDS
(cd "$root/build" && ctest -j "$(nproc)" --output-on-failure --timeout 1500)
echo "== tests ran in $((SECONDS - started)) s"
# ctest checked the machine's device nodes after its tests (fixture glint_machine_devices).
corpus=$(sed -n 's/^GLINT_CORPUS:PATH=//p' "$root/build/CMakeCache.txt")
if [[ -z $corpus ]]; then
  echo "== corpus suite NOT run: no corpus configured (set GLINT_CORPUS=DIR; docs/CORPUS.md)"
else
  echo "== corpus suite ran on $corpus (ctest -L corpus)"
fi
