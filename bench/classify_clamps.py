#!/usr/bin/env python3
"""Counts the clamps robust access still emits over ../shared/corpus, by why no proof
exists, so the next analysis step can be chosen from data.

Each shader of every OK_manifest.tsv is compiled once, in its manifest environment,
with `--robust-access --range-analysis=MODE --dump-ranges=json`, from its own folder
(so includes resolve); every record whose verdict is "clamped" is put in one class:

  runtime array, no length guard   a runtime array index (limit null) with no proof
  range exceeds the limit          a range was proven, but it is wider than the object
  <reason>                         no range: the reason's root cause (the text after the
                                   last "no range:"-style prefix), numbers stripped

  bench/classify_clamps.py [--validator build/StandAlone/glslangValidator] [--mode full]
                           [--corpus ../shared/corpus] [--jobs 1]
Prints the total of clamped records and one line per class, largest first.
"""
import argparse
import collections
import concurrent.futures
import json
import os
import re
import subprocess
import sys
import tempfile

PREFIXES = ("a value stored to the local has no range: ", "loop initializer has no range: ",
            "i32 modulo of a value with no range: ", "abs of a value with no i32 range: ",
            "bitfield count has no range: ", "modulo divisor has no range: ",
            "an argument passed to the parameter has no range: ",
            "function parameter has no range: ",
            "the step of a loop-carried local has no range: ")


def root_reason(reason):
    changed = True
    while changed:
        changed = False
        for prefix in PREFIXES:
            if reason.startswith(prefix):
                reason, changed = reason[len(prefix):], True
    return re.sub(r"%\d+", "%N", reason)


def classify(record):
    if record.get("range") is not None:
        return "runtime array, no length guard" if record.get("limit") is None \
            else "range exceeds the limit"
    return root_reason(record.get("reason", "?"))


def shader_rows(corpus):
    for folder in sorted(os.listdir(corpus)):
        manifest = os.path.join(corpus, folder, "OK_manifest.tsv")
        if not os.path.isfile(manifest):
            continue
        with open(manifest) as f:
            for line in f:
                if line.startswith("#") or not line.strip():
                    continue
                path, stage, env = line.rstrip("\n").split("\t")[:3]
                yield os.path.join(corpus, folder, path), stage, env


def clamps_of(validator, mode, row, out_dir):
    path, stage, env = row
    env_flags = ["--target-env", env] if env.startswith("vulkan") else ["-G"]
    output = os.path.join(out_dir, "%d.spv" % abs(hash(row)))
    command = [validator, "-V", *env_flags, "-S", stage, "--robust-access",
               "--range-analysis=" + mode, "--dump-ranges=json", "-o", output,
               os.path.basename(path)]
    run = subprocess.run(command, cwd=os.path.dirname(path), capture_output=True, text=True)
    start = run.stdout.find('{"accesses"')
    if start < 0:
        return None
    try:
        records = json.loads(run.stdout[start:])["accesses"]
    except ValueError:
        return None
    return [classify(r) for r in records if r.get("verdict") == "clamped"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--validator", default="build/StandAlone/glslangValidator")
    parser.add_argument("--mode", default="full")
    parser.add_argument("--corpus", default="../shared/corpus")
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    validator = os.path.abspath(args.validator)
    classes, failed, total = collections.Counter(), 0, 0
    with tempfile.TemporaryDirectory() as out_dir, \
            concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        rows = list(shader_rows(args.corpus))
        for found in pool.map(lambda row: clamps_of(validator, args.mode, row, out_dir), rows):
            if found is None:
                failed += 1
                continue
            classes.update(found)
            total += len(found)
    print("%d shaders (%d without a report), %d clamps (%s mode, manifest environments)"
          % (len(rows), failed, total, args.mode))
    for reason, count in classes.most_common():
        print("%6d  %s" % (count, reason))
    return 0


if __name__ == "__main__":
    sys.exit(main())
