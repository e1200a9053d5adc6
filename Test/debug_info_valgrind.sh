#!/bin/sh
# glslang 12's -gV/-gVS path under valgrind, in Glint's glslangValidator itself
# (--no-isolate): the shapes that make glslang record a line or make a local variable
# outside every function (Test/debug_info_*.vert) must compile with no invalid read, no use of uninitialised
# memory and the bytes Debian's /usr/bin/glslangValidator writes. (Debian's own tool
# dies under valgrind on these, reading its empty stack of debug scopes at 0x1fc.)
# valgrind runs each shader once, with -gVS: it takes every step -gV takes (the same
# debug instructions, the same guarded builder calls) and adds the source text, and a
# run under valgrind costs about 8 s. -gV is still compared with Debian's bytes.
# usage: debug_info_valgrind.sh GLINT_GLSLANGVALIDATOR TEST_DIR
set -u
tool=$1
tests=$2
scratch=$(mktemp -d "${TMPDIR:-/tmp}/glint-debug-info-valgrind-XXXXXX") || exit 1
trap 'rm -rf "$scratch"' EXIT
failures=0
for shader in debug_info_global_initializer.vert debug_info_spec_constant_after_main.vert \
              debug_info_decorated_global.vert; do
  cp "$tests/$shader" "$scratch/" || exit 1
  for flag in -gV -gVS; do
    checker="valgrind -q --error-exitcode=99"
    [ "$flag" = -gVS ] || checker=
    if ! (cd "$scratch" && $checker "$tool" --no-isolate -V "$flag" \
            -o glint.spv "$shader" >glint.log 2>&1); then
      echo "FAIL $shader $flag${checker:+ under valgrind}:"; cat "$scratch/glint.log"
      failures=$((failures + 1)); continue
    fi
    (cd "$scratch" && /usr/bin/glslangValidator -V "$flag" -o debian.spv "$shader" >/dev/null 2>&1)
    if ! cmp -s "$scratch/glint.spv" "$scratch/debian.spv"; then
      echo "FAIL $shader $flag: not the bytes Debian's glslangValidator writes"
      failures=$((failures + 1)); continue
    fi
    echo "ok   $shader $flag: ${checker:+valgrind clean, }Debian's bytes"
    rm -f "$scratch/glint.spv" "$scratch/debian.spv"
  done
done
exit $((failures != 0))
