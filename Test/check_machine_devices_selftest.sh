#!/bin/sh
# Shows that check_machine_devices.sh fails where it must, on nodes made in a scratch
# directory (never on the machine's own): a regular file where null should be, a
# symbolic link to the real node, a character device of the wrong number. And that it
# passes on correct nodes. Making device nodes needs root (mknod); without it the test
# reports itself skipped (exit 77, ctest's SKIP_RETURN_CODE), never passed.
set -u
here=$(cd "$(dirname "$0")" && pwd)
check="$here/check_machine_devices.sh"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
failures=0

make_nodes() {  # DIR: correct null, zero, full
  mkdir -p "$1" && mknod "$1/null" c 1 3 && mknod "$1/zero" c 1 5 && mknod "$1/full" c 1 7
}
expect() {  # WANT(pass|fail) DIR WHAT
  if sh "$check" "$2" > "$scratch/out" 2>&1; then got=pass; else got=fail; fi
  if [ "$got" != "$1" ]; then
    echo "FAILED: $3: expected the check to $1, it did $got:"; cat "$scratch/out"
    failures=$((failures + 1))
  else
    echo "ok: $3 -> $1"
  fi
}

if ! make_nodes "$scratch/good" 2> "$scratch/mknod_error"; then
  echo "SKIPPED: cannot make device nodes here (mknod needs root):"; cat "$scratch/mknod_error"
  exit 77
fi
expect pass "$scratch/good" "correct nodes"

make_nodes "$scratch/regular" && rm "$scratch/regular/null" && : > "$scratch/regular/null"
expect fail "$scratch/regular" "a regular file named null"

make_nodes "$scratch/link" && rm "$scratch/link/null" && ln -s "$scratch/good/null" "$scratch/link/null"
expect fail "$scratch/link" "a symbolic link to a correct null"

make_nodes "$scratch/number" && rm "$scratch/number/null" && mknod "$scratch/number/null" c 1 7
expect fail "$scratch/number" "null with full's number"

make_nodes "$scratch/missing" && rm "$scratch/missing/full"
expect fail "$scratch/missing" "full missing"

[ "$failures" = 0 ]
