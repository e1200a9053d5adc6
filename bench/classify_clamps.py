#!/usr/bin/env python3
"""Counts the clamps robust access still emits over a corpus (docs/CORPUS.md), by why no proof
exists, so the next analysis step can be chosen from data.

Each shader of every OK_manifest.tsv is compiled once per environment (its manifest
environment, or with --envs all the six that corpus_test uses), with `--robust-access
--range-analysis=MODE --dump-ranges=json`, from its own folder (so includes resolve);
every record whose verdict is "clamped" is put in one class:

  runtime array whose length the shader never reads
                                   the record's length_never_read: no `.length()` of the
                                   buffer in the module, so the application may bind
                                   fewer elements than any index (whatever its range)
  runtime array index not tied to a test of its length
                                   a runtime array index with a range and no proof, in
                                   a module that reads the array's length somewhere
  array length is a specialization constant ...
                                   the record's limit_source: the application may give
                                   the length any value, and no proof ties the index to
                                   the length itself (whatever the index's range: only
                                   index 0 is in bounds for every value otherwise)
  range exceeds the limit          a range was proven, but it is wider than the object
  <reason>                         no range: the reason's root cause (the text after the
                                   last "no range:"-style prefix), numbers stripped

and each class in one of two groups:

  input   the index depends on something only the application or device decides and
          the shader does not test: an image's size, a buffer's length or contents, a
          dispatch size, a vertex or instance number, a specialization constant left
          unset (a workgroup size or an array length given by one too). No sound static
          analysis can drop such a clamp; only a run-time test
          in the shader (which it does not have) or a promise (--max-workgroups,
          --subgroup-size, --spec-constant) can.
  out of bounds
          the index is proven to leave its object: the record's "out_of_bounds" names
          an invocation of every workgroup that computes an out-of-bounds index there
          and runs the access whenever it finishes (analysis/access/out_of_bounds_witness.h).
          The clamp is the shader's own bug made safe; no analysis can drop it.
  analysis everything else: a stronger analysis might prove some of these (and some
          may be real out-of-bounds indices no witness was found for), so the group is
          an upper bound on what is left to gain.

With --ceiling it also counts every dynamic index site (mode off: every site clamped)
and prints the most a sound analysis could elide with robust access's emitted form:
sites minus the input and out-of-bounds groups.

Indices proven for every specialization (the record's verdict "proven in bounds" with
its limit set by a specialization constant and a range other than [0, 0], which
index 0 alone would be: integer_range_spec_lengths.cpp) are counted
on a line of their own. They lie beyond the ceiling, which counts an array length given
by a specialization constant as an input, so the ceiling and the share of it the mode
elides leave them out: the ceiling's meaning does not change with them.

  bench/classify_clamps.py [--validator build/StandAlone/glslangValidator] [--mode full]
                           (--corpus CORPUS_DIR | --manifest FILE [--half NAME])
                           [--jobs 1] [--envs manifest|all] [--ceiling] [--list FILE]
--list writes one line per clamp: class, group, environment, shader, JSON record.

--manifest reads one manifest of a measurement set gathered outside the corpus (the form
bench/uniformity_set/README.md builds): tab-separated path, stage, target environment,
compiler flags (-D, -I; may be empty), project and half, paths and -I folders relative to
the manifest's folder, each shader compiled from that folder. --half keeps the rows of one
half (tune or heldout), so a held-out half is counted without reading the other.
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
            "the step of a loop-carried local has no range: ",
            "local is updated from its own value in a loop whose exit test has a bound without "
            "a range: ",
            "a value the function returns has no range: ", "clamp bounds have no range: ")

# corpus_test's environments (gtests/corpus_test.cpp, kEnvironments), same flags.
ENVIRONMENTS = {
    "opengl": ["--target-env", "opengl"],
    "vulkan1.0": ["-V", "--target-env", "vulkan1.0"],
    "vulkan1.1": ["-V", "--target-env", "vulkan1.1"],
    "vulkan1.1spv1.4": ["-V", "--target-env", "vulkan1.1", "--target-env", "spirv1.4"],
    "vulkan1.2": ["-V", "--target-env", "vulkan1.2"],
    "vulkan1.3": ["-V", "--target-env", "vulkan1.3"],
}

# Root causes decided outside the shader (see the module comment), by their reason text.
INPUT_CAUSES = (
    (re.compile(r"^image limits are only known at run time"), "image size"),
    (re.compile(r"^runtime array whose length the shader never reads"), "buffer length"),
    (re.compile(r"^load from memory through an access chain"), "memory contents"),
    # Full mode names the memory a value was read from (integer_range_origins.cpp).
    (re.compile(r"^value read from (Uniform|UniformConstant|PushConstant|StorageBuffer|"
                r"PhysicalStorageBuffer|ShaderRecordBufferKHR) memory"), "memory contents"),
    (re.compile(r"^value read from an image"), "memory contents"),
    (re.compile(r"^value read from Input memory"), "previous stage's output"),
    (re.compile(r"^value read from (IncomingRayPayloadKHR|HitAttributeKHR|"
                r"IncomingCallableDataKHR|RayPayloadKHR|CallableDataKHR) memory"),
     "another ray tracing shader's data"),
    (re.compile(r"^OpAtomic\w+ is not supported"), "memory contents"),
    (re.compile(r"^OpConvertF\w+ is not supported"), "memory contents"),
    (re.compile(r"^OpRayQuery\w+ is not supported"), "memory contents"),
    (re.compile(r"^built-in \w+ has no range"), "built-in the application or device sets"),
    (re.compile(r"^Subgroup\w+ needs a known subgroup size"), "device subgroup size"),
    (re.compile(r"^specialization constant without a value"), "specialization constant"),
    (re.compile(r"^workgroup size is a specialization constant without a value"),
     "specialization constant"),
    (re.compile(r"^array length is a specialization constant without a value"),
     "specialization constant"),
)


def root_reason(reason):
    changed = True
    while changed:
        changed = False
        for prefix in PREFIXES:
            if reason.startswith(prefix):
                reason, changed = reason[len(prefix):], True
    return re.sub(r"%\d+", "%N", reason)


OUT_OF_BOUNDS = "index proven out of bounds (an invocation of every workgroup shows it)"
LENGTH_NEVER_READ = ("runtime array whose length the shader never reads (the application may bind"
                     " fewer elements than any index)")
SPEC_LENGTH = ("array length is a specialization constant without a value (only index 0 is"
               " in bounds for every value; use --spec-constant)")


def classify(record):
    if record.get("out_of_bounds") is not None:
        return OUT_OF_BOUNDS
    if record.get("limit_source") == "specialization constant":
        return SPEC_LENGTH
    if record.get("length_never_read"):
        return LENGTH_NEVER_READ
    if record.get("range") is not None:
        return "runtime array index not tied to a test of its length" \
            if record.get("limit") is None else "range exceeds the limit"
    return root_reason(record.get("reason", "?"))


def group_of(reason_class):
    if reason_class == OUT_OF_BOUNDS:
        return "out of bounds"
    for pattern, cause in INPUT_CAUSES:
        if pattern.search(reason_class):
            return "input (%s)" % cause
    return "analysis"


def shader_rows(corpus, envs):
    for folder in sorted(os.listdir(corpus)):
        manifest = os.path.join(corpus, folder, "OK_manifest.tsv")
        if not os.path.isfile(manifest):
            continue
        with open(manifest) as f:
            for line in f:
                if line.startswith("#") or not line.strip():
                    continue
                path, stage, env = line.rstrip("\n").split("\t")[:3]
                full_path = os.path.join(corpus, folder, path)
                for target in (ENVIRONMENTS if envs == "all" else [env]):
                    yield full_path, stage, target, (), os.path.dirname(full_path)


def manifest_rows(manifest, half, envs):
    """Rows of a measurement-set manifest (see the module comment); a row's flags are
    split on blanks, and the compile runs from the manifest's folder."""
    root = os.path.dirname(os.path.abspath(manifest))
    with open(manifest) as f:
        for line in f:
            if line.startswith("#") or line.startswith("path\t") or not line.strip():
                continue
            fields = line.rstrip("\n").split("\t")
            if len(fields) < 3:
                raise SystemExit("%s: a row needs path, stage and environment: %r"
                                 % (manifest, line))
            path, stage, env = fields[:3]
            flags = tuple(fields[3].split()) if len(fields) > 3 else ()
            row_half = fields[5] if len(fields) > 5 else None
            if half is not None and row_half != half:
                continue
            for target in (ENVIRONMENTS if envs == "all" else [env]):
                yield os.path.join(root, path), stage, target, flags, root


