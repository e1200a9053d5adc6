#!/bin/bash
# Instructions (callgrind Ir) report_bench spends building the HTML and the SARIF report
# of a shader, next to the compile they describe. Steady state: each shader is run for
# one round and for two, and the second round is their difference (the first compile
# also builds glslang's built-in symbol tables). The costs are the inclusive costs of
# the bench's Compile, of glint::FormatHtmlReport and of glint::FormatSarifReport.
# usage: report_callgrind.sh <report_bench> [SHADER STAGE ENV]...
# Without shaders: the three report_bench measures by default, from the corpus the
# bench's build was configured with (GLINT_CORPUS, docs/CORPUS.md).
set -e
bench=$1
shift
if [ $# -eq 0 ]; then
  corpus=$(sed -n 's/^GLINT_CORPUS:PATH=//p' "$(dirname "$bench")/../CMakeCache.txt")
  [ -n "$corpus" ] || { echo "no corpus configured: name shaders as SHADER STAGE ENV" >&2; exit 2; }
  set -- "$corpus/glslang/Test/spv.debuginfo.continued.glsl.vert" vert vulkan1.0 \
         "$corpus/glslang/Test/spv.float16Fetch.frag" frag vulkan1.0 \
         "$corpus/dxvk/src/dxvk/shaders/dxvk_mipgen.comp" comp vulkan1.3
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# inclusive Ir of the first function matching $2 in profile $1
inclusive() {
  callgrind_annotate --inclusive=yes --threshold=100 "$1" 2>/dev/null | grep -E "$2" | head -n 1 |
    awk '{gsub(",", "", $1); print $1}'
}
while [ $# -ge 3 ]; do
  shader=$1 stage=$2 env=$3
  shift 3
  for rounds in 1 2; do
    valgrind --tool=callgrind --callgrind-out-file="$tmp/$rounds.out" \
      "$bench" --rounds "$rounds" "$shader" "$stage" "$env" >"$tmp/$rounds.log" 2>&1
  done
  steady() { echo $(($(inclusive "$tmp/2.out" "$1") - $(inclusive "$tmp/1.out" "$1"))); }
  compile=$(steady 'report_bench.cpp:\(anonymous namespace\)::Compile')
  html=$(steady 'report_html.cpp:glint::FormatHtmlReport')
  sarif=$(steady 'report_sarif.cpp:glint::FormatSarifReport')
  awk -v s="$shader" -v c="$compile" -v h="$html" -v r="$sarif" 'BEGIN {
    printf "%s\n  compile %.2f M Ir, html %.3f M Ir (%.2f%%), sarif %.3f M Ir (%.2f%%)\n",
           s, c / 1e6, h / 1e6, 100 * h / c, r / 1e6, 100 * r / c }'
done
