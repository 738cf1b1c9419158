#!/usr/bin/env python3
"""Run a public CUDA suite, unmodified, under `warpsim exec` and write a results table.

The suites stay outside this repository: give the path of a checkout.

  scripts/compat.py cuda-samples ~/src/cuda-samples --out docs/compat/cuda-samples.md
  scripts/compat.py rodinia ~/src/gpu-rodinia --out docs/compat/rodinia.md
  scripts/compat.py cuda-samples CHECKOUT --only vectorAdd,reduction   # a few programs
  scripts/compat.py cuda-samples CHECKOUT --gpu                        # also exec --gpu

Each program is built from the sources its own build names (cuda-samples: CMakeLists.txt
add_executable; Rodinia: its Makefile's nvcc line), run with the suite's own arguments, and
judged by its own exit status (the samples' self-checks end in EXIT_SUCCESS, EXIT_FAILURE or
EXIT_WAIVED). Programs that need what a CPU cannot provide (graphics interop, a CUDA library
warpsim does not simulate, a second GPU, NVSCI/EGL/Vulkan, MPI) are listed with that reason
and not counted against warpsim; they are still run with --all.

Outcomes:
  pass      exit status 0
  waived    the program itself declined (EXIT_WAIVED = 2 and a "waiv" message)
  refused   warpsim stopped it at run time naming what it does not simulate
  compile   the program did not compile in warpsim (the first error is shown)
  fail      any other exit status (its self-check failed)
  timeout   --time-limit passed
  crash     killed by a signal
"""
from __future__ import annotations

import argparse
import concurrent.futures
import datetime
import json
import os
import platform
import re
import shlex
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
EXIT_WAIVED = 2


@dataclass
class Program:
    name: str
    folder: Path  # where it runs (its data files are found from there)
    sources: list[Path]
    runs: list[list[str]] = field(default_factory=lambda: [[]])  # argument lists
    include_dirs: list[Path] = field(default_factory=list)
    definitions: list[str] = field(default_factory=list)
    needs: list[str] = field(default_factory=list)  # what a CPU cannot provide; empty: runnable


@dataclass
class Outcome:
    name: str
    category: str  # the suite's grouping (cuda-samples: 0_Introduction, ...)
    result: str  # pass waived refused compile fail timeout crash skipped
    reason: str  # one line
    seconds: float
    needs: list[str]
    gpu: str = ""  # with --gpu: identical / differs / not run (why)


# ---------------------------------------------------------------------------------------------
# cuda-samples

# What a sample's build links or includes, and what a CPU cannot provide for it.
CMAKE_NEEDS = [
    (r"OpenGL|GLUT|GLEW|glfw|\bX11\b|OPENGL", "graphics interop (OpenGL)"),
    (r"Vulkan", "graphics interop (Vulkan)"),
    (r"\bEGL\b|EGL_LIBRARY", "EGL interop"),
    (r"NVSCI|NvSci", "NvSci interop"),
    (r"CUDLA|cudla", "cuDLA (Tegra)"),
    (r"NVMEDIA", "NvMedia (Tegra)"),
    (r"CUDA::cublas", "cuBLAS"),
    (r"CUDA::cufft", "cuFFT"),
    (r"CUDA::cusparse", "cuSPARSE"),
    (r"CUDA::cusolver", "cuSOLVER"),
    (r"CUDA::npp", "NPP"),
    (r"CUDA::nvjpeg", "nvJPEG"),
    (r"CUDA::curand\b", "cuRAND host API"),
    (r"CUDA::nvrtc", "NVRTC (run-time compilation to GPU code)"),
    (r"NVJITLINK", "nvJitLink"),
    (r"NVVM|libNVVM", "libNVVM"),
    (r"\bMPI\b|MPI_", "MPI"),
    (r"d3d|D3D|DirectX", "Direct3D (Windows)"),
]
SOURCE_NEEDS = [
    # Driver-API modules load GPU binaries (cubin, fatbin, PTX) that a CPU cannot run.
    (r"\bcuModuleLoad|\bcuLibraryLoad", "driver-API modules (cubin/fatbin/PTX files)"),
    (r"cudaGraphicsGL|cudaGLSetGLDevice|GL/gl\.h|GL/glew\.h|GL/freeglut", "graphics interop (OpenGL)"),
    (r"cudaImportExternalMemory|cudaImportExternalSemaphore", "external memory interop"),
]


