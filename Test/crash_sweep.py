#!/usr/bin/env python3
"""Every file of glslang's own test directory through Glint's glslangValidator.

Part of the corpus suite (docs/CORPUS.md): the corpus's glslang/Test folder, glslang's
own test directory. Proves, for each file there (every file, not only those that
compile: shaders, includes, .conf, .out, scripts), that glslangValidator itself never
crashes: each run ends with exit code 0 (compiled), 1-3 with glslang's or Glint's own
message (refused), or the one-line report of a compile that crashed inside glslang
("internal error in glslang 12 (signal ...)") or ran past --timeout-ms, which the
isolating parent prints. Any signal or other exit code of glslangValidator is a failure.
Every module written with exit 0 must pass spirv-val for Vulkan 1.0 (-V's target) unless
glslang 12's own module for the same flags (--no-glint) fails it too: those are counted
apart (glslang's bugs or tests meant for another environment; Glint leaves a module it
does not change byte-identical to glslang's).

Flags per file: the stage comes from the file's extension (glslangValidator's rule);
HLSL files (hlsl.*) get -D and their entry point (main, then the *ShaderFunction names
glslang's tests use, else the last function defined); everything compiles with -V for
Vulkan 1.0 into a file of its own in a temporary directory. Runs in parallel, one job
per CPU. Prints the counts; exits 1 on any failure, 77 (ctest: skipped) when the corpus
has no glslang/Test folder.
"""
import argparse
import concurrent.futures
import os
import re
import shutil
import subprocess
import sys
import tempfile

TIMEOUT_MS = 5000
EXIT_SKIPPED = 77  # ctest's SKIP_RETURN_CODE for this test
INTERNAL = "internal error in glslang 12 (signal "
TIMED_OUT = "compile exceeded --timeout-ms"
ENTRY_NAMES = ["main", "PixelShaderFunction", "VertexShaderFunction", "GeometryShaderFunction",
               "HullShaderFunction", "DomainShaderFunction", "ComputeShaderFunction",
               "ShaderFunction"]
DEFINITION = re.compile(r"^[A-Za-z_][\w<>, ]*?\s+([A-Za-z_]\w*)\s*\([^;{]*\)\s*(?::\s*\w+\s*)?\{?\s*$",
                        re.MULTILINE)


def entry_point(text):
    for name in ENTRY_NAMES:
        if re.search(r"\b%s\s*\(" % name, text):
            return name
    names = [m.group(1) for m in DEFINITION.finditer(text) if m.group(1) != "return"]
    return names[-1] if names else "main"


def arguments(path, output):
    name = os.path.basename(path)
    args = ["-V", "--timeout-ms", str(TIMEOUT_MS), "-o", output]
    if name.startswith("hlsl."):
        with open(path, "rb") as f:
            text = f.read().decode("latin-1")
        args += ["-D", "-e", entry_point(text)]
    return args + [name]


def validate(module):
    """spirv-val's complaint about `module` for Vulkan 1.0 (-V's target); empty if valid."""
    val = subprocess.run(["spirv-val", "--target-env", "vulkan1.0", module], capture_output=True)
    return "" if val.returncode == 0 else (val.stdout + val.stderr).decode("latin-1")


def classify(tool, path, scratch):
    """Returns (outcome, detail) for one file."""
    directory = tempfile.mkdtemp(dir=scratch)
    try:
        shutil.copy(path, directory)
        output = os.path.join(directory, "out.spv")
        run = subprocess.run([tool] + arguments(path, output), cwd=directory, capture_output=True,
                             stdin=subprocess.DEVNULL, timeout=120)
        text = run.stdout.decode("latin-1") + run.stderr.decode("latin-1")
        if run.returncode not in (0, 1, 2, 3):
            return "crash", "exit %d" % run.returncode
        if INTERNAL in text:
            return ("internal", "") if not os.path.exists(output) else ("crash", "output left")
        if TIMED_OUT in text:
            return ("timeout", "") if not os.path.exists(output) else ("crash", "output left")
        if run.returncode != 0:
            return "refused", ""
        if not os.path.exists(output):
            return "compiled", ""
        problem = validate(output)
        if not problem:
            return "compiled", ""
        # Invalid: Glint's fault only when glslang's own module (--no-glint) is valid.
        reference = os.path.join(directory, "glslang.spv")
        subprocess.run([tool, "--no-glint"] + arguments(path, reference), cwd=directory,
                       capture_output=True, stdin=subprocess.DEVNULL, timeout=120)
        if os.path.exists(reference) and validate(reference):
            return "glslang-invalid", ""
        return "invalid", problem
    except subprocess.TimeoutExpired:
        return "crash", "glslangValidator itself hung past 120 s"
    finally:
        shutil.rmtree(directory, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--validator", required=True)
    parser.add_argument("--corpus", required=True, help="the corpus folder (docs/CORPUS.md)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    args = parser.parse_args()
    args.validator = os.path.abspath(args.validator)
    tests = os.path.join(args.corpus, "glslang", "Test")
    if not os.path.isdir(tests):
        print("crash sweep not run: %s has no glslang/Test folder (glslang's test directory)"
              % args.corpus)
        return EXIT_SKIPPED
    args.corpus = tests
    files = sorted(os.path.join(args.corpus, f) for f in os.listdir(args.corpus)
                   if os.path.isfile(os.path.join(args.corpus, f)))
    if not files:
        print("crash sweep not run: %s is empty" % args.corpus)
        return EXIT_SKIPPED
    counts = {k: 0 for k in ("compiled", "refused", "internal", "timeout", "glslang-invalid",
                             "invalid", "crash")}
    problems = []
    scratch = tempfile.mkdtemp(prefix="glint-crash-sweep-")
    try:
        with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            results = pool.map(lambda f: (f, classify(args.validator, f, scratch)), files)
            for path, (outcome, detail) in results:
                counts[outcome] += 1
                if outcome in ("internal", "timeout", "invalid", "crash"):
                    problems.append("%-9s %s %s" % (outcome, os.path.basename(path), detail.strip()[:300]))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    print("\n".join(sorted(problems)))
    print("files %d: compiled %d, refused %d, internal error in glslang %d, timeout %d; "
          "written with success but invalid: %d made so by Glint, %d as glslang 12 itself "
          "generates them; crashes of glslangValidator %d"
          % (len(files), counts["compiled"] + counts["glslang-invalid"], counts["refused"],
             counts["internal"], counts["timeout"], counts["invalid"], counts["glslang-invalid"],
             counts["crash"]))
    return 1 if counts["crash"] or counts["invalid"] else 0


if __name__ == "__main__":
    sys.exit(main())
