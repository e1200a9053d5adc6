# Sanitizer and fuzzer builds (External/sanitize.sh, Test/fuzz/README.md). Both belong
# in a build directory of their own;
# External/sanitize.sh configures one (build-asan) with Debian's clang-15:
#   cmake -S . -B build-asan -G Ninja -DCMAKE_C_COMPILER=clang-15 \
#         -DCMAKE_CXX_COMPILER=clang++-15 -DGLINT_SANITIZE=ON -DGLINT_BUILD_FUZZERS=ON \
#         -DGLINT_BUILD_VULKAN=OFF
#
# GLINT_SANITIZE=ON: AddressSanitizer + UndefinedBehaviorSanitizer on every target of
#   this project (GCC or Clang). Nothing recovers: the first report aborts the process,
#   so a test or a fuzzer fails instead of printing and carrying on.
#
#   The vptr check is OFF (-fno-sanitize=vptr), for every file. Debian's glslang 12 is
#   built without RTTI: its classes (TShader, TIntermediate, TType, the pool allocator,
#   the includer interface ...) have no type_info, and the vptr check reads the
#   type_info of every polymorphic object that code including glslang's headers calls
#   into or casts, so it would fail to link (undefined typeinfo) or report false type
#   confusions. Most of Glint's libraries include glslang's headers (glslang/,
#   StandAlone/, the tests, the fuzz targets); turning the check off everywhere rather
#   than per file costs only the check on Glint's own small class hierarchies (passes).
#
# GLINT_BUILD_FUZZERS=ON (Clang only; implies GLINT_SANITIZE): the libFuzzer targets of
#   Test/fuzz/. Every file is also compiled with -fsanitize=fuzzer-no-link (coverage
#   counters and comparison hooks, which libFuzzer steers by); only the fuzz targets
#   link libFuzzer itself (-fsanitize=fuzzer). Test binaries in the same build still
#   link and run: ASan's runtime provides the hooks' default definitions.
#
# glslang and SPIRV-Tools are Debian's GCC-built static libraries, not instrumented:
# linking Clang-built code against them works because both compilers use libstdc++.
option(GLINT_SANITIZE "Build with AddressSanitizer + UndefinedBehaviorSanitizer" OFF)
option(GLINT_BUILD_FUZZERS "Build the libFuzzer targets of Test/fuzz (Clang only)" OFF)

if(GLINT_BUILD_FUZZERS)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang" OR NOT CMAKE_C_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "GLINT_BUILD_FUZZERS needs Clang for C and C++ (libFuzzer): "
                        "configure with -DCMAKE_C_COMPILER=clang-15 -DCMAKE_CXX_COMPILER=clang++-15")
  endif()
  set(GLINT_SANITIZE ON CACHE BOOL "" FORCE)
endif()

if(GLINT_SANITIZE)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
    message(FATAL_ERROR "GLINT_SANITIZE needs GCC or Clang")
  endif()
  set(GLINT_SANITIZER_FLAGS -fsanitize=address,undefined -fno-sanitize=vptr
      -fno-sanitize-recover=all -fno-omit-frame-pointer)
  add_compile_options(${GLINT_SANITIZER_FLAGS})
  # A sanitizer report needs file, line and function (inlined frames too), never the
  # variables: line tables alone make each of the ~100 test executables half as large
  # and the build faster. Release-type builds only, so a Debug sanitizer build keeps
  # everything for gdb.
  if(CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    add_compile_options($<$<CONFIG:RelWithDebInfo>:-gline-tables-only>)
  endif()
  add_link_options(-fsanitize=address,undefined)
  if(GLINT_BUILD_FUZZERS)
    add_compile_options(-fsanitize=fuzzer-no-link)
  endif()
endif()
