#!/usr/bin/env python3
"""Writes random GLSL compute shaders that hunt for unsound integer ranges.

Each shader mixes the patterns the range analysis knows (for-loops with random
initialisers, bounds, steps, directions and comparisons, including the edges of the
i32 and u32 domains; nested loops; gl_LocalInvocationID components and
gl_LocalInvocationIndex under a random workgroup size; + - * / << >> %; int/uint
conversions; min / max / modulo; abs, | and ^; bitCount, findLSB and findMSB;
components of vectors built from ranged
values; helper functions with in and out parameters; `i < x.length()` guards; the
dispatch built-ins under a promised grid, --max-workgroups) and the patterns it refuses (while loops, compound
conditions, bitwise operators, buffer data, other built-ins), guards (if / else / early
exits, with traps the analysis must not fall for), tests on `g * k + c` (wrapping, so
that a test says nothing about g when g * k + c may wrap), counters decremented before
their use in a while loop, loops whose local is updated by a general expression
(halving through a second local), guards on `a + b` with both ranged, counters bumped
in nested counted loops, helper functions indexing with a parameter called with two
arguments, a helper called from more than 64 places, a helper indexed by a part of its
vector parameter, counters stepped beside the counter a while loop tests, values read from `const`
tables and from local arrays written element by element at run-time indices, helpers
called only under tests of a built-in, tests on quotients, tests kept in bool locals,
locals stepped by a counted loop's counter-dependent step (binary searches),
bitfieldInsert of built-in bits, a shared array sized by a specialization constant (SB,
indexed under a test against SB, by a remainder, by a tree of halving steps, by a
helper's count that every call keeps at most SB; the audit runs it at an even SB that
the analysis does not see), remainders written out by hand (`v - K * (v / K)`, shifts,
i32 forms), loops and tests whose bound is tested above them, helpers' results at a
call from that call's own argument, vector bit fields a helper returns, counters a
helper writes (`inout`) and tests before their uses, and uses the resulting values as
indices into local, shared and buffer
arrays of random sizes.

The generator is the audit's adversary, so it must never make a shader that misbehaves
on its own, except in its traps (see "traps that index out of bounds on purpose": a
guard with the wrong bound, abs(INT_MIN), `<=` against a run-time length, a loop's exit
value, a sum that wraps, an operand stored again, a counter one past its array, the 32
bits of an all-ones value, findLSB / findMSB of zero, one of many calls passing an index
one past its array, a vector argument's part one past it, a while loop's `<=` letting a
counter beside its own reach the array's size, a `const` table or a local array holding it,
a `<=` test around a helper's call or on a quotient, a bool local stored again, a
binary search's steps summing to the array's size, a bitfieldInsert with every bit
set, `x <= s` in the halving steps, a run of 2 * SB whose rest a helper counts, a
remainder by hand of the next value or with another multiplier, a bound tested against one
more than the array holds, a helper's result from an argument one too large, a field
reaching past the array, an `inout` counter written between its test and its use), whose
out-of-bounds index only the clamp contains, so that a proof dropping that clamp is an
ESCAPE. Otherwise: it tracks, with its own interval arithmetic (Python integers, wrap-aware),
a sound bound of every value it builds and simulates every loop for every initial value
to know its exact trip count and control values. An index whose bound does not fit its
array is first brought into range with an operation the analysis is meant to see
through (% N, min, max, an offset), so that no access is ever out of bounds and no loop
runs long. It never reads Glint's analysis: a wrong range there shows up as an ESCAPE
in the audit, not as a mismatch with this file.

Reproducible: shader i of seed S depends only on (S, i).
The first line of every shader is "// audit-args: --groups=X,Y,Z [--group-budget=N]
[--max-workgroups=X,Y,Z] [--run-spec-constant=7=V]", the dispatch size (a quarter of the shaders get a grid larger
than their group budget, so that the audit samples a lattice of it; a third promise
their grid to the analysis, which the validator's --dump-ranges must be given too).

  generate_shaders.py --seed 1 --count 200 --out DIR
"""
import argparse
import os
import random
import sys

I32_MIN, I32_MAX = -(1 << 31), (1 << 31) - 1
U32_MAX = (1 << 32) - 1
TYPE_RANGE = {"int": (I32_MIN, I32_MAX), "uint": (0, U32_MAX)}
MAX_TRIPS = 16         # iterations of one loop, for any initial value
# Iterations of a loop nest (the product of its loops' trip counts): every access in it
# runs two atomics on shared words, so a deep nest in many invocations runs for seconds.
MAX_NEST_TRIPS = 48
MAX_INIT_VALUES = 512  # initial values a loop is simulated with
MAX_ARRAY = {"local": 48, "shared": 1024, "buffer": 2048}
MAX_SHARED_WORDS = 4096  # 16 KiB of the 32 KiB every Vulkan device gives
MAX_LOOP_NESTING = 2
# Helper functions a shader may call (only those it calls are written). glslang does not
# inline: arguments go through Function variables of the caller, results are returned.
HELPERS = {
    # `const in`: glslang passes these by value (OpFunctionParameter of the scalar type),
    # the others through a variable of the caller.
    "h_mod": "uint h_mod(const in uint x, const in uint m) { return x % m; }",
    "h_min": "uint h_min(const in uint x, uint b) { return min(x, b); }",
    "h_below": "uint h_below(uint x, uint n) {\n  if (x >= n) return 0u;\n  return x;\n}",
    "h_abs_low": "int h_abs_low(int x) { return abs(x) & 1023; }",
    "h_split": "void h_split(uint x, out uint lo, out uint hi) {\n"
               "  lo = x & 15u;\n  hi = (x >> 4u) & 15u;\n}",
    # Call results: the union of what the function returns, ranged at each return.
    "h_pick": "uint h_pick(uint x, uint n) {\n  if (x >= n) return n - 1u;\n  return x;\n}",
    # Trap: `x > n` lets x == n through, so the result reaches n.
    "h_pick_le": "uint h_pick_le(uint x, uint n) {\n  if (x > n) return 0u;\n  return x;\n}",
    # A part of a vector parameter as the index (parameter_part); the trap form's access
    # is the helper's own line.
    "h_part": "uint h_part(uvec2 v) { return data_u[v.y]; }",
    "h_part_trap": "// trap: parameter-part (a call passes a part one past data_u)\n"
                   "uint h_part_trap(uvec2 v) { return data_u[v.x]; }" + "  // trap access",
    # A vector handed down through another helper (relayed_part): the part is followed
    # through the relay's parameter to main's arguments.
    "h_relay": "uint h_relay(uvec2 v) { return h_part(v); }",
    "h_part_relayed_trap": "// trap: relayed-part (a call two helpers up passes a part one past"
                           " data_u)\nuint h_part_relayed_trap(uvec2 v) { return data_u[v.x]; }"
                           + "  // trap access",
    "h_relay_trap": "uint h_relay_trap(uvec2 v) { return h_part_relayed_trap(v); }",
    # Called from more than 64 places (many_calls): past the analysis's budget of guarded
    # call sites, each argument counts with its own range. The trap form's access is the
    # helper's own line.
    "h_at": "uint h_at(uint k) { return data_u[k]; }",
    "h_at_trap": "// trap: many-calls (one of the calls passes an index one past data_u)\n"
                 "uint h_at_trap(uint k) { return data_u[k]; }" + "  // trap access",
}
# Ends the line of each trap's out-of-bounds access (see ShaderWriter.near).
TRAP_ACCESS = "  // trap access"
# The specialization constant that sizes ssp[SB] (spec_length).
SPEC_ID = 7
NARROW_EXTENSION = "#extension GL_EXT_shader_explicit_arithmetic_types : require"
# The length of the Result buffer's run-time array as glint-audit sizes it by default
# (--runtime-array-bytes=65536, 4-byte elements).
RESULT_LENGTH = 65536 // 4


def lit(value, type_name):
    """A GLSL literal; INT_MIN needs an expression (2147483648 is not an int)."""
    if type_name == "uint":
        return "%du" % value
    if value == I32_MIN:
        return "(-2147483647 - 1)"
    return "%d" % value if value >= 0 else "(%d)" % value


class Expr:
    """GLSL text of type `type_name` whose run-time values lie in [lo, hi]."""

    def __init__(self, text, type_name, lo, hi):
        self.text, self.type, self.lo, self.hi = text, type_name, lo, hi

    def full(self):
        return (self.lo, self.hi) == TYPE_RANGE[self.type]


def fit(values_lo, values_hi, type_name):
    """[lo, hi] when every exact result fits the type, else the whole type (wraps)."""
    tlo, thi = TYPE_RANGE[type_name]
    if tlo <= values_lo and values_hi <= thi:
        return values_lo, values_hi
    return tlo, thi


def trunc_div(a, b):
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


