#!/usr/bin/env python3
"""Whole-program benchmark set: five CUDA programs under `warpsim exec`, against the same
algorithms as serial C++ and OpenMP C++ built with the same compiler (-O2).

    python3 bench/programs/run.py [--warpsim PATH] [--runs N] [--size small|full] [--out FILE.md]

For each program (vector_add, reduce, scan, histogram, integral_image):
  - NAME.cpp is built twice into a scratch folder: `c++ -O2` (serial) and `c++ -O2 -fopenmp`;
  - NAME.cu runs under `warpsim exec` once to compile it (warpsim caches the build), then N
    times with WARPSIM_JOBS=1 and N times with every core (WARPSIM_JOBS unset);
  - runs are interleaved program by program (serial, OpenMP, warpsim 1 core, warpsim all cores),
    so each round's ratios compare runs made seconds apart; the tables give medians of the times
    and medians of the per-round ratios.

Every program checks its own result and prints PASSED; it also prints "time NAME: X s" for the
part that does the work (the kernels, or the loops that do the same), which the second table
compares. A benchmark, not a test: no timing is asserted. Exit status 1 when a program fails its
check or does not run, 2 when warpsim or the compiler is missing.
"""

import argparse
import datetime
import os
import platform
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))

# name, arguments for --size small (full: none, each program's default size).
PROGRAMS = [
    ("vector_add", ["1048576"]),      # 16M floats added, one thread each, then a shuffle block sum
    ("reduce", ["1048576"]),          # 16M floats summed: grid-stride, shuffles, shared, atomicAdd
    ("scan", ["262144"]),             # 4M ints: block scans with shuffles, block sums, offsets
    ("histogram", ["1048576"]),       # 16M bytes: shared-memory atomicAdd per block, merged
    ("integral_image", ["480", "270"]),  # 1920x1080: a warp per row (shuffles), a thread per column
]
# The timed parts each program prints ("time NAME: X s"), compared in the second table, and which
# of them are collective-free kernels (no shuffle, barrier or atomic: each lane runs to its end).
PHASES = {"vector_add": ["add", "sum"], "integral_image": ["rows", "columns"]}
COLLECTIVE_FREE = {("vector_add", "add"), ("integral_image", "columns")}

EXITED = re.compile(r"the program exited with status (\d+) \(([0-9.]+) s\)")
TIME_LINE = re.compile(r"^time (\S+): ([0-9.eE+-]+) s$", re.M)

GOAL_VS_OPENMP = 3.0    # collective-free kernels: <= 3x the OpenMP loop on the same cores
GOAL_VS_SERIAL = 20.0   # warp-collective kernels: <= 20x serial, per core
GOAL_SCALING = 0.8      # 1 core to all cores: speed-up >= 0.8 x cores


class BenchError(Exception):
    def __init__(self, message, status=1):
        super().__init__(message)
        self.status = status


def find_warpsim(given):
    candidates = [given] if given else [
        os.environ.get("WARPSIM"),
        os.path.join(REPO, "build", "release", "cli", "warpsim"),
        shutil.which("warpsim"),
    ]
    for path in candidates:
        if path and os.path.isfile(path) and os.access(path, os.X_OK):
            return os.path.abspath(path)
    where = given if given else "$WARPSIM, " + os.path.join(REPO, "build/release/cli/warpsim") + " or PATH"
    raise BenchError("warpsim not found (looked at " + where + "): build it "
                     "(cmake --build build/release) or pass --warpsim PATH", 2)


def run(argv, env, what, timeout):
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    try:
        done = subprocess.run(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise BenchError(what + ": did not finish within " + str(timeout) + " s")
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - usage.ru_utime) + (after.ru_stime - usage.ru_stime)
    if done.returncode != 0 or "PASSED" not in done.stdout:
        raise BenchError(what + ": the program's own check failed (exit status " +
                         str(done.returncode) + ")\n--- stdout\n" + done.stdout[-3000:] +
                         "--- stderr\n" + done.stderr[-3000:])
    phases = {name: float(value) for name, value in TIME_LINE.findall(done.stdout)}
    return done, wall, cpu, phases


