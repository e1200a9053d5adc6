#!/usr/bin/env bash
# Sets up, builds and runs every test: the GoogleTest suites, the golden tests
# (Test/runtests) and the corpus-wide checks, all through ctest; then the sanitizer
# job (External/sanitize.sh: an ASan + UBSan build with clang-15 running the unit
# tests, the goldens and a bounded fuzz smoke). GLINT_SKIP_SANITIZERS=1 skips it.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bash "$root/External/build.sh"
(cd "$root/build" && ctest -j "$(nproc)" --output-on-failure --timeout 1500)
if [[ ${GLINT_SKIP_SANITIZERS:-0} != 1 ]]; then
  bash "$root/External/sanitize.sh"
fi
# ctest checked the machine's device nodes after its tests (fixture
# glint_machine_devices); the sanitizer job's fuzz smoke runs outside ctest, so check
# once more at the very end: a replaced /dev/null fails the run.
sh "$root/Test/check_machine_devices.sh"
