#!/usr/bin/env python3
"""-gV and -gVS (NonSemantic.Shader.DebugInfo.100) through Glint's glslangValidator,
compared with Debian's /usr/bin/glslangValidator 12.0.0 byte for byte.

For every shader and each of -gV and -gVS, both tools compile it with the same flags in
private temporary directories, Glint's with --no-isolate (a crash inside glslang kills
the tool itself instead of being contained, so it cannot hide). Where Debian's tool
succeeds (exit 0), Glint's must too, with the same stdout and stderr and the same
output bytes. Where the bytes differ, Glint's passes must have changed the module: the
same compile with --no-glint (glslang's own output as Glint drives it) must then be
byte-identical to Debian's, and Glint's module must pass spirv-val wherever Debian's
does. Where Debian's tool fails, Glint must fail with the same exit code and no signal;
where it dies by a signal (glslang's read of its empty stack of debug scopes, which
Debian's tool survives only by luck), Glint must not, and its modules are counted valid
or not (spirv-val).

Shaders:
  --test-dir DIR   every DIR/<name>.<stage> (the golden tests' shaders); flags from the
                   first line's `// glint-flags:` (Glint's own flags left out, so both
                   tools get the same ones), else -V
  --corpus DIR     every shader of the corpus: the entries of DIR/*/OK_manifest.tsv with
                   `-V -S <stage> --target-env <env>` (the manifest's), and every other
                   file whose name gives a stage (glslangValidator's suffix rule) with -V
                   (HLSL: -D and an entry point, as Test/crash_sweep.py picks it)
Each compile runs once per flag, --jobs at a time (corpus folders smallest first);
--log FILE appends each result as it comes. Prints the counts; exits 1 on any failure,
2 when there is nothing to compare.
"""
import argparse
import concurrent.futures
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from crash_sweep import entry_point  # noqa: E402  (the same entry-point rule)

DEBUG_FLAGS = ("-gV", "-gVS")
STAGES = ("vert", "tesc", "tese", "geom", "frag", "comp", "mesh", "task",
          "rgen", "rint", "rahit", "rchit", "rmiss", "rcall")
FLAGS_MARK = "glint-flags:"
# Glint's own flags (README's table) and how many arguments follow each.
GLINT_FLAGS = {"--no-glint": 0, "--no-hoist-constant-tables": 0, "--robust-access": 0,
               "--dump-ranges": 0, "--no-isolate": 0, "--subgroup-size": 1,
               "--max-workgroups": 1, "--spec-constant": 1, "--timeout-ms": 1,
               "--report=html": 1, "--report=sarif": 1}
GLINT_PREFIXES = ("--range-analysis=", "--dump-ranges=", "--uniformity=", "--passes=")
COMPILE_TIMEOUT_S = 300


def glslang_flags(words):
    """`words` without Glint's own flags."""
    kept, skip = [], 0
    for word in words:
        if skip:
            skip -= 1
        elif word in GLINT_FLAGS:
            skip = GLINT_FLAGS[word]
        elif not word.startswith(GLINT_PREFIXES):
            kept.append(word)
    return kept


def stage_of(name):
    """glslangValidator's stage from a file name (x.frag, x.frag.glsl, x.frag.hlsl)."""
    parts = name.split(".")
    if len(parts) >= 2 and parts[-1] in STAGES:
        return parts[-1]
    if len(parts) >= 3 and parts[-1] in ("glsl", "hlsl") and parts[-2] in STAGES:
        return parts[-2]
    return None


def test_dir_shaders(directory):
    shaders = []
    for name in sorted(os.listdir(directory)):
        path = os.path.join(directory, name)
        if not os.path.isfile(path) or name.rsplit(".", 1)[-1] not in STAGES:
            continue
        with open(path, encoding="utf-8", errors="replace") as source:
            first = source.readline()
        flags = ["-V"]
        if FLAGS_MARK in first:
            flags = glslang_flags(shlex.split(first.split(FLAGS_MARK, 1)[1]))
        shaders.append((path, flags))
    return shaders


