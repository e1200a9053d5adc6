#!/bin/sh
# Instructions (callgrind Ir) glslangValidator spends on a fixed sample of corpus
# shaders, for the default pipeline and for --robust-access --dump-ranges.
# usage: callgrind_sample.sh <glslangValidator> <corpus dir>
# Prints one line per shader and flag set, then the totals. Compiles in-process
# (--no-isolate where the binary knows it), output to a temp dir.
set -e
tool=$1; corpus=$2
tmp=$(mktemp -d)
extra=""
if "$tool" --help 2>/dev/null | grep -q -- --no-isolate; then extra="--no-isolate"; fi
shaders="SaschaWillems-Vulkan/shaders/glsl/computeshader/edgedetect.comp
SaschaWillems-Vulkan/shaders/glsl/computecloth/cloth.comp
SaschaWillems-Vulkan/shaders/glsl/computenbody/particle_calculate.comp
SaschaWillems-Vulkan/shaders/glsl/deferredshadows/deferred.frag
SaschaWillems-Vulkan/shaders/glsl/pbrtexture/pbrtexture.frag
SaschaWillems-Vulkan/shaders/glsl/pbrtexture/prefilterenvmap.frag
dxvk/src/dxvk/hud/shaders/hud_frame_time_eval.comp
niagara/src/shaders/debugtext.comp.glsl"
for flags in "-V" "-V --robust-access --dump-ranges"; do
  total=0
  for s in $shaders; do
    dir=$(dirname "$corpus/$s")
    ir=$(cd "$dir" && valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.out" \
          "$tool" $extra $flags -o "$tmp/out.spv" "$(basename "$s")" 2>&1 >"$tmp/stdout" \
          | sed -n 's/.*Collected : \([0-9]*\).*/\1/p')
    echo "$flags | $s | $ir"
    total=$((total + ir))
  done
  echo "TOTAL $flags | $total"
done
rm -rf "$tmp"
