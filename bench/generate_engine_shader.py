#!/usr/bin/env python3
"""Writes a synthetic engine-style GLSL shader of a chosen size, for showing how compile
cost grows with module size (bench/engine_compile_cost.py on a series of them).

The shader is a fragment or compute shader built from `units`, each unit a group of
helpers shaped like engine code: a lighting helper looping over a light array, a
chain of small math helpers calling each other (deep call chains), a helper with a
long loop indexing a constant table and a local array at run time, branches on inputs
(non-uniform control flow with texture samples in fragment shaders, shared memory and
barriers in compute shaders). main() calls every unit. Each unit adds about the same
number of SPIR-V words, so the words grow linearly with `units`.

usage: generate_engine_shader.py {frag|comp} UNITS OUT_FILE
       generate_engine_shader.py series OUT_DIR BASE_UNITS   (writes 1x, 2x, 4x, 8x of
       BASE_UNITS for both stages and a manifest.tsv for engine_compile_bench)
"""
import os
import sys

HEADER = {
    "frag": """#version 450
layout(location = 0) in vec3 in_position;
layout(location = 1) in vec3 in_normal;
layout(location = 2) in vec2 in_uv;
layout(location = 0) out vec4 out_color;
layout(set = 0, binding = 0) uniform sampler2D albedo_map;
layout(set = 0, binding = 1) uniform sampler2D shadow_map;
struct Light { vec4 position; vec4 color; ivec4 kind; };
layout(set = 0, binding = 2, std140) uniform Lights { Light lights[16]; int light_count; };
layout(set = 0, binding = 3, std430) readonly buffer Materials { vec4 materials[]; };
layout(push_constant) uniform Push { int material; int mode; float time; };
""",
    "comp": """#version 450
layout(local_size_x = 64) in;
struct Light { vec4 position; vec4 color; ivec4 kind; };
layout(set = 0, binding = 2, std140) uniform Lights { Light lights[16]; int light_count; };
layout(set = 0, binding = 3, std430) buffer Data { vec4 data[]; };
layout(push_constant) uniform Push { int material; int mode; float time; };
shared vec4 tile[64];
""",
}


def unit(stage, u):
    sample = ("texture(albedo_map, uv * float(%d))" % (u + 1) if stage == "frag"
              else "data[(gl_GlobalInvocationID.x + %du) %% 1024u]" % u)
    sync = ("" if stage == "frag" else
            "  tile[gl_LocalInvocationID.x] = acc;\n  barrier();\n"
            "  acc += tile[(gl_LocalInvocationID.x + %du) & 63u];\n  barrier();\n" % (u + 1))
    chain = "".join(
        "float chain%d_%d(float x) { return %s; }\n" %
        (u, d, ("chain%d_%d(x * 0.5 + %d.0) + sin(x)" % (u, d + 1, d)) if d < 5 else "x * x")
        for d in range(5, -1, -1))
    return f"""
{chain}
const float weights{u}[8] = float[8](0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8);
vec3 shade{u}(vec3 p, vec3 n) {{
  vec3 total = vec3(0.0);
  for (int i = 0; i < light_count && i < 16; ++i) {{
    vec3 l = lights[i].position.xyz - p;
    float d = max(dot(normalize(l), n), 0.0);
    if (lights[i].kind.x == 1) d *= weights{u}[i & 7];
    total += lights[i].color.rgb * d / (1.0 + dot(l, l));
  }}
  return total;
}}
vec4 filter{u}(vec2 uv, int taps) {{
  float local_weights[8];
  for (int i = 0; i < 8; ++i) local_weights[i] = weights{u}[(i + {u}) & 7] * chain{u}_0(float(i));
  vec4 acc = vec4(0.0);
  for (int i = 0; i < taps; ++i) {{
    acc += vec4(local_weights[i & 7]) * materials_or_data(i + {u});
    if (acc.x > float(i)) acc.y += {sample}.x;
  }}
{sync}  return acc;
}}
vec4 unit{u}(vec3 p, vec3 n, vec2 uv) {{
  vec4 c = filter{u}(uv, 4 + (mode & 3));
  c.rgb += shade{u}(p, n);
  if (c.a > 0.5) c *= chain{u}_0(c.a);
  return c;
}}
"""


def shader(stage, units):
    fetch = ("vec4 materials_or_data(int i) { return materials[(material + i) & 255]; }\n"
             if stage == "frag" else
             "vec4 materials_or_data(int i) { return data[(material + i) & 1023]; }\n")
    body = HEADER[stage] + fetch + "".join(unit(stage, u) for u in range(units))
    if stage == "frag":
        calls = "".join("  color += unit%d(in_position, in_normal, in_uv);\n" % u for u in range(units))
        body += "void main() {\n  vec4 color = vec4(0.0);\n%s  out_color = color;\n}\n" % calls
    else:
        calls = "".join("  color += unit%d(vec3(gl_GlobalInvocationID), vec3(0, 0, 1), vec2(0.5));\n" % u
                        for u in range(units))
        body += ("void main() {\n  vec4 color = vec4(0.0);\n%s  data[gl_GlobalInvocationID.x] = color;\n}\n"
                 % calls)
    return body


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "series":
        out_dir, base = sys.argv[2], int(sys.argv[3])
        os.makedirs(out_dir, exist_ok=True)
        rows = []
        for stage in ("frag", "comp"):
            for scale in (1, 2, 4, 8):
                name = "generated_%dx.%s" % (scale, stage)
                with open(os.path.join(out_dir, name), "w") as f:
                    f.write(shader(stage, base * scale))
                rows.append("%s\t%s\tvulkan1.0\n" % (name, stage))
        with open(os.path.join(out_dir, "manifest.tsv"), "w") as f:
            f.write("#path\tstage\ttarget_env\n" + "".join(rows))
        return
    if len(sys.argv) != 4 or sys.argv[1] not in HEADER:
        sys.exit(__doc__)
    with open(sys.argv[3], "w") as f:
        f.write(shader(sys.argv[1], int(sys.argv[2])))


if __name__ == "__main__":
    main()
