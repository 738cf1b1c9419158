#!/usr/bin/env python3
"""Run a public CUDA suite, unmodified, under `warpsim exec` and write a results table.

The suites stay outside this repository: give the path of a checkout.

  scripts/compat.py cuda-samples ~/src/cuda-samples --out docs/compat/cuda-samples.md
  scripts/compat.py rodinia ~/src/gpu-rodinia --out docs/compat/rodinia.md
  scripts/compat.py cuda-samples CHECKOUT --only vectorAdd,reduction   # a few programs
  scripts/compat.py cuda-samples CHECKOUT --gpu                        # also exec --gpu

Each program is built from the sources its own build names (cuda-samples: CMakeLists.txt
add_executable; Rodinia: an explicit recipe per benchmark, read off its Makefile), run with the
suite's own arguments (Rodinia: sized down, with inputs that scripts/compat_inputs.py writes into
a scratch folder, --work, in the format each benchmark's reader parses; each run's exit status
and digests of its stdout and of the files it wrote are recorded for comparison with a GPU), and
judged by its own exit status (the samples' self-checks end in EXIT_SUCCESS, EXIT_FAILURE or
EXIT_WAIVED). Programs that need what a CPU cannot provide (graphics interop, a CUDA library
warpsim does not simulate, a second GPU, tensor-core MMA, NVSCI/EGL/Vulkan, MPI) are listed with that reason
and not counted against warpsim; they are still run with --all.

Outcomes:
  pass      exit status 0
  waived    the program itself declined (EXIT_WAIVED = 2 and a "waiv" message)
  refused   warpsim stopped it at run time naming what it does not simulate
  compile   the program did not compile in warpsim (the first error is shown)
  fail      any other exit status (its self-check failed)
  timeout   --time-limit passed
  crash     killed by a signal
  findings  the program returned 0 and warpsim found something (exit 122): with --check, what
            the memory checks found; without, a kernel read or wrote just outside a cudaMalloc'd
            block (the launch went on, as on a GPU). The first finding is shown (a suite's
            programs are meant to be correct: each is a bug in the program or a false alarm, to
            be told apart)
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
import hashlib
import shutil
import tempfile
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
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
    host_flags: list[str] = field(default_factory=list)  # exec --Xcompiler (OpenMP: -fopenmp)
    nvcc_flags: list[str] = field(default_factory=list)  # exec --Xnvcc: the GPU build's own flags
    recipe: object = None  # Rodinia: its Recipe (inputs to generate, cwd, notes)


@dataclass
class Outcome:
    name: str
    category: str  # the suite's grouping (cuda-samples: 0_Introduction, ...)
    result: str  # pass waived refused compile fail timeout crash skipped
    reason: str  # one line
    seconds: float
    needs: list[str]
    gpu: str = ""  # with --gpu: identical / differs / not run (why)
    # with --gpu: the program's run alone (no build), wall clock, "SIM / GPU" seconds, each side
    # recording its launch buffers as exec --gpu does
    run_seconds: str = ""
    sizes: str = ""  # Rodinia: the inputs and arguments used
    runs: list = field(default_factory=list)  # Rodinia: per run its arguments, exit status, digests
    notes: str = ""  # Rodinia: the recipe's notes (sources #included, C files, ...)
    failure: str = ""  # a first guess at the class of failure (several sources, a missing name, ...)


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
# A source needs it when every pattern of the row matches somewhere in it.
SOURCE_NEEDS = [
    # Driver-API modules load GPU binaries (cubin, fatbin, PTX) that a CPU cannot run.
    ([r"\bcuModuleLoad|\bcuLibraryLoad"], "driver-API modules (cubin/fatbin/PTX files)"),
    ([r"cudaGraphicsGL|cudaGLSetGLDevice|GL/gl\.h|GL/glew\.h|GL/freeglut"], "graphics interop (OpenGL)"),
    ([r"cudaImportExternalMemory|cudaImportExternalSemaphore"], "external memory interop"),
    # Warp matrix multiply-accumulate runs on the tensor cores (warpsim refuses it by name).
    ([r"#include\s*<mma\.h>|\bnvcuda::wmma\b|\bwmma::", r"\bmma_sync\b"],
     "tensor-core MMA (wmma/mma.h)"),
    ([r"\bcudaDeviceEnablePeerAccess\b|\bcudaMemcpyPeer(Async)?\b"], "a second GPU (peer access)"),
]


def source_needs(body: str) -> list[str]:
    return [need for patterns, need in SOURCE_NEEDS if all(re.search(p, body) for p in patterns)]


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
                for need in source_needs(source.read_text(errors="replace")):
                    if need not in needs:
                        needs.append(need)
            if folder.parent.name.startswith("8_Platform_Specific"):
                needs.append("platform-specific (Tegra/Windows)")
            if config.get("skip"):
                needs.append("skipped by the suite's own test_args.json")
            common = (root / "Common").resolve()
            own = [d for d in parse_include_directories(text, folder) if d != common]
            # find_package(OpenMP) and OpenMP::OpenMP_CXX: nvcc -Xcompiler -fopenmp.
            host_flags = ["-fopenmp"] if re.search(r"OpenMP::OpenMP_CXX", text) else []
            # The target's CUDA_SEPARABLE_COMPILATION ON: nvcc -rdc=true in the GPU build, as
            # CMake builds it (kernels that launch kernels compile only so).
            separable = re.search(r"CUDA_SEPARABLE_COMPILATION\s+ON", text) is not None
            nvcc_flags = ["-rdc=true"] if separable else []
            # CUDA::cuda_driver: the driver API's library (the simulator has it in its shim).
            if re.search(r"CUDA::cuda_driver", text):
                nvcc_flags.append("-lcuda")
            programs.append(Program(name, folder, sources, runs,
                                    include_dirs=[root / "Common"] + own, needs=needs,
                                    host_flags=host_flags, nvcc_flags=nvcc_flags))
    return programs


# ---------------------------------------------------------------------------------------------
# HeCBench (src/<name>-cuda/): each program's Makefile says how nvcc builds and runs it, read with
# `make -n -B run CC=nvcc` (a dry run: nothing is built in the checkout): the sources on nvcc's
# lines, their -I, -D, -Xcompiler -fopenmp and -l flags, and the `./main ARGS` lines of `run`.

# Libraries on nvcc's link line that a CPU run does not provide.
LINK_NEEDS = {
    "cublas": "cuBLAS", "cublasLt": "cuBLAS", "cufft": "cuFFT", "cusparse": "cuSPARSE",
    "cusolver": "cuSOLVER", "curand": "cuRAND host API", "nvjpeg": "nvJPEG", "nvrtc": "NVRTC",
    "cudnn": "cuDNN", "nccl": "NCCL", "mpi": "MPI", "nvshmem": "NVSHMEM", "cutensor": "cuTENSOR",
    "GL": "graphics interop (OpenGL)", "glut": "graphics interop (OpenGL)",
}
SOURCE_SUFFIXES = (".cu", ".cpp", ".c", ".cc", ".cxx")


def hecbench_program(folder: Path) -> Program:
    name = folder.name
    try:
        dry = subprocess.run(["make", "-n", "-B", "run", "CC=nvcc", "CXX=nvcc", "LAUNCHER="],
                             cwd=folder, capture_output=True, text=True, timeout=30)
        lines = dry.stdout.splitlines() if dry.returncode == 0 else []
    except (OSError, subprocess.TimeoutExpired):
        lines = []
    if not lines:
        return Program(name, folder, [], needs=["no Makefile whose `run` target make can read"])
    sources, includes, defines, host_flags, runs, needs = [], [], [], [], [], []
    run_dir = Path(".")  # where the runs start, from the program's folder
    for line in lines:
        try:
            words = shlex.split(line)
        except ValueError:
            continue
        if words and words[0].endswith("nvcc"):
            i = 1
            while i < len(words):
                w = words[i]
                value = words[i + 1] if i + 1 < len(words) else ""
                if w in ("-I", "-D", "-Xcompiler", "-l", "-o", "-arch"):
                    i += 1
                    w = w + value if w in ("-I", "-D", "-l") else w + " " + value
                if w.startswith("-I"):
                    d = (folder / w[2:]).resolve()
                    if d not in includes:
                        includes.append(d)
                elif w.startswith("-D"):
                    if w[2:] not in defines:
                        defines.append(w[2:])
                elif w.startswith("-Xcompiler "):
                    host_flags += [f for f in w.split(" ", 1)[1].split(",")
                                   if f == "-fopenmp" and f not in host_flags]
                elif w in ("-fopenmp",) and w not in host_flags:
                    host_flags.append(w)
                elif w.startswith("-l"):
                    need = LINK_NEEDS.get(w[2:])
                    if need and need not in needs:
                        needs.append(need)
                elif w.endswith(SOURCE_SUFFIXES) and not w.startswith("-"):
                    source = (folder / w).resolve()
                    if source not in sources:
                        sources.append(source)
                i += 1
        else:
            # `./main ARGS`, or in a folder of its own: `cd dataset && ../main ARGS && cd ..`
            where = Path(".")
            for part in shell_commands(words):
                if part[0] == "cd" and len(part) == 2 and not runs:
                    where = where / part[1]
                elif part[0].startswith(("./", "../")) and Path(part[0]).name == "main":
                    runs.append(part[1:])
                    run_dir = where
                    break
    if not sources:
        needs.append("no nvcc build in its Makefile (" + (lines[0][:60] if lines else "") + ")")
    for source in sources:
        if source.exists():
            for need in source_needs(source.read_text(errors="replace")):
                if need not in needs:
                    needs.append(need)
    # Inputs the suite keeps outside its repository (src/data/..., downloaded by a script, or
    # tracked by DVC: a NAME.dvc file stands for them): a path that is not there, or, in a
    # program that opens files, a file name argument (NAME.EXT, not a number, an option or an
    # output such as out.txt) that names no file.
    runs_in = (folder / run_dir).resolve()
    texts = list(sources) + [f for f in folder.iterdir() if f.suffix in (".h", ".hpp", ".cuh")]
    opens_files = any(re.search(r"\bfopen\b|fstream|\bopen\(", s.read_text(errors="replace"))
                      for s in texts if s.is_file())
    numeric = re.compile(r"^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?[a-zA-Z]?$")
    absent = sorted({a for r in runs for a in r
                     if not a.startswith("-") and not (runs_in / a).exists()
                     and ("/" in a or (opens_files and not numeric.match(a) and "." in a
                                       and not re.search(r"out|result", a, re.I)))})
    dvc = sorted(f.name for f in folder.glob("*.dvc"))
    # A library the Makefile expects at a folder it leaves to the user (-I /path/to/GSL/include).
    placeholders = [d for d in includes if not d.exists()]
    if placeholders:
        needs.append(f"a library its Makefile expects at {placeholders[0]}")
        includes = [d for d in includes if d.exists()]
    if absent:
        needs.append(f"input files not in the checkout ({absent[0]})")
    elif dvc:
        needs.append(f"input files not in the checkout (DVC: {dvc[0]})")
    if not runs_in.is_dir():
        needs.append(f"the folder its runs start in ({run_dir}) is not in the checkout")
        runs_in = folder
    return Program(name, runs_in, sources, runs or [[]], include_dirs=includes,
                   definitions=defines, needs=needs, host_flags=host_flags)


def shell_commands(words: list[str]) -> list[list[str]]:
    """The commands of one shell line split at `&&`, `||` and `;` (words as shlex gives them)."""
    commands, current = [], []
    for w in words:
        if w in ("&&", "||", ";"):
            if current:
                commands.append(current)
            current = []
        elif w.endswith(";") and len(w) > 1:
            current.append(w[:-1])
            commands.append(current)
            current = []
        else:
            current.append(w)
    if current:
        commands.append(current)
    return commands


def hecbench(root: Path) -> list[Program]:
    folders = sorted(d for d in (root / "src").glob("*-cuda") if d.is_dir())
    if not folders:
        raise ValueError("no src/*-cuda folders")
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        return list(pool.map(hecbench_program, folders))


# ---------------------------------------------------------------------------------------------
# Rodinia (the CUDA half: cuda/<benchmark>/). Each benchmark has an explicit recipe: the sources
# its Makefile compiles (less the .cu files that another source #includes, which the Makefile
# does not compile on their own either), its include folders and -D flags, its arguments (the
# suite's `run` file, sized down), and inputs written by compat_inputs.py in the format the
# benchmark's reader parses (the suite's data tarball is not in its repository).
#
# Inputs go to a scratch folder (--work); each run starts in an empty folder of its own there,
# so every file found in it afterwards was written by the program: those files are digested.
# Programs that open "../../data/<name>/..." run two or three folders deep, with the generated
# data placed where that relative path resolves; nothing is copied into the checkout.

import compat_inputs as gen  # noqa: E402  (beside this script)


@dataclass
class Recipe:
    name: str
    folder: str  # under cuda/
    sources: list[str]  # relative to folder, as the Makefile compiles them
    runs: list[list[str]]  # {data} is the folder holding the generated inputs
    inputs: object = None  # callable(data folder) -> description of the sizes
    includes: list[str] = field(default_factory=list)  # relative to folder; {samples}: cuda-samples Common
    defines: list[str] = field(default_factory=list)
    data_rel: str = ""  # the relative data path the program hard-codes ("../../data/dwt2d")
    sizes: str = ""  # arguments' sizes, beside the inputs'
    notes: str = ""  # what a reader of the table should know (compiled as C, textures, ...)
    # Why the suite's own code does not build with today's host compiler (g++ alone refuses it
    # too): shown as the failure class of a compile row, which still counts as not passing.
    suite_fault: str = ""
    # Host compiler flags (exec --Xcompiler, and nvcc's -Xcompiler under --gpu): the Makefile's
    # own (-fopenmp), or what today's compilers need where the suite relied on older headers.
    host_flags: list[str] = field(default_factory=list)


MESCHACH = ("copy err matrixio memory vecop matop pxop submat init otherio machine matlab ivecop "
            "version meminfo memstat lufactor bkpfacto chfactor qrfactor solve hsehldr givens "
            "update norm hessen symmeig schur svd fft mfunc bdfactor sparse sprow sparseio "
            "spchfctr splufctr spbkp spswap iter0 itersym iternsym zmachine zcopy zmatio "
            "zmemory zvecop zmatop znorm zfunc zlufctr zsolve zmatlab zhsehldr zqrfctr zgivens "
            "zhessen zschur").split()


def rodinia_recipes() -> list[Recipe]:
    both = lambda *fs: (lambda d: "; ".join(f(d) for f in fs))  # noqa: E731
    return [
        Recipe("b+tree", "b+tree",
               ["main.c", "kernel/kernel_gpu_cuda_wrapper.cu", "kernel/kernel_gpu_cuda_wrapper_2.cu",
                "util/timer/timer.c", "util/num/num.c", "util/cuda/cuda.cu"],
               [["file", "{data}/mil.txt", "command", "{data}/command.txt"]],
               both(lambda d: gen.bplustree_keys(d / "mil.txt", 8192),
                    lambda d: gen.bplustree_commands(d / "command.txt", 256, 256, 64)),
               notes="main.c, timer.c, num.c are C (gcc); kernel_gpu_cuda{,_2}.cu are #included "
                     "by their wrappers"),
        Recipe("backprop", "backprop",
               ["backprop.c", "facetrain.c", "imagenet.c", "backprop_cuda.cu"],
               [["4096"]], sizes="4096 input units",
               notes="the .c files are K&R C (gcc); backprop_cuda_kernel.cu is #included"),
        Recipe("bfs", "bfs", ["bfs.cu"], [["{data}/graph4096.txt"]],
               lambda d: gen.bfs_graph(d / "graph4096.txt", 4096, 4),
               includes=["../util"], defines=["TIMING"],
               notes="kernel.cu, kernel2.cu are #included"),
        Recipe("cfd", "cfd", ["euler3d.cu"], [["{data}/fvcorr.domn.small"]],
               lambda d: gen.cfd_domain(d / "fvcorr.domn.small", 192),
               includes=["{samples}"], sizes="2000 iterations (hard-coded)",
               notes="helper_cuda.h/helper_timer.h from the CUDA samples' Common (-I SDK/common/inc)"),
        *[Recipe(f"cfd_{suffix}", "cfd", [f"{source}.cu"], [["{data}/fvcorr.domn.small"]],
                 lambda d: gen.cfd_domain(d / "fvcorr.domn.small", 192),
                 includes=["{samples}"], sizes="2000 iterations (hard-coded)",
                 notes=f"{source}: the Makefile's other cfd program; helper_cuda.h as cfd")
          for suffix, source in (("double", "euler3d_double"), ("pre", "pre_euler3d"),
                                 ("pre_double", "pre_euler3d_double"))],
        Recipe("dwt2d", "dwt2d",
               ["main.cu", "dwt.cu", "components.cu", "dwt_cuda/fdwt53.cu", "dwt_cuda/fdwt97.cu",
                "dwt_cuda/common.cu", "dwt_cuda/rdwt97.cu", "dwt_cuda/rdwt53.cu"],
               [["64.bmp", "-d", "64x64", "-f", "-5", "-l", "3"]],
               lambda d: gen.raw_rgb_image(d / "64.bmp", 64, 64),
               includes=["."], defines=["OUTPUT"], data_rel="../../data/dwt2d",
               sizes="5/3 forward, 3 levels",
               notes="reads ../../data/dwt2d/<name> relative to its cwd"),
        Recipe("gaussian", "gaussian", ["gaussian.cu"],
               [["-f", "{data}/matrix16.txt"], ["-s", "16"]],
               lambda d: gen.gaussian_matrix(d / "matrix16.txt", 16), sizes="-s 16"),
        Recipe("heartwall", "heartwall", ["main.cu", "AVI/avilib.c", "AVI/avimod.c"],
               [["{data}/test.avi", "1"]],
               lambda d: gen.avi_gray(d / "test.avi", 640, 640, 2, "heartwall"),
               includes=["AVI"], defines=["OUTPUT"], sizes="1 frame processed",
               notes="kernel.cu, define.c, setdevice.cu are #included; AVI/*.c are C (AVI/makefile)"),
        Recipe("hotspot", "hotspot", ["hotspot.cu"],
               [["128", "2", "4", "{data}/temp_128", "{data}/power_128", "output.out"]],
               lambda d: gen.hotspot(d, 128), sizes="pyramid 2, 4 iterations"),
        Recipe("hotspot3D", "hotspot3D", ["3D.cu"],
               [["64", "8", "2", "{data}/power_64x8", "{data}/temp_64x8", "output.out"]],
               lambda d: gen.hotspot3d(d, 64, 8), sizes="2 iterations",
               notes="opt1.cu is #included"),
        Recipe("huffman", "huffman", ["main_test_cu.cu", "stats_logger.cpp", "cpuencode.cpp"],
               [["{data}/test16k.in"]], lambda d: gen.huffman_data(d / "test16k.in", 65536),
               notes="vlc_kernel_sm64huff.cu, scan.cu, pack_kernels.cu are #included by "
                     "main_test_cu.cu (the Makefile also lists their objects)"),
        Recipe("hybridsort", "hybridsort", ["bucketsort.cu", "mergesort.cu", "main.cu"],
               [["{data}/floats.txt"]], lambda d: gen.floats_text(d / "floats.txt", 16384, "hybridsort"),
               defines=["OUTPUT"],
               notes="texture references (removed in CUDA 12); bucketsort.cu includes GL/glew.h "
                     "and GL/glut.h and calls no GL: their headers must be installed (Debian "
                     "libglew-dev, freeglut3-dev), as for nvcc"),
        Recipe("kmeans", "kmeans",
               ["cluster.c", "getopt.c", "kmeans.c", "kmeans_clustering.c", "kmeans_cuda.cu", "rmse.c"],
               [["-o", "-i", "{data}/kdd_small"]],
               lambda d: gen.kmeans_points(d / "kdd_small", 2048, 34),
               notes="the .c files are C (gcc -fopenmp); texture references; an AIX unistd.h "
                     "beside getopt.c, whose #include <unistd.h> means the system's"),
        Recipe("lavaMD", "lavaMD",
               ["main.c", "kernel/kernel_gpu_cuda_wrapper.cu", "util/num/num.c",
                "util/timer/timer.c", "util/device/device.cu"],
               [["-boxes1d", "2"]], defines=["OUTPUT"], sizes="-boxes1d 2 (generated inside)",
               notes="main.c, num.c, timer.c are C (gcc)"),
        Recipe("leukocyte", "leukocyte/CUDA",
               ["detect_main.c", "avilib.c", "find_ellipse.c", "find_ellipse_kernel.cu",
                "track_ellipse.c", "track_ellipse_kernel.cu", "misc_math.c"]
               + [f"../meschach_lib/{m}.c" for m in MESCHACH],
               [["{data}/testfile.avi", "2"]],
               lambda d: gen.avi_gray(d / "testfile.avi", 640, 480, 3, "leukocyte"),
               includes=["../meschach_lib", "{samples}"], defines=["OUTPUT", "HAVE_CONFIG_H"],
               sizes="2 frames processed",
               notes="C (gcc) with the meschach library, which its Makefile builds with "
                     "./configure into meschach.a (its .c files are listed here)"),
        Recipe("lud", "lud/cuda", ["../common/common.c", "lud.cu", "lud_kernel.cu"],
               [["-s", "64", "-v"], ["-i", "{data}/64.dat", "-v"]],
               lambda d: gen.lud_matrix(d / "64.dat", 64), includes=["../common"],
               defines=["GPU_TIMER"], sizes="-s 64",
               notes="all three compiled by nvcc"),
        Recipe("mummergpu", "mummergpu/src",
               ["mummergpu_main.cpp", "mummergpu_gold.cpp", "suffix-tree.cpp", "PoolMalloc.cpp",
                "mummergpu.cu"],
               [["{data}/ref.fna", "{data}/qry.fna"]],
               lambda d: gen.mummergpu(d, 2048, 128, 25), includes=["."], defines=["UNIX"],
               host_flags=["-fopenmp", "-include", "unistd.h", "-fno-delete-null-pointer-checks"],
               notes="common.cu, mummergpu_kernel.cu are #included; g++ -fopenmp, as its Makefile; "
                     "-include unistd.h: its suffix-tree.cpp calls read() and lseek() without "
                     "<unistd.h>, which today's g++ refuses (older glibc headers brought it in); "
                     "-fno-delete-null-pointer-checks: it tests `if (this)`, which an optimizing "
                     "compiler deletes (its Makefile does not optimize host code); 2-D texture "
                     "references on CUDA arrays"),
        Recipe("myocyte", "myocyte", ["main.cu"], [["2", "1", "0"]], gen.myocyte,
               data_rel="../../data/myocyte", sizes="2 ms, 1 instance, mode 0",
               notes="every other .cu/.c is #included by main.cu; reads "
                     "../../data/myocyte/{y,params}.txt relative to its cwd"),
        Recipe("nn", "nn", ["nn_cuda.cu"],
               [["filelist_4", "-r", "5", "-lat", "30", "-lng", "90"]],
               lambda d: gen.nn_records(d, 4, 1024), data_rel=".",
               notes="the filelist's names are relative to the cwd"),
        Recipe("nw", "nw", ["needle.cu"], [["512", "10"]], sizes="512x512, penalty 10",
               notes="needle_kernel.cu is #included"),
        Recipe("particlefilter_naive", "particlefilter", ["ex_particle_CUDA_naive_seq.cu"],
               [["-x", "64", "-y", "64", "-z", "4", "-np", "256"]],
               sizes="64x64x4 video (generated inside), 256 particles",
               notes="seeds from time(0): not reproducible between runs"),
        Recipe("particlefilter_float", "particlefilter", ["ex_particle_CUDA_float_seq.cu"],
               [["-x", "64", "-y", "64", "-z", "4", "-np", "256"]],
               sizes="64x64x4 video (generated inside), 256 particles",
               notes="seeds from time(0): not reproducible between runs"),
        Recipe("pathfinder", "pathfinder", ["pathfinder.cu"], [["4096", "20", "5"]],
               sizes="4096 columns, 20 rows, pyramid 5 (generated inside)"),
        Recipe("srad_v1", "srad/srad_v1", ["main.cu"], [["2", "0.5", "64", "64"]],
               lambda d: gen.pgm_ascii(d / "image.pgm", 502, 458), data_rel="../../../data/srad",
               sizes="resized to 64x64, 2 iterations",
               notes="the kernels and define.c, graphics.c, resize.c, timer.c, device.c are "
                     "#included; reads a 502x458 ../../../data/srad/image.pgm"),
        Recipe("srad_v2", "srad/srad_v2", ["srad.cu"],
               [["128", "128", "0", "31", "0", "31", "0.5", "2"]],
               sizes="128x128 (generated inside), 2 iterations",
               notes="srad_kernel.cu is #included"),
        Recipe("streamcluster", "streamcluster",
               ["streamcluster_cuda_cpu.cpp", "streamcluster_cuda.cu"],
               [["2", "5", "16", "1024", "1024", "100", "{data}/points.bin", "output.txt", "1"]],
               lambda d: gen.streamcluster_points(d / "points.bin", 1024, 16),
               sizes="k 2..5, chunk 1024, 100 centres",
               notes="streamcluster_header.cu is #included by both (the Makefile also names it)"),
    ]


def rodinia(root: Path, work: Path | None = None, samples: Path | None = None) -> list[Program]:
    base = root / "cuda"
    programs = []
    for r in rodinia_recipes():
        folder = base / r.folder
        includes = []
        for inc in r.includes:
            if inc == "{samples}":
                if samples:
                    includes.append(samples)
            else:
                includes.append((folder / inc).resolve())
        programs.append(Program(r.name, folder, [folder / s for s in r.sources], r.runs,
                                include_dirs=includes, definitions=r.defines, recipe=r,
                                host_flags=r.host_flags))
    return programs


def prepare_rodinia(program: Program, work: Path) -> tuple[Path, Path, str]:
    """Write the program's inputs; return (cwd, data folder, description of the sizes)."""
    r = program.recipe
    home = work / r.name
    if home.exists():
        shutil.rmtree(home)
    if r.data_rel and r.data_rel != ".":
        depth = r.data_rel.split("/").count("..")
        cwd = home.joinpath(*["run"] * depth)
        data = (cwd / r.data_rel).resolve()
    elif r.data_rel == ".":
        cwd = data = home / "run"
    else:
        cwd, data = home / "run", home / "data"
    cwd.mkdir(parents=True, exist_ok=True)
    data.mkdir(parents=True, exist_ok=True)
    described = r.inputs(data) if r.inputs else ""
    sizes = "; ".join(s for s in (described, r.sizes) if s)
    return cwd, data, sizes