class ShaderWriter:
    def __init__(self, rng):
        self.rng = rng
        self.lines = []
        self.indent = 1
        self.scope = []          # Expr of loop control values visible here
        self.arrays = []         # (kind, name, type, size)
        self.next_name = 0
        self.loop_depth = 0
        self.nest_trips = 1  # the trip limit of the enclosing loops, multiplied
        self.local_size = self.pick_local_size()
        self.groups = (rng.randint(1, 4), rng.randint(1, 3), rng.randint(1, 2))
        self.group_budget = None
        if rng.random() < 0.25:  # a grid larger than its budget: the lattice samples it
            self.groups = (rng.randint(5, 300), rng.randint(1, 40), rng.randint(1, 3))
            self.group_budget = rng.randint(8, 27)
        self.call_helpers = []   # GLSL text of helper_call's functions, before main
        # A third of the shaders promise their dispatch (--max-workgroups): the analysis
        # then bounds the dispatch built-ins, and the audit dispatches exactly that grid.
        self.promise = rng.random() < 0.33
        self.buffer_u = rng.randint(8, MAX_ARRAY["buffer"])
        self.helpers = set()  # helper functions the shader calls (HELPERS)
        self.buffer_i = rng.randint(8, 64)
        self.narrow = False  # uses 8- or 16-bit integers (needs NARROW_EXTENSION)
        self.spec = None  # (default, run value) of SB, the spec-sized array's length

    # --- naming and emission -------------------------------------------------------
    def fresh(self, prefix):
        self.next_name += 1
        return "%s%d" % (prefix, self.next_name)

    def emit(self, text):
        self.lines.append("  " * self.indent + text)

    def pick_local_size(self):
        x = self.rng.choice([1, 2, 3, 4, 5, 7, 8, 16, 32, 64])
        y = self.rng.choice([1, 1, 2, 3, 4])
        z = self.rng.choice([1, 1, 1, 2])
        while x * y * z > 128:
            x //= 2
        return (max(x, 1), y, z)

    # --- leaves -------------------------------------------------------------------
    def constant(self, type_name):
        r = self.rng.random()
        if r < 0.6:
            value = self.rng.randint(0, 40)
        elif r < 0.8:
            value = self.rng.randint(0, 1000)
        elif type_name == "int":
            value = self.rng.randint(-50, -1)
        else:
            value = self.rng.randint(1, 7)
        return Expr(lit(value, type_name), type_name, value, value)

    def builtin(self):
        x, y, z = self.local_size
        choice = self.rng.randrange(7)
        if choice < 3:
            size = self.local_size[choice]
            # A swizzle, a constant subscript, and a component of the vector bitcast to
            # ivec3 (glslang: a bitcast of the whole loaded vector, then an extract).
            text = self.rng.choice(["gl_LocalInvocationID.%s" % "xyz"[choice],
                                    "gl_LocalInvocationID[%d]" % choice,
                                    "uint(ivec3(gl_LocalInvocationID).%s)" % "xyz"[choice]])
            return Expr(text, "uint", 0, size - 1)
        if choice == 3:
            return Expr("gl_LocalInvocationIndex", "uint", 0, x * y * z - 1)
        if choice == 4:  # not ranged by the analysis, bounded by the dispatch
            axis = self.rng.randrange(3)
            return Expr("gl_WorkGroupID.%s" % "xyz"[axis], "uint", 0, self.groups[axis] - 1)
        axis = self.rng.randrange(3)
        if choice == 6:  # a sampled box's size: at most the grid's
            return Expr("gl_NumWorkGroups.%s" % "xyz"[axis], "uint", 1, self.groups[axis])
        total = self.groups[axis] * self.local_size[axis]
        return Expr("gl_GlobalInvocationID.%s" % "xyz"[axis], "uint", 0, total - 1)

    def buffer_value(self, type_name):
        if type_name == "uint":
            slot = self.rng.randrange(min(self.buffer_u, 64))
            return Expr("data_u[%d]" % slot, "uint", 0, U32_MAX)
        slot = self.rng.randrange(self.buffer_i)
        return Expr("data_i[%d]" % slot, "int", I32_MIN, I32_MAX)

    def leaf(self, type_name):
        r = self.rng.random()
        candidates = [e for e in self.scope if e.type == type_name]
        if r < 0.35 and candidates:
            return self.rng.choice(candidates)
        if r < 0.6:
            return self.convert(self.builtin(), type_name)
        if r < 0.8:
            return self.constant(type_name)
        return self.buffer_value(type_name)

    # --- derived values -----------------------------------------------------------
    def convert(self, e, type_name):
        if e.type == type_name:
            return e
        if type_name == "int":  # uint -> int: values above INT_MAX turn negative
            lo, hi = (e.lo, e.hi) if e.hi <= I32_MAX else (
                (e.lo - (1 << 32), e.hi - (1 << 32)) if e.lo > I32_MAX else TYPE_RANGE["int"])
            return Expr("int(%s)" % e.text, "int", lo, hi)
        lo, hi = (e.lo, e.hi) if e.lo >= 0 else (
            (e.lo + (1 << 32), e.hi + (1 << 32)) if e.hi < 0 else TYPE_RANGE["uint"])
        return Expr("uint(%s)" % e.text, "uint", lo, hi)

    def expr(self, type_name, depth):
        if depth <= 0 or self.rng.random() < 0.3:
            return self.leaf(type_name)
        op = self.rng.choice(["+", "-", "*", "/", "<<", ">>", "%", "min", "max",
                              "conv", "&", "neg", "clamp", "select", "bfe", "abs", "|",
                              "^", "vec", "call", "bitcount", "findlsb", "findmsb"])
        a = self.expr(type_name, depth - 1)
        return getattr(self, "op_" + {"+": "add", "-": "sub", "*": "mul", "/": "div",
                                      "<<": "shl", ">>": "shr", "%": "mod", "&": "and",
                                      "|": "or", "^": "xor",
                                      }.get(op, op))(a, depth)

    def op_add(self, a, depth):
        b = self.expr(a.type, depth - 1)
        lo, hi = fit(a.lo + b.lo, a.hi + b.hi, a.type)
        return Expr("(%s + %s)" % (a.text, b.text), a.type, lo, hi)

    def op_sub(self, a, depth):
        b = self.expr(a.type, depth - 1)
        lo, hi = fit(a.lo - b.hi, a.hi - b.lo, a.type)
        return Expr("(%s - %s)" % (a.text, b.text), a.type, lo, hi)

    def op_mul(self, a, depth):
        b = self.expr(a.type, depth - 1)
        corners = [a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi]
        lo, hi = fit(min(corners), max(corners), a.type)
        return Expr("(%s * %s)" % (a.text, b.text), a.type, lo, hi)

    def positive_divisor(self, type_name, depth):
        """A divisor that is never zero: a constant or (x % k) + 1."""
        if self.rng.random() < 0.6:
            value = self.rng.randint(1, 17)
            return Expr(lit(value, type_name), type_name, value, value)
        k = self.rng.randint(2, 16)
        x = self.convert(self.expr("uint", depth - 1), "uint")
        inner = "((%s %% %s) + 1u)" % (x.text, lit(k, "uint"))
        return self.convert(Expr(inner, "uint", 1, k), type_name)

    def op_div(self, a, depth):
        b = self.positive_divisor(a.type, depth)
        corners = [trunc_div(x, y) for x in (a.lo, a.hi) for y in (b.lo, b.hi)]
        return Expr("(%s / %s)" % (a.text, b.text), a.type, min(corners), max(corners))

    def shift_amount(self, depth):
        if self.rng.random() < 0.6:
            value = self.rng.randint(0, 31 if self.rng.random() < 0.2 else 6)
            return Expr(lit(value, "uint"), "uint", value, value)
        k = self.rng.choice([4, 8, 32])
        x = self.convert(self.expr("uint", depth - 1), "uint")
        return Expr("(%s %% %du)" % (x.text, k), "uint", 0, k - 1)

    def op_shl(self, a, depth):
        s = self.shift_amount(depth)
        corners = [a.lo << s.lo, a.lo << s.hi, a.hi << s.lo, a.hi << s.hi]
        lo, hi = fit(min(corners), max(corners), a.type)
        return Expr("(%s << %s)" % (a.text, s.text), a.type, lo, hi)

    def op_shr(self, a, depth):
        s = self.shift_amount(depth)
        corners = [a.lo >> s.lo, a.lo >> s.hi, a.hi >> s.lo, a.hi >> s.hi]
        return Expr("(%s >> %s)" % (a.text, s.text), a.type, min(corners), max(corners))

    def op_mod(self, a, depth):
        b = self.positive_divisor(a.type, depth)
        if a.lo >= 0:
            lo, hi = (a.lo % b.lo, a.hi % b.lo) if (b.lo == b.hi and a.lo // b.lo == a.hi // b.lo) \
                else (0, min(a.hi, b.hi - 1))
        else:  # GLSL leaves a negative operand's remainder open: either sign
            lo, hi = -(b.hi - 1), b.hi - 1
        return Expr("(%s %% %s)" % (a.text, b.text), a.type, lo, hi)

    def op_min(self, a, depth):
        b = self.expr(a.type, depth - 1)
        return Expr("min(%s, %s)" % (a.text, b.text), a.type, min(a.lo, b.lo), min(a.hi, b.hi))

    def op_max(self, a, depth):
        b = self.expr(a.type, depth - 1)
        return Expr("max(%s, %s)" % (a.text, b.text), a.type, max(a.lo, b.lo), max(a.hi, b.hi))

    def op_conv(self, a, depth):
        """A round trip through the other type (int(uint(x)), uint(int(x)))."""
        other = "int" if a.type == "uint" else "uint"
        return self.convert(self.convert(a, other), a.type)

    def op_and(self, a, depth):
        mask = self.rng.choice([1, 3, 7, 15, 31, 63, 255])
        hi = mask if a.lo < 0 else min(mask, a.hi)
        return Expr("(%s & %s)" % (a.text, lit(mask, a.type)), a.type, 0, hi)

    def op_neg(self, a, depth):
        if a.type == "uint":
            return self.op_and(a, depth)
        lo, hi = fit(-a.hi, -a.lo, "int")
        return Expr("(-%s)" % a.text, "int", lo, hi)

    def op_clamp(self, a, depth):
        lo = self.rng.randint(0, 8)
        hi = lo + self.rng.randint(0, 40)
        return Expr("clamp(%s, %s, %s)" % (a.text, lit(lo, a.type), lit(hi, a.type)),
                    a.type, max(min(a.lo, hi), lo), min(max(a.hi, lo), hi))

    def op_bfe(self, a, depth):
        """bitfieldExtract with constant offset and count (offset + count <= 32)."""
        bits = self.rng.randint(0, 12)
        offset = self.rng.randint(0, 32 - bits)
        text = "bitfieldExtract(%s, %d, %d)" % (a.text, offset, bits)
        if a.type == "uint":
            return Expr(text, "uint", 0, (1 << bits) - 1)
        half = (1 << (bits - 1)) if bits else 0  # the int form sign-extends the field
        return Expr(text, "int", -half, max(half - 1, 0))

    def op_abs(self, a, depth):
        """abs of an int; abs(INT_MIN) is INT_MIN itself (two's complement wraps)."""
        if a.type == "uint":
            return self.op_and(a, depth)
        mags = [abs(a.lo), abs(a.hi)]
        lo = 0 if a.lo <= 0 <= a.hi else min(mags)
        hi = min(max(mags), I32_MAX)
        if a.lo == I32_MIN:
            lo = I32_MIN
        return Expr("abs(%s)" % a.text, "int", lo, hi)

    def bitwise(self, a, depth, op):
        b = self.expr(a.type, depth - 1)
        if a.lo >= 0 and b.lo >= 0:  # no sign bit: the result has no more bits than either
            hi = (1 << max(a.hi, b.hi).bit_length()) - 1
            return Expr("(%s %s %s)" % (a.text, op, b.text), a.type, 0, hi)
        return Expr("(%s %s %s)" % (a.text, op, b.text), a.type, *TYPE_RANGE[a.type])

    def op_or(self, a, depth):
        return self.bitwise(a, depth, "|")

    def op_xor(self, a, depth):
        return self.bitwise(a, depth, "^")

    def op_vec(self, a, depth):
        """A component of a vector built from ranged values, by a swizzle, a constant
        subscript or a shuffle of a shuffle (OpCompositeConstruct / Extract /
        VectorShuffle carry a range per component)."""
        n = self.rng.randint(2, 4)
        parts = [a] + [self.expr(a.type, depth - 2) for _ in range(n - 1)]
        self.rng.shuffle(parts)
        k = self.rng.randrange(n)
        vec = "%svec%d(%s)" % ("u" if a.type == "uint" else "i", n,
                               ", ".join(p.text for p in parts))
        r = self.rng.random()
        if r < 0.4:
            text = "%s.%s" % (vec, "xyzw"[k])
        elif r < 0.7:
            text = "%s[%d]" % (vec, k)
        else:  # .(k)(other) then .x
            other = (k + 1) % n
            text = "%s.%s%s.x" % (vec, "xyzw"[k], "xyzw"[other])
        return Expr(text, a.type, parts[k].lo, parts[k].hi)

    def op_call(self, a, depth):
        """A helper function (glslang passes `in` arguments through Function variables
        of the caller and returns the value): the analysis must union every call site."""
        if a.type == "int":
            return Expr("h_abs_low(%s)" % a.text, "int", *self.h_abs_low_range(a))
        r = self.rng.random()
        if r < 0.4:
            k = self.rng.randint(1, 40)
            self.helpers.add("h_mod")
            return Expr("h_mod(%s, %du)" % (a.text, k), "uint", 0, min(a.hi, k - 1))
        if r < 0.7:
            b = self.expr("uint", depth - 1)
            self.helpers.add("h_min")
            return Expr("h_min(%s, %s)" % (a.text, b.text), "uint", min(a.lo, b.lo),
                        min(a.hi, b.hi))
        n = self.rng.randint(1, 64)
        self.helpers.add("h_below")
        return Expr("h_below(%s, %du)" % (a.text, n), "uint", 0, min(a.hi, n - 1))

    def h_abs_low_range(self, a):
        """h_abs_low(x) = abs(x) & 1023 (bits of INT_MIN's abs are 0x80000000 & 1023 = 0)."""
        self.helpers.add("h_abs_low")
        return 0, 1023

    # bitCount, findLSB and findMSB return int: the bounds below are exact hulls over the
    # operand's values (bits counted in the 32-bit pattern), then converted back.
    def op_bitcount(self, a, depth):
        if a.lo >= 0:
            lo, hi = (1 if a.lo > 0 else 0), a.hi.bit_length()
        else:
            lo, hi = (1 if a.hi < 0 else 0), 32
        return self.convert(Expr("bitCount(%s)" % a.text, "int", lo, hi), a.type)

    def op_findlsb(self, a, depth):
        lo = 0 if (a.lo > 0 or a.hi < 0) else -1
        hi = a.hi.bit_length() - 1 if a.lo >= 0 else 31
        return self.convert(Expr("findLSB(%s)" % a.text, "int", lo, hi), a.type)

    def op_findmsb(self, a, depth):
        if a.type == "uint":  # the highest set bit; -1 for 0
            lo, hi = a.lo.bit_length() - 1, a.hi.bit_length() - 1
        else:  # the highest bit that differs from the sign bit; -1 for 0 and -1
            def msb(v):
                return (v if v >= 0 else -v - 1).bit_length() - 1
            if a.lo >= 0:
                lo, hi = msb(a.lo), msb(a.hi)
            elif a.hi < 0:
                lo, hi = msb(a.hi), msb(a.lo)
            else:
                lo, hi = -1, max(msb(a.lo), msb(a.hi))
        return self.convert(Expr("findMSB(%s)" % a.text, "int", lo, hi), a.type)

    def op_select(self, a, depth):
        b = self.expr(a.type, depth - 1)
        cond = self.convert(self.leaf("uint"), "uint")
        return Expr("((%s & 1u) != 0u ? %s : %s)" % (cond.text, a.text, b.text), a.type,
                    min(a.lo, b.lo), max(a.hi, b.hi))

    # --- indices ------------------------------------------------------------------
    def into_range(self, e, size):
        """An index with values in [0, size - 1], built from `e` with ranged operations."""
        if e.lo >= 0 and e.hi < size:
            return e
        if 0 <= e.lo and e.hi - e.lo < size and self.rng.random() < 0.5:
            shifted = Expr("(%s - %s)" % (e.text, lit(e.lo, e.type)), e.type, 0, e.hi - e.lo)
            return shifted
        if e.type == "int" and e.lo >= 0 - size and e.hi < 0 and self.rng.random() < 0.5:
            offset = -e.lo
            return Expr("(%s + %d)" % (e.text, offset), "int", e.lo + offset, e.hi + offset)
        if e.type == "uint":
            if self.rng.random() < 0.5:
                return Expr("(%s %% %du)" % (e.text, size), "uint", 0, size - 1)
            return Expr("min(%s, %du)" % (e.text, size - 1), "uint", min(e.lo, size - 1),
                        min(e.hi, size - 1))
        r = self.rng.random()
        if r < 0.4:
            return Expr("min(max(%s, 0), %d)" % (e.text, size - 1), "int",
                        max(min(e.lo, size - 1), 0), min(max(e.hi, 0), size - 1))
        if r < 0.7 and e.lo >= 0:
            return Expr("(%s %% %d)" % (e.text, size), "int", 0, size - 1)
        return Expr("int(uint(%s) %% %du)" % (e.text, size), "int", 0, size - 1)

    def new_array(self):
        kind = self.rng.choice(["local", "shared", "buffer"])
        size = self.rng.randint(1, MAX_ARRAY[kind])
        if self.rng.random() < 0.5:
            size = self.rng.randint(1, 16)
        if kind == "buffer":
            return ("buffer", "data_u", "uint", self.buffer_u)
        shared_words = sum(s for k, _, _, s in self.arrays if k == "shared")
        if kind == "shared" and shared_words + size > MAX_SHARED_WORDS:
            kind, size = "local", min(size, MAX_ARRAY["local"])
        name = self.fresh("l" if kind == "local" else "sh")
        self.arrays.append((kind, name, "uint", size))
        return (kind, name, "uint", size)

    def access(self, value=None):
        kind, name, _, size = self.rng.choice(self.arrays) if self.arrays and \
            self.rng.random() < 0.6 else self.new_array()
        if value is None:
            value = self.expr(self.rng.choice(["int", "uint"]), self.rng.randint(0, 3))
        index = self.into_range(value, size)
        if self.rng.random() < 0.5:
            self.emit("%s[%s] = acc + %du;" % (name, index.text, self.rng.randint(0, 9)))
        else:
            self.emit("acc += %s[%s];" % (name, index.text))

    def vector_access(self):
        index = self.into_range(self.expr("uint", self.rng.randint(0, 2)), 4)
        self.emit("acc += uvec4(acc, 1u, 2u, 3u)[%s];" % index.text)

    # --- loops --------------------------------------------------------------------
    def loop_init(self, type_name):
        r = self.rng.random()
        if r < 0.3:
            return self.edge_constant(type_name)
        e = self.expr(type_name, self.rng.randint(0, 2))
        if e.hi - e.lo + 1 > MAX_INIT_VALUES:
            return self.edge_constant(type_name)
        return e

    def edge_constant(self, type_name):
        """A constant near 0 or near either end of the type's domain."""
        tlo, thi = TYPE_RANGE[type_name]
        base = self.rng.choice([0, 0, tlo, thi, thi // 2]) if type_name == "int" else \
            self.rng.choice([0, 0, thi, thi // 2 + 1])
        value = min(thi, max(tlo, base + self.rng.randint(-40, 40)))
        return Expr(lit(value, type_name), type_name, value, value)

    def trip_limit(self):
        return max(2, min(MAX_TRIPS, MAX_NEST_TRIPS // self.nest_trips))

    def simulate(self, inits, compare, bound, step, increasing, type_name):
        """Control values seen in the body, or None if some start runs too long."""
        tlo, thi = TYPE_RANGE[type_name]
        span = thi - tlo + 1
        seen_lo, seen_hi, ran = None, None, False
        for start in inits:
            value = start
            for trip in range(self.trip_limit() + 1):
                if not compare(value, bound):
                    break
                if trip == self.trip_limit():
                    return None
                ran = True
                seen_lo = value if seen_lo is None else min(seen_lo, value)
                seen_hi = value if seen_hi is None else max(seen_hi, value)
                value = (value + (step if increasing else -step) - tlo) % span + tlo
        return (seen_lo, seen_hi) if ran else (None, None)

    def for_loop(self, depth):
        for _ in range(40):  # draw until a loop terminates quickly for every start
            type_name = self.rng.choice(["int", "uint"])
            init = self.loop_init(type_name)
            op = self.rng.choice(["<", "<=", ">", ">="])
            increasing = self.rng.random() < (0.8 if op in "<<=" else 0.2)
            step = self.rng.choice([1, 1, 1, 2, 3, 5, 16, 1 << 30])
            anchor = init.lo if increasing else init.hi
            distance = self.rng.randint(-2, self.trip_limit() * step)
            tlo, thi = TYPE_RANGE[type_name]
            bound = min(thi, max(tlo, anchor + (distance if increasing else -distance)))
            if self.rng.random() < 0.1:
                bound = self.rng.choice([tlo, thi])
            compare = {"<": lambda v, c: v < c, "<=": lambda v, c: v <= c,
                       ">": lambda v, c: v > c, ">=": lambda v, c: v >= c}[op]
            seen = self.simulate(range(init.lo, init.hi + 1), compare, bound, step,
                                 increasing, type_name)
            if seen is not None:
                break
        else:
            return
        bound_text = self.loop_bound(init, compare, bound, step, increasing, type_name)
        if isinstance(bound_text, tuple):
            bound_text, seen = bound_text
        var = self.fresh("i")
        update = self.loop_update(var, step, increasing, type_name)
        self.emit("for (%s %s = %s; %s %s %s; %s) {" % (
            type_name, var, init.text, var, op, bound_text, update))
        self.body_with(Expr(var, type_name, *seen) if seen[0] is not None else None, depth,
                       self.trip_limit())

    def loop_bound(self, init, compare, bound, step, increasing, type_name):
        """The bound's text: mostly the constant, sometimes a value that is not one (the
        constant or one less, by invocation), which the analysis can only meet by
        widening the loop-carried counter and narrowing it with the loop's test. Returns
        (text, control values seen) when it is not the constant."""
        text = lit(bound, type_name)
        if self.rng.random() >= 0.3 or bound <= TYPE_RANGE[type_name][0]:
            return text
        seen = self.simulate(range(init.lo, init.hi + 1), compare, bound, step, increasing,
                             type_name)
        low = self.simulate(range(init.lo, init.hi + 1), compare, bound - 1, step,
                            increasing, type_name)
        if low is None or seen is None:
            return text
        ends = [v for v in (seen[0], seen[1], low[0], low[1]) if v is not None]
        both = (min(ends), max(ends)) if ends else (None, None)
        odd = "(gl_LocalInvocationIndex & 1u)"
        return "(%s - %s)" % (text, odd if type_name == "uint" else "int%s" % odd), both

    def loop_update(self, var, step, increasing, type_name):
        """The continue clause; some spellings the analysis must refuse."""
        sign = "+" if increasing else "-"
        r = self.rng.random()
        if step == 1 and r < 0.5:
            return "%s%s%s" % (var, sign, sign)
        if r < 0.9:
            return "%s %s= %s" % (var, sign, lit(step, type_name))
        if type_name == "int" and step < (1 << 30):  # a negated step: i += -1
            return "%s %s= %s" % (var, "-" if increasing else "+", lit(-step, "int"))
        return "%s = %s %s %s" % (var, var, sign, lit(step, type_name))

    def while_loop(self, depth):
        """A loop the analysis does not analyse; its counter stays small."""
        var = self.fresh("w")
        trips = self.rng.randint(0, min(8, self.trip_limit()))
        self.emit("uint %s = 0u;" % var)
        self.emit("while (%s < %du && acc != 12345u) {" % (var, trips))
        self.indent += 1
        self.emit("%s++;" % var)
        self.indent -= 1
        self.body_with(Expr(var, "uint", 1, max(trips, 1)) if trips else None, depth,
                       max(trips, 1))

    def down_loop(self, depth):
        """A counter decremented first and used after (`d--; t[d]`), from a start
        that may be 0 (then the body never runs)."""
        var = self.fresh("d")
        start = self.rng.randint(0, min(8, self.trip_limit()))
        self.emit("uint %s = %du;" % (var, start))
        self.emit("while (%s > 0u && acc != 12345u) {" % var)
        self.indent += 1
        self.emit("%s--;" % var)
        self.indent -= 1
        self.body_with(Expr(var, "uint", 0, start - 1) if start else None, depth, max(start, 1))

    # --- derived guards and helper calls -----------------------------------------
    DERIVED_VALUES = 512  # values of the tested local enumerated to know the truth

    def derived_guard(self, depth):
        """A test on `g * k + c` (wrapping like the GPU) with g used where it holds; the
        generator enumerates g's values, so the range it keeps is exact."""
        type_name = self.rng.choice(["int", "uint"])
        value = self.expr(type_name, self.rng.randint(0, 2))
        if value.hi - value.lo + 1 > self.DERIVED_VALUES:
            return self.guard(depth)
        name = self.fresh("g")
        self.emit("%s %s = %s;" % (type_name, name, value.text))
        k = self.rng.choice([1, 2, 3, 4, 8, 1 << 30])
        c = self.rng.choice([0, 1, 5, -3, I32_MAX, -7]) if type_name == "int" else \
            self.rng.choice([0, 1, 5, U32_MAX, U32_MAX - 2])
        op = self.rng.choice(["<", "<=", ">", ">="])
        tlo, thi = TYPE_RANGE[type_name]
        span = thi - tlo + 1
        derived = lambda g: (g * k + c - tlo) % span + tlo
        images = [derived(g) for g in range(value.lo, value.hi + 1)]
        bound = self.rng.choice(images) + self.rng.randint(-2, 2)
        bound = min(thi, max(tlo, bound))
        compare = {"<": lambda a, b: a < b, "<=": lambda a, b: a <= b,
                   ">": lambda a, b: a > b, ">=": lambda a, b: a >= b}[op]
        holding = [g for g in range(value.lo, value.hi + 1) if compare(derived(g), bound)]
        shift = "%s << %d" % (name, k.bit_length() - 1) if k & (k - 1) == 0 and \
            self.rng.random() < 0.3 else "%s * %s" % (name, lit(k, type_name))
        self.emit("if ((%s) + %s %s %s) {" % (shift, lit(c, type_name), op,
                                              lit(bound, type_name)))
        self.indent += 1
        visible = len(self.scope)
        if holding:
            self.scope.append(Expr(name, type_name, min(holding), max(holding)))
            self.access(self.scope[-1])
        self.statements(depth - 1, 1)
        del self.scope[visible:]
        self.indent -= 1
        self.emit("}")
        self.scope.append(Expr(name, type_name, value.lo, value.hi))

    def helper_call(self):
        """A helper that indexes a buffer with its parameter, called with two
        arguments: the parameter's range is the union of theirs."""
        type_name = self.rng.choice(["int", "uint"])
        args = [self.expr(type_name, self.rng.randint(0, 2)) for _ in range(2)]
        param = Expr("k", type_name, min(a.lo for a in args), max(a.hi for a in args))
        index = self.into_range(param, self.buffer_u)
        name = self.fresh("h")
        self.call_helpers.append("uint %s(%s k) { return data_u[%s]; }" % (name, type_name,
                                                                       index.text))
        self.emit("acc += %s(%s) + %s(%s);" % (name, args[0].text, name, args[1].text))

    def body_with(self, control, depth, trips):
        self.indent += 1
        outer_trips = self.nest_trips
        self.nest_trips *= trips
        if control is not None:
            self.scope.append(control)
        self.loop_depth += 1
        self.statements(depth - 1, self.rng.randint(1, 3))
        self.loop_depth -= 1
        self.nest_trips = outer_trips
        if control is not None:
            self.scope.pop()
        self.indent -= 1
        self.emit("}")

    def local_value(self):
        """A local assigned once (glslang's form of a let), sometimes assigned again
        under a condition (which must not keep the first value's range)."""
        type_name = self.rng.choice(["int", "uint"])
        value = self.expr(type_name, self.rng.randint(0, 3))
        name = self.fresh("t")
        self.emit("%s %s = %s;" % (type_name, name, value.text))
        if self.rng.random() < 0.25:
            other = self.expr(type_name, self.rng.randint(0, 2))
            self.emit("if ((acc & 1u) == 0u) %s = %s;" % (name, other.text))
            value = Expr(name, type_name, min(value.lo, other.lo), max(value.hi, other.hi))
        self.scope.append(Expr(name, type_name, value.lo, value.hi))

    # --- guards -------------------------------------------------------------------
    def guard_constant(self, e):
        """A bound near the value's own range (so both edges run), or a small one."""
        tlo, thi = TYPE_RANGE[e.type]
        if e.hi - e.lo <= 64 and self.rng.random() < 0.7:
            value = self.rng.randint(e.lo - 2, e.hi + 2)
        else:
            value = self.rng.choice([0, 1, 8, 16, 17, 31, 64, 255, 256]) + \
                self.rng.randint(-1, 1)
        return min(thi, max(tlo, value))

    @staticmethod
    def narrowed(e, op, c):
        """[lo, hi] of e's values for which "e op c" holds, or None when none does."""
        lo, hi = e.lo, e.hi
        if op == "<": hi = min(hi, c - 1)
        elif op == "<=": hi = min(hi, c)
        elif op == ">": lo = max(lo, c + 1)
        elif op == ">=": lo = max(lo, c)
        elif op == "==": lo, hi = max(lo, c), min(hi, c)
        elif op == "!=":
            if lo == hi == c: return None
            lo, hi = (lo + 1 if lo == c else lo), (hi - 1 if hi == c else hi)
        return (lo, hi) if lo <= hi else None

    NEGATED = {"<": ">=", "<=": ">", ">": "<=", ">=": "<", "==": "!=", "!=": "=="}

    def guard(self, depth):
        """A value tested by an if, used where the test holds: in the then-branch, in the
        else-branch (the negation), or after an early exit (return, or break/continue in
        a loop). Traps the analysis must not fall for: a test on one load of a buffer
        element and a use of a later load of it (written in between), a signed test on
        an unsigned value, and a local overwritten after its test. Every index is still
        brought into range by the generator's own bounds, so none is out of bounds; a
        proof narrower than the truth shows up as an ESCAPE. These are marked
        `// guard-trap: NAME`, not `// trap:` (their indices stay in bounds); the same
        shapes with indices that really leave the array are trap_guard_shapes'."""
        type_name = self.rng.choice(["int", "uint"])
        value = self.expr(type_name, self.rng.randint(0, 2))
        name = self.fresh("g")
        self.emit("%s %s = %s;" % (type_name, name, value.text))
        local = Expr(name, type_name, value.lo, value.hi)
        op = self.rng.choice(["<", "<=", ">", ">=", "==", "!="])
        c = self.guard_constant(local)
        trap = self.rng.choice([None, None, None, "reload", "signed", "overwrite"])
        test = "%s %s %s" % (name, op, lit(c, type_name))
        if trap == "signed" and type_name == "uint":  # says nothing about the u32 reading
            test = "int(%s) %s %s" % (name, op, lit(min(c, I32_MAX), "int"))
        if trap == "reload":
            slot = self.rng.randrange(min(self.buffer_u, 64))
            test = "data_u[%d] %s %s" % (slot, op, lit(c, "uint") if type_name == "uint"
                                         else "%su" % max(c, 0))
        style = self.rng.choice(["then", "else", "exit"])
        if trap and (trap != "signed" or type_name == "uint"):
            self.emit("// guard-trap: %s" % trap)
        holds = op if style == "then" else self.NEGATED[op]
        seen = self.narrowed(local, holds, c) if trap is None else None
        inside = Expr(name, type_name, *seen) if seen else None
        if trap == "signed" and type_name == "uint":
            inside = local  # the generator keeps the whole u32 range
        if style == "exit":
            exits = ["return"] + (["break", "continue"] if self.loop_depth else [])
            self.emit("if (%s) %s;" % (test, self.rng.choice(exits)))
            self.after_guard(trap, inside or local, slot if trap == "reload" else None)
            return
        self.emit("if (%s) {%s" % (test, "" if style == "then" else " } else {"))
        self.indent += 1
        visible = len(self.scope)  # what the branch learns ends with it
        self.after_guard(trap, inside or local, slot if trap == "reload" else None)
        self.statements(depth - 1, self.rng.randint(1, 2))
        del self.scope[visible:]
        self.indent -= 1
        self.emit("}")
        if trap != "overwrite":
            self.scope.append(local)  # the whole range holds after the if

    def after_guard(self, trap, visible, slot):
        """Makes `visible` usable by later statements, after springing the trap."""
        if trap == "reload":
            self.emit("data_u[%d] = acc * 2654435761u;" % slot)
            self.scope.append(Expr("data_u[%d]" % slot, "uint", 0, U32_MAX))
            self.access(self.scope[-1])
            return
        if trap == "overwrite":
            other = self.expr(visible.type, self.rng.randint(0, 2))
            self.emit("%s = %s;" % (visible.text, other.text))
            visible = Expr(visible.text, visible.type, other.lo, other.hi)
        self.scope.append(visible)
        if self.rng.random() < 0.7:  # index with it straight away
            self.access(visible)

    # --- traps that index out of bounds on purpose --------------------------------
    # Each of these reaches an index one past its array (or far below it) at run time;
    # only the clamp keeps it contained, and glint-audit clamps what the analysis does
    # not prove (its default; the soak and CI never pass --no-robust-access). A proof that
    # drops such a clamp is an ESCAPE, since the observed index leaves the proven range.
    # The out-of-bounds accesses touch only the Data block (data_u is followed by data_i)
    # or the Result buffer's run-time array, never a local or shared array.
    #
    # Each trap's out-of-bounds access line ends in TRAP_ACCESS, so that the audit's
    # report (which names source lines) tells which sites are traps; audit_test requires
    # that they are observed out of bounds at run time and clamped.
    def trap_source(self):
        """A built-in and how many consecutive values (0, 1, ...) of it every run takes:
        the local index (every invocation of a sampled group runs), or, when the whole
        grid runs (no group budget) and it has more values, the global id's x."""
        x, y, z = self.local_size
        local = x * y * z
        across = self.groups[0] * x
        if local >= 5 or self.group_budget or across <= local:
            return "gl_LocalInvocationIndex", local
        return "gl_GlobalInvocationID.x", across

    def near(self, center, spread, must, base=None):
        """A uint in [center - spread, center + spread] that varies between invocations
        and takes the value `must` (the one that goes out of bounds) in some invocation:
        lo + (source % m), with m no more than the values the source really takes, and lo
        chosen so that [lo, lo + m - 1] holds `must`. `base(lo)` spells lo (e.g. from a
        run-time length). Before, a built-in with one or two values here left some traps
        in bounds (proven, correctly), testing nothing."""
        assert center - spread <= must <= center + spread
        source, count = self.trap_source()
        m = min(2 * spread + 1, count)
        lo = min(max(must - (m - 1) // 2, center - spread), center + spread - (m - 1))
        text = base(lo) if base else "%du" % lo
        return Expr("(%s + (%s %% %du))" % (text, source, m), "uint", lo, lo + m - 1)

    def emit_trap_access(self, text):
        self.emit(text + TRAP_ACCESS)

    def trap_wrong_bound(self):
        """A guard whose bound is the array's size itself: `if (q <= N) data_u[q]`."""
        n = self.buffer_u
        q = self.near(n - 1, 2, n)
        name = self.fresh("q")
        self.emit("// trap: wrong-bound (index %d of data_u[%d] passes the guard)" % (n, n))
        self.emit("uint %s = %s;" % (name, q.text))
        style = self.rng.choice(["le", "lt", "exit", "else", "gt-exit"])
        if style == "le":
            self.emit_trap_access("if (%s <= %du) acc += data_u[%s];" % (name, n, name))
        elif style == "lt":
            self.emit_trap_access("if (%s < %du) data_u[%s] = acc;" % (name, n + 1, name))
        elif style == "exit":
            self.emit("if (%s >= %du) return;" % (name, n + 1))
            self.emit_trap_access("acc += data_u[%s];" % name)
        elif style == "else":
            self.emit_trap_access("if (%s > %du) { acc += 1u; } else { acc += data_u[%s]; }"
                                  % (name, n, name))
        else:  # the "q > N" that should have been "q >= N"
            self.emit("if (%s > %du) return;" % (name, n))
            self.emit_trap_access("data_u[%s] = acc + 3u;" % name)

    def trap_abs_int_min(self):
        """abs(INT_MIN) is INT_MIN: `if (abs(v) < N) data_u[abs(v)]` indexes far below."""
        source, _ = self.trap_source()  # takes 0, so some invocation gets INT_MIN
        name = self.fresh("m")
        self.emit("// trap: abs-int-min")
        self.emit("int %s = abs(int(0x80000000u | (%s & 1u)));" % (name, source))
        if self.rng.random() < 0.5:
            self.emit_trap_access("if (%s < %d) acc += data_u[%s];" % (name, self.buffer_u, name))
        else:
            self.emit("if (%s >= %d) return;" % (name, self.buffer_u))
            self.emit_trap_access("acc += data_u[%s];" % name)

    def trap_length_le(self):
        """`<=` against a run-time length lets the index equal the length."""
        q = self.near(RESULT_LENGTH - 1, 2, RESULT_LENGTH, self.from_length)
        name = self.fresh("q")
        self.emit("// trap: length-le (index result.length() passes the guard)")
        self.emit("uint %s = %s;" % (name, q.text))
        length = self.rng.choice(["uint(result.length())", "result.length()"])
        cast = name if length.startswith("uint") else "int(%s)" % name
        self.emit_trap_access("if (%s <= %s) acc += result[%s];" % (cast, length, name))

    @staticmethod
    def from_length(lo):
        """lo spelled from the run-time length (RESULT_LENGTH when the audit runs)."""
        return "(uint(result.length()) - %du)" % (RESULT_LENGTH - lo)

    def length_guard(self):
        """The sound form: `i < x.length()` proves x[i] (unsigned, or signed and >= 0)."""
        q = self.near(RESULT_LENGTH - 1, 2, RESULT_LENGTH, self.from_length)
        name = self.fresh("q")
        self.emit("uint %s = %s;" % (name, q.text))
        style = self.rng.choice(["then", "exit", "signed"])
        if style == "then":
            self.emit("if (%s < uint(result.length())) acc += result[%s];" % (name, name))
        elif style == "exit":
            self.emit("if (%s >= uint(result.length())) return;" % name)
            self.emit("acc += result[%s];" % name)
        else:
            self.emit("if (int(%s) >= 0 && int(%s) < result.length()) acc += result[int(%s)];"
                      % (name, name, name))

    def out_parameter(self):
        """Two results through out parameters of a helper."""
        value = self.convert(self.expr("uint", self.rng.randint(0, 2)), "uint")
        lo, hi = self.fresh("o"), self.fresh("o")
        self.helpers.add("h_split")
        self.emit("uint %s, %s;" % (lo, hi))
        self.emit("h_split(%s, %s, %s);" % (value.text, lo, hi))
        self.scope.append(Expr(lo, "uint", 0, 15))
        self.scope.append(Expr(hi, "uint", 0, 15))
        self.access(self.scope[-self.rng.randint(1, 2)])

    # --- general loop-carried updates and guards through ranged offsets --------------
    def halving_loop(self):
        """dxvk's reduction: n halves through a second local (a general update, solved by
        the fixed point), and `q + h < n` bounds q and the recomputed q + h (a ranged
        offset). Sound: q + h < n <= N, no wrap (q and h are small)."""
        n0 = self.buffer_u
        n, h, q = self.fresh("n"), self.fresh("h"), self.fresh("q")
        self.emit("uint %s = %s;" % (q, self.convert(self.builtin(), "uint").text))
        self.emit("uint %s = %du;" % (n, n0))
        self.emit("while (%s > 1u && acc != 12345u) {" % n)
        self.indent += 1
        self.emit("uint %s = (%s + 1u) / 2u;" % (h, n))
        self.emit("if (%s + %s < %s) { acc += data_u[%s]; data_u[%s + %s] = acc; }"
                  % (q, h, n, q, q, h))
        self.emit("%s = %s;" % (n, h))
        self.indent -= 1
        self.emit("}")
        self.scope.append(Expr(n, "uint", 1, n0))

    def offset_guard(self):
        """`a + b < N` with both ranged: a, b and the recomputed a + b are below N."""
        a = self.convert(self.builtin(), "uint")
        b = Expr("(%s & %du)" % (self.convert(self.builtin(), "uint").text, 15), "uint", 0, 15)
        x, y = self.fresh("a"), self.fresh("b")
        self.emit("uint %s = %s;" % (x, a.text))
        self.emit("uint %s = %s;" % (y, b.text))
        n = self.buffer_u
        self.emit("if (%s + %s < %du) { acc += data_u[%s]; acc += data_u[%s]; "
                  "data_u[%s + %s] = acc; }" % (x, y, n, x, y, x, y))

    def trap_loop_exit_value(self):
        """A general update leaves the loop at or above its bound: `p` ends >= N."""
        n = self.buffer_u
        p = self.fresh("p")
        self.emit("// trap: loop-exit-value (p leaves the loop at %d or more)" % n)
        self.emit("uint %s = (%s %% 3u) + 1u;" % (p, self.convert(self.builtin(), "uint").text))
        self.emit("while (%s < %du && acc != 12345u) %s = %s + %s / 2u + 1u;" % (p, n, p, p, p))
        self.emit_trap_access("acc += data_u[%s];" % p)

    def trap_offset_wrap(self):
        """`q + b < N` where q + b wraps (b near 2^32): says nothing about q."""
        n = self.buffer_u
        q = self.near(n - 1, 2, n)
        name, b = self.fresh("q"), self.fresh("b")
        self.emit("// trap: offset-wrap (q + b wraps, q reaches %d)" % (n + 1))
        self.emit("uint %s = %s;" % (name, q.text))
        # b in [2^32 - 8, 2^32 - 1]: q + b wraps to q - 8 + k for every q >= 8 (n >= 8),
        # so q = n passes the test (before, b near 2^32 - 96 let it pass only for n >= 89).
        self.emit("uint %s = 4294967288u + (%s & 7u);" % (b, self.convert(self.builtin(),
                                                                          "uint").text))
        self.emit_trap_access("if (%s + %s < %du) acc += data_u[%s];" % (name, b, n, name))

    def trap_offset_restored(self):
        """`q + b < N`, then b is stored again: the recomputed q + b is a new value."""
        n = self.buffer_u
        q = self.near(n - 2, 2, n - 3)
        name, b = self.fresh("q"), self.fresh("b")
        self.emit("// trap: offset-restored (q + b recomputed after b changes)")
        self.emit("uint %s = %s;" % (name, q.text))
        self.emit("uint %s = 1u + (%s & 1u);" % (b, self.convert(self.builtin(), "uint").text))
        self.emit_trap_access("if (%s + %s < %du) { %s = 3u; acc += data_u[%s + %s]; }"
                              % (name, b, n, b, name, b))

    def counter_loops(self):
        """SaschaWillems' filters: a counter bumped once per inner iteration of counted
        loops (bounded by the trip counts). Sound: n < a * b <= N."""
        n = self.buffer_u
        a = self.rng.randint(1, 4)
        b = self.rng.randint(1, max(1, n // a))
        name, i, j = self.fresh("n"), self.fresh("i"), self.fresh("j")
        self.emit("int %s = -1;" % name)
        self.emit("for (int %s = 0; %s < %d; ++%s)" % (i, i, a, i))
        self.emit("  for (int %s = 0; %s < %d; ++%s) { %s++; acc += data_u[%s]; }"
                  % (j, j, b, j, name, name))

    def trap_counter_overrun(self):
        """The counted loops run once more than the array has elements."""
        n = self.buffer_u
        b = n // 2 + 1
        name, i, j = self.fresh("n"), self.fresh("i"), self.fresh("j")
        self.emit("// trap: counter-overrun (n reaches %d)" % (2 * b - 1))
        self.emit("int %s = -1;" % name)
        self.emit("for (int %s = 0; %s < 2; ++%s)" % (i, i, i))
        self.emit_trap_access("  for (int %s = 0; %s < %d; ++%s) { %s++; acc += data_u[%s]; }"
                              % (j, j, b, j, name, name))

    def exit_counter(self, trap=False):
        """A counter n stepped beside the counter j that a while loop tests at its top
        (loop_exit_counters.cpp): the loop runs at most (B - 1 - j0) / S + 1 times, so n
        stays below n0 + that. j starts from a constant or a small built-in part; the
        bound is a constant or a min with one (a bound with a range); n is read before
        or after its step. The trap tests `j <= B` with j from 0, so the last n is the
        array's size."""
        n = self.buffer_u
        name, j = self.fresh("n"), self.fresh("j")
        step = self.rng.randint(1, 3)
        if trap:
            last = self.rng.randint(1, min(8, n))
            self.emit("// trap: exit-counter (j <= %d runs %d times, n reaches %d)"
                      % (last, last + 1, n))
            self.emit("uint %s = %du; uint %s = 0u;" % (name, n - last, j))
            self.emit_trap_access("while (%s <= %du) { acc += data_u[%s]; %s++; %s++; }"
                                  % (j, last, name, name, j))
            return
        bound = self.rng.randint(1, min(24, step * n))  # at most n runs
        runs = (bound - 1) // step + 1  # from j = 0
        read_first = self.rng.random() < 0.5
        start = self.rng.randint(0, n - runs) + (0 if read_first else -1)
        j0 = self.rng.choice(["0u", "(%s & 3u)" % self.convert(self.builtin(), "uint").text])
        limit = self.rng.choice(["%du" % bound, "min(%s, %du)" % (self.any_uint().text, bound)])
        self.emit("int %s = %d; uint %s = %s;" % (name, start, j, j0))
        access = "acc += data_u[%s]; " % name
        self.emit("while (%s < %s) { %s%s++; %s%s += %du; }"
                  % (j, limit, access if read_first else "", name,
                     "" if read_first else access, j, step))

    def constant_table(self, trap=False):
        """A value read at a run-time index from a `const` array (Glint's constant-table
        pass gives it a Private variable with the constant as initializer;
        integer_range_constant_tables.cpp): it is one of the array's elements, here all in
        data_u's bounds, or the x / y component of one of a table of uvec2. The trap puts
        data_u's size itself into the table, read by invocation 0."""
        n = self.buffer_u
        name = self.fresh("kt")
        if trap:
            self.emit("// trap: constant-table (%s holds %d, data_u has %d elements)"
                      % (name, n, n))
            self.emit("const uint %s[2] = uint[](%du, %du);" % (name, n, n - 1))
            value = self.fresh("v")  # read on its own line: the trap line has one site
            self.emit("uint %s = %s[gl_LocalInvocationIndex & 1u];" % (value, name))
            self.emit_trap_access("acc += data_u[%s];" % value)
            return
        count = self.rng.randint(2, 6)
        index = self.any_uint().text
        if self.rng.random() < 0.5:
            values = ", ".join("%du" % self.rng.randint(0, n - 1) for _ in range(count))
            self.emit("const uint %s[%d] = uint[](%s);" % (name, count, values))
            self.emit("acc += data_u[%s[(%s) %% %du]];" % (name, index, count))
            return
        values = ", ".join("uvec2(%du, %du)" % (self.rng.randint(0, n - 1),
                                                self.rng.randint(0, n - 1))
                           for _ in range(count))
        self.emit("const uvec2 %s[%d] = uvec2[](%s);" % (name, count, values))
        self.emit("acc += data_u[%s[(%s) %% %du].%s];"
                  % (name, index, count, self.rng.choice("xy")))

    def indexed_local(self, trap=False):
        """A local array written element by element (or whole, from a construct) and read
        at a run-time index (integer_range_indexed_locals.cpp): the value read is one of
        the values stored, here all within data_u's bounds. The trap stores data_u's size
        into one element, read by invocation 0."""
        n = self.buffer_u
        name = self.fresh("m")
        if trap:
            value = self.fresh("v")
            self.emit("// trap: indexed-local (%s[0] holds %d, data_u has %d elements)"
                      % (name, n, n))
            self.emit("uint %s[2]; %s[0] = %du; %s[1] = %du;" % (name, name, n, name, n - 1))
            self.emit("uint %s = %s[gl_LocalInvocationIndex & 1u];" % (value, name))
            self.emit_trap_access("acc += data_u[%s];" % value)
            return
        count = self.rng.randint(2, 5)
        values = [self.convert(self.into_range(self.expr("uint", self.rng.randint(0, 2)), n),
                               "uint").text for _ in range(count)]
        if self.rng.random() < 0.5:
            self.emit("uint %s[%d] = uint[](%s);" % (name, count, ", ".join(values)))
        else:
            self.emit("uint %s[%d];" % (name, count))
            for k, value in enumerate(values):
                self.emit("%s[%d] = %s;" % (name, k, value))
        self.emit("acc += data_u[%s[(%s) %% %du]];" % (name, self.any_uint().text, count))

    def invocation_part(self):
        """gl_LocalInvocationIndex or a gl_LocalInvocationID component, and its last value
        (one value for the whole invocation: a test on it holds wherever it is loaded)."""
        choice = self.rng.randrange(4)
        if choice == 3:
            x, y, z = self.local_size
            return "gl_LocalInvocationIndex", x * y * z - 1
        return "gl_LocalInvocationID.%s" % "xyz"[choice], self.local_size[choice] - 1

    def caller_guard(self, trap=False):
        """A helper that indexes data_u with a built-in part plus an offset, called only
        under tests of that part (integer_range_caller_facts.cpp): inside, the part lies in
        the union of what the tests at its calls allow. The trap's test (`<=`) lets the
        part reach k, whose index is data_u's size; invocation k exists."""
        n = self.buffer_u
        part, last = self.invocation_part()
        name = self.fresh("cg")
        if trap:
            k = self.rng.randint(0, min(last, 7))
            self.call_helpers.append(
                "// trap: caller-guard (%s <= %d at the call, %s + %d reaches %d)\n"
                "uint %s() { return data_u[%s + %du]; }%s"
                % (part, k, part, n - k, n, name, part, n - k, TRAP_ACCESS))
            self.emit("if (%s <= %du) acc += %s();" % (part, k, name))
            return
        offset = self.rng.randint(0, n - 1)
        self.call_helpers.append("uint %s() { return data_u[%s + %du]; }" % (name, part, offset))
        for _ in range(self.rng.randint(1, 2)):
            bound = self.rng.randint(1, n - offset)
            style = self.rng.choice(["lt", "else", "and"])
            if style == "lt":
                self.emit("if (%s < %du) acc += %s();" % (part, bound, name))
            elif style == "else":
                self.emit("if (%s >= %du) {} else { acc += %s(); }" % (part, bound, name))
            else:
                self.emit("if (%s < %du && acc != 7u) acc += %s();" % (part, bound, name))

    def quotient_guard(self, trap=False):
        """A test on a quotient of a built-in part (`p / d < q`, `(p >> s) < q`) bounds the
        part (range_guards.cpp: p <= q * d - 1), which then indexes data_u with an offset.
        The trap tests `<=`, letting p reach q * d + d - 1, whose index is data_u's size;
        that invocation exists (no trap when the part cannot reach d - 1)."""
        n = self.buffer_u
        part, last = self.invocation_part()
        divisors = [d for d in (2, 3, 4, 8) if d - 1 <= last] if trap else [2, 3, 4, 8]
        if not divisors:
            return
        d = self.rng.choice(divisors)
        shift = {2: 1, 4: 2, 8: 3}.get(d)
        quotient = ("(%s >> %du)" % (part, shift) if shift and self.rng.random() < 0.5
                    else "(%s / %du)" % (part, d))
        if trap:
            q = self.rng.randint(0, (last - (d - 1)) // d)
            top = q * d + d - 1  # the largest part that passes
            self.emit("// trap: quotient-guard (%s <= %d lets %s = %d through, index %d)"
                      % (quotient, q, part, top, n))
            self.emit_trap_access("if (%s <= %du) acc += data_u[%s + %du];"
                                  % (quotient, q, part, n - top))
            return
        q = self.rng.randint(1, max(1, n // d))
        offset = self.rng.randint(0, n - q * d)
        self.emit("if (%s < %du) acc += data_u[%s + %du];" % (quotient, q, part, offset))

    def bool_guard(self, trap=False):
        """A test kept in a bool local stored once (`bool ok = p < k && ...; if (ok)`):
        it holds where the local is tested (range_guards.cpp). The trap stores the local
        twice, the second time true for every invocation, so the last part's index is
        data_u's size."""
        n = self.buffer_u
        part, last = self.invocation_part()
        name = self.fresh("ok")
        if trap:
            x, y, z = self.local_size
            self.emit("// trap: bool-local (%s is set again, %s + %d reaches %d)"
                      % (name, part, n - last, n))
            self.emit("bool %s = %s < 1u;" % (name, part))
            self.emit("if (gl_LocalInvocationIndex < %du) %s = true;" % (x * y * z, name))
            self.emit_trap_access("if (%s) acc += data_u[%s + %du];" % (name, part, n - last))
            return
        bound = self.rng.randint(1, n)
        offset = self.rng.randint(0, n - bound)
        extra = self.rng.choice(["", " && acc != 7u", " && (gl_LocalInvocationID.x & 1u) == 0u"])
        self.emit("bool %s = %s < %du%s;" % (name, part, bound, extra))
        self.emit("if (%s) acc += data_u[%s + %du];" % (name, part, offset))

    def counted_sum(self, trap=False):
        """A local stepped inside a counted for-loop by a step that depends on the loop's
        counter (`ix = p` with p = ix + (s >> i), a binary search; or `ix += s >> i`),
        each iteration maybe (integer_range_counted_iterations.cpp): it gains at most the
        sum of the steps. The trap takes every step (its test always holds), so the last
        index is data_u's size."""
        n = self.buffer_u
        trips = self.rng.randint(2, 6)
        step = self.rng.randint(1, 64)
        total = sum(step >> k for k in range(trips))
        while total >= n:  # the steps must fit data_u (1 >> k sums to 1)
            step //= 2
            total = sum(step >> k for k in range(trips))
        name, p, i = self.fresh("ix"), self.fresh("p"), self.fresh("i")
        base = self.rng.randint(0, n - 1 - total)
        x, y, z = self.local_size
        if trap:
            self.emit("// trap: counted-sum (every step taken: %s reaches %d)" % (name, n))
            condition = "gl_LocalInvocationIndex < %du" % (x * y * z)
            offset = n - (base + total)
        else:
            condition = self.rng.choice(["(acc & (1u << %s)) != 0u" % i,
                                         "data_u[%s] < data_u[%s + 1u]" % (i, i),
                                         "gl_LocalInvocationIndex > %s" % i])
            offset = self.rng.randint(0, n - 1 - base - total)
        self.emit("uint %s = %du;" % (name, base))
        if self.rng.random() < 0.5:
            # The probe is read in the loop too (each iteration with its own step).
            self.emit("for (uint %s = 0u; %s < %du; %s++) { uint %s = %s + (%du >> %s); "
                      "if (%s) %s = %s;%s }"
                      % (i, i, trips, i, p, name, step, i, condition, name, p,
                         "" if trap else " acc += data_u[%s + %du];" % (p, offset)))
        else:
            self.emit("for (uint %s = 0u; %s < %du; %s++) { if (%s) %s += %du >> %s; }"
                      % (i, i, trips, i, condition, name, step, i))
        access = "acc += data_u[%s + %du];" % (name, offset)
        if trap:
            self.emit_trap_access(access)
        else:
            self.emit(access)

    def bitfield_insert(self, trap=False):
        """bitfieldInsert of a built-in's bits into a small base (a Morton unswizzle;
        integer_range_analysis.cpp's BitFieldInsert): at most base + field, and below the
        smallest all-ones value above both. The trap's base and field are all ones (an OR
        with 0xFF fills the field), so the index is data_u's size."""
        n = self.buffer_u
        part, _ = self.invocation_part()
        offset, count = self.rng.randint(0, 4), self.rng.randint(1, 4)
        base_mask = self.rng.choice([0, 1, 3, 7])
        field = ((1 << count) - 1) << offset
        if trap:
            top = base_mask | field
            self.emit("// trap: bitfield-insert (every bit set: %d, data_u has %d elements)"
                      % (top, n))
            self.emit_trap_access("acc += data_u[bitfieldInsert((%s | %du) & %du, %s | 255u, %d, %d)"
                                  " + %du];" % (part, base_mask, base_mask, part, offset, count,
                                                n - top))
            return
        all_ones = 1
        while all_ones < max(base_mask, field):
            all_ones = all_ones * 2 + 1
        bound = min(base_mask + field, all_ones)
        insert = self.rng.choice(["%s >> 1u" % part, self.any_uint().text, "data_u[0]"])
        self.emit("acc += data_u[bitfieldInsert(%s & %du, %s, %d, %d) + %du];"
                  % (part, base_mask, insert, offset, count,
                     self.rng.randint(0, max(0, n - 1 - bound))))

    def reinterpreted_exit_counter(self, trap=False):
        """An exit counter the loop's test reads through a reinterpretation, `uint(j) < B`
        with j an int or `int(j) < B` with j a uint (loop_exit_counters.cpp): the runs are
        counted in the comparison's reading. The trap starts j at 2^32 - 1 - k, which the
        signed test reads as -1 - k, so the loop runs last + 1 + k times (read as unsigned
        it would not run at all) and n reaches data_u's size."""
        n = self.buffer_u
        name, j = self.fresh("n"), self.fresh("j")
        if trap:
            k = self.rng.randint(0, 3)
            last = self.rng.randint(1, max(1, min(8, n) - k))
            runs = last + 1 + k
            self.emit("// trap: reinterpreted-exit-counter (int(j) from %d runs %d times, n reaches"
                      " %d)" % (-1 - k, runs, n))
            self.emit("int %s = %d; uint %s = %du;" % (name, n - runs + 1, j, 4294967295 - k))
            self.emit_trap_access("while (int(%s) < %d) { acc += data_u[%s]; %s++; %s++; }"
                                  % (j, last, name, name, j))
            return
        step = self.rng.randint(1, 3)
        bound = self.rng.randint(1, min(24, step * n))
        runs = (bound - 1) // step + 1  # from j = 0
        read_first = self.rng.random() < 0.5
        start = self.rng.randint(0, n - runs) + (0 if read_first else -1)
        part = self.convert(self.builtin(), "uint").text
        if self.rng.random() < 0.5:
            self.emit("int %s = %d; int %s = %s;" % (name, start, j,
                                                     self.rng.choice(["0", "int(%s & 3u)" % part])))
            test = "uint(%s) < %du" % (j, bound)
        else:
            self.emit("int %s = %d; uint %s = %s;" % (name, start, j,
                                                      self.rng.choice(["0u", "(%s & 3u)" % part])))
            test = "int(%s) < %d" % (j, bound)
        access = "acc += data_u[%s]; " % name
        self.emit("while (%s) { %s%s++; %s%s += %d%s; }"
                  % (test, access if read_first else "", name, "" if read_first else access, j,
                     step, "u" if test.startswith("int") else ""))

    def tested_after_update(self, trap=False):
        """A local stepped and then tested by the break that leaves its loop
        (integer_range_tested_after_update.cpp): `s++; if (s == N) break;` keeps every
        later read below N; `s += k; if (s >= N) break;` too; downwards to an equality.
        The trap enters the loop a second time without a reset, with the value that
        left it (N), which the body reads before the test stops it."""
        n = self.buffer_u
        name = self.fresh("s")
        part = self.convert(self.builtin(), "uint").text
        if trap:
            bound = self.rng.randint(2, min(12, n))
            self.emit("// trap: tested-after-update (entered again at %d, index %d)"
                      % (bound, n))
            self.emit("uint %s = 0u;" % name)
            self.emit_trap_access("for (int o = 0; o < 2; o++) { while (true) { acc += data_u[%s"
                                  " + %du]; %s++; if (%s >= %du) break; } }"
                                  % (name, n - bound, name, name, bound))
            return
        form = self.rng.choice(["equal", "ordered", "down"])
        start = self.rng.choice(["0u", "(%s & 3u)" % part])
        if form == "equal":
            bound = self.rng.randint(4, min(16, n))
            off = self.rng.randint(0, n - bound)
            self.emit("uint %s = %s;" % (name, start))
            self.emit("while (true) { acc += data_u[%s + %du]; %s++; if (%s == %du) break; }"
                      % (name, off, name, name, bound))
        elif form == "ordered":
            bound = self.rng.randint(4, min(16, n))
            step = self.rng.randint(1, 3)
            off = self.rng.randint(0, n - bound)
            self.emit("uint %s = %s;" % (name, start))
            self.emit("while (true) { acc += data_u[%s + %du]; %s += %du; if (%s >= %du) break; }"
                      % (name, off, name, step, name, bound))
        else:
            top = self.rng.randint(4, min(16, n - 1))
            off = self.rng.randint(0, n - 1 - top)
            self.emit("int %s = %d - int(%s & 1u);" % (name, top, part))
            self.emit("while (true) { acc += data_u[%s + %d]; %s--; if (%s == -1) break; }"
                      % (name, off, name, name))

    def ordered_difference(self, trap=False):
        """A difference under an order (integer_range_ordered_differences.cpp): after
        `x >= y` (or `x > y`, or the else of `x < y`), x - y cannot wrap and lies within
        [0, x.max - y.min]; the prefix sum's `if (x >= (1u << i)) data_u[x - (1u << i)]`
        recomputes the shift from another load of the counter. The trap stores y again
        after the test (y = x + 1u), so x - y wraps to 2^32 - 1 and the index, offset by
        data_u's size + 1, is data_u's size for every invocation."""
        n = self.buffer_u
        part, last = self.invocation_part()
        x, y = self.fresh("x"), self.fresh("y")
        if trap:
            self.emit("// trap: ordered-difference (y stored again after x >= y: index %d)" % n)
            self.emit("uint %s = %s; uint %s = %s & 1u;" % (x, part, y, part))
            self.emit_trap_access("if (%s >= %s) { %s = %s + 1u; acc += data_u[%s - %s + %du]; }"
                                  % (x, y, y, x, x, y, n + 1))
            return
        top = min(last, n - 1, 63)
        mask = 1
        while mask * 2 - 1 <= top:
            mask *= 2
        mask -= 1  # the largest all-ones value within top
        form = self.rng.choice(["prefix", "pair", "strict", "else"])
        if mask == 0 and form in ("prefix", "strict"):  # x is 0: the access would never run
            form = "pair"
        self.emit("uint %s = %s & %du;" % (x, part, mask))
        if form == "prefix":
            i = self.fresh("i")
            steps = max(1, mask.bit_length())
            off = self.rng.randint(0, n - max(mask, 1))  # x - (1u << i) <= mask - 1
            self.emit("for (uint %s = 0u; %s < %du; %s++) { if (%s >= (1u << %s)) "
                      "acc += data_u[%s - (1u << %s) + %du]; }"
                      % (i, i, steps, i, x, i, x, i, off))
            return
        other = self.rng.choice(["data_u[0] & %du" % mask, "(%s >> 1u)" % x,
                                 "gl_LocalInvocationIndex & %du" % mask])
        self.emit("uint %s = %s;" % (y, other))
        off = self.rng.randint(0, n - 1 - mask)
        access = "acc += data_u[%s - %s + %du];" % (x, y, off)
        if form == "pair":
            self.emit("if (%s >= %s) %s" % (x, y, access))
        elif form == "strict":
            self.emit("if (%s > %s) %s" % (x, y, access))
        else:
            self.emit("if (%s < %s) { acc += 1u; } else { %s }" % (x, y, access))

    def remainder_by_hand(self, trap=False):
        """A remainder written out by hand (integer_range_remainder_differences.cpp):
        `v - K * (v / K)`, `v - (v / K) * K`, `v - ((v >> s) << s)`, through locals, and
        i32 forms, whatever v's range. The traps: remainder-next takes the quotient of
        v + 1 with v = 7 mod 8, so v - 8 * ((v + 1) / 8) wraps to 2^32 - 1 and the index,
        offset by data_u's size + 1, is data_u's size; remainder-multiplier subtracts
        4 * (v / 8) from v in [8, 15]: v - 4, past data_u for every invocation."""
        n = self.buffer_u
        v = self.fresh("v")
        if trap:
            part, _ = self.invocation_part()
            if self.rng.random() < 0.5:
                self.emit("// trap: remainder-next (v = 7 mod 8: v - 8 * ((v + 1) / 8) wraps;"
                          " index %d)" % n)
                self.emit("uint %s = (%s << 3u) | 7u;" % (v, part))
                self.emit_trap_access("acc += data_u[%s - 8u * ((%s + 1u) / 8u) + %du];"
                                      % (v, v, n + 1))
            else:
                self.emit("// trap: remainder-multiplier (v - 4 * (v / 8) is v - 4, v in [8, 15];"
                          " index %d..%d)" % (n, n + 7))
                self.emit("uint %s = (%s & 7u) + 8u;" % (v, part))
                self.emit_trap_access("acc += data_u[%s - 4u * (%s / 8u) + %du];" % (v, v, n - 4))
            return
        value = self.rng.choice([self.expr("uint", 2).text, "data_u[%d]" % self.rng.randrange(n),
                                 "(acc * 2654435761u)"])
        self.emit("// remainder by hand")
        self.emit("uint %s = %s;" % (v, value))
        form = self.rng.choice(["left", "right", "shift", "locals", "signed", "signed-any",
                                "signed-shift"])
        k = self.rng.randint(2, min(n, 64))
        if form in ("shift", "signed-shift"):
            k = 1 << self.rng.randint(1, min(6, n.bit_length() - 1))
        off = self.rng.randint(0, n - k)
        if form == "left":
            self.emit("acc += data_u[%s - %du * (%s / %du) + %du];" % (v, k, v, k, off))
        elif form == "right":
            self.emit("acc += data_u[%s - (%s / %du) * %du + %du];" % (v, v, k, k, off))
        elif form == "shift":
            s = k.bit_length() - 1
            self.emit("acc += data_u[%s - ((%s >> %du) << %du) + %du];" % (v, v, s, s, off))
        elif form == "locals":
            q, r = self.fresh("q"), self.fresh("r")
            self.emit("const uint %s = %s / %du;" % (q, v, k))
            self.emit("const uint %s = %s - %du * %s;" % (r, v, k, q))
            self.emit("acc += data_u[%s + %du];" % (r, off))
        elif form == "signed":
            w = self.fresh("w")
            self.emit("int %s = int(%s & 0x7FFFFFFFu);" % (w, v))
            self.emit("acc += data_u[%s - %d * (%s / %d) + %d];" % (w, k, w, k, off))
        elif form == "signed-any":  # [-(K - 1), K - 1]: offset by K - 1, within 2K - 1
            k = self.rng.randint(2, max(2, min(64, (n + 1) // 2)))
            w = self.fresh("w")
            self.emit("int %s = int(%s);" % (w, v))
            self.emit("acc += data_u[%s - (%s / %d) * %d + %d];" % (w, w, k, k, k - 1))
        else:  # an arithmetic shift keeps the low bits whatever the sign: [0, 2^s - 1]
            s = k.bit_length() - 1
            w = self.fresh("w")
            self.emit("int %s = int(%s);" % (w, v))
            self.emit("acc += data_u[%s - ((%s >> %d) << %d) + %d];" % (w, w, s, s, off))

    def bound_tested_above(self, trap=False):
        """A loop's (or a test's) bound m tested above it (integer_range_caller_facts.cpp,
        IntervalAt): under `m <= top`, `i < m` keeps i below top, so data_u[i + off] with
        off = data_u's size - top stays inside, whatever m's own range. The trap,
        bound-tested-le, tests `m <= top + 1` and m takes top + 1 in some invocation: i
        reaches top and the index data_u's size."""
        n = self.buffer_u
        top = self.rng.randint(1, min(16, n))
        off = n - top
        m, i = self.fresh("m"), self.fresh("i")
        if trap:
            self.emit("// trap: bound-tested-le (m <= %d lets i + %d reach %d)" % (top + 1, off, n))
            self.emit("uint %s = %s;" % (m, self.near(top + 1, 1, top + 1).text))
            self.emit("if (%s <= %du) {" % (m, top + 1))
            self.emit_trap_access("  for (uint %s = 0u; %s < %s; %s++) acc += data_u[%s + %du];"
                                  % (i, i, m, i, i, off))
            self.emit("}")
            return
        self.emit("// bound tested above")
        # Mostly values without a range of their own (memory), whose test alone bounds them.
        value = self.rng.choice(["%s %% %du" % (self.expr("uint", 2).text, 2 * top + 1),
                                 "data_u[%d]" % self.rng.randrange(n),
                                 "(data_u[%d] ^ gl_LocalInvocationIndex)" % self.rng.randrange(n),
                                 self.near(top, 2, top).text])
        self.emit("uint %s = %s;" % (m, value))
        loop = "for (uint %s = 0u; %s < %s; %s++) acc += data_u[%s + %du];" % (i, i, m, i, i, off)
        form = self.rng.choice(["around", "else", "test"])
        if form == "around":
            self.emit("if (%s <= %du) { %s }" % (m, top, loop))
        elif form == "else":
            self.emit("if (%s > %du) { acc += 1u; } else { %s }" % (m, top, loop))
        else:
            k = self.fresh("k")
            self.emit("uint %s = %s;" % (k, self.expr("uint", 2).text))
            self.emit("if (%s <= %du) { if (%s < %s) acc += data_u[%s + %du]; }"
                      % (m, top, k, m, k, off))

    def call_result_in_call(self, trap=False):
        """A helper's result at one call, from that call's own argument
        (integer_range_call_results.cpp): `cr(min(part, m)) + off` stays inside data_u
        while another call passes the wide `acc` (whose result is no index). The trap,
        call-result-wide, passes min(part, m) where 2m + 1 + off is data_u's size, and
        part reaches m in some invocation."""
        n = self.buffer_u
        part, last = self.invocation_part()
        m = self.rng.randint(0, min(last, 15, (n - 2) // 2))
        name = self.fresh("cr")
        qualifier = self.rng.choice(["", "const "])
        self.call_helpers.append("uint %s(%suint x) { return x * 2u + 1u; }" % (name, qualifier))
        self.emit("acc += %s(acc);" % name)
        if trap:
            off = n - (2 * m + 1)
            self.emit("// trap: call-result-wide (%s(min(part, %d)) + %d reaches %d)"
                      % (name, m, off, n))
            self.emit_trap_access("acc += data_u[%s(min(%s, %du)) + %du];" % (name, part, m, off))
            return
        off = self.rng.randint(0, n - (2 * m + 2))
        self.emit("// call result of this call's argument")
        self.emit("acc += data_u[%s(min(%s, %du)) + %du];" % (name, part, m, off))

    def fields_in_call(self, trap=False):
        """Bit fields of a vector a helper returns, from this call's count
        (integer_range_components.cpp): `fd(w, B).y` is at most 2^B - 1 while another call
        passes any count. The trap, call-field-wide, takes the field of min(part, m) << 8
        with off = data_u's size - m (m < 2^B), which part reaches in some invocation."""
        n = self.buffer_u
        part, last = self.invocation_part()
        bits = self.rng.randint(1, min(8, (n - 1).bit_length() - 1))
        name = self.fresh("fd")
        self.call_helpers.append(
            "uvec2 %s(uint w, uint bits) { return bitfieldExtract(uvec2(w, w >> 8u), 0, int(bits)); }"
            % name)
        self.emit("acc += %s(acc, acc & 31u).x;" % name)
        if trap:
            m = min(last, (1 << bits) - 1, n)
            self.emit("// trap: call-field-wide (%s(min(part, %d) << 8, %d).y + %d reaches %d)"
                      % (name, m, bits, n - m, n))
            self.emit_trap_access("acc += data_u[%s(min(%s, %du) << 8u, %du).y + %du];"
                                  % (name, part, m, bits, n - m))
            return
        off = self.rng.randint(0, n - (1 << bits))
        self.emit("// fields of this call's count")
        self.emit("acc += data_u[%s(%s, %du).y + %du];" % (name, self.expr("uint", 2).text, bits, off))

    def counter_written_in_helper(self, trap=False):
        """A counter a helper writes (`inout uint count`, count++), tested before its uses
        (canonical_values.cpp: loads with no write between read one value): count * S + off
        stays inside data_u under `count < K` whatever the caller passes. The trap,
        counter-written, adds 1 to the counter between its test and its use; the caller
        passes min(part, K - 1), which part reaches in some invocation, so the index
        reaches K * S + off, data_u's size."""
        n = self.buffer_u
        part, last = self.invocation_part()
        name = self.fresh("ct")
        counter = self.fresh("c")
        step = self.rng.randint(1, min(4, n))
        if trap:
            k = self.rng.randint(1, min(last + 1, 8, n // step))
            off = n - k * step
            self.call_helpers.append(
                "// trap: counter-written (count < %d, then count += 1u: %d * %d + %d reaches %d)\n"
                "uint %s(inout uint count) {\n  uint got = 0u;\n"
                "  if (count < %du) { count += 1u; got = data_u[count * %du + %du]; }%s\n"
                "  return got;\n}" % (k, k, step, off, n, name, k, step, off, TRAP_ACCESS))
            self.emit("uint %s = min(%s, %du);" % (counter, part, k - 1))
            self.emit("acc += %s(%s);" % (name, counter))
            return
        k = self.rng.randint(1, max(1, min(16, n // step)))
        off = self.rng.randint(0, n - 1 - (k - 1) * step)
        self.call_helpers.append(
            "// counter tested before its uses\n"
            "uint %s(inout uint count) {\n  uint got = 0u;\n"
            "  if (count < %du) { got = data_u[count * %du + %du]; got += data_u[count + %du]; }\n"
            "  count++;\n  return got;\n}" % (name, k, step, off, off))
        self.emit("uint %s = acc;" % counter)
        for _ in range(self.rng.randint(1, 3)):
            self.emit("acc += %s(%s);" % (name, counter))

    def field_of_argument_cases(self, trap=False):
        """A helper's bit field whose branch each call's arguments decide, over cases of
        the arguments (integer_range_locals_in_call.cpp, integer_range_argument_cases.cpp):
        Granite's extract_bits joins two words where the field crosses one; called with
        offsets base + min(part, m) and B bits, every case's field is below 2^B, so
        field + off stays inside data_u while another call passes any offset and count.
        The trap, argument-field-wide, passes B + min(part, 1) bits of all-ones words with
        off = data_u's size - 2^B: where part reaches 1 the field is 2^(B + 1) - 1."""
        n = self.buffer_u
        part, last = self.invocation_part()
        name = self.fresh("fx")
        self.call_helpers.append(
            "uint %s(uvec2 words, uint offset, uint bits) {\n  uint result;\n"
            "  if (((offset + bits - 1u) >> 5) == (offset >> 5))\n"
            "    result = bitfieldExtract(words.x, int(offset & 31u), int(bits));\n"
            "  else {\n    uint first = 32u - (offset & 31u);\n"
            "    result = bitfieldExtract(words.x, int(offset & 31u), int(first)) |\n"
            "             (bitfieldExtract(words.y, 0, int(bits - first)) << first);\n  }\n"
            "  return result;\n}" % name)
        self.emit("acc += %s(uvec2(acc), acc & 63u, (acc & 15u) + 1u);" % name)
        bits = self.rng.randint(1, min(6, (n - 1).bit_length() - 1))
        base = self.rng.randint(0, 60)
        m = self.rng.randint(0, min(last, 15))
        if trap:
            wide = "min(%s, 1u)" % part if last >= 1 else "1u"
            off = n - (1 << bits)
            self.emit("// trap: argument-field-wide (%d + %s bits of ones + %d reaches %d)"
                      % (bits, wide, off, n + (1 << bits) - 1))
            self.emit_trap_access("acc += data_u[%s(uvec2(acc | 0xFFFFFFFFu), %du + min(%s, %du), "
                                  "%du + %s) + %du];" % (name, base, part, m, bits, wide, off))
            return
        off = self.rng.randint(0, n - (1 << bits))
        self.emit("// field over cases of this call's arguments")
        self.emit("acc += data_u[%s(uvec2(acc, %s), %du + min(%s, %du), %du) + %du];"
                  % (name, self.expr("uint", 2).text, base, part, m, bits, off))

    def remainder_after_stepped_loop(self, trap=False):
        """What a vectorized loop leaves for its remainder loop
        (integer_range_exit_differences.cpp): after `for (; z + K < b; z += S)` from 0 with
        S <= K + 1, b - z is at most K, so data_u[b - z + off] stays inside for off up to
        data_u's size - 1 - K. The trap, exit-difference-break, leaves the loop by a break
        at its first iteration, with b at least K + 1: b - z is b, and the index passes
        the end."""
        n = self.buffer_u
        step = self.rng.choice([1, 2, 4, 8])
        k = min(self.rng.choice([1, 2]) * step - 1, n - 1)
        step = min(step, k + 1)
        b, z, r = self.fresh("b"), self.fresh("z"), self.fresh("r")
        off = n - 1 - k
        if trap:
            self.emit("// trap: exit-difference-break (a break leaves %s at 0: %s - %s + %d "
                      "reaches %d or more)" % (z, b, z, off, n))
            self.emit("uint %s = %du + (acc & 7u);" % (b, k + 1))
            self.emit("uint %s = 0u;" % z)
            self.emit("for (; %s + %du < %s; %s += %du) { if (%s == 0u) break; acc += 1u; }"
                      % (z, k, b, z, step, z))
            self.emit("uint %s = %s - %s;" % (r, b, z))
            self.emit_trap_access("acc += data_u[%s + %du];" % (r, off))
            return
        # A bound with a range (the audit runs every loop to its end), from memory or not.
        self.emit("uint %s = %s %% %du;" % (b, self.expr("uint", 2).text, self.rng.randint(1, 200)))
        self.emit("uint %s = 0u;" % z)
        self.emit("for (; %s + %du < %s; %s += %du) acc += %s;" % (z, k, b, z, step, z))
        self.emit("uint %s = %s - %s;" % (r, b, z))
        self.emit("// remainder after a stepped loop")
        self.emit("acc += data_u[%s + %du];" % (r, self.rng.randint(0, off)))

    # --- arrays sized by a specialization constant ------------------------------------
    def spec_length(self):
        """SB (constant_id = SPEC_ID, default 1..64) sizes the shared array ssp[SB]; the
        audit runs the shader at an even SB in 2..64 (--run-spec-constant), while the
        analysis sees SB unset, so what it proves below SB must hold for every value.
        Returns the run value."""
        if self.spec is None:
            self.spec = (self.rng.randint(1, 64), 2 * self.rng.randint(1, 32))
        return self.spec[1]

    def spec_guard(self):
        """Sound: a test against SB itself, or a remainder by it."""
        v = self.spec_length()
        q = self.fresh("q")
        self.emit("uint %s = %s;" % (q, self.near(v - 1, 2, v - 1).text))
        style = self.rng.choice(["lt", "gt", "else", "mod"])
        if style == "lt":
            self.emit("if (%s < SB) ssp[%s] = acc;" % (q, q))
        elif style == "gt":
            self.emit("if (SB > %s) acc += ssp[%s];" % (q, q))
        elif style == "else":
            self.emit("if (%s >= SB) { acc += 1u; } else { ssp[%s] = acc + 1u; }" % (q, q))
        else:
            self.emit("acc += ssp[(%s + acc) %% SB];" % q)

    def spec_halving_head(self, s):
        """A counter from half of SB down to 1, halving (integer_range_spec_lengths.cpp)."""
        return self.rng.choice([
            "for (uint %s = SB / 2u; %s > 0u; %s >>= 1)" % (s, s, s),
            "for (uint %s = SB >> 1; %s != 0u; %s /= 2u)" % (s, s, s),
            "for (int %s = int(SB) / 2; %s > 0; %s >>= 1)" % (s, s, s)])

    def spec_halved(self, trap=False):
        """A tree of halving steps: `x < s` with s at most SB / 2 keeps x + s below SB.
        The trap tests `x <= s`: x = s = SB / 2 at the first step (SB is even at the
        run) indexes ssp[SB]."""
        v = self.spec_length()
        x, s = self.fresh("x"), self.fresh("s")
        self.emit("uint %s = %s;" % (x, self.near(v // 2, v // 2, v // 2).text))
        head = self.spec_halving_head(s)
        cast = s if head.startswith("for (uint") else "uint(%s)" % s
        if trap:
            self.emit("// trap: spec-halved-le (x = s = SB / 2 indexes ssp[SB])")
            self.emit(head + " {")
            self.emit_trap_access("  if (%s <= %s) acc += ssp[%s + %s];" % (x, cast, x, cast))
            self.emit("}")
            return
        self.emit(head + " {")
        self.emit("  if (%s < %s) { ssp[%s] = acc; acc += ssp[%s + %s]; }"
                  % (x, cast, x, x, cast) if self.rng.random() < 0.5 else
                  "  if (%s < %s) acc += ssp[%s + %s];" % (x, cast, cast, x))
        self.emit("}")

    def spec_rows(self, trap=False):
        """A helper's count at most SB at every call: SB itself, or what is left of a run
        of SB (`t - f` under `f + SB > t` and `f < t`). The trap's run is 2 * SB: the rest
        may reach SB + 1, which the helper's loop indexes up to."""
        v = self.spec_length()
        helper, f, t = self.fresh("sp_rows"), self.fresh("f"), self.fresh("t")
        # The trap's kind is named in the helper, above its marked access (trap_report.py
        # takes the nearest `// trap:` above a marked line).
        self.call_helpers.append(
            "void %s(uint count) {\n%s  for (uint n = 0u; n < count; ++n) ssp[n] += 1u;%s\n}"
            % (helper, "  // trap: spec-rows-run (a run of 2 * SB: the rest reaches ssp[SB])\n"
               if trap else "", TRAP_ACCESS if trap else ""))
        run = "2u * SB" if trap else "SB"
        if trap:
            self.emit("uint %s = 0u; uint %s = %s;" % (f, t, self.near(v + 1, 1, v + 1).text))
        else:
            self.emit("uint %s = %s; uint %s = %s;" % (f, self.near(3, 3, 0).text, t,
                                                        self.near(v, v, v).text))
        self.emit("if (%s + %s <= %s) %s(SB); else if (%s < %s) %s(%s - %s);"
                  % (f, run, t, helper, f, t, helper, t, f))

    def trap_bit_count(self):
        """bitCount of an all-ones value is 32: one past an array of 32."""
        source, _ = self.trap_source()  # takes 0, so some invocation counts 32 bits
        name = self.fresh("l")
        self.arrays.append(("local", name, "uint", 32))
        self.emit("// trap: bit-count (bitCount(0xFFFFFFFFu) is 32, %s has 32 elements)" % name)
        self.emit_trap_access("acc += %s[bitCount(0xFFFFFFFFu >> (%s %% 2u))];" % (name, source))

    def trap_bit_position(self):
        """findLSB and findMSB of 0 are -1."""
        source, _ = self.trap_source()  # takes 0
        function = self.rng.choice(["findLSB", "findMSB"])
        self.emit("// trap: bit-position (%s(0u) is -1)" % function)
        self.emit_trap_access("acc += data_u[%s(%s & 1u)];" % (function, source))

    def trap_guard_shapes(self):
        """guard()'s narrowness traps with an index that really leaves data_u: a test on
        one load and the use of another load of the same element written in between
        (reload), a signed test on an unsigned value (signed: u = 2^32 - 1 is -1 < N), and
        a local overwritten after its test (overwrite: q < N, then q + 2)."""
        n = self.buffer_u
        style = self.rng.choice(["reload", "signed", "overwrite"])
        self.emit("// trap: %s (the index reaches %s)" % (style, "2^32 - 1" if style == "signed"
                                                          else "%d or more" % n))
        name = self.fresh("q")
        if style == "reload":  # other invocations store the same kind of values there
            slot = self.rng.randrange(min(n, 64))
            self.emit("data_u[%d] = %s;" % (slot, self.near(n - 1, 2, n - 1).text))
            self.emit("if (data_u[%d] < %du) {" % (slot, n))
            self.emit("  data_u[%d] = data_u[%d] + 2u;" % (slot, slot))
            self.emit_trap_access("  acc += data_u[data_u[%d]];" % slot)
            self.emit("}")
        elif style == "signed":
            source, count = self.trap_source()
            m = min(5, count)
            lo = (1 << 32) - 1 - (m - 1) // 2  # takes 2^32 - 1; may wrap past it to 0, 1
            self.emit("uint %s = %du + (%s %% %du);" % (name, lo, source, m))
            use = self.rng.choice([name, "int(%s)" % name])
            self.emit_trap_access("if (int(%s) < %d) acc += data_u[%s];" % (name, n, use))
        else:
            self.emit("uint %s = %s;" % (name, self.near(n - 1, 2, n - 1).text))
            again = self.rng.choice(["%s = %s + 2u;" % (name, name), "%s += 2u;" % name])
            self.emit("if (%s < %du) {" % (name, n))
            self.emit("  %s" % again)
            self.emit_trap_access("  acc += data_u[%s];" % name)
            self.emit("}")

    # --- call results, narrow integers, switch and vector guards ----------------------
    # Each has a sound form the analysis proves and a trap (`// trap: NAME`) whose index
    # reaches data_u's size at run time, so that only the clamp contains it.
    def any_uint(self):
        return self.convert(self.expr("uint", self.rng.randint(0, 2)), "uint")

    def call_result(self, trap=False):
        n = self.buffer_u
        if not trap and self.rng.random() < 0.5:
            self.helpers.add("h_pick")
            self.emit("acc += data_u[h_pick(%s, %du)];" % (self.any_uint().text, n))
            return
        self.helpers.add("h_pick_le")
        self.emit("// trap: call-wrong-bound (h_pick_le returns %d)" % n)
        self.emit_trap_access("acc += data_u[h_pick_le(%s, %du)];" % (self.near(n - 1, 2, n).text,
                                                                     n))

    def parameter_part(self, trap=False):
        """A helper indexed by a component of its vector parameter: in bounds at every call
        (ranged, or guarded around the call); the trap passes a part that reaches the
        array's size."""
        self.helpers.add("h_part_trap" if trap else "h_part")
        self.part_call("h_part_trap" if trap else "h_part", trap)

    def relayed_part(self, trap=False):
        """A vector parameter's part passed down through a relay helper
        (integer_range_calls.cpp): h_part's index is the same part of h_relay's
        arguments, ranged or guarded around the outer call. The trap's outer call passes a
        part that reaches the array's size."""
        self.helpers.update(["h_part_relayed_trap", "h_relay_trap"] if trap
                            else ["h_part", "h_relay"])
        self.part_call("h_relay_trap" if trap else "h_relay", trap)

    def part_call(self, function, trap):
        """A call of `function` (uvec2) whose indexing part is in bounds (ranged, or
        guarded around the call), or for a trap reaches data_u's size."""
        n = self.buffer_u
        if trap:
            q = self.near(n - 1, 2, n)
            self.emit("acc += %s(uvec2(%s, %s));" % (function, q.text, self.any_uint().text))
            return
        other = self.any_uint().text
        if self.rng.random() < 0.5:
            index = self.into_range(self.expr("uint", self.rng.randint(0, 2)), n)
            self.emit("acc += %s(uvec2(%s, %s));" % (function, other, index.text))
            return
        name = self.fresh("q")
        self.emit("uint %s = %s;" % (name, self.any_uint().text))
        self.emit("if (%s < %du) acc += %s(uvec2(%s, %s));" % (name, n, function, other, name))

    def vector_component(self, trap=False):
        """A component of a vector computed componentwise (the range analysis follows it
        through the operation, integer_range_components.cpp): kept in a local and read by
        component, or passed as a part of a vector parameter; in bounds by a modulo, a
        min, or a modulo then a shift on each component. The trap takes the min with the
        array's size itself, so a component reaches it."""
        n = self.buffer_u
        a, b = self.any_uint().text, self.any_uint().text
        name = self.fresh("c")
        if trap:
            q = self.near(n - 1, 2, n)
            self.emit("// trap: vector-component (min(q, %d) lets %d through, data_u has %d "
                      "elements)" % (n, n, n))
            self.emit("uvec2 %s = min(uvec2(%s, %s), uvec2(%du));" % (name, q.text, b, n))
            self.emit_trap_access("acc += data_u[%s.x];" % name)
            return
        style = self.rng.choice(["mod", "min", "shift", "part"])
        if style == "mod":
            self.emit("uvec2 %s = uvec2(%s, %s) %% uvec2(%du);" % (name, a, b, n))
            self.emit("acc += data_u[%s.y];" % name)
        elif style == "min":
            self.emit("uvec2 %s = min(uvec2(%s, %s), uvec2(%du));" % (name, a, b, n - 1))
            self.emit("acc += data_u[%s.x];" % name)
        elif style == "shift":
            self.emit("uvec2 %s = (uvec2(%s, %s) %% uvec2(%du)) >> 1u;" % (name, a, b, 2 * n))
            self.emit("acc += data_u[%s.y];" % name)
        else:
            self.helpers.add("h_part")
            self.emit("acc += h_part(uvec2(%s, %s) %% uvec2(%du));" % (a, b, n))

    def many_calls(self, trap=False):
        """A helper indexed by its parameter, called from 65 to 72 places with in-bounds
        arguments; the trap form passes one that reaches the array's size."""
        n = self.buffer_u
        helper = "h_at_trap" if trap else "h_at"
        self.helpers.add(helper)
        calls = self.rng.randint(65, 72)
        bad = self.rng.randrange(calls) if trap else -1
        for i in range(calls):
            if i == bad:
                value = self.near(n - 1, 2, n)
            else:
                value = self.into_range(self.expr("uint", self.rng.randint(0, 1)), n)
            self.emit("acc += %s(%s);" % (helper, value.text))

    def narrow_value(self, trap=False):
        n = self.buffer_u
        self.narrow = True
        # The truncation keeps a value that fits.
        if not trap and (n >= 255 or self.rng.random() < 0.5):
            index = self.into_range(self.any_uint(), min(n, 256))
            self.emit("acc += data_u[uint(uint8_t(%s))];" % index.text)
            if n > 65536 - 1 or self.rng.random() < 0.5:
                return
            self.emit("acc += data_u[uint(uint16_t(%s)) %% %du];" % (self.any_uint().text, n))
            return
        # Trap: q in [n + 253, n + 257] truncates to [n - 3, n + 1]; a data_u of 255 or
        # more (only from reachable_trap) gets the same through uint16_t and 65536.
        narrow, wrap = ("uint8_t", 256) if n < 255 else ("uint16_t", 65536)
        self.emit("// trap: narrow-truncation (%s keeps only the low bits)" % narrow)
        q = self.near(n + wrap - 1, 2, n + wrap)
        self.emit_trap_access("acc += data_u[uint(%s(%s))];" % (narrow, q.text))

    def switch_guard(self, trap=False):
        n = self.buffer_u
        name = self.fresh("s")
        style = self.rng.choice(["trap-fallthrough", "trap-default"] if trap else
                                ["case", "default", "trap-fallthrough", "trap-default"])
        if style.startswith("trap"):
            self.emit("// trap: switch-%s" % style[5:])
            self.emit("uint %s = %s;" % (name, self.near(n - 1, 2, n).text))
        else:
            self.emit("uint %s = %s %% %du;" % (name, self.any_uint().text, n + 2))
        self.emit("switch (%s) {" % name)
        if style == "case":
            self.emit("case %du: case %du: acc += data_u[%s]; break;" % (n - 1, n // 2, name))
        elif style == "default":  # n and n + 1 are the top of [0, n + 1]
            self.emit("case %du: case %du: acc += 1u; break;" % (n + 1, n))
        elif style == "trap-fallthrough":  # n falls into the case of n - 1
            self.emit("case %du: acc += 1u;" % n)
            self.emit_trap_access("case %du: acc += data_u[%s]; break;" % (n - 1, name))
        else:  # the literal is inside the range: no end moves
            self.emit("case %du: acc += 1u; break;" % (n - 2))
        if style in ("case", "trap-fallthrough"):
            self.emit("default: break;")
        elif style == "trap-default":
            self.emit_trap_access("default: acc += data_u[%s]; break;" % name)
        else:
            self.emit("default: acc += data_u[%s]; break;" % name)
        self.emit("}")

    def vector_guard(self, trap=False):
        n = self.buffer_u
        name = self.fresh("v")
        style = self.rng.choice(["trap-all-false", "trap-overwrite"] if trap else
                                ["all", "any-exit", "global", "trap-all-false", "trap-overwrite"])
        if style == "global":
            self.emit("uvec2 %s = gl_GlobalInvocationID.xy;" % name)
        elif style.startswith("trap"):
            self.emit("// trap: vector-%s" % style[5:])
            # all-false needs a component at n; overwrite needs y at n - 1 (then x = y + 1).
            must = n if style == "trap-all-false" else n - 1
            self.emit("uvec2 %s = uvec2(%s, %s);" % (name, self.near(n - 1, 2, must).text,
                                                     self.near(n - 1, 2, must).text))
        else:
            self.emit("uvec2 %s = uvec2(%s, %s);" % (name, self.any_uint().text,
                                                     self.any_uint().text))
        bound = "uvec2(%du, %du)" % (n, n)
        if style == "all":
            self.emit("if (all(lessThan(%s, %s))) acc += data_u[%s.x] + data_u[%s.y];"
                      % (name, bound, name, name))
        elif style in ("any-exit", "global"):
            self.emit("if (any(greaterThanEqual(%s, %s))) return;" % (name, bound))
            self.emit("acc += data_u[%s.y];" % name)
        elif style == "trap-all-false":  # some component fails: which one is unknown
            self.emit_trap_access(
                "if (all(lessThan(%s, %s))) { acc += 1u; } else { acc += data_u[%s.x]; }"
                % (name, bound, name))
        else:  # the tested component is overwritten (q + 1 may be n) before its use
            self.emit_trap_access(
                "if (all(lessThan(%s, %s))) { %s.x = %s.y + 1u; acc += data_u[%s.x]; }"
                % (name, bound, name, name, name))

    def rule_case(self):
        self.rng.choice([self.call_result, self.narrow_value, self.switch_guard,
                         self.vector_guard, self.many_calls, self.parameter_part,
                         self.vector_component])()

    def trap(self):
        self.rng.choice([self.trap_wrong_bound, self.trap_abs_int_min, self.trap_length_le,
                         self.length_guard, self.out_parameter, self.halving_loop,
                         self.offset_guard, self.trap_loop_exit_value, self.trap_offset_wrap,
                         self.trap_offset_restored, self.counter_loops,
                         self.trap_counter_overrun, self.trap_bit_count,
                         self.trap_bit_position,
                         # twice: it writes three kinds, which CI needs ten of each
                         self.trap_guard_shapes, self.trap_guard_shapes])()

    def reachable_trap(self):
        """One trap of any kind, for the top of main: the random body places its traps
        anywhere (after early returns, in loops that may not run, under tests on buffer
        data), where about two thirds are never reached; a trap at the top is reached by
        every invocation, so its out-of-bounds index really occurs."""
        kinds = [self.trap_wrong_bound, self.trap_abs_int_min, self.trap_length_le,
                 self.trap_loop_exit_value, self.trap_offset_wrap, self.trap_offset_restored,
                 self.trap_counter_overrun, self.trap_bit_count, self.trap_bit_position,
                 lambda: self.call_result(trap=True), lambda: self.narrow_value(trap=True),
                 lambda: self.many_calls(trap=True), lambda: self.parameter_part(trap=True),
                 lambda: self.vector_component(trap=True)]
        # Weighted by the kinds each writes (three guard shapes, two switch and two vector
        # forms), so that every kind is about as likely to be reached.
        kinds += [self.trap_guard_shapes] * 3 + [lambda: self.switch_guard(trap=True)] * 2 + \
            [lambda: self.vector_guard(trap=True)] * 2
        self.rng.choice(kinds)()

    def statements(self, depth, count):
        visible = len(self.scope)  # locals declared here end with this block
        for _ in range(count):
            r = self.rng.random()
            if r < 0.3 and depth > 0 and self.loop_depth < MAX_LOOP_NESTING:
                self.for_loop(depth)
            elif r < 0.36 and depth > 0 and self.loop_depth < MAX_LOOP_NESTING:
                self.while_loop(depth)
            elif r < 0.38 and depth > 0 and self.loop_depth < MAX_LOOP_NESTING:
                self.down_loop(depth)
            elif r < 0.44 and depth > 0:
                self.guard(depth)
            elif r < 0.47:
                self.trap()
            elif r < 0.49 and depth > 0:
                self.derived_guard(depth)
            elif r < 0.51:
                self.helper_call()
            elif r < 0.53:
                self.vector_access()
            elif r < 0.57:
                self.local_value()
            elif r < 0.6:
                self.rule_case()
            else:
                self.access()
        del self.scope[visible:]

    # --- the shader ---------------------------------------------------------------
    def shader(self):
        self.statements(MAX_LOOP_NESTING + 1, self.rng.randint(3, 8))
        body = self.lines
        if self.rng.random() < 0.7:  # drawn after the body, which stays as it was
            self.lines = []
            self.reachable_trap()
            body = self.lines + body
        # The newest rules' shapes, drawn last so that everything above stays as it was
        # for its seed: one sound form, and half the time one trap, at the top of main.
        self.lines = []
        self.rng.choice([self.exit_counter, self.constant_table, self.indexed_local])()
        if self.rng.random() < 0.5:
            self.rng.choice([lambda: self.exit_counter(trap=True),
                             lambda: self.constant_table(trap=True),
                             lambda: self.indexed_local(trap=True)])()
        body = self.lines + body
        # Then the guard shapes of stop 38, drawn after those for the same reason.
        self.lines = []
        self.rng.choice([self.caller_guard, self.quotient_guard, self.bool_guard,
                         self.counted_sum, self.bitfield_insert])()
        if self.rng.random() < 0.5:
            self.rng.choice([lambda: self.caller_guard(trap=True),
                             lambda: self.quotient_guard(trap=True),
                             lambda: self.bool_guard(trap=True),
                             lambda: self.counted_sum(trap=True),
                             lambda: self.bitfield_insert(trap=True)])()
        body = self.lines + body
        # Then stop 39's, drawn after those.
        self.lines = []
        self.rng.choice([self.reinterpreted_exit_counter, self.tested_after_update])()
        if self.rng.random() < 0.5:
            self.rng.choice([lambda: self.reinterpreted_exit_counter(trap=True),
                             lambda: self.tested_after_update(trap=True)])()
        body = self.lines + body
        # Then stop 40's, drawn after those.
        self.lines = []
        self.rng.choice([self.ordered_difference, self.relayed_part])()
        if self.rng.random() < 0.5:
            self.rng.choice([lambda: self.ordered_difference(trap=True),
                             lambda: self.relayed_part(trap=True)])()
        body = self.lines + body
        # Then stop 65's arrays sized by a specialization constant, drawn after those.
        self.lines = []
        self.rng.choice([self.spec_guard, self.spec_halved, self.spec_rows])()
        if self.rng.random() < 0.5:
            self.rng.choice([lambda: self.spec_halved(trap=True),
                             lambda: self.spec_rows(trap=True)])()
        body = self.lines + body
        # Then the shapes of stops 66, 67 and 68, each drawn after the ones before it.
        for shape in (self.remainder_by_hand, self.bound_tested_above, self.call_result_in_call,
                      self.fields_in_call, self.counter_written_in_helper,
                      self.field_of_argument_cases, self.remainder_after_stepped_loop):
            self.lines = []
            shape()
            if self.rng.random() < 0.5:
                shape(trap=True)
            body = self.lines + body
        x, y, z = self.local_size
        budget = " --group-budget=%d" % self.group_budget if self.group_budget else ""
        if self.promise:
            budget += " --max-workgroups=%d,%d,%d" % self.groups
        if self.spec:
            budget += " --run-spec-constant=%d=%d" % (SPEC_ID, self.spec[1])
        head = [
            "// audit-args: --groups=%d,%d,%d%s" % (self.groups + (budget,)),
            "#version 440",
        ] + ([NARROW_EXTENSION] if self.narrow else []) + [
            "layout(local_size_x = %d, local_size_y = %d, local_size_z = %d) in;" % (x, y, z),
            "layout(std430, set = 0, binding = 0) buffer Data {",
            "  uint data_u[%d];" % self.buffer_u,
            "  int data_i[%d];" % self.buffer_i,
            "};",
            "layout(std430, set = 0, binding = 1) buffer Result { uint result[]; };",
        ]
        head += ["shared uint %s[%d];" % (n, s) for k, n, _, s in self.arrays if k == "shared"]
        if self.spec:
            head += ["layout(constant_id = %d) const uint SB = %du;" % (SPEC_ID, self.spec[0]),
                     "shared uint ssp[SB];"]
        head += [HELPERS[name] for name in sorted(self.helpers)]
        head += self.call_helpers
        main = ["void main() {", "  uint acc = gl_LocalInvocationIndex;"]
        for kind, name, _, size in self.arrays:
            if kind == "local":
                main.append("  uint %s[%d];" % (name, size))
                main.append("  for (int k = 0; k < %d; ++k) %s[k] = uint(k);" % (size, name))
        tail = ["  result[gl_LocalInvocationIndex] = acc;", "}"]
        return "\n".join(head + main + body + tail) + "\n"


def generate(seed, index):
    return ShaderWriter(random.Random("%s:%d" % (seed, index))).shader()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", default="1")
    parser.add_argument("--count", type=int, default=200)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    for index in range(args.first, args.first + args.count):
        path = os.path.join(args.out, "gen_%s_%05d.comp" % (args.seed, index))
        with open(path, "w") as f:
            f.write(generate(args.seed, index))
    return 0


if __name__ == "__main__":
    sys.exit(main())