def manifest_entries(folder):
    entries = {}
    manifest = os.path.join(folder, "OK_manifest.tsv")
    if not os.path.isfile(manifest):
        return entries
    with open(manifest, encoding="utf-8") as listing:
        for line in listing:
            fields = line.rstrip("\n").split("\t")
            if line.startswith("#") or len(fields) < 3:
                continue
            path, stage, env = fields[:3]
            vulkan = ["-V"] if env.startswith(("vulkan", "spirv")) else []
            entries[os.path.join(folder, path)] = vulkan + ["-S", stage, "--target-env", env]
    return entries


def default_flags(path):
    if os.path.basename(path).startswith("hlsl.") or path.endswith(".hlsl"):
        with open(path, "rb") as source:
            text = source.read().decode("latin-1")
        return ["-V", "-D", "-e", entry_point(text)]
    return ["-V"]


def corpus_shaders(corpus):
    shaders = []
    for folder in sorted(os.listdir(corpus)):
        root = os.path.join(corpus, folder)
        if not os.path.isdir(root):
            continue
        listed = manifest_entries(root)
        for directory, _, names in os.walk(root):
            for name in sorted(names):
                path = os.path.join(directory, name)
                if path in listed:
                    shaders.append((path, listed[path]))
                elif stage_of(name):
                    shaders.append((path, default_flags(path)))
    # Smaller folders first, so that a run cut short has finished whole folders.
    folder_of = lambda path: os.path.relpath(path, corpus).split(os.sep)[0]
    folder_size = {}
    for path, _ in shaders:
        folder_size[folder_of(path)] = folder_size.get(folder_of(path), 0) + 1
    return sorted(shaders, key=lambda shader: (folder_size[folder_of(shader[0])], shader[0]))


def compile_once(tool, flags, path, scratch, extra=()):
    """(exit code, stdout, stderr, output bytes or None); run in the shader's folder."""
    directory = tempfile.mkdtemp(dir=scratch)
    output = os.path.join(directory, "out.spv")
    try:
        run = subprocess.run([tool] + list(extra) + flags + ["-o", output, os.path.basename(path)],
                             cwd=os.path.dirname(path), capture_output=True,
                             stdin=subprocess.DEVNULL, timeout=COMPILE_TIMEOUT_S)
        data = None
        if os.path.exists(output):
            with open(output, "rb") as written:
                data = written.read()
        return run.returncode, run.stdout, run.stderr, data
    except subprocess.TimeoutExpired:
        return "timeout", b"", b"", None
    finally:
        shutil.rmtree(directory, ignore_errors=True)


def same_but_glint_report(glint, reference):
    """Whether Glint's stdout is Debian's followed only by Glint's diagnostics (a
    "WARNING: " or "NOTE: " line, then its indented reasons)."""
    if not glint.startswith(reference):
        return False
    for line in glint[len(reference):].decode("latin-1").splitlines():
        if not line.startswith(("WARNING: ", "NOTE: ", "    ")):
            return False
    return True


def target_env(flags):
    envs = [flags[i + 1] for i, f in enumerate(flags[:-1]) if f == "--target-env"]
    spirv = [e for e in envs if e.startswith("spirv")]
    if spirv:
        return spirv[-1]
    if envs:
        return envs[-1]
    return "opengl4.5" if "-G" in flags else "vulkan1.0"


def valid(data, env, scratch):
    directory = tempfile.mkdtemp(dir=scratch)
    try:
        module = os.path.join(directory, "module.spv")
        with open(module, "wb") as out:
            out.write(data)
        env = "opengl4.5" if env == "opengl" else env
        return subprocess.run(["spirv-val", "--target-env", env, module],
                              capture_output=True).returncode == 0
    finally:
        shutil.rmtree(directory, ignore_errors=True)