# ---------------------------------------------------------------------------------------------

def first_error(output: str) -> str:
    for line in output.splitlines():
        if "error:" in line or "warpsim:" in line and "not simulated" in line:
            return line.strip()
    for line in output.splitlines():
        if "warpsim exec:" in line:
            return line.strip()
    return output.strip().splitlines()[-1] if output.strip() else ""


# A finding of warpsim's report (a memory check's, or a read or write outside an allocation).
FINDING_LINE = re.compile(r"^\s*(data_race|uninitialized_\w+_read|out_of_bounds) at ", re.M)


def classify(code: int, output: str) -> tuple[str, str]:
    if code == 0:
        return "pass", ""
    if code == EXIT_WAIVED and re.search(r"waiv", output, re.I):
        lines = [l for l in output.splitlines() if re.search(r"waiv|requires|not support", l, re.I)]
        return "waived", (lines[0].strip() if lines else "waived")
    if code == 122:
        found = [l.strip() for l in output.splitlines() if FINDING_LINE.match(l)]
        return "findings", (found[0][:300] if found else first_error(output))
    if code == 125:
        return "compile", first_error(output)
    if code == 124:
        return "timeout", first_error(output)
    if code >= 128:
        # warpsim's own account of the crash (the signal, the launch, the lane, an access outside
        # an allocation), else the first error line.
        killed = [l for l in output.splitlines() if "the program was killed by" in l]
        reason = (killed[-1].strip().removeprefix("warpsim exec: ") if killed
                  else first_error(output))
        # The C library's own stop (`*** buffer overflow detected ***: terminated`: a
        # _FORTIFY_SOURCE check in the program's host code, on by default in Ubuntu's g++).
        libc = [l.strip() for l in output.splitlines() if re.match(r"^\*\*\* .+ \*\*\*", l)]
        if libc:
            reason += f" ({libc[0]}: the C library stopped the program's host code)"
        return "crash", reason
    refusal = [l for l in output.splitlines() if "not simulated" in l or "does not simulate" in l]
    if refusal:
        return "refused", refusal[0].strip()
    # warpsim's stop (a deadlock, a livelock, a misuse) names why the program could not go on.
    stopped = [l for l in output.splitlines() if "warpsim stopped the program" in l]
    if stopped:
        return "fail", f"exit {code}: " + stopped[-1].strip().removeprefix("warpsim exec: ")
    tail = [l for l in output.splitlines() if l.strip()]
    return "fail", f"exit {code}: " + (first_error(output) if tail else "")


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:16]


