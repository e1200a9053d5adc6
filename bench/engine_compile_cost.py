#!/usr/bin/env python3
"""Instructions an engine pays per compile after the first, glslang 12 against Glint.

Runs engine_compile_bench (bench/engine_compile_bench.cpp) under callgrind, in shards
over the CPUs, on one or more sets of shaders (each a manifest: "path<TAB>stage<TAB>env"
rows, the corpus's OK_manifest.tsv format), reads each step's dump and prints, per set:
the whole compile (parse + link + SPIR-V) of each side summed, the worst shader's ratio,
and where Glint's instructions go (each pass and analysis, inclusive).

usage: engine_compile_cost.py BENCH NAME=MANIFEST[,MANIFEST...] [NAME=...]
          [--jobs N] [--rows-per-shard K] [--per-shader FILE.tsv] [--top N]

Sides: `glslang` (glslang::GlslangToSpv), `default` (glint::GlslangToSpv in glslang's
call shape, default options), `robust` (robust access, full range analysis, the range
report formatted). Ratios are Glint's whole compile over glslang's whole compile.
"""
import argparse
import concurrent.futures
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

# Where Glint's instructions go: inclusive counts of these functions (demangled names,
# matched as regular expressions against callgrind's function names), within the
# SPIR-V step.
PARTS = [
    ("glslang GlslangToSpv", r"^glslang::GlslangToSpv\(glslang::TIntermediate const&, std::vector<unsigned int, std::allocator<unsigned int> >&, spv::SpvBuildLogger\*, glslang::SpvOptions\*\)"),
    ("Glint: parse SPIR-V", r"^glint::spirv::ParseModule\("),
    ("Glint: strip-parse (lines first)", r"^glint::spirv::ParseModuleStrippingLines\("),
    ("Glint: lines forecast", r"^glint::LinesLikelyAsked\(glslang"),
    ("Glint: hoist-constant-tables", r"^glint::spirv::HoistConstantTablesPass::Process\("),
    ("Glint: range-report", r"^glint::spirv::RangeReportPass::Process\("),
    ("Glint: robust-access", r"^glint::spirv::RobustAccessPass::Process\("),
    ("Glint: uniformity", r"^glint::spirv::UniformityCheckPass::Process\("),
    ("Glint: encode", r"^glint::spirv::Module::Encode\("),
    ("Glint: outside lines (code generation with lines, alignment)", r"GlslangOutsideLines::Make\("),
    ("Glint: range report text", r"^glint::FormatRangeReport\("),
]


def read_manifest(path):
    rows = []
    with open(path) as f:
        for line in f:
            if not line.strip() or line.startswith("#"):
                continue
            fields = line.rstrip("\n").split("\t")
            if len(fields) >= 3:
                rows.append(fields[0])
    return rows


def parse_dump(path, patterns, names):
    """Returns (label, total Ir, {part: inclusive Ir}) of one callgrind dump. `names`
    maps compressed name ids to names: callgrind defines each name once per run, so the
    dumps of one run are read in order with one map."""
    label, total = None, 0
    inclusive = {name: 0 for name, _ in patterns}
    matchers = [(name, re.compile(rx)) for name, rx in patterns]
    current = None  # the parts the current fn= matches
    in_call = False
    callee_parts = None
    fn_key = None
    with open(path, errors="replace") as f:
        for line in f:
            if line.startswith("desc: Trigger: Client Request: "):
                label = line[len("desc: Trigger: Client Request: "):].strip()
                continue
            if line.startswith(("totals:", "summary:")):
                total = int(line.split()[1])
                continue
            if line.startswith("fn="):
                fn_key = resolve(names, line[3:])
                current = [n for n, m in matchers if m.search(fn_key)]
                in_call = False
                continue
            if line.startswith("cfn="):
                callee = resolve(names, line[4:])
                callee_parts = callee == fn_key
                continue
            if line.startswith("calls="):
                in_call = True
                continue
            if not line or not (line[0].isdigit() or line[0] in "+-*"):
                continue
            cost = int(line.split()[-1])
            if current:
                if in_call and callee_parts:  # self-recursion: counted at the outer call
                    pass
                else:
                    for name in current:
                        inclusive[name] += cost
            in_call = False
    return label, total, inclusive


def resolve(names, text):
    text = text.strip()
    m = re.match(r"\((\d+)\)(?: (.*))?$", text)
    if not m:
        return text
    if m.group(2) is not None:
        names[m.group(1)] = m.group(2)
    return names.get(m.group(1), text)


def run_shard(bench, manifest, first, last, workdir):
    out = os.path.join(workdir, "cg.%d.%d" % (first, os.getpid()))
    cmd = ["valgrind", "--tool=callgrind", "--dump-instr=no",
           "--dump-line=no", "--callgrind-out-file=" + out, bench, manifest, str(first), str(last)]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    results = []
    names = {}
    for dump in sorted(glob.glob(out + ".*"), key=lambda path: int(path.rsplit(".", 1)[1])):
        label, total, parts = parse_dump(dump, PARTS, names)
        os.remove(dump)
        if label:
            results.append((label, total, parts))
    for leftover in glob.glob(out + "*"):
        os.remove(leftover)
    skipped = [l for l in proc.stdout.splitlines() if "skipped" in l]
    return results, skipped, proc.returncode