def compare(args, path, flags, debug, scratch):
    """(outcome, detail) for one shader and one debug flag."""
    flags = flags + [debug]
    reference = compile_once(args.reference, flags, path, scratch)
    glint = compile_once(args.validator, flags, path, scratch, ["--no-isolate"])
    if isinstance(reference[0], int) and reference[0] < 0:
        # Debian's tool died by a signal (its own read of the empty stack, unlucky):
        # Glint must not, and what it writes must be valid.
        if glint[0] == reference[0]:
            # glslang's own fault on this input, in-process under --no-isolate as in
            # Debian's tool (isolated, Glint contains it: Test/crash_sweep.py).
            return "both-died", ""
        if glint[0] not in (0, 1, 2, 3):
            return "failed-where-debian-fails", "Debian and Glint die differently: %s" % glint[0]
        if glint[0] == 0 and not valid(glint[3], target_env(flags), scratch):
            return "debian-crashed-glint-invalid", ""
        return "debian-crashed", ""
    if reference[0] != 0:
        if glint[0] != reference[0]:
            return "failed-where-debian-fails", "Debian exits %s, Glint %s" % (reference[0], glint[0])
        return "reference-failed", ""
    if glint[0] != 0:
        return "failed", "Debian exits 0, Glint %s: %s" % (
            glint[0], (glint[1] + glint[2]).decode("latin-1").strip()[-300:])
    if glint[2] != reference[2] or not same_but_glint_report(glint[1], reference[1]):
        return "failed", "stdout/stderr differ from Debian's"
    if glint[3] == reference[3]:
        return "identical", ""
    plain = compile_once(args.validator, flags, path, scratch, ["--no-isolate", "--no-glint"])
    if plain[3] != reference[3]:
        # glslang 12 turns a string literal in a numeric constructor into the bits of a
        # heap pointer (spv.intrinsicsStringConstructorError.vert): Debian's own output
        # then differs from run to run, and no tool can match it byte for byte.
        again = compile_once(args.reference, flags, path, scratch)
        if again[3] != reference[3]:
            return "reference-nondeterministic", ""
        return "failed", "glslang's own output (--no-glint) differs from Debian's"
    env = target_env(flags)
    if valid(reference[3], env, scratch) and not valid(glint[3], env, scratch):
        return "failed", "Glint's module fails spirv-val where Debian's passes"
    return "changed", ""


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--validator", required=True, help="Glint's glslangValidator")
    parser.add_argument("--reference", default="/usr/bin/glslangValidator")
    parser.add_argument("--test-dir")
    parser.add_argument("--corpus")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--log", help="also append each result to this file as it comes")
    args = parser.parse_args()
    args.validator = os.path.abspath(args.validator)
    shaders = []
    if args.test_dir:
        shaders += test_dir_shaders(os.path.abspath(args.test_dir))
    if args.corpus:
        shaders += corpus_shaders(os.path.abspath(args.corpus))
    if not shaders:
        print("no shaders found")
        return 2
    counts = {}
    problems = []
    scratch = tempfile.mkdtemp(prefix="glint-debug-info-sweep-")
    try:
        jobs = [(path, flags, debug) for path, flags in shaders for debug in DEBUG_FLAGS]
        with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            results = pool.map(lambda job: (job, compare(args, *job, scratch)), jobs)
            log = open(args.log, "a", encoding="utf-8") if args.log else None
            for (path, flags, debug), (outcome, detail) in results:
                counts[(debug, outcome)] = counts.get((debug, outcome), 0) + 1
                if log:
                    log.write("%s\t%s\t%s\t%s\n" % (outcome, debug, path, detail.replace("\n", " ")))
                    log.flush()
                if outcome.startswith("failed"):
                    problems.append("%s %s %s: %s" % (debug, path, " ".join(flags), detail))
                if outcome == "reference-nondeterministic":
                    print("Debian's tool writes different bytes on each run: %s %s" % (debug, path))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    print("\n".join(problems))
    for debug in DEBUG_FLAGS:
        get = lambda outcome: counts.get((debug, outcome), 0)
        print("%s: %d shaders; Debian's tool succeeds on %d: Glint identical %d, changed by "
              "Glint's passes %d (glslang's own output identical, valid where Debian's is), "
              "failed %d; Debian's fails on %d: Glint the same exit code %d, failed %d; "
              "Debian's dies by a signal on %d: Glint compiles %d of them to valid SPIR-V, "
              "dies the same way under --no-isolate on %d; Debian's output differs from run to "
              "run on %d"
              % (debug, len(shaders), get("identical") + get("changed") + get("failed"),
                 get("identical"), get("changed"), get("failed"),
                 get("reference-failed") + get("failed-where-debian-fails"),
                 get("reference-failed"), get("failed-where-debian-fails"),
                 get("debian-crashed") + get("debian-crashed-glint-invalid") + get("both-died"),
                 get("debian-crashed"), get("both-died"),
                 get("reference-nondeterministic")))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