# Lines of a program's stdout that report times (they differ from run to run).
TIMING_LINE = re.compile(r"time|elapsed|\bsec|seconds|\bms\b|msec|timer|throughput|GB/s"
                         r"|\d\s*s\b|% :|^\s*(Init|MemAlloc|HtoD|Exec|DtoH|Close|Total)\s*:", re.I)


def files_in(folder: Path) -> dict[str, tuple[int, float]]:
    found = {}
    for path in sorted(folder.rglob("*")):
        if path.is_file():
            stat = path.stat()
            found[str(path.relative_to(folder))] = (stat.st_size, stat.st_mtime)
    return found


def failure_class(program: Program, result: str, output: str) -> str:
    """A first guess at why a program did not pass, from warpsim's and the compiler's output."""
    if result == "pass":
        return ""
    lines = output.splitlines()
    main = str(program.sources[0]) if program.sources else ""
    undefined = re.search(r"undefined reference to [`‘']([^'’]+)['’]", output)
    if undefined:
        return f"link error: {undefined.group(1)} is defined nowhere"
    for line in lines:
        m = re.match(r"(\S+?):(\d+):\d+: (?:fatal )?error: (.*)", line)
        if not m:
            continue
        where, message = m.group(1), m.group(3)
        if "No such file or directory" in message:
            return f"host header missing: {message.split(':')[0]}"
        if re.search(r"expected primary-expression before .[<>]. token", message):
            if where != main and where.endswith(".cu"):
                return f"launch in an #included .cu not rewritten ({Path(where).name})"
            if where.endswith((".h", ".cuh", ".hpp")):
                return f"launch in a header not rewritten ({Path(where).name})"
            return "launch form not rewritten"
        name = re.search(r"[‘'`]([A-Za-z_][A-Za-z0-9_:]*)[’'`] (?:was not declared|has no member)"
                         r"|has no member named [‘'`]([A-Za-z_][A-Za-z0-9_]*)[’'`]", message)
        if name:
            return f"missing CUDA API name: {name.group(1) or name.group(2)}"
        return "compile error"
    if "not simulated" in output or "does not simulate" in output:
        return "not simulated (refused by name)"
    if result == "timeout":
        return "too slow (time limit)"
    if result == "crash":
        return "crash"
    return ""