def parse_add_executable(text: str) -> list[tuple[str, list[str]]]:
    found = []
    for match in re.finditer(r"add_executable\(\s*([^\s)]+)([^)]*)\)", text):
        words = [w for w in match.group(2).split() if not w.startswith("${")]
        found.append((match.group(1), words))
    return found


def parse_include_directories(text: str, folder: Path) -> list[Path]:
    """The folders of include_directories(...) and target_include_directories(TARGET ...) that
    exist (relative, or under ${CMAKE_CURRENT_SOURCE_DIR}); other variables are skipped."""
    found = []
    for match in re.finditer(r"(target_)?include_directories\(([^)]*)\)", text):
        words = match.group(2).split()
        if match.group(1):
            words = words[1:]  # the target
        for word in words:
            if word in ("PUBLIC", "PRIVATE", "INTERFACE", "SYSTEM", "BEFORE", "AFTER"):
                continue
            word = word.replace("${CMAKE_CURRENT_SOURCE_DIR}", str(folder))
            if "${" in word:
                continue
            path = (folder / word).resolve()
            if path.is_dir() and path not in found:
                found.append(path)
    return found


def cuda_samples(root: Path) -> list[Program]:
    args_file = root / "test_args.json"
    test_args = json.loads(args_file.read_text()) if args_file.exists() else {}
    programs = []
    for cmake in sorted((root / "Samples").glob("*/*/CMakeLists.txt")):
        folder = cmake.parent
        text = cmake.read_text(errors="replace")
        for name, words in parse_add_executable(text):
            sources = [folder / w for w in words if Path(w).suffix in (".cu", ".cpp", ".c", ".cc")]
            if not sources:
                continue
            config = test_args.get(name, {})
            runs = [r.get("args", []) for r in config["runs"]] if "runs" in config \
                else [config.get("args", [])]
            needs = []
            for pattern, need in CMAKE_NEEDS:
                if re.search(pattern, text) and need not in needs:
                    needs.append(need)
            for source in sources:
                if not source.exists():
                    continue
                body = source.read_text(errors="replace")
                for pattern, need in SOURCE_NEEDS:
                    if re.search(pattern, body) and need not in needs:
                        needs.append(need)
            if folder.parent.name.startswith("8_Platform_Specific"):
                needs.append("platform-specific (Tegra/Windows)")
            if config.get("skip"):
                needs.append("skipped by the suite's own test_args.json")
            common = (root / "Common").resolve()
            own = [d for d in parse_include_directories(text, folder) if d != common]
            programs.append(Program(name, folder, sources, runs,
                                    include_dirs=[root / "Common"] + own, needs=needs))
    return programs


# ---------------------------------------------------------------------------------------------
# Rodinia (the CUDA half: cuda/<benchmark>/, run as its run script says)

def rodinia(root: Path) -> list[Program]:
    programs = []
    base = root / "cuda"
    for folder in sorted(p for p in base.iterdir() if p.is_dir()):
        run_script = folder / "run"
        makefile = folder / "Makefile"
        if not run_script.exists() or not makefile.exists():
            continue
        make = makefile.read_text(errors="replace")
        run_lines = [l.strip() for l in run_script.read_text(errors="replace").splitlines()
                     if l.strip().startswith("./")]
        if not run_lines:
            continue
        words = shlex.split(run_lines[0])
        executable = Path(words[0]).name
        # Sources: what the Makefile's nvcc/gcc line builds that executable from.
        sources = []
        for line in make.replace("\\\n", " ").splitlines():
            if ("nvcc" in line or "$(CC)" in line or "$(NVCC)" in line) and executable in line:
                sources += [folder / w for w in line.split()
                            if Path(w).suffix in (".cu", ".cpp", ".c") and (folder / w).exists()]
        if not sources:
            sources = [p for p in folder.glob("*.cu")]
        # A .cu #included by another is not built on its own.
        included = set()
        for source in sources:
            for inc in re.findall(r'#\s*include\s*"([^"]+)"', source.read_text(errors="replace")):
                included.add((source.parent / inc).resolve())
        sources = list(dict.fromkeys(s for s in sources if s.resolve() not in included))
        defs = re.findall(r"-D\s*([A-Za-z_][A-Za-z0-9_]*(?:=\S+)?)", make)
        programs.append(Program(folder.name, folder, sources, [words[1:]],
                                include_dirs=[root / "common"] if (root / "common").exists() else [],
                                definitions=list(dict.fromkeys(defs))))
    return programs


