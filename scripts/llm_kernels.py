#!/usr/bin/env python3
"""Warp-level kernels of LLM inference and training code, run unmodified under `warpsim exec`.

Each kernel has a harness, tests/llm/<name>.cu: a small program of ours that #includes the
project's own file from its checkout (found through -I), launches the kernel as the project does
(through the project's own host launcher where it has one), and compares the output with a CPU
reference of ours, printing one `LLM-RESULT ... result=pass|fails` line. The projects stay
outside this repository; check them out at the pinned commits into one folder:

    CHECKOUTS/llama.cpp          github:ggerganov/llama.cpp
    CHECKOUTS/candle             github:huggingface/candle
    CHECKOUTS/llm.c              github:karpathy/llm.c
    CHECKOUTS/flashinfer         github:flashinfer-ai/flashinfer
    CHECKOUTS/FasterTransformer  github:NVIDIA/FasterTransformer

    python3 scripts/llm_kernels.py CHECKOUTS --out docs/compat/llm-kernels.md --json docs/compat/llm-kernels.json

A harness that does not build is `refused`, with the compiler's or linker's first error as the
reason; one that builds and gives other numbers than the reference `fails`. scripts/record_gpu_llm.sh
builds the same harnesses with nvcc for a GPU.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

PROJECTS = {
    "llama.cpp": ("ggerganov/llama.cpp", "c392e5094deaf2d1a7c18683214f007fad3fe42b",
                  ["", "ggml/include", "ggml/src"]),
    "candle": ("huggingface/candle", "2a13b0f3ff62f7e67013597f2996f764c5735e21", [""]),
    "llm.c": ("karpathy/llm.c", "f1e2ace651495b74ae22d45d1723443fd00ecd3a", [""]),
    "flashinfer": ("flashinfer-ai/flashinfer", "fb28d7242b3506a2348265962041acc1fb56cca4", ["include"]),
    "FasterTransformer": ("NVIDIA/FasterTransformer", "df4a7534860137e060e18d2ebf019906120ea204", [""]),
}

# harness, project, the project's file, the kernel, what is warp-level in it
KERNELS = [
    ("llamacpp_rms_norm_f32", "llama.cpp", "ggml/src/ggml-cuda/norm.cu", "rms_norm_f32<1024>",
     "warp_reduce_sum, then across 32 warps"),
    ("llamacpp_soft_max_f32", "llama.cpp", "ggml/src/ggml-cuda/softmax.cu", "soft_max_f32<true,0,0,float>",
     "warp_reduce_max and warp_reduce_sum, across warps"),
    ("candle_softmax_f32", "candle", "candle-kernels/src/reduce.cu", "softmax_f32",
     "__shfl_xor_sync max and sum, warp along threadIdx.y"),
    ("candle_rmsnorm_bf16", "candle", "candle-kernels/src/reduce.cu", "rmsnorm_bf16",
     "bf16, warp_reduce_sum, then across 32 warps"),
    ("candle_layernorm_f32", "candle", "candle-kernels/src/reduce.cu", "layernorm_f32",
     "float2 warp_reduce_sum, then across warps"),
    ("llmc_layernorm_forward", "llm.c", "llmc/layernorm.cuh", "layernorm_forward_kernel3",
     "bf16, one warp a row, warpReduceSum, __ldcs/__stcs"),
    ("llmc_fused_classifier", "llm.c", "llmc/fused_classifier.cuh", "fused_classifier_kernel5",
     "bf16, blockReduce (warpReduceMax/Sum, shared), 128-bit loads"),
    ("flashinfer_rmsnorm", "flashinfer", "include/flashinfer/norm.cuh", "RMSNormKernel<8, half>",
     "fp16 vec_t, shfl_xor_sync, cudaLaunchKernelEx"),
    ("flashinfer_fused_add_rmsnorm", "flashinfer", "include/flashinfer/norm.cuh",
     "FusedAddRMSNormKernel<8, half>", "fp16 vec_t, shfl_xor_sync, cudaLaunchKernelEx"),
    ("fastertransformer_layernorm", "FasterTransformer", "src/fastertransformer/kernels/layernorm_kernels.cu",
     "generalLayerNorm<float>", "blockReduceSum (warpReduceSum, shared)"),
]

RESULT_LINE = re.compile(r"LLM-RESULT kernel=(.+?) shape=(\S+) max_error=(\S+) tolerance=(\S+) result=(\S+)")


def first_error(output):
    """The first compiler or linker error, paths shortened to the file's name."""
    for line in output.splitlines():
        if ": error:" in line or "undefined reference" in line or "fatal error" in line:
            line = re.sub(r"(/[^\s:']+/)([^/\s:']+)", r"\2", line.strip())
            line = re.sub(r"^/usr/bin/ld: ", "", line)
            return line[:300]
    for line in output.splitlines():
        if line.startswith("warpsim exec:"):
            return line.strip()[:300]
    return "no output"


def undefined_symbols(output):
    names = re.findall(r"undefined reference to `([^']+)'", output)
    return sorted(set(names))