def env_flags(env):
    if env in ENVIRONMENTS:
        return ENVIRONMENTS[env]
    return ["--target-env", env] if env.startswith("vulkan") else ["-G"]


def records_of(validator, mode, row, out_dir):
    """The access records of one compile, or None when it produced no report (a
    shader that does not compile in that environment)."""
    path, stage, env, flags, folder = row
    output = os.path.join(out_dir, "%d.spv" % abs(hash((row, mode))))
    command = [validator, *env_flags(env), *flags, "-S", stage, "--robust-access",
               "--range-analysis=" + mode, "--dump-ranges=json", "-o", output,
               os.path.relpath(path, folder)]
    run = subprocess.run(command, cwd=folder, capture_output=True, text=True)
    start = run.stdout.find('{"accesses"')
    if start < 0:
        return None
    try:
        records = json.loads(run.stdout[start:])["accesses"]
    except ValueError:
        return None
    return records


def clamped_sites(per_row):
    return [clamped(records) for records in per_row]


def clamped(records):
    return None if records is None else [r for r in records if r.get("verdict") == "clamped"]


def proven_for_every_specialization(records):
    """Indices proven below a length given by a specialization constant, other than those
    whose range is [0, 0] (index 0 is in bounds of every length: those were always
    within the ceiling)."""
    return sum(1 for r in records or [] if r.get("verdict") == "proven in bounds"
               and r.get("limit_source") == "specialization constant"
               and r.get("range") != [0, 0])


