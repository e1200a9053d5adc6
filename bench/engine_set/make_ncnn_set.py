#!/usr/bin/env python3
"""Rebuilds the ncnn part of the engine set from a snapshot of Tencent/ncnn.

The shaders are third-party code and are not stored in this repository; this script
makes them again, the way README.md in this folder describes, from a git directory of
the ncnn commit that manifest.tsv names (for example the one `fetch github:Tencent/ncnn`
brings):

  - every file listed in manifest.tsv is read at that commit;
  - a local `#include "X.comp"` is replaced by that file's text;
  - right after `#version`, the `#define` lines that ncnn's compile_spirv_module()
    (src/gpu.cpp) would add are inserted. They are read out of gpu.cpp at that commit
    by following its if/else chains with every `opt.*` and `support_*` flag off, except
    `opt.use_shader_local_memory` (ncnn's default is on); a `cond ? a : b` takes `b`;
  - *_cm kernels also get `ncnn_VK_NV_cooperative_matrix 1` and
    `ncnn_cooperativeMatrix 1`, so that the NV cooperative-matrix path is compiled.

usage: make_ncnn_set.py NCNN_GIT_DIR OUT_DIR
Writes OUT_DIR/ncnn/*.comp and OUT_DIR/bench_manifest.tsv (the format
engine_compile_bench reads: `#path<TAB>stage<TAB>target_env`).
"""
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
FLAGS_ON = {"opt.use_shader_local_memory"}


def git_show(git_dir, commit, path):
    return subprocess.run(["git", "--git-dir", git_dir, "show", f"{commit}:{path}"],
                          check=True, capture_output=True, text=True).stdout


def condition_holds(text):
    # Every flag is off but FLAGS_ON; the conditions in this part of gpu.cpp are single
    # flags or `a && b` of flags.
    parts = [p.strip() for p in text.split("&&")]
    for part in parts:
        negated = part.startswith("!")
        name = part.lstrip("!").strip()
        value = name in FLAGS_ON
        if negated:
            value = not value
        if not value:
            return False
    return True


APPEND = re.compile(r'custom_defines\.append\("([^"]+)",\s*(.*)\);\s*$')
STRING = re.compile(r'"((?:[^"\\]|\\.)*)"')


def define_value(arguments):
    if not arguments.startswith('"') and "?" in arguments:
        # support_x ? "a" : "b": every support flag is off
        arguments = arguments[arguments.rindex('" : "') + 4:]
    arguments = arguments.strip()
    match = STRING.fullmatch(arguments)
    if match:
        return match.group(1).encode().decode("unicode_escape")
    return arguments  # a number


def custom_defines(gpu_cpp):
    lines = gpu_cpp.splitlines()
    start = next(i for i, l in enumerate(lines)
                 if l.startswith("int compile_spirv_module(const char* comp_data, int"))
    defines = []
    # A stack of (active, some_branch_taken) per open if-chain block.
    stack = []
    pending = None  # (taken, chain_taken) for the block about to open
    chain_taken = None  # whether the last closed if-chain took a branch
    depth = 0
    for line in lines[start:]:
        code = line.strip()
        active = all(frame[0] for frame in stack)
        if code.startswith("if (") or code.startswith("else if ("):
            condition = code[code.index("(") + 1:code.rindex(")")]
            if code.startswith("else"):
                taken = not chain_taken and condition_holds(condition)
                pending = (taken, chain_taken or taken)
            else:
                taken = condition_holds(condition)
                pending = (taken, taken)
        elif code == "else":
            pending = (not chain_taken, True)
        elif code == "{":
            depth += 1
            stack.append(pending if pending else (True, True))
            pending = None
        elif code == "}":
            depth -= 1
            if depth < 0:
                break
            frame = stack.pop()
            chain_taken = frame[1]
        else:
            match = APPEND.match(code)
            if match and active:
                defines.append((match.group(1), define_value(match.group(2))))
            if code.startswith("custom_defines.append") and not match:
                raise SystemExit(f"unread line in gpu.cpp: {code}")
        if depth == 0 and code == "}":
            break
        if "NCNN_shader_local_memory" in code and active:
            break
    return defines


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    git_dir, out_dir = sys.argv[1:]
    rows = []
    with open(os.path.join(HERE, "manifest.tsv")) as manifest:
        header = manifest.readline().rstrip("\n").split("\t")
        for line in manifest:
            rows.append(dict(zip(header, line.rstrip("\n").split("\t"))))
    commit = rows[0]["commit"]
    defines = custom_defines(git_show(git_dir, commit, "src/gpu.cpp"))
    if not any(name == "NCNN_shader_local_memory" for name, _ in defines):
        sys.exit("gpu.cpp: NCNN_shader_local_memory was not found")
    os.makedirs(os.path.join(out_dir, "ncnn"), exist_ok=True)
    listing = ["#path\tstage\ttarget_env"]
    for row in rows:
        original = row["original_path"]
        text = git_show(git_dir, row["commit"], original)
        folder = os.path.dirname(original)

        def inline(match):
            return git_show(git_dir, row["commit"], f"{folder}/{match.group(1)}")
        text = re.sub(r'^#include "([^"]+)"\s*$', inline, text, flags=re.M)
        block = [f"#define {name} {value}" for name, value in defines]
        if os.path.basename(original).endswith("_cm.comp"):
            block += ["#define ncnn_VK_NV_cooperative_matrix 1", "#define ncnn_cooperativeMatrix 1"]
        version = re.search(r"^#version[^\n]*\n", text, flags=re.M)
        variant = "NV cooperative matrix path" if len(block) > len(defines) else "default path"
        origin = (f"// Tencent/ncnn {row['commit']} {original}, {variant}; defines as "
                  f"compile_spirv_module() adds them with every opt flag off but "
                  f"use_shader_local_memory (made by bench/engine_set/make_ncnn_set.py)")
        text = (text[:version.end()] + origin + "\n" + "\n".join(block) + "\n"
                + text[version.end():])
        with open(os.path.join(out_dir, row["path"]), "w") as out:
            out.write(text)
        listing.append(f"{row['path']}\t{row['stage']}\t{row['target_env']}")
    with open(os.path.join(out_dir, "bench_manifest.tsv"), "w") as out:
        out.write("\n".join(listing) + "\n")
    print(f"wrote {len(rows)} shaders and bench_manifest.tsv to {out_dir} "
          f"({len(defines)} defines from gpu.cpp)")


if __name__ == "__main__":
    main()
