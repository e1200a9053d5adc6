#!/usr/bin/env python3
"""Writes the fuzz targets' seed corpora from the golden tests (nothing binary is committed).

  Test/fuzz/make_seeds.py --validator build-asan/StandAlone/glslangValidator --out DIR

For every golden shader (Test/<name>.<stage>, and with --corpus DIR the corpus shaders
Test/corpus.testlist names) it writes:
  DIR/spirv/<name>.<variant>.spv  SPIR-V compiled with the built glslangValidator: with
                                  the golden's own flags (Glint's output), with
                                  --no-glint (glslang's, before any pass), and with -g
                                  (OpLine/OpSource)
  DIR/c_api/<name>.<n>            c_api_fuzzer inputs: a 16-byte header (c_api_fuzzer.c
                                  says what each byte does) then the SPIR-V words, plus
                                  GLSL-mode headers for each built-in shader and stage,
                                  and two that claim a word count past the buffer
  DIR/glsl/<name>                 glsl_isolated_fuzzer inputs: one stage byte, then the
                                  shader text (the text of HLSL goldens as well)
  DIR/spirv/hostile_*.spv         shapes that once ran for minutes, written here, small:
                                  a loop of a long chain of blocks (spirv-val's time grows
                                  quadratically with it; issue 50)
--corpus DIR is a corpus folder (docs/CORPUS.md; the fuzz_seeds target and smoke.sh pass
the build's GLINT_CORPUS); --corpus-sample N then also takes up to N of its shaders
(evenly spread over its OK manifests) for longer campaigns. Deterministic: the same tree
writes the same files.
"""
import argparse
import concurrent.futures
import glob
import os
import shlex
import subprocess
import sys
import tempfile

FUZZ_DIR = os.path.dirname(os.path.abspath(__file__))
TEST_DIR = os.path.dirname(FUZZ_DIR)
ROOT = os.path.dirname(TEST_DIR)
STAGES = ("vert", "tesc", "tese", "geom", "frag", "comp", "mesh", "task",
          "rgen", "rint", "rahit", "rchit", "rmiss", "rcall")
# glsl_isolated_fuzzer's stage byte: the index in this list (glint_stage_t's order).
ISOLATED_STAGES = ("vert", "tesc", "tese", "geom", "frag", "comp")
# Flags that only print, or make a compile fail on purpose; the seeds want the module.
DROPPED_FLAGS = ("--dump-ranges", "--dump-ranges=json", "--uniformity=error")


def golden_shaders(corpus):
    """(name, directory, file, flags) of every golden shader (corpus goldens: with a corpus)."""
    shaders = []
    for path in sorted(glob.glob(os.path.join(TEST_DIR, "*.*"))):
        if path.rsplit(".", 1)[-1] not in STAGES:
            continue
        with open(path, encoding="utf-8") as shader:
            first = shader.readline()
        marker = first.find("glint-flags:")
        flags = shlex.split(first[marker + 12:]) if first.lstrip().startswith("//") and marker >= 0 else ["-V"]
        shaders.append((os.path.basename(path), TEST_DIR, os.path.basename(path), flags))
    listing = os.path.join(TEST_DIR, "corpus.testlist")
    if corpus:
        for line in open(listing, encoding="utf-8"):
            words = shlex.split(line, comments=True)
            path = os.path.join(corpus, words[1]) if len(words) >= 2 else ""
            if os.path.isfile(path):
                shaders.append((words[0], os.path.dirname(path), os.path.basename(path), words[2:] or ["-V"]))
    return shaders


