#!/usr/bin/env python3
"""Random, well-defined warp-level CUDA programs for differential testing (simulator vs GPU).

Each output file fuzz_NN.cu is a whole program: KERNELS `extern "C" __global__` kernels and a
host main that launches every one with inputs made from its seed and writes every thread's
output words (and each launch's CUDA status) to the file named by argv[1]; argv[2] restarts at
a kernel index (after a launch that trapped: a trap poisons the CUDA context). manifest.json
lists every kernel with its launch, seed and the features it uses.

Well-defined by construction (../../shared/spec/warp-semantics.md, section 0 and 9):
  * Branch and loop conditions depend only on the lane, the warp, the block, the loop counter
    and the thread's first input word, so the generator knows, for every warp of every block,
    exactly which lanes reach each collective (a "scenario" per warp and loop iteration).
  * Every mask names exactly the lanes that reach the call, plus possibly lanes that have
    exited (or, in `absent_lanes` kernels, lanes that do not exist in a partial warp).
    Masks inside branches come from __ballot_sync over the enclosing mask; masks inside loops
    whose trip count varies by lane are computed from the trip-count formula.
  * A shuffle is emitted only when, in every scenario, every lane whose source index is in range
    reads a lane that takes part; otherwise its source is chosen at run time among the callers.
  * Tile collectives only where every non-exited lane of each tile involved is at the call.
  * Shared memory: each lane writes its own slot, then __syncwarp(mask) / __syncthreads, reads a
    slot written in that phase, then the barrier again before the next write.
  * No signed overflow (int arithmetic goes through unsigned), no float multiply-add (only exact
    scalings by powers of two), no float-to-int conversion, no NaN produced.
  * __activemask() and coalesced_threads() only at the entry of a branch whose mask a
    __ballot_sync made just before it (where a GPU usually gives the branch's lanes, though the
    CUDA model does not promise it): such kernels are flagged (features "activemask",
    "coalesced"). Known weak: after a loop whose trip count varies by lane, an H200 gave another
    value once in 337 coalesced kernels (tests/fuzz/known_mismatches.json).
  * Tile shuffles read only lanes of the caller's own tile (a shfl_xor lane mask of the tile's
    size or more reaches the tile below: undefined, spec section 8).

Usage: gen_warp_fuzz.py --out DIR [--files 40] [--kernels 50] [--seed 1]
Python 3 standard library only; the same arguments give the same bytes.
"""
import argparse
import json
import os
import random

FULL = 0xFFFFFFFF
TYPES = ["unsigned", "int", "float", "double", "long long"]
VAR = {"unsigned": "vu", "int": "vi", "float": "vf", "double": "vd", "long long": "vl"}
MAX_BLOCK = 256
WORDS_IN = 5   # input words per thread
WORDS_OUT = 2  # output words per thread


def mask32(x):
    return x & FULL


def fz_hash(x):
    """The input generator, identical to fz_hash in the generated host code."""
    x = mask32(x)
    x ^= x >> 16
    x = mask32(x * 0x7FEB352D)
    x ^= x >> 15
    x = mask32(x * 0x846CA68B)
    x ^= x >> 16
    return x


def input_word(seed, index):
    return fz_hash(mask32(seed * 0x9E3779B9 + index * 0x85EBCA6B + 1))


def shfl_source(op, lane, b, width):
    """PTX shfl.sync lane formula (spec 1.2): (source lane, in range)."""
    seg = (32 - width) & 31
    bval = b & 31
    cval = 0 if op == "up" else 31
    min_lane = lane & seg
    max_lane = (lane & seg) | (cval & ~seg & 31)
    if op == "idx":
        j = min_lane | (bval & ~seg & 31)
        p = j <= max_lane
    elif op == "up":
        j = lane - bval
        p = j >= max_lane
    elif op == "down":
        j = lane + bval
        p = j <= max_lane
    else:
        j = lane ^ bval
        p = j <= max_lane
    return (j if p else lane), p


class Scenario:
    """One warp of one block at one loop iteration: which lanes are here, which still run."""

    def __init__(self, block, warp, here, live, env, x0):
        self.block, self.warp, self.here, self.live, self.env, self.x0 = block, warp, here, live, env, x0

    def copy(self, here=None, live=None, env=None):
        return Scenario(self.block, self.warp, self.here if here is None else here,
                        self.live if live is None else live, dict(self.env if env is None else env),
                        self.x0)

    def key(self):
        return (self.block, self.warp, tuple(sorted(self.env.items())))

    def lanes(self):
        return [l for l in range(32) if (self.here >> l) & 1]


class Cond:
    """A condition the generator can evaluate: C text and a function of (lane, scenario)."""

    def __init__(self, text, fn):
        self.text, self.fn = text, fn

    def mask(self, sc):
        m = 0
        for l in sc.lanes():
            if self.fn(l, sc):
                m |= 1 << l
        return m