def run_one(warpsim, checkouts, kernel, time_limit):
    harness, project, path, name, what = kernel
    repo, commit, includes = PROJECTS[project]
    checkout = os.path.join(checkouts, project)
    row = {"project": project, "repo": repo, "commit": commit, "file": path, "kernel": name,
           "warp_level": what, "harness": f"tests/llm/{harness}.cu"}
    if not os.path.isfile(os.path.join(checkout, path)):
        row.update(result="refused", reason=f"no checkout: {os.path.join(checkout, path)} is missing")
        return row
    # As scripts/record_gpu_llm.sh builds them with nvcc: a file's host functions that no kernel
    # or main reaches (llama.cpp's call ggml.c, which no harness links) are dropped at the link.
    argv = [warpsim, "exec", os.path.join(ROOT, "tests", "llm", harness + ".cu"),
            "--time-limit", str(time_limit), "--Xcompiler=-ffunction-sections", "--Xlinker=--gc-sections"]
    for include in includes:
        argv += ["-I", os.path.join(checkout, include)]
    start = time.monotonic()
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=time_limit + 600)
    except subprocess.TimeoutExpired:
        row.update(result="fails", reason="did not finish", wall_s=round(time.monotonic() - start, 1))
        return row
    wall = time.monotonic() - start
    output = done.stdout + done.stderr
    row["wall_s"] = round(wall, 2)
    run_time = re.search(r"the program exited with status \d+ \(([\d.]+) s\)", output)
    if run_time:
        row["run_s"] = float(run_time.group(1))
    found = RESULT_LINE.search(output)
    if found:
        row.update(shape=found.group(2), max_error=float(found.group(3)), tolerance=float(found.group(4)),
                   result="pass" if found.group(5) == "pass" and done.returncode == 0 else "fails")
        if row["result"] != "pass":
            row["reason"] = f"exit status {done.returncode}"
    elif done.returncode == 125:
        missing = undefined_symbols(output)
        if missing:
            row.update(result="refused", reason="link: the file's host code calls functions of files not "
                       "given (" + ", ".join(missing[:4]) + (", ..." if len(missing) > 4 else "") + ")")
        else:
            row.update(result="refused", reason="compile: " + first_error(output))
    else:
        row.update(result="fails", reason=f"exit status {done.returncode}: " + first_error(output))
    return row


def markdown(rows, warpsim_commit):
    passed = sum(r["result"] == "pass" for r in rows)
    lines = [
        "# LLM kernels under `warpsim exec`",
        "",
        f"{passed} of {len(rows)} pass. Written by `scripts/llm_kernels.py` at warpsim {warpsim_commit}; "
        "each harness (`tests/llm/`) includes the project's own file unmodified from a checkout at the "
        "commit shown, launches the kernel as the project does and compares with a CPU reference (max "
        "error: largest |got - want| / max(1, |want|)). Wall time: the whole `warpsim exec` (compile, "
        "mostly cached, and run); run: the program's own run.",
        "",
        "| project | commit | file | kernel | warp-level work | shape | result | max error | wall s | run s |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        result = r["result"] if r["result"] == "pass" else f"{r['result']}: {r.get('reason', '')}"
        result = result.replace("|", "\\|")
        error = f"{r['max_error']:.2g} (tol {r['tolerance']:.2g})" if "max_error" in r else ""
        lines.append(f"| {r['project']} | {r['commit'][:7]} | `{r['file']}` | `{r['kernel']}` | {r['warp_level']} | "
                     f"{r.get('shape', '')} | {result} | {error} | {r.get('wall_s', '')} | {r.get('run_s', '')} |")
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("checkouts", help="folder holding llama.cpp/, candle/, llm.c/, flashinfer/, FasterTransformer/")
    parser.add_argument("--warpsim", default=os.path.join(ROOT, "build", "release", "cli", "warpsim"))
    parser.add_argument("--out", help="Markdown table")
    parser.add_argument("--json", help="JSON rows")
    parser.add_argument("--only", help="harness names, comma-separated")
    parser.add_argument("--time-limit", type=int, default=300)
    args = parser.parse_args()
    if not os.path.isdir(args.checkouts):
        sys.exit(f"llm_kernels.py: {args.checkouts} is not a folder")
    if not os.access(args.warpsim, os.X_OK):
        sys.exit(f"llm_kernels.py: no warpsim at {args.warpsim} (build it, or pass --warpsim)")
    only = set(args.only.split(",")) if args.only else None
    rows = []
    for kernel in KERNELS:
        if only and kernel[0] not in only:
            continue
        row = run_one(args.warpsim, args.checkouts, kernel, args.time_limit)
        print(f"{row['result']:8} {row['project']:18} {row['kernel']:34} {row.get('max_error', '')} "
              f"{row.get('wall_s', '')} s {row.get('reason', '')}", flush=True)
        rows.append(row)
    commit = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True).stdout.strip()
    if args.out:
        with open(args.out, "w") as out:
            out.write(markdown(rows, commit))
    if args.json:
        with open(args.json, "w") as out:
            json.dump({"warpsim_commit": commit, "kernels": rows}, out, indent=1)
            out.write("\n")
    return 0 if all(r["result"] == "pass" for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