def corpus_shaders(corpus, limit):
    """Up to `limit` shaders of the corpus, spread evenly over its OK manifests."""
    paths = []
    for manifest in sorted(glob.glob(os.path.join(corpus, "*", "OK_manifest.tsv"))):
        folder = os.path.dirname(manifest)
        for line in open(manifest, encoding="utf-8"):
            fields = line.rstrip("\n").split("\t")
            if fields and fields[0] and not fields[0].startswith("#"):
                paths.append(os.path.join(folder, fields[0]))
    paths = [p for p in paths if os.path.isfile(p)]
    step = max(1, len(paths) // max(1, limit))
    chosen = paths[::step][:limit]
    return [("corpus_%04d_%s" % (i, os.path.basename(p)), os.path.dirname(p), os.path.basename(p), ["-V"])
            for i, p in enumerate(chosen)]


def compile_spirv(validator, directory, source, flags):
    """The module glslangValidator writes, or None when it fails."""
    with tempfile.TemporaryDirectory() as scratch:
        out = os.path.join(scratch, "out.spv")
        result = subprocess.run([validator] + flags + ["-o", out, source], cwd=directory,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=120)
        if result.returncode != 0 or not os.path.exists(out):
            return None
        with open(out, "rb") as module:
            return module.read()


def spirv_variants(flags):
    # --no-isolate: the goldens compile; a child process per compile only costs time here.
    flags = [f for f in flags if f not in DROPPED_FLAGS] + ["--no-isolate"]
    return {"glint": flags, "glslang": flags + ["--no-glint"], "g": flags + ["-g"]}


def c_api_header(flags, selectors, shader=0):
    """The 16-byte header c_api_fuzzer.c reads (flags byte, options, enum selectors)."""
    hoist, robust, collect, validate = flags
    range_sel, uniformity_sel, target_sel, stage_sel = selectors
    return bytes([0, hoist, robust, collect, validate, range_sel + 1, uniformity_sel + 1,
                  target_sel + 1, stage_sel + 1, 32, 2, 7, 3, shader, 0, 0])


def c_api_seeds(spirv_by_name):
    seeds = {}
    # SPIR-V: defaults-like options, and robust access with validation for Vulkan 1.0.
    for name, words in spirv_by_name.items():
        seeds[name + ".0"] = c_api_header((1, 0, 0, 0), (2, 2, 0, 0)) + words
        seeds[name + ".1"] = c_api_header((1, 1, 1, 1), (1, 3, 2, 0)) + words
    # Counts past the buffer (over the module limit, and near SIZE_MAX): refused unread.
    for name, words in sorted(spirv_by_name.items())[:1]:
        for near_size_max in (0, 1):
            header = bytearray(c_api_header((1, 0, 0, 0), (2, 2, 0, 0)))
            header[0] = 64
            header[14] = near_size_max
            seeds["count_past_buffer_%d" % near_size_max] = bytes(header) + words
    # GLSL: every built-in shader for its own stage (index = stage), Vulkan 1.0 and 1.3.
    for shader in range(8):
        for target in (2, 5):
            header = bytearray(c_api_header((1, shader % 2, 1, 1), (2, 2, target, min(shader, 5)), shader))
            header[0] = 2 | (4 if target == 5 else 0)
            seeds["glsl_%d_%d" % (shader, target)] = bytes(header) + b"main\0shader.glsl\0"
    return seeds


def encode(opcode, *operands):
    return [(len(operands) + 1) << 16 | opcode] + list(operands)


def loop_of_blocks(blocks):
    """A compute shader whose loop body is a chain of `blocks` blocks, as SPIR-V bytes."""
    void, fn, boolean, true, main, entry, header, merge, cont = range(1, 10)
    first = 10
    bound = first + blocks
    name = int.from_bytes(b"main", "little")
    words = [0x07230203, 0x00010000, 0, bound, 0]
    words += encode(17, 1)  # OpCapability Shader
    words += encode(14, 0, 1)  # OpMemoryModel Logical GLSL450
    words += encode(15, 5, main, name, 0)  # OpEntryPoint GLCompute %main "main"
    words += encode(16, main, 17, 1, 1, 1)  # OpExecutionMode LocalSize 1 1 1
    words += encode(19, void) + encode(33, fn, void) + encode(20, boolean) + encode(41, boolean, true)
    words += encode(54, void, main, 0, fn) + encode(248, entry) + encode(249, header)
    words += encode(248, header) + encode(246, merge, cont, 0) + encode(249, first)
    for block in range(first, bound):
        words += encode(248, block) + encode(249, block + 1 if block + 1 < bound else cont)
    words += encode(248, cont) + encode(250, true, header, merge)
    words += encode(248, merge) + encode(253) + encode(56)
    return b"".join(word.to_bytes(4, "little") for word in words)


def write(directory, files):
    os.makedirs(directory, exist_ok=True)
    for name, data in files.items():
        with open(os.path.join(directory, name), "wb") as out:
            out.write(data)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--validator", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--corpus", help="corpus folder (docs/CORPUS.md)")
    parser.add_argument("--corpus-sample", type=int, default=0)
    args = parser.parse_args()
    if args.corpus_sample and not args.corpus:
        parser.error("--corpus-sample needs --corpus DIR")
    validator = os.path.abspath(args.validator)
    shaders = golden_shaders(args.corpus)
    if args.corpus_sample:
        shaders += corpus_shaders(args.corpus, args.corpus_sample)
    spirv, glsl = {}, {}
    jobs = {}
    with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 1) as pool:
        for name, directory, source, flags in shaders:
            for variant, variant_flags in spirv_variants(flags).items():
                jobs["%s.%s.spv" % (name, variant)] = pool.submit(
                    compile_spirv, validator, directory, source, variant_flags)
    for seed_name, job in sorted(jobs.items()):
        if job.result():
            spirv[seed_name] = job.result()
    for name, directory, source, flags in shaders:
        stage = source.rsplit(".", 2)[-2] if source.endswith(".glsl") else source.rsplit(".", 1)[-1]
        with open(os.path.join(directory, source), "rb") as text:
            stage_byte = ISOLATED_STAGES.index(stage) if stage in ISOLATED_STAGES else 4
            glsl[name] = bytes([stage_byte]) + text.read()
    if not spirv:
        sys.exit("make_seeds: glslangValidator compiled no golden shader; is %s built?" % validator)
    spirv["hostile_loop_of_blocks.spv"] = loop_of_blocks(500)
    write(os.path.join(args.out, "spirv"), spirv)
    write(os.path.join(args.out, "c_api"), c_api_seeds(spirv))
    write(os.path.join(args.out, "glsl"), glsl)
    print("make_seeds: %d SPIR-V, %d C API, %d GLSL seeds in %s"
          % (len(spirv), len(spirv) * 2 + 18, len(glsl), args.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
