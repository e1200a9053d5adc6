#!/usr/bin/env python3
"""Measures the shape of the code that the structure issues name, from the files.

usage: code_shape.py [REPO_ROOT] [PATH@CLASS ...]

PATH@CLASS names other classes to count (PATH relative to REPO_ROOT), e.g. an older
tree's: `git archive 2b758e7 SPIRV | tar -x -C /tmp/old` then
`code_shape.py /tmp/old SPIRV/analysis/integer_range_evaluator.h@IntegerRangeAnalysis::Evaluator`.

Prints:
  - the member functions each named class declares (constructors counted; deleted
    ones, operators and nested types' members not), and how many of them are one-line
    accessors (a body of one `return`, declared in the class);
  - every function definition of 80 lines or more in the product folders (SPIRV,
    glslang, StandAlone, Audit, Execution, examples), from its first line to its closing
    brace at column 0 (STYLE.md: no function reaches 80 lines).

It reads C++ as text (no parser): good for the project's clang-formatted sources, where
a definition starts at column 0 and ends with a `}` at column 0.
"""
import os
import re
import sys

CLASSES = [
    ("SPIRV/analysis/range/integer_range_evaluator.h", "RangeEvaluator"),
    ("SPIRV/analysis/uniformity/uniformity_internal.h", "UniformitySolver"),
]
PRODUCT = ("SPIRV", "glslang", "StandAlone", "Audit", "Execution", "examples")
LIMIT = 80


def class_body(text, name):
    match = re.search(r"\bclass\s+" + re.escape(name) + r"\b[^;{]*\{", text)
    if not match:
        return None
    depth, at = 1, match.end()
    while depth:
        depth += {"{": 1, "}": -1}.get(text[at], 0)
        at += 1
    return text[match.end():at - 1]


def member_functions(body):
    """(name, one-line accessor?) for each member function the class body declares."""
    body = re.sub(r"//[^\n]*", "", body)
    declarations, depth, current, bodies = [], 0, "", {}
    inline = ""
    for ch in body:
        if ch == "{":
            depth += 1
            if depth == 1:
                inline = ""
            continue
        if ch == "}":
            depth -= 1
            if depth == 0:
                declarations.append((current, inline))
                current = ""
            continue
        if depth == 0:
            if ch == ";":
                declarations.append((current, None))
                current = ""
            else:
                current += ch
        elif depth == 1:
            inline += ch
    found = []
    for text, inline_body in declarations:
        text = " ".join(text.split())
        text = re.sub(r"^template\s*<[^>]*>\s*", "", text)
        text = re.sub(r"^(public|private|protected)\s*:\s*", "", text)
        if "(" not in text or "= delete" in text or "operator" in text:
            continue
        head = text.split("(")[0]
        if re.search(r"\b(struct|class|enum|using)\b", head) or head.startswith("static constexpr"):
            continue
        if "=" in head:  # a data member with an initializer that calls something
            continue
        name = re.findall(r"~?\w+", head)
        if not name:
            continue
        accessor = inline_body is not None and re.fullmatch(r"\s*return [^;]*;\s*", inline_body)
        found.append((name[-1], bool(accessor)))
    return found


def long_functions(root):
    for folder in PRODUCT:
        for directory, _, files in os.walk(os.path.join(root, folder)):
            for file in sorted(files):
                if not file.endswith(".cpp"):
                    continue
                path = os.path.join(directory, file)
                lines = open(path, errors="replace").read().split("\n")
                at = 0
                while at < len(lines):
                    line = lines[at]
                    starts = (line and not line[0].isspace() and "(" in line and
                              not line.startswith(("//", "#", "}", "namespace", "using", "struct",
                                                   "class", "enum", "static_assert", "extern")) and
                              not line.rstrip().endswith(";"))
                    if not starts:
                        at += 1
                        continue
                    brace = at
                    while brace < len(lines) and not lines[brace].rstrip().endswith(("{", ";")):
                        brace += 1
                    if brace >= len(lines) or not lines[brace].rstrip().endswith("{"):
                        at += 1
                        continue
                    end = brace + 1
                    while end < len(lines) and lines[end] != "}":
                        end += 1
                    count = end - at + 1
                    if count >= LIMIT:
                        yield count, os.path.relpath(path, root), at + 1, line.strip()[:80]
                    at = end + 1


def main():
    args = sys.argv[1:]
    root = args.pop(0) if args and "@" not in args[0] else os.path.join(
        os.path.dirname(__file__), "..")
    classes = [tuple(arg.split("@", 1)) for arg in args] or CLASSES
    for path, name in classes:
        if not os.path.exists(os.path.join(root, path)):
            print(f"{name}: no file {path}")
            continue
        body = class_body(open(os.path.join(root, path)).read(), name)
        if body is None:
            print(f"{name}: not found in {path}")
            continue
        functions = member_functions(body)
        accessors = [n for n, accessor in functions if accessor]
        constructors = [n for n, _ in functions if n == name.split("::")[-1]]
        working = len(functions) - len(accessors) - len(constructors)
        print(f"{name} ({path}): {len(functions)} member functions declared, "
              f"{len(constructors)} constructors, {len(accessors)} one-line accessors, "
              f"{working} others")
        print("  accessors: " + " ".join(accessors))
    long = sorted(long_functions(root), reverse=True)
    print(f"functions of {LIMIT} lines or more in {', '.join(PRODUCT)}: {len(long)}")
    for count, path, line, text in long:
        print(f"  {count:4d}  {path}:{line}  {text}")


if __name__ == "__main__":
    main()
