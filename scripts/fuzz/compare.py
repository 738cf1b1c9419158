#!/usr/bin/env python3
"""Compares two fuzz recordings (GPU vs simulator, .txt or .txt.gz as the programs write them).

  compare.py GPU_RECORDING SIM_RECORDING [--words-per-thread 2]

Prints one line per kernel that differs (status, or the threads whose words differ: first few
with expected and got) and a summary line; exits 1 when anything differs.
"""
import argparse
import gzip
import sys


def read_recording(path):
    opener = gzip.open if path.endswith(".gz") else open
    kernels, order, current = {}, [], None
    with opener(path, "rt") as f:
        for line in f:
            parts = line.split()
            if not parts:
                continue
            if parts[0] == "begin":
                current = {"status": None, "words": []}
                kernels[parts[1]] = current
                order.append(parts[1])
            elif parts[0] == "status":
                current["status"] = parts[1]
            elif parts[0] == "words":
                pass
            elif parts[0] == "end":
                current = None
            elif current is not None:
                current["words"].extend(int(w, 16) for w in parts)
    return order, kernels


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("gpu")
    ap.add_argument("sim")
    ap.add_argument("--words-per-thread", type=int, default=2)
    args = ap.parse_args()
    order, gpu = read_recording(args.gpu)
    _, sim = read_recording(args.sim)
    differing = compared = 0
    for name in order:
        g, s = gpu[name], sim.get(name)
        if s is None or s["status"] != g["status"]:
            print(f"{name}: status gpu {g['status']} sim {s and s['status']}")
            differing += 1
            continue
        wpt = args.words_per_thread
        bad = sorted({i // wpt for i, (a, b) in enumerate(zip(g["words"], s["words"])) if a != b})
        compared += len(g["words"]) // wpt
        if bad or len(g["words"]) != len(s["words"]):
            differing += 1
            shown = ", ".join(f"thread {t}: {g['words'][t * wpt:(t + 1) * wpt]} vs "
                              f"{s['words'][t * wpt:(t + 1) * wpt]}" for t in bad[:3])
            print(f"{name}: {len(bad)} threads differ; {shown}")
    print(f"{len(order)} kernels, {compared} thread results compared, {differing} kernels differ")
    return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(main())
