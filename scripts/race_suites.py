#!/usr/bin/env python3
"""Runs public GPU race suites under warpsim's checks and writes a table.

    scripts/race_suites.py gpuverify /work/suites/gpuverify  --out docs/checks/gpuverify
    scripts/race_suites.py dracc     /work/suites/DRACC      --out docs/checks/dracc

The suites stay outside the repository; this script reads a checkout given by path.
gpuverify: each kernel of testsuite/CUDA carries its verdict on line 1 (//pass, //xfail:...) and
its launch on line 2 (--blockDim=X --gridDim=Y); the comment lines after say what fails ("possible
write-write race", "null pointer access"). Each kernel runs under `warpsim run --check all` with
one buffer per pointer parameter and small scalars; GPUVerify's annotations (__requires,
__assert, ...) are defined away by a wrapper file that includes the kernel. Its warpsync/ kernels
were labelled assuming lanes of a warp run in lockstep (--warp-sync); they are relabelled here
from the CUDA model (Volta and later: nothing orders lanes of a warp without __syncwarp).
dracc: each CUDA program (CUDA/src/*.cu) ends in _yes (has an error) or _no, and runs under
`warpsim exec --check all`.
oclgrind: Oclgrind's data-race and uninitialized test patterns, written for CUDA in this repository
(tests/races/oclgrind/; give that folder): each file says its label (from the CUDA model: race,
no_race, uninit_shared, uninit_private, uninit_global) and its launch on its first lines.
Found: warpsim exits 122 (a memory finding); a kernel warpsim cannot run gets its reason.
"""
import argparse
import json
import random
import os
import re
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from compat import git_commit  # beside this script: a checkout's commit, "unknown" for a snapshot

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WARPSIM = os.environ.get("WARPSIM", os.path.join(ROOT, "build/release/cli/warpsim"))

# From the CUDA model, not from the file: (label, why).
WARPSYNC_RELABEL = {
    "warpsync/2d": ("race", "tile[x][y] = tile[y][x] among the 16 lanes of one warp, no __syncwarp"),
    "warpsync/intragroup_scan": ("race", "lanes read A[tid - k] that other lanes write, no __syncwarp"),
    "warpsync/scan_warp": ("race", "lanes read A[tid - k] that other lanes write, no __syncwarp"),
    "warpsync/shuffle": ("race", "A[tid] = B[(tid + 1) % 32]: the neighbour writes what a lane reads"),
    "warpsync/broken_shuffle": ("race", "A[tid] = B[(tid + 1) % 32] across 1024 threads: the neighbour writes what a lane reads"),
    "warpsync/equality_abstraction_issue": ("race", "every thread writes A[0..2], thread 0..2 write 0 there too"),
    "warpsync/refined_equality_abstraction": ("no_race", "each thread its own elements"),
}

TYPES = {
    "int": "i32", "signed": "i32", "unsigned": "u32", "uint": "u32", "float": "f32",
    "double": "f64", "char": "i8", "short": "i16", "long": "i64", "bool": "b8",
    "size_t": "u64", "uint32_t": "u32", "int32_t": "i32", "uint64_t": "u64", "int64_t": "i64",
    "float4": None, "float2": None, "int4": None, "int2": None, "uint4": None,
}

PRELUDE = """// warpsim race_suites.py: GPUVerify's annotations defined away
#define __requires(...)
#define __ensures(...)
#define __assert(...)
#define __assume(...)
#define __invariant(...) ((void)0)
#define __global_invariant(...) ((void)0)
#define __function_wide_invariant(...) ((void)0)
#define __global_requires(...)
#define __read_implies(p, x) 1
#define __write_implies(p, x) 1
#define __no_read(p) 1
#define __no_write(p) 1
#define __read(p) 0
#define __write(p) 0
#define __implies(a, b) (!(a) || (b))
#define __enabled() 1
#define __same_group 1
#define __other_int(x) (x)
#define __other_unsigned(x) (x)
#define __uniform_int(x) 1
#define __uniform_bool(x) 1
#define __distinct_int(x) 1
#define __all(x) (x)
#define __exclusive(x) 1
#define __return_val_int() 0
#define __return_val_bool() 0
#define __add_noovfl_int(a, b) 1
#define __add_noovfl_unsigned(a, b) 1
#define __ptr_base(p) (p)
#define __ptr_offset(p) 0
#define __array_snapshot(...)
#define __barrier_invariant(x, ...)
#define __barrier_invariant_binary(x, ...)
#define __is_pow2(x) 1
#define __mod_pow2(x, y) ((x) % (y))
#define __read_offset(p) 0
#define __write_offset(p) 0
#define __isPow2(x) 1
#define __requires_fresh_array(...) ((void)0)
#define __axiom(...)
// GPUVerify's cuda.h brings in cooperative groups and cuRAND's device API, and spells a group's
// barrier synchronize(g); the toolkit's cuda.h (and warpsim's) does neither.
#include <cooperative_groups.h>
#include <curand_kernel.h>
namespace cooperative_groups {
template <class Group> __device__ void synchronize(Group& group) { group.sync(); }
}
#include "{kernel}"
"""

