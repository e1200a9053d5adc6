#!/usr/bin/env python3
"""What a build script pays per glslc run: Glint's glslc (defaults, Glint's passes on)
against Debian's glslc, side by side over the shaders of a corpus, one process per
shader as build scripts run it (`glslc -c -fshader-stage=S --target-env=E file`).

Two measurements, printed as ratios (Glint / Debian):
  - CPU time (user + system of the child) of every shader, both tools, in rounds that
    alternate which tool goes first; per round the summed ratio, then the median and
    spread over rounds;
  - instructions (callgrind, --sample N shaders, each run once per tool), summed.

usage: glslc_cost.py GLSLC CORPUS_DIR [--rounds 5] [--sample 12]
"""
import argparse
import glob
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile

DEBIAN = "/usr/bin/glslc"


def shaders(corpus):
    found = []
    for manifest in sorted(glob.glob(os.path.join(corpus, "*", "OK_manifest.tsv"))):
        root = os.path.dirname(manifest)
        for line in open(manifest):
            if line.startswith("#") or not line.strip():
                continue
            path, stage, env = line.rstrip("\n").split("\t")[:3]
            found.append((os.path.join(root, path), stage, env))
    return found


def cpu_seconds(command, out):
    pid = os.fork()
    if pid == 0:
        devnull = os.open(os.path.join(os.path.dirname(out), "stderr"), os.O_WRONLY | os.O_CREAT)
        os.dup2(devnull, 2)
        os.execv(command[0], command)
    _, _, usage = os.wait4(pid, 0)
    return usage.ru_utime + usage.ru_stime


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("glslc")
    parser.add_argument("corpus")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--sample", type=int, default=12)
    options = parser.parse_args()
    glint = os.path.abspath(options.glslc)
    work = tempfile.mkdtemp(prefix="glint_glslc_cost_")
    out = os.path.join(work, "out.spv")
    jobs = shaders(options.corpus)
    args = lambda path, stage, env: ["-c", "-fshader-stage=" + stage, "--target-env=" + env,
                                     path, "-o", out]
    ratios = []
    totals = {"debian": 0.0, "glint": 0.0}
    for round_number in range(options.rounds):
        spent = {"debian": 0.0, "glint": 0.0}
        order = [("debian", DEBIAN), ("glint", glint)]
        if round_number % 2:
            order.reverse()
        for job in jobs:
            for tag, tool in order:
                spent[tag] += cpu_seconds([tool] + args(*job), out)
        ratios.append(spent["glint"] / spent["debian"])
        for tag in spent:
            totals[tag] += spent[tag]
        print(f"round {round_number + 1}: {len(jobs)} shaders, Debian {spent['debian']:.2f} s, "
              f"Glint {spent['glint']:.2f} s, ratio {ratios[-1]:.3f}", flush=True)
    print(f"CPU time ratio (Glint / Debian), median of {options.rounds} rounds: "
          f"{statistics.median(ratios):.3f} (min {min(ratios):.3f}, max {max(ratios):.3f})")
    random.seed(1)
    sample = random.sample(jobs, min(options.sample, len(jobs)))
    instructions = {"debian": 0, "glint": 0}
    for job in sample:
        for tag, tool in (("debian", DEBIAN), ("glint", glint)):
            log = os.path.join(work, "callgrind.out")
            subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=" + log,
                            tool] + args(*job), capture_output=True)
            with open(log) as f:
                for line in f:
                    if line.startswith("summary:") or line.startswith("totals:"):
                        instructions[tag] += int(line.split()[1])
                        break
            os.remove(log)
    print(f"instructions over {len(sample)} shaders (callgrind, one process each): "
          f"Debian {instructions['debian'] / 1e6:.1f} M, Glint {instructions['glint'] / 1e6:.1f} M, "
          f"ratio {instructions['glint'] / instructions['debian']:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
