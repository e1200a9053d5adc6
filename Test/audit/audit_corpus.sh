#!/usr/bin/env bash
# Runs glint-audit over every compute shader of a corpus (docs/CORPUS.md; OK_manifest.tsv,
# stage comp) with the manifest's target environment, a 4x4x2 dispatch and seeded small words
# in every buffer, two at a time. Shaders that need more than buffers (images, samplers)
# are refused by the audit and counted as such. Prints one line per shader and totals.
#
#   Test/audit/audit_corpus.sh BUILD_DIR CORPUS_DIR      (ctest: corpus_audit)
# Exit status: 1 when any shader shows an ESCAPE, 77 when the corpus has no compute
# shader, else 0.
set -euo pipefail
build=${1:?usage: audit_corpus.sh BUILD_DIR CORPUS_DIR}
corpus=${2:?usage: audit_corpus.sh BUILD_DIR CORPUS_DIR}
audit="$build/Audit/glint-audit"
[[ -x $audit ]] || { echo "audit_corpus: build glint-audit in $build first" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

for manifest in "$corpus"/*/OK_manifest.tsv; do
  dir=$(dirname "$manifest")
  awk -F'\t' -v dir="$dir" '$2 == "comp" { print dir "/" $1 "\t" $3 }' "$manifest"
done > "$work/list"
if [[ ! -s $work/list ]]; then
  echo "corpus audit not run: no compute shader in $corpus/*/OK_manifest.tsv"
  exit 77  # ctest: skipped
fi

audit_one() {
  local path=$1 env=$2 log
  log="$work/$(echo "$path" | md5sum | cut -c1-12).log"
  { echo "shader: $path"
    "$audit" --quiet --target-env="$env" --groups=4,4,2 "$path" 2>&1 || echo "EXIT $?"
  } > "$log"
}
export -f audit_one
export audit work
tr '\t' ' ' < "$work/list" | xargs -P 2 -L 1 bash -c 'audit_one "$0" "$1"'

shaders=0 audited=0 refused=0 escaped=0 sites=0 ok=0 escapes=0 unreached=0 norange=0
for log in "$work"/*.log; do
  shaders=$((shaders + 1))
  name=$(sed -n '1s/^shader: //p' "$log")
  name=${name#"$corpus"/}
  if line=$(grep '^audit:' "$log"); then
    audited=$((audited + 1))
    read -r s o e u n < <(sed -E 's/audit: ([0-9]+) sites: ([0-9]+) ok, ([0-9]+) ESCAPE, ([0-9]+) not reached, ([0-9]+) no range.*/\1 \2 \3 \4 \5/' <<< "$line")
    sites=$((sites + s)) ok=$((ok + o)) escapes=$((escapes + e)) unreached=$((unreached + u)) norange=$((norange + n))
    if [[ $e != 0 ]]; then escaped=$((escaped + 1)); grep ESCAPE "$log" >> "$work/escapes"; fi
    echo "audited  $name: ${line#audit: }" >> "$work/lines"
  else
    reason=$(grep -v -e '^shader:' -e '^EXIT' "$log" | head -1 | sed 's/^glint-audit: //')
    reason=${reason#*"$name": }
    refused=$((refused + 1))
    echo "refused  $name: ${reason:0:160}" >> "$work/lines"
    echo "$reason" | sed -E -e 's/^set [0-9]+ binding [0-9]+ \([^)]*\) is (an? [a-z ]+);.*/\1/' \
      -e 's/^the module declares capability ([A-Za-z0-9]+).*/capability \1/' \
      -e 's/^the module uses SPIR-V extension ([A-Za-z0-9_]+).*/extension \1/' \
      -e "s/^'.*' does not compile.*/does not compile/" | cut -c1-80 >> "$work/reasons"
  fi
done
sort "$work/lines"
[[ ! -s $work/reasons ]] || { echo "refusals by reason:"; sort "$work/reasons" | uniq -c | sort -rn; }
[[ ! -s $work/escapes ]] || { echo "ESCAPES:"; cat "$work/escapes"; }
echo "corpus: $shaders compute shaders: $audited audited, $refused refused (need more than buffers, or failed); $sites sites: $ok ok, $escapes ESCAPE, $unreached not reached, $norange no range; $escaped shaders escaped"
[[ $escaped == 0 ]]