def native_run(exe, args, env, what):
    done, wall, cpu, phases = run([exe] + args, env, what, 600)
    return {"program": wall, "wall": wall, "cpu": cpu, "phases": phases}


def warpsim_run(warpsim, source, args, env, what):
    argv = [warpsim, "exec", "--time-limit", "600", source, "--"] + args
    done, wall, cpu, phases = run(argv, env, what, 900)
    found = EXITED.findall(done.stderr)
    if not found:
        raise BenchError(what + ": no 'the program exited with status' line from warpsim exec\n" +
                         done.stderr[-3000:])
    return {"program": float(found[-1][1]), "wall": wall, "cpu": cpu, "phases": phases}


def build(compiler, source, exe, openmp):
    argv = [compiler, "-O2", "-std=c++17"] + (["-fopenmp"] if openmp else ["-Wno-unknown-pragmas"]) + \
           ["-I", HERE, "-o", exe, source]
    done = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if done.returncode != 0:
        raise BenchError("cannot build " + os.path.basename(exe) + ":\n" + " ".join(argv) + "\n" + done.stdout, 2)


def command_output(argv, cwd=None):
    try:
        done = subprocess.run(argv, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                              text=True, timeout=30)
        return done.stdout.strip() if done.returncode == 0 else ""
    except (OSError, subprocess.TimeoutExpired):
        return ""


def git_description(path):
    top = command_output(["git", "rev-parse", "--show-toplevel"], cwd=path)
    if not top:
        return "not in a git checkout"
    head = command_output(["git", "log", "-1", "--format=%h (%cd)", "--date=format:%Y-%m-%d %H:%M"], cwd=top)
    dirty = command_output(["git", "status", "--porcelain", "--untracked-files=no"], cwd=top)
    return head + (", with uncommitted changes" if dirty else "") + " in " + top


def build_times(warpsim):
    """When the binary and the library the programs load (a build tree's sim/libwarpsim.so) were built."""
    def when(path):
        stamp = datetime.datetime.fromtimestamp(os.path.getmtime(path), datetime.timezone.utc)
        return stamp.strftime("%Y-%m-%d %H:%M UTC")
    text = "warpsim " + when(warpsim)
    library = os.path.join(os.path.dirname(os.path.dirname(warpsim)), "sim", "libwarpsim.so")
    if os.path.isfile(library):
        text += ", libwarpsim.so " + when(library)
    return text


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def load_average():
    try:
        return "%.2f %.2f %.2f" % os.getloadavg()
    except OSError:
        return "?"


def cores():
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


def seconds(value):
    if value is None:
        return "-"
    if value >= 10:
        return "%.1f s" % value
    if value >= 1:
        return "%.2f s" % value
    if value >= 0.01:
        return "%.3f s" % value
    return "%.2f ms" % (value * 1000)


def ratio(value, digits=1):
    return "-" if value is None else ("%." + str(digits) + "f") % value