# A host program around the kernel, for parameters `warpsim run --arg` cannot spell (structs by
# value, pointers to structs, function pointers): each pointer gets COUNT zeroed elements of
# what it points to, each number 1 (as --arg gives it), any other value zeros, and the kernel is
# launched once.
EXEC_MAIN = """
#include <cstdio>
int main() {
{setup}  {kernel}<<<dim3({grid}), dim3({block})>>>({args});
  cudaError_t error = cudaGetLastError();
  if (error == cudaSuccess) error = cudaDeviceSynchronize();
  if (error != cudaSuccess) std::fprintf(stderr, "the launch failed: %s\\n", cudaGetErrorString(error));
  return error == cudaSuccess ? 0 : 2;
}
"""


def exec_wrapper_main(name, params, grid, block, count):
    """EXEC_MAIN filled for `name`'s parameters, or None when one has no type and name."""
    setup, args = "", []
    for i, param in enumerate(params):
        p = re.sub(r"\b(__restrict__|restrict|__restrict)\b", " ", param)
        m = re.match(r"^(.*?)([A-Za-z_]\w*)\s*(\[\s*\d*\s*\])?$", p.strip())
        if not m or not m.group(1).strip():
            return None
        kind = m.group(1).strip() + (" *" if m.group(3) else "")
        var = "warpsim_arg%d" % i
        if kind.endswith("*"):
            pointee = kind[:-1].strip()
            element = "char" if re.sub(r"\b(const|volatile)\b", "", pointee).strip() == "void" else pointee
            setup += ("  %s* %s = nullptr;\n  cudaMalloc((void**)&%s, %d * sizeof(%s));\n"
                      "  cudaMemset((void*)%s, 0, %d * sizeof(%s));\n"
                      % (element, var, var, count, element, var, count, element))
            args.append("(%s)%s" % (kind, var))
        else:
            # A number gets 1, as `run --arg` gives it (arg_spec); anything else zeros.
            scalar = arg_spec(param, count)[0] is not None
            setup += "  %s %s{%s};\n" % (re.sub(r"\bconst\b", "", kind).strip(), var,
                                          "1" if scalar else "")
            args.append(var)
    return (EXEC_MAIN.replace("{setup}", setup).replace("{kernel}", name)
            .replace("{grid}", grid).replace("{block}", block).replace("{args}", ", ".join(args)))


def dims(text):
    text = text.strip("[]")
    return ",".join(p.strip() for p in text.split(",") if p.strip())


def threads(d):
    n = 1
    for p in d.split(","):
        n *= int(p)
    return n


def gpuverify_label(lines, rel):
    first = lines[0].strip().lower()
    if rel in WARPSYNC_RELABEL:
        label, why = WARPSYNC_RELABEL[rel]
        return label, "relabelled for Volta+: " + why
    comments = []
    for line in lines[1:8]:
        if line.startswith("//"):
            comments.append(line.lower())
        elif line.strip():
            break
    text = " ".join(comments)
    if first.startswith("//pass"):
        return "no_race", "pass"
    if "bugle_error" in first or "clang_error" in first:
        return "frontend_error", first[2:]
    if "race" in text or "write by thread" in text or "read by thread" in text:
        return "race", first[2:]
    return "other_error", (comments[1][2:].strip() if len(comments) > 1 else first[2:])


def parameters(source):
    m = re.search(r"__global__\s+(?:static\s+)?void\s+(\w+)\s*\(([^)]*)\)", source)
    if not m:
        return None, None
    params = [p.strip() for p in m.group(2).split(",") if p.strip() and p.strip() != "void"]
    return m.group(1), params


