#!/usr/bin/env python3
"""Writes the corpus's input files: raw little-endian arrays for `--arg TYPE[N]:file:PATH`.

Deterministic (one seeded generator per file), so running it again reproduces the committed
files byte for byte. Usage: python3 make_data.py [OUTPUT_DIR]  (default: this script's folder)
"""
import os
import random
import struct
import sys

FORMATS = {"i32": "<i", "u32": "<I", "f32": "<f", "i64": "<q", "u64": "<Q", "f64": "<d"}


def f32(x):
    """x rounded to the nearest float32 (as a Python float)."""
    return struct.unpack("<f", struct.pack("<f", x))[0]


def files():
    """name -> (type, values). Each generator gets its own seed so files stay independent."""
    out = {}

    def rng(name):
        return random.Random(name)  # seeded by the file name

    def uniform_f32(name, n, lo, hi):
        r = rng(name)
        return [f32(r.uniform(lo, hi)) for _ in range(n)]

    def ints(name, n, lo, hi):
        r = rng(name)
        return [r.randint(lo, hi) for _ in range(n)]

    out["01_in"] = ("f32", uniform_f32("01_in", 128, -8.0, 8.0))
    out["02_x"] = ("f32", uniform_f32("02_x", 64, -8.0, 8.0))
    out["02_k"] = ("i32", ints("02_k", 64, -1000, 1000))
    out["03_in"] = ("i32", ints("03_in", 1000, -1000, 1000))
    out["04_in"] = ("u32", ints("04_in", 1000, 0, 0xFFFFFFFF))
    out["05_in"] = ("f32", uniform_f32("05_in", 64, -4.0, 4.0))
    out["06_in"] = ("i32", ints("06_in", 512, -50, 50))
    out["07_in"] = ("i32", ints("07_in", 128, -100, 100))
    r = rng("08_keys")  # few distinct keys, so many lanes share a bin
    out["08_keys"] = ("i32", [r.choice([0, 1, 3, 7, 16, 17, 19, 30, 45]) for _ in range(200)])
    out["09_in"] = ("i32", ints("09_in", 128, -60, 60))
    out["10_values"] = ("f32", uniform_f32("10_values", 64, -4.0, 4.0))
    r = rng("10_flags")
    out["10_flags"] = ("i32", [1 if r.random() < 0.2 else 0 for _ in range(64)])
    out["11_x"] = ("f32", uniform_f32("11_x", 400, -6.0, 6.0))
    out["12_in"] = ("i32", ints("12_in", 64, -1000000, 1000000))
    out["12_x"] = ("f32", uniform_f32("12_x", 256, -100.0, 100.0))
    out["13_in"] = ("i32", ints("13_in", 64, -1000, 1000))
    out["13_x"] = ("f32", uniform_f32("13_x", 64, -4.0, 4.0))
    # Edge values so that sums wrap and signed and unsigned min/max differ.
    edge = [2147483647, -2147483648, -1, 0, 1, 1 << 30, -(1 << 30), 123456789]
    out["14_in"] = ("i32", edge + ints("14_in", 56, -(1 << 30), 1 << 30))
    out["15_in"] = ("f32", uniform_f32("15_in", 300, -8.0, 8.0))
    r = rng("16_x")
    out["16_x"] = ("f64", [r.uniform(-1e3, 1e3) for _ in range(64)])
    r = rng("16_k")  # high words differ, so both 32-bit halves of a shuffle matter
    out["16_k"] = ("i64", [r.randint(-(1 << 62), 1 << 62) for _ in range(64)])
    out["18_start"] = ("u32", ints("18_start", 64, 1, 100))
    r = rng("19_ab")  # multiples of 1/64: products and sums stay exact in half precision
    out["19_a"] = ("f32", [r.randint(-128, 128) / 64.0 for _ in range(64)])
    out["19_b"] = ("f32", [r.randint(-128, 128) / 64.0 for _ in range(64)])
    out["20_in"] = ("i32", ints("20_in", 64, -100, 100))
    out["21_in"] = ("i32", ints("21_in", 32, 1, 100))
    out["22_row"] = ("i32", ints("22_row", 40, 1, 9))
    out["24_in"] = ("i32", ints("24_in", 300, -1000, 1000))
    out["25_in"] = ("i32", ints("25_in", 32, 1, 100))
    return out


def main():
    out_dir = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    for name, (kind, values) in sorted(files().items()):
        with open(os.path.join(out_dir, name + ".bin"), "wb") as f:
            for v in values:
                f.write(struct.pack(FORMATS[kind], v))


if __name__ == "__main__":
    main()
