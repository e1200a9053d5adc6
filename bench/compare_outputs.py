#!/usr/bin/env python3
"""Compares what two glslangValidator builds write for every shader of a corpus.

For each row of the corpus manifests (OK_manifest.tsv: path, stage, target environment)
and each flag set, runs both binaries from the shader's folder as
  BINARY [FLAGS] ENV_FLAGS -S STAGE NAME -o OUT
(ENV_FLAGS as bench/classify_clamps.py gives them: "-V --target-env vulkan1.0", ...)
and compares the exit code, stdout, stderr (with the output path and the binary's path
replaced) and the
output file's bytes. Prints one line per difference and a total; exits 1 when any differ.
Use it to show that a change keeps every output, warning and report.

usage: compare_outputs.py BASE_BINARY NEW_BINARY CORPUS_DIR [--flags "SET" ...]
       [--envs manifest|all] [--jobs N]
Flag sets default to the defaults ("") and robust access with the JSON range report
("--robust-access --range-analysis=full --dump-ranges=json"). --envs all runs every row in
opengl, vulkan1.0 .. vulkan1.3 and vulkan1.1spv1.4 instead of the manifest's environment.
"""
import argparse
import concurrent.futures
import glob
import hashlib
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from classify_clamps import ENVIRONMENTS  # noqa: E402  the environments' flags, as there

ALL_ENVS = list(ENVIRONMENTS)


def rows(corpus):
    for manifest in sorted(glob.glob(os.path.join(corpus, "*", "OK_manifest.tsv"))):
        folder = os.path.dirname(manifest)
        with open(manifest) as f:
            for line in f:
                if line.startswith("#") or not line.strip():
                    continue
                path, stage, env = line.rstrip("\n").split("\t")[:3]
                yield os.path.join(folder, path), stage, env


def run(binary, shader, stage, env, flags, out_dir):
    out = os.path.join(out_dir, "out.spv")
    if os.path.exists(out):
        os.remove(out)
    cmd = [binary] + flags.split() + ENVIRONMENTS[env] + ["-S", stage, os.path.basename(shader),
                                                          "-o", out]
    try:
        proc = subprocess.run(cmd, cwd=os.path.dirname(shader), capture_output=True, timeout=600)
        code, stdout, stderr = proc.returncode, proc.stdout, proc.stderr
    except subprocess.TimeoutExpired:
        code, stdout, stderr = "timeout", b"", b""
    data = open(out, "rb").read() if os.path.exists(out) else None
    text = lambda b: b.replace(out_dir.encode(), b"OUT").replace(binary.encode(), b"BINARY")
    digest = hashlib.sha256(data).hexdigest() if data is not None else "none"
    return code, text(stdout), text(stderr), digest


def compare(args, job):
    shader, stage, env, flags = job
    with tempfile.TemporaryDirectory() as a, tempfile.TemporaryDirectory() as b:
        base = run(args.base, shader, stage, env, flags, a)
        new = run(args.new, shader, stage, env, flags, b)
    if base == new:
        return None
    what = [name for name, x, y in zip(("exit", "stdout", "stderr", "output"), base, new) if x != y]
    return "%s [%s] %s: %s differ" % (shader, env, flags or "(defaults)", ", ".join(what))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("base")
    parser.add_argument("new")
    parser.add_argument("corpus")
    parser.add_argument("--flags", action="append")
    parser.add_argument("--envs", choices=["manifest", "all"], default="manifest")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    args = parser.parse_args()
    flag_sets = args.flags if args.flags else ["", "--robust-access --range-analysis=full --dump-ranges=json"]
    args.base, args.new = os.path.abspath(args.base), os.path.abspath(args.new)
    jobs = []
    for shader, stage, env in rows(args.corpus):
        for flags in flag_sets:
            for e in (ALL_ENVS if args.envs == "all" else [env]):
                jobs.append((shader, stage, e, flags))
    differ = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for result in pool.map(lambda job: compare(args, job), jobs):
            if result:
                differ += 1
                print(result, flush=True)
    print("%d compiles compared, %d differ" % (len(jobs), differ))
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
