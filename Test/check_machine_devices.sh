#!/bin/sh
# Checks that the machine's device nodes which tests must never write to are still the
# kernel's: /dev/null (1:3), /dev/zero (1:5) and /dev/full (1:7), each a character
# device of that number. CI runs as root, so a test that wrote its output to
# /dev/null by rename or by creating the path would replace the node with a regular
# file; ctest runs this before and after every other test (fixture glint_machine_devices,
# Test/CMakeLists.txt) and .ci/run once more at the very end (after the fuzz smoke).
#
# Usage: check_machine_devices.sh [DIR]   (DIR defaults to /dev; the self-test,
# check_machine_devices_selftest.sh, points it at a scratch directory). Exit 1 and one
# line per bad node when any is wrong. Reads only: it opens none of the nodes.
dir=${1:-/dev}
status=0
for spec in null:1:3 zero:1:5 full:1:7; do
  name=${spec%%:*}
  numbers=${spec#*:}
  # stat prints the device numbers in hex.
  want="character special file $(printf '%x:%x' "${numbers%:*}" "${numbers#*:}")"
  got=$(stat -c '%F %t:%T' -- "$dir/$name" 2>&1)
  if [ "$got" != "$want" ]; then
    echo "FAILED: $dir/$name should be the character device $numbers, is: $got" >&2
    status=1
  fi
done
[ "$status" = 0 ] && echo "ok: $dir/null, $dir/zero and $dir/full are the kernel's character devices"
exit "$status"
