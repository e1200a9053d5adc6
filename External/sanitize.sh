#!/usr/bin/env bash
# The sanitizer job, the README's second command (.ci/run runs it after the test
# command): an AddressSanitizer + UndefinedBehaviorSanitizer build of Glint with Debian's
# clang-15 in build-asan (options: cmake/GlintSanitizers.cmake), then
#   1. the GoogleTest suites and the goldens (ctest: every suite the sanitizer build
#      has, i.e. all but the whole-corpus and install tests and, Vulkan being off, the
#      execution suites; not the glslang crash sweep; the corpus goldens when a corpus is
#      configured) against the ASan glslangValidator;
#   2. the fuzz smoke: each libFuzzer target for GLINT_FUZZ_SECONDS (default 45) from
#      seeds written from the goldens (Test/fuzz/smoke.sh).
# Any sanitizer report fails the job (nothing recovers). Prints its wall time.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build="$root/build-asan"
started=$SECONDS
python3 "$root/External/setup.py"
launcher=()
if command -v ccache >/dev/null; then
  launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_C_COMPILER=clang-15 -DCMAKE_CXX_COMPILER=clang++-15 "${launcher[@]}" \
  -DGLINT_SANITIZE=ON -DGLINT_BUILD_FUZZERS=ON -DGLINT_BUILD_VULKAN=OFF >/dev/null
cmake --build "$build" -j "$(nproc)" --target sanitizer_job
built=$SECONDS

# detect_stack_use_after_return: a pointer kept past its function's return (the C
# API's first bug) is caught even where the compiler did not inline the callee.
# handle_segv/sigbus/sigfpe=0: the containment tests make glslang 12 crash on purpose
# (in a glint-compile worker, in glslangValidator's child) and check that the process
# died by that signal; ASan's own handler would turn the signal into "exit 1". A
# crash anywhere else still kills its test, which fails.
export ASAN_OPTIONS=detect_stack_use_after_return=1:check_initialization_order=1:strict_init_order=1:handle_segv=0:handle_sigbus=0:handle_sigfpe=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
# Leaks inside glslang and SPIRV-Tools themselves (each one named in the file).
export LSAN_OPTIONS=suppressions=$root/External/lsan.supp:print_suppressions=0
# Left to the plain build's run:
# - glslang_crash_sweep (every file of glslang's test directory): under ASan it would
#   take longer than the rest of this job together;
# - the known-crasher cases of Test/crashers/pragma_stdgl_short.vert: glslang 12 reads
#   out of bounds there, which faults with glibc's heap layout but not with ASan's
#   allocator (glslang is not instrumented), so under ASan it compiles instead of crashing;
# - debug_info_corpus_sweep (-gV/-gVS over the whole corpus beside Debian's tool): as
#   the crash sweep, far too long under ASan;
# - debug_info_valgrind: valgrind cannot run an ASan binary (both replace the allocator).
(cd "$build" && ctest -j "$(nproc)" --output-on-failure --timeout 900 \
   -E '^glslang_crash_sweep$|^debug_info_corpus_sweep$|^debug_info_valgrind$|KnownCrasher\..*pragma_stdgl_short')
tested=$SECONDS

bash "$root/Test/fuzz/smoke.sh" "$build" "${GLINT_FUZZ_SECONDS:-45}"
echo "sanitizer job: $((SECONDS - started)) s (build $((built - started)) s," \
     "tests and goldens $((tested - built)) s, fuzz smoke $((SECONDS - tested)) s)"