def measure_set(bench, manifest, jobs, rows_per_shard, workdir):
    rows = read_manifest(manifest)
    shards = [(i, min(i + rows_per_shard, len(rows)) - 1) for i in range(0, len(rows), rows_per_shard)]
    per_step = {}  # (row, side, step) -> (total, parts): the round with the fewer
    skipped = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        futures = [pool.submit(run_shard, bench, manifest, a, b, workdir) for a, b in shards]
        for future in concurrent.futures.as_completed(futures):
            results, skip, rc = future.result()
            if rc != 0:
                print("shard failed with exit %d" % rc, file=sys.stderr)
            skipped += skip
            for label, total, parts in results:
                row, side, step = label.split(" ")
                key = (int(row), side, step)
                if key not in per_step or total < per_step[key][0]:
                    per_step[key] = (total, parts)
    steps = {}  # (row, side) -> {"total": Ir, "spirv": Ir, parts...}
    for (row, side, step), (total, parts) in per_step.items():
        entry = steps.setdefault((row, side), {"total": 0, "spirv": 0})
        entry["total"] += total
        if step == "spirv":
            entry["spirv"] += total
            entry.update(parts)
    return rows, steps, skipped


def report(name, rows, steps, skipped, per_shader, top):
    sides = ["glslang", "default", "robust"]
    measured = sorted({row for row, side in steps if all((row, s) in steps for s in sides)})
    print("== %s: %d shaders measured, %d skipped (glslang refuses them here)" %
          (name, len(measured), len(skipped)))
    if not measured:
        return
    sums = {s: sum(steps[(r, s)]["total"] for r in measured) for s in sides}
    print("  whole compile (parse + link + SPIR-V), instructions summed:")
    for s in sides:
        print("    %-8s %15d  %.3fx" % (s, sums[s], sums[s] / sums["glslang"]))
    for s in ("default", "robust"):
        ratios = sorted(((steps[(r, s)]["total"] / steps[(r, "glslang")]["total"], r) for r in measured),
                        reverse=True)
        print("  %s: worst shaders (ratio, glslang Ir, Glint Ir, shader):" % s)
        for ratio, r in ratios[:top]:
            print("    %.3fx %12d %12d  %s" % (ratio, steps[(r, "glslang")]["total"],
                                               steps[(r, s)]["total"], rows[r]))
        over = sum(1 for ratio, _ in ratios if ratio > (1.15 if s == "default" else 1.5))
        print("    shaders over %.2fx: %d of %d" % (1.15 if s == "default" else 1.5, over, len(ratios)))
    print("  where the SPIR-V step goes, summed (share of glslang's whole compile):")
    for s in sides:
        print("    %s: SPIR-V step %d (%.1f%%)" % (s, sum(steps[(r, s)]["spirv"] for r in measured),
                                                 100.0 * sum(steps[(r, s)]["spirv"] for r in measured) / sums["glslang"]))
        if s == "glslang":
            continue
        for part, _ in PARTS:
            value = sum(steps[(r, s)].get(part, 0) for r in measured)
            if value:
                print("      %-40s %13d  %6.1f%%" % (part, value, 100.0 * value / sums["glslang"]))
    if per_shader:
        with open(per_shader, "a") as f:
            for r in measured:
                f.write("\t".join([name, rows[r]] + [str(steps[(r, s)]["total"]) for s in sides] +
                                  ["%s=%d" % (p, steps[(r, s)].get(p, 0)) for s in sides[1:] for p, _ in PARTS]) + "\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("bench")
    parser.add_argument("sets", nargs="+", help="NAME=MANIFEST")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--rows-per-shard", type=int, default=25)
    parser.add_argument("--per-shader", help="append one TSV line per shader to this file")
    parser.add_argument("--top", type=int, default=5)
    args = parser.parse_args()
    if not shutil.which("valgrind"):
        sys.exit("valgrind is not installed (apt-get install valgrind)")
    workdir = tempfile.mkdtemp(prefix="engine_compile_cost.")
    try:
        for spec in args.sets:
            name, _, manifests = spec.partition("=")
            rows, steps, skipped = [], {}, []
            for manifest in manifests.split(","):
                some_rows, some_steps, some_skipped = measure_set(
                    args.bench, manifest, args.jobs, args.rows_per_shard, workdir)
                base = len(rows)
                rows += [os.path.join(os.path.dirname(manifest), r) for r in some_rows]
                steps.update({(base + r, side): v for (r, side), v in some_steps.items()})
                skipped += some_skipped
            report(name, rows, steps, skipped, args.per_shader, args.top)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
