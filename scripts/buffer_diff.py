#!/usr/bin/env python3
"""Element by element: where the simulator's launch buffers and a GPU's differ.

    python3 scripts/buffer_diff.py DIR [--abs-at-least X] [--max-lines N]

DIR is the folder `warpsim exec --gpu --buffers DIR` (or `--compare-buffers ... --buffers DIR`)
wrote: DIR/simulator and DIR/gpu, each a buffers.tsv and one .bin per kept buffer (format:
sim/program/include/warpsim/launch_buffers.hpp). For each buffer whose bytes differ, one line:
the launch, kernel and argument, how many elements differ, and for f32/f64 buffers the distances
in ULPs as a histogram (16 and more counted together). With --abs-at-least X, also how many of
the differing elements have |simulator's value| >= X, against all such elements: whether the
differences lie in one range of values (a branch that only those values take).

exec itself says which buffers differ and the largest distance; this says how the differences are
spread, which is what finding out why needs. Exit 0 when it read both folders (whatever differs),
2 on a missing or malformed folder.
"""
from __future__ import annotations

import argparse
import array
import sys
from dataclasses import dataclass
from pathlib import Path

FLOAT_TYPES = {"f32": ("I", "f", 32), "f64": ("Q", "d", 64)}


@dataclass
class Buffer:
    kernel: str
    type: str
    hash: str
    data: str  # file name in the folder, or "-" (hashed only)


def fail(message: str) -> None:
    print(f"buffer_diff.py: {message}", file=sys.stderr)
    sys.exit(2)


def read_index(folder: Path) -> dict[tuple[int, int], Buffer]:
    index = folder / "buffers.tsv"
    try:
        lines = index.read_text().splitlines()
    except OSError as error:
        fail(f"cannot read {index}: {error.strerror}")
    kernels: dict[int, str] = {}
    buffers: dict[tuple[int, int], Buffer] = {}
    for number, line in enumerate(lines, 1):
        fields = line.split("\t")
        try:
            if fields[0] in ("L", "G", "A"):
                kernels[int(fields[1])] = fields[3]
            elif fields[0] == "B":
                launch, arg = int(fields[1]), int(fields[2])
                buffers[(launch, arg)] = Buffer(kernels.get(launch, "?"), fields[3], fields[7],
                                                fields[8])
            else:
                raise ValueError(fields[0])
        except (IndexError, ValueError):
            fail(f"{index}:{number}: not a buffers.tsv line: {line!r}")
    return buffers


def ordered_key(bits: int, width: int) -> int:
    """The float's place on one integer line (negative floats below positive ones)."""
    sign = 1 << (width - 1)
    return bits if bits < sign else sign - bits


def compare(sim: Path, gpu: Path, type_name: str, abs_at_least: float | None) -> str:
    a, b = sim.read_bytes(), gpu.read_bytes()
    if len(a) != len(b):
        return f"sizes differ ({len(a)} and {len(b)} bytes)"
    if type_name not in FLOAT_TYPES:
        return f"{sum(1 for x, y in zip(a, b) if x != y)} of {len(a)} bytes differ"
    bits_code, value_code, width = FLOAT_TYPES[type_name]
    bits_a, bits_b = array.array(bits_code, a), array.array(bits_code, b)
    values = array.array(value_code, a)
    differing = [i for i in range(len(bits_a)) if bits_a[i] != bits_b[i]]
    histogram: dict[int, int] = {}
    for i in differing:
        ulps = min(abs(ordered_key(bits_a[i], width) - ordered_key(bits_b[i], width)), 16)
        histogram[ulps] = histogram.get(ulps, 0) + 1
    spread = ", ".join(f"{'16+' if u == 16 else u}: {n}" for u, n in sorted(histogram.items()))
    text = f"{len(differing)} of {len(bits_a)} elements differ (ULPs {spread})"
    if abs_at_least is not None:
        inside = sum(1 for i in differing if abs(values[i]) >= abs_at_least)
        total = sum(1 for v in values if abs(v) >= abs_at_least)
        text += (f"; |value| >= {abs_at_least:g}: {inside} of the differing, {total} of all "
                 "elements")
    return text


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dir", type=Path, help="the folder exec --buffers wrote")
    parser.add_argument("--abs-at-least", type=float, help="count differing elements this large")
    parser.add_argument("--max-lines", type=int, default=0, help="stop after N buffers (0: all)")
    args = parser.parse_args()
    sim_dir, gpu_dir = args.dir / "simulator", args.dir / "gpu"
    sim, gpu = read_index(sim_dir), read_index(gpu_dir)
    shown = same = 0
    for key in sorted(sim.keys() & gpu.keys()):
        s, g = sim[key], gpu[key]
        if s.hash == g.hash:
            same += 1
            continue
        if args.max_lines and shown == args.max_lines:
            continue
        shown += 1
        where = f"launch {key[0]} ({s.kernel}), argument {key[1]} ({s.type})"
        if s.data == "-" or g.data == "-":
            print(f"{where}: differs; not kept (past exec's budget), so not compared by element")
            continue
        print(f"{where}: {compare(sim_dir / s.data, gpu_dir / g.data, s.type, args.abs_at_least)}")
    differ = len(sim.keys() & gpu.keys()) - same
    print(f"{same} buffers identical, {differ} differ"
          + (f" ({differ - shown} not shown)" if differ > shown else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