def run_one(program: Program, args: argparse.Namespace, category: str) -> Outcome:
    if program.needs and not args.all:
        return Outcome(program.name, category, "skipped", "needs " + ", ".join(program.needs),
                       0.0, program.needs)
    missing = [s for s in program.sources if not s.exists()]
    if missing:
        return Outcome(program.name, category, "fail", f"source missing: {missing[0]}", 0.0,
                       program.needs)
    cwd, data, sizes = program.folder, None, ""
    if program.recipe is not None:
        try:
            cwd, data, sizes = prepare_rodinia(program, args.work)
        except Exception as error:  # a generator's bug: say so in the table, run the rest
            return Outcome(program.name, category, "fail", f"generating inputs: {error!r}", 0.0,
                           program.needs)
    total = 0.0
    result, reason = "pass", ""
    gpu = ""
    run_seconds = ""
    records = []
    for index, run_args in enumerate(program.runs):
        if data is not None:
            run_args = [a.replace("{data}", str(data)) for a in run_args]
            run_cwd = cwd
            if len(program.runs) > 1:  # each run's files apart
                run_cwd = cwd.parent / f"{cwd.name}{index + 1}" if index else cwd
                run_cwd.mkdir(parents=True, exist_ok=True)
                if program.recipe.data_rel == "." and index:
                    for f in cwd.iterdir():
                        if f.is_file() and not (run_cwd / f.name).exists():
                            shutil.copy(f, run_cwd / f.name)
        else:
            run_cwd = cwd
        before = files_in(run_cwd)
        command = [args.warpsim, "exec", "--time-limit", str(args.time_limit)]
        if args.gpu:
            command.append("--gpu")
        for check in args.check:
            command += ["--check", check]
        # The sources first: -I and -D take several values each, and would swallow them.
        command += [str(s) for s in program.sources]
        for d in program.include_dirs:
            command += ["-I", str(d)]
        for d in program.definitions:
            command += ["-D", d]
        if program.host_flags:
            command.append("--Xcompiler=" + ",".join(program.host_flags))
        if args.gpu and program.nvcc_flags:
            command.append("--Xnvcc=" + ",".join(program.nvcc_flags))
        command += ["--"] + run_args
        start = time.monotonic()
        code, stdout, output = run_exec(command, run_cwd, args.time_limit)
        if args.gpu and "did not compile with nvcc" in output:
            # nvcc refuses what the simulator may still run (texture references, cudaDeviceProp
            # fields CUDA 13 removed): the GPU column says so, the simulator's run decides.
            refused = [l.strip() for l in output.splitlines() if "error" in l]
            gpu = "nvcc refuses it: " + (refused[0][:160] if refused else "did not compile")
            code, stdout, output = run_exec([c for c in command if c != "--gpu"], run_cwd,
                                            args.time_limit)
        elif args.gpu:
            gpu = gpu_verdict(code, output)
            times = RUN_TIMES.search(output)
            if times:
                run_seconds = f"{float(times.group(1)):.2f} / {float(times.group(2)):.2f}"
            code = simulator_status(output, code)
            if code == 0 and FINDING_LINE.search(output):
                code = 122  # what exec alone returns: the program's 0 with findings
        total += time.monotonic() - start
        result, reason = classify(code, output)
        kind = failure_class(program, result, output)
        if result == "compile" and program.recipe is not None and program.recipe.suite_fault:
            kind = "the suite's own code: " + program.recipe.suite_fault
        if program.recipe is not None:
            after = files_in(run_cwd)
            written = {name: digest((run_cwd / name).read_bytes()) + f" ({after[name][0]} bytes)"
                       for name in after if before.get(name) != after[name]}
            text = stdout.decode(errors="replace")
            stable = "\n".join(l for l in text.splitlines() if not TIMING_LINE.search(l))
            records.append({"args": [a.replace(str(data), "DATA") for a in run_args],
                            "exit": code, "result": result, "class": kind,
                            "stdout": digest(stdout), "stdout_lines": text.count("\n"),
                            "stdout_without_timings": digest(stable.encode()),
                            "files": written})
        if args.verbose:
            print(f"--- {program.name} {' '.join(run_args)}: {result}\n{output[-3000:]}",
                  file=sys.stderr)
        if result != "pass":
            break
    return Outcome(program.name, category, result, reason, total, program.needs, gpu,
                   run_seconds, sizes, records,
                   program.recipe.notes if program.recipe is not None else "",
                   kind if result != "pass" else "")


