#!/usr/bin/env python3
"""Runs shaderc 2023.2's own glslc test suite against Glint's glslc.

The suite (glslc/test of shaderc's release, fetched by External/setup.py into
.downloads/shaderc-glslc-test, see known_good.json) is copied into a fresh temporary
folder, since its framework writes its scratch files beside its sources, and run there
with the given glslc and spirv-dis. Every case must pass except those listed in
glslc/shaderc_suite_known_failures.txt, each with the reason; a listed case that passes
fails the run too, so the list only shrinks.

usage: run_shaderc_suite.py GLSLC SPIRV_DIS
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SUITE = os.path.join(ROOT, ".downloads", "shaderc-glslc-test")
KNOWN = os.path.join(ROOT, "glslc", "shaderc_suite_known_failures.txt")


def known_failures():
    known = {}
    with open(KNOWN) as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            name, _, why = line.partition(" ")
            known[name] = why.strip()
    return known


def main():
    if len(sys.argv) != 3:
        print(__doc__)
        return 2
    glslc, spirv_dis = (os.path.abspath(p) for p in sys.argv[1:])
    if not os.path.isfile(os.path.join(SUITE, "glslc_test_framework.py")):
        print(f"shaderc's glslc test suite is not in {SUITE}: run External/setup.py")
        return 1
    known = known_failures()
    # No '.' in the folder's path: glslc names outputs by the last '.' of the whole path,
    # and one of the suite's cases compiles a file without an extension.
    scratch = tempfile.mkdtemp(prefix="glint_shaderc_suite_")
    try:
        suite = os.path.join(scratch, "glslc_test")
        shutil.copytree(SUITE, suite)
        run = subprocess.run([sys.executable, "glslc_test_framework.py", glslc, spirv_dis,
                              "--test-dir", suite], cwd=suite, capture_output=True, text=True)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    # (name, passed) per case; a few names are used by two of the suite's files.
    cases = []
    for line in run.stdout.splitlines():
        match = re.match(r"^\d+/\d+\s+(\S+)\s+(Passed|-Failed-)$", line)
        if match:
            cases.append((match.group(1), match.group(2) == "Passed"))
    results = {}
    for name, ok in cases:
        results[name] = results.get(name, True) and ok
    if not cases:
        print(run.stdout[-4000:], run.stderr[-4000:])
        print("the suite ran no case")
        return 1
    unexpected = sorted(n for n, ok in results.items() if not ok and n not in known)
    fixed = sorted(n for n in known if results.get(n))
    missing = sorted(n for n in known if n not in results)
    passed = sum(ok for _, ok in cases)
    print(f"shaderc 2023.2 glslc suite: {passed} of {len(cases)} cases pass; "
          f"{len(known)} known failures listed in glslc/shaderc_suite_known_failures.txt")
    if unexpected:
        print("failed (not known):")
        for name in unexpected:
            print("  " + name)
        # The framework's details for the failures, as it printed them.
        print(run.stdout[-8000:])
    if fixed:
        print("listed as known failures but passed (remove them from the list):")
        for name in fixed:
            print("  " + name)
    if missing:
        print("listed as known failures but not in the suite: " + " ".join(missing))
    return 1 if unexpected or fixed or missing else 0


if __name__ == "__main__":
    sys.exit(main())
