#!/usr/bin/env python3
"""Checks that the generator's traps really go out of bounds at run time and are clamped.

Reads, in DIR, every generated shader X.comp with its glint-audit report X.comp.log (the
full report, not --quiet). A site is a trap site when its source line ends in the
generator's "// trap access" marker; its kind is the nearest "// trap: NAME" above it.
For each kind it prints the trap sites, those observed out of bounds (the raw index, before
any clamp, left [0, limit]), those out of bounds and clamped (contained), those robust
access did not clamp (proven in bounds), and those no invocation reached.

Fails (exit 1) when a trap site went out of bounds without being clamped (a proven trap
that went out of bounds; the audit reports it as an ESCAPE too), when a trap line has no
site in the report, or, with --min-contained N, when a kind has fewer than N contained
sites (--kinds names the kinds that must appear).

  trap_report.py [--min-contained N] [--kinds a,b,...] DIR
"""
import argparse
import collections
import os
import re
import sys

TRAP = re.compile(r"// trap: ([a-z0-9-]+)")
MARK = "// trap access"
SITE = re.compile(r"^(.*):(\d+): \S+ .*, observed (?:\[-?\d+, -?\d+\]|nothing)"
                  r"(?:, limit \d+)?(, out of bounds)?(, clamped)?: "
                  r"(ok|ESCAPE|not reached|no range)$")
COLUMNS = ("sites", "out of bounds", "contained", "proven", "not reached")


def trap_lines(source):
    """{line number: kind} of the marked trap access lines."""
    kind, lines = None, {}
    for number, line in enumerate(source.splitlines(), 1):
        found = TRAP.search(line)
        if found:
            kind = found.group(1)
        if line.rstrip().endswith(MARK) and kind:
            lines[number] = kind
    return lines


def tally(directory, counts, problems):
    for name in sorted(os.listdir(directory)):
        if not name.endswith(".comp"):
            continue
        path = os.path.join(directory, name)
        with open(path) as f:
            marked = trap_lines(f.read())
        if not marked:
            continue
        try:
            with open(path + ".log") as f:
                report = f.read().splitlines()
        except OSError:
            problems.append("%s: no audit report" % name)
            continue
        seen = set()
        for line in report:
            site = SITE.match(line)
            if not site or int(site.group(2)) not in marked:
                continue
            number = int(site.group(2))
            seen.add(number)
            row = counts[marked[number]]
            out, clamped, verdict = bool(site.group(3)), bool(site.group(4)), site.group(5)
            row["sites"] += 1
            row["out of bounds"] += out
            row["contained"] += out and clamped
            row["proven"] += not clamped
            row["not reached"] += verdict == "not reached" or "observed nothing" in line
            if out and not clamped:
                problems.append("%s:%d: %s went out of bounds unclamped" % (name, number,
                                                                            marked[number]))
        for number in sorted(set(marked) - seen):
            problems.append("%s:%d: trap line has no site in the report" % (name, number))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--min-contained", type=int, default=0)
    parser.add_argument("--kinds", default="")
    parser.add_argument("directory")
    args = parser.parse_args()
    counts = collections.defaultdict(lambda: dict.fromkeys(COLUMNS, 0))
    problems = []
    tally(args.directory, counts, problems)
    for kind in filter(None, args.kinds.split(",")):
        counts[kind]  # a kind that must appear shows with zeros when missing
    print("traps: %-20s %s" % ("kind", " / ".join(COLUMNS)))
    for kind in sorted(counts):
        row = counts[kind]
        print("traps: %-20s %s" % (kind, " / ".join(str(row[c]) for c in COLUMNS)))
        if row["contained"] < args.min_contained:
            problems.append("%s: %d contained, fewer than %d" % (kind, row["contained"],
                                                                 args.min_contained))
    total = {c: sum(row[c] for row in counts.values()) for c in COLUMNS}
    print("traps: %-20s %s" % ("all", " / ".join(str(total[c]) for c in COLUMNS)))
    for problem in problems:
        print("traps: FAIL %s" % problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
