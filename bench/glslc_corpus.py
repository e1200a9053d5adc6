#!/usr/bin/env python3
"""Glint's glslc beside Debian's glslc over a corpus, each shader in several target
environments: with -fno-glint the two must agree byte for byte (exit code, stdout,
stderr, the output file); with Glint's defaults every module Glint's glslc writes must
pass spirv-val for its environment, and must equal glslc's where Glint changed nothing.
Prints counts per environment and the first differences.

usage: glslc_corpus.py GLSLC CORPUS_DIR [--jobs N] [--envs vulkan1.0,vulkan1.1,...]

Each shader is compiled as its manifest says (OK_manifest.tsv: path, stage, target_env)
with `-c -fshader-stage=STAGE --target-env=ENV`; a shader whose manifest environment is
vulkan1.3 is tried only in vulkan1.3 (it needs it). Scratch files go to a temporary
folder of its own, removed at the end.
"""
import argparse
import concurrent.futures
import glob
import os
import shutil
import subprocess
import sys
import tempfile

DEBIAN_GLSLC = "/usr/bin/glslc"
SPIRV_VAL_ENV = {"vulkan1.0": "vulkan1.0", "vulkan1.1": "vulkan1.1", "vulkan1.2": "vulkan1.2",
                 "vulkan1.3": "vulkan1.3", "opengl": "opengl4.5"}


def run(command, cwd):
    result = subprocess.run(command, cwd=cwd, capture_output=True, timeout=300)
    return result.returncode, result.stdout, result.stderr


def one(glslc, path, stage, env, scratch):
    work = tempfile.mkdtemp(dir=scratch)
    try:
        args = ["-c", "-fshader-stage=" + stage, "--target-env=" + env, path]
        outcome = {}
        for tag, command in (("debian", [DEBIAN_GLSLC] + args),
                             ("plain", [glslc, "-fno-glint"] + args),
                             ("glint", [glslc] + args)):
            out = os.path.join(work, tag + ".spv")
            rc, stdout, stderr = run(command + ["-o", out], work)
            data = open(out, "rb").read() if os.path.exists(out) else None
            outcome[tag] = (rc, stdout, stderr, data)
        same_plain = outcome["debian"] == outcome["plain"]

        def validates(tag):
            if outcome[tag][3] is None:
                return None
            rc, _, _ = run(["spirv-val", "--target-env", SPIRV_VAL_ENV[env],
                            os.path.join(work, tag + ".spv")], work)
            return rc == 0

        valid = validates("glint")
        # A module Glint's glslc writes that fails spirv-val is Glint's problem only where
        # glslc's own module for the shader passes it (glslang 12 writes a few invalid ones).
        if valid is False and validates("debian") is not True:
            valid = None
        debian_ok = outcome["debian"][0] == 0
        changed = outcome["glint"][3] != outcome["debian"][3]
        return path, env, same_plain, debian_ok, valid, changed, outcome
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("glslc")
    parser.add_argument("corpus")
    parser.add_argument("--jobs", type=int, default=os.cpu_count())
    parser.add_argument("--envs", default="vulkan1.0,vulkan1.1,vulkan1.2,vulkan1.3,opengl")
    options = parser.parse_args()
    envs = options.envs.split(",")
    glslc = os.path.abspath(options.glslc)
    jobs = []
    for manifest in sorted(glob.glob(os.path.join(options.corpus, "*", "OK_manifest.tsv"))):
        root = os.path.dirname(manifest)
        for line in open(manifest):
            if line.startswith("#") or not line.strip():
                continue
            path, stage, manifest_env = line.rstrip("\n").split("\t")[:3]
            for env in envs:
                if manifest_env == "vulkan1.3" and env != "vulkan1.3":
                    continue
                jobs.append((os.path.join(root, path), stage, env))
    scratch = tempfile.mkdtemp(prefix="glint_glslc_corpus_")
    counts = {}
    differences = []
    try:
        with concurrent.futures.ThreadPoolExecutor(options.jobs) as pool:
            for path, env, same, debian_ok, valid, changed, outcome in pool.map(
                    lambda job: one(glslc, *job, scratch), jobs):
                c = counts.setdefault(env, {"compiles": 0, "same": 0, "debian_ok": 0,
                                            "written": 0, "valid": 0, "changed": 0})
                c["compiles"] += 1
                c["same"] += same
                c["debian_ok"] += debian_ok
                if outcome["glint"][3] is not None:
                    c["written"] += 1
                    c["valid"] += valid is not False
                    c["changed"] += changed
                if not same or valid is False:
                    differences.append((path, env, same, valid, outcome))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    # valid: passes spirv-val, or glslc's own module for the shader fails it too.
    print("env         compiles  -fno-glint same  glslc ok  Glint wrote  valid  changed by Glint")
    for env in envs:
        c = counts.get(env)
        if c:
            print(f"{env:<11} {c['compiles']:>8}  {c['same']:>15}  {c['debian_ok']:>8}  "
                  f"{c['written']:>11}  {c['valid']:>5}  {c['changed']:>16}")
    for path, env, same, valid, outcome in differences[:40]:
        print(f"DIFFERS {path} [{env}] -fno-glint same={same} valid={valid}")
        for tag in ("debian", "plain", "glint"):
            rc, stdout, stderr, data = outcome[tag]
            print(f"  {tag}: rc={rc} out={len(data) if data else None} err={stderr[:300]!r}")
    return 1 if differences else 0


if __name__ == "__main__":
    sys.exit(main())