def run_exec(command: list[str], cwd: Path, time_limit: float) -> tuple[int, bytes, str]:
    """One `warpsim exec`: its exit status, its stdout, and stdout and stderr as text."""
    try:
        done = subprocess.run(command, cwd=cwd, stdin=subprocess.DEVNULL, capture_output=True,
                              timeout=time_limit * 3 + 300)
        return done.returncode, done.stdout, (done.stdout + done.stderr).decode(errors="replace")
    except subprocess.TimeoutExpired:
        return 124, b"", "warpsim exec did not return"


# exec --gpu's line with the two runs' wall times.
RUN_TIMES = re.compile(r"the program's run took ([\d.]+) s in the simulator, ([\d.]+) s on the GPU")


def gpu_verdict(code: int, output: str) -> str:
    if "stdout identical, exit status identical" in output and code == 0:
        return "identical"
    lines = output.splitlines()
    # exec --gpu's account of every launch's buffers, after the stdout verdict.
    buffers = next((l.split("buffers after every launch:", 1)[1].strip()[:120] for l in lines
                    if "buffers after every launch:" in l), "")
    verdict = gpu_stdout_verdict(lines, code)
    return verdict + (f"; buffers: {buffers}" if buffers else "")


def gpu_stdout_verdict(lines: list[str], code: int) -> str:
    for i, line in enumerate(lines):
        if RUN_TIMES.search(line):
            continue  # the two runs' times, not a verdict
        if line.startswith("warpsim exec --gpu:") or line.startswith("warpsim exec: --gpu:"):
            verdict = line.split(":", 1)[1].strip()[:120]
            # exec --gpu's first differing stdout line, both sides, so the table shows what differs.
            if i + 3 < len(lines) and lines[i + 1].strip().startswith("first difference at line"):
                sim = lines[i + 2].strip().removeprefix("simulator:").strip()[:80]
                gpu = lines[i + 3].strip().removeprefix("GPU:").strip()[:80]
                verdict += (f"; {lines[i + 1].strip().rstrip(':')}: simulator `{sim}`, "
                            f"GPU `{gpu}`")
            return verdict
    return f"exit {code}"


