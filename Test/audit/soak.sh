#!/usr/bin/env bash
# Long soak of the range audit: generates COUNT shaders from SEED (generate_shaders.py),
# runs each through glslangValidator --dump-ranges and glint-audit on lavapipe, two at a
# time, and prints the totals. A shader that ever shows an ESCAPE (or that the audit
# refuses) is copied to Test/audit/regressions/ as escape_<seed>_<n>.comp, so that it
# becomes a permanent test (gtests/audit_test: AuditGenerated.Regressions_ZeroEscapes).
#
#   Test/audit/soak.sh BUILD_DIR [SEED] [COUNT] [FIRST]   e.g. soak.sh build 7 5000
# FIRST (default 0) is the index of the first shader, so that a long soak can run in
# chunks (soak.sh build 7 500 0; soak.sh build 7 500 500; ...) whose totals add up and
# whose shaders are those of one run of COUNT * chunks.
# BUILD_DIR needs only Audit/glint-audit and StandAlone/glslangValidator: copy them to a
# directory of their own for a long soak, so that rebuilding does not relink them under it.
# SOAK_AUDIT_ARGS adds glint-audit flags, e.g. SOAK_AUDIT_ARGS=--range-analysis=reference.
# Dispatches get 60 s each (lavapipe compiles a pipeline on its first dispatch, slowly
# on a loaded machine).
# At the end, trap_report.py tabulates the generator's traps per kind from the audit's
# reports: trap sites, observed out of bounds (raw index), out of bounds and clamped,
# proven in bounds, not reached; a trap that went out of bounds unclamped fails the soak.
# Exit status: 0 when no shader escaped or failed, 1 otherwise.
set -euo pipefail
build=${1:?usage: soak.sh BUILD_DIR [SEED] [COUNT] [FIRST]}
seed=${2:-soak}
count=${3:-2000}
first=${4:-0}
here=$(cd "$(dirname "$0")" && pwd)
audit="$build/Audit/glint-audit"
validator="$build/StandAlone/glslangValidator"
[[ -x $audit && -x $validator ]] || { echo "soak: build glint-audit and glslangValidator in $build first" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 "$here/generate_shaders.py" --seed "$seed" --count "$count" --first "$first" --out "$work/shaders"

audit_one() {
  local shader=$1 args log promise
  args=$(sed -n '1s|^// audit-args: ||p' "$shader")
  log="$shader.log"
  # The module goes to the soak's own directory, never to the machine's /dev/null.
  # The analysis's own flags among the audit's (the promised dispatch) go to both.
  promise=$(grep -o -- '--max-workgroups=[0-9,]*' <<< "$args" || true)
  # shellcheck disable=SC2086
  if ! "$validator" -V --dump-ranges $promise -o "$shader.spv" "$shader" > "$shader.ranges" 2>&1; then
    echo "FAILED --dump-ranges" > "$log"; return
  fi
  # shellcheck disable=SC2086
  # The full report (not --quiet): trap_report.py reads every site's line.
  "$audit" --fill=bytes --dispatch-time-budget-ms=60000 ${SOAK_AUDIT_ARGS:-} $args \
    "$shader" > "$log" 2>&1 || echo "EXIT $?" >> "$log"
}
export -f audit_one
export audit validator SOAK_AUDIT_ARGS
find "$work/shaders" -name '*.comp' | sort | xargs -P 2 -I{} bash -c 'audit_one {}'

status=0
sites=0 ok=0 escapes=0 unreached=0 norange=0 failed=0
for log in "$work"/shaders/*.log; do
  shader=${log%.log}
  if line=$(grep '^audit:' "$log"); then
    read -r s o e u n < <(sed -E 's/audit: ([0-9]+) sites: ([0-9]+) ok, ([0-9]+) ESCAPE, ([0-9]+) not reached, ([0-9]+) no range.*/\1 \2 \3 \4 \5/' <<< "$line")
    sites=$((sites + s)) ok=$((ok + o)) escapes=$((escapes + e)) unreached=$((unreached + u)) norange=$((norange + n))
  fi
  if grep -q -e 'ESCAPE$' -e '^EXIT' -e '^FAILED' "$log" || ! grep -q '^audit:' "$log"; then
    failed=$((failed + 1)) status=1
    keep="$here/regressions/escape_${seed}_$(basename "$shader")"
    cp "$shader" "$keep"
    echo "soak: $(basename "$shader") kept as $keep:"; grep -e 'ESCAPE$' -e '^EXIT' -e '^FAILED' -e '^audit:' -e '^glint-audit:' "$log" || cat "$log"
  fi
done
python3 "$here/trap_report.py" "$work/shaders" || status=1
echo "soak: seed $seed: $count shaders from $first, $sites sites: $ok ok, $escapes ESCAPE, $unreached not reached, $norange no range; $failed shaders escaped or failed"
exit $status
