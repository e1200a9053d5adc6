#!/usr/bin/env bash
# Runs every fuzz target of a fuzzer build for a bounded time and fails on any crash,
# sanitizer report, broken property, timeout or out-of-memory (CI's fuzz smoke; long
# campaigns: Test/fuzz/README.md).
#
#   Test/fuzz/smoke.sh BUILD_DIR [SECONDS_PER_TARGET]     (default 45)
#
# Seeds are written from the goldens (and the corpus goldens when BUILD_DIR was configured
# with GLINT_CORPUS) into BUILD_DIR/fuzz/seeds (make_seeds.py, with
# BUILD_DIR's glslangValidator); each target mutates a fresh scratch copy so the seeds
# stay as generated. A failing input is saved as BUILD_DIR/fuzz/artifacts/<target>-crash-*
# (or -timeout-*, -oom-*); reproduce it with `BUILD_DIR/Test/fuzz/<target> FILE`.
# Prints one line per target: executions, seconds, new corpus entries, result.
set -euo pipefail
build=$(cd "${1:?usage: smoke.sh BUILD_DIR [SECONDS]}" && pwd)
seconds=${2:-45}
here=$(cd "$(dirname "$0")" && pwd)
fuzz_dir="$build/fuzz"
mkdir -p "$fuzz_dir/artifacts"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# The corpus goldens' shaders join the seeds when the build has a corpus (its GLINT_CORPUS).
corpus=$(sed -n 's/^GLINT_CORPUS:PATH=//p' "$build/CMakeCache.txt")
python3 "$here/make_seeds.py" --validator "$build/StandAlone/glslangValidator" --out "$fuzz_dir/seeds" \
  ${corpus:+--corpus "$corpus"}

# target:seed folder, for each target this build has.
targets=(spirv_fuzzer:spirv c_api_fuzzer:c_api glsl_isolated_fuzzer:glsl)
failed=0
for entry in "${targets[@]}"; do
  target=${entry%%:*} seeds="$fuzz_dir/seeds/${entry#*:}"
  binary="$build/Test/fuzz/$target"
  [[ -x $binary ]] || { echo "fuzz smoke: $target not built, skipped"; continue; }
  mkdir -p "$scratch/$target"
  log="$fuzz_dir/$target.smoke.log"
  status=0
  # -timeout: one input taking over 30 s is a hang; -rss_limit_mb: a 2.5 GB process is
  # a memory bug (ASan's shadow counts too).
  # The fuzzers keep ASan's signal handlers (stack traces); glsl_isolated_fuzzer sets
  # its workers' options itself.
  ASAN_OPTIONS=detect_stack_use_after_return=1 "$binary" -max_total_time="$seconds" -timeout=30 -rss_limit_mb=2560 -print_final_stats=1 \
      -artifact_prefix="$fuzz_dir/artifacts/$target-" "$scratch/$target" "$seeds" >"$log" 2>&1 || status=$?
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  took=$(sed -n 's/^Done [0-9]* runs in \([0-9]*\) second.*/\1/p' "$log" | tail -1)
  added=$(find "$scratch/$target" -type f | wc -l)
  if [[ $status -eq 0 ]]; then
    echo "fuzz smoke: $target: ${runs:-?} executions in ${took:-?} s, $added new inputs, 0 crashes"
  else
    failed=1
    echo "fuzz smoke: $target FAILED (exit $status); its log ($log) ends:"
    tail -n 40 "$log"
    find "$fuzz_dir/artifacts" -name "$target-*" -newer "$scratch" | sed 's|^|  saved: |' || true
  fi
done
exit $failed
