#!/usr/bin/env python3
"""Uniformity warnings of a glslangValidator on one half of the uniformity set.

usage: warnings.py GLSLANGVALIDATOR HALF OUT.json [--root SET_DIR] [--jobs N]
HALF is tune, heldout or all. Each row of SET_DIR/manifest.tsv is compiled once
(-V --target-env ENV FLAGS -S STAGE PATH, output into a temporary folder) and every
warning block (the WARNING line and its indented reasons) is kept, by shader path.
Prints the number of shaders, warnings and shaders warned.
"""
import argparse
import concurrent.futures
import json
import os
import subprocess
import tempfile


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("validator")
    parser.add_argument("half", choices=["tune", "heldout", "all"])
    parser.add_argument("out")
    parser.add_argument("--root", default=os.path.dirname(os.path.abspath(__file__)))
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    rows = []
    with open(os.path.join(args.root, "manifest.tsv")) as manifest:
        for line in manifest:
            if line.startswith("#") or not line.strip():
                continue
            fields = line.rstrip("\n").split("\t")  # flags may be empty: split on tabs
            if args.half != "all" and fields[5] != args.half:
                continue
            rows.append(fields)

    def run(fields):
        path, stage, env, flags = fields[0], fields[1], fields[2], fields[3]
        with tempfile.TemporaryDirectory() as tmp:
            command = [args.validator, "-V", "--target-env", env] + flags.split() + \
                      ["-S", stage, path, "-o", os.path.join(tmp, "out.spv")]
            done = subprocess.run(command, cwd=args.root, capture_output=True, text=True)
        blocks, current = [], None
        for line in (done.stdout + done.stderr).splitlines():
            if line.startswith("WARNING:"):
                current = [line]
                blocks.append(current)
            elif current is not None and line.startswith("    "):
                current.append(line)
            else:
                current = None
        return path, {"rc": done.returncode, "warnings": ["\n".join(b) for b in blocks]}

    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        results = dict(pool.map(run, rows))
    with open(args.out, "w") as out:
        json.dump(results, out, indent=1, sort_keys=True)
    warnings = sum(len(r["warnings"]) for r in results.values())
    warned = sum(1 for r in results.values() if r["warnings"])
    print(f"{len(results)} shaders, {warnings} warnings, {warned} shaders warned")


if __name__ == "__main__":
    main()