class KernelGen:
    def __init__(self, rng, name, seed):
        self.rng = rng
        self.name = name
        self.seed = seed
        self.lines = []
        self.indent = 1
        self.masks = 0
        self.tmp = 0
        self.features = set()
        self.exited_somewhere = False  # a return was emitted: no __syncthreads after it
        self.loop_depth = 0
        self.divergent_loop = False
        r = rng.random()
        if r < 0.45:
            self.block = rng.choice([32, 64, 96, 128])
        elif r < 0.9:
            self.block = rng.choice([17, 33, 40, 48, 60, 72, 100, 127, 150, 200])
        else:
            self.block = rng.choice([7, 1, 2, 256, 31])
        self.grid = rng.choice([1, 1, 1, 2, 3])
        self.x0_range = rng.choice([2, 3, 4, 8, 16, 32, 1 << 32])
        self.tiles = sorted(set(rng.sample([2, 4, 8, 16, 32], rng.randint(0, 2))))
        partial = self.block % 32 != 0
        self.absent_lanes = partial and rng.random() < 0.25
        if self.absent_lanes:
            self.features.add("absent_lanes")
        if partial:
            self.features.add("partial_warp")

    # ---- emission helpers
    def emit(self, text):
        self.lines.append("  " * self.indent + text)

    def fresh(self, prefix):
        self.tmp += 1
        return f"{prefix}{self.tmp}"

    def x0_of(self, g):
        w = input_word(self.seed, WORDS_IN * g)
        return w % self.x0_range if self.x0_range < (1 << 32) else w

    def initial_scenarios(self):
        out = []
        for b in range(self.grid):
            for w in range((self.block + 31) // 32):
                n = min(32, self.block - 32 * w)
                here = (1 << n) - 1
                x0 = [self.x0_of(b * self.block + 32 * w + l) if l < n else 0 for l in range(32)]
                out.append(Scenario(b, w, here, here, {}, x0))
        return out

    # ---- conditions
    def random_cond(self, scs, allow_i=False, tile_aligned=None):
        rng = self.rng
        if tile_aligned:
            n = tile_aligned
            k = rng.randint(0, 32 // n - 1)
            choice = rng.randint(0, 2)
            if choice == 0:
                return Cond(f"(lane / {n}u) % 2u == {k % 2}u", lambda l, sc: (l // n) % 2 == k % 2)
            if choice == 1:
                return Cond(f"lane < {k * n + n}u", lambda l, sc: l < k * n + n)
            return Cond(f"lane >= {k * n}u", lambda l, sc: l >= k * n)
        kinds = ["lt", "ge", "bit", "mod", "x0", "x0lane", "warp", "mix"]
        if allow_i and self.loop_depth > 0:
            kinds += ["i", "i"]
        kind = rng.choice(kinds)
        if kind == "lt":
            k = rng.randint(1, 31)
            return Cond(f"lane < {k}u", lambda l, sc: l < k)
        if kind == "ge":
            k = rng.randint(1, 31)
            return Cond(f"lane >= {k}u", lambda l, sc: l >= k)
        if kind == "bit":
            k = 1 << rng.randint(0, 4)
            return Cond(f"(lane & {k}u) != 0u", lambda l, sc: (l & k) != 0)
        if kind == "mod":
            d = rng.randint(2, 5)
            r = rng.randint(0, d - 1)
            return Cond(f"lane % {d}u == {r}u", lambda l, sc: l % d == r)
        if kind == "x0":
            d = rng.randint(2, 4)
            return Cond(f"x0 % {d}u == 0u", lambda l, sc: sc.x0[l] % d == 0)
        if kind == "x0lane":
            return Cond("(x0 & 1u) != (lane & 1u)", lambda l, sc: (sc.x0[l] & 1) != (l & 1))
        if kind == "warp":
            return Cond("(warp + blockIdx.x) % 2u == 0u", lambda l, sc: (sc.warp + sc.block) % 2 == 0)
        if kind == "mix":
            k = rng.randint(0, 31)
            return Cond(f"((lane * 7u + {k}u) & 8u) != 0u", lambda l, sc: ((l * 7 + k) & 8) != 0)
        var = f"i{self.loop_depth}"
        k = rng.randint(0, 3)
        return Cond(f"(lane + (unsigned){var}) % 3u != {k % 3}u",
                    lambda l, sc, var=var, k=k: (l + sc.env[var]) % 3 != k % 3)

    # ---- values
    def mix(self, text, typ):
        if typ in ("double", "long long"):
            self.emit(f"acc = fz_mix64(acc, {text});")
        elif typ == "float":
            self.emit(f"acc = fz_mix(acc, __float_as_uint({text}));")
        else:
            self.emit(f"acc = fz_mix(acc, (unsigned)({text}));")

    def combine(self, typ, r):
        v = VAR[typ]
        how = self.rng.randint(0, 2)
        if how == 0:
            self.emit(f"{v} = {r};")
        elif typ == "unsigned":
            self.emit(f"{v} = {v} {'+' if how == 1 else '^'} {r};")
        elif typ == "int":
            self.emit(f"{v} = (int)((unsigned){v} {'+' if how == 1 else '-'} (unsigned){r});")
        elif typ == "long long":
            self.emit(f"{v} = (long long)((unsigned long long){v} {'+' if how == 1 else '^'} "
                      f"(unsigned long long){r});")
        else:
            self.emit(f"{v} = {v} {'+' if how == 1 else '-'} {r};")

    # ---- collectives
    def shuffle_ok(self, scs, op, src_fn, width, tile=None):
        """Every caller reads a lane that makes the same call (in a tile: of its own tile)."""
        for sc in scs:
            for l in sc.lanes():
                j, p = shfl_source(op, l, src_fn(l), width)
                if not p or j == l:
                    continue
                if not (sc.here >> j) & 1:
                    return False
                if tile is not None and (j & ~(tile - 1)) != (l & ~(tile - 1)):
                    return False
        return True

    def gen_shuffle(self, scs, m):
        rng = self.rng
        typ = rng.choice(TYPES)
        v = VAR[typ]
        width = rng.choice([32, 32, 16, 8, 4, 2] + ([1] if rng.random() < 0.05 else []))
        wtext = "" if width == 32 and rng.random() < 0.5 else f", {width}"
        for _ in range(8):
            op = rng.choice(["idx", "up", "down", "xor"])
            if op == "idx":
                form = rng.randint(0, 3)
                k = rng.choice([0, 1, 2, 3, 5, 7, 15, 16, 31, 33, -1])
                if form == 0:
                    text, fn = f"{k}", (lambda l, k=k: k)
                elif form == 1:
                    text, fn = f"(int)lane + {k}", (lambda l, k=k: l + k)
                elif form == 2:
                    kk = k & 31
                    text, fn = f"(int)(lane ^ {kk}u)", (lambda l, kk=kk: l ^ kk)
                else:
                    text, fn = f"(int)(lane * 3u + {k & 31}u)", (lambda l, k=k: l * 3 + (k & 31))
                call = "__shfl_sync"
            else:
                if op == "xor":
                    k = rng.randint(1, 31)
                else:
                    k = rng.choice([1, 1, 2, 3, 4, 8, 16, 33] if rng.random() < 0.95 else [0, 32])
                text, fn = f"{k}", (lambda l, k=k: k)
                call = {"up": "__shfl_up_sync", "down": "__shfl_down_sync",
                        "xor": "__shfl_xor_sync"}[op]
            if self.shuffle_ok(scs, op, lambda l: fn(l) & FULL if fn(l) >= 0 else (fn(l) & FULL),
                               width):
                r = self.fresh("r")
                self.emit(f"const {typ} {r} = {call}({m}, {v}, {text}{wtext});")
                self.mix(r, typ)
                self.combine(typ, r)
                self.features.add(f"shfl_{op}")
                return
        # A source picked at run time among the callers of this lane's segment.
        r, e = self.fresh("r"), self.fresh("e")
        self.emit(f"const unsigned {e} = __ballot_sync({m}, 1) & fz_segment(lane, {width}u);")
        pick = rng.randint(0, 1)
        src = f"__ffs({e}) - 1" if pick == 0 else f"31 - __clz({e})"
        self.emit(f"const {typ} {r} = __shfl_sync({m}, {v}, {src}, {width});")
        self.mix(r, typ)
        self.combine(typ, r)
        self.features.add("shfl_idx_runtime")

    def gen_vote(self, scs, m):
        rng = self.rng
        pred = rng.choice(["(vu & 1u) != 0u", "vi < 0", "vf > 0.0f", "(x0 & 2u) != 0u",
                           "lane % 3u == 0u", "vd < 1.0", "(vl & 4ll) != 0ll", "1", "0"])
        op = rng.choice(["__ballot_sync", "__any_sync", "__all_sync", "__ballot_sync"])
        r = self.fresh("r")
        typ = "unsigned" if op == "__ballot_sync" else "int"
        self.emit(f"const {typ} {r} = {op}({m}, {pred});")
        self.mix(r, "unsigned")
        if op == "__ballot_sync" and rng.random() < 0.5:
            self.emit(f"vu = vu + __popc({r});")
        self.features.add(op.strip("_"))

    def gen_match(self, scs, m):
        rng = self.rng
        typ = rng.choice(TYPES)
        key = {
            "unsigned": rng.choice(["vu & 3u", "x0", "x0 % 3u", "vu"]),
            "int": rng.choice(["(int)(x0 & 1u) - 1", "vi & 1", "vi"]),
            "float": rng.choice(["(float)(x0 & 1u)", "(x0 & 1u) ? 0.0f : -0.0f", "vf"]),
            "double": rng.choice(["(double)(x0 % 3u)", "vd", "(x0 & 1u) ? 0.5 : 0.25"]),
            "long long": rng.choice(["(long long)(x0 & 1u) << 40", "vl", "(long long)x0"]),
        }[typ]
        r = self.fresh("r")
        if rng.random() < 0.6:
            self.emit(f"const unsigned {r} = __match_any_sync({m}, ({typ})({key}));")
            self.mix(r, "unsigned")
            self.features.add("match_any")
        else:
            p = self.fresh("p")
            self.emit(f"int {p} = 7;")
            self.emit(f"const unsigned {r} = __match_all_sync({m}, ({typ})({key}), &{p});")
            self.mix(r, "unsigned")
            self.mix(p, "int")
            self.features.add("match_all")

    def gen_reduce(self, scs, m):
        rng = self.rng
        op = rng.choice(["add", "min", "max", "and", "or", "xor"])
        if op in ("add", "min", "max") and rng.random() < 0.5:
            arg, typ = rng.choice(["vi", "(int)x0 - 2"]), "int"
        else:
            arg, typ = rng.choice(["vu", "x0", "lane * x0"]), "unsigned"
        r = self.fresh("r")
        self.emit(f"const {typ} {r} = __reduce_{op}_sync({m}, {arg});")
        self.mix(r, typ)
        self.combine(typ, r)
        self.features.add(f"reduce_{op}")

    def gen_syncwarp_exchange(self, scs, m):
        rng = self.rng
        e, s, r = self.fresh("e"), self.fresh("s"), self.fresh("r")
        self.emit(f"fz_sh[threadIdx.x] = vu ^ (unsigned)vi;")
        self.emit(f"__syncwarp({m});")
        self.emit(f"const unsigned {e} = __ballot_sync({m}, 1);")
        how = rng.randint(0, 2)
        if how == 0:  # the next caller above, cyclically
            self.emit(f"const unsigned {s} = fz_next_member({e}, lane);")
        elif how == 1:
            self.emit(f"const unsigned {s} = __ffs({e}) - 1u;")
        else:
            self.emit(f"const unsigned {s} = 31u - __clz({e});")
        self.emit(f"const unsigned {r} = fz_sh[(threadIdx.x & ~31u) + {s}];")
        self.emit(f"__syncwarp({m});")
        self.mix(r, "unsigned")
        self.combine("unsigned", r)
        self.features.add("syncwarp_exchange")

    def gen_syncthreads_exchange(self):
        r = self.fresh("r")
        k = self.rng.randint(1, 300)
        self.emit("fz_bar[threadIdx.x] = vu + (unsigned)vl;")
        self.emit("__syncthreads();")
        self.emit(f"const unsigned {r} = fz_bar[(threadIdx.x + {k}u) % blockDim.x];")
        self.emit("__syncthreads();")
        self.mix(r, "unsigned")
        self.combine("unsigned", r)
        self.features.add("syncthreads_exchange")

    def tile_ok(self, scs, n):
        """Every non-exited lane of every tile that a caller belongs to is at the call."""
        for sc in scs:
            for l in sc.lanes():
                base = l & ~(n - 1)
                tile = ((1 << n) - 1) << base
                if (tile & sc.live) & ~sc.here:
                    return False
        return True

    def tile_full(self, scs, n):
        """Every lane of every tile that a caller belongs to is at the call (none exited or absent)."""
        for sc in scs:
            for l in sc.lanes():
                tile = ((1 << n) - 1) << (l & ~(n - 1))
                if tile & ~sc.here:
                    return False
        return True

    def gen_tile(self, scs):
        rng = self.rng
        n = rng.choice(self.tiles)
        if not self.tile_ok(scs, n):
            return False
        t = f"t{n}"
        op = rng.choice(["shfl", "shfl_up", "shfl_down", "shfl_xor", "ballot", "any", "all",
                         "match_any", "reduce", "rank", "sync"])
        if op in ("reduce", "sync") and not self.tile_full(scs, n):
            op = "ballot"
        typ = rng.choice(TYPES)
        v = VAR[typ]
        r = self.fresh("r")
        if op.startswith("shfl"):
            for _ in range(6):
                k = rng.choice([0, 1, 2, 3, n - 1, n, n + 1, -1]) if op == "shfl" else \
                    rng.randint(1, max(1, n - 1)) if op != "shfl_xor" else rng.randint(1, 31)
                if op == "shfl_xor" and k >= n and rng.random() < 0.7:
                    k = k % n or 1
                ptx = {"shfl": "idx", "shfl_up": "up", "shfl_down": "down", "shfl_xor": "xor"}[op]
                if self.shuffle_ok(scs, ptx, lambda l, k=k: k & FULL, n, tile=n):
                    self.emit(f"const {typ} {r} = {t}.{op}({v}, {k});")
                    self.mix(r, typ)
                    self.combine(typ, r)
                    self.features.add(f"tile_{op}")
                    return True
            return False
        if op in ("ballot", "any", "all"):
            pred = rng.choice(["(vu & 1u) != 0u", "lane % 3u == 0u", "(x0 & 1u) != 0u", "vi < 0"])
            self.emit(f"const unsigned {r} = (unsigned){t}.{op}({pred});")
            self.mix(r, "unsigned")
        elif op == "match_any":
            self.emit(f"const unsigned {r} = {t}.match_any(x0 & 3u);")
            self.mix(r, "unsigned")
        elif op == "reduce":
            f = rng.choice(["plus", "less", "greater", "bit_xor"])
            arg = "vu" if f != "bit_xor" else "x0"
            self.emit(f"const unsigned {r} = cg::reduce({t}, {arg}, cg::{f}<unsigned>());")
            self.mix(r, "unsigned")
        elif op == "rank":
            self.emit(f"const unsigned {r} = {t}.thread_rank() * 64u + {t}.meta_group_rank();")
            self.mix(r, "unsigned")
        else:
            self.emit(f"fz_sh[threadIdx.x] = vu;")
            self.emit(f"{t}.sync();")
            self.emit(f"const unsigned {r} = fz_sh[(threadIdx.x & ~{n - 1}u) + "
                      f"(({t}.thread_rank() + 1u) % {n}u)];")
            self.emit(f"{t}.sync();")
            self.mix(r, "unsigned")
        self.features.add(f"tile_{op}")
        return True

    def gen_coalesced(self, scs):
        """At a branch's entry: the group of this branch's lanes."""
        rng = self.rng
        g = self.fresh("g")
        self.emit(f"cg::coalesced_group {g} = cg::coalesced_threads();")
        self.mix(f"{g}.size() * 64u + {g}.thread_rank()", "unsigned")
        for _ in range(rng.randint(1, 3)):
            typ = rng.choice(TYPES)
            v = VAR[typ]
            r = self.fresh("r")
            op = rng.choice(["shfl", "shfl_up", "shfl_down", "ballot", "any", "all"])
            if op == "shfl":
                k = rng.randint(0, 5)
                self.emit(f"const {typ} {r} = {g}.shfl({v}, ({g}.thread_rank() + {k}u) % {g}.size());")
            elif op in ("shfl_up", "shfl_down"):
                self.emit(f"const {typ} {r} = {g}.{op}({v}, {rng.randint(1, 4)}u);")
            else:
                typ = "unsigned"
                self.emit(f"const unsigned {r} = (unsigned){g}.{op}((x0 & 1u) != 0u);")
            self.mix(r, typ)
            if typ == "unsigned" or op.startswith("shfl"):
                self.combine(typ, r)
            self.features.add(f"coalesced_{op}")
        self.features.add("coalesced")

    # ---- structure
    def store_outputs(self):
        self.emit("out[2u * gid] = acc;")
        self.emit("out[2u * gid + 1u] = fz_fold(vu, vi, vf, vd, vl);")

    def branch(self, scs, m, depth):
        rng = self.rng
        tile_aligned = rng.choice(self.tiles) if self.tiles and rng.random() < 0.3 else None
        c = self.random_cond(scs, allow_i=True, tile_aligned=tile_aligned)
        mt = self.fresh("m")
        literal = None
        masks = {sc.key(): c.mask(sc) for sc in scs}
        if len(set(masks.values())) == 1 and rng.random() < 0.3:
            literal = next(iter(masks.values()))
        if literal is not None:
            self.emit(f"const unsigned {mt} = 0x{literal:08x}u;  // exactly the lanes taking it")
        else:
            self.emit(f"const unsigned {mt} = __ballot_sync({m}, {c.text});")
        then_scs = [sc.copy(here=masks[sc.key()]) for sc in scs]
        else_scs = [sc.copy(here=sc.here & ~masks[sc.key()]) for sc in scs]
        self.emit(f"if ({c.text}) {{")
        self.indent += 1
        # __activemask() and coalesced_threads() only where a __ballot_sync just before the if
        # brought the lanes together (after a literal mask, the arms of an earlier if may still
        # be apart on a GPU: seen on an H200).
        if literal is None and rng.random() < 0.15 and not self.divergent_loop:
            self.emit("acc = fz_mix(acc, __activemask());  // data only; the branch's lanes on a GPU")
            self.features.add("activemask")
        if literal is None and rng.random() < 0.15 and not self.divergent_loop:
            self.gen_coalesced(then_scs)
        then_scs = self.region(then_scs, mt, depth + 1)
        self.indent -= 1
        if rng.random() < 0.6:
            me = self.fresh("m")
            self.emit("} else {")
            self.indent += 1
            self.emit(f"const unsigned {me} = {m} & ~{mt};")
            else_scs = self.region(else_scs, me, depth + 1)
            self.indent -= 1
        self.emit("}")
        # After the if: the lanes of both arms that did not return.
        out = []
        for sc, t, e in zip(scs, then_scs, else_scs):
            exited = (sc.live & ~t.live) | (sc.live & ~e.live)
            out.append(sc.copy(here=sc.here & ~exited, live=sc.live & ~exited))
        self.features.add("branch")
        return out

    def early_exit(self, scs):
        c = self.random_cond(scs)
        self.emit(f"if ({c.text}) {{")
        self.indent += 1
        self.store_outputs()
        self.emit("return;")
        self.indent -= 1
        self.emit("}")
        self.exited_somewhere = True
        self.features.add("early_exit")
        out = []
        for sc in scs:
            gone = c.mask(sc)
            out.append(sc.copy(here=sc.here & ~gone, live=sc.live & ~gone))
        return out

    def uniform_loop(self, scs, m, depth):
        """Every lane of the mask runs T iterations; a lane-dependent subset works in each."""
        rng = self.rng
        self.loop_depth += 1
        i = f"i{self.loop_depth}"
        trips = rng.randint(2, 4)
        d = rng.randint(2, 4)
        k = rng.randint(0, 3)
        text = f"(unsigned){i} < (lane + {k}u) % {d}u + 1u"
        fn = lambda l, sc: sc.env[i] < (l + k) % d + 1
        mi = self.fresh("m")
        self.emit(f"for (int {i} = 0; {i} < {trips}; ++{i}) {{")
        self.indent += 1
        self.emit(f"const unsigned {mi} = __ballot_sync({m}, {text});")
        self.emit(f"if ({text}) {{")
        self.indent += 1
        body = []
        for sc in scs:
            for it in range(trips):
                env = dict(sc.env)
                env[i] = it
                s2 = sc.copy(env=env)
                s2.here = sum(1 << l for l in sc.lanes() if fn(l, s2))
                body.append(s2)
        self.region(body, mi, depth + 1, in_loop=True)
        self.indent -= 1
        self.emit("}")
        self.indent -= 1
        self.emit("}")
        self.loop_depth -= 1
        self.features.add("loop_uniform")
        return scs

    def divergent_loop_(self, scs, m, depth):
        """Each lane runs its own trip count; the mask of iteration j names the lanes still in."""
        rng = self.rng
        self.loop_depth += 1
        i = f"i{self.loop_depth}"
        a, b, d = rng.randint(1, 7), rng.randint(0, 7), rng.randint(2, 4)
        trip = lambda l: (l * a + b) % d
        mi = self.fresh("m")
        self.emit(f"for (int {i} = 0; {i} < (int)((lane * {a}u + {b}u) % {d}u); ++{i}) {{")
        self.indent += 1
        self.emit(f"unsigned {mi} = 0u;")
        self.emit(f"for (unsigned l = 0; l < 32u; ++l) {mi} |= ((l * {a}u + {b}u) % {d}u > "
                  f"(unsigned){i} ? 1u : 0u) << l;")
        self.emit(f"{mi} &= {m};")
        body = []
        for sc in scs:
            for it in range(d):
                env = dict(sc.env)
                env[i] = it
                s2 = sc.copy(env=env)
                s2.here = sum(1 << l for l in sc.lanes() if trip(l) > it)
                body.append(s2)
        was = self.divergent_loop
        self.divergent_loop = True
        self.region(body, mi, depth + 1, in_loop=True)
        self.divergent_loop = was
        self.indent -= 1
        self.emit("}")
        self.loop_depth -= 1
        self.features.add("loop_divergent")
        return scs

    def region(self, scs, m, depth, in_loop=False, top=False):
        rng = self.rng
        count = rng.randint(4, 7) if top else rng.randint(1, 3)
        for _ in range(count):
            if all(sc.here == 0 for sc in scs):
                break
            choices = ["shfl"] * 5 + ["vote"] * 2 + ["match"] * 2 + ["reduce"] * 2 + \
                      ["syncwarp"] + ["local"]
            if self.tiles:
                choices += ["tile"] * 3
            if depth < 3:
                choices += ["branch"] * 3
                if self.loop_depth < 2:
                    choices += ["loop", "dloop"]
            if self.loop_depth == 0 and rng.random() < 0.5:
                choices += ["exit"]
            if top and not self.exited_somewhere:
                choices += ["syncthreads"] * 2
            what = rng.choice(choices)
            if what == "shfl":
                self.gen_shuffle(scs, m)
            elif what == "vote":
                self.gen_vote(scs, m)
            elif what == "match":
                self.gen_match(scs, m)
            elif what == "reduce":
                self.gen_reduce(scs, m)
            elif what == "syncwarp":
                self.gen_syncwarp_exchange(scs, m)
            elif what == "syncthreads":
                self.gen_syncthreads_exchange()
            elif what == "tile":
                if not self.gen_tile(scs):
                    self.gen_vote(scs, m)
            elif what == "branch":
                scs = self.branch(scs, m, depth)
            elif what == "loop":
                scs = self.uniform_loop(scs, m, depth)
            elif what == "dloop":
                scs = self.divergent_loop_(scs, m, depth)
            elif what == "exit":
                scs = self.early_exit(scs)
            else:
                k = rng.randint(1, 9)
                self.emit(f"for (unsigned l = 0; l < lane % {k + 1}u; ++l) vu = vu * 3u + l;")
                self.emit(f"vf = vf + (float)(int)(vu & 15u) * 0.25f;")
        return scs

    def generate(self):
        self.emit("const unsigned lane = threadIdx.x & 31u;")
        self.emit("const unsigned warp = threadIdx.x >> 5;")
        self.emit("const unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;")
        self.emit(f"const unsigned* w = in + {WORDS_IN}u * gid;")
        if self.x0_range < (1 << 32):
            self.emit(f"const unsigned x0 = w[0] % {self.x0_range}u;")
        else:
            self.emit("const unsigned x0 = w[0];")
        self.emit("unsigned vu = w[1];")
        self.emit("int vi = (int)w[2];")
        self.emit("float vf = (float)((int)(w[3] & 0xffffu) - 32768) * 0.015625f;")
        self.emit("double vd = (double)(int)w[4] * (1.0 / 1048576.0);")
        self.emit("long long vl = (long long)(((unsigned long long)w[2] << 32) | w[1]);")
        self.emit("unsigned acc = fz_mix(0x811c9dc5u, gid);")
        for n in self.tiles:
            self.emit(f"cg::thread_block_tile<{n}> t{n} = "
                      f"cg::tiled_partition<{n}>(cg::this_thread_block());")
        if self.absent_lanes:
            self.emit("const unsigned m0 = 0xffffffffu;  // names the absent lanes of a partial warp")
        else:
            self.emit("const unsigned m0 = fz_warp_lanes();")
        self.region(self.initial_scenarios(), "m0", 0, top=True)
        self.store_outputs()
        body = "\n".join(self.lines)
        return (f'extern "C" __global__ void {self.name}(const unsigned* in, unsigned* out) {{\n'
                f"{body}\n}}\n")


PRELUDE = r"""// Generated by scripts/fuzz/gen_warp_fuzz.py (seed %(seed)d, file %(file)d): do not edit.
// Every kernel is well defined under the CUDA model (see the generator's header); the host main
// runs every kernel and writes its outputs, so the GPU (nvcc) and warpsim give comparable files.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace cg = cooperative_groups;

__device__ __forceinline__ unsigned fz_mix(unsigned a, unsigned b) {
  return (a ^ b) * 0x01000193u + 0x9e3779b9u;
}
__device__ __forceinline__ unsigned fz_mix64(unsigned a, long long v) {
  return fz_mix(fz_mix(a, (unsigned)v), (unsigned)((unsigned long long)v >> 32));
}
__device__ __forceinline__ unsigned fz_mix64(unsigned a, double v) {
  return fz_mix64(a, __double_as_longlong(v));
}
__device__ __forceinline__ unsigned fz_fold(unsigned u, int i, float f, double d, long long l) {
  unsigned h = fz_mix(u, (unsigned)i);
  h = fz_mix(h, __float_as_uint(f));
  h = fz_mix64(h, d);
  return fz_mix64(h, l);
}
// The lanes of this thread's warp that exist (a partial last warp has fewer than 32).
__device__ __forceinline__ unsigned fz_warp_lanes() {
  const unsigned n = blockDim.x - (threadIdx.x & ~31u);
  return n >= 32u ? 0xffffffffu : (1u << n) - 1u;
}
// The lanes of `lane`'s shuffle segment of `width` lanes.
__device__ __forceinline__ unsigned fz_segment(unsigned lane, unsigned width) {
  return width >= 32u ? 0xffffffffu : ((1u << width) - 1u) << (lane & ~(width - 1u));
}
// The next lane of `members` above `lane`, cyclically (`members` holds `lane`).
__device__ __forceinline__ unsigned fz_next_member(unsigned members, unsigned lane) {
  const unsigned above = lane == 31u ? 0u : members & ~((2u << lane) - 1u);
  return above != 0u ? __ffs(above) - 1u : __ffs(members) - 1u;
}

__shared__ unsigned fz_sh[%(max_block)d];
__shared__ unsigned fz_bar[%(max_block)d];
"""

HOST = r"""
// ---- host: run every kernel, write its outputs
static unsigned fz_hash(unsigned x) {
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  x *= 0x846ca68bu;
  x ^= x >> 16;
  return x;
}

struct FzKernel {
  const char* name;
  void (*kernel)(const unsigned*, unsigned*);
  unsigned grid, block, seed;
};

static const FzKernel fz_kernels[] = {
%(table)s
};

int main(int argc, char** argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %%s OUTPUT [FIRST_KERNEL]\n", argv[0]);
    return 2;
  }
  const int first = argc > 2 ? atoi(argv[2]) : 0;
  FILE* out = fopen(argv[1], first > 0 ? "a" : "w");
  if (out == NULL) {
    fprintf(stderr, "cannot write %%s\n", argv[1]);
    return 2;
  }
  const int count = (int)(sizeof fz_kernels / sizeof fz_kernels[0]);
  for (int k = first; k < count; ++k) {
    const FzKernel& K = fz_kernels[k];
    fprintf(out, "begin %%s\n", K.name);
    fflush(out);
    const unsigned threads = K.grid * K.block;
    unsigned* host_in = (unsigned*)malloc(sizeof(unsigned) * %(words_in)du * threads);
    unsigned* host_out = (unsigned*)malloc(sizeof(unsigned) * %(words_out)du * threads);
    for (unsigned i = 0; i < %(words_in)du * threads; ++i) {
      host_in[i] = fz_hash(K.seed * 0x9e3779b9u + i * 0x85ebca6bu + 1u);
    }
    unsigned *dev_in = NULL, *dev_out = NULL;
    cudaError_t err = cudaMalloc((void**)&dev_in, sizeof(unsigned) * %(words_in)du * threads);
    if (err == cudaSuccess) err = cudaMalloc((void**)&dev_out, sizeof(unsigned) * %(words_out)du * threads);
    if (err == cudaSuccess)
      err = cudaMemcpy(dev_in, host_in, sizeof(unsigned) * %(words_in)du * threads, cudaMemcpyHostToDevice);
    if (err == cudaSuccess) err = cudaMemset(dev_out, 0xa5, sizeof(unsigned) * %(words_out)du * threads);
    if (err == cudaSuccess) {
      void (*kernel)(const unsigned*, unsigned*) = K.kernel;
      kernel<<<K.grid, K.block>>>(dev_in, dev_out);
      err = cudaGetLastError();
    }
    if (err == cudaSuccess) err = cudaDeviceSynchronize();
    if (err == cudaSuccess)
      err = cudaMemcpy(host_out, dev_out, sizeof(unsigned) * %(words_out)du * threads, cudaMemcpyDeviceToHost);
    fprintf(out, "status %%s\n", cudaGetErrorName(err));
    if (err != cudaSuccess) {
      // A trap leaves the context unusable: stop; the recorder restarts at the next kernel.
      fprintf(out, "end %%s\n", K.name);
      fclose(out);
      return 3;
    }
    fprintf(out, "words %%u\n", %(words_out)du * threads);
    for (unsigned i = 0; i < %(words_out)du * threads; ++i) {
      fprintf(out, "%%08x%%c", host_out[i], (i %% 8u == 7u || i + 1u == %(words_out)du * threads) ? '\n' : ' ');
    }
    fprintf(out, "end %%s\n", K.name);
    fflush(out);
    cudaFree(dev_in);
    cudaFree(dev_out);
    free(host_in);
    free(host_out);
  }
  fclose(out);
  return 0;
}
"""


def generate_file(seed, index, kernels):
    rng = random.Random(f"warpsim-fuzz/{seed}/{index}")
    parts = [PRELUDE % {"seed": seed, "file": index, "max_block": MAX_BLOCK}]
    entries, table = [], []
    for k in range(kernels):
        name = f"fz{index:02d}_k{k:02d}"
        kseed = rng.randrange(1, 1 << 31)
        gen = KernelGen(rng, name, kseed)
        parts.append(gen.generate())
        table.append(f'  {{"{name}", {name}, {gen.grid}u, {gen.block}u, {kseed}u}},')
        entries.append({"kernel": name, "grid": gen.grid, "block": gen.block, "seed": kseed,
                        "features": sorted(gen.features)})
    parts.append(HOST % {"table": "\n".join(table), "words_in": WORDS_IN, "words_out": WORDS_OUT})
    return "\n".join(parts), entries


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--files", type=int, default=40)
    ap.add_argument("--kernels", type=int, default=50)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--first", type=int, default=0, help="index of the first file")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    manifest = {"generator": "scripts/fuzz/gen_warp_fuzz.py", "seed": args.seed,
                "words_in_per_thread": WORDS_IN, "words_out_per_thread": WORDS_OUT,
                "files": []}
    for i in range(args.first, args.first + args.files):
        text, entries = generate_file(args.seed, i, args.kernels)
        name = f"fuzz_{i:02d}.cu"
        with open(os.path.join(args.out, name), "w") as f:
            f.write(text)
        manifest["files"].append({"file": name, "kernels": entries})
    with open(os.path.join(args.out, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