def simulator_status(output: str, code: int) -> int:
    match = re.search(r"simulator (\d+), GPU (\d+)", output)
    return int(match.group(1)) if match else code


def git_commit(path: Path) -> str:
    """The commit of the checkout at `path`; a folder inside another repository (a suite copied
    into this one's .suites/) is not a checkout of its own."""
    try:
        top = subprocess.run(["git", "-C", str(path), "rev-parse", "--show-toplevel"],
                             capture_output=True, text=True, check=True).stdout.strip()
        if Path(top).resolve() != path.resolve():
            return "unknown (not a git checkout: pass --suite-commit)"
        return subprocess.run(["git", "-C", str(path), "rev-parse", "HEAD"], capture_output=True,
                              text=True, check=True).stdout.strip()
    except (subprocess.CalledProcessError, FileNotFoundError):
        return "unknown (not a git checkout)"


ORDER = ["pass", "waived", "refused", "compile", "fail", "findings", "timeout", "crash", "skipped"]


def made_by(args: argparse.Namespace, checkout: Path) -> str:
    return (f"Made by `scripts/compat.py {args.suite} CHECKOUT` on "
            f"{datetime.date.today().isoformat()}: suite commit "
            f"`{args.suite_commit or git_commit(checkout)}`, warpsim commit `{git_commit(REPO)}`, "
            f"{platform.machine()} {os.cpu_count()} cores, time limit {args.time_limit:g} s a run"
            + (f", `--check {','.join(args.check)}`" if args.check else "") + ".")


