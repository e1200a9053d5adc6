#!/usr/bin/env bash
# Sets up and builds Glint, compiles the bundled lookup-table shader with glslang 12's
# own code generation (--no-glint) and with Glint, validates both, and shows what
# Glint changed as a diff of the two disassemblies. The set-up and build (of
# glslangValidator only) show one line per step and the build's progress
# (External/build.sh).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bash "$root/External/build.sh" glslangValidator
validator="$root/build/StandAlone/glslangValidator"
shader="$root/examples/lookup_table.frag"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$validator" -V --target-env vulkan1.0 --no-glint -o "$out/glslang.spv" "$shader" >/dev/null
"$validator" -V --target-env vulkan1.0 -o "$out/glint.spv" "$shader" >/dev/null
for f in glslang glint; do
  spirv-val --target-env vulkan1.0 "$out/$f.spv"
  spirv-dis --raw-id "$out/$f.spv" -o "$out/$f.spvasm"
done
echo "== $shader (vulkan1.0): both outputs pass spirv-val"
echo "== glslang 12: $(grep -c 'OpStore' "$out/glslang.spvasm") OpStore, $(grep -c 'OpVariable.*Function' "$out/glslang.spvasm") Function variables"
echo "== Glint:      $(grep -c 'OpStore' "$out/glint.spvasm") OpStore, $(grep -c 'OpVariable.*Function' "$out/glint.spvasm") Function variables, $(grep -c 'OpVariable.*Private' "$out/glint.spvasm") Private tables"
echo "== diff (glslang 12 -> Glint):"
diff -u "$out/glslang.spvasm" "$out/glint.spvasm" | tail -n +3 || true