def arg_spec(param, count):
    p = re.sub(r"\b(const|volatile|__restrict__|restrict|__restrict)\b", " ", param)
    p = re.sub(r"\s+", " ", p).strip()
    pointer = "*" in p
    words = p.replace("*", " ").split()
    if len(words) < 2:
        return None, "parameter '%s'" % param
    base = words[:-1]
    key = base[-1]
    if key == "int" and "unsigned" in base:
        key = "unsigned"
    if key == "long" and "unsigned" in base:
        key = "uint64_t"
    kind = TYPES.get(key)
    if kind is None or p.count("*") > 1:
        return None, "parameter '%s' (no --arg spelling for it)" % param
    if pointer:
        return "%s[%d]:zeros" % (kind, count), None
    value = "1" if kind not in ("f32", "f64") else "1.0"
    return "%s:%s" % (kind, value), None


def run(cmd, timeout):
    start = time.time()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        return p.returncode, p.stdout, p.stderr, time.time() - start
    except subprocess.TimeoutExpired:
        return None, "", "timed out", time.time() - start


def outcome_of(code, out, err):
    if code == 122:
        return "found", ""
    if code == 0:
        return "nothing", ""
    text = (err.strip().splitlines() or out.strip().splitlines() or ["exit %s" % code])[-1]
    if code is None:
        return "not_run", "time limit"
    if code == 1 and "out_of_bounds" in (out + err):
        return "found_bounds", text[:200]
    return "not_run", ("exit %s: " % code) + text[:200]


def gpuverify_case(root, path, scratch, timeout):
    rel = os.path.relpath(os.path.dirname(path), os.path.join(root, "testsuite/CUDA"))
    source = open(path, errors="replace").read()
    lines = source.splitlines() or [""]
    label, note = gpuverify_label(lines, rel)
    row = {"kernel": rel, "label": label, "note": note}
    flags = lines[1] if len(lines) > 1 else ""
    block = re.search(r"--blockDim=(\[[^\]]*\]|\d+)", flags)
    grid = re.search(r"--gridDim=(\[[^\]]*\]|\d+)", flags)
    name, params = parameters(source)
    if label == "frontend_error":
        row.update(outcome="not_run", reason="GPUVerify's own front end refuses it (%s)" % note)
        return row
    if not block or not grid or name is None:
        row.update(outcome="not_run", reason="no launch shape or no __global__ kernel in the header/file")
        return row
    b, g = dims(block.group(1)), dims(grid.group(1))
    count = max(4096, 4 * threads(b) * threads(g))
    args, unspelled = [], None
    for p in params:
        spec, why = arg_spec(p, count)
        if spec is None:
            unspelled = why
            break
        args += ["--arg", spec]
    wrapper = os.path.join(scratch, rel.replace("/", "__") + ".cu")
    include = ["-I", os.path.dirname(os.path.abspath(path))]
    text = PRELUDE.replace("{kernel}", os.path.abspath(path))
    if unspelled is None:
        cmd = [WARPSIM, "run", wrapper, "--kernel", name, "--grid", g, "--block", b, "--check",
               "all", "--timeout", str(timeout)] + include + args
        command = "warpsim run KERNEL --kernel %s --grid %s --block %s --check all %s" % (
            name, g, b, " ".join(args))
    else:
        # A parameter --arg cannot spell: a host program launches the kernel under exec.
        main = exec_wrapper_main(name, params, g, b, count)
        if main is None:
            row.update(outcome="not_run", reason="cannot pass " + unspelled)
            return row
        text += main
        cmd = [WARPSIM, "exec", wrapper, "--check", "all", "--time-limit", str(timeout)] + include
        command = "warpsim exec WRAPPER --check all (a generated main: %s zeroed)" % unspelled
    with open(wrapper, "w") as f:
        f.write(text)
    code, out, err, seconds = run(cmd, timeout + 60)
    outcome, reason = outcome_of(code, out, err)
    if outcome == "not_run" and "did not compile" in err:
        first = next((l for l in err.splitlines() if "error" in l), "compile error")
        reason = "compile error: " + first.split("error:")[-1].strip()[:160]
    elif outcome == "not_run" and "the launch failed: " in err:
        reason = next(l for l in err.splitlines() if "the launch failed: " in l)[:200]
    found = "data_race" in (out if unspelled is None else err)
    row.update(outcome=outcome, reason=reason, races=found, seconds=round(seconds, 1),
               command=command)
    return row