def write_table(outcomes: list[Outcome], args: argparse.Namespace, checkout: Path,
                notes: list[str]) -> str:
    """`notes`: the paragraphs under the title (how, where and when the rows were made)."""
    counted = [o for o in outcomes if not o.needs]
    counts = {r: sum(1 for o in counted if o.result == r) for r in ORDER}
    gpu_column = args.gpu or any(o.gpu for o in outcomes)
    times_column = any(o.run_seconds for o in outcomes)
    lines = [f"# {args.suite} under `warpsim exec`", ""]
    for note in notes:
        lines += [note, ""]
    lines += [
        f"Programs that need only what a CPU can provide: **{len(counted)}**. "
        + ", ".join(f"{r} {counts[r]}" for r in ORDER if counts[r]) + ".",
    ]
    sized = any(o.sizes for o in outcomes)
    runnable = len(counted) - counts["waived"]
    if runnable:
        lines.append(f"Pass rate among those the suite itself does not waive: "
                     f"{counts['pass']}/{runnable} ({100 * counts['pass'] / runnable:.0f}%).")
        if counts["findings"]:
            ran = counts["pass"] + counts["findings"]
            lines.append(f"Ran to their own end (pass, or findings: the program returned 0 and "
                         f"warpsim named a bug in it, exit 122): {ran}/{runnable} "
                         f"({100 * ran / runnable:.0f}%).")
    lines += ["", f"Programs that need more than a CPU (not counted): "
              f"{sum(1 for o in outcomes if o.needs)}.", "",
              "| program | group | result | seconds |" + (" inputs |" if sized else "")
              + " reason |" + (" GPU |" if gpu_column else "")
              + (" run, simulator / GPU (s) |" if times_column else ""),
              "|---|---|---|---:|" + ("---|" if sized else "") + "---|"
              + ("---|" if gpu_column else "") + ("---:|" if times_column else "")]
    for o in sorted(outcomes, key=lambda o: (bool(o.needs), ORDER.index(o.result), o.category,
                                            o.name)):
        # Paths of this machine say nothing to a reader: the checkout and scratch folders go.
        reason = o.reason.replace(str(checkout) + "/", "").replace(str(REPO) + "/", "")
        # Rows kept from an earlier run (--merge) name that run's checkout and tree.
        reason = re.sub(r"(?<![\w.])/[^\s:'`()]*/(?=(Samples|sim|tests)/)", "", reason)
        reason = re.sub(r"/tmp/[^\s:'`]*/", "", reason).replace("|", "\\|")[:200]
        if o.failure:
            reason = f"{o.failure}: {reason}"
        if o.needs and not reason.startswith("needs "):
            reason = f"needs {', '.join(o.needs)} (not counted); ran: {reason}"[:260]
        row = f"| {o.name} | {o.category} | {o.result} | {o.seconds:.1f} |"
        if sized:
            row += f" {o.sizes.replace('|', '/')} |"
        row += f" {reason} |"
        if gpu_column:
            row += f" {o.gpu.replace('|', chr(92) + '|')} |"
        if times_column:
            row += f" {o.run_seconds} |"
        lines.append(row)
    if any(o.runs for o in outcomes):
        lines += ["", "Each run's exit status and digests (sha256, first 16 hex digits) of its stdout, "
                  "of its stdout less the lines that report times, and of every file it wrote "
                  "(in the JSON). DATA is the folder of generated inputs.", "",
                  "| program | arguments | exit | stdout | stdout less timings | files written |",
                  "|---|---|---:|---|---|---|"]
        for o in sorted(outcomes, key=lambda o: o.name):
            for r in o.runs:
                files = ", ".join(f"{n} {d.split()[0]}" for n, d in r["files"].items()) or "-"
                lines.append(f"| {o.name} | `{' '.join(r['args'])}` | {r['exit']} | {r['stdout']} "
                             f"| {r['stdout_without_timings']} | {files.replace('|', '/')[:300]} |")
    return "\n".join(lines) + "\n"


