#!/usr/bin/env python3
"""Writes a corpus folder's OK.txt and OK_manifest.tsv (docs/CORPUS.md).

  Test/make_corpus_manifest.py CORPUS_DIR/FOLDER [--validator /usr/bin/glslangValidator]

Every file under FOLDER whose name gives a stage (`x.comp`, or `x.comp.glsl` as many
projects name them) is compiled standalone, from its own directory, with
`glslangValidator -V -S <stage> --target-env <env>` for vulkan1.0, 1.1, 1.2 and 1.3 in
turn; the first environment that compiles is the shader's. Its module is then checked
with `spirv-val --target-env <env>`: valOK or valFAIL. Files that compile in no
environment (includes, shaders needing defines) are left out. Prints the counts.
"""
import argparse
import concurrent.futures
import os
import subprocess
import sys
import tempfile

STAGES = ("vert", "tesc", "tese", "geom", "frag", "comp", "mesh", "task",
          "rgen", "rint", "rahit", "rchit", "rmiss", "rcall")
ENVIRONMENTS = ("vulkan1.0", "vulkan1.1", "vulkan1.2", "vulkan1.3")


def stage_of(name):
    parts = name.split(".")
    if parts[-1] == "glsl" and len(parts) > 2:
        parts = parts[:-1]
    return parts[-1] if len(parts) > 1 and parts[-1] in STAGES else None


def classify(validator, path, stage):
    """(env, "valOK"/"valFAIL") of the first environment that compiles, or None."""
    with tempfile.TemporaryDirectory() as scratch:
        out = os.path.join(scratch, "out.spv")
        for env in ENVIRONMENTS:
            compiled = subprocess.run(
                [validator, "-V", "-S", stage, "--target-env", env, "-o", out,
                 os.path.basename(path)], cwd=os.path.dirname(path),
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=120)
            if compiled.returncode == 0:
                valid = subprocess.run(["spirv-val", "--target-env", env, out],
                                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                return env, "valOK" if valid.returncode == 0 else "valFAIL"
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder")
    parser.add_argument("--validator", default="/usr/bin/glslangValidator")
    args = parser.parse_args()
    folder = os.path.abspath(args.folder)
    candidates = []
    for directory, _, files in os.walk(folder):
        for name in files:
            if stage_of(name):
                candidates.append(os.path.relpath(os.path.join(directory, name), folder))
    candidates.sort()
    with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 1) as pool:
        results = list(pool.map(
            lambda rel: classify(args.validator, os.path.join(folder, rel), stage_of(rel)),
            candidates))
    rows = [(rel, stage_of(rel)) + result for rel, result in zip(candidates, results) if result]
    with open(os.path.join(folder, "OK.txt"), "w", encoding="utf-8") as listing:
        listing.writelines(rel + "\n" for rel, *_ in rows)
    with open(os.path.join(folder, "OK_manifest.tsv"), "w", encoding="utf-8") as manifest:
        manifest.write("#path\tstage\ttarget_env\tspirv_val\n")
        manifest.writelines("\t".join(row) + "\n" for row in rows)
    invalid = sum(1 for row in rows if row[3] == "valFAIL")
    print("%s: %d shader files, %d compile (%d of them valFAIL), %d left out"
          % (folder, len(candidates), len(rows), invalid, len(candidates) - len(rows)))
    return 0 if rows else 1


if __name__ == "__main__":
    sys.exit(main())