# ---------------------------------------------------------------------------------------------

def first_error(output: str) -> str:
    for line in output.splitlines():
        if "error:" in line or "warpsim:" in line and "not simulated" in line:
            return line.strip()
    for line in output.splitlines():
        if "warpsim exec:" in line:
            return line.strip()
    return output.strip().splitlines()[-1] if output.strip() else ""


def classify(code: int, output: str) -> tuple[str, str]:
    if code == 0:
        return "pass", ""
    if code == EXIT_WAIVED and re.search(r"waiv", output, re.I):
        lines = [l for l in output.splitlines() if re.search(r"waiv|requires|not support", l, re.I)]
        return "waived", (lines[0].strip() if lines else "waived")
    if code == 125:
        return "compile", first_error(output)
    if code == 124:
        return "timeout", first_error(output)
    if code >= 128:
        return "crash", first_error(output)
    refusal = [l for l in output.splitlines() if "not simulated" in l or "does not simulate" in l]
    if refusal:
        return "refused", refusal[0].strip()
    tail = [l for l in output.splitlines() if l.strip()]
    return "fail", f"exit {code}: " + (first_error(output) if tail else "")


def run_one(program: Program, args: argparse.Namespace, category: str) -> Outcome:
    if program.needs and not args.all:
        return Outcome(program.name, category, "skipped", "needs " + ", ".join(program.needs),
                       0.0, program.needs)
    missing = [s for s in program.sources if not s.exists()]
    if missing:
        return Outcome(program.name, category, "fail", f"source missing: {missing[0]}", 0.0,
                       program.needs)
    total = 0.0
    result, reason = "pass", ""
    gpu = ""
    for run_args in program.runs:
        command = [args.warpsim, "exec", "--time-limit", str(args.time_limit)]
        for d in program.include_dirs:
            command += ["-I", str(d)]
        for d in program.definitions:
            command += ["-D", d]
        if args.gpu:
            command.append("--gpu")
        command += [str(s) for s in program.sources]
        command += ["--"] + run_args
        start = time.monotonic()
        try:
            done = subprocess.run(command, cwd=program.folder, stdin=subprocess.DEVNULL,
                                  capture_output=True, text=True, errors="replace",
                                  timeout=args.time_limit * 3 + 300)
            code, output = done.returncode, done.stdout + done.stderr
        except subprocess.TimeoutExpired:
            code, output = 124, "warpsim exec did not return"
        total += time.monotonic() - start
        if args.gpu:
            gpu = gpu_verdict(code, output)
            code = simulator_status(output, code)
        result, reason = classify(code, output)
        if args.verbose:
            print(f"--- {program.name} {' '.join(run_args)}: {result}\n{output[-3000:]}",
                  file=sys.stderr)
        if result != "pass":
            break
    return Outcome(program.name, category, result, reason, total, program.needs, gpu)


def gpu_verdict(code: int, output: str) -> str:
    if "stdout identical, exit status identical" in output and code == 0:
        return "identical"
    for line in output.splitlines():
        if line.startswith("warpsim exec --gpu:") or line.startswith("warpsim exec: --gpu:"):
            return line.split(":", 1)[1].strip()[:120]
    return f"exit {code}"


def simulator_status(output: str, code: int) -> int:
    match = re.search(r"simulator (\d+), GPU (\d+)", output)
    return int(match.group(1)) if match else code


def git_commit(path: Path) -> str:
    try:
        return subprocess.run(["git", "-C", str(path), "rev-parse", "HEAD"], capture_output=True,
                              text=True, check=True).stdout.strip()
    except (subprocess.CalledProcessError, FileNotFoundError):
        return "unknown (not a git checkout)"


ORDER = ["pass", "waived", "refused", "compile", "fail", "timeout", "crash", "skipped"]