def merged(fresh: list[Outcome], every_program: dict, args: argparse.Namespace,
           checkout: Path) -> tuple[list[Outcome], list[str]]:
    """The rows of --merge's JSON with `fresh` in place of theirs, every row's needs recomputed,
    and the notes of the --out table (if there is one) with this run's added."""
    try:
        rows = [Outcome(**row) for row in json.loads(args.merge.read_text())]
    except (OSError, ValueError, TypeError) as error:
        raise SystemExit(f"compat.py: cannot read {args.merge}: {error}")
    commit = git_commit(REPO)[:7]
    by_name = {o.name: o for o in rows}
    for o in fresh:
        previous = by_name.get(o.name)
        if previous is not None and previous.gpu and not args.gpu:
            o.gpu = f"not rerun with --gpu (rerun at {commit})"
        by_name[o.name] = o
    for o in by_name.values():
        if o.name in every_program:
            o.needs = every_program[o.name].needs
    notes = []
    if args.out and args.out.exists():
        paragraphs = args.out.read_text().split("\n\n")[1:]  # the title's paragraph left out
        for paragraph in paragraphs:
            if paragraph.startswith("Programs that need only") or paragraph.startswith("|"):
                break
            notes.append(paragraph.strip())
    if not notes:
        notes = [made_by(args, checkout)]
    where = f"{platform.machine()} {os.cpu_count()} cores"
    if fresh:
        notes.append(
            f"Rows rerun since on {datetime.date.today().isoformat()}, {where}, with "
            f"`scripts/compat.py {args.suite} CHECKOUT --only {','.join(sorted(o.name for o in fresh))} "
            f"--jobs {args.jobs}{' --gpu' if args.gpu else ''} --merge` at warpsim {commit} "
            f"(time limit {args.time_limit:g} s; the counts below include them): "
            + ", ".join(f"{o.name} {o.result}" for o in sorted(fresh, key=lambda o: o.name)) + ".")
    else:
        notes.append(
            f"Counts recomputed from the rows on {datetime.date.today().isoformat()} at warpsim "
            f"{commit} with `--merge JSON --rewrite` (no program rerun), with the rules of "
            f"scripts/compat.py for what needs more than a CPU.")
    return list(by_name.values()), notes


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("suite", choices=["cuda-samples", "rodinia", "hecbench"])
    parser.add_argument("checkout", type=Path, help="a checkout of the suite (kept outside the repo)")
    parser.add_argument("--warpsim", default=str(REPO / "build/release/cli/warpsim"))
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--time-limit", type=float, default=120)
    parser.add_argument("--only", default="", help="comma-separated program names")
    parser.add_argument("--every", type=int, default=1,
                        help="a sample of a large suite: every Nth program in name order "
                             "(after --only)")
    parser.add_argument("--all", action="store_true",
                        help="also run programs that need more than a CPU")
    parser.add_argument("--gpu", action="store_true", help="run each with exec --gpu")
    parser.add_argument("--check", action="append", default=[],
                        help="run each with exec --check CHECK (races, uninit, bounds, all); "
                             "findings become their own outcome")
    parser.add_argument("--out", type=Path, help="write the markdown table here")
    parser.add_argument("--json", type=Path, help="write the outcomes as JSON here")
    parser.add_argument("--verbose", action="store_true", help="print each run's output")
    parser.add_argument("--merge", type=Path,
                        help="start from the outcomes in this JSON (an earlier --json): the "
                             "programs run now replace their rows, every row's needs are "
                             "recomputed from the checkout with this script's rules, and the "
                             "notes under the --out table's title are kept, with one added for "
                             "this run")
    parser.add_argument("--rewrite", action="store_true",
                        help="with --merge: run nothing, rewrite the table and its counts from "
                             "the JSON's rows")
    parser.add_argument("--suite-commit", default="",
                        help="the suite's commit, for a checkout that is not a git repository")
    parser.add_argument("--work", type=Path,
                        help="Rodinia: scratch folder for the generated inputs and each run's "
                             "files (default: a new folder under /tmp)")
    parser.add_argument("--samples", type=Path,
                        help="Rodinia: the CUDA samples' Common folder, for helper_cuda.h "
                             "(cfd and leukocyte use -I SDK/common/inc; default: a cuda-samples "
                             "checkout beside the suite's, if there is one)")
    args = parser.parse_args()

    checkout = args.checkout.resolve()
    if args.samples is not None:
        args.samples = args.samples.resolve()  # programs run in folders of their own
    if not checkout.is_dir():
        print(f"compat.py: {checkout}: no such folder", file=sys.stderr)
        return 2
    # Programs run in their own folders: a relative --warpsim is the caller's.
    args.warpsim = os.path.abspath(args.warpsim)
    if not os.access(args.warpsim, os.X_OK):
        print(f"compat.py: {args.warpsim} is not an executable: build warpsim first "
              f"(scripts/setup.sh start) or pass --warpsim", file=sys.stderr)
        return 2
    try:
        if args.suite == "cuda-samples":
            programs = cuda_samples(checkout)
        elif args.suite == "hecbench":
            programs = hecbench(checkout)
        else:
            samples = args.samples or next((c for c in (checkout.parent / "cuda-samples/Common",)
                                            if c.is_dir()), None)
            args.work = (args.work or Path(tempfile.mkdtemp(prefix="warpsim-rodinia-"))).resolve()
            args.work.mkdir(parents=True, exist_ok=True)
            programs = rodinia(checkout, args.work, samples)
    except (OSError, ValueError) as error:
        print(f"compat.py: cannot read the suite at {checkout}: {error}", file=sys.stderr)
        return 2
    every_program = {p.name: p for p in programs}
    if args.every < 1:
        print(f"compat.py: --every {args.every}: give 1 or more", file=sys.stderr)
        return 2
    if args.rewrite and not args.merge:
        print("compat.py: --rewrite rewrites the table from --merge JSON: give one", file=sys.stderr)
        return 2
    if args.only:
        wanted = set(args.only.split(","))
        programs = [p for p in programs if p.name in wanted]
    if args.every > 1:
        programs = sorted(programs, key=lambda p: p.name)[::args.every]
    if args.rewrite:
        programs = []
    elif not programs:
        print("compat.py: no programs found", file=sys.stderr)
        return 2

    def category(p: Program) -> str:
        return p.folder.parent.name if args.suite == "cuda-samples" else args.suite

    outcomes = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = {pool.submit(run_one, p, args, category(p)): p for p in programs}
        for future in concurrent.futures.as_completed(futures):
            o = future.result()
            outcomes.append(o)
            print(f"{o.result:8} {o.seconds:6.1f}s  {o.name}  {o.reason[:150]}", flush=True)
    notes = [made_by(args, checkout)]
    if args.merge:
        outcomes, notes = merged(outcomes, every_program, args, checkout)
    table = write_table(outcomes, args, checkout, notes)
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