def count_mode(pool, validator, mode, rows, out_dir):
    """Per row: the access records (None where there was no report)."""
    return list(pool.map(lambda row: records_of(validator, mode, row, out_dir), rows))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--validator", default="build/StandAlone/glslangValidator")
    parser.add_argument("--mode", default="full")
    sources = parser.add_mutually_exclusive_group(required=True)
    sources.add_argument("--corpus", help="corpus folder (docs/CORPUS.md)")
    sources.add_argument("--manifest", help="a measurement set's manifest (see above)")
    parser.add_argument("--half", help="with --manifest: only the rows of this half")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--envs", choices=("manifest", "all"), default="manifest")
    parser.add_argument("--ceiling", action="store_true")
    parser.add_argument("--list")
    args = parser.parse_args()
    validator = os.path.abspath(args.validator)
    if args.half is not None and args.manifest is None:
        parser.error("--half needs --manifest")
    if args.manifest is not None:
        corpus = os.path.dirname(os.path.abspath(args.manifest))
        rows = list(manifest_rows(args.manifest, args.half, args.envs))
    else:
        corpus = os.path.abspath(args.corpus)
        rows = list(shader_rows(corpus, args.envs))
    if not rows:
        parser.error("no shaders to compile")
    with tempfile.TemporaryDirectory() as out_dir, \
            concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        found_records = count_mode(pool, validator, args.mode, rows, out_dir)
        sites = count_mode(pool, validator, "off", rows, out_dir) if args.ceiling else None
    found = [clamped(records) for records in found_records]
    every_specialization = sum(proven_for_every_specialization(r) for r in found_records)
    classes, groups, lines = collections.Counter(), collections.Counter(), []
    for row, records in zip(rows, found):
        for record in records or []:
            reason_class = classify(record)
            classes[reason_class] += 1
            groups[group_of(reason_class)] += 1
            lines.append("\t".join([reason_class, group_of(reason_class), row[2],
                                    os.path.relpath(row[0], corpus), json.dumps(record)]))
    total = sum(classes.values())
    print("%d compiles (%d without a report), %d clamps (%s mode, %s environments)"
          % (len(rows), sum(r is None for r in found), total, args.mode, args.envs))
    for reason, count in classes.most_common():
        group = group_of(reason)
        print("%6d  %-8s  %s" % (count, "oob" if group == "out of bounds" else group.split(" ")[0],
                                 reason))
    print("by group:")
    for group, count in groups.most_common():
        print("%6d  %s" % (count, group))
    print("proven for every specialization: %d (array lengths given by specialization"
          " constants; beyond the ceiling)" % every_specialization)
    if sites is not None:
        off = sum(len(r or []) for r in clamped_sites(sites))
        out_of_bounds = groups["out of bounds"]
        # The sites proven for every specialization are inputs' to the ceiling.
        inputs = total - groups["analysis"] - out_of_bounds + every_specialization
        ceiling = off - inputs - out_of_bounds
        elided = off - total - every_specialization
        print("sites (clamps with --range-analysis=off): %d; %s elides %d (%d of them"
              " proven for every specialization)" % (off, args.mode, off - total,
                                                      every_specialization))
        print("ceiling: a sound analysis could elide at most %d (sites - input group %d"
              " - out of bounds %d); %s leaves at most %d to gain (%s elides %.1f%% of it)"
              % (ceiling, inputs, out_of_bounds, args.mode, groups["analysis"], args.mode,
                 100.0 * elided / ceiling if ceiling else 100.0))
    if args.list:
        with open(args.list, "w") as f:
            f.write("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
