#!/usr/bin/env bash
# Runs every planted race and uninitialised read of tests/races (and its fixed twin) under NVIDIA's
# compute-sanitizer --tool racecheck and --tool initcheck, and under `warpsim run --check all`,
# and writes the comparison table tests/races/gpu_comparison.md: which tool names which bug, and
# how. nvcc builds a tiny host driver per kernel file (buffers as races.json's --arg specs, one
# launch, a synchronize).
#
#   tests/races/record_gpu.sh [--build DIR] [--arch sm_90]
#
# warpsim is built in DIR (default build/record) unless $WARPSIM names a built one. Needs nvcc,
# compute-sanitizer (CUDA toolkit's bin/) and a CUDA device.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="$root/build/record"
arch="sm_90"
while [[ $# -gt 0 ]]; do
  case "$1" in
    --build) build="$2"; shift 2 ;;
    --arch) arch="$2"; shift 2 ;;
    -h|--help) sed -n '2,11p' "${BASH_SOURCE[0]}"; exit 0 ;;
    *) echo "record_gpu.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
. "$root/scripts/gpu_recording.sh"
require_gpu record_gpu.sh
cuda_bin="$(dirname "$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)")"
for tool in nvcc compute-sanitizer; do
  if [[ ! -x "$cuda_bin/$tool" ]]; then
    echo "record_gpu.sh: $tool not found (put the CUDA toolkit's bin/ on PATH)" >&2
    exit 3
  fi
done
warpsim="$(warpsim_for_gpu "$root" "$build" record_gpu.sh)"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
python3 - "$root/tests/races" "$work" "$cuda_bin" "$arch" "$warpsim" <<'PY'
import json, os, re, subprocess, sys, datetime

races, work, cuda_bin, arch, warpsim = sys.argv[1:6]
manifest = json.load(open(os.path.join(races, "races.json")))
ctypes = {"i32": "int", "u32": "unsigned int", "f32": "float", "i64": "long long",
          "u64": "unsigned long long", "f64": "double"}

def driver(kernel_file, entry):
    """A host program: the kernel file, its buffers as the --arg specs say, one launch."""
    lines = ['#include "%s"' % kernel_file, "#include <cstdio>", "#include <cstdlib>",
             "int main() {"]
    names = []
    for i, spec in enumerate(entry["args"]):
        m = re.fullmatch(r"(\w+)\[(\d+)\]:(.*)", spec)
        if m:
            t, n, init = ctypes[m.group(1)], int(m.group(2)), m.group(3)
            lines.append("  %s* h%d = (%s*)calloc(%d, sizeof(%s));" % (t, i, t, n, t))
            if init == "iota":
                lines.append("  for (int k = 0; k < %d; ++k) h%d[k] = (%s)k;" % (n, i, t))
            elif init.startswith("random"):
                parts = init.split(":")
                lo, hi = (int(parts[2]), int(parts[3])) if len(parts) == 4 else (-99, 99)
                lines.append("  srand(%s);" % parts[1])
                lines.append("  for (int k = 0; k < %d; ++k) h%d[k] = (%s)(%d + rand() %% %d);"
                             % (n, i, t, lo, hi - lo + 1))
            lines.append("  %s* d%d; cudaMalloc(&d%d, %d * sizeof(%s));" % (t, i, i, n, t))
            lines.append("  cudaMemcpy(d%d, h%d, %d * sizeof(%s), cudaMemcpyHostToDevice);"
                         % (i, i, n, t))
            names.append("d%d" % i)
        else:
            t, value = spec.split(":", 1)
            lines.append("  %s a%d = (%s)%s;" % (ctypes[t], i, ctypes[t], value))
            names.append("a%d" % i)
    grid = entry["grid"].replace(",", ", ")
    block = entry["block"].replace(",", ", ")
    lines.append("  %s<<<dim3(%s), dim3(%s)>>>(%s);" % (entry["kernel"], grid, block,
                                                       ", ".join(names)))
    lines.append('  cudaError_t e = cudaDeviceSynchronize();')
    lines.append('  if (e != cudaSuccess) { printf("%s\\n", cudaGetErrorString(e)); return 1; }')
    lines.append("  return 0;\n}")
    return "\n".join(lines) + "\n"