def write_table(outcomes: list[Outcome], args: argparse.Namespace, checkout: Path) -> str:
    counted = [o for o in outcomes if not o.needs]
    counts = {r: sum(1 for o in counted if o.result == r) for r in ORDER}
    lines = [
        f"# {args.suite} under `warpsim exec`",
        "",
        f"Made by `scripts/compat.py {args.suite} CHECKOUT` on "
        f"{datetime.date.today().isoformat()}: suite commit `{git_commit(checkout)}`, warpsim "
        f"commit `{git_commit(REPO)}`, {platform.machine()} {os.cpu_count()} cores, "
        f"time limit {args.time_limit:g} s a run.",
        "",
        f"Programs that need only what a CPU can provide: **{len(counted)}**. "
        + ", ".join(f"{r} {counts[r]}" for r in ORDER if counts[r]) + ".",
    ]
    runnable = len(counted) - counts["waived"]
    if runnable:
        lines.append(f"Pass rate among those the suite itself does not waive: "
                     f"{counts['pass']}/{runnable} ({100 * counts['pass'] / runnable:.0f}%).")
    lines += ["", f"Programs that need more than a CPU (not counted): "
              f"{sum(1 for o in outcomes if o.needs)}.", "",
              "| program | group | result | seconds | reason |" + (" GPU |" if args.gpu else ""),
              "|---|---|---|---:|---|" + ("---|" if args.gpu else "")]
    for o in sorted(outcomes, key=lambda o: (bool(o.needs), ORDER.index(o.result), o.category,
                                            o.name)):
        reason = o.reason.replace("|", "\\|")[:200]
        row = f"| {o.name} | {o.category} | {o.result} | {o.seconds:.1f} | {reason} |"
        if args.gpu:
            row += f" {o.gpu} |"
        lines.append(row)
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("suite", choices=["cuda-samples", "rodinia"])
    parser.add_argument("checkout", type=Path, help="a checkout of the suite (kept outside the repo)")
    parser.add_argument("--warpsim", default=str(REPO / "build/release/cli/warpsim"))
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--time-limit", type=float, default=120)
    parser.add_argument("--only", default="", help="comma-separated program names")
    parser.add_argument("--all", action="store_true",
                        help="also run programs that need more than a CPU")
    parser.add_argument("--gpu", action="store_true", help="run each with exec --gpu")
    parser.add_argument("--out", type=Path, help="write the markdown table here")
    parser.add_argument("--json", type=Path, help="write the outcomes as JSON here")
    parser.add_argument("--verbose", action="store_true", help="print each run's output")
    args = parser.parse_args()

    checkout = args.checkout.resolve()
    if not checkout.is_dir():
        print(f"compat.py: {checkout}: no such folder", file=sys.stderr)
        return 2
    if not os.access(args.warpsim, os.X_OK):
        print(f"compat.py: {args.warpsim} is not an executable: build warpsim first "
              f"(scripts/setup.sh start) or pass --warpsim", file=sys.stderr)
        return 2
    try:
        programs = cuda_samples(checkout) if args.suite == "cuda-samples" else rodinia(checkout)
    except (OSError, ValueError) as error:
        print(f"compat.py: cannot read the suite at {checkout}: {error}", file=sys.stderr)
        return 2
    if args.only:
        wanted = set(args.only.split(","))
        programs = [p for p in programs if p.name in wanted]
    if not programs:
        print("compat.py: no programs found", file=sys.stderr)
        return 2

    def category(p: Program) -> str:
        return p.folder.parent.name if args.suite == "cuda-samples" else "rodinia"

    outcomes = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = {pool.submit(run_one, p, args, category(p)): p for p in programs}
        for future in concurrent.futures.as_completed(futures):
            o = future.result()
            outcomes.append(o)
            print(f"{o.result:8} {o.seconds:6.1f}s  {o.name}  {o.reason[:150]}", flush=True)
    table = write_table(outcomes, args, checkout)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(table)
    if args.json:
        args.json.write_text(json.dumps([o.__dict__ for o in sorted(outcomes, key=lambda o: o.name)],
                                        indent=1) + "\n")
    summary = [l for l in table.splitlines() if l.startswith("Programs") or l.startswith("Pass")]
    print("\n".join(summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())