def dracc_case(root, path, scratch, timeout):
    base = os.path.basename(path)[:-3]
    label = "race" if base.endswith("_yes") else "no_race" if base.endswith("_no") else "other_error"
    klass = re.sub(r"^DRACC_CUDA_\d+_", "", base)[: -len("_yes") if base.endswith("_yes") else -len("_no")]
    desc = open(path, errors="replace").read().split("*/")[0].strip("/* \n").replace("\n", " ")
    row = {"kernel": base, "label": label, "note": desc[:160], "class": klass}
    code, out, err, seconds = run([WARPSIM, "exec", path, "--check", "all", "--time-limit", str(timeout)],
                                  timeout + 120)
    outcome, reason = outcome_of(code, out, err)
    if code == 124 and "in host code, before any launch" in err:
        reason = "time limit (%ds) passed in host code before any launch" % timeout
    elif code == 123 and "out_of_bounds" in err:
        outcome, reason = "found_bounds", ""
    elif code == 123:
        stop = [l for l in err.splitlines() if l.startswith("warpsim exec: warpsim stopped")]
        reason = (stop or ["exit 123"])[-1][:200]
    row.update(outcome=outcome, reason=reason, races="data_race" in err, seconds=round(seconds, 1))
    return row


def oclgrind_case(root, path, scratch, timeout):
    name = os.path.basename(path)[:-3]
    head = open(path).read().splitlines()[:6]
    label_line = next((l for l in head if l.startswith("// label: ")), "// label: ?: ")
    launch = next((l for l in head if l.startswith("// launch: ")), "// launch: ")[len("// launch: "):]
    label, _, note = label_line[len("// label: "):].partition(": ")
    row = {"kernel": name, "label": label, "note": note}
    # "launch: exec": a whole program (its host code leaves a buffer unwritten), run by exec.
    if launch.strip() == "exec":
        cmd = [WARPSIM, "exec", path, "--check", "all", "--time-limit", str(timeout)]
        shown = "warpsim exec %s --check all" % os.path.relpath(path, ROOT)
    else:
        cmd = [WARPSIM, "run", path, "--check", "all", "--timeout", str(timeout)] + launch.split()
        shown = "warpsim run %s --check all %s" % (os.path.relpath(path, ROOT), launch)
    code, out, err, seconds = run(cmd, timeout + 60)
    outcome, reason = outcome_of(code, out, err)
    text = out + err
    row.update(outcome=outcome, reason=reason, races="data_race" in text,
               uninit=any(kind in text for kind in ("uninitialized_shared_read",
                                                     "uninitialized_global_read",
                                                     "uninitialized_local_stored")),
               seconds=round(seconds, 1), command=shown)
    return row


def summarise(rows, suite):
    """GPUVerify: found = a data_race diagnostic (its buffers are sized here, so a bounds stop says
    nothing about the kernel). DRACC: found = any memory finding (its errors are races, and
    accesses outside allocations)."""
    s = {"kernels": len(rows), "not_run": 0, "tp": 0, "fn": 0, "fp": 0, "tn": 0, "other_error": 0}
    for r in rows:
        if r["outcome"] == "not_run" and not r.get("races"):
            s["not_run"] += 1
            continue
        found = r["races"] or (suite != "gpuverify" and r["outcome"] in ("found", "found_bounds"))
        if r["label"].startswith("uninit"):
            # Oclgrind's uninitialised-value patterns: found when the uninit check names the read.
            s.setdefault("uninit_found", 0)
            s.setdefault("uninit_missed", 0)
            s["uninit_found" if r.get("uninit") else "uninit_missed"] += 1
            if r["races"]:
                s["fp"] += 1
            continue
        if r["label"] == "race":
            s["tp" if found else "fn"] += 1
        elif r["label"] == "no_race":
            s["fp" if found else "tn"] += 1
        else:
            s["other_error"] += 1
    s["precision"] = round(s["tp"] / (s["tp"] + s["fp"]), 3) if s["tp"] + s["fp"] else None
    s["recall"] = round(s["tp"] / (s["tp"] + s["fn"]), 3) if s["tp"] + s["fn"] else None
    return s