def sanitizer(binary, tool):
    extra = ["--racecheck-report", "hazard"] if tool == "racecheck" else []
    run = subprocess.run([os.path.join(cuda_bin, "compute-sanitizer"), "--tool", tool] + extra +
                         [binary], capture_output=True, text=True, timeout=600)
    text = run.stdout + run.stderr
    summary = re.search(r"(ERROR|RACECHECK) SUMMARY: (\d+) (hazard|error)", text)
    count = int(summary.group(2)) if summary else 0
    sites = sorted(set(re.findall(r"at (?:0x[0-9a-f]+ in )?\S*?([\w.]+\.cu):(\d+)", text)))
    first = next((l.strip() for l in text.splitlines()
                  if "Race reported" in l or "Uninitialized" in l or "hazard" in l.lower()), "")
    lines = ", ".join(sorted({s[1] for s in sites}, key=int))
    if count == 0:
        return "none"
    return "%d: lines %s; \"%s\"" % (count, lines or "?", first[:90].replace("|", "/"))

def simulator(path, entry):
    cmd = [warpsim, "run", path, "--kernel", entry["kernel"], "--grid", entry["grid"],
           "--block", entry["block"], "--check", "all", "--json"]
    for a in entry["args"]:
        cmd += ["--arg", a]
    out = json.loads(subprocess.run(cmd, capture_output=True, text=True).stdout)
    found = []
    for d in out.get("diagnostics", []):
        if d["kind"] in ("data_race", "uninitialized_shared_read"):
            lines = sorted({int(x) for x in re.findall(r"\.cu:(\d+)", d["message"])})
            kind = "race" if d["kind"] == "data_race" else "uninit"
            found.append("%s %s" % (kind, "/".join(map(str, lines))))
    return "; ".join(found) or "none"

gpu = subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version", "--format=csv,noheader"],
                     capture_output=True, text=True).stdout.strip()
nvcc = subprocess.run([os.path.join(cuda_bin, "nvcc"), "--version"], capture_output=True,
                      text=True).stdout.strip().splitlines()[-1]
rows = []
for entry in manifest["entries"]:
    for suffix in ("", "_fixed"):
        name = entry["name"] + suffix
        path = os.path.join(races, "kernels", name + ".cu")
        source = os.path.join(work, name + "_driver.cu")
        open(source, "w").write(driver(path, entry))
        binary = os.path.join(work, name)
        build = subprocess.run([os.path.join(cuda_bin, "nvcc"), "-arch=" + arch, "-lineinfo",
                                "-o", binary, source], capture_output=True, text=True)
        if build.returncode != 0:
            rows.append((name, simulator(path, entry), "did not build", "did not build"))
            print(build.stderr, file=sys.stderr)
            continue
        rows.append((name, simulator(path, entry), sanitizer(binary, "racecheck"),
                     sanitizer(binary, "initcheck")))
        print(name, rows[-1][1:], file=sys.stderr)

with open(os.path.join(races, "gpu_comparison.md"), "w") as md:
    md.write("# Planted races: warpsim --check all versus compute-sanitizer\n\n")
    md.write("Recorded by `tests/races/record_gpu.sh` on %s, %s, %s (%s). Each cell: what the "
             "tool reports (count, the kernel file's lines, its first words); warpsim: the kind and "
             "the lines each diagnostic names. racecheck looks at shared memory only; initcheck "
             "at global memory only.\n\n" % (datetime.date.today(), gpu, nvcc, arch))
    md.write("| kernel | warpsim --check all | racecheck | initcheck |\n|---|---|---|---|\n")
    for row in rows:
        md.write("| " + " | ".join(c.replace("|", "/") for c in row) + " |\n")
print("wrote", os.path.join(races, "gpu_comparison.md"), file=sys.stderr)
PY