def median(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def per_round_ratio(numerators, denominators):
    return median([n / d if n is not None and d else None for n, d in zip(numerators, denominators)])


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--warpsim", help="the warpsim binary (default: $WARPSIM, build/release/cli/warpsim, PATH)")
    parser.add_argument("--runs", type=int, default=3, help="timed runs of each configuration; medians are reported (default 3)")
    parser.add_argument("--size", choices=["small", "full"], default="full",
                        help="full: the sizes above (default); small: about 1/16, for a quick run")
    parser.add_argument("--out", help="also write the tables as markdown, with the machine, compiler, commits and date")
    parser.add_argument("--programs", help="comma-separated subset of: " + ", ".join(p[0] for p in PROGRAMS))
    parser.add_argument("--cxx", default=os.environ.get("CXX", "c++"), help="the C++ compiler for the serial and OpenMP builds (default $CXX or c++)")
    options = parser.parse_args()
    if options.runs < 1:
        parser.error("--runs must be at least 1")

    programs = PROGRAMS
    if options.programs:
        wanted = options.programs.split(",")
        unknown = [w for w in wanted if w not in [p[0] for p in PROGRAMS]]
        if unknown:
            parser.error("unknown program(s): " + ", ".join(unknown))
        programs = [p for p in PROGRAMS if p[0] in wanted]
    ncores = cores()
    warpsim = find_warpsim(options.warpsim)
    compiler = shutil.which(options.cxx)
    if compiler is None:
        raise BenchError("compiler not found: " + options.cxx, 2)

    base_env = {k: v for k, v in os.environ.items() if k not in ("WARPSIM_JOBS", "OMP_NUM_THREADS")}
    one_env = dict(base_env, WARPSIM_JOBS="1")
    started = datetime.datetime.now(datetime.timezone.utc)
    load_before = load_average()
    built_before = build_times(warpsim)
    scratch = tempfile.mkdtemp(prefix="warpsim-bench-programs-")
    print("warpsim: %s\ncompiler: %s\nscratch: %s\ncores: %d, load average %s, size %s, %d runs"
          % (warpsim, compiler, scratch, ncores, load_before, options.size, options.runs), file=sys.stderr)

    results = {}
    try:
        for name, small_args in programs:
            source = os.path.join(HERE, name + ".cpp")
            build(compiler, source, os.path.join(scratch, name + "_serial"), False)
            build(compiler, source, os.path.join(scratch, name + "_omp"), True)
        # First runs: warpsim compiles each program (and caches it); every version checks itself.
        for name, small_args in programs:
            args = small_args if options.size == "small" else []
            print("compiling and checking %s ..." % name, file=sys.stderr, flush=True)
            warpsim_run(warpsim, os.path.join(HERE, name + ".cu"), args, one_env, name + " under warpsim (first run)")
            native_run(os.path.join(scratch, name + "_serial"), args, base_env, name + " (serial)")
            native_run(os.path.join(scratch, name + "_omp"), args, base_env, name + " (OpenMP)")
            results[name] = {"serial": [], "openmp": [], "ws1": [], "wsall": []}
        for round_index in range(options.runs):
            print("round %d of %d ..." % (round_index + 1, options.runs), file=sys.stderr, flush=True)
            for name, small_args in programs:
                args = small_args if options.size == "small" else []
                r = results[name]
                r["serial"].append(native_run(os.path.join(scratch, name + "_serial"), args, base_env, name + " (serial)"))
                r["openmp"].append(native_run(os.path.join(scratch, name + "_omp"), args, base_env, name + " (OpenMP)"))
                source = os.path.join(HERE, name + ".cu")
                r["ws1"].append(warpsim_run(warpsim, source, args, one_env, name + " under warpsim, WARPSIM_JOBS=1"))
                r["wsall"].append(warpsim_run(warpsim, source, args, base_env, name + " under warpsim, all cores"))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    load_after = load_average()
    rebuilt = build_times(warpsim) != built_before
    if rebuilt:
        print("run.py: warning: warpsim was rebuilt while the benchmark ran (%s before, %s after): "
              "the runs mix two builds" % (built_before, build_times(warpsim)), file=sys.stderr)

    def series(name, kind, key, phase=None):
        runs = results[name][kind]
        if phase is None:
            return [run[key] for run in runs]
        return [run["phases"].get(phase) for run in runs]

    # Table 1: whole programs.
    whole = ["| program | serial | OpenMP, %d cores | warpsim, 1 core | warpsim, %d cores | warpsim exec process, 1 / %d cores | warpsim 1 core / serial | warpsim %d cores / OpenMP | speed-up 1 to %d cores | CPU time: serial / warpsim exec, 1 core (ratio) |"
             % (ncores, ncores, ncores, ncores, ncores),
             "|---|---|---|---|---|---|---|---|---|---|"]
    for name, _ in programs:
        serial, openmp = series(name, "serial", "program"), series(name, "openmp", "program")
        ws1, wsall = series(name, "ws1", "program"), series(name, "wsall", "program")
        serial_cpu, ws1_cpu = series(name, "serial", "cpu"), series(name, "ws1", "cpu")
        whole.append("| %s | %s | %s | %s | %s | %s / %s | %s | %s | %s | %s / %s (%s) |" % (
            name, seconds(median(serial)), seconds(median(openmp)), seconds(median(ws1)), seconds(median(wsall)),
            seconds(median(series(name, "ws1", "wall"))), seconds(median(series(name, "wsall", "wall"))),
            ratio(per_round_ratio(ws1, serial)), ratio(per_round_ratio(wsall, openmp)),
            ratio(per_round_ratio(ws1, wsall), 2),
            seconds(median(serial_cpu)), seconds(median(ws1_cpu)), ratio(per_round_ratio(ws1_cpu, serial_cpu))))

    # Table 2: the timed part of each program (kernels against the loops), with the goals.
    rows = []
    for name, _ in programs:
        for phase in PHASES.get(name, ["compute"]):
            rows.append((name, phase))
    kernels = ["| program: timed part | serial | OpenMP, %d cores | warpsim, 1 core | warpsim, %d cores | warpsim 1 core / serial (goal for collectives <= %g) | warpsim %d cores / OpenMP (goal for collective-free <= %g) | speed-up 1 to %d cores / %d (goal >= %g) |"
               % (ncores, ncores, GOAL_VS_SERIAL, ncores, GOAL_VS_OPENMP, ncores, ncores, GOAL_SCALING),
               "|---|---|---|---|---|---|---|---|"]
    for name, phase in rows:
        serial, openmp = series(name, "serial", None, phase), series(name, "openmp", None, phase)
        ws1, wsall = series(name, "ws1", None, phase), series(name, "wsall", None, phase)
        free = (name, phase) in COLLECTIVE_FREE
        vs_serial = per_round_ratio(ws1, serial)
        vs_openmp = per_round_ratio(wsall, openmp)
        scaling = per_round_ratio(ws1, wsall)
        def mark(value, ok):
            return "" if value is None else (" (met)" if ok(value) else " (not met)")
        kernels.append("| %s: %s%s | %s | %s | %s | %s | %s | %s | %s |" % (
            name, phase, " (collective-free)" if free else " (collectives)",
            seconds(median(serial)), seconds(median(openmp)), seconds(median(ws1)), seconds(median(wsall)),
            ratio(vs_serial) + ("" if free else mark(vs_serial, lambda v: v <= GOAL_VS_SERIAL)),
            ratio(vs_openmp) + (mark(vs_openmp, lambda v: v <= GOAL_VS_OPENMP) if free else ""),
            ratio(None if scaling is None else scaling / ncores, 2) +
            mark(scaling, lambda v: v >= GOAL_SCALING * ncores)))

    compiler_version = command_output([compiler, "--version"]).split("\n")[0]
    machine = "%s, %d cores (%s %s)" % (cpu_model(), ncores, platform.system(), platform.release())
    command = "python3 bench/programs/run.py --size %s --runs %d" % (options.size, options.runs)
    if options.warpsim:
        command += " --warpsim " + options.warpsim
    if options.programs:
        command += " --programs " + options.programs
    header = [
        "- date: %s UTC" % started.strftime("%Y-%m-%d %H:%M"),
        "- machine: %s; load average %s before, %s after" % (machine, load_before, load_after),
        "- compiler: %s (serial and OpenMP builds: -O2 [-fopenmp]; warpsim exec builds the .cu at -O1)" % compiler_version,
        "- warpsim: %s, commit %s; built %s" % (
            warpsim, git_description(os.path.dirname(warpsim)), built_before) +
        ("; **rebuilt during the runs** (%s after): they mix two builds" % build_times(warpsim) if rebuilt else ""),
        "- benchmark set: commit %s" % git_description(HERE),
        "- size %s, medians of %d runs; ratios are medians of the ratios within each round" % (options.size, options.runs),
        "- command: `%s`" % command,
    ]
    text = "\n".join(
        header + ["", "Whole programs (serial and OpenMP: process wall time; warpsim: the program's own run time that "
                  "`warpsim exec` reports, without the compile, and the whole `warpsim exec` process; CPU time: user + "
                  "system of the process and its children, which a loaded machine inflates less than wall time):", ""] + whole +
        ["", "The timed part of each program (the kernels and the synchronisations after them, against the loops "
             "that do the same work; the programs print it as `time NAME: X s`):", ""] + kernels) + "\n"
    print(text)
    if options.out:
        with open(options.out, "w") as f:
            f.write(text)
        print("wrote " + options.out, file=sys.stderr)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BenchError as error:
        print("run.py: " + str(error), file=sys.stderr)
        sys.exit(error.status)
    except KeyboardInterrupt:
        sys.exit(130)