def write_table(suite, commit, rows, summary, out):
    with open(out + ".json", "w") as f:
        json.dump({"suite": suite, "commit": commit, "summary": summary, "kernels": rows}, f, indent=1)
    with open(out + ".md", "w") as f:
        f.write("# %s under warpsim --check all\n\n" % suite)
        mode = "gpuverify" if "GPUVerify" in suite else "oclgrind" if "Oclgrind" in suite else "dracc"
        f.write("Written by `scripts/race_suites.py %s PATH --out %s` from a checkout at %s.\n\n" %
                (mode, os.path.relpath(out, ROOT), commit))
        if "of" in summary:
            f.write("**Partial: %d of the suite's %d kernels run (a seeded sample: the run was stopped "
                    "at the deadline).**\n\n" % (len(rows), summary["of"]))
        f.write("| | count |\n|---|---|\n")
        for k, label in [("kernels", "kernels"), ("tp", "races found"), ("fn", "races missed"),
                         ("fp", "false alarms (race-free, something reported)"), ("tn", "race-free, nothing reported"),
                         ("other_error", "labelled with another error (not counted)"), ("not_run", "not run (reason below)"),
                         ("uninit_found", "uninitialised reads named"),
                         ("uninit_missed", "uninitialised reads missed"),
                         ("precision", "precision"), ("recall", "recall")]:
            if k in summary:
                f.write("| %s | %s |\n" % (label, summary[k]))
        f.write("\n| kernel | label | outcome | race named | uninitialised read named | reason / note |\n"
                "|---|---|---|---|---|---|\n")
        for r in rows:
            f.write("| %s | %s | %s | %s | %s | %s |\n" % (r["kernel"], r["label"], r["outcome"],
                                                 "yes" if r.get("races") else "",
                                                 "yes" if r.get("uninit") else "",
                                                 (r.get("reason") or r.get("note") or "").replace("|", "\\|")))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("suite", choices=["gpuverify", "dracc", "oclgrind"])
    ap.add_argument("checkout")
    ap.add_argument("--out", required=True)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=int, default=30)
    ap.add_argument("--only", default="", help="a substring of the kernels to run")
    ap.add_argument("--suite-commit", default="",
                    help="the suite's commit, for a checkout that is not a git repository of its own")
    ap.add_argument("--from-json", action="store_true",
                    help="rewrite the tables from OUT.json's rows without running anything")
    a = ap.parse_args()
    if a.from_json:
        old = json.load(open(a.out + ".json"))
        summary = summarise(old["kernels"], a.suite)
        write_table(old["suite"], old["commit"], old["kernels"], summary, a.out)
        print(json.dumps(summary))
        return
    if not os.path.isdir(a.checkout):
        sys.exit("race_suites.py: %s: no such folder" % a.checkout)
    if not os.access(WARPSIM, os.X_OK):
        sys.exit("no warpsim at %s (build it, or set $WARPSIM)" % WARPSIM)
    commit = a.suite_commit or git_commit(Path(a.checkout))
    if re.fullmatch(r"[0-9a-f]{8,40}", commit):
        commit = commit[:7]
    if a.suite == "oclgrind":
        base = a.checkout
        paths = sorted(os.path.join(base, f) for f in os.listdir(base) if f.endswith(".cu"))
        case = oclgrind_case
    elif a.suite == "gpuverify":
        base = os.path.join(a.checkout, "testsuite/CUDA")
        paths = sorted(os.path.join(d, f) for d, _, fs in os.walk(base) for f in fs if f.endswith(".cu"))
        case = gpuverify_case
    else:
        base = os.path.join(a.checkout, "CUDA/src")
        paths = sorted(os.path.join(base, f) for f in os.listdir(base) if f.endswith(".cu"))
        case = dracc_case
    paths = [p for p in paths if a.only in p]
    # A seeded order, so that a run stopped early has run a fair sample (the table says so).
    random.Random(1).shuffle(paths)
    if not paths:
        sys.exit("no kernels under " + base)
    title = {"gpuverify": "GPUVerify testsuite/CUDA", "dracc": "DRACC CUDA",
             "oclgrind": "Oclgrind's data-race and uninitialized patterns, in CUDA"}[a.suite]
    rows = []
    with tempfile.TemporaryDirectory() as scratch, ThreadPoolExecutor(a.jobs) as pool:
        for row in pool.map(lambda p: case(a.checkout, p, scratch, a.timeout), paths):
            rows.append(row)
            rows.sort(key=lambda r: r["kernel"])
            # The table so far, after every kernel: an interrupted run still leaves one.
            partial = summarise(rows, a.suite)
            partial["of"] = len(paths)
            write_table(title, commit, rows, partial, a.out)
    summary = summarise(rows, a.suite)
    write_table(title, commit, rows, summary, a.out)
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
