#!/usr/bin/env python3
"""Builds and runs shaderc 2023.2's own libshaderc tests against Glint's libshaderc.

The tests (libshaderc/src of shaderc's release: shaderc_test.cc, shaderc_cpp_test.cc,
shaderc_c_smoke_test.c; fetched by External/setup.py into
.downloads/shaderc-libshaderc-tests, see known_good.json) are built as a user of the
installed library would build them: `cmake --install` of this build into a temporary
prefix, then the system compiler with what that prefix's shaderc.pc says, plus the
tests' own needs (GoogleTest and gmock; SPIRV-Tools, which shaderc_cpp_test.cc calls
itself to disassemble). Every test must pass.

usage: run_shaderc_library_tests.py BUILD_DIR
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TESTS = os.path.join(ROOT, ".downloads", "shaderc-libshaderc-tests")


def run(command, **kwargs):
    return subprocess.run(command, capture_output=True, text=True, **kwargs)


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    build = os.path.abspath(sys.argv[1])
    if not os.path.isfile(os.path.join(TESTS, "shaderc_test.cc")):
        print(f"shaderc's libshaderc tests are not in {TESTS}: run External/setup.py")
        return 1
    scratch = tempfile.mkdtemp(prefix="glint_shaderc_library_tests_")
    try:
        prefix = os.path.join(scratch, "prefix")
        installed = run(["cmake", "--install", build, "--prefix", prefix])
        if installed.returncode != 0:
            print(installed.stdout, installed.stderr)
            return 1
        pc_dirs = [os.path.join(prefix, d, "pkgconfig") for d in ("lib", "lib64")]
        pc_dirs += [os.path.join(prefix, "lib", d, "pkgconfig")
                    for d in os.listdir(os.path.join(prefix, "lib"))
                    if os.path.isdir(os.path.join(prefix, "lib", d, "pkgconfig"))]
        env = dict(os.environ, PKG_CONFIG_PATH=":".join(pc_dirs))
        flags = run(["pkg-config", "--cflags", "--libs", "shaderc"], env=env)
        libdir = run(["pkg-config", "--variable=libdir", "shaderc"], env=env)
        if flags.returncode != 0:
            print("pkg-config shaderc failed:", flags.stderr)
            return 1
        shaderc_flags = flags.stdout.split() + ["-Wl,-rpath," + libdir.stdout.strip()]
        programs = [
            ("shaderc_c_smoke_test", ["gcc", "shaderc_c_smoke_test.c"], []),
            ("shaderc_test", ["g++", "-std=c++17", "-O1", "shaderc_test.cc"],
             ["-lgmock", "-lgtest", "-lgtest_main", "-lpthread"]),
            ("shaderc_cpp_test", ["g++", "-std=c++17", "-O1", "shaderc_cpp_test.cc"],
             ["-lgmock", "-lgtest", "-lgtest_main", "-lSPIRV-Tools", "-lpthread"]),
        ]
        failed = False
        total = passed = 0
        for name, compile_command, extra in programs:
            binary = os.path.join(scratch, name)
            built = run(compile_command + ["-o", binary] + shaderc_flags + extra, cwd=TESTS)
            if built.returncode != 0:
                print(f"{name}: does not build\n{built.stderr[-4000:]}")
                failed = True
                continue
            ran = run([binary], cwd=scratch)
            if name == "shaderc_c_smoke_test":
                total += 1
                passed += ran.returncode == 0
                print(f"{name}: exit {ran.returncode}")
                failed |= ran.returncode != 0
                continue
            match = re.search(r"\[  PASSED  \] (\d+) tests?", ran.stdout)
            ran_count = re.search(r"\[==========\] (\d+) tests? from", ran.stdout)
            count = int(ran_count.group(1)) if ran_count else 0
            ok = int(match.group(1)) if match else 0
            total += count
            passed += ok
            print(f"{name}: {ok} of {count} pass (exit {ran.returncode})")
            if ran.returncode != 0 or ok != count or count == 0:
                print("\n".join(l for l in ran.stdout.splitlines() if "FAILED" in l))
                failed = True
        print(f"shaderc 2023.2 libshaderc tests: {passed} of {total} pass")
        return 1 if failed else 0
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
